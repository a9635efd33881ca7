/*
 * work_queue.h - the tools' thread pool: `jobs` jobs numbered 0..jobs-1, run
 * on up to `threads` threads, each job once, handed out in their order (job k
 * starts before job k+1), as stern-annotate's positions, stern-arena's games,
 * stern-book's positions of a ply, stern-datagen's games and stern-suite's
 * positions are.
 *
 * A job is fn(ctx, job, thread): `thread` (0..threads-1) names the thread that
 * runs it, so that a tool keeps what a thread holds (an engine process, a
 * search's tables) in an array of its own, made when the thread's first job
 * needs it and ended after the run. fn returns 0 to go on, or anything else to
 * stop: no job is handed out after it (the jobs that have started finish),
 * which is how a failure or a decided match ends a run. The jobs' results are
 * the tool's to keep; results that must not depend on the threads' timing are
 * kept by job number (or written in job order), as every tool here does.
 */
#ifndef STERN_WORK_QUEUE_H
#define STERN_WORK_QUEUE_H

#include <pthread.h>
#include <stdbool.h>

typedef int (*WorkFn)(void *ctx, long job, int thread);

/* A run; its fields are work_queue.c's. */
typedef struct WorkQueue {
    WorkFn fn;
    void *ctx;
    long jobs, next;
    bool stop;
    pthread_mutex_t lock;
    struct WorkThread *threads;
    int nthreads;
} WorkQueue;

/* Starts the run of `jobs` jobs on min(threads, jobs) threads and returns at
 * once: 0, or -1 when no thread could be started (then nothing runs). Fewer
 * threads than asked, when the system gives no more, run them all. The threads
 * inherit the caller's signal mask. */
int work_queue_start(WorkQueue *q, long jobs, int threads, WorkFn fn, void *ctx);

/* Waits until the run is over (every job done, or stopped) and frees it. */
void work_queue_wait(WorkQueue *q);

/* Runs the jobs and waits for them: work_queue_start and work_queue_wait.
 * Returns 0, or -1 when no thread could be started (nothing ran). */
int work_queue_run(long jobs, int threads, WorkFn fn, void *ctx);

#endif
