/*
 * arena_merge.h - the record files of a tournament's shards checked and put
 * back together into the tournament (tools/ARENA.md "Scaling out").
 *
 * Every record the arena writes names its schedule with three tags besides
 * Round (its game number): Schedule, a fingerprint of what decides the games
 * (variant, engines with their names, limits and options, tournament kind,
 * games per encounter, seats and the first openings); ScheduleGames, the games
 * of the whole tournament; ScheduleSets, its opening sets. A sharded run adds
 * Shard "I/N". Shard I of N plays the sets whose number is I-1 modulo N
 * (schedule.h), so from these tags alone a merge knows which games
 * exist, which shard owes each one, and whether two records are the same game.
 *
 * A merge accepts records of one schedule only, each game at most once; it
 * lists the games still missing by the shard that owes them, so that one
 * shard can be run again (its -resume keeps what it finished). The table of
 * the merged records is the one-machine run's: tables take games in the order
 * of their number (arena_table.h).
 */
#ifndef STERN_ARENA_MERGE_H
#define STERN_ARENA_MERGE_H

#include "arena_table.h"

#include <stdio.h>

#define MERGE_ID_LEN 16     /* hex digits of a schedule's fingerprint */
#define MERGE_MAX_RANGES 20 /* missing games listed per shard, as ranges */

/* What the records of the files say about their schedule. */
typedef struct MergeResult {
    char schedule[MERGE_ID_LEN + 1]; /* the fingerprint, "" when no record had one */
    long total;                      /* games of the whole tournament (largest ScheduleGames: a
                                        tournament resumed with more rounds keeps its numbers) */
    long sets;                       /* its opening sets, as total */
    int nshards;                     /* N of the records' Shard tags; 1 without */
    long recorded;                   /* distinct games recorded */
    long missing;                    /* total - recorded */
    long incomplete;                 /* games cut short at a file's end (left out) */
    unsigned char *have;             /* bit per game number 1..total: recorded */
} MergeResult;

/* Reads the complete records of files[0..nfiles-1] into table t (file index i)
 * and checks that they are games of one schedule, each once. When `out` is not
 * NULL the records are copied to it byte for byte in the order of their game
 * number. Returns 0 with *res filled (res->missing may be > 0), or -1 with the
 * reason in err (n bytes), naming the file and line: a file that cannot be read
 * or is not a record file; a record without a Schedule tag or with bad schedule
 * tags; records of two schedules; a game recorded twice (a shard merged twice);
 * a game outside its Shard. */
int arena_merge_records(const char *const *files, int nfiles, ArenaTable *t, FILE *out, MergeResult *res, char *err,
                        size_t n);

/* Frees what arena_merge_records allocated in *res. */
void arena_merge_result_free(MergeResult *res);

/* Writes to f the games of the schedule that no file holds, one line per shard
 * that owes some: "shard I/N: K games missing: 5-6, 13-14, ..." (at most
 * MERGE_MAX_RANGES ranges, then "..."). Returns the number of games missing, 0
 * when the schedule is complete. */
long arena_merge_print_missing(FILE *f, const MergeResult *res);

#endif
