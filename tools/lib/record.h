/*
 * record.h - a game as a PGN-syntax record (PROTOCOL.md "Game records").
 *
 * Tags, in this order: Event Site Date Round Variant, FEN when the game did not
 * start from the variant's start position, TimeControl, one tag per seat in play
 * named after its colour (White Red Blue Black Yellow Green, in turn order), Result,
 * Places (once the game is over), Termination and the caller's extra tags (the
 * arena's Schedule, ScheduleGames, ScheduleSets and Shard). Movetext numbers rounds
 * ("1. m3-m4 e15-e14 2. ..."; "5..." when the start position is mid-round), writes
 * each move in canonical notation (move_str), a turn skipped because the seat was
 * still playing but had no legal move as "--" (seats that finished are not
 * written), an optional {comment} after a move, and ends with the result; lines
 * are wrapped before 80 columns as PGN export format asks.
 *
 * Result: "1-0", "0-1" or "1/2-1/2" for a finished 2-player game; for 3-6 seats
 * the places in turn order joined by '-' ("1-3-2": w first, u third, y second;
 * team members show their team's place), as PROTOCOL.md defines; "*" for an
 * unfinished game in every seat count.
 */
#ifndef STERN_RECORD_H
#define STERN_RECORD_H

#include "game.h"

#include <stdio.h>

#define RECORD_PLACES_MAX 64 /* "w:1 r:2 u:3 b:4 y:5 g:6" with its NUL */
#define RECORD_RESULT_MAX 16 /* "1-2-3-4-5-6" with its NUL */

/* What the record says beyond the moves; a NULL field is written as noted. */
typedef struct RecordTags {
    const char *event;             /* NULL: "?" */
    const char *site;              /* NULL: "?" */
    const char *date;              /* "YYYY.MM.DD"; NULL: "????.??.??" */
    const char *round;             /* NULL: "?" */
    const char *time_control;      /* PGN TimeControl, e.g. "40/60+0.5", "0.2/move"; NULL: "-" */
    const char *players[MAX_SEATS]; /* by seat (0-5): the engine or player; NULL: "?" */
    const char *termination;       /* NULL: the end reason of the position ("arrived", ...),
                                      or "unterminated" while the game goes on */
    const char *const *comments;   /* NULL, or one per ply (NULL or "" for none), written
                                      as {text} after that move */
    const char *const (*extra)[2]; /* nextra more tags {name, value}, written last */
    int nextra;
} RecordTags;

/* Writes the record of game g (its start position and moves) with tags t to f,
 * followed by an empty line. Returns 0, or -1 on a write error. */
int record_write(FILE *f, const Game *g, const RecordTags *t);

/* Writes game g as a record with the tags tags[i][0] = tags[i][1] (name,
 * value; i < ntags) as given, then movetext as record_write's: the comment
 * `head` first (NULL: none), a comment per ply (comments: NULL, or one per ply,
 * NULL or "" for none) and the result token `result` (NULL: the position's),
 * followed by an empty line. Returns 0, or -1 on a write error. */
int record_write_as(FILE *f, const Game *g, const char *const (*tags)[2], int ntags, const char *head,
                    const char *const *comments, const char *result);

/* The PGN Result of position p (see above) into buf (n bytes, RECORD_RESULT_MAX
 * is enough). Returns buf. */
char *record_result(const Position *p, char *buf, size_t n);

/* Writes the places of a finished game as "w:1 u:2 y:3" (seats in turn order) into
 * buf (n bytes, RECORD_PLACES_MAX is enough); "" while the game goes on.
 * Returns buf. */
char *record_places(const Position *p, char *buf, size_t n);

/* The colour name of seat s (0-5) as its tag is named: "White", "Red", ... */
const char *record_colour_tag(int s);

/* Writes today's local date as PGN wants it ("2024.05.31") into buf (at least 11
 * bytes). Returns buf. */
char *record_today(char *buf);

#endif
