/*
 * errmsg.h - formatting of refusal messages for the parsers (FEN, moves).
 */
#ifndef STERN_ERRMSG_H
#define STERN_ERRMSG_H

#include <stddef.h>

/* Writes the printf-style message into err (errlen bytes) and returns -1, the
 * parsers' failure value. */
int errmsg(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
