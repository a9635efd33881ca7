/*
 * arrivals_main.c - stern-arrivals: reads game records (PGN, as stern-arena and
 * stern-play write them), replays each through the rules library and finds the
 * turns on which a seat had a move that arrives (places it, or for a team
 * member brings all its marbles home) and played another. A game in which one
 * seat of the named player declines more than -max such turns is reported as
 * `FILE:LINE: game G: seat S (NAME) declined an arrival on N turns, first at
 * ply P`; the exit status is 1 when any game is reported, 2 on a bad file or
 * argument, else 0. It checks RULES.md section 6 play in matches: a seat that
 * can take a place should take it.
 */
#include "args.h"
#include "game.h"
#include "notation.h"
#include "pgn_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: stern-arrivals [-player NAME] [-max N] FILE...\n"
    "  -player NAME  check only the seats whose colour tag is NAME (default: every seat)\n"
    "  -max N        declined turns allowed per seat and game (default 3)\n"
    "  -rounds       also print, per game, the round in which each seat arrived\n";

static const char *const COLOUR_TAGS[MAX_SEATS] = {"White", "Red", "Blue", "Black", "Yellow", "Green"};

/* Whether seat s arrived in q (from p, where it had not). */
static bool arrived(const Position *q, int s) { return q->status[s] == ST_ARRIVED; }

/* Whether the side to move of p has a move after which it has arrived. */
static bool can_arrive(const Position *p, MoveList *list)
{
    gen_moves(p, list, NULL);
    for (int i = 0; i < list->n; i++) {
        Position q = *p;
        pos_play(&q, &list->m[i]);
        if (arrived(&q, p->stm))
            return true;
    }
    return false;
}

typedef struct {
    const char *player; /* NULL: every seat */
    int max;
    bool rounds;
    int reported;
} Check;

/* Replays record r of file `path` and reports its seats over the limit. Returns
 * 0, or -1 with a message on stderr when the record cannot be replayed. */
static int check_game(Check *ck, const char *path, const PgnGame *r, Game *g, MoveList *list)
{
    const char *variant = pgn_tag(r, "Variant"), *fen = pgn_tag(r, "FEN"), *round = pgn_tag(r, "Round");
    char err[256];
    if (!variant || game_new(g, variant)) {
        fprintf(stderr, "%s:%d: unknown or missing Variant tag\n", path, r->line);
        return -1;
    }
    if (fen && game_set_fen(g, fen, err, sizeof err)) {
        fprintf(stderr, "%s:%d: FEN tag: %s\n", path, r->line, err);
        return -1;
    }
    int declined[MAX_SEATS] = {0}, first[MAX_SEATS] = {0}, arrival[MAX_SEATS] = {0};
    bool watched[MAX_SEATS];
    for (int s = 0; s < MAX_SEATS; s++) {
        const char *name = pgn_tag(r, COLOUR_TAGS[s]);
        watched[s] = g->v->slot[s] >= 0 && (!ck->player || (name && !strcmp(name, ck->player)));
    }
    for (int i = 0; i < r->nmoves && !pos_over(&g->pos); i++) {
        if (!strcmp(r->moves[i], "--"))
            continue; /* a skipped turn: game_play skips it already */
        Move m;
        if (move_parse(&g->pos, r->moves[i], &m, err, sizeof err)) {
            fprintf(stderr, "%s:%d: move %d '%s': %s\n", path, r->line, i + 1, r->moves[i], err);
            return -1;
        }
        const int s = g->pos.stm;
        if (watched[s] && can_arrive(&g->pos, list)) {
            Position q = g->pos;
            pos_play(&q, &m);
            if (!arrived(&q, s) && declined[s]++ == 0)
                first[s] = g->nplies + 1;
        }
        const int round_now = g->pos.round;
        game_play(g, &m);
        for (int t = 0; t < MAX_SEATS; t++)
            if (g->v->slot[t] >= 0 && !arrival[t] && g->pos.status[t] == ST_ARRIVED)
                arrival[t] = round_now;
    }
    if (ck->rounds) {
        printf("%s:%d: game %s: arrived in round", path, r->line, round ? round : "?");
        for (int k = 0; k < g->v->nseats; k++) {
            const int t = g->v->seats[k];
            const char *name = pgn_tag(r, COLOUR_TAGS[t]);
            printf(" %c(%s):%d", variant_seat_letter(t), name ? name : "?", arrival[t]);
        }
        printf("\n");
    }
    for (int s = 0; s < MAX_SEATS; s++)
        if (declined[s] > ck->max) {
            const char *name = pgn_tag(r, COLOUR_TAGS[s]);
            printf("%s:%d: game %s: seat %c (%s) declined an arrival on %d turns, first at ply %d\n", path, r->line,
                   round ? round : "?", variant_seat_letter(s), name ? name : "?", declined[s], first[s]);
            ck->reported++;
        }
    return 0;
}

/* A file's games checked, for check_record. */
typedef struct {
    Check *ck;
    const char *path;
    Game *g;
    MoveList *list;
    int *games;
} Reading;

/* Checks complete game r of the file; stops at one that cannot be replayed. */
static int check_record(PgnGame *r, PgnStatus st, const char *why, void *ctx, char *err, size_t n)
{
    (void)why, (void)err, (void)n;
    Reading *rd = ctx;
    if (st != PGN_OK)
        return 0;
    ++*rd->games;
    return check_game(rd->ck, rd->path, r, rd->g, rd->list) ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (args_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    Check ck = {NULL, 3, false, 0};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-player") && i + 1 < argc) {
            ck.player = argv[++i];
        } else if (!strcmp(argv[i], "-rounds")) {
            ck.rounds = true;
        } else if (!strcmp(argv[i], "-max") && i + 1 < argc) {
            char *end;
            const long n = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || n < 0 || n > 100000) {
                fprintf(stderr, "stern-arrivals: -max %s: a whole number of turns, 0 or more\n", argv[i]);
                return 2;
            }
            ck.max = (int)n;
        } else {
            fprintf(stderr, "stern-arrivals: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        }
    }
    if (i == argc) {
        fputs(usage, stderr);
        return 2;
    }
    static Game g;
    MoveList *list = move_list_new();
    if (!list) {
        fprintf(stderr, "stern-arrivals: out of memory\n");
        return 2;
    }
    int games = 0, rc = 0;
    for (; i < argc && !rc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            fprintf(stderr, "stern-arrivals: cannot open %s\n", argv[i]);
            rc = 2;
            break;
        }
        Reading rd = {&ck, argv[i], &g, list, &games};
        char err[PGN_ERR_MAX];
        const int read = pgn_read_each(f, argv[i], PGN_ERRORS_END, check_record, &rd, err, sizeof err);
        if (read < 0)
            fprintf(stderr, "%s\n", err);
        rc = read ? 2 : 0;
        fclose(f);
    }
    move_list_delete(list);
    if (rc)
        return rc;
    printf("%d games, %d seats over %d declined arrivals\n", games, ck.reported, ck.max);
    return ck.reported ? 1 : 0;
}
