/*
 * timeman.h - how long to think about one move, from the mover's clock, and the
 * clock of a running search (which starts at ponderhit when it ponders).
 */
#ifndef STERN_TIMEMAN_H
#define STERN_TIMEMAN_H

#include "types.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    int64_t soft_ms; /* do not start another iteration after this */
    int64_t hard_ms; /* stop the search at this point; -1 = no limit */
} TimeBudget;

/* Budget for a move given the mover's remaining time `time_ms` (-1 when the go
 * command gave none), increment `inc_ms`, `movestogo` (0 when not given), a fixed
 * `movetime_ms` (0 when not given), an estimate of the mover's moves still to play
 * `moves_left` (>= 1), and `overhead_ms` (the Move Overhead option: time lost in
 * transit per move). With neither clock nor movetime the budget is unlimited.
 * The scheme (a share of the reserve plus most of the increment, capped so that a
 * single move never takes more than a fraction of the reserve) follows common
 * practice in UCI engines such as Stockfish's timeman.cpp, which also keeps
 * overheads in hand (here four besides the move's own: a clock at or below five
 * overheads is played from at once, the increments refilling it). */
TimeBudget time_budget(int64_t time_ms, int64_t inc_ms, int movestogo, int64_t movetime_ms, int moves_left,
                       int64_t overhead_ms);

/* Own moves the side to move in p (not over) still expects to make, >= 1: from
 * its distance to go in a race, from the pieces left in capture mode. */
int moves_left_estimate(const Position *p);

/* Milliseconds, and microseconds, of a monotonic clock. */
int64_t now_ms(void);
int64_t now_us(void);

/* The nodes a search has searched so far (all its threads), for a clock that
 * counts nodes (clock_count_nodes). */
typedef uint64_t (*ClockNodes)(const void *ctx);

/* The clock of one search. */
typedef struct {
    int64_t start_ms;          /* now_ms() at the go: the time reported counts from it */
    int64_t start_us;          /* now_us() then: the nps reported */
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

/* When c's budget clock started (now_ms() time), or -1 while it ponders. Any
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
