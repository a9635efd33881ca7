/* table_web.c - the table of stern-board (tools/board/board_table.h) built as
 * WebAssembly for the board as a static site (docs/WEB.md): it runs in a Web
 * Worker of the page (tools/web/table-worker.js), the page is its one page, and
 * its engine is the WebAssembly engine in a worker of its own
 * (engine_worker.c). The JavaScript calls the three functions below, one call
 * at a time (each may sleep through Asyncify while an engine answers); what
 * the table sends goes to the page as one JSON text a message. In a
 * cross-origin isolated page the engine searches with a thread a core. */
#include "board.h"
#include "board_table.h"

#include "search.h"

#include <emscripten.h>
#include <stdio.h>
#include <string.h>

/* clang-format off */
EM_JS(void, js_table_post, (const char *json), { self.sternTablePost(UTF8ToString(json)); });
/* the cores the engine may use: navigator.hardwareConcurrency in an isolated page, else 1 */
EM_JS(int, js_engine_threads, (void), {
    const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
    return isolated ? (navigator.hardwareConcurrency || 1) : 1;
});
/* clang-format on */

static BoardTable table;
static TableEngineConf engine = {.cmd = "stern-worker.js", .name = "Stern"};
static char threads[16];
static bool started;

static void post(const char *json, void *ctx)
{
    (void)ctx;
    js_table_post(json);
}

static void joined(void *ctx) { (void)ctx; }

/* Sets the table up (classic-2, a human against Stern) and sends the page its
 * hello and state. Returns 0, or -1 without memory. */
EMSCRIPTEN_KEEPALIVE int table_web_start(void)
{
    if (started)
        return 0;
    board_init();
    int n = js_engine_threads();
    if (n > 1) {
        snprintf(threads, sizeof threads, "%d", n < MAX_THREADS ? n : MAX_THREADS);
        engine.opts[engine.nopts++] = (EngineOption){"Threads", threads};
    }
    if (board_table_init(&table, &engine, 1, post, NULL))
        return -1;
    started = true;
    board_table_join(&table, post, joined, NULL);
    return 0;
}

/* One message of the page (a JSON text of docs/BOARD.md, UTF-8, NUL-ended). */
EMSCRIPTEN_KEEPALIVE void table_web_message(const char *text)
{
    if (started)
        board_table_message(&table, text, strlen(text), post, NULL);
}

/* The table's clockwork (board_table_tick): the page's worker calls it every
 * few milliseconds. */
EMSCRIPTEN_KEEPALIVE void table_web_tick(void)
{
    if (started)
        board_table_tick(&table);
}
