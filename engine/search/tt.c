/* tt.c - lockless shared transposition table; see tt.h. */
#include "tt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BUCKET_ENTRIES 4
#define HUGE_PAGE ((size_t)2 << 20) /* x86-64 and arm64 huge page size */

/* 16 bytes, four to a 64-byte bucket: one cache line per probe. */
typedef struct {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;  /* move 32 | score 16 | depth 7 | used 1 | bound 2 | age 6 bits */
} Entry;

typedef struct {
    Entry e[BUCKET_ENTRIES];
} Bucket;

_Static_assert(sizeof(Bucket) == 64, "a bucket is one cache line");

#define USED_BIT ((uint64_t)1 << 55) /* set in every stored entry: data is never 0 */


static uint64_t pack(const TTData *d, uint8_t a)
{
    return (uint64_t)d->move | (uint64_t)(uint16_t)d->score << 32 | (uint64_t)(d->depth & 0x7f) << 48 | USED_BIT |
           (uint64_t)(d->bound & 3) << 56 | (uint64_t)(a & 63) << 58;
}

static int depth_of(uint64_t data) { return (int)(data >> 48 & 0x7f); }
static int age_of(uint64_t data) { return (int)(data >> 58 & 63); }

/* The warm-up: a detached thread that touches every page of a fresh or cleared
 * table, so that the searches of a game do not pay for the page faults on the
 * clock (64 MiB of first touches cost up to 150 ms on a virtual machine,
 * docs/ROBUST.md). Each touch is an atomic add of 0 to an entry: no entry
 * changes and a search may run beside it. Tables over TT_WARM_MAX_MIB stay
 * lazy: they are for analysis, and touching them all would commit memory
 * the user may have meant to overcommit. */
#define TT_WARM_MAX_MIB 1024
#define PAGE_BYTES 4096
#define WARM_STACK_BYTES ((size_t)64 << 10)

struct TT {
    Bucket *table;       /* NULL until the first tt_resize */
    size_t nbuckets;     /* power of two */
    uint8_t age;
    void *map_base;      /* the mapping holding the table: table lies in it, aligned to HUGE_PAGE */
    size_t map_bytes, table_bytes;
    pthread_mutex_t warm_mutex;
    pthread_cond_t warm_done;
    bool warm_busy;            /* under warm_mutex */
    atomic_bool warm_cancel;   /* set to end the warm-up early */
    atomic_size_t warm_reached; /* bytes touched so far (tt_warmed) */
};

static void *warm_up(void *arg)
{
    TT *t = arg;
    unsigned char *const start = (unsigned char *)t->table;
    const size_t bytes = t->table_bytes;
    for (size_t off = 0; off < bytes && !atomic_load_explicit(&t->warm_cancel, memory_order_relaxed);) {
        atomic_fetch_add_explicit(&((Entry *)(start + off))->check, 0, memory_order_relaxed);
        off += PAGE_BYTES;
        atomic_store_explicit(&t->warm_reached, off, memory_order_relaxed);
    }
    pthread_mutex_lock(&t->warm_mutex);
    t->warm_busy = false;
    pthread_cond_broadcast(&t->warm_done);
    pthread_mutex_unlock(&t->warm_mutex);
    return NULL;
}

/* Ends a running warm-up and waits for its thread (before the table changes). */
static void warm_stop(TT *t)
{
    pthread_mutex_lock(&t->warm_mutex);
    atomic_store(&t->warm_cancel, true);
    while (t->warm_busy)
        pthread_cond_wait(&t->warm_done, &t->warm_mutex);
    pthread_mutex_unlock(&t->warm_mutex);
}

/* Starts the warm-up of the current table (no warm-up running). Without a
 * thread the table stays lazy, as a large one does. */
static void warm_start(TT *t)
{
    atomic_store(&t->warm_reached, 0);
    if (t->table_bytes > (size_t)TT_WARM_MAX_MIB << 20)
        return;
    atomic_store(&t->warm_cancel, false);
    pthread_attr_t attr;
    if (pthread_attr_init(&attr))
        return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, WARM_STACK_BYTES); /* it calls nothing: no 8 MiB default */
    pthread_t thread;
    pthread_mutex_lock(&t->warm_mutex);
    t->warm_busy = !pthread_create(&thread, &attr, warm_up, t);
    pthread_mutex_unlock(&t->warm_mutex);
    pthread_attr_destroy(&attr);
}

TT *tt_new(void)
{
    TT *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->warm_mutex, NULL);
    pthread_cond_init(&t->warm_done, NULL);
    atomic_init(&t->warm_cancel, false);
    atomic_init(&t->warm_reached, 0);
    return t;
}

void tt_delete(TT *t)
{
    if (!t)
        return;
    warm_stop(t);
    if (t->map_base)
        munmap(t->map_base, t->map_bytes);
    pthread_cond_destroy(&t->warm_done);
    pthread_mutex_destroy(&t->warm_mutex);
    free(t);
}

bool tt_allocated(const TT *t) { return t->table != NULL; }

size_t tt_warmed(const TT *t) { return atomic_load(&t->warm_reached); }

int tt_resize(TT *t, size_t mib)
{
    /* a table beyond half the address space cannot be had (a 32-bit size_t,
     * as in the WebAssembly build, overflowed here and the loop never ended) */
    if ((uint64_t)mib << 20 > SIZE_MAX / 2)
        return -1;
    size_t n = 1;
    while (n * 2 * sizeof(Bucket) <= mib << 20)
        n *= 2;
    /* Aligned to and rounded up to 2 MiB, and offered to the kernel as huge pages:
     * probes land all over the table, and with 4 KiB pages nearly every probe
     * also missed the TLB. A fresh anonymous mapping reads as zeros with no
     * clearing pass, so a resize costs no time on the input thread. */
    const size_t bytes = (n * sizeof(Bucket) + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    const size_t mapped = bytes + HUGE_PAGE;
    void *base = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return -1;
    Bucket *table = (Bucket *)(((uintptr_t)base + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
#ifdef MADV_HUGEPAGE
    madvise(table, bytes, MADV_HUGEPAGE); /* a hint: without huge pages it still works */
#endif
    warm_stop(t);
    if (t->map_base)
        munmap(t->map_base, t->map_bytes);
    t->map_base = base;
    t->map_bytes = mapped;
    t->table = table;
    t->table_bytes = bytes;
    t->nbuckets = n;
    t->age = 0;
    warm_start(t);
    return 0;
}

void tt_clear(TT *t)
{
    if (!t->table)
        return;
    /* the kernel hands back zero pages on the next touch: clearing a table of
     * any size takes about as long as a system call; the warm-up touches them
     * again off the input thread */
    warm_stop(t);
#ifdef __EMSCRIPTEN__
    /* emscripten's madvise succeeds and does nothing: the table is cleared by hand */
    memset(t->table, 0, t->nbuckets * sizeof(Bucket));
#else
    if (madvise(t->table, t->table_bytes, MADV_DONTNEED))
        memset(t->table, 0, t->nbuckets * sizeof(Bucket));
#endif
    t->age = 0;
    warm_start(t);
}

void tt_new_search(TT *t) { t->age = (uint8_t)((t->age + 1) & 63); }

static Bucket *bucket_of(const TT *t, uint64_t key) { return &t->table[key & (t->nbuckets - 1)]; }

void tt_prefetch(const TT *t, uint64_t key)
{
    __builtin_prefetch(bucket_of(t, key));
}

/* The whole entry is validated: check = key ^ data. */
bool tt_probe(const TT *t, uint64_t key, TTData *out)
{
    Bucket *b = bucket_of(t, key);
    for (int i = 0; i < BUCKET_ENTRIES; i++) {
        const uint64_t data = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        const uint64_t check = atomic_load_explicit(&b->e[i].check, memory_order_relaxed);
        if ((check ^ data) != key || !data)
            continue;
        out->move = (uint32_t)data;
        out->score = (int16_t)(data >> 32);
        out->depth = (int8_t)depth_of(data);
        out->bound = (uint8_t)(data >> 56 & 3);
        return true;
    }
    return false;
}

void tt_store(TT *t, uint64_t key, const TTData *in)
{
    Bucket *b = bucket_of(t, key);
    const uint8_t age = t->age;
    TTData keep = *in, *d = &keep;
    Entry *victim = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < BUCKET_ENTRIES; i++) {
        Entry *e = &b->e[i];
        const uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        const uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
        if (!data || (check ^ data) == key) {
            victim = e;
            if (data && (check ^ data) == key && d->bound != BOUND_EXACT && depth_of(data) > d->depth + 2 &&
                age_of(data) == age)
                return; /* keep the deeper result of this search */
            if (!d->move && data)
                keep.move = (uint32_t)data; /* keep the old best move */
            break;
        }
        const int old = (age - age_of(data)) & 63;
        const int value = depth_of(data) - 8 * old;
        if (value < worst) {
            worst = value;
            victim = e;
        }
    }
    const uint64_t data = pack(d, age);
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data, memory_order_relaxed);
}

int tt_hashfull(const TT *t)
{
    int used = 0, total = 0;
    for (size_t i = 0; i < 250 && i < t->nbuckets; i++)
        for (int j = 0; j < BUCKET_ENTRIES; j++, total++) {
            const uint64_t data = atomic_load_explicit(&t->table[i].e[j].data, memory_order_relaxed);
            used += data && age_of(data) == t->age;
        }
    return total ? used * 1000 / total : 0;
}
