/* mcts.c - multi-player Monte-Carlo tree search; see mcts.h. */
#include "mcts.h"

#include "eval.h"
#include "greedy.h"
#include "movegen.h"
#include "places.h"

#include <math.h>
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
#define MCTS_PLAYOUT_ROUNDS 2   /* playouts are cut after this many moves of every seat */
#endif
#ifndef MCTS_PLAYOUT_ROUNDS_CAPTURE
#define MCTS_PLAYOUT_ROUNDS_CAPTURE MCTS_PLAYOUT_ROUNDS /* the same in capture mode */
#endif
#ifndef MCTS_PH_W
#define MCTS_PH_W 0.0           /* progressive history weight (Nijssen and Winands 2011) */
#endif
#define MCTS_CHECK_EVERY 64     /* playouts between calls of stop() */
#define MCTS_FIRST_NODES 65536  /* tree size allocated first; doubled as needed */

typedef struct {
    Move move;             /* the move into this node */
    uint32_t first_child;  /* index of the first child; 0 while not expanded */
    uint32_t nchildren;
    uint32_t visits;
    int16_t prior;         /* the move's progress (captures) */
    uint8_t terminal;      /* the position ends the search (decided) */
    float reward[MAX_SEATS]; /* sum over playouts of each seat's reward */
} Node;

typedef struct {
    float sum;
    uint32_t n;
} HistEntry;

#define MCTS_TRACE_MAX 320 /* moves of one playout recorded for the history */

typedef struct {
    Node *nodes;
    HistEntry *hist;       /* [seat][from][to] */
    int ntrace;
    uint8_t trace[MCTS_TRACE_MAX][3];
    size_t n, cap, max;
    uint64_t rng;
    int root_seat;
    unsigned modeled;      /* seats expected to play the greedy policy (opponents.h) */
    MoveList *list;
    GenMemo *gen;          /* the memos of the search's one thread */
    EvalMemo *eval;
    const Move *root;
    int nroot;
} Tree;

/* Frees what t holds. */
static void tree_free(Tree *t)
{
    free(t->nodes);
    free(t->hist);
    move_list_delete(t->list);
    gen_memo_delete(t->gen);
    eval_memo_delete(t->eval);
}

/* Records move m of seat s for the progressive history of this playout. */
static void trace_move(Tree *t, int s, const Move *m)
{
    if (MCTS_PH_W > 0 && t->ntrace < MCTS_TRACE_MAX) {
        t->trace[t->ntrace][0] = (uint8_t)s;
        t->trace[t->ntrace][1] = m->from;
        t->trace[t->ntrace][2] = m->to;
        t->ntrace++;
    }
}

/* Adds the playout's rewards r to the history of every move it traced. */
static void history_update(Tree *t, const float r[MAX_SEATS])
{
    for (int k = 0; k < t->ntrace; k++) {
        HistEntry *h = &t->hist[((size_t)t->trace[k][0] * NUM_HOLES + t->trace[k][1]) * NUM_HOLES + t->trace[k][2]];
        h->sum += r[t->trace[k][0]];
        h->n++;
    }
    t->ntrace = 0;
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

/* Expands node i, whose position is p: one child per move. Returns false when
 * the tree is full (the node stays a leaf). */
static bool expand(Tree *t, size_t i, const Position *p)
{
    if (i == 0) { /* the root: the moves the caller allows */
        if (!move_list_reserve(t->list, t->nroot))
            return false;
        t->list->n = t->nroot;
        memcpy(t->list->m, t->root, sizeof *t->root * (size_t)t->nroot);
    } else if (t->modeled >> p->stm & 1) { /* a modelled seat: its greedy move alone */
        Move m;
        if (!greedy_choose(p, NULL, 0, t->list, t->gen, t->eval, &m, NULL))
            return false;
        t->list->m[0] = m;
        t->list->n = 1;
    } else {
        gen_moves_no_return(p, t->list, t->gen);
#if MCTS_CAPTURE_REPLY_SLACK >= 0
        if (p->v->capture && p->stm != t->root_seat) {
            int top = 0, kept = 0;
            for (int j = 0; j < t->list->n; j++)
                top = t->list->m[j].ncapt > top ? t->list->m[j].ncapt : top;
            for (int j = 0; j < t->list->n; j++)
                if (t->list->m[j].ncapt + MCTS_CAPTURE_REPLY_SLACK >= top)
                    t->list->m[kept++] = t->list->m[j];
            t->list->n = kept;
        }
#endif
    }
    const size_t k = (size_t)t->list->n;
    if (t->n + k > t->cap) {
        size_t cap = t->cap;
        while (cap < t->n + k)
            cap *= 2;
        if (cap > t->max)
            return false;
        Node *grown = realloc(t->nodes, cap * sizeof *grown);
        if (!grown)
            return false;
        t->nodes = grown;
        t->cap = cap;
    }
    Node *node = &t->nodes[i];
    node->first_child = (uint32_t)t->n;
    node->nchildren = (uint32_t)k;
    for (size_t j = 0; j < k; j++) {
        Node *c = &t->nodes[t->n++];
        memset(c, 0, sizeof *c);
        c->move = t->list->m[j];
        c->prior = (int16_t)move_gain(p, &t->list->m[j]);
    }
    return true;
}

/* The child of node i (position p) the seat to move selects: UCT on its own
 * mean reward with progressive bias; an unvisited child first, the one of most
 * progress among them. */
static size_t select_child(const Tree *t, size_t i, const Position *p)
{
    const Node *node = &t->nodes[i];
    const int s = p->stm;
    const double log_n = log((double)node->visits + 1.0);
    size_t best = node->first_child;
    double top = -1e300;
    for (uint32_t j = 0; j < node->nchildren; j++) {
        const size_t ci = node->first_child + j;
        const Node *c = &t->nodes[ci];
        double score;
        if (!c->visits)
            score = 1e9 + c->prior;
        else
        {
            const double mean = c->reward[s] / c->visits;
            score = mean + MCTS_UCT_C * sqrt(log_n / c->visits) + MCTS_BIAS * c->prior / (c->visits + 1.0);
            if (MCTS_PH_W > 0) {
                const HistEntry *h = &t->hist[((size_t)s * NUM_HOLES + c->move.from) * NUM_HOLES + c->move.to];
                if (h->n)
                    score += MCTS_PH_W * (h->sum / h->n) / ((1.0 - mean) * c->visits + 1.0);
            }
        }
        if (score > top) {
            top = score;
            best = ci;
        }
    }
    return best;
}

/* Plays from p to the playout's end and writes every seat's reward. */
static void playout(Tree *t, Position *p, int ply, float out[MAX_SEATS])
{
    const int plies = (p->v->capture ? MCTS_PLAYOUT_ROUNDS_CAPTURE : MCTS_PLAYOUT_ROUNDS) * p->v->nseats;
    for (int k = 0; k < plies && !decided(t, p); k++) {
        if (t->modeled >> p->stm & 1) {
            Move m;
            if (!greedy_choose(p, NULL, 0, t->list, t->gen, t->eval, &m, NULL))
                break;
            trace_move(t, p->stm, &m);
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
        trace_move(t, p->stm, &t->list->m[pick]);
        pos_play(p, &t->list->m[pick]);
        ply++;
    }
    int values[MAX_SEATS];
    places_values(p, ply, 0, values, t->eval);
    rewards_of(values, out);
}

/* The most visited child of node i; 0 (the root, no child) when none is visited. */
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

/* The most visited line from node c, a child of the root of g, into pv;
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

/* Each seat's mean reward of node c in places.h's scale. */
static void node_values(const Node *c, int values[MAX_SEATS])
{
    for (int s = 0; s < MAX_SEATS; s++)
        values[s] = (int)lround((2.0 * c->reward[s] / c->visits - 1.0) * PLACE_SPAN);
}

/* Reports the hooks' lines: the min(multipv, visited) most visited root moves. */
static void report_lines(const Tree *t, const Game *g, const MctsHooks *h, const MctsResult *sofar)
{
    if (!h->lines)
        return;
    const Node *root = &t->nodes[0];
    uint32_t bound = UINT32_MAX; /* lines go by visits, then by move order */
    size_t after = 0;
    for (int k = 0; k < h->multipv; k++) {
        size_t best = 0;
        for (uint32_t j = 0; j < root->nchildren; j++) {
            const size_t c = root->first_child + j;
            const uint32_t v = t->nodes[c].visits;
            if (v && (v < bound || (v == bound && c > after)) && (!best || v > t->nodes[best].visits))
                best = c;
        }
        if (!best)
            return;
        Move pv[MCTS_PV_MAX];
        MctsLine line = {.pv = pv, .pvlen = line_from(t, g, best, pv), .visits = t->nodes[best].visits};
        node_values(&t->nodes[best], line.values);
        h->lines(h->ctx, sofar, k, &line);
        bound = t->nodes[best].visits;
        after = best;
    }
}

/* The rounded mean depth of the tree part of the playouts so far. */
static int mean_depth(uint64_t depth_sum, uint64_t playouts)
{
    return playouts ? (int)((depth_sum + playouts / 2) / playouts) : 0;
}

int mcts_search(const Game *g, const Move *root, int nroot, uint64_t max_playouts, int depth_limit, size_t nodes_cap,
                unsigned modeled, const MctsHooks *hooks, MctsResult *out)
{
    memset(out, 0, sizeof *out);
    Tree t = {.cap = MCTS_FIRST_NODES, .max = nodes_cap > MCTS_FIRST_NODES ? nodes_cap : MCTS_FIRST_NODES,
              .rng = 0x9E3779B97F4A7C15ull, .root_seat = g->pos.stm, .modeled = modeled, .root = root, .nroot = nroot};
    t.nodes = malloc(t.cap * sizeof *t.nodes);
    t.list = move_list_new();
    t.gen = gen_memo_new();
    t.eval = eval_memo_new();
    t.hist = calloc((size_t)MAX_SEATS * NUM_HOLES * NUM_HOLES, sizeof *t.hist);
    if (!t.nodes || !t.list || !t.gen || !t.eval || !t.hist) {
        tree_free(&t);
        return -1;
    }
    gen_memo_set_abort(t.gen, hooks->stop, hooks->ctx); /* generation stops with the search */
    /* An arrival takes the best place still free, which no line can better:
     * played at once, before sampling could miss it among many moves. */
    for (int i = 0; i < nroot; i++) {
        Position c = g->pos;
        pos_play(&c, &root[i]);
        if (c.place[variant_unit(g->v, t.root_seat)] && c.status[t.root_seat] == ST_ARRIVED) {
            out->best = out->pv[0] = root[i];
            out->pvlen = 1;
            out->has_best = true;
            places_values(&c, 1, 0, out->values, t.eval);
            if (hooks->lines) {
                MctsLine line = {.pv = out->pv, .pvlen = 1};
                memcpy(line.values, out->values, sizeof line.values);
                hooks->lines(hooks->ctx, out, 0, &line);
            }
            tree_free(&t);
            return 0;
        }
    }
    memset(&t.nodes[0], 0, sizeof t.nodes[0]);
    t.n = 1;
    if (!expand(&t, 0, &g->pos) || !t.nodes[0].nchildren) {
        tree_free(&t);
        return 0;
    }
    size_t path[256];
    uint64_t depth_sum = 0;
    int reported_depth = 0;
    for (;;) {
        if (max_playouts && out->playouts >= max_playouts)
            break;
        /* a root of thousands of moves makes each playout long: then every one */
        if ((out->playouts % MCTS_CHECK_EVERY == 0 || t.nodes[0].nchildren > MCTS_CHECK_EVERY * 64) && out->playouts) {
            out->depth = mean_depth(depth_sum, out->playouts);
            if (hooks->stop(hooks->ctx) || (depth_limit && out->depth >= depth_limit))
                break;
            if (out->depth > reported_depth || (hooks->report_due && hooks->report_due(hooks->ctx))) {
                reported_depth = out->depth > reported_depth ? out->depth : reported_depth;
                report_lines(&t, g, hooks, out);
            }
        }
        Position p = g->pos;
        size_t i = 0;
        int n = 0;
        path[n++] = 0;
        float r[MAX_SEATS];
        /* selection */
        while (t.nodes[i].nchildren && n < 255) {
            i = select_child(&t, i, &p);
            trace_move(&t, p.stm, &t.nodes[i].move);
            pos_play(&p, &t.nodes[i].move);
            path[n++] = i;
            if (t.nodes[i].terminal || decided(&t, &p)) {
                t.nodes[i].terminal = 1;
                break;
            }
        }
        if (t.nodes[i].terminal) {
            int values[MAX_SEATS];
            places_values(&p, n - 1, 0, values, t.eval);
            rewards_of(values, r);
        } else {
            /* expansion of a node visited before, then one step into it */
            if (t.nodes[i].visits && n < 255 && expand(&t, i, &p) && t.nodes[i].nchildren) {
                i = select_child(&t, i, &p);
                trace_move(&t, p.stm, &t.nodes[i].move);
                pos_play(&p, &t.nodes[i].move);
                path[n++] = i;
                if (decided(&t, &p))
                    t.nodes[i].terminal = 1;
            }
            playout(&t, &p, n - 1, r);
        }
        depth_sum += (uint64_t)(n - 1);
        if (n - 1 > out->seldepth)
            out->seldepth = n - 1;
        if (MCTS_PH_W > 0)
            history_update(&t, r);
        /* max-n backup: every seat's reward in every node of the path */
        for (int k = 0; k < n; k++) {
            Node *node = &t.nodes[path[k]];
            node->visits++;
            for (int s = 0; s < MAX_SEATS; s++)
                node->reward[s] += r[s];
        }
        out->playouts++;
    }
    const size_t best = most_visited(&t, 0);
    out->has_best = true;
    if (best) {
        out->pvlen = line_from(&t, g, best, out->pv);
        out->best = out->pv[0];
        node_values(&t.nodes[best], out->values);
    } else {
        out->best = t.nodes[t.nodes[0].first_child].move;
    }
    out->depth = mean_depth(depth_sum, out->playouts);
    report_lines(&t, g, hooks, out);
    tree_free(&t);
    return 0;
}
