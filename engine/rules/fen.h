/*
 * fen.h - the position string of PROTOCOL.md ("Position string (FEN)"), both ways.
 */
#ifndef STERN_FEN_H
#define STERN_FEN_H

#include "position.h"

#define FEN_MAX 256 /* longest FEN written, with its terminating NUL */

/* Parses `fen` (four fields) for variant v into *p. Returns 0, or -1 with a message
 * naming the field and the problem in err (errlen bytes); *p is then unchanged.
 * Besides the format and the material, it refuses what no game reaches: a seat
 * with more moves than the round, a round the 16-bit counters could not carry to
 * the game's end, and the statuses of check_status (fen.c).
 * A FEN whose side to move is '-' is a finished game: seats without a suffix are
 * ranked (RULES.md section 6) and the end reason is inferred (fen.c). */
int fen_parse(Position *p, const Variant *v, const char *fen, char *err, size_t errlen);

/* Whether p, read from a FEN with `-` to move, is over for no reason a game
 * can have: nothing in it ends the game (no placement, the round limit not
 * reached, a seat able to move), so fen_parse takes it as a repetition, yet
 * no seat has made the four moves a third occurrence takes. A referee's
 * record of a forfeit reads so (its places carry no suffix); the protocol
 * refuses such a position, which no game reaches (the start with `-`). */
bool fen_end_unexplained(const Position *p);

/* Writes the FEN of p into buf (FEN_MAX bytes). Returns buf. */
char *fen_write(const Position *p, char *buf);

#endif
