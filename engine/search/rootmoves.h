/*
 * rootmoves.h - the moves a search considers at the root.
 */
#ifndef STERN_ROOTMOVES_H
#define STERN_ROOTMOVES_H

#include "worker.h"

/* The root moves of search c: legal, in searchmoves when given, not eliminating
 * the mover while another move exists (RULES.md section 5), and near the exit
 * deadline only those that leave the home. Returns their number with a malloc'd
 * array in *out_array, or -1 when memory runs out. Sets c->root_cut (one move,
 * the most captures found) when stop or the hard time limit cut the listing. */
int root_moves(SearchContext *c, RootMove **out_array);

#endif
