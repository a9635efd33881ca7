/*
 * bitboard.h - 128-bit sets of holes.
 *
 * Layout: bit h stands for hole h, with holes numbered 0-120 in the FEN order of
 * PROTOCOL.md (row 17 down to row 1, left to right in each row; e17 = 0, m1 = 120).
 * Why not a shift-friendly layout: no linear map (a*q + b*r) of the 121 holes is
 * injective modulo 128 (checked by exhaustive search over a, b), and the smallest
 * injective linear layout spans 177 bits, i.e. three words per shift. Sets therefore
 * use the FEN order (so set order = list order for output) and the geometry lives in
 * precomputed neighbour/jump tables (board.h); move generation floods per marble.
 */
#ifndef STERN_BITBOARD_H
#define STERN_BITBOARD_H

#include <stdbool.h>
#include <stdint.h>

typedef unsigned __int128 Bitboard;

#define NUM_HOLES 121
#define NO_HOLE 255

/* bb_bit: the set holding only hole h (0-120). bb_test: whether hole h
 * (0-120) is in b. WebAssembly has no 128-bit shift: a shift by a variable
 * amount is a call there (__ashlti3, __lshrti3), so its two work on the
 * 64-bit halves; natively the compiler's shift (shld, shrd) is as fast. */
#if defined(__wasm__)
static inline Bitboard bb_bit(int h)
{
    const uint64_t lo = (uint64_t)(h < 64) << (h & 63), hi = (uint64_t)(h >= 64) << (h & 63);
    return (Bitboard)hi << 64 | lo;
}

static inline bool bb_test(Bitboard b, int h)
{
    return (bool)(((h < 64 ? (uint64_t)b : (uint64_t)(b >> 64)) >> (h & 63)) & 1);
}
#else
static inline Bitboard bb_bit(int h) { return (Bitboard)1 << h; }

static inline bool bb_test(Bitboard b, int h) { return (bool)((b >> h) & 1); }
#endif

/* Word w of b (0: holes 0-63, 1: holes 64-120): a select, not a shift by 64 x w
 * (a call in WebAssembly, above). */
static inline uint64_t bb_word(Bitboard b, int w) { return w ? (uint64_t)(b >> 64) : (uint64_t)b; }

/* Number of holes in b. */
static inline int bb_count(Bitboard b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}

/* Lowest hole in b; b must not be empty. */
static inline int bb_first(Bitboard b)
{
    const uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

/* Highest hole in b; b must not be empty. */
static inline int bb_last(Bitboard b)
{
    const uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}

/* Removes and returns the lowest hole of *b; *b must not be empty. */
static inline int bb_pop(Bitboard *b)
{
    const int h = bb_first(*b);
    *b &= *b - 1;
    return h;
}

#endif
