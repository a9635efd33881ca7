/* bench.c - the bench position set and driver; see bench.h. */
#include "bench.h"

#include "clock.h"
#include "eval.h"
#include "fen.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Positions: each variant's start, then the positions reached after `plies` moves
 * of greedy play (every seat takes the move with the best static evaluation, the
 * first such move in generation order), which makes opening and middle-game
 * positions without storing any. */
typedef struct {
    const char *variant;
    int plies;
} BenchSpec;

static const BenchSpec SPECS[] = {
    {"classic-2", 0}, {"classic-2", 12}, {"classic-2", 24}, {"classic-2", 40}, {"classic-2", 50},
    {"classic-3", 0}, {"classic-3", 30}, {"classic-4", 20}, {"classic-6", 0}, {"classic-6", 60},
};

static void greedy_move(Game *g, MoveList *list)
{
    gen_moves(&g->pos, list, NULL);
    int best = -1, best_score = 0;
    for (int i = 0; i < list->n; i++) {
        Position c = g->pos;
        pos_play(&c, &list->m[i]);
        const int s = pos_over(&c) ? 0 : eval_standing(&c, g->pos.stm, NULL);
        if (best < 0 || s > best_score) {
            best = i;
            best_score = s;
        }
    }
    game_play(g, &list->m[best]);
}

static void quiet(const SearchReport *report, void *ctx)
{
    (void)report;
    (void)ctx;
}

uint64_t bench_run(SearchSession *s, int depth, const SearchConfig *config, SearchSignals *sig, BenchOutput out,
                   void *ctx)
{
    Game *g = malloc(sizeof *g);
    MoveList *list = move_list_new();
    SearchLimits *lim = malloc(sizeof *lim);
    if (!g || !list || !lim) {
        free(g);
        move_list_delete(list);
        free(lim);
        out("info string error bench: out of memory", ctx);
        return 0;
    }
    uint64_t total = 0;
    int64_t us = 0; /* searching only: not the greedy moves or the table clearing */
    SearchSignals own;
    atomic_init(&own.stop, false);
    atomic_init(&own.ponderhit, false);
    if (!sig)
        sig = &own;
    bool stopped = false;
    for (size_t i = 0; i < sizeof SPECS / sizeof *SPECS && !stopped; i++) {
        game_new(g, SPECS[i].variant);
        for (int k = 0; k < SPECS[i].plies && !pos_over(&g->pos); k++)
            greedy_move(g, list);
        /* search from this position as a fresh game start */
        g->start = g->pos;
        g->nplies = 0;
        g->keys[0] = g->pos.key;
        search_limits_init(lim);
        lim->depth = depth;
        session_new_game(s);
        const int64_t t0 = clock_now_us();
        const SearchResult r = session_search(s, g, lim, config, sig, quiet, NULL);
        us += clock_now_us() - t0;
        stopped = atomic_load(&sig->stop);
        char fen[FEN_MAX], line[FEN_MAX + 128];
        snprintf(line, sizeof line, "info string bench %zu %s %s nodes %" PRIu64 " score %d", i + 1, SPECS[i].variant,
                 fen_write(&g->pos, fen), r.nodes, r.score);
        out(line, ctx);
        total += r.nodes;
    }
    char line[128];
    snprintf(line, sizeof line, "Nodes searched: %" PRIu64 "%s", total, stopped ? " (stopped)" : "");
    out(line, ctx);
    snprintf(line, sizeof line, "Nodes/second: %" PRIu64, us > 0 ? total * 1000000 / (uint64_t)us : total);
    out(line, ctx);
    free(g);
    move_list_delete(list);
    free(lim);
    return total;
}
