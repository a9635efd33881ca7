/*
 * test_race_alone.c - the race solved alone in games of three to six seats
 * (race_root_alone: the side to move past every other seat, their armies
 * lifted off), against the real board, and the mate scores reported with
 * three or more seats. A chain may jump over the other armies' marbles that
 * the lifted solve does not see: in fifteen-3 white arrives in one move
 * through both other armies where the lifted solve counted two, and Stern
 * played the first of those two, and its best-reply search called that move
 * "mate 1". A solved count must be the real board's fewest (the other marbles
 * standing still, race.h), and a mate is printed only for a line that reaches
 * the first place, in the root seat's moves on it.
 */
#include "support/stern_test.h"

#include "epd.h"
#include "race.h"
#include "search.h"
#include "tt.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Game g;

/* What the reports of one search said. */
typedef struct {
    int solved;       /* REPORT_RACE_SOLVED's own moves of the side to move, 0: none */
    int lines, mates; /* REPORT_LINE lines, and those with a mate score */
    int mate_value;   /* the last mate's own moves */
    Move pv[64];      /* the last mate line */
    int pvlen;
} Heard;

static void listen(const SearchReport *r, void *ctx)
{
    Heard *h = ctx;
    if (r->kind == REPORT_RACE_SOLVED)
        h->solved = r->moves[0];
    if (r->kind != REPORT_LINE)
        return;
    h->lines++;
    if (!r->mate)
        return;
    h->mates++;
    h->mate_value = r->value;
    h->pvlen = r->pvlen < 64 ? r->pvlen : 64;
    memcpy(h->pv, r->pv, sizeof *h->pv * (size_t)h->pvlen);
}

/* Searches g at `depth` with `algo` (only `only` at the root when not NULL). */
static SearchResult search(SearchAlgo algo, int depth, const Move *only, Heard *h)
{
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = depth;
    if (only) {
        lim.searchmoves = only;
        lim.nsearchmoves = 1;
    }
    const SearchConfig cfg = {.algo = algo, .multipv = 1};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    memset(h, 0, sizeof *h);
    return test_search(&g, &lim, &cfg, &sig, listen, h);
}

/* Whether the mate line h heard, played from p, places p's side to move first,
 * and in h->mate_value of its own moves. */
static bool mate_line_holds(const Position *p, const Heard *h)
{
    Position q = *p;
    const int root = p->stm;
    int own = 0;
    for (int i = 0; i < h->pvlen && !pos_over(&q); i++) {
        own += q.stm == root;
        pos_play(&q, &h->pv[i]);
    }
    return q.place[root] == 1 && own == h->mate_value;
}

#define CHAIN_FEN "w/ww/www/www1/4wwwww4/4w7/3y4u2/6u3/yyy5u/y3u1u1u1/yy9/1yy2yu1y1uu/yyyy1u1u1uuuu/4/3/2/1 w w59,u59,y59 60"

static void test_chain_over_the_other_armies_arrives(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(game_new(&g, "fifteen-3"), 0);
    assert_int_equal(game_set_fen(&g, CHAIN_FEN, err, sizeof err), 0);
    assert_true(race_past_others(&g.pos, SEAT_WHITE));
    /* the real board: one move; with the others lifted: two */
    assert_int_equal(race_solve(&g.pos, SEAT_WHITE, 8, 16, 0, NULL, NULL, NULL), 1);
    Position alone = g.pos;
    race_remove_army(&alone, SEAT_BLUE);
    race_remove_army(&alone, SEAT_YELLOW);
    assert_int_equal(race_solve(&alone, SEAT_WHITE, 8, 16, 0, NULL, NULL, NULL), 2);
    Heard h;
    const SearchResult r = search(ALGO_AUTO, 3, NULL, &h);
    assert_true(r.has_best);
    Position q = g.pos;
    pos_play(&q, &r.best);
    assert_int_equal(q.status[SEAT_WHITE], ST_ARRIVED);
    assert_true(h.solved == 0 || h.solved == 1);
    assert_true(h.mates > 0 && mate_line_holds(&g.pos, &h) && h.mate_value == 1);
}

/* The best-reply line of a move that does not arrive (an own move, one reply,
 * then the arrival: no game, the third seat never moves) is no mate; paranoid
 * and max-n lines let every seat move and reach the first place in two. */
static void test_mate_only_on_a_line_that_reaches_first_place(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(game_new(&g, "fifteen-3"), 0);
    assert_int_equal(game_set_fen(&g, CHAIN_FEN, err, sizeof err), 0);
    const Move slow = move_ok(&g.pos, "f14-h14");
    Heard h;
    search(ALGO_BRS, 4, &slow, &h);
    assert_true(h.lines > 0);
    assert_int_equal(h.mates, 0);
    static const SearchAlgo full[] = {ALGO_PARANOID, ALGO_MAXN};
    for (size_t k = 0; k < sizeof full / sizeof *full; k++) {
        search(full[k], 4, &slow, &h);
        assert_true(h.mates > 0);
        assert_int_equal(h.mate_value, 2);
        assert_true(mate_line_holds(&g.pos, &h));
    }
}

/* Every position of the arrival suites of three to six seats (one move
 * arrives): the search at depth 1 plays an arriving move; a race it reports
 * solved has the real board's count (1), and a mate it reports is a line that
 * arrives in its own-move count. */
static void test_arrival_suites_against_the_real_board(void **state)
{
    (void)state;
    glob_t found;
    assert_int_equal(glob("suites/arrival-*.epd", 0, NULL, &found), 0);
    int positions = 0, solved = 0;
    for (size_t f = 0; f < found.gl_pathc; f++) {
        FILE *in = fopen(found.gl_pathv[f], "r");
        assert_non_null(in);
        char text[4096], err[256];
        static EpdPosition e;
        for (int line = 1; fgets(text, sizeof text, in); line++) {
            text[strcspn(text, "\n")] = 0;
            const int rc = epd_parse(text, line, &e, err, sizeof err);
            if (rc < 0)
                fail_msg("%s:%d: %s", found.gl_pathv[f], line, err);
            if (rc == 0 || e.v->nseats < 3)
                continue;
            assert_int_equal(game_new(&g, e.v->name), 0);
            assert_int_equal(game_set_fen(&g, e.fen, err, sizeof err), 0);
            Heard h;
            const SearchResult r = search(ALGO_AUTO, 1, NULL, &h);
            if (!r.has_best || !epd_solved(&e, &r.best))
                fail_msg("%s:%d: no arrival played", found.gl_pathv[f], line);
            if (h.solved) {
                const int real = race_solve(&g.pos, g.pos.stm, RACE_MAX_MOVES, 16, 0, NULL, NULL, NULL);
                if (h.solved != real)
                    fail_msg("%s:%d: solved in %d, the real board in %d", found.gl_pathv[f], line, h.solved, real);
                solved++;
            }
            if (h.mates && !mate_line_holds(&g.pos, &h))
                fail_msg("%s:%d: a mate in %d on a line that does not reach it", found.gl_pathv[f], line,
                         h.mate_value);
            positions++;
        }
        fclose(in);
    }
    globfree(&found);
    assert_true(positions >= 250);
    assert_true(solved > 0); /* the solver was asked, and agreed with the real board */
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_over_the_other_armies_arrives),
        cmocka_unit_test(test_mate_only_on_a_line_that_reaches_first_place),
        cmocka_unit_test(test_arrival_suites_against_the_real_board),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
