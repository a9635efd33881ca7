/* race.c - exact single-army race solver; see race.h. */
#include "race.h"

#include "board.h"
#include "movegen.h"
#include "zobrist.h"

#include <pthread.h>
#include <stdlib.h>

#define NUM_ROWS 17
#define RACE_MAX_CHILDREN 1024 /* a race army has a few hundred moves at most */

static uint8_t row_table[MAX_SEATS][NUM_HOLES];
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

/* Rows along the axis from the tip of seat s's home point (s) to the tip of its
 * target point (s + 3): of the three cube coordinates q, r and -q-r, the one that
 * differs by 16 between the tips. */
static void rows_build(void)
{
    board_init();
    for (int s = 0; s < MAX_SEATS; s++) {
        const int a = geo.tip[s], b = geo.tip[(s + 3) % 6];
        const int coord_a[3] = {geo.q[a], geo.r[a], -geo.q[a] - geo.r[a]};
        const int coord_b[3] = {geo.q[b], geo.r[b], -geo.q[b] - geo.r[b]};
        int axis = 0;
        for (int k = 0; k < 3; k++)
            if (abs(coord_b[k] - coord_a[k]) == NUM_ROWS - 1)
                axis = k;
        const int sign = coord_b[axis] > coord_a[axis] ? 1 : -1;
        for (int h = 0; h < NUM_HOLES; h++) {
            const int coord[3] = {geo.q[h], geo.r[h], -geo.q[h] - geo.r[h]};
            row_table[s][h] = (uint8_t)(1 + sign * (coord[axis] - coord_a[axis]));
        }
    }
}

int race_row(int s, int h)
{
    pthread_once(&rows_once, rows_build);
    return row_table[s][h];
}

/* The bound of race_lower_bound() for rows already built (rows_once done).
 *
 * Let F be the farthest row holding any piece. A step lands one row beyond its
 * start and a jump one row beyond the piece it jumps, so no move lands beyond row
 * F + 1: F grows by at most one per move. To hold c marbles on rows >= r at the
 * end, when now F < r - 1 and so no marble is there, takes r - 1 - F moves to
 * bring F to r - 1 and then one move per marble: (r - 1 - F) + c; otherwise at
 * least c minus the marbles already there. Moves are reversible (a jump's reverse
 * jumps the same piece), so the same holds backwards from the goal: with L the
 * nearest row of the goal's pieces (obstacles included), m own marbles now on rows
 * <= q < L need m + (L - 1 - q) moves to leave. Restrictions (foreign points, the
 * target lock, no revisits) only remove moves, so both stay lower bounds. */
static int lower_bound(const Position *p, int s, int made)
{
    const Variant *v = p->v;
    const Bitboard own = p->seat_bb[s], obstacles = p->occ & ~own;
    const Bitboard free_target = v->target[s] & ~obstacles;
    const uint8_t *row = row_table[s];
    int own_at[NUM_ROWS + 2] = {0}, free_at[NUM_ROWS + 2] = {0};
    int far = 0, near_obstacle = NUM_ROWS + 1, tmin = NUM_ROWS + 1;
    for (Bitboard b = own; b;) {
        const int r = row[bb_pop(&b)];
        own_at[r]++;
        far = r > far ? r : far;
    }
    for (Bitboard b = obstacles; b;) {
        const int r = row[bb_pop(&b)];
        far = r > far ? r : far;
        near_obstacle = r < near_obstacle ? r : near_obstacle;
    }
    for (Bitboard b = free_target; b;) {
        const int r = row[bb_pop(&b)];
        free_at[r]++;
        tmin = r < tmin ? r : tmin;
    }
    const int n = bb_count(own), nfree = bb_count(free_target);
    if (pos_arrived(p, s, made))
        return 0;
    if (n > nfree && v->full_target_from > RACE_MAX_MOVES + made)
        return RACE_MAX_MOVES + 1;
    const int goal_n = n < nfree ? n : nfree; /* own marbles surely in the target at the end */
    int best = n <= nfree ? bb_count(own & ~v->target[s]) : bb_count(free_target & ~own);
    if (n > nfree && v->full_target_from - made > best) /* only a full target can do, from the deadline on */
        best = v->full_target_from - made;
    if (v->jump != JUMP_SHORT) /* long jumps land beyond F + 1: the row bounds do not hold */
        return best;
    /* front: rows r..17 */
    int own_ge = 0, free_lt = nfree;
    for (int r = NUM_ROWS; r >= 1; r--) {
        own_ge += own_at[r];
        free_lt -= free_at[r];
        const int c = goal_n - free_lt;
        if (c <= 0)
            continue;
        const int need = far >= r - 1 ? c - own_ge : (r - 1 - far) + c;
        best = need > best ? need : best;
    }
    /* rear: rows 1..q, only when the goal has no own marble outside the target */
    if (n <= nfree) {
        const int lowest = near_obstacle < tmin ? near_obstacle : tmin;
        int own_le = 0;
        for (int q = 1; q < tmin; q++) {
            own_le += own_at[q];
            if (!own_le)
                continue;
            const int need = own_le + (lowest - 1 - q > 0 ? lowest - 1 - q : 0);
            best = need > best ? need : best;
        }
    }
    return best;
}

int race_lower_bound(const Position *p, int s)
{
    pthread_once(&rows_once, rows_build);
    return lower_bound(p, s, p->moves[s]);
}

typedef struct {
    uint8_t from, to;
    int16_t h;
} Child;

typedef struct {
    Position pos;
    int s, base_moves;
    uint64_t key;
    uint64_t *table; /* (key & ~255) | failed budget, 0 = empty */
    uint64_t mask;
    const atomic_bool *stop;
    uint64_t node_limit;
    bool stopped;
    Move *pv;
    RaceStats st;
} Solver;

static void move_marble(Solver *c, int from, int to)
{
    Position *p = &c->pos;
    const Bitboard both = geo.bit[from] | geo.bit[to];
    p->occ ^= both;
    p->seat_bb[c->s] ^= both;
    p->board[to] = p->board[from];
    p->board[from] = 0;
    c->key ^= zobrist.piece[c->s + 1][from] ^ zobrist.piece[c->s + 1][to];
}

static int child_cmp(const void *a, const void *b)
{
    return ((const Child *)a)->h - ((const Child *)b)->h;
}

/* Depth-first search under budget `left` (moves still allowed). Returns true when
 * it reaches the goal (the path is in c->pv[g..]). */
static bool dfs(Solver *c, int g, int left)
{
    Position *p = &c->pos;
    const int made = c->base_moves + g;
    if (pos_arrived(p, c->s, made))
        return true;
    if (left <= 0)
        return false;
    if ((++c->st.nodes & 4095) == 0 && c->stop && atomic_load_explicit(c->stop, memory_order_relaxed))
        c->stopped = true;
    if (c->node_limit && c->st.nodes > c->node_limit)
        c->stopped = true;
    if (c->stopped)
        return false;
    uint64_t *slot = NULL;
    const uint64_t tag = (c->key ^ (made >= p->v->deadline ? 0x9e3779b97f4a7c15ULL : 0)) & ~(uint64_t)255;
    if (c->table) {
        slot = &c->table[(tag >> 8) & c->mask];
        if ((*slot & ~(uint64_t)255) == tag && (int)(*slot & 255) >= left) {
            c->st.tt_cuts++;
            return false;
        }
    }
    Child kids[RACE_MAX_CHILDREN];
    int nk = 0;
    const Bitboard home = p->v->home[c->s];
    for (Bitboard b = p->seat_bb[c->s]; b;) {
        const int from = bb_pop(&b);
        Bitboard dest = gen_destinations(p, c->s, from);
        if (made >= p->v->deadline && !bb_test(home, from))
            dest &= ~home; /* a return home eliminates the seat */
        for (Bitboard d = dest; d && nk < RACE_MAX_CHILDREN;) {
            const int to = bb_pop(&d);
            move_marble(c, from, to);
            const int h = lower_bound(p, c->s, made + 1);
            move_marble(c, to, from);
            if (h <= left - 1)
                kids[nk++] = (Child){(uint8_t)from, (uint8_t)to, (int16_t)h};
        }
    }
    qsort(kids, (size_t)nk, sizeof *kids, child_cmp);
    for (int i = 0; i < nk; i++) {
        move_marble(c, kids[i].from, kids[i].to);
        const bool found = dfs(c, g + 1, left - 1);
        move_marble(c, kids[i].to, kids[i].from);
        if (found) {
            if (c->pv)
                c->pv[g] = (Move){.from = kids[i].from, .to = kids[i].to, .swap = NO_HOLE};
            return true;
        }
        if (c->stopped)
            return false;
    }
    if (slot && !c->stopped)
        *slot = tag | (uint64_t)(left > 255 ? 255 : left);
    return false;
}

int race_solve(const Position *p, int s, int max_moves, int table_mib, uint64_t node_limit, const atomic_bool *stop,
               Move *pv, RaceStats *stats)
{
    return race_solve_from(p, s, 0, max_moves, table_mib, node_limit, stop, pv, stats);
}

int race_solve_from(const Position *p, int s, int min_moves, int max_moves, int table_mib, uint64_t node_limit,
                    const atomic_bool *stop, Move *pv, RaceStats *stats)
{
    pthread_once(&rows_once, rows_build);
    zobrist_init();
    if (max_moves > RACE_MAX_MOVES)
        max_moves = RACE_MAX_MOVES;
    Solver *c = calloc(1, sizeof *c);
    if (!c)
        return -2;
    c->pos = *p;
    c->s = s;
    c->base_moves = p->moves[s];
    c->stop = stop;
    c->node_limit = node_limit;
    c->pv = pv;
    for (Bitboard b = p->seat_bb[s]; b;)
        c->key ^= zobrist.piece[s + 1][bb_pop(&b)];
    if (table_mib > 0) {
        size_t entries = 1;
        while (entries * 2 * sizeof(uint64_t) <= (size_t)table_mib << 20)
            entries *= 2;
        c->table = calloc(entries, sizeof(uint64_t));
        if (!c->table) {
            free(c);
            return -2;
        }
        c->mask = entries - 1;
    }
    int result = -1;
    const int h0 = lower_bound(&c->pos, s, c->base_moves);
    for (int bound = h0 > min_moves ? h0 : min_moves; bound <= max_moves && !c->stopped; bound++) {
        c->st.bound = bound;
        if (dfs(c, 0, bound)) {
            result = bound;
            break;
        }
    }
    if (c->stopped)
        result = -2;
    if (stats)
        *stats = c->st;
    free(c->table);
    free(c);
    return result;
}

/* The nearest (lowest) and farthest (highest) rows of table `row` (one seat's
 * axis, rows_once done) that the holes of b stand on: NUM_ROWS + 1 and 0 when
 * b is empty. */
static int nearest_row(const uint8_t *row, Bitboard b)
{
    int n = NUM_ROWS + 1;
    while (b) {
        const int r = row[bb_pop(&b)];
        n = r < n ? r : n;
    }
    return n;
}

static int farthest_row(const uint8_t *row, Bitboard b)
{
    int f = 0;
    while (b) {
        const int r = row[bb_pop(&b)];
        f = r > f ? r : f;
    }
    return f;
}

bool race_separated(const Position *p)
{
    const Variant *v = p->v;
    if (v->nseats != 2 || v->capture || v->masters || v->jump != JUMP_SHORT || pos_over(p))
        return false;
    pthread_once(&rows_once, rows_build);
    const int a = v->seats[0], b = v->seats[1];
    if ((p->seat_bb[a] & v->home[a]) || (p->seat_bb[b] & v->home[b]))
        return false;
    /* rows of b's marbles on a's axis: b's axis runs the other way */
    return nearest_row(row_table[a], p->seat_bb[a]) > farthest_row(row_table[a], p->seat_bb[b]);
}

bool race_past_others(const Position *p, int s)
{
    const Variant *v = p->v;
    if (v->nseats < 3 || v->teams || v->capture || v->masters || v->jump != JUMP_SHORT || pos_over(p) ||
        p->status[s] != ST_PLAYING || (p->seat_bb[s] & v->home[s]))
        return false;
    pthread_once(&rows_once, rows_build);
    const int nearest = nearest_row(row_table[s], p->seat_bb[s]);
    for (int i = 0; i < v->nseats; i++) {
        const int b = v->seats[i];
        if (b != s && p->status[b] == ST_PLAYING && farthest_row(row_table[s], p->seat_bb[b] | v->target[b]) >= nearest)
            return false;
    }
    return true;
}

int race_outcome(const Variant *v, int stm, int a, int b, int *plies)
{
    int result;
    if (stm == v->seats[0]) {
        result = a < b ? 1 : a == b ? 0 : -1;
        *plies = result < 0 ? 2 * b : 2 * a;
    } else {
        result = a <= b ? 1 : a == b + 1 ? 0 : -1;
        *plies = result >= 0 ? 2 * a - 1 : 2 * b + 1;
    }
    return result;
}

void race_remove_army(Position *p, int s)
{
    for (Bitboard b = p->seat_bb[s]; b;)
        p->board[bb_pop(&b)] = 0;
    p->occ &= ~p->seat_bb[s];
    p->seat_bb[s] = 0;
}
