/*
 * test_notation.c - moves as text (RULES.md sections 3 and 4): hole names, the
 * canonical printed path, case-insensitive input, the from-to shorthand, full
 * paths, refusals with a message, and the order of move lists.
 */
#include "support/stern_test.h"

#include <stdio.h>
#include <string.h>

static Game g;

#define W_N9 "e14 f14 g14 h14 e15 f15 g15 e16 f16"
#define CLASSIC2_START_MOVES                                                                                \
    "j4-i5 j4-j5 k4-j5 k4-k5 l4-k5 l4-l5 m4-l5 m4-m5 k3-i5 k3-k5 l3-j5 l3-l5 m3-k5 m3-m5"

static void test_hole_names_round_trip_for_all_121_holes(void **state)
{
    (void)state;
    board_init();
    /* rows 17 down to 1 with their first and last hole (RULES.md section 1) */
    static const struct { int row; char first, last; } rows[17] = {
        {17, 'e', 'e'}, {16, 'e', 'f'}, {15, 'e', 'g'}, {14, 'e', 'h'}, {13, 'a', 'm'}, {12, 'b', 'm'},
        {11, 'c', 'm'}, {10, 'd', 'm'}, {9, 'e', 'm'},  {8, 'e', 'n'},  {7, 'e', 'o'},  {6, 'e', 'p'},
        {5, 'e', 'q'},  {4, 'j', 'm'},  {3, 'k', 'm'},  {2, 'l', 'm'},  {1, 'm', 'm'},
    };
    int h = 0;
    for (int i = 0; i < 17; i++)
        for (char f = rows[i].first; f <= rows[i].last; f++, h++) {
            char want[8], name[8], upper[8];
            snprintf(want, sizeof want, "%c%d", f, rows[i].row);
            assert_string_equal(board_hole_name(h, name), want);
            snprintf(upper, sizeof upper, "%c%d", f - 'a' + 'A', rows[i].row);
            const char *s = name;
            assert_int_equal(board_parse_hole(&s), h);
            assert_ptr_equal(s, name + strlen(name));
            s = upper;
            assert_int_equal(board_parse_hole(&s), h);
            assert_ptr_equal(s, upper + strlen(upper));
        }
    assert_int_equal(h, NUM_HOLES);
    assert_int_equal(hole("e17"), 0);
    assert_int_equal(hole("i9"), 60);
    assert_int_equal(hole("m1"), 120);
    /* a name is read up to where it ends */
    const char *s = "m13-x";
    assert_int_equal(board_parse_hole(&s), hole("m13"));
    assert_string_equal(s, "-x");
    /* names of no hole leave the text where it was */
    static const char *const bad[] = {"d9", "a1", "q17", "a0", "a18", "r5", "m01", "m", "9", "", "-m1", "e170"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *t = bad[i];
        if (board_parse_hole(&t) != -1)
            fail_msg("'%s' parsed as a hole", bad[i]);
        assert_ptr_equal(t, bad[i]);
    }
}

static void test_start_moves_printed_in_list_order(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    assert_string_equal(legal_moves(&g.pos, NULL), CLASSIC2_START_MOVES);
    play(&g, "m3-m5");
    /* black's moves mirror white's through the centre */
    assert_string_equal(legal_moves(&g.pos, NULL), "e15-e13 e15-g13 f15-f13 f15-h13 g15-g13 g15-i13 e14-e13 "
                                                   "e14-f13 f14-f13 f14-g13 g14-g13 g14-h13 h14-h13 h14-i13");
}

static void test_rules_example_chain_m1_m3_k5(void **state)
{
    (void)state;
    /* RULES.md section 4: m1 over m2 to m3, then over l4 to k5 */
    game_setup(&g, "classic-2", "w m1 m2 l4 e14 f14 g14 h14 e15 f15 g15 b e17 e16 f16 j4 k4 k3 l3 i7 j7 k7",
               "w w5,b5 6");
    assert_string_equal(legal_moves(&g.pos, "m1"), "m1-m3-k5 m1-m3 m1-l2");
    const Move full = move_ok(&g.pos, "m1-m3-k5");
    char text[MOVE_STR_MAX];
    assert_string_equal(move_str(&g.pos, &full, text), "m1-m3-k5");
    const Move shorthand = move_ok(&g.pos, "m1-k5");
    assert_int_equal(shorthand.from, hole("m1"));
    assert_int_equal(shorthand.to, hole("k5"));
    assert_string_equal(move_str(&g.pos, &shorthand, text), "m1-m3-k5");
    uint8_t path[MAX_PATH];
    assert_int_equal(move_path(&g.pos, &full, path), 3);
    assert_int_equal(path[0], hole("m1"));
    assert_int_equal(path[1], hole("m3"));
    assert_int_equal(path[2], hole("k5"));
}

static void test_input_is_case_insensitive(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w m1 m2 l4 e14 f14 g14 h14 e15 f15 g15 b e17 e16 f16 j4 k4 k3 l3 i7 j7 k7",
               "w w5,b5 6");
    const Move lower = move_ok(&g.pos, "m1-m3");
    const Move upper = move_ok(&g.pos, "M1-M3");
    assert_int_equal(upper.from, lower.from);
    assert_int_equal(upper.to, lower.to);
    assert_int_equal(lower.to, hole("m3"));
    const Move mixed = move_ok(&g.pos, "M1-m3-K5");
    assert_int_equal(mixed.to, hole("k5"));
    const Move step = move_ok(&g.pos, "M1-L2");
    char text[MOVE_STR_MAX];
    assert_string_equal(move_str(&g.pos, &step, text), "m1-l2");
}

static void test_shortest_path_printed_for_any_input_path(void **state)
{
    (void)state;
    /* j9, j10, i10: i11 is one jump from i9, or two (over j9 to k9, over j10) */
    game_setup(&g, "classic-2", "w " W_N9 " i9 b e17 j9 j10 i10 l2 m2 k3 l3 m3 j4", "w w5,b5 6");
    const Move direct = move_ok(&g.pos, "i9-i11");
    const Move around = move_ok(&g.pos, "i9-k9-i11");
    assert_int_equal(around.from, direct.from);
    assert_int_equal(around.to, direct.to);
    char text[MOVE_STR_MAX];
    assert_string_equal(move_str(&g.pos, &around, text), "i9-i11");
}

static void test_shortest_path_ties_go_to_first_direction(void **state)
{
    (void)state;
    /* k11 is two jumps away both over j9 then k10 and over i10 then j11; the
     * direction (q+1,r) comes before (q,r+1) */
    game_setup(&g, "classic-2", "w " W_N9 " i9 b e17 j9 i10 k10 j11 l2 m2 k3 l3 m3", "w w5,b5 6");
    const Move other = move_ok(&g.pos, "i9-i11-k11");
    char text[MOVE_STR_MAX];
    assert_string_equal(move_str(&g.pos, &other, text), "i9-k9-k11");
    const Move shorthand = move_ok(&g.pos, "i9-k11");
    assert_int_equal(shorthand.to, other.to);
}

static void test_shortest_path_ties_go_to_nearer_landing(void **state)
{
    (void)state;
    /* symmetric jumps: from i9 east to k9 (over j9) or to m9 (over j9 . l9); both
     * reach k11 with one more jump; the nearer landing k9 comes first */
    game_setup(&g, "symmetric-2", "w " W_N9 " i9 b e17 j9 l9 k10 l10 l2 m2 k3 l3 m3", "w w5,b5 6");
    const Move far = move_ok(&g.pos, "i9-m9-k11");
    char text[MOVE_STR_MAX];
    assert_string_equal(move_str(&g.pos, &far, text), "i9-k9-k11");
    assert_string_equal(move_str(&g.pos, &(Move){.from = (uint8_t)hole("i9"), .to = (uint8_t)hole("m9"), .swap = NO_HOLE},
                                 text),
                        "i9-m9");
}

static void test_malformed_text_refused(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    move_refused(&g.pos, "m1", "two holes");
    move_refused(&g.pos, "m3", "two holes");
    move_refused(&g.pos, "m1-", "hole name");
    move_refused(&g.pos, "z9-a1", "hole name");
    move_refused(&g.pos, "m1--m2", "hole name");
    move_refused(&g.pos, "m1-m2-", "hole name");
    move_refused(&g.pos, "a1-a2", "hole name");
    move_refused(&g.pos, "", "hole name");
    move_refused(&g.pos, "m3 m5", "'-'");
    move_refused(&g.pos, "m3-m5x", "'-'");
    move_refused(&g.pos, "m3_m5", "'-'");
}

static void test_illegal_moves_refused(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    move_refused(&g.pos, "e17-e16", "no marble of the side to move"); /* black's marble */
    move_refused(&g.pos, "i9-i10", "no marble of the side to move");  /* empty hole */
    /* each message names the fault */
    move_refused(&g.pos, "m1-m2", "m2 is occupied");                  /* onto a marble */
    move_refused(&g.pos, "m4-n5", "m4 and n5 are not on one line");
    move_refused(&g.pos, "j4-j6", "no piece between j4 and j6");      /* neither step nor jump */
    move_refused(&g.pos, "m1-k5", "m1 and k5 are not on one line");
    move_refused(&g.pos, "m1-k3-k5", "hop 1 (m1-k3) is not a jump: its landing k3 is occupied");
    move_refused(&g.pos, "m3-m5-m7", "hop 2 (m5-m7) is not a jump: no piece between"); /* m6 is empty */
    move_refused(&g.pos, "j4-j5-j6", "hop 1 (j4-j5) is not a jump: it is a step");      /* a step then a step */
    move_refused(&g.pos, "m4-m5-m6", "hop 1");
    move_refused(&g.pos, "l3-j5-j7", "hop 2 (j5-j7) is not a jump: no piece between");
    Game later;
    assert_int_equal(game_new(&later, "classic-2"), 0);
    play(&later, "m4-m5");
    play(&later, "e14-e13");
    move_refused(&later.pos, "m5-n5", "it ends on n5, in a point that is neither its home nor its target");
    move_refused(&g.pos, "m3-m5-m3", "lands twice");
    /* every move of the list is accepted as printed */
    static MoveList list;
    gen_moves(&g.pos, &list, NULL);
    assert_int_equal(list.n, 14);
}

static void test_ambiguous_shorthand_asks_for_full_path(void **state)
{
    (void)state;
    /* masters-2, black has made 30 moves: white's f12 can swap with black's h14
     * (in white's target) by a last jump from h12 or from j12 */
    game_setup(&g, "masters-2", "w e14 f14 g14 e15 f15 g15 e16 f16 e17 f12 b h14 g12 h13 i12 i13 m1 l2 m2 k3 l3",
               "w w30,b30 31");
    assert_string_equal(legal_moves(&g.pos, "f12"),
                        "f12-h12-h14 f12-h12-j12-h14 f12-e13 f12-f13 f12-e12 f12-h12 f12-h12-j12 f12-f11 f12-g11");
    move_refused(&g.pos, "f12-h14", "ambiguous");
    move_refused(&g.pos, "f12-h14", "full path");
    const Move a = move_ok(&g.pos, "f12-h12-h14");
    const Move b = move_ok(&g.pos, "F12-H12-J12-H14");
    assert_int_equal(a.to, hole("h14"));
    assert_int_equal(a.swap, hole("h12"));
    assert_int_equal(b.to, hole("h14"));
    assert_int_equal(b.swap, hole("j12"));
    /* the shorthand for a single chain still works */
    const Move c = move_ok(&g.pos, "f12-j12");
    assert_int_equal(c.swap, NO_HOLE);
}

static void test_capture_mode_needs_full_path(void **state)
{
    (void)state;
    game_setup(&g, "capture-2", "x h9 i9 k9", "w w5c30,b5c27 6");
    assert_string_equal(legal_moves(&g.pos, NULL), "h9-j9 h9-j9-l9 i9-g9");
    move_refused(&g.pos, "h9-l9", "full path");
    const Move m = move_ok(&g.pos, "H9-J9-L9");
    assert_int_equal(m.ncapt, 2);
    assert_true(m.captured == holes("i9 k9"));
    const Move one = move_ok(&g.pos, "i9-g9");
    assert_int_equal(one.ncapt, 1);
    assert_true(one.captured == holes("h9"));
}

/* Asserts that list (sorted, texts alongside) is ordered by start hole, end hole,
 * then text. */
static void assert_list_order(const MoveList *list, char (*texts)[MOVE_STR_MAX])
{
    for (int i = 1; i < list->n; i++) {
        const Move *a = &list->m[i - 1], *b = &list->m[i];
        const bool ok = a->from < b->from || (a->from == b->from && a->to < b->to) ||
                        (a->from == b->from && a->to == b->to && strcmp(texts[i - 1], texts[i]) < 0);
        if (!ok)
            fail_msg("move %d '%s' before '%s' is out of order", i, texts[i - 1], texts[i]);
    }
}

static void test_move_list_sort_orders_by_start_end_then_path(void **state)
{
    (void)state;
    static MoveList list;
    static char texts[64][MOVE_STR_MAX];
    assert_int_equal(game_new(&g, "classic-2"), 0);
    gen_moves(&g.pos, &list, NULL);
    /* reverse the list: sorting must not depend on the order it is given */
    for (int i = 0, j = list.n - 1; i < j; i++, j--) {
        const Move t = list.m[i];
        list.m[i] = list.m[j];
        list.m[j] = t;
    }
    move_list_sort(&g.pos, &list, texts);
    assert_int_equal(list.n, 14);
    char joined[1024] = "";
    for (int i = 0; i < list.n; i++) {
        if (i)
            strcat(joined, " ");
        strcat(joined, texts[i]);
    }
    assert_string_equal(joined, CLASSIC2_START_MOVES);
    /* capture mode: chains with the same start and end (different captures) are
     * ordered by their text; i10-g10-i8-i10 and i10-i8-g10-i10 are one move */
    game_setup(&g, "capture-2", "x h9 i9 h10 i10", "w w5c28,b5c28 6");
    assert_string_equal(legal_moves(&g.pos, NULL),
                        "h10-j10 h10-h8 h10-j8 i10-g10 i10-i8-g10 i10-g10-i8-i10 i10-g10-i8 i10-i8 "
                        "h9-h11 h9-j9-h11 h9-j9-h11-h9 h9-h11-j9 h9-j9 i9-g11 i9-i11 i9-g9");
    gen_moves(&g.pos, &list, NULL);
    move_list_sort(&g.pos, &list, texts);
    assert_list_order(&list, texts);
    for (int i = 0; i < list.n; i++) {
        const Move m = move_ok(&g.pos, texts[i]);
        assert_int_equal(m.from, list.m[i].from);
        assert_int_equal(m.to, list.m[i].to);
        assert_true(m.captured == list.m[i].captured);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hole_names_round_trip_for_all_121_holes),
        cmocka_unit_test(test_start_moves_printed_in_list_order),
        cmocka_unit_test(test_rules_example_chain_m1_m3_k5),
        cmocka_unit_test(test_input_is_case_insensitive),
        cmocka_unit_test(test_shortest_path_printed_for_any_input_path),
        cmocka_unit_test(test_shortest_path_ties_go_to_first_direction),
        cmocka_unit_test(test_shortest_path_ties_go_to_nearer_landing),
        cmocka_unit_test(test_malformed_text_refused),
        cmocka_unit_test(test_illegal_moves_refused),
        cmocka_unit_test(test_ambiguous_shorthand_asks_for_full_path),
        cmocka_unit_test(test_capture_mode_needs_full_path),
        cmocka_unit_test(test_move_list_sort_orders_by_start_end_then_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
