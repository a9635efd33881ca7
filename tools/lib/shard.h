/*
 * shard.h - which shard of a job split into N independent tasks this process
 * is: given as "K/N", or read from the index a batch scheduler gives each task
 * of an array (a Slurm array job, a Kubernetes indexed Job), so that one job
 * script serves every task.
 */
#ifndef STERN_SHARD_H
#define STERN_SHARD_H

#include <stddef.h>

#define SHARD_MAX 1000000 /* shards of a job at most */

/* Parses `text` into shard *k of *n (1 <= *k <= *n <= SHARD_MAX):
 *   "K/N"     as written;
 *   "auto"    from the environment (getenv): Slurm's SLURM_ARRAY_TASK_ID,
 *             SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP (K = (ID - MIN) / STEP
 *             + 1) and SLURM_ARRAY_TASK_COUNT (N); Kubernetes needs auto/N;
 *   "auto/N"  K from Slurm as above (its count, when set, must be N) or from
 *             Kubernetes' JOB_COMPLETION_INDEX (0-based: K = index + 1).
 * Slurm's variables are used when SLURM_ARRAY_TASK_ID is set, else Kubernetes'.
 * Returns 0, or -1 with the reason in err (errn bytes; names the variable that
 * is missing or wrong, or the malformed text); *k and *n are then unchanged. */
int shard_parse(const char *text, int *k, int *n, char *err, size_t errn);

#endif
