/*
 * test_datagen_records.c - stern-datagen's three- to six-seat records (format 3,
 * tools/datagen/records.h): the leaf of the search's line is the line played
 * while no seat arrives, and a record holds the hand-written standings of the
 * position and of that leaf, each equal to eval_standings there.
 */
#include "support/stern_test.h"

#include "eval.h"
#include "move_list.h"
#include "movegen.h"
#include "records.h"

#include <string.h>

static int16_t get16(const uint8_t *b) { return (int16_t)(b[0] | b[1] << 8); }

/* Each slot's standing in rec at `at` equals eval_standings of p. */
static void assert_standings(const uint8_t *rec, int at, const Position *p)
{
    int own[MAX_SEATS], rival[MAX_SEATS];
    eval_standings(p, own, rival, NULL);
    for (int i = 0; i < p->v->nseats; i++)
        assert_int_equal(get16(rec + at + 2 * i), own[p->v->seats[i]]);
}

/* The first legal move of p (in generation order). */
static Move first_move(const Position *p)
{
    MoveList *list = move_list_new();
    gen_moves(p, list, NULL);
    assert_true(list->n > 0);
    const Move m = list->m[0];
    move_list_delete(list);
    return m;
}

/* A line of five plies from the start: its leaf is the position after all
 * five, and the record holds the start's standings at 68 and the leaf's at 88. */
static void test_leaf_is_the_line_played(void **state)
{
    (void)state;
    Game g;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    Move pv[5];
    Position want = g.pos;
    for (int i = 0; i < 5; i++) {
        pv[i] = first_move(&want);
        pos_play(&want, &pv[i]);
    }
    Position leaf;
    assert_int_equal(records_line_leaf(&g.pos, pv, 5, &leaf), 5);
    assert_string_equal(fen_now(&leaf), fen_now(&want));
    assert_int_equal(records_line_leaf(&g.pos, pv, 0, &leaf), 0);
    assert_string_equal(fen_now(&leaf), fen_now(&g.pos));

    uint8_t rec[RECORDS_V3];
    records_line_leaf(&g.pos, pv, 5, &leaf);
    records_encode_v3(&g.pos, 123, &leaf, 5, 7, 9, rec);
    assert_int_equal(get16(rec + 62), 123);
    assert_int_equal(rec[86], 5);
    assert_int_equal(records_game_of(rec), 7);
    assert_standings(rec, 68, &g.pos);
    assert_standings(rec, 88, &want);
    /* the leaf's standings differ from the start's somewhere: the test can fail */
    assert_true(memcmp(rec + 68, rec + 88, 6) != 0);
}

/* A line whose first move arrives stops before it: the leaf is the position. */
static void test_leaf_stops_before_an_arrival(void **state)
{
    (void)state;
    Game g;
    const int place[MAX_SEATS] = {0};
    arrival_game(&g, "classic-3", SEAT_BLUE, place);
    MoveList *list = move_list_new();
    gen_moves(&g.pos, list, NULL);
    int arriving = -1, other = -1;
    for (int i = 0; i < list->n; i++) {
        Position q = g.pos;
        pos_play(&q, &list->m[i]);
        if (q.place[SEAT_BLUE] && arriving < 0)
            arriving = i;
        else if (!q.place[SEAT_BLUE] && other < 0)
            other = i;
    }
    assert_true(arriving >= 0 && other >= 0);
    Position leaf;
    const Move arrive = list->m[arriving];
    assert_int_equal(records_line_leaf(&g.pos, &arrive, 1, &leaf), 0);
    assert_string_equal(fen_now(&leaf), fen_now(&g.pos));
    /* a line that waits a ply first: the leaf is after that ply */
    const Move wait[2] = {list->m[other], list->m[other]};
    Position after = g.pos;
    pos_play(&after, &wait[0]);
    assert_int_equal(records_line_leaf(&g.pos, wait, 1, &leaf), 1);
    assert_string_equal(fen_now(&leaf), fen_now(&after));
    move_list_delete(list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leaf_is_the_line_played),
        cmocka_unit_test(test_leaf_stops_before_an_arrival),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
