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
 *
 * (5) Bounds on L^{B^tau} from counts alone.  Upper: the virtual makespan
 *     V^tau = max_s virtual load, since every real load is at most its
 *     virtual load (balassign.h).  Lower: server s keeps its l_s
 *     covered tasks and gets q_s slots, of which at most A_s =
 *     min(q_s, F_s) can hold a local task (F_s uncovered tasks are local to
 *     s; the sweep does not count them, F_s <= Fbar_s is used: 0 below
 *     tau, where a maximum cover leaves no uncovered task, else deg_s -
 *     l_s; a larger A_s only lowers the bound, w_rem being >= w_loc and
 *     non-decreasing).  At most P = sum_s A_s slot tasks are local in
 *     all, so r >= u - P and a remote task costs at least w_rem(u - P).  A load only grows
 *     when a local task becomes remote (w_rem >= w_loc), hence L^{B^tau} >=
 *     max_s load(l_s + A_s local, q_s - A_s remote, w_rem(u - P)).
 *
 * The sweep runs twice.  Pass 1 raises tau and computes f, V^tau and the
 * lower bound LB^tau of every tau that (1)-(4) keep, all in O(n log n) per
 * tau, and X = min V^tau, so X >= min_tau L^{B^tau}.  Pass 2 repeats the
 * same deterministic max-cover sweep and builds B^tau only when LB^tau <=
 * X and LB^tau < best: a tau with LB^tau > X has L^{B^tau} > X >= the
 * final minimum, one with LB^tau >= best cannot beat best.  Pass 2 also
 * stops once tau*w_loc > X (rule 2 against X).  The tau attaining X always
 * survives both tests, so pass 2 builds at least one assignment.  Pass 2
 * does not repeat the sweep: pass 1 logs every change of the cover
 * (maxcover.h) and the end of the log at each tau, and pass 2 rebuilds
 * the cover of a tau by replaying the log up to there (for its first
 * build, by undoing the changes after it from pass 1's last cover when
 * those are fewer, as when the build is one of the last taus), O(changes)
 * in all instead of a second sweep; the covers are pass 1's, so the
 * result is the same.  Were the log lost (out of memory), pass 2 repeats
 * the sweep as before.
 *
 * The probe.  Pass 1 builds one B^tau itself, at the first kept tau with
 * LB^tau at most the lower bound on L^O known then: its makespan bounds
 * the minimum from above, so X becomes the smaller of the two.  If it
 * meets the lower bound and is below LB^e of every earlier kept tau e
 * (L^{B^e} >= LB^e, so those are worse), it is the full sweep's answer,
 * tau included (the first tau reaching the minimum): pass 1 stops there
 * and pass 2 is not needed.  On a uniform placement, B^1 (one covered task
 * a server, the rest local in the slots) is already optimal, where the
 * bounds from counts alone kept the sweep going to tau = m/n.  When
 * costs are not exact in floating point, X gets a margin of a few ulps so
 * that rounding cannot make it fall below the real minimum.
 *
 * The jump (prune 2), before both passes.  D(tau) = sum_s min(tau,
 * deg_s) bounds f(tau) from above (a server covers at most tau tasks, and
 * only its own).  Let tau* be the least tau with D(tau) >= m, and suppose
 * tau* >= 2, some server holds no replica, and one remote task costs more
 * than tau* local ones: load(0, 1, w_rem(1)) > load(tau*, 0).  Then if a
 * maximum cover at tau* covers all m tasks, the full sweep's least
 * makespan is tau* * w_loc, first reached at tau*, and any such cover is
 * a B^tau* reaching it:
 *  - B^tau* is the cover itself (nothing is uncovered), and some server
 *    runs tau* tasks: else it would be a cover at tau* - 1 of all m
 *    tasks, while f(tau* - 1) <= D(tau* - 1) < m.
 *  - Every tau < tau* has f(tau) <= D(tau) < m uncovered tasks.  The
 *    server with no replica has load 0 < tau, so bal-assign's first pick
 *    (least virtual load) goes to a server below tau, where a maximum
 *    cover leaves no uncovered task local: that slot task runs remote, R
 *    >= 1, and L^{B^tau} >= load(0, 1, w_rem(R)) >= load(0, 1, w_rem(1))
 *    > tau* * w_loc (hta_load is monotone in every argument, w_rem
 *    non-decreasing).
 * It is the optimum too: with D(tau) in place of f(tau) below tau* (an
 * upper bound only lowers a candidate, so the flow bound stays a bound)
 * every k < tau* leaves a remote task, whose pigeonhole term w_rem(.) >=
 * w_rem(1) exceeds (k + 1) * w_loc, and k = tau* gives tau* * w_loc.
 * The cover is computed from scratch at tau*, one incremental run instead
 * of the sweep's tau = 1 .. tau*: on uniform placements with as many
 * servers as tasks (5% of them empty at 3 replicas), tau = 1 is a maximum
 * matching of 10^6 tasks into 10^6 servers (13 phases, 116k augmenting
 * paths) that the answer never uses, and the cover at tau* = 2 from
 * scratch takes one phase (10^6 tasks: 0.08 s against 0.27 s for tau =
 * 1, 2).  The answer's makespan and tau are the full sweep's, its cover
 * may not be (prune 1 keeps the sweep's).  When the cover misses a task
 * (f(tau*) < m) it is dropped and the passes run as without the jump:
 * one wasted max-cover, which the conditions keep rare (w_rem(1) >
 * tau* * w_loc holds only for small tau*: on Zipf placements D grows
 * slowly and tau* is beyond it).
 *
 * One task a server (prune 2, after the jump).  Let m <= n, the costs be
 * exact (integral: every load computed exactly) and hi = max(load(1, 0),
 * load(0, 1, w_rem(m))).  The sweep's B^1 runs at most one task a
 * server: a cover at tau = 1 leaves n - f(1) >= m - f(1) = u servers
 * empty, and bal-assign's u least picks are their first slots (virtual
 * load w_rem(u), below w_loc + w_rem(u) and 2 w_rem(u)); so L^{B^1} <=
 * hi (w_rem(r) <= w_rem(m) for its remote count r).  Let lb be the flow
 * bound with f(k) <= D(k) = sum_s min(k, deg_s) (an upper bound only
 * lowers it, as for the jump; D is concave, so the bound's tail beyond
 * the last k holds for it too).  If hi <= lb, then lb <= L^O <=
 * L^{B^1} <= hi <= lb: the full sweep's least makespan is hi, first
 * reached at tau = 1, and it is the optimum; any assignment of at most
 * one task a server (m <= n leaves room) has makespan between L^O and hi,
 * hence hi.  Built here in O(m + |E| + n): each task to the first of its
 * servers still empty, the rest to the empty servers in id order.  On
 * Zipf placements with as many servers as tasks (10^6: D(1) = 438,493, so
 * f(2) <= 2 f(1) < m and lb = w_rem = 3) this replaces the maximum
 * matching of tau = 1 and B^1 (0.1 s) by one pass.  Its assignment is not
 * the sweep's (`--no-jump` keeps that).
 */
#include "hta/fsy.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hta/assign.h"
#include "hta/levels.h"
#include "hta/num.h"
#include "core/buf.h"
#include "core/check.h"
#include "offline/balassign.h"
#include "offline/bounds.h"

#include <assert.h>

void hta_fsy_result_free(hta_fsy_result *res)
{
    if (!res)
        return;
    free(res->f);
    res->f = NULL;
}

#ifdef HTA_CHECKED
/* Rule (5): bounds on the real makespan of B^tau from the counts, over
 * every server: the reference of balance_bounds_runs. */
static void balance_bounds(const hta_instance *inst, const int32_t *loads,
                           const int32_t *fbar, const int64_t *q, int64_t u,
                           double c, double *lower, double *upper)
{
    int64_t P = 0;
    for (int32_t s = 0; s < inst->n; s++)
        P += q[s] < fbar[s] ? q[s] : fbar[s];
    double c_lo = hta_wrem_at(&inst->wrem, u - P), lo = 0.0, up = 0.0;
    for (int32_t s = 0; s < inst->n; s++) {
        int64_t A = q[s] < fbar[s] ? q[s] : fbar[s];
        double x = hta_load(inst, loads[s] + A, q[s] - A, c_lo);
        double v = hta_balassign_virtual(inst, loads[s], q[s], c);
        lo = x > lo ? x : lo;
        up = v > up ? v : up;
    }
    *lower = lo;
    *upper = up;
}
#endif

/* The slots q of s, a server at tau and the next of its run (top) in id
 * order (*seen of them before it), and *A = min(q, Fbar_s). */
static int64_t at_tau(const hta_instance *inst, const hta_slot_runs *r,
                      int32_t top, int32_t s, int64_t tau, int64_t *seen,
                      int64_t *A)
{
    int64_t q = r->q[top] + (*seen < r->plus[top]);
    int64_t fbar = inst->srv_off[s + 1] - inst->srv_off[s] - tau;
    ++*seen;
    *A = q < fbar ? q : fbar;
    return q;
}

/* The bounds of balance_bounds from the slots by runs
 * (hta_balassign_slot_runs) in O(runs + len): only a server at tau has
 * Fbar > 0 (free_bound), and those are among the cover's alive servers,
 * len of them in id order (hta_maxcover_alive); in their run the first
 * plus have one slot more.  Every other server has A = 0, and its two
 * loads are its run's.  The same loads by the same formulas, so the same
 * maxima and P.  On Zipf s = 1, 10^6 tasks and 10^4 servers, pass 1 read
 * every server of 159 taus four times (bal-assign's slots, Fbar, P and
 * the maxima): 0.02 s of its 0.07 s. */
static void balance_bounds_runs(const hta_instance *inst,
                                const hta_slot_runs *r, const int32_t *loads,
                                const int32_t *alive, int32_t len,
                                int64_t tau, int64_t u, double c,
                                double *lower, double *upper)
{
    int32_t top = r->runs > 0 && r->load[r->runs - 1] == tau ? r->runs - 1 :
                                                                -1;
    int64_t P = 0, seen = 0, q, A;
    for (int32_t k = 0; top >= 0 && k < len; k++)
        if (loads[alive[k]] == tau) {
            (void)at_tau(inst, r, top, alive[k], tau, &seen, &A);
            P += A;
        }
    HTA_CHECK(top < 0 || seen == r->count[top]);
    double c_lo = hta_wrem_at(&inst->wrem, u - P), lo = 0.0, up = 0.0;
    for (int32_t x = 0; x < r->runs; x++)
        for (int64_t j = r->q[x]; j <= r->q[x] + (r->plus[x] > 0); j++) {
            double v = hta_balassign_virtual(inst, r->load[x], j, c);
            up = v > up ? v : up;
            if (x != top) {
                double y = hta_load(inst, r->load[x], j, c_lo);
                lo = y > lo ? y : lo;
            }
        }
    seen = 0;
    for (int32_t k = 0; top >= 0 && k < len; k++)
        if (loads[alive[k]] == tau) {
            q = at_tau(inst, r, top, alive[k], tau, &seen, &A);
            double y = hta_load(inst, tau + A, q - A, c_lo);
            lo = y > lo ? y : lo;
        }
    *lower = lo;
    *upper = up;
}

static void trace(const hta_fsy_opts *o, int64_t tau, int64_t f, double c,
                  double span, const char *note)
{
    if (!o->trace)
        return;
    hta_fsy_step st = {tau, f, c, span, note};
    o->trace(o->trace_ctx, &st);
}

typedef struct sweep {
    const hta_instance *inst;
    const hta_fsy_opts *opts;
    hta_fsy_result *res;
    int64_t *q;       /* slots per server */
    int32_t *a;       /* the B^tau being built */
    int32_t *best;    /* the best B^tau so far (caller's array) */
    double *lower;    /* pass 1: LB^tau, NAN where the tau is skipped */
    size_t cap_f, cap_lower; /* capacities of res->f and lower */
    double X;         /* pass 1: min V^tau, with margin, and the probe's */
    int probed;       /* pass 1 built its probe */
    struct {
        int64_t tau, f;
        double c, span;
        int first;    /* every earlier kept tau has a worse B^tau */
    } probe;
    double lower_min; /* pass 1: the least LB^tau so far */
    int solved;       /* the probe met the lower bound: no pass 2 */
    hta_maxcover *scratch; /* bal-assign's matching (build_b) */
    int32_t *used;    /* build_b: slot tasks placed locally per server */
    int32_t *fbar;    /* pass 1: Fbar of rule (5) at the current tau */
    double lb;        /* lower bound on L^O */
    hta_flow_bound fb; /* the flow bound, updated as f grows */
    /* pass 1's log: the covers of its sweep (maxcover.h), or NULL */
    int32_t *log_t, *log_s; /* the pairs (task, server) */
    int64_t log_len;
    int64_t *log_end;      /* [tau]: log length after raising to tau */
    size_t cap_log_end;
    int32_t *spare;        /* pass 1's last cover, for pass 2's replay */
    int32_t *spare_loads;  /* its loads, or NULL */
} sweep;

/* Fbar_s of rule (5): at least the uncovered tasks local to s in a
 * maximum cover at tau, 0 where there are none (below tau, or when all of
 * s's tasks are covered by s).  Checked builds count them.  O(n). */
static void free_bound(const hta_instance *inst, const int32_t *cover,
                       const int32_t *loads, int64_t tau, int32_t *fbar)
{
    for (int32_t s = 0; s < inst->n; s++)
        fbar[s] = loads[s] < tau ? 0 :
                                   (int32_t)(inst->srv_off[s + 1] -
                                             inst->srv_off[s] - loads[s]);
#ifdef HTA_CHECKED
    for (int32_t s = 0; s < inst->n; s++) {
        int32_t nfree = 0;
        for (int64_t i = inst->srv_off[s]; i < inst->srv_off[s + 1]; i++)
            nfree += cover[inst->srv_task[i]] == -1;
        HTA_CHECK(fbar[s] >= nfree && (fbar[s] > 0 || nfree == 0));
    }
#else
    (void)cover;
#endif
}

static hta_status grow(sweep *w, int64_t tau, hta_diag *d)
{
    size_t need = (size_t)tau + 1;
    if (!HTA_RESERVE(w->res->f, w->cap_f, need) ||
        !HTA_RESERVE(w->lower, w->cap_lower, need) ||
        !HTA_RESERVE(w->log_end, w->cap_log_end, need))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    return HTA_OK;
}

/* The cover that bal-assign extends is always the incremental engine's.
 * Both engines compute the same f(tau) (tested on every family), but not
 * the same maximum cover, and B^tau depends on the cover: with the cover
 * of whichever engine ran, `--maxflow` changed fsy's makespan (13 against
 * 12 on instances/zipf-1k.txt).  The answer must not depend on the
 * engine, so with the igraph engine igraph computes every f(tau) as the
 * reference and the incremental engine's cover of that size is used; a
 * disagreement of the two sizes is an internal error. */
typedef struct covers {
    const hta_instance *inst;
    hta_maxcover *mc;  /* incremental: the cover used */
    hta_maxcover *ref; /* igraph (--maxflow igraph) or NULL */
} covers;

static hta_status covers_new(const hta_instance *inst,
                             hta_maxflow_engine engine, covers *c,
                             hta_diag *d)
{
    c->inst = inst;
    c->mc = c->ref = NULL;
    hta_status st = hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &c->mc, d);
    if (st == HTA_OK && engine == HTA_MAXFLOW_IGRAPH)
        st = hta_maxcover_new(inst, HTA_MAXFLOW_IGRAPH, &c->ref, d);
    return st;
}

/* Lemma 5.2's cover: at most tau covered tasks per server, f(tau) the sum
 * of the loads, f non-decreasing in tau and at most m. */
static void check_cover(const hta_maxcover *mc, const hta_instance *inst,
                        int64_t tau)
{
#ifdef HTA_CHECKED
    const int32_t *loads = hta_maxcover_loads(mc);
    int64_t sum = 0;
    for (int32_t s = 0; s < inst->n; s++) {
        HTA_CHECK(loads[s] >= 0 && loads[s] <= tau);
        sum += loads[s];
    }
    HTA_CHECK(sum == hta_maxcover_size(mc));
#else
    (void)mc;
    (void)inst;
    (void)tau;
#endif
}

/* greedy: the first raise of the jump's cover, from a task-side greedy
 * (maxcover.h); any maximum cover serves there. */
static hta_status covers_raise(covers *c, int64_t tau, int greedy,
                               hta_diag *d)
{
    int64_t before = hta_maxcover_size(c->mc);
    hta_status st = greedy ? hta_maxcover_raise_greedy(c->mc, tau, d) :
                             hta_maxcover_raise(c->mc, tau, d);
    if (st == HTA_OK) {
        assert(hta_maxcover_size(c->mc) >= before);
        check_cover(c->mc, c->inst, tau);
    }
    if (st != HTA_OK || !c->ref)
        return st;
    if ((st = hta_maxcover_raise(c->ref, tau, d)) != HTA_OK)
        return st;
    if (hta_maxcover_size(c->ref) != hta_maxcover_size(c->mc))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "max-cover engines disagree at tau %lld: igraph "
                            "%lld, incremental %lld",
                            (long long)tau,
                            (long long)hta_maxcover_size(c->ref),
                            (long long)hta_maxcover_size(c->mc));
    return HTA_OK;
}

static const hta_maxcover_stats *covers_stats(const covers *c)
{
    return hta_maxcover_stats_get(c->ref ? c->ref : c->mc);
}

static void covers_free(covers *c)
{
    hta_maxcover_free(c->mc);
    hta_maxcover_free(c->ref);
}

/* B^tau into a (w->a; the probe's into the best itself, which it keeps
 * whatever it is: no copy): bal-assign's slots for the cover's loads
 * (unless w->q holds them already: have_q), the uncovered tasks placed
 * (by w->scratch,
 * made at the first build that needs a matching and kept for the next
 * ones), and its real makespan.  nfree (or NULL): at least the cover's
 * free counts, 0 only where there is none (Fbar, or the counts); with
 * them the matching is skipped where no server with a slot holds an
 * uncovered task (a maximum cover leaves none on a server below tau, so
 * where only those get slots, every slot task is remote).  The makespan
 * comes from the counts (hta_balassign_makespan); checked builds compare
 * it with the evaluator's. */
static hta_status build_b(sweep *w, int32_t *a, const int32_t *cover,
                          const int32_t *loads, const int32_t *nfree,
                          int have_q, int64_t u, double c, double *span,
                          hta_diag *d)
{
    const hta_instance *inst = w->inst;
    hta_status st = HTA_OK;
    if (!have_q && (st = w->opts->literal_balance ?
                             hta_balassign_slots_literal(inst, loads, u, c,
                                                         w->q, d) :
                             hta_balassign_slots(inst, loads, u, c, w->q,
                                                 d)) != HTA_OK)
        return st;
    if (!w->used &&
        !(w->used = malloc((size_t)inst->n * sizeof *w->used)))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    if (!w->scratch && (!nfree ||
                        hta_balassign_matching_needed(inst, w->q, nfree)) &&
        (st = hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &w->scratch,
                               d)) != HTA_OK)
        return st;
    memcpy(a, cover, (size_t)inst->m * sizeof *a);
    if ((st = hta_balassign_place(inst, w->scratch, w->q, nfree, a,
                                  w->used, d)) != HTA_OK)
        return st;
    int64_t remote;
    *span = hta_balassign_makespan(inst, loads, w->q, w->used, &remote);
#ifdef HTA_CHECKED
    hta_eval ev;
    if ((st = hta_eval_run(inst, a, &ev, d)) != HTA_OK)
        return st;
    HTA_CHECK(ev.makespan == *span && ev.remote == remote);
    hta_eval_free(&ev);
#endif
    return HTA_OK;
}

/* The probe of pass 1 (see the top of the file): B^tau at the first kept
 * tau whose LB^tau is at most the lower bound on L^O, kept in w->best
 * (pass 2, if it runs, overwrites it with its first build). */
static hta_status probe(sweep *w, const hta_maxcover *mc,
                        const hta_slot_runs *sr, int64_t tau, int64_t u,
                        double c, double margin, hta_diag *d)
{
    double span = INFINITY, t0 = hta_clock_now();
    const int32_t *loads = hta_maxcover_loads(mc);
    int have_q = !w->opts->literal_balance;
    if (have_q) /* the slots of this tau's runs */
        hta_slot_runs_expand(w->inst, loads, sr, w->q);
    free_bound(w->inst, hta_maxcover_cover(mc), loads, tau, w->fbar);
    hta_status st = build_b(w, w->best, hta_maxcover_cover(mc), loads,
                            w->fbar, have_q, u, c, &span, d);
    w->res->seconds_balance += hta_clock_now() - t0;
    if (st != HTA_OK)
        return st;
    w->probed = 1;
    w->probe.tau = tau;
    w->probe.f = hta_maxcover_size(mc);
    w->probe.c = c;
    w->probe.span = span;
    /* every earlier kept tau is worse */
    w->probe.first = span * (1.0 + margin) < w->lower_min;
    /* an upper bound on the sweep's minimum, with X's margin: pass 2
       compares it with count bounds computed in floating point */
    w->X = fmin(w->X, span * (1.0 + margin));
    return HTA_OK;
}

/* The probe is the answer once the lower bound on L^O reaches it. */
static int probe_solves(sweep *w)
{
    if (!w->probed || !w->probe.first || w->probe.span > w->lb)
        return 0;
    w->solved = 1;
    w->res->makespan = w->probe.span;
    w->res->best_tau = w->probe.tau;
    w->res->balanced = 1;
    trace(w->opts, w->probe.tau, w->probe.f, w->probe.c, w->probe.span, NULL);
    return 1;
}

/* D(k) = sum_s min(k, deg_s), an upper bound on f(k) (top of the file),
 * into D[0..K], K the least k <= T with D(k) >= m, else T; returns K, -1
 * out of memory.  O(n + T). */
static int64_t degree_sums(const hta_instance *inst, int64_t T, int64_t *D)
{
    int64_t *hist = calloc((size_t)T + 1, sizeof *hist);
    if (!hist)
        return -1;
    for (int32_t s = 0; s < inst->n; s++) {
        int64_t deg = inst->srv_off[s + 1] - inst->srv_off[s];
        hist[deg < T ? deg : T]++;
    }
    int64_t ge = inst->n, K = 0; /* servers of degree > K */
    D[0] = 0;
    while (K < T && D[K] < inst->m) {
        ge -= hist[K];
        D[K + 1] = D[K] + ge;
        K++;
    }
    free(hist);
    return K;
}

/* The jump's tau* (top of the file) into *tau_out, 0 where its
 * conditions fail; then D[0..tau*] (allocated here) holds D(tau).
 * O(n + tau*). */
static hta_status jump_tau(const hta_instance *inst, int64_t *tau_out,
                           int64_t **D_out, hta_diag *d)
{
    *tau_out = 0;
    *D_out = NULL;
    double alone = hta_load(inst, 0, 1, hta_wrem_at(&inst->wrem, 1));
    if (inst->m < 2 || !(hta_load(inst, 2, 0, 0.0) < alone))
        return HTA_OK;
    int64_t maxdeg = 0, empty = 0;
    for (int32_t s = 0; s < inst->n; s++) {
        int64_t deg = inst->srv_off[s + 1] - inst->srv_off[s];
        empty += deg == 0;
        maxdeg = deg > maxdeg ? deg : maxdeg;
    }
    if (!empty)
        return HTA_OK;
    /* D is constant from maxdeg on; taus with load(tau, 0) >= alone fail */
    int64_t T = 2;
    while (T < maxdeg && hta_load(inst, T + 1, 0, 0.0) < alone)
        T++;
    int64_t *D = malloc(((size_t)T + 1) * sizeof *D), K;
    if (!D || (K = degree_sums(inst, T, D)) < 0) {
        free(D);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    if (D[K] >= inst->m && K >= 2 && hta_load(inst, K, 0, 0.0) < alone) {
        *tau_out = K;
        *D_out = D;
        return HTA_OK;
    }
    free(D);
    return HTA_OK;
}

/* The jump (top of the file): a cover of every task at tau*, from
 * scratch, is the answer (w->solved), or nothing changes. */
static hta_status jump(sweep *w, hta_diag *d)
{
    const hta_instance *inst = w->inst;
    hta_fsy_result *res = w->res;
    int64_t tau, *D;
    hta_status st = jump_tau(inst, &tau, &D, d);
    if (st != HTA_OK || tau == 0)
        return st;
    double t0 = hta_clock_now();
    covers cv;
    if ((st = covers_new(inst, w->opts->engine, &cv, d)) == HTA_OK) {
        hta_maxcover_drop_free_counts(cv.mc);
        st = covers_raise(&cv, tau, 1, d);
    }
    res->seconds_cover += hta_clock_now() - t0;
    if (st == HTA_OK && hta_maxcover_size(cv.mc) == inst->m &&
        (st = grow(w, tau, d)) == HTA_OK) {
        memcpy(res->f, D, (size_t)tau * sizeof *D);
        res->f[tau] = inst->m;
        res->K = tau;
        memcpy(w->best, hta_maxcover_cover(cv.mc),
               (size_t)inst->m * sizeof *w->best);
        /* B^tau* is the cover itself (no task uncovered, no slot): its
           makespan is tau* local tasks by the evaluator's formula (the
           proof above; checked builds evaluate it).  Building it through
           bal-assign (build_b) gave the same and cost 8 ms of the 0.1 s
           on 10^6 tasks and servers. */
        double c = hta_wrem_at(&inst->wrem, 0);
        res->makespan = hta_load(inst, tau, 0, c);
        res->best_tau = tau;
        res->jumped = tau;
        res->stats = *covers_stats(&cv);
        w->solved = 1;
#ifdef HTA_CHECKED
        hta_eval ev;
        if ((st = hta_eval_run(inst, w->best, &ev, d)) == HTA_OK) {
            HTA_CHECK(ev.makespan == res->makespan && ev.remote == 0);
            hta_eval_free(&ev);
        }
#endif
        trace(w->opts, tau, inst->m, c, res->makespan, NULL);
    }
    covers_free(&cv);
    free(D);
    return st;
}

/* One task a server (top of the file): the answer (w->solved), or
 * nothing changes.  The bound takes D(k) for k up to SPREAD_K. */
#define SPREAD_K 64
static hta_status spread(sweep *w, hta_diag *d)
{
    const hta_instance *inst = w->inst;
    hta_fsy_result *res = w->res;
    int32_t m = inst->m, n = inst->n;
    if (m < 1 || m > n || !hta_instance_exact_costs(inst))
        return HTA_OK;
    double hi = fmax(hta_load(inst, 1, 0, 0.0),
                     hta_load(inst, 0, 1, hta_wrem_at(&inst->wrem, m)));
    int64_t f[SPREAD_K + 1], K = degree_sums(inst, SPREAD_K, f);
    if (K < 0)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    f[K] = f[K] < m ? f[K] : m;
    if (!(hi <= fmax(w->lb, hta_bound_flow(inst, f, K))))
        return HTA_OK;
    hta_status st = grow(w, K, d);
    uint8_t *busy = st == HTA_OK ? calloc((size_t)n, 1) : NULL;
    if (!busy)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    int32_t *a = w->best;
    for (int32_t t = 0; t < m; t++) {
        a[t] = -1;
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            if (!busy[inst->task_srv[i]]) {
                a[t] = inst->task_srv[i];
                busy[a[t]] = 1;
                break;
            }
    }
    for (int32_t t = 0, s = 0; t < m; t++) {
        if (a[t] >= 0)
            continue;
        while (busy[s]) /* m <= n: an empty server is left */
            s++;
        a[t] = s;
        busy[s] = 1;
    }
    free(busy);
    /* lb <= L^O <= its makespan <= hi <= lb (top of the file) */
#ifdef HTA_CHECKED
    hta_eval ev;
    if ((st = hta_eval_run(inst, a, &ev, d)) != HTA_OK)
        return st;
    HTA_CHECK(ev.makespan == hi);
    hta_eval_free(&ev);
#endif
    memcpy(res->f, f, ((size_t)K + 1) * sizeof *f);
    res->K = K;
    res->makespan = hi;
    res->best_tau = 1;
    res->spread = 1;
    w->solved = 1;
    trace(w->opts, 1, f[1], hta_wrem_at(&inst->wrem, m - f[1]), hi,
          "at most one task a server (m <= n); f(k) <= sum_s min(k, deg_s)");
    return HTA_OK;
}

/* Pass 1: f(tau) for the lower bound, LB^tau and X (pruned sweeps only). */
static hta_status pass_bounds(sweep *w, hta_diag *d)
{
    const hta_instance *inst = w->inst;
    hta_fsy_result *res = w->res;
    covers cv;
    double margin = hta_instance_exact_costs(inst) ? 0.0 : 16 * DBL_EPSILON;
    hta_status st = covers_new(inst, w->opts->engine, &cv, d);
    hta_maxcover *mc = cv.mc;
    if (st == HTA_OK) {
        hta_maxcover_log_start(mc);
        hta_maxcover_drop_free_counts(mc); /* Fbar instead, rule (5) */
        if (!(w->fbar = malloc((size_t)inst->n * sizeof *w->fbar)))
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    w->X = INFINITY;
    for (int64_t tau = 1; st == HTA_OK && tau <= inst->m; tau++) {
        double t0 = hta_clock_now();
        st = covers_raise(&cv, tau, 0, d);
        res->seconds_cover += hta_clock_now() - t0;
        if (st != HTA_OK || (st = grow(w, tau, d)) != HTA_OK)
            break;
        int64_t f = hta_maxcover_size(mc), u = inst->m - f;
        w->log_end[tau] = hta_maxcover_log_len(mc);
        res->f[tau] = f;
        res->K = tau;
        w->lower[tau] = NAN;
        w->lb = fmax(w->lb, hta_flow_bound_update(&w->fb, inst, res->f,
                                                   res->K));
        if (probe_solves(w))
            break;
        if (f == res->f[tau - 1])
            continue;                                      /* rule 1 */
        if ((double)tau * inst->w_loc > w->X)
            break;                                         /* rule 2 */
        double c = hta_wrem_at(&inst->wrem, u), upper;
        const int32_t *loads = hta_maxcover_loads(mc);
        hta_slot_runs sr;
        if ((st = hta_balassign_slot_runs(inst, loads, u, c, &sr, d)) !=
            HTA_OK)
            break;
        int32_t len;
        const int32_t *alive = hta_maxcover_alive(mc, &len);
        balance_bounds_runs(inst, &sr, loads, alive, len, tau, u, c,
                            &w->lower[tau], &upper);
#ifdef HTA_CHECKED
        { /* the bounds over every server (the reference) */
            double lo_ref, up_ref;
            if ((st = hta_balassign_slots(inst, loads, u, c, w->q, d)) !=
                HTA_OK) {
                hta_slot_runs_free(&sr);
                break;
            }
            free_bound(inst, hta_maxcover_cover(mc), loads, tau, w->fbar);
            balance_bounds(inst, loads, w->fbar, w->q, u, c, &lo_ref,
                           &up_ref);
            HTA_CHECK(lo_ref == w->lower[tau] && up_ref == upper);
        }
#endif
        w->X = fmin(w->X, upper * (1.0 + margin));
        int probing = !w->probed &&
                      w->lower[tau] <= w->lb * (1.0 + margin) &&
                      w->lower[tau] * (1.0 + margin) < w->lower_min;
        if (probing)
            st = probe(w, mc, &sr, tau, u, c, margin, d);
        hta_slot_runs_free(&sr);
        if (probing && (st != HTA_OK || probe_solves(w)))
            break;
        w->lower_min = fmin(w->lower_min, w->lower[tau]);
        if (f == inst->m || w->X <= w->lb)                 /* rules 3, 4 */
            break;
    }
    if (st == HTA_OK)
        res->stats = *covers_stats(&cv);
    if (st == HTA_OK && /* pass 2 replays the log, the state goes */
        !hta_maxcover_log_take(mc, &w->log_t, &w->log_s, &w->log_len))
        w->log_t = w->log_s = NULL;
    if (st == HTA_OK && w->log_t && !w->solved) {
        w->spare = hta_maxcover_cover_take(mc); /* its pages touched */
        size_t bytes = (size_t)inst->n * sizeof *w->spare_loads;
        if ((w->spare_loads = malloc(bytes)))
            memcpy(w->spare_loads, hta_maxcover_loads(mc), bytes);
    }
    covers_free(&cv);
    return st;
}

/* The cover and loads after the log's first e changes, from nothing. */
static void replay_from_start(const sweep *w, int64_t e, int32_t *cover,
                              int32_t *loads)
{
    memset(cover, 0xff, (size_t)w->inst->m * sizeof *cover);
    memset(loads, 0, (size_t)w->inst->n * sizeof *loads);
    hta_maxcover_log_replay(w->log_t, w->log_s, 0, e, cover, loads);
}

/* Pass 1's cover and loads at tau into cover and loads, which hold them
 * at log position at (-1: nothing yet; ended: pass 1's last cover, at
 * log_len, is there instead). */
static hta_status rebuild(sweep *w, int64_t tau, int64_t at, int ended,
                          int32_t *cover, int32_t *loads, hta_diag *d)
{
    int64_t e = w->log_end[tau];
    assert(e <= w->log_len && at <= e);
    if (at >= 0) {
        hta_maxcover_log_replay(w->log_t, w->log_s, at, e, cover, loads);
        return HTA_OK;
    }
    if (!ended || w->log_len - e > e) {
        replay_from_start(w, e, cover, loads);
        return HTA_OK;
    }
    hta_maxcover_log_undo(w->log_t, w->log_s, e, w->log_len, cover, loads);
#ifdef HTA_CHECKED
    { /* the undo against the replay from nothing */
        size_t m = (size_t)w->inst->m, n = (size_t)w->inst->n;
        int32_t *c = malloc(m * sizeof *c + 1), *l = malloc(n * sizeof *l + 1);
        if (!c || !l) {
            free(c);
            free(l);
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory");
        }
        replay_from_start(w, e, c, l);
        HTA_CHECK(memcmp(c, cover, m * sizeof *c) == 0 &&
                  memcmp(l, loads, n * sizeof *l) == 0);
        free(c);
        free(l);
    }
#else
    (void)d;
#endif
    return HTA_OK;
}

/* Pass 2 (or the whole sweep with prune off): builds and evaluates B^tau. */
static hta_status pass_build(sweep *w, int64_t last, hta_diag *d)
{
    const hta_instance *inst = w->inst;
    const hta_fsy_opts *opts = w->opts;
    hta_fsy_result *res = w->res;
    int prune = opts->prune;
    covers cv = {inst, NULL, NULL};
    hta_status st = HTA_OK;
    /* pass 1's log: the cover and loads of a tau rebuilt here, at the
       first build from pass 1's last cover by undoing the changes after
       that tau, or from nothing by replaying those before it, whichever
       are fewer (Zipf s = 1, 10^6 tasks: B^157 of 159 taus, 2,463
       changes undone instead of 727,809 replayed); then forward */
    int replay = prune && w->log_t;
    int32_t *rcover = NULL, *rloads = NULL;
    int64_t at = -1; /* the log position of rcover's state, -1 none */
    int ended = 0;   /* rcover, rloads: pass 1's last cover (log_len) */
    if (replay) {
        ended = w->spare_loads != NULL; /* made only beside w->spare */
        rcover = w->spare ? w->spare :
                            hta_malloc_huge((size_t)inst->m * sizeof *rcover);
        rloads = ended ? w->spare_loads :
                         malloc((size_t)inst->n * sizeof *rloads);
        w->spare = w->spare_loads = NULL;
        if (!rcover || !rloads) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            goto cleanup;
        }
    }
    if (!replay && (st = covers_new(inst, opts->engine, &cv, d)) != HTA_OK)
        goto cleanup;
    hta_maxcover *mc = cv.mc;
    int64_t prev = 0;
    double started = hta_clock_now();
    for (int64_t tau = 1; tau <= last; tau++) {
        double t0 = hta_clock_now();
        if (opts->progress) {
            hta_progress p = {"fsy", t0 - started, res->makespan, w->lb, tau};
            opts->progress(opts->progress_ctx, &p);
        }
        if (!replay)
            st = covers_raise(&cv, tau, 0, d);
        double t1 = hta_clock_now();
        res->seconds_cover += t1 - t0;
        if (st != HTA_OK || (st = grow(w, tau, d)) != HTA_OK)
            goto cleanup;
        int64_t f = replay ? res->f[tau] : hta_maxcover_size(mc);
        int64_t u = inst->m - f;
        double c = hta_wrem_at(&inst->wrem, u);
        if (!prune) {
            res->f[tau] = f;
            res->K = tau;
        }
        if (prune) {
            if (f == prev) {
                trace(opts, tau, f, c, NAN, "same cover as tau-1");
                continue;
            }
            prev = f;
            if ((double)tau * inst->w_loc >= res->makespan ||
                (double)tau * inst->w_loc > w->X) {
                trace(opts, tau, f, c, NAN, "tau*w_loc >= best: stop");
                break;
            }
            if (w->lower[tau] > w->X || w->lower[tau] >= res->makespan) {
                trace(opts, tau, f, c, NAN, "bound on L_B >= best");
                continue;
            }
        }
        if (replay) { /* pass 1's cover and loads at tau */
            if ((st = rebuild(w, tau, at, ended, rcover, rloads, d)) !=
                HTA_OK)
                goto cleanup;
            at = w->log_end[tau];
            double t2 = hta_clock_now();
            res->seconds_cover += t2 - t1;
            t1 = t2;
        }
        const int32_t *cover = replay ? rcover : hta_maxcover_cover(mc);
        const int32_t *loads = replay ? rloads : hta_maxcover_loads(mc);
        double span;
        /* the replayed cover is pass 1's, a maximum one: Fbar holds */
        const int32_t *nfree = w->fbar;
        if (replay && w->fbar)
            free_bound(inst, cover, loads, tau, w->fbar);
        else
            nfree = replay ? NULL : hta_maxcover_free_counts(mc);
        /* the first B^tau straight into the answer's array (w->a stays
         * untouched: 4 MB of fresh pages at 10^6 tasks) */
        int32_t *into = isinf(res->makespan) ? w->best : w->a;
        if ((st = build_b(w, into, cover, loads, nfree, 0, u, c, &span, d)) !=
            HTA_OK)
            goto cleanup;
        res->balanced++;
        res->seconds_balance += hta_clock_now() - t1;
        trace(opts, tau, f, c, span, NULL);
        if (span < res->makespan) {
            res->makespan = span;
            res->best_tau = tau;
            if (into != w->best)
                memcpy(w->best, w->a, (size_t)inst->m * sizeof *w->a);
        }
        if (prune && (f == inst->m || res->makespan <= w->lb))
            break;
    }
    if (!prune)
        res->stats = *covers_stats(&cv);
cleanup:
    covers_free(&cv);
    free(rcover);
    free(rloads);
    return st;
}

hta_status hta_fsy_run(const hta_instance *inst, const hta_fsy_opts *opts,
                       int32_t *best, hta_fsy_result *res, hta_diag *d)
{
    sweep w;
    memset(&w, 0, sizeof w);
    memset(res, 0, sizeof *res);
    /* Algorithm 2 has two levels: on N levels it runs on the two-level
       view, whose evaluations its own checks compare with (levels.h) */
    hta_instance flat = hta_instance_flat(inst);
    inst = &flat;
    w.inst = inst;
    w.opts = opts;
    w.res = res;
    w.best = best;
    w.X = INFINITY;
    w.lower_min = INFINITY;
    w.lb = hta_bound_trivial(inst);
    hta_flow_bound_init(&w.fb);
    res->makespan = INFINITY;
    int ok = HTA_RESERVE(res->f, w.cap_f, 64);
    ok &= HTA_RESERVE(w.lower, w.cap_lower, 64);
    w.q = malloc((size_t)inst->n * sizeof *w.q);
    w.a = hta_malloc_huge((size_t)inst->m * sizeof *w.a);
    hta_status st = HTA_OK;
    if (!ok || !w.q || !w.a) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    res->f[0] = 0;
    if (opts->prune) {
        if (opts->prune >= 2 && (st = jump(&w, d)) != HTA_OK)
            goto cleanup;
        if (opts->prune >= 2 && !w.solved && (st = spread(&w, d)) != HTA_OK)
            goto cleanup;
        if (!w.solved && (st = pass_bounds(&w, d)) != HTA_OK)
            goto cleanup;
        if (!w.solved)
            st = pass_build(&w, res->K, d);
    } else {
        st = pass_build(&w, inst->m, d);
    }
    if (st == HTA_OK)
        res->lower_bound = hta_bound_flow(inst, res->f, res->K);
cleanup:
    hta_maxcover_free(w.scratch);
    free(w.used);
    free(w.fbar);
    free(w.log_t);
    free(w.log_s);
    free(w.log_end);
    free(w.spare);
    free(w.spare_loads);
    free(w.lower);
    free(w.q);
    free(w.a);
    if (st != HTA_OK)
        hta_fsy_result_free(res);
    return st;
}
