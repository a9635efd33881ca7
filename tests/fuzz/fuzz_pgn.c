/*
 * fuzz_pgn.c - libFuzzer harness: the game-record reader (tools/lib/pgn_read)
 * on arbitrary bytes, game after game, and the rated-game check on each.
 */
#include "pgn_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 65536)
        return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    PgnReader r;
    pgn_reader_init(&r, f, "fuzz.pgn");
    char err[512];
    for (int i = 0; i < 64; i++) {
        PgnGame g;
        const PgnStatus st = pgn_read_game(&r, &g, err, sizeof err);
        if (st != PGN_OK && st != PGN_INCOMPLETE)
            break;
        static const char *const names[] = {"A", "B", "C"};
        RatedGame rg;
        (void)pgn_rated_game(&g, names, 3, &rg, err, sizeof err);
        pgn_game_free(&g);
        if (st != PGN_OK)
            break;
    }
    pgn_reader_free(&r);
    fclose(f);
    return 0;
}
