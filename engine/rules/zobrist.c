/* zobrist.c - deterministic Zobrist tables from XXH3; see zobrist.h. */
#include "zobrist.h"

#include <pthread.h>
#include <xxhash.h>

ZobristKeys zobrist;

#define ZOBRIST_SEED 0x535445524E /* "STERN" */

static void build(void)
{
    uint64_t *k = (uint64_t *)&zobrist;
    const size_t n = sizeof zobrist / sizeof *k;
    for (uint64_t i = 0; i < n; i++)
        k[i] = XXH3_64bits_withSeed(&i, sizeof i, ZOBRIST_SEED);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

void zobrist_init(void) { pthread_once(&once, build); }
