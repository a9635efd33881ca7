/* merge.c - stern-datagen -merge; see merge.h. */
#include "merge.h"

#include "records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#define TOOL "stern-datagen"

typedef struct {
    const char *path;
    RecordsHeader h;
    uint8_t *bytes; /* its records */
    uint64_t at;    /* the next record to take */
} Shard;

/* Reads shard file `path` whole into *s; false with the reason said. */
static bool read_shard(const char *path, Shard *s)
{
    char err[256] = "";
    uint8_t head[RECORDS_HEADER];
    FILE *f = fopen(path, "rb");
    s->path = path;
    if (!f) {
        fprintf(stderr, "%s: cannot open %s\n", TOOL, path);
        return false;
    }
    bool ok = fread(head, 1, RECORDS_HEADER, f) == RECORDS_HEADER && records_header_read(head, &s->h, err, sizeof err);
    if (!ok)
        fprintf(stderr, "%s: %s: %s\n", TOOL, path, err[0] ? err : "no whole header");
    const size_t bytes = ok ? (size_t)s->h.records * (size_t)s->h.record : 0;
    if (ok && (s->h.version == 1 || !(s->bytes = malloc(bytes ? bytes : 1)))) {
        fprintf(stderr, "%s: %s: %s\n", TOOL, path,
                s->h.version == 1 ? "format 1 data (two seats) is not sharded" : "out of memory");
        ok = false;
    }
    if (ok && fread(s->bytes, 1, bytes, f) != bytes) {
        fprintf(stderr, "%s: %s: truncated: the header counts %llu records\n", TOOL, path,
                (unsigned long long)s->h.records);
        ok = false;
    }
    if (ok && XXH3_64bits(s->bytes, bytes) != s->h.checksum) {
        fprintf(stderr, "%s: %s: checksum mismatch (the records are damaged)\n", TOOL, path);
        ok = false;
    }
    fclose(f);
    return ok;
}

/* Whether shard s belongs to the run of `first` and is whole; says why not. */
static bool same_run(const Shard *s, const Shard *first, const bool *seen)
{
    const RecordsHeader *a = &s->h, *b = &first->h;
    const char *why = NULL;
    if (a->version != b->version)
        why = "data of another format";
    else if (a->v != b->v || a->seed != b->seed || a->nodes != b->nodes || a->random != b->random || a->games != b->games ||
             a->teacher != b->teacher)
        why = "another run (variant, seed, nodes, random plies, games or teacher differ)";
    else if (a->shards != b->shards)
        why = "a run of another shard count";
    else if (strcmp(a->engine, b->engine) || strcmp(a->net, b->net))
        why = "played by another engine or net";
    else if (seen[a->shard])
        why = "a shard given twice";
    else if (a->written != records_shard_games(a))
        why = "not whole (resume it first)";
    if (why)
        fprintf(stderr, "%s: %s: shard %lld/%lld of %s, but %s: %s\n", TOOL, s->path, a->shard, a->shards, b->v->name,
                first->path, why);
    return !why;
}

/* Writes the merged file: the games of the run in order, each from its shard. */
static int write_merged(const char *out, Shard *sh, int n)
{
    RecordsHeader h = sh[0].h;
    const long long shards = h.shards;
    h.shard = 0;
    h.shards = 1;
    h.written = h.games;
    h.records = 0;
    XXH3_state_t *sum = XXH3_createState();
    XXH3_64bits_reset(sum);
    FILE *f = fopen(out, "wb");
    uint8_t head[RECORDS_HEADER] = {0};
    bool ok = f && sum && fwrite(head, 1, RECORDS_HEADER, f) == RECORDS_HEADER;
    for (long long g = 0; ok && g < h.games; g++) {
        Shard *s = NULL;
        for (int i = 0; i < n; i++)
            if (sh[i].h.shard == g % shards)
                s = &sh[i];
        const size_t record = (size_t)s->h.record;
        for (; s->at < s->h.records && records_game_of(s->bytes + s->at * record) == g; s->at++, h.records++) {
            ok = ok && fwrite(s->bytes + s->at * record, record, 1, f) == 1;
            XXH3_64bits_update(sum, s->bytes + s->at * record, record);
        }
    }
    if (ok) {
        h.checksum = XXH3_64bits_digest(sum);
        records_header_write(&h, head);
        ok = !fseek(f, 0, SEEK_SET) && fwrite(head, 1, RECORDS_HEADER, f) == RECORDS_HEADER;
    }
    if (f && fclose(f))
        ok = false;
    XXH3_freeState(sum);
    if (!ok) {
        fprintf(stderr, "%s: cannot write %s\n", TOOL, out);
        return 1;
    }
    printf("%s: %lld games, %llu positions from %d shards in %s\n", TOOL, h.games, (unsigned long long)h.records, n,
           out);
    return 0;
}

int merge_shards(const char *out, char *const *in, int n)
{
    if (access(out, F_OK) == 0) {
        fprintf(stderr, "%s: %s exists: merge into a new file\n", TOOL, out);
        return 2;
    }
    Shard *sh = calloc((size_t)(n ? n : 1), sizeof *sh);
    bool *seen = NULL;
    bool ok = sh != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = read_shard(in[i], &sh[i]);
    if (ok && n && !(seen = calloc((size_t)sh[0].h.shards, sizeof *seen)))
        ok = false;
    for (int i = 0; ok && i < n; i++) {
        ok = same_run(&sh[i], &sh[0], seen);
        if (ok)
            seen[sh[i].h.shard] = true;
    }
    if (ok && n != sh[0].h.shards) {
        fprintf(stderr, "%s: %d of the run's %lld shards given: ", TOOL, n, sh[0].h.shards);
        for (long long k = 0; k < sh[0].h.shards; k++)
            if (!seen[k])
                fprintf(stderr, "%lld/%lld ", k, sh[0].h.shards);
        fprintf(stderr, "missing\n");
        ok = false;
    }
    if (!n)
        fprintf(stderr, "%s: -merge needs the shard files\n", TOOL);
    const int status = ok && n ? write_merged(out, sh, n) : 2;
    for (int i = 0; sh && i < n; i++)
        free(sh[i].bytes);
    free(sh);
    free(seen);
    return status;
}
