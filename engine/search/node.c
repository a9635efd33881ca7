/* node.c - what every tree search does at a node; see node.h. */
#include "node.h"

#include "brs.h"
#include "eval.h"
#include "places.h"
#include "tt.h"
#include "zobrist.h"

#include <stdlib.h>

#define CHECK_EVERY 1023 /* nodes between clock checks (mask) */

#ifndef LEAF_STEP_PCT
#define LEAF_STEP_PCT 44 /* percent of the mover's best progress added at two-seat race leaves */
#endif

/* The transposition table's key of p: its Zobrist key, which leaves out what
 * repetition leaves out (RULES.md section 6), and in capture mode every
 * seat's captures, on which the value depends. */
uint64_t node_tt_key(const Position *p)
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

int node_score_to_tt(int v, int ply)
{
    return v > SCORE_MATE_BOUND ? v + ply : v < -SCORE_MATE_BOUND ? v - ply : v;
}

int node_score_from_tt(int v, int ply)
{
    return v > SCORE_MATE_BOUND ? v - ply : v < -SCORE_MATE_BOUND ? v + ply : v;
}

/* Value for seat `seat` of a position where its place is known (game over, or
 * its team placed), `ply` plies below the root. Three or more seats: places.h. */
static int place_value_for(const SearchContext *c, const Position *p, int ply, int seat, EvalMemo *memo)
{
    const Variant *v = c->game->v;
    if (v->nseats > 2)
        return places_value_for(p, seat, ply, 0, memo);
    const int other = v->seats[v->seats[0] == seat];
    const int pl = p->place[seat];
    if (pl == 1 && p->place[other] == 1)
        return 0;
    return pl == 1 ? SCORE_MATE - ply : -(SCORE_MATE - ply);
}

int node_place_value(const Worker *w, const Position *p, int ply)
{
    return place_value_for(w->ctx, p, ply, w->ctx->root_seat, w->eval);
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
bool node_terminal_end(Worker *w, const Position *p, int ply, int *value, Position *end_out)
{
    const SearchContext *c = w->ctx;
    if (pos_over(p) || p->place[c->root_seat]) {
        *value = node_place_value(w, p, ply);
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
        on_line += w->ss[i].path_key == p->key;
    if (in_game_history(c, p->key)) {
        const Game *g = c->game;
        for (int i = 0; i <= g->nplies; i++)
            in_game += g->keys[i] == p->key;
    }
    const bool seen = c->game->v->nseats == 2 ? on_line > 0 || in_game >= 2 : on_line + in_game >= 2;
    if (!seen)
        return false;
    Position end = *p;
    pos_finish(&end, END_REPETITION);
    *value = node_place_value(w, &end, ply);
    if (end_out)
        *end_out = end;
    return true;
}

bool node_terminal(Worker *w, const Position *p, int ply, int *value)
{
    return node_terminal_end(w, p, ply, value, NULL);
}

/* Whether m is a legal move of p's side to move. */
bool node_legal_move(const Position *p, const Move *m, GenMemo *memo)
{
    MoveList list = {0};
    gen_moves(p, &list, memo);
    bool found = false;
    for (int i = 0; i < list.n && !found; i++)
        found = move_same(&list.m[i], m);
    move_list_free(&list);
    return found;
}

void node_make_child(Worker *w, const Position *p, int ply, int mover, const Move *m, Position *child)
{
    const SearchContext *c = w->ctx;
    *child = *p;
    if (child->stm != mover)
        pos_set_stm(child, mover);
    pos_play(child, m);
    if ((c->algo == ALGO_BRS || c->algo == ALGO_BRS_PLUS) && side_of(c, mover) < 0)
        brs_after_reply(w, ply, mover, child);
}

void node_check_limits(Worker *w)
{
    SearchContext *c = w->ctx;
    if (w->id == 0 && clock_past(&c->clock, c->clock.budget.hard_ms))
        atomic_store(&c->sig->stop, true);
}

/* Takes a share of the node limit for w, whose count is at `nodes`: half of
 * what is left divided among the threads, at most NODE_SHARE_MAX, at least
 * one node, so that the threads use the limit up at about the same time.
 * False when every node of the limit has been taken. */
static bool take_share(Worker *w)
{
    SearchContext *c = w->ctx;
    const uint64_t limit = c->node_limit;
    uint64_t taken = atomic_load_explicit(&c->nodes_shared, memory_order_relaxed);
    for (;;) {
        if (taken >= limit)
            return false;
        uint64_t share = (limit - taken) / (2 * (uint64_t)c->nworkers);
        share = share < 1 ? 1 : share > NODE_SHARE_MAX ? NODE_SHARE_MAX : share;
        if (atomic_compare_exchange_weak_explicit(&c->nodes_shared, &taken, taken + share, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            w->node_share += share;
            return true;
        }
    }
}

/* The node count after `nodes` at which w next looks at its limits: the next
 * multiple of CHECK_EVERY + 1, or the end of its share of the node limit when
 * that comes first. */
static uint64_t next_check(const Worker *w, uint64_t nodes)
{
    const uint64_t every = (nodes | CHECK_EVERY) + 1, share_end = w->node_share + 1;
    return w->ctx->node_limit && share_end > nodes && share_end < every ? share_end : every;
}

void node_limits_start(Worker *w)
{
    w->node_share = 0;
    w->check_at = next_check(w, 0);
}

bool node_count(Worker *w)
{
    /* only w's own thread adds to its count, so it may look before it adds:
     * a node the limit has no room for is never counted, not even for the
     * moment others sum the counts */
    const uint64_t nodes = atomic_load_explicit(&w->nodes, memory_order_relaxed) + 1;
    if (nodes >= w->check_at) {
        if (w->ctx->node_limit && nodes > w->node_share && !take_share(w)) {
            /* the limit is used up: this node is not searched, and every
             * thread stops (the answer still waits where it must) */
            atomic_store_explicit(&w->ctx->abort_all, true, memory_order_relaxed);
            return false;
        }
        if (!(nodes & CHECK_EVERY))
            node_check_limits(w);
        w->check_at = next_check(w, nodes);
    }
    atomic_store_explicit(&w->nodes, nodes, memory_order_relaxed);
    return !stopped(w);
}

/* Bookkeeping on entering a node at `ply`: PV length, selective depth, node count
 * and, now and then, the clock. Returns false when the search must stop. */
bool node_enter(Worker *w, int ply)
{
    w->ss[ply].pvlen = ply;
    if (ply > w->seldepth)
        w->seldepth = ply;
    return node_count(w);
}

/* In capture mode every move is a capture, so a leaf also counts the best
 * capture of its side to move: the reply the horizon would otherwise hide (cp). */
int node_capture_bonus(const Position *p, GenMemo *memo)
{
    if (!p->v->capture)
        return 0;
    const int best = gen_best_capture(p, memo);
    return best > 0 ? best * W_CAPTURE : 0;
}

/* Static value of leaf p (at `ply`) for its side to move (`side`, +1 or -1 as
 * side_of gives it), searched with upper bound `beta`. */
int node_leaf_value(Worker *w, const Position *p, int ply, int side, int beta)
{
    const SearchContext *c = w->ctx;
    /* Not with a net: its standings stand alone; the bonus's jump floods cost a
     * net's node more than they gained (docs/NNUE.md, three and four seats). */
    if (c->three_race && !pos_over(p) && !eval_memo_learned(w->eval, p->v)) {
        /* every seat in play, not the side to move alone: a best-reply line
         * leaves some opponents unmoved, and their next moves count too */
        int bonus[MAX_SEATS] = {0};
        for (int i = 0; i < p->v->nseats; i++) {
            const int s = p->v->seats[i];
            if (p->status[s] == ST_PLAYING)
                bonus[s] = gen_seat_best_progress(p, s, p->v->tip_dist[s], w->gen) * W_DISTANCE *
                           (s == p->stm ? LEAF_STEP_PCT_THREE : LEAF_NEXT_PCT_THREE) / 100;
        }
        return side * places_value_bonuses(p, c->root_seat, ply, bonus, w->eval);
    }
    if (p->v->nseats > 2) {
        /* The capture bonus (the side to move's best chain) only raises the
         * value for the side to move: at or above beta without it, the leaf
         * already fails high and the chains need not be walked. */
        const int v = side * places_value_for(p, c->root_seat, ply, 0, w->eval);
        if (v >= beta || !p->v->capture)
            return v;
        return side * places_value_for(p, c->root_seat, ply, node_capture_bonus(p, w->gen), w->eval);
    }
    int v = side * eval_for_ply(p, c->root_seat, ply, w->eval);
    /* The side to move's best progress this move, in part: what a quiescence
     * search over jumps would find first. It only raises the value, so at or above
     * beta the static value already fails high and the marbles' floods are saved. */
    /* Not with a net: it learnt from searched scores, which hold the move to come. */
    if (LEAF_STEP_PCT && c->duo_race && v < beta && !eval_memo_learned(w->eval, p->v))
        v += gen_best_progress(p, p->v->tip_dist[p->stm], &w->ss[ply].list, w->gen) * W_DISTANCE * LEAF_STEP_PCT / 100;
    return v >= beta ? v : v + node_capture_bonus(p, w->gen);
}
