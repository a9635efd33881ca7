/*
 * checkpoint.h - stern-spsa's checkpoint (-checkpoint FILE, -resume): after
 * each iteration the run's state, written whole or not at all (a new file
 * synced and renamed over the old one), so that a run cut by a wall-clock
 * limit, a signal or a failure goes on from its last whole iteration with the
 * weights of the uncut run.
 *
 * The file is text:
 *
 *     stern-spsa checkpoint 1
 *     run <the settings that decide the run's weights, one line>
 *     iteration <iterations done>
 *     draws <rand() draws made since srand(seed)>
 *     weight <NAME> <value, %.17g>        (one line per -param, in order)
 */
#ifndef STERN_SPSA_CHECKPOINT_H
#define STERN_SPSA_CHECKPOINT_H

#include <stddef.h>

#define CHECKPOINT_PARAMS 16
#define CHECKPOINT_NAME 64

typedef struct {
    int done;    /* iterations done */
    long draws;  /* rand() draws made since srand(seed): the signs' generator replayed */
    int np;      /* weights */
    char name[CHECKPOINT_PARAMS][CHECKPOINT_NAME];
    double value[CHECKPOINT_PARAMS];
} SpsaState;

/* Writes s of the run `run` (one line, no newline) to path, through path.tmp
 * renamed over it. Returns 0, or -1 with the reason in err (errlen bytes). */
int checkpoint_write(const char *path, const char *run, const SpsaState *s, char *err, size_t errlen);

/* Reads path into *s. Returns 1 when read, 0 when there is no such file, -1
 * with the reason in err when it cannot be read, is damaged (the line and
 * why), is of another run than `run`, or its weights are not s->np weights
 * named s->name in order (the caller fills np and name first). */
int checkpoint_read(const char *path, const char *run, SpsaState *s, char *err, size_t errlen);

#endif
