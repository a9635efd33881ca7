/*
 * avx2.c - the forward pass's second layer and the first layer's update by
 * AVX2 (net.h), compiled for AVX2 whatever the build's -march; forward.c and
 * accumulator.c call them only where the CPU has it.
 */
#include "net.h"

#if NNUE_SIMD
#include <immintrin.h>

/* One row's products with x (n bytes, a multiple of 32) as eight int32
 * partial sums, by AVX2. */
__attribute__((target("avx2"))) static inline __m256i row_avx2(const int8_t *w, const uint8_t *x, int n)
{
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i sum = _mm256_setzero_si256();
    for (int j = 0; j < n; j += 32) {
        const __m256i prod = _mm256_maddubs_epi16(_mm256_load_si256((const __m256i *)(x + j)),
                                                  _mm256_loadu_si256((const __m256i *)(w + j)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(prod, ones));
    }
    return sum;
}

/* The sums of four rows' partial sums s[0..3] (eight lanes each) as four
 * int32 in one 128-bit register, in row order. */
__attribute__((target("avx2"))) static inline __m128i four_sums(const __m256i *s)
{
    const __m256i a = _mm256_hadd_epi32(_mm256_hadd_epi32(s[0], s[1]), _mm256_hadd_epi32(s[2], s[3]));
    return _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
}

/* Rows k to k + 7 of w (n bytes each, n a multiple of 32) times x, plus
 * their biases b[k..k+7]: eight int32 sums in row order, each 32 bytes of x
 * loaded once for the eight rows. */
__attribute__((target("avx2"))) static inline __m256i eight_rows(const int8_t *w, const int32_t *b, int k, int n,
                                                                 const uint8_t *x)
{
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i s[8];
    for (int r = 0; r < 8; r++)
        s[r] = _mm256_setzero_si256();
    for (int j = 0; j < n; j += 32) {
        const __m256i xj = _mm256_load_si256((const __m256i *)(x + j));
        for (int r = 0; r < 8; r++) {
            const __m256i prod =
                _mm256_maddubs_epi16(xj, _mm256_loadu_si256((const __m256i *)(w + (size_t)(k + r) * n + j)));
            s[r] = _mm256_add_epi32(s[r], _mm256_madd_epi16(prod, ones));
        }
    }
    return _mm256_add_epi32(_mm256_set_m128i(four_sums(s + 4), four_sums(s)),
                            _mm256_loadu_si256((const __m256i *)(b + k)));
}

/* The same as nnue_affine_ssse3 with AVX2, 32 bytes at a time: eight rows at
 * once, each 32 bytes of x loaded once for the eight, then four, then one. */
__attribute__((target("avx2"))) void nnue_affine_avx2(const int8_t *w, const int32_t *b, int l2, int n,
                                                      const uint8_t *x, int32_t *h)
{
    int k = 0;
    for (; k + 8 <= l2; k += 8)
        _mm256_storeu_si256((__m256i *)(h + k), eight_rows(w, b, k, n, x));
    for (; k + 4 <= l2; k += 4) {
        __m256i s[4];
        for (int r = 0; r < 4; r++)
            s[r] = row_avx2(w + (size_t)(k + r) * n, x, n);
        _mm_storeu_si128((__m128i *)(h + k), _mm_add_epi32(four_sums(s), _mm_loadu_si128((const __m128i *)(b + k))));
    }
    for (; k < l2; k++) {
        const __m256i sum = row_avx2(w + (size_t)k * n, x, n);
        const __m128i q = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        const __m128i r2 = _mm_hadd_epi32(q, q);
        h[k] = b[k] + _mm_cvtsi128_si32(_mm_hadd_epi32(r2, r2));
    }
}
#endif

#if NNUE_SIMD
/* One block of `regs` x 16 sums, as rows_block_sse2 (ssse3.c). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
rows_block_avx2(int16_t *dst, const int16_t *src, const int16_t *const *add, int na, const int16_t *const *sub, int ns,
                int j, int regs)
{
    __m256i a[8];
    for (int q = 0; q < regs; q++)
        a[q] = _mm256_load_si256((const __m256i *)(src + j + 16 * q));
    for (int r = 0; r < na; r++)
        for (int q = 0; q < regs; q++)
            a[q] = _mm256_add_epi16(a[q], _mm256_loadu_si256((const __m256i *)(add[r] + j + 16 * q)));
    for (int r = 0; r < ns; r++)
        for (int q = 0; q < regs; q++)
            a[q] = _mm256_sub_epi16(a[q], _mm256_loadu_si256((const __m256i *)(sub[r] + j + 16 * q)));
    for (int q = 0; q < regs; q++)
        _mm256_store_si256((__m256i *)(dst + j + 16 * q), a[q]);
}

/* Blocks of 128 sums (eight registers), then 64, 32, 16: each call's
 * register count a constant, so its loops over the registers unroll. */
__attribute__((target("avx2"))) void nnue_rows_avx2(int16_t *dst, const int16_t *src, const int16_t *const *add,
                                                    int na, const int16_t *const *sub, int ns, int l1)
{
    int j = 0;
    for (; j + 128 <= l1; j += 128)
        rows_block_avx2(dst, src, add, na, sub, ns, j, 8);
    if (j + 64 <= l1) {
        rows_block_avx2(dst, src, add, na, sub, ns, j, 4);
        j += 64;
    }
    if (j + 32 <= l1) {
        rows_block_avx2(dst, src, add, na, sub, ns, j, 2);
        j += 32;
    }
    if (j < l1)
        rows_block_avx2(dst, src, add, na, sub, ns, j, 1);
}
#endif

#if NNUE_SIMD
/* One view's l1 sums (l1 a constant where inlined with one). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
move_view_avx2(int16_t *dst, const int16_t *src, const int16_t *add, const int16_t *sub, int l1)
{
    for (int j = 0; j < l1; j += 16) {
        const __m256i a = _mm256_add_epi16(_mm256_load_si256((const __m256i *)(src + j)),
                                           _mm256_loadu_si256((const __m256i *)(add + j)));
        _mm256_store_si256((__m256i *)(dst + j), _mm256_sub_epi16(a, _mm256_loadu_si256((const __m256i *)(sub + j))));
    }
}

__attribute__((target("avx2"))) void nnue_move_avx2(int16_t (*dst)[NNUE_MAX_L1], const int16_t (*src)[NNUE_MAX_L1],
                                                    const int16_t *const *add, const int16_t *const *sub, int views,
                                                    int l1)
{
    if (l1 == 32) { /* the shipped nets' width: two registers a view, unrolled */
        for (int i = 0; i < views; i++)
            move_view_avx2(dst[i], src[i], add[i], sub[i], 32);
        return;
    }
    for (int i = 0; i < views; i++)
        move_view_avx2(dst[i], src[i], add[i], sub[i], l1);
}
#endif

#if NNUE_SIMD
/* The second layer and the output's sum of one bucket (net.h), AVX2: eight
 * rows' sums at a time stay in a register, are shifted, clipped and weighted
 * there; one horizontal sum at the end. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) int32_t
layers(const int8_t *w2, const int32_t *b2, const int16_t *w3, int l2, int n, const uint8_t *x)
{
    const __m256i top = _mm256_set1_epi32(127), zero = _mm256_setzero_si256();
    __m256i out = zero;
    for (int k = 0; k < l2; k += 8) {
        __m256i h = eight_rows(w2, b2, k, n, x);
        h = _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(h, 6), zero), top);
        const __m256i w = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(w3 + k)));
        out = _mm256_add_epi32(out, _mm256_mullo_epi32(h, w));
    }
    const __m128i q = _mm_add_epi32(_mm256_castsi256_si128(out), _mm256_extracti128_si256(out, 1));
    const __m128i r2 = _mm_hadd_epi32(q, q);
    return _mm_cvtsi128_si32(_mm_hadd_epi32(r2, r2));
}

__attribute__((target("avx2"))) int32_t nnue_layers_avx2(const int8_t *w2, const int32_t *b2, const int16_t *w3,
                                                         int l2, int n, const uint8_t *x)
{
    return layers(w2, b2, w3, l2, n, x);
}

/* One view's standing sum (nnue_views_avx2). Packing 32 sums to bytes
 * saturates them to 0-255 within each 128-bit half (the halves of the two
 * sources interleaved); the permute puts them back in order and the minimum
 * clips to 127. Inlined with constant sizes for the shipped nets. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) int32_t
view_avx2(const int16_t *a, const int8_t *w2, const int32_t *b2, const int16_t *w3, int l2, int n)
{
    _Alignas(32) uint8_t x[NNUE_MAX_L1];
    const __m256i top = _mm256_set1_epi8(127);
    for (int j = 0; j < n; j += 32) {
        const __m256i lo = _mm256_load_si256((const __m256i *)(a + j));
        const __m256i hi = _mm256_load_si256((const __m256i *)(a + j + 16));
        const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
        _mm256_store_si256((__m256i *)(x + j), _mm256_min_epu8(packed, top));
    }
    return layers(w2, b2, w3, l2, n, x);
}

__attribute__((target("avx2"))) void nnue_views_avx2(const int16_t (*a)[NNUE_MAX_L1], int views, int mover,
                                                     const int8_t *w2, const int32_t *b2, const int16_t *w3, int l2,
                                                     int n, int32_t *sums)
{
    for (int i = 0; i < views; i++) {
        const int k = nnue_bucket(i, mover, views);
        const int8_t *w = w2 + (size_t)k * l2 * n;
        if (n == 32 && l2 == 8) /* the shipped nets' size: constant sizes, the loops unrolled */
            sums[i] = view_avx2(a[i], w, b2 + (size_t)k * 8, w3 + (size_t)k * 8, 8, 32);
        else
            sums[i] = view_avx2(a[i], w, b2 + (size_t)k * l2, w3 + (size_t)k * l2, l2, n);
    }
}
#endif
