/*
 * nnue_main.c - stern-nnue: looks into a learned evaluation's net file
 * (engine/search/nnue.h, docs/NNUE.md).
 *   stern-nnue info NET            the header: sizes, variants, bytes
 *   stern-nnue eval NET DATA [N]   the net's value (cp, side to move) of the
 *                                  first N positions of a stern-datagen file,
 *                                  one per line: what tools/nnue/nnue_check.py
 *                                  compares with the trainer's integer pass
 * Exit status 0, 1 when the net is refused (the reason on stderr), 2 for a bad
 * command line or data file.
 */
#include "args.h"
#include "board.h"
#include "nnue.h"
#include "variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL "stern-nnue"
#define HEADER 1024
#define RECORD 64

static const char usage[] = "usage: stern-nnue info NET\n"
                            "       stern-nnue eval NET DATA [N]\n";

static Nnue *load_or_die(const char *path)
{
    char err[256];
    Nnue *net = nnue_load(path, err, sizeof err);
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
    pos_refresh(p);
}

static int eval_file(const char *netpath, const char *datapath, long long limit)
{
    Nnue *net = load_or_die(netpath);
    FILE *f = fopen(datapath, "rb");
    uint8_t h[HEADER], rec[RECORD];
    if (!f || fread(h, 1, HEADER, f) != HEADER || memcmp(h, "STERNDAT", 8)) {
        fprintf(stderr, "%s: %s: not a stern-datagen file\n", TOOL, datapath);
        return 2;
    }
    char name[25] = {0};
    memcpy(name, h + 16, 24);
    const Variant *v = variant_find(name);
    if (!v || !nnue_serves(net, v)) {
        fprintf(stderr, "%s: %s holds %s positions; the net serves %s\n", TOOL, datapath, name, nnue_variants(net));
        return 2;
    }
    NnueAcc *acc = aligned_alloc(64, sizeof *acc);
    Position p;
    for (long long i = 0; (limit < 0 || i < limit) && fread(rec, 1, RECORD, f) == RECORD; i++) {
        decode(v, rec, &p);
        nnue_refresh(net, &p, acc);
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
    if (!strcmp(argv[1], "eval") && (argc == 4 || argc == 5)) {
        long long n = -1;
        if (argc == 5 && !arg_int(TOOL, "N", argv[4], 0, 1LL << 40, &n))
            return 2;
        return eval_file(argv[2], argv[3], n);
    }
    fputs(usage, stderr);
    return 2;
}
