/*
 * rootmoves.h - the moves a search considers at the root.
 */
#ifndef STERN_ROOTMOVES_H
#define STERN_ROOTMOVES_H

#include "worker.h"

/* The root moves of search c: the legal moves, or the searchmoves when given
 * (taken as they are, each once: the protocol checked them, and listing the
 * others could take minutes), not eliminating the mover while another move
 * exists (RULES.md section 5), and near the exit deadline only those that
 * leave the home. Returns their number with a malloc'd array in *out_array,
 * or -1 when memory runs out. Sets c->root_cut (one move, the most captures
 * found) when stop, the hard time limit or SEARCH_MOVES_MAX (search.h; looked
 * at every few thousand chain states, so a few more may come) cut the listing,
 * and c->root_capped in the last case. */
int rootmoves_list(SearchContext *c, RootMove **out_array);

#endif
