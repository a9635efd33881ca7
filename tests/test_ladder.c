/*
 * test_ladder.c - stern-ladder, the rating on the rating list's scale from its
 * referee's records: the list's anchors held, a player rated from its games
 * against one of them by the closed form of the fit, `-as` naming the engine of
 * a gauntlet's file, unfinished games left out, and a bad record refused with
 * its file and line.
 */
#include "support/engine_pipe.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char out[1 << 16];

static int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

/* Writes `text` to a new temporary file, its path into path (32 bytes). */
static void write_temp(char *path, const char *text)
{
    snprintf(path, 32, "/tmp/stern-ladder-XXXXXX");
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

/* `n` games of "engine" against `bot`, engine first (p0) in even games; the
 * first `wins` won by the engine, then `draws` drawn, the rest lost; then one
 * game started and never ended. */
static void gauntlet_file(char *path, const char *bot, int n, int wins, int draws)
{
    static char text[1 << 16];
    size_t o = 0;
    for (int g = 0; g < n; g++) {
        const int engine = g % 2, w = g < wins ? engine : g < wins + draws ? -1 : 1 - engine;
        o += (size_t)snprintf(text + o, sizeof text - o,
                              "{\"type\": \"ccp_game_start\", \"game_id\": %d, \"p0\": \"%s\", \"p1\": \"%s\"}\n"
                              "{\"type\": \"ccp_move\", \"game_id\": %d, \"ply\": 0}\n"
                              "{\"type\": \"ccp_game_end\", \"game_id\": %d, \"draw\": %s, \"winner\": %s}\n",
                              g, engine ? bot : "engine", engine ? "engine" : bot, g, g, w < 0 ? "true" : "false",
                              w < 0 ? "null" : w ? "1" : "0");
    }
    snprintf(text + o, sizeof text - o, "{\"type\": \"ccp_game_start\", \"game_id\": %d, \"p0\": \"engine\", \"p1\": \"%s\"}\n",
             n, bot);
    write_temp(path, text);
}

/* The rating printed in out's row of `player`, or NAN. */
static double rating_of(const char *player)
{
    char key[80];
    snprintf(key, sizeof key, "\n%s ", player);
    const char *row = strstr(out, key);
    return row ? atof(row + strlen(key)) : NAN;
}

static void test_rates_against_the_published_anchors(void **state)
{
    (void)state;
    char a[32], b[32], cmd[160];
    gauntlet_file(a, "tt-pvs", 40, 30, 4);    /* 32 points of 40 */
    gauntlet_file(b, "greedy", 20, 20, 0);    /* all won */
    /* one player against one held at 737: 737 + 400 log10((32 + 0.05) /
     * (8 + 0.05)), the prior's 0.1 virtual drawn comparisons included */
    snprintf(cmd, sizeof cmd, "stern-ladder -bootstrap 50 -as Fast %s", a);
    assert_int_equal(exit_code(epipe_run_tool(cmd, out, sizeof out)), 0);
    assert_non_null(strstr(out, "40 games (1 unfinished left out); anchors held: tt-pvs=737"));
    assert_true(fabs(rating_of("Fast") - (737 + 400 * log10(32.05 / 8.05))) < 0.5);
    assert_true(rating_of("tt-pvs") == 737);
    assert_non_null(strstr(out, "Fast                 - tt-pvs               +30 =4 -6"));
    /* both files: two players, two anchors; Slow won every game: open above */
    snprintf(cmd, sizeof cmd, "stern-ladder -bootstrap 50 -as Fast %s -as Slow %s", a, b);
    assert_int_equal(exit_code(epipe_run_tool(cmd, out, sizeof out)), 0);
    assert_non_null(strstr(out, "60 games (2 unfinished left out); anchors held: tt-pvs=737 greedy=481"));
    assert_true(rating_of("tt-pvs") == 737 && rating_of("greedy") == 481);
    /* 20 of 20 against greedy (481): at least where 0.025^(1/20) is expected */
    const double p = pow(0.025, 1.0 / 20), low = 481 + 400 * log10(p / (1 - p));
    char row[96], rating[16], interval[32];
    snprintf(rating, sizeof rating, ">=%.0f", low);
    snprintf(interval, sizeof interval, "[%.0f, +inf]", low);
    snprintf(row, sizeof row, "\n%-20s %7s  %s ", "Slow", rating, interval);
    assert_non_null(strstr(out, row));
    assert_non_null(strstr(out, "Slow                 - greedy               +20 =0 -0"));
    /* other anchors: the given ones replace the list's */
    snprintf(cmd, sizeof cmd, "stern-ladder -bootstrap 0 -anchor tt-pvs=0 -as Fast %s", a);
    assert_int_equal(exit_code(epipe_run_tool(cmd, out, sizeof out)), 0);
    assert_true(fabs(rating_of("Fast") - 400 * log10(32.05 / 8.05)) < 0.5);
    remove(a);
    remove(b);
}

/* Runs `stern-ladder ARGS FILE` on a temporary file of `records`; asserts its
 * status is `status` and its output holds `want` (":LINE:" after the file's
 * name when want starts with ':'); the output stays in out. */
static void ladder_on(const char *args, const char *records, int status, const char *want)
{
    char a[32], cmd[160];
    write_temp(a, records);
    snprintf(cmd, sizeof cmd, "stern-ladder %s %s", args, a);
    assert_int_equal(exit_code(epipe_run_tool(cmd, out, sizeof out)), status);
    char where[128];
    snprintf(where, sizeof where, "%s%s", want[0] == ':' ? a : "", want);
    if (!strstr(out, where))
        fail_msg("'%s' on:\n%s\nsaid '%s', not '%s'", args, records, out, where);
    remove(a);
}

static void test_refuses_bad_records_with_file_and_line(void **state)
{
    (void)state;
    static const char start0[] = "{\"type\": \"ccp_game_start\", \"game_id\": 0, \"p0\": \"engine\", \"p1\": \"tt-pvs\"}\n";
    char records[512];
    snprintf(records, sizeof records, "%snot json\n", start0);
    ladder_on("", records, 2, ":2: not a JSON object");
    ladder_on("", "{\"type\": \"ccp_game_end\", \"game_id\": 3, \"draw\": true, \"winner\": null}\n", 2,
              ":1: ccp_game_end of a game never started");
    ladder_on("",
              "{\"type\": \"ccp_game_start\", \"game_id\": 0, \"p0\": \"x\", \"p1\": \"y\"}\n"
              "{\"type\": \"ccp_game_end\", \"game_id\": 0, \"draw\": false, \"winner\": 1}\n",
              2, "no anchor played");
    /* contradictory ends, an engine renamed as its own opponent; blank lines pass */
    snprintf(records, sizeof records, "%s\n{\"type\": \"ccp_game_end\", \"game_id\": 0, \"draw\": true, \"winner\": 1}\n",
             start0);
    ladder_on("", records, 2, ":3: ccp_game_end needs winner 0 or 1, or a draw");
    ladder_on("-as tt-pvs", records, 2, ":1: -as names the engine as its own opponent");
    /* an anchor seen only in a game without an end holds nothing, nor is a
     * player of such a game listed */
    static const char unfinished[] =
        "{\"type\": \"ccp_game_start\", \"game_id\": 0, \"p0\": \"engine\", \"p1\": \"x\"}\n"
        "{\"type\": \"ccp_game_end\", \"game_id\": 0, \"draw\": true, \"winner\": null}\n"
        "{\"type\": \"ccp_game_start\", \"game_id\": 1, \"p0\": \"y\", \"p1\": \"tt-pvs\"}\n";
    ladder_on("", unfinished, 2, "no anchor played");
    ladder_on("-bootstrap 0 -anchor x=100", unfinished, 0, "");
    assert_null(strstr(out, "\ny "));
    assert_null(strstr(out, "\ntt-pvs "));
    assert_int_equal(exit_code(epipe_run_tool("stern-ladder /nonexistent/x.jsonl", out, sizeof out)), 2);
    assert_non_null(strstr(out, "/nonexistent/x.jsonl: cannot be opened"));
    assert_int_equal(exit_code(epipe_run_tool("stern-ladder -anchor tt-pvs x.jsonl", out, sizeof out)), 2);
    assert_non_null(strstr(out, "-anchor must be NAME=ELO"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rates_against_the_published_anchors),
        cmocka_unit_test(test_refuses_bad_records_with_file_and_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
