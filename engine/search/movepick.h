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

/* The table's code of a move (never 0): bits 0-6 its from hole, 7-13 its to
 * hole, 14-20 its swap hole (127 for none), from bit 21 a hash of its captured
 * set, all plus 1. The code of a move's holes alone, as a move that swaps
 * `swap` and captures nothing has it. */
static inline uint32_t move_code_holes(int from, int to, int swap)
{
    return 1u + ((uint32_t)from | (uint32_t)to << 7 | (uint32_t)(swap & 127) << 14);
}

/* The code of move m. */
uint32_t movepick_move_code(const Move *m);

/* The move without a swap or captures that `code` would be: its from and to
 * holes decoded. It is the move coded only when move_code of it is code. */
static inline Move move_decode(uint32_t code)
{
    return (Move){.from = (uint8_t)((code - 1) & 127), .to = (uint8_t)((code - 1) >> 7 & 127), .swap = NO_HOLE};
}

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

/* Generates the moves of node p at `ply` into w->ss[ply].list with their movers and
 * ordering scores (`tt_move`: the table's move code, 0 for none): the side to
 * move's moves, or at a best-reply min node those of every opponent still
 * playing (brs.h). */
void movepick_node_moves(Worker *w, const Position *p, int ply, uint32_t tt_move);

/* Staged generation: the moves node p at `ply` may search before generating the
 * others, put in w->ss[ply].list in the order they would be picked from the whole
 * list: the table's move `tt_move`, then the killers. Returns how many (0:
 * generate at once). Race games without Masters swaps, not at a best-reply min
 * node; each staged move is legal. */
int movepick_staged_moves(Worker *w, const Position *p, int ply, uint32_t tt_move);

/* The moves of one alpha-beta node in the order it searches them, stage by
 * stage: the staged moves (staged_moves: the table's move and the killers,
 * before anything is generated), then the rest of the list best-ordered
 * first (node_moves, pick), then the moves put off because another thread
 * was searching them (ABDADA's deferral, busy.h), in the order they were put
 * off. The moves stay in w->ss[ply].list: the picker hands out their indices. */
typedef struct {
    Worker *w;
    const Position *p;
    int ply;
    uint32_t tt_move;
    MoveList *list;
    int staged;      /* moves staged before the list was generated */
    bool generated;  /* the whole list is there */
    int next;        /* the next step: list index, or list->n + k for deferred move k */
    int ndeferred;
    int deferred[MAX_MOVES_DEFERRED]; /* list indices put off */
} MovePicker;

/* Starts the picker of node p at `ply` (tt_move: the table's move code, 0
 * for none): stages the table's move and the killers, or generates every
 * move when it cannot (staged_moves). */
static inline void picker_init(MovePicker *mp, Worker *w, const Position *p, int ply, uint32_t tt_move)
{
    mp->w = w;
    mp->p = p;
    mp->ply = ply;
    mp->tt_move = tt_move;
    mp->list = &w->ss[ply].list;
    mp->staged = movepick_staged_moves(w, p, ply, tt_move);
    mp->generated = mp->staged == 0;
    if (mp->generated)
        movepick_node_moves(w, p, ply, tt_move);
    mp->next = 0;
    mp->ndeferred = 0;
}

/* The list index of the next move to search, -1 when none is left; *late is
 * set when it is a move put off earlier (its second turn). Generates the rest
 * of the list once the staged moves are done: the staged moves are then
 * picked to its front, where they were searched (each is in the list, as
 * staged_moves checked, and ordered above the rest). */
static inline int picker_next(MovePicker *mp, bool *late)
{
    MoveList *list = mp->list;
    const int k = mp->next;
    if (!mp->generated && k == mp->staged) {
        movepick_node_moves(mp->w, mp->p, mp->ply, mp->tt_move);
        mp->generated = true;
        for (int j = 0; j < mp->staged; j++)
            pick(list, j);
    }
    if (k >= list->n + mp->ndeferred)
        return -1;
    mp->next = k + 1;
    *late = k >= list->n;
    if (*late)
        return mp->deferred[k - list->n];
    pick(list, k);
    return k;
}

/* Puts off move i (just handed out, not late) to the end; false when the
 * picker holds MAX_MOVES_DEFERRED already (then it is searched now). */
static inline bool picker_defer(MovePicker *mp, int i)
{
    if (mp->ndeferred == MAX_MOVES_DEFERRED)
        return false;
    mp->deferred[mp->ndeferred++] = i;
    return true;
}

/* Passes over the moves of the list not handed out yet (all pruned): the
 * next move is the first put off, if any. Only once the list is generated. */
static inline void picker_skip_rest(MovePicker *mp)
{
    mp->next = mp->list->n;
}

/* Adds `bonus` (may be negative) to the history score of move m, with a decay
 * that keeps it within +-HISTORY_MAX. */
void movepick_update_history(Worker *w, const Move *m, int bonus);

/* The history scores a search starts from: those the last search of the game
 * ended with, copied from `store` into `history`; false (history untouched)
 * when there are none (the first search, or after history_forget). Read by
 * every thread of a search while it runs. */
bool movepick_history_load(const HistoryStore *store, int history[NUM_HOLES][NUM_HOLES]);

/* Keeps `history` in `store` for the next search (no search running). */
void movepick_history_save(HistoryStore *store, const int history[NUM_HOLES][NUM_HOLES]);

/* Forgets what `store` kept (a new game). */
void movepick_history_forget(HistoryStore *store);

#endif
