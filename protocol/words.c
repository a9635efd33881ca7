/* words.c - the words of a command line; see words.h. */
#include "words.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool words_tokenize(char *line, Tokens *tk)
{
    tk->n = 0;
    char *save;
    for (char *s = strtok_r(line, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
        if (tk->n == MAX_TOKENS)
            return false;
        tk->t[tk->n++] = s;
    }
    return true;
}

bool words_join(const Tokens *tk, int from, int to, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = from; i < to; i++) {
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i > from ? " " : "", tk->t[i]);
        if (n >= len)
            return false;
    }
    return true;
}

bool words_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    const long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool words_ms(const char *s, long long lo, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end)
        return false;
    if (errno == ERANGE) /* beyond 64 bits is beyond MAX_CLOCK_MS (or below 0) too */
        v = v > 0 ? MAX_CLOCK_MS : lo < 0 ? 0 : lo - 1;
    if (v < lo)
        return false;
    *out = v < 0 ? 0 : v > MAX_CLOCK_MS ? MAX_CLOCK_MS : v;
    return true;
}

bool words_is_integer(const char *s)
{
    s += strspn(s, "-+");
    return *s && !s[strspn(s, "0123456789")];
}

const char *words_quote(const char *w, char buf[QUOTE_BUF])
{
    const size_t n = strlen(w);
    if (n <= QUOTE_MAX)
        return w;
    snprintf(buf, QUOTE_BUF, "%.*s... (%zu bytes)", QUOTE_MAX, w, n);
    return buf;
}
