/*
 * line.h - a line of a tool's output on standard output, written whole: its
 * text (printf-style), its newline, then flushed, so that a reader at the
 * other end of a pipe (a GUI reading stern-greedy, a log reading stern-arena)
 * gets each line as it is made.
 */
#ifndef STERN_LINE_H
#define STERN_LINE_H

#include <stdarg.h>

/* Prints the line fmt, ... and its newline to stdout and flushes it. */
void line_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* line_print with the arguments in ap. */
void line_vprint(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
