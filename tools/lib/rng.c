/* rng.c - the tools' random numbers; see rng.h. */
#include "rng.h"

uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int rng_below(uint64_t *state, int n)
{
    return (int)(((rng_next(state) >> 32) * (uint64_t)n) >> 32);
}

uint32_t rng_mmix(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

unsigned rng_ansi(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 16;
}
