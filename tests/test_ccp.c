/*
 * test_ccp.c - the rating list's protocol CCP (shared/CCERL.md sections 2 and 3)
 * through the engine binary, as a black box: build/stern (or $STERN_BIN) runs as a
 * child process on pipes (support/engine_pipe.h). The handshake (`ccp`, `stern
 * --ccp`, `protocol`, `isready`), cell ids worked out by hand from the numbering
 * table and checked through the FEN `d` prints, paths of cell ids, the referee's
 * session (`position cells ... player ... ply ...`, `go movetime`) on a position
 * after 17 plies, `bestmove 0000` for a finished game, refused input that leaves
 * the position as it was, each kind of `go` limit, and a move from an opening
 * book (BookFile) answered in cell ids. The expected positions and
 * the legality of the engine's answers are worked out in-process with the rules
 * library and engine/rules/ccpcells.h.
 */
#include "support/engine_pipe.h"
#include "support/stern_test.h"

#include "book.h"
#include "ccp.h"
#include "ccpcells.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T EPIPE_TIMEOUT_MS

/* classic-2's and ccerl-2's start */
#define START_FEN "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w w w0,b0 1"
/* after white's k3-i5 (3-14, a jump over j4) */
#define AFTER_3_14 "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/4w8/wwww/1ww/ww/w b w1,b0 1"
/* then black's e15-e13 (115-102, over e14) and white's m1-k3-k5 (0-3-16, over l2
 * then k4): k3 is empty again, as is m1 */
#define AFTER_3_MOVES "b/bb/1bb/bbbb/4b8/12/11/10/9/10/11/12/4w1w6/wwww/1ww/ww/1 b w2,b1 2"
/* m4 m5 h14 h13 in cell ids 9 18 114 105: both sides step out and back, twice
 * (the start occurs the third time) */
#define REPEAT8 "9-18 114-105 18-9 105-114 9-18 114-105 18-9 105-114"

static bool starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* The 121 CCP cells of p (cell-id order: '.', '0' white, '1' black) into out
 * (122 bytes). */
static char *cells_of(const Position *p, char *out)
{
    for (int c = 0; c < NUM_HOLES; c++) {
        const int piece = p->board[ccp_hole_of_cell(c)];
        out[c] = piece == SEAT_WHITE + 1 ? '0' : piece == SEAT_BLACK + 1 ? '1' : '.';
    }
    out[NUM_HOLES] = 0;
    return out;
}

/* The start in cells: white on 0-9, black on 111-120. */
static const char *start_cells(void)
{
    static char c[NUM_HOLES + 1];
    memset(c, '.', NUM_HOLES);
    memset(c, '0', 10);
    memset(c + 111, '1', 10);
    c[NUM_HOLES] = 0;
    return c;
}


/* Sends `ccp` and checks the answer: `id name Stern <version>`, `id author ...`,
 * option lines only, then `ccpok`. Returns the lines before ccpok in *out. */
static void ccp_handshake(EPipe *p, EPipeLines *out)
{
    epipe_send(p, "ccp");
    epipe_collect(p, "ccpok", false, T, out, NULL);
    char d[8192];
    epipe_lines_dump(out, d, sizeof d);
    if (out->n < 3 || !starts(out->line[0], "id name Stern ") || strlen(out->line[0]) <= strlen("id name Stern ") ||
        !starts(out->line[1], "id author ") || strlen(out->line[1]) <= strlen("id author "))
        fail_msg("ccp should answer 'id name Stern <version>', 'id author <authors>', options, 'ccpok': %s", d);
    for (int i = 2; i < out->n; i++)
        if (!starts(out->line[i], "option name "))
            fail_msg("line between the id lines and ccpok that is not an option: '%s'", out->line[i]);
}

static void ccp_on(EPipe *p)
{
    EPipeLines l;
    ccp_handshake(p, &l);
    epipe_lines_free(&l);
}


/* The ccerl-2 position of `fen`, in-process. */
static Position position_of(const char *fen)
{
    Position pos;
    char err[256];
    if (fen_parse(&pos, variant_find("ccerl-2"), fen, err, sizeof err))
        fail_msg("FEN '%s' refused in-process: %s", fen, err);
    return pos;
}

/* Checks a path of cell ids `text` from the engine: a legal move of the side to
 * move in pos, written as Stern's canonical full path in cell ids. Returns it. */
static Move legal_path(const Position *pos, const char *text, const char *line)
{
    Move m;
    char err[512], canon[MOVE_STR_MAX];
    if (ccp_move_parse(pos, text, &m, err, sizeof err))
        fail_msg("'%s' in '%s' is not a legal move in '%s': %s", text, line, fen_now(pos), err);
    ccp_move_str(pos, &m, canon);
    if (strcmp(canon, text))
        fail_msg("'%s' in '%s' should be the full path '%s'", text, line, canon);
    return m;
}

/* Checks an `info depth` line of CCP: `info depth N seldepth N multipv 1 score
 * cp V nodes N nps N time MS pv <path> ...`, depth at most max_depth (> 0), and
 * the pv's moves legal one after the other from root, in cell ids. */
static void check_info_depth(const char *line, const Position *root, int max_depth)
{
    int depth, seldepth, multipv, cp, at = -1;
    unsigned long long nodes, nps;
    long long ms;
    if (sscanf(line, "info depth %d seldepth %d multipv %d score cp %d nodes %llu nps %llu time %lld pv %n", &depth,
               &seldepth, &multipv, &cp, &nodes, &nps, &ms, &at) != 7 ||
        at < 0)
        fail_msg("bad CCP info line (expected 'info depth N seldepth N multipv 1 score cp V nodes N nps N time MS "
                 "pv ...'): '%s'",
                 line);
    char again[512];
    snprintf(again, sizeof again, "info depth %d seldepth %d multipv %d score cp %d nodes %llu nps %llu time %lld pv ",
             depth, seldepth, multipv, cp, nodes, nps, ms);
    if (strncmp(line, again, strlen(again)) || (size_t)at != strlen(again))
        fail_msg("CCP info line with extra or odd fields: '%s'", line);
    if (depth < 1 || (max_depth > 0 && depth > max_depth) || multipv != 1)
        fail_msg("info line of depth %d (at most %d), multipv %d: '%s'", depth, max_depth, multipv, line);
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", line + at);
    Position pos = *root;
    int n = 0;
    for (char *save = NULL, *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save), n++) {
        if (pos_over(&pos))
            fail_msg("pv goes on after the game is over: '%s'", line);
        const Move m = legal_path(&pos, t, line);
        pos_play(&pos, &m);
    }
    if (n < 1)
        fail_msg("info line with an empty pv: '%s'", line);
}

/* Reads a search's answer up to its bestmove: only `info depth` lines before it
 * (checked, at least one), then exactly `bestmove <path>` with a legal full
 * path, then nothing (the next answer to isready is readyok). Returns the move. */
static Move finish_search(EPipe *p, const Position *root, int max_depth)
{
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, T, &l, &bm);
    for (int i = 0; i < l.n; i++) {
        if (!starts(l.line[i], "info depth "))
            fail_msg("line before bestmove that is not 'info depth ...': '%s'", l.line[i]);
        check_info_depth(l.line[i], root, max_depth);
    }
    if (l.n < 1)
        fail_msg("a search answered '%s' without any info depth line", bm);
    epipe_lines_free(&l);
    char path[MOVE_STR_MAX];
    int used = -1;
    if (sscanf(bm, "bestmove %255s%n", path, &used) != 1 || (size_t)used != strlen(bm))
        fail_msg("malformed bestmove line: '%s' (expected 'bestmove <path>')", bm);
    const Move m = legal_path(root, path, bm);
    free(bm);
    epipe_sync(p); /* exactly one bestmove, and nothing after it */
    return m;
}

/* ---- handshake ---- */

static void test_handshake(void **state)
{
    EPipe *p = *state;
    assert_string_equal(epipe_one_line(p, "protocol"), "protocol uci");
    EPipeLines ccp, uci;
    ccp_handshake(p, &ccp);
    assert_string_equal(epipe_one_line(p, "protocol"), "protocol ccp 1");
    epipe_sync(p);
    /* the id and option lines are uci's */
    epipe_send(p, "uci");
    epipe_collect(p, "uciok", false, T, &uci, NULL);
    assert_int_equal(ccp.n, uci.n);
    for (int i = 0; i < ccp.n; i++)
        assert_string_equal(ccp.line[i], uci.line[i]);
    epipe_lines_free(&ccp);
    epipe_lines_free(&uci);
    assert_string_equal(epipe_one_line(p, "protocol"), "protocol uci");
    /* ccp again: back in CCP, a new game of ccerl-2 from the start */
    epipe_silent(p, "position startpos moves k3-i5");
    ccp_on(p);
    assert_string_equal(epipe_one_line(p, "protocol"), "protocol ccp 1");
    assert_string_equal(epipe_fen(p), START_FEN);
    EPipeLines d;
    epipe_command(p, "d", &d);
    int variant_lines = 0;
    for (int i = 0; i < d.n; i++)
        variant_lines += !strcmp(d.line[i], "Variant: ccerl-2");
    assert_int_equal(variant_lines, 1);
    epipe_lines_free(&d);
    assert_string_equal(epipe_one_line(p, "ccp now"), "info string error ccp takes no arguments (got 'now')");
}

static void test_stern_ccp_flag_starts_in_ccp(void **state)
{
    (void)state;
    char out[16384];
    const int st = epipe_run_tool("stern --ccp <<'EOF'\nprotocol\nposition startpos moves 3-14\nd\nquit\nEOF", out,
                                  sizeof out);
    assert_int_equal(st, 0);
    /* no handshake lines of its own: the first answer is protocol's */
    if (!starts(out, "protocol ccp 1\n"))
        fail_msg("stern --ccp should answer 'protocol ccp 1' first, got:\n%s", out);
    if (!strstr(out, "\nFen: " AFTER_3_14 "\n") || !strstr(out, "\nVariant: ccerl-2\n"))
        fail_msg("stern --ccp should play 3-14 in ccerl-2, got:\n%s", out);
}

/* ---- cell ids ---- */

static void test_cell_ids_against_the_table(void **state)
{
    (void)state;
    board_init();
    /* worked by hand from the table: id = rank of (r, q) */
    static const struct { int id; const char *hole; } want[] = {
        {0, "m1"},    {1, "l2"},    {2, "m2"},    {3, "k3"},   {5, "m3"},   {6, "j4"},   {9, "m4"},
        {10, "e5"},   {14, "i5"},   {16, "k5"},   {18, "m5"},  {22, "q5"},  {23, "e6"},  {34, "p6"},
        {35, "e7"},   {55, "n8"},   {56, "e9"},   {60, "i9"},  {64, "m9"},  {65, "d10"}, {98, "a13"},
        {102, "e13"}, {105, "h13"}, {110, "m13"}, {111, "e14"}, {114, "h14"}, {115, "e15"}, {118, "e16"},
        {119, "f16"}, {120, "e17"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char name[4];
        board_hole_name(ccp_hole_of_cell(want[i].id), name);
        if (strcmp(name, want[i].hole))
            fail_msg("cell %d should be %s, is %s", want[i].id, want[i].hole, name);
        assert_int_equal(ccp_cell_of_hole(hole(want[i].hole)), want[i].id);
    }
    /* the numbering of the whole table: row lengths 1,2,3,4,13,...; r then q rising */
    static const int row_len[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};
    int id = 0;
    for (int k = 0; k < 17; k++) {
        const int r = k - 8;
        const int qmin = r <= -5 || (r >= 1 && r <= 4) ? -4 - r : -4;
        for (int j = 0; j < row_len[k]; j++, id++) {
            const int h = ccp_hole_of_cell(id);
            assert_int_equal(geo.r[h], r);
            assert_int_equal(geo.q[h], qmin + j);
            assert_int_equal(ccp_cell_of_hole(h), id);
        }
    }
    assert_int_equal(id, 121);
}

static void test_cells_position_through_d(void **state)
{
    EPipe *p = *state;
    ccp_on(p);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0", start_cells());
    epipe_silent(p, cmd);
    assert_string_equal(epipe_fen(p), START_FEN);
    /* white m1 (0) on e5 (10) and m4 (9) on q5 (22); black e14 (111) on i9 (60) */
    char c[NUM_HOLES + 1];
    snprintf(c, sizeof c, "%s", start_cells());
    c[0] = c[9] = c[111] = '.';
    c[10] = c[22] = '0';
    c[60] = '1';
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0", c);
    epipe_silent(p, cmd);
    assert_string_equal(epipe_fen(p), "b/bb/bbb/1bbb/13/12/11/10/4b4/10/11/12/w11w/www1/www/ww/1 w w0,b0 1");
    /* the counts from ply: player 1 at ply 17 = black's 9th move, white has made 9 */
    snprintf(cmd, sizeof cmd, "position cells %s player 1 ply 17", c);
    epipe_silent(p, cmd);
    assert_string_equal(epipe_fen(p), "b/bb/bbb/1bbb/13/12/11/10/4b4/10/11/12/w11w/www1/www/ww/1 b w9,b8 9");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 238", c);
    epipe_silent(p, cmd);
    assert_string_equal(epipe_fen(p), "b/bb/bbb/1bbb/13/12/11/10/4b4/10/11/12/w11w/www1/www/ww/1 w w119,b119 120");
    snprintf(cmd, sizeof cmd, "position cells %s player 1 ply 239", c);
    epipe_silent(p, cmd);
    assert_string_equal(epipe_fen(p), "b/bb/bbb/1bbb/13/12/11/10/4b4/10/11/12/w11w/www1/www/ww/1 b w120,b119 120");
}

static void test_paths_in_cell_ids(void **state)
{
    EPipe *p = *state;
    ccp_on(p);
    epipe_silent(p, "position startpos moves 3-14");
    assert_string_equal(epipe_fen(p), AFTER_3_14);
    epipe_silent(p, "position startpos moves 3-14 115-102 0-3-16");
    assert_string_equal(epipe_fen(p), AFTER_3_MOVES);
    /* the same by from-to (one move matches) and with ',' between the cells */
    epipe_silent(p, "position startpos moves 3-14 115-102 0-16");
    assert_string_equal(epipe_fen(p), AFTER_3_MOVES);
    epipe_silent(p, "position startpos moves 3,14 115,102 0,3,16");
    assert_string_equal(epipe_fen(p), AFTER_3_MOVES);
    /* the same moves on cells */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 3-14 115-102 0-3-16", start_cells());
    epipe_silent(p, cmd);
    assert_string_equal(epipe_fen(p), AFTER_3_MOVES);
    /* Stern's hole names are not CCP moves */
    assert_string_equal(epipe_one_line(p, "position startpos moves k3-i5"),
                        "info string error position: move 1 'k3-i5': move 'k3-i5': expected cell ids 0-120 "
                        "separated by '-' or ','");
    assert_string_equal(epipe_fen(p), AFTER_3_MOVES);
    /* the engine writes its moves as full paths of cell ids: from the start its
     * depth-1 answer is one of the 14 moves */
    epipe_silent(p, "position startpos");
    const Position start = position_of(START_FEN);
    epipe_send(p, "go depth 1");
    finish_search(p, &start, 1);
}

/* ---- the referee's session ---- */

/* 17 plies of ccerl-2 from the start (in-process), each a legal move picked by a
 * fixed pseudo-random sequence among the moves that bring a marble nearer its
 * target: black is to move. */
static void seventeen_plies(Game *gm)
{
    assert_int_equal(game_new(gm, "ccerl-2"), 0);
    uint32_t x = 12345;
    for (int ply = 0; ply < 17; ply++) {
        const Position *pos = &gm->pos;
        const int s = pos->stm;
        MoveList list = {0};
        gen_moves(pos, &list, NULL);
        Move forward[512];
        int n = 0;
        for (int i = 0; i < list.n && n < 512; i++)
            if (pos->v->tip_dist[s][list.m[i].to] < pos->v->tip_dist[s][list.m[i].from])
                forward[n++] = list.m[i];
        assert_true(n > 0);
        x = x * 1103515245u + 12345u;
        const Move m = forward[(x >> 16) % (uint32_t)n];
        move_list_free(&list);
        assert_int_equal(game_play(gm, &m), 0);
        assert_false(pos_over(&gm->pos));
    }
    assert_int_equal(gm->pos.stm, SEAT_BLACK);
}

static void test_session_after_17_plies(void **state)
{
    EPipe *p = *state;
    static Game gm;
    seventeen_plies(&gm);
    char fen[FEN_MAX], c[NUM_HOLES + 1], cmd[1024];
    fen_write(&gm.pos, fen);
    assert_non_null(strstr(fen, " b w9,b8 9"));
    cells_of(&gm.pos, c);
    epipe_send(p, "ccp");
    EPipeLines l;
    epipe_collect(p, "ccpok", false, T, &l, NULL);
    epipe_lines_free(&l);
    epipe_sync(p);
    snprintf(cmd, sizeof cmd, "position cells %s player 1 ply 17", c);
    epipe_silent(p, cmd);
    assert_string_equal(epipe_fen(p), fen);
    epipe_send(p, "go movetime 100");
    const Move best = finish_search(p, &gm.pos, 0);
    /* the answer played back: black's move made, white to move */
    char path[MOVE_STR_MAX];
    ccp_move_str(&gm.pos, &best, path);
    snprintf(cmd, sizeof cmd, "position cells %s player 1 ply 17 moves %s", c, path);
    epipe_silent(p, cmd);
    Position after = gm.pos;
    pos_play(&after, &best);
    assert_int_equal(after.stm, SEAT_WHITE);
    assert_string_equal(epipe_fen(p), fen_now(&after));
    /* the next position, as the referee sends it: white to move at ply 18 */
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 18", cells_of(&after, c));
    epipe_silent(p, cmd);
    assert_string_equal(epipe_fen(p), fen_now(&after));
    epipe_send(p, "go movetime 100");
    finish_search(p, &after, 0);
}

/* ---- finished games: bestmove 0000 ---- */

/* A position in which the side to move has no legal move cannot be sent: the
 * cells go through the FEN, which needs ten marbles a seat, and with ten a seat
 * no such position exists (test_ccerl.c). What go answers in a finished game: */
static void test_finished_game_answers_0000(void **state)
{
    EPipe *p = *state;
    ccp_on(p);
    /* repetition: the start for the third time */
    epipe_silent(p, "position startpos moves " REPEAT8);
    assert_string_equal(epipe_fen(p), "b/bb/bbb/bbbb/13/12/11/10/9/10/11/12/13/wwww/www/ww/w - w4,b4 4");
    assert_string_equal(epipe_one_line(p, "result"), "result w:1 b:1 reason repetition");
    epipe_send(p, "go depth 1");
    assert_string_equal(epipe_expect_line(p, T, "bestmove"), "bestmove 0000");
    epipe_sync(p);
    /* no move may follow */
    assert_string_equal(epipe_one_line(p, "position startpos moves " REPEAT8 " 9-18"),
                        "info string error position: move 9 '9-18': the game is already over");
    /* the limit: black's move of ply 240 ends the game in a draw */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position cells %s player 1 ply 239 moves 115-102", start_cells());
    epipe_silent(p, cmd);
    assert_string_equal(epipe_one_line(p, "result"), "result w:1 b:1 reason limit");
    epipe_send(p, "go movetime 100");
    assert_string_equal(epipe_expect_line(p, T, "bestmove"), "bestmove 0000");
    epipe_sync(p);
    /* an anti-block win on white's first move */
    char c[NUM_HOLES + 1];
    /* white: 8 in N (111-113, 115-119), 105 (h13) and 60 (i9); black: 120 (e17) and
     * nine on cells 0-8 (its target S but m4) */
    memset(c, '.', NUM_HOLES);
    memset(c, '1', 9);
    c[NUM_HOLES] = 0;
    c[120] = '1';
    c[111] = c[112] = c[113] = c[115] = c[116] = c[117] = c[118] = c[119] = '0';
    c[105] = c[60] = '0';
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 105-114", c);
    epipe_silent(p, cmd);
    assert_string_equal(epipe_one_line(p, "result"), "result w:1 b:2 reason blocked");
    epipe_send(p, "go wtime 1000 btime 1000");
    assert_string_equal(epipe_expect_line(p, T, "bestmove"), "bestmove 0000");
    epipe_sync(p);
}

/* ---- bad input ---- */

/* Sends `cmd`, asserts the one answer `want` (an info string error line), that
 * the position is still AFTER_3_14 and that go depth 1 answers from it. */
static void refused(EPipe *p, const char *cmd, const char *want)
{
    EPipeLines l;
    epipe_command(p, cmd, &l);
    char d[4096];
    epipe_lines_dump(&l, d, sizeof d);
    if (l.n != 1 || strcmp(l.line[0], want))
        fail_msg("'%.200s' should be answered by exactly '%s', got %d lines: %s", cmd, want, l.n, d);
    epipe_lines_free(&l);
    const char *now = epipe_fen(p);
    if (strcmp(now, AFTER_3_14))
        fail_msg("after the refused '%.200s' the position changed:\n  before: %s\n  after:  %s", cmd, AFTER_3_14,
                 now);
    const Position before = position_of(AFTER_3_14);
    epipe_send(p, "go depth 1");
    finish_search(p, &before, 1);
}

static void test_bad_input_keeps_the_position(void **state)
{
    EPipe *p = *state;
    ccp_on(p);
    epipe_silent(p, "position startpos moves 3-14");
    const char *s = start_cells();
    char cmd[1024], c[NUM_HOLES + 2];
#define E "info string error position: "
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0", s + 1);
    refused(p, cmd, E "cells: 120 characters, expected 121");
    snprintf(cmd, sizeof cmd, "position cells %s. player 0 ply 0", s);
    refused(p, cmd, E "cells: 122 characters, expected 121");
    snprintf(c, sizeof c, "%s", s);
    c[5] = 'x';
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0", c);
    refused(p, cmd, E "cells: 'x' at cell 5 (expected '.', '0' or '1')");
    c[5] = '2';
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0", c);
    refused(p, cmd, E "cells: '2' at cell 5 (expected '.', '0' or '1')");
    snprintf(cmd, sizeof cmd, "position cells %s player 2 ply 0", s);
    refused(p, cmd, E "player must be 0 or 1 and ply 0-239, got '2' and '0'");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 17", s);
    refused(p, cmd, E "ply 17 is odd: player 1 is to move, not 0");
    snprintf(cmd, sizeof cmd, "position cells %s player 1 ply 0", s);
    refused(p, cmd, E "ply 0 is even: player 0 is to move, not 1");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 240", s);
    refused(p, cmd, E "player must be 0 or 1 and ply 0-239, got '0' and '240'");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply -1", s);
    refused(p, cmd, E "player must be 0 or 1 and ply 0-239, got '0' and '-1'");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 121-3", s);
    refused(p, cmd, E "move 1 '121-3': move '121-3': cell id 121 is not 0-120");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 3-15", s);
    refused(p, cmd, E "move 1 '3-15': (k3-j5) illegal move 'k3-j5': hop 1 (k3-j5) is not a jump: k3 and j5 are not on one line");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 3-14 3-14", s);
    refused(p, cmd, E "move 2 '3-14': (k3-i5) illegal move 'k3-i5': no marble of the side to move on k3");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 111-102", s);
    refused(p, cmd, E "move 1 '111-102': (e14-e13) illegal move 'e14-e13': no marble of the side to move on e14");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 3", s);
    refused(p, cmd, E "move 1 '3': move '3': a move names at least two cells");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 3--14", s);
    refused(p, cmd, E "move 1 '3--14': move '3--14': expected cell ids 0-120 separated by '-' or ','");
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 moves 0003-14", s);
    refused(p, cmd, E "move 1 '0003-14': move '0003-14': cell id 0003 is not 0-120");
    /* missing or misplaced fields */
    static const char *const shape =
        E "expected 'position cells <121 cells> player <0|1> ply <n> [moves ...]'";
    refused(p, "position cells", shape);
    snprintf(cmd, sizeof cmd, "position cells %s", s);
    refused(p, cmd, shape);
    snprintf(cmd, sizeof cmd, "position cells %s player 0", s);
    refused(p, cmd, shape);
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply", s);
    refused(p, cmd, shape);
    snprintf(cmd, sizeof cmd, "position cells %s ply 0 player 0", s);
    refused(p, cmd, shape);
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0 junk", s);
    refused(p, cmd, E "unexpected 'junk' (expected 'moves')");
    /* nine white marbles: the FEN's material check */
    snprintf(c, sizeof c, "%s", s);
    c[0] = '.';
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 0", c);
    refused(p, cmd, E "fen: seat 'w' has 9 marbles, expected 10");
#undef E
}

/* ---- go limits ---- */

static void test_go_limits_answer_once(void **state)
{
    EPipe *p = *state;
    ccp_on(p);
    static Game gm;
    seventeen_plies(&gm);
    char c[NUM_HOLES + 1], cmd[512];
    snprintf(cmd, sizeof cmd, "position cells %s player 1 ply 17", cells_of(&gm.pos, c));
    epipe_silent(p, cmd);
    epipe_send(p, "go wtime 1000 btime 1000");
    finish_search(p, &gm.pos, 0);
    epipe_send(p, "go nodes 1000");
    finish_search(p, &gm.pos, 0);
    epipe_send(p, "go depth 2");
    finish_search(p, &gm.pos, 2);
    epipe_send(p, "go movetime 100");
    finish_search(p, &gm.pos, 0);
    /* the position is the one sent, whatever was searched */
    assert_string_equal(epipe_fen(p), fen_now(&gm.pos));
}

/* The search plays ccerl-2's own wins: white fills the last hole of its target
 * while black's e17 still stands there (the full-target rule), a win at once
 * that it reports as a mate in one in CCP's centipawns (30000 - 1). */
static void test_search_takes_a_full_target_win(void **state)
{
    EPipe *p = *state;
    ccp_on(p);
    static Game gm;
    game_setup(&gm, "ccerl-2", "w e14 f14 g14 e15 f15 g15 e16 f16 h13 i9 b e17 l2 m2 k3 l3 m3 j4 k4 l4 m4",
               "w w20,b20 21");
    char c[NUM_HOLES + 1], cmd[512], want[64];
    snprintf(cmd, sizeof cmd, "position cells %s player 0 ply 40", cells_of(&gm.pos, c));
    epipe_silent(p, cmd);
    epipe_send(p, "go depth 3");
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, T, &l, &bm);
    snprintf(want, sizeof want, "bestmove %d-%d", ccp_cell_of_hole(hole("h13")), ccp_cell_of_hole(hole("h14")));
    assert_string_equal(bm, want);
    assert_true(l.n >= 1);
    snprintf(want, sizeof want, " score cp %d ", CCP_MATE_CP - 1);
    if (!strstr(l.line[l.n - 1], want))
        fail_msg("the last info line should carry '%s': %s", want, l.line[l.n - 1]);
    free(bm);
    epipe_lines_free(&l);
}

/* ---- a book move ---- */

/* The answer from an opening book (OwnBook, BookFile) is a CCP move too: a
 * ccerl-2 book holding k3-i5 (3-14) at the start, written in-process. */
static void test_book_move_in_cell_ids(void **state)
{
    EPipe *p = *state;
    static Game gm;
    assert_int_equal(game_new(&gm, "ccerl-2"), 0);
    Book b;
    book_init(&b, "ccerl-2");
    const Move k3i5 = move_ok(&gm.pos, "k3-i5");
    assert_true(book_add(&b, &gm.pos, &k3i5, 10, 0));
    book_finish(&b);
    char path[] = "/tmp/stern-test-ccp-book-XXXXXX", err[512];
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(book_save(&b, path, err, sizeof err), 0);
    book_free(&b);
    ccp_on(p);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "setoption name BookFile value %s", path);
    epipe_silent(p, cmd);
    epipe_silent(p, "position startpos");
    epipe_send(p, "go movetime 100");
    EPipeLines l;
    char *bm = NULL;
    epipe_collect(p, "bestmove", true, T, &l, &bm);
    unlink(path);
    epipe_lines_free(&l);
    char got[256];
    snprintf(got, sizeof got, "%s", bm);
    free(bm);
    epipe_sync(p);
    assert_string_equal(got, "bestmove 3-14");
}

/* How stern-arena reads a CCP engine's move, as the rating list's referee does:
 * empty items dropped, and a path that is no legal chain taken by its two ends
 * when one legal move joins them; the engine's own reading stays strict. */
static void test_moves_read_as_the_referee_reads_them(void **state)
{
    (void)state;
    static Game game;
    assert_int_equal(game_new(&game, "ccerl-2"), 0);
    Move m;
    char err[512], text[MOVE_STR_MAX];
    static const struct {
        const char *in, *want; /* want NULL: refused */
        int plies;             /* after 3-14 115-102 (k3-i5 e15-e13): m1-k3-k5 is legal */
    } cases[] = {
        {"3-14", "3-14", 0},     {"3--14", "3-14", 0},  {"3-14,", "3-14", 0}, {",3,14", "3-14", 0},
        {"3-15", NULL, 0},       {"3", NULL, 0},        {"--", NULL, 0},      {"3-14-25", NULL, 0},
        {"x-14", NULL, 0},       {"", NULL, 0},         {"0-9-16", NULL, 0},  {"0-9-16", "0-3-16", 2},
        {"0-16", "0-3-16", 2},   {"0-3-16", "0-3-16", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].plies == 2 && game.nplies == 0) {
            static const char *const opening[2] = {"3-14", "115-102"};
            for (int k = 0; k < 2; k++) {
                assert_int_equal(ccp_move_parse(&game.pos, opening[k], &m, err, sizeof err), 0);
                assert_int_equal(game_play(&game, &m), 0);
            }
        }
        const int rc = ccp_move_parse_as_referee(&game.pos, cases[i].in, &m, err, sizeof err);
        if (!cases[i].want) {
            if (!rc)
                fail_msg("'%s' should be refused, read as %s", cases[i].in, ccp_move_str(&game.pos, &m, text));
            continue;
        }
        if (rc)
            fail_msg("'%s' refused: %s", cases[i].in, err);
        assert_string_equal(ccp_move_str(&game.pos, &m, text), cases[i].want);
    }
    /* the engine's reading: no empty items, the path as given */
    assert_int_equal(ccp_move_parse(&game.pos, "0--3-16", &m, err, sizeof err), -1);
    assert_int_equal(ccp_move_parse(&game.pos, "0-9-16", &m, err, sizeof err), -1);
    assert_int_equal(ccp_move_parse(&game.pos, "0-3-16", &m, err, sizeof err), 0);
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, epipe_setup, epipe_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_handshake),
        cmocka_unit_test(test_stern_ccp_flag_starts_in_ccp),
        cmocka_unit_test(test_cell_ids_against_the_table),
        TEST(test_cells_position_through_d),
        TEST(test_paths_in_cell_ids),
        TEST(test_session_after_17_plies),
        TEST(test_finished_game_answers_0000),
        TEST(test_bad_input_keeps_the_position),
        TEST(test_go_limits_answer_once),
        TEST(test_search_takes_a_full_target_win),
        TEST(test_book_move_in_cell_ids),
        cmocka_unit_test(test_moves_read_as_the_referee_reads_them),
    };
    return cmocka_run_group_tests_name("ccp", tests, NULL, NULL);
}
