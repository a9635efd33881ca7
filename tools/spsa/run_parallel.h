/*
 * run_parallel.h - runs several shell command lines at once and waits for all
 * of them: the shards of a stern-spsa iteration, each through its command
 * template (a local process, or an srun job step on a cluster).
 */
#ifndef STERN_RUN_PARALLEL_H
#define STERN_RUN_PARALLEL_H

#include <stddef.h>

/* Starts each of the n command lines cmds[i] with /bin/sh -c, all at once,
 * its stdin /dev/null and its stdout and stderr appended to the file logs[i]
 * (created when missing), then waits for every one. status[i] gets its wait
 * status (as waitpid gives it), or -1 when it could not be started (fork or
 * the log file failed: a message on stderr). Returns the number of commands
 * that exited 0. */
int run_parallel(const char *const *cmds, const char *const *logs, int n, int *status);

/* Describes a status of run_parallel in buf (n bytes): "exit status 3",
 * "killed by signal 9" or "not started". Returns buf. */
const char *run_parallel_status_text(int status, char *buf, size_t n);

#endif
