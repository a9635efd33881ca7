/* schedule.c - tournament schedules and shards; see schedule.h. */
#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Number of k-combinations of n things, or -1 when above `cap`. */
static long combinations(int n, int k, long cap)
{
    if (k < 0 || k > n)
        return 0;
    long c = 1;
    for (int i = 1; i <= k; i++) {
        c = c * (n - k + i) / i; /* exact: c * (n-k+i) is C(n-k+i, i) * i */
        if (c > cap)
            return -1;
    }
    return c;
}

/* Writes every k-combination of first..first+n-1 (lexicographic) after `prefix`
 * fixed engines into enc; returns how many. */
static long list_combinations(int (*enc)[MAX_SEATS], int prefix, int first, int n, int k)
{
    int c[MAX_SEATS];
    for (int i = 0; i < k; i++)
        c[i] = i;
    long count = 0;
    for (;;) {
        for (int i = 0; i < prefix; i++)
            enc[count][i] = i;
        for (int i = 0; i < k; i++)
            enc[count][prefix + i] = first + c[i];
        count++;
        int i = k - 1;
        while (i >= 0 && c[i] == n - k + i)
            i--;
        if (i < 0)
            return count;
        c[i]++;
        for (int j = i + 1; j < k; j++)
            c[j] = c[j - 1] + 1;
    }
}

/* The number of distinct cyclic shifts of the nunits engines in e. */
static int distinct_rotations(const int e[MAX_SEATS], int nunits)
{
    for (int p = 1; p < nunits; p++) {
        if (nunits % p)
            continue;
        bool same = true;
        for (int i = 0; i < nunits && same; i++)
            same = e[(i + p) % nunits] == e[i];
        if (same)
            return p;
    }
    return nunits;
}

/* Whether the sizes are out of range (then with the reason in err). */
static bool out_of_range(int nengines, int nunits, int rounds, int games, int shard, int nshards, char *err,
                         size_t n)
{
    if (nengines < 1 || nengines > SCHEDULE_MAX_ENGINES || nunits < 2 || nunits > MAX_SEATS || rounds < 1 ||
        games < 0 || nshards < 1 || shard < 1 || shard > nshards) {
        snprintf(err, n, "schedule: argument out of range");
        return true;
    }
    return false;
}

/* The rest of schedule_init once s->encounter and s->nencounters are set. */
static int finish_init(Schedule *s, int nengines, int nunits, ScheduleKind kind, int rounds, int games, int shard,
                       int nshards, char *err, size_t n)
{
    s->nengines = nengines;
    s->nunits = nunits;
    s->kind = kind;
    s->rounds = rounds;
    s->rotations = distinct_rotations(s->encounter[0], nunits);
    s->games = games ? games : s->rotations;
    s->shard = shard;
    s->nshards = nshards;
    if (s->games % s->rotations) {
        snprintf(err, n, "-games must be a multiple of %d: each opening is played in all %d seat rotations",
                 s->rotations, s->rotations);
        schedule_free(s);
        return -1;
    }
    if ((double)s->nencounters * s->games * rounds > (double)SCHEDULE_MAX_GAMES) {
        snprintf(err, n, "more than %ld games", SCHEDULE_MAX_GAMES);
        schedule_free(s);
        return -1;
    }
    s->total = s->nencounters * s->games * rounds;
    return 0;
}

int schedule_init(Schedule *s, int nengines, int nunits, ScheduleKind kind, int rounds, int games, int shard,
                  int nshards, char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    if (out_of_range(nengines, nunits, rounds, games, shard, nshards, err, n))
        return -1;
    if (kind == SCHEDULE_GAUNTLET && (nengines < 2 || nengines < nunits)) {
        snprintf(err, n, "a gauntlet needs at least 2 engines and one per unit (%d)", nunits);
        return -1;
    }
    const long many = kind == SCHEDULE_GAUNTLET ? combinations(nengines - 1, nunits - 1, SCHEDULE_MAX_GAMES)
                      : nengines >= nunits      ? combinations(nengines, nunits, SCHEDULE_MAX_GAMES)
                                                : 1;
    if (many < 0) {
        snprintf(err, n, "too many engine combinations");
        return -1;
    }
    s->encounter = malloc((size_t)many * sizeof *s->encounter);
    if (!s->encounter) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    if (kind == SCHEDULE_GAUNTLET)
        s->nencounters = list_combinations(s->encounter, 1, 1, nengines - 1, nunits - 1);
    else if (nengines >= nunits)
        s->nencounters = list_combinations(s->encounter, 0, 0, nengines, nunits);
    else {
        for (int i = 0; i < nunits; i++)
            s->encounter[0][i] = i % nengines;
        s->nencounters = 1;
    }
    return finish_init(s, nengines, nunits, kind, rounds, games, shard, nshards, err, n);
}

int schedule_init_seats(Schedule *s, int nengines, int nunits, const int seats[], int rounds, int games, int shard,
                        int nshards, char *err, size_t n)
{
    memset(s, 0, sizeof *s);
    if (out_of_range(nengines, nunits, rounds, games, shard, nshards, err, n))
        return -1;
    int total = 0;
    for (int i = 0; i < nengines; i++) {
        if (seats[i] < 1 || seats[i] > nunits) {
            snprintf(err, n, "engine %d: seats=%d: 1 to %d", i + 1, seats[i], nunits);
            return -1;
        }
        total += seats[i];
    }
    if (total != nunits) {
        snprintf(err, n, "seats= of the engines add up to %d, the game has %d units", total, nunits);
        return -1;
    }
    s->encounter = malloc(sizeof *s->encounter);
    if (!s->encounter) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    int u = 0;
    for (int i = 0; i < nengines; i++)
        for (int k = 0; k < seats[i]; k++)
            s->encounter[0][u++] = i;
    s->nencounters = 1;
    return finish_init(s, nengines, nunits, SCHEDULE_ROUND_ROBIN, rounds, games, shard, nshards, err, n);
}

void schedule_free(Schedule *s)
{
    free(s->encounter);
    s->encounter = NULL;
}

void schedule_game(const Schedule *s, long number, ScheduledGame *out)
{
    const long i = number - 1, per_round = s->nencounters * s->games, sets_per_round = s->games / s->rotations;
    const long in_round = i % per_round, j = in_round % s->games;
    out->number = number;
    out->round = (int)(i / per_round);
    out->encounter = in_round / s->games;
    out->rotation = (int)(j % s->rotations);
    out->set = i / s->rotations;
    out->opening = out->round * sets_per_round + j / s->rotations;
    for (int u = 0; u < MAX_SEATS; u++)
        out->engine[u] = u < s->nunits ? s->encounter[out->encounter][(u + out->rotation) % s->nunits] : -1;
}

int schedule_shard_of(long number, long per_set, int nshards)
{
    return (int)(((number - 1) / per_set) % nshards) + 1;
}

bool schedule_in_shard(const Schedule *s, long number)
{
    return schedule_shard_of(number, s->rotations, s->nshards) == s->shard;
}

long schedule_shard_games(const Schedule *s)
{
    const long sets = s->total / s->rotations;
    const long mine = sets / s->nshards + (sets % s->nshards > s->shard - 1);
    return mine * s->rotations;
}
