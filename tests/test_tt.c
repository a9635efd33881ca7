/*
 * test_tt.c - the transposition table (tt.h) through its public API: a stored
 * entry comes back field for field, other keys miss, a second store of a key
 * replaces it, a full bucket gives up its least valuable entry (tt.c: depth
 * minus 8 plies per search of age, the first such slot on a tie), tt_hashfull
 * counts the current search's entries of the first 250 buckets (1000 entries),
 * tt_clear and tt_resize empty the table, and the warm-up after them touches
 * the whole of a table of up to 1024 MiB without changing an entry. Two
 * tables are two: what one holds the other does not see.
 *
 * Every test starts from a fresh 1 MiB table: 16384 buckets of 64 bytes, so a
 * key's bucket is its low 14 bits (tt.c: key & (nbuckets - 1)) and keys that
 * differ only above bit 31 share a bucket but not their check bits.
 */
#include "support/stern_test.h"

#include "eval.h"
#include "tt.h"

#include <time.h>

/* The table under test (one per process, as a session has one). */
static TT *tt;

/* A key in `bucket` (below 16384) told apart from the bucket's other keys by `tag`. */
static uint64_t key_in(unsigned bucket, unsigned tag) { return (uint64_t)tag << 32 | bucket; }

static void store(uint64_t key, uint32_t move, int score, int depth, int bound)
{
    const TTData d = {move, (int16_t)score, (int8_t)depth, (uint8_t)bound};
    tt_store(tt, key, &d);
}

/* Fails unless key is in the table with exactly these fields. */
static void assert_entry(uint64_t key, uint32_t move, int score, int depth, int bound)
{
    TTData d;
    if (!tt_probe(tt, key, &d))
        fail_msg("key %#llx: no entry", (unsigned long long)key);
    if (d.move != move || d.score != score || d.depth != depth || d.bound != bound)
        fail_msg("key %#llx: move %u score %d depth %d bound %d, expected %u %d %d %d", (unsigned long long)key,
                 d.move, d.score, d.depth, d.bound, move, score, depth, bound);
}

static void assert_missing(uint64_t key)
{
    TTData d;
    if (tt_probe(tt, key, &d))
        fail_msg("key %#llx: entry found (move %u depth %d)", (unsigned long long)key, d.move, d.depth);
}

static int fresh_table(void **state)
{
    (void)state;
    return tt_resize(tt, 1);
}

static void test_store_then_probe_gives_back_every_field(void **state)
{
    (void)state;
    /* the extremes of each field, each key in a bucket of its own */
    static const struct {
        uint64_t key;
        TTData d;
    } rows[] = {
        {1 | (uint64_t)1 << 32, {0xffffffffu, 32767, 127, BOUND_EXACT}},
        {2 | (uint64_t)1 << 32, {1, -32768, 0, BOUND_NONE}},
        {3 | (uint64_t)1 << 32, {0x00abcdefu, SCORE_MATE - 5, 20, BOUND_LOWER}},
        {4 | (uint64_t)1 << 32, {77, -(SCORE_MATE - 7), 9, BOUND_UPPER}},
        {5 | (uint64_t)1 << 32, {0, -1, 1, BOUND_UPPER}}, /* -1: all 16 score bits set */
        {0, {5, 0, 3, BOUND_EXACT}},                      /* key 0: check bits equal data */
    };
    const size_t n = sizeof rows / sizeof rows[0];
    for (size_t i = 0; i < n; i++)
        tt_store(tt, rows[i].key, &rows[i].d);
    /* probed after all stores: no store disturbed another's entry */
    for (size_t i = 0; i < n; i++)
        assert_entry(rows[i].key, rows[i].d.move, rows[i].d.score, rows[i].d.depth, rows[i].d.bound);
}

/* The depth field has 7 bits: 127 is the largest depth kept, and it does not
 * spill into the bound beside it. */
static void test_depth_is_kept_in_seven_bits(void **state)
{
    (void)state;
    store(key_in(10, 1), 3, 0, 127, BOUND_NONE);
    assert_entry(key_in(10, 1), 3, 0, 127, BOUND_NONE);
    store(key_in(11, 1), 3, 0, 126, BOUND_UPPER);
    assert_entry(key_in(11, 1), 3, 0, 126, BOUND_UPPER);
    store(key_in(12, 1), 3, 0, -1, BOUND_LOWER);
    assert_entry(key_in(12, 1), 3, 0, 127, BOUND_LOWER);
}

static void test_probe_of_an_unstored_key_misses(void **state)
{
    (void)state;
    assert_missing(key_in(5, 1));
    assert_missing(0); /* an empty entry's check ^ data is 0, yet key 0 misses */
    store(key_in(5, 1), 9, 10, 4, BOUND_EXACT);
    assert_entry(key_in(5, 1), 9, 10, 4, BOUND_EXACT);
    assert_missing(key_in(5, 2));                      /* same bucket, other check bits */
    assert_missing(key_in(5, 1) | (uint64_t)1 << 63); /* only the top bit differs */
    assert_missing(key_in(6, 1));                      /* same high bits, other bucket */
    assert_missing(key_in(5 + 16384, 1));              /* bit 14: same bucket at this size */
}

/* A second store of a key overwrites its entry in place (hashfull stays at one
 * entry); a store without a move keeps the old best move. */
static void test_second_store_of_a_key_replaces_it(void **state)
{
    (void)state;
    const uint64_t a = key_in(7, 1);
    store(a, 7, 100, 5, BOUND_LOWER);
    store(a, 9, -50, 6, BOUND_UPPER);
    assert_entry(a, 9, -50, 6, BOUND_UPPER);
    assert_int_equal(tt_hashfull(tt), 1); /* 1 entry of the 1000 counted */
    store(a, 0, 3, 6, BOUND_EXACT);
    assert_entry(a, 9, 3, 6, BOUND_EXACT);
    assert_int_equal(tt_hashfull(tt), 1);
}

/* tt.c keeps an entry of the current search against a store of the same key
 * that is not exact and more than 2 plies shallower. */
static void test_shallower_bound_of_the_same_search_is_kept_out(void **state)
{
    (void)state;
    const uint64_t a = key_in(8, 1), b = key_in(9, 1), c = key_in(10, 1);
    store(a, 11, 200, 10, BOUND_LOWER);
    store(a, 12, -5, 7, BOUND_UPPER); /* 10 > 7 + 2: refused */
    assert_entry(a, 11, 200, 10, BOUND_LOWER);
    store(a, 13, 40, 7, BOUND_EXACT); /* exact: taken */
    assert_entry(a, 13, 40, 7, BOUND_EXACT);

    store(b, 11, 200, 10, BOUND_LOWER);
    store(b, 12, -5, 8, BOUND_UPPER); /* 10 > 8 + 2 is false: taken */
    assert_entry(b, 12, -5, 8, BOUND_UPPER);

    store(c, 11, 200, 10, BOUND_LOWER);
    tt_new_search(tt);
    store(c, 12, -5, 1, BOUND_UPPER); /* the old entry is of an earlier search */
    assert_entry(c, 12, -5, 1, BOUND_UPPER);
}

/* Four keys fill bucket 17; each further key of the bucket takes the slot of
 * the shallowest entry, whichever key came last. */
static void test_full_bucket_replaces_its_shallowest_entry(void **state)
{
    (void)state;
    uint64_t k[7];
    for (unsigned i = 0; i < 7; i++)
        k[i] = key_in(17, i + 1);
    const uint64_t next_door = key_in(18, 1);
    store(next_door, 50, 50, 1, BOUND_EXACT);
    store(k[0], 1, 100, 6, BOUND_EXACT);
    store(k[1], 2, 101, 3, BOUND_EXACT);
    store(k[2], 3, 102, 9, BOUND_EXACT);
    store(k[3], 4, 103, 4, BOUND_EXACT);
    for (int i = 0; i < 4; i++)
        assert_true(tt_probe(tt, k[i], &(TTData){0}));

    store(k[4], 5, 104, 5, BOUND_EXACT); /* depths 6 3 9 4: k1 goes */
    assert_missing(k[1]);
    assert_entry(k[0], 1, 100, 6, BOUND_EXACT);
    assert_entry(k[2], 3, 102, 9, BOUND_EXACT);
    assert_entry(k[3], 4, 103, 4, BOUND_EXACT);
    assert_entry(k[4], 5, 104, 5, BOUND_EXACT);
    assert_entry(next_door, 50, 50, 1, BOUND_EXACT); /* the shallower entry of another bucket stays */

    store(k[5], 6, 105, 2, BOUND_EXACT); /* depths 6 5 9 4: k3 goes, not the newer k4 */
    assert_missing(k[3]);
    assert_entry(k[4], 5, 104, 5, BOUND_EXACT);
    assert_entry(k[5], 6, 105, 2, BOUND_EXACT);

    store(k[6], 7, 106, 8, BOUND_EXACT); /* depths 6 5 9 2: k5, the last stored, goes */
    assert_missing(k[5]);
    assert_entry(k[0], 1, 100, 6, BOUND_EXACT);
    assert_entry(k[2], 3, 102, 9, BOUND_EXACT);
    assert_entry(k[4], 5, 104, 5, BOUND_EXACT);
    assert_entry(k[6], 7, 106, 8, BOUND_EXACT);
}

/* Of entries of equal depth, those of an earlier search go first, even from a
 * later slot; among equals the first slot goes. */
static void test_equal_depth_older_search_goes_first(void **state)
{
    (void)state;
    uint64_t k[9];
    for (unsigned i = 0; i < 9; i++)
        k[i] = key_in(20, i + 1);
    for (int i = 0; i < 4; i++) /* slots 0-3: k0-k3 */
        store(k[i], (uint32_t)i + 1, i, 4, BOUND_LOWER);
    tt_new_search(tt);
    store(k[4], 5, 4, 4, BOUND_LOWER); /* all four old: slot 0 (k0) */
    assert_missing(k[0]);
    store(k[5], 6, 5, 4, BOUND_LOWER); /* new k4 in slot 0 stays, old k1 in slot 1 goes */
    assert_missing(k[1]);
    assert_entry(k[4], 5, 4, 4, BOUND_LOWER);
    assert_entry(k[2], 3, 2, 4, BOUND_LOWER);
    assert_entry(k[3], 4, 3, 4, BOUND_LOWER);
    store(k[6], 7, 6, 4, BOUND_LOWER); /* old k2 */
    assert_missing(k[2]);
    store(k[7], 8, 7, 4, BOUND_LOWER); /* old k3 */
    assert_missing(k[3]);
    for (int i = 4; i < 8; i++)
        assert_entry(k[i], (uint32_t)i + 1, i, 4, BOUND_LOWER);
    store(k[8], 9, 8, 4, BOUND_LOWER); /* all of this search: slot 0 (k4) */
    assert_missing(k[4]);
    for (int i = 5; i < 9; i++)
        assert_entry(k[i], (uint32_t)i + 1, i, 4, BOUND_LOWER);
}

/* An entry's value is its depth minus 8 per search since it was stored: an
 * older entry outlives a shallower current one only by more than 8 plies a
 * search. */
static void test_each_search_of_age_costs_eight_plies(void **state)
{
    (void)state;
    uint64_t k[9];
    for (unsigned i = 0; i < 9; i++)
        k[i] = key_in(30, i + 1);
    store(k[0], 1, 0, 11, BOUND_EXACT);
    store(k[1], 2, 0, 13, BOUND_EXACT);
    tt_new_search(tt);
    store(k[2], 3, 0, 4, BOUND_EXACT);
    store(k[3], 4, 0, 5, BOUND_EXACT);

    store(k[4], 5, 0, 20, BOUND_EXACT); /* values 11-8=3, 13-8=5, 4, 5: k0 goes */
    assert_missing(k[0]);
    assert_entry(k[1], 2, 0, 13, BOUND_EXACT);
    assert_entry(k[2], 3, 0, 4, BOUND_EXACT);
    assert_entry(k[3], 4, 0, 5, BOUND_EXACT);
    assert_entry(k[4], 5, 0, 20, BOUND_EXACT);

    store(k[5], 6, 0, 20, BOUND_EXACT); /* 20, 5, 4, 5: the current k2 goes, old k1 stays */
    assert_missing(k[2]);
    assert_entry(k[1], 2, 0, 13, BOUND_EXACT);

    store(k[6], 7, 0, 20, BOUND_EXACT); /* 20, 5, 20, 5: tie, the first (old k1, slot 1) */
    assert_missing(k[1]);
    assert_entry(k[3], 4, 0, 5, BOUND_EXACT);

    /* slots: k4, k6, k5 (depth 20) and k3 (depth 5), all of search 1 */
    tt_new_search(tt);
    tt_new_search(tt);
    store(k[7], 8, 0, 3, BOUND_EXACT); /* 20-16=4, 4, 4, 5-16=-11: k3 goes */
    assert_missing(k[3]);
    store(k[8], 9, 0, 3, BOUND_EXACT); /* 4, 4, 4, 3: the current k7 goes */
    assert_missing(k[7]);
    assert_entry(k[4], 5, 0, 20, BOUND_EXACT);
    assert_entry(k[5], 6, 0, 20, BOUND_EXACT);
    assert_entry(k[6], 7, 0, 20, BOUND_EXACT);
    assert_entry(k[8], 9, 0, 3, BOUND_EXACT);
}

/* The age has 6 bits: 64 searches on, an entry counts as current again (in
 * tt_hashfull and in the same-search rule of tt_store). */
static void test_age_wraps_after_64_searches(void **state)
{
    (void)state;
    const uint64_t a = key_in(40, 1), b = key_in(41, 1);
    store(a, 1, 10, 10, BOUND_LOWER);
    store(b, 2, 20, 10, BOUND_LOWER);
    assert_int_equal(tt_hashfull(tt), 2);
    for (int i = 0; i < 63; i++)
        tt_new_search(tt);
    assert_int_equal(tt_hashfull(tt), 0);
    store(b, 3, 30, 1, BOUND_UPPER); /* 63 searches old: replaced */
    assert_entry(b, 3, 30, 1, BOUND_UPPER);
    assert_int_equal(tt_hashfull(tt), 1); /* b */
    tt_new_search(tt);                    /* the 64th: a's age again */
    assert_int_equal(tt_hashfull(tt), 1); /* a */
    store(a, 4, 40, 1, BOUND_UPPER);    /* refused as a shallower bound of this search */
    assert_entry(a, 1, 10, 10, BOUND_LOWER);
}

/* tt_hashfull: permille of the 1000 entries of buckets 0-249 stored in the
 * current search; 1000 entries, so each counts 1. */
static void test_hashfull_counts_current_entries_of_the_first_250_buckets(void **state)
{
    (void)state;
    assert_int_equal(tt_hashfull(tt), 0);
    for (unsigned b = 0; b < 10; b++)
        store(key_in(b, 1), 1, 0, 1, BOUND_EXACT);
    assert_int_equal(tt_hashfull(tt), 10);
    for (unsigned t = 1; t <= 4; t++)
        store(key_in(249, t), 1, 0, 1, BOUND_EXACT);
    assert_int_equal(tt_hashfull(tt), 14);
    store(key_in(250, 1), 1, 0, 1, BOUND_EXACT); /* beyond the counted buckets */
    store(key_in(999, 1), 1, 0, 1, BOUND_EXACT);
    store(key_in(16383, 1), 1, 0, 1, BOUND_EXACT);
    assert_int_equal(tt_hashfull(tt), 14);
    for (unsigned t = 2; t <= 4; t++) /* bucket 0 full */
        store(key_in(0, t), 1, 0, 1, BOUND_EXACT);
    assert_int_equal(tt_hashfull(tt), 17);
    store(key_in(0, 5), 1, 0, 1, BOUND_EXACT); /* replaces one of bucket 0's */
    assert_int_equal(tt_hashfull(tt), 17);
    tt_new_search(tt);
    assert_int_equal(tt_hashfull(tt), 0);
    store(key_in(3, 1), 1, 0, 1, BOUND_EXACT); /* rewritten in this search */
    store(key_in(3, 2), 1, 0, 1, BOUND_EXACT); /* new */
    assert_int_equal(tt_hashfull(tt), 2);

    tt_clear(tt);
    for (unsigned b = 0; b < 250; b++)
        for (unsigned t = 1; t <= 4; t++)
            store(key_in(b, t), 1, 0, 1, BOUND_EXACT);
    assert_int_equal(tt_hashfull(tt), 1000);
    tt_new_search(tt);
    assert_int_equal(tt_hashfull(tt), 0);
}

static void test_clear_empties_the_table(void **state)
{
    (void)state;
    for (unsigned t = 1; t <= 4; t++) {
        store(key_in(60, t), t, 0, 5, BOUND_EXACT);
        store(key_in(61, t), t, 0, 5, BOUND_EXACT);
    }
    store(key_in(12000, 1), 1, 0, 5, BOUND_EXACT);
    assert_int_equal(tt_hashfull(tt), 8);
    tt_new_search(tt);
    store(key_in(62, 1), 1, 0, 5, BOUND_EXACT);
    tt_clear(tt);
    for (unsigned t = 1; t <= 4; t++) {
        assert_missing(key_in(60, t));
        assert_missing(key_in(61, t));
    }
    assert_missing(key_in(12000, 1));
    assert_missing(key_in(62, 1));
    assert_int_equal(tt_hashfull(tt), 0);
    /* bucket 60 has its four slots free again */
    for (unsigned t = 5; t <= 8; t++)
        store(key_in(60, t), t, -(int)t, 2, BOUND_UPPER);
    for (unsigned t = 5; t <= 8; t++)
        assert_entry(key_in(60, t), t, -(int)t, 2, BOUND_UPPER);
    assert_int_equal(tt_hashfull(tt), 4);
}

/* tt_resize clears the table and takes the size rounded down to a power of two
 * of buckets: 1 MiB has 16384 buckets, 2 and 3 MiB 32768. */
static void test_resize_clears_and_takes_the_new_size(void **state)
{
    (void)state;
    /* r[i]: bucket 100 at 16384 buckets; at 32768, bit 14 sends r1 and r3 to
     * bucket 16484 */
    uint64_t r[5], s[5];
    for (unsigned i = 0; i < 5; i++) {
        r[i] = 100 | (uint64_t)i << 14;
        s[i] = 200 | (uint64_t)i << 15; /* bucket 200 at 32768 buckets, and at 16384 */
    }
    for (unsigned i = 0; i < 5; i++)
        store(r[i], i + 1, 0, (int)i + 1, BOUND_EXACT);
    assert_missing(r[0]); /* one bucket: the shallowest went */
    for (unsigned i = 1; i < 5; i++)
        assert_entry(r[i], i + 1, 0, (int)i + 1, BOUND_EXACT);

    assert_int_equal(tt_resize(tt, 2), 0);
    for (unsigned i = 0; i < 5; i++)
        assert_missing(r[i]);
    assert_int_equal(tt_hashfull(tt), 0);
    for (unsigned i = 0; i < 5; i++)
        store(r[i], i + 1, 0, (int)i + 1, BOUND_EXACT);
    for (unsigned i = 0; i < 5; i++) /* two buckets: all five kept */
        assert_entry(r[i], i + 1, 0, (int)i + 1, BOUND_EXACT);

    assert_int_equal(tt_resize(tt, 3), 0);
    for (unsigned i = 0; i < 5; i++)
        assert_missing(r[i]);
    for (unsigned i = 0; i < 5; i++) {
        store(r[i], i + 1, 0, (int)i + 1, BOUND_EXACT);
        store(s[i], i + 11, 0, (int)i + 1, BOUND_EXACT);
    }
    for (unsigned i = 0; i < 5; i++) /* 32768 buckets, not 16384 */
        assert_entry(r[i], i + 1, 0, (int)i + 1, BOUND_EXACT);
    assert_missing(s[0]); /* s shares one bucket: not 65536 buckets */
    for (unsigned i = 1; i < 5; i++)
        assert_entry(s[i], i + 11, 0, (int)i + 1, BOUND_EXACT);
}

/* The warm-up (tt.h) touches every page of the table without changing what is
 * stored meanwhile; a table over 1024 MiB is left to fill lazily. */
static void test_warm_up_touches_the_table_and_keeps_its_entries(void **state)
{
    (void)state;
    enum { MIB = 64, BUCKETS = MIB * 16384 };
    assert_int_equal(tt_resize(tt, MIB), 0);
    /* stored while the warm-up runs, one key every 512 buckets (32 KiB) */
    for (unsigned b = 0; b < BUCKETS; b += 512)
        store(key_in(b, 7), b + 1, (int)(b % 1000), 5, BOUND_LOWER);
    for (int waited = 0; tt_warmed(tt) < (size_t)MIB << 20; waited++) {
        if (waited == 20000)
            fail_msg("the warm-up touched %zu of %d MiB in 20 s", tt_warmed(tt), MIB << 20);
        struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
    for (unsigned b = 0; b < BUCKETS; b += 512)
        assert_entry(key_in(b, 7), b + 1, (int)(b % 1000), 5, BOUND_LOWER);
    tt_clear(tt);
    assert_missing(key_in(0, 7));
    assert_int_equal(tt_resize(tt, 2048), 0); /* over 1024 MiB: no warm-up */
    assert_int_equal(tt_warmed(tt), 0);
    assert_int_equal(tt_resize(tt, 1), 0);
}

/* Two tables share nothing: a store in one is not seen in the other, and a
 * table without memory yet (tt_new) can be cleared and deleted. */
static void test_two_tables_are_two(void **state)
{
    (void)state;
    TT *other = tt_new();
    assert_non_null(other);
    assert_false(tt_allocated(other));
    tt_clear(other);
    assert_int_equal(tt_resize(other, 1), 0);
    assert_true(tt_allocated(other));
    store(key_in(5, 1), 77, 10, 4, BOUND_EXACT);
    TTData d;
    assert_false(tt_probe(other, key_in(5, 1), &d));
    const TTData mine = {78, 11, 5, BOUND_LOWER};
    tt_store(other, key_in(5, 1), &mine);
    assert_entry(key_in(5, 1), 77, 10, 4, BOUND_EXACT);
    assert_true(tt_probe(other, key_in(5, 1), &d));
    assert_int_equal(d.move, 78);
    tt_delete(other);
}

#define TEST(f) cmocka_unit_test_setup(f, fresh_table)

int main(void)
{
    tt = tt_new();
    if (!tt)
        return 1;
    const struct CMUnitTest tests[] = {
        TEST(test_store_then_probe_gives_back_every_field),
        TEST(test_depth_is_kept_in_seven_bits),
        TEST(test_probe_of_an_unstored_key_misses),
        TEST(test_second_store_of_a_key_replaces_it),
        TEST(test_shallower_bound_of_the_same_search_is_kept_out),
        TEST(test_full_bucket_replaces_its_shallowest_entry),
        TEST(test_equal_depth_older_search_goes_first),
        TEST(test_each_search_of_age_costs_eight_plies),
        TEST(test_age_wraps_after_64_searches),
        TEST(test_hashfull_counts_current_entries_of_the_first_250_buckets),
        TEST(test_clear_empties_the_table),
        TEST(test_resize_clears_and_takes_the_new_size),
        TEST(test_warm_up_touches_the_table_and_keeps_its_entries),
        TEST(test_two_tables_are_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
