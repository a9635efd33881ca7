/* search.c - one search from its limits to its answer: the root moves, then
 * the race solver, MCTS or the tree searches on their threads; see search.h. */
#include "search.h"

#include "alphabeta.h"
#include "lazysmp.h"
#include "mcts.h"
#include "movepick.h"
#include "node.h"
#include "opponents.h"
#include "opps.h"
#include "race.h"
#include "race_root.h"
#include "report_line.h"
#include "rootmoves.h"
#include "solo.h"
#include "worker.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const search_algo_names[NUM_ALGOS] = {"auto", "paranoid", "maxn", "brs", "brs+", "mcts", "opps"};

SearchAlgo search_auto_algo(const Variant *v)
{
    if (v->capture)
        return ALGO_MCTS;
    if (v->nunits == 2) /* two teams: paranoid is the two-sided search */
        return ALGO_PARANOID;
    return v->teams ? ALGO_MCTS : ALGO_BRS;
}

void search_limits_init(SearchLimits *l)
{
    memset(l, 0, sizeof *l);
    for (int s = 0; s < MAX_SEATS; s++)
        l->time[s] = -1;
}

#define MCTS_PLAYOUTS_PER_DEPTH 10000 /* `go depth N` with mcts: at most N x this many playouts */
#define MCTS_NODES_CAP (1u << 22)    /* tree nodes at most (about 64 bytes each) */

/* After the search of a `go infinite` or an unanswered `go ponder`: the
 * answer waits for stop (or ponderhit). */
static void wait_for_answer(SearchContext *c)
{
    while ((c->lim->infinite || clock_pondering(&c->clock)) && !atomic_load(&c->sig->stop)) {
        const struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
}

/* The report memo's abort hook: stop, past the hard time limit, or a position
 * of the line with more than SEARCH_MOVES_MAX moves (the line is cut there). */
static bool report_gen_abort(void *arg)
{
    SearchContext *c = arg;
    return out_of_time(c, c->clock.budget.hard_ms) || gen_memo_states(c->report_gen) >= SEARCH_MOVES_MAX;
}

/* MCTS's stop test: the soft limit (the search is anytime). */
static bool mcts_stop(void *ctx)
{
    SearchContext *c = ctx;
    return out_of_time(c, c->clock.budget.soft_ms);
}

/* Gives the answer: REPORT_BESTMOVE with best move `best` (none when !has_best)
 * and `ponder` when has_ponder; a move no line has shown first gets its
 * static line (report_line_static). */
static void report_best(SearchContext *c, bool has_best, Move best, bool has_ponder, Move ponder)
{
    if (has_best && !c->lines_said)
        report_line_static(c, &best);
    const SearchReport r = {.kind = REPORT_BESTMOVE, .root = &c->game->pos, .has_best = has_best, .best = best,
                            .has_ponder = has_ponder, .ponder = ponder};
    c->out(&r, c->out_ctx);
}

/* Whether `ponder` is a legal move after `best` in the root: a best-reply line
 * answers with any opponent's move, so ponder only on one of the seat that
 * really moves next. */
static bool ponder_playable(const SearchContext *c, const Move *best, const Move *ponder)
{
    Position after = c->game->pos;
    pos_play(&after, best);
    return !pos_over(&after) && node_legal_move(&after, ponder, c->report_gen);
}

#define MCTS_REPORT_MS 1000 /* MCTS lines are reported at least this often (ms) */

/* What MCTS's hooks need: the search, when lines were last reported, and the
 * lines of the report being made, shown in the order of their scores. */
typedef struct {
    SearchContext *c;
    int64_t said_ms;
    SearchReport *batch;     /* NULL: no memory, each line is said as it comes */
    Move (*pvs)[MCTS_PV_MAX];
    int nbatch, cap;
    int *values;             /* the root seat's mean reward of each line taken (places.h) */
    int first_value;         /* the root seat's mean reward after the first line shown
                                (its moves: c->said) */
} MctsReporting;

static bool mcts_stop_hook(void *ctx) { return mcts_stop(((MctsReporting *)ctx)->c); }

/* Lines are due once a second, as a long `go infinite` analysis expects. */
static bool mcts_report_due(void *ctx)
{
    MctsReporting *m = ctx;
    const int64_t now = clock_now_ms();
    if (now - m->said_ms < MCTS_REPORT_MS)
        return false;
    m->said_ms = now;
    return true;
}

/* Takes MCTS's line k of a report as line k of the search (depth = mean tree
 * depth, nodes = playouts), said once the report's lines are all in
 * (mcts_lines_end). */
static void mcts_line_out(void *ctx, const MctsResult *sofar, int k, const MctsLine *line)
{
    MctsReporting *m = ctx;
    SearchContext *c = m->c;
    Move own[MCTS_PV_MAX];
    Move *pv = m->batch && k < m->cap ? m->pvs[k] : own;
    memcpy(pv, line->pv, sizeof *pv * (size_t)line->pvlen);
    const RootMove rm = {.move = pv[0], .score = line->values[c->root_seat], .pv = pv, .pvlen = line->pvlen};
    SearchReport r;
    report_line_fill(c, sofar->depth, sofar->seldepth, k, &rm, sofar->playouts, 0, &r);
    if (pv == own) {
        report_line_out(c, &r);
        return;
    }
    m->batch[k] = r;
    m->values[k] = line->values[c->root_seat];
    m->nbatch = k + 1;
}

/* Says the lines of a report in the order of the scores they show (a GUI
 * lists them by the score it is told: MCTS ranks them by visits), the first
 * one's moves kept in c->said and its value in first_value. */
static void mcts_lines_end(void *ctx)
{
    MctsReporting *m = ctx;
    report_line_sort(m->batch, m->nbatch);
    for (int k = 0; k < m->nbatch; k++)
        report_line_say(m->c, &m->batch[k], k);
    if (m->nbatch) /* its line is in pvs[k] of the line k it was taken as */
        m->first_value = m->values[(const Move(*)[MCTS_PV_MAX])m->batch[0].pv - m->pvs];
    m->nbatch = 0;
    m->said_ms = clock_now_ms();
}

/* The seats of g the opponent model expects to play greedily (opponents.h);
 * 0 when memory is short. */
static unsigned modeled_seats(const Game *g)
{
    MoveList *list = move_list_new();
    GenMemo *gen = gen_memo_new();
    EvalMemo *memo = eval_memo_new();
    const unsigned seats = list && gen && memo ? opponents_greedy(g, list, gen, memo) : 0;
    move_list_delete(list);
    gen_memo_delete(gen);
    eval_memo_delete(memo);
    return seats;
}

#ifndef SOLO_NODE_LIMIT
#define SOLO_NODE_LIMIT 2000000 /* positions the solo search may take */
#endif

/* The solo search's stop test: stop, or half the soft limit gone (MCTS gets
 * the rest when it does not finish). */
static bool solo_stop(void *ctx)
{
    SearchContext *c = ((MctsReporting *)ctx)->c;
    const int64_t soft = c->clock.budget.soft_ms;
    return out_of_time(c, soft >= 0 ? soft / 2 : soft);
}

/* When every other seat is modelled, the solo search (solo.h) of a capture
 * game: true with the answer in *r, reported as one line, when it finished. */
static bool solo_answer(SearchContext *c, const Move *moves, int nroot, unsigned modeled, MctsReporting *rep,
                        MctsResult *r)
{
    uint64_t nodes;
    *r = (MctsResult){0};
    if (c->cfg->multipv > 1 ||
        !solo_search(c->game, moves, nroot, modeled, SOLO_NODE_LIMIT, solo_stop, rep, &r->best, r->pv, &r->pvlen,
                     MCTS_PV_MAX, r->values, &nodes))
        return false;
    r->has_best = true;
    r->threads = 1;
    r->playouts = nodes;
    r->depth = r->seldepth = r->pvlen;
    MctsLine line = {.pv = r->pv, .pvlen = r->pvlen, .visits = 1};
    memcpy(line.values, r->values, sizeof line.values);
    mcts_line_out(rep, r, 0, &line);
    mcts_lines_end(rep);
    return true;
}

/* Searches with MCTS, reporting its lines (MultiPV) as it goes, and answers. */
static SearchResult mcts_root(SearchContext *c, const RootMove *root, int nroot)
{
    const Game *g = c->game;
    Move *moves = malloc(sizeof *moves * (size_t)nroot);
    SearchResult res = {.has_best = true, .best = root[0].move};
    MctsResult r = {0};
    uint64_t limit = c->lim->nodes; /* with a depth too, the smaller (go nodes 5000 depth 6 played 60,000) */
    const uint64_t depth_playouts = (uint64_t)c->lim->depth * MCTS_PLAYOUTS_PER_DEPTH;
    if (c->lim->depth > 0 && !c->lim->infinite && (!limit || depth_playouts < limit))
        limit = depth_playouts;
    /* nodestime: the budget's nodes are playouts (the workers count no nodes) */
    const uint64_t budget = (uint64_t)c->clock.nodestime * (uint64_t)c->clock.budget.soft_ms;
    if (c->clock.nodestime > 0 && c->clock.budget.soft_ms >= 0 && !c->lim->infinite && (!limit || budget < limit))
        limit = budget > 0 ? budget : 1;
    const int multipv = c->cfg->multipv < nroot ? c->cfg->multipv : nroot;
    MctsReporting reporting = {.c = c, .said_ms = clock_now_ms(), .cap = multipv,
                               .batch = malloc(sizeof *reporting.batch * (size_t)multipv),
                               .pvs = malloc(sizeof *reporting.pvs * (size_t)multipv),
                               .values = malloc(sizeof *reporting.values * (size_t)multipv)};
    if (!reporting.batch || !reporting.pvs || !reporting.values) {
        free(reporting.batch);
        free(reporting.pvs);
        free(reporting.values);
        reporting.batch = NULL;
        reporting.pvs = NULL;
        reporting.values = NULL;
    }
    const MctsHooks hooks = {.stop = mcts_stop_hook, .report_due = mcts_report_due, .lines = mcts_line_out,
                             .lines_end = mcts_lines_end, .multipv = multipv, .ctx = &reporting};
    bool searched = false;
    if (moves) {
        for (int i = 0; i < nroot; i++)
            moves[i] = root[i].move;
        const int depth = c->lim->depth > 0 && !c->lim->infinite ? c->lim->depth : 0;
        const MctsConfig mc = {.max_playouts = limit, .depth_limit = depth, .moves_max = SEARCH_MOVES_MAX,
                               .nodes_cap = MCTS_NODES_CAP,
                               .modeled = c->modeled, .threads = pool_threads(c->sh->pool),
                               .history_w = c->cfg->mcts_history,
                               .widening_c = c->cfg->mcts_widening / 100.0,
                               .widening_alpha = c->cfg->mcts_widening_alpha / 100.0,
                               .oma_k = c->cfg->mcts_oma,
                               .pool = c->sh->pool, .kept = c->sh->mcts};
        if (mc.modeled) {
            const SearchReport model = {.kind = REPORT_MODEL, .root = &g->pos, .modeled = mc.modeled};
            c->out(&model, c->out_ctx);
        }
        const int rc = solo_answer(c, moves, nroot, mc.modeled, &reporting, &r)
                           ? 0
                           : mcts_search(g, moves, nroot, &mc, &hooks, &r);
        if (rc == 0 && r.too_many_moves) {
            const SearchReport many = {.kind = REPORT_TOO_MANY_MOVES, .root = &g->pos, .listed = SEARCH_MOVES_MAX};
            c->out(&many, c->out_ctx);
        }
        if (rc == 0 && r.has_best) {
            res.best = r.best;
            res.depth = r.depth;
            res.nodes = r.playouts;
            res.threads = r.threads;
            res.score = r.values[c->root_seat];
            searched = r.pvlen > 0;
        }
        free(moves);
    }
    if (!searched) { /* no memory, or no playout: the first move, with its line */
        r = (MctsResult){.best = res.best, .has_best = true, .pv = {res.best}, .pvlen = 1, .depth = r.depth,
                         .seldepth = r.seldepth, .playouts = r.playouts};
        const MctsLine line = {.pv = r.pv, .pvlen = 1};
        mcts_line_out(&reporting, &r, 0, &line);
        mcts_lines_end(&reporting);
    }
    wait_for_answer(c);
    if (multipv > 1 && c->nsaid) { /* the answer is the first line shown */
        res.best = c->said[0];
        res.score = reporting.first_value;
        r.pvlen = c->nsaid;
        r.pv[1] = c->said[1];
    }
    free(reporting.batch);
    free(reporting.pvs);
    free(reporting.values);
    res.ponder = r.pv[1];
    res.has_ponder = r.pvlen > 1 && ponder_playable(c, &res.best, &res.ponder);
    report_best(c, true, res.best, res.has_ponder, res.ponder);
    return res;
}

/* Waits for stop (or ponderhit) while a search that has its answer is infinite
 * or ponders without a clock of its own. */
static void wait_for_stop(const SearchLimits *limits, SearchSignals *sig)
{
    while ((limits->infinite || limits->ponder) && !atomic_load(&sig->stop) && !atomic_load(&sig->ponderhit)) {
        const struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
}

/* The answer of a search that got no memory: an error, then (after stop for an
 * infinite or ponder search) `fallback` when given (a root move: searchmoves
 * hold), else the first legal move. */
static SearchResult answer_without_memory(const Game *g, const SearchLimits *limits, SearchSignals *sig,
                                          const Move *fallback, SearchOutput out, void *ctx)
{
    SearchReport r = {.kind = REPORT_NO_MEMORY, .root = &g->pos};
    out(&r, ctx);
    while ((limits->infinite || limits->ponder) && !atomic_load(&sig->stop) &&
           !(limits->ponder && !limits->infinite && atomic_load(&sig->ponderhit))) {
        const struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
    SearchResult res = {.has_best = fallback ? true : gen_first_legal(&g->pos, &res.best)};
    if (fallback)
        res.best = *fallback;
    r = (SearchReport){.kind = REPORT_BESTMOVE, .root = &g->pos, .has_best = res.has_best, .best = res.best};
    out(&r, ctx);
    return res;
}

/* The tree searches (alpha-beta, max-n, best-reply) on the session's threads
 * and table (none: the first root move, with a report); reports the answer. */
static SearchResult tree_search(SearchContext *c, const RootMove *root, int nroot)
{
    const SearchConfig *config = c->cfg;
    const SearchShared *sh = c->sh;
    SearchResult res = {.has_best = false};
    if (!tt_allocated(sh->tt) || !sh->pool) /* the session could not make its table or threads */
        return answer_without_memory(c->game, c->lim, c->sig, &root[0].move, c->out, c->out_ctx);
    if (*sh->tt_algo != c->algo) { /* the algorithms give different values to the same key */
        if (*sh->tt_algo != ALGO_AUTO)
            tt_clear(sh->tt);
        *sh->tt_algo = c->algo;
    }
    tt_new_search(sh->tt);
    SearchPool *pool = sh->pool;
    if (!lazysmp_search(pool, c, root, nroot))
        return answer_without_memory(c->game, c->lim, c->sig, &root[0].move, c->out, c->out_ctx);
    const int nthreads = c->nworkers;
    wait_for_answer(c);
    atomic_store(&c->abort_all, true);
    pool_wait(pool);
    if (atomic_load(&c->too_many_moves)) {
        const SearchReport r = {.kind = REPORT_TOO_MANY_MOVES, .root = &c->game->pos, .listed = SEARCH_MOVES_MAX};
        c->out(&r, c->out_ctx);
    }
    Worker *w0 = &c->workers[0];
    for (int i = 1; i < nthreads; i++) /* a helper that completed a deeper iteration answers */
        if (c->workers[i].completed_depth > w0->completed_depth && config->multipv <= 1)
            w0 = &c->workers[i];
    /* the answer is always the line last reported: a helper's deeper one, or a
     * new best that an unfinished re-search (after an aspiration fail) put first */
    if (w0 != &c->workers[0] || (c->nsaid && config->multipv <= 1 && !move_same(&c->said[0], &w0->root[0].move)))
        report_line(c, w0, w0->completed_depth, 0, &w0->root[0]);
    const RootMove *best = &w0->root[0];
    res.best = best->move;
    res.has_best = true;
    res.score = best->prev_score;
    res.depth = w0->completed_depth;
    res.nodes = total_nodes(c);
    for (int i = 0; i < nthreads; i++)
        res.threads += atomic_load_explicit(&c->workers[i].nodes, memory_order_relaxed) > 0;
    if (best->pvlen > 1) {
        res.ponder = best->pv[1];
        res.has_ponder = true;
    }
    /* with MultiPV, lines are reported for whole depths: a best move of a
     * depth cut short, never shown, gives way to the first line shown */
    if (config->multipv > 1 && c->nsaid && !move_same(&c->said[0], &res.best)) {
        res.best = c->said[0];
        for (int i = 0; i < w0->nroot; i++)
            if (move_same(&w0->root[i].move, &res.best))
                res.score = w0->root[i].prev_score;
    }
    if (c->nsaid && move_same(&c->said[0], &res.best)) { /* the answer is the line last reported */
        res.ponder = c->said[1];
        res.has_ponder = c->nsaid > 1;
    }
    movepick_history_save(sh->history, w0->history);
    res.has_ponder = res.has_ponder && ponder_playable(c, &res.best, &res.ponder);
    report_best(c, true, res.best, res.has_ponder, res.ponder);
    lazysmp_release(c);
    return res;
}

/* Solves the race at c's root when it applies and reports it with the answer
 * (after stop for an infinite or ponder search). */
static bool race_answer(SearchContext *c, SearchResult *res)
{
    const Game *g = c->game;
    Move pv[2 * RACE_MAX_MOVES + 2];
    int len, score, moves[2];
    uint64_t nodes;
    if (!race_root(c, pv, &len, &score, &nodes, moves))
        return false;
    const SearchReport solved = {.kind = REPORT_RACE_SOLVED, .root = &g->pos,
                                 .seat = {g->pos.stm, g->pos.stm == g->v->seats[0] ? g->v->seats[1] : g->v->seats[0]},
                                 .moves = {moves[0], moves[1]}};
    c->out(&solved, c->out_ctx);
    const RootMove rm = {.move = pv[0], .score = score, .pv = pv, .pvlen = len};
    SearchReport line;
    report_line_fill(c, len, len, 0, &rm, nodes, tt_hashfull(c->tt), &line);
    report_line_out(c, &line);
    wait_for_stop(c->lim, c->sig);
    *res = (SearchResult){.best = pv[0], .has_best = true, .score = score, .depth = len, .nodes = nodes,
                          .ponder = pv[1], .has_ponder = len > 1};
    report_best(c, true, res->best, res->has_ponder, res->ponder);
    return true;
}

/* With three or more seats, when the root seat's race is solved alone
 * (race_root_alone): reports it and moves the solved move to root[0]. Returns
 * the root moves left to search: 1 then (searched for the scores and the line
 * of the reports), else nroot. */
static int race_alone(SearchContext *c, RootMove *root, int nroot)
{
    const Position *p = &c->game->pos;
    Move best;
    int moves;
    if (!race_root_alone(c, &best, &moves))
        return nroot;
    for (int k = 0; k < nroot; k++)
        if (move_same(&root[k].move, &best)) {
            const RootMove first = root[0];
            root[0] = root[k];
            root[k] = first;
            const SearchReport solved = {.kind = REPORT_RACE_SOLVED, .root = p, .seat = {p->stm, -1},
                                         .moves = {moves, 0}};
            c->out(&solved, c->out_ctx);
            return 1;
        }
    return nroot; /* not a root move (searchmoves left it out): searched as usual */
}

/* The clock's node count when it counts nodes (nodestime): every worker's. */
static uint64_t clock_nodes(const void *ctx)
{
    return total_nodes(ctx);
}

SearchResult search_run(const SearchShared *sh, const Game *g, const SearchLimits *limits,
                        const SearchConfig *config, SearchSignals *sig, SearchOutput out, void *ctx)
{
    SearchContext *c = calloc(1, sizeof *c);
    if (!c)
        return answer_without_memory(g, limits, sig, NULL, out, ctx);
    c->sh = sh;
    c->tt = sh->tt;
    c->busy = sh->busy;
    c->game = g;
    c->root_seat = g->pos.stm;
    c->lim = limits;
    c->cfg = config;
    c->algo = g->v->nseats == 2 ? ALGO_PARANOID : config->algo == ALGO_AUTO ? search_auto_algo(g->v) : config->algo;
    /* the opponent model plays games (a move on the clock or with a movetime,
     * as the book does; analysis searches every seat); `auto` answers seats it
     * models with MCTS, the one search that uses the model */
    const bool game = !limits->infinite && !limits->depth && !limits->nodes && !pos_over(&g->pos) &&
                      (limits->movetime > 0 || limits->time[g->pos.stm] >= 0);
    if (g->v->nseats > 2 && config->opponent_model && game && (config->algo == ALGO_AUTO || c->algo == ALGO_MCTS))
        c->modeled = modeled_seats(g);
    /* `auto` turns to MCTS only when every other seat is predicted: a
     * searching seat now and then plays OPPONENT_WINDOW greedy moves in a row,
     * and in a race against searching seats MCTS is the weakest search
     * (docs/MULTI.md); where MCTS is the family's search it keeps the model */
    if (c->modeled && config->algo == ALGO_AUTO && c->modeled == opponents_in_play(&g->pos))
        c->algo = ALGO_MCTS;
    c->duo_race = g->v->nseats == 2 && !g->v->capture;
    /* three seats: the best-reply line is short of opponents' moves (places.h) */
    c->three_race = g->v->nseats == 3 && !g->v->capture && !g->v->teams && !g->v->masters;
    c->multi_rfp_margin = alphabeta_multi_rfp_margin(g->v);
    c->opps = opps_params(config);
    c->sig = sig;
    c->out = out;
    c->out_ctx = ctx;
    atomic_init(&c->abort_all, false);
    atomic_init(&c->too_many_moves, false);
    for (int i = 0; i <= g->nplies; i++) {
        const unsigned bit = (unsigned)(g->keys[i] >> (64 - HISTORY_FILTER_BITS));
        c->history_filter[bit / 64] |= 1ull << (bit % 64);
    }
    SearchResult res = {.has_best = false};
    RootMove *root = NULL;
    const int s = pos_over(&g->pos) ? g->v->seats[0] : g->pos.stm; /* over: any seat, nothing is searched */
    /* nodes are not late in transit: no overhead when the budget counts them */
    const TimeBudget budget =
        timeman_budget(limits->time[s], limits->inc[s] > 0 ? limits->inc[s] : 0, limits->movestogo, limits->movetime,
                    pos_over(&g->pos) ? 1 : timeman_moves_left(&g->pos), config->nodestime > 0 ? 0 : config->overhead);
    clock_init(&c->clock, budget, limits->ponder, limits->infinite, &sig->ponderhit);
    if (config->nodestime > 0)
        clock_count_nodes(&c->clock, config->nodestime, clock_nodes, c);
    c->node_limit = limits->nodes;
    atomic_init(&c->nodes_shared, 0);
    const uint64_t budget_nodes = (uint64_t)config->nodestime * (uint64_t)budget.hard_ms;
    if (config->nodestime > 0 && budget.hard_ms >= 0 && !limits->infinite && !limits->ponder &&
        (!c->node_limit || budget_nodes < c->node_limit))
        c->node_limit = budget_nodes > 0 ? budget_nodes : 1;
    /* a report's legality checks stop with the search, not when its helpers are
     * told to (abort_all): a capture-mode line is long to check */
    c->report_gen = gen_memo_new();
    if (c->report_gen)
        gen_memo_set_abort(c->report_gen, report_gen_abort, c);
    /* the scores shown are the search's: with its net */
    c->report_eval = config->net && g->v->nseats > 2 ? eval_memo_new() : NULL;
    if (c->report_eval)
        eval_memo_set_net(c->report_eval, config->net);
    const int nroot = pos_over(&g->pos) ? 0 : rootmoves_list(c, &root);
    if (nroot < 0) {
        gen_memo_delete(c->report_gen);
        eval_memo_delete(c->report_eval);
        free(c);
        return answer_without_memory(g, limits, sig, NULL, out, ctx);
    }
    if (nroot && c->root_cut) {
        /* stopped, or out of time, while listing: no time to search */
        const SearchReport cut = {.kind = REPORT_ROOT_CUT, .root = &g->pos, .capped = c->root_capped,
                                  .listed = SEARCH_MOVES_MAX};
        out(&cut, ctx);
        res = (SearchResult){.best = root[0].move, .has_best = true};
        wait_for_stop(limits, sig); /* the cap's cut: an infinite or ponder search still waits */
        report_best(c, true, res.best, false, res.best);
    } else if (nroot == 0) {
        /* nothing to search; an infinite or ponder search still waits for stop */
        wait_for_stop(limits, sig);
        report_best(c, false, res.best, false, res.best);
    } else if (!race_answer(c, &res)) {
        const int n = race_alone(c, root, nroot);
        if (n < nroot && c->algo == ALGO_MCTS)
            c->algo = ALGO_BRS; /* one move left: a tree search reports its line at once */
        /* short of memory or threads at Threads, fewer search: said at each search */
        const int threads = pool_threads(sh->pool);
        if (threads < sh->threads_asked) {
            const SearchReport r = {.kind = REPORT_NO_MEMORY, .root = &g->pos, .threads = threads,
                                    .threads_asked = sh->threads_asked};
            out(&r, ctx);
        }
        res = c->algo == ALGO_MCTS ? mcts_root(c, root, n) : tree_search(c, root, n);
    }
    free(root);
    gen_memo_delete(c->report_gen);
    eval_memo_delete(c->report_eval);
    free(c);
    return res;
}
