/*
 * test_opponents.c - the one-ply greedy policy (greedy.h) and the opponent
 * model (opponents.h): a seat whose recorded moves were all the greedy choice
 * is modelled, one move off the policy within its last OPPONENT_WINDOW moves
 * and it is not, a seat that has not moved yet is, the side to move is not; and
 * MCTS with modelled seats expects exactly their greedy moves.
 */
#include "support/engine_pipe.h"
#include "support/stern_test.h"

#include "greedy.h"
#include "mcts.h"
#include "opponents.h"
#include "places.h"
#include "race.h"
#include "solo.h"

#include <stdio.h>
#include <string.h>

static Game g;

/* The greedy move of g's side to move, as the policy picks it with the
 * game's history. */
static Move greedy_now(void)
{
    MoveList *list = move_list_new();
    assert_non_null(list);
    Move m;
    assert_true(greedy_choose(&g.pos, g.keys, g.nplies + 1, list, NULL, NULL, &m, NULL));
    move_list_delete(list);
    return m;
}

/* A legal move of g's side to move other than its greedy move. */
static Move other_than_greedy(void)
{
    const Move greedy = greedy_now();
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves(&g.pos, list, NULL);
    int i = 0;
    while (i < list->n && move_same(&list->m[i], &greedy))
        i++;
    assert_true(i < list->n);
    const Move m = list->m[i];
    move_list_delete(list);
    return m;
}

static void play_move(Move m) { assert_int_equal(game_play(&g, &m), 0); }

static unsigned modelled(void)
{
    MoveList *list = move_list_new();
    assert_non_null(list);
    const unsigned seats = opponents_greedy(&g, list, NULL, NULL);
    move_list_delete(list);
    return seats;
}

#define BIT(s) (1u << (s))

static void test_greedy_picks_the_best_one_ply_value_first_in_order(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves(&g.pos, list, NULL);
    int top = -SCORE_INF, first = -1;
    for (int i = 0; i < list->n; i++) {
        const int x = greedy_move_value(&g.pos, &list->m[i], g.keys, 1, NULL);
        if (x > top) {
            top = x;
            first = i;
        }
    }
    Move m;
    int value;
    assert_true(greedy_choose(&g.pos, g.keys, 1, list, NULL, NULL, &m, &value));
    assert_true(move_same(&m, &list->m[first]));
    assert_int_equal(value, top);
    Position after = g.pos;
    pos_play(&after, &m);
    assert_int_equal(value, eval_for(&after, g.pos.stm, NULL));
    move_list_delete(list);
}

static void test_greedy_arrives_rather_than_plays_on(void **state)
{
    (void)state;
    /* white needs one step (h13-h14) to arrive first; its value is SCORE_MATE - 1 */
    game_setup(&g, "classic-3",
               "w e14 f14 g14 e15 f15 g15 e16 f16 e17 h13 u n5 o5 p5 q5 n6 o6 p6 n7 o7 i9 "
               "y e5 f5 g5 h5 e6 f6 g6 e7 f7 h9",
               "w w40,u40,y40 41");
    Move m;
    int value;
    MoveList *list = move_list_new();
    assert_non_null(list);
    assert_true(greedy_choose(&g.pos, NULL, 0, list, NULL, NULL, &m, &value));
    move_list_delete(list);
    assert_int_equal(value, SCORE_MATE - 1);
    Position after = g.pos;
    pos_play(&after, &m);
    assert_int_equal(after.status[0], ST_ARRIVED);
}

static void test_a_race_models_a_seat_on_a_full_window_only(void **state)
{
    (void)state;
    /* a seat yet to move, or one with fewer than OPPONENT_WINDOW moves, all of
     * them greedy, shows nothing in a race */
    assert_int_equal(game_new(&g, "classic-3"), 0);
    assert_int_equal(modelled(), 0);
    for (int i = 0; i < 3 * (OPPONENT_WINDOW - 1); i++)
        play_move(greedy_now());
    assert_int_equal(g.pos.stm, 0);
    assert_int_equal(modelled(), 0);
    for (int i = 0; i < 3; i++)
        play_move(greedy_now());
    assert_int_equal(modelled(), BIT(2) | BIT(4)); /* white to move */
}

static void test_capture_mode_models_seats_yet_to_move(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "capture-3"), 0);
    assert_int_equal(modelled(), BIT(2) | BIT(4)); /* white to move: nothing against blue and yellow */
    play_move(other_than_greedy()); /* white, off the policy */
    assert_int_equal(modelled(), BIT(4)); /* blue to move */
    play_move(greedy_now());
    assert_int_equal(modelled(), BIT(2)); /* yellow to move: white is off */
}

static void test_a_greedy_record_is_modelled_the_side_to_move_is_not(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    for (int i = 0; i < 3 * OPPONENT_WINDOW; i++)
        play_move(greedy_now());
    assert_int_equal(g.pos.stm, 0);
    assert_int_equal(modelled(), BIT(2) | BIT(4));
    play_move(greedy_now());
    assert_int_equal(modelled(), BIT(0) | BIT(4)); /* blue to move */
}

static void test_one_move_off_the_policy_leaves_the_model(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    for (int round = 0; round < OPPONENT_WINDOW; round++) {
        play_move(greedy_now());                               /* white */
        play_move(round == 2 ? other_than_greedy() : greedy_now()); /* blue, once off */
        play_move(greedy_now());                               /* yellow */
    }
    assert_int_equal(modelled(), BIT(4));
    /* a capture-mode record too: blue takes fewer pieces than it could once */
    assert_int_equal(game_new(&g, "capture-3"), 0);
    play_move(greedy_now());
    play_move(other_than_greedy());
    play_move(greedy_now());
    assert_int_equal(modelled(), BIT(4));
}

static void test_a_move_off_the_policy_counts_within_the_window_only(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    play_move(greedy_now());
    play_move(other_than_greedy()); /* blue's first move */
    play_move(greedy_now());
    for (int round = 1; round < OPPONENT_WINDOW; round++)
        for (int k = 0; k < 3; k++)
            play_move(greedy_now());
    assert_int_equal(modelled(), BIT(4)); /* blue's first move is one of its last OPPONENT_WINDOW */
    for (int k = 0; k < 3; k++)
        play_move(greedy_now());
    assert_int_equal(modelled(), BIT(2) | BIT(4)); /* now it is not */
}

static bool never(void *ctx)
{
    (void)ctx;
    return false;
}

static void test_mcts_expects_the_greedy_moves_of_modelled_seats(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-6"), 0);
    for (int i = 0; i < 6 * OPPONENT_WINDOW; i++)
        play_move(greedy_now());
    const unsigned seats = modelled();
    assert_int_equal(seats, BIT(1) | BIT(2) | BIT(3) | BIT(4) | BIT(5));
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves_no_return(&g.pos, list, NULL);
    const MctsHooks hooks = {.stop = never, .multipv = 1};
    MctsResult r;
    const MctsConfig cfg = {.max_playouts = 3000, .nodes_cap = 1u << 20, .modeled = seats, .threads = 1};
    assert_int_equal(mcts_search(&g, list->m, list->n, &cfg, &hooks, &r), 0);
    move_list_delete(list);
    assert_true(r.pvlen >= 6);
    /* after white's move, every seat's move on the line is its greedy move */
    Game line = g;
    play_move(r.pv[0]);
    for (int i = 1; i < 6; i++) {
        const Move expected = greedy_now();
        assert_true(move_same(&r.pv[i], &expected));
        play_move(r.pv[i]);
    }
    g = line;
}

/* MctsHooks.lines: keeps the first move of each report's first line. */
static void first_line_of(void *ctx, const MctsResult *sofar, int k, const MctsLine *line)
{
    (void)sofar;
    if (k == 0)
        *(Move *)ctx = line->pv[0];
}

/* A classic-3 game of stern-arena (Stern as yellow against two greedy seats)
 * near its end: yellow arrives first in two own moves (h7-g7, g7-e7 over f7)
 * or in three by many others (e8-e7 first, say), while the greedy seats shuffle
 * in their targets. MCTS proves several of them first; it once played a
 * longer proof, and the next move another, until the position stood for the
 * third time and the repetition ranked yellow second. The shortest proof is
 * played, and reported as the first line. */
static void test_mcts_plays_the_shortest_proven_first_place(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    char err[128];
    assert_int_equal(
        game_set_fen(&g, "w/ww/3/w3/13/12/2w5w2/2w7/w7u/yw4w2u/1y1y5uu/yyy6uuu/yyyy6uuu/4/3/2/1 y w52,u52,y51 52",
                     err, sizeof err),
        0);
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves_no_return(&g.pos, list, NULL);
    /* a move of the longer proofs first among the root's children */
    for (int i = 0; i < list->n; i++) {
        Position after = g.pos;
        pos_play(&after, &list->m[i]);
        if (race_solve(&after, 4, 4, 0, 0, NULL, NULL, NULL) == 2) {
            const Move m = list->m[i];
            list->m[i] = list->m[0];
            list->m[0] = m;
            break;
        }
    }
    Move first_line = {0};
    const MctsHooks hooks = {.stop = never, .multipv = 1, .lines = first_line_of, .ctx = &first_line};
    MctsResult r;
    const MctsConfig cfg = {.max_playouts = 100000, .nodes_cap = 1u << 20, .modeled = BIT(0) | BIT(2), .threads = 1};
    assert_int_equal(mcts_search(&g, list->m, list->n, &cfg, &hooks, &r), 0);
    move_list_delete(list);
    Position after = g.pos;
    pos_play(&after, &r.best);
    assert_int_equal(race_solve(&after, 4, 4, 0, 0, NULL, NULL, NULL), 1); /* one own move from arriving */
    assert_true(move_same(&first_line, &r.best)); /* the last report's first line */
}

/* Brute force for the solo search: the best value for seat `me` of the
 * position after p, every other seat playing its greedy move, over every line
 * of me's own moves to the end of the game (no cut at a first place). */
static int brute_solo(const Position *p, int me, int ply)
{
    if (pos_over(p)) {
        int vals[MAX_SEATS];
        places_values(p, ply, 0, vals, NULL);
        return vals[me];
    }
    MoveList *list = move_list_new();
    assert_non_null(list);
    int best = -SCORE_INF;
    if (p->stm != me) {
        Move m;
        assert_true(greedy_choose(p, NULL, 0, list, NULL, NULL, &m, NULL));
        Position c = *p;
        pos_play(&c, &m);
        best = brute_solo(&c, me, ply + 1);
    } else {
        gen_moves(p, list, NULL);
        for (int i = 0; i < list->n; i++) {
            Position c = *p;
            pos_play(&c, &list->m[i]);
            const int v = brute_solo(&c, me, ply + 1);
            best = v > best ? v : best;
        }
    }
    move_list_delete(list);
    return best;
}

/* The solo search of g's position with every other seat modelled. */
static bool solo(uint64_t limit, unsigned modeled, Move *best, int values[MAX_SEATS])
{
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves(&g.pos, list, NULL);
    Move pv[64];
    int pvlen;
    uint64_t nodes;
    const bool done = solo_search(&g, list->m, list->n, modeled, limit, NULL, NULL, best, pv, &pvlen, 64, values, &nodes);
    if (done) { /* the line is legal and its moves other than the root seat's are greedy */
        Game line = g;
        for (int i = 0; i < pvlen; i++) {
            if (line.pos.stm != g.pos.stm) {
                Move m;
                MoveList *l = move_list_new();
                assert_true(greedy_choose(&line.pos, NULL, 0, l, NULL, NULL, &m, NULL));
                move_list_delete(l);
                assert_true(move_same(&m, &pv[i]));
            }
            assert_int_equal(game_play(&line, &pv[i]), 0);
        }
        assert_true(move_same(&pv[0], best));
    }
    move_list_delete(list);
    return done;
}

static void test_solo_search_finds_the_best_line_against_greedy_seats(void **state)
{
    (void)state;
    /* capture-6 three rounds in: the rest of the game searched to its end */
    static const char *const moves[] = {"j11-h11-h13-j13-j11-l11", "f12-h12-f14-f12-d12-d10", "g9-i9-g11-e11-g9-g11",
                                        "k9-i9-i11-k9-k11-m11", "l10-l8-n8-l10"};
    assert_int_equal(game_new(&g, "capture-6"), 0);
    char err[256];
    assert_int_equal(game_set_fen(&g,
                                  "1/2/3/2x1/4xxx1x4/3xxxx1x3/1x1x2xxx2/1xxxxxxxx1/xxxx1xxxx/1xxxxxx1x1/2xxxxxx3/"
                                  "3xxxxxxx2/4xxxxx4/4/3/2/1 y w1c1,r1c1,u1c1,b1c1,y0c0,g0c0 1",
                                  err, sizeof err),
                     0);
    for (size_t i = 0; i < sizeof moves / sizeof *moves; i++)
        play(&g, moves[i]);
    const unsigned all = 0x3f & ~(1u << g.pos.stm);
    Move best;
    int values[MAX_SEATS];
    assert_true(solo(1000000, all, &best, values));
    assert_int_equal(values[g.pos.stm], brute_solo(&g.pos, g.pos.stm, 0));
    /* a seat left out of the model: nothing to solve alone */
    assert_false(solo(1000000, all & ~(1u << 0), &best, values));
    /* over its positions: nothing known */
    assert_false(solo(1, all, &best, values));
}

/* The `info string opponent model` line of a `go movetime` on `position
 * startpos moves <moves>` in classic-6 (printed by MCTS, the search that uses
 * the model), or "" when there is none. */
static void model_line(EPipe *p, const char *moves, char *out, size_t n)
{
    epipe_send(p, "position startpos moves%s", moves);
    epipe_send(p, "go movetime 50");
    EPipeLines l;
    epipe_collect(p, "bestmove ", true, 20000, &l, NULL);
    out[0] = 0;
    for (int i = 0; i < l.n; i++)
        if (!strncmp(l.line[i], "info string opponent model", 26))
            snprintf(out, n, "%s", l.line[i]);
    epipe_lines_free(&l);
}

/* OPPONENT_WINDOW rounds of classic-6 from the start (a race: a full window of
 * evidence), every seat greedy but red's first move when `red_off`, as
 * `position` moves (" m1 m2 ..."). */
static void rounds_text(bool red_off, char *out, size_t size)
{
    assert_int_equal(game_new(&g, "classic-6"), 0);
    char text[MOVE_STR_MAX];
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; i < 6 * OPPONENT_WINDOW; i++) {
        const Move m = red_off && i == 1 ? other_than_greedy() : greedy_now();
        n += (size_t)snprintf(out + n, size - n, " %s", move_str(&g.pos, &m, text));
        assert_true(n < size);
        play_move(m);
    }
}

static void test_engine_says_which_seats_it_models(void **state)
{
    (void)state;
    char moves[8192], off[8192];
    rounds_text(false, moves, sizeof moves);
    rounds_text(true, off, sizeof off);
    EPipe *p = epipe_start();
    epipe_silent(p, "setoption name Variant value classic-6");
    epipe_silent(p, "setoption name OwnBook value false");
    char line[256];
    model_line(p, moves, line, sizeof line);
    assert_string_equal(line, "info string opponent model: greedy r u b y g");
    /* one seat searching: `auto` races with its family's search (BRS), which
     * expects nothing of anyone; MCTS, asked for, still models the rest */
    model_line(p, off, line, sizeof line);
    assert_string_equal(line, "");
    epipe_silent(p, "setoption name Search value mcts");
    model_line(p, off, line, sizeof line);
    assert_string_equal(line, "info string opponent model: greedy u b y g");
    epipe_silent(p, "setoption name Search value auto");
    /* analysis searches every seat */
    epipe_send(p, "position startpos moves%s", moves);
    epipe_send(p, "go nodes 300");
    EPipeLines l;
    epipe_collect(p, "bestmove ", true, 20000, &l, NULL);
    for (int i = 0; i < l.n; i++)
        assert_null(strstr(l.line[i], "opponent model"));
    epipe_lines_free(&l);
    epipe_silent(p, "setoption name OpponentModel value false");
    model_line(p, moves, line, sizeof line);
    assert_string_equal(line, "");
    epipe_kill(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy_picks_the_best_one_ply_value_first_in_order),
        cmocka_unit_test(test_greedy_arrives_rather_than_plays_on),
        cmocka_unit_test(test_a_race_models_a_seat_on_a_full_window_only),
        cmocka_unit_test(test_capture_mode_models_seats_yet_to_move),
        cmocka_unit_test(test_a_greedy_record_is_modelled_the_side_to_move_is_not),
        cmocka_unit_test(test_one_move_off_the_policy_leaves_the_model),
        cmocka_unit_test(test_a_move_off_the_policy_counts_within_the_window_only),
        cmocka_unit_test(test_mcts_expects_the_greedy_moves_of_modelled_seats),
        cmocka_unit_test(test_mcts_plays_the_shortest_proven_first_place),
        cmocka_unit_test(test_engine_says_which_seats_it_models),
        cmocka_unit_test(test_solo_search_finds_the_best_line_against_greedy_seats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
