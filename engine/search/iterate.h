/*
 * iterate.h - iterative deepening of one thread over the root moves, with
 * aspiration windows and MultiPV, for the tree searches (alphabeta.h, maxn.h).
 */
#ifndef STERN_ITERATE_H
#define STERN_ITERATE_H

#include "worker.h"

/* Deepens w's search one ply at a time until a limit or stop; the main thread
 * (id 0) reports each completed line and decides when time is up. */
void iterate(Worker *w);

#endif
