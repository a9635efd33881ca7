/* rootmoves.c - the moves a search considers at the root; see rootmoves.h. */
#include "rootmoves.h"

#include <stdlib.h>

#define DEADLINE_GUARD_SLACK 1 /* spare own moves before the guard takes over */

/* The exit deadline guard (RULES.md section 5): when the mover's moves left before
 * its deadline barely cover one per marble still at home, only moves that take a
 * marble out of the home are searched (if there are any). The evaluation steers
 * toward leaving early; this makes sure a shallow search cannot dawdle. */
static int deadline_guard(const Position *p, RootMove *rm, int n)
{
    const Variant *v = p->v;
    const int s = p->stm;
    if (v->capture || p->moves[s] >= v->deadline)
        return n;
    const int at_home = bb_count(p->seat_bb[s] & v->home[s]);
    if (!at_home || v->deadline - p->moves[s] > at_home + DEADLINE_GUARD_SLACK)
        return n;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (bb_test(v->home[s], rm[i].move.from) && !bb_test(v->home[s], rm[i].move.to))
            rm[k++] = rm[i];
    return k ? k : n;
}

/* What the listing of the root moves watches: the search, and the moves
 * listed so far. */
typedef struct {
    SearchContext *c;
    const MoveList *list;
    int cap; /* moves listed at most (0: no cap) */
} RootListing;

/* Move generation's abort hook while the root moves are listed (a capture-mode
 * position can have millions): stop, the clock's hard limit, and the cap. */
static bool root_gen_abort(void *arg)
{
    const RootListing *r = arg;
    return out_of_time(r->c, r->c->clock.budget.hard_ms) || (r->cap && r->list->n >= r->cap);
}

/* The searchmoves of c's limits (legal moves of the root: the protocol checks
 * each), each once, into list; without generating the root's moves, which in
 * capture mode can take minutes. False when out of memory. */
static bool listed_searchmoves(const SearchContext *c, MoveList *list)
{
    for (int j = 0; j < c->lim->nsearchmoves; j++) {
        const Move *m = &c->lim->searchmoves[j];
        bool seen = false;
        for (int i = 0; i < list->n && !seen; i++)
            seen = move_same(&list->m[i], m);
        if (!seen && !move_list_push(list, *m))
            return false;
    }
    return true;
}

int rootmoves_list(SearchContext *c, RootMove **out_array)
{
    const Position *p = &c->game->pos;
    MoveList *list = move_list_new();
    GenMemo *memo = gen_memo_new();
    if (!list || !memo) {
        move_list_delete(list);
        gen_memo_delete(memo);
        return -1;
    }
    RootListing listing = {.c = c, .list = list, .cap = SEARCH_MOVES_MAX};
    gen_memo_set_abort(memo, root_gen_abort, &listing);
    if (c->lim->nsearchmoves) {
        if (!listed_searchmoves(c, list))
            list->cut = true;
    } else {
        gen_moves_no_return(p, list, memo);
    }
    gen_memo_delete(memo);
    c->root_cut = list->cut && root_gen_abort(&listing);
    c->root_capped = c->root_cut && listing.cap && list->n >= listing.cap && !atomic_load(&c->sig->stop);
    if (c->root_cut) { /* no time to search: the most captures found */
        int best = 0;
        for (int i = 1; i < list->n; i++)
            best = list->m[i].ncapt > list->m[best].ncapt ? i : best;
        list->m[0] = list->m[best];
        list->n = 1;
    }
    RootMove *out = list->cut && !c->root_cut ? NULL /* out of memory */
                                               : malloc(sizeof *out * (size_t)(list->n ? list->n : 1));
    if (!out) {
        move_list_delete(list);
        return -1;
    }
    *out_array = out;
    int n = 0, safe = 0;
    for (int i = 0; i < list->n; i++) {
        bool suicide = false; /* capture mode eliminates nobody */
        if (!p->v->capture) {
            Position child = *p;
            pos_play(&child, &list->m[i]);
            suicide = child.status[p->stm] == ST_ELIMINATED;
        }
        out[n] = (RootMove){.move = list->m[i], .score = suicide ? -SCORE_INF + 1 : 0, .prev_score = 0};
        safe += !suicide;
        n++;
    }
    move_list_free(list);
    free(list);
    if (!c->lim->nsearchmoves)
        n = deadline_guard(p, out, n);
    safe = 0;
    for (int i = 0; i < n; i++)
        safe += out[i].score == 0;
    if (safe && safe < n) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (out[i].score == 0)
                out[k++] = out[i];
        n = k;
    }
    for (int i = 0; i < n; i++)
        out[i].score = -SCORE_INF;
    return n;
}
