/*
 * fuzz_fen.c - libFuzzer harness: FEN parsing. The first byte picks the
 * variant, the rest is the FEN. A FEN that parses must write back to a FEN that
 * parses to the same position (key and text), and its moves must be listed.
 */
#include "fen.h"
#include "movegen.h"
#include "variant.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    static Variant v;
    if (variant_init(&v, variant_names[data[0] % NUM_VARIANT_NAMES]))
        abort();
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    static Position p, q;
    char err[512];
    if (!fen_parse(&p, &v, text, err, sizeof err)) {
        char fen[FEN_MAX], again[FEN_MAX];
        fen_write(&p, fen);
        if (fen_parse(&q, &v, fen, err, sizeof err) || q.key != p.key || strcmp(fen_write(&q, again), fen))
            abort(); /* a written FEN must read back as the same position */
        static MoveList list;
        if (gen_count(&p, NULL) < 1000000) {
            gen_moves(&p, &list, NULL);
            if (list.n != gen_count(&p, NULL))
                abort();
        }
    }
    free(text);
    return 0;
}
