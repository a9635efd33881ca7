/*
 * nnue.h - a learned evaluation whose first layer is updated as moves are made
 * (an efficiently updatable network, NNUE: Nasu 2018; the layout of the
 * chess engines' nets, described in nnue-pytorch's docs/nnue.md). docs/NNUE.md
 * has the design, the file formats, the training recipe and the measurements.
 *
 * Inputs, from one seat's view (its perspective): for every marble on the
 * board, the plane of its seat (0: the perspective's own; then the other
 * seats of the variant in turn order after it) times 121 plus the hole,
 * turned so that the perspective's home is the south point (nnue_hole).
 * First layer: L1 int16 sums per perspective (the accumulator), clipped to
 * 0-127. Beside the layers, a linear path (Stockfish's PSQT outputs): an
 * int32 weight per input summed per view, so the part of the value that is a
 * sum over marbles (their distance to go) need not pass through the clipped
 * units. Every step is integer arithmetic, so the SIMD and plain C paths and
 * the trainer's integer forward pass (tools/nnue/nnue_model.py) agree exactly.
 *
 * Two kinds of net (the file's format version):
 *   - version 1, two seats (nnue_output): the side to move's half then the
 *     other's feed L2 int8 weights, a clipped ReLU, and one int16-weighted
 *     output; half the difference of the two views' linear sums is added. The
 *     value is the side to move's.
 *   - version 2, three to six seats (nnue_standings): each seat's own view
 *     alone feeds the layers of a bucket chosen by the plies until that seat
 *     moves, and its own linear sum is added: every seat in play gets its
 *     standing (higher is better), as the search of three or more seats
 *     compares them (places.h).
 */
#ifndef STERN_NNUE_H
#define STERN_NNUE_H

#include "position.h"

#include <stddef.h>
#include <stdint.h>

#define NNUE_MAGIC "STERNNUE"
#define NNUE_VERSION 1       /* two seats: the side to move's value */
#define NNUE_VERSION_MULTI 2 /* three to six seats: every seat's standing */
#define NNUE_MAX_L1 512
#define NNUE_MAX_L2 64
#define NNUE_FAMILIES 64 /* bytes of the header's variant list */
#define NNUE_MAX_SCALE 100000 /* largest output scale a file may give (cp) */
#define NNUE_SEAT_MARBLES 15  /* marbles a seat has at most (fifteen-2) */
#define NNUE_MAX_ACTIVE 30    /* inputs active in one view of a version-1 net at most (two seats of 15); a
                                 version-2 net of N seats: N x NNUE_SEAT_MARBLES */
#define NNUE_VALUE_MAX 28999  /* |value| at most: below the search's mate scores */
/* Quantisation (the file holds integers; the trainer's floats times these):
 * first layer x127 (a clipped unit is 0-127), second layer weights x64,
 * output weights x256; the output is cp = sum * out_scale / (127 * 256). */
#define NNUE_QA 127
#define NNUE_QB 64
#define NNUE_QO 256

typedef struct Nnue Nnue;

/* The ways to the first layer's sums and the output: plain C, SSSE3 (16 bytes an instruction), AVX2
 * (32). On x86-64 the SIMD paths are built whatever -march says and the
 * fastest the CPU has is chosen when the engine runs. All give the same
 * integers. In order of speed. */
typedef enum { NNUE_SCALAR, NNUE_SSSE3, NNUE_AVX2 } NnuePath;

/* The first layer's sums for the seats of a position: v[i] from the view of
 * the variant's i-th seat (in turn order), for i below its number of seats
 * (the rest untouched); bb[i] the marbles of that seat they were summed from;
 * valid false until filled. 64-byte aligned for the SIMD path. */
typedef struct {
    _Alignas(64) int16_t v[MAX_SEATS][NNUE_MAX_L1];
    int32_t lin[MAX_SEATS];   /* the linear path's sums of each view */
    Bitboard bb[MAX_SEATS];
    const Nnue *net;
    const Variant *variant;   /* the rules the views were taken under */
    bool valid;
} NnueAcc;

/* The largest net file read, in bytes: far above any net's size (NNUE_MAX_L1
 * units on six planes of 121 holes take under 1 MiB), so that a huge file is
 * refused before all of it is in memory. */
#define NNUE_FILE_MAX ((size_t)64 << 20)

/* The net in the `n` bytes of a net file (copied; read them with
 * datafile_read, engine/book/datafile.h, which never waits on a FIFO). NULL
 * with a reason in err (errlen bytes; e.g. "not a Stern net", "truncated: 1000
 * of 71234 bytes", "checksum mismatch") when they are not a whole, intact net,
 * or when its weights could take a sum out of its integer type (the trainer
 * keeps them where they cannot). */
Nnue *nnue_from_bytes(const void *bytes, size_t n, char *err, size_t errlen);

/* Frees a net (NULL is ignored). */
void nnue_delete(Nnue *net);

/* Whether net evaluates positions of variant v: v is named in the net's
 * header, has as many seats as the net has planes, and is a race (no capture
 * mode); a version-1 net two seats, a version-2 net three to six without
 * teams. */
bool nnue_serves(const Nnue *net, const Variant *v);

/* Whether net is a version-2 net (every seat's standing: nnue_standings)
 * rather than a two-seat one (nnue_output). */
bool nnue_is_multi(const Nnue *net);

/* The net's header list of variants ("classic-2,ccerl-2"). */
const char *nnue_variants(const Nnue *net);

/* The hole (0-120) that hole h is from seat s's view: the board turned so
 * that s's home is the south point (s = 0 leaves it as it is). */
int nnue_hole(int s, int h);

/* Input index of a marble of seat `owner` on hole h from seat `view`'s view,
 * in variant v: plane * 121 + nnue_hole(view, h). */
int nnue_feature(const Variant *v, int view, int owner, int h);

/* Fills acc from scratch for p (a position of a variant net serves): one view
 * per seat of its variant. */
void nnue_refresh(const Nnue *net, const Position *p, NnueAcc *acc);

/* Fills acc for p from `from` (valid, for another position of the same
 * variant) by adding and taking away the marbles that differ: a move costs
 * two holes per perspective, one perspective per seat. */
void nnue_update(const Nnue *net, const NnueAcc *from, const Position *p, NnueAcc *acc);

/* nnue_refresh and nnue_update by the first layer's `path` (NnuePath below;
 * one not available falls back to plain C): for tests, which compare them.
 * The two above take the fastest path the CPU had when the net was read. */
void nnue_refresh_path(const Nnue *net, const Position *p, NnueAcc *acc, NnuePath path);
void nnue_update_path(const Nnue *net, const NnueAcc *from, const Position *p, NnueAcc *acc, NnuePath path);

/* Makes acc hold p's sums the cheapest way: kept when it already holds them,
 * updated from acc itself or from `near` (a valid accumulator of a nearby
 * position, e.g. the parent's; NULL: none) when few marbles differ, else
 * refreshed. */
void nnue_ensure(const Nnue *net, const Position *p, NnueAcc *acc, const NnueAcc *near);

/* The net's value of p (acc holding p's sums) for the side to move, in
 * centi-moves within +-NNUE_VALUE_MAX, by the fastest path this build and
 * CPU have (nnue_path_best). A version-2 net: the side to move's standing
 * (nnue_standings). */
int nnue_output(const Nnue *net, const NnueAcc *acc, const Position *p);

/* The same by `path` (a path not available falls back to plain C), and the
 * plain C path itself: for tests, which compare them. */
int nnue_output_path(const Nnue *net, const NnueAcc *acc, const Position *p, NnuePath path);
int nnue_output_scalar(const Nnue *net, const NnueAcc *acc, const Position *p);

/* The standing of every seat s in play of p (acc holding p's sums) by a
 * version-2 net, into out[s], higher is better, in centi-moves within
 * +-NNUE_VALUE_MAX; out[] of seats not in play 0. Seat s's own view feeds the
 * layers of bucket k, the plies until s moves ((slot of s - slot of the side
 * to move) mod seats; 0 for the side to move; a finished game counts from the
 * first seat). By the fastest path (nnue_path_best). A version-1 net gives
 * the side to move its value and the other seat the negation. */
void nnue_standings(const Nnue *net, const NnueAcc *acc, const Position *p, int out[MAX_SEATS]);

/* The same by `path` (a path not available falls back to plain C): for
 * tests, which compare them. */
void nnue_standings_path(const Nnue *net, const NnueAcc *acc, const Position *p, int out[MAX_SEATS], NnuePath path);

/* Whether `path` runs as itself in this build on this CPU. */
bool nnue_path_available(NnuePath path);

/* The path nnue_output and nnue_standings take: the fastest available. */
NnuePath nnue_path_best(void);

#endif
