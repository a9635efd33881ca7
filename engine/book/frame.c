/* frame.c - the star's turns and mirror; see frame.h. */
#include "frame.h"

#include "board.h"

#include <pthread.h>
#include <stdlib.h>

static uint8_t map[NUM_FRAMES][NUM_HOLES], back[NUM_FRAMES][NUM_HOLES];
static int turn_of_seat[NUM_POINTS]; /* turns of 60 degrees bringing point s to the bottom */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* One turn of 60 degrees in axial coordinates (s = -q - r): (q, r) -> (-r, -s). */
static int turned(int h)
{
    const int q = geo.q[h], r = geo.r[h];
    return board_hole_at(-r, q + r);
}

/* The mirror that keeps the bottom point: of the three reflections through the
 * centre's axes, the one that maps the bottom point onto itself and moves some
 * hole of it. */
static int mirrored(int h, int axis)
{
    const int q = geo.q[h], r = geo.r[h], s = -q - r;
    return axis == 0 ? board_hole_at(r, q) : axis == 1 ? board_hole_at(s, r) : board_hole_at(q, s);
}

static Bitboard image(const uint8_t *m, Bitboard set)
{
    Bitboard out = 0;
    while (set)
        out |= bb_bit(m[bb_pop(&set)]);
    return out;
}

static void build(void)
{
    board_init();
    uint8_t turn[6][NUM_HOLES];
    for (int h = 0; h < NUM_HOLES; h++)
        turn[0][h] = (uint8_t)h;
    for (int k = 1; k < 6; k++)
        for (int h = 0; h < NUM_HOLES; h++)
            turn[k][h] = (uint8_t)turned(turn[k - 1][h]);
    int axis = 0;
    for (int a = 0; a < 3; a++) {
        uint8_t m[NUM_HOLES];
        for (int h = 0; h < NUM_HOLES; h++)
            m[h] = (uint8_t)mirrored(h, a);
        if (image(m, geo.point[POINT_S]) == geo.point[POINT_S] && m[geo.tip[POINT_SW]] != geo.tip[POINT_SW])
            axis = a;
    }
    for (int s = 0; s < NUM_POINTS; s++)
        for (int k = 0; k < 6; k++)
            if (image(turn[k], geo.point[s]) == geo.point[POINT_S])
                turn_of_seat[s] = k;
    for (int k = 0; k < 6; k++)
        for (int h = 0; h < NUM_HOLES; h++) {
            map[k][h] = turn[k][h];
            map[6 + k][h] = (uint8_t)mirrored(turn[k][h], axis);
        }
    for (int f = 0; f < NUM_FRAMES; f++)
        for (int h = 0; h < NUM_HOLES; h++)
            back[f][map[f][h]] = (uint8_t)h;
}

int frame_of_seat(int s, bool mirror)
{
    pthread_once(&once, build);
    return turn_of_seat[s] + (mirror ? 6 : 0);
}

uint8_t frame_hole(int f, int h)
{
    pthread_once(&once, build);
    return h == NO_HOLE ? NO_HOLE : map[f][h];
}

uint8_t frame_hole_back(int f, int h)
{
    pthread_once(&once, build);
    return h == NO_HOLE ? NO_HOLE : back[f][h];
}

/* m with every hole mapped through `to` (NO_HOLE kept). */
static Move mapped(const uint8_t *to, const Move *m)
{
    Move out = *m;
    out.from = to[m->from];
    out.to = to[m->to];
    out.swap = m->swap == NO_HOLE ? NO_HOLE : to[m->swap];
    out.captured = image(to, m->captured);
    return out;
}

Move frame_move(int f, const Move *m)
{
    pthread_once(&once, build);
    return mapped(map[f], m);
}

Move frame_move_back(int f, const Move *m)
{
    pthread_once(&once, build);
    return mapped(back[f], m);
}
