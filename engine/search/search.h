/*
 * search.h - one search, from a game, its limits and the options to its answer:
 * the search's public face. Two seats search by principal variation search
 * (alphabeta.h), with the exact race solver once the armies are past each other
 * (race_root.h); three to six by the algorithm of the Search option: paranoid
 * alpha-beta, max-n (maxn.h), best-reply search or BRS+ (brs.h), or Monte-Carlo
 * tree search (mcts.h; a tree per thread, no table). The tree searches share a
 * transposition table (tt.h) and run on a pool of threads (Lazy SMP,
 * lazysmp.h); a session (session.h) owns both between searches. What the
 * search finds reaches the caller as reports (report.h).
 */
#ifndef STERN_SEARCH_H
#define STERN_SEARCH_H

#include "game.h"
#include "report.h"

#include <stdatomic.h>

#define MAX_PLY 96
#define MAX_THREADS 256
/* With a node limit, the nodes a search thread takes of it at once, at most:
 * several threads stop short of the limit by at most (Threads - 1) times this
 * (the shares the others had not used), never past it (node.h, node_count). */
#define NODE_SHARE_MAX 1024

/* Moves (capture-mode chain states) of one position a search generates at
 * most: a lattice of a capture game can have hundreds of millions, minutes and
 * gigabytes to list. A root with more is cut there, the most captures listed
 * played; a position below the root with more ends the search, which answers
 * with what it has (docs/ROBUST.md). About half a second and 200 MB. */
#define SEARCH_MOVES_MAX (1 << 21)

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
    const Move *searchmoves;   /* the caller's array, read during the search */
} SearchLimits;

/* Search algorithm for three or more seats (two seats always use PVS). */
typedef enum { ALGO_AUTO, ALGO_PARANOID, ALGO_MAXN, ALGO_BRS, ALGO_BRS_PLUS, ALGO_MCTS, ALGO_OPPS } SearchAlgo;

#define NUM_ALGOS 7

/* OPPS's three parameters (opps.h; Baier and Kaisers 2020): between two moves
 * of the root's side, at most `regular` opponents play a regular move, one of
 * their `regular_moves` moves of the most progress (0: any move); the others
 * play a reduced move, one of their `reduced_moves` of the most progress. */
#define OPPS_REGULAR_MAX 5
#define OPPS_MOVES_MAX 256
#define OPPS_REDUCED_MAX 16
#define OPPS_DEFAULT_REGULAR 1       /* the defaults: BRS+'s tree */
#define OPPS_DEFAULT_REGULAR_MOVES 0
#define OPPS_DEFAULT_REDUCED_MOVES 1
#define MCTS_HISTORY_MAX 100
#define MCTS_WIDENING_MAX 10000
#define MCTS_OMA_MAX 100000
typedef struct {
    bool set;          /* false: the defaults (opps.h: opps_params) */
    int regular;       /* 0-OPPS_REGULAR_MAX */
    int regular_moves; /* 0-OPPS_MOVES_MAX, 0: every move */
    int reduced_moves; /* 1-OPPS_REDUCED_MAX */
} OppsParams;

/* The algorithm `auto` plays in variant v (three or more seats; two seats
 * always play PVS), chosen per variant family from round robins of every
 * algorithm (docs/MULTI.md): capture mode MCTS; two teams paranoid, three
 * teams MCTS; race games best-reply search. (In a game where the opponent
 * model expects every other seat in play to play greedily, `auto` plays MCTS,
 * which uses the model: search_run.) */
SearchAlgo search_auto_algo(const Variant *v);

/* Names of the algorithms as the Search option lists them ("auto", ...). */
extern const char *const search_algo_names[NUM_ALGOS];

/* The options of one search (the session's hash and threads are its own). */
typedef struct {
    SearchAlgo algo;    /* auto: per variant, see search_auto_algo */
    int multipv;        /* 1-256 */
    int64_t overhead;   /* Move Overhead, ms */
    int64_t nodestime;  /* > 0: budgets run in nodes, this many per ms (timeman.h) */
    bool opponent_model; /* three or more seats: expect the greedy move of seats whose
                            record is greedy (opponents.h; MCTS) */
    bool full_width;    /* no reductions or pruning: every move to the full depth
                           (tests compare the value with a brute-force search);
                           OPPS still prunes as its parameters say */
    OppsParams opps;    /* Search opps's parameters */
    int mcts_history;   /* Search mcts: Progressive History's weight W, 0-MCTS_HISTORY_MAX
                           (mcts_history.h); 0: off */
    int mcts_widening;  /* Search mcts: progressive widening's C in hundredths,
                           0-MCTS_WIDENING_MAX (mcts.h); 0: off */
    int mcts_widening_alpha; /* its alpha in hundredths, 0-100 */
    int mcts_oma;       /* Search mcts: opponent-move abstraction's K (visits),
                           0-MCTS_OMA_MAX (mcts.h); 0: off */
    const struct Nnue *net; /* the learned evaluation (nnue.h) for the variants it
                               serves, owned by the caller; NULL: hand-written */
} SearchConfig;

typedef struct {
    Move best;
    bool has_best;       /* false: no legal move (bestmove (none)) */
    Move ponder;
    bool has_ponder;
    int score;           /* root seat's view, centi-moves or mate score */
    int depth;           /* last completed iteration, plies */
    uint64_t nodes;
    int threads;         /* threads that searched a node or a playout (0: no search) */
} SearchResult;

/* Controls of a running search, shared with the protocol thread. */
typedef struct {
    atomic_bool stop;       /* set by `stop` or `quit`: finish now */
    atomic_bool ponderhit;  /* set by `ponderhit`: the ponder search becomes timed */
} SearchSignals;

/* What a search uses and leaves for the next, owned by a session
 * (session.h, the public face): no two sessions share any of it. */
typedef struct TT TT;
typedef struct SearchPool SearchPool;
typedef struct BusyTable BusyTable;
typedef struct HistoryStore HistoryStore;
typedef struct MctsKept MctsKept;
typedef struct {
    TT *tt;                 /* the transposition table (tt.h), its memory had */
    SearchAlgo *tt_algo;    /* the tree search whose values tt holds (ALGO_AUTO:
                               none yet); another one clears it first */
    SearchPool *pool;       /* the threads (pool.h) */
    int threads_asked;      /* threads the user asked for: more than the pool's
                               when memory was short (reported at each search) */
    BusyTable *busy;        /* moves being searched, for deferral (busy.h) */
    HistoryStore *history;  /* history scores kept between searches (movepick.h) */
    MctsKept *mcts;         /* MCTS's tree kept for reuse (mcts.h) */
} SearchShared;

/* Searches the current position of g under `limits` and `config` with what
 * `sh` holds, giving its reports (report.h: lines, notes) and finally exactly
 * one REPORT_BESTMOVE to `out`. Blocks until done: the caller runs it on its
 * own thread and sets sig->stop to end it early. With infinite or ponder it
 * only returns after stop (or ponderhit, then by time). Never chooses a move
 * that eliminates the mover while it has another move. The tree searches clear
 * sh->tt first when it holds another algorithm's values (the same key has
 * another value under each). Callers outside engine/search use
 * session_search (session.h). */
SearchResult search_run(const SearchShared *sh, const Game *g, const SearchLimits *limits,
                        const SearchConfig *config, SearchSignals *sig, SearchOutput out, void *ctx);

/* Limits with every field "not given". */
void search_limits_init(SearchLimits *l);

#endif
