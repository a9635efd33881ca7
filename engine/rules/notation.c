/* notation.c - move text in and out; see notation.h. */
#include "notation.h"

#include "board.h"
#include "errmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Breadth-first search over jump landings from `from` to `goal` (race games),
 * honouring the target lock; directions in RULES.md order, nearer landings first.
 * Writes the path and returns its length, or 0 when goal is not reachable. */
static int jump_path(const Position *p, int s, int from, int goal, uint8_t path[])
{
    const Bitboard occ = p->occ & ~bb_bit(from);
    const Bitboard target = p->v->target[s];
    uint8_t parent[NUM_HOLES], queue[NUM_HOLES], land[MAX_LINE], over[MAX_LINE];
    Bitboard seen = bb_bit(from);
    int head = 0, tail = 0;
    queue[tail++] = (uint8_t)from;
    while (head < tail) {
        const int c = queue[head++];
        if (c == goal)
            break;
        const Bitboard allowed = bb_test(target, c) ? target : geo.all;
        for (int d = 0; d < NUM_DIRS; d++) {
            const int n = gen_jump_landings(p->v->jump, occ, c, d, land, over);
            for (int i = 0; i < n; i++) {
                if (bb_test(seen, land[i]) || !bb_test(allowed, land[i]))
                    continue;
                seen |= bb_bit(land[i]);
                parent[land[i]] = (uint8_t)c;
                queue[tail++] = land[i];
            }
        }
    }
    if (!bb_test(seen, goal))
        return 0;
    int len = 0;
    for (int h = goal; h != from; h = parent[h])
        path[len++] = (uint8_t)h;
    path[len++] = (uint8_t)from;
    for (int i = 0; i < len / 2; i++) {
        const uint8_t t = path[i];
        path[i] = path[len - 1 - i];
        path[len - 1 - i] = t;
    }
    return len;
}

/* Depth-first search for the first capture chain (direction order) from `from`
 * that ends on m->to having captured exactly m->captured. */
static int capture_path(JumpRule rule, Bitboard occ, int c, const Move *m, Bitboard captured, uint8_t path[], int len)
{
    path[len++] = (uint8_t)c;
    if (len > 1 && c == m->to && captured == m->captured)
        return len;
    uint8_t land[MAX_LINE], over[MAX_LINE];
    for (int d = 0; d < NUM_DIRS; d++) {
        if (!gen_jump_landings(rule, occ, c, d, land, over) || !bb_test(m->captured, over[0]))
            continue;
        const int n = capture_path(rule, occ & ~bb_bit(over[0]), land[0], m, captured | bb_bit(over[0]), path, len);
        if (n)
            return n;
    }
    return 0;
}

int move_path(const Position *p, const Move *m, uint8_t path[])
{
    if (p->v->capture)
        return capture_path(p->v->jump, p->occ & ~bb_bit(m->from), m->from, m, 0, path, 0);
    const int last = m->swap != NO_HOLE ? m->swap : m->to;
    int len;
    if (last == m->from)
        len = 1, path[0] = m->from;
    else if (bb_test(geo.adjacent[m->from], last))
        len = 2, path[0] = m->from, path[1] = (uint8_t)last;
    else
        len = jump_path(p, p->stm, m->from, last, path);
    if (m->swap != NO_HOLE)
        path[len++] = m->to;
    return len;
}

char *move_str(const Position *p, const Move *m, char *buf)
{
    uint8_t path[MAX_PATH];
    const int n = move_path(p, m, path);
    char *o = buf;
    for (int i = 0; i < n; i++) {
        if (i)
            *o++ = '-';
        board_hole_name(path[i], o);
        o += strlen(o);
    }
    *o = 0;
    return buf;
}

/* Direction (0-5) in which b lies on a straight line from a, and the distance;
 * -1 when not on a line. */
static int direction_to(int a, int b, int *dist)
{
    for (int d = 0; d < NUM_DIRS; d++)
        for (int k = 0; k < geo.line_len[a][d]; k++)
            if (geo.line[a][d][k] == b) {
                *dist = k + 1;
                return d;
            }
    return -1;
}

/* Checks hop c -> b as a jump in p's rule under occupancy occ; sets *over to the
 * marble jumped over (the nearest for symmetric jumps). */
static bool is_jump(const Position *p, Bitboard occ, int c, int b, int *over)
{
    int dist;
    const int d = direction_to(c, b, &dist);
    if (d < 0)
        return false;
    uint8_t land[MAX_LINE], ov[MAX_LINE];
    const int n = gen_jump_landings(p->v->jump, occ, c, d, land, ov);
    for (int i = 0; i < n; i++)
        if (land[i] == b) {
            *over = ov[i];
            return true;
        }
    return false;
}

/* Why hop c -> b is not a jump under occupancy occ (is_jump said no): the fault
 * as a phrase, written into why (n bytes). Returns why. */
static const char *hop_fault(const Position *p, Bitboard occ, int c, int b, char *why, size_t n)
{
    char hc[4], hb[4], hm[4];
    board_hole_name(c, hc);
    board_hole_name(b, hb);
    int dist;
    const int d = direction_to(c, b, &dist);
    int between = 0; /* pieces on the holes between c and b */
    for (int k = 0; d >= 0 && k + 1 < dist; k++)
        between += bb_test(occ, geo.line[c][d][k]);
    if (d < 0)
        snprintf(why, n, "%s and %s are not on one line", hc, hb);
    else if (bb_test(occ, b))
        snprintf(why, n, "its landing %s is occupied", hb);
    else if (dist == 1)
        snprintf(why, n, "it is a step, and a step cannot be part of a chain");
    else if (!between)
        snprintf(why, n, "no piece between %s and %s to jump over", hc, hb);
    else if (p->v->jump == JUMP_SHORT)
        snprintf(why, n, "a short jump goes over one neighbour, %s is %d holes away", hb, dist);
    else if (p->v->jump == JUMP_LONG && dist % 2)
        snprintf(why, n, "a long jump needs a midpoint, and %s is %d holes away", hb, dist);
    else if (p->v->jump == JUMP_LONG)
        snprintf(why, n, "a long jump needs one piece on the midpoint %s and the other holes between empty",
                 board_hole_name(geo.line[c][d][dist / 2 - 1], hm));
    else
        snprintf(why, n, "the holes between %s and %s are not a mirrored pattern", hc, hb);
    return why;
}

static int find_move(const MoveList *list, const Move *m)
{
    for (int i = 0; i < list->n; i++)
        if (move_same(&list->m[i], m))
            return i;
    return -1;
}

/* Validates path[0..n-1] hop by hop as a race move; fills *m with its identity. */
static int race_path(const Position *p, const uint8_t path[], int n, Move *m, const char *text, char *err, size_t errlen)
{
    const int s = p->stm;
    const Bitboard target = p->v->target[s];
    char name[8];
    *m = (Move){.from = path[0], .to = path[n - 1], .swap = NO_HOLE};
    if (n == 2 && bb_test(geo.adjacent[path[0]], path[1])) {
        if (bb_test(p->occ, path[1]))
            m->swap = path[0];
        return 0;
    }
    Bitboard occ = p->occ & ~bb_bit(path[0]);
    Bitboard seen = bb_bit(path[0]);
    for (int i = 0; i + 1 < n; i++) {
        const int c = path[i], b = path[i + 1];
        int over;
        if (i + 2 == n && p->v->masters && bb_test(occ, b)) {
            /* a Masters swap: the last short jump lands on the displaced marble */
            const Bitboard lifted = occ & ~bb_bit(b);
            char why[160];
            if (p->v->jump != JUMP_SHORT || !is_jump(p, lifted, c, b, &over))
                return errmsg(err, errlen, "illegal move '%s': %s-%s is not a jump: %s", text, board_hole_name(c, name),
                              board_hole_name(b, name + 4),
                              p->v->jump != JUMP_SHORT ? "a swap ends a short jump"
                                                       : hop_fault(p, lifted, c, b, why, sizeof why));
            m->swap = (uint8_t)c;
            return 0;
        }
        char why[160];
        if (!is_jump(p, occ, c, b, &over))
            return errmsg(err, errlen, "illegal move '%s': hop %d (%s-%s) is not a jump: %s", text, i + 1,
                          board_hole_name(c, name), board_hole_name(b, name + 4), hop_fault(p, occ, c, b, why, sizeof why));
        if (bb_test(seen, b))
            return errmsg(err, errlen, "illegal move '%s': the chain lands twice on %s", text, board_hole_name(b, name));
        if (bb_test(target, c) && !bb_test(target, b))
            return errmsg(err, errlen, "illegal move '%s': a marble in its target must stay there", text);
        seen |= bb_bit(b);
    }
    return 0;
}

/* Validates a capture chain hop by hop; fills *m with its identity. */
static int capture_chain(const Position *p, const uint8_t path[], int n, Move *m, const char *text, char *err, size_t errlen)
{
    char name[8];
    Bitboard occ = p->occ & ~bb_bit(path[0]);
    *m = (Move){.from = path[0], .to = path[n - 1], .swap = NO_HOLE};
    for (int i = 0; i + 1 < n; i++) {
        int over;
        char why[160];
        if (!is_jump(p, occ, path[i], path[i + 1], &over))
            return errmsg(err, errlen, "illegal move '%s': hop %d (%s-%s) is not a capturing jump: %s", text, i + 1,
                          board_hole_name(path[i], name), board_hole_name(path[i + 1], name + 4),
                          hop_fault(p, occ, path[i], path[i + 1], why, sizeof why));
        occ &= ~bb_bit(over);
        m->captured |= bb_bit(over);
        m->ncapt++;
    }
    return 0;
}

int move_parse(const Position *p, const char *text, Move *out, char *err, size_t errlen)
{
    uint8_t path[MAX_PATH];
    int n = 0;
    char name[8];
    if (pos_over(p))
        return errmsg(err, errlen, "illegal move '%s': the game is over", text);
    for (const char *s = text;;) {
        const int h = board_parse_hole(&s);
        if (h < 0)
            return errmsg(err, errlen, "bad move '%s': expected a hole name at '%s'", text, s);
        if (n >= MAX_PATH)
            return errmsg(err, errlen, "bad move '%s': path too long", text);
        path[n++] = (uint8_t)h;
        if (!*s)
            break;
        if (*s++ != '-')
            return errmsg(err, errlen, "bad move '%s': holes must be joined by '-'", text);
    }
    if (n < 2)
        return errmsg(err, errlen, "bad move '%s': a move needs at least two holes", text);
    const int piece = p->board[path[0]];
    if (p->v->capture ? piece != PIECE_NEUTRAL : piece != p->stm + 1)
        return errmsg(err, errlen, "illegal move '%s': no %s on %s", text, p->v->capture ? "piece" : "marble of the side to move",
                    board_hole_name(path[0], name));
    Move m;
    if (p->v->capture) {
        /* every chain of capturing jumps is a legal move: its path alone decides,
         * without listing the others (a position can have millions) */
        const int rc = capture_chain(p, path, n, &m, text, err, errlen);
        if (rc && n == 2)
            return errmsg(err, errlen, "illegal move '%s': %s-%s is not a capturing jump (capture mode needs the full path of a chain)",
                          text, board_hole_name(path[0], name), board_hole_name(path[1], name + 4));
        if (!rc)
            *out = m;
        return rc;
    }
    MoveList list = {0};
    gen_moves(p, &list, NULL);
    if (list.cut) {
        move_list_free(&list);
        return errmsg(err, errlen, "out of memory");
    }
    int rc = race_path(p, path, n, &m, text, err, errlen);
    if (rc && n == 2) {
        /* the from-to shorthand: exactly one legal move with these ends */
        int found = -1, count = 0;
        for (int i = 0; i < list.n; i++)
            if (list.m[i].from == path[0] && list.m[i].to == path[1])
                found = i, count++;
        if (count == 1) {
            m = list.m[found];
            rc = 0;
        } else if (count > 1) {
            rc = errmsg(err, errlen, "ambiguous move '%s': %d moves match, give the full path", text, count);
        }
    }
    if (!rc) {
        const int i = find_move(&list, &m);
        if (i < 0) {
            const int s = p->stm;
            char hole_to[4];
            board_hole_name(m.to, hole_to);
            if (n == 2 && bb_test(p->occ, m.to))
                rc = errmsg(err, errlen, "illegal move '%s': %s is occupied", text, hole_to);
            else if (p->v->foreign_rule && bb_test(p->v->foreign[s], m.to))
                rc = errmsg(err, errlen, "illegal move '%s': it ends on %s, in a point that is neither its home nor its target",
                            text, hole_to);
            else if (bb_test(p->v->target[s], m.from) && !bb_test(p->v->target[s], m.to))
                rc = errmsg(err, errlen, "illegal move '%s': a marble in its target must stay there", text);
            else
                rc = errmsg(err, errlen, "illegal move '%s': not one of the legal moves here (legalmoves lists them)", text);
        }
        else
            *out = list.m[i];
    }
    move_list_free(&list);
    return rc;
}

typedef struct {
    Move m;
    char text[MOVE_STR_MAX];
} SortItem;

static int cmp_items(const void *a, const void *b)
{
    const SortItem *x = a, *y = b;
    if (x->m.from != y->m.from)
        return x->m.from - y->m.from;
    if (x->m.to != y->m.to)
        return x->m.to - y->m.to;
    return strcmp(x->text, y->text);
}

bool move_list_sort(const Position *p, MoveList *list, char (*texts)[MOVE_STR_MAX])
{
    SortItem *items = malloc(sizeof *items * (size_t)(list->n ? list->n : 1));
    if (!items)
        return false;
    for (int i = 0; i < list->n; i++) {
        items[i].m = list->m[i];
        move_str(p, &list->m[i], items[i].text);
    }
    qsort(items, (size_t)list->n, sizeof *items, cmp_items);
    for (int i = 0; i < list->n; i++) {
        list->m[i] = items[i].m;
        memcpy(texts[i], items[i].text, MOVE_STR_MAX);
    }
    free(items);
    return true;
}
