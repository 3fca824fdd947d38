/* The Fischer-Su-Yin flow algorithm (Algorithm 2, Section 5): for tau =
 * 1, 2, ..., a max-cover alpha^tau (maxcover.h) extended by bal-assign
 * (balassign.h) to B^tau; the answer is the B^tau of least real makespan.
 * Theorem 5.4: L^B <= L^O + (1 - 1/(n-1)) * w_rem^O.
 *
 * Ownership: the caller provides best[0..m); the result's f array is
 * allocated by hta_fsy_run and released by hta_fsy_result_free.
 */
#ifndef HTA_FSY_H
#define HTA_FSY_H

#include <stdint.h>

#include "hta/maxcover.h"
#include "hta/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One step of the sweep, for --trace. */
typedef struct hta_fsy_step {
    int64_t tau, f;     /* tau and f(tau) */
    double w_rem_alpha; /* w_rem(m - f(tau)) */
    double makespan;    /* L^{B^tau}, or NAN when not computed */
    const char *note;   /* why it was not computed, or NULL */
} hta_fsy_step;

typedef struct hta_fsy_opts {
    hta_maxflow_engine engine;
    int prune;           /* 0 the full sweep tau = 1..m; 1 its exact
                            shortcuts (fsy.c), the full sweep's answer;
                            2 also the jump and one task a server
                            (fsy.c): the full sweep's makespan and tau,
                            maybe another assignment */
    int literal_balance; /* bal-assign task by task (reference, slow) */
    void (*trace)(void *ctx, const hta_fsy_step *step);
    void *trace_ctx;
    hta_progress_fn progress; /* or NULL: per tau, best and bound */
    void *progress_ctx;
} hta_fsy_opts;

typedef struct hta_fsy_result {
    double makespan;   /* L^B of the returned assignment */
    int64_t best_tau;  /* the first tau reaching it */
    int64_t K;         /* f is known for tau = 0..K */
    int64_t *f;        /* f[0..K], f[0] = 0 */
    int64_t balanced;  /* taus for which B^tau was built */
    int64_t jumped;    /* the jump's tau (prune 2), else 0: then f[tau]
                          for 0 < tau < jumped holds sum_s min(tau, deg_s),
                          an upper bound below m, not f(tau) */
    int spread;        /* 1: one task a server (prune 2): f[k] holds
                          sum_s min(k, deg_s), an upper bound */
    double lower_bound; /* flow bound from f (bounds.h) */
    hta_maxcover_stats stats;
    double seconds_cover;   /* wall time in max-cover */
    double seconds_balance; /* wall time in bal-assign and evaluation */
} hta_fsy_result;

/* Runs the sweep and writes the best assignment into best.  With prune the
 * returned makespan and tau equal those of the full sweep (tau = 1..m);
 * with prune 1 the assignment too.  On an instance of N > 2 locality
 * levels it runs on the two-level view (levels.h): makespan and bound are
 * two-level values (refill.h prices and improves the assignment).
 * Time: one max-cover sweep plus O(n log n + m + |E|) per tau balanced. */
hta_status hta_fsy_run(const hta_instance *inst, const hta_fsy_opts *opts,
                       int32_t *best, hta_fsy_result *res, hta_diag *d);

void hta_fsy_result_free(hta_fsy_result *res);

#ifdef __cplusplus
}
#endif

#endif
