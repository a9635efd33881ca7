/*
 * output.h - the protocol's output: whole lines written on one stream from
 * the input thread and the job thread, never mixed, each flushed at once (a
 * GUI reads the engine line by line).
 */
#ifndef STERN_OUTPUT_H
#define STERN_OUTPUT_H

#include <pthread.h>
#include <stdio.h>

typedef struct {
    FILE *f;              /* the stream written (stdout, or a test's pipe) */
    pthread_mutex_t lock; /* held for one line, or for one text of several */
} Output;

/* An output on stream f (which stays the caller's to close). */
void output_init(Output *o, FILE *f);
void output_free(Output *o);

/* Writes one line, fmt and its arguments then '\n', and flushes it. */
void output_say(Output *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* For text written in pieces (a move list of millions of moves, a drawn
 * board): output_begin takes the stream for the caller alone and returns it;
 * output_end flushes it and gives it back. */
FILE *output_begin(Output *o);
void output_end(Output *o);

#endif
