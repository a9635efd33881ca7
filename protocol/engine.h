/*
 * engine.h - the engine core of one protocol session, without I/O: the game,
 * the search session (table and threads), the options' values, the book and
 * the learned evaluation in use. The front end (front.h) owns one, reads
 * commands into it and writes its answers; what the core has to tell the user
 * (a table smaller than asked, a net that does not serve the variant) it hands
 * to the front's note function as a whole protocol line. Called from the input
 * thread only; a job thread reads the game, session and a copy of the config
 * while no command changes them.
 */
#ifndef STERN_ENGINE_H
#define STERN_ENGINE_H

#include "evalfile.h"
#include "game.h"
#include "ownbook.h"
#include "session.h"

#include <stdbool.h>
#include <stddef.h>

/* Receives one line the core has to tell the user (no '\n'), ctx as given to
 * engine_new. */
typedef void (*EngineNote)(void *ctx, const char *line);

typedef struct Engine {
    Game *game;             /* the current game */
    SearchSession *session; /* the table and threads (Hash, Threads) and what searches keep */
    SearchConfig config;    /* MultiPV, Search, Move Overhead, nodestime, OpponentModel, and in
                             * config.net EvalFile's net for the game's variant */
    OwnBook book;           /* OwnBook, BookFile, BookDepth, BookVariety */
    EvalFile evalfile;      /* EvalFile as set */
    bool ponder_option;     /* Ponder */
    bool net_stale;         /* EvalFile or the variant changed since config.net was chosen */
    EngineNote note;
    void *note_ctx;
} Engine;

/* An engine with a new game of `variant` and a session of hash_mib MiB (its
 * table made when first readied) and `threads` threads, EvalFile "auto"; the
 * other options' values are the caller's to set (options_init). Notes go to
 * note(ctx, line). NULL when the variant is unknown or memory runs short. */
Engine *engine_new(const char *variant, size_t hash_mib, int threads, EngineNote note, void *ctx);

/* Frees e (NULL is ignored). */
void engine_delete(Engine *e);

/* Tells the user `fmt` and its arguments (one line, at most 8 KiB) through
 * the note function. */
void engine_note(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Readies what a search needs, the one place that does: the table (when not
 * made yet: the first isready, ucinewgame or go, after the GUI's options;
 * short of memory a smaller one, said once) and the net (engine_net). */
void engine_ready(Engine *e);

/* The net the searches of the current game use (NULL: the hand-written
 * evaluation), chosen again only when EvalFile or the variant changed since;
 * a net that does not serve the variant, or a shipped net refused, is said. */
const Nnue *engine_net(Engine *e);

/* The current game becomes g (malloc'd; e frees it), the old one freed. */
void engine_set_game(Engine *e, Game *g);

/* EvalFile becomes `value` (evalfile_set): 0, or -1 with the reason in err
 * (errlen bytes) and the evaluation as it was. */
int engine_set_evalfile(Engine *e, const char *value, char *err, size_t errlen);

#endif
