/*
 * test_annotate.c - stern-annotate on small records, through its command
 * line (build/stern beside it as the engine): every move commented, the
 * summary and the Annotator tag, a thrown-away win found as a blunder with
 * the winning move, the records still valid PGN with the same moves; bad
 * records (a bad tag line, an illegal move, an unknown variant) reported with
 * file, line and reason while the good one is annotated; a file that cannot
 * be opened is an error naming it; progress lines off a terminal; -resume
 * after a cut; the SVG graph.
 */
#include "support/engine_pipe.h"
#include "support/stern_test.h"

#include "pgn_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* White could arrive at once (i13-h14) and win; it steps back instead, and
 * black arrives first. */
#define THROWN_AWAY                                                                                           \
    "[Event \"t\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"1\"]\n[Variant \"classic-2\"]\n"                      \
    "[FEN \"w/ww/www/www1/8w4/12/11/10/9/10/11/8b3/13/bbb1/bbb/bb/b w w40,b40 41\"]\n"                       \
    "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n41. i13-i12 m6-m5 42. i12-h13 m5-m4 0-1\n\n"

#define THREE_SEATS                                                                                           \
    "[Event \"t\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"2\"]\n[Variant \"classic-3\"]\n"                      \
    "[White \"A\"]\n[Blue \"B\"]\n[Yellow \"C\"]\n[Result \"*\"]\n\n1. m3-m5 c13-e13 *\n\n"

static char dir[64], out[1 << 16];

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int run(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "stern-annotate -depth 2 -concurrency 2 %s", args);
    const int st = epipe_run_tool(cmd, out, sizeof out);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The games of file `name` in dir. */
static int read_back(const char *name, PgnGame **games)
{
    char path[256], err[PGN_ERR_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int n, incomplete;
    assert_int_equal(pgn_read_all(f, path, games, &n, &incomplete, err, sizeof err), 0);
    assert_int_equal(incomplete, 0);
    fclose(f);
    return n;
}

/* The text of file `name` in dir, in a static buffer (the one of the last call). */
static char *read_text(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 16];
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    return text;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/stern-annotate-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void test_every_move_is_commented_and_a_thrown_away_win_is_a_blunder(void **state)
{
    (void)state;
    write_file("in.pgn", THROWN_AWAY THREE_SEATS);
    char args[512];
    snprintf(args, sizeof args, "-o %s/out.pgn -svg %s/svg %s/in.pgn", dir, dir, dir);
    assert_int_equal(run(args), 0);
    assert_non_null(strstr(out, "2 games annotated (0 kept from before), 0 records left out"));
    PgnGame *games;
    assert_int_equal(read_back("out.pgn", &games), 2);
    assert_int_equal(games[0].nmoves, 4);
    assert_string_equal(games[0].moves[0], "i13-i12");
    assert_string_equal(games[0].result, "0-1");
    assert_string_equal(pgn_tag(&games[0], "Annotator"), "stern-annotate, depth 2");
    assert_int_equal(games[1].nmoves, 2);
    assert_string_equal(games[1].result, "*");
    pgn_games_free(games, 2);
    const char *text = read_text("out.pgn");
    /* the first move threw the race away: the arrival was a mate in one */
    assert_non_null(strstr(text, "i13-i12\n{w #1 b #-1 /"));
    assert_non_null(strstr(text, "; best i13-h14 #1, played "));
    assert_non_null(strstr(text, "(blunder)"));
    assert_non_null(strstr(text, "w A 2 moves, average loss 5.00, mistakes 0, blunders 1")); /* 10 moves capped, over 2 */
    /* every move has its comment: four and two, plus the two summaries */
    int comments = 0;
    for (const char *c = text; (c = strchr(c, '{')); c++)
        comments++;
    assert_int_equal(comments, 4 + 2 + 2);
    text = read_text("svg/game-002.svg");
    assert_non_null(strstr(text, "<svg"));
    assert_non_null(strstr(text, "<polyline"));
    assert_non_null(strstr(text, "classic-3, round 2: w A u B y C"));
}

/* A best move and the played one come from one search (MultiPV 2 over the
 * two): the best never scores below the played move, and the loss is their
 * difference. Searched apart, a classic-3 game of Stern against two greedy
 * seats (tests/annotate/classic-3-greedy.pgn) had 29 of its 49 "best" moves
 * scored below the move played, with a loss of 0. */
static void test_best_and_played_come_from_one_search(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "stern-annotate -depth 3 -o %s/greedy.pgn tests/annotate/classic-3-greedy.pgn", dir);
    const int st = epipe_run_tool(cmd, out, sizeof out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    const char *text = read_text("greedy.pgn");
    int compared = 0;
    for (const char *c = text; (c = strstr(c, "; best ")); c++) {
        char mv[64], bs[32], ps[32];
        double loss;
        if (sscanf(c, "; best %63s %31[^,], played %31[^,], loss %lf", mv, bs, ps, &loss) != 4)
            continue;
        compared++;
        if (bs[0] == '#' || ps[0] == '#')
            continue; /* a mate: the loss is capped */
        const double b = atof(bs), pl = atof(ps);
        if (b <= pl || fabs(loss - (b - pl)) > 0.011)
            fail_msg("best %s scores %s, played %s, loss %.2f: %.80s", mv, bs, ps, loss, c);
    }
    assert_true(compared > 0);
}

static void test_bad_records_are_named_and_the_rest_annotated(void **state)
{
    (void)state;
    write_file("bad.pgn",
               "[Event \"t\"]\n[Variant \"classic-9\"]\n[Result \"*\"]\n\n1. m3-m5 *\n\n" /* lines 1-6 */
               THREE_SEATS                                                                /* lines 7-18 */
               "[Event \"t\"]\n[Variant \"classic-2\"]\n[Result \"*\"]\n\n1. j4-j5 e15-e13\n2. zz9-zz8 *\n\n"
               "[Event \"t\n[Variant \"classic-2\"]\n\n1. j4-j5 *\n");
    char args[512];
    snprintf(args, sizeof args, "-o %s/bad-out.pgn %s/bad.pgn", dir, dir);
    assert_int_equal(run(args), 3);
    assert_non_null(strstr(out, "bad.pgn:1: unknown Variant \"classic-9\" (the record that starts here)"));
    assert_non_null(strstr(out, "bad.pgn:24: move 3 'zz9-zz8': "));
    assert_non_null(strstr(out, "bad.pgn:26: unterminated tag"));
    assert_non_null(strstr(out, "1 games annotated (0 kept from before), 3 records left out"));
}

/* A file that is not there was counted as "1 records left out", status 3, and
 * the other files were annotated: a file the user named that cannot be opened
 * (missing, a directory) is an error of the command, naming the file, with
 * status 2 and nothing written. */
static void test_a_missing_file_is_an_error_naming_it(void **state)
{
    (void)state;
    write_file("good.pgn", THREE_SEATS);
    char args[512], path[256];
    snprintf(args, sizeof args, "-o %s/none-out.pgn -svg %s/none-svg %s/good.pgn %s/none.pgn", dir, dir, dir, dir);
    assert_int_equal(run(args), 2);
    char want[256];
    snprintf(want, sizeof want, "stern-annotate: %s/none.pgn: No such file or directory (a record file to annotate): "
             "nothing annotated\n", dir);
    assert_string_equal(out, want);
    snprintf(path, sizeof path, "%s/none-out.pgn", dir);
    assert_int_equal(access(path, F_OK), -1); /* nothing written */
    snprintf(path, sizeof path, "%s/none-svg", dir);
    assert_int_equal(access(path, F_OK), -1);
    snprintf(args, sizeof args, "%s/good.pgn %s", dir, dir);
    assert_int_equal(run(args), 2);
    snprintf(want, sizeof want, "stern-annotate: %s: Is a directory (a record file to annotate): nothing annotated\n",
             dir);
    assert_string_equal(out, want);
}

/* Progress was shown only on a terminal, so a run in a batch job or with its
 * stderr in a log said nothing until the end. Off a terminal a line follows
 * every game written, as stern-arena's progress does: games written of all,
 * positions searched of this run's. */
static void test_progress_is_a_line_after_every_game_off_a_terminal(void **state)
{
    (void)state;
    write_file("progress.pgn", THROWN_AWAY THREE_SEATS); /* 4 positions, then 3 (the game goes on) */
    char args[512];
    snprintf(args, sizeof args, "-o %s/progress-out.pgn %s/progress.pgn", dir, dir);
    assert_int_equal(run(args), 0);
    const char *first = strstr(out, "stern-annotate: [1/2] games annotated, ");
    assert_non_null(first);
    int done = -1, total = -1;
    assert_int_equal(sscanf(first, "stern-annotate: [1/2] games annotated, %d/%d positions", &done, &total), 2);
    assert_int_equal(total, 7);
    if (done < 4 || done > 7) /* the first game's 4, and what the workers did of the second meanwhile */
        fail_msg("%d positions done after the first game", done);
    assert_non_null(strstr(out, "\nstern-annotate: [2/2] games annotated, 7/7 positions\n"
                                "stern-annotate: 2 games annotated (0 kept from before)"));
}

static void test_resume_goes_on_after_a_cut(void **state)
{
    (void)state;
    write_file("in2.pgn", THREE_SEATS THROWN_AWAY);
    char args[512], path[256];
    snprintf(args, sizeof args, "-o %s/r.pgn %s/in2.pgn", dir, dir);
    assert_int_equal(run(args), 0);
    /* an existing file is not written over */
    assert_int_equal(run(args), 2);
    assert_non_null(strstr(out, "holds games already"));
    /* cut inside the second game, as a crash would */
    snprintf(path, sizeof path, "%s/r.pgn", dir);
    FILE *f = fopen(path, "r");
    static char text[1 << 16];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    const char *second = strstr(text + 1, "[Event");
    assert_non_null(second);
    assert_int_equal(truncate(path, (off_t)(second - text + 40)), 0);
    snprintf(args, sizeof args, "-o %s/r.pgn -resume %s/in2.pgn", dir, dir);
    assert_int_equal(run(args), 0);
    assert_non_null(strstr(out, "1 games annotated (1 kept from before)"));
    /* the kept game counts as written; its positions are not this run's */
    assert_non_null(strstr(out, "stern-annotate: [2/2] games annotated, 4/4 positions\n"));
    PgnGame *games;
    assert_int_equal(read_back("r.pgn", &games), 2);
    assert_string_equal(pgn_tag(&games[1], "Round"), "1");
    pgn_games_free(games, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_move_is_commented_and_a_thrown_away_win_is_a_blunder),
        cmocka_unit_test(test_best_and_played_come_from_one_search),
        cmocka_unit_test(test_bad_records_are_named_and_the_rest_annotated),
        cmocka_unit_test(test_progress_is_a_line_after_every_game_off_a_terminal),
        cmocka_unit_test(test_resume_goes_on_after_a_cut),
        cmocka_unit_test(test_a_missing_file_is_an_error_naming_it),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
