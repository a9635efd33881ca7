/*
 * forward.c - the integer forward pass after the first layer: plain C, or the
 * SIMD steps (ssse3.c, avx2.c) the CPU runs, chosen when first asked (nnue.h:
 * nnue_output, nnue_output_path, nnue_output_scalar, nnue_standings,
 * nnue_standings_path, nnue_path_available, nnue_path_best). Both kinds of
 * net share the steps: the first layer clipped to bytes, the second layer's
 * sums of n of them (version 1: both views, n = 2 x l1; version 2: one view,
 * n = l1, one bucket's weights), the output.
 */
#include "net.h"

#include <stdatomic.h>
#include <string.h>

static inline int clip127(int x) { return x < 0 ? 0 : x > 127 ? 127 : x; }

#if NNUE_SIMD
/* The fastest path this CPU runs (asked once; the same answer on every thread). */
static NnuePath cpu_best(void)
{
    static atomic_int known; /* 0 not asked yet, else the path + 1 */
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (!k) {
        __builtin_cpu_init();
        k = 1 + (__builtin_cpu_supports("avx2") ? NNUE_AVX2 : __builtin_cpu_supports("ssse3") ? NNUE_SSSE3 : NNUE_SCALAR);
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return (NnuePath)(k - 1);
}
#else
static NnuePath cpu_best(void) { return NNUE_SCALAR; }
#endif

bool nnue_path_available(NnuePath path) { return path <= cpu_best(); }

NnuePath nnue_path_best(void) { return cpu_best(); }

/* The n sums a clipped to 0-127 into x, by `path` (available). */
static inline void clip_layer(const int16_t *a, int n, uint8_t *x, NnuePath path)
{
#if NNUE_SIMD
    if (path != NNUE_SCALAR) {
        nnue_clip_ssse3(a, n, x);
        return;
    }
#else
    (void)path;
#endif
#if defined(__wasm_simd128__)
    nnue_clip_wasm(a, n, x);
    return;
#endif
    for (int j = 0; j < n; j++)
        x[j] = (uint8_t)clip127(a[j]);
}

/* The second layer (net.h: nnue_affine_ssse3) by `path` (available): AVX2
 * where n is a multiple of 32, else SSSE3, else plain C. */
static inline void affine(const int8_t *w, const int32_t *b, int l2, int n, const uint8_t *x, int32_t *h,
                          NnuePath path)
{
#if NNUE_SIMD
    if (path == NNUE_AVX2 && n % 32 == 0) {
        nnue_affine_avx2(w, b, l2, n, x, h);
        return;
    }
    if (path != NNUE_SCALAR) {
        nnue_affine_ssse3(w, b, l2, n, x, h);
        return;
    }
#else
    (void)path;
#endif
#if defined(__wasm_simd128__)
    nnue_affine_wasm(w, b, l2, n, x, h);
    return;
#endif
    for (int k = 0; k < l2; k++) {
        const int8_t *row = w + (size_t)k * n;
        int32_t sum = b[k];
        for (int j = 0; j < n; j++)
            sum += (int32_t)row[j] * x[j];
        h[k] = sum;
    }
}

/* The value in centi-moves of an output sum: out x out_scale / (127 x 256),
 * truncated toward zero, within +-NNUE_VALUE_MAX. */
static inline int to_value(const Nnue *net, int64_t out)
{
    const int64_t v = out * net->out_scale / (NNUE_QA * NNUE_QO);
    return (int)(v > NNUE_VALUE_MAX ? NNUE_VALUE_MAX : v < -NNUE_VALUE_MAX ? -NNUE_VALUE_MAX : v);
}

/* The output of bucket k from its second layer's sums h (before the shift)
 * and the linear sum lin. */
static inline int64_t output_of(const Nnue *net, int k, int64_t lin, const int32_t *h)
{
    const int16_t *w3 = net->w3 + (size_t)k * net->l2;
    int64_t out = net->b3[k] + lin;
    for (int m = 0; m < net->l2; m++)
        out += (int64_t)w3[m] * clip127(h[m] >> 6);
    return out;
}

/* The output sum of bucket k (before to_value) from the clipped first layer
 * x (n = the net's width bytes) and the linear sum lin, by `path`: the fused
 * AVX2 layers where the sizes allow, else the second layer then the output. */
static inline int64_t layers_of(const Nnue *net, int k, int64_t lin, const uint8_t *x, NnuePath path)
{
    const int8_t *w2 = net->w2 + (size_t)k * net->l2 * net->width;
    const int32_t *b2 = net->b2 + (size_t)k * net->l2;
#if NNUE_SIMD
    if (path == NNUE_AVX2 && net->l2 % 8 == 0 && net->width % 32 == 0)
        return net->b3[k] + lin + nnue_layers_avx2(w2, b2, net->w3 + (size_t)k * net->l2, net->l2, net->width, x);
#endif
    int32_t h[NNUE_MAX_L2];
    affine(w2, b2, net->l2, net->width, x, h, path);
    return output_of(net, k, lin, h);
}

/* Slot of the seat whose move it is in p (the first seat once the game is over). */
static inline int mover_slot(const Position *p) { return p->stm >= 0 ? p->v->slot[p->stm] : 0; }

/* Version 1: the side to move's half, then the other's, into the second
 * layer; the linear path is half the difference of the two views' sums, the
 * side to move's first (rounded down). */
static int duo_output(const Nnue *net, const NnueAcc *acc, const Position *p, NnuePath path)
{
    _Alignas(64) uint8_t x[2 * NNUE_MAX_L1];
    const int us = mover_slot(p) == 1;
    clip_layer(acc->v[us], net->l1, x, path);
    clip_layer(acc->v[!us], net->l1, x + net->l1, path);
    return to_value(net, layers_of(net, 0, ((int64_t)acc->lin[us] - acc->lin[!us]) >> 1, x, path));
}

#if NNUE_SIMD
/* Whether AVX2 takes a view through both layers in one call: the path, and
 * sizes it handles. */
static inline bool fused_view(const Nnue *net, NnuePath path)
{
    return path == NNUE_AVX2 && net->l2 % 8 == 0 && net->width % 32 == 0;
}

/* Version 2, fused_view: every seat slot's view clipped and through the
 * layers of its bucket in one AVX2 call, its own linear sum added; into out
 * by seat. */
static void fused_standings(const Nnue *net, const NnueAcc *acc, const Position *p, int mover, int out[MAX_SEATS])
{
    const Variant *v = p->v;
    const int n = v->nseats;
    int32_t sums[MAX_SEATS];
    nnue_views_avx2(acc->v, n, mover, net->w2, net->b2, net->w3, net->l2, net->width, sums);
    for (int i = 0; i < n; i++) {
        const int k = nnue_bucket(i, mover, n);
        out[v->seats[i]] = to_value(net, net->b3[k] + (int64_t)acc->lin[i] + sums[i]);
    }
}
#endif

/* Version 2: seat slot i's own view into the layers of bucket k, its own
 * linear sum added. */
static int multi_standing(const Nnue *net, const NnueAcc *acc, int i, int k, NnuePath path)
{
#if NNUE_SIMD
    if (fused_view(net, path)) {
        int32_t sum;
        nnue_views_avx2(&acc->v[i], 1, 0, net->w2 + (size_t)k * net->l2 * net->width, net->b2 + (size_t)k * net->l2,
                        net->w3 + (size_t)k * net->l2, net->l2, net->width, &sum);
        return to_value(net, net->b3[k] + (int64_t)acc->lin[i] + sum);
    }
#endif
    _Alignas(64) uint8_t x[NNUE_MAX_L1];
    clip_layer(acc->v[i], net->l1, x, path);
    return to_value(net, layers_of(net, k, acc->lin[i], x, path));
}

void nnue_standings_path(const Nnue *net, const NnueAcc *acc, const Position *p, int out[MAX_SEATS], NnuePath path)
{
    if (!nnue_path_available(path))
        path = NNUE_SCALAR;
    const Variant *v = p->v;
    memset(out, 0, sizeof(int) * MAX_SEATS);
    if (net->version == NNUE_VERSION) {
        const int value = duo_output(net, acc, p, path), us = mover_slot(p);
        out[v->seats[us]] = value;
        out[v->seats[!us]] = -value;
        return;
    }
    const int n = v->nseats, mover = mover_slot(p);
#if NNUE_SIMD
    if (fused_view(net, path)) { /* the commonest evaluation of three to six seats: a node's every seat */
        fused_standings(net, acc, p, mover, out);
        return;
    }
#endif
    for (int i = 0; i < n; i++) {
        const int k = nnue_bucket(i, mover, n); /* plies until seat i moves */
        out[v->seats[i]] = multi_standing(net, acc, i, k, path);
    }
}

void nnue_standings(const Nnue *net, const NnueAcc *acc, const Position *p, int out[MAX_SEATS])
{
    nnue_standings_path(net, acc, p, out, cpu_best());
}

int nnue_output_path(const Nnue *net, const NnueAcc *acc, const Position *p, NnuePath path)
{
    if (!nnue_path_available(path))
        path = NNUE_SCALAR;
    if (net->version == NNUE_VERSION)
        return duo_output(net, acc, p, path);
    return multi_standing(net, acc, mover_slot(p), 0, path); /* the side to move's standing: bucket 0 */
}

int nnue_output_scalar(const Nnue *net, const NnueAcc *acc, const Position *p)
{
    return nnue_output_path(net, acc, p, NNUE_SCALAR);
}

int nnue_output(const Nnue *net, const NnueAcc *acc, const Position *p)
{
    return nnue_output_path(net, acc, p, cpu_best());
}
