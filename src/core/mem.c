/* Memory helpers for the whole library: the growable array (buf.h) and
 * the huge-page hint for its large arrays. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* madvise, MADV_HUGEPAGE */
#endif
#include "core/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
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

/* HTA_NO_HUGE builds without huge pages, for make bench-devices. */
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(__GLIBC__) && \
    !defined(HTA_NO_HUGE)
#define HTA_HUGE 1
#endif

#ifdef HTA_HUGE
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
#ifdef HTA_HUGE
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
#ifdef HTA_HUGE
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
