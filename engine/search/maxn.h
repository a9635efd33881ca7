/*
 * maxn.h - max-n (Luckhardt and Irani 1986): each seat to move picks the child
 * best for itself; equal values go to the move_before move, so that the result
 * does not depend on move ordering. No pruning; the table orders moves only.
 */
#ifndef STERN_MAXN_H
#define STERN_MAXN_H

#include "worker.h"

/* Fills out[seat] with the value of p (at `ply`, `depth` plies to go) for every
 * seat in play, in places.h's scale, and w's PV from `ply`. */
void maxn(Worker *w, const Position *p, int depth, int ply, int out[MAX_SEATS]);

#endif
