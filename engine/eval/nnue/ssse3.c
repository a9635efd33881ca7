/*
 * ssse3.c - the forward pass's SSSE3 steps (net.h), compiled for SSSE3 whatever
 * the build's -march; forward.c calls them only where the CPU has it.
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
