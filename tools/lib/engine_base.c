/* engine_base.c - what the transports of engine_proc.h (a child process,
 * engine_proc.c; a Web Worker, engine_worker.c) and the protocol on top of
 * them (engine_talk.c) share: the clock, deadlines and the error text. */
#include "engine_proc.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

int64_t ep_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int ep_remaining_ms(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    const int64_t left = deadline - ep_now_ms();
    return left > 0 ? (int)left : 0;
}

int64_t ep_deadline_after(int timeout_ms)
{
    return timeout_ms < 0 ? -1 : ep_now_ms() + timeout_ms;
}

void ep_set_error(EngineProc *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->error, sizeof e->error, fmt, ap);
    va_end(ap);
}
