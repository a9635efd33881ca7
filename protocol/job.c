/* job.c - the engine's job thread and the waiting for it; see job.h. */
#include "job.h"

#include "bench.h"
#include "ccp.h"
#include "engine.h"
#include "info.h"
#include "notation.h"
#include "perft.h"
#include "solve.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int job_init(Job *j)
{
    *j = (Job){0};
    if (pipe(j->wake))
        return -1;
    if (fcntl(j->wake[0], F_SETFL, O_NONBLOCK) || fcntl(j->wake[1], F_SETFL, O_NONBLOCK)) {
        close(j->wake[0]);
        close(j->wake[1]);
        return -1;
    }
    return 0;
}

void job_free(Job *j)
{
    close(j->wake[0]);
    close(j->wake[1]);
    move_list_free(&j->searchmoves);
}

/* ---- on the job thread ---- */

/* Tells the input thread that the job has answered. */
static void wake_up(Engine *e)
{
    const ssize_t r = write(e->job.wake[1], "", 1); /* fails only when full: woken anyway */
    (void)r;
}

static void search_output(const SearchReport *report, void *ctx)
{
    Engine *e = ctx;
    const bool last = report->kind == REPORT_BESTMOVE;
    if (last)
        atomic_store(&e->job.finished, true);
    char line[INFO_LINE_MAX];
    say(e, "%s", e->ccp ? ccp_info_text(report, line) : info_text(report, line));
    if (last)
        wake_up(e);
}

static void line_output(const char *line, void *ctx)
{
    Engine *e = ctx;
    say(e, "%s", line);
}

static bool perft_stopped(void *arg)
{
    return atomic_load_explicit((const atomic_bool *)arg, memory_order_relaxed);
}

/* The moves of p sorted for printing (RULES.md section 3), their texts in a
 * malloc'd *texts. False (nothing to free but the list) when stopped or out of
 * memory; *why says which. */
static bool sorted_moves(Engine *e, const Position *p, MoveList *list, char (**texts)[MOVE_STR_MAX], const char **why)
{
    *texts = NULL;
    GenMemo *memo = gen_memo_new();
    if (!memo) {
        *why = "out of memory";
        return false;
    }
    gen_memo_set_abort(memo, perft_stopped, &e->job.sig.stop);
    gen_moves(p, list, memo);
    gen_memo_delete(memo);
    if (!list->cut)
        *texts = malloc(sizeof **texts * (size_t)(list->n ? list->n : 1));
    if (!*texts) {
        *why = atomic_load(&e->job.sig.stop) ? "stopped" : "out of memory";
        return false;
    }
    if (!move_list_sort(p, list, *texts)) {
        free(*texts);
        *why = "out of memory";
        return false;
    }
    return true;
}

static void run_legalmoves(Engine *e)
{
    MoveList list = {0};
    char(*texts)[MOVE_STR_MAX];
    const char *why;
    if (!sorted_moves(e, &e->job.game->pos, &list, &texts, &why)) {
        say(e, "info string error legalmoves: %s after %d moves", why, list.n);
        move_list_free(&list);
        return;
    }
    pthread_mutex_lock(&e->out_lock);
    fputs("legalmoves", e->out);
    for (int i = 0; i < list.n; i++)
        fprintf(e->out, " %s", texts[i]);
    fputc('\n', e->out);
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
    free(texts);
    move_list_free(&list);
}

static void run_perft(Engine *e)
{
    MoveList list = {0};
    char(*texts)[MOVE_STR_MAX];
    const Position *p = &e->job.game->pos;
    const char *why;
    /* stopped, it says so as bench does: the total so far, marked */
    if (!sorted_moves(e, p, &list, &texts, &why)) {
        if (atomic_load(&e->job.sig.stop))
            say(e, "Nodes searched: 0 (stopped)");
        else
            say(e, "info string error perft: %s after %d moves", why, list.n);
        move_list_free(&list);
        return;
    }
    uint64_t total = 0;
    for (int i = 0; i < list.n; i++) {
        Position c = *p;
        pos_play(&c, &list.m[i]);
        const int64_t n = perft(&c, e->job.depth - 1, &e->job.sig.stop);
        if (n < 0 && atomic_load(&e->job.sig.stop)) {
            say(e, "Nodes searched: %" PRIu64 " (stopped)", total);
            break;
        }
        if (n < 0) {
            say(e, "info string error perft: out of memory after %" PRIu64 " nodes", total);
            break;
        }
        say(e, "%s: %" PRId64, texts[i], n);
        total += (uint64_t)n;
        if (i + 1 == list.n)
            say(e, "Nodes searched: %" PRIu64, total);
    }
    if (!list.n)
        say(e, "Nodes searched: 0");
    free(texts);
    move_list_free(&list);
}

/* The thread of every job: all honour stop. */
static void *job_thread(void *arg)
{
    Engine *e = arg;
    Job *j = &e->job;
    switch (j->kind) {
    case JOB_SEARCH: /* its bestmove report wakes the input thread */
        session_search(e->session, j->game, &j->limits, &e->config, &j->sig, search_output, e);
        return NULL;
    case JOB_PERFT:
        run_perft(e);
        break;
    case JOB_BENCH:
        bench_run(e->session, j->depth, &e->config, &j->sig, line_output, e);
        break;
    case JOB_SOLVE:
        solve_run(j->game, j->nodes, &j->sig.stop, line_output, e);
        break;
    case JOB_LEGALMOVES:
        run_legalmoves(e);
        break;
    }
    atomic_store(&j->finished, true);
    wake_up(e);
    return NULL;
}

/* ---- on the input thread ---- */

/* Empties the wake pipe for the next job. */
static void drain_wake(Job *j)
{
    char drain[64];
    while (read(j->wake[0], drain, sizeof drain) > 0) {
    }
}

/* Runs a job of `kind` (its inputs set in e->job) on the current game. */
static void start_job(Engine *e, JobKind kind)
{
    Job *j = &e->job;
    j->game = e->game;
    j->kind = kind;
    atomic_store(&j->sig.stop, false);
    atomic_store(&j->sig.ponderhit, false);
    atomic_store(&j->finished, false);
    if (pthread_create(&j->thread, NULL, job_thread, e)) {
        say(e, "info string error cannot start a thread: running on the input thread");
        job_thread(e);
        drain_wake(j);
        return;
    }
    j->running = true;
}

/* The net the searches of the current game use (EvalFile), said once when
 * EvalFile's net does not serve the game's variant. */
static void choose_net(Engine *e)
{
    char note[EVALFILE_NOTE_MAX];
    e->config.net = evalfile_net(&e->evalfile, e->game->v, note, sizeof note);
    if (note[0])
        say(e, "info string %s", note);
}

void job_start_search(Engine *e, const SearchLimits *l)
{
    choose_net(e);
    e->job.limits = *l;
    start_job(e, JOB_SEARCH);
}

void job_start_perft(Engine *e, int depth)
{
    e->job.depth = depth;
    start_job(e, JOB_PERFT);
}

void job_start_legalmoves(Engine *e)
{
    start_job(e, JOB_LEGALMOVES);
}

void job_start_bench(Engine *e, int depth)
{
    /* bench's positions of variants the net serves are evaluated by it */
    e->config.net = evalfile_net(&e->evalfile, variant_find("classic-2"), NULL, 0);
    e->job.depth = depth;
    start_job(e, JOB_BENCH);
}

void job_start_solve(Engine *e, uint64_t nodes)
{
    e->job.nodes = nodes;
    start_job(e, JOB_SOLVE);
}

/* Joins the job thread (it has answered, or is answering) and empties the
 * wake pipe for the next job. */
static void join_job(Job *j)
{
    pthread_join(j->thread, NULL);
    j->running = false;
    drain_wake(j);
}

/* Whether the running job ends without stop: it is no search, or a search with
 * a depth, node or time limit, or the side to move's clock. */
static bool ends_by_itself(const Job *j)
{
    const SearchLimits *l = &j->limits;
    const int s = j->game->pos.stm;
    return j->kind != JOB_SEARCH || l->depth > 0 || l->nodes > 0 || l->movetime > 0 || (s >= 0 && l->time[s] >= 0);
}

/* Whether the running job is a search that answers only at stop (or
 * ponderhit): `go infinite`, or `go ponder` before ponderhit. */
static bool waits_for_stop(Job *j)
{
    return j->kind == JOB_SEARCH && (j->limits.infinite || (j->limits.ponder && !atomic_load(&j->sig.ponderhit)));
}

/* Whether `line` is exactly the command `word`, alone (spaces, tabs and CRs
 * around it allowed, as the tokenizer allows them). */
static bool is_bare(const char *line, const char *word)
{
    const char *t = line + strspn(line, " \t\r");
    const size_t n = strlen(word);
    return !strncmp(t, word, n) && t[n + strspn(t + n, " \t\r")] == 0;
}

/* Whether the first word of `line` is `word`. */
static bool first_word_is(const char *line, const char *word)
{
    const char *t = line + strspn(line, " \t\r");
    const size_t n = strlen(word);
    return !strncmp(t, word, n) && (!t[n] || strchr(" \t\r", t[n]));
}

/* The second word of `line`, up to 64 bytes, into w (65 bytes; "" when there
 * is none). Returns w. */
static const char *second_word(const char *line, char w[65])
{
    const char *t = line + strspn(line, " \t\r");
    t += strcspn(t, " \t\r");
    t += strspn(t, " \t\r");
    snprintf(w, 65, "%.*s", (int)strcspn(t, " \t\r"), t);
    return w;
}

bool job_settle(Engine *e)
{
    Job *j = &e->job;
    if (!j->running)
        return true;
    if (!atomic_load(&j->finished) && waits_for_stop(j))
        return false;
    if (j->quit_queued) { /* nothing more is read: what runs ends by itself, or now */
        if (ends_by_itself(j))
            join_job(j);
        else
            job_stop(e);
        return true;
    }
    while (!atomic_load(&j->finished)) {
        Line *l;
        const int r = input_read(&e->in, j->wake[0], &l);
        if (r == 0)
            continue;
        if (r < 0 && ends_by_itself(j))
            break;
        if (r > 0 && (l->nul || l->bad || l->huge)) {
            input_defer(&e->in, l); /* refused whole when its turn comes */
            continue;
        }
        if (r > 0 && is_bare(l->text, "quit")) {
            input_defer(&e->in, l);
            j->quit_queued = true;
            return job_settle(e);
        }
        if (r < 0) {
            job_stop(e); /* no limit: nothing else would end it */
            return true;
        }
        if (first_word_is(l->text, "isready") && j->kind == JOB_SEARCH) {
            char w[65];
            if (!is_bare(l->text, "isready")) /* said as when carried out, and answered */
                say(e, "info string error isready takes no arguments (got '%s')", second_word(l->text, w));
            say(e, "readyok");
            free(l);
        } else if (is_bare(l->text, "stop")) {
            free(l);
            job_stop(e); /* then the waiting command, before any later line */
            return true;
        } else if (is_bare(l->text, "ponderhit")) {
            atomic_store(&j->sig.ponderhit, true);
            free(l);
        } else {
            input_defer(&e->in, l);
        }
    }
    join_job(j);
    return true;
}

bool job_refuse_if_busy(Engine *e, const char *cmd)
{
    if (job_settle(e))
        return false;
    say(e, "info string error %s: a search is running, send stop first", cmd);
    return true;
}

void job_finish_tool(Engine *e)
{
    if (e->job.running && e->job.kind != JOB_SEARCH)
        job_settle(e);
}

void job_stop(Engine *e)
{
    if (!e->job.running)
        return;
    atomic_store(&e->job.sig.stop, true);
    join_job(&e->job);
}

void job_ponderhit(Engine *e)
{
    atomic_store(&e->job.sig.ponderhit, true);
}

void job_end_of_input(Engine *e)
{
    Job *j = &e->job;
    if (j->running && ends_by_itself(j) && !waits_for_stop(j))
        join_job(j);
    job_stop(e);
}
