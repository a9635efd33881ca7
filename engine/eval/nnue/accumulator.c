/*
 * accumulator.c - the first layer's sums of a position, made afresh or
 * updated from a near position's by the marbles that differ (nnue.h:
 * nnue_refresh, nnue_update, nnue_ensure, and their _path forms), by plain C
 * or the SIMD kernels of ssse3.c and avx2.c.
 */
#include "net.h"

#include <limits.h>
#include <string.h>

/* A marble that arrived (sign 1) or left (sign -1): its seat slot and hole. */
typedef struct {
    int8_t slot, sign;
    uint8_t hole;
} Change;

/* Changes at most: every marble of every seat gone and come back elsewhere. */
#define CHANGES_MAX (2 * MAX_SEATS * NNUE_SEAT_MARBLES)

/* The plain C path of the one-pass update (net.h: nnue_rows_sse2); in
 * WebAssembly its SIMD128 form. */
static void rows_scalar(int16_t *dst, const int16_t *src, const int16_t *const *add, int na,
                        const int16_t *const *sub, int ns, int l1)
{
#if defined(__wasm_simd128__)
    nnue_rows_wasm(dst, src, add, na, sub, ns, l1);
    return;
#endif
    if (dst != src)
        memcpy(dst, src, sizeof(int16_t) * (size_t)l1);
    for (int r = 0; r < na; r++)
        for (int j = 0; j < l1; j++)
            dst[j] = (int16_t)(dst[j] + add[r][j]);
    for (int r = 0; r < ns; r++)
        for (int j = 0; j < l1; j++)
            dst[j] = (int16_t)(dst[j] - sub[r][j]);
}

/* dst = src plus the rows of the changes (l1 sums; dst may be src) from
 * slot `view`'s view, by `path` (available); lin likewise. Inlined into its
 * two callers, whose loops over the views it is the body of. */
static inline __attribute__((always_inline)) void apply_changes(const Nnue *net, const Variant *v, int view,
                                                                const Change *c, int nc, const int16_t *src,
                                                                int32_t src_lin, int16_t *dst, int32_t *lin,
                                                                NnuePath path)
{
    const int l1 = net->l1, n = v->nseats;
    const uint8_t *turn = net->view_hole[v->seats[view]];
    const int16_t *add[CHANGES_MAX], *sub[CHANGES_MAX];
    int na = 0, ns = 0;
    int32_t sum = src_lin;
    for (int k = 0; k < nc; k++) {
        /* nnue_feature: the owner's plane counted from the view's seat, the hole turned */
        const int plane = c[k].slot >= view ? c[k].slot - view : c[k].slot - view + n;
        const int f = plane * NUM_HOLES + turn[c[k].hole];
        const int16_t *w = net->w1 + (size_t)f * l1;
        if (c[k].sign > 0) {
            sum += net->lin[f];
            add[na++] = w;
        } else {
            sum -= net->lin[f];
            sub[ns++] = w;
        }
    }
    *lin = sum;
#if NNUE_SIMD
    if (path == NNUE_AVX2)
        nnue_rows_avx2(dst, src, add, na, sub, ns, l1);
    else if (path == NNUE_SSSE3)
        nnue_rows_sse2(dst, src, add, na, sub, ns, l1);
    else
        rows_scalar(dst, src, add, na, sub, ns, l1);
#else
    (void)path;
    rows_scalar(dst, src, add, na, sub, ns, l1);
#endif
}

/* A path this CPU runs: `path`, else plain C. */
static NnuePath runnable(NnuePath path) { return nnue_path_available(path) ? path : NNUE_SCALAR; }

/* nnue_refresh_path with `path` available. */
static void refresh(const Nnue *net, const Position *p, NnueAcc *acc, NnuePath path)
{
    const Variant *v = p->v;
    const int n = v->nseats;
    Change c[CHANGES_MAX];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        acc->bb[i] = p->seat_bb[v->seats[i]];
        for (Bitboard b = acc->bb[i]; b; b &= b - 1)
            c[nc++] = (Change){(int8_t)i, 1, (uint8_t)bb_first(b)};
    }
    for (int view = 0; view < n; view++)
        apply_changes(net, v, view, c, nc, net->b1, 0, acc->v[view], &acc->lin[view], path);
    acc->net = net;
    acc->variant = v;
    acc->valid = true;
}

void nnue_refresh_path(const Nnue *net, const Position *p, NnueAcc *acc, NnuePath path)
{
    refresh(net, p, acc, runnable(path));
}

void nnue_refresh(const Nnue *net, const Position *p, NnueAcc *acc) { refresh(net, p, acc, net->path); }

/* The views updated for one marble of one seat that moved from hole
 * `left->hole` to `came->hole` (a step or chain): one row added and one taken
 * away a view. */
static void one_marble(const Nnue *net, const Variant *v, const Change *came, const Change *left,
                       const NnueAcc *from, NnueAcc *acc, NnuePath path)
{
    const int n = v->nseats, l1 = net->l1;
    const int16_t *add[MAX_SEATS], *sub[MAX_SEATS];
    for (int view = 0; view < n; view++) {
        const uint8_t *turn = net->view_hole[v->seats[view]];
        const int plane = came->slot >= view ? came->slot - view : came->slot - view + n;
        const int fa = plane * NUM_HOLES + turn[came->hole], fs = plane * NUM_HOLES + turn[left->hole];
        add[view] = net->w1 + (size_t)fa * l1;
        sub[view] = net->w1 + (size_t)fs * l1;
        acc->lin[view] = from->lin[view] + net->lin[fa] - net->lin[fs];
    }
#if NNUE_SIMD
    if (path == NNUE_AVX2) {
        nnue_move_avx2(acc->v, from->v, add, sub, n, l1);
        return;
    }
    if (path == NNUE_SSSE3) {
        for (int view = 0; view < n; view++)
            nnue_move_sse2(acc->v[view], from->v[view], add[view], sub[view], l1);
        return;
    }
#else
    (void)path;
#endif
#if defined(__wasm_simd128__)
    for (int view = 0; view < n; view++)
        nnue_move_wasm(acc->v[view], from->v[view], add[view], sub[view], l1);
    return;
#endif
    for (int view = 0; view < n; view++)
        rows_scalar(acc->v[view], from->v[view], &add[view], 1, &sub[view], 1, l1);
}

/* The marbles of one 64-hole half `word` of a seat's board that left (bits
 * of gone) and came (bits of came), hole numbers from `base`, into c. */
static inline int half_changes(uint64_t gone, uint64_t came, int slot, int base, Change *c)
{
    int nc = 0;
    for (; gone; gone &= gone - 1)
        c[nc++] = (Change){(int8_t)slot, -1, (uint8_t)(base + __builtin_ctzll(gone))};
    for (; came; came &= came - 1)
        c[nc++] = (Change){(int8_t)slot, 1, (uint8_t)(base + __builtin_ctzll(came))};
    return nc;
}

/* nnue_update_path with `path` available: the marbles that differ found
 * by XOR, one seat's board at a time (most are unchanged). */
static void update(const Nnue *net, const NnueAcc *from, const Position *p, NnueAcc *acc, NnuePath path)
{
    const Variant *v = p->v;
    const int n = v->nseats;
    Change c[CHANGES_MAX];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        const Bitboard was = from->bb[i], now = p->seat_bb[v->seats[i]];
        acc->bb[i] = now;
        if (was == now) /* most seats' marbles stay where they were */
            continue;
        const Bitboard gone = was & ~now, came = now & ~was;
        nc += half_changes((uint64_t)gone, (uint64_t)came, i, 0, c + nc);
        nc += half_changes((uint64_t)(gone >> 64), (uint64_t)(came >> 64), i, 64, c + nc);
    }
    if (nc == 2 && c[0].sign != c[1].sign && c[0].slot == c[1].slot)
        one_marble(net, v, c[0].sign > 0 ? c : c + 1, c[0].sign > 0 ? c + 1 : c, from, acc, path);
    else
        for (int view = 0; view < n; view++)
            apply_changes(net, v, view, c, nc, from->v[view], from->lin[view], acc->v[view], &acc->lin[view], path);
    acc->net = net;
    acc->variant = v;
    acc->valid = true;
}

void nnue_update_path(const Nnue *net, const NnueAcc *from, const Position *p, NnueAcc *acc, NnuePath path)
{
    update(net, from, p, acc, runnable(path));
}

void nnue_update(const Nnue *net, const NnueAcc *from, const Position *p, NnueAcc *acc)
{
    update(net, from, p, acc, net->path);
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
        update(net, near, p, acc, net->path);
    else if (self <= UPDATE_MAX)
        update(net, acc, p, acc, net->path);
    else
        refresh(net, p, acc, net->path);
}
