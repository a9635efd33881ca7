/*
 * test_datagen_records.c - stern-datagen's three- to six-seat records (format 3,
 * tools/datagen/records.h): the leaf of the search's line is the line played
 * while no seat arrives, each move by the seat whose marble it moves (a
 * best-reply line leaves the turn order), and a record holds the hand-written
 * standings of the position and of that leaf, each equal to eval_standings
 * there. Before the whole line was kept, the leaf was that of the reported
 * legal prefix, 1.6 plies on average at any search depth in classic-3.
 */
#include "support/stern_test.h"

#include "eval.h"
#include "move_list.h"
#include "movegen.h"
#include "records.h"
#include "search.h"
#include "session.h"

#include <stdio.h>
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
    records_encode_v3(&g.pos, 123, &leaf, 5, 7, 9, NULL, rec);
    assert_int_equal(get16(rec + 62), 123);
    assert_int_equal(rec[86], 5);
    assert_int_equal(records_game_of(rec), 7);
    assert_standings(rec, 68, &g.pos);
    assert_standings(rec, 88, &want);
    /* the leaf's standings differ from the start's somewhere: the test can fail */
    assert_true(memcmp(rec + 68, rec + 88, 6) != 0);
}

/* A best-reply line: white moves, then the seat after next replies (not the
 * next seat to move), then white again. The leaf is that line played with
 * each reply's seat handed the turn; a move its seat cannot play ends it. */
static void test_leaf_plays_each_reply_by_its_own_seat(void **state)
{
    (void)state;
    Game g;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    const Variant *v = g.pos.v;
    const int root = g.pos.stm, skipped = v->seats[(v->slot[root] + 1) % 3], replier = v->seats[(v->slot[root] + 2) % 3];
    Move pv[4];
    Position want = g.pos;
    pv[0] = first_move(&want);
    pos_play(&want, &pv[0]);
    assert_int_equal(want.stm, skipped);
    pos_set_stm(&want, replier);
    pv[1] = first_move(&want);
    pos_play(&want, &pv[1]);
    pos_set_stm(&want, root);
    pv[2] = first_move(&want);
    pos_play(&want, &pv[2]);
    Position leaf;
    assert_int_equal(records_line_leaf(&g.pos, pv, 3, &leaf), 3);
    assert_string_equal(fen_now(&leaf), fen_now(&want));

    /* a fourth move that moves no marble (from an empty hole) ends the line */
    pv[3] = pv[2];
    assert_int_equal(records_line_leaf(&g.pos, pv, 4, &leaf), 3);
    assert_string_equal(fen_now(&leaf), fen_now(&want));
    /* white's first move again: its marble has gone, the line ends there */
    pv[1] = pv[0];
    assert_int_equal(records_line_leaf(&g.pos, pv, 3, &leaf), 1);
}

/* The last first line a search reported: its report and its whole line's
 * moves (the report's pv points into the search, valid during the call). */
typedef struct {
    SearchReport r;
    Move line[64];
} Kept;

static void keep_line(const SearchReport *r, void *ctx)
{
    Kept *k = ctx;
    if (r->kind == REPORT_LINE && r->multipv == 1 && r->linelen <= 64) {
        k->r = *r;
        memcpy(k->line, r->pv, (size_t)r->linelen * sizeof *r->pv);
    }
}

/* The search's report carries its whole line: in a classic-3 opening a
 * best-reply search of 3,000 nodes (depth 4) reports a legal prefix shorter
 * than its line, and the line's leaf is that many plies on. */
static void test_the_report_carries_the_whole_line(void **state)
{
    (void)state;
    Game g;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    SearchSession *s = session_new(16, 1);
    assert_non_null(s);
    assert_int_equal(session_ready(s), 16);
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = 3000;
    const SearchConfig cfg = {.algo = ALGO_BRS, .multipv = 1};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    Kept kept = {0};
    const SearchResult r = session_search(s, &g, &lim, &cfg, &sig, keep_line, &kept);
    session_delete(s);
    assert_true(r.has_best);
    const SearchReport last = kept.r;
    assert_int_equal(last.kind, REPORT_LINE);
    print_message("depth %d: legal prefix %d plies, line %d\n", last.depth, last.pvlen, last.linelen);
    assert_true(last.pvlen < last.linelen);
    Position leaf;
    assert_int_equal(records_line_leaf(&g.pos, kept.line, last.linelen, &leaf), last.linelen);
}

/* The first move of the side to move in p that makes its seat arrive; fails
 * the test when there is none. */
static Move arriving_move(const Position *p)
{
    MoveList *list = move_list_new();
    gen_moves(p, list, NULL);
    for (int i = 0; i < list->n; i++) {
        Position q = *p;
        pos_play(&q, &list->m[i]);
        if (q.place[p->stm] != 0) {
            const Move m = list->m[i];
            move_list_delete(list);
            return m;
        }
    }
    fail_msg("no arriving move in %s", fen_now(p));
    return (Move){0};
}

/* A line whose first move arrives stops before it: the leaf is the position.
 * A line whose second move arrives (white moves, then blue's last marble
 * arrives) stops after one ply. */
static void test_leaf_stops_before_an_arrival(void **state)
{
    (void)state;
    Game g;
    const int place[MAX_SEATS] = {0};
    arrival_game(&g, "classic-3", SEAT_BLUE, place);
    const Move arrive = arriving_move(&g.pos);
    Position leaf;
    assert_int_equal(records_line_leaf(&g.pos, &arrive, 1, &leaf), 0);
    assert_string_equal(fen_now(&leaf), fen_now(&g.pos));

    /* the same board with white to move, blue next */
    char fen[FEN_MAX], err[256];
    snprintf(fen, sizeof fen, "%s", fen_now(&g.pos));
    char *turn = strstr(fen, " u w");
    assert_non_null(turn);
    turn[1] = 'w';
    if (game_set_fen(&g, fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
    Move pv[2];
    Position want = g.pos;
    pv[0] = first_move(&want);
    pos_play(&want, &pv[0]);
    assert_int_equal(want.stm, SEAT_BLUE);
    pv[1] = arriving_move(&want);
    assert_int_equal(records_line_leaf(&g.pos, pv, 2, &leaf), 1);
    assert_string_equal(fen_now(&leaf), fen_now(&want));
    /* the record: its ply, no seat placed, the leaf a ply on */
    uint8_t rec[RECORDS_V3];
    records_encode_v3(&g.pos, -7, &leaf, 1, 11, 75, NULL, rec);
    assert_int_equal(rec[84] | rec[85] << 8, 75);
    assert_int_equal(rec[67], 0);
    assert_int_equal(rec[86], 1);
    assert_int_equal(rec[87], 0);
    assert_standings(rec, 88, &want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leaf_is_the_line_played),
        cmocka_unit_test(test_leaf_stops_before_an_arrival),
        cmocka_unit_test(test_leaf_plays_each_reply_by_its_own_seat),
        cmocka_unit_test(test_the_report_carries_the_whole_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
