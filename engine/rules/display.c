/* display.c - text diagram of the star; see display.h. */
#include "display.h"

#include "board.h"

#include <stdio.h>
#include <string.h>

/* Turns cube coordinates one sixth clockwise: (q, r, s) -> (-r, -s, -q), which
 * takes point SW onto S, NW onto SW, and so on. */
static void turn(int *q, int *r)
{
    const int s = -*q - *r;
    const int nq = -*r, nr = -s;
    *q = nq;
    *r = nr;
}

#define LABEL_COLUMN 36 /* where a line's hole names start */

char *display_board(const Position *p, int bottom, char *buf)
{
    board_init();
    char grid[17][36];
    short hole[17][36]; /* the hole shown in each cell, -1 none */
    memset(grid, ' ', sizeof grid);
    memset(hole, -1, sizeof hole);
    for (int h = 0; h < NUM_HOLES; h++) {
        int q = geo.q[h], r = geo.r[h];
        for (int k = 0; k < bottom; k++)
            turn(&q, &r);
        const int piece = p->board[h];
        const char c = !piece ? '.' : piece == PIECE_NEUTRAL ? 'x' : variant_seat_letter(piece - 1);
        grid[8 - r][2 * q + r + 16] = c;
        hole[8 - r][2 * q + r + 16] = (short)h;
    }
    char *o = buf;
    for (int row = 0; row < 17; row++) {
        int first = 0, len = 35;
        while (len > 0 && grid[row][len - 1] == ' ')
            len--;
        while (hole[row][first] < 0)
            first++;
        char a[4], b[4];
        board_hole_name(hole[row][first], a);
        board_hole_name(hole[row][len - 1], b);
        o += sprintf(o, "%-*.*s%s", LABEL_COLUMN, len, grid[row], a);
        o += first == len - 1 ? sprintf(o, "\n") : sprintf(o, "-%s\n", b);
    }
    return buf;
}
