/* pgn_read.c - game records read back into memory; see pgn_read.h. */
#include "pgn_read.h"

#include "game.h"
#include "notation.h"
#include "record.h"
#include "variant.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- lines ---- */

void pgn_reader_init(PgnReader *r, FILE *f, const char *name)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->name = name;
}

void pgn_reader_free(PgnReader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = 0;
}

enum { FAULT_NONE, FAULT_PENDING, FAULT_REPORTED };

/* Stops reading r's stream for good (r->fault): what (printf-style) is the
 * reason, reported by the next read of a game (fault_error). */
static void stop_reading(PgnReader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void stop_reading(PgnReader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->fault_what, sizeof r->fault_what, fmt, ap);
    va_end(ap);
    r->fault = FAULT_PENDING;
    r->len = -1;
}

/* Reads the next line of the stream into buf, its newline included when it has
 * one, NUL-terminated. Returns its length in bytes, or -1 at end of file and
 * when reading stops: a line over PGN_READ_LINE_MAX bytes (before its
 * newline), a NUL byte, a read error (stop_reading; r->line is then the line
 * at fault). getline would hold a line of any length, and a NUL would cut it
 * unseen: a binary file is read in bounded memory and refused at its first
 * line that is not text. */
static long read_line(PgnReader *r)
{
    size_t k = 0;
    int c;
    while ((c = getc_unlocked(r->f)) != EOF) {
        if (k + 2 > r->cap) { /* room for c and the terminator */
            size_t cap = r->cap ? 2 * r->cap : 256;
            if (cap > (size_t)PGN_READ_LINE_MAX + 2)
                cap = (size_t)PGN_READ_LINE_MAX + 2;
            char *b = realloc(r->buf, cap);
            if (!b) {
                r->line++;
                stop_reading(r, "out of memory");
                return -1;
            }
            r->buf = b;
            r->cap = cap;
        }
        if (c == '\0') {
            r->line++;
            stop_reading(r, "a NUL byte at column %zu: not a record file", k + 1);
            return -1;
        }
        r->buf[k++] = (char)c;
        if (c == '\n')
            break;
        if (k > PGN_READ_LINE_MAX) {
            r->line++;
            stop_reading(r, "a line longer than %d bytes: not a record file", PGN_READ_LINE_MAX);
            return -1;
        }
    }
    if (ferror(r->f)) {
        const int e = errno;
        r->line++;
        stop_reading(r, "read error: %s", strerror(e));
        return -1;
    }
    if (k == 0)
        return -1;
    r->buf[k] = '\0';
    return (long)k;
}

/* Makes buf hold the next line not consumed yet; false at end of file and
 * once reading has stopped (r->fault). */
static bool peek_line(PgnReader *r)
{
    if (r->held)
        return true;
    if (r->fault)
        return false;
    const long k = read_line(r);
    if (k < 0) {
        r->len = -1;
        return false;
    }
    r->line++;
    r->offset = r->next;
    r->next += k;
    r->len = k;
    r->col = 0;
    r->held = true;
    return true;
}

/* The unconsumed part of the held line. */
static const char *rest(const PgnReader *r)
{
    return r->buf + r->col;
}

static void consume_line(PgnReader *r)
{
    r->held = false;
}

/* Byte offset just past what was consumed so far. */
static long consumed_to(const PgnReader *r)
{
    return r->held ? r->offset + (long)r->col : r->next;
}

/* Whether the line in buf was cut short: the file ends inside it. */
static bool line_cut(const PgnReader *r)
{
    return r->len > 0 && r->buf[r->len - 1] != '\n';
}

static const char *skip_space(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

static bool blank(const char *p)
{
    return !*skip_space(p);
}

/* ---- games ---- */

void pgn_game_free(PgnGame *g)
{
    for (int i = 0; i < g->ntags; i++) {
        free(g->tags[i].name);
        free(g->tags[i].value);
    }
    for (int i = 0; i < g->nmoves; i++)
        free(g->moves[i]);
    free(g->tags);
    free(g->moves);
    free(g->move_lines);
    memset(g, 0, sizeof *g);
}

void pgn_games_free(PgnGame *games, int n)
{
    for (int i = 0; i < n; i++)
        pgn_game_free(&games[i]);
    free(games);
}

const char *pgn_tag(const PgnGame *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (!strcmp(g->tags[i].name, name))
            return g->tags[i].value;
    return NULL;
}

/* Makes room for one more element in the array *arr holding n elements of `size`
 * bytes; its capacity is 8, then doubles whenever it fills. Returns 0 or -1. */
static int grow(void *arr, int n, size_t size)
{
    enum { FIRST_CAPACITY = 8 };
    const bool full = n == 0 || (n >= FIRST_CAPACITY && !(n & (n - 1)));
    if (!full)
        return 0;
    const size_t cap = n == 0 ? FIRST_CAPACITY : (size_t)n * 2;
    void *p = realloc(*(void **)arr, cap * size);
    if (!p)
        return -1;
    *(void **)arr = p;
    return 0;
}

static int add_move(PgnGame *g, const char *tok, size_t len, int line)
{
    char *s = strndup(tok, len);
    if (!s || grow(&g->moves, g->nmoves, sizeof *g->moves) || grow(&g->move_lines, g->nmoves, sizeof *g->move_lines)) {
        free(s);
        return -1;
    }
    g->move_lines[g->nmoves] = line;
    g->moves[g->nmoves++] = s;
    return 0;
}

/* ---- outcome of a read ---- */

static const char OUT_OF_MEMORY[] = "out of memory";

static PgnStatus error_at(PgnReader *r, PgnGame *g, char *err, size_t errlen, const char *fmt, ...)
{
    char what[PGN_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s:%d: %s", r->name, r->line, what);
    pgn_game_free(g);
    r->resync = true;
    consume_line(r);
    return PGN_ERROR;
}

/* The error that stopped reading (stop_reading), reported once: later reads
 * find the end of the file. */
static PgnStatus fault_error(PgnReader *r, PgnGame *g, char *err, size_t errlen)
{
    r->fault = FAULT_REPORTED;
    const PgnStatus st = error_at(r, g, err, errlen, "%s", r->fault_what);
    r->resync = false; /* nothing more is read */
    return st;
}

static PgnStatus incomplete(const PgnReader *r, PgnGame *g, char *err, size_t errlen, const char *why)
{
    g->end = consumed_to(r);
    snprintf(err, errlen, "%s:%d: incomplete game (%s)", r->name, g->line, why);
    return PGN_INCOMPLETE;
}

/* A syntax error on the current line: a cut last line means a game cut short by
 * a crash, anything else is an error. */
static PgnStatus bad_line(PgnReader *r, PgnGame *g, char *err, size_t errlen, const char *what)
{
    if (line_cut(r)) {
        consume_line(r);
        return incomplete(r, g, err, errlen, "the file ends inside a line");
    }
    return error_at(r, g, err, errlen, "%s", what);
}

/* ---- tags ---- */

/* Parses the tag line p (at its '[') into g. Returns NULL, or what is wrong
 * (OUT_OF_MEMORY when memory runs out). */
static const char *parse_tag(const char *p, PgnGame *g)
{
    const char *name = ++p;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    const size_t nlen = (size_t)(p - name);
    if (nlen == 0)
        return "malformed tag: no name";
    p = skip_space(p);
    if (*p != '"')
        return "malformed tag: no quoted value";
    char *value = malloc(strlen(p) + 1);
    if (!value)
        return OUT_OF_MEMORY;
    size_t vlen = 0;
    for (p++; *p && *p != '"' && *p != '\n'; p++) {
        if (*p == '\\' && p[1] && p[1] != '\n')
            p++;
        value[vlen++] = *p;
    }
    value[vlen] = '\0';
    const bool closed = *p == '"' && *skip_space(p + 1) == ']';
    if (!closed) {
        free(value);
        return "unterminated tag";
    }
    if (!blank(strchr(p + 1, ']') + 1)) {
        free(value);
        return "text after the tag";
    }
    char *n = strndup(name, nlen);
    if (!n || grow(&g->tags, g->ntags, sizeof *g->tags)) {
        free(n);
        free(value);
        return OUT_OF_MEMORY;
    }
    g->tags[g->ntags++] = (PgnTag){n, value};
    return NULL;
}

/* ---- movetext ---- */

static const char *const RESULTS[] = {"1-0", "0-1", "1/2-1/2", "*"};

/* A game termination marker: the two-seat ones and "*", or 3-6 places joined
 * by '-' ("1-3-2", PROTOCOL.md). */
static bool is_result(const char *tok, size_t len)
{
    for (size_t i = 0; i < sizeof RESULTS / sizeof *RESULTS; i++)
        if (strlen(RESULTS[i]) == len && !memcmp(RESULTS[i], tok, len))
            return true;
    if (len < 5 || len > 11 || len % 2 == 0)
        return false;
    for (size_t i = 0; i < len; i++)
        if (i % 2 ? tok[i] != '-' : tok[i] < '1' || tok[i] > '6')
            return false;
    return true;
}

static bool token_end(char c)
{
    return !c || isspace((unsigned char)c) || c == '{' || c == ';' || c == '(' || c == '[';
}

typedef enum { LINE_MORE, LINE_RESULT, LINE_BAD, LINE_NOMEM, LINE_NEXT_GAME } LineEnd;

#define WHAT_MAX 128 /* a parse error's text */

/* Reads the movetext tokens of line p into g; *comment_line is the line of a
 * {comment} still open (0 when none) across calls. On LINE_BAD, what (WHAT_MAX
 * bytes) says why; on LINE_NEXT_GAME (a tag before the result: the game was cut
 * short and another written after it) *stop points at the tag's '['. */
static LineEnd parse_moves(const char *p, int line, int *comment_line, PgnGame *g, char *what, const char **stop)
{
    for (;;) {
        if (*comment_line) {
            const char *close = strchr(p, '}');
            if (!close)
                return LINE_MORE;
            p = close + 1;
            *comment_line = 0;
        }
        p = skip_space(p);
        if (!*p || *p == ';')
            return LINE_MORE;
        if (*p == '{') {
            *comment_line = line;
            p++;
            continue;
        }
        if (*p == '[') {
            *stop = p;
            return LINE_NEXT_GAME;
        }
        if (*p == '(') {
            snprintf(what, WHAT_MAX, "variations are not supported");
            return LINE_BAD;
        }
        if (*p == '}') {
            snprintf(what, WHAT_MAX, "'}' outside a comment");
            return LINE_BAD;
        }
        const char *tok = p;
        while (!token_end(*p))
            p++;
        size_t len = (size_t)(p - tok);
        if (is_result(tok, len)) {
            memcpy(g->result, tok, len);
            g->result[len] = '\0';
            if (!blank(p)) {
                snprintf(what, WHAT_MAX, "text after the result");
                return LINE_BAD;
            }
            return LINE_RESULT;
        }
        if (*tok == '$')
            continue; /* a numeric annotation glyph */
        if (isdigit((unsigned char)*tok)) { /* a round number, "12." or "12...", maybe glued to a move */
            const char *q = tok;
            while (isdigit((unsigned char)*q))
                q++;
            if (*q != '.') {
                snprintf(what, WHAT_MAX, "unexpected token \"%.*s\"", (int)len, tok);
                return LINE_BAD;
            }
            while (*q == '.')
                q++;
            len -= (size_t)(q - tok);
            tok = q;
            if (len == 0)
                continue;
        }
        const bool skipped = len == 2 && !memcmp(tok, "--", 2);
        if (!skipped && !isalpha((unsigned char)*tok)) {
            snprintf(what, WHAT_MAX, "unexpected token \"%.*s\"", (int)len, tok);
            return LINE_BAD;
        }
        if (add_move(g, tok, len, line))
            return LINE_NOMEM;
    }
}

/* Consumes the blank lines that follow. */
static void skip_blank_lines(PgnReader *r)
{
    while (peek_line(r) && blank(rest(r)))
        consume_line(r);
}

static PgnStatus read_moves(PgnReader *r, PgnGame *g, char *err, size_t errlen)
{
    int comment_line = 0;
    for (;;) {
        if (!peek_line(r)) {
            if (r->fault == FAULT_PENDING)
                return fault_error(r, g, err, errlen);
            if (comment_line) {
                char why[64];
                snprintf(why, sizeof why, "unterminated comment from line %d", comment_line);
                return incomplete(r, g, err, errlen, why);
            }
            return incomplete(r, g, err, errlen, "the file ends before its result");
        }
        char what[WHAT_MAX];
        const char *stop = NULL;
        switch (parse_moves(rest(r), r->line, &comment_line, g, what, &stop)) {
        case LINE_MORE:
            consume_line(r);
            break;
        case LINE_RESULT:
            consume_line(r);
            skip_blank_lines(r);
            g->end = consumed_to(r);
            return PGN_OK;
        case LINE_BAD:
            return bad_line(r, g, err, errlen, what);
        case LINE_NOMEM:
            return error_at(r, g, err, errlen, OUT_OF_MEMORY);
        case LINE_NEXT_GAME: {
            r->col = (size_t)(stop - r->buf);
            char why[64];
            snprintf(why, sizeof why, "the game at line %d starts before its result", r->line);
            return incomplete(r, g, err, errlen, why);
        }
        }
    }
}

PgnStatus pgn_read_game(PgnReader *r, PgnGame *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (r->resync) { /* PGN export format starts every game with its Event tag */
        while (peek_line(r) && strncmp(skip_space(rest(r)), "[Event ", strlen("[Event ")))
            consume_line(r);
        r->resync = false;
    }
    skip_blank_lines(r);
    if (!peek_line(r)) {
        if (r->fault == FAULT_PENDING)
            return fault_error(r, g, err, errlen);
        return PGN_EOF;
    }
    g->line = r->line;
    g->start = consumed_to(r);
    while (peek_line(r)) {
        const char *p = skip_space(rest(r));
        if (*p != '[')
            break;
        const char *what = parse_tag(p, g);
        if (what == OUT_OF_MEMORY)
            return error_at(r, g, err, errlen, "%s", what);
        if (what)
            return bad_line(r, g, err, errlen, what);
        consume_line(r);
    }
    return read_moves(r, g, err, errlen);
}

int pgn_read_each(FILE *f, const char *name, PgnErrors errors, PgnEachFn fn, void *ctx, char *err, size_t n)
{
    PgnReader r;
    pgn_reader_init(&r, f, name);
    int rc = 0;
    PgnStatus st;
    PgnGame g;
    char why[PGN_ERR_MAX] = "";
    while (!rc && (st = pgn_read_game(&r, &g, why, sizeof why)) != PGN_EOF) {
        if (st == PGN_ERROR && errors == PGN_ERRORS_END) {
            snprintf(err, n, "%s", why);
            rc = -1;
        } else if (st == PGN_ERROR) {
            rc = fn(NULL, st, why, ctx, err, n);
        } else {
            rc = fn(&g, st, st == PGN_OK ? "" : why, ctx, err, n);
            pgn_game_free(&g);
        }
    }
    pgn_reader_free(&r);
    return rc;
}

/* The complete games of a file, for pgn_read_all. */
typedef struct {
    PgnGame *list;
    int n, cut;
    const char *name;
} ReadAll;

static int keep_game(PgnGame *g, PgnStatus status, const char *why, void *ctx, char *err, size_t n)
{
    ReadAll *all = ctx;
    if (status == PGN_INCOMPLETE) {
        snprintf(err, n, "%s", why); /* the last one's is left there */
        all->cut++;
        return 0;
    }
    if (grow(&all->list, all->n, sizeof *all->list)) {
        snprintf(err, n, "%s: %s", all->name, OUT_OF_MEMORY);
        return -1;
    }
    all->list[all->n++] = *g;
    *g = (PgnGame){0}; /* taken */
    return 0;
}

int pgn_read_all(FILE *f, const char *name, PgnGame **games, int *ngames, int *nincomplete, char *err,
                 size_t errlen)
{
    ReadAll all = {.name = name};
    if (pgn_read_each(f, name, PGN_ERRORS_END, keep_game, &all, err, errlen)) {
        pgn_games_free(all.list, all.n);
        *games = NULL;
        *ngames = 0;
        return -1;
    }
    *games = all.list;
    *ngames = all.n;
    if (nincomplete)
        *nincomplete = all.cut;
    return 0;
}

/* ---- rating ---- */

#define PGN_NAME_MAX 512 /* a unit's name: one or two player names */

/* The units of g's variant: their lower seats in turn order into unit_seat[];
 * returns how many, or -1 when the Variant tag is missing or unknown. */
static int units_of(const PgnGame *g, Variant *v, int unit_seat[MAX_SEATS])
{
    const char *name = pgn_tag(g, "Variant");
    if (!name || variant_init(v, name))
        return -1;
    int n = 0;
    for (int i = 0; i < v->nseats; i++)
        if (variant_unit(v, v->seats[i]) == v->seats[i])
            unit_seat[n++] = v->seats[i];
    return n;
}

char *pgn_unit_name(const PgnGame *g, int unit, char *buf, size_t n)
{
    Variant v;
    int unit_seat[MAX_SEATS];
    const int nunits = units_of(g, &v, unit_seat);
    if (nunits < 0 || unit < 0 || unit >= nunits)
        return NULL;
    const int s = unit_seat[unit], partner = variant_partner(&v, s);
    const char *a = pgn_tag(g, record_colour_tag(s));
    const char *b = partner >= 0 ? pgn_tag(g, record_colour_tag(partner)) : a;
    if (!a || !b)
        return NULL;
    const int w = strcmp(a, b) ? snprintf(buf, n, "%s+%s", a, b) : snprintf(buf, n, "%s", a);
    return w >= 0 && (size_t)w < n ? buf : NULL;
}

/* Places by seat (0 for seats not named) from a Places tag "w:1 u:2 y:3" of v.
 * Returns NULL or what is wrong. */
static const char *parse_places(const char *text, const Variant *v, int place[MAX_SEATS])
{
    memset(place, 0, MAX_SEATS * sizeof *place);
    const char *p = skip_space(text);
    while (*p) {
        const int s = variant_seat_of_letter((unsigned char)*p);
        if (s < 0 || p[1] != ':' || !isdigit((unsigned char)p[2]))
            return "malformed Places tag";
        if (v->slot[s] < 0)
            return "Places names a seat not in play";
        if (place[s])
            return "Places names a seat twice";
        char *end;
        const long pl = strtol(p + 2, &end, 10);
        if (pl < 1 || pl > v->nunits || (*end && !isspace((unsigned char)*end)))
            return "malformed Places tag";
        place[s] = (int)pl;
        p = skip_space(end);
    }
    for (int i = 0; i < v->nseats; i++)
        if (!place[v->seats[i]])
            return "Places leaves out a seat in play";
    return NULL;
}

/* Places (by seat) from a Result: "1-0", "0-1", "1/2-1/2" with two seats; with
 * 3-6, the places in turn order joined by '-' ("1-3-2"). False when it is not
 * a decided result of this variant ("*", or malformed). */
static bool places_from_result(const char *result, const Variant *v, int place[MAX_SEATS])
{
    if (!result)
        return false;
    if (v->nseats == 2) {
        const int w = v->seats[0], b = v->seats[1];
        if (!strcmp(result, "1-0"))
            place[w] = 1, place[b] = 2;
        else if (!strcmp(result, "0-1"))
            place[w] = 2, place[b] = 1;
        else if (!strcmp(result, "1/2-1/2"))
            place[w] = place[b] = 1;
        else
            return false;
        return true;
    }
    int got[MAX_SEATS];
    const char *c = result;
    for (int i = 0; i < v->nseats; i++) {
        if (i && *c++ != '-')
            return false;
        if (*c < '1' || *c > '0' + v->nseats)
            return false;
        got[i] = *c++ - '0';
    }
    if (*c)
        return false;
    for (int i = 0; i < v->nseats; i++)
        place[v->seats[i]] = got[i];
    return true;
}

/* Replays g's moves through the rules library: each must be legal and come
 * before the end; when the moves end the game, its places must be place[]
 * (by seat), and a two-seat Result must agree with place[]. 0, or -1 with the
 * reason in err. */
static int replay_check(const PgnGame *g, const int place[MAX_SEATS], char *err, size_t errlen)
{
    Game *game = malloc(sizeof *game);
    if (!game) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = -1;
    char why[512];
    const char *fen = pgn_tag(g, "FEN");
    if (game_new(game, pgn_tag(g, "Variant"))) {
        snprintf(err, errlen, "unknown variant");
        goto done;
    }
    if (fen && !blank(fen) && game_set_fen(game, fen, why, sizeof why)) {
        snprintf(err, errlen, "bad FEN tag: %s", why);
        goto done;
    }
    for (int i = 0; i < g->nmoves; i++) {
        if (!strcmp(g->moves[i], "--"))
            continue; /* a turn a seat could not play */
        Move m;
        if (pos_over(&game->pos)) {
            snprintf(err, errlen, "move %d (%s) comes after the end of the game", i + 1, g->moves[i]);
            goto done;
        }
        if (move_parse(&game->pos, g->moves[i], &m, why, sizeof why)) {
            snprintf(err, errlen, "move %d: %s", i + 1, why);
            goto done;
        }
        game_play(game, &m);
    }
    const Variant *v = game->v;
    if (pos_over(&game->pos))
        for (int i = 0; i < v->nseats; i++) {
            const int s = v->seats[i];
            if (game->pos.place[s] && game->pos.place[s] != place[s]) {
                snprintf(err, errlen, "Places gives %c place %d, the moves place it %d", variant_seat_letter(s),
                         place[s], game->pos.place[s]);
                goto done;
            }
        }
    const char *result = pgn_tag(g, "Result");
    int said[MAX_SEATS] = {0};
    if (places_from_result(result, v, said))
        for (int i = 0; i < v->nseats; i++)
            if (said[v->seats[i]] != place[v->seats[i]]) {
                snprintf(err, errlen, "Result \"%s\" contradicts Places (%c is placed %d)", result,
                         variant_seat_letter(v->seats[i]), place[v->seats[i]]);
                goto done;
            }
    rc = 0;
done:
    free(game);
    return rc;
}

int pgn_places(const PgnGame *g, int place[MAX_SEATS], char *err, size_t errlen)
{
    const char *name = pgn_tag(g, "Variant");
    const Variant *v = name ? variant_find(name) : NULL;
    memset(place, 0, MAX_SEATS * sizeof *place);
    if (!v) {
        snprintf(err, errlen, "unknown variant \"%s\"", name ? name : "");
        return -1;
    }
    const char *places = pgn_tag(g, "Places");
    if (places && !blank(places)) {
        const char *what = parse_places(places, v, place);
        if (what) {
            snprintf(err, errlen, "%s: \"%s\"", what, places);
            return -1;
        }
        return 0;
    }
    return places_from_result(pgn_tag(g, "Result"), v, place) ? 0 : 1;
}

int pgn_rated_game(const PgnGame *g, const char *const *names, int nnames, RatedGame *out, char *err,
                   size_t errlen)
{
    Variant v;
    int unit_seat[MAX_SEATS], place[MAX_SEATS] = {0};
    const int nunits = units_of(g, &v, unit_seat);
    if (nunits < 0) {
        snprintf(err, errlen, "unknown variant \"%s\"", pgn_tag(g, "Variant") ? pgn_tag(g, "Variant") : "");
        return -1;
    }
    const char *places = pgn_tag(g, "Places");
    if (places && !blank(places)) {
        const char *what = parse_places(places, &v, place);
        if (what) {
            snprintf(err, errlen, "%s: \"%s\"", what, places);
            return -1;
        }
    } else if (!places_from_result(pgn_tag(g, "Result"), &v, place)) {
        return 1;
    }
    if (replay_check(g, place, err, errlen))
        return -1;
    memset(out, 0, sizeof *out);
    out->nunits = nunits;
    out->pair = -1;
    for (int i = 0; i < nunits; i++) {
        const int s = unit_seat[i], partner = variant_partner(&v, s);
        if (partner >= 0 && place[partner] != place[s]) {
            snprintf(err, errlen, "partners %c and %c have different places", variant_seat_letter(s),
                     variant_seat_letter(partner));
            return -1;
        }
        char name[PGN_NAME_MAX];
        if (!pgn_unit_name(g, i, name, sizeof name)) {
            snprintf(err, errlen, "no %s tag or a name too long", record_colour_tag(s));
            return -1;
        }
        int k = 0;
        while (k < nnames && strcmp(names[k], name))
            k++;
        if (k == nnames) {
            snprintf(err, errlen, "unknown player \"%s\"", name);
            return -1;
        }
        out->player[i] = k;
        out->place[i] = place[s];
    }
    return 0;
}

int pgn_replay(const PgnGame *pg, const char *name, Game *g, char *err, size_t n)
{
    const char *variant = pgn_tag(pg, "Variant"), *fen = pgn_tag(pg, "FEN");
    char why[256];
    if (game_new(g, variant ? variant : "")) {
        if (variant)
            snprintf(err, n, "%s:%d: unknown Variant \"%.64s\" (the record that starts here)", name, pg->line, variant);
        else
            snprintf(err, n, "%s:%d: no Variant tag (the record that starts here)", name, pg->line);
        return -1;
    }
    if (fen && game_set_fen(g, fen, why, sizeof why)) {
        snprintf(err, n, "%s:%d: bad FEN tag: %s", name, pg->line, why);
        return -1;
    }
    for (int i = 0; i < pg->nmoves; i++) {
        if (!strcmp(pg->moves[i], "--"))
            continue;
        Move m;
        if (pos_over(&g->pos)) {
            snprintf(err, n, "%s:%d: move %d '%s' comes after the end of the game", name, pg->move_lines[i], i + 1,
                     pg->moves[i]);
            return -1;
        }
        if (move_parse(&g->pos, pg->moves[i], &m, why, sizeof why) || game_play(g, &m)) {
            snprintf(err, n, "%s:%d: move %d '%s': %s", name, pg->move_lines[i], i + 1, pg->moves[i], why);
            return -1;
        }
    }
    return 0;
}
