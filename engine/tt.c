/* tt.c - lockless shared transposition table; see tt.h. */
#include "tt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BUCKET_ENTRIES 4
#define HUGE_PAGE ((size_t)2 << 20) /* x86-64 and arm64 huge page size */

typedef struct {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;  /* move 32 | score 16 bits, packed below */
    _Atomic uint64_t meta;  /* depth 8 | bound 2 | age 6 bits, and key ^ meta check in the high half */
} Entry;

typedef struct {
    Entry e[BUCKET_ENTRIES];
} Bucket;

static Bucket *table;
static size_t nbuckets; /* power of two */
static uint8_t age;

static uint64_t pack(const TTData *d)
{
    return (uint64_t)d->move | (uint64_t)(uint16_t)d->score << 32;
}

static uint64_t pack_meta(const TTData *d, uint8_t a)
{
    return (uint64_t)(uint8_t)d->depth | (uint64_t)(d->bound & 3) << 8 | (uint64_t)(a & 63) << 10;
}

int tt_resize(size_t mib)
{
    size_t n = 1;
    while (n * 2 * sizeof(Bucket) <= mib * 1024 * 1024)
        n *= 2;
    /* Aligned to and rounded up to 2 MiB, and offered to the kernel as huge pages:
     * probes land all over the table, and with 4 KiB pages nearly every probe
     * also missed the TLB. */
    const size_t bytes = (n * sizeof(Bucket) + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    Bucket *t = aligned_alloc(HUGE_PAGE, bytes);
    if (!t)
        return -1;
#ifdef MADV_HUGEPAGE
    madvise(t, bytes, MADV_HUGEPAGE); /* a hint: without huge pages it still works */
#endif
    free(table);
    table = t;
    nbuckets = n;
    tt_clear();
    return 0;
}

void tt_clear(void)
{
    memset(table, 0, nbuckets * sizeof(Bucket));
    age = 0;
}

void tt_new_search(void) { age = (uint8_t)((age + 1) & 63); }

static Bucket *bucket_of(uint64_t key) { return &table[key & (nbuckets - 1)]; }

void tt_prefetch(uint64_t key)
{
    const char *b = (const char *)bucket_of(key);
    __builtin_prefetch(b);
    __builtin_prefetch(b + sizeof(Bucket) - 1); /* a bucket may straddle two cache lines */
}

/* The whole entry is validated: check = key ^ data ^ meta. */
bool tt_probe(uint64_t key, TTData *out)
{
    Bucket *b = bucket_of(key);
    for (int i = 0; i < BUCKET_ENTRIES; i++) {
        const uint64_t data = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        const uint64_t meta = atomic_load_explicit(&b->e[i].meta, memory_order_relaxed);
        const uint64_t check = atomic_load_explicit(&b->e[i].check, memory_order_relaxed);
        if ((check ^ data ^ meta) != key || !meta)
            continue;
        out->move = (uint32_t)data;
        out->score = (int16_t)(data >> 32);
        out->depth = (int8_t)(meta & 0xff);
        out->bound = (uint8_t)((meta >> 8) & 3);
        return true;
    }
    return false;
}

void tt_store(uint64_t key, const TTData *in)
{
    Bucket *b = bucket_of(key);
    TTData keep = *in, *d = &keep;
    Entry *victim = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < BUCKET_ENTRIES; i++) {
        Entry *e = &b->e[i];
        const uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        const uint64_t meta = atomic_load_explicit(&e->meta, memory_order_relaxed);
        const uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
        if (!meta || (check ^ data ^ meta) == key) {
            victim = e;
            if (meta && (check ^ data ^ meta) == key && d->bound != BOUND_EXACT && (int)(meta & 0xff) > d->depth + 2 &&
                ((meta >> 10) & 63) == age)
                return; /* keep the deeper result of this search */
            if (!d->move && meta)
                keep.move = (uint32_t)data; /* keep the old best move */
            break;
        }
        const int old = (int)((age - ((meta >> 10) & 63)) & 63);
        const int value = (int)(meta & 0xff) - 8 * old;
        if (value < worst) {
            worst = value;
            victim = e;
        }
    }
    const uint64_t data = pack(d), meta = pack_meta(d, age) | 1u << 16; /* bit 16: never zero */
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->meta, meta, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data ^ meta, memory_order_relaxed);
}

int tt_hashfull(void)
{
    int used = 0, total = 0;
    for (size_t i = 0; i < 250 && i < nbuckets; i++)
        for (int j = 0; j < BUCKET_ENTRIES; j++, total++) {
            const uint64_t meta = atomic_load_explicit(&table[i].e[j].meta, memory_order_relaxed);
            used += meta && ((meta >> 10) & 63) == age;
        }
    return total ? used * 1000 / total : 0;
}
