/*
 * lazysmp.h - the tree searches (alpha-beta, max-n, best-reply) on the pool's
 * threads: Lazy SMP, independent iterative deepenings sharing the session's
 * transposition table, with ABDADA's deferral of busy moves (busy.h). Each
 * thread starts from the history scores the last search of the game ended
 * with (the session's HistoryStore).
 */
#ifndef STERN_LAZYSMP_H
#define STERN_LAZYSMP_H

#include "pool.h"

/* Runs search c on every worker of pool: the caller's thread runs worker 0
 * until its search ends. A helper that
 * cannot get memory for its root moves takes no part. Sets c->workers and
 * c->nworkers (every worker's node count, completed depth and root moves are
 * readable, zero for one that took no part); returns how many workers were
 * asked (0: worker 0 got no memory, nothing ran). Then set c->abort_all,
 * pool_wait, and lazysmp_release once the workers' results are read. */
int lazysmp_search(SearchPool *pool, SearchContext *c, const RootMove *root, int nroot);

/* Frees what the workers of search c held for it; the pool parks for the next. */
void lazysmp_release(SearchContext *c);

#endif
