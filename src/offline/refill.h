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
#include "hta/fsy.h"
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

/* fsy's other views of an N-level instance: for each level l in 2..N-1,
 * the two-level view whose remote cost is level l's (every non-local task
 * priced as if it ran beside a replica at level l), fsy on it and the
 * refill from its assignment.  Where one beats *span, a[0..m) and *span
 * take it and *view is l (else *view is 0).  The w_rem view is the
 * caller's start; with racks' tasks cheap, the w_2 view keeps fewer tasks
 * local and often wins (HDFS, 3,000 tasks on 40 servers, 4 levels: 83 ->
 * 79, the optimum).  Only on instances of at most 10^5 tasks and servers
 * (each view costs an fsy run); else nothing.  fo: fsy's options. */
hta_status hta_refill_views(const hta_instance *inst, const hta_fsy_opts *fo,
                            int32_t *a, double *span, int *view,
                            hta_diag *d);

#endif
