/* One piece of the general decision (satdec.h) by GLPK: the envelope-cut
 * model.  Internal to src/exact (satdec_general.c calls it).
 *
 * Tasks with the same replica set form a group (hta_instance_groups):
 * one integer column per group and replica, x_{g,s} <= |g| in all (HDFS
 * Zipf s = 1.5, 10^4 tasks on 100 servers: 2150 groups).  Excluding a
 * solution needs a 0/1 column per pair; the first exclusion rebuilds
 * the model so.
 *
 * A piece: every server runs at most U local tasks and, beside v of them,
 * at most room[v] remote ones (v = 0..U, non-increasing: the rooms at the
 * piece's least remote count rmin, which only shrink as the count grows,
 * so they hold for every count >= rmin).  The model:
 *   e_i in {0, 1} per placement pair i = (t, s): t runs local on s;
 *   sum_i e_i <= 1 per task;  X_s = sum_{i at s} e_i in [0, min(U, deg_s)];
 *   y_s >= 0 integer: remote slots of s;
 *   p X_s + q y_s <= K: the staircase y <= room[X] as one knapsack row
 *       with integer p, q, K whose integer points (X in 0..U, y >= 0) are
 *       exactly those under the staircase (p/q the simplest fraction
 *       keeping the spread of (p/q) v + room[v] below 1; checked in
 *       integers); where none exists (rooms computed with doubles can
 *       wobble: 0.7 v + 0.7 j < L), levels instead: z_{s,v} in {0, 1},
 *       sum_v z = 1, X_s = sum v z, y_s <= sum room[v] z;
 *   per segment of the upper concave envelope G_s of v + room[v] over
 *       0..min(U, deg_s): X_s + y_s <= the segment's line (valid at
 *       every integer point, since v + room[v] <= G_s(v));
 *   sum_s X_s + y_s >= m;  sum_s X_s <= m - rmin;
 *   and, once restricted, sum_s X_s >= m - rtight (the remote count within
 *   the piece's exact range).
 * Every assignment within the target whose remote count R >= rmin gives
 * a solution (X its local counts, y its remote counts), so "infeasible"
 * refutes every such R.  The envelope rows are implied by the integer
 * points but not by the LP of the knapsack row alone: they make the LP
 * the concave relaxation (envelope.h), and GLPK's cuts (Gomory, MIR,
 * cover, clique) on the knapsack rows close the rest.  HDFS Zipf s = 1.5,
 * 1000 tasks, 100 servers, affine 3 + 10^-4 r: "makespan < 17.058"
 * infeasible in 0.07 s with cuts and the envelope rows, 6.4 s without
 * cuts, not within 100 s (CBC) without the envelope rows.
 */
#ifndef HTA_EXACT_ENVILP_H
#define HTA_EXACT_ENVILP_H

#include <signal.h>
#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

/* The most columns a model may have: GLPK holds about 800 bytes per
 * column of this model (HDFS Zipf s = 1, affine, 10^6 tasks on 10^4
 * servers: 2.9·10^6 columns, 2.3 GB resident, and no answer in 30 s;
 * 10^5 tasks: 2.3·10^5 columns, 224 MB for the whole command). */
#define HTA_ENVILP_MAX_COLS 500000

typedef struct hta_envilp_piece {
    int64_t U;           /* the most local tasks of a server */
    const int64_t *room; /* room[0..U], non-increasing */
    int64_t rmin;        /* least remote count the piece stands for */
    int64_t rtight;      /* the rooms are exact up to this count */
} hta_envilp_piece;

/* A solution's local pairs (on[i] for each pair i, task-major as
 * task_srv) to an assignment: 1 realised (within the target), 0 not,
 * -1 an error (*st and d set). */
typedef int (*hta_envilp_realise)(void *ctx, const unsigned char *on,
                                  hta_status *st, hta_diag *d);

typedef enum hta_envilp_answer {
    HTA_ENVILP_YES,     /* realise said 1 */
    HTA_ENVILP_NO,      /* no solution with a remote count >= rmin */
    HTA_ENVILP_NO_TIGHT, /* none in [rmin, rtight]; above it undecided */
    HTA_ENVILP_UNKNOWN, /* deadline or stop flag */
    HTA_ENVILP_NA       /* the model exceeds HTA_ENVILP_MAX_COLS (why) */
} hta_envilp_answer;

typedef struct hta_envilp_result {
    hta_envilp_answer answer;
    int64_t blocked;    /* solutions that realise did not take, excluded */
    int64_t solves;     /* models solved (the relaxation, then glp_intopt) */
    int lp_written;     /* write_lp was written */
    char why[96];
} hta_envilp_result;

/* Decides the piece.  on: scratch of inst->edges bytes (the caller's).
 * write_lp (or NULL): on HTA_ENVILP_NO, the model as solved (exclusion
 * rows included) in CPLEX LP format, named what (the problem name), for
 * another solver to find it infeasible (res->lp_written).
 * GLPK runs inside hta_glpk_guard; a failure or an abort out of GLPK is
 * an error (HTA_ERR_INTERNAL), every answer HTA_OK. */
hta_status hta_envilp_decide(const hta_instance *inst,
                             const hta_envilp_piece *pc, double deadline,
                             volatile sig_atomic_t *stop, unsigned char *on,
                             hta_envilp_realise realise, void *ctx,
                             const char *write_lp, const char *what,
                             hta_envilp_result *res, hta_diag *d);

#endif
