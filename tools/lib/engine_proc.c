/* engine_proc.c - engine child processes and their line protocol; see engine_proc.h. */
#define _GNU_SOURCE /* pipe2 */
#include "engine_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define READ_CHUNK 65536
#define REAP_POLL_MS 10        /* how often a wait for exit looks again */
#define MAX_LIVE_CHILDREN 256  /* engines the signal handlers can clean up */
#define EXIT_NOT_FOUND 127     /* the shell's status for a command not found */
#define EXIT_NOT_EXECUTABLE 126

/* ---- children to kill when this process is interrupted ---- */

static volatile sig_atomic_t live_children[MAX_LIVE_CHILDREN];
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static void live_set(pid_t old, pid_t new)
{
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < MAX_LIVE_CHILDREN; i++)
        if (live_children[i] == old) {
            live_children[i] = new;
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

/* Kills the process group of every live child; only kill(2), so a signal
 * handler may call it (without live_lock, which it cannot take). */
static void kill_live_children(void)
{
    for (int i = 0; i < MAX_LIVE_CHILDREN; i++) {
        const pid_t pid = (pid_t)live_children[i];
        if (pid > 0)
            kill(-pid, SIGKILL);
    }
}

void ep_kill_all(void)
{
    pthread_mutex_lock(&live_lock);
    kill_live_children();
    pthread_mutex_unlock(&live_lock);
}

static void kill_children_and_die(int sig)
{
    kill_live_children();
    signal(sig, SIG_DFL);
    raise(sig);
}

int ep_kill_children_on_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = kill_children_and_die;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], &sa, NULL))
            return -1;
    return 0;
}


static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Makes room for `more` bytes after e->len (and a NUL). Returns 0 or -1. */
static int reserve(EngineProc *e, size_t more)
{
    if (e->len + more + 1 <= e->cap)
        return 0;
    size_t cap = e->cap ? e->cap : READ_CHUNK;
    while (cap < e->len + more + 1)
        cap *= 2;
    char *b = realloc(e->buf, cap);
    if (!b)
        return -1;
    e->buf = b;
    e->cap = cap;
    return 0;
}

/* Reads what the child has written, without blocking. Returns the number of bytes
 * read, 0 when nothing is there, -1 on EOF or error (e->eof set). */
static ssize_t fill(EngineProc *e)
{
    if (e->eof || e->out_fd < 0)
        return -1;
    if (e->len - e->start >= EP_LINE_MAX) {
        ep_set_error(e, "engine line longer than %d bytes", EP_LINE_MAX);
        return -1;
    }
    if (reserve(e, READ_CHUNK)) {
        ep_set_error(e, "out of memory");
        return -1;
    }
    for (;;) {
        const ssize_t n = read(e->out_fd, e->buf + e->len, READ_CHUNK);
        if (n > 0) {
            e->len += (size_t)n;
            return n;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        e->eof = true;
        if (n == 0)
            ep_set_error(e, "engine closed its output (EOF)");
        else
            ep_set_error(e, "reading from engine: %s", strerror(errno));
        return -1;
    }
}

/* ---- starting ---- */

static void ignore_sigpipe(void)
{
    signal(SIGPIPE, SIG_IGN);
}

static void ignore_sigpipe_once(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ignore_sigpipe);
}

/* Child side of spawn: only async-signal-safe calls until exec. */
static void child_exec(int in_rd, int out_wr, int err_fd, int report_wr, const char *file, char *const argv[])
{
    setpgid(0, 0);
    if (in_rd != STDIN_FILENO)
        dup2(in_rd, STDIN_FILENO);
    else
        fcntl(in_rd, F_SETFD, 0);
    if (out_wr != STDOUT_FILENO)
        dup2(out_wr, STDOUT_FILENO);
    else
        fcntl(out_wr, F_SETFD, 0);
    if (err_fd >= 0 && err_fd != STDERR_FILENO)
        dup2(err_fd, STDERR_FILENO);
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execvp(file, argv);
    const int err = errno;
    ssize_t w = write(report_wr, &err, sizeof err);
    (void)w;
    _exit(EXIT_NOT_FOUND);
}

static void reset(EngineProc *e)
{
    memset(e, 0, sizeof *e);
    e->pid = -1;
    e->in_fd = e->out_fd = -1;
}

static int spawn(EngineProc *e, const char *file, char *const argv[], int err_fd)
{
    reset(e);
    ignore_sigpipe_once();
    int in[2], out[2], report[2];
    if (pipe2(in, O_CLOEXEC)) {
        ep_set_error(e, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(out, O_CLOEXEC)) {
        ep_set_error(e, "pipe: %s", strerror(errno));
        close(in[0]), close(in[1]);
        return -1;
    }
    if (pipe2(report, O_CLOEXEC)) {
        ep_set_error(e, "pipe: %s", strerror(errno));
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return -1;
    }
    const pid_t pid = fork();
    if (pid == 0)
        child_exec(in[0], out[1], err_fd, report[1], file, argv);
    close(in[0]);
    close(out[1]);
    close(report[1]);
    if (pid < 0) {
        ep_set_error(e, "fork: %s", strerror(errno));
        close(in[1]), close(out[0]), close(report[0]);
        return -1;
    }
    setpgid(pid, pid); /* also done by the child; whichever runs first wins */
    int child_errno = 0;
    ssize_t n;
    while ((n = read(report[0], &child_errno, sizeof child_errno)) < 0 && errno == EINTR)
        ;
    close(report[0]);
    if (n == (ssize_t)sizeof child_errno) {
        ep_set_error(e, "cannot execute %s: %s", file, strerror(child_errno));
        close(in[1]), close(out[0]);
        waitpid(pid, NULL, 0);
        return -1;
    }
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    e->pid = pid;
    e->in_fd = in[1];
    e->out_fd = out[0];
    live_set(0, pid);
    return 0;
}

/* Characters that make a command line need the shell. */
#define SHELL_SPECIALS "|&;<>()$`\\\"' \t\n*?[]#~=%{}!"
#define MAX_SIMPLE_ARGS 64

int ep_start(EngineProc *e, const char *cmd, int err_fd)
{
    /* A plain "program arg ..." runs without a shell in between, so that the
     * engine is our own child: killing it leaves no orphan behind. */
    char copy[4096];
    bool simple = strlen(cmd) < sizeof copy && cmd[strspn(cmd, " \t")] != '\0';
    for (const char *c = cmd; *c && simple; c++)
        simple = *c == ' ' || *c == '\t' || !strchr(SHELL_SPECIALS, *c);
    if (simple) {
        snprintf(copy, sizeof copy, "%s", cmd);
        char *argv[MAX_SIMPLE_ARGS + 1];
        int n = 0;
        char *save = NULL;
        for (char *t = strtok_r(copy, " \t", &save); t && n < MAX_SIMPLE_ARGS; t = strtok_r(NULL, " \t", &save))
            argv[n++] = t;
        argv[n] = NULL;
        if (n < MAX_SIMPLE_ARGS)
            return spawn(e, argv[0], argv, err_fd);
    }
    char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
    return spawn(e, argv[0], argv, err_fd);
}

/* ---- talking ---- */

/* Writes len bytes of s to the child within timeout_ms, draining its output
 * meanwhile. Returns 0 or -1 (e->error set). */
static int write_all(EngineProc *e, const char *s, size_t len, int timeout_ms)
{
    if (e->in_fd < 0) {
        ep_set_error(e, "engine is not running");
        return -1;
    }
    const int64_t deadline = ep_deadline_after(timeout_ms);
    while (len) {
        const ssize_t n = write(e->in_fd, s, len);
        if (n > 0) {
            s += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            if (errno == EPIPE)
                ep_set_error(e, "engine closed its input");
            else
                ep_set_error(e, "writing to engine: %s", strerror(errno));
            return -1;
        }
        const int wait = ep_remaining_ms(deadline);
        if (wait == 0) {
            ep_set_error(e, "engine did not read its input within %d ms", timeout_ms);
            return -1;
        }
        struct pollfd p[2] = {{.fd = e->in_fd, .events = POLLOUT},
                              {.fd = e->eof ? -1 : e->out_fd, .events = POLLIN}};
        if (poll(p, 2, wait) < 0 && errno != EINTR) {
            ep_set_error(e, "poll: %s", strerror(errno));
            return -1;
        }
        if (p[1].revents)
            fill(e);
    }
    return 0;
}

static int vsend(EngineProc *e, int timeout_ms, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || n >= EP_LINE_MAX) {
        ep_set_error(e, "line to send is too long or malformed");
        return -1;
    }
    char *s = malloc((size_t)n + 2);
    if (!s) {
        ep_set_error(e, "out of memory");
        return -1;
    }
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    s[n] = '\n';
    const int rc = write_all(e, s, (size_t)n + 1, timeout_ms);
    free(s);
    return rc;
}

int ep_send(EngineProc *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int rc = vsend(e, EP_SEND_TIMEOUT_MS, fmt, ap);
    va_end(ap);
    return rc;
}

static int send_timeout(EngineProc *e, int timeout_ms, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int send_timeout(EngineProc *e, int timeout_ms, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int rc = vsend(e, timeout_ms, fmt, ap);
    va_end(ap);
    return rc;
}

/* Hands out the line ending at buf[nl] ('\n' or the end of the data at EOF). */
static int take_line(EngineProc *e, size_t nl, char **line)
{
    e->start = nl < e->len ? nl + 1 : e->len;
    e->buf[nl] = '\0';
    if (nl > 0 && e->buf[nl - 1] == '\r')
        e->buf[nl - 1] = '\0';
    *line = e->buf;
    return 1;
}

int ep_read_line(EngineProc *e, int timeout_ms, char **line)
{
    if (e->start) { /* drop the line handed out last time */
        memmove(e->buf, e->buf + e->start, e->len - e->start);
        e->len -= e->start;
        e->start = 0;
    }
    const int64_t deadline = ep_deadline_after(timeout_ms);
    size_t scanned = 0;
    for (;;) {
        const char *nl = e->len > scanned ? memchr(e->buf + scanned, '\n', e->len - scanned) : NULL;
        if (nl)
            return take_line(e, (size_t)(nl - e->buf), line);
        scanned = e->len;
        const ssize_t got = fill(e);
        if (got > 0)
            continue;
        if (got < 0) {
            if (e->eof && e->len > 0 && !reserve(e, 0))
                return take_line(e, e->len, line);
            return -1;
        }
        const int wait = ep_remaining_ms(deadline);
        if (wait == 0) {
            ep_set_error(e, "no line from engine within %d ms", timeout_ms);
            return 0;
        }
        struct pollfd p = {.fd = e->out_fd, .events = POLLIN};
        if (poll(&p, 1, wait) < 0 && errno != EINTR) {
            ep_set_error(e, "poll: %s", strerror(errno));
            return -1;
        }
    }
}


/* ---- ending ---- */

/* Waits at most timeout_ms for the child to exit, reading and dropping its output
 * when `drain`. On exit, kills the rest of its process group and reaps it.
 * Returns 1 (exited), 0 (running), -1 (not started). */
static int wait_exit(EngineProc *e, int timeout_ms, bool drain)
{
    if (e->reaped)
        return 1;
    if (e->pid < 0)
        return -1;
    const int64_t deadline = ep_deadline_after(timeout_ms);
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        /* WNOWAIT: the zombie keeps its process group id reserved until the kill */
        if (waitid(P_PID, (id_t)e->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == e->pid) {
            kill(-e->pid, SIGKILL);
            live_set(e->pid, 0); /* before the reap: ep_kill_all must not kill a reused pid */
            while (waitpid(e->pid, &e->wstatus, 0) < 0 && errno == EINTR)
                ;
            e->reaped = true;
            return 1;
        }
        const int left = ep_remaining_ms(deadline);
        if (left == 0)
            return 0;
        const int step = left < 0 || left > REAP_POLL_MS ? REAP_POLL_MS : left;
        if (drain && !e->eof && e->out_fd >= 0) {
            struct pollfd p = {.fd = e->out_fd, .events = POLLIN};
            if (poll(&p, 1, step) > 0 && fill(e) > 0)
                e->len = e->start; /* dropped */
        } else {
            const struct timespec ts = {0, step * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
}

int ep_reap(EngineProc *e, int timeout_ms)
{
    return wait_exit(e, timeout_ms, false);
}

bool ep_running(EngineProc *e)
{
    return wait_exit(e, 0, false) == 0;
}

static void release(EngineProc *e)
{
    close_fd(&e->in_fd);
    close_fd(&e->out_fd);
    free(e->buf);
    e->buf = NULL;
    e->cap = e->len = e->start = 0;
    e->pid = -1;
}

void ep_kill(EngineProc *e)
{
    if (e->pid > 0 && !e->reaped) {
        kill(-e->pid, SIGKILL);
        wait_exit(e, -1, false);
    }
    release(e);
}

int ep_quit(EngineProc *e, int grace_ms)
{
    if (e->pid < 0)
        return -1;
    if (!e->reaped) {
        const int64_t deadline = ep_deadline_after(grace_ms);
        send_timeout(e, grace_ms, "quit");
        close_fd(&e->in_fd);
        if (wait_exit(e, ep_remaining_ms(deadline), true) == 0) {
            kill(-e->pid, SIGKILL);
            wait_exit(e, -1, false);
        }
    }
    release(e);
    return e->wstatus;
}

char *ep_exit_desc(const EngineProc *e, char *buf, size_t n)
{
    if (!e->reaped)
        snprintf(buf, n, "%s", e->pid > 0 ? "still running" : "not started");
    else if (WIFEXITED(e->wstatus)) {
        const int code = WEXITSTATUS(e->wstatus);
        snprintf(buf, n, "exited with status %d%s", code,
                 code == EXIT_NOT_FOUND        ? " (command not found)"
                 : code == EXIT_NOT_EXECUTABLE ? " (cannot execute)"
                                               : "");
    } else if (WIFSIGNALED(e->wstatus))
        snprintf(buf, n, "killed by signal %d (%s)", WTERMSIG(e->wstatus), strsignal(WTERMSIG(e->wstatus)));
    else
        snprintf(buf, n, "ended with wait status %d", e->wstatus);
    return buf;
}

long ep_rss_mib(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    fclose(f);
    return kb < 0 ? -1 : kb / 1024;
}
