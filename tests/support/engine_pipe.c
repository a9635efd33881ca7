/* engine_pipe.c - the engine as a child process on pipes; see engine_pipe.h. */
#include "engine_pipe.h"

/* cmocka.h needs these first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int remaining(int64_t deadline)
{
    const int64_t r = deadline - now_ms();
    return r < 0 ? 0 : (int)r;
}

const char *epipe_binary(void)
{
    const char *b = getenv("STERN_BIN");
    return b && *b ? b : "build/stern";
}

EPipe *epipe_start(void)
{
    signal(SIGPIPE, SIG_IGN); /* writing to a dead engine must fail, not kill us */
    const char *bin = epipe_binary();
    if (access(bin, X_OK))
        fail_msg("engine binary '%s' is not executable (%s); build it with make", bin, strerror(errno));
    int to_child[2], from_child[2];
    if (pipe(to_child))
        fail_msg("pipe: %s", strerror(errno));
    if (pipe(from_child)) {
        close(to_child[0]);
        close(to_child[1]);
        fail_msg("pipe: %s", strerror(errno));
    }
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork: %s", strerror(errno));
    if (pid == 0) {
        setpgid(0, 0); /* its own process group: epipe_kill kills all it started */
        signal(SIGPIPE, SIG_DFL);
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        execl(bin, bin, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    close(to_child[0]);
    close(from_child[1]);
    EPipe *p = calloc(1, sizeof *p);
    if (!p)
        fail_msg("out of memory");
    p->pid = pid;
    p->in_fd = to_child[1];
    p->out_fd = from_child[0];
    fcntl(p->in_fd, F_SETFD, FD_CLOEXEC);
    fcntl(p->out_fd, F_SETFD, FD_CLOEXEC);
    fcntl(p->in_fd, F_SETFL, fcntl(p->in_fd, F_GETFL) | O_NONBLOCK);
    return p;
}

void epipe_kill(EPipe *p)
{
    if (!p)
        return;
    if (p->pid > 0) {
        kill(-p->pid, SIGKILL); /* the whole group, e.g. a wrapper script's children */
        if (!p->reaped)
            waitpid(p->pid, &p->wstatus, 0);
        p->reaped = true;
    }
    if (p->in_fd >= 0)
        close(p->in_fd);
    if (p->out_fd >= 0)
        close(p->out_fd);
    free(p->buf);
    free(p->line);
    free(p);
}

/* Reads whatever the child has written, waiting at most timeout_ms for the first
 * byte. Returns 1 (read something), 0 (timeout), -1 (EOF/error). */
static int fill(EPipe *p, int timeout_ms)
{
    if (p->eof)
        return -1;
    struct pollfd pf = {.fd = p->out_fd, .events = POLLIN};
    int r;
    do
        r = poll(&pf, 1, timeout_ms);
    while (r < 0 && errno == EINTR);
    if (r == 0)
        return 0;
    if (r < 0)
        return -1;
    if (p->start > 0 && p->start == p->len)
        p->start = p->len = 0;
    if (p->cap - p->len < 65536) {
        if (p->start > 0) {
            memmove(p->buf, p->buf + p->start, p->len - p->start);
            p->len -= p->start;
            p->start = 0;
        }
        if (p->cap - p->len < 65536) {
            const size_t cap = p->cap ? p->cap * 2 : 131072;
            char *b = realloc(p->buf, cap);
            if (!b)
                fail_msg("out of memory");
            p->buf = b;
            p->cap = cap;
        }
    }
    ssize_t n;
    do
        n = read(p->out_fd, p->buf + p->len, p->cap - p->len);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        p->eof = true;
        return -1;
    }
    p->len += (size_t)n;
    return 1;
}

void epipe_send_raw(EPipe *p, const char *data, size_t n)
{
    if (p->in_fd < 0)
        fail_msg("send: the engine's stdin is closed");
    const int64_t deadline = now_ms() + EPIPE_TIMEOUT_MS;
    size_t done = 0;
    while (done < n) {
        const ssize_t w = write(p->in_fd, data + done, n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            fail_msg("send: the engine does not take input (%s)", strerror(errno));
        if (!remaining(deadline))
            fail_msg("send: the engine took only %zu of %zu bytes in %d ms", done, n, EPIPE_TIMEOUT_MS);
        /* Wait until it can take more, reading its output meanwhile so that
         * neither side blocks the other. */
        struct pollfd pf[2] = {{.fd = p->in_fd, .events = POLLOUT}, {.fd = p->out_fd, .events = POLLIN}};
        const int r = poll(pf, p->eof ? 1 : 2, remaining(deadline));
        if (r > 0 && !p->eof && (pf[1].revents & (POLLIN | POLLHUP)))
            fill(p, 0);
    }
}

void epipe_send(EPipe *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        fail_msg("send: bad format '%s'", fmt);
    char *l = malloc((size_t)n + 2);
    if (!l)
        fail_msg("out of memory");
    va_start(ap, fmt);
    vsnprintf(l, (size_t)n + 1, fmt, ap);
    va_end(ap);
    l[n] = '\n';
    l[n + 1] = 0;
    epipe_send_raw(p, l, (size_t)n + 1);
    free(l);
}

int epipe_try_read(EPipe *p, int timeout_ms, char **line)
{
    const int64_t deadline = now_ms() + timeout_ms;
    size_t scanned = p->start;
    for (;;) {
        char *nl = p->len > scanned ? memchr(p->buf + scanned, '\n', p->len - scanned) : NULL;
        if (nl) {
            const size_t n = (size_t)(nl - (p->buf + p->start));
            if (n + 1 > p->line_cap) {
                char *b = realloc(p->line, n + 1);
                if (!b)
                    fail_msg("out of memory");
                p->line = b;
                p->line_cap = n + 1;
            }
            memcpy(p->line, p->buf + p->start, n);
            p->line[n] = 0;
            p->start += n + 1;
            *line = p->line;
            return 1;
        }
        scanned = p->len;
        const size_t keep = scanned - p->start;
        const int r = fill(p, remaining(deadline));
        scanned = p->start + keep; /* fill may have moved the buffer */
        if (r == 0)
            return 0;
        if (r < 0)
            return -1;
    }
}

char *epipe_expect_line(EPipe *p, int timeout_ms, const char *what)
{
    char *line;
    const int r = epipe_try_read(p, timeout_ms, &line);
    if (r == 0)
        fail_msg("no answer from the engine within %d ms (waiting for %s)", timeout_ms, what);
    if (r < 0) {
        char d[64];
        epipe_wait_exit(p, 2000);
        fail_msg("the engine closed its output (waiting for %s); it %s", what, epipe_exit_desc(p, d, sizeof d));
    }
    return line;
}

void epipe_expect(EPipe *p, const char *want)
{
    const char *got = epipe_expect_line(p, EPIPE_TIMEOUT_MS, want);
    if (strcmp(got, want))
        fail_msg("expected the line '%s', got '%.2000s'", want, got);
}

void epipe_expect_silence(EPipe *p, int ms)
{
    char *line;
    const int r = epipe_try_read(p, ms, &line);
    if (r > 0)
        fail_msg("expected no output for %d ms, got '%.2000s'", ms, line);
    if (r < 0)
        fail_msg("expected no output for %d ms, but the engine closed its output", ms);
}

void epipe_lines_free(EPipeLines *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->line[i]);
    free(l->line);
    l->line = NULL;
    l->n = 0;
}

void epipe_collect(EPipe *p, const char *last, bool prefix, int timeout_ms, EPipeLines *out, char **last_line)
{
    *out = (EPipeLines){0};
    const int64_t deadline = now_ms() + timeout_ms;
    const size_t ll = strlen(last);
    for (;;) {
        char *line;
        const int r = epipe_try_read(p, remaining(deadline), &line);
        if (r == 0)
            fail_msg("no '%s' from the engine within %d ms (%d other lines, last '%.500s')", last, timeout_ms, out->n,
                     out->n ? out->line[out->n - 1] : "");
        if (r < 0) {
            char d[64];
            epipe_wait_exit(p, 2000);
            fail_msg("the engine closed its output before '%s' (%d other lines, last '%.500s'); it %s", last, out->n,
                     out->n ? out->line[out->n - 1] : "", epipe_exit_desc(p, d, sizeof d));
        }
        if (prefix ? !strncmp(line, last, ll) : !strcmp(line, last)) {
            if (last_line) {
                *last_line = strdup(line);
                if (!*last_line)
                    fail_msg("out of memory");
            }
            return;
        }
        char **grown = realloc(out->line, sizeof *grown * (size_t)(out->n + 1));
        if (!grown || !(grown[out->n] = strdup(line)))
            fail_msg("out of memory");
        out->line = grown;
        out->n++;
    }
}

void epipe_sync_collect(EPipe *p, EPipeLines *out)
{
    epipe_send(p, "isready");
    epipe_collect(p, "readyok", false, EPIPE_TIMEOUT_MS, out, NULL);
}

void epipe_sync(EPipe *p)
{
    epipe_send(p, "isready");
    epipe_expect(p, "readyok");
}

void epipe_command(EPipe *p, const char *cmd, EPipeLines *out)
{
    epipe_send(p, "%s", cmd);
    epipe_sync_collect(p, out);
}

void epipe_silent(EPipe *p, const char *cmd)
{
    EPipeLines l;
    epipe_command(p, cmd, &l);
    char d[2048];
    epipe_lines_dump(&l, d, sizeof d);
    if (l.n)
        fail_msg("'%.300s' should print nothing, got %d lines: %s", cmd, l.n, d);
    epipe_lines_free(&l);
}

const char *epipe_one_line(EPipe *p, const char *cmd)
{
    static char out[65536];
    EPipeLines l;
    epipe_command(p, cmd, &l);
    char d[4096];
    epipe_lines_dump(&l, d, sizeof d);
    if (l.n != 1)
        fail_msg("'%.300s' should answer one line, got %d: %s", cmd, l.n, d);
    snprintf(out, sizeof out, "%s", l.line[0]);
    epipe_lines_free(&l);
    return out;
}

const char *epipe_fen(EPipe *p)
{
    static char fen[8192];
    EPipeLines l;
    epipe_command(p, "d", &l);
    int found = 0;
    for (int i = 0; i < l.n; i++)
        if (!strncmp(l.line[i], "Fen: ", 5)) {
            found++;
            snprintf(fen, sizeof fen, "%s", l.line[i] + 5);
        }
    const int n = l.n;
    epipe_lines_free(&l);
    if (found != 1)
        fail_msg("'d' printed %d 'Fen: ' lines (of %d lines), expected exactly one", found, n);
    return fen;
}

void epipe_close_stdin(EPipe *p)
{
    if (p->in_fd >= 0)
        close(p->in_fd);
    p->in_fd = -1;
}

bool epipe_wait_exit(EPipe *p, int timeout_ms)
{
    if (p->reaped)
        return true;
    const int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        const pid_t r = waitpid(p->pid, &p->wstatus, WNOHANG);
        if (r == p->pid) {
            p->reaped = true;
            return true;
        }
        if (r < 0 && errno != EINTR)
            return false;
        if (!remaining(deadline))
            return false;
        /* Drain its output so that a full pipe cannot keep it from exiting. */
        if (!p->eof && fill(p, 0) > 0) {
            p->start = p->len = 0;
            continue;
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

const char *epipe_exit_desc(const EPipe *p, char *buf, size_t n)
{
    if (!p->reaped)
        snprintf(buf, n, "is still running");
    else if (WIFEXITED(p->wstatus))
        snprintf(buf, n, "exited with status %d", WEXITSTATUS(p->wstatus));
    else if (WIFSIGNALED(p->wstatus))
        snprintf(buf, n, "was killed by signal %d (%s)", WTERMSIG(p->wstatus), strsignal(WTERMSIG(p->wstatus)));
    else
        snprintf(buf, n, "ended with wait status %d", p->wstatus);
    return buf;
}

int epipe_setup(void **state)
{
    *state = epipe_start();
    return 0;
}

int epipe_teardown(void **state)
{
    epipe_kill(*state);
    return 0;
}

void epipe_lines_dump(const EPipeLines *l, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < l->n && o + 4 < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s[%.300s]", i ? " " : "", l->line[i]);
}

int epipe_run_tool(const char *cmd, char *out, size_t cap)
{
    char dir[4096], line[24576];
    snprintf(dir, sizeof dir, "%s", epipe_binary());
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    snprintf(line, sizeof line, "%s/%s 2>&1", dir, cmd);
    FILE *f = popen(line, "r");
    assert_non_null(f);
    const size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    return pclose(f);
}
