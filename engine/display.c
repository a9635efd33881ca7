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

char *display_board(const Position *p, int bottom, char *buf)
{
    board_init();
    char grid[17][36];
    memset(grid, ' ', sizeof grid);
    for (int h = 0; h < NUM_HOLES; h++) {
        int q = geo.q[h], r = geo.r[h];
        for (int k = 0; k < bottom; k++)
            turn(&q, &r);
        const int piece = p->board[h];
        const char c = !piece ? '.' : piece == PIECE_NEUTRAL ? 'x' : variant_seat_letter(piece - 1);
        grid[8 - r][2 * q + r + 16] = c;
    }
    char *o = buf;
    for (int row = 0; row < 17; row++) {
        int len = 35;
        while (len > 0 && grid[row][len - 1] == ' ')
            len--;
        o += sprintf(o, "%2d  %.*s\n", 17 - row, len, grid[row]);
    }
    return buf;
}
