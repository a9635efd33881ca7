/*
 * greedy.h - the one-ply greedy policy: the side to move plays the legal move
 * whose position is best for it at one ply (the place it secures, or else the
 * static evaluation eval_for), the first such move in generation order
 * (gen_moves) on ties. Never its own elimination while another move exists.
 * `build/stern-greedy` plays it; the opponent model (opponents.h) predicts
 * the seats that play it.
 */
#ifndef STERN_GREEDY_H
#define STERN_GREEDY_H

#include "eval.h"
#include "movegen.h"

/* One-ply value of legal move m for p's side to move (p not over): -SCORE_MATE
 * for its own elimination, SCORE_MATE - place for an arrival, a finished game's
 * places as +-SCORE_MATE x (balance of comparisons) / (units - 1), else
 * eval_for after the move (centi-moves). keys[0..nkeys): the keys of the
 * game's positions so far, for the repetition rule (a move that makes a third
 * occurrence ends the game); NULL and 0 for none. memo: eval.h's (NULL: none). */
int greedy_move_value(const Position *p, const Move *m, const uint64_t *keys, int nkeys, EvalMemo *memo);

/* The greedy move of p's side to move into *best and its value into *value
 * (may be NULL); `list` is scratch for the moves, `gen` and `memo` the memos
 * (NULL: none). Returns false, *best unchanged, when the game is over or the
 * side to move has no legal move. */
bool greedy_choose(const Position *p, const uint64_t *keys, int nkeys, MoveList *list, GenMemo *gen, EvalMemo *memo,
                   Move *best, int *value);

#endif
