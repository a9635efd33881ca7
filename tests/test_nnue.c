/*
 * test_nnue.c - the learned evaluation's inference (engine/eval/nnue/nnue.h) on
 * nets of random weights built here: the engine's value equals a plain
 * reading of the format (docs/NNUE.md) written out in this test, the SIMD
 * path equals the scalar one, the sums updated move by move equal sums made
 * afresh after every move of random games in each variant a net serves, and a
 * damaged, truncated or foreign file is refused with its reason. (That the
 * engine equals the trainer's integer pass is tools/nnue/nnue_check.py's job,
 * run by `make test` on a net trained there. Format version 1, two seats;
 * test_nnue_multi.c tests version 2, three to six.)
 */
#include "support/stern_test.h"

#include "board.h"
#include "eval.h"
#include "movegen.h"
#include "nnue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define L1 32
#define L2 6 /* a block of four rows and two left over: both of the AVX2 loops */
#define PLANES 2
#define INPUTS (PLANES * NUM_HOLES)
#define SCALE 400

/* A net's weights, as integers, before they are written. */
typedef struct {
    int16_t w1[INPUTS][L1], b1[L1];
    int32_t lin[INPUTS];
    int8_t w2[L2][2 * L1];
    int32_t b2[L2];
    int16_t w3[L2];
    int32_t b3;
} Weights;

static uint64_t rng_state;
static int rnd(int lo, int hi) /* uniform in [lo, hi] */
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((rng_state >> 33) % (uint64_t)(hi - lo + 1));
}

/* Weights from `seed`, their sums staying inside int16 (as the trainer keeps
 * them) and wide enough that the clipping at 0 and 127 is reached. */
static void random_weights(Weights *w, uint64_t seed)
{
    rng_state = seed;
    for (int f = 0; f < INPUTS; f++)
        for (int j = 0; j < L1; j++)
            w->w1[f][j] = (int16_t)rnd(-40, 40);
    for (int j = 0; j < L1; j++)
        w->b1[j] = (int16_t)rnd(-100, 160);
    for (int f = 0; f < INPUTS; f++)
        w->lin[f] = rnd(-30000, 30000);
    for (int k = 0; k < L2; k++) {
        for (int j = 0; j < 2 * L1; j++)
            w->w2[k][j] = (int8_t)rnd(-128, 127);
        w->b2[k] = rnd(-20000, 20000);
        w->w3[k] = (int16_t)rnd(-3000, 3000);
    }
    w->b3 = rnd(-50000, 50000);
}

static size_t put(uint8_t *b, size_t at, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[at + i] = (uint8_t)(x >> (8 * i));
    return at + (size_t)bytes;
}

/* The file of w serving `variants`, into buf (returns its size). */
static size_t write_net(const Weights *w, const char *variants, uint8_t *buf)
{
    memset(buf, 0, 96);
    memcpy(buf, NNUE_MAGIC, 8);
    size_t at = put(buf, 8, NNUE_VERSION, 4);
    at = put(buf, at, PLANES, 4);
    at = put(buf, at, L1, 4);
    at = put(buf, at, L2, 4);
    at = put(buf, at, SCALE, 4);
    memcpy(buf + 32, variants, strlen(variants));
    at = 96;
    for (int f = 0; f < INPUTS; f++)
        for (int j = 0; j < L1; j++)
            at = put(buf, at, (uint16_t)w->w1[f][j], 2);
    for (int j = 0; j < L1; j++)
        at = put(buf, at, (uint16_t)w->b1[j], 2);
    for (int f = 0; f < INPUTS; f++)
        at = put(buf, at, (uint32_t)w->lin[f], 4);
    for (int k = 0; k < L2; k++)
        for (int j = 0; j < 2 * L1; j++)
            at = put(buf, at, (uint8_t)w->w2[k][j], 1);
    for (int k = 0; k < L2; k++)
        at = put(buf, at, (uint32_t)w->b2[k], 4);
    for (int k = 0; k < L2; k++)
        at = put(buf, at, (uint16_t)w->w3[k], 2);
    at = put(buf, at, (uint32_t)w->b3, 4);
    return put(buf, at, XXH3_64bits(buf, at), 8);
}

#define NET_BYTES (96 + INPUTS * L1 * 2 + L1 * 2 + INPUTS * 4 + L2 * 2 * L1 + L2 * 4 + L2 * 2 + 4 + 8)

static Weights weights;
static uint8_t file[NET_BYTES];
static Game g_for_nnue;

static Nnue *make_net(uint64_t seed, const char *variants)
{
    random_weights(&weights, seed);
    assert_int_equal(write_net(&weights, variants, file), NET_BYTES);
    char err[256];
    Nnue *net = nnue_from_bytes(file, NET_BYTES, err, sizeof err);
    if (!net)
        fail_msg("refused: %s", err);
    return net;
}

static int clip(int x) { return x < 0 ? 0 : x > 127 ? 127 : x; }

/* The value of p read straight from the format: the view of the side to move
 * first, a marble of the viewer's own on plane 0 and the other's on plane 1,
 * holes turned to the viewer's side. Independent of engine/eval/nnue but for nnue_hole,
 * checked on its own below. */
static int reference_value(const Position *p)
{
    const Variant *v = p->v;
    const int us = p->stm, them = v->seats[1 - v->slot[us]];
    int x[2 * L1];
    long long lin[2] = {0, 0};
    const int view[2] = {us, them};
    for (int half = 0; half < 2; half++) {
        for (int h = 0; h < NUM_HOLES; h++)
            if (p->board[h])
                lin[half] += weights.lin[(p->board[h] - 1 == view[half] ? 0 : 1) * NUM_HOLES + nnue_hole(view[half], h)];
        for (int j = 0; j < L1; j++) {
            int sum = weights.b1[j];
            for (int h = 0; h < NUM_HOLES; h++) {
                const int c = p->board[h];
                if (!c)
                    continue;
                const int plane = c - 1 == view[half] ? 0 : 1;
                sum += weights.w1[plane * NUM_HOLES + nnue_hole(view[half], h)][j];
            }
            x[half * L1 + j] = clip(sum);
        }
    }
    const long long d = lin[0] - lin[1];
    long long out = weights.b3 + (d >= 0 ? d / 2 : -((-d + 1) / 2)); /* half, rounded down */
    for (int k = 0; k < L2; k++) {
        long long s = weights.b2[k];
        for (int j = 0; j < 2 * L1; j++)
            s += (long long)weights.w2[k][j] * x[j];
        out += (long long)weights.w3[k] * clip((int)(s >> 6));
    }
    const long long value = out * SCALE / (NNUE_QA * NNUE_QO);
    return (int)(value > NNUE_VALUE_MAX ? NNUE_VALUE_MAX : value < -NNUE_VALUE_MAX ? -NNUE_VALUE_MAX : value);
}

/* On x86-64 (every such CPU has SSSE3) the SIMD path runs, so the
 * comparisons below compare it with plain C and not plain C with itself; AVX2
 * is compared where the CPU has it (said when not). */
static void test_every_path_runs_here(void **state)
{
    (void)state;
#if defined(__x86_64__)
    assert_true(nnue_path_available(NNUE_SSSE3));
    if (!nnue_path_available(NNUE_AVX2))
        print_message("this CPU has no AVX2: that path is not compared\n");
#endif
}

/* Seat s's view turns the board so that s's home is the south point; two
 * seats' views of the same hole are a turn of 60 degrees per seat apart, and
 * each view is a permutation. */
static void test_views_turn_each_home_to_the_south(void **state)
{
    (void)state;
    board_init();
    const Variant *v6 = variant_find("classic-6");
    for (int s = 0; s < MAX_SEATS; s++) {
        Bitboard seen = 0, home = 0;
        for (int h = 0; h < NUM_HOLES; h++) {
            seen |= bb_bit(nnue_hole(s, h));
            if (bb_test(v6->home[s], h))
                home |= bb_bit(nnue_hole(s, h));
        }
        assert_true(seen == geo.all);
        assert_true(home == v6->home[SEAT_WHITE]);
        assert_int_equal(nnue_hole(s, geo.tip[(s + 3) % 6]), geo.tip[POINT_N]);
    }
    for (int h = 0; h < NUM_HOLES; h++)
        assert_int_equal(nnue_hole(SEAT_WHITE, h), h);
    /* black's view is the half turn: a1-like corners swap */
    assert_int_equal(nnue_hole(SEAT_BLACK, geo.tip[POINT_S]), geo.tip[POINT_N]);
}

/* Plays `plies` random moves of variant `name` from its start and checks at
 * every position: the search-path sums (eval_for_ply at the ply) equal sums
 * made afresh, the value equals the reference's, and SIMD equals scalar. */
static void check_random_games(const Nnue *net, const char *name, int games, int plies, uint64_t seed)
{
    NnueAcc *fresh = aligned_alloc(64, sizeof *fresh);
    EvalMemo *memo = eval_memo_new();
    MoveList *list = move_list_new();
    assert_non_null(fresh);
    assert_true(eval_memo_set_net(memo, net));
    uint64_t r = seed;
    int checked = 0;
    for (int gi = 0; gi < games; gi++) {
        game_new(&g_for_nnue, name);
        Position path[64];
        int depth = 0;
        path[0] = g_for_nnue.pos;
        for (int ply = 0; ply < plies && !pos_over(&path[depth]); ply++) {
            const Position *p = &path[depth];
            /* the value along a depth-first path, as the search asks */
            const int along = eval_for_ply(p, p->stm, depth, memo);
            nnue_refresh(net, p, fresh);
            assert_int_equal(along, nnue_output(net, fresh, p));
            const int plain = nnue_output_scalar(net, fresh, p);
            assert_int_equal(nnue_output(net, fresh, p), plain);
            assert_int_equal(nnue_output_path(net, fresh, p, NNUE_SSSE3), plain);
            assert_int_equal(nnue_output_path(net, fresh, p, NNUE_AVX2), plain);
            assert_int_equal(nnue_output_scalar(net, fresh, p), reference_value(p));
            /* the other seat's view of the same value */
            const int other = p->v->seats[1 - p->v->slot[p->stm]];
            assert_int_equal(eval_for_ply(p, other, depth, memo), -along);
            checked++;
            gen_moves(p, list, NULL);
            if (!list->n)
                break;
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            /* mostly deeper, sometimes back up a few plies: siblings and
             * cousins reuse sums as the search's do */
            if (depth > 2 && (r >> 60) == 0)
                depth -= 1 + (int)((r >> 40) % 2);
            else if (depth < 63) {
                path[depth + 1] = path[depth];
                pos_play(&path[depth + 1], &list->m[(r >> 33) % (uint64_t)list->n]);
                depth++;
            }
        }
    }
    if (checked < games * 40) /* random play loses to the exit deadline by ply 60 or so */
        fail_msg("%s: only %d positions checked", name, checked);
    free(fresh);
    eval_memo_delete(memo);
    move_list_delete(list);
}

static void test_incremental_sums_and_simd_equal_a_fresh_reading(void **state)
{
    (void)state;
    Nnue *net = make_net(11, "classic-2,ccerl-2");
    check_random_games(net, "classic-2", 12, 160, 5);
    check_random_games(net, "ccerl-2", 12, 160, 6);
    nnue_delete(net);
    net = make_net(12, "classic-2");
    check_random_games(net, "classic-2", 6, 120, 7);
    nnue_delete(net);
}

/* The clipping reached: values at both ends of 0-127 occur in the sums, so
 * the equalities above cover the saturating SIMD packs. */
static void test_random_nets_reach_both_clips(void **state)
{
    (void)state;
    Nnue *net = make_net(11, "classic-2");
    Game *gm = &g_for_nnue;
    game_new(gm, "classic-2");
    NnueAcc *acc = aligned_alloc(64, sizeof *acc);
    nnue_refresh(net, &gm->pos, acc);
    int low = 0, high = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < L1; j++) {
            low += acc->v[i][j] <= 0;
            high += acc->v[i][j] >= 127;
        }
    assert_true(low > 0 && high > 0);
    free(acc);
    nnue_delete(net);
}

/* A file is refused whole with its reason: damaged (one byte changed),
 * truncated, too long, not a net, another format version, sizes out of range;
 * a net for other variants does not serve them. */
static void test_damaged_and_foreign_nets_are_refused(void **state)
{
    (void)state;
    Nnue *net = make_net(3, "classic-2");
    assert_true(nnue_serves(net, variant_find("classic-2")));
    assert_false(nnue_serves(net, variant_find("ccerl-2")));
    assert_false(nnue_serves(net, variant_find("classic-3")));
    assert_string_equal(nnue_variants(net), "classic-2");
    nnue_delete(net);
    char err[256];
    static uint8_t bad[NET_BYTES + 8];
    memcpy(bad, file, NET_BYTES);
    bad[5000] ^= 1;
    assert_null(nnue_from_bytes(bad, NET_BYTES, err, sizeof err));
    assert_string_equal(err, "checksum mismatch (the file is damaged)");
    assert_null(nnue_from_bytes(file, NET_BYTES - 1, err, sizeof err));
    char want[128];
    snprintf(want, sizeof want, "truncated: %d of %d bytes", NET_BYTES - 1, NET_BYTES);
    assert_string_equal(err, want);
    memcpy(bad, file, NET_BYTES);
    assert_null(nnue_from_bytes(bad, NET_BYTES + 8, err, sizeof err));
    assert_non_null(strstr(err, "too long"));
    assert_null(nnue_from_bytes("STERNBOOK", 9, err, sizeof err));
    assert_string_equal(err, "not a Stern net (no STERNNUE header)");
    memcpy(bad, file, NET_BYTES);
    bad[8] = 9;
    assert_null(nnue_from_bytes(bad, NET_BYTES, err, sizeof err));
    assert_string_equal(err, "net format version 9, this engine reads 1 and 2");
    memcpy(bad, file, NET_BYTES);
    bad[16] = 7; /* L1 of 7 */
    assert_null(nnue_from_bytes(bad, NET_BYTES, err, sizeof err));
    assert_non_null(strstr(err, "out of range"));
    /* intact, but weights whose sums could leave their integer types */
    random_weights(&weights, 3);
    weights.w1[7][5] = 2000; /* 30 such inputs leave int16 */
    write_net(&weights, "classic-2", file);
    assert_null(nnue_from_bytes(file, NET_BYTES, err, sizeof err));
    assert_string_equal(err, "first-layer weights too large: unit 5 can leave int16");
}

/* A value is kept below the search's mate scores whatever the output bias. */
static void test_values_stay_below_mate_scores(void **state)
{
    (void)state;
    random_weights(&weights, 5);
    weights.b3 = 2000000000;
    write_net(&weights, "classic-2", file);
    char err[256];
    Nnue *net = nnue_from_bytes(file, NET_BYTES, err, sizeof err);
    assert_non_null(net);
    game_new(&g_for_nnue, "classic-2");
    NnueAcc *acc = aligned_alloc(64, sizeof *acc);
    nnue_refresh(net, &g_for_nnue.pos, acc);
    assert_int_equal(nnue_output(net, acc, &g_for_nnue.pos), NNUE_VALUE_MAX);
    assert_int_equal(nnue_output_scalar(net, acc, &g_for_nnue.pos), NNUE_VALUE_MAX);
    assert_int_equal(reference_value(&g_for_nnue.pos), NNUE_VALUE_MAX);
    free(acc);
    nnue_delete(net);
}

/* A memo without a net, or with a net for another variant, evaluates by hand. */
static void test_without_a_net_for_the_variant_the_hand_written_evaluation_plays(void **state)
{
    (void)state;
    Nnue *net = make_net(4, "classic-2");
    EvalMemo *memo = eval_memo_new();
    Game *gm = &g_for_nnue;
    game_new(gm, "ccerl-2");
    const int hand = eval_for(&gm->pos, gm->pos.stm, NULL);
    assert_true(eval_memo_set_net(memo, net));
    assert_int_equal(eval_for_ply(&gm->pos, gm->pos.stm, 3, memo), hand);
    game_new(gm, "classic-2");
    assert_int_not_equal(eval_for_ply(&gm->pos, gm->pos.stm, 3, memo), eval_for(&gm->pos, gm->pos.stm, NULL));
    assert_false(eval_memo_set_net(memo, NULL));
    assert_int_equal(eval_for_ply(&gm->pos, gm->pos.stm, 3, memo), eval_for(&gm->pos, gm->pos.stm, NULL));
    eval_memo_delete(memo);
    nnue_delete(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_path_runs_here),
        cmocka_unit_test(test_views_turn_each_home_to_the_south),
        cmocka_unit_test(test_incremental_sums_and_simd_equal_a_fresh_reading),
        cmocka_unit_test(test_random_nets_reach_both_clips),
        cmocka_unit_test(test_damaged_and_foreign_nets_are_refused),
        cmocka_unit_test(test_values_stay_below_mate_scores),
        cmocka_unit_test(test_without_a_net_for_the_variant_the_hand_written_evaluation_plays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
