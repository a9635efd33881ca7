/* ccpcells.c - CCP's cell ids, moves and positions; see ccpcells.h. */
#include "ccpcells.h"

#include "board.h"
#include "errmsg.h"
#include "fen.h"
#include "notation.h"
#include "position.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t cell_of[NUM_HOLES], hole_of[NUM_HOLES];
static pthread_once_t cells_once = PTHREAD_ONCE_INIT;

/* Cell ids rank the holes by (r, q); Stern's holes run rows from r = 8 down to
 * r = -8, q ascending in each (board.h), so the ids are the rows in reverse. */
static void cells_init(void)
{
    board_init();
    int id = 0;
    for (int r = -8; r <= 8; r++)
        for (int q = -8; q <= 8; q++) {
            const int h = board_hole_at(q, r);
            if (h >= 0) {
                cell_of[h] = (uint8_t)id;
                hole_of[id++] = (uint8_t)h;
            }
        }
}

int ccp_cell_of_hole(int h)
{
    pthread_once(&cells_once, cells_init);
    return cell_of[h];
}

int ccp_hole_of_cell(int c)
{
    pthread_once(&cells_once, cells_init);
    return hole_of[c];
}

char *ccp_move_str(const Position *p, const Move *m, char *buf)
{
    uint8_t path[MAX_PATH];
    const int n = move_path(p, m, path);
    char *o = buf;
    for (int i = 0; i < n; i++)
        o += sprintf(o, "%s%d", i ? "-" : "", ccp_cell_of_hole(path[i]));
    return buf;
}

int ccp_move_parse(const Position *p, const char *text, Move *out, char *err, size_t errlen)
{
    char names[MOVE_STR_MAX];
    size_t n = 0;
    int items = 0;
    for (const char *s = text;; s++) {
        if (*s < '0' || *s > '9')
            return errmsg(err, errlen, "move '%s': expected cell ids 0-120 separated by '-' or ','", text);
        char *end;
        const long c = strtol(s, &end, 10);
        if (c > 120 || end - s > 3)
            return errmsg(err, errlen, "move '%s': cell id %.*s is not 0-120", text, (int)(end - s), s);
        if (++items > MAX_PATH)
            return errmsg(err, errlen, "move '%s': more than %d cells", text, MAX_PATH);
        char hole[4];
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? "-" : "",
                              board_hole_name(ccp_hole_of_cell((int)c), hole));
        s = end;
        if (!*s)
            break;
        if (*s != '-' && *s != ',')
            return errmsg(err, errlen, "move '%s': expected cell ids 0-120 separated by '-' or ','", text);
    }
    if (items < 2)
        return errmsg(err, errlen, "move '%s': a move names at least two cells", text);
    char why[512];
    if (move_parse(p, names, out, why, sizeof why))
        return errmsg(err, errlen, "(%s) %s", names, why);
    return 0;
}

int ccp_move_parse_as_referee(const Position *p, const char *text, Move *out, char *err, size_t errlen)
{
    char clean[MOVE_STR_MAX];
    size_t n = 0;
    const char *first = NULL, *last = NULL;
    size_t first_len = 0, last_len = 0;
    for (const char *s = text; *s;) {
        const size_t len = strcspn(s, "-,");
        if (len) {
            if (n + len + 2 > sizeof clean)
                return errmsg(err, errlen, "move '%.40s...': too long", text);
            n += (size_t)snprintf(clean + n, sizeof clean - n, "%s%.*s", n ? "-" : "", (int)len, s);
            if (!first) {
                first = s;
                first_len = len;
            }
            last = s;
            last_len = len;
        }
        s += len;
        s += *s != 0;
    }
    if (!ccp_move_parse(p, clean, out, err, errlen))
        return 0;
    if (!first || first == last)
        return -1;
    char ends[16];
    snprintf(ends, sizeof ends, "%.*s-%.*s", (int)(first_len < 5 ? first_len : 5), first,
             (int)(last_len < 5 ? last_len : 5), last);
    char why[512];
    return ccp_move_parse(p, ends, out, why, sizeof why) ? -1 : 0; /* err keeps the path's reason */
}

int ccp_position_fen(const char *cells, long player, long ply, char *fen, char *err, size_t errlen)
{
    if (strlen(cells) != NUM_HOLES)
        return errmsg(err, errlen, "cells: %zu characters, expected %d", strlen(cells), NUM_HOLES);
    if (player != 0 && player != 1)
        return errmsg(err, errlen, "player must be 0 or 1");
    if (ply < 0 || ply > 239)
        return errmsg(err, errlen, "ply must be 0-239 (the game ends at 240)");
    if ((ply & 1) != player) /* white (player 0) moves first, so on the even plies */
        return errmsg(err, errlen, "ply %ld is %s: player %d is to move, not %ld", ply, ply & 1 ? "odd" : "even",
                      (int)(ply & 1), player);
    Position p;
    memset(&p, 0, sizeof p);
    p.v = variant_find(CCP_VARIANT);
    for (int c = 0; c < NUM_HOLES; c++) {
        const char ch = cells[c];
        if (ch != '.' && ch != '0' && ch != '1')
            return errmsg(err, errlen, "cells: '%c' at cell %d (expected '.', '0' or '1')", ch, c);
        if (ch != '.')
            p.seat_bb[ch == '0' ? SEAT_WHITE : SEAT_BLACK] |= bb_bit(ccp_hole_of_cell(c));
    }
    p.moves[SEAT_BLACK] = (int16_t)(ply / 2); /* white has the odd ply's move more */
    p.moves[SEAT_WHITE] = (int16_t)(ply - ply / 2);
    p.round = (int16_t)(ply / 2 + 1);
    p.stm = player ? SEAT_BLACK : SEAT_WHITE;
    pos_refresh(&p);
    fen_write(&p, fen);
    return 0;
}

void ccp_cells_of(const Position *p, char *cells, int *player, int *ply)
{
    for (int c = 0; c < NUM_HOLES; c++) {
        const int piece = p->board[ccp_hole_of_cell(c)];
        cells[c] = piece == SEAT_WHITE + 1 ? '0' : piece == SEAT_BLACK + 1 ? '1' : '.';
    }
    cells[NUM_HOLES] = 0;
    *player = p->stm == SEAT_BLACK;
    *ply = p->moves[SEAT_WHITE] + p->moves[SEAT_BLACK];
}
