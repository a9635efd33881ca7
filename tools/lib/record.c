/* record.c - games as PGN-syntax records; see record.h. */
#include "record.h"

#include "fen.h"
#include "notation.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PGN_LINE_MAX 79 /* PGN export format: movetext lines shorter than 80 */

const char *record_colour_tag(int s)
{
    static const char *const names[MAX_SEATS] = {"White", "Red", "Blue", "Black", "Yellow", "Green"};
    return names[s];
}

char *record_today(char *buf)
{
    const time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(buf, 11, "%Y.%m.%d", &tm);
    return buf;
}

char *record_result(const Position *p, char *buf, size_t n)
{
    const char *two = NULL;
    if (!pos_over(p)) {
        two = "*";
    } else if (p->v->nseats == 2) {
        const int w = p->place[p->v->seats[0]], b = p->place[p->v->seats[1]];
        two = w == b ? "1/2-1/2" : w < b ? "1-0" : "0-1";
    }
    if (two) {
        snprintf(buf, n, "%s", two);
        return buf;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->v->nseats && len < n; i++) {
        const int w = snprintf(buf + len, n - len, "%s%d", i ? "-" : "", p->place[p->v->seats[i]]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

char *record_places(const Position *p, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    if (!pos_over(p))
        return buf;
    for (int i = 0; i < p->v->nseats && len < n; i++) {
        const int s = p->v->seats[i];
        const int w = snprintf(buf + len, n - len, "%s%c:%d", i ? " " : "", variant_seat_letter(s), p->place[s]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

/* ---- output ---- */

static void put_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', f);
        fputc(*c, f);
    }
    fputs("\"]\n", f);
}

static const char *or_default(const char *s, const char *dflt)
{
    return s ? s : dflt;
}

/* Movetext output: tokens separated by spaces, lines wrapped before 80 columns; a
 * round number waits for the token after it so that both go on the same line. */
typedef struct {
    FILE *f;
    int col;
    char number[16]; /* "12." not yet written, or "" */
} Movetext;

static void put_text(Movetext *mt, const char *tok, int len)
{
    if (mt->col > 0 && mt->col + 1 + len > PGN_LINE_MAX) {
        fputc('\n', mt->f);
        mt->col = 0;
    } else if (mt->col > 0) {
        fputc(' ', mt->f);
        mt->col++;
    }
    fputs(tok, mt->f);
    mt->col += (int)strlen(tok);
}

static void put_token(Movetext *mt, const char *tok)
{
    const int len = (int)strlen(tok);
    if (mt->number[0]) {
        const int nlen = (int)strlen(mt->number);
        put_text(mt, mt->number, nlen + 1 + len);
        mt->number[0] = '\0';
        fputc(' ', mt->f);
        fputs(tok, mt->f);
        mt->col += 1 + len;
        return;
    }
    put_text(mt, tok, len);
}

static void put_round(Movetext *mt, int round, bool mid_round)
{
    snprintf(mt->number, sizeof mt->number, "%d%s", round, mid_round ? "..." : ".");
}

/* A comment as one token "{text}"; a '}' inside would end it, so it becomes ')'. */
static void put_comment(Movetext *mt, const char *text)
{
    const size_t n = strlen(text);
    char *buf = malloc(n + 3);
    if (!buf)
        return;
    buf[0] = '{';
    for (size_t i = 0; i < n; i++)
        buf[i + 1] = text[i] == '}' ? ')' : text[i];
    buf[n + 1] = '}';
    buf[n + 2] = '\0';
    put_token(mt, buf);
    free(buf);
}

/* Replays g from its start, writing the comment `head` (NULL: none), each round
 * number, the skipped turns (a seat still playing whose turn passed without a
 * move), the moves with their comments (NULL, or one per ply) and the result
 * (NULL: the position's). */
static void put_movetext(FILE *f, const Game *g, const char *head, const char *const *comments, const char *result)
{
    const Variant *v = g->v;
    Movetext mt = {f, 0, ""};
    if (head)
        put_comment(&mt, head);
    Position pos = g->start;
    pos.v = v;
    int round = pos.round;
    int next = pos_over(&pos) ? 0 : v->slot[pos.stm]; /* slot whose turn comes next */
    if (g->nplies > 0)
        put_round(&mt, round, next > 0);
    for (int i = 0; i < g->nplies; i++) {
        const int mover = v->slot[pos.stm];
        for (;;) {
            if (next == v->nseats) {
                next = 0;
                put_round(&mt, ++round, false);
            }
            if (next == mover)
                break;
            if (pos.status[v->seats[next]] == ST_PLAYING)
                put_token(&mt, "--");
            next++;
        }
        char text[MOVE_STR_MAX];
        put_token(&mt, move_str(&pos, &g->moves[i], text));
        if (comments && comments[i] && comments[i][0])
            put_comment(&mt, comments[i]);
        pos_play(&pos, &g->moves[i]);
        next = mover + 1;
    }
    char own[RECORD_RESULT_MAX];
    put_token(&mt, result ? result : record_result(&g->pos, own, sizeof own));
    fputc('\n', f);
}

int record_write(FILE *f, const Game *g, const RecordTags *t)
{
    const Position *end = &g->pos;
    put_tag(f, "Event", or_default(t->event, "?"));
    put_tag(f, "Site", or_default(t->site, "?"));
    put_tag(f, "Date", or_default(t->date, "????.??.??"));
    put_tag(f, "Round", or_default(t->round, "?"));
    put_tag(f, "Variant", g->v->name);
    Position std;
    pos_set_start(&std, g->v);
    char fen[FEN_MAX], std_fen[FEN_MAX];
    if (strcmp(fen_write(&g->start, fen), fen_write(&std, std_fen)))
        put_tag(f, "FEN", fen);
    put_tag(f, "TimeControl", or_default(t->time_control, "-"));
    for (int i = 0; i < g->v->nseats; i++) {
        const int s = g->v->seats[i];
        put_tag(f, record_colour_tag(s), or_default(t->players[s], "?"));
    }
    char result[RECORD_RESULT_MAX];
    put_tag(f, "Result", record_result(end, result, sizeof result));
    if (pos_over(end)) {
        char places[RECORD_PLACES_MAX];
        put_tag(f, "Places", record_places(end, places, sizeof places));
    }
    put_tag(f, "Termination",
            or_default(t->termination, pos_over(end) ? pos_reason_name((EndReason)end->reason) : "unterminated"));
    for (int i = 0; i < t->nextra; i++)
        put_tag(f, t->extra[i][0], t->extra[i][1]);
    fputc('\n', f);
    put_movetext(f, g, NULL, t->comments, NULL);
    fputc('\n', f);
    fflush(f);
    return ferror(f) ? -1 : 0;
}

int record_write_as(FILE *f, const Game *g, const char *const (*tags)[2], int ntags, const char *head,
                    const char *const *comments, const char *result)
{
    for (int i = 0; i < ntags; i++)
        put_tag(f, tags[i][0], tags[i][1]);
    fputc('\n', f);
    put_movetext(f, g, head, comments, result);
    fputc('\n', f);
    fflush(f);
    return ferror(f) ? -1 : 0;
}
