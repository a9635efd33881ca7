/* iterate.c - iterative deepening over the root moves; see iterate.h. */
#include "iterate.h"

#include "alphabeta.h"
#include "maxn.h"
#include "node.h"
#include "report_line.h"

#include <stdlib.h>

#define ASPIRATION_DELTA 60 /* cp, first aspiration half-window */
#define ASPIRATION_MIN_DEPTH 4
#define ASPIRATION_MAX 1000 /* cp: a half-window grown past this becomes the full window */

/* One root iteration for the line pv_index (multipv): searches root moves
 * [pv_index, nroot) and returns the best value (root side's view). */
static int search_root(Worker *w, int depth, int alpha, int beta, int pv_index)
{
    const Position *p = &w->ctx->game->pos;
    int best = -SCORE_INF;
    w->ss[0].path_key = p->key;
    w->ss[0].pvlen = 0;
    w->ss[1].opps_regular = 0; /* an opponent phase starts after the root's move */
    for (int i = pv_index; i < w->nroot; i++) {
        RootMove *rm = &w->root[i];
        Position child = *p;
        pos_play(&child, &rm->move);
        if (!node_count(w))
            return best;
        int v;
        if (w->ctx->algo == ALGO_MAXN) {
            int vals[MAX_SEATS];
            if (!node_terminal(w, &child, 1, &v)) {
                maxn(w, &child, depth - 1, 1, vals);
                v = vals[w->ctx->root_seat];
            } else {
                w->ss[1].pvlen = 1;
            }
        } else if (i == pv_index) {
            v = alphabeta_child_value(w, &child, depth - 1, alpha, beta, 1, 1);
        } else {
            v = alphabeta_child_value(w, &child, depth - 1, alpha, alpha + 1, 1, 1);
            if (v > alpha && v < beta)
                v = alphabeta_child_value(w, &child, depth - 1, alpha, beta, 1, 1);
        }
        if (stopped(w))
            return best;
        if (v > alpha || i == pv_index) {
            rm->score = v;
            rm->pvlen = 0;
            if (rm->pv || (rm->pv = malloc(sizeof *rm->pv * (MAX_PLY + 1)))) {
                rm->pv[0] = rm->move;
                rm->pvlen = 1;
                for (int j = 1; j < w->ss[1].pvlen; j++)
                    rm->pv[rm->pvlen++] = w->ss[1].pv[j];
            }
        } else {
            rm->score = -SCORE_INF;
        }
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

static int by_score(const void *a, const void *b)
{
    const RootMove *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->index - y->index;
}

/* Stable sort of root moves [from, n) by score, best first. */
static void sort_root(RootMove *r, int from, int n)
{
    for (int i = from; i < n; i++)
        r[i].index = i;
    qsort(r + from, (size_t)(n - from), sizeof *r, by_score);
}

/* The first iteration stopped before it ended (a budget of a few hundred nodes,
 * or a stop at once): the best move of those it searched goes first, and when
 * it searched none, the move of the most progress (capture mode: the most
 * captures; the first such in generation order) - not the first move
 * generated, which the answer would otherwise be. */
static void first_iteration_cut(Worker *w)
{
    sort_root(w->root, 0, w->nroot);
    if (w->root[0].score > -SCORE_INF || w->nroot < 2)
        return;
    const Position *p = &w->ctx->game->pos;
    int best = 0, most = -MAX_PLY;
    for (int i = 0; i < w->nroot; i++) {
        const Move *m = &w->root[i].move;
        const int gain = p->v->capture ? m->ncapt : move_progress(p, p->stm, m);
        if (gain > most) {
            best = i;
            most = gain;
        }
    }
    const RootMove t = w->root[0];
    w->root[0] = w->root[best];
    w->root[best] = t;
}

void iterate(Worker *w)
{
    SearchContext *c = w->ctx;
    const int multipv = w->id == 0 ? (c->cfg->multipv < w->nroot ? c->cfg->multipv : w->nroot) : 1;
    const int max_depth = c->lim->depth > 0 && c->lim->depth < MAX_PLY ? c->lim->depth : MAX_PLY - 1;
    /* Every thread deepens one ply at a time; they share the table and put off
     * the moves another thread is searching (see search()). Helpers that skip
     * every other depth measured worse with the deferral (docs/STRENGTH.md). */
    for (int depth = 1; depth <= max_depth; depth++) {
        w->seldepth = 0;
        for (int k = 0; k < multipv; k++) {
            int prev = w->root[k].prev_score, delta = ASPIRATION_DELTA;
            int alpha = -SCORE_INF, beta = SCORE_INF;
            if (depth >= ASPIRATION_MIN_DEPTH && abs(prev) < SCORE_MATE_BOUND && c->algo != ALGO_MAXN) {
                alpha = prev - delta;
                beta = prev + delta;
            }
            for (;;) {
                const int v = search_root(w, depth, alpha, beta, k);
                if (stopped(w))
                    break;
                sort_root(w->root, k, w->nroot);
                if (v <= alpha && alpha > -SCORE_INF) {
                    beta = (alpha + beta) / 2;
                    alpha = v - delta > -SCORE_INF ? v - delta : -SCORE_INF;
                } else if (v >= beta && beta < SCORE_INF) {
                    beta = v + delta < SCORE_INF ? v + delta : SCORE_INF;
                } else {
                    break;
                }
                delta *= 2;
                if (delta > ASPIRATION_MAX)
                    alpha = -SCORE_INF, beta = SCORE_INF;
            }
            if (stopped(w))
                break;
        }
        if (stopped(w)) {
            if (depth == 1)
                first_iteration_cut(w);
            break;
        }
        for (int i = 0; i < w->nroot; i++)
            w->root[i].prev_score = w->root[i].score;
        w->completed_depth = depth;
        if (depth >= max_depth && c->lim->depth > 0 && !c->lim->infinite && !clock_pondering(&c->clock)) {
            /* go depth: the first thread to complete it ends the search (a helper
             * may finish first; its result is used), but with MultiPV only the
             * main thread, which alone searches the lines: a helper's one line
             * ended it with the main thread's lines a few plies short */
            if (w->id == 0 || c->cfg->multipv <= 1)
                atomic_store(&c->abort_all, true);
            if (w->id == 0)
                report_line_multipv(c, w, depth, multipv);
            break;
        }
        if (w->id != 0)
            continue;
        report_line_multipv(c, w, depth, multipv);
        const int64_t soft = c->clock.budget.soft_ms;
        const bool timed = !c->lim->infinite && clock_start(&c->clock) >= 0 && soft >= 0;
        if (timed && (clock_past(&c->clock, soft) || w->nroot == 1))
            break;
        if (abs(w->root[0].score) > SCORE_MATE_BOUND && depth >= SCORE_MATE - abs(w->root[0].score) + 2 &&
            !c->lim->infinite && !clock_pondering(&c->clock))
            break;
    }
}
