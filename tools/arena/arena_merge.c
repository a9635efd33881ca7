/* arena_merge.c - shards' record files merged and checked; see arena_merge.h. */
#include "arena_merge.h"

#include "schedule.h"
#include "shard.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Where one record is. */
typedef struct {
    long number;
    int file, line;
    long start, end; /* bytes of the record in its file */
} Entry;

typedef struct {
    const char *const *files;
    int file;
    ArenaTable *t;
    MergeResult *res;
    Entry *entries;
    long n, cap;
    int first_file, first_line; /* the record that set res->schedule */
    struct {
        char *text;     /* the first Engine<e+1> tag met (an engine's build), NULL before */
        int file, line; /* where */
    } builds[SCHEDULE_MAX_ENGINES];
} Merging;

/* Each record's Engine1... tags equal those of the records before it that
 * have them: shards played by other builds of an engine do not merge.
 * Records written before the tags have none and are not checked (as
 * -resume). Returns 0, or -1 with the reason. */
static int same_builds(Merging *m, const PgnGame *g, const char *path, char *err, size_t n)
{
    for (int e = 0; e < SCHEDULE_MAX_ENGINES; e++) {
        char tag[24];
        snprintf(tag, sizeof tag, "Engine%d", e + 1);
        const char *built = pgn_tag(g, tag);
        if (!built)
            continue;
        if (!m->builds[e].text) {
            if (!(m->builds[e].text = strdup(built))) {
                snprintf(err, n, "out of memory");
                return -1;
            }
            m->builds[e].file = m->file;
            m->builds[e].line = g->line;
        } else if (strcmp(built, m->builds[e].text)) {
            snprintf(err, n, "%s:%d was played by engine %d built as %s, %s:%d by %s: records of two builds of an "
                     "engine do not merge (play every shard with the same build)", path, g->line, e + 1, built,
                     m->files[m->builds[e].file], m->builds[e].line, m->builds[e].text);
            return -1;
        }
    }
    return 0;
}

/* Parses a whole decimal number of tag `name` (>= 1) into *out. Returns 0, or -1. */
static int tag_number(const PgnGame *g, const char *name, long *out)
{
    const char *s = pgn_tag(g, name);
    char *end;
    errno = 0;
    const long v = s ? strtol(s, &end, 10) : 0;
    if (!s || end == s || *end || errno || v < 1 || v > SCHEDULE_MAX_GAMES)
        return -1;
    *out = v;
    return 0;
}

static int merge_one(PgnGame *g, PgnStatus status, const char *why, void *ctx, char *err, size_t n)
{
    (void)why;
    Merging *m = ctx;
    MergeResult *res = m->res;
    const char *path = m->files[m->file];
    if (status == PGN_INCOMPLETE) { /* a shard killed while writing: its -resume plays it again */
        res->incomplete++;
        return 0;
    }
    const char *id = pgn_tag(g, "Schedule"), *shard = pgn_tag(g, "Shard");
    long number, total, sets;
    if (!id) {
        snprintf(err, n, "%s:%d: the record has no Schedule tag: only records of one stern-arena schedule merge "
                 "(-ratings rates any records)", path, g->line);
        return -1;
    }
    if (strlen(id) != MERGE_ID_LEN || strspn(id, "0123456789abcdef") != MERGE_ID_LEN ||
        tag_number(g, "Round", &number) || tag_number(g, "ScheduleGames", &total) ||
        tag_number(g, "ScheduleSets", &sets) || total % sets || number > total) {
        snprintf(err, n, "%s:%d: bad Schedule, ScheduleGames, ScheduleSets or Round tag", path, g->line);
        return -1;
    }
    if (!res->schedule[0]) {
        snprintf(res->schedule, sizeof res->schedule, "%s", id);
        res->nshards = 0;
        m->first_file = m->file;
        m->first_line = g->line;
    } else if (strcmp(id, res->schedule)) {
        snprintf(err, n, "%s:%d is a game of schedule %s, %s:%d of schedule %s: records of two different "
                 "tournaments (other engines, limits, options, openings or games) do not merge", path, g->line, id,
                 m->files[m->first_file], m->first_line, res->schedule);
        return -1;
    }
    if (same_builds(m, g, path, err, n))
        return -1;
    if (res->total && total / sets != res->total / res->sets) {
        snprintf(err, n, "%s:%d: ScheduleSets disagrees with the other records", path, g->line);
        return -1;
    }
    if (total > res->total) {
        res->total = total;
        res->sets = sets;
    }
    int k = 1, nshards = 1;
    char bad[128];
    if (shard && (!isdigit((unsigned char)shard[0]) || shard_parse(shard, &k, &nshards, bad, sizeof bad) ||
                  schedule_shard_of(number, total / sets, nshards) != k)) {
        snprintf(err, n, "%s:%d: game %ld is not a game of shard %s", path, g->line, number, shard);
        return -1;
    }
    if (res->nshards && nshards != res->nshards) {
        snprintf(err, n, "%s:%d: a record of shard %s among records of %d shards: shards of one cut only", path,
                 g->line, shard ? shard : "1/1", res->nshards);
        return -1;
    }
    res->nshards = nshards;
    char reason[PGN_ERR_MAX];
    if (arena_table_add(m->t, g, m->file, reason, sizeof reason) < 0) {
        snprintf(err, n, "%s:%d: %s", path, g->line, reason);
        return -1;
    }
    if (m->n == m->cap) {
        const long cap = m->cap ? 2 * m->cap : 256;
        Entry *e = realloc(m->entries, (size_t)cap * sizeof *e);
        if (!e) {
            snprintf(err, n, "out of memory");
            return -1;
        }
        m->entries = e;
        m->cap = cap;
    }
    m->entries[m->n++] = (Entry){number, m->file, g->line, g->start, g->end};
    return 0;
}

static int by_number(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return x->file != y->file ? (x->file < y->file ? -1 : 1) : (x->line > y->line) - (x->line < y->line);
}

/* Copies the entries' bytes from their files to out in the entries' order. */
static int copy_records(const char *const *files, int nfiles, const Entry *e, long n, FILE *out, char *err,
                        size_t errn)
{
    FILE **in = calloc((size_t)nfiles, sizeof *in);
    char *buf = NULL;
    size_t cap = 0;
    int rc = in ? 0 : -1;
    if (!in)
        snprintf(err, errn, "out of memory");
    for (long i = 0; !rc && i < n; i++) {
        const size_t len = (size_t)(e[i].end - e[i].start);
        FILE **f = &in[e[i].file];
        if (len > cap) {
            char *bigger = realloc(buf, len);
            if (!bigger) {
                snprintf(err, errn, "out of memory");
                rc = -1;
                break;
            }
            buf = bigger;
            cap = len;
        }
        if (!*f && !(*f = fopen(files[e[i].file], "r"))) {
            snprintf(err, errn, "%s: %s", files[e[i].file], strerror(errno));
            rc = -1;
        } else if (fseek(*f, e[i].start, SEEK_SET) || fread(buf, 1, len, *f) != len || fwrite(buf, 1, len, out) != len) {
            snprintf(err, errn, "copying game %ld of %s: %s", e[i].number, files[e[i].file], strerror(errno));
            rc = -1;
        }
    }
    for (int f = 0; in && f < nfiles; f++)
        if (in[f])
            fclose(in[f]);
    free(in);
    free(buf);
    if (!rc && fflush(out)) {
        snprintf(err, errn, "writing the merged records: %s", strerror(errno));
        rc = -1;
    }
    return rc;
}

int arena_merge_records(const char *const *files, int nfiles, ArenaTable *t, FILE *out, MergeResult *res, char *err,
                        size_t n)
{
    memset(res, 0, sizeof *res);
    Merging m = {.files = files, .t = t, .res = res};
    int rc = 0;
    for (int i = 0; i < nfiles && !rc; i++)
        for (int j = 0; j < i && !rc; j++) {
            struct stat a, b;
            if (!stat(files[i], &a) && !stat(files[j], &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
                snprintf(err, n, "%s is given twice (as %s): each shard's file once", files[i], files[j]);
                rc = -1;
            }
        }
    for (m.file = 0; !rc && m.file < nfiles; m.file++) {
        FILE *f = fopen(files[m.file], "r");
        if (!f) {
            snprintf(err, n, "%s: %s", files[m.file], strerror(errno));
            rc = -1;
            break;
        }
        rc = pgn_read_each(f, files[m.file], PGN_ERRORS_END, merge_one, &m, err, n);
        fclose(f);
    }
    if (!rc && !m.n) {
        snprintf(err, n, "no finished game in the files");
        rc = -1;
    }
    if (!rc) {
        qsort(m.entries, (size_t)m.n, sizeof *m.entries, by_number);
        for (long i = 1; !rc && i < m.n; i++)
            if (m.entries[i].number == m.entries[i - 1].number) {
                const Entry *a = &m.entries[i - 1], *b = &m.entries[i];
                snprintf(err, n, "game %ld is recorded twice, %s:%d and %s:%d (a shard merged twice, or run twice "
                         "into two files?)", a->number, files[a->file], a->line, files[b->file], b->line);
                rc = -1;
            }
    }
    if (!rc && !(res->have = calloc((size_t)(res->total / 8 + 1), 1))) {
        snprintf(err, n, "out of memory");
        rc = -1;
    }
    for (long i = 0; !rc && i < m.n; i++)
        res->have[m.entries[i].number >> 3] |= (unsigned char)(1u << (m.entries[i].number & 7));
    if (!rc) {
        res->recorded = m.n;
        res->missing = res->total - m.n;
        if (out)
            rc = copy_records(files, nfiles, m.entries, m.n, out, err, n);
    }
    free(m.entries);
    for (int e = 0; e < SCHEDULE_MAX_ENGINES; e++)
        free(m.builds[e].text);
    return rc;
}

void arena_merge_result_free(MergeResult *res)
{
    free(res->have);
    res->have = NULL;
}

static bool recorded(const MergeResult *res, long number)
{
    return res->have[number >> 3] & (1u << (number & 7));
}

long arena_merge_print_missing(FILE *f, const MergeResult *res)
{
    if (!res->missing)
        return 0;
    const long per_set = res->total / res->sets;
    long *count = calloc((size_t)res->nshards + 1, sizeof *count);
    if (!count) {
        fprintf(f, "%ld games missing\n", res->missing);
        return res->missing;
    }
    for (long g = 1; g <= res->total; g++)
        count[schedule_shard_of(g, per_set, res->nshards)] += !recorded(res, g);
    for (int k = 1; k <= res->nshards; k++) {
        if (!count[k])
            continue;
        fprintf(f, "shard %d/%d: %ld game%s missing:", k, res->nshards, count[k], count[k] == 1 ? "" : "s");
        int ranges = 0;
        /* a shard's games come in sets of per_set consecutive numbers, every nshards-th set */
        for (long g = (long)(k - 1) * per_set + 1; g <= res->total; g++) {
            if (schedule_shard_of(g, per_set, res->nshards) != k) {
                g += (long)(res->nshards - 1) * per_set - 1;
                continue;
            }
            if (recorded(res, g))
                continue;
            long last = g;
            while (last < res->total && schedule_shard_of(last + 1, per_set, res->nshards) == k &&
                   !recorded(res, last + 1))
                last++;
            if (ranges++ == MERGE_MAX_RANGES) {
                fputs(" ...", f);
                break;
            }
            if (last > g)
                fprintf(f, "%s %ld-%ld", ranges > 1 ? "," : "", g, last);
            else
                fprintf(f, "%s %ld", ranges > 1 ? "," : "", g);
            g = last;
        }
        fputc('\n', f);
    }
    free(count);
    return res->missing;
}
