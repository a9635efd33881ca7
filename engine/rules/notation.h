/*
 * notation.h - moves as text (RULES.md sections 3 and 4): full paths joined by '-',
 * the `from-to` shorthand, case-insensitive input, and the canonical shortest path
 * on output.
 */
#ifndef STERN_NOTATION_H
#define STERN_NOTATION_H

#include "movegen.h"

#define MAX_PATH 64          /* holes in a printed path (a capture chain has <= 61) */
#define MOVE_STR_MAX (MAX_PATH * 4) /* longest move text with its NUL */

/* The canonical path of legal move m in p: the fewest landings; ties broken by a
 * breadth-first search trying directions in RULES.md order and nearer landings
 * first (capture mode: the first chain in that order with m's captured set).
 * Writes the holes (0-120) to path[] (MAX_PATH entries) and returns their number. */
int move_path(const Position *p, const Move *m, uint8_t path[]);

/* Writes move m (legal in p) as its canonical path, e.g. "m1-m3-k5", into buf
 * (MOVE_STR_MAX bytes). Returns buf. */
char *move_str(const Position *p, const Move *m, char *buf);

/* Parses `text` (a path, or the `from-to` shorthand when exactly one legal move
 * matches it; capture mode needs the full path) as a legal move of the side to move
 * in p. Returns 0 with *out set, or -1 with the reason in err (errlen bytes). */
int move_parse(const Position *p, const char *text, Move *out, char *err, size_t errlen);

/* Orders moves for lists (`perft`, `legalmoves`): by start hole, end hole, then
 * printed path. Sorts list in place; texts[i] receives the text of list->m[i].
 * False, the list unchanged, when memory runs out. */
bool move_list_sort(const Position *p, MoveList *list, char (*texts)[MOVE_STR_MAX]);

#endif
