/*
 * front.h - the front end of one protocol session (uci_loop): the engine core
 * (engine.h) and what speaks for it, the input read, the output written, the
 * tokens of the line being carried out, and the job on the job thread. The
 * files of protocol/ that carry out commands share it. The input thread owns
 * all of it; the job thread reads the core as engine.h says and writes only
 * through the output.
 */
#ifndef STERN_FRONT_H
#define STERN_FRONT_H

#include "engine.h"
#include "input.h"
#include "job.h"
#include "output.h"
#include "words.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct Front {
    Engine *engine;
    Output out;
    Input in;
    Tokens tk; /* the tokens of the line being carried out */
    Job job;
    bool ccp;  /* speaking CCP (docs/CCERL.md): moves as cell ids */
} Front;

/* Writes one protocol line on fe's output (output_say). */
#define say(fe, ...) output_say(&(fe)->out, __VA_ARGS__)

/* A front end reading descriptor in_fd and answering on out, with an engine
 * whose options are all at their defaults and whose game is new (of the CCP
 * rules with `ccp`, else classic-2). NULL when the wake pipe, the game or the
 * session cannot be had. */
Front *front_new(int in_fd, FILE *out, bool ccp);

/* Frees fe (no job running: job_stop first; NULL is ignored). The descriptor
 * and `out` stay open. */
void front_delete(Front *fe);

#endif
