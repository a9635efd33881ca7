/*
 * report.h - what a search tells its caller while it runs and when it ends, as
 * data: the protocol (protocol/info.h) turns each report into its text line.
 * The search builds no text of its own.
 */
#ifndef STERN_REPORT_H
#define STERN_REPORT_H

#include "types.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    REPORT_LINE,        /* one searched line: `info depth ... pv ...` */
    REPORT_BESTMOVE,    /* the answer, always the last report of a search */
    REPORT_RACE_SOLVED, /* the race solver answered: each army's own moves to arrive */
    REPORT_ROOT_CUT,    /* the listing of the root moves cut short: the most captures found is played */
    REPORT_NO_MEMORY,   /* fewer threads than asked, or no search at all */
    REPORT_MODEL,       /* the opponent model expects these seats to play greedily */
    REPORT_TOO_MANY_MOVES, /* a position below the root had more moves than the search
                              lists (`listed`): the search ended there */
} ReportKind;

typedef struct {
    ReportKind kind;
    const Position *root; /* the position searched: the moves below are read from it */
    /* REPORT_LINE */
    int depth, seldepth;  /* plies (MCTS: the tree's mean and deepest depth) */
    int multipv;          /* 1-based number of the line */
    bool mate;            /* score is a mate: `value` own moves of the root seat (< 0: mated) */
    int value;            /* else centi-moves, the root seat's view */
    int nscores;          /* three or more seats: each seat's relative score, in seat order */
    int scores[MAX_SEATS];
    uint64_t nodes;       /* MCTS: playouts */
    int64_t time_ms;      /* since the go */
    int64_t time_us;      /* the same in microseconds, for nps (0: not measured) */
    int hashfull;         /* permill */
    const Move *pv;       /* pvlen moves, each legal in turn from root (the game not over) */
    int pvlen;
    int linelen;          /* the search's whole line, pv[0..linelen) (>= pvlen): with three or
                             more seats its moves after pvlen leave the turn order (a best reply
                             is any opponent's, and the root seat moves again after it); for
                             tools that replay it (stern-datagen's teacher), not for the protocol */
    /* REPORT_BESTMOVE: best (none when !has_best), and the expected reply */
    Move best, ponder;
    bool has_best, has_ponder;
    /* REPORT_RACE_SOLVED: seat[0] is the side to move; seat[1] -1 when only its army was solved */
    int seat[2], moves[2];
    /* REPORT_NO_MEMORY: threads searching (0: none, the first legal move is played) of those asked */
    int threads, threads_asked;
    /* REPORT_ROOT_CUT: the cap cut the listing at `listed` moves (else stop or
     * the clock did); REPORT_TOO_MANY_MOVES: the cap */
    bool capped;
    int listed;
    /* REPORT_MODEL: bit s set for each seat s modelled (opponents.h) */
    unsigned modeled;
} SearchReport;

/* Receives every report of a search; the last is REPORT_BESTMOVE. */
typedef void (*SearchOutput)(const SearchReport *report, void *ctx);

#endif
