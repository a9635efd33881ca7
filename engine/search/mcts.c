/* mcts.c - multi-player Monte-Carlo tree search; see mcts.h. */
#include "mcts.h"

#include "eval.h"
#include "greedy.h"
#include "mcts_history.h"
#include "movegen.h"
#include "places.h"
#include "pool.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Constants of the search, each overridable with -D for tuning. */
#ifndef MCTS_UCT_C
#define MCTS_UCT_C 0.5          /* exploration, rewards in 0..1 */
#endif
#ifndef MCTS_BIAS
#define MCTS_BIAS 0.05          /* progressive bias per step of progress (capture), fading as 1/(n+1) */
#endif
#ifndef MCTS_EPSILON
#define MCTS_EPSILON 0.1        /* playouts: chance of a uniformly random move instead of the best-progress one */
#endif
#ifndef MCTS_CAPTURE_REPLY_SLACK
#define MCTS_CAPTURE_REPLY_SLACK -1 /* capture mode: other seats' moves kept in the tree, captures below their most; -1 all */
#endif
#ifndef MCTS_PLAYOUT_ROUNDS
#define MCTS_PLAYOUT_ROUNDS 1   /* playouts are cut after this many moves of every seat */
#endif
#define MCTS_CHECK_EVERY 64     /* playouts between calls of stop() */
#define MCTS_FIRST_NODES 65536  /* tree size allocated first; doubled as needed */
#define MCTS_PATH_MAX 256       /* tree depth at most (plies) */

typedef struct {
    Move move;             /* the move into this node */
    uint32_t first_child;  /* index of the first child; 0 while not expanded */
    uint32_t nchildren;
    uint32_t visits;
    int16_t prior;         /* the move's progress (captures) */
    uint8_t proven;        /* its value is exact (MCTS-Solver): every reward sum is
                              that value times the visits */
    uint8_t end_plies;     /* proven: plies of its proof down to the decided end
                              (capped at 255), so that the shortest forced first
                              place is played, not one that can wait for ever */
    float reward[MAX_SEATS]; /* sum over playouts of each seat's reward */
} Node;

typedef struct Tree Tree;

/* Opponent-move abstraction's statistics of one root-seat move b played at a
 * root-seat node whose previous root-seat node played the move into node a
 * (key: a and b's holes, + 1; 0 an empty slot). */
typedef struct {
    uint64_t key;
    uint32_t visits;
    float reward; /* the root seat's, summed */
} OmaEntry;

/* What every thread of one search shares. */
typedef struct {
    Tree *trees;                     /* one per thread */
    int ntrees;
    MctsResult *out;                 /* the main thread's progress and answer */
    const Game *g;
    const Move *root;
    int nroot;
    const MctsConfig *cfg;
    const MctsHooks *hooks;
    atomic_bool halt;                /* a thread found the search over: all stop */
    atomic_uint_fast64_t playouts;   /* over every thread */
    atomic_uint_fast64_t begun;      /* playouts begun over every thread: with max_playouts a
                                        thread takes a number before each (never past it) */
    atomic_bool too_many_moves;      /* a position had more than cfg->moves_max moves */
} Shared;

/* One thread's tree and the scratch it searches with. */
struct Tree {
    Shared *sh;
    Node *nodes;
    size_t n, cap, max;
    uint64_t rng;
    int root_seat;
    unsigned modeled;      /* seats expected to play the greedy policy (opponents.h) */
    MoveList *list;
    MctsHistory *hist;     /* Progressive History's table; NULL: off */
    OmaEntry *oma;         /* opponent-move abstraction's table, open addressing; NULL: off */
    size_t oma_n, oma_cap; /* entries used, slots (a power of two) */
    Move played[MCTS_PLAYOUT_ROUNDS * MAX_SEATS]; /* the playout's moves, for the table */
    int8_t played_by[MCTS_PLAYOUT_ROUNDS * MAX_SEATS];
    int nplayed;
    GenMemo *gen;          /* the thread's memos */
    EvalMemo *eval;
    uint64_t playouts, depth_sum;
    int seldepth;
};

/* The tree kept for the next search (tree reuse): the nodes and the game
 * position they grew from. A session's (one search at a time uses it). */
struct MctsKept {
    Node *nodes; /* NULL: none */
    size_t n;
    const Variant *v;
    uint64_t start_key, root_key; /* the game's first key, and its key at the root */
    int root_plies;               /* the game's plies at the root */
    unsigned modeled;
};

MctsKept *mcts_kept_new(void) { return calloc(1, sizeof(MctsKept)); }

void mcts_kept_clear(MctsKept *k)
{
    free(k->nodes);
    k->nodes = NULL;
    k->n = 0;
}

void mcts_kept_delete(MctsKept *k)
{
    if (k)
        mcts_kept_clear(k);
    free(k);
}

/* Frees what t holds. */
static void tree_free(Tree *t)
{
    free(t->nodes);
    mcts_history_delete(t->hist);
    free(t->oma);
    move_list_delete(t->list);
    gen_memo_delete(t->gen);
    eval_memo_delete(t->eval);
}

static uint64_t next_random(Tree *t)
{
    /* xorshift64* (Vigna 2016): fast, and the same run for the same seed */
    t->rng ^= t->rng >> 12;
    t->rng ^= t->rng << 25;
    t->rng ^= t->rng >> 27;
    return t->rng * 0x2545F4914F6CDD1Dull;
}

static int move_gain(const Position *p, const Move *m)
{
    return p->v->capture ? m->ncapt : p->v->tip_dist[p->stm][m->from] - p->v->tip_dist[p->stm][m->to];
}

/* Whether p ends the search: the game is over or the root's seat placed. */
static bool decided(const Tree *t, const Position *p) { return pos_over(p) || p->place[t->root_seat]; }

/* Each seat's reward (0..1) for the values of places.h. */
static void rewards_of(const int values[MAX_SEATS], float out[MAX_SEATS])
{
    for (int s = 0; s < MAX_SEATS; s++) {
        const double r = ((double)values[s] / PLACE_SPAN + 1.0) / 2.0;
        out[s] = (float)(r < 0 ? 0 : r > 1 ? 1 : r);
    }
}

/* Makes room for `more` nodes; false when the tree is full. */
static bool reserve_nodes(Tree *t, size_t more)
{
    if (t->n + more <= t->cap)
        return true;
    size_t cap = t->cap;
    while (cap < t->n + more)
        cap *= 2;
    if (cap > t->max)
        return false;
    Node *grown = realloc(t->nodes, cap * sizeof *grown);
    if (!grown)
        return false;
    t->nodes = grown;
    t->cap = cap;
    return true;
}

/* Appends the children of node i for the moves of t->list (p: i's position). */
static void add_children(Tree *t, size_t i, const Position *p)
{
    const size_t k = (size_t)t->list->n;
    Node *node = &t->nodes[i];
    node->first_child = (uint32_t)t->n;
    node->nchildren = (uint32_t)k;
    for (size_t j = 0; j < k; j++) {
        Node *c = &t->nodes[t->n++];
        memset(c, 0, sizeof *c);
        c->move = t->list->m[j];
        c->prior = (int16_t)move_gain(p, &t->list->m[j]);
    }
}

/* Orders l's moves by progress (captures) at p, most first, the earlier of
 * equal ones first: progressive widening's order. A stable counting sort
 * over the gains (a step or chain gains at most 16 steps, a capture chain
 * at most 15 captures; outside -32..31 they share the end buckets), through
 * scratch of the list's size. Returns false (l unchanged) when the scratch
 * cannot be had. */
#define GAIN_BUCKETS 64

/* The bucket of a move's gain: 0 for 31 or more, 63 for -32 or less. */
static int gain_bucket(const Position *p, const Move *m)
{
    const int g = move_gain(p, m);
    return 31 - (g < -32 ? -32 : g > 31 ? 31 : g);
}

static bool sort_by_gain(MoveList *l, const Position *p)
{
    Move *tmp = malloc(sizeof *tmp * (size_t)(l->n ? l->n : 1));
    if (!tmp)
        return false;
    int start[GAIN_BUCKETS + 1] = {0}; /* where each bucket's moves go */
    for (int j = 0; j < l->n; j++)
        start[gain_bucket(p, &l->m[j]) + 1]++;
    for (int b = 1; b <= GAIN_BUCKETS; b++)
        start[b] += start[b - 1];
    for (int j = 0; j < l->n; j++)
        tmp[start[gain_bucket(p, &l->m[j])]++] = l->m[j];
    memcpy(l->m, tmp, sizeof *tmp * (size_t)l->n);
    free(tmp);
    return true;
}

/* ---- opponent-move abstraction ---- */

static uint64_t oma_key(size_t a, const Move *b) { return ((uint64_t)a << 14 | (uint64_t)(b->from * 121 + b->to)) + 1; }

/* The slot of key in t's table: its entry, or the empty slot where it goes. */
static OmaEntry *oma_slot(const Tree *t, uint64_t key)
{
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (t->oma_cap - 1);
    while (t->oma[h].key && t->oma[h].key != key)
        h = (h + 1) & (t->oma_cap - 1);
    return &t->oma[h];
}

/* Adds the root seat's reward r to the entry of (a, b); a table that cannot
 * grow takes no new entry but still updates those it has. */
static void oma_add(Tree *t, size_t a, const Move *b, float r)
{
    OmaEntry *e = oma_slot(t, oma_key(a, b));
    if (!e->key && 2 * (t->oma_n + 1) > t->oma_cap) {
        OmaEntry *grown = calloc(2 * t->oma_cap, sizeof *grown);
        if (!grown)
            return;
        OmaEntry *old = t->oma;
        const size_t cap = t->oma_cap;
        t->oma = grown;
        t->oma_cap = 2 * cap;
        for (size_t j = 0; j < cap; j++)
            if (old[j].key)
                *oma_slot(t, old[j].key) = old[j];
        free(old);
        e = oma_slot(t, oma_key(a, b));
    }
    if (!e->key) {
        e->key = oma_key(a, b);
        t->oma_n++;
    }
    e->visits++;
    e->reward += r;
}

/* Expands node i (not the root), whose position is p: one child per move, or
 * a modelled seat's greedy move alone. Returns false when the tree is full
 * (the node stays a leaf). */
static bool expand(Tree *t, size_t i, const Position *p)
{
    if (t->modeled >> p->stm & 1) {
        Move m;
        if (!greedy_choose(p, NULL, 0, t->list, t->gen, t->eval, &m, NULL))
            return false;
        t->list->m[0] = m;
        t->list->n = 1;
    } else {
        gen_moves_no_return(p, t->list, t->gen);
#if MCTS_CAPTURE_REPLY_SLACK >= 0
        if (p->v->capture && p->stm != t->root_seat) {
            int top = 0, kept_n = 0;
            for (int j = 0; j < t->list->n; j++)
                top = t->list->m[j].ncapt > top ? t->list->m[j].ncapt : top;
            for (int j = 0; j < t->list->n; j++)
                if (t->list->m[j].ncapt + MCTS_CAPTURE_REPLY_SLACK >= top)
                    t->list->m[kept_n++] = t->list->m[j];
            t->list->n = kept_n;
        }
#endif
    }
    if (t->sh->cfg->widening_c > 0 && !sort_by_gain(t->list, p))
        return false;
    if (!reserve_nodes(t, (size_t)t->list->n))
        return false;
    add_children(t, i, p);
    return true;
}

/* The children of node i that progressive widening lets it select: the
 * first ceil(C t^alpha), t its visits (at least 1); all at the root or when
 * widening is off. */
static uint32_t widened(const Tree *t, size_t i)
{
    const Node *node = &t->nodes[i];
    const MctsConfig *cfg = t->sh->cfg;
    if (!i || cfg->widening_c <= 0)
        return node->nchildren;
    const double k = ceil(cfg->widening_c * pow(node->visits > 1 ? (double)node->visits : 1.0, cfg->widening_alpha));
    return k < node->nchildren ? (uint32_t)(k < 1 ? 1 : k) : node->nchildren;
}

/* The child of node i (position p) the seat to move selects: UCT on its own
 * mean reward (at a root-seat node below the root with opponent-move
 * abstraction, blended with the shared mean of its move after node `a`, the
 * move into the last root-seat node's child; 0: none) with progressive bias,
 * and Progressive History when its table is kept; among the children
 * progressive widening allows; an unvisited child first, the one of most
 * progress among them. */
static size_t select_child(const Tree *t, size_t i, const Position *p, size_t a)
{
    const Node *node = &t->nodes[i];
    const int s = p->stm;
    const double log_n = log((double)node->visits + 1.0);
    const bool oma = t->oma && a && s == t->root_seat;
    const uint32_t allowed = widened(t, i);
    size_t best = node->first_child;
    double top = -1e300;
    for (uint32_t j = 0; j < allowed; j++) {
        const size_t ci = node->first_child + j;
        const Node *c = &t->nodes[ci];
        double score;
        if (!c->visits) {
            score = 1e9 + c->prior;
        } else {
            const double own = c->reward[s] / c->visits;
            double mean = own;
            if (oma && !c->proven) { /* a proven child's mean is exact */
                const OmaEntry *e = oma_slot(t, oma_key(a, &c->move));
                if (e->key) {
                    const double k = t->sh->cfg->oma_k, beta = sqrt(k / (k + 3.0 * c->visits));
                    mean = (1 - beta) * own + beta * (e->reward / e->visits);
                }
            }
            score = mean + MCTS_UCT_C * sqrt(log_n / c->visits) + MCTS_BIAS * c->prior / (c->visits + 1.0);
            if (t->hist && !c->proven)
                score += mcts_history_bonus(t->sh->cfg->history_w, mcts_history_mean(t->hist, s, &c->move), own,
                                            c->visits);
        }
        if (score > top) {
            top = score;
            best = ci;
        }
    }
    return best;
}

/* Notes for the history table that the seat to move at p plays m. */
static void note_played(Tree *t, const Position *p, const Move *m)
{
    t->played[t->nplayed] = *m;
    t->played_by[t->nplayed++] = (int8_t)p->stm;
}

/* Plays from p to the playout's end and writes every seat's reward; the moves
 * played are in t->played (t->nplayed). */
static void playout(Tree *t, Position *p, int ply, float out[MAX_SEATS])
{
    const int plies = MCTS_PLAYOUT_ROUNDS * p->v->nseats;
    t->nplayed = 0;
    for (int k = 0; k < plies && !decided(t, p); k++) {
        if (t->modeled >> p->stm & 1) {
            Move m;
            if (!greedy_choose(p, NULL, 0, t->list, t->gen, t->eval, &m, NULL))
                break;
            note_played(t, p, &m);
            pos_play(p, &m);
            ply++;
            continue;
        }
        gen_moves_no_return(p, t->list, t->gen);
        if (!t->list->n)
            break;
        int pick = 0;
        if ((next_random(t) >> 11) * (1.0 / 9007199254740992.0) < MCTS_EPSILON) {
            pick = (int)(next_random(t) % (uint64_t)t->list->n);
        } else {
            int top = -1000;
            for (int j = 0; j < t->list->n; j++) {
                const int gain = move_gain(p, &t->list->m[j]);
                if (gain > top) {
                    top = gain;
                    pick = j;
                }
            }
        }
        note_played(t, p, &t->list->m[pick]);
        pos_play(p, &t->list->m[pick]);
        ply++;
    }
    int values[MAX_SEATS];
    places_values(p, ply, 0, values, t->eval);
    rewards_of(values, out);
}

/* Whether a seat's reward r is first place (places.h scores it as a mate,
 * which rewards_of caps at 1). */
static bool first_place(float r) { return r >= 1.0f; }

/* Makes node i proven with each seat's exact reward r (its sums become r
 * times its visits), its proof `plies` long. */
static void prove(Node *node, const float r[MAX_SEATS], int plies)
{
    node->proven = 1;
    node->end_plies = (uint8_t)(plies < 255 ? plies : 255);
    for (int s = 0; s < MAX_SEATS; s++)
        node->reward[s] = r[s] * (float)node->visits;
}

/* Each seat's mean reward at node i. */
static void mean_rewards(const Node *node, float r[MAX_SEATS])
{
    for (int s = 0; s < MAX_SEATS; s++)
        r[s] = node->visits ? node->reward[s] / (float)node->visits : 0.0f;
}

/* MCTS-Solver for max-n trees (Nijssen and Winands 2011): from the proven
 * node path[k] up, a parent is proven when the seat to move there (mover[k-1])
 * has a proven child that places it first, or when every child is proven
 * (then by the child best for that seat, the first of equal ones). */
static void propagate_proofs(Tree *t, const size_t *path, const int8_t *mover, int k)
{
    for (; k > 0 && t->nodes[path[k]].proven; k--) {
        Node *parent = &t->nodes[path[k - 1]];
        if (parent->proven)
            return;
        const int s = mover[k - 1];
        /* the child whose value the parent takes */
        const Node *by = &t->nodes[path[k]];
        if (!first_place(by->reward[s] / (float)by->visits)) {
            by = NULL;
            for (uint32_t j = 0; j < parent->nchildren; j++) {
                const Node *c = &t->nodes[parent->first_child + j];
                if (!c->proven)
                    return;
                if (!by || c->reward[s] / c->visits > by->reward[s] / by->visits)
                    by = c;
            }
        }
        float r[MAX_SEATS];
        mean_rewards(by, r);
        prove(parent, r, by->end_plies + 1);
    }
}

/* Adds one playout to the history table: the moves of the tree part
 * (path[1..n-1], each played by mover[k-1]) and, unless it ended in the tree
 * (`ended`), the playout's, each seat's with its reward r. */
static void record_history(Tree *t, const size_t *path, const int8_t *mover, int n, bool ended,
                           const float r[MAX_SEATS])
{
    for (int k = 1; k < n; k++)
        mcts_history_add(t->hist, mover[k - 1], &t->nodes[path[k]].move, r[mover[k - 1]]);
    for (int k = 0; !ended && k < t->nplayed; k++)
        mcts_history_add(t->hist, t->played_by[k], &t->played[k], r[t->played_by[k]]);
}

/* One playout from the root: selection (a proven node ends it with its exact
 * value, as does a position that ends the search), expansion, playout, max-n
 * backup, then the proofs up the path. */
static void one_playout(Tree *t)
{
    Position p = t->sh->g->pos;
    size_t path[MCTS_PATH_MAX];
    int8_t mover[MCTS_PATH_MAX]; /* the seat to move at path[k] */
    size_t after[MCTS_PATH_MAX]; /* opponent-move abstraction: at a root-seat path[k], the child
                                    the last root-seat node before it went to (0: none) */
    size_t i = 0, last = 0;      /* last: the child of the last root-seat node on the path */
    int n = 0;
    path[n++] = 0;
    float r[MAX_SEATS];
    bool exact = false;
    while (t->nodes[i].nchildren && n < MCTS_PATH_MAX - 1) {
        mover[n - 1] = p.stm;
        after[n - 1] = last;
        i = select_child(t, i, &p, last);
        if (mover[n - 1] == t->root_seat)
            last = i;
        pos_play(&p, &t->nodes[i].move);
        path[n++] = i;
        if ((exact = t->nodes[i].proven || decided(t, &p)))
            break;
    }
    if (!exact && t->nodes[i].visits && n < MCTS_PATH_MAX - 1 && expand(t, i, &p) && t->nodes[i].nchildren) {
        /* expansion of a node visited before, then one step into it */
        mover[n - 1] = p.stm;
        after[n - 1] = last;
        i = select_child(t, i, &p, last);
        pos_play(&p, &t->nodes[i].move);
        path[n++] = i;
        exact = decided(t, &p);
    }
    if (t->nodes[i].proven) {
        mean_rewards(&t->nodes[i], r);
    } else if (exact) { /* decided: the values of the end, exactly */
        int values[MAX_SEATS];
        places_values(&p, n - 1, 0, values, t->eval);
        rewards_of(values, r);
        prove(&t->nodes[i], r, 0);
    } else {
        playout(t, &p, n - 1, r);
    }
    if (t->hist) /* the full-sample table: the tree's moves and the playout's */
        record_history(t, path, mover, n, exact || t->nodes[i].proven, r);
    t->depth_sum += (uint64_t)(n - 1);
    if (n - 1 > t->seldepth)
        t->seldepth = n - 1;
    for (int k = 0; k < n; k++) {
        Node *node = &t->nodes[path[k]];
        node->visits++;
        for (int s = 0; s < MAX_SEATS; s++)
            node->reward[s] += r[s];
    }
    for (int k = 1; t->oma && k < n - 1; k++) /* the root seat's moves below the root, shared */
        if (mover[k] == t->root_seat && after[k])
            oma_add(t, after[k], &t->nodes[path[k + 1]].move, r[t->root_seat]);
    if (exact)
        propagate_proofs(t, path, mover, n - 1);
    t->playouts++;
}

/* ---- the root and its lines, over the trees of every thread ---- */

/* The most visited child of node i of t; 0 (the root, no child) when none is visited. */
static size_t most_visited(const Tree *t, size_t i)
{
    const Node *node = &t->nodes[i];
    size_t best = 0;
    for (uint32_t j = 0; j < node->nchildren; j++) {
        const size_t c = node->first_child + j;
        if (t->nodes[c].visits && (!best || t->nodes[c].visits > t->nodes[best].visits))
            best = c;
    }
    return best;
}

/* The most visited line of t from node c, a child of the root of g, into pv;
 * returns its length (1..MCTS_PV_MAX). */
static int line_from(const Tree *t, const Game *g, size_t c, Move pv[MCTS_PV_MAX])
{
    Position p = g->pos;
    int n = 0;
    for (size_t i = c; i;) {
        pv[n++] = t->nodes[i].move;
        pos_play(&p, &t->nodes[i].move);
        if (n == MCTS_PV_MAX || pos_over(&p))
            break;
        i = most_visited(t, i);
    }
    return n;
}

/* Root move j (0..nroot-1) over trees[0..ntrees): the visits and reward sums
 * of every tree's child j, and the tree that visited it most. */
typedef struct {
    uint32_t visits;
    double reward[MAX_SEATS];
    int tree; /* -1: no tree has it */
} RootStat;

static RootStat root_stat(const Tree *trees, int ntrees, int j)
{
    RootStat st = {.tree = -1};
    uint32_t top = 0;
    for (int k = 0; k < ntrees; k++) {
        const Node *root = &trees[k].nodes[0];
        if ((uint32_t)j >= root->nchildren)
            continue;
        const Node *c = &trees[k].nodes[root->first_child + j];
        st.visits += c->visits;
        for (int s = 0; s < MAX_SEATS; s++)
            st.reward[s] += c->reward[s];
        if (st.tree < 0 || c->visits > top) {
            top = c->visits;
            st.tree = k;
        }
    }
    return st;
}

/* Each seat's mean reward of a root move in places.h's scale. */
static void stat_values(const RootStat *st, int values[MAX_SEATS])
{
    for (int s = 0; s < MAX_SEATS; s++)
        values[s] = (int)lround((2.0 * st->reward[s] / st->visits - 1.0) * PLACE_SPAN);
}

/* The root move to play: the one of the shortest proof that it places the
 * root's seat first (MCTS-Solver; the first of equal ones), else the one of
 * most visits over the trees (the first of equal ones); -1 when none is
 * visited. */
static int best_root(const Tree *trees, int ntrees, int nroot)
{
    int proven = -1, shortest = 256;
    for (int k = 0; k < ntrees; k++) {
        const Node *root = &trees[k].nodes[0];
        for (uint32_t j = 0; j < root->nchildren; j++) {
            const Node *c = &trees[k].nodes[root->first_child + j];
            if (c->proven && c->visits && first_place(c->reward[trees[k].root_seat] / (float)c->visits) &&
                c->end_plies < shortest) {
                proven = (int)j;
                shortest = c->end_plies;
            }
        }
    }
    if (proven >= 0)
        return proven;
    int best = -1;
    uint32_t top = 0;
    for (int j = 0; j < nroot; j++) {
        const uint32_t v = root_stat(trees, ntrees, j).visits;
        if (v && (best < 0 || v > top)) {
            best = j;
            top = v;
        }
    }
    return best;
}

/* Reports root move j over trees[0..ntrees) as line k of the hooks. */
static void report_line(const Tree *trees, int ntrees, const Shared *sh, const MctsResult *sofar, int k, int j)
{
    const RootStat st = root_stat(trees, ntrees, j);
    const Tree *t = &trees[st.tree];
    Move pv[MCTS_PV_MAX];
    MctsLine line = {.pv = pv, .pvlen = line_from(t, sh->g, t->nodes[0].first_child + (size_t)j, pv),
                     .visits = st.visits};
    stat_values(&st, line.values);
    sh->hooks->lines(sh->hooks->ctx, sofar, k, &line);
}

/* Reports the hooks' lines over trees[0..ntrees): first root move `first`
 * (best_root's; -1: none is visited, nothing is reported), then the most
 * visited of the others, min(multipv, visited) in all. */
static void report_line_multipv(const Tree *trees, int ntrees, const Shared *sh, const MctsResult *sofar, int first)
{
    if (!sh->hooks->lines || first < 0)
        return;
    report_line(trees, ntrees, sh, sofar, 0, first);
    uint32_t bound = UINT32_MAX; /* the others go by visits, then by move order */
    int after = -1;
    for (int k = 1; k < sh->hooks->multipv; k++) {
        int best = -1;
        uint32_t top = 0;
        for (int j = 0; j < sh->nroot; j++) {
            const uint32_t v = root_stat(trees, ntrees, j).visits;
            if (j != first && v && (v < bound || (v == bound && j > after)) && (best < 0 || v > top)) {
                best = j;
                top = v;
            }
        }
        if (best < 0)
            break;
        report_line(trees, ntrees, sh, sofar, k, best);
        bound = top;
        after = best;
    }
    if (sh->hooks->lines_end)
        sh->hooks->lines_end(sh->hooks->ctx);
}

/* The rounded mean depth of the tree part of the playouts so far. */
static int mean_depth(uint64_t depth_sum, uint64_t playouts)
{
    return playouts ? (int)((depth_sum + playouts / 2) / playouts) : 0;
}

/* ---- tree reuse ---- */

/* Copies the subtree of node `from` of src (nodes) under node `to` of t, which
 * has room: breadth first, each node's children kept together. Returns false
 * when t is full (the copy then stops, the tree stays sound: cut nodes are
 * leaves). */
static bool copy_subtree(Tree *t, const Node *src, size_t from, size_t to)
{
    size_t queue_from[2] = {from, to};
    size_t *q = malloc(sizeof *q * 2 * 64), qcap = 64, head = 0, tail = 0;
    if (!q)
        return false;
    q[0] = queue_from[0], q[1] = queue_from[1];
    tail = 1;
    bool ok = true;
    while (head < tail) {
        const size_t s = q[2 * head], d = q[2 * head + 1];
        head++;
        const Node *sn = &src[s];
        t->nodes[d].first_child = 0;
        t->nodes[d].nchildren = 0;
        if (!sn->nchildren)
            continue;
        if (!reserve_nodes(t, sn->nchildren)) {
            ok = false;
            continue;
        }
        const size_t first = t->n;
        memcpy(&t->nodes[first], &src[sn->first_child], sizeof *t->nodes * sn->nchildren);
        t->n += sn->nchildren;
        t->nodes[d].first_child = (uint32_t)first;
        t->nodes[d].nchildren = sn->nchildren;
        if (tail + sn->nchildren > qcap) {
            while (tail + sn->nchildren > qcap)
                qcap *= 2;
            size_t *grown = realloc(q, sizeof *q * 2 * qcap);
            if (!grown) {
                ok = false;
                for (uint32_t j = 0; j < sn->nchildren; j++) /* leave the copied children as leaves */
                    t->nodes[first + j].first_child = 0, t->nodes[first + j].nchildren = 0;
                continue;
            }
            q = grown;
        }
        for (uint32_t j = 0; j < sn->nchildren; j++) {
            q[2 * tail] = sn->first_child + j;
            q[2 * tail + 1] = first + j;
            tail++;
        }
    }
    free(q);
    return ok;
}

/* The node of the kept tree at the current position of g, found by following
 * the moves played since its root; 0 when the tree does not lead there
 * (kept->nodes not NULL). */
static size_t kept_node(const MctsKept *kept, const Game *g, unsigned modeled)
{
    if (kept->v != g->v || kept->modeled != modeled || g->keys[0] != kept->start_key || g->nplies < kept->root_plies ||
        g->keys[kept->root_plies] != kept->root_key)
        return 0;
    size_t i = 0;
    for (int k = kept->root_plies; k < g->nplies; k++) {
        const Node *node = &kept->nodes[i];
        size_t next = 0;
        for (uint32_t j = 0; j < node->nchildren && !next; j++)
            if (move_same(&kept->nodes[node->first_child + j].move, &g->moves[k]))
                next = node->first_child + j;
        if (!next)
            return 0;
        i = next;
    }
    return i;
}

/* Makes t's root node and its children (the root moves), each child with the
 * subtree the kept tree has for it when one is kept (kept not NULL). */
static void plant_root(Tree *t, MctsKept *kept)
{
    const Shared *sh = t->sh;
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    t->n = 1;
    memcpy(t->list->m, sh->root, sizeof *sh->root * (size_t)sh->nroot);
    t->list->n = sh->nroot;
    add_children(t, 0, &sh->g->pos);
    if (!kept)
        return;
    const size_t at = kept->nodes ? kept_node(kept, sh->g, t->modeled) : 0;
    const bool found = at && kept->nodes[at].nchildren && !kept->nodes[at].proven;
    for (int j = 0; found && j < sh->nroot; j++) {
        const Node *old = &kept->nodes[at];
        for (uint32_t k = 0; k < old->nchildren; k++) {
            const Node *c = &kept->nodes[old->first_child + k];
            if (!move_same(&c->move, &sh->root[j]))
                continue;
            Node *mine = &t->nodes[1 + j];
            *mine = *c;
            copy_subtree(t, kept->nodes, old->first_child + k, 1 + (size_t)j);
            t->nodes[0].visits += c->visits;
            for (int s = 0; s < MAX_SEATS; s++)
                t->nodes[0].reward[s] += c->reward[s];
            break;
        }
    }
}

/* Keeps t (its nodes, taken from it) for the next search. */
static void keep_tree(Tree *t, MctsKept *kept)
{
    const Game *g = t->sh->g;
    free(kept->nodes);
    kept->nodes = t->nodes;
    kept->n = t->n;
    kept->v = g->v;
    kept->start_key = g->keys[0];
    kept->root_key = g->keys[g->nplies];
    kept->root_plies = g->nplies;
    kept->modeled = t->modeled;
    t->nodes = NULL;
}

/* ---- threads ---- */

/* Move generation's abort hook in tree t: a position of more than moves_max
 * moves halts the search; then the hooks' stop. */
static bool tree_gen_abort(void *arg)
{
    Tree *t = arg;
    Shared *sh = t->sh;
    if (sh->cfg->moves_max && gen_memo_states(t->gen) >= sh->cfg->moves_max) {
        atomic_store(&sh->too_many_moves, true);
        atomic_store(&sh->halt, true);
        return true;
    }
    return sh->hooks->stop(sh->hooks->ctx);
}

/* A thread's tree: its memory and its root (thread 0 from the kept tree when
 * the search reuses it). Returns false when memory is short. */
static bool tree_init(Tree *t, Shared *sh, int id, size_t max_nodes)
{
    memset(t, 0, sizeof *t);
    t->sh = sh;
    t->cap = MCTS_FIRST_NODES;
    t->max = max_nodes > MCTS_FIRST_NODES ? max_nodes : MCTS_FIRST_NODES;
    t->rng = 0x9E3779B97F4A7C15ull * (uint64_t)(id + 1);
    t->root_seat = sh->g->pos.stm;
    t->modeled = sh->cfg->modeled;
    t->nodes = malloc(t->cap * sizeof *t->nodes);
    t->list = move_list_new();
    t->gen = gen_memo_new();
    t->eval = eval_memo_new();
    if (sh->cfg->history_w > 0 && !(t->hist = mcts_history_new()))
        return false;
    if (sh->cfg->oma_k > 0) {
        t->oma_cap = 1024;
        if (!(t->oma = calloc(t->oma_cap, sizeof *t->oma)))
            return false;
    }
    if (!t->nodes || !t->list || !t->gen || !t->eval || !move_list_reserve(t->list, sh->nroot) ||
        !reserve_nodes(t, 1 + (size_t)sh->nroot))
        return false;
    gen_memo_set_abort(t->gen, tree_gen_abort, t); /* generation stops with the search */
    plant_root(t, id == 0 ? sh->cfg->kept : NULL);
    return true;
}

/* Whether a thread may begin one more playout under max_playouts: it takes
 * the next number, so that the threads together play exactly max_playouts. */
static bool playout_left(Shared *sh)
{
    return !sh->cfg->max_playouts ||
           atomic_fetch_add_explicit(&sh->begun, 1, memory_order_relaxed) < sh->cfg->max_playouts;
}

/* Whether thread t must stop: the search is halted, or the hooks say so
 * (checked every MCTS_CHECK_EVERY playouts), or no playout is left. */
static bool must_stop(Tree *t)
{
    Shared *sh = t->sh;
    if (atomic_load_explicit(&sh->halt, memory_order_relaxed))
        return true;
    if (t->playouts % MCTS_CHECK_EVERY == 0 && t->playouts && sh->hooks->stop(sh->hooks->ctx))
        return true;
    return !playout_left(sh);
}

/* A helper thread: playouts until the search stops. */
static void helper_loop(Tree *t)
{
    while (!must_stop(t)) {
        one_playout(t);
        atomic_fetch_add_explicit(&t->sh->playouts, 1, memory_order_relaxed);
    }
    atomic_store(&t->sh->halt, true);
}

/* The main thread (trees[0]): playouts, the depth limit and the reports while
 * the search runs. */
static void main_loop(Tree *t, MctsResult *out)
{
    Shared *sh = t->sh;
    int reported_depth = 0;
    for (;;) {
        const uint64_t done = atomic_load_explicit(&sh->playouts, memory_order_relaxed);
        if (atomic_load_explicit(&sh->halt, memory_order_relaxed) || !playout_left(sh))
            break;
        /* the depth limit after every playout: the mean depth then reaches it,
         * rounded, without passing it */
        if (sh->cfg->depth_limit && t->playouts && mean_depth(t->depth_sum, t->playouts) >= sh->cfg->depth_limit)
            break;
        /* a root of thousands of moves makes each playout long: then every one */
        if ((t->playouts % MCTS_CHECK_EVERY == 0 || sh->nroot > MCTS_CHECK_EVERY * 64) && t->playouts) {
            out->playouts = done;
            out->depth = mean_depth(t->depth_sum, t->playouts);
            out->seldepth = t->seldepth;
            if (sh->hooks->stop(sh->hooks->ctx))
                break;
            if (out->depth > reported_depth || (sh->hooks->report_due && sh->hooks->report_due(sh->hooks->ctx))) {
                reported_depth = out->depth > reported_depth ? out->depth : reported_depth;
                report_line_multipv(t, 1, sh, out, best_root(t, 1, sh->nroot));
            }
        }
        one_playout(t);
        atomic_fetch_add_explicit(&sh->playouts, 1, memory_order_relaxed);
    }
    atomic_store(&sh->halt, true);
}

/* The answer of a root move that arrives, played without a search: an
 * arrival takes the best place still free, which no line can better, and
 * sampling could miss it among many moves. Returns false when no root move
 * arrives. */
static bool arrival_answer(const Game *g, const Move *root, int nroot, const MctsHooks *hooks, MctsResult *out)
{
    const int seat = g->pos.stm;
    for (int i = 0; i < nroot; i++) {
        Position c = g->pos;
        pos_play(&c, &root[i]);
        if (!c.place[variant_unit(g->v, seat)] || c.status[seat] != ST_ARRIVED)
            continue;
        out->best = out->pv[0] = root[i];
        out->pvlen = 1;
        out->has_best = true;
        places_values(&c, 1, 0, out->values, NULL);
        if (hooks->lines) {
            MctsLine line = {.pv = out->pv, .pvlen = 1};
            memcpy(line.values, out->values, sizeof line.values);
            hooks->lines(hooks->ctx, out, 0, &line);
            if (hooks->lines_end)
                hooks->lines_end(hooks->ctx);
        }
        return true;
    }
    return false;
}

/* The pool's job (arg: the Shared of the search): tree id's playouts, the
 * main loop on the caller's thread. A helper joining after the search ended
 * finds it halted. */
static void mcts_job(void *arg, int id)
{
    Shared *sh = arg;
    if (id == 0)
        main_loop(&sh->trees[0], sh->out);
    else if (id < sh->ntrees)
        helper_loop(&sh->trees[id]);
}

int mcts_search(const Game *g, const Move *root, int nroot, const MctsConfig *cfg, const MctsHooks *hooks,
                MctsResult *out)
{
    memset(out, 0, sizeof *out);
    if (arrival_answer(g, root, nroot, hooks, out))
        return 0;
    const int most = cfg->pool ? pool_threads(cfg->pool) : 1;
    const int threads = cfg->threads < 1 ? 1 : cfg->threads > most ? most : cfg->threads;
    Tree *trees = calloc((size_t)threads, sizeof *trees);
    Shared sh = {.g = g, .root = root, .nroot = nroot, .cfg = cfg, .hooks = hooks, .trees = trees, .out = out};
    atomic_init(&sh.halt, false);
    atomic_init(&sh.playouts, 0);
    atomic_init(&sh.begun, 0);
    atomic_init(&sh.too_many_moves, false);
    if (!trees || !tree_init(&trees[0], &sh, 0, cfg->nodes_cap / (size_t)threads)) {
        if (trees)
            tree_free(&trees[0]);
        free(trees);
        return -1;
    }
    int started = 1;
    for (int k = 1; k < threads; k++) {
        if (!tree_init(&trees[started], &sh, k, cfg->nodes_cap / (size_t)threads)) {
            tree_free(&trees[started]);
            break; /* short of memory: fewer search */
        }
        started++;
    }
    sh.ntrees = started;
    if (started > 1)
        pool_run(cfg->pool, started, mcts_job, &sh);
    else
        mcts_job(&sh, 0);
    if (started > 1)
        pool_wait(cfg->pool);
    uint64_t depth_sum = 0;
    out->playouts = 0;
    for (int k = 0; k < started; k++) {
        depth_sum += trees[k].depth_sum;
        out->playouts += trees[k].playouts;
        out->threads += trees[k].playouts > 0;
        out->seldepth = trees[k].seldepth > out->seldepth ? trees[k].seldepth : out->seldepth;
    }
    out->depth = mean_depth(depth_sum, out->playouts);
    out->too_many_moves = atomic_load(&sh.too_many_moves);
    out->has_best = true;
    const int best = best_root(trees, started, nroot);
    if (best >= 0) {
        const RootStat st = root_stat(trees, started, best);
        const Tree *t = &trees[st.tree];
        out->pvlen = line_from(t, g, t->nodes[0].first_child + (size_t)best, out->pv);
        out->best = out->pv[0];
        stat_values(&st, out->values);
    } else {
        out->best = root[0];
    }
    report_line_multipv(trees, started, &sh, out, best);
    if (cfg->kept)
        keep_tree(&trees[0], cfg->kept);
    for (int k = 0; k < started; k++)
        tree_free(&trees[k]);
    free(trees);
    return 0;
}
