/*
 * test_node_limit.c - `go nodes` with one and with many threads: the nodes of
 * every thread summed never pass the limit, one thread reaches it exactly, and
 * many threads stop within the shares they had not used (docs/PROTOCOL.md);
 * MCTS plays exactly its playouts at any thread count. Before the threads took
 * shares of the limit, 4 threads searched 26,124 nodes for `go nodes 10000`
 * and 32 threads 824,397 for 100,000 (only the main thread summed the counts,
 * every 1,024 of its own nodes).
 */
#include "support/stern_test.h"

#include "search.h"
#include "session.h"

static void no_output(const SearchReport *r, void *ctx)
{
    (void)r;
    (void)ctx;
}

/* The nodes (playouts for MCTS) a search of `variant`'s start position with
 * `algo` on `threads` threads takes for `go nodes limit`. */
static uint64_t searched(const char *variant, SearchAlgo algo, int threads, uint64_t limit)
{
    Game g;
    assert_int_equal(game_new(&g, variant), 0);
    SearchSession *s = session_new(16, threads);
    assert_non_null(s);
    assert_int_equal(session_ready(s), 16);
    assert_int_equal(session_threads(s), threads);
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = limit;
    const SearchConfig cfg = {.algo = algo, .multipv = 1};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    const SearchResult r = session_search(s, &g, &lim, &cfg, &sig, no_output, NULL);
    assert_true(r.has_best);
    session_delete(s);
    return r.nodes;
}

/* Every tree search, at 1, 4 and 32 threads: never past the limit, and short
 * of it by at most the unused shares of the other threads. */
static void test_tree_searches_stay_within_the_node_limit(void **state)
{
    (void)state;
    static const struct {
        const char *variant;
        SearchAlgo algo;
    } cases[] = {{"classic-2", ALGO_AUTO},     {"classic-3", ALGO_PARANOID}, {"classic-3", ALGO_MAXN},
                 {"classic-4", ALGO_BRS},      {"classic-6", ALGO_BRS_PLUS}};
    static const int threads[] = {1, 4, 32};
    const uint64_t limit = 20000;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
            const uint64_t n = searched(cases[i].variant, cases[i].algo, threads[t], limit);
            print_message("%s %s threads %d: %llu nodes of %llu\n", cases[i].variant,
                          search_algo_names[cases[i].algo], threads[t], (unsigned long long)n,
                          (unsigned long long)limit);
            assert_true(n <= limit);
            if (threads[t] == 1)
                assert_int_equal(n, limit);
            else
                assert_true(n + (uint64_t)(threads[t] - 1) * NODE_SHARE_MAX >= limit);
        }
}

/* 100,000 nodes on 32 threads, the case: 824,397 before. */
static void test_thirty_two_threads_stay_within_a_large_limit(void **state)
{
    (void)state;
    const uint64_t n = searched("classic-2", ALGO_AUTO, 32, 100000);
    print_message("classic-2 threads 32: %llu nodes of 100000\n", (unsigned long long)n);
    assert_true(n <= 100000);
    assert_true(n + 31 * NODE_SHARE_MAX >= 100000);
}

/* MCTS takes a number before each playout: exactly the limit. */
static void test_mcts_plays_exactly_its_playouts(void **state)
{
    (void)state;
    static const int threads[] = {1, 4, 32};
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++)
        assert_int_equal(searched("classic-4", ALGO_MCTS, threads[t], 3000), 3000);
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_searches_stay_within_the_node_limit),
        cmocka_unit_test(test_thirty_two_threads_stay_within_a_large_limit),
        cmocka_unit_test(test_mcts_plays_exactly_its_playouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
