/*
 * mcts.h - Monte-Carlo tree search for three to six seats (Search value
 * `mcts`), after Nijssen and Winands (2011, "Enhancements for Multi-Player
 * Monte-Carlo Tree Search"), who found these the best choices for
 * multi-player Chinese Checkers:
 *   - max-n backup: every node keeps each seat's mean reward, and the seat to
 *     move at a node selects the child best for itself (UCT, Kocsis and
 *     Szepesvari 2006, with progressive bias toward moves that make progress
 *     or capture, fading with visits);
 *   - short playouts, epsilon-greedy on progress (or captures), cut after two
 *     rounds and scored by places.h (every seat's value, mapped to 0..1);
 *   - decided ends (a game over, the root's seat placed) are scored exactly,
 *     and a root move that arrives (takes the best place still free) is
 *     played without a search.
 * One thread; the tree is built anew each search.
 */
#ifndef STERN_MCTS_H
#define STERN_MCTS_H

#include "game.h"

#include <stdbool.h>
#include <stdint.h>

/* Asked every few playouts: whether the search must end now. */
typedef bool (*MctsStop)(void *ctx);

typedef struct {
    Move best;             /* the root's most visited move */
    bool has_best;         /* false: no legal move */
    Move pv[64];           /* the most visited line from the root */
    int pvlen;
    int values[MAX_SEATS]; /* each seat's mean reward at the root, in places.h's scale */
    uint64_t playouts;
    int depth;             /* mean depth of the tree part of a playout, plies, rounded */
    int seldepth;          /* deepest tree node reached, plies */
} MctsResult;

/* Searches the current position of g (three or more seats, not over) over
 * the root moves root[0..nroot-1] (nroot >= 1) until stop(ctx) says so,
 * `max_playouts` playouts are done (0: no limit) or the mean depth of the tree
 * part of a playout, rounded, reaches `depth_limit` plies (0: none), and fills
 * *out. `nodes_cap` bounds the tree's nodes (memory: about 64 bytes a
 * node); once full, playouts go on from the leaves reached. Returns 0, or -1
 * when the tree's first memory cannot be had (*out then has no best move). */
int mcts_search(const Game *g, const Move *root, int nroot, uint64_t max_playouts, int depth_limit, size_t nodes_cap,
                MctsStop stop, void *ctx, MctsResult *out);

#endif
