/* A pool of threads for independent runs (sweep points, policies): each
 * job writes only its own result slot and the caller reads the slots in
 * job order once the pool is done, so that the number of threads changes
 * how fast, never what.  The command line's --threads and the Python
 * package's threads= run on it.
 *
 * Ownership: nothing is kept; ctx is the caller's.
 */
#ifndef HTA_POOL_H
#define HTA_POOL_H

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*hta_job_fn)(void *ctx, int job);

/* Jobs 0..n-1, each once, on at most `threads` threads (the caller's
 * among them), taken in order; no job starts once *stop is set (stop may
 * be NULL; the caller tells the runs that did by its own slots).  Where
 * a thread cannot be created the jobs run on fewer. */
void hta_pool_run(int threads, int n, hta_job_fn fn, void *ctx,
                  volatile sig_atomic_t *stop);

/* The processors available, 1..1024: the default number of threads. */
int hta_threads_default(void);

/* The bytes the process may use: the smaller of physical memory and
 * RLIMIT_AS (0 when neither is known).  O(1). */
double hta_mem_usable(void);

/* The threads to run n runs of about bytes_per_run each: at most
 * `threads` and n, and as many as fit in half of hta_mem_usable() with
 * each thread's stack and malloc arena (80 MiB of address space) on top
 * of its run; at least 1.  So asking for more threads than the memory
 * holds runs fewer at once, never out of memory. */
int hta_pool_fit(int threads, int n, double bytes_per_run);

#ifdef __cplusplus
}
#endif

#endif
