/*
 * engine_proc.h - an engine program run as a child process that speaks a line
 * protocol (PROTOCOL.md, UCI style) on its stdin and stdout.
 *
 * The child runs in a process group of its own, so that killing it also kills what
 * a `/bin/sh -c` command line started; its stderr goes where the caller says.
 * Every wait has a timeout in milliseconds (a negative timeout waits for ever);
 * nothing here blocks without one, so a hung engine can always be killed.
 * Writing to an engine that has exited fails with an error instead of raising
 * SIGPIPE (ep_start sets SIGPIPE to ignored in this process; children get the
 * default back). One EngineProc is used by one thread at a time; different
 * EngineProcs may be used from different threads.
 *
 * Two transports implement the process calls (ep_start, ep_send,
 * ep_read_line, ep_quit, ep_kill, ep_reap, ep_running, ep_exit_desc, and the
 * signal helpers): engine_proc.c, a child process, and engine_worker.c, a Web
 * Worker for the table built as WebAssembly (docs/WEB.md). engine_talk.c
 * builds the protocol calls (handshake, sync, waiting for a token) on either;
 * engine_base.c holds what all three share (the clock, deadlines, errors).
 */
#ifndef STERN_ENGINE_PROC_H
#define STERN_ENGINE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define EP_LINE_MAX (16 << 20)     /* longest line kept from an engine, bytes */
#define EP_SEND_TIMEOUT_MS 10000   /* longest wait for an engine to take a line */
#define EP_ERROR_MAX 256

typedef struct EngineProc {
    pid_t pid;                 /* the child (leader of its process group), or -1 */
    int in_fd;                 /* write end of the child's stdin, or -1 */
    int out_fd;                /* read end of the child's stdout, or -1 */
    char *buf;                 /* bytes read from the child: [start, len) not yet returned */
    size_t cap, len, start;
    bool eof;                  /* the child closed its stdout (exited or crashed) */
    bool reaped;               /* the child has been waited for; wstatus is its status */
    int wstatus;
    char name[128];            /* `id name ...` from the handshake, or "" */
    bool ccp;                  /* the engine speaks CCP (docs/CCERL.md), set after ep_start */
    bool refused;              /* the handshake failed because the engine refused an option
                                  (it answered `info string error`): it runs, and error says
                                  "option NAME=VALUE refused: <its line>" */
    char error[EP_ERROR_MAX];  /* what went wrong in the last failed call */
} EngineProc;

/* An option for the handshake: sent as `setoption name <name> value <value>`
 * (value NULL: `setoption name <name>`, a button). */
typedef struct EngineOption {
    const char *name, *value;
} EngineOption;

/* Called by ep_wait_token for every line read that is not the awaited one. */
typedef void (*EpLineFn)(const char *line, void *ctx);

/* Starts the command line `cmd` with pipes to its stdin and stdout. A plain
 * "program arg ..." (words of no shell special character) is run directly, found
 * in PATH; anything else as `/bin/sh -c cmd`. err_fd is the descriptor the child's
 * stderr is joined to, or -1 to share this process's. Returns 0, or -1 with
 * e->error set (no pipe or fork; a plain program that cannot be executed). A
 * shell command that does not exist still starts (the shell exits with 127): the
 * first read sees EOF. */
int ep_start(EngineProc *e, const char *cmd, int err_fd);

/* Sends one line: the printf-style text plus '\n'. Waits at most
 * EP_SEND_TIMEOUT_MS for the engine to take it, reading (and keeping) what the
 * engine writes meanwhile so neither side can block the other. Returns 0, or -1
 * with e->error set (engine gone, timeout, line over EP_LINE_MAX bytes). */
int ep_send(EngineProc *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads the next line from the engine, waiting at most timeout_ms (< 0: no limit).
 * On 1, *line points to the line without its "\r\n" (NUL-terminated), valid until
 * the next call on e. Returns 1 (a line), 0 (timeout), -1 (EOF or read error:
 * e->eof is set on EOF; a last line without '\n' is returned before the EOF). */
int ep_read_line(EngineProc *e, int timeout_ms, char **line);

/* Reads lines until one whose first token is `token` (e.g. "bestmove"), waiting at
 * most timeout_ms in all (< 0: no limit). Every other line is given to fn (may be
 * NULL) with ctx. Returns 1 with *line set as ep_read_line does, 0 on timeout,
 * -1 on EOF/error; e->error says which. */
int ep_wait_token(EngineProc *e, const char *token, int timeout_ms, EpLineFn fn, void *ctx, char **line);

/* The handshake: `uci` until `uciok` (keeping `id name` in e->name), then one
 * `setoption` per option (nopts of opts, may be 0), each followed by `isready`
 * so that a refusal (`info string error ...` before the `readyok`) names its
 * option, then ep_sync. timeout_ms bounds each wait. Returns 0, or -1 with
 * e->error set; e->refused tells a refused option from an engine that did not
 * answer. */
int ep_handshake(EngineProc *e, const EngineOption *opts, int nopts, int timeout_ms);
/* (With e->ccp the handshake is `ccp`, answered by anything up to the readyok
 * of an `isready` sent after it: CCP engines answer `ccp` with id lines and
 * `ccpok`, or less.) */

/* Starts the command line `cmd` (as ep_start, the child's stderr shared) for an
 * engine that analyses positions (stern-annotate, stern-suite), and makes its
 * handshake: `uci` until `uciok`, then `setoption name OwnBook value
 * false` and `setoption name OpponentModel value false` when the engine offers
 * those options (Stern's: a book move, or a guess about the other seats,
 * would stand in for a search of the position), then opts[0..nopts) (at most
 * 64) as ep_handshake sets them. Returns 0, or -1 with e->error set. */
int ep_start_analysis(EngineProc *e, const char *cmd, const EngineOption *opts, int nopts, int timeout_ms);

/* Sends `isready` and waits at most timeout_ms for `readyok`, dropping the lines
 * before it. Returns 0, or -1 with e->error set. */
int ep_sync(EngineProc *e, int timeout_ms);

/* Ends the engine: sends `quit`, closes its stdin, waits at most grace_ms for it to
 * exit, then kills its process group with SIGKILL; reaps it and frees e's buffers.
 * Returns the child's wait status (see waitpid), or -1 when it was not running. */
int ep_quit(EngineProc *e, int grace_ms);

/* Kills the engine's process group at once (SIGKILL), reaps it and frees e's
 * buffers. Harmless on an engine that is not running. */
void ep_kill(EngineProc *e);

/* Waits at most timeout_ms (< 0: no limit) for the child to exit, without killing
 * it; on exit, kills what is left of its process group and reaps it (e->reaped,
 * e->wstatus). Returns 1 when it has exited, 0 when still running, -1 if not
 * started. */
int ep_reap(EngineProc *e, int timeout_ms);

/* Whether the child is still running (reaps it when it has exited). */
bool ep_running(EngineProc *e);

/* Describes how the child ended, e.g. "exited with status 127 (command not
 * found)", "killed by signal 11 (Segmentation fault)" or "still running", into buf
 * (n bytes). Returns buf. */
char *ep_exit_desc(const EngineProc *e, char *buf, size_t n);

/* Milliseconds of a monotonic clock (CLOCK_MONOTONIC), for timing moves. */
int64_t ep_now_ms(void);

/* For the transports: deadline_after(timeout_ms) is the ep_now_ms time
 * timeout_ms from now (timeout_ms < 0: -1, no deadline); remaining_ms the
 * milliseconds left until such a deadline (>= 0), or -1 for none; set_error
 * writes e->error as printf does. */
int64_t ep_deadline_after(int timeout_ms);
int ep_remaining_ms(int64_t deadline);
void ep_set_error(EngineProc *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Resident memory of process pid in MiB (VmRSS of /proc/<pid>/status, Linux),
 * or -1 when it cannot be read (no such process, no /proc). */
long ep_rss_mib(pid_t pid);

/* Installs handlers for SIGINT, SIGTERM and SIGHUP that kill the process groups of
 * every engine still running, then end this process with the same signal, so an
 * interrupted tool leaves no engine behind. Returns 0, or -1 (sigaction failed). */
int ep_kill_children_on_signals(void);

/* Kills the process group of every engine still running (SIGKILL), without
 * reaping them: their EngineProcs see EOF and are ended as usual by their owners
 * (ep_kill, ep_quit). For a tool that stops its games on a signal in a thread of
 * its own (stern-arena on Ctrl-C). Callable from any thread; not from a signal
 * handler (it takes the lock of the list of engines). */
void ep_kill_all(void);

#endif
