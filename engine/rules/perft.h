/*
 * perft.h - leaf-node counts of the move tree, the standard check of a move
 * generator (https://www.chessprogramming.org/Perft). Counts distinct moves
 * (RULES.md sections 3 and 9); a finished game has no moves. Repetition is not
 * applied (it needs a game history; no start position repeats within 8 plies).
 */
#ifndef STERN_PERFT_H
#define STERN_PERFT_H

#include "movegen.h"

#include <stdatomic.h>

/* Number of move sequences of `depth` plies (>= 0) from p; depth 0 gives 1.
 * -1 when *stop became true (read between moves and inside capture-mode move
 * generation; stop may be NULL) or memory ran out. */
int64_t perft(const Position *p, int depth, const atomic_bool *stop);

#endif
