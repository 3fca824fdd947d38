/* Lower bounds on the optimal makespan L^O.
 *
 * Ownership: borrowed inputs only.
 */
#ifndef HTA_BOUNDS_H
#define HTA_BOUNDS_H

#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

/* ceil(m/n) * w_loc: some server runs ceil(m/n) tasks, each costs at least
 * w_loc (proof of Theorem 4.2).  O(1). */
double hta_bound_trivial(const hta_instance *inst);

/* The flow bound.  f[k] for k = 0..K is the max-cover size with threshold
 * k (f[0] = 0).  An assignment of makespan L runs at most k = floor(L/w_loc)
 * local tasks per server, hence l <= f(k) local tasks in all (Lemma 5.2);
 * the r = m - l >= m - f(k) remote tasks cost w_rem(r) each.  Hence
 *   n*L >= w_loc*f(k) + w_rem(m - f(k))*(m - f(k))      (total load),
 *   L   >= ceil((m - f(k))/n) * w_rem(m - f(k))           (pigeonhole),
 * because both right-hand sides shrink as l grows (w_rem(0) >= w_loc and
 * w_rem non-decreasing).  The bound is the least L meeting both with
 * k = floor(L/w_loc); beyond K, f's concavity bounds f(k) by
 * min(m, f(K) + (k - K) * (f(K) - f(K-1))) (proof in bounds.c; up to 64
 * thresholds examined).  The result is at least
 * the trivial bound.  With a constant w_rem = c, L^O is the load of some
 * server, a*w_loc + b*c, so the bound rounds up to the least such value.
 * O(K + L/c). */
double hta_bound_flow(const hta_instance *inst, const int64_t *f, int64_t K);

/* The flow bound over a growing prefix f[0..K] (a sweep), examining each
 * k once: O(total K) over all updates instead of O(K) per call. */
typedef struct hta_flow_bound {
    int64_t next; /* first k not yet examined (or the settled k) */
    int settled;  /* some k is feasible: value is final */
    double value;
} hta_flow_bound;

void hta_flow_bound_init(hta_flow_bound *b);

/* The bound from f[0..K] (K never decreasing between calls). */
double hta_flow_bound_update(hta_flow_bound *b, const hta_instance *inst,
                             const int64_t *f, int64_t K);

/* The same bound for a model where every remote task costs c and at most
 * max_remote tasks are remote (a piece of the ILP, ilp.h).  O(K + L/c). */
double hta_bound_flow_piece(const hta_instance *inst, const int64_t *f,
                            int64_t K, double c, int64_t max_remote);

/* The flow bound on its own, without a full fsy sweep: raises a max-cover
 * threshold tau = 1, 2, ... until the bound is settled (at most
 * L/w_loc + 1 thresholds).  O(that many incremental max-cover steps). */
hta_status hta_bound_flow_compute(const hta_instance *inst, double *lb,
                                  hta_diag *d);

/* The least makespan an assignment can have above lo (INFINITY: none),
 * or lo itself when the search would exceed max_work steps (about 20 per
 * candidate).  A makespan is the load of some server, a*w_loc +
 * b*w_rem(R) by the evaluator's formula, with integers a, b >= 0 and R
 * >= b the assignment's remote tasks (R <= m), so the least such value
 * above lo, over every a, b and R, is at most any makespan above lo;
 * after a proof that nothing has makespan <= lo, it is a lower bound on
 * L^O.  Time: O((lo/w_loc + 1) * B * log m), B the number of b values
 * tried (those with b * w_rem(b) below the best candidate). */
double hta_bound_next_load(const hta_instance *inst, double lo,
                           int64_t max_work);

/* The flow bound on N > 2 locality levels (levels.h).  Every task costs
 * at least w_loc, so at makespan L a server runs at most k = floor(L /
 * w_loc) tasks.  Then at most F_1 = f(k) tasks are local (the max-cover,
 * Lemma 5.2) and at most F_l = min(m, sum over level-l groups g of
 * min(k |g|, T_g)) run at level <= l, T_g being the tasks with a replica
 * in g (a task at level <= l runs inside a level-l group holding one of
 * its replicas); F_l is raised to F_{l-1} where it is smaller.  At least
 * R = m - F_{N-1} tasks are at level N, each costing w_rem(r_N) >=
 * w_rem(R); a task at level 2 <= l < N costs at least w_l(0).  As the
 * costs rise with l, the least total load puts F_1 tasks at level 1,
 * F_l - F_{l-1} at level l and R at level N, so
 *   n L >= w_loc F_1 + sum_l w_l(0) (F_l - F_{l-1}) + w_rem(R) R,
 *   L   >= ceil(R / n) w_rem(R)                           (pigeonhole),
 * both shrinking as k grows.  The bound is the least L meeting both with
 * k = floor(L / w_loc), and at least ceil(m/n) w_loc; with a constant
 * cost per level it rounds up to the least load of integer counts (L^O
 * is one).  O(one max-cover sweep up to that k, plus N groups per k). */
hta_status hta_bound_levels_compute(const hta_instance *inst, double *lb,
                                    hta_diag *d);

/* With a constant cost per level, L^O is the load of some server,
 * hta_load_levels of integer counts: the least such load >= lb; lb itself
 * when the costs are not constant or the search would pass 10^6 steps.
 * After a proof that nothing has makespan <= T, the least load above T
 * (this of T plus a hair) is a lower bound on L^O. */
double hta_bound_levels_round(const hta_instance *inst, double lb);

/* Theorem 5.4's additive term (1 - 1/(n-1)) * w_rem(m), an upper bound on
 * (1 - 1/(n-1)) * w_rem^O; 0 when n <= 2. */
double hta_bound_fsy_additive(const hta_instance *inst);

#endif
