/* opponents.c - the opponent model; see opponents.h. */
#include "opponents.h"

#include "greedy.h"

unsigned opponents_in_play(const Position *p)
{
    if (pos_over(p))
        return 0;
    unsigned seats = 0;
    for (int i = 0; i < p->v->nseats; i++) {
        const int s = p->v->seats[i];
        if (s != p->stm && s != variant_partner(p->v, p->stm) && p->status[s] == ST_PLAYING)
            seats |= 1u << s;
    }
    return seats;
}

unsigned opponents_greedy(const Game *g, MoveList *list, GenMemo *gen, EvalMemo *memo)
{
    const Position *now = &g->pos;
    if (pos_over(now))
        return 0;
    const Variant *v = g->v;
    int total[MAX_SEATS] = {0}; /* each seat's moves in the record (0: none, and nothing against it) */
    Position p = g->start;
    for (int i = 0; i < g->nplies; i++) {
        total[p.stm]++;
        pos_play(&p, &g->moves[i]);
    }
    unsigned candidates = opponents_in_play(now);
    /* a race is long: a seat is modelled on a full window of evidence (a
     * search's moves often are the greedy ones, and a seat that has not moved,
     * after a FEN or an opening, shows nothing); capture mode is short, and
     * nothing speaks against a seat yet to move */
    if (!v->capture)
        for (int s = 0; s < MAX_SEATS; s++)
            if (total[s] < OPPONENT_WINDOW)
                candidates &= ~(1u << s);
    int seen[MAX_SEATS] = {0};
    p = g->start;
    for (int i = 0; i < g->nplies && candidates; i++) {
        const int s = p.stm;
        if ((candidates >> s & 1) && seen[s]++ >= total[s] - OPPONENT_WINDOW) {
            Move greedy;
            if (!greedy_choose(&p, g->keys, i + 1, list, gen, memo, &greedy, NULL) ||
                !move_same(&greedy, &g->moves[i]))
                candidates &= ~(1u << s);
        }
        pos_play(&p, &g->moves[i]);
    }
    return candidates;
}
