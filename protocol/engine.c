/* engine.c - the engine core of one protocol session; see engine.h. */
#include "engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Engine *engine_new(const char *variant, size_t hash_mib, int threads, EngineNote note, void *ctx)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->note = note;
    e->note_ctx = ctx;
    e->net_stale = true;
    evalfile_init(&e->evalfile);
    e->game = malloc(sizeof *e->game);
    /* the table is allocated when first needed, after the GUI's options */
    e->session = session_new(hash_mib, threads);
    if (!e->game || game_new(e->game, variant) || !e->session) {
        engine_delete(e);
        return NULL;
    }
    return e;
}

void engine_delete(Engine *e)
{
    if (!e)
        return;
    session_delete(e->session);
    ownbook_free(&e->book);
    evalfile_free(&e->evalfile);
    free(e->game);
    free(e);
}

void engine_note(Engine *e, const char *fmt, ...)
{
    char line[8192]; /* a note may name two paths */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    e->note(e->note_ctx, line);
}

void engine_ready(Engine *e)
{
    const bool had = session_hash_allocated(e->session);
    const size_t got = session_ready(e->session), asked = session_hash(e->session);
    if (!had && got < asked)
        engine_note(e, "info string error out of memory: Hash is %zu MiB, not %zu", got, asked);
    engine_net(e);
}

const Nnue *engine_net(Engine *e)
{
    if (!e->net_stale)
        return e->config.net;
    char note[EVALFILE_NOTE_MAX];
    e->config.net = evalfile_net(&e->evalfile, e->game->v, note, sizeof note);
    e->net_stale = false;
    if (note[0])
        engine_note(e, "info string %s", note);
    return e->config.net;
}

void engine_set_game(Engine *e, Game *g)
{
    if (g->v != e->game->v)
        e->net_stale = true;
    free(e->game);
    e->game = g;
}

int engine_set_evalfile(Engine *e, const char *value, char *err, size_t errlen)
{
    char note[EVALFILE_NOTE_MAX];
    if (evalfile_set(&e->evalfile, value, e->game->v, err, errlen, note, sizeof note))
        return -1;
    e->net_stale = true;
    if (note[0])
        engine_note(e, "info string %s", note);
    return 0;
}
