/*
 * solve.h - the `solve` command: each seat's fewest own moves to arrive,
 * found exactly by the race solver (race.h), with the proof's size. Every
 * seat still playing is solved with the other marbles where they stand (as
 * obstacles and ladders); with two seats whose armies are past each other
 * (race_separated) each army alone, and the result follows from the reply rule.
 */
#ifndef STERN_SOLVE_H
#define STERN_SOLVE_H

#include "game.h"

#include <stdatomic.h>
#include <stdint.h>

#define SOLVE_DEFAULT_NODES 10000000 /* positions per seat a solve may take */

/* Receives each line of solve output, without newline. */
typedef void (*SolveOutput)(const char *line, void *ctx);

/* Solves every seat of g still playing (race variants; g not over), at most
 * `node_limit` positions each, until `stop` is set, writing one line a seat,
 * in turn order:
 *   solve <seat> moves <n> nodes <k> time <ms> pv <own moves>
 *   solve <seat> none nodes <k> time <ms>          (no arrival within 64 moves)
 *   solve <seat> unsolved nodes <k> time <ms> (<why>) (stopped, over the limit, no memory)
 * and, with two seats past each other and both solved, a last line
 *   solve result <seat> wins|draw|loses (<a> against <b>)
 * naming the seat to move's result. */
void solve_run(const Game *g, uint64_t node_limit, const atomic_bool *stop, SolveOutput out, void *ctx);

#endif
