/* solo.c - the solo search against modelled seats; see solo.h. */
#include "solo.h"

#include "eval.h"
#include "greedy.h"
#include "movegen.h"
#include "places.h"

#include <stdlib.h>
#include <string.h>

#define SOLO_MAX_PLIES 128   /* a capture game's plies at most (60 pieces, a capture a move) */
#define SOLO_CHECK_EVERY 255  /* positions between calls of stop (mask): each holds a greedy move or more */

typedef struct {
    int me;
    unsigned modeled;
    uint64_t nodes, limit;
    SoloStop stop;
    void *ctx;
    bool aborted;
    MoveList *lists; /* [SOLO_MAX_PLIES]: the own moves of each ply */
    GenMemo *gen;
    EvalMemo *eval;
    Move (*pv)[SOLO_MAX_PLIES]; /* [ply][...]: the best line found below ply */
    int pvlen[SOLO_MAX_PLIES + 1];
} Solo;

/* Whether the search must end: over its positions, or stop says so. */
static bool out_of_budget(Solo *s)
{
    if (s->aborted)
        return true;
    s->nodes++;
    if (s->nodes > s->limit || (!(s->nodes & SOLO_CHECK_EVERY) && s->stop && s->stop(s->ctx)))
        s->aborted = true;
    return s->aborted;
}

/* The value for the searching seat of p at `ply` (its own turn, or the other
 * seats' turns first): the best line to the end of the game, into
 * s->pv[ply][ply..s->pvlen[ply]) and vals[] (every seat's value of its end). */
static int solve(Solo *s, const Position *start, int ply, int vals[MAX_SEATS])
{
    Position p = *start;
    s->pvlen[ply] = ply;
    /* the other seats' moves, played for them */
    int k = ply;
    while (!pos_over(&p) && p.stm != s->me && k < SOLO_MAX_PLIES - 1) {
        Move m;
        if (!greedy_choose(&p, NULL, 0, &s->lists[k], s->gen, s->eval, &m, NULL) || s->lists[k].cut) {
            s->aborted |= s->lists[k].cut; /* stopped while listing: nothing is known */
            break;
        }
        s->pv[ply][k++] = m;
        pos_play(&p, &m);
    }
    s->pvlen[ply] = k;
    if (pos_over(&p) || p.stm != s->me || k >= SOLO_MAX_PLIES - 1 || out_of_budget(s)) {
        places_values(&p, k, 0, vals, s->eval);
        return vals[s->me];
    }
    MoveList *list = &s->lists[k];
    gen_moves(&p, list, s->gen);
    if (list->cut) {
        s->aborted = true;
        return 0;
    }
    if (!list->n) {
        places_values(&p, k, 0, vals, s->eval);
        return vals[s->me];
    }
    /* the most capturing first: a first place is found, and ends the search, sooner */
    for (int i = 1; i < list->n; i++)
        for (int j = i; j > 0 && list->m[j].ncapt > list->m[j - 1].ncapt; j--) {
            const Move t = list->m[j];
            list->m[j] = list->m[j - 1];
            list->m[j - 1] = t;
        }
    int best = -SCORE_INF;
    for (int i = 0; i < list->n && !s->aborted; i++) {
        Position c = p;
        pos_play(&c, &list->m[i]);
        int v[MAX_SEATS];
        const int x = solve(s, &c, k + 1, v);
        if (s->aborted)
            break;
        if (x > best) {
            best = x;
            memcpy(vals, v, sizeof v);
            s->pv[ply][k] = list->m[i];
            memcpy(&s->pv[ply][k + 1], &s->pv[k + 1][k + 1], sizeof(Move) * (size_t)(s->pvlen[k + 1] - k - 1));
            s->pvlen[ply] = s->pvlen[k + 1];
            if (best >= SCORE_MATE_BOUND)
                break; /* first place: nothing is better */
        }
    }
    return best;
}

bool solo_search(const Game *g, const Move *root, int nroot, unsigned modeled, uint64_t node_limit, SoloStop stop,
                 void *ctx, Move *best, Move *pv, int *pvlen, int pv_max, int values[MAX_SEATS], uint64_t *nodes)
{
    const Position *p = &g->pos;
    const Variant *v = g->v;
    *nodes = 0;
    if (!v->capture || pos_over(p) || nroot < 1)
        return false;
    for (int i = 0; i < v->nseats; i++) {
        const int o = v->seats[i];
        if (o != p->stm && p->status[o] == ST_PLAYING && !(modeled >> o & 1))
            return false; /* a seat the model cannot predict */
    }
    Solo s = {.me = p->stm, .modeled = modeled, .limit = node_limit, .stop = stop, .ctx = ctx};
    s.lists = calloc(SOLO_MAX_PLIES, sizeof *s.lists);
    s.pv = malloc(sizeof *s.pv * (SOLO_MAX_PLIES + 1));
    s.gen = gen_memo_new();
    s.eval = eval_memo_new();
    bool done = false;
    if (s.lists && s.pv && s.gen && s.eval) {
        if (stop)
            gen_memo_set_abort(s.gen, stop, ctx);
        int top = -SCORE_INF;
        for (int i = 0; i < nroot && !s.aborted; i++) {
            Position c = *p;
            pos_play(&c, &root[i]);
            int vals[MAX_SEATS];
            const int x = solve(&s, &c, 1, vals);
            if (s.aborted)
                break;
            if (x > top) {
                top = x;
                *best = root[i];
                memcpy(values, vals, sizeof vals);
                s.pv[0][0] = root[i];
                memcpy(&s.pv[0][1], &s.pv[1][1], sizeof(Move) * (size_t)(s.pvlen[1] - 1));
                s.pvlen[0] = s.pvlen[1];
                if (top >= SCORE_MATE_BOUND)
                    break;
            }
        }
        done = !s.aborted && top > -SCORE_INF;
        if (done) {
            *pvlen = s.pvlen[0] < pv_max ? s.pvlen[0] : pv_max;
            memcpy(pv, s.pv[0], sizeof *pv * (size_t)*pvlen);
        }
    }
    *nodes = s.nodes;
    if (s.lists)
        for (int i = 0; i < SOLO_MAX_PLIES; i++)
            move_list_free(&s.lists[i]);
    free(s.lists);
    free(s.pv);
    gen_memo_delete(s.gen);
    eval_memo_delete(s.eval);
    return done;
}
