/*
 * threads.h - the search threads (Lazy SMP: independent searches sharing the
 * transposition table) and the table of child positions being searched, through
 * which they put off each other's moves (ABDADA's deferral, Weill 1996).
 */
#ifndef STERN_THREADS_H
#define STERN_THREADS_H

#include "worker.h"

#ifndef DEFER_MIN_DEPTH
#define DEFER_MIN_DEPTH 3 /* remaining plies from which threads defer busy moves */
#endif
#define MAX_MOVES_DEFERRED 64

/* The slot of the busy table for child key `key`: holds the key while some
 * thread searches that child (0: free). */
_Atomic uint64_t *busy_slot(uint64_t key);

/* Nodes searched so far by every thread of c. */
uint64_t total_nodes(const SearchContext *c);

/* Runs search c on `threads` workers of pool (fewer when the pool has fewer): the
 * helpers are woken, the caller's thread runs worker 0 until its search ends. A
 * helper that cannot get memory for its root moves takes no part. Sets
 * c->workers and c->nworkers (every worker's node count, completed depth and
 * root moves are readable, zero for one that took no part); returns how many
 * workers were asked (0: worker 0 got no memory, nothing ran). Then pool_wait,
 * and pool_release once the workers' results are read. */
int pool_search(SearchPool *pool, SearchContext *c, const RootMove *root, int nroot, int threads);

/* Closes the running search to helpers that have not joined it yet (woken
 * late, they leave it alone) and waits until those that joined have finished
 * (set c->abort_all first to end them). */
void pool_wait(SearchPool *pool);

/* Frees what the workers of search c held for it; the pool parks for the next. */
void pool_release(SearchPool *pool, SearchContext *c);

/* Runs w's iterative deepening with move generation watching its limits
 * (pthread start routine: arg is the Worker). */
void *worker_main(void *arg);

#endif
