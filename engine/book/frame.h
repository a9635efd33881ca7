/*
 * frame.h - the star's symmetries the opening book folds: the turn of the star
 * that brings a seat's home point to the bottom (white's point), and the
 * left-right mirror through the bottom and top tips. A frame is one turn,
 * mirrored or not; a position seen in the frame of its side to move is the same
 * for every seat.
 */
#ifndef STERN_FRAME_H
#define STERN_FRAME_H

#include "types.h"

#define NUM_FRAMES 12 /* 6 turns, each plain or mirrored */

/* The frame that turns seat s's home point (0-5) to the bottom, mirrored when
 * `mirror`. */
int frame_of_seat(int s, bool mirror);

/* Hole h (0-120) seen in frame f; NO_HOLE stays NO_HOLE. */
uint8_t frame_hole(int f, int h);

/* The hole that frame f shows at h: the inverse of frame_hole. */
uint8_t frame_hole_back(int f, int h);

/* Move m seen in frame f (its holes mapped; a capture's set too), and back. */
Move frame_move(int f, const Move *m);
Move frame_move_back(int f, const Move *m);

#endif
