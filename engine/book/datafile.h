/*
 * datafile.h - opening the engine's data files (opening books, nets) without
 * ever blocking. The engine reads them on its only input thread, at a
 * `setoption` or a `go`: a path that names a FIFO with no writer, a terminal or
 * another device would hold that thread in open() or read(), and the engine
 * would answer nothing, not even `stop` or `isready`. So only a regular file is
 * read, and what the path names is learnt from the descriptor the open gave
 * (not from a stat before it, which another file could replace in between).
 * Here in the book's layer so that the protocol (the net of EvalFile) and the
 * tools, which sit above it, share it.
 */
#ifndef STERN_DATAFILE_H
#define STERN_DATAFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Opens `path` for reading. The open cannot wait (O_NONBLOCK: a FIFO opens at
 * once without a writer), then fstat on its descriptor must find a regular
 * file, which is then read as usual (O_NONBLOCK cleared). Returns the stream
 * (fclose it), or NULL with the reason in why (whylen bytes; the path is not
 * in it, callers name it): "cannot open: <strerror>", or "a FIFO, not a
 * regular file" (likewise "a directory", "a character device", "a block
 * device", "a socket"; "not a regular file" for any other kind). */
FILE *datafile_open(const char *path, char *why, size_t whylen);

/* The whole of the file at `path`, opened by datafile_open, when it holds at
 * most `max` bytes: malloc'ed (free it), its length in *n. NULL with the
 * reason in why (without the path): those of datafile_open, "larger than
 * <max> bytes", "cannot read: <strerror>", "out of memory". */
uint8_t *datafile_read(const char *path, size_t max, size_t *n, char *why, size_t whylen);

#endif
