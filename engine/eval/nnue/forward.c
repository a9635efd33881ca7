/*
 * forward.c - the integer forward pass after the first layer: plain C, or the
 * SIMD paths (ssse3.c, avx2.c) the CPU runs, chosen when first asked (nnue.h:
 * nnue_output, nnue_output_path, nnue_output_scalar, nnue_path_available).
 */
#include "net.h"

#include <stdatomic.h>

static inline int clip127(int x) { return x < 0 ? 0 : x > 127 ? 127 : x; }

/* The clipped first layer: the side to move's half, then the other's. */
static void first_layer(const Nnue *net, const NnueAcc *acc, const Position *p, uint8_t *x)
{
    const int us = p->v->slot[p->stm] == 1;
    for (int j = 0; j < net->l1; j++) {
        x[j] = (uint8_t)clip127(acc->v[us][j]);
        x[net->l1 + j] = (uint8_t)clip127(acc->v[!us][j]);
    }
}

/* The output from the second layer's sums h (l2 of them, before the shift)
 * and the linear path: half the difference of the two views' sums, the side
 * to move's first (rounded down). */
static int finish(const Nnue *net, const NnueAcc *acc, const Position *p, const int32_t *h)
{
    const int us = p->v->slot[p->stm] == 1;
    int64_t out = net->b3 + (((int64_t)acc->lin[us] - acc->lin[!us]) >> 1);
    for (int k = 0; k < net->l2; k++)
        out += (int64_t)net->w3[k] * clip127(h[k] >> 6);
    const int64_t v = out * net->out_scale / (NNUE_QA * NNUE_QO);
    return (int)(v > NNUE_VALUE_MAX ? NNUE_VALUE_MAX : v < -NNUE_VALUE_MAX ? -NNUE_VALUE_MAX : v);
}

int nnue_output_scalar(const Nnue *net, const NnueAcc *acc, const Position *p)
{
    _Alignas(64) uint8_t x[2 * NNUE_MAX_L1];
    int32_t h[NNUE_MAX_L2];
    first_layer(net, acc, p, x);
    const int n = 2 * net->l1;
    for (int k = 0; k < net->l2; k++) {
        const int8_t *w = net->w2 + (size_t)k * n;
        int32_t sum = net->b2[k];
        for (int j = 0; j < n; j++)
            sum += (int32_t)w[j] * x[j];
        h[k] = sum;
    }
    return finish(net, acc, p, h);
}

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

bool nnue_path_available(NnuePath path) { return path <= cpu_best(); }

int nnue_output_path(const Nnue *net, const NnueAcc *acc, const Position *p, NnuePath path)
{
    if (path == NNUE_SCALAR || !nnue_path_available(path))
        return nnue_output_scalar(net, acc, p);
    _Alignas(64) uint8_t x[2 * NNUE_MAX_L1];
    int32_t h[NNUE_MAX_L2];
    nnue_first_layer_ssse3(net, acc, p, x);
    if (path == NNUE_AVX2 && net->l1 % 32 == 0)
        nnue_second_layer_avx2(net, x, h);
    else
        nnue_second_layer_ssse3(net, x, h);
    return finish(net, acc, p, h);
}

int nnue_output(const Nnue *net, const NnueAcc *acc, const Position *p)
{
    return nnue_output_path(net, acc, p, cpu_best());
}
#else
int nnue_output_path(const Nnue *net, const NnueAcc *acc, const Position *p, NnuePath path)
{
    (void)path;
    return nnue_output_scalar(net, acc, p);
}

bool nnue_path_available(NnuePath path) { return path == NNUE_SCALAR; }

int nnue_output(const Nnue *net, const NnueAcc *acc, const Position *p) { return nnue_output_scalar(net, acc, p); }
#endif
