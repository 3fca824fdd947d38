/* The optimal placement with arrivals and departures, internal to the
 * reduce-placement subsystem (rplace.c runs it as the policy
 * HTA_RP_OPTIMAL; the unit tests check it against policy iteration).
 * The model, the solver and their limits: optimal.c's opening comment.
 *
 * Ownership: hta_rp_mdp_solve fills *m (its arrays its own, the law's
 * atoms borrowed); hta_rp_mdp_free releases them (safe on a zeroed or
 * freed m).
 */
#ifndef HTA_RPLACE_OPTIMAL_H
#define HTA_RPLACE_OPTIMAL_H

#include <signal.h>
#include <stdint.h>

#include "hta/rplace.h"

#define HTA_RP_MDP_MAX_CFG 1000000LL      /* configurations */
#define HTA_RP_MDP_MAX_CHOICES 50000000LL /* (configuration, R, set) */
#define HTA_RP_MDP_MAX_STATES 20000000LL  /* (configuration, jobs) */
#define HTA_RP_MDP_MAX_QUEUE 100000LL     /* jobs in the system */

/* The K-limited processor-sharing system as a Markov decision process
 * (rplace/optimal.c): states (the slot masks of the jobs in service, the
 * jobs in the system up to nmax), a decision each time a job enters
 * service (any R of the free slots), solved by relative value iteration
 * for at most 30 slots.  cost_lo <= the least long-run cost per job <=
 * cost_hi (Odoni's bounds; within tol relative when converged). */
typedef struct hta_rp_mdp {
    int K, r;
    double lambda;
    int64_t nmax;       /* queue truncation: rho^(nmax - K) < 1e-12 */
    int64_t ncfg;       /* configurations */
    uint32_t *cfg;      /* [ncfg * K] masks, decreasing, zero-padded */
    int *njob;          /* [ncfg] */
    int64_t hcap, *htab;
    int ngroups;        /* the law's R groups */
    int32_t *gR;        /* [ngroups] */
    const int64_t *goff; /* the law's: atoms of group g */
    const double *ax, *ap; /* the law's atoms (x increasing per group) */
    int64_t *coff;      /* [ncfg * ngroups + 1] choices of (c, g) */
    uint32_t *cmask;    /* the set taken */
    int64_t *cpost;     /* the configuration after */
    double *cslope;     /* its cost h(A), decreasing within (c, g) */
    int64_t *child;     /* [ncfg * K]: c without its job j */
    int64_t *voff, *doff;
    double *W;          /* [nstates] relative values */
    double *cost;       /* [r] slot costs by rank */
    int64_t nstates, iters;
    double cost_lo, cost_hi;
    int converged;
} hta_rp_mdp;

void hta_rp_mdp_free(hta_rp_mdp *m);

/* The size of the decision process for r slots, K, the R values gR[0..
 * ngroups) and the queue bound nmax (hta_rp_mdp_nmax), before it is
 * built, in closed form: a configuration is a set of at most K disjoint
 * subsets of the r slots, each of a size in gR, counted by the number of
 * ordered sequences of j disjoint subsets using u slots, O(j, u) =
 * sum_R O(j - 1, u - R) C(r - u + R, R), over j!; a configuration of
 * j < K jobs on u slots has C(r - u, R) choices per R and one state, one
 * of K jobs nmax - K + 1 states.  Exactly what hta_rp_mdp_solve builds
 * (test_rplace checks it); doubles, since the counts pass 2^63 long
 * before the limits matter.  O(K r |gR|). */
void hta_rp_mdp_size(int r, int K, const int32_t *gR, int ngroups,
                     int64_t nmax, double *configurations, double *choices,
                     double *states);

/* The queue bound of the truncated model: K + ceil(log 1e-12 / log
 * lambda), at least K + 1. */
int64_t hta_rp_mdp_nmax(int K, double lambda);

/* hta_rp_mdp_solve's limits, checked by hta_rp_mdp_size before any
 * work: HTA_ERR_USAGE naming the count past its limit and what lowers
 * it (the command line's words).  O(K r |gR|). */
hta_status hta_rp_mdp_check(int64_t r, int K, const hta_rp_law *law,
                            double lambda, hta_diag *d);

/* Solves it for the slots s (at most 30), the law (which must outlive
 * m: m reads its atoms), K and lambda: until the bounds are within tol
 * relative, at most max_iter iterations.  HTA_ERR_USAGE past the limits
 * above.  Polls *stop (may be NULL). */
hta_status hta_rp_mdp_solve(const hta_slots *s, const hta_rp_law *law, int K,
                            double lambda, double tol, int64_t max_iter,
                            volatile sig_atomic_t *stop, hta_rp_mdp *m,
                            hta_diag *d);

/* The set of slots (bit i: the slot ranked i by cost, from 0) the
 * optimal policy gives a job (x, R) entering service when the njobs jobs
 * in service hold the masks jobs[] and n jobs are in the system (the
 * entering one included; past nmax read as nmax); 0 when the state or R
 * is not the model's. */
uint32_t hta_rp_mdp_choose(const hta_rp_mdp *m, const uint32_t *jobs,
                           int njobs, int64_t n, double x, int32_t R);

#endif
