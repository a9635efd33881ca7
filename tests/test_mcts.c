/*
 * test_mcts.c - the multi-player MCTS's reports through mcts_search's hooks:
 * MultiPV lines (the most visited root moves, in order, distinct, each a legal
 * line), when they are reported (each rise of the mean tree depth, each
 * periodic report asked for, once at the end), a root with fewer moves than
 * lines, an arrival played without a search, and the same tree on every run;
 * Progressive History's table and its term.
 */
#include "support/stern_test.h"

#include "mcts.h"
#include "mcts_history.h"
#include "movegen.h"
#include "node.h"
#include "places.h"
#include "pool.h"

#include <math.h>
#include <string.h>

static Game g;
static SearchPool *pool; /* two threads, for the threads test */
static MctsKept *kept;   /* the tree kept by searches with reuse */
static double history_w; /* MctsConfig.history_w of the searches run */
static double widening_c, oma_k; /* MctsConfig.widening_c (alpha 0.5) and .oma_k likewise */

#define MAX_REPORTS 64

/* What the hooks saw. */
typedef struct {
    int calls;                 /* lines received */
    int reports;               /* reports (line 0 received) */
    bool due;                  /* report_due's answer */
    int depth[MAX_REPORTS];    /* sofar->depth of each report */
    uint64_t playouts[MAX_REPORTS];
    int nlast;                 /* lines of the last report */
    Move first[8];             /* the last report's line k's first move */
    uint32_t visits[8];
    Move pv0[MCTS_PV_MAX];     /* the last report's line 0 */
    int pv0len;
    bool legal;                /* every line received was legal from the root */
    bool greedy;               /* every line's moves below the root were of the most progress */
    int longest;               /* moves of the longest line received */
} Seen;

static bool never(void *ctx)
{
    (void)ctx;
    return false;
}

static bool due(void *ctx) { return ((Seen *)ctx)->due; }

/* Whether pv[0..n-1] can be played in turn from g's position. */
static bool line_legal(const Move *pv, int n)
{
    Position p = g.pos;
    for (int i = 0; i < n; i++) {
        if (pos_over(&p) || !node_legal_move(&p, &pv[i], NULL))
            return false;
        pos_play(&p, &pv[i]);
    }
    return true;
}

/* Whether every move of line[1..n-1] is one of the most progress where it
 * is played (line[0], the root move, may be any). */
static bool greedy_below_root(const Move *line, int n)
{
    Position p = g.pos;
    MoveList *list = move_list_new();
    bool greedy = true;
    for (int i = 0; i < n && greedy; i++) {
        if (i > 0) {
            gen_moves_no_return(&p, list, NULL);
            int top = -1000;
            for (int j = 0; j < list->n; j++) {
                const int gain = p.v->tip_dist[p.stm][list->m[j].from] - p.v->tip_dist[p.stm][list->m[j].to];
                top = gain > top ? gain : top;
            }
            greedy = p.v->tip_dist[p.stm][line[i].from] - p.v->tip_dist[p.stm][line[i].to] == top;
        }
        pos_play(&p, &line[i]);
    }
    move_list_delete(list);
    return greedy;
}

static void lines(void *ctx, const MctsResult *sofar, int k, const MctsLine *line)
{
    Seen *s = ctx;
    s->greedy = s->greedy && greedy_below_root(line->pv, line->pvlen);
    s->longest = line->pvlen > s->longest ? line->pvlen : s->longest;
    s->calls++;
    if (k == 0) {
        if (s->reports < MAX_REPORTS) {
            s->depth[s->reports] = sofar->depth;
            s->playouts[s->reports] = sofar->playouts;
        }
        s->reports++;
        memcpy(s->pv0, line->pv, sizeof *line->pv * (size_t)line->pvlen);
        s->pv0len = line->pvlen;
    }
    if (k < 8) {
        s->first[k] = line->pv[0];
        s->visits[k] = line->visits;
    }
    s->nlast = k + 1;
    s->legal = s->legal && line->pvlen >= 1 && line_legal(line->pv, line->pvlen);
}

/* Runs mcts_search on g over its first `nroot` moves (0: all) for `playouts`
 * playouts with `multipv` lines; fills *seen and returns the result. */
static MctsResult run_with(int nroot, int multipv, uint64_t playouts, int threads, bool reuse, bool report_due,
                           Seen *seen)
{
    memset(seen, 0, sizeof *seen);
    seen->due = report_due;
    seen->legal = true;
    seen->greedy = true;
    MoveList *list = move_list_new();
    assert_non_null(list);
    gen_moves(&g.pos, list, NULL);
    if (nroot && nroot < list->n)
        list->n = nroot;
    const MctsHooks hooks = {.stop = never, .report_due = due, .lines = lines, .multipv = multipv, .ctx = seen};
    MctsResult r;
    const MctsConfig cfg = {.max_playouts = playouts, .nodes_cap = 1u << 20, .threads = threads, .pool = pool,
                            .kept = reuse ? kept : NULL, .history_w = history_w, .widening_c = widening_c,
                            .widening_alpha = 0.5, .oma_k = oma_k};
    assert_int_equal(mcts_search(&g, list->m, list->n, &cfg, &hooks, &r), 0);
    move_list_delete(list);
    return r;
}

static MctsResult run_over(int nroot, int multipv, uint64_t playouts, bool report_due, Seen *seen)
{
    return run_with(nroot, multipv, playouts, 1, false, report_due, seen);
}

static MctsResult run(int multipv, uint64_t playouts, bool report_due, Seen *seen)
{
    return run_over(0, multipv, playouts, report_due, seen);
}

static bool same_move(Move a, Move b) { return a.from == b.from && a.to == b.to && a.swap == b.swap; }

static void test_lines_are_the_most_visited_root_moves_in_order(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-6"), 0);
    play(&g, "k4-k5");
    Seen s;
    const MctsResult r = run(3, 4000, false, &s);
    assert_int_equal(r.playouts, 4000);
    assert_true(s.legal);
    assert_int_equal(s.nlast, 3);
    assert_true(same_move(s.first[0], r.best));
    assert_false(same_move(s.first[0], s.first[1]));
    assert_false(same_move(s.first[0], s.first[2]));
    assert_false(same_move(s.first[1], s.first[2]));
    assert_true(s.visits[0] >= s.visits[1] && s.visits[1] >= s.visits[2] && s.visits[2] > 0);
    assert_true(s.visits[0] + s.visits[1] + s.visits[2] <= 4000);
    /* line 0 is the result's PV */
    assert_int_equal(s.pv0len, r.pvlen);
    for (int i = 0; i < r.pvlen; i++)
        assert_true(same_move(s.pv0[i], r.pv[i]));
    /* the same tree with eight lines: its first three are these, and no later
     * root move has more visits than the third */
    Seen all;
    run(8, 4000, false, &all);
    assert_int_equal(all.nlast, 8);
    for (int k = 0; k < 3; k++) {
        assert_true(same_move(all.first[k], s.first[k]));
        assert_int_equal(all.visits[k], s.visits[k]);
    }
    for (int k = 3; k < 8; k++)
        assert_true(all.visits[k] <= s.visits[2]);
}

static void test_lines_are_reported_as_the_depth_rises_and_at_the_end(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    Seen s;
    const MctsResult r = run(2, 3000, false, &s);
    assert_true(s.reports >= 2);
    assert_int_equal(s.calls, 2 * s.reports);
    for (int i = 1; i < s.reports - 1; i++)
        assert_true(s.depth[i] > s.depth[i - 1]); /* each report before the last: a new depth */
    assert_int_equal(s.playouts[s.reports - 1], 3000);
    assert_int_equal(s.depth[s.reports - 1], r.depth);
}

static void test_periodic_reports_come_at_every_check(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-4"), 0);
    Seen s;
    run(1, 640, true, &s);
    /* the stop test runs every 64 playouts from 64 to 576 (at 640 the limit
     * ends the loop first): 9 periodic reports, then the final one */
    assert_int_equal(s.reports, 10);
    for (int i = 0; i < 9; i++)
        assert_int_equal(s.playouts[i], 64 * (uint64_t)(i + 1));
    assert_int_equal(s.playouts[9], 640);
}

static void test_fewer_root_moves_than_lines(void **state)
{
    (void)state;
    /* two root moves allowed (as by go searchmoves), five lines asked */
    assert_int_equal(game_new(&g, "classic-3"), 0);
    Seen s;
    run_over(2, 5, 500, false, &s);
    assert_true(s.legal);
    assert_int_equal(s.nlast, 2);
}

static void test_an_arrival_is_one_line_without_a_search(void **state)
{
    (void)state;
    /* white has nine home and the tenth one step away (i13-h14) */
    game_setup(&g, "classic-3",
               "w e17 e16 f16 e15 f15 g15 e14 f14 g14 i13 u n5 o5 p5 q5 n6 o6 p6 n7 o7 g10 "
               "y e5 f5 g5 h5 e6 f6 g6 e7 f7 k8",
               "w w40,u40,y40 41");
    Seen s;
    const MctsResult r = run(3, 500, false, &s);
    assert_int_equal(r.playouts, 0);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.pv0len, 1);
    assert_true(same_move(s.pv0[0], r.best));
    assert_int_equal(g.pos.board[r.best.from], g.pos.stm + 1);
    Position after = g.pos;
    pos_play(&after, &r.best);
    assert_true(after.place[g.pos.stm] == 1);
}

static void test_same_tree_on_every_run(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-6"), 0);
    Seen a, b;
    const MctsResult ra = run(4, 2000, false, &a), rb = run(4, 2000, false, &b);
    assert_int_equal(a.calls, b.calls);
    assert_int_equal(ra.depth, rb.depth);
    assert_int_equal(ra.seldepth, rb.seldepth);
    for (int k = 0; k < 4; k++) {
        assert_true(same_move(a.first[k], b.first[k]));
        assert_int_equal(a.visits[k], b.visits[k]);
    }
}

/* The root's visits of a search of one playout with tree reuse: what the
 * kept tree held for the position, plus that playout. */
static uint32_t root_visits_after_reuse(void)
{
    Seen s;
    run_with(0, 64, 1, 1, true, false, &s);
    assert_true(s.legal); /* every line of the reused tree is legal from the new root */
    uint32_t sum = 0;
    for (int k = 0; k < s.nlast && k < 8; k++)
        sum += s.visits[k];
    return sum;
}

static void test_tree_reuse_starts_from_the_subtree_of_the_moves_played(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-6"), 0);
    mcts_kept_clear(kept);
    Seen s;
    const MctsResult r = run_with(0, 1, 20000, 1, true, false, &s);
    assert_true(r.pvlen >= 3);
    /* two moves of the line: a position the kept tree knows well below its root */
    for (int i = 0; i < 2; i++)
        assert_int_equal(game_play(&g, &r.pv[i]), 0);
    const uint32_t inherited = root_visits_after_reuse();
    assert_true(inherited > 20); /* far more than the one playout of the search */
    /* a position the kept tree does not lead to: a fresh tree, one playout */
    assert_int_equal(game_new(&g, "classic-6"), 0);
    play(&g, "k4-k5");
    assert_true(root_visits_after_reuse() <= 1);
    /* forgotten (a new game): nothing kept */
    run_with(0, 1, 2000, 1, true, false, &s);
    mcts_kept_clear(kept);
    assert_true(root_visits_after_reuse() <= 1);
    mcts_kept_clear(kept);
}

static void test_threads_share_the_playouts_and_sum_the_root(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-4"), 0);
    Seen s;
    const MctsResult r = run_with(0, 3, 6000, 2, false, false, &s);
    assert_true(s.legal);
    assert_true(r.playouts >= 6000 && r.playouts <= 6000 + 2);
    /* the final lines count the root moves' visits over both trees */
    assert_true(s.visits[0] >= s.visits[1] && s.visits[1] >= s.visits[2]);
    assert_true(s.visits[0] + s.visits[1] + s.visits[2] <= r.playouts);
    assert_true(s.visits[0] > r.playouts / 20);
    assert_true(same_move(s.first[0], r.best));
}

static void test_solver_proves_a_first_place_two_moves_away(void **state)
{
    (void)state;
    /* white's tenth marble is two steps from its target (i12-h13-h14, or by
     * i13); blue and yellow each need two moves more and get one each before
     * white's second: every line of i12-h13 and i12-i13 ends with white first */
    game_setup(&g, "classic-3",
               "w e14 f14 g14 e15 f15 g15 e16 f16 e17 i12 u n5 o5 p5 q5 n6 o6 p6 n7 j6 k5 "
               "y e5 f5 g5 h5 e6 f6 g6 e7 h8 i7",
               "w w40,u40,y40 41");
    Seen s;
    const MctsResult r = run(1, 40000, false, &s);
    assert_true(same_move(r.best, move_ok(&g.pos, "i12-h13")) || same_move(r.best, move_ok(&g.pos, "i12-i13")));
    /* exactly first place (a proven value), not a mean of playouts that some
     * random move kept from arriving */
    assert_int_equal(r.values[0], PLACE_SPAN);
}

static void test_history_table_means_and_term(void **state)
{
    (void)state;
    MctsHistory *h = mcts_history_new();
    assert_non_null(h);
    const Move a = {.from = 5, .to = 17}, b = {.from = 17, .to = 5};
    assert_true(mcts_history_mean(h, 2, &a) == 0.0);
    mcts_history_add(h, 2, &a, 1.0f);
    mcts_history_add(h, 2, &a, 0.5f);
    mcts_history_add(h, 3, &a, 0.25f);
    assert_true(mcts_history_mean(h, 2, &a) == 0.75);
    assert_true(mcts_history_mean(h, 3, &a) == 0.25); /* per seat */
    assert_true(mcts_history_mean(h, 2, &b) == 0.0);  /* per direction */
    mcts_history_delete(h);
    /* W x / ((1 - v) n + 1): 5 * 0.6 / (0.5 * 3 + 1) = 1.2, and it fades */
    assert_true(fabs(mcts_history_bonus(5, 0.6, 0.5, 3) - 1.2) < 1e-12);
    assert_true(mcts_history_bonus(5, 0.6, 0.5, 30) < mcts_history_bonus(5, 0.6, 0.5, 3));
    assert_true(mcts_history_bonus(5, 0.6, 0.9, 30) > mcts_history_bonus(5, 0.6, 0.5, 30));
}

/* Whether the six lines of `on` differ from those of `off` (a search without
 * the enhancement), asserting that `again` (the same search as `on`) has
 * the same lines. */
static bool steered(const Seen *off, const Seen *on, const Seen *again)
{
    bool differ = false;
    for (int k = 0; k < 6; k++) {
        assert_true(same_move(on->first[k], again->first[k]));
        assert_int_equal(on->visits[k], again->visits[k]);
        differ = differ || !same_move(on->first[k], off->first[k]) || on->visits[k] != off->visits[k];
    }
    return differ;
}

/* The root lines' first moves and visits of a search of `playouts` with
 * history weight w, one thread. */
static void root_of(double w, uint64_t playouts, Seen *s)
{
    history_w = w;
    run(6, playouts, false, s);
    history_w = 0;
}

static void test_progressive_history_steers_the_search_alike_every_run(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-4"), 0);
    play(&g, "k4-k5");
    Seen off, on, again;
    root_of(0, 3000, &off);
    root_of(5, 3000, &on);
    root_of(5, 3000, &again);
    /* the table is kept and read: the tree is another than without it */
    assert_true(steered(&off, &on, &again));
    /* with two threads, each tree its own table */
    history_w = 5;
    const MctsResult r = run_with(0, 3, 4000, 2, false, false, &on);
    history_w = 0;
    assert_true(on.legal && r.has_best);
}

static void test_progressive_widening_keeps_the_moves_of_most_progress_first(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    play(&g, "k3-k5");
    Seen s;
    /* C = 0.01: below the root a node selects among its first child alone until
     * it has 10,000 visits, and children go by progress: every line is greedy
     * after its root move */
    widening_c = 0.01;
    run(6, 3000, false, &s);
    widening_c = 0;
    assert_true(s.legal && s.longest >= 4);
    assert_true(s.greedy);
    /* without widening the same search's lines are not */
    run(6, 3000, false, &s);
    assert_true(s.longest >= 3);
    assert_false(s.greedy);
}

static void test_opponent_move_abstraction_steers_the_search_alike_every_run(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    play(&g, "k3-k5");
    Seen off, on, again;
    /* with progressive widening, whose few children below the root are soon
     * all visited: their selection is where the shared statistics count */
    widening_c = 0.5;
    run(6, 4000, false, &off);
    oma_k = 50;
    run(6, 4000, false, &on);
    run(6, 4000, false, &again);
    /* the shared statistics are kept and read: another tree than without them */
    assert_true(steered(&off, &on, &again));
    const MctsResult r = run_with(0, 3, 4000, 2, false, false, &on);
    oma_k = 0;
    widening_c = 0;
    assert_true(on.legal && r.has_best);
}

int main(void)
{
    board_init();
    pool = pool_new(2);
    kept = mcts_kept_new();
    if (pool_threads(pool) != 2 || !kept)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_are_the_most_visited_root_moves_in_order),
        cmocka_unit_test(test_lines_are_reported_as_the_depth_rises_and_at_the_end),
        cmocka_unit_test(test_periodic_reports_come_at_every_check),
        cmocka_unit_test(test_fewer_root_moves_than_lines),
        cmocka_unit_test(test_an_arrival_is_one_line_without_a_search),
        cmocka_unit_test(test_same_tree_on_every_run),
        cmocka_unit_test(test_tree_reuse_starts_from_the_subtree_of_the_moves_played),
        cmocka_unit_test(test_threads_share_the_playouts_and_sum_the_root),
        cmocka_unit_test(test_solver_proves_a_first_place_two_moves_away),
        cmocka_unit_test(test_history_table_means_and_term),
        cmocka_unit_test(test_progressive_history_steers_the_search_alike_every_run),
        cmocka_unit_test(test_progressive_widening_keeps_the_moves_of_most_progress_first),
        cmocka_unit_test(test_opponent_move_abstraction_steers_the_search_alike_every_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
