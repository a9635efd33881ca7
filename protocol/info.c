/* info.c - the text of search reports; see info.h. */
#include "info.h"

#include "notation.h"
#include "position.h"

#include <stdio.h>
#include <string.h>

/* The `info depth ...` line of r, into buf (INFO_LINE_MAX bytes). */
static void line_text(const SearchReport *r, char *buf)
{
    char *o = buf;
    const char *end = buf + INFO_LINE_MAX - MOVE_STR_MAX - 2; /* room for one more move */
    o += snprintf(o, (size_t)(end - o), "info depth %d seldepth %d multipv %d score %s %d", r->depth, r->seldepth,
                  r->multipv, r->mate ? "mate" : "cp", r->value);
    if (r->nscores) {
        o += snprintf(o, (size_t)(end - o), " scores");
        for (int i = 0; i < r->nscores; i++) {
            const int s = r->root->v->seats[i];
            o += snprintf(o, (size_t)(end - o), " %c:%d", variant_seat_letter(s), r->scores[i]);
        }
    }
    o += snprintf(o, (size_t)(end - o), " nodes %llu nps %llu hashfull %d time %lld pv", (unsigned long long)r->nodes,
                  (unsigned long long)info_nps(r), r->hashfull, (long long)r->time_ms);
    info_pv_text(r, move_str, o, end);
}

uint64_t info_nps(const SearchReport *r)
{
    /* from microseconds: a line reported at "time 0" is no speed of nodes a 0 ms */
    if (r->time_us > 0)
        return (uint64_t)((double)r->nodes * 1e6 / (double)r->time_us);
    return r->time_ms > 0 ? r->nodes * 1000 / (uint64_t)r->time_ms : 0;
}

char *info_pv_text(const SearchReport *r, MoveTextFn text, char *o, const char *end)
{
    Position p = *r->root;
    for (int i = 0; i < r->pvlen && o < end && !pos_over(&p); i++) {
        *o++ = ' ';
        text(&p, &r->pv[i], o);
        o += strlen(o);
        pos_play(&p, &r->pv[i]);
    }
    *o = 0;
    return o;
}

char *info_text(const SearchReport *r, char *buf)
{
    char mv[MOVE_STR_MAX], pm[MOVE_STR_MAX];
    switch (r->kind) {
    case REPORT_LINE:
        line_text(r, buf);
        break;
    case REPORT_BESTMOVE:
        if (!r->has_best) {
            snprintf(buf, INFO_LINE_MAX, "bestmove (none)");
            break;
        }
        move_str(r->root, &r->best, mv);
        if (r->has_ponder) {
            Position after = *r->root;
            pos_play(&after, &r->best);
            snprintf(buf, INFO_LINE_MAX, "bestmove %s ponder %s", mv, move_str(&after, &r->ponder, pm));
        } else {
            snprintf(buf, INFO_LINE_MAX, "bestmove %s", mv);
        }
        break;
    case REPORT_RACE_SOLVED:
        if (r->seat[1] < 0)
            snprintf(buf, INFO_LINE_MAX, "info string race solved: own moves to arrive %c %d, past every other seat",
                     variant_seat_letter(r->seat[0]), r->moves[0]);
        else
            snprintf(buf, INFO_LINE_MAX, "info string race solved: own moves to arrive %c %d, %c %d",
                     variant_seat_letter(r->seat[0]), r->moves[0], variant_seat_letter(r->seat[1]), r->moves[1]);
        break;
    case REPORT_ROOT_CUT:
        if (r->capped)
            snprintf(buf, INFO_LINE_MAX,
                     "info string more than %d moves, too many to search: the most captures of those listed is "
                     "played",
                     r->listed);
        else
            snprintf(buf, INFO_LINE_MAX, "info string stopped while listing the moves: the most captures found is "
                                         "played");
        break;
    case REPORT_TOO_MANY_MOVES:
        snprintf(buf, INFO_LINE_MAX,
                 "info string a position of the search has more than %d moves, too many to search: the search "
                 "ended there",
                 r->listed);
        break;
    case REPORT_MODEL: {
        int n = snprintf(buf, INFO_LINE_MAX, "info string opponent model: greedy");
        for (int s = 0; s < MAX_SEATS; s++)
            if (r->modeled >> s & 1)
                n += snprintf(buf + n, (size_t)(INFO_LINE_MAX - n), " %c", variant_seat_letter(s));
        break;
    }
    case REPORT_NO_MEMORY:
        if (r->threads == 0)
            snprintf(buf, INFO_LINE_MAX, "info string error out of memory: no search, the first legal move is played");
        else
            snprintf(buf, INFO_LINE_MAX, "info string error out of memory: searching with %d thread%s of %d",
                     r->threads, r->threads > 1 ? "s" : "", r->threads_asked);
        break;
    }
    return buf;
}
