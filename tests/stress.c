/*
 * stress.c - stern-stress: random protocol sessions against the engine binary.
 *
 * Each session starts the engine, then sends a random mix of options, legal and
 * illegal positions (from random games of a random variant), every kind of `go`
 * limit, `stop` at random times, ponder and ponderhit, `ucinewgame`, perft and
 * legalmoves, junk lines, and ends with `quit` or end of input. It checks that
 * every `go` gets exactly one `bestmove`, legal by the rules library (its
 * ponder move too), that `isready` answers within a bound, that the engine's
 * memory stays within its Hash plus a fixed bound, and that it exits cleanly.
 * The first failure is printed with the session's seed and the line sent last;
 * the exit status is 1 then, 0 when every session passed.
 *
 * usage: stern-stress [--engine PATH] [--sessions N] [--seed S] [--ready-ms MS] [--progress N]
 * (--progress N: a summary line after every N sessions)
 */
#include "args.h"
#include "engine_proc.h"
#include "fen.h"
#include "game.h"
#include "notation.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ANSWER_MS 60000 /* a bestmove, perft or exit must come within this: else a hang */
#define PATIENCE_MS 5000 /* a limited go still searching then is stopped */
#define MEMORY_SPARE_MIB 512 /* memory allowed beyond the Hash (sanitizers take much) */

typedef struct {
    pid_t pid;
    int in, out; /* the engine's stdin (we write), stdout (we read) */
    char buf[1 << 16];
    size_t len;
    char last_sent[512];
    long long seed;
} Engine;

static long long sessions_done, gos, worst_ready_ms, peak_rss_mib, lines_sent;

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static int pick(int n) { return (int)(rnd() % (uint64_t)n); }

static Engine *current;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "stern-stress: FAIL (session seed %lld, last line sent '%s'): ", current ? current->seed : -1,
            current ? current->last_sent : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (current && current->pid > 0)
        kill(current->pid, SIGKILL);
    exit(1);
}

static void start(Engine *e, const char *path)
{
    int to[2], from[2];
    if (pipe(to) || pipe(from))
        fail("pipe: %s", strerror(errno));
    e->pid = fork();
    if (e->pid < 0)
        fail("fork: %s", strerror(errno));
    if (e->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    e->in = to[1];
    e->out = from[0];
    e->len = 0;
    signal(SIGPIPE, SIG_IGN);
}

static void send_line(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void send_line(Engine *e, const char *fmt, ...)
{
    char line[65536];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    snprintf(e->last_sent, sizeof e->last_sent, "%.*s", n, line);
    if (getenv("STRESS_TRACE"))
        fprintf(stderr, "> %.*s\n", n, line);
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        const ssize_t w = write(e->in, line + off, (size_t)(n - off));
        if (w <= 0)
            fail("the engine stopped reading (write: %s)", strerror(errno));
        off += (int)w;
    }
    lines_sent++;
}

/* The next line within ms into *line (static); false on timeout. EOF fails. */
static bool read_line(Engine *e, int ms, char **line)
{
    static char out[sizeof e->buf + 1];
    const long long end = now_ms() + ms;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            const size_t n = (size_t)(nl - e->buf);
            memcpy(out, e->buf, n);
            out[n] = 0;
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            *line = out;
            return true;
        }
        if (e->len == sizeof e->buf)
            fail("an output line longer than %zu bytes", sizeof e->buf);
        const long long left = end - now_ms();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = e->out, .events = POLLIN};
        if (poll(&p, 1, (int)left) <= 0)
            continue;
        const ssize_t r = read(e->out, e->buf + e->len, sizeof e->buf - e->len);
        if (r <= 0) {
            int st = 0;
            waitpid(e->pid, &st, 0);
            e->pid = -1;
            fail("the engine closed its output (status 0x%x)", st);
        }
        e->len += (size_t)r;
    }
}

/* Reads until a line starting with `prefix`; returns it (static). Counts the
 * other lines starting with `count_prefix` into *count when given. */
static char *expect(Engine *e, const char *prefix, int ms, const char *count_prefix, int *count)
{
    const long long end = now_ms() + ms;
    for (;;) {
        char *l;
        const long long left = end - now_ms();
        if (left <= 0 || !read_line(e, (int)left, &l))
            fail("no '%s' within %d ms", prefix, ms);
        if (!strncmp(l, prefix, strlen(prefix)))
            return l;
        if (count_prefix && count && !strncmp(l, count_prefix, strlen(count_prefix)))
            (*count)++;
    }
}

static char last_error[512];

/* isready, then readyok within ready_ms; returns the number of error lines
 * that came before it (the last kept in last_error). */
static int sync_ready(Engine *e, int ready_ms)
{
    const long long t0 = now_ms();
    send_line(e, "isready");
    int bestmoves = 0, errors = 0;
    for (char *l;;) {
        if (!read_line(e, ANSWER_MS, &l))
            fail("no readyok within %d ms", ANSWER_MS);
        if (!strcmp(l, "readyok"))
            break;
        bestmoves += !strncmp(l, "bestmove", 8);
        if (!strncmp(l, "info string error", 17)) {
            errors++;
            snprintf(last_error, sizeof last_error, "%s", l);
        }
    }
    const long long dt = now_ms() - t0;
    if (bestmoves)
        fail("a bestmove came with no go waiting for it");
    worst_ready_ms = dt > worst_ready_ms ? dt : worst_ready_ms;
    if (dt > ready_ms)
        fail("isready took %lld ms (bound %d)", dt, ready_ms);
    return errors;
}

/* isready during a running search: answered at once, before the bestmove. */
static void ready_during_search(Engine *e, int ready_ms)
{
    const long long t0 = now_ms();
    send_line(e, "isready");
    char *l;
    while (read_line(e, ANSWER_MS, &l)) {
        if (!strcmp(l, "readyok"))
            break;
        if (!strncmp(l, "bestmove", 8))
            fail("bestmove of an infinite search before stop");
    }
    const long long dt = now_ms() - t0;
    worst_ready_ms = dt > worst_ready_ms ? dt : worst_ready_ms;
    if (dt > ready_ms)
        fail("isready during a search took %lld ms (bound %d)", dt, ready_ms);
}

static void check_bestmove(const char *line, const Game *g)
{
    char best[8192] = "", ponder[8192] = "", word[16] = "";
    const int n = sscanf(line, "bestmove %8191s %15s %8191s", best, word, ponder);
    char err[512];
    Move m;
    if (pos_over(&g->pos)) {
        if (strcmp(best, "(none)"))
            fail("bestmove %s in a finished game", best);
        return;
    }
    if (n < 1 || move_parse(&g->pos, best, &m, err, sizeof err))
        fail("bestmove '%s' is not legal: %s", best, err);
    if (n == 3) {
        Position after = g->pos;
        pos_play(&after, &m);
        Move pm;
        if (strcmp(word, "ponder") || move_parse(&after, ponder, &pm, err, sizeof err))
            fail("ponder move '%s' is not legal after %s: %s", ponder, best, err);
    } else if (n == 2) {
        fail("malformed bestmove line '%s'", line);
    }
}

/* Plays `plies` random moves of g and writes them to moves (space separated). */
static void random_game(Game *g, int plies, char *moves, size_t cap)
{
    static MoveList list;
    size_t n = 0;
    moves[0] = 0;
    for (int i = 0; i < plies && !pos_over(&g->pos); i++) {
        gen_moves(&g->pos, &list, NULL);
        if (!list.n)
            break;
        const Move m = list.m[pick(list.n)];
        char t[MOVE_STR_MAX];
        move_str(&g->pos, &m, t);
        if (n + strlen(t) + 2 >= cap)
            break;
        n += (size_t)snprintf(moves + n, cap - n, " %s", t);
        game_play(g, &m);
    }
}

static const char *const JUNK[] = {
    "garbage", "go depth", "go depth -3", "go nodes x", "go wtime", "position", "position fen", "position fen 1/2/3",
    "position startpos moves z99", "setoption", "setoption name", "setoption name Hash value -1",
    "setoption name Threads value 0", "setoption name Nope value 1", "setoption name Variant value chess",
    "perft", "perft 99", "stop", "ponderhit", "    ", "\t\t", "d extra", "result extra", "position startpos moves a1-a2",
    "go searchmoves zz9", "setoption name MultiPV value 300", "go movetime 0", "isready now",
};

/* One session with seed s. */
static void session(const char *path, long long s, int ready_ms)
{
    Engine e = {.seed = s};
    current = &e;
    rng_state = (uint64_t)s * 0x9E3779B97F4A7C15ull + 1;
    start(&e, path);
    static Game g;
    const char *variant = variant_names[pick(NUM_VARIANT_NAMES)];
    if (game_new(&g, variant))
        fail("game_new %s", variant);
    int hash = 1 + pick(32);
    send_line(&e, "uci");
    expect(&e, "uciok", ANSWER_MS, NULL, NULL);
    send_line(&e, "setoption name Variant value %s", variant);
    send_line(&e, "setoption name Hash value %d", hash);
    send_line(&e, "setoption name Threads value %d", 1 + pick(3));
    static const char *const algos[] = {"auto", "paranoid", "maxn", "brs", "brs+", "mcts", "opps"};
    send_line(&e, "setoption name Search value %s", algos[pick((int)(sizeof algos / sizeof *algos))]);
    if (pick(2)) { /* OPPS's parameters (the other searches ignore them) */
        send_line(&e, "setoption name OppsRegular value %d", pick(6) /* OppsRegular 0-5 */);
        send_line(&e, "setoption name OppsRegularMoves value %d", pick(10));
        send_line(&e, "setoption name OppsReducedMoves value %d", 1 + pick(3));
    }
    if (pick(2)) { /* MCTS's enhancements (the other searches ignore them) */
        send_line(&e, "setoption name MctsHistory value %d", pick(3) * 5);
        send_line(&e, "setoption name MctsWidening value %d", pick(3) * 50);
        send_line(&e, "setoption name MctsWideningAlpha value %d", 25 + pick(3) * 25);
        send_line(&e, "setoption name MctsOma value %d", pick(3) * 50);
    }
    if (pick(3) == 0)
        send_line(&e, "setoption name MultiPV value %d", 1 + pick(3));
    const bool ponder = pick(2);
    send_line(&e, "setoption name Ponder value %s", ponder ? "true" : "false");
    sync_ready(&e, ready_ms);
    const int steps = 4 + pick(12);
    static char moves[65536];
    for (int k = 0; k < steps; k++) {
        const int what = pick(20);
        if (what < 3) {
            const char *junk = JUNK[pick((int)(sizeof JUNK / sizeof *JUNK))];
            send_line(&e, "%s", junk);
            const bool silent = !strcmp(junk, "stop") || !strcmp(junk, "ponderhit") || strspn(junk, " \t") == strlen(junk);
            if (!strncmp(junk, "go ", 3)) { /* never refused whole: errors, then one bestmove */
                int errors = 0;
                check_bestmove(expect(&e, "bestmove", ANSWER_MS, "info string error", &errors), &g);
                if (errors != 1)
                    fail("'%s' drew %d error lines, not one", junk, errors);
                sync_ready(&e, ready_ms);
            } else if (sync_ready(&e, ready_ms) != !silent)
                fail("'%s' was not answered by %s error line", junk, silent ? "no" : "one");
        } else if (what < 4) {
            char bad[64];
            const int n = 1 + pick(20);
            for (int i = 0; i < n; i++)
                bad[i] = (char)(1 + pick(255));
            for (int i = 0; i < n; i++)
                if (bad[i] == '\n')
                    bad[i] = '#';
            bad[n] = 0;
            send_line(&e, "%s", bad);
            if (sync_ready(&e, ready_ms) > 1)
                fail("a line of random bytes drew more than one error line");
        } else if (what < 9) {
            /* a position from a random game, sometimes with an illegal move after it */
            game_new(&g, variant);
            random_game(&g, pick(3) ? pick(60) : pick(400), moves, sizeof moves);
            if (pick(2)) {
                send_line(&e, "position startpos%s%s", moves[0] ? " moves" : "", moves);
            } else {
                char fen[FEN_MAX];
                fen_write(&g.pos, fen);
                send_line(&e, "position fen %s", fen);
            }
            if (sync_ready(&e, ready_ms))
                fail("a legal position was refused: %s", last_error);
            if (pick(6) == 0) {
                send_line(&e, "position startpos moves %s", "q17-a1");
                if (sync_ready(&e, ready_ms) != 1)
                    fail("an illegal move was not refused with one error line");
            }
        } else if (what < 10) {
            send_line(&e, "ucinewgame"); /* back to the start position, as Stern does */
            game_new(&g, variant);
            sync_ready(&e, ready_ms);
        } else if (what < 11) {
            if (g.v->capture) {
                send_line(&e, "legalmoves");
                expect(&e, "legalmoves", ANSWER_MS, NULL, NULL);
            } else {
                send_line(&e, "perft %d", 1 + pick(2));
                expect(&e, "Nodes searched: ", ANSWER_MS, NULL, NULL);
            }
            sync_ready(&e, ready_ms);
        } else {
            /* a go of some kind */
            const int kind = pick(7);
            gos++;
            if (kind == 0)
                send_line(&e, "go depth %d", 1 + pick(3));
            else if (kind == 1)
                send_line(&e, "go nodes %d", 1 + pick(5000));
            else if (kind == 2)
                send_line(&e, "go movetime %d", 1 + pick(60));
            else if (kind == 3) {
                char clocks[512];
                size_t n = 0;
                for (int i = 0; i < g.v->nseats; i++) {
                    const char c = variant_seat_letter(g.v->seats[i]);
                    n += (size_t)snprintf(clocks + n, sizeof clocks - n, " %ctime %d %cinc %d", c, 50 + pick(3000), c,
                                          pick(50));
                }
                send_line(&e, "go%s", clocks);
            } else if (kind == 4 || (kind == 5 && !ponder)) {
                send_line(&e, "go infinite");
                if (pick(2))
                    ready_during_search(&e, ready_ms);
                struct timespec t = {0, (long)pick(80) * 1000000};
                nanosleep(&t, NULL);
                send_line(&e, "stop");
            } else if (kind == 5) {
                send_line(&e, "go ponder movetime %d", 1 + pick(40));
                struct timespec t = {0, (long)pick(60) * 1000000};
                nanosleep(&t, NULL);
                send_line(&e, "%s", pick(2) ? "ponderhit" : "stop");
            } else {
                send_line(&e, "go depth %d", 2 + pick(20));
                struct timespec t = {0, (long)pick(100) * 1000000};
                nanosleep(&t, NULL);
                send_line(&e, "stop");
            }
            /* a depth or node limit can take long (max-n with six seats reads
             * every leaf): past PATIENCE_MS the search is stopped, and must
             * then answer at once */
            char *best = NULL;
            const long long until = now_ms() + PATIENCE_MS;
            for (char *l; !best;) {
                const long long left = until - now_ms();
                if (left <= 0 || !read_line(&e, (int)left, &l))
                    break;
                if (!strncmp(l, "bestmove", 8))
                    best = l;
            }
            if (!best) {
                send_line(&e, "stop");
                best = expect(&e, "bestmove", ANSWER_MS, NULL, NULL);
            }
            check_bestmove(best, &g);
            sync_ready(&e, ready_ms);
        }
        const long rss = ep_rss_mib(e.pid);
        peak_rss_mib = rss > peak_rss_mib ? rss : peak_rss_mib;
        if (rss > hash + MEMORY_SPARE_MIB)
            fail("the engine holds %ld MiB with Hash %d", rss, hash);
    }
    if (pick(2))
        send_line(&e, "quit");
    close(e.in);
    const long long end = now_ms() + ANSWER_MS;
    int st = 0;
    for (;;) {
        const pid_t r = waitpid(e.pid, &st, WNOHANG);
        if (r == e.pid)
            break;
        if (now_ms() > end)
            fail("the engine did not exit after quit or end of input");
        struct timespec t = {0, 2000000};
        nanosleep(&t, NULL);
    }
    e.pid = -1;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail("the engine exited with status 0x%x", st);
    close(e.out);
    sessions_done++;
    current = NULL;
}

static const char usage[] =
    "usage: stern-stress [--engine PATH] [--sessions N] [--seed S] [--ready-ms MS] [--progress N]\n"
    "  --engine PATH    the engine to drive (default build/stern)\n"
    "  --sessions N     random sessions, each a fresh process (default 100)\n"
    "  --seed S         the first session's seed; session k has S + k (default 1)\n"
    "  --ready-ms MS    the longest wait for readyok (default 100)\n"
    "  --progress N     a summary line after every N sessions\n"
    "Exit status: 0 when every session passed, 1 at the first failure (printed\n"
    "with its seed and the line sent last), 2 on a bad argument.\n";

int main(int argc, char **argv)
{
    const char *path = "build/stern";
    long long sessions = 100, seed = 1, ready_ms = 100, progress = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "-help") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout); /* asked for: not an error */
            return 0;
        } else if (!strcmp(argv[i], "--engine") && i + 1 < argc)
            path = argv[++i];
        else if (!strcmp(argv[i], "--sessions") && i + 1 < argc) {
            if (!args_int("stern-stress", "--sessions", argv[++i], 1, 100000000, &sessions))
                return 2;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (!args_int("stern-stress", "--seed", argv[++i], 0, 1000000000000LL, &seed))
                return 2;
        } else if (!strcmp(argv[i], "--progress") && i + 1 < argc) {
            if (!args_int("stern-stress", "--progress", argv[++i], 1, 100000000, &progress))
                return 2;
        } else if (!strcmp(argv[i], "--ready-ms") && i + 1 < argc) {
            if (!args_int("stern-stress", "--ready-ms", argv[++i], 1, 1000000, &ready_ms))
                return 2;
        } else {
            fprintf(stderr, "stern-stress: unknown or incomplete argument '%s'\n%s", argv[i], usage);
            return 2;
        }
    }
    const long long t0 = now_ms();
    for (long long k = 0; k < sessions; k++) {
        session(path, seed + k, (int)ready_ms);
        if (progress && (k + 1) % progress == 0) {
            printf("stern-stress: %lld sessions passed, %lld go answered, worst isready %lld ms, peak memory %lld MiB, "
                   "%.1f s\n",
                   sessions_done, gos, worst_ready_ms, peak_rss_mib, (now_ms() - t0) / 1000.0);
            fflush(stdout);
        }
    }
    printf("stern-stress: %lld sessions passed (seeds %lld-%lld), %lld go answered, %lld lines sent, worst isready "
           "%lld ms, peak memory %lld MiB, %.1f s\n",
           sessions_done, seed, seed + sessions - 1, gos, lines_sent, worst_ready_ms, peak_rss_mib,
           (now_ms() - t0) / 1000.0);
    return 0;
}
