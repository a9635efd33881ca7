/*
 * arena_main.c - stern-arena: tournaments between protocol engines (PROTOCOL.md),
 * the cutechess-cli / fastchess of this game, for every variant and 2-6 seats.
 *
 * The arena owns the games: every move is checked by the rules library
 * (referee.h), clocks are kept here, and an illegal move, a crash, silence or a
 * time loss ends the game as RULES.md section 7 says; the offending engine is
 * killed and started again for its next game. Each finished game is appended at
 * once (one write, then fsync) to the -pgnout record file, whose Round tag is the
 * game's number in the schedule (schedule.h), so -resume continues a
 * tournament after a crash or Ctrl-C without losing a finished game. Ratings
 * (arena_table.h) are printed at the end and by the -ratings mode from any record
 * files; a live progress line shows the score so far.
 *
 * Threads: -concurrency K workers each play whole games with engine processes of
 * their own; the schedule cursor, the record file, the statistics and the output
 * are shared under one lock. A signal thread takes SIGINT and SIGTERM while games
 * are played: it stops the run (the games in progress are cut short by killing
 * their engines and are not recorded), after which the arena says what the record
 * file holds, how to resume, prints the table of the finished games and exits with
 * 128 + the signal's number.
 */
#define _GNU_SOURCE /* open_memstream, fmemopen */
#include "arena_merge.h"
#include "arena_openings.h"
#include "arena_table.h"
#include "args.h"
#include "ccpcells.h"
#include "duration.h"
#include "elo.h"
#include "engine_proc.h"
#include "fen.h"
#include "line.h"
#include "pgn_read.h"
#include "ratings.h"
#include "record.h"
#include "referee.h"
#include "schedule.h"
#include "shard.h"
#include "sprt.h"
#include "time_control.h"
#include "work_queue.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "exe_id.h"

#define DEFAULT_VARIANT "classic-2"
#define HANDSHAKE_TIMEOUT_MS 10000 /* for `uciok`, and again for `readyok` */
#define QUIT_GRACE_MS 1000         /* after `quit`, before SIGKILL */
#define NO_CLOCK_MARGIN_MS 60000   /* depth/nodes without a clock: longest wait for a move */
#define MAX_START_FAILURES 3       /* failed starts in a row of one engine that stop the tournament */
#define MAX_ENGINE_OPTIONS 32
#define MAX_ENGINES SCHEDULE_MAX_ENGINES
#define ENGINE_ID_LEN 200
#define MAX_CONCURRENCY 256
#define RATINGS_SEED 1             /* bootstrap seed: the same games give the same table */
#define DEFAULT_OPENING_SEED 1
#define TERMINAL_WIDTH 100         /* when the terminal does not say */
#define KILL_AGAIN_MS 50           /* after Ctrl-C: how often engines started since are killed */

static const char usage[] =
    "usage: stern-arena -engine cmd=CMD [name=NAME] [KEY=VALUE ...] -engine ... [options]\n"
    "       stern-arena -ratings FILE... [-sprt ...] [-bootstrap N]\n"
    "       stern-arena -merge FILE... [-pgnout OUT] [-sprt ...] [-bootstrap N]\n"
    "\n"
    "Engine keys (-engine for one engine, -each for all; an engine's own keys win):\n"
    "  cmd=CMD            command line (shell syntax when needed)\n"
    "  name=NAME          name in records and tables (default: the engine's `id name`)\n"
    "  dir=DIR            working directory of the engine\n"
    "  option.NAME=VALUE  `setoption name NAME value VALUE` after the handshake\n"
    "  tc=[M/]S[+I]       clock: S seconds per game and seat (or per M moves, then S\n"
    "                     more; `go` gets movestogo), I seconds added per move\n"
    "  st=S               S seconds per move (`go movetime`)\n"
    "  depth=N, nodes=N   search limits sent with every `go`\n"
    "  timemargin=MS      grace past the allotted time before a time forfeit\n"
    "                     (default 0 with tc, 2000 with st, 60000 with depth/nodes only)\n"
    "  restart=on|off     a fresh process for every game (default off)\n"
    "  proto=uci|ccp      the protocol the engine speaks (default uci); ccp: the\n"
    "                     rating list's CCP, for -variant ccerl-2 (docs/CCERL.md)\n"
    "  seats=K            the engine fills K units of every game (default 1 once any\n"
    "                     engine has seats=): one engine against copies of another,\n"
    "                     e.g. seats=5 for the second of two engines in classic-6\n"
    "\n"
    "Options:\n"
    "  -variant NAME      variant (default " DEFAULT_VARIANT "); seats, or teams, are its units\n"
    "  -games N           games per encounter per round, a multiple of the seat\n"
    "                     rotations (default: one opening in every rotation)\n"
    "  -rounds N          rounds (default 1); each round plays new openings\n"
    "  -tournament round-robin|gauntlet   (default round-robin: every combination of\n"
    "                     engines into a game's units; gauntlet: the first engine with\n"
    "                     every combination of the others). -gauntlet is short for it\n"
    "  -concurrency K     games at once (default 1)\n"
    "  -openings file=F [order=sequential|random] [plies=N] [start=N]\n"
    "                     start positions: a FEN a line, or game records (their\n"
    "                     positions after N plies, default all)\n"
    "  -openings random=N start each opening with N random legal moves\n"
    "  -srand S           seed of random opening order and moves (default 1)\n"
    "  -pgnout FILE       append every finished game to FILE (flushed and synced)\n"
    "  -resume            continue the tournament recorded in -pgnout FILE (after a\n"
    "                     crash, or Ctrl-C: that stops the games in progress, prints\n"
    "                     the table and the command to resume, and exits 130)\n"
    "  -shard I/N         play only shard I of N (whole opening sets, deterministic)\n"
    "  -shard auto[/N]    the shard of this task of a Slurm array job\n"
    "                     (SLURM_ARRAY_TASK_ID, _MIN, _STEP, _COUNT) or of a Kubernetes\n"
    "                     indexed Job (JOB_COMPLETION_INDEX, from 0; N needed)\n"
    "  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]   stop when decided (2 engines,\n"
    "                     2 seats)\n"
    "  -ratings FILE...   rate the games of record files (merging runs) and exit\n"
    "  -merge FILE...     the shards' record files of one tournament: checks they are\n"
    "                     one schedule's, each game once; lists the games missing by\n"
    "                     shard (exit 3); prints the table; -pgnout OUT writes the\n"
    "                     records in game order\n"
    "  -watch S           with -merge and -sprt: merge the shards' growing records every\n"
    "                     S seconds (files not there yet count as empty), print the\n"
    "                     running LLR over the whole game pairs, and stop when the\n"
    "                     SPRT decides (-pgnout OUT: the records it decided on) or\n"
    "                     every game is recorded\n"
    "  -on-decision CMD   with -watch: the shell command run on a decision (e.g.\n"
    "                     'scancel $SLURM_ARRAY_JOB_ID'); STERN_SPRT is H1 or H0 in it\n"
    "  -bootstrap N       resamples of the rating intervals (default 200)\n"
    "  -event NAME        Event tag (default stern-arena)\n"
    "  -stderr FILE       append the engines' stderr to FILE (default: discarded)\n"
    "  -quiet             no per-game lines, only the progress line and the table\n";

/* ---- configuration ---- */

typedef struct {
    const char *key, *value;
} KeyValue;

typedef struct {
    KeyValue kv[MAX_ENGINE_OPTIONS + 16];
    int n;
} KeyList;

typedef struct EngineConf {
    const char *cmd, *name, *dir;
    char cmdline[8192];          /* cmd, in dir when one is given */
    EngineOption opts[MAX_ENGINE_OPTIONS];
    int nopts;
    RefereeSeatLimits lim;
    bool restart;
    int seats;                   /* seats=: units of every game it fills; 0 when not given */
    bool ccp;                    /* proto=ccp: the engine speaks CCP (ccerl-2 only) */
    char tc_text[96];            /* for the TimeControl tag */
    char id_name[128];           /* from the probe, when name= is not given */
    int failures;                /* failed starts in a row (under the arena's lock) */
    bool started;                /* it has started once (under the arena's lock) */
} EngineConf;

typedef struct Options {
    const char *variant, *pgnout, *event, *stderr_path;
    EngineConf engines[MAX_ENGINES];
    int nengines;
    int games, rounds, concurrency;
    ScheduleKind kind;
    const char *openings_file;
    bool openings_random_order;
    int openings_plies, openings_start, random_plies;
    unsigned srand;
    bool resume, quiet;
    int shard, nshards;
    TableOptions table;
    const char **rating_files;
    int nrating_files;
    bool merge;                  /* -merge: rating_files are one schedule's shards */
    double watch;                /* -merge -sprt -watch: seconds between merges (0: merge once) */
    const char *on_decision;     /* -on-decision: the shell command run when the SPRT decides */
    const char *resume_command;  /* this command line with -resume, shell-quoted */
} Options;

#define die(...) args_die("stern-arena", __VA_ARGS__)

static long parse_long(const char *s, long min, long max, const char *what)
{
    char *end;
    errno = 0;
    const long x = strtol(s, &end, 10);
    if (end == s || *end || errno || x < min || x > max)
        die("bad %s '%s' (an integer from %ld to %ld)", what, s, min, max);
    return x;
}

static double parse_double(const char *s, const char *what)
{
    char *end;
    const double x = strtod(s, &end);
    if (end == s || *end || !isfinite(x))
        die("bad %s '%s'", what, s);
    return x;
}

/* Applies one key of an engine's configuration. */
static void apply_key(EngineConf *c, const KeyValue *kv, const char **tc, const char **st, const char **margin)
{
    const char *k = kv->key, *v = kv->value;
    if (!strcmp(k, "cmd"))
        c->cmd = v;
    else if (!strcmp(k, "name"))
        c->name = v;
    else if (!strcmp(k, "dir"))
        c->dir = v;
    else if (!strcmp(k, "tc")) {
        *tc = v;
        *st = NULL;
    } else if (!strcmp(k, "st")) {
        *st = v;
        *tc = NULL;
    } else if (!strcmp(k, "depth"))
        c->lim.depth = (int)parse_long(v, 0, 10000, "depth");
    else if (!strcmp(k, "nodes"))
        c->lim.nodes = parse_long(v, 0, LONG_MAX, "nodes");
    else if (!strcmp(k, "timemargin"))
        *margin = v;
    else if (!strcmp(k, "restart")) {
        if (strcmp(v, "on") && strcmp(v, "off"))
            die("restart=%s: on or off", v);
        c->restart = !strcmp(v, "on");
    } else if (!strcmp(k, "seats")) {
        c->seats = (int)parse_long(v, 1, MAX_SEATS, "seats");
    } else if (!strcmp(k, "proto")) {
        if (strcmp(v, "uci") && strcmp(v, "ccp"))
            die("proto=%s: uci (the default) or ccp", v);
        c->ccp = !strcmp(v, "ccp");
    } else if (!strncmp(k, "option.", 7) && k[7]) {
        for (int i = 0; i < c->nopts; i++)
            if (!strcasecmp(c->opts[i].name, k + 7)) {
                c->opts[i].value = v;
                return;
            }
        if (c->nopts == MAX_ENGINE_OPTIONS)
            die("more than %d options for one engine", MAX_ENGINE_OPTIONS);
        c->opts[c->nopts++] = (EngineOption){k + 7, v};
    } else
        die("unknown engine key '%s'", k);
}

/* The configuration of one engine from the -each keys, then its own. */
static void build_engine(EngineConf *c, const KeyList *each, const KeyList *own, int index)
{
    const char *tc = NULL, *st = NULL, *margin = NULL;
    for (int i = 0; i < each->n; i++)
        apply_key(c, &each->kv[i], &tc, &st, &margin);
    for (int i = 0; i < own->n; i++)
        apply_key(c, &own->kv[i], &tc, &st, &margin);
    if (!c->cmd)
        die("engine %d has no cmd=", index + 1);
    RefereeLimits *t = &c->lim.time;
    size_t len = 0;
    c->tc_text[0] = '\0';
    if (tc) {
        char why[256];
        if (time_control_parse(tc, t, why, sizeof why))
            die("bad tc=%s", why);
        len += strlen(time_control_text(t, c->tc_text, sizeof c->tc_text));
    } else if (st) {
        const double s = parse_double(st, "st");
        if (!(s > 0) || s > INT_MAX / 1000.0)
            die("bad st=%s (seconds per move)", st);
        t->movetime_ms = (int)lround(s * 1000);
        len += (size_t)snprintf(c->tc_text, sizeof c->tc_text, "%g/move", t->movetime_ms / 1000.0);
    }
    if (c->lim.depth > 0)
        len += (size_t)snprintf(c->tc_text + len, sizeof c->tc_text - len, "%sdepth %d", len ? " " : "", c->lim.depth);
    if (c->lim.nodes > 0)
        snprintf(c->tc_text + len, sizeof c->tc_text - len, "%snodes %lld", len ? " " : "", c->lim.nodes);
    if (!c->tc_text[0])
        die("engine %d has no limit: give tc=, st=, depth= or nodes= (or -each tc=...)", index + 1);
    t->margin_ms = margin                ? (int)parse_long(margin, 0, INT_MAX / 2, "timemargin")
                   : t->movetime_ms > 0  ? REF_MOVETIME_MARGIN_MS
                   : t->time_ms > 0      ? 0
                                         : NO_CLOCK_MARGIN_MS;
    if (c->dir) {
        size_t k = (size_t)snprintf(c->cmdline, sizeof c->cmdline, "cd '");
        for (const char *p = c->dir; *p && k + 8 < sizeof c->cmdline; p++)
            k += (size_t)snprintf(c->cmdline + k, sizeof c->cmdline - k, *p == '\'' ? "'\\''" : "%c", *p);
        snprintf(c->cmdline + k, sizeof c->cmdline - k, "' && exec %s", c->cmd);
    } else
        snprintf(c->cmdline, sizeof c->cmdline, "%s", c->cmd);
}

/* Collects the KEY=VALUE words after argv[*i] into l. */
static void collect_keys(int argc, char **argv, int *i, KeyList *l)
{
    while (*i + 1 < argc && argv[*i + 1][0] != '-') {
        char *w = argv[++*i], *eq = strchr(w, '=');
        if (!eq || eq == w)
            die("'%s': expected KEY=VALUE", w);
        if (l->n == (int)(sizeof l->kv / sizeof l->kv[0]))
            die("too many KEY=VALUE words");
        *eq = '\0';
        l->kv[l->n++] = (KeyValue){w, eq + 1};
    }
}

static void parse_openings(Options *o, int argc, char **argv, int *i)
{
    KeyList l = {0};
    collect_keys(argc, argv, i, &l);
    for (int k = 0; k < l.n; k++) {
        const char *key = l.kv[k].key, *v = l.kv[k].value;
        if (!strcmp(key, "file"))
            o->openings_file = v;
        else if (!strcmp(key, "order")) {
            if (strcmp(v, "random") && strcmp(v, "sequential"))
                die("order=%s: random or sequential", v);
            o->openings_random_order = !strcmp(v, "random");
        } else if (!strcmp(key, "plies"))
            o->openings_plies = (int)parse_long(v, 0, GAME_MAX_PLIES, "plies");
        else if (!strcmp(key, "start"))
            o->openings_start = (int)parse_long(v, 1, INT_MAX, "start");
        else if (!strcmp(key, "random"))
            o->random_plies = (int)parse_long(v, 0, GAME_MAX_PLIES, "random");
        else if (strcmp(key, "format"))
            die("unknown -openings key '%s'", key);
    }
    if (o->openings_file && o->random_plies)
        die("-openings: file= and random= exclude each other");
}

static void parse_sprt(Options *o, int argc, char **argv, int *i)
{
    KeyList l = {0};
    collect_keys(argc, argv, i, &l);
    TableOptions *t = &o->table;
    t->sprt = true;
    t->alpha = t->beta = 0.05;
    bool e0 = false, e1 = false;
    for (int k = 0; k < l.n; k++) {
        const char *key = l.kv[k].key;
        const double x = parse_double(l.kv[k].value, key);
        if (!strcmp(key, "elo0"))
            t->elo0 = x, e0 = true;
        else if (!strcmp(key, "elo1"))
            t->elo1 = x, e1 = true;
        else if (!strcmp(key, "alpha"))
            t->alpha = x;
        else if (!strcmp(key, "beta"))
            t->beta = x;
        else
            die("unknown -sprt key '%s'", key);
    }
    const char *why = e0 && e1 ? sprt_check(t->elo0, t->elo1, t->alpha, t->beta) : "elo0= and elo1= are needed";
    if (why)
        die("-sprt: %s", why);
}

/* The options that take a value (the next word, whatever it looks like). */
static const char *const value_options[] = {"-variant", "-games", "-rounds", "-concurrency", "-srand", "-pgnout",
                                            "-shard", "-bootstrap", "-event", "-stderr", "-tournament", "-watch",
                                            "-on-decision", NULL};

static bool takes_value(const char *a)
{
    for (int k = 0; value_options[k]; k++)
        if (!strcmp(a, value_options[k]))
            return true;
    return false;
}

/* Option a of value_options with its value v. */
static void value_option(Options *o, const char *a, const char *v)
{
    if (!strcmp(a, "-variant"))
        o->variant = v;
    else if (!strcmp(a, "-games"))
        o->games = (int)parse_long(v, 1, INT_MAX, "-games");
    else if (!strcmp(a, "-rounds"))
        o->rounds = (int)parse_long(v, 1, INT_MAX, "-rounds");
    else if (!strcmp(a, "-concurrency"))
        o->concurrency = (int)parse_long(v, 1, MAX_CONCURRENCY, "-concurrency");
    else if (!strcmp(a, "-tournament")) {
        if (strcmp(v, "gauntlet") && strcmp(v, "round-robin"))
            die("-tournament %s: round-robin or gauntlet", v);
        o->kind = strcmp(v, "gauntlet") ? SCHEDULE_ROUND_ROBIN : SCHEDULE_GAUNTLET;
    } else if (!strcmp(a, "-srand"))
        o->srand = (unsigned)parse_long(v, 0, UINT_MAX, "-srand");
    else if (!strcmp(a, "-pgnout"))
        o->pgnout = v;
    else if (!strcmp(a, "-shard")) {
        char why[256];
        if (shard_parse(v, &o->shard, &o->nshards, why, sizeof why))
            die("%s", why);
    } else if (!strcmp(a, "-bootstrap"))
        o->table.bootstrap = (int)parse_long(v, 0, 100000, "-bootstrap");
    else if (!strcmp(a, "-event"))
        o->event = v;
    else if (!strcmp(a, "-stderr"))
        o->stderr_path = v;
    else if (!strcmp(a, "-watch")) {
        char *end;
        o->watch = strtod(v, &end);
        if (end == v || *end || !(o->watch >= 0.01 && o->watch <= 86400))
            die("-watch takes the seconds between merges, 0.01 to 86400, not '%s'", v);
    } else if (!strcmp(a, "-on-decision"))
        o->on_decision = v;
}

/* What the options make once all are read: the record files of -ratings and
 * -merge, or the engines of a tournament (each one's keys over -each's), and
 * the options that exclude each other. */
static void finish_options(Options *o, bool ratings, const KeyList *each, const KeyList *own)
{
    if (ratings) {
        if (!o->nrating_files)
            die("%s needs record files", o->merge ? "-merge" : "-ratings");
        if (o->pgnout && !o->merge)
            die("-ratings writes no records: -pgnout goes with -merge");
        if (o->watch && !(o->merge && o->table.sprt))
            die("-watch goes with -merge and -sprt: it merges the shards until the SPRT decides");
        if (o->on_decision && !o->watch)
            die("-on-decision goes with -watch");
        return;
    }
    if (!o->nengines)
        die("no engine: give -engine cmd=... for each engine\n%s", usage);
    for (int k = 0; k < o->nengines; k++)
        build_engine(&o->engines[k], each, &own[k], k);
    if (o->resume && !o->pgnout)
        die("-resume needs -pgnout FILE");
    if (o->watch || o->on_decision)
        die("-watch and -on-decision go with -merge and -sprt");
    if (o->table.sprt && o->nshards > 1)
        die("-sprt and -shard exclude each other (each shard would stop on its own)");
}

static void parse_options(Options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->variant = DEFAULT_VARIANT;
    o->event = "stern-arena";
    o->rounds = o->concurrency = 1;
    o->openings_plies = -1;
    o->srand = DEFAULT_OPENING_SEED;
    o->shard = o->nshards = 1;
    o->table.bootstrap = RATINGS_BOOTSTRAP_DEFAULT;
    o->table.seed = RATINGS_SEED;
    static KeyList each, own[MAX_ENGINES];
    bool ratings = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (takes_value(a)) {
            if (i + 1 >= argc)
                die("%s needs a value", a);
            value_option(o, a, argv[++i]);
        } else if (!strcmp(a, "-engine")) {
            if (o->nengines == MAX_ENGINES)
                die("at most %d engines", MAX_ENGINES);
            collect_keys(argc, argv, &i, &own[o->nengines++]);
        } else if (!strcmp(a, "-each"))
            collect_keys(argc, argv, &i, &each);
        else if (!strcmp(a, "-gauntlet"))
            o->kind = SCHEDULE_GAUNTLET;
        else if (!strcmp(a, "-openings"))
            parse_openings(o, argc, argv, &i);
        else if (!strcmp(a, "-resume"))
            o->resume = true;
        else if (!strcmp(a, "-sprt"))
            parse_sprt(o, argc, argv, &i);
        else if (!strcmp(a, "-ratings") || !strcmp(a, "-merge")) {
            if (ratings)
                die("-ratings and -merge go once");
            ratings = true;
            o->merge = !strcmp(a, "-merge");
            o->rating_files = (const char **)argv + i + 1;
            while (i + 1 < argc && argv[i + 1][0] != '-')
                i++, o->nrating_files++;
        } else if (!strcmp(a, "-quiet"))
            o->quiet = true;
        else if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        } else
            die("unknown option '%s' (-help lists them)", a);
    }
    finish_options(o, ratings, &each, own);
}

/* ---- the arena ---- */

/* The running score, kept up to date game by game (the final table is computed
 * from the records instead). */
typedef struct Stats {
    long n;                          /* games of the schedule finished */
    Wdl vs[MAX_ENGINES];             /* two units: engine 0 against each engine */
    Pentanomial pairs;               /* two units: engine 0 against engine 1, complete pairs */
    signed char *pair_half;          /* per pair: engine 0's half points in its first game, or -1 */
    double place_sum[MAX_ENGINES];   /* more units: places of each engine's units */
    int units[MAX_ENGINES];
    Wdl alone;                       /* two units, one engine against itself: the first
                                        unit's (White's) wins, draws and losses */
} Stats;

typedef struct Arena {
    Options *o;
    Variant v;
    int unit_of_seat[MAX_SEATS];  /* seat -> unit slot (its team's, in team variants) */
    Schedule sched;
    Openings openings;
    const char *names[MAX_ENGINES];
    char schedule_id[MERGE_ID_LEN + 1]; /* fingerprint of the schedule (schedule_fingerprint) */
    char engine_tag[MAX_ENGINES][24];   /* "Engine1"...: the records' tags of each engine's build */
    char engine_id[MAX_ENGINES][ENGINE_ID_LEN]; /* its `id name` and the XXH3-64 of its executable */
    char schedule_games[24], schedule_sets[24], shard_text[32]; /* the records' tag values */
    int stderr_fd;
    int pgn_fd;                   /* -1 without -pgnout */
    struct Worker *workers;       /* one a thread of the run (work_queue.h) */
    pthread_mutex_t lock;
    /* under the lock: */
    unsigned char *done;          /* bit per game number */
    long shard_games, finished, finished_now;
    long records;                 /* complete records in the -pgnout file */
    bool stop;                    /* SPRT decided, a fatal error, or a signal */
    int interrupted;              /* SIGINT or SIGTERM that stopped the run, or 0 */
    long cut_short;               /* games in progress stopped by the signal, not recorded */
    bool workers_done;            /* for the signal thread: the run is over */
    int status;                   /* exit status */
    Stats stats;
    ArenaTable table;
    int64_t t0;                   /* when this run started playing, ms */
    bool tty;
    size_t progress_len;          /* characters of the progress line on screen */
} Arena;

static bool is_done(const Arena *a, long number)
{
    return a->done[number >> 3] & (1u << (number & 7));
}

static void set_done(Arena *a, long number)
{
    a->done[number >> 3] |= (unsigned char)(1u << (number & 7));
}

/* Prints a line of output, above the progress line on a terminal. Lock held. */
static void print_line(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void print_line(Arena *a, const char *fmt, ...)
{
    if (a->tty && a->progress_len)
        printf("\r%*s\r", (int)a->progress_len, "");
    a->progress_len = 0;
    va_list ap;
    va_start(ap, fmt);
    line_vprint(fmt, ap);
    va_end(ap);
}

static int terminal_width(void)
{
    struct winsize w;
    return ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 10 ? w.ws_col : TERMINAL_WIDTH;
}

/* Engine 0's half points (2 win, 1 draw, 0 loss) in two-unit game g, or -1 when
 * it is not a game of engine 0 against another engine. */
static int half_points(const RatedGame *g, int *opponent)
{
    const int me = g->player[0] == 0 ? 0 : g->player[1] == 0 ? 1 : -1;
    if (me < 0 || g->player[1 - me] == 0)
        return -1;
    *opponent = g->player[1 - me];
    const int mine = g->place[me], theirs = g->place[1 - me];
    return mine < theirs ? 2 : mine == theirs ? 1 : 0;
}

/* Adds finished game `number` (record pg) to the statistics. Lock held. Returns 0,
 * or -1 with the reason in err. */
static int stats_add(Arena *a, const PgnGame *pg, long number, char *err, size_t n)
{
    Stats *st = &a->stats;
    RatedGame g;
    if (pgn_rated_game(pg, a->names, a->o->nengines, &g, err, n))
        return -1;
    st->n++;
    for (int u = 0; u < g.nunits; u++) {
        st->place_sum[g.player[u]] += g.place[u];
        st->units[g.player[u]]++;
    }
    if (g.nunits == 2 && g.player[0] == g.player[1]) { /* copies of one engine: by seat */
        st->alone.wins += g.place[0] < g.place[1], st->alone.draws += g.place[0] == g.place[1];
        st->alone.losses += g.place[0] > g.place[1];
    }
    int opponent, half;
    if (g.nunits != 2 || (half = half_points(&g, &opponent)) < 0)
        return 0;
    Wdl *w = &st->vs[opponent];
    w->wins += half == 2, w->draws += half == 1, w->losses += half == 0;
    if (!st->pair_half || opponent != 1)
        return 0;
    signed char *first = &st->pair_half[(number - 1) / 2]; /* games 2k-1 and 2k: one opening */
    if (*first < 0)
        *first = (signed char)half;
    else
        st->pairs.n[*first + half]++;
    return 0;
}

/* Engine 0's wins, draws and losses against all others. */
static Wdl total_wdl(const Arena *a)
{
    Wdl t = {0, 0, 0};
    for (int e = 1; e < a->o->nengines; e++)
        t.wins += a->stats.vs[e].wins, t.draws += a->stats.vs[e].draws, t.losses += a->stats.vs[e].losses;
    return t;
}

/* Whether the SPRT has decided. Lock held. */
static SprtDecision sprt_state(const Arena *a, double *llr)
{
    const TableOptions *t = &a->o->table;
    *llr = 0;
    if (!t->sprt)
        return SPRT_CONTINUE;
    const Wdl w = a->stats.vs[1];
    *llr = sprt_llr(&a->stats.pairs, w.wins, w.draws, w.losses, t->elo0, t->elo1);
    return sprt_decide(*llr, sprt_bounds(t->alpha, t->beta));
}

/* The score part of the progress line: the first engine against the others with
 * two units (one engine alone: its games against itself, decisive and drawn, and
 * the first seat's score, "Stern vs itself: 3 decisive, 1 drawn; White +2 =1 -1"),
 * mean places otherwise. */
static void score_text(const Arena *a, char *buf, size_t n)
{
    const Stats *st = &a->stats;
    size_t len = 0;
    if (a->sched.nunits == 2 && a->o->nengines == 1) {
        const Wdl w = st->alone;
        char first[32];
        snprintf(first, sizeof first, "%s", a->v.teams ? "the first team" : record_colour_tag(a->v.seats[0]));
        snprintf(buf, n, "%s vs itself: %d decisive, %d drawn; %s +%d =%d -%d", a->names[0], w.wins + w.losses,
                 w.draws, first, w.wins, w.draws, w.losses);
        return;
    }
    if (a->sched.nunits == 2) {
        const Wdl total = total_wdl(a);
        const EloResult r = elo_from_wdl(total.wins, total.draws, total.losses);
        len = (size_t)snprintf(buf, n, "%s vs %s: +%d =%d -%d [%.3f]", a->names[0],
                               a->o->nengines == 2 ? a->names[1] : "field", total.wins, total.draws, total.losses,
                               r.score);
        char elo[160]; /* as in the table: the +/- only where it agrees with the interval */
        if (r.n)
            len += (size_t)snprintf(buf + len, n - len, " Elo %s",
                                    arena_table_elo_interval_text(r.elo, r.elo_low, r.elo_high, elo, sizeof elo));
        if (r.n && len < n)
            len += (size_t)snprintf(buf + len, n - len, " LOS %.1f%%", r.los * 100);
        const TableOptions *t = &a->o->table;
        double llr = 0;
        if (t->sprt && len < n) {
            const SprtBounds b = sprt_bounds(t->alpha, t->beta);
            sprt_state(a, &llr);
            snprintf(buf + len, n - len, " LLR %.2f [%.2f, %.2f]", llr, b.lower, b.upper);
        }
        return;
    }
    len = (size_t)snprintf(buf, n, "mean place:");
    for (int e = 0; e < a->o->nengines && len < n; e++)
        len += (size_t)snprintf(buf + len, n - len, " %s %.2f", a->names[e],
                                st->units[e] ? st->place_sum[e] / st->units[e] : 0.0);
}

/* The progress line: on a terminal rewritten in place, else printed. Lock held. */
static void progress(Arena *a)
{
    char score[1024], eta[48] = "";
    score_text(a, score, sizeof score);
    const long left = a->shard_games - a->finished;
    if (a->finished_now && left > 0 && !a->stop) {
        const double per_game = (double)(ep_now_ms() - a->t0) / 1000.0 / (double)a->finished_now;
        char d[32];
        duration_text(per_game * (double)left, d, sizeof d);
        snprintf(eta, sizeof eta, ", %s left", d);
    }
    char line[1200];
    snprintf(line, sizeof line, "[%ld/%ld] %s%s", a->finished, a->shard_games, score, eta);
    if (!a->tty) {
        print_line(a, "%s", line);
        return;
    }
    const int width = terminal_width() - 1;
    if ((int)strlen(line) > width)
        line[width] = '\0';
    const size_t len = strlen(line);
    printf("\r%s%*s", line, a->progress_len > len ? (int)(a->progress_len - len) : 0, "");
    fflush(stdout);
    a->progress_len = len;
}

static void check_sprt(Arena *a)
{
    double llr;
    const SprtDecision d = sprt_state(a, &llr);
    if (d == SPRT_CONTINUE || a->stop)
        return;
    a->stop = true;
    print_line(a, "SPRT: LLR %.2f: %s accepted after %ld games; games in progress finish", llr,
               d == SPRT_ACCEPT_H1 ? "H1" : "H0", a->stats.n);
}

/* The start position of game sg as a FEN. */
static char *opening_of(const Arena *a, const ScheduledGame *sg, char *fen)
{
    return arena_openings_fen(&a->openings, sg->opening, fen);
}

/* The engine playing seat s in game sg. */
static int engine_of(const Arena *a, const ScheduledGame *sg, int s)
{
    return sg->engine[a->unit_of_seat[s]];
}

/* Checks a record of the file against the schedule: same variant, players and
 * opening for its game number. Returns 0, or -1 with the reason in err. */
static int check_record(const Arena *a, const PgnGame *g, long number, char *err, size_t n)
{
    ScheduledGame sg;
    schedule_game(&a->sched, number, &sg);
    const char *variant = pgn_tag(g, "Variant");
    if (!variant || strcasecmp(variant, a->v.name)) {
        snprintf(err, n, "game %ld is %s, not %s", number, variant ? variant : "of no variant", a->v.name);
        return -1;
    }
    for (int i = 0; i < a->v.nseats; i++) {
        const int s = a->v.seats[i];
        const char *have = pgn_tag(g, record_colour_tag(s)), *want = a->names[engine_of(a, &sg, s)];
        if (!have || strcmp(have, want)) {
            snprintf(err, n, "game %ld has %s \"%s\" where this schedule seats \"%s\"", number, record_colour_tag(s),
                     have ? have : "", want);
            return -1;
        }
    }
    const char *id = pgn_tag(g, "Schedule");
    if (id && strcmp(id, a->schedule_id)) { /* records from before the tag have the checks above and below */
        snprintf(err, n, "game %ld is of schedule %s, these options make schedule %s", number, id, a->schedule_id);
        return -1;
    }
    for (int e = 0; e < a->o->nengines; e++) { /* records from before the tags have none */
        const char *built = pgn_tag(g, a->engine_tag[e]);
        if (built && strcmp(built, a->engine_id[e])) {
            snprintf(err, n, "game %ld was played by another build of engine %s (%s; now %s)", number, a->names[e],
                     built, a->engine_id[e]);
            return -1;
        }
    }
    char want[FEN_MAX], std[FEN_MAX];
    Position p;
    pos_set_start(&p, &a->v);
    fen_write(&p, std);
    const char *have = pgn_tag(g, "FEN");
    if (strcmp(have ? have : std, opening_of(a, &sg, want))) {
        snprintf(err, n, "game %ld started from another opening (%s)", number, have ? have : "the start position");
        return -1;
    }
    return 0;
}

/* Takes in one complete record of the -pgnout file when resuming. */
static int resume_record(Arena *a, const PgnGame *g, char *err, size_t n)
{
    char why[PGN_ERR_MAX];
    if (arena_table_add(&a->table, g, 0, why, sizeof why) < 0) {
        snprintf(err, n, "%s:%d: %s", a->o->pgnout, g->line, why);
        return -1;
    }
    const char *round = pgn_tag(g, "Round");
    char *end;
    const long number = round ? strtol(round, &end, 10) : 0;
    if (!round || end == round || *end || number < 1 || number > a->sched.total) {
        fprintf(stderr, "stern-arena: %s:%d: game %s is not in this schedule: kept, not replayed\n", a->o->pgnout,
                g->line, round ? round : "?");
        return 0;
    }
    if (check_record(a, g, number, why, sizeof why)) {
        snprintf(err, n, "%s:%d: %s: not the tournament these options describe (same -engine order, -variant, "
                 "-games, -openings, -srand, limits and options are needed)", a->o->pgnout, g->line, why);
        return -1;
    }
    const char *shard = pgn_tag(g, "Shard");
    if (pgn_tag(g, "Schedule") && strcmp(shard ? shard : "1/1", a->shard_text)) { /* -merge needs one shard a file */
        snprintf(err, n, "%s:%d: game %ld was played as shard %s, this run is shard %s: each shard resumes its own "
                 "file", a->o->pgnout, g->line, number, shard ? shard : "1/1", a->shard_text);
        return -1;
    }
    if (is_done(a, number)) {
        fprintf(stderr, "stern-arena: %s:%d: game %ld is recorded twice\n", a->o->pgnout, g->line, number);
        return 0;
    }
    set_done(a, number);
    if (schedule_in_shard(&a->sched, number))
        a->finished++;
    if (stats_add(a, g, number, why, sizeof why) < 0) {
        snprintf(err, n, "%s:%d: %s", a->o->pgnout, g->line, why);
        return -1;
    }
    return 0;
}

typedef struct {
    Arena *a;
    long cut; /* start of an incomplete game with nothing after it, or -1 */
} Resuming;

static int resume_one(PgnGame *g, PgnStatus status, const char *why, void *ctx, char *err, size_t n)
{
    Resuming *r = ctx;
    const char *path = r->a->o->pgnout;
    if (!r->a->o->resume) {
        snprintf(err, n, "%s already holds games: add -resume to continue that tournament, or choose another file",
                 path);
        return -1;
    }
    if (status == PGN_INCOMPLETE) {
        if (r->cut < 0)
            r->cut = g->start;
        fprintf(stderr, "stern-arena: %s\n", why);
        return 0;
    }
    if (r->cut >= 0)
        fprintf(stderr, "stern-arena: %s: an incomplete game before line %d is kept in the file\n", path, g->line);
    r->cut = -1;
    r->a->records++;
    return resume_record(r->a, g, err, n);
}

/* Opens (and locks) the record file; with -resume, takes in its finished games and
 * drops an incomplete last one. Returns 0, or -1 with the reason in err. */
static int open_records(Arena *a, char *err, size_t n)
{
    const char *path = a->o->pgnout;
    a->pgn_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (a->pgn_fd < 0) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (flock(a->pgn_fd, LOCK_EX | LOCK_NB)) {
        snprintf(err, n, "%s is in use by another stern-arena", path);
        return -1;
    }
    FILE *f = fdopen(dup(a->pgn_fd), "r");
    if (!f) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        return -1;
    }
    Resuming res = {a, -1};
    int rc = pgn_read_each(f, path, PGN_ERRORS_END, resume_one, &res, err, n);
    fclose(f);
    const long cut = res.cut;
    if (!rc && cut >= 0) {
        fprintf(stderr, "stern-arena: %s: dropping the incomplete last game (from byte %ld); it is played again\n",
                path, cut);
        if (ftruncate(a->pgn_fd, cut)) {
            snprintf(err, n, "%s: truncating: %s", path, strerror(errno));
            rc = -1;
        }
    }
    if (!rc && lseek(a->pgn_fd, 0, SEEK_END) < 0) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}

/* Writes one record (text, len bytes) to the record file: one write, then fsync.
 * Lock held. Returns 0, or -1 with the reason in err. */
static int append_record(Arena *a, const char *text, size_t len, char *err, size_t n)
{
    while (len) {
        const ssize_t w = write(a->pgn_fd, text, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(err, n, "writing %s: %s", a->o->pgnout, strerror(errno));
            return -1;
        }
        text += w;
        len -= (size_t)w;
    }
    if (fsync(a->pgn_fd)) {
        snprintf(err, n, "syncing %s: %s", a->o->pgnout, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- workers ---- */

typedef struct Proc {
    int engine;       /* which engine it runs, or -1 */
    EngineProc ep;
    bool running;
    bool taken;       /* seated in the game being set up */
} Proc;

typedef struct Worker {
    Arena *a;
    Proc procs[MAX_SEATS];
    Game *game;
    char *comments[GAME_MAX_PLIES];
} Worker;

static void proc_stop(Proc *p, bool kill_now)
{
    if (p->running) {
        if (kill_now)
            ep_kill(&p->ep);
        else
            ep_quit(&p->ep, QUIT_GRACE_MS);
    }
    p->running = false;
    p->engine = -1;
}

/* Starts engine e in p and makes it ready (handshake, Variant and its options).
 * Returns 0, or -1 with why in reason (n bytes): what failed and how the process
 * ended, e.g. "cannot execute ./x: No such file or directory (not started)";
 * for an option the engine refused (*refused set), the refusal alone, "option
 * Hash=0 refused: info string error ...": the engine was running and answering,
 * so how it ended says nothing. */
static int proc_start_reason(const Arena *a, Proc *p, int e, char *reason, size_t n, bool *refused)
{
    const EngineConf *c = &a->o->engines[e];
    EngineOption opts[MAX_ENGINE_OPTIONS + 1] = {{"Variant", a->v.name}};
    memcpy(opts + 1, c->opts, (size_t)c->nopts * sizeof *opts);
    p->engine = e;
    int rc = ep_start(&p->ep, c->cmdline, a->stderr_fd);
    p->ep.ccp = c->ccp; /* a CCP engine has no Variant option: it plays ccerl-2 */
    *refused = false;
    if (rc || ep_handshake(&p->ep, opts + c->ccp, c->nopts + !c->ccp, HANDSHAKE_TIMEOUT_MS)) {
        char how[128];
        *refused = !rc && p->ep.refused;
        if (*refused)
            snprintf(reason, n, "%s", p->ep.error);
        else {
            ep_reap(&p->ep, 100);
            snprintf(reason, n, "%s (%s)", p->ep.error, ep_exit_desc(&p->ep, how, sizeof how));
        }
        ep_kill(&p->ep);
        p->running = false;
        p->engine = -1;
        return -1;
    }
    p->running = true;
    return 0;
}

/* Starts engine e in p for a game. Returns 0, or -1 with what went wrong in err
 * ("engine NAME failed to start: REASON"). */
static int proc_start(Worker *w, Proc *p, int e, char *err, size_t n)
{
    char reason[512];
    bool refused;
    if (!proc_start_reason(w->a, p, e, reason, sizeof reason, &refused))
        return 0;
    snprintf(err, n, "engine %s failed to start: %s", w->a->names[e], reason);
    return -1;
}

/* Seats the game's engines on processes: running ones of the same engine first.
 * seat_proc[s] gets the process of seat s. */
static void assign_procs(Worker *w, const int engine[MAX_SEATS], Proc *seat_proc[MAX_SEATS])
{
    const Variant *v = &w->a->v;
    for (int k = 0; k < MAX_SEATS; k++)
        w->procs[k].taken = false;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        seat_proc[s] = NULL;
        for (int k = 0; k < MAX_SEATS && !seat_proc[s]; k++) {
            Proc *p = &w->procs[k];
            if (p->running && !p->taken && p->engine == engine[s])
                seat_proc[s] = p;
        }
        if (seat_proc[s])
            seat_proc[s]->taken = true;
    }
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        for (int pass = 0; pass < 2 && !seat_proc[s]; pass++)
            for (int k = 0; k < MAX_SEATS && !seat_proc[s]; k++) {
                Proc *p = &w->procs[k];
                if (!p->taken && (pass || !p->running))
                    seat_proc[s] = p;
            }
        seat_proc[s]->taken = true;
        if (seat_proc[s]->engine != engine[s])
            proc_stop(seat_proc[s], false); /* another engine's, not needed now */
    }
}

static void on_move(const Game *g, const RefereeMove *m, void *ctx)
{
    (void)g;
    Worker *w = ctx;
    char comment[REFEREE_COMMENT_MAX];
    free(w->comments[m->ply]);
    w->comments[m->ply] = strdup(referee_move_comment(m, comment, sizeof comment));
}

/* Counts a failed start of engine e; stops the tournament after too many in a row. */
static void start_failed(Arena *a, int e, const char *why)
{
    pthread_mutex_lock(&a->lock);
    if (a->interrupted) { /* killed by the arena itself: not the engine's fault */
        pthread_mutex_unlock(&a->lock);
        return;
    }
    print_line(a, "%s", why);
    if (!a->o->engines[e].started && !a->stop) {
        /* an engine that cannot start at all forfeits nothing: no game of it is
         * recorded or rated */
        print_line(a, "stern-arena: engine %s never started: stopping the tournament", a->names[e]);
        a->stop = true;
        a->status = 1;
    } else if (++a->o->engines[e].failures >= MAX_START_FAILURES && !a->stop) {
        print_line(a, "stern-arena: engine %s failed to start %d times in a row: stopping the tournament", a->names[e],
                   MAX_START_FAILURES);
        a->stop = true;
        a->status = 1;
    }
    pthread_mutex_unlock(&a->lock);
}

static void start_succeeded(Arena *a, int e)
{
    pthread_mutex_lock(&a->lock);
    a->o->engines[e].failures = 0;
    a->o->engines[e].started = true;
    pthread_mutex_unlock(&a->lock);
}

static bool stopping(Arena *a)
{
    pthread_mutex_lock(&a->lock);
    const bool stop = a->stop;
    pthread_mutex_unlock(&a->lock);
    return stop;
}

/* Plays game g with the seated processes: starts those not running, and when an
 * engine fails before the first move restarts it once; a second failure forfeits
 * its seat. Fills *res and returns 0; -1 when the game never started because the
 * tournament is stopping (it is not recorded, and -resume plays it). */
static int referee_game(Worker *w, Game *g, const int engine[MAX_SEATS], Proc *seat_proc[MAX_SEATS],
                         RefereeResult *res)
{
    Arena *a = w->a;
    RefereeSeatLimits lims[MAX_SEATS] = {0};
    EngineProc *eps[MAX_SEATS] = {0};
    for (int i = 0; i < a->v.nseats; i++) {
        const int s = a->v.seats[i];
        lims[s] = a->o->engines[engine[s]].lim;
        eps[s] = &seat_proc[s]->ep;
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        int failed = -1;
        char why[sizeof res->detail] = "";
        for (int i = 0; i < a->v.nseats && failed < 0; i++) {
            const int s = a->v.seats[i];
            if (seat_proc[s]->running)
                continue;
            if (proc_start(w, seat_proc[s], engine[s], why, sizeof why)) {
                failed = s;
                start_failed(a, engine[s], why);
            } else
                start_succeeded(a, engine[s]);
        }
        if (failed < 0 && !referee_play_seats(g, eps, lims, on_move, w, res))
            return 0;
        if (failed < 0) {
            failed = res->seat >= 0 ? res->seat : a->v.seats[0];
            snprintf(why, sizeof why, "engine %s did not get ready: %.900s", a->names[engine[failed]],
                     res->detail);
            proc_stop(seat_proc[failed], true);
        }
        if (stopping(a))
            return -1;
        if (attempt == 1) {
            memset(res, 0, sizeof *res);
            res->forfeit = FORFEIT_CRASH;
            res->seat = failed;
            res->termination = referee_forfeit_name(FORFEIT_CRASH);
            snprintf(res->detail, sizeof res->detail, "%s", why);
            referee_forfeit(&g->pos, failed);
            return 0;
        }
    }
    return 0;
}

/* The TimeControl tag: the engines' limits, each different one once. */
static void time_control_tag(const Arena *a, const int engine[MAX_SEATS], char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < a->v.nseats; i++) {
        const char *tc = a->o->engines[engine[a->v.seats[i]]].tc_text;
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= !strcmp(tc, a->o->engines[engine[a->v.seats[j]]].tc_text);
        if (!seen && len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", tc);
    }
}

/* Renders the record of game `number` into a malloc'ed string (*len bytes). */
static char *render_record(Worker *w, const Game *g, long number, const int engine[MAX_SEATS],
                           const RefereeResult *res, size_t *len)
{
    const Arena *a = w->a;
    char date[16], round[24], tc[256], site[256] = "?";
    snprintf(round, sizeof round, "%ld", number);
    time_control_tag(a, engine, tc, sizeof tc);
    if (gethostname(site, sizeof site - 1))
        snprintf(site, sizeof site, "?");
    site[sizeof site - 1] = '\0';
    if (res->forfeit && g->nplies > 0) { /* what the offender did, after the last move */
        char *last = w->comments[g->nplies - 1], note[1400];
        snprintf(note, sizeof note, "%s%s%c %s: %s", last ? last : "", last ? "; " : "",
                 variant_seat_letter(res->seat), res->termination, res->detail);
        free(last);
        w->comments[g->nplies - 1] = strdup(note);
    }
    const char *extra[4 + MAX_ENGINES][2] = {{"Schedule", a->schedule_id},
                                             {"ScheduleGames", a->schedule_games},
                                             {"ScheduleSets", a->schedule_sets}};
    int nextra = 3;
    if (a->o->nshards > 1) {
        extra[nextra][0] = "Shard";
        extra[nextra++][1] = a->shard_text;
    }
    for (int e = 0; e < a->o->nengines; e++) { /* which build played: -resume and -merge check it */
        extra[nextra][0] = a->engine_tag[e];
        extra[nextra++][1] = a->engine_id[e];
    }
    RecordTags tags = {a->o->event, site, record_today(date), round, tc, {0}, res->termination,
                       (const char *const *)w->comments, (const char *const (*)[2])extra, nextra};
    for (int i = 0; i < a->v.nseats; i++)
        tags.players[a->v.seats[i]] = a->names[engine[a->v.seats[i]]];
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    const int rc = record_write(f, g, &tags);
    fclose(f);
    if (rc) {
        free(text);
        return NULL;
    }
    return text;
}

/* Records finished game `number` and reports it. Lock held. */
static void finish_game(Worker *w, const Game *g, long number, const int engine[MAX_SEATS], const RefereeResult *res)
{
    Arena *a = w->a;
    size_t len = 0;
    char *text = render_record(w, g, number, engine, res, &len);
    char err[PGN_ERR_MAX] = "out of memory";
    PgnGame pg = {0};
    FILE *f = text ? fmemopen(text, len, "r") : NULL;
    PgnReader r;
    bool ok = f != NULL;
    if (ok) {
        pgn_reader_init(&r, f, "record");
        ok = pgn_read_game(&r, &pg, err, sizeof err) == PGN_OK;
        pgn_reader_free(&r);
        fclose(f);
    }
    ok = ok && (a->pgn_fd < 0 || !append_record(a, text, len, err, sizeof err));
    if (ok && a->pgn_fd >= 0)
        a->records++;
    ok = ok && arena_table_add(&a->table, &pg, 0, err, sizeof err) >= 0 &&
         stats_add(a, &pg, number, err, sizeof err) >= 0;
    if (!ok) {
        print_line(a, "stern-arena: game %ld: %s: stopping", number, err);
        a->stop = true;
        a->status = 1;
    }
    set_done(a, number);
    a->finished++;
    a->finished_now++;
    if (!a->o->quiet) {
        char who[512] = "", places[RECORD_PLACES_MAX], result[RECORD_RESULT_MAX];
        size_t k = 0;
        for (int i = 0; i < a->v.nseats && k < sizeof who; i++)
            k += (size_t)snprintf(who + k, sizeof who - k, "%s%c=%s", i ? " " : "", variant_seat_letter(a->v.seats[i]),
                                  a->names[engine[a->v.seats[i]]]);
        print_line(a, "game %ld: %s: %s (%s)", number, who,
                   a->v.nseats == 2 ? record_result(&g->pos, result, sizeof result) : record_places(&g->pos, places, sizeof places),
                   res->termination);
        if (res->forfeit)
            print_line(a, "  %s (%c) %s: %s", a->names[engine[res->seat]], variant_seat_letter(res->seat),
                       res->termination, res->detail);
    }
    check_sprt(a);
    progress(a);
    pgn_game_free(&pg);
    free(text);
}

static void play_game(Worker *w, long number)
{
    Arena *a = w->a;
    Game *g = w->game;
    ScheduledGame sg;
    schedule_game(&a->sched, number, &sg);
    char fen[FEN_MAX], err[256];
    opening_of(a, &sg, fen);
    game_new(g, a->v.name);
    game_set_fen(g, fen, err, sizeof err); /* checked when the openings were read */
    int engine[MAX_SEATS];
    for (int i = 0; i < a->v.nseats; i++)
        engine[a->v.seats[i]] = engine_of(a, &sg, a->v.seats[i]);
    Proc *seat_proc[MAX_SEATS];
    assign_procs(w, engine, seat_proc);
    for (int i = 0; i < GAME_MAX_PLIES; i++)
        w->comments[i] = NULL;
    RefereeResult res;
    const bool started = referee_game(w, g, engine, seat_proc, &res) == 0;
    pthread_mutex_lock(&a->lock);
    const bool interrupted = a->interrupted != 0;
    if (interrupted) /* its engines were killed (or are about to be): no result, -resume plays it */
        a->cut_short++;
    else if (started)
        finish_game(w, g, number, engine, &res);
    pthread_mutex_unlock(&a->lock);
    for (int i = 0; i < g->nplies; i++)
        free(w->comments[i]);
    if (interrupted) {
        for (int i = 0; i < a->v.nseats; i++)
            proc_stop(seat_proc[a->v.seats[i]], true);
        return;
    }
    if (!started)
        return;
    if (res.forfeit) /* it may still be searching or hung: a fresh process next time */
        proc_stop(seat_proc[res.seat], true);
    for (int i = 0; i < a->v.nseats; i++) {
        Proc *p = seat_proc[a->v.seats[i]];
        if (p->running && a->o->engines[p->engine].restart)
            proc_stop(p, false);
    }
}

/* Plays game `job` + 1 of the schedule with the engines of `thread` when it is
 * this shard's and not done already. Returns 1 (no more games) once the
 * tournament stops. */
static int play_job(void *ctx, long job, int thread)
{
    Arena *a = ctx;
    Worker *w = &a->workers[thread];
    const long number = job + 1;
    pthread_mutex_lock(&a->lock);
    const bool stop = a->stop, play = schedule_in_shard(&a->sched, number) && !is_done(a, number);
    pthread_mutex_unlock(&a->lock);
    if (stop)
        return 1;
    if (play)
        play_game(w, number);
    return 0;
}

/* ---- setup ---- */

/* Starts every engine once, before any game and before the record file is
 * opened, to learn its `id name` (when it has no name=) and to check its command
 * line and options: an engine that cannot start or get ready ends the run here
 * (status 2), naming the engine and its command, with no game played or recorded
 * (otherwise its first game would find out, with the other engines' games of a
 * round robin possibly played and recorded before). An engine that starts but
 * refuses an option is told apart ("started, but option Hash=0 refused: ..."):
 * its command is right and the option is to mend, where "never started" and
 * "(still running)" sent the user to the command. */
static void probe_engines(Arena *a)
{
    for (int e = 0; e < a->o->nengines; e++) {
        EngineConf *c = &a->o->engines[e];
        Proc p = {.engine = -1};
        char reason[512], who[160];
        if (c->name)
            snprintf(who, sizeof who, "%s", c->name);
        else
            snprintf(who, sizeof who, "%d", e + 1);
        bool refused;
        if (proc_start_reason(a, &p, e, reason, sizeof reason, &refused)) {
            if (refused) /* it runs: its command is right, one of its options is not */
                die("engine %s started, but %s; cmd=%s%s%s; no game was played", who, reason, c->cmd,
                    c->dir ? " dir=" : "", c->dir ? c->dir : "");
            die("engine %s never started: cmd=%s%s%s: %s; no game was played", who, c->cmd, c->dir ? " dir=" : "",
                c->dir ? c->dir : "", reason);
        }
        snprintf(c->id_name, sizeof c->id_name, "%s", p.ep.name[0] ? p.ep.name : c->cmd);
        /* the build that answered: its executable once the command has exec'ed it */
        uint64_t hash;
        char exe[32] = "exe unknown";
        if (exe_id_of(p.ep.pid, &hash))
            snprintf(exe, sizeof exe, "xxh3 %016llx", (unsigned long long)hash);
        snprintf(a->engine_tag[e], sizeof a->engine_tag[e], "Engine%d", e + 1);
        snprintf(a->engine_id[e], sizeof a->engine_id[e], "%.120s, %s", p.ep.name[0] ? p.ep.name : "no id name", exe);
        proc_stop(&p, false);
    }
}

static void name_engines(Arena *a)
{
    for (int e = 0; e < a->o->nengines; e++)
        a->names[e] = a->o->engines[e].name ? a->o->engines[e].name : a->o->engines[e].cmd;
    probe_engines(a);
    for (int e = 0; e < a->o->nengines; e++) {
        const EngineConf *c = &a->o->engines[e];
        a->names[e] = c->name ? c->name : c->id_name;
        for (int f = 0; f < e; f++)
            if (!strcmp(a->names[e], a->names[f]))
                die("engines %d and %d are both named \"%s\": give them name=", f + 1, e + 1, a->names[e]);
    }
}

/* The fingerprint of what decides the games of this schedule, whatever its
 * -rounds: the variant, the tournament kind, -games, each engine's name, seats,
 * protocol, limits and options, and the first openings (these follow from
 * -openings and -srand). Records carry it so that -resume and -merge never mix
 * games of two tournaments. XXH3-64 of a text, as 16 hex digits. */
#define FINGERPRINT_OPENINGS 16
static void schedule_fingerprint(Arena *a)
{
    const Options *o = a->o;
    XXH3_state_t *h = XXH3_createState();
    if (!h)
        die("out of memory");
    XXH3_64bits_reset(h);
    char line[FEN_MAX + 64];
    int len = snprintf(line, sizeof line, "variant %s kind %d games %d units %d\n", a->v.name, (int)o->kind,
                       a->sched.games, a->sched.nunits);
    XXH3_64bits_update(h, line, (size_t)len);
    for (int e = 0; e < o->nengines; e++) {
        const EngineConf *c = &o->engines[e];
        len = snprintf(line, sizeof line, "engine %s seats %d ccp %d tc %s\n", a->names[e], c->seats, c->ccp,
                       c->tc_text);
        XXH3_64bits_update(h, line, (size_t)len);
        for (int k = 0; k < c->nopts; k++) {
            XXH3_64bits_update(h, c->opts[k].name, strlen(c->opts[k].name) + 1);
            XXH3_64bits_update(h, c->opts[k].value, strlen(c->opts[k].value) + 1);
        }
    }
    for (long k = 0; k < FINGERPRINT_OPENINGS; k++) {
        char fen[FEN_MAX];
        arena_openings_fen(&a->openings, k, fen);
        XXH3_64bits_update(h, fen, strlen(fen) + 1);
    }
    snprintf(a->schedule_id, sizeof a->schedule_id, "%016llx", (unsigned long long)XXH3_64bits_digest(h));
    XXH3_freeState(h);
    snprintf(a->schedule_games, sizeof a->schedule_games, "%ld", a->sched.total);
    snprintf(a->schedule_sets, sizeof a->schedule_sets, "%ld", a->sched.total / a->sched.rotations);
    snprintf(a->shard_text, sizeof a->shard_text, "%d/%d", o->shard, o->nshards);
}

static void setup(Arena *a, Options *o)
{
    memset(a, 0, sizeof *a);
    a->o = o;
    a->pgn_fd = a->stderr_fd = -1;
    pthread_mutex_init(&a->lock, NULL);
    if (variant_init(&a->v, o->variant))
        die("unknown variant '%s'", o->variant);
    for (int i = 0; i < o->nengines; i++)
        if (o->engines[i].ccp && !a->v.ccerl)
            die("engine %d: proto=ccp plays %s only, not %s", i + 1, CCP_VARIANT, a->v.name);
    int units = 0, unit_slot[MAX_SEATS] = {0};
    for (int i = 0; i < a->v.nseats; i++) {
        const int s = a->v.seats[i];
        if (variant_unit(&a->v, s) == s)
            unit_slot[s] = units++;
    }
    for (int i = 0; i < a->v.nseats; i++)
        a->unit_of_seat[a->v.seats[i]] = unit_slot[variant_unit(&a->v, a->v.seats[i])];
    char err[512];
    int seats[MAX_ENGINES];
    bool by_seats = false;
    for (int e = 0; e < o->nengines; e++) {
        seats[e] = o->engines[e].seats ? o->engines[e].seats : 1;
        by_seats |= o->engines[e].seats > 0;
    }
    if (by_seats && o->kind == SCHEDULE_GAUNTLET)
        die("seats= fixes the one encounter: it does not go with -tournament gauntlet");
    if (by_seats ? schedule_init_seats(&a->sched, o->nengines, units, seats, o->rounds, o->games, o->shard,
                                       o->nshards, err, sizeof err)
                 : schedule_init(&a->sched, o->nengines, units, o->kind, o->rounds, o->games, o->shard,
                                 o->nshards, err, sizeof err))
        die("%s", err);
    if (o->table.sprt && (o->nengines != 2 || units != 2))
        die("-sprt needs 2 engines and a variant of 2 seats (or teams)");
    if (o->openings_file) {
        if (arena_openings_load(&a->openings, &a->v, o->openings_file, o->openings_plies, o->openings_random_order,
                                o->srand, o->openings_start, err, sizeof err))
            die("%s", err);
    } else
        arena_openings_init(&a->openings, &a->v, o->random_plies, o->srand);
    a->stderr_fd = open(o->stderr_path ? o->stderr_path : "/dev/null", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                        0644);
    if (a->stderr_fd < 0)
        die("%s: %s", o->stderr_path ? o->stderr_path : "/dev/null", strerror(errno));
    a->done = calloc((size_t)(a->sched.total / 8 + 1), 1);
    if (units == 2 && a->sched.rotations == 2 && (a->stats.pair_half = malloc((size_t)(a->sched.total / 2 + 1))))
        memset(a->stats.pair_half, -1, (size_t)(a->sched.total / 2 + 1));
    if (!a->done || (units == 2 && a->sched.rotations == 2 && !a->stats.pair_half))
        die("out of memory");
    a->shard_games = schedule_shard_games(&a->sched);
    a->tty = isatty(STDOUT_FILENO);
    arena_table_init(&a->table);
    ep_kill_children_on_signals();
    name_engines(a);
    schedule_fingerprint(a);
    if (o->pgnout && open_records(a, err, sizeof err))
        die("%s", err);
}

static void print_header(const Arena *a)
{
    const Options *o = a->o;
    printf("%s: %d engine%s, %ld games", a->v.name, o->nengines, o->nengines == 1 ? "" : "s", a->sched.total);
    if (o->nshards > 1)
        printf(", shard %d/%d: %ld games", o->shard, o->nshards, a->shard_games);
    if (a->finished)
        printf(", %ld already recorded", a->finished);
    printf(", concurrency %d\n", o->concurrency);
    fflush(stdout);
}

/* ---- Ctrl-C ---- */

/* The signals the signal thread waits for: SIGINT and SIGTERM stop the run;
 * SIGUSR1 wakes it when the run is over (workers_done). */
static void run_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGUSR1);
}

/* The signal thread, while the workers play: the first SIGINT or SIGTERM sets
 * interrupted and stop (no new game starts; the games in progress are not
 * recorded) and kills every engine, which ends the games in progress at once; it
 * goes on killing every KILL_AGAIN_MS any engine a worker started meanwhile, until
 * the workers are done. A second signal ends the process at once, as the signal
 * would without this thread (the record file then holds whole games, or a last
 * incomplete one that -resume drops). The signals are blocked in every thread, so
 * only this one takes them. */
static void *signal_main(void *arg)
{
    Arena *a = arg;
    sigset_t set;
    run_signals(&set);
    for (;;) {
        pthread_mutex_lock(&a->lock);
        const bool interrupted = a->interrupted != 0, done = a->workers_done;
        pthread_mutex_unlock(&a->lock);
        if (done)
            break;
        int sig;
        if (interrupted) {
            ep_kill_all();
            const struct timespec step = {0, KILL_AGAIN_MS * 1000000L};
            sig = sigtimedwait(&set, NULL, &step);
        } else
            sig = sigwaitinfo(&set, NULL);
        if (sig != SIGINT && sig != SIGTERM)
            continue; /* SIGUSR1, a timeout or EINTR: look at the flags again */
        pthread_mutex_lock(&a->lock);
        const bool again = a->interrupted != 0;
        if (!again) {
            a->interrupted = sig;
            a->stop = true;
            print_line(a, "stern-arena: %s: stopping the games in progress (%s quits at once)",
                       sig == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)",
                       sig == SIGINT ? "Ctrl-C again" : "a second SIGTERM");
        }
        pthread_mutex_unlock(&a->lock);
        ep_kill_all();
        if (again) {
            sigset_t one;
            sigemptyset(&one);
            sigaddset(&one, sig);
            signal(sig, SIG_DFL);
            pthread_sigmask(SIG_UNBLOCK, &one, NULL);
            raise(sig);
        }
    }
    return NULL;
}

/* Appends `word` to the command in buf (n bytes, *len used) after a space, in
 * single quotes when the shell would otherwise split or expand it. */
static void append_word(char *buf, size_t n, size_t *len, const char *word)
{
    const bool plain = *word && strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                                             "_@%+=:,./-") == strlen(word);
    if (*len && *len < n)
        *len += (size_t)snprintf(buf + *len, n - *len, " ");
    if (plain) {
        if (*len < n)
            *len += (size_t)snprintf(buf + *len, n - *len, "%s", word);
        return;
    }
    if (*len < n)
        *len += (size_t)snprintf(buf + *len, n - *len, "'");
    for (const char *c = word; *c && *len < n; c++)
        *len += (size_t)snprintf(buf + *len, n - *len, *c == '\'' ? "'\\''" : "%c", *c);
    if (*len < n)
        *len += (size_t)snprintf(buf + *len, n - *len, "'");
}

/* The command line argv (argc words) as one shell command with -resume, to
 * continue the run after an interruption (the words as given, before parsing
 * changes them); -resume is added unless given. Returns a malloc'ed string, kept
 * for the whole run. */
static const char *resume_command(int argc, char **argv)
{
    size_t n = sizeof " -resume";
    for (int i = 0; i < argc; i++)
        n += 4 * strlen(argv[i]) + 3; /* a space, the quotes, each ' as '\'' */
    char *buf = malloc(n);
    if (!buf)
        die("out of memory");
    size_t len = 0;
    bool resume = false;
    for (int i = 0; i < argc; i++) {
        append_word(buf, n, &len, argv[i]);
        resume |= !strcmp(argv[i], "-resume");
    }
    if (!resume)
        append_word(buf, n, &len, "-resume");
    return buf;
}

/* After a SIGINT or SIGTERM: what was stopped, what the record file holds (whole
 * games only: a game is written in one write when it ends, and the games cut
 * short are not written) and how to go on. */
static void print_interrupted(const Arena *a)
{
    printf("interrupted by %s: %ld game%s in progress stopped, not recorded\n",
           a->interrupted == SIGINT ? "SIGINT" : "SIGTERM", a->cut_short, a->cut_short == 1 ? "" : "s");
    if (a->o->pgnout) {
        printf("saved: %ld finished game%s in %s\n", a->records, a->records == 1 ? "" : "s", a->o->pgnout);
        printf("to go on, run the same command with -resume:\n  %s\n", a->o->resume_command);
    } else
        printf("saved: nothing (no -pgnout FILE: give one to be able to go on with -resume)\n");
}

static int run(Options *o)
{
    static Arena a;
    setup(&a, o);
    print_header(&a);
    double llr;
    if (sprt_state(&a, &llr) != SPRT_CONTINUE) {
        a.stop = true;
        printf("SPRT already decided (LLR %.2f): nothing to play\n", llr);
    }
    a.t0 = ep_now_ms();
    a.workers = calloc((size_t)o->concurrency, sizeof *a.workers);
    if (!a.workers)
        die("out of memory");
    sigset_t signals, old_mask;
    run_signals(&signals);
    pthread_sigmask(SIG_BLOCK, &signals, &old_mask); /* inherited by the threads; engines unblock them */
    pthread_t signal_thread;
    if (pthread_create(&signal_thread, NULL, signal_main, &a))
        die("cannot start the signal thread");
    for (int k = 0; k < o->concurrency; k++) {
        Worker *w = &a.workers[k];
        w->a = &a;
        for (int i = 0; i < MAX_SEATS; i++)
            w->procs[i].engine = -1;
        if (!(w->game = malloc(sizeof *w->game)))
            die("out of memory");
    }
    if (work_queue_run(a.sched.total, o->concurrency, play_job, &a))
        die("cannot start a worker thread");
    for (int k = 0; k < o->concurrency; k++) {
        for (int i = 0; i < MAX_SEATS; i++)
            proc_stop(&a.workers[k].procs[i], false);
        free(a.workers[k].game);
    }
    free(a.workers);
    pthread_mutex_lock(&a.lock);
    a.workers_done = true;
    pthread_mutex_unlock(&a.lock);
    pthread_kill(signal_thread, SIGUSR1);
    pthread_join(signal_thread, NULL);
    /* from here a signal ends the process at once (ep_kill_children_on_signals):
     * no game is in progress */
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    if (a.tty && a.progress_len)
        putchar('\n');
    char d[32];
    duration_text((double)(ep_now_ms() - a.t0) / 1000.0, d, sizeof d);
    printf("finished %ld of %ld games (%ld played now in %s)\n", a.finished, a.shard_games, a.finished_now, d);
    if (a.interrupted)
        print_interrupted(&a);
    if (a.table.n != a.finished) /* resumed: the table rates the file, as -ratings does */
        printf("the table rates all %ld rated records of %s, of which %ld are finished games of this %s\n",
               a.table.n, o->pgnout ? o->pgnout : "this run", a.finished, o->nshards > 1 ? "shard" : "schedule");
    fflush(stdout);
    if (arena_table_print(stdout, &a.table, &o->table))
        fprintf(stderr, "stern-arena: cannot compute the ratings (out of memory)\n");
    if (a.pgn_fd >= 0)
        close(a.pgn_fd);
    close(a.stderr_fd);
    arena_table_free(&a.table);
    free(a.stats.pair_half);
    free(a.done);
    schedule_free(&a.sched);
    arena_openings_free(&a.openings);
    return a.interrupted ? 128 + a.interrupted : a.status;
}

/* -ratings: the tables of any record files. */
static int rate_files(const Options *o)
{
    ArenaTable t;
    arena_table_init(&t);
    int incomplete = 0, unrated = 0;
    for (int i = 0; i < o->nrating_files; i++) {
        char err[PGN_ERR_MAX + 64];
        if (arena_table_add_file(&t, o->rating_files[i], i, &incomplete, &unrated, err, sizeof err)) {
            fprintf(stderr, "stern-arena: %s\n", err);
            arena_table_free(&t);
            return 1;
        }
    }
    if (incomplete || unrated)
        fprintf(stderr, "stern-arena: left out %d incomplete and %d unfinished games\n", incomplete, unrated);
    const int rc = arena_table_print(stdout, &t, &o->table);
    arena_table_free(&t);
    return rc ? 1 : 0;
}

/* -merge: the shards of one schedule, checked, their missing games listed,
 * rated, and with -pgnout written in game order. Exit status 0, 1 on an error
 * (nothing written), 3 when games are missing. */
static int merge_files(const Options *o)
{
    ArenaTable t;
    arena_table_init(&t);
    FILE *out = NULL;
    char tmp[PATH_MAX];
    if (o->pgnout) { /* written beside, renamed over OUT once whole: OUT may be an input's name */
        if (snprintf(tmp, sizeof tmp, "%s.tmp", o->pgnout) >= (int)sizeof tmp)
            die("-pgnout %s: name too long", o->pgnout);
        struct stat so, si;
        for (int i = 0; i < o->nrating_files && !stat(o->pgnout, &so); i++)
            if (!stat(o->rating_files[i], &si) && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
                die("-pgnout %s is one of the files to merge", o->pgnout);
        if (!(out = fopen(tmp, "w")))
            die("%s: %s", tmp, strerror(errno));
    }
    MergeResult res;
    char err[PGN_ERR_MAX + 512];
    if (arena_merge_records(o->rating_files, o->nrating_files, &t, out, &res, err, sizeof err)) {
        fprintf(stderr, "stern-arena: -merge: %s\n", err);
        if (out) {
            fclose(out);
            unlink(tmp);
        }
        arena_table_free(&t);
        arena_merge_result_free(&res);
        return 1;
    }
    if (out && (fclose(out) || rename(tmp, o->pgnout)))
        die("%s: %s", o->pgnout, strerror(errno));
    printf("schedule %s: %ld games in %d shard%s: %ld recorded, %ld missing\n", res.schedule, res.total,
           res.nshards, res.nshards == 1 ? "" : "s", res.recorded, res.missing);
    if (res.incomplete)
        printf("left out %ld game%s cut short (its shard's -resume plays it again)\n", res.incomplete,
               res.incomplete == 1 ? "" : "s");
    if (arena_merge_print_missing(stdout, &res))
        printf("run each shard listed again with the same command and -resume: it plays only its missing games\n");
    const int rc = arena_table_print(stdout, &t, &o->table);
    const long missing = res.missing;
    arena_table_free(&t);
    arena_merge_result_free(&res);
    return rc ? 1 : missing ? 3 : 0;
}

/* One merge of -watch: the files of o that exist into t (the merged records
 * to `out` when not NULL) and *res. Returns 1 when merged, 0 when there is no
 * finished game yet, -1 on an error (said). */
static int watch_merge(const Options *o, ArenaTable *t, FILE *out, MergeResult *res)
{
    const char **files = malloc(sizeof *files * (size_t)o->nrating_files);
    if (!files)
        die("out of memory");
    int n = 0;
    for (int i = 0; i < o->nrating_files; i++)
        if (!access(o->rating_files[i], F_OK)) /* a shard not started yet has no file */
            files[n++] = o->rating_files[i];
    char err[PGN_ERR_MAX + 512];
    int rc = 0;
    memset(res, 0, sizeof *res);
    if (n && arena_merge_records(files, n, t, out, res, err, sizeof err) == 0)
        rc = 1;
    else if (n && !strstr(err, "no finished game in the files")) {
        fprintf(stderr, "stern-arena: -merge: %s\n", err);
        rc = -1;
    }
    free(files);
    return rc;
}

/* -merge -sprt -watch: the shards' records merged every o->watch seconds; the
 * SPRT's LLR over their whole game pairs (a pair with one game recorded is
 * not counted, so that the LLR is the one a single process computes over the
 * same games) printed each time; on a decision the records it decided on go
 * to -pgnout and -on-decision runs. Exit status 0 on a decision, 3 when every
 * game is recorded undecided, 1 on an error. */
static int watch_files(const Options *o)
{
    const TableOptions *to = &o->table;
    const SprtBounds b = sprt_bounds(to->alpha, to->beta);
    char tmp[PATH_MAX];
    if (o->pgnout && snprintf(tmp, sizeof tmp, "%s.tmp", o->pgnout) >= (int)sizeof tmp)
        die("-pgnout %s: name too long", o->pgnout);
    for (long round = 1;; round++) {
        FILE *out = NULL;
        if (o->pgnout && !(out = fopen(tmp, "w")))
            die("%s: %s", tmp, strerror(errno));
        ArenaTable t;
        arena_table_init(&t);
        MergeResult res;
        const int merged = watch_merge(o, &t, out, &res);
        if (out && fclose(out))
            die("%s: %s", tmp, strerror(errno));
        if (merged < 0) {
            arena_table_free(&t);
            arena_merge_result_free(&res);
            if (o->pgnout)
                unlink(tmp);
            return 1;
        }
        Pentanomial p = {{0}};
        Wdl w = {0};
        const char *first = "?", *second = "?";
        if (merged && arena_table_match(&t, &p, &w, &first, &second)) {
            fprintf(stderr, "stern-arena: -watch: the records are no match of two players in two seats\n");
            arena_table_free(&t);
            arena_merge_result_free(&res);
            return 1;
        }
        int pairs = 0;
        for (int i = 0; i < PENTA_SIZE; i++)
            pairs += p.n[i];
        const double llr = pairs ? sprt_llr(&p, 0, 0, 0, to->elo0, to->elo1) : 0;
        const SprtDecision d = pairs ? sprt_decide(llr, b) : SPRT_CONTINUE;
        const char *says = d == SPRT_ACCEPT_H1 ? "H1 accepted" : d == SPRT_ACCEPT_H0 ? "H0 accepted" : "continue";
        printf("watch %ld: %ld of %ld games recorded, %d whole pairs [LL LD DD/WL WD WW] [%d %d %d %d %d]: %s vs %s "
               "+%d =%d -%d: LLR %.2f [%.2f, %.2f]: %s\n",
               round, res.recorded, res.total, pairs, p.n[PENTA_LL], p.n[PENTA_LD], p.n[PENTA_DD_WL], p.n[PENTA_WD],
               p.n[PENTA_WW], first, second, w.wins, w.draws, w.losses, llr, b.lower, b.upper, says);
        fflush(stdout);
        const bool complete = merged && res.missing == 0;
        arena_table_free(&t);
        arena_merge_result_free(&res);
        if (d != SPRT_CONTINUE) {
            if (o->pgnout && rename(tmp, o->pgnout))
                die("%s: %s", o->pgnout, strerror(errno));
            if (o->on_decision) {
                setenv("STERN_SPRT", d == SPRT_ACCEPT_H1 ? "H1" : "H0", 1);
                const int st = system(o->on_decision);
                printf("-on-decision: '%s' exited %d\n", o->on_decision, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
            }
            return 0;
        }
        if (o->pgnout)
            unlink(tmp);
        if (complete) {
            printf("every game recorded, no decision\n");
            return 3;
        }
        const struct timespec pause = {(time_t)o->watch, (long)((o->watch - (time_t)o->watch) * 1e9)};
        nanosleep(&pause, NULL);
    }
}

int main(int argc, char **argv)
{
    static Options o;
    /* the words as given (parsing cuts KEY=VALUE words), kept for the run */
    static char **words;
    static char shard[32];
    words = calloc((size_t)argc + 1, sizeof *words);
    for (int i = 0; words && i < argc; i++)
        if (!(words[i] = strdup(argv[i])))
            die("out of memory");
    if (!words)
        die("out of memory");
    parse_options(&o, argc, argv);
    /* -shard auto resolved to this task's K/N, so that the command to go on
     * works outside the array task too (by hand, or in another job) */
    snprintf(shard, sizeof shard, "%d/%d", o.shard, o.nshards);
    for (int i = 0; i + 1 < argc; i++)
        if (!strcmp(words[i], "-shard") && !strncmp(words[i + 1], "auto", 4)) {
            free(words[i + 1]);
            words[i + 1] = shard;
        }
    o.resume_command = resume_command(argc, words);
    return o.watch ? watch_files(&o) : o.merge ? merge_files(&o) : o.nrating_files ? rate_files(&o) : run(&o);
}
