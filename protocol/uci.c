/* uci.c - the command loop of PROTOCOL.md; see uci.h: each line handed to its
 * command, and the small commands (`position` and `go` are in go.c, the
 * options in options.c, the jobs on the job thread in job.c). Every command is
 * parsed completely before it changes anything, so a refused command leaves
 * the state as it was. */
#include "uci.h"

#include "bench.h"
#include "ccpcells.h"
#include "display.h"
#include "engine.h"
#include "eval.h"
#include "fen.h"
#include "go.h"
#include "options.h"
#include "solve.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The id and option lines that `uci` and `ccp` answer with. */
static void say_id_and_options(Engine *e)
{
    say(e, "id name %s %s", STERN_NAME, STERN_VERSION);
    say(e, "id author %s", STERN_AUTHORS);
    options_list(e);
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

/* `setoption name <id> [value <x>]`: the words up to the first `value` (any
 * case) are the name, the rest the value; options.c checks and sets it. */
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
    option_set(e, name, value);
}

static void cmd_ucinewgame(Engine *e)
{
    if (job_refuse_if_busy(e, "ucinewgame"))
        return;
    new_game(e);
    game_new(e->game, e->game->v->name);
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
    if (pos_over(p)) {
        say(e, "eval score none (the game is over)");
        return;
    }
    say(e, "eval score %d (side to move %c)", eval_for(p, p->stm, NULL), variant_seat_letter(p->stm));
    char note[EVALFILE_NOTE_MAX];
    const Nnue *net = evalfile_net(&e->evalfile, v, note, sizeof note);
    if (note[0])
        say(e, "info string %s", note);
    NnueAcc *acc = net ? aligned_alloc(64, sizeof *acc) : NULL;
    if (acc) { /* what the searches play with (EvalFile) */
        nnue_refresh(net, p, acc);
        say(e, "eval net %d (side to move %c; EvalFile %s)", nnue_output(net, acc, p), variant_seat_letter(p->stm),
            e->evalfile.file);
    }
    free(acc);
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

/* `debug [on|off]` (UCI): accepted; Stern has no debug output of its own to
 * switch, its info strings are always on. Another word is refused. */
static void cmd_debug(Engine *e, const Tokens *tk)
{
    char q[QUOTE_BUF], q1[QUOTE_BUF];
    if (tk->n == 2 && strcmp(tk->t[1], "on") && strcmp(tk->t[1], "off"))
        say(e, "info string error debug: expected 'debug [on|off]', got '%s'", word_quote(tk->t[1], q));
    else if (tk->n > 2)
        say(e, "info string error debug: expected 'debug [on|off]', got '%s' after '%s'", word_quote(tk->t[2], q),
            word_quote(tk->t[1], q1));
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

/* The queries that change nothing: d, eval, result, protocol. */
static bool is_query(const char *c)
{
    return !strcmp(c, "d") || !strcmp(c, "eval") || !strcmp(c, "result") || !strcmp(c, "protocol");
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
        char q[QUOTE_BUF];
        say(e, "info string error %s takes no arguments (got '%s')", c, word_quote(e->tk.t[1], q));
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
    /* a query keeps its place in line: during a search that ends by itself it
     * waits for the bestmove, as every other command does; during go infinite
     * or an unanswered go ponder it is answered at once (it cannot disturb the
     * analysis, and job_settle returns at once then) */
    if (is_query(c))
        job_settle(e);
    if (!strcmp(c, "isready")) {
        if (!e->job.running) /* the session is the search thread's while it searches */
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
    else if (!strcmp(c, "debug"))
        cmd_debug(e, &e->tk);
    else if (!strcmp(c, "register"))
        ; /* UCI's registration: Stern needs none, so every form is accepted */
    else {
        char q[QUOTE_BUF];
        say(e, "info string error unknown command '%s'", word_quote(c, q));
    }
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
