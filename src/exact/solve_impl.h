/* The solve policy's rows (solve.c, solve_rows.c, solve_decide.c): the
 * state of one run and what the three share.  Internal to src/exact.
 *
 * Ownership: run borrows the instance, the options and the result;
 * fsy is the run's (freed by hta_solve).
 */
#ifndef HTA_EXACT_SOLVE_IMPL_H
#define HTA_EXACT_SOLVE_IMPL_H

#include <stdint.h>

#include "hta/solve.h"

/* The state of one run, beside the result. */
typedef struct run {
    const hta_instance *inst;
    const hta_solve_opts *o;
    hta_solve_result *res;
    int32_t *fsy;       /* the fsy assignment, once fsy ran */
    double fsy_span;    /* its makespan */
    int have_flow;      /* the flow bound is in res */
} run;

#define OOM(d) hta_diag_set((d), HTA_ERR_INTERNAL, NULL, 0, "out of memory")

/* A new row of algo, status "ok". */
hta_row *solve_add_row(run *s, hta_algo algo);

/* 1 when the caller raised the stop flag. */
int solve_stopped(const run *s);

/* Evaluates a into row and keeps it when it is the best so far. */
hta_status solve_finish_row(run *s, hta_row *row, const int32_t *a,
                            hta_diag *d);

/* qsort order of doubles. */
int solve_cmp_double(const void *x, const void *y);

/* The flow bound (two levels) or the level flow bound into the result,
 * unless fsy gave it; 1 when the best so far meets the lower bound. */
hta_status solve_flow_bound(run *s, hta_diag *d);
int solve_best_proven(const run *s);

/* The rows (solve_rows.c): round robin, fsy (refilled on N levels),
 * Hadoop's greedy, brute force, the ILP (fsy's incumbent and bound). */
hta_status solve_run_rr(run *s, hta_diag *d);
hta_status solve_run_fsy(run *s, hta_diag *d);
hta_status solve_run_hadoop(run *s, hta_diag *d);
hta_status solve_run_brute(run *s, hta_diag *d);
hta_status solve_run_ilp(run *s, hta_diag *d);

/* fsy's assignment (refilled rack-aware on N levels) into s->fsy, without
 * a row, unless fsy ran: the exact engines' incumbent. */
hta_status solve_incumbent(run *s, hta_diag *d);

/* The decisions (solve_decide.c): gap closing and the SAT decision. */
hta_status solve_run_close(run *s, hta_diag *d);
hta_status solve_run_close_levels(run *s, hta_diag *d);

/* close on N levels when the top level's cost grows with its count
 * (solve_closetop.c): into row, begun at t0. */
hta_status solve_close_top(run *s, hta_row *row, double t0, hta_diag *d);
hta_status solve_run_sat(run *s, hta_diag *d);

#endif
