/*
 * board.h - geometry of the 121-hole star (RULES.md section 1): hole names,
 * cube coordinates, neighbours, lines, points and edge rows, distances.
 *
 * Holes are numbered 0-120 in FEN order (see bitboard.h). Directions are numbered
 * 0-5 in the order RULES.md section 1 lists the neighbours:
 * (q+1,r) (q-1,r) (q,r+1) (q,r-1) (q+1,r-1) (q-1,r+1); direction d ^ 1 is the
 * opposite of d. All tables are built once by board_init().
 */
#ifndef STERN_BOARD_H
#define STERN_BOARD_H

#include "bitboard.h"

#define NUM_DIRS 6
#define NUM_POINTS 6
#define MAX_LINE 16 /* longest run of holes beyond a hole in one direction */

/* The six 10-hole points, numbered like the seats whose home they are. */
enum { POINT_S, POINT_SW, POINT_NW, POINT_N, POINT_NE, POINT_SE };

typedef struct {
    int8_t q[NUM_HOLES], r[NUM_HOLES];             /* cube coordinates, s = -q-r */
    uint8_t line[NUM_HOLES][NUM_DIRS][MAX_LINE];   /* k-th hole beyond h in dir d (k from 1 at [0]) */
    uint8_t line_len[NUM_HOLES][NUM_DIRS];         /* holes beyond h in dir d */
    Bitboard ray[NUM_HOLES][NUM_DIRS];             /* the holes of line[h][d] as a set */
    bool ray_up[NUM_DIRS];                         /* whether hole numbers grow along direction d */
    uint8_t mirror[NUM_HOLES][NUM_HOLES];          /* the hole as far beyond h as h is beyond c
                                                    * on their line (mirror[c][h]), or NO_HOLE */
    Bitboard adjacent[NUM_HOLES];                  /* the up to 6 neighbours */
    Bitboard within2[NUM_HOLES];                   /* h, its neighbours and the holes two steps
                                                    * away in a line: all a short jump from h reads */
    Bitboard point[NUM_POINTS];                    /* 10-hole points */
    Bitboard edge_row[NUM_POINTS];                 /* 5 hexagon holes touching each point */
    Bitboard hexagon;                              /* the central 61 holes */
    Bitboard all;                                  /* all 121 holes */
    uint8_t tip[NUM_POINTS];                       /* the point's outermost hole */
    uint8_t njumps[NUM_HOLES];                     /* short jumps that stay on the board */
    uint8_t jump_over[NUM_HOLES][NUM_DIRS];        /* their jumped hole, in direction order; */
    uint8_t jump_land[NUM_HOLES][NUM_DIRS];        /* their landing hole. Entries from njumps on
                                                    * are (h, h): a flood standing on h never
                                                    * takes them (h is empty, or its start) */
    Bitboard bit[NUM_HOLES];                       /* bb_bit(h) as a table */
} BoardGeometry;

extern BoardGeometry geo;

/* Builds the tables of `geo`. Thread-safe and idempotent (pthread_once). */
void board_init(void);

/* Hole index (0-120) at cube coordinates (q, r), or -1 when off the board. */
int board_hole_at(int q, int r);

/* Hex distance between holes a and b (0-120), in steps. */
int board_distance(int a, int b);

/* Writes the name of hole h (0-120), e.g. "m1", into buf (at least 4 bytes).
 * Returns buf. */
char *board_hole_name(int h, char *buf);

/* Parses a hole name at *s (file letter a-q in either case, then row 1-17) and
 * advances *s past it. Returns the hole (0-120), or -1 when *s does not start with
 * the name of a hole on the board (*s is then left unchanged). */
int board_parse_hole(const char **s);

#endif
