/*
 * bench.h - the `bench` command: a fixed set of positions searched to a fixed
 * depth. Its node count is the regression signature of the search (the same on
 * every run with Threads 1); its nodes/second (nodes over the time spent
 * searching, without the setup between positions) is the speed benchmark.
 */
#ifndef STERN_BENCH_H
#define STERN_BENCH_H

#include "session.h"

#define BENCH_DEFAULT_DEPTH 7

/* Receives each line of bench output, without newline. */
typedef void (*BenchOutput)(const char *line, void *ctx);

/* Searches every bench position to `depth` plies with `config` in session s
 * (a new game, so a clean table and history, per position), writing an info line per position and then
 * "Nodes searched: <n>" and "Nodes/second: <n>" through out. The searches run
 * under `sig` (NULL: signals of its own, never raised): its stop ends the
 * bench early, the position being searched answering at once and the rest
 * skipped; the node line then says "(stopped)". Returns the node total. */
uint64_t bench_run(SearchSession *s, int depth, const SearchConfig *config, SearchSignals *sig, BenchOutput out,
                   void *ctx);

#endif
