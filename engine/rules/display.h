/*
 * display.h - a position as a text diagram of the star, for `d` and the tools.
 */
#ifndef STERN_DISPLAY_H
#define STERN_DISPLAY_H

#include "position.h"

#define DISPLAY_MAX 2048 /* bytes a diagram needs, with its NUL */

/* Writes the star of p into buf (DISPLAY_MAX bytes) as 17 lines, turned so that
 * the home point of seat `bottom` (0-5) is at the bottom: seat letters, 'x' for
 * capture pieces, '.' for empty holes; each line ends, from column 36, with the
 * names of the line's first and last holes ("a13-m13"; one name for a line of
 * one hole), which name its holes in every orientation. Returns buf. */
char *display_board(const Position *p, int bottom, char *buf);

#endif
