/* hta reduce-place: ReduceTask placement for sequential jobs (Tan et al.,
 * INFOCOM 2013), every policy on one sample path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/rplace.h"
#include "cli.h"
#include "pool.h"
#include "report.h"

static const cli_opt options[] = {
    {"policy", 'p', OPT_ENUMS, 0, 0, 0, 1, HTA_RP_NPOLICIES,
     "random|greedy|threshold|rhc|rhc-adaptive|optimal", 0, "P[,P...]",
     "policies (default: all but optimal; the savings need random and\n"
     "greedy; optimal: the decision process' optimum, solved first, for\n"
     "at most 30 slots, synthetic jobs of bounded X)"},
    {"lambda", 0, OPT_REAL, 0, 1, OPT_OPEN_LO | OPT_OPEN_HI, 0, 0, NULL, 0, "X",
     "job arrival rate, below the service rate mu = 1 (default 0.4)"},
    {"sweep", 0, OPT_REALS, 0, 1, OPT_OPEN_LO, 3, 3, NULL, 0, "A,B,STEP",
     "run the rates A, A+STEP, ..., B (as --lambda)"},
    {"k-limit", 'K', OPT_INT, 1, 1000000, 0, 0, 0, NULL, 0, "K",
     "at most K jobs hold slots (K-limited processor sharing;\n"
     "K * the largest R <= slots) (default 10)"},
    {"slots", 0, OPT_INT, 1, 100000000, 0, 0, 0, NULL, 0, "N",
     "without a SLOTS file: N slots of i.i.d. costs (default 1000)"},
    {"costs", 0, OPT_REALS, 0, HTA_RP_MAX_COST, 0, 2, 2, NULL, 0, "LO,HI",
     "without a SLOTS file: costs uniform on [LO, HI] (default 1,100)"},
    {"jobs", 0, OPT_INT, 1, 1e12, 0, 0, 0, NULL, 0, "N",
     "jobs to simulate (default 50000)"},
    {"warmup", 0, OPT_INT, 0, 1e12, 0, 0, 0, NULL, 0, "W",
     "jobs before the statistics start (default: a tenth)"},
    {"batches", 0, OPT_INT, 2, 4096, 0, 0, 0, NULL, 0, "B",
     "batch means for the 95% intervals (default 30)"},
    {"reducers", 0, OPT_DIST, 0, 0, 0, 0, 0, NULL, 0, "DIST",
     "ReduceTasks per job R: fixed:V, uniform:LO:HI or table:FILE\n"
     "(bounded) (default uniform:1:10)"},
    {"data", 0, OPT_DIST, 0, 0, 0, 0, 0, NULL, 0, "DIST",
     "intermediate data per job X: fixed:V, uniform:LO:HI, exp:MEAN,\n"
     "pareto:SHAPE:MIN, table:FILE (default uniform:1:100)"},
    {"window", 0, OPT_INT, 1, 100000000, 0, 0, 0, NULL, 0, "W",
     "rhc-adaptive: estimate from the last W jobs (default 100)"},
    {"jobs-trace", 0, OPT_IN, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "the jobs of a SWIM trace with shuffle data (X = shuffle GiB)\n"
     "at their recorded times, scaled to the rate --lambda"},
    {"reducer-mb", 0, OPT_REAL, 0, 1e12, OPT_OPEN_LO, 0, 0, NULL, 0, "MB",
     "--jobs-trace: R = ceil(shuffle / MB MiB), at most slots / K\n"
     "(default 1024)"},
    {"seed", 0, OPT_INT, 0, CLI_INT64_MAX, 0, 0, 0, NULL, 0, "S",
     "random seed (default 1): one sample path for every policy"},
    {"json", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL, "the report as JSON"},
    {"no-timing", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "report 0 seconds (reproducible output)"},
    CLI_OPT_THREADS,
};

static const cli_spec spec = {
    "reduce-place", "[SLOTS] [options]",
    "Places the ReduceTasks of arriving jobs on reduce slots of different\n"
    "fetching costs (Tan, Meng, Zhang, INFOCOM 2013): random (Hadoop),\n"
    "greedy (the cheapest free slots), threshold (the optimal policy of\n"
    "the K-job infinite-service case), rhc (receding horizon, p = rho /\n"
    "(1 + rho)), rhc-adaptive (p = N / (2N + 1) from the last W jobs)\n"
    "and, on request, optimal (the least cost with arrivals and\n"
    "departures: a Markov decision process solved before the run, for\n"
    "at most 30 slots).\n"
    "Jobs arrive as a Poisson process, hold their slots through an\n"
    "exponential K-limited processor-sharing service (mu = 1) and pay\n"
    "X / R times the costs of their slots.  SLOTS is an hta-slots file (a\n"
    "topology: H(v) = the hops from v to every node; or costs); without\n"
    "it the costs are drawn i.i.d.  Prints per policy the mean cost per\n"
    "job and the savings against random and greedy with 95% intervals\n"
    "(batch means, paired on one sample path) and the mean number of jobs\n"
    "in the system.\n",
    options, (int)(sizeof options / sizeof options[0]), 0, 1, NULL};

static void print_head(const char *src, const hta_slots *s,
                       const hta_rp_opts *o, const char *jobs_desc,
                       const hta_rp_result *r)
{
    printf("slots: %lld (%s), cost %.6g .. %.6g, mean %.6g\n",
           (long long)s->r, src, s->rcost[0], s->rcost[s->nrun - 1],
           hta_slots_mean_cost(s));
    printf("jobs: %s, lambda %g, mu 1, K %d, %lld jobs (warm-up %lld, %d "
           "batch means, 95%% intervals), seed %llu\n",
           jobs_desc, o->lambda, o->K, (long long)r->jobs,
           (long long)o->warmup, o->batches, (unsigned long long)o->seed);
    printf("jobs in system %.4f +- %.4f", r->mean_n, r->ci_n);
    if (!o->trace_n) /* Poisson arrivals: the number in system is M/M/1 */
        printf(" (M/M/1: %.4f)", o->lambda / (1 - o->lambda));
    printf(", time in system %.4f, Little's law gap %.1e, %.1f%% waited "
           "for slots%s\n",
           r->mean_t, r->little_gap, 100 * r->waited,
           r->cut ? " (cut short)" : "");
    printf("%-13s %24s %20s %20s %10s\n", "policy", "cost per job",
           "saving vs random %", "saving vs greedy %", "mean rank");
}

static void pct(double v, double ci)
{
    if (isnan(v))
        printf(" %20s", "-");
    else
        printf(" %10.2f +- %-6.2f", v, ci);
}

static void print_row(const hta_rp_row *w, const char *name)
{
    printf("%-13s %12.4g +- %-9.3g", name, w->mean, w->ci);
    pct(w->vs_random, w->vs_random_ci);
    pct(w->vs_greedy, w->vs_greedy_ci);
    printf(" %10.2f\n", w->mean_pos);
}

static void json_run(const hta_slots *s, const hta_rp_opts *o,
                     const hta_rp_result *r)
{
    printf("{\"slots\": %lld", (long long)s->r);
    json_field(stdout, "cost_min", s->rcost[0]);
    json_field(stdout, "cost_max", s->rcost[s->nrun - 1]);
    json_field(stdout, "cost_mean", hta_slots_mean_cost(s));
    json_field(stdout, "lambda", o->lambda);
    printf(", \"k_limit\": %d, \"jobs\": %lld, \"warmup\": %lld, "
           "\"batches\": %d, \"seed\": %llu",
           o->K, (long long)r->jobs, (long long)o->warmup, o->batches,
           (unsigned long long)o->seed);
    json_field(stdout, "number", r->mean_n);
    json_field(stdout, "number_ci", r->ci_n);
    json_field(stdout, "time_in_system", r->mean_t);
    json_field(stdout, "little_gap", r->little_gap);
    json_field(stdout, "waited", r->waited);
    printf(", \"policies\": [");
    for (int p = 0, first = 1; p < HTA_RP_NPOLICIES; p++) {
        const hta_rp_row *w = &r->row[p];
        if (!w->run)
            continue;
        printf("%s{\"policy\": \"%s\"", first ? "" : ", ",
               hta_rp_policy_names[p]);
        json_field(stdout, "cost", w->mean);
        json_field(stdout, "cost_ci", w->ci);
        json_field(stdout, "vs_random", w->vs_random);
        json_field(stdout, "vs_random_ci", w->vs_random_ci);
        json_field(stdout, "vs_greedy", w->vs_greedy);
        json_field(stdout, "vs_greedy_ci", w->vs_greedy_ci);
        json_field(stdout, "mean_rank", w->mean_pos);
        putchar('}');
        first = 0;
    }
    printf("]");
    if (r->row[HTA_RP_OPTIMAL].run) {
        json_field(stdout, "optimal_cost_lo", r->opt_lo);
        json_field(stdout, "optimal_cost_hi", r->opt_hi);
        printf(", \"optimal_states\": %lld, \"optimal_iterations\": %lld, "
               "\"optimal_converged\": %s",
               (long long)r->opt_states, (long long)r->opt_iters,
               r->opt_converged ? "true" : "false");
    }
    printf(", \"interrupted\": %s", r->cut ? "true" : "false");
    json_field(stdout, "seconds", r->seconds);
    putchar('}');
}

/* The SWIM jobs with shuffle data: X in GiB, R by the reducer rule,
 * capped at cap. */
typedef struct trace {
    int64_t n;
    double *t, *x;
    int32_t *R;
} trace;

static hta_status read_trace(const char *path, double reducer_bytes,
                             int32_t cap, trace *tr, hta_diag *d)
{
    hta_swim_row *rows = NULL;
    int64_t n = 0, k = 0;
    memset(tr, 0, sizeof *tr);
    hta_status st = hta_swim_read(path, &rows, &n, d);
    if (st != HTA_OK)
        return st;
    tr->t = malloc((size_t)n * sizeof *tr->t);
    tr->x = malloc((size_t)n * sizeof *tr->x);
    tr->R = malloc((size_t)n * sizeof *tr->R);
    if (!tr->t || !tr->x || !tr->R) {
        free(rows);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    for (int64_t i = 0; i < n; i++) {
        if (!(rows[i].shuffle > 0)) /* map-only: no ReduceTask */
            continue;
        double R = ceil(rows[i].shuffle / reducer_bytes);
        if (R < 1)
            R = 1;
        if (R > cap)
            R = cap;
        tr->t[k] = rows[i].submit;
        tr->R[k] = (int32_t)R;
        tr->x[k] = rows[i].shuffle / 1073741824.0 / R;
        k++;
    }
    free(rows);
    tr->n = k;
    if (k < 2 || !(tr->t[k - 1] > tr->t[0]))
        return hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                            "expected at least two jobs with shuffle data "
                            "at different times, found %lld",
                            (long long)k);
    return HTA_OK;
}

static void trace_free(trace *tr)
{
    free(tr->t);
    free(tr->x);
    free(tr->R);
}

/* What the command line sets: the policies, the rates, the costs' range
 * and count, the laws of X and R (parsed, not loaded). */
typedef struct rp_cmd {
    hta_rp_opts o;
    double lambdas[CLI_MAX_SWEEP];
    int nl;
    double lo, hi;
    int64_t nslots;
    hta_dist X, R;
    const char *file;
    int traced;
} rp_cmd;

static int rp_options(const cli_args *ap, rp_cmd *cm)
{
    const cli_args args = *ap;
    hta_rp_opts o = cm->o;
    double *lambdas = cm->lambdas;
    int code = 0;
    const cli_val *pv = cli_value(&args, "policy");
    if (pv->given) {
        for (int q = 0; q < pv->n; q++)
            o.policies[pv->items[q]] = 1;
    } else {
        for (int p = 0; p < HTA_RP_NPOLICIES; p++)
            o.policies[p] = p != HTA_RP_OPTIMAL;
    }
    const char *file = cm->file = args.npos ? args.pos[0] : NULL;
    int traced = cm->traced = cli_has(&args, "jobs-trace");
    if (file && (cli_has(&args, "slots") || cli_has(&args, "costs")))
        return cli_usage_error(&args, "--slots and --costs draw the costs: "
                                      "not with a SLOTS file");
    if (traced && (cli_has(&args, "data") || cli_has(&args, "reducers") ||
                   cli_has(&args, "jobs")))
        return cli_usage_error(&args, "--data, --reducers and --jobs do not "
                                      "apply to --jobs-trace (its jobs are "
                                      "the trace's)");
    if (!traced && cli_has(&args, "reducer-mb"))
        return cli_usage_error(&args, "--reducer-mb applies to --jobs-trace "
                                      "only");
    if (o.policies[HTA_RP_OPTIMAL] && traced)
        return cli_usage_error(&args, "the optimal policy is solved for "
                                      "Poisson arrivals: not with "
                                      "--jobs-trace");
    if (o.policies[HTA_RP_OPTIMAL] && !file && cli_has(&args, "slots") &&
        cli_value(&args, "slots")->i > 30)
        return cli_usage_error(&args, "the optimal policy is solved for at "
                                      "most 30 slots, found --slots %lld",
                               (long long)cli_value(&args, "slots")->i);
    if (o.policies[HTA_RP_OPTIMAL] && !file && !cli_has(&args, "slots"))
        return cli_usage_error(&args, "the optimal policy is solved for at "
                                      "most 30 slots: give --slots or a "
                                      "SLOTS file");
    if (cli_has(&args, "window") && !o.policies[HTA_RP_RHC_ADAPTIVE])
        return cli_usage_error(&args, "--window applies to the rhc-adaptive "
                                      "policy only");
    if (cli_has(&args, "lambda") && cli_has(&args, "sweep"))
        return cli_usage_error(&args, "give --lambda or --sweep, not both");
    int nl = 1;
    lambdas[0] = cli_has(&args, "lambda") ? cli_value(&args, "lambda")->x :
                                            0.4;
    if (cli_has(&args, "sweep") && (code = cli_sweep(&args, lambdas, &nl)))
        return code;
    for (int k = 0; k < nl; k++)
        if (!(lambdas[k] < 1))
            return cli_usage_error(&args, "the arrival rate must be below "
                                          "the service rate mu = 1, found "
                                          "%g", lambdas[k]);
    double lo = 1, hi = 100;
    if (cli_has(&args, "costs")) {
        lo = cli_value(&args, "costs")->list[0];
        hi = cli_value(&args, "costs")->list[1];
        if (hi < lo)
            return cli_usage_error(&args, "--costs LO,HI needs LO <= HI, "
                                          "found '%s'",
                                   cli_str(&args, "costs"));
    }
    int64_t nslots = cli_has(&args, "slots") ? cli_value(&args, "slots")->i :
                                               1000;
    if (cli_has(&args, "k-limit"))
        o.K = (int)cli_value(&args, "k-limit")->i;
    if (cli_has(&args, "jobs"))
        o.jobs = cli_value(&args, "jobs")->i;
    if (cli_has(&args, "batches"))
        o.batches = (int)cli_value(&args, "batches")->i;
    if (cli_has(&args, "window"))
        o.window = (int)cli_value(&args, "window")->i;
    if (cli_has(&args, "seed"))
        o.seed = (uint64_t)cli_value(&args, "seed")->i;
    char msg[300];
    hta_dist X = {HTA_DIST_UNIFORM, 1, 100, NULL, 0, NULL, NULL};
    hta_dist R = {HTA_DIST_UNIFORM, 1, 10, NULL, 0, NULL, NULL};
    cm->X = X;
    cm->R = R;
    if (cli_has(&args, "data"))
        hta_dist_parse(cli_str(&args, "data"), &X, msg, sizeof msg);
    cm->X = X;
    if (cli_has(&args, "reducers"))
        hta_dist_parse(cli_str(&args, "reducers"), &R, msg, sizeof msg);
    cm->R = R;
    if (hta_dist_max(&R) < 0)
        return cli_usage_error(&args, "--reducers needs a bounded "
                                      "distribution (fixed, uniform or "
                                      "table): K jobs of the largest R must "
                                      "fit in the slots");
    if ((o.policies[HTA_RP_THRESHOLD] || o.policies[HTA_RP_OPTIMAL]) &&
        hta_dist_max(&X) < 0)
        return cli_usage_error(&args, "the %s policy needs a bounded "
                                      "--data distribution (fixed, uniform "
                                      "or table)",
                               o.policies[HTA_RP_THRESHOLD] ? "threshold" :
                                                              "optimal");
    if (!traced) {
        int64_t w = cli_has(&args, "warmup") ?
                        cli_value(&args, "warmup")->i : o.jobs / 10;
        if (w >= o.jobs || o.jobs - w < o.batches)
            return cli_usage_error(&args, "--jobs must exceed --warmup by at "
                                          "least --batches (%d), found %lld "
                                          "and %lld",
                                   o.batches, (long long)o.jobs,
                                   (long long)w);
        if (R.kind != HTA_DIST_TABLE && !file &&
            (double)o.K * (double)hta_dist_max(&R) > (double)nslots)
            return cli_usage_error(&args, "K * the largest R must fit in "
                                          "the slots: %d * %lld > %lld",
                                   o.K, (long long)hta_dist_max(&R),
                                   (long long)nslots);
    }
    cm->o = o;
    cm->nl = nl;
    cm->lo = lo;
    cm->hi = hi;
    cm->nslots = nslots;
    return 0;
}

/* One run of the pool: a rate, every policy on one sample path. */
typedef struct rp_job {
    hta_rp_opts o;
    hta_rp_result r;
    hta_status st;
    hta_diag d;
    int ran;
} rp_job;

typedef struct rp_pool {
    const hta_slots *s;
    rp_job *jobs;
} rp_pool;

static void rp_job_run(void *ctx, int k)
{
    rp_pool *p = ctx;
    rp_job *j = &p->jobs[k];
    hta_diag_clear(&j->d);
    j->st = hta_rp_run(p->s, &j->o, &j->r, &j->d);
    j->ran = 1;
}

/* The rates on the pool, then the report in their order; 0, or the exit
 * code of an error. */
static int rp_runs(const cli_args *a, const rp_cmd *cm, const hta_slots *s,
                   const char *src, const char *jobs_desc)
{
    int json = cli_has(a, "json"), sweep = cli_has(a, "sweep");
    int n = cm->nl, interrupted = 0;
    rp_job *jobs = calloc((size_t)n, sizeof *jobs);
    hta_diag d;
    if (!jobs) {
        hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        return cli_report(HTA_ERR_INTERNAL, &d);
    }
    for (int k = 0; k < n; k++) {
        jobs[k].o = cm->o;
        jobs[k].o.lambda = cm->lambdas[k];
    }
    rp_pool pool = {s, jobs};
    hta_pool_run(cli_threads(a), n, rp_job_run, &pool, &cli_interrupted);
    for (int k = 0; k < n; k++)
        if (jobs[k].ran && jobs[k].st != HTA_OK) {
            int code = cli_report(jobs[k].st, &jobs[k].d);
            free(jobs);
            return code;
        }
    if (json && sweep)
        printf("[");
    for (int k = 0; k < n && !interrupted; k++) {
        rp_job *j = &jobs[k];
        if (!j->ran) {
            interrupted = 1;
            break;
        }
        if (cli_has(a, "no-timing"))
            j->r.seconds = 0;
        interrupted = j->r.cut;
        if (json) {
            printf("%s", k ? ", " : "");
            json_run(s, &j->o, &j->r);
        } else {
            if (sweep)
                printf("%s# lambda %g\n", k ? "\n" : "", j->o.lambda);
            print_head(src, s, &j->o, jobs_desc, &j->r);
            for (int p = 0; p < HTA_RP_NPOLICIES; p++)
                if (j->r.row[p].run)
                    print_row(&j->r.row[p], hta_rp_policy_names[p]);
            if (j->r.row[HTA_RP_OPTIMAL].run)
                printf("optimal: the decision process' least cost per job "
                       "%.6g .. %.6g (%lld states, %lld iterations%s)\n",
                       j->r.opt_lo, j->r.opt_hi, (long long)j->r.opt_states,
                       (long long)j->r.opt_iters,
                       j->r.opt_converged ? "" : ", NOT converged");
        }
    }
    if (json)
        printf("%s\n", sweep ? "]" : "");
    free(jobs);
    return cli_finish_stdout(interrupted ? cli_interrupt_code() : 0);
}

int cmd_rplace(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    rp_cmd cm = {.o = {.lambda = 0.4,
                       .K = 10,
                       .jobs = 50000,
                       .batches = 30,
                       .window = 100,
                       .seed = 1,
                       .stop = &cli_interrupted}};
    if ((code = rp_options(&args, &cm)) != 0)
        return code;
    hta_rp_opts o = cm.o;
    const char *file = cm.file;
    int traced = cm.traced;
    double lo = cm.lo, hi = cm.hi;
    int64_t nslots = cm.nslots;
    hta_dist X = cm.X, R = cm.R;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_slots *s = NULL;
    hta_rp_law law = {0};
    hta_rp_table table = {0};
    trace tr = {0};
    char jobs_desc[512], src[256];
    hta_status st = hta_dist_load(&X, &d);
    if (st == HTA_OK)
        st = hta_dist_load(&R, &d);
    if (st == HTA_OK) {
        if (file) {
            st = hta_slots_parse(file, &s, &d);
            if (s && s->nodes)
                snprintf(src, sizeof src, "%lld nodes", (long long)s->nodes);
            else
                snprintf(src, sizeof src, "cost list");
        } else {
            st = hta_slots_uniform(nslots, lo, hi, o.seed, &s, &d);
            snprintf(src, sizeof src, "i.i.d. uniform on [%g, %g]", lo, hi);
        }
    }
    if (st == HTA_OK && traced) {
        double mb = cli_has(&args, "reducer-mb") ?
                        cli_value(&args, "reducer-mb")->x : 1024;
        int32_t cap = (int32_t)(s->r / o.K > 1000000 ? 1000000 : s->r / o.K);
        if (cap < 1) {
            code = cli_usage_error(&args, "--k-limit %d exceeds the %lld "
                                          "slots", o.K, (long long)s->r);
            goto done;
        }
        st = read_trace(cli_str(&args, "jobs-trace"), mb * 1048576.0, cap,
                        &tr, &d);
        if (st == HTA_OK) {
            o.trace_n = tr.n;
            o.trace_t = tr.t;
            o.trace_x = tr.x;
            o.trace_R = tr.R;
            st = hta_rp_law_sample(tr.x, tr.R, tr.n, &law, &d);
            snprintf(jobs_desc, sizeof jobs_desc,
                     "%s (%lld jobs with shuffle data, X in GiB, R = "
                     "ceil(shuffle / %g MiB) at most %d)",
                     cli_str(&args, "jobs-trace"), (long long)tr.n, mb,
                     (int)cap);
        }
        o.warmup = cli_has(&args, "warmup") ? cli_value(&args, "warmup")->i :
                                              tr.n / 10;
        if (st == HTA_OK &&
            (o.warmup >= tr.n || tr.n - o.warmup < o.batches)) {
            code = cli_usage_error(&args, "the trace's %lld jobs must exceed "
                                          "--warmup by at least --batches "
                                          "(%d), found warm-up %lld",
                                   (long long)tr.n, o.batches,
                                   (long long)o.warmup);
            goto done;
        }
    } else if (st == HTA_OK) {
        o.X = &X;
        o.R = &R;
        o.warmup = cli_has(&args, "warmup") ? cli_value(&args, "warmup")->i :
                                              o.jobs / 10;
        if ((double)o.K * (double)hta_dist_max(&R) > (double)s->r) {
            code = cli_usage_error(&args, "K * the largest R must fit in "
                                          "the slots: %d * %lld > %lld",
                                   o.K, (long long)hta_dist_max(&R),
                                   (long long)s->r);
            goto done;
        }
        st = hta_rp_law_jobs(&X, &R, &law, &d);
        snprintf(jobs_desc, sizeof jobs_desc, "Poisson, X %s, R %s",
                 cli_has(&args, "data") ? cli_str(&args, "data") :
                                          "uniform:1:100",
                 cli_has(&args, "reducers") ? cli_str(&args, "reducers") :
                                              "uniform:1:10");
    }
    if (st == HTA_OK)
        st = hta_rp_opts_law(&o, &law, &table, &cli_interrupted, &d);
    if (st != HTA_OK) {
        code = st == HTA_ERR_USAGE ? cli_usage_error(&args, "%s", d.msg) :
               cli_interrupted     ? cli_interrupt_code() :
                                     cli_report(st, &d);
        goto done;
    }
    cli_poll_interrupts();
    cm.o = o;
    code = rp_runs(&args, &cm, s, src, jobs_desc);
done:
    hta_slots_free(s);
    hta_rp_law_free(&law);
    hta_rp_table_free(&table);
    trace_free(&tr);
    hta_dist_free(&X);
    hta_dist_free(&R);
    return code;
}
