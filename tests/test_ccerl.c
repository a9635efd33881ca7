/*
 * test_ccerl.c - the rules of variant ccerl-2, the public rating list CCERL's
 * two-player profile (shared CCERL.md sections 1 and 5), each against classic-2
 * where they differ: the anti-block win from move 1 on either seat's move, white's
 * arrival ending the game with its draw rule, black's arrival, repetition and the
 * 240-ply limit as plain draws, the loss of a seat without a legal move, open side
 * points, no exit deadline and no return-home rule, the order of the end checks,
 * and the rating list's perft fixtures. One position per rule, built from lists of
 * marbles (support/stern_test.h).
 *
 * Hole reminders (RULES.md section 1): white's home S = m1 l2 m2 k3 l3 m3 j4 k4 l4
 * m4 is black's target; black's home N = e14 f14 g14 h14 e15 f15 g15 e16 f16 e17
 * is white's target. SW point e5-h5 e6-g6 e7 f7 e8, SE point n5-q5 n6-p6 n7 o7
 * n8, NW a13 b12 b13 c11-c13 d10-d13. Axial (q, r) is file chr('a' + q + 8), row
 * r + 9. Neighbours of (file, row): file+-1 on the same row, row+-1 on the same
 * file, (file+1, row-1) and (file-1, row+1).
 */
#include "support/stern_test.h"

#include <stdio.h>
#include <string.h>

static Game g;

/* white's target N without h14 (8 holes), and black's target S without m4 (9) */
#define N8 "e14 f14 g14 e15 f15 g15 e16 f16"
#define N10 "e14 f14 g14 h14 e15 f15 g15 e16 f16 e17"
#define S9 "m1 l2 m2 k3 l3 m3 j4 k4 l4"
/* black's target S without j4 (9 holes) */
#define S9J "m1 l2 m2 k3 l3 m3 k4 l4 m4"

static void assert_over(EndReason reason)
{
    assert_int_equal(g.pos.stm, -1);
    assert_true(pos_over(&g.pos));
    assert_int_equal(g.pos.reason, reason);
}

/* The places; in ccerl-2 also the statuses: a winner counts as arrived, the
 * other seat (and both in a draw) stay playing. */
static void assert_places(int white, int black)
{
    assert_int_equal(g.pos.place[SEAT_WHITE], white);
    assert_int_equal(g.pos.place[SEAT_BLACK], black);
    if (!g.v->ccerl)
        return;
    assert_int_equal(g.pos.status[SEAT_WHITE], white == 1 && black == 2 ? ST_ARRIVED : ST_PLAYING);
    assert_int_equal(g.pos.status[SEAT_BLACK], black == 1 && white == 2 ? ST_ARRIVED : ST_PLAYING);
}

static void assert_ongoing(int stm)
{
    assert_int_equal(g.pos.stm, stm);
    assert_int_equal(g.pos.reason, END_NONE);
    assert_places(0, 0);
}

/* Sets g up as `variant` at a position built directly (pos_refresh, as
 * ccp_position_fen builds one) rather than from a FEN: for positions with fewer
 * than 10 marbles a seat, which fen_parse refuses (fen.c check_material). */
static void build(const char *variant, const char *white, const char *black, int stm, int wmoves, int bmoves,
                  int round)
{
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    Position *p = &g.start;
    memset(p, 0, sizeof *p);
    p->v = v;
    p->seat_bb[SEAT_WHITE] = holes(white);
    p->seat_bb[SEAT_BLACK] = holes(black);
    assert_true((p->seat_bb[SEAT_WHITE] & p->seat_bb[SEAT_BLACK]) == 0);
    p->stm = (int8_t)stm;
    p->moves[SEAT_WHITE] = (int16_t)wmoves;
    p->moves[SEAT_BLACK] = (int16_t)bmoves;
    p->round = (int16_t)round;
    pos_refresh(p);
    g.v = v;
    g.pos = *p;
    g.nplies = 0;
    g.keys[0] = p->key;
}

/* ---- the variant's data ---- */

static void test_variant_flags(void **state)
{
    (void)state;
    const Variant *v = variant_find("ccerl-2");
    assert_non_null(v);
    assert_true(v->ccerl);
    assert_false(v->foreign_rule);
    assert_int_equal(v->deadline, NO_DEADLINE);
    assert_int_equal(v->full_target_from, 0);
    assert_int_equal(v->round_limit, 120);
    assert_int_equal(v->nseats, 2);
    assert_int_equal(v->marbles, 10);
    assert_int_equal(v->jump, JUMP_SHORT);
    for (int s = 0; s < MAX_SEATS; s++)
        assert_true(v->foreign[s] == 0);
    assert_true(v->home[SEAT_WHITE] == holes(S9 " m4"));
    assert_true(v->target[SEAT_WHITE] == holes(N10));
    assert_true(v->home[SEAT_BLACK] == holes(N10));
    assert_true(v->target[SEAT_BLACK] == holes(S9 " m4"));
    const Variant *c = variant_find("classic-2");
    assert_false(c->ccerl);
    assert_int_equal(c->deadline, 30);
    assert_int_equal(c->full_target_from, 30);
    assert_int_equal(c->round_limit, 150);
    /* the same start position, white first */
    assert_int_equal(game_new(&g, "ccerl-2"), 0);
    assert_position(&g.pos, "w " S9 " m4 b " N10, "w w0,b0 1");
}

/* ---- anti-block: a full target with both colours in it wins at once ---- */

/* white's first move fills h14, the last empty hole of N, where black's e17
 * still stands */
#define AB_WHITE "w " N8 " h13 i9 b e17 m1 l2 m2 j6 k6 l6 j7 k7 l7"

static void test_anti_block_white_fills_its_target_on_move_1(void **state)
{
    (void)state;
    game_setup(&g, "ccerl-2", AB_WHITE, "w w0,b0 1");
    play(&g, "h13-h14");
    assert_over(END_BLOCKED);
    assert_places(1, 2);
    assert_int_equal(g.pos.moves[SEAT_WHITE], 1);
    assert_int_equal(g.pos.moves[SEAT_BLACK], 0);
    assert_position(&g.pos, "w " N8 " h14 i9 b e17 m1 l2 m2 j6 k6 l6 j7 k7 l7", "- w1=1,b0 1");
    move_refused(&g.pos, "e17-e16", "over");
}

static void test_anti_block_not_before_move_30_in_classic2(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", AB_WHITE, "w w0,b0 1");
    play(&g, "h13-h14");
    assert_ongoing(SEAT_BLACK);
    assert_int_equal(g.pos.status[SEAT_WHITE], ST_PLAYING);
    assert_position(&g.pos, "w " N8 " h14 i9 b e17 m1 l2 m2 j6 k6 l6 j7 k7 l7", "b w1,b0 1");
}

/* black (moves into its own home, allowed) fills h14, the last empty hole of
 * white's target: white wins on black's move */
#define AB_BLACK "w " N8 " e17 i9 b h13 m1 l2 m2 j6 k6 l6 j7 k7 l7"

static void test_anti_block_white_wins_on_blacks_move(void **state)
{
    (void)state;
    game_setup(&g, "ccerl-2", AB_BLACK, "b w1,b0 1");
    play(&g, "h13-h14");
    assert_over(END_BLOCKED);
    assert_places(1, 2);
    assert_position(&g.pos, "w " N8 " e17 i9 b h14 m1 l2 m2 j6 k6 l6 j7 k7 l7", "- w1=1,b1 1");
    /* classic-2: nothing happens (white has made 1 move, not 30) */
    game_setup(&g, "classic-2", AB_BLACK, "b w1,b0 1");
    play(&g, "h13-h14");
    assert_ongoing(SEAT_WHITE);
    assert_position(&g.pos, "w " N8 " e17 i9 b h14 m1 l2 m2 j6 k6 l6 j7 k7 l7", "w w1,b1 2");
}

/* black fills m4, the last empty hole of its target S, where white's m1 stands */
static void test_anti_block_black_fills_its_target(void **state)
{
    (void)state;
#define ABB_W "w m1 e14 f14 g14 h14 e15 g10 h10 i10 j10"
    game_setup(&g, "ccerl-2", ABB_W " b l2 m2 k3 l3 m3 j4 k4 l4 m5 h8", "b w3,b2 3");
    play(&g, "m5-m4");
    assert_over(END_BLOCKED);
    assert_places(2, 1);
    assert_position(&g.pos, ABB_W " b l2 m2 k3 l3 m3 j4 k4 l4 m4 h8", "- w3,b3=1 3");
    game_setup(&g, "classic-2", ABB_W " b l2 m2 k3 l3 m3 j4 k4 l4 m5 h8", "b w3,b2 3");
    play(&g, "m5-m4");
    assert_ongoing(SEAT_WHITE);
#undef ABB_W
}

/* white steps into m4, the last empty hole of its own home = black's target,
 * where nine black marbles stand: black wins on white's move */
static void test_anti_block_black_wins_on_whites_move(void **state)
{
    (void)state;
#define ABW_W "w e14 f14 g14 h14 e15 g10 h10 i10 j10 "
    game_setup(&g, "ccerl-2", ABW_W "m5 b " S9 " h8", "w w3,b3 4");
    play(&g, "m5-m4");
    assert_over(END_BLOCKED);
    assert_places(2, 1);
    assert_position(&g.pos, ABW_W "m4 b " S9 " h8", "- w4,b3=1 4");
    /* classic-2: a return home before the deadline, nothing else */
    game_setup(&g, "classic-2", ABW_W "m5 b " S9 " h8", "w w3,b3 4");
    play(&g, "m5-m4");
    assert_ongoing(SEAT_BLACK);
#undef ABW_W
}

/* The order of the checks (CCERL.md 5.6: white's full target before black's).
 * Only a FEN builds this: N is already full with white and black (e17) before
 * black's move, which a game would have ended. Black's m5-m4 fills S with white's
 * m1 in it: both targets are full with both colours, and white wins. */
static void test_anti_block_checked_for_white_first(void **state)
{
    (void)state;
    /* both targets full, each with an opponent's marble in it: only a loaded
     * position can be so (the first full target ends the game), and the rating
     * list checks the position before each move, white's target first */
#define ORD_W "w e14 f14 g14 h14 e15 f15 g15 e16 f16 m1 b e17 l2 m2 k3 l3 m3 j4 k4 l4 "
    game_setup(&g, "ccerl-2", ORD_W "m4", "b w5,b4 5");
    assert_over(END_BLOCKED);
    assert_places(1, 2);
    assert_position(&g.pos, ORD_W "m4", "- w5=1,b4 5");
#undef ORD_W
}

/* ---- white's 10-marble arrival and the draw rule ---- */

/* white's h13 fills h14: all ten white marbles in N */
#define WA_W "w " N8 " e17 h13"
#define WA_W_IN "w " N10

static void test_white_arrival_draw_when_black_can_bring_its_tenth(void **state)
{
    (void)state;
    /* black: nine in S, j4 empty, j5 a step away */
    game_setup(&g, "ccerl-2", WA_W " b " S9J " j5", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_over(END_ARRIVED);
    assert_places(1, 1);
    /* black's reply is not played: j5 stays, black's move count too */
    assert_int_equal(g.pos.moves[SEAT_BLACK], 20);
    assert_position(&g.pos, WA_W_IN " b " S9J " j5", "- w21,b20 21");
    move_refused(&g.pos, "j5-j4", "over");
}

static void test_white_arrival_draw_when_the_tenth_comes_in_by_a_jump(void **state)
{
    (void)state;
    /* black: nine in S, k3 empty; k5 jumps over k4 into k3 */
    game_setup(&g, "ccerl-2", WA_W " b m1 l2 m2 l3 m3 j4 k4 l4 m4 k5", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_over(END_ARRIVED);
    assert_places(1, 1);
    assert_position(&g.pos, WA_W_IN " b m1 l2 m2 l3 m3 j4 k4 l4 m4 k5", "- w21,b20 21");
}

static void test_white_arrival_wins_when_the_tenth_cannot_reach(void **state)
{
    (void)state;
    /* nine in S, but i9 is far from j4 */
    game_setup(&g, "ccerl-2", WA_W " b " S9J " i9", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_over(END_ARRIVED);
    assert_places(1, 2);
    assert_position(&g.pos, WA_W_IN " b " S9J " i9", "- w21=1,b20 21");
    /* j6 is two steps away: over the empty j5 there is no jump */
    game_setup(&g, "ccerl-2", WA_W " b " S9J " j6", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_over(END_ARRIVED);
    assert_places(1, 2);
}

static void test_white_arrival_wins_when_black_has_only_eight_in(void **state)
{
    (void)state;
    /* eight in S (j4 and m4 empty): j5 could fill j4, but that is nine. (A white
     * marble holding black's last hole cannot occur here: white has all ten in N.) */
    game_setup(&g, "ccerl-2", WA_W " b m1 l2 m2 k3 l3 m3 k4 l4 j5 i9", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_over(END_ARRIVED);
    assert_places(1, 2);
    assert_int_equal(g.pos.moves[SEAT_BLACK], 20);
    assert_position(&g.pos, WA_W_IN " b m1 l2 m2 k3 l3 m3 k4 l4 j5 i9", "- w21=1,b20 21");
    /* the same with i5 (next to j4) the first of the two outside in hole order */
    game_setup(&g, "ccerl-2", WA_W " b m1 l2 m2 k3 l3 m3 k4 l4 i5 n5", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_over(END_ARRIVED);
    assert_places(1, 2);
}

static void test_white_arrival_classic2_lets_black_reply(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", WA_W " b " S9J " j5", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_int_equal(g.pos.stm, SEAT_BLACK);
    assert_int_equal(g.pos.status[SEAT_WHITE], ST_ARRIVED);
    play(&g, "j5-j4");
    assert_over(END_ARRIVED);
    assert_places(1, 1);
}

/* ---- black's arrival ---- */

static void test_black_arrival_wins_at_once(void **state)
{
    (void)state;
    game_setup(&g, "ccerl-2", "w " N8 " h13 i9 b " S9J " j5", "b w20,b19 20");
    play(&g, "j5-j4");
    assert_over(END_ARRIVED);
    assert_places(2, 1);
    assert_position(&g.pos, "w " N8 " h13 i9 b " S9J " j4", "- w20,b20=1 20");
}

/* Only a FEN builds this (black would have won on its arrival): black has all
 * ten in S and white brings its tenth in: both in, a draw (CCERL.md 5.6, first
 * check). */
static void test_both_arrived_is_a_draw(void **state)
{
    (void)state;
    /* only a loaded position can have both armies home: either arrival ends the game */
    game_setup(&g, "ccerl-2", WA_W_IN " b " S9 " m4", "w w20,b20 21");
    assert_over(END_ARRIVED);
    assert_places(1, 1);
}

/* A loaded position is checked as the rating list checks every position before
 * its move: white home with black to move is white's win, or a draw when black
 * can bring its tenth in; with white to move it is white's win either way. */
static void test_loaded_position_already_over(void **state)
{
    (void)state;
    game_setup(&g, "ccerl-2", WA_W_IN " b m1 l2 m2 k3 l3 m3 k4 l4 j5 m5", "b w21,b20 21");
    assert_over(END_ARRIVED);
    assert_places(1, 2);
    game_setup(&g, "ccerl-2", WA_W_IN " b " S9J " j5", "b w21,b20 21");
    assert_over(END_ARRIVED);
    assert_places(1, 1);
    game_setup(&g, "ccerl-2", WA_W_IN " b " S9J " j5", "w w21,b21 22");
    assert_over(END_ARRIVED);
    assert_places(1, 2);
    /* black home: black's win whoever is to move */
    game_setup(&g, "ccerl-2", "w " N8 " h13 i9 b " S9J " j4", "w w20,b20 21");
    assert_over(END_ARRIVED);
    assert_places(2, 1);
    /* and a position with nothing over plays on */
    game_setup(&g, "ccerl-2", WA_W " b " S9J " j5", "w w20,b20 21");
    assert_ongoing(SEAT_WHITE);
}

/* ---- repetition: a plain draw ---- */

/* white has 5 marbles in its target, black 3: classic-2 ranks white first */
#define REP_POS "w e14 f14 g14 h14 e15 i9 g9 g10 h8 f10 b m1 l2 m2 j6 k6 l6 j7 k7 l7 k8"

static void play_cycle_twice(void)
{
    static const char *const cycle[4] = {"i9-i10", "k8-k9", "i10-i9", "k9-k8"};
    assert_int_equal(game_occurrences(&g), 1);
    for (int i = 0; i < 4; i++)
        play(&g, cycle[i]);
    assert_int_equal(game_occurrences(&g), 2);
    for (int i = 0; i < 3; i++) {
        play(&g, cycle[i]);
        assert_false(pos_over(&g.pos));
    }
    play(&g, cycle[3]);
}

static void test_third_repetition_is_a_draw(void **state)
{
    (void)state;
    game_setup(&g, "ccerl-2", REP_POS, "w w10,b10 11");
    play_cycle_twice();
    assert_over(END_REPETITION);
    assert_places(1, 1);
    assert_position(&g.pos, REP_POS, "- w14,b14 14");
    /* classic-2 ranks the same repetition: 5 marbles in target against 3 */
    game_setup(&g, "classic-2", REP_POS, "w w10,b10 11");
    play_cycle_twice();
    assert_over(END_REPETITION);
    assert_places(1, 2);
}

/* ---- the limit: 240 plies, a plain draw ---- */

#define LIM_W "w e14 f14 g14 h14 e15 i10 g9 g10 h8 f10 "
#define LIM_B " b m1 l2 m2 j6 k6 l6 j7 k7 l7 "

static void test_limit_after_blacks_move_in_round_120(void **state)
{
    (void)state;
    game_setup(&g, "ccerl-2", LIM_W LIM_B "k8", "b w120,b119 120");
    play(&g, "k8-k9");
    assert_over(END_LIMIT);
    assert_places(1, 1);
    assert_position(&g.pos, LIM_W LIM_B "k9", "- w120,b120 120");
    /* classic-2 plays on to round 150 */
    game_setup(&g, "classic-2", LIM_W LIM_B "k8", "b w120,b119 120");
    play(&g, "k8-k9");
    assert_ongoing(SEAT_WHITE);
    assert_position(&g.pos, LIM_W LIM_B "k9", "w w120,b120 121");
}

static void test_limit_not_before_the_240th_ply(void **state)
{
    (void)state;
    game_setup(&g, "ccerl-2", LIM_W LIM_B "k8", "b w119,b118 119");
    play(&g, "k8-k9");
    assert_ongoing(SEAT_WHITE);
    assert_position(&g.pos, LIM_W LIM_B "k9", "w w119,b119 120");
    play(&g, "i10-i11"); /* ply 239: white's last move */
    assert_ongoing(SEAT_BLACK);
    assert_position(&g.pos, "w e14 f14 g14 h14 e15 i11 g9 g10 h8 f10" LIM_B "k9", "b w120,b119 120");
    play(&g, "k9-k10"); /* ply 240 */
    assert_over(END_LIMIT);
    assert_places(1, 1);
    assert_position(&g.pos, "w e14 f14 g14 h14 e15 i11 g9 g10 h8 f10" LIM_B "k10", "- w120,b120 120");
}

/* The 240th ply that also makes the third occurrence ends by repetition: the
 * rating list checks repetition before the limit (both are draws). */
static void test_repetition_on_the_last_ply_is_repetition(void **state)
{
    (void)state;
    game_setup(&g, "ccerl-2", REP_POS, "w w116,b116 117");
    play_cycle_twice();
    assert_int_equal(g.pos.round, 120);
    assert_over(END_REPETITION);
    assert_places(1, 1);
}

static void test_limit_yields_to_a_win_on_the_last_move(void **state)
{
    (void)state;
    /* black's last move brings its tenth marble in: black wins */
    game_setup(&g, "ccerl-2", "w " N8 " h13 i9 b " S9J " j5", "b w120,b119 120");
    play(&g, "j5-j4");
    assert_over(END_ARRIVED);
    assert_places(2, 1);
    /* black's last move fills white's target with black's h14: white wins */
    game_setup(&g, "ccerl-2", AB_BLACK, "b w120,b119 120");
    play(&g, "h13-h14");
    assert_over(END_BLOCKED);
    assert_places(1, 2);
    /* white's arrival on ply 239 ends the game too (black cannot finish) */
    game_setup(&g, "ccerl-2", WA_W " b " S9J " i9", "w w119,b119 120");
    play(&g, "h13-h14");
    assert_over(END_ARRIVED);
    assert_places(1, 2);
}

/* ---- no legal move: the side to move loses ---- */

/* Why these positions have fewer marbles: with ten a seat, no seat arrived and
 * no target full of both colours, we found no position that leaves a seat
 * without a move. A seat's marbles locked in its target stay frozen only while
 * every empty target hole, and the landing of every jump into it, is held by
 * the opponent; each frozen marble outside needs its neighbours and jump
 * landings full (a point's tip triangle of 3 needs the other 7 holes of the
 * point). A simulated-annealing search over the board (some 2,300 random
 * starts, 400,000 steps each) got down to 2 legal moves at best. The FEN, and so
 * the CCP cells, need ten marbles a seat: such positions are built directly. */
static void test_fen_needs_ten_marbles_a_seat(void **state)
{
    (void)state;
    char fen[FEN_MAX], err[256];
    Position p;
    fen_of(fen, "w n7 p5 p6 o5 b q5", "w w5,b5 6");
    assert_int_equal(fen_parse(&p, variant_find("ccerl-2"), fen, err, sizeof err), -1);
    assert_string_equal(err, "fen: seat 'w' has 4 marbles, expected 10");
}

/* black: m1 is locked in its target S behind white's l2 and m2 and can jump
 * over m2 to m3 until white's l3 steps there; q5 (the SE tip) is caged by
 * white's p5 and p6 and the landings o5 and o7 */
#define NM_W "l2 m2 k3 p5 p6 o5 o7 e14 f14 "
#define NM_B "m1 q5"

static void test_no_legal_move_loses_black(void **state)
{
    (void)state;
    build("ccerl-2", NM_W "l3", NM_B, SEAT_WHITE, 5, 5, 6);
    assert_true(gen_destinations(&g.pos, SEAT_BLACK, hole("m1")) == holes("m3"));
    assert_true(gen_destinations(&g.pos, SEAT_BLACK, hole("q5")) == 0);
    assert_true(pos_has_move(&g.pos, SEAT_BLACK));
    play(&g, "l3-m3");
    assert_false(pos_has_move(&g.pos, SEAT_BLACK));
    assert_over(END_NOMOVES);
    assert_places(1, 2);
    /* the round of the last move (PROTOCOL.md) */
    assert_int_equal(g.pos.round, 6);
    assert_int_equal(g.pos.moves[SEAT_WHITE], 6);
    assert_int_equal(g.pos.moves[SEAT_BLACK], 5);
    /* classic-2 skips black: white moves again, in the next round */
    build("classic-2", NM_W "l3", NM_B, SEAT_WHITE, 5, 5, 6);
    play(&g, "l3-m3");
    assert_ongoing(SEAT_WHITE);
    assert_int_equal(g.pos.round, 7);
}

/* white: e17 is locked in its target N behind black's e16 and f16 and can jump
 * over f16 to g15 until black's f15 steps there; e5 (the SW tip) is caged by
 * black's f5 and e6 and the landings g5 and e7 */
#define NMW_W "e17 e5"
#define NMW_B "e16 f16 e15 f5 e6 g5 e7 m1 l2 "

static void test_no_legal_move_loses_white(void **state)
{
    (void)state;
    build("ccerl-2", NMW_W, NMW_B "f15", SEAT_BLACK, 6, 5, 6);
    assert_true(gen_destinations(&g.pos, SEAT_WHITE, hole("e17")) == holes("g15"));
    assert_true(gen_destinations(&g.pos, SEAT_WHITE, hole("e5")) == 0);
    assert_true(pos_has_move(&g.pos, SEAT_WHITE));
    play(&g, "f15-g15");
    assert_false(pos_has_move(&g.pos, SEAT_WHITE));
    assert_over(END_NOMOVES);
    assert_places(2, 1);
    assert_int_equal(g.pos.moves[SEAT_BLACK], 6);
    const int round = g.pos.round;
    /* classic-2 skips white: black moves again, in round 7 */
    build("classic-2", NMW_W, NMW_B "f15", SEAT_BLACK, 6, 5, 6);
    play(&g, "f15-g15");
    assert_ongoing(SEAT_BLACK);
    assert_int_equal(g.pos.round, 7);
    /* black moved in round 6: the finished game keeps that round (PROTOCOL.md,
     * the FEN: "In a finished game it is the round of the last move") */
    if (round != 6)
        fail_msg("the game ended on black's move of round 6 but keeps round %d", round);
}

static void test_limit_comes_before_no_legal_move(void **state)
{
    (void)state;
    /* black's move of ply 240 also leaves white without a move: the limit */
    build("ccerl-2", NMW_W, NMW_B "f15", SEAT_BLACK, 120, 119, 120);
    play(&g, "f15-g15");
    assert_over(END_LIMIT);
    assert_places(1, 1);
    assert_int_equal(g.pos.round, 120);
}

/* ---- a finished game's FEN ---- */

/* PROTOCOL.md (the FEN): a seat that has arrived is written with `=<place>`;
 * places that come from no suffix are ranked again on loading. So the FEN `d`
 * prints for a finished game must load back to the same result. */
static int fen_mismatches;

static void check_fen_keeps_result(int white, int black, EndReason reason)
{
    char fen[FEN_MAX], err[256];
    snprintf(fen, sizeof fen, "%s", fen_now(&g.pos));
    static Game back;
    assert_int_equal(game_new(&back, "ccerl-2"), 0);
    if (game_set_fen(&back, fen, err, sizeof err))
        fail_msg("the FEN of the finished game '%s' is refused: %s", fen, err);
    if (back.pos.place[SEAT_WHITE] != white || back.pos.place[SEAT_BLACK] != black || back.pos.reason != reason) {
        print_error("'%s' (w:%d b:%d reason %s) loads back as w:%d b:%d reason %s\n", fen, white, black,
                    pos_reason_name(reason), back.pos.place[SEAT_WHITE], back.pos.place[SEAT_BLACK],
                    pos_reason_name((EndReason)back.pos.reason));
        fen_mismatches++;
    }
}

static void test_finished_game_fen_keeps_the_result(void **state)
{
    (void)state;
    fen_mismatches = 0;
    /* a draw by the limit is ranked back as a draw */
    game_setup(&g, "ccerl-2", LIM_W LIM_B "k8", "b w120,b119 120");
    play(&g, "k8-k9");
    check_fen_keeps_result(1, 1, END_LIMIT);
    /* white's 10-marble arrival, black can bring its tenth: a draw, read back
     * from the position itself (the FEN gives no place to either seat) */
    game_setup(&g, "ccerl-2", WA_W " b " S9J " j5", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_places(1, 1);
    check_fen_keeps_result(1, 1, END_ARRIVED);
    /* white's 10-marble arrival, black cannot finish: white wins */
    game_setup(&g, "ccerl-2", WA_W " b " S9J " i9", "w w20,b20 21");
    play(&g, "h13-h14");
    assert_places(1, 2);
    check_fen_keeps_result(1, 2, END_ARRIVED);
    /* black's arrival */
    game_setup(&g, "ccerl-2", "w " N8 " h13 i9 b " S9J " j5", "b w20,b19 20");
    play(&g, "j5-j4");
    assert_places(2, 1);
    check_fen_keeps_result(2, 1, END_ARRIVED);
    /* white's anti-block win */
    game_setup(&g, "ccerl-2", AB_WHITE, "w w0,b0 1");
    play(&g, "h13-h14");
    assert_places(1, 2);
    check_fen_keeps_result(1, 2, END_BLOCKED);
    assert_int_equal(fen_mismatches, 0);
}

/* ---- side points open, no exit deadline, no return-home rule ---- */

#define SP_W "w e14 f14 g14 e15 h11 i11 h12 i12 j12 "
#define SP_B " b m1 l2 m2 l8 m8 l9 m9 l10 m10 k10"

static void test_side_points_are_open(void **state)
{
    (void)state;
    /* e9 touches NW (d10) and SW (e8) */
    game_setup(&g, "ccerl-2", SP_W "e9" SP_B, "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "e9"), "e9-d10 e9-e10 e9-f9 e9-e8 e9-f8");
    game_setup(&g, "classic-2", SP_W "e9" SP_B, "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "e9"), "e9-e10 e9-f9 e9-f8");
    move_refused(&g.pos, "e9-e8", "illegal");
    /* ccerl-2: white goes into SW, steps on inside it, and stays */
    game_setup(&g, "ccerl-2", SP_W "e9" SP_B, "w w5,b5 6");
    play(&g, "e9-e8");
    assert_ongoing(SEAT_BLACK);
    play(&g, "k10-k11");
    play(&g, "e8-e7");
    assert_ongoing(SEAT_BLACK);
    assert_position(&g.pos, SP_W "e7 b m1 l2 m2 l8 m8 l9 m9 l10 m10 k11", "b w7,b6 7");
}

static void test_chain_may_end_in_a_side_point(void **state)
{
    (void)state;
    /* f11 over e11 lands on d11 (NW) and may stop there or jump on over e10 to f9 */
    game_setup(&g, "ccerl-2", "w e14 f14 g14 e15 f11 i9 i10 i11 j11 k11 b e11 e10 m1 l2 m2 j6 k6 l6 j7 k7",
               "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "f11"), "f11-e12 f11-f12 f11-d11 f11-g11 f11-f10 f11-g10 f11-d11-f9");
    play(&g, "f11-d11");
    assert_ongoing(SEAT_BLACK);
    assert_position(&g.pos, "w e14 f14 g14 e15 d11 i9 i10 i11 j11 k11 b e11 e10 m1 l2 m2 j6 k6 l6 j7 k7",
                    "b w6,b5 6");
}

static void test_return_home_late_is_legal_and_keeps_the_game_going(void **state)
{
    (void)state;
    /* white's 41st move brings k5 back into its home */
    game_setup(&g, "ccerl-2", SP_W "k5" SP_B, "w w40,b40 41");
    assert_string_equal(legal_moves(&g.pos, "k5"), "k5-j6 k5-k6 k5-j5 k5-l5 k5-k4 k5-l4");
    play(&g, "k5-k4");
    assert_ongoing(SEAT_BLACK);
    assert_int_equal(g.pos.status[SEAT_WHITE], ST_PLAYING);
    assert_position(&g.pos, SP_W "k4" SP_B, "b w41,b40 41");
    /* classic-2: eliminated */
    game_setup(&g, "classic-2", SP_W "k5" SP_B, "w w40,b40 41");
    play(&g, "k5-k4");
    assert_over(END_DEADLINE);
    assert_int_equal(g.pos.status[SEAT_WHITE], ST_ELIMINATED);
    assert_places(2, 1);
}

static void test_no_exit_deadline(void **state)
{
    (void)state;
    /* white's 30th move leaves m4 (free to step to m5) in its home */
    game_setup(&g, "ccerl-2", SP_W "m4" SP_B, "w w29,b29 30");
    play(&g, "h11-h10");
    assert_ongoing(SEAT_BLACK);
    assert_int_equal(g.pos.status[SEAT_WHITE], ST_PLAYING);
    game_setup(&g, "classic-2", SP_W "m4" SP_B, "w w29,b29 30");
    play(&g, "h11-h10");
    assert_over(END_DEADLINE);
    assert_places(2, 1);
}

/* ---- perft: the rating list's fixtures (CCERL.md section 4) ---- */

static void test_perft_fixture_hop_chain(void **state)
{
    (void)state;
    /* white at axial (0,0) = i9, black at (1,0) = j9 and (3,0) = l9 */
    build("ccerl-2", "i9", "j9 l9", SEAT_WHITE, 0, 0, 1);
    assert_string_equal(legal_moves(&g.pos, NULL), "i9-h10 i9-i10 i9-h9 i9-k9 i9-k9-m9 i9-i8 i9-j8");
    assert_int_equal(perft(&g.pos, 1, NULL), 7);
    assert_int_equal(perft(&g.pos, 2, NULL), 81);
}

/* Black's moves after each move of the side to move, the end rules left out: the
 * marbles moved on a copy and the turn handed to the other seat (move
 * generation alone, as the rating list's two-ply count reads it). */
static int64_t replies_without_end_rules(const Position *p)
{
    MoveList list = {0};
    gen_moves(p, &list, NULL);
    int64_t n = 0;
    for (int i = 0; i < list.n; i++) {
        Position c = *p;
        c.seat_bb[c.stm] = (c.seat_bb[c.stm] & ~bb_bit(list.m[i].from)) | bb_bit(list.m[i].to);
        c.stm = (int8_t)(c.stm == SEAT_WHITE ? SEAT_BLACK : SEAT_WHITE);
        pos_refresh(&c);
        n += gen_count(&c, NULL);
    }
    move_list_free(&list);
    return n;
}

static void test_perft_fixture_goal_lock(void **state)
{
    (void)state;
    /* white at (-1,5) = h14, in its target; black at (-2,5) = g14 */
    build("ccerl-2", "h14", "g14", SEAT_WHITE, 0, 0, 1);
    assert_string_equal(legal_moves(&g.pos, NULL), "h14-g15 h14-f14");
    assert_int_equal(perft(&g.pos, 1, NULL), 2);
    /* the rating list's 11: g14's moves after h14-g15 (6) and after h14-f14 (5) */
    assert_int_equal(replies_without_end_rules(&g.pos), 11);
    /* Stern's perft 2 is 0: with one marble, white has all its marbles in its
     * target after either move, which ends the game (with ten marbles "all" and
     * "ten" are the same; upstream's fixture counts ten) */
    assert_int_equal(perft(&g.pos, 2, NULL), 0);
    Position c = g.pos;
    const Move m = move_ok(&c, "h14-g15");
    pos_play(&c, &m);
    assert_int_equal(c.stm, -1);
    assert_int_equal(c.reason, END_ARRIVED);
    /* the hop-chain fixture by the same count */
    build("ccerl-2", "i9", "j9 l9", SEAT_WHITE, 0, 0, 1);
    assert_int_equal(replies_without_end_rules(&g.pos), 81);
}

static void test_perft_start(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "ccerl-2"), 0);
    static const int64_t want[4] = {14, 196, 4760, 115600};
    for (int d = 1; d <= 4; d++)
        assert_int_equal(perft(&g.pos, d, NULL), want[d - 1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variant_flags),
        cmocka_unit_test(test_anti_block_white_fills_its_target_on_move_1),
        cmocka_unit_test(test_anti_block_not_before_move_30_in_classic2),
        cmocka_unit_test(test_anti_block_white_wins_on_blacks_move),
        cmocka_unit_test(test_anti_block_black_fills_its_target),
        cmocka_unit_test(test_anti_block_black_wins_on_whites_move),
        cmocka_unit_test(test_anti_block_checked_for_white_first),
        cmocka_unit_test(test_white_arrival_draw_when_black_can_bring_its_tenth),
        cmocka_unit_test(test_white_arrival_draw_when_the_tenth_comes_in_by_a_jump),
        cmocka_unit_test(test_white_arrival_wins_when_the_tenth_cannot_reach),
        cmocka_unit_test(test_white_arrival_wins_when_black_has_only_eight_in),
        cmocka_unit_test(test_white_arrival_classic2_lets_black_reply),
        cmocka_unit_test(test_black_arrival_wins_at_once),
        cmocka_unit_test(test_both_arrived_is_a_draw),
        cmocka_unit_test(test_loaded_position_already_over),
        cmocka_unit_test(test_third_repetition_is_a_draw),
        cmocka_unit_test(test_limit_after_blacks_move_in_round_120),
        cmocka_unit_test(test_limit_not_before_the_240th_ply),
        cmocka_unit_test(test_repetition_on_the_last_ply_is_repetition),
        cmocka_unit_test(test_limit_yields_to_a_win_on_the_last_move),
        cmocka_unit_test(test_fen_needs_ten_marbles_a_seat),
        cmocka_unit_test(test_no_legal_move_loses_black),
        cmocka_unit_test(test_no_legal_move_loses_white),
        cmocka_unit_test(test_limit_comes_before_no_legal_move),
        cmocka_unit_test(test_finished_game_fen_keeps_the_result),
        cmocka_unit_test(test_side_points_are_open),
        cmocka_unit_test(test_chain_may_end_in_a_side_point),
        cmocka_unit_test(test_return_home_late_is_legal_and_keeps_the_game_going),
        cmocka_unit_test(test_no_exit_deadline),
        cmocka_unit_test(test_perft_fixture_hop_chain),
        cmocka_unit_test(test_perft_fixture_goal_lock),
        cmocka_unit_test(test_perft_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
