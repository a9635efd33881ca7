/*
 * nnue.c - loading a net, its accumulators and its integer forward pass
 * (nnue.h; the format is in docs/NNUE.md).
 */
#include "nnue.h"

#include "board.h"

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* x86-64: the SIMD paths are compiled for their instruction sets whatever the
 * build's -march, and chosen by what the CPU has when the engine runs. */
#if defined(__x86_64__)
#include <immintrin.h>
#define NNUE_SIMD 1
#else
#define NNUE_SIMD 0
#endif

#define HEADER_BYTES 96
#define CHECKSUM_BYTES 8

struct Nnue {
    int planes, l1, l2, out_scale;
    char variants[NNUE_FAMILIES + 1];
    int16_t *w1;   /* [planes * 121][l1] */
    int16_t *b1;   /* [l1] */
    int32_t *lin;  /* [planes * 121]: the linear path's weight of each input */
    int8_t *w2;    /* [l2][2 * l1] */
    int32_t *b2;   /* [l2] */
    int16_t *w3;   /* [l2] */
    int32_t b3;
    void *block;   /* one aligned allocation holding the arrays */
};

/* --- the board from each seat's view ------------------------------------ */

static uint8_t view_hole[MAX_SEATS][NUM_HOLES];
static pthread_once_t view_once = PTHREAD_ONCE_INIT;

/* Turns the board by 60 degrees k times about its centre in cube coordinates
 * ((q, r, s) -> (-r, -s, -q) once) until seat s's home tip lands on the
 * south tip: the turn that shows the board as seat s sits. */
static void build_views(void)
{
    board_init();
    for (int s = 0; s < MAX_SEATS; s++) {
        for (int k = 0; k < 6; k++) {
            uint8_t map[NUM_HOLES];
            for (int h = 0; h < NUM_HOLES; h++) {
                int q = geo.q[h], r = geo.r[h];
                for (int i = 0; i < k; i++) {
                    const int cs = -q - r;
                    const int nq = -r, nr = -cs;
                    q = nq;
                    r = nr;
                }
                map[h] = (uint8_t)board_hole_at(q, r);
            }
            if (map[geo.tip[s]] == geo.tip[POINT_S]) {
                memcpy(view_hole[s], map, sizeof map);
                break;
            }
        }
    }
}

int nnue_hole(int s, int h)
{
    pthread_once(&view_once, build_views);
    return view_hole[s][h];
}

/* Plane of the marbles of seat `owner` from seat `view`'s view: 0 for its own,
 * then the variant's seats in turn order after it. */
static int plane_of(const Variant *v, int view, int owner)
{
    const int d = v->slot[owner] - v->slot[view];
    return d < 0 ? d + v->nseats : d;
}

int nnue_feature(const Variant *v, int view, int owner, int h)
{
    return plane_of(v, view, owner) * NUM_HOLES + nnue_hole(view, h);
}

/* --- the file ----------------------------------------------------------- */

static uint32_t get32(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }
static uint64_t get64(const uint8_t *b) { return get32(b) | (uint64_t)get32(b + 4) << 32; }
static int16_t get16s(const uint8_t *b) { return (int16_t)(uint16_t)(b[0] | b[1] << 8); }

/* Whether no position can take net's sums out of their integer types: the
 * first layer's int16 and the linear path's int32 with every input active
 * that a view can have (NNUE_MAX_ACTIVE), the second layer's int32 with its
 * bias. A net the trainer writes always fits; a made-up one may not. */
static bool sums_fit(const Nnue *net, char *err, size_t errlen)
{
    const int inputs = net->planes * NUM_HOLES;
    int64_t lin_max = 0;
    for (int f = 0; f < inputs; f++)
        lin_max = llabs(net->lin[f]) > lin_max ? llabs(net->lin[f]) : lin_max;
    for (int j = 0; j < net->l1; j++) {
        int64_t w_max = 0;
        for (int f = 0; f < inputs; f++) {
            const int64_t w = llabs(net->w1[(size_t)f * net->l1 + j]);
            w_max = w > w_max ? w : w_max;
        }
        if (llabs(net->b1[j]) + NNUE_MAX_ACTIVE * w_max > INT16_MAX) {
            snprintf(err, errlen, "first-layer weights too large: unit %d can leave int16", j);
            return false;
        }
    }
    bool b2_fit = true;
    for (int k = 0; k < net->l2; k++)
        b2_fit = b2_fit && llabs(net->b2[k]) <= (1LL << 30);
    if (NNUE_MAX_ACTIVE * lin_max > (1LL << 30) || !b2_fit) {
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
    if (version != NNUE_VERSION) {
        snprintf(err, errlen, "net format version %u, this engine reads %d", version, NNUE_VERSION);
        return NULL;
    }
    if (planes < 2 || planes > MAX_SEATS || l1 < 16 || l1 > NNUE_MAX_L1 || l1 % 16 || l2 < 1 || l2 > NNUE_MAX_L2 ||
        out_scale <= 0 || out_scale > NNUE_MAX_SCALE) {
        snprintf(err, errlen, "net sizes out of range (planes %u, L1 %u, L2 %u, scale %d)", planes, l1, l2,
                 out_scale);
        return NULL;
    }
    const size_t inputs = (size_t)planes * NUM_HOLES;
    const size_t body = inputs * l1 * 2 + l1 * 2 + inputs * 4 + (size_t)l2 * 2 * l1 + l2 * 4 + l2 * 2 + 4;
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
    const size_t w1n = inputs * l1, w2n = (size_t)l2 * 2 * l1;
    const size_t bytes_needed = w1n * 2 + l1 * 2 + inputs * 4 + w2n + l2 * 4 + l2 * 2 + 6 * 64;
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
    TAKE(net->b2, l2, 4);
    TAKE(net->w3, l2, 2);
#undef TAKE
    net->block = block;
    net->planes = (int)planes;
    net->l1 = (int)l1;
    net->l2 = (int)l2;
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
    for (size_t i = 0; i < l2; i++, r += 4)
        net->b2[i] = (int32_t)get32(r);
    for (size_t i = 0; i < l2; i++, r += 2)
        net->w3[i] = get16s(r);
    net->b3 = (int32_t)get32(r);
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

bool nnue_serves(const Nnue *net, const Variant *v)
{
    if (v->nseats != net->planes || v->nseats != 2 || v->capture)
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

/* --- accumulators ------------------------------------------------------- */

/* Adds (sign 1) or takes away (sign -1) input row f to the sums a (l1 wide)
 * and its linear weight to *lin. */
static void add_row(const Nnue *net, int16_t *a, int32_t *lin, int f, int sign)
{
    const int16_t *w = net->w1 + (size_t)f * net->l1;
    *lin += sign * net->lin[f];
    if (sign > 0)
        for (int j = 0; j < net->l1; j++)
            a[j] = (int16_t)(a[j] + w[j]);
    else
        for (int j = 0; j < net->l1; j++)
            a[j] = (int16_t)(a[j] - w[j]);
}

void nnue_refresh(const Nnue *net, const Position *p, NnueAcc *acc)
{
    const Variant *v = p->v;
    for (int i = 0; i < 2; i++) {
        acc->bb[i] = p->seat_bb[v->seats[i]];
        memcpy(acc->v[i], net->b1, sizeof(int16_t) * net->l1);
        acc->lin[i] = 0;
    }
    for (int view = 0; view < 2; view++)
        for (int i = 0; i < 2; i++)
            for (Bitboard b = acc->bb[i]; b; b &= b - 1)
                add_row(net, acc->v[view], &acc->lin[view], nnue_feature(v, v->seats[view], v->seats[i], bb_first(b)), 1);
    acc->net = net;
    acc->valid = true;
}

void nnue_update(const Nnue *net, const NnueAcc *from, const Position *p, NnueAcc *acc)
{
    const Variant *v = p->v;
    Bitboard now[2] = {p->seat_bb[v->seats[0]], p->seat_bb[v->seats[1]]};
    if (acc != from)
        for (int view = 0; view < 2; view++) {
            memcpy(acc->v[view], from->v[view], sizeof(int16_t) * net->l1);
            acc->lin[view] = from->lin[view];
        }
    for (int i = 0; i < 2; i++) {
        const Bitboard gone = from->bb[i] & ~now[i], came = now[i] & ~from->bb[i];
        for (int view = 0; view < 2; view++) {
            for (Bitboard b = gone; b; b &= b - 1)
                add_row(net, acc->v[view], &acc->lin[view], nnue_feature(v, v->seats[view], v->seats[i], bb_first(b)), -1);
            for (Bitboard b = came; b; b &= b - 1)
                add_row(net, acc->v[view], &acc->lin[view], nnue_feature(v, v->seats[view], v->seats[i], bb_first(b)), 1);
        }
        acc->bb[i] = now[i];
    }
    acc->net = net;
    acc->valid = true;
}

/* Marbles that differ between acc and p, or INT_MAX when acc holds none of
 * this net's sums. */
static int distance_to(const Nnue *net, const NnueAcc *acc, const Position *p)
{
    if (!acc || !acc->valid || acc->net != net)
        return INT_MAX;
    const Variant *v = p->v;
    return bb_count(acc->bb[0] ^ p->seat_bb[v->seats[0]]) + bb_count(acc->bb[1] ^ p->seat_bb[v->seats[1]]);
}

/* Beyond this many changed marbles a refresh (20 rows per view) is as cheap. */
#define UPDATE_MAX 12

void nnue_ensure(const Nnue *net, const Position *p, NnueAcc *acc, const NnueAcc *near)
{
    const int self = distance_to(net, acc, p);
    if (self == 0)
        return;
    const int other = distance_to(net, near, p);
    if (other <= self && other <= UPDATE_MAX)
        nnue_update(net, near, p, acc);
    else if (self <= UPDATE_MAX)
        nnue_update(net, acc, p, acc);
    else
        nnue_refresh(net, p, acc);
}

/* --- the layers after the first ----------------------------------------- */

static inline int clip127(int x) { return x < 0 ? 0 : x > 127 ? 127 : x; }

/* The clipped first layer: the side to move's half, then the other's. */
static void first_layer(const Nnue *net, const NnueAcc *acc, const Position *p, uint8_t *x)
{
    const int us = p->v->slot[p->stm] == 1;
    for (int j = 0; j < net->l1; j++) {
        x[j] = (uint8_t)clip127(acc->v[us][j]);
        x[net->l1 + j] = (uint8_t)clip127(acc->v[!us][j]);
    }
}

/* The output from the second layer's sums h (l2 of them, before the shift)
 * and the linear path: half the difference of the two views' sums, the side
 * to move's first (rounded down). */
static int finish(const Nnue *net, const NnueAcc *acc, const Position *p, const int32_t *h)
{
    const int us = p->v->slot[p->stm] == 1;
    int64_t out = net->b3 + (((int64_t)acc->lin[us] - acc->lin[!us]) >> 1);
    for (int k = 0; k < net->l2; k++)
        out += (int64_t)net->w3[k] * clip127(h[k] >> 6);
    const int64_t v = out * net->out_scale / (NNUE_QA * NNUE_QO);
    return (int)(v > NNUE_VALUE_MAX ? NNUE_VALUE_MAX : v < -NNUE_VALUE_MAX ? -NNUE_VALUE_MAX : v);
}

int nnue_output_scalar(const Nnue *net, const NnueAcc *acc, const Position *p)
{
    _Alignas(64) uint8_t x[2 * NNUE_MAX_L1];
    int32_t h[NNUE_MAX_L2];
    first_layer(net, acc, p, x);
    const int n = 2 * net->l1;
    for (int k = 0; k < net->l2; k++) {
        const int8_t *w = net->w2 + (size_t)k * n;
        int32_t sum = net->b2[k];
        for (int j = 0; j < n; j++)
            sum += (int32_t)w[j] * x[j];
        h[k] = sum;
    }
    return finish(net, acc, p, h);
}

#if NNUE_SIMD
/* The clipped first layer 16 bytes at a time: packus saturates to 0-255,
 * then min 127 (exact: the sums are int16). */
__attribute__((target("ssse3"))) static void first_layer_simd(const Nnue *net, const NnueAcc *acc, const Position *p, uint8_t *x)
{
    const int us = p->v->slot[p->stm] == 1;
    const __m128i top = _mm_set1_epi8(127);
    for (int half = 0; half < 2; half++) {
        const int16_t *a = acc->v[half ? !us : us];
        uint8_t *o = x + half * net->l1;
        for (int j = 0; j < net->l1; j += 16) {
            const __m128i lo = _mm_load_si128((const __m128i *)(a + j));
            const __m128i hi = _mm_load_si128((const __m128i *)(a + j + 8));
            _mm_store_si128((__m128i *)(o + j), _mm_min_epu8(_mm_packus_epi16(lo, hi), top));
        }
    }
}

/* The second layer's sums, SSSE3: u8 x s8 pairs (_mm_maddubs_epi16: at
 * most 2 x 127 x 128 = 32512, so it never saturates), widened to int32 and
 * summed; four rows at a time end in one horizontal add. */
__attribute__((target("ssse3"))) static void second_layer_ssse3(const Nnue *net, const uint8_t *x, int32_t *h)
{
    const int n = 2 * net->l1;
    const __m128i ones = _mm_set1_epi16(1);
    for (int k = 0; k < net->l2; k++) {
        const int8_t *w = net->w2 + (size_t)k * n;
        __m128i sum = _mm_setzero_si128();
        for (int j = 0; j < n; j += 16) {
            const __m128i prod = _mm_maddubs_epi16(_mm_load_si128((const __m128i *)(x + j)),
                                                   _mm_loadu_si128((const __m128i *)(w + j)));
            sum = _mm_add_epi32(sum, _mm_madd_epi16(prod, ones));
        }
        sum = _mm_hadd_epi32(sum, sum);
        sum = _mm_hadd_epi32(sum, sum);
        h[k] = net->b2[k] + _mm_cvtsi128_si32(sum);
    }
}

/* One row's products with x (n bytes, a multiple of 32) as eight int32
 * partial sums, by AVX2. */
__attribute__((target("avx2"))) static inline __m256i row_avx2(const int8_t *w, const uint8_t *x, int n)
{
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i sum = _mm256_setzero_si256();
    for (int j = 0; j < n; j += 32) {
        const __m256i prod = _mm256_maddubs_epi16(_mm256_load_si256((const __m256i *)(x + j)),
                                                  _mm256_loadu_si256((const __m256i *)(w + j)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(prod, ones));
    }
    return sum;
}

/* The same with AVX2, 32 bytes at a time, where the CPU has it. */
__attribute__((target("avx2"))) static void second_layer_avx2(const Nnue *net, const uint8_t *x, int32_t *h)
{
    const int n = 2 * net->l1;
    int k = 0;
    for (; k + 4 <= net->l2; k += 4) {
        __m256i s[4];
        for (int r = 0; r < 4; r++)
            s[r] = row_avx2(net->w2 + (size_t)(k + r) * n, x, n);
        /* lanes of the four rows' sums, then the two 128-bit halves added */
        const __m256i a = _mm256_hadd_epi32(_mm256_hadd_epi32(s[0], s[1]), _mm256_hadd_epi32(s[2], s[3]));
        const __m128i four = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        _mm_storeu_si128((__m128i *)(h + k),
                         _mm_add_epi32(four, _mm_loadu_si128((const __m128i *)(net->b2 + k))));
    }
    for (; k < net->l2; k++) {
        const __m256i sum = row_avx2(net->w2 + (size_t)k * n, x, n);
        const __m128i q = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        const __m128i r2 = _mm_hadd_epi32(q, q);
        h[k] = net->b2[k] + _mm_cvtsi128_si32(_mm_hadd_epi32(r2, r2));
    }
}

/* The fastest path this CPU runs (asked once; the same answer on every thread). */
static NnuePath cpu_best(void)
{
    static atomic_int known; /* 0 not asked yet, else the path + 1 */
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (!k) {
        __builtin_cpu_init();
        k = 1 + (__builtin_cpu_supports("avx2") ? NNUE_AVX2 : __builtin_cpu_supports("ssse3") ? NNUE_SSSE3 : NNUE_SCALAR);
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return (NnuePath)(k - 1);
}

bool nnue_path_available(NnuePath path) { return path <= cpu_best(); }

int nnue_output_path(const Nnue *net, const NnueAcc *acc, const Position *p, NnuePath path)
{
    if (path == NNUE_SCALAR || !nnue_path_available(path))
        return nnue_output_scalar(net, acc, p);
    _Alignas(64) uint8_t x[2 * NNUE_MAX_L1];
    int32_t h[NNUE_MAX_L2];
    first_layer_simd(net, acc, p, x);
    if (path == NNUE_AVX2 && net->l1 % 32 == 0)
        second_layer_avx2(net, x, h);
    else
        second_layer_ssse3(net, x, h);
    return finish(net, acc, p, h);
}

int nnue_output(const Nnue *net, const NnueAcc *acc, const Position *p)
{
    return nnue_output_path(net, acc, p, cpu_best());
}
#else
int nnue_output_path(const Nnue *net, const NnueAcc *acc, const Position *p, NnuePath path)
{
    (void)path;
    return nnue_output_scalar(net, acc, p);
}

bool nnue_path_available(NnuePath path) { return path == NNUE_SCALAR; }

int nnue_output(const Nnue *net, const NnueAcc *acc, const Position *p) { return nnue_output_scalar(net, acc, p); }
#endif
