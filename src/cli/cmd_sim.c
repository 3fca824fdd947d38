/* hta sim: the online policies on a cluster, next to its capacity. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/capacity.h"
#include "hta/outfile.h"
#include "hta/sim.h"
#include "cli.h"
#include "pool.h"
#include "report.h"

static const cli_opt options[] = {
    {"policy", 'p', OPT_ENUMS, 0, 0, 0, 1, 7,
     "jsq-maxweight|priority|gb-pandas|balanced-pandas|fcfs|fair|delay", 0,
     "P[,P...]", "policies (default: all that apply; balanced-pandas is\n"
                 "gb-pandas; fair and delay need --arrivals jobs)"},
    {"slots", 0, OPT_INT, 2, 1e15, 0, 0, 0, NULL, 0, "T",
     "slots to simulate (default 100000)"},
    {"warmup", 0, OPT_INT, 0, 1e15, 0, 0, 0, NULL, 0, "W",
     "slots before the statistics start (default T/10)"},
    {"batches", 0, OPT_INT, 2, 4096, 0, 0, 0, NULL, 0, "B",
     "batch means for the 95% intervals (default 30)"},
    {"load", 0, OPT_REAL, 0, 1e6, OPT_OPEN_LO, 0, 0, NULL, 0, "X",
     "multiply every arrival rate by X (default 1)"},
    {"arrivals", 0, OPT_ENUM, 0, 0, 0, 0, 0, "poisson|bernoulli|jobs", 0,
     "A", "tasks of type L per slot: Poisson(lambda_L) (default) or\n"
          "Bernoulli(lambda_L), lambda_L <= 1; jobs: Poisson jobs of\n"
          "--job-size tasks (or --jobs-trace), types drawn by lambda"},
    {"job-size", 0, OPT_DIST, 0, 0, 0, 0, 0, NULL, 0, "DIST",
     "tasks per job: fixed:V, uniform:LO:HI, exp:MEAN (geometric),\n"
     "pareto:SHAPE:MIN, table:FILE (an empirical table, rows\n"
     "'SIZE [WEIGHT]') (default fixed:10)"},
    {"jobs-trace", 0, OPT_IN, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "jobs of a SWIM trace: arrivals at the recorded times, one\n"
     "task per block of input (see --time-scale, --block-mb)"},
    {"time-scale", 0, OPT_REAL, 0, 1e9, OPT_OPEN_LO, 0, 0, NULL, 0, "S",
     "--jobs-trace: seconds per slot (default 1)"},
    {"block-mb", 0, OPT_REAL, 0, 1e9, OPT_OPEN_LO, 0, 0, NULL, 0, "B",
     "--jobs-trace: MiB of input per map task (default 64)"},
    {"subqueues", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "--arrivals jobs: every queue of jsq-maxweight, priority,\n"
     "gb-pandas and fcfs keeps a sub-queue per job, and a server\n"
     "serves the one of the job with the fewest running tasks\n"
     "(Wang et al.'s simulation)"},
    {"delay", 0, OPT_INTS, 0, 1000000000, 0, 1, 2, NULL, 0, "D1[,D2]",
     "delay scheduling: skips before rack-local tasks and then\n"
     "before remote ones (default M,M: a round of every server;\n"
     "two levels: D1 only)"},
    {"service", 0, OPT_ENUM, 0, 0, 0, 0, 0,
     "geometric|lognormal|exponential|deterministic", 0, "S",
     "service time at level n, mean 1/alpha_n: geometric slots\n"
     "(default), or a continuous time rounded to slots without\n"
     "bias (floor, plus one with probability the fraction)"},
    {"cv", 0, OPT_REAL, 0, 100, OPT_OPEN_LO, 0, 0, NULL, 0, "C",
     "log-normal: standard deviation / mean (default 1)"},
    {"slots-per-unit", 0, OPT_INT, 1, 1000000, 0, 0, 0, NULL, 0, "K",
     "rates are per time unit of K slots (default 1): arrivals\n"
     "lambda/K per slot, geometric alpha/K, K X slots (rounded\n"
     "without bias) for a continuous time X; delays in units"},
    {"seed", 0, OPT_INT, 0, CLI_INT64_MAX, 0, 0, 0, NULL, 0, "S",
     "random seed (default 1): the same arrivals and service times\n"
     "for every policy"},
    {"sweep", 0, OPT_REALS, 0, 1e6, OPT_OPEN_LO, 3, 3, NULL, 0, "A,B,STEP",
     "run the loads A, A+STEP, ..., B (as --load)"},
    {"trace-file", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "CSV of the sample path: load,policy,slot,number_in_system\n"
     "(a file: the report is on standard output)"},
    {"trace-every", 0, OPT_INT, 1, 1e15, 0, 0, 0, NULL, 0, "K",
     "a trace line every K slots (default: slots / 1000)"},
    {"max-backlog", 0, OPT_INT, 1, 1e15, 0, 0, 0, NULL, 0, "N",
     "end a run as unstable when N tasks are in the system\n"
     "(default: a sixteenth of the memory, in tasks of 48 bytes,\n"
     "over the number of processors)"},
    {"json", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL, "the report as JSON"},
    {"no-timing", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "report 0 seconds (reproducible output)"},
    CLI_OPT_THREADS,
    {"quiet", 'q', OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "no progress line on stderr (shown only on a terminal)"},
};

static const cli_spec spec = {
    "sim", "CLUSTER [options]",
    "Simulates the online map-task schedulers on a cluster file (the one\n"
    "hta capacity reads), slot by slot, with common random numbers:\n"
    "jsq-maxweight (Wang et al.), priority (JSQ-Priority, Pandas),\n"
    "gb-pandas (Balanced-Pandas, GB-PANDAS), fcfs (Hadoop FIFO), and with\n"
    "job arrivals fair (naive fair sharing) and delay (delay scheduling).\n"
    "Prints rho* of the load (hta capacity), then per policy the mean task\n"
    "delay (queueing + service, in slots) and number in system with 95%\n"
    "intervals from batch means, the throughput, the utilisation, the\n"
    "share of tasks served at each locality level, Little's law's gap and\n"
    "a stability verdict (the number in system still growing over the\n"
    "second half: a t-test on the slope of the batch means).\n",
    options, (int)(sizeof options / sizeof options[0]), 1, 1, NULL};

/* The report, kept in memory until the run ends well: an error prints
 * nothing on standard output. */
static FILE *rep;

static const int policy_of_choice[] = {
    HTA_SIM_JSQ_MAXWEIGHT, HTA_SIM_PRIORITY, HTA_SIM_GB_PANDAS,
    HTA_SIM_GB_PANDAS,     HTA_SIM_FCFS,     HTA_SIM_FAIR,
    HTA_SIM_DELAY};

static void print_row(const hta_cluster *c, const hta_sim_result *r,
                      const char *name)
{
    fprintf(rep, "%-14s %9.3f +- %-7.3f %10.3f +- %-8.3f %10.4f %6.4f ", name,
           r->mean_delay, r->ci_delay, r->mean_n, r->ci_n, r->throughput,
           r->utilisation);
    for (int n = 0; n < c->levels; n++)
        fprintf(rep, "%s%.3f", n ? "/" : "", r->level_frac[n]);
    fprintf(rep, " %8.1e %s", r->little_gap, hta_sim_verdict_names[r->verdict]);
    if (r->verdict == HTA_SIM_UNSTABLE)
        fprintf(rep, " (%lld tasks in system at slot %lld: --max-backlog)",
                (long long)r->in_system, (long long)r->backlog_slot);
    fprintf(rep, "%s\n", r->cut ? " (cut short)" : "");
    if (r->jobs_arrived) {
        fprintf(rep, "%-14s job delay %.3f +- %.3f, %lld of %lld jobs done; "
               "median/95th/99th by size:",
               "", r->mean_job_delay, r->ci_job_delay,
               (long long)r->jobs_done, (long long)r->jobs_arrived);
        for (int cl = 0; cl < HTA_SIM_CLASSES; cl++)
            if (r->class_jobs[cl])
                fprintf(rep, " %s tasks (%lld) %.3g/%.3g/%.3g;",
                       hta_sim_class_names[cl],
                       (long long)r->class_jobs[cl], r->class_pct[cl][0],
                       r->class_pct[cl][1], r->class_pct[cl][2]);
        fputc('\n', rep);
    }
}

static void json_row(const hta_cluster *c, const hta_sim_result *r,
                     const char *name, int first)
{
    fprintf(rep, "%s{\"policy\": \"%s\", \"slots\": %lld, \"cut\": %s, "
           "\"arrived\": %lld, \"departed\": %lld, \"in_system\": %lld",
           first ? "" : ", ", name, (long long)r->slots,
           r->cut ? "true" : "false", (long long)r->arrived,
           (long long)r->departed, (long long)r->in_system);
    json_field(rep, "delay", r->mean_delay);
    json_field(rep, "delay_ci", r->ci_delay);
    json_field(rep, "number", r->mean_n);
    json_field(rep, "number_ci", r->ci_n);
    json_field(rep, "throughput", r->throughput);
    json_field(rep, "utilisation", r->utilisation);
    fprintf(rep, ", \"levels\": [");
    for (int n = 0; n < c->levels; n++) {
        fprintf(rep, "%s", n ? ", " : "");
        json_number(rep, r->level_frac[n]);
    }
    fputc(']', rep);
    json_field(rep, "little_gap", r->little_gap);
    json_field(rep, "slope", r->slope);
    json_field(rep, "slope_t", r->slope_t);
    fprintf(rep, ", \"jobs\": %lld, \"jobs_done\": %lld",
           (long long)r->jobs_arrived, (long long)r->jobs_done);
    json_field(rep, "job_delay", r->jobs_arrived ? r->mean_job_delay : NAN);
    json_field(rep, "job_delay_ci", r->jobs_arrived ? r->ci_job_delay : NAN);
    fprintf(rep, ", \"job_classes\": [");
    for (int cl = 0, lead = 1; cl < HTA_SIM_CLASSES; cl++) {
        if (!r->class_jobs[cl])
            continue;
        fprintf(rep, "%s{\"size\": \"%s\", \"jobs\": %lld",
               lead ? "" : ", ", hta_sim_class_names[cl],
               (long long)r->class_jobs[cl]);
        json_field(rep, "p50", r->class_pct[cl][0]);
        json_field(rep, "p95", r->class_pct[cl][1]);
        json_field(rep, "p99", r->class_pct[cl][2]);
        fputc('}', rep);
        lead = 0;
    }
    fputc(']', rep);
    fprintf(rep, ", \"verdict\": \"%s\", \"stable\": %s",
            hta_sim_verdict_names[r->verdict],
            r->verdict == HTA_SIM_STABLE    ? "true" :
            r->verdict == HTA_SIM_UNDECIDED ? "null" :
                                              "false");
    json_field(rep, "backlog_slot", r->verdict == HTA_SIM_UNSTABLE ?
                                        (double)r->backlog_slot : NAN);
    json_field(rep, "seconds", r->seconds);
    fputc('}', rep);
}

typedef struct tracer {
    FILE *f;
    double load;
    const char *policy;
} tracer;

static void trace_line(void *ctx, int64_t slot, int64_t n)
{
    tracer *t = ctx;
    fprintf(t->f, "%g,%s,%lld,%lld\n", t->load, t->policy, (long long)slot,
            (long long)n);
}

static const char *const arr_names[] = {"poisson", "bernoulli", "jobs"};
static const char *const svc_names[] = {"geometric", "lognormal",
                                        "exponential", "deterministic"};

static void print_head(const char *name, const hta_cluster *c,
                       const hta_sim_opts *o, double total, double rho)
{
    fprintf(rep, "cluster %s: %ld servers, %lld types, %d levels, %.6g tasks "
           "per %s; rho* %.6g (%s)\n",
           name, (long)c->M, (long long)c->T, c->levels, total * o->load,
           o->per_unit > 1 ? "time unit" : "slot", rho,
           rho < 1 - 1e-7 ? "inside" :
           rho <= 1 + 1e-7 ? "boundary" :
                             "outside");
    fprintf(rep, "%lld slots (warm-up %lld, %d batch means, 95%% intervals), "
           "%s arrivals, %s service",
           (long long)o->slots, (long long)o->warmup, o->batches,
           arr_names[o->arrivals], svc_names[o->service]);
    if (o->service == HTA_SVC_LOGNORMAL)
        fprintf(rep, " (cv %g)", o->cv);
    if (o->subqueues)
        fprintf(rep, ", per-job sub-queues");
    fprintf(rep, ", seed %llu", (unsigned long long)o->seed);
    if (o->per_unit > 1)
        fprintf(rep, ", %g slots per time unit", o->per_unit);
    fprintf(rep, "\n%-14s %20s %23s %10s %6s %s %8s %s\n", "policy",
           o->per_unit > 1 ? "delay (units)" : "delay (slots)",
           "number in system", "throughput", "util", "levels", "little",
           "verdict");
}

static void json_head(const hta_cluster *c, const hta_sim_opts *o,
                      double total, double rho)
{
    fprintf(rep, "{\"servers\": %ld, \"types\": %lld, \"levels\": %d, \"rate\": ",
           (long)c->M, (long long)c->T, c->levels);
    json_number(rep, total * o->load);
    fprintf(rep, ", \"rho\": ");
    json_number(rep, rho);
    fprintf(rep, ", \"slots\": %lld, \"warmup\": %lld, \"batches\": %d, "
           "\"slots_per_unit\": %g, \"arrivals\": \"%s\", \"service\": "
           "\"%s\", \"subqueues\": %s, \"seed\": %llu, \"policies\": [",
           (long long)o->slots, (long long)o->warmup, o->batches,
           o->per_unit, arr_names[o->arrivals], svc_names[o->service],
           o->subqueues ? "true" : "false", (unsigned long long)o->seed);
}

/* The policies of --policy (or every one that applies), into pols. */
static int sim_policies(const cli_args *ap, int *pols, int *npols)
{
    const cli_args args = *ap;
    int jobs = cli_has(&args, "arrivals") &&
               cli_value(&args, "arrivals")->e == HTA_ARR_JOBS;
    *npols = 0;
    const cli_val *pv = cli_value(&args, "policy");
    if (pv->given) {
        for (int q = 0; q < pv->n; q++) {
            int p = policy_of_choice[pv->items[q]];
            for (int k = 0; k < *npols; k++)
                if (pols[k] == p)
                    return cli_usage_error(&args, "--policy names "
                                                  "gb-pandas twice (its "
                                                  "other name is "
                                                  "balanced-pandas)");
            if ((p == HTA_SIM_FAIR || p == HTA_SIM_DELAY) && !jobs)
                return cli_usage_error(&args, "%s schedules jobs: it needs "
                                              "--arrivals jobs",
                                       hta_sim_policy_names[p]);
            pols[(*npols)++] = p;
        }
    } else {
        for (int p = 0; p < HTA_SIM_NPOLICIES; p++)
            if (jobs || (p != HTA_SIM_FAIR && p != HTA_SIM_DELAY))
                pols[(*npols)++] = p;
    }
    return 0;
}

/* The options that apply to some modes only. */
static int sim_modes(const cli_args *ap, const int *pols, int npols)
{
    const cli_args args = *ap;
    int jobs = cli_has(&args, "arrivals") &&
               cli_value(&args, "arrivals")->e == HTA_ARR_JOBS;
    if (!jobs && (cli_has(&args, "job-size") || cli_has(&args, "jobs-trace")))
        return cli_usage_error(&args, "--job-size and --jobs-trace apply "
                                      "to --arrivals jobs only");
    if (!jobs && cli_has(&args, "subqueues"))
        return cli_usage_error(&args, "--subqueues applies to --arrivals "
                                      "jobs only");
    if (cli_has(&args, "job-size") && cli_has(&args, "jobs-trace"))
        return cli_usage_error(&args, "give --job-size or --jobs-trace, "
                                      "not both");
    if (cli_has(&args, "jobs-trace") &&
        (cli_has(&args, "load") || cli_has(&args, "sweep")))
        return cli_usage_error(&args, "--load and --sweep do not apply to "
                                      "--jobs-trace (its times set the "
                                      "rate; see --time-scale)");
    if (!cli_has(&args, "jobs-trace") &&
        (cli_has(&args, "time-scale") || cli_has(&args, "block-mb")))
        return cli_usage_error(&args, "--time-scale and --block-mb apply "
                                      "to --jobs-trace only");
    if (cli_has(&args, "subqueues")) {
        int queued = 0; /* fair and delay keep no queues to split */
        for (int q = 0; q < npols; q++)
            queued |= pols[q] != HTA_SIM_FAIR && pols[q] != HTA_SIM_DELAY;
        if (!queued)
            return cli_usage_error(&args, "--subqueues applies to "
                                          "jsq-maxweight, priority, gb-pandas "
                                          "and fcfs only");
    }
    int want_delay = 0;
    for (int q = 0; q < npols; q++)
        want_delay |= pols[q] == HTA_SIM_DELAY;
    if (cli_has(&args, "delay") && !want_delay)
        return cli_usage_error(&args, "--delay applies to the delay policy "
                                      "only");
    return 0;
}

/* The run's options from the command line; the loads into loads. */
static int sim_opts(const cli_args *ap, hta_sim_opts *op, double *loads,
                    int *nloads, const char **tpathp)
{
    const cli_args args = *ap;
    int code = 0;
    hta_sim_opts o;
    hta_sim_opts_default(&o);
    o.stop = &cli_interrupted;
    if (cli_has(&args, "slots-per-unit"))
        o.per_unit = (double)cli_value(&args, "slots-per-unit")->i;
    if (cli_has(&args, "slots"))
        o.slots = cli_value(&args, "slots")->i;
    o.warmup = cli_has(&args, "warmup") ? cli_value(&args, "warmup")->i :
                                          o.slots / 10;
    if (cli_has(&args, "batches"))
        o.batches = (int)cli_value(&args, "batches")->i;
    if (o.warmup >= o.slots || o.slots - o.warmup < o.batches)
        return cli_usage_error(&args, "--slots must exceed --warmup by at "
                                      "least --batches (%d), found %lld "
                                      "and %lld",
                               o.batches, (long long)o.slots,
                               (long long)o.warmup);
    if (cli_has(&args, "load") && cli_has(&args, "sweep"))
        return cli_usage_error(&args, "give --load or --sweep, not both");
    *nloads = 1;
    loads[0] = cli_has(&args, "load") ? cli_value(&args, "load")->x : 1;
    if (cli_has(&args, "sweep") && (code = cli_sweep(&args, loads, nloads)))
        return code;
    if (cli_has(&args, "arrivals"))
        o.arrivals = (hta_sim_arrivals)cli_value(&args, "arrivals")->e;
    if (cli_has(&args, "service"))
        o.service = (hta_sim_service)cli_value(&args, "service")->e;
    if (cli_has(&args, "cv")) {
        if (o.service != HTA_SVC_LOGNORMAL)
            return cli_usage_error(&args, "--cv applies to --service "
                                          "lognormal only");
        o.cv = cli_value(&args, "cv")->x;
    }
    o.subqueues = cli_has(&args, "subqueues");
    if (cli_has(&args, "seed"))
        o.seed = (uint64_t)cli_value(&args, "seed")->i;
    if (cli_has(&args, "job-size")) {
        char msg[300];
        hta_dist_parse(cli_str(&args, "job-size"), &o.job_size, msg,
                       sizeof msg); /* checked by cli_parse */
    }
    if (cli_has(&args, "delay")) {
        const cli_val *dv = cli_value(&args, "delay");
        o.delay[0] = (int)dv->list[0];
        o.delay[1] = dv->n > 1 ? (int)dv->list[1] : 0;
    }
    if (cli_has(&args, "max-backlog"))
        o.max_backlog = cli_value(&args, "max-backlog")->i;
    const char *tpath = cli_str(&args, "trace-file");
    if (tpath && strcmp(tpath, "-") == 0)
        return cli_usage_error(&args, "--trace-file - would mix the trace "
                                      "with the report on standard output: "
                                      "name a file");
    if (cli_has(&args, "trace-every") && !tpath)
        return cli_usage_error(&args, "--trace-every applies with "
                                      "--trace-file only");
    o.trace_every = cli_has(&args, "trace-every") ?
                        cli_value(&args, "trace-every")->i :
                        (o.slots >= 1000 ? o.slots / 1000 : 1);
    const char *ins[3] = {args.pos[0], NULL, NULL};
    int nins = 1;
    if (o.job_size.kind == HTA_DIST_TABLE)
        ins[nins++] = o.job_size.path;
    if (cli_has(&args, "jobs-trace"))
        ins[nins++] = cli_str(&args, "jobs-trace");
    if ((code = cli_check_outputs(&args, &tpath, 1, ins, nins)) != 0)
        return code;
    *op = o;
    *tpathp = tpath;
    return 0;
}

/* One run of the pool: a load and a policy. */
typedef struct sim_job {
    hta_sim_opts o;
    tracer tr;
    hta_sim_result r;
    hta_status st;
    hta_diag d;
    int ran;
} sim_job;

typedef struct sim_pool {
    const hta_cluster *c;
    sim_job *jobs;
} sim_pool;

static void sim_job_run(void *ctx, int k)
{
    sim_pool *p = ctx;
    sim_job *j = &p->jobs[k];
    hta_diag_clear(&j->d);
    j->st = hta_sim_run(p->c, &j->o, &j->r, &j->d);
    j->ran = 1;
}

/* The runs (every load, every policy) on the pool, then the report in
 * their order; the trace, written by each run to a file of its own when
 * runs go at once, copied in that order.  *interrupted when a signal
 * cut the runs short. */
static hta_status sim_runs(const cli_args *a, const hta_cluster *c,
                           const hta_sim_opts *o0, const int *pols,
                           int npols, const double *loads, int nloads,
                           double total, double rho1, FILE *trace_out,
                           int *interrupted, hta_diag *d)
{
    int json = cli_has(a, "json"), sweep = cli_has(a, "sweep");
    int threads = cli_threads(a), n = nloads * npols;
    sim_job *jobs = calloc((size_t)n, sizeof *jobs);
    if (!jobs)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    hta_status st = HTA_OK;
    for (int k = 0; k < n && st == HTA_OK; k++) {
        sim_job *j = &jobs[k];
        j->o = *o0;
        j->o.load = loads[k / npols];
        j->o.policy = (hta_sim_policy)pols[k % npols];
        j->o.progress = cli_pool_progress_fn(cli_has(a, "quiet"));
        j->o.progress_ctx = cli_pool_line_get();
        if (!trace_out)
            continue;
        j->tr = (tracer){trace_out, j->o.load,
                         hta_sim_policy_names[j->o.policy]};
        if (threads > 1 && n > 1 && !(j->tr.f = tmpfile()))
            st = hta_diag_set(d, HTA_ERR_IO, NULL, 0,
                              "cannot make a temporary file for the "
                              "trace: %s", strerror(errno));
        j->o.trace = trace_line;
        j->o.trace_ctx = &j->tr;
    }
    if (st == HTA_OK) {
        sim_pool pool = {c, jobs};
        hta_pool_run(threads, n, sim_job_run, &pool, &cli_interrupted);
        cli_pool_line_end();
    }
    if (json && sweep)
        fprintf(rep, "[");
    for (int k = 0; k < n && st == HTA_OK && !*interrupted; k++) {
        sim_job *j = &jobs[k];
        hta_sim_opts o = j->o;
        int q = k % npols;
        if (!j->ran || j->st != HTA_OK) {
            if (j->ran)
                *d = j->d;
            st = j->ran ? j->st : st;
            *interrupted = !j->ran;
            break;
        }
        if (q == 0) {
            double rho = rho1 * o.load;
            const hta_jobs *tj = o.trace_jobs;
            if (tj) { /* the trace's own rate, the cluster's type mix */
                double span = (double)(tj->arrival[tj->n - 1] -
                                       tj->arrival[0] + 1);
                double tasks = 0;
                for (int64_t i = 0; i < tj->n; i++)
                    tasks += (double)tj->map[i];
                double rate = tasks / span * o.per_unit;
                rho = total > 0 ? rho1 * rate / total : 0;
                o.load = total > 0 ? rate / total : 1; /* for the report */
            }
            if (json) {
                if (k)
                    fprintf(rep, ", ");
                json_head(c, &o, total, rho);
            } else {
                if (sweep)
                    fprintf(rep, "%s# load %g\n", k ? "\n" : "", o.load);
                print_head(a->pos[0], c, &o, total, rho);
            }
        }
        hta_sim_result *r = &j->r;
        if (cli_has(a, "no-timing"))
            r->seconds = 0;
        /* delays in time units, throughput per unit */
        r->mean_delay /= o.per_unit;
        r->ci_delay /= o.per_unit;
        r->mean_job_delay /= o.per_unit;
        r->ci_job_delay /= o.per_unit;
        for (int cl = 0; cl < HTA_SIM_CLASSES; cl++)
            for (int i = 0; i < 3; i++)
                r->class_pct[cl][i] /= o.per_unit;
        r->throughput *= o.per_unit;
        *interrupted = r->cut;
        if (json)
            json_row(c, r, hta_sim_policy_names[o.policy], q == 0);
        else
            print_row(c, r, hta_sim_policy_names[o.policy]);
        if (json && (q == npols - 1 || *interrupted))
            fprintf(rep, "], \"interrupted\": %s}",
                    *interrupted ? "true" : "false");
        /* the run's trace, in order */
        if (j->tr.f && j->tr.f != trace_out) {
            char buf[65536];
            size_t got;
            rewind(j->tr.f);
            while ((got = fread(buf, 1, sizeof buf, j->tr.f)) > 0)
                fwrite(buf, 1, got, trace_out);
            if (ferror(j->tr.f))
                st = hta_diag_set(d, HTA_ERR_IO, NULL, 0,
                                  "cannot read back the trace: %s",
                                  strerror(errno));
        }
    }
    if (json && st == HTA_OK)
        fprintf(rep, "%s\n", sweep ? "]" : "");
    for (int k = 0; k < n; k++) {
        if (jobs[k].tr.f && jobs[k].tr.f != trace_out)
            fclose(jobs[k].tr.f);
        hta_sim_result_free(&jobs[k].r);
    }
    free(jobs);
    return st;
}

int cmd_sim(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    int pols[HTA_SIM_NPOLICIES], npols = 0;
    if ((code = sim_policies(&args, pols, &npols)) != 0 ||
        (code = sim_modes(&args, pols, npols)) != 0)
        return code;
    hta_sim_opts o;
    double loads[CLI_MAX_SWEEP];
    int nloads = 1;
    const char *tpath = NULL;
    if ((code = sim_opts(&args, &o, loads, &nloads, &tpath)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_cluster *c = NULL;
    hta_status st = hta_dist_load(&o.job_size, &d);
    if (st != HTA_OK)
        return cli_report(st, &d);
    st = hta_cluster_parse(args.pos[0], &c, &d);
    if (st != HTA_OK) {
        hta_dist_free(&o.job_size);
        return cli_report(st, &d);
    }
    double total = 0, top = 0, maxload = 0;
    for (int k = 0; k < nloads; k++)
        if (loads[k] > maxload)
            maxload = loads[k];
    for (int64_t L = 0; L < c->T; L++) {
        total += c->lambda[L];
        if (c->lambda[L] > top)
            top = c->lambda[L];
    }
    if (o.arrivals == HTA_ARR_BERNOULLI && top * maxload > o.per_unit) {
        hta_cluster_free(c);
        hta_dist_free(&o.job_size);
        return cli_usage_error(&args, "Bernoulli arrivals need every "
                                      "lambda_L * load / K <= 1, found %g",
                               top * maxload / o.per_unit);
    }
    hta_jobs *trace = NULL;
    if (cli_has(&args, "jobs-trace")) {
        const double mib = 1048576.0;
        hta_swim_opts so = {64 * mib, 1, 1024 * mib};
        if (cli_has(&args, "block-mb"))
            so.block_bytes = cli_value(&args, "block-mb")->x * mib;
        if (cli_has(&args, "time-scale"))
            so.slot_seconds = cli_value(&args, "time-scale")->x;
        st = hta_jobs_from_swim(cli_str(&args, "jobs-trace"), &so, &trace,
                                &d);
        if (st != HTA_OK) {
            hta_cluster_free(c);
            hta_dist_free(&o.job_size);
            return cli_report(st, &d);
        }
        o.trace_jobs = trace;
    }
    for (int n = 0; n < c->levels; n++)
        if (c->rate[n] > o.per_unit) {
            int rc = cli_usage_error(
                &args, "the service rate %g of level %d is %g tasks a "
                       "slot, above 1 (a server ends at most one a slot): "
                       "give --slots-per-unit %.0f or more (rates per time "
                       "unit of K slots)",
                c->rate[n], n + 1, c->rate[n] / o.per_unit, ceil(c->rate[n]));
            hta_cluster_free(c);
            hta_jobs_free(trace);
            hta_dist_free(&o.job_size);
            return rc;
        }
    double lam = 0, most = 0; /* tasks a slot at the largest load */
    for (int64_t L = 0; L < c->T; L++)
        lam += c->lambda[L];
    for (int k = 0; k < nloads; k++)
        if (lam * loads[k] / o.per_unit > most)
            most = lam * loads[k] / o.per_unit;
    if (!trace && !(most <= HTA_SIM_MAX_ARRIVALS)) {
        int rc = cli_usage_error(&args, "the arrivals are %g tasks a slot, "
                                        "above 10^9 (a slot's draws are "
                                        "64-bit counts): a smaller --load "
                                        "or arrival rates",
                                 most);
        hta_cluster_free(c);
        hta_dist_free(&o.job_size);
        return rc;
    }
    for (int i = 0; i < 2; i++) /* default: one skip per server */
        if (o.delay[i] < 0)
            o.delay[i] = c->M;
    hta_capacity_opts co = {HTA_CAP_AUTO, 0, 0, 0, NULL, NULL, NULL};
    hta_capacity_result cap = {0};
    st = hta_capacity_solve(c, &co, &cap, &d);
    double rho1 = cap.rho;
    hta_capacity_result_free(&cap);
    hta_outfile out = {0};
    if (st == HTA_OK && tpath &&
        (st = hta_outfile_open(&out, tpath, &d)) == HTA_OK)
        fprintf(out.f, "load,policy,slot,number_in_system\n");
    cli_held held;
    if (st == HTA_OK && (st = cli_hold(&held, &d)) != HTA_OK) {
        hta_outfile_abort(&out);
        hta_cluster_free(c);
        hta_jobs_free(trace);
        hta_dist_free(&o.job_size);
        return cli_report(st, &d);
    }
    if (st != HTA_OK) {
        hta_cluster_free(c);
        hta_jobs_free(trace);
        hta_dist_free(&o.job_size);
        hta_outfile_abort(&out);
        return cli_report(st, &d);
    }
    rep = held.f;
    cli_poll_interrupts();
    int interrupted = 0;
    st = sim_runs(&args, c, &o, pols, npols, loads, nloads, total, rho1,
                  tpath ? out.f : NULL, &interrupted, &d);
    if (st == HTA_OK && tpath)
        st = hta_outfile_commit(&out, &d);
    hta_outfile_abort(&out);
    st = cli_release(&held, st, &d);
    hta_cluster_free(c);
    hta_jobs_free(trace);
    hta_dist_free(&o.job_size);
    if (st != HTA_OK)
        return cli_report(st, &d);
    return cli_finish_stdout(interrupted ? cli_interrupt_code() : 0);
}
