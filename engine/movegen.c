/* movegen.c - legal move generation; see movegen.h. */
#include "movegen.h"

#include "board.h"

#include <stdlib.h>
#include <string.h>

int jump_landings(JumpRule rule, Bitboard occ, int c, int d, uint8_t land[], uint8_t over[])
{
    const uint8_t *line = geo.line[c][d];
    const int len = geo.line_len[c][d];
    if (rule == JUMP_SHORT) {
        if (len < 2 || !bb_test(occ, line[0]) || bb_test(occ, line[1]))
            return 0;
        land[0] = line[1];
        over[0] = line[0];
        return 1;
    }
    if (rule == JUMP_LONG) {
        int i = 0;
        while (i < len && !bb_test(occ, line[i]))
            i++;
        const int landing = 2 * i + 1; /* marble at distance i+1, landing at 2(i+1) */
        if (landing >= len)
            return 0;
        for (int j = i + 1; j <= landing; j++)
            if (bb_test(occ, line[j]))
                return 0;
        land[0] = line[landing];
        over[0] = line[i];
        return 1;
    }
    /* Symmetric: holes 0..k-1 between, landing k; the pattern must read the same from
     * both ends and hold a marble. */
    int n = 0, first = -1;
    for (int k = 1; k < len; k++) {
        if (first < 0 && bb_test(occ, line[k - 1]))
            first = k - 1;
        if (first < 0 || bb_test(occ, line[k]))
            continue;
        bool mirrored = true;
        for (int i = 0, j = k - 1; i < j && mirrored; i++, j--)
            mirrored = bb_test(occ, line[i]) == bb_test(occ, line[j]);
        if (mirrored) {
            land[n] = line[k];
            over[n] = line[first];
            n++;
        }
    }
    return n;
}

/* Holes the marble on `from` can land on by a chain of jumps, honouring the target
 * lock at every landing (RULES.md section 3); `occ` has `from` lifted. */
static Bitboard chain_reach(JumpRule rule, Bitboard occ, Bitboard target, int from)
{
    Bitboard seen = bb_bit(from);
    uint8_t stack[NUM_HOLES], land[MAX_LINE], over[MAX_LINE];
    int sp = 0;
    stack[sp++] = (uint8_t)from;
    while (sp) {
        const int c = stack[--sp];
        const Bitboard allowed = bb_test(target, c) ? target : geo.all;
        for (int d = 0; d < NUM_DIRS; d++) {
            const int n = jump_landings(rule, occ, c, d, land, over);
            for (int i = 0; i < n; i++) {
                const Bitboard b = bb_bit(land[i]);
                if ((seen & b) || !(allowed & b))
                    continue;
                seen |= b;
                stack[sp++] = land[i];
            }
        }
    }
    return seen & ~bb_bit(from);
}

/* Short-rule chain flood on the mailbox `board` (p->board, or a copy with marbles
 * lifted) and the precomputed jump lists; the hot path of classic (perft and
 * search spend most of their time here). Returns the landings; when one of them
 * is in `stop` it returns early with at least that one (and perhaps not all).
 * With `area`, adds to *area the holes the flood read (geo.within2 of every hole
 * it stood on). */
static inline __attribute__((always_inline)) Bitboard chain_reach_short(const uint8_t *board, const uint8_t *in_target,
                                                                        int from, Bitboard stop, Bitboard *area)
{
    uint8_t stack[NUM_HOLES];
    uint8_t parent[NUM_HOLES], over[NUM_HOLES]; /* with area: how each landing was reached */
    Bitboard seen = geo.bit[from];
    int sp = 0;
    stack[sp++] = (uint8_t)from;
    while (sp) {
        const int c = stack[--sp];
        const bool locked = in_target[c];
        if (area)
            *area |= geo.within2[c];
        /* all NUM_DIRS entries, unrolled: the padding (c, c) fails the tests (board.h) */
        for (int i = 0; i < NUM_DIRS; i++) {
            const int mid = geo.jump_over[c][i], l = geo.jump_land[c][i];
            if (!board[mid] || mid == from || board[l] || (seen & geo.bit[l]) || (locked && !in_target[l]))
                continue;
            seen |= geo.bit[l];
            if (area) {
                parent[l] = (uint8_t)c;
                over[l] = (uint8_t)mid;
            }
            if (stop & geo.bit[l]) {
                /* Found: the answer now rests only on the chain that got here (its
                 * jumped marbles and its empty landings), so that is the area. */
                if (area) {
                    Bitboard proof = 0;
                    for (int x = l; x != from; x = parent[x])
                        proof |= geo.bit[x] | geo.bit[over[x]];
                    *area = proof;
                }
                return seen & ~geo.bit[from];
            }
            stack[sp++] = (uint8_t)l;
        }
    }
    return seen & ~geo.bit[from];
}

/* What a flood needs to know of the seat that moves, looked up once per seat (the
 * move list's byte stores could alias p->v, so the compiler would reload it). */
typedef struct {
    JumpRule jump;
    Bitboard target, not_foreign;
    const uint8_t *in_target;
} Mover;

static inline Mover mover_of(const Position *p, int s)
{
    const Variant *v = p->v;
    return (Mover){v->jump, v->target[s], ~v->foreign[s], v->in_target[s]};
}

/* marble_destinations on the mailbox `board` and occupancy `occ` for mover `m`;
 * with `stop`, it may return early with only some destinations, one of them in
 * `stop`. With `area`, sets *area to the holes whose occupancy the answer was read
 * from (all holes for the long and symmetric rules). */
static inline __attribute__((always_inline)) Bitboard destinations(const Mover *m, const uint8_t *board, Bitboard occ,
                                                                   int from, Bitboard stop, Bitboard *area)
{
    const Bitboard end_ok = m->not_foreign & (bb_test(m->target, from) ? m->target : geo.all);
    const Bitboard steps = geo.adjacent[from] & ~occ & end_ok;
    if (steps & stop) {
        if (area) /* the answer rests on one empty hole a step away */
            *area = bb_bit(bb_first(steps & stop));
        return steps;
    }
    if (area)
        *area = m->jump == JUMP_SHORT ? geo.within2[from] : geo.all;
    Bitboard jumps;
    if (m->jump != JUMP_SHORT)
        jumps = chain_reach(m->jump, occ & ~bb_bit(from), m->target, from);
    else if (geo.adjacent[from] & occ) /* a short jump needs a neighbour to jump */
        jumps = chain_reach_short(board, m->in_target, from, stop & end_ok, area);
    else
        jumps = 0;
    return steps | (jumps & end_ok);
}

Bitboard marble_destinations(const Position *p, int s, int from)
{
    const Mover m = mover_of(p, s);
    return destinations(&m, p->board, p->occ, from, 0, NULL);
}

bool marble_reaches(const Position *p, const uint8_t *board, Bitboard occ, int s, int from, Bitboard want,
                    Bitboard *area)
{
    const Mover m = mover_of(p, s);
    return (destinations(&m, board, occ, from, want, area) & want) != 0;
}

int marble_count_area(const Position *p, int s, int from, Bitboard *area)
{
    const Mover m = mover_of(p, s);
    return bb_count(destinations(&m, p->board, p->occ, from, 0, area));
}

/* Masters: the seat whose marbles may be swapped out of s's target, or -1 when
 * none may (RULES.md section 8: that seat must have made 30 or more moves). */
static int swap_victim(const Position *p, int s)
{
    const int o = (s + 3) % 6;
    if (!p->v->masters || p->v->slot[o] < 0 || p->moves[o] < p->v->deadline)
        return -1;
    return o;
}

/* Appends the Masters swaps of the marble on `from` (chain landings `reach`) to
 * list (when non-NULL) and returns how many there are. A swap is a step, or a last
 * short jump, from a hole outside s's target onto a victim marble in the target. */
static int gen_swaps(const Position *p, int s, int from, Bitboard reach, MoveList *list)
{
    const int o = swap_victim(p, s);
    if (o < 0)
        return 0;
    const Bitboard target = p->v->target[s];
    const Bitboard victims = p->seat_bb[o] & target & p->v->home[o];
    if (!victims)
        return 0;
    const Bitboard occ = p->occ & ~bb_bit(from);
    int count = 0;
    Bitboard starts = (reach | bb_bit(from)) & ~target;
    while (starts) {
        const int c = bb_pop(&starts);
        for (int d = 0; d < NUM_DIRS; d++) {
            const int len = geo.line_len[c][d];
            uint8_t to[2];
            int n = 0;
            if (c == from && len >= 1 && bb_test(victims, geo.line[c][d][0]))
                to[n++] = geo.line[c][d][0]; /* a step */
            if (len >= 2 && bb_test(occ, geo.line[c][d][0]) && bb_test(victims, geo.line[c][d][1]))
                to[n++] = geo.line[c][d][1]; /* a last jump */
            for (int i = 0; i < n; i++) {
                if (list && list->n < MAX_MOVES)
                    list->m[list->n++] = (Move){.from = (uint8_t)from, .to = to[i], .swap = (uint8_t)c};
                count++;
            }
        }
    }
    return count;
}

bool marble_can_move(const Position *p, int s, int from)
{
    const Bitboard dests = marble_destinations(p, s, from);
    if (dests)
        return true;
    return gen_swaps(p, s, from, 0, NULL) > 0;
}

/* ---- capture mode ---- */

#define CAPTURE_SET_START 1024 /* entries of the set before it first grows */

typedef struct {
    Bitboard captured;
    int16_t end;
    uint32_t stamp; /* the entry belongs to the current start piece when == CaptureGen.stamp */
} SeenEntry;

typedef struct {
    MoveList *list;   /* may be NULL: count only */
    int count;
    int from;
    /* open-addressing set of (end, captured) already produced from `from`,
     * doubled whenever it is half full: a piece can have any number of chains */
    SeenEntry *seen;
    unsigned size, used; /* size: a power of two; used: entries of this stamp */
    uint32_t stamp;
    SeenEntry first[CAPTURE_SET_START];
} CaptureGen;

static unsigned seen_slot(const CaptureGen *g, int end, Bitboard captured)
{
    const uint64_t h = ((uint64_t)captured * 0x9E3779B97F4A7C15ull) ^ (uint64_t)(captured >> 64) * 0xC2B2AE3D27D4EB4Full ^
                       (uint64_t)end * 0x165667B19E3779F9ull;
    unsigned i = (unsigned)(h >> 32) & (g->size - 1);
    while (g->seen[i].stamp == g->stamp && !(g->seen[i].end == end && g->seen[i].captured == captured))
        i = (i + 1) & (g->size - 1);
    return i;
}

static void seen_grow(CaptureGen *g)
{
    SeenEntry *old = g->seen;
    const unsigned old_size = g->size;
    g->size *= 2;
    g->seen = calloc(g->size, sizeof *g->seen);
    if (!g->seen)
        abort();
    const uint32_t stamp = g->stamp;
    for (unsigned i = 0; i < old_size; i++)
        if (old[i].stamp == stamp)
            g->seen[seen_slot(g, old[i].end, old[i].captured)] = old[i];
    if (old != g->first)
        free(old);
}

/* Whether (end, captured) was already produced from this start; records it. */
static bool capture_seen(CaptureGen *g, int end, Bitboard captured)
{
    const unsigned i = seen_slot(g, end, captured);
    if (g->seen[i].stamp == g->stamp)
        return true;
    g->seen[i] = (SeenEntry){captured, (int16_t)end, g->stamp};
    if (++g->used * 2 > g->size)
        seen_grow(g);
    return false;
}

/* Records the chain state (end `to`, pieces `cap` taken) as a move unless it
 * was reached before from this start. Returns whether it is new: the chains
 * that go on from a state depend on it alone (the board is the start's less
 * the pieces taken), so a state reached again is not walked again. */
static bool capture_found(CaptureGen *g, int to, Bitboard cap, int ncapt)
{
    if (capture_seen(g, to, cap))
        return false;
    if (g->list && g->list->n < MAX_MOVES)
        g->list->m[g->list->n++] = (Move){.captured = cap, .from = (uint8_t)g->from, .to = (uint8_t)to,
                                          .swap = NO_HOLE, .ncapt = (uint8_t)ncapt};
    g->count++;
    return true;
}

/* Short-rule capture chains on the precomputed jump lists (the common case). */
static void capture_dfs_short(CaptureGen *g, Bitboard occ, int c, Bitboard captured, int ncapt)
{
    const int n = geo.njumps[c];
    for (int i = 0; i < n; i++) {
        const int mid = geo.jump_over[c][i], l = geo.jump_land[c][i];
        if (!(occ & geo.bit[mid]) || (occ & geo.bit[l]))
            continue;
        const Bitboard cap = captured | geo.bit[mid];
        if (capture_found(g, l, cap, ncapt + 1))
            capture_dfs_short(g, occ & ~geo.bit[mid], l, cap, ncapt + 1);
    }
}

static void capture_dfs(CaptureGen *g, JumpRule rule, Bitboard occ, int c, Bitboard captured, int ncapt)
{
    uint8_t land[MAX_LINE], over[MAX_LINE];
    if (rule == JUMP_SHORT) {
        capture_dfs_short(g, occ, c, captured, ncapt);
        return;
    }
    for (int d = 0; d < NUM_DIRS; d++) {
        if (!jump_landings(rule, occ, c, d, land, over))
            continue;
        const Bitboard cap = captured | bb_bit(over[0]);
        if (capture_found(g, land[0], cap, ncapt + 1))
            capture_dfs(g, rule, occ & ~bb_bit(over[0]), land[0], cap, ncapt + 1);
    }
}

/* Per thread: the set's first table is reused from call to call, the stamp
 * telling its entries apart (cleared when the stamp wraps). */
static _Thread_local CaptureGen capture_gen;

static int capture_moves(const Position *p, MoveList *list)
{
    CaptureGen *g = &capture_gen;
    g->list = list;
    g->count = 0;
    g->seen = g->first;
    g->size = CAPTURE_SET_START;
    for (Bitboard pieces = p->neutral; pieces;) {
        const int from = bb_pop(&pieces);
        g->from = from;
        if (++g->stamp == 0) { /* wrapped: entries of an old stamp could match */
            memset(g->first, 0, sizeof g->first);
            g->stamp = 1;
        }
        g->used = 0;
        capture_dfs(g, p->v->jump, p->occ & ~bb_bit(from), from, 0, 0);
        if (g->seen != g->first) { /* grown for this start: back to the first table */
            free(g->seen);
            g->seen = g->first;
            g->size = CAPTURE_SET_START;
        }
    }
    return g->count;
}

/* ---- entry points ---- */

/* A marble's destinations as race_moves last found them: they hold wherever the
 * occupancy agrees with `occ` on `area` (the holes the flood read). */
typedef struct {
    Bitboard occ, area; /* area 0: empty */
    Bitboard dests;
} DestAnswer;

/* The answers for one seat under one set of rules (short jumps, the seat's
 * target and foreign points), per start hole. */
typedef struct {
    Bitboard target, not_foreign;
    bool used;
    DestAnswer answer[NUM_HOLES];
} DestMemo;

/* Per thread and seat. A search generates the moves of nodes a few moves apart,
 * where most marbles' floods read none of the holes that changed. */
static _Thread_local DestMemo dest_memo[MAX_SEATS];

/* The memo of seat s for mover m (emptied when the rules changed), or NULL when
 * answers are not remembered (other jump rules: their floods read every hole). */
static DestMemo *dest_memo_of(const Mover *m, int s)
{
    if (m->jump != JUMP_SHORT)
        return NULL;
    DestMemo *d = &dest_memo[s];
    if (!d->used || d->target != m->target || d->not_foreign != m->not_foreign)
        *d = (DestMemo){.target = m->target, .not_foreign = m->not_foreign, .used = true};
    return d;
}

/* The step and jump ends of the marble on `from` in p, through the thread's
 * memo when there is one (race variants). */
static Bitboard memo_destinations(const Position *p, const Mover *mover, DestMemo *memo, int from)
{
    if (!memo)
        return destinations(mover, p->board, p->occ, from, 0, NULL);
    DestAnswer *a = &memo->answer[from];
    if (!area_answer_holds(a->area, a->occ, p->occ)) {
        a->occ = p->occ;
        a->dests = destinations(mover, p->board, p->occ, from, 0, &a->area);
    }
    return a->dests;
}

/* Appends a race move from `from` to every hole of `dests`, in hole order: word by
 * word, as 64-bit sets pop cheaper than 128-bit ones. */
static inline void add_race_moves(MoveList *list, int from, Bitboard dests)
{
    for (uint64_t b = (uint64_t)dests; b; b &= b - 1)
        list->m[list->n++] = (Move){.from = (uint8_t)from, .to = (uint8_t)__builtin_ctzll(b), .swap = NO_HOLE};
    for (uint64_t b = (uint64_t)(dests >> 64); b; b &= b - 1)
        list->m[list->n++] = (Move){.from = (uint8_t)from, .to = (uint8_t)(64 + __builtin_ctzll(b)), .swap = NO_HOLE};
}

/* The race moves of the side to move (into list when not NULL); returns their
 * number. With `no_return`, a marble outside the home gets no move into it: then
 * *dropped tells whether some move was left out. */
static int race_moves(const Position *p, MoveList *list, bool no_return, bool *dropped)
{
    const int s = p->stm;
    const Mover mover = mover_of(p, s);
    DestMemo *memo = dest_memo_of(&mover, s);
    const Bitboard home = p->v->home[s];
    Bitboard left_out = 0;
    int count = 0;
    for (Bitboard own = p->seat_bb[s]; own;) {
        const int from = bb_pop(&own);
        Bitboard dests = memo_destinations(p, &mover, memo, from);
        if (no_return && !bb_test(home, from)) {
            left_out |= dests & home;
            dests &= ~home;
        }
        count += bb_count(dests);
        if (list)
            add_race_moves(list, from, dests);
        if (p->v->masters) {
            const Bitboard reach = chain_reach(JUMP_SHORT, p->occ & ~bb_bit(from), p->v->target[s], from);
            count += gen_swaps(p, s, from, reach, list);
        }
    }
    if (dropped)
        *dropped = left_out != 0;
    return count;
}

bool race_move_exists(const Position *p, int from, int to)
{
    const int s = p->stm;
    if (s < 0 || from < 0 || from >= NUM_HOLES || to < 0 || to >= NUM_HOLES || p->board[from] != s + 1)
        return false;
    const Mover mover = mover_of(p, s);
    return bb_test(memo_destinations(p, &mover, dest_memo_of(&mover, s), from), to);
}

void gen_moves(const Position *p, MoveList *list)
{
    list->n = 0;
    if (pos_over(p))
        return;
    if (p->v->capture)
        capture_moves(p, list);
    else
        race_moves(p, list, false, NULL);
}

void gen_moves_no_return(const Position *p, MoveList *list)
{
    list->n = 0;
    if (pos_over(p))
        return;
    if (p->v->capture) {
        capture_moves(p, list);
        return;
    }
    bool dropped;
    race_moves(p, list, true, &dropped);
    if (list->n == 0 && dropped) /* only homecomings: they stay */
        race_moves(p, list, false, NULL);
}

/* Whether the marble on `from` has a first short jump: a piece next to it with the hole
 * beyond empty (the padding entries (from, from) fail: from is occupied). */
static inline bool jump_start(const uint8_t *board, int from)
{
    for (int i = 0; i < NUM_DIRS; i++)
        if (board[geo.jump_over[from][i]] && !board[geo.jump_land[from][i]])
            return true;
    return false;
}

int best_progress(const Position *p, const uint8_t dist[NUM_HOLES], MoveList *scratch)
{
    if (pos_over(p))
        return 0;
    int best = 0;
    if (p->v->capture || p->v->masters) { /* swaps and captures: from the whole list */
        gen_moves(p, scratch);
        for (int i = 0; i < scratch->n; i++) {
            const int d = dist[scratch->m[i].from] - dist[scratch->m[i].to];
            best = d > best ? d : best;
        }
        return best;
    }
    const int s = p->stm;
    const Mover mover = mover_of(p, s);
    DestMemo *memo = dest_memo_of(&mover, s);
    /* The farthest marbles first, as they can gain the most and then let the
     * others be skipped: from the end of the hole order that is farther by
     * `dist` (the seats' tips lie at its ends or at its sides). */
    const bool downward = dist[0] < dist[NUM_HOLES - 1];
    const Bitboard own = p->seat_bb[s];
    uint64_t word[2] = {(uint64_t)own, (uint64_t)(own >> 64)};
    for (int k = 0; k < 2; k++) {
        const int w = downward ? 1 - k : k;
        while (word[w]) {
            const int bit = downward ? 63 - __builtin_clzll(word[w]) : __builtin_ctzll(word[w]);
            word[w] &= ~((uint64_t)1 << bit);
            const int from = 64 * w + bit;
            /* Marbles that cannot beat best are skipped without a flood: no end is
             * nearer than 0, and under the short rule a marble without a first
             * jump has only steps, each at most 1 nearer. */
            if (dist[from] <= best || (best >= 1 && mover.jump == JUMP_SHORT && !jump_start(p->board, from)))
                continue;
            int nearest = dist[from] - best; /* only ends nearer than this improve best */
            const Bitboard dests = memo_destinations(p, &mover, memo, from);
            for (int v = 0; v < 2; v++)
                for (uint64_t b = (uint64_t)(dests >> (64 * v)); b; b &= b - 1) {
                    const int d = dist[64 * v + __builtin_ctzll(b)];
                    nearest = d < nearest ? d : nearest;
                }
            best = dist[from] - nearest;
        }
    }
    return best;
}

int count_moves(const Position *p)
{
    if (pos_over(p))
        return 0;
    return p->v->capture ? capture_moves(p, NULL) : race_moves(p, NULL, false, NULL);
}
