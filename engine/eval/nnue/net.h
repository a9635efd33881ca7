/*
 * net.h - what the files of engine/eval/nnue share and nothing outside does:
 * the net's arrays (struct Nnue), whether the SIMD paths are built, and the
 * SIMD forward passes forward.c chooses among. The format is in
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

struct Nnue {
    int planes, l1, l2, out_scale;
    char variants[NNUE_FAMILIES + 1];
    int16_t *w1;   /* [planes * 121][l1] */
    int16_t *b1;   /* [l1] */
    int32_t *lin;  /* [planes * 121]: the linear path's weight of each input */
    int8_t *w2;    /* [l2][2 * l1] */
    int32_t *b2;   /* [l2] */
    int16_t *w3;   /* [l2] */
    int32_t b3;
    void *block;   /* one aligned allocation holding the arrays */
};

#if NNUE_SIMD
/* The clipped first layer of acc for the side to move of p (its half, then
 * the other's) into x (2 x l1 bytes, 16-aligned), by SSSE3 (ssse3.c). */
void nnue_first_layer_ssse3(const Nnue *net, const NnueAcc *acc, const Position *p, uint8_t *x);

/* The second layer's sums of x (2 x l1 bytes) into h (l2 of them, bias
 * included), by SSSE3 (ssse3.c), or by AVX2 when l1 is a multiple of 32
 * (avx2.c); only where the CPU has the instructions. */
void nnue_second_layer_ssse3(const Nnue *net, const uint8_t *x, int32_t *h);
void nnue_second_layer_avx2(const Nnue *net, const uint8_t *x, int32_t *h);
#endif

#endif
