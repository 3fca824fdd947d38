/* A thread's stop request for the readers: every reader of the library
 * (instances, assignments, clusters, job traces, SWIM traces, fsck
 * output, slots, CNF, distribution tables) called from this thread
 * polls *stop before each MiB it reads and when a blocked read ends
 * (EINTR), and ends with HTA_ERR_INTERNAL "interrupted" once it is
 * non-zero.  A caller that stops its calls from a signal handler (the
 * Python package: Ctrl-C) sets it around them; readers of other threads
 * are not affected.  An explicit stop (hta_instance_parse_stop) wins.
 *
 * Ownership: the flag is the caller's and must outlive the setting.
 */
#ifndef HTA_STOP_H
#define HTA_STOP_H

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sets this thread's flag (NULL: none, the default); returns the one
 * before, to restore.  O(1). */
volatile sig_atomic_t *hta_reads_stop(volatile sig_atomic_t *stop);

#ifdef __cplusplus
}
#endif

#endif
