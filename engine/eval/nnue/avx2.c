/*
 * avx2.c - the forward pass's second layer by AVX2 (net.h), compiled for AVX2
 * whatever the build's -march; forward.c calls it only where the CPU has it.
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

/* The same as nnue_affine_ssse3 with AVX2, 32 bytes at a time, four rows
 * summed across at once. */
__attribute__((target("avx2"))) void nnue_affine_avx2(const int8_t *w, const int32_t *b, int l2, int n,
                                                      const uint8_t *x, int32_t *h)
{
    int k = 0;
    for (; k + 4 <= l2; k += 4) {
        __m256i s[4];
        for (int r = 0; r < 4; r++)
            s[r] = row_avx2(w + (size_t)(k + r) * n, x, n);
        /* lanes of the four rows' sums, then the two 128-bit halves added */
        const __m256i a = _mm256_hadd_epi32(_mm256_hadd_epi32(s[0], s[1]), _mm256_hadd_epi32(s[2], s[3]));
        const __m128i four = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        _mm_storeu_si128((__m128i *)(h + k), _mm_add_epi32(four, _mm_loadu_si128((const __m128i *)(b + k))));
    }
    for (; k < l2; k++) {
        const __m256i sum = row_avx2(w + (size_t)k * n, x, n);
        const __m128i q = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        const __m128i r2 = _mm_hadd_epi32(q, q);
        h[k] = b[k] + _mm_cvtsi128_si32(_mm_hadd_epi32(r2, r2));
    }
}
#endif
