/*
 * alphabeta.h - principal variation search (alpha-beta with null windows) for
 * two seats, and for three or more seats paranoid alpha-beta (Sturtevant and
 * Korf 2000: every other seat plays against the root's team) and the best-reply
 * searches, which are alpha-beta over their own turn order (brs.h). Two-seat race
 * games search selectively (null move, reverse futility, late-move pruning and
 * reductions).
 */
#ifndef STERN_ALPHABETA_H
#define STERN_ALPHABETA_H

#include "worker.h"

/* Searches child position c (at `ply`, `depth` plies to go) of a node whose side
 * is `side` (side_of), with the node's window (alpha, beta), returning its value
 * for that side. 0 once the search stops. */
int alphabeta_child_value(Worker *w, const Position *c, int depth, int alpha, int beta, int ply, int side);

/* The margin (cp of standing per ply to go) of reverse futility for three or
 * more seats in the searches of variant v (SearchContext.multi_rfp_margin), or
 * 0 where it is off: on in races of three or four seats without teams, where
 * it measured a gain, with four seats' own margin (docs/MULTI.md). */
int alphabeta_multi_rfp_margin(const Variant *v);

#endif
