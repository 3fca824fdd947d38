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

/* Pages faulted in ahead by a second thread.  On this project's machine
 * (a virtual machine whose host takes back the memory the guest frees)
 * the first touch of a fresh 2 MiB page costs 0.13 ms as a rule and up
 * to 2.5 ms when the host must back it again, in bursts: a single-threaded
 * pass that writes fresh arrays as it goes (fsy's sweep log, the answer)
 * waits on those faults.  hta_prefault_start hands the areas
 * [p[i], p[i] + bytes[i]) (p[i] NULL: none) to a thread that faults them
 * in writable (Linux's MADV_POPULATE_WRITE: the kernel maps the pages,
 * the contents are not touched, so the owner may read and write the
 * areas meanwhile), 2 MiB of each area in turn, and returns at once.
 * With lead NULL or lead[i] 0 area i is faulted in whole; else it is
 * paced: the thread stays within lead[i] bytes (4 MiB at least) of the
 * owner's mark, hta_prefault_used(pf, i, bytes) (0 at first), so that an
 * area of room the owner may never fill costs no memory.  The areas must
 * stay allocated until hta_prefault_stop, which makes the thread give up
 * what it has not done and waits for it (one chunk at most).  NULL (and
 * nothing happens) when the setting is off, when fewer than two
 * processors may run the process (the thread would take the owner's),
 * for less than 2 MiB in all, without a thread, elsewhere than Linux, or
 * on a kernel without the advice (older than 5.14: each chunk fails at
 * once).  hta_prefault_used and hta_prefault_stop do nothing on NULL. */
typedef struct hta_prefault hta_prefault;
hta_prefault *hta_prefault_start(void *const *p, const size_t *bytes,
                                 const size_t *lead, int n);
void hta_prefault_used(hta_prefault *pf, int area, size_t bytes);
void hta_prefault_stop(hta_prefault *pf);
/* 0: never; 1 (the default): with two processors or more and 2 MiB or
 * more; 2: always (the tests). */
void hta_prefault_set(int mode);

/* 1 when p has room for need elements (growing it if needed), 0 when out
 * of memory.  p and cap are lvalues evaluated more than once. */
#define HTA_RESERVE(p, cap, need)                                          \
    ((size_t)(need) <= (cap) ||                                            \
     ((p) = hta_grow_((p), &(cap), (size_t)(need), sizeof *(p)),           \
      (size_t)(need) <= (cap)))

#endif
