/*
 * play_main.c - stern-play: whole games between engine processes through the
 * protocol, refereed with the rules library, printed move by move, with the game
 * record (PGN) and a result line at the end. `make play` runs it with no arguments:
 * one classic-2 game of the stern binary next to it against itself.
 */
#include "board.h"
#include "display.h"
#include "engine_proc.h"
#include "fen.h"
#include "record.h"
#include "referee.h"
#include "rng.h"
#include "time_control.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_VARIANT "classic-2"
#define DEFAULT_MOVETIME_MS 200
#define HANDSHAKE_TIMEOUT_MS 10000 /* for `uciok`, and again for `readyok` */
#define QUIT_GRACE_MS 1000         /* after `quit`, before SIGKILL */
#define ENGINE_NAME "stern"        /* the engine binary, next to this tool */

static const char usage[] =
    "usage: stern-play [options]\n"
    "  -variant NAME   variant to play (default " DEFAULT_VARIANT ")\n"
    "  -engine CMD     engine command line (shell syntax); one process per seat. Repeat\n"
    "                  it to seat different engines; seats rotate every game.\n"
    "                  Default: the " ENGINE_NAME " binary next to this tool\n"
    "  -movetime MS    time per move, ms (default 200); late after MS + 2000\n"
    "  -tc [M/]S[+I]   a clock instead: S seconds per game (or per M moves, then S\n"
    "                  more), I seconds added per move\n"
    "  -games N        games to play (default 1)\n"
    "  -fen FEN        start position\n"
    "  -random N       start each game after N random legal moves (default 0), so\n"
    "                  that games between the same engines differ\n"
    "  -seed S         seed of the random moves (default 1); game g uses S + g\n"
    "  -pgnout FILE    append each game record to FILE\n"
    "  -board          print the star after every move (default when stdout is a terminal)\n"
    "  -noboard        never print the star\n"
    "  -quiet          print only one result line per game and the summary\n";

typedef struct {
    const char *variant, *fen, *pgnout;
    const char *cmds[MAX_SEATS];
    int ncmds, games, board, quiet, random_plies;
    unsigned seed;
    RefereeLimits lim;
    char time_control[64];
} Options;

/* ---- options ---- */

static int parse_int(const char *s, int min, const char *what)
{
    char *end;
    const long x = strtol(s, &end, 10);
    if (end == s || *end || x < min || x > INT_MAX) {
        fprintf(stderr, "stern-play: bad %s '%s'\n", what, s);
        exit(2);
    }
    return (int)x;
}

/* -tc: the clock of time_control.h, no grace past it (as cutechess). */
static void parse_tc(Options *o, const char *s)
{
    char why[256];
    if (time_control_parse(s, &o->lim, why, sizeof why)) {
        fprintf(stderr, "stern-play: bad -tc %s\n", why);
        exit(2);
    }
    o->lim.margin_ms = 0;
    time_control_text(&o->lim, o->time_control, sizeof o->time_control);
}

static void parse_options(Options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->variant = DEFAULT_VARIANT;
    o->games = 1;
    o->board = -1;
    o->seed = 1;
    o->lim = (RefereeLimits){DEFAULT_MOVETIME_MS, 0, 0, REF_MOVETIME_MARGIN_MS, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        const bool takes = !strcmp(a, "-variant") || !strcmp(a, "-engine") || !strcmp(a, "-movetime") ||
                           !strcmp(a, "-tc") || !strcmp(a, "-games") || !strcmp(a, "-fen") || !strcmp(a, "-pgnout") ||
                           !strcmp(a, "-random") || !strcmp(a, "-seed");
        if (takes && !val) {
            fprintf(stderr, "stern-play: %s needs a value\n%s", a, usage);
            exit(2);
        }
        if (takes)
            i++;
        if (!strcmp(a, "-variant"))
            o->variant = val;
        else if (!strcmp(a, "-engine")) {
            if (o->ncmds == MAX_SEATS) {
                fprintf(stderr, "stern-play: at most %d -engine options\n", MAX_SEATS);
                exit(2);
            }
            o->cmds[o->ncmds++] = val;
        } else if (!strcmp(a, "-movetime")) {
            o->lim.movetime_ms = parse_int(val, 1, "-movetime");
            o->lim.margin_ms = REF_MOVETIME_MARGIN_MS;
        } else if (!strcmp(a, "-tc"))
            parse_tc(o, val);
        else if (!strcmp(a, "-games"))
            o->games = parse_int(val, 1, "-games");
        else if (!strcmp(a, "-fen"))
            o->fen = val;
        else if (!strcmp(a, "-random"))
            o->random_plies = parse_int(val, 0, "-random");
        else if (!strcmp(a, "-seed"))
            o->seed = (unsigned)parse_int(val, 0, "-seed");
        else if (!strcmp(a, "-pgnout"))
            o->pgnout = val;
        else if (!strcmp(a, "-board"))
            o->board = 1;
        else if (!strcmp(a, "-noboard"))
            o->board = 0;
        else if (!strcmp(a, "-quiet"))
            o->quiet = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        } else {
            fprintf(stderr, "stern-play: unknown option '%s'\n%s", a, usage);
            exit(2);
        }
    }
    if (o->board < 0)
        o->board = isatty(STDOUT_FILENO);
    if (o->quiet)
        o->board = 0;
    if (o->lim.movetime_ms > 0)
        snprintf(o->time_control, sizeof o->time_control, "%g/move", o->lim.movetime_ms / 1000.0);
}

/* The default engine: the stern binary in this tool's directory, quoted for the
 * shell when its path needs it. */
static const char *default_engine(const char *argv0, char *buf, size_t n)
{
    char self[PATH_MAX];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0)
        self[len] = '\0';
    else
        snprintf(self, sizeof self, "%s", argv0);
    const char *dir = dirname(self);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/%s", dir, ENGINE_NAME);
    if (access(path, X_OK)) {
        fprintf(stderr, "stern-play: no engine at %s: build it with `make`, or name one with -engine CMD\n", path);
        exit(1);
    }
    if (!strpbrk(path, " \t\n'\"\\$`;&|<>()*?[]#~=%{}!")) {
        snprintf(buf, n, "%s", path);
        return buf;
    }
    size_t k = 0; /* single-quote the path: 'a'\''b' */
    buf[k++] = '\'';
    for (const char *c = path; *c && k + 5 < n; c++) {
        if (*c == '\'') {
            memcpy(buf + k, "'\\''", 4);
            k += 4;
        } else
            buf[k++] = *c;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
    return buf;
}

/* ---- engines ---- */

typedef struct {
    EngineProc proc;
    const char *cmd;
    char label[160]; /* `id name`, or the command */
} Player;

static int start_player(Player *pl, const char *variant)
{
    const EngineOption opt = {"Variant", variant};
    if (ep_start(&pl->proc, pl->cmd, -1) || ep_handshake(&pl->proc, &opt, 1, HANDSHAKE_TIMEOUT_MS)) {
        char how[128];
        ep_reap(&pl->proc, 100);
        fprintf(stderr, "stern-play: engine '%s' failed to start: %s (%s)\n", pl->cmd, pl->proc.error,
                ep_exit_desc(&pl->proc, how, sizeof how));
        ep_kill(&pl->proc);
        return -1;
    }
    snprintf(pl->label, sizeof pl->label, "%s", pl->proc.name[0] ? pl->proc.name : pl->cmd);
    return 0;
}

/* ---- output ---- */

/* Prints the star, white at the bottom (display_board: each line ends with the
 * names of its end holes, to help read the moves). */
static void print_board(const Position *p)
{
    char diagram[DISPLAY_MAX];
    fputs(display_board(p, SEAT_WHITE, diagram), stdout);
    printf("\n");
}

typedef struct {
    const Options *o;
    char **comments; /* per ply, for the record */
} Show;

static void show_move(const Game *g, const RefereeMove *m, void *ctx)
{
    Show *sh = ctx;
    char score[48] = "";
    if (m->has_score)
        snprintf(score, sizeof score, "score %s %d", m->mate ? "mate" : "cp", m->score);
    char comment[REFEREE_COMMENT_MAX]; /* cutechess style: {+0.47/12 0.201s} */
    referee_move_comment(m, comment, sizeof comment);
    sh->comments[m->ply] = strdup(comment);
    if (m->engine_error) /* the move was legal, but the engine refused something */
        fprintf(stderr, "stern-play: warning: engine of seat %c: %s\n", variant_seat_letter(m->seat),
                m->engine_error);
    if (sh->o->quiet)
        return;
    printf("%3d. %c  %-18s %-16s %5d ms", m->round, variant_seat_letter(m->seat), m->text, score, m->elapsed_ms);
    if (m->clock_ms >= 0)
        printf("  clock %d ms", m->clock_ms);
    printf("\n");
    if (sh->o->board)
        print_board(&g->pos);
    fflush(stdout);
}

/* Number of seats of g eliminated during the game (deadline, return home or, with
 * two seats, a loss by elimination); their letters in order into `letters`
 * (MAX_SEATS + 1 bytes). */
static int eliminated_seats(const Game *g, char *letters)
{
    int n = 0;
    for (int i = 0; i < g->v->nseats; i++)
        if (g->pos.status[g->v->seats[i]] == ST_ELIMINATED)
            letters[n++] = variant_seat_letter(g->v->seats[i]);
    letters[n] = '\0';
    return n;
}

/* The result line, like the engine's `result` command, after the forfeit if any;
 * `eliminated <seats>` appended when `elim` (eliminated_seats) is not empty. */
static void print_result(const Game *g, const RefereeResult *res, const char *elim, int game, bool quiet)
{
    char places[RECORD_PLACES_MAX];
    if (res->forfeit)
        printf("forfeit: seat %c, %s: %s\n", variant_seat_letter(res->seat), referee_forfeit_name(res->forfeit),
               res->detail);
    if (quiet)
        printf("game %d: ", game);
    printf("result %s reason %s", record_places(&g->pos, places, sizeof places), res->termination);
    if (*elim)
        printf(" eliminated %s", elim);
    printf("\n");
    fflush(stdout);
}

/* ---- the match ---- */

typedef struct {
    int games, wins, place_sum; /* per seat */
} SeatScore;

typedef struct {
    const Options *o;
    int nseats;
    Player players[MAX_SEATS]; /* one process per seat slot */
    FILE *pgn;
    SeatScore score[MAX_SEATS];
    int elim_games;            /* games in which a seat was eliminated */
    char *comments[GAME_MAX_PLIES]; /* of the game in progress, per ply */
} Match;

/* Sets up game number `index` in g: the variant's start, or -fen (checked in
 * main), then -random legal moves drawn with seed + index; the position reached
 * becomes the game's start (its record carries the FEN). */
static void new_game(Game *g, const Options *o, int index)
{
    char err[256];
    game_new(g, o->variant);
    if (o->fen)
        game_set_fen(g, o->fen, err, sizeof err);
    if (!o->random_plies)
        return;
    unsigned state = o->seed + (unsigned)index;
    static MoveList list;
    for (int i = 0; i < o->random_plies && !pos_over(&g->pos); i++) {
        gen_moves(&g->pos, &list, NULL);
        game_play(g, &list.m[rng_ansi(&state) % (unsigned)list.n]);
    }
    g->start = g->pos;
    g->nplies = 0;
    g->keys[0] = g->pos.key;
}

static void print_header(const Match *m, const Game *g, int game, const char *const names[MAX_SEATS])
{
    printf("game %d of %d: %s", game + 1, m->o->games, g->v->name);
    for (int i = 0; i < m->nseats; i++)
        printf("%s%c=%s", i ? ", " : " - ", variant_seat_letter(g->v->seats[i]), names[g->v->seats[i]]);
    printf(" (%s)\n", m->o->time_control);
    if (m->o->board)
        print_board(&g->pos);
    fflush(stdout);
}

static void write_record(Match *m, const Game *g, int game, const char *const names[MAX_SEATS],
                         const RefereeResult *res)
{
    char date[16], round[16];
    snprintf(round, sizeof round, "%d", game + 1);
    RecordTags tags = {.event = "stern-play", .site = "?", .date = record_today(date), .round = round,
                       .time_control = m->o->time_control, .termination = res->termination,
                       .comments = (const char *const *)m->comments};
    memcpy(tags.players, names, sizeof tags.players);
    if (!m->o->quiet) {
        printf("\n");
        record_write(stdout, g, &tags);
    }
    if (m->pgn && record_write(m->pgn, g, &tags))
        fprintf(stderr, "stern-play: writing %s failed\n", m->o->pgnout);
}

/* Plays game number `game` (from 0); seats rotate over the processes every game.
 * Returns 0, or -1 when an engine cannot go on. */
static int play_game(Match *m, Game *g, int game)
{
    new_game(g, m->o, game);
    EngineProc *procs[MAX_SEATS] = {0};
    const char *names[MAX_SEATS] = {0};
    Player *seated[MAX_SEATS] = {0};
    for (int i = 0; i < m->nseats; i++) {
        const int s = g->v->seats[i];
        seated[s] = &m->players[(i + game) % m->nseats];
        procs[s] = &seated[s]->proc;
        names[s] = seated[s]->label;
    }
    if (!m->o->quiet)
        print_header(m, g, game, names);
    Show sh = {m->o, m->comments};
    RefereeResult res;
    if (referee_play(g, procs, &m->o->lim, show_move, &sh, &res)) {
        fprintf(stderr, "stern-play: game %d could not start: %s\n", game + 1, res.detail);
        return -1;
    }
    write_record(m, g, game, names, &res);
    char elim[MAX_SEATS + 1];
    m->elim_games += eliminated_seats(g, elim) > 0;
    print_result(g, &res, elim, game + 1, m->o->quiet);
    for (int i = 0; i < m->nseats; i++) {
        const int s = g->v->seats[i];
        m->score[s].games++;
        m->score[s].wins += g->pos.place[s] == 1;
        m->score[s].place_sum += g->pos.place[s];
    }
    for (int i = 0; i < g->nplies; i++) {
        free(m->comments[i]);
        m->comments[i] = NULL;
    }
    if (!res.forfeit)
        return 0;
    Player *offender = seated[res.seat]; /* may still be searching: a fresh process */
    ep_kill(&offender->proc);
    return start_player(offender, g->v->name);
}

static void print_summary(const Match *m, const Variant *v)
{
    printf("summary of %d games by seat:\n", m->o->games);
    for (int i = 0; i < m->nseats; i++) {
        const int s = v->seats[i];
        const SeatScore *sc = &m->score[s];
        printf("  %c  first places %d  mean place %.2f\n", variant_seat_letter(s), sc->wins,
               sc->games ? (double)sc->place_sum / sc->games : 0.0);
    }
    printf("games with a seat eliminated: %d\n", m->elim_games);
}

static void quit_players(Match *m, int n)
{
    for (int i = 0; i < n; i++)
        ep_quit(&m->players[i].proc, QUIT_GRACE_MS);
}

/* Checks the options against the rules library; exits on a bad variant or FEN. */
static void check_setup(Game *g, const Options *o)
{
    char err[256];
    if (game_new(g, o->variant)) {
        fprintf(stderr, "stern-play: unknown variant '%s'\n", o->variant);
        exit(2);
    }
    if (o->fen && game_set_fen(g, o->fen, err, sizeof err)) {
        fprintf(stderr, "stern-play: bad -fen: %s\n", err);
        exit(2);
    }
    if (pos_over(&g->pos) || !gen_count(&g->pos, NULL)) {
        fprintf(stderr, "stern-play: the start position has no move to play\n");
        exit(2);
    }
    if (o->ncmds > g->v->nseats) {
        fprintf(stderr, "stern-play: %d engines for %d seats\n", o->ncmds, g->v->nseats);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    Options o;
    parse_options(&o, argc, argv);
    char dflt[PATH_MAX * 2];
    if (!o.ncmds)
        o.cmds[o.ncmds++] = default_engine(argv[0], dflt, sizeof dflt);
    static Game g;
    check_setup(&g, &o);
    static Match m;
    m.o = &o;
    m.nseats = g.v->nseats;
    ep_kill_children_on_signals();
    for (int i = 0; i < m.nseats; i++) {
        m.players[i].cmd = o.cmds[i % o.ncmds];
        if (start_player(&m.players[i], g.v->name)) {
            quit_players(&m, i);
            return 1;
        }
    }
    if (o.pgnout && !(m.pgn = fopen(o.pgnout, "a"))) {
        perror(o.pgnout);
        quit_players(&m, m.nseats);
        return 1;
    }
    int status = 0;
    for (int game = 0; game < o.games && !status; game++)
        status = play_game(&m, &g, game) ? 1 : 0;
    if (o.games > 1)
        print_summary(&m, g.v);
    quit_players(&m, m.nseats);
    if (m.pgn)
        fclose(m.pgn);
    return status;
}
