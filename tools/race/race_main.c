/* race_main.c - stern-race: the exact race solver (engine/solve/race.h) on a position,
 * or on the solitaire crossing of the empty board. */
#include "args.h"
#include "fen.h"
#include "game.h"
#include "notation.h"
#include "race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static const char USAGE[] =
    "usage: stern-race [-variant NAME] [-fen FEN | -crossing] [-seat LETTER] [-max N] [-hash MiB]\n"
    "  -crossing    the seat's army alone on the board, from its home (the solitaire crossing)\n"
    "  -seat        the seat whose fewest moves to arrive are wanted (default: the side to move)\n"
    "  -max N       longest solution looked for, moves (default 40)\n"
    "  -from N      first budget tried (default: the lower bound); the answer is optimal\n"
    "               only when no shorter solution exists\n"
    "  -hash MiB    transposition table size (default 256)\n"
    "  (each option also with two dashes, as --variant)\n";

static int usage(void)
{
    fputs(USAGE, stderr);
    return 2;
}

int main(int argc, char **argv)
{
    const char *variant = "classic-2", *fen = NULL;
    int crossing = 0, from = 0, max_moves = 40, mib = 256, seat = -1;
    if (args_help(argc, argv)) {
        fputs(USAGE, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        if (args_is(argv[i], "variant") && i + 1 < argc) variant = argv[++i];
        else if (args_is(argv[i], "fen") && i + 1 < argc) fen = argv[++i];
        else if (args_is(argv[i], "crossing")) crossing = 1;
        else if ((args_is(argv[i], "max") || args_is(argv[i], "from") || args_is(argv[i], "hash")) && i + 1 < argc) {
            long long v;
            const bool is_max = args_is(argv[i], "max"), is_from = args_is(argv[i], "from");
            const long long most = is_max ? RACE_MAX_MOVES : is_from ? 1000000 : 65536;
            if (!args_int("stern-race", argv[i], argv[i + 1], 0, most, &v))
                return 2;
            i++;
            *(is_max ? &max_moves : is_from ? &from : &mib) = (int)v;
        }
        else if (args_is(argv[i], "seat") && i + 1 < argc) {
            seat = variant_seat_of_letter(argv[++i][0]);
            if (seat < 0 || argv[i][1]) {
                fprintf(stderr, "stern-race: unknown seat '%s'\n", argv[i]);
                return 2;
            }
        } else
            return usage();
    }
    if (max_moves < 0 || max_moves > RACE_MAX_MOVES || mib < 0 || (fen && crossing)) {
        fprintf(stderr, "stern-race: -max must be 0-%d, -hash >= 0, and -fen excludes -crossing\n",
                RACE_MAX_MOVES);
        return 2;
    }
    static Game g;
    if (game_new(&g, variant) || g.v->capture) {
        fprintf(stderr, "stern-race: unknown or capture variant '%s'\n", variant);
        return 2;
    }
    char err[256];
    if (fen && game_set_fen(&g, fen, err, sizeof err)) {
        fprintf(stderr, "stern-race: %s\n", err);
        return 2;
    }
    Position p = g.pos;
    if (seat < 0)
        seat = p.stm >= 0 ? p.stm : g.v->seats[0];
    if (g.v->slot[seat] < 0) {
        fprintf(stderr, "stern-race: seat '%c' is not in %s\n", variant_seat_letter(seat), variant);
        return 2;
    }
    if (crossing) /* lift every other army off the board */
        for (int i = 0; i < g.v->nseats; i++)
            if (g.v->seats[i] != seat)
                race_remove_army(&p, g.v->seats[i]);
    p.stm = (int8_t)seat;
    RaceStats st;
    static Move pv[RACE_MAX_MOVES];
    const double t0 = now_s();
    const int n = race_solve_from(&p, seat, from, max_moves, mib, 0, NULL, pv, &st);
    const double dt = now_s() - t0;
    printf("seat %c, lower bound %d\n", variant_seat_letter(seat), race_lower_bound(&p, seat));
    if (n == -2) {
        fprintf(stderr, "stern-race: out of memory\n");
        return 1;
    }
    if (n < 0)
        printf("no arrival within %d moves (every budget up to %d searched)\n", max_moves, st.bound);
    else {
        printf("%s: %d\n", from > race_lower_bound(&p, seat) ? "solution found, moves" : "fewest moves", n);
        Position q = p;
        for (int i = 0; i < n; i++) {
            char buf[MOVE_STR_MAX];
            printf("%s%s", i ? " " : "solution: ", move_str(&q, &pv[i], buf));
            const Bitboard both = bb_bit(pv[i].from) | bb_bit(pv[i].to); /* only this seat moves */
            q.occ ^= both;
            q.seat_bb[seat] ^= both;
            q.board[pv[i].to] = q.board[pv[i].from];
            q.board[pv[i].from] = 0;
        }
        printf("\n");
    }
    printf("nodes %llu, table cuts %llu, time %.3f s (%.2f M nodes/s)\n", (unsigned long long)st.nodes,
           (unsigned long long)st.tt_cuts, dt, dt > 0 ? st.nodes / dt / 1e6 : 0.0);
    return 0;
}
