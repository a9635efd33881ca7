/*
 * eval_graph.h - an evaluation graph as SVG: every seat's score over a game,
 * one line a seat in its colour (PROTOCOL.md's relative scores: a seat's
 * standing minus the best other's, in centi-moves), as stern-annotate draws it.
 */
#ifndef STERN_EVAL_GRAPH_H
#define STERN_EVAL_GRAPH_H

#include "variant.h"

#include <stdbool.h>
#include <stdio.h>

#define EVAL_GRAPH_CLAMP 1000 /* scores beyond +-10 moves (mates too) are drawn at the edge */

/* Writes the graph of n points (plies 0..n-1) to f: score[i][seat] for the
 * seats of v where has[i][seat] (a missing point breaks that seat's line),
 * under `title` (escaped for XML). Returns 0, or -1 on a write error. */
int eval_graph_svg(FILE *f, const Variant *v, const char *title, int n, const int (*score)[MAX_SEATS],
                   const bool (*has)[MAX_SEATS]);

#endif
