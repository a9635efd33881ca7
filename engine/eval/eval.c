/* eval.c - static evaluation; see eval.h. Weights are first guesses, to be tuned
 * with the arena; each can be overridden at build time (-DNAME=value)
 * for tuning experiments. eval_seat keeps its last answer per seat in the
 * caller's memo (SeatMemo) with everything it read: a new term that reads more of the board
 * must add what it reads to seat_memo_holds, or stale terms will be reused. */
#include "eval.h"

#include "board.h"
#include "movegen.h"

#include <stdlib.h>
#include <string.h>

/* W_DISTANCE, W_CAPTURE: eval.h (the search prices progress and captures with them too) */
#ifndef W_STRAGGLER
#define W_STRAGGLER 37      /* cp per step a marble lags behind the pack (stern-spsa, MULTI.md) */
#endif
#ifndef STRAGGLER_SLACK
#define STRAGGLER_SLACK 4   /* steps behind the average that cost nothing (stern-spsa) */
#endif
#ifndef HOME_GRACE
#define HOME_GRACE 7        /* own moves before marbles left at home start to cost (stern-spsa) */
#endif
#ifndef W_HOME_BASE
#define W_HOME_BASE 10      /* cp per (step to the exit + 1), per own move past the grace, */
#endif
#ifndef W_HOME_PER_SEAT
#define W_HOME_PER_SEAT 7   /* ... plus this per seat in play: crowded boards wall homes in */
#endif
#ifndef HOME_GRACE_DUO
#define HOME_GRACE_DUO 21   /* HOME_GRACE with two seats: an early cost swung the score */
#endif                      /* at every other ply (docs/STRENGTH.md) */
#ifndef ESCAPE_WALLED
#define ESCAPE_WALLED 4     /* escape_moves() of a marble walled in by other seats */
#endif
#ifndef DEADLINE_SLACK
#define DEADLINE_SLACK 4    /* spare own moves wanted beyond the escapes' total */
#endif
#ifndef W_DEADLINE
#define W_DEADLINE 400      /* cp per own move the escapes need beyond the moves left */
#endif
/* Six-seat traffic (RULES.md section 5 with every point someone's home): 60
 * marbles share the 61-hole centre, so when every seat empties its home before
 * any marble reaches a target the centre locks solid and walls the last home
 * marbles in; the terms below keep it open (docs/STRENGTH.md, "Six seats: traffic"). The
 * six-seat weights were tuned by stern-spsa over classic-6 games (docs/MULTI.md). */
#ifndef CROWDED_SEATS
#define CROWDED_SEATS 6     /* the terms below apply from this many seats in play */
#endif
#ifndef HOME_GRACE_CROWDED
#define HOME_GRACE_CROWDED 14 /* HOME_GRACE on a crowded board: no rush to leave */
#endif
#ifndef CROWD_CAP
#define CROWD_CAP 8         /* own marbles in the centre that cost nothing */
#endif
#ifndef W_CROWD
#define W_CROWD 79          /* cp per own marble in the centre beyond CROWD_CAP */
#endif
#ifndef W_COURTESY
#define W_COURTESY 67       /* cp per own marble parked next to another seat's home */
#endif                      /* while that home still holds its owner's marbles */
#ifndef W_STRAGGLER_CROWDED
#define W_STRAGGLER_CROWDED 13 /* W_STRAGGLER on a crowded board (stern-spsa, docs/MULTI.md) */
#endif
#ifndef STRAGGLER_SLACK_CROWDED
#define STRAGGLER_SLACK_CROWDED 2 /* STRAGGLER_SLACK on a crowded board */
#endif
#ifndef TEMPO_CROWDED
#define TEMPO_CROWDED 35    /* TEMPO on a crowded board (stern-spsa) */
#endif
#ifndef RIVAL_SHARE_CROWDED
#define RIVAL_SHARE_CROWDED 0 /* percent of the best rival's standing subtracted */
#endif
#ifndef TEMPO
#define TEMPO 40            /* the side to move is part of a tempo ahead */
#endif
/* Without an exit deadline (ccerl-2) a seat may keep marbles in its home for
 * good, and a wall of them can seal free holes of the other seat's target off
 * (target_sealed). The wall goes only where its marbles can go: */
#ifndef W_SEALED_DOOR
#define W_SEALED_DOOR 80    /* cp per own marble at the door of its sealed target */
#endif
/* Two seats (the race of the two-seat search) weigh these on their own, tuned
 * by stern-spsa (docs/STRENGTH.md, "Tuning"). */
#ifndef W_STRAGGLER_DUO
#define W_STRAGGLER_DUO 32
#endif
#ifndef STRAGGLER_SLACK_DUO
#define STRAGGLER_SLACK_DUO 3
#endif
#ifndef TEMPO_DUO
#define TEMPO_DUO 43
#endif
/* Four race seats weigh these on their own, tuned by stern-spsa over classic-4
 * games (docs/MULTI.md); three and five seats keep the weights above. */
#ifndef W_STRAGGLER_FOUR
#define W_STRAGGLER_FOUR 23
#endif
#ifndef STRAGGLER_SLACK_FOUR
#define STRAGGLER_SLACK_FOUR 3
#endif
#ifndef HOME_GRACE_FOUR
#define HOME_GRACE_FOUR 12
#endif
#ifndef W_HOME_PER_SEAT_FOUR
#define W_HOME_PER_SEAT_FOUR 2
#endif

/* The weights of a seat's race terms that depend on the seats in play. */
typedef struct {
    int w_straggler, straggler_slack, home_grace, w_home_per_seat, tempo;
} SeatCountWeights;

static const SeatCountWeights WEIGHTS_DUO = {W_STRAGGLER_DUO, STRAGGLER_SLACK_DUO, HOME_GRACE_DUO, W_HOME_PER_SEAT,
                                             TEMPO_DUO};
static const SeatCountWeights WEIGHTS_FEW = {W_STRAGGLER, STRAGGLER_SLACK, HOME_GRACE, W_HOME_PER_SEAT, TEMPO};
static const SeatCountWeights WEIGHTS_FOUR = {W_STRAGGLER_FOUR, STRAGGLER_SLACK_FOUR, HOME_GRACE_FOUR,
                                              W_HOME_PER_SEAT_FOUR, TEMPO};
static const SeatCountWeights WEIGHTS_CROWDED = {W_STRAGGLER_CROWDED, STRAGGLER_SLACK_CROWDED, HOME_GRACE_CROWDED,
                                                 W_HOME_PER_SEAT, TEMPO_CROWDED};

/* The weights for v's seat count (capture mode reads only the tempo). */
static const SeatCountWeights *weights_for(const Variant *v)
{
    if (v->nseats == 2)
        return &WEIGHTS_DUO;
    if (v->nseats >= CROWDED_SEATS)
        return &WEIGHTS_CROWDED;
    return v->nseats == 4 ? &WEIGHTS_FOUR : &WEIGHTS_FEW;
}

/* The least summed tip distance of n marbles: the holes nearest the tip are
 * 1 at distance 0, 2 at 1, 3 at 2, 4 at 3 and 5 at 4 (the 15-hole target). */
static int packed_sum(int n)
{
    int sum = 0, d = 0, row = 1;
    while (n > 0) {
        const int k = n < row ? n : row;
        sum += k * d;
        n -= k;
        d++;
        row++;
    }
    return sum;
}

/* packed_sum(n) for n = 0..15 (every race army), as a table: eval_seat needs it at
 * every leaf. The test in eval_seat keeps the loop for any other n. */
static const int PACKED_SUM[16] = {0, 0, 1, 2, 4, 6, 8, 11, 14, 17, 20, 24, 28, 32, 36, 40};

/* A remembered answer of gen_reaches for escape_moves: it holds wherever the
 * occupancy agrees with `occ` on `area` (under the rules of its EscapeMemo). */
typedef struct {
    Bitboard occ, area; /* area 0: empty */
    bool reaches;
} EscapeAnswer;

/* The answers for one seat under one set of rules (short jumps, and the seat's
 * home, target and foreign points), per question (0: the real board, 1: the
 * seat's other marbles lifted) and home hole. */
typedef struct {
    Bitboard home, target, foreign;
    bool used;
    EscapeAnswer answer[2][NUM_HOLES];
} EscapeMemo;


/* gen_reaches(p, board, occ, s, h, ~home) for question q, through memo m
 * (may be NULL). Adds to *area the holes the answer was read from. */
static bool escape_reaches(const Position *p, EscapeMemo *m, int q, const uint8_t *board, Bitboard occ, int s,
                           int h, Bitboard *area)
{
    const Bitboard out = ~p->v->home[s];
    if (!m) {
        Bitboard read;
        const bool reaches = gen_reaches(p, board, occ, s, h, out, &read);
        *area |= read;
        return reaches;
    }
    EscapeAnswer *a = &m->answer[q][h];
    if (!area_answer_holds(a->area, a->occ, occ)) {
        a->occ = occ;
        a->reaches = gen_reaches(p, board, occ, s, h, out, &a->area);
    }
    *area |= a->area;
    return a->reaches;
}

/* Own moves the marble of seat s on home hole h needs to leave the home, as far
 * as one move can tell: 1 when a move takes it out now, 2 when only s's own
 * marbles stand in the way (one of them moves first), ESCAPE_WALLED when other
 * seats' marbles wall it in (they may never leave: arrivals are locked in their
 * target). Used for the exit deadline of RULES.md section 5. `m`: the seat's
 * memo (escape_memo_of) or NULL. `alone` is a mailbox of p without any of s's
 * marbles, built on the first call that needs it (when *alone_ready is false)
 * and kept for the next home marble. */
static int escape_moves(const Position *p, EscapeMemo *m, int s, int h, uint8_t alone[NUM_HOLES], bool *alone_ready,
                        Bitboard *area)
{
    const Bitboard own = p->seat_bb[s];
    if (escape_reaches(p, m, 0, p->board, p->occ, s, h, area))
        return 1;
    /* on the board without s's other marbles: a mailbox copy, not a whole Position */
    const Bitboard occ = (p->occ & ~own) | bb_bit(h);
    const EscapeAnswer *a = m ? &m->answer[1][h] : NULL;
    if (a && area_answer_holds(a->area, a->occ, occ)) {
        *area |= a->area;
        return a->reaches ? 2 : ESCAPE_WALLED; /* known: no need of the mailbox */
    }
    if (!*alone_ready) {
        memcpy(alone, p->board, NUM_HOLES);
        for (Bitboard o = own; o;)
            alone[bb_pop(&o)] = 0;
        *alone_ready = true;
    }
    alone[h] = (uint8_t)(s + 1);
    const bool reaches = escape_reaches(p, m, 1, alone, occ, s, h, area);
    alone[h] = 0;
    return reaches ? 2 : ESCAPE_WALLED;
}

/* Whether a free hole of seat s's target is out of reach of s's marbles while
 * the other seats' marbles in the target stay where they are: no step or jump
 * chain from outside the target lands on it, s's own marbles in the target
 * moving aside as needed. A hole free or held by s is entered by a step from
 * outside, or by a jump from outside over a marble (the landing's mirror jump
 * leaves the target); from an entered hole, steps to such holes and jumps over
 * any marble to them reach more. In ccerl-2 the rating list's bot tt-pvs keeps
 * seven marbles in the two front rows of its home (Stern's target) for whole
 * games: the three holes behind them are sealed, and the game is drawn unless
 * the wall moves. */
static bool target_sealed(const Position *p, int s)
{
    const Bitboard target = p->v->target[s];
    if (!(target & p->occ & ~p->seat_bb[s]))
        return false;
    const Bitboard open = target & ~(p->occ & ~p->seat_bb[s]); /* free, or s's own */
    Bitboard reached = 0;
    for (Bitboard b = open; b;) {
        const int f = bb_pop(&b);
        bool entered = (geo.adjacent[f] & ~target) != 0;
        for (int k = 0; k < geo.njumps[f] && !entered; k++)
            entered = bb_test(p->occ, geo.jump_over[f][k]) && !bb_test(target, geo.jump_land[f][k]);
        if (entered)
            reached |= bb_bit(f);
    }
    for (Bitboard todo = reached; todo;) {
        const int r = bb_pop(&todo);
        Bitboard next = geo.adjacent[r] & open;
        for (int k = 0; k < geo.njumps[r]; k++)
            if (bb_test(p->occ, geo.jump_over[r][k]) && bb_test(open, geo.jump_land[r][k]))
                next |= bb_bit(geo.jump_land[r][k]);
        next &= ~reached;
        reached |= next;
        todo |= next;
    }
    return (target & ~p->occ & ~reached) != 0;
}

/* The last terms eval_seat found for a seat, with what they were found from:
 * the seat's rules, marbles, own moves and status, the occupancy of the holes
 * the escape answers were read from (area), and on a crowded board which homes
 * still hold their owners' marbles (the rest of the terms read only the seat's
 * own marbles and the rules; home_ring and the other seats' homes follow from the
 * number of seats for every crowded race variant). Per thread: between leaves searched one after another,
 * one seat's marbles usually stay where they were. */
typedef struct {
    Bitboard home, target, foreign; /* rules: with jump, deadline and nseats */
    int jump, deadline, nseats;
    Bitboard own, occ, area;
    unsigned held;  /* homes_held: the traffic terms read other seats' marbles */
    int16_t moves;
    bool used;
    EvalTerms terms;
} SeatMemo;

/* Per seat. Leaves searched one after another differ on a few holes, and a home
 * marble's flood reads only the holes near its home, so most escape answers
 * are found again (exactly: the same reads give the same answer), and most
 * seats' terms too. */
struct EvalMemo {
    EscapeMemo escape[MAX_SEATS];
    SeatMemo seat[MAX_SEATS];
    const Nnue *net;      /* the learned evaluation, or NULL */
    NnueAcc *acc;         /* [EVAL_PLIES]: the net's sums of the last position seen at each ply */
    const Variant *net_variant; /* the variant last asked about, and whether net serves it */
    bool net_serves;
};

EvalMemo *eval_memo_new(void) { return calloc(1, sizeof(EvalMemo)); }

void eval_memo_delete(EvalMemo *memo)
{
    if (memo)
        free(memo->acc);
    free(memo);
}

bool eval_memo_learned(EvalMemo *memo, const Variant *v)
{
    if (!memo || !memo->net)
        return false;
    if (memo->net_variant != v) { /* asked once per variant: nnue_serves reads names */
        memo->net_variant = v;
        memo->net_serves = nnue_serves(memo->net, v);
    }
    return memo->net_serves;
}

_Static_assert(NNUE_VALUE_MAX < SCORE_MATE_BOUND, "a net's value must never read as a mate");

bool eval_memo_set_net(EvalMemo *memo, const Nnue *net)
{
    if (net && !memo->acc) {
        void *a = NULL;
        if (posix_memalign(&a, 64, sizeof(NnueAcc) * EVAL_PLIES))
            net = NULL;
        else
            memo->acc = a;
    }
    if (memo->acc) /* always: another net may have been made at a freed one's address */
        for (int i = 0; i < EVAL_PLIES; i++)
            memo->acc[i].valid = false;
    memo->net = net;
    memo->net_variant = NULL;
    return memo->net != NULL;
}

/* The memo of seat s under p's rules in `memo` (emptied when they changed), or
 * NULL when answers are not remembered (no memo, or other jump rules: their
 * floods read every hole). */
static EscapeMemo *escape_memo_of(EvalMemo *memo, const Variant *v, int s)
{
    if (!memo || v->jump != JUMP_SHORT)
        return NULL;
    EscapeMemo *m = &memo->escape[s];
    if (!m->used || m->home != v->home[s] || m->target != v->target[s] || m->foreign != v->foreign[s]) {
        *m = (EscapeMemo){.home = v->home[s], .target = v->target[s], .foreign = v->foreign[s], .used = true};
    }
    return m;
}

/* On a crowded board (the traffic terms), bit o set for each seat o whose home
 * still holds some of its marbles; 0 otherwise. */
static unsigned homes_held(const Position *p)
{
    const Variant *v = p->v;
    unsigned held = 0;
    if (v->nseats >= CROWDED_SEATS)
        for (int o = 0; o < MAX_SEATS; o++)
            held |= (unsigned)((p->seat_bb[o] & v->home[o]) != 0) << o;
    return held;
}

/* Whether sm holds the terms of playing seat s in race position p, whose
 * homes_held() is `held`. */
static bool seat_memo_holds(const SeatMemo *sm, const Position *p, int s, unsigned held)
{
    const Variant *v = p->v;
    return sm->used && sm->own == p->seat_bb[s] && sm->moves == p->moves[s] && !((sm->occ ^ p->occ) & sm->area) &&
           sm->home == v->home[s] && sm->target == v->target[s] && sm->foreign == v->foreign[s] &&
           sm->jump == (int)v->jump && sm->deadline == v->deadline && sm->nseats == v->nseats &&
           sm->held == held;
}

/* eval_seat for a position whose homes_held() is `held`: eval_for works it out
 * once for every seat it evaluates. */
static EvalTerms seat_terms(const Position *p, int s, unsigned held, EvalMemo *memo)
{
    EvalTerms t = {0, 0, 0, 0, 0, 0};
    if (p->v->capture) {
        t.material = W_CAPTURE * p->captures[s];
        t.total = t.material;
        return t;
    }
    if (p->status[s] != ST_PLAYING)
        return t;
    const Bitboard own = p->seat_bb[s];
    const int n = bb_count(own);
    if (!n)
        return t;
    SeatMemo *sm = memo ? &memo->seat[s] : NULL;
    if (sm && seat_memo_holds(sm, p, s, held))
        return sm->terms;
    Bitboard area = 0; /* holes the escape answers were read from */
    const uint8_t *tip_dist = p->v->tip_dist[s];
    const int sum = p->tip_sum[s];
    t.distance = -W_DISTANCE * (sum - (n < 16 ? PACKED_SUM[n] : packed_sum(n)));
    const int avg = sum / n;
    const SeatCountWeights *wt = weights_for(p->v);
    const bool crowded = p->v->nseats >= CROWDED_SEATS;
    const int slack = wt->straggler_slack, w_straggler = wt->w_straggler;
    /* word by word: 64-bit sets pop cheaper than 128-bit ones */
    const Bitboard behind = own & ~p->v->target[s];
    for (int w = 0; w < 2; w++)
        for (uint64_t b = bb_word(behind, w); b; b &= b - 1) {
            const int lag = tip_dist[64 * w + __builtin_ctzll(b)] - avg - slack;
            t.straggler -= w_straggler * (lag > 0 ? lag : 0); /* no branch: lag's sign is random */
        }
    /* Leaving home in time (RULES.md section 5): a growing cost per step still to
     * go, and a steep one once the moves left barely cover one per marble. Only
     * where the rules have a deadline: without one (ccerl-2) the cost would grow
     * with every move for ever, and a seat would rather wall the other's parked
     * marbles in than fill its target around them for the full-target win. */
    const Bitboard at_home = own & p->v->home[s];
    if (at_home && p->v->deadline != NO_DEADLINE && p->moves[s] < p->v->deadline) {
        const int urgency = p->moves[s] - wt->home_grace;
        int escapes = 0;
        if (urgency > 0) { /* within the grace the marbles at home cost nothing */
            int steps = 0;
            uint8_t alone[NUM_HOLES];
            bool alone_ready = false;
            EscapeMemo *em = escape_memo_of(memo, p->v, s);
            for (int w = 0; w < 2; w++)
                for (uint64_t b = bb_word(at_home, w); b; b &= b - 1) {
                    const int h = 64 * w + __builtin_ctzll(b);
                    steps += p->v->home_exit[s][h];
                    escapes += escape_moves(p, em, s, h, alone, &alone_ready, &area);
                }
            t.deadline -= (W_HOME_BASE + wt->w_home_per_seat * p->v->nseats) * urgency * (steps + escapes);
        }
        const int short_by = escapes + DEADLINE_SLACK - (p->v->deadline - p->moves[s]);
        if (short_by > 0)
            t.deadline -= W_DEADLINE * short_by;
    }
    /* A sealed target without a deadline: the wall's marbles leave only by the
     * holes at its door, stepping or jumping out over their own; standing there
     * walls them in for good (a draw by the limit), standing back lets them go. */
    if (p->v->deadline == NO_DEADLINE) {
        const Bitboard door = p->v->home_ring[(s + 3) % 6]; /* target[s] is home[(s + 3) % 6] */
        area |= p->v->target[s] | door; /* target_sealed reads these */
        if ((own & door) && target_sealed(p, s))
            t.traffic -= W_SEALED_DOOR * bb_count(own & door);
    }
    if (crowded) {
        const int centre = bb_count(own & ~p->v->home[s] & ~p->v->target[s]);
        if (centre > CROWD_CAP)
            t.traffic -= W_CROWD * (centre - CROWD_CAP);
        for (int i = 0; i < p->v->nseats; i++) {
            const int o = p->v->seats[i];
            /* not the home s is bound for: waiting at its door is the way in */
            if (o != s && !(p->v->home[o] & p->v->target[s]) && (held >> o & 1))
                t.traffic -= W_COURTESY * bb_count(own & p->v->home_ring[o]);
        }
    }
    t.total = t.distance + t.straggler + t.deadline + t.traffic;
    if (sm)
        *sm = (SeatMemo){p->v->home[s], p->v->target[s], p->v->foreign[s], (int)p->v->jump, p->v->deadline,
                     p->v->nseats, own, p->occ, area, held, p->moves[s], true, t};
    return t;
}

EvalTerms eval_seat(const Position *p, int s, EvalMemo *memo)
{
    return seat_terms(p, s, homes_held(p), memo);
}

/* eval_standing for a position whose homes_held() is `held`. */
static int standing(const Position *p, int s, unsigned held, EvalMemo *memo)
{
    const int partner = variant_partner(p->v, s);
    int v = seat_terms(p, s, held, memo).total;
    if (partner >= 0)
        v += seat_terms(p, partner, held, memo).total;
    return v;
}

int eval_standing(const Position *p, int s, EvalMemo *memo)
{
    return standing(p, s, homes_held(p), memo);
}

/* Standing of seat s's team as a rival team sees it: without its members'
 * exit-deadline terms. */
static int rival_standing(const Position *p, int s, unsigned held, EvalMemo *memo)
{
    const EvalTerms a = seat_terms(p, s, held, memo), b = seat_terms(p, variant_partner(p->v, s), held, memo);
    return a.total - a.deadline + b.total - b.deadline;
}

/* The side to move's tempo (cp) for the seat count of v. */
static int tempo_for(const Variant *v)
{
    return weights_for(v)->tempo;
}

/* The memo's net sums of p at `ply` (eval_for_ply): made from those of the
 * ply before (the parent) or from this ply's own (the sibling before). */
static const NnueAcc *memo_sums(const Position *p, int ply, EvalMemo *memo)
{
    const int at = ply < 0 ? 0 : ply < EVAL_PLIES ? ply : EVAL_PLIES - 1;
    NnueAcc *acc = &memo->acc[at];
    nnue_ensure(memo->net, p, acc, at ? acc - 1 : NULL);
    return acc;
}

/* Whether memo's net gives p its standings: a version-2 net serving p's
 * variant. */
static bool net_standings_serve(const Position *p, EvalMemo *memo)
{
    return eval_memo_learned(memo, p->v) && nnue_is_multi(memo->net);
}

/* eval_standings_ply by a version-2 net: the net's standing of each seat
 * holds its tempo (its bucket is the plies until it moves) and its exit
 * deadline alike, so a rival sees it as its own (a net serves no teams). */
__attribute__((noinline)) static void net_standings(const Position *p, int ply, int own[MAX_SEATS],
                                                   int rival[MAX_SEATS], EvalMemo *memo)
{
    const Variant *v = p->v;
    int st[MAX_SEATS];
    nnue_standings(memo->net, memo_sums(p, ply, memo), p, st);
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        if (variant_unit(v, s) == s && !p->place[s])
            own[s] = rival[s] = st[s];
    }
}

void eval_standings_ply(const Position *p, int ply, int own[MAX_SEATS], int rival[MAX_SEATS], EvalMemo *memo)
{
    const Variant *v = p->v;
    memset(own, 0, sizeof(int) * MAX_SEATS);
    memset(rival, 0, sizeof(int) * MAX_SEATS);
    if (net_standings_serve(p, memo)) {
        net_standings(p, ply, own, rival, memo);
        return;
    }
    const unsigned held = homes_held(p);
    const int tempo = tempo_for(v);
    const int to_move = p->stm >= 0 ? variant_unit(v, p->stm) : -1;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i], partner = variant_partner(v, s);
        if (variant_unit(v, s) != s || p->place[s])
            continue;
        const EvalTerms a = seat_terms(p, s, held, memo);
        const EvalTerms b = partner >= 0 ? seat_terms(p, partner, held, memo) : (EvalTerms){0, 0, 0, 0, 0, 0};
        own[s] = a.total + b.total + (s == to_move ? tempo : 0);
        rival[s] = own[s] - a.deadline - b.deadline;
    }
}

void eval_standings(const Position *p, int own[MAX_SEATS], int rival[MAX_SEATS], EvalMemo *memo)
{
    eval_standings_ply(p, 0, own, rival, memo);
}

int eval_for(const Position *p, int s, EvalMemo *memo) { return eval_for_ply(p, s, 0, memo); }

/* The share (percent) of the best rival's standing eval_for subtracts. */
static int rival_share(const Variant *v) { return v->nseats >= CROWDED_SEATS ? RIVAL_SHARE_CROWDED : 100; }

/* eval_for_ply by a version-2 net: s's standing minus the best rival's share
 * as the hand-written evaluation takes it, every standing the net's (which
 * holds the tempo). */
static int net_eval_for(const Position *p, int s, int ply, EvalMemo *memo)
{
    const Variant *v = p->v;
    int st[MAX_SEATS];
    nnue_standings(memo->net, memo_sums(p, ply, memo), p, st);
    const int share = rival_share(v);
    int best = -SCORE_INF;
    for (int i = 0; i < v->nseats && share; i++) {
        const int o = v->seats[i];
        if (o != s && !p->place[o] && st[o] > best)
            best = st[o];
    }
    return best == -SCORE_INF ? st[s] : st[s] - best * share / 100;
}

int eval_for_ply(const Position *p, int s, int ply, EvalMemo *memo)
{
    const Variant *v = p->v;
    if (eval_memo_learned(memo, v)) {
        if (nnue_is_multi(memo->net))
            return net_eval_for(p, s, ply, memo);
        const int value = nnue_output(memo->net, memo_sums(p, ply, memo), p);
        return p->stm == s ? value : -value;
    }
    const unsigned held = homes_held(p);
    const int own = standing(p, s, held, memo);
    const int share = rival_share(v);
    int best = -SCORE_INF;
    for (int i = 0; i < v->nseats && share; i++) { /* no share: the rivals' terms are not read */
        const int o = v->seats[i];
        if (o == s || o == variant_partner(v, s) || variant_unit(v, o) != o)
            continue;
        if (p->place[o] && !v->capture)
            continue;
        const int st = v->teams ? rival_standing(p, o, held, memo) : standing(p, o, held, memo);
        if (st > best)
            best = st;
    }
    /* The best rival in full; in team games without its exit-deadline terms
     * (walling a rival team's home in must not pay twice). On a crowded board
     * (six seats) none of it: see RIVAL_SHARE_CROWDED and the traffic terms.
     * Measurements: docs/STRENGTH.md. */
    int score = best == -SCORE_INF ? own : own - best * share / 100;
    if (p->stm == s || p->stm == variant_partner(v, s))
        score += tempo_for(v);
    return score;
}
