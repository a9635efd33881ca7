/*
 * net.h - what the files of engine/eval/nnue share and nothing outside does:
 * the net's arrays (struct Nnue), whether the SIMD paths are built, and the
 * SIMD steps of the forward pass forward.c chooses among. The format is in
 * docs/NNUE.md; the public face is nnue.h.
 */
#ifndef STERN_NNUE_NET_H
#define STERN_NNUE_NET_H

#include "nnue.h"

#include <stdint.h>

/* x86-64: the SIMD paths are compiled for their instruction sets whatever the
 * build's -march, and chosen by what the CPU has when the engine runs. */
#if defined(__x86_64__)
#define NNUE_SIMD 1
#else
#define NNUE_SIMD 0
#endif

/* The bucket of seat slot `slot` in a version-2 net: the plies until it
 * moves, with `mover` the side to move's slot and n seats. */
static inline int nnue_bucket(int slot, int mover, int n) { return slot >= mover ? slot - mover : slot - mover + n; }

#if defined(__wasm_simd128__)
/* nnue_clip_ssse3 and nnue_affine_ssse3 in WebAssembly SIMD128
 * (wasm_simd.c; n a multiple of 16): the WebAssembly builds' plain path. */
void nnue_clip_wasm(const int16_t *a, int n, uint8_t *x);
void nnue_affine_wasm(const int8_t *w, const int32_t *b, int l2, int n, const uint8_t *x, int32_t *h);
/* nnue_rows_sse2 and nnue_move_sse2 likewise (l1 a multiple of 16). */
void nnue_rows_wasm(int16_t *dst, const int16_t *src, const int16_t *const *add, int na, const int16_t *const *sub,
                    int ns, int l1);
void nnue_move_wasm(int16_t *dst, const int16_t *src, const int16_t *add, const int16_t *sub, int l1);
#endif

struct Nnue {
    int version;   /* NNUE_VERSION (two seats) or NNUE_VERSION_MULTI */
    int planes, l1, l2, out_scale;
    const uint8_t (*view_hole)[NUM_HOLES]; /* nnue_hole's table, built before any net is made */
    NnuePath path; /* the accumulator's path: nnue_path_best when the net was read */
    int buckets;   /* layer sets after the first: 1 (version 1), or the seats (version 2) */
    int width;     /* inputs of the second layer: 2 x l1 (version 1: both views), l1 (version 2) */
    char variants[NNUE_FAMILIES + 1];
    int16_t *w1;   /* [planes * 121][l1] */
    int16_t *b1;   /* [l1] */
    int32_t *lin;  /* [planes * 121]: the linear path's weight of each input */
    int8_t *w2;    /* [buckets][l2][width] */
    int32_t *b2;   /* [buckets][l2] */
    int16_t *w3;   /* [buckets][l2] */
    int32_t *b3;   /* [buckets] */
    void *block;   /* one aligned allocation holding the arrays */
};

/* nnue_hole's table (MAX_SEATS x NUM_HOLES), built once; every net points at it,
 * so that the accumulator reads it without a pthread_once a feature. */
const uint8_t (*nnue_view_table(void))[NUM_HOLES];

#if NNUE_SIMD
/* The first layer's n sums a (n a multiple of 16, a and x 16-aligned)
 * clipped to 0-127 into the bytes x, by SSSE3 (ssse3.c). */
void nnue_clip_ssse3(const int16_t *a, int n, uint8_t *x);

/* The second layer: h[k] = b[k] + sum over j < n of w[k * n + j] * x[j] for
 * k < l2 (int32), by SSSE3 (ssse3.c; n a multiple of 16, x 16-aligned) or
 * AVX2 (avx2.c; n a multiple of 32, x 32-aligned); only where the CPU has the
 * instructions. Version 1: n = 2 x l1, both views; version 2: n = l1, one
 * bucket's weights. */
void nnue_affine_ssse3(const int8_t *w, const int32_t *b, int l2, int n, const uint8_t *x, int32_t *h);
void nnue_affine_avx2(const int8_t *w, const int32_t *b, int l2, int n, const uint8_t *x, int32_t *h);

/* The second layer and the output's weighted sum of one bucket, fused (the
 * output before its bias and linear sum): the sum over k < l2 of w3[k] x
 * clip(0, 127, (b2[k] + sum over j < n of w2[k * n + j] x x[j]) >> 6), by
 * AVX2, for l2 a multiple of 8 and n of 32 (x 32-aligned). Exact in int32:
 * |w3| < 2^15, clipped units <= 127, l2 <= NNUE_MAX_L2. */
int32_t nnue_layers_avx2(const int8_t *w2, const int32_t *b2, const int16_t *w3, int l2, int n, const uint8_t *x);

/* nnue_layers_avx2 of each view's first-layer sums a[i] (n of them,
 * 32-aligned), i < views, clipped to 0-127 on the way (as nnue_clip_ssse3),
 * through the layers of its bucket (i - mover) mod views (w2, b2 and w3 the
 * first bucket's; each next bucket's follow): into sums[i], every version-2
 * seat's standing before its output bias and linear sum, in one call. */
void nnue_views_avx2(const int16_t (*a)[NNUE_MAX_L1], int views, int mover, const int8_t *w2, const int32_t *b2,
                     const int16_t *w3, int l2, int n, int32_t *sums);

/* The first layer's update in one pass: dst[j] = src[j] + the sum over r < na
 * of add[r][j] - the sum over r < ns of sub[r][j], for j < l1 (a multiple of
 * 16), int16 wrapping as plain C's (the trainer keeps the sums in range).
 * dst and src 32-aligned (dst may be src); the rows of any alignment. Each
 * block of dst is loaded once, takes every row in registers and is stored
 * once. By SSE2 for the SSSE3 path (ssse3.c) or AVX2 (avx2.c). */
void nnue_rows_sse2(int16_t *dst, const int16_t *src, const int16_t *const *add, int na, const int16_t *const *sub,
                    int ns, int l1);
void nnue_rows_avx2(int16_t *dst, const int16_t *src, const int16_t *const *add, int na, const int16_t *const *sub,
                    int ns, int l1);

/* The update of a step or chain of one marble, the commonest: dst[j] =
 * src[j] + add[j] - sub[j] for j < l1, alignments as above. The AVX2 form
 * updates every view in one call: dst[i][j] = src[i][j] + add[i][j] -
 * sub[i][j] for i < views (one call, not one a view: the views of four or six
 * seats made the calls a fifth of the update). */
void nnue_move_sse2(int16_t *dst, const int16_t *src, const int16_t *add, const int16_t *sub, int l1);
void nnue_move_avx2(int16_t (*dst)[NNUE_MAX_L1], const int16_t (*src)[NNUE_MAX_L1], const int16_t *const *add,
                    const int16_t *const *sub, int views, int l1);
#endif

#endif
