/*
 * job.h - the engine's one job at a time on a thread of its own, so that the
 * input thread reads on while it runs: a search (`go`), or a tool (perft,
 * legalmoves, bench, solve: their commands give the function the thread
 * runs). The job writes its answer on the front's output and then a byte on
 * the wake pipe, which wakes an input thread waiting in job_settle. Every
 * function here is called from the input thread only.
 */
#ifndef STERN_JOB_H
#define STERN_JOB_H

#include "search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct Front Front;

/* A tool's work on the job thread: answers on fe's output, honours
 * fe->job.sig.stop. */
typedef void (*JobRun)(Front *fe);

typedef struct {
    int wake[2];          /* a byte on wake[1] when the job has answered */
    bool running;         /* a thread runs (or ran) the job, not joined yet */
    bool quit_queued;     /* quit was put off behind a waiting command: read no more */
    pthread_t thread;
    JobRun run;           /* a tool's work; NULL for a search */
    const Game *game;     /* the game the thread reads: the engine's, which no
                           * command replaces while a job runs (job_refuse_if_busy) */
    SearchConfig config;  /* the engine's options as the job started (a copy) */
    SearchLimits limits;  /* a search's */
    MoveList searchmoves; /* the go's searchmoves, which limits point at: go
                           * fills it before job_start_search */
    SearchSignals sig;    /* stop and ponderhit */
    atomic_bool finished; /* the job has answered (or is answering) */
    long long arg;        /* a tool's number: perft's or bench's depth, solve's nodes */
} Job;

/* A job with its wake pipe (non-blocking) and nothing running. Returns 0, or
 * -1 when the pipe cannot be had (nothing to free then). */
int job_init(Job *j);

/* Closes the pipe and frees what j holds (no job running: job_stop first). */
void job_free(Job *j);

/* Runs a job on the engine's current game on the job thread, with its
 * session and options; when no thread can be had it runs here to the end, so
 * that a `go` always answers. Nothing may be running (job_refuse_if_busy
 * first).
 * - search: limits l (copied; its searchmoves may point at j->searchmoves) and
 *   config c (copied), answering with info lines and bestmove;
 * - tool: run(fe), with `arg` in fe->job.arg. */
void job_start_search(Front *fe, const SearchLimits *l, const SearchConfig *c);
void job_start_tool(Front *fe, JobRun run, long long arg);

/* Waits for the running job to answer before a command that changes the
 * state. Returns false at once when it is an infinite or unanswered ponder
 * search (the caller refuses its command: only stop or ponderhit ends it),
 * else true once no job runs. While it waits it reads on, so that no state is
 * left that only quit can end:
 * - `stop` ends the job and the wait, and `ponderhit` acts on it: both act on
 *   the job running when they are read;
 * - `isready` is answered at once during a search (UCI: also while the engine
 *   calculates);
 * - `quit` is put off like any line, so that the waiting command and every line
 *   before it are carried out first, and no line after it is read (here or
 *   later); a search without a limit (a bare go) it stops at once, as it would
 *   stop it when carried out;
 * - at end of input, a job that ends by itself is waited for, and one that
 *   does not (a search with no limit at all) is stopped;
 * - every other line is put off, to be carried out in order afterwards. */
bool job_settle(Front *fe);

/* Whether command `cmd` must be refused because the job running is an
 * infinite or unanswered ponder search: then says "info string error <cmd>: a
 * search is running, send stop first" and returns true. Otherwise waits for
 * any job to end (job_settle) and returns false. */
bool job_refuse_if_busy(Front *fe, const char *cmd);

/* Waits for a running perft, legalmoves, bench or solve (job_settle): they
 * answer before any later command but stop and quit. A search goes on. */
void job_finish_tool(Front *fe);

/* Stops the running job, if any, and waits for its answer. */
void job_stop(Front *fe);

/* `ponderhit`: the running ponder search now searches for real. */
void job_ponderhit(Front *fe);

/* At end of input (PROTOCOL.md): a job with a limit finishes and answers; an
 * infinite or unanswered ponder search is stopped. No job runs after. */
void job_end_of_input(Front *fe);

#endif
