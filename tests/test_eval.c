/*
 * test_eval.c - the evaluation terms that change how a game flows, on positions
 * built to isolate them: the six-seat traffic terms (marbles crowding the centre,
 * marbles parked at the door of another seat's home) and the six-seat score
 * being the seat's own standing, against the same positions with fewer seats;
 * the two-seat grace before marbles left at home cost anything.
 */
#include "support/stern_test.h"

#include "eval.h"

#include <stdio.h>
#include <string.h>

static Game g;

/* Start homes of every seat but white (classic-6). */
#define OTHERS_AT_HOME                                                       \
    "r e8 e7 f7 e6 f6 g6 e5 f5 g5 h5 "                                         \
    "u a13 b13 c13 d13 b12 c12 d12 c11 d11 d10 "                               \
    "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 "                               \
    "y j13 k13 l13 m13 k12 l12 m12 l11 m11 m10 "                               \
    "g n8 n7 o7 n6 o6 p6 n5 o5 p5 q5 "

static void test_six_seat_crowd_costs_each_marble_beyond_six_in_the_centre(void **state)
{
    (void)state;
    /* eight white marbles in the centre, none next to a home: 2 x 100 */
    game_setup(&g, "classic-6", OTHERS_AT_HOME "w i9 h9 j9 h10 i10 i8 j8 g9 j4 k4", "w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE).traffic, -200);
    assert_int_equal(eval_seat(&g.pos, SEAT_RED).traffic, 0);
    /* six in the centre cost nothing */
    game_setup(&g, "classic-6", OTHERS_AT_HOME "w i9 h9 j9 h10 i10 i8 j4 k4 l4 m4", "w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE).traffic, 0);
}

static void test_six_seat_courtesy_spares_the_target_door_and_empty_homes(void **state)
{
    (void)state;
    /* seven in the centre (-100); f8 is next to red's home, which still holds red
     * marbles (-60); h13 is next to black's home, white's target: waiting there is
     * the way in (free) */
    game_setup(&g, "classic-6", OTHERS_AT_HOME "w i9 h9 j9 h10 i10 f8 h13 j4 k4 l4", "w w0,r0,u0,b0,y0,g0 1");
    const EvalTerms t = eval_seat(&g.pos, SEAT_WHITE);
    assert_int_equal(t.traffic, -160);
    assert_int_equal(t.total, t.distance + t.straggler + t.deadline + t.traffic);
    /* red's home empty: its door is free to stand on */
    game_setup(&g, "classic-6",
               "r e11 f11 g11 h11 i11 j11 k11 f12 g12 h12 "
               "u a13 b13 c13 d13 b12 c12 d12 c11 d11 d10 "
               "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 "
               "y j13 k13 l13 m13 k12 l12 m12 l11 m11 m10 "
               "g n8 n7 o7 n6 o6 p6 n5 o5 p5 q5 "
               "w i9 h9 j9 h10 i10 f8 h13 j4 k4 l4",
               "w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE).traffic, -100);
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
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE).traffic, 0);
    game_setup(&g, "classic-2", "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 w i9 h9 j9 h10 i10 i8 j8 g9 j4 k4",
               "w w0,b0 1");
    assert_int_equal(eval_seat(&g.pos, SEAT_WHITE).traffic, 0);
}

static void test_six_seat_score_is_own_standing_fewer_seats_subtract_the_best_rival(void **state)
{
    (void)state;
    /* white ahead, red to be scored while white is to move: no tempo for red */
    game_setup(&g, "classic-6", OTHERS_AT_HOME "w i9 h9 j9 h10 i10 i8 j4 k4 l4 m4", "w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(eval_for(&g.pos, SEAT_RED), eval_standing(&g.pos, SEAT_RED));
    game_setup(&g, "classic-2", "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14 w i9 h9 j9 h10 i10 i8 j4 k4 l4 m4",
               "w w0,b0 1");
    assert_int_equal(eval_for(&g.pos, SEAT_BLACK),
                     eval_standing(&g.pos, SEAT_BLACK) - eval_standing(&g.pos, SEAT_WHITE));
    assert_true(eval_standing(&g.pos, SEAT_WHITE) > eval_standing(&g.pos, SEAT_BLACK));
}

/* White with three marbles at home (m1 l2 m2) after `moves` own moves: the
 * deadline term of eval_seat. */
static int duo_home_cost(const char *variant, const char *black, int moves)
{
    char counts[64];
    if (strcmp(variant, "classic-2") == 0)
        snprintf(counts, sizeof counts, "w w%d,b%d %d", moves, moves, moves + 1);
    else
        snprintf(counts, sizeof counts, "w w%d,r%d,b%d,y%d %d", moves, moves, moves, moves, moves + 1);
    char placement[256];
    snprintf(placement, sizeof placement, "%s w m1 l2 m2 i9 h9 j9 h10 i10 i8 g9", black);
    game_setup(&g, variant, placement, counts);
    return eval_seat(&g.pos, SEAT_WHITE).deadline;
}

#define BLACK_AT_HOME "b e17 e16 f16 e15 f15 g15 e14 f14 g14 h14"

static void test_two_seat_home_cost_waits_for_the_twenty_first_move(void **state)
{
    (void)state;
    /* Two seats: nothing up to the 21st own move, then a cost growing from move
     * to move (at 9 moves left the escapes' count joins it). */
    assert_int_equal(duo_home_cost("classic-2", BLACK_AT_HOME, 3), 0);
    assert_int_equal(duo_home_cost("classic-2", BLACK_AT_HOME, 21), 0);
    const int first = duo_home_cost("classic-2", BLACK_AT_HOME, 22);
    assert_true(first < 0);
    assert_true(duo_home_cost("classic-2", BLACK_AT_HOME, 23) < first);
    /* Four seats keep the short grace: the same home costs from the 4th move. */
    const char *others = "r e8 e7 f7 e6 f6 g6 e5 f5 g5 h5 " BLACK_AT_HOME " y j13 k13 l13 m13 k12 l12 m12 l11 m11 m10";
    assert_int_equal(duo_home_cost("classic-4", others, 3), 0);
    assert_true(duo_home_cost("classic-4", others, 4) < 0);
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_six_seat_crowd_costs_each_marble_beyond_six_in_the_centre),
        cmocka_unit_test(test_six_seat_courtesy_spares_the_target_door_and_empty_homes),
        cmocka_unit_test(test_traffic_terms_apply_to_six_seats_only),
        cmocka_unit_test(test_six_seat_score_is_own_standing_fewer_seats_subtract_the_best_rival),
        cmocka_unit_test(test_two_seat_home_cost_waits_for_the_twenty_first_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
