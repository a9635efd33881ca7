/*
 * options.h - the engine's options (docs/PROTOCOL.md "Options"): one table
 * that holds each option's name, type, default and range, from which the
 * `uci` listing, the checks of a `setoption` value and their refusals are
 * made, and the engine's and `stern bench`'s defaults are read.
 */
#ifndef STERN_OPTIONS_H
#define STERN_OPTIONS_H

#include "engine.h"
#include "output.h"
#include "search.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_COMBO, OPTION_BUTTON, OPTION_STRING } OptionType;

/* The options, in the order `uci` lists them. */
typedef enum {
    OPT_VARIANT,
    OPT_HASH,
    OPT_THREADS,
    OPT_MULTIPV,
    OPT_SEARCH,
    OPT_OPPS_REGULAR,
    OPT_OPPS_REGULAR_MOVES,
    OPT_OPPS_REDUCED_MOVES,
    OPT_MCTS_HISTORY,
    OPT_MCTS_WIDENING,
    OPT_MCTS_WIDENING_ALPHA,
    OPT_MCTS_OMA,
    OPT_OWNBOOK,
    OPT_BOOKFILE,
    OPT_BOOKDEPTH,
    OPT_BOOKVARIETY,
    OPT_MOVE_OVERHEAD,
    OPT_NODESTIME,
    OPT_PONDER,
    OPT_OPPONENT_MODEL,
    OPT_EVALFILE,
    OPT_CLEAR_HASH,
    NUM_OPTIONS
} OptionId;

typedef struct Option Option;

#define OPTION_WHY_MAX 4608 /* bytes of a refusal: a BookFile's names a path */

/* A setoption value that the table has checked, on its way to the engine. */
typedef struct {
    const Option *option;
    long long v;      /* spin: the number; check: 1 true, 0 false; combo: the index in vars */
    const char *text; /* as sent (string: "" for <empty>) */
    char *why;        /* OPTION_WHY_MAX bytes for a refusal */
} OptionValue;

/* Sets an option to value val. Returns 0, or -1 with the refusal in val->why
 * (said as "info string error setoption: <why>") and the engine as it was. */
typedef int (*OptionApply)(Engine *e, const OptionValue *val);

struct Option {
    const char *name;        /* matched in any case */
    OptionType type;
    long long def, min, max; /* spin: the default and the bounds; check: the default (1 true) */
    const char *text;        /* combo, string: the default ("" lists as <empty>) */
    const char *const *vars; /* combo: the values it takes, in any case */
    int nvars;
    const char *unit;        /* spin: what a refusal says after the range, e.g. " (ms)" */
    const char *unknown;     /* combo: refusals say "<unknown> '<value>'" (NULL: they list vars) */
    bool name_as_sent;       /* check: a refusal names the option as the setoption wrote it */
    OptionApply apply;
};

/* The table, indexed by OptionId. */
extern const Option options_table[NUM_OPTIONS];

/* Writes the `uci` listing's option lines ("option name <name> type <type>
 * ..."), one an option, in the table's order, on o. */
void options_list(Output *o);

/* `setoption name <name> value <value>` (name and value with single spaces):
 * checks the value against option `name`'s type and range and applies it to e.
 * Returns 0, or -1 with why it was refused in why (OPTION_WHY_MAX bytes; said
 * as "info string error setoption: <why>": "<name> must be 1-256", "unknown
 * option '<name>'"), leaving everything as it was. A string option's
 * "<empty>" (any case) is "". No job may be running (job_refuse_if_busy). A
 * note about a value taken (a book of another variant) goes to e's notes. */
int options_set(Engine *e, const char *name, const char *value, char *why);

/* The search options (Search, MultiPV, Move Overhead, nodestime,
 * OpponentModel) at their defaults: the engine's at start-up, and `stern
 * bench`'s. */
SearchConfig options_search_defaults(void);

/* An engine (engine_new) with every option at its default: of variant
 * `variant` (NULL: Variant's default), Hash's and Threads' defaults, the
 * search options, Ponder, OwnBook, BookDepth and BookVariety (BookFile's
 * default, no file, is a new book's) and EvalFile auto. NULL as engine_new. */
Engine *options_engine_new(const char *variant, EngineNote note, void *ctx);

#endif
