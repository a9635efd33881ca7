/*
 * test_perft.c - perft from every variant's start position against the counts of
 * an independent implementation (/work/shared/PERFT.md), and the plain-rules
 * counts (foreign-point rule off) agreed by several programs.
 */
#include "support/stern_test.h"

#include <stdio.h>
#include <string.h>

static Game g;
static Variant plain_rules; /* a rules variant of the tests' own */

#define NO_COUNT 0 /* depth not checked here (too slow for a unit test) */

/* PERFT.md, depths 1-4; capture variants stop at depth 3 (depth 4 takes seconds). */
typedef struct {
    const char *variant;
    uint64_t count[4];
} PerftRow;

static const PerftRow TABLE[] = {
    {"classic-2", {14, 196, 4648, 110224}},
    {"classic-3", {14, 196, 2744, 65072}},
    {"classic-4", {14, 197, 2758, 38809}},
    {"classic-6", {14, 197, 2772, 39005}},
    {"longjumps-2", {14, 196, 4872, 121104}},
    {"longjumps-3", {14, 196, 2744, 68712}},
    {"longjumps-4", {14, 204, 2856, 41692}},
    {"longjumps-6", {14, 204, 2992, 43968}},
    {"symmetric-2", {20, 400, 13240, 438958}},
    {"symmetric-6", {20, 463, 11340, 282829}},
    {"fifteen-2", {18, 324, 9504, 278784}},
    {"fifteen-3", {18, 324, 5832, 171180}},
    {"pairs-4", {14, 197, 2758, 38809}},
    {"pairs-6", {14, 197, 2772, 39005}},
    {"masters-2", {14, 196, 4648, 110224}},
    {"masters-6", {14, 197, 2772, 39005}},
    {"capture-2", {54, 3516, 265842, NO_COUNT}},
    {"capture-3", {54, 3516, 265842, NO_COUNT}},
    {"capture-4", {54, 3516, 265842, NO_COUNT}},
    {"capture-5", {54, 3516, 265842, NO_COUNT}},
    {"capture-6", {54, 3516, 265842, NO_COUNT}},
    {"capture-bigjump-2", {54, 3720, 309366, NO_COUNT}},
    {"capture-bigjump-3", {54, 3720, 309366, NO_COUNT}},
    {"capture-bigjump-4", {54, 3720, 309366, NO_COUNT}},
    {"capture-bigjump-5", {54, 3720, 309366, NO_COUNT}},
    {"capture-bigjump-6", {54, 3720, 309366, NO_COUNT}},
    /* the rating list's rules: ../shared/CCERL.md section 4 (1-2 published, 3-5 from its referee's code) */
    {"ccerl-2", {14, 196, 4760, 115600}},
};

static void assert_perft(int depth, uint64_t want)
{
    const uint64_t got = (uint64_t)perft(&g.pos, depth, NULL);
    if (got != want)
        fail_msg("%s perft(%d) = %llu, expected %llu", g.v->name, depth, (unsigned long long)got,
                 (unsigned long long)want);
}

static uint64_t rng_next(uint64_t *x) /* xorshift64 (Marsaglia 2003) */
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* gen_moves_no_return against gen_moves with every homecoming (a marble from
 * outside its home into it) taken out, or kept when nothing else is left, along
 * random games: the same moves in the same order. */
static void test_no_return_list_is_gen_moves_without_homecomings(void **state)
{
    (void)state;
    static const char *const variants[] = {"classic-2", "classic-3", "classic-6", "fifteen-3",
                                           "pairs-4",   "masters-6", "longjumps-4", "capture-3"};
    static MoveList all, kept, got;
    int dropped = 0, only_homecomings = 0;
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        uint64_t seed = 0x2545F4914F6CDD1Dull + v;
        for (int game = 0; game < 4; game++) {
            assert_int_equal(game_new(&g, variants[v]), 0);
            Position p = g.pos;
            for (int ply = 0; ply < 300 && !pos_over(&p); ply++) {
                gen_moves(&p, &all, NULL);
                kept.n = 0;
                const Bitboard home = p.v->home[p.stm];
                for (int i = 0; i < all.n; i++)
                    if (p.v->capture || bb_test(home, all.m[i].from) || !bb_test(home, all.m[i].to))
                        move_list_push(&kept, all.m[i]);
                dropped += kept.n < all.n;
                if (kept.n == 0) {
                    for (int i = 0; i < all.n; i++)
                        move_list_push(&kept, all.m[i]);
                    only_homecomings += all.n > 0;
                }
                gen_moves_no_return(&p, &got, NULL);
                assert_int_equal(got.n, kept.n);
                for (int i = 0; i < got.n; i++)
                    if (got.m[i].from != kept.m[i].from || got.m[i].to != kept.m[i].to ||
                        got.m[i].swap != kept.m[i].swap || got.m[i].captured != kept.m[i].captured)
                        fail_msg("%s ply %d: move %d differs", variants[v], ply, i);
                pos_play(&p, &all.m[rng_next(&seed) % (uint64_t)all.n]);
            }
        }
    }
    assert_true(dropped > 100);
    /* white's marbles in N cannot move and i5 is walled in but for j4, its home:
     * the homecoming is white's only move, and it stays */
    game_setup(&g, "classic-2", "w e16 f16 e15 f15 g15 e14 f14 g14 h14 i5 b e17 h6 i6 j5 g7 i7 k5 i9 i10 i11",
               "w w20,b20 21");
    gen_moves_no_return(&g.pos, &got, NULL);
    assert_int_equal(got.n, 1);
    assert_int_equal(got.m[0].from, hole("i5"));
    assert_int_equal(got.m[0].to, hole("j4"));
    assert_int_equal(only_homecomings, 0); /* random games did not reach such a position */
}

/* One test per variant (state: its TABLE entry), so every failing variant shows. */
static void test_perft_start(void **state)
{
    const PerftRow *row = *state;
    assert_int_equal(game_new(&g, row->variant), 0);
    assert_perft(0, 1);
    for (int d = 1; d <= 4; d++)
        if (row->count[d - 1] != NO_COUNT)
            assert_perft(d, row->count[d - 1]);
    /* depth 1 is the number of generated moves */
    assert_int_equal(gen_count(&g.pos, NULL), (int)row->count[0]);
}

static void test_perft_classic2_depth_5(void **state)
{
    (void)state;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    assert_perft(5, 2947496);
}

static void test_perft_plain_rules_without_foreign_points(void **state)
{
    (void)state;
    static const uint64_t plain[5] = {14, 196, 4760, 115600, 3188520};
    assert_int_equal(game_new(&g, "classic-2"), 0);
    plain_rules = *g.v;
    for (int s = 0; s < MAX_SEATS; s++)
        plain_rules.foreign[s] = 0;
    game_set_variant(&g, &plain_rules);
    for (int d = 1; d <= 5; d++)
        assert_perft(d, plain[d - 1]);
    /* ccerl-2 moves by the same rules: the rating list's counts (CCERL.md section 4) */
    assert_int_equal(game_new(&g, "ccerl-2"), 0);
    assert_perft(5, plain[4]);
}

#define NVARIANTS (sizeof TABLE / sizeof TABLE[0])

int main(void)
{
    static char names[NVARIANTS][48];
    struct CMUnitTest tests[NVARIANTS + 3];
    size_t n = 0; /* fills all NVARIANTS + 3 entries */
    for (size_t i = 0; i < NVARIANTS; i++, n++) {
        snprintf(names[i], sizeof names[i], "test_perft_start_%s", TABLE[i].variant);
        tests[n] = (struct CMUnitTest){
            .name = names[i], .test_func = test_perft_start, .initial_state = (void *)&TABLE[i]};
    }
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_perft_classic2_depth_5);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_perft_plain_rules_without_foreign_points);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_no_return_list_is_gen_moves_without_homecomings);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
