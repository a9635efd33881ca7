/* info_line.c - reading an engine's info line; see info_line.h. */
#include "info_line.h"

#include <stdio.h>
#include <string.h>

bool info_line_parse(const char *line, InfoLine *in)
{
    *in = (InfoLine){.multipv = 1};
    if (strncmp(line, "info ", 5) || strstr(line, "info string") == line)
        return false;
    const char *p = line + 5;
    char word[32];
    int n;
    while (sscanf(p, "%31s%n", word, &n) == 1) {
        p += n;
        if (!strcmp(word, "pv")) {
            in->pv = p + strspn(p, " ");
            break;
        }
        int x;
        long long ll;
        if (!strcmp(word, "depth") && sscanf(p, "%d%n", &x, &n) == 1) {
            in->depth = x;
            p += n;
        } else if (!strcmp(word, "seldepth") && sscanf(p, "%d%n", &x, &n) == 1) {
            in->seldepth = x;
            p += n;
        } else if (!strcmp(word, "multipv") && sscanf(p, "%d%n", &x, &n) == 1) {
            in->multipv = x;
            p += n;
        } else if (!strcmp(word, "nodes") && sscanf(p, "%lld%n", &ll, &n) == 1) {
            in->nodes = ll;
            p += n;
        } else if (!strcmp(word, "time") && sscanf(p, "%lld%n", &ll, &n) == 1) {
            in->time_ms = ll;
            p += n;
        } else if (!strcmp(word, "score") && sscanf(p, "%31s %d%n", word, &x, &n) == 2) {
            in->has_score = true;
            in->mate = !strcmp(word, "mate");
            in->score = x;
            p += n;
        } else if (!strcmp(word, "scores")) {
            char seat;
            while (sscanf(p, " %c:%d%n", &seat, &x, &n) == 2 && variant_seat_of_letter(seat) >= 0) {
                in->scores[variant_seat_of_letter(seat)] = x;
                in->has[variant_seat_of_letter(seat)] = true;
                p += n;
            }
        }
    }
    return in->has_score;
}

int info_line_cp(const InfoLine *in)
{
    if (!in->mate)
        return in->score;
    return in->score > 0 ? INFO_MATE_CP - in->score : -INFO_MATE_CP - in->score;
}
