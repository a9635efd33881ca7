/*
 * info_line.h - reading an engine's `info` line (PROTOCOL.md, "What a search
 * prints"): the fields a tool shows or rates. Shared by the board, the
 * annotator and the book builder.
 */
#ifndef STERN_INFO_LINE_H
#define STERN_INFO_LINE_H

#include "variant.h"

#include <stdbool.h>

#define INFO_MATE_CP 30000  /* a mate in n own moves as centi-moves: +-(INFO_MATE_CP - n) */

typedef struct {
    int depth, seldepth;
    int multipv;                 /* 1 when the line has none */
    bool has_score, mate;        /* score cp <x> or score mate <n> */
    int score;
    int scores[MAX_SEATS];       /* `scores <seat>:<x> ...`, by seat */
    bool has[MAX_SEATS];
    long long nodes, time_ms;
    const char *pv;              /* inside the line: its moves after "pv", or NULL */
} InfoLine;

/* Reads `info` line `line` of a search (not `info string`) into *out. Returns
 * whether it holds a score; fields the line lacks are 0 (multipv 1, pv NULL). */
bool info_line_parse(const char *line, InfoLine *out);

/* The line's score in centi-moves, a mate as +-(INFO_MATE_CP - n). */
int info_line_cp(const InfoLine *in);

#endif
