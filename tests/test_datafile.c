/*
 * test_datafile.c - a book or net path that names no regular file (a FIFO, a
 * directory, a device: engine/book/datafile.h) is refused at once with its
 * reason, wherever the file is opened: BookFile and EvalFile at `setoption`,
 * a book read when a `go` first needs it, the shipped book and net found beside
 * the engine, and stern-book. Before, a FIFO held the engine's only input
 * thread in open() and it answered nothing, not even `isready` (issue 53).
 */
#include "support/engine_pipe.h"
#include "support/stern_test.h"

#include "book.h"
#include "datafile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* An answer to a file that is not waited on comes at once: well within this,
 * even under the sanitizers (the engine's own start is waited for apart). */
#define PROMPT_MS 2000

static char dir[] = "/tmp/stern-test-datafile-XXXXXX";
static char fifo[128], subdir[128];

static int make_paths(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(subdir, sizeof subdir, "%s/dir", dir);
    return mkfifo(fifo, 0600) || mkdir(subdir, 0700) ? -1 : 0;
}

static int remove_paths(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) ? -1 : 0;
}

/* The next line of e is `want`, within PROMPT_MS. Else the engine, blocked
 * perhaps, is killed (so that it outlives no failed test) and the test fails. */
static void expect_promptly(EPipe *e, const char *want)
{
    char *line, said[1024];
    const int got = epipe_try_read(e, PROMPT_MS, &line);
    if (got == 1 && !strcmp(line, want))
        return;
    snprintf(said, sizeof said, "%s", got == 1 ? line : got ? "(the engine ended)" : "(nothing)");
    epipe_kill(e);
    fail_msg("waited %d ms for '%s': %s", PROMPT_MS, want, said);
}

/* Reads e's search up to its bestmove (it still plays), then ends it. */
static void answers_then_ends(EPipe *e)
{
    char *last = NULL;
    EPipeLines lines = {0};
    epipe_collect(e, "bestmove ", true, EPIPE_TIMEOUT_MS, &lines, &last);
    free(last);
    epipe_lines_free(&lines);
    epipe_kill(e);
}

/* An engine started and answering. */
static EPipe *ready_engine(void)
{
    EPipe *e = epipe_start();
    epipe_sync(e);
    return e;
}

static void test_datafile_reads_regular_files_and_names_the_rest(void **state)
{
    (void)state;
    char why[256], path[160];
    assert_null(datafile_open(fifo, why, sizeof why));
    assert_string_equal(why, "a FIFO, not a regular file");
    assert_null(datafile_open(subdir, why, sizeof why));
    assert_string_equal(why, "a directory, not a regular file");
    assert_null(datafile_open("/dev/null", why, sizeof why));
    assert_string_equal(why, "a character device, not a regular file");
    snprintf(path, sizeof path, "%s/missing", dir);
    assert_null(datafile_open(path, why, sizeof why));
    assert_string_equal(why, "cannot open: No such file or directory");
    snprintf(path, sizeof path, "%s/seven", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("1234567", f);
    fclose(f);
    size_t n = 99;
    uint8_t *bytes = datafile_read(path, 7, &n, why, sizeof why);
    assert_non_null(bytes);
    assert_int_equal(n, 7);
    assert_memory_equal(bytes, "1234567", 7);
    free(bytes);
    assert_null(datafile_read(path, 6, &n, why, sizeof why));
    assert_string_equal(why, "larger than 6 bytes");
    assert_int_equal(n, 0);
    assert_null(datafile_read(fifo, 6, &n, why, sizeof why));
    assert_string_equal(why, "a FIFO, not a regular file");
    unlink(path);
}

/* BookFile and EvalFile: a FIFO, a directory and a device are refused with
 * their kind, and the engine answers the isready after them. */
static void test_bookfile_and_evalfile_refuse_what_is_no_regular_file_at_once(void **state)
{
    (void)state;
    EPipe *e = ready_engine();
    const char *const paths[] = {fifo, subdir, "/dev/null"};
    const char *const kinds[] = {"a FIFO", "a directory", "a character device"};
    for (int k = 0; k < 3; k++) {
        char want[512];
        epipe_send(e, "setoption name BookFile value %s", paths[k]);
        epipe_send(e, "isready");
        snprintf(want, sizeof want, "info string error setoption: BookFile: %s: %s, not a regular file", paths[k],
                 kinds[k]);
        expect_promptly(e, want);
        expect_promptly(e, "readyok");
        epipe_send(e, "setoption name EvalFile value %s", paths[k]);
        epipe_send(e, "isready");
        snprintf(want, sizeof want,
                 "info string error setoption: EvalFile: %s: %s, not a regular file; the evaluation is as it was",
                 paths[k], kinds[k]);
        expect_promptly(e, want);
        expect_promptly(e, "readyok");
    }
    /* nothing changed: the engine still plays */
    epipe_send(e, "go depth 1");
    answers_then_ends(e);
}

/* A book of another variant is kept and read when a `go` of its variant first
 * needs it; a FIFO put in its place meanwhile is refused there, and the engine
 * searches instead. */
static void test_a_book_read_at_go_refuses_a_fifo(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/classic-3.bin", dir);
    Game g;
    assert_int_equal(game_new(&g, "classic-3"), 0);
    MoveList list = {0};
    gen_moves(&g.pos, &list, NULL);
    Book b;
    book_init(&b, "classic-3");
    assert_true(book_add(&b, &g.pos, &list.m[0], 10, 0));
    book_finish(&b);
    char err[512];
    assert_int_equal(book_save(&b, path, err, sizeof err), 0);
    book_free(&b);
    move_list_free(&list);
    EPipe *e = ready_engine();
    char want[512];
    epipe_send(e, "setoption name BookFile value %s", path);
    snprintf(want, sizeof want, "info string book: %s is a book of classic-3: used when the variant is classic-3",
             path);
    expect_promptly(e, want);
    epipe_sync(e); /* done with the file (it is read again after that line) */
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0600), 0);
    epipe_send(e, "setoption name Variant value classic-3");
    epipe_send(e, "position startpos");
    epipe_send(e, "go movetime 50");
    snprintf(want, sizeof want, "info string error book: %s: a FIFO, not a regular file", path);
    expect_promptly(e, want);
    char *last = NULL;
    EPipeLines lines = {0};
    epipe_collect(e, "bestmove ", true, EPIPE_TIMEOUT_MS, &lines, &last);
    if (lines.n < 1 || strncmp(lines.line[0], "info depth ", 11)) { /* searched */
        char got[4096];
        epipe_lines_dump(&lines, got, sizeof got);
        fail_msg("after the refusal: %s %s", got, last);
    }
    free(last);
    epipe_lines_free(&lines);
    epipe_kill(e);
    unlink(path);
}

/* The shipped book and net are looked up beside the engine binary: FIFOs
 * there are refused when the engine first needs them, the net at the first
 * isready (which readies what a search needs), the book at the first timed
 * go. The engine runs as a copy in a tree of its own, bin/stern with book/ and
 * nets/ beside bin/. */
static void test_shipped_fifos_are_refused_when_first_needed(void **state)
{
    (void)state;
    char cmd[1024], bin[160], book[160], net[160], want[512];
    snprintf(bin, sizeof bin, "%s/tree/bin/stern", dir);
    snprintf(book, sizeof book, "%s/tree/bin/../book/classic-2.bin", dir);
    snprintf(net, sizeof net, "%s/tree/bin/../nets/classic-2.nnue", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/tree/bin %s/tree/book %s/tree/nets && cp %s %s && mkfifo %s %s", dir, dir,
             dir, epipe_binary(), bin, book, net);
    assert_int_equal(system(cmd), 0);
    char *was = getenv("STERN_BIN") ? strdup(getenv("STERN_BIN")) : NULL;
    setenv("STERN_BIN", bin, 1);
    EPipe *e = epipe_start();
    if (was)
        setenv("STERN_BIN", was, 1);
    else
        unsetenv("STERN_BIN");
    free(was);
    epipe_send(e, "isready");
    snprintf(want, sizeof want,
             "info string the shipped net %s is refused: a FIFO, not a regular file; the hand-written evaluation plays",
             net);
    expect_promptly(e, want);
    expect_promptly(e, "readyok");
    epipe_send(e, "position startpos");
    epipe_send(e, "go movetime 50");
    snprintf(want, sizeof want, "info string error book: %s: a FIFO, not a regular file", book);
    expect_promptly(e, want);
    answers_then_ends(e);
}

/* The tools that read books, parts and nets the same way refuse a FIFO at
 * once, not waited on (stern-book's commands never ended, nor did stern-nnue
 * info: `timeout` ends them here): each command exits 1 naming it. */
static void test_stern_book_and_stern_nnue_refuse_a_fifo(void **state)
{
    (void)state;
    static const char *const commands[][2] = {{"stern-book", "verify %s"},
                                              {"stern-book", "show %s"},
                                              {"stern-book", "stats %s"},
                                              {"stern-book", "merge -o /dev/null %s"},
                                              {"stern-nnue", "info %s"}};
    for (size_t k = 0; k < sizeof commands / sizeof *commands; k++) {
        char args[256], cmd[1024], out[4096], want[512];
        snprintf(args, sizeof args, commands[k][1], fifo);
        snprintf(cmd, sizeof cmd, "timeout 10 %s %s 2>&1", tool(commands[k][0]), args);
        FILE *f = popen(cmd, "r");
        assert_non_null(f);
        out[fread(out, 1, sizeof out - 1, f)] = 0;
        const int st = pclose(f);
        snprintf(want, sizeof want, "%s: %s: a FIFO, not a regular file\n", commands[k][0], fifo);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || strcmp(out, want))
            fail_msg("'%s' (status %d) said '%s', not '%s'", cmd, st, out, want);
    }
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_datafile_reads_regular_files_and_names_the_rest),
        cmocka_unit_test(test_bookfile_and_evalfile_refuse_what_is_no_regular_file_at_once),
        cmocka_unit_test(test_a_book_read_at_go_refuses_a_fifo),
        cmocka_unit_test(test_shipped_fifos_are_refused_when_first_needed),
        cmocka_unit_test(test_stern_book_and_stern_nnue_refuse_a_fifo),
    };
    return cmocka_run_group_tests(tests, make_paths, remove_paths);
}
