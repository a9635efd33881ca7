/* arena_table.c - rating tables of finished games; see arena_table.h. */
#include "arena_table.h"

#include "elo.h"
#include "record.h"
#include "sprt.h"
#include "variant.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 256 /* a unit's name as pgn_unit_name writes it */
#define ELO_PRINT_ZERO 0.05 /* below this an Elo prints as +0.0 */
#define ELO_SYMMETRIC 0.05  /* ends this close to equally far from the estimate: "+/-" */

void arena_table_init(ArenaTable *t)
{
    memset(t, 0, sizeof *t);
}

void arena_table_free(ArenaTable *t)
{
    for (int i = 0; i < t->nnames; i++)
        free(t->names[i]);
    free(t->names);
    free(t->groups);
    free(t->games);
    arena_table_init(t);
}

/* Index of `name` among the players, added when new; -1 when memory runs out. */
static int player_index(ArenaTable *t, const char *name)
{
    for (int i = 0; i < t->nnames; i++)
        if (!strcmp(t->names[i], name))
            return i;
    if (t->nnames == t->names_cap) {
        const int cap = t->names_cap ? t->names_cap * 2 : 16;
        char **p = realloc(t->names, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        t->names = p;
        t->names_cap = cap;
    }
    if (!(t->names[t->nnames] = strdup(name)))
        return -1;
    return t->nnames++;
}

static int group_index(ArenaTable *t, const char *variant)
{
    for (int i = 0; i < t->ngroups; i++)
        if (!strcmp(t->groups[i], variant))
            return i;
    char(*g)[32] = realloc(t->groups, (size_t)(t->ngroups + 1) * sizeof *g);
    if (!g)
        return -1;
    t->groups = g;
    snprintf(g[t->ngroups], sizeof g[t->ngroups], "%s", variant);
    return t->ngroups++;
}

int arena_table_add(ArenaTable *t, const PgnGame *g, int file, char *err, size_t n)
{
    const char *variant = pgn_tag(g, "Variant"), *round = pgn_tag(g, "Round");
    if (!variant) {
        snprintf(err, n, "no Variant tag");
        return -1;
    }
    for (int u = 0; u < RATINGS_MAX_UNITS; u++) { /* names first, so pgn_rated_game finds them */
        char name[NAME_MAX_LEN];
        if (!pgn_unit_name(g, u, name, sizeof name))
            break;
        if (player_index(t, name) < 0) {
            snprintf(err, n, "out of memory");
            return -1;
        }
    }
    TableGame tg = {0};
    const int rc = pgn_rated_game(g, (const char *const *)t->names, t->nnames, &tg.g, err, n);
    if (rc)
        return rc;
    char *end;
    tg.number = round ? strtol(round, &end, 10) : 0;
    if (!round || end == round || *end || tg.number < 0)
        tg.number = 0;
    tg.file = file;
    if ((tg.group = group_index(t, variant)) < 0) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    if (t->n == t->cap) {
        const long cap = t->cap ? t->cap * 2 : 256;
        TableGame *p = realloc(t->games, (size_t)cap * sizeof *p);
        if (!p) {
            snprintf(err, n, "out of memory");
            return -1;
        }
        t->games = p;
        t->cap = cap;
    }
    t->games[t->n++] = tg;
    return 0;
}

typedef struct {
    ArenaTable *t;
    const char *path;
    int file, *incomplete, *unrated;
} AddFile;

static int add_record(PgnGame *g, PgnStatus status, const char *why, void *ctx, char *err, size_t n)
{
    (void)why;
    AddFile *a = ctx;
    if (status == PGN_INCOMPLETE) {
        if (a->incomplete)
            ++*a->incomplete;
        return 0;
    }
    char reason[PGN_ERR_MAX];
    const int added = arena_table_add(a->t, g, a->file, reason, sizeof reason);
    if (added < 0) {
        snprintf(err, n, "%s:%d: %s", a->path, g->line, reason);
        return -1;
    }
    if (added > 0 && a->unrated)
        ++*a->unrated;
    return 0;
}

int arena_table_add_file(ArenaTable *t, const char *path, int file, int *incomplete, int *unrated, char *err, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        return -1;
    }
    AddFile a = {t, path, file, incomplete, unrated};
    const int rc = pgn_read_each(f, path, PGN_ERRORS_END, add_record, &a, err, n);
    fclose(f);
    return rc;
}

/* ---- printing ---- */

/* A group's games in rating order, with players renumbered by name. */
typedef struct {
    RatedGame *games;
    int n;
    int nplayers;
    int *names;   /* group player i -> index into the table's names */
    int nunits;
    int first;    /* group player at unit 0 of the earliest game */
} Group;

typedef struct {
    const TableGame *g;
    long index;
} Ordered;

static int by_number(const void *a, const void *b)
{
    const Ordered *x = a, *y = b;
    if (x->g->number != y->g->number)
        return x->g->number < y->g->number ? -1 : 1;
    if (x->g->file != y->g->file)
        return x->g->file < y->g->file ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int by_file_number(const void *a, const void *b)
{
    const Ordered *x = a, *y = b;
    if (x->g->file != y->g->file)
        return x->g->file < y->g->file ? -1 : 1;
    return by_number(a, b);
}

static const ArenaTable *sort_table; /* for by_name: qsort has no context argument */
static int by_name(const void *a, const void *b)
{
    return strcmp(sort_table->names[*(const int *)a], sort_table->names[*(const int *)b]);
}

/* The pair id of each game (by its index in t->games): games 2k-1 and 2k of a
 * file share one; -1 without a number or with more than two units. */
static int *pair_ids(const ArenaTable *t, Ordered *o, long n)
{
    int *pair = malloc((size_t)(t->n ? t->n : 1) * sizeof *pair);
    if (!pair)
        return NULL;
    qsort(o, (size_t)n, sizeof *o, by_file_number);
    int next = 0;
    for (long i = 0; i < n; i++) {
        const TableGame *g = o[i].g, *prev = i ? o[i - 1].g : NULL;
        if (!g->number || g->g.nunits != 2) {
            pair[o[i].index] = -1;
            continue;
        }
        const bool same = prev && prev->file == g->file && prev->number && (prev->number - 1) / 2 == (g->number - 1) / 2;
        pair[o[i].index] = same ? pair[o[i - 1].index] : next++;
    }
    qsort(o, (size_t)n, sizeof *o, by_number);
    return pair;
}

static void group_free(Group *gr)
{
    free(gr->games);
    free(gr->names);
}

/* Collects group `group` of t into *gr. Returns 0, or -1 when memory runs out. */
static int group_build(const ArenaTable *t, int group, Group *gr)
{
    memset(gr, 0, sizeof *gr);
    long n = 0;
    for (long i = 0; i < t->n; i++)
        n += t->games[i].group == group;
    Ordered *o = malloc((size_t)(n ? n : 1) * sizeof *o);
    int *map = malloc((size_t)(t->nnames ? t->nnames : 1) * sizeof *map);
    gr->names = malloc((size_t)(t->nnames ? t->nnames : 1) * sizeof *gr->names);
    gr->games = malloc((size_t)(n ? n : 1) * sizeof *gr->games);
    int *pair = NULL;
    if (o && map && gr->names && gr->games) {
        long k = 0;
        for (long i = 0; i < t->n; i++)
            if (t->games[i].group == group)
                o[k++] = (Ordered){&t->games[i], i};
        pair = pair_ids(t, o, n);
    }
    if (!pair) {
        free(o), free(map), free(pair);
        group_free(gr);
        return -1;
    }
    for (int i = 0; i < t->nnames; i++)
        map[i] = -1;
    for (long i = 0; i < n; i++)
        for (int u = 0; u < o[i].g->g.nunits; u++)
            map[o[i].g->g.player[u]] = 0;
    for (int i = 0; i < t->nnames; i++)
        if (map[i] == 0)
            gr->names[gr->nplayers++] = i;
    sort_table = t;
    qsort(gr->names, (size_t)gr->nplayers, sizeof *gr->names, by_name);
    for (int i = 0; i < gr->nplayers; i++)
        map[gr->names[i]] = i;
    for (long i = 0; i < n; i++) {
        RatedGame g = o[i].g->g;
        for (int u = 0; u < g.nunits; u++)
            g.player[u] = map[g.player[u]];
        g.pair = pair[o[i].index];
        gr->games[i] = g;
    }
    gr->n = (int)n;
    gr->nunits = n ? gr->games[0].nunits : 0;
    gr->first = n ? gr->games[0].player[0] : 0;
    free(o), free(map), free(pair);
    return 0;
}

const char *arena_table_elo_text(double x, char *buf, size_t n)
{
    if (isinf(x))
        snprintf(buf, n, "%sinf", x > 0 ? "+" : "-");
    else
        snprintf(buf, n, "%+.1f", fabs(x) < ELO_PRINT_ZERO ? 0.0 : x); /* no "-0.0" */
    return buf;
}

const char *arena_table_elo_interval_text(double elo, double low, double high, char *buf, size_t n)
{
    char e[32], lo[32], hi[32], pm[48] = "";
    const bool symmetric = isfinite(elo) && isfinite(low) && isfinite(high) &&
                           fabs((high - elo) - (elo - low)) < ELO_SYMMETRIC;
    if (symmetric)
        snprintf(pm, sizeof pm, " +/- %.1f", (high - low) / 2);
    snprintf(buf, n, "%s%s [%s, %s]", arena_table_elo_text(elo, e, sizeof e), pm,
             arena_table_elo_text(low, lo, sizeof lo), arena_table_elo_text(high, hi, sizeof hi));
    return buf;
}

/* "Elo: +12.3 +/- 45.6 [-33.3, +57.9], LOS 70.1 %, draw rate 20.0 %" (see
 * arena_table_elo_interval_text for when the +/- is printed) */
static void print_elo(FILE *out, const char *what, const EloResult *r)
{
    char text[160];
    fprintf(out, "  %s: %s, LOS %.1f %%, draw rate %.1f %%\n", what,
            arena_table_elo_interval_text(r->elo, r->elo_low, r->elo_high, text, sizeof text), r->los * 100,
            r->draw_rate * 100);
}

static void print_sprt(FILE *out, const Pentanomial *p, const Wdl *w, const TableOptions *o)
{
    const double llr = sprt_llr(p, w->wins, w->draws, w->losses, o->elo0, o->elo1);
    const SprtBounds b = sprt_bounds(o->alpha, o->beta);
    const SprtDecision d = sprt_decide(llr, b);
    fprintf(out, "  SPRT (elo0 %g, elo1 %g, alpha %g, beta %g): LLR %.2f [%.2f, %.2f]: %s\n", o->elo0, o->elo1,
            o->alpha, o->beta, llr, b.lower, b.upper,
            d == SPRT_ACCEPT_H1   ? "H1 accepted"
            : d == SPRT_ACCEPT_H0 ? "H0 accepted"
                                  : "continue");
}

static void print_match(FILE *out, const ArenaTable *t, const Group *gr, const TableOptions *o)
{
    const int a = gr->first, b = 1 - gr->first;
    const Wdl w = elo_wdl_count(gr->games, gr->n, a, b);
    const Pentanomial p = elo_pentanomial_count(gr->games, gr->n, a, b);
    const EloResult r = elo_from_wdl(w.wins, w.draws, w.losses);
    fprintf(out, "  %s vs %s: %d wins, %d draws, %d losses, score %.3f (%.1f/%d)\n", t->names[gr->names[a]],
            t->names[gr->names[b]], w.wins, w.draws, w.losses, r.score, w.wins + w.draws / 2.0,
            w.wins + w.draws + w.losses);
    print_elo(out, "Elo", &r);
    int pairs = 0;
    for (int i = 0; i < PENTA_SIZE; i++)
        pairs += p.n[i];
    fprintf(out, "  pentanomial [LL LD DD/WL WD WW]: [%d %d %d %d %d], %d pairs\n", p.n[PENTA_LL], p.n[PENTA_LD],
            p.n[PENTA_DD_WL], p.n[PENTA_WD], p.n[PENTA_WW], pairs);
    if (pairs) {
        const EloResult rp = elo_from_pentanomial(&p);
        print_elo(out, "Elo (pairs)", &rp);
    }
    if (o->sprt)
        print_sprt(out, &p, &w, o);
}

typedef struct {
    const RatingRow *row;
    const char *name;
} Ranked;

static int by_rating(const void *a, const void *b)
{
    const Ranked *x = a, *y = b;
    if (x->row->elo != y->row->elo)
        return x->row->elo > y->row->elo ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Three or more units: how often each player took each place (a player with
 * several units in a game counts each, which the heading then says: its row adds
 * up to its units, not its games). rows: the fit's, per group player. */
static void print_places(FILE *out, const ArenaTable *t, const Group *gr, const RatingRow *rows, int width)
{
    static const char *const last[] = {"", "", "", "3rd", "4th", "5th", "6th"};
    bool several = false;
    for (int pl = 0; pl < gr->nplayers; pl++)
        several |= rows[pl].units > rows[pl].games;
    fprintf(out, "  places (1st to %s):%s\n", last[gr->nunits < 7 ? gr->nunits : 6],
            several ? " counted per seat, a row adds up to seats, not games" : "");
    for (int pl = 0; pl < gr->nplayers; pl++) {
        int count[RATINGS_MAX_UNITS + 1] = {0};
        for (int k = 0; k < gr->n; k++)
            for (int u = 0; u < gr->games[k].nunits; u++)
                if (gr->games[k].player[u] == pl && gr->games[k].place[u] >= 1 &&
                    gr->games[k].place[u] <= RATINGS_MAX_UNITS)
                    count[gr->games[k].place[u]]++;
        fprintf(out, "        %-*s ", width, t->names[gr->names[pl]]);
        for (int q = 1; q <= gr->nunits; q++)
            fprintf(out, " %5d", count[q]);
        fprintf(out, "\n");
    }
}

static int print_fit(FILE *out, const ArenaTable *t, const Group *gr, const TableOptions *o)
{
    RatingRow *rows = calloc((size_t)gr->nplayers, sizeof *rows);
    Ranked *ranked = calloc((size_t)gr->nplayers, sizeof *ranked);
    if (!rows || !ranked || ratings_fit(gr->games, gr->n, gr->nplayers, -1, o->seed, o->bootstrap, rows)) {
        free(rows), free(ranked);
        return -1;
    }
    int width = 4;
    for (int i = 0; i < gr->nplayers; i++) {
        ranked[i] = (Ranked){&rows[i], t->names[gr->names[i]]};
        const int len = (int)strlen(ranked[i].name);
        width = len > width ? len : width;
    }
    qsort(ranked, (size_t)gr->nplayers, sizeof *ranked, by_rating);
    fprintf(out, "  %4s  %-*s  %7s  %-18s  %6s  %10s  %s\n", "rank", width, "name", "elo", "95% interval", "games",
            "mean place", "points/comparisons");
    for (int i = 0; i < gr->nplayers; i++) {
        const RatingRow *r = ranked[i].row;
        char e[32], lo[32], hi[32], interval[80];
        snprintf(interval, sizeof interval, "[%s, %s]", arena_table_elo_text(r->low, lo, sizeof lo),
                 arena_table_elo_text(r->high, hi, sizeof hi));
        fprintf(out, "  %4d  %-*s  %7s  %-18s  %6d  %10.2f  %.1f/%d (%.1f %%)\n", i + 1, width, ranked[i].name,
                arena_table_elo_text(r->elo, e, sizeof e), interval, r->games, r->mean_place, r->points, r->comparisons,
                r->comparisons ? 100.0 * r->points / r->comparisons : 0.0);
    }
    if (gr->nunits > 2)
        print_places(out, t, gr, rows, width);
    free(rows), free(ranked);
    return 0;
}

/* With two units and more than two players: every pair of players that met. */
static void print_pairs(FILE *out, const ArenaTable *t, const Group *gr)
{
    for (int a = 0; a < gr->nplayers; a++)
        for (int b = a + 1; b < gr->nplayers; b++) {
            const Wdl w = elo_wdl_count(gr->games, gr->n, a, b);
            if (!(w.wins + w.draws + w.losses))
                continue;
            const EloResult r = elo_from_wdl(w.wins, w.draws, w.losses);
            char e[32];
            fprintf(out, "  %s vs %s: +%d =%d -%d, Elo %s\n", t->names[gr->names[a]], t->names[gr->names[b]], w.wins,
                    w.draws, w.losses, arena_table_elo_text(r.elo, e, sizeof e));
        }
}

/* The name of unit u of variant v (NULL: unknown) into buf (n bytes): its
 * seat's colour, "White"; a team's two, "White+Black"; "unit 3" when the
 * variant is unknown. Returns buf. */
static const char *unit_name(const Variant *v, int u, char *buf, size_t n)
{
    int k = 0;
    for (int i = 0; v && i < v->nseats; i++) {
        const int s = v->seats[i];
        if (variant_unit(v, s) != s || k++ != u)
            continue;
        const int partner = variant_partner(v, s);
        snprintf(buf, n, "%s%s%s", record_colour_tag(s), partner >= 0 ? "+" : "",
                 partner >= 0 ? record_colour_tag(partner) : "");
        return buf;
    }
    snprintf(buf, n, "unit %d", u + 1);
    return buf;
}

/* A group of one player: its games against itself (copies of one engine, or
 * records whose seats all name one player). Nothing compares it with another
 * player, so there is no rating; what the games say is how many were decisive
 * (not every unit in one shared place) or drawn, and which seat won: the
 * places by seat (unit), the first seat first. */
static void print_alone(FILE *out, const ArenaTable *t, const Group *gr, const Variant *v, bool teams)
{
    int decisive = 0, count[RATINGS_MAX_UNITS][RATINGS_MAX_UNITS + 1] = {{0}};
    for (int k = 0; k < gr->n; k++) {
        const RatedGame *g = &gr->games[k];
        bool all_level = true;
        for (int u = 0; u < g->nunits && u < RATINGS_MAX_UNITS; u++) {
            all_level &= g->place[u] == g->place[0];
            if (g->place[u] >= 1 && g->place[u] <= RATINGS_MAX_UNITS)
                count[u][g->place[u]]++;
        }
        decisive += !all_level;
    }
    static const char *const last[] = {"", "", "2nd", "3rd", "4th", "5th", "6th"};
    fprintf(out, "  %s against itself: %d decisive, %d drawn (one %s: nothing to rate)\n", t->names[gr->names[0]],
            decisive, gr->n - decisive, teams ? "team" : "player");
    fprintf(out, "  places by %s (1st to %s):\n", teams ? "team" : "seat",
            last[gr->nunits <= RATINGS_MAX_UNITS ? gr->nunits : RATINGS_MAX_UNITS]);
    for (int u = 0; u < gr->nunits && u < RATINGS_MAX_UNITS; u++) {
        char name[32];
        fprintf(out, "        %-12s", unit_name(v, u, name, sizeof name));
        for (int q = 1; q <= gr->nunits; q++)
            fprintf(out, " %5d", count[u][q]);
        fprintf(out, "\n");
    }
}

/* Prints the table of one group of players of variant v (NULL: unknown) under
 * the heading `label` (the variant, or one connected part of its players):
 * "LABEL: N games, K players", N counting each game once, as every row's games
 * column does; then the match report of two players in two units, the games of
 * a player alone against itself (print_alone), else the ratings from places.
 * Returns 0, or -1 when memory runs out. */
static int print_group(FILE *out, const ArenaTable *t, const char *label, const Group *gr, const Variant *v,
                       bool teams, const TableOptions *o)
{
    fprintf(out, "%s: %d games, %d %s%s\n", label, gr->n, gr->nplayers,
            gr->nplayers == 1 ? (teams ? "team" : "player") : teams ? "teams" : "players",
            gr->nplayers > 1 && (gr->nunits > 2 || gr->nplayers > 2 || teams)
                ? " (ratings from places: 95% intervals by bootstrap over games)"
                : "");
    if (gr->nplayers == 1) {
        print_alone(out, t, gr, v, teams);
        return 0;
    }
    if (gr->nunits == 2 && gr->nplayers == 2 && !teams)
        print_match(out, t, gr, o);
    else if (print_fit(out, t, gr, o))
        return -1;
    else if (gr->nunits == 2)
        print_pairs(out, t, gr);
    int alone = 0; /* games with one player in every unit: in the header's count, in no comparison */
    for (int k = 0; k < gr->n; k++) {
        bool one = true;
        for (int u = 1; u < gr->games[k].nunits; u++)
            one &= gr->games[k].player[u] == gr->games[k].player[0];
        alone += one;
    }
    if (alone)
        fprintf(out, "  and %d game%s of a %s against itself, not rated\n", alone, alone == 1 ? "" : "s",
                teams ? "team" : "player");
    return 0;
}

/* The games of part `which` of gr (part[] per group player, from ratings_groups)
 * into *sub, its players renumbered in their (name) order. Returns 0, or -1 when
 * memory runs out. */
static int group_part(const Group *gr, const int *part, int which, Group *sub)
{
    memset(sub, 0, sizeof *sub);
    int *map = malloc((size_t)(gr->nplayers ? gr->nplayers : 1) * sizeof *map);
    sub->names = malloc((size_t)(gr->nplayers ? gr->nplayers : 1) * sizeof *sub->names);
    sub->games = malloc((size_t)(gr->n ? gr->n : 1) * sizeof *sub->games);
    if (!map || !sub->names || !sub->games) {
        free(map);
        group_free(sub);
        return -1;
    }
    for (int i = 0; i < gr->nplayers; i++)
        if (part[i] == which) {
            map[i] = sub->nplayers;
            sub->names[sub->nplayers++] = gr->names[i];
        }
    for (int k = 0; k < gr->n; k++) {
        RatedGame g = gr->games[k];
        if (part[g.player[0]] != which)
            continue;
        for (int u = 0; u < g.nunits; u++)
            g.player[u] = map[g.player[u]];
        sub->games[sub->n++] = g;
    }
    sub->nunits = gr->nunits;
    sub->first = sub->n ? sub->games[0].player[0] : 0;
    free(map);
    return 0;
}

/* Prints the tables of gr, whose players fall into nparts groups that never met
 * (part[] per group player): one warning line naming the groups, then a table
 * per group, each on a scale of its own. Returns 0, or -1 when memory runs out. */
static int print_parts(FILE *out, const ArenaTable *t, const char *variant, const Group *gr, const int *part,
                       int nparts, const Variant *v, bool teams, const TableOptions *o)
{
    fprintf(out, "%s: %d games, %d %s\n", variant, gr->n, gr->nplayers, teams ? "teams" : "players");
    fprintf(out, "warning: %s: the %s form %d groups that never met, each rated on a scale of its own (ratings of "
            "different groups cannot be compared):", variant, teams ? "teams" : "players", nparts);
    for (int p = 0; p < nparts; p++) {
        fprintf(out, "%s group %d:", p ? ";" : "", p + 1);
        for (int i = 0, k = 0; i < gr->nplayers; i++)
            if (part[i] == p)
                fprintf(out, "%s %s", k++ ? "," : "", t->names[gr->names[i]]);
    }
    fputc('\n', out);
    for (int p = 0; p < nparts; p++) {
        Group sub;
        char label[64];
        snprintf(label, sizeof label, "%s group %d", variant, p + 1);
        if (group_part(gr, part, p, &sub))
            return -1;
        const int rc = print_group(out, t, label, &sub, v, teams, o);
        group_free(&sub);
        if (rc)
            return -1;
    }
    return 0;
}

int arena_table_match(const ArenaTable *t, Pentanomial *p, Wdl *w, const char **first, const char **second)
{
    if (t->ngroups != 1)
        return -1;
    Group gr;
    if (group_build(t, 0, &gr))
        return -1;
    const int ok = gr.nunits == 2 && gr.nplayers == 2;
    if (ok) {
        /* the first -engine: the first unit's player in an odd-numbered game (a
         * pair's first game seats the engines in order), else the table's */
        int a = gr.first;
        long lowest = 0;
        for (long i = 0; i < t->n; i++) {
            const TableGame *g = &t->games[i];
            if (g->number % 2 == 1 && (!lowest || g->number < lowest)) {
                lowest = g->number;
                for (int k = 0; k < gr.nplayers; k++)
                    if (gr.names[k] == g->g.player[0])
                        a = k;
            }
        }
        *p = elo_pentanomial_count(gr.games, gr.n, a, 1 - a);
        *w = elo_wdl_count(gr.games, gr.n, a, 1 - a);
        *first = t->names[gr.names[a]];
        *second = t->names[gr.names[1 - a]];
    }
    group_free(&gr);
    return ok ? 0 : -1;
}

int arena_table_print(FILE *out, ArenaTable *t, const TableOptions *o)
{
    if (!t->n)
        fprintf(out, "no rated games\n");
    for (int k = 0; k < t->ngroups; k++) {
        Group gr;
        if (group_build(t, k, &gr))
            return -1;
        Variant var;
        const Variant *v = variant_init(&var, t->groups[k]) ? NULL : &var;
        const bool teams = v && v->teams;
        int *part = malloc((size_t)(gr.nplayers ? gr.nplayers : 1) * sizeof *part);
        const int nparts = part && gr.nplayers ? ratings_groups(gr.games, gr.n, gr.nplayers, part) : 0;
        int rc = !part || nparts < 0 ? -1
                 : nparts > 1        ? print_parts(out, t, t->groups[k], &gr, part, nparts, v, teams, o)
                                     : print_group(out, t, t->groups[k], &gr, v, teams, o);
        free(part);
        group_free(&gr);
        if (rc)
            return -1;
    }
    return 0;
}
