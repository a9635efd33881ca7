/* moves.c - the commands that list the moves of the current game, perft
 * and legalmoves, and their work on the job thread; see moves.h. */
#include "moves.h"

#include "front.h"
#include "notation.h"
#include "perft.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static bool perft_stopped(void *arg)
{
    return atomic_load_explicit((const atomic_bool *)arg, memory_order_relaxed);
}

/* The moves of p sorted for printing (RULES.md section 3), their texts in a
 * malloc'd *texts. False (nothing to free but the list) when stopped or out of
 * memory; *why says which. */
static bool sorted_moves(Front *fe, const Position *p, MoveList *list, char (**texts)[MOVE_STR_MAX], const char **why)
{
    *texts = NULL;
    GenMemo *memo = gen_memo_new();
    if (!memo) {
        *why = "out of memory";
        return false;
    }
    gen_memo_set_abort(memo, perft_stopped, &fe->job.sig.stop);
    gen_moves(p, list, memo);
    gen_memo_delete(memo);
    if (!list->cut)
        *texts = malloc(sizeof **texts * (size_t)(list->n ? list->n : 1));
    if (!*texts) {
        *why = atomic_load(&fe->job.sig.stop) ? "stopped" : "out of memory";
        return false;
    }
    if (!move_list_sort(p, list, *texts)) {
        free(*texts);
        *why = "out of memory";
        return false;
    }
    return true;
}

static void list_legal_moves(Front *fe)
{
    MoveList list = {0};
    char(*texts)[MOVE_STR_MAX];
    const char *why;
    if (!sorted_moves(fe, &fe->job.game->pos, &list, &texts, &why)) {
        say(fe, "info string error legalmoves: %s after %d moves", why, list.n);
        move_list_free(&list);
        return;
    }
    FILE *out = output_begin(&fe->out);
    fputs("legalmoves", out);
    for (int i = 0; i < list.n; i++)
        fprintf(out, " %s", texts[i]);
    fputc('\n', out);
    output_end(&fe->out);
    free(texts);
    move_list_free(&list);
}

static void count_perft(Front *fe)
{
    MoveList list = {0};
    char(*texts)[MOVE_STR_MAX];
    const Position *p = &fe->job.game->pos;
    const char *why;
    /* stopped, it says so as bench does: the total so far, marked */
    if (!sorted_moves(fe, p, &list, &texts, &why)) {
        if (atomic_load(&fe->job.sig.stop))
            say(fe, "Nodes searched: 0 (stopped)");
        else
            say(fe, "info string error perft: %s after %d moves", why, list.n);
        move_list_free(&list);
        return;
    }
    uint64_t total = 0;
    for (int i = 0; i < list.n; i++) {
        Position c = *p;
        pos_play(&c, &list.m[i]);
        const int64_t n = perft(&c, (int)fe->job.arg - 1, &fe->job.sig.stop);
        if (n < 0 && atomic_load(&fe->job.sig.stop)) {
            say(fe, "Nodes searched: %" PRIu64 " (stopped)", total);
            break;
        }
        if (n < 0) {
            say(fe, "info string error perft: out of memory after %" PRIu64 " nodes", total);
            break;
        }
        say(fe, "%s: %" PRId64, texts[i], n);
        total += (uint64_t)n;
        if (i + 1 == list.n)
            say(fe, "Nodes searched: %" PRIu64, total);
    }
    if (!list.n)
        say(fe, "Nodes searched: 0");
    free(texts);
    move_list_free(&list);
}

void moves_legal(Front *fe)
{
    if (job_refuse_if_busy(fe, "legalmoves"))
        return;
    job_start_tool(fe, list_legal_moves, 0);
}

void moves_perft(Front *fe, const Tokens *tk)
{
    long long depth;
    if (tk->n != 2 || !words_int(tk->t[1], 1, 20, &depth)) {
        say(fe, "info string error perft: expected 'perft <depth 1-20>'");
        return;
    }
    if (job_refuse_if_busy(fe, "perft"))
        return;
    job_start_tool(fe, count_perft, depth);
}
