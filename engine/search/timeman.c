/* timeman.c - time allocation; see timeman.h. */
#include "timeman.h"

#include "eval.h"


#define SOFT_MAX_PERCENT 25  /* never plan to use more than this share of the reserve */
#define HARD_MAX_PERCENT 33  /* never use more than this share of it */
#define HARD_FACTOR 3        /* hard limit: this many times the soft share */
#define RESERVE_OVERHEADS 4  /* overheads kept on the clock beyond the move's own */

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

TimeBudget timeman_budget(int64_t time_ms, int64_t inc_ms, int movestogo, int64_t movetime_ms, int moves_left,
                       int64_t overhead_ms)
{
    TimeBudget b = {-1, -1};
    if (movetime_ms > 0) {
        const int64_t t = max64(1, movetime_ms - min64(overhead_ms, movetime_ms / 2));
        b.soft_ms = t;
        b.hard_ms = t;
        return b;
    }
    if (time_ms < 0)
        return b;
    /* A reserve of a few moves' overhead stays on the clock: in a long game at
     * a fast control the budget otherwise settles where the clock is barely
     * above the overhead, and one late answer of a loaded machine flags. */
    const int64_t usable = max64(1, time_ms - overhead_ms * (1 + RESERVE_OVERHEADS));
    const int mtg = movestogo > 0 ? movestogo : (moves_left > 0 ? moves_left : 1);
    /* With a low clock the caps keep most of the reserve: the increments then
     * refill it (a 2+0.05 match flagged under load with looser caps). */
    int64_t soft = usable / mtg + inc_ms * 3 / 4;
    soft = min64(soft, usable * SOFT_MAX_PERCENT / 100);
    int64_t hard = min64(soft * HARD_FACTOR, usable * HARD_MAX_PERCENT / 100);
    if (movestogo == 1)
        hard = min64(usable * 9 / 10, max64(hard, soft));
    b.soft_ms = max64(1, soft);
    b.hard_ms = max64(b.soft_ms, hard);
    return b;
}

#define CAPTURE_PIECES_PER_MOVE 3 /* a capture-mode chain takes about this many pieces */
#define CAPTURE_MOVES_SPARE 2      /* own moves added to the capture-mode estimate */

/* In capture mode the pieces left are shared out among the seats, a few a move
 * (a game from the start lasts about six moves a seat with three seats). */
int timeman_moves_left(const Position *p)
{
    if (p->v->capture)
        return bb_count(p->neutral) / (CAPTURE_PIECES_PER_MOVE * p->v->nseats) + CAPTURE_MOVES_SPARE;
    const int dist = -eval_seat(p, p->stm, NULL).distance / W_DISTANCE; /* steps still to go */
    const int est = dist / 3 + 8;
    return est < 10 ? 10 : est;
}
