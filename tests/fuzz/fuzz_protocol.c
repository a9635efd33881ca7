/*
 * fuzz_protocol.c - libFuzzer harness: a whole protocol session. The input is
 * the session's stdin; the engine's loop (protocol/uci.c) runs to its end of
 * input with its output thrown away. Numbers in go, perft and bench lines and
 * in Hash and Threads options become 1, so that one input cannot ask for hours
 * of search or gigabytes; a bench line becomes `bench 1` (the whole suite runs
 * on the input thread for tens of seconds under the sanitizers).
 */
#define _GNU_SOURCE /* memmem */
#include "uci.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool starts(const uint8_t *s, size_t n, const char *w)
{
    const size_t k = strlen(w);
    return n >= k && !memcmp(s, w, k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    uint8_t *in = malloc(size + 8);
    size_t n = 0;
    bool bounded = false, digits = false;
    for (size_t i = 0; i < size; i++) {
        if (i == 0 || data[i - 1] == '\n') {
            const uint8_t *l = data + i;
            const size_t left = size - i;
            const uint8_t *nl = memchr(l, '\n', left);
            const size_t len = nl ? (size_t)(nl - l) : left;
            bounded = starts(l, left, "go") || starts(l, left, "perft") || starts(l, left, "bench") ||
                      (starts(l, left, "setoption") && (memmem(l, len, "Hash", 4) || memmem(l, len, "Threads", 7) ||
                                                       memmem(l, len, "hash", 4) || memmem(l, len, "threads", 7)));
        }
        if ((i == 0 || data[i - 1] == '\n') && starts(data + i, size - i, "bench")) {
            /* bench runs its whole suite on the input thread: depth 1 only */
            memcpy(in + n, "bench 1", 7);
            n += 7;
            while (i + 1 < size && data[i + 1] != '\n')
                i++;
            continue;
        }
        if (bounded && isdigit(data[i])) {
            if (!digits)
                in[n++] = '1';
            digits = true;
            continue;
        }
        digits = false;
        in[n++] = data[i];
    }
    FILE *tmp = tmpfile();
    FILE *out = fopen("/dev/null", "w");
    if (tmp && out && fwrite(in, 1, n, tmp) == n && !fflush(tmp) && !fseek(tmp, 0, SEEK_SET))
        uci_loop(fileno(tmp), out, false, NULL, 0, stderr);
    if (tmp)
        fclose(tmp);
    if (out)
        fclose(out);
    free(in);
    return 0;
}
