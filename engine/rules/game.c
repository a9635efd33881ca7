/* game.c - game history and repetition; see game.h. */
#include "game.h"

#include "fen.h"

#include <string.h>

int game_new(Game *g, const char *name)
{
    const Variant *v = variant_find(name);
    if (!v)
        return -1;
    g->v = v;
    pos_set_start(&g->start, v);
    g->pos = g->start;
    g->nplies = 0;
    g->keys[0] = g->pos.key;
    return 0;
}

void game_set_variant(Game *g, const Variant *v)
{
    g->v = v;
    g->start.v = v;
    g->pos.v = v;
}

int game_set_fen(Game *g, const char *fen, char *err, size_t errlen)
{
    Position p;
    if (fen_parse(&p, g->v, fen, err, errlen))
        return -1;
    g->start = p;
    g->pos = p;
    g->nplies = 0;
    g->keys[0] = p.key;
    return 0;
}

int game_occurrences(const Game *g)
{
    int n = 0;
    for (int i = 0; i <= g->nplies; i++)
        n += g->keys[i] == g->pos.key;
    return n;
}

/* ccerl-2: whether move m, played from `before`, which the round limit ended,
 * also made the third occurrence of its position: the position as it would
 * stand with the turn handed on, played from round 1 (the round is not part of
 * the key, and nothing else in ccerl-2 reads it). */
static bool limit_move_repeats(const Game *g, const Position *before, const Move *m)
{
    Position q = *before;
    q.round = 1;
    pos_play(&q, m);
    if (pos_over(&q))
        return false;
    int n = 1;
    for (int i = 0; i < g->nplies; i++) /* keys[nplies] is the finished position's */
        n += g->keys[i] == q.key;
    return n >= 3;
}

int game_play(Game *g, const Move *m)
{
    if (pos_over(&g->pos) || g->nplies >= GAME_MAX_PLIES)
        return -1;
    const int round = g->pos.round; /* the round this move is made in */
    const Position before = g->pos;
    pos_play(&g->pos, m);
    g->moves[g->nplies++] = *m;
    g->keys[g->nplies] = g->pos.key;
    if (g->v->ccerl && pos_over(&g->pos) && g->pos.reason == END_LIMIT && limit_move_repeats(g, &before, m))
        g->pos.reason = END_REPETITION; /* the rating list checks repetition before the limit */
    if (!pos_over(&g->pos) && game_occurrences(g) >= 3) {
        g->pos.round = round; /* a game over keeps the round of its last move (PROTOCOL.md) */
        pos_finish(&g->pos, END_REPETITION);
        g->keys[g->nplies] = g->pos.key;
    }
    return 0;
}
