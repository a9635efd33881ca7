/*
 * eval.h - static evaluation. Race games: for each seat, the distance its marbles
 * still have to cover to the tip of its target (a marble on hole h needs at least
 * dist(h, tip) steps, and 10 marbles packed into the target sum to 20), plus
 * penalties for stragglers and for marbles still in the home as the exit deadline
 * nears (in variants that have one); with six seats, penalties that keep the centre from locking up (marbles
 * in the centre beyond a cap, marbles parked next to another seat's home).
 * Capture mode: pieces captured. Scores are in centi-moves (100 = one tempo
 * of progress) or centi-pieces.
 */
#ifndef STERN_EVAL_H
#define STERN_EVAL_H

#include "nnue.h"
#include "position.h"

#define SCORE_MATE 30000        /* a forced first place (or win) at the root */
#define SCORE_MATE_BOUND 29000  /* |score| above this is a mate score */
#define SCORE_INF 32000

/* cp per step of distance to the target (~120 steps over ~40 moves); the search's
 * futility and leaf terms price a step of progress with it too. Overridable with
 * -DW_DISTANCE=... like every weight of eval.c. */
#ifndef W_DISTANCE
#define W_DISTANCE 35
#endif

/* cp per captured piece in capture mode; the search's leaves price the best
 * capture of the side to move with it too. */
#ifndef W_CAPTURE
#define W_CAPTURE 100
#endif

/* The terms of one seat's evaluation, in centi-moves (negative is worse). */
typedef struct {
    int distance;   /* -(distance left to the target) x weight */
    int straggler;  /* -(marbles far behind the rest) */
    int deadline;   /* -(marbles still home as the deadline nears) */
    int traffic;    /* six seats: -(own marbles crowding the centre or parked at
                       the door of another seat's home) */
    int material;   /* capture mode: captures x 100 */
    int total;
} EvalTerms;

/* What the evaluation remembers between calls of one thread: each seat's terms
 * and its home marbles' escapes, reused while the holes they were read from hold
 * the same (a search thread keeps one; NULL wherever a call takes one: nothing
 * remembered). Values never depend on the memo. */
typedef struct EvalMemo EvalMemo;

/* A new memo (NULL when out of memory), and its deletion (NULL is ignored). */
EvalMemo *eval_memo_new(void);
void eval_memo_delete(EvalMemo *memo);

/* Plies of search path whose learned evaluation sums a memo keeps. */
#define EVAL_PLIES 128

/* Makes eval_for and eval_for_ply of `memo` use the learned evaluation `net`
 * (nnue.h) for positions of the variants it serves, and with a version-2 net
 * (three to six seats) eval_standings and eval_standings_ply too; NULL: the
 * hand-written one everywhere. The net must outlive its use. Returns whether the net will
 * be used (false also when the memory for its sums cannot be had: then the
 * hand-written evaluation plays). */
bool eval_memo_set_net(EvalMemo *memo, const Nnue *net);

/* Whether eval_for of `memo` evaluates positions of variant v by a net
 * (NULL: no). */
bool eval_memo_learned(EvalMemo *memo, const Variant *v);

/* Terms for seat s (0-5) in p. A seat out of play (placed) has all terms 0. */
EvalTerms eval_seat(const Position *p, int s, EvalMemo *memo);

/* Absolute value of seat s's (team's) own standing, higher is better: the sum of
 * its members' totals. */
int eval_standing(const Position *p, int s, EvalMemo *memo);

/* Standings of every unit (seat, or team) of p still unplaced, indexed by the
 * unit's seat (variant_unit): own[u] as eval_standing gives it, rival[u] the same
 * without the exit-deadline terms (how a rival sees it: walling a home in must
 * not pay), each with a tempo when the unit is to move. Other entries are 0. */
void eval_standings(const Position *p, int own[MAX_SEATS], int rival[MAX_SEATS], EvalMemo *memo);

/* eval_standings of p at `ply` plies into a search: where memo has a
 * version-2 net serving p's variant, own[u] = rival[u] = the net's standing
 * of u (nnue_standings, which holds the tempo), its sums made from the
 * memo's of ply - 1 or of this ply as eval_for_ply makes them; otherwise the
 * hand-written standings, whatever the ply. eval_standings is ply 0. The
 * values never depend on the ply. */
void eval_standings_ply(const Position *p, int ply, int own[MAX_SEATS], int rival[MAX_SEATS], EvalMemo *memo);

/* Static evaluation of p for seat s (0-5), in centi-moves: s's standing minus the
 * best standing among the other seats (teams) still unplaced (a rival team's
 * without its exit-deadline terms; with six seats, s's standing alone), plus a
 * tempo bonus when s (its team) is to move. p must not be over. */
int eval_for(const Position *p, int s, EvalMemo *memo);

/* eval_for of p at `ply` plies into a search (0-EVAL_PLIES-1; beyond: the
 * last): with a net, the memo's sums of ply - 1 (the parent, on a depth-first
 * path) or of this ply (the sibling before) are updated by the marbles that
 * differ instead of summed afresh. The value never depends on the ply. A
 * version-2 net: s's standing minus the best unplaced rival's share as above,
 * every standing the net's (no tempo added: the net's standings hold it). */
int eval_for_ply(const Position *p, int s, int ply, EvalMemo *memo);

#endif
