/*
 * position.h - a game position and the rules that act after a move
 * (RULES.md sections 5 and 6): deadline and return-home elimination, arrival,
 * places, the two-player reply rule, skipped seats, the round limit, the end of
 * the game and the ranking of unplaced seats. Repetition needs the game's history
 * and lives in game.h.
 */
#ifndef STERN_POSITION_H
#define STERN_POSITION_H

#include "variant.h"

#include <stddef.h>

/* Per-seat status; the place (1..units) is kept beside it. */
typedef enum { ST_PLAYING, ST_ARRIVED, ST_ELIMINATED } SeatStatus;

/* Why the game ended; the order is the reporting priority of RULES.md section 6. */
typedef enum {
    END_NONE, END_ARRIVED, END_DEADLINE, END_LIMIT, END_REPETITION, END_NOMOVES, END_CAPTURES
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

/* Sets *p to the start position of variant v (which must outlive *p). */
void pos_set_start(Position *p, const Variant *v);

/* Plays move m (legal in p; see movegen.h) on p and applies every rule that acts
 * after a move, except repetition (game.h): RULES.md section 6 "order of checks".
 * When the game ends, p->stm becomes -1 and p->reason says why. */
void pos_play(Position *p, const Move *m);

/* Whether seat s (0-5, in play) has at least one legal move in p, as if it were
 * its turn. */
bool pos_has_move(const Position *p, int s);

/* Ends the game in p for `reason` and ranks the unplaced seats (teams) into the
 * free places: more marbles in target first, then the smaller summed distance to
 * the target; equal seats share a place (competition numbering). In capture mode
 * places go by captures. */
void pos_finish(Position *p, EndReason reason);

/* Sum over seat s's marbles outside its target of the hex distance to the nearest
 * hole of the target, in steps (RULES.md section 6 ranking tie-break). */
int pos_target_distance(const Position *p, int s);

/* Hands the turn to seat s (0-5, in play and playing) without playing a move,
 * keeping the key right. Used by searches that reorder turns (best-reply search);
 * not a move of the rules. */
void pos_set_stm(Position *p, int s);

/* Recomputes p->key, p->occ and p->board from the other fields (after a FEN load). */
void pos_refresh(Position *p);

/* Whether seat s has arrived in p after `moves_made` own moves (RULES.md section
 * 6): all its marbles in its target, or - from its exit deadline on - every target
 * hole full with at least one of its own. Used after every move and by the race
 * solver, which counts moves it has not played on p. */
static inline bool pos_arrived(const Position *p, int s, int moves_made)
{
    const Bitboard own = p->seat_bb[s], target = p->v->target[s];
    if (!(own & ~target))
        return true;
    return moves_made >= p->v->deadline && (p->occ & target) == target && (own & target);
}

/* Name of an end reason as the `result` command prints it ("arrived", ...). */
const char *pos_reason_name(EndReason r);

/* Whether p is over. */
static inline bool pos_over(const Position *p) { return p->stm < 0; }

#endif
