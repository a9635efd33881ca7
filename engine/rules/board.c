/* board.c - geometry tables of the star; see board.h. */
#include "board.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

BoardGeometry geo;

static int8_t hole_at[17][17]; /* [q+8][r+8] -> hole or -1 */

static const int DIR_DQ[NUM_DIRS] = {1, -1, 0, 0, 1, -1};
static const int DIR_DR[NUM_DIRS] = {0, 0, 1, -1, -1, 1};

static int on_star(int q, int r)
{
    const int s = -q - r;
    return (q >= -4 && r >= -4 && s >= -4) || (q <= 4 && r <= 4 && s <= 4);
}

int board_hole_at(int q, int r)
{
    if (q < -8 || q > 8 || r < -8 || r > 8)
        return -1;
    return hole_at[q + 8][r + 8];
}

/* Point whose cube test (RULES.md section 1, "Points") holds for (q, r), or -1. */
static int point_of(int q, int r)
{
    const int s = -q - r;
    if (r <= -5) return POINT_S;
    if (s >= 5) return POINT_SW;
    if (q <= -5) return POINT_NW;
    if (r >= 5) return POINT_N;
    if (s <= -5) return POINT_NE;
    if (q >= 5) return POINT_SE;
    return -1;
}

static void build(void)
{
    int n = 0;
    for (int q = 0; q < 17; q++)
        for (int r = 0; r < 17; r++)
            hole_at[q][r] = -1;
    /* FEN order: rows 17 down to 1 (r = 8 .. -8), files left to right (q rising). */
    for (int r = 8; r >= -8; r--)
        for (int q = -8; q <= 8; q++)
            if (on_star(q, r)) {
                hole_at[q + 8][r + 8] = (int8_t)n;
                geo.q[n] = (int8_t)q;
                geo.r[n] = (int8_t)r;
                geo.all |= bb_bit(n);
                n++;
            }
    for (int h = 0; h < NUM_HOLES; h++) {
        const int q = geo.q[h], r = geo.r[h];
        geo.bit[h] = bb_bit(h);
        memset(geo.mirror[h], NO_HOLE, sizeof geo.mirror[h]);
        for (int d = 0; d < NUM_DIRS; d++) /* padding (h, h): never a jump, see board.h */
            geo.jump_over[h][d] = geo.jump_land[h][d] = (uint8_t)h;
        for (int d = 0; d < NUM_DIRS; d++) {
            int len = 0;
            for (int k = 1; k <= MAX_LINE; k++) {
                const int t = board_hole_at(q + k * DIR_DQ[d], r + k * DIR_DR[d]);
                if (t < 0)
                    break; /* lines never leave and re-enter the star (RULES.md 1) */
                geo.line[h][d][len++] = (uint8_t)t;
            }
            geo.line_len[h][d] = (uint8_t)len;
            for (int k = 0; k < len; k++) {
                geo.ray[h][d] |= bb_bit(geo.line[h][d][k]);
                if (2 * k + 1 < len)
                    geo.mirror[h][geo.line[h][d][k]] = geo.line[h][d][2 * k + 1];
            }
            if (len) {
                geo.adjacent[h] |= bb_bit(geo.line[h][d][0]);
                geo.ray_up[d] = geo.line[h][d][0] > h; /* the same for every hole: FEN order is row by row */
            }
            geo.within2[h] |= bb_bit(h);
            for (int k = 0; k < len && k < 2; k++)
                geo.within2[h] |= bb_bit(geo.line[h][d][k]);
            if (len >= 2) {
                geo.jump_over[h][geo.njumps[h]] = geo.line[h][d][0];
                geo.jump_land[h][geo.njumps[h]++] = geo.line[h][d][1];
            }
        }
        const int p = point_of(q, r);
        if (p >= 0)
            geo.point[p] |= bb_bit(h);
        else
            geo.hexagon |= bb_bit(h);
    }
    for (int h = 0; h < NUM_HOLES; h++) {
        if (!bb_test(geo.hexagon, h))
            continue;
        for (int p = 0; p < NUM_POINTS; p++)
            if (geo.adjacent[h] & geo.point[p])
                geo.edge_row[p] |= bb_bit(h);
    }
    /* Tips: the hole of each point farthest from the centre i9 (q = r = 0). */
    for (int p = 0; p < NUM_POINTS; p++) {
        int best = -1, bestd = -1;
        for (Bitboard b = geo.point[p]; b;) {
            const int h = bb_pop(&b);
            const int d = board_distance(h, hole_at[8][8]);
            if (d > bestd) { bestd = d; best = h; }
        }
        geo.tip[p] = (uint8_t)best;
    }
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

void board_init(void) { pthread_once(&once, build); }

int board_distance(int a, int b)
{
    const int dq = geo.q[a] - geo.q[b], dr = geo.r[a] - geo.r[b], ds = -dq - dr;
    int m = abs(dq);
    if (abs(dr) > m) m = abs(dr);
    if (abs(ds) > m) m = abs(ds);
    return m;
}

char *board_hole_name(int h, char *buf)
{
    const int file = geo.q[h] + 9, row = geo.r[h] + 9;
    buf[0] = (char)('a' + file - 1);
    if (row >= 10) {
        buf[1] = '1';
        buf[2] = (char)('0' + row - 10);
        buf[3] = 0;
    } else {
        buf[1] = (char)('0' + row);
        buf[2] = 0;
    }
    return buf;
}

int board_parse_hole(const char **s)
{
    const char *p = *s;
    int c = *p;
    if (c >= 'A' && c <= 'Q') c += 'a' - 'A';
    if (c < 'a' || c > 'q') return -1;
    p++;
    if (*p < '1' || *p > '9') return -1;
    int row = *p++ - '0';
    if (*p >= '0' && *p <= '9') {
        row = row * 10 + (*p++ - '0');
        if (*p >= '0' && *p <= '9') return -1;
    }
    if (row > 17) return -1;
    const int h = board_hole_at(c - 'a' + 1 - 9, row - 9);
    if (h < 0) return -1;
    *s = p;
    return h;
}
