/*
 * test_multi.c - the multi-seat searches against brute force on small trees.
 * With SearchConfig.full_width (no reductions), paranoid, max-n, best-reply
 * search, BRS+ and OPPS (with several of its parameters) must give the value a
 * plain recursive search of the same model gives (leaves valued by places.h, the side to move's best capture
 * counted in capture mode, every seat's next progress in part in three-seat
 * races, terminal positions by their places), and a best
 * move that reaches it, at depths 3-4 in games of three, four and six seats,
 * a team game and capture mode.
 */
#include "support/stern_test.h"

#include "eval.h"
#include "movegen.h"
#include "notation.h"
#include "places.h"
#include "search.h"
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Game g;
static int root;

static MoveList *new_list(void)
{
    MoveList *l = move_list_new();
    assert_non_null(l);
    return l;
}

/* +1 for the root's team, -1 for the others. */
static int side_of(int s) { return s == root || s == variant_partner(g.v, root) ? 1 : -1; }

/* The side to move's best capture, priced as the search's leaves price it. */
static int node_capture_bonus(const Position *p)
{
    if (!p->v->capture)
        return 0;
    MoveList *l = new_list();
    gen_moves(p, l, NULL);
    int best = 0;
    for (int i = 0; i < l->n; i++)
        best = l->m[i].ncapt > best ? l->m[i].ncapt : best;
    move_list_delete(l);
    return best * W_CAPTURE;
}

/* A leaf of paranoid or best-reply search: in a race of three seats without
 * teams or swaps every seat in play is credited with a share of its next
 * move's progress (places.h), elsewhere the side to move's best capture. */
static int leaf(const Position *p, int ply)
{
    const Variant *v = p->v;
    if (v->nseats != 3 || v->capture || v->teams || v->masters || pos_over(p))
        return places_value_for(p, root, ply, node_capture_bonus(p), NULL);
    int bonus[MAX_SEATS] = {0};
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        if (p->status[s] == ST_PLAYING)
            bonus[s] = list_best_progress(p, s, v->tip_dist[s]) * W_DISTANCE *
                       (s == p->stm ? LEAF_STEP_PCT_THREE : LEAF_NEXT_PCT_THREE) / 100;
    }
    return places_value_bonuses(p, root, ply, bonus, NULL);
}

/* Whether p ends the tree for the root: the game is over or the root placed. */
static bool node_terminal(const Position *p) { return pos_over(p) || p->place[root]; }

/* ---- paranoid: the root's team maximises, every other seat minimises ---- */

static int paranoid(const Position *p, int depth, int ply)
{
    if (depth == 0)
        return leaf(p, ply);
    MoveList *l = new_list();
    gen_moves_no_return(p, l, NULL);
    const int side = side_of(p->stm);
    int best = side > 0 ? -SCORE_INF : SCORE_INF;
    for (int i = 0; i < l->n; i++) {
        Position c = *p;
        pos_play(&c, &l->m[i]);
        const int v = node_terminal(&c) ? places_value_for(&c, root, ply + 1, 0, NULL) : paranoid(&c, depth - 1, ply + 1);
        best = side > 0 ? (v > best ? v : best) : (v < best ? v : best);
    }
    if (!l->n)
        best = leaf(p, ply);
    move_list_delete(l);
    return best;
}

/* ---- max-n: each seat maximises its own value, ties to the earlier move ---- */


static bool reply_pruning; /* selective max-n: another seat plays one of its top replies */
#define REPLY_TOP 4           /* brs.c's BRS_REPLY_TOP: replies of the most progress kept */
#define REPLY_TOP_CAPTURE 3   /* brs.c's BRS_REPLY_TOP_CAPTURE: of the most captures */

/* Keeps the k moves of the most progress (captures) of l, the earlier of equal
 * ones, in list order: by counting for each move the moves ranked above it. */
static void keep_top(const Position *p, MoveList *l, int k)
{
    int gain[4096], n = 0;
    for (int i = 0; i < l->n; i++)
        gain[i] = p->v->capture ? l->m[i].ncapt : p->v->tip_dist[p->stm][l->m[i].from] - p->v->tip_dist[p->stm][l->m[i].to];
    Move kept[4096];
    for (int i = 0; i < l->n; i++) {
        int above = 0;
        for (int j = 0; j < l->n; j++)
            above += gain[j] > gain[i] || (gain[j] == gain[i] && j < i);
        if (above < k)
            kept[n++] = l->m[i];
    }
    memcpy(l->m, kept, sizeof *kept * (size_t)n);
    l->n = n;
}

static void maxn(const Position *p, int depth, int ply, int out[MAX_SEATS])
{
    if (depth == 0) {
        places_values(p, ply, node_capture_bonus(p), out, NULL);
        return;
    }
    MoveList *l = new_list();
    gen_moves_no_return(p, l, NULL);
    if (reply_pruning && side_of(p->stm) < 0)
        keep_top(p, l, p->v->capture ? REPLY_TOP_CAPTURE : REPLY_TOP);
    const int me = p->stm;
    int best = -SCORE_INF;
    Move best_move = {0};
    for (int i = 0; i < l->n; i++) {
        Position c = *p;
        pos_play(&c, &l->m[i]);
        int vals[MAX_SEATS];
        if (node_terminal(&c))
            places_values(&c, ply + 1, 0, vals, NULL);
        else
            maxn(&c, depth - 1, ply + 1, vals);
        if (vals[me] > best || (vals[me] == best && move_before(&l->m[i], &best_move))) {
            best = vals[me];
            best_move = l->m[i];
            memcpy(out, vals, sizeof vals);
        }
    }
    if (!l->n)
        places_values(p, ply, 0, out, NULL);
    move_list_delete(l);
}

/* ---- best-reply search and BRS+ ---- */

static bool plus; /* BRS+: the other opponents play their best-ordered move */

/* The first move of the most progress (captures) of p's side to move. */
static bool best_ordered(const Position *p, const MoveList *l, Move *out)
{
    int best = -1, top = 0;
    for (int i = 0; i < l->n; i++) {
        const Move *m = &l->m[i];
        const int o = p->v->capture ? m->ncapt : p->v->tip_dist[p->stm][m->from] - p->v->tip_dist[p->stm][m->to];
        if (best < 0 || o > top) {
            best = i;
            top = o;
        }
    }
    if (best >= 0)
        *out = l->m[best];
    return best >= 0;
}

static int brs(const Position *p, int depth, int ply)
{
    if (depth == 0)
        return leaf(p, ply);
    MoveList *l = new_list();
    int best;
    if (side_of(p->stm) > 0) {
        gen_moves_no_return(p, l, NULL);
        best = l->n ? -SCORE_INF : leaf(p, ply);
        for (int i = 0; i < l->n; i++) {
            Position c = *p;
            pos_play(&c, &l->m[i]);
            const int v = node_terminal(&c) ? places_value_for(&c, root, ply + 1, 0, NULL) : brs(&c, depth - 1, ply + 1);
            best = v > best ? v : best;
        }
        move_list_delete(l);
        return best;
    }
    /* a min node: every opponent's moves, each as if it were its turn */
    const Variant *v = p->v;
    Move filler[MAX_SEATS];
    bool has_filler[MAX_SEATS] = {false};
    Move moves[4096];
    int movers[4096], n = 0;
    for (int k = 0; k < v->nseats; k++) {
        const int o = v->seats[(v->slot[p->stm] + k) % v->nseats];
        if (side_of(o) > 0 || p->status[o] != ST_PLAYING)
            continue;
        Position q = *p;
        if (o != q.stm)
            pos_set_stm(&q, o);
        gen_moves_no_return(&q, l, NULL);
        for (int i = 0; i < l->n; i++) {
            assert_true(n < 4096);
            movers[n] = o;
            moves[n++] = l->m[i];
        }
        has_filler[o] = best_ordered(&q, l, &filler[o]);
    }
    best = n ? SCORE_INF : leaf(p, ply);
    for (int i = 0; i < n; i++) {
        Position c = *p;
        if (c.stm != movers[i])
            pos_set_stm(&c, movers[i]);
        pos_play(&c, &moves[i]);
        for (int k = 1; plus && k < v->nseats; k++) {
            const int s = v->seats[(v->slot[root] + k) % v->nseats];
            if (pos_over(&c) || c.status[root] != ST_PLAYING)
                break;
            if (s == movers[i] || side_of(s) > 0 || c.status[s] != ST_PLAYING)
                continue;
            Position t = c;
            pos_set_stm(&t, s);
            Move f;
            bool have;
            if (has_filler[s] && !v->capture && !v->masters && gen_race_move_exists(&t, filler[s].from, filler[s].to, NULL)) {
                f = filler[s];
                have = true;
            } else {
                gen_moves_no_return(&t, l, NULL);
                have = best_ordered(&t, l, &f);
            }
            if (have) {
                pos_set_stm(&c, s);
                pos_play(&c, &f);
            }
        }
        if (!pos_over(&c) && side_of(c.stm) < 0 && c.status[root] == ST_PLAYING)
            pos_set_stm(&c, root);
        const int val = node_terminal(&c) ? places_value_for(&c, root, ply + 1, 0, NULL) : brs(&c, depth - 1, ply + 1);
        best = val < best ? val : best;
    }
    move_list_delete(l);
    return best;
}

/* ---- OPPS: paranoid whose opponents play regular or reduced moves ---- */

static OppsParams opps_p; /* the parameters of the OPPS searches compared */

static void copy_moves(MoveList *dst, const MoveList *src)
{
    assert_true(move_list_reserve(dst, src->n));
    memcpy(dst->m, src->m, sizeof *src->m * (size_t)src->n);
    dst->n = src->n;
}

/* `regular`: the regular moves the opponents played since the root side's
 * last move. An opponent plays one of its opps_p.reduced_moves moves of the
 * most progress (captures), or, while fewer than opps_p.regular opponents
 * did, also one of its opps_p.regular_moves (0: any), which counts as regular
 * when it is not among the reduced ones. */
static int opps(const Position *p, int depth, int ply, int regular)
{
    if (depth == 0)
        return leaf(p, ply);
    MoveList *l = new_list(), *reduced = new_list();
    gen_moves_no_return(p, l, NULL);
    const int side = side_of(p->stm);
    if (side < 0) {
        copy_moves(reduced, l);
        keep_top(p, reduced, opps_p.reduced_moves);
        if (regular >= opps_p.regular)
            copy_moves(l, reduced);
        else if (opps_p.regular_moves > 0)
            keep_top(p, l, opps_p.regular_moves > opps_p.reduced_moves ? opps_p.regular_moves : opps_p.reduced_moves);
    }
    int best = l->n ? (side > 0 ? -SCORE_INF : SCORE_INF) : leaf(p, ply);
    for (int i = 0; i < l->n; i++) {
        Position c = *p;
        pos_play(&c, &l->m[i]);
        bool is_reduced = false;
        for (int j = 0; j < reduced->n; j++)
            is_reduced |= move_same(&reduced->m[j], &l->m[i]);
        const int next = side > 0 || side_of(c.stm) > 0 ? 0 : regular + !is_reduced;
        const int v = node_terminal(&c) ? places_value_for(&c, root, ply + 1, 0, NULL) : opps(&c, depth - 1, ply + 1, next);
        best = side > 0 ? (v > best ? v : best) : (v < best ? v : best);
    }
    move_list_delete(reduced);
    move_list_delete(l);
    return best;
}

/* The brute-force value of every root move (root's view) into vals[], in the
 * order of gen_moves_no_return; returns their number. */
static int root_values(SearchAlgo algo, int depth, Move *moves, int *vals)
{
    MoveList *l = new_list();
    gen_moves_no_return(&g.pos, l, NULL);
    const int n = l->n;
    for (int i = 0; i < n; i++) {
        Position c = g.pos;
        pos_play(&c, &l->m[i]);
        moves[i] = l->m[i];
        if (node_terminal(&c)) {
            vals[i] = places_value_for(&c, root, 1, 0, NULL);
        } else if (algo == ALGO_PARANOID) {
            vals[i] = paranoid(&c, depth - 1, 1);
        } else if (algo == ALGO_OPPS) {
            vals[i] = opps(&c, depth - 1, 1, 0);
        } else if (algo == ALGO_MAXN) {
            int all[MAX_SEATS];
            maxn(&c, depth - 1, 1, all);
            vals[i] = all[root];
        } else {
            plus = algo == ALGO_BRS_PLUS;
            vals[i] = brs(&c, depth - 1, 1);
        }
    }
    move_list_delete(l);
    return n;
}

static void quiet(const SearchReport *r, void *ctx)
{
    (void)r;
    (void)ctx;
}

/* The engine (at full width, or selective: `full`) against brute force in g's
 * position. */
static void assert_model(SearchAlgo algo, int depth, bool full)
{
    root = g.pos.stm;
    static Move moves[4096];
    static int vals[4096];
    const int n = root_values(algo, depth, moves, vals);
    int best = -SCORE_INF;
    for (int i = 0; i < n; i++)
        best = vals[i] > best ? vals[i] : best;
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = depth;
    const SearchConfig cfg = {.algo = algo, .multipv = 1, .full_width = full, .opps = opps_p};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    const SearchResult r = test_search(&g, &lim, &cfg, &sig, quiet, NULL);
    assert_true(r.has_best);
    if (r.score != best)
        fail_msg("%s, %s depth %d: value %d, brute force %d", g.v->name, search_algo_names[algo], depth, r.score,
                 best);
    int found = -1;
    for (int i = 0; i < n; i++)
        if (moves[i].from == r.best.from && moves[i].to == r.best.to && moves[i].swap == r.best.swap &&
            moves[i].captured == r.best.captured)
            found = i;
    assert_true(found >= 0);
    if (vals[found] != best)
        fail_msg("%s, %s depth %d: best move worth %d, brute force best %d", g.v->name, search_algo_names[algo],
                 depth, vals[found], best);
}

static void assert_brute_force(SearchAlgo algo, int depth)
{
    reply_pruning = false;
    assert_model(algo, depth, true);
}

/* Plays the moves `text` (space separated) from the start of `variant`. */
static void setup(const char *variant, const char *text)
{
    assert_int_equal(game_new(&g, variant), 0);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        play(&g, t);
}

static const SearchAlgo ALGOS[] = {ALGO_PARANOID, ALGO_MAXN, ALGO_BRS, ALGO_BRS_PLUS};

static void test_three_seats_match_brute_force_at_depth_four(void **state)
{
    (void)state;
    for (size_t a = 0; a < 4; a++) {
        setup("classic-3", "m3-m5 c13-e13");
        assert_brute_force(ALGOS[a], 4);
    }
}

static void test_four_seats_match_brute_force_at_depth_three(void **state)
{
    (void)state;
    for (size_t a = 0; a < 4; a++) {
        setup("classic-4", "l3-l5");
        assert_brute_force(ALGOS[a], 3);
    }
}

static void test_six_seats_match_brute_force_at_depth_three(void **state)
{
    (void)state;
    for (size_t a = 0; a < 4; a++) {
        setup("classic-6", "");
        assert_brute_force(ALGOS[a], 3);
    }
}

static void test_teams_match_brute_force_at_depth_three(void **state)
{
    (void)state;
    for (size_t a = 0; a < 4; a++) {
        setup("pairs-4", "l3-l5");
        assert_brute_force(ALGOS[a], 3);
    }
}

/* Twelve plies into a capture-3 game (each the longest chain): 34 moves, a
 * tree small enough for the sanitizer builds at depth 3. */
#define CAPTURE_MIDDLE                                                                                         \
    "f13-d13 e11-e13-c13 h13-j13 h11-h13-f13-h11 g10-g12-e12-g10 i11-g11-i9-i11-i13-k13 k10-k12-i12-k10-m10 " \
    "l8-n8-l10-l8-n6 k8-k10-i10-k8 k7-m7-o5 j7-j9-l7-n5-p5 k6-m6-m4-k6-k4"

static void test_capture_mode_matches_brute_force_at_depth_three(void **state)
{
    (void)state;
    for (size_t a = 0; a < 4; a++) {
        setup("capture-3", CAPTURE_MIDDLE);
        assert_brute_force(ALGOS[a], 3);
    }
}

/* Selective max-n: the same value and best move as brute force when every
 * seat but the root's plays one of its replies of the most progress (captures). */
static void test_selective_maxn_matches_brute_force_with_reply_pruning(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *moves;
        int depth;
    } cases[] = {{"classic-3", "m3-m5 c13-e13", 4}, {"classic-6", "", 4}, {"capture-3", CAPTURE_MIDDLE, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        setup(cases[i].variant, cases[i].moves);
        reply_pruning = true;
        assert_model(ALGO_MAXN, cases[i].depth, false);
        reply_pruning = false;
    }
}

/* Twenty-four plies of classic-3 (depth-3 searches, hand-written evaluation),
 * White to move, its marbles in contact with Blue's. */
#define OPPS_POSITION                                                                                         \
    "k3-i5 c13-e13 k13-i13 m1-k3-k5 a13-c13-e11 m13-k13-k11 j4-h6 d13-f13 k12-k10 l3-j5-h5-h7 c12-e12-e14-g12 " \
    "l12-l10-j10 l4-j6 e13-g13-g11 l11-j11-j9 k4-k6-i6-g8 d11-f11-h11 k11-k9-i9 l2-l3 b12-c12 l13-l12 m2-k4 "     \
    "b13-d11-f11 m12-k12"

/* OPPS at full width against brute force: in OPPS_POSITION at depth 5 (two
 * opponent phases, so a count that were not reset after the root side's move
 * would show) with no regular opponent, a regular move from the top two, from
 * the top three with reduced ones from the top two, and from the top one with
 * reduced ones from the top two (both kinds: the top two); elsewhere BRS+'s
 * lines, and paranoid's tree (three seats: both opponents regular). */
static void test_opps_matches_brute_force(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *moves;
        int depth;
        OppsParams p;
    } cases[] = {
        {"classic-3", OPPS_POSITION, 5, {true, 0, 0, 1}},  {"classic-3", OPPS_POSITION, 5, {true, 1, 2, 1}},
        {"classic-3", OPPS_POSITION, 5, {true, 1, 3, 2}},  {"classic-3", OPPS_POSITION, 5, {true, 1, 1, 2}},
        {"classic-3", "m3-m5 c13-e13", 4, {true, 1, 0, 1}}, {"classic-3", "m3-m5 c13-e13", 4, {true, 2, 0, 1}},
        {"classic-6", "", 3, {true, 0, 0, 1}},              {"classic-6", "", 3, {true, 1, 0, 1}},
        {"capture-3", CAPTURE_MIDDLE, 3, {true, 1, 0, 1}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        setup(cases[i].variant, cases[i].moves);
        opps_p = cases[i].p;
        assert_brute_force(ALGO_OPPS, cases[i].depth);
    }
}

/* The reply a depth-2 search of root move `root_move` expects, under algo with
 * OPPS parameters o, in g's position. */
static Move expected_reply(SearchAlgo algo, OppsParams o, const char *root_move)
{
    Move m;
    assert_int_equal(move_parse(&g.pos, root_move, &m, NULL, 0), 0);
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = 2;
    lim.nsearchmoves = 1;
    lim.searchmoves = &m;
    const SearchConfig cfg = {.algo = algo, .multipv = 1, .opps = o};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    const SearchResult r = test_search(&g, &lim, &cfg, &sig, quiet, NULL);
    assert_true(r.has_best && r.has_ponder);
    return r.ponder;
}

/* The position of OPPS_POSITION (above): after White's g8-h8, paranoid expects
 * Blue's chain g12-i10-i8-g8-i6-k6 (it blocks White). OPPS with no regular
 * opponent prunes it (Blue plays only its move of the most progress,
 * d12-f10-f12-h10-j8); with one regular opponent Blue may play it again. */
static void test_opps_prunes_a_named_reply(void **state)
{
    (void)state;
    setup("classic-3", OPPS_POSITION);
    Move root_move;
    assert_int_equal(move_parse(&g.pos, "g8-h8", &root_move, NULL, 0), 0);
    Position after = g.pos;
    pos_play(&after, &root_move);
    Move block, best_ordered;
    assert_int_equal(move_parse(&after, "g12-i10-i8-g8-i6-k6", &block, NULL, 0), 0);
    assert_int_equal(move_parse(&after, "d12-f10-f12-h10-j8", &best_ordered, NULL, 0), 0);
    Move r = expected_reply(ALGO_PARANOID, (OppsParams){0}, "g8-h8");
    assert_true(move_same(&r, &block));
    r = expected_reply(ALGO_OPPS, (OppsParams){true, 0, 0, 1}, "g8-h8");
    assert_true(move_same(&r, &best_ordered));
    r = expected_reply(ALGO_OPPS, (OppsParams){true, 1, 0, 1}, "g8-h8");
    assert_true(move_same(&r, &block));
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_seats_match_brute_force_at_depth_four),
        cmocka_unit_test(test_four_seats_match_brute_force_at_depth_three),
        cmocka_unit_test(test_six_seats_match_brute_force_at_depth_three),
        cmocka_unit_test(test_teams_match_brute_force_at_depth_three),
        cmocka_unit_test(test_capture_mode_matches_brute_force_at_depth_three),
        cmocka_unit_test(test_selective_maxn_matches_brute_force_with_reply_pruning),
        cmocka_unit_test(test_opps_matches_brute_force),
        cmocka_unit_test(test_opps_prunes_a_named_reply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
