/* search.c - iterative deepening PVS / paranoid alpha-beta with Lazy SMP; see
 * search.h. Scores inside the tree are from the view of the side to move, where
 * "side" means the root seat's team versus everyone else (paranoid reduction,
 * which is plain negamax with two seats). */
#include "search.h"

#include "board.h"
#include "eval.h"
#include "mcts.h"
#include "notation.h"
#include "places.h"
#include "race.h"
#include "timeman.h"
#include "tt.h"
#include "zobrist.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ASPIRATION_DELTA 60      /* cp, first aspiration half-window */
#define ASPIRATION_MIN_DEPTH 4
#define HISTORY_MAX 8192
#define ORDER_TT (1 << 30)
#define ORDER_KILLER (1 << 28)
#define ORDER_PROGRESS 16384     /* per step of progress toward the target */
#define CHECK_EVERY 1023         /* nodes between clock checks (mask) */
#define HISTORY_FILTER_BITS 12   /* bloom filter over game-history keys */

/* Selective search of two-seat race games (not capture mode), at non-PV nodes.
 * Each is off when its depth limit is 0 (NMP: when NMP_MIN_DEPTH exceeds MAX_PLY);
 * the values are overridable with -D for matches of one against another. */
#ifndef NMP_MIN_DEPTH
#define NMP_MIN_DEPTH 3          /* plies to go from which a null move is tried */
#endif
#ifndef NMP_MIN_OUTSIDE
#define NMP_MIN_OUTSIDE 4        /* own marbles outside the target: fewer risks zugzwang */
#endif
#ifndef RFP_DEPTH
#define RFP_DEPTH 3              /* reverse futility: plies to go up to which it applies */
#endif
#ifndef RFP_MARGIN
#define RFP_MARGIN 72            /* cp per ply to go (SPSA, docs/STRENGTH.md) */
#endif
#ifndef FUT_DEPTH
#define FUT_DEPTH 0              /* futility pruning of frontier moves: plies to go up to */
#endif                           /* which it applies; off (measured weaker: docs/STRENGTH.md) */
#ifndef FUT_MARGIN
#define FUT_MARGIN 105           /* cp over the move's progress that a quiet move may gain */
#endif
#ifndef LEAF_STEP_PCT
#define LEAF_STEP_PCT 44         /* percent of the mover's best progress added at leaves */
#endif
#ifndef LMP_DEPTH
#define LMP_DEPTH 3              /* late-move pruning: plies to go up to which it applies */
#endif
#ifndef LMP_BASE
#define LMP_BASE 6               /* moves searched before backward moves are dropped, */
#endif                           /* plus 2 x depth^2 */

const char *const search_algo_names[NUM_ALGOS] = {"auto", "paranoid", "maxn", "brs", "brs+", "mcts"};

SearchAlgo search_auto_algo(const Variant *v)
{
    if (v->capture)
        return ALGO_MCTS;
    if (v->nunits == 2) /* two teams: paranoid is the two-sided search */
        return ALGO_PARANOID;
    return v->nseats >= 6 ? ALGO_MCTS : ALGO_BRS;
}

typedef struct SearchContext SearchContext;

typedef struct {
    Move move;
    int score;      /* last completed search of this move, or -SCORE_INF */
    int prev_score;
    Move *pv;       /* MAX_PLY + 1 moves, allocated when first set (NULL: none) */
    int pvlen;
    int index;      /* place before a sort: sorts keep equal scores in order */
} RootMove;

typedef struct {
    int id;
    SearchContext *ctx;
    pthread_t thread;
    atomic_uint_fast64_t nodes;
    int seldepth;
    MoveList *lists;                     /* [MAX_PLY + 1] */
    Move filler[MAX_PLY + 1][MAX_SEATS]; /* BRS+: each opponent's best-ordered move at a min node */
    bool has_filler[MAX_PLY + 1][MAX_SEATS];
    Move killers[MAX_PLY + 1][2];
    int history[NUM_HOLES][NUM_HOLES];
    uint64_t path_keys[MAX_PLY + 2];
    bool after_null[MAX_PLY + 2];        /* the move into this ply was a null move */
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pvlen[MAX_PLY + 1];
    RootMove *root;
    int nroot;
    int completed_depth;
} Worker;

struct SearchContext {
    const Game *game;
    int root_seat;
    const SearchLimits *lim;
    const SearchConfig *cfg;
    SearchAlgo algo;         /* resolved: PARANOID, MAXN or BRS (two seats: PARANOID = PVS) */
    bool duo_race;           /* two seats, race rules: leaf progress term and selective search */
    bool root_cut;           /* stop or time cut the root list short: no search follows */
    SearchSignals *sig;
    atomic_bool abort_all;   /* main worker finished: helpers stop */
    SearchOutput out;
    void *out_ctx;
    int64_t start_ms;        /* when the search began: the time and nps it reports */
    _Atomic int64_t clock_ms; /* when its clock started; -1 while pondering (until ponderhit) */
    Move said[2];            /* the first two moves of the last line reported (multipv 1) */
    int nsaid;               /* how many of them were printed */
    TimeBudget budget;
    Worker *workers;
    int nworkers;
    uint64_t history_filter[(1 << HISTORY_FILTER_BITS) / 64];
};

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void search_limits_init(SearchLimits *l)
{
    memset(l, 0, sizeof *l);
    for (int s = 0; s < MAX_SEATS; s++)
        l->time[s] = -1;
}

/* History scores survive between searches of one game (cleared by ucinewgame). */
static int (*saved_history)[NUM_HOLES];
static pthread_mutex_t saved_lock = PTHREAD_MUTEX_INITIALIZER;

void search_clear(void)
{
    pthread_mutex_lock(&saved_lock);
    free(saved_history);
    saved_history = NULL;
    pthread_mutex_unlock(&saved_lock);
}

/* ---- helpers ---- */

static bool stopped(const Worker *w)
{
    return atomic_load_explicit(&w->ctx->sig->stop, memory_order_relaxed) ||
           atomic_load_explicit(&w->ctx->abort_all, memory_order_relaxed);
}

/* +1 when seat s plays on the root's side (the root seat or its partner), else -1. */
static int side_of(const SearchContext *c, int s)
{
    return s == c->root_seat || s == variant_partner(&c->game->v, c->root_seat) ? 1 : -1;
}

static uint32_t move_code(const Move *m)
{
    const uint64_t h = (uint64_t)m->captured * 0x9E3779B97F4A7C15ull ^ (uint64_t)(m->captured >> 64);
    return 1u + (m->from | (uint32_t)m->to << 7 | (uint32_t)(m->swap & 127) << 14 | (uint32_t)(h >> 53) << 21);
}

/* A total order of moves for ties: by start hole, end hole, swap hole, then
 * captured set. */
static bool move_before(const Move *a, const Move *b)
{
    if (a->from != b->from)
        return a->from < b->from;
    if (a->to != b->to)
        return a->to < b->to;
    if (a->swap != b->swap)
        return a->swap < b->swap;
    return a->captured < b->captured;
}

/* The transposition table's key of p: its Zobrist key, which leaves out what
 * repetition leaves out (RULES.md section 6), and in capture mode every
 * seat's captures, on which the value depends. */
static uint64_t tt_key(const Position *p)
{
    if (!p->v->capture)
        return p->key;
    uint64_t k = p->key;
    for (int i = 0; i < p->v->nseats; i++) {
        const int s = p->v->seats[i];
        k ^= zobrist.captures[s][p->captures[s] < 60 ? p->captures[s] : 60];
    }
    return k;
}

static int score_to_tt(int v, int ply)
{
    return v > SCORE_MATE_BOUND ? v + ply : v < -SCORE_MATE_BOUND ? v - ply : v;
}

static int score_from_tt(int v, int ply)
{
    return v > SCORE_MATE_BOUND ? v - ply : v < -SCORE_MATE_BOUND ? v + ply : v;
}

/* Value for seat `seat` of a position where its place is known (game over, or
 * its team placed), `ply` plies below the root. Three or more seats: places.h. */
static int place_value_for(const SearchContext *c, const Position *p, int ply, int seat)
{
    const Variant *v = &c->game->v;
    if (v->nseats > 2)
        return places_value_for(p, seat, ply, 0);
    const int other = v->seats[v->seats[0] == seat];
    const int pl = p->place[seat];
    if (pl == 1 && p->place[other] == 1)
        return 0;
    return pl == 1 ? SCORE_MATE - ply : -(SCORE_MATE - ply);
}

static int place_value(const SearchContext *c, const Position *p, int ply)
{
    return place_value_for(c, p, ply, c->root_seat);
}

static bool in_game_history(const SearchContext *c, uint64_t key)
{
    const unsigned bit = (unsigned)(key >> (64 - HISTORY_FILTER_BITS));
    return c->history_filter[bit / 64] >> (bit % 64) & 1;
}

/* Whether child position p (at `ply`) ends the game for the root: over, the root's
 * team placed, or a repetition (a second occurrence inside the tree, or a third
 * counting the game). Sets *value (root's view) and, when end is not NULL, *end
 * to the final position (p itself, or p ended by repetition). */
static bool terminal_end(Worker *w, const Position *p, int ply, int *value, Position *end_out)
{
    const SearchContext *c = w->ctx;
    if (pos_over(p) || p->place[c->root_seat]) {
        *value = place_value(c, p, ply);
        if (end_out)
            *end_out = *p;
        return true;
    }
    /* Earlier occurrences: on the current line, and in the game. With two seats
     * a second occurrence on the line ends it (the side that repeats could have
     * repeated again); with more, other seats need not go along, so only a true
     * third occurrence does. */
    int on_line = 0, in_game = 0;
    for (int i = ply - 2; i >= 1; i--)
        on_line += w->path_keys[i] == p->key;
    if (in_game_history(c, p->key)) {
        const Game *g = c->game;
        for (int i = 0; i <= g->nplies; i++)
            in_game += g->keys[i] == p->key;
    }
    const bool seen = c->game->v.nseats == 2 ? on_line > 0 || in_game >= 2 : on_line + in_game >= 2;
    if (!seen)
        return false;
    Position end = *p;
    pos_finish(&end, END_REPETITION);
    *value = place_value(c, &end, ply);
    if (end_out)
        *end_out = end;
    return true;
}

static bool terminal(Worker *w, const Position *p, int ply, int *value)
{
    return terminal_end(w, p, ply, value, NULL);
}

/* Progress of move m of seat `mover` in p toward its target, in steps (negative:
 * backward). */
static int move_progress(const Position *p, int mover, const Move *m)
{
    const uint8_t *tip = p->v->tip_dist[mover];
    return tip[m->from] - tip[m->to];
}

/* Whether m is a legal move of p's side to move. */
static bool legal_move(const Position *p, const Move *m)
{
    MoveList list = {0};
    gen_moves(p, &list);
    bool found = false;
    for (int i = 0; i < list.n && !found; i++)
        found = move_same(&list.m[i], m);
    move_list_free(&list);
    return found;
}

/* Ordering score of move m of seat `mover` in p (higher first). */
static int order_score(const Worker *w, const Position *p, int mover, const Move *m, uint32_t tt_move, int ply)
{
    if (tt_move && move_code(m) == tt_move)
        return ORDER_TT;
    if (move_same(m, &w->killers[ply][0]))
        return ORDER_KILLER;
    if (move_same(m, &w->killers[ply][1]))
        return ORDER_KILLER - 1;
    if (p->v->capture)
        return m->ncapt * ORDER_PROGRESS + w->history[m->from][m->to];
    return move_progress(p, mover, m) * ORDER_PROGRESS + w->history[m->from][m->to];
}

/* Moves the best-ordered move among [i, n) to i (with its mover). */
static void pick(MoveList *list, int i)
{
    int *order = list->score;
    uint8_t *movers = list->seat;
    /* the first of the highest: the highest first, in a loop the compiler
     * vectorizes, then where it first is */
    int top = order[i];
    for (int j = i + 1; j < list->n; j++)
        top = order[j] > top ? order[j] : top;
    int best = i;
    while (order[best] != top)
        best++;
    if (best != i) {
        const Move m = list->m[i];
        list->m[i] = list->m[best];
        list->m[best] = m;
        const int o = order[i];
        order[i] = order[best];
        order[best] = o;
        const uint8_t s = movers[i];
        movers[i] = movers[best];
        movers[best] = s;
    }
}

/* Whether p is a best-reply-search min node: all opponents' moves together. */
static bool brs_min_node(const SearchContext *c, const Position *p)
{
    return (c->algo == ALGO_BRS || c->algo == ALGO_BRS_PLUS) && side_of(c, p->stm) < 0;
}

/* order_score of every move in w->lists[ply], a race position's own moves (its
 * side to move's): the same scores, with what they read looked up once. A race
 * move captures nothing, so its move code and its likeness to a killer come from
 * its holes alone. */
static void race_order(Worker *w, const Position *p, int ply, uint32_t tt_move)
{
    const MoveList *list = &w->lists[ply];
    int *order = list->score;
    const uint8_t *tip = p->v->tip_dist[p->stm];
    const Move k0 = w->killers[ply][0], k1 = w->killers[ply][1];
    for (int i = 0; i < list->n; i++) {
        const Move *m = &list->m[i];
        int o = (tip[m->from] - tip[m->to]) * ORDER_PROGRESS + w->history[m->from][m->to];
        if (m->from == k1.from && m->to == k1.to && m->swap == k1.swap)
            o = ORDER_KILLER - 1;
        if (m->from == k0.from && m->to == k0.to && m->swap == k0.swap)
            o = ORDER_KILLER;
        if (tt_move && 1u + (m->from | (uint32_t)m->to << 7 | (uint32_t)(m->swap & 127) << 14) == tt_move)
            o = ORDER_TT;
        order[i] = o;
    }
}

static bool best_ordered(const Position *q, const MoveList *list, Move *out);

/* Best-reply min nodes search only each opponent's replies of the most
 * progress (captures): a forward pruning that leaves out moves an opponent
 * racing for itself would not play, and cuts the branching five-fold. 0: all.
 * Measured against greedy seats (docs/MULTI.md). */
#ifndef BRS_REPLY_TOP
#define BRS_REPLY_TOP 4
#endif
#ifndef BRS_REPLY_TOP_CAPTURE
#define BRS_REPLY_TOP_CAPTURE 3
#endif

/* The progress of move m of q's side to move (`tip`: its Variant.tip_dist),
 * or in capture mode its captures. */
static int reply_gain(const Position *q, const uint8_t *tip, const Move *m)
{
    return q->v->capture ? m->ncapt : tip[m->from] - tip[m->to];
}

/* Keeps the k moves of q's side to move in `list` with the most progress, or
 * in capture mode the most captures (the earlier of equal ones), in list order. */
static void keep_top_replies(const Position *q, MoveList *list, int k)
{
    if (list->n <= k)
        return;
    /* gains lie in -16..16 (race) or 1..60 (captures): a histogram finds the
     * k-th largest, and how many equal to it are kept */
    enum { OFFSET = 64, SPAN = 128 };
    const uint8_t *tip = q->v->tip_dist[q->stm];
    int count[SPAN] = {0};
    for (int i = 0; i < list->n; i++)
        count[reply_gain(q, tip, &list->m[i]) + OFFSET]++;
    int threshold = SPAN - 1, above = 0;
    while (above + count[threshold] < k)
        above += count[threshold--];
    int n = 0, equal_left = k - above;
    for (int i = 0; i < list->n; i++) {
        const int g = reply_gain(q, tip, &list->m[i]) + OFFSET;
        if (g > threshold || (g == threshold && equal_left-- > 0))
            list->m[n++] = list->m[i];
    }
    list->n = n;
}

/* Generates the moves of node p at `ply` into w->lists[ply] with their movers and
 * ordering scores: the side to move's moves, or at a best-reply min node those of
 * every opponent still playing (each as if it were its turn). */
static void node_moves(Worker *w, const Position *p, int ply, uint32_t tt_move)
{
    MoveList *list = &w->lists[ply];
    if (!brs_min_node(w->ctx, p)) {
        gen_moves_no_return(p, list);
        if (list->n)
            memset(list->seat, p->stm, (size_t)list->n);
        if (!p->v->capture) {
            race_order(w, p, ply, tt_move);
            return;
        }
    } else {
        MoveList *tmp = &w->lists[ply + 1]; /* free until the children are searched */
        list->n = 0;
        list->cut = false;
        const Variant *v = p->v;
        for (int k = 0; k < v->nseats; k++) {
            const int o = v->seats[(v->slot[p->stm] + k) % v->nseats];
            if (side_of(w->ctx, o) > 0 || p->status[o] != ST_PLAYING)
                continue;
            Position q = *p;
            if (o != q.stm)
                pos_set_stm(&q, o);
            gen_moves_no_return(&q, tmp);
            const int top = v->capture ? BRS_REPLY_TOP_CAPTURE : BRS_REPLY_TOP;
            if (top && !w->ctx->cfg->full_width)
                keep_top_replies(&q, tmp, top);
            list->cut |= tmp->cut;
            for (int i = 0; i < tmp->n && move_list_push(list, tmp->m[i]); i++)
                list->seat[list->n - 1] = (uint8_t)o;
            if (w->ctx->algo == ALGO_BRS_PLUS)
                w->has_filler[ply][o] = best_ordered(&q, tmp, &w->filler[ply][o]);
        }
    }
    for (int i = 0; i < list->n; i++)
        list->score[i] = order_score(w, p, list->seat[i], &list->m[i], tt_move, ply);
}

/* BRS+: the move of q's side to move that it plays when it is not the
 * opponent searched at a min node: the first in `list` (q's moves, in
 * generation order) of the most progress (race) or captures (capture mode).
 * Returns false when the list is empty. */
static bool best_ordered(const Position *q, const MoveList *list, Move *out)
{
    int best = -1, top = 0;
    for (int i = 0; i < list->n; i++) {
        const Move *m = &list->m[i];
        const int o = q->v->capture ? m->ncapt : move_progress(q, q->stm, m);
        if (best < 0 || o > top) {
            best = i;
            top = o;
        }
    }
    if (best >= 0)
        *out = list->m[best];
    return best >= 0;
}

/* BRS+: the move seat s plays in child position q after the min node at
 * `ply`: its best-ordered move there, found at the node and kept while it
 * stays legal (race moves), else found anew in `scratch`. */
static bool filler_move(Worker *w, const Position *q, int s, int ply, MoveList *scratch, Move *out)
{
    Position t = *q;
    pos_set_stm(&t, s);
    const Move *f = &w->filler[ply][s];
    if (w->has_filler[ply][s] && !q->v->capture && !q->v->masters && race_move_exists(&t, f->from, f->to)) {
        *out = *f;
        return true;
    }
    gen_moves_no_return(&t, scratch);
    return best_ordered(&t, scratch, out);
}

/* The child of p (at `ply`) after move m by seat `mover`; in best-reply search
 * the root's side moves again after any opponent's reply, in BRS+ once every
 * other opponent has played its best-ordered move too. */
static void make_child(Worker *w, const Position *p, int ply, int mover, const Move *m, Position *child)
{
    const SearchContext *c = w->ctx;
    *child = *p;
    if (child->stm != mover)
        pos_set_stm(child, mover);
    pos_play(child, m);
    if (c->algo != ALGO_BRS && c->algo != ALGO_BRS_PLUS)
        return;
    if (side_of(c, mover) > 0)
        return;
    const Variant *v = p->v;
    if (c->algo == ALGO_BRS_PLUS)
        for (int k = 1; k < v->nseats; k++) {
            const int s = v->seats[(v->slot[c->root_seat] + k) % v->nseats];
            if (pos_over(child) || child->status[c->root_seat] != ST_PLAYING)
                break;
            Move f;
            if (s != mover && side_of(c, s) < 0 && child->status[s] == ST_PLAYING &&
                filler_move(w, child, s, ply, &w->lists[ply + 1], &f)) {
                pos_set_stm(child, s);
                pos_play(child, &f);
            }
        }
    if (!pos_over(child) && side_of(c, child->stm) < 0 && child->status[c->root_seat] == ST_PLAYING)
        pos_set_stm(child, c->root_seat);
}

static void update_history(Worker *w, const Move *m, int bonus)
{
    int *h = &w->history[m->from][m->to];
    *h += bonus - *h * abs(bonus) / HISTORY_MAX;
}

/* When search c's clock started (ms of now_ms()), or -1 while it ponders: the
 * clock of a ponder search starts at ponderhit, seen first by any thread. */
static int64_t clock_start(SearchContext *c)
{
    int64_t clock = atomic_load(&c->clock_ms);
    if (clock < 0 && atomic_load(&c->sig->ponderhit)) {
        const int64_t now = now_ms();
        clock = atomic_compare_exchange_strong(&c->clock_ms, &clock, now) ? now : clock;
    }
    return clock;
}

/* Whether search c ponders (no ponderhit yet): no clock and no depth limit. */
static bool pondering(SearchContext *c) { return clock_start(c) < 0; }

static void check_limits(Worker *w)
{
    SearchContext *c = w->ctx;
    if (w->id != 0)
        return;
    if (c->lim->nodes) {
        uint64_t total = 0;
        for (int i = 0; i < c->nworkers; i++)
            total += atomic_load_explicit(&c->workers[i].nodes, memory_order_relaxed);
        if (total >= c->lim->nodes)
            atomic_store(&c->sig->stop, true);
    }
    const int64_t clock = clock_start(c);
    if (clock >= 0 && c->budget.hard_ms >= 0 && !c->lim->infinite && now_ms() - clock >= c->budget.hard_ms)
        atomic_store(&c->sig->stop, true);
}

#ifndef DEFER_MIN_DEPTH
#define DEFER_MIN_DEPTH 3       /* remaining plies from which threads defer busy moves */
#endif
#define MAX_MOVES_DEFERRED 64
#define BUSY_BITS 12              /* busy_children: 4,096 slots */

/* Child positions being searched by some thread (Zobrist keys; 0 = free). */
static _Atomic uint64_t busy_children[1 << BUSY_BITS];

static int search(Worker *w, const Position *p, int depth, int alpha, int beta, int ply);

/* Bookkeeping on entering a node at `ply`: PV length, selective depth, node count
 * and, now and then, the clock. Returns false when the search must stop. */
static bool enter_node(Worker *w, int ply)
{
    w->pvlen[ply] = ply;
    if (ply > w->seldepth)
        w->seldepth = ply;
    const uint64_t nodes = atomic_fetch_add_explicit(&w->nodes, 1, memory_order_relaxed) + 1;
    if (!(nodes & CHECK_EVERY))
        check_limits(w);
    return !stopped(w);
}

/* In capture mode every move is a capture, so a leaf also counts the best
 * capture of its side to move: the reply the horizon would otherwise hide (cp). */
static int capture_bonus(const Position *p)
{
    if (!p->v->capture)
        return 0;
    const int best = best_capture(p);
    return best > 0 ? best * W_CAPTURE : 0;
}

/* Static value of leaf p (at `ply`) for its side to move (`side`, +1 or -1 as
 * side_of gives it), searched with upper bound `beta`. */
static int leaf_value(Worker *w, const Position *p, int ply, int side, int beta)
{
    const SearchContext *c = w->ctx;
    if (p->v->nseats > 2) {
        /* The capture bonus (the side to move's best chain) only raises the
         * value for the side to move: at or above beta without it, the leaf
         * already fails high and the chains need not be walked. */
        const int v = side * places_value_for(p, c->root_seat, ply, 0);
        if (v >= beta || !p->v->capture)
            return v;
        return side * places_value_for(p, c->root_seat, ply, capture_bonus(p));
    }
    int v = side * eval_for(p, c->root_seat);
    /* The side to move's best progress this move, in part: what a quiescence
     * search over jumps would find first. It only raises the value, so at or above
     * beta the static value already fails high and the marbles' floods are saved. */
    if (LEAF_STEP_PCT && c->duo_race && v < beta)
        v += best_progress(p, p->v->tip_dist[p->stm], &w->lists[ply]) * W_DISTANCE * LEAF_STEP_PCT / 100;
    return v >= beta ? v : v + capture_bonus(p);
}

/* Searches child c of a node whose side is `side`, returning its value for that
 * side; (alpha, beta) is the node's window. */
static int child_value(Worker *w, const Position *c, int depth, int alpha, int beta, int ply, int side)
{
    int v;
    if (terminal(w, c, ply, &v))
        return side * v;
    if (side_of(w->ctx, c->stm) == side)
        return search(w, c, depth, alpha, beta, ply);
    return -search(w, c, depth, -beta, -alpha, ply);
}

/* How a selective node `depth` plies from the horizon treats move m (not a table
 * or killer move, not its first): SCORE_INF when it is searched, -SCORE_INF when
 * late-move pruning drops it (`lmp`: whether that applies here), else the
 * futility bound (<= alpha) it is dropped with. */
static int prune_value(const Position *p, const Move *m, int depth, int static_eval, int alpha, bool lmp)
{
    const int progress = move_progress(p, p->stm, m);
    /* Late-move pruning: past the first moves, backward moves are dropped. */
    if (lmp && progress < 0)
        return -SCORE_INF;
    /* Futility: a frontier move whose progress cannot lift the static value to
     * alpha. */
    if (depth <= FUT_DEPTH) {
        const int bound = static_eval + progress * W_DISTANCE + FUT_MARGIN;
        if (bound <= alpha)
            return bound;
    }
    return SCORE_INF;
}

/* prune_value over the moves list->m[from..n) not picked yet: SCORE_INF when one
 * of them would be searched, else the best of their values (-SCORE_INF when all
 * fall to late-move pruning). */
static int rest_pruned_bound(const Position *p, const MoveList *list, const int *order, int from, int depth,
                             int static_eval, int alpha, bool lmp)
{
    int best = -SCORE_INF;
    for (int j = from; j < list->n; j++) {
        if (order[j] >= ORDER_KILLER - 1)
            return SCORE_INF;
        const int v = prune_value(p, &list->m[j], depth, static_eval, alpha, lmp);
        if (v == SCORE_INF)
            return SCORE_INF;
        best = v > best ? v : best;
    }
    return best;
}

/* Whether race move m (a killer) is a legal move of p's side to move that its
 * list would hold: not a homecoming (gen_moves_no_return). 1: yes; 0: not legal,
 * so not in the list; -1: a legal homecoming, in the list when nothing else is. */
static int stageable(const Position *p, const Move *m)
{
    if (m->swap != NO_HOLE || m->captured || !race_move_exists(p, m->from, m->to))
        return 0;
    const Bitboard home = p->v->home[p->stm];
    return !bb_test(home, m->from) && bb_test(home, m->to) ? -1 : 1;
}

/* Staged move generation: the moves node p at `ply` may search before
 * generating the others, put in w->lists[ply] (with their movers and orders) in
 * the order they would be picked from the whole list: the table's move
 * `tt_move` (a move code, 0 for none), then the killers. At a cut node one of
 * them usually refutes alone, and the list is never needed. Returns how many
 * (0: generate at once). Race games without Masters swaps, not at a best-reply
 * min node. A table entry can come from another position with the same key
 * slot, and a killer from another node at this ply: each must be legal. A
 * killer follows only moves that certainly come first in the whole list. */
static int staged_moves(Worker *w, const Position *p, int ply, uint32_t tt_move)
{
    const Variant *v = p->v;
    if (v->capture || v->masters || brs_min_node(w->ctx, p))
        return 0;
    MoveList *list = &w->lists[ply];
    list->n = 0;
    if (!move_list_reserve(list, 3))
        return 0;
    if (tt_move) {
        /* a race move's code holds its holes; one without a swap or captures codes the same */
        const Move m = {.from = (uint8_t)((tt_move - 1) & 127), .to = (uint8_t)((tt_move - 1) >> 7 & 127),
                        .swap = NO_HOLE};
        if (move_code(&m) != tt_move || stageable(p, &m) != 1)
            return 0; /* perhaps a homecoming that the list holds first */
        list->m[0] = m;
        list->score[0] = ORDER_TT;
        list->n = 1;
    }
    for (int k = 0; k < 2; k++) {
        const Move *m = &w->killers[ply][k];
        bool again = tt_move && move_code(m) == tt_move;
        for (int j = 0; j < list->n; j++)
            again |= move_same(m, &list->m[j]);
        if (again)
            continue; /* the same move scores as the earlier one */
        const int ok = stageable(p, m);
        if (ok < 0)
            break; /* perhaps in the list, ahead of the next killer */
        if (ok) {
            list->score[list->n] = ORDER_KILLER - k;
            list->m[list->n++] = *m;
        }
    }
    memset(list->seat, p->stm, (size_t)list->n);
    return list->n;
}

static int search(Worker *w, const Position *p, int depth, int alpha, int beta, int ply)
{
    SearchContext *c = w->ctx;
    const int side = side_of(c, p->stm);
    const bool pv_node = beta - alpha > 1;
    if (!enter_node(w, ply))
        return 0;
    if (depth <= 0 || ply >= MAX_PLY)
        return leaf_value(w, p, ply, side, beta);
    w->path_keys[ply] = p->key;

    TTData tte;
    uint32_t tt_move = 0;
    const uint64_t key = tt_key(p);
    if (tt_probe(key, &tte)) {
        tt_move = tte.move;
        const int ts = score_from_tt(tte.score, ply);
        if (!pv_node && tte.depth >= depth &&
            (tte.bound == BOUND_EXACT || (tte.bound == BOUND_LOWER && ts >= beta) ||
             (tte.bound == BOUND_UPPER && ts <= alpha)))
            return ts;
    }

    /* Selective search: a two-seat race game at a node off the PV whose window is
     * not a forced result. */
    const bool selective =
        !pv_node && c->duo_race && !c->cfg->full_width && beta < SCORE_MATE_BOUND && beta > -SCORE_MATE_BOUND;
    int static_eval = 0;
    if (selective) {
        static_eval = side * eval_for(p, c->root_seat);
        /* Reverse futility: this far above beta, a few plies do not bring it back. */
        if (depth <= RFP_DEPTH && static_eval - RFP_MARGIN * depth >= beta)
            return static_eval;
        /* Null move (Beal 1989; R after Heinz 1999): passing is never better than
         * the best move while marbles are still to bring home, so if the opponent
         * cannot reach beta after a pass at reduced depth, the node fails high. */
        const int other = p->v->seats[1 - p->v->slot[p->stm]];
        if (depth >= NMP_MIN_DEPTH && static_eval >= beta && !w->after_null[ply] &&
            p->status[other] == ST_PLAYING &&
            bb_count(p->seat_bb[p->stm] & ~p->v->target[p->stm]) >= NMP_MIN_OUTSIDE) {
            const int r = 2 + depth / 4;
            Position child = *p;
            pos_set_stm(&child, other);
            w->after_null[ply + 1] = true;
            const int v = -search(w, &child, depth - 1 - r, -beta, -beta + 1, ply + 1);
            w->after_null[ply + 1] = false;
            if (stopped(w))
                return 0;
            if (v >= beta)
                return v >= SCORE_MATE_BOUND ? beta : v;
        }
    }

    MoveList *list = &w->lists[ply];
    const int staged = staged_moves(w, p, ply, tt_move);
    bool generated = staged == 0;
    if (generated)
        node_moves(w, p, ply, tt_move);

    const int alpha0 = alpha;
    int best = -SCORE_INF;
    int searched = 0; /* moves searched so far (not pruned, not deferred) */
    Move best_move = {0};
    /* Lazy SMP: moves another thread is searching right now are put off to the
     * end of the list (ABDADA's deferral, Weill 1996), so that the threads split
     * the work instead of repeating it; with one thread nothing changes. */
    const bool defer = c->nworkers > 1 && depth >= DEFER_MIN_DEPTH;
    int deferred[MAX_MOVES_DEFERRED], ndeferred = 0;
    bool rest_checked = false; /* rest_pruned_bound tried at this node */
    for (int k = 0; k < list->n + ndeferred || !generated; k++) {
        if (!generated && k == staged) { /* the staged moves did not refute: now the rest */
            node_moves(w, p, ply, tt_move);
            generated = true;
            /* the staged moves to the front, where they were searched: each is in
             * the list, as staged_moves checked, and ordered above the rest */
            for (int j = 0; j < staged; j++)
                pick(list, j);
            if (k == list->n + ndeferred)
                break; /* they were all the moves there are */
        }
        const bool second_pass = k >= list->n;
        const int i = second_pass ? deferred[k - list->n] : k;
        if (!second_pass)
            pick(list, i);
        const Move *m = &list->m[i];
        if (selective && i > 0 && list->score[i] < ORDER_KILLER - 1 && best > -SCORE_MATE_BOUND) {
            const bool lmp = depth <= LMP_DEPTH && searched >= LMP_BASE + 2 * depth * depth;
            const int pruned = prune_value(p, m, depth, static_eval, alpha, lmp);
            if (pruned != SCORE_INF) {
                if (pruned > best)
                    best = pruned;
                /* The moves not picked yet come later in the order and mostly fall
                 * the same way: when all do, they are passed over at once instead
                 * of picked one by one, with the same result. */
                if (!second_pass && !rest_checked) {
                    rest_checked = true;
                    const int rest = rest_pruned_bound(p, list, list->score, i + 1, depth, static_eval, alpha, lmp);
                    if (rest != SCORE_INF) {
                        if (rest > best)
                            best = rest;
                        k = list->n - 1; /* on to the deferred moves, if any */
                    }
                }
                continue;
            }
        }
        /* The child probes the table unless it is a leaf: its bucket is fetched
         * while the child is made, from the key it most likely has (no swap or
         * captures, the next seat in turn to move, no status changed), and
         * again once made if that guess was wrong. */
        uint64_t guess = 0;
        if (depth > 1 && m->swap == NO_HOLE && !m->ncapt) {
            const Variant *v = p->v;
            const int mover = list->seat[i], slot = v->slot[mover] + 1;
            guess = p->key ^ zobrist.piece[mover + 1][m->from] ^ zobrist.piece[mover + 1][m->to] ^
                    zobrist.stm[p->stm] ^ zobrist.stm[v->seats[slot < v->nseats ? slot : 0]];
            tt_prefetch(guess);
        }
        Position child;
        make_child(w, p, ply, list->seat[i], m, &child);
        const uint64_t child_key = tt_key(&child);
        if (depth > 1 && child_key != guess)
            tt_prefetch(child_key);
        _Atomic uint64_t *slot = NULL;
        if (defer) {
            slot = &busy_children[child_key >> (64 - BUSY_BITS)];
            if (!second_pass && i > 0 && ndeferred < MAX_MOVES_DEFERRED &&
                atomic_load_explicit(slot, memory_order_relaxed) == child_key) {
                deferred[ndeferred++] = i;
                continue;
            }
            atomic_store_explicit(slot, child_key, memory_order_relaxed);
        }
        int v;
        searched++;
        if (i == 0) {
            v = child_value(w, &child, depth - 1, alpha, beta, ply + 1, side);
        } else {
            int r = 0;
            if (depth >= 3 && i >= 3 && list->score[i] < ORDER_KILLER - 1 && !c->cfg->full_width) {
                r = 1 + (i >= 10 && depth >= 6) + (list->score[i] < 0);
                if (r > depth - 2)
                    r = depth - 2;
            }
            v = child_value(w, &child, depth - 1 - r, alpha, alpha + 1, ply + 1, side);
            if (v > alpha && r)
                v = child_value(w, &child, depth - 1, alpha, alpha + 1, ply + 1, side);
            if (v > alpha && v < beta)
                v = child_value(w, &child, depth - 1, alpha, beta, ply + 1, side);
        }
        if (slot) {
            uint64_t mine = child_key;
            atomic_compare_exchange_strong_explicit(slot, &mine, 0, memory_order_relaxed, memory_order_relaxed);
        }
        if (stopped(w))
            return 0;
        if (v > best) {
            best = v;
            best_move = *m;
            if (v > alpha) {
                alpha = v;
                w->pv[ply][ply] = *m;
                for (int j = ply + 1; j < w->pvlen[ply + 1]; j++)
                    w->pv[ply][j] = w->pv[ply + 1][j];
                w->pvlen[ply] = w->pvlen[ply + 1] > ply + 1 ? w->pvlen[ply + 1] : ply + 1;
            }
        }
        if (alpha >= beta) {
            if (list->score[i] < ORDER_KILLER - 1) {
                w->killers[ply][1] = w->killers[ply][0];
                w->killers[ply][0] = *m;
            }
            update_history(w, m, depth * depth);
            for (int j = 0; j < i; j++)
                update_history(w, &list->m[j], -depth * depth);
            break;
        }
    }
    if (list->n == 0) /* cannot happen: the side to move always has a move */
        return leaf_value(w, p, ply, side, beta);
    const TTData d = {move_code(&best_move), (int16_t)score_to_tt(best, ply), (int8_t)depth,
                      (uint8_t)(best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER)};
    tt_store(key, &d);
    return best;
}

/* Max-n: fills out[seat] with the value of p for every seat in play, each seat
 * to move choosing the child best for itself. No pruning; the table only orders
 * moves. */
static void maxn(Worker *w, const Position *p, int depth, int ply, int out[MAX_SEATS])
{
    memset(out, 0, sizeof(int) * MAX_SEATS);
    if (!enter_node(w, ply))
        return;
    if (depth <= 0 || ply >= MAX_PLY) {
        places_values(p, ply, capture_bonus(p), out);
        return;
    }
    w->path_keys[ply] = p->key;
    TTData tte;
    const uint32_t tt_move = tt_probe(tt_key(p), &tte) ? tte.move : 0;
    node_moves(w, p, ply, tt_move);
    MoveList *list = &w->lists[ply];
    const int me = p->stm;
    int best = -SCORE_INF;
    Move best_move = {0};
    for (int i = 0; i < list->n; i++) {
        pick(list, i);
        const Move *m = &list->m[i];
        Position child, end;
        make_child(w, p, ply, me, m, &child);
        int vals[MAX_SEATS], root_value;
        if (terminal_end(w, &child, ply + 1, &root_value, &end)) {
            w->pvlen[ply + 1] = ply + 1;
            places_values(&end, ply + 1, 0, vals);
        } else {
            maxn(w, &child, depth - 1, ply + 1, vals);
        }
        if (stopped(w))
            return;
        /* equal values go to the move_before one whatever the order searched,
         * so that the result does not depend on move ordering */
        if (vals[me] > best || (vals[me] == best && move_before(m, &best_move))) {
            best = vals[me];
            best_move = *m;
            memcpy(out, vals, sizeof vals);
            w->pv[ply][ply] = *m;
            for (int j = ply + 1; j < w->pvlen[ply + 1]; j++)
                w->pv[ply][j] = w->pv[ply + 1][j];
            w->pvlen[ply] = w->pvlen[ply + 1] > ply + 1 ? w->pvlen[ply + 1] : ply + 1;
        }
    }
    if (!list->n) {
        places_values(p, ply, 0, out);
        return;
    }
    const TTData d = {move_code(&best_move), (int16_t)score_to_tt(best, ply), (int8_t)depth, BOUND_NONE};
    tt_store(tt_key(p), &d);
}

/* One root iteration for the line pv_index (multipv): searches root moves
 * [pv_index, nroot) and returns the best value (root side's view). */
static int search_root(Worker *w, int depth, int alpha, int beta, int pv_index)
{
    const Position *p = &w->ctx->game->pos;
    int best = -SCORE_INF;
    w->path_keys[0] = p->key;
    w->pvlen[0] = 0;
    for (int i = pv_index; i < w->nroot; i++) {
        RootMove *rm = &w->root[i];
        Position child = *p;
        pos_play(&child, &rm->move);
        atomic_fetch_add_explicit(&w->nodes, 1, memory_order_relaxed);
        int v;
        if (w->ctx->algo == ALGO_MAXN) {
            int vals[MAX_SEATS];
            if (!terminal(w, &child, 1, &v)) {
                maxn(w, &child, depth - 1, 1, vals);
                v = vals[w->ctx->root_seat];
            } else {
                w->pvlen[1] = 1;
            }
        } else if (i == pv_index) {
            v = child_value(w, &child, depth - 1, alpha, beta, 1, 1);
        } else {
            v = child_value(w, &child, depth - 1, alpha, alpha + 1, 1, 1);
            if (v > alpha && v < beta)
                v = child_value(w, &child, depth - 1, alpha, beta, 1, 1);
        }
        if (stopped(w))
            return best;
        if (v > alpha || i == pv_index) {
            rm->score = v;
            rm->pvlen = 0;
            if (rm->pv || (rm->pv = malloc(sizeof *rm->pv * (MAX_PLY + 1)))) {
                rm->pv[0] = rm->move;
                rm->pvlen = 1;
                for (int j = 1; j < w->pvlen[1]; j++)
                    rm->pv[rm->pvlen++] = w->pv[1][j];
            }
        } else {
            rm->score = -SCORE_INF;
        }
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

static int by_score(const void *a, const void *b)
{
    const RootMove *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->index - y->index;
}

/* Stable sort of root moves [from, n) by score, best first. */
static void sort_root(RootMove *r, int from, int n)
{
    for (int i = from; i < n; i++)
        r[i].index = i;
    qsort(r + from, (size_t)(n - from), sizeof *r, by_score);
}

static void emit(SearchContext *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(SearchContext *c, const char *fmt, ...)
{
    char line[16384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    c->out(line, c->out_ctx);
}

static uint64_t total_nodes(const SearchContext *c)
{
    uint64_t n = 0;
    for (int i = 0; i < c->nworkers; i++)
        n += atomic_load_explicit(&c->workers[i].nodes, memory_order_relaxed);
    return n;
}

/* Writes " score cp X" or " score mate N" (N own moves of the root seat). */
static int format_score(const SearchContext *c, int score, char *buf, size_t len)
{
    if (abs(score) > SCORE_MATE_BOUND) {
        const int plies = SCORE_MATE - abs(score);
        const int n = c->game->v.nseats;
        const int own = (plies + n - 1) / n;
        return snprintf(buf, len, "score mate %d", score > 0 ? own : -own);
    }
    return snprintf(buf, len, "score cp %d", score);
}

/* The score of a line with three or more seats: a mate when the search found
 * one (`score`), else the relative standing `rel` in cp, however large (a
 * relative value beyond the mate bound is no mate). */
static int format_relative(const SearchContext *c, int score, int rel, char *buf, size_t len)
{
    if (abs(score) > SCORE_MATE_BOUND)
        return format_score(c, score, buf, len);
    return snprintf(buf, len, "score cp %d", rel);
}

/* Whether move m of a searched line can be played in p, the line's position
 * so far. A best-reply line leaves the turn order (an opponent's reply is any
 * opponent's, and BRS+ leaves out the others' moves), so with three or more
 * seats each move is checked against p's legal moves; a two-seat line is. */
static bool pv_move_playable(const SearchContext *c, const Position *p, const Move *m)
{
    if (c->game->v.nseats > 2)
        return legal_move(p, m);
    return p->v->capture || p->board[m->from] == p->stm + 1;
}

/* With three or more seats, the protocol's relative scores at the end of a
 * root move's line (the last position before the game ends): each unit's
 * standing minus the best standing of the other units still unplaced there,
 * into rel[seat]; a unit placed by then gets the value of its outcome
 * (places.h), as a decided result. */
static void relative_scores(const SearchContext *c, const RootMove *rm, int rel[MAX_SEATS])
{
    const Variant *v = &c->game->v;
    Position leaf = c->game->pos;
    int ply = 0;
    for (int i = 0; i < rm->pvlen; i++) {
        if (!pv_move_playable(c, &leaf, &rm->pv[i]))
            break;
        Position next = leaf;
        pos_play(&next, &rm->pv[i]);
        if (pos_over(&next))
            break;
        leaf = next;
        ply++;
    }
    int own[MAX_SEATS], rival[MAX_SEATS];
    eval_standings(&leaf, own, rival);
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i], u = variant_unit(v, s);
        if (leaf.place[u]) {
            rel[s] = places_value_for(&leaf, s, ply, 0);
            continue;
        }
        int best = -SCORE_INF;
        for (int j = 0; j < v->nseats; j++) {
            const int o = v->seats[j];
            if (variant_unit(v, o) == o && o != u && !leaf.place[o] && own[o] > best)
                best = own[o];
        }
        rel[s] = best == -SCORE_INF ? own[u] : own[u] - best;
    }
}

static void report_line(SearchContext *c, const Worker *w, int depth, int k, const RootMove *rm)
{
    char buf[12288], *o = buf;
    const char *end = buf + sizeof buf - MOVE_STR_MAX - 2;
    Position p = c->game->pos;
    if (c->game->v.nseats > 2) {
        int rel[MAX_SEATS];
        relative_scores(c, rm, rel);
        o += format_relative(c, rm->score, rel[c->root_seat], o, (size_t)(end - o));
        o += snprintf(o, (size_t)(end - o), " scores");
        for (int i = 0; i < c->game->v.nseats; i++) {
            const int s = c->game->v.seats[i];
            o += snprintf(o, (size_t)(end - o), " %c:%d", variant_seat_letter(s), rel[s]);
        }
    } else {
        o += format_score(c, rm->score, o, (size_t)(end - o));
    }
    const int64_t ms = now_ms() - c->start_ms;
    const uint64_t nodes = total_nodes(c);
    o += snprintf(o, (size_t)(end - o), " nodes %llu nps %llu hashfull %d time %lld pv", (unsigned long long)nodes,
                  (unsigned long long)(ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes), tt_hashfull(), (long long)ms);
    if (k == 0)
        c->nsaid = 0;
    for (int i = 0; i < rm->pvlen && o < end && !pos_over(&p); i++) {
        if (!pv_move_playable(c, &p, &rm->pv[i]))
            break; /* print the legal prefix */
        if (k == 0 && i < 2)
            c->said[c->nsaid++] = rm->pv[i];
        *o++ = ' ';
        move_str(&p, &rm->pv[i], o);
        o += strlen(o);
        pos_play(&p, &rm->pv[i]);
    }
    *o = 0;
    emit(c, "info depth %d seldepth %d multipv %d %s", depth, w->seldepth, k + 1, buf);
}

static void *worker_main(void *arg);

static void iterate(Worker *w)
{
    SearchContext *c = w->ctx;
    const int multipv = w->id == 0 ? (c->cfg->multipv < w->nroot ? c->cfg->multipv : w->nroot) : 1;
    const int max_depth = c->lim->depth > 0 && c->lim->depth < MAX_PLY ? c->lim->depth : MAX_PLY - 1;
    /* Every thread deepens one ply at a time; they share the table and put off
     * the moves another thread is searching (see search()). Helpers that skip
     * every other depth measured worse with the deferral (docs/STRENGTH.md). */
    for (int depth = 1; depth <= max_depth; depth++) {
        w->seldepth = 0;
        for (int k = 0; k < multipv; k++) {
            int prev = w->root[k].prev_score, delta = ASPIRATION_DELTA;
            int alpha = -SCORE_INF, beta = SCORE_INF;
            if (depth >= ASPIRATION_MIN_DEPTH && abs(prev) < SCORE_MATE_BOUND && c->algo != ALGO_MAXN) {
                alpha = prev - delta;
                beta = prev + delta;
            }
            for (;;) {
                const int v = search_root(w, depth, alpha, beta, k);
                if (stopped(w))
                    break;
                sort_root(w->root, k, w->nroot);
                if (v <= alpha && alpha > -SCORE_INF) {
                    beta = (alpha + beta) / 2;
                    alpha = v - delta > -SCORE_INF ? v - delta : -SCORE_INF;
                } else if (v >= beta && beta < SCORE_INF) {
                    beta = v + delta < SCORE_INF ? v + delta : SCORE_INF;
                } else {
                    break;
                }
                delta *= 2;
                if (delta > 1000)
                    alpha = -SCORE_INF, beta = SCORE_INF;
            }
            if (stopped(w))
                break;
        }
        if (stopped(w))
            break;
        for (int i = 0; i < w->nroot; i++)
            w->root[i].prev_score = w->root[i].score;
        w->completed_depth = depth;
        if (depth >= max_depth && c->lim->depth > 0 && !c->lim->infinite && !pondering(c)) {
            /* go depth: the first thread to complete it ends the search (a helper
             * may finish first; its result is used) */
            atomic_store(&c->abort_all, true);
            if (w->id == 0)
                for (int k = 0; k < multipv; k++)
                    report_line(c, w, depth, k, &w->root[k]);
            break;
        }
        if (w->id != 0)
            continue;
        for (int k = 0; k < multipv; k++)
            report_line(c, w, depth, k, &w->root[k]);
        const int64_t clock = clock_start(c);
        const bool timed = !c->lim->infinite && clock >= 0 && c->budget.soft_ms >= 0;
        if (timed && (now_ms() - clock >= c->budget.soft_ms || w->nroot == 1))
            break;
        if (abs(w->root[0].score) > SCORE_MATE_BOUND && depth >= SCORE_MATE - abs(w->root[0].score) + 2 &&
            !c->lim->infinite && !pondering(c))
            break;
    }
}

/* Move generation's abort hook in a worker: the limits, then the stop flag. */
static bool worker_gen_abort(void *arg)
{
    Worker *w = arg;
    check_limits(w);
    return stopped(w);
}

static void *worker_main(void *arg)
{
    movegen_set_abort(worker_gen_abort, arg);
    iterate(arg);
    movegen_set_abort(NULL, NULL);
    return NULL;
}

#define DEADLINE_GUARD_SLACK 1 /* spare own moves before the guard takes over */

/* The exit deadline guard (RULES.md section 5): when the mover's moves left before
 * its deadline barely cover one per marble still at home, only moves that take a
 * marble out of the home are searched (if there are any). The evaluation steers
 * toward leaving early; this makes sure a shallow search cannot dawdle. */
static int deadline_guard(const Position *p, RootMove *rm, int n)
{
    const Variant *v = p->v;
    const int s = p->stm;
    if (v->capture || p->moves[s] >= v->deadline)
        return n;
    const int at_home = bb_count(p->seat_bb[s] & v->home[s]);
    if (!at_home || v->deadline - p->moves[s] > at_home + DEADLINE_GUARD_SLACK)
        return n;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (bb_test(v->home[s], rm[i].move.from) && !bb_test(v->home[s], rm[i].move.to))
            rm[k++] = rm[i];
    return k ? k : n;
}

/* Root moves: legal, in searchmoves when given, and not eliminating the mover
 * while another move exists (RULES.md section 5). Returns their number and a
 * malloc'd array in *out. */
static bool root_gen_abort(void *arg);

static int root_moves(SearchContext *c, RootMove **out_array)
{
    const Position *p = &c->game->pos;
    MoveList *list = move_list_new();
    if (!list)
        return -1;
    if (c->lim->nsearchmoves)
        gen_moves(p, list);
    else
        gen_moves_no_return(p, list);
    c->root_cut = list->cut && root_gen_abort(c);
    if (c->root_cut) { /* no time to search: the most captures found */
        int best = 0;
        for (int i = 1; i < list->n; i++)
            best = list->m[i].ncapt > list->m[best].ncapt ? i : best;
        list->m[0] = list->m[best];
        list->n = 1;
    }
    RootMove *out = list->cut && !c->root_cut ? NULL /* out of memory */
                                               : malloc(sizeof *out * (size_t)(list->n ? list->n : 1));
    if (!out) {
        move_list_delete(list);
        return -1;
    }
    *out_array = out;
    int n = 0, safe = 0;
    for (int i = 0; i < list->n; i++) {
        bool wanted = c->lim->nsearchmoves == 0;
        for (int j = 0; j < c->lim->nsearchmoves && !wanted; j++)
            wanted = move_same(&list->m[i], &c->lim->searchmoves[j]);
        if (!wanted)
            continue;
        bool suicide = false; /* capture mode eliminates nobody */
        if (!p->v->capture) {
            Position child = *p;
            pos_play(&child, &list->m[i]);
            suicide = child.status[p->stm] == ST_ELIMINATED;
        }
        out[n] = (RootMove){.move = list->m[i], .score = suicide ? -SCORE_INF + 1 : 0, .prev_score = 0};
        safe += !suicide;
        n++;
    }
    move_list_free(list);
    free(list);
    if (!c->lim->nsearchmoves)
        n = deadline_guard(p, out, n);
    safe = 0;
    for (int i = 0; i < n; i++)
        safe += out[i].score == 0;
    if (safe && safe < n) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (out[i].score == 0)
                out[k++] = out[i];
        n = k;
    }
    for (int i = 0; i < n; i++)
        out[i].score = -SCORE_INF;
    return n;
}

#define CAPTURE_PIECES_PER_MOVE 3 /* a capture-mode chain takes about this many pieces */
#define CAPTURE_MOVES_SPARE 2      /* own moves added to the capture-mode estimate */

/* Own moves the side to move still expects to make, for the time manager. In
 * capture mode the pieces left shared out among the seats, a few a move (a
 * game from the start lasts about six moves a seat with three seats). */
static int moves_left_estimate(const Position *p)
{
    if (p->v->capture)
        return bb_count(p->neutral) / (CAPTURE_PIECES_PER_MOVE * p->v->nseats) + CAPTURE_MOVES_SPARE;
    const int dist = -eval_seat(p, p->stm).distance / W_DISTANCE; /* steps still to go */
    const int est = dist / 3 + 8;
    return est < 10 ? 10 : est;
}

/* Sets up worker w (zeroed) of search c; false when memory runs out (then
 * worker_free cleans up). */
static bool worker_init(Worker *w, SearchContext *c, int id, const RootMove *root, int nroot)
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

static void worker_free(Worker *w)
{
    for (int i = 0; i < w->nroot; i++)
        free(w->root[i].pv);
    for (int i = 0; w->lists && i <= MAX_PLY; i++)
        move_list_free(&w->lists[i]);
    free(w->lists);
    free(w->root);
}

#define RACE_NODE_LIMIT 300000 /* per army and search: well under a second */
#define RACE_NODES_PER_MS 100  /* solver speed assumed when the clock runs: well below its */
                               /* real speed, so that a solve within the budget never overruns */
#define RACE_TABLE_MIB 16      /* the most the solver's table takes */
#define RACE_MIN_MS 50         /* hard time limit below which races are not solved */

/* Race endgames (issue 5): once the two armies are past each other
 * (race_separated), each one's fewest moves to arrive is solved exactly by
 * race_solve and the result follows from the reply rule (RULES.md section 6):
 * with a own moves needed by the side to move and b by the other, the first seat
 * wins when a < b and draws when a == b; the second seat wins when a <= b and
 * draws when a == b + 1. The line interleaves both armies' solutions and is
 * checked move by move on the real board. Returns true with the best move, the
 * root seat's score (mate score, or 0 for a draw) and the line (*pvlen moves);
 * false when it does not apply or a solve runs over its node limit (RACE_NODE_LIMIT,
 * less when the clock runs: half the hard time limit at RACE_NODES_PER_MS, and
 * none below RACE_MIN_MS: at 1+0.01 a failing solve each move drained the clock). */
static bool race_root(SearchContext *c, Move *pv, int *pvlen, int *score, uint64_t *nodes, int *moves)
{
    const Position *p = &c->game->pos;
    if (!race_separated(p) || c->lim->nsearchmoves || c->cfg->multipv > 1)
        return false;
    const Variant *v = p->v;
    const int side[2] = {p->stm, p->stm == v->seats[0] ? v->seats[1] : v->seats[0]};
    Move line[2][RACE_MAX_MOVES];
    int need[2];
    *nodes = 0;
    uint64_t limit = RACE_NODE_LIMIT;
    if (c->budget.hard_ms >= 0 && !c->lim->infinite && !pondering(c)) {
        if (c->budget.hard_ms < RACE_MIN_MS)
            return false; /* no time to spare: a failed solve would cost the clock */
        const uint64_t timed = (uint64_t)c->budget.hard_ms * RACE_NODES_PER_MS / 2;
        limit = timed < limit ? timed : limit;
    }
    /* a table of about four entries per node allowed (8 bytes each) */
    const int mib = limit * 32 >= (uint64_t)RACE_TABLE_MIB << 20 ? RACE_TABLE_MIB : (int)(limit * 32 >> 20) + 1;
    for (int k = 0; k < 2; k++) {
        Position alone = *p;
        race_remove_army(&alone, side[1 - k]);
        RaceStats st;
        need[k] = race_solve(&alone, side[k], RACE_MAX_MOVES, mib, limit, &c->sig->stop,
                             line[k], &st);
        *nodes += st.nodes;
        if (need[k] < 0)
            return false;
    }
    const int a = need[0], b = need[1];
    const bool first = side[0] == v->seats[0];
    int plies, result; /* result: 1 win, 0 draw, -1 loss for the side to move */
    if (first) {
        result = a < b ? 1 : a == b ? 0 : -1;
        plies = result < 0 ? 2 * b : 2 * a;
    } else {
        result = a <= b ? 1 : a == b + 1 ? 0 : -1;
        plies = result >= 0 ? 2 * a - 1 : 2 * b + 1;
    }
    if (p->round + (plies + 1) / 2 >= ROUND_LIMIT)
        return false; /* the round limit would end it first */
    Position q = *p;
    int n = 0;
    for (int i = 0; i < plies && !pos_over(&q); i++) {
        const int k = i % 2, j = i / 2;
        if (j >= need[k] || q.stm != side[k])
            break;
        const Move *m = &line[k][j];
        if (!bb_test(marble_destinations(&q, side[k], m->from), m->to))
            return false; /* the other army is in the way after all */
        pv[n++] = *m;
        pos_play(&q, m);
    }
    if (n == 0)
        return false;
    *pvlen = n;
    *score = result > 0 ? SCORE_MATE - plies : result < 0 ? -(SCORE_MATE - plies) : 0;
    moves[0] = a;
    moves[1] = b;
    return true;
}

#define MCTS_PLAYOUTS_PER_DEPTH 10000 /* `go depth N` with mcts: at most N x this many playouts */
#define MCTS_NODES_CAP (1u << 22)    /* tree nodes at most (about 64 bytes each) */

/* After the search of a `go infinite` or an unanswered `go ponder`: the
 * answer waits for stop (or ponderhit). */
static void wait_for_answer(SearchContext *c)
{
    while ((c->lim->infinite || pondering(c)) && !atomic_load(&c->sig->stop)) {
        const struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
}

/* Whether search c must stop now: stop or quit, or the clock past `limit_ms`
 * (its soft or hard limit; -1 none; not for infinite searches). A ponder search
 * waits for ponderhit, where its clock starts. */
static bool out_of_time(SearchContext *c, int64_t limit_ms)
{
    if (atomic_load(&c->sig->stop))
        return true;
    const int64_t clock = clock_start(c);
    return clock >= 0 && !c->lim->infinite && limit_ms >= 0 && now_ms() - clock >= limit_ms;
}

/* MCTS's stop test: the soft limit (the search is anytime). */
static bool mcts_stop(void *ctx)
{
    SearchContext *c = ctx;
    return out_of_time(c, c->budget.soft_ms);
}

/* Searches with MCTS and writes its info line and bestmove. */
static SearchResult mcts_root(SearchContext *c, const RootMove *root, int nroot)
{
    const Game *g = c->game;
    Move *moves = malloc(sizeof *moves * (size_t)nroot);
    SearchResult res = {.has_best = true, .best = root[0].move};
    MctsResult r = {0};
    uint64_t limit = c->lim->nodes;
    if (c->lim->depth > 0 && !c->lim->infinite)
        limit = (uint64_t)c->lim->depth * MCTS_PLAYOUTS_PER_DEPTH;
    if (moves) {
        for (int i = 0; i < nroot; i++)
            moves[i] = root[i].move;
        const int depth = c->lim->depth > 0 && !c->lim->infinite ? c->lim->depth : 0;
        movegen_set_abort(mcts_stop, c); /* generation stops with the search */
        const int rc = mcts_search(g, moves, nroot, limit, depth, MCTS_NODES_CAP, mcts_stop, c, &r);
        movegen_set_abort(NULL, NULL);
        if (rc == 0 && r.has_best) {
            res.best = r.best;
            res.depth = r.depth;
            res.nodes = r.playouts;
            res.score = r.values[c->root_seat];
        }
        free(moves);
    }
    if (!moves || !r.has_best)
        r = (MctsResult){.best = root[0].move, .has_best = true, .pv = {root[0].move}, .pvlen = 1};
    wait_for_answer(c);
    RootMove rm = {.move = r.best, .score = res.score, .pv = r.pv, .pvlen = r.pvlen};
    int rel[MAX_SEATS];
    relative_scores(c, &rm, rel);
    char buf[12288], *o = buf, sc[64];
    const char *end = buf + sizeof buf - MOVE_STR_MAX - 2;
    format_relative(c, res.score, rel[c->root_seat], sc, sizeof sc);
    const int64_t ms = now_ms() - c->start_ms;
    o += snprintf(o, (size_t)(end - o), "info depth %d seldepth %d multipv 1 %s scores", r.depth, r.seldepth, sc);
    for (int i = 0; i < g->v.nseats; i++)
        o += snprintf(o, (size_t)(end - o), " %c:%d", variant_seat_letter(g->v.seats[i]), rel[g->v.seats[i]]);
    o += snprintf(o, (size_t)(end - o), " nodes %llu nps %llu hashfull 0 time %lld pv", (unsigned long long)r.playouts,
                  (unsigned long long)(ms > 0 ? r.playouts * 1000 / (uint64_t)ms : r.playouts), (long long)ms);
    Position p = g->pos;
    for (int i = 0; i < r.pvlen && o < end && !pos_over(&p); i++) {
        *o++ = ' ';
        move_str(&p, &r.pv[i], o);
        o += strlen(o);
        pos_play(&p, &r.pv[i]);
    }
    *o = 0;
    emit(c, "%s", buf);
    char mv[MOVE_STR_MAX], pm[MOVE_STR_MAX];
    move_str(&g->pos, &res.best, mv);
    Position after = g->pos;
    pos_play(&after, &res.best);
    if (r.pvlen > 1 && !pos_over(&after) && legal_move(&after, &r.pv[1])) {
        res.ponder = r.pv[1];
        res.has_ponder = true;
        move_str(&after, &res.ponder, pm);
        emit(c, "bestmove %s ponder %s", mv, pm);
    } else {
        emit(c, "bestmove %s", mv);
    }
    return res;
}

/* Move generation's abort hook while the root moves are listed (a capture-mode
 * position can have millions): stop, and the clock's hard limit. */
static bool root_gen_abort(void *arg)
{
    SearchContext *c = arg;
    return out_of_time(c, c->budget.hard_ms);
}

/* The answer of a search that got no memory: an error line, then (after stop
 * for an infinite or ponder search) the first legal move. */
static SearchResult answer_without_memory(const Game *g, const SearchLimits *limits, SearchSignals *sig,
                                          SearchOutput out, void *ctx)
{
    out("info string error out of memory: no search, the first legal move is played", ctx);
    while ((limits->infinite || limits->ponder) && !atomic_load(&sig->stop) &&
           !(limits->ponder && !limits->infinite && atomic_load(&sig->ponderhit))) {
        const struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
    SearchResult res = {.has_best = false};
    char line[MOVE_STR_MAX + 16], mv[MOVE_STR_MAX];
    if (first_legal_move(&g->pos, &res.best)) {
        res.has_best = true;
        snprintf(line, sizeof line, "bestmove %s", move_str(&g->pos, &res.best, mv));
    } else {
        snprintf(line, sizeof line, "bestmove (none)");
    }
    out(line, ctx);
    return res;
}

SearchResult search_run(const Game *g, const SearchLimits *limits, const SearchConfig *config, SearchSignals *sig,
                        SearchOutput out, void *ctx)
{
    SearchContext *c = calloc(1, sizeof *c);
    if (!c)
        return answer_without_memory(g, limits, sig, out, ctx);
    c->game = g;
    c->root_seat = g->pos.stm;
    c->lim = limits;
    c->cfg = config;
    c->algo = g->v.nseats == 2 ? ALGO_PARANOID : config->algo == ALGO_AUTO ? search_auto_algo(&g->v) : config->algo;
    c->duo_race = g->v.nseats == 2 && !g->v.capture;
    c->sig = sig;
    c->out = out;
    c->out_ctx = ctx;
    c->start_ms = now_ms();
    atomic_init(&c->clock_ms, limits->ponder ? -1 : c->start_ms);
    atomic_init(&c->abort_all, false);
    for (int i = 0; i <= g->nplies; i++) {
        const unsigned bit = (unsigned)(g->keys[i] >> (64 - HISTORY_FILTER_BITS));
        c->history_filter[bit / 64] |= 1ull << (bit % 64);
    }
    SearchResult res = {.has_best = false};
    RootMove *root = NULL;
    const int s = pos_over(&g->pos) ? g->v.seats[0] : g->pos.stm; /* over: any seat, nothing is searched */
    c->budget = time_budget(limits->time[s], limits->inc[s] > 0 ? limits->inc[s] : 0, limits->movestogo,
                            limits->movetime, pos_over(&g->pos) ? 1 : moves_left_estimate(&g->pos), config->overhead);
    movegen_set_abort(root_gen_abort, c);
    const int nroot = pos_over(&g->pos) ? 0 : root_moves(c, &root);
    movegen_set_abort(NULL, NULL);
    if (nroot < 0) {
        free(c);
        return answer_without_memory(g, limits, sig, out, ctx);
    }
    if (nroot && c->root_cut) {
        /* stopped, or out of time, while listing: no time to search */
        char mv[MOVE_STR_MAX];
        move_str(&g->pos, &root[0].move, mv);
        emit(c, "info string stopped while listing the moves: the most captures found is played");
        emit(c, "bestmove %s", mv);
        res = (SearchResult){.best = root[0].move, .has_best = true};
        free(root);
        free(c);
        return res;
    }
    if (nroot == 0) {
        /* nothing to search; an infinite or ponder search still waits for stop */
        while ((limits->infinite || limits->ponder) && !atomic_load(&sig->stop) && !atomic_load(&sig->ponderhit)) {
            const struct timespec t = {0, 1000000};
            nanosleep(&t, NULL);
        }
        out("bestmove (none)", ctx);
        free(root);
        free(c);
        return res;
    }
    Move race_pv[2 * RACE_MAX_MOVES + 2];
    int race_len, race_score, race_moves[2];
    uint64_t race_nodes;
    if (race_root(c, race_pv, &race_len, &race_score, &race_nodes, race_moves)) {
        char line[12288], *o = line, sc[64];
        const char *end = line + sizeof line - MOVE_STR_MAX - 2;
        format_score(c, race_score, sc, sizeof sc);
        const long long ms = (long long)(now_ms() - c->start_ms);
        o += snprintf(o, (size_t)(end - o), "info depth %d seldepth %d multipv 1 %s nodes %llu nps %llu hashfull %d time %lld pv",
                      race_len, race_len, sc, (unsigned long long)race_nodes,
                      (unsigned long long)(ms > 0 ? race_nodes * 1000 / (uint64_t)ms : race_nodes), tt_hashfull(), ms);
        Position q = g->pos;
        for (int i = 0; i < race_len && o < end; i++) {
            *o++ = ' ';
            move_str(&q, &race_pv[i], o);
            o += strlen(o);
            pos_play(&q, &race_pv[i]);
        }
        emit(c, "info string race solved: own moves to arrive %c %d, %c %d", variant_seat_letter(g->pos.stm),
             race_moves[0], variant_seat_letter(g->pos.stm == g->v.seats[0] ? g->v.seats[1] : g->v.seats[0]),
             race_moves[1]);
        emit(c, "%s", line);
        while ((limits->infinite || limits->ponder) && !atomic_load(&sig->stop) && !atomic_load(&sig->ponderhit)) {
            const struct timespec t = {0, 1000000};
            nanosleep(&t, NULL);
        }
        char mv[MOVE_STR_MAX], pm[MOVE_STR_MAX];
        move_str(&g->pos, &race_pv[0], mv);
        res = (SearchResult){.best = race_pv[0], .has_best = true, .score = race_score, .depth = race_len,
                             .nodes = race_nodes};
        if (race_len > 1) {
            Position after = g->pos;
            pos_play(&after, &race_pv[0]);
            move_str(&after, &race_pv[1], pm);
            res.ponder = race_pv[1];
            res.has_ponder = true;
            emit(c, "bestmove %s ponder %s", mv, pm);
        } else
            emit(c, "bestmove %s", mv);
        free(root);
        free(c);
        return res;
    }
    if (c->algo == ALGO_MCTS) {
        res = mcts_root(c, root, nroot);
        free(root);
        free(c);
        return res;
    }
    tt_new_search();
    int nthreads = config->threads < 1 ? 1 : config->threads > MAX_THREADS ? MAX_THREADS : config->threads;
    /* short of memory, fewer threads search (with an error line) */
    Worker **ws = NULL;
    for (; nthreads >= 1; nthreads /= 2) {
        c->workers = calloc((size_t)nthreads, sizeof *c->workers);
        ws = malloc(sizeof *ws * (size_t)nthreads);
        if (c->workers && ws)
            break;
        free(c->workers);
        free(ws);
        c->workers = NULL;
        ws = NULL;
    }
    int ready = 0;
    while (ws && ready < nthreads && worker_init(&c->workers[ready], c, ready, root, nroot))
        ready++;
    if (ws && ready < nthreads)
        worker_free(&c->workers[ready]); /* the one that failed */
    if (ready == 0) {
        free(c->workers);
        free(ws);
        free(root);
        free(c);
        return answer_without_memory(g, limits, sig, out, ctx);
    }
    if (ready < config->threads)
        emit(c, "info string error out of memory: searching with %d thread%s of %d", ready, ready > 1 ? "s" : "",
             config->threads);
    nthreads = ready;
    c->nworkers = nthreads;
    /* workers live in c->workers so node counts can be summed */
    for (int i = 0; i < nthreads; i++) {
        ws[i] = &c->workers[i];
        pthread_mutex_lock(&saved_lock);
        if (saved_history)
            memcpy(ws[i]->history, saved_history, sizeof ws[i]->history);
        pthread_mutex_unlock(&saved_lock);
    }
    for (int i = 1; i < nthreads; i++)
        if (pthread_create(&ws[i]->thread, NULL, worker_main, ws[i]))
            ws[i]->thread = 0;
    worker_main(ws[0]);
    wait_for_answer(c);
    atomic_store(&c->abort_all, true);
    for (int i = 1; i < nthreads; i++)
        if (ws[i]->thread)
            pthread_join(ws[i]->thread, NULL);
    Worker *w0 = ws[0];
    for (int i = 1; i < nthreads; i++) /* a helper that completed a deeper iteration answers */
        if (ws[i]->completed_depth > w0->completed_depth && c->cfg->multipv <= 1)
            w0 = ws[i];
    /* the answer is always the line last reported: a helper's deeper one, or a
     * new best that an unfinished re-search (after an aspiration fail) put first */
    if (w0 != ws[0] || (c->nsaid && c->cfg->multipv <= 1 && !move_same(&c->said[0], &w0->root[0].move)))
        report_line(c, w0, w0->completed_depth, 0, &w0->root[0]);
    const RootMove *best = &w0->root[0];
    res.best = best->move;
    res.has_best = true;
    res.score = best->prev_score;
    res.depth = w0->completed_depth;
    res.nodes = total_nodes(c);
    if (best->pvlen > 1) {
        res.ponder = best->pv[1];
        res.has_ponder = true;
    }
    if (c->nsaid && move_same(&c->said[0], &res.best)) { /* the answer is the line last reported */
        res.ponder = c->said[1];
        res.has_ponder = c->nsaid > 1;
    }
    pthread_mutex_lock(&saved_lock);
    if (!saved_history)
        saved_history = malloc(sizeof w0->history);
    if (saved_history)
        memcpy(saved_history, w0->history, sizeof w0->history);
    pthread_mutex_unlock(&saved_lock);
    char mv[MOVE_STR_MAX], pm[MOVE_STR_MAX];
    move_str(&g->pos, &res.best, mv);
    if (res.has_ponder) {
        /* a best-reply line answers with any opponent's move: ponder only on a
         * move of the seat that really moves next */
        Position after = g->pos;
        pos_play(&after, &res.best);
        res.has_ponder = !pos_over(&after) && legal_move(&after, &res.ponder);
        if (res.has_ponder)
            move_str(&after, &res.ponder, pm);
    }
    if (res.has_ponder)
        emit(c, "bestmove %s ponder %s", mv, pm);
    else
        emit(c, "bestmove %s", mv);
    for (int i = 0; i < nthreads; i++)
        worker_free(ws[i]);
    free(ws);
    free(c->workers);
    free(root);
    free(c);
    return res;
}
