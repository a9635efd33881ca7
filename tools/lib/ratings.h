/*
 * ratings.h - rating math for the tournament tool (RULES.md section 10). Pure
 * functions of counts and game lists: no I/O, no globals, deterministic.
 *
 * Two seats (a match between two players, Elo per game 1 / 0.5 / 0):
 *   - elo_from_wdl         score, Elo difference, 95% interval, LOS, draw rate
 *   - pentanomial_count    game pairs (one opening, seats swapped) by pair score
 *   - elo_from_pentanomial the same figures from the variance of pair scores
 *   - sprt_check / sprt_bounds / sprt_llr / sprt_decide   a GSPRT on logistic Elo
 *   - wdl_count            wins, draws, losses of one player against another
 *
 * Three to six seats, and teams: ratings_fit rates every player (or team) from
 * RatedGame lists: each game counts as a comparison of every unit with every other
 * unit in it (better place = win, same place = draw, worse = loss), fitted by
 * maximum likelihood of the logistic (Bradley-Terry) model, with 95% intervals by
 * bootstrap over games. Team games pass one unit per team, never partner against
 * partner, and are rated on a scale of their own (a separate ratings_fit call).
 *
 * Units: Elo is the logistic scale, expected score = 1 / (1 + 10^(-diff/400));
 * scores, LOS, draw rates, alpha and beta are probabilities in 0..1; LLR values are
 * natural logarithms.
 *
 * The API is shared by the arena (tools/arena/), stern-ladder and the record
 * reader (pgn_read.h): keep it stable.
 */
#ifndef STERN_RATINGS_H
#define STERN_RATINGS_H

#include <stdbool.h>

#define RATINGS_MAX_UNITS 6          /* seats (or teams) in one game */
#define RATINGS_BOOTSTRAP_DEFAULT 200 /* resamples for ratings_fit intervals */
#define RATINGS_PRIOR_GAMES 0.1      /* ratings_fit: virtual drawn comparisons per two players */

/* One game as the rating code sees it: nunits units (seats, or teams in a team
 * game), unit i played by player[i] (an index into the caller's player list) and
 * placed place[i] (1..nunits; equal places share, competition numbering). pair
 * groups the two games of one opening played with seats swapped (any id >= 0 shared
 * by exactly those two games), or -1. */
typedef struct RatedGame {
    int nunits;                     /* 2..RATINGS_MAX_UNITS */
    int player[RATINGS_MAX_UNITS];
    int place[RATINGS_MAX_UNITS];
    int pair;
} RatedGame;

/* ---- two players ---- */

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
double score_from_elo(double elo);

/* Elo difference of a mean score (0..1): -400 * log10(1/score - 1); +INFINITY for
 * score >= 1, -INFINITY for score <= 0. The inverse of score_from_elo. */
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
Wdl wdl_count(const RatedGame *games, int n, int player, int opponent);

/* Pentanomial counts of `player` against `opponent`: games in which both took part
 * are grouped by pair id (>= 0); each id with exactly two such games is one pair,
 * its score the sum of player's two game scores. Games with pair -1 and ids with
 * one game (the pair still running) or more than two are left out. Returns the
 * counts (all 0 when n == 0); on an allocation failure also all 0. */
Pentanomial pentanomial_count(const RatedGame *games, int n, int player, int opponent);

/* ---- SPRT (sequential probability ratio test) ---- */

typedef struct SprtBounds {
    double lower; /* log(beta / (1 - alpha)): accept H0 at or below */
    double upper; /* log((1 - beta) / alpha): accept H1 at or above */
} SprtBounds;

typedef enum { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 } SprtDecision;

/* NULL when H0: elo = elo0 against H1: elo = elo1 with error rates alpha (false
 * H1) and beta (false H0) is a valid test, else why not (a static string):
 * elo0 < elo1, 0 < alpha < 1, 0 < beta < 1, alpha + beta < 1. */
const char *sprt_check(double elo0, double elo1, double alpha, double beta);

/* Wald's bounds for the LLR of a test with error rates alpha and beta (valid per
 * sprt_check): alpha = beta = 0.05 gives -2.944 and +2.944. */
SprtBounds sprt_bounds(double alpha, double beta);

/* Log-likelihood ratio of H1: elo = elo1 against H0: elo = elo0 (logistic Elo,
 * elo0 < elo1) given the results so far. Uses the pentanomial counts when pairs is
 * not NULL and holds at least one pair, else the trinomial wins/draws/losses.
 * Generalized SPRT (GSPRT, http://stat.columbia.edu/~jcliu/paper/GSPRT_SQA3.pdf):
 * LLR = N * sum_i phat_i * log(p1_i / p0_i), where phat is the observed
 * distribution of the N results over the scores a_i (0, 1/2, 1 per game or
 * 0, 1/4, .. 1 per pair, zero counts replaced by 1e-3) and p_s the maximum
 * likelihood distribution with expected score s, p_s,i = phat_i / (1 + x (a_i - s))
 * with x solving sum_i phat_i (a_i - s) / (1 + x (a_i - s)) = 0 (M. Van den
 * Bergh, https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf, proposition
 * 1.1), for s = score_from_elo(elo0) and score_from_elo(elo1). This is fishtest's
 * LLR_logistic (server/fishtest/stats/LLRcalc.py) and fastchess's "logistic"
 * model; for small Elo differences it agrees with the normal approximation
 * N (s1 - s0) (2 s - s0 - s1) / (2 var) (LLR_alt2 there). Returns 0 without
 * results. */
double sprt_llr(const Pentanomial *pairs, int wins, int draws, int losses, double elo0, double elo1);

/* The decision for `llr` against bounds b: SPRT_ACCEPT_H1 when llr >= b.upper,
 * SPRT_ACCEPT_H0 when llr <= b.lower, else SPRT_CONTINUE. */
SprtDecision sprt_decide(double llr, SprtBounds b);

/* ---- many players: ratings from places ---- */

/* One row of the rating table, per player. */
typedef struct RatingRow {
    double elo;        /* rating, Elo (0 without games) */
    double low, high;  /* 95% interval, Elo: bootstrap percentiles 2.5 and 97.5
                          (= elo when bootstrap is 0 or without games); high is
                          +INFINITY for a player who won every comparison, low
                          -INFINITY for one who lost every one (see ratings_fit) */
    int games;         /* games played, each once however many units it had in it */
    int units;         /* units played: games plus the extra units of a player
                          with several in one game (seats=, ABABAB) */
    int comparisons;   /* pairwise comparisons: opponents met, summed over units */
    double points;     /* comparisons won (1) and drawn (1/2) */
    double mean_place; /* average place (1 = first) over its units, 0 without games */
} RatingRow;

/* Fits ratings of players 0..nplayers-1 from n games (n >= 0).
 * Model: in every game each two units of different players are one comparison;
 * P(i scores against j) = 1 / (1 + 10^((r_j - r_i)/400)), a draw counting half a
 * win (Bradley-Terry with draws as half wins: Hunter, "MM algorithms for
 * generalized Bradley-Terry models", Ann. Statist. 2004). The ratings maximise
 * the likelihood of all comparisons plus a weak prior, RATINGS_PRIOR_GAMES virtual
 * drawn comparisons between every two players with games, which keeps a perfect or
 * zero score finite and ties unconnected groups together; it is solved by Newton's
 * method on the concave log-likelihood. With two players the rating difference is
 * 400 log10((P + g/2) / (C - P + g/2)), P points of C comparisons, g the prior.
 * Two units of the same player in one game (self-play) are not compared.
 * anchor: -1 puts the mean rating of the players with games at 0, else player
 * `anchor` (which must have games) is rated 0. bootstrap: resamples of the games
 * (with replacement, RATINGS_BOOTSTRAP_DEFAULT is the usual number) whose refitted
 * ratings give the interval, drawn from a generator seeded with `seed` (the same
 * seed and games give the same intervals); 0 for none.
 * A perfect score has no finite maximum of the likelihood: the prior alone holds
 * the rating of a player who won (lost) every one of its comparisons, and every
 * resample is as perfect, so the bootstrap cannot bound it. Its interval is
 * therefore open at that end: high = +INFINITY (low = -INFINITY), the other end
 * the bootstrap's (or the rating without bootstrap), as elo_from_wdl's interval
 * reaches +-INFINITY for two players.
 * Fills out[0..nplayers-1]; players without games get a zero row.
 * Returns 0, or -1 when an argument is out of range (nplayers < 1, anchor,
 * bootstrap < 0, a game's nunits, player or place) or memory runs out. */
int ratings_fit(const RatedGame *games, int n, int nplayers, int anchor, unsigned seed, int bootstrap,
                RatingRow *out);

/* ratings_fit with the ratings of some players given, as a published list's
 * anchors: given[p] is player p's rating in Elo, or NAN for a player to rate.
 * The ratings of the others maximise the same likelihood (and prior) with the
 * given ones held, so they land on the given ones' scale (no shift). A given
 * player's row has its given rating, interval and all; the bootstrap refits the
 * others with the given ones held, and a perfect score opens its interval as in
 * ratings_fit. Returns 0, or -1 as ratings_fit, or when given is NULL, holds
 * an infinite value, or gives no player with games (then nothing sets the
 * scale). */
int ratings_fit_given(const RatedGame *games, int n, int nplayers, const double *given, unsigned seed, int bootstrap,
                      RatingRow *out);

/* The end of a one-sided confidence interval, at level 1 - alpha (0 < alpha <
 * 1), for the rating of `player` when it won (`won` true: the lower end) or lost
 * (false: the upper end) every game against the players whose ratings are given
 * (given[] as ratings_fit_given): the rating r at which a record as perfect has
 * probability alpha, prod_j P(win against j at r)^(n_j) = alpha over its n_j
 * games against each given player j (Clopper-Pearson's bound, alpha^(1/n) as a
 * score, with one opponent), found by bisection. Games against players without
 * a given rating are not counted (the bound is then looser than it could be).
 * The fit's own rating of such a player is set by the prior alone. Returns NAN
 * when the player drew or had the other result in a game against a given
 * player, or played none. */
double ratings_perfect_bound(const RatedGame *games, int n, int player, const double *given, double alpha, bool won);

/* The connected groups of players: two players are connected when they met in a
 * game as different units, directly or through others. Ratings of players of
 * different groups are not comparable (nothing in the games relates them; only
 * ratings_fit's prior would), so each group should be rated on its own.
 * Fills group[0..nplayers-1] with the group of every player with games, numbered
 * 0.. in the order of their lowest player index, and -1 for players without games.
 * Returns the number of groups (0 without games), or -1 when an argument is out of
 * range (nplayers < 1, n < 0, a game's nunits, player or place) or memory runs out. */
int ratings_groups(const RatedGame *games, int n, int nplayers, int *group);

#endif
