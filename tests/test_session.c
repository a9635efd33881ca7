/*
 * test_session.c - search sessions (session.h): two sessions searching at once
 * on two threads answer exactly as each does alone (no state is shared: under
 * `make tsan` any shared write is a reported race); the table is made when
 * first needed, at the size set last; a change of tree search clears the table
 * (the same key has another value under each); a new game forgets what the
 * last search left (table and history), so the same search repeats exactly.
 */
#include "support/stern_test.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

#define MIDDLE_WHITE "w j4 k4 l4 i6 j6 h7 i8 g9 h9 i10"
#define MIDDLE_BLACK "b e17 e16 f16 e15 f14 h12 g11 h11 f10 i12"

static void no_output(const SearchReport *report, void *ctx)
{
    (void)report;
    (void)ctx;
}

/* One search to run: a game, its depth and algorithm, and what it answered. */
typedef struct {
    SearchSession *session;
    Game game;
    int depth;
    SearchAlgo algo;
    SearchResult result;
} Job;

static void job_setup(Job *j, SearchSession *s, const char *variant, const char *pieces, const char *tail, int depth,
                      SearchAlgo algo)
{
    memset(j, 0, sizeof *j);
    j->session = s;
    if (pieces)
        game_setup(&j->game, variant, pieces, tail);
    else
        assert_int_equal(game_new(&j->game, variant), 0);
    j->depth = depth;
    j->algo = algo;
}

/* Runs job j in its session as the first search of a game. */
static void *run(void *arg)
{
    Job *j = arg;
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = j->depth;
    const SearchConfig cfg = {.algo = j->algo, .multipv = 1};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    session_new_game(j->session);
    j->result = session_search(j->session, &j->game, &lim, &cfg, &sig, no_output, NULL);
    return NULL;
}

static void assert_same_result(const SearchResult *a, const SearchResult *b)
{
    assert_true(a->has_best && b->has_best);
    assert_true(move_same(&a->best, &b->best));
    assert_int_equal(a->score, b->score);
    assert_int_equal(a->depth, b->depth);
    assert_int_equal(a->nodes, b->nodes);
}

/* Two sessions of two threads each: a two-seat and a three-seat search run at
 * once, each as it runs alone (one thread a session is exact; with two, each
 * session's node count still comes only from its own threads and table, so
 * the pair is run alone first with one thread and compared with one thread). */
static void test_two_sessions_search_at_once_as_alone(void **state)
{
    (void)state;
    SearchSession *a = session_new(8, 1), *b = session_new(8, 1);
    assert_non_null(a);
    assert_non_null(b);
    static Job ja, jb;
    job_setup(&ja, a, "classic-2", MIDDLE_BLACK " " MIDDLE_WHITE, "w w9,b9 10", 7, ALGO_AUTO);
    job_setup(&jb, b, "classic-3", "w e14 f14 g14 e15 f15 g15 e16 f16 e17 i12 u n5 o5 p5 q5 n6 o6 p6 n7 j6 k5 "
              "y e5 f5 g5 h5 e6 f6 g6 e7 h8 i7", "w w40,u40,y40 41", 5, ALGO_BRS);
    run(&ja);
    run(&jb);
    const SearchResult alone_a = ja.result, alone_b = jb.result;
    assert_true(alone_a.nodes > 10000); /* long enough for the two to overlap */
    for (int round = 0; round < 3; round++) {
        pthread_t ta, tb;
        assert_int_equal(pthread_create(&ta, NULL, run, &ja), 0);
        assert_int_equal(pthread_create(&tb, NULL, run, &jb), 0);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        assert_same_result(&ja.result, &alone_a);
        assert_same_result(&jb.result, &alone_b);
    }
    /* with two threads each (Lazy SMP is not exact, but each still answers) */
    assert_int_equal(session_set_threads(a, 2), 2);
    assert_int_equal(session_set_threads(b, 2), 2);
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, run, &ja), 0);
    assert_int_equal(pthread_create(&tb, NULL, run, &jb), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    assert_true(ja.result.has_best && jb.result.has_best);
    assert_int_equal(ja.result.depth, 7);
    session_delete(a);
    session_delete(b);
}

/* Searches j again in its session without a new game: what the table and the
 * history hold from before is used. */
static SearchResult again(Job *j, SearchAlgo algo)
{
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = j->depth;
    const SearchConfig cfg = {.algo = algo, .multipv = 1};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    return session_search(j->session, &j->game, &lim, &cfg, &sig, no_output, NULL);
}

/* The table is made at the first session_ready (or new game, or search), at
 * the size set last; after that a new size takes effect at once. */
static void test_table_is_made_when_first_needed(void **state)
{
    (void)state;
    SearchSession *s = session_new(64, 1);
    assert_non_null(s);
    assert_int_equal(session_hash_allocated(s), 0);
    assert_int_equal(session_set_hash(s, 4), 0);
    assert_int_equal(session_hash_allocated(s), 0); /* noted, not made */
    assert_int_equal(session_warmed(s), 0);
    assert_int_equal(session_ready(s), 4);
    assert_int_equal(session_hash_allocated(s), 4);
    assert_int_equal(session_set_hash(s, 2), 0);
    assert_int_equal(session_hash_allocated(s), 2);
    assert_int_equal(session_hash(s), 2);
    /* the table itself is the new one: its warm-up ends at its 2 MiB */
    for (int waited = 0; session_warmed(s) < (size_t)2 << 20; waited++) {
        if (waited == 2000)
            fail_msg("the warm-up touched %zu bytes of 2 MiB in 20 s", session_warmed(s));
        const struct timespec t = {0, 10 * 1000000};
        nanosleep(&t, NULL);
    }
    assert_int_equal(session_warmed(s), (size_t)2 << 20);
    session_delete(s);
    /* a search makes it too */
    s = session_new(2, 1);
    static Job j;
    job_setup(&j, s, "classic-2", MIDDLE_BLACK " " MIDDLE_WHITE, "w w9,b9 10", 3, ALGO_AUTO);
    assert_true(again(&j, ALGO_AUTO).has_best);
    assert_int_equal(session_hash_allocated(s), 2);
    session_delete(s);
}

/* A second search of the same position in the same game uses the table (fewer
 * nodes); a new game forgets it and repeats the first exactly. A search by
 * best-reply search after one by paranoid searches as it does after the same search and a
 * Clear Hash: the table was cleared for it (the history both kept). */
static void test_new_game_and_a_change_of_algorithm_clear_the_table(void **state)
{
    (void)state;
    SearchSession *s = session_new(8, 1);
    assert_non_null(s);
    static Job j;
    job_setup(&j, s, "classic-3", NULL, NULL, 6, ALGO_PARANOID);
    run(&j);
    const SearchResult first = j.result;
    const SearchResult second = again(&j, ALGO_PARANOID);
    assert_true(second.nodes < first.nodes);
    run(&j);
    assert_same_result(&j.result, &first);
    /* paranoid, then best-reply search in the same game */
    run(&j);
    const SearchResult after_paranoid = again(&j, ALGO_BRS);
    /* paranoid, Clear Hash, then best-reply search */
    run(&j);
    session_clear_hash(s);
    const SearchResult after_clear = again(&j, ALGO_BRS);
    assert_same_result(&after_paranoid, &after_clear);
    assert_true(after_clear.nodes > 1000); /* a search that reads the table */
    session_delete(s);
}

/* An infinite search of session s on g that a report at `depth` plies ends
 * (the caller's thread sets stop once it has seen one). */
typedef struct {
    SearchSession *s;
    const Game *g;
    SearchAlgo algo;
    int depth;
    SearchSignals sig;
    SearchResult result;
} Infinite;

static void stop_at_depth(const SearchReport *report, void *ctx)
{
    Infinite *inf = ctx;
    if (report->kind == REPORT_LINE && report->depth >= inf->depth)
        atomic_store(&inf->sig.stop, true);
}

static void *run_infinite(void *arg)
{
    Infinite *inf = arg;
    SearchLimits lim;
    search_limits_init(&lim);
    lim.infinite = true;
    const SearchConfig cfg = {.algo = inf->algo, .multipv = 1};
    session_new_game(inf->s);
    inf->result = session_search(inf->s, inf->g, &lim, &cfg, &inf->sig, stop_at_depth, inf);
    return NULL;
}

/* Every thread of a session searches: a two-thread search that runs until
 * its main thread has completed depth 9 (long after a helper wakes) has nodes
 * from both; so has MCTS once its tree is 5 plies deep on average (some 0.4 s). */
static void test_every_thread_of_a_session_searches(void **state)
{
    (void)state;
    SearchSession *s = session_new(8, 2);
    assert_non_null(s);
    assert_int_equal(session_threads(s), 2);
    static Game g;
    game_setup(&g, "classic-2", MIDDLE_BLACK " " MIDDLE_WHITE, "w w9,b9 10");
    static Infinite inf;
    inf = (Infinite){.s = s, .g = &g, .depth = 9};
    atomic_init(&inf.sig.stop, false);
    atomic_init(&inf.sig.ponderhit, false);
    run_infinite(&inf);
    assert_true(inf.result.has_best);
    assert_int_equal(inf.result.threads, 2);
    /* MCTS (classic-6's auto plays best-reply search: mcts asked for), until
     * the tree's mean depth is 5 plies */
    assert_int_equal(game_new(&g, "classic-6"), 0);
    inf = (Infinite){.s = s, .g = &g, .algo = ALGO_MCTS, .depth = 5};
    atomic_init(&inf.sig.stop, false);
    atomic_init(&inf.sig.ponderhit, false);
    run_infinite(&inf);
    assert_true(inf.result.has_best);
    assert_int_equal(inf.result.threads, 2);
    session_delete(s);
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_sessions_search_at_once_as_alone),
        cmocka_unit_test(test_table_is_made_when_first_needed),
        cmocka_unit_test(test_new_game_and_a_change_of_algorithm_clear_the_table),
        cmocka_unit_test(test_every_thread_of_a_session_searches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
