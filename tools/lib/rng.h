/*
 * rng.h - the tools' random numbers, from a seed the caller keeps (the same
 * seed, the same numbers, on every machine): no tool writes a generator of its
 * own.
 *
 * rng_next is the generator: SplitMix64 (Steele, Lea, Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), a good 64-bit mix from any
 * seed, even 0 or consecutive ones; rng_below draws from it uniformly. It
 * serves the arena's random openings, the ratings' bootstrap and the training
 * data of stern-datagen (which `make net` makes again byte for byte).
 *
 * Two linear congruential generators stay beside it for the tools whose
 * recorded outputs came from them and must come out the same: rng_mmix for
 * `stern-suite make` (the shipped suites/, see suites/MAKE), stern-greedy's
 * -random moves and stern-capture-model (docs/MULTI.md's figures); rng_ansi
 * for stern-play's -random opening moves. New code uses rng_next.
 */
#ifndef STERN_RNG_H
#define STERN_RNG_H

#include <stdint.h>

/* The next number of SplitMix64 from *state (advanced). */
uint64_t rng_next(uint64_t *state);

/* A uniform integer in 0..n-1 (0 < n < 2^32) from rng_next: Lemire's
 * multiply-shift range reduction of its high 32 bits. */
int rng_below(uint64_t *state, int n);

/* The next number of Knuth's MMIX linear congruential generator
 * (6364136223846793005 x + 1442695040888963407 mod 2^64): its high 31 bits. */
uint32_t rng_mmix(uint64_t *state);

/* The next number of the C standard's example rand() (1103515245 x + 12345
 * mod 2^32): its high 16 bits. */
unsigned rng_ansi(unsigned *state);

#endif
