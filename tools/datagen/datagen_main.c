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
 * Three to six seats (format 3): the default search of the variant plays every
 * seat, each position is written with every seat's hand-written standing,
 * there and at the leaf of the search's line (the trainer's teachers), and the game is played to its end: every seat's
 * final place is written into each of its positions. A run can be split into
 * shards (-shard K/N: the games g with g % N == K, or -shard auto from a Slurm
 * array's task), whose files -merge joins into the file one process writes,
 * byte for byte. -net plays with a learned evaluation (generation k + 1's
 * data is played by generation k's net); the header names the engine and the
 * net, and -resume refuses a file another engine or net began. -teacher net
 * writes that net's standings where the hand-written ones are by default, so
 * that a generation's teacher is the evaluation that played it.
 *
 * The file format is in records.h.
 */
#include "args.h"
#include "datafile.h"
#include "eval.h"
#include "game.h"
#include "merge.h"
#include "movegen.h"
#include "nnue.h"
#include "race.h"
#include "records.h"
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
#define WINDOW 64 /* games finished ahead of the next one to write */

static const char usage[] =
    "usage: stern-datagen -o FILE [-variant V] [-games N] [-nodes N] [-random N] [-seed N] [-threads N]\n"
    "                     [-net FILE [-teacher hand|net]] [-shard K/N|auto] [-resume]\n"
    "       stern-datagen -merge -o FILE SHARD...\n"
    "  -o FILE      the data file (refused when it exists, unless -resume)\n"
    "  -variant V   variant (default classic-2; race variants without teams)\n"
    "  -games N     games in the whole run (default 1000)\n"
    "  -nodes N     nodes per move (default 2000)\n"
    "  -random N    random plies opening each game (default 8)\n"
    "  -seed N      seed of game 0 (default 1)\n"
    "  -threads N   games played at once (default: the CPUs)\n"
    "  -net FILE    the learned evaluation the games are played with (default: none)\n"
    "  -teacher T   whose standings the records hold (three or more seats): hand, the\n"
    "               hand-written evaluation's (default), or net, -net's\n"
    "  -shard K/N   play the games g with g %% N == K of the run (three or more seats);\n"
    "               auto: K and N of a Slurm array task (SLURM_ARRAY_TASK_ID, _MIN, _COUNT)\n"
    "  -resume      continue FILE, written with the same arguments, engine and net\n"
    "  -merge       join the shards of a run into the file one process writes\n";

typedef struct {
    uint8_t *bytes; /* records */
    size_t n;       /* records */
    bool done;
} GameData;

/* What a thread keeps from game to game: a one-thread search and its tables. */
typedef struct Player {
    SearchSession *ses;
    Game *g;
    MoveList *list;
    EvalMemo *teacher; /* -teacher net: a memo with the net; NULL: the hand-written standings */
} Player;

typedef struct Run {
    RecordsHeader h;          /* the file's header: the run's arguments and what is written */
    const Nnue *net;          /* -net's, or NULL */
    SearchConfig cfg;         /* the search every seat plays: the variant's default, with net */
    FILE *f;
    XXH3_state_t *sum;
    pthread_mutex_t lock;
    pthread_cond_t room;
    long long first;          /* the first of this shard's games this run plays */
    struct Player *players;   /* one a thread */
    GameData pending[WINDOW];
    bool failed;
} Run;

static void write_header(Run *r, uint8_t *b)
{
    r->h.checksum = XXH3_64bits_digest(r->sum);
    records_header_write(&r->h, b);
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

#define PV_KEEP 64 /* plies of a search's line kept for its leaf (format 3) */

/* What a search reported: a solved race, and the whole of the last first
 * line it reported (linelen, not the legal prefix: a best-reply line leaves
 * the turn order at its first reply): the line its best move and score came
 * from. */
typedef struct {
    bool race;
    Move pv[PV_KEEP];
    int pvlen;
} Seen;

static void on_report(const SearchReport *rep, void *ctx)
{
    Seen *seen = ctx;
    if (rep->kind == REPORT_RACE_SOLVED)
        seen->race = true;
    if (rep->kind == REPORT_LINE && rep->multipv == 1) {
        seen->pvlen = rep->linelen < PV_KEEP ? rep->linelen : PV_KEEP;
        memcpy(seen->pv, rep->pv, (size_t)seen->pvlen * sizeof *seen->pv);
    }
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

/* Opens game g (its number in the run) with the run's random plies. */
static void open_game(const Run *r, long long g, Game *game, MoveList *list)
{
    uint64_t rng = r->h.seed + (uint64_t)g * 0x2545f4914f6cdd1dULL;
    game_new(game, r->h.v->name);
    for (long long k = 0; k < r->h.random && !pos_over(&game->pos); k++) {
        gen_moves(&game->pos, list, NULL);
        if (!list->n)
            break;
        game_play(game, &list->m[rng_next(&rng) % (uint64_t)list->n]);
    }
}

/* Opens game g on a new game's tables, with the run's node limit in *lim and
 * room for `cap` records in *out. False when memory ran out. */
static bool start_game(const Run *r, long long g, SearchSession *ses, Game *game, MoveList *list, SearchLimits *lim,
                       GameData *out, size_t cap)
{
    open_game(r, g, game, list);
    session_new_game(ses);
    search_limits_init(lim);
    lim->nodes = (uint64_t)r->h.nodes;
    out->bytes = malloc(cap * (size_t)r->h.record);
    return out->bytes != NULL;
}

/* Appends room for one record to *out (its bytes grown as needed); NULL when
 * memory ran out. */
static uint8_t *next_record(GameData *out, size_t *cap, int record)
{
    if (out->n == *cap) {
        uint8_t *grown = realloc(out->bytes, *cap * 2 * (size_t)record);
        if (!grown)
            return NULL;
        out->bytes = grown;
        *cap *= 2;
    }
    return out->bytes + out->n++ * (size_t)record;
}

/* Plays two-seat game g into *out (records malloc'ed). False when memory ran out. */
static bool play_game_duo(const Run *r, long long g, SearchSession *ses, Game *game, MoveList *list, GameData *out)
{
    size_t cap = 256;
    SearchLimits lim;
    if (!start_game(r, g, ses, game, list, &lim, out, cap))
        return false;
    int solved = -1, solved_seat = -1; /* the race solver's outcome for solved_seat */
    while (!pos_over(&game->pos)) {
        if (race_separated(&game->pos)) {
            solved = race_adjudicate(&game->pos);
            solved_seat = game->pos.stm;
            break;
        }
        SearchSignals sig = {0};
        Seen seen = {false};
        const SearchResult res = session_search(ses, game, &lim, &r->cfg, &sig, on_report, &seen);
        if (!res.has_best)
            break;
        if (seen.race) {
            /* the solved race decides the game: the rest is the solver's line */
            solved = res.score > 0 ? 2 : res.score < 0 ? 0 : 1;
            solved_seat = game->pos.stm;
            break;
        }
        if (res.score < SCORE_MATE_BOUND && res.score > -SCORE_MATE_BOUND) {
            uint8_t *rec = next_record(out, &cap, RECORDS_V1);
            if (!rec)
                return false;
            records_encode_v1(&game->pos, res.score, rec); /* the root seat: the side to move */
        }
        if (game_play(game, &res.best))
            break;
    }
    for (size_t k = 0; k < out->n; k++) {
        uint8_t *rec = out->bytes + k * RECORDS_V1;
        const int o = solved < 0 ? outcome(&game->pos, rec[61]) : rec[61] == solved_seat ? solved : 2 - solved;
        rec[61] |= (uint8_t)(o << 4);
    }
    return true;
}

/* Plays game g of three to six seats into *out, to its end: every position the
 * search scored (not a mate), with every seat's final place. A game that
 * cannot end (no move found) leaves no records. False when memory ran out. */
static bool play_game_multi(const Run *r, long long g, Player *pl, GameData *out)
{
    SearchSession *ses = pl->ses;
    Game *game = pl->g;
    MoveList *list = pl->list;
    size_t cap = 256;
    SearchLimits lim;
    if (!start_game(r, g, ses, game, list, &lim, out, cap))
        return false;
    while (!pos_over(&game->pos)) {
        SearchSignals sig = {0};
        Seen seen = {false}; /* its line: a solved race is played out, every seat's place counts */
        const SearchResult res = session_search(ses, game, &lim, &r->cfg, &sig, on_report, &seen);
        if (!res.has_best)
            break;
        if (res.score < SCORE_MATE_BOUND && res.score > -SCORE_MATE_BOUND) {
            uint8_t *rec = next_record(out, &cap, RECORDS_V3);
            if (!rec)
                return false;
            Position leaf;
            const int depth = records_line_leaf(&game->pos, seen.pv, seen.pvlen, &leaf);
            records_encode_v3(&game->pos, res.score, &leaf, depth, g, game->nplies, pl->teacher, rec);
        }
        if (game_play(game, &res.best))
            break;
    }
    if (!pos_over(&game->pos))
        out->n = 0;
    for (size_t k = 0; k < out->n; k++)
        records_set_places(&game->pos, out->bytes + k * RECORDS_V3);
    return true;
}

/* Writes the finished games in order, then the header. Caller holds r->lock. */
static void flush_ready(Run *r)
{
    bool wrote = false;
    const size_t record = (size_t)r->h.record;
    while (!r->failed && r->pending[r->h.written % WINDOW].done) {
        GameData *d = &r->pending[r->h.written % WINDOW];
        if (d->n && fwrite(d->bytes, record, d->n, r->f) != d->n)
            r->failed = true;
        XXH3_64bits_update(r->sum, d->bytes, d->n * record);
        r->h.records += d->n;
        free(d->bytes);
        *d = (GameData){0};
        r->h.written++;
        wrote = true;
    }
    if (!wrote)
        return;
    uint8_t h[RECORDS_HEADER];
    write_header(r, h);
    const long end = ftell(r->f);
    if (fflush(r->f) || fseek(r->f, 0, SEEK_SET) || fwrite(h, 1, RECORDS_HEADER, r->f) != RECORDS_HEADER ||
        fflush(r->f) || fseek(r->f, end, SEEK_SET))
        r->failed = true;
    pthread_cond_broadcast(&r->room);
}

/* This shard's game `job` of this run (the games after those written before
 * it), played on `thread`'s search once fewer than WINDOW games wait to be
 * written before it; written in order as they finish. Returns 1 (no more
 * games) when writing or memory failed. */
static int play_job(void *ctx, long job, int thread)
{
    Run *r = ctx;
    Player *p = &r->players[thread];
    const long long i = r->first + job; /* among this shard's games */
    bool made = true;
    if (!p->ses) { /* the thread's first game */
        p->ses = session_new(16, 1);
        p->g = malloc(sizeof *p->g);
        p->list = move_list_new();
        made = p->ses && p->g && p->list;
        if (made && r->h.teacher == RECORDS_TEACHER_NET) {
            p->teacher = eval_memo_new();
            made = p->teacher && eval_memo_set_net(p->teacher, r->net);
        }
    }
    pthread_mutex_lock(&r->lock);
    r->failed |= !made;
    while (!r->failed && i >= r->h.written + WINDOW)
        pthread_cond_wait(&r->room, &r->lock);
    const bool failed = r->failed;
    pthread_mutex_unlock(&r->lock);
    if (failed)
        return 1;
    GameData d = {0};
    const long long g = records_game_number(&r->h, i);
    const bool ok = r->h.version == 1 ? play_game_duo(r, g, p->ses, p->g, p->list, &d)
                                      : play_game_multi(r, g, p, &d);
    pthread_mutex_lock(&r->lock);
    if (!ok) { /* the games before it are written; -resume plays it again */
        free(d.bytes);
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

/* Opens an existing file to continue: checks its header against r (the
 * arguments, the engine and the net), its records' checksum, and cuts any
 * records after the last whole game. */
static void resume(Run *r, const char *path)
{
    r->f = fopen(path, "r+b");
    if (!r->f)
        args_die(TOOL, "cannot open %s: %s", path, strerror(errno));
    uint8_t b[RECORDS_HEADER];
    RecordsHeader was;
    char err[256] = "no whole header";
    if (fread(b, 1, RECORDS_HEADER, r->f) != RECORDS_HEADER || !records_header_read(b, &was, err, sizeof err))
        args_die(TOOL, "%s: %s", path, err);
    const RecordsHeader *h = &r->h;
    if (was.version != h->version)
        args_die(TOOL, "%s is data format %d, this build writes format %d: start a new file", path, was.version,
                 h->version);
    if (was.v != h->v || was.seed != h->seed || was.nodes != h->nodes || was.random != h->random ||
        was.shard != h->shard || was.shards != h->shards || was.teacher != h->teacher)
        args_die(TOOL, "%s was written with other arguments (variant, seed, nodes, random plies, shard or teacher)",
                 path);
    if (strcmp(was.engine, h->engine))
        args_die(TOOL, "%s was written by another engine (%s; this is %s): its games are not this engine's to "
                 "continue; start a new file", path, was.engine[0] ? was.engine : "unnamed", h->engine);
    if (strcmp(was.net, h->net))
        args_die(TOOL, "%s was played with net %s, not %s: start a new file", path, was.net[0] ? was.net : "unnamed",
                 h->net);
    r->h.written = was.written;
    r->h.records = was.records;
    XXH3_64bits_reset(r->sum);
    uint8_t buf[RECORDS_V3 * 256];
    const size_t record = (size_t)h->record;
    for (uint64_t k = 0; k < was.records;) {
        const size_t take = was.records - k < 256 ? (size_t)(was.records - k) : 256;
        if (fread(buf, record, take, r->f) != take)
            args_die(TOOL, "%s: truncated: the header counts %llu records", path, (unsigned long long)was.records);
        XXH3_64bits_update(r->sum, buf, take * record);
        k += take;
    }
    if (was.checksum != XXH3_64bits_digest(r->sum))
        args_die(TOOL, "%s: checksum mismatch (the records are damaged)", path);
    const long end = (long)(RECORDS_HEADER + was.records * record);
    if (ftruncate(fileno(r->f), end) || fseek(r->f, end, SEEK_SET))
        args_die(TOOL, "%s: cannot cut after the last whole game", path);
}

/* -shard K/N, or auto: a Slurm array task's (its id from the array's first). */
static void parse_shard(const char *text, RecordsHeader *h)
{
    long long k, n;
    char tail;
    if (!strcmp(text, "auto")) {
        const char *id = getenv("SLURM_ARRAY_TASK_ID"), *min = getenv("SLURM_ARRAY_TASK_MIN"),
                   *count = getenv("SLURM_ARRAY_TASK_COUNT");
        if (!id || !count)
            args_die(TOOL, "-shard auto: not a Slurm array task (SLURM_ARRAY_TASK_ID and _COUNT unset)");
        k = atoll(id) - (min ? atoll(min) : 0);
        n = atoll(count);
    } else if (sscanf(text, "%lld/%lld%c", &k, &n, &tail) != 2) {
        args_die(TOOL, "-shard takes K/N (e.g. 0/4) or auto, not '%s'", text);
    }
    if (n < 1 || n > 100000 || k < 0 || k >= n)
        args_die(TOOL, "-shard %lld/%lld: K must be 0 to N-1 and N 1 to 100000", k, n);
    h->shard = k;
    h->shards = n;
}

/* -net FILE: the net, and its identity for the header ("NAME xxh3 HASH"). */
static const Nnue *load_net(const char *path, const Variant *v, char id[RECORDS_ID_MAX])
{
    char err[256];
    size_t n;
    uint8_t *bytes = datafile_read(path, NNUE_FILE_MAX, &n, err, sizeof err);
    Nnue *net = bytes ? nnue_from_bytes(bytes, n, err, sizeof err) : NULL;
    if (!net)
        args_die(TOOL, "-net %s: %s", path, err);
    if (!nnue_serves(net, v))
        args_die(TOOL, "-net %s is a net for %s, not for %s", path, nnue_variants(net), v->name);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(id, RECORDS_ID_MAX, "%.60s xxh3 %016llx", base, (unsigned long long)XXH3_64bits(bytes, n));
    free(bytes);
    return net;
}

/* Reads the command line into *r (its header's arguments), *out, *threads and
 * *net; returns whether -resume was given. -merge is handled by main. */
static bool parse_options(int argc, char **argv, Run *r, const char **out, long long *threads, const char **net)
{
    const char *teacher = "hand";
    const char *variant = "classic-2";
    long long games = 1000, nodes = 2000, random = 8, seed = 1;
    bool resuming = false;
    r->h.shards = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bool has = i + 1 < argc;
        if (args_is(a, "resume"))
            resuming = true;
        else if (!has)
            args_die(TOOL, "%s needs a value (or is unknown)\n%s", a, usage);
        else if (args_is(a, "o"))
            *out = argv[++i];
        else if (args_is(a, "variant"))
            variant = argv[++i];
        else if (args_is(a, "net"))
            *net = argv[++i];
        else if (args_is(a, "teacher"))
            teacher = argv[++i];
        else if (args_is(a, "shard"))
            parse_shard(argv[++i], &r->h);
        else if (args_is(a, "games")) {
            if (!args_int(TOOL, "-games", argv[++i], 1, 100000000, &games))
                exit(2);
        } else if (args_is(a, "nodes")) {
            if (!args_int(TOOL, "-nodes", argv[++i], 1, 100000000, &nodes))
                exit(2);
        } else if (args_is(a, "random")) {
            if (!args_int(TOOL, "-random", argv[++i], 0, 200, &random))
                exit(2);
        } else if (args_is(a, "seed")) {
            if (!args_int(TOOL, "-seed", argv[++i], 0, (1LL << 62), &seed))
                exit(2);
        } else if (args_is(a, "threads")) {
            if (!args_int(TOOL, "-threads", argv[++i], 1, 256, threads))
                exit(2);
        } else
            args_die(TOOL, "unknown argument '%s'\n%s", a, usage);
    }
    if (!*out)
        args_die(TOOL, "-o FILE is required\n%s", usage);
    r->h.v = variant_find(variant);
    if (!r->h.v)
        args_die(TOOL, "unknown variant '%s'", variant);
    if (r->h.v->capture || r->h.v->teams)
        args_die(TOOL, "%s: only race variants without teams have a learned evaluation so far", variant);
    r->h.version = records_version(r->h.v);
    if (strcmp(teacher, "hand") && strcmp(teacher, "net"))
        args_die(TOOL, "-teacher takes hand or net, not '%s'", teacher);
    r->h.teacher = strcmp(teacher, "net") ? RECORDS_TEACHER_HAND : RECORDS_TEACHER_NET;
    if (r->h.teacher == RECORDS_TEACHER_NET && (!*net || r->h.version == 1))
        args_die(TOOL, "-teacher net needs -net FILE and three or more seats (two-seat records hold the search's score)");
    r->h.record = r->h.version == 1 ? RECORDS_V1 : RECORDS_V3;
    if (r->h.version == 1 && r->h.shards > 1)
        args_die(TOOL, "-shard: two-seat data (format 1) is made in one process");
    r->h.seed = (uint64_t)seed;
    r->h.games = games;
    r->h.nodes = nodes;
    r->h.random = random;
    return resuming;
}

/* -merge -o FILE SHARD...: the shards' files joined (merge.h). */
static int merge_command(int argc, char **argv)
{
    const char *out = NULL;
    char **in = calloc((size_t)argc, sizeof *in);
    int n = 0;
    for (int i = 1; in && i < argc; i++) {
        if (args_is(argv[i], "merge"))
            continue;
        if (args_is(argv[i], "o") && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] == '-')
            args_die(TOOL, "-merge takes -o FILE and the shard files, not '%s'", argv[i]);
        else
            in[n++] = argv[i];
    }
    if (!out)
        args_die(TOOL, "-merge: -o FILE is required\n%s", usage);
    const int status = in ? merge_shards(out, in, n) : 1;
    free(in);
    return status;
}

/* Creates `out` (or continues it with -resume) for the run r. */
static void open_file(Run *r, const char *out, bool resuming)
{
    if (resuming && access(out, F_OK) == 0) {
        resume(r, out);
        return;
    }
    if (!resuming && access(out, F_OK) == 0)
        args_die(TOOL, "%s exists: give -resume to continue it, or another name", out);
    r->f = fopen(out, "w+b");
    if (!r->f)
        args_die(TOOL, "cannot create %s: %s", out, strerror(errno));
    uint8_t h[RECORDS_HEADER];
    write_header(r, h);
    if (fwrite(h, 1, RECORDS_HEADER, r->f) != RECORDS_HEADER || fflush(r->f))
        args_die(TOOL, "cannot write %s", out);
}

int main(int argc, char **argv)
{
    if (args_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++)
        if (args_is(argv[i], "merge"))
            return merge_command(argc, argv);
    const char *out = NULL, *net_path = NULL;
    long long threads = sysconf(_SC_NPROCESSORS_ONLN);
    Run r = {0};
    const bool resuming = parse_options(argc, argv, &r, &out, &threads, &net_path);
    records_engine_id(r.h.engine);
    snprintf(r.h.net, sizeof r.h.net, "none");
    if (net_path)
        r.net = load_net(net_path, r.h.v, r.h.net);
    r.cfg = (SearchConfig){.algo = ALGO_AUTO, .multipv = 1, .net = r.net};
    r.sum = XXH3_createState();
    XXH3_64bits_reset(r.sum);
    open_file(&r, out, resuming);
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.room, NULL);
    r.first = r.h.written;
    r.players = calloc((size_t)threads, sizeof *r.players);
    const long long mine = records_shard_games(&r.h);
    const bool started = r.players && !work_queue_run(mine > r.first ? mine - r.first : 0, (int)threads, play_job, &r);
    for (int t = 0; r.players && t < threads; t++) {
        move_list_delete(r.players[t].list);
        eval_memo_delete(r.players[t].teacher);
        free(r.players[t].g);
        session_delete(r.players[t].ses);
    }
    free(r.players);
    const bool ok = started && !r.failed && !fclose(r.f);
    XXH3_freeState(r.sum);
    nnue_delete((Nnue *)r.net);
    if (!ok) {
        fprintf(stderr, "%s: failed writing %s (out of memory or disk); -resume continues it\n", TOOL, out);
        return 1;
    }
    printf("%s: %lld games, %llu positions in %s\n", TOOL, r.h.written, (unsigned long long)r.h.records, out);
    return 0;
}
