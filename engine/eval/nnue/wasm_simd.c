/*
 * wasm_simd.c - the forward pass's steps and the first layer's update (net.h)
 * in WebAssembly SIMD128, for the WebAssembly builds (docs/WEB.md), where they
 * stand in for plain C's loops: the same integer sums, so the same values as
 * every other path.
 */
#include "net.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

/* Signed 16-bit to 0-255 with saturation, then min 127: exact, the sums are
 * int16 (as nnue_clip_ssse3). */
void nnue_clip_wasm(const int16_t *a, int n, uint8_t *x)
{
    const v128_t top = wasm_u8x16_splat(127);
    for (int j = 0; j < n; j += 16) {
        const v128_t lo = wasm_v128_load(a + j), hi = wasm_v128_load(a + j + 8);
        wasm_v128_store(x + j, wasm_u8x16_min(wasm_u8x16_narrow_i16x8(lo, hi), top));
    }
}

/* Bytes widened to 16 bits, pairs multiplied and summed into 32-bit lanes
 * (i32x4.dot_i16x8_s: at most 2 x 127 x 128, exact), one horizontal sum a row. */
void nnue_affine_wasm(const int8_t *w, const int32_t *b, int l2, int n, const uint8_t *x, int32_t *h)
{
    for (int k = 0; k < l2; k++) {
        const int8_t *row = w + (size_t)k * n;
        v128_t sum = wasm_i32x4_splat(0);
        for (int j = 0; j < n; j += 16) {
            const v128_t xs = wasm_v128_load(x + j), ws = wasm_v128_load(row + j);
            sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(xs),
                                                           wasm_i16x8_extend_low_i8x16(ws)));
            sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(xs),
                                                           wasm_i16x8_extend_high_i8x16(ws)));
        }
        h[k] = b[k] + wasm_i32x4_extract_lane(sum, 0) + wasm_i32x4_extract_lane(sum, 1) +
               wasm_i32x4_extract_lane(sum, 2) + wasm_i32x4_extract_lane(sum, 3);
    }
}

/* One block of `regs` x 8 sums, kept in registers while every row is added
 * and taken away (as nnue_rows_sse2; regs is a constant at each call). */
static inline __attribute__((always_inline)) void rows_block(int16_t *dst, const int16_t *src,
                                                             const int16_t *const *add, int na,
                                                             const int16_t *const *sub, int ns, int j, int regs)
{
    v128_t a[8];
    for (int q = 0; q < regs; q++)
        a[q] = wasm_v128_load(src + j + 8 * q);
    for (int r = 0; r < na; r++)
        for (int q = 0; q < regs; q++)
            a[q] = wasm_i16x8_add(a[q], wasm_v128_load(add[r] + j + 8 * q));
    for (int r = 0; r < ns; r++)
        for (int q = 0; q < regs; q++)
            a[q] = wasm_i16x8_sub(a[q], wasm_v128_load(sub[r] + j + 8 * q));
    for (int q = 0; q < regs; q++)
        wasm_v128_store(dst + j + 8 * q, a[q]);
}

/* Blocks of 64 sums, then 32, then 16 (l1 is a multiple of 16). */
void nnue_rows_wasm(int16_t *dst, const int16_t *src, const int16_t *const *add, int na, const int16_t *const *sub,
                    int ns, int l1)
{
    int j = 0;
    for (; j + 64 <= l1; j += 64)
        rows_block(dst, src, add, na, sub, ns, j, 8);
    if (j + 32 <= l1) {
        rows_block(dst, src, add, na, sub, ns, j, 4);
        j += 32;
    }
    if (j < l1)
        rows_block(dst, src, add, na, sub, ns, j, 2);
}

void nnue_move_wasm(int16_t *dst, const int16_t *src, const int16_t *add, const int16_t *sub, int l1)
{
    for (int j = 0; j < l1; j += 8)
        wasm_v128_store(dst + j, wasm_i16x8_sub(wasm_i16x8_add(wasm_v128_load(src + j), wasm_v128_load(add + j)),
                                                wasm_v128_load(sub + j)));
}
#endif
