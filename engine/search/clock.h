/*
 * clock.h - the clock of a running search: when it started (at ponderhit when
 * it ponders), whether its budget (timeman.h) is used up, in time or, with
 * nodestime, in nodes; and the monotonic time the engine reads.
 */
#ifndef STERN_CLOCK_H
#define STERN_CLOCK_H

#include "timeman.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Milliseconds, and microseconds, of a monotonic clock. */
int64_t clock_now_ms(void);
int64_t clock_now_us(void);

/* The nodes a search has searched so far (all its threads), for a clock that
 * counts nodes (clock_count_nodes). */
typedef uint64_t (*ClockNodes)(const void *ctx);

/* The clock of one search. */
typedef struct {
    int64_t start_ms;          /* clock_now_ms() at the go: the time reported counts from it */
    int64_t start_us;          /* clock_now_us() then: the nps reported */
    _Atomic int64_t clock_ms;  /* when the budget's clock started; -1 while pondering */
    TimeBudget budget;
    bool infinite;             /* go infinite: no limit applies */
    const atomic_bool *ponderhit;
    int64_t nodestime;         /* > 0: the budget runs in nodes, this many a millisecond */
    ClockNodes nodes;          /* with nodestime: the search's nodes so far */
    const void *nodes_ctx;
} SearchClock;

/* Starts clock c at the go, with `budget`; a ponder search's budget clock waits
 * for *ponderhit. */
void clock_init(SearchClock *c, TimeBudget budget, bool ponder, bool infinite, const atomic_bool *ponderhit);

/* Makes c count its budget in nodes instead of time (the nodestime option, as
 * Stockfish's): every millisecond of the budget is `nodestime` (> 0) nodes of
 * the search, read from nodes(ctx), so that a movetime or clock search stops
 * after the same nodes on any machine (a rating run with a fixed budget). The
 * time and nps reported stay real time. */
void clock_count_nodes(SearchClock *c, int64_t nodestime, ClockNodes nodes, const void *ctx);

/* When c's budget clock started (clock_now_ms() time), or -1 while it ponders. Any
 * thread may ask: the first to see ponderhit starts it. */
int64_t clock_start(SearchClock *c);

/* Whether c ponders (no ponderhit yet). */
static inline bool clock_pondering(SearchClock *c) { return clock_start(c) < 0; }

/* Whether c's budget clock has run `limit_ms` (its soft or hard limit; -1: none):
 * that many milliseconds since it started, or with nodestime that many times
 * nodestime nodes of the search (a ponder search's nodes before ponderhit
 * count too). Never for an infinite search, nor while pondering. */
bool clock_past(SearchClock *c, int64_t limit_ms);

#endif
