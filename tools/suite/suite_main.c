/*
 * suite_main.c - stern-suite: an engine through its protocol on position
 * suites (epd.h), and the making of suites whose answers are proven.
 *
 * Run: every position is set up (`setoption name Variant`, `position fen`)
 * and searched (`go movetime|depth|nodes`); the answer solves it when it is
 * one of its bm and none of its am. A line of a suite that cannot be read is
 * reported with its file, line and reason, and the others are run.
 *
 * Make (`stern-suite make KIND VARIANT COUNT [SEED]`): positions from games
 * of the one-ply greedy policy (greedy.h) after random opening moves, each
 * answer proven:
 *   race      two seats, the armies past each other: bm are the moves that
 *             keep the fewest own moves to arrive, by the exact race solver
 *             (race.h) on every move;
 *   arrival   a move that arrives is there: bm are the arriving moves, by the
 *             rules (played, each is seen to arrive; it takes the best place
 *             still free, which no later move can better); no team variants;
 *   deadline  the seat's exit deadline is at hand with marbles still at home:
 *             am are the moves that eliminate it, by the rules;
 *   chain     capture mode: bm are the chains that take the most pieces, by
 *             listing every chain.
 * Formats, the shipped suites and Stern's results: docs/ANALYSIS.md.
 */
#include "args.h"
#include "engine_proc.h"
#include "epd.h"
#include "greedy.h"
#include "notation.h"
#include "race.h"
#include "rng.h"
#include "work_queue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HANDSHAKE_MS 10000
#define SLACK_MS 10000        /* an answer may come this much after its movetime */
#define UNTIMED_MS 600000     /* the longest wait for a depth or node search */
#define MAX_OPTIONS 32
#define MAKE_NODES 500000     /* race solver positions per solve when making a suite */
#define MAKE_MAX 4096         /* positions of one suite at most */
#define MAKE_TABLE_MIB 64

static const char usage_text[] =
    "usage: stern-suite [options] SUITE.epd...\n"
    "  -movetime MS | -depth N | -nodes N   each position's search (default -movetime 100)\n"
    "  -engine CMD        the engine (default: stern beside this program)\n"
    "  -option NAME=VALUE an engine option (repeat it)\n"
    "  -concurrency K     engine processes at once (default 1)\n"
    "  -v                 a line for every position, solved or not\n"
    "       stern-suite make race|arrival|deadline|chain VARIANT COUNT [SEED]\n"
    "  writes COUNT positions of proven answers to standard output\n";

#define fail(...) args_die("stern-suite", __VA_ARGS__)

/* ---- running a suite ---- */

typedef struct {
    char limit[64];
    int timeout_ms;
    char engine[4096];
    EngineOption options[MAX_OPTIONS];
    int noptions, concurrency;
    bool verbose;
} Options;

typedef struct {
    EpdPosition epd;
    const char *file;
    bool solved, failed;
    char answer[MOVE_STR_MAX];
    long long ms;
} Item;

typedef struct Worker Worker;

typedef struct {
    const Options *o;
    Item *items;
    int n;
    Worker *workers; /* one a thread */
} Run;

struct Worker {
    const Run *r;
    EngineProc e;
    bool started;
    const Variant *variant;
};

/* Starts the engine for analysis, with the user's options. */
static bool engine_start(Worker *wk)
{
    const Options *o = wk->r->o;
    wk->variant = NULL;
    wk->started = !ep_start_analysis(&wk->e, o->engine, o->options, o->noptions, HANDSHAKE_MS);
    return wk->started;
}

/* Searches item it; false when the engine failed (crashed, hung). */
static bool search_item(Worker *wk, Item *it)
{
    const Options *o = wk->r->o;
    if (wk->variant != it->epd.v) {
        if (ep_send(&wk->e, "setoption name Variant value %s", it->epd.v->name))
            return false;
        wk->variant = it->epd.v;
    }
    char *line;
    const int64_t t0 = ep_now_ms();
    if (ep_send(&wk->e, "position fen %s", it->epd.fen) || ep_send(&wk->e, "go %s", o->limit) ||
        ep_wait_token(&wk->e, "bestmove", o->timeout_ms, NULL, NULL, &line) != 1)
        return false;
    it->ms = ep_now_ms() - t0;
    if (sscanf(line, "bestmove %127s", it->answer) != 1)
        snprintf(it->answer, sizeof it->answer, "(none)");
    Move m;
    char why[256];
    it->solved = !move_parse(&it->epd.pos, it->answer, &m, why, sizeof why) && epd_solved(&it->epd, &m);
    return true;
}

/* Searches item `job` with the engine of `thread` (started when it has none). */
static int search_job(void *ctx, long job, int thread)
{
    Run *r = ctx;
    Worker *wk = &r->workers[thread];
    Item *it = &r->items[job];
    bool ok = false;
    for (int attempt = 0; attempt < 2 && !ok; attempt++) { /* a crashed or hung engine: once more */
        ok = (wk->started || engine_start(wk)) && search_item(wk, it);
        if (!ok) {
            ep_kill(&wk->e);
            wk->started = false;
        }
    }
    it->failed = !ok;
    return 0;
}

/* Reads suite `path` into items (appended); returns the lines refused. */
static int read_suite(const char *path, Item **items, int *n, int *cap)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "stern-suite: %s: %s\n", path, strerror(errno));
        return 1;
    }
    char *text = NULL;
    size_t size = 0;
    int line = 0, bad = 0;
    while (getline(&text, &size, f) >= 0) {
        line++;
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 64;
            Item *grown = realloc(*items, sizeof **items * (size_t)*cap);
            if (!grown)
                fail("out of memory");
            *items = grown;
        }
        Item *it = &(*items)[*n];
        *it = (Item){.file = path};
        char err[512];
        const int rc = epd_parse(text, line, &it->epd, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "stern-suite: %s:%d: %s\n", path, line, err);
            bad++;
        }
        *n += rc > 0;
    }
    free(text);
    fclose(f);
    return bad;
}

static void print_moves(const EpdPosition *p, const char *op, const Move *m, int n)
{
    char mv[MOVE_STR_MAX];
    if (!n)
        return;
    printf(" %s", op);
    for (int i = 0; i < n; i++)
        printf(" %s", move_str(&p->pos, &m[i], mv));
}

static int run_suites(const Options *o, char **files, int nfiles)
{
    Run r = {.o = o};
    int cap = 0, bad = 0;
    for (int k = 0; k < nfiles; k++)
        bad += read_suite(files[k], &r.items, &r.n, &cap);
    const int nworkers = o->concurrency;
    r.workers = calloc((size_t)nworkers, sizeof *r.workers);
    if (!r.workers)
        fail("out of memory");
    for (int k = 0; k < nworkers; k++)
        r.workers[k] = (Worker){.r = &r};
    if (work_queue_run(r.n, nworkers, search_job, &r))
        fail("cannot start a thread");
    for (int k = 0; k < nworkers; k++)
        if (r.workers[k].started)
            ep_quit(&r.workers[k].e, 1000);
    int failed = 0;
    for (int f = 0; f < nfiles; f++) {
        int solved = 0, total = 0;
        long long ms = 0;
        for (int i = 0; i < r.n; i++) {
            const Item *it = &r.items[i];
            if (it->file != files[f])
                continue;
            total++;
            solved += it->solved;
            failed += it->failed;
            ms += it->ms;
            if (it->solved && !o->verbose)
                continue;
            printf("%s:%d: %s: %s %s in %lld ms;", it->file, it->epd.line, it->epd.id[0] ? it->epd.id : "-",
                   it->failed ? "engine failed" : it->solved ? "solved" : "not solved", it->failed ? "" : it->answer,
                   it->ms);
            print_moves(&it->epd, "bm", it->epd.bm, it->epd.nbm);
            print_moves(&it->epd, "am", it->epd.am, it->epd.nam);
            printf("\n");
        }
        printf("%s: %d of %d solved (%.1f%%), %.0f ms a position, %s\n", files[f], solved, total,
               total ? 100.0 * solved / total : 0.0, total ? (double)ms / total : 0.0, o->limit);
    }
    if (bad || failed)
        fprintf(stderr, "stern-suite: %d lines refused, %d positions the engine failed on\n", bad, failed);
    free(r.items);
    free(r.workers);
    return bad || failed ? 3 : 0;
}

/* ---- making a suite ---- */

static uint64_t rng; /* rng_mmix: the shipped suites came from it (suites/MAKE) */

/* A game position: the start, then `random` random moves, then greedy moves
 * until `keep` accepts a position (it returns true to stop) or the game ends. */
typedef bool (*Keep)(const Game *g, void *ctx);

static void play_game(const Variant *v, int random, Keep keep, void *ctx, MoveList *list)
{
    Game g;
    game_new(&g, v->name);
    for (int i = 0; i < random && !pos_over(&g.pos); i++) {
        gen_moves_no_return(&g.pos, list, NULL);
        if (!list->n || game_play(&g, &list->m[rng_mmix(&rng) % (unsigned)list->n]))
            return;
    }
    while (!pos_over(&g.pos) && !keep(&g, ctx)) {
        Move m;
        if (!greedy_choose(&g.pos, g.keys, g.nplies + 1, list, NULL, NULL, &m, NULL) || game_play(&g, &m))
            return;
    }
}

typedef struct {
    int count, made, kind;
    const Variant *v;
    MoveList *list;
    int last_ply; /* the ply of the last position taken from this game */
    uint64_t seen[MAKE_MAX]; /* the keys of the positions taken: each once */
} Maker;

enum { RACE, ARRIVAL, DEADLINE, CHAIN };

/* Whether a position of key `key` was taken already (a shuffling game
 * passes through one again, with other move counts). */
static bool taken(const Maker *mk, uint64_t key)
{
    for (int i = 0; i < mk->made; i++)
        if (mk->seen[i] == key)
            return true;
    return false;
}

static void emit(Maker *mk, EpdPosition *p, const char *comment)
{
    mk->seen[mk->made] = p->pos.key;
    static const char *const kinds[] = {"race", "arrival", "deadline", "chain"};
    snprintf(p->id, sizeof p->id, "%s-%s.%03d", kinds[mk->kind], mk->v->name, mk->made + 1);
    snprintf(p->comment, sizeof p->comment, "%s", comment);
    fen_write(&p->pos, p->fen);
    p->v = mk->v;
    epd_write(stdout, p);
    putchar('\n');
    fflush(stdout);
    mk->made++;
}

/* Race: every legal move's fewest own moves to arrive after it, by the solver
 * on the army alone; the moves that keep the least are bm. */
static bool keep_race(const Game *g, void *ctx)
{
    Maker *mk = ctx;
    const Position *p = &g->pos;
    if (!race_separated(p) || g->nplies < mk->last_ply + 3 || taken(mk, p->key))
        return false;
    const int s = p->stm, o = p->v->seats[p->v->seats[0] == s];
    MoveList list = {0};
    gen_moves(p, &list, NULL);
    EpdPosition e = {.pos = *p};
    int best = RACE_MAX_MOVES + 1, need[512];
    bool ok = list.n > 1 && list.n <= 512;
    for (int i = 0; i < list.n && ok; i++) {
        Position c = *p;
        pos_play(&c, &list.m[i]);
        race_remove_army(&c, o);
        const int n = c.status[s] == ST_ARRIVED ? 0 : race_solve(&c, s, RACE_MAX_MOVES, MAKE_TABLE_MIB, MAKE_NODES, NULL, NULL, NULL);
        ok = n >= 0;
        need[i] = n + 1;
        best = need[i] < best ? need[i] : best;
    }
    for (int i = 0; i < list.n && ok; i++)
        if (need[i] == best && e.nbm < EPD_MAX_MOVES)
            e.bm[e.nbm++] = list.m[i];
    if (ok && best >= 2 && e.nbm < list.n) {
        char c[128];
        snprintf(c, sizeof c, "race solver: %d own moves to arrive, kept by %d of %d moves", best, e.nbm, list.n);
        emit(mk, &e, c);
        mk->last_ply = g->nplies;
    }
    move_list_free(&list);
    return mk->made >= mk->count;
}

/* Arrival: the side to move has a move that arrives. */
static bool keep_arrival(const Game *g, void *ctx)
{
    Maker *mk = ctx;
    const Position *p = &g->pos;
    if (taken(mk, p->key))
        return false;
    gen_moves(p, mk->list, NULL);
    EpdPosition e = {.pos = *p};
    for (int i = 0; i < mk->list->n && e.nbm < EPD_MAX_MOVES; i++) {
        Position c = *p;
        pos_play(&c, &mk->list->m[i]);
        if (c.status[p->stm] == ST_ARRIVED)
            e.bm[e.nbm++] = mk->list->m[i];
    }
    if (e.nbm && e.nbm < mk->list->n) {
        char c[128];
        snprintf(c, sizeof c, "rules: %d of %d moves arrive", e.nbm, mk->list->n);
        emit(mk, &e, c);
        return true; /* one a game */
    }
    return false;
}

/* Deadline: the seat's own moves reach its deadline with this move, marbles
 * are still at home, and some moves (not all) eliminate it. */
static bool keep_deadline(const Game *g, void *ctx)
{
    Maker *mk = ctx;
    const Position *p = &g->pos;
    const int s = p->stm;
    if (p->moves[s] + 1 < p->v->deadline || !(p->seat_bb[s] & p->v->home[s]) || taken(mk, p->key))
        return false;
    gen_moves(p, mk->list, NULL);
    EpdPosition e = {.pos = *p};
    for (int i = 0; i < mk->list->n && e.nam < EPD_MAX_MOVES; i++) {
        Position c = *p;
        pos_play(&c, &mk->list->m[i]);
        if (c.status[s] == ST_ELIMINATED)
            e.am[e.nam++] = mk->list->m[i];
    }
    if (e.nam && e.nam < mk->list->n && e.nam < EPD_MAX_MOVES) {
        char c[128];
        snprintf(c, sizeof c, "rules: %d of %d moves eliminate the seat at its exit deadline", e.nam, mk->list->n);
        emit(mk, &e, c);
        return true;
    }
    return false;
}

/* Chain: the most captures a chain takes here, reached by fewer than half
 * the moves and by at least three pieces. */
static bool keep_chain(const Game *g, void *ctx)
{
    Maker *mk = ctx;
    const Position *p = &g->pos;
    if (g->nplies < mk->last_ply + 2 || taken(mk, p->key))
        return false;
    gen_moves(p, mk->list, NULL);
    int top = 0;
    for (int i = 0; i < mk->list->n; i++)
        top = mk->list->m[i].ncapt > top ? mk->list->m[i].ncapt : top;
    EpdPosition e = {.pos = *p};
    for (int i = 0; i < mk->list->n && e.nbm < EPD_MAX_MOVES; i++)
        if (mk->list->m[i].ncapt == top)
            e.bm[e.nbm++] = mk->list->m[i];
    if (top >= 3 && 2 * e.nbm < mk->list->n && e.nbm < EPD_MAX_MOVES) {
        char c[128];
        snprintf(c, sizeof c, "every chain listed: %d of %d moves take %d pieces, the most", e.nbm, mk->list->n, top);
        emit(mk, &e, c);
        mk->last_ply = g->nplies;
    }
    return mk->made >= mk->count;
}

/* Deadline suites need seats that dawdle: random moves for the seat to move
 * half the time, else greedy. */
static void play_dawdling(const Variant *v, Maker *mk)
{
    Game g;
    game_new(&g, v->name);
    while (!pos_over(&g.pos) && !keep_deadline(&g, mk)) {
        Move m;
        gen_moves_no_return(&g.pos, mk->list, NULL);
        if (!mk->list->n)
            return;
        if (rng_mmix(&rng) % 2)
            m = mk->list->m[rng_mmix(&rng) % (unsigned)mk->list->n];
        else if (!greedy_choose(&g.pos, g.keys, g.nplies + 1, mk->list, NULL, NULL, &m, NULL))
            return;
        if (game_play(&g, &m))
            return;
    }
}

static int make_suite(int argc, char **argv)
{
    static const char *const kinds[] = {"race", "arrival", "deadline", "chain"};
    long long count, seed = 1;
    int kind = -1;
    for (int k = 0; argc >= 5 && k < 4; k++)
        if (!strcmp(argv[2], kinds[k]))
            kind = k;
    if (kind < 0 || argc < 5 || argc > 6)
        fail("expected 'make race|arrival|deadline|chain VARIANT COUNT [SEED]'\n%s", usage_text);
    const Variant *v = variant_find(argv[3]);
    if (!v)
        fail("unknown variant '%s'", argv[3]);
    if (!args_int("stern-suite", "COUNT", argv[4], 1, MAKE_MAX, &count) ||
        (argc == 6 && !args_int("stern-suite", "SEED", argv[5], 0, 1LL << 62, &seed)))
        return 2;
    /* a team member's arrival can wait while it helps its partner (the team
     * moves less once it is out), so only seats on their own surely arrive */
    if ((kind == RACE && (v->nseats != 2 || v->capture || v->jump != JUMP_SHORT || v->masters)) ||
        (kind == ARRIVAL && v->teams) ||
        (kind == CHAIN) != v->capture)
        fail("'%s' suites are not made in %s", kinds[kind], v->name);
    rng = (uint64_t)seed;
    MoveList *list = move_list_new();
    Maker mk = {.count = (int)count, .kind = kind, .v = v, .list = list};
    static const Keep keeps[] = {keep_race, keep_arrival, keep_deadline, keep_chain};
    for (int games = 0; mk.made < mk.count && games < 100 * mk.count; games++) {
        mk.last_ply = -100;
        if (kind == DEADLINE)
            play_dawdling(v, &mk);
        else
            play_game(v, 2 + (int)(rng_mmix(&rng) % 7), keeps[kind], &mk, list);
    }
    move_list_delete(list);
    if (mk.made < mk.count)
        fprintf(stderr, "stern-suite: only %d positions found\n", mk.made);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "make"))
        return make_suite(argc, argv);
    Options o = {.concurrency = 1, .timeout_ms = 100 + SLACK_MS};
    snprintf(o.limit, sizeof o.limit, "movetime 100");
    args_sibling("stern", o.engine, sizeof o.engine);
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        long long x;
        if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "-v")) {
            o.verbose = true;
            continue;
        } else if (!val) {
            fail("%s needs a value\n%s", a, usage_text);
        } else if (!strcmp(a, "-depth") || !strcmp(a, "-nodes") || !strcmp(a, "-movetime")) {
            if (!args_int("stern-suite", a, val, 1, !strcmp(a, "-depth") ? 95 : 1000000000000LL, &x))
                return 2;
            snprintf(o.limit, sizeof o.limit, "%s %lld", a + 1, x);
            o.timeout_ms = !strcmp(a, "-movetime") ? (int)(x < 3600000 ? x : 3600000) + SLACK_MS : UNTIMED_MS;
        } else if (!strcmp(a, "-concurrency")) {
            if (!args_int("stern-suite", a, val, 1, 1024, &x))
                return 2;
            o.concurrency = (int)x;
        } else if (!strcmp(a, "-engine")) {
            snprintf(o.engine, sizeof o.engine, "%s", val);
        } else if (!strcmp(a, "-option")) {
            char *eq = strchr(argv[i + 1], '=');
            if (!eq || eq == argv[i + 1] || o.noptions == MAX_OPTIONS)
                fail("-option '%s': expected NAME=VALUE (at most %d options)", val, MAX_OPTIONS);
            *eq = 0;
            o.options[o.noptions++] = (EngineOption){argv[i + 1], eq + 1};
        } else {
            fail("unknown option '%s'\n%s", a, usage_text);
        }
        i++;
    }
    if (i == argc)
        fail("no suite given\n%s", usage_text);
    ep_kill_children_on_signals();
    return run_suites(&o, argv + i, argc - i);
}
