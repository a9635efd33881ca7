/* stern_test.c - shared test helpers; see stern_test.h. */
#include "stern_test.h"


#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Holes per row, row 17 first (PROTOCOL.md FEN order). */
static const int ROW_LEN[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};

int hole(const char *name)
{
    board_init();
    const char *s = name;
    const int h = board_parse_hole(&s);
    if (h < 0 || *s)
        fail_msg("bad hole name '%s'", name);
    return h;
}

char *fen_of(char *buf, const char *pieces, const char *tail)
{
    char board[NUM_HOLES];
    memset(board, 0, sizeof board);
    char kind = 0;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", pieces);
    for (char *save = NULL, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (!tok[1]) {
            if (!strchr("wrubygx", tok[0]))
                fail_msg("fen_of: unknown piece letter '%s'", tok);
            kind = tok[0];
            continue;
        }
        if (!kind)
            fail_msg("fen_of: hole '%s' before any piece letter", tok);
        const int h = hole(tok);
        if (board[h])
            fail_msg("fen_of: hole '%s' named twice", tok);
        board[h] = kind;
    }
    char *o = buf;
    int h = 0;
    for (int row = 0; row < 17; row++) {
        if (row)
            *o++ = '/';
        int empty = 0;
        for (int col = 0; col < ROW_LEN[row]; col++, h++) {
            if (!board[h]) {
                empty++;
                continue;
            }
            if (empty)
                o += sprintf(o, "%d", empty);
            empty = 0;
            *o++ = board[h];
        }
        if (empty)
            o += sprintf(o, "%d", empty);
    }
    snprintf(o, (size_t)(FEN_MAX - (o - buf)), " %s", tail);
    return buf;
}

void game_setup(Game *g, const char *variant, const char *pieces, const char *tail)
{
    char fen[FEN_MAX], err[256];
    if (game_new(g, variant))
        fail_msg("unknown variant '%s'", variant);
    fen_of(fen, pieces, tail);
    if (game_set_fen(g, fen, err, sizeof err))
        fail_msg("FEN '%s' refused: %s", fen, err);
}

Bitboard holes(const char *names)
{
    Bitboard b = 0;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", names);
    for (char *save = NULL, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        b |= bb_bit(hole(tok));
    return b;
}

Move move_ok(const Position *p, const char *text)
{
    Move m;
    char err[256];
    if (move_parse(p, text, &m, err, sizeof err))
        fail_msg("move '%s' refused in '%s': %s", text, fen_now(p), err);
    return m;
}

void play(Game *g, const char *text)
{
    const Move m = move_ok(&g->pos, text);
    if (game_play(g, &m))
        fail_msg("game_play refused '%s'", text);
}

void move_refused(const Position *p, const char *text, const char *word)
{
    Move m;
    char err[256] = "";
    if (!move_parse(p, text, &m, err, sizeof err))
        fail_msg("move '%s' accepted in '%s', expected a refusal", text, fen_now(p));
    if (!strstr(err, word))
        fail_msg("move '%s' refused with '%s', expected a message containing '%s'", text, err, word);
}

const char *legal_moves(const Position *p, const char *from)
{
    static MoveList list;
    static char (*texts)[MOVE_STR_MAX];
    static char out[1 << 16];
    gen_moves(p, &list, NULL);
    free(texts);
    texts = malloc(sizeof *texts * (size_t)(list.n ? list.n : 1));
    if (!texts || !move_list_sort(p, &list, texts))
        fail_msg("legal_moves: out of memory");
    const int only = from ? hole(from) : -1;
    char *o = out;
    *o = 0;
    for (int i = 0; i < list.n; i++) {
        if (only >= 0 && list.m[i].from != only)
            continue;
        const size_t len = strlen(texts[i]);
        if ((size_t)(o - out) + len + 2 > sizeof out)
            fail_msg("legal_moves: list too long");
        if (o != out)
            *o++ = ' ';
        memcpy(o, texts[i], len + 1);
        o += len;
    }
    return out;
}

const char *fen_now(const Position *p)
{
    static char buf[FEN_MAX];
    return fen_write(p, buf);
}

void assert_position(const Position *p, const char *pieces, const char *tail)
{
    char want[FEN_MAX];
    assert_string_equal(fen_now(p), fen_of(want, pieces, tail));
}

int list_best_progress(const Position *p, int s, const uint8_t *dist)
{
    Position q = *p;
    pos_set_stm(&q, s);
    MoveList *l = move_list_new();
    assert_non_null(l);
    gen_moves(&q, l, NULL);
    int best = 0;
    for (int i = 0; i < l->n; i++) {
        const int d = dist[l->m[i].from] - dist[l->m[i].to];
        best = d > best ? d : best;
    }
    move_list_delete(l);
    return best;
}

static void no_output(const SearchReport *report, void *ctx)
{
    (void)report;
    (void)ctx;
}

SearchResult search_fixed_depth(const Game *g, SearchAlgo algo, int depth, bool full_width)
{
    SearchLimits lim;
    search_limits_init(&lim);
    lim.depth = depth;
    const SearchConfig cfg = {.algo = algo, .multipv = 1, .full_width = full_width};
    SearchSignals sig;
    atomic_init(&sig.stop, false);
    atomic_init(&sig.ponderhit, false);
    return test_search(g, &lim, &cfg, &sig, no_output, NULL);
}

SearchSession *test_session(void)
{
    static SearchSession *session;
    if (!session && (!(session = session_new(16, 1)) || session_ready(session) != 16))
        fail_msg("no search session of 16 MiB and one thread");
    return session;
}

SearchResult test_search(const Game *g, const SearchLimits *limits, const SearchConfig *config, SearchSignals *sig,
                         SearchOutput out, void *ctx)
{
    session_new_game(test_session());
    return session_search(test_session(), g, limits, config, sig, out, ctx);
}

char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    s[fread(s, 1, (size_t)n, f)] = '\0';
    fclose(f);
    return s;
}

const char *tool(const char *name)
{
    static char paths[4][PATH_MAX];
    static int next;
    const char *bin = getenv("STERN_BIN");
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", bin && *bin ? bin : "build/stern");
    char *p = paths[next++ % 4];
    snprintf(p, PATH_MAX, "%s/%s", dirname(copy), name);
    return p;
}

/* The target hole of seat s nearest the centre (largest distance to the tip). */
static int door_hole(const Variant *v, int s)
{
    int best = -1;
    for (Bitboard t = v->target[s]; t;) {
        const int h = bb_pop(&t);
        if (best < 0 || v->tip_dist[s][h] > v->tip_dist[s][best])
            best = h;
    }
    return best;
}

void arrival_game(Game *g, const char *variant, int mover, const int place[MAX_SEATS])
{
    assert_int_equal(game_new(g, variant), 0);
    const Variant *v = g->v;
    Position p = g->pos;
    memset(p.seat_bb, 0, sizeof p.seat_bb);
    Bitboard used = 0;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        p.moves[s] = 25;
        p.status[s] = place[s] ? ST_ARRIVED : ST_PLAYING;
        p.place[s] = (uint8_t)place[s];
        if (place[s]) {
            p.seat_bb[s] = v->target[s];
            used |= v->target[s];
        }
    }
    const int door = door_hole(v, mover);
    const Bitboard outside = geo.adjacent[door] & geo.hexagon & ~used;
    assert_true(outside != 0);
    const int last = bb_first(outside);
    p.seat_bb[mover] = (v->target[mover] & ~bb_bit(door)) | bb_bit(last);
    used |= v->target[mover] | bb_bit(last);
    /* the others in the centre, hole by hole, clear of the mover's door */
    Bitboard free = geo.hexagon & ~used & ~geo.adjacent[door] & ~geo.adjacent[last];
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        if (s == mover || place[s])
            continue;
        for (int k = 0; k < 10; k++)
            p.seat_bb[s] |= bb_bit(bb_pop(&free));
    }
    p.stm = (int8_t)mover;
    p.round = 26;
    pos_refresh(&p);
    char fen[FEN_MAX], err[256];
    fen_write(&p, fen);
    if (game_set_fen(g, fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
}
