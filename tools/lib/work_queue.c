/* work_queue.c - the tools' thread pool; see work_queue.h. */
#include "work_queue.h"

#include <stdlib.h>

typedef struct WorkThread {
    WorkQueue *q;
    int index;
    pthread_t id;
} WorkThread;

/* The next job to run, or -1 when none is left or the run stopped. */
static long take(WorkQueue *q)
{
    pthread_mutex_lock(&q->lock);
    const long job = !q->stop && q->next < q->jobs ? q->next++ : -1;
    pthread_mutex_unlock(&q->lock);
    return job;
}

static void *thread_main(void *arg)
{
    WorkThread *t = arg;
    WorkQueue *q = t->q;
    for (long job; (job = take(q)) >= 0;)
        if (q->fn(q->ctx, job, t->index)) {
            pthread_mutex_lock(&q->lock);
            q->stop = true;
            pthread_mutex_unlock(&q->lock);
        }
    return NULL;
}

int work_queue_start(WorkQueue *q, long jobs, int threads, WorkFn fn, void *ctx)
{
    *q = (WorkQueue){.fn = fn, .ctx = ctx, .jobs = jobs};
    pthread_mutex_init(&q->lock, NULL);
    const int want = jobs < threads ? (int)jobs : threads;
    if (want <= 0)
        return 0; /* nothing to run */
    q->threads = calloc((size_t)want, sizeof *q->threads);
    if (!q->threads) {
        pthread_mutex_destroy(&q->lock);
        return -1;
    }
    for (int k = 0; k < want; k++) {
        WorkThread *t = &q->threads[q->nthreads];
        *t = (WorkThread){.q = q, .index = q->nthreads};
        if (pthread_create(&t->id, NULL, thread_main, t))
            break;
        q->nthreads++;
    }
    if (!q->nthreads) {
        free(q->threads);
        q->threads = NULL;
        pthread_mutex_destroy(&q->lock);
        return -1;
    }
    return 0;
}

void work_queue_wait(WorkQueue *q)
{
    for (int k = 0; k < q->nthreads; k++)
        pthread_join(q->threads[k].id, NULL);
    free(q->threads);
    pthread_mutex_destroy(&q->lock);
    *q = (WorkQueue){0};
}

int work_queue_run(long jobs, int threads, WorkFn fn, void *ctx)
{
    WorkQueue q;
    if (work_queue_start(&q, jobs, threads, fn, ctx))
        return -1;
    work_queue_wait(&q);
    return 0;
}
