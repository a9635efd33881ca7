/* mcts_history.c - Progressive History's table; see mcts_history.h. */
#include "mcts_history.h"

#include <stdlib.h>

#define HOLES 121

typedef struct {
    float sum;  /* rewards of the playouts that had the move */
    uint32_t n; /* those playouts */
} Entry;

struct MctsHistory {
    Entry e[MAX_SEATS][HOLES * HOLES];
};

MctsHistory *mcts_history_new(void) { return calloc(1, sizeof(MctsHistory)); }

void mcts_history_delete(MctsHistory *h) { free(h); }

void mcts_history_add(MctsHistory *h, int seat, const Move *m, float r)
{
    Entry *x = &h->e[seat][m->from * HOLES + m->to];
    x->sum += r;
    x->n++;
}

double mcts_history_mean(const MctsHistory *h, int seat, const Move *m)
{
    const Entry *x = &h->e[seat][m->from * HOLES + m->to];
    return x->n ? (double)x->sum / x->n : 0.0;
}
