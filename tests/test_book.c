/*
 * test_book.c - the opening book (engine/book/book.h): keys that fold the
 * seats and, with two seats, the mirror; moves turned into the key's frame and
 * back; the file written and read back; a book built from game records by
 * stern-book, shown, and played by the engine through BookFile; corrupt,
 * truncated and foreign-variant files refused with their fault while the engine
 * still answers, and a book of an unknown variant refused as verify refuses
 * it; a build sharded into parts that merge into the book of one process, byte
 * for byte, while parts of a wrong set are refused; and every refusal of
 * stern-book (the one beside $STERN_BIN: the sanitized one under `make asan`)
 * is its one line, with no leak reported after it.
 */
#include "support/engine_pipe.h"
#include "support/stern_test.h"

#include "book.h"
#include "book_part.h"
#include "frame.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static Game g;

/* stern-book beside the engine under test ($STERN_BIN's directory): under
 * `make asan` the sanitized one, so that its leaks fail these tests. */
static const char *book_tool;

/* p seen from the seat `shift` turns later: every marble moved by the star's
 * turn that takes each seat's home to that seat's, every seat's counts handed to
 * the seat `shift` places on in turn order, and that seat to move. With
 * `mirror`, also reflected (two seats). */
static Position turned(const Position *p, int shift, bool mirror)
{
    const Variant *v = p->v;
    const int n = v->nseats;
    Position q = *p;
    memset(q.seat_bb, 0, sizeof q.seat_bb);
    for (int i = 0; i < n; i++) {
        const int s = v->seats[i], t = v->seats[(i + shift) % n];
        /* the hole h of s's marble shows, in t's frame, where it shows in s's */
        for (Bitboard b = p->seat_bb[s]; b;) {
            const int h = bb_pop(&b);
            const int to = frame_hole_back(frame_of_seat(t, mirror), frame_hole(frame_of_seat(s, false), h));
            q.seat_bb[t] |= bb_bit(to);
        }
        q.moves[t] = p->moves[s];
        q.status[t] = p->status[s];
        q.place[t] = p->place[s];
    }
    q.stm = (int8_t)v->seats[(v->slot[p->stm] + shift) % n];
    pos_refresh(&q);
    return q;
}

/* A middle-game position of `variant` after `plies` moves (the first legal move
 * of each turn after a few fixed choices). */
static void middle(const char *variant, int plies)
{
    assert_int_equal(game_new(&g, variant), 0);
    MoveList list = {0};
    for (int i = 0; i < plies && !pos_over(&g.pos); i++) {
        gen_moves(&g.pos, &list, NULL);
        assert_true(list.n > 0);
        assert_int_equal(game_play(&g, &list.m[(i * 7) % list.n]), 0);
    }
    move_list_free(&list);
}

static void assert_same_key_and_moves(const Position *p, const Position *q, int shift, bool mirror)
{
    int fp, fq;
    assert_int_equal(book_key(p, &fp), book_key(q, &fq));
    MoveList list = {0};
    gen_moves(p, &list, NULL);
    const int s = p->stm, t = q->stm;
    for (int i = 0; i < list.n; i++) {
        Move m;
        assert_true(book_code_move(q, fq, book_move_code(fp, &list.m[i]), &m));
        /* the move q makes is p's turned the same way */
        const int f = frame_of_seat(s, false), fm = frame_of_seat(t, mirror);
        assert_int_equal(m.from, frame_hole_back(fm, frame_hole(f, list.m[i].from)));
        assert_int_equal(m.to, frame_hole_back(fm, frame_hole(f, list.m[i].to)));
    }
    (void)shift;
    move_list_free(&list);
}

static void test_two_seats_fold_the_other_seat_and_the_mirror(void **state)
{
    (void)state;
    middle("classic-2", 9);
    const Position p = g.pos, other = turned(&p, 1, false), mirrored = turned(&p, 0, true);
    assert_true(other.key != p.key && mirrored.key != p.key); /* really other positions */
    assert_same_key_and_moves(&p, &other, 1, false);
    assert_same_key_and_moves(&p, &mirrored, 0, true);
    const Position both = turned(&p, 1, true);
    assert_same_key_and_moves(&p, &both, 1, true);
}

static void test_three_and_six_seats_fold_the_seats_not_the_mirror(void **state)
{
    (void)state;
    static const char *const variants[] = {"classic-3", "classic-6"};
    for (int k = 0; k < 2; k++) {
        middle(variants[k], 14);
        const Position p = g.pos;
        for (int shift = 1; shift < p.v->nseats; shift++) {
            const Position q = turned(&p, shift, false);
            assert_true(q.key != p.key);
            assert_same_key_and_moves(&p, &q, shift, false);
        }
        int fp, fq;
        const Position m = turned(&p, 0, true);
        assert_true(book_key(&p, &fp) != book_key(&m, &fq)); /* play would run the other way round */
    }
}

static void test_positions_that_differ_have_different_keys(void **state)
{
    (void)state;
    middle("classic-2", 9);
    Position p = g.pos;
    MoveList list = {0};
    gen_moves(&p, &list, NULL);
    int f;
    const uint64_t key = book_key(&p, &f);
    for (int i = 0; i < list.n; i++) {
        Position c = p;
        pos_play(&c, &list.m[i]);
        pos_set_stm(&c, p.stm); /* the same seat to move, one marble elsewhere */
        int fc;
        assert_true(book_key(&c, &fc) != key);
    }
    Position later = p;
    later.moves[p.stm]++; /* the exit deadline counts own moves */
    pos_refresh(&later);
    int fl;
    assert_true(book_key(&later, &fl) != key);
    move_list_free(&list);
}

/* A position and its mirror image (two seats) have one canonical position,
 * the one whose key is seen in the plain frame; with three seats every
 * position is its own. */
static void test_one_canonical_position_per_key(void **state)
{
    (void)state;
    middle("classic-2", 9);
    const Position p = g.pos, m = turned(&p, 0, true);
    assert_true(p.key != m.key);
    const Position a = book_canonical(&p), b = book_canonical(&m);
    assert_true(a.key == b.key && (a.key == p.key || a.key == m.key));
    assert_memory_equal(a.seat_bb, b.seat_bb, sizeof a.seat_bb);
    int fa, fp;
    assert_int_equal(book_key(&a, &fa), book_key(&p, &fp));
    assert_int_equal(fa, frame_of_seat(a.stm, false));
    middle("classic-3", 14);
    const Position q = g.pos, c = book_canonical(&q);
    assert_true(c.key == q.key);
    assert_memory_equal(c.seat_bb, q.seat_bb, sizeof c.seat_bb);
}

static void test_file_round_trip_merges_and_sorts(void **state)
{
    (void)state;
    middle("classic-2", 4);
    Book b;
    book_init(&b, "classic-2");
    MoveList list = {0};
    gen_moves(&g.pos, &list, NULL);
    assert_true(list.n >= 3);
    assert_true(book_add(&b, &g.pos, &list.m[2], 10, 1));
    assert_true(book_add(&b, &g.pos, &list.m[0], 30, -2));
    assert_true(book_add(&b, &g.pos, &list.m[2], 5, 3)); /* the same entry again: summed */
    book_finish(&b);
    assert_int_equal(b.n, 2);
    char path[] = "/tmp/stern-test-book-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[512];
    assert_int_equal(book_save(&b, path, err, sizeof err), 0);
    Book r;
    assert_int_equal(book_load(&r, path, "classic-2", err, sizeof err), 0);
    assert_int_equal(r.n, 2);
    assert_memory_equal(r.e, b.e, sizeof *b.e * b.n);
    BookMove m[BOOK_MAX_MOVES];
    assert_int_equal(book_probe(&r, &g.pos, m, BOOK_MAX_MOVES), 2);
    assert_true(move_same(&m[0].move, &list.m[0]) && m[0].weight == 30 && m[0].learn == -2);
    assert_true(move_same(&m[1].move, &list.m[2]) && m[1].weight == 15 && m[1].learn == 4);
    book_free(&b);
    book_free(&r);
    move_list_free(&list);
    unlink(path);
}

/* Writes bytes [0, n) of file `from` to `to`, with byte `flip` (when >= 0) XORed. */
static void copy_file(const char *from, const char *to, long n, long flip)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_true(in && out);
    for (long i = 0; i < n; i++) {
        const int c = fgetc(in);
        if (c == EOF)
            break;
        fputc(i == flip ? c ^ 0x40 : c, out);
    }
    fclose(in);
    fclose(out);
}

static const char RECORDS[] =
    "[Event \"t\"]\n[Variant \"classic-2\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n"
    "1. j4-i5 e14-f13 2. k3-k5 1-0\n\n"
    "[Event \"t\"]\n[Variant \"classic-2\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n"
    "1. k3-i5 e14-f13 2. j4-h6 0-1\n\n"
    "[Event \"t\"]\n[Variant \"classic-2\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n"
    "1. j4-i5 f15-f13 1-0\n\n";

/* Runs a shell command, returning its output's first line (static). */
static const char *run(const char *cmd)
{
    static char line[4096];
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    line[0] = 0;
    if (!fgets(line, sizeof line, f))
        line[0] = 0;
    while (fgetc(f) != EOF) {
    }
    pclose(f);
    line[strcspn(line, "\n")] = 0;
    return line;
}

static void test_built_from_records_shown_and_played(void **state)
{
    (void)state;
    char pgn[] = "/tmp/stern-test-games-XXXXXX", book[64], cmd[512];
    const int fd = mkstemp(pgn);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, RECORDS, sizeof RECORDS - 1), (ssize_t)(sizeof RECORDS - 1));
    close(fd);
    snprintf(book, sizeof book, "%s.bin", pgn);
    snprintf(cmd, sizeof cmd, "%s pgn -o %s %s", book_tool, book, pgn);
    assert_non_null(strstr(run(cmd), ": 7 entries from 3 games of classic-2 (first 20 plies)"));
    snprintf(cmd, sizeof cmd, "%s show %s | sed -n 2p", book_tool, book);
    /* j4-i5: two wins (2 + 2); k3-i5 a loss (0) */
    assert_string_equal(run(cmd), "  j4-i5                    weight     4 learn 0");
    /* black's e14-f13 after j4-i5 lost once: weight 0 */
    snprintf(cmd, sizeof cmd, "%s show %s startpos moves j4-i5 | tail -n +2 | tr -s ' ' | sort", book_tool, book);
    assert_string_equal(run(cmd), " e14-f13 weight 0 learn 0");
    snprintf(cmd, sizeof cmd, "%s verify %s > /dev/null", book_tool, book);
    assert_int_equal(system(cmd), 0);
    /* the engine plays the book's move, and the learned results change the choice */
    EPipe *e = epipe_start();
    epipe_send(e, "setoption name BookFile value %s", book);
    epipe_send(e, "position startpos");
    epipe_send(e, "go movetime 50");
    epipe_expect(e, "info string book j4-i5 weight 4 learn 0");
    /* with a line of its own (a one-ply search of the book move), as every answer has */
    const char *info = epipe_expect_line(e, EPIPE_TIMEOUT_MS, "the book move's line");
    if (strncmp(info, "info depth 1 ", 13) || !strstr(info, " score cp ") || !strstr(info, " pv j4-i5"))
        fail_msg("the book move's line: '%s'", info);
    epipe_expect(e, "bestmove j4-i5");
    /* depth limits and searchmoves always search */
    char *last = NULL;
    EPipeLines lines = {0};
    epipe_send(e, "go depth 1");
    epipe_collect(e, "bestmove", true, EPIPE_TIMEOUT_MS, &lines, &last);
    assert_true(lines.n > 0 && !strncmp(lines.line[0], "info depth 1 ", 13));
    free(last);
    epipe_lines_free(&lines);
    epipe_send(e, "go movetime 50 searchmoves j4-j5");
    epipe_collect(e, "bestmove", true, EPIPE_TIMEOUT_MS, &lines, &last);
    assert_string_equal(last, "bestmove j4-j5");
    free(last);
    epipe_lines_free(&lines);
    /* OwnBook false: a search */
    epipe_send(e, "setoption name OwnBook value false");
    epipe_send(e, "go movetime 50");
    epipe_collect(e, "bestmove", true, EPIPE_TIMEOUT_MS, &lines, &last);
    assert_true(lines.n > 0 && !strncmp(lines.line[0], "info depth ", 11));
    free(last);
    epipe_lines_free(&lines);
    epipe_kill(e);
    snprintf(cmd, sizeof cmd, "%s learn %s %s", book_tool, book, pgn);
    assert_non_null(strstr(run(cmd), ": 8 book moves learned from 3 games"));
    snprintf(cmd, sizeof cmd, "%s show %s | sed -n 2p", book_tool, book);
    assert_string_equal(run(cmd), "  j4-i5                    weight     4 learn 2");
    unlink(pgn);
    unlink(book);
}

/* The same build command gives the same file, whatever the number of engine
 * processes; the file verifies, and the start has `-width` moves. */
static void test_build_by_search_is_reproducible(void **state)
{
    (void)state;
    char a[] = "/tmp/stern-test-build-XXXXXX", b[64], cmd[512];
    const int fd = mkstemp(a);
    assert_true(fd >= 0);
    close(fd);
    snprintf(b, sizeof b, "%s.2", a);
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd,
                 "%s build -variant classic-3 -plies 3 -width 3 -nodes 3000 -option Search=brs "
                 "-concurrency %d -engine %s -o %s 2>/dev/null", book_tool,
                 k + 1, epipe_binary(), k ? b : a);
        assert_non_null(strstr(run(cmd), "positions searched (classic-3, 3 plies, width 3, margin 40 cp, 3000 nodes)"));
    }
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s verify %s > /dev/null", book_tool, a);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s show %s | head -1", book_tool, a);
    assert_non_null(strstr(run(cmd), ": 3 book moves in "));
    unlink(a);
    unlink(b);
}

/* Runs a shell command with its stderr joined to its stdout: that output
 * (static) and the exit status in *status. */
static const char *run_all(const char *cmd, int *status)
{
    static char out[8192];
    char full[2048 + 8];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *f = popen(full, "r");
    assert_non_null(f);
    const size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    const int st = pclose(f);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

/* `cmd` fails with exit status 1, saying `what`, and nothing from a sanitizer
 * (a leak at the refusal, under `make asan`). */
static void assert_refused(const char *cmd, const char *what)
{
    int status;
    const char *out = run_all(cmd, &status);
    if (status != 1 || !strstr(out, what) || strstr(out, "Sanitizer") || strstr(out, "runtime error"))
        fail_msg("'%s' (exit %d) said '%s', not '%s'", cmd, status, out, what);
}

/* `cmd` fails with exit status 1, and its whole output (stderr with stdout) is
 * `want`: under `make asan` a leak's report would follow it. */
static void assert_refused_exactly(const char *cmd, const char *want)
{
    int status;
    const char *out = run_all(cmd, &status);
    if (status != 1 || strcmp(out, want))
        fail_msg("'%s' (exit %d) said '%s', not '%s'", cmd, status, out, want);
}

#define SHARDED "-variant classic-2 -plies 5 -width 3 -margin 40 -nodes 1000"

/* The three parts of a build sharded 3 ways merge into the file the same build
 * writes in one process, though the shards' subtrees meet (a position two parts
 * hold); a task run again writes the same part, here with the shard from a
 * Slurm array's variables. A shard missing, one given twice, a part of another
 * build, two parts that disagree, a book among parts: refused, saying which. */
static void test_sharded_build_merges_into_the_one_process_book(void **state)
{
    (void)state;
    char dir[] = "/tmp/stern-test-shard-XXXXXX", cmd[2048];
    assert_non_null(mkdtemp(dir));
    int status;
    snprintf(cmd, sizeof cmd, "%s build " SHARDED " -engine %s -o %s/one.bin", book_tool, epipe_binary(), dir);
    assert_non_null(strstr(run_all(cmd, &status), "entries from"));
    assert_int_equal(status, 0);
    for (int k = 1; k <= 3; k++) {
        snprintf(cmd, sizeof cmd, "%s build " SHARDED " -shard %d/3 -engine %s -o %s/part-%d", book_tool, k,
                 epipe_binary(), dir, k);
        const char *out = run_all(cmd, &status);
        assert_int_equal(status, 0);
        char want[64];
        snprintf(want, sizeof want, "part-%d: shard %d/3, ", k, k);
        if (!strstr(out, want))
            fail_msg("shard %d said '%s'", k, out);
    }
    snprintf(cmd, sizeof cmd, "%s merge -o %s/merged.bin %s/part-3 %s/part-1 %s/part-2", book_tool, dir, dir, dir, dir);
    assert_non_null(strstr(run_all(cmd, &status), "merged.bin: "));
    assert_int_equal(status, 0);
    snprintf(cmd, sizeof cmd, "cmp %s/one.bin %s/merged.bin", dir, dir);
    assert_int_equal(system(cmd), 0);
    /* the merged book freed when it cannot be written */
    snprintf(cmd, sizeof cmd, "%s merge -o %s/none/merged.bin %s/part-3 %s/part-1 %s/part-2", book_tool, dir, dir, dir,
             dir);
    char want[512];
    snprintf(want, sizeof want, "stern-book: %s/none/merged.bin: cannot write: No such file or directory\n", dir);
    assert_refused_exactly(cmd, want);
    /* the subtrees met: some position is in two parts, not in all three as the
     * top of the tree is */
    BookPart parts[3];
    char path[3][128], err[512];
    for (int k = 0; k < 3; k++) {
        snprintf(path[k], sizeof path[k], "%s/part-%d", dir, k + 1);
        if (book_part_load(&parts[k], path[k], err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(parts[k].k, k + 1);
    }
    int in_two = 0;
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < parts[k].book.n; i++) {
            if (i && parts[k].book.e[i].key == parts[k].book.e[i - 1].key)
                continue;
            int holders = 1;
            for (int o = 0; o < 3; o++) {
                size_t first;
                holders += o != k && book_find(&parts[o].book, parts[k].book.e[i].key, &first) > first;
            }
            in_two += holders == 2;
        }
    for (int k = 0; k < 3; k++)
        book_part_free(&parts[k]);
    assert_true(in_two > 0);
    /* shard 2 again, from a Slurm array task's index (--array=0-2, task 1) */
    snprintf(cmd, sizeof cmd,
             "env -u JOB_COMPLETION_INDEX SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=1 "
             "SLURM_ARRAY_TASK_COUNT=3 %s build " SHARDED " -shard auto -engine %s -o %s/again", book_tool,
             epipe_binary(), dir);
    assert_non_null(strstr(run_all(cmd, &status), "again: shard 2/3, "));
    snprintf(cmd, sizeof cmd, "cmp %s/part-2 %s/again", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX %s build " SHARDED
                              " -shard auto -o %s/none", book_tool, dir);
    assert_refused(cmd, "-shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm array job) nor JOB_COMPLETION_INDEX");
    /* the wrong sets of parts */
    snprintf(cmd, sizeof cmd, "%s merge -o %s/bad.bin %s/part-1 %s/part-3", book_tool, dir, dir, dir);
    assert_refused(cmd, "missing shard 2/3: run stern-book build " SHARDED " -shard 2/3 -o FILE");
    snprintf(cmd, sizeof cmd, "%s merge -o %s/bad.bin %s/part-1", book_tool, dir, dir);
    assert_refused(cmd, "missing shards 2/3, 3/3: run stern-book build " SHARDED " -shard K/3 -o FILE for each");
    snprintf(cmd, sizeof cmd, "%s merge -o %s/bad.bin %s/part-1 %s/part-2 %s/again %s/part-3", book_tool, dir, dir,
             dir, dir, dir);
    char twice[256];
    snprintf(twice, sizeof twice, "shard 2/3 given twice: %s/part-2 and %s/again", dir, dir);
    assert_refused(cmd, twice);
    snprintf(cmd, sizeof cmd,
             "%s build -variant classic-2 -plies 5 -width 3 -nodes 900 -shard 2/3 -engine %s -o %s/other", book_tool,
             epipe_binary(), dir);
    run_all(cmd, &status);
    assert_int_equal(status, 0);
    snprintf(cmd, sizeof cmd, "%s merge -o %s/bad.bin %s/part-1 %s/other %s/part-3", book_tool, dir, dir, dir, dir);
    assert_refused(cmd, "are parts of different builds: '" SHARDED "' shard 1/3 against '-variant classic-2 -plies 5 "
                        "-width 3 -margin 40 -nodes 900' shard 2/3");
    /* every weight of a part changed: the start position's entries are in every part */
    snprintf(cmd, sizeof cmd, "awk 'NR >= 7 && $0 != \"end\" { $3 = $3 + 1 } { print }' %s/part-2 > %s/changed", dir,
             dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s merge -o %s/bad.bin %s/part-1 %s/changed %s/part-3", book_tool, dir, dir, dir, dir);
    assert_refused(cmd, "/part-1 and ");
    assert_refused(cmd, "/changed disagree on the moves of position ");
    snprintf(cmd, sizeof cmd, "head -n 9 %s/part-2 > %s/cut", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s merge -o %s/bad.bin %s/part-1 %s/cut %s/part-3", book_tool, dir, dir, dir, dir);
    assert_refused(cmd, "/cut:9: cut off: run its shard again");
    snprintf(cmd, sizeof cmd, "%s merge -o %s/bad.bin %s/part-1 %s/one.bin", book_tool, dir, dir, dir);
    assert_refused(cmd, "one.bin is not a part of a sharded build (the first input is): merge parts with parts only");
    snprintf(cmd, sizeof cmd, "%s merge -o %s/bad.bin %s/one.bin %s/part-1", book_tool, dir, dir, dir);
    assert_refused(cmd, "part-1 is a part of a sharded build, ");
    snprintf(cmd, sizeof cmd, "test ! -e %s/bad.bin && rm -r %s", dir, dir);
    assert_int_equal(system(cmd), 0);
}

static void test_bad_files_are_refused_and_the_engine_plays_on(void **state)
{
    (void)state;
    middle("classic-2", 2);
    Book b;
    book_init(&b, "classic-2");
    MoveList list = {0};
    gen_moves(&g.pos, &list, NULL);
    for (int i = 0; i < list.n; i++)
        assert_true(book_add(&b, &g.pos, &list.m[i], i + 1, 0));
    book_finish(&b);
    char good[] = "/tmp/stern-test-good-XXXXXX";
    const int fd = mkstemp(good);
    assert_true(fd >= 0);
    close(fd);
    char err[512];
    assert_int_equal(book_save(&b, good, err, sizeof err), 0);
    const long size = BOOK_HEADER_BYTES + (long)b.n * BOOK_ENTRY_BYTES;
    static const struct {
        long n, flip;
        const char *variant, *fault;
    } cases[] = {
        {BOOK_HEADER_BYTES + 3 * BOOK_ENTRY_BYTES + 5, -1, "classic-2", "truncated (3 of "},
        {-1, BOOK_HEADER_BYTES + 20, "classic-2", "checksum mismatch: corrupt"},
        {-1, 2, "classic-2", "not a Stern book"},
        {-1, -1, "classic-3", "a book of classic-2, not classic-3"},
        {20, -1, "classic-2", "not a Stern book (no STERNBK1 header)"},
    };
    char bad[64];
    snprintf(bad, sizeof bad, "%s.bad", good);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        copy_file(good, bad, cases[k].n < 0 ? size : cases[k].n, cases[k].flip);
        Book r;
        assert_int_equal(book_load(&r, bad, cases[k].variant, err, sizeof err), -1);
        if (!strstr(err, cases[k].fault))
            fail_msg("case %zu: '%s' does not say '%s'", k, err, cases[k].fault);
        assert_int_equal(r.n, 0);
        EPipe *e = epipe_start();
        epipe_send(e, "setoption name Variant value %s", cases[k].variant);
        epipe_send(e, "setoption name BookFile value %s", bad);
        char *line = epipe_expect_line(e, EPIPE_TIMEOUT_MS, "the book's error");
        /* a book of another variant is kept for that one (a GUI may set the
         * file before the variant); a file that is no good book is refused */
        const bool other = strstr(cases[k].fault, "a book of ") != NULL;
        if (other ? strncmp(line, "info string book: ", 18) || !strstr(line, "is a book of classic-2: used when")
                  : strncmp(line, "info string error setoption: BookFile: ", 39) || !strstr(line, cases[k].fault))
            fail_msg("case %zu: engine said '%s'", k, line);
        epipe_send(e, "go depth 1");
        char *last = NULL;
        EPipeLines lines = {0};
        epipe_collect(e, "bestmove", true, EPIPE_TIMEOUT_MS, &lines, &last);
        for (int i = 0; i < lines.n; i++)
            assert_null(strstr(lines.line[i], "book")); /* said once, then no book */
        free(last);
        epipe_lines_free(&lines);
        epipe_kill(e);
    }
    /* a refused file changes nothing: the good book stays in use */
    copy_file(good, bad, 2, -1);
    EPipe *e = epipe_start();
    epipe_send(e, "setoption name BookFile value %s", good);
    epipe_send(e, "setoption name BookFile value %s", bad);
    char *line = epipe_expect_line(e, EPIPE_TIMEOUT_MS, "the refusal");
    if (strncmp(line, "info string error setoption: BookFile: ", 39))
        fail_msg("a truncated file: engine said '%s'", line);
    epipe_send(e, "position fen %s", fen_now(&g.pos));
    epipe_send(e, "go movetime 50");
    line = epipe_expect_line(e, EPIPE_TIMEOUT_MS, "the book's move");
    if (strncmp(line, "info string book ", 17))
        fail_msg("after a refused BookFile the book in use answered '%s'", line);
    epipe_kill(e);
    unlink(bad);
    unlink(good);
    book_free(&b);
    move_list_free(&list);
}

/* A book whose header names a variant this engine does not know, or none, is
 * refused by the engine with the reason stern-book verify gives, word for word
 * (one check, book_variant_known), and so is a part of a sharded build. Before,
 * the engine kept it "for" that variant ("is a book of : used when the variant
 * is "), which no game ever has. */
static void test_a_book_of_an_unknown_variant_is_refused_as_verify_refuses(void **state)
{
    (void)state;
    middle("classic-2", 2);
    Book b;
    book_init(&b, "classic-2");
    MoveList list = {0};
    gen_moves(&g.pos, &list, NULL);
    assert_true(book_add(&b, &g.pos, &list.m[0], 1, 0));
    book_finish(&b);
    char path[] = "/tmp/stern-test-unknown-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    static const struct {
        const char *name, *reason;
    } cases[] = {
        {"bogus", "unknown variant 'bogus'"},
        {"", "unknown variant '' (its header names none)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char err[512], want[1024], cmd[1024];
        snprintf(b.variant, sizeof b.variant, "%s", cases[k].name); /* the header's name, as saved */
        assert_int_equal(book_save(&b, path, err, sizeof err), 0);
        Book r;
        assert_int_equal(book_load(&r, path, NULL, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s: %s", path, cases[k].reason);
        assert_string_equal(err, want);
        assert_int_equal(book_load(&r, path, "classic-2", err, sizeof err), -1);
        assert_string_equal(err, want);
        /* stern-book verify, show and stats say it so */
        static const char *const commands[] = {"verify", "show", "stats"};
        for (int c = 0; c < 3; c++) {
            snprintf(cmd, sizeof cmd, "%s %s %s", book_tool, commands[c], path);
            snprintf(want, sizeof want, "stern-book: %s: %s\n", path, cases[k].reason);
            assert_refused_exactly(cmd, want);
        }
        /* and the engine, which plays on without it */
        EPipe *e = epipe_start();
        epipe_send(e, "setoption name BookFile value %s", path);
        snprintf(want, sizeof want, "info string error setoption: BookFile: %s: %s", path, cases[k].reason);
        epipe_expect(e, want);
        epipe_sync(e);
        epipe_kill(e);
    }
    /* a part of a sharded build that names an unknown variant */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("stern-book part 1\nbuild -variant bogus\nvariant bogus\nshard 1/1\nsplit -1\nentries 0\nend\n", f);
    fclose(f);
    BookPart part;
    char err[512], want[1024];
    assert_int_equal(book_part_load(&part, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:3: unknown variant 'bogus'", path);
    assert_string_equal(err, want);
    unlink(path);
    book_free(&b);
    move_list_free(&list);
}

/* Every refusal of stern-book frees what it holds when it refuses: the books
 * read so far, the book being built or merged, the positions of a build. Its
 * whole output is the refusal, so that under `make asan` (stern-book built with
 * LeakSanitizer) a leak's report fails the test. Before, merge of a non-book
 * after a book, show with a bad FEN or move, pgn and learn of a missing record,
 * a failed write and a build whose engine failed at the second ply leaked. */
static void test_stern_book_refusals_free_what_they_hold(void **state)
{
    (void)state;
    char dir[] = "/tmp/stern-test-refusals-XXXXXX", cmd[2048], want[2048];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "cp book/classic-2.bin %s/good.bin && cp %s/good.bin %s/bogus.bin && "
             "printf 'bogus\\0\\0\\0\\0' | dd of=%s/bogus.bin bs=1 seek=16 conv=notrunc 2>/dev/null",
             dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    char pgn[160];
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    FILE *f = fopen(pgn, "w");
    assert_non_null(f);
    fputs(RECORDS, f);
    fclose(f);
    const struct {
        const char *args, *says; /* %1$s: the directory */
    } cases[] = {
        {"merge -o %1$s/out.bin %1$s/good.bin %1$s/games.pgn", "%1$s/games.pgn: not a Stern book (no STERNBK1 header)"},
        {"merge -o %1$s/out.bin %1$s/good.bin %1$s/bogus.bin", "%1$s/bogus.bin: unknown variant 'bogus'"},
        {"merge -o %1$s/none/out.bin %1$s/good.bin", "%1$s/none/out.bin: cannot write: No such file or directory"},
        {"verify %1$s/bogus.bin", "%1$s/bogus.bin: unknown variant 'bogus'"},
        {"show %1$s/bogus.bin", "%1$s/bogus.bin: unknown variant 'bogus'"},
        {"show %1$s/good.bin fen junk", "fen: fen: expected 4 fields (board, side to move, seats, round), got 1"},
        {"show %1$s/good.bin moves a1-a2", "move 'a1-a2': bad move 'a1-a2': expected a hole name at 'a1-a2'"},
        {"pgn -o %1$s/p.bin %1$s/games.pgn %1$s/missing.pgn", "%1$s/missing.pgn: cannot open"},
        {"pgn -o %1$s/none/p.bin %1$s/games.pgn", "%1$s/none/p.bin: cannot write: No such file or directory"},
        {"learn %1$s/good.bin %1$s/missing.pgn", "%1$s/missing.pgn: cannot open"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char args[512], says[512];
        snprintf(args, sizeof args, cases[k].args, dir);
        snprintf(says, sizeof says, cases[k].says, dir);
        snprintf(cmd, sizeof cmd, "%s %s", book_tool, args);
        snprintf(want, sizeof want, "stern-book: %s\n", says);
        assert_refused_exactly(cmd, want);
    }
    /* a build whose engine fails once the first ply is done: the positions of
     * the next ply and their lines are held then (the engine: the one under
     * test the first time it is started, then a command that fails) */
    char script[160];
    snprintf(script, sizeof script, "%s/engine.sh", dir);
    f = fopen(script, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n[ -e %s/started ] && exit 1\ntouch %s/started\nexec %s \"$@\"\n", dir, dir,
            epipe_binary());
    fclose(f);
    assert_int_equal(chmod(script, 0700), 0);
    snprintf(cmd, sizeof cmd,
             "%s build -variant classic-2 -plies 3 -width 2 -nodes 100 -concurrency 1 -engine %s -o %s/b.bin", book_tool,
             script, dir);
    int status;
    const char *out = run_all(cmd, &status);
    /* how the engine's end shows (its output or input closed) is a matter of timing */
    snprintf(want, sizeof want,
             "stern-book: ply 1 done: 1 positions searched, 2 entries\nstern-book: position after 'j4-j5': engine "
             "'%s': engine closed its ",
             script);
    const bool begins = !strncmp(out, want, strlen(want));
    const char *rest = begins ? out + strlen(want) : out;
    if (status != 1 || !begins || strchr(rest, '\n') != rest + strlen(rest) - 1)
        fail_msg("'%s' (exit %d) said '%s', not '%s...' on one line", cmd, status, out, want);
    snprintf(cmd, sizeof cmd, "test ! -e %s/out.bin && test ! -e %s/b.bin && rm -r %s", dir, dir, dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    board_init();
    static char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", tool("stern-book")); /* tool's buffers are reused */
    book_tool = path;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_seats_fold_the_other_seat_and_the_mirror),
        cmocka_unit_test(test_three_and_six_seats_fold_the_seats_not_the_mirror),
        cmocka_unit_test(test_positions_that_differ_have_different_keys),
        cmocka_unit_test(test_one_canonical_position_per_key),
        cmocka_unit_test(test_file_round_trip_merges_and_sorts),
        cmocka_unit_test(test_built_from_records_shown_and_played),
        cmocka_unit_test(test_build_by_search_is_reproducible),
        cmocka_unit_test(test_sharded_build_merges_into_the_one_process_book),
        cmocka_unit_test(test_bad_files_are_refused_and_the_engine_plays_on),
        cmocka_unit_test(test_a_book_of_an_unknown_variant_is_refused_as_verify_refuses),
        cmocka_unit_test(test_stern_book_refusals_free_what_they_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
