/* session.c - a search session's lifetime; see session.h. */
#include "session.h"

#include "busy.h"
#include "mcts.h"
#include "movepick.h"
#include "pool.h"
#include "tt.h"

#include <stdlib.h>

struct SearchSession {
    size_t hash_mib;      /* asked for */
    size_t hash_had;      /* allocated (0: not yet) */
    int threads_asked;
    SearchAlgo tt_algo;   /* whose values the table holds (ALGO_AUTO: none) */
    TT *tt;
    SearchPool *pool;
    BusyTable *busy;
    HistoryStore history;
    MctsKept *mcts;
};

SearchSession *session_new(size_t hash_mib, int threads)
{
    SearchSession *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->hash_mib = hash_mib;
    s->threads_asked = threads;
    s->tt = tt_new();
    s->busy = calloc(1, sizeof *s->busy);
    s->mcts = mcts_kept_new();
    s->pool = pool_new(threads);
    if (!s->tt || !s->busy || !s->mcts || !s->pool) {
        session_delete(s);
        return NULL;
    }
    return s;
}

void session_delete(SearchSession *s)
{
    if (!s)
        return;
    pool_delete(s->pool);
    tt_delete(s->tt);
    mcts_kept_delete(s->mcts);
    free(s->busy);
    free(s);
}

int session_set_hash(SearchSession *s, size_t mib)
{
    if (s->hash_had) {
        if (tt_resize(s->tt, mib))
            return -1;
        s->hash_had = mib;
        s->tt_algo = ALGO_AUTO;
    }
    s->hash_mib = mib;
    return 0;
}

size_t session_hash(const SearchSession *s) { return s->hash_mib; }

size_t session_hash_allocated(const SearchSession *s) { return s->hash_had; }

int session_set_threads(SearchSession *s, int threads)
{
    SearchPool *pool = pool_new(threads);
    if (!pool)
        return 0;
    pool_delete(s->pool);
    s->pool = pool;
    s->threads_asked = threads;
    return pool_threads(pool);
}

int session_threads(const SearchSession *s) { return pool_threads(s->pool); }

/* Makes the table at the size asked, or the largest power of two MiB below it
 * that fits; the MiB had, 0 when not even 1 MiB. */
static size_t table_fit(SearchSession *s)
{
    size_t mib = s->hash_mib;
    while (tt_resize(s->tt, mib)) {
        if (mib <= 1)
            return 0;
        size_t lower = 1;
        while (lower * 2 < mib)
            lower *= 2;
        mib = lower;
    }
    return mib;
}

size_t session_ready(SearchSession *s)
{
    if (s->hash_had)
        return s->hash_had;
    size_t mib;
    if (!tt_resize(s->tt, s->hash_mib)) {
        mib = s->hash_mib;
    } else if (pool_threads(s->pool) > 1) {
        /* the threads' stacks may hold the memory: the table comes first, and
         * the threads get what is left (fewer, said at each search) */
        pool_delete(s->pool);
        mib = table_fit(s);
        s->pool = pool_new(s->threads_asked);
    } else {
        mib = table_fit(s);
    }
    if (!mib)
        return 0;
    s->hash_had = mib;
    s->tt_algo = ALGO_AUTO;
    return mib;
}

void session_new_game(SearchSession *s)
{
    session_ready(s);
    session_clear_hash(s);
    movepick_history_forget(&s->history);
    mcts_kept_clear(s->mcts);
}

void session_clear_hash(SearchSession *s)
{
    tt_clear(s->tt);
    s->tt_algo = ALGO_AUTO;
}

SearchResult session_search(SearchSession *s, const Game *g, const SearchLimits *limits, const SearchConfig *config,
                            SearchSignals *sig, SearchOutput out, void *ctx)
{
    session_ready(s);
    const SearchShared sh = {.tt = s->tt, .tt_algo = &s->tt_algo, .pool = s->pool, .threads_asked = s->threads_asked,
                             .busy = s->busy, .history = &s->history, .mcts = s->mcts};
    return search_run(&sh, g, limits, config, sig, out, ctx);
}

size_t session_warmed(const SearchSession *s) { return tt_warmed(s->tt); }
