/* input.c - the engine's input lines; see input.h. */
#include "input.h"

#include "web.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void input_init(Input *in, int fd)
{
    *in = (Input){.fd = fd};
}

void input_free(Input *in)
{
    for (Line *l; (l = in->head);) {
        in->head = l->next;
        free(l);
    }
    in->tail = NULL;
    free(in->buf);
    in->buf = NULL;
}

/* A line that stands for one dropped: too long, or out of memory. */
static Line *dropped_line(void)
{
    Line *l = calloc(1, sizeof *l + 1);
    if (l)
        l->huge = true;
    return l;
}

Line *input_line_new(const char *text, size_t n)
{
    Line *l = malloc(sizeof *l + n + 1);
    if (!l)
        return NULL;
    l->huge = false;
    memcpy(l->text, text, n);
    l->text[n] = 0;
    l->nul = memchr(text, 0, n) != NULL;
    l->bad = 0;
    for (size_t i = 0; i < n && !l->nul && !l->bad; i++) {
        const unsigned char b = (unsigned char)text[i];
        if ((b < 0x20 && b != '\t' && b != '\r') || b >= 0x7f)
            l->bad = (int)i + 1;
    }
    l->next = NULL;
    return l;
}

/* Cuts the first whole line out of in->buf (at end of input, the rest); NULL
 * when none is there yet. A line over INPUT_LINE_MAX, or one memory cannot
 * hold, comes out as a `huge` line without its text. */
static Line *input_cut(Input *in)
{
    if (in->start == in->len)
        return NULL;
    char *const from = in->buf + in->start;
    char *nl = memchr(in->buf + in->scanned, '\n', in->len - in->scanned);
    if (in->skipping) {
        in->start = nl ? (size_t)(nl - in->buf) + 1 : in->len;
        in->scanned = in->start;
        if (!nl && !in->eof)
            return NULL;
        in->skipping = false;
        return dropped_line();
    }
    if (!nl && !in->eof) {
        in->scanned = in->len;
        if (in->len - in->start > INPUT_LINE_MAX) {
            in->skipping = true;
            in->start = in->scanned = in->len;
        }
        return NULL;
    }
    const size_t n = nl ? (size_t)(nl - from) : in->len - in->start;
    /* a long line can arrive whole in one read, its newline with it */
    Line *l = n > INPUT_LINE_MAX ? NULL : input_line_new(from, n);
    in->start += nl ? n + 1 : n;
    in->scanned = in->start;
    return l ? l : dropped_line();
}

/* Each byte is copied once to the buffer's front and scanned once for '\n'. */
int input_read(Input *in, int wake_fd, Line **out)
{
    for (;;) {
        if ((*out = input_cut(in)))
            return 1;
        if (in->eof)
            return -1;
        struct pollfd fds[2] = {{.fd = in->fd, .events = POLLIN}, {.fd = wake_fd, .events = POLLIN}};
#ifdef __EMSCRIPTEN__
        const int r = web_poll(fds, wake_fd >= 0 ? 2 : 1); /* a page cannot block in poll */
#else
        const int r = poll(fds, wake_fd >= 0 ? 2 : 1, -1);
#endif
        if (r < 0 && errno == EINTR)
            continue;
        if (r > 0 && !fds[0].revents)
            return 0;
        if (in->start) { /* only a part line is left: move it to the front */
            memmove(in->buf, in->buf + in->start, in->len - in->start);
            in->len -= in->start;
            in->scanned -= in->start;
            in->start = 0;
        }
        if (in->cap - in->len < 65536) {
            char *buf = realloc(in->buf, in->cap * 2 + 65536);
            if (buf) {
                in->buf = buf;
                in->cap = in->cap * 2 + 65536;
            } else if (in->cap - in->len == 0) { /* no memory for the line: drop it */
                in->skipping = true;
                in->start = in->scanned = in->len = 0;
                continue;
            }
        }
#ifdef __EMSCRIPTEN__
        const ssize_t n = r < 0 ? -1 : web_read(in->fd, in->buf + in->len, in->cap - in->len);
#else
        const ssize_t n = r < 0 ? -1 : read(in->fd, in->buf + in->len, in->cap - in->len);
#endif
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue; /* a descriptor its owner made non-blocking: poll again */
        if (n <= 0)
            in->eof = true;
        else
            in->len += (size_t)n;
    }
}

Line *input_next(Input *in)
{
    Line *l = in->head;
    if (l) {
        in->head = l->next;
        if (!in->head)
            in->tail = NULL;
        return l;
    }
    return input_read(in, -1, &l) > 0 ? l : NULL;
}

void input_defer(Input *in, Line *l)
{
    l->next = NULL;
    if (in->tail)
        in->tail->next = l;
    else
        in->head = l;
    in->tail = l;
}
