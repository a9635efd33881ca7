/*
 * pool.h - the pool of search threads, created once and parked between
 * searches (as Stockfish's thread pool), each with a Worker's lasting memory
 * (its move lists and memos). A search runs one job on some of them: the tree
 * searches (Lazy SMP, lazysmp.h) or MCTS's root parallelisation (mcts.h). The
 * caller's thread is always the first; a pool belongs to one session
 * (session.h).
 */
#ifndef STERN_POOL_H
#define STERN_POOL_H

#include "worker.h"

typedef struct SearchPool SearchPool;

/* A job of the pool: run on thread `id` (0: the caller's) with the job's arg. */
typedef void (*PoolJob)(void *arg, int id);

/* A pool of `threads` workers (1-MAX_THREADS; the first runs on the caller's
 * thread, so threads - 1 are started). Short of memory or threads it has fewer
 * (search_pool_threads); NULL when it has none. */
SearchPool *pool_new(int threads);

/* Workers in pool (0 for NULL). */
int pool_threads(const SearchPool *pool);

/* Ends the pool's threads and frees it (no job running; NULL is ignored). */
void pool_delete(SearchPool *pool);

/* The lasting memory of thread `id` of pool (0 <= id < search_pool_threads). */
Worker *pool_worker(SearchPool *pool, int id);

/* Runs job on n threads of pool (fewer when the pool has fewer): wakes the
 * helpers 1..n-1, each calls job(arg, id) once, and the caller's thread runs
 * job(arg, 0). Returns, once job 0 has returned, how many threads were asked;
 * then pool_wait before arg is given back. */
int pool_run(SearchPool *pool, int n, PoolJob job, void *arg);

/* Closes the running job to helpers that have not joined it yet (woken late,
 * they leave it alone) and waits until those that joined have returned. The
 * job must make them return (a stop flag it reads). */
void pool_wait(SearchPool *pool);

#endif
