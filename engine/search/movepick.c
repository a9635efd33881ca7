/* movepick.c - move ordering and staged generation; see movepick.h. */
#include "movepick.h"

#include "brs.h"
#include "node.h"
#include "opps.h"

#include <stdlib.h>
#include <string.h>

#define HISTORY_MAX 8192 /* history scores stay within +-HISTORY_MAX */

uint32_t movepick_move_code(const Move *m)
{
    const uint64_t h = (uint64_t)m->captured * 0x9E3779B97F4A7C15ull ^ (uint64_t)(m->captured >> 64);
    return move_code_holes(m->from, m->to, m->swap) + ((uint32_t)(h >> 53) << 21); /* no carry: holes < 121 */
}

/* Ordering score of move m of seat `mover` in p (higher first). */
static int order_score(const Worker *w, const Position *p, int mover, const Move *m, uint32_t tt_move, int ply)
{
    if (tt_move && movepick_move_code(m) == tt_move)
        return ORDER_TT;
    if (move_same(m, &w->ss[ply].killers[0]))
        return ORDER_KILLER;
    if (move_same(m, &w->ss[ply].killers[1]))
        return ORDER_KILLER - 1;
    if (p->v->capture)
        return m->ncapt * ORDER_PROGRESS + w->history[m->from][m->to];
    return move_progress(p, mover, m) * ORDER_PROGRESS + w->history[m->from][m->to];
}

/* order_score of every move in w->ss[ply].list, a race position's own moves (its
 * side to move's): the same scores, with what they read looked up once. A race
 * move captures nothing, so its move code and its likeness to a killer come from
 * its holes alone. */
static void race_order(Worker *w, const Position *p, int ply, uint32_t tt_move)
{
    const MoveList *list = &w->ss[ply].list;
    int *order = list->score;
    const uint8_t *tip = p->v->tip_dist[p->stm];
    const Move k0 = w->ss[ply].killers[0], k1 = w->ss[ply].killers[1];
    for (int i = 0; i < list->n; i++) {
        const Move *m = &list->m[i];
        int o = (tip[m->from] - tip[m->to]) * ORDER_PROGRESS + w->history[m->from][m->to];
        if (m->from == k1.from && m->to == k1.to && m->swap == k1.swap)
            o = ORDER_KILLER - 1;
        if (m->from == k0.from && m->to == k0.to && m->swap == k0.swap)
            o = ORDER_KILLER;
        if (tt_move && move_code_holes(m->from, m->to, m->swap) == tt_move)
            o = ORDER_TT;
        order[i] = o;
    }
}

/* Generates the moves of node p at `ply` into w->ss[ply].list with their movers and
 * ordering scores: the side to move's moves (at an OPPS opponent node those its
 * place in the phase allows), or at a best-reply min node those of every
 * opponent still playing (each as if it were its turn). */
void movepick_node_moves(Worker *w, const Position *p, int ply, uint32_t tt_move)
{
    MoveList *list = &w->ss[ply].list;
    if (!brs_min_node(w->ctx, p)) {
        gen_moves_no_return(p, list, w->gen);
        if (list->n)
            memset(list->seat, p->stm, (size_t)list->n);
        if (opps_node(w->ctx, p))
            opps_keep(w, p, ply);
        if (!p->v->capture) {
            race_order(w, p, ply, tt_move);
            return;
        }
    } else {
        brs_min_moves(w, p, ply);
    }
    for (int i = 0; i < list->n; i++)
        list->score[i] = order_score(w, p, list->seat[i], &list->m[i], tt_move, ply);
}

/* Whether race move m (a killer) is a legal move of p's side to move that its
 * list would hold: not a homecoming (gen_moves_no_return). 1: yes; 0: not legal,
 * so not in the list; -1: a legal homecoming, in the list when nothing else is. */
static int stageable(const Position *p, const Move *m, GenMemo *memo)
{
    if (m->swap != NO_HOLE || m->captured || !gen_race_move_exists(p, m->from, m->to, memo))
        return 0;
    const Bitboard home = p->v->home[p->stm];
    return !bb_test(home, m->from) && bb_test(home, m->to) ? -1 : 1;
}

/* Staged move generation: the moves node p at `ply` may search before
 * generating the others, put in w->ss[ply].list (with their movers and orders) in
 * the order they would be picked from the whole list: the table's move
 * `tt_move` (a move code, 0 for none), then the killers. At a cut node one of
 * them usually refutes alone, and the list is never needed. Returns how many
 * (0: generate at once). Race games without Masters swaps, not at a best-reply
 * min node. A table entry can come from another position with the same key
 * slot, and a killer from another node at this ply: each must be legal. A
 * killer follows only moves that certainly come first in the whole list. */
int movepick_staged_moves(Worker *w, const Position *p, int ply, uint32_t tt_move)
{
    const Variant *v = p->v;
    if (v->capture || v->masters || brs_min_node(w->ctx, p) || opps_node(w->ctx, p))
        return 0; /* (an OPPS opponent node: the table's move or a killer may be pruned) */
    MoveList *list = &w->ss[ply].list;
    list->n = 0;
    if (!move_list_reserve(list, 3))
        return 0;
    if (tt_move) {
        const Move m = move_decode(tt_move);
        if (movepick_move_code(&m) != tt_move || stageable(p, &m, w->gen) != 1)
            return 0; /* perhaps a homecoming that the list holds first */
        list->m[0] = m;
        list->score[0] = ORDER_TT;
        list->n = 1;
    }
    for (int k = 0; k < 2; k++) {
        const Move *m = &w->ss[ply].killers[k];
        bool again = tt_move && movepick_move_code(m) == tt_move;
        for (int j = 0; j < list->n; j++)
            again |= move_same(m, &list->m[j]);
        if (again)
            continue; /* the same move scores as the earlier one */
        const int ok = stageable(p, m, w->gen);
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

void movepick_update_history(Worker *w, const Move *m, int bonus)
{
    int *h = &w->history[m->from][m->to];
    *h += bonus - *h * abs(bonus) / HISTORY_MAX;
}

bool movepick_history_load(const HistoryStore *store, int history[NUM_HOLES][NUM_HOLES])
{
    if (store->saved)
        memcpy(history, store->score, sizeof store->score);
    return store->saved;
}

void movepick_history_save(HistoryStore *store, const int history[NUM_HOLES][NUM_HOLES])
{
    memcpy(store->score, history, sizeof store->score);
    store->saved = true;
}

void movepick_history_forget(HistoryStore *store) { store->saved = false; }
