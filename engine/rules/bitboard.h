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

/* The set holding only hole h (0-120). */
static inline Bitboard bb_bit(int h) { return (Bitboard)1 << h; }

/* Whether hole h (0-120) is in b. */
static inline bool bb_test(Bitboard b, int h) { return (bool)((b >> h) & 1); }

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
