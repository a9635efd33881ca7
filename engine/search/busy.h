/*
 * busy.h - the table of child positions some thread is searching right now,
 * through which the threads of one search put off each other's moves (ABDADA's
 * deferral, Weill 1996: "The ABDADA distributed minimax search algorithm").
 * One table per search session (session.h); a slot holds the Zobrist key of a
 * child while a thread searches it, 0 when free. Lossy by design: two children
 * may share a slot, and then one of them is merely not put off.
 */
#ifndef STERN_BUSY_H
#define STERN_BUSY_H

#include <stdatomic.h>
#include <stdint.h>

#ifndef DEFER_MIN_DEPTH
#define DEFER_MIN_DEPTH 3 /* remaining plies from which threads defer busy moves */
#endif
#define MAX_MOVES_DEFERRED 64 /* moves one node puts off at most */
#define BUSY_BITS 12          /* 4,096 slots: 32 KiB */

typedef struct BusyTable {
    _Atomic uint64_t slot[1 << BUSY_BITS];
} BusyTable;

/* The slot of b for child key `key` (the key's top BUSY_BITS bits). */
static inline _Atomic uint64_t *busy_slot(BusyTable *b, uint64_t key)
{
    return &b->slot[key >> (64 - BUSY_BITS)];
}

#endif
