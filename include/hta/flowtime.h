/* Map-then-reduce flow time (Zheng, Shroff, Sinha, "A New Analytical
 * Technique for Designing Provably Efficient MapReduce Schedulers",
 * INFOCOM 2013): N machines, each doing one unit of one job's work per
 * slot; the reduce work of a job may run only in slots after the slot in
 * which its map work ended.  The flow time of job i is f_i - a_i + 1, f_i
 * the slot of its last unit; the objective is the total over all jobs.
 *
 * Two scenarios:
 * - preemptive: map and reduce work are divisible; in a slot a job may
 *   use any number of machines for either phase (the reduce tasks do not
 *   constrain it);
 * - non-preemptive: map work is in unit tasks; reduce task k of job i
 *   (R_i^(k) units) runs on one machine in R_i^(k) consecutive slots once
 *   started.
 *
 * Policies (flowtime.c quotes each rule): srpt (the relaxation, a lower
 * bound), dsrpt (preemptive only), asrpt, fifo, fair.  exact: a
 * time-indexed integer program (GLPK) for small traces.
 *
 * Ownership: results are caller-owned; free with hta_ft_result_free.
 */
#ifndef HTA_FLOWTIME_H
#define HTA_FLOWTIME_H

#include <signal.h>
#include <stdint.h>

#include "hta/diag.h"
#include "hta/jobs.h"
#include "hta/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hta_ft_policy {
    HTA_FT_SRPT,
    HTA_FT_DSRPT,
    HTA_FT_ASRPT,
    HTA_FT_FIFO,
    HTA_FT_FAIR,
    HTA_FT_NPOLICIES
} hta_ft_policy;

extern const char *const hta_ft_policy_names[HTA_FT_NPOLICIES];

/* One entry of a recorded schedule: units of a job's work in each of the
 * span slots from slot on (span 0 or 1: that slot alone).  kind 0 map,
 * 1 reduce; task is the reduce task (non-preemptive) or -1.  Entries are
 * in slot order; those starting in the same slot have the same span. */
typedef struct hta_ft_entry {
    int64_t slot, job;
    int32_t kind, task;
    int64_t units;
    int64_t span;
} hta_ft_entry;

typedef struct hta_ft_sched {
    hta_ft_entry *e;
    size_t n, cap;
} hta_ft_sched;

typedef struct hta_ft_opts {
    int32_t machines;
    int preemptive;
    hta_ft_sched *record; /* when not NULL, every unit is recorded here */
    hta_progress_fn progress; /* may be NULL */
    void *progress_ctx;
    volatile sig_atomic_t *stop; /* polled: non-zero ends the run (cut) */
    int stepwise; /* every slot in turn (the reference engine), instead of
                     leaping from event to event */
} hta_ft_opts;

typedef struct hta_ft_result {
    hta_ft_policy policy;
    int64_t *finish; /* [n] completion slot f_i (0: not finished) */
    int64_t total;   /* sum of f_i - a_i + 1 */
    int64_t slots;   /* slots simulated (idle stretches skipped) */
    int64_t steps;   /* slots computed one by one (the rest leapt over) */
    int64_t last;    /* the last completion slot */
    int cut;         /* interrupted: finish incomplete */
    double seconds;
} hta_ft_result;

void hta_ft_result_free(hta_ft_result *r);
void hta_ft_sched_free(hta_ft_sched *s);

/* Runs one policy over the trace.  HTA_ERR_USAGE for dsrpt in the
 * non-preemptive scenario.  Between two events (an arrival, a job's map
 * work or job ending, a reduce task starting or ending, the relaxation's
 * job or map work ending) every policy repeats its slot (fair: up to its
 * rotation, whose effect is counted in closed form), so the run leaps
 * over such stretches: O(events * (N + active jobs * log n)) time, the
 * same schedule as stepping slot by slot (opts.stepwise, O(slots * (N +
 * log n))).  O(n + N) memory beyond the trace (plus the record). */
hta_status hta_ft_run(const hta_jobs *j, hta_ft_policy p,
                      const hta_ft_opts *o, hta_ft_result *r, hta_diag *d);

/* The least flow time job i can have, alone on the N machines:
 * ceil(M/N) + ceil(R/N) preemptive; ceil(M/N) + max(longest task,
 * ceil(R/N)) non-preemptive (a lower bound then). */
int64_t hta_ft_job_lb(const hta_jobs *j, int64_t i, int32_t machines,
                      int preemptive);

/* Verifies a schedule against the model (arrivals, capacity N per slot,
 * every unit done once, reduce only after the map's slot; non-preemptive:
 * one machine per running task in consecutive slots; relaxed: map and
 * reduce in one pool, the relaxation srpt solves) and gives each job's
 * completion slot in finish[n].  HTA_ERR_INPUT with the first violation. */
hta_status hta_ft_check(const hta_jobs *j, int32_t machines, int preemptive,
                        int relaxed, const hta_ft_sched *s, int64_t *finish,
                        int64_t *total, hta_diag *d);

/* The exact optimum by a time-indexed integer program. */
typedef struct hta_ft_exact_opts {
    int32_t machines;
    int preemptive;
    int64_t upper;       /* a feasible total flow time (a policy's) */
    int64_t max_vars;    /* refuse (HTA_ERR_USAGE) above this model size */
    double time_limit;   /* seconds, 0 for none */
    int verbose;
    volatile sig_atomic_t *stop; /* polled every 10 ms: GLPK runs in a
                                    child process, asked to end (SIGUSR1)
                                    and killed half a second later */
} hta_ft_exact_opts;

typedef struct hta_ft_exact {
    int optimal;    /* proven */
    int found;      /* value is a schedule found (else upper) */
    int cut;        /* time limit or stop */
    int64_t value;  /* best total flow time found (upper when none) */
    int64_t bound;  /* proven lower bound */
    int64_t vars, rows;
    double seconds;
    hta_ft_sched sched; /* the best schedule found (empty when none) */
} hta_ft_exact;

/* Columns the program would have (before building it). */
int64_t hta_ft_exact_size(const hta_jobs *j, const hta_ft_exact_opts *o);

/* Solves it with GLPK in a child process (fork; the caller's memory is
 * shared copy-on-write, the answer comes back through a shared mapping;
 * on Linux the child dies with the caller).  The bound is always valid:
 * the jobs' least flow times raised by the tree's bound. */
hta_status hta_ft_exact_solve(const hta_jobs *j, const hta_ft_exact_opts *o,
                              hta_ft_exact *out, hta_diag *d);

/* ---- what `hta flowtime` reports for each number of machines -------- */

/* The exact program as a policy of a point (after the others). */
#define HTA_FT_EXACT HTA_FT_NPOLICIES

/* Jobs by size (total work 1, 2-10, 11-100, 101-1000, > 1000 units). */
#define HTA_FT_NCLASSES 5
extern const char *const hta_ft_class_names[HTA_FT_NCLASSES];
int hta_ft_size_class(const hta_jobs *j, int64_t i);

/* Slots from the first arrival to the last; the machines a load needs,
 * ceil(W / (load * span)) (at least 1; above 10^6 the callers refuse). */
int64_t hta_ft_span(const hta_jobs *j);
double hta_ft_machines_for(const hta_jobs *j, double load);

/* A policy's row at a point; finish (owned) the completion slots. */
typedef struct hta_ft_row {
    int policy;
    int64_t total;
    double seconds;
    int cut;
    double cls_sum[HTA_FT_NCLASSES]; /* flow times summed by size class */
    int64_t *finish;
} hta_ft_row;

/* One number of machines: every policy's row, the bounds, the exact
 * program's answer. */
typedef struct hta_ft_point {
    int32_t N;
    double load;          /* W / (N * span) */
    hta_ft_row rows[HTA_FT_NPOLICIES];
    int nrows;
    int64_t srpt, lbsum;  /* SRPT's total (when run), sum of job bounds */
    int64_t class_jobs[HTA_FT_NCLASSES]; /* jobs by size class */
    int have_srpt;
    int exact_ran, exact_skipped;
    hta_ft_exact ex;
    int64_t exact_cols;
    int interrupted;      /* a run was cut: the point ends there */
} hta_ft_point;

typedef struct hta_ft_points_opts {
    int pols[HTA_FT_NPOLICIES + 1]; /* hta_ft_policy or HTA_FT_EXACT */
    int npols;
    int preemptive, stepwise, verbose;
    int64_t exact_max_vars;  /* the exact program's largest size */
    double time_limit;       /* its seconds */
    int threads;             /* runs at once (hta_pool_run) */
    volatile sig_atomic_t *stop;
    /* progress of the pool's runs (called from every thread: the
     * callback must be safe so) and of the exact program's feasible run */
    hta_progress_fn progress;
    void *progress_ctx;
    hta_progress_fn exact_progress;
    void *exact_progress_ctx;
} hta_ft_points_opts;

/* The points of N[0..n) machines: every policy but exact on the pool,
 * then point by point the rows, the bounds and the exact program (it
 * needs the others' best total, a run of fifo when there is none).
 * Fills pts[0..*done): the points run, the last one interrupted when a
 * stop came.  dsrpt must not be asked in the non-preemptive mode
 * (HTA_ERR_USAGE).  Free each point with hta_ft_point_free. */
hta_status hta_ft_points(const hta_jobs *j, const hta_ft_points_opts *o,
                         const int32_t *N, int n, hta_ft_point *pts,
                         int *done, hta_diag *d);
void hta_ft_point_free(hta_ft_point *pt);

/* max(SRPT's total, the sum of job bounds, the exact program's bound). */
double hta_ft_lower_bound(const hta_ft_point *pt);

#ifdef __cplusplus
}
#endif

#endif
