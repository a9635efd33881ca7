/*
 * book_main.c - stern-book: builds, shows, merges, checks and teaches opening
 * books (engine/book/book.h, docs/BOOK.md).
 *
 *   build  expands the opening tree from a variant's start by searching every
 *          position with engine processes (MultiPV through the protocol), keeping
 *          the moves within a margin of the best, weighted by their scores
 *   pgn    builds from game records, weights from the results
 *   show   the moves of one position
 *   merge  several books into one, or the parts of a sharded build into its book
 *   stats  what a book holds
 *   verify a book's header, order and checksum, and every move legal in the
 *          positions reached from the start through the book
 *   learn  adds the results of game records to the learn values of their moves
 *
 * A build is reproducible: every position is searched from a clean state
 * (ucinewgame) to a node count on one thread, and the file is sorted. What a
 * position's search finds depends on that position alone (it is given as the
 * FEN of book_canonical, not as the line that reached it), so N tasks can each
 * build a shard of the tree on their own (-shard K/N) and the merge of their
 * parts is the book of one process.
 */
#include "args.h"
#include "book.h"
#include "book_part.h"
#include "engine_proc.h"
#include "fen.h"
#include "game.h"
#include "info_line.h"
#include "notation.h"
#include "pgn_read.h"
#include "shard.h"
#include "work_queue.h"

#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_OPTIONS 16
#define MAX_CONCURRENCY 64 /* engines searching a ply at once */
#define ENGINE_TIMEOUT_MS 600000 /* one position's search at most */
/* A sharded build shares out the first ply with this many positions per shard
 * (or the last ply): fewer would leave shards idle when their subtrees are
 * small, more would have every shard search more of the top of the tree. */
#define SPLIT_PER_SHARD 4

static const char usage[] =
    "usage: stern-book build -variant V -o FILE [-plies P] [-width K] [-margin CP] [-nodes N]\n"
    "                        [-concurrency C] [-engine CMD] [-option NAME=VALUE]...\n"
    "                        [-shard K/N|auto|auto/N [-split P]]\n"
    "       stern-book pgn -o FILE [-plies P] GAMES.pgn...\n"
    "       stern-book show FILE [startpos | fen FEN] [moves M...]\n"
    "       stern-book merge -o FILE BOOK...    (or PART...: the N parts of a sharded build)\n"
    "       stern-book stats FILE\n"
    "       stern-book verify FILE\n"
    "       stern-book learn FILE GAMES.pgn...\n"
    "build: -plies 10, -width 3 (moves searched per position, MultiPV), -margin 40 (cp\n"
    "below the best a move may be and stay), -nodes 100000 (per position),\n"
    "-concurrency 2 (engine processes), -engine: the stern beside this program;\n"
    "-option: sent to the engines (e.g. -option Search=brs).\n"
    "-shard K/N: write to FILE only shard K's part of the build (a text file), to be\n"
    "merged with the other N-1 into the book of the same build without -shard; auto:\n"
    "K and N from Slurm's SLURM_ARRAY_TASK_*, auto/N: N given (Kubernetes' indexed\n"
    "Jobs: K from JOB_COMPLETION_INDEX);\n"
    "-split P: the positions after P plies are shared out among the shards (default:\n"
    "the first ply with at least 4 per shard, or the last).\n"
    "pgn: -plies 20 (moves from each game's start; games from a FEN are skipped).\n";

static int fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "stern-book: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 1;
}

/* ---- build ---- */

typedef struct {
    char *moves;     /* a line from the start that reached it (for messages) */
    Position pos;    /* book_canonical: the one position of its key that is searched */
    uint64_t key;
    /* what the search found: up to `width` moves with their scores */
    int n;
    Move move[BOOK_MAX_MOVES];
    int score[BOOK_MAX_MOVES];
    bool failed;
    char error[EP_ERROR_MAX + 64];
} Job;

/* The engine of one thread of a ply's searches. */
typedef struct {
    EngineProc e;
    bool tried, started;
} Searcher;

typedef struct {
    const char *engine;
    EngineOption options[MAX_OPTIONS + 4];
    int noptions;
    int width;
    long long nodes;
    Job *jobs;
    int njobs;
    Searcher searchers[MAX_CONCURRENCY];
} Builder;

typedef struct {
    Job *job;
    char first[BOOK_MAX_MOVES][MOVE_STR_MAX]; /* each line's first move, by multipv */
    int score[BOOK_MAX_MOVES];
    int depth[BOOK_MAX_MOVES];
} Lines;

/* An info line of the search: keeps the deepest line of each multipv. */
static void on_line(const char *line, void *ctx)
{
    Lines *l = ctx;
    InfoLine in;
    if (!info_line_parse(line, &in) || !in.pv || in.multipv < 1 || in.multipv > BOOK_MAX_MOVES)
        return;
    const int k = in.multipv;
    char mv[MOVE_STR_MAX];
    if (in.depth < l->depth[k - 1] || sscanf(in.pv, "%127s", mv) != 1)
        return;
    snprintf(l->first[k - 1], MOVE_STR_MAX, "%s", mv);
    l->score[k - 1] = info_line_cp(&in);
    l->depth[k - 1] = in.depth;
}

/* Searches one position with engine e: fills the job's moves and scores. */
static void search_job(Builder *b, EngineProc *e, Job *j)
{
    static Lines zero;
    Lines *l = malloc(sizeof *l);
    if (!l) {
        j->failed = true;
        snprintf(j->error, sizeof j->error, "out of memory");
        return;
    }
    *l = zero;
    l->job = j;
    char *line, fen[FEN_MAX];
    if (ep_send(e, "ucinewgame") || ep_send(e, "position fen %s", fen_write(&j->pos, fen)) ||
        ep_send(e, "go nodes %lld", b->nodes) || ep_wait_token(e, "bestmove", ENGINE_TIMEOUT_MS, on_line, l, &line) != 1) {
        j->failed = true;
        snprintf(j->error, sizeof j->error, "engine: %s", e->error);
        free(l);
        return;
    }
    for (int k = 0; k < BOOK_MAX_MOVES && l->depth[k]; k++) {
        char err[256];
        if (move_parse(&j->pos, l->first[k], &j->move[j->n], err, sizeof err))
            continue; /* the engine's own fault; the rest stand */
        j->score[j->n++] = l->score[k];
    }
    free(l);
}

/* Searches position `job` of the ply with the engine of `thread`, started
 * with the build's options on the thread's first position. An engine that
 * cannot start fails the position, and the ply stops there (the build fails). */
static int build_job(void *ctx, long job, int thread)
{
    Builder *b = ctx;
    Searcher *s = &b->searchers[thread];
    Job *j = &b->jobs[job];
    if (!s->tried) {
        s->tried = true;
        s->started = !ep_start(&s->e, b->engine, -1) && !ep_handshake(&s->e, b->options, b->noptions, 30000);
        if (!s->started)
            ep_quit(&s->e, 1000);
    }
    if (!s->started) {
        j->failed = true;
        snprintf(j->error, sizeof j->error, "engine '%s': %s", b->engine, s->e.error);
        return 1;
    }
    search_job(b, &s->e, j);
    return 0;
}

/* Searches the ply's positions on `conc` engines. */
static void search_ply(Builder *b, Job *level, int nlevel, int conc)
{
    b->jobs = level;
    b->njobs = nlevel;
    memset(b->searchers, 0, sizeof b->searchers);
    if (work_queue_run(nlevel, conc, build_job, b))
        for (int i = 0; i < nlevel; i++) /* no thread to be had: one engine on this one */
            if (build_job(b, i, 0))
                break;
    for (int t = 0; t < conc; t++)
        if (b->searchers[t].started)
            ep_quit(&b->searchers[t].e, 5000);
}

/* Positions by key: an order that every shard of a build finds the same. */
static int by_key(const void *x, const void *y)
{
    const Job *a = x, *b = y;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* The path to stern beside this program (the build tree's or an install's). */
static void default_engine(char *out, size_t n)
{
    char exe[PATH_MAX];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        snprintf(out, n, "stern");
        return;
    }
    exe[len] = 0;
    snprintf(out, n, "%s/stern", dirname(exe));
}

/* Appends printf-style text to the build's settings (a part's record of the
 * options that decide its book); false when they do not fit. */
static bool __attribute__((format(printf, 2, 3))) settings_add(char *settings, const char *fmt, ...)
{
    const size_t len = strlen(settings);
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(settings + len, BOOK_PART_SETTINGS_MAX - len, fmt, ap);
    va_end(ap);
    return n >= 0 && len + (size_t)n < BOOK_PART_SETTINGS_MAX;
}

/* What `stern-book build` was asked for. */
typedef struct {
    const char *variant, *outpath;
    long long plies, width, margin, nodes, conc, want_split;
    int shard, nshards; /* no shard (0 of 0): the whole book */
    char engine[PATH_MAX + 8];
    char settings[BOOK_PART_SETTINGS_MAX]; /* what decides the book, for a part to be checked by */
} BuildOptions;

/* Reads build's arguments into *o and the engine's command and options into
 * *b. Returns 0, or the exit status after a message. */
static int parse_build(int argc, char **argv, BuildOptions *o, Builder *b)
{
    *o = (BuildOptions){.plies = 10, .width = 3, .margin = 40, .nodes = 100000, .conc = 2, .want_split = -1};
    default_engine(o->engine, sizeof o->engine);
    *b = (Builder){.engine = o->engine};
    static char optbuf[MAX_OPTIONS][512];
    for (int i = 0; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return fail("%s needs a value%s", a, "");
        bool ok = true;
        if (!strcmp(a, "-variant"))
            o->variant = v;
        else if (!strcmp(a, "-o"))
            o->outpath = v;
        else if (!strcmp(a, "-engine"))
            b->engine = v;
        else if (!strcmp(a, "-plies"))
            ok = args_int("stern-book", a, v, 1, 60, &o->plies);
        else if (!strcmp(a, "-width"))
            ok = args_int("stern-book", a, v, 1, BOOK_MAX_MOVES, &o->width);
        else if (!strcmp(a, "-margin"))
            ok = args_int("stern-book", a, v, 0, 10000, &o->margin);
        else if (!strcmp(a, "-nodes"))
            ok = args_int("stern-book", a, v, 1, 1000000000, &o->nodes);
        else if (!strcmp(a, "-concurrency"))
            ok = args_int("stern-book", a, v, 1, MAX_CONCURRENCY, &o->conc);
        else if (!strcmp(a, "-split"))
            ok = args_int("stern-book", a, v, 0, 59, &o->want_split);
        else if (!strcmp(a, "-shard")) {
            char err[512];
            if (shard_parse(v, &o->shard, &o->nshards, err, sizeof err))
                return fail("%s%s", err, "");
        } else if (!strcmp(a, "-option")) {
            const char *eq = strchr(v, '=');
            if (!eq || b->noptions == MAX_OPTIONS || strchr(v, '\n'))
                return fail("-option %s: expected NAME=VALUE (at most 16)%s", v, "");
            char *opt = optbuf[b->noptions];
            snprintf(opt, sizeof optbuf[0], "%s", v);
            opt[eq - v] = 0;
            b->options[b->noptions++] = (EngineOption){opt, opt + (eq - v) + 1};
        } else
            return fail("unknown option '%s'%s", a, "");
        if (!ok)
            return 2;
    }
    if (!o->variant || !o->outpath)
        return fail("build needs -variant and -o%s%s", "", "");
    if (o->want_split >= 0 && !o->nshards)
        return fail("-split needs -shard%s%s", "", "");
    if (o->want_split >= o->plies)
        return fail("-split must be below -plies%s%s", "", "");
    return 0;
}

/* Writes the options that decide the book into o->settings (a part records
 * them). Returns 0, or the exit status when they do not fit a part. */
static int write_settings(BuildOptions *o, const Builder *b)
{
    bool fits = settings_add(o->settings, "-variant %s -plies %lld -width %lld -margin %lld -nodes %lld", o->variant,
                             o->plies, o->width, o->margin, o->nodes);
    for (int i = 0; i < b->noptions; i++)
        fits = fits && settings_add(o->settings, " -option %s=%s", b->options[i].name, b->options[i].value);
    if (o->want_split >= 0)
        fits = fits && settings_add(o->settings, " -split %lld", o->want_split);
    if (!fits && o->nshards)
        return fail("the build's options are too long for a part%s%s", "", "");
    return 0;
}

/* Adds the options every search of the build needs to the user's: the variant
 * first (setting it resets what the others do not touch), MultiPV (multipv,
 * the width's text, outlives the build), one thread, no book of its own. */
static void build_engine_options(Builder *b, const BuildOptions *o, const char *multipv)
{
    b->options[b->noptions++] = (EngineOption){"Variant", o->variant};
    b->options[b->noptions++] = (EngineOption){"MultiPV", multipv};
    b->options[b->noptions++] = (EngineOption){"Threads", "1"};
    b->options[b->noptions++] = (EngineOption){"OwnBook", "false"};
    const EngineOption first = b->options[b->noptions - 4];
    memmove(b->options + 1, b->options, sizeof *b->options * (size_t)(b->noptions - 4));
    b->options[0] = first;
    b->width = (int)o->width;
    b->nodes = o->nodes;
}

/* The opening tree as it grows, ply by ply: the book so far, the positions of
 * this ply (searched together) and their children, the next ply's, and the
 * keys of every position met. */
typedef struct {
    Book book;
    Job *level, *next;
    int nlevel, nnext, capnext;
    uint64_t *seen;
    size_t nseen, capseen;
    long searched;
    int split; /* the ply shared out among the shards, or -1 */
} Tree;

static void tree_free(Tree *t)
{
    for (int i = 0; i < t->nlevel; i++)
        free(t->level[i].moves);
    free(t->level);
    for (int i = 0; i < t->nnext; i++)
        free(t->next[i].moves);
    free(t->next);
    free(t->seen);
    book_free(&t->book);
}

/* An empty book and the variant's start (canonical) as the first ply's one
 * position. Returns 0, or -1 when memory runs out. */
static int tree_init(Tree *t, const char *variant, const Position *start)
{
    *t = (Tree){.split = -1};
    book_init(&t->book, variant);
    t->level = calloc(1, sizeof *t->level);
    if (!t->level || !(t->level[0].moves = strdup("")))
        return -1;
    t->nlevel = 1;
    t->level[0].pos = book_canonical(start);
    int f;
    t->level[0].key = book_key(&t->level[0].pos, &f);
    return 0;
}

/* A shard searches the plies above the split whole, as every other shard
 * does, then only its share of the split ply and what grows from it. A
 * position that another shard's subtree reaches too is searched there as
 * well, to the same entries (its search depends on it alone), and at the same
 * ply when that is the first it is reached at: the union of the parts is the
 * tree of one process. Keeps this shard's positions of ply `ply` when it is
 * the split. */
static void share_out(Tree *t, const BuildOptions *o, int ply)
{
    if (!o->nshards || t->split >= 0 ||
        !(ply == o->want_split ||
          (o->want_split < 0 && (t->nlevel >= SPLIT_PER_SHARD * o->nshards || ply + 1 == o->plies))))
        return;
    t->split = ply;
    const int all = t->nlevel;
    t->nlevel = 0;
    for (int i = 0; i < all; i++)
        if (i % o->nshards == o->shard - 1)
            t->level[t->nlevel++] = t->level[i];
        else
            free(t->level[i].moves);
    fprintf(stderr, "stern-book: shard %d/%d: the %d positions after ply %d shared out, %d here\n", o->shard,
            o->nshards, all, ply, t->nlevel);
}

/* Whether a position of `key` was met before (by another line, or as its
 * mirror image); when not, it is noted. Returns 1, 0, or -1 when memory runs
 * out. */
static int seen_before(Tree *t, uint64_t key)
{
    for (size_t s = 0; s < t->nseen; s++)
        if (t->seen[s] == key)
            return 1;
    if (t->nseen == t->capseen) {
        const size_t cap = t->capseen ? t->capseen * 2 : 1024;
        uint64_t *grown = realloc(t->seen, sizeof *t->seen * cap);
        if (!grown)
            return -1;
        t->seen = grown;
        t->capseen = cap;
    }
    t->seen[t->nseen++] = key;
    return 0;
}

/* Adds c, reached from j by its k-th move, to the next ply (when it was not
 * met before). Returns 0, or -1 when memory runs out. */
static int add_child(Tree *t, const Job *j, int k, const Position *c)
{
    int f;
    const uint64_t key = book_key(c, &f);
    const int seen = seen_before(t, key);
    if (seen)
        return seen < 0 ? -1 : 0;
    if (t->nnext == t->capnext) {
        const int cap = t->capnext ? t->capnext * 2 : 64;
        Job *grown = realloc(t->next, sizeof *t->next * (size_t)cap);
        if (!grown)
            return -1;
        t->next = grown;
        t->capnext = cap;
    }
    char mv[MOVE_STR_MAX];
    move_str(&j->pos, &j->move[k], mv);
    Job *n = &t->next[t->nnext];
    memset(n, 0, sizeof *n);
    n->pos = book_canonical(c);
    n->key = key;
    n->moves = malloc(strlen(j->moves) + strlen(mv) + 2);
    if (!n->moves)
        return -1;
    t->nnext++;
    sprintf(n->moves, "%s%s%s", j->moves, j->moves[0] ? " " : "", mv);
    return 0;
}

/* Puts the moves the search of j found within the margin of the best into the
 * book, weighted by their scores, and their positions into the next ply
 * (unless the game ends or the tree is as deep as asked). Returns 0, or -1
 * when memory runs out. */
static int grow(Tree *t, const BuildOptions *o, const Job *j, int ply)
{
    const int best = j->n ? j->score[0] : 0;
    for (int k = 0; k < j->n; k++) {
        if (best - j->score[k] > o->margin)
            continue;
        /* the best weighs 1,000 + 1; one at the margin 1 */
        const long w = o->margin ? 1 + 1000 * (o->margin - (best - j->score[k])) / o->margin : 1001;
        if (!book_add(&t->book, &j->pos, &j->move[k], (int)w, 0))
            return -1;
        Position c = j->pos;
        pos_play(&c, &j->move[k]);
        if (!pos_over(&c) && ply + 1 < o->plies && add_child(t, j, k, &c))
            return -1;
    }
    return 0;
}

/* The next ply's positions become this ply's. */
static void next_ply(Tree *t)
{
    for (int i = 0; i < t->nlevel; i++)
        free(t->level[i].moves);
    free(t->level);
    t->level = t->next;
    t->nlevel = t->nnext;
    t->next = NULL;
    t->nnext = t->capnext = 0;
}

/* Searches the tree ply by ply on the builder's engines. Returns 0, or the
 * exit status after a message (a failed search, out of memory). */
static int grow_tree(Tree *t, const BuildOptions *o, Builder *b)
{
    for (int ply = 0; ply < o->plies && t->nlevel; ply++) {
        qsort(t->level, (size_t)t->nlevel, sizeof *t->level, by_key);
        share_out(t, o, ply);
        if (!t->nlevel)
            break;
        search_ply(b, t->level, t->nlevel, (int)o->conc);
        t->searched += t->nlevel;
        for (int i = 0; i < t->nlevel; i++) {
            const Job *j = &t->level[i];
            if (j->failed) {
                fprintf(stderr, "stern-book: position after '%s': %s\n", j->moves, j->error);
                return 1;
            }
            if (grow(t, o, j, ply))
                return fail("out of memory%s%s", "", "");
        }
        next_ply(t);
        fprintf(stderr, "stern-book: ply %d done: %ld positions searched, %zu entries\n", ply + 1, t->searched,
                t->book.n);
    }
    return 0;
}

/* Writes the book, or a shard's part of it. Returns 0, or the exit status. */
static int save_build(Tree *t, const BuildOptions *o)
{
    book_finish(&t->book);
    char err[512];
    if (o->nshards) {
        static BookPart part;
        part = (BookPart){.k = o->shard, .n = o->nshards, .split = t->split, .book = t->book};
        snprintf(part.settings, sizeof part.settings, "%s", o->settings);
        if (book_part_save(&part, o->outpath, err, sizeof err))
            return fail("%s%s", err, "");
        printf("%s: shard %d/%d, %zu entries from %ld positions searched (%s)\n", o->outpath, o->shard, o->nshards,
               t->book.n, t->searched, o->settings);
        return 0;
    }
    if (book_save(&t->book, o->outpath, err, sizeof err))
        return fail("%s%s", err, "");
    printf("%s: %zu entries from %ld positions searched (%s, %lld plies, width %lld, margin %lld cp, %lld nodes)\n",
           o->outpath, t->book.n, t->searched, o->variant, o->plies, o->width, o->margin, o->nodes);
    return 0;
}

static int cmd_build(int argc, char **argv)
{
    static BuildOptions o;
    static Builder b;
    int status = parse_build(argc, argv, &o, &b);
    if (status)
        return status;
    static Game g;
    if (game_new(&g, o.variant))
        return fail("unknown variant '%s'%s", o.variant, "");
    if (g.v->capture)
        return fail("%s: capture mode has no book%s", o.variant, "");
    if ((status = write_settings(&o, &b)))
        return status;
    char multipv[16];
    snprintf(multipv, sizeof multipv, "%lld", o.width);
    build_engine_options(&b, &o, multipv);
    Tree t;
    if (tree_init(&t, o.variant, &g.pos))
        status = fail("out of memory%s%s", "", "");
    else if (!(status = grow_tree(&t, &o, &b)))
        status = save_build(&t, &o);
    tree_free(&t);
    return status;
}

/* ---- game records ---- */

/* Game points of each seat of a game with places place[] (by seat) among the
 * variant's units, doubled: 2 x (units - place), shared places sharing their
 * points (a two-seat win 2, draw 1, loss 0). */
static void doubled_points(const Variant *v, const int place[MAX_SEATS], int out[MAX_SEATS])
{
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i], p = place[s];
        int share = 0;
        for (int j = 0; j < v->nseats; j++) {
            const int t = v->seats[j];
            share += variant_unit(v, t) == t && place[t] == p;
        }
        if (share < 1)
            share = 1;
        int sum = 0;
        for (int k = 0; k < share; k++)
            sum += v->nunits - (p + k);
        out[s] = 2 * sum / share;
    }
}

typedef bool (*MoveFn)(const Position *p, const Move *m, int doubled, int units, void *ctx);

/* What each_game_move hands every move of a file's games to. */
typedef struct {
    const char *path, *variant;
    int plies;
    MoveFn fn;
    void *ctx;
    long *games;
} EachMove;

/* Replays game pg from its variant's start (a game from a FEN, of another
 * variant, unfinished or unreadable is skipped) and hands its first moves to
 * the caller's fn. */
static int game_moves(PgnGame *pg, PgnStatus st, const char *why, void *ctx, char *err, size_t n)
{
    EachMove *em = ctx;
    if (st == PGN_ERROR) {
        fprintf(stderr, "stern-book: %s\n", why);
        return 0;
    }
    const char *var = pgn_tag(pg, "Variant"), *fen = pgn_tag(pg, "FEN");
    int place[MAX_SEATS];
    if (st == PGN_INCOMPLETE || !var || strcmp(var, em->variant) || (fen && fen[0]) ||
        pgn_places(pg, place, err, n)) {
        if (var && strcmp(var, em->variant))
            fprintf(stderr, "stern-book: %s:%d: a game of %s, not %s: skipped\n", em->path, pg->line, var,
                    em->variant);
        return 0;
    }
    static Game g;
    game_new(&g, em->variant);
    int points[MAX_SEATS];
    doubled_points(g.v, place, points);
    for (int i = 0, k = 0; i < pg->nmoves && k < em->plies && !pos_over(&g.pos); i++) {
        if (!strcmp(pg->moves[i], "--"))
            continue;
        Move m;
        if (move_parse(&g.pos, pg->moves[i], &m, err, n)) {
            fprintf(stderr, "stern-book: %s:%d: move %d '%s': %s: rest of the game skipped\n", em->path, pg->line,
                    i + 1, pg->moves[i], err);
            break;
        }
        if (!em->fn(&g.pos, &m, points[g.pos.stm], g.v->nunits, em->ctx)) {
            snprintf(err, n, "out of memory");
            return -1;
        }
        game_play(&g, &m);
        k++;
    }
    (*em->games)++;
    return 0;
}

/* Replays every complete game of `path` from its variant's start (games from a
 * FEN skipped), calling fn for each of its first `plies` moves with the mover's
 * doubled points. Games of another variant are skipped with a message. Returns
 * 0, or -1 with a message (file and line) when the file cannot be read. */
static int each_game_move(const char *path, const char *variant, int plies, MoveFn fn, void *ctx, long *games)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "stern-book: %s: cannot open\n", path);
        return -1;
    }
    EachMove em = {path, variant, plies, fn, ctx, games};
    char err[PGN_ERR_MAX];
    const int rc = pgn_read_each(f, path, PGN_ERRORS_PASS, game_moves, &em, err, sizeof err);
    fclose(f);
    if (rc < 0)
        fprintf(stderr, "stern-book: %s\n", err);
    return rc < 0 ? -1 : 0;
}

/* Where first_variant keeps the Variant tag it finds. */
typedef struct {
    char *out;
    size_t n;
} Found;

/* Keeps the first known Variant tag of a file's games. */
static int variant_of(PgnGame *pg, PgnStatus st, const char *why, void *ctx, char *err, size_t n)
{
    (void)why, (void)err, (void)n;
    const Found *found = ctx;
    const char *v = st == PGN_ERROR ? NULL : pgn_tag(pg, "Variant");
    if (!v || !variant_find(v))
        return 0;
    snprintf(found->out, found->n, "%s", v);
    return 1;
}

/* The Variant tag of the first game of `path` into out; false when none. */
static bool first_variant(const char *path, char *out, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    Found found = {out, n};
    char err[PGN_ERR_MAX];
    const bool any = pgn_read_each(f, path, PGN_ERRORS_PASS, variant_of, &found, err, sizeof err) == 1;
    fclose(f);
    return any;
}

static bool add_move(const Position *p, const Move *m, int doubled, int units, void *ctx)
{
    (void)units;
    return book_add(ctx, p, m, doubled, 0);
}

static int cmd_pgn(int argc, char **argv)
{
    const char *outpath = NULL;
    long long plies = 20;
    int i = 0;
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        if (i + 1 >= argc)
            return fail("%s needs a value%s", argv[i], "");
        if (!strcmp(argv[i], "-o"))
            outpath = argv[i + 1];
        else if (!strcmp(argv[i], "-plies")) {
            if (!args_int("stern-book", argv[i], argv[i + 1], 1, GAME_MAX_PLIES, &plies))
                return 2;
        } else
            return fail("unknown option '%s'%s", argv[i], "");
    }
    if (!outpath || i >= argc)
        return fail("pgn needs -o and game records%s%s", "", "");
    char variant[24];
    if (!first_variant(argv[i], variant, sizeof variant))
        return fail("%s: no game with a known Variant tag%s", argv[i], "");
    if (variant_find(variant)->capture)
        return fail("%s: capture mode has no book%s", variant, "");
    Book book;
    book_init(&book, variant);
    long games = 0;
    int status = 0;
    for (; i < argc && !status; i++)
        if (each_game_move(argv[i], variant, (int)plies, add_move, &book, &games))
            status = 1;
    char err[512];
    if (!status) {
        book_finish(&book);
        if (book_save(&book, outpath, err, sizeof err))
            status = fail("%s%s", err, "");
        else
            printf("%s: %zu entries from %ld games of %s (first %lld plies)\n", outpath, book.n, games, variant,
                   plies);
    }
    book_free(&book);
    return status;
}

typedef struct {
    Book *book;
    long updated;
} Learn;

static bool learn_move(const Position *p, const Move *m, int doubled, int units, void *ctx)
{
    Learn *l = ctx;
    int f;
    const uint64_t key = book_key(p, &f);
    const uint32_t code = book_move_code(f, m);
    size_t first;
    const size_t end = book_find(l->book, key, &first);
    for (size_t i = first; i < end; i++)
        if (l->book->e[i].move == code) {
            /* + for a result above the middle place, - below it */
            const long v = (long)l->book->e[i].learn + doubled - (units - 1);
            l->book->e[i].learn = (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
            l->updated++;
        }
    return true;
}

static int cmd_learn(int argc, char **argv)
{
    if (argc < 2)
        return fail("learn needs a book and game records%s%s", "", "");
    Book book;
    char err[512];
    if (book_load(&book, argv[0], NULL, err, sizeof err))
        return fail("%s%s", err, "");
    Learn l = {&book, 0};
    long games = 0;
    int status = 0;
    for (int i = 1; i < argc && !status; i++)
        if (each_game_move(argv[i], book.variant, GAME_MAX_PLIES, learn_move, &l, &games))
            status = 1;
    if (!status && book_save(&book, argv[0], err, sizeof err))
        status = fail("%s%s", err, "");
    else if (!status)
        printf("%s: %ld book moves learned from %ld games\n", argv[0], l.updated, games);
    book_free(&book);
    return status;
}

/* ---- reading books ---- */

static int cmd_show(int argc, char **argv)
{
    if (argc < 1)
        return fail("show needs a book%s%s", "", "");
    Book book;
    char err[512];
    if (book_load(&book, argv[0], NULL, err, sizeof err))
        return fail("%s%s", err, "");
    static Game g;
    game_new(&g, book.variant); /* a known variant: book_load checked it */
    int i = 1;
    if (i < argc && !strcmp(argv[i], "fen")) {
        char fen[FEN_MAX] = "";
        for (i++; i < argc && strcmp(argv[i], "moves"); i++)
            snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%s", fen[0] ? " " : "", argv[i]);
        if (game_set_fen(&g, fen, err, sizeof err)) {
            book_free(&book);
            return fail("fen: %s%s", err, "");
        }
    } else if (i < argc && !strcmp(argv[i], "startpos")) {
        i++;
    }
    if (i < argc && !strcmp(argv[i], "moves"))
        for (i++; i < argc; i++) {
            Move m;
            if (move_parse(&g.pos, argv[i], &m, err, sizeof err)) {
                book_free(&book);
                return fail("move '%s': %s", argv[i], err);
            }
            game_play(&g, &m);
        }
    BookMove m[BOOK_MAX_MOVES];
    const int n = book_probe(&book, &g.pos, m, BOOK_MAX_MOVES);
    char fen[FEN_MAX];
    printf("%s: %d book move%s in %s\n", argv[0], n, n == 1 ? "" : "s", fen_write(&g.pos, fen));
    for (int k = 0; k < n; k++) {
        char mv[MOVE_STR_MAX];
        printf("  %-24s weight %5u learn %d\n", move_str(&g.pos, &m[k].move, mv), m[k].weight, m[k].learn);
    }
    book_free(&book);
    return 0;
}

/* The parts of a sharded build, paths[0..n), into the book at outpath. */
static int merge_parts(const char *outpath, const char *const *paths, int n)
{
    BookPart *parts = calloc((size_t)n, sizeof *parts);
    if (!parts)
        return fail("out of memory%s%s", "", "");
    char err[4096];
    int loaded = 0, status = 0;
    for (; loaded < n && !status; loaded++)
        if (!book_part_is(paths[loaded]))
            status = fail("%s is not a part of a sharded build (the first input is): merge parts with parts only",
                          paths[loaded], "");
        else if (book_part_load(&parts[loaded], paths[loaded], err, sizeof err))
            status = fail("%s%s", err, "");
    Book out;
    book_init(&out, "");
    if (!status && book_part_merge(parts, paths, n, &out, err, sizeof err))
        status = fail("%s%s", err, "");
    if (!status && book_save(&out, outpath, err, sizeof err))
        status = fail("%s%s", err, "");
    if (!status)
        printf("%s: %zu entries from the %d parts of a sharded build (%s)\n", outpath, out.n, n, parts[0].settings);
    book_free(&out);
    for (int i = 0; i < loaded; i++)
        book_part_free(&parts[i]);
    free(parts);
    return status;
}

/* Books: their entries together, the weights and learn values of a move in
 * several summed. The parts of a sharded build: see merge_parts. */
static int cmd_merge(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[0], "-o"))
        return fail("merge needs -o FILE and books%s%s", "", "");
    if (book_part_is(argv[2]))
        return merge_parts(argv[1], (const char *const *)argv + 2, argc - 2);
    Book out;
    book_init(&out, "");
    char err[512];
    int status = 0;
    for (int i = 2; i < argc && !status; i++) {
        Book b;
        if (book_part_is(argv[i]))
            status = fail("%s is a part of a sharded build, %s a book: merge parts with parts only", argv[i], argv[2]);
        else if (book_load(&b, argv[i], i > 2 ? out.variant : NULL, err, sizeof err))
            status = fail("%s%s", err, "");
        if (status)
            break;
        if (i == 2)
            snprintf(out.variant, sizeof out.variant, "%s", b.variant);
        BookEntry *e = realloc(out.e, sizeof *e * (out.n + b.n + 1));
        if (e) {
            out.e = e;
            memcpy(out.e + out.n, b.e, sizeof *e * b.n);
            out.n += b.n;
            out.cap = out.n;
        } else
            status = fail("out of memory%s%s", "", "");
        book_free(&b);
    }
    if (!status) {
        book_finish(&out);
        if (book_save(&out, argv[1], err, sizeof err))
            status = fail("%s%s", err, "");
        else
            printf("%s: %zu entries from %d books\n", argv[1], out.n, argc - 2);
    }
    book_free(&out);
    return status;
}

static int cmd_stats(int argc, char **argv)
{
    if (argc != 1)
        return fail("stats needs one book%s%s", "", "");
    Book b;
    char err[512];
    if (book_load(&b, argv[0], NULL, err, sizeof err))
        return fail("%s%s", err, "");
    size_t positions = 0, most = 0, run = 0;
    long long weight = 0, learned = 0;
    for (size_t i = 0; i < b.n; i++) {
        if (i == 0 || b.e[i].key != b.e[i - 1].key) {
            positions++;
            run = 0;
        }
        run++;
        most = run > most ? run : most;
        weight += b.e[i].weight;
        learned += b.e[i].learn != 0;
    }
    printf("%s: variant %s, format version %d, %zu entries, %zu positions, at most %zu moves a position, "
           "mean weight %.1f, %lld entries learned\n",
           argv[0], b.variant, BOOK_VERSION, b.n, positions, most, b.n ? (double)weight / (double)b.n : 0.0, learned);
    book_free(&b);
    return 0;
}

static int cmd_verify(int argc, char **argv)
{
    if (argc != 1)
        return fail("verify needs one book%s%s", "", "");
    Book b;
    char err[512];
    if (book_load(&b, argv[0], NULL, err, sizeof err))
        return fail("%s%s", err, "");
    /* every position reached from the start through book moves, once: each of
     * its entries must name a legal move */
    bool *used = calloc(b.n ? b.n : 1, sizeof *used);
    size_t cap = 1024, head = 0, tail = 0;
    Position *queue = malloc(sizeof *queue * cap);
    if (!used || !queue) {
        free(used);
        free(queue);
        book_free(&b);
        return fail("out of memory%s%s", "", "");
    }
    static Game g;
    game_new(&g, b.variant);
    queue[tail++] = g.pos;
    size_t positions = 0, bad = 0;
    while (head < tail) {
        const Position p = queue[head++];
        int f;
        size_t first;
        const size_t end = book_find(&b, book_key(&p, &f), &first);
        if (first == end || used[first])
            continue;
        positions++;
        for (size_t i = first; i < end; i++) {
            used[i] = true;
            Move m;
            if (!book_code_move(&p, f, b.e[i].move, &m)) {
                char fen[FEN_MAX];
                fprintf(stderr, "stern-book: %s: entry %zu: move code %u is not legal in %s\n", argv[0], i,
                        b.e[i].move, fen_write(&p, fen));
                bad++;
                continue;
            }
            Position c = p;
            pos_play(&c, &m);
            if (pos_over(&c))
                continue;
            if (tail == cap) {
                cap *= 2;
                Position *q = realloc(queue, sizeof *q * cap);
                if (!q) {
                    free(used);
                    free(queue);
                    book_free(&b);
                    return fail("out of memory%s%s", "", "");
                }
                queue = q;
            }
            queue[tail++] = c;
        }
    }
    size_t reached = 0;
    for (size_t i = 0; i < b.n; i++)
        reached += used[i];
    printf("%s: %s, %zu entries: header, order and checksum good; %zu entries in %zu positions reached from the "
           "start, %zu illegal; %zu not reached from the start (from other openings)\n",
           argv[0], b.variant, b.n, reached, positions, bad, b.n - reached);
    free(used);
    free(queue);
    book_free(&b);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *c = argv[1];
    argc -= 2;
    argv += 2;
    if (!strcmp(c, "build"))
        return cmd_build(argc, argv);
    if (!strcmp(c, "pgn"))
        return cmd_pgn(argc, argv);
    if (!strcmp(c, "show"))
        return cmd_show(argc, argv);
    if (!strcmp(c, "merge"))
        return cmd_merge(argc, argv);
    if (!strcmp(c, "stats"))
        return cmd_stats(argc, argv);
    if (!strcmp(c, "verify"))
        return cmd_verify(argc, argv);
    if (!strcmp(c, "learn"))
        return cmd_learn(argc, argv);
    fprintf(stderr, "stern-book: unknown command '%s'\n%s", c, usage);
    return 2;
}
