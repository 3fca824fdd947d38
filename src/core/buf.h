/* One growable array for the whole library (after Kissat's stack.h): a
 * plain pointer and a size_t capacity, grown geometrically by
 * HTA_RESERVE.
 *
 *     int32_t *v = NULL;
 *     size_t cap = 0, n = 0;
 *     if (!HTA_RESERVE(v, cap, n + 1))
 *         goto out_of_memory;     -- v and cap are unchanged, v still owned
 *     v[n++] = x;
 *
 * Ownership: the array belongs to whoever holds the pointer; free() it.
 */
#ifndef HTA_BUF_H
#define HTA_BUF_H

#include <stddef.h>

/* Grows p (elements of elem bytes, capacity *cap) to hold at least need
 * elements: returns the new block and updates *cap, or returns p with *cap
 * unchanged when memory (or size_t) runs out.  Amortised O(1) per
 * element. */
void *hta_grow_(void *p, size_t *cap, size_t need, size_t elem);

/* Asks the kernel to back p's block, a malloc'd block of bytes >= 2 MiB,
 * with huge pages (Linux transparent huge pages, where enabled for
 * "madvise" or "always"): one fault per 2 MiB instead of 512, and fewer
 * TLB misses in the random reads of large arrays.  The hint covers the
 * block's pages from its first to the end of its usable size, so a block
 * with a mapping of its own stays one mapping and realloc can still move
 * it (mem.c).  A hint: nothing happens on smaller blocks, other systems
 * (glibc on Linux only), or when the kernel refuses; the contents are
 * untouched.  hta_grow_ gives it for every array it grows; the large
 * arrays allocated once take it from hta_malloc_huge. */
void hta_huge_hint(void *p, size_t bytes);

/* malloc(bytes) for a large array allocated once and never grown: from
 * 2 MiB on, placed on a huge-page boundary and hinted, so that all its
 * pages can be huge.  Freed by free(). */
void *hta_malloc_huge(size_t bytes);

/* calloc(count, size) the same way, for an array that is written whole
 * (the zeroing touches every page). */
void *hta_calloc_huge(size_t count, size_t size);

/* 1 when p has room for need elements (growing it if needed), 0 when out
 * of memory.  p and cap are lvalues evaluated more than once. */
#define HTA_RESERVE(p, cap, need)                                          \
    ((size_t)(need) <= (cap) ||                                            \
     ((p) = hta_grow_((p), &(cap), (size_t)(need), sizeof *(p)),           \
      (size_t)(need) <= (cap)))

#endif
