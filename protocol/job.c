/* job.c - the engine's job thread and the waiting for it; see job.h. */
#include "job.h"

#include "ccp.h"
#include "front.h"
#include "info.h"
#include "web.h"

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
static void wake_up(Front *fe)
{
    const ssize_t r = write(fe->job.wake[1], "", 1); /* fails only when full: woken anyway */
    (void)r;
#ifdef __EMSCRIPTEN__
    web_kick(); /* the reader waits in web_poll */
#endif
}

static void search_output(const SearchReport *report, void *ctx)
{
    Front *fe = ctx;
    const bool last = report->kind == REPORT_BESTMOVE;
    if (last)
        atomic_store(&fe->job.finished, true);
    char line[INFO_LINE_MAX];
    say(fe, "%s", fe->ccp ? ccp_info_text(report, line) : info_text(report, line));
    if (last)
        wake_up(fe);
}

/* The thread of every job: all honour stop. */
static void *job_thread(void *arg)
{
    Front *fe = arg;
    Job *j = &fe->job;
    if (!j->run) { /* its bestmove report wakes the input thread */
        session_search(fe->engine->session, j->game, &j->limits, &j->config, &j->sig, search_output, fe);
        return NULL;
    }
    j->run(fe);
    atomic_store(&j->finished, true);
    wake_up(fe);
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

/* Runs the job set in fe->job (a tool's run, or a search) on the current game. */
static void start_job(Front *fe)
{
    Job *j = &fe->job;
    j->game = fe->engine->game;
    atomic_store(&j->sig.stop, false);
    atomic_store(&j->sig.ponderhit, false);
    atomic_store(&j->finished, false);
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    /* the one-thread WebAssembly build has no threads to start (its host
     * keeps stop's promise, docs/WEB.md): the job runs here, and that is no error */
    job_thread(fe);
    drain_wake(j);
    return;
#endif
    if (pthread_create(&j->thread, NULL, job_thread, fe)) {
        say(fe, "info string error cannot start a thread: running on the input thread");
        job_thread(fe);
        drain_wake(j);
        return;
    }
    j->running = true;
}

void job_start_search(Front *fe, const SearchLimits *l, const SearchConfig *c)
{
    fe->job.run = NULL;
    fe->job.limits = *l;
    fe->job.config = *c;
    start_job(fe);
}

void job_start_tool(Front *fe, JobRun run, long long arg)
{
    fe->job.run = run;
    fe->job.arg = arg;
    start_job(fe);
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
    return j->run || l->depth > 0 || l->nodes > 0 || l->movetime > 0 || (s >= 0 && l->time[s] >= 0);
}

/* Whether the running job is a search that answers only at stop (or
 * ponderhit): `go infinite`, or `go ponder` before ponderhit. */
static bool waits_for_stop(Job *j)
{
    return !j->run && (j->limits.infinite || (j->limits.ponder && !atomic_load(&j->sig.ponderhit)));
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

bool job_settle(Front *fe)
{
    Job *j = &fe->job;
    if (!j->running)
        return true;
    if (!atomic_load(&j->finished) && waits_for_stop(j))
        return false;
    if (j->quit_queued) { /* nothing more is read: what runs ends by itself, or now */
        if (ends_by_itself(j))
            join_job(j);
        else
            job_stop(fe);
        return true;
    }
    while (!atomic_load(&j->finished)) {
        Line *l;
        const int r = input_read(&fe->in, j->wake[0], &l);
        if (r == 0)
            continue;
        if (r < 0 && ends_by_itself(j))
            break;
        if (r > 0 && (l->nul || l->bad || l->huge)) {
            input_defer(&fe->in, l); /* refused whole when its turn comes */
            continue;
        }
        if (r > 0 && is_bare(l->text, "quit")) {
            input_defer(&fe->in, l);
            j->quit_queued = true;
            return job_settle(fe);
        }
        if (r < 0) {
            job_stop(fe); /* no limit: nothing else would end it */
            return true;
        }
        if (first_word_is(l->text, "isready") && !j->run) {
            char w[65];
            if (!is_bare(l->text, "isready")) /* said as when carried out, and answered */
                say(fe, "info string error isready takes no arguments (got '%s')", second_word(l->text, w));
            say(fe, "readyok");
            free(l);
        } else if (is_bare(l->text, "stop")) {
            free(l);
            job_stop(fe); /* then the waiting command, before any later line */
            return true;
        } else if (is_bare(l->text, "ponderhit")) {
            atomic_store(&j->sig.ponderhit, true);
            free(l);
        } else {
            input_defer(&fe->in, l);
        }
    }
    join_job(j);
    return true;
}

bool job_refuse_if_busy(Front *fe, const char *cmd)
{
    if (job_settle(fe))
        return false;
    say(fe, "info string error %s: a search is running, send stop first", cmd);
    return true;
}

void job_finish_tool(Front *fe)
{
    if (fe->job.running && fe->job.run)
        job_settle(fe);
}

void job_stop(Front *fe)
{
    if (!fe->job.running)
        return;
    atomic_store(&fe->job.sig.stop, true);
    join_job(&fe->job);
}

void job_ponderhit(Front *fe)
{
    atomic_store(&fe->job.sig.ponderhit, true);
}

void job_end_of_input(Front *fe)
{
    Job *j = &fe->job;
    if (j->running && ends_by_itself(j) && !waits_for_stop(j))
        join_job(j);
    job_stop(fe);
}
