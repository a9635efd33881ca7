/*
 * test_race.c - the exact race solver (engine/solve/race.h) against brute force: a
 * breadth-first search over every position of one army (the others fixed) gives
 * the true fewest moves, which race_solve must equal on each small case, with and
 * without its table; the lower bound must never exceed it. Plus the row axis on
 * hand-checked holes and the solitaire crossing's first budgets (Bell 2009: the
 * optimum is 27 moves, so no budget up to 20 can succeed), a 27-move crossing
 * legal move by move, and the stern-cross tool (tools/research/cross_main.c) run as a
 * child process.
 */
#include "support/stern_test.h"

#include "movegen.h"
#include "notation.h"
#include "race.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static Game g;

/* Breadth-first search over seat s's positions in p (only s moves, others fixed):
 * the fewest moves to arrival as race.h defines it, or -1 beyond max_depth. */
typedef struct {
    Bitboard *keys;
    size_t mask;
} Set;

static bool set_add(Set *set, Bitboard b)
{
    uint64_t h = (uint64_t)b * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(b >> 64) * 0xc2b2ae3d27d4eb4fULL;
    for (size_t i = (h >> 17) & set->mask;; i = (i + 1) & set->mask) {
        if (set->keys[i] == b)
            return false;
        if (!set->keys[i]) {
            set->keys[i] = b;
            return true;
        }
    }
}

static Position with_army(const Position *p, int s, Bitboard army)
{
    Position q = *p;
    for (Bitboard b = q.seat_bb[s]; b;)
        q.board[bb_pop(&b)] = 0;
    q.occ = (q.occ & ~q.seat_bb[s]) | army;
    q.seat_bb[s] = army;
    for (Bitboard b = army; b;)
        q.board[bb_pop(&b)] = (uint8_t)(s + 1);
    return q;
}

static bool brute_arrived(const Position *p, int s, int made)
{
    const Bitboard own = p->seat_bb[s], target = p->v->target[s];
    if (own && !(own & ~target))
        return true;
    return made >= p->v->deadline && !(target & ~p->occ) && (own & target);
}

static int brute_force(const Position *p, int s, int max_depth)
{
    Set set = {calloc((size_t)1 << 22, sizeof(Bitboard)), ((size_t)1 << 22) - 1};
    Bitboard *level = malloc(sizeof(Bitboard) << 21), *next = malloc(sizeof(Bitboard) << 21);
    assert_non_null(set.keys);
    assert_non_null(level);
    assert_non_null(next);
    size_t n = 1;
    level[0] = p->seat_bb[s];
    set_add(&set, level[0]);
    int result = -1;
    for (int depth = 0; depth <= max_depth && n && result < 0; depth++) {
        size_t m = 0;
        for (size_t i = 0; i < n && result < 0; i++) {
            const Position q = with_army(p, s, level[i]);
            if (brute_arrived(&q, s, p->moves[s] + depth)) {
                result = depth;
                break;
            }
            for (Bitboard b = level[i]; b;) {
                const int from = bb_pop(&b);
                for (Bitboard d = gen_destinations(&q, s, from); d;) {
                    const int to = bb_pop(&d);
                    const Bitboard child = level[i] ^ bb_bit(from) ^ bb_bit(to);
                    if (set_add(&set, child)) {
                        assert_true(m < ((size_t)1 << 21));
                        next[m++] = child;
                    }
                }
            }
        }
        Bitboard *t = level;
        level = next;
        next = t;
        n = m;
    }
    free(set.keys);
    free(level);
    free(next);
    return result;
}

/* A classic-2 position with white's army on the holes named in `white`, black's
 * (fixed obstacles) on those in `black`, and white to move with `moves` own moves
 * made. Built directly: the solver needs only the board, not a game's FEN (which
 * wants ten marbles a seat). */
static Position army_position(const char *white, const char *black, int moves)
{
    assert_int_equal(game_new(&g, "classic-2"), 0);
    Position p = with_army(&g.pos, 3, 0); /* lift both armies first: they may swap points */
    p = with_army(&p, 0, 0);
    p = with_army(&p, 3, black[0] ? holes(black) : 0);
    p = with_army(&p, 0, holes(white));
    p.moves[0] = (int16_t)moves;
    return p;
}

/* Checks the solver for white against brute force in army_position(white, black,
 * moves); returns the answer. */
static int check_case(const char *white, const char *black, int moves, int max_depth)
{
    const Position p = army_position(white, black, moves);
    const int truth = brute_force(&p, 0, max_depth);
    Move pv[RACE_MAX_MOVES];
    RaceStats st;
    assert_int_equal(race_solve(&p, 0, max_depth, 0, 0, NULL, pv, &st), truth);
    assert_int_equal(race_solve(&p, 0, max_depth, 4, 0, NULL, NULL, NULL), truth);
    if (truth >= 0) {
        assert_true(race_lower_bound(&p, 0) <= truth);
        /* the moves replay to arrival: legal for white, one after another */
        Position q = p;
        for (int i = 0; i < truth; i++) {
            assert_true(bb_test(q.seat_bb[0], pv[i].from));
            assert_true(bb_test(gen_destinations(&q, 0, pv[i].from), pv[i].to));
            q = with_army(&q, 0, q.seat_bb[0] ^ bb_bit(pv[i].from) ^ bb_bit(pv[i].to));
        }
        assert_true(brute_arrived(&q, 0, moves + truth));
        if (truth > 0)
            assert_false(brute_arrived(&p, 0, moves));
    }
    return truth;
}

static void test_rows(void **state)
{
    (void)state;
    /* white: S point (home) rows 1-4, N point (target) rows 14-17 */
    assert_int_equal(race_row(0, hole("m1")), 1);
    assert_int_equal(race_row(0, hole("j4")), 4);
    assert_int_equal(race_row(0, hole("i5")), 5);
    assert_int_equal(race_row(0, hole("e9")), 9);
    assert_int_equal(race_row(0, hole("m9")), 9);
    assert_int_equal(race_row(0, hole("e13")), 13);
    assert_int_equal(race_row(0, hole("e17")), 17);
    /* black (seat 3) runs the other way */
    assert_int_equal(race_row(3, hole("e17")), 1);
    assert_int_equal(race_row(3, hole("m1")), 17);
    /* every step changes the row by at most one, for every seat */
    for (int s = 0; s < 6; s++)
        for (int h = 0; h < NUM_HOLES; h++)
            for (Bitboard n = geo.adjacent[h]; n;)
                assert_true(abs(race_row(s, h) - race_row(s, bb_pop(&n))) <= 1);
}

/* race_past_others: white (seat 0) in classic-3 with its last marble on row 13
 * and blue's (2) and yellow's (4) marbles and targets below it is past them, also
 * with a yellow marble one row below (row 12); not with a blue marble on row 13
 * (nor is blue then past white). With blue's last marble on j9, right of
 * yellow's on h9, blue is past too: each army is on its own side. Never in a
 * two-seat or long-jump game. */
static void test_past_others(void **state)
{
    (void)state;
    static const char *const past = "w/ww/www/www1/6w6/12/11/10/3y1u3/y8u/yy7uu/yyy6uuu/1yyy5uuu1/4/3/2/1 w w40,u40,y40 41";
    static const char *const below = "w/ww/www/www1/6w6/6y5/11/10/5u3/y8u/yy7uu/yyy6uuu/1yyy5uuu1/4/3/2/1 w w40,u40,y40 41";
    static const char *const near = "w/ww/www/www1/4u1w6/12/11/10/3y5/y8u/yy7uu/yyy6uuu/1yyy5uuu1/4/3/2/1 w w40,u40,y40 41";
    char err[128];
    assert_int_equal(game_new(&g, "classic-3"), 0);
    assert_int_equal(game_set_fen(&g, past, err, sizeof err), 0);
    assert_true(race_past_others(&g.pos, 0));
    assert_true(race_past_others(&g.pos, 2));
    assert_int_equal(game_set_fen(&g, below, err, sizeof err), 0);
    assert_true(race_past_others(&g.pos, 0));
    assert_int_equal(game_set_fen(&g, near, err, sizeof err), 0);
    assert_false(race_past_others(&g.pos, 0));
    assert_false(race_past_others(&g.pos, 2));
    assert_int_equal(game_new(&g, "longjumps-3"), 0);
    assert_int_equal(game_set_fen(&g, past, err, sizeof err), 0);
    assert_false(race_past_others(&g.pos, 0));
    /* two seats: race_separated's business */
    const Position p = army_position("e14 f14 g14 h14 e15 f15 g15 e16 f16 i13", "m1", 20);
    assert_true(race_separated(&p));
    assert_false(race_past_others(&p, 0));
}

static void test_arrived_is_zero(void **state)
{
    (void)state;
    const char *north = "e14 f14 g14 h14 e15 f15 g15 e16 f16 e17";
    assert_int_equal(check_case(north, "m1", 20, 3), 0);
    const Position p = army_position(north, "m1", 20);
    assert_int_equal(race_lower_bound(&p, 0), 0);
}

static void test_one_marble(void **state)
{
    (void)state;
    /* a lone marble can only step: the answer is its distance to the nearest
     * target hole (i13 touches h14; i9 is five steps from the target) */
    assert_int_equal(check_case("i13", "", 0, 6), 1);
    assert_int_equal(check_case("i9", "", 0, 8), 5);
    /* fixed black marbles serve as ladders */
    check_case("i9", "i10 i12", 0, 8);
    check_case("m1", "l3 k5 j7 i9 h11", 0, 12);
}

static void test_small_armies(void **state)
{
    (void)state;
    check_case("g12 h12 g11", "", 0, 10);
    check_case("i9 i10 h10", "", 0, 10);
    check_case("j10 i11 h11 i12", "", 0, 9);
    check_case("e13 g13 f12 h11", "", 0, 10);
    check_case("i5 j5 k5", "i7 h9", 0, 12);
}

static void test_locked_target(void **state)
{
    (void)state;
    /* a marble in the target may not leave it: f16 is locked in, h11 walks in */
    check_case("f16 h11", "", 0, 8);
    /* black stuck in the target: white can arrive only by filling it, from its
     * deadline on (RULES.md section 6) */
    const char *blocked = "e14 f14 g14 h14 e15 f15 g15 e16 i12 i11";
    assert_int_equal(check_case(blocked, "f16 e17", 10, 8), -1);
    const int n = check_case(blocked, "f16 e17", 29, 8);
    assert_true(n > 0);
}

static void test_crossing_first_budgets(void **state)
{
    (void)state;
    const Position p = army_position("m1 l2 m2 k3 l3 m3 j4 k4 l4 m4", "", 0);
    assert_int_equal(race_lower_bound(&p, 0), 19);
    RaceStats st;
    assert_int_equal(race_solve(&p, 0, 20, 16, 0, NULL, NULL, &st), -1);
    assert_int_equal(st.bound, 20);
}

/* A 27-move crossing found by tools/research/cross_main.c (stern-cross beam): every move
 * parses as a legal move of white (target lock and foreign points included) and
 * the army arrives. 27 is the optimum Bell (2009) proved for the crossing, and
 * `stern-cross sorted 26 26 2` refutes 26 or fewer under these rules (README). */
static void test_crossing_in_27(void **state)
{
    (void)state;
    static const char *const moves[] = {
        "j4-j5", "l2-j4-j6", "m3-k5-i7", "i7-h8", "m1-m3-k5-i7-g9", "k3-k5-i7", "k4-i6-i8-g8-g10", "g10-g11",
        "m2-k4-i6-i8-g8-g10-g12", "m4-k4-i6-i8-g8-g10", "j5-k5", "l3-l5-j5-j7-h7-h9-f11-h11-f13", "h8-f10-h10-f12-f14",
        "f14-f15", "j6-h8-f10-h10-f12-f14-f16", "l4-j6-h8-f10-h10-f12-f14", "k5-j6", "f14-g14",
        "j6-h8-f10-h10-f12-f14-h14", "i7-h8", "h8-f10-h10-f12-f14", "g11-g13-e15", "g9-g11-g13-g15-e17", "g10-g11",
        "g11-g13-g15", "g12-e14-e16", "f13-e14"};
    Position p = army_position("m1 l2 m2 k3 l3 m3 j4 k4 l4 m4", "", 0);
    p.stm = 0;
    assert_int_equal(sizeof moves / sizeof moves[0], 27);
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        Move m;
        char err[128];
        if (move_parse(&p, moves[i], &m, err, sizeof err))
            fail_msg("move %zu %s: %s", i + 1, moves[i], err);
        p = with_army(&p, 0, p.seat_bb[0] ^ bb_bit(m.from) ^ bb_bit(m.to));
        assert_false(pos_arrived(&p, 0, (int)i + 1) && i + 1 < 27);
    }
    assert_true(pos_arrived(&p, 0, 27));
}

/* The output of `stern-cross ARGS` (next to STERN_BIN, else in build/) with its
 * stderr, at most `size` bytes; returns the exit status. */
static int stern_cross(const char *args, char *out, size_t size)
{
    const char *bin = getenv("STERN_BIN");
    char dir[PATH_MAX], cmd[2 * PATH_MAX];
    snprintf(dir, sizeof dir, "%s", bin && *bin ? bin : "build/stern");
    char *slash = strrchr(dir, '/');
    snprintf(cmd, sizeof cmd, "%.*s/stern-cross %s 2>&1", slash ? (int)(slash - dir) : 1, slash ? dir : ".", args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    const size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    const int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The sizes of the layers stern-cross printed ("depth d: N new"), into sizes[d];
 * returns the number of layers. */
static int layer_sizes(const char *out, unsigned long long *sizes, int max)
{
    int n = 0;
    for (const char *at = out; (at = strstr(at, "depth ")) && n < max; at++) {
        int d, end = 0; /* end: set only when " new" follows the number */
        unsigned long long size;
        if (sscanf(at, "depth %d: %llu new%n", &d, &size, &end) == 2 && end && d == n + 1)
            sizes[++n] = size;
    }
    return n;
}

/* stern-cross: its move generator and row bound agree with the engine's, it
 * refutes the crossings of 20 moves or fewer (as race_solve does), its sorted
 * search on two threads builds the same layers as its hash-set search, and it
 * refuses a bad argument by name. */
static void test_stern_cross_tool(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(stern_cross("selftest", out, sizeof out), 0);
    assert_non_null(strstr(out, "selftest: 0 differences"));
    assert_int_equal(stern_cross("prove 20 20", out, sizeof out), 0);
    assert_non_null(strstr(out, "no solution of 20 moves or fewer"));
    static char out2[1 << 16];
    unsigned long long set_layers[16], sorted_layers[16];
    assert_int_equal(stern_cross("prove 21 20", out, sizeof out), 0);
    assert_int_equal(stern_cross("sorted 21 14 2", out2, sizeof out2), 0);
    assert_non_null(strstr(out2, "no solution of 21 moves or fewer"));
    const int n = layer_sizes(out, set_layers, 15);
    assert_int_equal(n, 10); /* the 11th is only checked by prove, not stored */
    assert_int_equal(layer_sizes(out2, sorted_layers, 15), 11);
    for (int d = 1; d <= n; d++)
        assert_int_equal(sorted_layers[d], set_layers[d]);
    assert_int_equal(stern_cross("prove 20 5", out, sizeof out), 2);
    assert_non_null(strstr(out, "LOG2_SET must be an integer from 10 to 36, not '5'"));
    assert_int_equal(stern_cross("sorted 21 14 0", out, sizeof out), 2);
    assert_non_null(strstr(out, "THREADS must be an integer from 1 to 64, not '0'"));
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_arrived_is_zero),
        cmocka_unit_test(test_one_marble),
        cmocka_unit_test(test_small_armies),
        cmocka_unit_test(test_locked_target),
        cmocka_unit_test(test_past_others),
        cmocka_unit_test(test_crossing_first_budgets),
        cmocka_unit_test(test_crossing_in_27),
        cmocka_unit_test(test_stern_cross_tool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
