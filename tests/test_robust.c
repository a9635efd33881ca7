/*
 * test_robust.c - regression tests for inputs that once hung, crashed or
 * silenced the engine (each names what failed before its fix). The engine
 * binary runs as a child process on pipes (tests/support/engine_pipe.h); a hang
 * fails a test by its read timeout instead of blocking it.
 */
#include "support/engine_pipe.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "game.h"
#include "notation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* capture-2, 273,745,293 moves (counted layer by layer by an independent
 * program, docs/PERFT.md): every chain from i9 through the alternate-hole grid.
 * Listing them all took the engine minutes and gigabytes; before the fix
 * `position ... moves`, `go movetime 10`, `perft 1` and `legalmoves` on it never
 * answered and ignored stop and quit. */
#define LATTICE "1/2/3/4/5x1x5/3xxxxxx3/3x1x1x3/1xxxxxxxx1/1x1xxx1x1/1xxxxxxxx1/3x1x1x3/3xxxxxx3/5x1x5/4/3/2/1 w w5c9,b5c8 6"
#define LATTICE_AFTER_I9G9                                                                                             \
    "1/2/3/4/5x1x5/3xxxxxx3/3x1x1x3/1xxxxxxxx1/1xx2x1x1/1xxxxxxxx1/3x1x1x3/3xxxxxx3/5x1x5/4/3/2/1 b w6c10,b5c8 6"
/* capture-2, 71,408 moves: a list capped at 32,768 refused i9-g9 here and
 * perft 1 said 32768. */
#define LATTICE3 "1/2/3/4/13/4xxxx4/3x1x1x3/2xxxxxx2/1x1xxx1x1/2xxxxxx2/3x1x1x3/4xxxx4/13/4/3/2/1 w w5c15,b5c14 6"

/* Answers that must come at once wait this long at most: generous for the
 * sanitizer builds, far below the minutes a full listing takes. */
#define PROMPT_MS 5000

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads lines until one starting with `prefix`, within ms; returns a copy. */
static char *line_starting(EPipe *p, const char *prefix, int ms)
{
    const long long end = now_ms() + ms;
    for (;;) {
        const long long left = end - now_ms();
        char *l;
        if (left <= 0 || epipe_try_read(p, (int)left, &l) <= 0)
            fail_msg("no line starting with '%s' within %d ms", prefix, ms);
        if (!strncmp(l, prefix, strlen(prefix)))
            return strdup(l);
    }
}

/* Asserts that `bestmove <m>` names a legal move of the position `fen`. */
static void assert_legal_bestmove(const char *line, const char *variant, const char *fen)
{
    static Game g;
    char err[256], move[4096];
    assert_int_equal(game_new(&g, variant), 0);
    assert_int_equal(game_set_fen(&g, fen, err, sizeof err), 0);
    if (sscanf(line, "bestmove %4095s", move) != 1)
        fail_msg("not a bestmove line: %s", line);
    Move m;
    if (move_parse(&g.pos, move, &m, err, sizeof err))
        fail_msg("bestmove %s is not legal: %s", move, err);
}

static void lattice(EPipe *p)
{
    epipe_send(p, "setoption name Variant value capture-2");
    epipe_send(p, "position fen %s", LATTICE);
    epipe_sync(p);
}

static void test_capture_move_is_checked_by_its_path(void **state)
{
    EPipe *p = *state;
    lattice(p);
    const long long t0 = now_ms();
    epipe_send(p, "position fen %s moves i9-g9", LATTICE);
    assert_string_equal(epipe_fen(p), LATTICE_AFTER_I9G9);
    assert_true(now_ms() - t0 < PROMPT_MS);
}

static void test_capture_go_movetime_answers_in_time(void **state)
{
    EPipe *p = *state;
    lattice(p);
    static const char *const algos[] = {"auto", "paranoid", "brs", "maxn", "mcts"};
    for (size_t i = 0; i < sizeof algos / sizeof *algos; i++) {
        epipe_send(p, "setoption name Search value %s", algos[i]);
        epipe_send(p, "go movetime 10");
        char *best = line_starting(p, "bestmove ", PROMPT_MS);
        assert_legal_bestmove(best, "capture-2", LATTICE);
        free(best);
        epipe_sync(p);
    }
}

static void test_capture_stop_ends_depth_search_perft_and_legalmoves(void **state)
{
    EPipe *p = *state;
    lattice(p);
    epipe_send(p, "go depth 3");
    struct timespec t = {0, 200 * 1000000};
    nanosleep(&t, NULL);
    epipe_send(p, "stop");
    char *best = line_starting(p, "bestmove ", PROMPT_MS);
    assert_legal_bestmove(best, "capture-2", LATTICE);
    free(best);
    static const char *const cmds[] = {"perft 1", "perft 2", "legalmoves"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        epipe_send(p, "%s", cmds[i]);
        nanosleep(&t, NULL);
        epipe_send(p, "stop");
        char *l = line_starting(p, "info string error ", PROMPT_MS);
        if (!strstr(l, "stopped"))
            fail_msg("'%s' then stop answered '%s'", cmds[i], l);
        free(l);
        epipe_sync(p);
    }
    /* and quit ends a running perft */
    epipe_send(p, "perft 1");
    epipe_send(p, "quit");
    assert_true(epipe_wait_exit(p, PROMPT_MS));
}

static void test_capture_lists_beyond_32768_moves(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "setoption name Variant value capture-2");
    epipe_send(p, "position fen %s", LATTICE3);
    epipe_send(p, "perft 1");
    EPipeLines l;
    char *last = NULL;
    epipe_collect(p, "Nodes searched: ", true, 60000, &l, &last);
    assert_int_equal(l.n, 71408);
    assert_string_equal(last, "Nodes searched: 71408");
    free(last);
    epipe_lines_free(&l);
    epipe_send(p, "position fen %s moves i9-g9", LATTICE3);
    assert_string_equal(epipe_fen(p),
                        "1/2/3/4/13/4xxxx4/3x1x1x3/2xxxxxx2/1xx2x1x1/2xxxxxx2/3x1x1x3/4xxxx4/13/4/3/2/1 b w6c16,b5c14 6");
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, epipe_setup, epipe_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_capture_move_is_checked_by_its_path),
        TEST(test_capture_go_movetime_answers_in_time),
        TEST(test_capture_stop_ends_depth_search_perft_and_legalmoves),
        TEST(test_capture_lists_beyond_32768_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
