/* book.c - the opening book file, its keys and probing; see book.h. */
#include "book.h"

#include "board.h"
#include "datafile.h"
#include "frame.h"
#include "movegen.h"
#include "variant.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define NO_SWAP_CODE 127

/* What the key hashes: each hole in the frame (0 empty, 1 + the seat's turn after
 * the mover, 7 a capture-mode piece), then per seat in turn from the mover its
 * home point in the frame, own moves, status and place, then the round. */
enum { VIEW_SEAT_BYTES = 5, VIEW_BYTES = NUM_HOLES + MAX_SEATS * VIEW_SEAT_BYTES + 2 };

static void view(const Position *p, int f, uint8_t out[VIEW_BYTES])
{
    const Variant *v = p->v;
    const int n = v->nseats, first = v->slot[p->stm];
    memset(out, 0, VIEW_BYTES);
    for (int h = 0; h < NUM_HOLES; h++) {
        const int piece = p->board[frame_hole_back(f, h)];
        out[h] = piece == 0 ? 0 : piece == PIECE_NEUTRAL ? 7 : (uint8_t)(1 + (v->slot[piece - 1] - first + n) % n);
    }
    uint8_t *o = out + NUM_HOLES;
    for (int k = 0; k < n; k++, o += VIEW_SEAT_BYTES) {
        const int s = v->seats[(first + k) % n];
        /* where its home point (numbered like the seat) lies in the frame */
        int point = 0;
        for (int q = 0; q < NUM_POINTS; q++)
            if (frame_hole(f, geo.tip[s]) == geo.tip[q])
                point = q;
        o[0] = (uint8_t)point;
        o[1] = (uint8_t)(p->moves[s] & 0xff);
        o[2] = (uint8_t)(p->moves[s] >> 8);
        o[3] = p->status[s];
        o[4] = p->place[s];
    }
    o = out + NUM_HOLES + MAX_SEATS * VIEW_SEAT_BYTES;
    o[0] = (uint8_t)(p->round & 0xff);
    o[1] = (uint8_t)(p->round >> 8);
}

uint64_t book_key(const Position *p, int *frame)
{
    uint8_t a[VIEW_BYTES], b[VIEW_BYTES];
    int f = frame_of_seat(p->stm, false);
    view(p, f, a);
    /* With two seats the mirror keeps both points and the turn order: a mirror
     * image is the same game. With more it sends the next seat's point to the
     * last seat's, and play would run the other way round: not folded. */
    if (p->v->nseats == 2) {
        const int g = frame_of_seat(p->stm, true);
        view(p, g, b);
        if (memcmp(b, a, VIEW_BYTES) < 0) {
            memcpy(a, b, VIEW_BYTES);
            f = g;
        }
    }
    *frame = f;
    return XXH3_64bits(a, VIEW_BYTES);
}

Position book_canonical(const Position *p)
{
    int f;
    book_key(p, &f);
    const int plain = frame_of_seat(p->stm, false);
    if (f == plain)
        return *p;
    /* each marble where the mirrored frame shows it, seen back through the
     * plain one: the plain view of the image is the mirrored view of p */
    Position c = *p;
    for (int s = 0; s < MAX_SEATS; s++) {
        c.seat_bb[s] = 0;
        for (Bitboard b = p->seat_bb[s]; b;)
            c.seat_bb[s] |= bb_bit(frame_hole_back(plain, frame_hole(f, bb_pop(&b))));
    }
    pos_refresh(&c);
    return c;
}

uint32_t book_move_code(int f, const Move *m)
{
    const Move t = frame_move(f, m);
    return (uint32_t)t.from | (uint32_t)t.to << 7 | (uint32_t)(t.swap == NO_HOLE ? NO_SWAP_CODE : t.swap) << 14;
}

bool book_code_move(const Position *p, int f, uint32_t code, Move *out)
{
    const unsigned from = code & 127, to = code >> 7 & 127, swap = code >> 14 & 127;
    if (from >= NUM_HOLES || to >= NUM_HOLES || (swap >= NUM_HOLES && swap != NO_SWAP_CODE) || code >> 21)
        return false;
    const Move framed = {.from = (uint8_t)from, .to = (uint8_t)to, .swap = swap == NO_SWAP_CODE ? NO_HOLE : (uint8_t)swap};
    const Move m = frame_move_back(f, &framed);
    MoveList list = {0};
    gen_moves(p, &list, NULL);
    bool found = false;
    for (int i = 0; i < list.n && !found; i++)
        if (list.m[i].from == m.from && list.m[i].to == m.to && list.m[i].swap == m.swap && !list.m[i].ncapt) {
            *out = list.m[i];
            found = true;
        }
    move_list_free(&list);
    return found;
}

void book_init(Book *b, const char *variant)
{
    memset(b, 0, sizeof *b);
    snprintf(b->variant, sizeof b->variant, "%s", variant);
}

void book_free(Book *b)
{
    free(b->e);
    b->e = NULL;
    b->n = b->cap = 0;
}

static int clamp16(long v, long lo, long hi) { return (int)(v < lo ? lo : v > hi ? hi : v); }

bool book_add(Book *b, const Position *p, const Move *m, int weight, int learn)
{
    if (p->v->capture || pos_over(p))
        return false;
    if (b->n == b->cap) {
        const size_t cap = b->cap ? b->cap * 2 : 1024;
        BookEntry *e = realloc(b->e, sizeof *e * cap);
        if (!e)
            return false;
        b->e = e;
        b->cap = cap;
    }
    int f;
    const uint64_t key = book_key(p, &f);
    b->e[b->n++] = (BookEntry){.key = key, .move = book_move_code(f, m), .weight = (uint16_t)clamp16(weight, 0, 65535),
                               .learn = (int16_t)clamp16(learn, -32768, 32767)};
    return true;
}

static int by_key_move(const void *x, const void *y)
{
    const BookEntry *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->move < b->move ? -1 : a->move > b->move;
}

void book_finish(Book *b)
{
    if (!b->n)
        return;
    qsort(b->e, b->n, sizeof *b->e, by_key_move);
    size_t k = 0;
    for (size_t i = 1; i < b->n; i++) {
        BookEntry *last = &b->e[k];
        if (b->e[i].key == last->key && b->e[i].move == last->move) {
            last->weight = (uint16_t)clamp16((long)last->weight + b->e[i].weight, 0, 65535);
            last->learn = (int16_t)clamp16((long)last->learn + b->e[i].learn, -32768, 32767);
        } else {
            b->e[++k] = b->e[i];
        }
    }
    b->n = k + 1;
}

/* ---- the file ---- */

static void put16(uint8_t *o, uint16_t v) { o[0] = (uint8_t)v, o[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *o, uint32_t v) { put16(o, (uint16_t)v), put16(o + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *o, uint64_t v) { put32(o, (uint32_t)v), put32(o + 4, (uint32_t)(v >> 32)); }
static uint16_t get16(const uint8_t *s) { return (uint16_t)(s[0] | s[1] << 8); }
static uint32_t get32(const uint8_t *s) { return get16(s) | (uint32_t)get16(s + 2) << 16; }
static uint64_t get64(const uint8_t *s) { return get32(s) | (uint64_t)get32(s + 4) << 32; }

static void entry_bytes(const BookEntry *e, uint8_t o[BOOK_ENTRY_BYTES])
{
    put64(o, e->key);
    put32(o + 8, e->move);
    put16(o + 12, e->weight);
    put16(o + 14, (uint16_t)e->learn);
}

/* Header: magic (8 bytes), version and entry size (4 each), variant (24, NUL
 * padded), entry count and XXH3-64 of the entry bytes (8 each), 8 zero bytes. */
int book_save(const Book *b, const char *path, char *err, size_t errlen)
{
    const size_t bytes = BOOK_HEADER_BYTES + b->n * BOOK_ENTRY_BYTES;
    uint8_t *buf = calloc(1, bytes);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (size_t i = 0; i < b->n; i++)
        entry_bytes(&b->e[i], buf + BOOK_HEADER_BYTES + i * BOOK_ENTRY_BYTES);
    memcpy(buf, BOOK_MAGIC, 8);
    put32(buf + 8, BOOK_VERSION);
    put32(buf + 12, BOOK_ENTRY_BYTES);
    memcpy(buf + 16, b->variant, strnlen(b->variant, 23));
    put64(buf + 40, b->n);
    put64(buf + 48, XXH3_64bits(buf + BOOK_HEADER_BYTES, b->n * BOOK_ENTRY_BYTES));
    FILE *f = fopen(path, "wb");
    const bool ok = f && fwrite(buf, 1, bytes, f) == bytes;
    if (f && fclose(f))
        errno = EIO;
    free(buf);
    if (!ok || !f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

bool book_variant_known(const char *variant, char *why, size_t whylen)
{
    if (variant_find(variant))
        return true;
    snprintf(why, whylen, "unknown variant '%s'%s", variant, variant[0] ? "" : " (its header names none)");
    return false;
}

int book_load(Book *b, const char *path, const char *variant, char *err, size_t errlen)
{
    book_init(b, variant ? variant : "");
    char why[256];
    FILE *f = datafile_open(path, why, sizeof why);
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    uint8_t head[BOOK_HEADER_BYTES];
    const size_t got = fread(head, 1, sizeof head, f);
    if (got < sizeof head || memcmp(head, BOOK_MAGIC, 8)) {
        fclose(f);
        snprintf(err, errlen, "%s: not a Stern book (%s)", path, got < 8 ? "too short" : "no STERNBK1 header");
        return -1;
    }
    const uint32_t version = get32(head + 8), esize = get32(head + 12);
    char name[sizeof b->variant];
    memcpy(name, head + 16, sizeof name);
    const uint64_t n = get64(head + 40), sum = get64(head + 48);
    if (name[sizeof name - 1]) {
        fclose(f);
        snprintf(err, errlen, "%s: variant field not terminated: corrupt", path);
        return -1;
    }
    if (version != BOOK_VERSION || esize != BOOK_ENTRY_BYTES) {
        fclose(f);
        snprintf(err, errlen, "%s: format version %u with %u-byte entries, this engine reads version %d", path,
                 version, esize, BOOK_VERSION);
        return -1;
    }
    if (!book_variant_known(name, why, sizeof why)) {
        fclose(f);
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    if (variant && strcmp(name, variant)) {
        fclose(f);
        snprintf(err, errlen, "%s: a book of %s, not %s", path, name, variant);
        return -1;
    }
    memcpy(b->variant, name, sizeof name);
    /* the file's size bounds the entries before any memory is asked for them */
    long size = -1;
    if (!fseek(f, 0, SEEK_END))
        size = ftell(f);
    if (size < 0 || fseek(f, BOOK_HEADER_BYTES, SEEK_SET)) {
        fclose(f);
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    const uint64_t in_file = (uint64_t)(size - BOOK_HEADER_BYTES) / BOOK_ENTRY_BYTES;
    if (n > in_file) {
        fclose(f);
        snprintf(err, errlen, "%s: truncated (%llu of %llu entries read)", path, (unsigned long long)in_file,
                 (unsigned long long)n);
        return -1;
    }
    uint8_t *buf = malloc(n ? n * BOOK_ENTRY_BYTES : 1);
    b->e = malloc(sizeof *b->e * (n ? n : 1));
    if (!buf || !b->e) {
        fclose(f);
        free(buf);
        book_free(b);
        snprintf(err, errlen, "%s: out of memory for %llu entries", path, (unsigned long long)n);
        return -1;
    }
    const size_t read = fread(buf, BOOK_ENTRY_BYTES, n, f);
    const bool extra = fgetc(f) != EOF;
    fclose(f);
    const char *fault = read < n ? "truncated" : extra ? "longer than its header says" : NULL;
    if (!fault && XXH3_64bits(buf, n * BOOK_ENTRY_BYTES) != sum)
        fault = "checksum mismatch: corrupt";
    for (size_t i = 0; !fault && i < n; i++) {
        const uint8_t *s = buf + i * BOOK_ENTRY_BYTES;
        b->e[i] = (BookEntry){.key = get64(s), .move = get32(s + 8), .weight = get16(s + 12),
                              .learn = (int16_t)get16(s + 14)};
        if (i && by_key_move(&b->e[i - 1], &b->e[i]) >= 0)
            fault = "entries not sorted: corrupt";
    }
    free(buf);
    if (fault) {
        snprintf(err, errlen, "%s: %s (%zu of %llu entries read)", path, fault, read, (unsigned long long)n);
        book_free(b);
        return -1;
    }
    b->n = b->cap = n;
    return 0;
}

size_t book_find(const Book *b, uint64_t key, size_t *first)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (b->e[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    size_t end = lo;
    while (end < b->n && b->e[end].key == key)
        end++;
    return end;
}

int book_probe(const Book *b, const Position *p, BookMove *out, int max)
{
    if (pos_over(p) || p->v->capture || !b->n)
        return 0;
    int f;
    const uint64_t key = book_key(p, &f);
    size_t first;
    const size_t end = book_find(b, key, &first);
    int n = 0;
    for (size_t i = first; i < end && max > 0; i++) {
        Move m;
        if (!book_code_move(p, f, b->e[i].move, &m))
            continue; /* another position with the same key: not this one's move */
        if (n == max && out[n - 1].weight >= b->e[i].weight)
            continue; /* the list is full of better ones */
        int k = n < max ? n++ : n - 1;
        while (k > 0 && out[k - 1].weight < b->e[i].weight) { /* best weight first, stable */
            out[k] = out[k - 1];
            k--;
        }
        out[k] = (BookMove){.move = m, .weight = b->e[i].weight, .learn = b->e[i].learn};
    }
    return n;
}
