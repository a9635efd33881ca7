/*
 * schedule.h - which engines play which game of a tournament, at which
 * seats, from which opening; and which games a shard of it plays.
 *
 * A game has `nunits` units to fill: its seats, or its teams in a team variant
 * (both seats of a team go to the same engine). An *encounter* is the engines of
 * one game in unit order: in a round robin every combination of `nunits` engines
 * (lexicographic order), in a gauntlet engine 0 with every combination of the
 * others; with fewer engines than units, one encounter fills unit i with engine
 * i mod nengines. A *rotation* r seats the encounter cyclically shifted: unit i
 * gets encounter[(i + r) mod nunits]; the rotations of an encounter are its
 * distinct shifts (nunits of them when its engines differ; two seats: colours
 * swapped). A *set* is one opening played in every rotation: the games of a set
 * are consecutive, and with two seats a set is the game pair of pentanomial
 * statistics.
 *
 * Games are numbered from 1 in this order: round by round; within a round,
 * encounter by encounter; within an encounter, `games` games = games/rotations
 * sets. So game numbers, sets and openings of the games already played stay the
 * same when a tournament is resumed with more rounds. All encounters of a round
 * play the same openings: opening index (in play order) = round x sets per round
 * + set within the encounter's round.
 *
 * Shard i of n plays the sets whose number is i-1 modulo n: the schedule is split
 * deterministically, whole sets stay together, and the shards' records merge into
 * the whole tournament.
 */
#ifndef STERN_SCHEDULE_H
#define STERN_SCHEDULE_H

#include "variant.h"

#include <stdbool.h>
#include <stddef.h>

#define SCHEDULE_MAX_ENGINES 64
#define SCHEDULE_MAX_GAMES 100000000L /* a tournament larger than this is surely a mistake */

typedef enum { SCHEDULE_ROUND_ROBIN, SCHEDULE_GAUNTLET } ScheduleKind;

typedef struct Schedule {
    int nengines, nunits;
    ScheduleKind kind;
    int rounds;         /* >= 1 */
    int games;          /* games per encounter per round, a multiple of rotations */
    int rotations;      /* distinct seat rotations of an encounter */
    long nencounters;
    int (*encounter)[MAX_SEATS]; /* nencounters x nunits engine indices */
    long total;         /* games in the whole tournament */
    int shard, nshards; /* this run plays shard `shard` (1..nshards) */
} Schedule;

/* One game of the schedule. */
typedef struct ScheduledGame {
    long number;             /* 1..total */
    int round;               /* from 0 */
    long encounter;          /* index into encounter[] */
    int rotation;            /* 0..rotations-1 */
    long set;                /* from 0: the opening's set (the pair id with two seats) */
    long opening;            /* index of its opening in play order, from 0 (not wrapped) */
    int engine[MAX_SEATS];   /* engine of each unit (0..nunits-1), rotation applied */
} ScheduledGame;

/* Builds the schedule of `nengines` engines (1..SCHEDULE_MAX_ENGINES) for games of
 * `nunits` units (2..6): `rounds` rounds of `games` games per encounter (0: one set,
 * i.e. `rotations` games), all of shard `shard` of `nshards` (1 of 1: the whole
 * tournament). Returns 0, or -1 with the reason in err (n bytes): a gauntlet needs
 * more engines than one and at least nunits; games must be a multiple of the
 * rotations; the whole must not exceed SCHEDULE_MAX_GAMES. Free with
 * schedule_free. */
int schedule_init(Schedule *s, int nengines, int nunits, ScheduleKind kind, int rounds, int games, int shard,
                  int nshards, char *err, size_t n);

/* As schedule_init, for one encounter in which engine i fills seats[i] units
 * (each 1..nunits, adding up to nunits) in engine order: one engine against
 * several copies of another without renaming them, e.g. {1, 5} in a six-seat
 * game. The rotations seat every engine at every unit. Returns 0, or -1 with
 * the reason in err. */
int schedule_init_seats(Schedule *s, int nengines, int nunits, const int seats[], int rounds, int games, int shard,
                        int nshards, char *err, size_t n);

void schedule_free(Schedule *s);

/* Fills *out for game `number` (1..s->total). */
void schedule_game(const Schedule *s, long number, ScheduledGame *out);

/* The shard (1..nshards) that plays game `number` of a schedule whose sets hold
 * `per_set` games (its rotations) when it is cut into `nshards` shards. */
int schedule_shard_of(long number, long per_set, int nshards);

/* Whether game `number` belongs to the schedule's shard. */
bool schedule_in_shard(const Schedule *s, long number);

/* Games of the schedule's shard. */
long schedule_shard_games(const Schedule *s);

#endif
