/* hta solve: runs the chosen algorithms on one instance and reports
 * makespans, the lower bound and the gaps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hta/assign.h"
#include "hta/bounds.h"
#include "hta/brute.h"
#include "hta/fsy.h"
#include "hta/ilp.h"
#include "hta/outfile.h"
#include "plot.h"
#include "report.h"
#include "hta/rr.h"

static const char usage[] =
    "hta solve INSTANCE [--algo LIST] [--seed S] [--rr-runs K] [--json] "
    "[-o ASSIGNMENT] [--maxflow igraph|incremental] [--no-prune] [--trace] "
    "[--no-timing] [--time-limit SECONDS] [--ilp-max-tasks M] [--verbose] "
    "[--write-lp FILE] [--plot FILE.svg]";

static const char help[] =
    "\nRuns the algorithms of LIST (comma-separated, default rr,fsy) and\n"
    "prints one row each, a lower bound on the optimum and the gaps.\n"
    "\n"
    "  --algo LIST        rr     round robin (Algorithm 1)\n"
    "                     fsy    max-cover + bal-assign (Algorithm 2)\n"
    "                     ilp    exact optimum by GLPK (ilp.h)\n"
    "                     brute  exhaustive search, tiny instances only\n"
    "  --seed S           round robin with random choices drawn from S\n"
    "  --rr-runs K        K randomized round-robin runs (seeds S..S+K-1);\n"
    "                     the row reports the best, the note min/median/max\n"
    "  --json             the report as JSON (README, \"JSON report\")\n"
    "  -o, --output FILE  write the best assignment found (atomically)\n"
    "  --maxflow ENGINE   max-cover engine: incremental (default) or igraph\n"
    "  --no-prune         fsy tries every tau = 1..m\n"
    "  --trace            print tau, f(tau), w_rem^alpha, L^B per tau on "
    "stderr\n"
    "  --no-timing        report 0 seconds (reproducible output)\n"
    "  --time-limit S     ilp: stop after S seconds (default 60)\n"
    "  --ilp-max-tasks M  ilp: skip instances of more than M tasks\n"
    "                     (default 20000)\n"
    "  --verbose          ilp: GLPK's progress on stderr\n"
    "  --write-lp FILE    ilp: the model in CPLEX LP format\n"
    "  --plot FILE.svg    per-server loads of the best assignment\n"
    "  --ilp-plain        ilp: no incumbent, no bound (benchmarks)\n"
    "  --ilp-naive        ilp: one binary per task-server pair (benchmarks)\n";

static const cli_option options[] = {
    {"algo", 0, 1},    {"seed", 0, 1},     {"rr-runs", 0, 1},
    {"json", 0, 0},    {"output", 'o', 1}, {"maxflow", 0, 1},
    {"no-prune", 0, 0}, {"trace", 0, 0},   {"literal-balance", 0, 0},
    {"no-timing", 0, 0}, {"time-limit", 0, 1}, {"ilp-max-tasks", 0, 1},
    {"verbose", 0, 0},   {"write-lp", 0, 1},   {"ilp-plain", 0, 0},
    {"ilp-naive", 0, 0}, {"plot", 0, 1},
};

typedef struct solve {
    const hta_instance *inst;
    hta_report report;
    int32_t *best;      /* best assignment over all rows */
    double best_span;
    int32_t *fsy;       /* the fsy assignment, when fsy ran */
    double fsy_span;
    double flow_bound;  /* from fsy, or 0 */
} solve;

static hta_row *add_row(solve *s, const char *algo)
{
    hta_row *row = &s->report.rows[s->report.nrows++];
    memset(row, 0, sizeof *row);
    snprintf(row->algorithm, sizeof row->algorithm, "%s", algo);
    snprintf(row->status, sizeof row->status, "ok");
    return row;
}

/* Evaluates a into row and keeps it when it is the best so far. */
static hta_status finish_row(solve *s, hta_row *row, const int32_t *a,
                             hta_diag *d)
{
    hta_eval ev;
    hta_status st = hta_eval_run(s->inst, a, &ev, d);
    if (st != HTA_OK)
        return st;
    row->has_value = 1;
    row->makespan = ev.makespan;
    row->local = ev.local;
    row->remote = ev.remote;
    if (ev.makespan < s->best_span) {
        s->best_span = ev.makespan;
        memcpy(s->best, a, (size_t)s->inst->m * sizeof *a);
    }
    hta_eval_free(&ev);
    return HTA_OK;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static hta_status run_rr(solve *s, const cli_args *args, hta_diag *d)
{
    int64_t seed = 1, runs = 1;
    int randomized = cli_has(args, "seed") || cli_has(args, "rr-runs");
    if (!cli_int(args, "seed", 0, INT64_MAX, &seed) ||
        !cli_int(args, "rr-runs", 1, 1000000, &runs))
        return HTA_ERR_USAGE;
    hta_row *row = add_row(s, "rr");
    double t0 = cli_now();
    int32_t m = s->inst->m;
    int32_t *a = malloc((size_t)m * sizeof *a);
    int32_t *keep = malloc((size_t)m * sizeof *keep);
    double *spans = malloc((size_t)runs * sizeof *spans);
    hta_status st = HTA_OK;
    if (!a || !keep || !spans) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    double best = INFINITY;
    for (int64_t i = 0; i < runs; i++) {
        if ((st = hta_rr_run(s->inst, randomized, (uint64_t)(seed + i), a,
                             d)) != HTA_OK)
            goto cleanup;
        hta_eval ev;
        if ((st = hta_eval_run(s->inst, a, &ev, d)) != HTA_OK)
            goto cleanup;
        spans[i] = ev.makespan;
        hta_eval_free(&ev);
        if (spans[i] < best) {
            best = spans[i];
            memcpy(keep, a, (size_t)m * sizeof *a);
        }
    }
    if ((st = finish_row(s, row, keep, d)) != HTA_OK)
        goto cleanup;
    if (runs > 1) {
        qsort(spans, (size_t)runs, sizeof *spans, cmp_double);
        char lo[32], med[32], hi[32];
        hta_format_real(lo, spans[0]);
        hta_format_real(med, runs % 2 ? spans[runs / 2] :
                                        0.5 * (spans[runs / 2 - 1] +
                                               spans[runs / 2]));
        hta_format_real(hi, spans[runs - 1]);
        snprintf(row->note, sizeof row->note,
                 "%lld runs, seeds %lld..%lld: min %s median %s max %s",
                 (long long)runs, (long long)seed,
                 (long long)(seed + runs - 1), lo, med, hi);
    } else if (randomized) {
        snprintf(row->note, sizeof row->note, "seed %lld", (long long)seed);
    } else {
        snprintf(row->note, sizeof row->note, "deterministic order");
    }
cleanup:
    row->seconds = cli_now() - t0;
    free(a);
    free(keep);
    free(spans);
    return st;
}

static void print_step(void *ctx, const hta_fsy_step *step)
{
    (void)ctx;
    char c[32], span[32];
    hta_format_real(c, step->w_rem_alpha);
    if (isnan(step->makespan))
        snprintf(span, sizeof span, "-");
    else
        hta_format_real(span, step->makespan);
    fprintf(stderr, "tau %lld f %lld w_rem_alpha %s L_B %s%s%s\n",
            (long long)step->tau, (long long)step->f, c, span,
            step->note ? "  # " : "", step->note ? step->note : "");
}

static hta_status run_fsy(solve *s, const cli_args *args, hta_diag *d)
{
    hta_fsy_opts opts = {HTA_MAXFLOW_INCREMENTAL, !cli_has(args, "no-prune"),
                         cli_has(args, "literal-balance"), NULL, NULL};
    const char *engine = cli_get(args, "maxflow");
    if (engine && strcmp(engine, "igraph") == 0)
        opts.engine = HTA_MAXFLOW_IGRAPH;
    else if (engine && strcmp(engine, "incremental") != 0)
        return cli_usage_error(args, "--maxflow expects 'igraph' or "
                                     "'incremental', found '%s'",
                               engine);
    if (cli_has(args, "trace"))
        opts.trace = print_step;
    hta_row *row = add_row(s, "fsy");
    double t0 = cli_now();
    int32_t *a = malloc((size_t)s->inst->m * sizeof *a);
    hta_fsy_result res;
    hta_status st = HTA_OK;
    if (!a) {
        row->seconds = cli_now() - t0;
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    if ((st = hta_fsy_run(s->inst, &opts, a, &res, d)) == HTA_OK) {
        st = finish_row(s, row, a, d);
        hta_report_bound(&s->report, res.lower_bound, "flow");
        s->flow_bound = res.lower_bound;
        s->fsy_span = row->makespan;
        free(s->fsy);
        s->fsy = a;
        a = NULL;
        snprintf(row->note, sizeof row->note,
                 "tau %lld, %lld of %lld taus balanced, %s max-flow",
                 (long long)res.best_tau, (long long)res.balanced,
                 (long long)res.K,
                 opts.engine == HTA_MAXFLOW_IGRAPH ? "igraph" : "incremental");
        hta_fsy_result_free(&res);
    }
    row->seconds = cli_now() - t0;
    s->report.has_guarantee = 1;
    s->report.guarantee = hta_bound_fsy_additive(s->inst);
    free(a);
    return st;
}

static hta_status run_brute(solve *s, hta_diag *d)
{
    hta_row *row = add_row(s, "brute");
    double t0 = cli_now();
    if (!hta_brute_fits(s->inst)) {
        snprintf(row->status, sizeof row->status, "skipped");
        snprintf(row->note, sizeof row->note,
                 "too large: n^m > %.0f assignments",
                 HTA_BRUTE_MAX_ASSIGNMENTS);
        return HTA_OK;
    }
    int32_t *a = malloc((size_t)s->inst->m * sizeof *a);
    if (!a)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    hta_status st = hta_brute_run(s->inst, a, d);
    if (st == HTA_OK)
        st = finish_row(s, row, a, d);
    row->seconds = cli_now() - t0;
    if (st == HTA_OK) {
        snprintf(row->status, sizeof row->status, "optimal");
        snprintf(row->note, sizeof row->note, "exhaustive search");
        hta_report_bound(&s->report, row->makespan, "brute force");
    }
    free(a);
    return st;
}

static hta_status run_ilp(solve *s, const cli_args *args, hta_diag *d)
{
    double limit = 60;
    int64_t max_tasks = 20000;
    if (!cli_real(args, "time-limit", 0.0, &limit) ||
        !cli_int(args, "ilp-max-tasks", 1, HTA_MAX_TASKS, &max_tasks))
        return HTA_ERR_USAGE;
    hta_row *row = add_row(s, "ilp");
    double t0 = cli_now();
    hta_status st = HTA_OK;
    int plain = cli_has(args, "ilp-plain");
    /* The incumbent and the bound come from fsy, run here if needed. */
    if (!plain && !s->fsy && s->inst->m <= max_tasks) {
        hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 1, 0, NULL, NULL};
        hta_fsy_result res;
        s->fsy = malloc((size_t)s->inst->m * sizeof *s->fsy);
        if (!s->fsy)
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory");
        if ((st = hta_fsy_run(s->inst, &fo, s->fsy, &res, d)) != HTA_OK)
            return st;
        s->flow_bound = res.lower_bound;
        hta_report_bound(&s->report, res.lower_bound, "flow");
        hta_fsy_result_free(&res);
    }
    hta_ilp_opts io = {limit,
                       max_tasks,
                       cli_has(args, "verbose"),
                       plain,
                       cli_has(args, "ilp-naive") ? HTA_ILP_NAIVE :
                                                    HTA_ILP_COMPACT,
                       cli_get(args, "write-lp"),
                       plain ? NULL : s->fsy,
                       s->report.has_lower_bound ? s->report.lower_bound : 0,
                       &cli_interrupted};
    int32_t *a = malloc((size_t)s->inst->m * sizeof *a);
    hta_ilp_result res;
    if (!a)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    st = hta_ilp_solve(s->inst, &io, a, &res, d);
    if (st == HTA_OK) {
        static const char *const names[] = {"optimal", "feasible",
                                            "time_limit", "skipped"};
        snprintf(row->status, sizeof row->status, "%s", names[res.status]);
        if (isfinite(res.makespan))
            st = finish_row(s, row, a, d);
        if (res.status == HTA_ILP_FEASIBLE || res.status == HTA_ILP_OPTIMAL)
            hta_report_bound(&s->report, res.bound, "ilp");
        if (res.status == HTA_ILP_FEASIBLE) {
            char b[32];
            hta_format_real(b, res.bound);
            snprintf(row->note, sizeof row->note, "bound %s; %s", b,
                     res.detail);
        } else {
            snprintf(row->note, sizeof row->note, "%s", res.detail);
        }
    }
    row->seconds = cli_now() - t0;
    free(a);
    return st;
}

static const char *const known_algos[] = {"rr", "fsy", "ilp", "brute"};

int cmd_solve(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, argc, argv, "solve", usage, help, options,
                   (int)(sizeof options / sizeof options[0]), 1, 1, &code))
        return code;
    const char *list = cli_get(&args, "algo");
    if (!list)
        list = "rr,fsy";
    /* Validate the whole list before any work. */
    char algos[HTA_REPORT_MAX_ROWS][16];
    int nalgos = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        size_t k, nk = sizeof known_algos / sizeof known_algos[0];
        for (k = 0; k < nk; k++)
            if (strlen(known_algos[k]) == len &&
                strncmp(known_algos[k], p, len) == 0)
                break;
        if (k == nk || nalgos == HTA_REPORT_MAX_ROWS)
            return cli_usage_error(&args, "--algo expects a list of rr, fsy, "
                                          "ilp, brute, found '%s'",
                                   list);
        snprintf(algos[nalgos++], sizeof algos[0], "%s", known_algos[k]);
        p += len + (p[len] == ',');
    }
    if (nalgos == 0)
        return cli_usage_error(&args, "--algo expects at least one algorithm");

    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    cli_catch_interrupt();
    hta_status st = hta_instance_parse(args.pos[0], &inst, &d);
    if (st != HTA_OK)
        return cli_report(st, &d);
    solve s;
    memset(&s, 0, sizeof s);
    s.inst = inst;
    s.report.inst = inst;
    s.report.path = args.pos[0];
    s.best_span = INFINITY;
    s.best = malloc((size_t)inst->m * sizeof *s.best);
    hta_outfile out = {0};
    if (!s.best) {
        st = hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    hta_report_bound(&s.report, hta_bound_trivial(inst), "ceil(m/n)*w_loc");
    int have_flow = 0;
    for (int i = 0; i < nalgos && st == HTA_OK; i++) {
        if (strcmp(algos[i], "rr") == 0)
            st = run_rr(&s, &args, &d);
        else if (strcmp(algos[i], "fsy") == 0)
            st = run_fsy(&s, &args, &d), have_flow = 1;
        else if (strcmp(algos[i], "ilp") == 0)
            st = run_ilp(&s, &args, &d);
        else
            st = run_brute(&s, &d);
    }
    if (st != HTA_OK)
        goto cleanup;
    if (!have_flow) {
        double lb;
        if ((st = hta_bound_flow_compute(inst, &lb, &d)) != HTA_OK)
            goto cleanup;
        hta_report_bound(&s.report, lb, "flow");
    }
    const char *path = cli_get(&args, "output");
    if (path && isfinite(s.best_span)) {
        if ((st = hta_outfile_open(&out, path, &d)) != HTA_OK ||
            (st = hta_assign_write(inst, s.best, out.f)) != HTA_OK ||
            (st = hta_outfile_commit(&out, &d)) != HTA_OK) {
            if (st == HTA_ERR_IO && !d.msg[0])
                hta_diag_set(&d, st, path, 0, "write error");
            goto cleanup;
        }
    }
    const char *plot = cli_get(&args, "plot");
    if (plot && isfinite(s.best_span)) {
        hta_eval ev;
        char title[200];
        int b = hta_report_best(&s.report);
        snprintf(title, sizeof title, "%s: %s, makespan %.6g%s", args.pos[0],
                 s.report.rows[b].algorithm, s.best_span,
                 hta_report_proven(&s.report) ? " (proven optimal)" : "");
        if ((st = hta_eval_run(inst, s.best, &ev, &d)) != HTA_OK)
            goto cleanup;
        hta_outfile po;
        if ((st = hta_outfile_open(&po, plot, &d)) == HTA_OK &&
            (st = hta_plot_loads(inst, &ev,
                                 s.report.has_lower_bound ?
                                     s.report.lower_bound : 0,
                                 title, po.f)) == HTA_OK)
            st = hta_outfile_commit(&po, &d);
        else if (st != HTA_OK && !d.msg[0])
            hta_diag_set(&d, st, plot, 0, "write error");
        hta_outfile_abort(&po);
        hta_eval_free(&ev);
        if (st != HTA_OK)
            goto cleanup;
    }
    if (cli_has(&args, "no-timing"))
        for (int i = 0; i < s.report.nrows; i++)
            s.report.rows[i].seconds = 0.0;
    if (cli_has(&args, "json"))
        hta_report_json(&s.report, stdout);
    else
        hta_report_text(&s.report, stdout);
cleanup:
    hta_outfile_abort(&out);
    if (st != HTA_OK) {
        if (st == HTA_ERR_USAGE && !d.msg[0])
            code = st;
        else
            code = cli_report(st, &d);
    }
    free(s.best);
    free(s.fsy);
    hta_instance_free(inst);
    return code;
}
