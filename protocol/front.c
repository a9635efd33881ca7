/* front.c - the front end of one protocol session; see front.h. */
#include "front.h"

#include "ccpcells.h"
#include "options.h"

#include <stdlib.h>

/* The core's notes, said as they come. */
static void say_note(void *ctx, const char *line)
{
    Front *fe = ctx;
    say(fe, "%s", line);
}

Front *front_new(int in_fd, FILE *out, bool ccp)
{
    Front *fe = calloc(1, sizeof *fe);
    if (!fe)
        return NULL;
    if (job_init(&fe->job)) {
        free(fe);
        return NULL;
    }
    output_init(&fe->out, out);
    input_init(&fe->in, in_fd);
    fe->ccp = ccp;
    fe->engine = options_engine_new(ccp ? CCP_VARIANT : NULL, say_note, fe);
    if (!fe->engine) {
        front_delete(fe);
        return NULL;
    }
    return fe;
}

void front_delete(Front *fe)
{
    if (!fe)
        return;
    job_free(&fe->job);
    input_free(&fe->in);
    engine_delete(fe->engine);
    output_free(&fe->out);
    free(fe);
}
