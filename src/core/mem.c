/* Memory helpers for the whole library: the growable array (buf.h) and
 * the huge-page hint for its large arrays. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* madvise, MADV_HUGEPAGE, sched_getaffinity */
#endif
#include "core/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void *hta_grow_(void *p, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return p;
        c *= 2;
    }
    if (c > SIZE_MAX / elem)
        return p;
    void *q = realloc(p, c * elem);
    if (!q)
        return p;
    *cap = c;
    hta_huge_hint(q, c * elem);
    return q;
}

/* Transparent huge pages are 2 MiB on x86-64 and on arm64 with 4 KiB
 * pages; with another size the kernel still takes the hint where its own
 * pages fit.
 *
 * The hint covers the block's whole pages, up to the end of its usable
 * size: a large block is a mapping of its own, and a hint on part of it
 * would split the mapping in two, which mremap cannot grow (EFAULT), so
 * realloc would copy the block at every growth instead of moving its
 * pages (seen: the reader's growing arrays copied, their page faults
 * doubled).  Covering from the block's first page to the end of its
 * usable size covers exactly its mapping.  Only with glibc, which
 * gives the usable size; elsewhere nothing. */
#define HUGE_PAGE ((size_t)2 << 20)

#if defined(__linux__)
/* The pages holding [p, p + bytes): from the one holding its first byte
 * to the one holding its last, as the madvise calls take them. */
static void page_bounds(const void *p, size_t bytes, uintptr_t *lo,
                        uintptr_t *hi)
{
    long v = sysconf(_SC_PAGESIZE);
    size_t page = v > 0 ? (size_t)v : 4096;
    *lo = (uintptr_t)p & ~(uintptr_t)(page - 1);
    *hi = ((uintptr_t)p + bytes + page - 1) & ~(uintptr_t)(page - 1);
}
#endif

void hta_huge_hint(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(__GLIBC__)
    if (!p || bytes < HUGE_PAGE)
        return;
    uintptr_t lo, hi;
    page_bounds(p, malloc_usable_size(p), &lo, &hi);
    (void)madvise((void *)lo, (size_t)(hi - lo), MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

/* A block of 2 MiB or more starts on a huge-page boundary and ends on
 * one: only then are all its pages huge (a 4 MB array placed anywhere
 * has one whole huge page inside, half its bytes; 10^6 servers' 4-byte
 * arrays end 0.2 MB short of their second).  The alignment costs address
 * space, not memory (the pages before the block are never touched); the
 * rounding up costs at most one huge page less the block's last partial
 * one, which the array's own tail would have touched in small pages. */
void *hta_malloc_huge(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(__GLIBC__)
    if (bytes >= HUGE_PAGE && bytes <= SIZE_MAX - HUGE_PAGE) {
        size_t size = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        void *p = NULL;
        if (posix_memalign(&p, HUGE_PAGE, size) != 0)
            return NULL;
        hta_huge_hint(p, size);
        return p;
    }
#endif
    return malloc(bytes);
}

/* calloc on huge pages: the zeroing is the first touch, which calloc
 * would have left to the caller's writes (the arrays this serves are
 * written whole). */
void *hta_calloc_huge(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    if (count * size < HUGE_PAGE)
        return calloc(count, size);
    void *p = hta_malloc_huge(count * size);
    return p ? memset(p, 0, count * size) : NULL;
}

/* ---- faulting in ahead (buf.h) ---------------------------------------- */

#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older C libraries lack it */
#endif

static int prefault_mode = 1;

void hta_prefault_set(int mode) { prefault_mode = mode; }

#if defined(__linux__)
#define PREFAULT_AREAS 8

struct hta_prefault {
    pthread_t thread;
    pthread_mutex_t lock; /* with wake: the stop, at once */
    pthread_cond_t wake;
    int stop; /* under lock */
    int n;
    uintptr_t lo[PREFAULT_AREAS], hi[PREFAULT_AREAS]; /* page-aligned */
    size_t lead[PREFAULT_AREAS];             /* 0: unpaced */
    atomic_size_t used[PREFAULT_AREAS];      /* paced: the owner's mark */
};

static int prefault_stopped(struct hta_prefault *pf)
{
    pthread_mutex_lock(&pf->lock);
    int stop = pf->stop;
    pthread_mutex_unlock(&pf->lock);
    return stop;
}

/* 2 MiB of each area in turn (the sweep's two log arrays fill side by
 * side), a paced area up to its lead beyond the owner's mark; when only
 * paced areas are left and all caught up, a wait of 1 ms (or the stop)
 * before looking at the marks again. */
static void *prefault_run(void *arg)
{
    struct hta_prefault *pf = arg;
    uintptr_t at[PREFAULT_AREAS];
    for (int i = 0; i < pf->n; i++)
        at[i] = pf->lo[i];
    for (;;) {
        int left = 0, moved = 0;
        for (int i = 0; i < pf->n; i++) {
            if (at[i] >= pf->hi[i])
                continue;
            left = 1;
            uintptr_t end = at[i] + HUGE_PAGE < pf->hi[i] ? at[i] + HUGE_PAGE :
                                                            pf->hi[i];
            if (pf->lead[i]) {
                size_t used = atomic_load_explicit(&pf->used[i],
                                                   memory_order_relaxed);
                uintptr_t until = pf->lo[i] + used + pf->lead[i];
                if (until < end) /* up to a huge page's end */
                    end = until & ~(uintptr_t)(HUGE_PAGE - 1);
                if (end <= at[i])
                    continue;
            }
            if (prefault_stopped(pf))
                return NULL;
            /* a failure (old kernel, a page that cannot be had) leaves
               the faults to the owner, as without the thread */
            (void)madvise((void *)at[i], (size_t)(end - at[i]),
                          MADV_POPULATE_WRITE);
            at[i] = end;
            moved = 1;
        }
        if (!left)
            return NULL;
        if (moved)
            continue;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 1000000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_mutex_lock(&pf->lock);
        if (!pf->stop)
            pthread_cond_timedwait(&pf->wake, &pf->lock, &until);
        int stop = pf->stop;
        pthread_mutex_unlock(&pf->lock);
        if (stop)
            return NULL;
    }
}

static int processors_for_us(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set);
    long v = sysconf(_SC_NPROCESSORS_ONLN);
    return v > 0 ? (int)v : 1;
}

hta_prefault *hta_prefault_start(void *const *p, const size_t *bytes,
                                 const size_t *lead, int n)
{
    if (prefault_mode == 0 || n <= 0 || n > PREFAULT_AREAS ||
        (prefault_mode == 1 && processors_for_us() < 2))
        return NULL;
    struct hta_prefault *pf = calloc(1, sizeof *pf);
    if (!pf)
        return NULL;
    size_t total = 0;
    pf->n = n;
    for (int i = 0; i < n; i++) {
        atomic_init(&pf->used[i], 0);
        if (!p[i] || !bytes[i])
            continue; /* lo = hi: nothing */
        /* the area's own pages (the block's, so writable) */
        page_bounds(p[i], bytes[i], &pf->lo[i], &pf->hi[i]);
        /* paced: at least two huge pages, so that the thread is a whole
           one ahead (it stops at their boundaries) */
        pf->lead[i] = lead && lead[i] ? (lead[i] < 2 * HUGE_PAGE ?
                                             2 * HUGE_PAGE : lead[i]) :
                                        0;
        total += (size_t)(pf->hi[i] - pf->lo[i]);
    }
    int locked = 0, waker = 0;
    /* less than a huge page in all: not worth a thread (but the tests) */
    if (total == 0 || (prefault_mode == 1 && total < HUGE_PAGE))
        goto cleanup;
    if (pthread_mutex_init(&pf->lock, NULL) != 0)
        goto cleanup;
    locked = 1;
    if (pthread_cond_init(&pf->wake, NULL) != 0)
        goto cleanup;
    waker = 1;
    if (pthread_create(&pf->thread, NULL, prefault_run, pf) == 0)
        return pf;
cleanup:
    if (waker)
        pthread_cond_destroy(&pf->wake);
    if (locked)
        pthread_mutex_destroy(&pf->lock);
    free(pf);
    return NULL;
}

void hta_prefault_used(hta_prefault *pf, int area, size_t bytes)
{
    if (pf && area >= 0 && area < pf->n)
        atomic_store_explicit(&pf->used[area], bytes, memory_order_relaxed);
}

void hta_prefault_stop(hta_prefault *pf)
{
    if (!pf)
        return;
    pthread_mutex_lock(&pf->lock);
    pf->stop = 1;
    pthread_cond_signal(&pf->wake);
    pthread_mutex_unlock(&pf->lock);
    pthread_join(pf->thread, NULL);
    pthread_cond_destroy(&pf->wake);
    pthread_mutex_destroy(&pf->lock);
    free(pf);
}
#else
hta_prefault *hta_prefault_start(void *const *p, const size_t *bytes,
                                 const size_t *lead, int n)
{
    (void)p;
    (void)bytes;
    (void)lead;
    (void)n;
    return NULL;
}

void hta_prefault_used(hta_prefault *pf, int area, size_t bytes)
{
    (void)pf;
    (void)area;
    (void)bytes;
}

void hta_prefault_stop(hta_prefault *pf) { (void)pf; }
#endif
