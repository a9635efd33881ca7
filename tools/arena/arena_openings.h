/*
 * arena_openings.h - the start positions of a tournament's games: read from a file
 * of FENs or of game records, or made by random legal moves from the variant's
 * start; played in file order or in a shuffled order that a seed fixes, so that a
 * resumed run or another shard sees the same opening for the same game.
 */
#ifndef STERN_ARENA_OPENINGS_H
#define STERN_ARENA_OPENINGS_H

#include "fen.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct Openings {
    const Variant *v;
    int n;              /* positions read; 0: random or start position */
    char (*fen)[FEN_MAX];
    int *order;         /* play order: order[i] indexes fen[] */
    int random_plies;   /* > 0 and n == 0: each opening is this many random moves */
    unsigned seed;      /* of the order and of the random moves */
} Openings;

/* No file: every game starts from v's start position after `random_plies` random
 * legal moves (0: the start position itself), drawn from `seed` and the
 * opening's index. v must outlive *o. */
void arena_openings_init(Openings *o, const Variant *v, int random_plies, unsigned seed);

/* Reads the openings of variant v from `path`: a file of game records (its first
 * non-blank character is '[') gives the position of each complete game after at
 * most `plies` of its moves (< 0: all), from its FEN tag or the start; any other
 * file holds one FEN a line (blank lines and lines starting with '#' skipped).
 * Positions that are over or whose side to move has no move are skipped. Then
 * orders them: file order from the `start`-th (from 1), or when `random` a
 * shuffle drawn from `seed`. Returns 0, or -1 with the reason (naming file and
 * line) in err (n bytes). */
int arena_openings_load(Openings *o, const Variant *v, const char *path, int plies, bool random, unsigned seed,
                        int start, char *err, size_t n);

void arena_openings_free(Openings *o);

/* The FEN of the opening with play index `index` (>= 0; wraps around the file's
 * positions) into buf (FEN_MAX bytes). Returns buf. */
char *arena_openings_fen(const Openings *o, long index, char *buf);

#endif
