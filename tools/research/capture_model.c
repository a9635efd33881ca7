/*
 * capture_model.c - how much of capture mode against stern-greedy is opponent
 * modelling. One seat plays a policy, every other seat plays as stern-greedy
 * does (the first move of most captures in move-generator order), from
 * openings of 4 random moves, rotating the policy's seat; prints the policy
 * seat's places (a shared first counts as first).
 *
 * Policies:
 *   greedy   as the other seats;
 *   rollout  every move is followed by play to the end, all seats choosing the
 *            most capturing move, the tie rule breaking equal counts (first: as
 *            stern-greedy, so the rollout predicts its seats exactly; last or
 *            random: a near-miss model), averaged over ROLLOUTS runs; the move
 *            of best result (first place, then fewer seats ahead, then captures)
 *            is played.
 *   exact    an upper bound: the policy seat's whole game searched at its
 *            first move, every other seat playing exactly as stern-greedy
 *            (greedy.h): whether any line of its own moves places it first
 *            (a shared first counts); games whose search passes EXACT_NODES
 *            positions are counted apart (unknown). The ties argument is
 *            not used.
 *
 * Run: build/stern-capture-model capture-3 rollout first 300
 * Results: docs/MULTI.md, "Capture mode against greedy seats is opponent modelling".
 */
#include "args.h"
#include "game.h"
#include "greedy.h"
#include "movegen.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { TIES_FIRST, TIES_LAST, TIES_RANDOM } Ties;

static uint64_t rng = 7; /* rng_mmix: docs/MULTI.md's figures came from it */

/* Index of the most capturing move of list (n >= 1) under the tie rule. */
static int most_captures(const MoveList *l, Ties ties)
{
    int best = 0, equal = 1;
    for (int i = 1; i < l->n; i++) {
        const int d = l->m[i].ncapt - l->m[best].ncapt;
        if (d > 0 || (d == 0 && ties == TIES_LAST)) {
            best = i;
            equal = 1;
        } else if (d == 0 && ties == TIES_RANDOM && rng_mmix(&rng) % (unsigned)++equal == 0) {
            best = i;
        }
    }
    return best;
}

/* Seats with more captures than s in p. */
static int ahead_of(const Position *p, int s)
{
    int n = 0;
    for (int i = 0; i < p->v->nseats; i++)
        n += p->captures[p->v->seats[i]] > p->captures[s];
    return n;
}

/* Result of p's game for seat s played out under `ties`: first place, then
 * fewer seats ahead, then captures. */
static double rollout(Position p, int s, Ties ties, MoveList *l)
{
    while (!pos_over(&p)) {
        gen_moves(&p, l, NULL);
        if (!l->n)
            break;
        pos_play(&p, &l->m[most_captures(l, ties)]);
    }
    const int ahead = ahead_of(&p, s);
    return (ahead ? 0 : 1000) - 100.0 * ahead + p.captures[s];
}

#define EXACT_NODES 20000000 /* positions of the policy seat searched per game at most */

static long long exact_nodes;

/* Whether seat `me` can finish first from p with the other seats playing
 * stern-greedy's moves: 1 yes, 0 no, -1 over EXACT_NODES. */
static int can_be_first(const Position *p, int me, int depth)
{
    if (pos_over(p))
        return ahead_of(p, me) == 0;
    if (++exact_nodes > EXACT_NODES)
        return -1;
    MoveList l = {0};
    if (p->stm != me) {
        Move m;
        int r = 0;
        if (greedy_choose(p, NULL, 0, &l, NULL, NULL, &m, NULL)) {
            Position q = *p;
            pos_play(&q, &m);
            r = can_be_first(&q, me, depth);
        } else {
            r = ahead_of(p, me) == 0;
        }
        move_list_free(&l);
        return r;
    }
    gen_moves(p, &l, NULL);
    int r = l.n ? 0 : ahead_of(p, me) == 0;
    for (int i = 0; i < l.n && r == 0; i++) {
        Position q = *p;
        pos_play(&q, &l.m[i]);
        r = can_be_first(&q, me, depth + 1);
    }
    move_list_free(&l);
    return r;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        const bool help = args_help(argc, argv);
        fprintf(help ? stdout : stderr, "usage: %s VARIANT greedy|rollout|exact first|last|random GAMES [ROLLOUTS]\n",
                argv[0]);
        return help ? 0 : 2;
    }
    const bool model = !strcmp(argv[2], "rollout");
    const Ties ties = !strcmp(argv[3], "last") ? TIES_LAST : !strcmp(argv[3], "random") ? TIES_RANDOM : TIES_FIRST;
    long long games, rollouts = 1;
    if (!args_int("stern-capture-model", "GAMES", argv[4], 1, 1000000, &games) ||
        (argc == 6 && !args_int("stern-capture-model", "ROLLOUTS", argv[5], 1, 1000000, &rollouts)))
        return 2;
    Game g;
    if (game_new(&g, argv[1]) || !g.v->capture) {
        fprintf(stderr, "stern-capture-model: '%s' is not a capture variant\n", argv[1]);
        return 2;
    }
    static MoveList list, scratch;
    int places[MAX_SEATS + 1] = {0};
    const bool exact = !strcmp(argv[2], "exact");
    int first = 0, unknown = 0;
    for (int k = 0; k < games; k++) {
        game_new(&g, argv[1]);
        const int me = g.v->seats[k % g.v->nseats];
        for (int i = 0; i < 4 && !pos_over(&g.pos); i++) {
            gen_moves(&g.pos, &list, NULL);
            if (!list.n)
                break;
            pos_play(&g.pos, &list.m[rng_mmix(&rng) % (unsigned)list.n]);
        }
        if (exact) {
            exact_nodes = 0;
            const int r = can_be_first(&g.pos, me, 0);
            first += r == 1;
            unknown += r < 0;
            continue;
        }
        while (!pos_over(&g.pos)) {
            gen_moves(&g.pos, &list, NULL);
            if (!list.n)
                break;
            int pick = most_captures(&list, TIES_FIRST);
            if (g.pos.stm == me && model) {
                const int n = list.n;
                Move *moves = malloc(sizeof *moves * (size_t)n);
                if (!moves) {
                    fprintf(stderr, "stern-capture-model: out of memory\n");
                    return 1;
                }
                memcpy(moves, list.m, sizeof *moves * (size_t)n);
                double top = -1e9;
                for (int i = 0; i < n; i++) {
                    Position q = g.pos;
                    pos_play(&q, &moves[i]);
                    double sum = 0;
                    for (int r = 0; r < rollouts; r++)
                        sum += rollout(q, me, ties, &scratch);
                    if (sum / rollouts > top) {
                        top = sum / rollouts;
                        pick = i;
                    }
                }
                free(moves);
            }
            pos_play(&g.pos, &list.m[pick]);
        }
        places[ahead_of(&g.pos, me) + 1]++;
    }
    if (exact) {
        printf("%s exact, %lld games: first place reachable in %d (%.1f%%), not in %lld, unknown %d\n", argv[1], games,
               first, 100.0 * first / games, games - first - unknown, unknown);
        return 0;
    }
    printf("%s %s ties=%s rollouts=%lld, %lld games: places", argv[1], argv[2], argv[3], rollouts, games);
    for (int i = 1; i <= g.v->nseats; i++)
        printf(" %d", places[i]);
    printf(", first %.1f%%\n", 100.0 * places[1] / games);
    return 0;
}
