/*
 * board_main.c - stern-board: serves the table (docs/BOARD.md), a web page for
 * playing and analysing with protocol engines, over civetweb's HTTP and
 * WebSocket server. The page's files come from a directory; the game is kept
 * by the table (board_table.h), which this program feeds with the
 * pages' messages and a clock thread.
 */
#include "args.h"
#include "board.h"
#include "board_table.h"

#include <civetweb.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_PAGES 64       /* pages connected at once */
#define HTTP_THREADS 8     /* civetweb's threads beyond one per page (each WebSocket holds one) */
#define SEND_TIMEOUT_MS "5000"       /* longest a write to a page may take */
#define PAGE_IDLE_MS "86400000"      /* a page that sends nothing stays connected this long */
#define TICK_MS 5          /* the table's clockwork runs this often */

static const char usage[] =
    "usage: stern-board [-port N] [-host ADDR] [-root DIR] [-engine cmd=CMD [name=NAME] [option.NAME=VALUE]...]...\n"
    "  -port N     port to listen on (8080; 0: any free port)\n"
    "  -host ADDR  address to listen on (127.0.0.1: this machine only)\n"
    "  -root DIR   the page's files (tools/board/page of the build tree, or share/stern/board)\n"
    "  -engine     an engine the table offers (stern beside this program when none is given)\n";

/* The pages connected. */
static struct {
    pthread_mutex_t lock;
    struct mg_connection *conn[MAX_PAGES];
    int n;
    int joining; /* accepted, not yet ready */
} pages = {PTHREAD_MUTEX_INITIALIZER, {0}, 0, 0};

static BoardTable table;

/* Sends json to page c; false when it could not be sent within
 * SEND_TIMEOUT_MS (a page that stopped reading). */
static bool write_to(struct mg_connection *c, const char *json)
{
    const size_t n = strlen(json);
    return mg_websocket_write(c, MG_WEBSOCKET_OPCODE_TEXT, json, n) > 0;
}

/* A page that does not take what is sent is dropped from the broadcasts, so
 * that it stalls the table once, for SEND_TIMEOUT_MS at most. */
static void broadcast(const char *json, void *ctx)
{
    (void)ctx;
    pthread_mutex_lock(&pages.lock);
    for (int i = 0; i < pages.n;)
        if (write_to(pages.conn[i], json))
            i++;
        else
            pages.conn[i] = pages.conn[--pages.n];
    pthread_mutex_unlock(&pages.lock);
}

/* Whether the page asking to connect comes from this server: a browser sends
 * the page's Origin, and a page of another site must not play at the table. */
static bool same_origin(const struct mg_connection *c)
{
    const char *origin = mg_get_header(c, "Origin"), *host = mg_get_header(c, "Host");
    if (!origin)
        return true; /* not a browser */
    const char *rest = !strncmp(origin, "http://", 7) ? origin + 7 : !strncmp(origin, "https://", 8) ? origin + 8 : NULL;
    return rest && host && !strcmp(rest, host);
}

static int ws_connect(const struct mg_connection *c, void *data)
{
    (void)data;
    if (!same_origin(c))
        return 1; /* refused */
    pthread_mutex_lock(&pages.lock);
    const bool room = pages.n + pages.joining < MAX_PAGES;
    if (room)
        pages.joining++; /* its place is kept until it is ready */
    pthread_mutex_unlock(&pages.lock);
    return !room; /* 0 accepts */
}

static void send_to(const char *json, void *ctx) { write_to(ctx, json); }

static void joined(void *ctx)
{
    pthread_mutex_lock(&pages.lock);
    pages.joining--;
    pages.conn[pages.n++] = ctx;
    pthread_mutex_unlock(&pages.lock);
}

static void ws_ready(struct mg_connection *c, void *data)
{
    (void)data;
    board_table_join(&table, send_to, joined, c);
}

static int ws_data(struct mg_connection *c, int flags, char *data, size_t len, void *cbdata)
{
    (void)cbdata;
    const int opcode = flags & 0xf;
    const bool fin = flags & 0x80;
    if (opcode == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE)
        return 0;
    if (!fin || opcode == MG_WEBSOCKET_OPCODE_CONTINUATION)
        write_to(c, "{\"type\":\"error\",\"message\":\"malformed message: fragmented frames are not taken\"}");
    else if (opcode == MG_WEBSOCKET_OPCODE_TEXT)
        board_table_message(&table, data, len, send_to, c);
    else if (opcode == MG_WEBSOCKET_OPCODE_BINARY)
        write_to(c, "{\"type\":\"error\",\"message\":\"malformed message: binary frames are not taken\"}");
    return 1;
}

static void ws_close(const struct mg_connection *c, void *data)
{
    (void)data;
    pthread_mutex_lock(&pages.lock);
    int i = 0;
    while (i < pages.n && pages.conn[i] != c)
        i++;
    if (i < pages.n)
        pages.conn[i] = pages.conn[--pages.n];
    pthread_mutex_unlock(&pages.lock);
}

static void *clockwork(void *arg)
{
    (void)arg;
    const struct timespec tick = {0, TICK_MS * 1000000L};
    for (;;) {
        board_table_tick(&table);
        nanosleep(&tick, NULL);
    }
    return NULL;
}

/* The directory of this program, into dir (PATH_MAX bytes); "." when unknown. */
static void own_dir(char *dir)
{
    const ssize_t len = readlink("/proc/self/exe", dir, PATH_MAX - 1);
    dir[len > 0 ? len : 0] = 0;
    char *slash = strrchr(dir, '/');
    if (len <= 0 || !slash)
        snprintf(dir, PATH_MAX, ".");
    else
        *slash = 0;
}

/* Parses the words after -engine (argv[*i + 1] on, up to the next option)
 * into *c. Exits with a message on a bad word. */
static void parse_engine(int argc, char **argv, int *i, TableEngineConf *c)
{
    memset(c, 0, sizeof *c);
    while (*i + 1 < argc && argv[*i + 1][0] != '-') {
        char *w = argv[++*i], *eq = strchr(w, '=');
        if (!eq) {
            fprintf(stderr, "stern-board: -engine: '%s' is not KEY=VALUE\n", w);
            exit(2);
        }
        *eq = 0;
        if (!strcmp(w, "cmd"))
            c->cmd = eq + 1;
        else if (!strcmp(w, "name"))
            c->name = eq + 1;
        else if (!strncmp(w, "option.", 7) && w[7] && c->nopts < TABLE_MAX_OPTIONS)
            c->opts[c->nopts++] = (EngineOption){w + 7, eq + 1};
        else {
            fprintf(stderr, "stern-board: -engine: unknown key '%s' (cmd=, name=, option.NAME=)\n", w);
            exit(2);
        }
    }
    if (!c->cmd) {
        fprintf(stderr, "stern-board: -engine needs cmd=CMD\n%s", usage);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    if (args_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    static TableEngineConf engines[TABLE_MAX_ENGINES];
    int nengines = 0;
    long long port = 8080;
    const char *host = "127.0.0.1", *root = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-port") && i + 1 < argc) {
            if (!args_int("stern-board", "-port", argv[++i], 0, 65535, &port))
                return 2;
        } else if (!strcmp(a, "-host") && i + 1 < argc) {
            host = argv[++i];
        } else if (!strcmp(a, "-root") && i + 1 < argc) {
            root = argv[++i];
        } else if (!strcmp(a, "-engine")) {
            if (nengines == TABLE_MAX_ENGINES) {
                fprintf(stderr, "stern-board: at most %d engines\n", TABLE_MAX_ENGINES);
                return 2;
            }
            parse_engine(argc, argv, &i, &engines[nengines++]);
        } else {
            fprintf(stderr, "stern-board: unknown argument '%s'\n%s", a, usage);
            return 2;
        }
    }
    char dir[PATH_MAX], root_buf[PATH_MAX + 32], engine_buf[PATH_MAX + 16];
    own_dir(dir);
    if (!root) {
        snprintf(root_buf, sizeof root_buf, "%s/../tools/board/page", dir);
        if (access(root_buf, R_OK))
            snprintf(root_buf, sizeof root_buf, "%s/../share/stern/board", dir);
        root = root_buf;
    }
    char index[PATH_MAX + 48];
    snprintf(index, sizeof index, "%s/index.html", root);
    if (access(index, R_OK)) {
        fprintf(stderr, "stern-board: no page at %s (give -root DIR)\n", index);
        return 1;
    }
    if (!nengines) {
        snprintf(engine_buf, sizeof engine_buf, "%s/stern", dir);
        engines[nengines++] = (TableEngineConf){.cmd = engine_buf, .name = "Stern"};
    }
    board_init();
    if (ep_kill_children_on_signals() || board_table_init(&table, engines, nengines, broadcast, NULL)) {
        fprintf(stderr, "stern-board: cannot start (signals or memory)\n");
        return 1;
    }
    char listen[300];
    snprintf(listen, sizeof listen, "%s:%lld", host, port);
    char threads[16];
    snprintf(threads, sizeof threads, "%d", MAX_PAGES + HTTP_THREADS);
    const char *options[] = {"listening_ports", listen, "document_root", root, "num_threads", threads,
                             "request_timeout_ms", SEND_TIMEOUT_MS, "websocket_timeout_ms", PAGE_IDLE_MS,
                             "enable_directory_listing", "no", NULL};
    mg_init_library(MG_FEATURES_WEBSOCKET);
    struct mg_callbacks callbacks = {0};
    struct mg_context *ctx = mg_start(&callbacks, NULL, options);
    if (!ctx) {
        fprintf(stderr, "stern-board: cannot listen on %s\n", listen);
        return 1;
    }
    mg_set_websocket_handler(ctx, "/ws", ws_connect, ws_ready, ws_data, ws_close, NULL);
    struct mg_server_port ports[4];
    const int nports = mg_get_server_ports(ctx, 4, ports);
    printf("stern-board: http://%s:%d/\n", host, nports > 0 ? ports[0].port : (int)port);
    fflush(stdout);
    pthread_t tick;
    if (pthread_create(&tick, NULL, clockwork, NULL)) {
        fprintf(stderr, "stern-board: no thread for the clock\n");
        return 1;
    }
    pthread_join(tick, NULL);
    return 0;
}
