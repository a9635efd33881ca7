/*
 * referee.h - plays one game between engine processes through the protocol
 * (PROTOCOL.md), keeping the only trusted copy of the game: every `bestmove` is
 * parsed against the referee's own Game, never taken on the engine's word.
 *
 * An illegal or unparsable move, a crash (EOF) or a late answer ends the game with
 * the offending seat losing (RULES.md section 7): with 2 players the other seat
 * wins; with 3 or more the offender (its team) is last, seats that arrived keep
 * their places and the rest are ranked as section 6 says (pos_finish).
 */
#ifndef STERN_REFEREE_H
#define STERN_REFEREE_H

#include "engine_proc.h"
#include "game.h"

#define REF_MOVETIME_MARGIN_MS 2000 /* grace past `go movetime` before a time forfeit */
#define REF_SYNC_TIMEOUT_MS 30000   /* longest wait for `readyok` before a game */

/* How long each move may take. */
typedef struct RefereeLimits {
    int movetime_ms; /* > 0: `go movetime <ms>`; the answer is late after movetime + margin */
    int time_ms;     /* movetime 0: each seat's reserve for the game, ms (`go wtime ...`);
                        0 as well: no clock, the answer is late after margin_ms */
    int inc_ms;      /* movetime 0: added to a seat's reserve after each of its moves, ms */
    int margin_ms;   /* grace past the allotted time before a time forfeit, ms */
    int moves;       /* with a clock, > 0: time_ms is for this many moves of the seat; after
                        each such period of its own moves the seat's reserve gets time_ms
                        more (what is left carries over, as cutechess keeps it), and its
                        `go` says `movestogo <moves left in the period>`; 0: time_ms is
                        for the whole game */
} RefereeLimits;

/* The limits of one seat when seats differ (referee_play_seats): its time, plus
 * search limits sent with every `go` of that seat. */
typedef struct RefereeSeatLimits {
    RefereeLimits time;
    int depth;       /* > 0: `depth <plies>` */
    long long nodes; /* > 0: `nodes <n>` */
} RefereeSeatLimits;

typedef enum { FORFEIT_NONE, FORFEIT_TIME, FORFEIT_ILLEGAL, FORFEIT_CRASH } Forfeit;

/* One move as played, for the per-move callback. */
typedef struct RefereeMove {
    int ply;          /* moves played before this one */
    int round;        /* round the move was played in, from 1 */
    int seat;         /* mover, 0-5 */
    const char *text; /* canonical notation */
    int elapsed_ms;   /* from sending `go` to reading `bestmove` */
    int clock_ms;     /* with clocks: the mover's reserve after the move; else -1 */
    bool has_score;   /* the engine sent `info ... score ...` during this search */
    bool mate;        /* the score is `score mate <n>` rather than `score cp <x>` */
    int score;        /* cp, or moves to mate */
    int depth;        /* last `info depth`, or 0 */
    const char *engine_error; /* the last `info string error ...` the engine sent
                                 during this move (it refused a command), or NULL */
} RefereeMove;

typedef void (*RefereeMoveFn)(const Game *g, const RefereeMove *m, void *ctx);

typedef struct RefereeResult {
    Forfeit forfeit;          /* FORFEIT_NONE when the rules ended the game */
    int seat;                 /* the forfeiting seat, or -1 */
    const char *termination;  /* "arrived" ... "captures", or "time forfeit", "illegal move", "crash" */
    char detail[1024];        /* for a forfeit: what the engine did, e.g. "played 'zz1': ..." */
} RefereeResult;

/* Plays game g (set up by the caller: game_new, and game_set_fen for another start)
 * to its end. engines[s] is the engine that plays seat s (each seat in play must
 * have one, already past its handshake with the right Variant; one engine may hold
 * several seats). Before the first move every engine gets `ucinewgame` and
 * `isready`. For each move the seat to move gets `position startpos|fen <fen>
 * moves ...` and `go` with lim's time. fn (may be NULL) is called after each move
 * with ctx. Returns 0 with *res filled (the game is over: g->pos holds places and
 * reason), or -1 when an engine failed before the first move (res->detail says
 * which; g is unchanged). After a forfeit the offender's engine may still be
 * searching: restart it before using it again. */
int referee_play(Game *g, EngineProc *const engines[MAX_SEATS], const RefereeLimits *lim, RefereeMoveFn fn,
                 void *ctx, RefereeResult *res);

/* As referee_play, with limits per seat (lims[s] for seat s): a seat with a
 * movetime gets `go movetime <ms>`; a seat with a clock gets the reserve and
 * increment of every clocked seat in play (`go wtime .. winc .. btime .. binc ..`,
 * seats in turn order), then, when its clock runs in periods of moves
 * (RefereeLimits.moves), `movestogo` for itself (UCI has one, the mover's);
 * then its own `depth` and `nodes`. A seat with neither
 * movetime nor clock may take lims[s].time.margin_ms per move. When an engine fails
 * before the first move, res->seat is the first seat (in turn order) whose engine
 * failed. */
int referee_play_seats(Game *g, EngineProc *const engines[MAX_SEATS], const RefereeSeatLimits lims[MAX_SEATS],
                       RefereeMoveFn fn, void *ctx, RefereeResult *res);

/* Ends the game in p by a forfeit of seat s (RULES.md section 7): s (and its
 * partner in team games) takes the worst free place, seats already placed keep
 * their places, the rest are ranked by pos_finish. p must not be over. */
void referee_forfeit(Position *p, int s);

/* The record comment of move m, cutechess style: score (cp / 100 with two
 * decimals, or M<n> for a mate) / depth, then the time, e.g. "+0.47/12 0.201s";
 * just the time without a score. Written into buf (n bytes, REFEREE_COMMENT_MAX
 * is enough). Returns buf. */
#define REFEREE_COMMENT_MAX 96
char *referee_move_comment(const RefereeMove *m, char *buf, size_t n);

/* The Termination text of a forfeit: "time forfeit", "illegal move", "crash";
 * NULL for FORFEIT_NONE. */
const char *referee_forfeit_name(Forfeit f);

#endif
