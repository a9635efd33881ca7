/*
 * node.h - what every tree search (alphabeta, maxn, best-reply) does at a node:
 * entering it (node count, the clock), recognising the end of the game for the
 * root and its value, making a child (in the turn order of the algorithm), the
 * static value of a leaf, and the table's keys and scores.
 */
#ifndef STERN_NODE_H
#define STERN_NODE_H

#include "worker.h"

/* The transposition table's key of p: its Zobrist key, which leaves out what
 * repetition leaves out (RULES.md section 6), and in capture mode every seat's
 * captures, on which the value depends. */
uint64_t node_tt_key(const Position *p);

/* A score for the table (mate scores counted from this node, `ply` plies below
 * the root) and back. */
int node_score_to_tt(int v, int ply);
int node_score_from_tt(int v, int ply);

/* Value for the root seat of a position where its place is known (game over, or
 * its team placed), `ply` plies below the root, as worker w finds it. Three or
 * more seats: places.h. */
int node_place_value(const Worker *w, const Position *p, int ply);

/* Whether child position p (at `ply`) ends the game for the root: over, the
 * root's team placed, or a repetition (a second occurrence inside the tree, or a
 * third counting the game). Sets *value (root's view) and, when end_out is not
 * NULL, *end_out to the final position (p itself, or p ended by repetition). */
bool node_terminal_end(Worker *w, const Position *p, int ply, int *value, Position *end_out);

/* node_terminal_end without the final position. */
bool node_terminal(Worker *w, const Position *p, int ply, int *value);


/* Whether m is a legal move of p's side to move, generated through `memo`
 * (false too when its abort hook cut the list short): for reports and answers,
 * not inside the tree. */
bool node_legal_move(const Position *p, const Move *m, GenMemo *memo);

/* The child of p (at `ply`) after move m by seat `mover`, into *child; in
 * best-reply search the root's side moves again after any opponent's reply
 * (brs.h). */
void node_make_child(Worker *w, const Position *p, int ply, int mover, const Move *m, Position *child);

/* The main thread's look at the clock: sets the stop signal once the hard
 * time limit is past (other threads: nothing). */
void node_check_limits(Worker *w);

/* Readies w's node count checks for a new search (its count at 0, no share of
 * the node limit yet): node_count looks at the limits only at the counts it
 * plans, every CHECK_EVERY + 1 nodes and at the end of w's share. */
void node_limits_start(Worker *w);

/* Counts one node searched by w; false when the search must stop. With a node
 * limit, each thread takes shares of it as it goes (a few nodes to
 * NODE_SHARE_MAX at a time, through one atomic counter), so the nodes of every
 * thread summed never pass the limit; the thread that finds none left counts
 * no node more and ends the tree search (abort_all). One thread stops at the limit exactly, several
 * within the shares the others had not used (docs/PROTOCOL.md, go nodes). */
bool node_count(Worker *w);

/* Bookkeeping on entering a node at `ply`: PV length, selective depth, node
 * count and, now and then, the clock. Returns false when the search must stop. */
bool node_enter(Worker *w, int ply);

/* In capture mode every move is a capture, so a leaf also counts the best
 * capture of its side to move: the reply the horizon would otherwise hide
 * (centi-moves; 0 outside capture mode), generated through `memo`. */
int node_capture_bonus(const Position *p, GenMemo *memo);

/* Static value of leaf p (at `ply`) for its side to move (`side`, +1 or -1 as
 * side_of gives it), searched with upper bound `beta` (a value at or above it
 * may be any such value). */
int node_leaf_value(Worker *w, const Position *p, int ply, int side, int beta);

#endif
