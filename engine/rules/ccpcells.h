/*
 * ccpcells.h - the cell ids of the rating list's protocol CCP (docs/CCERL.md):
 * holes as cell ids, moves as paths of cell ids, and positions as its string of
 * 121 cells. The engine's CCP front end and the arena's CCP seats share them.
 */
#ifndef STERN_CCPCELLS_H
#define STERN_CCPCELLS_H

#include "types.h"

#include <stddef.h>

#define CCP_VARIANT "ccerl-2" /* the only rules CCP plays */
#define CCP_CELLS_MAX 122     /* a position's cells with their NUL */

/* The CCP cell id (0-120) of hole h (0-120): the rank of the hole's axial (r, q)
 * sorted by r, then q, ascending (docs/CCERL.md "CCP", its cells). */
int ccp_cell_of_hole(int h);

/* The hole (0-120) of CCP cell id c (0-120). */
int ccp_hole_of_cell(int c);

/* Writes legal move m of p as its path of cell ids joined by '-' (the canonical
 * path of notation.h), e.g. "3-15-28", into buf (MOVE_STR_MAX bytes). Returns buf. */
char *ccp_move_str(const Position *p, const Move *m, char *buf);

/* Parses `text`, cell ids separated by '-' or ',' (a full path, or from-to when
 * one legal move matches), as a legal move of the side to move in p. Returns 0
 * with *out set, or -1 with the reason in err (errlen bytes). */
int ccp_move_parse(const Position *p, const char *text, Move *out, char *err, size_t errlen);

/* Parses `text` as the rating list's referee reads an engine's move: cell ids
 * separated by '-' or ',' with empty items dropped; the exact path of a legal
 * move, else the first and last cell when exactly one legal move joins them.
 * Returns 0 with *out set, or -1 with the reason in err (errlen bytes). */
int ccp_move_parse_as_referee(const Position *p, const char *text, Move *out, char *err, size_t errlen);

/* The FEN (FEN_MAX bytes into fen) of the CCP position `cells` (121 characters in
 * cell-id order: '.' empty, '0' white, '1' black), `player` 0 or 1 to move, and
 * `ply` plies played (0-239, even when white is to move: white moves first):
 * white's and black's own moves ply/2 each when white moves, else (ply-1)/2 for
 * black and one more for white; the round is black's moves + 1. Returns 0, or
 * -1 with the reason in err. The FEN is then loaded as any other (fen.h checks
 * the material and the rest). */
int ccp_position_fen(const char *cells, long player, long ply, char *fen, char *err, size_t errlen);

/* Writes the CCP position of p (ccerl-2, game not over) into cells
 * (CCP_CELLS_MAX bytes), *player (0 white, 1 black to move) and *ply (moves
 * played: both seats' own moves). */
void ccp_cells_of(const Position *p, char *cells, int *player, int *ply);

#endif
