/* position.c - making moves and the rules that act after them; see position.h. */
#include "position.h"

#include "board.h"
#include "movegen.h"
#include "zobrist.h"

#include <string.h>

static void set_stm(Position *p, int s);
static bool ccerl_end(Position *p, bool black_next);

static void put(Position *p, int h, int piece)
{
    p->board[h] = (uint8_t)piece;
    p->occ |= bb_bit(h);
    if (piece == PIECE_NEUTRAL) {
        p->neutral |= bb_bit(h);
    } else {
        p->seat_bb[piece - 1] |= bb_bit(h);
        p->tip_sum[piece - 1] += p->v->tip_dist[piece - 1][h];
    }
    p->key ^= zobrist.piece[piece][h];
}

static void take(Position *p, int h)
{
    const int piece = p->board[h];
    p->board[h] = 0;
    p->occ &= ~bb_bit(h);
    if (piece == PIECE_NEUTRAL) {
        p->neutral &= ~bb_bit(h);
    } else {
        p->seat_bb[piece - 1] &= ~bb_bit(h);
        p->tip_sum[piece - 1] -= p->v->tip_dist[piece - 1][h];
    }
    p->key ^= zobrist.piece[piece][h];
}

static void set_status(Position *p, int s, SeatStatus st, int place)
{
    p->key ^= zobrist.status[s][p->status[s]][p->place[s]];
    p->status[s] = (uint8_t)st;
    p->place[s] = (uint8_t)place;
    p->key ^= zobrist.status[s][st][place];
}

void pos_set_stm(Position *p, int s) { set_stm(p, s); }

static void set_stm(Position *p, int s)
{
    p->key ^= zobrist.stm[p->stm < 0 ? MAX_SEATS : p->stm];
    p->stm = (int8_t)s;
    p->key ^= zobrist.stm[s < 0 ? MAX_SEATS : s];
}

void pos_refresh(Position *p)
{
    zobrist_init();
    p->arrivals_checked = 0;
    p->occ = p->neutral;
    memset(p->board, 0, sizeof p->board);
    p->key = zobrist.stm[p->stm < 0 ? MAX_SEATS : p->stm];
    for (Bitboard b = p->neutral; b;) {
        const int h = bb_pop(&b);
        p->board[h] = PIECE_NEUTRAL;
        p->key ^= zobrist.piece[PIECE_NEUTRAL][h];
    }
    for (int s = 0; s < MAX_SEATS; s++) {
        p->occ |= p->seat_bb[s];
        p->tip_sum[s] = 0;
        for (Bitboard b = p->seat_bb[s]; b;) {
            const int h = bb_pop(&b);
            p->tip_sum[s] += p->v->tip_dist[s][h];
            p->board[h] = (uint8_t)(s + 1);
            p->key ^= zobrist.piece[s + 1][h];
        }
        if (p->v->slot[s] >= 0)
            p->key ^= zobrist.status[s][p->status[s]][p->place[s]];
    }
}

void pos_set_start(Position *p, const Variant *v)
{
    memset(p, 0, sizeof *p);
    p->v = v;
    p->round = 1;
    p->stm = (int8_t)v->seats[0];
    if (v->capture)
        p->neutral = v->start;
    else
        for (int i = 0; i < v->nseats; i++)
            p->seat_bb[v->seats[i]] = v->home[v->seats[i]];
    pos_refresh(p);
}

const char *pos_reason_name(EndReason r)
{
    static const char *const names[] = {"none", "arrived", "deadline", "limit", "repetition", "nomoves", "captures", "blocked"};
    return names[r];
}

int pos_target_distance(const Position *p, int s)
{
    int sum = 0;
    for (Bitboard b = p->seat_bb[s] & ~p->v->target[s]; b;)
        sum += p->v->target_dist[s][bb_pop(&b)];
    return sum;
}

bool pos_has_move(const Position *p, int s)
{
    const Variant *v = p->v;
    if (v->capture) {
        uint8_t land[MAX_LINE], over[MAX_LINE];
        for (Bitboard b = p->neutral; b;) {
            const int h = bb_pop(&b);
            for (int d = 0; d < NUM_DIRS; d++)
                if (gen_jump_landings(v->jump, p->occ & ~bb_bit(h), h, d, land, over))
                    return true;
        }
        return false;
    }
    /* A free step is the usual answer; chains and swaps only when no step exists. */
    const Bitboard empty = ~p->occ & ~v->foreign[s], target = v->target[s];
    const Bitboard free = p->seat_bb[s] & ~target; /* free to step anywhere */
    for (int w = 0; w < 2; w++) /* word by word: 64-bit sets pop cheaper */
        for (uint64_t b = bb_word(free, w); b; b &= b - 1)
            if (geo.adjacent[64 * w + __builtin_ctzll(b)] & empty)
                return true;
    for (Bitboard b = p->seat_bb[s] & target; b;) /* locked in the target */
        if (geo.adjacent[bb_pop(&b)] & empty & target)
            return true;
    for (Bitboard b = p->seat_bb[s]; b;)
        if (gen_can_move(p, s, bb_pop(&b)))
            return true;
    return false;
}

/* ---- places ---- */

/* The seats making up the unit (seat or team) of seat s. */
static int unit_members(const Position *p, int s, int members[2])
{
    const int partner = variant_partner(p->v, s);
    members[0] = s;
    if (partner < 0)
        return 1;
    members[1] = partner;
    return 2;
}

/* Bit i set when place i is taken by some unit. */
static unsigned taken_places(const Position *p)
{
    unsigned taken = 0;
    for (int i = 0; i < p->v->nseats; i++)
        if (p->place[p->v->seats[i]])
            taken |= 1u << p->place[p->v->seats[i]];
    return taken;
}

static int free_place(const Position *p, bool worst)
{
    const unsigned taken = taken_places(p);
    int found = 0;
    for (int pl = 1; pl <= p->v->nunits; pl++)
        if (!(taken & (1u << pl))) {
            found = pl;
            if (!worst)
                break;
        }
    return found;
}

static void eliminate(Position *p, int s)
{
    int members[2];
    const int n = unit_members(p, s, members);
    const int place = free_place(p, true);
    for (int i = 0; i < n; i++) {
        set_status(p, members[i], ST_ELIMINATED, place);
        if (p->v->nseats > 2)
            for (Bitboard b = p->seat_bb[members[i]]; b;)
                take(p, bb_pop(&b));
    }
}

static void arrive(Position *p, int s)
{
    if (p->v->nseats == 2) { /* the reply rule decides; an arrival is always first */
        set_status(p, s, ST_ARRIVED, 1);
        return;
    }
    const int partner = variant_partner(p->v, s);
    if (partner >= 0 && p->status[partner] != ST_ARRIVED) {
        set_status(p, s, ST_ARRIVED, 0);
        return;
    }
    const int place = free_place(p, false);
    set_status(p, s, ST_ARRIVED, place);
    if (partner >= 0)
        set_status(p, partner, ST_ARRIVED, place);
}

/* Ranking key of an unplaced unit: marbles in target (more is better), then
 * summed distance (less is better); in capture mode, captures. */
typedef struct { int seat, in_target, distance; } Rank;

static int rank_better(const Rank *a, const Rank *b)
{
    if (a->in_target != b->in_target)
        return a->in_target > b->in_target ? -1 : 1;
    if (a->distance != b->distance)
        return a->distance < b->distance ? -1 : 1;
    return 0;
}

/* ccerl-2: ends the game with `winner` (a seat, or -1 for a draw) in place 1 and
 * the other seat in place 2. The winner counts as arrived, so that the FEN of the
 * finished game keeps the result (fen.h writes the places of arrived seats). */
static void ccerl_finish(Position *p, int winner, EndReason reason)
{
    for (int i = 0; i < 2; i++) {
        const int s = p->v->seats[i];
        set_status(p, s, s == winner ? ST_ARRIVED : (SeatStatus)p->status[s], winner < 0 || s == winner ? 1 : 2);
    }
    p->reason = (uint8_t)reason;
    set_stm(p, -1);
}

void pos_finish(Position *p, EndReason reason)
{
    const Variant *v = p->v;
    if (v->ccerl && !p->place[v->seats[0]] && !p->place[v->seats[1]]) {
        /* the limit and repetition are plain draws; a finished position loaded
         * from a FEN may still hold an arrival or a full target */
        if (!ccerl_end(p, true))
            ccerl_finish(p, -1, reason);
        return;
    }
    Rank r[MAX_SEATS];
    int n = 0;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        if (p->place[s] || variant_unit(v, s) != s)
            continue;
        int members[2];
        const int m = unit_members(p, s, members);
        Rank k = {s, 0, 0};
        for (int j = 0; j < m; j++) {
            const int t = members[j];
            if (v->capture) {
                k.in_target += p->captures[t];
            } else {
                k.in_target += bb_count(p->seat_bb[t] & v->target[t]);
                k.distance += pos_target_distance(p, t);
            }
        }
        r[n++] = k;
    }
    /* insertion sort: n <= 6 */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && rank_better(&r[j], &r[j - 1]) < 0; j--) {
            const Rank t = r[j];
            r[j] = r[j - 1];
            r[j - 1] = t;
        }
    int frees[MAX_SEATS + 1], nf = 0;
    const unsigned taken = taken_places(p);
    for (int pl = 1; pl <= v->nunits; pl++)
        if (!(taken & (1u << pl)))
            frees[nf++] = pl;
    for (int i = 0; i < n; i++) {
        const int place = (i > 0 && !rank_better(&r[i - 1], &r[i])) ? p->place[r[i - 1].seat] : frees[i];
        int members[2];
        const int m = unit_members(p, r[i].seat, members);
        for (int j = 0; j < m; j++)
            set_status(p, members[j], (SeatStatus)p->status[members[j]], place);
    }
    p->reason = (uint8_t)reason;
    set_stm(p, -1);
}

static int unplaced_units(const Position *p)
{
    int n = 0;
    for (int i = 0; i < p->v->nseats; i++) {
        const int s = p->v->seats[i];
        n += !p->place[s] && variant_unit(p->v, s) == s;
    }
    return n;
}

/* Step (3) for two seats, the reply rule (RULES.md section 6). Returns true when it
 * decided the turn (the game ended, or black replies). */
static bool two_seat_end(Position *p, int mover)
{
    const int w = p->v->seats[0], b = p->v->seats[1];
    const bool w_in = p->status[w] == ST_ARRIVED, b_in = p->status[b] == ST_ARRIVED;
    if (p->status[w] == ST_ELIMINATED || p->status[b] == ST_ELIMINATED) {
        pos_finish(p, w_in || b_in ? END_ARRIVED : END_DEADLINE);
        return true;
    }
    if (!w_in && !b_in)
        return false;
    if (b_in || mover == b || !pos_has_move(p, b)) {
        pos_finish(p, END_ARRIVED);
        return true;
    }
    set_stm(p, b); /* white arrived: black makes its reply */
    return true;
}

/* Step (4): hand the turn on, skipping seats without a legal move. */
static void hand_on(Position *p, int mover)
{
    const Variant *v = p->v;
    const int n = v->nseats, i0 = v->slot[mover], round = p->round;
    for (int k = 1; k <= n; k++) {
        const int j = i0 + k < n ? i0 + k : i0 + k - n; /* (i0 + k) mod n, without a division */
        if (j == 0) {
            if (p->round >= v->round_limit && !v->capture) {
                pos_finish(p, END_LIMIT);
                return;
            }
            p->round++;
        }
        const int t = v->seats[j];
        if (p->status[t] != ST_PLAYING)
            continue;
        if (pos_has_move(p, t)) {
            set_stm(p, t);
            return;
        }
        if (v->ccerl) { /* no pass: a seat without a move loses */
            p->round = round; /* a game over keeps the round of its last move (PROTOCOL.md) */
            ccerl_finish(p, v->seats[v->slot[t] ^ 1], END_NOMOVES);
            return;
        }
        if (v->capture)
            break; /* every seat moves the same pieces: nobody can */
    }
    p->round = round; /* a game over keeps the round of its last move (PROTOCOL.md) */
    pos_finish(p, v->capture ? END_CAPTURES : END_NOMOVES);
}

/* Step (1): the mover's deadline and return-home checks. */
static void deadline_checks(Position *p, int s, const Move *m)
{
    const Variant *v = p->v;
    if (p->moves[s] < v->deadline)
        return;
    const Bitboard home = v->home[s];
    if (!bb_test(home, m->from) && bb_test(home, m->to)) {
        eliminate(p, s);
        return;
    }
    for (Bitboard b = p->seat_bb[s] & home; b;)
        if (gen_can_move(p, s, bb_pop(&b))) {
            eliminate(p, s);
            return;
        }
}

/* Whether seat s of a ccerl-2 game has every target hole full, by itself and by
 * the opponent (its anti-block win). */
static bool ccerl_blocked(const Position *p, int s)
{
    const Bitboard target = p->v->target[s];
    return (p->occ & target) == target && (p->seat_bb[s] & target) && (target & ~p->seat_bb[s]);
}

/* ccerl-2's end checks on a position whose next mover is black when
 * `black_next`, in the rating list's order (docs/CCERL.md): both armies home,
 * white's arrival (a draw when black moves next, has nine in and a move that
 * brings the tenth), black's arrival, white's then black's full target. Returns
 * whether the game ended. */
static bool ccerl_end(Position *p, bool black_next)
{
    const Variant *v = p->v;
    const int w = v->seats[0], b = v->seats[1];
    const bool w_in = !(p->seat_bb[w] & ~v->target[w]), b_in = !(p->seat_bb[b] & ~v->target[b]);
    if (w_in && b_in) {
        ccerl_finish(p, -1, END_ARRIVED);
        return true;
    }
    if (w_in) {
        const Bitboard out = p->seat_bb[b] & ~v->target[b], free = v->target[b] & ~p->occ;
        const bool reply = black_next && bb_count(out) == 1 && free &&
                           gen_reaches(p, p->board, p->occ, b, bb_first(out), free, NULL);
        ccerl_finish(p, reply ? -1 : w, END_ARRIVED);
        return true;
    }
    if (b_in) {
        ccerl_finish(p, b, END_ARRIVED);
        return true;
    }
    for (int i = 0; i < 2; i++)
        if (ccerl_blocked(p, v->seats[i])) {
            ccerl_finish(p, v->seats[i], END_BLOCKED);
            return true;
        }
    return false;
}

bool pos_ccerl_end_checks(Position *p)
{
    return p->v->ccerl && !pos_over(p) && ccerl_end(p, p->stm == p->v->seats[1]);
}

void pos_play(Position *p, const Move *m)
{
    const Variant *v = p->v;
    const int s = p->stm;
    const int piece = p->board[m->from];
    take(p, m->from);
    if (m->swap != NO_HOLE) {
        const int victim = p->board[m->to];
        take(p, m->to);
        put(p, m->swap, victim);
    }
    if (v->capture) {
        for (Bitboard b = m->captured; b;)
            take(p, bb_pop(&b));
        p->captures[s] += m->ncapt;
    }
    put(p, m->to, piece);
    p->moves[s]++;
    if (v->ccerl) {
        if (!ccerl_end(p, s == v->seats[0]))
            hand_on(p, s);
        return;
    }
    if (v->capture) {
        hand_on(p, s);
        return;
    }
    deadline_checks(p, s, m);
    bool arrived = false;
    /* Another seat's marbles and moves are as they were, and the move (or an
     * elimination taking marbles off) fills no target but the one it enters: once
     * every seat was checked, only the mover and that target's seat can have
     * arrived. A swap moves another seat's marble: then every seat is checked. */
    unsigned left = !p->arrivals_checked || m->swap != NO_HOLE ? (1u << MAX_SEATS) - 1
                                                                : (1u << s) | v->target_seats[m->to];
    for (int k = 0, j = v->slot[s]; left && k < v->nseats; k++, j = j + 1 < v->nseats ? j + 1 : 0) {
        const int t = v->seats[j]; /* the seats in turn order from the mover on */
        if (!(left >> t & 1))
            continue;
        left &= ~(1u << t);
        if (p->status[t] == ST_PLAYING && pos_arrived(p, t, p->moves[t])) {
            arrive(p, t);
            arrived = true;
        }
    }
    p->arrivals_checked = 1;
    if (v->nseats == 2) {
        if (two_seat_end(p, s))
            return;
    } else if (unplaced_units(p) <= 1) {
        pos_finish(p, arrived ? END_ARRIVED : END_DEADLINE);
        return;
    }
    hand_on(p, s);
}
