/* Round robin, the Hadoop-like baseline: Algorithm 1 of Fischer, Su, Yin
 * (SPAA 2010), Section 4.
 *
 * Ownership: the caller provides a[0..m), which receives the assignment.
 */
#ifndef HTA_RR_H
#define HTA_RR_H

#include <stdint.h>

#include "hta/instance.h"

/* Scans servers cyclically; each visited server takes an unassigned task
 * local to it if one exists, else any unassigned task.
 *
 * Deterministic rule (randomized == 0): servers are visited 0, 1, ..., n-1,
 * 0, ...; a server takes its unassigned local task of highest id, else the
 * unassigned task of lowest id.  This is the order of the proof of Theorem
 * 4.1 (with t_n also on s_1, s_1 takes t_n first).
 *
 * Randomized (randomized != 0): the visiting order of servers (the first
 * min(m, n_declared) entries of a uniform random permutation of all
 * declared servers, drawn lazily by a forward Fisher-Yates shuffle), each
 * server's preference among its local tasks and the order of the remote
 * pool are uniform random permutations drawn from seed.
 *
 * Servers at or beyond the working n (instance.h) hold nothing: a visit
 * there takes a remote task.
 *
 * O(m + n + |E|) time: every list is scanned once by a monotone cursor,
 * since a task once assigned never becomes unassigned. */
hta_status hta_rr_run(const hta_instance *inst, int randomized, uint64_t seed,
                      int32_t *a, hta_diag *d);

#endif
