/* Bal-assign (Fischer-Su-Yin, Section 5.1.2, Definition 12): extends a
 * max-cover alpha to a complete assignment, giving each uncovered task to a
 * server of least virtual load, where every such task counts
 * w_rem^alpha = w_rem(u), u the number of uncovered tasks.
 *
 * Tie rule: the greedy picks the server of least (virtual load, id).  The
 * outcome is a number of slots q[s] per server.  Which uncovered task takes
 * which slot the paper leaves open; hta fills the slots with as many local
 * tasks as possible (a maximum b-matching, maxcover.h), then the remaining
 * tasks take the remaining slots in increasing task and server id.  A task
 * placed locally costs w_loc <= w_rem^alpha and lowers the real remote
 * count, so every real load is at most its virtual load and Theorem 5.4's
 * bound still holds.
 *
 * Ownership: the caller provides every array.
 */
#ifndef HTA_BALASSIGN_H
#define HTA_BALASSIGN_H

#include <stdint.h>

#include "hta/instance.h"
#include "hta/maxcover.h"

/* Virtual load of a server with nloc covered tasks and j slots. */
double hta_balassign_virtual(const hta_instance *inst, int32_t nloc, int64_t j,
                             double c);

/* Slots by water-filling, the same counts as the literal greedy: a level
 * settles all but O(n) picks, the k-th least of the rest ends it, and the
 * ties go to the least servers; all over the distinct loads with their
 * counts but the ties (balassign.c).  nloc[s]: covered tasks per server;
 * u: uncovered tasks; c = w_rem(u).  O(n + max nloc). */
hta_status hta_balassign_slots(const hta_instance *inst, const int32_t *nloc,
                               int64_t u, double c, int64_t *q, hta_diag *d);

/* The same slots by runs of equal covered load: count[x] servers of load
 * load[x] (x < runs, loads increasing) have q[x] slots each, and plus[x]
 * of them, the least ids of the run, one more.  The arrays are allocated
 * here (hta_slot_runs_free).  O(n + max nloc), where the scan for the
 * ties stops at the last server given one; hta_balassign_slots is these
 * runs spread over the servers (hta_slot_runs_expand). */
typedef struct hta_slot_runs {
    int32_t runs;
    int32_t *load;
    int64_t *count, *q, *plus;
    int32_t *ridx; /* internal: the run of each load, or NULL */
} hta_slot_runs;

hta_status hta_balassign_slot_runs(const hta_instance *inst,
                                   const int32_t *nloc, int64_t u, double c,
                                   hta_slot_runs *r, hta_diag *d);
/* The slots per server of the runs r of nloc into q (n entries).  O(n). */
void hta_slot_runs_expand(const hta_instance *inst, const int32_t *nloc,
                          const hta_slot_runs *r, int64_t *q);
void hta_slot_runs_free(hta_slot_runs *r);

/* The literal greedy, one task at a time with a heap: O(u log n).  Kept as
 * the reference that hta_balassign_slots must reproduce exactly. */
hta_status hta_balassign_slots_literal(const hta_instance *inst,
                                       const int32_t *nloc, int64_t u,
                                       double c, int64_t *q, hta_diag *d);

/* Completes the assignment a (a[t] = covering server or -1 on entry) from
 * the slots q by the fill rule above.  nfree (or NULL when unknown): per
 * server, at least the number of its local tasks with a[t] = -1 (0 only
 * where there is none); when it is 0 on every server with a slot, no task
 * can be placed locally and the matching is not run (then scratch may be
 * NULL: hta_balassign_matching_needed).  scratch: an
 * incremental max-cover object of inst, used as work space.  used (or
 * NULL): per server, the slot tasks placed locally; the others are remote
 * (a maximum matching leaves no task beside a free slot of its own
 * server).  O(m + n + |E|) per matching phase. */
hta_status hta_balassign_place(const hta_instance *inst, hta_maxcover *scratch,
                               const int64_t *q, const int32_t *nfree,
                               int32_t *a, int32_t *used, hta_diag *d);

/* The real makespan of a placement from its counts, as the evaluator
 * computes it (hta_load, remote tasks at w_rem of their number): server
 * s runs loads[s] covered and used[s] matched tasks locally and its
 * q[s] - used[s] other slot tasks remotely (hta_balassign_place).  The
 * remote count into *remote.  O(n), where the evaluator reads every
 * task. */
double hta_balassign_makespan(const hta_instance *inst, const int32_t *loads,
                              const int64_t *q, const int32_t *used,
                              int64_t *remote);

/* Whether hta_balassign_place needs its matching (and scratch).  O(n). */
int hta_balassign_matching_needed(const hta_instance *inst, const int64_t *q,
                                  const int32_t *nfree);

#endif
