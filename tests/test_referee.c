/*
 * test_referee.c - whole games refereed by tools/lib/referee.c between scripted
 * engines (small sh programs that answer the handshake and play a fixed list of
 * moves, logging every line they receive): the exact commands sent, canonical
 * notation, and the forfeits of RULES.md section 7 (illegal move, crash, time).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine_proc.h"
#include "record.h"
#include "referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define QUICK_MS 2000
#define MOVETIME_MS 50

/* A scripted engine: logs each input line to `log`, answers `uci`/`isready`, and
 * answers the k-th `go` with the k-th word of `answers` ("hang": no answer;
 * "crash": exit 5). */
static void start_scripted(EngineProc *e, const char *log, const char *answers)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "set -- %s; while read -r l; do echo \"$l\" >> '%s'; case \"$l\" in "
             "uci) echo 'id name Scripted'; echo uciok;; isready) echo readyok;; "
             "go*) case \"$1\" in hang) ;; crash) exit 5;; *) echo 'info depth 2 score cp 15'; "
             "echo \"bestmove $1\";; esac; shift;; quit) exit 0;; esac; done",
             answers, log);
    assert_int_equal(ep_start(e, cmd, -1), 0);
    const EngineOption opt = {"Variant", "classic-2"};
    assert_int_equal(ep_handshake(e, &opt, 1, QUICK_MS), 0);
}

typedef struct {
    char path[2][64];
    EngineProc proc[2];
    EngineProc *seats[MAX_SEATS];
} Pair;

/* White and black scripted engines for classic-2. */
static void start_pair(Pair *p, const char *white, const char *black)
{
    for (int i = 0; i < 2; i++) {
        snprintf(p->path[i], sizeof p->path[i], "/tmp/stern-referee-XXXXXX");
        const int fd = mkstemp(p->path[i]);
        assert_true(fd >= 0);
        close(fd);
        start_scripted(&p->proc[i], p->path[i], i ? black : white);
    }
    memset(p->seats, 0, sizeof p->seats);
    p->seats[SEAT_WHITE] = &p->proc[0];
    p->seats[SEAT_BLACK] = &p->proc[1];
}

/* Stops both engines; returns what engine i (0 white, 1 black) received. */
static const char *stop_pair(Pair *p, int i)
{
    static char text[4096];
    for (int k = 0; k < 2; k++)
        ep_quit(&p->proc[k], QUICK_MS);
    FILE *f = fopen(p->path[i], "r");
    assert_non_null(f);
    const size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    for (int k = 0; k < 2; k++)
        unlink(p->path[k]);
    return text;
}

typedef struct {
    int moves, scored;
    char texts[256];
} Seen;

static void count_move(const Game *g, const RefereeMove *m, void *ctx)
{
    (void)g;
    Seen *s = ctx;
    s->moves++;
    s->scored += m->has_score && !m->mate && m->score == 15 && m->depth == 2;
    strcat(strcat(s->texts, s->texts[0] ? " " : ""), m->text);
}

static void test_referee_sends_canonical_moves_and_forfeits_illegal_move(void **state)
{
    char result[RECORD_RESULT_MAX];
    (void)state;
    Pair p;
    start_pair(&p, "K3-I5 m1-k5", "e15-g13 e17-e16");
    static Game g;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    const RefereeLimits lim = {MOVETIME_MS, 0, 0, QUICK_MS, 0};
    RefereeResult res;
    Seen seen = {0};
    assert_int_equal(referee_play(&g, p.seats, &lim, count_move, &seen, &res), 0);
    assert_int_equal(res.forfeit, FORFEIT_ILLEGAL);
    assert_int_equal(res.seat, SEAT_BLACK);
    assert_string_equal(res.termination, "illegal move");
    assert_non_null(strstr(res.detail, "'e17-e16'"));
    assert_int_equal(seen.moves, 3);
    assert_int_equal(seen.scored, 3);
    assert_string_equal(seen.texts, "k3-i5 e15-g13 m1-k3-k5");
    assert_string_equal(record_result(&g.pos, result, sizeof result), "1-0");
    assert_string_equal(stop_pair(&p, 1), "uci\n"
                                          "setoption name Variant value classic-2\n"
                                          "isready\n" /* each option is answered before the next */
                                          "isready\n"
                                          "ucinewgame\n"
                                          "isready\n"
                                          "position startpos moves k3-i5\n"
                                          "go movetime 50\n"
                                          "position startpos moves k3-i5 e15-g13 m1-k3-k5\n"
                                          "go movetime 50\n"
                                          "quit\n");
}

#define WHITE_ARRIVES_FEN "w/ww/www/www1/8w4/12/11/10/bbbbbbbbb/4b5/11/12/13/4/3/2/1 w w0,b0 1"

static void test_referee_plays_from_fen_with_clocks_to_the_rules_end(void **state)
{
    char result[RECORD_RESULT_MAX];
    (void)state;
    Pair p;
    start_pair(&p, "i13-h14", "i8-i7");
    static Game g;
    char err[256];
    assert_int_equal(game_new(&g, "classic-2"), 0);
    assert_int_equal(game_set_fen(&g, WHITE_ARRIVES_FEN, err, sizeof err), 0);
    const RefereeLimits lim = {0, 1000, 100, QUICK_MS, 0};
    RefereeResult res;
    assert_int_equal(referee_play(&g, p.seats, &lim, NULL, NULL, &res), 0);
    assert_int_equal(res.forfeit, FORFEIT_NONE);
    assert_string_equal(res.termination, "arrived");
    assert_string_equal(record_result(&g.pos, result, sizeof result), "1-0");
    const char *log = stop_pair(&p, 0);
    assert_non_null(strstr(log, "\nposition fen " WHITE_ARRIVES_FEN "\n"
                                "go wtime 1000 winc 100 btime 1000 binc 100\n"));
}

static void test_referee_forfeits_crashed_engine(void **state)
{
    (void)state;
    Pair p;
    start_pair(&p, "k3-i5", "crash");
    static Game g;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    const RefereeLimits lim = {MOVETIME_MS, 0, 0, QUICK_MS, 0};
    RefereeResult res;
    assert_int_equal(referee_play(&g, p.seats, &lim, NULL, NULL, &res), 0);
    assert_int_equal(res.forfeit, FORFEIT_CRASH);
    assert_int_equal(res.seat, SEAT_BLACK);
    assert_non_null(strstr(res.detail, "exited with status 5"));
    char places[RECORD_PLACES_MAX];
    assert_string_equal(record_places(&g.pos, places, sizeof places), "w:1 b:2");
    stop_pair(&p, 0);
}

static void test_referee_forfeits_engine_silent_past_movetime_and_margin(void **state)
{
    char result[RECORD_RESULT_MAX];
    (void)state;
    Pair p;
    start_pair(&p, "hang", "e15-g13");
    static Game g;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    const RefereeLimits lim = {MOVETIME_MS, 0, 0, 100, 0};
    RefereeResult res;
    const int64_t t0 = ep_now_ms();
    assert_int_equal(referee_play(&g, p.seats, &lim, NULL, NULL, &res), 0);
    const int64_t took = ep_now_ms() - t0;
    assert_true(took >= MOVETIME_MS + 100 && took < QUICK_MS);
    assert_int_equal(res.forfeit, FORFEIT_TIME);
    assert_int_equal(res.seat, SEAT_WHITE);
    assert_string_equal(res.termination, "time forfeit");
    assert_string_equal(record_result(&g.pos, result, sizeof result), "0-1");
    assert_int_equal(g.nplies, 0);
    ep_kill(&p.proc[0]); /* still "searching" */
    stop_pair(&p, 1);
}

/* The value after `word ` in line (a `go` line), or -1 when it has none. */
static int go_field(const char *line, const char *word)
{
    char key[32];
    snprintf(key, sizeof key, " %s ", word);
    const char *p = strstr(line, key);
    const char *eol = strchr(line, '\n');
    return p && (!eol || p < eol) ? atoi(p + strlen(key)) : -1;
}

/* A clock of moves per period (cutechess's tc=40/60): white has 1 s for each
 * 2 of its moves, no increment; after its second move the clock gets 1 s more
 * (what is left carries over), and each of its `go`s says its moves left in
 * the period. Black plays by movetime: no clock, no movestogo. */
static void test_referee_refills_a_clock_of_moves_per_period_and_sends_movestogo(void **state)
{
    (void)state;
    Pair p;
    start_pair(&p, "k3-i5 m1-k3-k5 j4-j5", "e15-g13 f14-f13 zz1");
    RefereeSeatLimits lims[MAX_SEATS] = {0};
    lims[SEAT_WHITE] = (RefereeSeatLimits){.time = {.time_ms = 1000, .margin_ms = QUICK_MS, .moves = 2}};
    lims[SEAT_BLACK] = (RefereeSeatLimits){.time = {.movetime_ms = MOVETIME_MS, .margin_ms = QUICK_MS}};
    static Game g;
    assert_int_equal(game_new(&g, "classic-2"), 0);
    RefereeResult res;
    assert_int_equal(referee_play_seats(&g, p.seats, lims, NULL, NULL, &res), 0);
    assert_int_equal(res.forfeit, FORFEIT_ILLEGAL); /* black's zz1 ends it */
    assert_int_equal(g.nplies, 5);
    static char black[4096], white[4096];
    FILE *f = fopen(p.path[1], "r"); /* complete: it logged its last go before answering */
    assert_non_null(f);
    black[fread(black, 1, sizeof black - 1, f)] = '\0';
    fclose(f);
    snprintf(white, sizeof white, "%s", stop_pair(&p, 0));
    const char *go[3];
    go[0] = strstr(white, "position startpos\ngo ");
    assert_non_null(go[0]);
    go[0] = strstr(go[0], "go ");
    assert_true(!strncmp(go[0], "go wtime 1000 winc 0 movestogo 2\n", 33));
    for (int k = 1; k < 3; k++) { /* each at its `go` */
        go[k] = strstr(go[k - 1], "\ngo ");
        assert_non_null(go[k]);
        go[k]++;
    }
    assert_null(strstr(go[2], "\ngo ")); /* three moves, three `go`s */
    assert_int_equal(go_field(go[1], "movestogo"), 1);
    assert_int_equal(go_field(go[2], "movestogo"), 2); /* a new period */
    const int w1 = go_field(go[1], "wtime"), w2 = go_field(go[2], "wtime");
    if (w1 > 1000 || w1 < 1000 - QUICK_MS || w2 > w1 + 1000 || w2 < w1 + 1000 - QUICK_MS)
        fail_msg("white's clock: 1000, then %d, then %d (1000 more after its second move)", w1, w2);
    assert_true(w2 > 1000); /* refilled: no clock of 1 s a game gets there without an increment */
    /* black plays by movetime: its go has no clock and no movestogo */
    assert_non_null(strstr(black, "position startpos moves k3-i5\ngo movetime 50\n"));
    assert_null(strstr(black, "movestogo"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_referee_sends_canonical_moves_and_forfeits_illegal_move),
        cmocka_unit_test(test_referee_plays_from_fen_with_clocks_to_the_rules_end),
        cmocka_unit_test(test_referee_forfeits_crashed_engine),
        cmocka_unit_test(test_referee_forfeits_engine_silent_past_movetime_and_margin),
        cmocka_unit_test(test_referee_refills_a_clock_of_moves_per_period_and_sends_movestogo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
