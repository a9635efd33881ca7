/*
 * arena_table.h - finished games rated and printed as tables (RULES.md section
 * 10), from their records. The arena builds its final table with this from the
 * records it wrote and `stern-arena -ratings FILE...` from any record files, so
 * both print the same table for the same games.
 *
 * Games are grouped by variant, one table per variant (team variants are thus on
 * a scale of their own). Within a table the games are taken in the order of their
 * game number (the Round tag), then file, so that the shards of a tournament
 * merge into the table of the whole; players are numbered by name. With two units
 * and two players: a match report (W-D-L, Elo with its 95% interval, LOS, draw
 * rate, pentanomial counts of the game pairs and the Elo from them, and the SPRT
 * when asked). A player alone (one engine against itself): its games decisive
 * and drawn, and the places by seat, as nothing rates it. Otherwise: ratings
 * from places (ratings_fit, bootstrap intervals),
 * plus, with two units, the result of every pair of players that met. Players of
 * a variant that fall into groups that never met (ratings_groups) are not put on
 * one scale: a warning line names the groups and each gets a table of its own.
 * A table's header counts each game once, as its rows do.
 *
 * Game pairs: with two units, games 2k-1 and 2k (Round numbers) of the same file
 * are the two games of one opening with seats swapped, as the arena numbers them.
 */
#ifndef STERN_ARENA_TABLE_H
#define STERN_ARENA_TABLE_H

#include "elo.h"
#include "pgn_read.h"
#include "ratings.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct TableGame {
    long number; /* the Round tag as a number, 0 when it is not one */
    int file;    /* index of the record file */
    int group;   /* index of its variant in the table's groups */
    RatedGame g; /* player[] indexes the table's names */
} TableGame;

typedef struct ArenaTable {
    char **names;            /* players (units' names), as first met */
    int nnames, names_cap;
    char (*groups)[32];      /* variant names, as first met */
    int ngroups;
    TableGame *games;
    long n, cap;
} ArenaTable;

typedef struct TableOptions {
    int bootstrap;            /* resamples for the intervals (RATINGS_BOOTSTRAP_DEFAULT) */
    unsigned seed;            /* of the bootstrap */
    bool sprt;                /* print the SPRT of a two-player match */
    double elo0, elo1, alpha, beta;
} TableOptions;

/* An empty table. */
void arena_table_init(ArenaTable *t);

void arena_table_free(ArenaTable *t);

/* Adds record g of file `file` (an index >= 0). Returns 0; 1 when the game has no
 * outcome to rate (unfinished), which is left out; -1 with the reason in err (n
 * bytes) when the record is malformed (see pgn_rated_game) or memory runs out. */
int arena_table_add(ArenaTable *t, const PgnGame *g, int file, char *err, size_t n);

/* Adds every complete game of the record file `path` as file index `file`;
 * incomplete games are counted in *incomplete, unrated ones in *unrated (either
 * may be NULL). Returns 0, or -1 with the reason in err. */
int arena_table_add_file(ArenaTable *t, const char *path, int file, int *incomplete, int *unrated, char *err, size_t n);

/* Prints the table of every variant to out (of every group of its players that
 * never met the others, after a warning line naming them). Returns 0, or -1 when
 * the ratings could not be computed (out of memory). */
int arena_table_print(FILE *out, ArenaTable *t, const TableOptions *o);

/* The match of the table when it is one: a single variant of two units whose
 * games are all between the same two players. *first is the first engine of
 * the schedule (the first unit's player in the lowest odd-numbered game: a
 * pair's first game seats the engines in -engine order; without numbers, the
 * first met), *second the other (names owned by t); the first's game pairs
 * (games 2k-1 and 2k of one file, both recorded: a pair missing a game is not
 * counted) in *p and its wins, draws and losses in *w. Returns 0, or -1 when the table is no
 * such match (or memory runs out). */
int arena_table_match(const ArenaTable *t, Pentanomial *p, Wdl *w, const char **first, const char **second);

/* An Elo value as text into buf (n bytes): "+12.3", "+0.0" (never "-0.0"),
 * "+inf", "-inf". Returns buf. */
const char *arena_table_elo_text(double x, char *buf, size_t n);

/* An Elo estimate and its 95% interval [low, high] as text into buf (n bytes), the
 * one form of the tables and the progress line. The interval of a score turned
 * into Elo is not symmetric about the estimate, so a "+/-" figure would disagree
 * with it: "+/- H" is printed only when the two ends lie equally far from the
 * estimate to within 0.05 Elo (large samples), H being the interval's half-width,
 * "+12.3 +/- 45.6 [-33.3, +57.9]"; otherwise the interval alone,
 * "-120.4 [-575.5, +93.6]", as also when a value is infinite ("+inf [+inf, +inf]").
 * Returns buf. */
const char *arena_table_elo_interval_text(double elo, double low, double high, char *buf, size_t n);

#endif
