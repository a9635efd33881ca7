/*
 * test_display.c - the diagram of `d` and stern-play (engine/rules/display.h): in
 * each of the six orientations, every line names its end holes, and the pieces
 * drawn there are the pieces on those holes.
 */
#include "support/stern_test.h"

#include "display.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The symbol display_board draws for hole h of p. */
static char symbol(const Position *p, int h)
{
    const int piece = p->board[h];
    return !piece ? '.' : piece == PIECE_NEUTRAL ? 'x' : variant_seat_letter(piece - 1);
}

static void test_lines_name_their_end_holes(void **state)
{
    (void)state;
    board_init();
    Position p;
    memset(&p, 0, sizeof p);
    unsigned long long rng = 12345;
    for (int h = 0; h < NUM_HOLES; h++) { /* every symbol, at random: a wrong name shows */
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        const int k = (int)(rng >> 33) % 8;
        p.board[h] = (uint8_t)(k < 6 ? k + 1 : k == 6 ? PIECE_NEUTRAL : 0);
    }
    for (int bottom = 0; bottom < 6; bottom++) {
        char buf[DISPLAY_MAX];
        display_board(&p, bottom, buf);
        int lines = 0, cells = 0;
        for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"), lines++) {
            char drawn[64] = "";
            int n = 0;
            for (int i = 0; i < 36 && line[i]; i++)
                if (line[i] != ' ')
                    drawn[n++] = line[i];
            drawn[n] = 0;
            assert_true(strlen(line) > 36);
            const char *s = line + 36;
            const int a = board_parse_hole(&s);
            int b = a;
            if (*s == '-') {
                s++;
                b = board_parse_hole(&s);
            }
            if (a < 0 || b < 0 || *s)
                fail_msg("bottom %d, line %d: no end-hole names: '%s'", bottom, lines, line);
            assert_int_equal(n, board_distance(a, b) + 1); /* a straight line from a to b */
            if (drawn[0] != symbol(&p, a) || drawn[n - 1] != symbol(&p, b))
                fail_msg("bottom %d: '%s' does not show %c and %c at its ends", bottom, line, symbol(&p, a),
                         symbol(&p, b));
            cells += n;
        }
        assert_int_equal(lines, 17);
        assert_int_equal(cells, NUM_HOLES);
    }
}

/* The orientations of `d`: white's home at the bottom, and black's (turned
 * half round: the rows read right to left, 17 at the bottom). */
static void test_white_and_black_at_the_bottom(void **state)
{
    (void)state;
    Position p;
    memset(&p, 0, sizeof p);
    board_init();
    char buf[DISPLAY_MAX];
    display_board(&p, 0, buf);
    assert_non_null(strstr(buf, "e17\n"));
    assert_non_null(strstr(buf, "a13-m13\n"));
    assert_true(strstr(buf, "e17\n") < strstr(buf, "m1\n"));
    display_board(&p, 3, buf);
    assert_non_null(strstr(buf, "m13-a13\n"));
    assert_true(strstr(buf, "m1\n") < strstr(buf, "e17\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_name_their_end_holes),
        cmocka_unit_test(test_white_and_black_at_the_bottom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
