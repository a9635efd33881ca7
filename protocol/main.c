/* main.c - the stern engine binary: the protocol loop on stdin/stdout, or, from
 * the command line, --help, --version and bench. */
#include "bench.h"
#include "evalfile.h"
#include "options.h"
#include "uci.h"
#include "web.h"
#include "words.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_OPTIONS 64 /* --option arguments at most */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: stern                          the engine: protocol commands on stdin (docs/PROTOCOL.md)\n"
            "       stern --ccp                    the same in the rating list's protocol CCP and rules\n"
            "                                      ccerl-2 (docs/CCERL.md); a first line `ccp` does the same\n"
            "       stern [--ccp] --option NAME=VALUE ...\n"
            "                                      either, with options set before the first command, as\n"
            "                                      setoption would (e.g. --option nodestime=100)\n"
            "       stern bench [depth] [threads] [hash]\n"
            "                                      search the bench positions and exit (default depth %d,\n"
            "                                      %lld thread%s, %lld MiB); the node count is the search's signature\n"
            "       stern --version                the name and version\n"
            "       stern --help                   this text\n",
            BENCH_DEFAULT_DEPTH, options_table[OPT_THREADS].def, options_table[OPT_THREADS].def == 1 ? "" : "s",
            options_table[OPT_HASH].def);
}

static void print_line(const char *line, void *ctx)
{
    (void)ctx;
    printf("%s\n", line);
    fflush(stdout);
}

/* Reads argument `text` of `stern bench`, named `name`, an integer within
 * [lo, hi], into *out; else says so on stderr and returns false. */
static bool bench_arg(const char *name, const char *text, long long lo, long long hi, long long *out)
{
    if (words_int(text, lo, hi, out))
        return true;
    fprintf(stderr, "stern bench: %s must be an integer from %lld to %lld, not '%s'\n", name, lo, hi, text);
    return false;
}

/* `stern bench [depth] [threads] [hash]`, as Stockfish and Ethereal take it. */
static int bench_command(int argc, char **argv)
{
    const Option *threads_option = &options_table[OPT_THREADS], *hash_option = &options_table[OPT_HASH];
    long long depth = BENCH_DEFAULT_DEPTH, threads = threads_option->def, hash = hash_option->def;
    if (argc > 5) {
        usage(stderr);
        return 2;
    }
    if ((argc > 2 && !bench_arg("depth", argv[2], 1, MAX_PLY - 1, &depth)) ||
        (argc > 3 && !bench_arg("threads", argv[3], threads_option->min, threads_option->max, &threads)) ||
        (argc > 4 && !bench_arg("hash", argv[4], hash_option->min, hash_option->max, &hash)))
        return 2;
    SearchSession *session = session_new((size_t)hash, (int)threads);
    if (!session || session_ready(session) < (size_t)hash) {
        fprintf(stderr, "stern bench: cannot allocate a %lld MiB hash table\n", hash);
        session_delete(session);
        return 1;
    }
    /* the engine's option defaults, so that both ways in search alike: the
     * net EvalFile auto finds for classic-2 evaluates the positions of the
     * variants it serves, as the bench command's does */
    SearchConfig config = options_search_defaults();
    EvalFile evalfile;
    evalfile_init(&evalfile);
    config.net = evalfile_net(&evalfile, variant_find("classic-2"), NULL, 0);
    const uint64_t nodes = bench_run(session, (int)depth, &config, NULL, print_line, NULL);
    evalfile_free(&evalfile);
    session_delete(session);
    return nodes ? 0 : 1; /* 0 nodes: out of memory */
}

/* `stern [--ccp] [--option NAME=VALUE]...`: the protocol loop, the options set
 * before the first command. */
static int engine_command(int argc, char **argv)
{
    bool ccp = false;
    const char *options[MAX_OPTIONS];
    int noptions = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ccp") && !ccp) {
            ccp = true;
        } else if (!strcmp(argv[i], "--option") && i + 1 < argc && noptions < MAX_OPTIONS) {
            options[noptions++] = argv[++i];
        } else {
            fprintf(stderr, "stern: %s '%s'\n",
                    !strcmp(argv[i], "--option") ? (i + 1 < argc ? "too many options at" : "a value is missing after")
                                                 : "unknown argument",
                    argv[i]);
            usage(stderr);
            return 2;
        }
    }
#ifdef __EMSCRIPTEN__
    const int in_fd = web_input_fd(); /* the page's lines (stern_input) */
    if (in_fd < 0) {
        fprintf(stderr, "stern: cannot make the input pipe\n");
        return 1;
    }
#else
    const int in_fd = STDIN_FILENO;
#endif
    return uci_loop(in_fd, stdout, ccp, options, noptions, stderr);
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN); /* a vanished GUI must not kill us mid-line */
    if (argc == 1 || !strcmp(argv[1], "--ccp") || !strcmp(argv[1], "--option"))
        return engine_command(argc, argv);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("%s %s\n", STERN_NAME, STERN_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "bench"))
        return bench_command(argc, argv);
    fprintf(stderr, "stern: unknown argument '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
