/* move_list.c - a growing list of moves; see move_list.h. */
#include "move_list.h"

#include <stdint.h>
#include <stdlib.h>

bool move_list_reserve(MoveList *list, int need)
{
    if (need <= list->cap)
        return true;
    if (need > INT32_MAX / 2)
        return false;
    int cap = list->cap ? list->cap : 256;
    while (cap < need)
        cap *= 2;
    Move *m = realloc(list->m, sizeof *m * (size_t)cap);
    if (!m)
        return false;
    list->m = m;
    int *score = realloc(list->score, sizeof *score * (size_t)cap);
    if (!score)
        return false;
    list->score = score;
    uint8_t *seat = realloc(list->seat, (size_t)cap);
    if (!seat)
        return false;
    list->seat = seat;
    list->cap = cap;
    return true;
}

void move_list_free(MoveList *list)
{
    free(list->m);
    free(list->score);
    free(list->seat);
    *list = (MoveList){0};
}

MoveList *move_list_new(void)
{
    return calloc(1, sizeof(MoveList));
}

void move_list_delete(MoveList *list)
{
    if (list)
        move_list_free(list);
    free(list);
}
