/* places.c - values of positions for three or more units; see places.h. */
#include "places.h"

#include "eval.h"

#include <stdlib.h>

/* Standing difference (cp) at which an open comparison is worth half a win:
 * about four moves of progress (race) or two pieces (capture mode). Each can
 * be overridden with -D for tuning. */
#ifndef PAIR_SCALE
#define PAIR_SCALE 405 /* races of three to five units (stern-spsa, docs/MULTI.md) */
#endif
#ifndef PAIR_SCALE_SIX
#define PAIR_SCALE_SIX 332 /* races of six units (stern-spsa, docs/MULTI.md) */
#endif
#ifndef PAIR_SCALE_CAPTURE
#define PAIR_SCALE_CAPTURE 200
#endif

/* How unit a compares with unit b in p: +1 ahead, -1 behind, 0 level (a shared
 * place), or OPEN while neither is placed. */
#define OPEN 2
static int compare(const Position *p, int a, int b)
{
    const int pa = p->place[a], pb = p->place[b];
    if (pa && pb)
        return pa < pb ? 1 : pa > pb ? -1 : 0;
    if (pa) /* an arrival took the best free place, an elimination the worst */
        return p->status[a] == ST_ELIMINATED ? -1 : 1;
    if (pb)
        return p->status[b] == ST_ELIMINATED ? 1 : -1;
    return OPEN;
}

/* Value of unit a; own and rival as eval_standings gives them (read only for
 * open comparisons). */
static int unit_value(const Position *p, int a, int ply, const int own[MAX_SEATS], const int rival[MAX_SEATS])
{
    const Variant *v = p->v;
    const int64_t unit = PLACE_SPAN / (v->nunits - 1);
    const int64_t scale = v->capture ? PAIR_SCALE_CAPTURE : v->nunits >= 6 ? PAIR_SCALE_SIX : PAIR_SCALE;
    int64_t sum = 0;
    bool first = true;
    for (int i = 0; i < v->nseats; i++) {
        const int b = v->seats[i];
        if (b == a || variant_unit(v, b) != b)
            continue;
        const int c = compare(p, a, b);
        if (c == OPEN) {
            const int64_t d = (int64_t)own[a] - rival[b];
            sum += unit * d / (llabs(d) + scale);
            first = false;
        } else {
            sum += c * unit;
            first &= c > 0;
        }
    }
    if (first)
        return SCORE_MATE - ply;
    if (p->place[a] && p->status[a] == ST_ARRIVED)
        sum -= ply;
    return (int)sum;
}

/* eval_standings_ply with bonus[u] added for each unit u, when some
 * comparison is open (the game goes on); zeros otherwise. */
static void standings(const Position *p, int ply, const int bonus[MAX_SEATS], int own[MAX_SEATS],
                      int rival[MAX_SEATS], EvalMemo *memo)
{
    if (pos_over(p)) {
        for (int s = 0; s < MAX_SEATS; s++)
            own[s] = rival[s] = 0;
        return;
    }
    eval_standings_ply(p, ply, own, rival, memo);
    for (int s = 0; s < MAX_SEATS; s++) {
        own[s] += bonus[s];
        rival[s] += bonus[s];
    }
}

/* A bonus of `bonus` for the side to move's unit alone. */
static void stm_bonus(const Position *p, int bonus, int out[MAX_SEATS])
{
    for (int s = 0; s < MAX_SEATS; s++)
        out[s] = 0;
    if (!pos_over(p))
        out[variant_unit(p->v, p->stm)] = bonus;
}

void places_values(const Position *p, int ply, int bonus, int out[MAX_SEATS], EvalMemo *memo)
{
    int own[MAX_SEATS], rival[MAX_SEATS], b[MAX_SEATS];
    stm_bonus(p, bonus, b);
    standings(p, ply, b, own, rival, memo);
    const Variant *v = p->v;
    for (int s = 0; s < MAX_SEATS; s++)
        out[s] = 0;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i], u = variant_unit(v, s);
        out[s] = u == s ? unit_value(p, u, ply, own, rival) : 0;
    }
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        out[s] = out[variant_unit(v, s)];
    }
}

int places_value_bonuses(const Position *p, int s, int ply, const int bonus[MAX_SEATS], EvalMemo *memo)
{
    const int u = variant_unit(p->v, s);
    int own[MAX_SEATS] = {0}, rival[MAX_SEATS] = {0};
    if (!p->place[u])
        standings(p, ply, bonus, own, rival, memo);
    return unit_value(p, u, ply, own, rival);
}

int places_value_for(const Position *p, int s, int ply, int bonus, EvalMemo *memo)
{
    int b[MAX_SEATS];
    stm_bonus(p, bonus, b);
    return places_value_bonuses(p, s, ply, b, memo);
}
