/*
 * brs.h - best-reply search (Schadd and Winands 2011) and BRS+ (Esser, Gras,
 * Winands et al. 2013) at the nodes of the root's opponents: a min node searches
 * the replies of every opponent together, each opponent's few replies of the
 * most progress (with five or six seats, and a few that block or unblock the
 * root's marbles); after the reply the root's side moves again, and in BRS+
 * every other opponent first plays its best-ordered move.
 */
#ifndef STERN_BRS_H
#define STERN_BRS_H

#include "worker.h"

/* Whether p is a best-reply-search min node: all opponents' moves together. */
bool brs_min_node(const SearchContext *c, const Position *p);

/* The moves of min node p at `ply` into w->ss[ply].list with their movers (no
 * ordering scores): each opponent still playing, in turn order from p's side
 * to move, with its replies of the most progress (captures); BRS+ keeps each
 * one's best-ordered move for brs_after_reply. */
void brs_min_moves(Worker *w, const Position *p, int ply);

/* After opponent `mover`'s reply at min node `ply` made *child: in BRS+ the
 * other opponents play their best-ordered moves, then the turn goes back to the
 * root seat (unless the game or the root's part in it is over). */
void brs_after_reply(Worker *w, int ply, int mover, Position *child);

/* Replies an opponent keeps under max-n's reply pruning in variant v (best-reply
 * min nodes keep as many, or more with three or four race seats): its moves of
 * the most progress (race) or captures (capture mode); 0 keeps them all. */
int brs_reply_top(const Variant *v);

/* Keeps the k moves (k > 0; k = 0 keeps all) of q's side to move in `list`
 * with the most progress, or in capture mode the most captures (the earlier of
 * equal ones), in list order, with their scores and movers. */
void brs_keep_top_replies(const Position *q, MoveList *list, int k);

/* The holes within two steps of seat s's marbles outside its target in p:
 * where another seat's move can block or unblock s's next steps and jumps. */
Bitboard brs_contact_zone(const Position *p, int s);

/* Keeps in `list` (q's side to move's moves, k > 0, j >= 0) the k moves
 * keep_top_replies keeps, then up to j more that start or end in `zone`,
 * those of the most progress (the earlier of equal ones) first; list order is
 * kept. Race moves only (progress by the mover's tip distance). */
void brs_keep_top_and_contact_replies(const Position *q, MoveList *list, int k, int j, Bitboard zone);

#endif
