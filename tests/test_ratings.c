/*
 * test_ratings.c - rating math (tools/lib/ratings.c) against values worked out by
 * hand: Elo, interval, LOS and draw rate of W/D/L counts, pentanomial counts and
 * figures, SPRT bounds, LLR and decisions, place-based ratings of three and four
 * seats, anchoring, bootstrap intervals, the open end of a perfect score's
 * interval, games counted once per player with several seats, and the groups of
 * players that never met.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "elo.h"
#include "ratings.h"
#include "sprt.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define ELO_EPS 0.01   /* Elo compared to two decimals */
#define PROB_EPS 1e-6  /* probabilities */
#define FIT_EPS 1e-6   /* Elo from the fit: converged to well below this */

static void assert_near(double got, double want, double eps)
{
    if (!(fabs(got - want) <= eps))
        fail_msg("got %.9f, want %.9f (+-%g)", got, want, eps);
}

/* ---- two players ---- */

/* 60 wins, 20 draws, 20 losses in 100 games:
 * score s = (60 + 20/2) / 100 = 0.7; Elo = -400 log10(1/0.7 - 1) = -400 log10(3/7)
 * = 147.19. Per-game variance (60 (1-0.7)^2 + 20 (0.5-0.7)^2 + 20 (0-0.7)^2) / 100
 * = (5.4 + 0.8 + 9.8) / 100 = 0.16; standard error sqrt(0.16 / 100) = 0.04;
 * 95%: 0.7 -+ 1.959964 * 0.04 = 0.621601 .. 0.778399, i.e.
 * -400 log10(1/0.621601 - 1) = 86.23 and -400 log10(1/0.778399 - 1) = 218.25.
 * LOS = 0.5 (1 + erf(40 / sqrt(160))) = 0.5 (1 + erf(3.1623)) = 0.9999961. */
static void test_elo_from_wdl_60_20_20_is_147_with_interval_86_to_218(void **state)
{
    (void)state;
    const EloResult r = elo_from_wdl(60, 20, 20);
    assert_int_equal(r.n, 100);
    assert_near(r.score, 0.7, PROB_EPS);
    assert_near(r.score_se, 0.04, PROB_EPS);
    assert_near(r.elo, 147.19, ELO_EPS);
    assert_near(r.elo_low, 86.23, ELO_EPS);
    assert_near(r.elo_high, 218.25, ELO_EPS);
    assert_near(r.los, 0.9999961, PROB_EPS);
    assert_near(r.draw_rate, 0.2, PROB_EPS);
}

/* 10 wins, 5 losses: LOS = 0.5 (1 + erf(5 / sqrt(30))) = 0.5 (1 + erf(0.912871))
 * = 0.5 (1 + 0.803294) = 0.901647; the draws do not change it. */
static void test_los_of_10_wins_5_losses_is_0_9016_whatever_the_draws(void **state)
{
    (void)state;
    assert_near(elo_from_wdl(10, 0, 5).los, 0.901647, PROB_EPS);
    assert_near(elo_from_wdl(10, 37, 5).los, 0.901647, PROB_EPS);
    assert_near(elo_from_wdl(5, 3, 10).los, 1 - 0.901647, PROB_EPS);
    assert_near(elo_from_wdl(0, 8, 0).los, 0.5, PROB_EPS);
}

static void test_elo_of_even_perfect_and_empty_results(void **state)
{
    (void)state;
    const EloResult even = elo_from_wdl(7, 6, 7);
    assert_near(even.elo, 0, ELO_EPS);
    assert_near(even.elo_low, -even.elo_high, ELO_EPS);
    const EloResult perfect = elo_from_wdl(5, 0, 0);
    assert_true(isinf(perfect.elo) && perfect.elo > 0);
    assert_near(perfect.score_se, 0, PROB_EPS);
    const EloResult none = elo_from_wdl(0, 0, 0);
    assert_int_equal(none.n, 0);
    assert_near(none.score, 0.5, PROB_EPS);
    assert_near(none.elo, 0, ELO_EPS);
    assert_near(elo_from_score(elo_to_score(-123.4)), -123.4, 1e-9);
}

/* A two-seat game of players a (seat 0) and b, a's place given. */
static RatedGame duel(int a, int b, int a_place, int b_place, int pair)
{
    return (RatedGame){2, {a, b}, {a_place, b_place}, pair};
}

/* Player 0 against player 1, each pair an opening played with seats swapped. */
static void test_pentanomial_counts_pairs_by_pair_score(void **state)
{
    (void)state;
    const RatedGame games[] = {
        duel(0, 1, 1, 2, 0), duel(1, 0, 2, 1, 0), /* win, win: WW */
        duel(0, 1, 1, 2, 1), duel(1, 0, 1, 2, 1), /* win, loss: WL */
        duel(0, 1, 1, 1, 2), duel(1, 0, 1, 1, 2), /* draw, draw: DD */
        duel(0, 1, 1, 1, 3), duel(1, 0, 1, 2, 3), /* draw, loss: LD */
        duel(0, 1, 2, 1, 4), duel(1, 0, 1, 2, 4), /* loss, loss: LL */
        duel(1, 0, 2, 1, 5), duel(0, 1, 1, 1, 5), /* win, draw: WD (played apart) */
        duel(0, 1, 1, 2, 6),                      /* pair 6 still running */
        duel(0, 1, 1, 2, -1),                     /* not paired */
        duel(0, 2, 1, 2, 7), duel(2, 0, 2, 1, 7), /* another opponent */
    };
    const int n = sizeof games / sizeof *games;
    const Pentanomial p = elo_pentanomial_count(games, n, 0, 1);
    assert_int_equal(p.n[PENTA_LL], 1);
    assert_int_equal(p.n[PENTA_LD], 1);
    assert_int_equal(p.n[PENTA_DD_WL], 2);
    assert_int_equal(p.n[PENTA_WD], 1);
    assert_int_equal(p.n[PENTA_WW], 1);
    const Pentanomial mirror = elo_pentanomial_count(games, n, 1, 0);
    assert_int_equal(mirror.n[PENTA_WW], 1);
    assert_int_equal(mirror.n[PENTA_WD], 1);
    assert_int_equal(mirror.n[PENTA_LD], 1);
    const Wdl w = elo_wdl_count(games, n, 0, 1);
    assert_int_equal(w.wins, 6);   /* pairs 0 (two), 1, 5, 6 and the unpaired game */
    assert_int_equal(w.draws, 4);  /* pairs 2 (two), 3, 5 */
    assert_int_equal(w.losses, 4); /* pairs 1, 3, 4 (two) */
}

/* Pairs LL 4, LD 18, DD/WL 50, WD 22, WW 6 (100 pairs):
 * s = (18/4 + 50/2 + 22*3/4 + 6) / 100 = (4.5 + 25 + 16.5 + 6) / 100 = 0.52,
 * Elo = -400 log10(1/0.52 - 1) = 13.90. Variance over pairs
 * (4*0.52^2 + 18*0.27^2 + 50*0.02^2 + 22*0.23^2 + 6*0.48^2) / 100
 * = (1.0816 + 1.3122 + 0.02 + 1.1638 + 1.3824) / 100 = 0.0496;
 * se = sqrt(0.0496 / 100) = 0.0222711; 0.52 -+ 1.959964 se = 0.476350 .. 0.563650:
 * Elo -16.45 .. 44.47; LOS = Phi(0.02 / 0.0222711) = Phi(0.89802) = 0.815414. */
static void test_elo_from_pentanomial_uses_pair_variance(void **state)
{
    (void)state;
    const Pentanomial p = {{4, 18, 50, 22, 6}};
    const EloResult r = elo_from_pentanomial(&p);
    assert_int_equal(r.n, 100);
    assert_near(r.score, 0.52, PROB_EPS);
    assert_near(r.elo, 13.90, ELO_EPS);
    assert_near(r.elo_low, -16.45, ELO_EPS);
    assert_near(r.elo_high, 44.47, ELO_EPS);
    assert_near(r.los, 0.815414, PROB_EPS);
    assert_near(r.draw_rate, 0.5, PROB_EPS);
}

/* ---- SPRT ---- */

/* log(0.05 / 0.95) = -2.944439, log(0.95 / 0.05) = +2.944439. */
static void test_sprt_bounds_for_alpha_beta_0_05_are_2_944(void **state)
{
    (void)state;
    const SprtBounds b = sprt_bounds(0.05, 0.05);
    assert_near(b.lower, -2.944439, PROB_EPS);
    assert_near(b.upper, 2.944439, PROB_EPS);
    const SprtBounds skew = sprt_bounds(0.05, 0.10);
    assert_near(skew.lower, log(0.10 / 0.95), PROB_EPS);
    assert_near(skew.upper, log(0.90 / 0.05), PROB_EPS);
    assert_null(sprt_check(0, 5, 0.05, 0.05));
    assert_non_null(sprt_check(5, 0, 0.05, 0.05));
    assert_non_null(sprt_check(0, 5, 0, 0.05));
    assert_non_null(sprt_check(0, 5, 0.6, 0.5));
}

/* The normal approximation of the GSPRT, LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var),
 * by hand for elo0 = 0, elo1 = 5 (s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.507195):
 * pairs 4/18/50/22/6: s = 0.52, var = 0.0496 (above):
 *   100 * 0.007195 * (1.04 - 1.007195) / (2 * 0.0496) = 0.2379;
 * trinomial L 20 D 40 W 30: s = 50/90 = 0.5556, var = 0.135802:
 *   90 * 0.007195 * (1.1111 - 1.007195) / (2 * 0.135802) = 0.2478.
 * The exact maximum-likelihood LLR (the same bisection worked independently in
 * Python, double precision) is 0.236630 and 0.242529: a few per mille to 2% off the
 * approximation, and of the same sign. */
static void test_sprt_llr_matches_gsprt_and_its_normal_approximation(void **state)
{
    (void)state;
    const Pentanomial p = {{4, 18, 50, 22, 6}};
    assert_near(sprt_llr(&p, 0, 0, 0, 0, 5), 0.236630, 1e-5);
    assert_near(sprt_llr(&p, 0, 0, 0, 0, 5), 0.2379, 0.002);
    assert_near(sprt_llr(NULL, 30, 40, 20, 0, 5), 0.242529, 1e-5);
    const Pentanomial none = {{0}};
    assert_near(sprt_llr(&none, 30, 40, 20, 0, 5), 0.242529, 1e-5); /* no pairs: trinomial */
    assert_near(sprt_llr(NULL, 20, 40, 30, 0, 5), -0.275481, 1e-5);
    assert_near(sprt_llr(NULL, 0, 0, 0, 0, 5), 0, 0);
}

/* 600/200/200 against H0: elo 0, H1: elo 10 is far above the upper bound; an even
 * score over 10000 games (4000/2000/4000) is below the lower one:
 * -10000 * 0.014389^2 / (2 * 0.2) = -5.18 by the normal approximation. */
static void test_sprt_decides_h1_for_strong_and_h0_for_even_results(void **state)
{
    (void)state;
    const SprtBounds b = sprt_bounds(0.05, 0.05);
    const double strong = sprt_llr(NULL, 600, 200, 200, 0, 10);
    assert_true(strong > b.upper);
    assert_int_equal(sprt_decide(strong, b), SPRT_ACCEPT_H1);
    const double even = sprt_llr(NULL, 4000, 2000, 4000, 0, 10);
    assert_near(even, -5.18, 0.01);
    assert_int_equal(sprt_decide(even, b), SPRT_ACCEPT_H0);
    const double early = sprt_llr(NULL, 3, 2, 1, 0, 10);
    assert_true(early > 0);
    assert_int_equal(sprt_decide(early, b), SPRT_CONTINUE);
}

/* ---- ratings from places ---- */

static RatedGame placed(int nunits, const int *player, const int *place)
{
    RatedGame g = {nunits, {0}, {0}, -1};
    memcpy(g.player, player, (size_t)nunits * sizeof *player);
    memcpy(g.place, place, (size_t)nunits * sizeof *place);
    return g;
}

/* Two players, 60/20/20: with the prior of 0.1 virtual drawn comparisons the fit is
 * 400 log10((70 + 0.05) / (30 + 0.05)) = 147.03 (the bare MLE would be 147.19). */
static void test_fit_of_two_players_is_the_closed_form_with_the_prior(void **state)
{
    (void)state;
    RatedGame games[100];
    for (int i = 0; i < 100; i++) { /* player 0 wins 60, draws 20, loses 20; seats alternate */
        const int mine = i < 60 ? 1 : i < 80 ? 1 : 2, theirs = i < 60 ? 2 : 1;
        games[i] = i % 2 ? duel(1, 0, theirs, mine, -1) : duel(0, 1, mine, theirs, -1);
    }
    const Wdl w = elo_wdl_count(games, 100, 0, 1);
    assert_int_equal(w.wins, 60);
    assert_int_equal(w.draws, 20);
    RatingRow rows[2];
    assert_int_equal(ratings_fit(games, 100, 2, 1, 1, 0, rows), 0);
    assert_near(rows[1].elo, 0, FIT_EPS);
    assert_near(rows[0].elo, 400 * log10(70.05 / 30.05), FIT_EPS);
    assert_near(rows[0].elo, 147.03, ELO_EPS);
    assert_int_equal(rows[0].games, 100);
    assert_near(rows[0].points, 70, 0);
    assert_near(rows[0].low, rows[0].elo, 0); /* no bootstrap */
}

#define NPLAYERS3 3
enum { A, B, C, D };

/* Three players, four 3-seat games with full orderings:
 *   A1 B2 C3, A1 B2 C3, B1 A2 C3, A1 C2 B3.
 * Pairwise by hand: A-B 3:1 (B ahead only in game 3), A-C 4:0, B-C 3:1 (C ahead
 * only in game 4). Points (of 8 comparisons): A 7, B 1 + 3 = 4, C 0 + 1 = 1.
 * Average places: A (1+1+2+1)/4 = 1.25, B (2+2+1+3)/4 = 2, C (3+3+3+2)/4 = 2.75. */
static void three_player_games(RatedGame *games)
{
    const int seats[3] = {A, B, C};
    games[0] = placed(3, seats, (const int[]){1, 2, 3});
    games[1] = placed(3, seats, (const int[]){1, 2, 3});
    games[2] = placed(3, seats, (const int[]){2, 1, 3});
    games[3] = placed(3, seats, (const int[]){1, 3, 2});
}

static void test_fit_of_three_players_orders_them_and_solves_the_likelihood(void **state)
{
    (void)state;
    RatedGame games[4];
    three_player_games(games);
    RatingRow r[NPLAYERS3];
    assert_int_equal(ratings_fit(games, 4, NPLAYERS3, -1, 1, 0, r), 0);
    assert_true(r[A].elo > r[B].elo && r[B].elo > r[C].elo);
    assert_near(r[A].elo + r[B].elo + r[C].elo, 0, FIT_EPS);
    assert_near(r[A].points, 7, 0);
    assert_near(r[B].points, 4, 0);
    assert_near(r[C].points, 1, 0);
    assert_int_equal(r[A].comparisons, 8);
    assert_near(r[A].mean_place, 1.25, 0);
    assert_near(r[B].mean_place, 2, 0);
    assert_near(r[C].mean_place, 2.75, 0);
    /* the maximum: each player's expected points equal its actual points, the
     * prior's 0.05 of 0.1 virtual comparisons per opponent included */
    const double count[NPLAYERS3][NPLAYERS3] = {{0, 4, 4}, {4, 0, 4}, {4, 4, 0}};
    for (int i = 0; i < NPLAYERS3; i++) {
        double expected = 0;
        for (int j = 0; j < NPLAYERS3; j++)
            if (j != i)
                expected += (count[i][j] + RATINGS_PRIOR_GAMES) * elo_to_score(r[i].elo - r[j].elo);
        assert_near(expected, r[i].points + 2 * RATINGS_PRIOR_GAMES / 2, 1e-9);
    }
}

/* Four players, three 4-seat games with shared places (competition numbering):
 *   g1: A1 B2 C2 D4   g2: A3 B1 C1 D4   g3: A2 B3 C3 D1
 * Pairwise by hand:
 *   A-B: g1 A, g2 B, g3 A: 2:1     A-C: the same, 2:1     A-D: g1 A, g2 A, g3 D: 2:1
 *   B-C: three draws, 1.5:1.5     B-D: g1 B, g2 B, g3 D: 2:1   C-D: the same, 2:1
 * Points of 9: A 6, B 1 + 1.5 + 2 = 4.5, C 4.5, D 1 + 1 + 1 = 3 (18 in all = 3 x 6).
 * B and C are interchangeable in the data, so they get the same rating. */
static void test_fit_of_four_seats_gives_equal_players_equal_ratings(void **state)
{
    (void)state;
    const int seats[4] = {A, B, C, D};
    const RatedGame games[3] = {
        placed(4, seats, (const int[]){1, 2, 2, 4}),
        placed(4, seats, (const int[]){3, 1, 1, 4}),
        placed(4, seats, (const int[]){2, 3, 3, 1}),
    };
    RatingRow r[4];
    assert_int_equal(ratings_fit(games, 3, 4, -1, 1, 0, r), 0);
    assert_near(r[A].points, 6, 0);
    assert_near(r[B].points, 4.5, 0);
    assert_near(r[C].points, 4.5, 0);
    assert_near(r[D].points, 3, 0);
    assert_int_equal(r[D].comparisons, 9);
    assert_near(r[B].elo, r[C].elo, FIT_EPS);
    assert_true(r[A].elo > r[B].elo && r[C].elo > r[D].elo);
    assert_near(r[A].elo + r[B].elo + r[C].elo + r[D].elo, 0, FIT_EPS);

    RatingRow anchored[4];
    assert_int_equal(ratings_fit(games, 3, 4, D, 1, 0, anchored), 0);
    assert_near(anchored[D].elo, 0, FIT_EPS);
    for (int i = 0; i < 4; i++)
        assert_near(anchored[i].elo, r[i].elo - r[D].elo, FIT_EPS);
}

/* Teams are rated like seats: one unit per team (here four pairs-4 games of teams
 * 0 and 1), partners never compared. */
static void test_fit_of_team_games_rates_the_teams(void **state)
{
    (void)state;
    RatedGame games[4];
    for (int i = 0; i < 4; i++)
        games[i] = duel(0, 1, i < 3 ? 1 : 2, i < 3 ? 2 : 1, -1);
    RatingRow r[2];
    assert_int_equal(ratings_fit(games, 4, 2, -1, 1, 0, r), 0);
    assert_near(r[0].elo - r[1].elo, 400 * log10(3.05 / 1.05), FIT_EPS);
    assert_near(r[0].elo, -r[1].elo, FIT_EPS);
}

static void test_fit_skips_players_without_games_and_refuses_bad_input(void **state)
{
    (void)state;
    RatedGame games[4];
    three_player_games(games);
    RatingRow r[5];
    assert_int_equal(ratings_fit(games, 4, 5, -1, 1, 0, r), 0);
    assert_int_equal(r[3].games, 0);
    assert_near(r[3].elo, 0, 0);
    assert_near(r[A].elo + r[B].elo + r[C].elo, 0, FIT_EPS); /* mean over players with games */
    assert_int_equal(ratings_fit(games, 4, 5, 3, 1, 0, r), -1);  /* anchor without games */
    assert_int_equal(ratings_fit(games, 4, 2, -1, 1, 0, r), -1); /* player C out of range */
    games[1].place[2] = 4;
    assert_int_equal(ratings_fit(games, 4, 3, -1, 1, 0, r), -1); /* place > nunits */
    assert_int_equal(ratings_fit(games, 0, 3, -1, 1, 0, r), 0);
    assert_int_equal(r[A].games, 0);
}

/* Same seed, same intervals; the interval holds the estimate; another seed draws
 * other resamples. */
static void test_bootstrap_intervals_are_deterministic_per_seed(void **state)
{
    (void)state;
    RatedGame games[40];
    for (int i = 0; i < 40; i++) {
        const int seats[3] = {A, B, C};
        games[i] = placed(3, seats, i % 4 == 0 ? (const int[]){2, 1, 3}
                                    : i % 5 == 0 ? (const int[]){1, 3, 2}
                                    : i % 7 == 0 ? (const int[]){3, 2, 1}
                                                 : (const int[]){1, 2, 3});
    }
    RatingRow r1[3], r2[3], r3[3];
    assert_int_equal(ratings_fit(games, 40, 3, -1, 42, RATINGS_BOOTSTRAP_DEFAULT, r1), 0);
    assert_int_equal(ratings_fit(games, 40, 3, -1, 42, RATINGS_BOOTSTRAP_DEFAULT, r2), 0);
    assert_int_equal(ratings_fit(games, 40, 3, -1, 43, RATINGS_BOOTSTRAP_DEFAULT, r3), 0);
    bool differ = false;
    for (int i = 0; i < 3; i++) {
        assert_true(r1[i].low == r2[i].low && r1[i].high == r2[i].high);
        assert_true(r1[i].low < r1[i].elo && r1[i].elo < r1[i].high);
        differ |= r1[i].low != r3[i].low || r1[i].high != r3[i].high;
    }
    assert_true(differ);
    assert_true(r1[A].low > r1[C].high); /* A clearly stronger than C */
}

/* One player in two of the three seats of every game (seats=2): its games were
 * counted per seat (6 of 3 games). games counts each game once, units each seat,
 * and the mean place is over the seats.
 *   g1: A1 B2 B3   g2: B2 A1 B3   g3: B3 B2 A1  -> B's places 2, 3 in every game */
static void test_fit_counts_a_game_once_per_player(void **state)
{
    (void)state;
    const RatedGame games[3] = {
        placed(3, (const int[]){A, B, B}, (const int[]){1, 2, 3}),
        placed(3, (const int[]){B, A, B}, (const int[]){2, 1, 3}),
        placed(3, (const int[]){B, B, A}, (const int[]){3, 2, 1}),
    };
    RatingRow r[2];
    assert_int_equal(ratings_fit(games, 3, 2, -1, 1, 0, r), 0);
    assert_int_equal(r[A].games, 3);
    assert_int_equal(r[A].units, 3);
    assert_int_equal(r[B].games, 3);
    assert_int_equal(r[B].units, 6);
    assert_near(r[B].mean_place, 2.5, 0);
    assert_int_equal(r[A].comparisons, 6); /* A against both of B's seats */
    assert_int_equal(r[B].comparisons, 6); /* B's seats are not compared with each other */
}

/* A player that won every comparison: every resample is as perfect, so the
 * bootstrap interval was the single point the prior holds it at. Now it is open
 * above (+inf) and the loser's open below (-inf); the other ends stay finite. A
 * player with a mixed score keeps its two finite ends. */
static void test_fit_of_a_perfect_score_has_an_open_end(void **state)
{
    (void)state;
    RatedGame games[12];
    for (int i = 0; i < 12; i++) /* A first in every game; B and C share the rest */
        games[i] = placed(3, (const int[]){A, B, C}, i % 2 ? (const int[]){1, 2, 3} : (const int[]){1, 3, 2});
    RatingRow r[3];
    assert_int_equal(ratings_fit(games, 12, 3, -1, 7, RATINGS_BOOTSTRAP_DEFAULT, r), 0);
    assert_near(r[A].points, r[A].comparisons, 0);
    assert_true(isinf(r[A].high) && r[A].high > 0);
    assert_true(isfinite(r[A].low) && r[A].low <= r[A].elo);
    for (int p = B; p <= C; p++) {
        assert_true(isfinite(r[p].low) && isfinite(r[p].high));
        assert_true(r[p].low < r[p].high);
    }
    const RatedGame duels[4] = {duel(0, 1, 1, 2, -1), duel(1, 0, 2, 1, -1), duel(0, 1, 1, 2, -1),
                                duel(1, 0, 2, 1, -1)};
    RatingRow d[2];
    assert_int_equal(ratings_fit(duels, 4, 2, -1, 1, 0, d), 0); /* no bootstrap: the ends are the rating */
    assert_true(isinf(d[0].high) && d[0].high > 0 && d[0].low == d[0].elo);
    assert_true(isinf(d[1].low) && d[1].low < 0 && d[1].high == d[1].elo);
}

/* Given ratings (a published list's anchors): with one opponent given at 500,
 * the closed form of the two-player fit on top of it; with two given (0 and
 * 400) a third player's rating makes its expected points (prior included)
 * equal its points; the given players keep theirs, intervals and all; a
 * perfect score still opens its end; nothing given with games is refused. */
static void test_fit_with_given_ratings_rates_on_their_scale(void **state)
{
    (void)state;
    RatedGame games[100];
    for (int i = 0; i < 100; i++) { /* player 0 wins 60, draws 20, loses 20 */
        const int mine = i < 60 ? 1 : i < 80 ? 1 : 2, theirs = i < 60 ? 2 : 1;
        games[i] = i % 2 ? duel(1, 0, theirs, mine, -1) : duel(0, 1, mine, theirs, -1);
    }
    RatingRow rows[2];
    const double one[2] = {NAN, 500};
    assert_int_equal(ratings_fit_given(games, 100, 2, one, 1, 0, rows), 0);
    assert_near(rows[1].elo, 500, FIT_EPS);
    assert_near(rows[0].elo, 500 + 400 * log10(70.05 / 30.05), FIT_EPS);

    /* far from the held rating: 168 wins and 4 draws against a player held at
     * 737 (the Newton steps are kept short, or the first overshoots to where
     * the logistic is flat) */
    RatedGame far[172];
    for (int i = 0; i < 172; i++)
        far[i] = duel(0, 1, 1, i < 168 ? 2 : 1, -1);
    const double held[2] = {NAN, 737};
    assert_int_equal(ratings_fit_given(far, 172, 2, held, 1, 0, rows), 0);
    assert_near(rows[0].elo, 737 + 400 * log10(170.05 / 2.05), FIT_EPS);

    /* C against A (given 0): 3 wins, 1 loss; against B (given 400): 1 win, 3 losses */
    RatedGame g3[8];
    for (int i = 0; i < 8; i++) {
        const int other = i < 4 ? A : B, wins = i < 4 ? 3 : 1;
        g3[i] = duel(C, other, i % 4 < wins ? 1 : 2, i % 4 < wins ? 2 : 1, -1);
    }
    const double two[3] = {[A] = 0, [B] = 400, [C] = NAN};
    RatingRow r[4];
    assert_int_equal(ratings_fit_given(g3, 8, 3, two, 3, RATINGS_BOOTSTRAP_DEFAULT, r), 0);
    assert_near(r[A].elo, 0, FIT_EPS);
    assert_near(r[B].elo, 400, FIT_EPS);
    assert_near(r[A].low, 0, FIT_EPS);
    assert_near(r[B].high, 400, FIT_EPS);
    /* expected points of C: 4 games and the prior's 0.1 comparisons per opponent */
    double expected = 0, got = 4 + 0.05 * 2;
    for (int o = A; o <= B; o++)
        expected += 4.1 * elo_to_score(r[C].elo - r[o].elo);
    assert_near(expected, got, 1e-6);
    assert_true(r[C].elo > 0 && r[C].elo < 400);
    assert_true(r[C].low < r[C].elo && r[C].elo < r[C].high);

    /* a perfect score on top of given ratings: open above */
    RatedGame wins[4];
    for (int i = 0; i < 4; i++)
        wins[i] = duel(C, i % 2 ? A : B, 1, 2, -1);
    assert_int_equal(ratings_fit_given(wins, 4, 3, two, 1, RATINGS_BOOTSTRAP_DEFAULT, r), 0);
    assert_true(isinf(r[C].high) && r[C].high > 0 && isfinite(r[C].low));
    assert_true(r[C].elo > 400);

    const double none[4] = {NAN, NAN, NAN, 7}; /* D is given but has no games */
    assert_int_equal(ratings_fit_given(g3, 8, 4, none, 1, 0, r), -1);
    const double inf[3] = {0, INFINITY, NAN};
    assert_int_equal(ratings_fit_given(g3, 8, 3, inf, 1, 0, r), -1);
    assert_int_equal(ratings_fit_given(g3, 8, 3, NULL, 1, 0, r), -1);
}

/* A perfect record against given players bounds the rating on one side only:
 * n wins against a player given at 737 put the lower end where the score
 * 0.025^(1/n) is expected (Clopper-Pearson), n losses the upper end where
 * 1 - 0.025^(1/n) is; a draw, or no given opponent, gives no bound. */
static void test_perfect_record_bound(void **state)
{
    (void)state;
    RatedGame games[20];
    for (int i = 0; i < 20; i++)
        games[i] = duel(0, 1, 1, 2, -1); /* player 0 beats player 1 twenty times */
    const double held1[2] = {NAN, 737}, held0[2] = {737, NAN}, none[2] = {NAN, NAN};
    const double p = pow(0.025, 1.0 / 20);
    assert_near(ratings_perfect_bound(games, 20, 0, held1, 0.025, true), 737 + elo_from_score(p), 1e-6);
    assert_near(ratings_perfect_bound(games, 20, 1, held0, 0.025, false), 737 - elo_from_score(p), 1e-6);
    assert_true(isnan(ratings_perfect_bound(games, 20, 0, held1, 0.025, false))); /* it won */
    assert_true(isnan(ratings_perfect_bound(games, 20, 0, none, 0.025, true)));   /* nothing given */
    games[7] = duel(0, 1, 1, 1, -1);                                               /* one draw */
    assert_true(isnan(ratings_perfect_bound(games, 20, 0, held1, 0.025, true)));
}

/* A-B games and C-D games (and E without games): two groups, numbered in the
 * order of their lowest player; a game of B with C joins them. */
static void test_groups_of_players_that_never_met(void **state)
{
    (void)state;
    RatedGame games[4] = {duel(A, B, 1, 2, -1), duel(D, C, 1, 2, -1), duel(B, A, 1, 1, -1),
                          duel(C, D, 2, 1, -1)};
    int group[5];
    assert_int_equal(ratings_groups(games, 4, 5, group), 2);
    assert_int_equal(group[A], 0);
    assert_int_equal(group[B], 0);
    assert_int_equal(group[C], 1);
    assert_int_equal(group[D], 1);
    assert_int_equal(group[4], -1);
    games[3] = duel(B, C, 1, 2, -1);
    assert_int_equal(ratings_groups(games, 4, 5, group), 1);
    for (int p = A; p <= D; p++)
        assert_int_equal(group[p], 0);
    const RatedGame three[2] = {placed(3, (const int[]){C, A, D}, (const int[]){1, 2, 3}), duel(B, 4, 1, 2, -1)};
    assert_int_equal(ratings_groups(three, 2, 5, group), 2); /* A, C, D and B, E */
    assert_int_equal(group[A], 0);
    assert_int_equal(group[C], 0);
    assert_int_equal(group[D], 0);
    assert_int_equal(group[B], 1);
    assert_int_equal(group[4], 1);
    assert_int_equal(ratings_groups(games, 0, 5, group), 0);
    assert_int_equal(group[A], -1);
    assert_int_equal(ratings_groups(games, 4, 2, group), -1); /* players C, D out of range */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_from_wdl_60_20_20_is_147_with_interval_86_to_218),
        cmocka_unit_test(test_los_of_10_wins_5_losses_is_0_9016_whatever_the_draws),
        cmocka_unit_test(test_elo_of_even_perfect_and_empty_results),
        cmocka_unit_test(test_pentanomial_counts_pairs_by_pair_score),
        cmocka_unit_test(test_elo_from_pentanomial_uses_pair_variance),
        cmocka_unit_test(test_sprt_bounds_for_alpha_beta_0_05_are_2_944),
        cmocka_unit_test(test_sprt_llr_matches_gsprt_and_its_normal_approximation),
        cmocka_unit_test(test_sprt_decides_h1_for_strong_and_h0_for_even_results),
        cmocka_unit_test(test_fit_of_two_players_is_the_closed_form_with_the_prior),
        cmocka_unit_test(test_fit_of_three_players_orders_them_and_solves_the_likelihood),
        cmocka_unit_test(test_fit_of_four_seats_gives_equal_players_equal_ratings),
        cmocka_unit_test(test_fit_of_team_games_rates_the_teams),
        cmocka_unit_test(test_fit_skips_players_without_games_and_refuses_bad_input),
        cmocka_unit_test(test_bootstrap_intervals_are_deterministic_per_seed),
        cmocka_unit_test(test_fit_counts_a_game_once_per_player),
        cmocka_unit_test(test_fit_of_a_perfect_score_has_an_open_end),
        cmocka_unit_test(test_groups_of_players_that_never_met),
        cmocka_unit_test(test_fit_with_given_ratings_rates_on_their_scale),
        cmocka_unit_test(test_perfect_record_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
