/*
 * ssse3.c - the SSSE3 path's steps (net.h): the forward pass's, compiled for
 * SSSE3 whatever the build's -march, and the first layer's update, by SSE2
 * (every x86-64 has it); forward.c and accumulator.c call them only where the
 * CPU has SSSE3.
 */
#include "net.h"

#if NNUE_SIMD
#include <immintrin.h>

/* The clipped first layer 16 bytes at a time: packus saturates to 0-255,
 * then min 127 (exact: the sums are int16). */
__attribute__((target("ssse3"))) void nnue_clip_ssse3(const int16_t *a, int n, uint8_t *x)
{
    const __m128i top = _mm_set1_epi8(127);
    for (int j = 0; j < n; j += 16) {
        const __m128i lo = _mm_load_si128((const __m128i *)(a + j));
        const __m128i hi = _mm_load_si128((const __m128i *)(a + j + 8));
        _mm_store_si128((__m128i *)(x + j), _mm_min_epu8(_mm_packus_epi16(lo, hi), top));
    }
}

/* The second layer's sums, SSSE3: u8 x s8 pairs (_mm_maddubs_epi16: at
 * most 2 x 127 x 128 = 32512, so it never saturates), widened to int32 and
 * summed; each row ends in one horizontal add. */
__attribute__((target("ssse3"))) void nnue_affine_ssse3(const int8_t *w, const int32_t *b, int l2, int n,
                                                        const uint8_t *x, int32_t *h)
{
    const __m128i ones = _mm_set1_epi16(1);
    for (int k = 0; k < l2; k++) {
        const int8_t *row = w + (size_t)k * n;
        __m128i sum = _mm_setzero_si128();
        for (int j = 0; j < n; j += 16) {
            const __m128i prod = _mm_maddubs_epi16(_mm_load_si128((const __m128i *)(x + j)),
                                                   _mm_loadu_si128((const __m128i *)(row + j)));
            sum = _mm_add_epi32(sum, _mm_madd_epi16(prod, ones));
        }
        sum = _mm_hadd_epi32(sum, sum);
        sum = _mm_hadd_epi32(sum, sum);
        h[k] = b[k] + _mm_cvtsi128_si32(sum);
    }
}
#endif

#if NNUE_SIMD
/* One block of `regs` x 8 sums (the registers stay in the loop's registers:
 * regs is a constant at each call). */
static inline __attribute__((always_inline)) void rows_block_sse2(int16_t *dst, const int16_t *src,
                                                                  const int16_t *const *add, int na,
                                                                  const int16_t *const *sub, int ns, int j,
                                                                  int regs)
{
    __m128i a[8];
    for (int q = 0; q < regs; q++)
        a[q] = _mm_load_si128((const __m128i *)(src + j + 8 * q));
    for (int r = 0; r < na; r++)
        for (int q = 0; q < regs; q++)
            a[q] = _mm_add_epi16(a[q], _mm_loadu_si128((const __m128i *)(add[r] + j + 8 * q)));
    for (int r = 0; r < ns; r++)
        for (int q = 0; q < regs; q++)
            a[q] = _mm_sub_epi16(a[q], _mm_loadu_si128((const __m128i *)(sub[r] + j + 8 * q)));
    for (int q = 0; q < regs; q++)
        _mm_store_si128((__m128i *)(dst + j + 8 * q), a[q]);
}

/* Blocks of 64 sums (eight registers), then 32, then 16. */
void nnue_rows_sse2(int16_t *dst, const int16_t *src, const int16_t *const *add, int na, const int16_t *const *sub,
                    int ns, int l1)
{
    int j = 0;
    for (; j + 64 <= l1; j += 64)
        rows_block_sse2(dst, src, add, na, sub, ns, j, 8);
    if (j + 32 <= l1) {
        rows_block_sse2(dst, src, add, na, sub, ns, j, 4);
        j += 32;
    }
    if (j < l1)
        rows_block_sse2(dst, src, add, na, sub, ns, j, 2);
}
#endif

#if NNUE_SIMD
void nnue_move_sse2(int16_t *dst, const int16_t *src, const int16_t *add, const int16_t *sub, int l1)
{
    for (int j = 0; j < l1; j += 8) {
        const __m128i a = _mm_add_epi16(_mm_load_si128((const __m128i *)(src + j)),
                                        _mm_loadu_si128((const __m128i *)(add + j)));
        _mm_store_si128((__m128i *)(dst + j), _mm_sub_epi16(a, _mm_loadu_si128((const __m128i *)(sub + j))));
    }
}
#endif
