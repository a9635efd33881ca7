/* args.c - command-line numbers; see args.h. */
#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

bool arg_int(const char *tool, const char *name, const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    const long long v = text && *text ? strtoll(text, &end, 10) : 0;
    if (!text || !*text || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "%s: %s must be an integer from %lld to %lld, not '%s'\n", tool, name, lo, hi, text ? text : "");
        return false;
    }
    *out = v;
    return true;
}
