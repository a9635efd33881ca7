/* go.c - the `position` and `go` commands; see go.h. */
#include "go.h"

#include "ccpcells.h"
#include "front.h"
#include "fen.h"
#include "notation.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A move of the protocol spoken, read and written: Stern's hole names, or CCP's
 * cell ids. */
static int parse_move(const Front *fe, const Position *p, const char *text, Move *m, char *err, size_t errlen)
{
    return fe->ccp ? ccp_move_parse(p, text, m, err, errlen) : move_parse(p, text, m, err, errlen);
}

static char *move_text(const Front *fe, const Position *p, const Move *m, char *buf)
{
    return fe->ccp ? ccp_move_str(p, m, buf) : move_str(p, m, buf);
}

/* Whether token t is a game result of a record: 1-0, 0-1, 1/2-1/2, *, or
 * places joined by '-' ("1-3-2"). */
static bool is_result(const char *t)
{
    if (!strcmp(t, "*") || !strcmp(t, "1/2-1/2"))
        return true;
    const char *c = t;
    if (!isdigit((unsigned char)*c))
        return false;
    while (isdigit((unsigned char)*c) || (*c == '-' && isdigit((unsigned char)c[1])))
        c++;
    return !*c && strchr(t, '-');
}

/* The move in token t of a move list, which may be PGN movetext (PROTOCOL.md):
 * NULL for what is not a move (a round number "12." or "12...", `--` for a
 * skipped turn, a `{comment}` (*in_comment while it runs), a `;` comment to
 * the end of the line (*rest_comment), a $n glyph, a result), else the move
 * without a round number before it ("12.m3-m4") or !/? marks after it (t is
 * cut there). */
static char *movetext_move(char *t, bool *in_comment, bool *rest_comment)
{
    if (*rest_comment)
        return NULL;
    if (*in_comment) {
        *in_comment = !strchr(t, '}');
        return NULL;
    }
    if (t[0] == '{') {
        *in_comment = !strchr(t, '}');
        return NULL;
    }
    if (t[0] == ';') {
        *rest_comment = true;
        return NULL;
    }
    if (t[0] == '$' || !strcmp(t, "--") || is_result(t))
        return NULL;
    char *c = t;
    while (isdigit((unsigned char)*c))
        c++;
    if (c > t && *c == '.') { /* a round number, alone or before its move */
        while (*c == '.')
            c++;
        t = c;
    }
    size_t n = strlen(t);
    while (n > 0 && (t[n - 1] == '!' || t[n - 1] == '?'))
        t[--n] = '\0';
    return n ? t : NULL;
}

/* Applies the moves of tk[from..n) to g (plain moves, or PGN movetext; in CCP
 * moves only, whose cell-id paths look like results); on a bad move, says why
 * and returns false. */
static bool apply_moves(Front *fe, Game *g, const Tokens *tk, int from)
{
    char err[512];
    bool in_comment = false, rest_comment = false;
    int index = 0;
    for (int i = from; i < tk->n; i++) {
        char *text = fe->ccp ? tk->t[i] : movetext_move(tk->t[i], &in_comment, &rest_comment);
        if (!text)
            continue;
        index++;
        Move m;
        if (parse_move(fe, &g->pos, text, &m, err, sizeof err) || game_play(g, &m)) {
            if (pos_over(&g->pos))
                snprintf(err, sizeof err, "the game is already over");
            char q[QUOTE_BUF];
            say(fe, "info string error position: move %d '%s': %s", index, words_quote(text, q), err);
            return false;
        }
    }
    if (in_comment) {
        say(fe, "info string error position: a comment '{' is not closed");
        return false;
    }
    return true;
}

void go_position(Front *fe, const Tokens *tk)
{
    if (job_refuse_if_busy(fe, "position"))
        return;
    Game *g = malloc(sizeof *g);
    if (!g)
        return;
    *g = (Game){0};
    g->v = fe->engine->game->v;
    int i = 2;
    char err[512];
    if (tk->n >= 2 && !strcmp(tk->t[1], "startpos")) {
        pos_set_start(&g->start, g->v);
        g->pos = g->start;
        g->keys[0] = g->pos.key;
    } else if (tk->n >= 2 && !strcmp(tk->t[1], "fen")) {
        int end = 2;
        while (end < tk->n && strcmp(tk->t[end], "moves"))
            end++;
        char fen[4096];
        if (!words_join(tk, 2, end, fen, sizeof fen)) {
            say(fe, "info string error position: FEN longer than %zu characters", sizeof fen - 1);
            free(g);
            return;
        }
        if (game_set_fen(g, fen, err, sizeof err)) {
            say(fe, "info string error position: %s", err);
            free(g);
            return;
        }
        if (fen_end_unexplained(&g->pos)) {
            say(fe, "info string error position: fen: side to move '-' but the game is not over (no seat is placed "
                   "to end it, the round limit is not reached, a seat can move, and too few moves were made for a "
                   "repetition)");
            free(g);
            return;
        }
        i = end;
    } else if (tk->n >= 2 && !strcmp(tk->t[1], "cells")) {
        /* CCP: cells <121 chars> player <0|1> ply <n>, always its rules */
        long long player, ply;
        char fen[FEN_MAX];
        if (tk->n < 7 || strcmp(tk->t[3], "player") || strcmp(tk->t[5], "ply")) {
            say(fe, "info string error position: expected 'position cells <121 cells> player <0|1> ply <n> [moves ...]'");
            free(g);
            return;
        }
        if (!words_int(tk->t[4], 0, 1, &player) || !words_int(tk->t[6], 0, 239, &ply)) {
            char q4[QUOTE_BUF], q6[QUOTE_BUF];
            say(fe, "info string error position: player must be 0 or 1 and ply 0-239, got '%s' and '%s'",
                words_quote(tk->t[4], q4), words_quote(tk->t[6], q6));
            free(g);
            return;
        }
        g->v = variant_find(CCP_VARIANT);
        if (ccp_position_fen(tk->t[2], (long)player, (long)ply, fen, err, sizeof err) ||
            game_set_fen(g, fen, err, sizeof err)) {
            say(fe, "info string error position: %s", err);
            free(g);
            return;
        }
        i = 7;
    } else {
        say(fe, "info string error position: expected 'position startpos|fen <fen>|cells <cells> player <p> ply <n> [moves ...]'");
        free(g);
        return;
    }
    if (i < tk->n && strcmp(tk->t[i], "moves")) {
        char q[QUOTE_BUF];
        say(fe, "info string error position: unexpected '%s' (expected 'moves')", words_quote(tk->t[i], q));
        free(g);
        return;
    }
    if (i < tk->n && !apply_moves(fe, g, tk, i + 1)) {
        free(g);
        return;
    }
    engine_set_game(fe->engine, g);
}

/* Go field names: per-seat time and increment use the seat letters. */
static int seat_field(const char *tok, const char *suffix)
{
    const size_t n = strlen(tok);
    if (n != 1 + strlen(suffix) || strcmp(tok + 1, suffix))
        return -1;
    return variant_seat_of_letter(tok[0]);
}

static bool is_go_keyword(const char *t)
{
    static const char *const words[] = {"movestogo", "depth", "nodes", "movetime", "infinite", "searchmoves", "ponder"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strcmp(t, words[i]))
            return true;
    return seat_field(t, "time") >= 0 || seat_field(t, "inc") >= 0;
}

/* Reports a go field that cannot be used ("info string error go: <why>") and
 * counts it in *ignored. */
static void go_ignored(Front *fe, int *ignored, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void go_ignored(Front *fe, int *ignored, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    say(fe, "info string error go: %s", why);
    (*ignored)++;
}

#define GO_FALLBACK_MS 1000 /* the search time of a go left without a limit by its bad fields */

/* Plays go from the book when it may: OwnBook, a move to play on the clock or
 * in a fixed time (depth and node limits, searchmoves, infinite, ponder and
 * MultiPV > 1 are analysis: they always search), and a book move for the
 * position. Then *l becomes a one-ply search of the book move alone, so that
 * the answer comes with an `info` line and its score, as every answer does (a
 * GUI showed no score for book moves), and true is returned. */
static bool book_answer(Front *fe, SearchLimits *l)
{
    const Position *p = &fe->engine->game->pos;
    if (!fe->engine->book.own || pos_over(p) || l->depth || l->nodes || l->nsearchmoves || l->infinite || l->ponder ||
        fe->engine->config.multipv > 1 || !(l->movetime > 0 || l->time[p->stm] >= 0))
        return false;
    char err[OWNBOOK_PATH_MAX + 256];
    const int prepared = ownbook_prepare(&fe->engine->book, fe->engine->game->v->name, err, sizeof err);
    if (prepared)
        say(fe, "info string %sbook: %s", prepared < 0 ? "error " : "", err);
    int plies = 0;
    for (int i = 0; i < fe->engine->game->v->nseats; i++)
        plies += p->moves[fe->engine->game->v->seats[i]];
    BookMove m;
    if (!ownbook_choose(&fe->engine->book, p, plies, &m))
        return false;
    fe->job.searchmoves.n = 0;
    if (!move_list_push(&fe->job.searchmoves, m.move)) {
        say(fe, "info string error book: out of memory: searching instead");
        return false;
    }
    char mv[MOVE_STR_MAX];
    move_text(fe, p, &m.move, mv);
    say(fe, "info string book %s weight %u learn %d", mv, m.weight, m.learn);
    search_limits_init(l);
    l->depth = 1;
    l->searchmoves = fe->job.searchmoves.m;
    l->nsearchmoves = 1;
    return true;
}

/* Never refused whole: each field that cannot be used is reported on its own
 * line and left out. */
void go_command(Front *fe, const Tokens *tk)
{
    if (job_refuse_if_busy(fe, "go"))
        return;
    SearchLimits limits, *l = &limits;
    search_limits_init(l);
    fe->job.searchmoves.n = 0;
    char err[512];
    const char *const name = fe->engine->game->v->name;
    int ignored = 0, clock_fields = 0;
    for (int i = 1; i < tk->n; i++) {
        const char *t = tk->t[i];
        if (!strcmp(t, "infinite")) {
            l->infinite = true;
            continue;
        }
        if (!strcmp(t, "ponder")) {
            l->ponder = true;
            continue;
        }
        if (!strcmp(t, "searchmoves")) {
            while (i + 1 < tk->n && !is_go_keyword(tk->t[i + 1])) {
                const char *text = tk->t[++i];
                Move m;
                char q[QUOTE_BUF];
                if (parse_move(fe, &fe->engine->game->pos, text, &m, err, sizeof err))
                    go_ignored(fe, &ignored, "searchmoves: '%s' ignored: %s", words_quote(text, q), err);
                else if (!move_list_push(&fe->job.searchmoves, m))
                    go_ignored(fe, &ignored, "searchmoves: '%s' ignored: out of memory", text);
            }
            continue;
        }
        if (!is_go_keyword(t)) {
            /* with its number, if one follows (`ztime 100` is one field) */
            const char *num = i + 1 < tk->n ? tk->t[i + 1] : NULL;
            char q[QUOTE_BUF], qn[QUOTE_BUF];
            if (num && words_is_integer(num)) {
                go_ignored(fe, &ignored, "unknown field '%s %s' ignored", words_quote(t, q), words_quote(num, qn));
                i++;
            } else {
                go_ignored(fe, &ignored, "unknown field '%s' ignored", words_quote(t, q));
            }
            continue;
        }
        const char *arg = i + 1 < tk->n && !is_go_keyword(tk->t[i + 1]) ? tk->t[++i] : NULL;
        if (!arg) {
            go_ignored(fe, &ignored, "'%s' ignored: it needs a value", t);
            continue;
        }
        long long v;
        int s;
        if (((s = seat_field(t, "time")) >= 0 || (s = seat_field(t, "inc")) >= 0) && fe->engine->game->v->slot[s] < 0)
            go_ignored(fe, &ignored, "'%s %s' ignored: seat '%c' does not play %s", t, arg, t[0], name);
        else if ((s = seat_field(t, "time")) >= 0 && words_ms(arg, INT64_MIN / 4, &v))
            l->time[s] = v, clock_fields++;
        else if ((s = seat_field(t, "inc")) >= 0 && words_ms(arg, 0, &v))
            l->inc[s] = v, clock_fields++;
        else if (!strcmp(t, "movestogo") && words_int(arg, 1, 100000, &v))
            l->movestogo = (int)v, clock_fields++;
        else if (!strcmp(t, "depth") && words_int(arg, 1, MAX_PLY - 1, &v))
            l->depth = (int)v;
        else if (!strcmp(t, "nodes") && words_int(arg, 1, INT64_MAX, &v))
            l->nodes = (uint64_t)v;
        else if (!strcmp(t, "movetime") && words_ms(arg, 1, &v))
            l->movetime = v;
        else {
            char q[QUOTE_BUF];
            go_ignored(fe, &ignored, "'%s %s' ignored: not a valid value", t, words_quote(arg, q));
        }
    }
    /* a go whose limits were all unusable was meant to end: it gets a time
     * rather than running until stop - so does one whose clock fields are all
     * other seats' (or increments alone), which leave the mover no limit */
    const int stm = fe->engine->game->pos.stm;
    if ((ignored || (clock_fields && stm >= 0)) && !l->infinite && !l->depth && !l->nodes && !l->movetime &&
        (stm < 0 || l->time[stm] < 0)) { /* ponder too: it searches on after ponderhit */
        l->movetime = GO_FALLBACK_MS;
        say(fe, "info string go: no usable limit left%s, searching for %d ms",
            !ignored && stm >= 0 ? " (no clock for the side to move)" : "", GO_FALLBACK_MS);
    }
    l->searchmoves = fe->job.searchmoves.m;
    l->nsearchmoves = fe->job.searchmoves.n;
    if (!ignored) /* a go that lost fields says it searches */
        book_answer(fe, l);
    engine_ready(fe->engine);
    job_start_search(fe, l, &fe->engine->config);
}
