/*
 * test_timeman.c - timeman_budget (timeman.h): exact soft and hard limits for
 * chosen clocks (worked out by hand from timeman.c), and bounds that hold over a
 * grid of clocks: with a clock, hard stays within a third of the time left after
 * the overhead (1 ms at least) and soft within a quarter, soft <= hard, and more
 * time or increment never gives less; a movetime is used less at most half of it
 * for the overhead; with neither, no limit.
 */
#include "support/stern_test.h"

#include "timeman.h"

#include <inttypes.h>

typedef struct {
    int64_t time_ms, inc_ms;
    int movestogo;
    int64_t movetime_ms;
    int moves_left;
    int64_t overhead_ms;
    int64_t soft_ms, hard_ms; /* expected */
} BudgetRow;

/* u = max(1, time - 5 * overhead) (the move's overhead and a reserve of four);
 * soft = min(u / mtg + inc * 3/4, u * 25/100); hard = min(3 * soft, u * 33/100);
 * both at least 1 ms, hard at least soft. Divisions round down. */
static const BudgetRow ROWS[] = {
    /* clock only: u 59950, 59950/40 = 1498, hard 3*1498 = 4494 (cap 19783) */
    {60000, 0, 0, 0, 40, 10, 1498, 4494},
    /* no overhead, no reserve: 60000/40 = 1500, hard 4500 */
    {60000, 0, 0, 0, 40, 0, 1500, 4500},
    /* overhead 1000: u 55000, 55000/40 = 1375, hard 4125 */
    {60000, 0, 0, 0, 40, 1000, 1375, 4125},
    /* one hour: u 3599950, /40 = 89998, hard 269994 (cap 1187983) */
    {3600000, 0, 0, 0, 40, 10, 89998, 269994},
    /* increment: 1498 + 1000*3/4 = 2248, hard 6744 */
    {60000, 1000, 0, 0, 40, 10, 2248, 6744},
    /* increment rounds down: 1498 + 3*3/4 = 1500, hard 4500 */
    {60000, 3, 0, 0, 40, 10, 1500, 4500},
    /* low clock, large increment: u 1950, 48 + 750 = 798 capped at 1950*25/100
     * = 487; hard min(1461, 1950*33/100 = 643) = 643 */
    {2000, 1000, 0, 0, 40, 10, 487, 643},
    /* hard at its cap: u 10000, 1000 + 1500 = 2500 (= the 25% cap); hard
     * min(7500, 3300) = 3300 */
    {10000, 2000, 0, 0, 10, 0, 2500, 3300},
    /* movestogo 20: 59950/20 = 2997, hard 8991 */
    {60000, 0, 20, 0, 40, 10, 2997, 8991},
    /* movestogo wins over moves_left: the same */
    {60000, 0, 20, 0, 1000, 10, 2997, 8991},
    /* movestogo 2 with increment: 29975 + 750 capped at 14987; hard min(44961,
     * 19783) = 19783 */
    {60000, 1000, 2, 0, 40, 10, 14987, 19783},
    /* movestogo 1: 59950 capped at 14987, hard 19783; the last move before the
     * control gets no more (min(53955, max(19783, 14987)) = 19783) */
    {60000, 0, 1, 0, 40, 10, 14987, 19783},
    /* many moves left: 59950/1000 = 59, hard 177 */
    {60000, 0, 0, 0, 1000, 10, 59, 177},
    /* moves_left 0 taken as 1: as movestogo 1 */
    {60000, 0, 0, 0, 0, 10, 14987, 19783},
    /* barely above the reserve: u 60, 60/40 = 1 (cap 15), hard 3 (cap 19) */
    {110, 0, 0, 0, 40, 10, 1, 3},
    /* inside the reserve: u = max(1, -10) = 1, soft and hard 0, raised to 1 */
    {40, 0, 0, 0, 40, 10, 1, 1},
    /* below the overhead: u = max(1, -45) = 1: 1 */
    {5, 0, 0, 0, 40, 10, 1, 1},
    /* empty clock with an increment: u 1, 0 + 750 capped at 1*25/100 = 0: 1 */
    {0, 1000, 0, 0, 40, 10, 1, 1},
    /* a 2+0.02 clock run down to 200 ms, overhead 30: u 50, 50/10 + 15 = 20
     * capped at 12; hard min(36, 16) = 16 */
    {200, 20, 0, 0, 10, 30, 12, 16},
    /* movetime, the clock ignored: 1000 - min(10, 500) = 990 */
    {60000, 1000, 0, 1000, 40, 10, 990, 990},
    /* movetime alone, no overhead */
    {-1, 0, 0, 1000, 40, 0, 1000, 1000},
    /* movetime below the overhead: 10 - min(50, 10/2) = 5 */
    {-1, 0, 0, 10, 40, 50, 5, 5},
    /* movetime 1: 1 - min(50, 0) = 1 */
    {-1, 0, 0, 1, 40, 50, 1, 1},
    /* neither clock nor movetime: unlimited */
    {-1, 0, 0, 0, 40, 10, -1, -1},
    {-1, 1000, 5, 0, 40, 10, -1, -1},
};

static void test_budget_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
        const BudgetRow *r = &ROWS[i];
        const TimeBudget b =
            timeman_budget(r->time_ms, r->inc_ms, r->movestogo, r->movetime_ms, r->moves_left, r->overhead_ms);
        if (b.soft_ms != r->soft_ms || b.hard_ms != r->hard_ms)
            fail_msg("row %zu (time %" PRId64 " inc %" PRId64 " mtg %d movetime %" PRId64 " left %d overhead %" PRId64
                     "): soft %" PRId64 " hard %" PRId64 ", expected %" PRId64 " %" PRId64,
                     i, r->time_ms, r->inc_ms, r->movestogo, r->movetime_ms, r->moves_left, r->overhead_ms,
                     b.soft_ms, b.hard_ms, r->soft_ms, r->hard_ms);
    }
}

static const int64_t TIMES[] = {0, 1, 5, 10, 11, 14, 50, 100, 999, 1000, 60000, 3600000};
static const int64_t INCS[] = {0, 1, 100, 1000, 30000};
static const int MTGS[] = {0, 1, 2, 7, 40};
static const int LEFTS[] = {1, 5, 40, 1000};
static const int64_t OVERHEADS[] = {0, 10, 50, 1000};

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* With a clock the code guarantees 1 <= soft <= hard and, for u = time -
 * overhead, soft <= max(1, u * 25/100) and hard <= max(1, u * 33/100): a move
 * never takes more than the time left after the overhead, except the 1 ms
 * minimum when u < 1. */
static void test_clock_budget_stays_within_the_time_left(void **state)
{
    (void)state;
    for (size_t a = 0; a < COUNT(TIMES); a++)
        for (size_t i = 0; i < COUNT(INCS); i++)
            for (size_t m = 0; m < COUNT(MTGS); m++)
                for (size_t l = 0; l < COUNT(LEFTS); l++)
                    for (size_t o = 0; o < COUNT(OVERHEADS); o++) {
                        const int64_t t = TIMES[a], u = t - OVERHEADS[o];
                        const TimeBudget b = timeman_budget(t, INCS[i], MTGS[m], 0, LEFTS[l], OVERHEADS[o]);
                        if (b.soft_ms < 1 || b.soft_ms > b.hard_ms || b.soft_ms * 100 > max64(100, u * 25) ||
                            b.hard_ms * 100 > max64(100, u * 33) || (u >= 1 && b.hard_ms > u))
                            fail_msg("time %" PRId64 " inc %" PRId64 " mtg %d left %d overhead %" PRId64
                                     ": soft %" PRId64 " hard %" PRId64,
                                     t, INCS[i], MTGS[m], LEFTS[l], OVERHEADS[o], b.soft_ms, b.hard_ms);
                    }
}

/* More time on the clock, or a larger increment, never shortens the budget. */
static void test_clock_budget_grows_with_time_and_increment(void **state)
{
    (void)state;
    for (size_t a = 0; a + 1 < COUNT(TIMES); a++)
        for (size_t i = 0; i + 1 < COUNT(INCS); i++)
            for (size_t m = 0; m < COUNT(MTGS); m++)
                for (size_t l = 0; l < COUNT(LEFTS); l++)
                    for (size_t o = 0; o < COUNT(OVERHEADS); o++) {
                        const int mtg = MTGS[m], left = LEFTS[l];
                        const int64_t ov = OVERHEADS[o];
                        const TimeBudget b = timeman_budget(TIMES[a], INCS[i], mtg, 0, left, ov);
                        const TimeBudget more_time = timeman_budget(TIMES[a + 1], INCS[i], mtg, 0, left, ov);
                        const TimeBudget more_inc = timeman_budget(TIMES[a], INCS[i + 1], mtg, 0, left, ov);
                        if (more_time.soft_ms < b.soft_ms || more_time.hard_ms < b.hard_ms ||
                            more_inc.soft_ms < b.soft_ms || more_inc.hard_ms < b.hard_ms)
                            fail_msg("time %" PRId64 " inc %" PRId64 " mtg %d left %d overhead %" PRId64, TIMES[a],
                                     INCS[i], mtg, left, ov);
                    }
}

/* A movetime is the budget, soft and hard alike, whatever the clock says:
 * less the overhead while that is at most half of it, else about half. */
static void test_movetime_loses_at_most_half_to_the_overhead(void **state)
{
    (void)state;
    static const int64_t movetimes[] = {1, 2, 3, 10, 100, 1000, 60000};
    static const int64_t clocks[] = {-1, 0, 500, 60000};
    for (size_t t = 0; t < COUNT(movetimes); t++)
        for (size_t o = 0; o < COUNT(OVERHEADS); o++) {
            const int64_t mt = movetimes[t], ov = OVERHEADS[o];
            const TimeBudget alone = timeman_budget(-1, 0, 0, mt, 40, ov);
            if (alone.soft_ms != alone.hard_ms || alone.hard_ms < 1 || alone.hard_ms > mt ||
                alone.hard_ms * 2 < mt || (ov <= mt / 2 && alone.hard_ms != mt - ov))
                fail_msg("movetime %" PRId64 " overhead %" PRId64 ": soft %" PRId64 " hard %" PRId64, mt, ov,
                         alone.soft_ms, alone.hard_ms);
            for (size_t c = 0; c < COUNT(clocks); c++) {
                const TimeBudget b = timeman_budget(clocks[c], 1000, 10, mt, 40, ov);
                assert_int_equal(b.soft_ms, alone.soft_ms);
                assert_int_equal(b.hard_ms, alone.hard_ms);
            }
        }
}

/* Without a clock or a movetime nothing limits the search. */
static void test_no_clock_is_unlimited(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(INCS); i++)
        for (size_t m = 0; m < COUNT(MTGS); m++)
            for (size_t o = 0; o < COUNT(OVERHEADS); o++) {
                const TimeBudget b = timeman_budget(-1, INCS[i], MTGS[m], 0, 40, OVERHEADS[o]);
                assert_int_equal(b.soft_ms, -1);
                assert_int_equal(b.hard_ms, -1);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_table),
        cmocka_unit_test(test_clock_budget_stays_within_the_time_left),
        cmocka_unit_test(test_clock_budget_grows_with_time_and_increment),
        cmocka_unit_test(test_movetime_loses_at_most_half_to_the_overhead),
        cmocka_unit_test(test_no_clock_is_unlimited),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
