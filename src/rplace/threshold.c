/* The optimal ReduceTask placement for K jobs that never leave (Tan et
 * al., Theorems 1-2, the K-job infinite-service case), after Derman,
 * Lieberman and Ross's sequential stochastic assignment (1972), and the
 * receding-horizon rule (Theorem 4).
 *
 * Claim.  Let m i.i.d. jobs (x, R) arrive one by one, each taking R free
 * slots for good and paying x times their costs, and let h_1 <= h_2 <=
 * ... be the free costs.  The least expected cost is
 *
 *     V_m(h) = sum_j c^(m)_j h_j,   c^(m) non-increasing, >= 0,
 *
 * with c^(0) = 0 and, writing c = c^(m-1) (c_i = +inf for i <= 0),
 *
 *     c^(m)_j = E[ c_j 1{x < c_j} + x 1{c_j <= x < c_{j-R}}
 *                  + c_{j-R} 1{x >= c_{j-R}} ],
 *
 * and the first job takes the free slots k+1 .. k+R, k = #{j : c_j > x}.
 *
 * Proof by induction.  Given the first job (x, R) and a choice S of R
 * slots, the cost is x sum_S h + V_{m-1}(h without S): the sorted costs
 * h_1..h_{n} are paired with the multiset of coefficients {x (R times)}
 * and c_1 >= c_2 >= ..., each coefficient to one cost.  By the
 * rearrangement inequality the least sum pairs the coefficients in
 * decreasing order with the costs in increasing order, which is what
 * "S = positions k+1 .. k+R" does (ties are indifferent), and that
 * pairing is attainable since the c's go with the remaining slots in
 * order.  The minimum is sum_j e_j h_j with e the merged sequence, whose
 * j-th entry is c_j when j <= k (x < c_j), x when k < j <= k + R, and
 * c_{j-R} when j > k + R (x >= c_{j-R}); e does not depend on h and is
 * non-increasing, so its expectation over (x, R) is c^(m), non-
 * increasing.  With a fixed R every c^(m) is constant on blocks of R
 * (induction again), k is a multiple of R and the job takes the y-th
 * free block of R slots when q_{y-1} > x >= q_y, q_y = c_{yR}: the
 * thresholds of the paper, whose values do not depend on the costs.
 * With a random R (not covered by the paper's theorem) the same rule
 * holds with slot-level thresholds.  tests/unit/test_rplace.c checks
 * both against a dynamic program over every set of slots.
 *
 * Memory: row m has m * rmax entries (past them c = 0: no job of m
 * reaches further); the table holds K(K+1)/2 * rmax of them. */
#include "hta/rplace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static hta_status oom(hta_diag *d)
{
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

void hta_rp_law_free(hta_rp_law *law)
{
    if (!law)
        return;
    free(law->x);
    free(law->R);
    free(law->p);
    free(law->gR);
    free(law->goff);
    free(law->cp);
    free(law->cpx);
    memset(law, 0, sizeof *law);
}

void hta_rp_table_free(hta_rp_table *t)
{
    if (!t)
        return;
    free(t->off);
    free(t->c);
    memset(t, 0, sizeof *t);
}

typedef struct atom {
    double x, p;
    int32_t R;
} atom;

static int cmp_atom(const void *a, const void *b)
{
    const atom *u = a, *v = b;
    if (u->R != v->R)
        return u->R < v->R ? -1 : 1;
    return (u->x > v->x) - (u->x < v->x);
}

/* Sorts the atoms into the law and builds the groups and prefix sums.
 * Takes ownership of a. */
static hta_status finish(atom *a, int64_t n, hta_rp_law *law, hta_diag *d)
{
    memset(law, 0, sizeof *law);
    qsort(a, (size_t)n, sizeof *a, cmp_atom);
    int32_t ng = 0;
    for (int64_t i = 0; i < n; i++)
        ng += i == 0 || a[i].R != a[i - 1].R;
    law->n = n;
    law->ngroups = ng;
    law->x = malloc((size_t)n * sizeof *law->x);
    law->R = malloc((size_t)n * sizeof *law->R);
    law->p = malloc((size_t)n * sizeof *law->p);
    law->gR = malloc((size_t)ng * sizeof *law->gR);
    law->goff = malloc(((size_t)ng + 1) * sizeof *law->goff);
    law->cp = malloc(((size_t)n + (size_t)ng) * sizeof *law->cp);
    law->cpx = malloc(((size_t)n + (size_t)ng) * sizeof *law->cpx);
    if (!law->x || !law->R || !law->p || !law->gR || !law->goff ||
        !law->cp || !law->cpx) {
        free(a);
        hta_rp_law_free(law);
        return oom(d);
    }
    double total = 0;
    for (int64_t i = 0; i < n; i++)
        total += a[i].p;
    int32_t g = -1;
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || a[i].R != a[i - 1].R) {
            g++;
            law->gR[g] = a[i].R;
            law->goff[g] = i;
        }
        law->x[i] = a[i].x;
        law->R[i] = a[i].R;
        law->p[i] = a[i].p / total;
        law->mean_x += law->p[i] * a[i].x;
        law->mean_R += law->p[i] * a[i].R;
        if (a[i].R > law->rmax)
            law->rmax = a[i].R;
    }
    law->goff[ng] = n;
    /* group g's prefix sums at cp[goff[g] + g .. goff[g+1] + g] */
    for (g = 0; g < ng; g++) {
        int64_t base = law->goff[g] + g;
        law->cp[base] = law->cpx[base] = 0;
        for (int64_t i = law->goff[g]; i < law->goff[g + 1]; i++) {
            int64_t k = i + g + 1;
            law->cp[k] = law->cp[k - 1] + law->p[i];
            law->cpx[k] = law->cpx[k - 1] + law->p[i] * law->x[i];
        }
    }
    free(a);
    return HTA_OK;
}

/* The finite support of an hta_dist: values and probabilities. */
static hta_status support(const hta_dist *D, const char *what, int64_t **v,
                          double **p, int64_t *n, hta_diag *d)
{
    *v = NULL;
    *p = NULL;
    int64_t k = D->kind == HTA_DIST_FIXED   ? 1 :
                D->kind == HTA_DIST_UNIFORM ? (int64_t)D->b - (int64_t)D->a + 1 :
                D->kind == HTA_DIST_TABLE   ? D->n :
                                              -1;
    if (k < 0)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the threshold policy needs a bounded %s "
                            "(fixed, uniform or table), found an "
                            "unbounded one",
                            what);
    if (k > 10000000)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected at most 10^7 values of %s, found "
                            "%lld", what, (long long)k);
    *v = malloc((size_t)k * sizeof **v);
    *p = malloc((size_t)k * sizeof **p);
    if (!*v || !*p) {
        free(*v);
        free(*p);
        *v = NULL;
        *p = NULL;
        return oom(d);
    }
    for (int64_t i = 0; i < k; i++) {
        if (D->kind == HTA_DIST_FIXED) {
            (*v)[i] = (int64_t)D->a;
            (*p)[i] = 1;
        } else if (D->kind == HTA_DIST_UNIFORM) {
            (*v)[i] = (int64_t)D->a + i;
            (*p)[i] = 1.0 / (double)k;
        } else {
            (*v)[i] = D->val[i];
            (*p)[i] = (D->cum[i] - (i ? D->cum[i - 1] : 0)) / D->b;
        }
    }
    *n = k;
    return HTA_OK;
}

hta_status hta_rp_law_product(const hta_dist *X, const hta_dist *R,
                              hta_rp_law *out, hta_diag *d)
{
    memset(out, 0, sizeof *out);
    int64_t *xv = NULL, *rv = NULL, nx = 0, nr = 0;
    double *xp = NULL, *rp = NULL;
    hta_status st = support(X, "data size X", &xv, &xp, &nx, d);
    if (st == HTA_OK)
        st = support(R, "number of ReduceTasks R", &rv, &rp, &nr, d);
    if (st == HTA_OK && (double)nx * (double)nr > 1e7)
        st = hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                          "expected at most 10^7 pairs (X, R), found "
                          "%lld x %lld", (long long)nx, (long long)nr);
    atom *a = NULL;
    if (st == HTA_OK && !(a = malloc((size_t)(nx * nr) * sizeof *a)))
        st = oom(d);
    if (st == HTA_OK) {
        int64_t k = 0;
        for (int64_t i = 0; i < nx; i++)
            for (int64_t j = 0; j < nr; j++)
                a[k++] = (atom){(double)xv[i] / (double)rv[j],
                                xp[i] * rp[j], (int32_t)rv[j]};
        st = finish(a, k, out, d);
    }
    free(xv);
    free(xp);
    free(rv);
    free(rp);
    return st;
}

hta_status hta_rp_law_sample(const double *x, const int32_t *R, int64_t n,
                             hta_rp_law *out, hta_diag *d)
{
    memset(out, 0, sizeof *out);
    if (n < 1)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected at least one job");
    atom *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return oom(d);
    for (int64_t i = 0; i < n; i++)
        a[i] = (atom){x[i], 1.0 / (double)n, R[i]};
    return finish(a, n, out, d);
}

/* First index in group g's atoms with x >= t, as an offset into the
 * group's prefix sums (0 .. size). */
static int64_t lower(const hta_rp_law *law, int32_t g, double t)
{
    int64_t lo = law->goff[g], hi = law->goff[g + 1];
    int64_t base = lo;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (law->x[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - base;
}

hta_status hta_rp_law_jobs(const hta_dist *X, const hta_dist *R,
                           hta_rp_law *out, hta_diag *d)
{
    hta_dist one = {HTA_DIST_FIXED, 1, 0, NULL, 0, NULL, NULL};
    int bounded = hta_dist_max(X) >= 0;
    hta_status st = hta_rp_law_product(bounded ? X : &one, R, out, d);
    if (st == HTA_OK && !bounded) /* E[X / R] = E[X] E[1 / R] */
        out->mean_x *= hta_dist_mean(X);
    return st;
}

hta_status hta_rp_opts_law(hta_rp_opts *o, const hta_rp_law *law,
                           hta_rp_table *table, volatile sig_atomic_t *stop,
                           hta_diag *d)
{
    o->rmax = law->rmax;
    o->mean_x = law->mean_x;
    o->law = law;
    if (!o->policies[HTA_RP_THRESHOLD])
        return HTA_OK;
    o->table = table;
    return hta_rp_table_build(law, o->K, stop, table, d);
}

hta_status hta_rp_table_build(const hta_rp_law *law, int K,
                              volatile sig_atomic_t *stop,
                              hta_rp_table *t, hta_diag *d)
{
    memset(t, 0, sizeof *t);
    if (K < 1 || law->n < 1)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected K >= 1 and a law with atoms");
    double entries = (double)K * (K + 1) / 2 * law->rmax;
    if (entries > (double)HTA_RP_MAX_TABLE)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the threshold table for K = %d and R up to "
                            "%d has %.3g entries, more than the limit "
                            "%lld: a smaller K or R",
                            K, (int)law->rmax, entries,
                            (long long)HTA_RP_MAX_TABLE);
    t->K = K;
    t->rmax = law->rmax;
    t->off = malloc(((size_t)K + 2) * sizeof *t->off);
    t->c = malloc(((size_t)entries + 1) * sizeof *t->c);
    if (!t->off || !t->c) {
        hta_rp_table_free(t);
        return oom(d);
    }
    t->off[0] = t->off[1] = 0;
    for (int m = 1; m <= K; m++) {
        if (stop && *stop) {
            hta_rp_table_free(t);
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "interrupted");
        }
        const double *c = t->c + t->off[m - 1];
        int64_t plen = t->off[m] - t->off[m - 1];
        int64_t len = (int64_t)m * law->rmax;
        double *e = t->c + t->off[m];
        t->off[m + 1] = t->off[m] + len;
        for (int64_t j = 1; j <= len; j++) {
            double cj = j <= plen ? c[j - 1] : 0, sum = 0;
            for (int32_t g = 0; g < law->ngroups; g++) {
                int64_t R = law->gR[g], base = law->goff[g] + g;
                int64_t size = law->goff[g + 1] - law->goff[g];
                int64_t a = lower(law, g, cj);
                /* x < c_j: c_j */
                sum += cj * law->cp[base + a];
                if (j - R <= 0) { /* c_{j-R} = +inf */
                    sum += law->cpx[base + size] - law->cpx[base + a];
                } else {
                    /* c_{j-R} >= c_j, also after rounding: the three
                       events must partition the line */
                    double cb = j - R <= plen ? c[j - R - 1] : 0;
                    if (cb < cj)
                        cb = cj;
                    int64_t b = lower(law, g, cb);
                    if (b > a)
                        sum += law->cpx[base + b] - law->cpx[base + a];
                    sum += cb * (law->cp[base + size] - law->cp[base + b]);
                }
            }
            /* non-increasing exactly, not just up to rounding */
            e[j - 1] = j > 1 && sum > e[j - 2] ? e[j - 2] : sum;
        }
    }
    return HTA_OK;
}

int64_t hta_rp_table_skip(const hta_rp_table *t, int m, double x)
{
    if (m <= 0)
        return 0;
    if (m > t->K)
        m = t->K;
    const double *c = t->c + t->off[m];
    int64_t lo = 0, hi = t->off[m + 1] - t->off[m];
    while (lo < hi) { /* first j with c_j <= x (c non-increasing) */
        int64_t mid = lo + (hi - lo) / 2;
        if (c[mid] > x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

double hta_rp_table_value(const hta_rp_table *t, int m, const double *h,
                          int64_t len)
{
    if (m <= 0 || m > t->K)
        return m <= 0 ? 0 : NAN;
    const double *c = t->c + t->off[m];
    int64_t n = t->off[m + 1] - t->off[m];
    double v = 0;
    for (int64_t j = 0; j < n && j < len; j++)
        v += c[j] * h[j];
    return v;
}

int hta_rp_rhc_defer(double x, double p, double mean_x)
{
    return x < p * mean_x;
}
