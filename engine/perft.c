/* perft.c - move-tree leaf counts with bulk counting at the last ply; see perft.h. */
#include "perft.h"

#include <stdlib.h>

static uint64_t perft_rec(const Position *p, int depth, MoveList *lists)
{
    if (depth == 1)
        return (uint64_t)count_moves(p);
    MoveList *list = &lists[0];
    gen_moves(p, list);
    uint64_t total = 0;
    for (int i = 0; i < list->n; i++) {
        Position child = *p;
        pos_play(&child, &list->m[i]);
        total += perft_rec(&child, depth - 1, lists + 1);
    }
    return total;
}

uint64_t perft(const Position *p, int depth)
{
    if (depth <= 0)
        return 1;
    MoveList *lists = malloc(sizeof *lists * (size_t)depth);
    if (!lists)
        abort();
    const uint64_t n = perft_rec(p, depth, lists);
    free(lists);
    return n;
}
