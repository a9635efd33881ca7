/* time_control.c - a clock as text, both ways; see time_control.h. */
#include "time_control.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number of seconds at p: digits with an optional fraction (no sign, no
 * exponent, no "inf": strtod alone takes those). Returns it, *end past it; a
 * negative value when p does not start with one. */
static double seconds_at(const char *p, const char **end)
{
    *end = p;
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        return -1;
    while (isdigit((unsigned char)**end) || **end == '.')
        ++*end;
    char *stop;
    const double x = strtod(p, &stop);
    if (stop != *end) /* two dots */
        return -1;
    return x;
}

int time_control_parse(const char *text, RefereeLimits *lim, char *err, size_t n)
{
    const char *p = text;
    long moves = 0;
    const char *slash = strchr(text, '/');
    if (slash) {
        char *end;
        errno = 0;
        moves = isdigit((unsigned char)*text) ? strtol(text, &end, 10) : -1;
        if (moves < 1 || end != slash || errno || moves > TIME_CONTROL_MOVES_MAX) {
            snprintf(err, n, "%s: MOVES before '/' must be a whole number from 1 to %d", text,
                     TIME_CONTROL_MOVES_MAX);
            return -1;
        }
        p = slash + 1;
    }
    const char *end;
    double time = seconds_at(p, &end);
    if (time >= 0 && *end == ':') { /* MIN:SEC */
        const double sec = seconds_at(end + 1, &end);
        if (time != floor(time) || !(sec >= 0 && sec < 60)) {
            snprintf(err, n, "%s: MIN:SEC needs whole minutes and seconds below 60", text);
            return -1;
        }
        time = time * 60 + sec;
    }
    double inc = 0;
    if (time >= 0 && *end == '+')
        inc = seconds_at(end + 1, &end);
    if (time < 0 || inc < 0 || *end) {
        snprintf(err, n, "%s: expected [MOVES/]SECONDS[+INCREMENT], e.g. 10+0.1 or 40/60+0.5", text);
        return -1;
    }
    if (!(time > 0)) {
        snprintf(err, n, "%s: the time must be above 0 seconds", text);
        return -1;
    }
    if (time > INT_MAX / 1000.0 || inc > INT_MAX / 1000.0) {
        snprintf(err, n, "%s: the time and the increment must be at most %d seconds", text, INT_MAX / 1000);
        return -1;
    }
    lim->movetime_ms = 0;
    lim->time_ms = (int)lround(time * 1000);
    lim->inc_ms = (int)lround(inc * 1000);
    lim->moves = (int)moves;
    if (lim->time_ms < 1)
        lim->time_ms = 1; /* above 0 seconds: at least a millisecond */
    return 0;
}

/* ms as seconds, exactly and without trailing zeros ("2", "0.05", "1234.567"),
 * into buf (n bytes); %g rounded to six digits and wrote 1e+06. */
static char *seconds_text(long long ms, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%lld.%03lld", ms / 1000, ms % 1000);
    while (len > 0 && (size_t)len < n && buf[len - 1] == '0')
        buf[--len] = 0;
    if (len > 0 && (size_t)len < n && buf[len - 1] == '.')
        buf[--len] = 0;
    return buf;
}

char *time_control_text(const RefereeLimits *lim, char *buf, size_t n)
{
    char time[32], inc[32];
    seconds_text(lim->time_ms, time, sizeof time);
    seconds_text(lim->inc_ms, inc, sizeof inc);
    if (lim->moves > 0)
        snprintf(buf, n, "%d/%s+%s", lim->moves, time, inc);
    else
        snprintf(buf, n, "%s+%s", time, inc);
    return buf;
}
