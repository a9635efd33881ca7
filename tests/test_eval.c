/*
 * test_eval.c - the evaluation terms that change how a game flows, on positions
 * built to isolate them: the six-seat traffic terms (marbles crowding the centre,
 * marbles parked at the door of another seat's home) and the six-seat score
 * being the seat's own standing, against the same positions with fewer seats;
 * the grace before marbles left at home cost anything (two, three and four
 * seats each have their own), and none without an exit deadline, where a
 * target sealed off by a wall of parked marbles makes its door cost. And the
 * memos of eval.c: terms read from a memo equal the terms worked out afresh
 * (no memo), over the positions of played games in search-like order.
 */
#include "support/stern_test.h"

#include "eval.h"
#include "movegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Game g;

/* Start homes of every seat but white (classic-6). */
#define OTHERS_AT_HOME                                                       \
    "r e8 e7 f7 e6 f6 g6 e5 f5 g5 h5 "                                         \
    "u a13 b13 c13 d13 b12 c12 d12 c11 d11 d10 "                               \
    "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 "                               \
    "y j13 k13 l13 m13 k12 l12 m12 l11 m11 m10 "                               \
    "g n8 n7 o7 n6 o6 p6 n5 o5 p5 q5 "

static void test_six_seat_crowd_costs_each_marble_beyond_eight_in_the_centre(void **state)
{
    (void)state;
    /* ten white marbles in the centre, none next to a home: 2 x 79 */
    game_setup(&g, "classic-6", OTHERS_AT_HOME "w i9 h9 j9 h10 i10 i8 j8 g9 h8 g10", "w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, -158);
    assert_int_equal(eval_seat(&g.pos, SEAT_RED, NULL).traffic, 0);
    /* eight in the centre cost nothing */
    game_setup(&g, "classic-6", OTHERS_AT_HOME "w i9 h9 j9 h10 i10 i8 j8 g9 j4 k4", "w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, 0);
}

static void test_six_seat_courtesy_spares_the_target_door_and_empty_homes(void **state)
{
    (void)state;
    /* nine in the centre (-79); f8 is next to red's home, which still holds red
     * marbles (-67); h13 is next to black's home, white's target: waiting there is
     * the way in (free) */
    game_setup(&g, "classic-6", OTHERS_AT_HOME "w i9 h9 j9 h10 i10 f8 h13 h8 g10 l4", "w w0,r0,u0,b0,y0,g0 1");
    const EvalTerms t = eval_seat(&g.pos, SEAT_WHITE, NULL);
    assert_int_equal(t.traffic, -146);
    assert_int_equal(t.total, t.distance + t.straggler + t.deadline + t.traffic);
    /* red's home empty: its door is free to stand on */
    game_setup(&g, "classic-6",
               "r e11 f11 g11 h11 i11 j11 k11 f12 g12 h12 "
               "u a13 b13 c13 d13 b12 c12 d12 c11 d11 d10 "
               "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 "
               "y j13 k13 l13 m13 k12 l12 m12 l11 m11 m10 "
               "g n8 n7 o7 n6 o6 p6 n5 o5 p5 q5 "
               "w i9 h9 j9 h10 i10 f8 h13 h8 g10 l4",
               "w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, -79);
}

static void test_traffic_terms_apply_to_six_seats_only(void **state)
{
    (void)state;
    game_setup(&g, "classic-4",
               "r e8 e7 f7 e6 f6 g6 e5 f5 g5 h5 "
               "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 "
               "y j13 k13 l13 m13 k12 l12 m12 l11 m11 m10 "
               "w i9 h9 j9 h10 i10 i8 j8 g9 j4 k4",
               "w w0,r0,b0,y0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, 0);
    game_setup(&g, "classic-2", "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 w i9 h9 j9 h10 i10 i8 j8 g9 j4 k4",
               "w w0,b0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, 0);
}

static void test_six_seat_score_is_own_standing_fewer_seats_subtract_the_best_rival(void **state)
{
    (void)state;
    /* white ahead, red to be scored while white is to move: no tempo for red */
    game_setup(&g, "classic-6", OTHERS_AT_HOME "w i9 h9 j9 h10 i10 i8 j4 k4 l4 m4", "w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(eval_for(&g.pos, SEAT_RED, NULL), eval_standing(&g.pos, SEAT_RED, NULL));
    game_setup(&g, "classic-2", "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 w i9 h9 j9 h10 i10 i8 j4 k4 l4 m4",
               "w w0,b0 1");
    assert_int_equal(eval_for(&g.pos, SEAT_BLACK, NULL),
                     eval_standing(&g.pos, SEAT_BLACK, NULL) - eval_standing(&g.pos, SEAT_WHITE, NULL));
    assert_true(eval_standing(&g.pos, SEAT_WHITE, NULL) > eval_standing(&g.pos, SEAT_BLACK, NULL));
}

/* White with three marbles at home (m1 l2 m2) after `moves` own moves: the
 * deadline term of eval_seat. */
static int duo_home_cost(const char *variant, const char *black, int moves)
{
    char counts[64];
    if (strcmp(variant, "classic-2") == 0 || strcmp(variant, "ccerl-2") == 0)
        snprintf(counts, sizeof counts, "w w%d,b%d %d", moves, moves, moves + 1);
    else
        snprintf(counts, sizeof counts, "w w%d,r%d,b%d,y%d %d", moves, moves, moves, moves, moves + 1);
    char placement[256];
    snprintf(placement, sizeof placement, "%s w m1 l2 m2 i9 h9 j9 h10 i10 i8 g9", black);
    game_setup(&g, variant, placement, counts);
    return eval_seat(&g.pos, SEAT_WHITE, NULL).deadline;
}

#define BLACK_AT_HOME "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14"

static void test_home_cost_waits_out_each_seat_counts_grace(void **state)
{
    (void)state;
    /* Two seats: nothing up to the 21st own move, then a cost growing from move
     * to move (at 9 moves left the escapes' count joins it). */
    assert_int_equal(duo_home_cost("classic-2", BLACK_AT_HOME, 3), 0);
    assert_int_equal(duo_home_cost("classic-2", BLACK_AT_HOME, 21), 0);
    const int first = duo_home_cost("classic-2", BLACK_AT_HOME, 22);
    assert_true(first < 0);
    assert_true(duo_home_cost("classic-2", BLACK_AT_HOME, 23) < first);
    /* Four seats a shorter one (HOME_GRACE_FOUR, 12 moves): the same home
     * costs from the 13th move. */
    const char *others = "r e8 e7 f7 e6 f6 g6 e5 f5 g5 h5 " BLACK_AT_HOME " y j13 k13 l13 m13 k12 l12 m12 l11 m11 m10";
    assert_int_equal(duo_home_cost("classic-4", others, 12), 0);
    assert_true(duo_home_cost("classic-4", others, 13) < 0);
    /* Three seats the shortest (HOME_GRACE, 7 moves): every marble at home
     * costs from the 8th move. */
    static const char *const START3 = "1/2/3/4/uuuu5yyyy/uuu6yyy/uu7yy/u8y/9/10/11/12/13/wwww/www/ww/w";
    for (int moves = 7; moves <= 8; moves++) {
        char fen[128];
        snprintf(fen, sizeof fen, "%s w w%d,u%d,y%d %d", START3, moves, moves, moves, moves + 1);
        char err[256];
        assert_int_equal(game_new(&g, "classic-3"), 0);
        assert_int_equal(game_set_fen(&g, fen, err, sizeof err), 0);
        const int cost = eval_seat(&g.pos, SEAT_WHITE, NULL).deadline;
        if (moves == 7)
            assert_int_equal(cost, 0);
        else
            assert_true(cost < 0);
    }
}

/* ccerl-2 has no exit deadline, so marbles at home cost nothing however many
 * moves pass (the same position in classic-2 costs ever more): a cost growing
 * for ever made Stern wall in the rating list's bots' parked marbles instead of
 * filling its target around them (tests/test_blockers.c). */
static void test_no_home_cost_without_a_deadline(void **state)
{
    (void)state;
    for (int moves = 22; moves <= 110; moves += 22)
        assert_int_equal(duo_home_cost("ccerl-2", BLACK_AT_HOME, moves), 0);
    assert_true(duo_home_cost("classic-2", BLACK_AT_HOME, 22) < 0);
}

/* ccerl-2: black keeps seven marbles in the two front rows of its home, white's
 * target (e14-h14, e15-g15); nothing of white's can reach the three holes
 * behind them (sealed), and each white marble at the door costs W_SEALED_DOOR
 * (80): standing there walls the wall in. A gap in the wall (g15 empty: g13
 * jumps over g14 into it, and on to the back) and the door is free again; so it
 * is in classic-2, where the exit deadline moves the wall, and behind the
 * seat's own marbles, which can move aside. */
static void test_sealed_target_door_costs_without_a_deadline(void **state)
{
    (void)state;
    static const char *const wall = "b e14 f14 g14 h14 e15 f15 g15 m1 l2 m2 ";
    static const char *const white = "w f13 g13 h13 i9 h9 j9 h10 i10 g9 h8";
    char pieces[256];
    snprintf(pieces, sizeof pieces, "%s%s", wall, white);
    game_setup(&g, "ccerl-2", pieces, "w w40,b40 41");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, -3 * 80);
    assert_int_equal(eval_seat(&g.pos, SEAT_BLACK, NULL).traffic, 0);
    game_setup(&g, "classic-2", pieces, "w w20,b20 21");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, 0);
    game_setup(&g, "ccerl-2", "b e14 f14 g14 h14 e15 f15 l3 m1 l2 m2 w f13 g13 h13 i9 h9 j9 h10 i10 g9 h8",
               "w w40,b40 41");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, 0);
    /* a free hole behind white's own marbles is no seal: they can move aside
     * (e16, behind white's eight, with black's one marble on the tip) */
    game_setup(&g, "ccerl-2", "b e17 i9 h9 j9 h10 i10 g9 h8 k3 l3 w f16 e15 f15 g15 e14 f14 g14 h14 g13 m2",
               "w w40,b40 41");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE, NULL).traffic, 0);
}

/* ---- the memos ---- */

/* Positions to evaluate and, per position and seat, the terms and eval_for. */
typedef struct {
    const Position *pos;
    int n;
    const int *order;  /* the order to evaluate them in (indices into pos) */
    EvalTerms (*terms)[MAX_SEATS];
    int (*score)[MAX_SEATS];
    EvalMemo *memo;    /* NULL: nothing remembered */
} EvalJob;

static void eval_job(EvalJob *j)
{
    for (int k = 0; k < j->n; k++) {
        const int i = j->order[k];
        const Position *p = &j->pos[i];
        for (int t = 0; t < p->v->nseats; t++) {
            const int s = p->v->seats[t];
            j->terms[i][s] = eval_seat(p, s, j->memo);
            j->score[i][s] = pos_over(p) ? 0 : eval_for(p, s, j->memo);
        }
    }
}

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A game of `variant` played from its start for at most `plies` plies (each
 * move the most progress toward the target or, one time in three, a random one);
 * fills pos with every position of the game and all their children, in the order
 * a search visits them: a node, then its children. Returns the count. */
static int game_positions(const char *variant, const char *pieces, const char *tail, int plies, uint64_t seed,
                          Position *pos, int cap)
{
    if (pieces)
        game_setup(&g, variant, pieces, tail);
    else
        assert_int_equal(game_new(&g, variant), 0);
    static MoveList list;
    Position p = g.pos;
    int n = 0;
    for (int ply = 0; ply < plies && !pos_over(&p); ply++) {
        gen_moves(&p, &list, NULL);
        if (n + 1 + list.n > cap)
            break;
        pos[n++] = p;
        int best = 0, best_gain = -1000;
        for (int i = 0; i < list.n; i++) {
            pos[n] = p;
            pos_play(&pos[n++], &list.m[i]);
            const uint8_t *d = p.v->tip_dist[p.stm];
            const int gain = p.v->capture ? list.m[i].ncapt : d[list.m[i].from] - d[list.m[i].to];
            if (gain > best_gain)
                best = i, best_gain = gain;
        }
        if (rng_next(&seed) % 3 == 0)
            best = (int)(rng_next(&seed) % (uint64_t)list.n);
        pos_play(&p, &list.m[best]);
    }
    return n;
}

static void test_memoized_terms_equal_fresh_terms(void **state)
{
    (void)state;
    /* from the start, and ccerl-2 also from a wall sealing white's target off
     * (its door term reads the target and the door) */
    static const struct {
        const char *name, *pieces, *tail;
    } variants[] = {{"classic-2", NULL, NULL},   {"classic-3", NULL, NULL},   {"classic-4", NULL, NULL},
                    {"classic-6", NULL, NULL},   {"fifteen-3", NULL, NULL},   {"pairs-4", NULL, NULL},
                    {"pairs-6", NULL, NULL},     {"longjumps-4", NULL, NULL}, {"masters-6", NULL, NULL},
                    {"symmetric-6", NULL, NULL}, {"ccerl-2", NULL, NULL},
                    {"ccerl-2", "b e14 f14 g14 h14 e15 f15 g15 m1 l2 m2 w f13 g13 h13 i12 i9 h9 j9 h10 i10 g9",
                     "w w40,b40 41"}};
    long sealed = 0;
    enum { CAP = 20000 };
    Position *pos = malloc(sizeof *pos * CAP);
    int *fwd = malloc(sizeof *fwd * CAP), *rev = malloc(sizeof *rev * CAP);
    EvalTerms(*ta)[MAX_SEATS] = calloc(CAP, sizeof *ta), (*tb)[MAX_SEATS] = calloc(CAP, sizeof *tb);
    int(*sa)[MAX_SEATS] = calloc(CAP, sizeof *sa), (*sb)[MAX_SEATS] = calloc(CAP, sizeof *sb);
    assert_true(pos && fwd && rev && ta && tb && sa && sb);
    long checked = 0;
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        const int n = game_positions(variants[v].name, variants[v].pieces, variants[v].tail, 160,
                                     0x9E3779B97F4A7C15ull + v, pos, CAP);
        for (int i = 0; i < n; i++)
            fwd[i] = i, rev[i] = n - 1 - i;
        /* search order (memos warm from the sibling before), then the reverse,
         * each with a new memo */
        EvalJob a = {pos, n, fwd, ta, sa, eval_memo_new()}, b = {pos, n, rev, tb, sb, eval_memo_new()};
        assert_true(a.memo && b.memo);
        eval_job(&a);
        eval_job(&b);
        eval_memo_delete(a.memo);
        eval_memo_delete(b.memo);
        for (int i = 0; i < n; i++) {
            /* every 64th position also without a memo: nothing remembered */
            EvalTerms (*tc)[MAX_SEATS] = tb;
            int(*sc)[MAX_SEATS] = sb;
            if (i % 64 == 0) {
                EvalJob c = {pos, 1, &fwd[i], tb, sb, NULL};
                eval_job(&c);
            }
            for (int t = 0; t < pos[i].v->nseats; t++) {
                const int s = pos[i].v->seats[t];
                if (memcmp(&ta[i][s], &tc[i][s], sizeof ta[i][s]) || sa[i][s] != sc[i][s])
                    fail_msg("%s, position %d of %d, seat %d: terms from the memos differ (total %d against %d, "
                             "deadline %d against %d, eval_for %d against %d)",
                             variants[v].name, i, n, s, ta[i][s].total, tc[i][s].total, ta[i][s].deadline,
                             tc[i][s].deadline, sa[i][s], sc[i][s]);
                checked++;
                sealed += pos[i].v->ccerl && ta[i][s].traffic < 0;
            }
        }
    }
    /* the games were long enough to bring in the exit deadline's terms */
    assert_true(checked > 100000);
    assert_true(sealed > 30); /* and sealed targets' doors */
    free(pos), free(fwd), free(rev), free(ta), free(tb), free(sa), free(sb);
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_six_seat_crowd_costs_each_marble_beyond_eight_in_the_centre),
        cmocka_unit_test(test_six_seat_courtesy_spares_the_target_door_and_empty_homes),
        cmocka_unit_test(test_traffic_terms_apply_to_six_seats_only),
        cmocka_unit_test(test_six_seat_score_is_own_standing_fewer_seats_subtract_the_best_rival),
        cmocka_unit_test(test_home_cost_waits_out_each_seat_counts_grace),
        cmocka_unit_test(test_no_home_cost_without_a_deadline),
        cmocka_unit_test(test_sealed_target_door_costs_without_a_deadline),
        cmocka_unit_test(test_memoized_terms_equal_fresh_terms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
