/*
 * test_cli.c - the engine's command line (stern --help, --version, bench) and
 * the protocol's bench: the same signature both ways, and stop ends it.
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
        TEST(test_protocol_bench_honours_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
