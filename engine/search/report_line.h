/*
 * report_line.h - the reports (report.h) of the tree searches' lines: the
 * score (a mate, or the relative standing), each seat's relative score with
 * three or more seats, and the PV's legal prefix.
 */
#ifndef STERN_REPORT_LINE_H
#define STERN_REPORT_LINE_H

#include "worker.h"

/* With three or more seats, the relative scores at the end of root move rm's
 * line (the last position before the game ends): each unit's standing minus the
 * best standing of the other units still unplaced there, into rel[seat]; a unit
 * placed by then gets the value of its outcome (places.h). */
void report_line_relative_scores(const SearchContext *c, const RootMove *rm, int rel[MAX_SEATS]);

/* Fills *r with line `k` (0-based multipv) of depth `depth`: rm's score and
 * line as the search found them, nodes and time from `nodes` and c's clock. */
void report_line_fill(const SearchContext *c, int depth, int seldepth, int k, const RootMove *rm, uint64_t nodes,
                 int hashfull, SearchReport *r);

/* Gives line report r (line k, 0-based) to c's output, keeping the first two
 * moves of line 0 as the ones last said (c->said: the answer and its ponder
 * move when the lines have the last word). */
void report_line_say(SearchContext *c, const SearchReport *r, int k);

/* Reports line k of worker w's root move rm through c's output, and keeps the
 * first two moves of line 0 as the ones last said. */
void report_line(SearchContext *c, const Worker *w, int depth, int k, const RootMove *rm);

/* Reports the first n root moves of w as lines 1..n of depth `depth`, in the
 * order of the scores they show (report_order), and puts w's root moves
 * [0, n) in that order, so that the answer is the first line shown. The
 * score shown is the protocol's (the seat's standing less the best other's,
 * at the end of the line, with three or more seats), which can order lines
 * otherwise than the search's own value does: a GUI lists lines by the score
 * it is told. */
void report_line_multipv(SearchContext *c, Worker *w, int depth, int n);

/* Stable sort of line reports r[0..n) by the scores they show, best first (cp
 * scores as they are, a mate beyond every one: a sooner first place higher, a
 * sooner loss lower), numbered multipv 1..n in that order. */
void report_line_sort(SearchReport *r, int n);

/* Gives report r, a REPORT_LINE, to c's output and counts it (lines_said). */
void report_line_out(SearchContext *c, const SearchReport *r);

/* Reports root move m alone as line 1 of depth 1, valued by the static
 * evaluation after it (the root seat's view; hand-written terms): the line of
 * an answer that no search has reported (a search cut before its first
 * iteration ended, or while the root moves were listed), since every answer
 * with a move comes with a score, as UCI GUIs expect. */
void report_line_static(SearchContext *c, const Move *m);

#endif
