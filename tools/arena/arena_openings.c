/* arena_openings.c - start positions of tournament games; see arena_openings.h. */
#include "arena_openings.h"

#include "game.h"
#include "notation.h"
#include "pgn_read.h"
#include "rng.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OPENINGS_MAX 10000000 /* positions kept from one file */

void arena_openings_init(Openings *o, const Variant *v, int random_plies, unsigned seed)
{
    memset(o, 0, sizeof *o);
    o->v = v;
    o->random_plies = random_plies;
    o->seed = seed;
}

void arena_openings_free(Openings *o)
{
    free(o->fen);
    free(o->order);
    o->fen = NULL;
    o->order = NULL;
    o->n = 0;
}

/* Whether a game can be played from p. */
static bool playable(const Position *p)
{
    return !pos_over(p) && gen_count(p, NULL) > 0;
}

static int add_fen(Openings *o, int *cap, const Position *p)
{
    if (!playable(p))
        return 0;
    if (o->n == *cap) {
        if (*cap >= OPENINGS_MAX)
            return -1;
        const int grown = *cap ? *cap * 2 : 256;
        char(*f)[FEN_MAX] = realloc(o->fen, (size_t)grown * sizeof *f);
        if (!f)
            return -1;
        o->fen = f;
        *cap = grown;
    }
    fen_write(p, o->fen[o->n++]);
    return 0;
}

static int load_fens(Openings *o, FILE *f, const char *path, char *err, size_t n)
{
    char *line = NULL;
    size_t linecap = 0;
    int cap = 0, lineno = 0, rc = 0;
    Position p;
    ssize_t len;
    while (!rc && (len = getline(&line, &linecap, f)) >= 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len)) {
            snprintf(err, n, "%s:%d: a NUL byte in the line", path, lineno);
            rc = -1;
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        const char *s = line + strspn(line, " \t");
        if (!*s || *s == '#')
            continue;
        char why[256];
        if (fen_parse(&p, o->v, s, why, sizeof why)) {
            snprintf(err, n, "%s:%d: %s", path, lineno, why);
            rc = -1;
        } else if (add_fen(o, &cap, &p)) {
            snprintf(err, n, "%s:%d: out of memory or more than %d openings", path, lineno, OPENINGS_MAX);
            rc = -1;
        }
    }
    free(line);
    return rc;
}

/* The position of record g after at most `plies` moves into *game. Returns 0, or
 * -1 with the reason in err. */
static int replay(Game *game, const Variant *v, const PgnGame *g, int plies, char *err, size_t n)
{
    const char *variant = pgn_tag(g, "Variant"), *fen = pgn_tag(g, "FEN");
    if (variant && strcasecmp(variant, v->name)) {
        snprintf(err, n, "a game of %s, not %s", variant, v->name);
        return -1;
    }
    game_new(game, v->name);
    if (fen && game_set_fen(game, fen, err, n))
        return -1;
    for (int i = 0; i < g->nmoves && (plies < 0 || i < plies) && !pos_over(&game->pos); i++) {
        if (!strcmp(g->moves[i], "--"))
            continue; /* the turn was skipped: game_play already skips it */
        Move m;
        char why[256];
        if (move_parse(&game->pos, g->moves[i], &m, why, sizeof why) || game_play(game, &m)) {
            snprintf(err, n, "move %d '%s': %s", i + 1, g->moves[i], why);
            return -1;
        }
    }
    return 0;
}

typedef struct {
    Openings *o;
    const char *path;
    int plies, cap;
    Game *game;
} Loading;

static int add_record(PgnGame *g, PgnStatus status, const char *why, void *ctx, char *err, size_t n)
{
    (void)why;
    Loading *l = ctx;
    char reason[PGN_ERR_MAX];
    if (status != PGN_OK)
        return 0;
    if (replay(l->game, l->o->v, g, l->plies, reason, sizeof reason)) {
        snprintf(err, n, "%s:%d: %s", l->path, g->line, reason);
        return -1;
    }
    if (add_fen(l->o, &l->cap, &l->game->pos)) {
        snprintf(err, n, "%s:%d: out of memory or more than %d openings", l->path, g->line, OPENINGS_MAX);
        return -1;
    }
    return 0;
}

static int load_records(Openings *o, FILE *f, const char *path, int plies, char *err, size_t n)
{
    Loading l = {o, path, plies, 0, malloc(sizeof(Game))};
    if (!l.game) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    const int rc = pgn_read_each(f, path, PGN_ERRORS_END, add_record, &l, err, n);
    free(l.game);
    return rc;
}

/* Whether the first non-blank character of f is '[' (f is rewound). */
static bool is_record_file(FILE *f)
{
    int c;
    while ((c = getc(f)) != EOF && isspace(c))
        ;
    rewind(f);
    return c == '[';
}

int arena_openings_load(Openings *o, const Variant *v, const char *path, int plies, bool random, unsigned seed,
                        int start, char *err, size_t n)
{
    arena_openings_init(o, v, 0, seed);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        return -1;
    }
    const int rc = is_record_file(f) ? load_records(o, f, path, plies, err, n) : load_fens(o, f, path, err, n);
    fclose(f);
    if (!rc && !o->n) {
        snprintf(err, n, "%s: no playable position", path);
        arena_openings_free(o);
        return -1;
    }
    if (rc || !(o->order = malloc((size_t)o->n * sizeof *o->order))) {
        if (!rc)
            snprintf(err, n, "out of memory");
        arena_openings_free(o);
        return -1;
    }
    for (int i = 0; i < o->n; i++)
        o->order[i] = (i + (start > 0 ? start - 1 : 0)) % o->n;
    uint64_t state = seed;
    for (int i = o->n - 1; random && i > 0; i--) { /* Fisher-Yates */
        const int j = (int)(rng_next(&state) % (uint64_t)(i + 1));
        const int t = o->order[i];
        o->order[i] = o->order[j];
        o->order[j] = t;
    }
    return 0;
}

char *arena_openings_fen(const Openings *o, long index, char *buf)
{
    if (o->n)
        return strcpy(buf, o->fen[o->order[index % o->n]]);
    Game *g = malloc(sizeof *g);
    Position p;
    if (!g) { /* cannot happen in practice; the start position is a fair answer */
        pos_set_start(&p, o->v);
        return fen_write(&p, buf);
    }
    game_new(g, o->v->name);
    uint64_t state = (uint64_t)o->seed << 32 ^ (uint64_t)index;
    MoveList *list = move_list_new();
    for (int i = 0; list && i < o->random_plies && !pos_over(&g->pos); i++) {
        gen_moves(&g->pos, list, NULL);
        if (!list->n)
            break;
        const Game before = *g;
        game_play(g, &list->m[rng_next(&state) % (uint64_t)list->n]);
        if (!playable(&g->pos)) { /* keep the last playable position */
            *g = before;
            break;
        }
    }
    fen_write(&g->pos, buf);
    move_list_delete(list);
    free(g);
    return buf;
}
