/* A growing top level on N > 2 levels: the decision "is there an
 * assignment of makespan <= T?" cut into constant-cost pieces of the top
 * count.  Internal to src/exact (gap closing and the N-level ILP use it).
 *
 * The model (levels.h): levels 1..N-1 cost c_1 = w_loc <= c_2 <= ... <=
 * c_{N-1}, constants; a task at level N costs w_rem(r), r the number of
 * tasks at level N, non-decreasing in r.
 *
 * Reduction.  An assignment with top count r has makespan <= T iff every
 * server's load x + w_rem(r) j is, x the load of its tasks at levels
 * 1..N-1 and j its top tasks (hta_load_levels: x is the prefix sum, the
 * top term is added last, so the load is monotone in the top cost).
 * Call D(c, R) the constant-cost decision with top cost c and at most R
 * top tasks.  Then makespan <= T is possible iff D(w_rem(R), R) holds
 * for some R in 0..m:
 *  - if: a solution of D(w_rem(R), R) has top count r <= R, each top
 *    task costing w_rem(r) <= w_rem(R) in truth, so no load rises;
 *  - only if: an assignment with top count r is a solution of
 *    D(w_rem(r), r).
 * A piece [r0, r1] is a range of R over which every server's room for
 * top tasks beside every lower load x, j(x, c) = max { j : x + c j <= T },
 * stays the same for c = w_rem(R): D(w_rem(R), R) then only gains as R
 * grows, so the piece is decided by D(w_rem(r1), r1), one constant-cost
 * decision with a cap on the top count.  A piece ends where some j(x, .)
 * drops: the largest r1 with x + w_rem(r1) j(x, w_rem(r0)) <= T for
 * every x (a bisection per x: w_rem is non-decreasing).  The lower loads
 * x are those of integer counts of levels 1..N-1 within T, by the
 * evaluator's arithmetic, sorted and distinct.
 *
 * Loads.  Any makespan is a load x + w_rem(R) j with j <= R <= m, so the
 * least such value above v is a lower bound after a proof that nothing
 * has makespan <= v, and the greatest below v is at least any makespan
 * below v (the target of "makespan < v").
 *
 * Ownership: hta_toplevel owns x (hta_toplevel_free).
 */
#ifndef HTA_EXACT_TOPLEVEL_H
#define HTA_EXACT_TOPLEVEL_H

#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

/* The most lower loads a target may have (3 levels at T = 1000 with c_2 =
 * 1.5 have 3.3·10^5 counts); past it the pieces are not cut. */
#define HTA_TOPLEVEL_MAX_LOADS 2000000

typedef struct hta_toplevel {
    const hta_instance *inst;
    int N;
    double c[HTA_MAX_LEVELS]; /* c[l - 1]: level l's cost, l < N */
    double T;
    double *x;                /* the lower loads within T, increasing */
    int64_t nx;
} hta_toplevel;

/* 1 when inst has N > 2 levels, levels 2..N-1 of constant cost (the top
 * level's may grow). */
int hta_toplevel_applies(const hta_instance *inst);

/* The lower loads within T + pad (pad >= 0: the loads above T need them).
 * *too_many set (nothing kept) past HTA_TOPLEVEL_MAX_LOADS.
 * HTA_ERR_INTERNAL on out of memory. */
hta_status hta_toplevel_init(hta_toplevel *tl, const hta_instance *inst,
                             double T, double pad, int *too_many,
                             hta_diag *d);

void hta_toplevel_free(hta_toplevel *tl);

/* The end r1 >= r0 of the piece starting at r0 (r0 <= m), at tl's T. */
int64_t hta_toplevel_piece_end(const hta_toplevel *tl, int64_t r0);

/* The most pieces a target is cut into (each costs a count flow and
 * maybe a search or a model): past it the caller decides nothing. */
#define HTA_TOPLEVEL_MAX_PIECES 4096

/* The most steps (a top count tried beside a lower load) of a search for
 * the loads next to a value: 2·10^7, a tenth of a second. */
#define HTA_TOPLEVEL_MAX_STEPS 20000000

/* The least load above v (INFINITY: none; NAN past
 * HTA_TOPLEVEL_MAX_STEPS), from loads within v + c_1 (init with T = v,
 * pad = w_loc). */
double hta_toplevel_load_above(const hta_toplevel *tl, double v);

/* The greatest load below v (-INFINITY: none; NAN past
 * HTA_TOPLEVEL_MAX_STEPS), from loads within v. */
double hta_toplevel_load_below(const hta_toplevel *tl, double v);

/* The most tasks at levels 2..N beside x local ones within L (< L when
 * strict) by the evaluator's arithmetic, -1 when x alone passes it: an
 * upper bound for any N-level instance, exact up to rounding (every
 * non-local task costs w_2(0) at least, and a split of the count that
 * fits only by rounding is found split by split on N <= 4 levels, at
 * most 4096 splits, else assumed).  The
 * room the envelope bound gives each server on N levels (envelope.h). */
int64_t hta_toplevel_room(const hta_instance *inst, int64_t x, double L,
                          int strict);

#endif
