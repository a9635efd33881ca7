/*
 * test_shard.c - a task's shard (tools/lib/shard.h): "K/N" as written, and
 * "auto" and "auto/N" from a Slurm array's or a Kubernetes indexed Job's
 * environment, with every missing or disagreeing variable named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "shard.h"

#include <stdlib.h>
#include <string.h>

static const char *const VARS[] = {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP",
                                   "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX"};

/* No scheduler: every variable shard_parse reads unset. */
static int clear_env(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof VARS / sizeof *VARS; i++)
        unsetenv(VARS[i]);
    return 0;
}

/* A Slurm array task: --array=MIN-...:STEP of `count` tasks (NULL: unset). */
static void slurm(const char *id, const char *min, const char *step, const char *count)
{
    setenv("SLURM_ARRAY_TASK_ID", id, 1);
    setenv("SLURM_ARRAY_TASK_MIN", min, 1);
    setenv("SLURM_ARRAY_TASK_STEP", step, 1);
    if (count)
        setenv("SLURM_ARRAY_TASK_COUNT", count, 1);
    else
        unsetenv("SLURM_ARRAY_TASK_COUNT");
}

static void assert_shard(const char *text, int want_k, int want_n)
{
    int k = -1, n = -1;
    char err[256] = "";
    if (shard_parse(text, &k, &n, err, sizeof err))
        fail_msg("'%s' refused: %s", text, err);
    if (k != want_k || n != want_n)
        fail_msg("'%s' gave %d/%d, want %d/%d", text, k, n, want_k, want_n);
}

/* `text` refused with a reason containing `word`, leaving k and n alone. */
static void assert_refused(const char *text, const char *word)
{
    int k = -7, n = -7;
    char err[256] = "";
    if (!shard_parse(text, &k, &n, err, sizeof err))
        fail_msg("'%s' taken as %d/%d", text, k, n);
    if (!strstr(err, word))
        fail_msg("'%s': reason '%s' does not say '%s'", text, err, word);
    assert_int_equal(k, -7);
    assert_int_equal(n, -7);
}

static void test_k_of_n_as_written(void **state)
{
    (void)state;
    assert_shard("1/1", 1, 1);
    assert_shard("3/4", 3, 4);
    assert_shard("12/100", 12, 100);
    assert_refused("0/4", "1 <= K <= N");
    assert_refused("5/4", "1 <= K <= N");
    assert_refused("1/0", "1 <= K <= N");
    assert_refused("2/x", "1 <= K <= N");
    assert_refused("2/", "1 <= K <= N");
    assert_refused("/3", "1 <= K <= N");
    assert_refused("3", "expected K/N, auto or auto/N");
    assert_refused("automatic", "expected K/N, auto or auto/N");
    assert_refused("auto/", "expected auto/N");
    assert_refused("auto/0", "expected auto/N");
}

static void test_slurm_array_index(void **state)
{
    (void)state;
    slurm("0", "0", "1", "4"); /* --array=0-3 */
    assert_shard("auto", 1, 4);
    slurm("3", "0", "1", "4");
    assert_shard("auto", 4, 4);
    assert_shard("auto/4", 4, 4);
    slurm("9", "1", "4", "3"); /* --array=1-9:4: tasks 1, 5, 9 */
    assert_shard("auto", 3, 3);
    slurm("5", "1", "4", NULL); /* no count: auto/N gives it */
    assert_shard("auto/3", 2, 3);
    assert_refused("auto", "SLURM_ARRAY_TASK_COUNT is not set");
    slurm("3", "0", "1", "4");
    assert_refused("auto/5", "SLURM_ARRAY_TASK_COUNT is 4, not 5");
    slurm("6", "1", "4", "3"); /* not on the step */
    assert_refused("auto", "not MIN 1 plus a multiple of STEP 4");
    slurm("4", "0", "1", "4"); /* beyond the count */
    assert_refused("auto", "task 5 of an array of 4");
    slurm("2", "0", "1", "4");
    unsetenv("SLURM_ARRAY_TASK_MIN");
    assert_refused("auto", "SLURM_ARRAY_TASK_MIN is not set");
    slurm("2", "0", "x", "4");
    assert_refused("auto", "SLURM_ARRAY_TASK_STEP='x' is not a number");
}

static void test_kubernetes_completion_index(void **state)
{
    (void)state;
    setenv("JOB_COMPLETION_INDEX", "0", 1);
    assert_shard("auto/5", 1, 5);
    setenv("JOB_COMPLETION_INDEX", "4", 1);
    assert_shard("auto/5", 5, 5);
    assert_refused("auto/4", "JOB_COMPLETION_INDEX 4 is not below 4");
    assert_refused("auto", "give -shard auto/N");
    setenv("JOB_COMPLETION_INDEX", "-1", 1);
    assert_refused("auto/4", "JOB_COMPLETION_INDEX='-1' is not a number");
}

static void test_auto_without_a_scheduler_names_both(void **state)
{
    (void)state;
    assert_refused("auto", "neither SLURM_ARRAY_TASK_ID (a Slurm array job) nor JOB_COMPLETION_INDEX");
    assert_refused("auto/3", "neither SLURM_ARRAY_TASK_ID");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_k_of_n_as_written, clear_env),
        cmocka_unit_test_setup(test_slurm_array_index, clear_env),
        cmocka_unit_test_setup(test_kubernetes_completion_index, clear_env),
        cmocka_unit_test_setup(test_auto_without_a_scheduler_names_both, clear_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
