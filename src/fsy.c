/* The tau sweep of Algorithm 2 (Fischer-Su-Yin, Section 5.2) with exact
 * pruning.
 *
 * Shortcuts (all exact: the pruned sweep returns the full sweep's makespan):
 *
 * (1) f(tau) = f(tau-1): both engines then leave the cover unchanged
 *     (maxcover.h), so B^tau = B^{tau-1}, already examined.  This also
 *     agrees with Theorem 5.4: Lemma 5.9 needs a server with exactly k^O
 *     local tasks, which no cover of size f(k^O - 1) requires.
 *
 * (2) f(tau) > f(tau-1): every max-cover at tau has a server with tau
 *     covered tasks (else it would be a cover at tau-1 larger than
 *     f(tau-1)); those tasks stay local in B^tau, so L^{B^tau} >=
 *     tau*w_loc.  Once tau*w_loc >= best, no later tau can improve: it
 *     either repeats an earlier cover (1) or has makespan >= tau'*w_loc.
 *
 * (3) f(tau) = m: every later tau repeats this cover (1); stop.
 *
 * (4) best <= lower bound on L^O: nothing can improve; stop.
 */
#include "hta/fsy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/balassign.h"
#include "hta/bounds.h"

void hta_fsy_result_free(hta_fsy_result *res)
{
    if (!res)
        return;
    free(res->f);
    res->f = NULL;
}

static void trace(const hta_fsy_opts *o, int64_t tau, int64_t f, double c,
                  double span, const char *note)
{
    if (!o->trace)
        return;
    hta_fsy_step st = {tau, f, c, span, note};
    o->trace(o->trace_ctx, &st);
}

hta_status hta_fsy_run(const hta_instance *inst, const hta_fsy_opts *opts,
                       int32_t *best, hta_fsy_result *res, hta_diag *d)
{
    int32_t m = inst->m, n = inst->n;
    memset(res, 0, sizeof *res);
    res->makespan = INFINITY;
    hta_maxcover *mc = NULL;
    int64_t *q = malloc((size_t)n * sizeof *q);
    int32_t *a = malloc((size_t)m * sizeof *a);
    int64_t capf = 64;
    res->f = malloc((size_t)capf * sizeof *res->f);
    hta_status st = HTA_OK;
    if (!q || !a || !res->f) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    res->f[0] = 0;
    if ((st = hta_maxcover_new(inst, opts->engine, &mc, d)) != HTA_OK)
        goto cleanup;
    double lb = hta_bound_trivial(inst);
    for (int64_t tau = 1; tau <= m; tau++) {
        if ((st = hta_maxcover_raise(mc, tau, d)) != HTA_OK)
            goto cleanup;
        int64_t f = hta_maxcover_size(mc), u = m - f;
        if (tau >= capf) {
            int64_t *nf = realloc(res->f, (size_t)capf * 2 * sizeof *nf);
            if (!nf) {
                st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                  "out of memory");
                goto cleanup;
            }
            res->f = nf;
            capf *= 2;
        }
        res->f[tau] = f;
        res->K = tau;
        double c = hta_wrem_at(&inst->wrem, u);
        if (opts->prune) {
            lb = fmax(lb, hta_bound_flow(inst, res->f, res->K));
            if (f == res->f[tau - 1]) {
                trace(opts, tau, f, c, NAN, "same cover as tau-1");
                continue;
            }
            if ((double)tau * inst->w_loc >= res->makespan) {
                trace(opts, tau, f, c, NAN, "tau*w_loc >= best: stop");
                break;
            }
        }
        /* Bal-assign on alpha^tau; its real makespan by the evaluator. */
        const int32_t *cover = hta_maxcover_cover(mc);
        const int32_t *loads = hta_maxcover_loads(mc);
        st = opts->literal_balance ?
                 hta_balassign_slots_literal(inst, loads, u, c, q, d) :
                 hta_balassign_slots(inst, loads, u, c, q, d);
        if (st != HTA_OK)
            goto cleanup;
        memcpy(a, cover, (size_t)m * sizeof *a);
        if ((st = hta_balassign_place(inst, q, a, d)) != HTA_OK)
            goto cleanup;
        hta_eval ev;
        if ((st = hta_eval_run(inst, a, &ev, d)) != HTA_OK)
            goto cleanup;
        double span = ev.makespan;
        hta_eval_free(&ev);
        res->balanced++;
        trace(opts, tau, f, c, span, NULL);
        if (span < res->makespan) {
            res->makespan = span;
            res->best_tau = tau;
            memcpy(best, a, (size_t)m * sizeof *a);
        }
        if (opts->prune && (f == m || res->makespan <= lb))
            break;
    }
    res->lower_bound = hta_bound_flow(inst, res->f, res->K);
    res->stats = *hta_maxcover_stats_get(mc);
cleanup:
    hta_maxcover_free(mc);
    free(q);
    free(a);
    if (st != HTA_OK)
        hta_fsy_result_free(res);
    return st;
}
