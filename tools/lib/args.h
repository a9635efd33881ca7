/*
 * args.h - command-line numbers for the tools: a number is taken whole or
 * refused with a message that names the argument.
 */
#ifndef STERN_ARGS_H
#define STERN_ARGS_H

#include <stdbool.h>

/* Parses `text` as a decimal integer in [lo, hi] into *out. On failure prints
 * "<tool>: <name> must be an integer from lo to hi, not '<text>'" to stderr and
 * returns false (*out unchanged). */
bool arg_int(const char *tool, const char *name, const char *text, long long lo, long long hi, long long *out);

#endif
