/* The rows of the solve policy that decide "makespan <= L" (solve_impl.h):
 * gap closing (close: a search for an assignment at the bound, and the
 * envelope's refutations) and the SAT decision (sat: CaDiCaL on FSY's
 * reduction or the general encoding). */
#include "solve_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/levels.h"
#include "hta/num.h"
#include "offline/bounds.h"
#include "exact/close.h"
#include "exact/closelev.h"
#include "exact/envelope.h"
#include "exact/satdec.h"

/* A gap-closing row (close, sat) with nothing to do: the best so far
 * meets the bound.  1 when it was skipped. */
static int skip_when_proven(const run *s, hta_row *row, double t0)
{
    if (!solve_best_proven(s))
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
    double open;  /* the least value tested and not refuted, or the best */
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
    rf->open = best;
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
        if (solve_stopped(s) || hta_clock_now() - t0 > o->time_limit)
            break;
        double L = L0 + unit * ldexp(1.0, k);
        if ((st = envelope_no(s, L, 0, rf, &no, d)) == HTA_OK && !no)
            hi = rf->open = L;
    }
    /* the bound: the least makespan possible above the largest value
     * refuted (with integer costs, + 1) */
    double bound = step ? rf->lo + 1 : next_load(s, rf->lo);
    for (int k = 0; st == HTA_OK && isfinite(hi) && bound < hi; k++) {
        if (solve_stopped(s) || hta_clock_now() - t0 > o->time_limit ||
            (!step && (hi - rf->lo <= 1e-6 * fmax(1.0, hi) || k >= 6)))
            break;
        double L = step ? floor((rf->lo + hi) / 2) : 0.5 * (rf->lo + hi);
        if ((st = envelope_no(s, L, 0, rf, &no, d)) == HTA_OK && !no)
            hi = rf->open = L;
        else if (st == HTA_OK)
            bound = step ? rf->lo + 1 : next_load(s, rf->lo);
    }
    if (st != HTA_OK)
        return st;
    hta_solve_bound(res, bound, "envelope");
    rf->proven = solve_best_proven(s);
    rf->start = bound > rf->lo ? bound : isfinite(hi) ? hi : rf->lo;
    return HTA_OK;
}

/* A row that ends unproven: the envelope's bisection between the largest
 * value refuted and the least not refuted (or the best) goes on down to
 * 10^-5 of the best (refute stopped after 6 steps so that a row the
 * search proves pays no more; here only a better bound is left to win:
 * HDFS Zipf 1.5, affine 3 + 10^-5 r, 10^5 tasks: 250.457 -> 250.472 for
 * 3% more time; 10^-6 gave 250.474 for 7%), the bound rising to the
 * least makespan possible above it. */
static hta_status refine(run *s, double t0, refutation *rf, hta_diag *d)
{
    hta_solve_result *res = s->res;
    double hi = fmin(rf->open, res->best_span);
    hta_status st = HTA_OK;
    int no;
    for (int k = 0; st == HTA_OK && k < 40 &&
                    hi - rf->lo > 1e-5 * fmax(1.0, hi);
         k++) {
        if (solve_stopped(s) || hta_clock_now() - t0 > s->o->time_limit)
            break;
        double L = 0.5 * (rf->lo + hi);
        if ((st = envelope_no(s, L, 0, rf, &no, d)) == HTA_OK && !no)
            hi = rf->open = L;
    }
    if (st == HTA_OK)
        hta_solve_bound(res, next_load(s, rf->lo), "envelope");
    return st;
}

/* Gap closing: the search (close.h) decides makespan <= the bound; after
 * a failure there, the envelope bound refutes what it can below the best
 * (refute: it may prove the best, or raise the bound, where the search
 * goes on); then a bisection up to the best so far.  The search first:
 * where it answers at the bound (Zipf s = 1, constant costs) the envelope
 * would cost as much again for nothing. */
hta_status solve_run_close(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_result *res = s->res;
    hta_row *row = solve_add_row(s, HTA_ALGO_CLOSE);
    double t0 = hta_clock_now();
    hta_status st = HTA_OK;
    if ((st = solve_flow_bound(s, d)) != HTA_OK)
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
     * had solve_stopped at 115.9983) */
    int again = 0;
    refutation rb;
    memset(&rb, 0, sizeof rb);
    if (st == HTA_OK && found && (st = solve_finish_row(s, row, keep, d)) == HTA_OK &&
        decisions > 1 && !solve_best_proven(s) && !solve_stopped(s) &&
        hta_clock_now() - t0 <= o->time_limit &&
        (st = envelope_no(s, res->best_span, 1, &rb, &again, d)) == HTA_OK &&
        again)
        hta_solve_bound(res, res->best_span, "envelope");
    if (st == HTA_OK && found && !again && rf.refuted && !rf.strict &&
        !step && !solve_best_proven(s))
        st = refine(s, t0, &rf, d);
    if (rf.refuted) /* the largest value refuted, for the notes */
        snprintf(no, sizeof no,
                 "envelope: <= %.10g refuted (room for at most %.1f of %lld "
                 "tasks); ",
                 rf.lo, rf.er.bound, (long long)m);
    /* the certificate: the largest value refuted, written once */
    const refutation *cert = again ? &rb : rf.refuted ? &rf : NULL;
    if (st == HTA_OK && cert && o->write_lp) {
        st = hta_envelope_write_lp(s->inst, cert->lo, cert->strict,
                                   o->write_lp, o->verbose, d);
        res->lp_written = st == HTA_OK;
    }
    char at[32], shifted[48] = "";
    snprintf(at, sizeof at, "%.10g", L0);
    if (cr.shifts > 0)
        snprintf(shifted, sizeof shifted, "; shifts gained %lld",
                 (long long)cr.shifts);
    if (st == HTA_OK && rf.proven) {
        snprintf(row->status, sizeof row->status, "bound");
        snprintf(row->note, sizeof row->note,
                 "none found <= %s; makespan %s %.10g refuted by the "
                 "envelope bound (room for at most %.1f of %lld tasks, %d "
                 "decision%s): "
                 "the bound rises to %.10g",
                 at, rf.strict ? "<" : "<=", rf.lo, rf.er.bound,
                 (long long)m, rf.calls, rf.calls == 1 ? "" : "s",
                 res->lower_bound);
    } else if (st == HTA_OK && found) {
        snprintf(row->status, sizeof row->status, "%s",
                 solve_best_proven(s) ? "optimal" : "feasible");
        if (again)
            snprintf(row->note, sizeof row->note,
                     "none found <= %s (room for %lld of %lld tasks); "
                     "bisection above it, %d decisions; makespan < %.10g "
                     "refuted by the envelope bound (room for at most %.1f "
                     "of %lld tasks)",
                     at, (long long)first.end, (long long)first.need,
                     decisions, rb.lo, rb.er.bound, (long long)m);
        else if (decisions == 1)
            snprintf(row->note, sizeof row->note,
                     "makespan <= %s (the bound): room for %lld -> %lld of "
                     "%lld tasks, %lld paths in %lld rounds%s",
                     at, (long long)cr.start, (long long)cr.end,
                     (long long)cr.need, (long long)cr.moves,
                     (long long)cr.rounds, shifted);
        else
            snprintf(row->note, sizeof row->note,
                     "none found <= %s (room for %lld of %lld tasks); "
                     "%sbisection above it, %d decisions",
                     at, (long long)first.end, (long long)first.need, no,
                     decisions);
    } else if (st == HTA_OK) {
        snprintf(row->status, sizeof row->status, "%s",
                 !cr.stopped ? "undecided" :
                 solve_stopped(s)  ? "interrupted" :
                               "time_limit");
        snprintf(row->note, sizeof row->note,
                 "no assignment of makespan <= %s found (room for %lld of "
                 "%lld tasks after %lld paths, %d decisions); %snot a "
                 "proof",
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
        if ((st = solve_finish_row(s, row, a, d)) != HTA_OK || solve_best_proven(s))
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
    snprintf(at, sizeof at, "%.10g", L);
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
                 solve_best_proven(s) ? "optimal" :
                 sr.answer == HTA_SATDEC_YES || sr.answer == HTA_SATDEC_NA ?
                                   "feasible" :
                 solve_stopped(s) ? "interrupted" : "time_limit");
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
                 solve_stopped(s) ? "interrupted" : "time_limit");
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
hta_status solve_run_sat(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_result *res = s->res;
    hta_row *row = solve_add_row(s, HTA_ALGO_SAT);
    double t0 = hta_clock_now();
    hta_status st = solve_flow_bound(s, d);
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
    snprintf(at, sizeof at, "%.10g", first);
    hta_format_real(up, L);
    if (st == HTA_OK && sr.answer == HTA_SATDEC_YES) {
        st = solve_finish_row(s, row, a, d);
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
                 solve_stopped(s) ? "interrupted" : "time_limit");
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

/* A row's note (a long one cut at the note's size). */
static void set_note(hta_row *row, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_note(hta_row *row, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(row->note, sizeof row->note, fmt, ap);
    va_end(ap);
}

/* The least load above T (hta_bound_levels_round), or T when there is
 * none to step to. */
static double next_level_load(const hta_instance *in, double T)
{
    double v = hta_bound_levels_round(in, T + 1e-9 * fmax(1.0, T));
    return v > T ? v : T;
}

/* Gap closing on N > 2 levels (closelev.h), from the level flow bound (a
 * load value) up the loads of integer counts (hta_bound_levels_round)
 * while below the best so far, at most 8 targets: each target is first
 * refuted by the count flow where it can be (the bound rises to the next
 * load), else searched with slots (a yes at the bound is the optimum; a
 * yes elsewhere improves the best, and ends the row). */
hta_status solve_run_close_levels(run *s, hta_diag *d)
{
    const hta_solve_opts *o = s->o;
    hta_solve_result *res = s->res;
    hta_row *row = solve_add_row(s, HTA_ALGO_CLOSE);
    double t0 = hta_clock_now();
    hta_status st = solve_flow_bound(s, d);
    if (st != HTA_OK || skip_when_proven(s, row, t0))
        return st;
    int N = hta_levels(s->inst);
    int32_t m = s->inst->m;
    if (!hta_closelev_applies(s->inst)) {
        snprintf(row->status, sizeof row->status, "skipped");
        set_note(row,
                 "%d levels: the slot search needs a constant cost on "
                 "every level below the top; not applied", N);
        row->seconds = hta_clock_now() - t0;
        return HTA_OK;
    }
    if (!hta_wrem_is_constant(hta_level_wrem(s->inst, N)))
        return solve_close_top(s, row, t0, d);
    int32_t *a = malloc((size_t)m * sizeof *a);
    if (!a)
        return OOM(d);
    double T = res->lower_bound, T0 = T;
    double deadline = t0 + o->time_limit, refuted_at = -1;
    hta_closelev_result cr, first;
    memset(&cr, 0, sizeof cr);
    memset(&first, 0, sizeof first);
    int decisions = 0, searches = 0, found = 0, refutations = 0;
    int incumbent = 0;
    double searched_at = T; /* the last target searched */
    int64_t room = m;
    int stopped = 0;
    while (st == HTA_OK && decisions++ < 8 && !solve_best_proven(s)) {
        int no = 0;
        int64_t r = m;
        if ((st = hta_closelev_refute(s->inst, T, 0, m, deadline, o->stop,
                                      &no, &r, &stopped, d)) != HTA_OK ||
            stopped)
            break;
        double next = next_level_load(s->inst, T);
        if (no && next <= T)
            break; /* refuted, but no load to step to (10^6 steps) */
        if (no) {
            refutations++;
            refuted_at = T;
            room = r;
            T = next;
            hta_solve_bound(res, T, "count flow");
            continue;
        }
        if (s->fsy && s->fsy_span < res->best_span &&
            T >= s->fsy_span - 1e-9 * fmax(1.0, T)) {
            /* the incumbent meets the target: no search */
            incumbent = found = 1;
            st = solve_finish_row(s, row, s->fsy, d);
            break;
        }
        if (T >= res->best_span - 1e-9 * fmax(1.0, T))
            break;
        searched_at = T;
        st = hta_closelev_decide(s->inst, T, NULL, deadline, o->stop, a,
                                 &cr, d);
        if (st != HTA_OK)
            break;
        if (searches++ == 0)
            first = cr;
        if (cr.found) {
            found = 1;
            st = solve_finish_row(s, row, a, d);
            break;
        }
        if (cr.stopped || next <= T)
            break;
        T = next;
    }
    char at[32], got[32], ref[160] = "";
    hta_format_real(at, T0);
    hta_format_real(got, T);
    if (refutations > 0) {
        char last[32];
        hta_format_real(last, refuted_at);
        snprintf(ref, sizeof ref,
                 "count flow: <= %s%s%s refuted (room for %lld of %ld "
                 "tasks); ",
                 at, refutations > 1 ? " .. " : "",
                 refutations > 1 ? last : "", (long long)room, (long)m);
    }
    if (st != HTA_OK) {
        free(a);
        return st;
    }
    if (found) {
        snprintf(row->status, sizeof row->status, "%s",
                 solve_best_proven(s) ? "optimal" : "feasible");
        if (incumbent)
            set_note(row,
                     "%d levels, %sfsy's assignment, refilled (exact's "
                     "incumbent), has makespan %s: no search",
                     N, ref, got);
        else if (searches == 1 && refutations == 0)
            set_note(row,
                     "%d levels, slots: makespan <= %s (the bound); "
                     "all-local slots place %lld of %ld tasks, %lld moves "
                     "(%lld tried)",
                     N, at, (long long)cr.start, (long)m,
                     (long long)cr.moves, (long long)cr.trials);
        else
            set_note(row,
                     "%d levels, slots: %smakespan <= %s found, %d "
                     "search%s",
                     N, ref, got, searches, searches == 1 ? "" : "es");
    } else if (solve_best_proven(s)) {
        char b[32];
        hta_format_real(b, res->best_span);
        snprintf(row->status, sizeof row->status, "bound");
        set_note(row,
                 "%d levels, %sthe bound rises to %s, the best so far", N,
                 ref, b);
    } else {
        snprintf(row->status, sizeof row->status, "%s",
                 !cr.stopped && !stopped ? "undecided" :
                 solve_stopped(s) ? "interrupted" : "time_limit");
        char sat[32];
        hta_format_real(sat, searched_at);
        if (stopped && searches == 0)
            set_note(row, "%d levels, %sthe count flow at %s cut short; "
                          "not a proof", N, ref, got);
        else if (searches > 0)
            set_note(row,
                     "%d levels, slots: %sno assignment of makespan <= %s "
                     "found (%lld of %ld tasks placed after %lld moves, "
                     "%d search%s); not a proof",
                     N, ref, sat, (long long)(first.start + first.moves),
                     (long)m, (long long)first.moves, searches,
                     searches == 1 ? "" : "es");
        else
            set_note(row, "%d levels, %snot a proof",
                     N, ref);
    }
    row->seconds = hta_clock_now() - t0;
    free(a);
    return st;
}
