/* hta flowtime: map-then-reduce flow time of a job trace under every
 * policy, next to the SRPT lower bound and the exact optimum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/flowtime.h"
#include "hta/jobs.h"
#include "hta/num.h"
#include "cli.h"
#include "pool.h"
#include "report.h"

#define P_EXACT HTA_FT_NPOLICIES

static const cli_opt options[] = {
    {"machines", 'n', OPT_INT, 1, 1000000, 0, 0, 0, NULL, 0, "N",
     "number of machines N"},
    {"load", 0, OPT_REAL, 0, 1, OPT_OPEN_LO, 0, 0, NULL, 0, "RHO",
     "size the cluster for this load: N = ceil(W / (RHO * span)),\n"
     "W the total work, span the slots from the first arrival to\n"
     "the last"},
    {"sweep", 0, OPT_REALS, 0, 1, OPT_OPEN_LO, 3, 3, NULL, 0, "A,B,STEP",
     "run the loads A, A+STEP, ..., B (as --load)"},
    {"mode", 0, OPT_ENUM, 0, 0, 0, 0, 0, "preemptive|non-preemptive", 0,
     "M", "preemptive (default): work divisible per slot;\n"
          "non-preemptive: a started reduce task keeps its machine"},
    {"policy", 'p', OPT_ENUMS, 0, 0, 0, 1, 6,
     "srpt|dsrpt|asrpt|fifo|fair|exact", 0, "P[,P...]",
     "policies to run (default: all; dsrpt only preemptive;\n"
     "exact when the program has at most --exact-max-vars columns)"},
    {"exact-max-vars", 0, OPT_INT, 1, 100000000, 0, 0, 0, NULL, 0, "V",
     "largest exact program, in columns (default 2000)"},
    {"time-limit", 0, OPT_REAL, 0, 1e9, OPT_OPEN_LO, 0, 0, NULL, 0, "S",
     "seconds for the exact program (default 60)"},
    {"classes", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "mean flow time by job size (total work 1, 2-10, 11-100,\n"
     "101-1000, >1000 units)"},
    {"no-timing", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "report 0 seconds everywhere (reproducible output)"},
    {"stepwise", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "compute every slot in turn (the reference engine) instead\n"
     "of leaping from event to event; the same schedules"},
    {"json", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL, "the report as JSON"},
    {"verbose", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "GLPK's output on stderr"},
    CLI_OPT_THREADS,
    {"quiet", 'q', OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "no progress line on stderr (shown only on a terminal)"},
};

static const cli_spec spec = {
    "flowtime", "TRACE (--machines N | --load RHO | --sweep A,B,STEP) "
                "[options]",
    "Total flow time (f_i - a_i + 1 summed over the jobs) of a job trace\n"
    "(format hta-jobs 1; 'hta gen jobs', 'hta import swim') on N machines,\n"
    "each doing one unit of one job's work per slot, a job's reduce work\n"
    "only after the slot in which its map work ended (Zheng, Shroff,\n"
    "Sinha, INFOCOM 2013).  Policies: srpt (the relaxation where map and\n"
    "reduce work may share a slot: a lower bound), dsrpt (SRPT's map\n"
    "schedule, reduce work delayed), asrpt, fifo, fair, and exact (a\n"
    "time-indexed integer program, GLPK).  Reports each policy's total and\n"
    "mean flow time and its ratio to the SRPT bound, to the lower bound\n"
    "max(SRPT, sum of single-job flow times) and to the optimum.\n",
    options, (int)(sizeof options / sizeof options[0]), 1, 1, NULL};

#define NCLASSES 5
static const char *const class_names[NCLASSES] = {"1", "2-10", "11-100",
                                                  "101-1000", ">1000"};

static int size_class(const hta_jobs *J, int64_t i)
{
    int64_t w = J->map[i] + hta_jobs_reduce_work(J, i);
    return w <= 1 ? 0 : w <= 10 ? 1 : w <= 100 ? 2 : w <= 1000 ? 3 : 4;
}

typedef struct row {
    int policy; /* hta_ft_policy or P_EXACT */
    int ran;
    int64_t total;
    double seconds;
    int cut;
    double cls_sum[NCLASSES];
} row;

typedef struct point {
    int32_t N;
    double load;
    row rows[HTA_FT_NPOLICIES + 1];
    int nrows;
    int64_t srpt, lbsum;
    int have_srpt;
    /* exact */
    int exact_ran, exact_skipped;
    hta_ft_exact ex;
    int64_t exact_cols;
    int interrupted;
} point;

/* The report, kept in memory until the runs end well: an error prints
 * nothing on standard output. */
static FILE *rep;

static int64_t span_of(const hta_jobs *J)
{
    return J->arrival[J->n - 1] - J->arrival[0] + 1;
}

static double machines_for(const hta_jobs *J, double load)
{
    double n = ceil((double)J->work / (load * (double)span_of(J)));
    return n < 1 ? 1 : n;
}

/* One run of the pool: a point (its machines) and a policy other than
 * exact; the finish slots stay with the result until collected. */
typedef struct ft_job {
    int32_t N;
    int policy;
    hta_ft_result res;
    hta_status st;
    hta_diag d;
    int ran;
} ft_job;

typedef struct ft_pool {
    const hta_jobs *J;
    const cli_args *a;
    int pre;
    ft_job *jobs;
} ft_pool;

static void ft_job_run(void *ctx, int k)
{
    ft_pool *p = ctx;
    ft_job *j = &p->jobs[k];
    hta_ft_opts o = {j->N, p->pre, NULL,
                     cli_pool_progress_fn(cli_has(p->a, "quiet")),
                     cli_pool_line_get(), &cli_interrupted,
                     cli_has(p->a, "stepwise")};
    hta_diag_clear(&j->d);
    j->st = hta_ft_run(p->J, (hta_ft_policy)j->policy, &o, &j->res, &j->d);
    j->ran = 1;
}

/* The policies that are runs of the pool: every one but exact (and
 * dsrpt in the non-preemptive mode). */
static int pool_policies(const int *pols, int npols, int pre, int *out)
{
    int n = 0;
    for (int q = 0; q < npols; q++)
        if (pols[q] != P_EXACT && (pols[q] != HTA_FT_DSRPT || pre))
            out[n++] = pols[q];
    return n;
}

/* The point's rows from its runs of the pool (jobs, in policy order),
 * then the exact program, which needs the best total of the others (a
 * run of fifo when there is none). */
static hta_status run_point(const hta_jobs *J, const cli_args *a,
                            const int *pols, int npols, int pre, int32_t N,
                            ft_job *jobs, point *pt, hta_diag *d)
{
    memset(pt, 0, sizeof *pt);
    pt->N = N;
    pt->load = (double)J->work / ((double)N * (double)span_of(J));
    for (int64_t i = 0; i < J->n; i++)
        pt->lbsum += hta_ft_job_lb(J, i, N, pre);
    int64_t best = INT64_MAX;
    int want_exact = 0;
    for (int q = 0; q < npols; q++)
        want_exact |= pols[q] == P_EXACT;
    int run[HTA_FT_NPOLICIES + 1];
    int nrun = pool_policies(pols, npols, pre, run);
    for (int q = 0; q < nrun; q++) {
        ft_job *j = &jobs[q];
        if (!j->ran) {
            pt->interrupted = 1;
            return HTA_OK;
        }
        if (j->st != HTA_OK) {
            *d = j->d;
            return j->st;
        }
        row *r = &pt->rows[pt->nrows++];
        r->policy = run[q];
        r->ran = 1;
        r->cut = j->res.cut;
        r->total = j->res.total;
        r->seconds = cli_has(a, "no-timing") ? 0 : j->res.seconds;
        for (int64_t i = 0; i < J->n; i++)
            if (j->res.finish[i])
                r->cls_sum[size_class(J, i)] +=
                    (double)(j->res.finish[i] - J->arrival[i] + 1);
        if (j->res.cut) {
            pt->interrupted = 1;
            return HTA_OK;
        }
        if (run[q] == HTA_FT_SRPT) {
            pt->srpt = r->total;
            pt->have_srpt = 1;
        } else if (r->total < best) {
            best = r->total;
        }
    }
    if (!want_exact)
        return HTA_OK;
    cli_progress progress = {0, 0};
    hta_ft_opts o = {N, pre, NULL, cli_progress_fn(cli_has(a, "quiet")),
                     &progress, &cli_interrupted, cli_has(a, "stepwise")};
    if (best == INT64_MAX) { /* exact needs a feasible schedule's total */
        hta_ft_result res;
        hta_status st = hta_ft_run(J, HTA_FT_FIFO, &o, &res, d);
        cli_progress_end(&progress);
        if (st != HTA_OK)
            return st;
        best = res.total;
        hta_ft_result_free(&res);
    }
    const cli_val *mv = cli_value(a, "exact-max-vars");
    const cli_val *tl = cli_value(a, "time-limit");
    hta_ft_exact_opts eo = {N, pre, best, mv->given ? mv->i : 2000,
                            tl->given ? tl->x : 60.0, cli_has(a, "verbose"),
                            &cli_interrupted};
    pt->exact_cols = hta_ft_exact_size(J, &eo);
    if (pt->exact_cols > eo.max_vars) {
        pt->exact_skipped = 1;
        return HTA_OK;
    }
    hta_status st = hta_ft_exact_solve(J, &eo, &pt->ex, d);
    if (st != HTA_OK)
        return st;
    if (cli_has(a, "no-timing"))
        pt->ex.seconds = 0;
    pt->exact_ran = 1;
    if (pt->ex.cut && cli_interrupted)
        pt->interrupted = 1;
    return HTA_OK;
}

static double lower_bound(const point *pt)
{
    double lb = (double)pt->lbsum;
    if (pt->have_srpt && (double)pt->srpt > lb)
        lb = (double)pt->srpt;
    if (pt->exact_ran && (double)pt->ex.bound > lb)
        lb = (double)pt->ex.bound;
    return lb;
}

static void print_ratio(double x, double y)
{
    if (y > 0)
        fprintf(rep, " %8.4f", x / y);
    else
        fprintf(rep, " %8s", "-");
}

static void print_text(const hta_jobs *J, const char *name, int pre,
                       const point *pt, int classes)
{
    fprintf(rep, "trace %s: %lld jobs, %lld units of work over %lld slots, %ld "
           "machines, %s, load %.4f\n",
           name, (long long)J->n, (long long)J->work,
           (long long)span_of(J), (long)pt->N,
           pre ? "preemptive" : "non-preemptive", pt->load);
    double lb = lower_bound(pt);
    double opt = pt->exact_ran && pt->ex.optimal ? (double)pt->ex.value : 0;
    fprintf(rep, "%-8s %14s %12s %8s %8s %8s %9s\n", "policy", "total_flow",
           "mean_flow", "/srpt", "/lb", "/exact", "seconds");
    for (int q = 0; q < pt->nrows; q++) {
        const row *r = &pt->rows[q];
        fprintf(rep, "%-8s %14lld %12.3f", hta_ft_policy_names[r->policy],
               (long long)r->total, (double)r->total / (double)J->n);
        print_ratio((double)r->total, pt->have_srpt ? (double)pt->srpt : 0);
        print_ratio((double)r->total, lb);
        print_ratio((double)r->total, opt);
        fprintf(rep, " %9.3f%s\n", r->seconds, r->cut ? "  (interrupted)" : "");
    }
    if (pt->exact_ran && pt->ex.found) {
        fprintf(rep, "%-8s %14lld %12.3f", "exact", (long long)pt->ex.value,
               (double)pt->ex.value / (double)J->n);
        print_ratio((double)pt->ex.value,
                    pt->have_srpt ? (double)pt->srpt : 0);
        print_ratio((double)pt->ex.value, lb);
        print_ratio((double)pt->ex.value, opt);
        fprintf(rep, " %9.3f\n", pt->ex.seconds);
    }
    char srpt[32] = "not run";
    if (pt->have_srpt)
        snprintf(srpt, sizeof srpt, "%lld", (long long)pt->srpt);
    char exb[64] = "";
    if (pt->exact_ran)
        snprintf(exb, sizeof exb, ", the exact program's bound %lld",
                 (long long)pt->ex.bound);
    fprintf(rep, "lower bound %.0f: max(SRPT %s, sum of single-job flow times "
           "%lld%s)\n",
           lb, srpt, (long long)pt->lbsum, exb);
    if (pt->exact_skipped)
        fprintf(rep, "exact: skipped, the program would have %lld columns "
               "(--exact-max-vars)\n",
               (long long)pt->exact_cols);
    else if (pt->exact_ran)
        fprintf(rep, "exact: %s %lld, bound %lld (GLPK, %lld columns, %lld rows, "
               "%.3f s)\n",
               pt->ex.optimal ? "optimal" :
               pt->interrupted ? "interrupted, best" :
                                 "time limit, best",
               (long long)pt->ex.value, (long long)pt->ex.bound,
               (long long)pt->ex.vars, (long long)pt->ex.rows,
               pt->ex.seconds);
    if (!classes)
        return;
    int64_t count[NCLASSES] = {0};
    for (int64_t i = 0; i < J->n; i++)
        count[size_class(J, i)]++;
    fprintf(rep, "mean flow time by job size (units of work):\n%-8s", "policy");
    for (int c = 0; c < NCLASSES; c++)
        if (count[c])
            fprintf(rep, " %11s", class_names[c]);
    fprintf(rep, "\n%-8s", "jobs");
    for (int c = 0; c < NCLASSES; c++)
        if (count[c])
            fprintf(rep, " %11lld", (long long)count[c]);
    fputc('\n', rep);
    for (int q = 0; q < pt->nrows; q++) {
        fprintf(rep, "%-8s", hta_ft_policy_names[pt->rows[q].policy]);
        for (int c = 0; c < NCLASSES; c++)
            if (count[c])
                fprintf(rep, " %11.3f", pt->rows[q].cls_sum[c] / (double)count[c]);
        fputc('\n', rep);
    }
}

static void json_point(const hta_jobs *J, int pre, const point *pt)
{
    double lb = lower_bound(pt);
    int64_t count[NCLASSES] = {0};
    for (int64_t i = 0; i < J->n; i++)
        count[size_class(J, i)]++;
    fprintf(rep, "{\"jobs\": %lld, \"work\": %lld, \"span\": %lld, "
           "\"machines\": %ld, \"mode\": \"%s\", \"load\": ",
           (long long)J->n, (long long)J->work, (long long)span_of(J),
           (long)pt->N, pre ? "preemptive" : "non-preemptive");
    json_number(rep, pt->load);
    fprintf(rep, ", \"lower_bound\": %.0f, \"job_bound_sum\": %lld, "
           "\"interrupted\": %s, \"policies\": [",
           lb, (long long)pt->lbsum, pt->interrupted ? "true" : "false");
    for (int q = 0; q < pt->nrows; q++) {
        const row *r = &pt->rows[q];
        fprintf(rep, "%s{\"policy\": \"%s\", \"total\": %lld, \"mean\": ",
               q ? ", " : "", hta_ft_policy_names[r->policy],
               (long long)r->total);
        json_number(rep, (double)r->total / (double)J->n);
        fprintf(rep, ", \"ratio_srpt\": ");
        json_number(rep, pt->have_srpt && pt->srpt > 0 ?
                                (double)r->total / (double)pt->srpt :
                                NAN);
        fprintf(rep, ", \"ratio_lb\": ");
        json_number(rep, lb > 0 ? (double)r->total / lb : NAN);
        fprintf(rep, ", \"ratio_exact\": ");
        json_number(rep, pt->exact_ran && pt->ex.optimal ?
                                (double)r->total / (double)pt->ex.value :
                                NAN);
        fprintf(rep, ", \"seconds\": ");
        json_number(rep, r->seconds);
        fprintf(rep, ", \"classes\": [");
        int first = 1;
        for (int c = 0; c < NCLASSES; c++)
            if (count[c]) {
                fprintf(rep, "%s{\"size\": \"%s\", \"jobs\": %lld, \"mean\": ",
                       first ? "" : ", ", class_names[c],
                       (long long)count[c]);
                json_number(rep, r->cls_sum[c] / (double)count[c]);
                fputc('}', rep);
                first = 0;
            }
        fprintf(rep, "]}");
    }
    fprintf(rep, "], \"exact\": ");
    if (pt->exact_ran)
        fprintf(rep, "{\"status\": \"%s\", \"value\": %lld, \"bound\": %lld, "
               "\"columns\": %lld, \"rows\": %lld, \"seconds\": %.3f}",
               pt->ex.optimal ? "optimal" :
               pt->interrupted ? "interrupted" :
                                 "time_limit",
               (long long)pt->ex.value, (long long)pt->ex.bound,
               (long long)pt->ex.vars, (long long)pt->ex.rows,
               pt->ex.seconds);
    else if (pt->exact_skipped)
        fprintf(rep, "{\"status\": \"skipped\", \"columns\": %lld}",
               (long long)pt->exact_cols);
    else
        fprintf(rep, "null");
    fputc('}', rep);
}

int cmd_flowtime(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    int given = cli_has(&args, "machines") + cli_has(&args, "load") +
                cli_has(&args, "sweep");
    if (given != 1)
        return cli_usage_error(&args, "give exactly one of --machines, "
                                      "--load and --sweep");
    int pre = !cli_has(&args, "mode") || cli_value(&args, "mode")->e == 0;
    int pols[HTA_FT_NPOLICIES + 1], npols = 0;
    const cli_val *pv = cli_value(&args, "policy");
    if (pv->given) {
        for (int q = 0; q < pv->n; q++)
            pols[npols++] = pv->items[q];
    } else {
        for (int q = 0; q <= P_EXACT; q++)
            if (q != HTA_FT_DSRPT || pre)
                pols[npols++] = q;
    }
    for (int q = 0; q < npols; q++)
        if (pols[q] == HTA_FT_DSRPT && !pre)
            return cli_usage_error(&args, "dsrpt is defined for the "
                                          "preemptive mode only");
    int want_exact = 0;
    for (int q = 0; q < npols; q++)
        want_exact |= pols[q] == P_EXACT;
    if (!want_exact && (cli_has(&args, "exact-max-vars") ||
                        cli_has(&args, "time-limit") ||
                        cli_has(&args, "verbose")))
        return cli_usage_error(&args, "--exact-max-vars, --time-limit and "
                                      "--verbose apply to the exact policy "
                                      "only");
    double loads[CLI_MAX_SWEEP];
    int nloads = 0;
    if (cli_has(&args, "sweep")) {
        if ((code = cli_sweep(&args, loads, &nloads)) != 0)
            return code;
    } else if (cli_has(&args, "load")) {
        loads[nloads++] = cli_value(&args, "load")->x;
    }
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_jobs *J = NULL;
    hta_status st = hta_jobs_parse(args.pos[0], &J, &d);
    cli_poll_interrupts(); /* from here a signal ends the runs early */
    if (st != HTA_OK)
        return cli_report(st, &d);
    for (int k = 0; k < nloads; k++)
        if (!(machines_for(J, loads[k]) <= 1e6)) {
            double least = (double)J->work / (1e6 * (double)span_of(J));
            int rc = cli_usage_error(&args, "--load %g needs %.3g machines for "
                                            "this trace, above the limit "
                                            "10^6: give a load of at least "
                                            "%.3g",
                                     loads[k], machines_for(J, loads[k]),
                                     least);
            hta_jobs_free(J);
            return rc;
        }
    int npoints = nloads ? nloads : 1;
    int json = cli_has(&args, "json"), interrupted = 0;
    cli_held held;
    if ((st = cli_hold(&held, &d)) != HTA_OK) {
        hta_jobs_free(J);
        return cli_report(st, &d);
    }
    rep = held.f;
    /* every point's runs but exact on the pool, then point by point */
    int run[HTA_FT_NPOLICIES + 1];
    int nrun = pool_policies(pols, npols, pre, run);
    ft_job *jobs = calloc((size_t)(npoints * nrun) + 1, sizeof *jobs);
    if (!jobs) {
        hta_jobs_free(J);
        st = cli_release(&held, hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0,
                                             "out of memory"),
                         &d);
        return cli_report(st, &d);
    }
    for (int k = 0; k < npoints * nrun; k++) {
        int pk = k / nrun;
        jobs[k].N = nloads ? (int32_t)machines_for(J, loads[pk]) :
                             (int32_t)cli_value(&args, "machines")->i;
        jobs[k].policy = run[k % nrun];
    }
    ft_pool pool = {J, &args, pre, jobs};
    cli_pool_run(cli_threads(&args), npoints * nrun, ft_job_run, &pool,
                 &cli_interrupted);
    cli_pool_line_end();
    if (json && nloads > 1)
        fprintf(rep, "[");
    for (int k = 0; k < npoints && !interrupted; k++) {
        int32_t N = nloads ? (int32_t)machines_for(J, loads[k]) :
                             (int32_t)cli_value(&args, "machines")->i;
        point pt;
        st = run_point(J, &args, pols, npols, pre, N, jobs + k * nrun, &pt,
                       &d);
        if (st != HTA_OK)
            break;
        interrupted = pt.interrupted;
        if (json) {
            if (k)
                fprintf(rep, ", ");
            json_point(J, pre, &pt);
            if (nloads <= 1)
                fputc('\n', rep);
        } else {
            if (k)
                fputc('\n', rep);
            if (nloads > 1)
                fprintf(rep, "# load %g\n", loads[k]);
            print_text(J, args.pos[0], pre, &pt, cli_has(&args, "classes"));
            if (interrupted)
                fprintf(rep, "interrupted: the runs above are cut short\n");
        }
        hta_ft_sched_free(&pt.ex.sched);
    }
    if (json && nloads > 1)
        fprintf(rep, "]\n");
    for (int k = 0; k < npoints * nrun; k++)
        hta_ft_result_free(&jobs[k].res);
    free(jobs);
    hta_jobs_free(J);
    st = cli_release(&held, st, &d);
    if (st != HTA_OK)
        return cli_report(st, &d);
    return cli_finish_stdout(interrupted ? cli_interrupt_code() : 0);
}
