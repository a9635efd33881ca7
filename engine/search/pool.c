/* pool.c - the pool of search threads; see pool.h. */
#include "pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct SearchPool {
    int n;                 /* workers; workers[0] runs on the caller's thread */
    Worker *workers;
    pthread_t *tid;        /* tid[i] runs workers[i], i >= 1 */
    pthread_mutex_t lock;
    pthread_cond_t wake;   /* a job starts, or the pool ends */
    pthread_cond_t done;   /* the last helper of a job returned */
    uint64_t generation;   /* jobs started */
    int active;            /* threads [0, active) take part in the current job */
    uint64_t closed;       /* the last job that takes no more helpers */
    int running;           /* helpers in the job (joined it, not returned) */
    PoolJob job;           /* the current job and its argument */
    void *arg;
    bool quit;
};

typedef struct {
    SearchPool *pool;
    int id;
} HelperArg;

/* A helper thread: parked until a job it takes part in starts. One that wakes
 * after the job was closed (a short search) leaves it alone. */
static void *helper_main(void *arg)
{
    HelperArg a = *(HelperArg *)arg;
    free(arg);
    SearchPool *pool = a.pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->quit && (pool->generation == seen || a.id >= pool->active || pool->closed == pool->generation)) {
            seen = pool->generation;
            pthread_cond_wait(&pool->wake, &pool->lock);
        }
        if (pool->quit)
            break;
        seen = pool->generation;
        pool->running++;
        const PoolJob job = pool->job;
        void *const job_arg = pool->arg;
        pthread_mutex_unlock(&pool->lock);
        job(job_arg, a.id);
        pthread_mutex_lock(&pool->lock);
        if (--pool->running == 0)
            pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* Frees what a pool's worker holds for good: its stack (the lists in it) and
 * memos. */
static void worker_delete(Worker *w)
{
    for (int j = 0; w->ss && j < STACK_PLIES; j++)
        move_list_free(&w->ss[j].list);
    free(w->ss);
    gen_memo_delete(w->gen);
    eval_memo_delete(w->eval);
    w->ss = NULL;
    w->gen = NULL;
    w->eval = NULL;
}

SearchPool *pool_new(int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    SearchPool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->workers = calloc((size_t)threads, sizeof *pool->workers);
    pool->tid = calloc((size_t)threads, sizeof *pool->tid);
    if (!pool->workers || !pool->tid) {
        free(pool->workers);
        free(pool->tid);
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    /* as many workers as memory and the system allow, at least the caller's */
    pool->n = 0;
    while (pool->n < threads) {
        Worker *w = &pool->workers[pool->n];
        w->id = pool->n;
        w->ss = calloc(STACK_PLIES, sizeof *w->ss);
        w->gen = gen_memo_new();
        w->eval = eval_memo_new();
        if (!w->ss || !w->gen || !w->eval) {
            worker_delete(w);
            break;
        }
        if (pool->n > 0) {
            HelperArg *a = malloc(sizeof *a);
            if (a)
                *a = (HelperArg){pool, pool->n};
            if (!a || pthread_create(&pool->tid[pool->n], NULL, helper_main, a)) {
                free(a);
                worker_delete(w);
                break;
            }
        }
        pool->n++;
    }
    if (pool->n == 0) { /* not even the caller's worker */
        pool_delete(pool);
        return NULL;
    }
    return pool;
}

int pool_threads(const SearchPool *pool) { return pool ? pool->n : 0; }

void pool_delete(SearchPool *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 1; i < pool->n; i++)
        pthread_join(pool->tid[i], NULL);
    for (int i = 0; i < pool->n; i++)
        worker_delete(&pool->workers[i]);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    free(pool->workers);
    free(pool->tid);
    free(pool);
}

Worker *pool_worker(SearchPool *pool, int id) { return &pool->workers[id]; }

int pool_run(SearchPool *pool, int n, PoolJob job, void *arg)
{
    if (n > pool->n)
        n = pool->n;
    if (n < 1)
        n = 1;
    pthread_mutex_lock(&pool->lock);
    pool->job = job;
    pool->arg = arg;
    pool->active = n;
    pool->generation++;
    if (n > 1) /* a job of one thread wakes nobody */
        pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    job(arg, 0);
    return n;
}

void pool_wait(SearchPool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->closed = pool->generation;
    while (pool->running > 0)
        pthread_cond_wait(&pool->done, &pool->lock);
    pool->active = 0;
    pthread_mutex_unlock(&pool->lock);
}
