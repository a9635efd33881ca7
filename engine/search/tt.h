/*
 * tt.h - the transposition table: 64-byte buckets of 4 entries shared by all
 * search threads without locks. Each entry stores key ^ data beside data, so a torn
 * write by two threads fails the key check instead of returning wrong data (the
 * "lockless hashing" of Hyatt and Mann, ICGA Journal 25(1), 2002).
 */
#ifndef STERN_TT_H
#define STERN_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

typedef struct {
    uint32_t move;  /* movepick_move_code (movepick.h) of the best move, 0 for none */
    int16_t score;  /* from the side to move's view; mate scores relative to this node */
    int8_t depth;   /* plies, 0-127 (7 bits in the table) */
    uint8_t bound;  /* BOUND_* */
} TTData;

/* A table: one per search session (session.h), shared by that session's
 * threads; two tables never share anything. */
typedef struct TT TT;

/* A table with no entries and no memory yet (tt_resize gives it its memory);
 * NULL when out of memory. */
TT *tt_new(void);

/* Ends t's warm-up, gives back its memory and frees it (NULL is ignored). */
void tt_delete(TT *t);

/* Whether t has its memory (tt_resize succeeded once). Probes and stores need it. */
bool tt_allocated(const TT *t);

/* Resizes t to `mib` MiB (1-65536), rounded down to a power-of-two number of
 * buckets, and clears it. Returns 0, or -1 when the memory cannot be had (the
 * old table is kept). Not thread-safe: call with no search running. Returns at
 * once at any size: a table of at most 1024 MiB is then touched page by page by
 * a background thread (the warm-up), so that its page faults are not paid
 * during the first searches; a larger one fills as the searches touch it. */
int tt_resize(TT *t, size_t mib);

/* Clears every entry (no search running), at once at any size; the warm-up
 * touches the table again, as after tt_resize. Nothing to do before the first
 * tt_resize. */
void tt_clear(TT *t);

/* Bytes of t the current warm-up has touched so far: the whole table once it
 * is done, 0 for a table too large to warm (for tests). */
size_t tt_warmed(const TT *t);

/* Starts a new search generation (entries of older searches are replaced first). */
void tt_new_search(TT *t);

/* Looks up `key`; returns true and fills *out on a hit. */
bool tt_probe(const TT *t, uint64_t key, TTData *out);

/* Starts loading the bucket of `key` into the cache, for a tt_probe soon after
 * (a hint only: no effect on results). */
void tt_prefetch(const TT *t, uint64_t key);

/* Stores data for `key`, replacing the same key or the least valuable entry of
 * its bucket (shallowest, oldest). */
void tt_store(TT *t, uint64_t key, const TTData *data);

/* Permill of the first 1,000 entries (250 buckets) used by the current search. */
int tt_hashfull(const TT *t);

#endif
