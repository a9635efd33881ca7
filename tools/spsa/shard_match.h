/*
 * shard_match.h - one arena match split into shards, each run through a
 * command template, that survives a lost shard: stern-spsa's iteration on a
 * cluster (each shard an srun job step) or on one machine.
 *
 * Shard I of N runs the match's arena command line with -shard I/N -pgnout
 * PREFIX-I.pgn, shell-quoted into the template's {cmd}. A shard has finished
 * when its command exited 0 and its record holds every game the shard plans.
 * One that has not (an exit status other than 0, a signal, a missing or
 * partial record) runs once more with -resume, which keeps its finished games;
 * one that fails again is lost: a message on stderr names it, its status and
 * its log, and the match goes on with the other shards' games.
 */
#ifndef STERN_SHARD_MATCH_H
#define STERN_SHARD_MATCH_H

#include <stdbool.h>

#define SHARD_MATCH_MAX 256 /* shards of one match */

typedef struct ShardMatch {
    const char *tool;          /* the program named in messages */
    const char *const *argv;   /* the arena command line of the whole match */
    int argc;
    const char *run;           /* the template: {cmd}, and {shard}, {shards}, {iteration} */
    int shards;                /* 1..SHARD_MATCH_MAX */
    int iteration;             /* for {iteration} and messages */
    const char *prefix;        /* shard I writes PREFIX-I.pgn and logs to PREFIX-I.log */
    const long *planned;       /* games of each shard, shards of them */
} ShardMatch;

/* Plays match m: removes the shards' old records and logs, runs every shard at
 * once through the template, runs the failed ones once more with -resume, and
 * waits for all. finished[i] (m->shards of them) says whether shard i+1
 * finished. Returns the games of the finished shards (0 when none finished),
 * or -1 with a message when a command line would not fit. */
long shard_match_play(const ShardMatch *m, bool *finished);

#endif
