/*
 * test_info_line.c - tools/lib/info_line: the fields of an engine's info line
 * (depth, seldepth, multipv, score cp or mate, every seat's scores, nodes,
 * time, pv), a mate as centi-moves, and lines that are not a search's.
 */
#include "support/stern_test.h"

#include "info.h"
#include "info_line.h"

#include <string.h>

static void test_every_field_of_a_three_seat_line(void **state)
{
    (void)state;
    InfoLine in;
    const char *line = "info depth 6 seldepth 9 multipv 2 score cp -135 scores w:-135 u:130 y:-130 nodes 21203 nps 178176 "
                       "hashfull 0 time 119 pv m4-l5 a13-c13-e11";
    assert_true(info_line_parse(line, &in));
    assert_int_equal(in.depth, 6);
    assert_int_equal(in.seldepth, 9);
    assert_int_equal(in.multipv, 2);
    assert_false(in.mate);
    assert_int_equal(in.score, -135);
    assert_int_equal(info_line_cp(&in), -135);
    assert_true(in.has[0] && in.has[2] && in.has[4] && !in.has[1] && !in.has[3] && !in.has[5]);
    assert_int_equal(in.scores[0], -135);
    assert_int_equal(in.scores[2], 130);
    assert_int_equal(in.scores[4], -130);
    assert_int_equal(in.nodes, 21203);
    assert_int_equal(in.time_ms, 119);
    assert_string_equal(in.pv, "m4-l5 a13-c13-e11");
}

/* nps from the time in microseconds: 29 nodes in 94 us are 308,510 a second,
 * not 29 (a line at time 0 printed its node count); no time measured, 0. */
static void test_nps_from_microseconds(void **state)
{
    (void)state;
    SearchReport r = {.kind = REPORT_LINE, .nodes = 29, .time_ms = 0, .time_us = 94};
    assert_int_equal(info_nps(&r), 308510);
    r.time_us = 0;
    assert_int_equal(info_nps(&r), 0);
    r.time_ms = 2;
    assert_int_equal(info_nps(&r), 14500);
}

static void test_a_mate_counts_its_moves(void **state)
{
    (void)state;
    InfoLine in;
    assert_true(info_line_parse("info depth 3 score mate 2 nodes 10 pv i13-h14", &in));
    assert_true(in.mate);
    assert_int_equal(in.multipv, 1);
    assert_int_equal(info_line_cp(&in), INFO_MATE_CP - 2);
    assert_true(info_line_parse("info depth 3 score mate -4 pv i13-h14", &in));
    assert_int_equal(info_line_cp(&in), -INFO_MATE_CP + 4);
}

static void test_lines_that_are_not_a_search(void **state)
{
    (void)state;
    InfoLine in;
    assert_false(info_line_parse("info string error position: bad", &in));
    assert_false(info_line_parse("bestmove m3-m4", &in));
    assert_false(info_line_parse("info depth 4 nodes 100", &in)); /* no score */
    assert_int_equal(in.depth, 4);
    assert_null(in.pv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field_of_a_three_seat_line),
        cmocka_unit_test(test_a_mate_counts_its_moves),
        cmocka_unit_test(test_nps_from_microseconds),
        cmocka_unit_test(test_lines_that_are_not_a_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
