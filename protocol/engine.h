/*
 * engine.h - the state of one protocol session (uci_loop), which the files of
 * protocol/ that carry out its commands share: the streams, the game, the
 * search session, the options' values and the job on the job thread. The
 * input thread owns all of it; the job thread reads the game, session and
 * options of its job (no command changes them while a job runs) and writes
 * only through say().
 */
#ifndef STERN_ENGINE_H
#define STERN_ENGINE_H

#include "evalfile.h"
#include "game.h"
#include "input.h"
#include "job.h"
#include "ownbook.h"
#include "session.h"
#include "words.h"

#include <pthread.h>
#include <stdio.h>

typedef struct Engine Engine;

struct Engine {
    FILE *out;
    pthread_mutex_t out_lock; /* whole lines from the input and job threads */
    Input in;
    Tokens tk;                /* the tokens of the line being carried out */
    Game *game;               /* the current game */
    SearchSession *session;   /* the table and threads (Hash, Threads) and what searches keep */
    SearchConfig config;      /* MultiPV, Search, Move Overhead, nodestime, OpponentModel */
    OwnBook book;             /* OwnBook, BookFile, BookDepth, BookVariety */
    EvalFile evalfile;        /* EvalFile: its net goes in config.net at each go */
    bool ponder_option;       /* Ponder */
    bool ccp;                 /* speaking CCP (docs/CCERL.md): moves as cell ids */
    Job job;
};

/* An engine reading descriptor in_fd and answering on out, with a new game
 * (of the CCP rules with `ccp`, else classic-2), a session whose table is
 * made when first needed, and every option at its default. NULL when the
 * wake pipe, the game or the session cannot be had. */
Engine *engine_new(int in_fd, FILE *out, bool ccp);

/* Frees e (no job running: job_stop first; NULL is ignored). The descriptor
 * and `out` stay open. */
void engine_delete(Engine *e);

/* Writes one line (fmt and its arguments, then '\n') on e->out and flushes
 * it; from either thread, never mixed with another line. */
void say(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Gives the session its table when it has none yet (the first isready,
 * ucinewgame or go, after the GUI's options); short of memory a smaller one,
 * said once. */
void table_ready(Engine *e);

#endif
