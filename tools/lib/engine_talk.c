/* engine_talk.c - the line protocol with an engine (handshake, options,
 * isready, waiting for a token) on top of ep_send and ep_read_line, whichever
 * transport provides them: a child process (engine_proc.c) or a Web Worker
 * (engine_worker.c); see engine_proc.h. */
#include "engine_proc.h"

#include <stdio.h>
#include <string.h>

/* Whether the first token of `line` is `token`. */
static bool first_token_is(const char *line, const char *token)
{
    line += strspn(line, " \t");
    const size_t n = strlen(token);
    return !strncmp(line, token, n) && (line[n] == '\0' || line[n] == ' ' || line[n] == '\t');
}

int ep_wait_token(EngineProc *e, const char *token, int timeout_ms, EpLineFn fn, void *ctx, char **line)
{
    const int64_t deadline = ep_deadline_after(timeout_ms);
    for (;;) {
        const int rc = ep_read_line(e, ep_remaining_ms(deadline), line);
        if (rc <= 0) {
            if (rc == 0)
                ep_set_error(e, "no '%s' from engine within %d ms", token, timeout_ms);
            return rc;
        }
        if (first_token_is(*line, token))
            return 1;
        if (fn)
            fn(*line, ctx);
    }
}

static void keep_id_name(const char *line, void *ctx)
{
    EngineProc *e = ctx;
    line += strspn(line, " \t");
    if (strncmp(line, "id", 2) || (line[2] != ' ' && line[2] != '\t'))
        return;
    line += 2;
    line += strspn(line, " \t");
    if (strncmp(line, "name", 4) || (line[4] != ' ' && line[4] != '\t'))
        return;
    line += 4;
    line += strspn(line, " \t");
    snprintf(e->name, sizeof e->name, "%s", line);
}

/* Keeps the first `info string error` line in ctx (512 bytes). */
static void keep_refusal(const char *line, void *ctx)
{
    char *refusal = ctx;
    line += strspn(line, " \t");
    if (!*refusal && !strncmp(line, "info string error", 17))
        snprintf(refusal, 512, "%s", line);
}

int ep_sync(EngineProc *e, int timeout_ms)
{
    char *line;
    if (ep_send(e, "isready"))
        return -1;
    return ep_wait_token(e, "readyok", timeout_ms, NULL, NULL, &line) == 1 ? 0 : -1;
}

/* Sets opts[0..nopts) one by one (a refusal names its option), then ep_sync. */
static int set_options(EngineProc *e, const EngineOption *opts, int nopts, int timeout_ms)
{
    char *line;
    for (int i = 0; i < nopts; i++) {
        const int rc = opts[i].value ? ep_send(e, "setoption name %s value %s", opts[i].name, opts[i].value)
                                     : ep_send(e, "setoption name %s", opts[i].name);
        if (rc)
            return -1;
        /* each option answered before the next: a refusal names its option */
        char refusal[512] = "";
        if (ep_send(e, "isready") ||
            ep_wait_token(e, "readyok", timeout_ms, keep_refusal, refusal, &line) != 1)
            return -1;
        if (*refusal) {
            ep_set_error(e, "option %s%s%s refused: %s", opts[i].name, opts[i].value ? "=" : "",
                      opts[i].value ? opts[i].value : "", refusal);
            e->refused = true;
            return -1;
        }
    }
    return ep_sync(e, timeout_ms);
}

int ep_handshake(EngineProc *e, const EngineOption *opts, int nopts, int timeout_ms)
{
    char *line;
    if (e->ccp) {
        if (ep_send(e, "ccp") || ep_send(e, "isready") ||
            ep_wait_token(e, "readyok", timeout_ms, keep_id_name, e, &line) != 1)
            return -1;
    } else if (ep_send(e, "uci") || ep_wait_token(e, "uciok", timeout_ms, keep_id_name, e, &line) != 1) {
        return -1;
    }
    return set_options(e, opts, nopts, timeout_ms);
}

/* What the `uci` answer of an engine for analysis offers. */
typedef struct {
    EngineProc *e;
    bool book, model;
} Offered;

static void keep_offers(const char *line, void *ctx)
{
    Offered *o = ctx;
    keep_id_name(line, o->e);
    o->book |= !strncmp(line, "option name OwnBook ", 20);
    o->model |= !strncmp(line, "option name OpponentModel ", 26);
}

#define EP_MAX_OPTIONS 64

int ep_start_analysis(EngineProc *e, const char *cmd, const EngineOption *opts, int nopts, int timeout_ms)
{
    if (ep_start(e, cmd, -1))
        return -1;
    char *line;
    Offered offered = {.e = e};
    if (ep_send(e, "uci") || ep_wait_token(e, "uciok", timeout_ms, keep_offers, &offered, &line) != 1)
        return -1;
    EngineOption all[EP_MAX_OPTIONS + 2];
    int n = 0;
    if (offered.book)
        all[n++] = (EngineOption){"OwnBook", "false"};
    if (offered.model)
        all[n++] = (EngineOption){"OpponentModel", "false"};
    for (int i = 0; i < nopts && i < EP_MAX_OPTIONS; i++)
        all[n++] = opts[i];
    return set_options(e, all, n, timeout_ms);
}
