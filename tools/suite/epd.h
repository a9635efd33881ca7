/*
 * epd.h - position suites in an EPD-like format (docs/ANALYSIS.md): one
 * position a line, its FEN (PROTOCOL.md's four fields) and then operations
 * `opcode operand ...;`:
 *   variant <name>;      the variant (required)
 *   bm <move> ...;       the best moves: one of them solves the position
 *   am <move> ...;       moves to avoid: none of them may be played
 *   id "<text>";         the position's name
 *   c0 "<text>";         a comment (why the answer is right)
 * e.g. `w/ww/.../b w w40,b40 41 variant classic-2; bm i13-h14; id "race.001";`.
 * A line starting with '#', and a blank line, is no position. Every move is
 * checked against the position by the rules library.
 */
#ifndef STERN_EPD_H
#define STERN_EPD_H

#include "fen.h"
#include "game.h"

#include <stdio.h>

#define EPD_MAX_MOVES 64 /* bm or am moves of one position */
#define EPD_ID_MAX 128

typedef struct {
    int line;                    /* of the file, from 1 */
    const Variant *v;
    char fen[FEN_MAX];
    Position pos;                /* the FEN set up */
    Move bm[EPD_MAX_MOVES], am[EPD_MAX_MOVES];
    int nbm, nam;
    char id[EPD_ID_MAX];
    char comment[256];
} EpdPosition;

/* Reads line `text` (line number `line`) of a suite: returns 1 with *out, 0
 * for a line that holds no position (blank, '#' comment), -1 with the reason
 * in err (n bytes; without file or line): a bad FEN, an unknown or missing
 * variant, an unknown opcode, a bm or am move that is not legal there, no bm
 * and no am, an unterminated string. */
int epd_parse(const char *text, int line, EpdPosition *out, char *err, size_t n);

/* Writes p as a suite line (no newline) to f: its FEN, variant, bm, am, id and
 * comment when present. */
void epd_write(FILE *f, const EpdPosition *p);

/* Whether move m (legal in p's position) solves p: one of its bm (when it has
 * any) and none of its am. */
bool epd_solved(const EpdPosition *p, const Move *m);

#endif
