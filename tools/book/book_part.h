/*
 * book_part.h - the part of an opening book that one task of a sharded build
 * writes (stern-book build -shard K/N; docs/BOOK.md "Sharded builds"), and the
 * merge of the N parts into the book that the same build writes in one process.
 *
 * A part is a text file: which build it belongs to (the options that decide
 * the book, its shard K/N, the ply whose positions the shards share out) and
 * the entries of every position the shard searched. Shards search the same
 * positions where their trees meet (the top of the tree above the split, and
 * transpositions between their subtrees); a position's search depends on the
 * position alone, so every part that has a position has the same entries for
 * it, and the merge takes them once.
 */
#ifndef STERN_BOOK_PART_H
#define STERN_BOOK_PART_H

#include "book.h"

#include <stdbool.h>
#include <stddef.h>

#define BOOK_PART_SETTINGS_MAX 2048

typedef struct {
    /* the options of stern-book build that decide the book, as typed after
     * `build` ("-variant classic-2 -plies 9 -width 3 -margin 40 -nodes 100000");
     * -shard, -o, -concurrency and -engine are not among them */
    char settings[BOOK_PART_SETTINGS_MAX];
    int k, n;   /* shard k of n */
    int split;  /* the ply whose positions the shards share out; -1 when the
                   tree ended above it (every part then holds the whole book) */
    Book book;  /* finished (book_finish): the entries of the searched positions */
} BookPart;

/* Writes p to `path`, first under the name path + ".tmp", renamed at the end:
 * a task stopped while writing leaves no part that a merge could take. The
 * settings must hold no newline. Returns 0, or -1 with the fault in err. */
int book_part_save(const BookPart *p, const char *path, char *err, size_t errlen);

/* Reads the part at `path` into *p. Returns 0, or -1 with the fault in err
 * (cannot open, not a regular file (datafile.h: a FIFO is refused, never
 * waited on), not a part, another format version, a malformed line naming
 * its number, entries cut off or not sorted); *p then holds no entries. */
int book_part_load(BookPart *p, const char *path, char *err, size_t errlen);

/* Whether the file at `path` begins as a part does (false when unreadable or
 * not a regular file: datafile.h). */
bool book_part_is(const char *path);

/* Frees p's entries. */
void book_part_free(BookPart *p);

/* The book of the build whose n parts are parts[0..n) (read from paths[0..n),
 * named in messages) into *out (initialised here, finished): every position's
 * entries once. Returns 0, or -1 with the fault in err, *out then empty:
 *   two parts of different builds (settings, shard count or split ply);
 *   a shard given twice, naming both files;
 *   shards missing, naming them and the command that builds one;
 *   two parts with other entries for the same position (built by different
 *   engines), naming the files and the position's key. */
int book_part_merge(const BookPart *parts, const char *const *paths, int n, Book *out, char *err, size_t errlen);

#endif
