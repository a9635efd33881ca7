/*
 * test_pgn_read.c - game records read back (tools/lib/pgn_read.c): records written
 * by record_write round-trip (tags, moves, skipped turns, the final position),
 * errors name the file line, a game cut short by a crash is reported incomplete
 * with the offset where it starts, a line over the bound or with a NUL byte is
 * refused and ends the reading, and records become RatedGames (seats, teams).
 */
#include "support/stern_test.h"

#include "pgn_read.h"
#include "record.h"
#include "referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Starts *g as `variant` from `fen` (NULL: the start) and plays the moves of
 * `moves` (separated by spaces; "--", a skipped turn, is passed over), failing
 * the test on any refusal. */
static void replay(Game *g, const char *variant, const char *fen, const char *moves)
{
    char err[256], copy[2048];
    assert_int_equal(game_new(g, variant), 0);
    if (fen && game_set_fen(g, fen, err, sizeof err))
        fail_msg("FEN refused: %s", err);
    snprintf(copy, sizeof copy, "%s", moves);
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (strcmp(t, "--"))
            play(g, t);
}

/* The records of games[0..n-1] with tags[i], one after another, as a string (to be
 * freed); its length in *len. */
static char *records(const Game *const *games, const RecordTags *tags, int n, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    assert_non_null(f);
    for (int i = 0; i < n; i++)
        assert_int_equal(record_write(f, games[i], &tags[i]), 0);
    fclose(f);
    return text;
}

/* A stream reading the first len bytes of text. */
static FILE *stream_of(const char *text, size_t len)
{
    FILE *f = fmemopen((void *)text, len, "r");
    assert_non_null(f);
    return f;
}

/* A reader on the first len bytes of text, named "games.pgn". */
typedef struct {
    FILE *f;
    PgnReader r;
    char err[PGN_ERR_MAX];
} Reading;

static void reading_open(Reading *rd, const char *text, size_t len)
{
    rd->f = stream_of(text, len);
    pgn_reader_init(&rd->r, rd->f, "games.pgn");
    rd->err[0] = '\0';
}

/* Reads the next game into *pg, asserting the status. */
static void expect_game(Reading *rd, PgnGame *pg, PgnStatus want)
{
    assert_int_equal(pgn_read_game(&rd->r, pg, rd->err, sizeof rd->err), want);
}

/* Reads past the next game, asserting the status; returns where the game ends. */
static long skip_game(Reading *rd, PgnStatus want)
{
    PgnGame pg;
    expect_game(rd, &pg, want);
    const long end = pg.end;
    pgn_game_free(&pg);
    return end;
}

/* Asserts the end of the file and closes the reader. */
static void reading_close(Reading *rd)
{
    skip_game(rd, PGN_EOF);
    pgn_reader_free(&rd->r);
    fclose(rd->f);
}

/* The 1-based line of byte offset `at` in text. */
static int line_at(const char *text, long at)
{
    int line = 1;
    for (long i = 0; i < at; i++)
        line += text[i] == '\n';
    return line;
}

/* Tokens of pgn game g joined by spaces (static buffer). */
static const char *joined_moves(const PgnGame *g)
{
    static char buf[2048];
    buf[0] = '\0';
    for (int i = 0; i < g->nmoves; i++) {
        strcat(buf, i ? " " : "");
        strcat(buf, g->moves[i]);
    }
    return buf;
}

#define BLUE_STUCK_FEN "1/2/3/4/9yyyy/9yyy/9yy/10/wwwwwwwww/4w4u/9uu/9uuu/9uuuy/4/3/2/u w w0,u0,y0 1"
#define WHITE_ARRIVES_FEN "w/ww/www/www1/8w4/12/11/10/bbbbbbbbb/4b5/11/12/13/4/3/2/1 w w0,b0 1"

/* Three records: an unfinished classic-2 game with comments, a classic-3 game with
 * skipped turns from a FEN, a finished game with a name that needs escapes. */
static Game g1, g2, g3;
static const char *const comments1[] = {"+0.10/5 0.100s", NULL, "a } brace", NULL, NULL};
static const char *const comments3[] = {"+1.00/3 0.100s", NULL};
static const RecordTags tags3[3] = {
    {"Test", "Here", "2024.05.31", "1", "0.2/move", {"Alpha", NULL, NULL, "Beta", NULL, NULL}, NULL, comments1, NULL, 0},
    {.round = "2", .players = {"Alpha", NULL, "Beta", NULL, "Gamma", NULL}},
    {"E", "S", "2024.01.02", "3", "-", {"W \"the\" \\one", NULL, NULL, "B"}, NULL, comments3, NULL, 0},
};

static char *three_records(size_t *len)
{
    replay(&g1, "classic-2", NULL, "k3-i5 e15-g13 i5-i6 f14-f13 m1-k3-i5-i7");
    replay(&g2, "classic-3", BLUE_STUCK_FEN, "i8-i7 k12-k10 i7-i6 j13-k12 i9-i8");
    replay(&g3, "classic-2", WHITE_ARRIVES_FEN, "i13-h14 i8-i7");
    const Game *const games[3] = {&g1, &g2, &g3};
    return records(games, tags3, 3, len);
}

/* Plays the tokens of pg (skipping "--") from its Variant and FEN tags and checks
 * that the game reaches the final position of `want`. */
static void assert_replays_to(const PgnGame *pg, const Game *want)
{
    static Game g;
    replay(&g, pgn_tag(pg, "Variant"), pgn_tag(pg, "FEN"), joined_moves(pg));
    char a[FEN_MAX], b[FEN_MAX];
    assert_string_equal(fen_write(&g.pos, a), fen_write(&want->pos, b));
}

static void test_pgn_reads_back_tags_and_moves_of_written_records(void **state)
{
    (void)state;
    size_t len;
    char *text = three_records(&len);
    Reading rd;
    reading_open(&rd, text, len);
    PgnGame pg;

    expect_game(&rd, &pg, PGN_OK);
    assert_int_equal(pg.ntags, 10);
    assert_string_equal(pg.tags[0].name, "Event");
    assert_string_equal(pg.tags[0].value, "Test");
    assert_string_equal(pgn_tag(&pg, "TimeControl"), "0.2/move");
    assert_string_equal(pgn_tag(&pg, "White"), "Alpha");
    assert_string_equal(pgn_tag(&pg, "Black"), "Beta");
    assert_string_equal(pgn_tag(&pg, "Termination"), "unterminated");
    assert_null(pgn_tag(&pg, "Places"));
    assert_null(pgn_tag(&pg, "FEN"));
    assert_string_equal(joined_moves(&pg), "k3-i5 e15-g13 i5-i6 f14-f13 m1-k3-i5-i7");
    assert_string_equal(pg.result, "*");
    assert_int_equal(pg.line, 1);
    assert_int_equal(pg.start, 0);
    assert_replays_to(&pg, &g1);
    const long end1 = pg.end;
    pgn_game_free(&pg);

    expect_game(&rd, &pg, PGN_OK);
    assert_int_equal(pg.start, end1);
    assert_int_equal(pg.line, line_at(text, pg.start));
    assert_int_equal(strncmp(text + pg.start, "[Event \"?\"]", 11), 0);
    assert_string_equal(pgn_tag(&pg, "FEN"), BLUE_STUCK_FEN);
    assert_string_equal(pgn_tag(&pg, "Blue"), "Beta");
    assert_string_equal(joined_moves(&pg), "i8-i7 -- k12-m10-m8-k10 i7-i6 -- j13-k12 i9-i8");
    assert_replays_to(&pg, &g2);
    pgn_game_free(&pg);

    expect_game(&rd, &pg, PGN_OK);
    assert_string_equal(pgn_tag(&pg, "White"), "W \"the\" \\one");
    assert_string_equal(pgn_tag(&pg, "Result"), "1-0");
    assert_string_equal(pgn_tag(&pg, "Places"), "w:1 b:2");
    assert_string_equal(pgn_tag(&pg, "Termination"), "arrived");
    assert_string_equal(joined_moves(&pg), "i13-h14 i8-i7");
    assert_string_equal(pg.result, "1-0");
    assert_int_equal(pg.end, (long)len);
    assert_replays_to(&pg, &g3);
    pgn_game_free(&pg);
    reading_close(&rd);
    free(text);
}

static void test_pgn_reads_round_numbers_comments_and_glyphs_of_other_writers(void **state)
{
    (void)state;
    const char text[] = "[Event \"x\"]\n"
                        "1.k3-i5 {two\n"
                        "lines} e15-g13 $1 ; rest of line 2. i5-i6\n"
                        "2... f14-f13\n"
                        "   1/2-1/2   \n";
    Reading rd;
    reading_open(&rd, text, strlen(text));
    PgnGame pg;
    expect_game(&rd, &pg, PGN_OK);
    assert_string_equal(joined_moves(&pg), "k3-i5 e15-g13 f14-f13");
    assert_string_equal(pg.result, "1/2-1/2");
    pgn_game_free(&pg);
    reading_close(&rd);
}

/* A whole record of 8 lines. */
#define GOOD_GAME "[Event \"a\"]\n[Variant \"classic-2\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. k3-i5 *\n\n"

static void test_pgn_reports_malformed_tag_with_its_line_and_resumes_at_next_game(void **state)
{
    (void)state;
    const char text[] = GOOD_GAME                                   /* lines 1-8 */
        "[Event \"b\"]\n[Variant \"classic-2\"]\n[White \"Alpha]\n" /* 9-11 */
        "[Black \"B\"]\n\n1. k3-i5 *\n\n"                            /* 12-15 */
        GOOD_GAME;                                                   /* 16- */
    Reading rd;
    reading_open(&rd, text, strlen(text));
    skip_game(&rd, PGN_OK);
    skip_game(&rd, PGN_ERROR);
    assert_string_equal(rd.err, "games.pgn:11: unterminated tag");
    PgnGame pg;
    expect_game(&rd, &pg, PGN_OK);
    assert_int_equal(pg.line, 16);
    pgn_game_free(&pg);
    reading_close(&rd);
}

static void test_pgn_reports_bad_movetext_token_with_its_line(void **state)
{
    (void)state;
    const char text[] = GOOD_GAME "[Event \"b\"]\n\n1. k3-i5 e15-g13\n2. %% i5-i6 *\n";
    FILE *f = stream_of(text, strlen(text));
    PgnGame *games;
    int n;
    char err[PGN_ERR_MAX];
    assert_int_equal(pgn_read_all(f, "games.pgn", &games, &n, NULL, err, sizeof err), -1);
    assert_string_equal(err, "games.pgn:12: unexpected token \"%%\"");
    assert_null(games);
    fclose(f);
}

/* The first `cut` bytes of text must read as `complete` games, then one incomplete
 * game (starting where the last complete one ends) for reason `why`, then the
 * end. */
static void assert_cut_reads_incomplete(const char *text, size_t cut, int complete, const char *why)
{
    Reading rd;
    reading_open(&rd, text, cut);
    long end = 0;
    for (int i = 0; i < complete; i++)
        end = skip_game(&rd, PGN_OK);
    PgnGame pg;
    expect_game(&rd, &pg, PGN_INCOMPLETE);
    assert_int_equal(pg.start, end);
    assert_int_equal(pg.end, (long)cut);
    assert_string_equal(pg.result, "");
    char want[PGN_ERR_MAX];
    snprintf(want, sizeof want, "games.pgn:%d: incomplete game (%s)", line_at(text, end), why);
    assert_string_equal(rd.err, want);
    pgn_game_free(&pg);
    reading_close(&rd);
}

static void test_pgn_flags_truncated_last_game_as_incomplete(void **state)
{
    (void)state;
    size_t len;
    char *text = three_records(&len);
    const char *third = strstr(text + 1, "[Event \"E\"]");
    const size_t at3 = (size_t)(third - text);
    /* in the movetext, after a whole line, inside a tag, inside a comment,
     * inside the result token */
    const char *moves3 = strstr(third, "1. i13-h14");
    assert_cut_reads_incomplete(text, (size_t)(moves3 - text) + 8, 2, "the file ends before its result");
    assert_cut_reads_incomplete(text, (size_t)(moves3 - text), 2, "the file ends before its result");
    assert_cut_reads_incomplete(text, at3 + 5, 2, "the file ends inside a line");
    const char *comment3 = strstr(third, "{+1.00");
    char why[64];
    snprintf(why, sizeof why, "unterminated comment from line %d", line_at(text, comment3 - text));
    assert_cut_reads_incomplete(text, (size_t)(comment3 - text) + 3, 2, why);
    const char *result2 = strstr(text, "i9-i8 *");
    assert_cut_reads_incomplete(text, (size_t)(result2 - text) + 5, 1, "the file ends before its result");
    const char *result3 = strstr(third, "1-0\n");
    assert_cut_reads_incomplete(text, (size_t)(result3 - text) + 2, 2, "the file ends inside a line");
    free(text);
}

/* A crash cut the first game; the tournament resumed and appended a whole one. */
static void test_pgn_reads_games_appended_after_a_cut_one(void **state)
{
    (void)state;
    const char text[] = "[Event \"a\"]\n[Variant \"classic-2\"]\n\n1. k3-i5 e15-" GOOD_GAME GOOD_GAME;
    FILE *f = stream_of(text, strlen(text));
    PgnGame *games;
    int n, cut;
    char err[PGN_ERR_MAX];
    assert_int_equal(pgn_read_all(f, "games.pgn", &games, &n, &cut, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_int_equal(cut, 1);
    assert_string_equal(err, "games.pgn:1: incomplete game (the game at line 4 starts before its result)");
    assert_int_equal(games[0].line, 4);
    assert_int_equal(strncmp(text + games[0].start, "[Event \"a\"]\n[Variant", 20), 0);
    assert_int_equal(games[1].line, 12);
    assert_string_equal(joined_moves(&games[1]), "k3-i5");
    pgn_games_free(games, n);
    fclose(f);
}

/* ---- RatedGame ---- */

/* The PgnGame of the record of g with players by seat. */
static void pgn_of(const Game *g, const char *const players[MAX_SEATS], PgnGame *pg)
{
    RecordTags t = {0};
    memcpy(t.players, players, sizeof t.players);
    const Game *const games[1] = {g};
    size_t len;
    char *text = records(games, &t, 1, &len);
    Reading rd;
    reading_open(&rd, text, len);
    expect_game(&rd, pg, PGN_OK);
    reading_close(&rd);
    free(text);
}

/* Lines had no bound: getline held a line of any length (-ratings /dev/zero
 * grew to GBs), and a NUL byte ended a line's text unseen (a file of NULs read
 * as blank lines, no game, no error). A line over PGN_READ_LINE_MAX bytes and a
 * NUL byte are errors naming the line; reading stops there. */
static void test_pgn_refuses_an_over_long_line_and_a_nul_byte_and_reads_no_further(void **state)
{
    (void)state;
    /* a game, then a movetext line of PGN_READ_LINE_MAX bytes (the bound: kept),
     * then one a byte longer */
    const size_t good = strlen(GOOD_GAME), max = PGN_READ_LINE_MAX;
    char *text = malloc(2 * good + 2 * max + 64); /* the games, the two lines and the tags between */
    assert_non_null(text);
    size_t len = 0;
    const char *const head = GOOD_GAME "[Event \"long\"]\n\n", *const next = "\n[Event \"x\"]\n";
    memcpy(text, head, strlen(head));            /* lines 1-8, 9-10 */
    len = strlen(head);
    memset(text + len, ' ', max - 1);              /* line 11: max bytes */
    len += max - 1;
    text[len++] = '*';
    text[len++] = '\n';
    memcpy(text + len, next, strlen(next));        /* lines 12-13 */
    len += strlen(next);
    memset(text + len, ' ', max + 1);              /* line 14: max + 1 bytes */
    len += max + 1;
    text[len++] = '\n';
    memcpy(text + len, GOOD_GAME, good);           /* never read */
    len += good;
    Reading rd;
    reading_open(&rd, text, len);
    skip_game(&rd, PGN_OK);
    skip_game(&rd, PGN_OK);
    skip_game(&rd, PGN_ERROR);
    assert_string_equal(rd.err, "games.pgn:14: a line longer than 1048576 bytes: not a record file");
    reading_close(&rd); /* and no more: the good game after it is not read */
    free(text);

    /* a NUL byte: in the first line; in the movetext of the second game */
    const char nul[] = "\0\0\0\0\0\0\0\0";
    reading_open(&rd, nul, sizeof nul - 1);
    skip_game(&rd, PGN_ERROR);
    assert_string_equal(rd.err, "games.pgn:1: a NUL byte at column 1: not a record file");
    reading_close(&rd);
    const char later[] = GOOD_GAME "[Event \"b\"]\n\n1. k3-\0i5 *\n\n" GOOD_GAME;
    reading_open(&rd, later, sizeof later - 1);
    skip_game(&rd, PGN_OK);
    skip_game(&rd, PGN_ERROR);
    assert_string_equal(rd.err, "games.pgn:11: a NUL byte at column 7: not a record file");
    reading_close(&rd);

    /* a read error is said once (it was said again at every call), then the end */
    FILE *dir = fopen("/", "r");
    assert_non_null(dir);
    pgn_reader_init(&rd.r, dir, "/");
    rd.f = dir;
    skip_game(&rd, PGN_ERROR);
    assert_string_equal(rd.err, "/:1: read error: Is a directory");
    reading_close(&rd);
}

static void test_rated_game_of_three_seats_takes_places_and_player_indexes(void **state)
{
    (void)state;
    static Game g;
    replay(&g, "classic-3", NULL, "j4-i5");
    referee_forfeit(&g.pos, SEAT_BLUE); /* places w:1 u:3 y:2 */
    PgnGame pg;
    pgn_of(&g, (const char *const[MAX_SEATS]){"Alpha", NULL, "Beta", NULL, "Gamma", NULL}, &pg);
    const char *const names[] = {"Beta", "Alpha", "Gamma"};
    RatedGame rg;
    char err[PGN_ERR_MAX];
    assert_int_equal(pgn_rated_game(&pg, names, 3, &rg, err, sizeof err), 0);
    assert_int_equal(rg.nunits, 3);
    assert_int_equal(rg.pair, -1);
    const int player[3] = {1, 0, 2}, place[3] = {1, 3, 2}; /* white, blue, yellow */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(rg.player[i], player[i]);
        assert_int_equal(rg.place[i], place[i]);
    }
    assert_int_equal(pgn_rated_game(&pg, names, 2, &rg, err, sizeof err), -1);
    assert_string_equal(err, "unknown player \"Gamma\"");
    pgn_game_free(&pg);
}

static void test_rated_game_of_teams_has_one_unit_per_team(void **state)
{
    (void)state;
    static Game g;
    replay(&g, "pairs-4", NULL, "j4-i5");
    referee_forfeit(&g.pos, SEAT_RED); /* w:1 r:2 b:1 y:2 */
    PgnGame pg;
    pgn_of(&g, (const char *const[MAX_SEATS]){"A", "B", NULL, "A", "C", NULL}, &pg);
    char name[64];
    assert_string_equal(pgn_unit_name(&pg, 0, name, sizeof name), "A");
    assert_string_equal(pgn_unit_name(&pg, 1, name, sizeof name), "B+C");
    assert_null(pgn_unit_name(&pg, 2, name, sizeof name));
    const char *const names[] = {"B+C", "A"};
    RatedGame rg;
    char err[PGN_ERR_MAX];
    assert_int_equal(pgn_rated_game(&pg, names, 2, &rg, err, sizeof err), 0);
    assert_int_equal(rg.nunits, 2);
    assert_int_equal(rg.player[0], 1);
    assert_int_equal(rg.place[0], 1);
    assert_int_equal(rg.player[1], 0);
    assert_int_equal(rg.place[1], 2);
    pgn_game_free(&pg);
}

static void test_rated_game_of_two_seats_without_places_uses_result(void **state)
{
    (void)state;
    const char text[] = "[Event \"a\"]\n[Variant \"classic-2\"]\n[White \"A\"]\n[Black \"B\"]\n"
                        "[Result \"0-1\"]\n\n1. k3-i5 0-1\n\n" GOOD_GAME
                        "[Event \"c\"]\n[Variant \"classic-3\"]\n[White \"A\"]\n[Blue \"B\"]\n[Yellow \"A\"]\n"
                        "[Places \"w:1 u:2 b:3\"]\n\n*\n";
    FILE *f = stream_of(text, strlen(text));
    PgnGame *games;
    int n;
    char err[PGN_ERR_MAX];
    assert_int_equal(pgn_read_all(f, "g.pgn", &games, &n, NULL, err, sizeof err), 0);
    assert_int_equal(n, 3);
    const char *const names[] = {"A", "B"};
    RatedGame rg;
    assert_int_equal(pgn_rated_game(&games[0], names, 2, &rg, err, sizeof err), 0);
    assert_int_equal(rg.place[0], 2);
    assert_int_equal(rg.place[1], 1);
    assert_int_equal(pgn_rated_game(&games[1], names, 2, &rg, err, sizeof err), 1); /* unfinished */
    assert_int_equal(pgn_rated_game(&games[2], names, 2, &rg, err, sizeof err), -1);
    assert_string_equal(err, "Places names a seat not in play: \"w:1 u:2 b:3\"");
    pgn_games_free(games, n);
    fclose(f);
}

/* 3-6 seats: Result gives the places in turn order ("1-3-2", PROTOCOL.md),
 * also as the movetext's closing token; it must agree with Places. */
static void test_rated_game_of_three_seats_reads_places_from_result(void **state)
{
    (void)state;
    const char text[] = "[Event \"a\"]\n[Variant \"classic-3\"]\n[White \"A\"]\n[Blue \"B\"]\n[Yellow \"C\"]\n"
                        "[Result \"1-3-2\"]\n\n1. j4-i5 1-3-2\n\n"
                        "[Event \"b\"]\n[Variant \"classic-3\"]\n[White \"A\"]\n[Blue \"B\"]\n[Yellow \"C\"]\n"
                        "[Result \"1-3-2\"]\n[Places \"w:1 u:2 y:3\"]\n\n1. j4-i5 1-3-2\n\n"
                        "[Event \"c\"]\n[Variant \"classic-3\"]\n[White \"A\"]\n[Blue \"B\"]\n[Yellow \"C\"]\n"
                        "[Result \"*\"]\n\n1. j4-i5 *\n\n";
    FILE *f = stream_of(text, strlen(text));
    PgnGame *games;
    int n;
    char err[PGN_ERR_MAX];
    assert_int_equal(pgn_read_all(f, "g.pgn", &games, &n, NULL, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(games[0].result, "1-3-2");
    const char *const names[] = {"A", "B", "C"};
    RatedGame rg;
    assert_int_equal(pgn_rated_game(&games[0], names, 3, &rg, err, sizeof err), 0);
    assert_int_equal(rg.nunits, 3);
    assert_int_equal(rg.place[0], 1);
    assert_int_equal(rg.place[1], 3);
    assert_int_equal(rg.place[2], 2);
    assert_int_equal(pgn_rated_game(&games[1], names, 3, &rg, err, sizeof err), -1);
    assert_non_null(strstr(err, "Result \"1-3-2\" contradicts Places"));
    assert_int_equal(pgn_rated_game(&games[2], names, 3, &rg, err, sizeof err), 1);
    pgn_games_free(games, n);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pgn_reads_back_tags_and_moves_of_written_records),
        cmocka_unit_test(test_pgn_reads_round_numbers_comments_and_glyphs_of_other_writers),
        cmocka_unit_test(test_pgn_reports_malformed_tag_with_its_line_and_resumes_at_next_game),
        cmocka_unit_test(test_pgn_reports_bad_movetext_token_with_its_line),
        cmocka_unit_test(test_pgn_flags_truncated_last_game_as_incomplete),
        cmocka_unit_test(test_pgn_reads_games_appended_after_a_cut_one),
        cmocka_unit_test(test_pgn_refuses_an_over_long_line_and_a_nul_byte_and_reads_no_further),
        cmocka_unit_test(test_rated_game_of_three_seats_takes_places_and_player_indexes),
        cmocka_unit_test(test_rated_game_of_teams_has_one_unit_per_team),
        cmocka_unit_test(test_rated_game_of_two_seats_without_places_uses_result),
        cmocka_unit_test(test_rated_game_of_three_seats_reads_places_from_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
