/*
 * engine_pipe.h - the engine binary (build/stern, or $STERN_BIN) run as a child
 * process on a pair of pipes, for protocol tests that talk to it line by line.
 *
 * Every wait has a timeout, so a hung or silent engine fails the running test
 * instead of hanging it. The epipe_expect_* / epipe_send* helpers fail the running
 * cmocka test (fail_msg) on timeout, EOF or a wrong line; the epipe_try_* calls
 * report instead. Lines are returned exactly as the engine wrote them, without the
 * '\n' (a '\r' before it is kept, so stray CRs are visible).
 */
#ifndef STERN_ENGINE_PIPE_H
#define STERN_ENGINE_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define EPIPE_TIMEOUT_MS 10000 /* default wait for an answer: generous, never a speed test */

typedef struct EPipe {
    pid_t pid;       /* the child, or -1 once reaped */
    int in_fd;       /* write end of the child's stdin, or -1 once closed */
    int out_fd;      /* read end of the child's stdout */
    char *buf;       /* bytes read and not yet returned: [start, len) */
    size_t cap, len, start;
    char *line;      /* the last line returned */
    size_t line_cap;
    bool eof;        /* the child closed its stdout */
    bool reaped;
    int wstatus;     /* waitpid status once reaped */
} EPipe;

/* The engine binary: $STERN_BIN, or "build/stern" when unset or empty. */
const char *epipe_binary(void);

/* Starts the engine; fails the test when it cannot. Free with epipe_kill. */
EPipe *epipe_start(void);

/* Kills (SIGKILL) and reaps the child if still running, frees everything.
 * Harmless on NULL. */
void epipe_kill(EPipe *p);

/* Sends exactly n bytes (no newline added). Fails the test on error/timeout. */
void epipe_send_raw(EPipe *p, const char *data, size_t n);

/* Sends one line: the printf-style text plus "\n". */
void epipe_send(EPipe *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads the next line, waiting at most timeout_ms. Returns 1 with *line set
 * (valid until the next read), 0 on timeout, -1 on EOF/error. */
int epipe_try_read(EPipe *p, int timeout_ms, char **line);

/* The next line; fails the test on timeout or EOF (`what` names what was awaited). */
char *epipe_expect_line(EPipe *p, int timeout_ms, const char *what);

/* Asserts that the next line is exactly `want`. */
void epipe_expect(EPipe *p, const char *want);

/* Asserts that the engine writes nothing for ms milliseconds. */
void epipe_expect_silence(EPipe *p, int ms);

/* A list of lines (owned copies). */
typedef struct EPipeLines {
    int n;
    char **line;
} EPipeLines;

void epipe_lines_free(EPipeLines *l);

/* Reads lines until one equal to `last` (not included in *out) or, when
 * `prefix` is true, one starting with `last` (then stored in *last_line, which the
 * caller frees, when last_line is not NULL). All earlier lines go to *out. Fails
 * the test on timeout/EOF. */
void epipe_collect(EPipe *p, const char *last, bool prefix, int timeout_ms, EPipeLines *out, char **last_line);

/* Sends `isready` and collects every line written before `readyok` into *out. */
void epipe_sync_collect(EPipe *p, EPipeLines *out);

/* Sends `isready` and asserts that the very next line is `readyok`. */
void epipe_sync(EPipe *p);

/* Sends `cmd` then `isready`; returns the lines written before `readyok`. */
void epipe_command(EPipe *p, const char *cmd, EPipeLines *out);

/* Sends `cmd` and asserts that it is answered by nothing at all before the
 * `readyok` of an `isready` sent after it. */
void epipe_silent(EPipe *p, const char *cmd);

/* Sends `cmd` and asserts that it is answered by exactly one line before the
 * `readyok` of an `isready` sent after it; returns that line (static buffer). */
const char *epipe_one_line(EPipe *p, const char *cmd);

/* Sends `d` and returns the text after "Fen: " of its single Fen line (static
 * buffer); fails the test unless there is exactly one such line. */
const char *epipe_fen(EPipe *p);

/* Closes the engine's stdin (EOF for it). */
void epipe_close_stdin(EPipe *p);

/* Waits at most timeout_ms for the child to exit; returns true when it has (then
 * p->wstatus holds its status). Output still unread is discarded. */
bool epipe_wait_exit(EPipe *p, int timeout_ms);

/* "exited with status N" / "killed by signal N" / "still running" into buf. */
const char *epipe_exit_desc(const EPipe *p, char *buf, size_t n);

/* cmocka fixtures: start build/stern (STERN_BIN) into *state, and kill it. */
int epipe_setup(void **state);
int epipe_teardown(void **state);

/* Writes the lines of l as "[line] [line] ..." (each cut at 300 characters) into
 * buf (n bytes), for failure messages. */
void epipe_lines_dump(const EPipeLines *l, char *buf, size_t n);

/* Runs `<directory of the engine binary>/<cmd>` (e.g. "stern --help", or a tool
 * "stern-perft --depth 1") through the shell; returns its wait status and its
 * output, stdout and stderr, in out (cap bytes, NUL-terminated). */
int epipe_run_tool(const char *cmd, char *out, size_t cap);

#endif
