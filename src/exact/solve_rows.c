/* The rows of the solve policy that produce assignments (solve_impl.h):
 * round robin, fsy (on N levels refilled rack-aware, with fsy's views),
 * Hadoop's greedy, brute force, and the ILP with fsy's incumbent. */
#include "solve_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/levels.h"
#include "hta/num.h"
#include "core/buf.h"
#include "offline/bounds.h"
#include "exact/brute.h"
#include "offline/hadoop.h"
#include "offline/refill.h"
#include "offline/rr.h"

hta_status solve_run_rr(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    int64_t runs = o->rr_runs > 0 ? o->rr_runs : 1;
    hta_row *row = solve_add_row(s, HTA_ALGO_RR);
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
    for (; done < runs && !(done > 0 && solve_stopped(s)); done++) {
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
    if ((st = solve_finish_row(s, row, keep, d)) != HTA_OK)
        goto cleanup;
    if (done < runs)
        snprintf(row->status, sizeof row->status, "interrupted");
    if (runs > 1) {
        qsort(spans, (size_t)done, sizeof *spans, solve_cmp_double);
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
/* fsy's assignment (s->fsy) refilled rack-aware into a, then fsy's other
 * views unless the refill meets the lower bound (refill.h), those fsy
 * runs without tracing: *span the best's makespan, *view its level (0:
 * the refill's). */
static hta_status refill_best(run *s, const hta_fsy_opts *fo, int32_t *a,
                              hta_refill_result *rr, double *span, int *view,
                              hta_diag *d)
{
    hta_status st = hta_refill_run(s->inst, s->fsy, a, rr, d);
    *view = 0;
    *span = rr->makespan;
    if (st != HTA_OK ||
        (s->res->has_lower_bound && *span <= s->res->lower_bound))
        return st;
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
        hta_status st = solve_finish_row(s, row, s->fsy, d);
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
    int view;
    double span;
    hta_status st = refill_best(s, fo, a, &rr, &span, &view, d);
    if (st == HTA_OK)
        st = solve_finish_row(s, row, a, d);
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
    int view;
    double span;
    hta_status st = refill_best(s, &fo, a, &rr, &span, &view, d);
    if (st == HTA_OK) {
        memcpy(s->fsy, a, (size_t)s->inst->m * sizeof *a);
        s->fsy_span = span;
    }
    free(a);
    return st;
}

hta_status solve_incumbent(run *s, hta_diag *d)
{
    if (s->fsy)
        return HTA_OK;
    hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 2, 0, NULL, NULL,
                       s->o->progress, s->o->progress_ctx};
    hta_fsy_result fr;
    hta_status st = fsy_into(s, &fo, &fr, d);
    if (st != HTA_OK)
        return st;
    hta_fsy_result_free(&fr);
    return hta_levels(s->inst) > 2 ? refill_into(s, d) : HTA_OK;
}

hta_status solve_run_fsy(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_fsy_opts fo = {o->engine,        o->prune,        o->literal_balance,
                       o->trace,         o->trace_ctx,    o->progress,
                       o->progress_ctx};
    hta_row *row = solve_add_row(s, HTA_ALGO_FSY);
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
        st = solve_finish_row(s, row, s->fsy, d);
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
                     "best at tau %lld; bal-assign on %lld of %lld taus (the "
                     "rest pruned by their bound), %s max-flow",
                     (long long)fr.best_tau, (long long)fr.balanced,
                     (long long)fr.K, engine);
        hta_fsy_result_free(&fr);
    }
    row->seconds = hta_clock_now() - t0;
    s->res->has_guarantee = 1;
    s->res->guarantee = hta_bound_fsy_additive(s->inst);
    return st;
}

hta_status solve_run_hadoop(run *s, hta_diag *d)
{
    hta_row *row = solve_add_row(s, HTA_ALGO_HADOOP);
    double t0 = hta_clock_now();
    int32_t *a = malloc(((size_t)s->inst->m + 1) * sizeof *a);
    if (!a)
        return OOM(d);
    hta_status st = hta_hadoop_run(s->inst, a, d);
    if (st == HTA_OK)
        st = solve_finish_row(s, row, a, d);
    snprintf(row->note, sizeof row->note,
             "%d levels: each free server takes the closest task it can",
             hta_levels(s->inst));
    row->seconds = hta_clock_now() - t0;
    free(a);
    return st;
}

hta_status solve_run_brute(run *s, hta_diag *d)
{
    hta_row *row = solve_add_row(s, HTA_ALGO_BRUTE);
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
        st = solve_finish_row(s, row, a, d);
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

hta_status solve_run_ilp(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_row *row = solve_add_row(s, HTA_ALGO_ILP);
    double t0 = hta_clock_now();
    hta_status st = HTA_OK;
    /* The incumbent and the bound come from fsy, run here if needed. */
    if (!o->ilp_plain && s->inst->m <= o->ilp_max_tasks &&
        (st = solve_incumbent(s, d)) != HTA_OK)
        return st;
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
        if (solve_stopped(s) && (ir.status == HTA_ILP_FEASIBLE ||
                           ir.status == HTA_ILP_TIME_LIMIT))
            status = "interrupted";
        snprintf(row->status, sizeof row->status, "%s", status);
        if (isfinite(ir.makespan))
            st = solve_finish_row(s, row, a, d);
        if (ir.status == HTA_ILP_FEASIBLE || ir.status == HTA_ILP_OPTIMAL)
            hta_solve_bound(s->res, ir.bound, "ilp");
        if (ir.status == HTA_ILP_FEASIBLE) {
            char b[32];
            hta_format_figure(b, ir.bound); /* as the report's figures */
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
