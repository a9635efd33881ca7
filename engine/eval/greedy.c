/* greedy.c - the one-ply greedy policy; see greedy.h. */
#include "greedy.h"

#include <limits.h>

/* The value of a finished game for seat s, from the places: +SCORE_MATE when s
 * beats every other unit, -SCORE_MATE when all beat it, 0 for a 2-player draw. */
static int place_score(const Position *p, int s)
{
    const Variant *v = p->v;
    const int me = variant_unit(v, s);
    int balance = 0;
    for (int i = 0; i < v->nseats; i++) {
        const int t = v->seats[i];
        if (variant_unit(v, t) == me || variant_unit(v, t) != t)
            continue; /* own team, or a second member of a team */
        balance += p->place[t] > p->place[s] ? 1 : p->place[t] < p->place[s] ? -1 : 0;
    }
    return SCORE_MATE * balance / (v->nunits - 1);
}

/* Whether a position of key `key` after keys[0..nkeys) occurs for the third time. */
static bool third_occurrence(const uint64_t *keys, int nkeys, uint64_t key)
{
    int seen = 0;
    for (int i = 0; i < nkeys; i++)
        seen += keys[i] == key;
    return seen >= 2;
}

int greedy_move_value(const Position *p, const Move *m, const uint64_t *keys, int nkeys, EvalMemo *memo)
{
    const int s = p->stm;
    Position q = *p;
    pos_play(&q, m);
    if (!pos_over(&q) && third_occurrence(keys, nkeys, q.key))
        pos_finish(&q, END_REPETITION);
    if (q.status[s] == ST_ELIMINATED)
        return -SCORE_MATE;
    if (q.status[s] == ST_ARRIVED && q.place[s])
        return SCORE_MATE - q.place[s];
    return pos_over(&q) ? place_score(&q, s) : eval_for(&q, s, memo);
}

bool greedy_choose(const Position *p, const uint64_t *keys, int nkeys, MoveList *list, GenMemo *gen, EvalMemo *memo,
                   Move *best, int *value)
{
    if (pos_over(p))
        return false;
    gen_moves(p, list, gen);
    int top = INT_MIN;
    for (int i = 0; i < list->n; i++) {
        const int x = greedy_move_value(p, &list->m[i], keys, nkeys, memo);
        if (x > top) {
            top = x;
            *best = list->m[i];
        }
    }
    if (value)
        *value = top;
    return list->n > 0;
}
