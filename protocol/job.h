/*
 * job.h - the engine's one job at a time on a thread of its own: a search
 * (`go`), or perft, legalmoves, bench or solve, so that the input thread reads
 * on while it runs. The job writes its answer with say() (engine.h) and then
 * a byte on the wake pipe, which wakes an input thread waiting in
 * job_settle. Every function here is called from the input thread only.
 */
#ifndef STERN_JOB_H
#define STERN_JOB_H

#include "search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct Engine Engine;

typedef enum { JOB_SEARCH, JOB_PERFT, JOB_LEGALMOVES, JOB_BENCH, JOB_SOLVE } JobKind;

typedef struct {
    int wake[2];          /* a byte on wake[1] when the job has answered */
    bool running;         /* a thread runs (or ran) the job, not joined yet */
    bool quit_queued;     /* quit was put off behind a waiting command: read no more */
    pthread_t thread;
    JobKind kind;
    const Game *game;     /* the game the thread reads: the engine's, which no
                           * command replaces while a job runs (job_refuse_if_busy) */
    SearchLimits limits;  /* a search's */
    MoveList searchmoves; /* the go's searchmoves, which limits point at: go
                           * fills it before job_start_search */
    SearchSignals sig;    /* stop and ponderhit */
    atomic_bool finished; /* the job has answered (or is answering) */
    int depth;            /* perft's or bench's */
    uint64_t nodes;       /* solve's limit per seat */
} Job;

/* A job with its wake pipe (non-blocking) and nothing running. Returns 0, or
 * -1 when the pipe cannot be had (nothing to free then). */
int job_init(Job *j);

/* Closes the pipe and frees what j holds (no job running: job_stop first). */
void job_free(Job *j);

/* Runs a job on e's current game on the job thread, with e's session and
 * options; when no thread can be had it runs here to the end, so that a `go`
 * always answers. Nothing may be running (job_refuse_if_busy first).
 * - search: limits l (copied; its searchmoves may point at j->searchmoves),
 *   answering with info lines and bestmove;
 * - perft: the count at `depth` plies per move and in all;
 * - legalmoves: the moves in print order, on one line;
 * - bench: the bench positions at `depth` plies (bench.h);
 * - solve: each seat's race, at most `nodes` positions a seat (solve.h). */
void job_start_search(Engine *e, const SearchLimits *l);
void job_start_perft(Engine *e, int depth);
void job_start_legalmoves(Engine *e);
void job_start_bench(Engine *e, int depth);
void job_start_solve(Engine *e, uint64_t nodes);

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
bool job_settle(Engine *e);

/* Whether command `cmd` must be refused because the job running is an
 * infinite or unanswered ponder search: then says "info string error <cmd>: a
 * search is running, send stop first" and returns true. Otherwise waits for
 * any job to end (job_settle) and returns false. */
bool job_refuse_if_busy(Engine *e, const char *cmd);

/* Waits for a running perft, legalmoves, bench or solve (job_settle): they
 * answer before any later command but stop and quit. A search goes on. */
void job_finish_tool(Engine *e);

/* Stops the running job, if any, and waits for its answer. */
void job_stop(Engine *e);

/* `ponderhit`: the running ponder search now searches for real. */
void job_ponderhit(Engine *e);

/* At end of input (PROTOCOL.md): a job with a limit finishes and answers; an
 * infinite or unanswered ponder search is stopped. No job runs after. */
void job_end_of_input(Engine *e);

#endif
