/* shard.c - a task's shard from "K/N" or the scheduler's index; see shard.h. */
#include "shard.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `text` as a whole decimal number in [lo, hi]. */
static bool whole(const char *text, long lo, long hi, long *out)
{
    if (!text || !*text)
        return false;
    char *end;
    errno = 0;
    const long v = strtol(text, &end, 10);
    if (errno || *end || end == text || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Environment variable `name` as a number in [lo, hi]; false with the reason
 * in err when it is unset or not such a number. */
static bool env_number(const char *name, long lo, long hi, long *out, char *err, size_t errn)
{
    const char *v = getenv(name);
    if (!v) {
        snprintf(err, errn, "-shard auto: %s is not set", name);
        return false;
    }
    if (!whole(v, lo, hi, out)) {
        snprintf(err, errn, "-shard auto: %s='%s' is not a number from %ld to %ld", name, v, lo, hi);
        return false;
    }
    return true;
}

/* The 1-based index and the count of a Slurm array task. `given` is the N of
 * auto/N (0: none): it stands in for an unset SLURM_ARRAY_TASK_COUNT and must
 * equal a set one. */
static int from_slurm(long given, long *k, long *n, char *err, size_t errn)
{
    long id, min, step, count;
    if (!env_number("SLURM_ARRAY_TASK_ID", 0, 1L << 30, &id, err, errn) ||
        !env_number("SLURM_ARRAY_TASK_MIN", 0, 1L << 30, &min, err, errn) ||
        !env_number("SLURM_ARRAY_TASK_STEP", 1, 1L << 30, &step, err, errn))
        return -1;
    if (getenv("SLURM_ARRAY_TASK_COUNT") || !given) {
        if (!env_number("SLURM_ARRAY_TASK_COUNT", 1, SHARD_MAX, &count, err, errn))
            return -1;
        if (given && count != given) {
            snprintf(err, errn, "-shard auto/%ld: SLURM_ARRAY_TASK_COUNT is %ld, not %ld", given, count, given);
            return -1;
        }
    } else {
        count = given;
    }
    /* an array of other indexes (--array=1,4,9) has no shard number per task */
    if (id < min || (id - min) % step) {
        snprintf(err, errn,
                 "-shard auto: SLURM_ARRAY_TASK_ID %ld is not MIN %ld plus a multiple of STEP %ld: give -shard K/N", id,
                 min, step);
        return -1;
    }
    *k = (id - min) / step + 1;
    *n = count;
    if (*k > *n) {
        snprintf(err, errn, "-shard auto: SLURM_ARRAY_TASK_ID %ld is task %ld of an array of %ld tasks", id, *k, *n);
        return -1;
    }
    return 0;
}

static int from_kubernetes(long given, long *k, long *n, char *err, size_t errn)
{
    if (!given) {
        snprintf(err, errn, "-shard auto: JOB_COMPLETION_INDEX is set but not the count of tasks: give -shard auto/N");
        return -1;
    }
    long index;
    if (!env_number("JOB_COMPLETION_INDEX", 0, SHARD_MAX - 1, &index, err, errn))
        return -1;
    if (index >= given) {
        snprintf(err, errn, "-shard auto/%ld: JOB_COMPLETION_INDEX %ld is not below %ld", given, index, given);
        return -1;
    }
    *k = index + 1;
    *n = given;
    return 0;
}

int shard_parse(const char *text, int *k, int *n, char *err, size_t errn)
{
    long kk, nn;
    const char *slash = strchr(text, '/');
    const size_t head = slash ? (size_t)(slash - text) : strlen(text);
    if (head == 4 && !strncmp(text, "auto", 4)) {
        long given = 0;
        if (slash && !whole(slash + 1, 1, SHARD_MAX, &given)) {
            snprintf(err, errn, "-shard '%s': expected auto/N with N from 1 to %d", text, SHARD_MAX);
            return -1;
        }
        int r;
        if (getenv("SLURM_ARRAY_TASK_ID"))
            r = from_slurm(given, &kk, &nn, err, errn);
        else if (getenv("JOB_COMPLETION_INDEX"))
            r = from_kubernetes(given, &kk, &nn, err, errn);
        else {
            snprintf(err, errn,
                     "-shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm array job) nor JOB_COMPLETION_INDEX (a "
                     "Kubernetes indexed Job) is set: give -shard K/N");
            return -1;
        }
        if (r)
            return -1;
    } else {
        char num[32];
        if (!slash || head >= sizeof num) {
            snprintf(err, errn, "-shard '%s': expected K/N, auto or auto/N", text);
            return -1;
        }
        memcpy(num, text, head);
        num[head] = 0;
        if (!whole(num, 1, SHARD_MAX, &kk) || !whole(slash + 1, 1, SHARD_MAX, &nn) || kk > nn) {
            snprintf(err, errn, "-shard '%s': expected K/N with 1 <= K <= N <= %d", text, SHARD_MAX);
            return -1;
        }
    }
    *k = (int)kk;
    *n = (int)nn;
    return 0;
}
