/*
 * args.h - command-line arguments of the tools: a number is taken whole or
 * refused with a message that names the argument; a program beside this one.
 */
#ifndef STERN_ARGS_H
#define STERN_ARGS_H

#include <stdbool.h>
#include <stddef.h>

/* Parses `text` as a decimal integer in [lo, hi] into *out. On failure prints
 * "<tool>: <name> must be an integer from lo to hi, not '<text>'" to stderr and
 * returns false (*out unchanged). */
bool args_int(const char *tool, const char *name, const char *text, long long lo, long long hi, long long *out);

/* Prints "<tool>: <message>" (printf-style) and a newline to stderr and
 * exits with status 2: a command line the tool cannot run. */
void args_die(const char *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Whether argv asks for help: any argument -h or --help. The tools then print
 * their usage on stdout and exit 0, as programs do. */
bool args_help(int argc, char **argv);

/* Whether `arg` is the option `name` (without dashes) spelt with one dash or
 * two: the tools' options are -variant as in stern-arena, and the older
 * --variant of some tools stays valid. */
bool args_is(const char *arg, const char *name);

/* The path of program `name` in the directory of the running program (the
 * build tree's, or an install's bin), into buf (n bytes); `name` alone when
 * that directory cannot be read. Returns buf. */
char *args_sibling(const char *name, char *buf, size_t n);

#endif
