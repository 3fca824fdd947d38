/* The rack-aware refill: fsy on N locality levels (levels.h).
 *
 * fsy (Algorithm 2) decides which tasks run locally (a max-cover at its
 * best threshold) and spreads the rest as if every other server were
 * equally far.  On N levels the rest is not equally far: a task served
 * from a server of its replica's rack costs w_2, not w_rem.  The refill
 * keeps the local tasks of a start assignment and places the others
 * again, one at a time in task order, each on the server where it would
 * finish first: the least loaded server of each of its replicas' groups
 * at every level (a range minimum over servers laid out group by group),
 * at that level's cost; ties go to the closer level, then the lower
 * server.  The level costs depend on the counts being decided, so the
 * refill runs twice, first at every level's cost at count 0, then at the
 * counts the first pass reached; on instances of at most 10^5 tasks and
 * servers two more passes place every task from nothing (the tasks with
 * the fewest replicas first throughout).  Then single moves of a task off
 * the busiest server, while the evaluator agrees they lower the makespan
 * (at most 64; 2 on larger instances).  The best of the start and the
 * passes is the answer, which is therefore never worse than the start
 * (fsy's own assignment evaluated under the N-level costs).  No
 * approximation guarantee is claimed; the README gives the gap measured
 * against brute force.
 *
 * Ownership: the caller provides a[0..m); start is borrowed.
 */
#ifndef HTA_REFILL_H
#define HTA_REFILL_H

#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

typedef struct hta_refill_result {
    double start_span;    /* the start under the N-level costs */
    double pass_span[4];  /* each pass's makespan: two from the start's
                             local tasks, two from nothing */
    int chosen;           /* 0 the start, 1..4 a pass */
    int moves;            /* tasks moved by the local search after */
    double makespan;      /* the answer's */
} hta_refill_result;

/* O(m' N replicas log n) for m' tasks not local in start, plus two
 * evaluations. */
hta_status hta_refill_run(const hta_instance *inst, const int32_t *start,
                          int32_t *a, hta_refill_result *res, hta_diag *d);

#endif
