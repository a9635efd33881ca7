/*
 * elo.h - the figures of a match between two players (RULES.md section 10),
 * Elo per game 1 / 0.5 / 0, from their results: pure functions of counts and
 * game lists, no I/O, no globals, deterministic.
 *
 *   - elo_from_wdl           score, Elo difference, 95% interval, LOS, draw rate
 *   - elo_pentanomial_count  game pairs (one opening, seats swapped) by pair score
 *   - elo_from_pentanomial   the same figures from the variance of pair scores
 *   - elo_wdl_count          wins, draws, losses of one player against another
 *
 * Units: Elo is the logistic scale, expected score = 1 / (1 + 10^(-diff/400));
 * scores, LOS and draw rates are probabilities in 0..1. The SPRT on these
 * counts is sprt.h's, the ratings of many players ratings.h's.
 */
#ifndef STERN_ELO_H
#define STERN_ELO_H

#include "ratings.h"

/* Result of a two-player comparison, from the first player's point of view. With
 * n == 0 every field is 0 (los and score 0.5). */
typedef struct EloResult {
    int n;            /* games (elo_from_wdl) or game pairs (elo_from_pentanomial) */
    double score;     /* mean points per game, 0..1 */
    double score_se;  /* standard error of score */
    double elo;       /* Elo difference first - second; +-INFINITY at score 1 or 0 */
    double elo_low;   /* 95% confidence interval of elo (may be -INFINITY) */
    double elo_high;  /* (may be +INFINITY) */
    double los;       /* likelihood of superiority, 0..1 */
    double draw_rate; /* draws per game; pentanomial: pairs scoring 1 (DD or WL) per pair */
} EloResult;

/* Pair counts by pair score in half points, from the first player's point of view:
 * n[0] LL, n[1] LD, n[2] DD or WL, n[3] WD, n[4] WW. */
enum { PENTA_LL, PENTA_LD, PENTA_DD_WL, PENTA_WD, PENTA_WW, PENTA_SIZE };
typedef struct Pentanomial {
    int n[PENTA_SIZE];
} Pentanomial;

typedef struct Wdl {
    int wins, draws, losses;
} Wdl;

/* Expected score (0..1) of a player `elo` Elo stronger than its opponent:
 * 1 / (1 + 10^(-elo/400)). */
double elo_to_score(double elo);

/* Elo difference of a mean score (0..1): -400 * log10(1/score - 1); +INFINITY for
 * score >= 1, -INFINITY for score <= 0. The inverse of elo_to_score. */
double elo_from_score(double score);

/* Figures of `wins`, `draws`, `losses` (counts >= 0) of the first player:
 * score = (W + D/2) / N; score_se = sqrt(var / N) with var the per-game variance
 * of the points (W(1-s)^2 + D(1/2-s)^2 + L s^2) / N; interval = the Elo of
 * score -+ 1.959964 * score_se (normal approximation, as cutechess-cli's Elo
 * "+/-"); LOS = 0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))) (0.5 when W + L = 0;
 * chessprogramming.org "Match Statistics", draws carry no information);
 * draw_rate = D / N. */
EloResult elo_from_wdl(int wins, int draws, int losses);

/* Figures of pentanomial counts p (pairs, >= 0): the pair score x (0, 1/4, 1/2,
 * 3/4, 1 per game) has mean s = score and variance var over pairs; score_se =
 * sqrt(var / pairs); interval as elo_from_wdl; LOS = Phi((s - 1/2) / score_se)
 * (normal approximation, Phi the standard normal CDF); draw_rate =
 * n[PENTA_DD_WL] / pairs. n is the number of pairs (games = 2n). The two games of
 * a pair share an opening, so their scores are correlated; the variance over pairs
 * accounts for that, the per-game one of elo_from_wdl does not (the pentanomial
 * model of fishtest, server/fishtest/stats/LLRcalc.py). */
EloResult elo_from_pentanomial(const Pentanomial *p);

/* Wins, draws and losses of `player` against `opponent` over the games (n >= 0) in
 * which both took part as different units (better place = win). */
Wdl elo_wdl_count(const RatedGame *games, int n, int player, int opponent);

/* Pentanomial counts of `player` against `opponent`: games in which both took part
 * are grouped by pair id (>= 0); each id with exactly two such games is one pair,
 * its score the sum of player's two game scores. Games with pair -1 and ids with
 * one game (the pair still running) or more than two are left out. Returns the
 * counts (all 0 when n == 0); on an allocation failure also all 0. */
Pentanomial elo_pentanomial_count(const RatedGame *games, int n, int player, int opponent);

#endif
