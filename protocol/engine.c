/* engine.c - the state of one protocol session; see engine.h. */
#include "engine.h"

#include "ccpcells.h"
#include "options.h"

#include <stdarg.h>
#include <stdlib.h>

Engine *engine_new(int in_fd, FILE *out, bool ccp)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (job_init(&e->job)) {
        free(e);
        return NULL;
    }
    e->out = out;
    input_init(&e->in, in_fd);
    pthread_mutex_init(&e->out_lock, NULL);
    e->ccp = ccp;
    options_init(e);
    const Option *t = option_table;
    e->game = malloc(sizeof *e->game);
    /* the table is allocated when first needed, after the GUI's options */
    e->session = session_new((size_t)t[OPT_HASH].def, (int)t[OPT_THREADS].def);
    if (!e->game || game_new(e->game, ccp ? CCP_VARIANT : t[OPT_VARIANT].text) || !e->session) {
        engine_delete(e);
        return NULL;
    }
    return e;
}

void engine_delete(Engine *e)
{
    if (!e)
        return;
    job_free(&e->job);
    input_free(&e->in);
    session_delete(e->session);
    ownbook_free(&e->book);
    evalfile_free(&e->evalfile);
    free(e->game);
    pthread_mutex_destroy(&e->out_lock);
    free(e);
}

void say(Engine *e, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&e->out_lock);
    va_start(ap, fmt);
    vfprintf(e->out, fmt, ap);
    va_end(ap);
    fputc('\n', e->out);
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
}

void table_ready(Engine *e)
{
    const bool had = session_hash_allocated(e->session);
    const size_t got = session_ready(e->session), asked = session_hash(e->session);
    if (!had && got < asked)
        say(e, "info string error out of memory: Hash is %zu MiB, not %zu", got, asked);
}
