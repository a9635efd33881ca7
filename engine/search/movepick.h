/*
 * movepick.h - the order in which a node searches its moves: the table's move,
 * two killers per ply, then by progress toward the target (captures in capture
 * mode) plus the history score of the move's holes; and staged generation, which
 * tries the table's move and the killers before generating the rest.
 */
#ifndef STERN_MOVEPICK_H
#define STERN_MOVEPICK_H

#include "worker.h"

#define ORDER_TT (1 << 30)
#define ORDER_KILLER (1 << 28)
#define ORDER_PROGRESS 16384 /* per step of progress toward the target */

/* The table's code of move m (never 0): its holes, swap and a hash of its
 * captured set. */
uint32_t move_code(const Move *m);

/* Moves the best-ordered move among list[i, n) to i (with its mover and score);
 * inline: it runs once per move searched. */
static inline void pick(MoveList *list, int i)
{
    int *order = list->score;
    uint8_t *movers = list->seat;
    /* the first of the highest: the highest first, in a loop the compiler
     * vectorizes, then where it first is */
    int top = order[i];
    for (int j = i + 1; j < list->n; j++)
        top = order[j] > top ? order[j] : top;
    int best = i;
    while (order[best] != top)
        best++;
    if (best != i) {
        const Move m = list->m[i];
        list->m[i] = list->m[best];
        list->m[best] = m;
        const int o = order[i];
        order[i] = order[best];
        order[best] = o;
        const uint8_t s = movers[i];
        movers[i] = movers[best];
        movers[best] = s;
    }
}

/* Generates the moves of node p at `ply` into w->lists[ply] with their movers and
 * ordering scores (`tt_move`: the table's move code, 0 for none): the side to
 * move's moves, or at a best-reply min node those of every opponent still
 * playing (brs.h). */
void node_moves(Worker *w, const Position *p, int ply, uint32_t tt_move);

/* Staged generation: the moves node p at `ply` may search before generating the
 * others, put in w->lists[ply] in the order they would be picked from the whole
 * list: the table's move `tt_move`, then the killers. Returns how many (0:
 * generate at once). Race games without Masters swaps, not at a best-reply min
 * node; each staged move is legal. */
int staged_moves(Worker *w, const Position *p, int ply, uint32_t tt_move);

/* Adds `bonus` (may be negative) to the history score of move m, with a decay
 * that keeps it within +-HISTORY_MAX. */
void update_history(Worker *w, const Move *m, int bonus);

/* The history scores a search starts from: those the last search of the game
 * ended with, copied from `store` into `history`; false (history untouched)
 * when there are none (the first search, or after history_forget). Read by
 * every thread of a search while it runs. */
bool history_load(const HistoryStore *store, int history[NUM_HOLES][NUM_HOLES]);

/* Keeps `history` in `store` for the next search (no search running). */
void history_save(HistoryStore *store, const int history[NUM_HOLES][NUM_HOLES]);

/* Forgets what `store` kept (a new game). */
void history_forget(HistoryStore *store);

#endif
