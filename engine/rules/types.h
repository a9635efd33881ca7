/*
 * types.h - the types the rules share: a move, a position, the seats' status and
 * why a game ended. Move generation (movegen.h) and the rules that act after a
 * move (position.h) both build on these, so neither header includes the other.
 */
#ifndef STERN_TYPES_H
#define STERN_TYPES_H

#include "variant.h"

#include <stddef.h>

/* Per-seat status; the place (1..units) is kept beside it. */
typedef enum { ST_PLAYING, ST_ARRIVED, ST_ELIMINATED } SeatStatus;

/* Why the game ended; the order is the reporting priority of RULES.md section 6. */
typedef enum {
    END_NONE, END_ARRIVED, END_DEADLINE, END_LIMIT, END_REPETITION, END_NOMOVES, END_CAPTURES,
    END_BLOCKED /* ccerl-2: a full target with an opponent's marble in it (anti-block) */
} EndReason;

/* A move, identified by the position it produces (RULES.md section 3). */
typedef struct Move {
    Bitboard captured; /* capture mode: the pieces jumped (and removed) */
    uint8_t from, to;  /* holes 0-120 */
    uint8_t swap;      /* Masters swap: hole the displaced marble goes to; else NO_HOLE */
    uint8_t ncapt;     /* capture mode: number of pieces captured */
} Move;

/* Whether a and b are the same move: they produce the same position. */
static inline bool move_same(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->swap == b->swap && a->captured == b->captured;
}

/* A total order of moves, for ties that must not depend on generation order:
 * by start hole, end hole, swap hole, then captured set. */
static inline bool move_before(const Move *a, const Move *b)
{
    if (a->from != b->from)
        return a->from < b->from;
    if (a->to != b->to)
        return a->to < b->to;
    if (a->swap != b->swap)
        return a->swap < b->swap;
    return a->captured < b->captured;
}

typedef struct Position {
    Bitboard seat_bb[MAX_SEATS]; /* marbles of each seat */
    Bitboard neutral;            /* capture mode pieces (x) */
    Bitboard occ;                /* every marble / piece */
    uint64_t key;                /* Zobrist key of board, side to move, statuses, places */
    const Variant *v;
    int16_t moves[MAX_SEATS];    /* own moves made */
    int16_t captures[MAX_SEATS]; /* capture mode: pieces captured */
    int16_t round;               /* round in progress, from 1 */
    int16_t tip_sum[MAX_SEATS];  /* sum of the seat's marbles' Variant.tip_dist, kept by put/take */
    int8_t stm;                  /* seat to move, or -1 when the game is over */
    uint8_t status[MAX_SEATS];   /* SeatStatus */
    uint8_t place[MAX_SEATS];    /* 1.., or 0 while unplaced */
    uint8_t reason;              /* EndReason once the game is over */
    uint8_t arrivals_checked;    /* set by pos_play once it has checked every seat's
                                    arrival: then no seat in play meets the arrival
                                    condition, and the next move need only check its
                                    mover and the seat whose target it enters. 0 (as
                                    set up or refreshed): check every seat. */
    uint8_t board[NUM_HOLES];    /* mailbox: 0 empty, seat + 1, or PIECE_NEUTRAL */
} Position;

#define PIECE_NEUTRAL 7

/* Whether p is over. */
static inline bool pos_over(const Position *p) { return p->stm < 0; }

#endif
