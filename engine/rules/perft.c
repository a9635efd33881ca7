/* perft.c - move-tree leaf counts with bulk counting at the last ply; see perft.h. */
#include "perft.h"

#include "position.h"

#include <stdlib.h>

/* Bulk counts of the last ply under one node (count_by_area variants): each
 * marble's move count and the holes it depends on, as found in the first child
 * where its seat was to move. A sibling differs from that child on a few holes
 * only (the two moves), so most marbles keep their count. */
typedef struct {
    int seat;             /* -1: empty */
    Bitboard own, occ;    /* the seat's marbles and the occupancy counted on */
    int n;
    uint8_t from[NUM_HOLES];
    int count[NUM_HOLES];
    Bitboard area[NUM_HOLES];
} CountCache;

/* gen_count(p) for a count_by_area variant, through the cache *cc. */
static uint64_t count_cached(const Position *p, CountCache *cc)
{
    if (pos_over(p))
        return 0;
    const int s = p->stm;
    uint64_t total = 0;
    if (cc->seat != s || cc->own != p->seat_bb[s]) {
        cc->seat = s;
        cc->own = p->seat_bb[s];
        cc->occ = p->occ;
        cc->n = 0;
        for (Bitboard b = cc->own; b; cc->n++) {
            const int from = bb_pop(&b);
            cc->from[cc->n] = (uint8_t)from;
            cc->count[cc->n] = gen_count_area(p, s, from, &cc->area[cc->n]);
            total += (uint64_t)cc->count[cc->n];
        }
        return total;
    }
    const Bitboard changed = p->occ ^ cc->occ;
    for (int i = 0; i < cc->n; i++) {
        Bitboard area;
        total += (uint64_t)(cc->area[i] & changed ? gen_count_area(p, s, cc->from[i], &area) : cc->count[i]);
    }
    return total;
}

/* Why a count stopped: `stop` read true, or a list could not be built. */
typedef struct {
    const atomic_bool *stop;
    bool failed;
    GenMemo *memo; /* the run's generation memo, which watches `stop` */
} PerftRun;

static bool perft_stop(void *arg)
{
    const PerftRun *r = arg;
    return r->stop && atomic_load_explicit(r->stop, memory_order_relaxed);
}

static uint64_t perft_rec(const Position *p, int depth, MoveList *lists, PerftRun *run)
{
    if (depth == 1) {
        const int64_t n = gen_count(p, run->memo);
        run->failed |= n < 0;
        return n < 0 ? 0 : (uint64_t)n;
    }
    MoveList *list = &lists[0];
    gen_moves(p, list, run->memo);
    if (list->cut || perft_stop(run)) {
        run->failed = true;
        return 0;
    }
    uint64_t total = 0;
    if (depth == 2 && count_by_area(p->v)) {
        CountCache cc;
        cc.seat = -1;
        for (int i = 0; i < list->n; i++) {
            Position child = *p;
            pos_play(&child, &list->m[i]);
            total += count_cached(&child, &cc);
        }
        return total;
    }
    for (int i = 0; i < list->n && !run->failed; i++) {
        Position child = *p;
        pos_play(&child, &list->m[i]);
        total += perft_rec(&child, depth - 1, lists + 1, run);
    }
    return total;
}

int64_t perft(const Position *p, int depth, const atomic_bool *stop)
{
    if (depth <= 0)
        return 1;
    MoveList *lists = calloc((size_t)depth, sizeof *lists);
    PerftRun run = {.stop = stop, .failed = false, .memo = gen_memo_new()};
    if (!lists || !run.memo) {
        free(lists);
        gen_memo_delete(run.memo);
        return -1;
    }
    gen_memo_set_abort(run.memo, perft_stop, &run);
    const uint64_t n = perft_rec(p, depth, lists, &run);
    gen_memo_delete(run.memo);
    for (int i = 0; i < depth; i++)
        move_list_free(&lists[i]);
    free(lists);
    return run.failed ? -1 : (int64_t)n;
}
