/* ccp.c - search reports as CCP lines; see ccp.h. */
#include "ccp.h"

#include "info.h"
#include "notation.h"

#include <stdio.h>

char *ccp_info_text(const SearchReport *r, char *buf)
{
    char mv[MOVE_STR_MAX];
    if (r->kind == REPORT_BESTMOVE) {
        if (r->has_best)
            snprintf(buf, INFO_LINE_MAX, "bestmove %s", ccp_move_str(r->root, &r->best, mv));
        else
            snprintf(buf, INFO_LINE_MAX, "bestmove 0000"); /* no legal move: the referee's loss */
        return buf;
    }
    if (r->kind != REPORT_LINE)
        return info_text(r, buf); /* info string lines read the same in both protocols */
    /* a mate as a centipawn score beyond any evaluation, as CCP has cp only */
    const int cp = !r->mate ? r->value : r->value > 0 ? CCP_MATE_CP - r->value : -CCP_MATE_CP - r->value;
    char *o = buf;
    const char *end = buf + INFO_LINE_MAX - MOVE_STR_MAX - 2;
    o += snprintf(o, (size_t)(end - o), "info depth %d seldepth %d multipv %d score cp %d nodes %llu nps %llu time %lld pv",
                  r->depth, r->seldepth, r->multipv, cp, (unsigned long long)r->nodes,
                  (unsigned long long)info_nps(r), (long long)r->time_ms);
    info_pv_text(r, ccp_move_str, o, end);
    return buf;
}
