/* ReduceTask placement for sequential MapReduce jobs (Tan, Meng, Zhang,
 * "Improving ReduceTask Data Locality for Sequential MapReduce Jobs",
 * INFOCOM 2013): jobs arrive, each brings R_i ReduceTasks that fetch
 * X_i / R_i of intermediate data each, and takes R_i free reduce slots
 * whose fetching cost per unit of data is H(slot); a job pays
 * (X_i / R_i) * sum of H over its slots.
 *
 * Three parts: the slot costs (a topology file, a cost list or i.i.d.
 * draws), the law of (x, R) with x = X / R and the thresholds of the
 * optimal policy in the K-job infinite-service case, and a simulator of
 * the K-limited processor-sharing system running every policy on one
 * sample path.
 *
 * Ownership: hta_slots and hta_rp_law own their arrays (free with their
 * _free functions, which accept NULL); hta_rp_table likewise.  Results
 * are plain values.
 */
#ifndef HTA_RPLACE_H
#define HTA_RPLACE_H

#include <signal.h>
#include <stdint.h>

#include "hta/diag.h"
#include "hta/jobs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HTA_RP_MAX_SLOTS 100000000LL /* 10^8 reduce slots */
#define HTA_RP_MAX_NODES 10000000LL  /* 10^7 nodes in a topology */
#define HTA_RP_MAX_LEVELS 8          /* group levels above a node */
#define HTA_RP_MAX_TABLE 50000000LL  /* threshold entries (400 MB) */
#define HTA_RP_MAX_COST 1e15         /* a slot's cost: a job's cost and its
                                        square stay finite for any data */

/* ---- slot costs ---- */

/* Format `hta-slots 1` (lex.h rules: blanks, '#' comments), either a
 * topology or the costs themselves:
 *
 *     hta-slots 1
 *     hops <d_1> ... <d_{L+1}>        optional, positive, non-decreasing
 *     node <name> <slots> [<g_1> ... <g_L>]
 *
 * A node lies in group g_1 (its rack), g_1 in g_2 (its pod), ...; every
 * node line names the same number L of groups, a group has one parent
 * (a rack is in one pod), names are one token, a node name appears once.
 * Two nodes whose lowest common group is at level j (1: the same rack)
 * are d_j hops apart, d_{L+1} when they share no group; default d_j = j
 * (the levels climbed to the lowest common switch).  H(v) is the sum of
 * the hop distances from v to every node (the intermediate data spread
 * evenly over the nodes), and each of v's slots (0 to 10^6) costs H(v).
 *
 *     hta-slots 1
 *     slot <cost> [<count>]           cost >= 0, count >= 1 (default 1)
 */
typedef struct hta_slots {
    int64_t r;      /* reduce slots, >= 1 */
    int64_t nrun;   /* runs of slots of equal cost, >= 1 */
    double *rcost;  /* [nrun] the run's cost (H), strictly ascending */
    int64_t *rend;  /* [nrun] slots in runs 0..q: the slots ranked (from
                       0, by cost) rend[q-1] .. rend[q] - 1 cost rcost[q];
                       rend[nrun - 1] = r.  Memory follows the lines, not
                       the slots: 'slot 3 100000000' is one run */
    int64_t nodes;  /* topology: nodes (0 for a cost list) */
    double *H;      /* [nodes] accumulated hop distance, file order */
    char **name;    /* [nodes] node names (owned) */
} hta_slots;

void hta_slots_free(hta_slots *s);

/* The run holding the slot ranked i (0 <= i < r).  O(log nrun). */
int64_t hta_slots_run_of(const hta_slots *s, int64_t i);

/* Reads a slot file ("-": standard input); every error is path:line
 * (HTA_ERR_INPUT).  O(N log N + r log r) for N nodes. */
hta_status hta_slots_parse(const char *path, hta_slots **out, hta_diag *d);

/* r slot costs drawn i.i.d. uniform on [lo, hi] (the paper's Section V:
 * Uniform[1, 100]) from the seed, sorted.  O(r log r). */
hta_status hta_slots_uniform(int64_t r, double lo, double hi, uint64_t seed,
                             hta_slots **out, hta_diag *d);

/* The index of the node named name, or -1. */
int64_t hta_slots_find(const hta_slots *s, const char *name);

/* The mean cost of the r slots.  O(runs). */
double hta_slots_mean_cost(const hta_slots *s);

/* ---- the law of (x, R) and the thresholds ---- */

/* A finite joint law of the data per task x = X / R > 0 and the number of
 * ReduceTasks R >= 1: atoms (x, R) with probabilities summing to 1,
 * grouped by R and sorted by x within a group. */
typedef struct hta_rp_law {
    int64_t n;       /* atoms */
    double *x;       /* [n] */
    int32_t *R;      /* [n] */
    double *p;       /* [n] */
    int32_t rmax;    /* the largest R */
    double mean_x;   /* E[x] */
    double mean_R;   /* E[R] */
    /* per R group (built by hta_rp_law_finish): atoms [goff[g], goff[g+1])
     * of R = gR[g], prefix sums of p and p*x within the group */
    int32_t ngroups;
    int32_t *gR;
    int64_t *goff;
    double *cp, *cpx; /* [n + ngroups]: per group, a leading 0 */
} hta_rp_law;

void hta_rp_law_free(hta_rp_law *law);

/* X and R independent, both finite (fixed, uniform or table; X in the
 * hta_dist's units): n_X * n_R atoms x = X / R.  HTA_ERR_USAGE for an
 * unbounded distribution (exp, pareto) or more than 10^7 atoms. */
hta_status hta_rp_law_product(const hta_dist *X, const hta_dist *R,
                              hta_rp_law *out, hta_diag *d);

/* The law of synthetic jobs with independent X and R (R bounded): the
 * product law when X is bounded too; else x = 1 / R with E[x] = E[X]
 * E[1 / R] (the rules that need the law's atoms of x, the threshold
 * table, then need a bounded X: HTA_ERR_USAGE is the caller's to give). */
hta_status hta_rp_law_jobs(const hta_dist *X, const hta_dist *R,
                           hta_rp_law *out, hta_diag *d);

/* The empirical law of n observed pairs, each with probability 1/n. */
hta_status hta_rp_law_sample(const double *x, const int32_t *R, int64_t n,
                             hta_rp_law *out, hta_diag *d);

/* The optimal policy for m more jobs of this law to come and no
 * departure (Theorems 1-2 generalised, see rplace/threshold.c): the
 * expected cost of the m jobs given the sorted free costs h_1 <= h_2 <=
 * ... is sum_j c^(m)_j h_j with c^(m) non-increasing and zero past
 * m * rmax, and the job (x, R) arriving with m further jobs to come
 * takes the free slots k+1 .. k+R of the sorted list, k = #{j : c^(m)_j >
 * x} (with a fixed R, k is a multiple of R: the y-th block when
 * q_{y-1} > x >= q_y, q_y the y-th distinct coefficient).  Rows m =
 * 0 .. K-1. */
typedef struct hta_rp_table {
    int K;
    int32_t rmax;
    int64_t *off; /* [K + 1]: c^(m) is c[off[m] .. off[m+1]) */
    double *c;
} hta_rp_table;

void hta_rp_table_free(hta_rp_table *t);

/* Builds rows 0 .. K (row 0 is empty).  O(K^2 rmax * groups * log n)
 * time, O(K^2 rmax) memory; HTA_ERR_USAGE past HTA_RP_MAX_TABLE
 * entries.  Polls *stop (may be NULL). */
hta_status hta_rp_table_build(const hta_rp_law *law, int K,
                              volatile sig_atomic_t *stop,
                              hta_rp_table *out, hta_diag *d);

/* k = #{j : c^(m)_j > x}: the free slots the job leaves to the m jobs to
 * come.  O(log(m rmax)). */
int64_t hta_rp_table_skip(const hta_rp_table *t, int m, double x);

/* sum_j c^(m)_j h_j over the first len sorted costs h: the expected
 * cost of m <= K jobs under the optimal policy (NaN for m > K). */
double hta_rp_table_value(const hta_rp_table *t, int m, const double *h,
                          int64_t len);

/* The receding-horizon rule (Theorem 4, Section IV): 1 when the job
 * should leave the best R free slots to the next job and take the next
 * block, i.e. x < p * mean_x, with p the probability that the next job
 * arrives while this one holds its slots. */
int hta_rp_rhc_defer(double x, double p, double mean_x);

/* ---- the simulator ---- */

typedef enum hta_rp_policy {
    HTA_RP_RANDOM,     /* R free slots uniformly at random (Hadoop) */
    HTA_RP_GREEDY,     /* the R cheapest free slots */
    HTA_RP_THRESHOLD,  /* the table's rule for K - 1 - (jobs holding
                          slots) jobs to come */
    HTA_RP_RHC,        /* the two-block rule, p = rho / (1 + rho) */
    HTA_RP_RHC_ADAPTIVE, /* p = N / (2N + 1), N and E[x] from the last
                            w jobs */
    HTA_RP_OPTIMAL,    /* the decision process' optimum (rplace/optimal.h):
                          few slots, small K, synthetic jobs */
    HTA_RP_NPOLICIES
} hta_rp_policy;

extern const char *const hta_rp_policy_names[HTA_RP_NPOLICIES];

typedef struct hta_rp_opts {
    int policies[HTA_RP_NPOLICIES]; /* run policy p when policies[p] */
    double lambda;   /* Poisson job arrivals per unit time; service
                        rate mu = 1 */
    int K;           /* at most K jobs hold slots (K-limited processor
                        sharing); K * rmax <= slots */
    int64_t jobs;    /* jobs to simulate (synthetic arrivals) */
    int64_t warmup;  /* jobs before the statistics start */
    int batches;     /* batch means over the measured jobs */
    int window;      /* rhc-adaptive: w */
    uint64_t seed;
    /* synthetic jobs: X and R independent draws (hta_dist units, R at
     * most rmax); or a trace: jobs (x_i, R_i) at times t_i (non-
     * decreasing, any unit: scaled so that the mean rate is lambda) */
    const hta_dist *X, *R;
    int64_t trace_n;
    const double *trace_t, *trace_x;
    const int32_t *trace_R;
    int32_t rmax;              /* the largest R (K * rmax <= slots) */
    double mean_x;             /* E[x] for rhc */
    const hta_rp_table *table; /* for threshold (K rows at least) */
    const hta_rp_law *law;     /* for optimal: the law of (x, R) */
    volatile sig_atomic_t *stop; /* polled: ends the run early (cut) */
} hta_rp_opts;

/* The law's part of o: rmax and mean_x and, when o runs the threshold
 * policy, its table (built into table, which o then points to; polls
 * stop). */
hta_status hta_rp_opts_law(hta_rp_opts *o, const hta_rp_law *law,
                           hta_rp_table *table, volatile sig_atomic_t *stop,
                           hta_diag *d);

typedef struct hta_rp_row {
    int run;                  /* the policy was simulated */
    double mean, ci;          /* fetching cost per job, 95% half-width */
    double vs_random, vs_random_ci; /* saving in percent, paired */
    double vs_greedy, vs_greedy_ci;
    double mean_pos;          /* mean rank (1-based) of the slots taken
                                 in the sorted list of all slots */
} hta_rp_row;

typedef struct hta_rp_result {
    int64_t jobs;             /* jobs simulated */
    int cut;                  /* stopped early by *stop */
    double mean_n, ci_n;      /* time-average jobs in system, 95% */
    double mean_t;            /* mean time in system of measured jobs */
    double little_gap;        /* |mean_n - rate * mean_t| / mean_n, rate
                                 the measured arrival rate */
    double waited;            /* share of jobs that waited for service */
    hta_rp_row row[HTA_RP_NPOLICIES];
    /* optimal: the decision process' least cost per job, bounds */
    double opt_lo, opt_hi;
    int64_t opt_states, opt_iters;
    int opt_converged;
    double seconds;
} hta_rp_result;

/* Runs the queue once and every selected policy on its sample path
 * (common random numbers: the arrivals, the jobs, the service and hence
 * the number in system are the same for all; only the slots differ).
 * The K-limited processor-sharing map phase with exponential service of
 * rate mu = 1: while n >= 1 jobs are in the system the next departure
 * comes at rate 1 and is one of the min(n, K) in service, uniformly; the
 * others wait in FIFO order without slots and take their slots when
 * they enter service.  Memory O(r + K rmax), independent of the number
 * of jobs; time O(log r) per ReduceTask per policy. */
hta_status hta_rp_run(const hta_slots *s, const hta_rp_opts *o,
                      hta_rp_result *res, hta_diag *d);

/* ---- what a caller asks: the command line's options, Python's
 * arguments ---- */

#define HTA_RP_MAX_SWEEP 64 /* rates of one request */

/* The jobs of a SWIM trace with shuffle data (hta_swim_read): X =
 * shuffle in GiB, R = ceil(shuffle / reducer_mb MiB) in [1, cap], x =
 * X / R, at the recorded submit times; map-only jobs dropped.
 * HTA_ERR_INPUT when fewer than two jobs at different times remain. */
typedef struct hta_rp_trace {
    int64_t n;
    double *t, *x;
    int32_t *R;
} hta_rp_trace;

hta_status hta_rp_trace_read(const char *path, double reducer_mb,
                             int32_t cap, hta_rp_trace *out, hta_diag *d);
void hta_rp_trace_free(hta_rp_trace *tr); /* NULL: nothing */

/* Each field 0 (warmup -1, strings NULL) when not given, so that the
 * command's default holds: policies all but optimal, rate 0.4, K 10,
 * 50000 jobs, warm-up a tenth, 30 batches, window 100, seed 1, 1000
 * slots of costs uniform on [1, 100], X uniform:1:100, R uniform:1:10,
 * reducer_mb 1024.  Borrowed strings. */
typedef struct hta_rp_ask {
    int has_policies;
    int policies[HTA_RP_NPOLICIES];
    double lambdas[HTA_RP_MAX_SWEEP]; /* the rates, each in (0, 1) */
    int nl;
    const char *slots_file;   /* an hta-slots file; NULL: i.i.d. costs */
    int64_t slots;            /* i.i.d. costs: how many */
    int has_costs;
    double lo, hi;            /* i.i.d. costs: uniform on [lo, hi] */
    int K;
    int64_t jobs, warmup;
    int batches, window;
    int has_seed;
    uint64_t seed;
    const char *data, *reducers; /* hta_dist strings */
    const char *jobs_trace;   /* a SWIM trace: its jobs */
    double reducer_mb;
    volatile sig_atomic_t *stop; /* polled by the table and the runs */
} hta_rp_ask;

/* A request made ready: the options of the runs (o.lambda the first
 * rate), the rates, and what o points to (owned). */
typedef struct hta_rp_setup {
    hta_rp_opts o;
    double lambdas[HTA_RP_MAX_SWEEP];
    int nl;
    hta_slots *s;
    hta_dist X, R;
    hta_rp_law law;
    hta_rp_table table;
    hta_rp_trace trace;
    char source[256]; /* the slots, in words */
    char jobs[600];   /* the jobs, in words */
} hta_rp_setup;

/* The rules between the options first (HTA_ERR_USAGE with the command
 * line's words, naming --options), then the files, the slots, the law
 * and the threshold table.  *out is the caller's to free, whatever the
 * status (hta_rp_setup_free). */
hta_status hta_rp_setup_make(const hta_rp_ask *ask, hta_rp_setup *out,
                             hta_diag *d);
void hta_rp_setup_free(hta_rp_setup *su); /* NULL: nothing */

/* Every rate of the set-up on at most `threads` threads (hta_pool_run):
 * res[k] and ran[k] for rate k (ran 0: not started, the stop flag was
 * set); the first run's error in rate order, if any. */
hta_status hta_rp_sweep(const hta_rp_setup *su, int threads,
                        hta_rp_result *res, int *ran, hta_diag *d);

#ifdef __cplusplus
}
#endif

#endif
