/*
 * test_record.c - game records (tools/lib/record.c) written as exact PGN text, and
 * engine child processes (tools/lib/engine_proc.c): line exchange, timeouts,
 * crashes and killing a hung child.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine_proc.h"
#include "fen.h"
#include "notation.h"
#include "record.h"
#include "referee.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- records ---- */

/* Starts *g as `variant` from `fen` (NULL: the start) and plays the moves of
 * `moves` (separated by spaces), failing the test on any refusal. */
static void replay(Game *g, const char *variant, const char *fen, const char *moves)
{
    char err[256];
    assert_int_equal(game_new(g, variant), 0);
    if (fen && game_set_fen(g, fen, err, sizeof err))
        fail_msg("FEN refused: %s", err);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", moves);
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        Move m;
        if (move_parse(&g->pos, t, &m, err, sizeof err))
            fail_msg("move %s refused: %s", t, err);
        assert_int_equal(game_play(g, &m), 0);
    }
}

/* The record of g with tags t, as a string (static buffer). */
static const char *record_text(const Game *g, const RecordTags *t)
{
    static char text[8192];
    FILE *f = fmemopen(text, sizeof text, "w");
    assert_non_null(f);
    assert_int_equal(record_write(f, g, t), 0);
    fclose(f);
    return text;
}

static void test_record_numbers_rounds_and_names_seats_by_colour(void **state)
{
    (void)state;
    static Game g;
    replay(&g, "classic-2", NULL, "k3-i5 e15-g13 i5-i6 f14-f13 m1-k3-i5-i7");
    const RecordTags t = {"Test", "Here", "2024.05.31", "3", "0.2/move", {"Alpha", NULL, NULL, "Beta", NULL, NULL},
                          NULL, NULL, NULL, 0};
    assert_string_equal(record_text(&g, &t), "[Event \"Test\"]\n"
                                             "[Site \"Here\"]\n"
                                             "[Date \"2024.05.31\"]\n"
                                             "[Round \"3\"]\n"
                                             "[Variant \"classic-2\"]\n"
                                             "[TimeControl \"0.2/move\"]\n"
                                             "[White \"Alpha\"]\n"
                                             "[Black \"Beta\"]\n"
                                             "[Result \"*\"]\n"
                                             "[Termination \"unterminated\"]\n"
                                             "\n"
                                             "1. k3-i5 e15-g13 2. i5-i6 f14-f13 3. m1-k3-i5-i7 *\n"
                                             "\n");
}

/* Blue's nine marbles fill its target SE with a yellow marble on q5, and its tenth
 * stands on m1 (white's empty home, a foreign point for blue): blue has no legal
 * move, so each of its turns is skipped. The shorthand k12-k10 is written as its
 * canonical path. */
#define BLUE_STUCK_FEN "1/2/3/4/9yyyy/9yyy/9yy/10/wwwwwwwww/4w4u/9uu/9uuu/9uuuy/4/3/2/u w w0,u0,y0 1"

static void test_record_writes_skipped_turn_as_dashes_and_fen_tag(void **state)
{
    (void)state;
    static Game g;
    replay(&g, "classic-3", BLUE_STUCK_FEN, "i8-i7 k12-k10 i7-i6 j13-k12 i9-i8");
    const RecordTags t = {0};
    assert_string_equal(record_text(&g, &t), "[Event \"?\"]\n"
                                             "[Site \"?\"]\n"
                                             "[Date \"????.??.??\"]\n"
                                             "[Round \"?\"]\n"
                                             "[Variant \"classic-3\"]\n"
                                             "[FEN \"" BLUE_STUCK_FEN "\"]\n"
                                             "[TimeControl \"-\"]\n"
                                             "[White \"?\"]\n"
                                             "[Blue \"?\"]\n"
                                             "[Yellow \"?\"]\n"
                                             "[Result \"*\"]\n"
                                             "[Termination \"unterminated\"]\n"
                                             "\n"
                                             "1. i8-i7 -- k12-m10-m8-k10 2. i7-i6 -- j13-k12 3. i9-i8 *\n"
                                             "\n");
}

/* White steps into the last free hole of its target; black still makes its reply,
 * then white wins (RULES.md section 6). */
#define WHITE_ARRIVES_FEN "w/ww/www/www1/8w4/12/11/10/bbbbbbbbb/4b5/11/12/13/4/3/2/1 w w0,b0 1"

static void test_record_of_finished_game_has_result_places_and_reason(void **state)
{
    (void)state;
    static Game g;
    replay(&g, "classic-2", WHITE_ARRIVES_FEN, "i13-h14 i8-i7");
    const char *const comments[] = {"+1.00/3 0.100s", NULL};
    const RecordTags t = {"E", "S", "2024.01.02", "1", "-", {"W \"the\" \\one", NULL, NULL, "B"},
                          NULL, comments, NULL, 0};
    assert_string_equal(record_text(&g, &t), "[Event \"E\"]\n"
                                             "[Site \"S\"]\n"
                                             "[Date \"2024.01.02\"]\n"
                                             "[Round \"1\"]\n"
                                             "[Variant \"classic-2\"]\n"
                                             "[FEN \"" WHITE_ARRIVES_FEN "\"]\n"
                                             "[TimeControl \"-\"]\n"
                                             "[White \"W \\\"the\\\" \\\\one\"]\n"
                                             "[Black \"B\"]\n"
                                             "[Result \"1-0\"]\n"
                                             "[Places \"w:1 b:2\"]\n"
                                             "[Termination \"arrived\"]\n"
                                             "\n"
                                             "1. i13-h14 {+1.00/3 0.100s} i8-i7 1-0\n"
                                             "\n");
}

static void test_record_wraps_movetext_before_80_columns_keeping_numbers_with_moves(void **state)
{
    (void)state;
    static Game g;
    replay(&g, "classic-2", NULL,
           "k3-i5 e15-g13 i5-i6 f14-f13 m1-k3-i5-i7 f16-f14-f12 l4-k5 f13-f11 l2-l4-j6-h8 e17-e15-e13-g11 "
           "l3-j5-h7-j7 g14-g12-g10 m4-l5 e16-g14-g12-e12");
    const RecordTags t = {0};
    const char *text = strstr(record_text(&g, &t), "\n\n") + 2;
    assert_string_equal(text, "1. k3-i5 e15-g13 2. i5-i6 f14-f13 3. m1-k3-i5-i7 f16-f14-f12 4. l4-k5 f13-f11\n"
                              "5. l2-l4-j6-h8 e17-e15-e13-g11 6. l3-j5-h7-j7 g14-g12-g10 7. m4-l5\n"
                              "e16-g14-g12-e12 *\n"
                              "\n");
}

static void test_forfeit_with_three_players_puts_offender_last_and_ranks_the_rest(void **state)
{
    char result[RECORD_RESULT_MAX];
    (void)state;
    static Game g;
    replay(&g, "classic-3", NULL, "j4-i5");
    referee_forfeit(&g.pos, SEAT_BLUE);
    assert_true(pos_over(&g.pos));
    char places[RECORD_PLACES_MAX];
    assert_string_equal(record_places(&g.pos, places, sizeof places), "w:1 u:3 y:2");
    assert_string_equal(record_result(&g.pos, result, sizeof result), "1-3-2"); /* places in turn order */
    const RecordTags t = {.termination = "time forfeit"};
    assert_non_null(strstr(record_text(&g, &t), "[Result \"1-3-2\"]\n[Places \"w:1 u:3 y:2\"]\n"
                                                "[Termination \"time forfeit\"]\n\n1. j4-i5 1-3-2\n"));
}

static void test_record_writes_extra_tags_after_termination_escaped(void **state)
{
    (void)state;
    static Game g;
    replay(&g, "classic-2", NULL, "k3-i5");
    const char *const extra[][2] = {{"Schedule", "00ff"}, {"Shard", "2/\"3\""}};
    const RecordTags t = {.termination = "x", .extra = extra, .nextra = 2};
    assert_non_null(strstr(record_text(&g, &t),
                           "[Termination \"x\"]\n[Schedule \"00ff\"]\n[Shard \"2/\\\"3\\\"\"]\n\n1. k3-i5 *\n"));
}

static void test_forfeit_with_two_players_gives_the_other_seat_the_win(void **state)
{
    char result[RECORD_RESULT_MAX];
    (void)state;
    static Game g;
    replay(&g, "classic-2", NULL, "k3-i5");
    referee_forfeit(&g.pos, SEAT_BLACK);
    assert_string_equal(record_result(&g.pos, result, sizeof result), "1-0");
    replay(&g, "classic-2", NULL, "");
    referee_forfeit(&g.pos, SEAT_WHITE);
    assert_string_equal(record_result(&g.pos, result, sizeof result), "0-1");
    char places[RECORD_PLACES_MAX];
    assert_string_equal(record_places(&g.pos, places, sizeof places), "w:2 b:1");
    char fen[FEN_MAX];
    Position check;
    char err[256];
    assert_int_equal(fen_parse(&check, g.v, fen_write(&g.pos, fen), err, sizeof err), 0);
}

static void test_forfeit_in_teams_puts_the_whole_team_last(void **state)
{
    (void)state;
    static Game g;
    replay(&g, "pairs-4", NULL, "j4-i5");
    referee_forfeit(&g.pos, SEAT_RED);
    char places[RECORD_PLACES_MAX];
    assert_string_equal(record_places(&g.pos, places, sizeof places), "w:1 r:2 b:1 y:2");
    char result[RECORD_RESULT_MAX];
    assert_string_equal(record_result(&g.pos, result, sizeof result), "1-2-1-2"); /* the team's place */
}

/* ---- engine processes ---- */

#define QUICK_MS 2000 /* generous bound for answers that should be immediate */

static void test_engine_proc_exchanges_lines_with_cat(void **state)
{
    (void)state;
    EngineProc e;
    assert_int_equal(ep_start(&e, "cat", -1), 0);
    assert_int_equal(ep_send(&e, "hello %d", 42), 0);
    assert_int_equal(ep_send(&e, "crlf\r"), 0);
    char *line;
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), 1);
    assert_string_equal(line, "hello 42");
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), 1);
    assert_string_equal(line, "crlf");
    assert_true(ep_running(&e));
    const int status = ep_quit(&e, QUICK_MS);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* A line far longer than a pipe's buffer: cat echoes while we write, so the send
 * must drain the engine's output or both sides would block. */
static void test_engine_proc_sends_long_line_while_engine_writes(void **state)
{
    (void)state;
    enum { LONG = 300000 };
    char *big = malloc(LONG + 1);
    assert_non_null(big);
    memset(big, 'a', LONG);
    big[LONG] = '\0';
    EngineProc e;
    assert_int_equal(ep_start(&e, "cat", -1), 0);
    assert_int_equal(ep_send(&e, "%s", big), 0);
    char *line;
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), 1);
    assert_int_equal(strlen(line), LONG);
    ep_quit(&e, QUICK_MS);
    free(big);
}

static void test_engine_proc_runs_shell_command_and_sees_exit(void **state)
{
    (void)state;
    EngineProc e;
    assert_int_equal(ep_start(&e, "read x; echo \"hi $x\"; exit 3", -1), 0);
    assert_int_equal(ep_send(&e, "there"), 0);
    char *line;
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), 1);
    assert_string_equal(line, "hi there");
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), -1);
    assert_true(e.eof);
    assert_int_equal(ep_reap(&e, QUICK_MS), 1);
    char how[128];
    assert_string_equal(ep_exit_desc(&e, how, sizeof how), "exited with status 3");
    assert_int_equal(ep_send(&e, "nobody reads this"), -1); /* an error, not SIGPIPE */
    ep_kill(&e);
}

static void test_engine_proc_returns_last_line_without_newline_before_eof(void **state)
{
    (void)state;
    EngineProc e;
    assert_int_equal(ep_start(&e, "printf 'one\\ntwo'", -1), 0);
    char *line;
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), 1);
    assert_string_equal(line, "one");
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), 1);
    assert_string_equal(line, "two");
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), -1);
    ep_quit(&e, QUICK_MS);
}

static void test_engine_proc_times_out_on_silent_child(void **state)
{
    (void)state;
    EngineProc e;
    assert_int_equal(ep_start(&e, "cat", -1), 0);
    char *line;
    const int64_t t0 = ep_now_ms();
    assert_int_equal(ep_read_line(&e, 150, &line), 0);
    const int64_t waited = ep_now_ms() - t0;
    assert_true(waited >= 150 && waited < QUICK_MS);
    assert_true(ep_running(&e));
    ep_quit(&e, QUICK_MS);
}

/* Whether process pid is gone (or a zombie that nobody will run again). */
static bool process_gone(long pid)
{
    char path[64], stat[256] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    const bool ok = fgets(stat, sizeof stat, f) != NULL;
    fclose(f);
    const char *close_paren = strrchr(stat, ')');
    return ok && close_paren && (close_paren[2] == 'Z' || close_paren[2] == 'X');
}

static void test_engine_proc_kills_hung_child_and_its_group_after_grace(void **state)
{
    (void)state;
    EngineProc e;
    /* ignores quit, EOF and SIGTERM; a background grandchild shares its group */
    assert_int_equal(ep_start(&e, "trap '' TERM INT HUP; sleep 30 & echo $!; while :; do sleep 1; done", -1), 0);
    char *line;
    assert_int_equal(ep_read_line(&e, QUICK_MS, &line), 1);
    const long grandchild = atol(line);
    assert_true(grandchild > 0);
    const int64_t t0 = ep_now_ms();
    const int status = ep_quit(&e, 200);
    const int64_t took = ep_now_ms() - t0;
    assert_true(took >= 200 && took < QUICK_MS);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);
    for (int i = 0; i < 100 && !process_gone(grandchild); i++)
        usleep(10000);
    assert_true(process_gone(grandchild));
}

static void test_engine_proc_reports_program_that_cannot_start(void **state)
{
    (void)state;
    EngineProc e;
    assert_int_equal(ep_start(&e, "/nonexistent/engine --flag", -1), -1);
    assert_non_null(strstr(e.error, "cannot execute /nonexistent/engine"));
}

/* A scripted engine in sh: answers the handshake, names itself. */
#define HANDSHAKE_ENGINE                                                                                   \
    "while read -r l; do case \"$l\" in uci) echo 'id name Scripted 1.0'; echo 'option name Variant'; "     \
    "echo uciok;; isready) echo readyok;; 'setoption name Variant value classic-3') echo 'info string ok';; " \
    "quit) exit 0;; esac; done"

static void test_engine_proc_handshake_keeps_engine_name(void **state)
{
    (void)state;
    EngineProc e;
    assert_int_equal(ep_start(&e, HANDSHAKE_ENGINE, -1), 0);
    const EngineOption opt = {"Variant", "classic-3"};
    assert_int_equal(ep_handshake(&e, &opt, 1, QUICK_MS), 0);
    assert_string_equal(e.name, "Scripted 1.0");
    const int status = ep_quit(&e, QUICK_MS);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_engine_proc_handshake_fails_on_timeout(void **state)
{
    (void)state;
    EngineProc e;
    assert_int_equal(ep_start(&e, "cat", -1), 0); /* echoes "uci", never "uciok" */
    assert_int_equal(ep_handshake(&e, NULL, 0, 100), -1);
    assert_non_null(strstr(e.error, "uciok"));
    ep_kill(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_numbers_rounds_and_names_seats_by_colour),
        cmocka_unit_test(test_record_writes_skipped_turn_as_dashes_and_fen_tag),
        cmocka_unit_test(test_record_of_finished_game_has_result_places_and_reason),
        cmocka_unit_test(test_record_wraps_movetext_before_80_columns_keeping_numbers_with_moves),
        cmocka_unit_test(test_forfeit_with_three_players_puts_offender_last_and_ranks_the_rest),
        cmocka_unit_test(test_record_writes_extra_tags_after_termination_escaped),
        cmocka_unit_test(test_forfeit_with_two_players_gives_the_other_seat_the_win),
        cmocka_unit_test(test_forfeit_in_teams_puts_the_whole_team_last),
        cmocka_unit_test(test_engine_proc_exchanges_lines_with_cat),
        cmocka_unit_test(test_engine_proc_sends_long_line_while_engine_writes),
        cmocka_unit_test(test_engine_proc_runs_shell_command_and_sees_exit),
        cmocka_unit_test(test_engine_proc_returns_last_line_without_newline_before_eof),
        cmocka_unit_test(test_engine_proc_times_out_on_silent_child),
        cmocka_unit_test(test_engine_proc_kills_hung_child_and_its_group_after_grace),
        cmocka_unit_test(test_engine_proc_reports_program_that_cannot_start),
        cmocka_unit_test(test_engine_proc_handshake_keeps_engine_name),
        cmocka_unit_test(test_engine_proc_handshake_fails_on_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
