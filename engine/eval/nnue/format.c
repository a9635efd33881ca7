/*
 * format.c - a net file read into a net: its header, its arrays, its checksum
 * and the check that no position can take its sums out of their integer types
 * (nnue.h: nnue_from_bytes, nnue_delete, nnue_variants, nnue_serves,
 * nnue_is_multi; both format versions are in docs/NNUE.md).
 */
#include "net.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define HEADER_BYTES 96
#define CHECKSUM_BYTES 8

static uint32_t get32(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }
static uint64_t get64(const uint8_t *b) { return get32(b) | (uint64_t)get32(b + 4) << 32; }
static int16_t get16s(const uint8_t *b) { return (int16_t)(uint16_t)(b[0] | b[1] << 8); }

/* Whether no position can take net's sums out of their integer types: the
 * first layer's int16 and the linear path's int32 with every input active
 * that a view can have (a version-1 net NNUE_MAX_ACTIVE; a version-2 net of N
 * seats N x NNUE_SEAT_MARBLES), the second layer's int32 with its bias. A net
 * the trainer writes always fits; a made-up one may not. */
static bool sums_fit(const Nnue *net, char *err, size_t errlen)
{
    const int inputs = net->planes * NUM_HOLES;
    const int64_t active = net->version == NNUE_VERSION ? NNUE_MAX_ACTIVE : (int64_t)net->planes * NNUE_SEAT_MARBLES;
    int64_t lin_max = 0;
    for (int f = 0; f < inputs; f++)
        lin_max = llabs(net->lin[f]) > lin_max ? llabs(net->lin[f]) : lin_max;
    for (int j = 0; j < net->l1; j++) {
        int64_t w_max = 0;
        for (int f = 0; f < inputs; f++) {
            const int64_t w = llabs(net->w1[(size_t)f * net->l1 + j]);
            w_max = w > w_max ? w : w_max;
        }
        if (llabs(net->b1[j]) + active * w_max > INT16_MAX) {
            snprintf(err, errlen, "first-layer weights too large: unit %d can leave int16", j);
            return false;
        }
    }
    /* a second-layer sum adds at most width x 127 x 128 (under 2^24) to its
     * bias; the output's int64 holds anything */
    bool b2_fit = true;
    for (int k = 0; k < net->buckets * net->l2; k++)
        b2_fit = b2_fit && llabs(net->b2[k]) <= (1LL << 30);
    if (active * lin_max > (1LL << 30) || !b2_fit) {
        snprintf(err, errlen, "linear weights or second-layer biases too large for their sums");
        return false;
    }
    return true;
}

Nnue *nnue_from_bytes(const void *bytes, size_t n, char *err, size_t errlen)
{
    const uint8_t *b = bytes;
    if (n < HEADER_BYTES || memcmp(b, NNUE_MAGIC, 8)) {
        snprintf(err, errlen, "not a Stern net (no %s header)", NNUE_MAGIC);
        return NULL;
    }
    const uint32_t version = get32(b + 8), planes = get32(b + 12), l1 = get32(b + 16), l2 = get32(b + 20);
    const int32_t out_scale = (int32_t)get32(b + 24);
    if (version != NNUE_VERSION && version != NNUE_VERSION_MULTI) {
        snprintf(err, errlen, "net format version %u, this engine reads %d and %d", version, NNUE_VERSION,
                 NNUE_VERSION_MULTI);
        return NULL;
    }
    /* version 1: two seats (more planes are read, and serve no variant);
     * version 2: three to six */
    const uint32_t planes_min = version == NNUE_VERSION ? 2 : 3;
    if (planes < planes_min || planes > MAX_SEATS || l1 < 16 || l1 > NNUE_MAX_L1 || l1 % 16 || l2 < 1 ||
        l2 > NNUE_MAX_L2 || out_scale <= 0 || out_scale > NNUE_MAX_SCALE) {
        snprintf(err, errlen, "net sizes out of range (planes %u, L1 %u, L2 %u, scale %d)", planes, l1, l2,
                 out_scale);
        return NULL;
    }
    /* version 1: one set of layers after the first, on both views (2 x L1);
     * version 2: one per seat (the bucket), on one view (L1) */
    const size_t buckets = version == NNUE_VERSION ? 1 : planes, width = version == NNUE_VERSION ? 2 * l1 : l1;
    const size_t inputs = (size_t)planes * NUM_HOLES;
    const size_t w1n = inputs * l1, w2n = buckets * l2 * width, b2n = buckets * l2;
    const size_t body = w1n * 2 + l1 * 2 + inputs * 4 + w2n + b2n * 4 + b2n * 2 + buckets * 4;
    const size_t want = HEADER_BYTES + body + CHECKSUM_BYTES;
    if (n != want) {
        snprintf(err, errlen, "%s: %zu of %zu bytes", n < want ? "truncated" : "too long", n, want);
        return NULL;
    }
    if (XXH3_64bits(b, n - CHECKSUM_BYTES) != get64(b + n - CHECKSUM_BYTES)) {
        snprintf(err, errlen, "checksum mismatch (the file is damaged)");
        return NULL;
    }
    Nnue *net = calloc(1, sizeof *net);
    const size_t bytes_needed = w1n * 2 + l1 * 2 + inputs * 4 + w2n + b2n * 4 + b2n * 2 + buckets * 4 + 7 * 64;
    void *block = NULL;
    if (!net || posix_memalign(&block, 64, bytes_needed)) {
        free(net);
        snprintf(err, errlen, "out of memory for the net");
        return NULL;
    }
    uint8_t *at = block;
#define TAKE(ptr, count, size)                                         \
    do {                                                               \
        (ptr) = (void *)at;                                            \
        at += ((size_t)(count) * (size) + 63) / 64 * 64;               \
    } while (0)
    TAKE(net->w1, w1n, 2);
    TAKE(net->b1, l1, 2);
    TAKE(net->lin, inputs, 4);
    TAKE(net->w2, w2n, 1);
    TAKE(net->b2, b2n, 4);
    TAKE(net->w3, b2n, 2);
    TAKE(net->b3, buckets, 4);
#undef TAKE
    net->block = block;
    net->view_hole = nnue_view_table();
    net->path = nnue_path_best();
    net->version = (int)version;
    net->planes = (int)planes;
    net->l1 = (int)l1;
    net->l2 = (int)l2;
    net->buckets = (int)buckets;
    net->width = (int)width;
    net->out_scale = out_scale;
    memcpy(net->variants, b + 32, NNUE_FAMILIES);
    net->variants[NNUE_FAMILIES] = 0;
    const uint8_t *r = b + HEADER_BYTES;
    for (size_t i = 0; i < w1n; i++, r += 2)
        net->w1[i] = get16s(r);
    for (size_t i = 0; i < l1; i++, r += 2)
        net->b1[i] = get16s(r);
    for (size_t i = 0; i < inputs; i++, r += 4)
        net->lin[i] = (int32_t)get32(r);
    for (size_t i = 0; i < w2n; i++, r++)
        net->w2[i] = (int8_t)*r;
    for (size_t i = 0; i < b2n; i++, r += 4)
        net->b2[i] = (int32_t)get32(r);
    for (size_t i = 0; i < b2n; i++, r += 2)
        net->w3[i] = get16s(r);
    for (size_t i = 0; i < buckets; i++, r += 4)
        net->b3[i] = (int32_t)get32(r);
    if (!sums_fit(net, err, errlen)) {
        nnue_delete(net);
        return NULL;
    }
    return net;
}

void nnue_delete(Nnue *net)
{
    if (!net)
        return;
    free(net->block);
    free(net);
}

const char *nnue_variants(const Nnue *net) { return net->variants; }

bool nnue_is_multi(const Nnue *net) { return net->version == NNUE_VERSION_MULTI; }

bool nnue_serves(const Nnue *net, const Variant *v)
{
    if (v->nseats != net->planes || v->capture)
        return false;
    if (net->version == NNUE_VERSION ? v->nseats != 2 : v->nseats < 3)
        return false;
    /* Team variants (pairs-4, pairs-6) are refused for now: a team's standing
     * would be its two members' views together, which version 2 does not
     * define (the search of teams compares units, places.h). */
    if (v->teams)
        return false;
    const size_t len = strlen(v->name);
    for (const char *s = net->variants; *s;) {
        const char *end = strchr(s, ',');
        const size_t n = end ? (size_t)(end - s) : strlen(s);
        if (n == len && !strncmp(s, v->name, n))
            return true;
        if (!end)
            break;
        s = end + 1;
    }
    return false;
}
