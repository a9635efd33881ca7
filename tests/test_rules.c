/*
 * test_rules.c - the rules of RULES.md sections 3 (moves), 5 (exit deadline,
 * trapped marbles, elimination) and 6 (arrival, places, end of the game), one
 * position per rule, built from lists of marbles (support/stern_test.h).
 *
 * Hole reminders (RULES.md section 1): N point e14-h14 e15-g15 e16 f16 e17,
 * S point j4-m4 k3-m3 l2 m2 m1, SE point n5-q5 n6-p6 n7 o7 n8,
 * SW point e5-h5 e6-g6 e7 f7 e8, NW point a13 b12 b13 c11-c13 d10-d13,
 * NE point j13 k12 k13 l11-l13 m10-m13. Neighbours of (file, row): file+-1 on the
 * same row, row+-1 on the same file, (file+1, row-1) and (file-1, row+1).
 */
#include "support/stern_test.h"

static Game g;
static Variant plain_rules; /* a rules variant of the tests' own */

/* classic-2 fillers: white's 9 marbles in N leave only e17, where a black marble
 * stands, so N is full and none of them can move; black's 9 marbles fill S but m1. */
#define W_N9 "e14 f14 g14 h14 e15 f15 g15 e16 f16"
#define B_S9 "l2 m2 k3 l3 m3 j4 k4 l4 m4"
/* classic-3 fillers: blue 9 in its target SE (n8 free), yellow 9 in SW (e8 free). */
#define U_SE9 "n5 o5 p5 q5 n6 o6 p6 n7 o7"
#define Y_SW9 "e5 f5 g5 h5 e6 f6 g6 e7 f7"
/* all 10 holes of N */
#define N10 "e14 f14 g14 h14 e15 f15 g15 e16 f16 e17"

static void assert_over(EndReason reason)
{
    assert_int_equal(g.pos.stm, -1);
    assert_true(pos_over(&g.pos));
    assert_int_equal(g.pos.reason, reason);
}

static void assert_seat(int s, SeatStatus status, int place)
{
    assert_int_equal(g.pos.status[s], status);
    assert_int_equal(g.pos.place[s], place);
}

/* ---- section 3: moves ---- */

static void test_step_goes_to_each_empty_neighbour(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w " W_N9 " i9 b e17 " B_S9, "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, NULL), "i9-h10 i9-i10 i9-h9 i9-j9 i9-i8 i9-j8");
    assert_int_equal(gen_count(&g.pos, NULL), 6);
    play(&g, "i9-i10");
    assert_position(&g.pos, "w " W_N9 " i10 b e17 " B_S9, "b w6,b5 6");
    /* black: e17 is caged, the S marbles may only fill m1 (they stand in their target) */
    assert_string_equal(legal_moves(&g.pos, NULL), "k3-m1 m3-m1 l2-m1 m2-m1");
}

static void test_step_never_onto_marble_and_short_jump_over_either_colour(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w e14 f14 g14 h14 e15 f15 g15 e16 i9 h9 b e17 j9 l2 m2 k3 l3 m3 j4 k4 l4",
               "w w5,b5 6");
    /* h9 is white, j9 black: both are jumped over, neither is stepped onto */
    assert_string_equal(legal_moves(&g.pos, "i9"), "i9-h10 i9-i10 i9-g9 i9-k9 i9-i8 i9-j8");
    move_refused(&g.pos, "i9-j9", "illegal");
    move_refused(&g.pos, "i9-h9", "illegal");
    play(&g, "i9-k9");
    assert_position(&g.pos, "w e14 f14 g14 h14 e15 f15 g15 e16 k9 h9 b e17 j9 l2 m2 k3 l3 m3 j4 k4 l4",
                    "b w6,b5 6");
}

static void test_short_jump_only_over_adjacent_marble(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w " W_N9 " i9 b e17 k9 l2 m2 k3 l3 m3 j4 k4 l4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "i9"), "i9-h10 i9-i10 i9-h9 i9-j9 i9-i8 i9-j8");
    move_refused(&g.pos, "i9-m9", "illegal");
}

static void test_long_jump_over_marble_at_midpoint(void **state)
{
    (void)state;
    game_setup(&g, "longjumps-2", "w " W_N9 " i9 b e17 k9 l2 m2 k3 l3 m3 j4 k4 l4", "w w5,b5 6");
    /* k9 stands halfway between i9 and m9, j9 and l9 are empty */
    assert_string_equal(legal_moves(&g.pos, "i9"), "i9-h10 i9-i10 i9-h9 i9-j9 i9-m9 i9-i8 i9-j8");
    move_refused(&g.pos, "i9-l9", "illegal");
    /* two adjacent marbles: no long jump (the landing beyond the first is full) */
    game_setup(&g, "longjumps-2", "w " W_N9 " i9 b e17 j9 k9 l2 m2 k3 l3 m3 j4 k4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "i9"), "i9-h10 i9-i10 i9-h9 i9-i8 i9-j8");
}

static void test_symmetric_jump_over_mirrored_pattern(void **state)
{
    (void)state;
    /* pattern "x x": i9 over j9 and k9 to l9 */
    game_setup(&g, "symmetric-2", "w " W_N9 " i9 b e17 j9 k9 l2 m2 k3 l3 m3 j4 k4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "i9"), "i9-h10 i9-i10 i9-h9 i9-l9 i9-i8 i9-j8");
    /* pattern "x . x": i9 over j9, k9 (empty), l9 to m9; and the short jump to k9 */
    game_setup(&g, "symmetric-2", "w " W_N9 " i9 b e17 j9 l9 l2 m2 k3 l3 m3 j4 k4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "i9"), "i9-h10 i9-i10 i9-h9 i9-k9 i9-m9 i9-i8 i9-j8");
}

static void test_jump_chain_of_short_jumps(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w " W_N9 " i9 b e17 j9 l9 l2 m2 k3 l3 m3 j4 k4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "i9"), "i9-h10 i9-i10 i9-h9 i9-k9 i9-k9-m9 i9-i8 i9-j8");
    assert_int_equal(gen_count(&g.pos, NULL), 7);
    const Move full = move_ok(&g.pos, "i9-k9-m9");
    const Move shorthand = move_ok(&g.pos, "i9-m9");
    assert_int_equal(full.from, hole("i9"));
    assert_int_equal(full.to, hole("m9"));
    assert_int_equal(shorthand.from, full.from);
    assert_int_equal(shorthand.to, full.to);
    assert_int_equal(shorthand.swap, NO_HOLE);
    play(&g, "i9-m9");
    assert_position(&g.pos, "w " W_N9 " m9 b e17 j9 l9 l2 m2 k3 l3 m3 j4 k4", "b w6,b5 6");
}

static void test_chain_never_lands_twice_and_start_counts_as_visited(void **state)
{
    (void)state;
    /* j9, j10, i10 make a triangle of jumps i9 -> k9 -> i11 -> i9 */
    game_setup(&g, "classic-2", "w " W_N9 " i9 b e17 j9 j10 i10 l2 m2 k3 l3 m3 j4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "i9"), "i9-i11 i9-h10 i9-h9 i9-k9 i9-i8 i9-j8");
    move_refused(&g.pos, "i9-k9-i11-i9", "lands twice");
    move_refused(&g.pos, "i9-i11-k9-i9", "lands twice");
    move_refused(&g.pos, "i9-k9-i11-k9", "lands twice");
    move_refused(&g.pos, "i9-i9", "illegal");
}

static void test_chain_start_is_empty_during_chain(void **state)
{
    (void)state;
    /* longjumps: i9-i11-g11-g9, then from g9 east over j9 to m9: the holes
     * between are h9, i9 (the start, empty by then), k9, l9 */
    game_setup(&g, "longjumps-2", "w " W_N9 " i9 b e17 i10 h11 g10 j9 l2 m2 k3 l3 m3", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "i9"),
                        "i9-i11-g11 i9-i11 i9-h10 i9-i11-g11-g9 i9-h9 i9-k9 i9-i11-g11-g9-m9 i9-i8 i9-j8");
    play(&g, "i9-m9");
    assert_position(&g.pos, "w " W_N9 " m9 b e17 i10 h11 g10 j9 l2 m2 k3 l3 m3", "b w6,b5 6");
}

static void test_step_never_ends_in_foreign_point(void **state)
{
    (void)state;
    /* e9 touches NW (d10) and SW (e8), foreign points for white */
    game_setup(&g, "classic-2", "w " W_N9 " e9 b e17 " B_S9, "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, NULL), "e9-e10 e9-f9 e9-f8");
    move_refused(&g.pos, "e9-d10", "illegal");
    move_refused(&g.pos, "e9-e8", "illegal");
    /* the same position under plain rules (no foreign-point rule) */
    plain_rules = *g.v;
    for (int s = 0; s < MAX_SEATS; s++)
        plain_rules.foreign[s] = 0;
    game_set_variant(&g, &plain_rules);
    assert_string_equal(legal_moves(&g.pos, NULL), "e9-d10 e9-e10 e9-f9 e9-e8 e9-f8");
}

static void test_chain_passes_through_foreign_point_but_never_ends_there(void **state)
{
    (void)state;
    /* f11 over e11 lands on d11 (NW, foreign) and jumps on over e10 to f9 */
    game_setup(&g, "classic-2", "w " W_N9 " f11 b e17 e11 e10 l2 m2 k3 l3 m3 j4 k4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "f11"), "f11-e12 f11-f12 f11-g11 f11-f10 f11-g10 f11-d11-f9");
    move_refused(&g.pos, "f11-d11", "illegal");
    const Move full = move_ok(&g.pos, "f11-d11-f9");
    const Move shorthand = move_ok(&g.pos, "f11-f9");
    assert_int_equal(full.to, hole("f9"));
    assert_int_equal(shorthand.to, hole("f9"));
    /* plain rules: the chain may also stop on d11 */
    plain_rules = *g.v;
    for (int s = 0; s < MAX_SEATS; s++)
        plain_rules.foreign[s] = 0;
    game_set_variant(&g, &plain_rules);
    assert_string_equal(legal_moves(&g.pos, "f11"),
                        "f11-e12 f11-f12 f11-d11 f11-g11 f11-f10 f11-g10 f11-d11-f9");
    game_setup(&g, "classic-2", "w " W_N9 " f11 b e17 e11 e10 l2 m2 k3 l3 m3 j4 k4", "w w5,b5 6");
    play(&g, "f11-f9");
    assert_position(&g.pos, "w " W_N9 " f9 b e17 e11 e10 l2 m2 k3 l3 m3 j4 k4", "b w6,b5 6");
}

static void test_target_lock_chain_entering_target_stays_inside(void **state)
{
    (void)state;
    /* g12 over g13 lands on g14 (white's target N); from there a jump over h13
     * would leave N for i12 (forbidden), a jump over f15 to e16 stays in N */
    game_setup(&g, "classic-2",
               "w e14 f14 h14 e15 f15 g15 f16 g12 m1 l2 b e17 g13 h13 m2 k3 l3 m3 j4 k4 l4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "g12"),
                        "g12-g14-e16 g12-g14 g12-f13 g12-f12 g12-h12 g12-g11 g12-h11");
    move_refused(&g.pos, "g12-g14-i12", "target");
    move_refused(&g.pos, "g12-i12", "illegal");
    play(&g, "g12-g14-e16");
    assert_position(&g.pos, "w e14 f14 h14 e15 f15 g15 f16 e16 m1 l2 b e17 g13 h13 m2 k3 l3 m3 j4 k4 l4",
                    "b w6,b5 6");
}

static void test_target_lock_marble_in_target_moves_only_inside(void **state)
{
    (void)state;
    /* g14 stands in white's target: g13 (empty) and i12 (over h13) are outside */
    game_setup(&g, "classic-2",
               "w e14 f14 g14 e15 f15 f16 m1 l2 m2 k3 b e17 h13 l3 m3 j4 k4 l4 m4 k5 l5", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "g14"), "g14-e16 g14-g15 g14-h14");
    move_refused(&g.pos, "g14-g13", "illegal");
    move_refused(&g.pos, "g14-i12", "target");
}

static void test_target_lock_holds_for_long_jumps(void **state)
{
    (void)state;
    /* longjumps: from g14 (in N) the long jump over g12 to g10 and the short one
     * over h13 to i12 would leave the target */
    game_setup(&g, "longjumps-2", "w e14 f14 g14 e15 f15 f16 m1 l2 m2 k3 b e17 h13 g12 l3 m3 j4 k4 l4 m4 l5",
               "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "g14"), "g14-e16 g14-g15 g14-h14");
    move_refused(&g.pos, "g14-g10", "target");
    move_refused(&g.pos, "g14-i12", "target");
    /* a chain entering N over g13 cannot leave it over h13 */
    game_setup(&g, "longjumps-2",
               "w e14 f14 h14 e15 f15 g15 f16 g12 m1 l2 b e17 g13 h13 m2 k3 l3 m3 j4 k4 l4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "g12"),
                        "g12-g14-e16 g12-g14 g12-f13 g12-f12 g12-h12 g12-g11 g12-h11");
    move_refused(&g.pos, "g12-g14-i12", "target");
}

/* ---- section 5: exit deadline, trapped marbles, elimination ---- */

static void test_deadline_eliminates_untrapped_marble_three_players(void **state)
{
    (void)state;
    /* white's 30th move leaves m1 (free to step to l2 or m2) in its home */
    game_setup(&g, "classic-3", "w e14 f14 g14 h14 e15 f15 g15 e16 m1 i9 u " U_SE9 " g10 y " Y_SW9 " k8",
               "w w29,u29,y29 30");
    assert_true(gen_can_move(&g.pos, SEAT_WHITE, hole("m1")));
    play(&g, "i9-i10");
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 3);
    assert_int_equal(g.pos.seat_bb[SEAT_WHITE], 0);
    assert_int_equal(g.pos.stm, SEAT_BLUE);
    assert_position(&g.pos, "u " U_SE9 " g10 y " Y_SW9 " k8", "u w30!3,u29,y29 30");
}

static void test_deadline_not_checked_before_30th_move(void **state)
{
    (void)state;
    game_setup(&g, "classic-3", "w e14 f14 g14 h14 e15 f15 g15 e16 m1 i9 u " U_SE9 " g10 y " Y_SW9 " k8",
               "w w28,u28,y28 29");
    play(&g, "i9-i10");
    assert_seat(SEAT_WHITE, ST_PLAYING, 0);
    assert_position(&g.pos, "w e14 f14 g14 h14 e15 f15 g15 e16 m1 i10 u " U_SE9 " g10 y " Y_SW9 " k8",
                    "u w29,u28,y28 29");
}

static void test_deadline_two_players_loses_and_marbles_stay(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w e14 f14 g14 h14 e15 f15 g15 e16 m1 i9 b e17 k3 l3 m3 j4 k4 l4 m4 h7 k7",
               "w w29,b29 30");
    play(&g, "i9-i10");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 2);
    assert_seat(SEAT_BLACK, ST_PLAYING, 1);
    assert_position(&g.pos, "w e14 f14 g14 h14 e15 f15 g15 e16 m1 i10 b e17 k3 l3 m3 j4 k4 l4 m4 h7 k7",
                    "- w30!2,b29 30");
}

static void test_trapped_marble_in_home_does_not_eliminate(void **state)
{
    (void)state;
    /* m1 is caged: l2 and m2 are full, and so are the landings k3 and m3 */
    game_setup(&g, "classic-2", "w f16 e15 f15 g15 e14 f14 g14 h14 m1 i9 b e17 " B_S9, "w w29,b29 30");
    assert_false(gen_can_move(&g.pos, SEAT_WHITE, hole("m1")));
    play(&g, "i9-i10");
    assert_seat(SEAT_WHITE, ST_PLAYING, 0);
    assert_position(&g.pos, "w f16 e15 f15 g15 e14 f14 g14 h14 m1 i10 b e17 " B_S9, "b w30,b29 30");
    assert_string_equal(legal_moves(&g.pos, NULL), "e17-e16");
}

static void test_marble_movable_inside_home_is_not_trapped(void **state)
{
    (void)state;
    /* m1 can only jump to m3, inside its home (k5 and m5 block the way on): it is
     * not trapped */
    game_setup(&g, "classic-2", "w f16 e15 f15 g15 e14 f14 g14 h14 m1 i9 b e17 l2 m2 k3 l3 k4 l4 m4 k5 m5",
               "w w29,b29 30");
    assert_string_equal(legal_moves(&g.pos, "m1"), "m1-m3");
    play(&g, "i9-i10");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 2);
    assert_seat(SEAT_BLACK, ST_PLAYING, 1);
    assert_position(&g.pos, "w f16 e15 f15 g15 e14 f14 g14 h14 m1 i10 b e17 l2 m2 k3 l3 k4 l4 m4 k5 m5",
                    "- w30!2,b29 30");
}

static void test_return_home_after_deadline_is_legal_but_eliminates(void **state)
{
    (void)state;
    game_setup(&g, "classic-3", "w e14 f14 g14 h14 e15 f15 g15 e16 k5 i9 u " U_SE9 " g10 y " Y_SW9 " k8",
               "w w35,u35,y35 36");
    /* k4 and l4 are in white's home: legal moves all the same */
    assert_string_equal(legal_moves(&g.pos, "k5"), "k5-j6 k5-k6 k5-j5 k5-l5 k5-k4 k5-l4");
    play(&g, "k5-k4");
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 3);
    assert_int_equal(g.pos.stm, SEAT_BLUE);
    assert_position(&g.pos, "u " U_SE9 " g10 y " Y_SW9 " k8", "u w36!3,u35,y35 36");
}

static void test_return_home_eliminates_even_when_marble_is_caged(void **state)
{
    (void)state;
    /* fifteen-2: m5 is in white's home (S plus its edge row). White's n5 stands in
     * the foreign point SE (only a FEN can put it there) and steps to m5, where
     * it is caged (l5 m6 m4 l6 full, and the landings k5 m7 m3 k7; n5 is
     * foreign). The deadline check alone would pass; the return-home rule does not. */
#define RH_WHITE "w e14 f14 g14 h14 e15 f15 g15 e16 f16 e17 e13 f13 g13 i9 "
#define RH_BLACK " b l5 m4 m3 k5 m1 l2 m2 k3 l3 m6 l6 m7 k7 j8 h8"
    game_setup(&g, "fifteen-2", RH_WHITE "n5" RH_BLACK, "w w45,b45 46");
    play(&g, "n5-m5");
    assert_false(gen_can_move(&g.pos, SEAT_WHITE, hole("m5")));
    assert_over(END_DEADLINE);
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 2);
    assert_seat(SEAT_BLACK, ST_PLAYING, 1);
    assert_position(&g.pos, RH_WHITE "m5" RH_BLACK, "- w46!2,b45 46");
#undef RH_WHITE
#undef RH_BLACK
}

static void test_return_home_before_deadline_is_allowed(void **state)
{
    (void)state;
    game_setup(&g, "classic-3", "w e14 f14 g14 h14 e15 f15 g15 e16 k5 i9 u " U_SE9 " g10 y " Y_SW9 " k8",
               "w w28,u28,y28 29");
    play(&g, "k5-k4");
    assert_seat(SEAT_WHITE, ST_PLAYING, 0);
    assert_position(&g.pos, "w e14 f14 g14 h14 e15 f15 g15 e16 k4 i9 u " U_SE9 " g10 y " Y_SW9 " k8",
                    "u w29,u28,y28 29");
}

static void test_fifteen_marble_deadline_is_40_moves(void **state)
{
    (void)state;
    /* i5 is in white's 15-hole home (S plus its edge row) and can step to i6 */
#define F_WHITE "w e14 f14 g14 h14 e15 f15 g15 e16 f16 e13 f13 g13 h13 i5 "
#define F_BLACK " b e17 m1 l2 m2 k3 l3 m3 j4 k4 l4 m4 j5 k5 l5 k8"
    game_setup(&g, "fifteen-2", F_WHITE "i9" F_BLACK, "w w38,b38 39");
    play(&g, "i9-i10");
    assert_seat(SEAT_WHITE, ST_PLAYING, 0);
    assert_position(&g.pos, F_WHITE "i10" F_BLACK, "b w39,b38 39");
    game_setup(&g, "fifteen-2", F_WHITE "i9" F_BLACK, "w w39,b39 40");
    play(&g, "i9-i10");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 2);
    assert_position(&g.pos, F_WHITE "i10" F_BLACK, "- w40!2,b39 40");
#undef F_WHITE
#undef F_BLACK
}

/* ---- section 6: arrival, places, end of the game ---- */

static void test_arrival_with_all_marbles_in_target(void **state)
{
    (void)state;
    game_setup(&g, "classic-3", "w e14 f14 g14 e15 f15 g15 e16 f16 e17 i13 u " U_SE9 " g10 y " Y_SW9 " k8",
               "w w15,u15,y15 16");
    play(&g, "i13-h14");
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_false(pos_over(&g.pos));
    assert_position(&g.pos, "w " N10 " u " U_SE9 " g10 y " Y_SW9 " k8", "u w16=1,u15,y15 16");
    /* the arrived seat keeps its marbles and is skipped: after yellow comes blue */
    play(&g, "g10-g9");
    play(&g, "k8-k7");
    assert_position(&g.pos, "w " N10 " u " U_SE9 " g9 y " Y_SW9 " k7", "u w16=1,u16,y16 17");
}

static void test_full_target_arrival_only_from_deadline(void **state)
{
    (void)state;
    /* black's e17 is stuck in white's target; white fills the rest of N on its
     * 29th move: no arrival yet; its 30th move (elsewhere) makes it arrive */
    game_setup(&g, "classic-2", "w e14 f14 g14 e15 f15 g15 e16 f16 i13 i9 b e17 " B_S9, "w w28,b28 29");
    play(&g, "i13-h14");
    assert_seat(SEAT_WHITE, ST_PLAYING, 0);
    assert_position(&g.pos, "w " W_N9 " i9 b e17 " B_S9, "b w29,b28 29");
    play(&g, "l2-m1");
    assert_position(&g.pos, "w " W_N9 " i9 b e17 m1 m2 k3 l3 m3 j4 k4 l4 m4", "w w29,b29 30");
    play(&g, "i9-i10");
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_int_equal(g.pos.stm, SEAT_BLACK);
    assert_position(&g.pos, "w " W_N9 " i10 b e17 m1 m2 k3 l3 m3 j4 k4 l4 m4", "b w30=1,b29 30");
    /* black's reply does not arrive: white wins */
    play(&g, "k3-l2");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
    assert_position(&g.pos, "w " W_N9 " i10 b e17 m1 l2 m2 l3 m3 j4 k4 l4 m4", "- w30=1,b30 30");
}

static void test_full_target_arrival_long_after_deadline(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w e14 f14 g14 e15 f15 g15 e16 f16 i13 i9 b e17 " B_S9, "w w44,b44 45");
    play(&g, "i13-h14");
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_position(&g.pos, "w " W_N9 " i9 b e17 " B_S9, "b w45=1,b44 45");
}

static void test_full_target_arrival_on_another_seats_move(void **state)
{
    (void)state;
    /* White is past its deadline with 8 marbles in N, and black's e17 is stuck
     * there. White's move elsewhere arrives no one; then black (two moves behind,
     * before its own deadline) comes home with i13-h14 and fills N: white arrives
     * on black's move, and as black has had its turn, white wins. */
    game_setup(&g, "classic-2", "w e14 f14 g14 e15 f15 g15 e16 f16 i9 g9 b e17 i13 m1 l2 m2 k3 l3 m3 k4 l4",
               "w w30,b28 31");
    play(&g, "i9-i10");
    assert_seat(SEAT_WHITE, ST_PLAYING, 0);
    play(&g, "i13-h14");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
    assert_position(&g.pos, "w e14 f14 g14 e15 f15 g15 e16 f16 i10 g9 b e17 h14 m1 l2 m2 k3 l3 m3 k4 l4",
                    "- w31=1,b29 31");
}

/* two-player reply positions: white i13 can fill h14, black i5 can fill j4 */
#define REPLY_POS "w e14 f14 g14 e15 f15 g15 e16 f16 e17 i13 b m1 l2 m2 k3 l3 m3 k4 l4 m4 i5"
#define W_IN "w " N10 " b m1 l2 m2 k3 l3 m3 k4 l4 m4 "

static void test_reply_both_arrive_is_draw(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", REPLY_POS, "w w20,b20 21");
    play(&g, "i13-h14");
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_int_equal(g.pos.stm, SEAT_BLACK);
    assert_position(&g.pos, W_IN "i5", "b w21=1,b20 21");
    play(&g, "i5-j4");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_ARRIVED, 1);
    assert_position(&g.pos, W_IN "j4", "- w21=1,b21=1 21");
}

static void test_reply_without_arrival_white_wins(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", REPLY_POS, "w w20,b20 21");
    play(&g, "i13-h14");
    play(&g, "i5-i6");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
    assert_position(&g.pos, W_IN "i6", "- w21=1,b21 21");
}

static void test_black_arriving_first_wins_at_once(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", REPLY_POS, "b w21,b20 21");
    play(&g, "i5-j4");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_BLACK, ST_ARRIVED, 1);
    assert_seat(SEAT_WHITE, ST_PLAYING, 2);
    assert_position(&g.pos, "w e14 f14 g14 e15 f15 g15 e16 f16 e17 i13 b m1 l2 m2 k3 l3 m3 j4 k4 l4 m4",
                    "- w21,b21=1 21");
}

static void test_reply_with_no_legal_move_is_skipped_white_wins(void **state)
{
    (void)state;
    /* black: e17 caged in N, 9 marbles locked in a full S (with white's caged m1).
     * White arrives by the full-target rule (31st move). */
    game_setup(&g, "classic-2", "w e16 f16 e15 f15 g15 e14 f14 g14 i13 m1 b e17 " B_S9, "w w30,b29 31");
    assert_false(pos_has_move(&g.pos, SEAT_BLACK));
    play(&g, "i13-h14");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
    assert_position(&g.pos, "w " W_N9 " m1 b e17 " B_S9, "- w31=1,b29 31");
}

static void test_skipped_seat_keeps_move_count_three_players(void **state)
{
    (void)state;
    /* blue: 9 marbles locked in a full SE (yellow's n8 fills it), a13 caged by
     * yellow marbles on b13, b12 and the landings c13, c11 */
#define SKIP_U " u a13 " U_SE9 " y b13 b12 c13 c11 n8 e5 f5 g5 h5 "
    game_setup(&g, "classic-3", "w " W_N9 " i9" SKIP_U "e6", "w w12,u12,y12 13");
    assert_false(pos_has_move(&g.pos, SEAT_BLUE));
    play(&g, "i9-i10");
    assert_int_equal(g.pos.stm, SEAT_YELLOW);
    assert_position(&g.pos, "w " W_N9 " i10" SKIP_U "e6", "y w13,u12,y12 13");
    play(&g, "e6-e7");
    assert_position(&g.pos, "w " W_N9 " i10" SKIP_U "e7", "w w13,u12,y13 14");
    play(&g, "i10-i11");
    assert_position(&g.pos, "w " W_N9 " i11" SKIP_U "e7", "y w14,u12,y13 14");
    assert_int_equal(g.pos.moves[SEAT_BLUE], 12);
#undef SKIP_U
}

static void test_skipped_seat_two_players_turn_returns_to_mover(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w m1 e16 f16 e15 g15 i9 g9 k9 g11 k11 b e17 " B_S9, "w w10,b10 11");
    assert_false(pos_has_move(&g.pos, SEAT_BLACK));
    play(&g, "i9-i10");
    assert_int_equal(g.pos.stm, SEAT_WHITE);
    assert_position(&g.pos, "w m1 e16 f16 e15 g15 i10 g9 k9 g11 k11 b e17 " B_S9, "w w11,b10 12");
}

static void test_threefold_repetition_ends_game(void **state)
{
    (void)state;
#define REP_POS "w e14 f14 g14 h14 e15 i9 g9 g10 h8 f10 b m1 l2 m2 j6 k6 l6 j7 k7 l7 k8"
    game_setup(&g, "classic-2", REP_POS, "w w10,b10 11");
    assert_int_equal(game_occurrences(&g), 1);
    static const char *const cycle[4] = {"i9-i10", "k8-k9", "i10-i9", "k9-k8"};
    for (int i = 0; i < 4; i++)
        play(&g, cycle[i]);
    assert_int_equal(game_occurrences(&g), 2);
    assert_false(pos_over(&g.pos));
    for (int i = 0; i < 3; i++)
        play(&g, cycle[i]);
    assert_int_equal(game_occurrences(&g), 2);
    assert_false(pos_over(&g.pos));
    play(&g, cycle[3]);
    assert_over(END_REPETITION);
    /* ranking: white has 5 marbles in its target, black 3 */
    assert_seat(SEAT_WHITE, ST_PLAYING, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
    /* the round of the last move, black's in round 14 (PROTOCOL.md) */
    assert_position(&g.pos, REP_POS, "- w14,b14 14");
    move_refused(&g.pos, "i9-i10", "over");
    const Move m = {.from = (uint8_t)hole("i9"), .to = (uint8_t)hole("i10"), .swap = NO_HOLE};
    assert_int_equal(game_play(&g, &m), -1);
#undef REP_POS
}

static void test_round_limit_ends_game_after_round_150(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w e14 f14 g14 h14 i9 g9 g10 h8 f10 j11 b m1 l2 m2 j6 k6 l6 j7 k7 l7 k8",
               "w w149,b149 150");
    play(&g, "i9-i10");
    assert_false(pos_over(&g.pos));
    assert_position(&g.pos, "w e14 f14 g14 h14 i10 g9 g10 h8 f10 j11 b m1 l2 m2 j6 k6 l6 j7 k7 l7 k8",
                    "b w150,b149 150");
    play(&g, "k8-k9");
    assert_over(END_LIMIT);
    /* 4 marbles in target against 3 */
    assert_seat(SEAT_WHITE, ST_PLAYING, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
    assert_position(&g.pos, "w e14 f14 g14 h14 i10 g9 g10 h8 f10 j11 b m1 l2 m2 j6 k6 l6 j7 k7 l7 k9",
                    "- w150,b150 150");
}

/* Limit positions with 3 marbles in target each; black's marbles mirror white's
 * through the centre, so the summed distances start equal (25 each). */
#define MIRROR_W "w e17 e16 f16 h11 i11 j11 h10 i10 j10 k10"
#define MIRROR_B " b m1 m2 l2 j7 i7 h7 j8 i8 h8 g8"

static void test_ranking_equal_targets_closer_seat_ranks_higher(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", MIRROR_W MIRROR_B, "w w149,b149 150");
    assert_int_equal(pos_target_distance(&g.pos, SEAT_WHITE), 25);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_BLACK), 25);
    play(&g, "i11-i12"); /* one step closer */
    play(&g, "g8-f8");   /* sideways: as far as before */
    assert_over(END_LIMIT);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_WHITE), 24);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_BLACK), 25);
    assert_seat(SEAT_WHITE, ST_PLAYING, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
}

static void test_ranking_full_tie_is_shared_place_two_players(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", MIRROR_W MIRROR_B, "w w149,b149 150");
    play(&g, "i11-i12");
    play(&g, "i7-i6"); /* the mirror move */
    assert_over(END_LIMIT);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_WHITE), 24);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_BLACK), 24);
    assert_seat(SEAT_WHITE, ST_PLAYING, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 1);
}

static void test_ranking_competition_numbering_four_players(void **state)
{
    (void)state;
    /* white 4 in target; red and black 2 each, red's marbles are black's turned
     * by 120 degrees (same summed distance 15); yellow 1 */
#define RANK4 "w e17 e16 f16 e15 i9 h9 g9 h10 g10 f10" \
              " r m13 l13 l10 k11 j12 k10 j11 i12 j10 i11" \
              " b m1 m2 j5 k5 l5 j6 k6 l6 j7 k7" \
              " y e5 h6 i6 g7 h7 i7 g8 h8 i8 "
    game_setup(&g, "classic-4", RANK4 "f9", "y w150,r150,b150,y149 150");
    assert_int_equal(pos_target_distance(&g.pos, SEAT_RED), 15);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_BLACK), 15);
    play(&g, "f9-f8");
    assert_over(END_LIMIT);
    assert_seat(SEAT_WHITE, ST_PLAYING, 1);
    assert_seat(SEAT_RED, ST_PLAYING, 2);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
    assert_seat(SEAT_YELLOW, ST_PLAYING, 4);
    assert_position(&g.pos, RANK4 "f8", "- w150,r150,b150,y150 150");
#undef RANK4
}

static void test_game_ends_when_one_seat_unplaced(void **state)
{
    (void)state;
    game_setup(&g, "classic-3", "w " N10 " u " U_SE9 " m8 y " Y_SW9 " k9", "u w11=1,u10,y10 11");
    play(&g, "m8-n8");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLUE, ST_ARRIVED, 2);
    assert_seat(SEAT_YELLOW, ST_PLAYING, 3);
    assert_position(&g.pos, "w " N10 " u " U_SE9 " n8 y " Y_SW9 " k9", "- w11=1,u11=2,y10 11");
}

static void test_elimination_leaving_one_seat_unplaced_ends_game(void **state)
{
    (void)state;
    /* blue's a13 can still step to b13 on blue's 30th move */
    game_setup(&g, "classic-3", "w " N10 " u a13 n5 o5 p5 q5 n6 o6 p6 n7 k7 y " Y_SW9 " k9",
               "u w11=1,u29,y29 30");
    play(&g, "k7-k6");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLUE, ST_ELIMINATED, 3);
    assert_seat(SEAT_YELLOW, ST_PLAYING, 2);
    assert_position(&g.pos, "w " N10 " y " Y_SW9 " k9", "- w11=1,u30!3,y29 30");
}

static void test_deadline_takes_worst_free_place(void **state)
{
    (void)state;
    /* yellow already holds the last place: white's elimination takes place 2 */
    game_setup(&g, "classic-3", "w e14 f14 g14 h14 e15 f15 g15 e16 m1 i9 u " U_SE9 " g10",
               "w w29,u29,y30!3 30");
    play(&g, "i9-i10");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 2);
    assert_seat(SEAT_BLUE, ST_PLAYING, 1);
    assert_seat(SEAT_YELLOW, ST_ELIMINATED, 3);
    assert_position(&g.pos, "u " U_SE9 " g10", "- w30!2,u29,y30!3 30");
}

static void test_arrivals_on_one_move_placed_in_turn_order_from_mover(void **state)
{
    (void)state;
    /* white's 10 marbles already fill N (its arrival is due at the next check);
     * black's i5-j4 completes S. From the mover: black, yellow, white, red. */
    game_setup(&g, "classic-4",
               "w " N10 " r j13 k12 k13 l11 l12 i9 h9 g9 h10 g10"
               " b m1 l2 m2 k3 l3 m3 k4 l4 m4 i5 y e5 f5 g5 h5 e6 k8 l8 k7 f10 e10",
               "b w20,r20,b19,y19 20");
    play(&g, "i5-j4");
    assert_false(pos_over(&g.pos));
    assert_seat(SEAT_BLACK, ST_ARRIVED, 1);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 2);
    assert_seat(SEAT_RED, ST_PLAYING, 0);
    assert_seat(SEAT_YELLOW, ST_PLAYING, 0);
    assert_int_equal(g.pos.stm, SEAT_YELLOW);
    assert_position(&g.pos,
                    "w " N10 " r j13 k12 k13 l11 l12 i9 h9 g9 h10 g10"
                    " b m1 l2 m2 k3 l3 m3 j4 k4 l4 m4 y e5 f5 g5 h5 e6 k8 l8 k7 f10 e10",
                    "y w20=2,r20,b20=1,y19 20");
}

static void test_order_of_checks_arrival_completing_round_150_reports_arrived(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w e14 f14 g14 h14 i9 g9 g10 h8 f10 j11 b m1 l2 m2 k3 l3 m3 k4 l4 m4 i5",
               "b w150,b149 150");
    play(&g, "i5-j4");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_BLACK, ST_ARRIVED, 1);
    assert_seat(SEAT_WHITE, ST_PLAYING, 2);
    assert_position(&g.pos, "w e14 f14 g14 h14 i9 g9 g10 h8 f10 j11 b m1 l2 m2 k3 l3 m3 j4 k4 l4 m4",
                    "- w150,b150=1 150");
}

static void test_order_of_checks_reply_completing_round_150_reports_arrived(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", REPLY_POS, "w w149,b149 150");
    play(&g, "i13-h14");
    assert_position(&g.pos, W_IN "i5", "b w150=1,b149 150");
    play(&g, "i5-i6");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 2);
    assert_position(&g.pos, W_IN "i6", "- w150=1,b150 150");
}

static void test_order_of_checks_three_players_last_arrival_on_round_150(void **state)
{
    (void)state;
    /* yellow's move ends round 150 and leaves only blue unplaced */
    game_setup(&g, "classic-3", "w " N10 " u " U_SE9 " g10 y " Y_SW9 " f8", "y w140=1,u150,y149 150");
    play(&g, "f8-e8");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_YELLOW, ST_ARRIVED, 2);
    assert_seat(SEAT_BLUE, ST_PLAYING, 3);
    assert_position(&g.pos, "w " N10 " u " U_SE9 " g10 y " Y_SW9 " e8", "- w140=1,u150,y150=2 150");
}

static void test_order_of_checks_elimination_completing_round_150_reports_deadline(void **state)
{
    (void)state;
    /* black's i13-h14 returns a marble to its home N on round 150's last move */
    game_setup(&g, "classic-2", "w e14 f14 g14 e15 i9 g9 g10 h8 f10 j11 b m1 l2 m2 j6 k6 l6 j7 k7 l7 i13",
               "b w150,b149 150");
    play(&g, "i13-h14");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_BLACK, ST_ELIMINATED, 2);
    assert_seat(SEAT_WHITE, ST_PLAYING, 1);
    assert_position(&g.pos, "w e14 f14 g14 e15 i9 g9 g10 h8 f10 j11 b m1 l2 m2 j6 k6 l6 j7 k7 l7 h14",
                    "- w150,b150!2 150");
}

static void test_order_of_checks_deadline_before_arrival(void **state)
{
    (void)state;
    /* white's 30th move fills N (full-target arrival) while m1 can still step to
     * l2: the deadline check comes first and eliminates white */
    game_setup(&g, "classic-2", "w e14 f14 g14 e15 f15 g15 e16 f16 i13 m1 b e17 m2 k3 l3 m3 j4 k4 l4 m4 k7",
               "w w29,b29 30");
    play(&g, "i13-h14");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 2);
    assert_seat(SEAT_BLACK, ST_PLAYING, 1);
    assert_position(&g.pos, "w " W_N9 " m1 b e17 m2 k3 l3 m3 j4 k4 l4 m4 k7", "- w30!2,b29 30");
}

static void test_team_placed_when_last_member_arrives(void **state)
{
    (void)state;
    /* pairs-4: white+black against red+yellow */
#define TEAM_R " r j13 k12 k13 l11 l12 h9 h10 f10 g10 "
#define TEAM_Y " y e5 f5 g5 h5 e6 k8 l8 k7 l7 j8"
    game_setup(&g, "pairs-4", "w e14 f14 g14 e15 f15 g15 e16 f16 e17 i13" TEAM_R "g9 b m1 l2 m2 k3 l3 m3 k4 l4 m4 i5" TEAM_Y,
               "w w20,r20,b20,y20 21");
    play(&g, "i13-h14");
    assert_seat(SEAT_WHITE, ST_ARRIVED, 0); /* arrived, team not placed yet */
    assert_position(&g.pos, "w " N10 TEAM_R "g9 b m1 l2 m2 k3 l3 m3 k4 l4 m4 i5" TEAM_Y, "r w21=,r20,b20,y20 21");
    play(&g, "g9-g8");
    play(&g, "i5-j4");
    assert_over(END_ARRIVED);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_ARRIVED, 1);
    assert_seat(SEAT_RED, ST_PLAYING, 2);
    assert_seat(SEAT_YELLOW, ST_PLAYING, 2);
    assert_position(&g.pos, "w " N10 TEAM_R "g8 b m1 l2 m2 k3 l3 m3 j4 k4 l4 m4" TEAM_Y, "- w21=1,r21,b21=1,y20 21");
#undef TEAM_R
#undef TEAM_Y
}

static void test_no_seat_can_move_ends_game_nomoves(void **state)
{
    (void)state;
    /* after i13-h14 N is full (black's e17 caged), S is full (white's m1 caged) */
    game_setup(&g, "classic-2", "w e14 f14 g14 e15 f15 g15 e16 f16 i13 m1 b e17 " B_S9, "w w10,b10 11");
    play(&g, "i13-h14");
    assert_over(END_NOMOVES);
    /* 9 marbles in target each, 13 steps to go each: a shared first place */
    assert_int_equal(pos_target_distance(&g.pos, SEAT_WHITE), 13);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_BLACK), 13);
    assert_seat(SEAT_WHITE, ST_PLAYING, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 1);
    /* the round of the last move (PROTOCOL.md), not the next */
    assert_position(&g.pos, "w " W_N9 " m1 b e17 " B_S9, "- w11,b10 11");
}

/* Capture mode: the game ends when the last seat of a round captures the last
 * piece that could be jumped; the FEN keeps that round (it was written with
 * the next). */
static void test_capture_game_over_keeps_round_of_last_move(void **state)
{
    (void)state;
    Game c;
    char err[256];
    assert_int_equal(game_new(&c, "capture-2"), 0);
    if (game_set_fen(&c, "1/2/x1x/4/13/6x5/2x5x2/4xx4/9/10/7x2x/12/6x1x4/x3/1x1/2/1 b w16c23,b15c24 16", err,
                     sizeof err))
        fail_msg("%s", err);
    play(&c, "h10-j10");
    assert_true(pos_over(&c.pos));
    assert_string_equal(fen_now(&c.pos), "1/2/x1x/4/13/6x5/2x5x2/6x3/9/10/7x2x/12/6x1x4/x3/1x1/2/1 - w16c23,b16c25 16");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_goes_to_each_empty_neighbour),
        cmocka_unit_test(test_step_never_onto_marble_and_short_jump_over_either_colour),
        cmocka_unit_test(test_short_jump_only_over_adjacent_marble),
        cmocka_unit_test(test_long_jump_over_marble_at_midpoint),
        cmocka_unit_test(test_symmetric_jump_over_mirrored_pattern),
        cmocka_unit_test(test_jump_chain_of_short_jumps),
        cmocka_unit_test(test_chain_never_lands_twice_and_start_counts_as_visited),
        cmocka_unit_test(test_chain_start_is_empty_during_chain),
        cmocka_unit_test(test_step_never_ends_in_foreign_point),
        cmocka_unit_test(test_chain_passes_through_foreign_point_but_never_ends_there),
        cmocka_unit_test(test_target_lock_chain_entering_target_stays_inside),
        cmocka_unit_test(test_target_lock_marble_in_target_moves_only_inside),
        cmocka_unit_test(test_target_lock_holds_for_long_jumps),
        cmocka_unit_test(test_deadline_eliminates_untrapped_marble_three_players),
        cmocka_unit_test(test_deadline_not_checked_before_30th_move),
        cmocka_unit_test(test_deadline_two_players_loses_and_marbles_stay),
        cmocka_unit_test(test_trapped_marble_in_home_does_not_eliminate),
        cmocka_unit_test(test_marble_movable_inside_home_is_not_trapped),
        cmocka_unit_test(test_return_home_after_deadline_is_legal_but_eliminates),
        cmocka_unit_test(test_return_home_eliminates_even_when_marble_is_caged),
        cmocka_unit_test(test_return_home_before_deadline_is_allowed),
        cmocka_unit_test(test_fifteen_marble_deadline_is_40_moves),
        cmocka_unit_test(test_arrival_with_all_marbles_in_target),
        cmocka_unit_test(test_full_target_arrival_only_from_deadline),
        cmocka_unit_test(test_full_target_arrival_long_after_deadline),
        cmocka_unit_test(test_full_target_arrival_on_another_seats_move),
        cmocka_unit_test(test_reply_both_arrive_is_draw),
        cmocka_unit_test(test_reply_without_arrival_white_wins),
        cmocka_unit_test(test_black_arriving_first_wins_at_once),
        cmocka_unit_test(test_reply_with_no_legal_move_is_skipped_white_wins),
        cmocka_unit_test(test_skipped_seat_keeps_move_count_three_players),
        cmocka_unit_test(test_skipped_seat_two_players_turn_returns_to_mover),
        cmocka_unit_test(test_threefold_repetition_ends_game),
        cmocka_unit_test(test_round_limit_ends_game_after_round_150),
        cmocka_unit_test(test_ranking_equal_targets_closer_seat_ranks_higher),
        cmocka_unit_test(test_ranking_full_tie_is_shared_place_two_players),
        cmocka_unit_test(test_ranking_competition_numbering_four_players),
        cmocka_unit_test(test_game_ends_when_one_seat_unplaced),
        cmocka_unit_test(test_elimination_leaving_one_seat_unplaced_ends_game),
        cmocka_unit_test(test_deadline_takes_worst_free_place),
        cmocka_unit_test(test_arrivals_on_one_move_placed_in_turn_order_from_mover),
        cmocka_unit_test(test_order_of_checks_arrival_completing_round_150_reports_arrived),
        cmocka_unit_test(test_order_of_checks_reply_completing_round_150_reports_arrived),
        cmocka_unit_test(test_order_of_checks_three_players_last_arrival_on_round_150),
        cmocka_unit_test(test_order_of_checks_elimination_completing_round_150_reports_deadline),
        cmocka_unit_test(test_order_of_checks_deadline_before_arrival),
        cmocka_unit_test(test_team_placed_when_last_member_arrives),
        cmocka_unit_test(test_no_seat_can_move_ends_game_nomoves),
        cmocka_unit_test(test_capture_game_over_keeps_round_of_last_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
