/*
 * sprt.h - the sequential probability ratio test of a match between two
 * players: a GSPRT on logistic Elo (sprt_check, sprt_bounds, sprt_llr,
 * sprt_decide), on the counts of elo.h. LLR values are natural logarithms;
 * alpha and beta are probabilities in 0..1.
 */
#ifndef STERN_SPRT_H
#define STERN_SPRT_H

#include "elo.h"

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
 * 1.1), for s = elo_to_score(elo0) and elo_to_score(elo1). This is fishtest's
 * LLR_logistic (server/fishtest/stats/LLRcalc.py) and fastchess's "logistic"
 * model; for small Elo differences it agrees with the normal approximation
 * N (s1 - s0) (2 s - s0 - s1) / (2 var) (LLR_alt2 there). Returns 0 without
 * results. */
double sprt_llr(const Pentanomial *pairs, int wins, int draws, int losses, double elo0, double elo1);

/* The decision for `llr` against bounds b: SPRT_ACCEPT_H1 when llr >= b.upper,
 * SPRT_ACCEPT_H0 when llr <= b.lower, else SPRT_CONTINUE. */
SprtDecision sprt_decide(double llr, SprtBounds b);

#endif
