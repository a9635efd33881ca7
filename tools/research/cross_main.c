/* cross_main.c - stern-cross: the solitaire crossing (the 10 marbles of white alone
 * on the classic board, from their home point to the opposite point) by
 * bidirectional breadth-first search, for a proven lower bound on its length, and
 * by beam search, for a short solution checked move by move against the rules.
 *
 *   stern-cross prove BUDGET LOG2_SET [LAYERS]
 *       proves that no crossing of BUDGET moves or fewer exists, or finds one;
 *       LOG2_SET: log2 of the position set's entries (8 bytes each); LAYERS:
 *       stop after that many layers (a profile, no proof)
 *   stern-cross sorted BUDGET LOG2_CHUNK [THREADS]
 *       the same proof with each layer sorted arrays (delayed duplicate
 *       detection): less memory and faster on big budgets, but a solution found
 *       is only reported (prove rebuilds its moves); LOG2_CHUNK: log2 of the keys
 *       each thread collects before it sorts them (16 bytes each with the
 *       scratch); THREADS: 1 to 64, default 1. `sorted 26 26 2` refutes every
 *       crossing of 26 moves or fewer (docs/RACE.md: 2,820 s on two threads, 16.4 GB)
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
#include "args.h"
#include "board.h"
#include "engine_proc.h"
#include "game.h"
#include "movegen.h"
#include "notation.h"
#include "race.h"
#include "work_queue.h"

#include <pthread.h>
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
static Bitboard rows_from[N_ROWS + 2]; /* rows_from[r]: the holes on rows r..17 */
static uint64_t pow11[N_ROWS];         /* 11^i */

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
 * hole only target holes), as movegen.h's gen_destinations; else without it. */
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

/* The row bound (race.c's lower_bound without obstacles) of the row counts a
 * (nine marbles) plus one marble on row r, in a few steps for any r once built
 * from a: the bound's terms with that marble's share split off. With far the
 * farthest row, the front terms of rows <= 14 peak at row 14 (23 - far when far
 * <= 12), rows 15-17 need 6, 3 and 1 marbles; the rear term of row q is the
 * marbles on rows <= q plus 13 - q. */
typedef struct {
    int out, far, ge[N_ROWS + 2]; /* marbles on rows <= 13; the farthest row; ge[x]: on rows >= x */
    int pm[N_ROWS + 1]; /* pm[q]: max over q' <= q with marbles on rows <= q' of (those marbles + 13 - q') */
    int sm[N_ROWS + 2]; /* sm[q]: max over q <= q' <= 13 of (marbles on rows <= q' + 14 - q') */
} BoundSplit;

#define NO_TERM (-1000)

__attribute__((always_inline)) /* into the bisection: a second caller stopped the compiler inlining it */
static inline void bound_split(const int *a, BoundSplit *bs)
{
    bs->out = 0;
    bs->far = 0;
    for (int r = 1; r <= N_ROWS; r++) {
        if (r <= 13)
            bs->out += a[r];
        if (a[r])
            bs->far = r;
    }
    bs->ge[N_ROWS + 1] = 0;
    for (int r = N_ROWS; r >= 1; r--)
        bs->ge[r] = bs->ge[r + 1] + a[r];
    int cum = 0, best = NO_TERM;
    bs->pm[0] = NO_TERM;
    int cums[14];
    for (int q = 1; q <= 13; q++) {
        cum += a[q];
        cums[q] = cum;
        if (cum && cum + 13 - q > best)
            best = cum + 13 - q;
        bs->pm[q] = best;
    }
    bs->sm[14] = NO_TERM;
    for (int q = 13; q >= 1; q--)
        bs->sm[q] = cums[q] + 14 - q > bs->sm[q + 1] ? cums[q] + 14 - q : bs->sm[q + 1];
}

static int max2(int x, int y) { return x > y ? x : y; }

/* The row bound of bound_split(a, bs)'s counts plus one marble on row r. */
static int bound_with(const BoundSplit *bs, int r)
{
    const int out = bs->out + (r <= 13);
    if (!out)
        return 0;
    const int far = max2(bs->far, r);
    int best;
    if (far <= 12)
        best = 23 - far;
    else {
        const int ge14 = bs->ge[14] + (r >= 14), ge15 = bs->ge[15] + (r >= 15), ge16 = bs->ge[16] + (r >= 16),
                  ge17 = bs->ge[17] + (r >= 17);
        best = 10 - ge14;
        best = max2(best, far >= 14 ? 6 - ge15 : (14 - far) + 6);
        best = max2(best, far >= 15 ? 3 - ge16 : (15 - far) + 3);
        best = max2(best, far >= 16 ? 1 - ge17 : (16 - far) + 1);
    }
    best = max2(best, bs->pm[r - 1 < 13 ? r - 1 : 13]);
    if (r <= 13)
        best = max2(best, bs->sm[r]);
    return max2(out, best);
}

/* The row bound of race.c's lower_bound for the marbles' count per row
 * (a[1..17], ten marbles; restored on return): the farthest marble split off and
 * put back by bound_with. */
static int row_bound_hist(int *a)
{
    int far = N_ROWS;
    while (!a[far])
        far--;
    BoundSplit bs;
    a[far]--;
    bound_split(a, &bs);
    a[far]++;
    return bound_with(&bs, far);
}

/* The row bound of position p (ten marbles, no obstacles). */
static int row_bound(Bitboard p)
{
    int own_at[N_ROWS + 2] = {0};
    for (Bitboard b = p; b;)
        own_at[row_of[bb_pop(&b)]]++;
    return row_bound_hist(own_at);
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
    seat = g.v->seats[0];
    board_init();
    const Bitboard foreign = g.v->foreign[seat];
    resting = geo.all & ~foreign;
    target_bb = g.v->target[seat];
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
    pow11[0] = 1;
    for (int i = 1; i < N_ROWS; i++)
        pow11[i] = pow11[i - 1] * 11;
    for (int r = 1; r <= N_ROWS + 1; r++)
        for (int h = 0; h < NUM_HOLES; h++)
            if (row_of[h] >= r)
                rows_from[r] |= geo.bit[h];
    for (int x = 0; x < 128; x++) {
        binom[x][0] = 1;
        for (int k = 1; k <= N_MARBLES; k++)
            binom[x][k] = x ? binom[x - 1][k - 1] + binom[x - 1][k] : 0;
    }
    /* the mirror must keep the axis: rows unchanged; the reflection reverses them */
    for (int h = 0; h < NUM_HOLES; h++)
        if (row_of[mirr[h]] != row_of[h] || row_of[refl[h]] != 18 - row_of[h] ||
            bb_test(resting, mirr[h]) != bb_test(resting, h) || bb_test(resting, refl[h]) != bb_test(resting, h) ||
            bb_test(target_bb, refl[h]) != bb_test(g.v->home[seat], h))
            fprintf(stderr, "bad symmetry at %d\n", h), exit(1);
}

/* White's home: the start of the crossing. */
static Bitboard start_pos(void)
{
    static Game g;
    game_new(&g, "classic-2");
    return g.pos.seat_bb[seat];
}

static int keyed_differences(Bitboard p);
static int nearest_row_ok(Bitboard p);
static int meet_differences(void);

/* Compares, on 20,000 random placements of 10 marbles, dests_l with the lock to
 * gen_destinations (and without it to a superset), row_bound to
 * race_lower_bound, unrank(rank_of) to the identity, and the keys of
 * children_keyed to class_of and canon of children(), nearest_row to the row
 * bound on every row, and the meets of bfs and bfs_sorted (meet_differences).
 * Returns 1 on any
 * difference. */
static int selftest(void)
{
    static Game g;
    game_new(&g, "classic-2");
    Position p = g.pos;
    race_remove_army(&p, g.v->seats[1]);
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
        if (keyed_differences(b))
            bad++, fprintf(stderr, "children_keyed differs\n");
        if (t < 5000 && !nearest_row_ok(b)) /* 31 budgets x 17 rows per marble: the first 5,000 */
            bad++, fprintf(stderr, "nearest_row differs\n");
        for (Bitboard c = b; c;) {
            const int h = bb_pop(&c);
            if ((dests_l(b, h, 1) != gen_destinations(&q, seat, h)) || (dests_l(b, h, 1) & ~dests(b, h)))
                bad++, fprintf(stderr, "destinations differ at %d\n", h);
        }
    }
    bad += meet_differences();
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

/* The nearest row (1..17; 18: none) on which a marble added to the row counts
 * own_at (nine marbles) leaves a row bound of at most hmax, by bisection (the
 * bound cannot rise as that row grows; see children()). */
static int nearest_row(const int *own_at, int hmax)
{
    BoundSplit bs;
    bound_split(own_at, &bs);
    int lo = 1, hi = N_ROWS + 1; /* the answer is in [lo, hi] */
    while (lo < hi) {
        const int r = (lo + hi) / 2;
        if (bound_with(&bs, r) > hmax)
            lo = r + 1;
        else
            hi = r;
    }
    return lo;
}

/* Whether nearest_row() is right for every marble of p and every hmax from 0 to
 * 30: compared with row_bound_hist on every row (which also checks that the rows
 * passing form an interval ending at row 17). */
static int nearest_row_ok(Bitboard p)
{
    int a[N_ROWS + 2] = {0};
    for (Bitboard b = p; b;)
        a[row_of[bb_pop(&b)]]++;
    for (Bitboard b = p; b;) {
        const int from = bb_pop(&b);
        a[row_of[from]]--;
        for (int hmax = 0; hmax <= 30; hmax++) {
            int want = N_ROWS + 1;
            bool upward = true; /* no failing row above a passing one */
            for (int r = N_ROWS; r >= 1; r--) {
                a[r]++;
                const bool pass = row_bound_hist(a) <= hmax;
                a[r]--;
                if (pass && want != r + 1)
                    upward = false;
                if (pass && upward)
                    want = r;
            }
            if (!upward || nearest_row(a, hmax) != want) {
                a[row_of[from]]++;
                return 0;
            }
        }
        a[row_of[from]]++;
    }
    return 1;
}

/* The holes where the marble on `from` may end a move of p (lock-free or with the
 * lock) leaving a row bound of at most hmax; own_at: p's marbles per row
 * (restored on return). See children(). */
__attribute__((always_inline)) /* so that the lock is a constant in children_keyed */
static inline Bitboard marble_ends(Bitboard p, int from, int *own_at, int lock, int hmax)
{
    own_at[row_of[from]]--;
    const int lo = nearest_row(own_at, hmax);
    own_at[row_of[from]]++;
    return lo <= N_ROWS ? dests_l(p, from, lock) & rows_from[lo] : 0;
}

/* Children of p (lock-free or with the lock) whose row bound is at most hmax,
 * into kids; returns their number. The bound cannot rise when one marble moves
 * to a farther row, the others fixed (each of row_bound_hist's terms counts
 * marbles on or behind a row, or falls as the farthest row grows), so the rows a
 * marble may end on are those from the nearest one that passes, found by
 * bisection: five bounds per marble instead of one per destination, and no
 * flood for a marble that cannot pass at all. */
static int children(Bitboard p, int lock, int hmax, Bitboard *kids)
{
    int own_at[N_ROWS + 2] = {0}, n = 0;
    for (Bitboard b = p; b;)
        own_at[row_of[bb_pop(&b)]]++;
    for (Bitboard b = p; b;) {
        const int from = bb_pop(&b);
        for (Bitboard e = marble_ends(p, from, own_at, lock, hmax); e;)
            kids[n++] = (p ^ geo.bit[from]) | geo.bit[bb_pop(&e)];
    }
    return n;
}

static uint64_t expanded;
static bool verbose = true; /* layer and meet lines (selftest runs quiet) */
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
    if (verbose)
        printf("meet: %d + %d = %d moves\n", d, e, *best);
}

/* Breadth-first layers 1..maxd from s0 (the start, or for selftest a position
 * symmetric under the mirror) under `budget` (a child at depth d
 * is kept when d + its row bound <= budget): layers up to `stored` go into the
 * set, a layer beyond is only checked. Each new position's reflection is looked
 * up in the set; the shortest meet d + e is kept in meet_pos/meet_d/meet_e.
 * Prints each layer's size and the time since t0 (s). Returns the shortest meet
 * (999: none). Exits when the set is 80% full. */
static int bfs(Bitboard s0, int budget, int stored, int maxd, double t0)
{
    size_t cap = 1 << 20;
    uint64_t *cur = xrealloc(NULL, cap * 8), *nxt = xrealloc(NULL, cap * 8);
    size_t nc = 0, nn = 0;
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
        if (!verbose)
            ;
        else if (store)
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
 * layer sorted arrays of keys; children are collected in chunks, sorted and
 * merged, so memory is read in order instead of probed at random. A layer is
 * split into NCLASS classes by its positions' row counts read either way (the
 * smaller of the two readings, hashed): the mirror keeps every marble's row and
 * the reflection reverses the rows, so a position, its mirror image and its
 * reflection share a class. Duplicates and meets are then looked for within one
 * class, a merge copies one class, and threads work on different ones. ---- */

#define NCLASS 64
#define CLASS_SHIFT 41 /* keys (ranks) are below 2^41; the class sits above them */

typedef struct {
    uint64_t *k;
    size_t n;
} Run; /* sorted, no repeats */

typedef struct {
    Run c[NCLASS];
} Layer;

/* The row counts of p (marbles per row) read as base-11 numbers from row 1 and
 * from row 17 (11^17 < 2^64): fwd = sum a[r] 11^(17-r), back = sum a[r] 11^(r-1). */
static void row_readings(Bitboard p, uint64_t *fwd, uint64_t *back)
{
    *fwd = *back = 0;
    for (Bitboard b = p; b;) {
        const int r = row_of[bb_pop(&b)];
        *fwd += pow11[N_ROWS - r];
        *back += pow11[r - 1];
    }
}

/* The class (0..NCLASS-1) of the position whose row readings are fwd and back:
 * the reflection swaps the two, the mirror keeps both. */
static int class_of_readings(uint64_t fwd, uint64_t back)
{
    return (int)(hmix(fwd < back ? fwd : back) & (NCLASS - 1));
}

/* The class of position p: shared by its mirror image and its reflection. */
static int class_of(Bitboard p)
{
    uint64_t fwd, back;
    row_readings(p, &fwd, &back);
    return class_of_readings(fwd, back);
}

/* The ranks (rank_of) of the positions `others` (nine marbles) plus one marble on
 * hole y: with k = 1 + the marbles of others on holes below y (hole order is
 * rank order), rank = pre[k] + C(index of y, k) + post[k]. */
typedef struct {
    uint64_t pre[N_MARBLES + 1], post[N_MARBLES + 1];
    Bitboard others;
} RankSplit;

static void rank_split(Bitboard others, RankSplit *rs)
{
    int t[N_MARBLES], n = 0;
    for (Bitboard b = others; b;)
        t[n++] = rest_idx[bb_pop(&b)];
    rs->pre[1] = 0;
    for (int k = 1; k <= n; k++)
        rs->pre[k + 1] = rs->pre[k] + binom[t[k - 1]][k];
    rs->post[n + 1] = 0;
    for (int k = n; k >= 1; k--)
        rs->post[k] = rs->post[k + 1] + binom[t[k - 1]][k + 1];
    rs->others = others;
}

static uint64_t rank_with(const RankSplit *rs, int y)
{
    const int k = 1 + bb_count(rs->others & (bb_bit(y) - 1));
    return rs->pre[k] + binom[rest_idx[y]][k] + rs->post[k];
}

/* children() without the lock, each child written to out as its class <<
 * CLASS_SHIFT | canon(child), worked out from the parent's: a child moves one
 * marble, so its row readings change by two powers of 11 and its ranks (its own
 * and its mirror image's) by the place of one hole among the other nine. out:
 * room for MAX_KIDS keys. Returns their number. */
static int children_keyed(Bitboard p, int hmax, uint64_t *out)
{
    int own_at[N_ROWS + 2] = {0}, n = 0;
    for (Bitboard b = p; b;)
        own_at[row_of[bb_pop(&b)]]++;
    uint64_t fwd, back;
    row_readings(p, &fwd, &back);
    for (Bitboard b = p; b;) {
        const int from = bb_pop(&b), a = row_of[from];
        Bitboard e = marble_ends(p, from, own_at, 0, hmax);
        if (!e)
            continue;
        const Bitboard others = p ^ geo.bit[from];
        RankSplit own, mirrored;
        rank_split(others, &own);
        rank_split(map_bb(others, mirr), &mirrored);
        const uint64_t f0 = fwd - pow11[N_ROWS - a], b0 = back - pow11[a - 1];
        while (e) {
            const int to = bb_pop(&e), r = row_of[to];
            const uint64_t k1 = rank_with(&own, to), k2 = rank_with(&mirrored, mirr[to]);
            out[n++] = (uint64_t)class_of_readings(f0 + pow11[N_ROWS - r], b0 + pow11[r - 1]) << CLASS_SHIFT |
                       (k1 < k2 ? k1 : k2);
        }
    }
    return n;
}

/* The children of p whose children_keyed() keys differ from class_of and canon of
 * children()'s positions (all children, and those within p's row bound + 2). */
static int keyed_differences(Bitboard p)
{
    static Bitboard kids[MAX_KIDS];
    static uint64_t keys[MAX_KIDS];
    int bad = 0;
    for (int pass = 0; pass < 2; pass++) {
        const int hmax = pass ? row_bound(p) + 2 : 99;
        const int n = children(p, 0, hmax, kids);
        if (children_keyed(p, hmax, keys) != n)
            return 1;
        for (int j = 0; j < n; j++)
            bad += keys[j] != ((uint64_t)class_of(kids[j]) << CLASS_SHIFT | canon(kids[j]));
    }
    return bad;
}

/* Sorts a[0..n) (keys < 2^48) with tmp (n entries) as scratch: four passes of
 * 12-bit digits, least significant first (an even count: the result ends in a). */
static void radix_sort(uint64_t *a, uint64_t *tmp, size_t n)
{
    size_t count[1 << 12];
    for (int shift = 0; shift < 48; shift += 12) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(a[i] >> shift) & 0xfff]++;
        size_t sum = 0;
        for (size_t b = 0; b < (1 << 12); b++) {
            const size_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[(a[i] >> shift) & 0xfff]++] = a[i];
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

/* Whether run x holds k, moving the cursor *at forward (k ascending between
 * calls): galloping (doubling steps, then bisection), so a few keys looked up
 * in a long run cost a few probes each, not a walk over the run. */
static int has_gallop(const Run *x, size_t *at, uint64_t k)
{
    size_t lo = *at, step = 1;
    if (lo >= x->n || x->k[lo] >= k)
        return lo < x->n && x->k[lo] == k;
    while (lo + step < x->n && x->k[lo + step] < k) { /* x[lo] < k */
        lo += step;
        step *= 2;
    }
    size_t hi = lo + step < x->n ? lo + step : x->n; /* x[lo] < k <= x[hi] (or hi = n) */
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (x->k[mid] < k)
            lo = mid;
        else
            hi = mid;
    }
    *at = hi;
    return hi < x->n && x->k[hi] == k;
}

/* The keys of sorted a[0..n) in neither run x nor run y, merged into run *next
 * (sorted, no repeats). */
static void merge_run(uint64_t *a, size_t n, const Run *x, const Run *y, Run *next)
{
    size_t ix = 0, iy = 0, m = 0;
    for (size_t i = 0; i < n; i++)
        if (!has_gallop(x, &ix, a[i]) && !has_gallop(y, &iy, a[i]))
            a[m++] = a[i];
    if (!m)
        return;
    uint64_t *out = xrealloc(NULL, (next->n + m) * 8);
    size_t i = 0, j = 0, o = 0;
    while (i < next->n || j < m) {
        if (j == m || (i < next->n && next->k[i] < a[j]))
            out[o++] = next->k[i++];
        else if (i == next->n || a[j] < next->k[i])
            out[o++] = a[j++];
        else
            out[o++] = next->k[i++], j++;
    }
    free(next->k);
    next->k = xrealloc(out, o * 8);
    next->n = o;
}

/* One layer's work, shared by the threads: expanding the parents of `cur` (block
 * by block) into `next`, then the meets class by class. */
typedef struct {
    const Layer *prev, *cur;
    Layer *next;
    int d, budget;
    size_t chunk;               /* keys a thread collects before it sorts them */
    size_t total;               /* parents in cur */
    size_t start[NCLASS + 1];   /* where each class of cur begins among them */
    struct Collector *collectors; /* one a thread, while it expands */
    uint64_t expanded;
    pthread_mutex_t lock[NCLASS];
    pthread_mutex_t meet_lock;
    int *best;
} Sweep;

#define BLOCK 4096 /* parents a thread takes at a time */

/* Sorts the thread's keys (class << CLASS_SHIFT | key) and merges each class's
 * share into the next layer. */
static void flush(Sweep *w, uint64_t *buf, uint64_t *tmp, size_t nb)
{
    radix_sort(buf, tmp, nb);
    nb = uniq(buf, nb);
    for (size_t i = 0; i < nb;) {
        const int c = (int)(buf[i] >> CLASS_SHIFT);
        size_t j = i;
        while (j < nb && (int)(buf[j] >> CLASS_SHIFT) == c) {
            buf[j] &= (1ULL << CLASS_SHIFT) - 1;
            j++;
        }
        pthread_mutex_lock(&w->lock[c]);
        merge_run(buf + i, j - i, &w->prev->c[c], &w->cur->c[c], &w->next->c[c]);
        pthread_mutex_unlock(&w->lock[c]);
        i = j;
    }
}

/* What a thread collects while it expands: keys not yet merged, and the
 * parents it expanded. */
typedef struct Collector {
    uint64_t *buf, *tmp;
    size_t nb;
    uint64_t parents;
} Collector;

/* Expands block `job` of cur's parents (BLOCK of them) into `thread`'s keys,
 * merged into the next layer whenever they fill its buffer. */
static int expand_job(void *ctx, long job, int thread)
{
    Sweep *w = ctx;
    Collector *k = &w->collectors[thread];
    if (!k->buf) {
        k->buf = big_alloc(w->chunk * 8);
        k->tmp = big_alloc(w->chunk * 8);
    }
    const size_t b0 = (size_t)job * BLOCK, b1 = b0 + BLOCK < w->total ? b0 + BLOCK : w->total;
    int c = 0;
    while (w->start[c + 1] <= b0)
        c++;
    for (size_t g = b0; g < b1; g++) {
        while (w->start[c + 1] <= g)
            c++;
        if (k->nb + MAX_KIDS > w->chunk) {
            flush(w, k->buf, k->tmp, k->nb);
            k->nb = 0;
        }
        k->nb += (size_t)children_keyed(unrank(w->cur->c[c].k[g - w->start[c]]), w->budget - w->d - 1, k->buf + k->nb);
        k->parents++;
    }
    return 0;
}

/* Meets of the next layer (depth d + 1) with cur (depth d) and with itself in
 * class `job`: a reflection lies in its position's class. */
static int meet_job(void *ctx, long job, int thread)
{
    (void)thread;
    Sweep *w = ctx;
    const Run *lay = &w->next->c[job], *other = &w->cur->c[job];
    if (!lay->n)
        return 0;
    uint64_t *r = xrealloc(NULL, lay->n * 8), *tmp = xrealloc(NULL, lay->n * 8);
    for (size_t i = 0; i < lay->n; i++)
        r[i] = canon(map_bb(unrank(lay->k[i]), refl));
    radix_sort(r, tmp, lay->n);
    size_t io = 0, il = 0;
    for (size_t i = 0; i < lay->n; i++) {
        const int e = has_gallop(other, &io, r[i]) ? w->d : has_gallop(lay, &il, r[i]) ? w->d + 1 : -1;
        if (e >= 0) {
            pthread_mutex_lock(&w->meet_lock);
            note_meet(map_bb(unrank(r[i]), refl), w->d + 1, e, w->best);
            pthread_mutex_unlock(&w->meet_lock);
        }
    }
    free(r);
    free(tmp);
    return 0;
}

/* Runs `jobs` jobs of fn on `threads` threads over w, and waits for them. */
static void run_threads(int threads, long jobs, WorkFn fn, Sweep *w)
{
    if (work_queue_run(jobs, threads, fn, w)) {
        fprintf(stderr, "stern-cross: cannot start a thread\n");
        exit(1);
    }
}

/* Expands every parent of cur into the next layer on `threads` threads: each
 * thread's last keys are merged after the run. */
static void expand(int threads, Sweep *w)
{
    w->collectors = xrealloc(NULL, (size_t)threads * sizeof *w->collectors);
    memset(w->collectors, 0, (size_t)threads * sizeof *w->collectors);
    run_threads(threads, (long)((w->total + BLOCK - 1) / BLOCK), expand_job, w);
    for (int t = 0; t < threads; t++) {
        Collector *k = &w->collectors[t];
        if (!k->buf)
            continue;
        if (k->nb)
            flush(w, k->buf, k->tmp, k->nb);
        w->expanded += k->parents;
        munmap(k->buf, w->chunk * 8);
        munmap(k->tmp, w->chunk * 8);
    }
    free(w->collectors);
}

static size_t layer_size(const Layer *l)
{
    size_t n = 0;
    for (int c = 0; c < NCLASS; c++)
        n += l->c[c].n;
    return n;
}

static void layer_free(Layer *l)
{
    for (int c = 0; c < NCLASS; c++)
        free(l->c[c].k);
    *l = (Layer){0};
}

/* bfs() from s0 by sorted layers on `threads` threads: the same layers 1..maxd and meets
 * (a child is new when it is in neither of the two layers before it: a move's
 * two ends are at most one layer apart). chunk: keys each thread collects before
 * it sorts them. Returns the shortest meet (999: none); no path is kept. */
static int bfs_sorted(Bitboard s0, int budget, int maxd, size_t chunk, int threads, double t0)
{
    static Layer prev, cur, next;
    cur.c[class_of(s0)] = (Run){xrealloc(NULL, 8), 1};
    cur.c[class_of(s0)].k[0] = canon(s0);
    int best = 999;
    static Sweep w;
    memset(&w, 0, sizeof w);
    for (int c = 0; c < NCLASS; c++)
        pthread_mutex_init(&w.lock[c], NULL);
    pthread_mutex_init(&w.meet_lock, NULL);
    for (int d = 0; d < maxd; d++) {
        w.prev = &prev;
        w.cur = &cur;
        w.next = &next;
        w.d = d;
        w.budget = budget;
        w.chunk = chunk;
        w.best = &best;
        w.total = 0;
        for (int c = 0; c < NCLASS; c++) {
            w.start[c] = w.total;
            w.total += cur.c[c].n;
        }
        w.start[NCLASS] = w.total;
        expand(threads, &w);
        layer_free(&prev); /* not needed for the meets */
        run_threads(threads, NCLASS, meet_job, &w);
        size_t largest = 0;
        for (int c = 0; c < NCLASS; c++)
            largest = next.c[c].n > largest ? next.c[c].n : largest;
        if (verbose)
            printf("depth %d: %zu new (largest class %zu), %.1f s, %llu expanded\n", d + 1, layer_size(&next), largest,
                   (ep_now_ms() / 1e3) - t0, (unsigned long long)w.expanded);
        fflush(stdout);
        prev = cur;
        cur = next;
        next = (Layer){0};
    }
    expanded = w.expanded;
    for (int c = 0; c < NCLASS; c++)
        pthread_mutex_destroy(&w.lock[c]);
    pthread_mutex_destroy(&w.meet_lock);
    layer_free(&prev);
    layer_free(&cur);
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

/* The meets of both searches where some exist: from 20 starts S symmetric under
 * the mirror whose reflection is at most four moves away (a position Z symmetric
 * under the mirror and the reflection, then a move and its mirror image, or a
 * move of a marble on the mirror's axis along it), bfs() and bfs_sorted() on two
 * threads without the row bound (budget 99) must find the same shortest meet, at
 * most 4, and bfs()'s walk back from it must reach S. (These starts meet at 2 or
 * 4 moves, in one layer; a meet across two layers, d + (d + 1), is the same
 * lookup in the layer before.) Returns the number of starts where they do not. */
static int meet_differences(void)
{
    const bool was = verbose;
    verbose = false;
    set_mask = (1ULL << 22) - 1;
    set = big_alloc((set_mask + 1) * 8);
    int bad = 0;
    for (int t = 0; t < 20; t++) {
        Bitboard z = 0, s = 0;
        while (!s) {
            z = 0;
            while (bb_count(z) < N_MARBLES) { /* whole orbits of the two symmetries */
                const int h = rest_hole[rand() % 81];
                const Bitboard orbit = geo.bit[h] | geo.bit[mirr[h]] | geo.bit[refl[h]] | geo.bit[mirr[refl[h]]];
                if (!(z & orbit) && bb_count(z | orbit) <= N_MARBLES)
                    z |= orbit;
                else if (rand() % 50 == 0)
                    z = 0; /* no orbit fits the holes left: start again */
            }
            if (t % 2) { /* a marble on the mirror's axis moving along it */
                for (Bitboard m = z; m && !s;) {
                    const int x = bb_pop(&m);
                    for (Bitboard e = mirr[x] == x ? dests(z, x) : 0; e && !s;) {
                        const int y = bb_pop(&e);
                        if (mirr[y] == y && rand() % 2)
                            s = (z ^ geo.bit[x]) | geo.bit[y];
                    }
                }
                continue;
            }
            const int x = bb_first(z), mx = mirr[x];
            const Bitboard e = dests(z, x) & ~geo.bit[mx];
            if (mx == x || !e)
                continue;
            const int y = bb_first(e), my = mirr[y];
            const Bitboard z1 = (z ^ geo.bit[x]) | geo.bit[y];
            if (my != y && bb_test(dests(z1, mx), my))
                s = (z1 ^ geo.bit[mx]) | geo.bit[my];
        }
        memset(set, 0, (set_mask + 1) * 8);
        set_used = 0;
        const int a = bfs(s, 99, 2, 2, 0);
        Bitboard w[4];
        const int walked = a <= 4 && !walk_back(meet_pos, meet_d, w) && w[0] == s;
        const int b = bfs_sorted(s, 99, 2, 1 << 12, 2, 0);
        if (a != b || a > 4 || !walked)
            bad++, fprintf(stderr, "meet differs: set %d, sorted %d\n", a, b);
    }
    munmap(set, (set_mask + 1) * 8);
    set = NULL;
    verbose = was;
    return bad;
}

/* Checks the sequence of positions seq[0..n] with the engine's move generator
 * (real rules, target lock included) and prints the moves. Returns 1 when every
 * move is legal and the last position has arrived. */
static int verify(const Bitboard *seq, int n)
{
    static Game g;
    game_new(&g, "classic-2");
    Position p = g.pos;
    race_remove_army(&p, g.v->seats[1]);
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
        if (!bb_test(gen_destinations(&p, seat, from), to)) {
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

/* The line a refuted budget prints (test_race and the README read it). */
static void report_none(int budget, double t0)
{
    printf("no solution of %d moves or fewer (lock-free game, hence none under the rules); %llu positions "
           "expanded, %.1f s\n",
           budget, (unsigned long long)expanded, (ep_now_ms() / 1e3) - t0);
}

static int usage_to(FILE *f, int status)
{
    fprintf(f, "usage: stern-cross prove BUDGET LOG2_SET [LAYERS]\n"
                    "       stern-cross sorted BUDGET LOG2_CHUNK [THREADS]\n"
                    "       stern-cross beam TABLE_BUDGET TABLE_DEPTH BUDGET LOG2_SET WIDTH WEIGHT...\n"
                    "       stern-cross selftest\n");
    return status;
}

static int usage(void) { return usage_to(stderr, 2); }

/* The integer argument `s` named `what`, which must lie in [lo, hi]; exits with a
 * message saying which argument is wrong otherwise. */
static int int_arg(const char *s, int lo, int hi, const char *what)
{
    long long v;
    if (!args_int("stern-cross", what, s, lo, hi, &v))
        exit(2);
    return (int)v;
}

int main(int argc, char **argv)
{
    if (args_help(argc, argv))
        return usage_to(stdout, 0);
    setup();
    if (argc == 2 && !strcmp(argv[1], "selftest"))
        return selftest();
    const bool prove = argc >= 4 && argc <= 5 && !strcmp(argv[1], "prove");
    const bool sorted = argc >= 4 && argc <= 5 && !strcmp(argv[1], "sorted");
    const bool beam = argc >= 8 && argc % 2 == 0 && !strcmp(argv[1], "beam");
    if (!prove && !sorted && !beam)
        return usage();
    /* validated here (name, range): the modes below read them with atoi */
    for (int a = 2; a < argc; a++) {
        static const char *const prove_names[] = {"BUDGET", "LOG2_SET", "LAYERS"};
        static const char *const sorted_names[] = {"BUDGET", "LOG2_CHUNK", "THREADS"};
        static const char *const beam_names[] = {"TABLE_BUDGET", "TABLE_DEPTH", "BUDGET", "LOG2_SET"};
        const char *name = prove ? prove_names[a - 2] : sorted ? sorted_names[a - 2]
                           : a < 6 ? beam_names[a - 2] : (a % 2 ? "WEIGHT" : "WIDTH");
        if (!strncmp(name, "LOG2_", 5))
            int_arg(argv[a], 10, 36, name);
        else if (beam && a >= 6)
            int_arg(argv[a], 1, 100000000, name);
        else if (sorted && a == 4)
            int_arg(argv[a], 1, 64, name);
        else
            int_arg(argv[a], 0, 60, name);
    }
    const double t0 = ep_now_ms() / 1e3;
    if (!strcmp(argv[1], "prove")) {
        const int budget = atoi(argv[2]), lg = atoi(argv[3]);
        set_mask = (1ULL << lg) - 1;
        set = big_alloc((set_mask + 1) * 8);
        const int layers = argc > 4 ? atoi(argv[4]) : (budget + 1) / 2;
        const int best =
            bfs(start_pos(), budget, budget / 2, layers < (budget + 1) / 2 ? layers : (budget + 1) / 2, t0);
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
            report_none(budget, t0);
        return 0;
    }
    if (!strcmp(argv[1], "sorted")) {
        const int budget = atoi(argv[2]);
        const size_t chunk = (size_t)1 << atoi(argv[3]);
        const int threads = argc > 4 ? atoi(argv[4]) : 1;
        const int best = bfs_sorted(start_pos(), budget, (budget + 1) / 2, chunk, threads, t0);
        if (best <= budget)
            printf("solution of %d moves exists without the target lock\n", best);
        else
            report_none(budget, t0);
        return 0;
    }
    if (!strcmp(argv[1], "beam") && argc >= 8) {
        const int tb = atoi(argv[2]), k = atoi(argv[3]), budget = atoi(argv[4]), lg = atoi(argv[5]);
        set_mask = (1ULL << lg) - 1;
        set = big_alloc((set_mask + 1) * 8);
        bfs(start_pos(), tb, k, k, t0);
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
