/* A growing top level on N > 2 levels (toplevel.h): the lower loads, the
 * pieces of the top count at a target, the loads next to a value. */
#include "toplevel.h"

#include <math.h>
#include <stdlib.h>

#include "hta/levels.h"
#include "core/buf.h"

int hta_toplevel_applies(const hta_instance *in)
{
    int N = hta_levels(in);
    if (N <= 2)
        return 0;
    for (int l = 2; l < N; l++)
        if (!hta_wrem_is_constant(hta_level_wrem(in, l)))
            return 0;
    return 1;
}

void hta_toplevel_free(hta_toplevel *tl)
{
    free(tl->x);
    tl->x = NULL;
    tl->nx = 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

hta_status hta_toplevel_init(hta_toplevel *tl, const hta_instance *in,
                             double T, double pad, int *too_many,
                             hta_diag *d)
{
    tl->inst = in;
    tl->N = hta_levels(in);
    tl->T = T;
    tl->x = NULL;
    tl->nx = 0;
    *too_many = 0;
    int N = tl->N;
    for (int l = 1; l < N; l++)
        tl->c[l - 1] = hta_level_cost(in, l, 0);
    tl->c[N - 1] = 0; /* the top count stays 0 in the lower loads */
    double lim = T + pad;
    if (!(lim >= 0) || !isfinite(lim))
        return HTA_OK;
    int64_t cnt[HTA_MAX_LEVELS] = {0};
    size_t cap = 0;
    for (;;) {
        for (cnt[0] = 0;; cnt[0]++) {
            double x = hta_load_levels(N, cnt, tl->c);
            if (x > lim)
                break;
            if (tl->nx == HTA_TOPLEVEL_MAX_LOADS) {
                *too_many = 1;
                hta_toplevel_free(tl);
                return HTA_OK;
            }
            if (!HTA_RESERVE(tl->x, cap, (size_t)tl->nx + 1)) {
                hta_toplevel_free(tl);
                return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                    "out of memory");
            }
            tl->x[tl->nx++] = x;
        }
        cnt[0] = 0;
        int l = 1;
        for (; l < N - 1; l++) {
            cnt[l]++;
            if (hta_load_levels(N, cnt, tl->c) <= lim)
                break;
            cnt[l] = 0;
        }
        if (l == N - 1)
            break;
    }
    qsort(tl->x, (size_t)tl->nx, sizeof *tl->x, cmp_double);
    int64_t k = 0;
    for (int64_t i = 0; i < tl->nx; i++)
        if (k == 0 || tl->x[i] != tl->x[k - 1])
            tl->x[k++] = tl->x[i];
    tl->nx = k;
    return HTA_OK;
}

/* The top load beside x: x + c j, as hta_load_levels adds it last. */
static double top_load(double x, double c, int64_t j)
{
    return x + c * (double)j;
}

/* The most j in 0..m with top_load(x, c, j) <= T (x <= T). */
static int64_t room_beside(double x, double c, double T, int64_t m)
{
    double q = floor((T - x) / c);
    int64_t j = q > (double)m ? m : q < 0 ? 0 : (int64_t)q;
    while (j < m && top_load(x, c, j + 1) <= T)
        j++;
    while (j > 0 && top_load(x, c, j) > T)
        j--;
    return j;
}

int64_t hta_toplevel_piece_end(const hta_toplevel *tl, int64_t r0)
{
    const hta_wrem *w = &tl->inst->wrem;
    int64_t m = tl->inst->m, r1 = m;
    double c0 = hta_wrem_at(w, r0), T = tl->T;
    for (int64_t i = 0; i < tl->nx && r1 > r0; i++) {
        double x = tl->x[i];
        if (x > T)
            break;
        int64_t j = room_beside(x, c0, T, m);
        if (j == 0 || top_load(x, hta_wrem_at(w, r1), j) <= T)
            continue;
        int64_t lo = r0, hi = r1; /* lo fits, hi does not */
        while (hi - lo > 1) {
            int64_t mid = lo + (hi - lo) / 2;
            if (top_load(x, hta_wrem_at(w, mid), j) <= T)
                lo = mid;
            else
                hi = mid;
        }
        r1 = lo;
    }
    return r1;
}

double hta_toplevel_load_above(const hta_toplevel *tl, double v)
{
    const hta_wrem *w = &tl->inst->wrem;
    int64_t m = tl->inst->m;
    double best = INFINITY, w0 = hta_wrem_at(w, 0), wm = hta_wrem_at(w, m);
    int64_t steps = 0;
    for (int64_t i = 0; i < tl->nx; i++) {
        double x = tl->x[i];
        if (x > v) {
            best = fmin(best, x);
            break; /* increasing: every later x only adds */
        }
        for (int64_t j = 1; j <= m && top_load(x, w0, j) < best; j++) {
            if (++steps > HTA_TOPLEVEL_MAX_STEPS)
                return NAN;
            if (top_load(x, wm, j) <= v)
                continue;
            int64_t lo = j, hi = m; /* the least R in [j, m] above v */
            if (top_load(x, hta_wrem_at(w, lo), j) <= v) {
                while (hi - lo > 1) {
                    int64_t mid = lo + (hi - lo) / 2;
                    if (top_load(x, hta_wrem_at(w, mid), j) > v)
                        hi = mid;
                    else
                        lo = mid;
                }
                lo = hi;
            }
            best = fmin(best, top_load(x, hta_wrem_at(w, lo), j));
        }
    }
    return best;
}

double hta_toplevel_load_below(const hta_toplevel *tl, double v)
{
    const hta_wrem *w = &tl->inst->wrem;
    int64_t m = tl->inst->m;
    double best = -INFINITY;
    int64_t steps = 0;
    for (int64_t i = 0; i < tl->nx; i++) {
        double x = tl->x[i];
        if (!(x < v))
            break;
        best = fmax(best, x);
        for (int64_t j = 1; j <= m; j++) {
            if (++steps > HTA_TOPLEVEL_MAX_STEPS)
                return NAN;
            if (!(top_load(x, hta_wrem_at(w, j), j) < v))
                break; /* and every larger j */
            int64_t lo = j, hi = m; /* the greatest R in [j, m] below v */
            if (top_load(x, hta_wrem_at(w, hi), j) < v) {
                lo = hi;
            } else {
                while (hi - lo > 1) {
                    int64_t mid = lo + (hi - lo) / 2;
                    if (top_load(x, hta_wrem_at(w, mid), j) < v)
                        lo = mid;
                    else
                        hi = mid;
                }
            }
            best = fmax(best, top_load(x, hta_wrem_at(w, lo), j));
        }
    }
    return best;
}

/* The computed load of x local tasks and n[l] tasks at level l = 2..N,
 * the top ones at w_rem(n[N]) (the fewest top tasks an assignment with
 * them has, so the least cost), the others at w_l(0). */
static double combo_load(const hta_instance *in, int N, const int64_t *n)
{
    double c[HTA_MAX_LEVELS];
    for (int l = 1; l < N; l++)
        c[l - 1] = hta_level_cost(in, l, 0);
    c[N - 1] = hta_level_cost(in, N, n[N - 1]);
    return hta_load_levels(N, n, c);
}

static int fits(double load, double L, int strict)
{
    return strict ? load < L : load <= L;
}

/* The most splits of a count tried (below); past it the count is
 * assumed to fit (a relaxation still). */
#define SPLITS_MAX 4096

/* 1 when some split of j non-local tasks over levels 2..N beside x local
 * ones has a computed load within L (N <= 4: at most (j + 1)^2 splits). */
static int some_split_fits(const hta_instance *in, int N, int64_t x,
                           int64_t j, double L, int strict)
{
    int64_t n[HTA_MAX_LEVELS] = {x};
    int64_t hi3 = N == 4 ? j : 0;
    for (int64_t a3 = 0; a3 <= hi3; a3++)
        for (int64_t top = 0; top + a3 <= j; top++) {
            n[1] = j - a3 - top;
            if (N == 4)
                n[2] = a3;
            n[N - 1] = top;
            if (fits(combo_load(in, N, n), L, strict))
                return 1;
        }
    return 0;
}

int64_t hta_toplevel_room(const hta_instance *in, int64_t x, double L,
                          int strict)
{
    int N = hta_levels(in);
    int64_t n[HTA_MAX_LEVELS] = {x};
    if (!fits(combo_load(in, N, n), L, strict))
        return -1;
    double c1 = in->w_loc, c2 = hta_level_cost(in, 2, 0), lx = c1 * (double)x;
    double Lp = L + ldexp(fabs(L), -46); /* past 64 units in the last place */
    int64_t j = room_beside(lx, c2, Lp, in->m);
    /* every cost is at least c2 (w_l(r) >= w_2(0)), and a computed load
       is within 32 units in the last place of its exact value (at most 8
       terms, each product and sum rounded once), so no split of j + 1
       fits; j itself may fit by rounding alone: split by split where N <=
       4 and the splits are at most SPLITS_MAX, assumed to otherwise (a
       relaxation still) */
    if (j > 0 && !fits(top_load(lx, c2, j), L, strict) && N <= 4 &&
        (double)(j + 1) * (double)(N == 4 ? j + 1 : 1) <= SPLITS_MAX &&
        !some_split_fits(in, N, x, j, L, strict))
        j--;
    return j;
}
