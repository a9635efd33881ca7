/* report_line.c - the reports of the tree searches' lines; see report_line.h. */
#include "report_line.h"

#include "eval.h"
#include "node.h"
#include "places.h"
#include "tt.h"

#include <stdlib.h>
#include <string.h>

/* Whether move m of a searched line can be played in p, the line's position
 * so far. A best-reply line leaves the turn order (an opponent's reply is any
 * opponent's, and BRS+ leaves out the others' moves), so with three or more
 * seats each move is checked against p's legal moves; a two-seat line is. */
static bool pv_move_playable(const SearchContext *c, const Position *p, const Move *m)
{
    if (c->game->v->nseats > 2)
        return node_legal_move(p, m, c->report_gen);
    return p->v->capture || p->board[m->from] == p->stm + 1;
}

/* With three or more seats, the protocol's relative scores at the end of a
 * root move's line (the last position before the game ends): each unit's
 * standing minus the best standing of the other units still unplaced there,
 * into rel[seat]; a unit placed by then gets the value of its outcome
 * (places.h), as a decided result. */
void report_line_relative_scores(const SearchContext *c, const RootMove *rm, int rel[MAX_SEATS])
{
    const Variant *v = c->game->v;
    Position leaf = c->game->pos;
    int ply = 0;
    for (int i = 0; i < rm->pvlen; i++) {
        if (i > 0 && !pv_move_playable(c, &leaf, &rm->pv[i])) /* pv[0] is a root move: legal */
            break;
        Position next = leaf;
        pos_play(&next, &rm->pv[i]);
        if (pos_over(&next))
            break;
        leaf = next;
        ply++;
    }
    int own[MAX_SEATS], rival[MAX_SEATS];
    eval_standings(&leaf, own, rival, c->report_eval);
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i], u = variant_unit(v, s);
        if (leaf.place[u]) {
            rel[s] = places_value_for(&leaf, s, ply, 0, c->report_eval);
            continue;
        }
        int best = -SCORE_INF;
        for (int j = 0; j < v->nseats; j++) {
            const int o = v->seats[j];
            if (variant_unit(v, o) == o && o != u && !leaf.place[o] && own[o] > best)
                best = own[o];
        }
        rel[s] = best == -SCORE_INF ? own[u] : own[u] - best;
    }
}

void report_line_fill(const SearchContext *c, int depth, int seldepth, int k, const RootMove *rm, uint64_t nodes,
                 int hashfull, SearchReport *r)
{
    const Variant *v = c->game->v;
    *r = (SearchReport){.kind = REPORT_LINE, .root = &c->game->pos, .depth = depth, .seldepth = seldepth,
                        .multipv = k + 1, .nodes = nodes, .hashfull = hashfull, .pv = rm->pv,
                        .linelen = rm->pvlen};
    r->time_us = clock_now_us() - c->clock.start_us;
    r->time_ms = r->time_us / 1000;
    /* the legal prefix of the line, up to the end of the game: the root move
     * (legal, and kept when the clock stops the checks of the rest), then each
     * move found legal; with the root seat's moves in it */
    Position p = c->game->pos;
    int own = 0;
    while (r->pvlen < rm->pvlen && !pos_over(&p) && (r->pvlen == 0 || pv_move_playable(c, &p, &rm->pv[r->pvlen]))) {
        own += p.stm == c->root_seat;
        pos_play(&p, &rm->pv[r->pvlen++]);
    }
    /* a mate in own moves of the root seat when the search found one; else with
     * three or more seats the root seat's relative standing (a relative value
     * beyond the mate bound is no mate) */
    r->mate = abs(rm->score) > SCORE_MATE_BOUND;
    r->value = rm->score;
    if (r->mate && v->nseats == 2) {
        const int n = (SCORE_MATE - abs(rm->score) + 1) / 2;
        r->value = rm->score > 0 ? n : -n;
    }
    /* With three or more seats a first place is a mate only on a line that
     * reaches it, counted in the root seat's moves on it: a best-reply line
     * skips seats (it is no game), and its plies are no measure of own moves (a
     * line of an own move, a reply and an arriving move said mate 1). */
    bool unshown = false; /* a first place the line does not reach */
    if (r->mate && v->nseats > 2) {
        r->mate = rm->score > 0 && p.place[variant_unit(v, c->root_seat)] == 1;
        unshown = !r->mate;
        r->value = own;
    }
    if (v->nseats > 2) {
        int rel[MAX_SEATS];
        report_line_relative_scores(c, rm, rel);
        /* a first place its line does not show is no mate, and its value no
         * number of moves: the most a standing can say */
        if (!r->mate)
            r->value = unshown && rel[c->root_seat] > SCORE_MATE_BOUND ? SCORE_MATE_BOUND : rel[c->root_seat];
        r->nscores = v->nseats;
        for (int i = 0; i < v->nseats; i++)
            r->scores[i] = rel[v->seats[i]];
    }
}

void report_line_say(SearchContext *c, const SearchReport *r, int k)
{
    if (k == 0) {
        c->nsaid = r->pvlen < 2 ? r->pvlen : 2;
        for (int i = 0; i < c->nsaid; i++)
            c->said[i] = r->pv[i];
    }
    report_line_out(c, r);
}

void report_line(SearchContext *c, const Worker *w, int depth, int k, const RootMove *rm)
{
    SearchReport r;
    report_line_fill(c, depth, w->seldepth, k, rm, total_nodes(c), tt_hashfull(c->tt), &r);
    report_line_say(c, &r, k);
}

#define REPORT_ORDER_MATE 1000000 /* report_order of a mate in 0: beyond every cp score */

/* A line report's score as one number that orders lines (sort_reports). */
static long long report_order(const SearchReport *r)
{
    if (r->mate) /* a sooner first place higher, a sooner loss lower */
        return r->value > 0 ? REPORT_ORDER_MATE - r->value : -REPORT_ORDER_MATE - r->value;
    return r->value;
}

/* Stable sort of r[0..n) by report_order, best first (n is at most MultiPV's
 * 256: an insertion sort). */
static void order_reports(SearchReport *r, int n)
{
    for (int i = 1; i < n; i++) {
        const SearchReport t = r[i];
        int j = i;
        for (; j > 0 && report_order(&r[j - 1]) < report_order(&t); j--)
            r[j] = r[j - 1];
        r[j] = t;
    }
}

void report_line_sort(SearchReport *r, int n)
{
    order_reports(r, n);
    for (int i = 0; i < n; i++)
        r[i].multipv = i + 1;
}

void report_line_multipv(SearchContext *c, Worker *w, int depth, int n)
{
    SearchReport *r = n > 1 ? malloc(sizeof *r * (size_t)n) : NULL;
    RootMove *moved = r ? malloc(sizeof *moved * (size_t)n) : NULL;
    if (!moved) { /* one line, or no memory to order them: as searched */
        free(r);
        for (int k = 0; k < n; k++)
            report_line(c, w, depth, k, &w->root[k]);
        return;
    }
    const uint64_t nodes = total_nodes(c);
    const int hashfull = tt_hashfull(c->tt);
    for (int k = 0; k < n; k++) {
        report_line_fill(c, depth, w->seldepth, k, &w->root[k], nodes, hashfull, &r[k]);
        r[k].multipv = k; /* the root move it shows, until sorted */
    }
    /* the lines in the order of the scores they show, and the root moves
     * with them, so that the answer (root[0]) is the first line shown */
    order_reports(r, n);
    for (int k = 0; k < n; k++)
        moved[k] = w->root[r[k].multipv];
    memcpy(w->root, moved, sizeof *moved * (size_t)n);
    for (int k = 0; k < n; k++) {
        r[k].multipv = k + 1;
        report_line_say(c, &r[k], k);
    }
    free(moved);
    free(r);
}

void report_line_out(SearchContext *c, const SearchReport *r)
{
    c->lines_said++;
    c->out(r, c->out_ctx);
}

void report_line_static(SearchContext *c, const Move *m)
{
    Position after = c->game->pos;
    pos_play(&after, m);
    Move pv[1] = {*m};
    const RootMove rm = {.move = *m, .score = eval_for(&after, c->root_seat, NULL), .pv = pv, .pvlen = 1};
    SearchReport r;
    report_line_fill(c, 1, 1, 0, &rm, c->workers ? total_nodes(c) : 0, c->tt ? tt_hashfull(c->tt) : 0, &r);
    report_line_out(c, &r);
}
