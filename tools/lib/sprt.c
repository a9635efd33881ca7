/* sprt.c - the SPRT of a match between two players; see sprt.h. */
#include "sprt.h"

#include <math.h>
#include <stddef.h>

#define LLR_EMPTY_CLASS 1e-3 /* fishtest's stand-in count for an empty result class */
#define SECULAR_ITERS 200    /* bisection steps (stops earlier at double precision) */

const char *sprt_check(double elo0, double elo1, double alpha, double beta)
{
    if (!(elo0 < elo1))
        return "elo0 must be less than elo1";
    if (!(alpha > 0 && alpha < 1))
        return "alpha must lie between 0 and 1";
    if (!(beta > 0 && beta < 1))
        return "beta must lie between 0 and 1";
    if (!(alpha + beta < 1))
        return "alpha + beta must be less than 1";
    return NULL;
}

SprtBounds sprt_bounds(double alpha, double beta)
{
    return (SprtBounds){log(beta / (1 - alpha)), log((1 - beta) / alpha)};
}

SprtDecision sprt_decide(double llr, SprtBounds b)
{
    if (llr >= b.upper)
        return SPRT_ACCEPT_H1;
    if (llr <= b.lower)
        return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE;
}

/* The x of the maximum likelihood distribution with expectation s (a[0] < s <
 * a[k-1]): the root of f(x) = sum_i phat_i (a_i - s) / (1 + x (a_i - s)), which
 * falls from +inf to -inf on (-1/(a[k-1] - s), -1/(a[0] - s)); found by bisection. */
static double secular_root(const double *a, const double *phat, int k, double s)
{
    double lo = -1.0 / (a[k - 1] - s), hi = -1.0 / (a[0] - s);
    for (int it = 0; it < SECULAR_ITERS; it++) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        double f = 0;
        for (int i = 0; i < k; i++)
            f += phat[i] * (a[i] - s) / (1.0 + mid * (a[i] - s));
        if (f > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* GSPRT LLR of k result classes (scores i/(k-1)) with counts c; see sprt.h. */
static double llr_of_counts(const int *c, int k, double elo0, double elo1)
{
    double cnt[PENTA_SIZE] = {0}, a[PENTA_SIZE] = {0}, phat[PENTA_SIZE] = {0}, total = 0;
    for (int i = 0; i < k; i++) {
        cnt[i] = c[i] > 0 ? c[i] : LLR_EMPTY_CLASS;
        a[i] = (double)i / (k - 1);
        total += cnt[i];
    }
    for (int i = 0; i < k; i++)
        phat[i] = cnt[i] / total;
    const double s0 = elo_to_score(elo0), s1 = elo_to_score(elo1);
    const double x0 = secular_root(a, phat, k, s0), x1 = secular_root(a, phat, k, s1);
    double llr = 0;
    for (int i = 0; i < k; i++) /* log(p1_i / p0_i), p_s,i = phat_i / (1 + x_s (a_i - s)) */
        llr += phat[i] * (log1p(x0 * (a[i] - s0)) - log1p(x1 * (a[i] - s1)));
    return total * llr;
}

double sprt_llr(const Pentanomial *pairs, int wins, int draws, int losses, double elo0, double elo1)
{
    if (pairs) {
        int npairs = 0;
        for (int i = 0; i < PENTA_SIZE; i++)
            npairs += pairs->n[i];
        if (npairs > 0)
            return llr_of_counts(pairs->n, PENTA_SIZE, elo0, elo1);
    }
    if (wins + draws + losses <= 0)
        return 0;
    const int tri[3] = {losses, draws, wins};
    return llr_of_counts(tri, 3, elo0, elo1);
}
