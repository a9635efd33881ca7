/* fen.c - FEN parsing and writing; see fen.h. */
#include "fen.h"

#include "board.h"
#include "errmsg.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEN_MAX_COUNT 32767 /* moves and rounds are kept in 16 bits */

static const int ROW_LEN[17] = {1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1};


/* Reads a decimal number of at most 5 digits at *s; -1 when none. */
static long read_number(const char **s)
{
    const char *p = *s;
    long n = 0;
    int digits = 0;
    while (isdigit((unsigned char)*p) && digits < 6) {
        n = n * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits || digits > 5)
        return -1;
    *s = p;
    return n;
}

static int parse_board(Position *p, const Variant *v, const char *s, const char *end, char *err, size_t errlen)
{
    int row = 0, col = 0, h = 0;
    for (; s < end; s++) {
        const char c = *s;
        if (c == '/') {
            if (col != ROW_LEN[row])
                return errmsg(err, errlen, "fen board: row %d has %d holes, expected %d", 17 - row, col, ROW_LEN[row]);
            if (++row >= 17)
                return errmsg(err, errlen, "fen board: more than 17 rows");
            col = 0;
            continue;
        }
        if (isdigit((unsigned char)c)) {
            const char *q = s;
            const long n = read_number(&q);
            if (n < 1 || n > 13 || col + n > ROW_LEN[row])
                return errmsg(err, errlen, "fen board: bad run of empty holes in row %d", 17 - row);
            col += (int)n;
            h += (int)n;
            s = q - 1;
            continue;
        }
        if (col >= ROW_LEN[row])
            return errmsg(err, errlen, "fen board: row %d has more than %d holes", 17 - row, ROW_LEN[row]);
        if (tolower((unsigned char)c) == 'x') {
            if (!v->capture)
                return errmsg(err, errlen, "fen board: piece 'x' in row %d, but %s has no neutral pieces", 17 - row, v->name);
            p->neutral |= bb_bit(h);
        } else {
            const int seat = variant_seat_of_letter(c);
            if (seat < 0)
                return errmsg(err, errlen, "fen board: unknown piece '%c' in row %d", c, 17 - row);
            if (v->capture || v->slot[seat] < 0)
                return errmsg(err, errlen, "fen board: piece '%c' in row %d, but %s has no %s marbles", c, 17 - row,
                            v->name, v->capture ? "seat" : "such");
            p->seat_bb[seat] |= bb_bit(h);
        }
        col++;
        h++;
    }
    if (row != 16 || col != ROW_LEN[16])
        return errmsg(err, errlen, "fen board: expected 17 complete rows, got %d", row + 1);
    return 0;
}

/* One seat entry "<letter><moves>[c<captures>][=<place>|=|!<place>]". */
static int parse_seat(Position *p, const Variant *v, int slot, const char *s, const char *end, char *err, size_t errlen)
{
    const int seat = v->seats[slot];
    if (s >= end || variant_seat_of_letter(*s) != seat)
        return errmsg(err, errlen, "fen seats: entry %d must start with '%c'", slot + 1, variant_seat_letter(seat));
    s++;
    const long moves = read_number(&s);
    if (moves < 0 || moves > FEN_MAX_COUNT)
        return errmsg(err, errlen, "fen seats: '%c' needs its number of moves (0-%d)", variant_seat_letter(seat),
                    FEN_MAX_COUNT);
    p->moves[seat] = (int16_t)moves;
    if (v->capture) {
        long caps;
        if (s >= end || *s != 'c' || (s++, caps = read_number(&s)) < 0 || caps > 60)
            return errmsg(err, errlen, "fen seats: '%c' needs c<captures> in capture mode", variant_seat_letter(seat));
        p->captures[seat] = (int16_t)caps;
    }
    if (s < end && (*s == '=' || *s == '!')) {
        const bool arrived = *s++ == '=';
        long place = 0;
        if (s < end && (place = read_number(&s)) < 1)
            return errmsg(err, errlen, "fen seats: bad place for '%c'", variant_seat_letter(seat));
        if (place > v->nunits || (!arrived && !place) || (!place && !v->teams))
            return errmsg(err, errlen, "fen seats: bad place for '%c'", variant_seat_letter(seat));
        p->status[seat] = arrived ? ST_ARRIVED : ST_ELIMINATED;
        p->place[seat] = (uint8_t)place;
    }
    if (s != end)
        return errmsg(err, errlen, "fen seats: unexpected '%c' in the entry of '%c'", *s, variant_seat_letter(seat));
    return 0;
}

static int check_material(const Position *p, const Variant *v, char *err, size_t errlen)
{
    if (v->capture) {
        int total = bb_count(p->neutral);
        for (int i = 0; i < v->nseats; i++)
            total += p->captures[v->seats[i]];
        if (total != 60)
            return errmsg(err, errlen, "fen: pieces on the board plus captures make %d, expected 60", total);
        return 0;
    }
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        const int n = bb_count(p->seat_bb[s]);
        const int want = (p->status[s] == ST_ELIMINATED && v->nseats > 2) ? 0 : v->marbles;
        if (n != want)
            return errmsg(err, errlen, "fen: seat '%c' has %d marbles, expected %d", variant_seat_letter(s), n, want);
    }
    return 0;
}

/* Statuses no game can reach (RULES.md sections 5-6): an elimination in first
 * place (it takes the worst place still free, and the game ends while two units
 * are unplaced), and a two-seat game going on after an elimination (it ends the
 * game at once). A seat in play with every marble in its target is taken: tests
 * build such positions to make several seats arrive on one move, and it arrives
 * at the next move's check. */
static int check_status(const Position *p, const Variant *v, char *err, size_t errlen)
{
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        const char c = variant_seat_letter(s);
        if (p->status[s] == ST_ELIMINATED && p->place[s] == 1)
            return errmsg(err, errlen, "fen seats: '%c' is eliminated in first place (it takes the worst place free)", c);
        if (p->status[s] == ST_ELIMINATED && v->nseats == 2 && p->stm >= 0)
            return errmsg(err, errlen, "fen: '%c' is eliminated, which ends a two-seat game: side to move must be '-'", c);
    }
    return 0;
}

/* Reason a finished game loaded from a FEN ended (the FEN does not say). */
static EndReason infer_reason(const Position *p)
{
    const Variant *v = p->v;
    if (v->capture)
        return END_CAPTURES;
    bool arrived = false, eliminated = false, any_move = false;
    int unplaced = 0;
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        arrived |= p->status[s] == ST_ARRIVED;
        eliminated |= p->status[s] == ST_ELIMINATED;
        unplaced += !p->place[s] && variant_unit(v, s) == s; /* seats, or teams */
        any_move |= p->status[s] == ST_PLAYING && pos_has_move(p, s);
    }
    if (v->ccerl) /* a winner in place 1 whose marbles are not all home won by a full target or the loser's lack of moves */
        for (int i = 0; i < 2; i++) {
            const int s = v->seats[i];
            if (p->status[s] == ST_ARRIVED && (p->seat_bb[s] & ~v->target[s]))
                return (p->occ & v->target[s]) == v->target[s] ? END_BLOCKED : END_NOMOVES;
        }
    if (arrived && (v->nseats == 2 || unplaced <= 1))
        return END_ARRIVED;
    if (eliminated && (v->nseats == 2 || unplaced <= 1))
        return END_DEADLINE;
    if (p->round >= v->round_limit)
        return END_LIMIT;
    return any_move ? END_REPETITION : END_NOMOVES;
}

int fen_parse(Position *out, const Variant *v, const char *fen, char *err, size_t errlen)
{
    const char *field[4], *fend[4];
    const char *s = fen;
    int nf = 0;
    while (*s == ' ' || *s == '\t') s++;
    while (*s && nf < 5) {
        if (nf == 4)
            return errmsg(err, errlen, "fen: more than 4 fields");
        field[nf] = s;
        while (*s && *s != ' ' && *s != '\t') s++;
        fend[nf++] = s;
        while (*s == ' ' || *s == '\t') s++;
    }
    if (nf != 4)
        return errmsg(err, errlen, "fen: expected 4 fields (board, side to move, seats, round), got %d", nf);
    Position p;
    memset(&p, 0, sizeof p);
    p.v = v;
    if (parse_board(&p, v, field[0], fend[0], err, errlen))
        return -1;
    /* field 3: seats */
    const char *e = field[2];
    for (int i = 0; i < v->nseats; i++) {
        const char *c = e;
        while (c < fend[2] && *c != ',') c++;
        if (parse_seat(&p, v, i, e, c, err, errlen))
            return -1;
        if (i < v->nseats - 1 && c >= fend[2])
            return errmsg(err, errlen, "fen seats: %d entries, %s needs %d", i + 1, v->name, v->nseats);
        e = c + 1;
    }
    if (e <= fend[2])
        return errmsg(err, errlen, "fen seats: more than %d entries for %s", v->nseats, v->name);
    if (check_material(&p, v, err, errlen))
        return -1;
    /* field 2: side to move */
    if (fend[1] - field[1] != 1)
        return errmsg(err, errlen, "fen: side to move must be one seat letter or '-'");
    if (*field[1] == '-') {
        p.stm = -1;
    } else {
        const int stm = variant_seat_of_letter(*field[1]);
        if (stm < 0 || v->slot[stm] < 0)
            return errmsg(err, errlen, "fen: side to move '%c' is not a seat of %s", *field[1], v->name);
        if (p.status[stm] != ST_PLAYING)
            return errmsg(err, errlen, "fen: side to move '%c' is out of play", *field[1]);
        p.stm = (int8_t)stm;
    }
    /* field 4: round */
    const char *r = field[3];
    const long round = read_number(&r);
    /* Capture mode has no round limit, but every move captures one of the 60
     * pieces at least: 60 more moves cannot overflow the 16-bit counters. */
    const long max_round = v->capture ? FEN_MAX_COUNT - 60 : v->round_limit;
    if (round < 1 || r != fend[3] || round > max_round)
        return errmsg(err, errlen, "fen: round must be a number from 1 to %ld", max_round);
    p.round = (int16_t)round;
    /* A seat moves at most once a round. */
    for (int i = 0; i < v->nseats; i++)
        if (p.moves[v->seats[i]] > round)
            return errmsg(err, errlen, "fen: seat '%c' has %d moves in round %ld (at most one a round)",
                          variant_seat_letter(v->seats[i]), p.moves[v->seats[i]], round);
    if (check_status(&p, v, err, errlen))
        return -1;
    pos_refresh(&p);
    if (p.stm < 0)
        pos_finish(&p, infer_reason(&p));
    else
        pos_ccerl_end_checks(&p); /* the rating list checks the end before each move */
    *out = p;
    return 0;
}

/* A position occurs for the third time (RULES.md section 5) at the earliest
 * after two moves away and two back of a seat. */
#define REPETITION_MIN_MOVES 4

bool fen_end_unexplained(const Position *p)
{
    if (!pos_over(p) || p->reason != END_REPETITION)
        return false;
    for (int i = 0; i < p->v->nseats; i++)
        if (p->moves[p->v->seats[i]] >= REPETITION_MIN_MOVES)
            return false;
    return true;
}

char *fen_write(const Position *p, char *buf)
{
    const Variant *v = p->v;
    char *o = buf;
    int h = 0;
    for (int row = 0; row < 17; row++) {
        if (row)
            *o++ = '/';
        int empty = 0;
        for (int col = 0; col < ROW_LEN[row]; col++, h++) {
            const int piece = p->board[h];
            if (!piece) {
                empty++;
                continue;
            }
            if (empty)
                o += sprintf(o, "%d", empty);
            empty = 0;
            *o++ = piece == PIECE_NEUTRAL ? 'x' : variant_seat_letter(piece - 1);
        }
        if (empty)
            o += sprintf(o, "%d", empty);
    }
    o += sprintf(o, " %c ", p->stm < 0 ? '-' : variant_seat_letter(p->stm));
    for (int i = 0; i < v->nseats; i++) {
        const int s = v->seats[i];
        o += sprintf(o, "%s%c%d", i ? "," : "", variant_seat_letter(s), p->moves[s]);
        if (v->capture)
            o += sprintf(o, "c%d", p->captures[s]);
        if (p->status[s] == ST_ARRIVED)
            o += p->place[s] ? sprintf(o, "=%d", p->place[s]) : sprintf(o, "=");
        else if (p->status[s] == ST_ELIMINATED)
            o += sprintf(o, "!%d", p->place[s]);
    }
    sprintf(o, " %d", p->round);
    return buf;
}
