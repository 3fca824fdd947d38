/* Gap closing on N > 2 levels with a growing top level (toplevel.h): the
 * close row's decisions, one constant-cost decision per piece of the top
 * count. */
#include "closelev.h"
#include "envelope.h"
#include "solve_impl.h"
#include "toplevel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/levels.h"
#include "hta/num.h"
#include "core/buf.h"

/* The most decisions of one row (targets between the bound and the
 * best): each is a count flow per piece, and a search per piece the
 * count flow leaves. */
#define TOP_DECISIONS 12

typedef struct top_run {
    run *s;
    double deadline;
    int32_t *a;
    int64_t pieces, searched, refuted_pieces;
    const char *by; /* the last refutation's source */
    const char *unsearched; /* why a target was not searched, or NULL */
    hta_countflow *cf; /* the count flow at cf_T, kept for the pieces */
    double cf_T;
    int stopped;
} top_run;

static int top_stopped(const top_run *t)
{
    const run *s = t->s;
    return t->stopped || hta_clock_now() > t->deadline ||
           (s->o->stop && *s->o->stop);
}

/* The lower loads within T + pad into tl; 0 (and tl empty) past
 * HTA_TOPLEVEL_MAX_LOADS. */
static hta_status loads(const run *s, hta_toplevel *tl, double T, double pad,
                        int *ok, hta_diag *d)
{
    int too_many = 0;
    hta_status st = hta_toplevel_init(tl, s->inst, T, pad, &too_many, d);
    *ok = st == HTA_OK && !too_many;
    return st;
}

/* The count flow at T into t->cf (kept while T stays). */
static hta_status count_flow(top_run *t, double T, hta_diag *d)
{
    if (t->cf && t->cf_T == T)
        return HTA_OK;
    hta_countflow_free(t->cf);
    t->cf = NULL;
    t->cf_T = T;
    return hta_countflow_new(t->s->inst, T, &t->cf, d);
}

/* "makespan <= T?" for every top count: 1 refuted, 0 not (or stopped).
 * The count flow over the top count's pieces (closelev.h), then the
 * envelope bound (envelope.h), whose rooms on N levels count every
 * non-local task at w_2(0) at least (toplevel.h's room). */
static hta_status refute_all(top_run *t, double T, int *no, hta_diag *d)
{
    const hta_instance *in = t->s->inst;
    int64_t room;
    int stopped = 0;
    hta_status st = count_flow(t, T, d);
    if (st == HTA_OK)
        st = hta_countflow_refute(t->cf, 0, in->m, t->deadline,
                                  t->s->o->stop, no, &room, &stopped, d);
    t->stopped |= stopped;
    t->by = "count flow";
    if (st != HTA_OK || *no || stopped)
        return st;
    hta_envelope_result er;
    st = hta_envelope_refute(in, T, 0, t->s->o->stop, &er, d);
    if (st == HTA_OK && er.refuted) {
        *no = 1;
        t->by = "envelope";
    }
    return st;
}

typedef struct top_piece {
    int64_t r0, r1;
} top_piece;

/* The search's guide through the pieces (hta_closelev_next). */
typedef struct guide {
    top_run *t;
    double T;
    top_piece *pc;
    int64_t np, at, k; /* pieces, where the order starts, the next of it */
    int valid;         /* the last full placement is within T */
    hta_status st;
    hta_diag *d;
} guide;

/* The order's i-th piece, outwards from at: at, at - 1, at + 1, ... */
static int64_t outward(const guide *g, int64_t i)
{
    return i % 2 ? g->at - (i + 1) / 2 : g->at + i / 2;
}

static int guide_next(void *ctx, int k, int full, int64_t top,
                      hta_closelev_top *next)
{
    guide *g = ctx;
    top_run *t = g->t;
    const hta_instance *in = t->s->inst;
    g->valid = 0;
    t->searched++;
    if (full) {
        hta_eval ev; /* within T by the true costs */
        if ((g->st = hta_eval_run(in, t->a, &ev, g->d)) != HTA_OK)
            return 0;
        g->valid = ev.makespan <= g->T;
        hta_eval_free(&ev);
        if (g->valid)
            return 0;
    }
    if (k == 0) {
        if (!full)
            return 0; /* the relaxation found nothing: no piece will */
        for (g->at = 0; g->at + 1 < g->np && g->pc[g->at].r1 < top; g->at++)
            ;
    }
    for (; g->k < 2 * g->np; g->k++) {
        int64_t i = outward(g, g->k);
        if (i < 0 || i >= g->np)
            continue;
        if (top_stopped(t))
            return 0;
        int64_t room;
        int no = 0, stopped = 0;
        g->st = hta_countflow_refute(t->cf, g->pc[i].r0, g->pc[i].r1,
                                     t->deadline, t->s->o->stop, &no, &room,
                                     &stopped, g->d);
        t->stopped |= stopped;
        if (g->st != HTA_OK || stopped)
            return 0;
        if (no) {
            t->refuted_pieces++;
            continue;
        }
        g->k++;
        next->c = hta_wrem_at(&in->wrem, g->pc[i].r1);
        next->cap = g->pc[i].r1;
        return 1;
    }
    return 0;
}

/* "makespan <= T?" piece by piece, one search (closelev.h) warm from
 * setting to setting.  First the top at its least cost w_rem(0) without
 * a cap, the relaxation of every piece: nothing found there, and no piece
 * is tried (a search is no proof either way, and at 10^5 tasks each costs
 * seconds); an assignment within T by the true costs is the answer;
 * otherwise its top count r says where to look: the pieces from the one
 * holding r outwards (the lower first), each after the count flow on it
 * (with its least cost and its cap) leaves it open, with the piece's
 * last cost and its cap.  *found when an assignment within T is in
 * t->a. */
static hta_status search_pieces(top_run *t, double T, int *found,
                                hta_diag *d)
{
    const hta_instance *in = t->s->inst;
    hta_toplevel tl;
    int ok;
    *found = 0;
    hta_status st = loads(t->s, &tl, T, 0, &ok, d);
    if (st == HTA_OK && !ok)
        t->unsearched = "its lower loads pass 2e6";
    if (st != HTA_OK || !ok)
        return st;
    if ((st = count_flow(t, T, d)) != HTA_OK) {
        hta_toplevel_free(&tl);
        return st;
    }
    guide g = {t, T, NULL, 0, 0, 0, 0, HTA_OK, d};
    size_t cap = 0;
    for (int64_t r0 = 0; r0 <= in->m; g.np++) {
        if (g.np == HTA_TOPLEVEL_MAX_PIECES || top_stopped(t)) {
            if (g.np == HTA_TOPLEVEL_MAX_PIECES)
                t->unsearched = "its pieces pass 4096";
            free(g.pc); /* too many pieces to search, or no time */
            hta_toplevel_free(&tl);
            t->stopped |= top_stopped(t);
            return HTA_OK;
        }
        if (!HTA_RESERVE(g.pc, cap, (size_t)g.np + 1)) {
            free(g.pc);
            hta_toplevel_free(&tl);
            return OOM(d);
        }
        g.pc[g.np].r0 = r0;
        g.pc[g.np].r1 = hta_toplevel_piece_end(&tl, r0);
        r0 = g.pc[g.np].r1 + 1;
    }
    hta_toplevel_free(&tl);
    t->pieces += g.np;
    hta_closelev_top first = {hta_wrem_at(&in->wrem, 0), in->m};
    hta_closelev_result cr;
    st = hta_closelev_decide_seq(in, T, &first, guide_next, &g, t->deadline,
                                 t->s->o->stop, t->a, &cr, d);
    t->stopped |= cr.stopped;
    if (st == HTA_OK)
        st = g.st;
    *found = st == HTA_OK && cr.found && g.valid;
    free(g.pc);
    return st;
}

/* The least load above v (v itself when none is found).  Some load lies
 * in (v, v + w_loc] (k w_loc for the least k past v) but, computed, may
 * pass v + w_loc by a rounding (w_loc 0.1: 6 w_loc is 0.6000000000000001
 * above 0.5 + 0.1), so the loads reach 10^-9 further: a load skipped
 * there made the bound pass the optimum. */
static hta_status load_above(const run *s, double v, double *out,
                             hta_diag *d)
{
    hta_toplevel tl;
    int ok;
    *out = v;
    double pad = s->inst->w_loc + 1e-9 * fmax(1.0, v + s->inst->w_loc);
    hta_status st = loads(s, &tl, v, pad, &ok, d);
    if (st == HTA_OK && ok) {
        double u = hta_toplevel_load_above(&tl, v);
        if (isfinite(u))
            *out = u;
    }
    hta_toplevel_free(&tl);
    return st;
}

/* The greatest load below v (-INFINITY: none; NAN: not known). */
static hta_status load_below(const run *s, double v, double *out,
                             hta_diag *d)
{
    hta_toplevel tl;
    int ok;
    *out = NAN;
    hta_status st = loads(s, &tl, v, 0, &ok, d);
    if (st == HTA_OK && ok)
        *out = hta_toplevel_load_below(&tl, v);
    hta_toplevel_free(&tl);
    return st;
}

hta_status solve_close_top(run *s, hta_row *row, double t0, hta_diag *d)
{
    hta_solve_result *res = s->res;
    const hta_instance *in = s->inst;
    int N = hta_levels(in);
    top_run t;
    memset(&t, 0, sizeof t);
    t.s = s;
    t.deadline = t0 + s->o->time_limit;
    if (!(t.a = malloc(((size_t)in->m + 1) * sizeof *t.a)))
        return OOM(d);
    hta_status st = HTA_OK;
    /* the incumbent: the best row, or fsy's refilled assignment */
    double best = res->best_span;
    int incumbent = 0;
    if (s->fsy && s->fsy_span < best) {
        best = s->fsy_span;
        incumbent = 1;
        st = solve_finish_row(s, row, s->fsy, d);
    }
    double lb0 = res->lower_bound, lo = lb0;
    int decisions = 0, found_any = 0, undecided = 0;
    double undecided_at = NAN;
    /* "makespan < best?" first: refuted, the best is optimal */
    if (st == HTA_OK && isfinite(best) && !solve_best_proven(s)) {
        double T;
        st = load_below(s, best, &T, d);
        if (st == HTA_OK && !isnan(T)) {
            int no = T < lo; /* no load between the bound and the best */
            t.by = "level flow";
            if (!no && (st = refute_all(&t, T, &no, d)) == HTA_OK)
                decisions++;
            if (st == HTA_OK && no)
                hta_solve_bound(res, best, t.by);
        }
    }
    /* then the least load at the bound, and bisection between the bound
       and the best: a refuted target raises the bound to the least load
       above it, an assignment found lowers the best, and "< best" is asked
       of it at once (one refutation there proves it, where bisection
       would take a step per halving of the gap) */
    double hi = res->best_span;
    int first = 1, below_best = 0;
    while (st == HTA_OK && !solve_best_proven(s) && decisions < TOP_DECISIONS &&
           !top_stopped(&t)) {
        lo = res->lower_bound;
        hi = res->best_span;
        double T, mid = isfinite(hi) ? lo + (hi - lo) / 2 : lo;
        if (below_best) { /* "< best" once more, of a better best */
            if ((st = load_below(s, hi, &T, d)) != HTA_OK)
                break;
            if (isnan(T) || T < lo)
                T = lo;
        } else if (first) { /* the least load at the bound */
            double below_lo;
            if ((st = load_below(s, lo, &below_lo, d)) != HTA_OK)
                break;
            T = lo;
            if (isfinite(below_lo) &&
                (st = load_above(s, below_lo, &T, d)) != HTA_OK)
                break;
        } else if (!isnan(undecided_at)) {
            mid = undecided_at + (hi - undecided_at) / 2;
            if ((st = load_below(s, mid, &T, d)) != HTA_OK)
                break;
            if (isnan(T) || !(T > undecided_at))
                break;
        } else {
            if ((st = load_below(s, mid, &T, d)) != HTA_OK)
                break;
            if (isnan(T) || T < lo)
                T = lo;
        }
        first = below_best = 0;
        if (isfinite(hi) && !(T < hi))
            break;
        decisions++;
        int no = 0, found = 0;
        if ((st = refute_all(&t, T, &no, d)) != HTA_OK || t.stopped)
            break;
        if (no) {
            double up;
            if ((st = load_above(s, T, &up, d)) != HTA_OK)
                break;
            if (!(up > T))
                break;
            hta_solve_bound(res, up, t.by);
            continue;
        }
        if ((st = search_pieces(&t, T, &found, d)) != HTA_OK)
            break;
        if (found) {
            found_any = 1;
            if ((st = solve_finish_row(s, row, t.a, d)) != HTA_OK)
                break;
            undecided_at = NAN;
            below_best = 1;
            continue;
        }
        if (t.stopped)
            break;
        undecided++;
        undecided_at = T;
    }
    free(t.a);
    hta_countflow_free(t.cf);
    if (st != HTA_OK)
        return st;
    t.stopped |= !solve_best_proven(s) && top_stopped(&t);
    char b[32], l0[32];
    snprintf(b, sizeof b, isfinite(res->best_span) ? "%.6g" : "none",
             res->best_span);
    snprintf(l0, sizeof l0, "%.6g", lb0);
    const char *how = found_any ? "slots" : t.by ? t.by : "no refutation",
               *inc = incumbent && !found_any ?
                          ", fsy's refilled assignment (the incumbent) "
                          "proven" : "";
    if (solve_best_proven(s)) {
        snprintf(row->status, sizeof row->status, "%s",
                 found_any || incumbent ? "optimal" : "bound");
        snprintf(row->note, sizeof row->note,
                 "%d levels, w_rem(r) on top: %s%s; bound %s -> %s in %d "
                 "decision%s (%lld piece%s, %lld refuted, %lld searched)",
                 N, how, inc, l0, b, decisions, decisions == 1 ? "" : "s",
                 (long long)t.pieces, t.pieces == 1 ? "" : "s",
                 (long long)t.refuted_pieces,
                 (long long)t.searched);
    } else {
        /* the incumbent is the row's assignment: feasible, not
           undecided (which says the row has none) */
        snprintf(row->status, sizeof row->status, "%s",
                 found_any || incumbent ? "feasible" :
                 !t.stopped ? "undecided" :
                 solve_stopped(s) ? "interrupted" : "time_limit");
        char lbs[32];
        snprintf(lbs, sizeof lbs, "%.6g", res->lower_bound);
        int w = snprintf(row->note, sizeof row->note,
                         "%d levels, w_rem(r) on top: bound %s -> %s, best %s "
                         "after %d decision%s (%lld pieces, %lld refuted, "
                         "%lld searched, %d undecided); not a proof",
                         N, l0, lbs, b, decisions, decisions == 1 ? "" : "s",
                         (long long)t.pieces, (long long)t.refuted_pieces,
                         (long long)t.searched, undecided);
        size_t at = w > 0 ? (size_t)w : 0;
        if (t.unsearched && at < sizeof row->note)
            snprintf(row->note + at, sizeof row->note - at,
                     " (a target unsearched: %s)", t.unsearched);
    }
    row->seconds = hta_clock_now() - t0;
    return HTA_OK;
}
