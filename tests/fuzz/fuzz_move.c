/*
 * fuzz_move.c - libFuzzer harness: move parsing. The first byte picks one of
 * a few positions (race, Masters, long jumps, capture), the rest is a move
 * text. A move that parses must be in the position's move list and print
 * back to a text that parses to the same move.
 */
#include "game.h"
#include "notation.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const SETUPS[][2] = {
    {"classic-2", NULL},
    {"classic-6", NULL},
    {"masters-6", NULL},
    {"longjumps-4", NULL},
    {"symmetric-2", NULL},
    {"capture-2", NULL},
    {"capture-bigjump-3", NULL},
    {"capture-2", "1/2/3/4/13/4xxxx4/3x1x1x3/2xxxxxx2/1x1xxx1x1/2xxxxxx2/3x1x1x3/4xxxx4/13/4/3/2/1 w w5c15,b5c14 6"},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    static Game g;
    const size_t k = data[0] % (sizeof SETUPS / sizeof *SETUPS);
    if (game_new(&g, SETUPS[k][0]))
        return 0;
    char err[512];
    if (SETUPS[k][1] && game_set_fen(&g, SETUPS[k][1], err, sizeof err))
        abort();
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    Move m, again;
    if (!move_parse(&g.pos, text, &m, err, sizeof err)) {
        char printed[MOVE_STR_MAX];
        move_str(&g.pos, &m, printed);
        if (move_parse(&g.pos, printed, &again, err, sizeof err) || again.from != m.from || again.to != m.to ||
            again.captured != m.captured || again.swap != m.swap)
            abort(); /* the printed path names the same move */
    }
    free(text);
    return 0;
}
