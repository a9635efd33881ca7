/*
 * datagen_main.c - stern-datagen: training positions for the learned
 * evaluation (docs/NNUE.md). Plays Stern against itself from random openings at
 * a fixed node budget per move, on as many threads as asked, and writes every
 * searched position with the search's score and the game's outcome to a file
 * of the format below. The file depends only on its arguments (not on -threads
 * or timing): game i is played from seed + i by a one-thread search on a new
 * game's tables, and games are written in order. A killed run resumes with
 * -resume; the header is rewritten after each whole game, so a kill loses at
 * most the games not yet written.
 *
 * Positions the search did not score are left out: mate scores, those the race
 * solver answered, and the random opening's. A game ends when the armies are
 * past each other (race_separated): the race is then adjudicated (each army
 * solved alone, race_outcome), and the rest of it is not a value to learn. No
 * book is consulted.
 *
 * File (little-endian): a 1024-byte header, then 64-byte records.
 *   header: "STERNDAT", u32 version (1), u32 record bytes (64), variant name
 *   (24 bytes, NUL-padded), u64 seed, u32 nodes per move, u32 random plies,
 *   u64 games written, u64 records, u64 XXH3-64 of the record bytes, the seat
 *   count (u8) and the seats in turn order (6 bytes), zeros to byte 128, then the board from each seat's view (6 x 121 bytes:
 *   nnue_hole(s, h)), zeros to 1024.
 *   record: holes 0-120 as 4-bit cells, two to a byte, the even hole in the low
 *   nibble (0 empty, seat + 1, 7 a capture-mode piece); a byte with the side to
 *   move (low 4 bits) and its outcome (high 4 bits: two seats 0 loss, 1 draw,
 *   2 win; three or more, its place - 1); the score, int16, the side to move's
 *   view in centi-moves.
 */
#include "args.h"
#include "eval.h"
#include "game.h"
#include "movegen.h"
#include "nnue.h"
#include "race.h"
#include "rng.h"
#include "session.h"
#include "work_queue.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#define TOOL "stern-datagen"
#define HEADER 1024
#define RECORD 64
#define VERSION 1
#define WINDOW 64 /* games finished ahead of the next one to write */

static const char usage[] =
    "usage: stern-datagen -o FILE [-variant V] [-games N] [-nodes N] [-random N] [-seed N] [-threads N] [-resume]\n"
    "  -o FILE      the data file (refused when it exists, unless -resume)\n"
    "  -variant V   variant (default classic-2; two-seat race variants)\n"
    "  -games N     games in the whole file (default 1000)\n"
    "  -nodes N     nodes per move (default 2000)\n"
    "  -random N    random plies opening each game (default 8)\n"
    "  -seed N      seed of game 0 (default 1)\n"
    "  -threads N   games played at once (default: the CPUs)\n"
    "  -resume      continue FILE, written with the same arguments\n";

typedef struct {
    uint8_t *bytes; /* records */
    size_t n;       /* records */
    bool done;
} GameData;

typedef struct Run {
    const Variant *v;
    uint64_t seed;
    long long games, nodes, random;
    FILE *f;
    XXH3_state_t *sum;
    uint64_t records;
    pthread_mutex_t lock;
    pthread_cond_t room;
    long long first, written; /* the first game of this run; the games written */
    struct Player *players;   /* one a thread */
    GameData pending[WINDOW];
    bool failed;
} Run;

static void put32(uint8_t *b, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(x >> (8 * i));
}
static void put64(uint8_t *b, uint64_t x)
{
    put32(b, (uint32_t)x);
    put32(b + 4, (uint32_t)(x >> 32));
}
static uint32_t get32(const uint8_t *b) { return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24; }
static uint64_t get64(const uint8_t *b) { return get32(b) | (uint64_t)get32(b + 4) << 32; }

static void make_header(const Run *r, uint8_t *h)
{
    memset(h, 0, HEADER);
    memcpy(h, "STERNDAT", 8);
    put32(h + 8, VERSION);
    put32(h + 12, RECORD);
    memcpy(h + 16, r->v->name, strnlen(r->v->name, 23));
    put64(h + 40, r->seed);
    put32(h + 48, (uint32_t)r->nodes);
    put32(h + 52, (uint32_t)r->random);
    put64(h + 56, (uint64_t)r->written);
    put64(h + 64, r->records);
    put64(h + 72, XXH3_64bits_digest(r->sum));
    h[80] = (uint8_t)r->v->nseats;
    for (int i = 0; i < r->v->nseats; i++)
        h[81 + i] = (uint8_t)r->v->seats[i];
    for (int s = 0; s < MAX_SEATS; s++)
        for (int hole = 0; hole < NUM_HOLES; hole++)
            h[128 + s * NUM_HOLES + hole] = (uint8_t)nnue_hole(s, hole);
}

static void encode(const Position *p, int score, uint8_t *rec)
{
    memset(rec, 0, RECORD);
    for (int h = 0; h < NUM_HOLES; h++)
        rec[h / 2] |= (uint8_t)((p->board[h] & 15) << (h % 2 ? 4 : 0));
    rec[61] = (uint8_t)p->stm;
    rec[62] = (uint8_t)(score & 255);
    rec[63] = (uint8_t)((score >> 8) & 255);
}

/* Outcome of seat s in the finished position q (the record's high nibble). */
static int outcome(const Position *q, int s)
{
    const Variant *v = q->v;
    if (v->nseats == 2) {
        const int o = v->seats[1 - v->slot[s]];
        return q->place[s] < q->place[o] ? 2 : q->place[s] == q->place[o] ? 1 : 0;
    }
    return q->place[s] - 1;
}

typedef struct {
    bool race;
} Seen;

static void on_report(const SearchReport *rep, void *ctx)
{
    if (rep->kind == REPORT_RACE_SOLVED)
        ((Seen *)ctx)->race = true;
}

#define RACE_NODES 200000 /* the adjudicating solver's positions per army */

/* The outcome (2 win, 1 draw, 0 loss) of the race in p (race_separated) for
 * its side to move: each army solved alone within RACE_NODES, or, when either
 * is not solved in time, both armies' lower bounds compared instead. */
static int race_adjudicate(const Position *p)
{
    const Variant *v = p->v;
    const int stm = p->stm, other = v->seats[1 - v->slot[stm]];
    int need[2];
    const int seat[2] = {stm, other};
    bool exact = true;
    for (int i = 0; i < 2; i++) {
        Position alone = *p;
        race_remove_army(&alone, seat[1 - i]);
        need[i] = race_solve(&alone, seat[i], RACE_MAX_MOVES, 8, RACE_NODES, NULL, NULL, NULL);
        exact = exact && need[i] >= 0;
    }
    if (!exact)
        for (int i = 0; i < 2; i++)
            need[i] = race_lower_bound(p, seat[i]);
    int plies;
    return race_outcome(v, stm, need[0], need[1], &plies) + 1;
}

/* Plays game i into *out (records malloc'ed). False when memory ran out. */
static bool play_game(const Run *r, long long i, SearchSession *ses, Game *g, MoveList *list, GameData *out)
{
    uint64_t rng = r->seed + (uint64_t)i * 0x2545f4914f6cdd1dULL;
    game_new(g, r->v->name);
    session_new_game(ses);
    for (long long k = 0; k < r->random && !pos_over(&g->pos); k++) {
        gen_moves(&g->pos, list, NULL);
        if (!list->n)
            break;
        game_play(g, &list->m[rng_next(&rng) % (uint64_t)list->n]);
    }
    size_t cap = 256, n = 0;
    uint8_t *bytes = malloc(cap * RECORD);
    if (!bytes)
        return false;
    SearchLimits lim;
    search_limits_init(&lim);
    lim.nodes = (uint64_t)r->nodes;
    const SearchConfig cfg = {.algo = ALGO_AUTO, .multipv = 1};
    int solved = -1, solved_seat = -1; /* the race solver's outcome for solved_seat */
    while (!pos_over(&g->pos)) {
        if (race_separated(&g->pos)) {
            solved = race_adjudicate(&g->pos);
            solved_seat = g->pos.stm;
            break;
        }
        SearchSignals sig = {0};
        Seen seen = {false};
        const SearchResult res = session_search(ses, g, &lim, &cfg, &sig, on_report, &seen);
        if (!res.has_best)
            break;
        if (seen.race) {
            /* the solved race decides the game: the rest is the solver's line */
            solved = res.score > 0 ? 2 : res.score < 0 ? 0 : 1;
            solved_seat = g->pos.stm;
            break;
        }
        if (res.score < SCORE_MATE_BOUND && res.score > -SCORE_MATE_BOUND) {
            if (n == cap) {
                uint8_t *grown = realloc(bytes, cap * 2 * RECORD);
                if (!grown) {
                    free(bytes);
                    return false;
                }
                bytes = grown;
                cap *= 2;
            }
            encode(&g->pos, res.score, bytes + n++ * RECORD); /* the root seat: the side to move */
        }
        if (game_play(g, &res.best))
            break;
    }
    for (size_t k = 0; k < n; k++) {
        uint8_t *rec = bytes + k * RECORD;
        const int o = solved < 0 ? outcome(&g->pos, rec[61]) : rec[61] == solved_seat ? solved : 2 - solved;
        rec[61] |= (uint8_t)(o << 4);
    }
    out->bytes = bytes;
    out->n = n;
    return true;
}

/* Writes the finished games in order, then the header. Caller holds r->lock. */
static void flush_ready(Run *r)
{
    bool wrote = false;
    while (!r->failed && r->pending[r->written % WINDOW].done) {
        GameData *d = &r->pending[r->written % WINDOW];
        if (d->n && fwrite(d->bytes, RECORD, d->n, r->f) != d->n)
            r->failed = true;
        XXH3_64bits_update(r->sum, d->bytes, d->n * RECORD);
        r->records += d->n;
        free(d->bytes);
        *d = (GameData){0};
        r->written++;
        wrote = true;
    }
    if (!wrote)
        return;
    uint8_t h[HEADER];
    make_header(r, h);
    const long end = ftell(r->f);
    if (fflush(r->f) || fseek(r->f, 0, SEEK_SET) || fwrite(h, 1, HEADER, r->f) != HEADER || fflush(r->f) ||
        fseek(r->f, end, SEEK_SET))
        r->failed = true;
    pthread_cond_broadcast(&r->room);
}

/* What a thread keeps from game to game: a one-thread search and its tables. */
typedef struct Player {
    SearchSession *ses;
    Game *g;
    MoveList *list;
} Player;

/* Game `job` of this run (the games after those written before it), played on
 * `thread`'s search once fewer than WINDOW games wait to be written before it;
 * written in order as they finish. Returns 1 (no more games) when writing or
 * memory failed. */
static int play_job(void *ctx, long job, int thread)
{
    Run *r = ctx;
    Player *p = &r->players[thread];
    const long long i = r->first + job;
    bool made = true;
    if (!p->ses) { /* the thread's first game */
        p->ses = session_new(16, 1);
        p->g = malloc(sizeof *p->g);
        p->list = move_list_new();
        made = p->ses && p->g && p->list;
    }
    pthread_mutex_lock(&r->lock);
    r->failed |= !made;
    while (!r->failed && i >= r->written + WINDOW)
        pthread_cond_wait(&r->room, &r->lock);
    const bool failed = r->failed;
    pthread_mutex_unlock(&r->lock);
    if (failed)
        return 1;
    GameData d = {0};
    const bool ok = play_game(r, i, p->ses, p->g, p->list, &d);
    pthread_mutex_lock(&r->lock);
    if (!ok) { /* the games before it are written; -resume plays it again */
        r->failed = true;
        pthread_cond_broadcast(&r->room);
    } else {
        d.done = true;
        r->pending[i % WINDOW] = d;
        flush_ready(r);
    }
    pthread_mutex_unlock(&r->lock);
    return !ok;
}

/* Opens an existing file to continue: checks its header against r, its
 * records' checksum, and cuts any records after the last whole game. */
static void resume(Run *r, const char *path)
{
    r->f = fopen(path, "r+b");
    if (!r->f)
        args_die(TOOL, "cannot open %s: %s", path, strerror(errno));
    uint8_t h[HEADER], want[HEADER];
    if (fread(h, 1, HEADER, r->f) != HEADER || memcmp(h, "STERNDAT", 8))
        args_die(TOOL, "%s: not a stern-datagen file", path);
    r->written = (long long)get64(h + 56);
    r->records = get64(h + 64);
    if (r->written < 0 || r->written > 100000000 || r->records > ((uint64_t)1 << 40))
        args_die(TOOL, "%s: a damaged header (%lld games, %llu records)", path, r->written,
                 (unsigned long long)r->records);
    XXH3_64bits_reset(r->sum);
    uint8_t buf[RECORD * 256];
    for (uint64_t k = 0; k < r->records;) {
        const size_t take = r->records - k < 256 ? (size_t)(r->records - k) : 256;
        if (fread(buf, RECORD, take, r->f) != take)
            args_die(TOOL, "%s: truncated: the header counts %llu records", path, (unsigned long long)r->records);
        XXH3_64bits_update(r->sum, buf, take * RECORD);
        k += take;
    }
    make_header(r, want);
    if (memcmp(h, want, 56))
        args_die(TOOL, "%s was written with other arguments (variant, seed, nodes or random plies)", path);
    if (get64(h + 72) != XXH3_64bits_digest(r->sum))
        args_die(TOOL, "%s: checksum mismatch (the records are damaged)", path);
    const long end = (long)(HEADER + r->records * RECORD);
    if (ftruncate(fileno(r->f), end) || fseek(r->f, end, SEEK_SET))
        args_die(TOOL, "%s: cannot cut after the last whole game", path);
}

int main(int argc, char **argv)
{
    if (args_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    const char *out = NULL, *variant = "classic-2";
    long long games = 1000, nodes = 2000, random = 8, seed = 1, threads = sysconf(_SC_NPROCESSORS_ONLN);
    bool resuming = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bool has = i + 1 < argc;
        if (args_is(a, "resume"))
            resuming = true;
        else if (!has)
            args_die(TOOL, "%s needs a value (or is unknown)\n%s", a, usage);
        else if (args_is(a, "o"))
            out = argv[++i];
        else if (args_is(a, "variant"))
            variant = argv[++i];
        else if (args_is(a, "games")) {
            if (!args_int(TOOL, "-games", argv[++i], 1, 100000000, &games))
                return 2;
        } else if (args_is(a, "nodes")) {
            if (!args_int(TOOL, "-nodes", argv[++i], 1, 100000000, &nodes))
                return 2;
        } else if (args_is(a, "random")) {
            if (!args_int(TOOL, "-random", argv[++i], 0, 200, &random))
                return 2;
        } else if (args_is(a, "seed")) {
            if (!args_int(TOOL, "-seed", argv[++i], 0, (1LL << 62), &seed))
                return 2;
        } else if (args_is(a, "threads")) {
            if (!args_int(TOOL, "-threads", argv[++i], 1, 256, &threads))
                return 2;
        } else
            args_die(TOOL, "unknown argument '%s'\n%s", a, usage);
    }
    if (!out)
        args_die(TOOL, "-o FILE is required\n%s", usage);
    Run r = {.v = variant_find(variant), .seed = (uint64_t)seed, .games = games, .nodes = nodes, .random = random};
    if (!r.v)
        args_die(TOOL, "unknown variant '%s'", variant);
    if (r.v->nseats != 2 || r.v->capture)
        args_die(TOOL, "%s: only two-seat race variants have a learned evaluation so far", variant);
    r.sum = XXH3_createState();
    XXH3_64bits_reset(r.sum);
    if (resuming && access(out, F_OK) == 0) {
        resume(&r, out);
    } else {
        if (!resuming && access(out, F_OK) == 0)
            args_die(TOOL, "%s exists: give -resume to continue it, or another name", out);
        r.f = fopen(out, "w+b");
        if (!r.f)
            args_die(TOOL, "cannot create %s: %s", out, strerror(errno));
        uint8_t h[HEADER];
        make_header(&r, h);
        if (fwrite(h, 1, HEADER, r.f) != HEADER || fflush(r.f))
            args_die(TOOL, "cannot write %s", out);
    }
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.room, NULL);
    r.first = r.written;
    r.players = calloc((size_t)threads, sizeof *r.players);
    const bool started = r.players && !work_queue_run(r.games - r.first, (int)threads, play_job, &r);
    for (int t = 0; r.players && t < threads; t++) {
        move_list_delete(r.players[t].list);
        free(r.players[t].g);
        session_delete(r.players[t].ses);
    }
    free(r.players);
    const bool ok = started && !r.failed && !fclose(r.f);
    XXH3_freeState(r.sum);
    if (!ok) {
        fprintf(stderr, "%s: failed writing %s (out of memory or disk); -resume continues it\n", TOOL, out);
        return 1;
    }
    printf("%s: %lld games, %llu positions in %s\n", TOOL, r.written, (unsigned long long)r.records, out);
    return 0;
}
