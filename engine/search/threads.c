/* threads.c - the search threads; see threads.h. */
#include "threads.h"

#include "iterate.h"
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
    movegen_set_abort(worker_gen_abort, arg);
    iterate(arg);
    movegen_set_abort(NULL, NULL);
    return NULL;
}

/* Sets up worker w (zeroed) of search c; false when memory runs out (then
 * worker_free cleans up). */
bool worker_init(Worker *w, SearchContext *c, int id, const RootMove *root, int nroot)
{
    w->id = id;
    w->ctx = c;
    atomic_init(&w->nodes, 0);
    w->lists = calloc(MAX_PLY + 1, sizeof *w->lists);
    w->root = malloc(sizeof *w->root * (size_t)(nroot ? nroot : 1));
    if (!w->lists || !w->root)
        return false;
    memcpy(w->root, root, sizeof *root * (size_t)nroot);
    w->nroot = nroot;
    return true;
}

void worker_free(Worker *w)
{
    for (int i = 0; i < w->nroot; i++)
        free(w->root[i].pv);
    for (int i = 0; w->lists && i <= MAX_PLY; i++)
        move_list_free(&w->lists[i]);
    free(w->lists);
    free(w->root);
}
