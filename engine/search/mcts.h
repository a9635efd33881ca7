/*
 * mcts.h - Monte-Carlo tree search for three to six seats (Search value
 * `mcts`), after Nijssen and Winands (2011, "Enhancements for Multi-Player
 * Monte-Carlo Tree Search"), who found these the best choices for
 * multi-player Chinese Checkers:
 *   - max-n backup: every node keeps each seat's mean reward, and the seat to
 *     move at a node selects the child best for itself (UCT, Kocsis and
 *     Szepesvari 2006, with progressive bias toward moves that make progress
 *     or capture, fading with visits);
 *   - short playouts, epsilon-greedy on progress (or captures), cut after one
 *     round (a move of every seat) and scored by places.h (every seat's
 *     value, mapped to 0..1);
 *   - decided ends (a game over, the root's seat placed) are scored exactly
 *     and proven, and proofs rise (the multi-player MCTS-Solver of the same
 *     paper: a node is proven when its mover has a proven child placing it
 *     first, or when all its children are proven); of the root moves proven
 *     to place the root's seat first the one of the shortest proof is played
 *     (another could be proven again at every move, the arrival never
 *     coming), and one that arrives at once (takes the best place still
 *     free) without a search;
 *   - Progressive History (mcts_history.h, MctsConfig.history_w), off unless
 *     asked;
 *   - progressive widening (Couetoux et al. 2011, "Continuous Upper Confidence
 *     Trees"; for multi-player games Baier and Kaisers 2020, "Guiding
 *     Multiplayer MCTS by Focusing on Yourself", CoG): below the root a node
 *     visited t times selects among its first ceil(C t^alpha) children, the
 *     children in order of progress (captures); off unless asked;
 *   - opponent-move abstraction (OMA, the same paper): statistics of the root
 *     seat's moves shared by every node reached by the same root-seat move
 *     before it, whatever the opponents played between, blended into the
 *     node's own mean with weight sqrt(K / (K + 3 n)) (n the child's visits,
 *     as a public re-implementation in the TAG framework reads it); off
 *     unless asked. A move is keyed by its two holes, as in the history
 *     table: in capture mode moves of the same holes that capture other
 *     pieces share an entry.
 * Threads (the session's pool) search in parallel at the root, and the tree
 * of one search is kept for the next (MctsConfig). The root move played, then the most visited
 * others, are reported as lines (MultiPV) while it runs and when it ends.
 */
#ifndef STERN_MCTS_H
#define STERN_MCTS_H

#include "game.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct SearchPool SearchPool;
typedef struct MctsKept MctsKept;

/* Asked every few playouts: whether the search must end now. */
typedef bool (*MctsStop)(void *ctx);

#define MCTS_PV_MAX 64 /* moves of a reported line at most */

typedef struct {
    Move best;             /* the root move played: the shortest proven first
                              place, else the most visited */
    bool has_best;         /* false: no legal move */
    Move pv[MCTS_PV_MAX];  /* the most visited line from `best` */
    int pvlen;
    int values[MAX_SEATS]; /* each seat's mean reward at the root, in places.h's scale */
    uint64_t playouts;
    int threads;           /* threads whose tree had a playout */
    int depth;             /* mean depth of the tree part of a playout, plies, rounded */
    int seldepth;          /* deepest tree node reached, plies */
    bool too_many_moves;   /* a position had more than MctsConfig.moves_max moves */
} MctsResult;

/* One root move's line for a report: the most visited path from it. */
typedef struct {
    const Move *pv;        /* pvlen >= 1 moves, pv[0] the root move; valid during the call */
    int pvlen;
    int values[MAX_SEATS]; /* each seat's mean reward after pv[0], in places.h's scale */
    uint32_t visits;       /* playouts through pv[0] */
} MctsLine;

/* What the search reports and asks while it runs. */
typedef struct {
    MctsStop stop;       /* whether the search must end now */
    MctsStop report_due; /* NULL, or whether lines are due now (a periodic report) */
    /* NULL, or receives lines k = 0..n-1 (n = min(multipv, root moves), most
     * visited first) each time the tree's mean depth rises, when report_due
     * says so, and once when the search ends; sofar has the playouts and
     * depths up to then */
    void (*lines)(void *ctx, const MctsResult *sofar, int k, const MctsLine *line);
    void (*lines_end)(void *ctx); /* NULL, or told when a report's lines are all given */
    int multipv;         /* lines a report holds, >= 1 */
    void *ctx;           /* passed to each hook */
} MctsHooks;

/* How far and how one search goes. */
typedef struct {
    uint64_t max_playouts; /* playouts of every thread together; 0: no limit */
    int depth_limit;       /* stop once the mean depth of the tree part of a
                              playout, rounded, reaches it (plies); 0: none */
    int64_t moves_max;     /* a position of more moves (capture-mode chain states)
                              ends the search (MctsResult.too_many_moves); 0: none */
    size_t nodes_cap;      /* tree nodes of every thread together at most
                              (memory: about 64 bytes a node); once full,
                              playouts go on from the leaves reached */
    unsigned modeled;      /* bit s set for each seat expected to play the greedy
                              policy (opponents.h): its nodes have that move alone
                              and its playout moves are greedy */
    int threads;           /* >= 1: root parallelisation (Chaslot, Winands and van
                              den Herik 2008): each thread grows a tree of its own,
                              the root moves' visits and rewards are summed; on
                              as many of the pool's threads (at most its size) */
    double history_w;      /* Progressive History's weight W (mcts_history.h),
                              >= 0; 0: off */
    double widening_c;     /* progressive widening's C (> 0), 0: off */
    double widening_alpha; /* its exponent alpha (0..1) */
    double oma_k;          /* opponent-move abstraction's K (visits at which the
                              node's own mean weighs as much as the shared one),
                              0: off */
    SearchPool *pool;      /* the threads (pool.h; NULL: the caller's alone) */
    MctsKept *kept;        /* NULL, or tree reuse: start from the subtree of the
                              tree kept here by the last search where the game
                              continues it (its moves since are followed down the
                              tree), and keep the main thread's tree here for the
                              next search */
} MctsConfig;

/* Searches the current position of g (three or more seats, not over) over
 * the root moves root[0..nroot-1] (nroot >= 1) under cfg until hooks->stop says
 * so (it is asked by every thread, so it must be thread-safe; the other hooks
 * are called from the caller's thread), and fills *out. Returns 0, or -1 when
 * the tree's first memory cannot be had (*out then has no best move). */
int mcts_search(const Game *g, const Move *root, int nroot, const MctsConfig *cfg, const MctsHooks *hooks,
                MctsResult *out);

/* A place to keep a tree for reuse, empty (a session has one); NULL when out
 * of memory. */
MctsKept *mcts_kept_new(void);

/* Forgets the tree kept in k (a new game). */
void mcts_kept_clear(MctsKept *k);

/* Frees k and its tree (NULL is ignored). */
void mcts_kept_delete(MctsKept *k);

#endif
