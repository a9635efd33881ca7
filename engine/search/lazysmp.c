/* lazysmp.c - the tree searches on the pool's threads; see lazysmp.h. */
#include "lazysmp.h"

#include "iterate.h"
#include "movepick.h"
#include "node.h"

#include <stdlib.h>
#include <string.h>

/* Lists grown past this many moves (capture-mode lattices) are given back at the
 * end of a search rather than kept for the next. */
#define LIST_KEEP_MAX 4096

/* Move generation's abort hook in a worker: a position of more than
 * SEARCH_MOVES_MAX moves ends the search; then the limits, and the stop flag. */
static bool worker_gen_abort(void *arg)
{
    Worker *w = arg;
    if (gen_memo_states(w->gen) >= SEARCH_MOVES_MAX) {
        atomic_store(&w->ctx->too_many_moves, true);
        atomic_store(&w->ctx->abort_all, true);
        return true;
    }
    node_check_limits(w);
    return stopped(w);
}

/* w's iterative deepening, with move generation watching its limits. */
static void worker_main(Worker *w)
{
    gen_memo_set_abort(w->gen, worker_gen_abort, w);
    iterate(w);
    gen_memo_set_abort(w->gen, NULL, NULL);
}

/* Readies worker w for a search over a copy of the root moves, on its own
 * thread: its tables as a new thread's (killers, PV lengths, BRS+ fillers
 * cleared; history from the session's saved scores), its move lists kept.
 * False when memory runs out (w then takes no part). */
static bool worker_ready(Worker *w, const RootMove *root, int nroot)
{
    for (int i = 0; i < STACK_PLIES; i++) { /* all but the lists and the lines */
        Stack *st = &w->ss[i];
        memset(st->has_filler, 0, sizeof st->has_filler);
        memset(st->killers, 0, sizeof st->killers);
        st->path_key = 0;
        st->after_null = false;
        st->pvlen = 0;
    }
    if (!movepick_history_load(w->ctx->sh->history, w->history))
        memset(w->history, 0, sizeof w->history);
    eval_memo_set_net(w->eval, w->ctx->cfg->net); /* short of memory: hand-written */
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
    for (int i = 0; i < STACK_PLIES; i++)
        if (w->ss[i].list.cap > LIST_KEEP_MAX)
            move_list_free(&w->ss[i].list);
}

/* The pool's job (arg: the SearchContext, which outlives pool_wait): worker 0
 * is readied by lazysmp_search; a helper readies itself on its own thread. */
static void tree_job(void *arg, int id)
{
    SearchContext *c = arg;
    Worker *w = &c->workers[id];
    if (id == 0 || (!stopped(w) && worker_ready(w, c->root_moves, c->nroot_moves)))
        worker_main(w);
}

int lazysmp_search(SearchPool *pool, SearchContext *c, const RootMove *root, int nroot)
{
    const int n = pool_threads(pool);
    /* what the others read of every worker at once: the rest each worker readies
     * on its own thread */
    for (int i = 0; i < n; i++) {
        Worker *w = pool_worker(pool, i);
        w->ctx = c;
        atomic_store_explicit(&w->nodes, 0, memory_order_relaxed);
        node_limits_start(w);
        w->seldepth = 0;
        w->completed_depth = 0;
        w->root = NULL;
        w->nroot = 0;
    }
    if (!worker_ready(pool_worker(pool, 0), root, nroot))
        return 0;
    c->workers = pool_worker(pool, 0);
    c->nworkers = n;
    c->root_moves = root;
    c->nroot_moves = nroot;
    return pool_run(pool, n, tree_job, c);
}

void lazysmp_release(SearchContext *c)
{
    for (int i = 0; i < c->nworkers; i++)
        worker_release(&c->workers[i]);
    c->workers = NULL;
    c->nworkers = 0;
}
