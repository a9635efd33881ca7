/* uci.c - the command loop of PROTOCOL.md; see uci.h. Every command is parsed
 * completely before it changes anything, so a refused command leaves the state as
 * it was. */
#include "uci.h"

#include "bench.h"
#include "ccpcells.h"
#include "display.h"
#include "engine.h"
#include "eval.h"
#include "fen.h"
#include "notation.h"
#include "solve.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_OVERHEAD_MS 5000
#define MAX_NODESTIME 1000000 /* nodes per ms: a million is more than any machine searches */

/* The id and option lines that `uci` and `ccp` answer with. */
static void say_id_and_options(Engine *e)
{
    say(e, "id name %s %s", STERN_NAME, STERN_VERSION);
    say(e, "id author %s", STERN_AUTHORS);
    char line[1024];
    int n = snprintf(line, sizeof line, "option name Variant type combo default classic-2");
    for (int i = 0; i < NUM_VARIANT_NAMES; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " var %s", variant_names[i]);
    say(e, "%s", line);
    say(e, "option name Hash type spin default %d min 1 max %d", DEFAULT_HASH_MIB, MAX_HASH_MIB);
    say(e, "option name Threads type spin default 1 min 1 max %d", MAX_THREADS);
    say(e, "option name MultiPV type spin default 1 min 1 max 256");
    char combo[256] = "option name Search type combo default auto";
    for (int i = 0; i < NUM_ALGOS; i++)
        snprintf(combo + strlen(combo), sizeof combo - strlen(combo), " var %s", search_algo_names[i]);
    say(e, "%s", combo);
    say(e, "option name OwnBook type check default true");
    say(e, "option name BookFile type string default <empty>");
    say(e, "option name BookDepth type spin default %d min 0 max %d", OWNBOOK_DEFAULT_DEPTH, GAME_MAX_PLIES);
    say(e, "option name BookVariety type check default false");
    say(e, "option name Move Overhead type spin default %d min 0 max %d", DEFAULT_OVERHEAD_MS, MAX_OVERHEAD_MS);
    say(e, "option name nodestime type spin default 0 min 0 max %d", MAX_NODESTIME);
    say(e, "option name Ponder type check default false");
    say(e, "option name OpponentModel type check default true");
    say(e, "option name Clear Hash type button");
}

/* A new game for the search: the table (made now when not yet), the history
 * and the kept MCTS tree cleared. */
static void new_game(Engine *e)
{
    table_ready(e);
    session_new_game(e->session);
}

static void cmd_uci(Engine *e)
{
    if (e->ccp && job_refuse_if_busy(e, "uci")) /* the search thread reads e->ccp */
        return;
    e->ccp = false;
    say_id_and_options(e);
    say(e, "uciok");
}

/* `ccp`: speak CCP from now on, in its rules (a new game of ccerl-2). */
static void cmd_ccp(Engine *e)
{
    if (job_refuse_if_busy(e, "ccp"))
        return;
    e->ccp = true;
    new_game(e); /* a new game, as after ucinewgame */
    game_new(e->game, CCP_VARIANT);
    say_id_and_options(e);
    say(e, "ccpok");
}

/* A move of the protocol spoken, read and written: Stern's hole names, or CCP's
 * cell ids. */
static int parse_move(const Engine *e, const Position *p, const char *text, Move *m, char *err, size_t errlen)
{
    return e->ccp ? ccp_move_parse(p, text, m, err, errlen) : move_parse(p, text, m, err, errlen);
}

static char *move_text(const Engine *e, const Position *p, const Move *m, char *buf)
{
    return e->ccp ? ccp_move_str(p, m, buf) : move_str(p, m, buf);
}

static void cmd_setoption(Engine *e, const Tokens *tk)
{
    if (job_refuse_if_busy(e, "setoption"))
        return;
    int vi = -1;
    for (int i = 2; i < tk->n; i++)
        if (!strcasecmp(tk->t[i], "value")) {
            vi = i;
            break;
        }
    if (tk->n < 3 || strcasecmp(tk->t[1], "name")) {
        say(e, "info string error setoption: expected 'setoption name <id> [value <x>]'");
        return;
    }
    char name[256], value[256];
    if (!tokens_join(tk, 2, vi < 0 ? tk->n : vi, name, sizeof name) ||
        !tokens_join(tk, vi < 0 ? tk->n : vi + 1, tk->n, value, sizeof value)) {
        say(e, "info string error setoption: name or value longer than %zu characters", sizeof name - 1);
        return;
    }
    long long v;
    if (!strcasecmp(name, "Variant")) {
        Game *g = malloc(sizeof *g);
        if (!g || game_new(g, value)) {
            free(g);
            say(e, "info string error setoption: unknown variant '%s'", value);
            return;
        }
        free(e->game);
        e->game = g;
    } else if (!strcasecmp(name, "Hash")) {
        if (!parse_int(value, 1, MAX_HASH_MIB, &v) || session_set_hash(e->session, (size_t)v)) {
            say(e, "info string error setoption: Hash must be 1-%d (MiB) and fit in memory", MAX_HASH_MIB);
            return;
        }
    } else if (!strcasecmp(name, "Threads")) {
        if (!parse_int(value, 1, MAX_THREADS, &v)) {
            say(e, "info string error setoption: Threads must be 1-%d", MAX_THREADS);
            return;
        }
        /* the threads start here, not at each go */
        if (!session_set_threads(e->session, (int)v)) {
            say(e, "info string error setoption: Threads: out of memory");
            return;
        }
    } else if (!strcasecmp(name, "MultiPV")) {
        if (!parse_int(value, 1, 256, &v)) {
            say(e, "info string error setoption: MultiPV must be 1-256");
            return;
        }
        e->config.multipv = (int)v;
    } else if (!strcasecmp(name, "Search")) {
        int algo = -1;
        for (int i = 0; i < NUM_ALGOS; i++)
            if (!strcasecmp(value, search_algo_names[i]))
                algo = i;
        if (algo < 0) {
            say(e, "info string error setoption: Search must be auto, paranoid, maxn, brs, brs+ or mcts");
            return;
        }
        e->config.algo = (SearchAlgo)algo;
    } else if (!strcasecmp(name, "Move Overhead")) {
        if (!parse_int(value, 0, MAX_OVERHEAD_MS, &v)) {
            say(e, "info string error setoption: Move Overhead must be 0-%d (ms)", MAX_OVERHEAD_MS);
            return;
        }
        e->config.overhead = v;
    } else if (!strcasecmp(name, "nodestime")) {
        if (!parse_int(value, 0, MAX_NODESTIME, &v)) {
            say(e, "info string error setoption: nodestime must be 0-%d (nodes per ms; 0: time is time)", MAX_NODESTIME);
            return;
        }
        e->config.nodestime = v;
    } else if (!strcasecmp(name, "Ponder")) {
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            say(e, "info string error setoption: Ponder must be true or false");
            return;
        }
        e->ponder_option = !strcasecmp(value, "true");
    } else if (!strcasecmp(name, "OpponentModel")) {
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            say(e, "info string error setoption: OpponentModel must be true or false");
            return;
        }
        e->config.opponent_model = !strcasecmp(value, "true");
    } else if (!strcasecmp(name, "OwnBook") || !strcasecmp(name, "BookVariety")) {
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            say(e, "info string error setoption: %s must be true or false", name);
            return;
        }
        *(!strcasecmp(name, "OwnBook") ? &e->book.own : &e->book.variety) = !strcasecmp(value, "true");
    } else if (!strcasecmp(name, "BookDepth")) {
        if (!parse_int(value, 0, GAME_MAX_PLIES, &v)) {
            say(e, "info string error setoption: BookDepth must be 0-%d (plies)", GAME_MAX_PLIES);
            return;
        }
        e->book.depth = (int)v;
    } else if (!strcasecmp(name, "BookFile")) {
        /* read now, so that a file that is no book is refused at once and the
         * book in use stays; a good book of another variant is kept for it */
        const char *file = strcasecmp(value, "<empty>") ? value : "";
        char err[OWNBOOK_PATH_MAX + 256];
        Book probe;
        book_init(&probe, "");
        if (strlen(file) >= sizeof e->book.file) {
            say(e, "info string error setoption: BookFile: a path of more than %d bytes", OWNBOOK_PATH_MAX - 1);
            return;
        }
        if (*file && book_load(&probe, file, NULL, err, sizeof err)) {
            say(e, "info string error setoption: BookFile: %s", err);
            return;
        }
        if (*file && strcmp(probe.variant, e->game->v->name))
            say(e, "info string book: %s is a book of %s: used when the variant is %s", file, probe.variant,
                probe.variant);
        book_free(&probe);
        snprintf(e->book.file, sizeof e->book.file, "%s", file);
        if (ownbook_prepare(&e->book, e->game->v->name, err, sizeof err))
            say(e, "info string error book: %s", err);
    } else if (!strcasecmp(name, "Clear Hash")) {
        session_clear_hash(e->session);
    } else {
        say(e, "info string error setoption: unknown option '%s'", name);
    }
}

static void cmd_ucinewgame(Engine *e)
{
    if (job_refuse_if_busy(e, "ucinewgame"))
        return;
    new_game(e);
    game_new(e->game, e->game->v->name);
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
static bool apply_moves(Engine *e, Game *g, const Tokens *tk, int from)
{
    char err[512];
    bool in_comment = false, rest_comment = false;
    int index = 0;
    for (int i = from; i < tk->n; i++) {
        char *text = e->ccp ? tk->t[i] : movetext_move(tk->t[i], &in_comment, &rest_comment);
        if (!text)
            continue;
        index++;
        Move m;
        if (parse_move(e, &g->pos, text, &m, err, sizeof err) || game_play(g, &m)) {
            if (pos_over(&g->pos))
                snprintf(err, sizeof err, "the game is already over");
            say(e, "info string error position: move %d '%s': %s", index, text, err);
            return false;
        }
    }
    if (in_comment) {
        say(e, "info string error position: a comment '{' is not closed");
        return false;
    }
    return true;
}

static void cmd_position(Engine *e, const Tokens *tk)
{
    if (job_refuse_if_busy(e, "position"))
        return;
    Game *g = malloc(sizeof *g);
    if (!g)
        return;
    *g = (Game){0};
    g->v = e->game->v;
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
        if (!tokens_join(tk, 2, end, fen, sizeof fen)) {
            say(e, "info string error position: FEN longer than %zu characters", sizeof fen - 1);
            free(g);
            return;
        }
        if (game_set_fen(g, fen, err, sizeof err)) {
            say(e, "info string error position: %s", err);
            free(g);
            return;
        }
        i = end;
    } else if (tk->n >= 2 && !strcmp(tk->t[1], "cells")) {
        /* CCP: cells <121 chars> player <0|1> ply <n>, always its rules */
        long long player, ply;
        char fen[FEN_MAX];
        if (tk->n < 7 || strcmp(tk->t[3], "player") || strcmp(tk->t[5], "ply")) {
            say(e, "info string error position: expected 'position cells <121 cells> player <0|1> ply <n> [moves ...]'");
            free(g);
            return;
        }
        if (!parse_int(tk->t[4], 0, 1, &player) || !parse_int(tk->t[6], 0, 239, &ply)) {
            say(e, "info string error position: player must be 0 or 1 and ply 0-239, got '%s' and '%s'", tk->t[4],
                tk->t[6]);
            free(g);
            return;
        }
        g->v = variant_find(CCP_VARIANT);
        if (ccp_position_fen(tk->t[2], (long)player, (long)ply, fen, err, sizeof err) ||
            game_set_fen(g, fen, err, sizeof err)) {
            say(e, "info string error position: %s", err);
            free(g);
            return;
        }
        i = 7;
    } else {
        say(e, "info string error position: expected 'position startpos|fen <fen>|cells <cells> player <p> ply <n> [moves ...]'");
        free(g);
        return;
    }
    if (i < tk->n && strcmp(tk->t[i], "moves")) {
        say(e, "info string error position: unexpected '%s' (expected 'moves')", tk->t[i]);
        free(g);
        return;
    }
    if (i < tk->n && !apply_moves(e, g, tk, i + 1)) {
        free(g);
        return;
    }
    free(e->game);
    e->game = g;
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
static void go_ignored(Engine *e, int *ignored, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void go_ignored(Engine *e, int *ignored, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    say(e, "info string error go: %s", why);
    (*ignored)++;
}

#define GO_FALLBACK_MS 1000 /* the search time of a go left without a limit by its bad fields */

/* Plays go from the book when it may: OwnBook, a move to play on the clock or
 * in a fixed time (depth and node limits, searchmoves, infinite, ponder and
 * MultiPV > 1 are analysis: they always search), and a book move for the
 * position. Then *l becomes a one-ply search of the book move alone, so that
 * the answer comes with an `info` line and its score, as every answer does (a
 * GUI showed no score for book moves), and true is returned. */
static bool book_answer(Engine *e, SearchLimits *l)
{
    const Position *p = &e->game->pos;
    if (!e->book.own || pos_over(p) || l->depth || l->nodes || l->nsearchmoves || l->infinite || l->ponder ||
        e->config.multipv > 1 || !(l->movetime > 0 || l->time[p->stm] >= 0))
        return false;
    char err[OWNBOOK_PATH_MAX + 256];
    if (ownbook_prepare(&e->book, e->game->v->name, err, sizeof err))
        say(e, "info string error book: %s", err);
    int plies = 0;
    for (int i = 0; i < e->game->v->nseats; i++)
        plies += p->moves[e->game->v->seats[i]];
    BookMove m;
    if (!ownbook_choose(&e->book, p, plies, &m))
        return false;
    e->job.searchmoves.n = 0;
    if (!move_list_push(&e->job.searchmoves, m.move)) {
        say(e, "info string error book: out of memory: searching instead");
        return false;
    }
    char mv[MOVE_STR_MAX];
    move_text(e, p, &m.move, mv);
    say(e, "info string book %s weight %u learn %d", mv, m.weight, m.learn);
    search_limits_init(l);
    l->depth = 1;
    l->searchmoves = e->job.searchmoves.m;
    l->nsearchmoves = 1;
    return true;
}

/* `go`: never refused whole (PROTOCOL.md). Each field that cannot be used is
 * reported on its own line and left out; a keyword's value is the next token
 * unless that is a keyword itself. The search runs on the rest and answers. */
static void cmd_go(Engine *e, const Tokens *tk)
{
    if (job_refuse_if_busy(e, "go"))
        return;
    SearchLimits limits, *l = &limits;
    search_limits_init(l);
    e->job.searchmoves.n = 0;
    char err[512];
    const char *const name = e->game->v->name;
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
                if (parse_move(e, &e->game->pos, text, &m, err, sizeof err))
                    go_ignored(e, &ignored, "searchmoves: '%s' ignored: %s", text, err);
                else if (!move_list_push(&e->job.searchmoves, m))
                    go_ignored(e, &ignored, "searchmoves: '%s' ignored: out of memory", text);
            }
            continue;
        }
        if (!is_go_keyword(t)) {
            /* with its number, if one follows (`ztime 100` is one field) */
            const char *num = i + 1 < tk->n ? tk->t[i + 1] : NULL;
            if (num && is_integer_text(num)) {
                go_ignored(e, &ignored, "unknown field '%s %s' ignored", t, num);
                i++;
            } else {
                go_ignored(e, &ignored, "unknown field '%s' ignored", t);
            }
            continue;
        }
        const char *arg = i + 1 < tk->n && !is_go_keyword(tk->t[i + 1]) ? tk->t[++i] : NULL;
        if (!arg) {
            go_ignored(e, &ignored, "'%s' ignored: it needs a value", t);
            continue;
        }
        long long v;
        int s;
        if (((s = seat_field(t, "time")) >= 0 || (s = seat_field(t, "inc")) >= 0) && e->game->v->slot[s] < 0)
            go_ignored(e, &ignored, "'%s %s' ignored: seat '%c' does not play %s", t, arg, t[0], name);
        else if ((s = seat_field(t, "time")) >= 0 && parse_ms(arg, INT64_MIN / 4, &v))
            l->time[s] = v, clock_fields++;
        else if ((s = seat_field(t, "inc")) >= 0 && parse_ms(arg, 0, &v))
            l->inc[s] = v, clock_fields++;
        else if (!strcmp(t, "movestogo") && parse_int(arg, 1, 100000, &v))
            l->movestogo = (int)v, clock_fields++;
        else if (!strcmp(t, "depth") && parse_int(arg, 1, MAX_PLY - 1, &v))
            l->depth = (int)v;
        else if (!strcmp(t, "nodes") && parse_int(arg, 1, INT64_MAX, &v))
            l->nodes = (uint64_t)v;
        else if (!strcmp(t, "movetime") && parse_ms(arg, 1, &v))
            l->movetime = v;
        else
            go_ignored(e, &ignored, "'%s %s' ignored: not a valid value", t, arg);
    }
    /* a go whose limits were all unusable was meant to end: it gets a time
     * rather than running until stop - so does one whose clock fields are all
     * other seats' (or increments alone), which leave the mover no limit */
    const int stm = e->game->pos.stm;
    if ((ignored || (clock_fields && stm >= 0)) && !l->infinite && !l->depth && !l->nodes && !l->movetime &&
        (stm < 0 || l->time[stm] < 0)) { /* ponder too: it searches on after ponderhit */
        l->movetime = GO_FALLBACK_MS;
        say(e, "info string go: no usable limit left%s, searching for %d ms",
            !ignored && stm >= 0 ? " (no clock for the side to move)" : "", GO_FALLBACK_MS);
    }
    l->searchmoves = e->job.searchmoves.m;
    l->nsearchmoves = e->job.searchmoves.n;
    if (!ignored) /* a go that lost fields says it searches */
        book_answer(e, l);
    table_ready(e);
    job_start_search(e, l);
}

static void cmd_d(Engine *e)
{
    const Position *p = &e->game->pos;
    char buf[DISPLAY_MAX], fen[FEN_MAX];
    const int bottom = p->stm >= 0 ? p->stm : e->game->v->seats[0];
    display_board(p, bottom, buf);
    pthread_mutex_lock(&e->out_lock);
    fputs(buf, e->out);
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
    say(e, "Fen: %s", fen_write(p, fen));
    say(e, "Variant: %s", e->game->v->name);
    say(e, "Side to move: %c", p->stm >= 0 ? variant_seat_letter(p->stm) : '-');
    say(e, "Key: %016" PRIx64, p->key);
    /* each seat's way to go (RULES.md section 6: the ranking's measures), or
     * in capture mode its captures */
    const Variant *v = e->game->v;
    char dist[128] = "", in[128] = "";
    size_t nd = 0, ni = 0;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        const char c = variant_seat_letter(s);
        if (v->capture) {
            nd += (size_t)snprintf(dist + nd, sizeof dist - nd, " %c %d", c, p->captures[s]);
            continue;
        }
        nd += (size_t)snprintf(dist + nd, sizeof dist - nd, " %c %d", c, pos_target_distance(p, s));
        ni += (size_t)snprintf(in + ni, sizeof in - ni, " %c %d", c, bb_count(p->seat_bb[s] & v->target[s]));
    }
    if (v->capture) {
        say(e, "Captures:%s", dist);
    } else {
        say(e, "Distance to target:%s", dist);
        say(e, "In target:%s", in);
    }
    if (pos_over(p))
        say(e, "Status: over (%s)", pos_reason_name((EndReason)p->reason));
    else
        say(e, "Status: ongoing, round %d, position seen %d time(s)", p->round, game_occurrences(e->game));
}

static void cmd_legalmoves(Engine *e)
{
    if (job_refuse_if_busy(e, "legalmoves"))
        return;
    job_start_legalmoves(e);
}

static void cmd_perft(Engine *e, const Tokens *tk)
{
    long long depth;
    if (tk->n != 2 || !parse_int(tk->t[1], 1, 20, &depth)) {
        say(e, "info string error perft: expected 'perft <depth 1-20>'");
        return;
    }
    if (job_refuse_if_busy(e, "perft"))
        return;
    job_start_perft(e, (int)depth);
}

static void cmd_eval(Engine *e)
{
    const Position *p = &e->game->pos;
    const Variant *v = e->game->v;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        const EvalTerms t = eval_seat(p, s, NULL);
        if (pos_over(p))
            say(e, "eval %c distance %d straggler %d deadline %d traffic %d material %d total %d",
                variant_seat_letter(s), t.distance, t.straggler, t.deadline, t.traffic, t.material, t.total);
        else
            say(e, "eval %c distance %d straggler %d deadline %d traffic %d material %d total %d score %d",
                variant_seat_letter(s), t.distance, t.straggler, t.deadline, t.traffic, t.material, t.total,
                eval_for(p, s, NULL));
    }
    if (pos_over(p))
        say(e, "eval score none (the game is over)");
    else
        say(e, "eval score %d (side to move %c)", eval_for(p, p->stm, NULL), variant_seat_letter(p->stm));
}

static void cmd_result(Engine *e)
{
    const Position *p = &e->game->pos;
    if (!pos_over(p)) {
        say(e, "result ongoing");
        return;
    }
    char line[256];
    int n = snprintf(line, sizeof line, "result");
    for (int i = 0; i < e->game->v->nseats; i++) {
        const int s = e->game->v->seats[i];
        n += snprintf(line + n, sizeof line - (size_t)n, " %c:%d", variant_seat_letter(s), p->place[s]);
    }
    snprintf(line + n, sizeof line - (size_t)n, " reason %s", pos_reason_name((EndReason)p->reason));
    say(e, "%s", line);
}

/* bench runs on the search thread like perft: stop and quit end it. */
static void cmd_bench(Engine *e, const Tokens *tk)
{
    long long depth = BENCH_DEFAULT_DEPTH;
    if (tk->n > 2 || (tk->n == 2 && !parse_int(tk->t[1], 1, MAX_PLY - 1, &depth))) {
        say(e, "info string error bench: expected 'bench [depth]'");
        return;
    }
    if (job_refuse_if_busy(e, "bench"))
        return;
    job_start_bench(e, (int)depth);
}

/* `solve [nodes <n>]`: each seat's fewest own moves to arrive (solve.h), on
 * the search thread like perft: stop and quit end it. */
static void cmd_solve(Engine *e, const Tokens *tk)
{
    long long nodes = SOLVE_DEFAULT_NODES;
    if (tk->n != 1 && (tk->n != 3 || strcmp(tk->t[1], "nodes") || !parse_int(tk->t[2], 1, INT64_MAX, &nodes))) {
        say(e, "info string error solve: expected 'solve [nodes <n>]'");
        return;
    }
    if (job_refuse_if_busy(e, "solve"))
        return;
    if (e->game->v->capture || pos_over(&e->game->pos)) {
        say(e, "info string error solve: %s", e->game->v->capture ? "capture mode has no race to solve"
                                                                   : "the game is over");
        return;
    }
    job_start_solve(e, (uint64_t)nodes);
}

/* Commands that take no arguments. */
static bool takes_no_arguments(const char *c)
{
    static const char *const words[] = {"uci", "ccp", "protocol", "isready", "ucinewgame", "stop", "ponderhit",
                                        "quit", "d", "legalmoves", "eval", "result"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strcmp(c, words[i]))
            return true;
    return false;
}

/* Carries out one line; returns false when the loop must end (quit). */
static bool handle(Engine *e, Line *l)
{
    if (l->huge) {
        say(e, "info string error line refused: longer than %u bytes, or out of memory", INPUT_LINE_MAX);
        return true;
    }
    if (l->nul) {
        say(e, "info string error line refused: it holds a NUL byte");
        return true;
    }
    if (l->bad) {
        say(e, "info string error line refused: byte 0x%02x at column %d (the protocol is printable ASCII)",
            (unsigned char)l->text[l->bad - 1], l->bad);
        return true;
    }
    if (!tokenize(l->text, &e->tk)) {
        say(e, "info string error line refused: more than %d tokens", MAX_TOKENS);
        return true;
    }
    if (!e->tk.n)
        return true;
    const char *c = e->tk.t[0];
    if (e->tk.n > 1 && takes_no_arguments(c)) {
        say(e, "info string error %s takes no arguments (got '%s')", c, e->tk.t[1]);
        if (!strcmp(c, "isready")) /* a GUI waits for it: the words after are dropped */
            say(e, "readyok");
        return true;
    }
    if (!strcmp(c, "quit")) {
        job_stop(e);
        return false;
    }
    /* perft, legalmoves and bench answer before any later command but stop and quit */
    if (strcmp(c, "stop"))
        job_finish_tool(e);
    if (!strcmp(c, "isready")) {
        table_ready(e);
        say(e, "readyok");
    }
    else if (!strcmp(c, "stop"))
        job_stop(e);
    else if (!strcmp(c, "ponderhit"))
        job_ponderhit(e);
    else if (!strcmp(c, "uci"))
        cmd_uci(e);
    else if (!strcmp(c, "ccp"))
        cmd_ccp(e);
    else if (!strcmp(c, "protocol"))
        say(e, "protocol %s", e->ccp ? "ccp 1" : "uci");
    else if (!strcmp(c, "setoption"))
        cmd_setoption(e, &e->tk);
    else if (!strcmp(c, "ucinewgame"))
        cmd_ucinewgame(e);
    else if (!strcmp(c, "position"))
        cmd_position(e, &e->tk);
    else if (!strcmp(c, "go"))
        cmd_go(e, &e->tk);
    else if (!strcmp(c, "d"))
        cmd_d(e);
    else if (!strcmp(c, "perft"))
        cmd_perft(e, &e->tk);
    else if (!strcmp(c, "legalmoves"))
        cmd_legalmoves(e);
    else if (!strcmp(c, "eval"))
        cmd_eval(e);
    else if (!strcmp(c, "result"))
        cmd_result(e);
    else if (!strcmp(c, "bench"))
        cmd_bench(e, &e->tk);
    else if (!strcmp(c, "solve"))
        cmd_solve(e, &e->tk);
    else
        say(e, "info string error unknown command '%s'", c);
    return true;
}

/* Sets option `opt` ("NAME=VALUE") as `setoption name NAME value VALUE` would,
 * its answer caught: false, with what the engine said on err, when refused. */
static bool preset_option(Engine *e, const char *opt, FILE *err)
{
    const char *eq = strchr(opt, '=');
    char *said = NULL;
    size_t said_len = 0;
    FILE *out = eq && eq > opt ? open_memstream(&said, &said_len) : NULL;
    if (!out) {
        fprintf(err, "stern: --option %s refused: %s\n", opt,
                eq && eq > opt ? "out of memory" : "it must be NAME=VALUE, e.g. nodestime=100");
        return false;
    }
    const size_t cap = strlen(opt) + sizeof "setoption name  value ";
    char *text = malloc(cap);
    const int n = text ? snprintf(text, cap, "setoption name %.*s value %s", (int)(eq - opt), opt, eq + 1) : -1;
    Line *l = n > 0 ? line_new(text, (size_t)n) : NULL;
    free(text);
    FILE *const kept = e->out;
    e->out = out;
    if (l)
        handle(e, l);
    e->out = kept;
    free(l);
    fclose(out);
    const char *error = l ? strstr(said, "info string error ") : "out of memory";
    if (error) {
        const char *why = l ? error + strlen("info string error ") : error;
        fprintf(err, "stern: --option %s refused: %.*s\n", opt, (int)strcspn(why, "\n"), why);
    }
    free(said);
    return !error;
}

int uci_loop(int in_fd, FILE *out, bool ccp, const char *const *options, int noptions, FILE *err)
{
    Engine *e = engine_new(in_fd, out, ccp);
    if (!e)
        return 1;
    int status = 0;
    for (int i = 0; i < noptions && !status; i++)
        if (!preset_option(e, options[i], err))
            status = 2;
    for (Line *l; !status && (l = input_next(&e->in));) {
        const bool go_on = handle(e, l);
        free(l);
        if (!go_on)
            break;
    }
    job_end_of_input(e);
    engine_delete(e);
    return status;
}
