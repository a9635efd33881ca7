/*
 * race_root.h - the exact race solver (race.h) at the root of a two-seat search,
 * once the armies are past each other.
 */
#ifndef STERN_RACE_ROOT_H
#define STERN_RACE_ROOT_H

#include "worker.h"

/* Solves the race of c's root when it applies: each army's fewest moves to
 * arrive, the result from the reply rule. Returns true with the line (*pvlen
 * moves, checked on the board, the first the best move), the root seat's score
 * (mate score, or 0 for a draw), the solver's nodes and each army's moves
 * (moves[0] the side to move's); false when it does not apply or a solve runs
 * over its node limit. */
bool race_root(SearchContext *c, Move *pv, int *pvlen, int *score, uint64_t *nodes, int *moves);

/* With three or more seats: when c's root seat is past every other seat still
 * playing (race_past_others), solves its fewest own moves to arrive with their
 * armies lifted off. Returns true with the first move of an optimal line in
 * *best (the whole line checked on the real board, the other pieces standing
 * still) and the own moves to arrive in *moves; false when it does not apply,
 * the seat has arrived, a line is blocked on the real board, the real board has
 * a shorter line (a chain over the other armies' marbles, which the solve lifts
 * off) or a solve runs over its node limit. */
bool race_root_alone(SearchContext *c, Move *best, int *moves);

#endif
