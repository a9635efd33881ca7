/* options.c - the engine's options; see options.h. */
#include "options.h"

#include "words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* a BookFile refusal holds the book's fault, which names the path */
_Static_assert(OPTION_WHY_MAX >= OWNBOOK_PATH_MAX + 256 + 32, "OPTION_WHY_MAX too small");

static int set_variant(Engine *e, const OptionValue *val);
static int set_hash(Engine *e, const OptionValue *val);
static int set_threads(Engine *e, const OptionValue *val);
static int set_multipv(Engine *e, const OptionValue *val);
static int set_search(Engine *e, const OptionValue *val);
static int set_opps_regular(Engine *e, const OptionValue *val);
static int set_opps_regular_moves(Engine *e, const OptionValue *val);
static int set_opps_reduced_moves(Engine *e, const OptionValue *val);
static int set_mcts_history(Engine *e, const OptionValue *val);
static int set_mcts_widening(Engine *e, const OptionValue *val);
static int set_mcts_widening_alpha(Engine *e, const OptionValue *val);
static int set_mcts_oma(Engine *e, const OptionValue *val);
static int set_own_book(Engine *e, const OptionValue *val);
static int set_book_file(Engine *e, const OptionValue *val);
static int set_book_depth(Engine *e, const OptionValue *val);
static int set_book_variety(Engine *e, const OptionValue *val);
static int set_move_overhead(Engine *e, const OptionValue *val);
static int set_nodestime(Engine *e, const OptionValue *val);
static int set_ponder(Engine *e, const OptionValue *val);
static int set_opponent_model(Engine *e, const OptionValue *val);
static int set_eval_file(Engine *e, const OptionValue *val);
static int clear_hash(Engine *e, const OptionValue *val);

const Option options_table[NUM_OPTIONS] = {
    [OPT_VARIANT] = {"Variant", OPTION_COMBO, .text = "classic-2", .vars = variant_names, .nvars = NUM_VARIANT_NAMES,
                     .unknown = "unknown variant", .apply = set_variant},
    /* the table's size in MiB: a session takes 1-65536 */
    [OPT_HASH] = {"Hash", OPTION_SPIN, .def = 64, .min = 1, .max = 65536, .unit = " (MiB) and fit in memory",
                  .apply = set_hash},
    [OPT_THREADS] = {"Threads", OPTION_SPIN, .def = 1, .min = 1, .max = MAX_THREADS, .apply = set_threads},
    [OPT_MULTIPV] = {"MultiPV", OPTION_SPIN, .def = 1, .min = 1, .max = 256, .apply = set_multipv},
    [OPT_SEARCH] = {"Search", OPTION_COMBO, .text = "auto", .vars = search_algo_names, .nvars = NUM_ALGOS,
                    .apply = set_search},
    /* Search opps's three parameters (opps.h, docs/MULTI.md) */
    [OPT_OPPS_REGULAR] = {"OppsRegular", OPTION_SPIN, .def = OPPS_DEFAULT_REGULAR, .min = 0, .max = OPPS_REGULAR_MAX,
                          .unit = " (opponents a phase)", .apply = set_opps_regular},
    [OPT_OPPS_REGULAR_MOVES] = {"OppsRegularMoves", OPTION_SPIN, .def = OPPS_DEFAULT_REGULAR_MOVES, .min = 0,
                                .max = OPPS_MOVES_MAX, .unit = " (moves; 0: every move)",
                                .apply = set_opps_regular_moves},
    [OPT_OPPS_REDUCED_MOVES] = {"OppsReducedMoves", OPTION_SPIN, .def = OPPS_DEFAULT_REDUCED_MOVES, .min = 1,
                                .max = OPPS_REDUCED_MAX, .unit = " (moves)", .apply = set_opps_reduced_moves},
    /* Search mcts: Progressive History's weight W (mcts_history.h, docs/MULTI.md) */
    [OPT_MCTS_HISTORY] = {"MctsHistory", OPTION_SPIN, .def = 0, .min = 0, .max = MCTS_HISTORY_MAX,
                          .unit = " (0: off)", .apply = set_mcts_history},
    /* Search mcts: progressive widening's C and alpha in hundredths, and
     * opponent-move abstraction's K (mcts.h, docs/MULTI.md) */
    [OPT_MCTS_WIDENING] = {"MctsWidening", OPTION_SPIN, .def = 0, .min = 0, .max = MCTS_WIDENING_MAX,
                           .unit = " (hundredths of C; 0: off)", .apply = set_mcts_widening},
    [OPT_MCTS_WIDENING_ALPHA] = {"MctsWideningAlpha", OPTION_SPIN, .def = 50, .min = 0, .max = 100,
                                 .unit = " (hundredths)", .apply = set_mcts_widening_alpha},
    [OPT_MCTS_OMA] = {"MctsOma", OPTION_SPIN, .def = 0, .min = 0, .max = MCTS_OMA_MAX,
                      .unit = " (visits; 0: off)", .apply = set_mcts_oma},
    /* OwnBook's and BookVariety's refusals have always named them as sent */
    [OPT_OWNBOOK] = {"OwnBook", OPTION_CHECK, .def = 1, .name_as_sent = true, .apply = set_own_book},
    [OPT_BOOKFILE] = {"BookFile", OPTION_STRING, .text = "", .apply = set_book_file},
    /* plies from the game's start within which the book is used */
    [OPT_BOOKDEPTH] = {"BookDepth", OPTION_SPIN, .def = 40, .min = 0, .max = GAME_MAX_PLIES, .unit = " (plies)",
                       .apply = set_book_depth},
    [OPT_BOOKVARIETY] = {"BookVariety", OPTION_CHECK, .def = 0, .name_as_sent = true, .apply = set_book_variety},
    [OPT_MOVE_OVERHEAD] = {"Move Overhead", OPTION_SPIN, .def = 30, .min = 0, .max = 5000, .unit = " (ms)",
                           .apply = set_move_overhead},
    /* nodes per ms: a million is more than any machine searches */
    [OPT_NODESTIME] = {"nodestime", OPTION_SPIN, .def = 0, .min = 0, .max = 1000000,
                       .unit = " (nodes per ms; 0: time is time)", .apply = set_nodestime},
    [OPT_PONDER] = {"Ponder", OPTION_CHECK, .def = 0, .apply = set_ponder},
    [OPT_OPPONENT_MODEL] = {"OpponentModel", OPTION_CHECK, .def = 1, .apply = set_opponent_model},
    /* auto: the net shipped for the variant; none: the hand-written evaluation */
    [OPT_EVALFILE] = {"EvalFile", OPTION_STRING, .text = "auto", .apply = set_eval_file},
    [OPT_CLEAR_HASH] = {"Clear Hash", OPTION_BUTTON, .apply = clear_hash},
};

/* The index of `value` in combo o's vars (any case), or -1. */
static int combo_index(const Option *o, const char *value)
{
    for (int i = 0; i < o->nvars; i++)
        if (!strcasecmp(value, o->vars[i]))
            return i;
    return -1;
}

/* Writes into why (OPTION_WHY_MAX bytes) the refusal of `value` for option o,
 * which a setoption named `sent`: what the option's type and range allow. */
static void refusal(const Option *o, const char *sent, const char *value, char *why)
{
    const size_t n = OPTION_WHY_MAX;
    switch (o->type) {
    case OPTION_SPIN:
        snprintf(why, n, "%s must be %lld-%lld%s", o->name, o->min, o->max, o->unit ? o->unit : "");
        return;
    case OPTION_CHECK:
        snprintf(why, n, "%s must be true or false", o->name_as_sent ? sent : o->name);
        return;
    case OPTION_COMBO:
        if (o->unknown) {
            snprintf(why, n, "%s '%s'", o->unknown, value);
            return;
        }
        size_t k = (size_t)snprintf(why, n, "%s must be", o->name);
        for (int i = 0; i < o->nvars && k < n; i++) /* "a, b or c" */
            k += (size_t)snprintf(why + k, n - k, "%s %s", !i ? "" : i + 1 < o->nvars ? "," : " or", o->vars[i]);
        return;
    case OPTION_BUTTON:
    case OPTION_STRING: /* any value will do: only their apply refuses */
        why[0] = 0;
        return;
    }
}

void options_list(Output *out)
{
    static const char *const type_names[] = {
        [OPTION_SPIN] = "spin", [OPTION_CHECK] = "check", [OPTION_COMBO] = "combo",
        [OPTION_BUTTON] = "button", [OPTION_STRING] = "string",
    };
    for (int i = 0; i < NUM_OPTIONS; i++) {
        const Option *o = &options_table[i];
        char line[2048];
        const size_t n = sizeof line;
        size_t k = (size_t)snprintf(line, n, "option name %s type %s", o->name, type_names[o->type]);
        switch (o->type) {
        case OPTION_SPIN:
            snprintf(line + k, n - k, " default %lld min %lld max %lld", o->def, o->min, o->max);
            break;
        case OPTION_CHECK:
            snprintf(line + k, n - k, " default %s", o->def ? "true" : "false");
            break;
        case OPTION_STRING:
            snprintf(line + k, n - k, " default %s", *o->text ? o->text : "<empty>");
            break;
        case OPTION_COMBO:
            k += (size_t)snprintf(line + k, n - k, " default %s", o->text);
            for (int v = 0; v < o->nvars && k < n; v++)
                k += (size_t)snprintf(line + k, n - k, " var %s", o->vars[v]);
            break;
        case OPTION_BUTTON:
            break;
        }
        output_say(out, "%s", line);
    }
}

int options_set(Engine *e, const char *name, const char *value, char *why)
{
    const Option *o = NULL;
    for (int i = 0; i < NUM_OPTIONS && !o; i++)
        if (!strcasecmp(name, options_table[i].name))
            o = &options_table[i];
    if (!o) {
        snprintf(why, OPTION_WHY_MAX, "unknown option '%s'", name);
        return -1;
    }
    OptionValue val = {.option = o, .text = value, .why = why};
    bool allowed = true;
    switch (o->type) {
    case OPTION_SPIN:
        allowed = words_int(value, o->min, o->max, &val.v);
        break;
    case OPTION_CHECK:
        val.v = !strcasecmp(value, "true");
        allowed = val.v || !strcasecmp(value, "false");
        break;
    case OPTION_COMBO:
        val.v = combo_index(o, value);
        allowed = val.v >= 0;
        break;
    case OPTION_STRING:
        if (!strcasecmp(value, "<empty>")) /* UCI's empty string */
            val.text = "";
        break;
    case OPTION_BUTTON: /* a value is ignored */
        break;
    }
    if (!allowed) {
        refusal(o, name, value, why);
        return -1;
    }
    return o->apply(e, &val);
}

SearchConfig options_search_defaults(void)
{
    const Option *t = options_table;
    return (SearchConfig){
        .algo = (SearchAlgo)combo_index(&t[OPT_SEARCH], t[OPT_SEARCH].text),
        .multipv = (int)t[OPT_MULTIPV].def,
        .overhead = t[OPT_MOVE_OVERHEAD].def,
        .nodestime = t[OPT_NODESTIME].def,
        .opponent_model = t[OPT_OPPONENT_MODEL].def,
        .opps = {true, (int)t[OPT_OPPS_REGULAR].def, (int)t[OPT_OPPS_REGULAR_MOVES].def,
                 (int)t[OPT_OPPS_REDUCED_MOVES].def},
        .mcts_history = (int)t[OPT_MCTS_HISTORY].def,
        .mcts_widening = (int)t[OPT_MCTS_WIDENING].def,
        .mcts_widening_alpha = (int)t[OPT_MCTS_WIDENING_ALPHA].def,
        .mcts_oma = (int)t[OPT_MCTS_OMA].def,
    };
}

Engine *options_engine_new(const char *variant, EngineNote note, void *ctx)
{
    const Option *t = options_table;
    Engine *e = engine_new(variant ? variant : t[OPT_VARIANT].text, (size_t)t[OPT_HASH].def, (int)t[OPT_THREADS].def,
                           note, ctx);
    if (!e)
        return NULL;
    e->config = options_search_defaults();
    e->ponder_option = t[OPT_PONDER].def;
    ownbook_init(&e->book, t[OPT_OWNBOOK].def, (int)t[OPT_BOOKDEPTH].def, t[OPT_BOOKVARIETY].def);
    return e;
}

/* ---- what each option sets ---- */

static int set_variant(Engine *e, const OptionValue *val)
{
    Game *g = malloc(sizeof *g);
    if (!g || game_new(g, val->text)) {
        free(g);
        refusal(val->option, val->option->name, val->text, val->why);
        return -1;
    }
    engine_set_game(e, g);
    return 0;
}

static int set_hash(Engine *e, const OptionValue *val)
{
    if (session_set_hash(e->session, (size_t)val->v)) { /* said as a value out of range */
        refusal(val->option, val->option->name, val->text, val->why);
        return -1;
    }
    return 0;
}

static int set_threads(Engine *e, const OptionValue *val)
{
    /* the threads start here, not at each go */
    if (!session_set_threads(e->session, (int)val->v)) {
        snprintf(val->why, OPTION_WHY_MAX, "%s: out of memory", val->option->name);
        return -1;
    }
    return 0;
}

static int set_multipv(Engine *e, const OptionValue *val)
{
    e->config.multipv = (int)val->v;
    return 0;
}

static int set_search(Engine *e, const OptionValue *val)
{
    e->config.algo = (SearchAlgo)val->v;
    return 0;
}

static int set_opps_regular(Engine *e, const OptionValue *val)
{
    e->config.opps.regular = (int)val->v;
    return 0;
}

static int set_opps_regular_moves(Engine *e, const OptionValue *val)
{
    e->config.opps.regular_moves = (int)val->v;
    return 0;
}

static int set_opps_reduced_moves(Engine *e, const OptionValue *val)
{
    e->config.opps.reduced_moves = (int)val->v;
    return 0;
}

static int set_mcts_history(Engine *e, const OptionValue *val)
{
    e->config.mcts_history = (int)val->v;
    return 0;
}

static int set_mcts_widening(Engine *e, const OptionValue *val)
{
    e->config.mcts_widening = (int)val->v;
    return 0;
}

static int set_mcts_widening_alpha(Engine *e, const OptionValue *val)
{
    e->config.mcts_widening_alpha = (int)val->v;
    return 0;
}

static int set_mcts_oma(Engine *e, const OptionValue *val)
{
    e->config.mcts_oma = (int)val->v;
    return 0;
}

static int set_own_book(Engine *e, const OptionValue *val)
{
    e->book.own = val->v;
    return 0;
}

/* Loads the net now, so that a file that is no intact net is refused at once
 * and the evaluation in use stays; a net of other variants is kept for them. */
static int set_eval_file(Engine *e, const OptionValue *val)
{
    char err[OWNBOOK_PATH_MAX + 256];
    if (engine_set_evalfile(e, val->text, err, sizeof err)) {
        snprintf(val->why, OPTION_WHY_MAX, "%s: %s; the evaluation is as it was", val->option->name, err);
        return -1;
    }
    return 0;
}

/* Reads the book now, so that a file that is no book is refused at once and
 * the book in use stays; a good book of another variant is kept for it. */
static int set_book_file(Engine *e, const OptionValue *val)
{
    const char *file = val->text;
    char err[OWNBOOK_PATH_MAX + 256];
    Book probe;
    book_init(&probe, "");
    if (strlen(file) >= sizeof e->book.file) {
        snprintf(val->why, OPTION_WHY_MAX, "%s: a path of more than %d bytes", val->option->name, OWNBOOK_PATH_MAX - 1);
        return -1;
    }
    if (*file && book_load(&probe, file, NULL, err, sizeof err)) {
        snprintf(val->why, OPTION_WHY_MAX, "%s: %s", val->option->name, err);
        return -1;
    }
    if (*file && strcmp(probe.variant, e->game->v->name))
        engine_note(e, "info string book: %s is a book of %s: used when the variant is %s", file, probe.variant,
            probe.variant);
    book_free(&probe);
    snprintf(e->book.file, sizeof e->book.file, "%s", file);
    /* set: the engine plays on without a book; a book of another variant was said above */
    if (ownbook_prepare(&e->book, e->game->v->name, err, sizeof err) < 0)
        engine_note(e, "info string error book: %s", err);
    return 0;
}

static int set_book_depth(Engine *e, const OptionValue *val)
{
    e->book.depth = (int)val->v;
    return 0;
}

static int set_book_variety(Engine *e, const OptionValue *val)
{
    e->book.variety = val->v;
    return 0;
}

static int set_move_overhead(Engine *e, const OptionValue *val)
{
    e->config.overhead = val->v;
    return 0;
}

static int set_nodestime(Engine *e, const OptionValue *val)
{
    e->config.nodestime = val->v;
    return 0;
}

static int set_ponder(Engine *e, const OptionValue *val)
{
    e->ponder_option = val->v;
    return 0;
}

static int set_opponent_model(Engine *e, const OptionValue *val)
{
    e->config.opponent_model = val->v;
    return 0;
}

static int clear_hash(Engine *e, const OptionValue *val)
{
    (void)val;
    session_clear_hash(e->session);
    return 0;
}
