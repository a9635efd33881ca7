/* referee.c - one game between engine processes; see referee.h. */
#include "referee.h"

#include "ccpcells.h"
#include "fen.h"
#include "info_line.h"
#include "notation.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *referee_forfeit_name(Forfeit f)
{
    static const char *const names[] = {NULL, "time forfeit", "illegal move", "crash"};
    return names[f];
}

char *referee_move_comment(const RefereeMove *m, char *buf, size_t n)
{
    if (m->has_score && m->mate)
        snprintf(buf, n, "%sM%d/%d %.3fs", m->score < 0 ? "-" : "+", abs(m->score), m->depth, m->elapsed_ms / 1000.0);
    else if (m->has_score)
        snprintf(buf, n, "%+.2f/%d %.3fs", m->score / 100.0, m->depth, m->elapsed_ms / 1000.0);
    else
        snprintf(buf, n, "%.3fs", m->elapsed_ms / 1000.0);
    return buf;
}

void referee_forfeit(Position *p, int s)
{
    const Variant *v = p->v;
    unsigned taken = 0;
    for (int i = 0; i < v->nseats; i++)
        taken |= 1u << p->place[v->seats[i]];
    int worst = 0;
    for (int pl = 1; pl <= v->nunits; pl++)
        if (!(taken & (1u << pl)))
            worst = pl;
    p->place[s] = (uint8_t)worst;
    const int partner = variant_partner(v, s);
    if (partner >= 0)
        p->place[partner] = (uint8_t)worst;
    pos_finish(p, END_NONE);
    pos_refresh(p); /* the key, as the places were set by hand */
}

/* ---- the game loop ---- */

/* What one search told us besides its bestmove. */
typedef struct {
    bool has_score, mate;
    int score, depth;
    char error[256]; /* last `info string error ...` */
} SearchInfo;

static void read_info(const char *line, void *ctx)
{
    SearchInfo *si = ctx;
    line += strspn(line, " \t");
    if (strncmp(line, "info", 4) || (line[4] != ' ' && line[4] != '\t'))
        return;
    const char *s = line + 5 + strspn(line + 5, " \t");
    if (!strncmp(s, "string error", 12)) {
        snprintf(si->error, sizeof si->error, "%s", s);
        return;
    }
    InfoLine in;
    const bool scored = info_line_parse(line, &in);
    if (in.depth)
        si->depth = in.depth;
    if (scored) {
        si->has_score = true;
        si->mate = in.mate;
        si->score = in.score;
    }
}

/* A growing text: the moves of the `position` command. */
typedef struct {
    char *s;
    size_t len, cap;
} Text;

static int text_add(Text *t, const char *a)
{
    const size_t n = strlen(a);
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s)
            return -1;
        t->s = s;
        t->cap = cap;
    }
    memcpy(t->s + t->len, a, n + 1);
    t->len += n;
    return 0;
}

/* The `position` line of the game so far: `base` (startpos or fen) and the
 * moves; for a CCP engine the position itself, with no history (as the rating
 * list's referee sends it). */
static int send_position(EngineProc *e, const Game *g, const char *base, const Text *moves)
{
    if (e->ccp) {
        char cells[CCP_CELLS_MAX];
        int player, ply;
        ccp_cells_of(&g->pos, cells, &player, &ply);
        return ep_send(e, "position cells %s player %d ply %d", cells, player, ply);
    }
    return ep_send(e, "%s%s%s", base, moves->len ? " moves" : "", moves->len ? moves->s : "");
}

/* Sends `go` to e for the seat to move in g: its limits (lims), the reserves
 * (clock) of the clocked seats, and movestogo (> 0: its moves left in the
 * period of its clock, else not sent). */
static int send_go(EngineProc *e, const Game *g, const RefereeSeatLimits lims[MAX_SEATS], const int clock[MAX_SEATS],
                   int movestogo)
{
    const RefereeSeatLimits *l = &lims[g->pos.stm];
    char go[512] = "go";
    size_t len = 2;
    if (l->time.movetime_ms > 0)
        len += (size_t)snprintf(go + len, sizeof go - len, " movetime %d", l->time.movetime_ms);
    else if (l->time.time_ms > 0) {
        for (int i = 0; i < g->v->nseats; i++) {
            const int s = g->v->seats[i];
            const char c = variant_seat_letter(s);
            if (lims[s].time.movetime_ms <= 0 && lims[s].time.time_ms > 0)
                len += (size_t)snprintf(go + len, sizeof go - len, " %ctime %d %cinc %d", c,
                                        clock[s] > 0 ? clock[s] : 0, c, lims[s].time.inc_ms);
        }
        if (movestogo > 0)
            len += (size_t)snprintf(go + len, sizeof go - len, " movestogo %d", movestogo);
    }
    if (l->depth > 0)
        len += (size_t)snprintf(go + len, sizeof go - len, " depth %d", l->depth);
    if (l->nodes > 0)
        snprintf(go + len, sizeof go - len, " nodes %lld", l->nodes);
    return ep_send(e, "%s", go);
}

/* Ends the game by a forfeit of the seat to move. */
static void forfeit(Game *g, RefereeResult *res, Forfeit f)
{
    res->forfeit = f;
    res->seat = g->pos.stm;
    res->termination = referee_forfeit_name(f);
    referee_forfeit(&g->pos, g->pos.stm);
}

static void describe_crash(EngineProc *e, RefereeResult *res)
{
    char how[128];
    ep_reap(e, 100);
    snprintf(res->detail, sizeof res->detail, "engine %s (%s)", ep_exit_desc(e, how, sizeof how), e->error);
}

/* Checks the answer line "bestmove X ..." (X in cell ids from a CCP engine) and
 * plays X. Returns 0, or -1 after a forfeit for an illegal move. */
static int play_answer(Game *g, const char *line, bool ccp, const SearchInfo *si, RefereeResult *res, char *text)
{
    char tok[MOVE_STR_MAX];
    const char *p = line + strspn(line, " \t") + strlen("bestmove");
    p += strspn(p, " \t");
    const size_t n = strcspn(p, " \t");
    snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), p);
    Move m;
    char err[256];
    if (!n || (ccp ? ccp_move_parse_as_referee(&g->pos, tok, &m, err, sizeof err)
                : move_parse(&g->pos, tok, &m, err, sizeof err))) {
        snprintf(res->detail, sizeof res->detail, "played '%s': %s%s%s", tok, n ? err : "no move given",
                 si->error[0] ? "; engine said: " : "", si->error);
        forfeit(g, res, FORFEIT_ILLEGAL);
        return -1;
    }
    move_str(&g->pos, &m, text);
    if (game_play(g, &m)) { /* the history is full: cannot happen within the round limit */
        pos_finish(&g->pos, END_LIMIT);
        return 0;
    }
    return 0;
}

static int start_game(EngineProc *const engines[MAX_SEATS], const Game *g, RefereeResult *res)
{
    for (int i = 0; i < g->v->nseats; i++) {
        EngineProc *e = engines[g->v->seats[i]];
        bool done = false; /* one engine may play several seats */
        for (int j = 0; j < i; j++)
            done |= engines[g->v->seats[j]] == e;
        if (done)
            continue;
        /* CCP has no new-game command: one process plays the whole run */
        if ((!e->ccp && ep_send(e, "ucinewgame")) || ep_sync(e, REF_SYNC_TIMEOUT_MS)) {
            snprintf(res->detail, sizeof res->detail, "seat %c: %s", variant_seat_letter(g->v->seats[i]), e->error);
            res->seat = g->v->seats[i];
            return -1;
        }
    }
    return 0;
}

/* a + b, held within int: a clock that runs in periods gains time_ms each
 * period, and what is left carries over. */
static int clock_add(int a, int b)
{
    const long long x = (long long)a + b;
    return x > INT_MAX ? INT_MAX : x < INT_MIN ? INT_MIN : (int)x;
}

/* The longest a seat may think about its next move before it forfeits, ms. */
static int allotted_ms(const RefereeLimits *t, int clock)
{
    if (t->movetime_ms > 0)
        return t->movetime_ms;
    return t->time_ms > 0 && clock > 0 ? clock : 0; /* a clock overdrawn within the margin has 0 left */
}

int referee_play(Game *g, EngineProc *const engines[MAX_SEATS], const RefereeLimits *lim, RefereeMoveFn fn,
                 void *ctx, RefereeResult *res)
{
    RefereeSeatLimits lims[MAX_SEATS];
    for (int s = 0; s < MAX_SEATS; s++)
        lims[s] = (RefereeSeatLimits){*lim, 0, 0};
    return referee_play_seats(g, engines, lims, fn, ctx, res);
}

int referee_play_seats(Game *g, EngineProc *const engines[MAX_SEATS], const RefereeSeatLimits lims[MAX_SEATS],
                       RefereeMoveFn fn, void *ctx, RefereeResult *res)
{
    memset(res, 0, sizeof *res);
    res->seat = -1;
    if (start_game(engines, g, res))
        return -1;
    Position std;
    pos_set_start(&std, g->v);
    char fen[FEN_MAX], std_fen[FEN_MAX], base[FEN_MAX + 16];
    if (strcmp(fen_write(&g->start, fen), fen_write(&std, std_fen)))
        snprintf(base, sizeof base, "position fen %s", fen);
    else
        snprintf(base, sizeof base, "position startpos");
    Text moves = {0}; /* " m1 m2 ..." */
    int clock[MAX_SEATS], made[MAX_SEATS] = {0}; /* reserve, ms; moves made in this game */
    for (int s = 0; s < MAX_SEATS; s++)
        clock[s] = lims[s].time.time_ms;
    while (!pos_over(&g->pos)) {
        const int s = g->pos.stm, round = g->pos.round, ply = g->nplies;
        EngineProc *e = engines[s];
        const RefereeLimits *lim = &lims[s].time;
        SearchInfo si = {0};
        const int allotted = allotted_ms(lim, clock[s]);
        const bool clocked = lim->movetime_ms <= 0 && lim->time_ms > 0;
        const int movestogo = clocked && lim->moves > 0 ? lim->moves - made[s] % lim->moves : 0;
        const int64_t t0 = ep_now_ms();
        char *line = NULL;
        int rc = -1;
        if (!send_position(e, g, base, &moves) && !send_go(e, g, lims, clock, movestogo))
            rc = ep_wait_token(e, "bestmove", allotted + lim->margin_ms, read_info, &si, &line);
        const int elapsed = (int)(ep_now_ms() - t0);
        if (rc < 0) {
            describe_crash(e, res);
            forfeit(g, res, FORFEIT_CRASH);
            break;
        }
        if (rc == 0 || elapsed > allotted + lim->margin_ms) {
            snprintf(res->detail, sizeof res->detail, "no bestmove within %d ms (allotted %d ms + margin %d ms)",
                     elapsed, allotted, lim->margin_ms);
            forfeit(g, res, FORFEIT_TIME);
            break;
        }
        char text[MOVE_STR_MAX];
        if (play_answer(g, line, e->ccp, &si, res, text))
            break;
        made[s]++;
        if (clocked)
            clock[s] = clock_add(clock[s], lim->inc_ms - elapsed);
        if (clocked && movestogo == 1) /* the period's last move: the next period's time */
            clock[s] = clock_add(clock[s], lim->time_ms);
        if (text_add(&moves, " ") || text_add(&moves, text)) {
            snprintf(res->detail, sizeof res->detail, "out of memory");
            break;
        }
        if (fn) {
            const RefereeMove rm = {ply, round, s, text, elapsed, clocked ? clock[s] : -1,
                                    si.has_score, si.mate, si.score, si.depth, si.error[0] ? si.error : NULL};
            fn(g, &rm, ctx);
        }
    }
    free(moves.s);
    if (!res->termination)
        res->termination = pos_reason_name((EndReason)g->pos.reason);
    return 0;
}
