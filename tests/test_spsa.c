/*
 * test_spsa.c - the SPSA tuner build/stern-spsa run in shards through a command
 * template: the default template gives the weights of the unsharded run, and
 * so does a split into shards; a shard lost twice is named on stderr and the
 * iteration goes on with the other shards' games (a step per game played); a
 * shard that leaves a partial record is resumed and loses no game; an
 * iteration with no game stops the run; a run cut after its first iteration
 * (every shard failing, or the tuner killed) and resumed from its checkpoint
 * prints the uncut run's lines, and a checkpoint of another run, or a damaged
 * one, is refused with the reason; bad templates and -shards are refused.
 * Also the command templates and shell quoting (tools/spsa/cmd_template.h).
 *
 * The engines are stand-ins built by a -build script, not the engine: an
 * iteration's "plus" or "minus" with W_A above 50 is build/stern-greedy, the
 * other one stern-greedy -crash-at 1, which loses every game at its first move.
 * So every game's result is known, each run takes a fraction of a second, and
 * the weight climbs by a known amount from 50. The expected weights below are
 * those stern-spsa printed for this seed before it had shards (one arena run an
 * iteration).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cmd_template.h"
#include "support/stern_test.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* A temporary directory, and the stand-in build (tests/support/spsa-standin.sh:
 * DIR/stern is greedy when W_A > 50, else an engine that crashes at its first
 * move). */
typedef struct {
    char dir[64];
    char greedy[256];  /* build/stern-greedy, its absolute path */
    char standin[256]; /* the stand-in build script, its absolute path */
} Bench;

/* The absolute path of `path` into out (cap bytes); false when it is not
 * there or longer. */
static bool absolute(const char *path, char *out, size_t cap)
{
    char *abs = realpath(path, NULL);
    const bool ok = abs && strlen(abs) < cap;
    if (ok)
        memcpy(out, abs, strlen(abs) + 1);
    free(abs);
    return ok;
}

static int bench_up(void **state)
{
    static Bench b;
    snprintf(b.dir, sizeof b.dir, "/tmp/stern-spsa-test-XXXXXX");
    if (!mkdtemp(b.dir))
        return -1;
    if (!absolute(tool("stern-greedy"), b.greedy, sizeof b.greedy) ||
        !absolute("tests/support/spsa-standin.sh", b.standin, sizeof b.standin))
        return -1;
    *state = &b;
    return 0;
}

static int bench_down(void **state)
{
    const Bench *b = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", b->dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs stern-spsa over the stand-ins, 2 iterations of 12 games, seed 1, with
 * the extra arguments `extra` (shell syntax); its stdout goes to *out and its
 * stderr to *err (malloc'ed). Returns its exit status. */
static int spsa(const Bench *b, const char *extra, char **out, char **err)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "'%s' -param W_A=50,0,100,10,0.02 -iterations 2 -games 12 -seed 1 -workdir '%s/w' -arena '%s' "
             "-build 'sh %s %s {dir} {flags}' %s > '%s/out' 2> '%s/err'",
             tool("stern-spsa"), b->dir, tool("stern-arena"), b->standin, b->greedy, extra, b->dir, b->dir);
    const int st = system(cmd);
    char path[128];
    snprintf(path, sizeof path, "%s/out", b->dir);
    *out = slurp(path);
    snprintf(path, sizeof path, "%s/err", b->dir);
    *err = slurp(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The output of the unsharded run of this seed (every game won by the side
 * with W_A above 50). */
#define WHOLE_RUN                                                                                                      \
    "iteration 1: plus vs minus +12 (of 12 games) W_A=53.22\n"                                                         \
    "iteration 2: plus vs minus -12 (of 12 games) W_A=55.62\n"                                                         \
    "final: -DW_A=56\n"

static void test_spsa_default_template_and_shards_give_the_unsharded_weights(void **state)
{
    const Bench *b = *state;
    const char *runs[] = {"", "-shards 3", "-shards 6 -run 'sh -c \"exec {cmd}\"'"};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        char *out, *err;
        assert_int_equal(spsa(b, runs[i], &out, &err), 0);
        assert_string_equal(out, WHOLE_RUN);
        assert_string_equal(err, "");
        free(out);
        free(err);
    }
}

static void test_spsa_goes_on_without_a_shard_lost_twice(void **state)
{
    const Bench *b = *state;
    char *out, *err;
    /* Shard 2 of 3 (4 of the 12 games) fails every time. */
    assert_int_equal(spsa(b, "-shards 3 -run 'sh -c \"[ {shard} = 2 ] && exit 3; exec {cmd}\"'", &out, &err), 0);
    /* The 8 games of shards 1 and 3, a step 8/12 of the whole run's. */
    assert_string_equal(out, "iteration 1: plus vs minus +8 (of 8 games; 4 of 12 games lost with their shards) "
                             "W_A=52.15\n"
                             "iteration 2: plus vs minus -8 (of 8 games; 4 of 12 games lost with their shards) "
                             "W_A=53.75\n"
                             "final: -DW_A=54\n");
    for (int it = 1; it <= 2; it++) {
        char want[256];
        snprintf(want, sizeof want, "iteration %d: shard 2/3 failed (exit status 3, 0 of 4 games recorded)", it);
        assert_non_null(strstr(err, want));
        snprintf(want, sizeof want, "iteration %d: shard 2/3 lost (exit status 3 again", it);
        assert_non_null(strstr(err, want));
    }
    assert_null(strstr(err, "shard 1/3"));
    assert_null(strstr(err, "shard 3/3"));
    free(out);
    free(err);
    /* A shard killed by a signal is named with it. */
    assert_int_equal(spsa(b, "-shards 2 -run '[ {shard} = 1 ] && kill -9 $$; exec {cmd}'", &out, &err),
                     0);
    assert_non_null(strstr(err, "iteration 2: shard 1/2 lost (killed by signal 9 again"));
    assert_non_null(strstr(out, "(of 6 games; 6 of 12 games lost with their shards)"));
    free(out);
    free(err);
}

static void test_spsa_resumes_a_partial_record(void **state)
{
    const Bench *b = *state;
    char extra[2048], *out, *err;
    /* The first run of shard 2 of every iteration plays its games, then cuts
     * its record inside the third game and exits 0: the shard runs again with
     * -resume and no game is lost. */
    snprintf(extra, sizeof extra,
             "-shards 3 -run 'sh -c \"if [ {shard} = 2 ] && mkdir %s/cut{iteration} 2>/dev/null; then {cmd}; "
             "awk \\\"/^.Event /{n++} n<3||k++<3\\\" %s/w/match-0-2.pgn > %s/t; " /* two games and 3 lines */
             "mv %s/t %s/w/match-0-2.pgn; exit 0; fi; exec {cmd}\"'",
             b->dir, b->dir, b->dir, b->dir, b->dir);
    assert_int_equal(spsa(b, extra, &out, &err), 0);
    assert_string_equal(out, WHOLE_RUN);
    assert_non_null(strstr(err, "iteration 1: shard 2/3 failed (exit status 0, 2 of 4 games recorded): running it again"));
    assert_non_null(strstr(err, "iteration 2: shard 2/3 failed (exit status 0, 2 of 4 games recorded)"));
    assert_null(strstr(err, "lost"));
    free(out);
    free(err);
}

static void test_spsa_stops_when_no_game_was_played(void **state)
{
    const Bench *b = *state;
    char *out, *err;
    assert_int_equal(spsa(b, "-shards 2 -run 'exit 4; {cmd}'", &out, &err), 1);
    assert_non_null(strstr(err, "iteration 1: every shard failed, no game was played"));
    assert_null(strstr(out, "iteration 1:"));
    free(out);
    free(err);
}

/* The uncut run's output after its first line. */
static const char *after_first_line(void) { return strchr(WHOLE_RUN, '\n') + 1; }

/* Cut by `cut` (a -run template failing iteration 2 one way or another) with
 * -checkpoint, then resumed: the two outputs are the uncut run's. */
static void assert_resumes(const Bench *b, const char *cut, int cut_status)
{
    char extra[1024], *out, *err;
    snprintf(extra, sizeof extra, "-checkpoint '%s/ck' -run '%s'", b->dir, cut);
    const int st = spsa(b, extra, &out, &err);
    if (st != cut_status)
        fail_msg("cut by %s: status %d, want %d; stderr: %s", cut, st, cut_status, err);
    assert_int_equal(strlen(out), (size_t)(after_first_line() - WHOLE_RUN));
    assert_memory_equal(out, WHOLE_RUN, strlen(out));
    free(out);
    free(err);
    snprintf(extra, sizeof extra, "-checkpoint '%s/ck' -resume", b->dir);
    if (spsa(b, extra, &out, &err) != 0)
        fail_msg("resumed after a cut by %s: %s", cut, err);
    assert_string_equal(out, after_first_line());
    assert_non_null(strstr(err, "resuming from"));
    assert_non_null(strstr(err, "/ck after iteration 1"));
    free(out);
    free(err);
    /* resumed once more, the run is over: only its final line */
    assert_int_equal(spsa(b, extra, &out, &err), 0);
    assert_string_equal(out, strstr(WHOLE_RUN, "final:"));
    free(out);
    free(err);
    snprintf(extra, sizeof extra, "rm -f '%s/ck'", b->dir);
    assert_int_equal(system(extra), 0);
}

static void test_spsa_resumes_from_its_checkpoint_as_the_uncut_run(void **state)
{
    const Bench *b = *state;
    /* every shard of iteration 2 fails: the run stops there */
    assert_resumes(b, "[ {iteration} = 2 ] && exit 5; exec {cmd}", 1);
    /* the tuner killed during iteration 2 (the shard shell's parent), its shard with it */
    assert_resumes(b, "[ {iteration} = 2 ] && kill -9 $PPID && exit 9; exec {cmd}", 128 + 9); /* 137: the shell says */
    /* -resume without a file yet: the whole run, from the start */
    char extra[512], *out, *err;
    snprintf(extra, sizeof extra, "-checkpoint '%s/ck' -resume", b->dir);
    assert_int_equal(spsa(b, extra, &out, &err), 0);
    assert_string_equal(out, WHOLE_RUN);
    free(out);
    free(err);
}

static void test_spsa_refuses_a_checkpoint_of_another_run_or_damaged(void **state)
{
    const Bench *b = *state;
    char extra[512], path[128], *out, *err;
    snprintf(extra, sizeof extra, "-checkpoint '%s/ck2' -iterations 1", b->dir);
    assert_int_equal(spsa(b, extra, &out, &err), 0);
    free(out);
    free(err);
    /* another seed is another run */
    snprintf(extra, sizeof extra, "-checkpoint '%s/ck2' -iterations 1 -seed 2 -resume", b->dir);
    assert_int_equal(spsa(b, extra, &out, &err), 1);
    assert_non_null(strstr(err, "is the checkpoint of another run"));
    assert_string_equal(out, "");
    free(out);
    free(err);
    /* a damaged line is named */
    snprintf(path, sizeof path, "sed -i 's/^iteration .*/iteration x/' '%s/ck2'", b->dir);
    assert_int_equal(system(path), 0);
    snprintf(extra, sizeof extra, "-checkpoint '%s/ck2' -iterations 1 -resume", b->dir);
    assert_int_equal(spsa(b, extra, &out, &err), 1);
    assert_non_null(strstr(err, "/ck2 line 3: expected 'iteration N'"));
    free(out);
    free(err);
    /* -resume needs the file's name */
    assert_int_equal(spsa(b, "-resume", &out, &err), 2);
    assert_non_null(strstr(err, "-resume goes on from a -checkpoint FILE"));
    free(out);
    free(err);
}

static void test_spsa_refuses_bad_shards_and_templates(void **state)
{
    const Bench *b = *state;
    const struct {
        const char *args, *says;
    } bad[] = {
        {"-run 'srun {shard}'", "-run 'srun {shard}': the template must contain {cmd}"},
        {"-shards 0", "-shards must be an integer from 1 to"},
        {"-shards x", "-shards must be an integer from 1 to"},
        {"-shards 7", "-shards 7: a match of -games 12 has 6 sets of games"},
        {"-variant classic-3 -shards 3", "-shards 3: a match of -games 12 has 2 sets"},
        {"-build 'make'", "-build 'make': the template must contain {dir}"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *out, *err;
        assert_int_equal(spsa(b, bad[i].args, &out, &err), 2);
        if (!strstr(err, bad[i].says))
            fail_msg("%s: expected '%s' in: %s", bad[i].args, bad[i].says, err);
        free(out);
        free(err);
    }
}

static void test_template_fields_and_quoting(void **state)
{
    (void)state;
    char q[256] = "", out[256];
    assert_int_equal(cmd_template_quote(q, sizeof q, "it's"), 0);
    assert_int_equal(cmd_template_quote(q, sizeof q, "a b"), 0);
    assert_string_equal(q, "'it'\\''s' 'a b'");
    const TemplateField f[] = {{"cmd", q}, {"shard", "2"}};
    assert_int_equal(cmd_template_expand("srun ${X} {shard} {cmd} {shards} {shard}", f, 2, out, sizeof out), 0);
    assert_string_equal(out, "srun ${X} 2 'it'\\''s' 'a b' {shards} 2");
    /* The shell reads the quoted words back unchanged. */
    char cmd[512], got[64];
    snprintf(cmd, sizeof cmd, "printf '%%s|' %s", q);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    assert_non_null(fgets(got, sizeof got, p));
    pclose(p);
    assert_string_equal(got, "it's|a b|");
    /* Too small: refused, the buffer as it was. */
    char small[8] = "'x'";
    assert_int_equal(cmd_template_quote(small, sizeof small, "abc"), -1);
    assert_string_equal(small, "'x'");
    assert_int_equal(cmd_template_expand("{cmd}", f, 2, out, 5), -1);
    assert_true(cmd_template_has("a {cmd} b", "cmd"));
    assert_false(cmd_template_has("a {cmd b", "cmd"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_template_fields_and_quoting),
        cmocka_unit_test(test_spsa_default_template_and_shards_give_the_unsharded_weights),
        cmocka_unit_test(test_spsa_goes_on_without_a_shard_lost_twice),
        cmocka_unit_test(test_spsa_resumes_a_partial_record),
        cmocka_unit_test(test_spsa_stops_when_no_game_was_played),
        cmocka_unit_test(test_spsa_resumes_from_its_checkpoint_as_the_uncut_run),
        cmocka_unit_test(test_spsa_refuses_a_checkpoint_of_another_run_or_damaged),
        cmocka_unit_test(test_spsa_refuses_bad_shards_and_templates),
    };
    return cmocka_run_group_tests(tests, bench_up, bench_down);
}
