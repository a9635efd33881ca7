/*
 * accumulator.c - the first layer's sums of a position, made afresh or
 * updated from a near position's by the marbles that differ (nnue.h:
 * nnue_refresh, nnue_update, nnue_ensure).
 */
#include "net.h"

#include <limits.h>
#include <string.h>

/* Adds (sign 1) or takes away (sign -1) input row f to the sums a (l1 wide)
 * and its linear weight to *lin. */
static void add_row(const Nnue *net, int16_t *a, int32_t *lin, int f, int sign)
{
    const int16_t *w = net->w1 + (size_t)f * net->l1;
    *lin += sign * net->lin[f];
    if (sign > 0)
        for (int j = 0; j < net->l1; j++)
            a[j] = (int16_t)(a[j] + w[j]);
    else
        for (int j = 0; j < net->l1; j++)
            a[j] = (int16_t)(a[j] - w[j]);
}

void nnue_refresh(const Nnue *net, const Position *p, NnueAcc *acc)
{
    const Variant *v = p->v;
    const int n = v->nseats;
    for (int i = 0; i < n; i++) {
        acc->bb[i] = p->seat_bb[v->seats[i]];
        memcpy(acc->v[i], net->b1, sizeof(int16_t) * net->l1);
        acc->lin[i] = 0;
    }
    for (int view = 0; view < n; view++)
        for (int i = 0; i < n; i++)
            for (Bitboard b = acc->bb[i]; b; b &= b - 1)
                add_row(net, acc->v[view], &acc->lin[view], nnue_feature(v, v->seats[view], v->seats[i], bb_first(b)), 1);
    acc->net = net;
    acc->variant = v;
    acc->valid = true;
}

void nnue_update(const Nnue *net, const NnueAcc *from, const Position *p, NnueAcc *acc)
{
    const Variant *v = p->v;
    const int n = v->nseats;
    if (acc != from)
        for (int view = 0; view < n; view++) {
            memcpy(acc->v[view], from->v[view], sizeof(int16_t) * net->l1);
            acc->lin[view] = from->lin[view];
        }
    for (int i = 0; i < n; i++) {
        const Bitboard now = p->seat_bb[v->seats[i]];
        const Bitboard gone = from->bb[i] & ~now, came = now & ~from->bb[i];
        if (gone | came) /* most seats' marbles stay where they were */
            for (int view = 0; view < n; view++) {
                for (Bitboard b = gone; b; b &= b - 1)
                    add_row(net, acc->v[view], &acc->lin[view], nnue_feature(v, v->seats[view], v->seats[i], bb_first(b)), -1);
                for (Bitboard b = came; b; b &= b - 1)
                    add_row(net, acc->v[view], &acc->lin[view], nnue_feature(v, v->seats[view], v->seats[i], bb_first(b)), 1);
            }
        acc->bb[i] = now;
    }
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
