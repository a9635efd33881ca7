/*
 * test_cli.c - the engine's command line (stern --help, --version, bench,
 * --option) and the protocol's bench: the same signature both ways, and stop
 * ends it; nodestime, which makes a search's budget nodes.
 */
#include "support/engine_pipe.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char out[1 << 16];

static int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

/* The number after "Nodes searched: " in text, or -1. */
static long long nodes_of(const char *text)
{
    const char *n = strstr(text, "Nodes searched: ");
    return n ? atoll(n + strlen("Nodes searched: ")) : -1;
}

static void test_help_and_version(void **state)
{
    (void)state;
    assert_int_equal(exit_code(epipe_run_tool("stern --help", out, sizeof out)), 0);
    assert_non_null(strstr(out, "usage: stern"));
    assert_non_null(strstr(out, "stern bench [depth] [threads] [hash]"));
    assert_int_equal(exit_code(epipe_run_tool("stern -h", out, sizeof out)), 0);
    assert_non_null(strstr(out, "usage: stern"));
    assert_int_equal(exit_code(epipe_run_tool("stern --version", out, sizeof out)), 0);
    assert_true(!strncmp(out, "Stern ", 6));
}

/* An unknown argument is an error with the usage, not the protocol loop. */
static void test_unknown_argument_is_an_error(void **state)
{
    (void)state;
    assert_int_equal(exit_code(epipe_run_tool("stern --frobnicate </dev/null", out, sizeof out)), 2);
    assert_non_null(strstr(out, "unknown argument '--frobnicate'"));
    assert_non_null(strstr(out, "usage: stern"));
    assert_int_equal(exit_code(epipe_run_tool("stern bench x", out, sizeof out)), 2);
    assert_non_null(strstr(out, "depth must be an integer"));
    assert_int_equal(exit_code(epipe_run_tool("stern bench 2 0", out, sizeof out)), 2);
    assert_non_null(strstr(out, "threads must be an integer"));
}

/* `stern bench 3` and the protocol's `bench 3` search the same nodes: the
 * signature does not depend on the way in. */
static void test_bench_from_the_command_line(void **state)
{
    (void)state;
    assert_int_equal(exit_code(epipe_run_tool("stern bench 3 1 16", out, sizeof out)), 0);
    const long long cli = nodes_of(out);
    assert_true(cli > 0);
    assert_non_null(strstr(out, "Nodes/second: "));
    assert_int_equal(exit_code(epipe_run_tool("stern bench 3 </dev/null", out, sizeof out)), 0);
    assert_int_equal(nodes_of(out), cli);
    char input[] = "/tmp/stern-cli-XXXXXX", cmd[128];
    const int fd = mkstemp(input);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("bench 3\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "stern <%s", input);
    assert_int_equal(exit_code(epipe_run_tool(cmd, out, sizeof out)), 0); /* the protocol's bench, through a pipe */
    remove(input);
    assert_int_equal(nodes_of(out), cli);
}

/* Every program of the build answers -h and --help with its usage on stdout
 * and status 0 (five of them refused it with status 2, and later stern-stress,
 * which printed its usage on stderr with status 2); stern-perft and
 * stern-race take their options with one dash, as the other tools, or two. */
static void test_every_tool_has_help(void **state)
{
    (void)state;
    static const char *const tools[] = {"stern",         "stern-annotate", "stern-arena", "stern-arrivals",
                                        "stern-board",   "stern-book",     "stern-greedy", "stern-ladder",
                                        "stern-perft",   "stern-play",     "stern-race",  "stern-spsa",
                                        "stern-suite",   "stern-cross",    "stern-capture-model", "stern-stress"};
    char cmd[128];
    for (size_t k = 0; k < sizeof tools / sizeof *tools; k++)
        for (int dash = 0; dash < 2; dash++) {
            snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null </dev/null", tools[k], dash ? "--help" : "-h");
            const int code = exit_code(epipe_run_tool(cmd, out, sizeof out));
            if (code != 0 || !strstr(out, "usage"))
                fail_msg("'%s': status %d, output '%.200s'", cmd, code, out);
        }
    static char one[1 << 16];
    assert_int_equal(exit_code(epipe_run_tool("stern-perft -variant classic-3 -depth 2 -divide", out, sizeof out)), 0);
    snprintf(one, sizeof one, "%s", out);
    assert_int_equal(exit_code(epipe_run_tool("stern-perft --variant classic-3 --depth 2 --divide", out, sizeof out)), 0);
    /* the same counts both ways (the time and speed after "leaves" aside) */
    char *const times[] = {strstr(one, " leaves in "), strstr(out, " leaves in ")};
    assert_non_null(times[0]);
    assert_non_null(times[1]);
    times[0][7] = times[1][7] = 0;
    assert_string_equal(one, out);
    assert_int_equal(exit_code(epipe_run_tool("stern-race -variant classic-2 -crossing -max 1 -hash 1", out, sizeof out)),
                     exit_code(epipe_run_tool("stern-race --variant classic-2 --crossing --max 1 --hash 1", one, sizeof one)));
}

/* Runs `stern ARGS <input` with `input` (lines) in a temporary file; returns
 * the exit code, the output in out. */
static int run_with_input(const char *args, const char *input)
{
    char path[] = "/tmp/stern-cli-XXXXXX", cmd[512];
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(input, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "stern %s <%s", args, path);
    const int code = exit_code(epipe_run_tool(cmd, out, sizeof out));
    remove(path);
    return code;
}

/* The last "info depth" line's node count in out, or -1. */
static long long last_info_nodes(void)
{
    const char *last = NULL;
    for (const char *p = out; (p = strstr(p, "info depth ")); p++)
        last = p;
    const char *n = last ? strstr(last, " nodes ") : NULL;
    return n ? atoll(n + strlen(" nodes ")) : -1;
}

/* --option sets an option before the first command, as setoption does; one
 * refused ends the engine at once with status 2 and says why on stderr. */
static void test_option_arguments(void **state)
{
    (void)state;
    assert_int_equal(run_with_input("--option Hash=16 --option 'Move Overhead=50'", "uci\n"), 0);
    assert_non_null(strstr(out, "uciok"));
    assert_null(strstr(out, "error"));
    assert_int_equal(run_with_input("--option nodestime=-5", "uci\n"), 2);
    assert_non_null(strstr(out, "stern: --option nodestime=-5 refused: setoption: nodestime must be 0-1000000"));
    assert_null(strstr(out, "uciok")); /* nothing was read */
    assert_int_equal(run_with_input("--option Bogus=1", "uci\n"), 2);
    assert_non_null(strstr(out, "stern: --option Bogus=1 refused: setoption: unknown option 'Bogus'"));
    assert_int_equal(run_with_input("--option nodestime", "uci\n"), 2);
    assert_non_null(strstr(out, "stern: --option nodestime refused: it must be NAME=VALUE"));
    assert_int_equal(run_with_input("--option", ""), 2);
    assert_non_null(strstr(out, "a value is missing after '--option'"));
    assert_int_equal(run_with_input("--ccp --option Hash=16 --ccp", ""), 2);
    assert_non_null(strstr(out, "unknown argument '--ccp'"));
}

/* With nodestime the budget of a movetime (or a clock) is nodes, not time: the
 * same search on every run and machine, a movetime of 100 ms at 50 nodes/ms
 * stopping at 5,000 nodes, in UCI and in CCP where the option comes from the
 * command line. And go nodes stops at its count, not at the next reading of
 * every thread's count (go nodes 100 once searched 856). */
static void test_nodestime_makes_the_budget_nodes(void **state)
{
    (void)state;
    static const char *const uci = "setoption name OwnBook value false\nsetoption name nodestime value 50\n"
                                   "position startpos moves j4-j5\ngo movetime 100\n";
    char first[1 << 14];
    assert_int_equal(run_with_input("", uci), 0);
    const long long nodes = last_info_nodes();
    assert_true(nodes > 0 && nodes <= 5000);
    snprintf(first, sizeof first, "%s", strstr(out, "bestmove"));
    for (int run = 0; run < 2; run++) {
        assert_int_equal(run_with_input("", uci), 0);
        assert_int_equal(last_info_nodes(), nodes);
        assert_string_equal(strstr(out, "bestmove"), first);
    }
    assert_int_equal(run_with_input("", "setoption name OwnBook value false\n"
                                        "position startpos moves j4-j5 e15-e13 k3-i5\ngo nodes 100\n"),
                     0);
    assert_true(last_info_nodes() > 0 && last_info_nodes() <= 100);
    static const char *const ccp = "ccp\nposition startpos\ngo movetime 100\n";
    assert_int_equal(run_with_input("--ccp --option nodestime=50", ccp), 0);
    const long long ccp_nodes = last_info_nodes();
    snprintf(first, sizeof first, "%s", strstr(out, "bestmove"));
    assert_true(ccp_nodes > 0 && ccp_nodes <= 5000);
    assert_int_equal(run_with_input("--ccp --option nodestime=50", ccp), 0);
    assert_int_equal(last_info_nodes(), ccp_nodes);
    assert_string_equal(strstr(out, "bestmove"), first);
}

/* The protocol's bench runs like perft: stop ends it, and it answers. */
static void test_protocol_bench_honours_stop(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "bench 40");
    epipe_send(p, "stop");
    EPipeLines l;
    char *last = NULL;
    epipe_collect(p, "Nodes searched: ", true, 20000, &l, &last);
    assert_non_null(strstr(last, "(stopped)"));
    free(last);
    epipe_lines_free(&l);
    epipe_expect_line(p, 5000, "Nodes/second");
    epipe_sync(p);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, epipe_setup, epipe_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_unknown_argument_is_an_error),
        cmocka_unit_test(test_bench_from_the_command_line),
        cmocka_unit_test(test_option_arguments),
        cmocka_unit_test(test_every_tool_has_help),
        cmocka_unit_test(test_nodestime_makes_the_budget_nodes),
        TEST(test_protocol_bench_honours_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
