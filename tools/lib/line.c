/* line.c - a line of output written whole; see line.h. */
#include "line.h"

#include <stdio.h>

void line_vprint(const char *fmt, va_list ap)
{
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
}

void line_print(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    line_vprint(fmt, ap);
    va_end(ap);
}
