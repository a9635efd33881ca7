/*
 * test_suite.c - position suites (tools/suite/epd.h): a line read whole, each
 * fault refused with its reason (an unknown variant, a bm move that is not
 * legal, a short FEN, an unknown opcode, no bm nor am, an unclosed string);
 * the shipped race suite checked against brute force on its short races (every
 * move's fewest own moves to arrive by breadth-first search of the army alone,
 * not the solver that made it); every shipped suite readable; stern-suite run
 * on a suite, its bad lines named by file and line; a made suite the same
 * again for its seed, its chains and arrivals checked move by move.
 */
#include "support/engine_pipe.h"
#include "support/stern_test.h"

#include "epd.h"
#include "race.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define RACE_LINE                                                                                              \
    "w/ww/www/www1/8w4/12/11/10/9/10/11/8b3/13/bbb1/bbb/bb/b w w40,b40 41 variant classic-2; bm i13-h14; " \
    "id \"race.1\"; c0 \"arrives at once\";"

static void test_a_line_is_read_whole(void **state)
{
    (void)state;
    EpdPosition p;
    char err[256];
    assert_int_equal(epd_parse(RACE_LINE, 7, &p, err, sizeof err), 1);
    assert_int_equal(p.line, 7);
    assert_string_equal(p.v->name, "classic-2");
    assert_int_equal(p.nbm, 1);
    assert_int_equal(p.nam, 0);
    assert_string_equal(p.id, "race.1");
    assert_string_equal(p.comment, "arrives at once");
    assert_true(epd_solved(&p, &p.bm[0]));
    const Move other = move_ok(&p.pos, "i13-i12");
    assert_false(epd_solved(&p, &other));
    /* an am alone: any move but those */
    assert_int_equal(epd_parse("w/ww/www/www1/8w4/12/11/10/9/10/11/8b3/13/bbb1/bbb/bb/b w w40,b40 41 variant "
                               "classic-2; am i13-i12",
                               1, &p, err, sizeof err),
                     1);
    assert_false(epd_solved(&p, &other));
    const Move best = move_ok(&p.pos, "i13-h14");
    assert_true(epd_solved(&p, &best));
    assert_int_equal(epd_parse("  # a comment", 1, &p, err, sizeof err), 0);
    assert_int_equal(epd_parse("", 1, &p, err, sizeof err), 0);
}

static void refused(const char *line, const char *why)
{
    EpdPosition p;
    char err[256] = "";
    assert_int_equal(epd_parse(line, 1, &p, err, sizeof err), -1);
    if (!strstr(err, why))
        fail_msg("'%s': the reason '%s' should say '%s'", line, err, why);
}

static void test_every_fault_is_refused_with_its_reason(void **state)
{
    (void)state;
    const char *fen = "w/ww/www/www1/8w4/12/11/10/9/10/11/8b3/13/bbb1/bbb/bb/b w w40,b40 41";
    char line[512];
    snprintf(line, sizeof line, "%s variant classic-9; bm i13-h14;", fen);
    refused(line, "unknown variant 'classic-9'");
    snprintf(line, sizeof line, "%s bm i13-h14;", fen);
    refused(line, "no 'variant <name>;'");
    snprintf(line, sizeof line, "%s variant classic-2; bm i13-h15;", fen);
    refused(line, "bm 'i13-h15': ");
    snprintf(line, sizeof line, "%s variant classic-2; am zz9;", fen);
    refused(line, "am 'zz9': ");
    refused("w/ww/www w w40,b40", "four fields");
    snprintf(line, sizeof line, "%s variant classic-2; xx 3;", fen);
    refused(line, "unknown opcode 'xx'");
    snprintf(line, sizeof line, "%s variant classic-2; id \"x\";", fen);
    refused(line, "no bm and no am");
    snprintf(line, sizeof line, "%s variant classic-2; bm i13-h14; id \"open", fen);
    refused(line, "closing '\"' is missing");
    refused("b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0 1 variant classic-2; bm j4-j5;", "bad FEN");
}

/* Fewest own moves of seat s to arrive from q (s to move, alone), searched
 * breadth first to `depth` moves; depth + 1 when more are needed. */
static int fewest(const Position *q, int s, int depth)
{
    if (q->status[s] == ST_ARRIVED)
        return 0;
    if (depth == 0)
        return 1;
    MoveList *l = move_list_new();
    assert_non_null(l);
    gen_moves(q, l, NULL);
    int best = depth + 1;
    for (int i = 0; i < l->n && best > 1; i++) {
        Position c = *q;
        pos_play(&c, &l->m[i]);
        if (c.status[s] != ST_ARRIVED && !pos_over(&c))
            pos_set_stm(&c, s);
        const int n = 1 + fewest(&c, s, depth - 1);
        best = n < best ? n : best;
    }
    move_list_delete(l);
    return best;
}

static void test_short_races_of_the_shipped_suite_match_brute_force(void **state)
{
    (void)state;
    FILE *f = fopen("suites/race-classic-2.epd", "r");
    assert_non_null(f);
    char text[4096], err[256];
    int line = 0, checked = 0;
    while (fgets(text, sizeof text, f)) {
        EpdPosition p;
        assert_int_equal(epd_parse(text, ++line, &p, err, sizeof err), 1);
        int claimed;
        const char *c = strstr(p.comment, "race solver: ");
        assert_non_null(c);
        assert_int_equal(sscanf(c, "race solver: %d", &claimed), 1);
        if (claimed > 3)
            continue;
        const int s = p.pos.stm, o = p.v->seats[p.v->seats[0] == s];
        MoveList *l = move_list_new();
        gen_moves(&p.pos, l, NULL);
        int need[512], best = 99;
        for (int i = 0; i < l->n; i++) {
            Position q = p.pos;
            pos_play(&q, &l->m[i]);
            race_remove_army(&q, o);
            if (q.status[s] != ST_ARRIVED)
                pos_set_stm(&q, s);
            need[i] = 1 + fewest(&q, s, claimed - 1);
            best = need[i] < best ? need[i] : best;
        }
        assert_int_equal(best, claimed);
        int nbest = 0;
        for (int i = 0; i < l->n; i++) {
            if (need[i] != best)
                continue;
            nbest++;
            if (!epd_solved(&p, &l->m[i]))
                fail_msg("line %d: a fastest move is not in bm", line);
        }
        assert_int_equal(nbest, p.nbm);
        move_list_delete(l);
        checked++;
    }
    fclose(f);
    assert_true(checked >= 5);
}

/* The first position of suite `path` is of `variant`. */
static void rewind_check(const char *path, const char *variant, EpdPosition *p)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[8192], err[256];
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_int_equal(epd_parse(text, 1, p, err, sizeof err), 1);
    if (strcmp(p->v->name, variant))
        fail_msg("%s holds %s positions", path, p->v->name);
}

static void test_every_shipped_suite_reads(void **state)
{
    (void)state;
    glob_t found;
    assert_int_equal(glob("suites/*.epd", 0, NULL, &found), 0);
    assert_true(found.gl_pathc >= 12);
    for (size_t k = 0; k < found.gl_pathc; k++) {
        const char *path = found.gl_pathv[k];
        char text[8192], err[256];
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        int line = 0, positions = 0;
        while (fgets(text, sizeof text, f)) {
            EpdPosition p;
            const int rc = epd_parse(text, ++line, &p, err, sizeof err);
            if (rc < 0)
                fail_msg("%s:%d: %s", path, line, err);
            positions += rc;
        }
        fclose(f);
        assert_true(positions >= 30);
        /* the file says its family: <kind>-<variant>.epd, the variant its positions' */
        char variant[64];
        const char *dash = strchr(path + strlen("suites/"), '-');
        assert_non_null(dash);
        snprintf(variant, sizeof variant, "%.*s", (int)(strlen(dash + 1) - strlen(".epd")), dash + 1);
        EpdPosition p;
        rewind_check(path, variant, &p);
    }
    globfree(&found);
}

static void test_stern_suite_runs_and_names_bad_lines(void **state)
{
    (void)state;
    char path[] = "/tmp/stern-suite-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%s\n# a comment\n%s\n", RACE_LINE,
            "w/ww/www/www1/8w4/12/11/10/9/10/11/8b3/13/bbb1/bbb/bb/b w w40,b40 41 variant classic-2; bm i13-h15;");
    fclose(f);
    static char out[8192];
    char cmd[256];
    snprintf(cmd, sizeof cmd, "stern-suite -depth 2 %s", path);
    const int st = epipe_run_tool(cmd, out, sizeof out);
    remove(path);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 3);
    assert_non_null(strstr(out, ":3: bm 'i13-h15': "));
    assert_non_null(strstr(out, ": 1 of 1 solved (100.0%)"));
    assert_non_null(strstr(out, "1 lines refused"));
}

/* `stern-suite make` gives the same suite for the same seed, and its answers
 * hold: each chain of bm takes the most pieces (and no other move does), each
 * arrival of bm arrives (and no other move does). */
static void test_made_suites_are_reproducible_and_proven(void **state)
{
    (void)state;
    static char a[1 << 15], b[1 << 15];
    static const char *const makes[] = {"stern-suite make chain capture-3 6 99", "stern-suite make arrival classic-4 6 99"};
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(epipe_run_tool(makes[k], a, sizeof a), 0);
        assert_int_equal(epipe_run_tool(makes[k], b, sizeof b), 0);
        assert_string_equal(a, b);
        int positions = 0;
        for (char *line = strtok(a, "\n"); line; line = strtok(NULL, "\n")) {
            EpdPosition p;
            char err[256];
            assert_int_equal(epd_parse(line, 1, &p, err, sizeof err), 1);
            MoveList *l = move_list_new();
            gen_moves(&p.pos, l, NULL);
            int top = 0;
            for (int i = 0; i < l->n; i++)
                top = l->m[i].ncapt > top ? l->m[i].ncapt : top;
            for (int i = 0; i < l->n; i++) {
                Position c = p.pos;
                pos_play(&c, &l->m[i]);
                const bool right = k == 0 ? l->m[i].ncapt == top : c.status[p.pos.stm] == ST_ARRIVED;
                assert_int_equal(epd_solved(&p, &l->m[i]), right);
            }
            move_list_delete(l);
            positions++;
        }
        assert_int_equal(positions, 6);
    }
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_line_is_read_whole),
        cmocka_unit_test(test_every_fault_is_refused_with_its_reason),
        cmocka_unit_test(test_short_races_of_the_shipped_suite_match_brute_force),
        cmocka_unit_test(test_every_shipped_suite_reads),
        cmocka_unit_test(test_stern_suite_runs_and_names_bad_lines),
        cmocka_unit_test(test_made_suites_are_reproducible_and_proven),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
