/* epd.c - position suites; see epd.h. */
#include "epd.h"

#include "fen.h"
#include "notation.h"

#include <string.h>

/* Skips spaces. */
static const char *skip(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Copies the next word of *s (up to a space, tab or ';') into w (n bytes);
 * returns its length (0 at the end of the operation). */
static size_t word(const char **s, char *w, size_t n)
{
    const char *p = skip(*s);
    size_t len = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != ';' && *p != '\n' && *p != '\r') {
        if (len + 1 < n)
            w[len] = *p;
        len++;
        p++;
    }
    w[len < n ? len : n - 1] = 0;
    *s = p;
    return len;
}

/* Reads the moves of a bm or am operation from *s up to its ';'. */
static int moves_of(const char **s, const Position *p, const char *op, Move *out, int *count, char *err, size_t n)
{
    char w[MOVE_STR_MAX], why[256];
    while (word(s, w, sizeof w)) {
        if (*count == EPD_MAX_MOVES) {
            snprintf(err, n, "%s: more than %d moves", op, EPD_MAX_MOVES);
            return -1;
        }
        if (move_parse(p, w, &out[*count], why, sizeof why)) {
            snprintf(err, n, "%s '%s': %s", op, w, why);
            return -1;
        }
        (*count)++;
    }
    return 0;
}

/* Reads a quoted operand from *s into out (n bytes). */
static int quoted(const char **s, const char *op, char *out, size_t n, char *err, size_t errlen)
{
    const char *p = skip(*s);
    if (*p != '"') {
        snprintf(err, errlen, "%s: expected a \"quoted\" text", op);
        return -1;
    }
    const char *end = strchr(p + 1, '"');
    if (!end) {
        snprintf(err, errlen, "%s: the text's closing '\"' is missing", op);
        return -1;
    }
    snprintf(out, n, "%.*s", (int)(end - p - 1), p + 1);
    *s = end + 1;
    return 0;
}

int epd_parse(const char *text, int line, EpdPosition *out, char *err, size_t n)
{
    const char *s = skip(text);
    if (!*s || *s == '#' || *s == '\n' || *s == '\r')
        return 0;
    *out = (EpdPosition){.line = line};
    /* the FEN: its four space-separated fields */
    size_t len = 0;
    for (int field = 0; field < 4; field++) {
        char w[FEN_MAX];
        if (!word(&s, w, sizeof w)) {
            snprintf(err, n, "the FEN needs four fields (board, side to move, seats, round)");
            return -1;
        }
        len += (size_t)snprintf(out->fen + len, sizeof out->fen - len, "%s%s", field ? " " : "", w);
    }
    /* the operations: the variant first wherever it stands */
    const char *v = strstr(s, "variant ");
    char name[64] = "";
    if (v) {
        const char *q = v + strlen("variant ");
        word(&q, name, sizeof name);
        out->v = variant_find(name);
    }
    if (!out->v) {
        snprintf(err, n, v ? "unknown variant '%s'" : "no 'variant <name>;' operation", v ? name : "");
        return -1;
    }
    Game g;
    char why[256];
    if (game_new(&g, out->v->name) || game_set_fen(&g, out->fen, why, sizeof why)) {
        snprintf(err, n, "bad FEN: %s", why);
        return -1;
    }
    out->pos = g.pos;
    while (*(s = skip(s))) {
        if (*s == ';' || *s == '\n' || *s == '\r') {
            s++;
            continue;
        }
        char op[16];
        word(&s, op, sizeof op);
        int rc = 0;
        if (!strcmp(op, "variant"))
            word(&s, name, sizeof name);
        else if (!strcmp(op, "bm"))
            rc = moves_of(&s, &out->pos, op, out->bm, &out->nbm, err, n);
        else if (!strcmp(op, "am"))
            rc = moves_of(&s, &out->pos, op, out->am, &out->nam, err, n);
        else if (!strcmp(op, "id"))
            rc = quoted(&s, op, out->id, sizeof out->id, err, n);
        else if (!strcmp(op, "c0"))
            rc = quoted(&s, op, out->comment, sizeof out->comment, err, n);
        else {
            snprintf(err, n, "unknown opcode '%s'", op);
            return -1;
        }
        if (rc)
            return -1;
        s = skip(s);
        if (*s && *s != ';' && *s != '\n' && *s != '\r') {
            snprintf(err, n, "%s: expected ';' before '%.20s'", op, s);
            return -1;
        }
    }
    if (!out->nbm && !out->nam) {
        snprintf(err, n, "no bm and no am: nothing to solve");
        return -1;
    }
    return 1;
}

void epd_write(FILE *f, const EpdPosition *p)
{
    char mv[MOVE_STR_MAX];
    fprintf(f, "%s variant %s;", p->fen, p->v->name);
    if (p->nbm) {
        fputs(" bm", f);
        for (int i = 0; i < p->nbm; i++)
            fprintf(f, " %s", move_str(&p->pos, &p->bm[i], mv));
        fputc(';', f);
    }
    if (p->nam) {
        fputs(" am", f);
        for (int i = 0; i < p->nam; i++)
            fprintf(f, " %s", move_str(&p->pos, &p->am[i], mv));
        fputc(';', f);
    }
    if (p->id[0])
        fprintf(f, " id \"%s\";", p->id);
    if (p->comment[0])
        fprintf(f, " c0 \"%s\";", p->comment);
}

bool epd_solved(const EpdPosition *p, const Move *m)
{
    for (int i = 0; i < p->nam; i++)
        if (move_same(m, &p->am[i]))
            return false;
    if (!p->nbm)
        return true;
    for (int i = 0; i < p->nbm; i++)
        if (move_same(m, &p->bm[i]))
            return true;
    return false;
}
