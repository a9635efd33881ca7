/* ratings.c - the ratings of many players; see ratings.h. */
#include "ratings.h"

#include "rng.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ELO_PER_NAT (400.0 / M_LN10)   /* Elo per natural log-odds unit */
#define SECULAR_ITERS 200              /* bisection steps (stops earlier at double precision) */
#define NEWTON_MAX_ITERS 200
#define NEWTON_TOL 1e-10               /* natural log-odds units */
#define BACKTRACK_MIN 1e-8             /* smallest Newton step fraction tried */
#define NEWTON_MAX_STEP 2.0            /* nats (347 Elo): the longest step of one rating */
#define PERCENT_LOW 0.025
#define PERCENT_HIGH 0.975

int ratings_unit_of(const RatedGame *g, int player)
{
    for (int i = 0; i < g->nunits; i++)
        if (g->player[i] == player)
            return i;
    return -1;
}

/* ---- ratings from places ---- */

/* Fitting state for m players with games (the "active" players). Ratings x are in
 * natural log-odds units. The first k are fitted; x[k..m-1] stay at given[]
 * (ratings_fit: k = m - 1 and x[m-1] = 0, as the likelihood only sees
 * differences; ratings_fit_given: the players whose ratings are given come last). */
typedef struct {
    int m, k;
    int *active;     /* nplayers: player -> active index, or -1 */
    double *given;   /* m: the held ratings x[k..m-1] (nats) */
    double *count;   /* m x m: comparisons of row and column player (symmetric) */
    double *points;  /* m x m: points of the row player against the column player */
    double *x, *trial, *grad, *step;
    double *hess;    /* k x k: minus the Hessian over the fitted ratings */
} Fit;

static bool game_valid(const RatedGame *g, int nplayers)
{
    if (g->nunits < 2 || g->nunits > RATINGS_MAX_UNITS)
        return false;
    for (int i = 0; i < g->nunits; i++)
        if (g->player[i] < 0 || g->player[i] >= nplayers || g->place[i] < 1 || g->place[i] > g->nunits)
            return false;
    return true;
}

/* Fills the table columns that do not depend on the fit: games (each game once
 * per player, however many units it had in it), units, comparisons, points and
 * the sum of places (divided by the units afterwards). */
static void tally(const RatedGame *games, int n, RatingRow *out)
{
    for (int k = 0; k < n; k++) {
        const RatedGame *g = &games[k];
        for (int a = 0; a < g->nunits; a++) {
            RatingRow *r = &out[g->player[a]];
            bool first = true; /* the player's first unit in this game */
            for (int b = 0; b < a && first; b++)
                first = g->player[b] != g->player[a];
            r->games += first;
            r->units++;
            r->mean_place += g->place[a];
            for (int b = 0; b < g->nunits; b++) {
                if (g->player[b] == g->player[a])
                    continue;
                r->comparisons++;
                r->points += g->place[a] < g->place[b] ? 1.0 : g->place[a] == g->place[b] ? 0.5 : 0.0;
            }
        }
    }
}

/* Comparison counts and points of the games, game k taken weight[k] times (all
 * once when weight is NULL), plus the prior between every two active players. */
static void fill_pairs(Fit *f, const RatedGame *games, int n, const int *weight)
{
    const int m = f->m;
    for (int i = 0; i < m * m; i++) {
        f->count[i] = i / m == i % m ? 0 : RATINGS_PRIOR_GAMES;
        f->points[i] = i / m == i % m ? 0 : RATINGS_PRIOR_GAMES / 2;
    }
    for (int k = 0; k < n; k++) {
        const RatedGame *g = &games[k];
        const double w = weight ? weight[k] : 1;
        if (w == 0)
            continue;
        for (int a = 0; a < g->nunits; a++)
            for (int b = a + 1; b < g->nunits; b++) {
                const int i = f->active[g->player[a]], j = f->active[g->player[b]];
                if (i == j)
                    continue;
                const double sa = g->place[a] < g->place[b] ? 1.0 : g->place[a] == g->place[b] ? 0.5 : 0.0;
                f->count[i * m + j] += w;
                f->count[j * m + i] += w;
                f->points[i * m + j] += w * sa;
                f->points[j * m + i] += w * (1 - sa);
            }
    }
}

/* log(1 / (1 + e^-d)) without overflow. */
static double log_sigmoid(double d)
{
    return d >= 0 ? -log1p(exp(-d)) : d - log1p(exp(d));
}

static double log_likelihood(const Fit *f, const double *x)
{
    const int m = f->m;
    double ll = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            if (i != j)
                ll += f->points[i * m + j] * log_sigmoid(x[i] - x[j]);
    return ll;
}

/* Solves A d = b in place (b becomes d) for the symmetric positive definite A
 * (k x k, overwritten by its Cholesky factor). Returns false when A is not
 * positive definite. */
static bool cholesky_solve(double *A, double *b, int k)
{
    for (int j = 0; j < k; j++) {
        double d = A[j * k + j];
        for (int p = 0; p < j; p++)
            d -= A[j * k + p] * A[j * k + p];
        if (!(d > 0))
            return false;
        A[j * k + j] = sqrt(d);
        for (int i = j + 1; i < k; i++) {
            double s = A[i * k + j];
            for (int p = 0; p < j; p++)
                s -= A[i * k + p] * A[j * k + p];
            A[i * k + j] = s / A[j * k + j];
        }
    }
    for (int i = 0; i < k; i++) { /* L y = b */
        double s = b[i];
        for (int p = 0; p < i; p++)
            s -= A[i * k + p] * b[p];
        b[i] = s / A[i * k + i];
    }
    for (int i = k - 1; i >= 0; i--) { /* L^T d = y */
        double s = b[i];
        for (int p = i + 1; p < k; p++)
            s -= A[p * k + i] * b[p];
        b[i] = s / A[i * k + i];
    }
    return true;
}

/* Maximises the log-likelihood over x[0..k-1] (x[k..m-1] held at given[]) by
 * Newton's method with backtracking; the prior makes the problem strictly
 * concave. */
static void solve(Fit *f)
{
    const int m = f->m, k = f->k;
    double mean_given = 0; /* the fit starts from the held ratings' mean */
    for (int i = k; i < m; i++)
        mean_given += f->given[i] / (m - k);
    for (int i = 0; i < k; i++)
        f->x[i] = mean_given;
    memcpy(f->x + k, f->given + k, (size_t)(m - k) * sizeof *f->x);
    memcpy(f->trial + k, f->given + k, (size_t)(m - k) * sizeof *f->trial);
    if (k == 0)
        return;
    double ll = log_likelihood(f, f->x);
    for (int it = 0; it < NEWTON_MAX_ITERS; it++) {
        memset(f->hess, 0, (size_t)k * k * sizeof *f->hess);
        for (int i = 0; i < k; i++) {
            f->grad[i] = 0;
            for (int j = 0; j < m; j++) {
                if (i == j)
                    continue;
                const double p = 1.0 / (1.0 + exp(f->x[j] - f->x[i]));
                const double c = f->count[i * m + j];
                f->grad[i] += f->points[i * m + j] - c * p;
                f->hess[i * k + i] += c * p * (1 - p);
                if (j < k)
                    f->hess[i * k + j] -= c * p * (1 - p);
            }
        }
        memcpy(f->step, f->grad, (size_t)k * sizeof *f->step);
        if (!cholesky_solve(f->hess, f->step, k))
            return;
        /* far from the optimum the logistic is flat and a Newton step can land
         * where it is flat again: at most NEWTON_MAX_STEP at a time */
        double longest = 0;
        for (int i = 0; i < k; i++)
            longest = fmax(longest, fabs(f->step[i]));
        for (int i = 0; i < k && longest > NEWTON_MAX_STEP; i++)
            f->step[i] *= NEWTON_MAX_STEP / longest;
        double t = 1, next = ll;
        for (; t >= BACKTRACK_MIN; t /= 2) {
            for (int i = 0; i < k; i++)
                f->trial[i] = f->x[i] + t * f->step[i];
            next = log_likelihood(f, f->trial);
            if (next >= ll)
                break;
        }
        if (t < BACKTRACK_MIN)
            return;
        double moved = 0;
        for (int i = 0; i < k; i++)
            moved = fmax(moved, fabs(f->trial[i] - f->x[i]));
        memcpy(f->x, f->trial, (size_t)m * sizeof *f->x);
        ll = next;
        if (moved < NEWTON_TOL)
            return;
    }
}

/* The fitted ratings in Elo, shifted so that the anchor (active index) is 0, or
 * their mean when anchor is -1, or not at all when it is ANCHOR_GIVEN (the given
 * ratings fix the scale), into elo[0..m-1]. */
#define ANCHOR_GIVEN (-2)
static void anchored_elo(const Fit *f, int anchor, double *elo)
{
    double shift = 0;
    if (anchor == ANCHOR_GIVEN) {
        shift = 0;
    } else if (anchor >= 0) {
        shift = f->x[anchor];
    } else {
        for (int i = 0; i < f->m; i++)
            shift += f->x[i];
        shift /= f->m;
    }
    for (int i = 0; i < f->m; i++)
        elo[i] = (f->x[i] - shift) * ELO_PER_NAT;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..n-1], interpolating between order statistics
 * (Hyndman and Fan type 7, the default of R and numpy). */
static double quantile(const double *v, int n, double q)
{
    const double pos = q * (n - 1);
    const int i = (int)pos;
    return i + 1 < n ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* Refits `bootstrap` resamples of the games and sets each active player's
 * interval to the percentiles of its ratings. Returns 0, or -1 without memory. */
static int bootstrap_intervals(Fit *f, const RatedGame *games, int n, int anchor, unsigned seed, int bootstrap,
                               const int *player_of, RatingRow *out)
{
    const int m = f->m;
    int *weight = malloc((size_t)n * sizeof *weight);
    double *sample = malloc((size_t)bootstrap * m * sizeof *sample); /* [player][resample] */
    double *elo = malloc((size_t)m * sizeof *elo);
    if (!weight || !sample || !elo) {
        free(weight);
        free(sample);
        free(elo);
        return -1;
    }
    uint64_t state = seed;
    for (int b = 0; b < bootstrap; b++) {
        memset(weight, 0, (size_t)n * sizeof *weight);
        for (int k = 0; k < n; k++)
            weight[rng_below(&state, n)]++;
        fill_pairs(f, games, n, weight);
        solve(f);
        anchored_elo(f, anchor, elo);
        for (int i = 0; i < m; i++)
            sample[(size_t)i * bootstrap + b] = elo[i];
    }
    for (int i = 0; i < m; i++) {
        double *v = &sample[(size_t)i * bootstrap];
        qsort(v, (size_t)bootstrap, sizeof *v, by_value);
        out[player_of[i]].low = quantile(v, bootstrap, PERCENT_LOW);
        out[player_of[i]].high = quantile(v, bootstrap, PERCENT_HIGH);
    }
    free(weight);
    free(sample);
    free(elo);
    return 0;
}

/* Opens the interval of a perfect score at its end (ratings.h): +INFINITY above a
 * player who won every comparison, -INFINITY below one who lost every one; not
 * for the anchor (index into out, or -1), whose rating is fixed, nor for a player
 * whose rating is given (given non-NULL and given[p] not NAN). */
static void open_perfect_ends(RatingRow *out, int nplayers, int anchor, const double *given)
{
    for (int p = 0; p < nplayers; p++) {
        RatingRow *r = &out[p];
        if (r->comparisons == 0 || p == anchor || (given && !isnan(given[p]))) /* fixed by definition */
            continue;
        if (r->points == r->comparisons)
            r->high = INFINITY;
        if (r->points == 0)
            r->low = -INFINITY;
    }
}

static void fit_free(Fit *f)
{
    free(f->active);
    free(f->given);
    free(f->count);
    free(f->points);
    free(f->x);
    free(f->trial);
    free(f->grad);
    free(f->step);
    free(f->hess);
}

/* Allocates f for the players with games in out (tallied): without `given`,
 * in player order with the last held at 0; with it (Elo, NAN for a player to
 * fit), the players to fit first and those given after them, held there. */
static int fit_alloc(Fit *f, const RatingRow *out, int nplayers, int *player_of, const double *given)
{
    memset(f, 0, sizeof *f);
    f->active = malloc((size_t)nplayers * sizeof *f->active);
    f->given = calloc((size_t)nplayers + 1, sizeof *f->given);
    if (!f->active || !f->given)
        return -1;
    for (int p = 0; p < nplayers; p++) {
        f->active[p] = -1;
        if (out[p].games > 0 && (!given || isnan(given[p]))) {
            f->active[p] = f->m;
            player_of[f->m++] = p;
        }
    }
    f->k = given ? f->m : f->m > 0 ? f->m - 1 : 0;
    for (int p = 0; p < nplayers && given; p++)
        if (out[p].games > 0 && !isnan(given[p])) {
            f->given[f->m] = given[p] / ELO_PER_NAT;
            f->active[p] = f->m;
            player_of[f->m++] = p;
        }
    const size_t m = (size_t)f->m;
    f->count = malloc(m * m * sizeof *f->count);
    f->points = malloc(m * m * sizeof *f->points);
    f->x = malloc(m * sizeof *f->x);
    f->trial = malloc(m * sizeof *f->trial);
    f->grad = malloc(m * sizeof *f->grad);
    f->step = malloc(m * sizeof *f->step);
    f->hess = malloc(m * m * sizeof *f->hess);
    return f->count && f->points && f->x && f->trial && f->grad && f->step && f->hess ? 0 : -1;
}

/* ratings_fit (given NULL) and ratings_fit_given (anchor -1). */
static int fit(const RatedGame *games, int n, int nplayers, int anchor, const double *given, unsigned seed,
               int bootstrap, RatingRow *out)
{
    if (nplayers < 1 || n < 0 || bootstrap < 0 || anchor < -1 || anchor >= nplayers)
        return -1;
    for (int k = 0; k < n; k++)
        if (!game_valid(&games[k], nplayers))
            return -1;
    memset(out, 0, (size_t)nplayers * sizeof *out);
    tally(games, n, out);
    if (anchor >= 0 && out[anchor].games == 0)
        return -1;
    for (int p = 0; p < nplayers; p++)
        if (out[p].units > 0)
            out[p].mean_place /= out[p].units;

    Fit f;
    int *player_of = malloc((size_t)nplayers * sizeof *player_of);
    int rc = player_of ? fit_alloc(&f, out, nplayers, player_of, given) : -1;
    if (rc == 0 && given && f.k == f.m) /* nothing given among the players: no scale */
        rc = -1;
    if (rc == 0 && f.m > 0) {
        const int anchor_index = given ? ANCHOR_GIVEN : anchor >= 0 ? f.active[anchor] : -1;
        fill_pairs(&f, games, n, NULL);
        solve(&f);
        anchored_elo(&f, anchor_index, f.trial); /* trial is free between solves */
        for (int i = 0; i < f.m; i++) {
            RatingRow *r = &out[player_of[i]];
            r->elo = r->low = r->high = f.trial[i];
        }
        if (bootstrap > 0)
            rc = bootstrap_intervals(&f, games, n, anchor_index, seed, bootstrap, player_of, out);
        open_perfect_ends(out, nplayers, anchor, given);
    }
    if (player_of)
        fit_free(&f);
    free(player_of);
    return rc;
}

int ratings_fit(const RatedGame *games, int n, int nplayers, int anchor, unsigned seed, int bootstrap,
                RatingRow *out)
{
    return fit(games, n, nplayers, anchor, NULL, seed, bootstrap, out);
}

int ratings_fit_given(const RatedGame *games, int n, int nplayers, const double *given, unsigned seed, int bootstrap,
                      RatingRow *out)
{
    if (!given || nplayers < 1)
        return -1;
    for (int p = 0; p < nplayers; p++)
        if (!isnan(given[p]) && !isfinite(given[p]))
            return -1;
    return fit(games, n, nplayers, -1, given, seed, bootstrap, out);
}

/* log of the probability that `player` has its record against the given
 * players, every game won (sign +1) or lost (-1), at rating r (Elo). */
static double log_perfect(const RatedGame *games, int n, int player, const double *given, double r, double sign)
{
    double ll = 0;
    for (int k = 0; k < n; k++) {
        if (ratings_unit_of(&games[k], player) < 0)
            continue;
        for (int b = 0; b < games[k].nunits; b++) {
            const int o = games[k].player[b];
            if (o != player && !isnan(given[o]))
                ll += log_sigmoid(sign * (r - given[o]) / ELO_PER_NAT);
        }
    }
    return ll;
}

double ratings_perfect_bound(const RatedGame *games, int n, int player, const double *given, double alpha, bool won)
{
    if (!(alpha > 0 && alpha < 1) || player < 0 || !given)
        return NAN;
    int met = 0;
    for (int k = 0; k < n; k++) {
        const RatedGame *g = &games[k];
        const int a = ratings_unit_of(g, player);
        if (a < 0)
            continue;
        for (int b = 0; b < g->nunits; b++) {
            const int o = g->player[b];
            if (o == player || isnan(given[o]))
                continue;
            if (won ? g->place[a] >= g->place[b] : g->place[a] <= g->place[b])
                return NAN;
            met++;
        }
    }
    if (!met)
        return NAN;
    /* the record's log-probability runs from -inf to 0 as r rises (won) or
     * falls (lost): bisect for log(alpha) */
    const double target = log(alpha), sign = won ? 1 : -1;
    double lo = -1e5, hi = 1e5;
    for (int it = 0; it < SECULAR_ITERS && hi - lo > 1e-9; it++) {
        const double mid = (lo + hi) / 2;
        if ((log_perfect(games, n, player, given, mid, sign) < target) == won)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* Union-find root of player p, halving the path on the way. */
static int group_root(int *parent, int p)
{
    while (parent[p] != p)
        p = parent[p] = parent[parent[p]];
    return p;
}

int ratings_groups(const RatedGame *games, int n, int nplayers, int *group)
{
    if (nplayers < 1 || n < 0)
        return -1;
    for (int k = 0; k < n; k++)
        if (!game_valid(&games[k], nplayers))
            return -1;
    int *parent = malloc((size_t)nplayers * 2 * sizeof *parent);
    if (!parent)
        return -1;
    int *label = parent + nplayers; /* root -> group number, or -1 */
    for (int p = 0; p < nplayers; p++) {
        parent[p] = p;
        label[p] = group[p] = -1;
    }
    for (int k = 0; k < n; k++) { /* every unit joins the first unit's group */
        const RatedGame *g = &games[k];
        const int root = group_root(parent, g->player[0]);
        for (int u = 1; u < g->nunits; u++) {
            const int r = group_root(parent, g->player[u]);
            if (r != root)
                parent[r] = root;
        }
    }
    for (int k = 0; k < n; k++) /* -2: has games, group not numbered yet */
        for (int u = 0; u < games[k].nunits; u++)
            group[games[k].player[u]] = -2;
    int ngroups = 0;
    for (int p = 0; p < nplayers; p++) /* in index order: a group is numbered at its lowest player */
        if (group[p] == -2) {
            const int root = group_root(parent, p);
            if (label[root] < 0)
                label[root] = ngroups++;
            group[p] = label[root];
        }
    free(parent);
    return ngroups;
}
