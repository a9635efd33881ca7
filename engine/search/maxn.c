/* maxn.c - max-n search; see maxn.h. */
#include "maxn.h"

#include "brs.h"
#include "movepick.h"
#include "node.h"
#include "places.h"
#include "tt.h"

#include <string.h>

/* Max-n: fills out[seat] with the value of p for every seat in play, each seat
 * to move choosing the child best for itself. No pruning; the table only orders
 * moves. */
void maxn(Worker *w, const Position *p, int depth, int ply, int out[MAX_SEATS])
{
    memset(out, 0, sizeof(int) * MAX_SEATS);
    if (!node_enter(w, ply))
        return;
    if (depth <= 0 || ply >= MAX_PLY) {
        places_values(p, ply, node_capture_bonus(p, w->gen), out, w->eval);
        return;
    }
    w->ss[ply].path_key = p->key;
    TTData tte;
    const uint32_t tt_move = tt_probe(w->ctx->tt, node_tt_key(p), &tte) ? tte.move : 0;
    movepick_node_moves(w, p, ply, tt_move);
    MoveList *list = &w->ss[ply].list;
    /* reply pruning, as at best-reply min nodes: another seat plays one of its
     * moves of the most progress (captures) */
    if (side_of(w->ctx, p->stm) < 0 && !w->ctx->cfg->full_width)
        brs_keep_top_replies(p, list, brs_reply_top(p->v));
    const int me = p->stm;
    int best = -SCORE_INF;
    Move best_move = {0};
    for (int i = 0; i < list->n; i++) {
        pick(list, i);
        const Move *m = &list->m[i];
        Position child, end;
        node_make_child(w, p, ply, me, m, &child);
        int vals[MAX_SEATS], root_value;
        if (node_terminal_end(w, &child, ply + 1, &root_value, &end)) {
            w->ss[ply + 1].pvlen = ply + 1;
            places_values(&end, ply + 1, 0, vals, w->eval);
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
            w->ss[ply].pv[ply] = *m;
            for (int j = ply + 1; j < w->ss[ply + 1].pvlen; j++)
                w->ss[ply].pv[j] = w->ss[ply + 1].pv[j];
            w->ss[ply].pvlen = w->ss[ply + 1].pvlen > ply + 1 ? w->ss[ply + 1].pvlen : ply + 1;
        }
    }
    if (!list->n) {
        places_values(p, ply, 0, out, w->eval);
        return;
    }
    const TTData d = {movepick_move_code(&best_move), (int16_t)node_score_to_tt(best, ply), (int8_t)depth, BOUND_NONE};
    tt_store(w->ctx->tt, node_tt_key(p), &d);
}
