/*
 * moves.h - the commands that list the moves of the current game
 * (PROTOCOL.md): `legalmoves`, every legal move in print order on one line,
 * and `perft <depth>`, the leaf count at depth plies under each move and in
 * all. Both run on the job thread (job.h) and honour stop; a stopped perft
 * ends with "Nodes searched: N (stopped)".
 */
#ifndef STERN_MOVES_H
#define STERN_MOVES_H

#include "words.h"

typedef struct Front Front;

/* `legalmoves`: refused while an infinite or ponder search runs. */
void moves_legal(Front *fe);

/* `perft <depth 1-20>`, tk the line's tokens: a malformed depth is said and
 * nothing runs. */
void moves_perft(Front *fe, const Tokens *tk);

#endif
