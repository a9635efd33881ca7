/* alphabeta.c - principal variation search and paranoid alpha-beta; see
 * alphabeta.h. Scores inside the tree are from the view of the side to move,
 * where "side" means the root seat's team versus everyone else (paranoid
 * reduction, which is plain negamax with two seats). */
#include "alphabeta.h"

#include "eval.h"
#include "movepick.h"
#include "opps.h"
#include "places.h"
#include "node.h"
#include "tt.h"

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
#ifndef LMP_DEPTH
#define LMP_DEPTH 3              /* late-move pruning: plies to go up to which it applies */
#endif
#ifndef LMP_BASE
#define LMP_BASE 6               /* moves searched before backward moves are dropped, */
#endif                           /* plus 2 x depth^2 */
#ifndef MULTI_RFP_DEPTH
#define MULTI_RFP_DEPTH 3        /* reverse futility in a race of three or more seats */
#endif                           /* (0: off) */
#ifndef MULTI_RFP_MAX_UNITS
#define MULTI_RFP_MAX_UNITS 4    /* ... of at most this many seats, without teams: a gain */
#endif                           /* measured with three and four, none with six (MULTI.md) */
#ifndef MULTI_RFP_MARGIN
#define MULTI_RFP_MARGIN 57      /* cp per ply to go given up by the side to move (stern-spsa) */
#endif
#ifndef MULTI_RFP_MARGIN_FOUR
#define MULTI_RFP_MARGIN_FOUR 75 /* ... with four seats (stern-spsa over classic-4 games) */
#endif
#define NMP_R 2                  /* null-move reduction: NMP_R + depth / NMP_R_DEPTH plies */
#define NMP_R_DEPTH 4

/* Late-move reductions (every search but full width): a move that is not the
 * table's or a killer, from the LMR_MIN_MOVE-th on at LMR_MIN_DEPTH plies to go,
 * is searched one ply shallower; one more from the LMR_DEEP_MOVE-th at
 * LMR_DEEP_DEPTH, and one more for a move ordered below 0 (backward, or a bad
 * history); never below one ply. */
#define LMR_MIN_DEPTH 3
#define LMR_MIN_MOVE 3
#define LMR_DEEP_DEPTH 6
#define LMR_DEEP_MOVE 10

static int search(Worker *w, const Position *p, int depth, int alpha, int beta, int ply);

int alphabeta_multi_rfp_margin(const Variant *v)
{
    if (MULTI_RFP_DEPTH <= 0 || v->nseats <= 2 || v->capture || v->teams || v->nunits > MULTI_RFP_MAX_UNITS)
        return 0;
    return v->nseats == 4 ? MULTI_RFP_MARGIN_FOUR : MULTI_RFP_MARGIN;
}

/* Searches child c of a node whose side is `side`, returning its value for that
 * side; (alpha, beta) is the node's window. */
int alphabeta_child_value(Worker *w, const Position *c, int depth, int alpha, int beta, int ply, int side)
{
    int v;
    if (node_terminal(w, c, ply, &v))
        return side * v;
    if (side_of(w->ctx, c->stm) == side)
        return search(w, c, depth, alpha, beta, ply);
    return -search(w, c, depth, -beta, -alpha, ply);
}

/* Whether move m of p's side to move goes backward (late-move pruning drops
 * such moves, once enough moves were searched). */
static bool backward(const Position *p, const Move *m) { return move_progress(p, p->stm, m) < 0; }

/* Whether every move of list->m[from, n), the moves not picked yet, would be
 * dropped too: none the table's or a killer, all backward. */
static bool rest_backward(const Position *p, const MoveList *list, int from)
{
    for (int j = from; j < list->n; j++)
        if (list->score[j] >= ORDER_KILLER - 1 || !backward(p, &list->m[j]))
            return false;
    return true;
}

/* The table's answer at a node: its move in *tt_move (0: none), and true with
 * the stored score in *value when its depth and bound settle the node (never
 * at a PV node). */
static inline bool tt_settles(const SearchContext *c, uint64_t key, int depth, int alpha, int beta, int ply,
                              bool pv_node, uint32_t *tt_move, int *value)
{
    TTData tte;
    if (!tt_probe(c->tt, key, &tte))
        return false;
    *tt_move = tte.move;
    const int ts = node_score_from_tt(tte.score, ply);
    if (pv_node || tte.depth < depth)
        return false;
    if (tte.bound == BOUND_EXACT || (tte.bound == BOUND_LOWER && ts >= beta) ||
        (tte.bound == BOUND_UPPER && ts <= alpha)) {
        *value = ts;
        return true;
    }
    return false;
}

/* Null move (Beal 1989; R after Heinz 1999): passing is never better than the
 * best move while marbles are still to bring home, so if the opponent cannot
 * reach beta after a pass at reduced depth, the node fails high. True with
 * the node's value in *value when it does (or the search stopped: 0). */
static inline bool null_move_fails_high(Worker *w, const Position *p, int depth, int beta, int ply, int static_eval,
                                        int *value)
{
    const int other = p->v->seats[1 - p->v->slot[p->stm]];
    if (depth < NMP_MIN_DEPTH || static_eval < beta || w->ss[ply].after_null || p->status[other] != ST_PLAYING ||
        bb_count(p->seat_bb[p->stm] & ~p->v->target[p->stm]) < NMP_MIN_OUTSIDE)
        return false;
    const int r = NMP_R + depth / NMP_R_DEPTH;
    Position child = *p;
    pos_set_stm(&child, other);
    w->ss[ply + 1].after_null = true;
    const int v = -search(w, &child, depth - 1 - r, -beta, -beta + 1, ply + 1);
    w->ss[ply + 1].after_null = false;
    if (stopped(w)) {
        *value = 0;
        return true;
    }
    if (v < beta)
        return false;
    *value = v >= SCORE_MATE_BOUND ? beta : v;
    return true;
}

/* The cuts tried before any move is searched, at a node off the PV whose
 * window is no forced result (`open_window`): in a race of three or more
 * seats reverse futility on the places' standing (docs/MULTI.md); in a
 * two-seat race (`selective`) reverse futility and the null move. True with the
 * node's value in *value when one cuts. */
static inline bool pruned_before_moves(Worker *w, const Position *p, int depth, int beta, int ply, int side,
                                       bool open_window, bool selective, int *value)
{
    const SearchContext *c = w->ctx;
    /* the margin comes off the standing: places' units are not cp */
    if (open_window && !c->duo_race && !p->v->capture && c->multi_rfp_margin > 0 && depth <= MULTI_RFP_DEPTH) {
        const int v = side * places_value_for(p, c->root_seat, ply, -c->multi_rfp_margin * depth, w->eval);
        if (v >= beta && v < SCORE_MATE_BOUND) {
            *value = v;
            return true;
        }
    }
    if (!selective)
        return false;
    const int static_eval = side * eval_for_ply(p, c->root_seat, ply, w->eval);
    /* Reverse futility: this far above beta, a few plies do not bring it back. */
    if (depth <= RFP_DEPTH && static_eval - RFP_MARGIN * depth >= beta) {
        *value = static_eval;
        return true;
    }
    return null_move_fails_high(w, p, depth, beta, ply, static_eval, value);
}

/* Late-move pruning of the i-th move picked, m, in a two-seat race: past the
 * first moves, backward moves are dropped. When it drops one, the moves not
 * picked yet are checked once (*rest_checked): they come later in the order
 * and mostly fall the same way, so when all do they are passed over at once
 * instead of picked one by one, with the same result. */
static inline bool late_move_pruned(MovePicker *mp, const Position *p, const MoveList *list, int i, const Move *m,
                                    int depth, int best, int searched, bool late, bool *rest_checked)
{
    if (i == 0 || list->score[i] >= ORDER_KILLER - 1 || best <= -SCORE_MATE_BOUND || depth > LMP_DEPTH ||
        searched < LMP_BASE + 2 * depth * depth || !backward(p, m))
        return false;
    if (!late && !*rest_checked) {
        *rest_checked = true;
        if (rest_backward(p, list, i + 1))
            picker_skip_rest(mp); /* on to the deferred moves, if any */
    }
    return true;
}

/* Makes the child of move i of the list, its table bucket fetched while it is
 * made: from the key it most likely has (no swap or captures, the next seat in
 * turn to move, no status changed), and again once made if that guess was
 * wrong (a leaf probes no table: nothing fetched). Under OPPS it sets the
 * child's count of regular moves (opps.h), which salts its key. Returns its
 * table key. */
static inline uint64_t make_child_prefetched(Worker *w, const Position *p, int ply, const MoveList *list, int i,
                                             int depth, Position *child)
{
    const SearchContext *c = w->ctx;
    const Move *m = &list->m[i];
    uint64_t guess = 0;
    const bool opps = c->algo == ALGO_OPPS; /* its keys are salted by the child's count: no guess */
    if (depth > 1 && m->swap == NO_HOLE && !m->ncapt && !opps) {
        guess = pos_key_after_plain(p, list->seat[i], m);
        tt_prefetch(c->tt, guess);
    }
    node_make_child(w, p, ply, list->seat[i], m, child);
    uint64_t child_key = node_tt_key(child);
    if (opps) {
        w->ss[ply + 1].opps_regular = opps_child_regular(w, p, ply, m, child->stm);
        child_key ^= opps_key_salt(c, w->ss[ply + 1].opps_regular);
    }
    if (depth > 1 && child_key != guess)
        tt_prefetch(c->tt, child_key);
    return child_key;
}

/* The value of the i-th move's child for the node's side: the first move with
 * the whole window, the others with a null window first (PVS), reduced when
 * late (LMR) and searched again at full depth, then with the whole window,
 * when they beat alpha. */
static inline int child_value_pvs(Worker *w, const Position *child, const MoveList *list, int i, int depth, int alpha,
                                  int beta, int ply, int side)
{
    if (i == 0)
        return alphabeta_child_value(w, child, depth - 1, alpha, beta, ply + 1, side);
    int r = 0;
    if (depth >= LMR_MIN_DEPTH && i >= LMR_MIN_MOVE && list->score[i] < ORDER_KILLER - 1 &&
        !w->ctx->cfg->full_width) {
        r = 1 + (i >= LMR_DEEP_MOVE && depth >= LMR_DEEP_DEPTH) + (list->score[i] < 0);
        if (r > depth - 2)
            r = depth - 2;
    }
    int v = alphabeta_child_value(w, child, depth - 1 - r, alpha, alpha + 1, ply + 1, side);
    if (v > alpha && r)
        v = alphabeta_child_value(w, child, depth - 1, alpha, alpha + 1, ply + 1, side);
    if (v > alpha && v < beta)
        v = alphabeta_child_value(w, child, depth - 1, alpha, beta, ply + 1, side);
    return v;
}

/* The line of ply becomes m and the child's line after it. */
static inline void pv_update(Worker *w, int ply, const Move *m)
{
    Stack *ss = &w->ss[ply], *next = &w->ss[ply + 1];
    ss->pv[ply] = *m;
    for (int j = ply + 1; j < next->pvlen; j++)
        ss->pv[j] = next->pv[j];
    ss->pvlen = next->pvlen > ply + 1 ? next->pvlen : ply + 1;
}

/* What a cut-off by the i-th move, m, teaches the ordering: m a killer (unless
 * it was ordered as one or above), its history raised and that of the moves
 * searched before it lowered, by depth^2. */
static inline void cutoff_learn(Worker *w, int ply, const MoveList *list, int i, const Move *m, int depth)
{
    if (list->score[i] < ORDER_KILLER - 1) {
        w->ss[ply].killers[1] = w->ss[ply].killers[0];
        w->ss[ply].killers[0] = *m;
    }
    movepick_update_history(w, m, depth * depth);
    for (int j = 0; j < i; j++)
        movepick_update_history(w, &list->m[j], -depth * depth);
}

static int search(Worker *w, const Position *p, int depth, int alpha, int beta, int ply)
{
    SearchContext *c = w->ctx;
    const int side = side_of(c, p->stm);
    const bool pv_node = beta - alpha > 1;
    if (!node_enter(w, ply))
        return 0;
    if (depth <= 0 || ply >= MAX_PLY)
        return node_leaf_value(w, p, ply, side, beta);
    w->ss[ply].path_key = p->key;

    uint32_t tt_move = 0;
    int value;
    const uint64_t key = node_tt_key(p) ^ opps_key(c, w->ss[ply].opps_regular);
    if (tt_settles(c, key, depth, alpha, beta, ply, pv_node, &tt_move, &value))
        return value;
    /* Selective search: a two-seat race game at a node off the PV whose window is
     * not a forced result. */
    const bool open_window =
        !pv_node && !c->cfg->full_width && beta < SCORE_MATE_BOUND && beta > -SCORE_MATE_BOUND;
    const bool selective = open_window && c->duo_race;
    if (pruned_before_moves(w, p, depth, beta, ply, side, open_window, selective, &value))
        return value;

    MovePicker mp;
    picker_init(&mp, w, p, ply, tt_move);
    const MoveList *list = mp.list;
    const int alpha0 = alpha;
    int best = -SCORE_INF;
    int searched = 0; /* moves searched so far (not pruned, not deferred) */
    Move best_move = {0};
    /* Lazy SMP: moves another thread is searching right now are put off to the
     * end of the list (ABDADA's deferral, Weill 1996), so that the threads split
     * the work instead of repeating it; with one thread nothing changes. */
    const bool defer = c->nworkers > 1 && depth >= DEFER_MIN_DEPTH;
    bool rest_checked = false; /* rest_backward tried at this node */
    bool late;
    for (int i; (i = picker_next(&mp, &late)) >= 0;) {
        const Move *m = &list->m[i];
        if (selective && late_move_pruned(&mp, p, list, i, m, depth, best, searched, late, &rest_checked))
            continue;
        Position child;
        const uint64_t child_key = make_child_prefetched(w, p, ply, list, i, depth, &child);
        _Atomic uint64_t *slot = NULL;
        if (defer) {
            slot = busy_slot(c->busy, child_key);
            if (!late && i > 0 && atomic_load_explicit(slot, memory_order_relaxed) == child_key &&
                picker_defer(&mp, i))
                continue;
            atomic_store_explicit(slot, child_key, memory_order_relaxed);
        }
        searched++;
        const int v = child_value_pvs(w, &child, list, i, depth, alpha, beta, ply, side);
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
                pv_update(w, ply, m);
            }
        }
        if (alpha >= beta) {
            cutoff_learn(w, ply, list, i, m, depth);
            break;
        }
    }
    if (list->n == 0) /* cannot happen: the side to move always has a move */
        return node_leaf_value(w, p, ply, side, beta);
    const TTData d = {movepick_move_code(&best_move), (int16_t)node_score_to_tt(best, ply), (int8_t)depth,
                      (uint8_t)(best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER)};
    tt_store(c->tt, key, &d);
    return best;
}
