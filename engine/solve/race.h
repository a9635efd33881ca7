/*
 * race.h - exact single-army race solver: the fewest own moves that bring
 * every marble of one seat into its target while every other piece on the board
 * stays where it is. This is the whole game once the armies can no longer meet
 * (a "race"), and the solitaire crossing of the empty board.
 *
 * Algorithm: IDA* (Korf 1985, "Depth-first iterative-deepening: an optimal
 * admissible tree search") with a transposition table of failed budgets, over the
 * seat's own moves as movegen.h generates them (steps and jump chains with the
 * foreign-point rule and the target lock). The admissible bound is ours: along the
 * seat's travel axis (rows 1-17, home tip to target tip) a move can land at most
 * one row beyond the farthest marble other than the mover, so the front row grows
 * by at most one per move, and - moves being reversible - the rear row too; see
 * race_lower_bound(). Under the long and symmetric jump rules a jump can land
 * farther, and only the count of marbles still to enter the target is used. Bell (2009, "The shortest game of Chinese Checkers and
 * related problems", INTEGERS 9 G01) proved the 27-move optimum of the crossing
 * by other means (A* and bidirectional search); we use it only as a check.
 */
#ifndef STERN_RACE_H
#define STERN_RACE_H

#include "position.h"

#include <stdatomic.h>

#define RACE_MAX_MOVES 64 /* longest solution searched for */

typedef struct {
    uint64_t nodes;     /* positions expanded (move lists generated) */
    uint64_t tt_cuts;   /* subtrees skipped because the table knew they fail */
    int bound;          /* last budget tried (moves) */
} RaceStats;

/* The row (1-17) of hole h (0-120) on seat s's travel axis: 1 at the tip of its
 * home point, 17 at the tip of its target point; holes one step apart differ by
 * at most one row. */
int race_row(int s, int h);

/* An admissible lower bound (own moves) on what race_solve() returns for seat s in
 * p: never more than the true number. 0 exactly when s has arrived as race_solve
 * counts it; RACE_MAX_MOVES + 1 when arrival is impossible by the counting below
 * (more own marbles than free target holes and no deadline-full rule). */
int race_lower_bound(const Position *p, int s);

/* The fewest own moves of seat s (any seat of p's variant, race variants only) to
 * arrive: all its marbles in its target, or - from its exit deadline on (its move
 * count p->moves[s] plus the moves made) - every target hole full with at least
 * one of its own. Only s moves; the other pieces are fixed obstacles and ladders.
 * Moves that bring a marble from outside its home into it are not made from the
 * deadline on (they eliminate the seat, RULES.md section 5).
 * max_moves: largest answer looked for (at most RACE_MAX_MOVES). table_mib: size
 * of the transposition table in MiB (0: none). node_limit: positions expanded
 * before giving up (0: no limit). stop: when non-NULL and set, the search gives up. pv: when non-NULL, receives the moves of one optimal solution
 * (room for max_moves). stats: when non-NULL, filled in.
 * Returns the number of moves (0: already arrived), -1 when there is no solution
 * within max_moves, -2 when stopped, over the node limit or out of memory. */
int race_solve(const Position *p, int s, int max_moves, int table_mib, uint64_t node_limit, const atomic_bool *stop,
               Move *pv, RaceStats *stats);

/* Like race_solve(), but tries budgets from min_moves on instead of from the
 * lower bound: the answer is then a solution of at most that many moves, optimal
 * only when min_moves <= the true optimum is known. Used to find long solutions
 * without first refuting every shorter budget. */
int race_solve_from(const Position *p, int s, int min_moves, int max_moves, int table_mib, uint64_t node_limit,
                    const atomic_bool *stop, Move *pv, RaceStats *stats);

/* Two-seat race variants (short jumps, no Masters swap): whether the armies are
 * past each other in p - every marble of one seat on a higher row of its axis
 * than every marble of the other (race_row), each seat's marbles all out of its
 * home, the game not over - so that neither can reach the other again without
 * moving backward. Then each seat's fastest arrival is race_solve() of its army
 * alone, on the assumption (ours, not proven) that moving backward never pays. */
bool race_separated(const Position *p);

/* Race variants of three or more seats (short jumps, no teams, no Masters swap):
 * whether seat s (playing) is past every other seat still playing in p - s's
 * marbles all out of its home, and every row of s's axis (race_row) that another
 * playing seat's marbles or target holes cover below the nearest row of s's
 * marbles - so that no other marble comes near s's again moving forward: a
 * forward move of a seat whose axis is 60 degrees from s's climbs s's rows by at
 * most one and never past its target's, of one 120 or 180 degrees away never.
 * Then s's fastest arrival is race_solve() with those armies lifted off (seats
 * that have arrived keep their marbles: they no longer move), on the assumption
 * of race_separated() that moving backward never pays. */
bool race_past_others(const Position *p, int s);

/* The result of a two-seat race under the reply rule (RULES.md section 6) for
 * the side to move, seat `stm` of variant v, when it needs a own moves to
 * arrive and the other seat b: 1 win, 0 draw, -1 loss; *plies gets the plies
 * until the game ends. The first seat wins when a < b and draws when a == b;
 * the second wins when a <= b and draws when a == b + 1. */
int race_outcome(const Variant *v, int stm, int a, int b, int *plies);

/* Lifts seat s's marbles off p's board (board, occupancy and the seat's set;
 * nothing else of p changes): the other army of a race, or every other army of a
 * solitaire crossing. */
void race_remove_army(Position *p, int s);

#endif
