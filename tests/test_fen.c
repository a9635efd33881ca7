/*
 * test_fen.c - the position string of PROTOCOL.md ("Position string (FEN)"):
 * start positions and later positions written back byte for byte, finished
 * games, team entries, and every refusal with a message naming the problem and
 * the output position left untouched.
 */
#include "support/stern_test.h"

#include <stdio.h>
#include <string.h>

static Game g;

#define CLASSIC2_START "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1"
#define CLASSIC6_START                                                                                   \
    "b/bb/bbb/bbbb/uuuu5yyyy/uuu6yyy/uu7yy/u8y/9/r8g/rr7gg/rrr6ggg/rrrr5gggg/wwww/www/ww/w w "           \
    "w0,r0,u0,b0,y0,g0 1"
#define CAPTURE_BOARD "1/2/3/4/4xxxxx4/3xxxxxx3/2xxxxxxx2/1xxxxxxxx1/xxxx1xxxx/1xxxxxxxx1/2xxxxxxx2/3xxxxxx3/4xxxxx4/4/3/2/1"
#define CLASSIC4_BOARD "b/bb/bbb/bbbb/9yyyy/9yyy/9yy/9y/9/r9/rr9/rrr9/rrrr9/wwww/www/ww/w"

/* Every variant's start position as fen_write gives it (PROTOCOL.md lists
 * classic-2, classic-6 and capture-2; the others follow RULES.md section 2). */
static const char *const START[][2] = {
    {"classic-2", CLASSIC2_START},
    {"classic-3", "1/2/3/4/uuuu5yyyy/uuu6yyy/uu7yy/u8y/9/10/11/12/13/wwww/www/ww/w w w0,u0,y0 1"},
    {"classic-4", CLASSIC4_BOARD " w w0,r0,b0,y0 1"},
    {"classic-6", CLASSIC6_START},
    {"longjumps-2", CLASSIC2_START},
    {"symmetric-6", CLASSIC6_START},
    {"fifteen-2", "b/bb/bbb/bbbb/4bbbbb4/12/11/10/9/10/11/12/4wwwww4/wwww/www/ww/w w w0,b0 1"},
    {"fifteen-3", "1/2/3/4/uuuuu3yyyyy/uuuu4yyyy/uuu5yyy/uu6yy/u7y/10/11/12/4wwwww4/wwww/www/ww/w w w0,u0,y0 1"},
    {"pairs-4", CLASSIC4_BOARD " w w0,r0,b0,y0 1"},
    {"pairs-6", CLASSIC6_START},
    {"masters-2", CLASSIC2_START},
    {"capture-2", CAPTURE_BOARD " w w0c0,b0c0 1"},
    {"capture-5", CAPTURE_BOARD " w w0c0,r0c0,u0c0,b0c0,y0c0 1"},
    {"capture-bigjump-6", CAPTURE_BOARD " w w0c0,r0c0,u0c0,b0c0,y0c0,g0c0 1"},
};

/* Parses fen for g's variant, asserts success and that it writes back unchanged. */
static void assert_round_trip(const char *fen)
{
    char err[256] = "";
    Position p;
    const int rc = fen_parse(&p, g.v, fen, err, sizeof err);
    if (rc)
        fail_msg("'%s' refused: %s", fen, err);
    assert_string_equal(fen_now(&p), fen);
}

static void test_start_positions_write_and_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof START / sizeof START[0]; i++) {
        assert_int_equal(game_new(&g, START[i][0]), 0);
        assert_string_equal(fen_now(&g.pos), START[i][1]);
        assert_round_trip(START[i][1]);
        /* the parsed start is the start: same key, same side to move, round 1 */
        Position p;
        char err[256];
        assert_int_equal(fen_parse(&p, g.v, START[i][1], err, sizeof err), 0);
        assert_true(p.key == g.pos.key);
        assert_int_equal(p.stm, SEAT_WHITE);
        assert_int_equal(p.round, 1);
    }
}

static void test_position_after_moves_written_exactly(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    play(&g, "m3-m5");
    play(&g, "e15-e13");
    const char *want = "b/bb/1bb/bbbb/4b8/12/11/10/9/10/11/12/8w4/wwww/ww1/ww/w w w1,b1 2";
    assert_string_equal(fen_now(&g.pos), want);
    assert_round_trip(want);
    Position p;
    char err[256];
    assert_int_equal(fen_parse(&p, g.v, want, err, sizeof err), 0);
    assert_true(p.key == g.pos.key);
}

static void test_six_player_game_round_trips_after_every_move(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-6"), 0);
    static const char *const moves[] = {"m3-m5", "f7-g7", "c12-e10", "e15-e13", "l12-j12", "n8-m8", "m5-m6"};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        play(&g, moves[i]);
        char fen[FEN_MAX];
        fen_write(&g.pos, fen);
        Position p;
        char err[256];
        assert_int_equal(fen_parse(&p, g.v, fen, err, sizeof err), 0);
        assert_string_equal(fen_now(&p), fen);
        assert_true(p.key == g.pos.key);
    }
    assert_string_equal(fen_now(&g.pos), "b/bb/1bb/bbbb/uuuub4yyyy/u1u5yy1y/uu7yy/uu7y/9/r7g1/r1r6gg/rrr5wggg/"
                                         "rrrr5gggg/wwww/ww1/ww/w r w2,r1,u1,b1,y1,g1 2");
}

static void test_finished_game_fens_round_trip(void **state)
{
    (void)state;
    char fen[FEN_MAX], err[256];
    Position p;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    /* a draw: both arrived in place 1 */
    fen_of(fen, "w e14 f14 g14 h14 e15 f15 g15 e16 f16 e17 b m1 l2 m2 k3 l3 m3 j4 k4 l4 m4", "- w21=1,b21=1 21");
    assert_round_trip(fen);
    assert_int_equal(fen_parse(&p, g.v, fen, err, sizeof err), 0);
    assert_int_equal(p.stm, -1);
    assert_int_equal(p.reason, END_ARRIVED);
    assert_int_equal(p.place[SEAT_WHITE], 1);
    assert_int_equal(p.place[SEAT_BLACK], 1);
    /* white eliminated in a 2-player game: its marbles stay, black ranked first */
    fen_of(fen, "w e14 f14 g14 h14 e15 f15 g15 e16 m1 i10 b e17 k3 l3 m3 j4 k4 l4 m4 h7 k7", "- w30!2,b29 30");
    assert_round_trip(fen);
    assert_int_equal(fen_parse(&p, g.v, fen, err, sizeof err), 0);
    assert_int_equal(p.reason, END_DEADLINE);
    assert_int_equal(p.status[SEAT_WHITE], ST_ELIMINATED);
    assert_int_equal(p.place[SEAT_WHITE], 2);
    assert_int_equal(p.status[SEAT_BLACK], ST_PLAYING);
    assert_int_equal(p.place[SEAT_BLACK], 1);
    /* a limit end: no suffixes, places by ranking (4 marbles in target against 3) */
    fen_of(fen, "w e14 f14 g14 h14 i10 g9 g10 h8 f10 j11 b m1 l2 m2 j6 k6 l6 j7 k7 l7 k9", "- w150,b150 150");
    assert_round_trip(fen);
    assert_int_equal(fen_parse(&p, g.v, fen, err, sizeof err), 0);
    assert_int_equal(p.reason, END_LIMIT);
    assert_int_equal(p.place[SEAT_WHITE], 1);
    assert_int_equal(p.place[SEAT_BLACK], 2);
    /* 3 players: an eliminated seat has no marbles left */
    assert_int_equal(game_new(&g, "classic-3"), 0);
    fen_of(fen, "w " "e14 f14 g14 h14 e15 f15 g15 e16 f16 e17 u n5 o5 p5 q5 n6 o6 p6 n7 o7 n8", "- w11=1,u11=2,y30!3 31");
    assert_round_trip(fen);
    assert_int_equal(fen_parse(&p, g.v, fen, err, sizeof err), 0);
    assert_int_equal(p.status[SEAT_YELLOW], ST_ELIMINATED);
    assert_int_equal(p.place[SEAT_YELLOW], 3);
    assert_int_equal(p.seat_bb[SEAT_YELLOW], 0);
}

static void test_team_member_arrived_without_place(void **state)
{
    (void)state;
    char fen[FEN_MAX], err[256];
    Position p;
    assert_int_equal(game_new(&g, "pairs-4"), 0);
    fen_of(fen,
           "w e14 f14 g14 h14 e15 f15 g15 e16 f16 e17 r j13 k12 k13 l11 l12 h9 h10 f10 g10 g9"
           " b m1 l2 m2 k3 l3 m3 k4 l4 m4 i5 y e5 f5 g5 h5 e6 k8 l8 k7 l7 j8",
           "r w21=,r20,b20,y20 21");
    assert_round_trip(fen);
    assert_int_equal(fen_parse(&p, g.v, fen, err, sizeof err), 0);
    assert_int_equal(p.status[SEAT_WHITE], ST_ARRIVED);
    assert_int_equal(p.place[SEAT_WHITE], 0);
    assert_int_equal(p.stm, SEAT_RED);
    /* outside team games '=' needs its place */
    assert_int_equal(game_new(&g, "classic-4"), 0);
    memset(err, 0, sizeof err);
    assert_int_equal(fen_parse(&p, g.v, fen, err, sizeof err), -1);
    assert_non_null(strstr(err, "place"));
}

/* Asserts that fen is refused for `variant` with a message containing `word`,
 * and that the output position keeps every byte it had. */
static void assert_refused(const char *variant, const char *fen, const char *word)
{
    assert_int_equal(game_new(&g, variant), 0);
    Position p, before;
    memset(&p, 0xA5, sizeof p); /* any content: it must survive the refusal */
    p.v = g.v;
    memcpy(&before, &p, sizeof p);
    char err[256] = "";
    if (fen_parse(&p, g.v, fen, err, sizeof err) == 0)
        fail_msg("'%s' accepted for %s, expected a refusal", fen, variant);
    if (!strstr(err, word))
        fail_msg("'%s' refused with '%s', expected a message containing '%s'", fen, err, word);
    assert_memory_equal(&p, &before, sizeof p);
}

static void test_refuses_wrong_number_of_fields(void **state)
{
    (void)state;
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0", "4 fields");
    assert_refused("classic-2", CLASSIC2_START " 7", "4 fields");
    assert_refused("classic-2", "", "4 fields");
}

static void test_refuses_bad_row_length(void **state)
{
    (void)state;
    /* row 13 has 12 holes */
    assert_refused("classic-2", "b/bb/bbb/bbbb/12/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1", "row 13");
    /* row 16 has 3 */
    assert_refused("classic-2", "b/bbb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1", "row 16");
    /* a run of 14 empty holes */
    assert_refused("classic-2", "b/bb/bbb/bbbb/14/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1", "row 13");
    /* 16 rows */
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww w w0,b0 1", "rows");
    /* 18 rows */
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w/1 w w0,b0 1", "rows");
}

static void test_refuses_unknown_piece_letter(void **state)
{
    (void)state;
    assert_refused("classic-2", "z/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1", "unknown piece 'z'");
}

static void test_refuses_piece_of_seat_not_in_variant(void **state)
{
    (void)state;
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/r12/wwww/www/ww/w w w0,b0 1", "'r'");
    /* capture mode has no seat marbles */
    assert_refused("capture-2", "1/2/3/4/4xxxxx4/3xxxxxx3/2xxxxxxx2/1xxxxxxxx1/xxxxwxxxx/1xxxxxxxx1/2xxxxxxx2/3xxxxxx3/"
                                "4xxxxx4/4/3/2/1 w w0c0,b0c0 1",
                   "'w'");
}

static void test_refuses_neutral_piece_in_race_game(void **state)
{
    (void)state;
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/4x4/10/11/12/13/wwww/www/ww/w w w0,b0 1", "'x'");
}

/* `-` to move says the game is over; when nothing in the FEN ends it (no seat
 * placed to end it, the round limit not reached, a seat able to move) it is
 * read as a repetition, which takes moves: fen_end_unexplained tells a start
 * with `-` (which the protocol refuses; it loaded as over by repetition) from
 * a game that can have ended so. */
static void test_an_end_no_game_can_reach_is_told(void **state)
{
    (void)state;
    Position p;
    char err[512];
    const Variant *v = variant_find("classic-2");
    assert_int_equal(fen_parse(&p, v, "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w - w0,b0 1", err,
                               sizeof err), 0);
    assert_true(fen_end_unexplained(&p));
    assert_int_equal(fen_parse(&p, v, "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w - w3,b3 4", err,
                               sizeof err), 0);
    assert_true(fen_end_unexplained(&p));
    assert_int_equal(fen_parse(&p, v, "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w - w4,b4 5", err,
                               sizeof err), 0);
    assert_true(pos_over(&p));
    assert_int_equal(p.reason, END_REPETITION);
    assert_false(fen_end_unexplained(&p));
    assert_int_equal(fen_parse(&p, v, "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1", err,
                               sizeof err), 0);
    assert_false(fen_end_unexplained(&p));
}

static void test_refuses_wrong_marble_count(void **state)
{
    (void)state;
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/1 w w0,b0 1", "marbles");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/4w4/10/11/12/13/wwww/www/ww/w w w0,b0 1", "marbles");
    /* an eliminated seat of a 3-player game keeps no marbles */
    assert_refused("classic-3", "1/2/3/4/uuuu5yyyy/uuu6yyy/uu7yy/u8y/9/10/11/12/13/wwww/www/ww/w w w30!3,u0,y0 1",
                   "marbles");
    /* capture mode: pieces plus captures must make 60 */
    assert_refused("capture-2", CAPTURE_BOARD " w w0c1,b0c0 1", "60");
}

static void test_refuses_wrong_seats(void **state)
{
    (void)state;
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w b0,w0 1", "must start with");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0 1", "seats");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0,r0 1", "seats");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w,b0 1", "moves");
    assert_refused("capture-2", CAPTURE_BOARD " w w0,b0 1", "c<captures>");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0=3,b0 1", "place");
}

static void test_refuses_bad_side_to_move(void **state)
{
    (void)state;
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w r w0,b0 1", "side to move");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w wb w0,b0 1", "side to move");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w z w0,b0 1", "side to move");
    /* the side to move has arrived */
    char fen[FEN_MAX];
    fen_of(fen, "w e14 f14 g14 h14 e15 f15 g15 e16 f16 e17 u " "n5 o5 p5 q5 n6 o6 p6 n7 o7 m8 y e5 f5 g5 h5 e6 f6 g6 e7 f7 k9",
           "w w11=1,u10,y10 11");
    assert_refused("classic-3", fen, "out of play");
}

static void test_refuses_bad_round(void **state)
{
    (void)state;
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 0", "round");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 151", "round");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 x", "round");
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 12a", "round");
}

static void test_refuses_counts_too_large_to_store(void **state)
{
    (void)state;
    /* Position keeps counters in 16 bits: a FEN it cannot hold must be refused,
     * not stored wrapped around (PROTOCOL.md: bad input never changes state) */
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w40000,b0 1", "moves");
    assert_refused("capture-2", CAPTURE_BOARD " w w0c0,b0c0 40000", "round");
    /* a seat moves once a round: 32767 moves in round 1 cannot be, and would wrap
     * to -32768 on the next move */
    assert_refused("classic-2", "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w32767,b0 1",
                   "at most one a round");
    assert_refused("capture-2", CAPTURE_BOARD " b w3c0,b2c0 2", "at most one a round");
    /* capture mode has no round limit, but 60 more moves (one piece each at
     * least) must fit in 16 bits */
    assert_refused("capture-2", CAPTURE_BOARD " w w32707c0,b32707c0 32708", "round");
    /* the largest counts it can hold come back as written */
    assert_int_equal(game_new(&g, "classic-2"), 0);
    assert_round_trip("b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w149,b149 150");
    assert_int_equal(game_new(&g, "capture-2"), 0);
    assert_round_trip(CAPTURE_BOARD " w w32706c0,b32706c0 32707");
}

static void test_refuses_unreachable_statuses(void **state)
{
    (void)state;
    const char *const start = "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w";
    const char *const swapped = "w/ww/www/wwww/13/12/11/10/9/10/11/12/13/bbbb/bbb/bb/b";
    char fen[256];
    /* an eliminated seat takes the worst place still free, never the first */
    snprintf(fen, sizeof fen, "%s - w0!1,b0 1", start);
    assert_refused("classic-2", fen, "first place");
    /* an elimination ends a two-seat game at once */
    snprintf(fen, sizeof fen, "%s b w0!2,b0 1", start);
    assert_refused("classic-2", fen, "side to move must be '-'");
    /* the same statuses as they can arise are taken */
    assert_int_equal(game_new(&g, "classic-2"), 0);
    snprintf(fen, sizeof fen, "%s - w0!2,b0=1 1", start);
    assert_round_trip(fen);
    snprintf(fen, sizeof fen, "%s - w40=1,b40=1 41", swapped);
    assert_round_trip(fen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_positions_write_and_round_trip),
        cmocka_unit_test(test_position_after_moves_written_exactly),
        cmocka_unit_test(test_six_player_game_round_trips_after_every_move),
        cmocka_unit_test(test_finished_game_fens_round_trip),
        cmocka_unit_test(test_team_member_arrived_without_place),
        cmocka_unit_test(test_refuses_wrong_number_of_fields),
        cmocka_unit_test(test_refuses_bad_row_length),
        cmocka_unit_test(test_refuses_unknown_piece_letter),
        cmocka_unit_test(test_refuses_piece_of_seat_not_in_variant),
        cmocka_unit_test(test_refuses_neutral_piece_in_race_game),
        cmocka_unit_test(test_refuses_wrong_marble_count),
        cmocka_unit_test(test_an_end_no_game_can_reach_is_told),
        cmocka_unit_test(test_refuses_wrong_seats),
        cmocka_unit_test(test_refuses_bad_side_to_move),
        cmocka_unit_test(test_refuses_bad_round),
        cmocka_unit_test(test_refuses_counts_too_large_to_store),
        cmocka_unit_test(test_refuses_unreachable_statuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
