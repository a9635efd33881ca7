/*
 * test_search.c - the two-seat search's leaf value and selective search, through
 * search_run on built positions: the depth-1 score counts the reply's best
 * progress (half of it, at eval.c's 35 cp a step), and the selective search
 * (null move, futility, late-move pruning) keeps a forced arrival and gives the
 * same result on every run with one thread.
 */
#include "support/stern_test.h"

#include "eval.h"
#include "movegen.h"
#include "search.h"
#include "tt.h"

#include <stdlib.h>

static Game g;

static void quiet(const char *line, void *ctx)
{
    (void)line;
    (void)ctx;
}

/* search_run on g at `depth` plies with one thread and a cleared table. */
static SearchResult search_depth(int depth)
{
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = depth;
    const SearchConfig cfg = {ALGO_AUTO, 1, 1, 0};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    tt_clear();
    search_clear();
    return search_run(&g, &lim, &cfg, &sig, quiet, NULL);
}

/* Largest tip-distance progress of any move of the side to move in p, in steps. */
static int best_progress(const Position *p, MoveList *list)
{
    gen_moves(p, list);
    const uint8_t *tip = p->v->tip_dist[p->stm];
    int best = 0;
    for (int i = 0; i < list->n; i++) {
        const int d = tip[list->m[i].from] - tip[list->m[i].to];
        if (d > best)
            best = d;
    }
    return best;
}

/* A middle game with the armies in contact, white to move. */
#define MIDDLE_WHITE "w j4 k4 l4 i6 j6 h7 i8 g9 h9 i10"
#define MIDDLE_BLACK "b e17 e16 f16 e15 f14 h12 g11 h11 f10 i12"

static void test_depth_one_score_subtracts_half_the_replys_best_progress(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", MIDDLE_BLACK " " MIDDLE_WHITE, "w w9,b9 10");
    MoveList *list = malloc(2 * sizeof *list);
    assert_non_null(list);
    gen_moves(&g.pos, &list[0]);
    int with = -SCORE_INF, without = -SCORE_INF;
    for (int i = 0; i < list[0].n; i++) {
        Position child = g.pos;
        pos_play(&child, &list[0].m[i]);
        const int e = eval_for(&child, SEAT_WHITE);
        const int v = e - best_progress(&child, &list[1]) * 35 / 2;
        with = v > with ? v : with;
        without = e > without ? e : without;
    }
    free(list);
    assert_true(with != without); /* the reply's jumps matter here */
    assert_int_equal(search_depth(1).score, with);
}

static void test_selective_search_keeps_a_forced_arrival(void **state)
{
    (void)state;
    /* White arrives in three own moves (i13-g13-g15, i12-i13, i13-h14: five plies)
     * past a black marble at h13, in contact, so the race solver stays out and the
     * search itself must find it through its null moves and pruning. */
    game_setup(&g, "classic-2",
               "w e17 e16 f16 e15 f15 e14 f14 g14 i13 i12 "
               "b j4 k4 l4 m4 k3 l3 m3 l2 m2 h13",
               "w w40,b40 41");
    const SearchResult r = search_depth(8);
    assert_true(r.has_best);
    assert_int_equal(r.score, SCORE_MATE - 5);
}

static void test_selective_search_repeats_exactly_with_one_thread(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", MIDDLE_BLACK " " MIDDLE_WHITE, "w w9,b9 10");
    const SearchResult a = search_depth(7), b = search_depth(7);
    assert_true(a.nodes > 0);
    assert_int_equal(a.nodes, b.nodes);
    assert_int_equal(a.score, b.score);
    assert_int_equal(a.best.from, b.best.from);
    assert_int_equal(a.best.to, b.best.to);
}

int main(void)
{
    board_init();
    if (tt_resize(16))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_one_score_subtracts_half_the_replys_best_progress),
        cmocka_unit_test(test_selective_search_keeps_a_forced_arrival),
        cmocka_unit_test(test_selective_search_repeats_exactly_with_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
