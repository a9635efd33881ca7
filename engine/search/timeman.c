/* timeman.c - time allocation; see timeman.h. */
#include "timeman.h"

#define SOFT_MAX_PERCENT 25  /* never plan to use more than this share of the reserve */
#define HARD_MAX_PERCENT 33  /* never use more than this share of it */
#define HARD_FACTOR 3        /* hard limit: this many times the soft share */

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

TimeBudget time_budget(int64_t time_ms, int64_t inc_ms, int movestogo, int64_t movetime_ms, int moves_left,
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
    const int64_t usable = max64(1, time_ms - overhead_ms);
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
