/*
 * test_replies.c - the replies a best-reply min node keeps (brs.h): each
 * opponent's moves of the most progress, and with five or six seats those
 * that block or unblock the root's marbles (contact_zone,
 * brs_keep_top_and_contact_replies). Positions from a classic-6 game of
 * stern-arena (random opening, then the players' moves).
 */
#include "support/stern_test.h"

#include "brs.h"
#include "movegen.h"

#include <stdio.h>
#include <string.h>

/* A classic-6 game: its opening FEN and its first 26 moves. */
static const char *const OPENING =
    "b/bb/bbb/bbb1/uu1uu2b1yyyy/uuu6yyy/uu7yy/u8y/9/r8g/rrr6gg/rrr6ggg/rr1r1w3gggg/w1ww/www/ww/w y "
    "w1,r1,u1,b1,y0,g0 1";
static const char *const MOVES[] = {
    "k12-j12", "o7-m7", "k3-i5-k5", "g6-g8", "e13-f12", "f15-f13-f11", "l11-k11", "m7-l8", "m2-k4-k6",
    "f6-f8-h8", "a13-c13-e13-g11", "g14-i12-k12-k10", "l13-l11-j11-l9-l7", "n8-m8", "j5-i6",
    "e5-g5-i5-i7-g9", "d10-e10", "f16-h14-h12", "m12-k12-i12-g12-g10", "q5-o7-m7-k9", "m1-k3-i5-i7",
    "e6-f6", "d11-f9-h7-j7-l5", "e15-g13-i11", "k13-i13-g13-e15-e13-c13-e11", "n7-l9-j9",
};
#define NMOVES (sizeof MOVES / sizeof *MOVES)
#define TOP 4
#define CONTACT 4

static MoveList *list_of(const Position *q)
{
    MoveList *l = move_list_new();
    assert_non_null(l);
    gen_moves_no_return(q, l, NULL);
    return l;
}

static int gain(const Position *q, const Move *m) { return q->v->tip_dist[q->stm][m->from] - q->v->tip_dist[q->stm][m->to]; }

static bool same_move(const Move *a, const Move *b) { return a->from == b->from && a->to == b->to; }

static bool holds(const MoveList *l, const Move *m)
{
    for (int i = 0; i < l->n; i++)
        if (same_move(&l->m[i], m))
            return true;
    return false;
}

static bool touches(Bitboard zone, const Move *m) { return bb_test(zone, m->from) || bb_test(zone, m->to); }

/* *g set to the game's opening position. */
static void start_game(Game *g)
{
    assert_int_equal(game_new(g, "classic-6"), 0);
    char err[256];
    assert_int_equal(game_set_fen(g, OPENING, err, sizeof err), 0);
}

/* keep_top_replies against brute force: a move is kept when fewer than k
 * moves have more progress than it or equal progress and an earlier place in
 * the list; kept moves stay in list order. */
static void test_top_replies_are_the_k_of_most_progress_in_list_order(void **state)
{
    (void)state;
    Game g;
    start_game(&g);
    int ties_cut = 0;
    for (size_t ply = 0; ply <= NMOVES; ply++) {
        for (int i = 0; i < g.v->nseats; i++) {
            Position q = g.pos;
            pos_set_stm(&q, g.v->seats[i]);
            for (int k = 1; k <= 8; k *= 2) {
                MoveList *all = list_of(&q), *top = list_of(&q);
                brs_keep_top_replies(&q, top, k);
                int n = 0;
                for (int a = 0; a < all->n; a++) {
                    int better = 0, equal_before = 0;
                    for (int b = 0; b < all->n; b++) {
                        better += gain(&q, &all->m[b]) > gain(&q, &all->m[a]);
                        equal_before += b < a && gain(&q, &all->m[b]) == gain(&q, &all->m[a]);
                    }
                    if (better + equal_before < k) {
                        assert_true(n < top->n);
                        assert_true(same_move(&top->m[n], &all->m[a]));
                        n++;
                    } else if (better < k)
                        ties_cut++;
                }
                assert_int_equal(top->n, n);
                move_list_delete(all);
                move_list_delete(top);
            }
        }
        if (ply < NMOVES)
            play(&g, MOVES[ply]);
    }
    assert_true(ties_cut > 0); /* the positions cut within a gain, where list order decides */
}

/* With no contact replies asked, exactly keep_top_replies's moves, in its
 * order; with some, those plus the contact moves of the most progress among
 * the rest, as many as asked or as there are. */
static void test_contact_replies_add_the_blocking_moves_of_most_progress(void **state)
{
    (void)state;
    Game g;
    start_game(&g);
    int extras = 0, short_of_contacts = 0;
    for (size_t ply = 0; ply <= NMOVES; ply++) {
        const int root = g.pos.stm;
        const Bitboard zone = brs_contact_zone(&g.pos, root);
        for (int i = 0; i < g.v->nseats; i++) {
            const int o = g.v->seats[i];
            if (o == root)
                continue;
            Position q = g.pos;
            pos_set_stm(&q, o);
            MoveList *top = list_of(&q), *none = list_of(&q), *with = list_of(&q), *all = list_of(&q);
            brs_keep_top_replies(&q, top, TOP);
            brs_keep_top_and_contact_replies(&q, none, TOP, 0, zone);
            assert_int_equal(none->n, top->n);
            for (int k = 0; k < top->n; k++)
                assert_true(same_move(&none->m[k], &top->m[k]));

            brs_keep_top_and_contact_replies(&q, with, TOP, CONTACT, zone);
            int added = 0, least = 1000, available = 0;
            for (int k = 0; k < with->n; k++)
                if (!holds(top, &with->m[k])) {
                    assert_true(touches(zone, &with->m[k]));
                    added++;
                    least = gain(&q, &with->m[k]) < least ? gain(&q, &with->m[k]) : least;
                }
            for (int k = 0; k < top->n; k++)
                assert_true(holds(with, &top->m[k]));
            for (int k = 0; k < all->n; k++)
                if (!holds(top, &all->m[k]) && touches(zone, &all->m[k])) {
                    available++;
                    if (!holds(with, &all->m[k]))
                        assert_true(gain(&q, &all->m[k]) <= least);
                }
            assert_int_equal(added, available < CONTACT ? available : CONTACT);
            extras += added;
            short_of_contacts += available < CONTACT;
            move_list_delete(top);
            move_list_delete(none);
            move_list_delete(with);
            move_list_delete(all);
        }
        if (ply < NMOVES)
            play(&g, MOVES[ply]);
    }
    /* the positions exercise both cases: contact moves added, and fewer than asked */
    assert_true(extras > 0);
    assert_true(short_of_contacts > 0);
}

/* The zone of one marble in the middle of the board: itself, its 6
 * neighbours and the 6 holes two steps along its lines; nothing for a seat
 * whose marbles are all in its target. */
static void test_contact_zone_is_two_steps_around_marbles_outside_the_target(void **state)
{
    (void)state;
    Game g;
    game_setup(&g, "classic-2", "w i9 e17 e16 f16 e15 f15 g15 e14 f14 g14 b m1 l2 m2 k3 l3 m3 j4 k4 l4 m4", "w w0,b0 1");
    const Bitboard zone = brs_contact_zone(&g.pos, g.pos.stm);
    assert_int_equal(bb_count(zone), 13);
    assert_true(bb_test(zone, hole("i9")));
    assert_int_equal(bb_count(zone & geo.adjacent[hole("i9")]), 6);
    const int b = g.v->seats[1];
    assert_int_equal(bb_count(g.pos.seat_bb[b] & ~g.v->target[b]), 0);
    assert_true(brs_contact_zone(&g.pos, b) == 0);
}

int main(void)
{
    board_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_top_replies_are_the_k_of_most_progress_in_list_order),
        cmocka_unit_test(test_contact_replies_add_the_blocking_moves_of_most_progress),
        cmocka_unit_test(test_contact_zone_is_two_steps_around_marbles_outside_the_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
