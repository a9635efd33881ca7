/*
 * solo.h - the solo search: when every other seat plays a policy the opponent
 * model knows (opponents.h: the one-ply greedy policy), a game is a puzzle of
 * the side to move alone. Its own moves are searched depth first to the end
 * of the game, the other seats' moves played for them, and every line is
 * valued exactly by its final places (places.h); a line that places the side
 * to move first ends the search. Capture-mode games are short enough for it:
 * in capture-6 a whole game's own moves are searched in milliseconds.
 */
#ifndef STERN_SOLO_H
#define STERN_SOLO_H

#include "game.h"

#include <stdbool.h>
#include <stdint.h>

/* Asked every few thousand positions: whether the search must end now. */
typedef bool (*SoloStop)(void *ctx);

/* Searches the current position of g (three or more seats, capture mode, not
 * over) over the root moves root[0..nroot-1], every other seat in play
 * expected to play its greedy move (bit s of `modeled` set for each; else
 * nothing is searched), for at most `node_limit` positions or until
 * stop(ctx). Returns true with the best root move in *best, the line from it
 * in pv[0..*pvlen) (at most `pv_max` moves) and every seat's value of its end
 * in values[] (places.h's scale), the positions searched in *nodes; false when
 * it does not apply or did not finish (then nothing is known). */
bool solo_search(const Game *g, const Move *root, int nroot, unsigned modeled, uint64_t node_limit, SoloStop stop,
                 void *ctx, Move *best, Move *pv, int *pvlen, int pv_max, int values[MAX_SEATS], uint64_t *nodes);

#endif
