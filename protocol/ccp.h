/*
 * ccp.h - the rating list's protocol CCP (docs/CCERL.md): its cell ids, moves as
 * paths of cell ids, positions as a 121-character string, and the text of
 * search reports in its form. The command loop (uci.h) speaks CCP when asked.
 */
#ifndef STERN_CCP_H
#define STERN_CCP_H

#include "report.h"
#include "types.h"

#include <stddef.h>

#define CCP_VARIANT "ccerl-2" /* the only rules CCP plays */
#define CCP_MATE_CP 30000     /* a mate in n own moves is written as score cp 30000 - n */

/* The CCP cell id (0-120) of hole h (0-120): the rank of the hole's axial (r, q)
 * sorted by r, then q, ascending (docs/CCERL.md "Cell ids"). */
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

/* The FEN (FEN_MAX bytes into fen) of the CCP position `cells` (121 characters in
 * cell-id order: '.' empty, '0' white, '1' black), `player` 0 or 1 to move, and
 * `ply` plies played (0-239): white's and black's own moves ply/2 each when white
 * moves, else (ply-1)/2 for black and one more for white; the round is black's
 * moves + 1. Returns 0, or -1 with the reason in err. The FEN is then loaded as
 * any other (fen.h checks the material and the rest). */
int ccp_position_fen(const char *cells, long player, long ply, char *fen, char *err, size_t errlen);

/* Writes the CCP line of report r (`info depth ... score cp ... pv ...`,
 * `bestmove <path>`, `bestmove 0000` without a move, `info string ...`) into buf
 * (INFO_LINE_MAX bytes, info.h). Returns buf. */
char *ccp_info_text(const SearchReport *r, char *buf);

#endif
