/*
 * mcts_history.h - Progressive History for multi-player MCTS (Nijssen and
 * Winands 2011, "Enhancements for Multi-Player Monte-Carlo Tree Search",
 * Computers and Games 2010, LNCS 6515): a history table keeps, for each seat
 * and each move (from, to), the mean reward that seat had in the playouts in
 * which it played the move, in the tree or in the playout alike (their
 * full-sample table), and the selection adds to child i of the seat to move
 *
 *     W * x_a / ((1 - v_i) * n_i + 1)
 *
 * x_a the history mean of i's move, v_i the child's mean reward for that
 * seat and n_i its visits: like progressive bias the term fades as the child
 * is visited, and more slowly for a child that does well.
 */
#ifndef STERN_MCTS_HISTORY_H
#define STERN_MCTS_HISTORY_H

#include "game.h"

#include <stdint.h>

typedef struct MctsHistory MctsHistory;

/* A history table with no move played; NULL when out of memory (about
 * 700 KB: MAX_SEATS x 121 x 121 entries). */
MctsHistory *mcts_history_new(void);

/* Frees h (NULL is ignored). */
void mcts_history_delete(MctsHistory *h);

/* Records that `seat` played m in a playout whose reward for it was r (0..1). */
void mcts_history_add(MctsHistory *h, int seat, const Move *m, float r);

/* The mean reward (0..1) of the playouts in which `seat` played m; 0 when it
 * never played it. */
double mcts_history_mean(const MctsHistory *h, int seat, const Move *m);

/* The Progressive History term above: w the weight W (>= 0), x the history
 * mean (0..1), v the child's mean reward (0..1), n its visits (>= 1). */
static inline double mcts_history_bonus(double w, double x, double v, uint32_t n)
{
    return w * x / ((1.0 - v) * (double)n + 1.0);
}

#endif
