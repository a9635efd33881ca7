/* opps.c - Opponent-Pruning Paranoid Search's opponent nodes; see opps.h. */
#include "opps.h"

#include "brs.h"

#include <string.h>

static int clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

OppsParams opps_params(const SearchConfig *cfg)
{
    if (!cfg->opps.set)
        return (OppsParams){true, OPPS_DEFAULT_REGULAR, OPPS_DEFAULT_REGULAR_MOVES, OPPS_DEFAULT_REDUCED_MOVES};
    return (OppsParams){true, clamp(cfg->opps.regular, 0, OPPS_REGULAR_MAX),
                        clamp(cfg->opps.regular_moves, 0, OPPS_MOVES_MAX),
                        clamp(cfg->opps.reduced_moves, 1, OPPS_REDUCED_MAX)};
}

/* list copied into dst (its moves and movers). False without memory. */
static bool copy_list(MoveList *dst, const MoveList *list)
{
    dst->n = 0;
    if (!move_list_reserve(dst, list->n))
        return false;
    memcpy(dst->m, list->m, sizeof *list->m * (size_t)list->n);
    memcpy(dst->seat, list->seat, (size_t)list->n);
    dst->n = list->n;
    return true;
}

void opps_keep(Worker *w, const Position *p, int ply)
{
    const OppsParams *o = &w->ctx->opps;
    Stack *ss = &w->ss[ply];
    MoveList *list = &ss->list, *reduced = &w->ss[ply + 1].list;
    ss->opps_nreduced = 0;
    if (!copy_list(reduced, list))
        return; /* no memory: every move stays, none of them reduced */
    brs_keep_top_replies(p, reduced, o->reduced_moves);
    for (int i = 0; i < reduced->n && i < OPPS_REDUCED_MAX; i++)
        ss->opps_reduced[ss->opps_nreduced++] = reduced->m[i];
    if (ss->opps_regular >= o->regular)
        copy_list(list, reduced); /* fits: reduced is list's first moves or fewer */
    else if (o->regular_moves > 0) /* regular or reduced: the top sets nest (ties by list order) */
        brs_keep_top_replies(p, list, o->regular_moves > o->reduced_moves ? o->regular_moves : o->reduced_moves);
}

int opps_child_regular(const Worker *w, const Position *p, int ply, const Move *m, int child_stm)
{
    const SearchContext *c = w->ctx;
    if (side_of(c, child_stm) > 0 || side_of(c, p->stm) > 0)
        return 0;
    const Stack *ss = &w->ss[ply];
    for (int i = 0; i < ss->opps_nreduced; i++)
        if (move_same(&ss->opps_reduced[i], m))
            return ss->opps_regular;
    return ss->opps_regular + 1;
}

uint64_t opps_key_salt(const SearchContext *c, int regular)
{
    /* splitmix64's finaliser over the parameters and the count */
    uint64_t x = 0x4F505053ull + ((uint64_t)c->opps.regular << 8) + ((uint64_t)c->opps.regular_moves << 16) +
                 ((uint64_t)c->opps.reduced_moves << 32) + ((uint64_t)regular << 48);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
