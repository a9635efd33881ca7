/* args.c - command-line numbers and paths; see args.h. */
#include "args.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool args_int(const char *tool, const char *name, const char *text, long long lo, long long hi, long long *out)
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

bool args_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return true;
    return false;
}

bool args_is(const char *arg, const char *name)
{
    if (arg[0] != '-')
        return false;
    arg += arg[1] == '-' ? 2 : 1;
    return !strcmp(arg, name);
}
