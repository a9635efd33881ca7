/*
 * records.h - stern-datagen's file format (docs/NNUE.md, "Training data"):
 * the header, the records of two seats (format 1) and of three to six
 * (formats 2 and 3), and the header's identity of the engine and the net that played
 * the games. Little-endian throughout.
 *
 * Header (1024 bytes): "STERNDAT", u32 version, u32 record bytes, the variant
 * (24 bytes, NUL-padded), u64 seed, u32 nodes per move, u32 random plies, u64
 * games written, u64 records, u64 XXH3-64 of the record bytes, the seat count
 * (u8) and the seats in turn order (6 bytes), u32 shard and u32 shards at 88
 * (0 and 1: not sharded), u64 games of the whole run at 96, the teacher at
 * 104 (u8: 0 the hand-written standings, 1 the net's; -teacher), zeros to 128, the
 * board from each seat's view (6 x 121 bytes: nnue_hole(s, h)), zeros, then at
 * 864 the engine that played (64 bytes, NUL-padded: "stern-datagen exe
 * <XXH3-64 of the executable>") and at 928 its net (96 bytes: "none", or the
 * net file's name and "xxh3 <XXH3-64 of its bytes>").
 *
 * Format 1 record (64 bytes): holes 0-120 as 4-bit cells, two to a byte, the
 * even hole in the low nibble (0 empty, seat + 1); a byte with the side to
 * move (low 4 bits) and its outcome (high 4 bits: 0 loss, 1 draw, 2 win); the
 * search's score, int16, the side to move's view in centi-moves.
 *
 * Format 2 record (88 bytes): the cells (61 bytes); the side to move (byte
 * 61); the search's score of the side to move (int16 at 62, the search's
 * units: places.h); each seat slot's final place (4 bits a slot at 64-66, slot
 * i in byte 64 + i/2, the low nibble first; 1 is first); at 67 a bit a slot
 * that has arrived (placed) in this position; each slot's hand-written
 * standing (int16 x 6 at 68, eval_standings' own, cp); the game's number in
 * the whole run (u32 at 80); its ply (u16 at 84); zeros to 88.
 *
 * Format 3 record (100 bytes, three to six seats, written since format 2):
 * format 2's 88 bytes, but at 86 the plies of the search's line played to
 * reach its leaf (u8; 87 stays zero), then at 88 each slot's hand-written
 * standing at that leaf (int16 x 6, as at 68): the search's whole line (of
 * the last line it reported; each move by its own seat, see
 * records_line_leaf) played from the position while no seat arrives and the
 * game goes on. These are the
 * standings the search's value came from, the deeper teacher, as a two-seat
 * record's score is the search's and not the static evaluation's.
 */
#ifndef STERN_DATAGEN_RECORDS_H
#define STERN_DATAGEN_RECORDS_H

#include "eval.h"
#include "position.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECORDS_HEADER 1024
#define RECORDS_V1 64 /* bytes of a format-1 record */
#define RECORDS_V2 88 /* bytes of a format-2 record */
#define RECORDS_V3 100 /* bytes of a format-3 record */
#define RECORDS_ID_MAX 96

/* What a data file's header says. */
typedef struct {
    int version, record;         /* 1 and 64, 2 and 88, or 3 and 100 */
    const Variant *v;
    uint64_t seed;
    long long nodes, random;
    long long written;           /* games written to the file */
    uint64_t records, checksum;
    long long shard, shards;     /* this file plays games g with g % shards == shard */
    long long games;             /* games of the whole run, every shard's */
    char engine[64];             /* the engine that played them */
    char net[RECORDS_ID_MAX];    /* its net, "none" for the hand-written evaluation */
    int teacher;                 /* whose standings the records hold: RECORDS_TEACHER_HAND or _NET */
} RecordsHeader;

#define RECORDS_TEACHER_HAND 0 /* the hand-written evaluation's standings (eval_standings) */
#define RECORDS_TEACHER_NET 1  /* the standings of the net that played (-teacher net) */

/* The format variant v is written in: 1 for two seats, 3 for three to six. */
int records_version(const Variant *v);

/* Writes header h into b (RECORDS_HEADER bytes). */
void records_header_write(const RecordsHeader *h, uint8_t *b);

/* Reads b (RECORDS_HEADER bytes) into *h. False, with why in err (errlen
 * bytes), when it is no stern-datagen header or names an unknown variant. */
bool records_header_read(const uint8_t *b, RecordsHeader *h, char *err, size_t errlen);

/* The games of the whole run that shard `shard` of h plays. */
long long records_shard_games(const RecordsHeader *h);

/* The `index`-th game (from 0) shard h->shard plays: its number in the run. */
long long records_game_number(const RecordsHeader *h, long long index);

/* The engine's identity: "stern-datagen exe <XXH3-64 of /proc/self/exe>". */
void records_engine_id(char id[64]);

/* A format-1 record of p with the search's score (side to move's view). */
void records_encode_v1(const Position *p, int score, uint8_t *rec);

/* The leaf of the search's whole line pv[0..pvlen) from p (SearchReport's
 * linelen moves): each move played by the seat whose marble it moves, that
 * seat handed the turn first when it is not next (a best-reply line: an
 * opponent's reply, then the root seat again; capture mode: by the side to
 * move), while each move is legal, the game goes on and no seat arrives;
 * into *leaf. Returns the plies played (0: leaf is p). */
int records_line_leaf(const Position *p, const Move *pv, int pvlen, Position *leaf);

/* A format-3 record of p, game `game` at `ply`, with the search's score of the
 * side to move and the leaf of its line (records_line_leaf, `depth` plies
 * from p); the places are filled in when the game ends (records_set_places).
 * The standings at p and at the leaf are those eval_standings gives with
 * `teacher`: NULL the hand-written ones, a memo with a version-2 net
 * (eval_memo_set_net) the net's. */
void records_encode_v3(const Position *p, int score, const Position *leaf, int depth, long long game, int ply,
                       EvalMemo *teacher, uint8_t *rec);

/* Fills the final places of the finished position `end` into a format-2 or
 * format-3 record. */
void records_set_places(const Position *end, uint8_t *rec);

/* The game number of a format-2 or format-3 record. */
long long records_game_of(const uint8_t *rec);

#endif
