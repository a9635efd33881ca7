/*
 * timeman.h - how long to think about one move, from the mover's clock (the
 * clock of a running search is clock.h).
 */
#ifndef STERN_TIMEMAN_H
#define STERN_TIMEMAN_H

#include "types.h"

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
TimeBudget timeman_budget(int64_t time_ms, int64_t inc_ms, int movestogo, int64_t movetime_ms, int moves_left,
                       int64_t overhead_ms);

/* Own moves the side to move in p (not over) still expects to make, >= 1: from
 * its distance to go in a race, from the pieces left in capture mode. */
int timeman_moves_left(const Position *p);

#endif
