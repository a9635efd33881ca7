/*
 * move_list.h - a list of moves that grows as needed, as move generation
 * fills it and the search orders it.
 */
#ifndef STERN_MOVE_LIST_H
#define STERN_MOVE_LIST_H

#include "types.h"

/* A list of moves that grows as needed: race positions have a few hundred moves
 * at most, capture mode can have hundreds of millions. A zeroed MoveList is an
 * empty list; move_list_free gives its memory back. `score` and `seat` run
 * beside `m` for the search's use (ordering scores, the seat of each move). */
typedef struct {
    int n;         /* moves in m[0..n) */
    int cap;       /* entries allocated in m, score and seat */
    bool cut;      /* the last generation stopped early (gen_memo_set_abort, or out
                    * of memory): the list holds only some of the moves */
    Move *m;
    int *score;
    uint8_t *seat;
} MoveList;

/* Makes room for at least `need` moves (>= 0) in list, keeping its moves.
 * Returns false, the list unchanged, when memory runs out. */
bool move_list_reserve(MoveList *list, int need);

/* Frees the memory of list and empties it (it stays usable). */
void move_list_free(MoveList *list);

/* A new empty list on the heap (NULL when out of memory), and its deletion
 * (NULL is ignored). */
MoveList *move_list_new(void);
void move_list_delete(MoveList *list);

/* Appends m; false (and list->cut set) when memory runs out. */
static inline bool move_list_push(MoveList *list, Move m)
{
    if (list->n == list->cap && !move_list_reserve(list, list->n + 1)) {
        list->cut = true;
        return false;
    }
    list->m[list->n++] = m;
    return true;
}

#endif
