/* book_part.c - a sharded book build's parts and their merge; see book_part.h. */
#include "book_part.h"

#include "datafile.h"
#include "shard.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PART_PREFIX "stern-book part " /* then the format version */
#define PART_MAGIC PART_PREFIX "1"
#define LINE_MAX_BYTES (BOOK_PART_SETTINGS_MAX + 64)

int book_part_save(const BookPart *p, const char *path, char *err, size_t errlen)
{
    if (strchr(p->settings, '\n')) {
        snprintf(err, errlen, "%s: the build's settings hold a newline", path);
        return -1;
    }
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
        return -1;
    }
    fprintf(f, "%s\nbuild %s\nvariant %s\nshard %d/%d\nsplit %d\nentries %zu\n", PART_MAGIC, p->settings,
            p->book.variant, p->k, p->n, p->split, p->book.n);
    for (size_t i = 0; i < p->book.n; i++) {
        const BookEntry *e = &p->book.e[i];
        fprintf(f, "%016" PRIx64 " %" PRIu32 " %u %d\n", e->key, e->move, (unsigned)e->weight, (int)e->learn);
    }
    fprintf(f, "end\n");
    const bool written = !ferror(f);
    if (fclose(f) || !written || rename(tmp, path)) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno ? errno : EIO));
        remove(tmp);
        return -1;
    }
    return 0;
}

bool book_part_is(const char *path)
{
    char why[256];
    FILE *f = datafile_open(path, why, sizeof why); /* a FIFO is no part, and not waited on */
    if (!f)
        return false;
    char head[sizeof PART_PREFIX] = ""; /* any version: book_part_read says which it cannot read */
    const size_t got = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    return got == sizeof head - 1 && !memcmp(head, PART_PREFIX, got);
}

void book_part_free(BookPart *p) { book_free(&p->book); }

/* The next line of f without its newline into line; false at the end. */
static bool next_line(FILE *f, char *line, int *no)
{
    if (!fgets(line, LINE_MAX_BYTES, f))
        return false;
    (*no)++;
    line[strcspn(line, "\n")] = 0;
    return true;
}

int book_part_load(BookPart *p, const char *path, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    book_init(&p->book, "");
    char why[256];
    FILE *f = datafile_open(path, why, sizeof why);
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    char *line = malloc(LINE_MAX_BYTES);
    if (line)
        line[0] = 0;
    int no = 0;
    unsigned long long count = 0;
    const char *fault = NULL;
    if (!line)
        fault = "out of memory";
    else if (!next_line(f, line, &no) || strcmp(line, PART_MAGIC))
        fault = !strncmp(line, PART_PREFIX, strlen(PART_PREFIX)) ? "another format version of parts"
                                                       : "not a part of a sharded book build";
    else if (!next_line(f, line, &no) || strncmp(line, "build ", 6) ||
             strlen(line + 6) >= sizeof p->settings)
        fault = "no build line";
    else {
        snprintf(p->settings, sizeof p->settings, "%s", line + 6);
        char variant[sizeof p->book.variant] = "";
        if (!next_line(f, line, &no) || sscanf(line, "variant %23s", variant) != 1)
            fault = "no variant line";
        else if (!book_variant_known(variant, why, sizeof why))
            fault = why;
        else if (!next_line(f, line, &no) || sscanf(line, "shard %d/%d", &p->k, &p->n) != 2 || p->k < 1 ||
                 p->k > p->n || p->n > SHARD_MAX)
            fault = "no shard line";
        else if (!next_line(f, line, &no) || sscanf(line, "split %d", &p->split) != 1)
            fault = "no split line";
        else if (!next_line(f, line, &no) || sscanf(line, "entries %llu", &count) != 1)
            fault = "no entries line";
        book_init(&p->book, variant);
    }
    /* the entries, as many as the header says, sorted as a book's are */
    for (unsigned long long i = 0; !fault && i < count; i++) {
        uint64_t key;
        uint32_t move;
        unsigned weight;
        int learn, end;
        if (!next_line(f, line, &no)) {
            fault = "cut off: run its shard again";
            break;
        }
        if (sscanf(line, "%16" SCNx64 " %" SCNu32 " %u %d%n", &key, &move, &weight, &learn, &end) != 4 ||
            line[end] || weight > 65535 || learn < -32768 || learn > 32767) {
            fault = "malformed entry";
            break;
        }
        if (p->book.n == p->book.cap) {
            const size_t cap = p->book.cap ? p->book.cap * 2 : 1024;
            BookEntry *e = realloc(p->book.e, sizeof *e * cap);
            if (!e) {
                fault = "out of memory";
                break;
            }
            p->book.e = e;
            p->book.cap = cap;
        }
        const BookEntry e = {.key = key, .move = move, .weight = (uint16_t)weight, .learn = (int16_t)learn};
        const BookEntry *last = p->book.n ? &p->book.e[p->book.n - 1] : NULL;
        if (last && (last->key > key || (last->key == key && last->move >= move))) {
            fault = "entries not sorted";
            break;
        }
        p->book.e[p->book.n++] = e;
    }
    if (!fault && (!next_line(f, line, &no) || strcmp(line, "end")))
        fault = "cut off: run its shard again";
    fclose(f);
    free(line);
    if (fault) {
        snprintf(err, errlen, "%s:%d: %s", path, no, fault);
        book_part_free(p);
        return -1;
    }
    return 0;
}

typedef struct {
    BookEntry e;
    int part;
} Tagged;

static int by_key_part_move(const void *x, const void *y)
{
    const Tagged *a = x, *b = y;
    if (a->e.key != b->e.key)
        return a->e.key < b->e.key ? -1 : 1;
    if (a->part != b->part)
        return a->part < b->part ? -1 : 1;
    return a->e.move < b->e.move ? -1 : a->e.move > b->e.move;
}

static bool same_entry(const BookEntry *a, const BookEntry *b)
{
    return a->key == b->key && a->move == b->move && a->weight == b->weight && a->learn == b->learn;
}

/* Whether the parts are of one build, each shard once and none missing. */
static int check_parts(const BookPart *parts, const char *const *paths, int n, char *err, size_t errlen)
{
    const BookPart *a = &parts[0];
    for (int i = 1; i < n; i++) {
        const BookPart *b = &parts[i];
        if (strcmp(a->settings, b->settings) || a->n != b->n) {
            snprintf(err, errlen, "%s and %s are parts of different builds: '%s' shard %d/%d against '%s' shard %d/%d",
                     paths[0], paths[i], a->settings, a->k, a->n, b->settings, b->k, b->n);
            return -1;
        }
        if (a->split != b->split) {
            snprintf(err, errlen,
                     "%s and %s split the tree at ply %d and %d: parts of builds by different engines", paths[0],
                     paths[i], a->split, b->split);
            return -1;
        }
    }
    int *from = calloc((size_t)a->n + 1, sizeof *from); /* from[k]: 1 + the part of shard k */
    if (!from) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int fault = 0;
    for (int i = 0; i < n && !fault; i++) {
        if (from[parts[i].k]) {
            snprintf(err, errlen, "shard %d/%d given twice: %s and %s", parts[i].k, a->n, paths[from[parts[i].k] - 1],
                     paths[i]);
            fault = -1;
        }
        from[parts[i].k] = i + 1;
    }
    if (!fault && n < a->n) {
        /* the first few by name, and the command that makes one */
        char list[160] = "";
        int listed = 0, last = 0;
        for (int k = 1; k <= a->n && listed < 8; k++)
            if (!from[k]) {
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d/%d", listed ? ", " : "", k, a->n);
                listed++;
                last = k;
            }
        if (a->n - n > listed)
            snprintf(list + strlen(list), sizeof list - strlen(list), " and %d more", a->n - n - listed);
        char k[16] = "K";
        if (a->n - n == 1)
            snprintf(k, sizeof k, "%d", last);
        snprintf(err, errlen, "missing shard%s %s: run stern-book build %s -shard %s/%d -o FILE%s",
                 a->n - n > 1 ? "s" : "", list, a->settings, k, a->n, a->n - n > 1 ? " for each" : "");
        fault = -1;
    }
    free(from);
    return fault;
}

int book_part_merge(const BookPart *parts, const char *const *paths, int n, Book *out, char *err, size_t errlen)
{
    book_init(out, n ? parts[0].book.variant : "");
    if (n < 1) {
        snprintf(err, errlen, "no parts to merge");
        return -1;
    }
    if (check_parts(parts, paths, n, err, errlen))
        return -1;
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += parts[i].book.n;
    Tagged *all = malloc(sizeof *all * (total ? total : 1));
    out->e = malloc(sizeof *out->e * (total ? total : 1));
    if (!all || !out->e) {
        free(all);
        book_free(out);
        snprintf(err, errlen, "out of memory for %zu entries", total);
        return -1;
    }
    out->cap = total;
    size_t m = 0;
    for (int i = 0; i < n; i++)
        for (size_t j = 0; j < parts[i].book.n; j++)
            all[m++] = (Tagged){parts[i].book.e[j], i};
    qsort(all, total, sizeof *all, by_key_part_move);
    /* per key: the entries of its first part, which every other part's must equal */
    for (size_t i = 0; i < total;) {
        size_t first_end = i;
        while (first_end < total && all[first_end].e.key == all[i].e.key && all[first_end].part == all[i].part)
            first_end++;
        const size_t len = first_end - i;
        for (size_t j = i; j < first_end; j++)
            out->e[out->n++] = all[j].e;
        size_t j = first_end;
        while (j < total && all[j].e.key == all[i].e.key) {
            size_t end = j;
            while (end < total && all[end].e.key == all[j].e.key && all[end].part == all[j].part)
                end++;
            bool same = end - j == len;
            for (size_t t = 0; same && t < len; t++)
                same = same_entry(&all[j + t].e, &all[i + t].e);
            if (!same) {
                snprintf(err, errlen,
                         "%s and %s disagree on the moves of position %016" PRIx64
                         ": parts of builds by different engines",
                         paths[all[i].part], paths[all[j].part], all[i].e.key);
                free(all);
                book_free(out);
                return -1;
            }
            j = end;
        }
        i = j;
    }
    free(all);
    return 0;
}
