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
 * with the weights as build-time overrides (engine/search/eval.c: -DNAME=value, so the
 * engine itself carries no tuning code), plays them against each other with
 * build/stern-arena, and moves each weight by a_k * (wins - losses) / (c_k *
 * delta_i) toward the better side. With three or more units (seats, or
 * teams) the games are rated from places (RULES.md section 10): each game is a
 * comparison of plus with every unit of minus, and wins - losses is twice the
 * points less the comparisons; half the games seat one plus against minus in
 * every other unit, half the other way round. Errors (a failed build or match, a bad
 * -param) stop the run with a message naming the cause.
 */
#include "args.h"
#include "cmd_template.h"
#include "variant.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 16

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
            "  NAME            an evaluation weight of engine/search/eval.c (e.g. W_DISTANCE)\n"
            "  -iterations N   SPSA iterations (default 100)\n"
            "  -games G        games per iteration, even (default 20)\n"
            "  -tc S+I         clock of the games (default 1+0.01)\n"
            "  -variant V      variant (default classic-2); with three or more units\n"
            "                  the games are rated from places (both ways round)\n"
            "  -concurrency K  games at once (default 2)\n"
            "  -seed S         seed of the perturbations and openings (default 1)\n"
            "  -workdir DIR    where the engines are built (default /tmp/stern-spsa)\n"
            "  -arena PATH     the arena program (default build/stern-arena)\n"
            "  -build TEMPLATE the shell command that builds an engine with the weights:\n"
            "                  {dir} its directory (the engine is DIR/stern), {flags} the\n"
            "                  -DNAME=value flags, both shell-quoted (default\n"
            "                  '" DEFAULT_BUILD "')\n"
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
    if (shell_quote_append(qflags, sizeof qflags, flags) || shell_quote_append(qdir, sizeof qdir, dir) ||
        template_expand(build, fields, 2, cmd, sizeof cmd)) {
        fprintf(stderr, "stern-spsa: the build command is too long\n");
        return -1;
    }
    if (system(cmd) != 0) {
        fprintf(stderr, "stern-spsa: build failed: %s\n", cmd);
        return -1;
    }
    return 0;
}

/* Plays plus against minus; returns 0 with wins and losses of plus, or -1. */
static int play_match(const char *arena, const char *workdir, const char *variant, const char *tc, int games, int conc, int seed,
                      int *wins, int *losses)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s -quiet -engine cmd='%s/plus/stern' name=plus -engine cmd='%s/minus/stern' name=minus "
             "-each tc=%s -variant %s -games 2 -rounds %d -concurrency %d -openings random=4 -srand %d 2>&1",
             arena, workdir, workdir, tc, variant, games / 2, conc, seed);
    FILE *f = popen(cmd, "r");
    if (!f) {
        fprintf(stderr, "stern-spsa: cannot run: %s\n", cmd);
        return -1;
    }
    char line[1024];
    int found = 0, draws = 0;
    while (fgets(line, sizeof line, f)) {
        const char *at = strstr(line, "plus vs minus: ");
        if (at && sscanf(at, "plus vs minus: %d wins, %d draws, %d losses", wins, &draws, losses) == 3)
            found = 1;
    }
    const int status = pclose(f);
    if (status != 0 || !found) {
        fprintf(stderr, "stern-spsa: the match failed (status %d): %s\n", status, cmd);
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

/* Plays plus against minus in a variant of `units` >= 3 units, `games` games
 * in all (half with plus in one unit, half with minus in one); returns 0 with
 * plus's wins - losses over its comparisons with minus in *balance and the
 * comparisons in *total, or -1. */
static int play_places(const char *arena, const char *workdir, const char *variant, int units, const char *tc, int games, int conc,
                       int seed, int *balance, int *total)
{
    const int rounds = games / (2 * units) > 0 ? games / (2 * units) : 1;
    *balance = *total = 0;
    for (int half = 0; half < 2; half++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd,
                 "%s -quiet -engine cmd='%s/plus/stern' name=plus seats=%d "
                 "-engine cmd='%s/minus/stern' name=minus seats=%d -each tc=%s -variant %s -rounds %d "
                 "-concurrency %d -openings random=4 -srand %d 2>&1",
                 arena, workdir, half ? units - 1 : 1, workdir, half ? 1 : units - 1, tc, variant, rounds, conc, seed + half);
        FILE *f = popen(cmd, "r");
        if (!f) {
            fprintf(stderr, "stern-spsa: cannot run: %s\n", cmd);
            return -1;
        }
        double points = 0;
        int comparisons = 0;
        const int found = read_points(f, &points, &comparisons);
        const int status = pclose(f);
        if (status != 0 || found) {
            fprintf(stderr, "stern-spsa: the match failed (status %d): %s\n", status, cmd);
            return -1;
        }
        *balance += (int)lround(2 * points) - comparisons;
        *total += comparisons;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (args_help(argc, argv))
        return usage_to(stdout, 0);
    Param ps[MAX_PARAMS];
    int np = 0, iterations = 100, games = 20, conc = 2;
    unsigned seed = 1;
    const char *tc = "1+0.01", *variant = "classic-2", *workdir = "/tmp/stern-spsa";
    const char *arena = "build/stern-arena", *build = DEFAULT_BUILD;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-param") && i + 1 < argc) {
            if (np == MAX_PARAMS || parse_param(argv[++i], &ps[np]))
                return 2;
            np++;
        } else if ((!strcmp(argv[i], "-iterations") || !strcmp(argv[i], "-games") || !strcmp(argv[i], "-concurrency") ||
                    !strcmp(argv[i], "-seed")) &&
                   i + 1 < argc) {
            long long v;
            const char *name = argv[i];
            if (!arg_int("stern-spsa", name, argv[++i], !strcmp(name, "-seed") ? 0 : 1,
                         !strcmp(name, "-seed") ? 4294967295LL : 1000000, &v))
                return 2;
            if (!strcmp(name, "-iterations"))
                iterations = (int)v;
            else if (!strcmp(name, "-games"))
                games = (int)v;
            else if (!strcmp(name, "-concurrency"))
                conc = (int)v;
            else
                seed = (unsigned)v;
        }
        else if (!strcmp(argv[i], "-tc") && i + 1 < argc) tc = argv[++i];
        else if (!strcmp(argv[i], "-variant") && i + 1 < argc) variant = argv[++i];
        else if (!strcmp(argv[i], "-workdir") && i + 1 < argc) workdir = argv[++i];
        else if (!strcmp(argv[i], "-arena") && i + 1 < argc) arena = argv[++i];
        else if (!strcmp(argv[i], "-build") && i + 1 < argc) build = argv[++i];
        else
            return usage();
    }
    if (np == 0 || iterations < 1 || games < 2 || games % 2 || conc < 1)
        return usage();
    if (!template_has(build, "dir")) {
        fprintf(stderr, "stern-spsa: -build '%s': the template must contain {dir}, where the engine goes\n", build);
        return 2;
    }
    const Variant *var = variant_find(variant);
    if (!var) {
        fprintf(stderr, "stern-spsa: unknown variant '%s'\n", variant);
        return 2;
    }
    const double alpha = 0.602, gamma = 0.101, big_a = iterations / 10.0;
    srand(seed);
    for (int k = 0; k < iterations; k++) {
        double plus[MAX_PARAMS], minus[MAX_PARAMS], delta[MAX_PARAMS], ck[MAX_PARAMS], ak[MAX_PARAMS];
        for (int i = 0; i < np; i++) {
            const double c = ps[i].c_end * pow(iterations, gamma);
            const double a = ps[i].r_end * ps[i].c_end * ps[i].c_end * pow(big_a + iterations, alpha);
            ck[i] = c / pow(k + 1, gamma);
            ak[i] = a / pow(big_a + k + 1, alpha);
            delta[i] = rand() & 1 ? 1.0 : -1.0;
            plus[i] = clampd(ps[i].value + ck[i] * delta[i], ps[i].min, ps[i].max);
            minus[i] = clampd(ps[i].value - ck[i] * delta[i], ps[i].min, ps[i].max);
        }
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/plus", workdir);
        if (build_engine(build, dir, ps, np, plus))
            return 1;
        snprintf(dir, sizeof dir, "%s/minus", workdir);
        if (build_engine(build, dir, ps, np, minus))
            return 1;
        int w = 0, l = 0, total = games;
        if (var->nunits > 2) {
            int balance;
            if (play_places(arena, workdir, variant, var->nunits, tc, games, conc, (int)seed * 100003 + 2 * k, &balance,
                            &total))
                return 1;
            w = balance > 0 ? balance : 0;
            l = balance < 0 ? -balance : 0;
        } else if (play_match(arena, workdir, variant, tc, games, conc, (int)seed * 100003 + k, &w, &l)) {
            return 1;
        }
        printf("iteration %d: plus vs minus %+d (of %d %s)", k + 1, w - l, total,
               var->nunits > 2 ? "comparisons" : "games");
        for (int i = 0; i < np; i++) {
            ps[i].value = clampd(ps[i].value + ak[i] * (w - l) / (ck[i] * delta[i]), ps[i].min, ps[i].max);
            printf(" %s=%.2f", ps[i].name, ps[i].value);
        }
        printf("\n");
        fflush(stdout);
    }
    printf("final:");
    for (int i = 0; i < np; i++)
        printf(" -D%s=%ld", ps[i].name, lround(ps[i].value));
    printf("\n");
    return 0;
}
