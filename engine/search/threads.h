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

/* Sets up worker w (zeroed) of search c with a copy of the root moves; false
 * when memory runs out (then worker_free cleans up). */
bool worker_init(Worker *w, SearchContext *c, int id, const RootMove *root, int nroot);

/* Frees what w holds. */
void worker_free(Worker *w);

/* Runs w's iterative deepening with move generation watching its limits
 * (pthread start routine: arg is the Worker). */
void *worker_main(void *arg);

#endif
