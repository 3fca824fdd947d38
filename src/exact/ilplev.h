/* The integer program on N > 2 locality levels (levels.h), one cost piece
 * at a time.  Internal to src/exact (ilp.c drives it like its two-level
 * compact model).
 *
 * A piece fixes a cost c_l per level l = 2..N and caps the count of tasks
 * at level l by R_l (w_l(r) = c_l for r <= R_l, the last r where it is).
 * Tasks with one replica set form a group g (hta_instance_groups).  A
 * level-l unit of g is a level-(l-1) group (for l = 2 a server) inside a
 * level-l group holding a replica of g (for l = N: anywhere) that holds
 * none itself: every server of the unit is at level exactly l for g.
 *   x_{g,s} >= 0: tasks of g local on s (s holds the replicas);
 *   z_{g,s} (l = 2): tasks of g on server s at level 2;
 *   z_{g,h} (l >= 3): tasks of g in unit h at level l;
 *   y_{l,s} integer: the level-l tasks server s runs, every level;
 *   sum over g's columns = |g|;  sum_g x_{g,s} = y_{1,s};
 *   sum_g z_{g,s} = y_{2,s};  sum_{s in h} y_{l,s} = sum_g z_{g,h};
 *   sum_s y_{l,s} <= R_l;  sum_l y_{l,s} <= floor(L_hi / w_loc);
 *   sum_l c_l y_{l,s} <= L per server;  min L.
 * Levels are exact (a task lands at the level it is charged), so a
 * solution is an assignment whose level-l count is at most R_l, costing at
 * most c_l per level-l task (w_l non-decreasing): its makespan is at most
 * L; and an optimal assignment is a solution of the piece holding its
 * counts.  min over pieces = L^O, as in ilp.c.  The row of a server's
 * tasks holds for every solution with L <= L_hi (each task costs w_loc at
 * least), and makes the relaxation see that a server cannot run a
 * fraction of a task more (at L_hi = K w_loc + 0.5 with w_rack 1.5, every
 * server runs at most K tasks, and when n K = m all of them run K: the
 * rack-aware benchmark's "10.5 or 11" is then decided by the LP alone).
 *
 * Only the counts y are integers.  With them fixed, the flows x, z form
 * a transportation problem: every flow column lies in one group row and
 * one count row (a server's y_{1,s} or y_{2,s}, a unit's sum of y), a
 * bipartite incidence matrix, totally unimodular; its right sides are
 * integers, so it has an integral solution whenever it has one at all.
 * hta_ilplev_read finds it (a basic solution of the flow rows alone,
 * by GLPK's simplex) when the solver's flows are fractional.  Branching
 * on n N counts instead of a column per group and target: the issue-61
 * rack instance (10^4 tasks, 5223 groups; hta solve --algo fsy,ilp) went
 * from open at 120 s to proven in 10.5 s.
 *
 * Pooled (constant costs: one piece without caps, R_l >= m).  Then the
 * level of a task may be lower than charged: a level-l unit is the whole
 * level-l group holding a replica (the pool; level N: the cluster), the
 * task costs c_l or less on any of its servers (costs rise with the
 * level), so a solution is still an assignment of makespan <= L, and an
 * assignment is a solution (a task at level l on s shares s's level-l
 * group with a replica).  A group then has one column per pool instead
 * of one per server or unit of its racks: 6 columns a group against 29
 * on the instance, its LP 0.5 s; with the tasks rows above it is
 * proven in 2.7-4.8 s (three runs).
 *
 * Ownership: hta_ilplev owns its arrays (hta_ilplev_free); GLPK problems
 * are the caller's.  Nothing here allocates inside GLPK's guard except
 * through the struct, so an abort out of GLPK leaks nothing.
 */
#ifndef HTA_EXACT_ILPLEV_H
#define HTA_EXACT_ILPLEV_H

#include <stdint.h>

#include <glpk.h>

#include "hta/instance.h"

typedef struct hta_ilplev {
    const hta_instance *inst;
    int N;
    int pooled;                   /* level columns name pools (above) */
    int32_t ngroups;
    const int32_t *order, *first; /* groups: tasks by group (borrowed) */
    /* columns, 1-based in GLPK: one per (group, level, target) */
    int64_t ncols;                /* x and z columns */
    int32_t *col_group;
    int32_t *col_target;          /* server (levels 1, 2) or unit */
    unsigned char *col_level;
    int64_t *group_col;           /* per group: its first column */
    int32_t nunits[HTA_MAX_LEVELS + 1]; /* units of levels 3..N */
    /* scratch of build and read */
    int *ia, *ja;
    double *ar;
    size_t cap_ia, cap_ja, cap_ar;
    int32_t *pool, *pool_off, *pool_fill;
    size_t cap_pool, cap_off, cap_fill;
    double *flow; /* read's integral flows */
    size_t cap_flow;
} hta_ilplev;

/* The columns of inst's N-level model over the groups (order, first,
 * ngroups: hta_instance_groups's, borrowed).  HTA_ERR_INTERNAL on out of
 * memory; *too_big set (nothing built) when the model would pass
 * max_cols columns. */
hta_status hta_ilplev_init(hta_ilplev *mv, const hta_instance *inst,
                           const int32_t *order, const int32_t *first,
                           int32_t ngroups, int pooled, int64_t max_cols,
                           int *too_big, hta_diag *d);

/* The piece's model: c[l - 1] the (scaled) cost of level l, c[0] w_loc's;
 * R[l - 1] the cap of level l (>= m: none); L in [L_lo, L_hi], integer
 * when L_int.  NULL on out of memory. */
glp_prob *hta_ilplev_build(hta_ilplev *mv, const double *c, const int64_t *R,
                           double L_lo, double L_hi, int L_int);

/* Columns every model of the ILP has (ilpmodel.c's too): an integer
 * column in [0, U] (fixed at 0 when U <= 0, binary when U is 1), and L,
 * the objective, in [L_lo, L_hi] (L_hi infinite: no upper bound),
 * integer when L_int. */
void hta_ilp_int_col(glp_prob *P, int col, double U);
void hta_ilp_L_col(glp_prob *P, int col, double L_lo, double L_hi, int L_int);

/* Row and column names and a title line, for an LP file; R as built. */
void hta_ilplev_name(const hta_ilplev *mv, glp_prob *P, const int64_t *R,
                     const char *title);

/* A solution (x: 1-based column values) as an assignment a[0..m).  1 when
 * it adds up, 0 when not, -1 out of memory. */
int hta_ilplev_read(hta_ilplev *mv, const double *x, int32_t *a);

void hta_ilplev_free(hta_ilplev *mv);

#endif
