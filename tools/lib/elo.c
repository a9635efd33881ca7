/* elo.c - the figures of a match between two players; see elo.h. */
#include "elo.h"

#include <math.h>
#include <stdlib.h>

#define Z95 1.959963984540054 /* two-sided 95% quantile of the standard normal */

double elo_to_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double elo_from_score(double score)
{
    if (score >= 1.0)
        return INFINITY;
    if (score <= 0.0)
        return -INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

/* Fills score, score_se, elo and its interval from the mean score s and the
 * per-sample variance var of n samples (n > 0). */
static void set_score(EloResult *r, int n, double s, double var)
{
    r->n = n;
    r->score = s;
    r->score_se = sqrt(var / n);
    r->elo = elo_from_score(s);
    r->elo_low = elo_from_score(s - Z95 * r->score_se);
    r->elo_high = elo_from_score(s + Z95 * r->score_se);
}

static EloResult no_result(void)
{
    EloResult r = {0};
    r.score = 0.5;
    r.los = 0.5;
    return r;
}

EloResult elo_from_wdl(int wins, int draws, int losses)
{
    const int n = wins + draws + losses;
    if (n <= 0)
        return no_result();
    const double s = (wins + 0.5 * draws) / n;
    const double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
    EloResult r = {0};
    set_score(&r, n, s, var);
    r.los = wins + losses ? 0.5 * (1.0 + erf((wins - losses) / sqrt(2.0 * (wins + losses)))) : 0.5;
    r.draw_rate = (double)draws / n;
    return r;
}

EloResult elo_from_pentanomial(const Pentanomial *p)
{
    int n = 0;
    double sum = 0;
    for (int i = 0; i < PENTA_SIZE; i++) {
        n += p->n[i];
        sum += p->n[i] * (i / 4.0);
    }
    if (n <= 0)
        return no_result();
    const double s = sum / n;
    double var = 0;
    for (int i = 0; i < PENTA_SIZE; i++)
        var += p->n[i] * (i / 4.0 - s) * (i / 4.0 - s);
    var /= n;
    EloResult r = {0};
    set_score(&r, n, s, var);
    if (r.score_se > 0)
        r.los = 0.5 * (1.0 + erf((s - 0.5) / (r.score_se * M_SQRT2)));
    else
        r.los = s > 0.5 ? 1.0 : s < 0.5 ? 0.0 : 0.5;
    r.draw_rate = (double)p->n[PENTA_DD_WL] / n;
    return r;
}

/* ---- counting two-player results ---- */

/* Half points (0, 1, 2) of `player` against `opponent` in g, or -1 when they did
 * not meet as different units. */
static int half_points(const RatedGame *g, int player, int opponent)
{
    const int a = ratings_unit_of(g, player), b = ratings_unit_of(g, opponent);
    if (a < 0 || b < 0 || a == b)
        return -1;
    return g->place[a] < g->place[b] ? 2 : g->place[a] == g->place[b] ? 1 : 0;
}

Wdl elo_wdl_count(const RatedGame *games, int n, int player, int opponent)
{
    Wdl r = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        const int hp = half_points(&games[i], player, opponent);
        if (hp == 2)
            r.wins++;
        else if (hp == 1)
            r.draws++;
        else if (hp == 0)
            r.losses++;
    }
    return r;
}

typedef struct {
    int pair, half_points;
} PairedGame;

static int by_pair(const void *a, const void *b)
{
    const int x = ((const PairedGame *)a)->pair, y = ((const PairedGame *)b)->pair;
    return (x > y) - (x < y);
}

Pentanomial elo_pentanomial_count(const RatedGame *games, int n, int player, int opponent)
{
    Pentanomial p = {{0}};
    PairedGame *list = malloc((size_t)(n > 0 ? n : 1) * sizeof *list);
    if (!list)
        return p;
    int k = 0;
    for (int i = 0; i < n; i++) {
        const int hp = half_points(&games[i], player, opponent);
        if (hp >= 0 && games[i].pair >= 0)
            list[k++] = (PairedGame){games[i].pair, hp};
    }
    qsort(list, (size_t)k, sizeof *list, by_pair);
    for (int i = 0; i < k;) {
        int j = i;
        while (j < k && list[j].pair == list[i].pair)
            j++;
        if (j - i == 2)
            p.n[list[i].half_points + list[i + 1].half_points]++;
        i = j;
    }
    free(list);
    return p;
}
