/*
 * input.h - the engine's input: lines read from a file descriptor (with poll,
 * so that a reader can also wait for a wake-up from the search thread), and
 * lines put off to be carried out later, in order. Memory stays bounded: a
 * line longer than INPUT_LINE_MAX is dropped unread. Not thread-safe: one
 * thread reads.
 */
#ifndef STERN_INPUT_H
#define STERN_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#define INPUT_LINE_MAX (16u << 20) /* bytes: a longer line is dropped */

/* One line of input, malloc'd with its text. */
typedef struct Line {
    struct Line *next;
    bool nul;    /* the line held a NUL byte */
    bool huge;   /* the line was longer than INPUT_LINE_MAX, or memory ran out: dropped, text "" */
    int bad;     /* else the column (from 1) of its first byte outside printable
                    ASCII, tabs and CRs aside; 0 when there is none */
    char text[]; /* without its '\n' (a CR before it is kept) */
} Line;

/* The input: bytes read from the descriptor and not yet cut into lines, and the
 * lines put off. */
typedef struct {
    int fd;
    char *buf;
    size_t start, len, cap; /* unread bytes: buf[start, len) */
    size_t scanned;         /* buf[start, scanned) holds no '\n' */
    bool eof;
    bool skipping;          /* dropping the rest of an over-long line */
    Line *head, *tail;      /* the lines put off */
} Input;

/* Input from descriptor fd (not read yet; left open by input_free). */
void input_init(Input *in, int fd);

/* Frees the lines put off and the buffer. */
void input_free(Input *in);

/* A line of the n bytes at `text` (without their '\n'), its NUL and bad bytes
 * found. NULL when memory runs out. */
Line *input_line_new(const char *text, size_t n);

/* Reads the next line from the descriptor, waiting for it, or when wake_fd >= 0
 * no longer than until wake_fd is readable. Returns 1 with *out (free it), 0
 * when woken first, -1 at end of input or on a read error; *out is NULL but
 * for 1. The last line may lack its '\n'. A line over INPUT_LINE_MAX, or one
 * memory cannot hold, comes out as a `huge` line. */
int input_read(Input *in, int wake_fd, Line **out);

/* The next line to carry out: the first put off, else the next one read
 * (waiting for it). NULL at end of input. Free it. */
Line *input_next(Input *in);

/* Puts line l off: input_next gives it after the lines put off before it.
 * The input owns it until then. */
void input_defer(Input *in, Line *l);

#endif
