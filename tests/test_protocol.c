/*
 * test_protocol.c - the engine binary against shared/PROTOCOL.md, as a black box:
 * build/stern (or $STERN_BIN) runs as a child process on pipes and every test
 * checks the exact lines it answers. Reads have generous timeouts (a broken
 * engine fails a test instead of hanging it); nothing here measures speed.
 */
#include "support/engine_pipe.h"

/* cmocka.h needs these first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <time.h>

#define T EPIPE_TIMEOUT_MS

static const char *const START2 = "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1";
static const char *const START6 =
    "b/bb/bbb/bbbb/uuuu5yyyy/uuu6yyy/uu7yy/u8y/9/r8g/rr7gg/rrr6ggg/rrrr5gggg/wwww/www/ww/w w w0,r0,u0,b0,y0,g0 1";
static const char *const START_CAP2 =
    "1/2/3/4/4xxxxx4/3xxxxxx3/2xxxxxxx2/1xxxxxxxx1/xxxx1xxxx/1xxxxxxxx1/2xxxxxxx2/3xxxxxx3/4xxxxx4/4/3/2/1 w w0c0,b0c0 1";
/* classic-2 after `position startpos moves k4-k5` */
static const char *const AFTER_K4K5 = "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/6w6/w1ww/www/ww/w b w1,b0 1";
/* classic-2 after `position startpos moves m4-m5 h14-h13 m3-m4` */
static const char *const AFTER_3 = "b/bb/bbb/bbb1/7b5/12/11/10/9/10/11/12/8w4/wwww/ww1/ww/w b w2,b1 2";
/* classic-2, over: white has arrived (all ten in the top point), black has not */
static const char *const FEN_WHITE_WON = "w/ww/www/wwww/13/12/11/10/bbbbbbbbb/b9/11/12/13/4/3/2/1 - w40=1,b40 41";
/* classic-2, over: both have arrived, a draw */
static const char *const FEN_DRAW = "w/ww/www/wwww/13/12/11/10/9/10/11/12/13/bbbb/bbb/bb/b - w40=1,b40=1 41";
/* classic-2 after k3-i5 e15-e13: a position for searches that stop must end */
static const char *const AFTER_TWO = "position startpos moves k3-i5 e15-e13";
/* The 14 white moves of the classic start, in RULES.md §3 order. */
static const char *const START_MOVES =
    "j4-i5 j4-j5 k4-j5 k4-k5 l4-k5 l4-l5 m4-l5 m4-m5 k3-i5 k3-k5 l3-j5 l3-l5 m3-k5 m3-m5";
/* Eight moves that bring the classic-2 start back twice: the third occurrence. */
static const char *const REPEAT8 = "m4-m5 h14-h13 m5-m4 h13-h14 m4-m5 h14-h13 m5-m4 h13-h14";

static const char *const VARIANTS[] = {
    "classic-2",   "classic-3",   "classic-4",   "classic-6",   "longjumps-2", "longjumps-3",       "longjumps-4",
    "longjumps-6", "symmetric-2", "symmetric-6", "fifteen-2",   "fifteen-3",   "pairs-4",           "pairs-6",
    "masters-2",   "masters-6",   "capture-2",   "capture-3",   "capture-4",   "capture-5",         "capture-6",
    "capture-bigjump-2", "capture-bigjump-3", "capture-bigjump-4", "capture-bigjump-5", "capture-bigjump-6",
    "ccerl-2",
};
#define NVARIANTS ((int)(sizeof VARIANTS / sizeof *VARIANTS))

/* ---- fixtures ---- */


/* ---- helpers ---- */


static void send_str(EPipe *p, const char *s)
{
    epipe_send_raw(p, s, strlen(s));
}

static bool starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* Whether `s` holds the decimal number `n` as a whole number: a run of digits not
 * touching a letter or digit on either side (so "e17" is not 17). */
static bool has_number(const char *s, long n)
{
    for (const char *c = s; *c; c++) {
        if (!isdigit((unsigned char)*c) || (c > s && isalnum((unsigned char)c[-1])))
            continue;
        char *end;
        const long v = strtol(c, &end, 10);
        if (v == n && !isalpha((unsigned char)*end))
            return true;
        c = end - 1;
    }
    return false;
}

/* Whether `word` is one of the space-separated tokens of `list`. */
static bool in_list(const char *list, const char *word)
{
    const size_t n = strlen(word);
    for (const char *c = list; (c = strstr(c, word)); c++)
        if ((c == list || c[-1] == ' ') && (c[n] == ' ' || !c[n]))
            return true;
    return false;
}

/* Milliseconds of the monotonic clock. */
static int64_t wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The last `info depth` line of l, or NULL. */
static const char *last_depth_line(const EPipeLines *l)
{
    const char *last = NULL;
    for (int i = 0; i < l->n; i++)
        if (!strncmp(l->line[i], "info depth ", 11))
            last = l->line[i];
    return last;
}

/* Reads lines for `ms` milliseconds; fails the test on EOF. */
static void lines_for(EPipe *p, int ms, EPipeLines *out)
{
    *out = (EPipeLines){0};
    const int64_t t0 = wall_ms();
    for (;;) {
        const int left = ms - (int)(wall_ms() - t0);
        if (left <= 0)
            return;
        char *line;
        const int r = epipe_try_read(p, left, &line);
        if (r == 0)
            return;
        if (r < 0)
            fail_msg("the engine closed its output");
        out->line = realloc(out->line, sizeof *out->line * (size_t)(out->n + 1));
        out->line[out->n++] = strdup(line);
    }
}


/* Sends `cmd` (a bad command), asserts that it is answered by exactly one line
 * "info string error ..." that contains every string of the NULL-terminated list,
 * that the position is still `fen` afterwards and that the engine still answers
 * isready. */
static void refused(EPipe *p, const char *cmd, const char *fen, ...) __attribute__((sentinel));

static void refused(EPipe *p, const char *cmd, const char *fen, ...)
{
    EPipeLines l;
    epipe_command(p, cmd, &l);
    char d[4096];
    epipe_lines_dump(&l, d, sizeof d);
    if (l.n != 1 || !starts(l.line[0], "info string error "))
        fail_msg("'%.200s' should be answered by exactly one 'info string error ...' line, got %d lines: %s", cmd, l.n,
                 d);
    va_list ap;
    va_start(ap, fen);
    for (const char *want; (want = va_arg(ap, const char *));)
        if (!strstr(l.line[0], want))
            fail_msg("the error for '%.200s' should mention '%s': %s", cmd, want, d);
    va_end(ap);
    epipe_lines_free(&l);
    const char *now = epipe_fen(p);
    if (strcmp(now, fen))
        fail_msg("after the refused '%.200s' the position changed:\n  before: %s\n  after:  %s", cmd, fen, now);
    epipe_sync(p);
}

/* The text of `legalmoves` after its first token, in a static buffer. */
static const char *legal(EPipe *p)
{
    static char buf[65536];
    EPipeLines l;
    epipe_command(p, "legalmoves", &l);
    char d[2048];
    epipe_lines_dump(&l, d, sizeof d);
    if (l.n != 1 || (strcmp(l.line[0], "legalmoves") && !starts(l.line[0], "legalmoves ")))
        fail_msg("'legalmoves' should print exactly one 'legalmoves ...' line, got %d: %s", l.n, d);
    snprintf(buf, sizeof buf, "%s", l.line[0][10] ? l.line[0] + 11 : "");
    epipe_lines_free(&l);
    return buf;
}

static void position(EPipe *p, const char *cmd)
{
    epipe_silent(p, cmd);
}

static void set_variant(EPipe *p, const char *variant)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "setoption name Variant value %s", variant);
    epipe_silent(p, cmd);
}

/* Whether `key` occurs in line followed by a whole integer (stored in *v). */
static bool number_after(const char *line, const char *key, long long *v)
{
    const char *c = strstr(line, key);
    if (!c)
        return false;
    c += strlen(key);
    char *end;
    *v = strtoll(c, &end, 10);
    return end != c && (!*end || *end == ' ');
}

/* Checks one `info depth ...` line: depth, score (cp or mate), nodes, pv with a
 * legal first move; `seats` (e.g. "wruybg", NULL for 2 players) must each appear
 * once in `scores`, in that order. Returns its depth. */
static int check_info_depth(const char *line, const char *legal_moves, const char *seats)
{
    long long depth = 0, v = 0;
    if (!starts(line, "info depth ") || !number_after(line, "info depth ", &depth) || depth < 1)
        fail_msg("bad info line: '%s'", line);
    if (!number_after(line, " score cp ", &v) && !number_after(line, " score mate ", &v))
        fail_msg("info line without 'score cp <x>' or 'score mate <n>': '%s'", line);
    if (!number_after(line, " nodes ", &v) || v < 0)
        fail_msg("info line without 'nodes <n>': '%s'", line);
    /* every search (PVS, the multi-seat ones, MCTS, the race solver) writes
     * the same fields, in PROTOCOL.md's order */
    static const char *const keys[] = {" seldepth ", " multipv ", " score ", " nodes ", " nps ", " hashfull ", " time ", " pv "};
    const char *at = line;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const char *f = strstr(at, keys[k]);
        if (!f || (strcmp(keys[k], " score ") && strcmp(keys[k], " pv ") && !number_after(f, keys[k], &v)))
            fail_msg("info line without '%s<n>' in its place: '%s'", keys[k] + 1, line);
        at = f;
    }
    const char *pv = strstr(line, " pv ");
    if (!pv)
        fail_msg("info line without 'pv': '%s'", line);
    char first[256];
    if (sscanf(pv + 4, "%255s", first) != 1 || !in_list(legal_moves, first))
        fail_msg("info line whose pv does not start with a legal move: '%s' (legal: %s)", line, legal_moves);
    if (seats) {
        const char *sc = strstr(line, " scores ");
        if (!sc)
            fail_msg("info line of a %zu-seat game without 'scores': '%s'", strlen(seats), line);
        sc += 8;
        for (const char *s = seats; *s; s++) {
            char seat;
            int val, used;
            if (sscanf(sc, "%c:%d%n", &seat, &val, &used) != 2 || seat != *s)
                fail_msg("'scores' should list seat '%c' next: '%s'", *s, line);
            sc += used;
            while (*sc == ' ')
                sc++;
        }
    }
    return (int)depth;
}

/* Reads a search's output up to its bestmove (at most timeout_ms); checks every
 * line before it (`info ...` only, depth lines well formed and at most max_depth
 * when > 0), that the bestmove is one of `legal_moves` (or "(none)" when that is
 * empty), then that nothing follows it (the next answer to isready is readyok).
 * Returns the best move in a static buffer. */
static const char *finish_search(EPipe *p, int timeout_ms, const char *legal_moves, const char *seats, int max_depth)
{
    static char best[256];
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, timeout_ms, &l, &bm);
    for (int i = 0; i < l.n; i++) {
        if (!starts(l.line[i], "info "))
            fail_msg("line before bestmove that is not 'info ...': '%s'", l.line[i]);
        if (starts(l.line[i], "info depth ")) {
            const int d = check_info_depth(l.line[i], legal_moves, seats);
            if (max_depth > 0 && d > max_depth)
                fail_msg("search limited to depth %d reported '%s'", max_depth, l.line[i]);
        }
    }
    epipe_lines_free(&l);
    char mv[256] = "", word[256] = "", extra[256] = "", again[1024];
    const int n = sscanf(bm, "bestmove %255s %255s %255s", mv, word, extra);
    if (n == 3)
        snprintf(again, sizeof again, "bestmove %s %s %s", mv, word, extra);
    else
        snprintf(again, sizeof again, "bestmove %s", mv);
    if ((n != 1 && n != 3) || (n == 3 && strcmp(word, "ponder")) || strcmp(again, bm))
        fail_msg("malformed bestmove line: '%s' (expected 'bestmove <move> [ponder <move>]')", bm);
    if (!*legal_moves ? strcmp(mv, "(none)") : !in_list(legal_moves, mv))
        fail_msg("'%s': the best move is not one of the legal moves (%s)", bm, *legal_moves ? legal_moves : "none");
    snprintf(best, sizeof best, "%s", mv);
    free(bm);
    epipe_sync(p); /* exactly one bestmove, and nothing after it */
    return best;
}

/* ---- handshake and options ---- */

static void test_uci_handshake(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "uci");
    char *l = epipe_expect_line(p, T, "id name");
    if (!starts(l, "id name Stern ") || strlen(l) <= strlen("id name Stern "))
        fail_msg("first line should be 'id name Stern <version>', got '%s'", l);
    l = epipe_expect_line(p, T, "id author");
    if (!starts(l, "id author ") || strlen(l) <= strlen("id author "))
        fail_msg("second line should be 'id author <authors>', got '%s'", l);
    EPipeLines opts;
    epipe_collect(p, "uciok", false, T, &opts, NULL);
    int variant_lines = 0;
    for (int i = 0; i < opts.n; i++) {
        const char *o = opts.line[i];
        if (!starts(o, "option name "))
            fail_msg("line between id and uciok that is not an option: '%s'", o);
        if (!starts(o, "option name Variant "))
            continue;
        variant_lines++;
        const char *head = "option name Variant type combo default classic-2 var ";
        if (!starts(o, head))
            fail_msg("Variant option should start '%s', got '%s'", head, o);
        /* exactly the 27 names, each once, after "var" */
        char copy[2048];
        snprintf(copy, sizeof copy, "%s", o + strlen("option name Variant type combo default classic-2"));
        int seen[NVARIANTS] = {0}, nvars = 0;
        char *save = NULL;
        for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            if (strcmp(t, "var"))
                fail_msg("Variant option: expected 'var', got '%s' in '%s'", t, o);
            const char *name = strtok_r(NULL, " ", &save);
            if (!name)
                fail_msg("Variant option ends with 'var': '%s'", o);
            int k = 0;
            while (k < NVARIANTS && strcmp(VARIANTS[k], name))
                k++;
            if (k == NVARIANTS)
                fail_msg("Variant option lists an unknown variant '%s'", name);
            if (seen[k]++)
                fail_msg("Variant option lists '%s' twice", name);
            nvars++;
        }
        assert_int_equal(nvars, NVARIANTS);
        if (!strstr(o, " var ccerl-2") || strcmp(strstr(o, " var ccerl-2"), " var ccerl-2"))
            fail_msg("Variant option should end with 'var ccerl-2': '%s'", o);
    }
    assert_int_equal(variant_lines, 1);
    epipe_lines_free(&opts);
    epipe_sync(p);
    /* a second uci gives the same answer */
    epipe_send(p, "uci");
    epipe_collect(p, "uciok", false, T, &opts, NULL);
    assert_true(opts.n >= 3);
    epipe_lines_free(&opts);
    epipe_sync(p);
}

/* Every option PROTOCOL.md lists, exactly once, with its documented line. */
static void test_uci_documented_options(void **state)
{
    EPipe *p = *state;
    static const char *const want[][2] = {
        {"option name Hash type spin default 64 min 1 max 65536", NULL},
        {"option name Threads type spin default 1 min 1 max 256", NULL},
        {"option name MultiPV type spin default 1 min 1 max 256", NULL},
        {"option name Search type combo default auto var auto var paranoid var maxn var brs var brs+ var mcts var opps",
         NULL},
        {"option name OppsRegular type spin default 1 min 0 max 5", NULL},
        {"option name OppsRegularMoves type spin default 0 min 0 max 256", NULL},
        {"option name OppsReducedMoves type spin default 1 min 1 max 16", NULL},
        {"option name MctsHistory type spin default 0 min 0 max 100", NULL},
        {"option name MctsWidening type spin default 0 min 0 max 10000", NULL},
        {"option name MctsWideningAlpha type spin default 50 min 0 max 100", NULL},
        {"option name MctsOma type spin default 0 min 0 max 100000", NULL},
        {"option name OwnBook type check default true", NULL},
        {"option name BookFile type string default <empty>", NULL},
        {"option name BookDepth type spin default 40 min 0 max 2048", NULL},
        {"option name BookVariety type check default false", NULL},
        {"option name Move Overhead type spin default 30 min 0 max 5000", NULL},
        {"option name nodestime type spin default 0 min 0 max 1000000", NULL},
        {"option name Ponder type check default false", NULL},
        {"option name OpponentModel type check default true", NULL},
        {"option name Clear Hash type button", NULL},
    };
    epipe_send(p, "uci");
    EPipeLines l;
    epipe_collect(p, "uciok", false, T, &l, NULL);
    char missing[2048] = "";
    size_t o = 0;
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        int found = 0;
        for (int i = 0; i < l.n; i++)
            found += !strcmp(l.line[i], want[k][0]) || (want[k][1] && !strcmp(l.line[i], want[k][1]));
        if (found != 1)
            o += (size_t)snprintf(missing + o, sizeof missing - o, "\n  %s (found %d times)", want[k][0], found);
    }
    epipe_lines_free(&l);
    if (o)
        fail_msg("uci: documented option lines missing or repeated:%s", missing);
    /* and each documented option is accepted by setoption */
    epipe_silent(p, "setoption name Search value paranoid");
    epipe_silent(p, "setoption name Search value auto");
    epipe_silent(p, "setoption name Search value maxn");
    epipe_silent(p, "setoption name Search value brs");
    epipe_silent(p, "setoption name Threads value 2");
    epipe_silent(p, "setoption name Threads value 1");
    epipe_silent(p, "setoption name MultiPV value 1");
    epipe_silent(p, "setoption name Move Overhead value 10");
    epipe_silent(p, "setoption name Ponder value true");
    epipe_silent(p, "setoption name OpponentModel value false");
    epipe_silent(p, "setoption name OpponentModel value true");
    epipe_silent(p, "setoption name Clear Hash");
    epipe_silent(p, "setoption name Hash value 16");
}

static void test_isready(void **state)
{
    EPipe *p = *state;
    epipe_sync(p);
    epipe_sync(p);
    epipe_silent(p, "ucinewgame");
}

/* Changing Variant resets to its start; option names are case-insensitive. */
static void test_setoption_variant(void **state)
{
    EPipe *p = *state;
    assert_string_equal(epipe_fen(p), START2);
    position(p, "position startpos moves k4-k5");
    set_variant(p, "classic-6");
    assert_string_equal(epipe_fen(p), START6);
    epipe_silent(p, "setoption name VARIANT value capture-2");
    assert_string_equal(epipe_fen(p), START_CAP2);
    epipe_silent(p, "setoption name variant value classic-2");
    assert_string_equal(epipe_fen(p), START2);
    epipe_silent(p, "setoption name hash value 8");
    /* every listed variant is accepted */
    for (int i = 0; i < NVARIANTS; i++)
        set_variant(p, VARIANTS[i]);
}

static void test_ucinewgame_resets(void **state)
{
    EPipe *p = *state;
    set_variant(p, "classic-6");
    position(p, "position startpos moves k4-k5");
    assert_string_not_equal(epipe_fen(p), START6);
    epipe_silent(p, "ucinewgame");
    assert_string_equal(epipe_fen(p), START6);
}

/* ---- positions, legal moves, perft ---- */

static void test_legalmoves_start(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    assert_string_equal(legal(p), START_MOVES);
    set_variant(p, "classic-6");
    assert_string_equal(legal(p), START_MOVES);
}

static void test_perft_classic2(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "perft 2");
    char copy[512];
    snprintf(copy, sizeof copy, "%s", START_MOVES);
    char *save = NULL;
    for (char *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        char want[64];
        snprintf(want, sizeof want, "%s: 14", m);
        epipe_expect(p, want);
    }
    epipe_expect(p, "Nodes searched: 196");
    epipe_sync(p);
    /* perft 1 */
    epipe_send(p, "perft 1");
    EPipeLines l;
    epipe_collect(p, "Nodes searched: 14", false, T, &l, NULL);
    assert_int_equal(l.n, 14);
    epipe_lines_free(&l);
    epipe_sync(p);
}

static void test_perft_classic6(void **state)
{
    EPipe *p = *state;
    set_variant(p, "classic-6");
    epipe_send(p, "perft 3");
    EPipeLines l;
    epipe_collect(p, "Nodes searched: ", true, 30000, &l, NULL);
    /* total, then the per-move lines: the 14 start moves in order, summing to it */
    char copy[512];
    snprintf(copy, sizeof copy, "%s", START_MOVES);
    char *save = NULL;
    int i = 0;
    long long sum = 0;
    for (char *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save), i++) {
        if (i >= l.n)
            fail_msg("perft 3 (classic-6) printed only %d move lines", l.n);
        char mv[64];
        long long n;
        if (sscanf(l.line[i], "%63[^:]: %lld", mv, &n) != 2 || strcmp(mv, m))
            fail_msg("perft 3 (classic-6) line %d should be '%s: <count>', got '%s'", i + 1, m, l.line[i]);
        sum += n;
    }
    assert_int_equal(l.n, 14);
    epipe_lines_free(&l);
    assert_int_equal(sum, 2772);
    epipe_sync(p);
    /* the exact total line */
    epipe_send(p, "perft 3");
    epipe_collect(p, "Nodes searched: 2772", false, 30000, &l, NULL);
    epipe_lines_free(&l);
    epipe_sync(p);
}

static void test_position_moves_d(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
    position(p, "position startpos moves m4-m5 h14-h13 m3-m4");
    assert_string_equal(epipe_fen(p), AFTER_3);
    /* input is case-insensitive; a chain may be written in full */
    position(p, "position startpos moves M4-M5 H14-h13 m3-M4");
    assert_string_equal(epipe_fen(p), AFTER_3);
    /* `position startpos` with an empty moves list */
    position(p, "position startpos moves");
    assert_string_equal(epipe_fen(p), START2);
    /* position fen ... moves ... */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position fen %s moves m4-m5 h14-h13 m3-m4", START2);
    position(p, cmd);
    assert_string_equal(epipe_fen(p), AFTER_3);
    snprintf(cmd, sizeof cmd, "position fen %s moves k4-k5", START2);
    position(p, cmd);
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
    /* `d` gives the board and the other fields too */
    EPipeLines l;
    epipe_command(p, "d", &l);
    assert_true(l.n >= 6);
    int variant = 0, distance = 0, in_target = 0;
    for (int i = 0; i < l.n; i++) {
        variant += strstr(l.line[i], "classic-2") != NULL;
        /* RULES.md section 6's measures: each army's steps to its target's
         * nearest holes (13 + 2 x 12 + 3 x 11 + 4 x 10 = 110 from the start,
         * less the one step of k4-k5), and its marbles in the target */
        distance += !strcmp(l.line[i], "Distance to target: w 109 b 110");
        in_target += !strcmp(l.line[i], "In target: w 0 b 0");
    }
    assert_true(variant >= 1);
    assert_int_equal(distance, 1);
    assert_int_equal(in_target, 1);
    epipe_lines_free(&l);
}

/* A record's movetext can be pasted after `moves`: round numbers (also
 * "12.m3-m4"), `--`, {comments} and ; comments, $n glyphs, !/? marks and the
 * result are passed over; an unclosed comment refuses the whole command. */
static void test_position_accepts_pgn_movetext(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves 1. m4-m5 h14-h13 {+0.20/9 0.05s} 2. m3-m4 1-0");
    assert_string_equal(epipe_fen(p), AFTER_3);
    position(p, "position startpos moves 1.m4-m5!? $1 h14-h13 { a comment } 2...m3-m4 ; the rest k4-k5 is a comment");
    assert_string_equal(epipe_fen(p), AFTER_3);
    position(p, "position startpos moves m4-m5 h14-h13");
    char two[256];
    snprintf(two, sizeof two, "%s", epipe_fen(p));
    position(p, "position startpos moves m4-m5 -- h14-h13 {x}m3-m4 *"); /* "{x}m3-m4": one comment token */
    assert_string_equal(epipe_fen(p), two);
    position(p, "position startpos moves m4-m5 h14-h13 m3-m4");
    refused(p, "position startpos moves 1. m4-m5 {not closed", AFTER_3, "not closed", NULL);
    refused(p, "position startpos moves 1. m4-m5 h14-h13 2. zz9", AFTER_3, "move 3 'zz9'", NULL);
}

static void test_position_fen_roundtrip(void **state)
{
    EPipe *p = *state;
    static const char *const fens2[] = {
        "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1",
        "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/6w6/w1ww/www/ww/w b w1,b0 1",
        "b/bb/bbb/bbb1/7b5/12/11/10/9/10/11/12/8w4/wwww/ww1/ww/w b w2,b1 2",
        "1/bb/3/2bb/4bbb1b4/3bb7/11/10/3w5/3w6/11/12/4w1w6/1www/2w/ww/1 w w6,b6 7",
        "w/ww/www/wwww/13/12/11/10/bbbbbbbbb/b9/11/12/13/4/3/2/1 - w40=1,b40 41",
        "w/ww/www/wwww/13/12/11/10/9/10/11/12/13/bbbb/bbb/bb/b - w40=1,b40=1 41",
    };
    char cmd[1024];
    for (size_t i = 0; i < sizeof fens2 / sizeof *fens2; i++) {
        snprintf(cmd, sizeof cmd, "position fen %s", fens2[i]);
        position(p, cmd);
        assert_string_equal(epipe_fen(p), fens2[i]);
    }
    set_variant(p, "classic-6");
    snprintf(cmd, sizeof cmd, "position fen %s", START6);
    position(p, cmd);
    assert_string_equal(epipe_fen(p), START6);
    set_variant(p, "capture-2");
    snprintf(cmd, sizeof cmd, "position fen %s", START_CAP2);
    position(p, cmd);
    assert_string_equal(epipe_fen(p), START_CAP2);
    set_variant(p, "classic-3");
    const char *start3 = "1/2/3/4/uuuu5yyyy/uuu6yyy/uu7yy/u8y/9/10/11/12/13/wwww/www/ww/w w w0,u0,y0 1";
    assert_string_equal(epipe_fen(p), start3);
    snprintf(cmd, sizeof cmd, "position fen %s", start3);
    position(p, cmd);
    assert_string_equal(epipe_fen(p), start3);
}

/* Runs of spaces and tabs separate tokens; "\r\n" is accepted; a long line is a
 * line like any other. */
static void test_whitespace_crlf_long_lines(void **state)
{
    EPipe *p = *state;
    position(p, "position\tstartpos  \t moves\t\tm4-m5   h14-h13\t m3-m4  ");
    assert_string_equal(epipe_fen(p), AFTER_3);
    position(p, "  position startpos");
    assert_string_equal(epipe_fen(p), START2);

    /* \r\n endings */
    send_str(p, "isready\r\n");
    epipe_expect(p, "readyok");
    send_str(p, "position startpos moves k4-k5\r\n");
    epipe_sync(p);
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
    send_str(p, "setoption name Variant value classic-6\r\n");
    epipe_sync(p);
    assert_string_equal(epipe_fen(p), START6);
    send_str(p, "legalmoves\r\n");
    char want[512];
    snprintf(want, sizeof want, "legalmoves %s", START_MOVES);
    epipe_expect(p, want);
    send_str(p, "d\r\n");
    EPipeLines l;
    epipe_sync_collect(p, &l);
    int fen = 0;
    for (int i = 0; i < l.n; i++)
        fen += !strcmp(l.line[i], "Fen: b/bb/bbb/bbbb/uuuu5yyyy/uuu6yyy/uu7yy/u8y/9/r8g/rr7gg/rrr6ggg/rrrr5gggg/wwww/www/"
                                  "ww/w w w0,r0,u0,b0,y0,g0 1");
    assert_int_equal(fen, 1);
    epipe_lines_free(&l);
    set_variant(p, "classic-2");

    /* a 100 kB position line: the moves separated by long runs of blanks */
    const size_t gap = 50000;
    char *big = malloc(2 * gap + 256);
    assert_non_null(big);
    size_t o = (size_t)sprintf(big, "position startpos moves m4-m5");
    memset(big + o, ' ', gap);
    o += gap;
    o += (size_t)sprintf(big + o, "h14-h13");
    memset(big + o, '\t', gap);
    o += gap;
    o += (size_t)sprintf(big + o, "m3-m4\n");
    epipe_send_raw(p, big, o);
    free(big);
    epipe_sync(p);
    assert_string_equal(epipe_fen(p), AFTER_3);
}

/* ---- bad input: one error line, state kept, engine alive ---- */

static void test_error_unknown_command(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    refused(p, "foo", AFTER_K4K5, "foo", NULL);
    refused(p, "foo bar baz", AFTER_K4K5, "foo", NULL);
    refused(p, "positionstartpos", AFTER_K4K5, NULL);
    refused(p, "position", AFTER_K4K5, NULL);
    refused(p, "position nonsense", AFTER_K4K5, NULL);
    refused(p, "position startpos m4-m5", AFTER_K4K5, NULL);
    /* commands without arguments take none: refused whole, nothing done */
    refused(p, "ucinewgame junk", AFTER_K4K5, "takes no arguments", "junk", NULL);
    refused(p, "quit please", AFTER_K4K5, "takes no arguments", NULL);
    /* isready with words after it says so, and still answers: a GUI waits for it */
    EPipeLines l;
    epipe_send(p, "isready now");
    epipe_collect(p, "readyok", false, T, &l, NULL);
    if (l.n != 1 || !starts(l.line[0], "info string error isready takes no arguments"))
        fail_msg("'isready now' should say it takes no arguments, then readyok");
    epipe_lines_free(&l);
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
    refused(p, "stop x", AFTER_K4K5, "takes no arguments", NULL);
    refused(p, "d x", AFTER_K4K5, "takes no arguments", NULL);
    refused(p, "legalmoves all", AFTER_K4K5, "takes no arguments", NULL);
}

/* A line holding a NUL byte is refused whole (it is not cut at the NUL), and so
 * is one with any other byte outside printable ASCII (tabs and CR aside). */
static void test_error_bytes_outside_ascii(void **state)
{
    EPipe *p = *state;
    static const char line[] = "position startpos moves m4-m5\0 e15-e14 zz9\n";
    epipe_send_raw(p, line, sizeof line - 1);
    EPipeLines l;
    epipe_sync_collect(p, &l);
    char d[1024];
    epipe_lines_dump(&l, d, sizeof d);
    if (l.n != 1 || !starts(l.line[0], "info string error ") || !strstr(l.line[0], "NUL"))
        fail_msg("a line with a NUL byte should get one 'info string error ... NUL ...' line, got %d: %s", l.n, d);
    epipe_lines_free(&l);
    assert_string_equal(epipe_fen(p), START2);
    /* other bytes outside printable ASCII are refused too, and not echoed back */
    refused(p, "position startpos moves m4-m5 \xff", START2, "byte 0xff at column 31", NULL);
    refused(p, "position startpos\f moves m4-m5", START2, "byte 0x0c at column 18", NULL);
}

static void test_error_bad_moves(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    char before[4096];
    snprintf(before, sizeof before, "%s", legal(p));
    refused(p, "position startpos moves zz9", AFTER_K4K5, "zz9", NULL);
    /* an illegal move at index 3: the message names the move and its index */
    const char *cmd = "position startpos moves m4-m5 h14-h13 e17-e16";
    EPipeLines l;
    epipe_command(p, cmd, &l);
    assert_int_equal(l.n, 1);
    assert_true(starts(l.line[0], "info string error "));
    if (!strstr(l.line[0], "e17-e16") || !has_number(l.line[0], 3))
        fail_msg("the error for '%s' should name the move 'e17-e16' and its index 3: '%s'", cmd, l.line[0]);
    epipe_lines_free(&l);
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
    epipe_sync(p);
    /* a malformed move late in the list */
    refused(p, "position startpos moves m4-m5 h14-h13 m3-m4 h13-", AFTER_K4K5, "h13-", NULL);
    /* a move of the wrong side, a step onto a full hole, a move into a foreign point */
    refused(p, "position startpos moves h14-h13", AFTER_K4K5, "h14-h13", NULL);
    refused(p, "position startpos moves m4-m3", AFTER_K4K5, "m4-m3", NULL);
    refused(p, "position startpos moves m4-m5 h14-h13 m5-n5", AFTER_K4K5, "m5-n5", NULL);
    /* a hole off the board */
    refused(p, "position startpos moves a1-a2", AFTER_K4K5, "a1-a2", NULL);
    /* a move after the game has ended (third repetition after 8 moves): index 9 */
    char c2[512];
    snprintf(c2, sizeof c2, "position startpos moves %s k4-k5", REPEAT8);
    epipe_command(p, c2, &l);
    assert_int_equal(l.n, 1);
    assert_true(starts(l.line[0], "info string error "));
    if (!strstr(l.line[0], "k4-k5") || !has_number(l.line[0], 9))
        fail_msg("the error for '%s' should name the move 'k4-k5' and its index 9: '%s'", c2, l.line[0]);
    epipe_lines_free(&l);
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
    epipe_sync(p);
    assert_string_equal(legal(p), before);
}

static void test_error_bad_fen(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    static const char *const bad[] = {
        "position fen",
        "position fen abc",
        /* 11 white marbles */
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/w12/wwww/www/ww/w w w0,b0 1",
        /* only 9 white marbles */
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/www1/www/ww/w w w0,b0 1",
        /* 16 rows */
        "position fen b/bb/bbb/bbbb/13/12/11/10/10/11/12/13/wwww/www/ww/w w w0,b0 1",
        /* over ('-') with nothing that can have ended it: it loaded as over by repetition */
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w - w0,b0 1",
        /* a row too long */
        "position fen b/bb/bbb/bbbb/14/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1",
        /* side to move not a seat of classic-2 */
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w r w0,b0 1",
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w q w0,b0 1",
        /* seats in the wrong order, missing, one too many */
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w b0,w0 1",
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0 1",
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0,r0 1",
        /* round 0, round missing, a fifth field */
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 0",
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0",
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1 1",
        /* a piece kind the variant lacks */
        "position fen x/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1",
        /* a good FEN, then a bad move */
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1 moves zz9",
        /* a good FEN followed by something that is not `moves` */
        "position fen b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1 m4-m5",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        refused(p, bad[i], AFTER_K4K5, NULL);
    /* a classic-6 FEN while the variant is classic-2 */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position fen %s", START6);
    refused(p, cmd, AFTER_K4K5, NULL);
}

/* Sends a `go` that ends by itself and collects its lines up to its bestmove
 * (stored in *best, freed by the caller); then checks nothing follows. */
static void go_lines(EPipe *p, const char *cmd, EPipeLines *l, char **best)
{
    epipe_send(p, "%s", cmd);
    epipe_collect(p, "bestmove ", true, 20000, l, best);
    epipe_sync(p); /* exactly one bestmove: the next line is readyok */
}

/* A `go` is never refused whole (PROTOCOL.md, Searching): each field that
 * cannot be used has its own error line, the rest is searched, and exactly one
 * bestmove answers. */
static void test_error_go_fields(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    static const struct {
        const char *cmd;
        int errors;         /* info string error lines */
        const char *what;   /* in the first of them */
        int depth;          /* the depth the search must reach: the good fields were used */
    } cases[] = {
        {"go depth x nodes 3000", 1, "'depth x'", 0},
        {"go depth nodes 3000", 1, "'depth' ignored: it needs a value", 0},
        {"go depth -3 nodes 2000", 1, "'depth -3'", 0},
        {"go nodes -1 depth 2", 1, "'nodes -1'", 2},
        {"go nodes abc depth 2", 1, "'nodes abc'", 2},
        {"go movetime x depth 3", 1, "'movetime x'", 3},
        {"go wtime depth 2", 1, "'wtime' ignored: it needs a value", 2},
        {"go frobnicate depth 2", 1, "unknown field 'frobnicate'", 2},
        {"go depth 2 bogus", 1, "unknown field 'bogus'", 2},
        {"go depth 2 searchmoves zz9", 1, "'zz9' ignored", 2},
        {"go rtime 100 depth 2", 1, "seat 'r' does not play classic-2", 2},
        {"go btime 100000 yinc 5 depth 2", 1, "seat 'y' does not play classic-2", 2},
        {"go wtime 1000 btime 1000 gtime 5 ginc 5 rinc x", 3, "'gtime 5' ignored", 0},
        {"go movetime 0", 1, "'movetime 0'", 0}, /* no limit left: a fallback time, not a search without end */
        {"go searchmoves zz9", 1, "'zz9' ignored", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        EPipeLines l;
        char *best = NULL;
        go_lines(p, cases[i].cmd, &l, &best);
        char d[8192];
        epipe_lines_dump(&l, d, sizeof d);
        int errors = 0, deepest = 0;
        const char *first = NULL;
        for (int k = 0; k < l.n; k++) {
            if (starts(l.line[k], "info string error go: ")) {
                errors++;
                first = first ? first : l.line[k];
            } else if (starts(l.line[k], "info depth ")) {
                deepest = atoi(l.line[k] + strlen("info depth "));
            }
        }
        if (errors != cases[i].errors || !first || !strstr(first, cases[i].what))
            fail_msg("'%s': want %d error lines, the first naming %s; got: %s", cases[i].cmd, cases[i].errors,
                     cases[i].what, d);
        if (cases[i].depth && deepest != cases[i].depth)
            fail_msg("'%s': the good fields should give a depth-%d search: %s", cases[i].cmd, cases[i].depth, d);
        assert_true(starts(best, "bestmove ") && strcmp(best, "bestmove (none)"));
        free(best);
        epipe_lines_free(&l);
        assert_string_equal(epipe_fen(p), AFTER_K4K5);
    }
    /* every searchmoves entry unusable: all moves are searched */
    EPipeLines l;
    char *best = NULL;
    go_lines(p, "go depth 1 searchmoves m1-k3-k5 l3-l4", &l, &best);
    int errors = 0;
    for (int k = 0; k < l.n; k++)
        errors += starts(l.line[k], "info string error go: searchmoves: ");
    assert_int_equal(errors, 2);
    assert_true(strcmp(best, "bestmove (none)") != 0);
    free(best);
    epipe_lines_free(&l);
}

static void test_error_setoption(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    refused(p, "setoption name Hash value 0", AFTER_K4K5, "Hash", NULL);
    refused(p, "setoption name Hash value x", AFTER_K4K5, "Hash", NULL);
    refused(p, "setoption name Nope value 1", AFTER_K4K5, "Nope", NULL);
    refused(p, "setoption name Variant value classic-5", AFTER_K4K5, "classic-5", NULL);
    refused(p, "setoption name Variant value capture-7", AFTER_K4K5, "capture-7", NULL);
    refused(p, "setoption name Variant value", AFTER_K4K5, NULL);
    refused(p, "setoption name Threads value 0", AFTER_K4K5, "Threads", NULL);
    refused(p, "setoption name MultiPV value 257", AFTER_K4K5, "MultiPV", NULL);
    refused(p, "setoption name Ponder value maybe", AFTER_K4K5, "Ponder", NULL);
    refused(p, "setoption name OpponentModel value 1", AFTER_K4K5, "OpponentModel", NULL);
    refused(p, "setoption name Move Overhead value -1", AFTER_K4K5, NULL);
    refused(p, "setoption", AFTER_K4K5, NULL);
    refused(p, "setoption value 3", AFTER_K4K5, NULL);
    /* a value too long to hold is refused, not cut to a number that fits */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "setoption name Hash value %0300d", 16);
    refused(p, cmd, AFTER_K4K5, "longer than", NULL);
    /* still classic-2: its start moves */
    position(p, "position startpos");
    assert_string_equal(legal(p), START_MOVES);
}

static void test_error_perft(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    refused(p, "perft -1", AFTER_K4K5, "perft", NULL);
    refused(p, "perft", AFTER_K4K5, "perft", NULL);
    refused(p, "perft x", AFTER_K4K5, "perft", NULL);
    refused(p, "perft 2 3", AFTER_K4K5, "perft", NULL);
    refused(p, "bench x", AFTER_K4K5, "bench", NULL);
}

static void test_error_long_garbage_line(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    const size_t n = 100 * 1024;
    char *g = malloc(n + 1);
    assert_non_null(g);
    /* one 100 kB token */
    for (size_t i = 0; i < n; i++)
        g[i] = (char)('a' + (i * 7 + i / 13) % 26);
    g[n] = 0;
    refused(p, g, AFTER_K4K5, NULL);
    /* 100 kB of short garbage tokens */
    for (size_t i = 0; i < n; i++)
        g[i] = i % 4 == 3 ? ' ' : (char)('#' + (i * 5) % 60);
    g[0] = 'Q';
    refused(p, g, AFTER_K4K5, NULL);
    /* a position command with 100 kB of garbage moves */
    const char *head = "position startpos moves ";
    memcpy(g, head, strlen(head));
    refused(p, g, AFTER_K4K5, NULL);
    free(g);
    epipe_sync(p);
}

/* An error line quotes a bounded part of a huge bad word (a 10 MiB word came
 * back as a 10 MB error line): every command that quotes a word, and go's
 * fields, answer with lines of at most 1,000 bytes. */
static void test_error_lines_quote_a_bounded_part(void **state)
{
    EPipe *p = *state;
    const size_t n = 1 << 20;
    char *word = malloc(n + 1);
    assert_non_null(word);
    memset(word, 'q', n);
    word[n] = 0;
    static const char *const heads[] = {"", "d ", "go ", "go depth ", "go searchmoves ", "position startpos moves ",
                                        "position startpos ", "isready "};
    for (size_t h = 0; h < sizeof heads / sizeof *heads; h++) {
        epipe_send(p, "%s%s", heads[h], word);
        EPipeLines l;
        if (!strcmp(heads[h], "isready ")) {
            epipe_collect(p, "readyok", false, T, &l, NULL);
        } else {
            epipe_send(p, "isready");
            epipe_collect(p, "readyok", false, T, &l, NULL);
        }
        if (starts(heads[h], "go")) { /* its bestmove may come after readyok */
            char *bm = NULL;
            EPipeLines more;
            epipe_collect(p, "bestmove", true, T, &more, &bm);
            free(bm);
            for (int i = 0; i < more.n; i++)
                if (strlen(more.line[i]) > 1000)
                    fail_msg("'%s<1 MiB word>': a line of %zu bytes", heads[h], strlen(more.line[i]));
            epipe_lines_free(&more);
        }
        int errors = 0;
        for (int i = 0; i < l.n; i++) {
            if (strlen(l.line[i]) > 1000)
                fail_msg("'%s<1 MiB word>': a line of %zu bytes", heads[h], strlen(l.line[i]));
            errors += starts(l.line[i], "info string error ");
        }
        if (!errors)
            fail_msg("'%s<1 MiB word>': no error line", heads[h]);
        epipe_lines_free(&l);
    }
    free(word);
    epipe_sync(p);
}

/* A line over 16 MiB is refused whatever the reads it arrives in: from a file
 * a read brings megabytes, the newline with them, and a 20 MiB `go` line was
 * carried out (its unknown word echoed whole); through a pipe, in 64 kB reads,
 * it was refused. */
static void test_line_over_16_mib_is_refused(void **state)
{
    (void)state;
    char path[] = "/tmp/stern-line-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("go ", f);
    for (size_t i = 0; i < (20u << 20); i++)
        fputc('x', f);
    fputs("\nisready\n", f);
    fclose(f);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "%s < %s", epipe_binary(), path);
    FILE *run = popen(cmd, "r");
    assert_non_null(run);
    char out[4096];
    const size_t n = fread(out, 1, sizeof out - 1, run);
    out[n] = 0;
    pclose(run);
    unlink(path);
    assert_string_equal(out, "info string error line refused: longer than 16777216 bytes, or out of memory\nreadyok\n");
}

/* UCI's `debug on|off` and `register` are accepted without an answer (they
 * were unknown commands); `debug` with another word is refused. */
static void test_debug_and_register_are_accepted(void **state)
{
    EPipe *p = *state;
    static const char *const accepted[] = {"debug on", "debug off", "debug", "register later",
                                           "register name Stern code 1234"};
    for (size_t i = 0; i < sizeof accepted / sizeof *accepted; i++)
        epipe_silent(p, accepted[i]);
    assert_string_equal(epipe_one_line(p, "debug maybe"),
                        "info string error debug: expected 'debug [on|off]', got 'maybe'");
}

/* An empty line and a line of blanks are not commands: nothing or a single error,
 * nothing changes. */
static void test_empty_and_blank_lines(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos moves k4-k5");
    static const char *const blank[] = {"\n", " \t  \t\n", "\r\n", " \t\r\n"};
    for (size_t i = 0; i < sizeof blank / sizeof *blank; i++) {
        epipe_send_raw(p, blank[i], strlen(blank[i]));
        EPipeLines l;
        epipe_sync_collect(p, &l);
        char d[1024];
        epipe_lines_dump(&l, d, sizeof d);
        if (l.n > 1 || (l.n == 1 && !starts(l.line[0], "info string error ")))
            fail_msg("a blank line (case %zu) should be ignored (or refused with one error line), got: %s", i, d);
        epipe_lines_free(&l);
        assert_string_equal(epipe_fen(p), AFTER_K4K5);
    }
}

/* ---- searching ---- */

/* Race endgames (issue 5): with the armies past each other the engine solves both
 * races exactly. White has nine marbles in the N point (its target) and i13 next
 * to the free h14: one move. Black has nine in the S point (its target) and its
 * last marble on m5 (next to the free m4: one move) or m6 (two steps: nothing to
 * jump near it). By the reply rule (RULES.md section 6) white to move wins 1
 * against 2 and draws 1 against 1; black to move wins 1 against 1 and draws 2
 * against 1. */
static void test_race_endgame(void **state)
{
    EPipe *p = *state;
    static const struct {
        const char *fen, *solved, *score, *best, *best_ccerl; /* ccerl-2: no reply after white's arrival */
    } cases[] = {
        {"w/ww/www/www1/8w4/12/11/10/9/10/11/8b3/13/bbb1/bbb/bb/b w w40,b40 41",
         "info string race solved: own moves to arrive w 1, b 2", "score mate 1", "bestmove i13-h14 ponder m6-m5",
         "bestmove i13-h14"},
        {"w/ww/www/www1/8w4/12/11/10/9/10/11/12/8b4/bbb1/bbb/bb/b b w41,b40 41",
         "info string race solved: own moves to arrive b 1, w 1", "score mate 1", "bestmove m5-m4", "bestmove m5-m4"},
        {"w/ww/www/www1/8w4/12/11/10/9/10/11/12/8b4/bbb1/bbb/bb/b w w40,b40 41",
         "info string race solved: own moves to arrive w 1, b 1", "score cp 0", "bestmove i13-h14 ponder m5-m4",
         "bestmove i13-h14"},
        {"w/ww/www/www1/8w4/12/11/10/9/10/11/8b3/13/bbb1/bbb/bb/b b w41,b40 41",
         "info string race solved: own moves to arrive b 2, w 1", "score cp 0", "bestmove m6-m5 ponder i13-h14",
         "bestmove m6-m5 ponder i13-h14"},
    };
    /* ccerl-2 ends white's arrival at once, a draw when black can bring its tenth
     * marble in: in a race that is the same outcome as the reply rule's */
    static const char *const variants[] = {"classic-2", "ccerl-2"};
    const size_t ncases = sizeof cases / sizeof cases[0];
    for (size_t k = 0; k < 2 * ncases; k++) {
        const size_t i = k % ncases;
        if (i == 0) {
            char set[64];
            snprintf(set, sizeof set, "setoption name Variant value %s", variants[k / ncases]);
            epipe_send(p, set);
            epipe_sync(p);
        }
        char cmd[256];
        snprintf(cmd, sizeof cmd, "position fen %s", cases[i].fen);
        position(p, cmd);
        epipe_send(p, "go movetime 5000");
        EPipeLines l;
        char *bm = NULL;
        epipe_collect(p, "bestmove", true, 30000, &l, &bm);
        const char *best = k < ncases ? cases[i].best : cases[i].best_ccerl;
        assert_int_equal(l.n, 2);
        assert_string_equal(l.line[0], cases[i].solved);
        check_info_depth(l.line[1], best + strlen("bestmove "), NULL);
        if (!strstr(l.line[1], cases[i].score) || !starts(l.line[1], "info depth "))
            fail_msg("%s case %zu: '%s' lacks '%s'", variants[k / ncases], i, l.line[1], cases[i].score);
        assert_string_equal(bm, best);
        free(bm);
        epipe_lines_free(&l);
        epipe_sync(p);
    }
}

/* The own moves to arrive of seat `seat` that `solve` gives for position
 * command `pos` (the other pieces standing still), or -1. */
static int solved_moves(EPipe *p, const char *pos, char seat)
{
    position(p, pos);
    EPipeLines l;
    epipe_command(p, "solve", &l);
    int n = -1;
    for (int i = 0; i < l.n; i++) {
        char c;
        int m;
        if (sscanf(l.line[i], "solve %c moves %d", &c, &m) == 2 && c == seat)
            n = m;
    }
    epipe_lines_free(&l);
    return n;
}

/* Three seats: white's last marbles past both other armies (their marbles and
 * targets on rows below its nearest) is solved alone, with the opponent model
 * (MCTS) as with best-reply search; the move played keeps the fewest own moves
 * (`solve` on the position after it gives one less). A blue marble on white's
 * nearest row leaves it to the search. */
static void test_race_endgame_past_others(void **state)
{
    EPipe *p = *state;
    static const char *const past =
        "position fen w/ww/www/www1/6w6/12/11/10/3y1u3/y8u/yy7uu/yyy6uuu/1yyy5uuu1/4/3/2/1 w w40,u40,y40 41";
    static const char *const near =
        "position fen w/ww/www/www1/4u1w6/12/11/10/3y5/y8u/yy7uu/yyy6uuu/1yyy5uuu1/4/3/2/1 w w40,u40,y40 41";
    static const char *const searches[] = {"auto", "brs"};
    set_variant(p, "classic-3");
    const int need = solved_moves(p, past, 'w');
    assert_true(need >= 2);
    for (int k = 0; k < 2; k++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "setoption name Search value %s", searches[k]);
        epipe_silent(p, cmd);
        position(p, past);
        epipe_send(p, "go movetime 5000");
        EPipeLines l;
        char *bm = NULL;
        epipe_collect(p, "bestmove", true, 30000, &l, &bm);
        char want[128];
        snprintf(want, sizeof want, "info string race solved: own moves to arrive w %d, past every other seat", need);
        assert_true(l.n >= 2);
        assert_string_equal(l.line[0], want);
        assert_true(starts(l.line[1], "info depth "));
        char best[64];
        assert_int_equal(sscanf(bm, "bestmove %63s", best), 1);
        snprintf(cmd, sizeof cmd, "%s moves %s", past, best);
        assert_int_equal(solved_moves(p, cmd, 'w'), need - 1);
        free(bm);
        epipe_lines_free(&l);
        position(p, near);
        epipe_send(p, "go movetime 300");
        epipe_collect(p, "bestmove", true, 30000, &l, &bm);
        for (int i = 0; i < l.n; i++)
            if (strstr(l.line[i], "race solved"))
                fail_msg("white is not past blue: '%s'", l.line[i]);
        free(bm);
        epipe_lines_free(&l);
    }
    epipe_silent(p, "setoption name Search value auto");
    set_variant(p, "classic-2");
}

/* Line `l` of solve with its "time <ms>" field cut out, in buf. */
static const char *without_time(const char *l, char *buf, size_t n)
{
    snprintf(buf, n, "%s", l);
    char *t = strstr(buf, " time ");
    if (t) {
        char *end = t + strlen(" time ");
        end += strspn(end, "0123456789");
        memmove(t, end, strlen(end) + 1);
    }
    return buf;
}

/* `solve`: each seat's fewest own moves to arrive, with the solver's nodes and
 * line; in a two-seat race the result by the reply rule; a node limit, stop,
 * capture mode, a finished game and bad arguments. */
static void test_solve(void **state)
{
    EPipe *p = *state;
    char buf[512];
    position(p, "position fen w/ww/www/www1/8w4/12/11/10/9/10/11/8b3/13/bbb1/bbb/bb/b b w41,b40 41");
    EPipeLines l;
    epipe_command(p, "solve", &l);
    assert_int_equal(l.n, 3);
    assert_string_equal(without_time(l.line[0], buf, sizeof buf), "solve w moves 1 nodes 1 pv i13-h14");
    assert_string_equal(without_time(l.line[1], buf, sizeof buf), "solve b moves 2 nodes 2 pv m6-m5 m5-m4");
    assert_string_equal(l.line[2], "solve result b draw (2 against 1)"); /* black arrives second: its reply draws */
    epipe_lines_free(&l);
    /* not a race: the other marbles stay where they are; a node limit leaves it open */
    position(p, "position startpos");
    epipe_command(p, "solve nodes 50", &l);
    assert_int_equal(l.n, 2);
    assert_string_equal(without_time(l.line[0], buf, sizeof buf), "solve w unsolved nodes 51 (over the node limit)");
    epipe_lines_free(&l);
    /* stop ends a long solve, which still answers for every seat */
    epipe_send(p, "solve");
    epipe_send(p, "stop");
    epipe_sync_collect(p, &l);
    assert_int_equal(l.n, 2); /* the two seats' lines */
    assert_non_null(strstr(l.line[0], "(stopped)"));
    assert_non_null(strstr(l.line[1], "(stopped)"));
    epipe_lines_free(&l);
    refused(p, "solve nodes", START2, "solve [nodes <n>]", NULL);
    refused(p, "solve nodes 0", START2, "solve [nodes <n>]", NULL);
    epipe_silent(p, "setoption name Variant value capture-3");
    epipe_command(p, "solve", &l);
    assert_int_equal(l.n, 1);
    assert_non_null(strstr(l.line[0], "info string error solve: capture mode"));
    epipe_lines_free(&l);
    epipe_silent(p, "setoption name Variant value classic-2");
}

static void test_go_depth(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "go depth 3");
    finish_search(p, 30000, START_MOVES, NULL, 3);
    epipe_silent(p, "stop"); /* nothing to stop: no second bestmove */
    /* again from another position */
    position(p, "position startpos moves m4-m5 h14-h13 m3-m4");
    char moves[4096];
    snprintf(moves, sizeof moves, "%s", legal(p));
    epipe_send(p, "go depth 2");
    finish_search(p, 30000, moves, NULL, 2);
}

static void test_go_nodes(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "go nodes 5000");
    finish_search(p, 30000, START_MOVES, NULL, 0);
}

static void test_go_movetime(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "go movetime 100");
    finish_search(p, 30000, START_MOVES, NULL, 0);
}

static void test_go_clock(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "go wtime 1000 btime 1000 winc 10 binc 10");
    finish_search(p, 30000, START_MOVES, NULL, 0);
    epipe_send(p, "go wtime 500 btime 500 movestogo 20");
    finish_search(p, 30000, START_MOVES, NULL, 0);
    /* a clock of 2e18 ms is taken as ~31 years: the time manager's products stay
     * within 64 bits (the sanitizer build of `make asan` fails on an overflow) */
    position(p, AFTER_TWO);
    char moves[4096];
    snprintf(moves, sizeof moves, "%s", legal(p));
    epipe_send(p, "go wtime 2000000000000000000 winc 2000000000000000000 btime 1000 movetime 2000000000000000000");
    epipe_send(p, "stop");
    finish_search(p, 30000, moves, NULL, 0);
    epipe_send(p, "go wtime 2000000000000000000 winc 2000000000000000000 btime 1000");
    epipe_send(p, "stop");
    finish_search(p, 30000, moves, NULL, 0);
    position(p, "position startpos");
    /* six seats, per-seat clocks; info lines carry `scores` for every seat */
    set_variant(p, "classic-6");
    epipe_send(p, "go wtime 1000 rtime 1000 utime 1000 btime 1000 ytime 1000 gtime 1000 winc 0 rinc 0 uinc 0 binc 0 "
                  "yinc 0 ginc 0");
    finish_search(p, 30000, START_MOVES, "wrubyg", 0);
    epipe_send(p, "go depth 2");
    finish_search(p, 30000, START_MOVES, "wrubyg", 2);
}

/* A go whose clock fields are all other seats' (or increments alone) leaves the
 * side to move no limit: it searches 1,000 ms and says so, where it searched
 * until stop with no word (a GUI waiting for bestmove hung). A bare go still
 * waits for stop. */
static void test_go_without_a_clock_for_the_mover(void **state)
{
    EPipe *p = *state;
    static const char *const gos[][2] = {{"classic-2", "go btime 100"},
                                         {"classic-2", "go winc 100 binc 100"},
                                         {"classic-2", "go movestogo 5"},
                                         {"classic-6", "go rtime 100 utime 100 btime 100 ytime 100 gtime 100"}};
    for (size_t k = 0; k < sizeof gos / sizeof *gos; k++) {
        set_variant(p, gos[k][0]);
        epipe_send(p, "setoption name OwnBook value false");
        position(p, "position startpos");
        epipe_send(p, "%s", gos[k][1]);
        const char *said = epipe_expect_line(p, T, gos[k][1]);
        if (strcmp(said, "info string go: no usable limit left (no clock for the side to move), searching for 1000 ms"))
            fail_msg("'%s' first said '%s'", gos[k][1], said);
        char *best = NULL;
        EPipeLines l;
        epipe_collect(p, "bestmove ", true, 5000, &l, &best); /* 1,000 ms, not until stop */
        epipe_lines_free(&l);
        free(best);
    }
    set_variant(p, "classic-2");
    epipe_send(p, "setoption name OwnBook value true");
}

static long long info_field(const char *line, const char *key);

/* The edges of go's fields: a time past 64 bits is taken as the largest
 * (PROTOCOL.md: above 10^12 as 10^12), it was dropped; an unknown field with
 * its number is one field, not two; a line at time 0 reports no nps of nodes
 * per 0 ms (it reported the node count; test_info_line tests info_nps). */
static void test_go_field_edges(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "setoption name OwnBook value false");
    epipe_send(p, "go movetime 99999999999999999999");
    epipe_send(p, "stop");
    EPipeLines l;
    char *best = NULL;
    epipe_collect(p, "bestmove ", true, T, &l, &best);
    for (int i = 0; i < l.n; i++)
        if (strstr(l.line[i], "error"))
            fail_msg("go movetime 99999999999999999999: '%s'", l.line[i]);
    epipe_lines_free(&l);
    free(best);
    epipe_send(p, "go depth 2 ztime 100");
    epipe_collect(p, "bestmove ", true, T, &l, &best);
    int errors = 0;
    for (int i = 0; i < l.n; i++) {
        if (starts(l.line[i], "info string error go: ")) {
            errors++;
            assert_string_equal(l.line[i], "info string error go: unknown field 'ztime 100' ignored");
        }
        /* a line at time 0 (if the machine is quick enough to print one) */
        if (starts(l.line[i], "info depth ") && info_field(l.line[i], "time") == 0 &&
            info_field(l.line[i], "nps") < info_field(l.line[i], "nodes") * 1000)
            fail_msg("a line at time 0 with less than its nodes per ms: %s", l.line[i]);
    }
    assert_int_equal(errors, 1);
    epipe_lines_free(&l);
    free(best);
    epipe_send(p, "setoption name OwnBook value true");
}

static void test_go_searchmoves(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "go depth 2 searchmoves k4-k5");
    assert_string_equal(finish_search(p, 30000, START_MOVES, NULL, 2), "k4-k5");
    epipe_send(p, "go searchmoves l4-l5 m3-m5 depth 2");
    const char *b = finish_search(p, 30000, START_MOVES, NULL, 2);
    assert_true(!strcmp(b, "l4-l5") || !strcmp(b, "m3-m5"));
}

/* MultiPV k: every depth reports lines multipv 1..k, each with a different first
 * move; more threads still give one legal bestmove. */
static void test_go_multipv_threads(void **state)
{
    EPipe *p = *state;
    epipe_silent(p, "setoption name MultiPV value 3");
    position(p, "position startpos");
    epipe_send(p, "go depth 2");
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove ", true, 30000, &l, &bm);
    free(bm);
    for (int depth = 1; depth <= 2; depth++) {
        char first[3][64] = {"", "", ""};
        for (int i = 0; i < l.n; i++) {
            long long d = 0, k = 0;
            if (!starts(l.line[i], "info depth ") || !number_after(l.line[i], "info depth ", &d) || d != depth)
                continue;
            check_info_depth(l.line[i], START_MOVES, NULL);
            if (!number_after(l.line[i], " multipv ", &k) || k < 1 || k > 3)
                fail_msg("MultiPV 3: bad multipv field in '%s'", l.line[i]);
            sscanf(strstr(l.line[i], " pv ") + 4, "%63s", first[k - 1]);
        }
        for (int k = 0; k < 3; k++)
            if (!first[k][0])
                fail_msg("MultiPV 3, go depth 2: no 'info depth %d ... multipv %d' line", depth, k + 1);
        if (!strcmp(first[0], first[1]) || !strcmp(first[0], first[2]) || !strcmp(first[1], first[2]))
            fail_msg("MultiPV 3, depth %d: the lines should start with different moves: %s %s %s", depth, first[0],
                     first[1], first[2]);
    }
    epipe_lines_free(&l);
    epipe_sync(p);
    epipe_silent(p, "setoption name MultiPV value 1");
    epipe_silent(p, "setoption name Threads value 4");
    epipe_send(p, "go depth 4");
    finish_search(p, 30000, START_MOVES, NULL, 4);
    epipe_send(p, "go infinite");
    lines_for(p, 200, &l);
    epipe_lines_free(&l);
    epipe_sync_collect(p, &l);
    epipe_lines_free(&l);
    epipe_send(p, "stop");
    finish_search(p, T, START_MOVES, NULL, 0);
}

static void test_go_infinite_stop(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "go infinite");
    EPipeLines l;
    lines_for(p, 300, &l);
    for (int i = 0; i < l.n; i++)
        if (starts(l.line[i], "bestmove"))
            fail_msg("'go infinite' answered bestmove before stop: '%s'", l.line[i]);
    epipe_lines_free(&l);
    /* isready is answered during the search; info lines may come before it */
    epipe_sync_collect(p, &l);
    for (int i = 0; i < l.n; i++)
        if (!starts(l.line[i], "info "))
            fail_msg("during 'go infinite', before readyok: '%s'", l.line[i]);
    epipe_lines_free(&l);
    lines_for(p, 500, &l);
    for (int i = 0; i < l.n; i++)
        if (starts(l.line[i], "bestmove"))
            fail_msg("'go infinite' answered bestmove before stop: '%s'", l.line[i]);
    epipe_lines_free(&l);
    epipe_send(p, "stop");
    finish_search(p, T, START_MOVES, NULL, 0);
    epipe_silent(p, "stop");
    /* the engine takes commands again */
    position(p, "position startpos moves k4-k5");
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
}

static void test_go_ponder_ponderhit(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "go ponder movetime 100");
    EPipeLines l;
    lines_for(p, 500, &l);
    for (int i = 0; i < l.n; i++)
        if (starts(l.line[i], "bestmove"))
            fail_msg("'go ponder movetime 100' answered bestmove before ponderhit: '%s'", l.line[i]);
    epipe_lines_free(&l);
    epipe_sync_collect(p, &l);
    for (int i = 0; i < l.n; i++)
        if (!starts(l.line[i], "info "))
            fail_msg("during 'go ponder', before readyok: '%s'", l.line[i]);
    epipe_lines_free(&l);
    epipe_send(p, "ponderhit");
    finish_search(p, T, START_MOVES, NULL, 0);
    /* go ponder then stop also ends with exactly one bestmove */
    epipe_send(p, "go ponder wtime 1000 btime 1000");
    lines_for(p, 300, &l);
    for (int i = 0; i < l.n; i++)
        if (starts(l.line[i], "bestmove"))
            fail_msg("'go ponder wtime ...' answered bestmove before ponderhit/stop: '%s'", l.line[i]);
    epipe_lines_free(&l);
    epipe_send(p, "stop");
    finish_search(p, T, START_MOVES, NULL, 0);
}

/* Asserts that `go` (sent now) writes no bestmove for `ms` ms. */
static void no_bestmove_for(EPipe *p, const char *go, int ms)
{
    epipe_send(p, "%s", go);
    EPipeLines l;
    lines_for(p, ms, &l);
    for (int i = 0; i < l.n; i++)
        if (starts(l.line[i], "bestmove"))
            fail_msg("'%s' answered before ponderhit or stop: '%s'", go, l.line[i]);
    epipe_lines_free(&l);
}

/* A node limit ends the thinking of a ponder or infinite search, not its
 * wait: bestmove still waits for ponderhit or stop, as with a depth limit
 * (they answered at once, the limit setting the stop signal). After
 * ponderhit a search that has used its nodes answers at once. */
static void test_node_limit_waits_for_ponderhit_or_stop(void **state)
{
    EPipe *p = *state;
    epipe_silent(p, "setoption name OwnBook value false");
    static const char *const ponder[] = {"go ponder nodes 1000", "go ponder depth 3 nodes 500", "go nodes 1000 ponder"};
    for (size_t i = 0; i < sizeof ponder / sizeof *ponder; i++) {
        position(p, "position startpos");
        no_bestmove_for(p, ponder[i], 600);
        epipe_send(p, "ponderhit");
        finish_search(p, 1000, START_MOVES, NULL, 0);
    }
    position(p, "position startpos");
    no_bestmove_for(p, "go infinite nodes 1000", 600);
    epipe_send(p, "stop");
    finish_search(p, T, START_MOVES, NULL, 0);
    /* the same in MCTS, whose nodes are playouts */
    set_variant(p, "classic-4");
    epipe_silent(p, "setoption name Search value mcts");
    char *moves = strdup(legal(p));
    assert_non_null(moves);
    no_bestmove_for(p, "go infinite nodes 300", 600);
    epipe_send(p, "stop");
    finish_search(p, T, moves, "wrby", 0);
    no_bestmove_for(p, "go ponder nodes 300", 600);
    epipe_send(p, "ponderhit");
    finish_search(p, 1000, moves, "wrby", 0);
    free(moves);
}

/* The queries that change nothing keep their place in line: during a search
 * that ends by itself `eval`, `d`, `result` and `protocol` wait for its
 * bestmove (they were answered before the first info line); during `go
 * infinite` they are answered at once, and the search runs on, while a command
 * that would change the state is refused. */
static void test_queries_wait_for_a_limited_search(void **state)
{
    EPipe *p = *state;
    epipe_silent(p, "setoption name OwnBook value false");
    position(p, "position startpos");
    epipe_send(p, "go depth 5");
    epipe_send(p, "eval");
    epipe_send(p, "result");
    epipe_send(p, "protocol");
    epipe_send(p, "d");
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, T, &l, &bm);
    for (int i = 0; i < l.n; i++)
        if (!starts(l.line[i], "info depth "))
            fail_msg("before the bestmove of 'go depth 5': '%s'", l.line[i]);
    epipe_lines_free(&l);
    free(bm);
    assert_true(starts(epipe_expect_line(p, T, "eval"), "eval w "));
    epipe_collect(p, "result ongoing", false, T, &l, NULL);
    epipe_lines_free(&l);
    epipe_expect(p, "protocol uci");
    char fen_line[256];
    snprintf(fen_line, sizeof fen_line, "Fen: %s", START2);
    epipe_collect(p, fen_line, false, T, &l, NULL);
    epipe_lines_free(&l);
    epipe_sync_collect(p, &l);
    epipe_lines_free(&l);
    /* go infinite: answered at once, the search still running; a command
     * that would change the state is refused */
    epipe_send(p, "go infinite");
    epipe_send(p, "result");
    epipe_collect(p, "result ongoing", false, T, &l, NULL);
    for (int i = 0; i < l.n; i++)
        if (!starts(l.line[i], "info "))
            fail_msg("during go infinite, before the answer to 'result': '%s'", l.line[i]);
    epipe_lines_free(&l);
    epipe_send(p, "position startpos moves k4-k5");
    epipe_collect(p, "info string error position: a search is running, send stop first", false, T, &l, NULL);
    for (int i = 0; i < l.n; i++)
        if (!starts(l.line[i], "info depth "))
            fail_msg("during go infinite, before the refusal of 'position': '%s'", l.line[i]);
    epipe_lines_free(&l);
    epipe_send(p, "stop");
    finish_search(p, T, START_MOVES, NULL, 0);
}

/* Every answer with a move comes with a score line (UCI GUIs show the score
 * of the move played): a search cut before its first iteration ended (`go
 * nodes 1`, `go infinite` stopped at once) gave a bare bestmove. */
static void test_every_answer_has_a_score_line(void **state)
{
    EPipe *p = *state;
    epipe_silent(p, "setoption name OwnBook value false");
    static const struct {
        const char *variant, *go, *seats;
    } cases[] = {{"classic-2", "go nodes 1", NULL},  {"classic-2", "go nodes 10", NULL},
                 {"classic-3", "go nodes 3", "wuy"}, {"classic-6", "go nodes 2", "wrubyg"},
                 {"capture-2", "go nodes 1", NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        set_variant(p, cases[i].variant);
        char *moves = strdup(legal(p));
        assert_non_null(moves);
        epipe_send(p, "%s", cases[i].go);
        EPipeLines l;
        char *bm = NULL;
        epipe_collect(p, "bestmove", true, T, &l, &bm);
        int lines = 0;
        for (int k = 0; k < l.n; k++)
            if (starts(l.line[k], "info depth ")) {
                check_info_depth(l.line[k], moves, cases[i].seats);
                lines++;
            }
        if (!lines)
            fail_msg("%s, '%s': '%s' without a score line", cases[i].variant, cases[i].go, bm);
        epipe_lines_free(&l);
        free(bm);
        free(moves);
        epipe_sync(p);
    }
    set_variant(p, "classic-2");
    epipe_send(p, "go infinite");
    epipe_send(p, "stop");
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, T, &l, &bm);
    int lines = 0;
    for (int k = 0; k < l.n; k++)
        lines += starts(l.line[k], "info depth ");
    if (!lines)
        fail_msg("go infinite stopped at once: '%s' without a score line", bm);
    epipe_lines_free(&l);
    free(bm);
}

/* The score of an info line as one ordered number: mates beyond every cp
 * value, a sooner win higher and a sooner loss lower. */
static long long ordered_score(const char *line)
{
    long long v = 0;
    if (number_after(line, " score mate ", &v))
        return v > 0 ? 1000000 - v : -1000000 - v;
    if (!number_after(line, " score cp ", &v))
        fail_msg("info line without a score: '%s'", line);
    return v;
}

/* MultiPV lines come in the order of the scores they show, in every search
 * and seat count, and the answer is the first line of the last report: with
 * three or more seats the score was the line's end position's standing while
 * the lines went by the search's own value (longjumps-3, brs: line 1 showed
 * cp -245, lines 2 and 3 -110). */
static void test_multipv_lines_come_in_the_order_of_their_scores(void **state)
{
    EPipe *p = *state;
    static const struct {
        const char *variant, *position, *seats;
    } cases[] = {
        {"longjumps-3",
         "position fen 1/2/3/4/uuuu5yyyy/uu8yy/uuu6yy/9y/u7y/10/11/8w3/7ww4/w1w1/w1w/ww/w y w3,u3,y2 3", "wuy"},
        {"classic-3", "position startpos moves k3-i5 c13-e13 k13-i13 m1-k3-k5", "wuy"},
        {"classic-4", "position startpos moves k3-i5 e7-e9 e15-e13 k13-i13 m1-k3-k5", "wrby"},
        {"classic-6", "position startpos moves k3-k5 e7-g7 c13-e11 e15-g13 k13-k11 o7-m7", "wrubyg"},
        {"capture-3", "position startpos", "wuy"},
        {"classic-2", "position startpos moves k3-k5 e15-e13", NULL},
    };
    static const char *const algos[] = {"auto", "paranoid", "maxn", "brs", "brs+", "mcts", "opps"};
    epipe_silent(p, "setoption name OwnBook value false");
    epipe_silent(p, "setoption name MultiPV value 3");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
            set_variant(p, cases[i].variant);
            char cmd[128];
            snprintf(cmd, sizeof cmd, "setoption name Search value %s", algos[a]);
            epipe_silent(p, cmd);
            position(p, cases[i].position);
            char *moves = strdup(legal(p));
            assert_non_null(moves);
            epipe_send(p, "go nodes 6000");
            EPipeLines l;
            char *bm = NULL;
            epipe_collect(p, "bestmove", true, T, &l, &bm);
            long long prev = 0;
            char first[64] = "";
            for (int k = 0; k < l.n; k++) {
                long long pv;
                if (!starts(l.line[k], "info depth "))
                    continue;
                check_info_depth(l.line[k], moves, cases[i].seats);
                if (!number_after(l.line[k], " multipv ", &pv))
                    fail_msg("no multipv in '%s'", l.line[k]);
                const long long score = ordered_score(l.line[k]);
                if (pv == 1)
                    sscanf(strstr(l.line[k], " pv ") + 4, "%63s", first);
                else if (score > prev)
                    fail_msg("%s, Search %s: line %lld shows more than the line above it (%lld): '%s'",
                             cases[i].variant, algos[a], pv, prev, l.line[k]);
                prev = score;
            }
            char want[128];
            snprintf(want, sizeof want, "bestmove %s", first);
            if (strncmp(bm, want, strlen(want)) || (bm[strlen(want)] && bm[strlen(want)] != ' '))
                fail_msg("%s, Search %s: '%s' is not the first line of the last report (%s)", cases[i].variant,
                         algos[a], bm, first);
            epipe_lines_free(&l);
            free(bm);
            free(moves);
            epipe_sync(p);
        }
}

/* With several threads and MultiPV, `go depth` reaches its depth with every
 * line: a helper (which searches one line) completing the depth first ended
 * the search, and the answer came from the main thread's depth 1 or 2 (runs
 * after the first, the table warm, in 1-2 ms). MCTS with `nodes` and `depth`
 * plays the smaller budget (the depth's 60,000 playouts were played for go
 * nodes 5000 depth 6). */
static void test_multipv_with_threads_reaches_the_depth(void **state)
{
    EPipe *p = *state;
    epipe_silent(p, "setoption name OwnBook value false");
    epipe_silent(p, "setoption name Threads value 4");
    epipe_silent(p, "setoption name MultiPV value 3");
    position(p, "position startpos moves k3-i5 e14-e13");
    for (int run = 0; run < 4; run++) {
        epipe_send(p, "go depth 6");
        EPipeLines l;
        char *bm = NULL;
        epipe_collect(p, "bestmove", true, T, &l, &bm);
        int deepest = 0;
        for (int i = 0; i < l.n; i++) {
            long long d, k;
            if (number_after(l.line[i], "info depth ", &d) && number_after(l.line[i], " multipv ", &k) && d == 6)
                deepest |= 1 << (k - 1);
        }
        if (deepest != 7)
            fail_msg("run %d of go depth 6 (Threads 4, MultiPV 3) reported lines %d of depth 6 (mask), answered '%s'",
                     run + 1, deepest, bm);
        epipe_lines_free(&l);
        free(bm);
        epipe_sync(p);
    }
    epipe_silent(p, "setoption name MultiPV value 1");
    epipe_silent(p, "setoption name Threads value 1");
    set_variant(p, "classic-6");
    epipe_silent(p, "setoption name Search value mcts");
    epipe_send(p, "go nodes 5000 depth 6");
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, T, &l, &bm);
    long long most = 0;
    for (int i = 0; i < l.n; i++) {
        long long n;
        if (number_after(l.line[i], " nodes ", &n) && n > most)
            most = n;
    }
    if (most > 5000)
        fail_msg("MCTS go nodes 5000 depth 6 reported %lld playouts", most);
    epipe_lines_free(&l);
    free(bm);
}

/* A BookFile of another variant is said at the setoption, and again once at
 * the first go of each other variant it is not used in (the go said nothing,
 * though CHOICES.md promised it). */
static void test_book_of_another_variant_is_said_at_go(void **state)
{
    EPipe *p = *state;
    assert_string_equal(epipe_one_line(p, "setoption name BookFile value book/classic-3.bin"),
                        "info string book: book/classic-3.bin is a book of classic-3: used when the variant is "
                        "classic-3");
    set_variant(p, "classic-4");
    for (int run = 0; run < 2; run++) {
        epipe_send(p, "go movetime 50");
        EPipeLines l;
        char *bm = NULL;
        epipe_collect(p, "bestmove", true, T, &l, &bm);
        int notes = 0;
        for (int i = 0; i < l.n; i++)
            notes += !strcmp(l.line[i], "info string book: book/classic-3.bin is a book of classic-3, not of "
                                        "classic-4: no book is used");
        assert_int_equal(notes, run == 0);
        epipe_lines_free(&l);
        free(bm);
        epipe_sync(p);
    }
}

/* The value after `key ` in an info line, or -1. */
static long long info_field(const char *line, const char *key)
{
    char k[32];
    snprintf(k, sizeof k, " %s ", key);
    long long v;
    return number_after(line, k, &v) ? v : -1;
}

/* After ponderhit the reported time goes on from the go (it is the search's
 * time; only the clock starts at ponderhit), so nps is not inflated. Bounds:
 * lines after ponderhit say at least the time between go and ponderhit, less
 * a margin for a slow pipe (a clock restarted at ponderhit says less), and
 * nps is nodes per second of the time shown (measured in microseconds: between
 * that of t and of t + 1 ms). */
static void test_ponderhit_time(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    const int64_t t0 = wall_ms();
    epipe_send(p, "go ponder movetime 3000");
    EPipeLines l;
    lines_for(p, 400, &l);
    epipe_lines_free(&l);
    const int64_t hit = wall_ms() - t0;
    epipe_send(p, "ponderhit");
    int after = 0;
    for (;;) {
        char *line;
        const int r = epipe_try_read(p, 20000, &line);
        if (r <= 0)
            fail_msg("no bestmove after ponderhit");
        const int64_t elapsed = wall_ms() - t0;
        if (starts(line, "bestmove"))
            break;
        const long long t = info_field(line, "time");
        if (starts(line, "info depth ") && t >= 0) {
            after++;
            if (t < hit - 200 || t > elapsed + 50)
                fail_msg("ponderhit %lld ms and this line %lld ms after go, it says time %lld: %s", (long long)hit,
                         (long long)elapsed, t, line);
            const long long nodes = info_field(line, "nodes"), nps = info_field(line, "nps");
            /* nps from microseconds: between nodes a second of t + 1 and of t ms */
            if (t > 0 && (nps > nodes * 1000 / t || nps < nodes * 1000 / (t + 1)))
                fail_msg("nps is not nodes per second of the time shown: %s", line);
        }
    }
    assert_true(after > 0);
}

/* Several threads through ponder, ponderhit, stop and isready storms: under
 * `make tsan` (halt_on_error) a data race ends the engine and the test. */
static void test_threads_ponder_storm(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "setoption name Threads value 4");
    position(p, "position startpos moves k3-i5");
    for (int k = 0; k < 6; k++) {
        epipe_send(p, "go ponder depth 6");
        EPipeLines l;
        lines_for(p, 10 * k, &l);
        epipe_lines_free(&l);
        epipe_send(p, "ponderhit");
        char *best = NULL;
        epipe_collect(p, "bestmove ", true, 60000, &l, &best);
        free(best);
        epipe_lines_free(&l);
        epipe_send(p, "go infinite");
        for (int i = 0; i < 20; i++) {
            epipe_send(p, "isready");
            epipe_collect(p, "readyok", false, 20000, &l, NULL);
            epipe_lines_free(&l);
        }
        epipe_send(p, "stop");
        epipe_collect(p, "bestmove ", true, 20000, &l, &best);
        free(best);
        epipe_lines_free(&l);
    }
    epipe_sync(p);
}

/* Scores a GUI can show (PROTOCOL.md): with three or more seats `score cp` and
 * every `scores` entry are relative, the seat's standing minus the best other
 * seat's, so near 0 at the start, and the leader's entry is minus the
 * runner-up's; the side to move's entry is its score. */
static void test_scores_are_relative_in_every_seat_count(void **state)
{
    EPipe *p = *state;
    static const struct {
        const char *variant, *moves;
    } cases[] = {
        {"classic-3", ""}, {"classic-4", " moves j4-i5"}, {"classic-6", " moves k3-k5"}, {"capture-3", ""},
        {"capture-6", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "setoption name Variant value %s", cases[i].variant);
        epipe_send(p, "%s", cmd);
        snprintf(cmd, sizeof cmd, "position startpos%s", cases[i].moves);
        position(p, cmd);
        epipe_send(p, "go depth 2");
        EPipeLines l;
        char *best = NULL;
        epipe_collect(p, "bestmove ", true, 30000, &l, &best);
        const char *last = last_depth_line(&l);
        assert_non_null(last);
        const long long score = info_field(last, "cp");
        const char *sc = strstr(last, " scores ");
        assert_non_null(sc);
        sc += strlen(" scores ");
        int v[6], n = 0, used;
        char seat;
        while (n < 6 && sscanf(sc, "%c:%d%n", &seat, &v[n], &used) == 2) {
            sc += used + 1;
            n++;
        }
        int top = -100000, second = -100000, stm_entry = 0;
        const char *const fen = epipe_fen(p);
        const char stm = strchr(fen, ' ')[1];
        const char *entries = strstr(last, " scores ") + strlen(" scores ");
        for (int k = 0; k < n; k++) {
            if (v[k] > top)
                second = top, top = v[k];
            else if (v[k] > second)
                second = v[k];
            if (entries[0] == stm)
                stm_entry = v[k];
            entries = strchr(entries, ' ') + 1;
            if (abs(v[k]) > 1000)
                fail_msg("%s: an entry far from 0 at the start: %s", cases[i].variant, last);
        }
        if (top != -second || score != stm_entry)
            fail_msg("%s: not relative (leader %d, runner-up %d, score %lld, own %d): %s", cases[i].variant, top,
                     second, score, stm_entry, last);
        free(best);
        epipe_lines_free(&l);
    }
}

/* With three or more seats a relative score beyond the mate bound is still a
 * cp score: blue here is far behind (its exit deadline), not winning by mate.
 * The hand-written standings reach that far (a net's stay within +-28,999). */
static void test_large_relative_score_is_no_mate(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "setoption name Variant value classic-3");
    epipe_send(p, "setoption name EvalFile value none");
    position(p, "position fen 1/2/3/w3/uuuu1y2y4/uuuwy3y3/uuwy2yy1y1/uww2y3y/ww7/1w8/2w8/3w8/13/4/3/2/1 u w25,u21,y24 25");
    epipe_send(p, "go depth 2");
    EPipeLines l;
    char *best = NULL;
    epipe_collect(p, "bestmove ", true, 20000, &l, &best);
    assert_true(l.n > 0);
    for (int i = 0; i < l.n; i++)
        if (starts(l.line[i], "info depth ")) {
            if (!strstr(l.line[i], " score cp -"))
                fail_msg("blue is far behind: %s", l.line[i]);
            assert_true(info_field(l.line[i], "cp") < -29000); /* beyond the mate bound of engine/eval/eval.h */
        }
    free(best);
    epipe_lines_free(&l);
}

/* bestmove and its ponder move are the first two moves of the last line
 * reported (an unfinished iteration must not change the second). */
static void test_ponder_is_pv_second(void **state)
{
    EPipe *p = *state;
    epipe_silent(p, "setoption name OwnBook value false"); /* the search's answer, not the book's */
    for (int k = 0; k < 8; k++) {
        position(p, k % 2 ? "position startpos moves k3-i5" : "position startpos moves k3-i5 e15-e13");
        epipe_send(p, "go movetime %d", 60 + 47 * k);
        EPipeLines l;
        char *best = NULL;
        epipe_collect(p, "bestmove ", true, 20000, &l, &best);
        const char *last = last_depth_line(&l);
        assert_non_null(last);
        char a[64] = "", b[64] = "", want[160];
        const char *pv = strstr(last, " pv ");
        assert_non_null(pv);
        sscanf(pv + 4, "%63s %63s", a, b);
        if (b[0])
            snprintf(want, sizeof want, "bestmove %s ponder %s", a, b);
        else
            snprintf(want, sizeof want, "bestmove %s", a);
        if (strcmp(best, want))
            fail_msg("last line '%s' but '%s'", last, best);
        free(best);
        epipe_lines_free(&l);
    }
}

/* ---- commands during a search ---- */

static void expect_exit0(EPipe *p, const char *how)
{
    char d[128];
    if (!epipe_wait_exit(p, 5000))
        fail_msg("%s: the engine did not exit within 5 s", how);
    if (!WIFEXITED(p->wstatus) || WEXITSTATUS(p->wstatus))
        fail_msg("%s: the engine %s, expected exit status 0", how, epipe_exit_desc(p, d, sizeof d));
}


/* Reads up to the next bestmove (at most T), asserting that only `info` lines
 * come before it; returns its move in buf. */
static void next_bestmove(EPipe *p, char *buf, size_t n)
{
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, T, &l, &bm);
    for (int i = 0; i < l.n; i++)
        if (!starts(l.line[i], "info "))
            fail_msg("line before bestmove that is not 'info ...': '%s'", l.line[i]);
    epipe_lines_free(&l);
    if (sscanf(bm, "bestmove %255s", buf) != 1 || n < 256)
        fail_msg("malformed bestmove line: '%s'", bm);
    free(bm);
}

/* A command that changes the state, sent during a search that ends by itself (or
 * has no limit at all), waits for it while the engine reads on (PROTOCOL.md:
 * isready and stop are answered at once during a search); then it is carried out. */
static void test_command_waits_for_search(void **state)
{
    EPipe *p = *state;
    position(p, AFTER_TWO);
    char moves[4096];
    snprintf(moves, sizeof moves, "%s", legal(p));
    /* `go` with no limit: only stop ends it */
    epipe_send(p, "go");
    epipe_send(p, "position startpos moves k4-k5");
    EPipeLines l;
    epipe_sync_collect(p, &l);
    for (int i = 0; i < l.n; i++)
        if (!starts(l.line[i], "info "))
            fail_msg("'go' without limits, then 'position': before readyok came '%s'", l.line[i]);
    epipe_lines_free(&l);
    epipe_send(p, "stop");
    finish_search(p, T, moves, NULL, 0);
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
    /* ten minutes to think: the stop behind the waiting command is read (T is 10 s) */
    position(p, AFTER_TWO);
    epipe_send(p, "go movetime 600000");
    epipe_send(p, "position startpos");
    epipe_send(p, "\rstop"); /* a CR before the word, as the tokenizer allows */
    finish_search(p, T, moves, NULL, 0);
    assert_string_equal(epipe_fen(p), START2);
}

/* stop acts on the search running when it is read, even when a `go` waits: the
 * first search ends, then the waiting position and `go infinite` run, and that
 * search thinks until the next stop. */
static void test_stop_ends_running_search(void **state)
{
    EPipe *p = *state;
    position(p, AFTER_TWO);
    char first[4096], second[4096], bm[256];
    snprintf(first, sizeof first, "%s", legal(p));
    position(p, "position startpos moves k3-i5 e15-e13 m4-m5");
    snprintf(second, sizeof second, "%s", legal(p));
    position(p, AFTER_TWO);
    epipe_silent(p, "setoption name OwnBook value false"); /* a search that runs, not a book move */
    epipe_send(p, "go movetime 600000");
    epipe_send(p, "position startpos moves k3-i5 e15-e13 m4-m5");
    epipe_send(p, "go infinite");
    epipe_send(p, "stop");
    next_bestmove(p, bm, sizeof bm);
    if (!in_list(first, bm))
        fail_msg("first search: bestmove %s is not legal (%s)", bm, first);
    EPipeLines l;
    lines_for(p, 300, &l);
    for (int i = 0; i < l.n; i++)
        if (!starts(l.line[i], "info "))
            fail_msg("'go infinite' (put off behind the first search) answered before its stop: '%s'", l.line[i]);
    epipe_lines_free(&l);
    epipe_send(p, "stop");
    next_bestmove(p, bm, sizeof bm);
    if (!in_list(second, bm))
        fail_msg("second search: bestmove %s is not legal after m4-m5 (%s)", bm, second);
    epipe_sync(p);
}

/* A stopped perft says so as bench does: the moves it counted, then the total
 * so far marked `(stopped)` (it said `info string error perft: stopped after
 * N nodes`, an error for what was asked). */
static void test_stopped_perft_says_its_total(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "perft 9");
    EPipeLines l;
    lines_for(p, 300, &l);
    epipe_lines_free(&l);
    epipe_send(p, "stop");
    char *last = NULL;
    epipe_collect(p, "Nodes searched: ", true, T, &l, &last);
    unsigned long long total = 0, sum = 0, n;
    char tail[32] = "";
    if (sscanf(last, "Nodes searched: %llu %31[^\n]", &total, tail) != 2 || strcmp(tail, "(stopped)"))
        fail_msg("a stopped perft ended with '%s', not 'Nodes searched: <n> (stopped)'", last);
    for (int i = 0; i < l.n; i++) {
        const char *colon = strstr(l.line[i], ": ");
        if (!colon || sscanf(colon, ": %llu", &n) != 1)
            fail_msg("a stopped perft printed '%s' before its total", l.line[i]);
        sum += n;
    }
    assert_int_equal(sum, total);
    free(last);
    epipe_lines_free(&l);
    epipe_sync(p);
}

/* A line with a NUL byte read while a command waits is refused in its turn,
 * even when it starts with quit. */
static void test_nul_line_while_command_waits(void **state)
{
    EPipe *p = *state;
    position(p, AFTER_TWO);
    epipe_send(p, "go");
    epipe_send(p, "position startpos moves k4-k5");
    static const char quit_nul[] = "quit\0junk\n";
    epipe_send_raw(p, quit_nul, sizeof quit_nul - 1);
    EPipeLines l;
    epipe_sync_collect(p, &l); /* still running: readyok */
    epipe_lines_free(&l);
    epipe_send(p, "stop");
    char bm[256];
    next_bestmove(p, bm, sizeof bm);
    const char *err = epipe_expect_line(p, T, "the refusal of the NUL line");
    if (!starts(err, "info string error ") || !strstr(err, "NUL"))
        fail_msg("after the search, expected the NUL line's refusal, got '%s'", err);
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
}

static void test_quit_while_command_waits(void **state)
{
    EPipe *p = *state;
    position(p, AFTER_TWO);
    epipe_send(p, "go");
    epipe_send(p, "position startpos");
    epipe_send(p, "quit");
    expect_exit0(p, "quit while 'position' waits for 'go'");
}

/* End of input while a command waits: a search with no limit is stopped and the
 * engine exits; one that ends by itself finishes, and what waits is carried out. */
static void test_eof_while_command_waits(void **state)
{
    EPipe *p = *state;
    position(p, AFTER_TWO);
    epipe_send(p, "go");
    epipe_send(p, "position startpos");
    epipe_close_stdin(p);
    expect_exit0(p, "EOF while 'position' waits for 'go'");
    EPipe *q = epipe_start();
    position(q, AFTER_TWO);
    epipe_send(q, "go depth 3");
    epipe_send(q, "position startpos moves k4-k5");
    epipe_send(q, "d");
    epipe_close_stdin(q);
    int bestmoves = 0, fens = 0;
    char *line;
    for (int r; (r = epipe_try_read(q, T, &line)) > 0;) {
        bestmoves += starts(line, "bestmove ");
        if (starts(line, "Fen: ")) {
            assert_string_equal(line + 5, AFTER_K4K5);
            fens++;
        }
    }
    if (bestmoves != 1 || fens != 1)
        fail_msg("go depth 3, position, d, then EOF: %d bestmove and %d Fen lines, expected 1 and 1", bestmoves, fens);
    expect_exit0(q, "EOF after 'go depth 3', 'position', 'd'");
    epipe_kill(q);
}

/* Sends `lines` (each with its '\n') in one write, then reads to the end of the
 * engine's output: the counts of lines starting with each of prefix[0..n), and
 * the engine must exit with status 0. */
static void count_until_exit(EPipe *q, const char *lines, const char *const *prefix, int *count, int n)
{
    epipe_send_raw(q, lines, strlen(lines));
    char *line;
    for (int r; (r = epipe_try_read(q, T, &line)) > 0;)
        for (int i = 0; i < n; i++)
            count[i] += starts(line, prefix[i]);
    expect_exit0(q, lines);
}

/* quit is carried out in its turn: the commands sent before it are carried out
 * first, also when they wait for a perft, legalmoves or a search that ends by
 * itself; a search without a limit it stops (it answers), then the commands
 * before it go on; no line after it is read. It once jumped the queue: `perft 1`, `d`, `quit` printed no
 * board, `legalmoves`, `isready`, `quit` no readyok. */
static void test_quit_waits_for_the_commands_before_it(void **state)
{
    (void)state;
    static const char *const prefix[] = {"Fen: ", "readyok", "bestmove ", "legalmoves ", "Nodes searched"};
    static const struct {
        const char *lines;
        int want[5];
    } cases[] = {
        {"perft 1\nd\nquit\n", {1, 0, 0, 0, 1}},
        {"legalmoves\nd\nquit\n", {1, 0, 0, 1, 0}},
        {"legalmoves\nisready\nquit\n", {0, 1, 0, 1, 0}},
        {"go depth 3\nposition startpos moves k4-k5\nd\nquit\n", {1, 0, 1, 0, 0}},
        {"go\nposition startpos moves k4-k5\nd\nquit\ngo depth 1\n", {1, 0, 1, 0, 0}},
        /* nothing after quit is read, also while it waits in line */
        {"setoption name OwnBook value false\ngo movetime 300\nposition startpos\nquit\nisready\nd\n",
         {0, 0, 1, 0, 0}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        EPipe *q = epipe_start();
        int count[5] = {0};
        count_until_exit(q, cases[k].lines, prefix, count, 5);
        for (int i = 0; i < 5; i++)
            if (count[i] != cases[k].want[i])
                fail_msg("'%s': %d lines '%s', expected %d", cases[k].lines, count[i], prefix[i], cases[k].want[i]);
        epipe_kill(q);
    }
}

/* ---- finished games, result, eval, bench ---- */

static void test_finished_game(void **state)
{
    EPipe *p = *state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position fen %s", FEN_WHITE_WON);
    position(p, cmd);
    epipe_send(p, "go depth 2");
    finish_search(p, T, "", NULL, 0);
    EPipeLines l;
    epipe_command(p, "result", &l);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.line[0], "result w:1 b:2 reason arrived");
    epipe_lines_free(&l);
    assert_string_equal(legal(p), "");
    /* no move may follow */
    snprintf(cmd, sizeof cmd, "position fen %s moves e17-e16", FEN_WHITE_WON);
    refused(p, cmd, FEN_WHITE_WON, NULL);
    /* go infinite on a finished game still waits for stop */
    epipe_send(p, "go infinite");
    epipe_expect_silence(p, 300);
    epipe_send(p, "stop");
    finish_search(p, T, "", NULL, 0);
    /* a two-player draw shows both seats in place 1 */
    snprintf(cmd, sizeof cmd, "position fen %s", FEN_DRAW);
    position(p, cmd);
    epipe_command(p, "result", &l);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.line[0], "result w:1 b:1 reason arrived");
    epipe_lines_free(&l);
    epipe_send(p, "go nodes 1000");
    finish_search(p, T, "", NULL, 0);
}

static void test_result(void **state)
{
    EPipe *p = *state;
    EPipeLines l;
    epipe_command(p, "result", &l);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.line[0], "result ongoing");
    epipe_lines_free(&l);
    position(p, "position startpos moves m4-m5 h14-h13 m3-m4");
    epipe_command(p, "result", &l);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.line[0], "result ongoing");
    epipe_lines_free(&l);
    /* third repetition of the start through the moves list: over, a draw */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position startpos moves %s", REPEAT8);
    position(p, cmd);
    epipe_command(p, "result", &l);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.line[0], "result w:1 b:1 reason repetition");
    epipe_lines_free(&l);
    const char *fen = epipe_fen(p);
    const char *stm = strchr(fen, ' ');
    if (!stm || strncmp(stm, " - ", 3))
        fail_msg("a finished game's FEN should have '-' as side to move: '%s'", fen);
    epipe_send(p, "go depth 2");
    finish_search(p, T, "", NULL, 0);
    /* two repetitions only: still going */
    position(p, "position startpos moves m4-m5 h14-h13 m5-m4 h13-h14");
    epipe_command(p, "result", &l);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.line[0], "result ongoing");
    epipe_lines_free(&l);
}

/* One line per seat in play, in turn order; nothing refused. */
static void check_eval(EPipe *p, const char *seats)
{
    EPipeLines l;
    epipe_command(p, "eval", &l);
    char d[4096];
    epipe_lines_dump(&l, d, sizeof d);
    const char *next = seats;
    for (int i = 0; i < l.n; i++) {
        if (starts(l.line[i], "info string error"))
            fail_msg("eval refused: %s", d);
        char a[64] = "", b[64] = "";
        sscanf(l.line[i], "%63s %63s", a, b);
        const char *seat = strlen(a) == 1 ? a : b;
        if (strlen(seat) != 1 || !strchr("wrubyg", seat[0]))
            continue;
        if (seat[0] != *next)
            fail_msg("eval: expected the line of seat '%c' next, got '%s' (all: %s)", *next ? *next : '-', l.line[i], d);
        next++;
    }
    if (*next)
        fail_msg("eval: no line for seat '%c' (expected one per seat of %s): %s", *next, seats, d);
    epipe_lines_free(&l);
}

static void test_eval(void **state)
{
    EPipe *p = *state;
    check_eval(p, "wb");
    position(p, "position startpos moves m4-m5 h14-h13 m3-m4");
    check_eval(p, "wb");
    set_variant(p, "classic-6");
    check_eval(p, "wrubyg");
    set_variant(p, "classic-3");
    check_eval(p, "wuy");
    set_variant(p, "capture-5");
    check_eval(p, "wruby");
}

/* Runs `bench 2`; returns its node count. */
static long long bench2(EPipe *p)
{
    epipe_send(p, "bench 2");
    EPipeLines l;
    char *last = NULL;
    epipe_collect(p, "Nodes searched: ", true, 60000, &l, &last);
    /* one line per bench position, each a game in progress that was searched */
    int positions = 0;
    for (int i = 0; i < l.n; i++) {
        if (!starts(l.line[i], "info string bench "))
            continue;
        const char *n = strstr(l.line[i], " nodes ");
        if (!n || strtoll(n + 7, NULL, 10) <= 0)
            fail_msg("bench position searched no nodes: '%s'", l.line[i]);
        positions++;
    }
    epipe_lines_free(&l);
    if (positions != 10)
        fail_msg("expected 10 bench position lines, got %d", positions);
    char *end;
    const long long nodes = strtoll(last + strlen("Nodes searched: "), &end, 10);
    if (*end || nodes <= 0)
        fail_msg("bad bench total line: '%s'", last);
    free(last);
    const char *nps = epipe_expect_line(p, T, "Nodes/second");
    if (!starts(nps, "Nodes/second: ") || strtoll(nps + 14, &end, 10) < 0 || *end || end == nps + 14)
        fail_msg("after 'Nodes searched' expected 'Nodes/second: <n>', got '%s'", nps);
    epipe_sync(p); /* bench ends with these two lines */
    return nodes;
}

static void test_bench(void **state)
{
    EPipe *p = *state;
    const long long a = bench2(p);
    const long long b = bench2(p);
    EPipe *q = epipe_start();
    const long long c = bench2(q);
    epipe_kill(q);
    if (a != b || a != c)
        fail_msg("bench 2 node counts differ: %lld, %lld (same process), %lld (new process)", a, b, c);
    /* the position is untouched by bench */
    position(p, "position startpos moves k4-k5");
    bench2(p);
    assert_string_equal(epipe_fen(p), AFTER_K4K5);
}

/* ---- ending the process ---- */

static void test_quit(void **state)
{
    EPipe *p = *state;
    epipe_sync(p);
    epipe_send(p, "quit");
    expect_exit0(p, "quit");
}

static void test_quit_during_search(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "go infinite");
    EPipeLines l;
    lines_for(p, 200, &l);
    epipe_lines_free(&l);
    epipe_send(p, "quit");
    expect_exit0(p, "quit during go infinite");
}

static void test_eof(void **state)
{
    EPipe *p = *state;
    epipe_sync(p);
    epipe_close_stdin(p);
    expect_exit0(p, "EOF on stdin");
}

static void test_eof_during_search(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "go infinite");
    EPipeLines l;
    lines_for(p, 200, &l);
    epipe_lines_free(&l);
    epipe_close_stdin(p);
    expect_exit0(p, "EOF on stdin during go infinite");
}

/* End of input after a go with a limit (PROTOCOL.md): the search finishes,
 * reports and answers, then the engine exits. */
static void test_eof_finishes_limited_search(void **state)
{
    EPipe *p = *state;
    position(p, "position startpos");
    epipe_send(p, "go depth 6");
    epipe_close_stdin(p);
    int deepest = 0, bestmoves = 0;
    char *line;
    for (int r; (r = epipe_try_read(p, T, &line)) > 0;) {
        if (starts(line, "info depth "))
            deepest = atoi(line + strlen("info depth "));
        bestmoves += starts(line, "bestmove ") && strcmp(line, "bestmove (none)");
    }
    assert_int_equal(deepest, 6);
    assert_int_equal(bestmoves, 1);
    expect_exit0(p, "EOF after go depth 6");
}

static void test_eof_during_ponder(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "go ponder movetime 100");
    EPipeLines l;
    lines_for(p, 200, &l);
    epipe_lines_free(&l);
    epipe_close_stdin(p);
    expect_exit0(p, "EOF on stdin during go ponder");
}

/* The node count of the last `info depth` line of a `go depth 6` from the
 * position after j4-j5 e14-e13 (one thread: exact). */
static long long go_depth_nodes(EPipe *p)
{
    epipe_send(p, "position startpos moves j4-j5 e14-e13");
    epipe_send(p, "go depth 6");
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, 30000, &l, &bm);
    const char *last = last_depth_line(&l);
    long long nodes = -1;
    if (!last || !number_after(last, " nodes ", &nodes))
        fail_msg("no info depth line with nodes before '%s'", bm ? bm : "");
    epipe_lines_free(&l);
    free(bm);
    return nodes;
}

/* ucinewgame clears the table and the history: the same search repeats
 * exactly; a second search without it reads the table (fewer nodes). Clear
 * Hash clears the table alone: its search is neither the second nor the
 * first (the history stays), and repeats exactly itself. */
static void test_ucinewgame_and_clear_hash_clear_the_table(void **state)
{
    EPipe *p = *state;
    epipe_send(p, "setoption name OwnBook value false");
    epipe_send(p, "ucinewgame");
    const long long first = go_depth_nodes(p);
    const long long second = go_depth_nodes(p);
    assert_true(second < first);
    epipe_send(p, "ucinewgame");
    assert_int_equal(go_depth_nodes(p), first);
    go_depth_nodes(p);
    epipe_send(p, "setoption name Clear Hash");
    const long long cleared = go_depth_nodes(p);
    assert_true(cleared != second && cleared > second);
    epipe_send(p, "ucinewgame");
    go_depth_nodes(p);
    epipe_send(p, "setoption name Clear Hash");
    assert_int_equal(go_depth_nodes(p), cleared);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, epipe_setup, epipe_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_ucinewgame_and_clear_hash_clear_the_table),
        TEST(test_uci_handshake),
        TEST(test_uci_documented_options),
        TEST(test_isready),
        TEST(test_setoption_variant),
        TEST(test_ucinewgame_resets),
        TEST(test_legalmoves_start),
        TEST(test_perft_classic2),
        TEST(test_perft_classic6),
        TEST(test_position_moves_d),
        TEST(test_position_accepts_pgn_movetext),
        TEST(test_position_fen_roundtrip),
        TEST(test_whitespace_crlf_long_lines),
        TEST(test_error_unknown_command),
        TEST(test_error_bytes_outside_ascii),
        TEST(test_error_bad_moves),
        TEST(test_error_bad_fen),
        TEST(test_error_go_fields),
        TEST(test_error_setoption),
        TEST(test_error_perft),
        TEST(test_error_long_garbage_line),
        TEST(test_error_lines_quote_a_bounded_part),
        TEST(test_debug_and_register_are_accepted),
        TEST(test_line_over_16_mib_is_refused),
        TEST(test_empty_and_blank_lines),
        TEST(test_go_depth),
        TEST(test_race_endgame),
        TEST(test_race_endgame_past_others),
        TEST(test_solve),
        TEST(test_go_nodes),
        TEST(test_go_movetime),
        TEST(test_go_clock),
        TEST(test_go_without_a_clock_for_the_mover),
        TEST(test_go_field_edges),
        TEST(test_go_searchmoves),
        TEST(test_go_multipv_threads),
        TEST(test_go_infinite_stop),
        TEST(test_go_ponder_ponderhit),
        TEST(test_node_limit_waits_for_ponderhit_or_stop),
        TEST(test_queries_wait_for_a_limited_search),
        TEST(test_every_answer_has_a_score_line),
        TEST(test_multipv_lines_come_in_the_order_of_their_scores),
        TEST(test_multipv_with_threads_reaches_the_depth),
        TEST(test_book_of_another_variant_is_said_at_go),
        TEST(test_ponderhit_time),
        TEST(test_large_relative_score_is_no_mate),
        TEST(test_scores_are_relative_in_every_seat_count),
        TEST(test_threads_ponder_storm),
        TEST(test_ponder_is_pv_second),
        TEST(test_command_waits_for_search),
        TEST(test_stop_ends_running_search),
        TEST(test_stopped_perft_says_its_total),
        TEST(test_nul_line_while_command_waits),
        TEST(test_quit_while_command_waits),
        TEST(test_quit_waits_for_the_commands_before_it),
        TEST(test_eof_while_command_waits),
        TEST(test_finished_game),
        TEST(test_result),
        TEST(test_eval),
        TEST(test_bench),
        TEST(test_quit),
        TEST(test_quit_during_search),
        TEST(test_eof),
        TEST(test_eof_during_search),
        TEST(test_eof_during_ponder),
        TEST(test_eof_finishes_limited_search),
    };
    return cmocka_run_group_tests_name("protocol", tests, NULL, NULL);
}
