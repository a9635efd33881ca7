/*
 * ownbook.h - the engine's own opening book (options OwnBook, BookFile,
 * BookDepth, BookVariety; docs/BOOK.md): which file serves a variant, loading it
 * once, and the choice of a move.
 */
#ifndef STERN_OWNBOOK_H
#define STERN_OWNBOOK_H

#include "book.h"

#define OWNBOOK_PATH_MAX 4096

typedef struct {
    bool own;                      /* OwnBook */
    char file[OWNBOOK_PATH_MAX];   /* BookFile; empty: the shipped book of the variant */
    int depth;                     /* BookDepth: plies from the start within which it is used */
    bool variety;                  /* BookVariety: weighted random instead of the best weight */
    Book book;                     /* the book loaded, for `for_variant` from `for_file` */
    bool loaded;
    char for_variant[24], for_file[OWNBOOK_PATH_MAX];
    uint64_t rng;
} OwnBook;

/* A book with options OwnBook `own`, BookDepth `depth` and BookVariety
 * `variety` (their defaults: options.h), no BookFile, nothing loaded. */
void ownbook_init(OwnBook *b, bool own, int depth, bool variety);

/* Frees what b holds. */
void ownbook_free(OwnBook *b);

/* Makes b's book the one for `variant`: BookFile when set (none when it is a
 * book of another variant: it waits for that one), else the shipped book
 * (book/<variant>.bin beside the engine's build or install directory; none for
 * a variant without one). Loads only when the variant or file changed. Returns
 * 0 (a book, or none to be had), 1 with a note in err when BookFile is a book
 * of another variant (said once a variant: none is used), or -1 with the
 * fault in err (the engine plays on without a book). */
int ownbook_prepare(OwnBook *b, const char *variant, char *err, size_t errlen);

/* The book's move for p when there is one and p is within BookDepth plies of the
 * game's start (`plies`): the best effective weight, or with BookVariety a
 * weighted random choice. Effective weight: weight x (16 + learn) / 16, learn
 * clamped to -16..16 (a move that lost 16 more games than it won is never
 * chosen). */
bool ownbook_choose(OwnBook *b, const Position *p, int plies, BookMove *out);

#endif
