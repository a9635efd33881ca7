/*
 * position.h - a game position and the rules that act after a move
 * (RULES.md sections 5 and 6): deadline and return-home elimination, arrival,
 * places, the two-player reply rule, skipped seats, the round limit, the end of
 * the game and the ranking of unplaced seats. Repetition needs the game's history
 * and lives in game.h. The types are in types.h.
 */
#ifndef STERN_POSITION_H
#define STERN_POSITION_H

#include "types.h"
#include "zobrist.h"

/* Sets *p to the start position of variant v (which must outlive *p). */
void pos_set_start(Position *p, const Variant *v);

/* Plays move m (legal in p; see movegen.h) on p and applies every rule that acts
 * after a move, except repetition (game.h): RULES.md section 6 "order of checks".
 * When the game ends, p->stm becomes -1 and p->reason says why. */
void pos_play(Position *p, const Move *m);

/* Whether seat s (0-5, in play) has at least one legal move in p, as if it were
 * its turn. */
bool pos_has_move(const Position *p, int s);

/* Ends the game in p for `reason` and ranks the unplaced seats (teams) into the
 * free places: more marbles in target first, then the smaller summed distance to
 * the target; equal seats share a place (competition numbering). In capture mode
 * places go by captures. */
void pos_finish(Position *p, EndReason reason);

/* Sum over seat s's marbles outside its target of the hex distance to the nearest
 * hole of the target, in steps (RULES.md section 6 ranking tie-break). */
int pos_target_distance(const Position *p, int s);

/* Hands the turn to seat s (0-5, in play and playing) without playing a move,
 * keeping the key right. Used by searches that reorder turns (best-reply search);
 * not a move of the rules. */
void pos_set_stm(Position *p, int s);

/* The Zobrist key of p after seat `mover` plays m, when m is a plain move:
 * no swap, nothing captured, no seat's status changed by it, and the turn
 * passing to the seat after mover in the order of play. True of nearly every
 * move; for other moves it is a guess (the search prefetches the child's
 * table bucket by it before the child is made). */
static inline uint64_t pos_key_after_plain(const Position *p, int mover, const Move *m)
{
    const Variant *v = p->v;
    const int slot = v->slot[mover] + 1;
    return p->key ^ zobrist.piece[mover + 1][m->from] ^ zobrist.piece[mover + 1][m->to] ^ zobrist.stm[p->stm] ^
           zobrist.stm[v->seats[slot < v->nseats ? slot : 0]];
}

/* Recomputes p->key, p->occ and p->board from the other fields (after a FEN load). */
void pos_refresh(Position *p);

/* Whether seat s has arrived in p after `moves_made` own moves (RULES.md section
 * 6): all its marbles in its target, or - from its exit deadline on (from the
 * start in ccerl-2) - every target hole full with at least one of its own. Used after every move and by the race
 * solver, which counts moves it has not played on p. */
static inline bool pos_arrived(const Position *p, int s, int moves_made)
{
    const Bitboard own = p->seat_bb[s], target = p->v->target[s];
    if (!(own & ~target))
        return true;
    return moves_made >= p->v->full_target_from && (p->occ & target) == target && (own & target);
}

/* ccerl-2: the rating list's end checks on p as it stands, before its side to
 * move moves (a position loaded from a FEN or CCP cells may already be over):
 * both armies home, an arrival (white's with the draw rule when black is to
 * move), a full target. Ends the game and returns true when one holds; false
 * (p unchanged) otherwise, or in another variant. */
bool pos_ccerl_end_checks(Position *p);

/* Name of an end reason as the `result` command prints it ("arrived", ...). */
const char *pos_reason_name(EndReason r);


#endif
