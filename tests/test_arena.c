/*
 * test_arena.c - the tournament runner build/stern-arena and its parts: the
 * schedule (rotations, gauntlet, round robin, shards), the greedy baseline engine
 * build/stern-greedy, and whole tournaments run as child processes with faulty
 * engines (stern-greedy's test modes): a crash, an illegal move, an engine that
 * never answers and one that overruns its clock each lose that game as RULES.md
 * section 7 says and the run goes on; SIGKILL then -resume loses no finished game;
 * -ratings of the record file prints the arena's own table; shards merge into the
 * whole tournament (with GNU parallel when it is installed); SPRT stops early;
 * 3-seat and team tournaments are rated from places; stern-play names the seats
 * eliminated during a game.
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

#include "arena_openings.h"
#include "arena_schedule.h"
#include "engine_proc.h"
#include "game.h"
#include "notation.h"
#include "pgn_read.h"
#include "referee.h"

#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
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

/* Path of tool `name` (e.g. "stern-arena") next to the engine binary. */
static const char *tool(const char *name)
{
    static char paths[4][PATH_MAX];
    static int next;
    const char *bin = getenv("STERN_BIN");
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", bin && *bin ? bin : "build/stern");
    char *p = paths[next++ % 4];
    snprintf(p, PATH_MAX, "%s/%s", dirname(copy), name);
    return p;
}

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

/* The contents of a file (malloc'ed; "" when missing). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    s[fread(s, 1, (size_t)n, f)] = '\0';
    fclose(f);
    return s;
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
    int shard, n;
    assert_int_equal(schedule_parse_shard("2/5", &shard, &n), 0);
    assert_int_equal(shard, 2);
    assert_int_equal(n, 5);
    assert_int_equal(schedule_parse_shard("6/5", &shard, &n), -1);
    assert_int_equal(schedule_parse_shard("1/", &shard, &n), -1);
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
    assert_int_equal(openings_load(&o, &v, fens, -1, false, 1, 2, err, sizeof err), 0);
    assert_int_equal(o.n, 2);
    assert_string_equal(openings_fen(&o, 0, fen), FEN_B); /* start=2 */
    assert_string_equal(openings_fen(&o, 1, fen), FEN_A);
    assert_string_equal(openings_fen(&o, 2, fen), FEN_B); /* wraps around */
    openings_free(&o);
    assert_int_equal(openings_load(&o, &v, pgn, 2, false, 1, 1, err, sizeof err), 0);
    static Game g;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    Move m;
    assert_int_equal(move_parse(&g.pos, "k3-i5", &m, err, sizeof err), 0);
    assert_int_equal(game_play(&g, &m), 0);
    assert_int_equal(move_parse(&g.pos, "e15-g13", &m, err, sizeof err), 0);
    assert_int_equal(game_play(&g, &m), 0);
    char want[FEN_MAX];
    assert_string_equal(openings_fen(&o, 0, fen), fen_write(&g.pos, want)); /* after plies=2 */
    openings_free(&o);
    write_file(fens, "b/bb w w0,b0 1\n");
    assert_int_equal(openings_load(&o, &v, fens, -1, false, 1, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "o.fen:1: "));
    openings_init(&o, &v, 4, 9); /* random=4: the same opening for the same index */
    char again[FEN_MAX];
    assert_string_equal(openings_fen(&o, 5, fen), openings_fen(&o, 5, again));
    assert_string_not_equal(openings_fen(&o, 5, fen), openings_fen(&o, 6, again));
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
    lims[SEAT_WHITE] = (RefereeSeatLimits){{50, 0, 0, QUICK_MS}, 3, 0};
    lims[SEAT_BLACK] = (RefereeSeatLimits){{0, 1000, 100, QUICK_MS}, 0, 500};
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

/* Whether a program is in PATH. */
static bool have_program(const char *name)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s > /dev/null 2>&1", name);
    return system(cmd) == 0;
}

static void test_shards_merge_into_the_whole_tournament(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char out[PATH_MAX], whole[PATH_MAX], merged[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(whole, sizeof whole, "%s/whole.txt", dir);
    snprintf(merged, sizeof merged, "%s/merged.txt", dir);
    char args[2048]; /* deterministic engines: a game depends only on its opening and seats */
    snprintf(args, sizeof args,
             "%s -variant classic-3 -engine cmd=%s name=A -engine 'cmd=%s -name B' name=B -engine 'cmd=%s -name C' "
             "name=C -each st=0.2 -rounds 4 -openings random=5 -quiet",
             tool("stern-arena"), tool("stern-greedy"), tool("stern-greedy"), tool("stern-greedy"));
    assert_int_equal(run(out, "%s -pgnout %s/all.pgn", args, dir), 0);
    assert_int_equal(run(whole, "%s -ratings %s/all.pgn", tool("stern-arena"), dir), 0);
    if (have_program("parallel")) /* one shell word: parallel hands it to a shell as it is */
        assert_int_equal(run(out, "parallel --will-cite --halt now,fail=1 \"%s -shard {}/3 -pgnout %s/shard{}.pgn\" "
                             "::: 1 2 3", args, dir),
                         0);
    else {
        print_message("(GNU parallel is not installed: the shards run one after another)\n");
        for (int i = 1; i <= 3; i++)
            assert_int_equal(run(out, "%s -shard %d/3 -pgnout %s/shard%d.pgn", args, i, dir, i), 0);
    }
    assert_int_equal(run(merged, "%s -ratings %s/shard1.pgn %s/shard2.pgn %s/shard3.pgn", tool("stern-arena"), dir,
                         dir, dir),
                     0);
    char *w = slurp(whole), *m = slurp(merged);
    assert_non_null(strstr(w, "classic-3: 12 games, 3 players"));
    assert_string_equal(w, m);
    free(w);
    free(m);
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
        cmocka_unit_test(test_arena_engine_crashing_mid_game_loses_and_is_restarted),
        cmocka_unit_test(test_arena_illegal_move_loses),
        cmocka_unit_test(test_arena_silent_engine_loses_on_time_and_is_killed),
        cmocka_unit_test(test_arena_engine_over_its_clock_loses_on_time),
        cmocka_unit_test(test_arena_killed_then_resumed_loses_no_finished_game),
        cmocka_unit_test(test_arena_resume_refuses_a_different_tournament),
        cmocka_unit_test(test_ratings_of_the_record_file_print_the_arena_table),
        cmocka_unit_test(test_shards_merge_into_the_whole_tournament),
        cmocka_unit_test(test_sprt_stops_the_match_when_decided),
        cmocka_unit_test(test_multi_seat_and_team_tournaments_are_rated_from_places),
        cmocka_unit_test(test_play_reports_eliminated_seats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
