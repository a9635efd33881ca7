/* race_root.c - the race solver at the root of a search; see race_root.h. */
#include "race_root.h"

#include "race.h"

#define RACE_NODE_LIMIT 300000 /* per solve: well under a second */
#define RACE_NODES_PER_MS 100  /* solver speed assumed when the clock runs: a tenth of its real */
                               /* speed or less, so that the solves of one search (two armies, or */
                               /* a lifted army and its real-board check) never overrun */
#define RACE_TABLE_MIB 16      /* the most the solver's table takes */
#define RACE_MIN_MS 50         /* hard time limit below which races are not solved */

/* The node limit of each of the solver's solves for c's search (RACE_NODE_LIMIT,
 * less when the clock runs: half the hard time limit at RACE_NODES_PER_MS; a
 * search makes at most two) into *limit and its
 * table's size into *mib; false when the clock leaves no time for a solve
 * (below RACE_MIN_MS: at 1+0.01 a failing solve each move drained the clock). */
static bool solve_limits(SearchContext *c, uint64_t *limit, int *mib)
{
    *limit = RACE_NODE_LIMIT;
    if (c->clock.budget.hard_ms >= 0 && !c->lim->infinite && !clock_pondering(&c->clock)) {
        if (c->clock.budget.hard_ms < RACE_MIN_MS)
            return false;
        const uint64_t timed = (uint64_t)c->clock.budget.hard_ms * RACE_NODES_PER_MS / 2;
        *limit = timed < *limit ? timed : *limit;
    }
    /* a table of about four entries per node allowed (8 bytes each) */
    *mib = *limit * 32 >= (uint64_t)RACE_TABLE_MIB << 20 ? RACE_TABLE_MIB : (int)(*limit * 32 >> 20) + 1;
    return true;
}

/* Whether `need` own moves, solved for seat s with the other armies lifted off,
 * is also the fewest on the real board p, the other marbles standing still:
 * the lifted solve misses the chains that jump over them (a fifteen-3 chain
 * that dips back through both other armies arrived in 1 where the lifted solve
 * said 2). False when the real board has a shorter line, or the solve cannot
 * tell within its limits. */
static bool lifted_is_fewest(SearchContext *c, const Position *p, int s, int need, uint64_t limit, int mib)
{
    if (need <= 1)
        return true; /* nothing is shorter than one move */
    RaceStats st;
    return race_solve(p, s, need - 1, mib, limit, &c->sig->stop, NULL, &st) == -1;
}

/* Race endgames: once the two armies are past each other
 * (race_separated), each one's fewest moves to arrive is solved exactly by
 * race_solve and the result follows from the reply rule (race_outcome). The line interleaves both armies' solutions and is
 * checked move by move on the real board. Returns true with the best move, the
 * root seat's score (mate score, or 0 for a draw) and the line (*pvlen moves);
 * false when it does not apply or a solve runs over its node limit (solve_limits). */
bool race_root(SearchContext *c, Move *pv, int *pvlen, int *score, uint64_t *nodes, int *moves)
{
    const Position *p = &c->game->pos;
    if (!race_separated(p) || c->lim->nsearchmoves || c->cfg->multipv > 1)
        return false;
    const Variant *v = p->v;
    const int side[2] = {p->stm, p->stm == v->seats[0] ? v->seats[1] : v->seats[0]};
    Move line[2][RACE_MAX_MOVES];
    int need[2];
    *nodes = 0;
    uint64_t limit;
    int mib;
    if (!solve_limits(c, &limit, &mib))
        return false;
    for (int k = 0; k < 2; k++) {
        Position alone = *p;
        race_remove_army(&alone, side[1 - k]);
        RaceStats st;
        need[k] = race_solve(&alone, side[k], RACE_MAX_MOVES, mib, limit, &c->sig->stop,
                             line[k], &st);
        *nodes += st.nodes;
        if (need[k] < 0)
            return false;
    }
    const int a = need[0], b = need[1];
    int plies;
    const int result = race_outcome(v, side[0], a, b, &plies); /* 1 win, 0 draw, -1 loss for the side to move */
    if (p->round + (plies + 1) / 2 >= p->v->round_limit)
        return false; /* the round limit would end it first */
    Position q = *p;
    int n = 0;
    for (int i = 0; i < plies && !pos_over(&q); i++) {
        const int k = i % 2, j = i / 2;
        if (j >= need[k] || q.stm != side[k])
            break;
        const Move *m = &line[k][j];
        if (!bb_test(gen_destinations(&q, side[k], m->from), m->to))
            return false; /* the other army is in the way after all */
        pv[n++] = *m;
        pos_play(&q, m);
    }
    if (n == 0)
        return false;
    *pvlen = n;
    *score = result > 0 ? SCORE_MATE - plies : result < 0 ? -(SCORE_MATE - plies) : 0;
    moves[0] = a;
    moves[1] = b;
    return true;
}

bool race_root_alone(SearchContext *c, Move *best, int *moves)
{
    const Position *p = &c->game->pos;
    if (!race_past_others(p, p->stm) || c->lim->nsearchmoves || c->cfg->multipv > 1)
        return false;
    uint64_t limit;
    int mib;
    if (!solve_limits(c, &limit, &mib))
        return false;
    const Variant *v = p->v;
    Position alone = *p;
    for (int i = 0; i < v->nseats; i++)
        if (v->seats[i] != p->stm && p->status[v->seats[i]] == ST_PLAYING)
            race_remove_army(&alone, v->seats[i]);
    Move line[RACE_MAX_MOVES];
    RaceStats st;
    const int need = race_solve(&alone, p->stm, RACE_MAX_MOVES, mib, limit, &c->sig->stop, line, &st);
    if (need <= 0 || !lifted_is_fewest(c, p, p->stm, need, limit, mib))
        return false;
    /* the seat's whole line on the real board, the others standing still */
    Position q = *p;
    for (int j = 0; j < need; j++) {
        pos_set_stm(&q, p->stm);
        if (!bb_test(gen_destinations(&q, p->stm, line[j].from), line[j].to))
            return false;
        pos_play(&q, &line[j]);
    }
    *best = line[0];
    *moves = need;
    return true;
}
