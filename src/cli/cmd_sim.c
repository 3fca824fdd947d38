/* hta sim: the online policies on a cluster, next to its capacity. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/capacity.h"
#include "hta/outfile.h"
#include "hta/sim.h"
#include "chart.h"
#include "cli.h"
#include "policylib.h"
#include "pool.h"
#include "report.h"

static const cli_opt options[] = {
    {"policy", 'p', OPT_ENUMS, 0, 0, 0, 1, 8,
     "jsq-maxweight|priority|gb-pandas|balanced-pandas|fcfs|fair|delay|"
     "plugin", 0,
     "P[,P...]", "policies (default: all that apply, then --policy-lib's;\n"
                 "balanced-pandas is gb-pandas; fair and delay need\n"
                 "--arrivals jobs; plugin: --policy-lib's, in its place)"},
    {"policy-lib", 0, OPT_IN, 0, 0, 0, 0, 0, NULL, 0, "FILE.so",
     "a policy of your own from a shared library exporting\n"
     "hta_policy_entry (hta-policy(7)); it runs after the\n"
     "built-ins, on the same sample path"},
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
     "run the loads A, A+STEP, ..., B (as --load; A + k STEP to\n"
     "the decimals of A and STEP)"},
    {"trace-file", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "CSV of the sample path: load,policy,slot,number_in_system\n"
     "(a file: the report is on standard output)"},
    {"plot", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE.svg",
     "picture of the mean task delay against the load, a line per\n"
     "policy, the 95% intervals as bands, runs still growing\n"
     "hollow, the capacity boundary rho* = 1 marked"},
    {"csv", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "the report as CSV, a row per load and policy (columns in\n"
     "hta-sim(1))"},
    {"trace-every", 0, OPT_INT, 1, 1e15, 0, 0, 0, NULL, 0, "K",
     "a trace line every K slots (default: slots / 1000)"},
    {"max-backlog", 0, OPT_INT, 1, 1e15, 0, 0, 0, NULL, 0, "N",
     "end a run as unstable when N tasks are in the system\n"
     "(default: a sixteenth of the memory, in tasks of 48 bytes,\n"
     "over the runs going at once)"},
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
    "job arrivals fair (naive fair sharing) and delay (delay scheduling),\n"
    "and a policy of your own (--policy-lib; hta-policy(7)).\n"
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
    HTA_SIM_DELAY,         -1 /* plugin */};

/* --policy-lib's policy and library (closed at the end) */
static const hta_policy *plugin;
static void *plugin_handle;

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
    fprintf(rep, "{\"servers\": %ld, \"types\": %lld, \"levels\": %d, \"load\": ",
           (long)c->M, (long long)c->T, c->levels);
    json_number(rep, o->load);
    fprintf(rep, ", \"rate\": ");
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

/* The request as the library takes it, and what only the command line
 * has: the trace file's path (checked against the inputs).  0, or the
 * exit code of a usage error. */
static int ask_of(const cli_args *a, hta_sim_ask *k, const char *outs[3])
{
    memset(k, 0, sizeof *k);
    k->warmup = -1;
    const cli_val *pv = cli_value(a, "policy");
    int placed = 0;
    for (int q = 0; pv->given && q < pv->n; q++) {
        int p = policy_of_choice[pv->items[q]];
        if (p < 0 && !cli_has(a, "policy-lib"))
            return cli_usage_error(a, "--policy plugin names --policy-lib's "
                                      "policy: give --policy-lib");
        placed |= p < 0;
        k->plugs[k->npols] = p < 0 ? plugin : NULL;
        k->pols[k->npols++] = p < 0 ? HTA_SIM_JSQ_MAXWEIGHT :
                                      (hta_sim_policy)p;
        k->pols_named_pandas |= pv->items[q] == 3; /* balanced-pandas */
    }
    if ((k->has_arrivals = cli_has(a, "arrivals")))
        k->arrivals = (hta_sim_arrivals)cli_value(a, "arrivals")->e;
    if ((k->has_service = cli_has(a, "service")))
        k->service = (hta_sim_service)cli_value(a, "service")->e;
    k->job_size = cli_has(a, "job-size") ? cli_str(a, "job-size") : NULL;
    k->jobs_trace = cli_has(a, "jobs-trace") ? cli_str(a, "jobs-trace") :
                                               NULL;
    k->time_scale = cli_has(a, "time-scale") ? cli_value(a, "time-scale")->x :
                                               0;
    k->block_mb = cli_has(a, "block-mb") ? cli_value(a, "block-mb")->x : 0;
    k->subqueues = cli_has(a, "subqueues");
    if (cli_has(a, "delay")) {
        const cli_val *dv = cli_value(a, "delay");
        k->ndelay = dv->n;
        for (int i = 0; i < dv->n && i < 2; i++)
            k->delay[i] = (int)dv->list[i];
    }
    k->slots = cli_has(a, "slots") ? cli_value(a, "slots")->i : 0;
    k->warmup = cli_has(a, "warmup") ? cli_value(a, "warmup")->i : -1;
    k->batches = cli_has(a, "batches") ? (int)cli_value(a, "batches")->i : 0;
    k->cv = cli_has(a, "cv") ? cli_value(a, "cv")->x : 0;
    k->per_unit = cli_has(a, "slots-per-unit") ?
                      cli_value(a, "slots-per-unit")->i : 0;
    if ((k->has_seed = cli_has(a, "seed")))
        k->seed = (uint64_t)cli_value(a, "seed")->i;
    k->max_backlog = cli_has(a, "max-backlog") ?
                         cli_value(a, "max-backlog")->i : 0;
    const char *tpath = cli_str(a, "trace-file");
    k->traced = tpath != NULL;
    k->trace_every = cli_has(a, "trace-every") ?
                         cli_value(a, "trace-every")->i : 0;
    k->stop = &cli_interrupted;
    int code = 0;
    hta_diag d;
    hta_diag_clear(&d);
    if (hta_sim_ask_check(k, &d) != HTA_OK) /* before the loads' rules */
        return cli_usage_error(a, "%s", d.msg);
    if (plugin && !pv->given) { /* every built-in that applies, then it */
        int jobs = k->has_arrivals && k->arrivals == HTA_ARR_JOBS;
        for (int p = 0; p < HTA_SIM_NPOLICIES; p++)
            if (jobs || (p != HTA_SIM_FAIR && p != HTA_SIM_DELAY))
                k->pols[k->npols++] = (hta_sim_policy)p;
    }
    if (plugin && !placed) {
        k->plugs[k->npols] = plugin;
        k->pols[k->npols++] = HTA_SIM_JSQ_MAXWEIGHT;
    }
    if (cli_has(a, "load") && cli_has(a, "sweep"))
        return cli_usage_error(a, "give --load or --sweep, not both");
    if (cli_has(a, "load"))
        k->loads[k->nloads++] = cli_value(a, "load")->x;
    if (cli_has(a, "sweep") && (code = cli_sweep(a, k->loads, &k->nloads)))
        return code;
    if (hta_sim_ask_check(k, &d) != HTA_OK)
        return cli_usage_error(a, "%s", d.msg);
    outs[0] = tpath;
    outs[1] = cli_str(a, "plot");
    outs[2] = cli_str(a, "csv");
    static const char *const what[] = {"trace-file", "plot", "csv"};
    if ((code = cli_files_only(a, what, outs, 3)) != 0)
        return code;
    const char *ins[4] = {a->pos[0], NULL, NULL, NULL};
    int nins = 1;
    if (cli_has(a, "policy-lib")) /* an input too */
        ins[nins++] = cli_str(a, "policy-lib");
    hta_dist js;
    char msg[300];
    if (k->job_size && hta_dist_parse(k->job_size, &js, msg, sizeof msg) == 0 &&
        js.kind == HTA_DIST_TABLE)
        ins[nins++] = js.path;
    if (k->jobs_trace)
        ins[nins++] = k->jobs_trace;
    return cli_check_outputs(a, outs, 3, ins, nins);
}

static void csv_head(FILE *f, const hta_cluster *c)
{
    fputs("load,rho,policy,delay,delay_ci,number,number_ci,throughput,"
          "utilisation", f);
    for (int n = 0; n < c->levels; n++)
        fprintf(f, ",level_%d", n + 1);
    fputs(",little_gap,verdict,job_delay,job_delay_ci,slots,cut\n", f);
}

static void csv_row(FILE *f, const hta_cluster *c, double load, double rho,
                    const char *name, const hta_sim_result *r)
{
    csv_number(f, load, 1);
    csv_number(f, rho, 0);
    fprintf(f, ",%s", name);
    csv_number(f, r->mean_delay, 0);
    csv_number(f, r->ci_delay, 0);
    csv_number(f, r->mean_n, 0);
    csv_number(f, r->ci_n, 0);
    csv_number(f, r->throughput, 0);
    csv_number(f, r->utilisation, 0);
    for (int n = 0; n < c->levels; n++)
        csv_number(f, r->level_frac[n], 0);
    csv_number(f, r->little_gap, 0);
    fprintf(f, ",%s", hta_sim_verdict_names[r->verdict]);
    csv_number(f, r->jobs_arrived ? r->mean_job_delay : NAN, 0);
    csv_number(f, r->jobs_arrived ? r->ci_job_delay : NAN, 0);
    fprintf(f, ",%lld,%d\n", (long long)r->slots, r->cut);
}

/* What the chart of a sweep shows, point by point. */
typedef struct sim_fig {
    double *x, *y, *ci;
    unsigned char *hollow;
    const char *names[HTA_SIM_NPOLICIES];
    double boundary; /* the load where rho* = 1 */
} sim_fig;

static void sim_fig_free(sim_fig *g)
{
    free(g->x);
    free(g->y);
    free(g->ci);
    free(g->hollow);
}

static hta_status sim_fig_write(cli_figout *fo, const sim_fig *g,
                                const char *path, const hta_sim_setup *su,
                                int npts, hta_diag *d)
{
    char title[256], sub[160];
    snprintf(title, sizeof title, "hta sim %s: mean task delay against the "
             "load", path);
    snprintf(sub, sizeof sub, "%lld slots, seed %llu, 95%% intervals from "
             "batch means", (long long)su->o.slots,
             (unsigned long long)su->o.seed);
    hta_chart ch = {title, sub, "load (--load: every arrival rate times X)",
                    su->o.per_unit > 1 ? "mean task delay (time units)" :
                                         "mean task delay (slots)",
                    su->npols, npts, g->names, NULL, g->x, g->y, g->ci,
                    g->hollow, "still growing or ended unstable",
                    g->boundary, "capacity boundary rho* = 1"};
    return cli_figout_commit(fo, &ch, d);
}

/* The runs on the pool, then the report in their order.  *interrupted
 * when a signal cut the runs short. */
static hta_status sim_runs(const cli_args *a, const hta_cluster *c,
                           hta_sim_setup *su, FILE *trace_out,
                           cli_figout *fo, int *interrupted, hta_diag *d)
{
    int json = cli_has(a, "json"), sweep = cli_has(a, "sweep");
    int npols = su->npols, n = su->nloads * npols;
    hta_sim_result *res = calloc((size_t)n, sizeof *res);
    int *ran = calloc((size_t)n, sizeof *ran);
    sim_fig g = {calloc((size_t)su->nloads, sizeof(double)),
                 malloc((size_t)n * sizeof(double)),
                 malloc((size_t)n * sizeof(double)), calloc((size_t)n, 1),
                 {0}, NAN};
    for (int k = 0; g.y && g.ci && k < n; k++)
        g.y[k] = g.ci[k] = NAN;
    for (int p = 0; g.x && p < su->nloads; p++) {
        double rho;
        hta_sim_setup_point(su, p, &g.x[p], &rho);
        if (rho > 0 && !isfinite(g.boundary))
            g.boundary = g.x[p] / rho;
    }
    hta_status st = HTA_OK;
    if (!res || !ran || !g.x || !g.y || !g.ci || !g.hollow)
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    su->o.progress = cli_pool_progress_fn(cli_has(a, "quiet"));
    su->o.progress_ctx = cli_pool_line_get();
    if (st == HTA_OK) {
        st = hta_sim_batch(c, su, cli_threads(a), trace_out, res, ran, d);
        cli_pool_line_end();
        cli_output_phase();
    }
    if (json && sweep && st == HTA_OK)
        fprintf(rep, "[");
    for (int k = 0; k < n && st == HTA_OK && !*interrupted; k++) {
        int q = k % npols;
        if (!ran[k]) {
            *interrupted = 1;
            break;
        }
        hta_sim_opts o;
        hta_sim_setup_run(su, k, &o);
        double rho;
        hta_sim_setup_point(su, k / npols, &o.load, &rho);
        if (q == 0) {
            if (json) {
                if (k)
                    fprintf(rep, ", ");
                json_head(c, &o, su->total, rho);
            } else {
                if (sweep)
                    fprintf(rep, "%s# load %g\n", k ? "\n" : "", o.load);
                print_head(a->pos[0], c, &o, su->total, rho);
            }
        }
        hta_sim_result *r = &res[k];
        if (cli_has(a, "no-timing"))
            r->seconds = 0;
        *interrupted = r->cut;
        const char *pname = hta_sim_opts_policy_name(&o);
        if (json)
            json_row(c, r, pname, q == 0);
        else
            print_row(c, r, pname);
        if (cli_figout_csv(fo))
            csv_row(cli_figout_csv(fo), c, o.load, rho, pname, r);
        int p = k / npols, at = q * su->nloads + p;
        g.names[q] = pname;
        g.y[at] = r->mean_delay;
        g.ci[at] = r->ci_delay;
        g.hollow[at] = r->verdict == HTA_SIM_GROWING ||
                       r->verdict == HTA_SIM_UNSTABLE;
        if (json && (q == npols - 1 || *interrupted))
            fprintf(rep, "], \"interrupted\": %s}",
                    *interrupted ? "true" : "false");
    }
    if (json && st == HTA_OK)
        fprintf(rep, "%s\n", sweep ? "]" : "");
    /* the chart of the runs reported (a point missing after an
       interruption) */
    if (st == HTA_OK)
        st = sim_fig_write(fo, &g, a->pos[0], su, su->nloads, d);
    sim_fig_free(&g);
    for (int k = 0; res && k < n; k++)
        hta_sim_result_free(&res[k]);
    free(res);
    free(ran);
    return st;
}

static int sim_main(const cli_args *a, hta_sim_ask *k, const char *outs[3]);

int cmd_sim(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    hta_sim_ask ask;
    const char *outs[3] = {NULL, NULL, NULL};
    if (cli_has(&args, "policy-lib") &&
        (code = cli_policy_lib(cli_str(&args, "policy-lib"), &plugin,
                               &plugin_handle)) != 0)
        return code;
    code = ask_of(&args, &ask, outs);
    if (code == 0)
        code = sim_main(&args, &ask, outs);
    if (plugin_handle)
        dlclose(plugin_handle);
    return code;
}

static int sim_main(const cli_args *a, hta_sim_ask *k, const char *outs[3])
{
    cli_args args = *a;
    hta_sim_ask ask = *k;
    const char *tpath;
    int code;
    tpath = outs[0];
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_cluster *c = NULL;
    hta_sim_setup su = {0};
    hta_status st = hta_cluster_parse(args.pos[0], &c, &d);
    if (st == HTA_OK)
        st = hta_sim_setup_make(&ask, c, &su, &d);
    if (st != HTA_OK) {
        code = st == HTA_ERR_USAGE ? cli_usage_error(&args, "%s", d.msg) :
                                     cli_report(st, &d);
        hta_sim_setup_free(&su);
        hta_cluster_free(c);
        return code;
    }
    hta_outfile out = {0};
    cli_figout fo = {0};
    if (tpath && (st = hta_outfile_open(&out, tpath, &d)) == HTA_OK)
        fprintf(out.f, "load,policy,slot,number_in_system\n");
    if (st == HTA_OK && (st = cli_figout_open(&fo, outs[1], outs[2], &d)) ==
                            HTA_OK && cli_figout_csv(&fo))
        csv_head(cli_figout_csv(&fo), c);
    cli_held held;
    if (st == HTA_OK)
        st = cli_hold(&held, &d);
    if (st != HTA_OK) {
        hta_outfile_abort(&out);
        cli_figout_abort(&fo);
        hta_sim_setup_free(&su);
        hta_cluster_free(c);
        return cli_report(st, &d);
    }
    rep = held.f;
    cli_poll_interrupts();
    int interrupted = 0;
    /* the trace file is committed with the chart and the CSV, as a set */
    fo.with = tpath ? &out : NULL;
    cli_foreign(plugin != NULL);
    st = sim_runs(&args, c, &su, tpath ? out.f : NULL, &fo, &interrupted, &d);
    cli_foreign(0);
    hta_outfile_abort(&out);
    cli_figout_abort(&fo);
    st = cli_release(&held, st, &d);
    hta_sim_setup_free(&su);
    hta_cluster_free(c);
    if (st != HTA_OK)
        return cli_report(st, &d);
    return cli_finish_stdout(interrupted ? cli_interrupt_code() : 0);
}
