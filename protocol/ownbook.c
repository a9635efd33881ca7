/* ownbook.c - the engine's own opening book; see ownbook.h. */
#include "ownbook.h"

#include "shipped.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

void ownbook_init(OwnBook *b, bool own, int depth, bool variety)
{
    memset(b, 0, sizeof *b);
    b->own = own;
    b->depth = depth;
    b->variety = variety;
    b->rng = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull | 1;
}

void ownbook_free(OwnBook *b)
{
    book_free(&b->book);
    b->loaded = false;
}

int ownbook_prepare(OwnBook *b, const char *variant, char *err, size_t errlen)
{
    if (!strcmp(b->for_variant, variant) && !strcmp(b->for_file, b->file))
        return 0; /* tried already: loaded, or none, or refused once */
    ownbook_free(b);
    snprintf(b->for_variant, sizeof b->for_variant, "%s", variant);
    snprintf(b->for_file, sizeof b->for_file, "%s", b->file);
    char path[OWNBOOK_PATH_MAX];
    if (b->file[0])
        snprintf(path, sizeof path, "%s", b->file);
    else if (!shipped_file("book", variant, ".bin", path, sizeof path))
        return 0;
    if (book_load(&b->book, path, b->file[0] ? NULL : variant, err, errlen))
        return -1;
    if (strcmp(b->book.variant, variant)) { /* BookFile of another variant: kept for it */
        snprintf(err, errlen, "%s is a book of %s, not of %s: no book is used", b->file, b->book.variant, variant);
        book_free(&b->book);
        return 1;
    }
    b->loaded = true;
    return 0;
}

static int effective(const BookMove *m)
{
    const int learn = m->learn < -16 ? -16 : m->learn > 16 ? 16 : m->learn;
    return m->weight * (16 + learn) / 16;
}

/* xorshift64* (Vigna 2016): the variety's random draws. */
static uint64_t next_random(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1Dull;
}

bool ownbook_choose(OwnBook *b, const Position *p, int plies, BookMove *out)
{
    if (!b->own || !b->loaded || plies >= b->depth)
        return false;
    BookMove m[BOOK_MAX_MOVES];
    const int n = book_probe(&b->book, p, m, BOOK_MAX_MOVES);
    long total = 0;
    int best = -1;
    for (int i = 0; i < n; i++) {
        total += effective(&m[i]);
        if (effective(&m[i]) > 0 && (best < 0 || effective(&m[i]) > effective(&m[best])))
            best = i;
    }
    if (best < 0)
        return false;
    if (b->variety) {
        long r = (long)(next_random(&b->rng) % (uint64_t)total);
        for (int i = 0; i < n; i++)
            if ((r -= effective(&m[i])) < 0) {
                best = i;
                break;
            }
    }
    *out = m[best];
    return true;
}
