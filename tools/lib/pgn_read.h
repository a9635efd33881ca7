/*
 * pgn_read.h - reading game records (PROTOCOL.md "Game records", as record.h
 * writes them) back into memory, and turning one into a RatedGame (ratings.h).
 *
 * A file holds games one after another: tag pairs `[Name "value"]`, one a line,
 * values with \" and \\ escapes; then movetext: move tokens, `--` for a skipped
 * turn, round numbers ("12." or "12...", skipped), `{comments}` (which may span
 * lines) and `;` rest-of-line comments and `$n` glyphs (skipped), ended by the
 * result token "1-0", "0-1", "1/2-1/2" or "*". Blank lines between the parts are
 * optional.
 *
 * A crash while a record was being written leaves a game cut short: the file ends
 * before its result (possibly mid-line), or the next game's tags start before it
 * (on a line of their own or right after the cut text).
 * Such a game is reported as PGN_INCOMPLETE, not as an error, with the byte offset
 * where it started so that a resuming tournament can drop it (truncate the file
 * there); reading goes on after it. Everything else that is not a record is a
 * PGN_ERROR whose message names the file and line, e.g.
 * "games.pgn:57: unterminated tag".
 *
 * Lines are bounded: a line longer than PGN_READ_LINE_MAX bytes, or one holding a
 * NUL byte, is not text and so not a record (a binary file, /dev/zero, a disk
 * image): it is a PGN_ERROR naming the file and line, and the reader reads no
 * further (its next call says PGN_EOF), so memory stays bounded whatever the
 * file holds. A read error of the stream ends reading the same way.
 *
 * The API is shared by the arena (tools/arena/), stern-spsa, stern-annotate,
 * stern-book, stern-board and stern-arrivals: keep it stable.
 */
#ifndef STERN_PGN_READ_H
#define STERN_PGN_READ_H

#include "game.h"
#include "ratings.h"
#include "variant.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PGN_ERR_MAX 320 /* a comfortable size for err buffers */
#define PGN_READ_LINE_MAX (1 << 20) /* the longest line of a record file, bytes before its newline
                                  (1 MiB: records wrap their lines before 80 columns, and
                                  the longest comment or tag is a few KiB) */

typedef struct PgnTag {
    char *name;  /* e.g. "White" */
    char *value; /* unescaped, e.g. "Stern 1.0" */
} PgnTag;

/* One game record. Strings and arrays are owned by the game (pgn_game_free). */
typedef struct PgnGame {
    PgnTag *tags;     /* every tag, in file order */
    int ntags;
    char **moves;     /* move tokens in order, "--" for a skipped turn */
    int *move_lines;  /* the file line (from 1) of each move token */
    int nmoves;
    char result[16];  /* the closing token: "1-0", "0-1", "1/2-1/2", 3-6 places
                         ("1-3-2") or "*"; "" for an incomplete game */
    int line;         /* file line (from 1) where the game starts */
    long start;       /* byte offset of the game's first line */
    long end;         /* byte offset just past the game: after its result's line and
                         the blank lines that follow (where an incomplete game stops,
                         for one) */
} PgnGame;

typedef enum {
    PGN_ERROR = -1,     /* not a record; err says where and why */
    PGN_EOF = 0,        /* no more games */
    PGN_OK = 1,         /* *g holds a complete game */
    PGN_INCOMPLETE = 2, /* *g holds a game cut short (tags and moves so far); err
                           says where it starts */
} PgnStatus;

/* Reading state; fields are private to pgn_read.c. */
typedef struct PgnReader {
    FILE *f;
    const char *name; /* for messages */
    char *buf;        /* the current line, with its '\n' when it has one */
    size_t cap;
    long len;         /* bytes in buf; -1 at end of file */
    bool held;        /* buf holds a line not consumed yet */
    size_t col;       /* where its unconsumed part starts */
    int line;         /* number of the line in buf */
    long offset;      /* byte offset of the line in buf */
    long next;        /* byte offset of the line after it */
    bool resync;      /* after an error: skip to the next Event tag */
    int fault;        /* 0; else the stream is read no further: a line over PGN_READ_LINE_MAX,
                         a NUL byte or a read error (1: not reported yet, 2: reported) */
    char fault_what[96]; /* what it was */
} PgnReader;

/* Starts reading stream f (opened for reading, at its start) named `name` in
 * messages (the string must outlive the reader). */
void pgn_reader_init(PgnReader *r, FILE *f, const char *name);

/* Frees the reader's line buffer (the stream stays open). */
void pgn_reader_free(PgnReader *r);

/* Reads the next game into *g (overwritten; free it with pgn_game_free after
 * PGN_OK and PGN_INCOMPLETE). Returns a PgnStatus; with PGN_INCOMPLETE and
 * PGN_ERROR, err (errlen bytes, PGN_ERR_MAX is enough) gets "name:line: what",
 * e.g. "games.pgn:57: unterminated tag" or "games.pgn:40: incomplete game (the
 * file ends before its result)". After an error, the next call resumes at the
 * next line that starts with an Event tag (the first tag of every record). A
 * line over PGN_READ_LINE_MAX bytes ("games.pgn:3: a line longer than 1048576
 * bytes: not a record file"), a NUL byte ("games.pgn:1: a NUL byte at column
 * 1: not a record file") and a read error of the stream are PGN_ERRORs after
 * which every call returns PGN_EOF. */
PgnStatus pgn_read_game(PgnReader *r, PgnGame *g, char *err, size_t errlen);

/* Frees what *g owns and zeroes it. */
void pgn_game_free(PgnGame *g);

/* What pgn_read_each does at a PGN_ERROR. */
typedef enum {
    PGN_ERRORS_END,  /* it ends the reading: -1 with its message in err */
    PGN_ERRORS_PASS, /* it goes to fn (no game) as the games do, and reading goes on
                        after it (at the next Event tag) */
} PgnErrors;

/* Called by pgn_read_each for every game read: status PGN_OK (a complete game)
 * or PGN_INCOMPLETE (cut short; why says where), and with PGN_ERRORS_PASS
 * PGN_ERROR (g NULL; why says where and why). The game is freed after fn
 * returns, unless fn takes it (copies *g and zeroes it). Returns 0 to go on, 1
 * to stop, or -1 with the reason in err (n bytes) to stop. */
typedef int (*PgnEachFn)(PgnGame *g, PgnStatus status, const char *why, void *ctx, char *err, size_t n);

/* The one loop over a record file: reads every game of stream f (named `name`
 * in messages) and hands it to fn with ctx. Returns 0 at the end of the
 * stream, or what fn stopped with (1, or -1 with err), or -1 with err at a
 * PGN_ERROR under PGN_ERRORS_END. */
int pgn_read_each(FILE *f, const char *name, PgnErrors errors, PgnEachFn fn, void *ctx, char *err, size_t n);

/* Reads every game of f (named `name` in messages): complete games go to *games
 * (*ngames of them, in file order; free with pgn_games_free), incomplete ones are
 * skipped and counted in *nincomplete (NULL: not counted), the message of the last
 * one left in err. Returns 0, or -1 on the first PGN_ERROR or when memory runs out
 * (message in err, nothing returned). */
int pgn_read_all(FILE *f, const char *name, PgnGame **games, int *ngames, int *nincomplete, char *err,
                 size_t errlen);

/* Frees n games and the array. */
void pgn_games_free(PgnGame *games, int n);

/* Replays record pg into *g: its Variant, its FEN tag (else the variant's
 * start) and its moves (a `--` is passed over: the rules skip a seat without a
 * move themselves). Returns 0, or -1 with err (n bytes) saying where and why as
 * "<name>:<line>: ...", the line of the tag or move at fault: no or an unknown
 * Variant, a bad FEN, a move that is malformed, illegal or after the end. */
int pgn_replay(const PgnGame *pg, const char *name, Game *g, char *err, size_t n);

/* The value of the first tag called `name` (case-sensitive, as PGN), or NULL. */
const char *pgn_tag(const PgnGame *g, const char *name);

/* The name under which unit `unit` (0-based, in the turn order of the game's
 * Variant; see pgn_rated_game) is rated, written into buf (n bytes): the seat's
 * colour tag (White, Red, ...); in a team variant the team's, which is the common
 * name when both partners carry the same one, else "A+B" (the partner of the
 * lower seat second). Returns buf, or NULL when the Variant tag is missing or
 * unknown, unit is out of range, a colour tag is missing or buf is too short. */
char *pgn_unit_name(const PgnGame *g, int unit, char *buf, size_t n);

/* The places of g's seats into place[seat] (0 for seats not in play), from its
 * Places tag or else its Result. Returns 0; 1 when it has no outcome (no Places
 * and no decisive Result); -1 with err for an unknown Variant or malformed
 * Places. The moves are not replayed. */
int pgn_places(const PgnGame *g, int place[MAX_SEATS], char *err, size_t errlen);

/* Fills *out from g for rating: the units are the seats in play in turn order
 * (Variant tag; in team variants pairs-4 and pairs-6 one unit per team, named by
 * its lower seat, partners sit opposite), out->player[i] the index of
 * pgn_unit_name(g, i) in names[0..nnames-1] (exact match), out->place[i] the
 * unit's place from the Places tag ("w:1 u:2 y:3"; partners must share theirs),
 * or without Places from Result ("1-0", or "1-3-2" with 3-6 seats); out->pair = -1 (the caller knows
 * its pairing). Returns 0; 1 when the game has no outcome to rate (no Places tag
 * and no decisive Result, e.g. unfinished "*"); -1 with err (errlen bytes, no
 * file or line: the caller prefixes g->line) when the Variant is unknown, a
 * colour tag is missing, a name is not in names, or Places is malformed. */
int pgn_rated_game(const PgnGame *g, const char *const *names, int nnames, RatedGame *out, char *err,
                   size_t errlen);

#endif
