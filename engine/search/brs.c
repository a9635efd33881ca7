/* brs.c - best-reply search and BRS+ at the opponents' nodes; see brs.h. */
#include "brs.h"

#include "board.h"
#include "node.h"

#include <string.h>

/* Whether p is a best-reply-search min node: all opponents' moves together. */
bool brs_min_node(const SearchContext *c, const Position *p)
{
    return (c->algo == ALGO_BRS || c->algo == ALGO_BRS_PLUS) && side_of(c, p->stm) < 0;
}

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
/* With three or four seats (race, no teams) a best-reply min node has fewer
 * opponents to join, and keeping more of each one's replies (the blocking
 * ones among them) measured stronger against searching opponents; max-n keeps
 * BRS_REPLY_TOP. Measurements: docs/MULTI.md. */
#ifndef BRS_REPLY_TOP_FEW
#define BRS_REPLY_TOP_FEW 8
#endif
#define BRS_FEW_SEATS 4
/* With five or six race seats (no teams) a min node also keeps up to this many
 * further replies of each opponent that start or end within two steps of a
 * root marble outside its target: the ones that block or unblock it, which
 * the replies of the most progress rarely are when five opponents race each
 * for itself. 0: none. Measured in classic-6 (docs/MULTI.md). */
#ifndef BRS_CONTACT_REPLIES
#define BRS_CONTACT_REPLIES 4
#endif
#ifndef BRS_CONTACT_SEATS
#define BRS_CONTACT_SEATS 5 /* the fewest seats that keep them */
#endif

int brs_reply_top(const Variant *v) { return v->capture ? BRS_REPLY_TOP_CAPTURE : BRS_REPLY_TOP; }

/* brs_reply_top at best-reply min nodes. */
static int min_node_reply_top(const Variant *v)
{
    return !v->capture && !v->teams && v->nseats <= BRS_FEW_SEATS ? BRS_REPLY_TOP_FEW : brs_reply_top(v);
}

/* The progress of move m of q's side to move (`tip`: its Variant.tip_dist),
 * or in capture mode its captures. */
static int reply_gain(const Position *q, const uint8_t *tip, const Move *m)
{
    return q->v->capture ? m->ncapt : tip[m->from] - tip[m->to];
}

/* Gains lie in -16..16 (race) or 1..60 (captures); plus OFFSET they index
 * a histogram, which finds the k-th largest in one pass over the moves. */
enum { OFFSET = 64, SPAN = 128 };

/* From count[g], the number of moves of gain g (plus OFFSET), hi the largest
 * such g with a move and k at most their total: the k-th largest gain into
 * *threshold, and how many moves of exactly that gain are kept (the earlier
 * ones) into *equal_left. */
static void histogram_cut(const int *count, int hi, int k, int *threshold, int *equal_left)
{
    int t = hi, above = 0;
    while (above + count[t] < k)
        above += count[t--];
    *threshold = t;
    *equal_left = k - above;
}

/* Whether a move of gain g (plus OFFSET) is among the top ones histogram_cut
 * found, taking the moves of the threshold gain in list order. */
static inline bool within_top(int g, int threshold, int *equal_left)
{
    return g > threshold || (g == threshold && (*equal_left)-- > 0);
}

/* Keeps the moves of `list` marked in keep[], in list order. */
static void compact(MoveList *list, const bool *keep)
{
    int n = 0;
    for (int i = 0; i < list->n; i++)
        if (keep[i]) {
            list->m[n] = list->m[i];
            list->score[n] = list->score[i];
            list->seat[n++] = list->seat[i];
        }
    list->n = n;
}

/* keep_top_replies for a list of any length (capture lists can be huge):
 * two passes over the moves, in place. */
static void keep_top_in_place(const Position *q, MoveList *list, int k)
{
    const uint8_t *tip = q->v->tip_dist[q->stm];
    int count[SPAN] = {0}, hi = 0;
    for (int i = 0; i < list->n; i++) {
        const int g = reply_gain(q, tip, &list->m[i]) + OFFSET;
        count[g]++;
        hi = g > hi ? g : hi;
    }
    int threshold, equal_left, n = 0;
    histogram_cut(count, hi, k, &threshold, &equal_left);
    for (int i = 0; i < list->n; i++) {
        const int g = reply_gain(q, tip, &list->m[i]) + OFFSET;
        if (within_top(g, threshold, &equal_left)) {
            list->m[n] = list->m[i];
            list->score[n] = list->score[i];
            list->seat[n++] = list->seat[i];
        }
    }
    list->n = n;
}

/* Lists up to this long (every race list) are cut with each move's gain
 * computed once, and its contact tested once. */
enum { MOST = 1024 };

/* brs_keep_top_and_contact_replies for list->n in (k, MOST]; j = 0 adds none. */
static void keep_top_and_contact(const Position *q, MoveList *list, int k, int j, Bitboard zone)
{
    const uint8_t *tip = q->v->tip_dist[q->stm];
    uint8_t gain[MOST];
    int count[SPAN] = {0}, hi = 0;
    for (int i = 0; i < list->n; i++) {
        const int g = reply_gain(q, tip, &list->m[i]) + OFFSET;
        gain[i] = (uint8_t)g;
        count[g]++;
        hi = g > hi ? g : hi;
    }
    int threshold, equal_left;
    histogram_cut(count, hi, k, &threshold, &equal_left);
    /* the top k; then, among the rest that start or end in the zone, the j of
     * the most progress */
    bool keep[MOST], contact[MOST];
    int ccount[SPAN] = {0}, chi = 0, ncontact = 0;
    for (int i = 0; i < list->n; i++) {
        keep[i] = within_top(gain[i], threshold, &equal_left);
        contact[i] = j > 0 && !keep[i] && (bb_test(zone, list->m[i].from) || bb_test(zone, list->m[i].to));
        if (contact[i]) {
            ccount[gain[i]]++;
            chi = gain[i] > chi ? gain[i] : chi;
            ncontact++;
        }
    }
    if (ncontact > 0) {
        histogram_cut(ccount, chi, j < ncontact ? j : ncontact, &threshold, &equal_left);
        for (int i = 0; i < list->n; i++)
            if (contact[i])
                keep[i] = within_top(gain[i], threshold, &equal_left);
    }
    compact(list, keep);
}

void brs_keep_top_replies(const Position *q, MoveList *list, int k)
{
    if (k <= 0 || list->n <= k)
        return;
    if (list->n <= MOST)
        keep_top_and_contact(q, list, k, 0, 0);
    else
        keep_top_in_place(q, list, k);
}

void brs_keep_top_and_contact_replies(const Position *q, MoveList *list, int k, int j, Bitboard zone)
{
    if (j <= 0 || list->n > MOST)
        brs_keep_top_replies(q, list, k);
    else if (list->n > k)
        keep_top_and_contact(q, list, k, j, zone);
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
    const Move *f = &w->ss[ply].filler[s];
    if (w->ss[ply].has_filler[s] && !q->v->capture && !q->v->masters && gen_race_move_exists(&t, f->from, f->to, w->gen)) {
        *out = *f;
        return true;
    }
    gen_moves_no_return(&t, scratch, w->gen);
    return best_ordered(&t, scratch, out);
}

Bitboard brs_contact_zone(const Position *p, int s)
{
    Bitboard zone = 0;
    for (Bitboard b = p->seat_bb[s] & ~p->v->target[s]; b;)
        zone |= geo.within2[bb_pop(&b)];
    return zone;
}

void brs_min_moves(Worker *w, const Position *p, int ply)
{
    MoveList *list = &w->ss[ply].list;
    MoveList *tmp = &w->ss[ply + 1].list; /* free until the children are searched */
    list->n = 0;
    list->cut = false;
    const Variant *v = p->v;
    const bool contact = BRS_CONTACT_REPLIES > 0 && !v->capture && !v->teams && v->nseats >= BRS_CONTACT_SEATS;
    const Bitboard zone = contact ? brs_contact_zone(p, w->ctx->root_seat) : 0;
    for (int k = 0; k < v->nseats; k++) {
        const int o = v->seats[(v->slot[p->stm] + k) % v->nseats];
        if (side_of(w->ctx, o) > 0 || p->status[o] != ST_PLAYING)
            continue;
        Position q = *p;
        if (o != q.stm)
            pos_set_stm(&q, o);
        gen_moves_no_return(&q, tmp, w->gen);
        if (!w->ctx->cfg->full_width)
            brs_keep_top_and_contact_replies(&q, tmp, min_node_reply_top(v), contact ? BRS_CONTACT_REPLIES : 0, zone);
        list->cut |= tmp->cut;
        for (int i = 0; i < tmp->n && move_list_push(list, tmp->m[i]); i++)
            list->seat[list->n - 1] = (uint8_t)o;
        if (w->ctx->algo == ALGO_BRS_PLUS)
            w->ss[ply].has_filler[o] = best_ordered(&q, tmp, &w->ss[ply].filler[o]);
    }
}

void brs_after_reply(Worker *w, int ply, int mover, Position *child)
{
    const SearchContext *c = w->ctx;
    const Variant *v = child->v;
    if (c->algo == ALGO_BRS_PLUS)
        for (int k = 1; k < v->nseats; k++) {
            const int s = v->seats[(v->slot[c->root_seat] + k) % v->nseats];
            if (pos_over(child) || child->status[c->root_seat] != ST_PLAYING)
                break;
            Move f;
            if (s != mover && side_of(c, s) < 0 && child->status[s] == ST_PLAYING &&
                filler_move(w, child, s, ply, &w->ss[ply + 1].list, &f)) {
                pos_set_stm(child, s);
                pos_play(child, &f);
            }
        }
    if (!pos_over(child) && side_of(c, child->stm) < 0 && child->status[c->root_seat] == ST_PLAYING)
        pos_set_stm(child, c->root_seat);
}
