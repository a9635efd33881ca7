/*
 * variant.h - the rules of each variant of RULES.md section 8 as data: seats in
 * play, jump rule, marbles per seat, deadline, teams, Masters swap, capture mode,
 * and the per-seat home / target / foreign-point sets derived from them.
 */
#ifndef STERN_VARIANT_H
#define STERN_VARIANT_H

#include "bitboard.h"

#define MAX_SEATS 6
#define ROUND_LIMIT 150 /* RULES.md section 6 */
#define NO_DEADLINE 10000 /* ccerl-2: no exit deadline (a count no game reaches) */

enum { SEAT_WHITE, SEAT_RED, SEAT_BLUE, SEAT_BLACK, SEAT_YELLOW, SEAT_GREEN };

typedef enum { JUMP_SHORT, JUMP_LONG, JUMP_SYMMETRIC } JumpRule;

typedef struct Variant {
    char name[24];             /* e.g. "classic-2" */
    int nseats;                /* seats in play, 2-6 */
    int seats[MAX_SEATS];      /* seats in turn order (RULES.md section 2) */
    int slot[MAX_SEATS];       /* seat -> index in seats[], or -1 when not in play */
    JumpRule jump;
    int marbles;               /* per seat: 10 or 15 (0 in capture mode) */
    int deadline;              /* own moves to leave home: 30 or 40; NO_DEADLINE for ccerl-2 */
    int full_target_from;      /* own moves made from which a full target is an arrival:
                                  the deadline, or 0 (ccerl-2's anti-block rule) */
    int round_limit;           /* rounds after which the game ends: 150, or 120 (ccerl-2's 240 plies) */
    bool capture;              /* capture mode, RULES.md section 9 */
    bool masters;              /* swap rule, RULES.md section 8 */
    bool teams;                /* partners sit opposite (seat ^ 3 is seat + 3 mod 6) */
    bool foreign_rule;         /* no move may end in a foreign point */
    bool ccerl;                /* the rating list's end rules (docs/CCERL.md): white's arrival
                                  ends the game (a draw when black can arrive at once), a full
                                  target wins for either seat on any move, repetition and the
                                  limit are draws, a seat without a move loses */
    int nunits;                /* places to hand out: seats, or teams */
    Bitboard home[MAX_SEATS];  /* 10 or 15 holes */
    Bitboard target[MAX_SEATS];
    Bitboard foreign[MAX_SEATS]; /* 10-hole points neither home nor target point */
    Bitboard home_ring[MAX_SEATS]; /* holes next to the home, outside it */
    Bitboard start;            /* capture mode: the 60 neutral pieces */
    uint8_t target_dist[MAX_SEATS][NUM_HOLES]; /* hex distance to the nearest target hole */
    uint8_t in_target[MAX_SEATS][NUM_HOLES];   /* 1 where the hole is in the seat's target */
    uint8_t target_seats[NUM_HOLES];           /* bit s: the hole is in the target of seat s in play */
    uint8_t tip_dist[MAX_SEATS][NUM_HOLES];    /* steps to the tip of the seat's target point */
    uint8_t home_exit[MAX_SEATS][NUM_HOLES];   /* steps from a home hole to the nearest hole outside the home */
} Variant;

#define NUM_VARIANT_NAMES 27

/* Names of every variant, in the order the Variant option lists them. */
extern const char *const variant_names[NUM_VARIANT_NAMES];

/* Fills *v with the rules of variant `name` (case-insensitive, e.g. "classic-6").
 * Returns 0, or -1 when the name or its player count is unknown (*v unchanged). */
int variant_init(Variant *v, const char *name);

/* The rules of variant `name` (case-insensitive), from a table made once and
 * shared by every position and game of that variant; NULL when the name is
 * unknown. Thread-safe. */
const Variant *variant_find(const char *name);

/* Partner of seat s in a team variant; -1 without teams. */
static inline int variant_partner(const Variant *v, int s) { return v->teams ? (s + 3) % 6 : -1; }

/* Team (or seat) identifier used for places: the lower seat of the team. */
static inline int variant_unit(const Variant *v, int s) { return v->teams && s >= 3 ? s - 3 : s; }

/* The seat letter (w r u b y g) of seat s (0-5). */
char variant_seat_letter(int s);

/* Seat (0-5) of a seat letter in either case, or -1. */
int variant_seat_of_letter(int c);

#endif
