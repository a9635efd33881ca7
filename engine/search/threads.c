/* threads.c - the search threads; see threads.h. */
#include "threads.h"

#include "iterate.h"
#include "movepick.h"
#include "node.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define BUSY_BITS 12 /* busy_children: 4,096 slots */

/* Child positions being searched by some thread (Zobrist keys; 0 = free). */
static _Atomic uint64_t busy_children[1 << BUSY_BITS];

_Atomic uint64_t *busy_slot(uint64_t key) { return &busy_children[key >> (64 - BUSY_BITS)]; }

uint64_t total_nodes(const SearchContext *c)
{
    uint64_t n = 0;
    for (int i = 0; i < c->nworkers; i++)
        n += atomic_load_explicit(&c->workers[i].nodes, memory_order_relaxed);
    return n;
}

/* Move generation's abort hook in a worker: the limits, then the stop flag. */
static bool worker_gen_abort(void *arg)
{
    Worker *w = arg;
    check_limits(w);
    return stopped(w);
}

void *worker_main(void *arg)
{
    Worker *w = arg;
    gen_memo_set_abort(w->gen, worker_gen_abort, w);
    iterate(w);
    gen_memo_set_abort(w->gen, NULL, NULL);
    return NULL;
}

/* Lists grown past this many moves (capture-mode lattices) are given back at the
 * end of a search rather than kept for the next. */
#define LIST_KEEP_MAX 4096

struct SearchPool {
    int n;                 /* workers; workers[0] runs on the caller's thread */
    Worker *workers;
    pthread_t *tid;        /* tid[i] runs workers[i], i >= 1 */
    pthread_mutex_t lock;
    pthread_cond_t wake;   /* a search starts, or the pool ends */
    pthread_cond_t done;   /* the last helper of a search finished */
    uint64_t generation;   /* searches started */
    int active;            /* workers[0, active) take part in the current search */
    uint64_t closed;       /* the last search that takes no more helpers */
    int running;           /* helpers searching (joined the search, not finished) */
    const RootMove *root;  /* the current search's root moves */
    int nroot;
    bool quit;
};

typedef struct {
    SearchPool *pool;
    int id;
} HelperArg;

static bool worker_ready(Worker *w, const RootMove *root, int nroot);

/* A helper thread: parked until a search it takes part in starts. One that
 * wakes after the search was closed (a short search) leaves it alone. */
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
        pthread_mutex_unlock(&pool->lock);
        Worker *w = &pool->workers[a.id];
        if (!stopped(w) && worker_ready(w, pool->root, pool->nroot))
            worker_main(w);
        pthread_mutex_lock(&pool->lock);
        if (--pool->running == 0)
            pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* Frees what a pool's worker holds for good: its lists and memos. */
static void worker_delete(Worker *w)
{
    for (int j = 0; w->lists && j <= MAX_PLY; j++)
        move_list_free(&w->lists[j]);
    free(w->lists);
    gen_memo_delete(w->gen);
    eval_memo_delete(w->eval);
    w->lists = NULL;
    w->gen = NULL;
    w->eval = NULL;
}

SearchPool *search_pool_new(int threads)
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
        w->lists = calloc(MAX_PLY + 1, sizeof *w->lists);
        w->gen = gen_memo_new();
        w->eval = eval_memo_new();
        if (!w->lists || !w->gen || !w->eval) {
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
        search_pool_delete(pool);
        return NULL;
    }
    return pool;
}

int search_pool_threads(const SearchPool *pool) { return pool ? pool->n : 0; }

void search_pool_delete(SearchPool *pool)
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

/* Readies worker w for a search over a copy of the root moves, on its own
 * thread: its tables as a new thread's (killers, PV lengths, BRS+ fillers
 * cleared; history from history_load), its move lists kept. False when memory
 * runs out (w then takes no part). */
static bool worker_ready(Worker *w, const RootMove *root, int nroot)
{
    memset(w->has_filler, 0, sizeof w->has_filler);
    memset(w->killers, 0, sizeof w->killers);
    memset(w->path_keys, 0, sizeof w->path_keys);
    memset(w->after_null, 0, sizeof w->after_null);
    memset(w->pvlen, 0, sizeof w->pvlen);
    if (!history_load(w->history))
        memset(w->history, 0, sizeof w->history);
    w->root = malloc(sizeof *w->root * (size_t)(nroot ? nroot : 1));
    if (!w->root)
        return false;
    memcpy(w->root, root, sizeof *root * (size_t)nroot);
    w->nroot = nroot;
    return true;
}

/* What worker w holds for one search only: its root moves and their lines, and
 * lists grown past LIST_KEEP_MAX. */
static void worker_release(Worker *w)
{
    for (int i = 0; i < w->nroot; i++)
        free(w->root[i].pv);
    free(w->root);
    w->root = NULL;
    w->nroot = 0;
    for (int i = 0; i <= MAX_PLY; i++)
        if (w->lists[i].cap > LIST_KEEP_MAX)
            move_list_free(&w->lists[i]);
}

int pool_search(SearchPool *pool, SearchContext *c, const RootMove *root, int nroot, int threads)
{
    const int n = threads < pool->n ? threads : pool->n;
    /* what the others read of every worker at once: the rest each worker readies
     * on its own thread */
    for (int i = 0; i < n; i++) {
        Worker *w = &pool->workers[i];
        w->ctx = c;
        atomic_store_explicit(&w->nodes, 0, memory_order_relaxed);
        limits_start(w);
        w->seldepth = 0;
        w->completed_depth = 0;
        w->root = NULL;
        w->nroot = 0;
    }
    if (!worker_ready(&pool->workers[0], root, nroot))
        return 0;
    c->workers = pool->workers;
    c->nworkers = n;
    pthread_mutex_lock(&pool->lock);
    pool->root = root;
    pool->nroot = nroot;
    pool->active = n;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    worker_main(&pool->workers[0]);
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

void pool_release(SearchPool *pool, SearchContext *c)
{
    for (int i = 0; i < c->nworkers; i++)
        worker_release(&pool->workers[i]);
    c->workers = NULL;
    c->nworkers = 0;
}
