/* output.c - the protocol's output lines; see output.h. */
#include "output.h"

#include <stdarg.h>

void output_init(Output *o, FILE *f)
{
    o->f = f;
    pthread_mutex_init(&o->lock, NULL);
}

void output_free(Output *o) { pthread_mutex_destroy(&o->lock); }

void output_say(Output *o, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&o->lock);
    va_start(ap, fmt);
    vfprintf(o->f, fmt, ap);
    va_end(ap);
    fputc('\n', o->f);
    fflush(o->f);
    pthread_mutex_unlock(&o->lock);
}

FILE *output_begin(Output *o)
{
    pthread_mutex_lock(&o->lock);
    return o->f;
}

void output_end(Output *o)
{
    fflush(o->f);
    pthread_mutex_unlock(&o->lock);
}
