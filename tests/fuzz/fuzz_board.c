/*
 * fuzz_board.c - libFuzzer harness: the table of stern-board
 * (tools/board/board_table) on arbitrary messages, one per line of the input,
 * each answered and the state written after it. The engines are never
 * started: only the clockwork (board_table_tick) starts them.
 */
#include "board.h"
#include "board_table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void drop(const char *json, void *ctx)
{
    (void)ctx;
    (void)json;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const TableEngineConf engine = {.cmd = "/nonexistent/engine", .name = "none"};
    if (size > 65536)
        return 0;
    board_init();
    BoardTable *t = malloc(sizeof *t);
    if (!t || board_table_init(t, &engine, 1, drop, NULL)) {
        free(t);
        return 0;
    }
    for (size_t start = 0; start < size;) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        const size_t end = nl ? (size_t)(nl - data) : size;
        board_table_message(t, (const char *)data + start, end - start, drop, NULL);
        free(board_table_state(t));
        start = end + 1;
    }
    free(board_table_hello(t));
    board_table_free(t);
    free(t);
    return 0;
}
