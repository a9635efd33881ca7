/* perft_main.c - stern-perft: perft from a variant's start or a FEN, as a benchmark. */
#include "args.h"
#include "fen.h"
#include "game.h"
#include "notation.h"
#include "perft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GEN_BENCH_SET 8192 /* positions --gen-bench cycles through */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define USAGE                                                                                                   \
    "usage: stern-perft [-variant NAME] [-fen FEN] [-depth N] [-no-foreign-rule] [-divide] [-gen-bench N]\n"      \
    "  (each option also with two dashes, as --variant)\n"

/* What to count. */
typedef struct {
    const char *variant, *fen;
    int plain, divide; /* without the foreign-home rule; a count per move */
    long long depth, gens;
} Options;

/* Reads the command line into *o. Returns -1 when it is whole, else the exit
 * status after the usage or a message. */
static int parse_options(int argc, char **argv, Options *o)
{
    *o = (Options){.variant = "classic-2", .depth = 4};
    if (args_help(argc, argv)) {
        fputs(USAGE, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        if (args_is(argv[i], "variant") && i + 1 < argc) o->variant = argv[++i];
        else if (args_is(argv[i], "fen") && i + 1 < argc) o->fen = argv[++i];
        else if (args_is(argv[i], "depth") && i + 1 < argc) {
            if (!args_int("stern-perft", argv[i], argv[i + 1], 0, 20, &o->depth))
                return 2;
            i++;
        } else if (args_is(argv[i], "no-foreign-rule")) o->plain = 1;
        else if (args_is(argv[i], "divide")) o->divide = 1;
        else if (args_is(argv[i], "gen-bench") && i + 1 < argc) {
            if (!args_int("stern-perft", argv[i], argv[i + 1], 1, 1000000000000LL, &o->gens))
                return 2;
            i++;
        } else {
            fputs(USAGE, stderr);
            return 2;
        }
    }
    return -1;
}

/* Sets g to the position asked for: the variant (without the foreign-home rule
 * when asked) and the FEN. Returns -1, or the exit status after a message. */
static int set_position(Game *g, const Options *o)
{
    if (game_new(g, o->variant)) {
        fprintf(stderr, "stern-perft: unknown variant '%s'\n", o->variant);
        return 2;
    }
    static Variant plain_rules;
    if (o->plain) {
        plain_rules = *g->v;
        for (int s = 0; s < MAX_SEATS; s++)
            plain_rules.foreign[s] = 0;
        game_set_variant(g, &plain_rules);
    }
    char err[256];
    if (o->fen && game_set_fen(g, o->fen, err, sizeof err)) {
        fprintf(stderr, "stern-perft: %s\n", err);
        return 2;
    }
    return -1;
}

/* The movegen benchmark: full move-list generations of the position and of
 * every position one and two plies after it, in turn, through one memo.
 * Cycling through neighbouring positions keeps the destination memo of
 * movegen.c as busy as a search does; one position over and over would only
 * measure the memo's hits. Returns the exit status. */
static int gen_bench(const Position *pos, long long gens)
{
    static MoveList list, list1;
    static Position set[GEN_BENCH_SET];
    int nset = 0;
    set[nset++] = *pos;
    gen_moves(pos, &list, NULL);
    for (int i = 0; i < list.n && nset < GEN_BENCH_SET; i++) {
        Position c = *pos;
        pos_play(&c, &list.m[i]);
        set[nset++] = c;
        gen_moves(&c, &list1, NULL);
        for (int j = 0; j < list1.n && nset < GEN_BENCH_SET; j++) {
            set[nset] = c;
            pos_play(&set[nset++], &list1.m[j]);
        }
    }
    GenMemo *memo = gen_memo_new();
    if (!memo) {
        fprintf(stderr, "stern-perft: out of memory\n");
        return 1;
    }
    uint64_t total = 0;
    const double t0 = now_s();
    for (long long i = 0; i < gens; i++) {
        gen_moves(&set[i % nset], &list, memo);
        total += (uint64_t)list.n;
    }
    const double dt = now_s() - t0;
    printf("%lld generations over %d positions (the given one and those 1-2 plies on), %.1f moves each, in "
           "%.3f s (%.2f M generations/s)\n",
           gens, nset, (double)total / (double)gens, dt, dt > 0 ? gens / dt / 1e6 : 0.0);
    return 0;
}

/* Perft of every move of pos to depth - 1 (depth > 0), a line each in the
 * moves' sorted order; their sum into *total. Returns 0, or -1 after a
 * message when memory runs out. */
static int divided(const Position *pos, int depth, uint64_t *total)
{
    MoveList list = {0};
    gen_moves(pos, &list, NULL);
    char(*texts)[MOVE_STR_MAX] = malloc(sizeof *texts * (size_t)(list.n ? list.n : 1));
    if (list.cut || !texts || !move_list_sort(pos, &list, texts)) {
        fprintf(stderr, "stern-perft: out of memory listing the moves\n");
        return -1;
    }
    for (int i = 0; i < list.n; i++) {
        Position c = *pos;
        pos_play(&c, &list.m[i]);
        const int64_t n = perft(&c, depth - 1, NULL);
        if (n < 0) {
            fprintf(stderr, "stern-perft: out of memory\n");
            return -1;
        }
        printf("%s: %lld\n", texts[i], (long long)n);
        *total += (uint64_t)n;
    }
    free(texts);
    move_list_free(&list);
    return 0;
}

int main(int argc, char **argv)
{
    Options o;
    int status = parse_options(argc, argv, &o);
    static Game g;
    if (status >= 0 || (status = set_position(&g, &o)) >= 0)
        return status;
    if (o.gens > 0)
        return gen_bench(&g.pos, o.gens);
    uint64_t total = 0;
    const double t0 = now_s();
    if (o.divide && o.depth > 0) {
        if (divided(&g.pos, (int)o.depth, &total))
            return 1;
    } else {
        const int64_t n = perft(&g.pos, (int)o.depth, NULL);
        if (n < 0) {
            fprintf(stderr, "stern-perft: out of memory\n");
            return 1;
        }
        total = (uint64_t)n;
    }
    const double dt = now_s() - t0;
    printf("%s depth %lld: %llu leaves in %.3f s (%.1f M leaves/s)\n", o.variant, o.depth, (unsigned long long)total,
           dt, dt > 0 ? total / dt / 1e6 : 0.0);
    return 0;
}
