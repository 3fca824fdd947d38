/* Hadoop's own scheduler as an offline baseline (Fischer-Su-Yin, Section
 * 4: "the Hadoop algorithm assumes three kinds of placement: data-local,
 * rack-local and rack-remote"), on N locality levels (levels.h).
 *
 * Servers ask for work in turn, 0, 1, ..., n_declared - 1, 0, ... (each
 * free slot in turn); a server takes an unassigned task at the lowest
 * level it can: one it holds (highest task id first, as round robin),
 * else one with a replica in its rack (highest id first), ..., else any
 * (lowest id first).  On two levels this is round robin's deterministic
 * order (rr.h), task for task.
 *
 * Ownership: the caller provides a[0..m).
 */
#ifndef HTA_HADOOP_H
#define HTA_HADOOP_H

#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

/* O(N |E| log |E| + m + n_declared) time, O(N |E|) memory. */
hta_status hta_hadoop_run(const hta_instance *inst, int32_t *a, hta_diag *d);

#endif
