/*
 * uci.h - the engine's text protocol (docs/PROTOCOL.md): a UCI-style command
 * loop over a pair of streams, with the search on its own thread so that
 * `isready`, `stop`, `ponderhit` and `quit` are answered while it runs.
 */
#ifndef STERN_UCI_H
#define STERN_UCI_H

#include <stdbool.h>
#include <stdio.h>

#define STERN_NAME "Stern"
#define STERN_VERSION "0.1"
#define STERN_AUTHORS "the Stern developers"

#define DEFAULT_HASH_MIB 64  /* the Hash option's default and bounds, MiB */
#define MAX_HASH_MIB 65536

/* Reads commands from the file descriptor in_fd (read directly, with poll, so
 * that input is read on while a command waits for a search) until `quit` or end
 * of input, answering on `out` (flushed after every line). With `ccp`, it starts
 * in the CCP protocol and the ccerl-2 rules (docs/CCERL.md), as after a `ccp`
 * command. Returns the process exit status: 0, or 1 when the start-up (wake
 * pipe, game, hash table) fails. */
int uci_loop(int in_fd, FILE *out, bool ccp);

#endif
