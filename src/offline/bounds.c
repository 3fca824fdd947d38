/* Lower bounds on L^O: trivial and flow bounds (derivations in bounds.h). */
#include "offline/bounds.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/levels.h"
#include "hta/maxcover.h"

double hta_bound_trivial(const hta_instance *inst)
{
    int64_t per = ((int64_t)inst->m + inst->n - 1) / inst->n;
    return (double)per * inst->w_loc;
}

/* Rounding must never push a bound above the optimum it bounds: sums of
 * real products are shrunk by a few ulps. */
static double shrink(double x)
{
    return x * (1.0 - 8 * DBL_EPSILON);
}

/* With a constant remote cost c every load, hence L^O, is a value
 * load(a, b, c) = a*w_loc + b*c of the evaluator's formula for integers
 * a, b >= 0: a bound rounds up to the least such value.  O(lb / c). */
static double round_to_load(const hta_instance *inst, double c, double lb)
{
    if (!(lb > 0) || lb / inst->w_loc > 1e7 || lb / c > 1e7)
        return lb;
    double best = INFINITY;
    for (int64_t b = 0; (double)b * c < lb + c; b++) {
        double rest = (lb - (double)b * c) / inst->w_loc;
        int64_t a = rest > 1 ? (int64_t)ceil(rest) - 1 : 0;
        while (hta_load(inst, a, b, c) < lb)
            a++;
        double x = hta_load(inst, a, b, c);
        if (x < best)
            best = x;
    }
    return best;
}

/* The candidate of threshold k with at most fk local tasks: the least L
 * with floor(L/w_loc) = k that the total load and the pigeonhole allow
 * (bounds.h), or INFINITY when more than max_remote tasks stay remote.
 * Non-increasing in fk. */
static double candidate(const hta_instance *inst, int64_t k, int64_t fk,
                        const hta_wrem *w, double c, int64_t max_remote)
{
    int64_t m = inst->m, n = inst->n, rem = m - fk;
    if (rem > max_remote)
        return INFINITY;
    double w_loc = inst->w_loc, ck = w ? hta_wrem_at(w, rem) : c;
    double need = shrink((w_loc * (double)fk + ck * (double)rem) /
                         (double)n);
    double pigeon = (double)((rem + n - 1) / n) * ck;
    double cand = fmax(fmax((double)k * w_loc, need), pigeon);
    return fmax(cand, hta_bound_trivial(inst));
}

/* Thresholds examined beyond the last f value, per call (below). */
#define TAIL_STEPS 64

/* The flow bound with remote cost w_rem(r) (w != NULL) or a constant c,
 * and at most max_remote remote tasks (k with m - f(k) > max_remote are
 * infeasible), scanning k = *k0 .. K.  Returns the bound when some k is
 * feasible (setting *found); otherwise a bound from the thresholds beyond
 * K (the tail, below), and *k0 = K + 1 so that a later call with more f
 * values goes on from there: the candidates of k <= K never change.
 *
 * The tail.  f is concave: by the deficiency form of Hall's theorem, f(k)
 * = min over task sets X of (m - |X| + k * |N(X)|), N(X) the servers
 * holding a replica of a task of X, a minimum of functions affine in k.
 * So f(k) <= fbar(k) = min(m, f(K) + (k - K) * (f(K) - f(K-1))) for k > K,
 * exact when f(K) = f(K-1) (then f is constant from K on).  A candidate
 * only falls as f grows (w_rem non-decreasing, w_rem(0) >= w_loc), so
 * fbar's candidate is at most f's: a k infeasible with fbar is infeasible,
 * and at the first k feasible with fbar (if the true first k* is larger,
 * its candidate is >= k* w_loc > fbar's) the candidate bounds L^O.  Up to
 * TAIL_STEPS thresholds beyond K are examined (a jump first when fbar is
 * constant); past them every examined k is infeasible and the bound is the
 * next threshold's (k + 1) * w_loc, as with f(k) <= m alone.  On Zipf
 * s = 1 placements with as many servers as tasks, f(1) alone gives f(2)
 * <= 2 f(1) < m: the bound at tau = 1 is already the optimum's, and the
 * sweep stops there. */
static double flow_scan(const hta_instance *inst, const int64_t *f,
                        int64_t *k0, int64_t K, const hta_wrem *w, double c,
                        int64_t max_remote, int *found)
{
    int64_t m = inst->m;
    double w_loc = inst->w_loc, trivial = hta_bound_trivial(inst);
    int constant = !w || hta_wrem_is_constant(w);
    if (w && constant)
        c = hta_wrem_at(w, 0);
    *found = 0;
    for (int64_t k = *k0; k <= K; k++) {
        double cand = candidate(inst, k, f[k], w, c, max_remote);
        /* L = cand has floor(L/w_loc) = k when cand < (k+1)*w_loc; the
         * candidate of the first such k is the least feasible L. */
        if (cand < (double)(k + 1) * w_loc) {
            *k0 = k;
            *found = 1;
            return constant ? round_to_load(inst, c, cand) : cand;
        }
    }
    *k0 = K + 1;
    /* Multiples of w_loc are values of load(a, 0, c) already: no rounding
     * for the threshold bound (and none wanted: O(K) per call). */
    double tail = fmax((double)(K + 1) * w_loc, trivial);
    if (K < 1)
        return tail;
    int64_t slope = f[K] - f[K - 1], k = K + 1;
    if (slope == 0) {
        /* fbar constant: every k with (k+1)*w_loc below the candidate's
           other terms is infeasible (a whole w_loc of slack) */
        double rest = candidate(inst, 0, f[K], w, c, max_remote);
        double jump = floor(rest / w_loc) - 1;
        if (isfinite(jump) && jump > (double)k && jump < 0x1p52) {
            k = (int64_t)jump;
            tail = fmax(tail, (double)k * w_loc);
        }
    }
    for (int steps = 0; steps < TAIL_STEPS; steps++, k++) {
        int64_t fk = m;
        if (slope == 0)
            fk = f[K];
        else if ((k - K) <= (m - f[K]) / slope)
            fk = f[K] + (k - K) * slope;
        double cand = candidate(inst, k, fk, w, c, max_remote);
        if (cand < (double)(k + 1) * w_loc)
            return fmax(tail, constant ? round_to_load(inst, c, cand) : cand);
        tail = fmax(tail, (double)(k + 1) * w_loc);
    }
    return tail;
}

double hta_bound_flow(const hta_instance *inst, const int64_t *f, int64_t K)
{
    int64_t k0 = 0;
    int found;
    return flow_scan(inst, f, &k0, K, &inst->wrem, 0.0, inst->m, &found);
}

void hta_flow_bound_init(hta_flow_bound *b)
{
    b->next = 0;
    b->settled = 0;
    b->value = 0;
}

double hta_flow_bound_update(hta_flow_bound *b, const hta_instance *inst,
                             const int64_t *f, int64_t K)
{
    if (!b->settled)
        b->value = flow_scan(inst, f, &b->next, K, &inst->wrem, 0.0, inst->m,
                             &b->settled);
    return b->value;
}

double hta_bound_flow_piece(const hta_instance *inst, const int64_t *f,
                            int64_t K, double c, int64_t max_remote)
{
    int64_t k0 = 0;
    int found;
    return flow_scan(inst, f, &k0, K, NULL, c, max_remote, &found);
}

/* The least R in [r, m] with load(a, b, w_rem(R)) > lo, or -1: the load
 * grows with R (w_rem non-decreasing, the formula monotone in c). */
static int64_t least_remote(const hta_instance *inst, int64_t a, int64_t b,
                            int64_t r, double lo)
{
    int64_t hi = inst->m;
    if (!(hta_load(inst, a, b, hta_wrem_at(&inst->wrem, hi)) > lo))
        return -1;
    while (r < hi) {
        int64_t mid = r + (hi - r) / 2;
        if (hta_load(inst, a, b, hta_wrem_at(&inst->wrem, mid)) > lo)
            hi = mid;
        else
            r = mid + 1;
    }
    return r;
}

double hta_bound_next_load(const hta_instance *inst, double lo,
                           int64_t max_work)
{
    double best = INFINITY;
    int64_t work = 0;
    /* a is at most the least count whose local load alone exceeds lo */
    int64_t A = lo < 0 ? 0 : hta_room_local(inst, lo, 0) + 1;
    if (A <= inst->m)
        best = hta_load(inst, A, 0, 0.0);
    for (int64_t b = 1; b <= inst->m; b++) {
        /* every load with b remote tasks is at least b * w_rem(b) */
        if (hta_load(inst, 0, b, hta_wrem_at(&inst->wrem, b)) >= best)
            break;
        for (int64_t a = 0; a <= A && a <= inst->m - b; a++) {
            if ((work += 20) > max_work)
                return lo; /* too much work: no rounding */
            int64_t R = least_remote(inst, a, b, b, lo);
            if (R < 0)
                continue;
            double v = hta_load(inst, a, b, hta_wrem_at(&inst->wrem, R));
            if (v < best)
                best = v;
        }
    }
    return best;
}

double hta_bound_fsy_additive(const hta_instance *inst)
{
    if (inst->n <= 2)
        return 0.0;
    return (1.0 - 1.0 / (double)(inst->n - 1)) *
           hta_wrem_at(&inst->wrem, inst->m);
}

typedef struct settle {
    hta_flow_bound fb;
    const hta_instance *inst;
    double value;
} settle;

/* Settled once some k is feasible: later f values cannot change the
 * bound.  Each f value is examined once. */
static int bound_settled(void *ctx, const int64_t *f, int64_t K)
{
    settle *b = ctx;
    b->value = hta_flow_bound_update(&b->fb, b->inst, f, K);
    return b->fb.settled;
}

hta_status hta_bound_flow_compute(const hta_instance *inst, double *lb,
                                  hta_diag *d)
{
    settle b;
    hta_flow_bound_init(&b.fb);
    b.inst = inst;
    int64_t *f = NULL, K = 0;
    hta_status st = hta_maxcover_sweep(inst, bound_settled, &b, &f, &K, d);
    if (st == HTA_OK)
        *lb = b.fb.settled ? b.value : hta_flow_bound_update(&b.fb, inst, f, K);
    free(f);
    return st;
}

/* ---- N levels (bounds.h) ---- */

typedef struct lsettle {
    const hta_instance *inst;
    int64_t *size[HTA_MAX_LEVELS];  /* per group of level l: |g| */
    int64_t *tasks[HTA_MAX_LEVELS]; /* per group: T_g */
    int64_t next;                   /* the next k to examine */
    int settled;
    double value;
} lsettle;

/* The candidate of threshold k with f(k) = fk: INFINITY unless some L
 * with floor(L / w_loc) = k meets both inequalities. */
static double level_candidate(const lsettle *b, int64_t k, int64_t fk)
{
    const hta_instance *inst = b->inst;
    int N = hta_levels(inst);
    int64_t m = inst->m, n = inst->n, prev = fk < m ? fk : m;
    double c1 = inst->w_loc, total = c1 * (double)prev;
    for (int l = 2; l < N; l++) {
        int64_t F = 0;
        for (int32_t g = 0; g < inst->ngrp[l] && F < m; g++) {
            double room = (double)k * (double)b->size[l][g];
            F += room < (double)b->tasks[l][g] ? (int64_t)room :
                                                 b->tasks[l][g];
        }
        F = F < m ? F : m;
        F = F > prev ? F : prev;
        total += hta_level_cost(inst, l, 0) * (double)(F - prev);
        prev = F;
    }
    int64_t R = m - prev;
    double cN = hta_wrem_at(&inst->wrem, R);
    total += cN * (double)R;
    double pigeon = (double)((R + n - 1) / n) * cN;
    double cand = fmax(fmax((double)k * c1, shrink(total / (double)n)),
                       pigeon);
    cand = fmax(cand, hta_bound_trivial(inst));
    /* the candidate must keep floor(L / w_loc) = k */
    return hta_room_local(inst, cand, 0) <= k ? cand : INFINITY;
}

static int level_settled(void *ctx, const int64_t *f, int64_t K)
{
    lsettle *b = ctx;
    for (; !b->settled && b->next <= K; b->next++) {
        double v = level_candidate(b, b->next, f[b->next]);
        if (isfinite(v)) {
            b->settled = 1;
            b->value = v;
        }
    }
    return b->settled;
}

/* (bounds.h) The counts of levels 2..N enumerated, level 1's the least
 * that reaches lb; each level's count stops once its load alone passes
 * lb + w_loc. */
double hta_bound_levels_round(const hta_instance *inst, double lb)
{
    int N = hta_levels(inst);
    double c[HTA_MAX_LEVELS];
    c[0] = inst->w_loc;
    for (int l = 2; l <= N; l++) {
        if (!hta_wrem_is_constant(hta_level_wrem(inst, l)))
            return lb;
        c[l - 1] = hta_level_cost(inst, l, 0);
    }
    if (!(lb > 0) || !isfinite(lb))
        return lb;
    int64_t cnt[HTA_MAX_LEVELS] = {0}, steps = 0;
    double best = INFINITY;
    for (;;) {
        if (++steps > 1000000)
            return lb;
        /* the least level-1 count reaching lb beside cnt[1..] */
        cnt[0] = 0;
        double rest = hta_load_levels(N, cnt, c);
        if (rest < lb) {
            cnt[0] = (int64_t)floor((lb - rest) / c[0]);
            if (cnt[0] > 0)
                cnt[0]--;
            while (hta_load_levels(N, cnt, c) < lb)
                cnt[0]++;
        }
        double v = hta_load_levels(N, cnt, c);
        if (v < best)
            best = v;
        /* next counts of levels 2..N, odometer; a level stops past lb */
        int l = 1;
        cnt[0] = 0;
        for (; l < N; l++) {
            cnt[l]++;
            if (hta_load_levels(N, cnt, c) < lb + c[0])
                break;
            cnt[l] = 0;
        }
        if (l == N)
            break;
    }
    return best;
}

hta_status hta_bound_levels_compute(const hta_instance *inst, double *lb,
                                    hta_diag *d)
{
    int N = hta_levels(inst);
    lsettle b;
    memset(&b, 0, sizeof b);
    b.inst = inst;
    b.next = ((int64_t)inst->m + inst->n - 1) / inst->n;
    int32_t *stamp = NULL;
    hta_status st = HTA_OK;
    for (int l = 2; l < N && st == HTA_OK; l++) {
        size_t G = (size_t)inst->ngrp[l];
        b.size[l] = calloc(G + 1, sizeof *b.size[l]);
        b.tasks[l] = calloc(G + 1, sizeof *b.tasks[l]);
        if (!stamp)
            stamp = malloc((G + 1) * sizeof *stamp);
        else
            stamp = realloc(stamp, (G + 1) * sizeof *stamp);
        if (!b.size[l] || !b.tasks[l] || !stamp) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            break;
        }
        for (int32_t s = 0; s < inst->n; s++)
            b.size[l][inst->grp[l][s]]++;
        for (size_t g = 0; g < G; g++)
            stamp[g] = -1;
        for (int32_t t = 0; t < inst->m; t++)
            for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1];
                 i++) {
                int32_t g = inst->grp[l][inst->task_srv[i]];
                if (stamp[g] != t) {
                    stamp[g] = t;
                    b.tasks[l][g]++;
                }
            }
    }
    int64_t *f = NULL, K = 0;
    if (st == HTA_OK)
        st = hta_maxcover_sweep(inst, level_settled, &b, &f, &K, d);
    if (st == HTA_OK) {
        /* past the sweep's end every task is coverable: f(k) = m */
        for (; !b.settled; b.next++) {
            double v = level_candidate(&b, b.next,
                                       b.next <= K ? f[b.next] : inst->m);
            if (isfinite(v)) {
                b.settled = 1;
                b.value = v;
            }
        }
        *lb = hta_bound_levels_round(inst, b.value);
    }
    free(f);
    free(stamp);
    for (int l = 0; l < HTA_MAX_LEVELS; l++) {
        free(b.size[l]);
        free(b.tasks[l]);
    }
    return st;
}
