/*
 * test_time_control.c - clocks as text (tools/lib/time_control.c), cutechess's
 * syntax "[MOVES/]TIME[+INC]": what each form sets, the TimeControl text it
 * gives back, and the refusals. stern-arena's tc= took only "S[+I]" and refused
 * cutechess's "40/60+0.5" (40 moves in 60 s, then the clock is refilled).
 */
#include "support/stern_test.h"

#include "time_control.h"

#include <stdio.h>
#include <string.h>

/* Parses text, asserting it is taken, and asserts the limits and the text it
 * is written back as. */
static void taken(const char *text, int time_ms, int inc_ms, int moves, const char *back)
{
    RefereeLimits lim = {.movetime_ms = 200, .margin_ms = 7};
    char err[256] = "", buf[TIME_CONTROL_TEXT_MAX];
    if (time_control_parse(text, &lim, err, sizeof err))
        fail_msg("'%s' refused: %s", text, err);
    assert_int_equal(lim.movetime_ms, 0);
    assert_int_equal(lim.time_ms, time_ms);
    assert_int_equal(lim.inc_ms, inc_ms);
    assert_int_equal(lim.moves, moves);
    assert_int_equal(lim.margin_ms, 7); /* not the parser's */
    assert_string_equal(time_control_text(&lim, buf, sizeof buf), back);
}

/* Asserts that text is refused with message `why`, lim untouched. */
static void refused(const char *text, const char *why)
{
    RefereeLimits lim = {.time_ms = 5, .inc_ms = 6, .moves = 7};
    char err[256] = "";
    assert_int_equal(time_control_parse(text, &lim, err, sizeof err), -1);
    assert_string_equal(err, why);
    assert_int_equal(lim.time_ms, 5);
    assert_int_equal(lim.inc_ms, 6);
    assert_int_equal(lim.moves, 7);
}

static void test_time_control_takes_cutechess_forms(void **state)
{
    (void)state;
    taken("10+0.1", 10000, 100, 0, "10+0.1");
    taken("2", 2000, 0, 0, "2+0");
    taken("0.3+0", 300, 0, 0, "0.3+0");
    taken("40/60+0.5", 60000, 500, 40, "40/60+0.5");
    taken("40/60", 60000, 0, 40, "40/60+0");
    taken("1:30", 90000, 0, 0, "90+0");
    taken("40/1:30+1", 90000, 1000, 40, "40/90+1");
    taken("100000/1", 1000, 0, 100000, "100000/1+0");
    taken("0.0001", 1, 0, 0, "0.001+0"); /* above 0 s: a millisecond, not "no clock" */
    /* written back exactly: %g wrote 1234.57 and 2e+06, which it refused */
    taken("1234.567+0.05", 1234567, 50, 0, "1234.567+0.05");
    taken("2000000", 2000000000, 0, 0, "2000000+0");
}

static void test_time_control_refuses_what_it_cannot_read(void **state)
{
    (void)state;
    refused("0/60", "0/60: MOVES before '/' must be a whole number from 1 to 100000");
    refused("100001/60", "100001/60: MOVES before '/' must be a whole number from 1 to 100000");
    refused("x/60", "x/60: MOVES before '/' must be a whole number from 1 to 100000");
    refused("40/0", "40/0: the time must be above 0 seconds");
    refused("0+1", "0+1: the time must be above 0 seconds");
    refused("1:60", "1:60: MIN:SEC needs whole minutes and seconds below 60");
    refused("1.5:30", "1.5:30: MIN:SEC needs whole minutes and seconds below 60");
    refused("3000000", "3000000: the time and the increment must be at most 2147483 seconds");
    static const char *const garbled[] = {"", "5+", "+5", "-5", "inf", "1e3", "1.2.3", "40/60/3", "10+0.1x", " 10"};
    for (size_t i = 0; i < sizeof garbled / sizeof *garbled; i++) {
        char want[128];
        snprintf(want, sizeof want, "%s: expected [MOVES/]SECONDS[+INCREMENT], e.g. 10+0.1 or 40/60+0.5", garbled[i]);
        refused(garbled[i], want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_control_takes_cutechess_forms),
        cmocka_unit_test(test_time_control_refuses_what_it_cannot_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
