/*
 * zobrist.h - 64-bit Zobrist keys (Zobrist 1970, "A new hashing method with
 * application for game playing"). Each table entry is XXH3-64 of its own index
 * under a fixed seed, so keys are the same on every machine and every run.
 */
#ifndef STERN_ZOBRIST_H
#define STERN_ZOBRIST_H

#include "bitboard.h"
#include "variant.h"

typedef struct {
    uint64_t piece[8][NUM_HOLES];         /* [seat + 1 or PIECE_NEUTRAL][hole] */
    uint64_t stm[MAX_SEATS + 1];          /* side to move; [MAX_SEATS] = game over */
    uint64_t status[MAX_SEATS][3][8];     /* [seat][SeatStatus][place 0-7] */
    uint64_t captures[MAX_SEATS][61];     /* [seat][pieces captured]: capture mode's
                                             table key (not part of the repetition key) */
} ZobristKeys;

extern ZobristKeys zobrist;

/* Builds the tables (thread-safe, idempotent). */
void zobrist_init(void);

#endif
