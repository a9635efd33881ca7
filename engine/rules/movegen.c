/* movegen.c - legal move generation; see movegen.h. */
#include "movegen.h"

#include "board.h"

#include <stdlib.h>
#include <string.h>

/* The long-rule jump from c in direction d: its landing (and in *over the
 * marble jumped), or -1. The nearest marble decides: at distance k it must be
 * the midpoint, the k holes beyond it (the landing last) empty. */
static inline int long_jump(Bitboard occ, int c, int d, int *over)
{
    const Bitboard ahead = occ & geo.ray[c][d];
    if (!ahead)
        return -1;
    const int h = geo.ray_up[d] ? bb_first(ahead) : bb_last(ahead);
    const int l = geo.mirror[c][h];
    if (l == NO_HOLE || (occ & geo.ray[h][d] & ~geo.ray[l][d]))
        return -1;
    *over = h;
    return l;
}

int gen_jump_landings(JumpRule rule, Bitboard occ, int c, int d, uint8_t land[], uint8_t over[])
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
        int h;
        const int l = long_jump(occ, c, d, &h);
        if (l < 0)
            return 0;
        land[0] = (uint8_t)l;
        over[0] = (uint8_t)h;
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
            const int n = gen_jump_landings(rule, occ, c, d, land, over);
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

/* gen_destinations on the mailbox `board` and occupancy `occ` for mover `m`;
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

Bitboard gen_destinations(const Position *p, int s, int from)
{
    const Mover m = mover_of(p, s);
    return destinations(&m, p->board, p->occ, from, 0, NULL);
}

bool gen_first_legal(const Position *p, Move *out)
{
    if (pos_over(p))
        return false;
    if (p->v->capture) {
        for (Bitboard pieces = p->neutral; pieces;) {
            const int from = bb_pop(&pieces);
            const Bitboard occ = p->occ & ~bb_bit(from);
            for (int d = 0; d < NUM_DIRS; d++) {
                uint8_t land[MAX_LINE], over[MAX_LINE];
                if (gen_jump_landings(p->v->jump, occ, from, d, land, over)) {
                    *out = (Move){.captured = bb_bit(over[0]), .from = (uint8_t)from, .to = land[0],
                                  .swap = NO_HOLE, .ncapt = 1};
                    return true;
                }
            }
        }
        return false;
    }
    for (Bitboard own = p->seat_bb[p->stm]; own;) {
        const int from = bb_pop(&own);
        const Bitboard dests = gen_destinations(p, p->stm, from);
        if (dests) {
            *out = (Move){.from = (uint8_t)from, .to = (uint8_t)bb_first(dests), .swap = NO_HOLE};
            return true;
        }
    }
    return false; /* only Masters swaps, or no move */
}

bool gen_reaches(const Position *p, const uint8_t *board, Bitboard occ, int s, int from, Bitboard want,
                    Bitboard *area)
{
    const Mover m = mover_of(p, s);
    return (destinations(&m, board, occ, from, want, area) & want) != 0;
}

int gen_count_area(const Position *p, int s, int from, Bitboard *area)
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
                if (list)
                    move_list_push(list, (Move){.from = (uint8_t)from, .to = to[i], .swap = (uint8_t)c});
                count++;
            }
        }
    }
    return count;
}

bool gen_can_move(const Position *p, int s, int from)
{
    const Bitboard dests = gen_destinations(p, s, from);
    if (dests)
        return true;
    return gen_swaps(p, s, from, 0, NULL) > 0;
}

/* ---- capture mode ---- */

/* A chain state: the captured set with the end hole in the bitboard's top bits
 * (holes use bits 0-120). The chains that go on from a state depend on it alone
 * (the board is the start's less the pieces taken), so each is walked once. */
typedef Bitboard ChainState;
#define STATE_END_SHIFT 121
#define STATE_CAPTURED ((bb_bit(STATE_END_SHIFT)) - 1)

static inline ChainState chain_state(int end, Bitboard captured)
{
    return captured | (Bitboard)end << STATE_END_SHIFT;
}

/* Chains are walked breadth first, a layer per number of captures: states of
 * different layers differ, so only one layer's states need remembering. */
typedef struct {
    ChainState *cur, *next; /* this layer's states, the next layer's */
    size_t ncur, nnext, cap;
    ChainState *set; /* open addressing, 0 = free; the next layer's states */
    size_t set_size, set_alloc; /* slots in use (a power of two), allocated */
    unsigned since_check; /* states since the abort hook was last asked */
    int64_t states;       /* states of the generation in progress (gen_memo_states) */
    bool stopped;         /* the hook said stop: later calls stop at their first move */
    bool (*abort_fn)(void *);
    void *abort_arg;
} CaptureGen;

static void capture_gen_free(CaptureGen *g)
{
    free(g->cur);
    free(g->next);
    free(g->set);
    g->cur = g->next = g->set = NULL;
    g->cap = g->set_size = g->set_alloc = 0;
}

#define ABORT_CHECK_STATES 4096

static bool grow_layers(CaptureGen *g)
{
    const size_t cap = g->cap ? g->cap * 2 : 1024;
    ChainState *cur = realloc(g->cur, sizeof *cur * cap);
    if (!cur)
        return false;
    g->cur = cur;
    ChainState *next = realloc(g->next, sizeof *next * cap);
    if (!next)
        return false;
    g->next = next;
    g->cap = cap;
    return true;
}

/* Empties the set for a layer of up to `expect` states (a power of two at least
 * twice that, so probes stay short). */
static bool set_reset(CaptureGen *g, size_t expect)
{
    size_t size = 64;
    while (size < 2 * expect)
        size *= 2;
    if (size > g->set_alloc) {
        free(g->set);
        g->set = calloc(size, sizeof *g->set);
        g->set_alloc = g->set ? size : 0;
        g->set_size = g->set_alloc;
        return g->set != NULL;
    }
    g->set_size = size;
    memset(g->set, 0, sizeof *g->set * size);
    return true;
}

/* Adds t to the set of size `size`; whether it was new. */
static inline bool set_insert(ChainState *set, size_t size, ChainState t)
{
    const uint64_t h = ((uint64_t)t ^ (uint64_t)(t >> 64) * 0xC2B2AE3D27D4EB4Full) * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 32) & (size - 1);
    while (set[i]) {
        if (set[i] == t)
            return false;
        i = (i + 1) & (size - 1);
    }
    set[i] = t;
    return true;
}

/* Doubles the set when half full, keeping the next layer's states. */
static bool set_reset_grow(CaptureGen *g)
{
    const size_t size = g->set_size * 2;
    ChainState *set = calloc(size, sizeof *set);
    if (!set)
        return false;
    for (size_t j = 0; j < g->nnext; j++)
        set_insert(set, size, g->next[j]);
    free(g->set);
    g->set = set;
    g->set_size = g->set_alloc = size;
    return true;
}

/* Which the generator is asked for. */
typedef enum { WANT_LIST, WANT_COUNT, WANT_BEST } CaptureWant;

/* The capture moves of p: into list (WANT_LIST), or counted, or the most
 * captures of one move (WANT_BEST). Returns the count (or the most captures);
 * -1 when stopped or out of memory. */
static int64_t capture_moves_in(CaptureGen *g, const Position *p, MoveList *list, CaptureWant want)
{
    const JumpRule rule = p->v->jump;
    int64_t count = 0;
    int most = 0;
    for (Bitboard pieces = p->neutral; pieces;) {
        const int from = bb_pop(&pieces);
        const Bitboard base = p->occ & ~bb_bit(from);
        if (!g->cap && !grow_layers(g))
            return -1;
        g->cur[0] = chain_state(from, 0);
        g->ncur = 1;
        for (int k = 1; g->ncur; k++) {
            /* layers 1 and 2 cannot repeat a state: two jumps over the same two
             * pieces in either order end on different holes */
            const bool dedup = k > 2;
            g->states = count;
            if (count && g->abort_fn && (g->stopped || g->abort_fn(g->abort_arg))) {
                g->stopped = true;
                return -1;
            }
            if (dedup && !set_reset(g, g->ncur))
                return -1;
            g->nnext = 0;
            for (size_t j = 0; j < g->ncur; j++) {
                const ChainState st = g->cur[j];
                const int c = (int)(st >> STATE_END_SHIFT);
                const Bitboard captured = st & STATE_CAPTURED, occ = base & ~captured;
                uint8_t mids[NUM_DIRS], lands[NUM_DIRS];
                int n = 0;
                if (rule == JUMP_SHORT) {
                    for (int i = 0; i < geo.njumps[c]; i++) {
                        const int mid = geo.jump_over[c][i], l = geo.jump_land[c][i];
                        if ((occ & geo.bit[mid]) && !(occ & geo.bit[l])) {
                            mids[n] = (uint8_t)mid;
                            lands[n++] = (uint8_t)l;
                        }
                    }
                } else if (rule == JUMP_LONG) {
                    for (int d = 0; d < NUM_DIRS; d++) {
                        int h;
                        const int l = long_jump(occ, c, d, &h);
                        if (l >= 0) {
                            mids[n] = (uint8_t)h;
                            lands[n++] = (uint8_t)l;
                        }
                    }
                } else {
                    uint8_t land[MAX_LINE], over[MAX_LINE];
                    for (int d = 0; d < NUM_DIRS; d++)
                        if (gen_jump_landings(rule, occ, c, d, land, over)) {
                            mids[n] = over[0];
                            lands[n++] = land[0];
                        }
                }
                for (int i = 0; i < n; i++) {
                    const Bitboard cap = captured | geo.bit[mids[i]];
                    const ChainState t = chain_state(lands[i], cap);
                    if (dedup) {
                        if (2 * g->nnext >= g->set_size && !set_reset_grow(g))
                            return -1;
                        if (!set_insert(g->set, g->set_size, t))
                            continue;
                    }
                    if (g->nnext == g->cap && !grow_layers(g))
                        return -1;
                    g->next[g->nnext++] = t;
                    count++;
                    if (want == WANT_LIST &&
                        !move_list_push(list, (Move){.captured = cap, .from = (uint8_t)from, .to = lands[i],
                                                     .swap = NO_HOLE, .ncapt = (uint8_t)k}))
                        return -1;
                }
                /* stopped only once a move is found: a stopped search still answers */
                if (count && (g->stopped || ++g->since_check >= ABORT_CHECK_STATES)) {
                    g->since_check = 0;
                    g->states = count;
                    if (g->stopped || (g->abort_fn && g->abort_fn(g->abort_arg))) {
                        g->stopped = g->abort_fn != NULL;
                        return -1;
                    }
                }
            }
            if (g->nnext)
                most = k > most ? k : most;
            ChainState *t = g->cur;
            g->cur = g->next;
            g->next = t;
            g->ncur = g->nnext;
        }
    }
    return want == WANT_BEST ? most : count;
}

/* ---- entry points ---- */

/* capture_moves_in with memo's buffers and abort hook, or (memo NULL) buffers
 * of this call's own and no hook. */
static int64_t capture_moves(const Position *p, MoveList *list, CaptureWant want, GenMemo *memo);

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

struct GenMemo {
    /* Per seat: a search generates the moves of nodes a few moves apart, where
     * most marbles' floods read none of the holes that changed. */
    DestMemo dest[MAX_SEATS];
    CaptureGen capture;
};

GenMemo *gen_memo_new(void) { return calloc(1, sizeof(GenMemo)); }

void gen_memo_delete(GenMemo *memo)
{
    if (!memo)
        return;
    capture_gen_free(&memo->capture);
    free(memo);
}

int64_t gen_memo_states(const GenMemo *memo) { return memo->capture.states; }

void gen_memo_set_abort(GenMemo *memo, bool (*fn)(void *arg), void *arg)
{
    memo->capture.abort_fn = fn;
    memo->capture.abort_arg = arg;
    memo->capture.stopped = false;
}

static int64_t capture_moves(const Position *p, MoveList *list, CaptureWant want, GenMemo *memo)
{
    if (memo) {
        memo->capture.states = 0;
        return capture_moves_in(&memo->capture, p, list, want);
    }
    CaptureGen own = {0};
    const int64_t n = capture_moves_in(&own, p, list, want);
    capture_gen_free(&own);
    return n;
}

/* The memo of seat s for mover m in `memo` (emptied when the rules changed), or
 * NULL when answers are not remembered (no memo, or other jump rules: their
 * floods read every hole). */
static DestMemo *dest_memo_of(GenMemo *memo, const Mover *m, int s)
{
    if (!memo || m->jump != JUMP_SHORT)
        return NULL;
    DestMemo *d = &memo->dest[s];
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
static int race_moves(const Position *p, MoveList *list, bool no_return, bool *dropped, GenMemo *gm)
{
    const int s = p->stm;
    const Mover mover = mover_of(p, s);
    DestMemo *memo = dest_memo_of(gm, &mover, s);
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
        if (list) {
            if (!move_list_reserve(list, list->n + bb_count(dests))) {
                list->cut = true;
                return count;
            }
            add_race_moves(list, from, dests);
        }
        if (p->v->masters) {
            const Bitboard reach = chain_reach(JUMP_SHORT, p->occ & ~bb_bit(from), p->v->target[s], from);
            count += gen_swaps(p, s, from, reach, list);
        }
    }
    if (dropped)
        *dropped = left_out != 0;
    return count;
}

bool gen_race_move_exists(const Position *p, int from, int to, GenMemo *memo)
{
    const int s = p->stm;
    if (s < 0 || from < 0 || from >= NUM_HOLES || to < 0 || to >= NUM_HOLES || p->board[from] != s + 1)
        return false;
    const Mover mover = mover_of(p, s);
    return bb_test(memo_destinations(p, &mover, dest_memo_of(memo, &mover, s), from), to);
}

/* Capture mode into list: cut when stopped or out of memory. */
static void capture_list(const Position *p, MoveList *list, GenMemo *memo)
{
    if (capture_moves(p, list, WANT_LIST, memo) < 0)
        list->cut = true;
}

void gen_moves(const Position *p, MoveList *list, GenMemo *memo)
{
    list->n = 0;
    list->cut = false;
    if (pos_over(p))
        return;
    if (p->v->capture)
        capture_list(p, list, memo);
    else
        race_moves(p, list, false, NULL, memo);
}

void gen_moves_no_return(const Position *p, MoveList *list, GenMemo *memo)
{
    list->n = 0;
    list->cut = false;
    if (pos_over(p))
        return;
    if (p->v->capture) {
        capture_list(p, list, memo);
        return;
    }
    bool dropped;
    race_moves(p, list, true, &dropped, memo);
    if (list->n == 0 && dropped) /* only homecomings: they stay */
        race_moves(p, list, false, NULL, memo);
}

int gen_best_capture(const Position *p, GenMemo *memo)
{
    if (pos_over(p) || !p->v->capture)
        return 0;
    return (int)capture_moves(p, NULL, WANT_BEST, memo);
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

int gen_best_progress(const Position *p, const uint8_t dist[NUM_HOLES], MoveList *scratch, GenMemo *gm)
{
    if (pos_over(p))
        return 0;
    int best = 0;
    if (p->v->capture || p->v->masters) { /* swaps and captures: from the whole list */
        gen_moves(p, scratch, gm);
        for (int i = 0; i < scratch->n; i++) {
            const int d = dist[scratch->m[i].from] - dist[scratch->m[i].to];
            best = d > best ? d : best;
        }
        return best;
    }
    return gen_seat_best_progress(p, p->stm, dist, gm);
}

int gen_seat_best_progress(const Position *p, int s, const uint8_t dist[NUM_HOLES], GenMemo *gm)
{
    int best = 0;
    const Mover mover = mover_of(p, s);
    DestMemo *memo = dest_memo_of(gm, &mover, s);
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
                for (uint64_t b = bb_word(dests, v); b; b &= b - 1) {
                    const int d = dist[64 * v + __builtin_ctzll(b)];
                    nearest = d < nearest ? d : nearest;
                }
            best = dist[from] - nearest;
        }
    }
    return best;
}

int64_t gen_count(const Position *p, GenMemo *memo)
{
    if (pos_over(p))
        return 0;
    return p->v->capture ? capture_moves(p, NULL, WANT_COUNT, memo) : race_moves(p, NULL, false, NULL, memo);
}
