/* The envelope bound: a proof, when it holds, that no assignment has
 * makespan <= L (or < L), for any w_rem.  The "no" side of gap closing
 * (close.h searches for the "yes").
 *
 * With U the most local tasks a server can run within L (w_loc U <= L),
 * every assignment within L has local counts x_s <= min(U, deg_s) that
 * form a b-matching, hence at least r0 = m - f(U) remote tasks (f(U): the
 * maximum cover at U), each costing w_rem(R) >= c = w_rem(r0).  Server s
 * then runs at most slots(x_s) remote tasks, the most j with load(x_s, j,
 * c) within L (the evaluator's formula, monotone in c), so
 *   m <= sum_s g_s(x_s),  g_s(x) = x + slots(x)  (as in close.h).
 * Let G_s be the upper concave envelope of g_s over 0..min(U, deg_s) and
 * mu_s(k) = G_s(k) - G_s(k-1) its marginals, non-increasing.  For any
 * b-matching x,
 *   sum_s G_s(x_s) = sum_s G_s(0) + integral over theta >= 0 of
 *                    sum_s min(x_s, cap_s(theta)) dtheta,
 * cap_s(theta) = #{k : mu_s(k) >= theta} (a prefix of s's units), and
 * min(x, cap(theta)) is itself a b-matching within cap(theta), so its sum
 * is at most rho(theta), the maximum b-matching with those caps.  cap is
 * a step function of theta, constant between two consecutive marginal
 * values theta_1 > theta_2 > ... > theta_K (theta_{K+1} = 0):
 *   max sum_s G_s(x_s) <= B = sum_s G_s(0)
 *                           + sum_i (theta_i - theta_{i+1}) rho(theta_i).
 * B < m refutes L.  (B is the optimum of the concave relaxation, by the
 * polymatroid greedy: it is as strong as the LP of the ILP model with the
 * envelope's rounding, and stronger than the flow bound, which replaces
 * g by its linear relaxation x + (L - w_loc x)/c.)
 *
 * Exactness: G_s's breakpoints are integers, so each marginal is a
 * rational; it is rounded up to a multiple of 2^-30, which keeps the
 * marginals non-increasing and B an upper bound, and B is then summed in
 * 64-bit integers (units of 2^-30): no floating-point error decides.  The
 * rho(theta_i) are one incremental max-flow (hta_maxcover_raise_caps) with
 * caps that only grow.
 *
 * Where it is decisive: a cluster whose cold servers (few local tasks)
 * lose a fraction of a remote slot each to rounding, which the flow bound
 * does not see (HDFS Zipf s = 1.5, 10^5 and 10^6 tasks: "makespan <= 220"
 * and "<= 258" refuted in 0.01 and 0.1 s).  Where it is not: the rounding
 * a server avoids by choosing its local count well (affine costs on Zipf
 * s = 1: the envelope is within 0.01 of the line between x = 7 and 145),
 * and the 3SAT reductions.
 */
#ifndef HTA_ENVELOPE_H
#define HTA_ENVELOPE_H

#include <signal.h>
#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

typedef struct hta_envelope_result {
    int refuted;     /* no assignment has makespan <= L (< L if strict) */
    int64_t U;       /* the most local tasks a server can run */
    int64_t r0;      /* the fewest remote tasks: m - f(U) */
    double c;        /* w_rem(r0), the remote cost the bound uses */
    double bound;    /* refuted: B < m (sum_s g_s(x_s) <= B for every
                        b-matching); otherwise a value B reaches, >= m
                        once that is certain (the computation stops
                        there), below m when stopped by the flag */
    int64_t levels;  /* distinct marginal values theta_i */
    int64_t flows;   /* max b-matchings computed (<= levels) */
} hta_envelope_result;

/* Decides whether the envelope bound refutes makespan <= L (strict = 0)
 * or makespan < L (strict = 1), L finite and >= 0.  Time: one incremental
 * max-flow at U, one over the levels, O(|E|) for the envelopes; memory
 * O(m + n + levels).  stop (or NULL) is polled between flows; a stop
 * leaves refuted = 0. */
hta_status hta_envelope_refute(const hta_instance *inst, double L, int strict,
                               volatile sig_atomic_t *stop,
                               hta_envelope_result *res, hta_diag *d);

/* The relaxation's optimum as a start for the search (close.h): the
 * greedy above run over every level at makespan <= L, its final cover
 * into cover (m entries, -1 uncovered).  That is a maximum cover at U
 * whose loads the greedy chose level by level, so every server not cut
 * by a level's max-flow sits at a vertex of its envelope, where g = G:
 * on HDFS Zipf s = 1, affine, 10^5 tasks it starts the search 85-185
 * units of sum g above an arbitrary maximum cover.  *stopped when stop
 * was raised first (cover then unset).  Time and memory: as the
 * refutation with every level. */
hta_status hta_envelope_cover(const hta_instance *inst, double L,
                              volatile sig_atomic_t *stop, int32_t *cover,
                              int *stopped, hta_diag *d);

/* The certificate: writes the relaxation of "makespan <= L" (< L when
 * strict) as a linear program in CPLEX LP format to path, for another
 * solver to re-check: columns x_t_s in [0, 1] (task t local on s), X_s =
 * sum_t x_t_s <= min(U, deg_s), y_s >= 0 (remote slots); rows: each task
 * at most once, and per segment of G_s the line through it,
 *   (dx - dy) X_s + dx y_s <= G_i dx - dy x_i  (integer coefficients),
 * so y_s <= G_s(X_s) - X_s; and sum_s X_s + y_s >= m.  Its maximum of
 * sum X + y is the relaxation's B (without the rounding to 2^-30), so it
 * is infeasible exactly when B < m, which a refutation implies; glpsol
 * --lp FILE then says "PROBLEM HAS NO PRIMAL FEASIBLE SOLUTION".  The
 * first line names L, U, r0 and c = w_rem(r0), the facts the rows rest
 * on (r0: a maximum b-matching with caps U, which a max-flow re-checks).
 * Refused when a coefficient would exceed 2^53 or GLPK's int indices. */
hta_status hta_envelope_write_lp(const hta_instance *inst, double L,
                                 int strict, const char *path, int verbose,
                                 hta_diag *d);

#endif
