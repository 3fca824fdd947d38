/* The solve policy (hta solve as a library call): runs the algorithms in
 * the order asked, feeds fsy's assignment and flow bound to the exact
 * solver, and decides "proven optimal". */
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
#include "core/cbcx.h"
#include "offline/bounds.h"
#include "offline/brute.h"
#include "offline/close.h"
#include "offline/envelope.h"
#include "offline/hadoop.h"
#include "offline/refill.h"
#include "offline/rr.h"
#include "offline/satdec.h"

const char *const hta_algo_names[] = {"rr",    "fsy", "ilp",   "brute",
                                      "close", "sat", "exact", "hadoop"};

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

/* The state of one run, beside the result. */
typedef struct run {
    const hta_instance *inst;
    const hta_solve_opts *o;
    hta_solve_result *res;
    int32_t *fsy;       /* the fsy assignment, once fsy ran */
    double fsy_span;    /* its makespan */
    int have_flow;      /* the flow bound is in res */
} run;

static hta_row *add_row(run *s, hta_algo algo)
{
    hta_row *row = &s->res->rows[s->res->nrows++];
    memset(row, 0, sizeof *row);
    snprintf(row->algorithm, sizeof row->algorithm, "%s",
             hta_algo_names[algo]);
    snprintf(row->status, sizeof row->status, "ok");
    return row;
}

static int stopped(const run *s)
{
    return s->o->stop && *s->o->stop;
}

/* Evaluates a into row and keeps it when it is the best so far. */
static hta_status finish_row(run *s, hta_row *row, const int32_t *a,
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

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

#define OOM(d) hta_diag_set((d), HTA_ERR_INTERNAL, NULL, 0, "out of memory")

static hta_status run_rr(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    int64_t runs = o->rr_runs > 0 ? o->rr_runs : 1;
    hta_row *row = add_row(s, HTA_ALGO_RR);
    double t0 = hta_clock_now();
    int32_t m = s->inst->m;
    int32_t *a = malloc((size_t)m * sizeof *a);
    int32_t *keep = malloc((size_t)m * sizeof *keep);
    double *spans = malloc((size_t)runs * sizeof *spans);
    hta_status st = HTA_OK;
    if (!a || !keep || !spans) {
        st = OOM(d);
        goto cleanup;
    }
    double best = INFINITY;
    int64_t done = 0;
    for (; done < runs && !(done > 0 && stopped(s)); done++) {
        if ((st = hta_rr_run(s->inst, o->rr_randomized, o->seed + (uint64_t)done,
                             a, d)) != HTA_OK)
            goto cleanup;
        hta_eval ev;
        if ((st = hta_eval_run(s->inst, a, &ev, d)) != HTA_OK)
            goto cleanup;
        spans[done] = ev.makespan;
        hta_eval_free(&ev);
        if (spans[done] < best) {
            best = spans[done];
            memcpy(keep, a, (size_t)m * sizeof *a);
        }
    }
    if ((st = finish_row(s, row, keep, d)) != HTA_OK)
        goto cleanup;
    if (done < runs)
        snprintf(row->status, sizeof row->status, "interrupted");
    if (runs > 1) {
        qsort(spans, (size_t)done, sizeof *spans, cmp_double);
        char lo[32], med[32], hi[32];
        hta_format_real(lo, spans[0]);
        hta_format_real(med, done % 2 ? spans[done / 2] :
                                        0.5 * (spans[done / 2 - 1] +
                                               spans[done / 2]));
        hta_format_real(hi, spans[done - 1]);
        snprintf(row->note, sizeof row->note,
                 "%lld runs, seeds %llu..%llu: min %s median %s max %s",
                 (long long)done, (unsigned long long)o->seed,
                 (unsigned long long)(o->seed + (uint64_t)done - 1), lo, med,
                 hi);
    } else if (o->rr_randomized) {
        snprintf(row->note, sizeof row->note, "seed %llu",
                 (unsigned long long)o->seed);
    } else {
        snprintf(row->note, sizeof row->note, "deterministic order");
    }
cleanup:
    row->seconds = hta_clock_now() - t0;
    free(a);
    free(keep);
    free(spans);
    return st;
}

/* fsy with the given options into s->fsy; the flow bound into res. */
static hta_status fsy_into(run *s, const hta_fsy_opts *fo,
                           hta_fsy_result *fr, hta_diag *d)
{
    if (!s->fsy &&
        !(s->fsy = hta_malloc_huge((size_t)s->inst->m * sizeof *s->fsy)))
        return OOM(d);
    /* on N levels fsy runs on the two-level view (fsy.h) */
    hta_status st = hta_fsy_run(s->inst, fo, s->fsy, fr, d);
    if (st != HTA_OK)
        return st;
    s->fsy_span = fr->makespan;
    if (hta_levels(s->inst) > 2)
        return HTA_OK; /* its flow bound prices every non-local task at
                          w_rem: not a bound on N levels */
    hta_solve_bound(s->res, fr->lower_bound, "flow");
    s->have_flow = 1;
    return HTA_OK;
}

/* fsy's other views (refill.h) after the refill, without tracing. */
static hta_status refill_views(run *s, const hta_fsy_opts *fo, int32_t *a,
                               double *span, int *view, hta_diag *d)
{
    hta_fsy_opts quiet = *fo;
    quiet.trace = NULL;
    quiet.trace_ctx = NULL;
    quiet.progress = NULL;
    return hta_refill_views(s->inst, &quiet, a, span, view, d);
}

/* fsy on N levels: the rack-aware refill of fsy's assignment (refill.h)
 * and of fsy's other views into the row, which keeps the best. */
static hta_status run_refill(run *s, hta_row *row, const hta_fsy_opts *fo,
                             hta_diag *d)
{
    if (s->res->has_lower_bound && s->fsy_span <= s->res->lower_bound) {
        /* priced per level, fsy's assignment costs at most its two-level
           makespan (w_l(r_l) <= w_rem(r_l) <= w_rem(r)): at the bound,
           nothing is better */
        hta_status st = finish_row(s, row, s->fsy, d);
        snprintf(row->note, sizeof row->note,
                 "%d levels: fsy's assignment (racks ignored) meets the "
                 "lower bound; no refill",
                 hta_levels(s->inst));
        s->fsy_span = row->makespan;
        return st;
    }
    int32_t *a = malloc(((size_t)s->inst->m + 1) * sizeof *a);
    if (!a)
        return OOM(d);
    hta_refill_result rr;
    hta_status st = hta_refill_run(s->inst, s->fsy, a, &rr, d);
    int view = 0;
    double span = rr.makespan;
    if (st == HTA_OK &&
        !(s->res->has_lower_bound && span <= s->res->lower_bound))
        st = refill_views(s, fo, a, &span, &view, d);
    if (st == HTA_OK)
        st = finish_row(s, row, a, d);
    if (st == HTA_OK) {
        char x[32], y[32];
        hta_format_real(x, rr.start_span);
        hta_format_real(y, rr.makespan);
        static const char *const from[] = {
            "fsy's", "a pass from fsy's local tasks",
            "a second pass from fsy's local tasks", "a pass from nothing",
            "a second pass from nothing"};
        snprintf(row->note, sizeof row->note,
                 "%d levels: fsy's assignment (racks ignored) %s, refilled "
                 "rack-aware %s (%s kept, then %d move%s)",
                 hta_levels(s->inst), x, y, from[rr.chosen], rr.moves,
                 rr.moves == 1 ? "" : "s");
        if (view) {
            size_t len = strlen(row->note);
            hta_format_real(y, span);
            snprintf(row->note + len, sizeof row->note - len,
                     "; fsy's view with level %d's cost for w_rem, "
                     "refilled: %s, kept",
                     view, y);
        }
        /* the refill is what later rows start from */
        memcpy(s->fsy, a, (size_t)s->inst->m * sizeof *a);
        s->fsy_span = row->makespan;
    }
    free(a);
    return st;
}

/* The refill of fsy's assignment in place, without a row (the ILP's
 * incumbent on N levels). */
static hta_status refill_into(run *s, hta_diag *d)
{
    int32_t *a = malloc(((size_t)s->inst->m + 1) * sizeof *a);
    if (!a)
        return OOM(d);
    hta_refill_result rr;
    hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 2, 0, NULL, NULL, NULL, NULL};
    int view = 0;
    hta_status st = hta_refill_run(s->inst, s->fsy, a, &rr, d);
    double span = rr.makespan;
    if (st == HTA_OK)
        st = hta_refill_views(s->inst, &fo, a, &span, &view, d);
    if (st == HTA_OK) {
        memcpy(s->fsy, a, (size_t)s->inst->m * sizeof *a);
        s->fsy_span = span;
    }
    free(a);
    return st;
}

static hta_status run_fsy(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_fsy_opts fo = {o->engine,        o->prune,        o->literal_balance,
                       o->trace,         o->trace_ctx,    o->progress,
                       o->progress_ctx};
    hta_row *row = add_row(s, HTA_ALGO_FSY);
    double t0 = hta_clock_now();
    hta_fsy_result fr;
    hta_status st = fsy_into(s, &fo, &fr, d);
    if (st == HTA_OK && hta_levels(s->inst) > 2) {
        st = run_refill(s, row, &fo, d);
        hta_fsy_result_free(&fr);
        row->seconds = hta_clock_now() - t0;
        return st;
    }
    if (st == HTA_OK) {
        st = finish_row(s, row, s->fsy, d);
        const char *engine =
            o->engine == HTA_MAXFLOW_IGRAPH ? "igraph" : "incremental";
        if (fr.spread)
            snprintf(row->note, sizeof row->note,
                     "tau 1 at once, at most one task a server (m <= n; "
                     "f(1) <= %lld servers holding a replica, f(k) by "
                     "degrees), no max-flow",
                     (long long)fr.f[1]);
        else if (fr.jumped)
            snprintf(row->note, sizeof row->note,
                     "tau %lld at once, every task covered (f(%lld) <= "
                     "%lld < m by degrees), %s max-flow",
                     (long long)fr.jumped, (long long)fr.jumped - 1,
                     (long long)fr.f[fr.jumped - 1], engine);
        else
            snprintf(row->note, sizeof row->note,
                     "tau %lld, %lld of %lld taus balanced, %s max-flow",
                     (long long)fr.best_tau, (long long)fr.balanced,
                     (long long)fr.K, engine);
        hta_fsy_result_free(&fr);
    }
    row->seconds = hta_clock_now() - t0;
    s->res->has_guarantee = 1;
    s->res->guarantee = hta_bound_fsy_additive(s->inst);
    return st;
}

static hta_status run_hadoop(run *s, hta_diag *d)
{
    hta_row *row = add_row(s, HTA_ALGO_HADOOP);
    double t0 = hta_clock_now();
    int32_t *a = malloc(((size_t)s->inst->m + 1) * sizeof *a);
    if (!a)
        return OOM(d);
    hta_status st = hta_hadoop_run(s->inst, a, d);
    if (st == HTA_OK)
        st = finish_row(s, row, a, d);
    snprintf(row->note, sizeof row->note,
             "%d levels: each free server takes the closest task it can",
             hta_levels(s->inst));
    row->seconds = hta_clock_now() - t0;
    free(a);
    return st;
}

static hta_status run_brute(run *s, hta_diag *d)
{
    hta_row *row = add_row(s, HTA_ALGO_BRUTE);
    double t0 = hta_clock_now();
    if (!hta_brute_fits(s->inst)) {
        snprintf(row->status, sizeof row->status, "skipped");
        snprintf(row->note, sizeof row->note,
                 "too large: n^m * (n+1) > %.0f steps", HTA_BRUTE_MAX_WORK);
        return HTA_OK;
    }
    int32_t *a = malloc((size_t)s->inst->m * sizeof *a);
    if (!a)
        return OOM(d);
    int complete = 0;
    hta_status st = hta_brute_run(s->inst, s->o->stop, a, &complete, d);
    if (st == HTA_OK)
        st = finish_row(s, row, a, d);
    row->seconds = hta_clock_now() - t0;
    if (st == HTA_OK && complete) {
        snprintf(row->status, sizeof row->status, "optimal");
        snprintf(row->note, sizeof row->note, "exhaustive search");
        hta_solve_bound(s->res, row->makespan, "brute force");
    } else if (st == HTA_OK) {
        snprintf(row->status, sizeof row->status, "interrupted");
        snprintf(row->note, sizeof row->note,
                 "exhaustive search stopped: best so far");
    }
    free(a);
    return st;
}

static hta_status run_ilp(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_row *row = add_row(s, HTA_ALGO_ILP);
    double t0 = hta_clock_now();
    hta_status st = HTA_OK;
    /* The incumbent and the bound come from fsy, run here if needed. */
    if (!o->ilp_plain && !s->fsy && s->inst->m <= o->ilp_max_tasks) {
        hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 2, 0, NULL, NULL,
                           s->o->progress, s->o->progress_ctx};
        hta_fsy_result fr;
        if ((st = fsy_into(s, &fo, &fr, d)) != HTA_OK)
            return st;
        hta_fsy_result_free(&fr);
        if (hta_levels(s->inst) > 2 && (st = refill_into(s, d)) != HTA_OK)
            return st;
    }
    /* the incumbent: the best so far (a close row may beat fsy) */
    const int32_t *incumbent =
        s->fsy && s->res->best_span < s->fsy_span ? s->res->best : s->fsy;
    hta_ilp_opts io = {o->time_limit,
                       o->ilp_max_tasks,
                       o->verbose,
                       o->ilp_plain,
                       o->model,
                       /* close's certificate, when it wrote one, stays */
                       s->res->lp_written ? NULL : o->write_lp,
                       o->ilp_plain ? NULL : incumbent,
                       s->res->has_lower_bound ? s->res->lower_bound : 0,
                       o->stop,
                       o->progress,
                       o->progress_ctx,
                       o->ilp_engine >= 0 ? (hta_ilp_engine)o->ilp_engine :
                                            HTA_ILP_ENGINE_GLPK};
    int32_t *a = malloc((size_t)s->inst->m * sizeof *a);
    hta_ilp_result ir;
    if (!a)
        return OOM(d);
    st = hta_ilp_solve(s->inst, &io, a, &ir, d);
    s->res->lp_written |= ir.lp_written;
    if (st == HTA_OK) {
        static const char *const names[] = {"optimal", "feasible",
                                            "time_limit", "skipped"};
        const char *status = names[ir.status];
        /* Stopped by the interrupt rather than the clock. */
        if (stopped(s) && (ir.status == HTA_ILP_FEASIBLE ||
                           ir.status == HTA_ILP_TIME_LIMIT))
            status = "interrupted";
        snprintf(row->status, sizeof row->status, "%s", status);
        if (isfinite(ir.makespan))
            st = finish_row(s, row, a, d);
        if (ir.status == HTA_ILP_FEASIBLE || ir.status == HTA_ILP_OPTIMAL)
            hta_solve_bound(s->res, ir.bound, "ilp");
        if (ir.status == HTA_ILP_FEASIBLE) {
            char b[32];
            hta_format_real(b, ir.bound);
            snprintf(row->note, sizeof row->note, "bound %s; %s", b,
                     ir.detail);
        } else {
            snprintf(row->note, sizeof row->note, "%s", ir.detail);
        }
    }
    row->seconds = hta_clock_now() - t0;
    free(a);
    return st;
}

/* The flow bound into res, unless fsy already gave it. */
static hta_status flow_bound(run *s, hta_diag *d)
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
static int best_proven(const run *s)
{
    const hta_solve_result *r = s->res;
    return r->has_lower_bound && isfinite(r->best_span) &&
           r->best_span - r->lower_bound <= 1e-9 * fmax(1.0, r->best_span);
}

/* A gap-closing row (close, sat) with nothing to do: the best so far
 * meets the bound.  1 when it was skipped. */
static int skip_when_proven(const run *s, hta_row *row, double t0)
{
    if (!best_proven(s))
        return 0;
    char b[32];
    hta_format_real(b, s->res->lower_bound);
    snprintf(row->status, sizeof row->status, "skipped");
    snprintf(row->note, sizeof row->note,
             "the best so far meets the bound %s", b);
    row->seconds = hta_clock_now() - t0;
    return 1;
}

/* The lower bound where a decision starts: with exact integer costs
 * makespans are integers, so the bound rounds up (and is raised to it). */
static double decision_start(run *s)
{
    hta_solve_result *res = s->res;
    double bound = res->lower_bound;
    if (!hta_instance_exact_costs(s->inst))
        return bound;
    double L = ceil(bound - 1e-9);
    if (L > bound)
        hta_solve_bound(res, L, "flow, rounded up");
    return L;
}

/* The no side of gap closing: the envelope bound (envelope.h) refutes
 * makespans from L0 up, by bisection below the best (refutation is
 * monotone in L: U, r0's cost and every slot count move one way with
 * it).  With exact integer costs, over integers: the bound rises to the
 * least value not refuted.  Otherwise "< best" first (a yes proves the
 * best optimal), then "<= L" for at most 6 reals (the gap to 1/64; each
 * costs a few max-flows, 0.2-0.4 s on Zipf s = 1 at 10^6 tasks), the
 * bound rising to the least makespan possible above the largest value
 * refuted (hta_bound_next_load: with few remote costs, e.g. w_rem 2.5,
 * the values a + 2.5 b are a grid and this is exact; with affine costs
 * they are dense).  Without a best, the step above L0 doubles until one
 * is not refuted. */
typedef struct refutation {
    int refuted;  /* something was */
    int proven;   /* the best is now optimal */
    int calls;    /* decisions made */
    double lo;    /* the largest value refuted */
    int strict;   /* lo was refuted as "< lo" */
    double start; /* where the search goes on: the least value tested
                     and not refuted (the raised bound), or L0 */
    hta_envelope_result er; /* the last refutation */
} refutation;

/* The least makespan possible above lo (bounds.h), at most best. */
static double next_load(const run *s, double lo)
{
    double v = hta_bound_next_load(s->inst, lo, 10000000);
    return fmin(v, s->res->best_span);
}

/* One decision of refute: *no when the envelope refutes L. */
static hta_status envelope_no(run *s, double L, int strict, refutation *rf,
                              int *no, hta_diag *d)
{
    hta_envelope_result er;
    rf->calls++;
    hta_status st =
        hta_envelope_refute(s->inst, L, strict, s->o->stop, &er, d);
    *no = st == HTA_OK && er.refuted;
    if (*no) {
        rf->refuted = 1;
        rf->lo = L;
        rf->strict = strict;
        rf->er = er;
    }
    return st;
}

static hta_status refute(run *s, double L0, double t0, refutation *rf,
                         hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_result *res = s->res;
    double best = res->best_span;
    int step = hta_instance_exact_costs(s->inst), no;
    memset(rf, 0, sizeof *rf);
    rf->start = L0;
    hta_status st = HTA_OK;
    if (!step && isfinite(best)) {
        if ((st = envelope_no(s, best, 1, rf, &no, d)) != HTA_OK)
            return st;
        if (no) {
            hta_solve_bound(res, best, "envelope");
            rf->proven = 1;
            return HTA_OK;
        }
    }
    if ((st = envelope_no(s, L0, 0, rf, &no, d)) != HTA_OK || !no)
        return st;
    /* hi: not refuted (the best is feasible, so never refuted), or the
     * next power-of-two step above L0 without a best */
    double unit = step ? 1.0 : s->inst->w_loc, hi = best;
    for (int k = 0; st == HTA_OK && k < 40 && !isfinite(hi); k++) {
        if (stopped(s) || hta_clock_now() - t0 > o->time_limit)
            break;
        double L = L0 + unit * ldexp(1.0, k);
        if ((st = envelope_no(s, L, 0, rf, &no, d)) == HTA_OK && !no)
            hi = L;
    }
    /* the bound: the least makespan possible above the largest value
     * refuted (with integer costs, + 1) */
    double bound = step ? rf->lo + 1 : next_load(s, rf->lo);
    for (int k = 0; st == HTA_OK && isfinite(hi) && bound < hi; k++) {
        if (stopped(s) || hta_clock_now() - t0 > o->time_limit ||
            (!step && (hi - rf->lo <= 1e-6 * fmax(1.0, hi) || k >= 6)))
            break;
        double L = step ? floor((rf->lo + hi) / 2) : 0.5 * (rf->lo + hi);
        if ((st = envelope_no(s, L, 0, rf, &no, d)) == HTA_OK && !no)
            hi = L;
        else if (st == HTA_OK)
            bound = step ? rf->lo + 1 : next_load(s, rf->lo);
    }
    if (st != HTA_OK)
        return st;
    hta_solve_bound(res, bound, "envelope");
    rf->proven = best_proven(s);
    rf->start = bound > rf->lo ? bound : isfinite(hi) ? hi : rf->lo;
    return HTA_OK;
}

/* Gap closing: the search (close.h) decides makespan <= the bound; after
 * a failure there, the envelope bound refutes what it can below the best
 * (refute: it may prove the best, or raise the bound, where the search
 * goes on); then a bisection up to the best so far.  The search first:
 * where it answers at the bound (Zipf s = 1, constant costs) the envelope
 * would cost as much again for nothing. */
static hta_status run_close(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_result *res = s->res;
    hta_row *row = add_row(s, HTA_ALGO_CLOSE);
    double t0 = hta_clock_now();
    hta_status st = HTA_OK;
    if ((st = flow_bound(s, d)) != HTA_OK)
        return st;
    if (skip_when_proven(s, row, t0))
        return HTA_OK;
    double best = res->best_span;
    int32_t m = s->inst->m;
    int32_t *a = malloc((size_t)m * sizeof *a);
    int32_t *keep = malloc((size_t)m * sizeof *keep);
    if (!a || !keep) {
        free(a);
        free(keep);
        return OOM(d);
    }
    /* With exact integer costs the bisection runs over integers. */
    int step = hta_instance_exact_costs(s->inst);
    double L0 = decision_start(s);
    /* The bound first; then, without an answer there, a bisection between
     * the bound and the best so far (each failure taken as a no: the
     * search's answers are heuristic below the best, never wrong above
     * it). */
    double lo = L0, hi = best, L = L0;
    int decisions = 0, found = 0;
    hta_close_result cr, first;
    memset(&first, 0, sizeof first);
    refutation rf;
    memset(&rf, 0, sizeof rf);
    char no[112] = "";
    for (;;) {
        hta_close_opts co = {o->time_limit - (hta_clock_now() - t0), o->stop,
                             o->progress, o->progress_ctx};
        if ((st = hta_close_decide(s->inst, L, &co, a, &cr, d)) != HTA_OK)
            break;
        if (decisions++ == 0)
            first = cr;
        if (cr.stopped)
            break;
        if (cr.found) {
            found = 1;
            hi = cr.makespan;
            memcpy(keep, a, (size_t)m * sizeof *keep);
            if (decisions == 1)
                break;
        } else {
            lo = L;
        }
        if (decisions == 1 && !found) {
            /* the no side, once */
            st = refute(s, L0, t0, &rf, d);
            if (st != HTA_OK || rf.proven)
                break;
            if (rf.refuted) {
                char by[48];
                snprintf(by, sizeof by, "sum g <= %.1f of %lld",
                         rf.er.bound, (long long)m);
                snprintf(no, sizeof no, "envelope: <= %.10g refuted (%s); ",
                         rf.lo, by);
                lo = fmax(lo, rf.lo);
                if (rf.start < hi) {
                    L = rf.start; /* the raised bound, or just above */
                    continue;
                }
            }
        }
        if (!isfinite(hi) || (step ? hi - lo <= 1 :
                                     hi - lo <= 1e-6 * hi || decisions >= 24))
            break; /* nothing to bisect (no best yet), or done */
        L = step ? floor((lo + hi) / 2) : 0.5 * (lo + hi);
    }
    /* refute ran against the best before the bisection improved it: the
     * envelope once more, "< the new best" (HDFS Zipf s = 1, affine, 10^4
     * tasks: 116 found, "< 116" refuted, where the bisection below 116.22
     * had stopped at 115.9983) */
    int again = 0;
    refutation rb;
    memset(&rb, 0, sizeof rb);
    if (st == HTA_OK && found && (st = finish_row(s, row, keep, d)) == HTA_OK &&
        decisions > 1 && !best_proven(s) && !stopped(s) &&
        hta_clock_now() - t0 <= o->time_limit &&
        (st = envelope_no(s, res->best_span, 1, &rb, &again, d)) == HTA_OK &&
        again)
        hta_solve_bound(res, res->best_span, "envelope");
    /* the certificate: the largest value refuted, written once */
    const refutation *cert = again ? &rb : rf.refuted ? &rf : NULL;
    if (st == HTA_OK && cert && o->write_lp) {
        st = hta_envelope_write_lp(s->inst, cert->lo, cert->strict,
                                   o->write_lp, o->verbose, d);
        res->lp_written = st == HTA_OK;
    }
    char at[32], shifted[48] = "";
    hta_format_real(at, L0);
    if (cr.shifts > 0)
        snprintf(shifted, sizeof shifted, "; shifts gained %lld",
                 (long long)cr.shifts);
    if (st == HTA_OK && rf.proven) {
        snprintf(row->status, sizeof row->status, "bound");
        snprintf(row->note, sizeof row->note,
                 "none found <= %s; makespan %s %.10g refuted by the "
                 "envelope bound (sum g <= %.1f of %lld, %d decision%s): "
                 "the bound rises to %.10g",
                 at, rf.strict ? "<" : "<=", rf.lo, rf.er.bound,
                 (long long)m, rf.calls, rf.calls == 1 ? "" : "s",
                 res->lower_bound);
    } else if (st == HTA_OK && found) {
        snprintf(row->status, sizeof row->status, "%s",
                 best_proven(s) ? "optimal" : "feasible");
        if (again)
            snprintf(row->note, sizeof row->note,
                     "none found <= %s (sum g %lld of %lld); bisection "
                     "above it, %d decisions; makespan < %.10g refuted by "
                     "the envelope bound (sum g <= %.1f of %lld)",
                     at, (long long)first.end, (long long)first.need,
                     decisions, rb.lo, rb.er.bound, (long long)m);
        else if (decisions == 1)
            snprintf(row->note, sizeof row->note,
                     "makespan <= %s (the bound): sum g %lld -> %lld of "
                     "%lld, %lld paths in %lld rounds%s",
                     at, (long long)cr.start, (long long)cr.end,
                     (long long)cr.need, (long long)cr.moves,
                     (long long)cr.rounds, shifted);
        else
            snprintf(row->note, sizeof row->note,
                     "none found <= %s (sum g %lld of %lld); %sbisection "
                     "above it, %d decisions",
                     at, (long long)first.end, (long long)first.need, no,
                     decisions);
    } else if (st == HTA_OK) {
        snprintf(row->status, sizeof row->status, "%s",
                 !cr.stopped ? "undecided" :
                 stopped(s)  ? "interrupted" :
                               "time_limit");
        snprintf(row->note, sizeof row->note,
                 "no assignment of makespan <= %s found (sum g %lld of "
                 "%lld after %lld paths, %d decisions); %snot a proof",
                 at, (long long)first.end, (long long)first.need,
                 (long long)first.moves, decisions, no);
    }
    row->seconds = hta_clock_now() - t0;
    free(a);
    free(keep);
    return st;
}

/* The general decision (hta_satdec_decide_general), for costs that are
 * not one integer w_rem: makespan < the best so far, again after each yes
 * (which improves the best), until a no proves the best optimal.  Without
 * a best, makespan <= the bound first (a yes is the optimum), then, as
 * close does, <= a target whose step above the bound doubles (w_loc, 2
 * w_loc, ...): each no raises the bound to the least makespan possible
 * above the target, the first yes gives a best. */
static hta_status run_sat_general(run *s, hta_row *row, double t0,
                                  hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_result *res = s->res;
    int32_t *a = malloc((size_t)s->inst->m * sizeof *a);
    if (!a)
        return OOM(d);
    hta_satdec_result sr;
    memset(&sr, 0, sizeof sr);
    hta_status st = HTA_OK;
    int yes = 0, strict = 1, raised = 0;
    int64_t pieces = 0;
    double L = res->best_span, target = res->lower_bound;
    double step = s->inst->w_loc, first = target;
    /* --write-cnf: the last decision's CNF (the no that proves the best
     * optimal), each kept in memory until the next one answers */
    char *kept = NULL;
    size_t nkept = 0;
    for (;;) {
        strict = isfinite(res->best_span);
        L = strict ? res->best_span : target;
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = o->write_cnf ? open_memstream(&buf, &len) : NULL;
        if (o->write_cnf && !mem) {
            st = OOM(d);
            break;
        }
        hta_satdec_opts so = {o->time_limit - (hta_clock_now() - t0), o->stop,
                              0, mem, o->sat_generic, HTA_SATDEC_AUTO,
                              o->write_lp};
        st = hta_satdec_decide_general(s->inst, L, strict, &so, a, &sr, d);
        res->lp_written |= sr.lp_written;
        if (mem && fclose(mem) != 0 && st == HTA_OK)
            st = OOM(d);
        if (st == HTA_OK && mem &&
            (sr.answer == HTA_SATDEC_YES || sr.answer == HTA_SATDEC_NO)) {
            free(kept);
            kept = buf;
            nkept = len;
        } else {
            free(buf);
        }
        if (st != HTA_OK)
            break;
        pieces += sr.pieces;
        if (sr.answer == HTA_SATDEC_NO && !strict) {
            double up = next_load(s, L);
            if (isfinite(up))
                hta_solve_bound(res, up, "sat");
            raised++;
            target = L + step;
            step *= 2;
            continue;
        }
        if (sr.answer != HTA_SATDEC_YES)
            break;
        yes++;
        if ((st = finish_row(s, row, a, d)) != HTA_OK || best_proven(s))
            break; /* <= the bound: the optimum */
    }
    if (st == HTA_OK && kept) {
        if (fwrite(kept, 1, nkept, o->write_cnf) != nkept)
            st = hta_diag_set(d, HTA_ERR_IO, NULL, 0,
                              "cannot write the CNF");
        else
            res->cnf_written = 1;
    }
    free(kept);
    char at[32], below[96] = "";
    hta_format_real(at, L);
    if (raised) {
        char lo[32];
        hta_format_real(lo, first);
        snprintf(below, sizeof below, "makespan <= %s%s unsatisfiable; ", lo,
                 raised > 1 ? " and above" : "");
    }
    if (st == HTA_OK && sr.answer == HTA_SATDEC_NO) { /* strict */
        hta_solve_bound(res, L, "sat");
        snprintf(row->status, sizeof row->status, "%s",
                 yes ? "optimal" : "bound");
        if (sr.glpk)
            snprintf(row->note, sizeof row->note,
                     "%.90s%s%smakespan < %s infeasible (GLPK on the "
                     "envelope-cut model; pieces: %lld, runs: %lld)",
                     below, yes ? "better assignments found, " : "",
                     yes ? "then " : "", at, (long long)sr.pieces,
                     (long long)sr.glpk_solves);
        else
            snprintf(row->note, sizeof row->note,
                     "%s%s%smakespan < %s unsatisfiable (pieces of the "
                     "remote count: %lld, %lld vars, %lld clauses)",
                     below, yes ? "better assignments found, " : "",
                     yes ? "then " : "", at, (long long)sr.pieces,
                     (long long)sr.vars, (long long)sr.clauses);
    } else if (st == HTA_OK && yes) {
        snprintf(row->status, sizeof row->status, "%s",
                 best_proven(s) ? "optimal" :
                 sr.answer == HTA_SATDEC_YES || sr.answer == HTA_SATDEC_NA ?
                                   "feasible" :
                 stopped(s) ? "interrupted" : "time_limit");
        snprintf(row->note, sizeof row->note,
                 "%.90s%d better assignment%s found (pieces decided: "
                 "%lld)%s%.90s",
                 below, yes, yes == 1 ? "" : "s", (long long)pieces,
                 sr.answer == HTA_SATDEC_NA ? "; then " : "",
                 sr.answer == HTA_SATDEC_NA ? sr.why : "");
    } else if (st == HTA_OK && sr.answer == HTA_SATDEC_NA) {
        snprintf(row->status, sizeof row->status, "skipped");
        snprintf(row->note, sizeof row->note, "%s", sr.why);
    } else if (st == HTA_OK) {
        snprintf(row->status, sizeof row->status, "%s",
                 stopped(s) ? "interrupted" : "time_limit");
        snprintf(row->note, sizeof row->note,
                 "%sstopped deciding makespan %s %s (pieces decided: %lld)",
                 below, strict ? "<" : "<=", at, (long long)pieces);
    }
    row->seconds = hta_clock_now() - t0;
    free(a);
    return st;
}

/* The decision by SAT (satdec.h), exact both ways: makespan <= L for L =
 * the bound, the bound + 1, ... below the best so far; each no raises the
 * lower bound by one step, the first yes is the optimum.  Costs that are
 * not one integer w_rem: run_sat_general. */
static hta_status run_sat(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_result *res = s->res;
    hta_row *row = add_row(s, HTA_ALGO_SAT);
    double t0 = hta_clock_now();
    hta_status st = flow_bound(s, d);
    if (st != HTA_OK)
        return st;
    double best = res->best_span;
    char why[160];
    int constant = hta_satdec_applies(s->inst, NULL, 0);
    if (!constant && !hta_satdec_applies_general(s->inst, why, sizeof why)) {
        snprintf(row->status, sizeof row->status, "skipped");
        snprintf(row->note, sizeof row->note, "%s", why);
        return HTA_OK;
    }
    if (skip_when_proven(s, row, t0))
        return HTA_OK;
    if (!constant)
        return run_sat_general(s, row, t0, d);
    double L = decision_start(s); /* applies: exact integer costs */
    int32_t *a = malloc((size_t)s->inst->m * sizeof *a);
    if (!a)
        return OOM(d);
    hta_satdec_result sr;
    memset(&sr, 0, sizeof sr);
    int decisions = 0, nos = 0;
    double first = L;
    for (;;) {
        hta_satdec_opts so = {o->time_limit - (hta_clock_now() - t0), o->stop,
                              0, decisions == 0 ? o->write_cnf : NULL,
                              o->sat_generic, HTA_SATDEC_AUTO, NULL};
        if ((st = hta_satdec_decide(s->inst, L, &so, a, &sr, d)) != HTA_OK)
            break;
        decisions++;
        if (decisions == 1 && o->write_cnf && sr.answer != HTA_SATDEC_NA)
            res->cnf_written = 1;
        if (sr.answer != HTA_SATDEC_NO)
            break;
        nos++;
        hta_solve_bound(res, L + 1, "sat (no assignment below)");
        L += 1;
        if (isfinite(best) && L >= best - 1e-9)
            break; /* the best meets the raised bound */
    }
    char at[32], up[32];
    hta_format_real(at, first);
    hta_format_real(up, L);
    if (st == HTA_OK && sr.answer == HTA_SATDEC_YES) {
        st = finish_row(s, row, a, d);
        snprintf(row->status, sizeof row->status, "optimal");
        char below[96] = "";
        if (nos == 1)
            snprintf(below, sizeof below, "<= %s unsatisfiable, ", at);
        else if (nos > 1)
            snprintf(below, sizeof below, "<= %s .. %g unsatisfiable, ", at,
                     L - 1);
        if (sr.reduction)
            snprintf(row->note, sizeof row->note,
                     "makespan %.40s<= %.16s satisfiable (3SAT reduction "
                     "of a satisfiable formula, %lld vars, %lld clauses: "
                     "Theorem 3.1)",
                     below, up, (long long)sr.vars, (long long)sr.clauses);
        else
            snprintf(row->note, sizeof row->note,
                     "makespan %s<= %s satisfiable (%lld vars, %lld "
                     "clauses, slack %lld)",
                     below, up, (long long)sr.vars, (long long)sr.clauses,
                     (long long)sr.slack);
    } else if (st == HTA_OK && sr.answer == HTA_SATDEC_NO) {
        /* every L below the best is unsatisfiable: the best is optimal */
        snprintf(row->status, sizeof row->status, "bound");
        if (nos == 1 && sr.reduction)
            snprintf(row->note, sizeof row->note,
                     "makespan <= %.16s unsatisfiable (3SAT reduction of "
                     "an unsatisfiable formula, %lld vars, %lld clauses: "
                     "Theorem 3.1); the bound rises to %.16s",
                     at, (long long)sr.vars, (long long)sr.clauses, up);
        else if (nos == 1)
            snprintf(row->note, sizeof row->note,
                     "makespan <= %s unsatisfiable (%lld vars, %lld "
                     "clauses): the bound rises to %s",
                     at, (long long)sr.vars, (long long)sr.clauses, up);
        else
            snprintf(row->note, sizeof row->note,
                     "makespan <= %s .. %g unsatisfiable (%d decisions): "
                     "the bound rises to %s",
                     at, L - 1, nos, up);
    } else if (st == HTA_OK && sr.answer == HTA_SATDEC_NA) {
        snprintf(row->status, sizeof row->status, "skipped");
        snprintf(row->note, sizeof row->note, "%s", sr.why);
    } else if (st == HTA_OK) {
        snprintf(row->status, sizeof row->status, "%s",
                 stopped(s) ? "interrupted" : "time_limit");
        if (nos)
            snprintf(row->note, sizeof row->note,
                     "makespan <= %s to %g unsatisfiable; stopped at %s", at,
                     L - 1, up);
        else
            snprintf(row->note, sizeof row->note,
                     "stopped deciding makespan <= %s (%lld vars, %lld "
                     "clauses)",
                     at, (long long)sr.vars, (long long)sr.clauses);
    }
    row->seconds = hta_clock_now() - t0;
    free(a);
    return st;
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

static hta_status run_exact(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_opts budget = exact_budget(o);
    double t0 = hta_clock_now();
    hta_status st = flow_bound(s, d);
    if (st == HTA_OK && !best_proven(s))
        st = run_close(s, d);
    /* sat first, too, on a 3SAT reduction: it decides the formula */
    int ilp_first = s->inst->m <= o->ilp_max_tasks;
    if (st == HTA_OK && ilp_first && !o->sat_generic && !best_proven(s)) {
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
        if (best_proven(s) || stopped(s))
            break;
        double left = fmax(0.0, o->time_limit - (hta_clock_now() - t0));
        int ilp = ilp_first == (k == 0);
        budget.time_limit = k == 1 || !sat ? left :
                            ilp || sat == 1 ? 0.75 * left :
                                              0.5 * left;
        s->o = &budget;
        st = ilp ? run_ilp(s, d) : run_sat(s, d);
        s->o = o;
    }
    return st;
}

/* The engines run otherwise on N > 2 levels (close and sat have FSY's
 * two levels). */
static int two_level_only(hta_algo a)
{
    return a == HTA_ALGO_CLOSE || a == HTA_ALGO_SAT || a == HTA_ALGO_EXACT;
}

static void skip_levels(run *s, hta_algo a, const char *why)
{
    hta_row *row = add_row(s, a);
    snprintf(row->status, sizeof row->status, "skipped");
    snprintf(row->note, sizeof row->note, "%d levels: %s",
             hta_levels(s->inst), why);
}

/* close, sat and exact on N > 2 levels (solve.h): exact is brute force
 * where it fits, else the N-level ILP (ilplev.h) with the whole time
 * limit; close and sat say why they do not run. */
static hta_status run_levels_exact(run *s, hta_algo a, hta_diag *d)
{
    static const char *const why[] = {
        "gap closing prices every non-local task at w_rem; not applied",
        "the decision's encoding has two levels; not applied"};
    hta_status st = flow_bound(s, d);
    if (st != HTA_OK)
        return st;
    if (a == HTA_ALGO_CLOSE) {
        skip_levels(s, a, why[0]);
    } else if (a == HTA_ALGO_SAT) {
        skip_levels(s, a, why[1]);
    } else if (hta_brute_fits(s->inst)) {
        st = run_brute(s, d);
        if (st == HTA_OK) {
            skip_levels(s, HTA_ALGO_CLOSE, why[0]);
            skip_levels(s, HTA_ALGO_SAT, why[1]);
        }
    } else {
        skip_levels(s, HTA_ALGO_CLOSE, why[0]);
        const hta_solve_opts *o = s->o;
        hta_solve_opts budget = exact_budget(o);
        s->o = &budget;
        st = run_ilp(s, d);
        s->o = o;
        if (st == HTA_OK)
            skip_levels(s, HTA_ALGO_SAT, why[1]);
    }
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
    int rows = 0;
    for (int i = 0; i < opts->nalgos && i < HTA_SOLVE_MAX_ROWS; i++)
        rows += opts->algos[i] == HTA_ALGO_EXACT ? 3 : 1;
    if (opts->nalgos < 1 || opts->nalgos > HTA_SOLVE_MAX_ROWS ||
        rows > HTA_SOLVE_MAX_ROWS)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected 1 to %d rows (exact counts 3), "
                            "found %d",
                            HTA_SOLVE_MAX_ROWS, opts->nalgos > rows ?
                                                    opts->nalgos : rows);
    if (!(res->best = hta_malloc_huge((size_t)inst->m * sizeof *res->best)))
        return OOM(d);
    hta_solve_bound(res, hta_bound_trivial(inst), "ceil(m/n)*w_loc");
    for (int i = 0; i < opts->nalgos && st == HTA_OK; i++) {
        if (i > 0 && stopped(&s))
            break;
        if (hta_levels(inst) > 2 && two_level_only(opts->algos[i])) {
            st = run_levels_exact(&s, opts->algos[i], d);
            continue;
        }
        switch (opts->algos[i]) {
        case HTA_ALGO_RR:
            st = run_rr(&s, d);
            break;
        case HTA_ALGO_FSY:
            st = run_fsy(&s, d);
            break;
        case HTA_ALGO_ILP:
            st = run_ilp(&s, d);
            break;
        case HTA_ALGO_BRUTE:
            st = run_brute(&s, d);
            break;
        case HTA_ALGO_CLOSE:
            st = run_close(&s, d);
            break;
        case HTA_ALGO_SAT:
            st = run_sat(&s, d);
            break;
        case HTA_ALGO_EXACT:
            st = run_exact(&s, d);
            break;
        case HTA_ALGO_HADOOP:
            st = run_hadoop(&s, d);
            break;
        }
    }
    if (st == HTA_OK)
        st = flow_bound(&s, d);
    /* every assignment is at least every lower bound */
    for (int i = 0; st == HTA_OK && i < res->nrows; i++)
        assert(!res->rows[i].has_value ||
               res->rows[i].makespan >=
                   res->lower_bound * (1 - 1e-12) - 1e-300);
    res->interrupted = stopped(&s);
    free(s.fsy);
    if (st != HTA_OK || !isfinite(res->best_span)) {
        free(res->best);
        res->best = NULL;
    }
    return st;
}
