/*
 * accumulator.c - the first layer's sums of a position, made afresh or
 * updated from a near position's by the marbles that differ (nnue.h:
 * nnue_refresh, nnue_update, nnue_ensure).
 */
#include "net.h"

#include <limits.h>
#include <string.h>

/* Input index of a marble of the variant's seat slot `owner` on hole h from
 * slot `view`'s view (nnue_feature, with the net's table of views). */
static inline int feature(const Nnue *net, const Variant *v, int view, int owner, int h)
{
    const int plane = owner - view < 0 ? owner - view + v->nseats : owner - view;
    return plane * NUM_HOLES + net->view_hole[v->seats[view]][h];
}

/* A marble that arrived (sign 1) or left (sign -1): its seat slot and hole. */
typedef struct {
    int8_t slot, sign;
    uint8_t hole;
} Change;

/* dst = src plus the rows of the changes (l1 sums; dst may be src), one pass
 * a row, the first of them fused with the copy; lin likewise. */
static void apply_changes(const Nnue *net, const Variant *v, int view, const Change *c, int nc, const int16_t *src,
                          int32_t src_lin, int16_t *dst, int32_t *lin)
{
    const int l1 = net->l1;
    int32_t sum = src_lin;
    for (int k = 0; k < nc; k++) {
        const int f = feature(net, v, view, c[k].slot, c[k].hole);
        const int16_t *w = net->w1 + (size_t)f * l1;
        const int16_t *from = k == 0 ? src : dst;
        sum += c[k].sign * net->lin[f];
        if (c[k].sign > 0)
            for (int j = 0; j < l1; j++)
                dst[j] = (int16_t)(from[j] + w[j]);
        else
            for (int j = 0; j < l1; j++)
                dst[j] = (int16_t)(from[j] - w[j]);
    }
    if (nc == 0 && dst != src)
        memcpy(dst, src, sizeof(int16_t) * (size_t)l1);
    *lin = sum;
}

void nnue_refresh(const Nnue *net, const Position *p, NnueAcc *acc)
{
    const Variant *v = p->v;
    const int n = v->nseats;
    Change c[MAX_SEATS * NUM_HOLES];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        acc->bb[i] = p->seat_bb[v->seats[i]];
        for (Bitboard b = acc->bb[i]; b; b &= b - 1)
            c[nc++] = (Change){(int8_t)i, 1, (uint8_t)bb_first(b)};
    }
    for (int view = 0; view < n; view++)
        apply_changes(net, v, view, c, nc, net->b1, 0, acc->v[view], &acc->lin[view]);
    acc->net = net;
    acc->variant = v;
    acc->valid = true;
}

void nnue_update(const Nnue *net, const NnueAcc *from, const Position *p, NnueAcc *acc)
{
    const Variant *v = p->v;
    const int n = v->nseats;
    Change c[2 * MAX_SEATS * NUM_HOLES];
    int nc = 0;
    for (int i = 0; i < n; i++) { /* most seats' marbles stay where they were */
        const Bitboard now = p->seat_bb[v->seats[i]];
        for (Bitboard b = from->bb[i] & ~now; b; b &= b - 1)
            c[nc++] = (Change){(int8_t)i, -1, (uint8_t)bb_first(b)};
        for (Bitboard b = now & ~from->bb[i]; b; b &= b - 1)
            c[nc++] = (Change){(int8_t)i, 1, (uint8_t)bb_first(b)};
        acc->bb[i] = now;
    }
    for (int view = 0; view < n; view++)
        apply_changes(net, v, view, c, nc, from->v[view], from->lin[view], acc->v[view], &acc->lin[view]);
    acc->net = net;
    acc->variant = v;
    acc->valid = true;
}

/* Marbles that differ between acc and p, or INT_MAX when acc holds none of
 * this net's sums of p's variant. */
static int distance_to(const Nnue *net, const NnueAcc *acc, const Position *p)
{
    if (!acc || !acc->valid || acc->net != net || acc->variant != p->v)
        return INT_MAX;
    const Variant *v = p->v;
    int d = 0;
    for (int i = 0; i < v->nseats; i++)
        d += bb_count(acc->bb[i] ^ p->seat_bb[v->seats[i]]);
    return d;
}

/* Beyond this many changed marbles a refresh (20 rows per view with two
 * seats, more with more) is as cheap. */
#define UPDATE_MAX 12

void nnue_ensure(const Nnue *net, const Position *p, NnueAcc *acc, const NnueAcc *near)
{
    const int self = distance_to(net, acc, p);
    if (self == 0)
        return;
    const int other = distance_to(net, near, p);
    if (other <= self && other <= UPDATE_MAX)
        nnue_update(net, near, p, acc);
    else if (self <= UPDATE_MAX)
        nnue_update(net, acc, p, acc);
    else
        nnue_refresh(net, p, acc);
}
