/* hta flowtime: map-then-reduce flow time of a job trace under every
 * policy, next to the SRPT lower bound and the exact optimum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/flowtime.h"
#include "hta/jobs.h"
#include "hta/num.h"
#include "chart.h"
#include "cli.h"
#include "pool.h"
#include "report.h"

#define P_EXACT HTA_FT_EXACT

static const cli_opt options[] = {
    {"machines", 'n', OPT_INT, 1, 1000000, 0, 0, 0, NULL, 0, "N",
     "number of machines N"},
    {"load", 0, OPT_REAL, 0, 1, OPT_OPEN_LO, 0, 0, NULL, 0, "RHO",
     "size the cluster for this load: N = ceil(W / (RHO * span)),\n"
     "W the total work, span the slots from the first arrival to\n"
     "the last"},
    {"sweep", 0, OPT_REALS, 0, 1, OPT_OPEN_LO, 3, 3, NULL, 0, "A,B,STEP",
     "run the loads A, A+STEP, ..., B (as --load; A + k STEP to\n"
     "the decimals of A and STEP)"},
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
    {"plot", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE.svg",
     "picture of the mean flow time against the load, a line per\n"
     "policy and the lower bound dashed"},
    {"csv", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "the report as CSV, a row per load and policy (columns in\n"
     "hta-flowtime(1))"},
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

/* The report, kept in memory until the runs end well: an error prints
 * nothing on standard output. */
static FILE *rep;

static void print_ratio(double x, double y)
{
    if (y > 0)
        fprintf(rep, " %8.4f", x / y);
    else
        fprintf(rep, " %8s", "-");
}

/* srpt is the relaxation where map and reduce work may share a slot: a
 * lower bound, not a policy; its rows in the text tables say so after
 * the numbers (JSON, CSV and the chart keep its name, the chart drawing
 * it dashed as the other bound). */
static const char *bound_note(int policy, int classes)
{
    return policy != HTA_FT_SRPT ? "" :
           classes ? "  (a lower bound)" :
                     "  (a lower bound: map and reduce work may share a "
                     "slot)";
}

static void print_text(const hta_jobs *J, const char *name, int pre,
                       const hta_ft_point *pt, int classes)
{
    fprintf(rep, "trace %s: %lld jobs, %lld units of work over %lld slots, %ld "
           "machines, %s, load %.4f\n",
           name, (long long)J->n, (long long)J->work,
           (long long)hta_ft_span(J), (long)pt->N,
           pre ? "preemptive" : "non-preemptive", pt->load);
    double lb = hta_ft_lower_bound(pt);
    double opt = pt->exact_ran && pt->ex.optimal ? (double)pt->ex.value : 0;
    fprintf(rep, "%-8s %14s %12s %8s %8s %8s %9s\n", "policy", "total_flow",
           "mean_flow", "/srpt", "/lb", "/exact", "seconds");
    for (int q = 0; q < pt->nrows; q++) {
        const hta_ft_row *r = &pt->rows[q];
        fprintf(rep, "%-8s %14lld %12.3f", hta_ft_policy_names[r->policy],
               (long long)r->total, (double)r->total / (double)J->n);
        print_ratio((double)r->total, pt->have_srpt ? (double)pt->srpt : 0);
        print_ratio((double)r->total, lb);
        print_ratio((double)r->total, opt);
        fprintf(rep, " %9.3f%s%s\n", r->seconds,
                r->cut ? "  (interrupted)" : "", bound_note(r->policy, 0));
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
    const int64_t *count = pt->class_jobs;
    fprintf(rep, "mean flow time by job size (units of work):\n%-8s", "policy");
    for (int c = 0; c < HTA_FT_NCLASSES; c++)
        if (count[c])
            fprintf(rep, " %11s", hta_ft_class_names[c]);
    fprintf(rep, "\n%-8s", "jobs");
    for (int c = 0; c < HTA_FT_NCLASSES; c++)
        if (count[c])
            fprintf(rep, " %11lld", (long long)count[c]);
    fputc('\n', rep);
    for (int q = 0; q < pt->nrows; q++) {
        fprintf(rep, "%-8s", hta_ft_policy_names[pt->rows[q].policy]);
        for (int c = 0; c < HTA_FT_NCLASSES; c++)
            if (count[c])
                fprintf(rep, " %11.3f", pt->rows[q].cls_sum[c] / (double)count[c]);
        fprintf(rep, "%s\n", bound_note(pt->rows[q].policy, 1));
    }
}

/* asked: the load --load or --sweep asked for the point (NaN with
 * --machines), A + k STEP to the decimals of A and STEP (cli_sweep);
 * pt->load is the load its machine count gives. */
static void json_point(const hta_jobs *J, int pre, const hta_ft_point *pt,
                       double asked)
{
    double lb = hta_ft_lower_bound(pt);
    const int64_t *count = pt->class_jobs;
    fprintf(rep, "{\"jobs\": %lld, \"work\": %lld, \"span\": %lld, "
           "\"machines\": %ld, \"mode\": \"%s\", \"load\": ",
           (long long)J->n, (long long)J->work, (long long)hta_ft_span(J),
           (long)pt->N, pre ? "preemptive" : "non-preemptive");
    json_number(rep, pt->load);
    fprintf(rep, ", \"load_asked\": ");
    json_number(rep, asked);
    fprintf(rep, ", \"lower_bound\": %.0f, \"job_bound_sum\": %lld, "
           "\"interrupted\": %s, \"policies\": [",
           lb, (long long)pt->lbsum, pt->interrupted ? "true" : "false");
    for (int q = 0; q < pt->nrows; q++) {
        const hta_ft_row *r = &pt->rows[q];
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
        for (int c = 0; c < HTA_FT_NCLASSES; c++)
            if (count[c]) {
                fprintf(rep, "%s{\"size\": \"%s\", \"jobs\": %lld, \"mean\": ",
                       first ? "" : ", ", hta_ft_class_names[c],
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

static void csv_row(FILE *f, const hta_jobs *J, const hta_ft_point *pt,
                    double asked, const char *name, int64_t total,
                    const char *status, double seconds)
{
    double lb = hta_ft_lower_bound(pt);
    double opt = pt->exact_ran && pt->ex.optimal ? (double)pt->ex.value : 0;
    csv_number(f, pt->load, 1);
    csv_number(f, asked, 0);
    fprintf(f, ",%ld,%s,%lld", (long)pt->N, name, (long long)total);
    csv_number(f, (double)total / (double)J->n, 0);
    csv_number(f, lb, 0);
    csv_number(f, pt->have_srpt ? (double)total / (double)pt->srpt : NAN, 0);
    csv_number(f, lb > 0 ? (double)total / lb : NAN, 0);
    csv_number(f, opt > 0 ? (double)total / opt : NAN, 0);
    fprintf(f, ",%s", status);
    csv_number(f, seconds, 0);
    fputc('\n', f);
}

static void csv_point(FILE *f, const hta_jobs *J, const hta_ft_point *pt,
                      double asked)
{
    for (int q = 0; q < pt->nrows; q++) {
        const hta_ft_row *r = &pt->rows[q];
        csv_row(f, J, pt, asked, hta_ft_policy_names[r->policy], r->total,
                r->cut ? "interrupted" : "done", r->seconds);
    }
    if (pt->exact_ran && pt->ex.found)
        csv_row(f, J, pt, asked, "exact", pt->ex.value,
                pt->ex.optimal     ? "optimal" :
                pt->interrupted    ? "interrupted" :
                                     "time-limit",
                pt->ex.seconds);
}

/* The chart's series: the policies asked but exact, exact, the lower
 * bound; y[s * npts + k] the mean flow time. */
typedef struct ft_fig {
    const char *names[HTA_FT_NPOLICIES + 2];
    unsigned char dashed[HTA_FT_NPOLICIES + 2];
    int nseries, exact_s, lb_s;
    double *x, *y;
    unsigned char *hollow;
} ft_fig;

static int ft_fig_make(ft_fig *g, const int *pols, int npols,
                       const hta_jobs *J, const int32_t *Ns, int npts)
{
    memset(g, 0, sizeof *g);
    g->exact_s = -1;
    for (int q = 0; q < npols; q++)
        if (pols[q] != P_EXACT) {
            g->dashed[g->nseries] = pols[q] == HTA_FT_SRPT; /* a bound */
            g->names[g->nseries++] = hta_ft_policy_names[pols[q]];
        }
    for (int q = 0; q < npols; q++)
        if (pols[q] == P_EXACT)
            g->names[g->exact_s = g->nseries++] = "exact";
    g->lb_s = g->nseries;
    g->dashed[g->nseries] = 1;
    g->names[g->nseries++] = "lower bound";
    size_t n = (size_t)g->nseries * (size_t)npts;
    g->x = malloc((size_t)npts * sizeof *g->x);
    g->y = malloc(n * sizeof *g->y);
    g->hollow = calloc(n, 1);
    if (!g->x || !g->y || !g->hollow)
        return 0;
    for (size_t k = 0; k < n; k++)
        g->y[k] = NAN;
    for (int k = 0; k < npts; k++)
        g->x[k] = (double)J->work / ((double)Ns[k] * (double)hta_ft_span(J));
    return 1;
}

static void ft_fig_point(ft_fig *g, const hta_jobs *J, const hta_ft_point *pt,
                         int k, int npts)
{
    double jobs = (double)J->n;
    for (int q = 0; q < pt->nrows; q++) {
        g->y[(size_t)q * (size_t)npts + (size_t)k] =
            (double)pt->rows[q].total / jobs;
        g->hollow[(size_t)q * (size_t)npts + (size_t)k] =
            (unsigned char)pt->rows[q].cut;
    }
    if (g->exact_s >= 0 && pt->exact_ran && pt->ex.found) {
        size_t at = (size_t)g->exact_s * (size_t)npts + (size_t)k;
        g->y[at] = (double)pt->ex.value / jobs;
        g->hollow[at] = !pt->ex.optimal;
    }
    g->y[(size_t)g->lb_s * (size_t)npts + (size_t)k] =
        hta_ft_lower_bound(pt) / jobs;
}

static void ft_fig_free(ft_fig *g)
{
    free(g->x);
    free(g->y);
    free(g->hollow);
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
    static const char *const what[] = {"plot", "csv"};
    const char *outs[2] = {cli_str(&args, "plot"), cli_str(&args, "csv")};
    if ((code = cli_files_only(&args, what, outs, 2)) != 0)
        return code;
    if ((code = cli_check_outputs(&args, outs, 2,
                                  (const char *const *)args.pos, 1)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_jobs *J = NULL;
    hta_status st = hta_jobs_parse(args.pos[0], &J, &d);
    if (st != HTA_OK)
        return cli_report(st, &d);
    for (int k = 0; k < nloads; k++)
        if (!(hta_ft_machines_for(J, loads[k]) <= 1e6)) {
            double least = (double)J->work / (1e6 * (double)hta_ft_span(J));
            int rc = cli_usage_error(&args, "--load %g needs %.3g machines for "
                                            "this trace, above the limit "
                                            "10^6: give a load of at least "
                                            "%.3g",
                                     loads[k], hta_ft_machines_for(J, loads[k]),
                                     least);
            hta_jobs_free(J);
            return rc;
        }
    int npoints = nloads ? nloads : 1;
    int json = cli_has(&args, "json"), interrupted = 0;
    int32_t Ns[CLI_MAX_SWEEP];
    for (int k = 0; k < npoints; k++)
        Ns[k] = nloads ? (int32_t)hta_ft_machines_for(J, loads[k]) :
                         (int32_t)cli_value(&args, "machines")->i;
    cli_held held;
    cli_figout fo = {0};
    ft_fig g;
    if (!ft_fig_make(&g, pols, npols, J, Ns, npoints))
        st = hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    if (st == HTA_OK && (st = cli_figout_open(&fo, outs[0], outs[1], &d)) ==
                            HTA_OK && cli_figout_csv(&fo))
        fputs("load,load_asked,machines,policy,total_flow,mean_flow,"
              "lower_bound,"
              "ratio_srpt,ratio_lb,ratio_exact,status,seconds\n",
              cli_figout_csv(&fo));
    if (st == HTA_OK && (st = cli_hold(&held, &d)) != HTA_OK)
        cli_figout_abort(&fo);
    if (st != HTA_OK) {
        ft_fig_free(&g);
        hta_jobs_free(J);
        return cli_report(st, &d);
    }
    rep = held.f;
    /* from here a signal ends the runs early (before, while an output
     * that is a FIFO waits for its reader, it ends the command) */
    cli_poll_interrupts();
    /* every point's runs but exact on the pool, then point by point */
    const cli_val *mv = cli_value(&args, "exact-max-vars");
    const cli_val *tl = cli_value(&args, "time-limit");
    cli_progress progress = {0, 0};
    hta_ft_points_opts po = {{0}, npols, pre, cli_has(&args, "stepwise"),
                             cli_has(&args, "verbose"),
                             mv->given ? mv->i : 2000,
                             tl->given ? tl->x : 60.0, cli_threads(&args),
                             &cli_interrupted,
                             cli_pool_progress_fn(cli_has(&args, "quiet")),
                             cli_pool_line_get(),
                             cli_progress_fn(cli_has(&args, "quiet")),
                             &progress};
    memcpy(po.pols, pols, (size_t)npols * sizeof *pols);
    hta_ft_point *pts = calloc((size_t)npoints, sizeof *pts);
    int done = 0;
    st = pts ? hta_ft_points(J, &po, Ns, npoints, pts, &done, &d) :
               hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    cli_pool_line_end();
    cli_progress_end(&progress);
    if (json && nloads > 1)
        fprintf(rep, "[");
    for (int k = 0; k < done; k++) {
        hta_ft_point *pt = &pts[k];
        interrupted = pt->interrupted;
        if (cli_has(&args, "no-timing")) {
            for (int q = 0; q < pt->nrows; q++)
                pt->rows[q].seconds = 0;
            pt->ex.seconds = 0;
        }
        if (json) {
            if (k)
                fprintf(rep, ", ");
            json_point(J, pre, pt, nloads ? loads[k] : NAN);
            if (nloads <= 1)
                fputc('\n', rep);
        } else {
            if (k)
                fputc('\n', rep);
            if (nloads > 1)
                fprintf(rep, "# load %g\n", loads[k]);
            print_text(J, args.pos[0], pre, pt, cli_has(&args, "classes"));
            if (interrupted)
                fprintf(rep, "interrupted: the runs above are cut short\n");
        }
        if (cli_figout_csv(&fo))
            csv_point(cli_figout_csv(&fo), J, pt, nloads ? loads[k] : NAN);
        ft_fig_point(&g, J, pt, k, npoints);
        hta_ft_point_free(pt);
    }
    free(pts);
    if (json && nloads > 1)
        fprintf(rep, "]\n");
    if (st == HTA_OK) {
        char title[256];
        snprintf(title, sizeof title, "hta flowtime %s: mean flow time "
                 "against the load", args.pos[0]);
        hta_chart ch = {title, pre ? "preemptive" : "non-preemptive",
                        "load (the trace's work over machines times span)",
                        "mean flow time (slots)", g.nseries, npoints,
                        g.names, g.dashed, g.x, g.y, NULL, g.hollow,
                        "cut short, or exact not proven optimal", NAN, NULL};
        st = cli_figout_commit(&fo, &ch, &d);
    }
    cli_figout_abort(&fo);
    ft_fig_free(&g);
    hta_jobs_free(J);
    st = cli_release(&held, st, &d);
    if (st != HTA_OK)
        return cli_report(st, &d);
    return cli_finish_stdout(interrupted ? cli_interrupt_code() : 0);
}
