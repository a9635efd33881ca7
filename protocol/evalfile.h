/*
 * evalfile.h - the EvalFile option (docs/NNUE.md): which learned evaluation
 * (engine/search/nnue.h) the searches use. "auto" (the default) is the net
 * shipped for the game's variant, nets/<variant>.nnue beside the engine (else
 * the classic net of its seat count when that serves it), or none; "none" is
 * the hand-written evaluation; anything else is the path of a net file.
 */
#ifndef STERN_EVALFILE_H
#define STERN_EVALFILE_H

#include "nnue.h"
#include "ownbook.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char file[OWNBOOK_PATH_MAX]; /* EvalFile as set: "auto", "none" or a path */
    Nnue *net;                   /* the net of `file` (a path), loaded when set */
    Nnue *shipped;               /* auto: the shipped net last loaded */
    char shipped_for[24];        /* the variant `shipped` was looked up for ("" none yet) */
    char told_for[24];           /* the variant last told that the net does not serve it */
} EvalFile;

/* EvalFile "auto", nothing loaded. */
void evalfile_init(EvalFile *f);

/* Frees what f holds. */
void evalfile_free(EvalFile *f);

/* Sets EvalFile to `value` for a game of variant v: "auto", "none" (any
 * case) or a path. A path is loaded now and must hold an intact net that
 * serves v. Returns 0, or -1 with the reason in err (f unchanged). */
int evalfile_set(EvalFile *f, const char *value, const Variant *v, char *err, size_t errlen);

/* The net the searches of a game of variant v use (NULL: the hand-written
 * evaluation). When EvalFile is a path whose net does not serve v, NULL and,
 * the first time for v, a note in note (else note is ""). */
const Nnue *evalfile_net(EvalFile *f, const Variant *v, char *note, size_t notelen);

#endif
