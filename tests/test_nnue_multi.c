/*
 * test_nnue_multi.c - the learned evaluation of three to six seats (format
 * version 2, engine/eval/nnue/nnue.h: nnue_standings) on nets of random
 * weights written here, with the format read straight from its spec
 * (docs/NNUE.md) in this test: every seat's standing equals a from-scratch
 * reading (loops over the marbles, no accumulator), the SIMD paths equal
 * plain C, the sums updated move by move equal sums made afresh along random
 * games of classic-3, classic-4 and classic-6 (and classic-2 with a
 * version-1 net), the evaluation's standings (eval.h, places.h) are the
 * net's, and a damaged, truncated, out-of-range or overflowing version-2 file
 * is refused with its reason. (test_nnue.c holds version 1's own tests.)
 */
#include "support/stern_test.h"

#include "board.h"
#include "eval.h"
#include "movegen.h"
#include "nnue.h"
#include "places.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define L2 14 /* spec_random's L2: blocks of eight and four rows and two left over, every AVX2 loop */
#define SCALE 400
#define HEADER 96

/* A net's weights as the file holds them (docs/NNUE.md), before they are
 * written. Version 2 of N seats: N planes, B = N buckets, the second layer on
 * L1 inputs (one view); version 1: one bucket on 2 x L1 (both views). */
typedef struct {
    int version, planes, l1, l2, buckets, width;
    int16_t *w1;  /* [planes * 121][l1] */
    int16_t *b1;  /* [l1] */
    int32_t *lin; /* [planes * 121] */
    int8_t *w2;   /* [buckets][l2][width] */
    int32_t *b2;  /* [buckets][l2] */
    int16_t *w3;  /* [buckets][l2] */
    int32_t *b3;  /* [buckets] */
} Spec;

static uint64_t rng_state;
static int rnd(int lo, int hi) /* uniform in [lo, hi] */
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((rng_state >> 33) % (uint64_t)(hi - lo + 1));
}

/* Weights from `seed`, their sums staying inside int16 with every marble of
 * six seats on the board (as the trainer keeps them) and wide enough that the
 * clipping at 0 and 127 is reached. */
static void spec_random_l2(Spec *w, int version, int planes, int l1, int l2, uint64_t seed)
{
    w->version = version;
    w->planes = planes;
    w->l1 = l1;
    w->l2 = l2;
    w->buckets = version == 1 ? 1 : planes;
    w->width = version == 1 ? 2 * l1 : l1;
    const int inputs = planes * NUM_HOLES, rows = w->buckets * w->l2;
    w->w1 = malloc(sizeof(int16_t) * (size_t)inputs * (size_t)l1);
    w->b1 = malloc(sizeof(int16_t) * (size_t)l1);
    w->lin = malloc(sizeof(int32_t) * (size_t)inputs);
    w->w2 = malloc((size_t)rows * (size_t)w->width);
    w->b2 = malloc(sizeof(int32_t) * (size_t)rows);
    w->w3 = malloc(sizeof(int16_t) * (size_t)rows);
    w->b3 = malloc(sizeof(int32_t) * (size_t)w->buckets);
    rng_state = seed;
    for (int i = 0; i < inputs * l1; i++)
        w->w1[i] = (int16_t)rnd(-40, 40);
    for (int j = 0; j < l1; j++)
        w->b1[j] = (int16_t)rnd(-100, 160);
    for (int f = 0; f < inputs; f++)
        w->lin[f] = rnd(-30000, 30000);
    for (int i = 0; i < rows * w->width; i++)
        w->w2[i] = (int8_t)rnd(-128, 127);
    for (int i = 0; i < rows; i++) {
        w->b2[i] = rnd(-20000, 20000);
        w->w3[i] = (int16_t)rnd(-3000, 3000);
    }
    for (int k = 0; k < w->buckets; k++)
        w->b3[k] = rnd(-50000, 50000);
}

/* spec_random_l2 with L2 units in the second layer. */
static void spec_random(Spec *w, int version, int planes, int l1, uint64_t seed)
{
    spec_random_l2(w, version, planes, l1, L2, seed);
}

static void spec_free(Spec *w)
{
    free(w->w1);
    free(w->b1);
    free(w->lin);
    free(w->w2);
    free(w->b2);
    free(w->w3);
    free(w->b3);
}

static size_t spec_bytes(const Spec *w)
{
    const size_t inputs = (size_t)w->planes * NUM_HOLES, rows = (size_t)w->buckets * (size_t)w->l2;
    return HEADER + inputs * (size_t)w->l1 * 2 + (size_t)w->l1 * 2 + inputs * 4 + rows * (size_t)w->width +
           rows * 4 + rows * 2 + (size_t)w->buckets * 4 + 8;
}

static size_t put(uint8_t *b, size_t at, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[at + i] = (uint8_t)(x >> (8 * i));
    return at + (size_t)bytes;
}

/* The file of w serving `variants` (a new buffer of spec_bytes(w) bytes):
 * the 96-byte header, then w1, b1, lin, w2, b2, w3, b3 little-endian, then
 * the XXH3-64 of every byte before. */
static uint8_t *spec_write(const Spec *w, const char *variants)
{
    uint8_t *buf = calloc(1, spec_bytes(w));
    memcpy(buf, "STERNNUE", 8);
    size_t at = put(buf, 8, (uint32_t)w->version, 4);
    at = put(buf, at, (uint32_t)w->planes, 4);
    at = put(buf, at, (uint32_t)w->l1, 4);
    at = put(buf, at, (uint32_t)w->l2, 4);
    at = put(buf, at, SCALE, 4);
    memcpy(buf + 32, variants, strlen(variants));
    at = HEADER;
    const int inputs = w->planes * NUM_HOLES, rows = w->buckets * w->l2;
    for (int i = 0; i < inputs * w->l1; i++)
        at = put(buf, at, (uint16_t)w->w1[i], 2);
    for (int j = 0; j < w->l1; j++)
        at = put(buf, at, (uint16_t)w->b1[j], 2);
    for (int f = 0; f < inputs; f++)
        at = put(buf, at, (uint32_t)w->lin[f], 4);
    for (int i = 0; i < rows * w->width; i++)
        at = put(buf, at, (uint8_t)w->w2[i], 1);
    for (int i = 0; i < rows; i++)
        at = put(buf, at, (uint32_t)w->b2[i], 4);
    for (int i = 0; i < rows; i++)
        at = put(buf, at, (uint16_t)w->w3[i], 2);
    for (int k = 0; k < w->buckets; k++)
        at = put(buf, at, (uint32_t)w->b3[k], 4);
    at = put(buf, at, XXH3_64bits(buf, at), 8);
    assert_int_equal(at, spec_bytes(w));
    return buf;
}

static Nnue *spec_net(const Spec *w, const char *variants)
{
    uint8_t *file = spec_write(w, variants);
    char err[256];
    Nnue *net = nnue_from_bytes(file, spec_bytes(w), err, sizeof err);
    free(file);
    if (!net)
        fail_msg("refused: %s", err);
    return net;
}

static int clip(int x) { return x < 0 ? 0 : x > 127 ? 127 : x; }

static int to_value(long long out)
{
    const long long v = out * SCALE / (127 * 256);
    return (int)(v > NNUE_VALUE_MAX ? NNUE_VALUE_MAX : v < -NNUE_VALUE_MAX ? -NNUE_VALUE_MAX : v);
}

/* The first layer of seat `view` read from the board: b1 plus the row of
 * every marble, its plane the owner's seats after the view in turn order, its
 * hole turned to the view's side (nnue_hole, checked in test_nnue.c); the
 * sums clipped into x, the linear weights summed into *lin. */
static void reference_view(const Spec *w, const Position *p, int view, int *x, long long *lin)
{
    const Variant *v = p->v;
    const int n = v->nseats;
    *lin = 0;
    for (int j = 0; j < w->l1; j++) {
        long sum = w->b1[j];
        for (int h = 0; h < NUM_HOLES; h++) {
            if (!p->board[h])
                continue;
            const int owner = p->board[h] - 1, plane = (v->slot[owner] - v->slot[view] + n) % n;
            const int f = plane * NUM_HOLES + nnue_hole(view, h);
            sum += w->w1[(size_t)f * (size_t)w->l1 + (size_t)j];
            if (!j)
                *lin += w->lin[f];
        }
        x[j] = clip((int)sum);
    }
}

/* The output of bucket k on the inputs x (width of them) plus `lin`. */
static long long reference_output(const Spec *w, int k, const int *x, long long lin)
{
    long long out = w->b3[k] + lin;
    for (int m = 0; m < w->l2; m++) {
        const int row = k * w->l2 + m;
        int32_t h = w->b2[row];
        for (int j = 0; j < w->width; j++)
            h += (int32_t)w->w2[(size_t)row * (size_t)w->width + (size_t)j] * x[j];
        out += (long long)w->w3[row] * clip(h >> 6);
    }
    return out;
}

/* Every seat's standing (version 2) from the spec: seat s of slot i, its own
 * view's clipped sums through the layers of bucket k = the plies until s moves,
 * its own linear sum added. Version 1: the side to move's value from both
 * views (its own first) and half the difference of their linear sums, rounded
 * down; the other seat the negation. */
static void reference_standings(const Spec *w, const Position *p, int out[MAX_SEATS])
{
    const Variant *v = p->v;
    const int n = v->nseats, mover = p->stm >= 0 ? v->slot[p->stm] : 0;
    int x[2 * NNUE_MAX_L1];
    long long lin[2];
    memset(out, 0, sizeof(int) * MAX_SEATS);
    if (w->version == 1) {
        const int us = v->seats[mover], them = v->seats[1 - mover];
        reference_view(w, p, us, x, &lin[0]);
        reference_view(w, p, them, x + w->l1, &lin[1]);
        const long long d = lin[0] - lin[1];
        const int value = to_value(reference_output(w, 0, x, d >= 0 ? d / 2 : -((-d + 1) / 2)));
        out[us] = value;
        out[them] = -value;
        return;
    }
    for (int i = 0; i < n; i++) {
        const int s = v->seats[i], k = (i - mover + n) % n;
        reference_view(w, p, s, x, &lin[0]);
        out[s] = to_value(reference_output(w, k, x, lin[0]));
    }
}

static bool same_sums(const Nnue *net, const NnueAcc *a, const NnueAcc *b, int n, int l1)
{
    (void)net;
    for (int i = 0; i < n; i++)
        if (memcmp(a->v[i], b->v[i], sizeof(int16_t) * (size_t)l1) || a->lin[i] != b->lin[i] || a->bb[i] != b->bb[i])
            return false;
    return true;
}

static void assert_standings_equal(const int *a, const int *b, const char *what, const char *variant, int ply)
{
    for (int s = 0; s < MAX_SEATS; s++)
        if (a[s] != b[s])
            fail_msg("%s, %s ply %d: seat %d %d, want %d", what, variant, ply, s, a[s], b[s]);
}

static Game g_multi;

/* The first layer's sums of p on every path equal plain C's made afresh
 * (into plain): made afresh, updated from the parent's (one marble moved:
 * the step's own kernel) and from the start position's (many marbles). */
static void check_sums_on_every_path(const Nnue *net, const Position *p, const NnueAcc *parent,
                                     const NnueAcc *start, NnueAcc *plain, NnueAcc *other, int l1,
                                     const char *variant, int step)
{
    const int n = p->v->nseats;
    nnue_refresh_path(net, p, plain, NNUE_SCALAR);
    for (NnuePath path = NNUE_SCALAR; path <= NNUE_AVX2; path++) {
        nnue_refresh_path(net, p, other, path);
        if (!same_sums(net, other, plain, n, l1))
            fail_msg("%s step %d: path %d's fresh sums differ from plain C's", variant, step, path);
        if (parent) {
            nnue_update_path(net, parent, p, other, path);
            if (!same_sums(net, other, plain, n, l1))
                fail_msg("%s step %d: path %d's sums updated from the parent differ", variant, step, path);
        }
        nnue_update_path(net, start, p, other, path);
        if (!same_sums(net, other, plain, n, l1))
            fail_msg("%s step %d: path %d's sums updated from the start differ", variant, step, path);
    }
}

/* Plays random moves of `variant` from its start along a depth-first path
 * (mostly deeper, now and then backing up a ply or two as a search does) and
 * checks at every position: the sums updated from the parent's (nnue_update,
 * nnue_ensure) equal nnue_refresh's; every path's standings equal plain C's,
 * and plain C's equal the spec's reading; the evaluation memo's (eval.h)
 * standings along its path (eval_standings_ply; version 1: eval_for_ply)
 * are the net's. Returns the positions checked (*with_placed: those with a
 * seat placed). */
static int check_random_game(const Spec *w, const Nnue *net, const char *variant, int steps, uint64_t seed,
                             int *with_placed)
{
    enum { DEPTH = 256 };
    NnueAcc *acc = aligned_alloc(64, sizeof(NnueAcc) * (DEPTH + 5));
    Position *path = malloc(sizeof(Position) * DEPTH);
    assert_non_null(path);
    assert_non_null(acc);
    NnueAcc *fresh = &acc[DEPTH], *from_parent = &acc[DEPTH + 1], *start = &acc[DEPTH + 2];
    NnueAcc *plain = &acc[DEPTH + 3], *other = &acc[DEPTH + 4];
    for (int i = 0; i < DEPTH; i++)
        acc[i].valid = false;
    EvalMemo *memo = eval_memo_new();
    assert_true(eval_memo_set_net(memo, net));
    MoveList *list = move_list_new();
    assert_int_equal(game_new(&g_multi, variant), 0);
    const Variant *v = g_multi.pos.v;
    assert_true(nnue_serves(net, v));
    path[0] = g_multi.pos;
    nnue_refresh(net, &path[0], start);
    int depth = 0, checked = 0;
    uint64_t r = seed;
    for (int step = 0; step < steps && !pos_over(&path[depth]); step++) {
        const Position *p = &path[depth];
        nnue_refresh(net, p, fresh);
        /* the search's way: from the parent's sums, or this ply's own (the sibling before) */
        nnue_ensure(net, p, &acc[depth], depth ? &acc[depth - 1] : NULL);
        if (!same_sums(net, &acc[depth], fresh, v->nseats, w->l1))
            fail_msg("%s step %d: nnue_ensure's sums differ from nnue_refresh's", variant, step);
        if (depth) {
            nnue_update(net, &acc[depth - 1], p, from_parent);
            if (!same_sums(net, from_parent, fresh, v->nseats, w->l1))
                fail_msg("%s step %d: nnue_update's sums differ from nnue_refresh's", variant, step);
        }
        check_sums_on_every_path(net, p, depth ? &acc[depth - 1] : NULL, start, plain, other, w->l1, variant, step);
        int want[MAX_SEATS], got[MAX_SEATS];
        reference_standings(w, p, want);
        nnue_standings_path(net, fresh, p, got, NNUE_SCALAR);
        assert_standings_equal(got, want, "plain C against the spec", variant, step);
        nnue_standings_path(net, fresh, p, got, NNUE_SSSE3);
        assert_standings_equal(got, want, "SSSE3", variant, step);
        nnue_standings_path(net, fresh, p, got, NNUE_AVX2);
        assert_standings_equal(got, want, "AVX2", variant, step);
        nnue_standings(net, &acc[depth], p, got);
        assert_standings_equal(got, want, "the search's sums", variant, step);
        assert_int_equal(nnue_output(net, fresh, p), want[p->stm]);
        assert_int_equal(nnue_output_scalar(net, fresh, p), want[p->stm]);
        /* the evaluation's memo, at the ply of the path */
        if (w->version == 1)
            assert_int_equal(eval_for_ply(p, p->stm, depth, memo), want[p->stm]);
        else {
            int own[MAX_SEATS], rival[MAX_SEATS];
            eval_standings_ply(p, depth, own, rival, memo);
            for (int i = 0; i < v->nseats; i++) {
                const int s = v->seats[i];
                assert_int_equal(own[s], p->place[s] ? 0 : want[s]);
                assert_int_equal(rival[s], own[s]);
            }
        }
        bool placed = false;
        for (int i = 0; i < v->nseats; i++)
            placed |= p->place[v->seats[i]] != 0;
        *with_placed += placed;
        checked++;
        gen_moves(p, list, NULL);
        if (!list->n)
            break;
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        if (depth > 2 && (r >> 60) == 0)
            depth -= 1 + (int)((r >> 40) % 2);
        else if (depth < DEPTH - 1) {
            path[depth + 1] = path[depth];
            pos_play(&path[depth + 1], &list->m[(r >> 33) % (uint64_t)list->n]);
            depth++;
        }
    }
    free(acc);
    free(path);
    eval_memo_delete(memo);
    move_list_delete(list);
    return checked;
}

#define GAMES 8

static void check_variant(int version, int planes, int l1, int l2, const char *variant, const char *names,
                          uint64_t seed)
{
    Spec w;
    spec_random_l2(&w, version, planes, l1, l2, seed);
    Nnue *net = spec_net(&w, names);
    assert_int_equal(nnue_is_multi(net), version == 2);
    int checked = 0, with_placed = 0;
    for (int game = 0; game < GAMES; game++)
        checked += check_random_game(&w, net, variant, 240, seed * 7 + (uint64_t)game, &with_placed);
    /* random play loses to the exit deadline within 100 plies or so; some
     * positions after a seat's elimination are checked too */
    if (checked < GAMES * 60 || (version == 2 && !with_placed))
        fail_msg("%s: only %d positions checked, %d with a seat placed", variant, checked, with_placed);
    nnue_delete(net);
    spec_free(&w);
}

/* L1 32 takes the AVX2 second layer (32 inputs a row); L1 48 falls back to
 * SSSE3 on the AVX2 path (48 is no multiple of 32), so both are compared;
 * L2 8 and 16 (with L1 a multiple of 32) take the fused AVX2 layers.
 * The first layer's blocks: L1 32 one block of two AVX2 registers (SSE2:
 * four), 48 two blocks, 208 every block size of both (128 + 64 + 16; 64 x 3
 * + 16). */
static void test_standings_equal_the_spec_on_every_path_and_sums_update_exactly(void **state)
{
    (void)state;
    check_variant(2, 3, 32, L2, "classic-3", "classic-3,fifteen-3", 31);
    check_variant(2, 3, 48, L2, "fifteen-3", "classic-3,fifteen-3", 32);
    check_variant(2, 3, 208, L2, "classic-3", "classic-3", 36);
    check_variant(2, 4, 48, L2, "classic-4", "classic-4", 33);
    check_variant(2, 6, 32, L2, "classic-6", "classic-6", 34);
    check_variant(1, 2, 32, L2, "classic-2", "classic-2", 35);
    check_variant(2, 3, 32, 8, "classic-3", "classic-3", 37);
    check_variant(2, 4, 64, 16, "classic-4", "classic-4", 38);
    check_variant(1, 2, 32, 8, "classic-2", "classic-2", 39);
}

/* The clips at 0 and 127 are reached in every view of a six-seat start, so the
 * equalities above cover the saturating SIMD packs. */
static void test_random_nets_reach_both_clips(void **state)
{
    (void)state;
    Spec w;
    spec_random(&w, 2, 6, 32, 34);
    Nnue *net = spec_net(&w, "classic-6");
    game_new(&g_multi, "classic-6");
    NnueAcc *acc = aligned_alloc(64, sizeof *acc);
    nnue_refresh(net, &g_multi.pos, acc);
    for (int i = 0; i < 6; i++) {
        int low = 0, high = 0;
        for (int j = 0; j < 32; j++) {
            low += acc->v[i][j] <= 0;
            high += acc->v[i][j] >= 127;
        }
        assert_true(low > 0 && high > 0);
    }
    free(acc);
    nnue_delete(net);
    spec_free(&w);
}

/* The fastest path the CPU has is the one nnue_output and nnue_standings take:
 * on x86-64 AVX2 wherever the CPU has it, else SSSE3 (every x86-64 CPU of
 * today has it); plain C elsewhere. */
static void test_the_best_simd_path_runs_on_this_cpu(void **state)
{
    (void)state;
#if defined(__x86_64__)
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") != 0;
    assert_true(nnue_path_available(NNUE_SSSE3));
    assert_int_equal(nnue_path_available(NNUE_AVX2), avx2);
    assert_int_equal(nnue_path_best(), avx2 ? NNUE_AVX2 : NNUE_SSSE3);
    if (!avx2)
        print_message("this CPU has no AVX2: that path is not compared\n");
#else
    assert_int_equal(nnue_path_best(), NNUE_SCALAR);
#endif
}

/* Which variants a version-2 net serves: those it names with as many seats as
 * it has planes, three to six, races without teams. */
static void test_a_multi_seat_net_serves_the_races_it_names(void **state)
{
    (void)state;
    Spec w;
    spec_random(&w, 2, 3, 16, 41);
    Nnue *net = spec_net(&w, "classic-3,classic-4,capture-3");
    assert_true(nnue_is_multi(net));
    assert_true(nnue_serves(net, variant_find("classic-3")));
    assert_false(nnue_serves(net, variant_find("classic-4")));   /* four seats, three planes */
    assert_false(nnue_serves(net, variant_find("capture-3")));   /* capture mode */
    assert_false(nnue_serves(net, variant_find("fifteen-3")));   /* not named */
    nnue_delete(net);
    spec_free(&w);
    spec_random(&w, 2, 4, 16, 42);
    net = spec_net(&w, "pairs-4,classic-4");
    assert_true(nnue_serves(net, variant_find("classic-4")));
    assert_false(nnue_serves(net, variant_find("pairs-4"))); /* teams: refused for now */
    nnue_delete(net);
    spec_free(&w);
    /* a version-1 net of three planes naming classic-3 serves nothing */
    spec_random(&w, 1, 3, 16, 43);
    net = spec_net(&w, "classic-3");
    assert_false(nnue_is_multi(net));
    assert_false(nnue_serves(net, variant_find("classic-3")));
    nnue_delete(net);
    spec_free(&w);
}

/* The reason the first `length` bytes of w's file, its byte `at` set to
 * `value` (at 0: unchanged; value -1: one bit flipped), are refused for, or
 * "" when they are read. */
static const char *refusal(const Spec *w, size_t length, size_t at, int value)
{
    static char err[256];
    uint8_t *file = spec_write(w, "classic-3");
    const size_t n = spec_bytes(w);
    uint8_t *bytes = calloc(1, n + 8);
    memcpy(bytes, file, n);
    if (at)
        bytes[at] = value < 0 ? bytes[at] ^ 1 : (uint8_t)value;
    Nnue *net = nnue_from_bytes(bytes, length, err, sizeof err);
    if (net)
        err[0] = 0;
    nnue_delete(net);
    free(bytes);
    free(file);
    return err;
}

/* A version-2 file is refused whole with its reason: truncated, too long,
 * damaged, of sizes out of range (two planes, seven planes, L1 of 7), or with
 * weights whose sums could leave their integer types with every marble of
 * its seats on the board (three seats: 45 inputs, where version 1 allows for
 * 30). */
static void test_damaged_and_overflowing_multi_seat_nets_are_refused(void **state)
{
    (void)state;
    Spec w;
    spec_random(&w, 2, 3, 32, 51);
    const size_t n = spec_bytes(&w);
    char want[128];
    assert_string_equal(refusal(&w, n, 0, 0), "");
    snprintf(want, sizeof want, "truncated: %zu of %zu bytes", n - 1, n);
    assert_string_equal(refusal(&w, n - 1, 0, 0), want);
    snprintf(want, sizeof want, "too long: %zu of %zu bytes", n + 8, n);
    assert_string_equal(refusal(&w, n + 8, 0, 0), want);
    assert_string_equal(refusal(&w, n, 9000, -1), "checksum mismatch (the file is damaged)");
    assert_string_equal(refusal(&w, n, 12, 2), "net sizes out of range (planes 2, L1 32, L2 14, scale 400)");
    assert_string_equal(refusal(&w, n, 12, 7), "net sizes out of range (planes 7, L1 32, L2 14, scale 400)");
    assert_string_equal(refusal(&w, n, 16, 7), "net sizes out of range (planes 3, L1 7, L2 14, scale 400)");
    assert_string_equal(refusal(&w, n, 8, 3), "net format version 3, this engine reads 1 and 2");
    /* 800 x 30 fits in int16 (a two-seat net keeps it), 800 x 45 does not */
    w.w1[7 * 32 + 5] = 800;
    assert_string_equal(refusal(&w, n, 0, 0), "first-layer weights too large: unit 5 can leave int16");
    Spec duo;
    spec_random(&duo, 1, 2, 32, 51);
    duo.w1[7 * 32 + 5] = 800;
    uint8_t *file = spec_write(&duo, "classic-2");
    char err[256];
    Nnue *net = nnue_from_bytes(file, spec_bytes(&duo), err, sizeof err);
    assert_non_null(net);
    nnue_delete(net);
    free(file);
    spec_free(&duo);
    w.w1[7 * 32 + 5] = 3;
    w.lin[100] = (1 << 30) / 45 + 1; /* 45 inputs of it leave 2^30 */
    assert_string_equal(refusal(&w, n, 0, 0), "linear weights or second-layer biases too large for their sums");
    w.lin[100] = 0;
    w.b2[2 * w.l2 + 3] = (1 << 30) + 1; /* the last bucket's bias */
    assert_string_equal(refusal(&w, n, 0, 0), "linear weights or second-layer biases too large for their sums");
    spec_free(&w);
}

/* A value is kept below the search's mate scores whatever the output bias. */
static void test_standings_stay_below_mate_scores(void **state)
{
    (void)state;
    Spec w;
    spec_random(&w, 2, 4, 16, 61);
    w.b3[1] = 2000000000;
    w.b3[3] = -2000000000;
    Nnue *net = spec_net(&w, "classic-4");
    game_new(&g_multi, "classic-4");
    const Position *p = &g_multi.pos;
    NnueAcc *acc = aligned_alloc(64, sizeof *acc);
    nnue_refresh(net, p, acc);
    int got[MAX_SEATS], want[MAX_SEATS];
    nnue_standings(net, acc, p, got);
    reference_standings(&w, p, want);
    assert_standings_equal(got, want, "clamped", "classic-4", 0);
    const Variant *v = p->v;
    assert_int_equal(got[v->seats[(v->slot[p->stm] + 1) % 4]], NNUE_VALUE_MAX);
    assert_int_equal(got[v->seats[(v->slot[p->stm] + 3) % 4]], -NNUE_VALUE_MAX);
    free(acc);
    nnue_delete(net);
    spec_free(&w);
}

/* With a version-2 net in the memo, the evaluation of three seats is the
 * net's: eval_standings' own and rival are its standings, places_values and
 * places_value_for compare them (places.c: an open comparison of units a and
 * b is worth 12000 x d / (|d| + 405), d = a's standing - b's, in three-seat
 * races), and eval_for s's standing minus the best rival's; without the net,
 * or with a net of other variants, the hand-written evaluation plays. */
static void test_the_evaluation_of_three_seats_is_the_nets_standings(void **state)
{
    (void)state;
    Spec w;
    spec_random(&w, 2, 3, 32, 71);
    Nnue *net = spec_net(&w, "classic-3");
    EvalMemo *memo = eval_memo_new();
    assert_true(eval_memo_set_net(memo, net));
    Game *g = &g_multi;
    game_new(g, "classic-3");
    const Variant *v = g->pos.v;
    assert_true(eval_memo_learned(memo, v));
    MoveList *list = move_list_new();
    for (int ply = 0; ply < 12; ply++) {
        const Position *p = &g->pos;
        NnueAcc *acc = aligned_alloc(64, sizeof *acc);
        nnue_refresh(net, p, acc);
        int st[MAX_SEATS], want[MAX_SEATS];
        nnue_standings(net, acc, p, st);
        reference_standings(&w, p, want);
        assert_standings_equal(st, want, "direct", "classic-3", ply);
        free(acc);
        int own[MAX_SEATS], rival[MAX_SEATS];
        eval_standings(p, own, rival, memo);
        assert_standings_equal(own, st, "eval_standings own", "classic-3", ply);
        assert_standings_equal(rival, st, "eval_standings rival", "classic-3", ply);
        int out[MAX_SEATS];
        places_values(p, ply, 0, out, memo);
        for (int i = 0; i < 3; i++) {
            const int a = v->seats[i];
            long long sum = 0, best = -1000000;
            for (int k = 0; k < 3; k++) {
                const int b = v->seats[k];
                if (b == a)
                    continue;
                const long long d = (long long)st[a] - st[b];
                sum += 12000 * d / (llabs(d) + 405);
                best = st[b] > best ? st[b] : best;
            }
            assert_int_equal(out[a], sum);
            assert_int_equal(places_value_for(p, a, ply, 0, memo), sum);
            assert_int_equal(eval_for_ply(p, a, ply, memo), st[a] - best);
        }
        gen_moves(p, list, NULL);
        assert_int_equal(game_play(g, &list->m[(ply * 7) % list->n]), 0);
    }
    /* no net: the hand-written standings, as without a memo */
    assert_false(eval_memo_set_net(memo, NULL));
    int own[MAX_SEATS], rival[MAX_SEATS], hand_own[MAX_SEATS], hand_rival[MAX_SEATS];
    eval_standings(&g->pos, own, rival, memo);
    eval_standings(&g->pos, hand_own, hand_rival, NULL);
    assert_standings_equal(own, hand_own, "hand-written own", "classic-3", 12);
    assert_standings_equal(rival, hand_rival, "hand-written rival", "classic-3", 12);
    /* a net of other variants: the hand-written standings too */
    Spec w4;
    spec_random(&w4, 2, 4, 16, 72);
    Nnue *net4 = spec_net(&w4, "classic-4");
    assert_true(eval_memo_set_net(memo, net4));
    assert_false(eval_memo_learned(memo, v));
    eval_standings_ply(&g->pos, 3, own, rival, memo);
    assert_standings_equal(own, hand_own, "hand-written own beside a classic-4 net", "classic-3", 12);
    assert_standings_equal(rival, hand_rival, "hand-written rival beside a classic-4 net", "classic-3", 12);
    assert_int_equal(eval_for_ply(&g->pos, g->pos.stm, 3, memo), eval_for(&g->pos, g->pos.stm, NULL));
    nnue_delete(net4);
    spec_free(&w4);
    move_list_delete(list);
    eval_memo_delete(memo);
    nnue_delete(net);
    spec_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_best_simd_path_runs_on_this_cpu),
        cmocka_unit_test(test_standings_equal_the_spec_on_every_path_and_sums_update_exactly),
        cmocka_unit_test(test_random_nets_reach_both_clips),
        cmocka_unit_test(test_a_multi_seat_net_serves_the_races_it_names),
        cmocka_unit_test(test_damaged_and_overflowing_multi_seat_nets_are_refused),
        cmocka_unit_test(test_standings_stay_below_mate_scores),
        cmocka_unit_test(test_the_evaluation_of_three_seats_is_the_nets_standings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
