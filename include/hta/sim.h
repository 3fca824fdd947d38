/* The online affinity-scheduling simulator (Wang et al., INFOCOM 2013;
 * Yekkehkhany et al., GB-PANDAS): tasks of the cluster's types arrive
 * slot by slot, are routed to queues and served, non-preemptively, at the
 * rate of the locality level of the server for the task.
 *
 * Slot convention.  In slot t: (1) the slot's arrivals are routed; (2)
 * every server idle at the start of t may start a task, which then
 * occupies the slots t .. t + S - 1 (S >= 1 drawn at the start, by level);
 * (3) tasks whose last slot is t depart at its end.  The number in system
 * is observed at the end of each slot; a task's delay is d - a + 1 (its
 * departure slot d, arrival slot a: queueing plus service, in slots), so
 * Little's law reads E[N] = throughput * (E[delay] - 1).
 *
 * Service times: geometric with parameter alpha_n (mean 1/alpha_n, Wang's
 * model), or a continuous time X of mean 1/alpha_n (log-normal with a
 * given coefficient of variation, exponential, deterministic) rounded to
 * whole slots without bias: floor(X) slots and one more with probability
 * frac(X), at least 1.  With K slots per time unit (per_unit) the rates
 * are per unit: geometric alpha_n / K, K X slots rounded so, arrival
 * rates / K per slot; only the minimum of 1 slot then biases the mean,
 * when K X < 1.  Common random numbers: arrivals come from
 * their own stream and the service time of task k at level n is a
 * function of (seed, k, n) alone, so every policy sees one sample path.
 *
 * Ownership: results are plain values (the sample path goes to the
 * trace callback); hta_sim_result_free clears one.
 */
#ifndef HTA_SIM_H
#define HTA_SIM_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "hta/cluster.h"
#include "hta/diag.h"
#include "hta/jobs.h"
#include "hta/policy.h"
#include "hta/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hta_sim_policy {
    HTA_SIM_JSQ_MAXWEIGHT, /* Wang et al. */
    HTA_SIM_PRIORITY,      /* JSQ-Priority (Pandas) */
    HTA_SIM_GB_PANDAS,     /* Balanced-Pandas / GB-PANDAS */
    HTA_SIM_FCFS,          /* Hadoop FIFO: one queue */
    HTA_SIM_FAIR,          /* naive fair sharing (job arrivals only) */
    HTA_SIM_DELAY,         /* delay scheduling (job arrivals only) */
    HTA_SIM_NPOLICIES
} hta_sim_policy;

extern const char *const hta_sim_policy_names[HTA_SIM_NPOLICIES];

/* Tasks arriving per slot, in expectation, over all types: at most. */
#define HTA_SIM_MAX_ARRIVALS 1e9

#define HTA_SIM_CLASSES 5
/* The job-size classes' names: "1", "2-10", "11-100", "101-1000",
 * ">1000" (tasks). */
extern const char *const hta_sim_class_names[HTA_SIM_CLASSES];
#define HTA_SIM_BINS 2800 /* log_{1.01} of 10^12 */

typedef enum hta_sim_arrivals {
    HTA_ARR_POISSON,  /* Poisson(lambda_L) tasks of type L per slot */
    HTA_ARR_BERNOULLI, /* one task of type L with probability lambda_L */
    HTA_ARR_JOBS       /* jobs of several tasks (job_size or a trace) */
} hta_sim_arrivals;

typedef enum hta_sim_service {
    HTA_SVC_GEOMETRIC,
    HTA_SVC_LOGNORMAL,     /* with cv */
    HTA_SVC_EXPONENTIAL,
    HTA_SVC_DETERMINISTIC
} hta_sim_service;

typedef struct hta_sim_opts {
    hta_sim_policy policy;
    const hta_policy *plugin; /* when set, this policy of the caller's
                                 (policy.h) instead of `policy` */
    hta_sim_arrivals arrivals;
    hta_sim_service service;
    double cv;          /* log-normal: standard deviation / mean */
    double load;        /* every lambda_L is multiplied by it */
    double per_unit;    /* slots per time unit K >= 1: rates are per
                           unit, so a slot sees lambda_L * load / K
                           arrivals, geometric service has parameter
                           alpha_n / K and a continuous time X (units)
                           takes ceil(K X) slots */
    int64_t slots;      /* T */
    int64_t max_backlog; /* tasks in system that end the run as unstable
                            (0: no bound); hta_sim_default_backlog sizes
                            it to the machine */
    int64_t warmup;     /* slots before statistics start */
    int batches;        /* batch means for the confidence intervals */
    uint64_t seed;
    volatile sig_atomic_t *stop; /* polled: ends the run early (cut) */
    hta_progress_fn progress;
    void *progress_ctx;
    /* job arrivals (HTA_ARR_JOBS): Poisson jobs per slot at the rate that
     * gives the tasks' total rate, each of job_size tasks whose types are
     * drawn in proportion to lambda; or, when trace is set, the jobs of a
     * trace (arrival slot, map tasks = its map work) */
    hta_dist job_size;
    const hta_jobs *trace_jobs;
    int subqueues; /* job arrivals, queue-based policies: every queue
                      keeps a sub-queue per job and serves the one of the
                      job with the fewest running tasks (Wang et al.,
                      Section V) */
    int delay[2]; /* delay scheduling: skips before rack-local (D1) and
                     before remote (D1 + D2) tasks; two levels: D1 only */
    /* the sample path: called with the number in system at the end of
     * every trace_every-th slot (may be NULL) */
    void (*trace)(void *ctx, int64_t slot, int64_t n);
    void *trace_ctx;
    int64_t trace_every;
} hta_sim_opts;

/* The stability verdict of a run. */
typedef enum hta_sim_verdict {
    HTA_SIM_STABLE,    /* a whole run, the number in system not growing */
    HTA_SIM_GROWING,   /* the slope test says it grows (cut or not) */
    HTA_SIM_UNDECIDED, /* too little data: a cut run the test does not
                          call growing, or fewer than 3 batches in the
                          second half */
    HTA_SIM_UNSTABLE   /* the backlog passed opts.max_backlog */
} hta_sim_verdict;

extern const char *const hta_sim_verdict_names[4];

typedef struct hta_sim_result {
    int64_t slots;        /* slots simulated (< opts.slots when cut) */
    int cut;              /* stopped by opts.stop */
    hta_sim_verdict verdict;
    int64_t backlog_slot; /* HTA_SIM_UNSTABLE: the slot the backlog passed
                             the bound in (the run's last) */
    int64_t arrived, departed, in_system; /* over the whole run */
    /* over the measured slots (after the warm-up) */
    double mean_n, ci_n;         /* number in system, 95% half-width */
    double mean_delay, ci_delay; /* of the tasks departing, 95% */
    double mean_job_delay, ci_job_delay; /* job arrivals: of the jobs whose
                                            last task departs, 95% */
    int64_t jobs_arrived, jobs_done;
    /* job delays by job size (tasks 1, 2-10, 11-100, 101-1000, >1000) of
     * the jobs done after the warm-up: count, median, 95th and 99th
     * percentile, from a logarithmic histogram (within 0.5%) */
    int64_t class_jobs[HTA_SIM_CLASSES];
    double class_pct[HTA_SIM_CLASSES][3];
    /* A whole run's means and intervals are over its B batches; a cut
     * run's means are over every measured slot it ran (the partial batch
     * too), its intervals over its complete batches (NAN below 2): no
     * data, NAN. */
    double throughput;           /* departures per slot */
    double little_gap;   /* |mean_n - throughput (mean_delay - 1)| /
                            max(mean_n, 1e-12), over the whole run */
    double utilisation;  /* busy server-slots / (M * slots) */
    int levels;
    double level_frac[HTA_MAX_LEVELS]; /* share of tasks served at level */
    /* stability: least-squares slope of the batch means of N over the
     * second half, and its t statistic; growing when t > 2.58 (1%) and
     * the rise over the half exceeds 3 standard errors of the mean */
    double slope, slope_t;
    int growing;
    int64_t level_errors; /* checked builds (-DHTA_CHECKED): tasks served
                             at a level other than capacity.h's level of
                             the server for their type (must be 0) */
    int64_t route_errors; /* checked builds: GB-PANDAS routings whose
                             score is not the minimum over all servers */
    double seconds;
} hta_sim_result;

void hta_sim_result_free(hta_sim_result *r);

/* A plug-in's table before use (policy.h): its ABI, a name of its own
 * (1 to 32 of [a-z0-9_-], not a built-in's), its queues (at least one),
 * known flags, route and serve; HTA_ERR_INPUT in those words. */
hta_status hta_policy_check(const hta_policy *p, hta_diag *d);

/* A run's policy name: the plug-in's, or the built-in's. */
const char *hta_sim_opts_policy_name(const hta_sim_opts *o);

/* A backlog bound for opts.max_backlog sized to the memory the process
 * may use (the smaller of physical memory and RLIMIT_AS): a sixteenth of
 * it in tasks of 48 bytes, shared by `runs` runs going at once (at least
 * 1), at least 10^4 tasks a run.  So the runs together stay within the
 * same bytes whatever their number. */
int64_t hta_sim_backlog_for(int runs);

/* hta_sim_backlog_for(the processors): one run per processor. */
int64_t hta_sim_default_backlog(void);

/* The command's defaults (`hta sim`): Poisson arrivals, geometric service
 * (cv 1 for log-normal), load 1, 1 slot per unit, 100,000 slots with a
 * tenth of them warm-up, 30 batches, seed 1, jobs of 10 tasks, delay
 * scheduling's skips unset (-1: M, M), the backlog bound of
 * hta_sim_default_backlog; the policy jsq-maxweight, no stop flag, no
 * callbacks. */
void hta_sim_opts_default(hta_sim_opts *o);

/* Runs one policy.  A plug-in (opts.plugin) that breaks a rule or fails
 * ends the run with HTA_ERR_INPUT ("policy NAME: ..."), r then holding
 * the run up to that call as a cut run (cut = 1) when a slot was whole.
 * HTA_ERR_USAGE for a service rate above 1 per slot
 * (alpha_n / per_unit > 1: a server ends at most one task a slot);
 * HTA_ERR_INPUT for explicit groups (hta_cluster_from_instance) that are
 * not runs of consecutive servers in order.  Memory: resident O(T +
 * servers the run touches + tasks in system), independent of the number
 * of slots and of the servers declared but never reached (address space
 * O(M)).
 * opts.stop is polled at every slot and every task started or arrived,
 * so a stop ends the run within a task's work.  Time per slot
 * O(M / 4096 + servers visited + departures) (the idle servers with work
 * are found through a summary bit set) plus per task: jsq-maxweight,
 * fcfs O(replicas); priority,
 * gb-pandas O(replicas * levels + log M) (O(replicas * levels * log M)
 * when the topology's group sizes are far from powers of two); fair,
 * delay O(log jobs + the job's queued tasks); with sub-queues
 * O(jobs in the queue) per start. */
hta_status hta_sim_run(const hta_cluster *c, const hta_sim_opts *o,
                       hta_sim_result *r, hta_diag *d);

/* ---- what a caller asks: the command line's options, Python's
 * arguments ---- */

#define HTA_SIM_MAX_LOADS 64 /* loads of one request */
#define HTA_SIM_MAX_POLICIES 16 /* policies of one request */

/* Each field 0 (warmup -1, strings NULL) when not given, so that the
 * command's default holds (hta_sim_opts_default; every built-in policy
 * that applies; load 1).  Policies in the order given, each once: policy
 * q is plugs[q] when that is set (a plug-in, policy.h), else the
 * built-in pols[q].  Borrowed strings and tables. */
typedef struct hta_sim_ask {
    int npols;
    hta_sim_policy pols[HTA_SIM_MAX_POLICIES];
    const hta_policy *plugs[HTA_SIM_MAX_POLICIES];
    int pols_named_pandas; /* gb-pandas was given as balanced-pandas too
                              (the command's words for a repeat) */
    double loads[HTA_SIM_MAX_LOADS]; /* each in (0, 1e6] */
    int nloads;
    int64_t slots, warmup;
    int batches;
    int has_arrivals, has_service;
    hta_sim_arrivals arrivals;
    hta_sim_service service;
    double cv;                /* lognormal only */
    const char *job_size;     /* an hta_dist string */
    const char *jobs_trace;   /* a SWIM trace's jobs */
    double time_scale, block_mb; /* the trace's seconds per slot, MiB per
                                    map task */
    int subqueues;
    int ndelay;
    int delay[2];
    int64_t per_unit;         /* slots per time unit */
    int has_seed;
    uint64_t seed;
    int64_t max_backlog;
    int traced;               /* a trace of the sample paths is asked */
    int64_t trace_every;
    volatile sig_atomic_t *stop; /* polled by the capacity and the runs */
} hta_sim_ask;

/* The rules between the options that need no file, in the command
 * line's words (HTA_ERR_USAGE naming --options).  O(1). */
hta_status hta_sim_ask_check(const hta_sim_ask *ask, hta_diag *d);

/* A request made ready on a cluster: the runs' options (o; its load the
 * first), the policies and loads, the trace's jobs (owned), the
 * arrival rate at load 1 and rho* at load 1 (hta_capacity_solve). */
typedef struct hta_sim_setup {
    hta_sim_opts o;
    int backlog_given; /* o.max_backlog was asked; else hta_sim_batch
                          sizes it to the runs going at once */
    int npols;
    hta_sim_policy pols[HTA_SIM_MAX_POLICIES];
    /* the ask's plug-ins, as copies of their tables (plug_copy, names
     * in plug_name) taken and checked here: a plug-in that changes its
     * table during the runs changes nothing the runs or the reports
     * read.  The setup is used in place (not copied by value). */
    const hta_policy *plugs[HTA_SIM_MAX_POLICIES];
    hta_policy plug_copy[HTA_SIM_MAX_POLICIES];
    char plug_name[HTA_SIM_MAX_POLICIES][40];
    double loads[HTA_SIM_MAX_LOADS];
    int nloads;
    hta_jobs *trace;
    double total, rho1;
} hta_sim_setup;

/* hta_sim_ask_check, then the distribution's table, the SWIM trace, the
 * cluster's limits (Bernoulli rates, service rates per slot, 10^9
 * arrivals a slot: HTA_ERR_USAGE) and rho*.  *out is the caller's to
 * free whatever the status (hta_sim_setup_free). */
hta_status hta_sim_setup_make(const hta_sim_ask *ask, const hta_cluster *c,
                              hta_sim_setup *out, hta_diag *d);
void hta_sim_setup_free(hta_sim_setup *su); /* NULL: nothing */

/* Run k's options (load k / npols, policy k % npols: o.policy and
 * o.plugin), the backlog bound left as su->o's. */
void hta_sim_setup_run(const hta_sim_setup *su, int k, hta_sim_opts *o);

/* The load and rho* a run's report states: the asked load, or with a
 * SWIM trace its own rate (tasks a slot over the trace's span) over the
 * cluster's, with the cluster's type mix. */
void hta_sim_setup_point(const hta_sim_setup *su, int load, double *rate,
                         double *rho);

/* Every run, k = 0 .. nloads * npols - 1 (load k / npols, policy
 * k % npols), on at most `threads` threads (hta_pool_run), each with
 * o.progress; res[k] and ran[k] for run k (ran 0: not started, the stop
 * flag was set), delays and percentiles in time units and throughput
 * per unit (per_unit slots), the default backlog bound shared by the
 * runs going at once (hta_sim_backlog_for); when trace is not NULL, the sample paths
 * as "load,policy,slot,number_in_system" lines (no header) in run order
 * up to the first run not done or cut (each run writes to a temporary
 * file of its own when runs go at once).  The first failed run's error,
 * in run order (a failed plug-in's run keeps what it had: hta_sim_run). */
hta_status hta_sim_batch(const hta_cluster *c, const hta_sim_setup *su,
                         int threads, FILE *trace, hta_sim_result *res,
                         int *ran, hta_diag *d);

#ifdef __cplusplus
}
#endif

#endif
