/*
 * places.h - what a position is worth to a seat in a game of three or more
 * units (seats, or teams), on the scale the search of those games maximises.
 *
 * The rating list rates such a game as one comparison with every other unit
 * (RULES.md section 10: a better place wins, the same place draws). The value
 * of seat s is therefore a sum over the other units o of one comparison each,
 * worth PAIR_UNIT:
 *   - decided (both placed, or one of them placed while the other is not:
 *     an arrival takes the best free place, an elimination the worst, so every
 *     unit still unplaced ends behind an arrived one and ahead of an eliminated
 *     one): +PAIR_UNIT ahead, -PAIR_UNIT behind, 0 for a shared place;
 *   - open (both unplaced): PAIR_UNIT x d / (|d| + scale), where d is s's
 *     standing minus o's (eval.h), a share strictly between -1 and +1.
 * So a place is worth more than any open standing of the same seat, a better
 * place strictly more, and an ending by repetition or the round limit is worth
 * exactly the ranking it gives. First place is scored as a mate (SCORE_MATE
 * less the plies to it); a seat that has arrived (not first) loses one point
 * per ply to its arrival, so that arriving sooner is preferred to arriving in
 * the same place later.
 */
#ifndef STERN_PLACES_H
#define STERN_PLACES_H

#include "eval.h"

/* The whole span of comparisons, cp-like units: (units - 1) x PAIR_UNIT. It
 * stays below SCORE_MATE_BOUND (eval.h) so that only first place is a mate. */
#define PLACE_SPAN 24000

/* Values of every seat in play of p (3 or more units; p may be over), `ply`
 * plies below the root, into out[seat] (seats not in play: 0). `bonus` is added
 * to the standing of the side to move's unit (a leaf's share of its best move;
 * 0 for none). Teams: both members get their team's value. `memo`: the
 * evaluation's (eval.h; NULL for none); with a version-2 net serving p's
 * variant the standings are the net's, its sums kept at `ply`
 * (eval_standings_ply). */
void places_values(const Position *p, int ply, int bonus, int out[MAX_SEATS], EvalMemo *memo);

/* places_values for seat s alone. */
int places_value_for(const Position *p, int s, int ply, int bonus, EvalMemo *memo);

/* places_value_for with bonus[u] (cp) added to the standing of each unit u
 * (indexed by the unit's first seat; 0 for none). */
int places_value_bonuses(const Position *p, int s, int ply, const int bonus[MAX_SEATS], EvalMemo *memo);

/* Leaves of paranoid and best-reply search in races of three seats without
 * teams or swaps: each seat in play gets this share (percent) of what its next
 * move could gain (movegen.h's gen_seat_best_progress, at W_DISTANCE a step) added
 * to its standing; the side to move the share two-seat leaves give it
 * (docs/STRENGTH.md), the other seats theirs. Measured: docs/MULTI.md. */
#ifndef LEAF_STEP_PCT_THREE
#define LEAF_STEP_PCT_THREE 44
#endif
#ifndef LEAF_NEXT_PCT_THREE
#define LEAF_NEXT_PCT_THREE 44
#endif

#endif
