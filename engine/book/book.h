/*
 * book.h - the opening book (docs/BOOK.md): a file of fixed-size entries sorted
 * by position key, each a move with its weight and learn value, as Polyglot
 * books are, under a header that names the variant and the format version.
 * Keys see the position in the frame of its side to move (frame.h): the star
 * turned so that the mover's home is at the bottom, seats named by their turn
 * after the mover, and with two seats the mirror folded too; moves are stored
 * in that frame and turned back on probing. So one entry serves every seat.
 */
#ifndef STERN_BOOK_H
#define STERN_BOOK_H

#include "position.h"

#include <stddef.h>
#include <stdint.h>

#define BOOK_MAGIC "STERNBK1"
#define BOOK_VERSION 1
#define BOOK_HEADER_BYTES 64
#define BOOK_ENTRY_BYTES 16
#define BOOK_MAX_MOVES 64 /* moves book_probe returns at most */

typedef struct {
    uint64_t key;    /* book_key of the position */
    uint32_t move;   /* from | to << 7 | swap << 14, in the key's frame (swap 127: none) */
    uint16_t weight; /* how good: the builder's share, 0-65535 */
    int16_t learn;   /* results of games that played it, in game points (+ better) */
} BookEntry;

typedef struct {
    char variant[24];
    BookEntry *e;    /* sorted by key, then move; no (key, move) twice */
    size_t n, cap;
} Book;

typedef struct {
    Move move;       /* legal in the probed position */
    uint16_t weight;
    int16_t learn;
} BookMove;

/* The key of p (not over, race rules: capture mode has no book) and the frame
 * it was seen in (*frame, for book_move_code). Two seats: of the plain and the
 * mirrored frame, the one whose view is smaller; positions that differ only by
 * the mover's seat, or by the mirror with two seats, have the same key. */
uint64_t book_key(const Position *p, int *frame);

/* The one position of p's key that stands for all of them: p itself, or with
 * two seats its mirror image when p's key was seen in the mirrored frame (the
 * same seat to move, counts and round). A position and its mirror image give
 * the same position; so a book builder that searches this one finds the same
 * moves for a key whichever line reached it first (docs/BOOK.md). Race rules
 * only, as book_key: capture mode's neutral marbles are not mirrored. */
Position book_canonical(const Position *p);

/* The code of move m of p in frame f (from book_key), and the move of p that a
 * code stands for (false when it names no legal move of p). */
uint32_t book_move_code(int f, const Move *m);
bool book_code_move(const Position *p, int f, uint32_t code, Move *out);

/* An empty book of `variant`. */
void book_init(Book *b, const char *variant);

/* Frees b's entries (it stays usable, empty). */
void book_free(Book *b);

/* Adds move m of p with `weight` and `learn` (added to those of an entry with
 * the same key and move, saturating); book_finish must follow before probing
 * or saving. False when memory runs out. */
bool book_add(Book *b, const Position *p, const Move *m, int weight, int learn);

/* Sorts b's entries and merges those of the same key and move. */
void book_finish(Book *b);

/* The check every reader of a book (the engine, stern-book) makes of the
 * variant its header names: one this engine knows, so that a book is never
 * taken for a variant it cannot serve. True, or false with the reason in why
 * (whylen bytes): "unknown variant 'NAME'", or "unknown variant '' (its header
 * names none)". */
bool book_variant_known(const char *variant, char *why, size_t whylen);

/* Reads the book at `path` for variant `variant` (NULL: any) into *b. The file
 * is opened by datafile_open: a FIFO, a directory or a device is refused at
 * once, never waited on. Returns 0, or -1 with the fault in err, after the
 * path (cannot open, not a regular file, too short, not a book, another
 * version, an unknown variant (book_variant_known) or another one, truncated,
 * checksum, not sorted); *b is then empty. */
int book_load(Book *b, const char *path, const char *variant, char *err, size_t errlen);

/* Writes b (finished) to `path`. Returns 0, or -1 with the fault in err. */
int book_save(const Book *b, const char *path, char *err, size_t errlen);

/* The moves the book has for p that are legal in p, best weight first (equal
 * weights in code order): the `max` best into out. Returns how many. */
int book_probe(const Book *b, const Position *p, BookMove *out, int max);

/* The entries of b with key `key`: their index range [*first, return value). */
size_t book_find(const Book *b, uint64_t key, size_t *first);

#endif
