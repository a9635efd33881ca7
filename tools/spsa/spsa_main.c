/* spsa_main.c - stern-spsa: tunes evaluation weights by SPSA over fast arena games.
 *
 * Simultaneous perturbation stochastic approximation (Spall 1998, "An overview of
 * the simultaneous perturbation method for efficient optimization", Johns Hopkins
 * APL Technical Digest 19(4)); the gain schedule and the per-parameter c_end /
 * r_end settings follow the convention of chess engine tuning (fishtest):
 * c_k = c / (k+1)^gamma with c = c_end * N^gamma, a_k = a / (A+k+1)^alpha with
 * A = N / 10 and a = r_end * c_end^2 * (A+N)^alpha.
 *
 * Every iteration perturbs all weights at once by +-c_k, builds the two engines
 * with the weights as build-time overrides (engine/eval/eval.c: -DNAME=value, so the
 * engine itself carries no tuning code), plays them against each other with
 * build/stern-arena, and moves each weight by a_k * (wins - losses) / (c_k *
 * delta_i) toward the better side. With three or more units (seats, or
 * teams) the games are rated from places (RULES.md section 10): each game is a
 * comparison of plus with every unit of minus, and wins - losses is twice the
 * points less the comparisons; half the games seat one plus against minus in
 * every other unit, half the other way round.
 *
 * Each match is split into -shards arena runs (stern-arena -shard I/N, whole
 * sets of games each, so the shards together play the games of one run), all
 * started at once through the -run command template (a local process, or an
 * srun job step on a cluster), and rated from their records (stern-arena
 * -ratings). A lost shard (shard_match.h) leaves its games out: the
 * step is taken per game played. With -checkpoint FILE the run's state is
 * written after every iteration (checkpoint.h), and -resume goes on from it:
 * a cut run, resumed, prints what the uncut run prints (but the line of an
 * iteration cut between its checkpoint and its print). Errors (a failed build, no game played in an
 * iteration, a bad -param, -shards or template) stop the run with a message
 * naming the cause.
 */
#include "args.h"
#include "checkpoint.h"
#include "cmd_template.h"
#include "schedule.h"
#include "shard_match.h"
#include "variant.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS CHECKPOINT_PARAMS

/* -B: make cannot see that the flags changed, so without it every iteration
 * after the first would play the first iteration's engines again. */
#define DEFAULT_BUILD "make -s -B BUILD={dir} EXTRA_CFLAGS={flags} {dir}/stern >/dev/null"

typedef struct {
    char name[64];
    double value, min, max, c_end, r_end;
} Param;

static int usage_to(FILE *f, int status)
{
    fprintf(f,
            "usage: stern-spsa -param NAME=START,MIN,MAX,C_END[,R_END] [-param ...] [options]\n"
            "  NAME            an evaluation weight of engine/eval/eval.c (e.g. W_DISTANCE)\n"
            "  -iterations N   SPSA iterations (default 100)\n"
            "  -games G        games per iteration, even (default 20)\n"
            "  -tc S+I         clock of the games (default 1+0.01)\n"
            "  -variant V      variant (default classic-2); with three or more units\n"
            "                  the games are rated from places (both ways round)\n"
            "  -concurrency K  games at once in each shard (default 2)\n"
            "  -shards S       split each match into S arena runs, started all at once\n"
            "                  (default 1; at most the game pairs of a match, or with\n"
            "                  three or more units its rounds: a shard plays whole sets)\n"
            "  -run TEMPLATE   the shell command that runs a shard (default '{cmd}', a\n"
            "                  local process): {cmd} the shard's arena command, shell-\n"
            "                  quoted, and {shard}, {shards}, {iteration}; on Slurm\n"
            "                  -run 'srun --ntasks=1 --exclusive {cmd}'. A failed shard\n"
            "                  runs once more with -resume; if it fails again the\n"
            "                  iteration goes on with the other shards' games\n"
            "  -seed S         seed of the perturbations and openings (default 1)\n"
            "  -workdir DIR    where the engines are built and the shards' records and\n"
            "                  logs (match-M-I.pgn, .log) go (default /tmp/stern-spsa)\n"
            "  -arena PATH     the arena program (default build/stern-arena)\n"
            "  -build TEMPLATE the shell command that builds an engine with the weights:\n"
            "                  {dir} its directory (the engine is DIR/stern), {flags} the\n"
            "                  -DNAME=value flags, both shell-quoted (default\n"
            "                  '" DEFAULT_BUILD "')\n"
            "  -checkpoint F   write the run's state to F after every iteration (the\n"
            "                  iterations done, the weights, the signs' generator)\n"
            "  -resume         go on from -checkpoint's file when there is one (it must\n"
            "                  be of the same -param, -iterations, -games, -tc,\n"
            "                  -variant and -seed); the output goes on as the uncut\n"
            "                  run's would\n"
            "Run it from the repository root (it calls make and build/stern-arena).\n");
    return status;
}

static int usage(void) { return usage_to(stderr, 2); }

static int parse_param(const char *text, Param *p)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof p->name) {
        fprintf(stderr, "stern-spsa: -param '%s': expected NAME=START,MIN,MAX,C_END[,R_END]\n", text);
        return -1;
    }
    memcpy(p->name, text, (size_t)(eq - text));
    p->name[eq - text] = 0;
    for (const char *c = p->name; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_')) {
            fprintf(stderr, "stern-spsa: -param '%s': the name must be an upper-case C identifier\n", text);
            return -1;
        }
    p->r_end = 0.002;
    const int n = sscanf(eq + 1, "%lf,%lf,%lf,%lf,%lf", &p->value, &p->min, &p->max, &p->c_end, &p->r_end);
    if (n < 4 || p->min > p->max || p->value < p->min || p->value > p->max || p->c_end <= 0 || p->r_end <= 0) {
        fprintf(stderr, "stern-spsa: -param '%s': need START within MIN..MAX, C_END > 0 and R_END > 0\n", text);
        return -1;
    }
    return 0;
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Builds the engine with the given weights into dir/stern by the -build
 * template `build` ({dir} and {flags}, the -D flags, shell-quoted); returns 0,
 * or -1 with a message when the command fails. */
static int build_engine(const char *build, const char *dir, const Param *ps, int n, const double *values)
{
    char flags[2048] = "", qflags[4096] = "", qdir[1200] = "", cmd[8192];
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(flags + len, sizeof flags - len, "%s-D%s=%ld", i ? " " : "", ps[i].name,
                                lround(values[i]));
    const TemplateField fields[] = {{"dir", qdir}, {"flags", qflags}};
    if (cmd_template_quote(qflags, sizeof qflags, flags) || cmd_template_quote(qdir, sizeof qdir, dir) ||
        cmd_template_expand(build, fields, 2, cmd, sizeof cmd)) {
        fprintf(stderr, "stern-spsa: the build command is too long\n");
        return -1;
    }
    if (system(cmd) != 0) {
        fprintf(stderr, "stern-spsa: build failed: %s\n", cmd);
        return -1;
    }
    return 0;
}

/* How the matches of an iteration are played: where, in how many shards,
 * through which template. */
typedef struct {
    const char *arena, *run, *workdir, *variant, *tc;
    int conc, shards, iteration;
} Setup;

/* The games of every shard of a match in *planned (st->shards of them): two
 * engines, `units` units, seats (NULL: one unit each), `rounds` rounds of
 * `games` games (0: one set), the schedule stern-arena plays. Returns 0, or -1
 * with a message. */
static int plan_shards(const Setup *st, int units, const int *seats, int rounds, int games, long *planned)
{
    for (int i = 0; i < st->shards; i++) {
        Schedule s;
        char err[256];
        const int r = seats ? schedule_init_seats(&s, 2, units, seats, rounds, games, i + 1, st->shards, err, sizeof err)
                            : schedule_init(&s, 2, units, SCHEDULE_ROUND_ROBIN, rounds, games, i + 1, st->shards, err,
                                            sizeof err);
        if (r) {
            fprintf(stderr, "stern-spsa: %s\n", err);
            return -1;
        }
        planned[i] = schedule_shard_games(&s);
        schedule_free(&s);
    }
    return 0;
}

/* Plays match `half` of the iteration, arena arguments argv (argc, without
 * -shard, -pgnout), in st->shards shards through the -run template (records
 * WORKDIR/match-HALF-I.pgn), planned[] games a shard. Returns a stream of
 * `stern-arena -ratings` over the finished shards' records (to pclose) with
 * their games in *played, and the planned games added to *planned_all; NULL
 * with *played 0 when no shard finished; NULL with *played -1 and a message on
 * an error. */
static FILE *play_shards(const Setup *st, int half, const char *const *argv, int argc, const long *planned,
                         long *played, long *planned_all)
{
    for (int i = 0; i < st->shards; i++)
        *planned_all += planned[i];
    char prefix[1100], cmd[16384] = "";
    snprintf(prefix, sizeof prefix, "%s/match-%d", st->workdir, half);
    const ShardMatch m = {"stern-spsa", argv, argc, st->run, st->shards, st->iteration, prefix, planned};
    bool finished[SHARD_MATCH_MAX];
    *played = shard_match_play(&m, finished);
    if (*played <= 0)
        return NULL;
    int fits = !cmd_template_quote(cmd, sizeof cmd, st->arena) && !cmd_template_quote(cmd, sizeof cmd, "-ratings");
    for (int i = 0; i < st->shards; i++) {
        char record[1200];
        snprintf(record, sizeof record, "%s-%d.pgn", prefix, i + 1);
        if (finished[i])
            fits = fits && !cmd_template_quote(cmd, sizeof cmd, record);
    }
    FILE *f = fits && strlen(cmd) + 6 < sizeof cmd ? popen(strcat(cmd, " 2>&1"), "r") : NULL;
    if (!f) {
        fprintf(stderr, "stern-spsa: cannot rate the records: %s\n", cmd);
        *played = -1;
    }
    return f;
}

/* Plays plus against minus, `games` games (games/2 pairs); returns 0 with
 * wins and losses of plus, the games played in *played (fewer than planned
 * when a shard was lost, 0 when none was played) and planned in
 * *planned_all, or -1. */
static int play_match(const Setup *st, int games, int seed, int *wins, int *losses, long *played, long *planned_all)
{
    char plus[1100], minus[1100], tc[256], rounds[16], conc[16], srand_[16];
    snprintf(plus, sizeof plus, "cmd=%s/plus/stern", st->workdir);
    snprintf(minus, sizeof minus, "cmd=%s/minus/stern", st->workdir);
    snprintf(tc, sizeof tc, "tc=%s", st->tc);
    snprintf(rounds, sizeof rounds, "%d", games / 2);
    snprintf(conc, sizeof conc, "%d", st->conc);
    snprintf(srand_, sizeof srand_, "%d", seed);
    const char *argv[] = {st->arena, "-quiet", "-engine", plus, "name=plus", "-engine", minus, "name=minus",
                          "-each", tc, "-variant", st->variant, "-games", "2", "-rounds", rounds,
                          "-concurrency", conc, "-openings", "random=4", "-srand", srand_};
    long planned[SHARD_MATCH_MAX];
    if (plan_shards(st, 2, NULL, games / 2, 2, planned))
        return -1;
    *wins = *losses = 0;
    *planned_all = 0;
    FILE *f = play_shards(st, 0, argv, (int)(sizeof argv / sizeof *argv), planned, played, planned_all);
    if (!f)
        return *played < 0 ? -1 : 0;
    char line[1024];
    int found = 0, draws = 0;
    while (fgets(line, sizeof line, f)) {
        const char *at = strstr(line, "plus vs minus: ");
        if (at && sscanf(at, "plus vs minus: %d wins, %d draws, %d losses", wins, &draws, losses) == 3)
            found = 1;
    }
    const int status = pclose(f);
    if (status != 0 || !found) {
        fprintf(stderr, "stern-spsa: rating the records of %s/match-0-*.pgn failed (status %d)\n", st->workdir, status);
        return -1;
    }
    return 0;
}

/* Reads plus's points and comparisons off an arena rating table (the row
 * whose name is plus); returns 0, or -1 when no such row was read. */
static int read_points(FILE *f, double *points, int *comparisons)
{
    char line[1024];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        int rank;
        char name[64];
        if (sscanf(line, " %d %63s", &rank, name) != 2 || strcmp(name, "plus"))
            continue;
        for (char *t = strtok(line, " "); t; t = strtok(NULL, " "))
            if (strchr(t, '/') && sscanf(t, "%lf/%d", points, comparisons) == 2)
                found = 1;
    }
    return found ? 0 : -1;
}

/* Sets of each of the two matches of a places iteration: one set (a game in
 * every rotation) a round. */
static int places_rounds(int games, int units) { return games / (2 * units) > 0 ? games / (2 * units) : 1; }

/* Plays plus against minus in a variant of `units` >= 3 units, `games` games
 * in all (half with plus in one unit, half with minus in one); returns 0 with
 * plus's wins - losses over its comparisons with minus in *balance, the
 * comparisons in *total, the games played in *played (0: none) and planned
 * in *planned_all, or -1. */
static int play_places(const Setup *st, int units, int games, int seed, int *balance, int *total, long *played,
                       long *planned_all)
{
    const int rounds = places_rounds(games, units);
    *balance = *total = 0;
    *played = *planned_all = 0;
    for (int half = 0; half < 2; half++) {
        char plus[1100], minus[1100], plus_seats[16], minus_seats[16], tc[256], rounds_[16], conc[16], srand_[16];
        const int seats[2] = {half ? units - 1 : 1, half ? 1 : units - 1};
        snprintf(plus, sizeof plus, "cmd=%s/plus/stern", st->workdir);
        snprintf(minus, sizeof minus, "cmd=%s/minus/stern", st->workdir);
        snprintf(plus_seats, sizeof plus_seats, "seats=%d", seats[0]);
        snprintf(minus_seats, sizeof minus_seats, "seats=%d", seats[1]);
        snprintf(tc, sizeof tc, "tc=%s", st->tc);
        snprintf(rounds_, sizeof rounds_, "%d", rounds);
        snprintf(conc, sizeof conc, "%d", st->conc);
        snprintf(srand_, sizeof srand_, "%d", seed + half);
        const char *argv[] = {st->arena, "-quiet", "-engine", plus, "name=plus", plus_seats, "-engine", minus,
                              "name=minus", minus_seats, "-each", tc, "-variant", st->variant, "-rounds", rounds_,
                              "-concurrency", conc, "-openings", "random=4", "-srand", srand_};
        long planned[SHARD_MATCH_MAX], n;
        if (plan_shards(st, units, seats, rounds, 0, planned))
            return -1;
        FILE *f = play_shards(st, half, argv, (int)(sizeof argv / sizeof *argv), planned, &n, planned_all);
        if (!f) {
            if (n < 0)
                return -1;
            continue;
        }
        double points = 0;
        int comparisons = 0;
        const int unread = read_points(f, &points, &comparisons);
        const int status = pclose(f);
        if (status != 0 || unread) {
            fprintf(stderr, "stern-spsa: rating the records of %s/match-%d-*.pgn failed (status %d)\n", st->workdir,
                    half, status);
            return -1;
        }
        *balance += (int)lround(2 * points) - comparisons;
        *total += comparisons;
        *played += n;
    }
    return 0;
}

/* What the run was asked for. */
typedef struct {
    Param ps[MAX_PARAMS];
    int np, iterations, games, conc, shards;
    unsigned seed;
    const char *tc, *variant, *workdir, *arena, *build, *run, *checkpoint;
    bool resume;
    const Variant *var;
} Options;

/* Reads the command line into *o. Returns -1 when it is whole, else the exit
 * status after a message or the usage. */
static int parse_options(int argc, char **argv, Options *o)
{
    *o = (Options){.iterations = 100, .games = 20, .conc = 2, .shards = 1, .seed = 1, .tc = "1+0.01",
                   .variant = "classic-2", .workdir = "/tmp/stern-spsa", .arena = "build/stern-arena",
                   .build = DEFAULT_BUILD, .run = "{cmd}"};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-param") && i + 1 < argc) {
            if (o->np == MAX_PARAMS || parse_param(argv[++i], &o->ps[o->np]))
                return 2;
            o->np++;
        } else if ((!strcmp(argv[i], "-iterations") || !strcmp(argv[i], "-games") || !strcmp(argv[i], "-concurrency") ||
                    !strcmp(argv[i], "-seed")) &&
                   i + 1 < argc) {
            long long v;
            const char *name = argv[i];
            if (!args_int("stern-spsa", name, argv[++i], !strcmp(name, "-seed") ? 0 : 1,
                          !strcmp(name, "-seed") ? 4294967295LL : 1000000, &v))
                return 2;
            if (!strcmp(name, "-iterations"))
                o->iterations = (int)v;
            else if (!strcmp(name, "-games"))
                o->games = (int)v;
            else if (!strcmp(name, "-concurrency"))
                o->conc = (int)v;
            else
                o->seed = (unsigned)v;
        }
        else if (!strcmp(argv[i], "-tc") && i + 1 < argc) o->tc = argv[++i];
        else if (!strcmp(argv[i], "-variant") && i + 1 < argc) o->variant = argv[++i];
        else if (!strcmp(argv[i], "-workdir") && i + 1 < argc) o->workdir = argv[++i];
        else if (!strcmp(argv[i], "-arena") && i + 1 < argc) o->arena = argv[++i];
        else if (!strcmp(argv[i], "-build") && i + 1 < argc) o->build = argv[++i];
        else if (!strcmp(argv[i], "-run") && i + 1 < argc) o->run = argv[++i];
        else if (!strcmp(argv[i], "-checkpoint") && i + 1 < argc) o->checkpoint = argv[++i];
        else if (!strcmp(argv[i], "-resume")) o->resume = true;
        else if (!strcmp(argv[i], "-shards") && i + 1 < argc) {
            long long v;
            if (!args_int("stern-spsa", "-shards", argv[++i], 1, SHARD_MATCH_MAX, &v))
                return 2;
            o->shards = (int)v;
        }
        else
            return usage();
    }
    return -1;
}

/* Whether the options make a run: parameters, an even number of games, the
 * templates' fields, a known variant and no more shards than sets. Returns -1
 * when they do, else the exit status after a message. */
static int check_options(Options *o)
{
    if (o->np == 0 || o->iterations < 1 || o->games < 2 || o->games % 2 || o->conc < 1)
        return usage();
    if (o->resume && !o->checkpoint) {
        fprintf(stderr, "stern-spsa: -resume goes on from a -checkpoint FILE: give one\n");
        return 2;
    }
    if (!cmd_template_has(o->build, "dir")) {
        fprintf(stderr, "stern-spsa: -build '%s': the template must contain {dir}, where the engine goes\n", o->build);
        return 2;
    }
    if (!cmd_template_has(o->run, "cmd")) {
        fprintf(stderr, "stern-spsa: -run '%s': the template must contain {cmd}, the arena command of a shard\n",
                o->run);
        return 2;
    }
    if (!(o->var = variant_find(o->variant))) {
        fprintf(stderr, "stern-spsa: unknown variant '%s'\n", o->variant);
        return 2;
    }
    /* A shard plays whole sets (a game pair, or an opening in every rotation):
     * more shards than sets would leave some with nothing to play. */
    const int sets = o->var->nunits > 2 ? places_rounds(o->games, o->var->nunits) : o->games / 2;
    if (o->shards > sets) {
        fprintf(stderr, "stern-spsa: -shards %d: a match of -games %d has %d sets of games and a shard plays whole "
                "sets, so at most %d shards\n", o->shards, o->games, sets, sets);
        return 2;
    }
    return -1;
}

/* Iteration k's perturbation: each parameter's step c_k and gain a_k (the
 * gains decay as Spall's SPSA has them: alpha 0.602, gamma 0.101, A a tenth of
 * the iterations), a random sign, and the weights of the engines plus and
 * minus (kept within each parameter's range). */
typedef struct {
    double plus[MAX_PARAMS], minus[MAX_PARAMS], delta[MAX_PARAMS], ck[MAX_PARAMS], ak[MAX_PARAMS];
} Perturbation;

static void perturb(const Options *o, int k, Perturbation *pt, long *draws)
{
    *draws += o->np;
    const double alpha = 0.602, gamma = 0.101, big_a = o->iterations / 10.0;
    for (int i = 0; i < o->np; i++) {
        const Param *p = &o->ps[i];
        const double c = p->c_end * pow(o->iterations, gamma);
        const double a = p->r_end * p->c_end * p->c_end * pow(big_a + o->iterations, alpha);
        pt->ck[i] = c / pow(k + 1, gamma);
        pt->ak[i] = a / pow(big_a + k + 1, alpha);
        pt->delta[i] = rand() & 1 ? 1.0 : -1.0;
        pt->plus[i] = clampd(p->value + pt->ck[i] * pt->delta[i], p->min, p->max);
        pt->minus[i] = clampd(p->value - pt->ck[i] * pt->delta[i], p->min, p->max);
    }
}

/* What the engine plus scored against the engine minus in one iteration. */
typedef struct {
    int w, l, total;      /* wins and losses (games, or comparisons from places), of total */
    long played, planned; /* games */
} Outcome;

/* Builds the engines plus and minus of perturbation pt and plays iteration k's
 * match between them. Returns 0, or -1 with a message. */
static int play_iteration(const Options *o, Setup *st, int k, const Perturbation *pt, Outcome *out)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/plus", o->workdir);
    if (build_engine(o->build, dir, o->ps, o->np, pt->plus))
        return -1;
    snprintf(dir, sizeof dir, "%s/minus", o->workdir);
    if (build_engine(o->build, dir, o->ps, o->np, pt->minus))
        return -1;
    *out = (Outcome){0};
    st->iteration = k + 1;
    if (o->var->nunits > 2) {
        int balance;
        if (play_places(st, o->var->nunits, o->games, (int)o->seed * 100003 + 2 * k, &balance, &out->total,
                        &out->played, &out->planned))
            return -1;
        out->w = balance > 0 ? balance : 0;
        out->l = balance < 0 ? -balance : 0;
    } else {
        if (play_match(st, o->games, (int)o->seed * 100003 + k, &out->w, &out->l, &out->played, &out->planned))
            return -1;
        out->total = (int)out->played;
    }
    return 0;
}

/* Moves every parameter by its gain times the match's result over its step.
 * A lost shard's games count for nothing: the step is taken per game played
 * (not scaled up to the planned games, which would scale up the noise of the
 * few games left as well). */
static void step(Options *o, const Perturbation *pt, const Outcome *out)
{
    for (int i = 0; i < o->np; i++) {
        Param *p = &o->ps[i];
        p->value = clampd(p->value + pt->ak[i] * (out->w - out->l) / (pt->ck[i] * pt->delta[i]), p->min, p->max);
    }
}

/* Prints iteration k's line: the match and the weights after it. */
static void say_iteration(const Options *o, int k, const Outcome *out)
{
    printf("iteration %d: plus vs minus %+d (of %d %s", k + 1, out->w - out->l, out->total,
           o->var->nunits > 2 ? "comparisons" : "games");
    if (out->played < out->planned)
        printf("; %ld of %ld games lost with their shards", out->planned - out->played, out->planned);
    printf(")");
    for (int i = 0; i < o->np; i++)
        printf(" %s=%.2f", o->ps[i].name, o->ps[i].value);
    printf("\n");
    fflush(stdout);
}

/* The settings that decide the run's weights, as the checkpoint names its
 * run: every -param as given, -iterations, -games, -tc, -variant, -seed. */
static void run_line(const Options *o, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "variant %s tc %s games %d iterations %d seed %u", o->variant, o->tc,
                                  o->games, o->iterations, o->seed);
    for (int i = 0; i < o->np && len < n; i++) {
        const Param *p = &o->ps[i];
        len += (size_t)snprintf(buf + len, n - len, " %s=%.17g,%.17g,%.17g,%.17g,%.17g", p->name, p->value, p->min,
                                p->max, p->c_end, p->r_end);
    }
}

/* The state of the run after `done` iterations and `draws` draws. */
static SpsaState state_of(const Options *o, int done, long draws)
{
    SpsaState s = {.done = done, .draws = draws, .np = o->np};
    for (int i = 0; i < o->np; i++) {
        snprintf(s.name[i], sizeof s.name[i], "%s", o->ps[i].name);
        s.value[i] = o->ps[i].value;
    }
    return s;
}

/* -resume: the iterations done and draws made by the run that wrote the
 * checkpoint, its weights set in o (none done when there is no file yet).
 * Returns 0, or -1 with a message. */
static int resume_run(Options *o, const char *run, int *done, long *draws)
{
    SpsaState s = state_of(o, 0, 0);
    char err[1024];
    const int r = checkpoint_read(o->checkpoint, run, &s, err, sizeof err);
    if (r < 0) {
        fprintf(stderr, "stern-spsa: -resume: %s\n", err);
        return -1;
    }
    if (r == 0 || s.done == 0)
        return 0;
    if (s.done > o->iterations || s.draws != (long)s.done * o->np) {
        fprintf(stderr, "stern-spsa: -resume: %s: %d iterations and %ld draws are not a state of this run\n",
                o->checkpoint, s.done, s.draws);
        return -1;
    }
    for (int i = 0; i < o->np; i++)
        o->ps[i].value = s.value[i];
    *done = s.done;
    *draws = s.draws;
    fprintf(stderr, "stern-spsa: resuming from %s after iteration %d\n", o->checkpoint, s.done);
    return 0;
}

int main(int argc, char **argv)
{
    if (args_help(argc, argv))
        return usage_to(stdout, 0);
    static Options o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0 || (status = check_options(&o)) >= 0)
        return status;
    Setup st = {o.arena, o.run, o.workdir, o.variant, o.tc, o.conc, o.shards, 0};
    static char run[8192];
    run_line(&o, run, sizeof run);
    int first = 0;
    long draws = 0;
    if (o.resume && resume_run(&o, run, &first, &draws))
        return 1;
    /* the signs' generator where the cut run left it */
    srand(o.seed);
    for (long d = 0; d < draws; d++)
        (void)rand();
    for (int k = first; k < o.iterations; k++) {
        Perturbation pt;
        Outcome out;
        perturb(&o, k, &pt, &draws);
        if (play_iteration(&o, &st, k, &pt, &out))
            return 1;
        /* Nothing played is no evidence at all, and most likely a template or a
         * cluster that fails every shard: going on would only repeat it. */
        if (out.played == 0) {
            fprintf(stderr, "stern-spsa: iteration %d: every shard failed, no game was played (see the logs %s/match-*.log)\n",
                    k + 1, o.workdir);
            return 1;
        }
        step(&o, &pt, &out);
        /* the state first, then the line: a cut between them prints no line twice */
        char err[1024];
        const SpsaState now = state_of(&o, k + 1, draws);
        if (o.checkpoint && checkpoint_write(o.checkpoint, run, &now, err, sizeof err)) {
            fprintf(stderr, "stern-spsa: -checkpoint: %s\n", err);
            return 1;
        }
        say_iteration(&o, k, &out);
    }
    printf("final:");
    for (int i = 0; i < o.np; i++)
        printf(" -D%s=%ld", o.ps[i].name, lround(o.ps[i].value));
    printf("\n");
    return 0;
}
