/*
 * worker.h - the state of one search (SearchContext) and of each thread that
 * searches it (Worker), shared by the files of engine/search that search a
 * tree or report on one. Not used outside engine/search.
 */
#ifndef STERN_WORKER_H
#define STERN_WORKER_H

#include "busy.h"
#include "eval.h"
#include "search.h"
#include "clock.h"
#include "tt.h"

#include <stdatomic.h>

#define HISTORY_FILTER_BITS 12 /* bloom filter over game-history keys */

typedef struct SearchContext SearchContext;

/* History scores kept from one search of a game for the next (a session's:
 * movepick.h). */
struct HistoryStore {
    bool saved; /* false: none (a new game) */
    int score[NUM_HOLES][NUM_HOLES];
};

/* A move of the root with what the last iteration found for it. */
typedef struct {
    Move move;
    int score;      /* last completed search of this move, or -SCORE_INF */
    int prev_score;
    Move *pv;       /* MAX_PLY + 1 moves, allocated when first set (NULL: none) */
    int pvlen;
    int index;      /* place before a sort: sorts keep equal scores in order */
} RootMove;

/* What a search thread keeps for one ply of the line it searches, ss[ply] (the
 * search stack of Stockfish and Weiss). */
typedef struct {
    MoveList list;               /* the moves of the ply */
    Move filler[MAX_SEATS];      /* BRS+: each opponent's best-ordered move at a min node */
    bool has_filler[MAX_SEATS];
    Move killers[2];
    uint64_t path_key;           /* the key of the position at the ply */
    bool after_null;             /* the move into the ply was a null move */
    Move pv[MAX_PLY + 1];        /* the line from the ply: pv[ply..pvlen) */
    int pvlen;
    int opps_regular;            /* OPPS: regular moves of the phase before the ply (opps.h) */
    int opps_nreduced;           /* OPPS: the ply's reduced moves, at an opponent node */
    Move opps_reduced[OPPS_REDUCED_MAX];
} Stack;

#define STACK_PLIES (MAX_PLY + 2) /* ss[0..MAX_PLY + 1]: a node at MAX_PLY writes its child's entry */

/* One search thread's state; its stack (the move lists in it) stays allocated
 * between searches (pool.h). */
typedef struct {
    int id;                              /* 0: the main thread, which reports */
    SearchContext *ctx;
    atomic_uint_fast64_t nodes;
    uint64_t check_at;                   /* the node count at which node_count next looks at the limits */
    uint64_t node_share;                 /* with a node limit: the nodes this worker may count in all
                                            (the shares it took of the limit, node_count) */
    int seldepth;
    Stack *ss;                           /* [STACK_PLIES]: what it keeps for each ply */
    int history[NUM_HOLES][NUM_HOLES];
    RootMove *root;
    int nroot;
    int completed_depth;
    GenMemo *gen;                        /* this thread's memos of move generation and */
    EvalMemo *eval;                      /* evaluation (movegen.h, eval.h) */
} Worker;

struct SearchContext {
    const Game *game;
    int root_seat;
    const SearchLimits *lim;
    const SearchConfig *cfg;
    SearchAlgo algo;         /* resolved: PARANOID, MAXN, BRS, BRS_PLUS or MCTS (two seats: PARANOID = PVS) */
    bool duo_race;           /* two seats, race rules: leaf progress term and selective search */
    bool three_race;         /* three seats, race rules: every seat's best progress at leaves */
    int multi_rfp_margin;    /* reverse futility's margin for 3+ seats (cp a ply), 0: off */
    OppsParams opps;         /* OPPS's parameters, defaults resolved (opps.h) */
    unsigned modeled;        /* seats the opponent model expects to play greedily (opponents.h) */
    bool root_cut;           /* stop, time or the cap cut the root list short: no search follows */
    bool root_capped;        /* SEARCH_MOVES_MAX cut it (rootmoves.h) */
    atomic_bool too_many_moves; /* a position below the root had more than SEARCH_MOVES_MAX
                                   moves: the search ended there */
    SearchSignals *sig;
    atomic_bool abort_all;   /* the tree search is over (its node limit reached, a helper
                                completed go depth, or the main worker finished): every
                                worker stops, and the answer still waits for stop or
                                ponderhit where it must (go infinite, go ponder) */
    SearchOutput out;
    void *out_ctx;
    SearchClock clock;
    uint64_t node_limit;     /* the search's nodes, every thread's summed, never pass it (go
                                nodes, or nodestime's hard budget; node_count); 0: none */
    _Atomic uint64_t nodes_shared; /* the nodes of node_limit the workers have taken so far */
    GenMemo *report_gen;     /* generation for reports, stopped by stop or the hard limit (NULL: none) */
    EvalMemo *report_eval;   /* the evaluation of reports, with the search's net (NULL: hand-written) */
    Move said[2];            /* the first two moves of the last line reported (multipv 1) */
    int lines_said;          /* REPORT_LINEs given to out (report_line_out) */
    int nsaid;               /* how many of them were reported */
    Worker *workers;
    int nworkers;
    const RootMove *root_moves; /* the root moves each thread copies as it joins */
    int nroot_moves;
    const SearchShared *sh;  /* what the session lends the search */
    TT *tt;                  /* sh's table and busy table, copied: read at every node */
    BusyTable *busy;
    uint64_t history_filter[(1 << HISTORY_FILTER_BITS) / 64];
};

/* Nodes searched so far by every thread of c. */
static inline uint64_t total_nodes(const SearchContext *c)
{
    uint64_t n = 0;
    for (int i = 0; i < c->nworkers; i++)
        n += atomic_load_explicit(&c->workers[i].nodes, memory_order_relaxed);
    return n;
}

/* Whether the search must stop now: stop or quit, or the main thread done. */
static inline bool stopped(const Worker *w)
{
    return atomic_load_explicit(&w->ctx->sig->stop, memory_order_relaxed) ||
           atomic_load_explicit(&w->ctx->abort_all, memory_order_relaxed);
}

/* +1 when seat s plays on the root's side (the root seat or its partner), else -1. */
static inline int side_of(const SearchContext *c, int s)
{
    return s == c->root_seat || s == variant_partner(c->game->v, c->root_seat) ? 1 : -1;
}

/* Whether search c must stop now: stop or quit, or its clock past `limit_ms`
 * (its soft or hard limit; -1 none; see clock_past). */
static inline bool out_of_time(SearchContext *c, int64_t limit_ms)
{
    return atomic_load(&c->sig->stop) || clock_past(&c->clock, limit_ms);
}

#endif
