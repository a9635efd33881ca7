/*
 * run_parallel.c - shell command lines run at once (run_parallel.h).
 */
#include "run_parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: stdin from /dev/null (shards must not read the terminal the
 * tuner was started from), stdout and stderr to the log; then the shell.
 * Never returns. */
static void exec_child(const char *cmd, const char *log)
{
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
        fprintf(stderr, "run_parallel: %s: %s\n", log, strerror(errno));
        _exit(127);
    }
    close(in);
    close(out);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
}

int run_parallel(const char *const *cmds, const char *const *logs, int n, int *status)
{
    pid_t pids[n > 0 ? n : 1];
    for (int i = 0; i < n; i++) {
        status[i] = -1;
        /* Buffered output would be written twice, by parent and child. */
        fflush(NULL);
        pids[i] = fork();
        if (pids[i] == 0)
            exec_child(cmds[i], logs[i]);
        if (pids[i] < 0)
            fprintf(stderr, "run_parallel: cannot start '%s': %s\n", cmds[i], strerror(errno));
    }
    int ok = 0;
    for (int i = 0; i < n; i++) {
        if (pids[i] < 0)
            continue;
        int st;
        pid_t got;
        do
            got = waitpid(pids[i], &st, 0);
        while (got < 0 && errno == EINTR);
        if (got == pids[i]) {
            status[i] = st;
            ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
        }
    }
    return ok;
}

const char *run_parallel_status_text(int status, char *buf, size_t n)
{
    if (status < 0)
        snprintf(buf, n, "not started");
    else if (WIFEXITED(status))
        snprintf(buf, n, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, n, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(buf, n, "wait status %d", status);
    return buf;
}
