/*
 * ratings.h - the ratings of many players for the tournament tools (RULES.md
 * section 10), and the game as the rating code sees it (RatedGame, which the
 * match figures of elo.h count too). Pure functions of game lists: no I/O, no
 * globals, deterministic.
 *
 * Three to six seats, and teams: ratings_fit rates every player (or team) from
 * RatedGame lists: each game counts as a comparison of every unit with every other
 * unit in it (better place = win, same place = draw, worse = loss), fitted by
 * maximum likelihood of the logistic (Bradley-Terry) model, with 95% intervals by
 * bootstrap over games. Team games pass one unit per team, never partner against
 * partner, and are rated on a scale of their own (a separate ratings_fit call).
 *
 * Units: Elo is the logistic scale, expected score = 1 / (1 + 10^(-diff/400)).
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

/* The unit of game g that `player` played, or -1. */
int ratings_unit_of(const RatedGame *g, int player);

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
