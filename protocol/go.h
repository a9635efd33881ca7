/*
 * go.h - the commands that ask for a search (PROTOCOL.md): `position`, the
 * game it starts from, and `go`, its limits; `go` may answer from the
 * engine's own book (ownbook.h).
 */
#ifndef STERN_GO_H
#define STERN_GO_H

#include "words.h"

typedef struct Front Front;

/* `position startpos|fen <fen>|cells <cells> player <p> ply <n> [moves ...]`,
 * tk the line's tokens: the engine's game becomes the one given, its moves plain or
 * PGN movetext (CCP: cell-id paths). A bad position or move is said
 * ("info string error position: ...") and the game stays as it was; refused
 * while an infinite or ponder search runs (job_refuse_if_busy). */
void go_position(Front *fe, const Tokens *tk);

/* `go [field value ...]`, tk the line's tokens: starts the search on the job
 * thread, which answers with bestmove. A field that cannot be used is said
 * ("info string error go: ...") and left out; a keyword's value is the next
 * token unless that is a keyword itself. A go left without a limit by its bad
 * fields searches a second. With OwnBook, a timed go in a book position plays
 * the book's move (after a one-ply search of it alone, for its score). */
void go_command(Front *fe, const Tokens *tk);

#endif
