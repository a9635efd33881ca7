/* board_table.c - the table of stern-board; see board_table.h. */
#define _GNU_SOURCE /* open_memstream, fmemopen */
#include "board_table.h"

#include "board.h"
#include "fen.h"
#include "info_line.h"
#include "notation.h"
#include "pgn_read.h"
#include "record.h"
#include "referee.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINES_EVERY_MS 200  /* analysis messages at most this often */
#define STOP_WAIT_MS 2000   /* longest wait for the bestmove after a stop */

/* ---- small helpers ---- */

static char *text_of(json_t *o)
{
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return s;
}

static void send_json(TableSend fn, void *ctx, json_t *o)
{
    char *s = text_of(o);
    if (s)
        fn(s, ctx);
    free(s);
}

/* Sends `{"type":"error","message":…}` through fn. */
static void say_error(TableSend fn, void *ctx, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say_error(TableSend fn, void *ctx, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *o = json_pack("{s:s, s:s}", "type", "error", "message", msg);
    if (!o) /* not UTF-8 (a name cut short, an engine's bytes) */
        o = json_pack("{s:s, s:s}", "type", "error", "message", "a message was refused (its text is not UTF-8)");
    send_json(fn, ctx, o);
}

static const char *engine_name(const BoardTable *t, int k)
{
    const TableEngineConf *c = &t->conf[k];
    return c->name ? c->name : c->cmd;
}

static json_t *hole_list(Bitboard b)
{
    json_t *a = json_array();
    char name[8];
    for (int h = 0; h < NUM_HOLES; h++)
        if (bb_test(b, h))
            json_array_append_new(a, json_string(board_hole_name(h, name)));
    return a;
}

/* The holes of legal move m's canonical path in p, by name. */
static json_t *path_list(const Position *p, const Move *m)
{
    uint8_t path[MAX_PATH];
    char name[8];
    const int n = move_path(p, m, path);
    json_t *a = json_array();
    for (int k = 0; k < n; k++)
        json_array_append_new(a, json_string(board_hole_name(path[k], name)));
    return a;
}

static json_t *seat_string(int s)
{
    const char c[2] = {variant_seat_letter(s), 0};
    return json_string(c);
}

/* The game after its first k moves into *out. */
static void game_prefix(const Game *g, int k, Game *out)
{
    *out = *g;
    if (k == g->nplies)
        return;
    out->pos = g->start;
    out->nplies = 0;
    for (int i = 0; i < k; i++)
        game_play(out, &g->moves[i]);
}

/* The game up to the ply shown, on the heap (the caller frees it); NULL
 * without memory. */
static Game *shown_game(const BoardTable *t)
{
    Game *g = malloc(sizeof *g);
    if (g)
        game_prefix(t->game, t->shown, g);
    return g;
}

/* The position command of g's first k moves (texts[i] the i-th move's text). */
static int send_position(EngineProc *e, const Game *g, char *const *texts, int k)
{
    Position std;
    pos_set_start(&std, g->v);
    char fen[FEN_MAX], std_fen[FEN_MAX];
    size_t cap = 64 + FEN_MAX, len = 0;
    for (int i = 0; i < k; i++)
        cap += strlen(texts[i]) + 1;
    char *cmd = malloc(cap);
    if (!cmd)
        return -1;
    if (strcmp(fen_write(&g->start, fen), fen_write(&std, std_fen)))
        len = (size_t)snprintf(cmd, cap, "position fen %s", fen);
    else
        len = (size_t)snprintf(cmd, cap, "position startpos");
    if (k)
        len += (size_t)snprintf(cmd + len, cap - len, " moves");
    for (int i = 0; i < k; i++)
        len += (size_t)snprintf(cmd + len, cap - len, " %s", texts[i]);
    const int rc = ep_send(e, "%s", cmd);
    free(cmd);
    return rc;
}

/* Starts engine k as te when it is not running, and tells it variant v.
 * Returns 0, or -1 with the reason in err. */
static int engine_ready(BoardTable *t, TableEngine *te, int k, const Variant *v, char *err, size_t n)
{
    if (te->started && !ep_running(&te->proc)) {
        ep_kill(&te->proc);
        te->started = false;
    }
    if (!te->started) {
        te->variant = NULL;
        if (ep_start(&te->proc, t->conf[k].cmd, -1) ||
            ep_handshake(&te->proc, t->conf[k].opts, t->conf[k].nopts, TABLE_HANDSHAKE_MS)) {
            snprintf(err, n, "engine %s did not start: %s", engine_name(t, k), te->proc.error);
            ep_kill(&te->proc);
            return -1;
        }
        te->started = true;
    }
    if (te->variant != v) {
        if (ep_send(&te->proc, "setoption name Variant value %s", v->name) || ep_send(&te->proc, "ucinewgame") ||
            ep_sync(&te->proc, TABLE_HANDSHAKE_MS)) {
            snprintf(err, n, "engine %s: %s", engine_name(t, k), te->proc.error);
            ep_kill(&te->proc);
            te->started = false;
            return -1;
        }
        te->variant = v;
    }
    return 0;
}

/* Kills te at once; it is started again when next needed. */
static void engine_kill(TableEngine *te)
{
    if (te->started)
        ep_kill(&te->proc);
    te->started = false;
    te->variant = NULL;
    te->answered = false;
}

static void engine_end(TableEngine *te)
{
    if (te->started)
        ep_quit(&te->proc, 200);
    te->started = false;
    te->variant = NULL;
}

/* Stops a running search of te and drops its answer; an engine that does not
 * answer the stop is killed. */
static void engine_stop(TableEngine *te)
{
    if (!te->started || te->answered) {
        te->answered = false;
        return;
    }
    char *line;
    if (ep_send(&te->proc, "stop") || ep_wait_token(&te->proc, "bestmove", STOP_WAIT_MS, NULL, NULL, &line) != 1)
        engine_kill(te);
}

static void lines_clear(BoardTable *t)
{
    for (int i = 0; i < TABLE_MAX_LINES; i++) {
        free(t->lines[i].pv);
        t->lines[i] = (TableLine){0};
    }
    t->lines_dirty = false;
}

/* Stops the analysis running (a new position or mode will restart it). */
static void analysis_stop(BoardTable *t)
{
    if (t->analysing)
        engine_stop(&t->analyser);
    t->analysing = false;
    lines_clear(t);
}

/* Stops a seat engine's search; its answer is dropped. */
static void search_stop(BoardTable *t)
{
    if (t->searching >= 0)
        engine_stop(&t->play[t->engine_of[t->searching]]);
    t->searching = -1;
}

static bool over(const BoardTable *t) { return pos_over(&t->game->pos); }

/* Whether the game is played on a clock (base + increment). */
static bool clocked(const BoardTable *t) { return t->base_ms > 0; }

/* Charges seat s the time since its turn began and adds the increment; a
 * clock overdrawn within the margin stands at 0. */
static void charge(BoardTable *t, int s)
{
    if (!clocked(t))
        return;
    const int64_t left = t->clock_ms[s] + t->inc_ms - (ep_now_ms() - t->turn_start);
    t->clock_ms[s] = left > 0 ? left : 0;
}

/* Ends the game by seat s's forfeit (resignation, time). */
static void forfeit(BoardTable *t, int s, const char *termination)
{
    search_stop(t);
    analysis_stop(t);
    referee_forfeit(&t->game->pos, s);
    t->forfeited = s;
    snprintf(t->termination, sizeof t->termination, "%s", termination);
}

/* ---- messages out ---- */

static json_t *scores_object(const BoardTable *t, const int scores[MAX_SEATS], const bool has[MAX_SEATS])
{
    json_t *o = json_object();
    for (int i = 0; i < t->game->v->nseats; i++) {
        const int s = t->game->v->seats[i];
        const char key[2] = {variant_seat_letter(s), 0};
        if (has[s])
            json_object_set_new(o, key, json_integer(scores[s]));
    }
    return o;
}

static json_t *legal_moves(const BoardTable *t, const Position *p)
{
    json_t *a = json_array();
    if (pos_over(p) || !(t->analysis || t->human[p->stm]) || (!t->analysis && t->shown != t->game->nplies))
        return a;
    MoveList *list = move_list_new();
    if (!list)
        return a;
    gen_moves(p, list, NULL);
    char text[MOVE_STR_MAX], name[8];
    for (int i = 0; i < list->n; i++) {
        const Move *m = &list->m[i];
        json_t *holes = path_list(p, m);
        Position after = *p;
        pos_play(&after, m);
        json_array_append_new(
            a, json_pack("{s:s, s:o, s:o, s:o, s:b}", "text", move_str(p, m, text), "path", holes, "swap",
                         m->swap == NO_HOLE ? json_null() : json_string(board_hole_name(m->swap, name)), "captured",
                         hole_list(m->captured), "eliminates", after.status[p->stm] == ST_ELIMINATED));
    }
    move_list_delete(list);
    return a;
}

static const char *status_name(const BoardTable *t, int s)
{
    const Position *p = &t->game->pos;
    if (t->forfeited >= 0 && (s == t->forfeited || s == variant_partner(p->v, t->forfeited)))
        return "forfeited";
    return p->status[s] == ST_ARRIVED ? "arrived" : p->status[s] == ST_ELIMINATED ? "eliminated" : "playing";
}

/* A seat's clock now: the seat to move's runs while it thinks. */
static json_t *clock_now(const BoardTable *t, int s)
{
    if (!clocked(t))
        return json_null();
    int64_t ms = t->clock_ms[s];
    if (!t->analysis && !over(t) && t->game->pos.stm == s)
        ms -= ep_now_ms() - t->turn_start;
    return json_integer(ms > 0 ? ms : 0);
}

static json_t *state_object(BoardTable *t)
{
    const Game *g = t->game;
    const Variant *v = g->v;
    Game *shown = shown_game(t);
    if (!shown)
        return NULL;
    const Position *p = &shown->pos;
    char fen[FEN_MAX], name[8];
    json_t *seats = json_array(), *board = json_object(), *moves = json_array(), *evals = json_array();
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        json_t *seat = json_pack(
            "{s:o, s:s, s:s, s:o, s:s, s:s, s:i, s:o, s:o, s:o, s:o}", "seat", seat_string(s), "colour",
            record_colour_tag(s), "player", t->human[s] ? "human" : "engine", "engine",
            t->human[s] ? json_null() : json_integer(t->engine_of[s]), "name",
            t->human[s] ? "Human" : engine_name(t, t->engine_of[s]), "status", status_name(t, s), "place",
            g->pos.place[variant_unit(v, s)], "clock_ms", clock_now(t, s), "home", hole_list(v->home[s]), "target",
            hole_list(v->target[s]), "foreign", hole_list(v->foreign_rule ? v->foreign[s] : 0));
        json_array_append_new(seats, seat);
    }
    for (int h = 0; h < NUM_HOLES; h++) {
        char piece[2] = {0, 0};
        if (bb_test(p->neutral, h))
            piece[0] = 'x';
        for (int s = 0; s < MAX_SEATS && !piece[0]; s++)
            if (bb_test(p->seat_bb[s], h))
                piece[0] = variant_seat_letter(s);
        if (piece[0])
            json_object_set_new(board, board_hole_name(h, name), json_string(piece));
    }
    for (int i = 0; i < g->nplies; i++)
        json_array_append_new(moves, json_pack("{s:i, s:o, s:s, s:s?}", "ply", i + 1, "seat",
                                               seat_string(t->movers[i]), "text", t->texts[i], "comment",
                                               t->comments[i]));
    bool has[MAX_SEATS];
    for (int i = 0; i <= g->nplies; i++) {
        if (!t->has_eval[i])
            continue;
        for (int s = 0; s < MAX_SEATS; s++)
            has[s] = t->eval_has[i][s];
        json_array_append_new(evals, json_pack("{s:i, s:o}", "ply", i, "scores", scores_object(t, t->eval[i], has)));
    }
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "type",
                          "state", "variant", v->name, "mode", t->analysis ? "analysis" : "play", "fen",
                          fen_write(p, fen), "ply", g->nplies, "shown", t->shown, "stm",
                          pos_over(p) ? json_null() : seat_string(p->stm), "to_move",
                          pos_over(&g->pos) ? json_null() : seat_string(g->pos.stm), "over", pos_over(&g->pos), "termination",
                          !pos_over(&g->pos) ? json_null()
                          : t->termination[0] ? json_string(t->termination)
                                              : json_string(pos_reason_name((EndReason)g->pos.reason)),
                          "seats", seats, "board", board, "moves", moves, "legal", legal_moves(t, p), "thinking",
                          t->searching >= 0 ? seat_string(t->searching) : json_null(), "evals", evals);
    free(shown);
    return o;
}

static void broadcast_state(BoardTable *t) { send_json(t->broadcast, t->broadcast_ctx, state_object(t)); }

/* ---- setting up games ---- */

/* Forgets the moves' texts, comments and evaluations from ply k on. */
static void forget_from(BoardTable *t, int k)
{
    for (int i = k; i < GAME_MAX_PLIES; i++) {
        free(t->texts[i]);
        free(t->comments[i]);
        t->texts[i] = t->comments[i] = NULL;
    }
    for (int i = k; i <= GAME_MAX_PLIES; i++)
        t->has_eval[i] = false;
}

/* Plays legal move m in the game (at its end) with its comment (owned by the
 * table from here; may be NULL). */
static void play_move(BoardTable *t, const Move *m, char *comment)
{
    Game *g = t->game;
    char text[MOVE_STR_MAX];
    move_str(&g->pos, m, text);
    const int ply = g->nplies, s = g->pos.stm;
    if (game_play(g, m)) {
        free(comment);
        pos_finish(&g->pos, END_LIMIT); /* the history is full: cannot happen within the round limit */
        return;
    }
    t->texts[ply] = strdup(text);
    t->movers[ply] = (int8_t)s;
    t->comments[ply] = comment;
    if (t->shown == ply)
        t->shown = ply + 1;
    t->turn_start = ep_now_ms();
    t->failures = 0;
}

/* Replaces the game by *g (its moves replayed from its start for their
 * texts); seats, clocks and mode as the caller then sets them. */
static void set_game(BoardTable *t, const Game *g)
{
    search_stop(t);
    analysis_stop(t);
    forget_from(t, 0);
    *t->game = *g;
    t->game->pos = g->start;
    t->game->nplies = 0;
    t->shown = 0;
    t->termination[0] = 0;
    t->forfeited = -1;
    for (int k = 0; k < TABLE_MAX_ENGINES; k++)
        t->play[k].variant = NULL; /* a new game: ucinewgame before its first search */
    for (int i = 0; i < g->nplies; i++)
        play_move(t, &g->moves[i], NULL);
    if (g->nplies == 0 || pos_over(&g->pos))
        t->game->pos = g->pos; /* a start that is over, or a forfeit */
    t->shown = t->game->nplies;
    t->turn_start = ep_now_ms();
    t->failures = 0;
}

/* Replaces the game by *g for analysis: every seat human, no clocks. */
static void analyse_game(BoardTable *t, const Game *g)
{
    set_game(t, g);
    t->analysis = true;
    for (int s = 0; s < MAX_SEATS; s++) {
        t->human[s] = true;
        t->clock_ms[s] = 0;
    }
    t->base_ms = t->inc_ms = t->movetime_ms = 0;
    broadcast_state(t);
}

/* ---- the messages of a page ---- */

typedef struct {
    BoardTable *t;
    json_t *msg;
    TableSend reply;
    void *ctx;
} Request;

static bool get_int(const Request *r, const char *key, long long lo, long long hi, long long dflt, long long *out)
{
    json_t *x = json_object_get(r->msg, key);
    if (!x) {
        *out = dflt;
        return true;
    }
    if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi) {
        say_error(r->reply, r->ctx, "%s must be an integer from %lld to %lld", key, lo, hi);
        return false;
    }
    *out = json_integer_value(x);
    return true;
}

static const char *get_string(const Request *r, const char *key, bool required)
{
    json_t *x = json_object_get(r->msg, key);
    if (!x && !required)
        return NULL;
    if (!json_is_string(x)) {
        say_error(r->reply, r->ctx, "%s: \"%s\" must be a string", json_string_value(json_object_get(r->msg, "type")),
                  key);
        return NULL;
    }
    return json_string_value(x);
}

static void on_new(const Request *r)
{
    BoardTable *t = r->t;
    const char *name = get_string(r, "variant", true);
    if (!name)
        return;
    const Variant *v = variant_find(name);
    if (!v) {
        say_error(r->reply, r->ctx, "new: unknown variant '%s'", name);
        return;
    }
    json_t *seats = json_object_get(r->msg, "seats");
    if (!json_is_array(seats) || (int)json_array_size(seats) != v->nseats) {
        say_error(r->reply, r->ctx, "new: \"seats\" must list the %d seats of %s", v->nseats, v->name);
        return;
    }
    bool human[MAX_SEATS] = {0};
    int engine[MAX_SEATS] = {0};
    for (int i = 0; i < v->nseats; i++) {
        json_t *seat = json_array_get(seats, (size_t)i), *k = json_object_get(seat, "engine");
        const char *player = json_string_value(json_object_get(seat, "player"));
        const int s = v->seats[i];
        if (player && !strcmp(player, "human")) {
            human[s] = true;
        } else if (player && !strcmp(player, "engine") && json_is_integer(k) && json_integer_value(k) >= 0 &&
                   json_integer_value(k) < t->nconf) {
            engine[s] = (int)json_integer_value(k);
        } else {
            say_error(r->reply, r->ctx,
                      "new: seat %d must be {\"player\":\"human\"} or {\"player\":\"engine\",\"engine\":0..%d}",
                      i + 1, t->nconf - 1);
            return;
        }
    }
    json_t *tc = json_object_get(r->msg, "tc");
    json_t *base = json_object_get(tc, "base_ms"), *inc = json_object_get(tc, "inc_ms"),
           *mt = json_object_get(tc, "movetime_ms");
    const bool base_ok = json_is_integer(base) && json_integer_value(base) > 0 && json_integer_value(base) <= 86400000;
    const bool inc_ok = !inc || (json_is_integer(inc) && json_integer_value(inc) >= 0 && json_integer_value(inc) <= 3600000);
    const bool mt_ok = json_is_integer(mt) && json_integer_value(mt) > 0 && json_integer_value(mt) <= 3600000;
    if ((tc && !json_is_object(tc)) || (base && !(base_ok && inc_ok)) || (mt && !mt_ok) || (base && mt) ||
        (inc && !base)) {
        say_error(r->reply, r->ctx,
                  "new: \"tc\" must be {\"base_ms\":B,\"inc_ms\":I}, {\"movetime_ms\":M} or {} (B, M > 0)");
        return;
    }
    Game *g = malloc(sizeof *g);
    if (!g) {
        say_error(r->reply, r->ctx, "new: out of memory");
        return;
    }
    game_new(g, v->name);
    const char *fen = get_string(r, "fen", false);
    char err[256];
    if (json_object_get(r->msg, "fen") && (!fen || game_set_fen(g, fen, err, sizeof err))) {
        if (fen)
            say_error(r->reply, r->ctx, "new: bad FEN: %s", err);
        free(g);
        return;
    }
    set_game(t, g);
    free(g);
    t->analysis = false;
    t->base_ms = base ? (int)json_integer_value(base) : 0;
    t->inc_ms = inc ? (int)json_integer_value(inc) : 0;
    t->movetime_ms = mt ? (int)json_integer_value(mt) : 0;
    for (int s = 0; s < MAX_SEATS; s++) {
        t->human[s] = human[s];
        t->engine_of[s] = engine[s];
        t->clock_ms[s] = t->base_ms;
    }
    broadcast_state(t);
}

/* The human seat a resignation without a seat is for. */
static int resigning_seat(const BoardTable *t)
{
    const Position *p = &t->game->pos;
    if (t->human[p->stm])
        return p->stm;
    for (int i = 0; i < p->v->nseats; i++)
        if (t->human[p->v->seats[i]] && p->status[p->v->seats[i]] == ST_PLAYING)
            return p->v->seats[i];
    return -1;
}

static void on_move(const Request *r)
{
    BoardTable *t = r->t;
    const char *text = get_string(r, "text", true);
    if (!text)
        return;
    if (!t->analysis && t->shown != t->game->nplies) {
        say_error(r->reply, r->ctx, "move: an earlier position is shown; show the last move to play on");
        return;
    }
    Game *g = shown_game(t);
    if (!g) {
        say_error(r->reply, r->ctx, "move: out of memory");
        return;
    }
    Move m;
    char err[256];
    if (pos_over(&g->pos))
        say_error(r->reply, r->ctx, "move '%s': the game is over", text);
    else if (!t->analysis && !t->human[g->pos.stm])
        say_error(r->reply, r->ctx, "move '%s': %s is played by an engine", text, record_colour_tag(g->pos.stm));
    else if (move_parse(&g->pos, text, &m, err, sizeof err))
        say_error(r->reply, r->ctx, "move '%s': %s", text, err);
    else {
        if (t->shown < t->game->nplies) { /* analysis: a new line from the shown position */
            analysis_stop(t);
            forget_from(t, t->shown);
            *t->game = *g;
            t->termination[0] = 0;
            t->forfeited = -1;
        }
        const int s = g->pos.stm;
        if (!t->analysis && clocked(t) && t->clock_ms[s] - (ep_now_ms() - t->turn_start) <= 0) {
            say_error(r->reply, r->ctx, "move '%s': %s's time ran out", text, record_colour_tag(s));
            t->clock_ms[s] = 0;
            forfeit(t, s, "time forfeit");
        } else {
            if (!t->analysis)
                charge(t, s);
            analysis_stop(t);
            play_move(t, &m, NULL);
        }
        broadcast_state(t);
    }
    free(g);
}

static void on_resign(const Request *r)
{
    BoardTable *t = r->t;
    const char *letter = get_string(r, "seat", false);
    if (json_object_get(r->msg, "seat") && !letter)
        return;
    if (over(t)) {
        say_error(r->reply, r->ctx, "resign: the game is over");
        return;
    }
    const int s = letter ? (strlen(letter) == 1 ? variant_seat_of_letter(letter[0]) : -1) : resigning_seat(t);
    if (s < 0 || t->game->v->slot[s] < 0) {
        say_error(r->reply, r->ctx, letter ? "resign: '%s' is not a seat of this game" : "resign: no human seat%s",
                  letter ? letter : "");
        return;
    }
    if (t->game->pos.status[s] != ST_PLAYING) {
        say_error(r->reply, r->ctx, "resign: %s has %s and keeps its place", record_colour_tag(s),
                  t->game->pos.status[s] == ST_ARRIVED ? "arrived" : "been eliminated");
        return;
    }
    forfeit(t, s, "resignation");
    broadcast_state(t);
}

static void on_goto(const Request *r)
{
    BoardTable *t = r->t;
    long long ply;
    if (!json_object_get(r->msg, "ply")) {
        say_error(r->reply, r->ctx, "goto: \"ply\" is missing");
        return;
    }
    if (!get_int(r, "ply", 0, t->game->nplies, 0, &ply))
        return;
    analysis_stop(t);
    t->shown = (int)ply;
    broadcast_state(t);
}

static void on_analysis(const Request *r)
{
    BoardTable *t = r->t;
    json_t *on = json_object_get(r->msg, "on");
    long long multipv, engine;
    if (!json_is_boolean(on)) {
        say_error(r->reply, r->ctx, "analysis: \"on\" must be true or false");
        return;
    }
    if (!get_int(r, "multipv", 1, TABLE_MAX_LINES, t->multipv, &multipv) ||
        !get_int(r, "engine", 0, t->nconf - 1, t->analysis_engine, &engine))
        return;
    analysis_stop(t);
    if (json_is_true(on) && !t->analysis) {
        search_stop(t);
        if (!over(t) && t->human[t->game->pos.stm]) { /* the time used so far counts; an engine starts afresh */
            const int s = t->game->pos.stm;
            const int64_t left = t->clock_ms[s] - (ep_now_ms() - t->turn_start);
            if (clocked(t))
                t->clock_ms[s] = left > 0 ? left : 0;
        }
    }
    if (!json_is_true(on) && t->analysis)
        t->turn_start = ep_now_ms(); /* the clocks go on from here */
    t->analysis = json_is_true(on);
    t->multipv = (int)multipv;
    if (t->analysis_engine != engine)
        engine_end(&t->analyser);
    t->analysis_engine = (int)engine;
    broadcast_state(t);
}

static void on_fen(const Request *r)
{
    BoardTable *t = r->t;
    const char *fen = get_string(r, "fen", true), *name = get_string(r, "variant", false);
    if (!fen || (json_object_get(r->msg, "variant") && !name))
        return;
    const Variant *v = name ? variant_find(name) : t->game->v;
    if (!v) {
        say_error(r->reply, r->ctx, "fen: unknown variant '%s'", name);
        return;
    }
    Game *g = malloc(sizeof *g);
    char err[256];
    if (!g) {
        say_error(r->reply, r->ctx, "fen: out of memory");
        return;
    }
    game_new(g, v->name);
    if (game_set_fen(g, fen, err, sizeof err))
        say_error(r->reply, r->ctx, "fen: %s", err);
    else
        analyse_game(t, g);
    free(g);
}

static void on_load_pgn(const Request *r)
{
    BoardTable *t = r->t;
    const char *text = get_string(r, "text", true);
    if (!text)
        return;
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    Game *g = malloc(sizeof *g);
    if (!f || !g) {
        say_error(r->reply, r->ctx, "load_pgn: out of memory");
        if (f)
            fclose(f);
        free(g);
        return;
    }
    PgnReader rd;
    PgnGame pg = {0};
    char err[PGN_ERR_MAX + 64];
    pgn_reader_init(&rd, f, "pgn");
    const PgnStatus st = pgn_read_game(&rd, &pg, err, PGN_ERR_MAX);
    if (st == PGN_EOF)
        say_error(r->reply, r->ctx, "load_pgn: no game record in the text");
    else if (st != PGN_OK)
        say_error(r->reply, r->ctx, "load_pgn: %s", err);
    else if (pgn_replay(&pg, "pgn", g, err, sizeof err))
        say_error(r->reply, r->ctx, "load_pgn: %s", err);
    else
        analyse_game(t, g);
    if (st == PGN_OK || st == PGN_INCOMPLETE)
        pgn_game_free(&pg);
    pgn_reader_free(&rd);
    fclose(f);
    free(g);
}

static void on_save_pgn(const Request *r)
{
    BoardTable *t = r->t;
    char *buf = NULL, date[16], tc[64] = "-";
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        say_error(r->reply, r->ctx, "save_pgn: out of memory");
        return;
    }
    RecordTags tags = {.event = "stern-board", .site = "stern-board", .date = record_today(date),
                       .comments = (const char *const *)t->comments};
    if (t->movetime_ms)
        snprintf(tc, sizeof tc, "%g/move", t->movetime_ms / 1000.0);
    else if (t->base_ms)
        snprintf(tc, sizeof tc, "%g+%g", t->base_ms / 1000.0, t->inc_ms / 1000.0);
    tags.time_control = tc;
    for (int s = 0; s < MAX_SEATS; s++)
        tags.players[s] = t->human[s] ? "Human" : engine_name(t, t->engine_of[s]);
    if (t->termination[0] && over(t))
        tags.termination = t->termination;
    const int rc = record_write(f, t->game, &tags);
    fclose(f);
    if (rc)
        say_error(r->reply, r->ctx, "save_pgn: the record could not be written");
    else
        send_json(r->reply, r->ctx, json_pack("{s:s, s:s}", "type", "pgn", "text", buf));
    free(buf);
}

void board_table_message(BoardTable *t, const char *text, size_t len, TableSend reply, void *reply_ctx)
{
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, 0, &jerr);
    if (!json_is_object(msg)) {
        if (msg)
            say_error(reply, reply_ctx, "malformed message: not a JSON object");
        else
            say_error(reply, reply_ctx, "malformed message: %s (column %d)", jerr.text, jerr.column);
        json_decref(msg);
        return;
    }
    static const struct {
        const char *type;
        void (*fn)(const Request *);
    } handlers[] = {{"new", on_new},           {"move", on_move},         {"resign", on_resign},
                    {"goto", on_goto},         {"analysis", on_analysis}, {"fen", on_fen},
                    {"load_pgn", on_load_pgn}, {"save_pgn", on_save_pgn}};
    const char *type = json_string_value(json_object_get(msg, "type"));
    const Request r = {t, msg, reply, reply_ctx};
    size_t i = 0;
    while (type && i < sizeof handlers / sizeof *handlers && strcmp(type, handlers[i].type))
        i++;
    if (!type)
        say_error(reply, reply_ctx, "malformed message: no \"type\"");
    else if (i == sizeof handlers / sizeof *handlers)
        say_error(reply, reply_ctx, "unknown message type '%.64s'", type);
    else {
        pthread_mutex_lock(&t->lock);
        handlers[i].fn(&r);
        pthread_mutex_unlock(&t->lock);
    }
    json_decref(msg);
}

/* ---- the clockwork ---- */

/* Each seat's score in an info line from seat s's search: its own `scores`,
 * or with two seats the score and its negation. */
static void info_scores(const BoardTable *t, const InfoLine *in, int s, int scores[MAX_SEATS], bool has[MAX_SEATS])
{
    const Variant *v = t->game->v;
    for (int i = 0; i < MAX_SEATS; i++) {
        scores[i] = in->scores[i];
        has[i] = in->has[i];
    }
    if (v->nseats == 2 && !in->mate) {
        const int o = v->seats[0] == s ? v->seats[1] : v->seats[0];
        scores[s] = in->score;
        scores[o] = -in->score;
        has[s] = has[o] = true;
    }
}

/* A seat engine failed (crashed, hung, played an illegal move): say so, end
 * it, and ask again; after TABLE_RETRIES failures the seat goes to the humans. */
static void engine_failed(BoardTable *t, const char *what)
{
    const int s = t->searching, k = t->engine_of[s];
    TableEngine *te = &t->play[k];
    engine_kill(te);
    t->searching = -1;
    t->turn_start = ep_now_ms(); /* the failed search costs the clock nothing */
    if (++t->failures >= TABLE_RETRIES) {
        t->human[s] = true;
        say_error(t->broadcast, t->broadcast_ctx, "engine %s (%s) %s; %d failures in a row: %s is now played here",
                  engine_name(t, k), record_colour_tag(s), what, t->failures, record_colour_tag(s));
        t->failures = 0;
    } else {
        say_error(t->broadcast, t->broadcast_ctx, "engine %s (%s) %s: restarted, asked again", engine_name(t, k),
                  record_colour_tag(s), what);
    }
    broadcast_state(t);
}

/* Starts the search of the engine of the seat to move. */
static void search_start(BoardTable *t)
{
    Game *g = t->game;
    const int s = g->pos.stm, k = t->engine_of[s];
    TableEngine *te = &t->play[k];
    char err[512];
    t->searching = s;
    if (engine_ready(t, te, k, g->v, err, sizeof err)) {
        engine_failed(t, err);
        return;
    }
    char go[512] = "go";
    size_t len = 2;
    int allotted = TABLE_NO_CLOCK_MOVETIME;
    if (t->movetime_ms) {
        allotted = t->movetime_ms;
        snprintf(go + len, sizeof go - len, " movetime %d", t->movetime_ms);
    } else if (t->base_ms) {
        for (int i = 0; i < g->v->nseats; i++) {
            const int o = g->v->seats[i];
            const char c = variant_seat_letter(o);
            const int64_t left = t->clock_ms[o] > 0 ? t->clock_ms[o] : 0;
            len += (size_t)snprintf(go + len, sizeof go - len, " %ctime %lld %cinc %d", c, (long long)left, c,
                                    t->inc_ms);
        }
        allotted = (int)(t->clock_ms[s] > 0 ? t->clock_ms[s] : 0);
    } else {
        snprintf(go + len, sizeof go - len, " movetime %d", TABLE_NO_CLOCK_MOVETIME);
    }
    t->last_has_score = false;
    t->last_depth = 0;
    t->turn_start = ep_now_ms();
    t->deadline = t->turn_start + allotted + TABLE_MARGIN_MS;
    if (send_position(&te->proc, g, t->texts, g->nplies) || ep_send(&te->proc, "%s", go)) {
        snprintf(err, sizeof err, "did not take the position: %s", te->proc.error);
        engine_failed(t, err);
        return;
    }
    broadcast_state(t);
}

/* The answer `bestmove X` of the seat engine. */
static void search_answer(BoardTable *t, const char *line)
{
    Game *g = t->game;
    const int s = t->searching;
    char tok[MOVE_STR_MAX], err[256], what[MOVE_STR_MAX + 320];
    if (sscanf(line, "bestmove %255s", tok) != 1)
        tok[0] = 0;
    Move m;
    if (!tok[0] || move_parse(&g->pos, tok, &m, err, sizeof err)) {
        snprintf(what, sizeof what, "played '%s': %s", tok, tok[0] ? err : "no move");
        engine_failed(t, what);
        return;
    }
    const int elapsed = (int)(ep_now_ms() - t->turn_start);
    charge(t, s);
    const RefereeMove rm = {.elapsed_ms = elapsed, .has_score = t->last_has_score, .mate = t->last_mate,
                            .score = t->last_score, .depth = t->last_depth};
    char comment[REFEREE_COMMENT_MAX];
    referee_move_comment(&rm, comment, sizeof comment);
    if (t->last_has_score) {
        t->has_eval[g->nplies] = true;
        for (int i = 0; i < MAX_SEATS; i++) {
            t->eval[g->nplies][i] = t->last_scores[i];
            t->eval_has[g->nplies][i] = t->last_seat_scored[i];
        }
    }
    t->searching = -1;
    play_move(t, &m, strdup(comment));
    broadcast_state(t);
}

/* Reads what the seat engine wrote. */
static void search_poll(BoardTable *t)
{
    TableEngine *te = &t->play[t->engine_of[t->searching]];
    char *line;
    int rc = 0;
    while (t->searching >= 0 && (rc = ep_read_line(&te->proc, 0, &line)) == 1) {
        InfoLine in;
        if (info_line_parse(line, &in) && in.multipv == 1) {
            t->last_has_score = true;
            t->last_mate = in.mate;
            t->last_score = in.score;
            t->last_depth = in.depth;
            info_scores(t, &in, t->searching, t->last_scores, t->last_seat_scored);
        } else if (!strncmp(line, "bestmove", 8)) {
            search_answer(t, line);
            return;
        }
    }
    if (t->searching < 0)
        return;
    if (rc < 0) {
        char how[128], what[160];
        ep_reap(&te->proc, 100);
        snprintf(what, sizeof what, "crashed (%s)", ep_exit_desc(&te->proc, how, sizeof how));
        engine_failed(t, what);
    } else if (ep_now_ms() > t->deadline) {
        engine_failed(t, "did not answer in time");
    }
}

/* The analysis message of the current lines. */
static void send_lines(BoardTable *t)
{
    Game *shown = shown_game(t);
    if (!shown)
        return;
    json_t *lines = json_array();
    for (int k = 0; k < TABLE_MAX_LINES; k++) {
        const TableLine *l = &t->lines[k];
        if (!l->set)
            continue;
        json_t *pv = json_array(), *paths = json_array();
        Position p = shown->pos;
        char *copy = strdup(l->pv ? l->pv : ""), *save = NULL;
        bool playable = true;
        for (char *tok = copy ? strtok_r(copy, " ", &save) : NULL; tok; tok = strtok_r(NULL, " ", &save)) {
            json_array_append_new(pv, json_string(tok));
            Move m;
            char err[128];
            playable = playable && !pos_over(&p) && !move_parse(&p, tok, &m, err, sizeof err);
            if (!playable)
                continue; /* a best-reply line may leave the turn order: drawn as far as it is legal */
            json_array_append_new(paths, path_list(&p, &m));
            pos_play(&p, &m);
        }
        free(copy);
        json_array_append_new(lines, json_pack("{s:i, s:i, s:o, s:o, s:I, s:o, s:o}", "multipv", l->multipv, "depth",
                                               l->depth, "score",
                                               json_pack("{s:i}", l->mate ? "mate" : "cp", l->score), "scores",
                                               scores_object(t, l->scores, l->has_score), "nodes",
                                               (json_int_t)l->nodes, "pv", pv, "paths", paths));
    }
    free(shown);
    send_json(t->broadcast, t->broadcast_ctx,
              json_pack("{s:s, s:i, s:o}", "type", "analysis", "ply", t->shown, "lines", lines));
    t->lines_sent = ep_now_ms();
    t->lines_dirty = false;
}

/* Leaves analysis mode after the analyser failed: the game's clocks go on. */
static void analysis_off(BoardTable *t)
{
    t->analysis = false;
    t->analysis_failures = 0;
    t->turn_start = ep_now_ms();
    broadcast_state(t);
}

/* Starts, reads and reports the analysis of the shown position. */
static void analysis_tick(BoardTable *t)
{
    TableEngine *te = &t->analyser;
    char err[512] = "";
    if (!t->analysing) {
        Game *shown = shown_game(t);
        if (!shown)
            return;
        const bool done = pos_over(&shown->pos);
        if (!done) {
            if (engine_ready(t, te, t->analysis_engine, shown->v, err, sizeof err) ||
                ep_send(&te->proc, "setoption name MultiPV value %d", t->multipv) ||
                send_position(&te->proc, shown, t->texts, t->shown) || ep_send(&te->proc, "go infinite")) {
                say_error(t->broadcast, t->broadcast_ctx, "analysis stopped: %s", err[0] ? err : te->proc.error);
                engine_end(te);
                analysis_off(t);
            } else {
                t->analysing = true;
                te->answered = false;
                t->analysed_stm = shown->pos.stm;
            }
        }
        free(shown);
        return;
    }
    char *line;
    int rc = 0;
    while ((rc = ep_read_line(&te->proc, 0, &line)) == 1) {
        InfoLine in;
        if (!strncmp(line, "bestmove", 8))
            te->answered = true; /* an infinite search that ended by itself: a stop waits for nothing */
        if (!info_line_parse(line, &in) || !in.pv || in.multipv < 1 || in.multipv > TABLE_MAX_LINES)
            continue;
        TableLine *l = &t->lines[in.multipv - 1];
        free(l->pv);
        *l = (TableLine){.set = true, .depth = in.depth, .multipv = in.multipv, .mate = in.mate, .score = in.score,
                         .nodes = in.nodes, .pv = strdup(in.pv)};
        info_scores(t, &in, t->analysed_stm, l->scores, l->has_score);
        if (in.multipv == 1) {
            t->has_eval[t->shown] = true;
            for (int i = 0; i < MAX_SEATS; i++) {
                t->eval[t->shown][i] = l->scores[i];
                t->eval_has[t->shown][i] = l->has_score[i];
            }
        }
        t->lines_dirty = true;
        t->analysis_failures = 0;
    }
    if (rc < 0) {
        char how[64];
        ep_reap(&te->proc, 100);
        ep_exit_desc(&te->proc, how, sizeof how);
        engine_kill(te);
        t->analysing = false;
        if (++t->analysis_failures >= TABLE_RETRIES) {
            say_error(t->broadcast, t->broadcast_ctx, "analysis engine %s crashed (%s) %d times: analysis off",
                      engine_name(t, t->analysis_engine), how, t->analysis_failures);
            analysis_off(t);
        } else {
            say_error(t->broadcast, t->broadcast_ctx, "analysis engine %s crashed (%s): restarted",
                      engine_name(t, t->analysis_engine), how);
        }
        return;
    }
    if (t->lines_dirty && ep_now_ms() - t->lines_sent >= LINES_EVERY_MS)
        send_lines(t);
}

void board_table_tick(BoardTable *t)
{
    pthread_mutex_lock(&t->lock);
    Game *g = t->game;
    if (t->analysis) {
        analysis_tick(t);
    } else if (!pos_over(&g->pos)) {
        const int s = g->pos.stm;
        if (t->searching >= 0)
            search_poll(t);
        else if (!t->human[s])
            search_start(t);
        else if (clocked(t) && t->clock_ms[s] - (ep_now_ms() - t->turn_start) <= 0) {
            t->clock_ms[s] = 0;
            forfeit(t, s, "time forfeit");
            broadcast_state(t);
        }
    }
    pthread_mutex_unlock(&t->lock);
}

/* ---- the table itself ---- */

int board_table_init(BoardTable *t, const TableEngineConf *conf, int nconf, TableSend broadcast, void *ctx)
{
    memset(t, 0, sizeof *t);
    t->game = malloc(sizeof *t->game);
    if (!t->game)
        return -1;
    pthread_mutex_init(&t->lock, NULL);
    t->conf = conf;
    t->nconf = nconf;
    t->broadcast = broadcast;
    t->broadcast_ctx = ctx;
    t->searching = -1;
    t->multipv = 1;
    game_new(t->game, "classic-2");
    for (int s = 0; s < MAX_SEATS; s++) {
        t->human[s] = s == t->game->v->seats[0];
        t->clock_ms[s] = 0;
    }
    t->forfeited = -1;
    t->turn_start = ep_now_ms();
    return 0;
}

void board_table_free(BoardTable *t)
{
    for (int k = 0; k < TABLE_MAX_ENGINES; k++)
        engine_end(&t->play[k]);
    engine_end(&t->analyser);
    forget_from(t, 0);
    lines_clear(t);
    free(t->game);
    pthread_mutex_destroy(&t->lock);
}

char *board_table_hello(BoardTable *t)
{
    pthread_mutex_lock(&t->lock);
    json_t *variants = json_array(), *seats = json_object(), *engines = json_array(), *holes = json_array();
    for (int i = 0; i < NUM_VARIANT_NAMES; i++) {
        json_array_append_new(variants, json_string(variant_names[i]));
        const Variant *v = variant_find(variant_names[i]);
        json_t *list = json_array();
        for (int k = 0; v && k < v->nseats; k++)
            json_array_append_new(list, seat_string(v->seats[k]));
        json_object_set_new(seats, variant_names[i], list);
    }
    for (int k = 0; k < t->nconf; k++)
        json_array_append_new(engines, json_pack("{s:i, s:s}", "id", k, "name", engine_name(t, k)));
    char name[8];
    for (int h = 0; h < NUM_HOLES; h++)
        json_array_append_new(holes,
                              json_pack("{s:s, s:i, s:i}", "name", board_hole_name(h, name), "q", geo.q[h], "r", geo.r[h]));
    pthread_mutex_unlock(&t->lock);
    return text_of(json_pack("{s:s, s:i, s:o, s:o, s:o, s:o}", "type", "hello", "version", 1, "variants", variants,
                             "variant_seats", seats, "engines", engines, "holes", holes));
}

void board_table_join(BoardTable *t, TableSend send, void (*joined)(void *ctx), void *ctx)
{
    char *hello = board_table_hello(t);
    pthread_mutex_lock(&t->lock);
    char *state = text_of(state_object(t));
    if (hello)
        send(hello, ctx);
    if (state)
        send(state, ctx);
    joined(ctx);
    pthread_mutex_unlock(&t->lock);
    free(hello);
    free(state);
}

char *board_table_state(BoardTable *t)
{
    pthread_mutex_lock(&t->lock);
    char *s = text_of(state_object(t));
    pthread_mutex_unlock(&t->lock);
    return s;
}
