/*
 * nnue_main.c - stern-nnue: looks into a learned evaluation's net file
 * (engine/eval/nnue/nnue.h, docs/NNUE.md).
 *   stern-nnue info NET            the header: sizes, variants, bytes
 *   stern-nnue eval NET DATA [N]   the net's value (cp, side to move) of the
 *                                  first N positions of a stern-datagen file,
 *                                  one per line (a net of three to six seats:
 *                                  every seat's standing, in turn order): what
 *                                  tools/nnue/nnue_check.py compares with the
 *                                  trainer's integer pass
 *   stern-nnue fens DATA N [K]     the FEN of every K-th (default 1) of the
 *                                  first N positions of a data file (the
 *                                  positions of tools/nnue/nnue_speed.py)
 * Exit status 0, 1 when the net is refused (the reason on stderr), 2 for a bad
 * command line or data file.
 */
#include "args.h"
#include "board.h"
#include "datafile.h"
#include "eval.h"
#include "fen.h"
#include "nnue.h"
#include "variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL "stern-nnue"
#define HEADER 1024
#define RECORD_MAX 100 /* bytes of a record: 64 (two seats), 88 or 100 (three to six: formats 2 and 3) */

static const char usage[] = "usage: stern-nnue info NET\n"
                            "       stern-nnue eval NET DATA [N]\n"
                            "       stern-nnue fens DATA N [K]\n";


/* The net in the file at `path`, read by datafile_read (a FIFO or a device is
 * refused, never waited on); exits 1 naming the file and why it is refused. */
static Nnue *load_or_die(const char *path)
{
    char err[256];
    size_t n;
    uint8_t *bytes = datafile_read(path, NNUE_FILE_MAX, &n, err, sizeof err);
    Nnue *net = bytes ? nnue_from_bytes(bytes, n, err, sizeof err) : NULL;
    free(bytes);
    if (!net) {
        fprintf(stderr, "%s: %s: %s\n", TOOL, path, err);
        exit(1);
    }
    return net;
}

/* Sets p to the position of record rec of variant v. */
static void decode(const Variant *v, const uint8_t *rec, Position *p)
{
    pos_set_start(p, v);
    memset(p->seat_bb, 0, sizeof p->seat_bb);
    for (int h = 0; h < NUM_HOLES; h++) {
        const int c = (rec[h / 2] >> (h % 2 ? 4 : 0)) & 15;
        if (c >= 1 && c <= MAX_SEATS)
            p->seat_bb[c - 1] |= bb_bit(h);
    }
    p->stm = (int8_t)(rec[61] & 15);
    if (p->stm >= MAX_SEATS || v->slot[p->stm] < 0) {
        fprintf(stderr, "%s: a record whose side to move (%d) does not play %s\n", TOOL, p->stm, v->name);
        exit(2);
    }
    pos_refresh(p);
}

/* Opens a data file and reads its header: its variant in *v, its record
 * count in *records (the records after it, from a run cut short, are not
 * read), a record's bytes in *record. Exits 2 when it is not one. */
static FILE *open_data(const char *path, const Variant **v, long long *records, size_t *record)
{
    FILE *f = fopen(path, "rb");
    uint8_t h[HEADER];
    if (!f || fread(h, 1, HEADER, f) != HEADER || memcmp(h, "STERNDAT", 8)) {
        fprintf(stderr, "%s: %s: not a stern-datagen file\n", TOOL, path);
        exit(2);
    }
    char name[25] = {0};
    memcpy(name, h + 16, 24);
    *records = 0;
    for (int i = 7; i >= 0; i--)
        *records = *records << 8 | h[64 + i];
    *record = (size_t)(h[12] | h[13] << 8);
    if (*record != 64 && *record != 88 && *record != RECORD_MAX) {
        fprintf(stderr, "%s: %s: %zu-byte records: this build reads 64, 88 and %d\n", TOOL, path, *record, RECORD_MAX);
        exit(2);
    }
    *v = variant_find(name);
    if (!*v) {
        fprintf(stderr, "%s: %s: unknown variant '%s'\n", TOOL, path, name);
        exit(2);
    }
    return f;
}

static int print_fens(const char *datapath, long long n, long long every)
{
    const Variant *v;
    long long records;
    size_t record;
    FILE *f = open_data(datapath, &v, &records, &record);
    uint8_t rec[RECORD_MAX];
    Position p;
    char fen[FEN_MAX];
    for (long long i = 0; i < n && i < records && fread(rec, 1, record, f) == record; i++) {
        if (i % every)
            continue;
        decode(v, rec, &p);
        printf("%s\n", fen_write(&p, fen));
    }
    fclose(f);
    return 0;
}

static int eval_file(const char *netpath, const char *datapath, long long limit, bool with_hand)
{
    Nnue *net = load_or_die(netpath);
    const Variant *v;
    long long records;
    size_t record;
    FILE *f = open_data(datapath, &v, &records, &record);
    uint8_t rec[RECORD_MAX];
    const char *name = v->name;
    if (!nnue_serves(net, v)) {
        fprintf(stderr, "%s: %s holds %s positions; the net serves %s\n", TOOL, datapath, name, nnue_variants(net));
        return 2;
    }
    NnueAcc *acc = aligned_alloc(64, sizeof *acc);
    if (!acc) {
        fprintf(stderr, "%s: out of memory\n", TOOL);
        return 2;
    }
    Position p;
    for (long long i = 0; (limit < 0 || i < limit) && i < records && fread(rec, 1, record, f) == record; i++) {
        decode(v, rec, &p);
        nnue_refresh(net, &p, acc);
        if (nnue_is_multi(net)) { /* every seat's standing, in turn order */
            int out[MAX_SEATS];
            nnue_standings(net, acc, &p, out);
            for (int k = 0; k < v->nseats; k++)
                printf("%d%c", out[v->seats[k]], k + 1 < v->nseats ? ' ' : '\n');
        } else if (with_hand)
            printf("%d %d\n", nnue_output(net, acc, &p), eval_for(&p, p.stm, NULL));
        else
            printf("%d\n", nnue_output(net, acc, &p));
    }
    free(acc);
    fclose(f);
    nnue_delete(net);
    return 0;
}

int main(int argc, char **argv)
{
    if (args_help(argc, argv) || argc < 3) {
        fputs(usage, argc < 3 && !args_help(argc, argv) ? stderr : stdout);
        return argc < 3 && !args_help(argc, argv) ? 2 : 0;
    }
    board_init();
    if (!strcmp(argv[1], "info")) {
        Nnue *net = load_or_die(argv[2]);
        printf("%s: a Stern net for %s\n", argv[2], nnue_variants(net));
        nnue_delete(net);
        return 0;
    }
    if (!strcmp(argv[1], "fens") && (argc == 4 || argc == 5)) {
        long long n, every = 1;
        if (!args_int(TOOL, "N", argv[3], 0, 1LL << 40, &n) ||
            (argc == 5 && !args_int(TOOL, "K", argv[4], 1, 1LL << 40, &every)))
            return 2;
        return print_fens(argv[2], n, every);
    }
    if (!strcmp(argv[1], "eval") && (argc == 4 || argc == 5)) {
        long long n = -1;
        if (argc == 5 && !args_int(TOOL, "N", argv[4], 0, 1LL << 40, &n))
            return 2;
        return eval_file(argv[2], argv[3], n, getenv("STERN_NNUE_HAND") != NULL);
    }
    fputs(usage, stderr);
    return 2;
}
