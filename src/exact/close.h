/* Gap closing: the decision "is there an assignment of makespan <= L?"
 * answered by search, for the L at which fsy and the flow bound part.
 *
 * With every remote task costing c >= w_loc, a server running x local
 * tasks has room for j(x) remote ones (the most j with w_loc x + c j <=
 * L), and an assignment of makespan <= L exists iff some vector of local
 * loads x (a b-matching of tasks to servers holding their blocks, x_s <=
 * L / w_loc) has sum_s g(x_s) >= m, g(x) = x + j(x): the uncovered tasks
 * fill the slots, and any assignment's local counts are such an x.  With
 * w_rem growing in r, an x with sum x >= m - r still gives an assignment
 * for c = w_rem(r) (its remote tasks cost at most c).  The flow bound is
 * the criterion with g replaced by its linear relaxation; what it misses
 * is the rounding of j, which hits every server whose x is not at a step
 * of j.  The search starts from a maximum cover at tau = floor(L / w_loc)
 * (the fewest remote tasks, r0; c = w_rem(r0) holds throughout, as no
 * move lowers sum x), the one the envelope relaxation's greedy builds
 * (hta_envelope_cover: the servers' loads at the vertices of their
 * envelopes of g wherever the flow allows), and moves tasks along alternating paths from a
 * server that loses nothing by giving one (a step of j lies below x) or
 * from an uncovered task, to a server that gains by taking one: each path
 * raises sum g by one.  Each round is one breadth-first search over the
 * placement graph, then every path of its forest still valid is taken;
 * when a round gains nothing, a cross round also takes paths between two
 * donors (a donor may gain too); when that gains nothing, shifts: a
 * server e >= 2 tasks past a step of j gives all e back, one unit path
 * at a time to servers that gain (sum g unchanged until the e-th, which
 * raises it by one), undone when a path is missing; when no shift is
 * taken either (or their work budget per decision is spent), the search
 * ends.
 *
 * It only ever says yes with an assignment, re-evaluated by the
 * evaluator; no answer is not a proof (the decision is NP-hard: the 3SAT
 * reductions are instances of it).
 *
 * Ownership: the caller owns assign (m entries).
 */
#ifndef HTA_CLOSE_H
#define HTA_CLOSE_H

#include <signal.h>
#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"
#include "hta/progress.h"

typedef struct hta_close_opts {
    double time_limit;                /* seconds */
    volatile sig_atomic_t *stop;      /* polled per round, or NULL */
    hta_progress_fn progress;         /* per round, or NULL */
    void *progress_ctx;
} hta_close_opts;

typedef struct hta_close_result {
    int found;          /* assign holds an assignment of makespan <= L */
    int stopped;        /* time limit or stop flag before an answer */
    double makespan;    /* its makespan (evaluator), when found */
    int64_t need;       /* m: the sum of g a yes needs */
    int64_t start, end; /* sum of g at the maximum cover, at the end */
    int64_t moves;      /* paths taken */
    int64_t rounds;     /* breadth-first searches */
    int64_t shifts;     /* sum g gained by shifts */
} hta_close_result;

/* Decides makespan <= L by the search above.  assign: m entries, written
 * when found.  Time: O(|E|) per round. */
hta_status hta_close_decide(const hta_instance *inst, double L,
                            const hta_close_opts *opts, int32_t *assign,
                            hta_close_result *res, hta_diag *d);

#endif
