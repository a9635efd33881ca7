/*
 * test_arena.c - the tournament runner build/stern-arena and its parts: the
 * schedule (rotations, gauntlet, round robin, shards), the greedy baseline engine
 * build/stern-greedy, and whole tournaments run as child processes with faulty
 * engines (stern-greedy's test modes): a crash, an illegal move, an engine that
 * never answers and one that overruns its clock each lose that game as RULES.md
 * section 7 says and the run goes on; SIGKILL then -resume loses no finished game;
 * -ratings of the record file prints the arena's own table; shards merge into the
 * whole tournament game for game (a shard killed and resumed); SPRT stops early;
 * 3-seat and team tournaments are rated from places; stern-play names the seats
 * eliminated during a game. Ctrl-C (SIGINT) or SIGTERM stops a run cleanly, says
 * what was saved and how to resume, and prints the table; players that never met
 * are rated group by group; a perfect score has an open-ended interval; a "+/-"
 * always agrees with the interval printed with it; a table's rows count games as
 * its header does; an engine that cannot start stops the run before any game,
 * and one that refuses an option is said to have refused it; a record file with
 * a NUL byte or an over-long line is refused by -ratings, -resume and -merge;
 * one engine against itself has its decisive games counted; a clock of moves
 * per period (tc=40/60+0.5) is refilled and sends movestogo; README's arena
 * example starts its games differently.
 *
 * The binaries are found next to $STERN_BIN (build/stern by default), so the
 * sanitizer builds test their own. Games between greedy engines take
 * milliseconds: every tournament here is short.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/stern_test.h"

#include "arena_openings.h"
#include "arena_table.h"
#include "elo.h"
#include "engine_proc.h"
#include "game.h"
#include "notation.h"
#include "pgn_read.h"
#include "ratings.h"
#include "referee.h"
#include "schedule.h"

#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define QUICK_MS 5000
#define WAIT_STEP_MS 20
#define KILL_AFTER_GAMES 3  /* records written before the arena is killed */

/* ---- helpers ---- */

/* A fresh temporary directory for one test (static buffer). */
static const char *temp_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/stern-arena-test-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void remove_dir(const char *dir)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Runs the shell command cmd, its stdout and stderr going to file `out`; returns
 * its exit status. */
static int run(const char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(const char *out, const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(cmd + n, sizeof cmd - (size_t)n, " > '%s' 2>&1", out);
    const int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The complete records of a file. */
typedef struct {
    PgnGame *g;
    int n, incomplete;
} Records;

static Records read_records(const char *path)
{
    Records r = {0};
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char err[PGN_ERR_MAX];
    if (pgn_read_all(f, path, &r.g, &r.n, &r.incomplete, err, sizeof err))
        fail_msg("%s", err);
    fclose(f);
    return r;
}

static const char *tag(const Records *r, int i, const char *name)
{
    const char *v = pgn_tag(&r->g[i], name);
    return v ? v : "";
}

/* The record with Round `number`, or -1. */
static int find_game(const Records *r, long number)
{
    for (int i = 0; i < r->n; i++)
        if (atol(tag(r, i, "Round")) == number)
            return i;
    return -1;
}

/* Asserts that every game number 1..n is recorded exactly once. */
static void assert_games_once(const Records *r, long n)
{
    assert_int_equal(r->n, n);
    for (long k = 1; k <= n; k++) {
        int seen = 0;
        for (int i = 0; i < r->n; i++)
            seen += atol(tag(r, i, "Round")) == k;
        if (seen != 1)
            fail_msg("game %ld recorded %d times", k, seen);
    }
}

/* The text of out from the line starting with `from` to the end (the table). */
static const char *from_line(const char *out, const char *from)
{
    const char *p = strstr(out, from);
    if (!p)
        fail_msg("no '%s' in:\n%s", from, out);
    return p;
}

/* ---- schedule ---- */

static void test_schedule_round_robin_swaps_seats_and_shares_openings_per_round(void **state)
{
    (void)state;
    Schedule s;
    char err[256];
    assert_int_equal(schedule_init(&s, 3, 2, SCHEDULE_ROUND_ROBIN, 2, 4, 1, 1, err, sizeof err), 0);
    assert_int_equal(s.nencounters, 3); /* 01 02 12 */
    assert_int_equal(s.rotations, 2);
    assert_int_equal(s.total, 3 * 4 * 2);
    ScheduledGame g;
    const int want[8][2] = {{0, 1}, {1, 0}, {0, 1}, {1, 0}, {0, 2}, {2, 0}, {0, 2}, {2, 0}};
    for (int k = 0; k < 8; k++) {
        schedule_game(&s, k + 1, &g);
        assert_int_equal(g.engine[0], want[k][0]);
        assert_int_equal(g.engine[1], want[k][1]);
        assert_int_equal(g.set, k / 2);
        assert_int_equal(g.opening, k % 4 / 2); /* each encounter plays openings 0, 1 in round 0 */
    }
    schedule_game(&s, 13, &g); /* round 1, encounter 01 */
    assert_int_equal(g.round, 1);
    assert_int_equal(g.engine[0], 0);
    assert_int_equal(g.opening, 2);
    schedule_free(&s);
    assert_int_equal(schedule_init(&s, 2, 2, SCHEDULE_ROUND_ROBIN, 1, 3, 1, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "multiple of 2"));
}

static void test_schedule_gauntlet_and_fewer_engines_than_seats(void **state)
{
    (void)state;
    Schedule s;
    char err[256];
    assert_int_equal(schedule_init(&s, 4, 3, SCHEDULE_GAUNTLET, 1, 0, 1, 1, err, sizeof err), 0);
    assert_int_equal(s.nencounters, 3); /* 0 with 12, 13, 23 */
    assert_int_equal(s.games, 3);
    ScheduledGame g;
    for (long k = 1; k <= s.total; k++) {
        schedule_game(&s, k, &g);
        assert_int_equal(g.engine[(3 - g.rotation) % 3], 0); /* engine 0 visits every seat */
    }
    schedule_free(&s);
    assert_int_equal(schedule_init(&s, 2, 6, SCHEDULE_ROUND_ROBIN, 1, 0, 1, 1, err, sizeof err), 0);
    assert_int_equal(s.rotations, 2); /* ABABAB, BABABA */
    schedule_game(&s, 2, &g);
    assert_int_equal(g.engine[0], 1);
    assert_int_equal(g.engine[5], 0);
    schedule_free(&s);
    assert_int_equal(schedule_init(&s, 2, 3, SCHEDULE_ROUND_ROBIN, 1, 0, 1, 1, err, sizeof err), 0);
    assert_int_equal(s.rotations, 3); /* ABA, BAA, AAB */
    schedule_free(&s);
    assert_int_equal(schedule_init(&s, 2, 3, SCHEDULE_GAUNTLET, 1, 0, 1, 1, err, sizeof err), -1);
}

/* seats=: one engine against five copies of another in a six-seat game, every
 * rotation seating the one at another seat; wrong sums are refused. */
static void test_schedule_seats_puts_one_engine_against_copies(void **state)
{
    (void)state;
    Schedule s;
    char err[256];
    const int one_five[] = {1, 5};
    assert_int_equal(schedule_init_seats(&s, 2, 6, one_five, 2, 0, 1, 1, err, sizeof err), 0);
    assert_int_equal(s.nencounters, 1);
    assert_int_equal(s.rotations, 6);
    assert_int_equal(s.total, 12);
    for (long n = 1; n <= 6; n++) {
        ScheduledGame g;
        schedule_game(&s, n, &g);
        int ones = 0, at = -1;
        for (int u = 0; u < 6; u++)
            if (g.engine[u] == 0) {
                ones++;
                at = u;
            }
        assert_int_equal(ones, 1);
        assert_int_equal(at, (6 - g.rotation) % 6);
    }
    schedule_free(&s);
    const int too_many[] = {2, 5}, none[] = {0, 6};
    assert_int_equal(schedule_init_seats(&s, 2, 6, too_many, 1, 0, 1, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "add up to 7"));
    assert_int_equal(schedule_init_seats(&s, 2, 6, none, 1, 0, 1, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "seats=0"));
}

static void test_schedule_shards_split_whole_sets_and_cover_every_game(void **state)
{
    (void)state;
    Schedule s[3];
    char err[256];
    long sum = 0;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(schedule_init(&s[i], 3, 3, SCHEDULE_ROUND_ROBIN, 7, 0, i + 1, 3, err, sizeof err), 0);
        sum += schedule_shard_games(&s[i]);
    }
    assert_int_equal(sum, s[0].total);
    for (long k = 1; k <= s[0].total; k++) {
        int owners = 0, owner = -1;
        for (int i = 0; i < 3; i++)
            if (schedule_in_shard(&s[i], k))
                owners++, owner = i;
        assert_int_equal(owners, 1);
        ScheduledGame g;
        schedule_game(&s[0], k, &g);
        assert_true(schedule_in_shard(&s[owner], g.set * s[0].rotations + 1)); /* the set's first game */
    }
    for (int i = 0; i < 3; i++)
        schedule_free(&s[i]);
}

/* ---- openings ---- */

#define FEN_A "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/5w2w4/wwww/w2/ww/w w w2,b2 3"
#define FEN_B "b/bb/bbb/2bb/5bb6/12/11/10/9/10/11/12/7w5/wwww/ww1/ww/w w w2,b2 3"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_openings_from_fen_and_record_files(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char fens[PATH_MAX], pgn[PATH_MAX], err[512], fen[FEN_MAX];
    snprintf(fens, sizeof fens, "%s/o.fen", dir);
    snprintf(pgn, sizeof pgn, "%s/o.pgn", dir);
    write_file(fens, "# two openings\n" FEN_A "\n\n" FEN_B "\n");
    write_file(pgn, "[Variant \"classic-2\"]\n[Result \"*\"]\n\n1. k3-i5 e15-g13 2. i5-i6 *\n");
    Variant v;
    assert_int_equal(variant_init(&v, "classic-2"), 0);
    Openings o;
    assert_int_equal(arena_openings_load(&o, &v, fens, -1, false, 1, 2, err, sizeof err), 0);
    assert_int_equal(o.n, 2);
    assert_string_equal(arena_openings_fen(&o, 0, fen), FEN_B); /* start=2 */
    assert_string_equal(arena_openings_fen(&o, 1, fen), FEN_A);
    assert_string_equal(arena_openings_fen(&o, 2, fen), FEN_B); /* wraps around */
    arena_openings_free(&o);
    assert_int_equal(arena_openings_load(&o, &v, pgn, 2, false, 1, 1, err, sizeof err), 0);
    static Game g;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    Move m;
    assert_int_equal(move_parse(&g.pos, "k3-i5", &m, err, sizeof err), 0);
    assert_int_equal(game_play(&g, &m), 0);
    assert_int_equal(move_parse(&g.pos, "e15-g13", &m, err, sizeof err), 0);
    assert_int_equal(game_play(&g, &m), 0);
    char want[FEN_MAX];
    assert_string_equal(arena_openings_fen(&o, 0, fen), fen_write(&g.pos, want)); /* after plies=2 */
    arena_openings_free(&o);
    write_file(fens, "b/bb w w0,b0 1\n");
    assert_int_equal(arena_openings_load(&o, &v, fens, -1, false, 1, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "o.fen:1: "));
    arena_openings_init(&o, &v, 4, 9); /* random=4: the same opening for the same index */
    char again[FEN_MAX];
    assert_string_equal(arena_openings_fen(&o, 5, fen), arena_openings_fen(&o, 5, again));
    assert_string_not_equal(arena_openings_fen(&o, 5, fen), arena_openings_fen(&o, 6, again));
    remove_dir(dir);
}

/* ---- the greedy engine ---- */

static void test_greedy_answers_the_protocol_with_legal_moves(void **state)
{
    (void)state;
    EngineProc e;
    assert_int_equal(ep_start(&e, tool("stern-greedy"), -1), 0);
    const EngineOption opt = {"Variant", "classic-6"};
    assert_int_equal(ep_handshake(&e, &opt, 1, QUICK_MS), 0);
    assert_string_equal(e.name, "Greedy");
    assert_int_equal(ep_send(&e, "ucinewgame"), 0);
    assert_int_equal(ep_send(&e, "position startpos moves m3-m5"), 0);
    assert_int_equal(ep_send(&e, "go wtime 1000 rtime 1000"), 0);
    char *line;
    assert_int_equal(ep_wait_token(&e, "bestmove", QUICK_MS, NULL, NULL, &line), 1);
    static Game g;
    assert_int_equal(game_new(&g, "classic-6"), 0);
    Move m;
    char err[256];
    assert_int_equal(move_parse(&g.pos, "m3-m5", &m, err, sizeof err), 0);
    assert_int_equal(game_play(&g, &m), 0);
    if (move_parse(&g.pos, line + strlen("bestmove "), &m, err, sizeof err))
        fail_msg("greedy played '%s': %s", line, err);
    assert_int_equal(ep_send(&e, "position startpos moves zz9"), 0); /* refused, state kept */
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), 1);
    assert_non_null(strstr(line, "info string error"));
    assert_int_equal(ep_quit(&e, QUICK_MS), 0);
}

/* ---- per-seat limits ---- */

/* A scripted engine logging its input to `log` and answering the k-th `go` with the
 * k-th word of `answers`. */
static void start_logged(EngineProc *e, const char *log, const char *answers)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "set -- %s; while read -r l; do echo \"$l\" >> '%s'; case \"$l\" in "
             "uci) echo uciok;; isready) echo readyok;; go*) echo \"bestmove $1\"; shift;; quit) exit 0;; esac; done",
             answers, log);
    assert_int_equal(ep_start(e, cmd, -1), 0);
    assert_int_equal(ep_handshake(e, NULL, 0, QUICK_MS), 0);
}

static void test_referee_sends_each_seat_its_own_limits(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char log[2][256];
    EngineProc proc[2];
    EngineProc *seats[MAX_SEATS] = {0};
    for (int i = 0; i < 2; i++) {
        snprintf(log[i], sizeof log[i], "%s/log%d", dir, i);
        start_logged(&proc[i], log[i], i ? "e15-g13 zz1" : "k3-i5 m1-k3-k5");
        seats[i ? SEAT_BLACK : SEAT_WHITE] = &proc[i];
    }
    RefereeSeatLimits lims[MAX_SEATS] = {0};
    lims[SEAT_WHITE] = (RefereeSeatLimits){{50, 0, 0, QUICK_MS, 0}, 3, 0};
    lims[SEAT_BLACK] = (RefereeSeatLimits){{0, 1000, 100, QUICK_MS, 0}, 0, 500};
    static Game g;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    RefereeResult res;
    assert_int_equal(referee_play_seats(&g, seats, lims, NULL, NULL, &res), 0);
    assert_int_equal(res.forfeit, FORFEIT_ILLEGAL);
    assert_int_equal(res.seat, SEAT_BLACK);
    for (int i = 0; i < 2; i++)
        ep_quit(&proc[i], QUICK_MS);
    char *white = slurp(log[0]), *black = slurp(log[1]);
    assert_non_null(strstr(white, "position startpos\ngo movetime 50 depth 3\n"));
    assert_non_null(strstr(black, "position startpos moves k3-i5\ngo btime 1000 binc 100 nodes 500\n"));
    char *second = strstr(black, "position startpos moves k3-i5 e15-g13 m1-k3-k5\ngo btime ");
    assert_non_null(second); /* its clock went down by the time it took, up by the increment */
    const int clock = atoi(second + strlen("position startpos moves k3-i5 e15-g13 m1-k3-k5\ngo btime "));
    assert_true(clock > 1000 && clock <= 1100);
    free(white);
    free(black);
    remove_dir(dir);
}

/* stern-arena refused cutechess's tc=MOVES/SECONDS[+INC] ("only S[+I] is
 * supported"). tc=3/1+0.5: 1 s for every 3 moves of a seat, refilled after
 * each third move, 0.5 s a move; every `go` says movestogo, and the records'
 * TimeControl is cutechess's text. */
static void test_arena_clock_of_moves_per_period_refills_and_sends_movestogo(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], pgn[PATH_MAX], heard[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(heard, sizeof heard, "%s/heard.txt", dir);
    const int st = run(out, "%s -engine 'cmd=tee -a %s | %s' name=A -engine cmd=%s name=B -each tc=3/1+0.5 -games 2 "
                            "-pgnout %s", tool("stern-arena"), heard, tool("stern-greedy"), tool("stern-greedy"), pgn);
    char *text = slurp(out);
    if (st)
        fail_msg("stern-arena exited with %d:\n%s", st, text);
    free(text);
    Records r = read_records(pgn);
    assert_games_once(&r, 2);
    for (int i = 0; i < 2; i++) {
        assert_string_equal(tag(&r, i, "TimeControl"), "3/1+0.5");
        assert_true(r.g[i].nmoves > 8); /* past a refill of each seat */
        assert_string_not_equal(tag(&r, i, "Termination"), "time forfeit");
    }
    pgn_games_free(r.g, r.n);
    /* A is white in game 1: its first four `go`s, the fourth a new period */
    char *said = slurp(heard);
    const char *go = strstr(said, "\ngo ");
    assert_non_null(go);
    go++;
    assert_true(!strncmp(go, "go wtime 1000 winc 500 btime 1000 binc 500 movestogo 3\n",
                         strlen("go wtime 1000 winc 500 btime 1000 binc 500 movestogo 3\n")));
    const int want[4] = {3, 2, 1, 3};
    int wtime[4];
    for (int k = 0; k < 4; k++) {
        int togo = -1;
        if (sscanf(go, "go wtime %d winc 500 btime %*d binc 500 movestogo %d", &wtime[k], &togo) != 2)
            fail_msg("go %d of A: %.80s", k + 1, go);
        assert_int_equal(togo, want[k]);
        go = strstr(go, "\ngo ");
        assert_non_null(go);
        go++;
    }
    /* each move: the increment less the time taken (under 0.5 s here); after
     * the third, 1 s more */
    if (wtime[1] > 1500 || wtime[2] > 2000 || wtime[3] <= wtime[2] + 1000 || wtime[3] > wtime[2] + 1500)
        fail_msg("A's clock: %d %d %d %d", wtime[0], wtime[1], wtime[2], wtime[3]);
    free(said);
    remove_dir(dir);
}

/* ---- faults ---- */

/* Runs a 2-game match of the greedy engine against `faulty` (a greedy test
 * mode) in dir, with the time keys of each; returns the records. */
static Records fault_match(const char *dir, const char *faulty, const char *keys, const char *faulty_keys)
{
    char pgn[PATH_MAX], out[PATH_MAX];
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    const int st = run(out, "%s -engine cmd=%s name=Greedy %s -engine 'cmd=%s %s' name=Faulty %s -games 2 -pgnout %s",
                       tool("stern-arena"), tool("stern-greedy"), keys, tool("stern-greedy"), faulty, faulty_keys, pgn);
    char *text = slurp(out);
    if (st)
        fail_msg("stern-arena exited with %d:\n%s", st, text);
    free(text);
    return read_records(pgn);
}

/* Both games were lost by the faulty engine (at either seat) for `why`. */
static void assert_faulty_lost_both(Records *r, const char *why)
{
    assert_games_once(r, 2);
    for (int i = 0; i < 2; i++) {
        assert_string_equal(tag(r, i, "Termination"), why);
        const bool white = !strcmp(tag(r, i, "White"), "Faulty");
        assert_string_equal(tag(r, i, "Result"), white ? "0-1" : "1-0");
        assert_true(r->g[i].nmoves > 0); /* mid-game */
    }
    pgn_games_free(r->g, r->n);
}

static void test_arena_engine_crashing_mid_game_loses_and_is_restarted(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    Records r = fault_match(dir, "-crash-at 4", "st=0.2", "st=0.2");
    assert_faulty_lost_both(&r, "crash");
    remove_dir(dir);
}

static void test_arena_illegal_move_loses(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    Records r = fault_match(dir, "-illegal-at 3", "st=0.2", "st=0.2");
    assert_faulty_lost_both(&r, "illegal move");
    remove_dir(dir);
}

/* Whether a process whose command line contains `token` is running. */
static bool process_running(const char *token)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        char path[300], buf[4096];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        const int fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        const ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        for (ssize_t i = 0; i < n; i++)
            if (!buf[i])
                buf[i] = ' ';
        buf[n > 0 ? n : 0] = '\0';
        found = strstr(buf, token) != NULL;
    }
    closedir(d);
    return found;
}

static void test_arena_silent_engine_loses_on_time_and_is_killed(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char faulty[128];
    snprintf(faulty, sizeof faulty, "-hang-at 3 -name hung-%d", (int)getpid());
    Records r = fault_match(dir, faulty, "st=0.1", "st=0.1 timemargin=200");
    assert_faulty_lost_both(&r, "time forfeit"); /* game 2 needed a fresh process */
    assert_false(process_running(faulty + strlen("-hang-at 3 ")));
    remove_dir(dir);
}

static void test_arena_engine_over_its_clock_loses_on_time(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    /* 0.3 s for the game, 0.1 s a move: lost at its third move. The other
     * engine plays by movetime: time controls differ per engine. */
    Records r = fault_match(dir, "-sleep-ms 100", "st=0.2", "tc=0.3+0");
    assert_faulty_lost_both(&r, "time forfeit");
    remove_dir(dir);
}

/* ---- resume ---- */

#define RESUME_GAMES 24

static void arena_argv(char **argv, char *pgn, bool resume)
{
    static char g1[PATH_MAX + 8], g2[PATH_MAX + 8];
    snprintf(g1, sizeof g1, "cmd=%s", tool("stern-greedy"));
    snprintf(g2, sizeof g2, "cmd=%s -sleep-ms 2", tool("stern-greedy")); /* games of ~0.1 s */
    char *args[] = {(char *)tool("stern-arena"), "-engine", g1, "name=A", "-engine", g2, "name=B", "-each", "st=0.2",
                    "-games", "24", "-openings", "random=6", "-quiet", "-pgnout", pgn, resume ? "-resume" : NULL,
                    NULL};
    memcpy(argv, args, sizeof args);
}

/* Records in text: count of "[Round ". */
static int count_records(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "[Round ")); p++)
        n++;
    return n;
}

static void test_arena_killed_then_resumed_loses_no_finished_game(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char pgn[PATH_MAX], out[PATH_MAX];
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    char *argv[20];
    arena_argv(argv, pgn, false);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int fd = open("/dev/null", O_WRONLY);
        dup2(fd, STDOUT_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    char *before = NULL;
    const int64_t t0 = ep_now_ms();
    for (;;) { /* until a few games are written */
        free(before);
        before = slurp(pgn);
        if (count_records(before) >= KILL_AFTER_GAMES || ep_now_ms() - t0 > 10 * QUICK_MS)
            break;
        usleep(WAIT_STEP_MS * 1000);
    }
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    free(before);
    before = slurp(pgn); /* what survived the kill */
    Records r = read_records(pgn);
    const int kept = r.n;
    assert_true(kept >= KILL_AFTER_GAMES);
    if (kept == RESUME_GAMES)
        fail_msg("the arena finished before it could be killed");
    const long kept_end = r.g[kept - 1].end; /* the finished games end here */
    pgn_games_free(r.g, r.n);
    FILE *f = fopen(pgn, "a"); /* as if killed in the middle of a write */
    assert_non_null(f);
    fputs("[Event \"stern-arena\"]\n[Site \"?\"]\n[Round \"99\"]\n\n1. k3-i5 {+0.70/1", f);
    fclose(f);
    arena_argv(argv, pgn, true);
    char cmd[8192];
    size_t len = 0;
    for (int i = 0; argv[i]; i++)
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, "'%s' ", argv[i]);
    assert_int_equal(run(out, "%s", cmd), 0);
    char *after = slurp(pgn);
    r = read_records(pgn);
    assert_int_equal(r.incomplete, 0);
    assert_games_once(&r, RESUME_GAMES);
    assert_memory_equal(after, before, (size_t)kept_end); /* the finished games are untouched */
    char *text = slurp(out);
    assert_non_null(strstr(text, "dropping the incomplete last game"));
    free(text);
    pgn_games_free(r.g, r.n);
    free(before);
    free(after);
    remove_dir(dir);
}

static void test_arena_resume_refuses_a_different_tournament(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char pgn[PATH_MAX], out[PATH_MAX];
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    const char *a = tool("stern-arena"), *g = tool("stern-greedy");
    assert_int_equal(run(out, "%s -engine cmd=%s name=A -engine cmd=%s name=B -each st=0.2 -pgnout %s", a, g, g, pgn), 0);
    assert_int_equal(run(out, "%s -engine cmd=%s name=A -engine cmd=%s name=B -each st=0.2 -pgnout %s", a, g, g, pgn), 2);
    char *text = slurp(out);
    assert_non_null(strstr(text, "add -resume"));
    free(text);
    assert_int_equal(
        run(out, "%s -engine cmd=%s name=B -engine cmd=%s name=A -each st=0.2 -pgnout %s -resume", a, g, g, pgn), 2);
    text = slurp(out);
    assert_non_null(strstr(text, "not the tournament"));
    free(text);
    remove_dir(dir);
}

/* Each record names every engine's build (its id name and the XXH3-64 of the
 * executable that answered); a shard played by another build of an engine
 * (here the greedy program with a byte added: the same moves, another file) is
 * refused by -resume and by -merge, where the schedule alone (names, limits,
 * openings) would have let it in. */
static void test_arena_records_and_checks_the_engines_builds(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], g[PATH_MAX], other[PATH_MAX], args[2 * PATH_MAX + 256];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(g, sizeof g, "%s", tool("stern-greedy"));
    snprintf(other, sizeof other, "%s/greedy-rebuilt", dir);
    assert_int_equal(run(out, "cp %s %s && printf x >> %s && chmod +x %s", g, other, other, other), 0);
    snprintf(args, sizeof args, "%s -engine cmd=%%s name=A -engine cmd=%s name=B -each st=0.2 -rounds 2 -quiet",
             tool("stern-arena"), g);
    char with_g[sizeof args + PATH_MAX], with_other[sizeof args + PATH_MAX];
    snprintf(with_g, sizeof with_g, args, g);
    snprintf(with_other, sizeof with_other, args, other);
    assert_int_equal(run(out, "%s -shard 1/2 -pgnout %s/s1.pgn", with_g, dir), 0);
    assert_int_equal(run(out, "%s -shard 2/2 -pgnout %s/s2.pgn", with_other, dir), 0);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/s1.pgn", dir);
    char *text = slurp(path);
    assert_non_null(strstr(text, "[Engine1 \"Greedy, xxh3 "));
    assert_non_null(strstr(text, "[Engine2 \"Greedy, xxh3 "));
    free(text);
    assert_int_equal(run(out, "%s -merge %s/s1.pgn %s/s2.pgn", tool("stern-arena"), dir, dir), 1);
    text = slurp(out);
    if (!strstr(text, "was played by engine 1 built as Greedy, xxh3 ") ||
        !strstr(text, "records of two builds of an engine do not merge"))
        fail_msg("merge of two builds: %s", text);
    free(text);
    /* the same build merges */
    assert_int_equal(run(out, "%s -shard 2/2 -pgnout %s/s2b.pgn", with_g, dir), 0);
    assert_int_equal(run(out, "%s -merge %s/s1.pgn %s/s2b.pgn", tool("stern-arena"), dir, dir), 0);
    /* a shard resumed by another build */
    assert_int_equal(run(out, "%s -shard 1/2 -pgnout %s/s1.pgn -resume", with_other, dir), 2);
    text = slurp(out);
    if (!strstr(text, "was played by another build of engine A (Greedy, xxh3 "))
        fail_msg("resumed by another build: %s", text);
    free(text);
    remove_dir(dir);
}

/* ---- ratings, shards, SPRT, places ---- */

static void test_ratings_of_the_record_file_print_the_arena_table(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char pgn[PATH_MAX], out[PATH_MAX], rated[PATH_MAX];
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(rated, sizeof rated, "%s/rated.txt", dir);
    const char *a = tool("stern-arena"), *g = tool("stern-greedy");
    assert_int_equal(run(out,
                         "%s -engine cmd=%s name=G -engine 'cmd=%s -random 7' name=R -each st=0.2 -games 20 "
                         "-openings random=4 -concurrency 2 -pgnout %s",
                         a, g, g, pgn),
                     0);
    assert_int_equal(run(rated, "%s -ratings %s", a, pgn), 0);
    char *arena = slurp(out), *ratings = slurp(rated);
    assert_string_equal(from_line(arena, "classic-2: 20 games"), ratings);
    assert_non_null(strstr(ratings, "G vs R: "));
    assert_non_null(strstr(ratings, "pentanomial [LL LD DD/WL WD WW]: "));
    assert_non_null(strstr(ratings, ", 10 pairs"));
    free(arena);
    free(ratings);
    remove_dir(dir);
}

static int run_until_first_game_then_signal(char **argv, const char *out, const char *pgn, int sig);

/* Asserts that the records of file `merged` are those of file `whole` game for
 * game: the same game numbers, players, start and moves, and result. */
static void assert_same_games(const char *whole, const char *merged)
{
    Records w = read_records(whole), m = read_records(merged);
    assert_int_equal(m.n, w.n);
    assert_int_equal(m.incomplete, 0);
    static const char *const same[] = {"Variant", "FEN", "White", "Red", "Blue", "Black", "Yellow",
                                       "Green", "Result", "Places", "Termination", "Schedule"};
    for (int i = 0; i < m.n; i++) {
        const long number = atol(tag(&m, i, "Round"));
        const int j = find_game(&w, number);
        if (j < 0)
            fail_msg("game %ld of %s is not in %s", number, merged, whole);
        for (size_t k = 0; k < sizeof same / sizeof *same; k++)
            if (strcmp(tag(&m, i, same[k]), tag(&w, j, same[k])))
                fail_msg("game %ld: %s \"%s\" in %s, \"%s\" in %s", number, same[k], tag(&m, i, same[k]), merged,
                         tag(&w, j, same[k]), whole);
        assert_int_equal(m.g[i].nmoves, w.g[j].nmoves);
        for (int k = 0; k < m.g[i].nmoves; k++)
            assert_string_equal(m.g[i].moves[k], w.g[j].moves[k]);
        if (i > 0) /* -merge writes them in the order of their number */
            assert_true(number > atol(tag(&m, i - 1, "Round")));
    }
    pgn_games_free(w.g, w.n);
    pgn_games_free(m.g, m.n);
}

/* Plays the tournament `args` (deterministic engines: a game depends only on its
 * opening and seats) on one machine into dir/all.pgn, and as 3 shards into
 * dir/shardK.pgn, shard 2 killed (SIGKILL) after its first game and resumed;
 * then checks that -merge of the shards gives the one-machine games and table. */
static void check_shards_make_the_tournament(const char *dir, const char *args, const char *heading)
{
    char out[PATH_MAX], whole[PATH_MAX], merged[PATH_MAX], pgn[PATH_MAX], cmd[6 * PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(whole, sizeof whole, "%s/whole.txt", dir);
    snprintf(merged, sizeof merged, "%s/merged.txt", dir);
    const char *a = tool("stern-arena");
    assert_int_equal(run(out, "%s -pgnout %s/all.pgn", args, dir), 0);
    assert_int_equal(run(whole, "%s -ratings %s/all.pgn", a, dir), 0);
    for (int i = 1; i <= 3; i += 2)
        assert_int_equal(run(out, "%s -shard %d/3 -pgnout %s/shard%d.pgn", args, i, dir, i), 0);
    snprintf(pgn, sizeof pgn, "%s/shard2.pgn", dir);
    snprintf(cmd, sizeof cmd, "exec %s -shard 2/3 -pgnout %s", args, pgn);
    char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    const int st = run_until_first_game_then_signal(argv, out, pgn, SIGKILL);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    char *before = slurp(pgn);
    Records r = read_records(pgn);
    const int kept = r.n;
    const long kept_end = r.g[kept - 1].end;
    pgn_games_free(r.g, r.n);
    /* a missing shard: the games it owes, by number, and exit status 3 */
    assert_int_equal(run(merged, "%s -merge %s/shard1.pgn %s/shard3.pgn", a, dir, dir), 3);
    char *text = slurp(merged);
    assert_non_null(strstr(text, "shard 2/3: "));
    assert_null(strstr(text, "shard 1/3: "));
    free(text);
    assert_int_equal(run(out, "%s -shard 2/3 -pgnout %s -resume", args, pgn), 0);
    char *after_resume = slurp(pgn);
    assert_memory_equal(after_resume, before, (size_t)kept_end); /* the games finished before the kill stand */
    free(before);
    assert_int_equal(run(merged, "%s -merge %s/shard1.pgn %s/shard2.pgn %s/shard3.pgn -pgnout %s/merged.pgn", a, dir,
                         dir, dir, dir),
                     0);
    char all[PATH_MAX], mpgn[PATH_MAX];
    snprintf(all, sizeof all, "%s/all.pgn", dir);
    snprintf(mpgn, sizeof mpgn, "%s/merged.pgn", dir);
    assert_same_games(all, mpgn);
    char *w = slurp(whole), *m = slurp(merged);
    assert_non_null(strstr(w, heading));
    assert_string_equal(w, from_line(m, heading)); /* the merged table is the one-machine table */
    assert_non_null(strstr(m, " 0 missing\n"));
    free(w);
    free(m);
    /* a shard's file resumed as another shard; -pgnout naming an input (another way) */
    assert_int_equal(run(out, "%s -shard 3/3 -pgnout %s -resume", args, pgn), 2);
    text = slurp(out);
    assert_non_null(strstr(text, "was played as shard 2/3, this run is shard 3/3"));
    free(text);
    assert_int_equal(run(out, "%s -merge %s/shard1.pgn %s/shard2.pgn %s/shard3.pgn -pgnout %s/./shard2.pgn", a, dir,
                         dir, dir, dir),
                     2);
    text = slurp(out);
    assert_non_null(strstr(text, "is one of the files to merge"));
    free(text);
    char *untouched = slurp(pgn);
    assert_string_equal(untouched, after_resume);
    free(untouched);
    free(after_resume);
    /* a shard given twice (as a copy) */
    assert_int_equal(run(out, "cp %s/shard1.pgn %s/copy.pgn && %s -merge %s/shard1.pgn %s/shard2.pgn %s/shard3.pgn "
                         "%s/copy.pgn", dir, dir, a, dir, dir, dir, dir),
                     1);
    text = slurp(out);
    assert_non_null(strstr(text, "is recorded twice"));
    free(text);
}

/* -merge -sprt -watch over four shards still playing (a greedy engine against
 * one that crashes at its first move: every pair goes to the first): the
 * watcher sees the LLR grow over whole pairs, decides H1 long before the
 * shards end, runs -on-decision (which stops them) and writes the records it
 * decided on; one process's SPRT over those records (-ratings -sprt) is the
 * same. */
static void test_watch_stops_sharded_sprt_on_decision(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char g[PATH_MAX], cmd[8 * PATH_MAX], out[PATH_MAX];
    snprintf(g, sizeof g, "%s", tool("stern-greedy"));
    snprintf(out, sizeof out, "%s/watch.txt", dir);
    for (int k = 1; k <= 4; k++) {
        snprintf(cmd, sizeof cmd,
                 "%s -engine 'cmd=%s -sleep-ms 40' name=Good -engine 'cmd=%s -crash-at 1' name=Bad -each st=0.2 "
                 "-rounds 400 -quiet -shard %d/4 -pgnout %s/s%d.pgn > /dev/null 2>&1 & echo $! >> %s/pids",
                 tool("stern-arena"), g, g, k, dir, k, dir);
        assert_int_equal(system(cmd), 0);
    }
    const int watched = run(out,
                            "timeout 120 %s -merge %s/s1.pgn %s/s2.pgn %s/s3.pgn %s/s4.pgn -sprt elo0=0 elo1=50 "
                            "-watch 0.2 -pgnout %s/decided.pgn -on-decision 'kill $(cat %s/pids); echo $STERN_SPRT > "
                            "%s/said'",
                            tool("stern-arena"), dir, dir, dir, dir, dir, dir, dir);
    snprintf(cmd, sizeof cmd, "kill $(cat %s/pids) 2>/dev/null; true", dir); /* whatever happened */
    assert_int_equal(system(cmd), 0);
    assert_int_equal(watched, 0);
    char *text = slurp(out);
    const char *line = strstr(text, ": H1 accepted\n");
    if (!line)
        fail_msg("no decision in:\n%s", text);
    while (line > text && line[-1] != '\n')
        line--;
    long recorded, total;
    assert_int_equal(sscanf(strchr(line, ':') + 2, "%ld of %ld games recorded", &recorded, &total), 2);
    assert_int_equal(total, 800);
    assert_true(recorded < total / 2); /* stopped early */
    char llr[64];
    snprintf(llr, sizeof llr, "%.*s", (int)strcspn(strstr(line, "LLR "), "]") + 1, strstr(line, "LLR "));
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/said", dir);
    char *said = slurp(path);
    assert_string_equal(said, "H1\n");
    free(said);
    /* one process's SPRT over the records the watcher decided on */
    assert_int_equal(run(out, "%s -ratings %s/decided.pgn -sprt elo0=0 elo1=50", tool("stern-arena"), dir), 0);
    char *rated = slurp(out);
    char want[128];
    snprintf(want, sizeof want, "%s: H1 accepted", llr);
    if (!strstr(rated, want))
        fail_msg("the watcher said '%s', one process over its records:\n%s", want, rated);
    free(rated);
    free(text);
    /* -watch alone, without -sprt, is refused */
    assert_int_equal(run(out, "%s -merge %s/s1.pgn -watch 1", tool("stern-arena"), dir), 2);
    text = slurp(out);
    assert_non_null(strstr(text, "-watch goes with -merge and -sprt"));
    free(text);
    remove_dir(dir);
}

static void test_shards_merge_into_the_whole_tournament(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char args[4 * PATH_MAX + 512], out[PATH_MAX], g[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(g, sizeof g, "%s", tool("stern-greedy")); /* tool() reuses its buffers */
    snprintf(args, sizeof args,
             "%s -variant classic-3 -engine 'cmd=%s -sleep-ms 2' name=A -engine 'cmd=%s -name B -sleep-ms 2' name=B "
             "-engine 'cmd=%s -random 5' name=C restart=on -each st=0.2 -rounds 4 -openings random=5 -quiet",
             tool("stern-arena"), g, g, g);
    check_shards_make_the_tournament(dir, args, "classic-3: 12 games, 3 players");
    /* records of another schedule (other openings) do not merge */
    assert_int_equal(run(out, "%s -srand 2 -shard 1/3 -pgnout %s/other.pgn", args, dir), 0);
    assert_int_equal(run(out, "%s -merge %s/shard1.pgn %s/other.pgn", tool("stern-arena"), dir, dir), 1);
    char *text = slurp(out);
    assert_non_null(strstr(text, "records of two different tournaments"));
    free(text);
    remove_dir(dir);
    dir = temp_dir();
    /* two seats: the greedy engine against a random mover (a new process each game, so that its
     * moves depend on the game alone); Stern's own games are sharded in make test-slurm */
    snprintf(args, sizeof args,
             "%s -engine 'cmd=%s -sleep-ms 2' name=G -engine 'cmd=%s -random 7' name=R restart=on -each st=1 "
             "-games 4 -rounds 3 -openings random=4 -quiet",
             tool("stern-arena"), g, g);
    check_shards_make_the_tournament(dir, args, "classic-2: 12 games, 2 players");
    remove_dir(dir);
}

static void test_sprt_stops_the_match_when_decided(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    assert_int_equal(run(out,
                         "%s -engine cmd=%s name=G -engine 'cmd=%s -random 3' name=R -each st=0.2 -games 400 "
                         "-openings random=4 -sprt elo0=0 elo1=50 -pgnout %s/games.pgn",
                         tool("stern-arena"), tool("stern-greedy"), tool("stern-greedy"), dir),
                     0);
    char *text = slurp(out), pgn[PATH_MAX];
    assert_non_null(strstr(text, "H1 accepted"));
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    Records r = read_records(pgn);
    assert_true(r.n >= 10 && r.n < 100);
    pgn_games_free(r.g, r.n);
    free(text);
    remove_dir(dir);
}

static void test_multi_seat_and_team_tournaments_are_rated_from_places(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    const char *a = tool("stern-arena"), *g = tool("stern-greedy");
    assert_int_equal(run(out,
                         "%s -variant classic-6 -engine cmd=%s name=G -engine 'cmd=%s -random 1' name=R "
                         "-each st=0.2 -openings random=6 -games 4 -pgnout %s/six.pgn",
                         a, g, g, dir),
                     0);
    char *text = slurp(out);
    assert_non_null(strstr(text, "classic-6: 4 games, 2 players (ratings from places"));
    assert_non_null(strstr(text, "game 2: w=R r=G u=R b=G y=R g=G: "));
    assert_non_null(strstr(text, "places (1st to 6th):"));
    free(text);
    /* seats=: one engine against two copies of another, each seat rotation once */
    assert_int_equal(run(out,
                         "%s -variant classic-3 -engine cmd=%s name=G -engine 'cmd=%s -random 1' name=R seats=2 "
                         "-each st=0.2 -openings random=4 -pgnout %s/seats.pgn",
                         a, g, g, dir),
                     0);
    text = slurp(out);
    assert_non_null(strstr(text, "classic-3: 3 games, 2 players"));
    assert_non_null(strstr(text, "game 1: w=G u=R y=R: "));
    assert_non_null(strstr(text, "game 2: w=R u=R y=G: "));
    assert_non_null(strstr(text, "game 3: w=R u=G y=R: "));
    const char *rows = strstr(text, "places (1st to 3rd):");
    assert_non_null(rows);
    int g_places[3], r_places[3];
    const char *grow = strstr(rows, "\n        G "), *rrow = strstr(rows, "\n        R ");
    assert_non_null(grow);
    assert_non_null(rrow);
    assert_int_equal(sscanf(grow, " G %d %d %d", &g_places[0], &g_places[1], &g_places[2]), 3);
    assert_int_equal(sscanf(rrow, " R %d %d %d", &r_places[0], &r_places[1], &r_places[2]), 3);
    assert_int_equal(g_places[0] + g_places[1] + g_places[2], 3);
    assert_int_equal(r_places[0] + r_places[1] + r_places[2], 6);
    free(text);
    assert_int_equal(run(out,
                         "%s -variant pairs-6 -engine cmd=%s name=G -engine 'cmd=%s -random 1' name=R1 "
                         "-engine 'cmd=%s -random 2' name=R2 -each st=0.2 -openings random=6 -pgnout %s/teams.pgn",
                         a, g, g, g, dir),
                     0);
    text = slurp(out);
    assert_non_null(strstr(text, "pairs-6: 3 games, 3 teams (ratings from places"));
    assert_non_null(strstr(text, "game 1: w=G r=R1 u=R2 b=G y=R1 g=R2: ")); /* partners share an engine */
    free(text);
    char pgn[PATH_MAX];
    snprintf(pgn, sizeof pgn, "%s/teams.pgn", dir);
    Records r = read_records(pgn);
    assert_games_once(&r, 3);
    const int i = find_game(&r, 2);
    assert_true(i >= 0);
    assert_string_equal(tag(&r, i, "White"), "R1");
    assert_string_equal(tag(&r, i, "Black"), "R1");
    pgn_games_free(r.g, r.n);
    remove_dir(dir);
}

/* stern-play names the seats eliminated on the way and counts those games: white
 * cannot take its home-tip marble out on its 30th move (no marble to jump over,
 * every step stays in the home). */
static void test_play_reports_eliminated_seats(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    assert_int_equal(run(out,
                         "%s -quiet -engine %s -movetime 200 -games 2 "
                         "-fen 'b/bb/bbb/bbbb/13/12/11/10/wwwwwwwww/10/11/12/13/4/3/2/w w w29,b29 30'",
                         tool("stern-play"), tool("stern-greedy")),
                     0);
    char *text = slurp(out);
    assert_non_null(strstr(text, "game 1: result w:2 b:1 reason deadline eliminated w\n"));
    assert_non_null(strstr(text, "game 2: result w:2 b:1 reason deadline eliminated w\n"));
    assert_non_null(strstr(text, "games with a seat eliminated: 2\n"));
    free(text);
    assert_int_equal(run(out, "%s -quiet -engine %s -movetime 200 -games 2 -random 2", tool("stern-play"),
                         tool("stern-greedy")),
                     0);
    text = slurp(out);
    assert_null(strstr(text, " eliminated "));
    assert_non_null(strstr(text, "games with a seat eliminated: 0\n"));
    free(text);
    remove_dir(dir);
}

/* ---- interruption, groups, intervals, counts, engines that cannot start ---- */

/* Runs argv (NULL-terminated) as a child with stdout and stderr to `out`, waits
 * until `pgn` holds at least one whole game, sends it `sig` and returns its wait
 * status. */
static int run_until_first_game_then_signal(char **argv, const char *out, const char *pgn, int sig)
{
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    const int64_t t0 = ep_now_ms();
    for (;;) {
        char *text = slurp(pgn);
        const int n = count_records(text);
        const bool whole = n >= 1 && strstr(strstr(text, "[Round "), "\n\n") != NULL; /* its moves began */
        free(text);
        if (whole) {
            Records r = read_records(pgn);
            const int complete = r.n;
            pgn_games_free(r.g, r.n);
            if (complete >= 1)
                break;
        }
        if (ep_now_ms() - t0 > 10 * QUICK_MS)
            fail_msg("no game was recorded");
        usleep(WAIT_STEP_MS * 1000);
    }
    kill(pid, sig);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return st;
}

/* Ctrl-C killed the arena at once (status of the signal): no word of what was
 * saved, of -resume, no table. Now SIGINT (and SIGTERM) stop the games in
 * progress, leave no engine running, say how many finished games the record file
 * holds and the command to resume, print the table of those games and exit with
 * 128 + the signal; the file holds whole games only, and the printed command
 * finishes the tournament. */
static void test_arena_interrupt_stops_cleanly_and_says_how_to_resume(void **state)
{
    (void)state;
    static const int sigs[] = {SIGINT, SIGTERM};
    for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
        const char *dir = temp_dir();
        char pgn[PATH_MAX], out[PATH_MAX], again[PATH_MAX], g1[PATH_MAX + 64], g2[PATH_MAX + 64], token[64];
        snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
        snprintf(out, sizeof out, "%s/out.txt", dir);
        snprintf(again, sizeof again, "%s/again.txt", dir);
        snprintf(token, sizeof token, "intr-%d-%zu", (int)getpid(), k);
        snprintf(g1, sizeof g1, "cmd=%s -sleep-ms 2 -name %s", tool("stern-greedy"), token);
        snprintf(g2, sizeof g2, "cmd=%s -sleep-ms 2", tool("stern-greedy"));
        /* under SIGTERM (a Slurm task's end) the run is shard 1 of an array of 2, -shard auto */
        char *argv[] = {(char *)tool("stern-arena"), "-engine", g1, "name=A", "-engine", g2, "name=B", "-each",
                        "st=0.2", "-games", "24", "-openings", "random=6", "-concurrency", "2", "-quiet", "-pgnout",
                        pgn, sigs[k] == SIGTERM ? "-shard" : NULL, "auto", NULL};
        if (sigs[k] == SIGTERM) {
            setenv("SLURM_ARRAY_TASK_ID", "7", 1);
            setenv("SLURM_ARRAY_TASK_MIN", "7", 1);
            setenv("SLURM_ARRAY_TASK_STEP", "1", 1);
            setenv("SLURM_ARRAY_TASK_COUNT", "2", 1);
        }
        const int st = run_until_first_game_then_signal(argv, out, pgn, sigs[k]);
        unsetenv("SLURM_ARRAY_TASK_ID");
        unsetenv("SLURM_ARRAY_TASK_MIN");
        unsetenv("SLURM_ARRAY_TASK_STEP");
        unsetenv("SLURM_ARRAY_TASK_COUNT");
        char *text = slurp(out);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 128 + sigs[k])
            fail_msg("wait status 0x%x after signal %d, output:\n%s", st, sigs[k], text);
        assert_false(process_running(token)); /* its engines were stopped */
        Records r = read_records(pgn);
        assert_int_equal(r.incomplete, 0); /* whole games only */
        assert_true(r.n >= 1 && r.n < RESUME_GAMES);
        char saved[PATH_MAX + 64], header[64];
        snprintf(saved, sizeof saved, "saved: %d finished game%s in %s\n", r.n, r.n == 1 ? "" : "s", pgn);
        snprintf(header, sizeof header, "classic-2: %d games, 2 players\n", r.n);
        if (!strstr(text, saved) || !strstr(text, header) ||
            (!strstr(text, "\n  A vs B: ") && !strstr(text, "\n  B vs A: "))) /* the first game's White first */
        {
            fprintf(stderr, "%s", text);
            fail_msg("no '%s' or table '%s' in the output above", saved, header);
        }
        const char *go_on = strstr(text, "to go on, run the same command with -resume:\n  ");
        if (!go_on)
            fail_msg("no resume command in:\n%s", text);
        go_on += strlen("to go on, run the same command with -resume:\n  ");
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "%.*s", (int)strcspn(go_on, "\n"), go_on);
        assert_non_null(strstr(cmd, " -resume"));
        if (sigs[k] == SIGTERM) /* the task's shard, not `auto`: the command works outside the array too */
            if (!strstr(cmd, " -shard 1/2 ") || strstr(cmd, "auto"))
                fail_msg("the resume command of -shard auto (task 1 of 2): %s", cmd);
        pgn_games_free(r.g, r.n);
        if (sigs[k] == SIGINT) { /* the printed command goes on where the run stopped */
            assert_int_equal(run(again, "%s", cmd), 0);
            r = read_records(pgn);
            assert_games_once(&r, RESUME_GAMES);
            pgn_games_free(r.g, r.n);
        }
        free(text);
        remove_dir(dir);
    }
}

/* Runs a match of engines `a` and `b` (greedy, the second playing randomly with
 * seed `seed`) of `games` games into pgn; asserts it succeeds. */
static void play_match(const char *out, const char *pgn, const char *a, const char *b, int seed, int games)
{
    assert_int_equal(run(out,
                         "%s -engine cmd=%s name=%s -engine 'cmd=%s -random %d' name=%s -each st=0.2 -games %d "
                         "-openings random=4 -quiet -pgnout %s",
                         tool("stern-arena"), tool("stern-greedy"), a, tool("stern-greedy"), seed, b, games, pgn),
                     0);
}

/* -ratings of A-B games and C-D games rated the four on one scale that only the
 * fit's prior tied together. Now one warning line names the two groups and each
 * is rated on its own: here each pair as a two-player match. */
static void test_ratings_of_players_that_never_met_rate_each_group_alone(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], ab[PATH_MAX], cd[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(ab, sizeof ab, "%s/ab.pgn", dir);
    snprintf(cd, sizeof cd, "%s/cd.pgn", dir);
    play_match(out, ab, "A", "B", 1, 2);
    play_match(out, cd, "C", "D", 2, 4);
    assert_int_equal(run(out, "%s -ratings %s %s", tool("stern-arena"), ab, cd), 0);
    char *text = slurp(out);
    const char *want[] = {
        "classic-2: 6 games, 4 players\n",
        "warning: classic-2: the players form 2 groups that never met, each rated on a scale of its own",
        ": group 1: A, B; group 2: C, D\n",
        "classic-2 group 1: 2 games, 2 players\n  A vs B: ",
        "classic-2 group 2: 4 games, 2 players\n  C vs D: ",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(text, want[i]))
            fail_msg("no '%s' in:\n%s", want[i], text);
    assert_null(strstr(text, "ratings from places")); /* no combined fit */
    free(text);
    remove_dir(dir);
}

/* A row of a ratings-from-places table. */
typedef struct {
    double elo, low, high, mean_place;
    int games;
} TableRow;

/* An Elo value as printed ("+12.3", "+inf", "-inf"); NAN for "". */
static double elo_value(const char *s)
{
    return !*s ? NAN : !strcmp(s, "+inf") ? INFINITY : !strcmp(s, "-inf") ? -INFINITY : atof(s);
}

/* The row of player `name` in the first ratings-from-places table of text
 * ("  rank  name  elo  [low, high]  games  mean place ..."). */
static TableRow table_row(const char *text, const char *name)
{
    for (const char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        int rank;
        char who[64], elo[32], lo[32], hi[32];
        TableRow r;
        if (sscanf(line, " %d %63s %31s [%31[^,], %31[^]]] %d %lf", &rank, who, elo, lo, hi, &r.games,
                   &r.mean_place) == 7 &&
            !strcmp(who, name)) {
            r.elo = elo_value(elo);
            r.low = elo_value(lo);
            r.high = elo_value(hi);
            return r;
        }
    }
    fail_msg("no row of %s in:\n%s", name, text);
    return (TableRow){0};
}

/* One engine against two copies of a random one in classic-3 (seats=2): G wins
 * every game, R's two seats are behind it every time. Runs it in dir and returns
 * the output (malloc'ed). */
static char *one_against_two_copies(const char *dir)
{
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    assert_int_equal(run(out,
                         "%s -variant classic-3 -engine cmd=%s name=G -engine 'cmd=%s -random 1' name=R seats=2 "
                         "-each st=0.2 -openings random=4 -quiet -pgnout %s/seats.pgn",
                         tool("stern-arena"), tool("stern-greedy"), tool("stern-greedy"), dir),
                     0);
    return slurp(out);
}

/* A player that won every comparison had the degenerate interval
 * [+416.6, +416.6] (every resample is as perfect, only the prior holds it):
 * now it is open above, [+416.6, +inf], as two-player Elo reaches +inf, and the
 * player that lost every comparison is open below. */
static void test_arena_table_of_a_perfect_score_is_open_ended(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char *text = one_against_two_copies(dir);
    const char *table = from_line(text, "classic-3: 3 games, 2 players");
    assert_non_null(strstr(table, "6.0/6 (100.0 %)")); /* G won every comparison */
    const TableRow g = table_row(table, "G"), r = table_row(table, "R");
    if (!(isfinite(g.low) && g.low == g.elo && isinf(g.high) && g.high > 0))
        fail_msg("G won every comparison, its interval is not [elo, +inf]:\n%s", table);
    if (!(isinf(r.low) && r.low < 0 && isfinite(r.high) && r.high == r.elo))
        fail_msg("R lost every comparison, its interval is not [-inf, elo]:\n%s", table);
    free(text);
    remove_dir(dir);
}

/* The header of a table said "3 games" while the row of an engine with two seats
 * in every game said 6: a row counted each seat as a game. Now every row counts
 * the games its player took part in, as the header does (the places rows, which
 * count seats, say so), in the arena's table and in that of -ratings. */
static void test_arena_table_rows_count_games_as_the_header(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char *text = one_against_two_copies(dir);
    const char *table = from_line(text, "classic-3: 3 games, 2 players");
    const TableRow g = table_row(table, "G"), r = table_row(table, "R");
    assert_int_equal(g.games, 3);
    assert_int_equal(r.games, 3);
    assert_true(fabs(r.mean_place - 2.5) < 1e-9); /* the mean over its 6 seats, places 2 and 3 */
    assert_non_null(strstr(table, "counted per seat"));
    free(text);
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/rated.txt", dir);
    assert_int_equal(run(out, "%s -ratings %s/seats.pgn", tool("stern-arena"), dir), 0);
    text = slurp(out);
    assert_non_null(strstr(text, "classic-3: 3 games, 2 players"));
    assert_int_equal(table_row(text, "R").games, 3);
    free(text);
    remove_dir(dir);
}

/* Checks every "Elo" figure of text: a "+/- H" must agree with its interval
 * [L, U] and, on a progress line ("+W =D -L ... Elo ..."), with the interval that
 * the line's W/D/L counts give: the estimate lies H from either end, to print
 * precision. Returns the number of finite intervals that are not symmetric about
 * their estimate (there the +/- cannot agree, so it must not be printed). */
static int check_plus_minus(const char *text)
{
    int asymmetric = 0;
    for (const char *p = text; (p = strstr(p, "Elo")); p++) {
        const char *line = p;
        while (line > text && line[-1] != '\n')
            line--;
        const char *q = p + 3;
        if (!strncmp(q, " (pairs)", 8))
            q += 8;
        if (*q == ':')
            q++;
        char est[32], lo[32] = "", hi[32] = "";
        double h = NAN;
        int n;
        if (sscanf(q, " %31s%n", est, &n) != 1 || !strchr("+-", est[0]) || !est[1])
            continue;
        q += n;
        if (sscanf(q, " +/- %lf%n", &h, &n) == 1)
            q += n;
        if (sscanf(q, " [%31[^,], %31[^]]]", lo, hi) != 2)
            lo[0] = hi[0] = '\0';
        double elo = elo_value(est), low = elo_value(lo), high = elo_value(hi);
        int w, d, l;
        const char *colon = strchr(line, ':');
        if (line[0] == '[' && colon && sscanf(colon + 1, " +%d =%d -%d", &w, &d, &l) == 3) {
            const EloResult r = elo_from_wdl(w, d, l); /* what the line's counts give */
            elo = r.elo, low = r.elo_low, high = r.elo_high;
        } else if (!lo[0])
            continue;
        if (!isnan(h) && !(fabs(elo - h - low) <= 0.11 && fabs(elo + h - high) <= 0.11))
            fail_msg("'+/- %.1f' disagrees with the interval [%.1f, %.1f] of %.1f:\n%.*s", h, low, high, elo,
                     (int)strcspn(line, "\n"), line);
        asymmetric += isfinite(low) && isfinite(high) && fabs((high - elo) - (elo - low)) > 0.2;
    }
    return asymmetric;
}

/* A line read "Elo -50.0 +/- 353.8" (progress) or "-50.0 +/- 353.8 [-472.0,
 * +235.6]" (table): the +/- was the half-width of an interval not centred on the
 * estimate. Now the +/- is printed only where it agrees with the interval (its
 * half-width, the estimate in the middle), the interval always. */
static void test_arena_plus_minus_agrees_with_the_interval(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], pgn[PATH_MAX], seven[PATH_MAX], rated[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(seven, sizeof seven, "%s/seven.pgn", dir);
    snprintf(rated, sizeof rated, "%s/rated.txt", dir);
    /* two deterministic engines of equal strength: each opening is won by one
     * seat, so odd numbers of games score 4-3 or 3-4 */
    assert_int_equal(run(out,
                         "%s -engine cmd=%s name=A -engine 'cmd=%s -name B' name=B -each st=0.2 -games 8 "
                         "-openings random=4 -quiet -pgnout %s",
                         tool("stern-arena"), tool("stern-greedy"), tool("stern-greedy"), pgn),
                     0);
    char *text = slurp(out);
    const int progress_asymmetric = check_plus_minus(text);
    free(text);
    Records r = read_records(pgn); /* the first 7 games rated alone */
    char *all = slurp(pgn);
    FILE *f = fopen(seven, "w");
    assert_non_null(f);
    for (int i = 0; i < r.n; i++)
        if (atol(tag(&r, i, "Round")) <= 7)
            fwrite(all + r.g[i].start, 1, (size_t)(r.g[i].end - r.g[i].start), f);
    fclose(f);
    free(all);
    pgn_games_free(r.g, r.n);
    assert_int_equal(run(rated, "%s -ratings %s", tool("stern-arena"), seven), 0);
    text = slurp(rated);
    assert_non_null(strstr(text, "classic-2: 7 games, 2 players"));
    const int table_asymmetric = check_plus_minus(text);
    free(text);
    if (!progress_asymmetric || !table_asymmetric)
        fail_msg("no asymmetric interval to check (progress %d, table %d)", progress_asymmetric, table_asymmetric);
    char buf[128]; /* the form itself */
    assert_string_equal(arena_table_elo_interval_text(-50.0, -472.0, 235.6, buf, sizeof buf), "-50.0 [-472.0, +235.6]");
    assert_string_equal(arena_table_elo_interval_text(0, -296.6, 296.6, buf, sizeof buf),
                        "+0.0 +/- 296.6 [-296.6, +296.6]");
    assert_string_equal(arena_table_elo_interval_text(INFINITY, INFINITY, INFINITY, buf, sizeof buf),
                        "+inf [+inf, +inf]");
    remove_dir(dir);
}

/* A proto=ccp engine is spoken to in CCP (the handshake `ccp`, positions as cells
 * with no history, moves in cell ids) and plays whole ccerl-2 games against a UCI
 * engine; proto=ccp in another variant is refused before any game. */
static void test_arena_plays_ccp_engines(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char pgn[PATH_MAX], out[PATH_MAX], heard[PATH_MAX];
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(heard, sizeof heard, "%s/heard.txt", dir);
    const char *stern = tool("stern");
    int st = run(out, "%s -variant ccerl-2 -engine 'cmd=tee -a %s | %s' name=ccp proto=ccp -engine cmd=%s name=uci "
                      "-each depth=2 -games 2 -pgnout %s",
                 tool("stern-arena"), heard, stern, stern, pgn);
    char *text = slurp(out);
    if (st)
        fail_msg("stern-arena exited with %d:\n%s", st, text);
    free(text);
    Records r = read_records(pgn);
    assert_games_once(&r, 2);
    for (int i = 0; i < 2; i++) {
        const char *why = tag(&r, i, "Termination");
        if (strcmp(why, "arrived") && strcmp(why, "blocked") && strcmp(why, "limit") && strcmp(why, "repetition"))
            fail_msg("game %d ended '%s', not by the rules", i + 1, why);
        assert_true(r.g[i].nmoves > 20);
    }
    pgn_games_free(r.g, r.n);
    char *said = slurp(heard);
    if (strncmp(said, "ccp\n", 4) || !strstr(said, "\nposition cells ") || strstr(said, "position startpos") ||
        strstr(said, "uci") || strstr(said, "Variant"))
        fail_msg("the CCP engine was not spoken to in CCP:\n%.600s", said);
    free(said);
    st = run(out, "%s -variant classic-2 -engine cmd=%s proto=ccp -engine cmd=%s -each depth=1 -games 2",
             tool("stern-arena"), stern, stern);
    text = slurp(out);
    assert_int_not_equal(st, 0);
    if (!strstr(text, "proto=ccp plays ccerl-2 only, not classic-2"))
        fail_msg("proto=ccp in classic-2: %s", text);
    free(text);
    remove_dir(dir);
}

/* An engine that could not start was found out by its first game, so in a round
 * robin the other engines' games were played and recorded first, and with name=
 * the message named only the engine ("engine C failed to start: engine closed its
 * output"). Now every engine is started once before the first game: one that
 * cannot start ends the run there, naming it and its command, with no record. */
static void test_arena_engine_that_cannot_start_stops_before_any_game(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], pgn[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    const char *bad[] = {"cmd=/nonexistent/engine", "cmd=/nonexistent/engine name=C",
                         "'cmd=/nonexistent/engine --flag' name=C"};
    const char *named[] = {"cmd=/nonexistent/engine", "cmd=/nonexistent/engine", "cmd=/nonexistent/engine --flag"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const int st = run(out,
                           "%s -engine cmd=%s name=A -engine 'cmd=%s -random 1' name=B -engine %s -each st=0.2 "
                           "-concurrency 2 -pgnout %s",
                           tool("stern-arena"), tool("stern-greedy"), tool("stern-greedy"), bad[i], pgn);
        char *text = slurp(out);
        if (st == 0 || !strstr(text, "never started") || !strstr(text, named[i]) || strstr(text, "game 1:"))
            fail_msg("-engine %s: status %d, output:\n%s", bad[i], st, text);
        if (i)
            assert_non_null(strstr(text, "engine C "));
        free(text);
        text = slurp(pgn);
        assert_int_equal(count_records(text), 0);
        free(text);
        unlink(pgn);
    }
    remove_dir(dir);
}

/* An engine that refused an option the arena sent (`info string error
 * setoption: ...` before its readyok) was reported as "never started: ...
 * (still running)", which sent the user to its command line. It is reported
 * as started, with the option and the engine's own words. */
static void test_arena_reports_a_refused_option_as_refused(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], pgn[PATH_MAX], picky[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(picky, sizeof picky, "%s/picky", dir);
    FILE *f = fopen(picky, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\nwhile read -r l; do case \"$l\" in\n"
          "uci) echo 'id name Picky'; echo uciok;;\n"
          "'setoption name Hash value 0') echo 'info string error setoption: Hash must be 1-65536';;\n"
          "isready) echo readyok;;\nquit) exit 0;;\nesac; done\n", f);
    fclose(f);
    assert_int_equal(chmod(picky, 0755), 0);
    const int st = run(out, "%s -engine cmd=%s option.Hash=0 -engine cmd=%s name=Greedy -each depth=1 -games 2 "
                            "-pgnout %s", tool("stern-arena"), picky, tool("stern-greedy"), pgn);
    char *text = slurp(out), want[2 * PATH_MAX];
    snprintf(want, sizeof want, "stern-arena: engine 1 started, but option Hash=0 refused: info string error "
             "setoption: Hash must be 1-65536; cmd=%s; no game was played\n", picky);
    assert_string_equal(text, want);
    assert_int_equal(st, 2);
    free(text);
    text = slurp(pgn);
    assert_int_equal(count_records(text), 0);
    free(text);
    remove_dir(dir);
}

/* A table of one engine against itself (no second engine, so every unit is
 * a copy of it) counted nothing: its progress line said "Greedy vs field: +0
 * =0 -0" after decisive games, and its table rated one player on no
 * comparison, "+0.0 [+0.0, +0.0] ... 0.0/0". Its games are counted: decisive
 * and drawn, and the places by seat, in the progress line, the arena's table
 * and -ratings'. */
static void test_arena_table_of_one_engine_counts_its_decisive_games(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], pgn[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    int st = run(out, "%s -engine cmd=%s -each depth=1 -games 4 -openings random=4 -pgnout %s", tool("stern-arena"),
                 tool("stern-greedy"), pgn);
    char *text = slurp(out);
    if (st)
        fail_msg("stern-arena exited with %d:\n%s", st, text);
    Records r = read_records(pgn);
    assert_games_once(&r, 4);
    int white = 0, black = 0, drawn = 0;
    for (int i = 0; i < r.n; i++) {
        assert_string_equal(tag(&r, i, "White"), "Greedy");
        assert_string_equal(tag(&r, i, "Black"), "Greedy");
        const char *res = tag(&r, i, "Result");
        white += !strcmp(res, "1-0"), black += !strcmp(res, "0-1"), drawn += !strcmp(res, "1/2-1/2");
    }
    assert_int_equal(white + black + drawn, 4);
    assert_true(white + black > 0); /* a decisive game to count */
    char want[1024];
    snprintf(want, sizeof want, "[4/4] Greedy vs itself: %d decisive, %d drawn; White +%d =%d -%d\n", white + black,
             drawn, white, drawn, black);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want,
             "classic-2: 4 games, 1 player\n"
             "  Greedy against itself: %d decisive, %d drawn (one player: nothing to rate)\n"
             "  places by seat (1st to 2nd):\n"
             "        White       %6d%6d\n"
             "        Black       %6d%6d\n",
             white + black, drawn, white + drawn, black, black + drawn, white);
    assert_string_equal(from_line(text, "classic-2: 4 games"), want);
    free(text);
    st = run(out, "%s -ratings %s", tool("stern-arena"), pgn);
    text = slurp(out);
    assert_int_equal(st, 0);
    assert_string_equal(text, want);
    free(text);
    pgn_games_free(r.g, r.n);
    remove_dir(dir);
}

/* README.md's stern-arena example played every game from the start
 * position: two of its four games, the same engines at the same seats, were
 * the same for 21 plies, and a deterministic engine plays a whole game
 * again. The example, run with 4 games and a node budget (fast, and the same
 * search every time: the worst case), must give each pair of games (one
 * opening, colours swapped) an opening of its own: no two games with the same
 * engines at the same seats start alike. */
static void test_readme_arena_example_plays_varied_openings(void **state)
{
    (void)state;
    char *readme = slurp("README.md");
    const char *start = strstr(readme, "For example, `build/stern-arena ");
    assert_non_null(start);
    start += strlen("For example, `");
    const char *end = strchr(start, '`');
    assert_non_null(end);
    const char *dir = temp_dir();
    char bin[PATH_MAX], cmd[4096] = "", pgn[PATH_MAX], out[PATH_MAX];
    snprintf(bin, sizeof bin, "%s", tool("stern"));
    *strrchr(bin, '/') = '\0';
    snprintf(pgn, sizeof pgn, "%s/match.pgn", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    size_t len = 0; /* its words, lines joined; the build directory, a small run */
    for (const char *p = start; p < end;) {
        const size_t n = strcspn(p, " \n`");
        char word[512];
        snprintf(word, sizeof word, "%.*s", (int)n, p);
        const char *w = word;
        char path[PATH_MAX + 64];
        if (!strcmp(word, "200"))
            w = "4";
        else if (!strcmp(word, "tc=2+0.05"))
            w = "nodes=300";
        else if (!strcmp(word, "match.pgn"))
            w = pgn;
        else if (!strncmp(word, "build/", 6) || !strncmp(word, "cmd=build/", 10)) {
            const char *rest = strstr(word, "build/") + 6;
            snprintf(path, sizeof path, "%.*s%s/%s", (int)(strstr(word, "build/") - word), word, bin, rest);
            w = path;
        }
        if (n)
            len += (size_t)snprintf(cmd + len, sizeof cmd - len, "%s%s", len ? " " : "", w);
        p += n + (p + n < end);
    }
    free(readme);
    assert_non_null(strstr(cmd, " -games 4 "));
    assert_non_null(strstr(cmd, " -each nodes=300 "));
    const int st = run(out, "%s -quiet", cmd);
    char *text = slurp(out);
    if (st)
        fail_msg("%s: status %d\n%s", cmd, st, text);
    free(text);
    Records r = read_records(pgn);
    assert_games_once(&r, 4);
    int openings = 0;
    for (int i = 0; i < r.n; i++) {
        bool new_opening = true;
        for (int j = 0; j < i; j++) {
            const bool same_start = !strcmp(tag(&r, i, "FEN"), tag(&r, j, "FEN"));
            new_opening &= !same_start;
            if (same_start && !strcmp(tag(&r, i, "White"), tag(&r, j, "White")))
                fail_msg("games %d and %d: %s as white from the same position (%s): %s", j + 1, i + 1,
                         tag(&r, i, "White"), tag(&r, i, "FEN")[0] ? tag(&r, i, "FEN") : "the start", cmd);
        }
        openings += new_opening;
    }
    assert_int_equal(openings, 2);
    pgn_games_free(r.g, r.n);
    remove_dir(dir);
}

/* Writes len bytes of text to path. */
static void write_bytes(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* The record reader had no bound on a line: -ratings /dev/zero grew to GBs,
 * and -resume on a file of NULs read it as blank lines, exited 0 and appended
 * its games after them. A file with a NUL byte or a line over
 * PGN_READ_LINE_MAX bytes is refused by -ratings, -resume and -merge, naming
 * the file and line, with a non-zero status; -resume writes nothing. */
static void test_arena_refuses_a_record_file_with_nul_bytes_or_an_over_long_line(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], nul[PATH_MAX], longer[PATH_MAX], want[4 * PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(nul, sizeof nul, "%s/nul.pgn", dir);
    snprintf(longer, sizeof longer, "%s/long.pgn", dir);
    static char zeros[4096];
    write_bytes(nul, zeros, sizeof zeros);
    static const char game[] = "[Event \"b\"]\n";
    const size_t len = sizeof game - 1 + PGN_READ_LINE_MAX + 2;
    char *text = malloc(len);
    assert_non_null(text);
    memcpy(text, game, sizeof game - 1);
    memset(text + sizeof game - 1, 'x', PGN_READ_LINE_MAX + 1); /* line 2: one byte too many */
    text[len - 1] = '\n';
    write_bytes(longer, text, len);
    free(text);
    const char *const files[] = {nul, longer};
    const char *const why[] = {"1: a NUL byte at column 1", "2: a line longer than 1048576 bytes"};
    for (int k = 0; k < 2; k++) {
        int st = run(out, "%s -ratings %s", tool("stern-arena"), files[k]);
        char *said = slurp(out);
        snprintf(want, sizeof want, "stern-arena: %s:%s: not a record file\n", files[k], why[k]);
        assert_string_equal(said, want);
        assert_int_equal(st, 1);
        free(said);
        st = run(out, "%s -merge %s", tool("stern-arena"), files[k]);
        said = slurp(out);
        snprintf(want, sizeof want, "stern-arena: -merge: %s:%s: not a record file\n", files[k], why[k]);
        assert_string_equal(said, want);
        assert_int_equal(st, 1);
        free(said);
        struct stat before, after;
        assert_int_equal(stat(files[k], &before), 0);
        st = run(out, "%s -engine cmd=%s name=A -engine 'cmd=%s -random 1' name=B -each depth=1 -games 2 -pgnout %s "
                      "-resume", tool("stern-arena"), tool("stern-greedy"), tool("stern-greedy"), files[k]);
        said = slurp(out);
        snprintf(want, sizeof want, "stern-arena: %s:%s: not a record file\n", files[k], why[k]);
        assert_string_equal(said, want);
        assert_int_equal(st, 2);
        free(said);
        assert_int_equal(stat(files[k], &after), 0);
        assert_int_equal(after.st_size, before.st_size); /* nothing appended */
    }
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedule_round_robin_swaps_seats_and_shares_openings_per_round),
        cmocka_unit_test(test_schedule_gauntlet_and_fewer_engines_than_seats),
        cmocka_unit_test(test_schedule_seats_puts_one_engine_against_copies),
        cmocka_unit_test(test_schedule_shards_split_whole_sets_and_cover_every_game),
        cmocka_unit_test(test_openings_from_fen_and_record_files),
        cmocka_unit_test(test_greedy_answers_the_protocol_with_legal_moves),
        cmocka_unit_test(test_referee_sends_each_seat_its_own_limits),
        cmocka_unit_test(test_arena_clock_of_moves_per_period_refills_and_sends_movestogo),
        cmocka_unit_test(test_arena_engine_crashing_mid_game_loses_and_is_restarted),
        cmocka_unit_test(test_arena_illegal_move_loses),
        cmocka_unit_test(test_arena_silent_engine_loses_on_time_and_is_killed),
        cmocka_unit_test(test_arena_engine_over_its_clock_loses_on_time),
        cmocka_unit_test(test_arena_killed_then_resumed_loses_no_finished_game),
        cmocka_unit_test(test_arena_resume_refuses_a_different_tournament),
        cmocka_unit_test(test_arena_records_and_checks_the_engines_builds),
        cmocka_unit_test(test_ratings_of_the_record_file_print_the_arena_table),
        cmocka_unit_test(test_shards_merge_into_the_whole_tournament),
        cmocka_unit_test(test_watch_stops_sharded_sprt_on_decision),
        cmocka_unit_test(test_sprt_stops_the_match_when_decided),
        cmocka_unit_test(test_multi_seat_and_team_tournaments_are_rated_from_places),
        cmocka_unit_test(test_play_reports_eliminated_seats),
        cmocka_unit_test(test_arena_interrupt_stops_cleanly_and_says_how_to_resume),
        cmocka_unit_test(test_ratings_of_players_that_never_met_rate_each_group_alone),
        cmocka_unit_test(test_arena_table_of_a_perfect_score_is_open_ended),
        cmocka_unit_test(test_arena_plus_minus_agrees_with_the_interval),
        cmocka_unit_test(test_arena_table_rows_count_games_as_the_header),
        cmocka_unit_test(test_arena_engine_that_cannot_start_stops_before_any_game),
        cmocka_unit_test(test_arena_reports_a_refused_option_as_refused),
        cmocka_unit_test(test_arena_table_of_one_engine_counts_its_decisive_games),
        cmocka_unit_test(test_readme_arena_example_plays_varied_openings),
        cmocka_unit_test(test_arena_refuses_a_record_file_with_nul_bytes_or_an_over_long_line),
        cmocka_unit_test(test_arena_plays_ccp_engines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
