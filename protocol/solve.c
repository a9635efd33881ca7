/* solve.c - the `solve` command; see solve.h. */
#include "solve.h"

#include "notation.h"
#include "race.h"
#include "clock.h"

#include <inttypes.h>
#include <stdio.h>

#define SOLVE_TABLE_MIB 64 /* the solver's table of failed budgets */

/* The line of seat s's own moves pv[0..n) played from q (s to move), as text. */
static void line_text(Position q, int s, const Move *pv, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < n && len < size; i++) {
        char mv[MOVE_STR_MAX];
        pos_set_stm(&q, s);
        len += (size_t)snprintf(buf + len, size - len, " %s", move_str(&q, &pv[i], mv));
        pos_play(&q, &pv[i]);
    }
}

void solve_run(const Game *g, uint64_t node_limit, const atomic_bool *stop, SolveOutput out, void *ctx)
{
    const Position *p = &g->pos;
    const Variant *v = g->v;
    const bool separated = v->nseats == 2 && race_separated(p);
    int need[MAX_SEATS];
    char line[RACE_MAX_MOVES * (MOVE_STR_MAX + 1) + 256], pv_text[RACE_MAX_MOVES * (MOVE_STR_MAX + 1) + 1];
    bool all = true;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        need[s] = -2;
        if (p->status[s] != ST_PLAYING)
            continue;
        Position q = *p;
        if (separated)
            race_remove_army(&q, v->seats[1 - i]);
        pos_set_stm(&q, s);
        Move pv[RACE_MAX_MOVES];
        RaceStats st = {0};
        const int64_t t0 = clock_now_ms();
        need[s] = race_solve(&q, s, RACE_MAX_MOVES, SOLVE_TABLE_MIB, node_limit, stop, pv, &st);
        const int64_t ms = clock_now_ms() - t0;
        const char c = variant_seat_letter(s);
        if (need[s] >= 0) {
            line_text(q, s, pv, need[s], pv_text, sizeof pv_text);
            snprintf(line, sizeof line, "solve %c moves %d nodes %" PRIu64 " time %" PRId64 " pv%s", c, need[s],
                     st.nodes, ms, pv_text);
        } else if (need[s] == -1) {
            snprintf(line, sizeof line, "solve %c none nodes %" PRIu64 " time %" PRId64, c, st.nodes, ms);
        } else {
            snprintf(line, sizeof line, "solve %c unsolved nodes %" PRIu64 " time %" PRId64 " (%s)", c, st.nodes, ms,
                     stop && atomic_load(stop) ? "stopped" : st.nodes >= node_limit ? "over the node limit" : "no memory");
        }
        all &= need[s] >= 0;
        out(line, ctx);
    }
    if (separated && all) {
        const int s = p->stm, o = v->seats[v->seats[0] == s];
        int plies;
        const int r = race_outcome(v, s, need[s], need[o], &plies);
        snprintf(line, sizeof line, "solve result %c %s (%d against %d)", variant_seat_letter(s),
                 r > 0 ? "wins" : r == 0 ? "draw" : "loses", need[s], need[o]);
        out(line, ctx);
    }
}
