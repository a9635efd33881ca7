/*
 * display.h - a position as a text diagram of the star, for `d` and the tools.
 */
#ifndef STERN_DISPLAY_H
#define STERN_DISPLAY_H

#include "position.h"

#define DISPLAY_MAX 2048 /* bytes a diagram needs, with its NUL */

/* Writes the star of p into buf (DISPLAY_MAX bytes) as 17 lines, turned so that
 * the home point of seat `bottom` (0-5) is at the bottom: seat letters, 'x' for
 * capture pieces, '.' for empty holes; each line starts with its row number, 17
 * at the top (the board's own rows when `bottom` is white). Returns buf. */
char *display_board(const Position *p, int bottom, char *buf);

#endif
