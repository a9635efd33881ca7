/*
 * test_blockers.c - Stern plays around marbles parked in its target. In ccerl-2
 * (the rating list's rules) a seat may keep marbles in its own home, the other
 * seat's target, for the whole game, and the other seat wins by filling every
 * target hole they leave free (the anti-block win). The positions are from games
 * against the rating list's bot tt-pvs under its referee, 100 ms a move, that an
 * earlier build drew by the 240-ply limit: the bot kept its home marbles there
 * and brought the rest home, and Stern stood at the door of its target for a
 * hundred moves. Here Stern's opponent parks the same way (parked_move below),
 * and Stern, searching at a fixed depth, must win by the full target within a
 * fixed number of its own moves (this build: 10, 9 and 7; the build before the
 * evaluation knew ccerl-2 has no exit deadline walled the parked marbles in and
 * ended none of the three within 12).
 */
#include "support/stern_test.h"

#include "eval.h"
#include "movegen.h"
#include "search.h"
#include "tt.h"

static Game g;

#define SEARCH_DEPTH 4 /* plies: a shallow search, so the evaluation must lead */

/* The parking opponent: its marbles in its home never leave; among the other
 * moves the one that brings a marble nearest its target tip (the greedy rule,
 * the first in generation order on a tie); a home marble's move only when there is
 * nothing else. */
static Move parked_move(const Position *p)
{
    const int s = p->stm;
    const uint8_t *tip = p->v->tip_dist[s];
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves(p, list, NULL);
    assert_true(list->n > 0);
    int best = -1, best_gain = 0;
    for (int i = 0; i < list->n; i++) {
        const Move *m = &list->m[i];
        if (bb_test(p->v->home[s], m->from) && !bb_test(p->v->home[s], m->to))
            continue;
        const int gain = tip[m->from] - tip[m->to];
        if (best < 0 || gain > best_gain) {
            best = i;
            best_gain = gain;
        }
    }
    const Move m = list->m[best < 0 ? 0 : best];
    move_list_delete(list);
    return m;
}

/* Plays the ccerl-2 game of `fen` on: `stern` searches at SEARCH_DEPTH, the
 * other seat parks. Stern must win by the full target within `max_moves` of its
 * own moves (the test fails otherwise, saying where the game stood). */
static void wins_by_full_target(const char *fen, int stern, int max_moves)
{
    char err[256];
    assert_int_equal(game_new(&g, "ccerl-2"), 0);
    if (game_set_fen(&g, fen, err, sizeof err))
        fail_msg("FEN '%s' refused: %s", fen, err);
    int moves = 0;
    while (!pos_over(&g.pos) && moves <= max_moves) {
        Move m;
        if (g.pos.stm == stern) {
            m = search_fixed_depth(&g, ALGO_AUTO, SEARCH_DEPTH, false).best;
            moves++;
        } else {
            m = parked_move(&g.pos);
        }
        game_play(&g, &m);
    }
    const int other = stern == SEAT_WHITE ? SEAT_BLACK : SEAT_WHITE;
    if (!pos_over(&g.pos) || g.pos.reason != END_BLOCKED || g.pos.place[stern] != 1 || g.pos.place[other] != 2 ||
        moves > max_moves)
        fail_msg("no full-target win within %d own moves of Stern: %s", max_moves, fen_now(&g.pos));
}

/* Black parks five marbles in its home, a wall across the front row of white's
 * target and one behind it, with its other five in its own target: white needs
 * the five holes behind the wall. (Game 6 of the gauntlet, ply 100.) */
static void test_white_fills_behind_a_wall_of_five(void **state)
{
    (void)state;
    wins_by_full_target("1/2/b2/bbbb/2w1wwww5/3wwwww4/11/10/9/10/11/12/13/1bb1/b1b/1b/1 w w50,b50 51", SEAT_WHITE, 12);
}

/* White parks two marbles in its home, black's target, with its other eight in
 * its own target; black has two marbles in and eight at the door. (Game 5,
 * ply 141, Stern black.) */
static void test_black_fills_around_two(void **state)
{
    (void)state;
    wins_by_full_target("w/w1/www/www1/13/12/11/10/9/10/11/3bbbb5/4bbbb5/w1bb/2w/2/1 b w71,b70 71", SEAT_BLACK, 10);
}

/* Three black marbles parked among white's three arrivals, black's other seven
 * in its target. (Game 10, ply 150.) */
static void test_white_fills_around_three(void **state)
{
    (void)state;
    wins_by_full_target("w/2/w1b/1bwb/5wwww4/4w1w1w3/11/10/9/10/11/12/13/bbbb/1b1/bb/1 w w75,b75 76", SEAT_WHITE, 8);
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_white_fills_behind_a_wall_of_five),
        cmocka_unit_test(test_black_fills_around_two),
        cmocka_unit_test(test_white_fills_around_three),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
