/*
 * board_table.h - the table of stern-board (docs/BOARD.md): one game shared by
 * every page connected, its seats (human or engine), clocks, the engines that
 * play and the one that analyses. It holds the only trusted copy of the game:
 * a page's message is checked against the rules library before anything
 * changes, and a refused one changes nothing.
 *
 * Messages in and out are the JSON objects of docs/BOARD.md. Every function
 * takes the table's lock itself; they may be called from any thread.
 */
#ifndef STERN_BOARD_TABLE_H
#define STERN_BOARD_TABLE_H

#include "engine_proc.h"
#include "game.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define TABLE_MAX_ENGINES 8
#define TABLE_MAX_OPTIONS 16
#define TABLE_MAX_LINES 8          /* MultiPV of the analysis at most */
#define TABLE_MARGIN_MS 2000       /* grace past an engine's time before it is taken as hung */
#ifndef TABLE_HANDSHAKE_MS          /* longest wait for an engine's uciok or readyok; the */
#define TABLE_HANDSHAKE_MS 10000    /* static board's waits longer: its engine downloads first */
#endif
#define TABLE_NO_CLOCK_MOVETIME 1000 /* an engine's time a move when the game has no clock, ms */
#define TABLE_RETRIES 3            /* failed searches in a row before a seat goes to the humans */

/* An engine the table offers: `-engine cmd=… name=… option.N=V`. */
typedef struct TableEngineConf {
    const char *cmd;
    const char *name;
    EngineOption opts[TABLE_MAX_OPTIONS];
    int nopts;
} TableEngineConf;

/* Sends one JSON text to every page (broadcast) or to one (reply). */
typedef void (*TableSend)(const char *json, void *ctx);

/* One engine process and what the table knows of it. */
typedef struct TableEngine {
    EngineProc proc;
    bool started;
    const Variant *variant;   /* the Variant it was last told, or NULL */
    bool answered;            /* its search already gave its bestmove */
} TableEngine;

/* An analysis line as the engine last reported it. */
typedef struct TableLine {
    bool set;
    int depth, multipv;
    bool mate;
    int score;                /* cp, or own moves to mate */
    int scores[MAX_SEATS];    /* by seat */
    bool has_score[MAX_SEATS];
    long long nodes;
    char *pv;                 /* the moves as the engine wrote them, space-separated (owned) */
} TableLine;

typedef struct BoardTable {
    pthread_mutex_t lock;
    const TableEngineConf *conf;
    int nconf;
    TableSend broadcast;
    void *broadcast_ctx;

    Game *game;               /* the game (heap: about 50 KB) */
    bool human[MAX_SEATS];    /* else engine_of[seat] plays it */
    int engine_of[MAX_SEATS];
    int64_t clock_ms[MAX_SEATS]; /* time left, ms, when base_ms > 0 (the game has a clock) */
    int base_ms, inc_ms, movetime_ms;
    char termination[32];     /* a forfeit's Termination ("resignation", "time forfeit"), or "" */
    int forfeited;            /* the seat that forfeited, or -1 */
    char *texts[GAME_MAX_PLIES];    /* per ply: the move's text (owned) */
    int8_t movers[GAME_MAX_PLIES];  /* per ply: the seat that moved */
    char *comments[GAME_MAX_PLIES]; /* per ply: the engine's score and time, or NULL */
    bool has_eval[GAME_MAX_PLIES + 1];
    int eval[GAME_MAX_PLIES + 1][MAX_SEATS]; /* scores by seat before each ply, the engine's view */
    bool eval_has[GAME_MAX_PLIES + 1][MAX_SEATS];
    int64_t turn_start;       /* when the seat to move began, ms (ep_now_ms) */
    int shown;                /* the ply shown */

    TableEngine play[TABLE_MAX_ENGINES];
    int searching;            /* seat whose engine is searching, or -1 */
    int64_t deadline;         /* when that search counts as hung, ms */
    int failures;             /* failed searches of the seat to move in a row */
    bool last_has_score, last_mate;
    int last_score, last_depth;
    int last_scores[MAX_SEATS];
    bool last_seat_scored[MAX_SEATS];

    bool analysis;            /* analysis mode */
    int multipv, analysis_engine;
    TableEngine analyser;
    bool analysing;           /* a `go infinite` is running */
    int analysis_failures;    /* crashes of the analyser in a row */
    int analysed_stm;         /* the seat to move in the position analysed */
    TableLine lines[TABLE_MAX_LINES];
    int64_t lines_sent;       /* when the last analysis message went out, ms */
    bool lines_dirty;
} BoardTable;

/* Sets up t with the engines conf[0..nconf-1] (which must outlive it) and a
 * classic-2 game, human against the first engine, no clock. broadcast(json,
 * ctx) receives every message for all pages. Returns 0, or -1 without memory. */
int board_table_init(BoardTable *t, const TableEngineConf *conf, int nconf, TableSend broadcast, void *ctx);

/* Ends every engine and frees what t holds. */
void board_table_free(BoardTable *t);

/* The `hello` and the current `state` message for a new page; the caller
 * frees the text. NULL without memory. */
char *board_table_hello(BoardTable *t);
char *board_table_state(BoardTable *t);

/* A new page: sends it hello and the state through send(json, ctx), then
 * calls joined(ctx) (which adds it to those the broadcasts reach), all under
 * the table's lock, so that no state can come between. */
void board_table_join(BoardTable *t, TableSend send, void (*joined)(void *ctx), void *ctx);

/* Handles one message of a page (text[0..len-1]): a change is broadcast as a
 * new state; a refusal (or a `pgn` answer) goes to that page alone through
 * reply(json, reply_ctx). */
void board_table_message(BoardTable *t, const char *text, size_t len, TableSend reply, void *reply_ctx);

/* The table's clockwork, called every few milliseconds from one thread:
 * starts an engine's search when its seat is to move, reads the engines'
 * lines, plays their moves, restarts an engine that crashed or hung, ends a
 * human's game on time, and sends the analysis lines. */
void board_table_tick(BoardTable *t);

#endif
