/* clock.c - the clock of a running search; see clock.h. */
#include "clock.h"

#include <time.h>

int64_t clock_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

int64_t clock_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void clock_init(SearchClock *c, TimeBudget budget, bool ponder, bool infinite, const atomic_bool *ponderhit)
{
    c->start_us = clock_now_us();
    c->start_ms = c->start_us / 1000;
    atomic_init(&c->clock_ms, ponder ? -1 : c->start_ms);
    c->budget = budget;
    c->infinite = infinite;
    c->ponderhit = ponderhit;
    c->nodestime = 0;
    c->nodes = NULL;
    c->nodes_ctx = NULL;
}

void clock_count_nodes(SearchClock *c, int64_t nodestime, ClockNodes nodes, const void *ctx)
{
    c->nodestime = nodestime;
    c->nodes = nodes;
    c->nodes_ctx = ctx;
}

int64_t clock_start(SearchClock *c)
{
    int64_t clock = atomic_load(&c->clock_ms);
    if (clock < 0 && atomic_load(c->ponderhit)) {
        const int64_t now = clock_now_ms();
        clock = atomic_compare_exchange_strong(&c->clock_ms, &clock, now) ? now : clock;
    }
    return clock;
}

bool clock_past(SearchClock *c, int64_t limit_ms)
{
    const int64_t clock = clock_start(c);
    if (clock < 0 || c->infinite || limit_ms < 0)
        return false;
    if (c->nodestime > 0)
        return c->nodes(c->nodes_ctx) / (uint64_t)c->nodestime >= (uint64_t)limit_ms;
    return clock_now_ms() - clock >= limit_ms;
}
