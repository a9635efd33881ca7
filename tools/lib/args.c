/* args.c - command-line numbers and paths; see args.h. */
#include "args.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

char *args_sibling(const char *name, char *buf, size_t n)
{
    char exe[PATH_MAX];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        snprintf(buf, n, "%s", name);
        return buf;
    }
    exe[len] = 0;
    snprintf(buf, n, "%s/%s", dirname(exe), name);
    return buf;
}

void args_die(const char *tool, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", tool);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}
