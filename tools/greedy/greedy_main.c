/*
 * greedy_main.c - stern-greedy: a tiny protocol engine (PROTOCOL.md) that plays the
 * one-ply greedy policy of engine/eval/greedy.h (the legal move with the best
 * one-ply evaluation, or the place the move secures, ties going to the first
 * move in generation order). It is deterministic and fast, a fixed anchor for
 * ratings.
 *
 * Test modes make it a faulty engine for the arena's fault tests: crash, send an
 * illegal move, hang (stop reading and answering) or think too long, at a chosen
 * `go` (counted from the start of the process, so a restarted engine fails again
 * at the same move of its next game). -random plays uniformly random legal moves,
 * a weaker anchor.
 */
#include "eval.h"
#include "fen.h"
#include "game.h"
#include "greedy.h"
#include "line.h"
#include "notation.h"
#include "rng.h"

#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define ENGINE_NAME "Greedy"
#define HANG_POLL_MS 100 /* how often a hung engine looks whether its parent is gone */
#define CRASH_STATUS 3   /* exit status of -crash-at */

static const char usage[] =
    "usage: stern-greedy [options]   (a protocol engine on stdin/stdout)\n"
    "  -name NAME       the `id name` to announce (default " ENGINE_NAME ")\n"
    "  -random SEED     play uniformly random legal moves drawn with SEED\n"
    "test modes (N counts `go` commands from the start of the process, from 1):\n"
    "  -crash-at N      exit with status 3 instead of answering the N-th go\n"
    "  -illegal-at N    answer the N-th go with an illegal move\n"
    "  -hang-at N       at the N-th go stop reading and answering (until killed)\n"
    "  -sleep-ms MS     wait MS ms before answering every go\n";

typedef struct {
    char name[64];
    bool random;
    uint64_t seed;
    long crash_at, illegal_at, hang_at, sleep_ms;
} Options;

typedef struct {
    Options o;
    Game game;
    char *last_position;   /* the last `position` line accepted, to parse only new moves */
    long gos;              /* `go` commands received */
} Greedy;

/* ---- choosing a move ---- */

/* Picks the move to play; returns false when there is none. */
static bool choose(Greedy *gr, Move *best, int *value)
{
    static MoveList list;
    const Game *g = &gr->game;
    if (!gr->o.random)
        return greedy_choose(&g->pos, g->keys, g->nplies + 1, &list, NULL, NULL, best, value);
    gen_moves(&g->pos, &list, NULL);
    if (!list.n)
        return false;
    *best = list.m[rng_mmix(&gr->o.seed) % (unsigned)list.n];
    *value = 0;
    return true;
}

/* ---- commands ---- */

/* Stops reading and answering until the parent is gone (then exits), so a test
 * can see a hung engine killed, and no hung engine outlives its tournament. */
static void hang(void)
{
    const pid_t parent = getppid();
    while (getppid() == parent)
        poll(NULL, 0, HANG_POLL_MS);
    exit(0);
}

static void cmd_go(Greedy *gr)
{
    gr->gos++;
    if (gr->o.crash_at == gr->gos)
        exit(CRASH_STATUS);
    if (gr->o.hang_at == gr->gos)
        hang();
    if (gr->o.sleep_ms > 0) {
        const struct timespec ts = {gr->o.sleep_ms / 1000, gr->o.sleep_ms % 1000 * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (gr->o.illegal_at == gr->gos) {
        line_print("bestmove e17-m1");
        return;
    }
    Move m;
    int value;
    if (pos_over(&gr->game.pos) || !choose(gr, &m, &value)) {
        line_print("bestmove (none)");
        return;
    }
    char text[MOVE_STR_MAX];
    if (value >= SCORE_MATE_BOUND || value <= -SCORE_MATE_BOUND)
        line_print("info depth 1 score mate %d nodes 1 time 0", value > 0 ? 1 : -1);
    else
        line_print("info depth 1 score cp %d nodes 1 time 0", value);
    line_print("bestmove %s", move_str(&gr->game.pos, &m, text));
}

/* Plays the moves in the space-separated list `moves` on g. Returns 0, or -1 with
 * the reason in err. */
static int play_moves(Game *g, char *moves, char *err, size_t n)
{
    char *save = NULL;
    int index = 0;
    for (char *t = strtok_r(moves, " \t", &save); t; t = strtok_r(NULL, " \t", &save), index++) {
        Move m;
        char why[256];
        if (pos_over(&g->pos)) {
            snprintf(err, n, "move %d '%s': the game is over", index, t);
            return -1;
        }
        if (move_parse(&g->pos, t, &m, why, sizeof why) || game_play(g, &m)) {
            snprintf(err, n, "move %d '%s': %s", index, t, why);
            return -1;
        }
    }
    return 0;
}

/* `position startpos|fen <fen> [moves ...]`. A line that extends the last one
 * accepted only plays the new moves. */
static void cmd_position(Greedy *gr, const char *line)
{
    static Game g;
    char err[512];
    const size_t last = gr->last_position ? strlen(gr->last_position) : 0;
    char *copy = strdup(line);
    if (!copy)
        return;
    char *moves = NULL;
    int rc = 0;
    if (last && !strncmp(line, gr->last_position, last) && line[last] == ' ' && strstr(gr->last_position, " moves")) {
        g = gr->game;
        moves = copy + last;
    } else {
        g = gr->game;
        game_new(&g, gr->game.v->name);
        char *rest = copy + strlen("position");
        rest += strspn(rest, " \t");
        char *mv = strstr(rest, " moves");
        if (mv) {
            *mv = '\0';
            moves = mv + strlen(" moves");
        }
        if (!strncmp(rest, "fen ", 4))
            rc = game_set_fen(&g, rest + 4, err, sizeof err);
        else if (strncmp(rest, "startpos", 8)) {
            snprintf(err, sizeof err, "expected 'position startpos|fen <fen> [moves ...]'");
            rc = -1;
        }
    }
    if (!rc && moves)
        rc = play_moves(&g, moves, err, sizeof err);
    free(copy);
    if (rc) {
        line_print("info string error position: %s", err);
        return;
    }
    gr->game = g;
    free(gr->last_position);
    gr->last_position = strdup(line);
}

static void cmd_uci(const Greedy *gr)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "option name Variant type combo default classic-2");
    for (int i = 0; i < NUM_VARIANT_NAMES; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " var %s", variant_names[i]);
    line_print("id name %s", gr->o.name);
    line_print("id author the Stern authors");
    line_print("%s", line);
    line_print("uciok");
}

static void forget_position(Greedy *gr)
{
    free(gr->last_position);
    gr->last_position = NULL;
}

static void cmd_setoption(Greedy *gr, const char *line)
{
    const char *name = strstr(line, " name ");
    const char *value = strstr(line, " value ");
    if (!name || !value || strncasecmp(name + 6, "Variant ", 8)) {
        line_print("info string error setoption: only 'setoption name Variant value <variant>' is known");
        return;
    }
    if (game_new(&gr->game, value + 7 + strspn(value + 7, " \t"))) {
        line_print("info string error setoption: unknown variant '%s'", value + 7);
        return;
    }
    forget_position(gr);
}

/* Handles one line; returns false on `quit`. */
static bool handle(Greedy *gr, char *line)
{
    line[strcspn(line, "\r\n")] = '\0';
    line += strspn(line, " \t");
    char word[32];
    if (sscanf(line, "%31s", word) != 1)
        return true;
    if (!strcmp(word, "uci"))
        cmd_uci(gr);
    else if (!strcmp(word, "isready"))
        line_print("readyok");
    else if (!strcmp(word, "setoption"))
        cmd_setoption(gr, line);
    else if (!strcmp(word, "ucinewgame")) {
        game_new(&gr->game, gr->game.v->name);
        forget_position(gr);
    } else if (!strcmp(word, "position"))
        cmd_position(gr, line);
    else if (!strcmp(word, "go"))
        cmd_go(gr);
    else if (!strcmp(word, "quit"))
        return false;
    else if (strcmp(word, "stop") && strcmp(word, "ponderhit"))
        line_print("info string error unknown command '%s'", word);
    return true;
}

static long option_number(const char *flag, const char *val)
{
    char *end;
    const long x = val ? strtol(val, &end, 10) : 0;
    if (!val || end == val || *end || x < 0) {
        fprintf(stderr, "stern-greedy: %s needs a number >= 0\n%s", flag, usage);
        exit(2);
    }
    return x;
}

static void parse_options(Options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%s", ENGINE_NAME);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        }
        if (!val) {
            fprintf(stderr, "stern-greedy: unknown option or missing value '%s'\n%s", a, usage);
            exit(2);
        }
        i++;
        if (!strcmp(a, "-name"))
            snprintf(o->name, sizeof o->name, "%s", val);
        else if (!strcmp(a, "-random")) {
            o->random = true;
            o->seed = (uint64_t)option_number(a, val);
        } else if (!strcmp(a, "-crash-at"))
            o->crash_at = option_number(a, val);
        else if (!strcmp(a, "-illegal-at"))
            o->illegal_at = option_number(a, val);
        else if (!strcmp(a, "-hang-at"))
            o->hang_at = option_number(a, val);
        else if (!strcmp(a, "-sleep-ms"))
            o->sleep_ms = option_number(a, val);
        else {
            fprintf(stderr, "stern-greedy: unknown option '%s'\n%s", a, usage);
            exit(2);
        }
    }
}

int main(int argc, char **argv)
{
    static Greedy gr;
    parse_options(&gr.o, argc, argv);
    game_new(&gr.game, "classic-2");
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) >= 0)
        if (!handle(&gr, line))
            break;
    free(line);
    forget_position(&gr);
    return 0;
}
