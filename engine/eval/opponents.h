/*
 * opponents.h - the opponent model: which other seats of a game play the
 * one-ply greedy policy (greedy.h), as far as the game's record shows: a seat
 * is modelled when each of its last OPPONENT_WINDOW moves there was the greedy
 * policy's choice in its position; one move off the policy and it is not. In a
 * race the record must hold that many moves of the seat (a search often plays
 * the greedy move, and a seat yet to move shows nothing); in capture mode, a
 * short game, fewer do (none, before the seat has moved). The search then expects the greedy
 * move of a modelled seat instead of searching its moves (opponent-model
 * search: Carmel and Markovitch 1996; Donkers 2003), so its own moves are
 * searched that much deeper. A seat that plays otherwise (a search, a human)
 * leaves the model at its first such move.
 */
#ifndef STERN_OPPONENTS_H
#define STERN_OPPONENTS_H

#include "eval.h"
#include "game.h"

#define OPPONENT_WINDOW 8 /* the last own moves of a seat that must all be greedy */

/* Bit s set for each seat s of p in play other than the side to move and its
 * partner: the seats the model can mark (0 when the game is over). */
unsigned opponents_in_play(const Position *p);

/* Bit s set for each seat s of g in play, other than the side to move and its
 * partner, whose record is greedy as above (in capture mode a seat yet to move
 * included: with five seats to move between two of its own, the first guess
 * matters). `list` is scratch; `gen` and `memo`
 * the memos (NULL: none). 0 when the game is over. The cost is at most
 * OPPONENT_WINDOW greedy choices per seat. */
unsigned opponents_greedy(const Game *g, MoveList *list, GenMemo *gen, EvalMemo *memo);

#endif
