/*
 * time_control.h - a clock written as text, cutechess-cli's syntax, both ways:
 * "[MOVES/]TIME[+INC]" (stern-arena's tc=, stern-play's -tc).
 *
 *   TIME   seconds for the game, or for each period of MOVES moves, per seat;
 *          also MIN:SEC ("1:30" is 90 seconds), as cutechess takes it
 *   INC    seconds added to the seat's clock after each of its moves
 *   MOVES  the period: after every MOVES moves of its own a seat's clock gets
 *          TIME more (what is left carries over), and each `go` tells the
 *          mover its moves left in the period (`movestogo`): referee.h
 *
 * "10+0.1" is 10 s a game and 0.1 s a move; "40/60+0.5" is 60 s for 40 moves,
 * then 60 s more for the next 40, and 0.5 s a move. Times become whole
 * milliseconds (rounded).
 */
#ifndef STERN_TIME_CONTROL_H
#define STERN_TIME_CONTROL_H

#include "referee.h"

#include <stddef.h>

#define TIME_CONTROL_MOVES_MAX 100000 /* the protocol's largest movestogo (PROTOCOL.md, go) */
#define TIME_CONTROL_TEXT_MAX 64      /* time_control_text's longest text, with its NUL */

/* Parses `text` as "[MOVES/]TIME[+INC]" (above) into lim's time_ms, inc_ms and
 * moves (0 without MOVES/), movetime_ms 0; margin_ms is left as it was.
 * MOVES is 1 to TIME_CONTROL_MOVES_MAX, TIME above 0, INC 0 or more, both at
 * most INT_MAX / 1000 seconds. Returns 0, or -1 with what is wrong in err (n
 * bytes), e.g. "40/0: the time must be above 0 seconds", and lim unchanged. */
int time_control_parse(const char *text, RefereeLimits *lim, char *err, size_t n);

/* The clock of lim (time_ms > 0) as PGN's TimeControl and cutechess write it,
 * into buf (n bytes, TIME_CONTROL_TEXT_MAX is enough): "10+0.1", "2+0",
 * "40/60+0.5" (seconds, %g). Returns buf. */
char *time_control_text(const RefereeLimits *lim, char *buf, size_t n);

#endif
