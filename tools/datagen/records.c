/* records.c - stern-datagen's file format; see records.h. */
#include "records.h"

#include "eval.h"
#include "exe_id.h"
#include "node.h"
#include "nnue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put16(uint8_t *b, int x)
{
    b[0] = (uint8_t)(x & 255);
    b[1] = (uint8_t)((x >> 8) & 255);
}
static void put32(uint8_t *b, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(x >> (8 * i));
}
static void put64(uint8_t *b, uint64_t x)
{
    put32(b, (uint32_t)x);
    put32(b + 4, (uint32_t)(x >> 32));
}
static uint32_t get32(const uint8_t *b) { return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24; }
static uint64_t get64(const uint8_t *b) { return get32(b) | (uint64_t)get32(b + 4) << 32; }

int records_version(const Variant *v) { return v->nseats == 2 ? 1 : 3; }

void records_header_write(const RecordsHeader *h, uint8_t *b)
{
    memset(b, 0, RECORDS_HEADER);
    memcpy(b, "STERNDAT", 8);
    put32(b + 8, (uint32_t)h->version);
    put32(b + 12, (uint32_t)h->record);
    memcpy(b + 16, h->v->name, strnlen(h->v->name, 23));
    put64(b + 40, h->seed);
    put32(b + 48, (uint32_t)h->nodes);
    put32(b + 52, (uint32_t)h->random);
    put64(b + 56, (uint64_t)h->written);
    put64(b + 64, h->records);
    put64(b + 72, h->checksum);
    b[80] = (uint8_t)h->v->nseats;
    for (int i = 0; i < h->v->nseats; i++)
        b[81 + i] = (uint8_t)h->v->seats[i];
    put32(b + 88, (uint32_t)h->shard);
    put32(b + 92, (uint32_t)h->shards);
    put64(b + 96, (uint64_t)h->games);
    b[104] = (uint8_t)h->teacher;
    for (int s = 0; s < MAX_SEATS; s++)
        for (int hole = 0; hole < NUM_HOLES; hole++)
            b[128 + s * NUM_HOLES + hole] = (uint8_t)nnue_hole(s, hole);
    memcpy(b + 864, h->engine, strnlen(h->engine, 63));
    memcpy(b + 928, h->net, strnlen(h->net, RECORDS_ID_MAX - 1));
}

bool records_header_read(const uint8_t *b, RecordsHeader *h, char *err, size_t errlen)
{
    *h = (RecordsHeader){0};
    if (memcmp(b, "STERNDAT", 8)) {
        snprintf(err, errlen, "not a stern-datagen file");
        return false;
    }
    h->version = (int)get32(b + 8);
    h->record = (int)get32(b + 12);
    if (!(h->version == 1 && h->record == RECORDS_V1) && !(h->version == 2 && h->record == RECORDS_V2) &&
        !(h->version == 3 && h->record == RECORDS_V3)) {
        snprintf(err, errlen, "format %d with %d-byte records: this build reads 1 (64), 2 (88) and 3 (100)", h->version,
                 h->record);
        return false;
    }
    char name[25];
    memcpy(name, b + 16, 24);
    name[24] = 0;
    h->v = variant_find(name);
    if (!h->v) {
        snprintf(err, errlen, "unknown variant '%s'", name);
        return false;
    }
    h->seed = get64(b + 40);
    h->nodes = get32(b + 48);
    h->random = get32(b + 52);
    h->written = (long long)get64(b + 56);
    h->records = get64(b + 64);
    h->checksum = get64(b + 72);
    h->shard = get32(b + 88);
    h->shards = get32(b + 92) ? get32(b + 92) : 1; /* files before shards: one process */
    h->games = (long long)get64(b + 96);
    h->teacher = b[104];
    memcpy(h->engine, b + 864, 63);
    memcpy(h->net, b + 928, RECORDS_ID_MAX - 1);
    if (h->written < 0 || h->written > 100000000 || h->records > ((uint64_t)1 << 40) || h->shard >= h->shards ||
        h->teacher > RECORDS_TEACHER_NET) {
        snprintf(err, errlen, "a damaged header (%lld games, %llu records, shard %lld of %lld, teacher %d)",
                 h->written, (unsigned long long)h->records, h->shard, h->shards, h->teacher);
        return false;
    }
    return true;
}

long long records_shard_games(const RecordsHeader *h)
{
    return h->games > h->shard ? (h->games - h->shard + h->shards - 1) / h->shards : 0;
}

long long records_game_number(const RecordsHeader *h, long long index) { return h->shard + index * h->shards; }

void records_engine_id(char id[64])
{
    uint64_t hash;
    if (exe_id_of(0, &hash))
        snprintf(id, 64, "stern-datagen exe %016llx", (unsigned long long)hash);
    else
        snprintf(id, 64, "stern-datagen exe unknown");
}

/* The cells and the side to move, as both formats begin. */
static void encode_cells(const Position *p, uint8_t *rec)
{
    for (int h = 0; h < NUM_HOLES; h++)
        rec[h / 2] |= (uint8_t)((p->board[h] & 15) << (h % 2 ? 4 : 0));
    rec[61] = (uint8_t)p->stm;
}

void records_encode_v1(const Position *p, int score, uint8_t *rec)
{
    memset(rec, 0, RECORDS_V1);
    encode_cells(p, rec);
    put16(rec + 62, score);
}

/* Each slot's standing in p (eval_standings' own with `teacher`'s evaluation,
 * clipped to int16) at b, two bytes a slot. */
static void put_standings(const Position *p, EvalMemo *teacher, uint8_t *b)
{
    const Variant *v = p->v;
    int own[MAX_SEATS], rival[MAX_SEATS];
    eval_standings(p, own, rival, teacher); /* the trainer's teacher */
    for (int i = 0; i < v->nseats; i++) {
        const int u = variant_unit(v, v->seats[i]);
        const int st = own[u] > INT16_MAX ? INT16_MAX : own[u] < -INT16_MAX ? -INT16_MAX : own[u];
        put16(b + 2 * i, st);
    }
}

/* The seat that plays m of a searched line in p: the owner of the marble it
 * moves (a best reply is any opponent's); in capture mode, where the pieces
 * are no seat's, the side to move. -1 when m moves no marble of a seat in play. */
static int line_mover(const Position *p, const Move *m)
{
    if (p->v->capture)
        return p->stm;
    const int s = p->board[m->from] - 1;
    return s >= 0 && s < MAX_SEATS && p->v->slot[s] >= 0 && p->status[s] == ST_PLAYING ? s : -1;
}

int records_line_leaf(const Position *p, const Move *pv, int pvlen, Position *leaf)
{
    const Variant *v = p->v;
    *leaf = *p;
    int depth = 0;
    for (; depth < pvlen; depth++) {
        const int s = line_mover(leaf, &pv[depth]);
        if (s < 0)
            break;
        Position next = *leaf;
        if (next.stm != s)
            pos_set_stm(&next, s);
        if (!node_legal_move(&next, &pv[depth], NULL))
            break;
        pos_play(&next, &pv[depth]);
        bool arrived = pos_over(&next);
        for (int i = 0; i < v->nseats; i++)
            arrived = arrived || (next.place[v->seats[i]] && !leaf->place[v->seats[i]]);
        if (arrived)
            break;
        *leaf = next;
    }
    return depth;
}

void records_encode_v3(const Position *p, int score, const Position *leaf, int depth, long long game, int ply,
                       EvalMemo *teacher, uint8_t *rec)
{
    const Variant *v = p->v;
    memset(rec, 0, RECORDS_V3);
    encode_cells(p, rec);
    put16(rec + 62, score);
    for (int i = 0; i < v->nseats; i++)
        if (p->place[v->seats[i]])
            rec[67] |= (uint8_t)(1 << i);
    put_standings(p, teacher, rec + 68);
    put32(rec + 80, (uint32_t)game);
    put16(rec + 84, ply);
    rec[86] = (uint8_t)(depth > 255 ? 255 : depth);
    put_standings(leaf, teacher, rec + 88);
}

void records_set_places(const Position *end, uint8_t *rec)
{
    const Variant *v = end->v;
    for (int i = 0; i < v->nseats; i++)
        rec[64 + i / 2] |= (uint8_t)((end->place[v->seats[i]] & 15) << (i % 2 ? 4 : 0));
}

long long records_game_of(const uint8_t *rec) { return get32(rec + 80); }
