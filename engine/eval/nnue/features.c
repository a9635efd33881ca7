/*
 * features.c - the board from each seat's view and the net's input features
 * (nnue.h: nnue_hole, nnue_feature).
 */
#include "net.h"

#include "board.h"

#include <pthread.h>
#include <string.h>

static uint8_t view_hole[MAX_SEATS][NUM_HOLES];
static pthread_once_t view_once = PTHREAD_ONCE_INIT;

/* Turns the board by 60 degrees k times about its centre in cube coordinates
 * ((q, r, s) -> (-r, -s, -q) once) until seat s's home tip lands on the
 * south tip: the turn that shows the board as seat s sits. */
static void build_views(void)
{
    board_init();
    for (int s = 0; s < MAX_SEATS; s++) {
        for (int k = 0; k < 6; k++) {
            uint8_t map[NUM_HOLES];
            for (int h = 0; h < NUM_HOLES; h++) {
                int q = geo.q[h], r = geo.r[h];
                for (int i = 0; i < k; i++) {
                    const int cs = -q - r;
                    const int nq = -r, nr = -cs;
                    q = nq;
                    r = nr;
                }
                map[h] = (uint8_t)board_hole_at(q, r);
            }
            if (map[geo.tip[s]] == geo.tip[POINT_S]) {
                memcpy(view_hole[s], map, sizeof map);
                break;
            }
        }
    }
}

int nnue_hole(int s, int h)
{
    pthread_once(&view_once, build_views);
    return view_hole[s][h];
}

const uint8_t (*nnue_view_table(void))[NUM_HOLES]
{
    pthread_once(&view_once, build_views);
    return (const uint8_t(*)[NUM_HOLES])view_hole;
}

/* Plane of the marbles of seat `owner` from seat `view`'s view: 0 for its own,
 * then the variant's seats in turn order after it. */
static int plane_of(const Variant *v, int view, int owner)
{
    const int d = v->slot[owner] - v->slot[view];
    return d < 0 ? d + v->nseats : d;
}

int nnue_feature(const Variant *v, int view, int owner, int h)
{
    return plane_of(v, view, owner) * NUM_HOLES + nnue_hole(view, h);
}
