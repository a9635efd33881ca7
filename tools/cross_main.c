/* cross_main.c - stern-cross: the solitaire crossing (the 10 marbles of white alone
 * on the classic board, from their home point to the opposite point) by
 * bidirectional breadth-first search, for a proven lower bound on its length, and
 * by beam search, for a short solution checked move by move against the rules.
 *
 *   stern-cross prove BUDGET LOG2_SET [LAYERS]
 *       proves that no crossing of BUDGET moves or fewer exists, or finds one;
 *       LOG2_SET: log2 of the position set's entries (8 bytes each); LAYERS:
 *       stop after that many layers (a profile, no proof)
 *   stern-cross sorted BUDGET LOG2_CHUNK
 *       the same proof with each layer a sorted array (delayed duplicate
 *       detection): less memory and faster on big budgets, but a solution found
 *       is only reported (prove rebuilds its moves); LOG2_CHUNK: log2 of the keys
 *       collected before each sort (16 bytes each with the scratch)
 *   stern-cross beam TABLE_BUDGET TABLE_DEPTH BUDGET LOG2_SET WIDTH WEIGHT...
 *       looks for a crossing of at most BUDGET moves (with the target lock),
 *       trying each WIDTH WEIGHT pair in turn; prints it when the engine's move
 *       generator accepts every move
 *   stern-cross selftest
 *       checks the move generator and the row bound here against the engine's
 *
 * The game proved is the crossing without the target lock (RULES.md section 3,
 * restriction 2): it has every legal move and more, so a budget it refutes is
 * refuted under the real rules (the exit deadline does not bind below 30 moves).
 * Without the lock moves are reversible (a chain run backwards lands on the same
 * holes over the same marbles), and the point reflection of the board
 * (q, r) -> (-q, -r) swaps home and target and maps foreign points to foreign
 * points, so the distance from P to the goal is the distance from the start to
 * reflect(P): one search from the start serves both ends (bidirectional search,
 * Pohl 1971, "Bi-directional search", Machine Intelligence 6). Layer d holds the
 * positions first reached in d moves whose row bound (race.h) still allows arrival
 * within the budget: every position of a solution of at most BUDGET moves passes
 * that test at its true distance, so it is in its layer. A position of layer d
 * whose reflection is in layer e closes a solution of d + e moves; a solution of
 * L <= BUDGET moves has its position ceil(L/2) in that layer and the reflection in
 * layer floor(L/2), so layers up to BUDGET/2 are stored and layer (BUDGET+1)/2,
 * when BUDGET is odd, is only checked. Positions are stored up to the left-right
 * mirror of the travel axis (a symmetry of the game, the start and the bound),
 * as their combination rank among the 81 holes a move may end on.
 *
 * The beam search (Lowerre 1976, "The HARPY speech recognition system") keeps,
 * move after move, the WIDTH positions of least WEIGHT * row bound - row sum
 * reached with the target lock, and stops at a position whose reflection is in
 * the stored layers of a breadth-first search under TABLE_BUDGET (TABLE_DEPTH
 * layers): that layer's path, reflected and reversed, ends the crossing. */
#include "board.h"
#include "engine_proc.h"
#include "game.h"
#include "movegen.h"
#include "notation.h"
#include "race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define N_MARBLES 10
#define N_ROWS 17

static int seat;
static Bitboard resting, target_bb;
static int row_of[NUM_HOLES], refl[NUM_HOLES], mirr[NUM_HOLES], rest_idx[NUM_HOLES];
static uint64_t binom[128][N_MARBLES + 1];

/* realloc / calloc that end the program with a message when memory runs out. */
static void *xrealloc(void *p, size_t bytes)
{
    void *q = realloc(p, bytes);
    if (!q) {
        fprintf(stderr, "stern-cross: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return q;
}

static void *xcalloc(size_t n, size_t size)
{
    void *q = calloc(n, size);
    if (!q) {
        fprintf(stderr, "stern-cross: out of memory (%zu bytes)\n", n * size);
        exit(1);
    }
    return q;
}

/* The holes (bitboard) where the marble on `from` can end a move, occupancy occ
 * (the marble included): steps and short-jump chains that may land in foreign
 * points but not end there. With `lock`, under the target lock (from a target
 * hole only target holes), as movegen.h's marble_destinations; else without it. */
static Bitboard dests_l(Bitboard occ, int from, int lock)
{
    const Bitboard o = occ & ~geo.bit[from];
    Bitboard seen = geo.bit[from];
    int stack[NUM_HOLES], sp = 0;
    stack[sp++] = from;
    while (sp) {
        const int c = stack[--sp];
        for (int d = 0; d < geo.njumps[c]; d++) {
            const int ov = geo.jump_over[c][d], la = geo.jump_land[c][d];
            if (bb_test(o, ov) && !bb_test(o, la) && !bb_test(seen, la) &&
                !(lock && bb_test(target_bb, c) && !bb_test(target_bb, la))) {
                seen |= geo.bit[la];
                stack[sp++] = la;
            }
        }
    }
    const Bitboard r = ((seen & ~geo.bit[from]) | (geo.adjacent[from] & ~occ)) & resting;
    return lock && bb_test(target_bb, from) ? r & target_bb : r;
}

/* dests_l without the lock. */
static Bitboard dests(Bitboard occ, int from)
{
    return dests_l(occ, from, 0);
}

static int row_bound_hist(const int *own_at);

/* The row bound of race.c's lower_bound for the crossing (no obstacles). */
static int row_bound(Bitboard p)
{
    int own_at[N_ROWS + 2] = {0};
    for (Bitboard b = p; b;)
        own_at[row_of[bb_pop(&b)]]++;
    return row_bound_hist(own_at);
}

/* The same from the marbles' count per row (own_at[1..17]), in closed form: with
 * far the farthest row, the front terms of rows <= 14 peak at row 14 (23 - far
 * when far <= 12), rows 15-17 need 6, 3 and 1 marbles; the rear term of row q is
 * the marbles on rows <= q plus 13 - q. */
static int row_bound_hist(const int *a)
{
    int out = 0;
    for (int r = 1; r <= 13; r++)
        out += a[r];
    if (!out)
        return 0;
    int far = N_ROWS;
    while (!a[far])
        far--;
    int best;
    if (far <= 12)
        best = 23 - far;
    else {
        const int ge17 = a[17], ge16 = ge17 + a[16], ge15 = ge16 + a[15], ge14 = ge15 + a[14];
        best = 10 - ge14;
        const int t15 = far >= 14 ? 6 - ge15 : (14 - far) + 6;
        const int t16 = far >= 15 ? 3 - ge16 : (15 - far) + 3;
        const int t17 = far >= 16 ? 1 - ge17 : (16 - far) + 1;
        best = t15 > best ? t15 : best;
        best = t16 > best ? t16 : best;
        best = t17 > best ? t17 : best;
    }
    int cum = 0;
    for (int q = 1; q <= 13; q++) {
        cum += a[q];
        if (cum && cum + 13 - q > best)
            best = cum + 13 - q;
    }
    return out > best ? out : best;
}

/* The image of the holes of p under the hole map m (refl or mirr). */
static Bitboard map_bb(Bitboard p, const int *m)
{
    Bitboard r = 0;
    for (Bitboard b = p; b;)
        r |= geo.bit[m[bb_pop(&b)]];
    return r;
}

/* The rank (0 to C(81,10) - 1 < 2^41) of the 10 holes of p among the 81 holes a
 * move may end on: the sum over the holes, in increasing order i = 1..10, of
 * C(index, i) (the combinatorial number system). */
static uint64_t rank_of(Bitboard p)
{
    uint64_t k = 0;
    int i = 1;
    for (Bitboard b = p & resting; b; i++)
        k += binom[rest_idx[bb_pop(&b)]][i];
    return k;
}

/* The key of p up to the mirror: the smaller rank of p and its mirror image. */
static uint64_t canon(Bitboard p)
{
    const uint64_t a = rank_of(p), b = rank_of(map_bb(p, mirr));
    return a < b ? a : b;
}

static int rest_hole[128];

/* The position of rank k (rank_of's inverse). */
static Bitboard unrank(uint64_t k)
{
    Bitboard p = 0;
    int x = 80;
    for (int i = N_MARBLES; i >= 1; i--) {
        while (binom[x][i] > k)
            x--;
        k -= binom[x][i];
        p |= geo.bit[rest_hole[x]];
        x--;
    }
    return p;
}

/* ---- hash set: key (41 bits) | depth << 56, 0 = empty ---- */
static uint64_t *set;
static uint64_t set_mask, set_used;
#define KEY_MASK ((1ULL << 48) - 1)

static inline uint64_t hmix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ULL;
    x ^= x >> 29;
    return x;
}

/* Inserts key at depth d; returns 1 when new, 0 when present. */
static int set_insert(uint64_t key, int d)
{
    if (set_used >= set_mask - set_mask / 8) { /* 7/8 full: probes would crawl, then never end */
        fprintf(stderr, "stern-cross: the position set is full (%llu entries): raise LOG2_SET\n",
                (unsigned long long)set_used);
        exit(1);
    }
    uint64_t i = hmix(key) & set_mask;
    while (set[i]) {
        if ((set[i] & KEY_MASK) == key)
            return 0;
        i = (i + 1) & set_mask;
    }
    set[i] = key | (uint64_t)d << 56 | 1ULL << 55;
    set_used++;
    return 1;
}

/* Depth of key, or -1. */
static int set_find(uint64_t key)
{
    uint64_t i = hmix(key) & set_mask;
    while (set[i]) {
        if ((set[i] & KEY_MASK) == key)
            return (int)(set[i] >> 56);
        i = (i + 1) & set_mask;
    }
    return -1;
}

/* Builds the tables: white's rows, the reflection and mirror maps of the holes, the
 * 81 holes a move may end on, binomial coefficients. Exits when a map is not the
 * symmetry it should be. */
static void setup(void)
{
    static Game g;
    game_new(&g, "classic-2");
    seat = g.v.seats[0];
    board_init();
    const Bitboard foreign = g.v.foreign[seat];
    resting = geo.all & ~foreign;
    target_bb = g.v.target[seat];
    int n = 0;
    for (int h = 0; h < NUM_HOLES; h++) {
        row_of[h] = race_row(seat, h);
        refl[h] = board_hole_at(-geo.q[h], -geo.r[h]);
        mirr[h] = board_hole_at(-geo.q[h] - geo.r[h], geo.r[h]);
        rest_idx[h] = -1;
        if (bb_test(resting, h)) {
            rest_hole[n] = h;
            rest_idx[h] = n++;
        }
    }
    for (int x = 0; x < 128; x++) {
        binom[x][0] = 1;
        for (int k = 1; k <= N_MARBLES; k++)
            binom[x][k] = x ? binom[x - 1][k - 1] + binom[x - 1][k] : 0;
    }
    /* the mirror must keep the axis: rows unchanged; the reflection reverses them */
    for (int h = 0; h < NUM_HOLES; h++)
        if (row_of[mirr[h]] != row_of[h] || row_of[refl[h]] != 18 - row_of[h] ||
            bb_test(resting, mirr[h]) != bb_test(resting, h) || bb_test(resting, refl[h]) != bb_test(resting, h) ||
            bb_test(target_bb, refl[h]) != bb_test(g.v.home[seat], h))
            fprintf(stderr, "bad symmetry at %d\n", h), exit(1);
}

/* White's home: the start of the crossing. */
static Bitboard start_pos(void)
{
    static Game g;
    game_new(&g, "classic-2");
    return g.pos.seat_bb[seat];
}

/* Compares, on 20,000 random placements of 10 marbles, dests_l with the lock to
 * marble_destinations (and without it to a superset), row_bound to
 * race_lower_bound, and unrank(rank_of) to the identity. Returns 1 on any
 * difference. */
static int selftest(void)
{
    static Game g;
    game_new(&g, "classic-2");
    Position p = g.pos;
    race_remove_army(&p, g.v.seats[1]);
    srand(7);
    int bad = 0;
    for (int t = 0; t < 20000; t++) {
        /* random placement of 10 marbles on resting holes, none in the target */
        Bitboard b = 0;
        int cnt = 0;
        while (cnt < N_MARBLES) {
            const int h = rest_hole[rand() % 81];
            if (bb_test(b, h) || (t % 2 == 0 && bb_test(target_bb, h)))
                continue;
            b |= geo.bit[h];
            cnt++;
        }
        Position q = p;
        q.seat_bb[seat] = b;
        q.occ = b;
        memset(q.board, 0, sizeof q.board);
        for (Bitboard c = b; c;)
            q.board[bb_pop(&c)] = (uint8_t)(seat + 1);
        if (row_bound(b) != race_lower_bound(&q, seat))
            bad++, fprintf(stderr, "row bound differs\n");
        if (unrank(rank_of(b)) != b)
            bad++, fprintf(stderr, "rank differs\n");
        for (Bitboard c = b; c;) {
            const int h = bb_pop(&c);
            if ((dests_l(b, h, 1) != marble_destinations(&q, seat, h)) || (dests_l(b, h, 1) & ~dests(b, h)))
                bad++, fprintf(stderr, "destinations differ at %d\n", h);
        }
    }
    printf("selftest: %d differences\n", bad);
    return bad != 0;
}

/* Zeroed memory of `bytes` bytes, in huge pages where the kernel allows (the set is
 * probed at random); exits when there is none. */
static void *big_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "stern-cross: out of memory\n");
        exit(1);
    }
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

#define MAX_KIDS 1024 /* 10 marbles, at most 80 ends each */

/* Children of p (lock-free or with the lock) whose row bound is at most hmax,
 * into kids; returns their number. */
static int children(Bitboard p, int lock, int hmax, Bitboard *kids)
{
    int own_at[N_ROWS + 2] = {0}, n = 0;
    for (Bitboard b = p; b;)
        own_at[row_of[bb_pop(&b)]]++;
    for (Bitboard b = p; b;) {
        const int from = bb_pop(&b);
        own_at[row_of[from]]--;
        for (Bitboard e = dests_l(p, from, lock); e;) {
            const int to = bb_pop(&e);
            own_at[row_of[to]]++;
            if (row_bound_hist(own_at) <= hmax)
                kids[n++] = (p ^ geo.bit[from]) | geo.bit[to];
            own_at[row_of[to]]--;
        }
        own_at[row_of[from]]++;
    }
    return n;
}

static uint64_t expanded;
static Bitboard meet_pos; /* a position of layer meet_d whose reflection is in layer meet_e */
static int meet_d, meet_e;

/* Records p (layer d, reflection in layer e) when d + e beats *best. */
static void note_meet(Bitboard p, int d, int e, int *best)
{
    if (d + e >= *best)
        return;
    *best = d + e;
    meet_pos = p;
    meet_d = d;
    meet_e = e;
    printf("meet: %d + %d = %d moves\n", d, e, *best);
}

/* Breadth-first layers 1..maxd from the start under `budget` (a child at depth d
 * is kept when d + its row bound <= budget): layers up to `stored` go into the
 * set, a layer beyond is only checked. Each new position's reflection is looked
 * up in the set; the shortest meet d + e is kept in meet_pos/meet_d/meet_e.
 * Prints each layer's size and the time since t0 (s). Returns the shortest meet
 * (999: none). Exits when the set is 80% full. */
static int bfs(int budget, int stored, int maxd, double t0)
{
    size_t cap = 1 << 20;
    uint64_t *cur = xrealloc(NULL, cap * 8), *nxt = xrealloc(NULL, cap * 8);
    size_t nc = 0, nn = 0;
    const Bitboard s0 = start_pos();
    cur[nc++] = canon(s0);
    set_insert(canon(s0), 0);
    int best = 999;
    static Bitboard kids[MAX_KIDS];
    static uint64_t keys[MAX_KIDS], rkeys[MAX_KIDS];
    for (int d = 0; d < maxd; d++) {
        nn = 0;
        const int store = d + 1 <= stored;
        uint64_t checked = 0;
        for (size_t i = 0; i < nc; i++) {
            const Bitboard p = unrank(cur[i]);
            expanded++;
            const int n = children(p, 0, budget - d - 1, kids);
            if (store) {
                for (int j = 0; j < n; j++) {
                    keys[j] = canon(kids[j]);
                    __builtin_prefetch(&set[hmix(keys[j]) & set_mask]);
                }
                int m = 0;
                for (int j = 0; j < n; j++)
                    if (set_insert(keys[j], d + 1)) {
                        if (d + 1 == maxd) { /* never expanded: count only */
                            nn++;
                            kids[m++] = kids[j];
                            continue;
                        }
                        if (nn == cap) {
                            cap = cap * 3 / 2;
                            nxt = xrealloc(nxt, cap * 8);
                        }
                        nxt[nn++] = keys[j];
                        kids[m++] = kids[j];
                    }
                if (set_used * 10 > (set_mask + 1) * 8) {
                    fprintf(stderr, "stern-cross: the position set is 80%% full: raise LOG2_SET\n");
                    exit(1);
                }
                for (int j = 0; j < m; j++) {
                    rkeys[j] = canon(map_bb(kids[j], refl));
                    __builtin_prefetch(&set[hmix(rkeys[j]) & set_mask]);
                }
                for (int j = 0; j < m; j++) {
                    const int e = set_find(rkeys[j]);
                    if (e >= 0)
                        note_meet(kids[j], d + 1, e, &best);
                }
            } else {
                for (int j = 0; j < n; j++) {
                    rkeys[j] = canon(map_bb(kids[j], refl));
                    __builtin_prefetch(&set[hmix(rkeys[j]) & set_mask]);
                }
                for (int j = 0; j < n; j++) {
                    const int e = set_find(rkeys[j]);
                    checked++;
                    if (e >= 0)
                        note_meet(kids[j], d + 1, e, &best);
                }
            }
        }
        if (store)
            printf("depth %d: %zu new (set %llu), %.1f s, %llu expanded\n", d + 1, nn,
                   (unsigned long long)set_used, (ep_now_ms() / 1e3) - t0, (unsigned long long)expanded);
        else
            printf("depth %d: %llu children checked, not stored, %.1f s, %llu expanded\n", d + 1,
                   (unsigned long long)checked, (ep_now_ms() / 1e3) - t0, (unsigned long long)expanded);
        fflush(stdout);
        uint64_t *t = cur;
        cur = nxt;
        nxt = t;
        nc = nn;
        if (d + 2 < maxd) { /* the next layer's array may have to grow as much */
            free(nxt);
            nxt = xrealloc(NULL, cap * 8);
        }
    }
    free(cur);
    free(nxt);
    return best;
}

/* ---- the same layers by sorting (delayed duplicate detection, Korf 2004,
 * "Best-first frontier search with delayed duplicate detection", AAAI): each
 * layer a sorted array of keys; children are collected in chunks, sorted and
 * merged, so memory is read in order instead of probed at random ---- */

/* Sorts a[0..n) (keys < 2^44) with tmp (n entries) as scratch: four passes of
 * 11-bit digits, least significant first (an even count: the result ends in a). */
static void radix_sort(uint64_t *a, uint64_t *tmp, size_t n)
{
    static size_t count[1 << 11];
    for (int shift = 0; shift < 44; shift += 11) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(a[i] >> shift) & 0x7ff]++;
        size_t sum = 0;
        for (size_t b = 0; b < (1 << 11); b++) {
            const size_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[(a[i] >> shift) & 0x7ff]++] = a[i];
        uint64_t *t = a;
        a = tmp;
        tmp = t;
    }
}

/* Removes repeats from sorted a[0..n); returns the new length. */
static size_t uniq(uint64_t *a, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || a[m - 1] != a[i])
            a[m++] = a[i];
    return m;
}

/* Whether sorted x[0..n) holds k, walking the cursor *at forward (k ascending). */
static int has_walk(const uint64_t *x, size_t n, size_t *at, uint64_t k)
{
    while (*at < n && x[*at] < k)
        (*at)++;
    return *at < n && x[*at] == k;
}

typedef struct {
    uint64_t *k;
    size_t n;
} Layer;

/* Sorted a minus the keys of layers x and y, then merged into *next (sorted);
 * scratch: room for next->n + n keys. */
static void merge_chunk(uint64_t *a, size_t n, const Layer *x, const Layer *y, Layer *next, uint64_t **scratch)
{
    size_t ix = 0, iy = 0, m = 0;
    for (size_t i = 0; i < n; i++)
        if (!has_walk(x->k, x->n, &ix, a[i]) && !has_walk(y->k, y->n, &iy, a[i]))
            a[m++] = a[i];
    uint64_t *out = *scratch;
    size_t i = 0, j = 0, o = 0;
    while (i < next->n || j < m) {
        if (j == m || (i < next->n && next->k[i] < a[j]))
            out[o++] = next->k[i++];
        else if (i == next->n || a[j] < next->k[i])
            out[o++] = a[j++];
        else
            out[o++] = next->k[i++], j++;
    }
    *scratch = next->k;
    next->k = out;
    next->n = o;
}

/* Checks the reflections of layer `lay` (depth d) against layers `other` (depth
 * e) and lay itself; records meets. rbuf: room for lay->n keys, plus as much
 * scratch. */
static void check_meets(const Layer *lay, int d, const Layer *other, int e, uint64_t *rbuf, uint64_t *rtmp, int *best)
{
    for (size_t i = 0; i < lay->n; i++)
        rbuf[i] = canon(map_bb(unrank(lay->k[i]), refl));
    radix_sort(rbuf, rtmp, lay->n);
    size_t io = 0, il = 0;
    for (size_t i = 0; i < lay->n; i++) {
        if (other && has_walk(other->k, other->n, &io, rbuf[i]))
            note_meet(map_bb(unrank(rbuf[i]), refl), d, e, best);
        if (has_walk(lay->k, lay->n, &il, rbuf[i]))
            note_meet(map_bb(unrank(rbuf[i]), refl), d, d, best);
    }
}

/* bfs() by sorted layers: the same layers 1..maxd and meets (a child is new when
 * it is in neither of the two layers before it: a move's two ends are at most one
 * layer apart). chunk: keys collected before each sort. Returns the shortest
 * meet (999: none); no path is kept. */
static int bfs_sorted(int budget, int maxd, size_t chunk, double t0)
{
    Layer prev = {xrealloc(NULL, 8), 0}, cur = {xrealloc(NULL, 8), 1}, next;
    cur.k[0] = canon(start_pos());
    int best = 999;
    uint64_t *buf = big_alloc(chunk * 8), *tmp = big_alloc(chunk * 8);
    static Bitboard kids[MAX_KIDS];
    for (int d = 0; d < maxd; d++) {
        next = (Layer){xrealloc(NULL, 8), 0};
        uint64_t *scratch = xrealloc(NULL, 8);
        size_t nb = 0, total = 0;
        for (size_t i = 0; i <= cur.n; i++) {
            int n = 0;
            if (i < cur.n) {
                n = children(unrank(cur.k[i]), 0, budget - d - 1, kids);
                expanded++;
            }
            if (nb + (size_t)n > chunk || (i == cur.n && nb)) {
                radix_sort(buf, tmp, nb);
                nb = uniq(buf, nb);
                scratch = xrealloc(scratch, (next.n + nb) * 8);
                merge_chunk(buf, nb, &prev, &cur, &next, &scratch);
                total += nb;
                nb = 0;
            }
            for (int j = 0; j < n; j++)
                buf[nb++] = canon(kids[j]);
        }
        free(scratch);
        next.k = xrealloc(next.k, (next.n ? next.n : 1) * 8);
        uint64_t *rbuf = big_alloc((next.n + 1) * 8), *rtmp = big_alloc((next.n + 1) * 8);
        check_meets(&next, d + 1, &cur, d, rbuf, rtmp, &best);
        munmap(rbuf, (next.n + 1) * 8);
        munmap(rtmp, (next.n + 1) * 8);
        printf("depth %d: %zu new, %.1f s, %llu expanded\n", d + 1, next.n, (ep_now_ms() / 1e3) - t0,
               (unsigned long long)expanded);
        fflush(stdout);
        free(prev.k);
        prev = cur;
        cur = next;
    }
    free(prev.k);
    free(cur.k);
    munmap(buf, chunk * 8);
    munmap(tmp, chunk * 8);
    return best;
}

/* From q (a position whose canonical key is in the set at depth e), a path of
 * actual positions q = w[e], w[e-1], ..., w[0] = start, lock-free. */
static int walk_back(Bitboard q, int e, Bitboard *w)
{
    static Bitboard kids[MAX_KIDS];
    w[e] = q;
    for (int d = e; d > 0; d--) {
        const int n = children(w[d], 0, 99, kids);
        int ok = 0;
        for (int j = 0; j < n && !ok; j++)
            if (set_find(canon(kids[j])) == d - 1) {
                w[d - 1] = kids[j];
                ok = 1;
            }
        if (!ok)
            return -1;
    }
    return 0;
}

/* Checks the sequence of positions seq[0..n] with the engine's move generator
 * (real rules, target lock included) and prints the moves. Returns 1 when every
 * move is legal and the last position has arrived. */
static int verify(const Bitboard *seq, int n)
{
    static Game g;
    game_new(&g, "classic-2");
    Position p = g.pos;
    race_remove_army(&p, g.v.seats[1]);
    p.stm = (int8_t)seat;
    if (p.seat_bb[seat] != seq[0])
        return printf("verify: not the start\n"), 0;
    int ok = 1;
    printf("solution (%d moves):", n);
    for (int i = 0; i < n; i++) {
        const Bitboard gone = seq[i] & ~seq[i + 1], come = seq[i + 1] & ~seq[i];
        if (bb_count(gone) != 1 || bb_count(come) != 1) {
            printf(" [not one move at %d]\n", i);
            return 0;
        }
        const int from = bb_pop((Bitboard[]){gone}), to = bb_pop((Bitboard[]){come});
        if (!bb_test(marble_destinations(&p, seat, from), to)) {
            ok = 0;
            printf(" [ILLEGAL]");
        }
        Move mv = {.from = (uint8_t)from, .to = (uint8_t)to, .swap = NO_HOLE};
        char buf[MOVE_STR_MAX];
        printf(" %s", ok ? move_str(&p, &mv, buf) : "?");
        const Bitboard both = geo.bit[from] | geo.bit[to];
        p.occ ^= both;
        p.seat_bb[seat] ^= both;
        p.board[to] = p.board[from];
        p.board[from] = 0;
        p.moves[seat]++;
    }
    const int arrived = (p.seat_bb[seat] & ~target_bb) == 0;
    printf("\nverify: %s, %s\n", ok ? "every move legal" : "an illegal move", arrived ? "arrived" : "NOT arrived");
    return ok && arrived;
}

/* Sum of the marbles' rows (1-17 each) in p. */
static int row_sum(Bitboard p)
{
    int s = 0;
    for (Bitboard b = p; b;)
        s += row_of[bb_pop(&b)];
    return s;
}

/* ---- beam finder: layers of at most `width` positions (target lock on), the
 * best by score, until a child's reflection is in the set near enough ---- */
typedef struct {
    Bitboard p;
    int parent, score;
} BeamNode;

/* qsort order of BeamNode: least score first. */
static int beam_cmp(const void *a, const void *b)
{
    return ((const BeamNode *)a)->score - ((const BeamNode *)b)->score;
}

/* Beam search of at most `budget` moves, `width` positions a layer, score
 * wrb * row bound - row sum (least first), over the set of a previous bfs().
 * Returns the length n of the crossing written to seq[0..n] (positions), or -1
 * when the beam dies out or reaches the budget. */
static int beam_find(int budget, int width, int wrb, Bitboard *seq)
{
    BeamNode *layer[80];
    int n[80];
    layer[0] = xrealloc(NULL, sizeof(BeamNode));
    layer[0][0] = (BeamNode){start_pos(), -1, 0};
    n[0] = 1;
    const size_t dmask = (1u << 26) - 1;
    uint64_t *seen = xcalloc(dmask + 1, 8);
    static Bitboard kids[MAX_KIDS];
    for (int g = 0; g < budget; g++) {
        size_t cap = (size_t)n[g] * 64 + 1024, m = 0;
        BeamNode *cand = xrealloc(NULL, cap * sizeof *cand);
        memset(seen, 0, (dmask + 1) * 8);
        for (int i = 0; i < n[g]; i++) {
            const int k = children(layer[g][i].p, 1, budget - g - 1, kids);
            for (int j = 0; j < k; j++) {
                const uint64_t key = canon(kids[j]);
                size_t slot = hmix(key) & dmask;
                int dup = 0;
                while (seen[slot]) {
                    if (seen[slot] == key + 1) {
                        dup = 1;
                        break;
                    }
                    slot = (slot + 1) & dmask;
                }
                if (dup)
                    continue;
                seen[slot] = key + 1;
                const int e = set_find(canon(map_bb(kids[j], refl)));
                if (e >= 0 && g + 1 + e <= budget) {
                    /* path: layers back to the start, then the table's walk */
                    static Bitboard w[80];
                    int len = g + 1;
                    seq[len] = kids[j];
                    for (int x = i, d = g; d >= 0; x = layer[d][x].parent, d--)
                        seq[d] = layer[d][x].p;
                    if (walk_back(map_bb(kids[j], refl), e, w))
                        continue;
                    for (int t = 1; t <= e; t++)
                        seq[len + t] = map_bb(w[e - t], refl);
                    printf("beam: met the table at depth %d (+%d)\n", len, e);
                    return len + e;
                }
                if (m == cap) {
                    cap *= 2;
                    cand = xrealloc(cand, cap * sizeof *cand);
                }
                cand[m++] = (BeamNode){kids[j], i, wrb * row_bound(kids[j]) - row_sum(kids[j])};
            }
        }
        qsort(cand, m, sizeof *cand, beam_cmp);
        n[g + 1] = m < (size_t)width ? (int)m : width;
        layer[g + 1] = xrealloc(cand, (size_t)(n[g + 1] ? n[g + 1] : 1) * sizeof *cand);
        printf("beam depth %d: %zu candidates, kept %d, best score %d\n", g + 1, m, n[g + 1],
               n[g + 1] ? layer[g + 1][0].score : 0);
        fflush(stdout);
        if (!n[g + 1])
            return -1;
    }
    return -1;
}

static int usage(void)
{
    fprintf(stderr, "usage: stern-cross prove BUDGET LOG2_SET [LAYERS]\n"
                    "       stern-cross sorted BUDGET LOG2_CHUNK\n"
                    "       stern-cross beam TABLE_BUDGET TABLE_DEPTH BUDGET LOG2_SET WIDTH WEIGHT...\n"
                    "       stern-cross selftest\n");
    return 2;
}

/* The integer argument `s` named `what`, which must lie in [lo, hi]; exits with a
 * message saying which argument is wrong otherwise. */
static int arg_int(const char *s, int lo, int hi, const char *what)
{
    char *end;
    const long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "stern-cross: %s must be an integer from %d to %d, not '%s'\n", what, lo, hi, s);
        exit(2);
    }
    return (int)v;
}

int main(int argc, char **argv)
{
    setup();
    if (argc == 2 && !strcmp(argv[1], "selftest"))
        return selftest();
    const bool prove = argc >= 4 && argc <= 5 && !strcmp(argv[1], "prove");
    const bool sorted = argc == 4 && !strcmp(argv[1], "sorted");
    const bool beam = argc >= 8 && argc % 2 == 0 && !strcmp(argv[1], "beam");
    if (!prove && !sorted && !beam)
        return usage();
    /* validated here (name, range): the modes below read them with atoi */
    for (int a = 2; a < argc; a++) {
        static const char *const prove_names[] = {"BUDGET", "LOG2_SET", "LAYERS"};
        static const char *const sorted_names[] = {"BUDGET", "LOG2_CHUNK"};
        static const char *const beam_names[] = {"TABLE_BUDGET", "TABLE_DEPTH", "BUDGET", "LOG2_SET"};
        const char *name = prove ? prove_names[a - 2] : sorted ? sorted_names[a - 2]
                           : a < 6 ? beam_names[a - 2] : (a % 2 ? "WEIGHT" : "WIDTH");
        if (!strncmp(name, "LOG2_", 5))
            arg_int(argv[a], 10, 36, name);
        else if (beam && a >= 6)
            arg_int(argv[a], 1, 100000000, name);
        else
            arg_int(argv[a], 0, 60, name);
    }
    const double t0 = ep_now_ms() / 1e3;
    if (!strcmp(argv[1], "prove")) {
        const int budget = atoi(argv[2]), lg = atoi(argv[3]);
        set_mask = (1ULL << lg) - 1;
        set = big_alloc((set_mask + 1) * 8);
        const int layers = argc > 4 ? atoi(argv[4]) : (budget + 1) / 2;
        const int best = bfs(budget, budget / 2, layers < (budget + 1) / 2 ? layers : (budget + 1) / 2, t0);
        if (layers < (budget + 1) / 2 && best > budget) {
            printf("profile only: %d of %d layers\n", layers, (budget + 1) / 2);
            return 0;
        }
        if (best <= budget) {
            printf("solution of %d moves exists without the target lock\n", best);
            static Bitboard w[80], seq[160];
            if (walk_back(meet_pos, meet_d, seq) || walk_back(map_bb(meet_pos, refl), meet_e, w))
                return printf("walk back failed\n"), 1;
            for (int i = 1; i <= meet_e; i++)
                seq[meet_d + i] = map_bb(w[meet_e - i], refl);
            verify(seq, best);
        } else
            printf("no solution of %d moves or fewer (lock-free game, hence none under the rules); %llu positions "
                   "expanded, %.1f s\n",
                   budget, (unsigned long long)expanded, (ep_now_ms() / 1e3) - t0);
        return 0;
    }
    if (!strcmp(argv[1], "sorted")) {
        const int budget = atoi(argv[2]);
        const size_t chunk = (size_t)1 << atoi(argv[3]);
        const int best = bfs_sorted(budget, (budget + 1) / 2, chunk, t0);
        if (best <= budget)
            printf("solution of %d moves exists without the target lock\n", best);
        else
            printf("no solution of %d moves or fewer (lock-free game, hence none under the rules); %llu positions "
                   "expanded, %.1f s\n",
                   budget, (unsigned long long)expanded, (ep_now_ms() / 1e3) - t0);
        return 0;
    }
    if (!strcmp(argv[1], "beam") && argc >= 8) {
        const int tb = atoi(argv[2]), k = atoi(argv[3]), budget = atoi(argv[4]), lg = atoi(argv[5]);
        set_mask = (1ULL << lg) - 1;
        set = big_alloc((set_mask + 1) * 8);
        bfs(tb, k, k, t0);
        static Bitboard seq[160];
        for (int a = 6; a + 1 < argc; a += 2) {
            const int width = atoi(argv[a]), wrb = atoi(argv[a + 1]);
            printf("beam width %d, row-bound weight %d\n", width, wrb);
            const int n = beam_find(budget, width, wrb, seq);
            if (n > 0 && verify(seq, n))
                return 0;
        }
        return 1;
    }
    return usage();
}
