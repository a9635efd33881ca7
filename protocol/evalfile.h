/*
 * evalfile.h - the EvalFile option (docs/NNUE.md): which learned evaluation
 * (engine/eval/nnue/nnue.h) the searches use. "auto" (the default) is the net
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

#define EVALFILE_NOTE_MAX (2 * OWNBOOK_PATH_MAX + 512) /* bytes of a note: it names paths */

typedef struct {
    char file[OWNBOOK_PATH_MAX]; /* EvalFile as set: "auto", "none" or a path */
    Nnue *net;                   /* the net of `file` (a path), loaded when set */
    Nnue *shipped;               /* auto: the shipped net last loaded */
    char shipped_for[24];        /* the variant `shipped` was looked up for ("" none yet) */
    char shipped_fault[EVALFILE_NOTE_MAX]; /* why a shipped net was refused, until said */
    char told_for[24];           /* the variant last told that the net does not serve it */
} EvalFile;

/* EvalFile "auto", nothing loaded. */
void evalfile_init(EvalFile *f);

/* Frees what f holds. */
void evalfile_free(EvalFile *f);

/* Sets EvalFile to `value` during a game of variant v: "auto", "none" (any
 * case; "" is "auto") or a path. A path is loaded now and must be a regular
 * file (datafile.h: a FIFO or a device is refused, never waited on) holding an
 * intact net. Returns 0, or -1 with the reason in err (errlen bytes; f
 * unchanged). A net that does not serve v is kept for the variants it serves
 * (a GUI may set it before the variant), with a note in note (notelen
 * bytes; else note is ""). */
int evalfile_set(EvalFile *f, const char *value, const Variant *v, char *err, size_t errlen, char *note,
                 size_t notelen);

/* The net the searches of a game of variant v use (NULL: the hand-written
 * evaluation). With a note (non-NULL, notelen bytes), it is filled with what
 * the user has not been told yet, else "": that EvalFile's net does not serve
 * v (once per variant), or why the shipped net was refused (once). */
const Nnue *evalfile_net(EvalFile *f, const Variant *v, char *note, size_t notelen);

#endif
