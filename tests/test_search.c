/*
 * test_search.c - the two-seat search's leaf value and selective search, through
 * search_run on built positions: the depth-1 score counts the reply's best
 * progress (44% of it, at eval.c's 35 cp a step), and the selective search
 * (null move, futility, late-move pruning) keeps a forced arrival and gives the
 * same result on every run with one thread; gen_best_progress (the leaf's progress
 * term) and gen_race_move_exists (the table move's check) agree with the move list
 * in every variant.
 */
#include "support/stern_test.h"

#include "eval.h"
#include "movegen.h"
#include "search.h"
#include "tt.h"
#include "variant.h"

#include <stdlib.h>
#include <string.h>

static Game g;


/* A middle game with the armies in contact, white to move. */
#define MIDDLE_WHITE "w j4 k4 l4 i6 j6 h7 i8 g9 h9 i10"
#define MIDDLE_BLACK "b e17 e16 f16 e15 f14 h12 g11 h11 f10 i12"

static void test_depth_one_score_subtracts_part_of_the_replys_best_progress(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", MIDDLE_BLACK " " MIDDLE_WHITE, "w w9,b9 10");
    /* 745: the best over white's moves of eval_for(child, white) minus 44% of
     * black's best reply progress at 35 cp a step. */
    assert_int_equal(search_fixed_depth(&g, ALGO_AUTO, 1, false).score, 745);
    /* The plain best evaluation of white's moves is 881: without the reply's
     * progress the score would differ, so the term is what the 745 checks. */
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves(&g.pos, list, NULL);
    int without = -SCORE_INF;
    for (int i = 0; i < list->n; i++) {
        Position child = g.pos;
        pos_play(&child, &list->m[i]);
        const int e = eval_for(&child, SEAT_WHITE, NULL);
        without = e > without ? e : without;
    }
    move_list_delete(list);
    assert_int_equal(without, 881);
}

/* Black has exactly two moves (k3-m1, m3-m1: e17 e16 f16 are caged in its home
 * by white's locked arrivals), so at black's nodes the table's move and a
 * killer are staged before generation and are all there is. The node must end
 * there: it once read an unset entry of its list of put-off moves and searched
 * a move again (205 nodes at depth 4, found by valgrind). The counts are those
 * of the search before killers were staged (c241877). */
static void test_node_whose_staged_moves_are_all_its_moves(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", "w e15 f15 g15 e14 f14 g14 h14 l2 m2 i9 b e17 e16 f16 k3 l3 m3 j4 k4 l4 m4",
               "w w20,b20 21");
    Position q = g.pos;
    pos_set_stm(&q, SEAT_BLACK);
    assert_string_equal(legal_moves(&q, NULL), "k3-m1 m3-m1");
    static const uint64_t nodes[] = {16, 37, 142, 191};
    for (int d = 1; d <= 4; d++)
        assert_int_equal(search_fixed_depth(&g, ALGO_AUTO, d, false).nodes, nodes[d - 1]);
    assert_int_equal(search_fixed_depth(&g, ALGO_AUTO, 4, false).score, 2270);
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
    const SearchResult r = search_fixed_depth(&g, ALGO_AUTO, 8, false);
    assert_true(r.has_best);
    assert_int_equal(r.score, SCORE_MATE - 5);
}

static void test_selective_search_repeats_exactly_with_one_thread(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", MIDDLE_BLACK " " MIDDLE_WHITE, "w w9,b9 10");
    const SearchResult a = search_fixed_depth(&g, ALGO_AUTO, 7, false), b = search_fixed_depth(&g, ALGO_AUTO, 7, false);
    assert_true(a.nodes > 0);
    assert_int_equal(a.nodes, b.nodes);
    assert_int_equal(a.score, b.score);
    assert_int_equal(a.best.from, b.best.from);
    assert_int_equal(a.best.to, b.best.to);
}

/* gen_best_progress through a memo kept over the game (as a search thread keeps
 * one) equals the largest progress over gen_moves' list without one, at every
 * position of a game played by a fixed pseudo-random choice in every variant
 * (race, Masters with its swaps, capture), measured in each seat's tip distance;
 * in races without swaps, gen_seat_best_progress of every seat in play equals the
 * largest over the list of that seat's moves. */
static void test_best_progress_equals_the_move_lists_maximum(void **state)
{
    (void)state;
    MoveList *list = calloc(2, sizeof *list);
    GenMemo *memo = gen_memo_new();
    assert_true(list && memo);
    uint32_t rng = 12345;
    int positions = 0;
    for (int k = 0; k < NUM_VARIANT_NAMES; k++) {
        assert_int_equal(game_new(&g, variant_names[k]), 0);
        for (int ply = 0; ply < 120 && !pos_over(&g.pos); ply++) {
            const Position *p = &g.pos;
            for (int s = 0; s < MAX_SEATS; s++) {
                if (p->v->slot[s] < 0)
                    continue;
                const uint8_t *dist = p->v->tip_dist[s];
                assert_int_equal(gen_best_progress(p, dist, &list[1], memo), list_best_progress(p, p->stm, dist));
                positions++;
                /* seat s, to move or not */
                if (!p->v->capture && !p->v->masters && p->status[s] == ST_PLAYING)
                    assert_int_equal(gen_seat_best_progress(p, s, dist, memo), list_best_progress(p, s, dist));
            }
            gen_moves(p, &list[0], NULL);
            rng = rng * 1103515245u + 12345u;
            const Move m = list[0].m[(rng >> 16) % (uint32_t)list[0].n];
            assert_int_equal(game_play(&g, &m), 0);
        }
    }
    move_list_free(&list[1]);
    move_list_delete(list);
    gen_memo_delete(memo);
    assert_true(positions > 2000);
}

/* gen_race_move_exists (the check of a table move before the list is built),
 * through a memo kept over the game, says yes exactly for the moves of
 * gen_moves' list without one, over every pair of holes, at the positions of
 * pseudo-random games in every race variant without swaps; never for a hole out
 * of range or a finished game. The list through the memo is the same list. */
static void test_race_move_exists_exactly_for_listed_moves(void **state)
{
    (void)state;
    MoveList *list = move_list_new(), *again = move_list_new();
    GenMemo *memo = gen_memo_new();
    assert_true(list && again && memo);
    uint32_t rng = 777;
    int positions = 0, moves = 0;
    for (int k = 0; k < NUM_VARIANT_NAMES; k++) {
        assert_int_equal(game_new(&g, variant_names[k]), 0);
        if (g.v->capture || g.v->masters)
            continue;
        for (int ply = 0; ply < 80 && !pos_over(&g.pos); ply++) {
            const Position *p = &g.pos;
            gen_moves(p, list, NULL);
            gen_moves(p, again, memo);
            assert_int_equal(again->n, list->n);
            for (int i = 0; i < list->n; i++)
                assert_true(move_same(&again->m[i], &list->m[i]));
            static bool listed[NUM_HOLES][NUM_HOLES];
            memset(listed, 0, sizeof listed);
            for (int i = 0; i < list->n; i++)
                listed[list->m[i].from][list->m[i].to] = true;
            for (int from = 0; from < NUM_HOLES; from++)
                for (int to = 0; to < NUM_HOLES; to++)
                    assert_int_equal(gen_race_move_exists(p, from, to, memo), listed[from][to]);
            assert_false(gen_race_move_exists(p, -1, 0, memo));
            assert_false(gen_race_move_exists(p, list->m[0].from, NUM_HOLES, memo));
            positions++;
            moves += list->n;
            rng = rng * 1103515245u + 12345u;
            const Move m = list->m[(rng >> 16) % (uint32_t)list->n];
            assert_int_equal(game_play(&g, &m), 0);
        }
        if (pos_over(&g.pos))
            for (int from = 0; from < NUM_HOLES; from++)
                for (int to = 0; to < NUM_HOLES; to++)
                    assert_false(gen_race_move_exists(&g.pos, from, to, memo));
    }
    move_list_delete(list);
    move_list_delete(again);
    gen_memo_delete(memo);
    assert_true(positions > 1000);
    assert_true(moves > 10000);
}


/* The ponder move is a legal move of the seat that moves after the best move,
 * with every algorithm along games of three, four and six seats. Best-reply
 * search once offered an opponent's reply out of turn (classic-3 after m3-m5:
 * yellow to move, ponder m1-m3-k5, a white move). */
static void test_ponder_move_is_legal_for_the_next_seat(void **state)
{
    (void)state;
    static const char *const variants[] = {"classic-3", "classic-4", "classic-6"};
    static const SearchAlgo algos[] = {ALGO_PARANOID, ALGO_MAXN, ALGO_BRS, ALGO_BRS_PLUS, ALGO_MCTS};
    MoveList *list = move_list_new();
    assert_non_null(list);
    int pondered = 0;
    for (size_t v = 0; v < 3; v++)
        for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
            assert_int_equal(game_new(&g, variants[v]), 0);
            for (int ply = 0; ply < 8 && !pos_over(&g.pos); ply++) {
                const SearchResult r = search_fixed_depth(&g, algos[a], 3, false);
                assert_true(r.has_best);
                Position after = g.pos;
                pos_play(&after, &r.best);
                if (r.has_ponder) {
                    gen_moves(&after, list, NULL);
                    bool legal = false;
                    for (int i = 0; i < list->n && !legal; i++)
                        legal = list->m[i].from == r.ponder.from && list->m[i].to == r.ponder.to &&
                                list->m[i].swap == r.ponder.swap && list->m[i].captured == r.ponder.captured;
                    if (!legal)
                        fail_msg("%s, %s, ply %d: ponder move not legal", variants[v],
                                 search_algo_names[algos[a]], ply);
                    pondered++;
                }
                assert_int_equal(game_play(&g, &r.best), 0);
            }
        }
    move_list_delete(list);
    assert_true(pondered > 0);
}

static void ignore_report(const SearchReport *report, void *ctx)
{
    (void)report;
    (void)ctx;
}

/* A search cut before its first iteration ends answers the best move of those
 * it searched, and with none searched (go nodes 1: the root child is the only
 * node) the move of the most progress, first in generation order; it answered
 * the first move generated (a rating run at 100 nodes a move lost 83 of 89
 * games to tt-pvs so). */
static void test_first_iteration_cut_answers_the_most_progress(void **state)
{
    (void)state;
    game_setup(&g, "classic-2", MIDDLE_BLACK " " MIDDLE_WHITE, "w w9,b9 10");
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = 1;
    const SearchConfig cfg = {.multipv = 1};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    const SearchResult r = test_search(&g, &lim, &cfg, &sig, ignore_report, NULL);
    assert_true(r.has_best);
    const uint8_t *tip = g.pos.v->tip_dist[SEAT_WHITE];
    const int most = list_best_progress(&g.pos, SEAT_WHITE, tip);
    assert_true(most > 0);
    assert_int_equal(tip[r.best.from] - tip[r.best.to], most);
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves(&g.pos, list, NULL);
    int first = 0;
    while (tip[list->m[first].from] - tip[list->m[first].to] != most)
        first++;
    assert_true(move_same(&r.best, &list->m[first]));
    assert_true(first > 0); /* not the first move generated */
    move_list_delete(list);
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_one_score_subtracts_part_of_the_replys_best_progress),
        cmocka_unit_test(test_first_iteration_cut_answers_the_most_progress),
        cmocka_unit_test(test_node_whose_staged_moves_are_all_its_moves),
        cmocka_unit_test(test_selective_search_keeps_a_forced_arrival),
        cmocka_unit_test(test_selective_search_repeats_exactly_with_one_thread),
        cmocka_unit_test(test_best_progress_equals_the_move_lists_maximum),
        cmocka_unit_test(test_race_move_exists_exactly_for_listed_moves),
        cmocka_unit_test(test_ponder_move_is_legal_for_the_next_seat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
