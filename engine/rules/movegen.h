/*
 * movegen.h - legal moves (RULES.md sections 3, 8, 9): steps and jump chains under
 * the short, long and symmetric jump rules with the foreign-point and target-lock
 * restrictions, Masters swaps, and capture-mode chains. One move per distinct
 * resulting position.
 */
#ifndef STERN_MOVEGEN_H
#define STERN_MOVEGEN_H

#include "move_list.h"
#include "types.h"

/* What move generation remembers between calls of one thread: each marble's
 * step and jump ends per seat (race games under the short jump rule, reused
 * while the holes they were read from hold the same), the chain buffers of
 * capture mode, and an abort hook. A search thread keeps one; a call given NULL
 * remembers nothing, takes buffers for itself and cannot be aborted. Results
 * never depend on the memo. */
typedef struct GenMemo GenMemo;

/* A new memo (NULL when out of memory), and its deletion (NULL is ignored). */
GenMemo *gen_memo_new(void);
void gen_memo_delete(GenMemo *memo);

/* While fn is set, capture-mode generation with `memo` (gen_moves,
 * gen_count, gen_best_capture) calls fn(arg) every few thousand chain states and
 * stops when it returns true, setting the list's `cut` (gen_count returns
 * -1). A search sets it to watch its stop flag and clock; NULL clears it. */
void gen_memo_set_abort(GenMemo *memo, bool (*fn)(void *arg), void *arg);

/* For an abort hook: the chain states (about the moves found) of the
 * capture-mode generation in progress through memo, as of the hook's call, so
 * that a hook can bound one position's generation (a lattice of a capture game
 * can have hundreds of millions of moves). */
int64_t gen_memo_states(const GenMemo *memo);

/* Fills *list with the legal moves of the side to move in p, ordered by start hole
 * then end hole (in capture mode, chains with equal ends in depth-first order).
 * Empty when the game is over. Capture mode: one move per (start, end, captured
 * set), by start hole, then by number of captures; visits each chain state once.
 * list->cut tells whether the list is short (see gen_memo_set_abort). */
void gen_moves(const Position *p, MoveList *list, GenMemo *memo);

/* gen_moves without the race moves that bring a marble from outside its home
 * back into it, unless they are all the side to move has (then the whole list).
 * The search never needs them: such a marble must leave again before the exit
 * deadline (RULES.md section 5). Same order as gen_moves; capture mode: the same
 * list. */
void gen_moves_no_return(const Position *p, MoveList *list, GenMemo *memo);

/* The most any legal move of the side to move in p brings a marble nearer, in
 * steps of `dist` (a per-hole distance in steps, >= 0, that differs by at most 1
 * between neighbouring holes, e.g. Variant.tip_dist of any seat):
 * max over moves of dist[from] - dist[to], or 0 when no move gains (or the game
 * is over). Equals that maximum over gen_moves' list; capture and Masters
 * positions build the list in *scratch, race positions read the marbles' ends
 * (through memo, when given) without one. */
int gen_best_progress(const Position *p, const uint8_t dist[NUM_HOLES], MoveList *scratch, GenMemo *memo);

/* Progress of move m of seat `mover` in p toward its target, in steps of the
 * mover's tip distance (negative: backward). */
static inline int move_progress(const Position *p, int mover, const Move *m)
{
    const uint8_t *tip = p->v->tip_dist[mover];
    return tip[m->from] - tip[m->to];
}

/* Race positions without Masters swaps: gen_best_progress for the marbles of seat
 * s (any seat in play, to move or not), as if s were to move: what s could gain
 * on its next move were the board left as it is. */
int gen_seat_best_progress(const Position *p, int s, const uint8_t dist[NUM_HOLES], GenMemo *memo);

/* Number of legal moves of the side to move in p (0 when over); equals the n of
 * gen_moves without building the list (perft bulk counting). -1 when
 * generation was stopped (gen_memo_set_abort) or memory ran out. */
int64_t gen_count(const Position *p, GenMemo *memo);

/* Capture mode: the most pieces one legal move of the side to move captures
 * (0 when none, or not capture mode); -1 when stopped as gen_count is. */
int gen_best_capture(const Position *p, GenMemo *memo);

/* One legal move of the side to move in p, found without allocating memory
 * (the answer of a search that could not get any): the first by start hole,
 * a single jump in capture mode. False when the game is over or there is none. */
bool gen_first_legal(const Position *p, Move *out);

/* Race games: the holes (0-120) where the marble of seat s on hole `from` can end a
 * step or jump chain, Masters swaps excluded. */
Bitboard gen_destinations(const Position *p, int s, int from);

/* Race games without Masters swaps: whether the side to move in p has the move
 * from -> to (holes 0-120): its marble on `from` can end a step or jump chain on
 * `to`, through memo as gen_moves reads it. False when the game is over or
 * either hole is out of range. */
bool gen_race_move_exists(const Position *p, int from, int to, GenMemo *memo);

/* Whether the marble of seat s on hole `from` can end a step or jump chain on a
 * hole of `want` (gen_destinations(...) & want, without the whole set), with
 * the mailbox `board` and occupancy `occ` (which must agree; the marble on
 * `from` on both) standing in for p's, e.g. with some marbles lifted off. When
 * `area` is not NULL, *area receives holes on which the answer rests: on any
 * board agreeing with `occ` there (same variant and seat), the answer is the
 * same. For a yes, the step's empty hole or the chain's jumped and landing holes
 * that prove it; for a no, every hole the flood read. */
bool gen_reaches(const Position *p, const uint8_t *board, Bitboard occ, int s, int from, Bitboard want,
                    Bitboard *area);

/* Whether an answer read from the holes `area` (0: no answer yet) when the
 * occupancy was `was` still holds at occupancy `now`: the holes it read hold
 * what they held (the memos of movegen.c and eval.c). */
static inline bool area_answer_holds(Bitboard area, Bitboard was, Bitboard now)
{
    return area && !((was ^ now) & area);
}

/* Whether gen_count may be answered marble by marble from gen_count_area
 * (race games under the short jump rule without Masters swaps). */
static inline bool count_by_area(const Variant *v)
{
    return !v->capture && !v->masters && v->jump == JUMP_SHORT;
}

/* For a variant with count_by_area: the number of moves of the marble of seat s
 * on hole `from`, and in *area every hole whose occupancy the answer was read
 * from. On any board that agrees with p's occupancy on *area, the marble has the
 * same number of moves (the same reads give the same answers). */
int gen_count_area(const Position *p, int s, int from, Bitboard *area);

/* Whether the marble of seat s on hole `from` has any legal move (swaps included);
 * a marble in its home is trapped (RULES.md section 5) when this is false. */
bool gen_can_move(const Position *p, int s, int from);

/* The landings of the jumps from hole c in direction d (0-5) under jump rule
 * `rule`, given occupancy `occ` (the moving marble already lifted off its start).
 * Writes them (nearest first) to land[] (MAX_LINE entries) and, for each, the hole
 * of the marble jumped over to over[] (for the symmetric rule: the nearest marble).
 * Landings must be empty. Returns the number of landings. */
int gen_jump_landings(JumpRule rule, Bitboard occ, int c, int d, uint8_t land[], uint8_t over[]);

#endif
