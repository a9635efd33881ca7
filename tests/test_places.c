/*
 * test_places.c - endings valued right in games of three or more seats: a
 * seat one move from arriving takes the arrival for 2nd of 3, 3rd of 4, 4th
 * and 5th of 6 with every algorithm (the static value of playing on once
 * outweighed the middle places), and the values of places.h order decided
 * outcomes above every open standing.
 */
#include "support/stern_test.h"

#include "eval.h"
#include "movegen.h"
#include "places.h"
#include "search.h"
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static Game g;


/* Whether move m of the side to move arrives (places its seat). */
static bool arrives(const Move *m)
{
    Position q = g.pos;
    const int s = q.stm;
    pos_play(&q, m);
    return q.place[s] != 0;
}

/* Every algorithm, at depths 1-3, plays an arriving move in the position. */
static void assert_takes_arrival(const char *variant, int mover, const int place[MAX_SEATS])
{
    static const SearchAlgo algos[] = {ALGO_AUTO, ALGO_PARANOID, ALGO_MAXN, ALGO_BRS, ALGO_BRS_PLUS, ALGO_MCTS};
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++)
        for (int depth = 1; depth <= 3; depth++) {
            arrival_game(&g, variant, mover, place);
            const SearchResult r = search_fixed_depth(&g, algos[a], depth, false);
            assert_true(r.has_best);
            if (!arrives(&r.best))
                fail_msg("%s, %s at depth %d declined the arrival", variant, search_algo_names[algos[a]], depth);
        }
}

static void test_second_of_three_takes_the_arrival(void **state)
{
    (void)state;
    const int place[MAX_SEATS] = {[SEAT_WHITE] = 1};
    assert_takes_arrival("classic-3", SEAT_BLUE, place);
}

static void test_third_of_four_takes_the_arrival(void **state)
{
    (void)state;
    const int place[MAX_SEATS] = {[SEAT_WHITE] = 1, [SEAT_RED] = 2};
    assert_takes_arrival("classic-4", SEAT_BLACK, place);
}

static void test_fourth_of_six_takes_the_arrival(void **state)
{
    (void)state;
    const int place[MAX_SEATS] = {[SEAT_BLACK] = 1, [SEAT_RED] = 2, [SEAT_BLUE] = 3};
    assert_takes_arrival("classic-6", SEAT_WHITE, place);
}

static void test_fifth_of_six_takes_the_arrival(void **state)
{
    (void)state;
    const int place[MAX_SEATS] = {[SEAT_BLACK] = 1, [SEAT_RED] = 2, [SEAT_BLUE] = 3, [SEAT_YELLOW] = 4};
    assert_takes_arrival("classic-6", SEAT_WHITE, place);
}

/* A decided comparison is worth PLACE_SPAN / (units - 1); each arrival of the
 * mover in the four positions above is worth its exact comparisons (less a
 * point for the ply), more than the value of any move that does not arrive. */
static void test_arrival_is_worth_its_exact_comparisons_and_more_than_playing_on(void **state)
{
    (void)state;
    static const struct {
        const char *variant;
        int mover, place[MAX_SEATS], ahead, behind;
    } cases[] = {
        {"classic-3", SEAT_BLUE, {[SEAT_WHITE] = 1}, 1, 1},
        {"classic-4", SEAT_BLACK, {[SEAT_WHITE] = 1, [SEAT_RED] = 2}, 2, 1},
        {"classic-6", SEAT_WHITE, {[SEAT_BLACK] = 1, [SEAT_RED] = 2, [SEAT_BLUE] = 3}, 3, 2},
        {"classic-6", SEAT_WHITE, {[SEAT_BLACK] = 1, [SEAT_RED] = 2, [SEAT_BLUE] = 3, [SEAT_YELLOW] = 4}, 4, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        arrival_game(&g, cases[i].variant, cases[i].mover, cases[i].place);
        const int unit = PLACE_SPAN / (g.v->nunits - 1);
        MoveList *list = move_list_new();
        assert_non_null(list);
        gen_moves(&g.pos, list, NULL);
        int arrived = 0, best_other = -SCORE_INF;
        for (int k = 0; k < list->n; k++) {
            Position q = g.pos;
            pos_play(&q, &list->m[k]);
            const int value = places_value_for(&q, cases[i].mover, 1, 0, NULL);
            if (q.place[cases[i].mover]) {
                assert_int_equal(value, (cases[i].behind - cases[i].ahead) * unit - 1);
                arrived++;
            } else if (value > best_other) {
                best_other = value;
            }
        }
        move_list_delete(list);
        assert_true(arrived > 0);
        assert_true(best_other > -SCORE_INF);
        assert_true(best_other < (cases[i].behind - cases[i].ahead) * unit - 1);
        /* and above every place behind it */
        assert_true(best_other > (cases[i].behind - 1 - cases[i].ahead - 1) * unit);
    }
}

/* An ending by repetition or the round limit is worth the ranking it gives:
 * the classic-3 start ended at once ranks every seat level (same marbles in
 * target, same distance), a shared place: 0 for each. First place alone is a
 * mate, less the plies to it. */
static void test_ranked_ending_is_worth_its_ranking(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    Position q = g.pos;
    pos_finish(&q, END_REPETITION);
    for (int i = 0; i < 3; i++)
        assert_int_equal(places_value_for(&q, g.v->seats[i], 5, 0, NULL), 0);
    const int place[MAX_SEATS] = {[SEAT_WHITE] = 1};
    arrival_game(&g, "classic-3", SEAT_BLUE, place);
    assert_int_equal(places_value_for(&g.pos, SEAT_WHITE, 7, 0, NULL), SCORE_MATE - 7);
}

/* Whether blue, after its move m and yellow's first legal reply, can arrive. */
static bool arrival_kept(const Move *m)
{
    Position q = g.pos;
    pos_play(&q, m);
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves(&q, list, NULL);
    pos_play(&q, &list->m[0]);
    bool kept = false;
    gen_moves(&q, list, NULL);
    for (int i = 0; i < list->n && !kept; i++) {
        Position r = q;
        pos_play(&r, &list->m[i]);
        kept = r.place[SEAT_BLUE] != 0;
    }
    move_list_delete(list);
    return kept;
}

/* stern-arrivals over a record in which blue, one step from 2nd place, plays
 * four other moves: reported over -max 3 (exit status 1), not over -max 4. */
static void test_arrivals_tool_reports_a_declined_arrival(void **state)
{
    (void)state;
    const int place[MAX_SEATS] = {[SEAT_WHITE] = 1};
    arrival_game(&g, "classic-3", SEAT_BLUE, place);
    char fen[FEN_MAX], moves[4096] = "", text[MOVE_STR_MAX];
    fen_write(&g.pos, fen);
    MoveList *list = move_list_new();
    assert_non_null(list);
    for (int ply = 0; ply < 7; ply++) {
        gen_moves(&g.pos, list, NULL);
        int k = 0; /* blue: the first move that does not arrive and keeps an arrival for its next turn */
        while (g.pos.stm == SEAT_BLUE && k < list->n && (arrives(&list->m[k]) || !arrival_kept(&list->m[k])))
            k++;
        assert_true(k < list->n);
        move_str(&g.pos, &list->m[k], text);
        strcat(moves, text);
        strcat(moves, " ");
        assert_int_equal(game_play(&g, &list->m[k]), 0);
        assert_false(pos_over(&g.pos));
    }
    move_list_delete(list);
    char path[] = "/tmp/stern-arrivals-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fprintf(f, "[Event \"t\"]\n[Round \"7\"]\n[Variant \"classic-3\"]\n[FEN \"%s\"]\n[White \"A\"]\n"
               "[Blue \"Stern\"]\n[Yellow \"B\"]\n[Result \"*\"]\n\n%s*\n",
            fen, moves);
    fclose(f);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s -player Stern -max 3 %s > %s.out", tool("stern-arrivals"), path, path);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    snprintf(cmd, sizeof cmd, "%s.out", path);
    f = fopen(cmd, "r");
    assert_non_null(f);
    char out[1024] = "";
    assert_non_null(fgets(out, sizeof out, f));
    fclose(f);
    assert_non_null(strstr(out, "game 7: seat u (Stern) declined an arrival on 4 turns, first at ply 1"));
    snprintf(cmd, sizeof cmd, "%s -player Stern -max 4 %s > %s.out", tool("stern-arrivals"), path, path);
    st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 0);
    snprintf(cmd, sizeof cmd, "%s.out", path);
    remove(cmd);
    remove(path);
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_of_three_takes_the_arrival),
        cmocka_unit_test(test_third_of_four_takes_the_arrival),
        cmocka_unit_test(test_fourth_of_six_takes_the_arrival),
        cmocka_unit_test(test_fifth_of_six_takes_the_arrival),
        cmocka_unit_test(test_arrival_is_worth_its_exact_comparisons_and_more_than_playing_on),
        cmocka_unit_test(test_ranked_ending_is_worth_its_ranking),
        cmocka_unit_test(test_arrivals_tool_reports_a_declined_arrival),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
