/*
 * opps.h - Opponent-Pruning Paranoid Search (OPPS; Baier and Kaisers,
 * "Opponent-Pruning Paranoid Search", FDG 2020, doi 10.1145/3402942.3402957):
 * paranoid alpha-beta (every opponent minimises the root side's value, in turn
 * order, each ply searched) whose opponent nodes search only some of their
 * moves. Between two moves of the root's side (an opponent phase) at most
 * OppsParams.regular opponents play a regular move, one of their
 * `regular_moves` moves of the most progress (captures in capture mode; 0:
 * any); every other opponent plays a reduced move, one of its `reduced_moves`
 * of the most progress. An opponent that may still play a regular move plays
 * any of both kinds; a move among the reduced ones is never counted as
 * regular. BRS+ is the case (1, any, 1) and paranoid the case (every
 * opponent, any, -) of the same tree. docs/MULTI.md says where this reading
 * of the paper comes from and how Stern's search around it works.
 */
#ifndef STERN_OPPS_H
#define STERN_OPPS_H

#include "worker.h"

/* cfg's parameters, or the defaults when it sets none (cfg->opps.set false),
 * each clamped to its range (search.h). */
OppsParams opps_params(const SearchConfig *cfg);

/* Whether p is an OPPS opponent node of search c: its moves are pruned.
 * Inline: every node of every search asks. */
static inline bool opps_node(const SearchContext *c, const Position *p)
{
    return c->algo == ALGO_OPPS && side_of(c, p->stm) < 0;
}

/* Prunes the moves of opponent node p at `ply`, w->ss[ply].list (p's side to
 * move's, movers set, not yet ordered), to those its place in the phase
 * allows (w->ss[ply].opps_regular regular moves already played: the reduced
 * moves alone once there are c->opps.regular of them), keeping list order;
 * keeps the reduced moves in w->ss[ply].opps_reduced. Uses w->ss[ply + 1].list
 * as scratch. */
void opps_keep(Worker *w, const Position *p, int ply);

/* The regular moves of the phase at the child of node p (at `ply`) made by
 * move m, whose side to move is child_stm: 0 when the child or p is the
 * root's side's, else p's count plus one when m is not one of p's reduced
 * moves. */
int opps_child_regular(const Worker *w, const Position *p, int ply, const Move *m, int child_stm);

/* What the table key of a node of OPPS search c with `regular` regular moves
 * in its phase is XORed with: the parameters and the count (the same position
 * has another value under each). */
uint64_t opps_key_salt(const SearchContext *c, int regular);

/* opps_key_salt in an OPPS search, 0 in every other (inline: every node asks). */
static inline uint64_t opps_key(const SearchContext *c, int regular)
{
    return c->algo == ALGO_OPPS ? opps_key_salt(c, regular) : 0;
}

#endif
