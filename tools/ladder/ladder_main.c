/*
 * ladder_main.c - stern-ladder: rates players on the public rating list's scale
 * (docs/CCERL.md) from the records its CCP referee writes (tools/ccp_referee.py
 * of the list, as ../shared/ccerl-bots/gauntlet.sh runs it): one JSON object a
 * line, a `ccp_game_start` line per game naming its players (p0, p1) and a
 * `ccp_game_end` line with its result (winner 0 or 1, or draw). The list's
 * anchors keep their published ratings and every other player is fitted to
 * them (ratings_fit_given: Bradley-Terry, a draw half a win), with a 95%
 * bootstrap interval over games; a table prints each player's rating and the
 * results behind it.
 */
#include "args.h"
#include "elo.h"
#include "ratings.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL "stern-ladder"
#define MAX_PLAYERS 64
#define NAME_MAX_LEN 64
#define GAMES_MAX 1000000

/* The published ladder of CCERL-2P10-v2 (64-simulation budgets; random = 0). */
static const struct {
    const char *name;
    double elo;
} LIST_ANCHORS[] = {{"JumpStar_60", 911}, {"tt-pvs", 737}, {"converter", 511}, {"greedy", 481}, {"random", 0}};

static const char usage[] =
    "usage: " TOOL " [options] FILE...\n"
    "  Rates the players of the rating list's CCP referee records (JSON lines: ccp_game_start\n"
    "  with p0 and p1, ccp_game_end with winner or draw) on the list's scale: the anchors keep\n"
    "  their ratings, every other player is fitted to them (Bradley-Terry, draws half a win)\n"
    "  with a 95%% bootstrap interval over games.\n"
    "  -anchor NAME=ELO  hold NAME at ELO (repeat it); without any, the published ladder:\n"
    "                    JumpStar_60=911 tt-pvs=737 converter=511 greedy=481 random=0\n"
    "  -as NAME          in the files after it, the player labelled `engine` (gauntlet.sh's\n"
    "                    label for the engine it tests) is NAME\n"
    "  -bootstrap N      resamples for the intervals (default %d; 0: none)\n"
    "  -seed S           of the bootstrap (default 1)\n";

typedef struct {
    char names[MAX_PLAYERS][NAME_MAX_LEN];
    int nplayers;
    RatedGame *games;
    int n, cap;
} Ladder;

/* The index of player `name` in l, added when new; -1 when the table is full. */
static int player_index(Ladder *l, const char *name)
{
    for (int i = 0; i < l->nplayers; i++)
        if (!strcmp(l->names[i], name))
            return i;
    if (l->nplayers == MAX_PLAYERS)
        return -1;
    snprintf(l->names[l->nplayers], NAME_MAX_LEN, "%s", name);
    return l->nplayers++;
}

/* A started game of a file: its players, until its end is read. */
typedef struct {
    long long id;
    int player[2];
    bool ended;
} Started;

/* Fails the run: a file the tool cannot read, at `line` (0: the file itself). */
static void bad_file(const char *file, long line, const char *why)
{
    if (line)
        args_die(TOOL, "%s:%ld: %s", file, line, why);
    args_die(TOOL, "%s: %s", file, why);
}

/* Reads one record file into l; the label `engine` is renamed `as` (when not
 * NULL). Games without an end line (a run cut short) are left out and counted
 * in *unfinished. */
static void read_file(Ladder *l, const char *file, const char *as, int *unfinished)
{
    FILE *f = fopen(file, "r");
    if (!f)
        bad_file(file, 0, "cannot be opened");
    Started *started = NULL;
    int nstarted = 0, cap = 0;
    char *text = NULL;
    size_t text_cap = 0;
    long line = 0;
    char why[256];
    for (ssize_t len; (len = getline(&text, &text_cap, f)) >= 0;) {
        line++;
        if (!text[strspn(text, " \t\r\n")])
            continue; /* a blank line */
        json_error_t jerr;
        json_t *r = json_loadb(text, (size_t)len, JSON_REJECT_DUPLICATES, &jerr);
        if (!r || !json_is_object(r)) {
            snprintf(why, sizeof why, "not a JSON object (%s)", r ? "another JSON value" : jerr.text);
            bad_file(file, line, why);
        }
        const char *type = json_string_value(json_object_get(r, "type"));
        const json_t *id = json_object_get(r, "game_id");
        if (type && (!strcmp(type, "ccp_game_start") || !strcmp(type, "ccp_game_end")) && !json_is_integer(id))
            bad_file(file, line, "a game line without an integer game_id");
        if (type && !strcmp(type, "ccp_game_start")) {
            const char *p[2] = {json_string_value(json_object_get(r, "p0")),
                                json_string_value(json_object_get(r, "p1"))};
            if (!p[0] || !p[1] || !strcmp(p[0], p[1]))
                bad_file(file, line, "ccp_game_start needs two different player names p0 and p1");
            for (int i = 0; i < nstarted; i++)
                if (started[i].id == json_integer_value(id))
                    bad_file(file, line, "a second ccp_game_start for the same game_id");
            if (nstarted == cap) {
                cap = cap ? 2 * cap : 256;
                started = realloc(started, (size_t)cap * sizeof *started);
                if (!started)
                    bad_file(file, line, "out of memory");
            }
            Started *s = &started[nstarted++];
            *s = (Started){.id = json_integer_value(id)};
            for (int k = 0; k < 2; k++) {
                const char *name = as && !strcmp(p[k], "engine") ? as : p[k];
                if (strlen(name) >= NAME_MAX_LEN || (s->player[k] = player_index(l, name)) < 0)
                    bad_file(file, line, "a player name over 63 characters, or more than 64 players");
            }
            if (s->player[0] == s->player[1])
                bad_file(file, line, "-as names the engine as its own opponent");
        } else if (type && !strcmp(type, "ccp_game_end")) {
            Started *s = NULL;
            for (int i = 0; i < nstarted && !s; i++)
                if (started[i].id == json_integer_value(id))
                    s = &started[i];
            if (!s || s->ended)
                bad_file(file, line, s ? "a second ccp_game_end for the same game" : "ccp_game_end of a game never started");
            const json_t *winner = json_object_get(r, "winner");
            const bool draw = json_is_true(json_object_get(r, "draw")) || json_is_null(winner);
            if (draw ? json_is_integer(winner)
                     : !json_is_integer(winner) || json_integer_value(winner) < 0 || json_integer_value(winner) > 1)
                bad_file(file, line, "ccp_game_end needs winner 0 or 1, or a draw (draw true, winner null)");
            if (l->n == GAMES_MAX)
                bad_file(file, line, "more than a million games");
            if (l->n == l->cap) {
                l->cap = l->cap ? 2 * l->cap : 1024;
                l->games = realloc(l->games, (size_t)l->cap * sizeof *l->games);
                if (!l->games)
                    bad_file(file, line, "out of memory");
            }
            const int w = draw ? -1 : (int)json_integer_value(winner);
            l->games[l->n++] = (RatedGame){.nunits = 2,
                                           .player = {s->player[0], s->player[1]},
                                           .place = {w == 1 ? 2 : 1, w == 0 ? 2 : 1},
                                           .pair = -1};
            s->ended = true;
        }
        json_decref(r);
    }
    if (ferror(f))
        bad_file(file, 0, "read error");
    for (int i = 0; i < nstarted; i++)
        *unfinished += !started[i].ended;
    free(text);
    free(started);
    fclose(f);
}

/* "1234" or "+inf" / "-inf" for an open end. */
static const char *elo_text(double e, char *buf, size_t n)
{
    if (isinf(e))
        snprintf(buf, n, "%cinf", e > 0 ? '+' : '-');
    else
        snprintf(buf, n, "%.0f", e);
    return buf;
}

#define PERFECT_ALPHA 0.025 /* one side of the table's 95% intervals */

static void print_table(const Ladder *l, const double *given, RatingRow *rows)
{
    /* A perfect score, all won or all lost, has no rating of its own (the fit's
     * is the prior's): its row shows the one end of its interval that the
     * games against anchors give (ratings_perfect_bound), or none. */
    int perfect[MAX_PLAYERS] = {0}; /* +1 all won, -1 all lost */
    for (int i = 0; i < l->nplayers; i++) {
        if (!isnan(given[i]) || !rows[i].comparisons || !(isinf(rows[i].high) || isinf(rows[i].low)))
            continue;
        perfect[i] = isinf(rows[i].high) ? 1 : -1;
        const double end = ratings_perfect_bound(l->games, l->n, i, given, PERFECT_ALPHA, perfect[i] > 0);
        rows[i].elo = end;
        if (perfect[i] > 0)
            rows[i].low = end;
        else
            rows[i].high = end;
    }
    int order[MAX_PLAYERS];
    for (int i = 0; i < l->nplayers; i++)
        order[i] = i;
    for (int i = 1; i < l->nplayers; i++) /* by rating, best first (insertion sort: few players) */
        for (int j = i; j > 0 && (isnan(rows[order[j - 1]].elo) ? !isnan(rows[order[j]].elo)
                                                                   : rows[order[j]].elo > rows[order[j - 1]].elo);
             j--) {
            const int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    printf("%-20s %7s  %-17s %6s %6s\n", "player", "rating", "95% interval", "games", "score");
    for (int k = 0; k < l->nplayers; k++) {
        const int i = order[k];
        const RatingRow *r = &rows[i];
        if (!r->games)
            continue; /* seen only in games without an end */
        char lo[16], hi[16], interval[40];
        if (!isnan(given[i]))
            snprintf(interval, sizeof interval, "(anchor)");
        else
            snprintf(interval, sizeof interval, "[%s, %s]", elo_text(r->low, lo, sizeof lo),
                     elo_text(r->high, hi, sizeof hi));
        char rating[16];
        if (isnan(r->elo))
            snprintf(rating, sizeof rating, "?");
        else
            snprintf(rating, sizeof rating, "%s%.0f", perfect[i] > 0 ? ">=" : perfect[i] < 0 ? "<=" : "", r->elo);
        if (perfect[i] && isnan(r->elo))
            snprintf(interval, sizeof interval, "(met no anchor)");
        printf("%-20s %7s  %-17s %6d %6.3f\n", l->names[i], rating, interval, r->games,
               r->comparisons ? r->points / r->comparisons : 0.0);
    }
    for (int i = 0; i < l->nplayers; i++)
        if (perfect[i]) {
            printf("\n>= (<=): won (lost) every game, so only one end is known: the rating at which a\n"
                   "record as perfect has probability 2.5%% against the anchors it met (?: it met none)\n");
            break;
        }
    printf("\nresults (wins, draws, losses of the first):\n");
    for (int i = 0; i < l->nplayers; i++)
        for (int j = 0; j < l->nplayers; j++) {
            if (j == i || !isnan(given[i]) || (isnan(given[j]) && j < i))
                continue; /* each pair once, a fitted player first */
            const Wdl w = elo_wdl_count(l->games, l->n, i, j);
            if (w.wins + w.draws + w.losses)
                printf("  %-20s - %-20s +%d =%d -%d\n", l->names[i], l->names[j], w.wins, w.draws, w.losses);
        }
}

int main(int argc, char **argv)
{
    static Ladder l;
    double anchor_elo[MAX_PLAYERS];
    char anchor_name[MAX_PLAYERS][NAME_MAX_LEN];
    int nanchors = 0, unfinished = 0, nfiles = 0;
    long long bootstrap = RATINGS_BOOTSTRAP_DEFAULT, seed = 1;
    const char *as = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf(usage, RATINGS_BOOTSTRAP_DEFAULT);
            return 0;
        }
        if (a[0] == '-' && i + 1 == argc)
            args_die(TOOL, "%s needs a value (%s -h for help)", a, TOOL);
        if (!strcmp(a, "-anchor")) {
            const char *v = argv[++i], *eq = strrchr(v, '=');
            char *end;
            const double elo = eq ? strtod(eq + 1, &end) : NAN;
            if (!eq || eq == v || eq - v >= NAME_MAX_LEN || !eq[1] || *end || !isfinite(elo))
                args_die(TOOL, "-anchor must be NAME=ELO, e.g. tt-pvs=737, not '%s'", v);
            if (nanchors == MAX_PLAYERS)
                args_die(TOOL, "more than %d anchors", MAX_PLAYERS);
            snprintf(anchor_name[nanchors], NAME_MAX_LEN, "%.*s", (int)(eq - v), v);
            anchor_elo[nanchors++] = elo;
        } else if (!strcmp(a, "-as")) {
            as = argv[++i];
            if (!*as || strlen(as) >= NAME_MAX_LEN)
                args_die(TOOL, "-as needs a name of 1 to %d characters", NAME_MAX_LEN - 1);
        } else if (!strcmp(a, "-bootstrap")) {
            if (!args_int(TOOL, "-bootstrap", argv[++i], 0, 100000, &bootstrap))
                return 2;
        } else if (!strcmp(a, "-seed")) {
            if (!args_int(TOOL, "-seed", argv[++i], 0, 4294967295LL, &seed))
                return 2;
        } else if (a[0] == '-') {
            args_die(TOOL, "unknown option '%s' (%s -h for help)", a, TOOL);
        } else {
            read_file(&l, a, as, &unfinished);
            nfiles++;
        }
    }
    if (!nfiles)
        args_die(TOOL, "no record file given (%s -h for help)", TOOL);
    if (!nanchors)
        for (size_t k = 0; k < sizeof LIST_ANCHORS / sizeof *LIST_ANCHORS; k++) {
            snprintf(anchor_name[nanchors], NAME_MAX_LEN, "%s", LIST_ANCHORS[k].name);
            anchor_elo[nanchors++] = LIST_ANCHORS[k].elo;
        }
    bool finished[MAX_PLAYERS] = {false}; /* a player of a finished game */
    for (int k = 0; k < l.n; k++)
        finished[l.games[k].player[0]] = finished[l.games[k].player[1]] = true;
    double given[MAX_PLAYERS];
    int held = 0;
    for (int i = 0; i < l.nplayers; i++) {
        given[i] = NAN;
        for (int k = 0; k < nanchors; k++)
            if (!strcmp(anchor_name[k], l.names[i])) {
                given[i] = anchor_elo[k];
                held += finished[i];
            }
    }
    if (!l.n)
        args_die(TOOL, "the files hold no finished game");
    if (!held)
        args_die(TOOL, "no anchor played: name one with -anchor NAME=ELO");
    RatingRow rows[MAX_PLAYERS];
    if (ratings_fit_given(l.games, l.n, l.nplayers, given, (unsigned)seed, (int)bootstrap, rows))
        args_die(TOOL, "the fit failed (out of memory)");
    printf("%d games", l.n);
    if (unfinished)
        printf(" (%d unfinished left out)", unfinished);
    printf("; anchors held:");
    for (int i = 0; i < l.nplayers; i++)
        if (!isnan(given[i]) && rows[i].games)
            printf(" %s=%.0f", l.names[i], given[i]);
    printf("\n\n");
    print_table(&l, given, rows);
    free(l.games);
    return 0;
}
