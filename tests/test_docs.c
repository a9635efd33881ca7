/*
 * test_docs.c - the examples of the docs are run and their output compared, so
 * that a doc cannot go stale: README.md and the .md files of docs/ and tools/ mark each
 * example whose output they show with a line
 *
 *     <!-- output of: COMMAND -->
 *
 * right before the fenced block of that output. COMMAND runs through the shell
 * from the top directory (its `build/` is the directory of the engine under
 * test, $STERN_BIN's), and its standard output must equal the block, after
 * both have their times (`time N`, `nps N`, `Nodes/second: N`) made alike; a
 * line `…` in the block stands for any number of lines. A block that shows no
 * real output (a syntax, a made-up excerpt) has no such line.
 *
 * A promise the docs make in prose, which no example can show (a search that
 * waits, a bound at any thread count), names the tests that check it:
 *
 *     <!-- tested by: tests/FILE.c TEST_FUNCTION [TEST_FUNCTION ...] -->
 *
 * and each named test must be defined in FILE and run by its main (listed in
 * its table of tests), so that a promise cannot point at a test that is gone.
 */
#include "support/engine_pipe.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARK "<!-- output of: "
#define TESTED_MARK "<!-- tested by: "
#define OUT_MAX (1 << 20)
#define LINES_MAX 4096

/* Replaces the number after each of the words that measure time with '*'. */
static void normalize(char *s)
{
    static const char *const words[] = {" time ", " nps ", "Nodes/second: "};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        for (char *p = s; (p = strstr(p, words[k]));) {
            p += strlen(words[k]);
            char *e = p;
            while (isdigit((unsigned char)*e))
                e++;
            if (e > p) {
                *p = '*';
                memmove(p + 1, e, strlen(e) + 1);
            }
        }
}

/* Splits s into lines (in place); returns their number. */
static int split(char *s, char **line)
{
    int n = 0;
    for (char *p = s; *p && n < LINES_MAX;) {
        line[n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = 0;
        p = nl + 1;
    }
    return n;
}

static bool is_ellipsis(const char *l) { return !strcmp(l, "…") || !strcmp(l, "..."); }

/* Whether got[0..ng) matches want[0..nw), a `…` line of want matching any
 * number of lines. */
static bool matches(char **want, int nw, char **got, int ng)
{
    if (nw == 0)
        return ng == 0;
    if (is_ellipsis(want[0])) {
        for (int k = 0; k <= ng; k++)
            if (matches(want + 1, nw - 1, got + k, ng - k))
                return true;
        return false;
    }
    return ng > 0 && !strcmp(want[0], got[0]) && matches(want + 1, nw - 1, got + 1, ng - 1);
}

/* `command` with each "build/" at a word's start made the directory of the
 * engine under test, into buf (n bytes). */
static void localize(const char *command, const char *build, char *buf, size_t n)
{
    size_t o = 0;
    for (const char *p = command; *p && o + 1 < n;) {
        if (!strncmp(p, "build/", 6) && (p == command || strchr(" '\"|(;=", p[-1]))) {
            o += (size_t)snprintf(buf + o, n - o, "%s/", build);
            p += 6;
        } else {
            buf[o++] = *p++;
        }
    }
    buf[o < n ? o : n - 1] = 0;
}

/* Whether `text` holds `name` as a whole word right before `after` (e.g. the
 * test's name before "(void **state)"). */
static bool has_word_before(const char *text, const char *name, const char *after)
{
    const size_t n = strlen(name);
    for (const char *c = text; (c = strstr(c, name)); c += n) {
        const bool starts_word = c == text || !(isalnum((unsigned char)c[-1]) || c[-1] == '_');
        if (starts_word && !strncmp(c + n, after, strlen(after)))
            return true;
    }
    return false;
}

/* Checks one `tested by` mark's text ("tests/FILE.c NAME..."): NULL when the
 * file defines and runs every test named, else why not (a static buffer). */
static const char *tested_by_error(const char *spec)
{
    static char why[512];
    char copy[1024], file[256];
    snprintf(copy, sizeof copy, "%s", spec);
    char *save = NULL, *word = strtok_r(copy, " ", &save);
    if (!word || !strtok_r(NULL, "", &save))
        return "a 'tested by' mark names a file and at least one test";
    snprintf(file, sizeof file, "%s", word);
    FILE *f = fopen(file, "r");
    if (!f) {
        snprintf(why, sizeof why, "'%s' cannot be read", file);
        return why;
    }
    static char text[1 << 20];
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    snprintf(copy, sizeof copy, "%s", spec);
    strtok_r(copy, " ", &save);
    for (char *name; (name = strtok_r(NULL, " ", &save));) {
        if (!has_word_before(text, name, "(void **state)")) {
            snprintf(why, sizeof why, "%s defines no test '%s'", file, name);
            return why;
        }
        char listed[300], listed2[300];
        snprintf(listed, sizeof listed, "TEST(%s)", name);
        snprintf(listed2, sizeof listed2, "cmocka_unit_test(%s)", name);
        if (!strstr(text, listed) && !strstr(text, listed2)) {
            snprintf(why, sizeof why, "%s does not run '%s' (not in its table of tests)", file, name);
            return why;
        }
    }
    return NULL;
}

/* Checks every `tested by` mark of `path`; returns how many, failing the test
 * on the first that names a test not run. */
static int check_tested_marks(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    int marks = 0;
    for (int lineno = 1; fgets(line, sizeof line, f); lineno++) {
        const char *m = strstr(line, TESTED_MARK);
        if (!m)
            continue;
        const char *start = m + strlen(TESTED_MARK), *end = strstr(start, " -->");
        if (!end)
            fail_msg("%s:%d: a 'tested by' mark without its closing ' -->'", path, lineno);
        char spec[1024];
        snprintf(spec, sizeof spec, "%.*s", (int)(end - start), start);
        const char *why = tested_by_error(spec);
        if (why)
            fail_msg("%s:%d: %s", path, lineno, why);
        marks++;
    }
    fclose(f);
    return marks;
}

/* Runs every example of `path`; returns how many, failing the test on the
 * first whose output differs. */
static int check_file(const char *path, const char *build)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 20];
    const size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = 0;
    fclose(f);
    int examples = 0, lineno = 1;
    for (char *p = text; *p; lineno++) {
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        if (strncmp(p, MARK, strlen(MARK))) {
            p = nl + 1;
            continue;
        }
        const int mark_line = lineno;
        char *end = strstr(p, " -->");
        if (!end || end > nl)
            fail_msg("%s:%d: an example mark without its closing ' -->'", path, mark_line);
        char command[4096], local[8192];
        snprintf(command, sizeof command, "%.*s", (int)(end - p - strlen(MARK)), p + strlen(MARK));
        /* the fenced block right after it */
        char *fence = nl + 1;
        if (strncmp(fence, "```", 3))
            fail_msg("%s:%d: an example mark not followed by a ``` block", path, mark_line);
        char *body = strchr(fence, '\n');
        char *close = body ? strstr(body + 1, "\n```") : NULL;
        if (!body || !close)
            fail_msg("%s:%d: the example's block is not closed", path, mark_line);
        static char want[OUT_MAX], got[OUT_MAX];
        snprintf(want, sizeof want, "%.*s", (int)(close - body - 1), body + 1);
        localize(command, build, local, sizeof local);
        char shell[20100];
        /* the command's single quotes, inside the single quotes of sh -c */
        char quoted[20000];
        size_t o = 0;
        for (const char *c = local; *c && o + 5 < sizeof quoted; c++) {
            if (*c == '\'') {
                memcpy(quoted + o, "'\\''", 4);
                o += 4;
            } else {
                quoted[o++] = *c;
            }
        }
        quoted[o] = 0;
        snprintf(shell, sizeof shell, "timeout 120 sh -c '%s' </dev/null 2>/dev/null", quoted);
        FILE *run = popen(shell, "r");
        assert_non_null(run);
        const size_t n = fread(got, 1, sizeof got - 1, run);
        got[n] = 0;
        pclose(run);
        if (n && got[n - 1] == '\n')
            got[n - 1] = 0;
        normalize(want);
        normalize(got);
        static char *wl[LINES_MAX], *gl[LINES_MAX];
        static char want_copy[OUT_MAX], got_copy[OUT_MAX];
        memcpy(want_copy, want, sizeof want);
        memcpy(got_copy, got, sizeof got);
        const int nw = split(want_copy, wl), ng = split(got_copy, gl);
        if (!matches(wl, nw, gl, ng)) {
            int k = 0;
            while (k < nw && k < ng && !strcmp(wl[k], gl[k]))
                k++;
            if (k < nw && is_ellipsis(wl[k])) /* past an elision: the ends tell */
                fail_msg("%s:%d: the output of `%s` does not end as the doc's:\n  doc:    %s\n  output: %s", path,
                         mark_line, command, wl[nw - 1], ng ? gl[ng - 1] : "(nothing)");
            fail_msg("%s:%d: the output of `%s` differs from the doc at its line %d:\n  doc:    %s\n  output: %s",
                     path, mark_line, command, k + 1, k < nw ? wl[k] : "(end)", k < ng ? gl[k] : "(end)");
        }
        examples++;
        p = close + 4;
        for (char *c = nl; c < p; c++)
            lineno += *c == '\n';
    }
    return examples;
}

static void test_every_example_prints_what_its_doc_shows(void **state)
{
    (void)state;
    char build[4096];
    snprintf(build, sizeof build, "%s", epipe_binary());
    char *slash = strrchr(build, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(build, sizeof build, ".");
    glob_t docs;
    assert_int_equal(glob("docs/*.md", 0, NULL, &docs), 0);
    assert_int_equal(glob("tools/*.md", GLOB_APPEND, NULL, &docs), 0);
    int examples = check_file("README.md", build);
    for (size_t k = 0; k < docs.gl_pathc; k++)
        examples += check_file(docs.gl_pathv[k], build);
    globfree(&docs);
    assert_true(examples >= 12); /* the marks were found */
}

static void test_every_promise_names_tests_that_run(void **state)
{
    (void)state;
    glob_t docs;
    assert_int_equal(glob("docs/*.md", 0, NULL, &docs), 0);
    assert_int_equal(glob("tools/*.md", GLOB_APPEND, NULL, &docs), 0);
    int marks = check_tested_marks("README.md");
    for (size_t k = 0; k < docs.gl_pathc; k++)
        marks += check_tested_marks(docs.gl_pathv[k]);
    globfree(&docs);
    assert_true(marks >= 5); /* the marks were found */
}

/* The mark checker itself: a test defined and run passes; one not defined,
 * defined but not run, or a missing file, does not. */
static void test_a_promise_naming_a_missing_test_fails(void **state)
{
    (void)state;
    assert_null(tested_by_error("tests/test_docs.c test_a_changed_example_fails"));
    assert_non_null(tested_by_error("tests/test_docs.c test_that_does_not_exist"));
    assert_non_null(tested_by_error("tests/no_such_file.c test_a_changed_example_fails"));
    assert_non_null(tested_by_error("tests/test_docs.c"));
    char path[] = "/tmp/stern-docs-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("static void test_orphan(void **state) {}\nint main(void) { TEST(test_other); }\n", f);
    fclose(f);
    char spec[128];
    snprintf(spec, sizeof spec, "%s test_orphan", path);
    assert_non_null(tested_by_error(spec));
    remove(path);
}

/* The checker itself: a doc whose block shows the output passes (a `…` line
 * standing for lines); a changed line, or lines the output lacks, do not
 * match. */
static void test_a_changed_example_fails(void **state)
{
    (void)state;
    char path[] = "/tmp/stern-docs-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("x\n" MARK "printf 'a\\nb\\nc\\n' -->\n```\na\n…\nc\n```\n", f);
    fclose(f);
    assert_int_equal(check_file(path, "build"), 1);
    remove(path);
    static char *wl[8], *gl[8];
    char want1[] = "a\nB\nc", got1[] = "a\nb\nc";
    assert_false(matches(wl, split(want1, wl), gl, split(got1, gl)));
    char want2[] = "a\nb\nc\nd", got2[] = "a\nb\nc";
    assert_false(matches(wl, split(want2, wl), gl, split(got2, gl)));
    char want3[] = "a\n…\nc", got3[] = "a\nc";
    assert_true(matches(wl, split(want3, wl), gl, split(got3, gl)));
    char want4[] = "info depth 1 nodes 9 nps 12 time 3", got4[] = "info depth 1 nodes 9 nps 4500 time 0";
    normalize(want4);
    normalize(got4);
    assert_string_equal(want4, got4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_changed_example_fails),
        cmocka_unit_test(test_every_example_prints_what_its_doc_shows),
        cmocka_unit_test(test_a_promise_naming_a_missing_test_fails),
        cmocka_unit_test(test_every_promise_names_tests_that_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
