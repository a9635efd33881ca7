/*
 * maxn.h - max-n (Luckhardt and Irani 1986): each seat to move picks the child
 * best for itself; equal values go to the move_before move, so that the result
 * does not depend on move ordering. Every seat but the root's plays one of its
 * replies of the most progress (captures), as at a best-reply min node (reply
 * pruning, brs.h); the table orders moves only. Shallow pruning (Korf 1991) and
 * speculative pruning (Sturtevant 2003) need a bound on the sum of the seats'
 * values far below the sum of their maxima; places.h's values sum to at most
 * 0 (plus a mate's margin) while each lies in -PLACE_SPAN..+PLACE_SPAN, so
 * they could cut only where one seat's value exceeds (seats - 2) x PLACE_SPAN
 * less its parent's: never.
 */
#ifndef STERN_MAXN_H
#define STERN_MAXN_H

#include "worker.h"

/* Fills out[seat] with the value of p (at `ply`, `depth` plies to go) for every
 * seat in play, in places.h's scale, and w's PV from `ply`. */
void maxn(Worker *w, const Position *p, int depth, int ply, int out[MAX_SEATS]);

#endif
