/*
 * test_variants.c - the variants of RULES.md section 8 and capture mode (section
 * 9), one position per rule, built from lists of marbles (support/stern_test.h):
 * long and symmetric jumps, 15 marbles, teams, the Masters swap, capture mode and
 * Big Jump. Every expected list, place and FEN below was worked out from the rules
 * by hand (the comments give the reasoning), not copied from the engine.
 *
 * Hole reminders (RULES.md section 1): N point e14-h14 e15-g15 e16 f16 e17,
 * S point j4-m4 k3-m3 l2 m2 m1, SE point n5-q5 n6-p6 n7 o7 n8,
 * SW point e5-h5 e6-g6 e7 f7 e8, NW point a13 b12 b13 c11-c13 d10-d13,
 * NE point j13 k12 k13 l11-l13 m10-m13. Edge rows: S i5-m5, SW i5 h6 g7 f8 e9,
 * NW e9-e13, N e13-i13, NE i13 j12 k11 l10 m9, SE m5-m9. Directions (in RULES.md
 * order): file+1, file-1, row+1, row-1, (file+1,row-1), (file-1,row+1). Row 9 runs
 * e9-m9, file i runs i5-i13, the long diagonal e13-m5 passes through i9.
 */
#include "support/stern_test.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static Game g;

/* white's 9 marbles in N with e17 free */
#define W_N9 "e14 f14 g14 h14 e15 f15 g15 e16 f16"
/* all 10 holes of a point */
#define N10 "e14 f14 g14 h14 e15 f15 g15 e16 f16 e17"
#define S10 "m1 l2 m2 k3 l3 m3 j4 k4 l4 m4"
#define SE10 "n5 o5 p5 q5 n6 o6 p6 n7 o7 n8"
#define SW10 "e5 f5 g5 h5 e6 f6 g6 e7 f7 e8"
#define NE9 "j13 k12 k13 l11 l12 l13 m11 m12 m13" /* NE without m10 */
#define NW9 "a13 b12 b13 c11 c12 c13 d11 d12 d13" /* NW without d10 */
#define SE9 "n5 o5 p5 q5 n6 o6 p6 n7 o7"          /* SE without n8 */

enum { DIR_EAST = 0 }; /* (q+1, r): file+1 on the same row */

static void assert_over(EndReason reason)
{
    assert_int_equal(g.pos.stm, -1);
    assert_int_equal(g.pos.reason, reason);
}

static void assert_seat(int s, SeatStatus status, int place)
{
    assert_int_equal(g.pos.status[s], status);
    assert_int_equal(g.pos.place[s], place);
}

/* The places of the seats in play in turn order, e.g. "w:1 b:2" (static buffer). */
static const char *places(void)
{
    static char out[64];
    char *o = out;
    *o = 0;
    for (int i = 0; i < g.v->nseats; i++) {
        const int s = g.v->seats[i];
        o += sprintf(o, "%s%c:%d", i ? " " : "", variant_seat_letter(s), g.pos.place[s]);
    }
    return out;
}

/* The landings of gen_jump_landings(rule, holes(occ), from, direction) as names
 * joined by spaces, each followed by ":" and the marble jumped (static buffer). */
static const char *landings(JumpRule rule, const char *occ, const char *from, int dir)
{
    static char out[256];
    uint8_t land[MAX_LINE], over[MAX_LINE];
    const int n = gen_jump_landings(rule, holes(occ), hole(from), dir, land, over);
    char *o = out;
    *o = 0;
    for (int i = 0; i < n; i++) {
        char a[8], b[8];
        o += sprintf(o, "%s%s:%s", i ? " " : "", board_hole_name(land[i], a), board_hole_name(over[i], b));
    }
    return out;
}

/* ---- long jumps (RULES.md section 3, jump rule "long") ---- */

static void test_long_jump_rule_on_one_line(void **state)
{
    (void)state;
    /* e9 looking east along row 9 (f9 ... m9), e9 itself lifted */
    assert_string_equal(landings(JUMP_LONG, "f9", "e9", DIR_EAST), "g9:f9");     /* no gap: the short jump */
    assert_string_equal(landings(JUMP_LONG, "h9", "e9", DIR_EAST), "k9:h9");     /* 2 empty holes each side */
    assert_string_equal(landings(JUMP_LONG, "i9", "e9", DIR_EAST), "m9:i9");     /* 3 each side */
    assert_string_equal(landings(JUMP_LONG, "h9 l9", "e9", DIR_EAST), "k9:h9");  /* beyond the landing: no matter */
    assert_string_equal(landings(JUMP_LONG, "j9", "e9", DIR_EAST), "");          /* landing would be off the board */
    assert_string_equal(landings(JUMP_LONG, "g9 h9", "e9", DIR_EAST), "");       /* two marbles between */
    assert_string_equal(landings(JUMP_LONG, "h9 j9", "e9", DIR_EAST), "");       /* a second marble in the gap */
    assert_string_equal(landings(JUMP_LONG, "h9 k9", "e9", DIR_EAST), "");       /* landing full */
    assert_string_equal(landings(JUMP_LONG, "", "e9", DIR_EAST), "");
}

static void test_long_jump_over_midpoint_marble_and_near_misses(void **state)
{
    (void)state;
    /* e9: east, h9 is 3 holes away with f9 g9 i9 j9 empty -> k9. Up the e file,
     * e11 is 2 away (e10 e12 empty) -> e13. Along (file+1,row-1) f8 is empty and
     * g7, h6 both full: no jump (two marbles between). Steps: e10 f9 f8 (d10 and
     * e8 are foreign points). No chain goes on: from k9 the only line with a
     * marble leads back to e9 (visited), from e13 likewise. */
    game_setup(&g, "longjumps-2", "w e9 " W_N9 " b h9 e11 g7 h6 m1 l2 m2 k3 l3 m3", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "e9"), "e9-e13 e9-e10 e9-f9 e9-k9 e9-f8");
    move_refused(&g.pos, "e9-e12", "illegal"); /* e11 is not halfway to e12 */
    move_refused(&g.pos, "e9-j9", "illegal");  /* h9 is not halfway to j9 */
    move_refused(&g.pos, "e9-l9", "illegal");
    move_refused(&g.pos, "e9-i5", "illegal");  /* g7 halfway, but h6 in the gap */
    play(&g, "e9-k9");
    assert_position(&g.pos, "w k9 " W_N9 " b h9 e11 g7 h6 m1 l2 m2 k3 l3 m3", "b w6,b5 6");
}

static void test_long_jump_chain_with_start_hole_empty(void **state)
{
    (void)state;
    /* i9 over i11 to i13 (4 holes), i13 over g13 to e13 (4 holes), then e13 along
     * the long diagonal over h10 to k7 (6 holes): the gaps f12 g11 and i9 j8 hold
     * the chain's own start i9, empty since the marble left it. i9 also jumps
     * short over h10 to g11, and g11 long over i11 to k11. From i13 the line back
     * over i11 lands on the start: never (the start counts as visited). */
    game_setup(&g, "longjumps-2", "w i9 " W_N9 " b i11 g13 h10 m1 l2 m2 k3 l3 m3 j4", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "i9"),
                        "i9-i13-e13 i9-i13 i9-g11 i9-g11-k11 i9-i10 i9-h9 i9-j9 i9-i8 i9-j8 i9-i13-e13-k7");
    move_refused(&g.pos, "i9-i13-i9", "lands twice");
    const Move full = move_ok(&g.pos, "i9-i13-e13-k7");
    const Move shorthand = move_ok(&g.pos, "i9-k7");
    assert_int_equal(full.from, hole("i9"));
    assert_int_equal(full.to, hole("k7"));
    assert_int_equal(shorthand.to, full.to);
    play(&g, "i9-i13-e13-k7");
    assert_position(&g.pos, "w k7 " W_N9 " b i11 g13 h10 m1 l2 m2 k3 l3 m3 j4", "b w6,b5 6");
}

/* ---- symmetric jumps (RULES.md section 3, jump rule "symmetric") ---- */

static void test_symmetric_jump_rule_on_one_line(void **state)
{
    (void)state;
    /* e9 looking east; each landing lists the nearest marble jumped */
    assert_string_equal(landings(JUMP_SYMMETRIC, "f9", "e9", DIR_EAST), "g9:f9");                /* x */
    assert_string_equal(landings(JUMP_SYMMETRIC, "f9 g9", "e9", DIR_EAST), "h9:f9");             /* x x */
    assert_string_equal(landings(JUMP_SYMMETRIC, "f9 h9", "e9", DIR_EAST), "g9:f9 i9:f9");       /* x, x . x */
    assert_string_equal(landings(JUMP_SYMMETRIC, "f9 g9 i9 j9", "e9", DIR_EAST), "h9:f9 k9:f9"); /* x x . x x */
    assert_string_equal(landings(JUMP_SYMMETRIC, "g9", "e9", DIR_EAST), "i9:g9");                /* . x . */
    /* x . x x: only the short jump to g9 (j9 would be behind "x . x x") */
    assert_string_equal(landings(JUMP_SYMMETRIC, "f9 h9 i9", "e9", DIR_EAST), "g9:f9");
    /* x x . before i9: only h9 */
    assert_string_equal(landings(JUMP_SYMMETRIC, "f9 g9 l9", "e9", DIR_EAST), "h9:f9");
    /* x x x: i9; the landing must be empty */
    assert_string_equal(landings(JUMP_SYMMETRIC, "f9 g9 h9", "e9", DIR_EAST), "i9:f9");
    assert_string_equal(landings(JUMP_SYMMETRIC, "f9 g9 h9 i9", "e9", DIR_EAST), "j9:f9");
    assert_string_equal(landings(JUMP_SYMMETRIC, "", "e9", DIR_EAST), "");
}

static void test_symmetric_jump_patterns_x_x_and_x_gap_x_and_x_x_gap_x_x(void **state)
{
    (void)state;
    /* e10 east: f10 g10 full, h10 empty, i10 j10 full: h10 ("x x") and k10
     * ("x x . x x"). Up the e file: e11 full, e12 empty, e13 full: e12 ("x") and
     * e14 ("x . x", into white's target, where nothing moves on). Steps e9 f9
     * (d10 and d11 are foreign). From e12 over g10 to i8 (". x ."), from i8 over
     * i10 to i12 (". x ."). */
    game_setup(&g, "symmetric-2", "w e10 f14 g14 h14 e15 f15 g15 e16 f16 e17 b f10 g10 i10 j10 e11 e13 m1 l2 m2 k3",
               "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "e10"),
                        "e10-e14 e10-e12 e10-e12-i8-i12 e10-h10 e10-k10 e10-e9 e10-f9 e10-e12-i8");
    play(&g, "e10-k10");
    assert_position(&g.pos, "w k10 f14 g14 h14 e15 f15 g15 e16 f16 e17 b f10 g10 i10 j10 e11 e13 m1 l2 m2 k3",
                    "b w6,b5 6");
    /* the same position under the long rule: neither "x x" nor "x x . x x" */
    game_setup(&g, "longjumps-2", "w e10 f14 g14 h14 e15 f15 g15 e16 f16 e17 b f10 g10 i10 j10 e11 e13 m1 l2 m2 k3",
               "w w5,b5 6");
    move_refused(&g.pos, "e10-h10", "illegal");
    move_refused(&g.pos, "e10-k10", "illegal");
}

static void test_symmetric_jump_refuses_unmirrored_patterns(void **state)
{
    (void)state;
    /* e10 east: f10 g10 full, h10 empty: h10 ("x x") but not i10 ("x x ."). Along
     * (file+1,row-1): f9 full, g8 empty, h7 i6 full: g8 ("x"); j5 lies behind
     * "x . x x", not a jump: j5 is reached only by the chain e10-g8-j5 (g8 over
     * h7 i6, "x x"). From g8 also over g10 to g12 (". x ."). */
    game_setup(&g, "symmetric-2", "w e10 " W_N9 " b f10 g10 f9 h7 i6 e17 m1 l2 m2 k3", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "e10"), "e10-g8-g12 e10-e11 e10-h10 e10-e9 e10-g8 e10-g8-j5");
    move_refused(&g.pos, "e10-i10", "illegal");
    move_refused(&g.pos, "e10-j10", "illegal");
    move_refused(&g.pos, "e10-h10-j5", "not a jump");
    /* a full path whose hop is "x . x x" is refused even though j5 is reachable */
    move_refused(&g.pos, "e10-j5-g8", "not a jump");
    play(&g, "e10-j5"); /* the shorthand names the chain */
    assert_position(&g.pos, "w j5 " W_N9 " b f10 g10 f9 h7 i6 e17 m1 l2 m2 k3", "b w6,b5 6");
}

static void test_symmetric_jump_chain(void **state)
{
    (void)state;
    /* e9 over f9 g9 to h9 ("x x"), then h9 over h10 . h12 to h13 ("x . x"); from
     * h9 also the short jump over h10 to h11. */
    game_setup(&g, "symmetric-2", "w e9 " W_N9 " b f9 g9 h10 h12 e17 m1 l2 m2 k3 l3", "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "e9"), "e9-h9-h13 e9-h9-h11 e9-e10 e9-h9 e9-f8");
    /* "x x ." and "x x . ." are no patterns: i9 and j9 are out of reach */
    move_refused(&g.pos, "e9-i9", "illegal");
    move_refused(&g.pos, "e9-j9", "illegal");
    play(&g, "e9-h9-h13");
    assert_position(&g.pos, "w h13 " W_N9 " b f9 g9 h10 h12 e17 m1 l2 m2 k3 l3", "b w6,b5 6");
}

/* ---- 15 marbles (RULES.md section 8) ---- */

static void test_fifteen_start_fills_point_and_edge_row(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "fifteen-2"), 0);
    assert_string_equal(fen_now(&g.pos), "b/bb/bbb/bbbb/4bbbbb4/12/11/10/9/10/11/12/4wwwww4/wwww/www/ww/w w w0,b0 1");
    assert_true(g.pos.seat_bb[SEAT_WHITE] == holes(S10 " i5 j5 k5 l5 m5"));
    assert_true(g.pos.seat_bb[SEAT_BLACK] == holes(N10 " e13 f13 g13 h13 i13"));
    /* i5-m5 step into row 6, j4-m4 jump over row 5 into row 6 */
    assert_string_equal(legal_moves(&g.pos, NULL), "i5-h6 i5-i6 j5-i6 j5-j6 k5-j6 k5-k6 l5-k6 l5-l6 m5-l6 m5-m6 "
                                                   "j4-h6 j4-j6 k4-i6 k4-k6 l4-j6 l4-l6 m4-k6 m4-m6");
    assert_int_equal(game_new(&g, "fifteen-3"), 0);
    assert_string_equal(fen_now(&g.pos),
                        "1/2/3/4/uuuuu3yyyyy/uuuu4yyyy/uuu5yyy/uu6yy/u7y/10/11/12/4wwwww4/wwww/www/ww/w w w0,u0,y0 1");
}

/* fifteen-3 fillers: blue 13 in its target SE + m6-m8, yellow 13 in SW + h6 g7 f8 */
#define F3_U " u " SE10 " m6 m7 m8 "
#define F3_Y " y " SW10 " h6 g7 f8 "

static void test_fifteen_deadline_eliminates_at_40th_move_not_39th(void **state)
{
    (void)state;
    /* k5 is on white's edge row (its 15-hole home) and free to move */
#define DL_W "w " N10 " f13 g13 h13 k5 "
    game_setup(&g, "fifteen-3", DL_W "i9" F3_U "g10 f11" F3_Y "k8 l8", "w w38,u38,y38 39");
    play(&g, "i9-i10");
    assert_seat(SEAT_WHITE, ST_PLAYING, 0);
    assert_position(&g.pos, DL_W "i10" F3_U "g10 f11" F3_Y "k8 l8", "u w39,u38,y38 39");
    game_setup(&g, "fifteen-3", DL_W "i9" F3_U "g10 f11" F3_Y "k8 l8", "w w39,u39,y39 40");
    play(&g, "i9-i10");
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 3);
    assert_true(g.pos.seat_bb[SEAT_WHITE] == 0);
    assert_int_equal(g.pos.stm, SEAT_BLUE);
    assert_position(&g.pos, F3_U "g10 f11" F3_Y "k8 l8", "u w40!3,u39,y39 40");
#undef DL_W
}

static void test_fifteen_corner_hole_in_one_home_and_another_target(void **state)
{
    (void)state;
    /* fifteen-3: e13 is in blue's home (NW + e9-e13) and in white's target
     * (N + e13-i13); i13 is in yellow's home and in white's target. White's e13
     * stands in its target: it may not leave (e12 f12 are empty but outside, d13
     * is foreign), so it has no move. White's i12-i13 then completes its 15 and
     * arrives, well after its deadline, without any return-home penalty. */
    game_setup(&g, "fifteen-3", "w " N10 " e13 f13 g13 h13 i12" F3_U "g10 f11" F3_Y "k8 l8", "w w45,u45,y45 46");
    assert_string_equal(legal_moves(&g.pos, "e13"), "");
    assert_string_equal(legal_moves(&g.pos, "i12"), "i12-i13 i12-h12 i12-j12 i12-i11 i12-j11");
    play(&g, "i12-i13");
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_position(&g.pos, "w " N10 " e13 f13 g13 h13 i13" F3_U "g10 f11" F3_Y "k8 l8", "u w46=1,u45,y45 46");
    /* for blue the same hole e13 is home: going back there after its deadline
     * eliminates it (worst place, marbles removed) */
    game_setup(&g, "fifteen-3", "w " N10 " f13 g13 h13 i13 i9" F3_U "g10 f12" F3_Y "k8 l8", "u w40,u40,y40 41");
    assert_string_equal(legal_moves(&g.pos, "f12"), "f12-e13 f12-e12 f12-g12 f12-f11 f12-g11");
    play(&g, "f12-e13");
    assert_seat(SEAT_BLUE, ST_ELIMINATED, 3);
    assert_int_equal(g.pos.stm, SEAT_YELLOW);
    assert_position(&g.pos, "w " N10 " f13 g13 h13 i13 i9" F3_Y "k8 l8", "y w40,u41!3,y40 41");
}

static void test_fifteen_full_target_arrival_from_40th_move(void **state)
{
    (void)state;
    /* fifteen-2: black's e17 is stuck in white's 15-hole target; i12-i13 fills the
     * other 14 holes. On white's 39th move that is no arrival, on its 40th it is. */
#define FT_W "w e14 f14 g14 h14 e15 f15 g15 e16 f16 e13 f13 g13 h13 k9 "
#define FT_B " b e17 " S10 " i5 j5 k5 l5"
    game_setup(&g, "fifteen-2", FT_W "i12" FT_B, "w w38,b38 39");
    play(&g, "i12-i13");
    assert_seat(SEAT_WHITE, ST_PLAYING, 0);
    assert_position(&g.pos, FT_W "i13" FT_B, "b w39,b38 39");
    game_setup(&g, "fifteen-2", FT_W "i12" FT_B, "w w39,b39 40");
    play(&g, "i12-i13");
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_position(&g.pos, FT_W "i13" FT_B, "b w40=1,b39 40"); /* black's reply */
#undef FT_W
#undef FT_B
}

static void test_fifteen_foreign_points_are_the_ten_hole_points(void **state)
{
    (void)state;
    /* white e10 in fifteen-3: e9, e10, e11, e12 are on NW's edge row (blue's home,
     * no foreign point): a move may end there. d10 and d11 are in the NW point:
     * foreign for white. Yellow's e11 is jumped to e12. */
    game_setup(&g, "fifteen-3",
               "w e10 " N10 " f13 g13 h13 k6 u a13 b12 b13 c11 c12 c13 d12 d13 m6 m7 m8 n5 o5 p5 q5 y e11 " SW10
               " h6 g7 f8 k8",
               "w w20,u20,y20 21");
    assert_string_equal(legal_moves(&g.pos, "e10"), "e10-e12 e10-f10 e10-e9 e10-f9");
    move_refused(&g.pos, "e10-d10", "illegal");
    move_refused(&g.pos, "e10-d11", "illegal");
    play(&g, "e10-e9");
    assert_int_equal(g.pos.board[hole("e9")], SEAT_WHITE + 1);
}

/* ---- teams (RULES.md section 8) ---- */

/* pairs-6: white+black, red+yellow, blue+green. White i13 completes N, red m9
 * completes NE (m10), black i5 completes S (j4), yellow e9 completes SW (e8). */
#define T6_W "w e14 f14 g14 e15 f15 g15 e16 f16 e17 "
#define T6_R " r " NE9 " "
#define T6_U " u " SE9 " "
#define T6_B " b m1 l2 m2 k3 l3 m3 k4 l4 m4 "
#define T6_Y " y e5 f5 g5 h5 e6 f6 g6 e7 f7 "
#define T6_G " g " NW9 " g9"

static void test_pairs6_team_placed_when_both_partners_arrive(void **state)
{
    (void)state;
    game_setup(&g, "pairs-6", T6_W "i13" T6_R "m9" T6_U "k8" T6_B "i5" T6_Y "e9" T6_G, "w w20,r20,u20,b20,y20,g20 21");
    play(&g, "i13-h14");
    /* white has arrived, black has not: no place yet, written "=" */
    assert_seat(SEAT_WHITE, ST_ARRIVED, 0);
    assert_position(&g.pos, T6_W "h14" T6_R "m9" T6_U "k8" T6_B "i5" T6_Y "e9" T6_G, "r w21=,r20,u20,b20,y20,g20 21");
    play(&g, "m9-m10");
    assert_seat(SEAT_RED, ST_ARRIVED, 0);
    play(&g, "k8-k7");
    assert_position(&g.pos, T6_W "h14" T6_R "m10" T6_U "k7" T6_B "i5" T6_Y "e9" T6_G,
                    "b w21=,r21=,u21,b20,y20,g20 21");
    play(&g, "i5-j4");
    /* black completes the team: both partners take place 1; the game goes on */
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_ARRIVED, 1);
    assert_int_equal(g.pos.stm, SEAT_YELLOW);
    assert_position(&g.pos, T6_W "h14" T6_R "m10" T6_U "k7" T6_B "j4" T6_Y "e9" T6_G,
                    "y w21=1,r21=,u21,b21=1,y20,g20 21");
    play(&g, "e9-e8");
    /* red+yellow take place 2: only blue+green is left unplaced, it takes 3 */
    assert_over(END_ARRIVED);
    assert_seat(SEAT_RED, ST_ARRIVED, 2);
    assert_seat(SEAT_YELLOW, ST_ARRIVED, 2);
    assert_seat(SEAT_BLUE, ST_PLAYING, 3);
    assert_seat(SEAT_GREEN, ST_PLAYING, 3);
    assert_position(&g.pos, T6_W "h14" T6_R "m10" T6_U "k7" T6_B "j4" T6_Y "e8" T6_G,
                    "- w21=1,r21=2,u21,b21=1,y21=2,g20 21");
}

static void test_pairs_fen_member_arrived_before_team_reads_back(void **state)
{
    (void)state;
    game_setup(&g, "pairs-6", T6_W "h14" T6_R "m9" T6_U "k8" T6_B "i5" T6_Y "e9" T6_G, "r w21=,r20,u20,b20,y20,g20 21");
    assert_seat(SEAT_WHITE, ST_ARRIVED, 0);
    assert_seat(SEAT_BLACK, ST_PLAYING, 0);
    assert_position(&g.pos, T6_W "h14" T6_R "m9" T6_U "k8" T6_B "i5" T6_Y "e9" T6_G, "r w21=,r20,u20,b20,y20,g20 21");
    /* "=" without a number is for team games only */
    char fen[FEN_MAX], err[256];
    assert_int_equal(game_new(&g, "classic-2"), 0);
    assert_int_equal(game_set_fen(&g, fen_of(fen, "w " N10 " b " S10, "b w21=,b20 21"), err, sizeof err), -1);
    assert_int_equal(game_set_fen(&g, fen_of(fen, "w " N10 " b " S10, "b w21=1,b20 21"), err, sizeof err), 0);
}

/* pairs-6 with red's f5 still in its home SW, free to jump over f6 to f7 */
#define T6E_Y " y e5 g5 h5 e6 f6 g6 e7 e8 j7 k7 "

static void test_pairs6_member_eliminated_takes_its_partner_out(void **state)
{
    (void)state;
    /* red's 30th move leaves f5 movable in its home: red is eliminated, so is
     * yellow; both take the worst team place (3) and all 20 marbles leave */
    game_setup(&g, "pairs-6", T6_W "i13 r " NE9 " f5" T6_U "k8" T6_B "i5" T6E_Y T6_G,
               "r w29,r29,u29,b29,y29,g29 30");
    assert_string_equal(legal_moves(&g.pos, "f5"), "f5-f7");
    play(&g, "l11-m10");
    assert_seat(SEAT_RED, ST_ELIMINATED, 3);
    assert_seat(SEAT_YELLOW, ST_ELIMINATED, 3);
    assert_true(g.pos.seat_bb[SEAT_RED] == 0);
    assert_true(g.pos.seat_bb[SEAT_YELLOW] == 0);
    assert_false(pos_over(&g.pos));
    assert_int_equal(g.pos.stm, SEAT_BLUE);
    assert_position(&g.pos, T6_W "i13" T6_U "k8" T6_B "i5" T6_G, "u w29,r30!3,u29,b29,y29!3,g29 30");
}

static void test_pairs6_elimination_takes_worst_free_team_place_and_ends(void **state)
{
    (void)state;
    /* white+black already placed first; red+yellow eliminated take the worst free
     * place, 3; blue+green, the only team left, take 2 */
    game_setup(&g, "pairs-6", "w " N10 " r " NE9 " f5" T6_U "k8 b " S10 T6E_Y T6_G,
               "r w25=1,r29,u29,b28=1,y29,g29 30");
    play(&g, "l11-m10");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_RED, ST_ELIMINATED, 3);
    assert_seat(SEAT_YELLOW, ST_ELIMINATED, 3);
    assert_seat(SEAT_BLUE, ST_PLAYING, 2);
    assert_seat(SEAT_GREEN, ST_PLAYING, 2);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_position(&g.pos, "w " N10 T6_U "k8 b " S10 T6_G, "- w25=1,r30!3,u29,b28=1,y29!3,g29 30");
}

static void test_pairs4_elimination_ends_game_other_team_first(void **state)
{
    (void)state;
    /* white's 30th move leaves m1 movable in its home (l2 is free): white and
     * black are out (place 2), red+yellow is the only team left: place 1 */
#define P4_R " r " NE9 " h9 "
#define P4_Y " y e5 g5 h5 e6 f6 g6 e7 e8 j7 k7"
    game_setup(&g, "pairs-4", "w e14 f14 g14 e15 f15 g15 e16 f16 i13 m1" P4_R "b m2 k3 l3 m3 k4 l4 m4 i5 j10 g11" P4_Y,
               "w w29,r29,b29,y29 30");
    play(&g, "i13-h14");
    assert_over(END_DEADLINE);
    assert_seat(SEAT_WHITE, ST_ELIMINATED, 2);
    assert_seat(SEAT_BLACK, ST_ELIMINATED, 2);
    assert_seat(SEAT_RED, ST_PLAYING, 1);
    assert_seat(SEAT_YELLOW, ST_PLAYING, 1);
    assert_position(&g.pos, P4_R P4_Y, "- w30!2,r29,b29!2,y29 30");
#undef P4_R
#undef P4_Y
}

/* pairs-4 limit positions. Red's marbles are white's turned by 60 degrees (S to
 * SW, N to NE), yellow's are black's turned alike, black's are white's turned by
 * 180 degrees: every seat has 3 marbles in its target and a summed distance of
 * 23. Yellow makes the last move of round 150. */
#define LIM_W "w e17 e16 f16 i10 i11 j10 j11 k10 i12 k11"
#define LIM_R " r m13 l13 m12 j9 k9 k8 l8 l7 l9 m7"
#define LIM_B " b m1 m2 l2 i8 i7 h8 h7 g8 i6 g7"
#define LIM_Y " y e5 f5 e6 h9 g9 g10 f11 e11 "
#define LIM_TAIL "y w150,r150,b150,y149 150"

static void assert_distances(int w, int r, int b, int y)
{
    assert_int_equal(pos_target_distance(&g.pos, SEAT_WHITE), w);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_RED), r);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_BLACK), b);
    assert_int_equal(pos_target_distance(&g.pos, SEAT_YELLOW), y);
}

static void test_pairs4_limit_full_tie_shares_first_place(void **state)
{
    (void)state;
    game_setup(&g, "pairs-4", LIM_W LIM_R LIM_B LIM_Y "f10 f9", LIM_TAIL);
    assert_distances(23, 23, 23, 23);
    play(&g, "f9-e10"); /* sideways: f9 and e10 are both 2 from SW */
    assert_over(END_LIMIT);
    assert_distances(23, 23, 23, 23);
    assert_string_equal(places(), "w:1 r:1 b:1 y:1");
    assert_position(&g.pos, LIM_W LIM_R LIM_B LIM_Y "f10 e10", "- w150,r150,b150,y150 150");
}

static void test_pairs4_limit_equal_targets_summed_distance_decides(void **state)
{
    (void)state;
    /* f9-f8: yellow one step closer (22): red+yellow 45 against 46 */
    game_setup(&g, "pairs-4", LIM_W LIM_R LIM_B LIM_Y "f10 f9", LIM_TAIL);
    play(&g, "f9-f8");
    assert_over(END_LIMIT);
    assert_distances(23, 23, 23, 22);
    assert_string_equal(places(), "w:2 r:1 b:2 y:1");
    /* h9-h10: yellow one step further (24): white+black 46 against 47 */
    game_setup(&g, "pairs-4", LIM_W LIM_R LIM_B LIM_Y "f10 f9", LIM_TAIL);
    play(&g, "h9-h10");
    assert_over(END_LIMIT);
    assert_distances(23, 23, 23, 24);
    assert_string_equal(places(), "w:1 r:2 b:1 y:2");
}

static void test_pairs4_limit_marbles_in_targets_count_together(void **state)
{
    (void)state;
    /* white has 4 marbles in its target (more than any other seat), black 1:
     * 5 for the team against red 3 + yellow 3 = 6: red+yellow first */
    game_setup(&g, "pairs-4",
               "w e17 e16 f16 e15 i10 i11 j10 j11 k10 i12" LIM_R " b m1 i8 i7 h8 h7 g8 i6 g7 j6 k6" LIM_Y "f10 f9",
               LIM_TAIL);
    play(&g, "f9-e10");
    assert_over(END_LIMIT);
    assert_string_equal(places(), "w:2 r:1 b:2 y:1");
}

static void test_pairs4_limit_counts_the_arrived_member_of_an_unplaced_team(void **state)
{
    (void)state;
    /* white has arrived (all 10 in N), black has not: the team is unplaced and
     * ranked with 10 + 3 marbles in targets against red 3 + yellow 3 */
    game_setup(&g, "pairs-4", "w " N10 LIM_R LIM_B LIM_Y "f10 f9", "y w150=,r150,b150,y149 150");
    play(&g, "f9-e10");
    assert_over(END_LIMIT);
    assert_seat(SEAT_WHITE, ST_ARRIVED, 1);
    assert_seat(SEAT_BLACK, ST_PLAYING, 1);
    assert_seat(SEAT_RED, ST_PLAYING, 2);
    assert_seat(SEAT_YELLOW, ST_PLAYING, 2);
}

/* ---- Masters: the swap rule (RULES.md section 8) ---- */

/* masters-2: white i13 next to black's h14 in N (white's target, black's home) */
#define MS_W "w e14 f14 g14 e15 g9 k9 h7 j7 k6 "
#define MS_B " b e17 l2 m2 k3 l3 m3 j4 k4 l4 "

static void test_masters_swap_by_step(void **state)
{
    (void)state;
    /* black has made 30 moves: i13 may step onto h14, the black marble goes to
     * i13. i13 also jumps over h14 to g15 (in N) */
    game_setup(&g, "masters-2", MS_W "i13" MS_B "h14", "w w35,b30 36");
    assert_string_equal(legal_moves(&g.pos, "i13"), "i13-g15 i13-h14 i13-h13 i13-i12 i13-j12");
    const Move m = move_ok(&g.pos, "i13-h14");
    assert_int_equal(m.to, hole("h14"));
    assert_int_equal(m.swap, hole("i13"));
    play(&g, "i13-h14");
    assert_position(&g.pos, MS_W "h14" MS_B "i13", "b w36,b30 36");
}

static void test_masters_no_swap_before_victim_made_30_moves(void **state)
{
    (void)state;
    game_setup(&g, "masters-2", MS_W "i13" MS_B "h14", "w w35,b29 36");
    assert_string_equal(legal_moves(&g.pos, "i13"), "i13-g15 i13-h13 i13-i12 i13-j12");
    move_refused(&g.pos, "i13-h14", "illegal");
    /* nor with a black marble outside white's target: i12 holds one */
    game_setup(&g, "masters-2", MS_W "i13 b e17 l2 m2 k3 l3 m3 j4 k4 l4 i12", "w w35,b35 36");
    move_refused(&g.pos, "i13-i12", "illegal");
}

/* i10 reaches g12 (over h11) and i12 (over i11); from each a last jump lands on
 * black's g14 (over g13, over h13). f15 and an empty e16 would allow a jump on from
 * g14, were a swap not the end of the move. */
#define MJ_W "w i11 h11 l7 m7 l6 m6 m5 l5 k5 "
#define MJ_B " b g13 h13 f15 l2 m2 k3 l3 m3 j4 "

static void test_masters_swap_by_last_jump_of_chain(void **state)
{
    (void)state;
    game_setup(&g, "masters-2", MJ_W "i10" MJ_B "g14", "w w35,b35 36");
    assert_string_equal(legal_moves(&g.pos, "i10"),
                        "i10-g12-g14 i10-i12-g14 i10-g12 i10-i12 i10-h10 i10-j10 i10-i9 i10-j9");
    /* two swaps with the same ends: the shorthand is ambiguous */
    move_refused(&g.pos, "i10-g14", "ambiguous");
    move_refused(&g.pos, "i10-g14", "full path");
    const Move a = move_ok(&g.pos, "i10-g12-g14"), b = move_ok(&g.pos, "i10-i12-g14");
    assert_int_equal(a.swap, hole("g12"));
    assert_int_equal(b.swap, hole("i12"));
    /* the swap ends the move */
    move_refused(&g.pos, "i10-i12-g14-e16", "illegal");
    move_refused(&g.pos, "i10-g12-g14-e16", "illegal");
    /* the displaced marble goes where the last jump started */
    play(&g, "i10-i12-g14");
    assert_position(&g.pos, MJ_W "g14" MJ_B "i12", "b w36,b35 36");
    game_setup(&g, "masters-2", MJ_W "i10" MJ_B "g14", "w w35,b35 36");
    play(&g, "i10-g12-g14");
    assert_position(&g.pos, MJ_W "g14" MJ_B "g12", "b w36,b35 36");
    /* a single jump: the displaced marble goes to the mover's start */
    game_setup(&g, "masters-2", MJ_W "g12" MJ_B "g14", "w w35,b35 36");
    play(&g, "g12-g14");
    assert_position(&g.pos, MJ_W "g14" MJ_B "g12", "b w36,b35 36");
}

static void test_masters_no_swap_from_inside_target(void **state)
{
    (void)state;
    /* f14 stands in N next to black's e15: no swap (it steps, or jumps over f15,
     * inside N). g12 jumps over g13 into N at g14: the jump over f15 onto black's
     * e16 would start inside the target: no swap either. */
    game_setup(&g, "masters-2", "w f14 g12 g13 f15 l7 m7 l6 m6 m5 l5 b e15 e16 h14 l2 m2 k3 l3 m3 j4 k4",
               "w w35,b35 36");
    assert_string_equal(legal_moves(&g.pos, "f14"), "f14-f16 f14-e14 f14-g14");
    assert_string_equal(legal_moves(&g.pos, "g12"), "g12-g14-e14 g12-g14 g12-f13 g12-f12 g12-h12 g12-g11 g12-h11");
    move_refused(&g.pos, "f14-e15", "illegal");
    move_refused(&g.pos, "g12-g14-e16", "illegal");
}

static void test_masters6_swap_only_with_marble_at_home(void **state)
{
    (void)state;
    /* N is black's home: g13 may swap with black's g14; yellow's h14 stands in N
     * too, but N is not yellow's home: i13 may not swap with it (it jumps over it
     * to g15). */
#define M6_REST " r " NE9 " k9 u " SE9 " j7 b e17 l2 m2 k3 l3 m3 j4 k4 l4 y h14 e5 f5 g5 h5 e6 f6 g6 e7 f7 g " NW9 " f9"
    game_setup(&g, "masters-6", "w i13 g13 e14 f14 e15 f15 e16 f16 l7 m7" M6_REST " b g14",
               "w w35,r35,u35,b35,y35,g35 36");
    assert_string_equal(legal_moves(&g.pos, "i13"), "i13-g15 i13-h13 i13-i12 i13-j12");
    assert_string_equal(legal_moves(&g.pos, "g13"), "g13-g15 g13-g14 g13-f13 g13-h13 g13-g12 g13-h12");
    move_refused(&g.pos, "i13-h14", "illegal");
    play(&g, "g13-g14");
    assert_position(&g.pos, "w i13 g14 e14 f14 e15 f15 e16 f16 l7 m7" M6_REST " b g13", "r w36,r35,u35,b35,y35,g35 36");
#undef M6_REST
}

/* ---- capture mode (RULES.md section 9) ---- */

static void test_capture_start_position(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "capture-2"), 0);
    assert_string_equal(fen_now(&g.pos), "1/2/3/4/4xxxxx4/3xxxxxx3/2xxxxxxx2/1xxxxxxxx1/xxxx1xxxx/1xxxxxxxx1/"
                                         "2xxxxxxx2/3xxxxxx3/4xxxxx4/4/3/2/1 w w0c0,b0c0 1");
    assert_int_equal(bb_count(g.pos.neutral), 60);
    assert_false(bb_test(g.pos.occ, hole("i9")));
    assert_true((g.pos.seat_bb[SEAT_WHITE] | g.pos.seat_bb[SEAT_BLACK]) == 0);
    /* single jumps only: six into the centre, eight into each of the six points */
    assert_string_equal(legal_moves(&g.pos, NULL),
                        "f13-d13 h13-j13 e12-e14 f12-f14 f12-d12 g12-e14 g12-g14 h12-f14 h12-h14 i12-g14 i12-k12 "
                        "j12-h14 f11-d13 f11-d11 g11-i9 i11-i9 j11-j13 j11-l11 e10-e8 f10-d12 f10-d10 k10-k12 "
                        "k10-m10 l10-n8 f9-d11 f9-f7 g9-i9 k9-i9 l9-l11 l9-n7 f8-d10 g8-e8 g8-g6 l8-n8 l8-n6 "
                        "m8-m10 h7-f7 h7-h5 i7-i9 k7-i9 l7-n7 l7-n5 h6-j4 i6-g6 i6-k4 j6-j4 j6-l4 k6-k4 k6-m4 "
                        "l6-n6 l6-l4 m6-m4 j5-h5 l5-n5");
    assert_int_equal(gen_count(&g.pos, NULL), 54);
    assert_int_equal(game_new(&g, "capture-5"), 0);
    assert_string_equal(fen_now(&g.pos), "1/2/3/4/4xxxxx4/3xxxxxx3/2xxxxxxx2/1xxxxxxxx1/xxxx1xxxx/1xxxxxxxx1/"
                                         "2xxxxxxx2/3xxxxxx3/4xxxxx4/4/3/2/1 w w0c0,r0c0,u0c0,b0c0,y0c0 1");
}

/* A rhombus of four pieces: i9 j9 (a row), i10 j10 above them. */
#define RHOMBUS "x i9 j9 i10 j10"
#define RHOMBUS_TAIL "w w10c27,b10c29 11"

static void test_capture_jumps_only_and_moves_distinct_by_captured_set(void **state)
{
    (void)state;
    game_setup(&g, "capture-2", RHOMBUS, RHOMBUS_TAIL);
    /* i9: over j9 to k9, over i10 to i11; from k9 over j10 to i11, from i11 over
     * j10 to k9, and round the triangle back to i9 over the third piece. i9-i11
     * (i10 captured) and i9-k9-i11 (j9, j10) have the same ends but are two
     * moves; so are i9-k9 and i9-i11-k9. i9-k9-i11-i9 and i9-i11-k9-i9 capture
     * the same three and are one move (printed in direction order). */
    assert_string_equal(legal_moves(&g.pos, NULL),
                        "i10-k10 i10-i8 i10-k8 "
                        "j10-h10 j10-j8-h10 j10-h10-j8-j10 j10-h10-j8 j10-j8 "
                        "i9-i11 i9-k9-i11 i9-k9-i11-i9 i9-i11-k9 i9-k9 "
                        "j9-h11 j9-j11 j9-h9");
    const Move a = move_ok(&g.pos, "i9-i11"), b = move_ok(&g.pos, "i9-k9-i11");
    assert_int_equal(a.to, b.to);
    assert_true(a.captured == holes("i10"));
    assert_true(b.captured == holes("j9 j10"));
    assert_int_equal(a.ncapt, 1);
    assert_int_equal(b.ncapt, 2);
    const Move c = move_ok(&g.pos, "i9-k9-i11-i9"), d = move_ok(&g.pos, "i9-i11-k9-i9");
    assert_int_equal(c.from, hole("i9"));
    assert_int_equal(c.to, hole("i9"));
    assert_int_equal(d.to, c.to);
    assert_true(c.captured == d.captured);
    assert_true(c.captured == holes("j9 j10 i10"));
    /* no steps in capture mode */
    move_refused(&g.pos, "i9-h9", "illegal");
    move_refused(&g.pos, "i9-i8", "illegal");
    /* two jumps: both pieces leave the board and count for white */
    play(&g, "i9-k9-i11");
    assert_position(&g.pos, "x i10 i11", "b w11c29,b10c29 11");
    assert_int_equal(g.pos.captures[SEAT_WHITE], 29);
    assert_string_equal(legal_moves(&g.pos, NULL), "i11-i9 i10-i12"); /* i11 comes first: row 11 */
}

static void test_capture_chain_ending_on_start_then_game_over(void **state)
{
    (void)state;
    game_setup(&g, "capture-2", RHOMBUS, RHOMBUS_TAIL);
    play(&g, "i9-i11-k9-i9");
    /* one piece left: no jump anywhere, the game is over, 30 against 29 */
    assert_over(END_CAPTURES);
    assert_string_equal(places(), "w:1 b:2");
    assert_position(&g.pos, "x i9", "- w11c30,b10c29 11");
}

/* g9 and h9 west of i9, the triangle j9 j10 i10 round it, i8 below it */
#define LOOP "x g9 h9 j9 j10 i10 i8"

static void test_capture_chain_revisits_a_hole(void **state)
{
    (void)state;
    game_setup(&g, "capture-2", LOOP, "w w10c27,b10c27 11");
    /* g9 over h9 to i9, round the triangle (over j9, j10, i10) back to i9 and on
     * over i8 to i7: i9 is landed on twice, five pieces are captured */
    assert_string_equal(legal_moves(&g.pos, "g9"),
                        "g9-i9-i11 g9-i9-k9-i11 g9-i9 g9-i9-k9-i11-i9 g9-i9-i11-k9 g9-i9-k9 g9-i9-i7 "
                        "g9-i9-k9-i11-i9-i7");
    /* a piece is never jumped twice */
    move_refused(&g.pos, "g9-i9-g9", "not a capturing jump");
    /* the full path is required when the chain has more than one jump ... */
    move_refused(&g.pos, "g9-i7", "full path");
    move_refused(&g.pos, "g9-i11", "full path");
    /* ... and the other way round the triangle is the same move */
    const Move a = move_ok(&g.pos, "g9-i9-k9-i11-i9-i7"), b = move_ok(&g.pos, "g9-i9-i11-k9-i9-i7");
    assert_true(a.captured == b.captured);
    assert_int_equal(a.ncapt, 5);
    play(&g, "g9-i9-i11-k9-i9-i7");
    assert_over(END_CAPTURES);
    assert_string_equal(places(), "w:1 b:2");
    assert_position(&g.pos, "x i7", "- w11c32,b10c27 11");
}

static void test_capture_single_jump_from_to_is_its_full_path(void **state)
{
    (void)state;
    game_setup(&g, "capture-2", LOOP, "w w10c27,b10c27 11");
    play(&g, "g9-i9");
    assert_position(&g.pos, "x i9 j9 j10 i10 i8", "b w11c28,b10c27 11");
}

static void test_capture_bigjump_captures_with_long_jumps(void **state)
{
    (void)state;
    /* e9 over h9 (3 holes each side) to k9, then over k7 (2 each side) to k5;
     * e9 over e11 to e13; e11 over e9 to e7. e9-e12 (e11 off centre) no. */
    game_setup(&g, "capture-bigjump-2", "x e9 h9 k7 e11", "w w10c27,b10c29 11");
    assert_string_equal(legal_moves(&g.pos, NULL), "e11-e7 e9-e13 e9-k9 e9-k9-k5");
    move_refused(&g.pos, "e9-e12", "illegal");
    move_refused(&g.pos, "e9-j9", "illegal");
    play(&g, "e9-k9-k5");
    /* k5 and e11 lie on one line but 6 holes apart: no jump, the game is over:
     * 29 each, a shared first place (a draw) */
    assert_position(&g.pos, "x k5 e11", "- w11c29,b10c29 11");
    assert_over(END_CAPTURES);
    assert_string_equal(places(), "w:1 b:1");
    /* the same position under short jumps has no move at all */
    game_setup(&g, "capture-2", "x e9 h9 k7 e11", "w w10c27,b10c29 11");
    assert_string_equal(legal_moves(&g.pos, NULL), "");
}

/* From the capture position "x i9 j9 e13" (fields 2-4: `tail`) of `variant`,
 * `move` captures one piece and leaves two that cannot jump: the game ends with
 * the places `want` ("w:1 b:1", turn order) and the FEN `pieces` + `after`. */
static void capture_last_move(const char *variant, const char *tail, const char *move, const char *pieces,
                              const char *after, const char *want)
{
    game_setup(&g, variant, "x i9 j9 e13", tail);
    assert_string_equal(legal_moves(&g.pos, NULL), "i9-k9 j9-h9");
    play(&g, move);
    assert_over(END_CAPTURES);
    assert_string_equal(places(), want);
    assert_position(&g.pos, pieces, after);
}

static void test_capture_tie_for_first_is_a_draw(void **state)
{
    (void)state;
    capture_last_move("capture-2", "w w14c28,b14c29 15", "i9-k9", "x k9 e13", "- w15c29,b14c29 15", "w:1 b:1");
}

static void test_capture_shared_places_four_and_five_seats(void **state)
{
    (void)state;
    /* 15 13 15 15: competition numbering 1 4 1 1 */
    capture_last_move("capture-4", "b w12c15,r12c13,b11c14,y11c15 12", "j9-h9", "x h9 e13",
                      "- w12c15,r12c13,b12c15,y11c15 12", "w:1 r:4 b:1 y:1");
    /* 14 14 12 12 6: 1 1 3 3 5 */
    capture_last_move("capture-5", "u w12c14,r12c14,u11c11,b11c12,y11c6 12", "i9-k9", "x k9 e13",
                      "- w12c14,r12c14,u12c12,b11c12,y11c6 12", "w:1 r:1 u:3 b:3 y:5");
}

/* A lattice: i9 plus one piece midway between each pair of neighbouring holes of
 * the grid i9 k9 i11 g11 g9 i7 k7 e11 e13 g13 (holes two apart on a line). Every
 * trail through the grid from i9 is a capture chain, so i9 alone has thousands of
 * moves (end and captured set). The counts here come from an independent
 * enumeration of RULES.md section 9, not from the engine. */
#define LATTICE "x i9 e12 f12 h12 f11 h11 f10 g10 h10 i10 j10 h9 j9 h8 i8 j8 k8 j7"

/* The number of moves gen_moves lists in p, and of those starting on `from`. */
static int listed_moves(const Position *p, const char *from, int *from_count)
{
    static MoveList list;
    gen_moves(p, &list, NULL);
    *from_count = 0;
    for (int i = 0; i < list.n; i++)
        *from_count += list.m[i].from == hole(from);
    return list.n;
}

static void test_capture_thousands_of_chains_from_one_piece(void **state)
{
    (void)state;
    game_setup(&g, "capture-2", LATTICE, "w w5c42,b5c0 6");
    int from_i9;
    assert_int_equal(listed_moves(&g.pos, "i9", &from_i9), 2365);
    assert_int_equal(from_i9, 2347);
    assert_int_equal(gen_count(&g.pos, NULL), 2365);
    /* the longest chains take 14 of the 17 pieces */
    const Move m = move_ok(&g.pos, "i9-g9-g11-i11-i9-i7-g9-e11-e13-g11-i9-k7-k9-i11-g13");
    assert_int_equal(m.ncapt, 14);
    assert_int_equal(m.to, hole("g13"));
}

static void test_capture_bigjump_lists_every_move_beyond_4096(void **state)
{
    (void)state;
    /* A sparse Big Jump position (39 pieces) found by a random search: 4887
     * moves, 2493 of them from b13 (independent enumeration). RULES.md
     * section 9 sets no cap on the moves of a position; `legalmoves` and `perft`
     * list them all. */
    char err[256];
    assert_int_equal(game_new(&g, "capture-bigjump-3"), 0);
    assert_int_equal(game_set_fen(&g,
                                  "1/x1/3/3x/1x1x2x3x2/1x2xx3x2/x3x1x4/1x1x2x1xx/2x1x3x/x1x1x2xxx/6x4/2x3x1x2x/"
                                  "x5x2x3/2xx/3/1x/x w w5c4,u5c17,y5c0 6",
                                  err, sizeof err),
                     0);
    assert_int_equal(gen_count(&g.pos, NULL), 4887);
    assert_int_equal(perft(&g.pos, 1, NULL), 4887);
    int from_b13;
    assert_int_equal(listed_moves(&g.pos, "b13", &from_b13), 4887);
    assert_int_equal(from_b13, 2493);
}

/* The same lattice grown to 3 steps round i9: i9 and the 30 holes within 3 steps
 * of it that lie midway between two holes of the grid (holes an even number of
 * files and rows away from i9). 71408 moves, 71384 of them from i9, by two
 * independent enumerations. */
#define LATTICE3 "x i9 f12 g12 h12 i12 f11 h11 j11 f10 g10 h10 i10 j10 k10 f9 h9 j9 l9 g8 h8 i8 j8 k8 l8 h7 j7 l7 " \
                 "i6 j6 k6 l6"

/* 71,408 moves: gen_count, perft and the move list hold every one (no cap:
 * a list grows as needed). */
static void test_capture_lattice_counts_and_lists_every_move(void **state)
{
    (void)state;
    game_setup(&g, "capture-2", LATTICE3, "w w5c29,b5c0 6");
    assert_int_equal(gen_count(&g.pos, NULL), 71408);
    assert_int_equal(perft(&g.pos, 1, NULL), 71408);
    int from_i9;
    assert_int_equal(listed_moves(&g.pos, "i9", &from_i9), 71408);
    assert_int_equal(from_i9, 71384);
}

/* gen_count(p) in a child process killed after `seconds`: the count, or -1 when
 * the child did not finish (so a hang fails the test instead of blocking it). */
static long count_moves_within(const Position *p, unsigned seconds)
{
    int fd[2];
    if (pipe(fd))
        fail_msg("pipe failed");
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork failed");
    if (pid == 0) {
        close(fd[0]);
        alarm(seconds);
        const long n = gen_count(p, NULL);
        _exit(write(fd[1], &n, sizeof n) == (ssize_t)sizeof n ? 0 : 2);
    }
    close(fd[1]);
    long n = -1;
    if (read(fd[0], &n, sizeof n) != (ssize_t)sizeof n)
        n = -1;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? n : -1;
}

/* Seconds the count may take: about 1 s with -O3; sanitizers slow the engine
 * down up to twentyfold (ThreadSanitizer). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COUNT_SECONDS 60
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define COUNT_SECONDS 60
#endif
#endif
#ifndef COUNT_SECONDS
#define COUNT_SECONDS 10
#endif

static void test_capture_more_than_131072_chains_from_one_piece(void **state)
{
    (void)state;
    /* LATTICE3 and f13, which links e13 and g13 into the grid: 139159 moves from
     * i9, 139183 in all (two independent enumerations) */
    game_setup(&g, "capture-2", LATTICE3 " f13", "w w5c28,b5c0 6");
    assert_int_equal(count_moves_within(&g.pos, COUNT_SECONDS), 139183);
}

static void test_capture_perft_of_the_rhombus_by_hand(void **state)
{
    (void)state;
    /* depth 1: the 16 moves listed above. Depth 2, move by move (pieces left ->
     * replies):
     *   i10-k10 (i9 j9 k10): i9-k9, i9-k9-k11, j9-h9            3
     *   i10-i8  (j9 j10 i8): j9-j11, j10-j8, j10-j8-h8          3
     *   i10-k8  (i9 j10 k8): no two pieces touch                0
     *   j10-h10 (i9 j9 h10): i9-k9, i9-g11, j9-h9, j9-h9-h11,
     *                        h10-j8, h10-j8-j10                 6
     *   j10-j8-h10, j10-h10-j8 (two touching pieces)          2+2
     *   j10-h10-j8-j10 (one piece)                              0
     *   j10-j8  (i9 i10 j8): i9-i11, i9-k7, i10-i8, i10-i8-k8,
     *                        j8-h10, j8-h10-j10                 6
     *   i9's five moves mirror j10's                            16
     *   j9-h11 0, j9-j11 3 (i9-i11, i9-i11-k11, i10-i8),
     *   j9-h9 3 (i10-k10, j10-h10, j10-h10-h8)                  6
     * total 3+3+0 + 6+2+0+2+6 + 16 + 6 = 44. Depth 3: two pieces have 2 moves
     * when they touch, none otherwise, one piece none; so only replies that
     * capture one piece and leave two touching count, 2 each: after i10-k10 only
     * i9-k9 (k9 k10), after j10-h10 j9-h9 and h10-j8, ... : i10-k10 2, i10-i8 2,
     * j10-h10 4, j10-j8 4, i9-i11 4, i9-k9 4, j9-j11 2, j9-h9 2 = 24. Depth 4:
     * at most one piece is left: 0. */
    game_setup(&g, "capture-2", RHOMBUS, RHOMBUS_TAIL);
    assert_int_equal(perft(&g.pos, 1, NULL), 16);
    assert_int_equal(perft(&g.pos, 2, NULL), 44);
    assert_int_equal(perft(&g.pos, 3, NULL), 24);
    assert_int_equal(perft(&g.pos, 4, NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_jump_rule_on_one_line),
        cmocka_unit_test(test_long_jump_over_midpoint_marble_and_near_misses),
        cmocka_unit_test(test_long_jump_chain_with_start_hole_empty),
        cmocka_unit_test(test_symmetric_jump_rule_on_one_line),
        cmocka_unit_test(test_symmetric_jump_patterns_x_x_and_x_gap_x_and_x_x_gap_x_x),
        cmocka_unit_test(test_symmetric_jump_refuses_unmirrored_patterns),
        cmocka_unit_test(test_symmetric_jump_chain),
        cmocka_unit_test(test_fifteen_start_fills_point_and_edge_row),
        cmocka_unit_test(test_fifteen_deadline_eliminates_at_40th_move_not_39th),
        cmocka_unit_test(test_fifteen_corner_hole_in_one_home_and_another_target),
        cmocka_unit_test(test_fifteen_full_target_arrival_from_40th_move),
        cmocka_unit_test(test_fifteen_foreign_points_are_the_ten_hole_points),
        cmocka_unit_test(test_pairs6_team_placed_when_both_partners_arrive),
        cmocka_unit_test(test_pairs_fen_member_arrived_before_team_reads_back),
        cmocka_unit_test(test_pairs6_member_eliminated_takes_its_partner_out),
        cmocka_unit_test(test_pairs6_elimination_takes_worst_free_team_place_and_ends),
        cmocka_unit_test(test_pairs4_elimination_ends_game_other_team_first),
        cmocka_unit_test(test_pairs4_limit_full_tie_shares_first_place),
        cmocka_unit_test(test_pairs4_limit_equal_targets_summed_distance_decides),
        cmocka_unit_test(test_pairs4_limit_marbles_in_targets_count_together),
        cmocka_unit_test(test_pairs4_limit_counts_the_arrived_member_of_an_unplaced_team),
        cmocka_unit_test(test_masters_swap_by_step),
        cmocka_unit_test(test_masters_no_swap_before_victim_made_30_moves),
        cmocka_unit_test(test_masters_swap_by_last_jump_of_chain),
        cmocka_unit_test(test_masters_no_swap_from_inside_target),
        cmocka_unit_test(test_masters6_swap_only_with_marble_at_home),
        cmocka_unit_test(test_capture_start_position),
        cmocka_unit_test(test_capture_jumps_only_and_moves_distinct_by_captured_set),
        cmocka_unit_test(test_capture_chain_ending_on_start_then_game_over),
        cmocka_unit_test(test_capture_chain_revisits_a_hole),
        cmocka_unit_test(test_capture_single_jump_from_to_is_its_full_path),
        cmocka_unit_test(test_capture_bigjump_captures_with_long_jumps),
        cmocka_unit_test(test_capture_tie_for_first_is_a_draw),
        cmocka_unit_test(test_capture_shared_places_four_and_five_seats),
        cmocka_unit_test(test_capture_perft_of_the_rhombus_by_hand),
        cmocka_unit_test(test_capture_thousands_of_chains_from_one_piece),
        cmocka_unit_test(test_capture_bigjump_lists_every_move_beyond_4096),
        cmocka_unit_test(test_capture_lattice_counts_and_lists_every_move),
        cmocka_unit_test(test_capture_more_than_131072_chains_from_one_piece),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
