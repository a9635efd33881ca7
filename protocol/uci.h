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

/* Reads commands from the file descriptor in_fd (read directly, with poll, so
 * that input is read on while a command waits for a search) until `quit` or end
 * of input, answering on `out` (flushed after every line). With `ccp`, it starts
 * in the CCP protocol and the ccerl-2 rules (docs/CCERL.md), as after a `ccp`
 * command. Before the first line it sets the `noptions` options of `options`,
 * each "NAME=VALUE" (the command line's --option: a referee that sends no
 * setoption, such as the rating list's, still gets them); one refused is told
 * on `err` ("stern: --option NAME=VALUE refused: <why>") and nothing is read.
 * Returns the process exit status: 0; 1 when the start-up (wake pipe, game,
 * hash table) fails; 2 when an option is refused. */
int uci_loop(int in_fd, FILE *out, bool ccp, const char *const *options, int noptions, FILE *err);

#endif
