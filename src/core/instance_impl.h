/* What the instance model (instance.c) shares with its reader (read.c):
 * internal to src/core.
 *
 * Ownership: as instance.h.
 */
#ifndef HTA_CORE_INSTANCE_IMPL_H
#define HTA_CORE_INSTANCE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "hta/instance.h"

/* The reader's tuning (hta_instance_read_tuning): threads (0: as many
 * as there are processors, at most 2), the fast path's window of whole
 * lines, and the least work worth a second thread (bytes of half a
 * window; bytes of replica ids of the server side). */
#define CORE_READ_WINDOW ((size_t)1 << 20)    /* the read buffer's */
#define CORE_READ_SPLIT_MIN ((size_t)1 << 18) /* 256 KiB */
extern int core_read_threads;
extern size_t core_read_window, core_read_split_min;

/* The threads to read with: core_read_threads, or 2 on a machine with
 * two processors or more, else 1. */
int core_threads_to_use(void);

/* f(a) here and, when b is not NULL, f(b) in a second thread (after f(a)
 * when no thread can be had). */
void core_run_two(void *(*f)(void *), void *a, void *b);

/* The working server count: all declared servers, or the first k + m of
 * them, k = 1 + the largest server id named (instance.h). */
int32_t core_working_servers(int64_t declared, int64_t k, int64_t m);

/* The server side of inst's placement graph from its task side (srv_off,
 * srv_task), in two threads when it is large.  0 on out of memory. */
int core_build_server_side(hta_instance *inst);

#endif
