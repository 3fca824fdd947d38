/* The solve policy (hta solve as a library call): runs the algorithms in
 * the order asked, feeds fsy's assignment and flow bound to the exact
 * solver, and decides "proven optimal".  The rows are solve_rows.c (the
 * heuristics, brute force, the ILP) and solve_decide.c (gap closing, the
 * SAT decision), over solve_impl.h. */
#include "hta/solve.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/levels.h"
#include "hta/num.h"
#include "hta/reduce.h"
#include "hta/version.h"
#include "core/buf.h"
#include "offline/bounds.h"
#include "exact/brute.h"
#include "exact/satdec.h"

#include "solve_impl.h"

const char *const hta_algo_names[] = {"rr",     "fsy",   "ilp",
                                      "brute",  "close", "sat",
                                      "exact",  "hadoop", "given"};

void hta_solve_opts_default(hta_solve_opts *o)
{
    memset(o, 0, sizeof *o);
    o->algos[0] = HTA_ALGO_RR;
    o->algos[1] = HTA_ALGO_FSY;
    o->nalgos = 2;
    o->seed = 1;
    o->rr_runs = 1;
    o->engine = HTA_MAXFLOW_INCREMENTAL;
    o->prune = 2;
    o->time_limit = 60;
    o->ilp_max_tasks = 20000;
    o->model = HTA_ILP_COMPACT;
    o->ilp_engine = -1;
}

/* A row of an engine that proves (ilp, brute, close, sat, exact). */
static int is_exact_row(const hta_row *row)
{
    static const char *const exact[] = {"ilp", "brute", "close", "sat",
                                        "exact"};
    for (int k = 0; k < 5; k++)
        if (!strcmp(row->algorithm, exact[k]))
            return 1;
    return 0;
}

void hta_solve_bound(hta_solve_result *r, double lb, const char *source)
{
    if (!r->has_lower_bound || lb > r->lower_bound) {
        r->has_lower_bound = 1;
        r->lower_bound = lb;
        snprintf(r->bound_source, sizeof r->bound_source, "%s", source);
    }
}

int hta_solve_best_row(const hta_solve_result *r)
{
    int best = -1;
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].has_value &&
            (best < 0 || r->rows[i].makespan < r->rows[best].makespan))
            best = i;
    return best;
}

int hta_solve_proven(const hta_solve_result *r)
{
    int b = hta_solve_best_row(r);
    if (b < 0)
        return 0;
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].has_value && strcmp(r->rows[i].status, "optimal") == 0 &&
            r->rows[i].makespan <= r->rows[b].makespan)
            return 1;
    if (!r->has_lower_bound)
        return 0;
    double span = r->rows[b].makespan;
    return span - r->lower_bound <= 1e-9 * fmax(1.0, span);
}

double hta_solve_gap(const hta_solve_result *r, double span)
{
    if (!r->has_lower_bound || r->lower_bound <= 0)
        return NAN;
    double g = (span - r->lower_bound) / r->lower_bound;
    return g < 1e-9 ? 0.0 : g;
}

void hta_solve_result_free(hta_solve_result *res)
{
    if (!res)
        return;
    free(res->best);
    res->best = NULL;
}

hta_row *solve_add_row(run *s, hta_algo algo)
{
    hta_row *row = &s->res->rows[s->res->nrows++];
    memset(row, 0, sizeof *row);
    snprintf(row->algorithm, sizeof row->algorithm, "%s",
             hta_algo_names[algo]);
    snprintf(row->status, sizeof row->status, "ok");
    return row;
}

int solve_stopped(const run *s)
{
    return s->o->stop && *s->o->stop;
}

/* Evaluates a into row and keeps it when it is the best so far. */
hta_status solve_finish_row(run *s, hta_row *row, const int32_t *a,
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
    memcpy(row->count, ev.count, sizeof row->count);
    if (ev.makespan < s->res->best_span) {
        s->res->best_span = ev.makespan;
        memcpy(s->res->best, a, (size_t)s->inst->m * sizeof *a);
    }
    hta_eval_free(&ev);
    return HTA_OK;
}

int solve_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The flow bound into res, unless fsy already gave it. */
hta_status solve_flow_bound(run *s, hta_diag *d)
{
    if (s->have_flow)
        return HTA_OK;
    double lb;
    int levels = hta_levels(s->inst) > 2;
    hta_status st = levels ? hta_bound_levels_compute(s->inst, &lb, d) :
                             hta_bound_flow_compute(s->inst, &lb, d);
    if (st == HTA_OK) {
        hta_solve_bound(s->res, lb, levels ? "level flow" : "flow");
        s->have_flow = 1;
    }
    return st;
}

/* 1 when the best so far meets the lower bound. */
int solve_best_proven(const run *s)
{
    const hta_solve_result *r = s->res;
    return r->has_lower_bound && isfinite(r->best_span) &&
           r->best_span - r->lower_bound <= 1e-9 * fmax(1.0, r->best_span);
}

/* The portfolio under one time limit: close (quick: its search and the
 * envelope bound), then GLPK with 3/4 of the time left and sat with the
 * rest (sat first, with half of it, when the instance is over
 * --ilp-max-tasks; GLPK all of it where sat does not apply), each only
 * while the best is not proven; the rows say which engine proved it.  GLPK first:
 * on make bench-exact it proves the 10^4-task Zipf instances that the
 * deficit encoding takes 30 s or more on, and the 20-variable 3SAT
 * reductions it cannot decide; but sat first on an instance that is a
 * 3SAT reduction (hta_reduce_recognize), which sat decides on the
 * formula in milliseconds. */
#define EXACT_ILP_MAX 1000000

/* exact's options for the ILP: --ilp-max-tasks raised to
 * EXACT_ILP_MAX (it only orders the engines), GLPK beside CBC when hta
 * has CBC and no engine was asked for. */
static hta_solve_opts exact_budget(const hta_solve_opts *o)
{
    hta_solve_opts budget = *o;
    budget.ilp_max_tasks = o->ilp_max_tasks > EXACT_ILP_MAX ?
                               o->ilp_max_tasks : EXACT_ILP_MAX;
    if (o->ilp_engine < 0)
        budget.ilp_engine = hta_cbc_available() ? HTA_ILP_ENGINE_BOTH :
                                                  HTA_ILP_ENGINE_GLPK;
    return budget;
}

/* The rows before exact proved the best: exact says so in its own row,
 * no engine run. */
static hta_status exact_proven_row(run *s, hta_diag *d)
{
    const hta_solve_result *r = s->res;
    int b = hta_solve_best_row(r);
    hta_row *row = solve_add_row(s, HTA_ALGO_EXACT);
    char at[32];
    hta_format_real(at, r->best_span);
    snprintf(row->status, sizeof row->status, "optimal");
    snprintf(row->note, sizeof row->note,
             "%s's assignment (%s) meets the lower bound (%s): proven, "
             "no engine needed",
             b >= 0 ? r->rows[b].algorithm : "the best", at,
             r->bound_source);
    return solve_finish_row(s, row, r->best, d);
}

static hta_status run_exact(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_opts budget = exact_budget(o);
    double t0 = hta_clock_now();
    hta_status st = solve_flow_bound(s, d);
    if (st == HTA_OK && solve_best_proven(s))
        return exact_proven_row(s, d);
    if (st == HTA_OK)
        st = solve_run_close(s, d);
    /* sat first, too, on a 3SAT reduction: it decides the formula */
    int ilp_first = s->inst->m <= o->ilp_max_tasks;
    if (st == HTA_OK && ilp_first && !o->sat_generic && !solve_best_proven(s)) {
        hta_reduction *r;
        if ((st = hta_reduce_recognize(s->inst, &r, d)) == HTA_OK && r)
            ilp_first = 0;
        hta_reduce_match_free(r);
    }
    /* --ilp-max-tasks only orders the engines here: above it GLPK runs
     * second, up to EXACT_ILP_MAX tasks (zipf-3k-c1.5 with
     * --ilp-max-tasks 100: 36.5 proven, which close and sat cannot
     * decide; at 10^6 tasks the model takes 350 MB and GLPK's LP does
     * not end in 5 minutes). */
    /* costs other than one integer w_rem (affine, tables, fractional):
     * the general decision first, with 3/4 of the time left, GLPK after
     * it (HDFS Zipf s = 1.5, 500 tasks, affine 3 + 0.0005 r, seed 2:
     * sat proves 16 in 30 s, where close is undecided and GLPK solves 1
     * of its 501 w_rem pieces in 60 s; on tiny instances either is
     * quick); where no sat applies, GLPK gets all of it */
    int sat = hta_satdec_applies(s->inst, NULL, 0) ? 2 :
              hta_satdec_applies_general(s->inst, NULL, 0);
    if (sat == 1)
        ilp_first = 0;
    for (int k = 0; k < 2 && st == HTA_OK; k++) {
        if (solve_best_proven(s) || solve_stopped(s))
            break;
        double left = fmax(0.0, o->time_limit - (hta_clock_now() - t0));
        int ilp = ilp_first == (k == 0);
        budget.time_limit = k == 1 || !sat ? left :
                            ilp || sat == 1 ? 0.75 * left :
                                              0.5 * left;
        s->o = &budget;
        st = ilp ? solve_run_ilp(s, d) : solve_run_sat(s, d);
        s->o = o;
    }
    return st;
}

/* The engines run otherwise on N > 2 levels (close has its own search
 * there, sat FSY's two levels). */
static int two_level_only(hta_algo a)
{
    return a == HTA_ALGO_CLOSE || a == HTA_ALGO_SAT || a == HTA_ALGO_EXACT;
}

static void skip_levels(run *s, hta_algo a, const char *why)
{
    hta_row *row = solve_add_row(s, a);
    snprintf(row->status, sizeof row->status, "skipped");
    snprintf(row->note, sizeof row->note, "%d levels: %s",
             hta_levels(s->inst), why);
}

/* close, sat and exact on N > 2 levels (solve.h): close is the slot
 * search (closelev.h); exact is close, then, while the best is not
 * proven, brute force where it fits, else the N-level ILP (ilplev.h)
 * with the time left, and sat says why it does not run (as on two
 * levels: proven by the rows before, one exact row says so; proven by
 * close, nothing more runs).  exact gives close fsy's assignment
 * (refilled) as its incumbent, run without a row unless fsy ran. */
static hta_status run_levels_exact(run *s, hta_algo a, hta_diag *d)
{
    static const char *const why =
        "the decision's encoding has two levels; not applied";
    double t0 = hta_clock_now();
    hta_status st = solve_flow_bound(s, d);
    if (st != HTA_OK)
        return st;
    if (a == HTA_ALGO_CLOSE)
        return solve_run_close_levels(s, d);
    if (a == HTA_ALGO_SAT) {
        skip_levels(s, a, why);
        return HTA_OK;
    }
    if (solve_best_proven(s))
        return exact_proven_row(s, d);
    /* the search needs an incumbent: without one, it searches for an
     * assignment at the bound that fsy's often already meets (10^6 tasks
     * on racks: 616 s against 5 s) */
    if ((st = solve_incumbent(s, d)) != HTA_OK)
        return st;
    st = solve_run_close_levels(s, d);
    if (st != HTA_OK || solve_best_proven(s) || solve_stopped(s))
        return st;
    if (hta_brute_fits(s->inst)) {
        st = solve_run_brute(s, d);
        if (st == HTA_OK)
            skip_levels(s, HTA_ALGO_SAT, why);
        return st;
    }
    const hta_solve_opts *o = s->o;
    hta_solve_opts budget = exact_budget(o);
    budget.time_limit = fmax(0.0, o->time_limit - (hta_clock_now() - t0));
    s->o = &budget;
    if (st == HTA_OK)
        st = solve_run_ilp(s, d);
    s->o = o;
    if (st == HTA_OK)
        skip_levels(s, HTA_ALGO_SAT, why);
    return st;
}

hta_status hta_solve(const hta_instance *inst, const hta_solve_opts *opts,
                     hta_solve_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    res->inst = inst;
    res->best_span = INFINITY;
    run s = {inst, opts, res, NULL, INFINITY, 0};
    hta_status st = HTA_OK;
    int rows = opts->given != NULL;
    for (int i = 0; i < opts->nalgos && i < HTA_SOLVE_MAX_ROWS; i++)
        rows += opts->algos[i] == HTA_ALGO_EXACT ? 3 : 1;
    if (opts->nalgos < (opts->given ? 0 : 1) ||
        opts->nalgos > HTA_SOLVE_MAX_ROWS || rows > HTA_SOLVE_MAX_ROWS)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected 1 to %d rows (exact counts 3), "
                            "found %d",
                            HTA_SOLVE_MAX_ROWS, opts->nalgos > rows ?
                                                    opts->nalgos : rows);
    for (int i = 0; i < opts->nalgos; i++)
        if (opts->algos[i] == HTA_ALGO_GIVEN)
            return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                                "expected an algorithm, found 'given' (the "
                                "row of opts.given)");
    for (int32_t t = 0; opts->given && t < inst->m; t++)
        if (opts->given[t] < 0 || opts->given[t] >= inst->n_declared)
            return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                                "expected server ids in [0, %ld) in the "
                                "given assignment, found %ld for task %ld",
                                (long)inst->n_declared, (long)opts->given[t],
                                (long)t);
    if (!(res->best = hta_malloc_huge((size_t)inst->m * sizeof *res->best)))
        return OOM(d);
    hta_solve_bound(res, hta_bound_trivial(inst), "ceil(m/n)*w_loc");
    if (opts->given) {
        hta_row *row = solve_add_row(&s, HTA_ALGO_GIVEN);
        snprintf(row->note, sizeof row->note, "the assignment given");
        if ((st = solve_finish_row(&s, row, opts->given, d)) != HTA_OK) {
            free(res->best);
            res->best = NULL;
            return st;
        }
    }
    for (int i = 0; i < opts->nalgos && st == HTA_OK; i++) {
        if (i > 0 && solve_stopped(&s))
            break;
        if (hta_levels(inst) > 2 && two_level_only(opts->algos[i])) {
            st = run_levels_exact(&s, opts->algos[i], d);
            continue;
        }
        switch (opts->algos[i]) {
        case HTA_ALGO_RR:
            st = solve_run_rr(&s, d);
            break;
        case HTA_ALGO_FSY:
            st = solve_run_fsy(&s, d);
            break;
        case HTA_ALGO_ILP:
            st = solve_run_ilp(&s, d);
            break;
        case HTA_ALGO_BRUTE:
            st = solve_run_brute(&s, d);
            break;
        case HTA_ALGO_CLOSE:
            st = solve_run_close(&s, d);
            break;
        case HTA_ALGO_SAT:
            st = solve_run_sat(&s, d);
            break;
        case HTA_ALGO_EXACT:
            st = run_exact(&s, d);
            break;
        case HTA_ALGO_HADOOP:
            st = solve_run_hadoop(&s, d);
            break;
        case HTA_ALGO_GIVEN: /* refused above */
            break;
        }
    }
    if (st == HTA_OK)
        st = solve_flow_bound(&s, d);
    /* every assignment is at least every lower bound */
    for (int i = 0; st == HTA_OK && i < res->nrows; i++)
        assert(!res->rows[i].has_value ||
               res->rows[i].makespan >=
                   res->lower_bound * (1 - 1e-12) - 1e-300);
    res->interrupted = solve_stopped(&s);
    double spent = 0;
    for (int i = 0; i < res->nrows; i++)
        if (is_exact_row(&res->rows[i])) {
            spent += res->rows[i].seconds;
            res->timed_out |= !strcmp(res->rows[i].status, "time_limit");
        }
    res->timed_out |= spent >= 0.9 * opts->time_limit;
    free(s.fsy);
    if (st != HTA_OK || !isfinite(res->best_span)) {
        free(res->best);
        res->best = NULL;
    }
    return st;
}

int hta_solve_why_unproven(const hta_solve_result *r, char *buf, size_t size)
{
    int engines = 0, skipped = 0, is_exact[HTA_SOLVE_MAX_ROWS] = {0};
    size_t n = 0;
    if (size)
        buf[0] = '\0';
    if (hta_solve_proven(r))
        return 0;
    for (int i = 0; i < r->nrows && i < HTA_SOLVE_MAX_ROWS; i++) {
        const hta_row *row = &r->rows[i];
        is_exact[i] = is_exact_row(row);
        engines += is_exact[i];
        skipped += is_exact[i] && strcmp(row->status, "skipped") == 0;
    }
    if (r->interrupted || !engines || (skipped < engines && r->timed_out)) {
        snprintf(buf, size, "%s",
                 r->interrupted ? "interrupted" :
                 !engines       ? "no exact engine ran" :
                                  "time limit");
        return 1;
    }
    /* every engine skipped, or those that ran gave up before the time */
    int w = snprintf(buf, size, "%s",
                     skipped == engines ? "no exact engine applies:" :
                                          "no exact engine decided:");
    n = w > 0 ? (size_t)w : 0;
    for (int i = 0, first = 1; i < r->nrows && n < size; i++) {
        const hta_row *row = &r->rows[i];
        if (!is_exact[i])
            continue;
        if (!strcmp(row->status, "skipped")) /* its note says so */
            w = snprintf(buf + n, size - n, "%s %s (%s)", first ? "" : ",",
                         row->algorithm, row->note);
        else
            w = snprintf(buf + n, size - n, "%s %s %s (%s)",
                         first ? "" : ",", row->algorithm, row->status,
                         row->note);
        n += w > 0 ? (size_t)w : 0;
        first = 0;
    }
    return 1;
}
