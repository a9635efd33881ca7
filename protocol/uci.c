/* uci.c - the command loop of PROTOCOL.md; see uci.h: each line handed to its
 * command, and the small commands (`position` and `go` are in go.c, perft
 * and legalmoves in moves.c, the options in options.c, the job thread in
 * job.c). Every command is
 * parsed completely before it changes anything, so a refused command leaves
 * the state as it was. */
#include "uci.h"

#include "bench.h"
#include "ccpcells.h"
#include "display.h"
#include "eval.h"
#include "fen.h"
#include "front.h"
#include "go.h"
#include "moves.h"
#include "options.h"
#include "solve.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The id and option lines that `uci` and `ccp` answer with. */
static void say_id_and_options(Front *fe)
{
    say(fe, "id name %s %s", STERN_NAME, STERN_VERSION);
    say(fe, "id author %s", STERN_AUTHORS);
    options_list(&fe->out);
}

/* A new game for the search: the table (made now when not yet), the history
 * and the kept MCTS tree cleared. */
static void new_game(Front *fe)
{
    engine_ready(fe->engine);
    session_new_game(fe->engine->session);
}

static void cmd_uci(Front *fe)
{
    if (fe->ccp && job_refuse_if_busy(fe, "uci")) /* the search thread reads fe->ccp */
        return;
    fe->ccp = false;
    say_id_and_options(fe);
    say(fe, "uciok");
}

/* `ccp`: speak CCP from now on, in its rules (a new game of ccerl-2). */
static void cmd_ccp(Front *fe)
{
    if (job_refuse_if_busy(fe, "ccp"))
        return;
    Game *g = malloc(sizeof *g);
    if (!g || game_new(g, CCP_VARIANT)) {
        free(g);
        say(fe, "info string error ccp: out of memory");
        return;
    }
    fe->ccp = true;
    engine_set_game(fe->engine, g);
    new_game(fe); /* a new game, as after ucinewgame */
    say_id_and_options(fe);
    say(fe, "ccpok");
}

/* `setoption name <id> [value <x>]`: the words up to the first `value` (any
 * case) are the name, the rest the value; options.c checks and sets it. */
static void cmd_setoption(Front *fe, const Tokens *tk)
{
    if (job_refuse_if_busy(fe, "setoption"))
        return;
    int vi = -1;
    for (int i = 2; i < tk->n; i++)
        if (!strcasecmp(tk->t[i], "value")) {
            vi = i;
            break;
        }
    if (tk->n < 3 || strcasecmp(tk->t[1], "name")) {
        say(fe, "info string error setoption: expected 'setoption name <id> [value <x>]'");
        return;
    }
    char name[256], value[256];
    if (!words_join(tk, 2, vi < 0 ? tk->n : vi, name, sizeof name) ||
        !words_join(tk, vi < 0 ? tk->n : vi + 1, tk->n, value, sizeof value)) {
        say(fe, "info string error setoption: name or value longer than %zu characters", sizeof name - 1);
        return;
    }
    char why[OPTION_WHY_MAX];
    if (options_set(fe->engine, name, value, why))
        say(fe, "info string error setoption: %s", why);
}

static void cmd_ucinewgame(Front *fe)
{
    if (job_refuse_if_busy(fe, "ucinewgame"))
        return;
    new_game(fe);
    game_new(fe->engine->game, fe->engine->game->v->name);
}

static void cmd_d(Front *fe)
{
    const Position *p = &fe->engine->game->pos;
    char buf[DISPLAY_MAX], fen[FEN_MAX];
    const int bottom = p->stm >= 0 ? p->stm : fe->engine->game->v->seats[0];
    display_board(p, bottom, buf);
    fputs(buf, output_begin(&fe->out));
    output_end(&fe->out);
    say(fe, "Fen: %s", fen_write(p, fen));
    say(fe, "Variant: %s", fe->engine->game->v->name);
    say(fe, "Side to move: %c", p->stm >= 0 ? variant_seat_letter(p->stm) : '-');
    say(fe, "Key: %016" PRIx64, p->key);
    /* each seat's way to go (RULES.md section 6: the ranking's measures), or
     * in capture mode its captures */
    const Variant *v = fe->engine->game->v;
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
        say(fe, "Captures:%s", dist);
    } else {
        say(fe, "Distance to target:%s", dist);
        say(fe, "In target:%s", in);
    }
    if (pos_over(p))
        say(fe, "Status: over (%s)", pos_reason_name((EndReason)p->reason));
    else
        say(fe, "Status: ongoing, round %d, position seen %d time(s)", p->round, game_occurrences(fe->engine->game));
}

static void cmd_eval(Front *fe)
{
    const Position *p = &fe->engine->game->pos;
    const Variant *v = fe->engine->game->v;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        const EvalTerms t = eval_seat(p, s, NULL);
        if (pos_over(p))
            say(fe, "eval %c distance %d straggler %d deadline %d traffic %d material %d total %d",
                variant_seat_letter(s), t.distance, t.straggler, t.deadline, t.traffic, t.material, t.total);
        else
            say(fe, "eval %c distance %d straggler %d deadline %d traffic %d material %d total %d score %d",
                variant_seat_letter(s), t.distance, t.straggler, t.deadline, t.traffic, t.material, t.total,
                eval_for(p, s, NULL));
    }
    if (pos_over(p)) {
        say(fe, "eval score none (the game is over)");
        return;
    }
    say(fe, "eval score %d (side to move %c)", eval_for(p, p->stm, NULL), variant_seat_letter(p->stm));
    const Nnue *net = engine_net(fe->engine);
    NnueAcc *acc = net ? aligned_alloc(64, sizeof *acc) : NULL;
    if (acc) { /* what the searches play with (EvalFile) */
        nnue_refresh(net, p, acc);
        say(fe, "eval net %d (side to move %c; EvalFile %s)", nnue_output(net, acc, p), variant_seat_letter(p->stm),
            fe->engine->evalfile.file);
    }
    free(acc);
}

static void cmd_result(Front *fe)
{
    const Position *p = &fe->engine->game->pos;
    if (!pos_over(p)) {
        say(fe, "result ongoing");
        return;
    }
    char line[256];
    int n = snprintf(line, sizeof line, "result");
    for (int i = 0; i < fe->engine->game->v->nseats; i++) {
        const int s = fe->engine->game->v->seats[i];
        n += snprintf(line + n, sizeof line - (size_t)n, " %c:%d", variant_seat_letter(s), p->place[s]);
    }
    snprintf(line + n, sizeof line - (size_t)n, " reason %s", pos_reason_name((EndReason)p->reason));
    say(fe, "%s", line);
}

static void say_line(const char *line, void *ctx)
{
    Front *fe = ctx;
    say(fe, "%s", line);
}

/* bench's work on the job thread: the positions of variants the net serves
 * are evaluated by the net EvalFile gives classic-2 */
static void run_bench(Front *fe)
{
    SearchConfig c = fe->job.config;
    c.net = evalfile_net(&fe->engine->evalfile, variant_find("classic-2"), NULL, 0);
    bench_run(fe->engine->session, (int)fe->job.arg, &c, &fe->job.sig, say_line, fe);
}

/* bench runs on the job thread like perft: stop and quit end it. */
static void cmd_bench(Front *fe, const Tokens *tk)
{
    long long depth = BENCH_DEFAULT_DEPTH;
    if (tk->n > 2 || (tk->n == 2 && !words_int(tk->t[1], 1, MAX_PLY - 1, &depth))) {
        say(fe, "info string error bench: expected 'bench [depth]'");
        return;
    }
    if (job_refuse_if_busy(fe, "bench"))
        return;
    fe->job.config = fe->engine->config;
    job_start_tool(fe, run_bench, depth);
}

static void run_solve(Front *fe)
{
    solve_run(fe->job.game, (uint64_t)fe->job.arg, &fe->job.sig.stop, say_line, fe);
}

/* `solve [nodes <n>]`: each seat's fewest own moves to arrive (solve.h), on
 * the search thread like perft: stop and quit end it. */
static void cmd_solve(Front *fe, const Tokens *tk)
{
    long long nodes = SOLVE_DEFAULT_NODES;
    if (tk->n != 1 && (tk->n != 3 || strcmp(tk->t[1], "nodes") || !words_int(tk->t[2], 1, INT64_MAX, &nodes))) {
        say(fe, "info string error solve: expected 'solve [nodes <n>]'");
        return;
    }
    if (job_refuse_if_busy(fe, "solve"))
        return;
    if (fe->engine->game->v->capture || pos_over(&fe->engine->game->pos)) {
        say(fe, "info string error solve: %s", fe->engine->game->v->capture ? "capture mode has no race to solve"
                                                                   : "the game is over");
        return;
    }
    job_start_tool(fe, run_solve, nodes);
}

/* `debug [on|off]` (UCI): accepted; Stern has no debug output of its own to
 * switch, its info strings are always on. Another word is refused. */
static void cmd_debug(Front *fe, const Tokens *tk)
{
    char q[QUOTE_BUF], q1[QUOTE_BUF];
    if (tk->n == 2 && strcmp(tk->t[1], "on") && strcmp(tk->t[1], "off"))
        say(fe, "info string error debug: expected 'debug [on|off]', got '%s'", words_quote(tk->t[1], q));
    else if (tk->n > 2)
        say(fe, "info string error debug: expected 'debug [on|off]', got '%s' after '%s'", words_quote(tk->t[2], q),
            words_quote(tk->t[1], q1));
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
static bool handle(Front *fe, Line *l)
{
    if (l->huge) {
        say(fe, "info string error line refused: longer than %u bytes, or out of memory", INPUT_LINE_MAX);
        return true;
    }
    if (l->nul) {
        say(fe, "info string error line refused: it holds a NUL byte");
        return true;
    }
    if (l->bad) {
        say(fe, "info string error line refused: byte 0x%02x at column %d (the protocol is printable ASCII)",
            (unsigned char)l->text[l->bad - 1], l->bad);
        return true;
    }
    if (!words_tokenize(l->text, &fe->tk)) {
        say(fe, "info string error line refused: more than %d tokens", MAX_TOKENS);
        return true;
    }
    if (!fe->tk.n)
        return true;
    const char *c = fe->tk.t[0];
    if (fe->tk.n > 1 && takes_no_arguments(c)) {
        char q[QUOTE_BUF];
        say(fe, "info string error %s takes no arguments (got '%s')", c, words_quote(fe->tk.t[1], q));
        if (!strcmp(c, "isready")) /* a GUI waits for it: the words after are dropped */
            say(fe, "readyok");
        return true;
    }
    if (!strcmp(c, "quit")) {
        job_stop(fe);
        return false;
    }
    /* perft, legalmoves and bench answer before any later command but stop and quit */
    if (strcmp(c, "stop"))
        job_finish_tool(fe);
    /* a query keeps its place in line: during a search that ends by itself it
     * waits for the bestmove, as every other command does; during go infinite
     * or an unanswered go ponder it is answered at once (it cannot disturb the
     * analysis, and job_settle returns at once then) */
    if (is_query(c))
        job_settle(fe);
    if (!strcmp(c, "isready")) {
        if (!fe->job.running) /* the session is the search thread's while it searches */
            engine_ready(fe->engine);
        say(fe, "readyok");
    }
    else if (!strcmp(c, "stop"))
        job_stop(fe);
    else if (!strcmp(c, "ponderhit"))
        job_ponderhit(fe);
    else if (!strcmp(c, "uci"))
        cmd_uci(fe);
    else if (!strcmp(c, "ccp"))
        cmd_ccp(fe);
    else if (!strcmp(c, "protocol"))
        say(fe, "protocol %s", fe->ccp ? "ccp 1" : "uci");
    else if (!strcmp(c, "setoption"))
        cmd_setoption(fe, &fe->tk);
    else if (!strcmp(c, "ucinewgame"))
        cmd_ucinewgame(fe);
    else if (!strcmp(c, "position"))
        go_position(fe, &fe->tk);
    else if (!strcmp(c, "go"))
        go_command(fe, &fe->tk);
    else if (!strcmp(c, "d"))
        cmd_d(fe);
    else if (!strcmp(c, "perft"))
        moves_perft(fe, &fe->tk);
    else if (!strcmp(c, "legalmoves"))
        moves_legal(fe);
    else if (!strcmp(c, "eval"))
        cmd_eval(fe);
    else if (!strcmp(c, "result"))
        cmd_result(fe);
    else if (!strcmp(c, "bench"))
        cmd_bench(fe, &fe->tk);
    else if (!strcmp(c, "solve"))
        cmd_solve(fe, &fe->tk);
    else if (!strcmp(c, "debug"))
        cmd_debug(fe, &fe->tk);
    else if (!strcmp(c, "register"))
        ; /* UCI's registration: Stern needs none, so every form is accepted */
    else {
        char q[QUOTE_BUF];
        say(fe, "info string error unknown command '%s'", words_quote(c, q));
    }
    return true;
}

/* Sets option `opt` ("NAME=VALUE") as `setoption name NAME value VALUE` would,
 * its answer caught: false, with what the engine said on err, when refused. */
static bool preset_option(Front *fe, const char *opt, FILE *err)
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
    Line *l = n > 0 ? input_line_new(text, (size_t)n) : NULL;
    free(text);
    FILE *const kept = fe->out.f;
    fe->out.f = out;
    if (l)
        handle(fe, l);
    fe->out.f = kept;
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
    Front *fe = front_new(in_fd, out, ccp);
    if (!fe)
        return 1;
    int status = 0;
    for (int i = 0; i < noptions && !status; i++)
        if (!preset_option(fe, options[i], err))
            status = 2;
    for (Line *l; !status && (l = input_next(&fe->in));) {
        const bool go_on = handle(fe, l);
        free(l);
        if (!go_on)
            break;
    }
    job_end_of_input(fe);
    front_delete(fe);
    return status;
}
