/*
 * game.h - a game: the variant, the start position, the moves played and the
 * history of Zobrist keys that threefold repetition (RULES.md section 6) needs.
 */
#ifndef STERN_GAME_H
#define STERN_GAME_H

#include "movegen.h"
#include "position.h"

#define GAME_MAX_PLIES 2048 /* 150 rounds x 6 seats = 900 moves at most */

typedef struct Game {
    const Variant *v;                    /* variant_find's entry: a Game copies as plain data */
    Position start;                      /* where the game (or `position`) began */
    Position pos;                        /* the current position */
    int nplies;                          /* moves played since start */
    Move moves[GAME_MAX_PLIES];
    uint64_t keys[GAME_MAX_PLIES + 1];   /* keys[i]: key after i moves; keys[0] = start */
} Game;

/* Starts a game of variant `name` from its start position. Returns 0, or -1 for an
 * unknown variant (*g unchanged). */
int game_new(Game *g, const char *name);

/* Puts g (its start and current positions) under the rules of v, which must
 * outlive it: a variant changed from a standard one, e.g. without the
 * foreign-point rule (variant_find's entries are shared and never change). */
void game_set_variant(Game *g, const Variant *v);

/* Starts a game of g's variant from `fen`. Returns 0, or -1 with a message in err
 * (g unchanged). */
int game_set_fen(Game *g, const char *fen, char *err, size_t errlen);

/* Plays legal move m and ends the game on the third occurrence of a position.
 * Returns 0, or -1 when the game is over or the history is full (g unchanged). */
int game_play(Game *g, const Move *m);

/* How many times the current position has occurred (1 the first time). */
int game_occurrences(const Game *g);

#endif
