/* hta reduce-place: ReduceTask placement for sequential jobs (Tan et al.,
 * INFOCOM 2013), every policy on one sample path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/rplace.h"
#include "chart.h"
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
     "run the rates A, A+STEP, ..., B (as --lambda; A + k STEP to\n"
     "the decimals of A and STEP)"},
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
    {"plot", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE.svg",
     "picture of the cost per job against lambda, a line per\n"
     "policy, the 95% intervals as bands"},
    {"csv", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "the report as CSV, a row per rate and policy (columns in\n"
     "hta-reduce-place(1))"},
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

/* The report, held until the outputs are committed (cli_hold): on an
 * output's error nothing is printed, as sim and flowtime. */
static FILE *rep;

static void print_head(const char *src, const hta_slots *s,
                       const hta_rp_opts *o, const char *jobs_desc,
                       const hta_rp_result *r)
{
    fprintf(rep, "slots: %lld (%s), cost %.6g .. %.6g, mean %.6g\n",
           (long long)s->r, src, s->rcost[0], s->rcost[s->nrun - 1],
           hta_slots_mean_cost(s));
    fprintf(rep, "jobs: %s, lambda %g, mu 1, K %d, %lld jobs (warm-up %lld, %d "
           "batch means, 95%% intervals), seed %llu\n",
           jobs_desc, o->lambda, o->K, (long long)r->jobs,
           (long long)o->warmup, o->batches, (unsigned long long)o->seed);
    fprintf(rep, "jobs in system %.4f +- %.4f", r->mean_n, r->ci_n);
    if (!o->trace_n) /* Poisson arrivals: the number in system is M/M/1 */
        fprintf(rep, " (M/M/1: %.4f)", o->lambda / (1 - o->lambda));
    fprintf(rep, ", time in system %.4f, Little's law gap %.1e, %.1f%% waited "
           "for slots%s\n",
           r->mean_t, r->little_gap, 100 * r->waited,
           r->cut ? " (cut short)" : "");
    fprintf(rep, "%-13s %24s %20s %20s %10s\n", "policy", "cost per job",
           "saving vs random %", "saving vs greedy %", "mean rank");
}

static void pct(double v, double ci)
{
    if (isnan(v))
        fprintf(rep, " %20s", "-");
    else
        fprintf(rep, " %10.2f +- %-6.2f", v, ci);
}

static void print_row(const hta_rp_row *w, const char *name)
{
    fprintf(rep, "%-13s %12.4g +- %-9.3g", name, w->mean, w->ci);
    pct(w->vs_random, w->vs_random_ci);
    pct(w->vs_greedy, w->vs_greedy_ci);
    fprintf(rep, " %10.2f\n", w->mean_pos);
}

static void json_run(const hta_slots *s, const hta_rp_opts *o,
                     const hta_rp_result *r)
{
    fprintf(rep, "{\"slots\": %lld", (long long)s->r);
    json_field(rep, "cost_min", s->rcost[0]);
    json_field(rep, "cost_max", s->rcost[s->nrun - 1]);
    json_field(rep, "cost_mean", hta_slots_mean_cost(s));
    json_field(rep, "lambda", o->lambda);
    fprintf(rep, ", \"k_limit\": %d, \"jobs\": %lld, \"warmup\": %lld, "
           "\"batches\": %d, \"seed\": %llu",
           o->K, (long long)r->jobs, (long long)o->warmup, o->batches,
           (unsigned long long)o->seed);
    json_field(rep, "number", r->mean_n);
    json_field(rep, "number_ci", r->ci_n);
    json_field(rep, "time_in_system", r->mean_t);
    json_field(rep, "little_gap", r->little_gap);
    json_field(rep, "waited", r->waited);
    fprintf(rep, ", \"policies\": [");
    for (int p = 0, first = 1; p < HTA_RP_NPOLICIES; p++) {
        const hta_rp_row *w = &r->row[p];
        if (!w->run)
            continue;
        fprintf(rep, "%s{\"policy\": \"%s\"", first ? "" : ", ",
               hta_rp_policy_names[p]);
        json_field(rep, "cost", w->mean);
        json_field(rep, "cost_ci", w->ci);
        json_field(rep, "vs_random", w->vs_random);
        json_field(rep, "vs_random_ci", w->vs_random_ci);
        json_field(rep, "vs_greedy", w->vs_greedy);
        json_field(rep, "vs_greedy_ci", w->vs_greedy_ci);
        json_field(rep, "mean_rank", w->mean_pos);
        fputc('}', rep);
        first = 0;
    }
    fprintf(rep, "]");
    if (r->row[HTA_RP_OPTIMAL].run) {
        json_field(rep, "optimal_cost_lo", r->opt_lo);
        json_field(rep, "optimal_cost_hi", r->opt_hi);
        fprintf(rep, ", \"optimal_states\": %lld, \"optimal_iterations\": %lld, "
               "\"optimal_converged\": %s",
               (long long)r->opt_states, (long long)r->opt_iters,
               r->opt_converged ? "true" : "false");
    }
    fprintf(rep, ", \"interrupted\": %s", r->cut ? "true" : "false");
    json_field(rep, "seconds", r->seconds);
    fputc('}', rep);
}

/* The request as the library takes it; 0, or the exit code of a usage
 * error that only the command line has words for. */
static int ask_of(const cli_args *a, hta_rp_ask *k)
{
    memset(k, 0, sizeof *k);
    const cli_val *pv = cli_value(a, "policy");
    if ((k->has_policies = pv->given))
        for (int q = 0; q < pv->n; q++)
            k->policies[pv->items[q]] = 1;
    k->slots_file = a->npos ? a->pos[0] : NULL;
    if (cli_has(a, "lambda") && cli_has(a, "sweep"))
        return cli_usage_error(a, "give --lambda or --sweep, not both");
    if (cli_has(a, "lambda"))
        k->lambdas[k->nl++] = cli_value(a, "lambda")->x;
    int code = 0;
    if (cli_has(a, "sweep") && (code = cli_sweep(a, k->lambdas, &k->nl)))
        return code;
    if (cli_has(a, "slots"))
        k->slots = cli_value(a, "slots")->i;
    if ((k->has_costs = cli_has(a, "costs"))) {
        k->lo = cli_value(a, "costs")->list[0];
        k->hi = cli_value(a, "costs")->list[1];
    }
    k->K = cli_has(a, "k-limit") ? (int)cli_value(a, "k-limit")->i : 0;
    k->jobs = cli_has(a, "jobs") ? cli_value(a, "jobs")->i : 0;
    k->warmup = cli_has(a, "warmup") ? cli_value(a, "warmup")->i : -1;
    k->batches = cli_has(a, "batches") ? (int)cli_value(a, "batches")->i : 0;
    k->window = cli_has(a, "window") ? (int)cli_value(a, "window")->i : 0;
    if ((k->has_seed = cli_has(a, "seed")))
        k->seed = (uint64_t)cli_value(a, "seed")->i;
    k->data = cli_has(a, "data") ? cli_str(a, "data") : NULL;
    k->reducers = cli_has(a, "reducers") ? cli_str(a, "reducers") : NULL;
    k->jobs_trace = cli_has(a, "jobs-trace") ? cli_str(a, "jobs-trace") :
                                               NULL;
    k->reducer_mb = cli_has(a, "reducer-mb") ? cli_value(a, "reducer-mb")->x :
                                               0;
    k->stop = &cli_interrupted;
    return 0;
}

static void csv_rows(FILE *f, double lambda, const hta_rp_result *r)
{
    for (int p = 0; p < HTA_RP_NPOLICIES; p++) {
        const hta_rp_row *w = &r->row[p];
        if (!w->run)
            continue;
        csv_number(f, lambda, 1);
        fprintf(f, ",%s", hta_rp_policy_names[p]);
        csv_number(f, w->mean, 0);
        csv_number(f, w->ci, 0);
        csv_number(f, w->vs_random, 0);
        csv_number(f, w->vs_random_ci, 0);
        csv_number(f, w->vs_greedy, 0);
        csv_number(f, w->vs_greedy_ci, 0);
        csv_number(f, w->mean_pos, 0);
        csv_number(f, r->mean_n, 0);
        csv_number(f, r->ci_n, 0);
        fprintf(f, ",%lld,%d\n", (long long)r->jobs, r->cut);
    }
}

/* The chart: a series per policy run, y[s * n + k] its cost per job. */
static hta_status rp_chart(cli_figout *fo, const hta_rp_setup *su,
                           const hta_rp_result *res, const int *ran, int n,
                           hta_diag *d)
{
    const char *names[HTA_RP_NPOLICIES];
    int ns = 0, pol[HTA_RP_NPOLICIES];
    for (int p = 0; n && p < HTA_RP_NPOLICIES; p++)
        if (ran[0] && res[0].row[p].run) {
            pol[ns] = p;
            names[ns++] = hta_rp_policy_names[p];
        }
    double *y = malloc((size_t)(ns * n + 1) * sizeof *y);
    double *ci = malloc((size_t)(ns * n + 1) * sizeof *ci);
    hta_status st = HTA_OK;
    if (!y || !ci)
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (int s = 0; st == HTA_OK && s < ns; s++)
        for (int k = 0; k < n; k++) {
            int ok = ran[k] && res[k].row[pol[s]].run;
            y[s * n + k] = ok ? res[k].row[pol[s]].mean : NAN;
            ci[s * n + k] = ok ? res[k].row[pol[s]].ci : NAN;
        }
    char title[256], sub[1000];
    snprintf(title, sizeof title, "hta reduce-place: cost per job against "
             "the arrival rate");
    snprintf(sub, sizeof sub, "slots: %s; jobs: %s; K %d, seed %llu, 95%% "
             "intervals from batch means",
             su->source, su->jobs, su->o.K, (unsigned long long)su->o.seed);
    hta_chart ch = {title, sub, "lambda (jobs per unit time, mu = 1)",
                    "mean fetching cost per job", ns, n, names, NULL,
                    su->lambdas, y, ci, NULL, NULL, NAN, NULL};
    if (st == HTA_OK)
        st = cli_figout_commit(fo, &ch, d);
    free(y);
    free(ci);
    return st;
}

/* The rates on the pool, then the report in their order; 0, or the exit
 * code of an error. */
static int rp_runs(const cli_args *a, const hta_rp_setup *su,
                   cli_figout *fo)
{
    int json = cli_has(a, "json"), sweep = cli_has(a, "sweep");
    int n = su->nl, interrupted = 0;
    hta_rp_result *res = calloc((size_t)n, sizeof *res);
    int *ran = calloc((size_t)n, sizeof *ran);
    hta_diag d;
    hta_diag_clear(&d);
    cli_held held;
    hta_status st = !res || !ran ? hta_diag_set(&d, HTA_ERR_INTERNAL, NULL,
                                                0, "out of memory") :
                                   cli_hold(&held, &d);
    if (st == HTA_OK && (st = hta_rp_sweep(su, cli_threads(a), res, ran,
                                          &d)) != HTA_OK)
        cli_release(&held, st, &d);
    cli_output_phase();
    if (st != HTA_OK) {
        free(res);
        free(ran);
        /* a signal in a run's set-up (the optimal policy's decision
           process, solved first) is an interruption, not an error */
        return cli_interrupted ? cli_interrupt_code() : cli_report(st, &d);
    }
    rep = held.f;
    if (json && sweep)
        fprintf(rep, "[");
    for (int k = 0; k < n && !interrupted; k++) {
        hta_rp_result *r = &res[k];
        hta_rp_opts o = su->o;
        o.lambda = su->lambdas[k];
        if (!ran[k]) {
            interrupted = 1;
            break;
        }
        if (cli_has(a, "no-timing"))
            r->seconds = 0;
        interrupted = r->cut;
        if (cli_figout_csv(fo))
            csv_rows(cli_figout_csv(fo), o.lambda, r);
        if (json) {
            fprintf(rep, "%s", k ? ", " : "");
            json_run(su->s, &o, r);
        } else {
            if (sweep)
                fprintf(rep, "%s# lambda %g\n", k ? "\n" : "", o.lambda);
            print_head(su->source, su->s, &o, su->jobs, r);
            for (int p = 0; p < HTA_RP_NPOLICIES; p++)
                if (r->row[p].run)
                    print_row(&r->row[p], hta_rp_policy_names[p]);
            if (r->row[HTA_RP_OPTIMAL].run)
                fprintf(rep, "optimal: the decision process' least cost per job "
                       "%.6g .. %.6g (%lld states, %lld iterations%s)\n",
                       r->opt_lo, r->opt_hi, (long long)r->opt_states,
                       (long long)r->opt_iters,
                       r->opt_converged ? "" : ", NOT converged");
        }
    }
    if (json)
        fprintf(rep, "%s\n", sweep ? "]" : "");
    for (int k = 0; k < n; k++) /* the runs after an interruption */
        ran[k] &= k == 0 || ran[k - 1];
    st = rp_chart(fo, su, res, ran, n, &d);
    st = cli_release(&held, st, &d);
    free(res);
    free(ran);
    if (st != HTA_OK)
        return cli_report(st, &d);
    return cli_finish_stdout(interrupted ? cli_interrupt_code() : 0);
}

int cmd_rplace(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    hta_rp_ask ask;
    if ((code = ask_of(&args, &ask)) != 0)
        return code;
    static const char *const what[] = {"plot", "csv"};
    const char *outs[2] = {cli_str(&args, "plot"), cli_str(&args, "csv")};
    if ((code = cli_files_only(&args, what, outs, 2)) != 0)
        return code;
    const char *ins[4];
    int nins = 0;
    if (ask.slots_file)
        ins[nins++] = ask.slots_file;
    if (ask.jobs_trace)
        ins[nins++] = ask.jobs_trace;
    hta_dist dist[2];
    const char *dists[2] = {ask.data, ask.reducers};
    char msg[300];
    for (int i = 0; i < 2; i++)
        if (dists[i] && hta_dist_parse(dists[i], &dist[i], msg, sizeof msg) ==
                            0 && dist[i].kind == HTA_DIST_TABLE)
            ins[nins++] = dist[i].path;
    if ((code = cli_check_outputs(&args, outs, 2, ins, nins)) != 0)
        return code;
    cli_figout fo = {0};
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_rp_setup su;
    hta_status st = hta_rp_setup_make(&ask, &su, &d);
    if (st != HTA_OK) {
        code = st == HTA_ERR_USAGE ? cli_usage_error(&args, "%s", d.msg) :
               cli_interrupted     ? cli_interrupt_code() :
                                     cli_report(st, &d);
    } else if ((st = cli_figout_open(&fo, outs[0], outs[1], &d)) != HTA_OK) {
        code = cli_report(st, &d);
    } else {
        if (cli_figout_csv(&fo))
            fputs("lambda,policy,cost,cost_ci,vs_random,vs_random_ci,"
                  "vs_greedy,vs_greedy_ci,mean_rank,number,number_ci,jobs,"
                  "cut\n",
                  cli_figout_csv(&fo));
        cli_poll_interrupts();
        code = rp_runs(&args, &su, &fo);
    }
    cli_figout_abort(&fo);
    hta_rp_setup_free(&su);
    return code;
}
