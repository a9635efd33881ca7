/* engine_worker.c - the engine of the table built as WebAssembly (docs/WEB.md)
 * is a Web Worker, not a child process: this file gives engine_proc.h's
 * process calls for it. The worker is made, fed and ended by the JavaScript
 * of tools/web/table-worker.js (self.sternEngines); its lines wait there in a
 * queue until ep_read_line takes them. A wait for a line sleeps through
 * Asyncify (emscripten_sleep), so the worker's messages are delivered while
 * the table waits; the table is called by one caller at a time. A worker's
 * end has a wait status as waitpid's: 0 after quit, an exit with status 1
 * when it ended on an error, SIGKILL when the table ended it. */
#include "engine_proc.h"

#include <emscripten.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WAIT_STEP_MS 5          /* a wait for a line looks again this often */
#define STATUS_FAILED (1 << 8)  /* waitpid's status of an exit with status 1 */

/* clang-format off */
EM_JS(int, js_ep_start, (int slot, const char *cmd), {
    return self.sternEngines.start(slot, UTF8ToString(cmd));
});
EM_JS(void, js_ep_send, (int slot, const char *text), {
    self.sternEngines.send(slot, UTF8ToString(text));
});
/* the next line of slot's engine in memory of malloc (the caller frees it),
 * or 0 (none, or no memory: the line stays first) */
EM_JS(char *, js_ep_take, (int slot), {
    const line = self.sternEngines.peek(slot);
    if (line === null) return 0;
    const n = lengthBytesUTF8(line) + 1;
    const p = _malloc(n);
    if (!p) return 0;
    stringToUTF8(line, p, n);
    self.sternEngines.drop(slot);
    return p;
});
EM_JS(int, js_ep_alive, (int slot), { return self.sternEngines.alive(slot) ? 1 : 0; });
EM_JS(void, js_ep_kill, (int slot), { self.sternEngines.kill(slot); });
/* clang-format on */

static int next_slot = 1;

/* Sleeps (Asyncify: the worker's messages come in) until the next look, at
 * most `wait` ms (< 0: no limit). */
static void nap(int wait) { emscripten_sleep(wait < 0 || wait > WAIT_STEP_MS ? WAIT_STEP_MS : (unsigned)wait); }

static void release(EngineProc *e)
{
    free(e->buf);
    e->buf = NULL;
    e->cap = e->len = e->start = 0;
    e->pid = -1;
}

int ep_start(EngineProc *e, const char *cmd, int err_fd)
{
    (void)err_fd;
    memset(e, 0, sizeof *e);
    e->pid = -1;
    e->in_fd = e->out_fd = -1;
    const int slot = next_slot++;
    if (js_ep_start(slot, cmd)) {
        ep_set_error(e, "cannot start a worker for %s", cmd);
        return -1;
    }
    e->pid = slot;
    return 0;
}

int ep_send(EngineProc *e, const char *fmt, ...)
{
    if (e->pid <= 0 || e->reaped || !js_ep_alive(e->pid)) {
        ep_set_error(e, "engine is not running");
        return -1;
    }
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *s = n >= 0 && n < EP_LINE_MAX ? malloc((size_t)n + 1) : NULL;
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    if (!s) {
        ep_set_error(e, "line to send is too long or malformed");
        return -1;
    }
    js_ep_send(e->pid, s);
    free(s);
    return 0;
}

int ep_read_line(EngineProc *e, int timeout_ms, char **line)
{
    free(e->buf); /* the line handed out last time */
    e->buf = NULL;
    if (e->pid <= 0) {
        ep_set_error(e, "engine is not running");
        return -1;
    }
    const int64_t deadline = ep_deadline_after(timeout_ms);
    for (;;) {
        char *l = js_ep_take(e->pid);
        if (l) {
            const size_t n = strlen(l);
            if (n && l[n - 1] == '\r')
                l[n - 1] = '\0';
            *line = e->buf = l;
            return 1;
        }
        if (!js_ep_alive(e->pid)) {
            e->eof = true;
            ep_set_error(e, "the engine's worker ended");
            return -1;
        }
        const int wait = ep_remaining_ms(deadline);
        if (wait == 0) {
            ep_set_error(e, "no line from engine within %d ms", timeout_ms);
            return 0;
        }
        nap(wait);
    }
}

int ep_reap(EngineProc *e, int timeout_ms)
{
    if (e->pid <= 0)
        return -1;
    const int64_t deadline = ep_deadline_after(timeout_ms);
    while (!e->reaped) {
        if (!js_ep_alive(e->pid)) {
            e->reaped = true;
            e->wstatus = STATUS_FAILED; /* a worker that ends by itself failed */
            js_ep_kill(e->pid);         /* what is left of it (its threads) */
            break;
        }
        const int wait = ep_remaining_ms(deadline);
        if (wait == 0)
            return 0;
        nap(wait);
    }
    return 1;
}

bool ep_running(EngineProc *e)
{
    return e->pid > 0 && ep_reap(e, 0) == 0;
}

void ep_kill(EngineProc *e)
{
    if (e->pid > 0 && !e->reaped) {
        js_ep_kill(e->pid);
        e->reaped = true;
        e->wstatus = SIGKILL;
    }
    release(e);
}

int ep_quit(EngineProc *e, int grace_ms)
{
    if (e->pid <= 0)
        return -1;
    (void)grace_ms; /* a worker cannot be seen to end: it is told to quit, then ended */
    if (ep_reap(e, 0) == 0) {
        js_ep_send(e->pid, "quit");
        e->reaped = true;
        e->wstatus = 0;
    }
    js_ep_kill(e->pid);
    release(e);
    return e->wstatus;
}

char *ep_exit_desc(const EngineProc *e, char *buf, size_t n)
{
    snprintf(buf, n, "%s", !e->reaped                  ? (e->pid > 0 ? "still running" : "not started")
                           : e->wstatus == STATUS_FAILED ? "its worker ended on an error"
                           : e->wstatus == SIGKILL       ? "its worker was ended"
                                                         : "quit");
    return buf;
}

long ep_rss_mib(pid_t pid)
{
    (void)pid;
    return -1;
}

int ep_kill_children_on_signals(void) { return 0; }

void ep_kill_all(void) { EM_ASM({ self.sternEngines.killAll(); }); }
