/* variant.c - variant rule tables; see variant.h. */
#include "variant.h"

#include "board.h"

#include <pthread.h>
#include <stdatomic.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const variant_names[NUM_VARIANT_NAMES] = {
    "classic-2", "classic-3", "classic-4", "classic-6",
    "longjumps-2", "longjumps-3", "longjumps-4", "longjumps-6",
    "symmetric-2", "symmetric-6", "fifteen-2", "fifteen-3",
    "pairs-4", "pairs-6", "masters-2", "masters-6",
    "capture-2", "capture-3", "capture-4", "capture-5", "capture-6",
    "capture-bigjump-2", "capture-bigjump-3", "capture-bigjump-4",
    "capture-bigjump-5", "capture-bigjump-6", "ccerl-2",
};

static const char SEAT_LETTERS[MAX_SEATS + 1] = "wrubyg";

/* Seats in play by player count (RULES.md section 2, decided). */
static const int SEATS_2[] = {SEAT_WHITE, SEAT_BLACK};
static const int SEATS_3[] = {SEAT_WHITE, SEAT_BLUE, SEAT_YELLOW};
static const int SEATS_4[] = {SEAT_WHITE, SEAT_RED, SEAT_BLACK, SEAT_YELLOW};
static const int SEATS_5[] = {SEAT_WHITE, SEAT_RED, SEAT_BLUE, SEAT_BLACK, SEAT_YELLOW};
static const int SEATS_6[] = {0, 1, 2, 3, 4, 5};
static const int *const SEATS_BY_COUNT[7] = {0, 0, SEATS_2, SEATS_3, SEATS_4, SEATS_5, SEATS_6};

char variant_seat_letter(int s) { return SEAT_LETTERS[s]; }

int variant_seat_of_letter(int c)
{
    const char *p = c ? strchr(SEAT_LETTERS, tolower(c)) : NULL;
    return p ? (int)(p - SEAT_LETTERS) : -1;
}

int variant_init(Variant *out, const char *name)
{
    int found = -1;
    for (int i = 0; i < NUM_VARIANT_NAMES; i++)
        if (!strcasecmp(name, variant_names[i]))
            found = i;
    if (found < 0)
        return -1;
    board_init();
    Variant v;
    memset(&v, 0, sizeof v);
    snprintf(v.name, sizeof v.name, "%s", variant_names[found]);
    const char *dash = strrchr(v.name, '-');
    v.nseats = dash[1] - '0';
    for (int s = 0; s < MAX_SEATS; s++)
        v.slot[s] = -1;
    for (int i = 0; i < v.nseats; i++) {
        v.seats[i] = SEATS_BY_COUNT[v.nseats][i];
        v.slot[v.seats[i]] = i;
    }
    v.jump = JUMP_SHORT;
    v.marbles = 10;
    v.deadline = 30;
    v.foreign_rule = true;
    v.round_limit = ROUND_LIMIT;
    if (!strncmp(v.name, "longjumps", 9)) v.jump = JUMP_LONG;
    if (!strncmp(v.name, "symmetric", 9)) v.jump = JUMP_SYMMETRIC;
    if (!strncmp(v.name, "fifteen", 7)) { v.marbles = 15; v.deadline = 40; }
    if (!strncmp(v.name, "pairs", 5)) v.teams = true;
    if (!strncmp(v.name, "masters", 7)) v.masters = true;
    if (!strncmp(v.name, "capture", 7)) {
        v.capture = true;
        v.marbles = 0;
        v.foreign_rule = false;
        v.start = geo.hexagon & ~bb_bit(board_hole_at(0, 0));
        if (strstr(v.name, "bigjump")) v.jump = JUMP_LONG;
    }
    if (!strncmp(v.name, "ccerl", 5)) { /* the rating list's rules profile CCZ-121-Strict-LG-v2 */
        v.ccerl = true;
        v.foreign_rule = false;
        v.deadline = NO_DEADLINE;
        v.round_limit = 120;
    }
    v.full_target_from = v.ccerl ? 0 : v.deadline;
    v.nunits = v.teams ? v.nseats / 2 : v.nseats;
    for (int s = 0; s < MAX_SEATS; s++) {
        const int t = (s + 3) % 6;
        v.home[s] = geo.point[s];
        v.target[s] = geo.point[t];
        if (v.marbles == 15) {
            v.home[s] |= geo.edge_row[s];
            v.target[s] |= geo.edge_row[t];
        }
        for (Bitboard b = v.home[s]; b;)
            v.home_ring[s] |= geo.adjacent[bb_pop(&b)];
        v.home_ring[s] &= ~v.home[s];
        for (int p = 0; p < NUM_POINTS; p++)
            if (p != s && p != t && v.foreign_rule)
                v.foreign[s] |= geo.point[p];
        for (int h = 0; h < NUM_HOLES; h++) {
            int best = 99;
            for (Bitboard b = v.target[s]; b;) {
                const int d = board_distance(h, bb_pop(&b));
                if (d < best)
                    best = d;
            }
            v.target_dist[s][h] = (uint8_t)best;
            v.in_target[s][h] = bb_test(v.target[s], h);
            if (v.slot[s] >= 0 && v.in_target[s][h])
                v.target_seats[h] |= (uint8_t)(1u << s);
            v.tip_dist[s][h] = (uint8_t)board_distance(h, geo.tip[t]);
            int exit = 0;
            if (bb_test(v.home[s], h)) {
                exit = 99;
                for (Bitboard b = geo.all & ~v.home[s]; b;) {
                    const int d = board_distance(h, bb_pop(&b));
                    if (d < exit)
                        exit = d;
                }
            }
            v.home_exit[s][h] = (uint8_t)exit;
        }
    }
    *out = v;
    return 0;
}

static Variant table[NUM_VARIANT_NAMES];
static atomic_bool table_ready[NUM_VARIANT_NAMES];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

const Variant *variant_find(const char *name)
{
    for (int i = 0; i < NUM_VARIANT_NAMES; i++)
        if (!strcasecmp(name, variant_names[i])) {
            /* each entry is made when first asked for: startup stays cheap */
            if (!atomic_load_explicit(&table_ready[i], memory_order_acquire)) {
                pthread_mutex_lock(&table_lock);
                if (!atomic_load_explicit(&table_ready[i], memory_order_relaxed)) {
                    variant_init(&table[i], variant_names[i]);
                    atomic_store_explicit(&table_ready[i], true, memory_order_release);
                }
                pthread_mutex_unlock(&table_lock);
            }
            return &table[i];
        }
    return NULL;
}
