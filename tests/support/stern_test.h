/*
 * stern_test.h - helpers shared by the cmocka tests: building FENs from lists of
 * marbles, setting up games, parsing and playing moves, listing legal moves as
 * text. Every helper fails the running test (cmocka fail_msg) on bad input, so a
 * test reads as a list of positions, moves and exact expected values.
 */
#ifndef STERN_TEST_H
#define STERN_TEST_H

/* cmocka.h needs these first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "board.h"
#include "fen.h"
#include "game.h"
#include "notation.h"
#include "perft.h"
#include "session.h"

/* Builds a FEN into buf (FEN_MAX bytes) and returns buf.
 * `pieces`: tokens separated by spaces. A one-letter token (w r u b y g x) selects
 * the piece written on the holes named after it, e.g. "w m1 l2 m2 b e17 e16".
 * `tail`: FEN fields 2-4 (side to move, seats, round), e.g. "w w0,b0 1".
 * Fails the test on an unknown token or a hole named twice. */
char *fen_of(char *buf, const char *pieces, const char *tail);

/* Starts *g as variant `variant` at fen_of(pieces, tail); fails the test when the
 * variant or the FEN is refused. */
void game_setup(Game *g, const char *variant, const char *pieces, const char *tail);

/* Hole number (0-120) of `name` ("m1"); fails the test on a bad name. */
int hole(const char *name);

/* The set of the holes named in `names` (separated by spaces). */
Bitboard holes(const char *names);

/* Parses `text` as a legal move of the side to move in p; fails the test (with the
 * engine's message) when it is refused. */
Move move_ok(const Position *p, const char *text);

/* Parses `text` and plays it in g with game_play; fails the test when either
 * refuses. */
void play(Game *g, const char *text);

/* Asserts that move_parse refuses `text` in p with a message containing `word`. */
void move_refused(const Position *p, const char *text, const char *word);

/* The legal moves of the side to move in p in list order (move_list_sort), as
 * their printed texts joined by single spaces; only the moves of the marble on
 * hole `from` when from is not NULL. Returns a static buffer. */
const char *legal_moves(const Position *p, const char *from);

/* The FEN of p, in a static buffer. */
const char *fen_now(const Position *p);

/* Sets *g to a position of `variant` in which the seats with place[s] > 0 have
 * arrived in those places, `mover` (to move) has all its marbles but one in
 * its target and that one a step from the empty target hole nearest the
 * centre, and every other seat has ten marbles in the centre, far from its
 * target (a variant of ten marbles). Every seat has made 25 moves. Fails the test when the FEN is refused. */
void arrival_game(Game *g, const char *variant, int mover, const int place[MAX_SEATS]);

/* Asserts that the FEN of p is exactly fen_of(pieces, tail). */
void assert_position(const Position *p, const char *pieces, const char *tail);

/* The tests' search session: a 16 MiB table and one thread, made on first use
 * (fails the test when it cannot be). */
SearchSession *test_session(void);

/* session_search in test_session() as a new game (table, history and MCTS
 * tree cleared first). */
SearchResult test_search(const Game *g, const SearchLimits *limits, const SearchConfig *config, SearchSignals *sig,
                         SearchOutput out, void *ctx);

/* test_search on g at `depth` plies with algorithm `algo` (full_width as in
 * SearchConfig), MultiPV 1, no output. */
SearchResult search_fixed_depth(const Game *g, SearchAlgo algo, int depth, bool full_width);

/* The most any move of seat s in p brings a marble nearer in steps of `dist`
 * (dist[from] - dist[to]), from gen_moves' list with s put to move; 0 when
 * no move gains. The move lists' answer for gen_best_progress and
 * gen_seat_best_progress (movegen.h). */
int list_best_progress(const Position *p, int s, const uint8_t *dist);

/* The contents of the file at `path` (malloc'ed, NUL-terminated; "" when the
 * file is missing). Fails the test when memory runs out. */
char *slurp(const char *path);

/* The path of program `name` beside the engine under test ($STERN_BIN, else
 * build/stern), e.g. tool("stern-arena"). Answers in one of four buffers in
 * turn: a path stays good for the next three calls. */
const char *tool(const char *name);

#endif
