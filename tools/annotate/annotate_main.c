/*
 * annotate_main.c - stern-annotate: game records annotated by an engine.
 *
 * Every position of every game is searched (a depth, a time or a node budget)
 * by engine processes that speak the protocol, several at once. Each move gets
 * a comment: every seat's score before it, and where the engine preferred
 * another move, that move, its line and the loss (the best move's score less
 * the played move's, both from one search of the two moves alone, `searchmoves`
 * with MultiPV 2, so from one tree and one view); each game gets a summary per seat (moves, average loss,
 * mistakes and blunders) and, with -svg, an evaluation graph. Games are written
 * whole, in input order, as they finish; with -o and -resume a run that was
 * cut short goes on where it stopped. A record that cannot be read or replayed
 * is reported with its file, line and reason, and the others are annotated.
 * Formats and an example: docs/ANALYSIS.md.
 */
#include "args.h"
#include "duration.h"
#include "engine_proc.h"
#include "eval_graph.h"
#include "fen.h"
#include "info_line.h"
#include "notation.h"
#include "pgn_read.h"
#include "record.h"
#include "work_queue.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PV_SHOWN 6                  /* moves of the best line written in a comment */
#define PV_TEXT_MAX (PV_SHOWN * MOVE_STR_MAX)
#define HANDSHAKE_MS 10000
#define SLACK_MS 10000              /* a search's answer may come this much after its movetime */
#define UNTIMED_MS 600000           /* the longest wait for a depth or node search */
#define MAX_OPTIONS 32 /* -option at most */
#define MATE_SHOWN (INFO_MATE_CP - 1000) /* scores beyond are mates, written #n */
#define LOSS_CAP 1000               /* a move's loss counts at most 10 moves in an average (a missed mate too) */

static const char usage_text[] =
    "usage: stern-annotate [options] FILE.pgn...\n"
    "  -depth N | -movetime MS | -nodes N   each position's search (default -movetime 200)\n"
    "  -engine CMD        the engine (default: stern beside this program)\n"
    "  -option NAME=VALUE an engine option (repeat it); Threads, Hash, ...\n"
    "  -concurrency K     engine processes at once (default: the processors online)\n"
    "  -o FILE            write the annotated records to FILE (default: standard output)\n"
    "  -resume            with -o: keep the games FILE holds and annotate the rest\n"
    "  -svg DIR           an evaluation graph per game, DIR/game-<n>.svg\n"
    "  -png               with -svg, each graph as PNG too (rsvg-convert, Debian's librsvg2-bin)\n"
    "  -mistake CP        a loss of at least CP centi-moves is a mistake (default 100)\n"
    "  -blunder CP        and a blunder from CP (default 300)\n";

typedef struct {
    char limit[64];                     /* the `go` fields: "depth 8", "movetime 200", ... */
    int timeout_ms;
    char engine[4096];
    EngineOption options[MAX_OPTIONS];
    int noptions;
    int concurrency;
    const char *out, *svg;
    bool resume, png;
    int mistake, blunder;
} Options;

/* What the engine said of one position (the one before move `ply`). */
typedef struct {
    bool done, failed;
    int depth;
    int score[MAX_SEATS];  /* every seat's relative score, centi-moves (mates mapped) */
    bool has[MAX_SEATS];
    int best_cp;           /* the side to move's score of its best move */
    char best[MOVE_STR_MAX];
    char pv[PV_TEXT_MAX];
    bool best_played;      /* the engine's move is the one played, or searched beside
                              it the played move scored as well */
    bool played_known;     /* the played move and the best were searched together */
    int played_cp;         /* their scores in that search (one search, one view: */
    int pair_best_cp;      /* the loss is their difference) */
} PlyEval;

/* A game to annotate. */
typedef struct {
    PgnGame pg;
    const char *file;
    Game *g;
    char (*text)[MOVE_STR_MAX]; /* each move in canonical notation */
    PlyEval *ev;                /* [nplies + 1]: before each move, and the last position */
    int npositions;             /* positions searched: nplies, + 1 when the game goes on */
    long first_job;             /* the run's number of its first position (work_queue.h) */
    int left;                   /* positions not yet done */
} AGame;

typedef struct Worker Worker;

typedef struct {
    const Options *o;
    AGame *games;
    int ngames;
    int first_game;                      /* the first game searched (after those -resume keeps) */
    Worker *workers;                     /* one a thread */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    long long positions, done_positions; /* this run's: games kept by -resume are not searched */
    int64_t t0;                          /* when the searches started, ms (ep_now_ms) */
} Work;

struct Worker {
    const Work *w;
    EngineProc e;
    bool started;
    const Variant *variant; /* the engine's Variant, or NULL */
};

#define fail(...) args_die("stern-annotate", __VA_ARGS__)

/* ---- one engine ---- */

/* Starts the engine for analysis, with the user's options. */
static bool engine_start(Worker *wk)
{
    const Options *o = wk->w->o;
    wk->variant = NULL;
    wk->started = !ep_start_analysis(&wk->e, o->engine, o->options, o->noptions, HANDSHAKE_MS);
    return wk->started;
}

/* The last scored line of a search (multipv 1). */
typedef struct {
    InfoLine in;
    bool any;
    char pv[PV_TEXT_MAX];
} Last;

static void on_info(const char *line, void *ctx)
{
    Last *l = ctx;
    InfoLine in;
    if (!info_line_parse(line, &in) || in.multipv != 1)
        return;
    l->in = in;
    l->any = true;
    l->pv[0] = 0;
    if (in.pv) { /* the first PV_SHOWN moves */
        size_t len = 0;
        int k = 0;
        for (const char *p = in.pv; *p && k < PV_SHOWN; k++) {
            const size_t m = strcspn(p, " ");
            if (len + m + 2 >= sizeof l->pv)
                break;
            len += (size_t)snprintf(l->pv + len, sizeof l->pv - len, "%s%.*s", k ? " " : "", (int)m, p);
            p += m + strspn(p + m, " ");
        }
    }
    l->in.pv = NULL; /* the line goes away */
}

/* The last scored line of each of two moves searched together (MultiPV 2): its
 * score and the text of its first move. */
typedef struct {
    int cp[2];
    char move[2][MOVE_STR_MAX];
    bool any[2];
} Pair;

static void on_pair_info(const char *line, void *ctx)
{
    Pair *pr = ctx;
    InfoLine in;
    if (!info_line_parse(line, &in) || in.multipv < 1 || in.multipv > 2 || !in.pv)
        return;
    const int k = in.multipv - 1;
    pr->cp[k] = info_line_cp(&in);
    snprintf(pr->move[k], sizeof pr->move[k], "%.*s", (int)strcspn(in.pv, " "), in.pv);
    pr->any[k] = true;
}

/* Sets the game's position before move `ply` and searches it (`extra`: more
 * go fields, or ""), handing each info line to on_line with ctx; the answer's
 * move into best. */
static bool search_position(Worker *wk, const AGame *ag, int ply, const char *extra, void (*on_line)(const char *, void *),
                            void *ctx, char *best)
{
    const Work *w = wk->w;
    if (wk->variant != ag->g->v) {
        if (ep_send(&wk->e, "setoption name Variant value %s", ag->g->v->name))
            return false;
        wk->variant = ag->g->v;
    }
    char fen[FEN_MAX];
    size_t cap = 64 + FEN_MAX + (size_t)ply * MOVE_STR_MAX, len = 0;
    char *cmd = malloc(cap);
    if (!cmd)
        return false;
    len += (size_t)snprintf(cmd, cap, "position fen %s%s", fen_write(&ag->g->start, fen), ply ? " moves" : "");
    for (int i = 0; i < ply; i++)
        len += (size_t)snprintf(cmd + len, cap - len, " %s", ag->text[i]);
    const int sent = ep_send(&wk->e, "%s", cmd);
    free(cmd);
    if (sent || ep_send(&wk->e, "go %s%s", w->o->limit, extra))
        return false;
    char *line;
    if (ep_wait_token(&wk->e, "bestmove", w->o->timeout_ms, on_line, ctx, &line) != 1)
        return false;
    return sscanf(line, "bestmove %127s", best) == 1;
}

/* Whether `text` is move m of p. */
static bool is_move(const Position *p, const char *text, const Move *m)
{
    Move x;
    char why[256];
    return !move_parse(p, text, &x, why, sizeof why) && move_same(&x, m);
}

/* The position before move `ply` of ag: every seat's score and the engine's
 * move; then, when it differs from the move played, the played move's score. */
static bool evaluate(Worker *wk, const AGame *ag, int ply, PlyEval *ev)
{
    Position p = ag->g->start;
    for (int i = 0; i < ply; i++)
        pos_play(&p, &ag->g->moves[i]);
    Last last = {0};
    char best[MOVE_STR_MAX];
    if (!search_position(wk, ag, ply, "", on_info, &last, best) || !last.any)
        return false;
    const Variant *v = ag->g->v;
    const int stm = p.stm;
    ev->depth = last.in.depth;
    ev->best_cp = info_line_cp(&last.in);
    if (v->nseats == 2) {
        ev->score[stm] = ev->best_cp;
        ev->score[v->seats[v->seats[0] == stm]] = -ev->best_cp;
        ev->has[stm] = ev->has[v->seats[v->seats[0] == stm]] = true;
    } else {
        for (int s = 0; s < MAX_SEATS; s++) {
            ev->score[s] = last.in.scores[s];
            ev->has[s] = last.in.has[s];
        }
        ev->score[stm] = ev->best_cp; /* a mate shows as such */
        ev->has[stm] = true;
    }
    snprintf(ev->pv, sizeof ev->pv, "%s", last.pv);
    Move m;
    char why[256];
    if (move_parse(&p, best, &m, why, sizeof why))
        return false; /* not a legal move: a faulty engine */
    move_str(&p, &m, ev->best);
    ev->best_played = ply < ag->g->nplies && move_same(&m, &ag->g->moves[ply]);
    if (ply >= ag->g->nplies || ev->best_played)
        return true;
    /* The best move and the played one searched together, two lines: both
     * scores from one search and one view. (Searched apart, each search had
     * its own tree and a best move could score below the move played.) */
    char extra[2 * MOVE_STR_MAX + 32];
    snprintf(extra, sizeof extra, " searchmoves %s %s", ev->best, ag->text[ply]);
    Pair pr = {0};
    if (ep_send(&wk->e, "setoption name MultiPV value 2"))
        return false;
    const bool searched = search_position(wk, ag, ply, extra, on_pair_info, &pr, best);
    if (ep_send(&wk->e, "setoption name MultiPV value 1"))
        return false;
    if (searched && pr.any[0] && pr.any[1]) {
        const int played_line = is_move(&p, pr.move[0], &ag->g->moves[ply]) ? 0 : 1;
        if (is_move(&p, pr.move[played_line], &ag->g->moves[ply]) && is_move(&p, pr.move[1 - played_line], &m)) {
            ev->played_known = true;
            ev->played_cp = pr.cp[played_line];
            ev->pair_best_cp = pr.cp[1 - played_line];
            /* searched side by side the played move did as well: it was no worse */
            ev->best_played = ev->pair_best_cp <= ev->played_cp;
        }
    }
    return true;
}

/* The game and ply of position `job` of the run: the positions of the games
 * from w->first_game on, in order. */
static void position_of(const Work *w, long job, int *game, int *ply)
{
    int lo = w->first_game, hi = w->ngames - 1; /* the last game whose first job is <= job */
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (w->games[mid].first_job <= job)
            lo = mid;
        else
            hi = mid - 1;
    }
    *game = lo;
    *ply = (int)(job - w->games[lo].first_job);
}

/* Searches position `job` with the engine of `thread` (started when it has
 * none, and once more when it fails) and hands the result to the writer. */
static int evaluate_job(void *ctx, long job, int thread)
{
    Work *w = ctx;
    Worker *wk = &w->workers[thread];
    int game, ply;
    position_of(w, job, &game, &ply);
    AGame *ag = &w->games[game];
    PlyEval ev = {0};
    bool ok = false;
    for (int attempt = 0; attempt < 2 && !ok; attempt++) { /* a crashed or hung engine: once more */
        if (!wk->started && !engine_start(wk)) {
            ep_kill(&wk->e);
            wk->started = false;
            continue;
        }
        ev = (PlyEval){0};
        ok = evaluate(wk, ag, ply, &ev);
        if (!ok) {
            ep_kill(&wk->e);
            wk->started = false;
        }
    }
    ev.done = true;
    ev.failed = !ok;
    pthread_mutex_lock(&w->lock);
    ag->ev[ply] = ev;
    ag->left--;
    w->done_positions++;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
    return 0;
}

/* ---- writing ---- */

/* A score as moves with two decimals ("+0.35"), a mate as "#3" or "#-2". */
static char *score_text(int cp, char *buf, size_t n)
{
    if (cp > MATE_SHOWN)
        snprintf(buf, n, "#%d", INFO_MATE_CP - cp);
    else if (cp < -MATE_SHOWN)
        snprintf(buf, n, "#-%d", INFO_MATE_CP + cp);
    else
        snprintf(buf, n, "%+.2f", cp / 100.0);
    return buf;
}

/* The loss of move ply: the best move's score less the played move's (0 when
 * the engine's move was played, or the played one could not be searched). */
static int loss_of(const PlyEval *ev)
{
    if (!ev->done || ev->failed || ev->best_played || !ev->played_known)
        return 0;
    return ev->pair_best_cp - ev->played_cp; /* > 0: else the played move counts as the best */
}

typedef struct {
    int moves, mistakes, blunders;
    long long loss;
} SeatSum;

/* The comment of move ply. */
static char *move_comment(const Options *o, const AGame *ag, int ply, char *buf, size_t n)
{
    const PlyEval *ev = &ag->ev[ply];
    const Variant *v = ag->g->v;
    if (ev->failed) {
        snprintf(buf, n, "engine failed");
        return buf;
    }
    size_t len = 0;
    char t[32];
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        if (ev->has[s])
            len += (size_t)snprintf(buf + len, n - len, "%s%c %s", len ? " " : "", variant_seat_letter(s),
                                    score_text(ev->score[s], t, sizeof t));
    }
    len += (size_t)snprintf(buf + len, n - len, " /%d", ev->depth);
    if (!ev->best_played) {
        len += (size_t)snprintf(buf + len, n - len, "; best %s %s", ev->best,
                                score_text(ev->played_known ? ev->pair_best_cp : ev->best_cp, t, sizeof t));
        if (ev->played_known) {
            const int loss = loss_of(ev);
            len += (size_t)snprintf(buf + len, n - len, ", played %s, loss %.2f%s",
                                    score_text(ev->played_cp, t, sizeof t), loss / 100.0,
                                    loss >= o->blunder ? " (blunder)" : loss >= o->mistake ? " (mistake)" : "");
        }
        if (ev->pv[0])
            snprintf(buf + len, n - len, "; pv %s", ev->pv);
    }
    return buf;
}

/* Each seat's moves, losses, mistakes and blunders in ag. */
static void sums(const Options *o, const AGame *ag, SeatSum sum[MAX_SEATS])
{
    memset(sum, 0, sizeof(SeatSum) * MAX_SEATS);
    Position p = ag->g->start;
    for (int i = 0; i < ag->g->nplies; i++) {
        const int s = p.stm, loss = loss_of(&ag->ev[i]);
        sum[s].moves++;
        sum[s].loss += loss < LOSS_CAP ? loss : LOSS_CAP;
        sum[s].mistakes += loss >= o->mistake && loss < o->blunder;
        sum[s].blunders += loss >= o->blunder;
        pos_play(&p, &ag->g->moves[i]);
    }
}

/* The summary comment of ag: per seat, its player, moves, average loss,
 * mistakes and blunders. */
static char *summary(const Options *o, const AGame *ag, const SeatSum sum[MAX_SEATS], char *buf, size_t n)
{
    const Variant *v = ag->g->v;
    size_t len = (size_t)snprintf(buf, n, "stern-annotate %s:", o->limit);
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        const char *name = pgn_tag(&ag->pg, record_colour_tag(s));
        len += (size_t)snprintf(buf + len, n - len, "%s %c %s %d moves, average loss %.2f, mistakes %d, blunders %d",
                                i ? ";" : "", variant_seat_letter(s), name ? name : "?", sum[s].moves,
                                sum[s].moves ? sum[s].loss / 100.0 / sum[s].moves : 0.0, sum[s].mistakes,
                                sum[s].blunders);
    }
    return buf;
}

static int write_svg(const Options *o, const AGame *ag, int index)
{
    char path[4096], title[512];
    snprintf(path, sizeof path, "%s/game-%03d.svg", o->svg, index + 1);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "stern-annotate: %s: %s\n", path, strerror(errno));
        return -1;
    }
    const Variant *v = ag->g->v;
    size_t len = (size_t)snprintf(title, sizeof title, "%s, round %s:", v->name,
                                  pgn_tag(&ag->pg, "Round") ? pgn_tag(&ag->pg, "Round") : "?");
    for (int i = 0; i < v->nseats; i++) {
        const char *name = pgn_tag(&ag->pg, record_colour_tag(v->seats[i]));
        len += (size_t)snprintf(title + len, sizeof title - len, " %c %s", variant_seat_letter(v->seats[i]),
                                name ? name : "?");
    }
    int(*score)[MAX_SEATS] = calloc((size_t)ag->npositions + 1, sizeof *score);
    bool(*has)[MAX_SEATS] = calloc((size_t)ag->npositions + 1, sizeof *has);
    int rc = -1;
    if (score && has) {
        for (int i = 0; i < ag->npositions; i++)
            for (int s = 0; s < MAX_SEATS; s++) {
                score[i][s] = ag->ev[i].score[s];
                has[i][s] = ag->ev[i].done && !ag->ev[i].failed && ag->ev[i].has[s];
            }
        rc = eval_graph_svg(f, v, title, ag->npositions, (const int(*)[MAX_SEATS])score,
                            (const bool(*)[MAX_SEATS])has);
    }
    free(score);
    free(has);
    if (fclose(f) || rc) {
        fprintf(stderr, "stern-annotate: %s: cannot write it\n", path);
        return -1;
    }
    if (o->png) {
        char cmd[9000];
        snprintf(cmd, sizeof cmd, "rsvg-convert -o '%s/game-%03d.png' '%s'", o->svg, index + 1, path);
        if (system(cmd)) {
            fprintf(stderr, "stern-annotate: %s: rsvg-convert failed (is Debian's librsvg2-bin installed?)\n", path);
            return -1;
        }
    }
    return 0;
}

/* Writes ag annotated to out (one write, then flushed and synced). */
static int write_game(const Options *o, const AGame *ag, FILE *out, SeatSum sum[MAX_SEATS])
{
    const int n = ag->g->nplies;
    char **comments = calloc((size_t)n + 1, sizeof *comments);
    const char *(*tags)[2] = calloc((size_t)ag->pg.ntags + 1, sizeof *tags);
    char *buf = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&buf, &size);
    int rc = -1;
    if (comments && tags && mem) {
        for (int i = 0; i < n; i++) {
            comments[i] = malloc(1024);
            if (comments[i])
                move_comment(o, ag, i, comments[i], 1024);
        }
        int nt = 0;
        for (int i = 0; i < ag->pg.ntags; i++)
            if (strcmp(ag->pg.tags[i].name, "Annotator")) {
                tags[nt][0] = ag->pg.tags[i].name;
                tags[nt++][1] = ag->pg.tags[i].value;
            }
        char annotator[128], head[2048];
        snprintf(annotator, sizeof annotator, "stern-annotate, %s", o->limit);
        tags[nt][0] = "Annotator";
        tags[nt++][1] = annotator;
        sums(o, ag, sum);
        rc = record_write_as(mem, ag->g, tags, nt, summary(o, ag, sum, head, sizeof head),
                             (const char *const *)comments, ag->pg.result[0] ? ag->pg.result : NULL);
    }
    if (mem)
        fclose(mem);
    if (!rc && (fwrite(buf, 1, size, out) != size || fflush(out) || (out != stdout && fsync(fileno(out)))))
        rc = -1;
    free(buf);
    if (comments)
        for (int i = 0; i < n; i++)
            free(comments[i]);
    free(comments);
    free(tags);
    return rc;
}

/* Each player's moves and losses over the games annotated, for the table at the end. */
typedef struct {
    char name[128];
    SeatSum sum;
} PlayerSum;

static void add_player(PlayerSum *ps, int *n, int cap, const char *name, const SeatSum *s)
{
    int k = 0;
    while (k < *n && strcmp(ps[k].name, name))
        k++;
    if (k == *n) {
        if (*n == cap)
            return;
        ps[*n].sum = (SeatSum){0};
        snprintf(ps[(*n)++].name, sizeof ps->name, "%s", name);
    }
    ps[k].sum.moves += s->moves;
    ps[k].sum.loss += s->loss;
    ps[k].sum.mistakes += s->mistakes;
    ps[k].sum.blunders += s->blunders;
}

static void print_players(const Options *o, const PlayerSum *ps, int n)
{
    if (!n)
        return;
    fprintf(stderr, "%-24s %7s %13s %9s %9s   (mistake: a loss of %.2f moves or more, blunder: %.2f)\n", "player",
            "moves", "average loss", "mistakes", "blunders", o->mistake / 100.0, o->blunder / 100.0);
    for (int k = 0; k < n; k++)
        fprintf(stderr, "%-24s %7d %13.2f %9d %9d\n", ps[k].name, ps[k].sum.moves,
                ps[k].sum.moves ? ps[k].sum.loss / 100.0 / ps[k].sum.moves : 0.0, ps[k].sum.mistakes,
                ps[k].sum.blunders);
}

/* ---- reading ---- */

/* Opens record file `path` for reading. A file that is missing, cannot be
 * opened or is a directory ends the run (status 2, nothing annotated): it
 * holds no record to leave out, and the user named it, so the command is
 * wrong rather than a record. */
static FILE *open_records(const char *path)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f)
        fail("%s: %s (a record file to annotate): nothing annotated", path, strerror(errno));
    if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode))
        fail("%s: %s (a record file to annotate): nothing annotated", path, strerror(EISDIR));
    return f;
}

/* The games read so far, for read_games. */
typedef struct {
    const char *file;
    AGame *games;
    int n, cap, bad;
} Reading;

/* Replays and keeps game pg of the file being read; a record that cannot be
 * read or replayed is reported and left out. */
static int read_game(PgnGame *pg, PgnStatus st, const char *why, void *ctx, char *err, size_t n)
{
    (void)n;
    Reading *rd = ctx;
    if (st != PGN_OK) {
        fprintf(stderr, "stern-annotate: %s%s\n", why, st == PGN_INCOMPLETE ? ": left out" : "");
        rd->bad++;
        return 0;
    }
    Game *g = malloc(sizeof *g);
    if (!g || pgn_replay(pg, rd->file, g, err, n)) {
        fprintf(stderr, "stern-annotate: %s\n", g ? err : "out of memory");
        free(g);
        rd->bad++;
        return 0;
    }
    if (rd->n == rd->cap) {
        rd->cap = rd->cap ? 2 * rd->cap : 16;
        AGame *grown = realloc(rd->games, sizeof *rd->games * (size_t)rd->cap);
        if (!grown)
            fail("out of memory");
        rd->games = grown;
    }
    AGame *ag = &rd->games[rd->n++];
    *ag = (AGame){.pg = *pg, .file = rd->file, .g = g};
    *pg = (PgnGame){0}; /* taken */
    ag->npositions = g->nplies + !pos_over(&g->pos);
    ag->left = ag->npositions;
    ag->text = calloc((size_t)g->nplies + 1, sizeof *ag->text);
    ag->ev = calloc((size_t)ag->npositions + 1, sizeof *ag->ev);
    if (!ag->text || !ag->ev)
        fail("out of memory");
    Position p = g->start;
    for (int i = 0; i < g->nplies; i++) {
        move_str(&p, &g->moves[i], ag->text[i]);
        pos_play(&p, &g->moves[i]);
    }
    return 0;
}

/* Reads and replays every game of the files into *out; a record that cannot be
 * read or replayed is reported (file, line, why) and left out (a file that
 * cannot be opened ends the run: open_records). Returns the number of games;
 * *bad counts the records left out. */
static int read_games(char **files, int nfiles, AGame **out, int *bad)
{
    Reading rd = {0};
    for (int k = 0; k < nfiles; k++) {
        FILE *f = open_records(files[k]);
        char err[PGN_ERR_MAX];
        rd.file = files[k];
        pgn_read_each(f, files[k], PGN_ERRORS_PASS, read_game, &rd, err, sizeof err);
        fclose(f);
    }
    *out = rd.games;
    *bad = rd.bad;
    return rd.n;
}

/* The annotated games a file holds already, for resumed. */
typedef struct {
    const char *path;
    const AGame *games;
    int ngames, k;
    long end; /* just past the last complete one */
} Resuming;

static int resumed_game(PgnGame *pg, PgnStatus st, const char *why, void *ctx, char *err, size_t n)
{
    (void)why, (void)err, (void)n;
    Resuming *r = ctx;
    if (st == PGN_INCOMPLETE)
        return 1; /* cut off below */
    if (r->k >= r->ngames || pg->nmoves != r->games[r->k].pg.nmoves)
        fail("%s: cannot resume: its game %d is not the annotation of input game %d", r->path, r->k + 1, r->k + 1);
    r->end = pg->end;
    r->k++;
    return 0;
}

/* With -resume: the complete games FILE holds already (an incomplete last one
 * is cut off); each must be the annotation of the input game in its place.
 * Returns how many to skip. */
static int resumed(const char *path, const AGame *games, int ngames)
{
    FILE *f = fopen(path, "r+");
    if (!f)
        return 0;
    Resuming r = {.path = path, .games = games, .ngames = ngames};
    char err[PGN_ERR_MAX];
    if (pgn_read_each(f, path, PGN_ERRORS_END, resumed_game, &r, err, sizeof err) < 0)
        fail("%s: cannot resume: %s", path, err);
    if (ftruncate(fileno(f), r.end))
        fail("%s: %s", path, strerror(errno));
    fclose(f);
    return r.k;
}

/* ---- the run ---- */

/* The progress of the run on stderr, in the form of stern-arena's progress
 * line: "[K/N] games annotated, P/Q positions, T left": K games written of N
 * (those kept by -resume included), P positions searched of the Q this run
 * searches, and the time left at this run's pace so far (once a position is
 * done and while some are left). On a terminal the line (after a bar) is
 * rewritten in place at every change; otherwise (a log file, a batch job) it
 * is printed as a line of its own after every game written (`game_written`),
 * so that a long run shows it is alive. Lock held. */
static void progress(const Work *w, int written, bool game_written)
{
    const bool tty = isatty(STDERR_FILENO);
    if (!tty && !game_written)
        return;
    char eta[48] = "", d[32];
    const long long left = w->positions - w->done_positions;
    if (w->done_positions && left > 0) {
        const double per_position = (double)(ep_now_ms() - w->t0) / 1000.0 / (double)w->done_positions;
        duration_text(per_position * (double)left, d, sizeof d);
        snprintf(eta, sizeof eta, ", %s left", d);
    }
    char line[256];
    snprintf(line, sizeof line, "[%d/%d] games annotated, %lld/%lld positions%s", written, w->ngames,
             w->done_positions, w->positions, eta);
    if (!tty) {
        fprintf(stderr, "stern-annotate: %s\n", line);
        return;
    }
    const int width = 30;
    const int fill = w->positions ? (int)(width * w->done_positions / w->positions) : width;
    fprintf(stderr, "\r[%.*s%*s] %s%-12s", fill, "##############################", width - fill, "", line, "");
    fflush(stderr);
}

static void parse_args(int argc, char **argv, Options *o, char ***files, int *nfiles)
{
    *o = (Options){.mistake = 100, .blunder = 300};
    snprintf(o->limit, sizeof o->limit, "movetime 200");
    o->timeout_ms = 200 + SLACK_MS;
    args_sibling("stern", o->engine, sizeof o->engine);
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o->concurrency = cpus > 0 ? (int)cpus : 1;
    *files = argv + argc;
    *nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        long long x;
        if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            exit(0);
        } else if (!strcmp(a, "-resume")) {
            o->resume = true;
        } else if (!strcmp(a, "-png")) {
            o->png = true;
        } else if (a[0] != '-') {
            *files = argv + i;
            *nfiles = argc - i;
            return;
        } else if (!val) {
            fail("%s needs a value\n%s", a, usage_text);
        } else if (!strcmp(a, "-depth") || !strcmp(a, "-nodes") || !strcmp(a, "-movetime")) {
            if (!args_int("stern-annotate", a, val, 1, !strcmp(a, "-depth") ? 95 : 1000000000000LL, &x))
                exit(2);
            snprintf(o->limit, sizeof o->limit, "%s %lld", a + 1, x);
            o->timeout_ms = !strcmp(a, "-movetime") ? (int)(x < 3600000 ? x : 3600000) + SLACK_MS : UNTIMED_MS;
            i++;
        } else if (!strcmp(a, "-concurrency") || !strcmp(a, "-mistake") || !strcmp(a, "-blunder")) {
            if (!args_int("stern-annotate", a, val, !strcmp(a, "-concurrency") ? 1 : 0, 100000, &x))
                exit(2);
            *(!strcmp(a, "-concurrency") ? &o->concurrency : !strcmp(a, "-mistake") ? &o->mistake : &o->blunder) =
                (int)x;
            i++;
        } else if (!strcmp(a, "-engine")) {
            snprintf(o->engine, sizeof o->engine, "%s", val);
            i++;
        } else if (!strcmp(a, "-option")) {
            char *eq = strchr(argv[i + 1], '=');
            if (!eq || eq == argv[i + 1] || o->noptions == MAX_OPTIONS)
                fail("-option '%s': expected NAME=VALUE (at most %d options)", val, MAX_OPTIONS);
            *eq = 0;
            o->options[o->noptions++] = (EngineOption){argv[i + 1], eq + 1};
            i++;
        } else if (!strcmp(a, "-o")) {
            o->out = val;
            i++;
        } else if (!strcmp(a, "-svg")) {
            o->svg = val;
            i++;
        } else {
            fail("unknown option '%s'\n%s", a, usage_text);
        }
    }
}

/* Opens the annotated records' file: standard output, or -o FILE (with
 * -resume after the games it holds, *skip of them; without, it must be empty). */
static FILE *open_output(const Options *o, const Work *w, int *skip)
{
    *skip = 0;
    if (!o->out)
        return stdout;
    struct stat st;
    if (!o->resume && !stat(o->out, &st) && st.st_size > 0)
        fail("%s holds games already: use -resume to go on, or another file", o->out);
    *skip = o->resume ? resumed(o->out, w->games, w->ngames) : 0;
    FILE *out = fopen(o->out, "a");
    if (!out)
        fail("%s: %s", o->out, strerror(errno));
    return out;
}

/* Starts the search of every position of the games from w->first_game on:
 * position k of the run (work_queue.h) is the k-th of them in game order, on
 * `nworkers` engines. */
static void start_searches(Work *w, WorkQueue *q, int nworkers)
{
    for (int k = w->first_game; k < w->ngames; k++) {
        w->games[k].first_job = (long)w->positions;
        w->positions += w->games[k].npositions;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->changed, NULL);
    w->t0 = ep_now_ms();
    w->workers = calloc((size_t)nworkers, sizeof *w->workers);
    if (!w->workers)
        fail("out of memory");
    for (int k = 0; k < nworkers; k++)
        w->workers[k] = (Worker){.w = w};
    if (work_queue_start(q, (long)w->positions, nworkers, evaluate_job, w))
        fail("cannot start a thread");
}

/* What the run wrote, for its last lines. */
typedef struct {
    int written, failed_positions, write_errors;
    PlayerSum players[64];
    int nplayers;
} Written;

/* Writes each game, in input order, once its positions are searched (the
 * progress line meanwhile), with its graph; sums up each player. */
static void write_games(const Options *o, Work *w, FILE *out, Written *wr)
{
    SeatSum sum[MAX_SEATS];
    for (int k = w->first_game; k < w->ngames; k++) {
        AGame *ag = &w->games[k];
        pthread_mutex_lock(&w->lock);
        while (ag->left > 0) {
            progress(w, wr->written, false);
            pthread_cond_wait(&w->changed, &w->lock);
        }
        pthread_mutex_unlock(&w->lock);
        for (int i = 0; i < ag->npositions; i++)
            wr->failed_positions += ag->ev[i].failed;
        wr->write_errors += write_game(o, ag, out, sum) != 0;
        for (int i = 0; i < ag->g->v->nseats; i++) {
            const int s = ag->g->v->seats[i];
            const char *name = pgn_tag(&ag->pg, record_colour_tag(s));
            add_player(wr->players, &wr->nplayers, (int)(sizeof wr->players / sizeof *wr->players), name ? name : "?",
                       &sum[s]);
        }
        if (o->svg)
            wr->write_errors += write_svg(o, ag, k) != 0;
        wr->written++;
        pthread_mutex_lock(&w->lock); /* the workers count positions under it */
        progress(w, wr->written, true);
        pthread_mutex_unlock(&w->lock);
    }
}

static void free_games(Work *w)
{
    for (int k = 0; k < w->ngames; k++) {
        pgn_game_free(&w->games[k].pg);
        free(w->games[k].g);
        free(w->games[k].text);
        free(w->games[k].ev);
    }
    free(w->games);
    free(w->workers);
}

int main(int argc, char **argv)
{
    Options o;
    char **files;
    int nfiles;
    parse_args(argc, argv, &o, &files, &nfiles);
    if (!nfiles)
        fail("no record file given\n%s", usage_text);
    if (o.resume && !o.out)
        fail("-resume needs -o FILE");
    if (o.png && !o.svg)
        fail("-png needs -svg DIR");
    ep_kill_children_on_signals();
    Work w = {.o = &o};
    int bad, skip;
    w.ngames = read_games(files, nfiles, &w.games, &bad); /* first: a file it cannot open leaves nothing made */
    if (o.svg && mkdir(o.svg, 0777) && errno != EEXIST)
        fail("%s: %s", o.svg, strerror(errno));
    FILE *out = open_output(&o, &w, &skip);
    w.first_game = skip;
    const int nworkers = o.concurrency < 1 ? 1 : o.concurrency;
    WorkQueue q;
    start_searches(&w, &q, nworkers);
    static Written wr;
    wr.written = skip;
    write_games(&o, &w, out, &wr);
    work_queue_wait(&q);
    for (int k = 0; k < nworkers; k++)
        if (w.workers[k].started)
            ep_quit(&w.workers[k].e, 1000);
    if (isatty(STDERR_FILENO))
        fputc('\n', stderr);
    if (out != stdout && fclose(out))
        wr.write_errors++;
    fprintf(stderr, "stern-annotate: %d games annotated (%d kept from before), %d records left out, %d positions the engine failed on\n",
            wr.written - skip, skip, bad, wr.failed_positions);
    if (wr.write_errors)
        fprintf(stderr, "stern-annotate: %d writes failed\n", wr.write_errors);
    print_players(&o, wr.players, wr.nplayers);
    free_games(&w);
    return wr.write_errors ? 1 : bad || wr.failed_positions ? 3 : 0;
}
