/*
 * duration.h - a time span as the tools write it in their progress lines:
 * "4m05s", or "2h13m" from an hour on.
 */
#ifndef STERN_DURATION_H
#define STERN_DURATION_H

#include <stddef.h>

/* `seconds` (>= 0), rounded to the second, as "<m>m<ss>s" below an hour and
 * "<h>h<mm>m" from one on, into buf (n bytes). Returns buf. */
char *duration_text(double seconds, char *buf, size_t n);

#endif
