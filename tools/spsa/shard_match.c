/*
 * shard_match.c - a match split into shards that survives a lost shard
 * (shard_match.h).
 */
#include "shard_match.h"

#include "cmd_template.h"
#include "pgn_read.h"
#include "run_parallel.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CMD_MAX 16384
#define PATH_MAX_LEN 4096

/* Complete games in the record at path: 0 when it is missing; the games
 * before the first damage when it is damaged (the shard is then short of
 * games and runs again). */
static int count_game(PgnGame *g, PgnStatus status, const char *why, void *ctx, char *err, size_t n)
{
    (void)g, (void)why, (void)err, (void)n;
    *(long *)ctx += status == PGN_OK;
    return 0;
}

static long record_games(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long n = 0;
    char err[PGN_ERR_MAX];
    pgn_read_each(f, path, PGN_ERRORS_END, count_game, &n, err, sizeof err); /* stops at damage, with the games before it */
    fclose(f);
    return n;
}

/* Writes shard i's (from 1) command line through the template into out
 * (CMD_MAX bytes), with -resume when `resume`. Returns 0, or -1 when it does
 * not fit. */
static int shard_command(const ShardMatch *m, int i, bool resume, char *out)
{
    char cmd[CMD_MAX] = "", shard[32], shards[16], iteration[16], spec[40], record[PATH_MAX_LEN];
    snprintf(shard, sizeof shard, "%d", i);
    snprintf(shards, sizeof shards, "%d", m->shards);
    snprintf(iteration, sizeof iteration, "%d", m->iteration);
    snprintf(spec, sizeof spec, "%d/%d", i, m->shards);
    snprintf(record, sizeof record, "%s-%d.pgn", m->prefix, i);
    for (int a = 0; a < m->argc; a++)
        if (cmd_template_quote(cmd, sizeof cmd, m->argv[a]))
            return -1;
    if (cmd_template_quote(cmd, sizeof cmd, "-shard") || cmd_template_quote(cmd, sizeof cmd, spec) ||
        cmd_template_quote(cmd, sizeof cmd, "-pgnout") || cmd_template_quote(cmd, sizeof cmd, record) ||
        (resume && cmd_template_quote(cmd, sizeof cmd, "-resume")))
        return -1;
    const TemplateField fields[] = {{"cmd", cmd}, {"shard", shard}, {"shards", shards}, {"iteration", iteration}};
    return cmd_template_expand(m->run, fields, 4, out, CMD_MAX);
}

/* Runs the shards marked in `todo` (each with -resume when `resume`) at once;
 * sets finished[] and status[] of each. Returns 0, or -1 when a command line
 * would not fit. */
static int run_round(const ShardMatch *m, const bool *todo, bool resume, bool *finished, int *status)
{
    static char cmds[SHARD_MATCH_MAX][CMD_MAX];
    static char logs[SHARD_MATCH_MAX][PATH_MAX_LEN];
    const char *cmdp[SHARD_MATCH_MAX] = {0}, *logp[SHARD_MATCH_MAX] = {0};
    int index[SHARD_MATCH_MAX], st[SHARD_MATCH_MAX], n = 0;
    for (int i = 0; i < m->shards; i++) {
        if (!todo[i])
            continue;
        if (shard_command(m, i + 1, resume, cmds[n])) {
            fprintf(stderr, "%s: the command line of shard %d/%d is too long\n", m->tool, i + 1, m->shards);
            return -1;
        }
        snprintf(logs[n], PATH_MAX_LEN, "%s-%d.log", m->prefix, i + 1);
        cmdp[n] = cmds[n];
        logp[n] = logs[n];
        index[n++] = i;
    }
    run_parallel(cmdp, logp, n, st);
    for (int j = 0; j < n; j++) {
        const int i = index[j];
        char record[PATH_MAX_LEN];
        snprintf(record, sizeof record, "%s-%d.pgn", m->prefix, i + 1);
        status[i] = st[j];
        finished[i] = st[j] == 0 && record_games(record) >= m->planned[i];
    }
    return 0;
}

long shard_match_play(const ShardMatch *m, bool *finished)
{
    bool todo[SHARD_MATCH_MAX];
    int status[SHARD_MATCH_MAX];
    for (int i = 0; i < m->shards; i++) {
        char path[PATH_MAX_LEN];
        snprintf(path, sizeof path, "%s-%d.pgn", m->prefix, i + 1);
        unlink(path);
        snprintf(path, sizeof path, "%s-%d.log", m->prefix, i + 1);
        unlink(path);
        todo[i] = true;
    }
    if (run_round(m, todo, false, finished, status))
        return -1;
    bool again = false;
    for (int i = 0; i < m->shards; i++) {
        todo[i] = !finished[i];
        if (!todo[i])
            continue;
        char path[PATH_MAX_LEN], what[64];
        snprintf(path, sizeof path, "%s-%d.pgn", m->prefix, i + 1);
        fprintf(stderr, "%s: iteration %d: shard %d/%d failed (%s, %ld of %ld games recorded): running it again\n",
                m->tool, m->iteration, i + 1, m->shards, run_parallel_status_text(status[i], what, sizeof what),
                record_games(path), m->planned[i]);
        again = true;
    }
    if (again && run_round(m, todo, true, finished, status))
        return -1;
    long games = 0;
    for (int i = 0; i < m->shards; i++) {
        if (finished[i]) {
            games += m->planned[i];
            continue;
        }
        char path[PATH_MAX_LEN], what[64];
        snprintf(path, sizeof path, "%s-%d.pgn", m->prefix, i + 1);
        fprintf(stderr,
                "%s: iteration %d: shard %d/%d lost (%s again, %ld of %ld games recorded; see %s-%d.log): "
                "going on with the games of the other shards\n",
                m->tool, m->iteration, i + 1, m->shards, run_parallel_status_text(status[i], what, sizeof what),
                record_games(path), m->planned[i], m->prefix, i + 1);
    }
    return games;
}
