/*
 * search.h - the game-tree search: iterative deepening over principal variation
 * search (alpha-beta with null windows) for two seats; for three to six, paranoid
 * alpha-beta (Sturtevant and Korf 2000: every other seat is assumed to play
 * against the root's team; the default), max-n (Luckhardt and Irani 1986: each
 * seat maximises its own value; no pruning) or best-reply search (Schadd and
 * Winands 2011: only the strongest reply of all opponents together is searched
 * between two root moves) or BRS+ (Esser, Gras, Winands et al. 2013: as
 * best-reply search, while the other opponents play their best-ordered move,
 * so that every opponent moves between two root moves), or Monte-Carlo tree
 * search (mcts.h; one thread, no table). The others share a transposition table (max-n uses it for
 * move ordering only), with Lazy SMP helper threads (independent searches sharing
 * the table).
 */
#ifndef STERN_SEARCH_H
#define STERN_SEARCH_H

#include "game.h"
#include "report.h"

#include <stdatomic.h>

#define MAX_PLY 96
#define MAX_THREADS 256

#define MAX_SEARCHMOVES 4096 /* moves one `go searchmoves` may name */

typedef struct {
    int64_t time[MAX_SEATS];   /* remaining ms per seat; -1 when not given */
    int64_t inc[MAX_SEATS];    /* ms per move per seat */
    int movestogo;             /* 0 when not given */
    int depth;                 /* plies, 0 = no limit */
    uint64_t nodes;            /* 0 = no limit */
    int64_t movetime;          /* ms, 0 = none */
    bool infinite;             /* search until stop */
    bool ponder;               /* search as infinite until ponderhit or stop */
    int nsearchmoves;          /* restrict the root to these moves when > 0 */
    Move searchmoves[MAX_SEARCHMOVES];
} SearchLimits;

/* Search algorithm for three or more seats (two seats always use PVS). */
typedef enum { ALGO_AUTO, ALGO_PARANOID, ALGO_MAXN, ALGO_BRS, ALGO_BRS_PLUS, ALGO_MCTS } SearchAlgo;

#define NUM_ALGOS 6

/* The algorithm `auto` plays in variant v (three or more seats; two seats
 * always play PVS), chosen per variant family from round robins of every
 * algorithm (docs/MULTI.md): capture mode MCTS; two teams paranoid; race
 * games best-reply search with three or four seats, MCTS with six. */
SearchAlgo search_auto_algo(const Variant *v);

/* Names of the algorithms as the Search option lists them ("auto", ...). */
extern const char *const search_algo_names[NUM_ALGOS];

/* The search threads (Lazy SMP helpers), created once and parked between
 * searches, as Stockfish's thread pool. */
typedef struct SearchPool SearchPool;

/* A pool of `threads` workers (1-MAX_THREADS; the first runs on the caller's
 * thread, so threads - 1 are started). Short of memory or threads it has fewer
 * (search_pool_threads); NULL when it has none. */
SearchPool *search_pool_new(int threads);

/* Workers in pool (0 for NULL). */
int search_pool_threads(const SearchPool *pool);

/* Ends the pool's threads and frees it (no search running; NULL is ignored). */
void search_pool_delete(SearchPool *pool);

typedef struct {
    SearchAlgo algo;    /* auto: per variant, see search_auto_algo */
    int threads;        /* 1-256 */
    int multipv;        /* 1-256 */
    int64_t overhead;   /* Move Overhead, ms */
    bool full_width;    /* no reductions or pruning: every move to the full depth
                           (tests compare the value with a brute-force search) */
    SearchPool *pool;   /* the threads to search with (NULL: a pool made for one search) */
} SearchConfig;

typedef struct {
    Move best;
    bool has_best;       /* false: no legal move (bestmove (none)) */
    Move ponder;
    bool has_ponder;
    int score;           /* root seat's view, centi-moves or mate score */
    int depth;           /* last completed iteration, plies */
    uint64_t nodes;
} SearchResult;

/* Controls of a running search, shared with the protocol thread. */
typedef struct {
    atomic_bool stop;       /* set by `stop` or `quit`: finish now */
    atomic_bool ponderhit;  /* set by `ponderhit`: the ponder search becomes timed */
} SearchSignals;

/* Searches the current position of g under `limits` and `config`, giving its
 * reports (report.h: lines, notes) and finally exactly one REPORT_BESTMOVE to `out`. Blocks until
 * done: the caller runs it on its own thread and sets sig->stop to end it early.
 * With infinite or ponder it only returns after stop (or ponderhit, then by time).
 * Never chooses a move that eliminates the mover while it has another move. */
SearchResult search_run(const Game *g, const SearchLimits *limits, const SearchConfig *config, SearchSignals *sig,
                        SearchOutput out, void *ctx);

/* Clears history tables kept between searches (ucinewgame). */
void search_clear(void);

/* Limits with every field "not given". */
void search_limits_init(SearchLimits *l);

#endif
