/* The envelope bound (envelope.h). */
#include "exact/envelope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>

#include "hta/assign.h"
#include "hta/levels.h"
#include "hta/maxcover.h"
#include "core/buf.h"
#include "core/check.h"
#include "core/glpkx.h"
#include "exact/toplevel.h"

/* Marginals in units of 2^-ONE_BITS: one remote slot is ONE. */
#define ONE_BITS 30
#define ONE ((uint64_t)1 << ONE_BITS)
/* More distinct marginals than this are coarsened (rounded up further:
 * still an upper bound); each level costs a max-flow round.  On make
 * bench-close's instances there are 4 to 60. */
#define MAX_LEVELS 256

typedef struct env {
    const hta_instance *inst;
    double L, c;
    int strict;
    int levels; /* N > 2: the room at levels 2..N (toplevel.h) */
} env;

/* The most non-local tasks beside x local ones (x within L alone). */
static int64_t slots(const env *e, int64_t x)
{
    if (e->levels)
        return hta_toplevel_room(e->inst, x, e->L, e->strict);
    return hta_room_remote(e->inst, x, e->c, e->L, e->strict);
}

/* A marginal of the envelope: dy/dx (0 <= dy <= dx) rounded up to the
 * grid. */
static uint64_t marginal(int64_t dy, int64_t dx)
{
    return ((uint64_t)dy * ONE + (uint64_t)dx - 1) / (uint64_t)dx;
}

static int cmp_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

typedef struct work {
    int64_t *hx, *hy;       /* one server's hull */
    int64_t *seg_off;       /* per server: its segments */
    uint64_t *seg_th;       /* per segment: marginal, non-increasing */
    int64_t *seg_units;
    size_t cap_th, cap_units;
    uint64_t *levels;
    int64_t *caps, *cur;
} work;

static void work_free(work *w)
{
    free(w->hx);
    free(w->hy);
    free(w->seg_off);
    free(w->seg_th);
    free(w->seg_units);
    free(w->levels);
    free(w->caps);
    free(w->cur);
}

#define OOM(d) hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory")

/* Server s's envelope G_s over 0..min(U, deg_s): its vertices into
 * w->hx, w->hy (integers, x increasing); returns their number. */
static int64_t hull(const env *e, int32_t s, int64_t U, work *w)
{
    const hta_instance *inst = e->inst;
    int64_t deg = inst->srv_off[s + 1] - inst->srv_off[s];
    int64_t ub = deg < U ? deg : U, k = 0, top = 0;
    for (int64_t x = 0; x <= ub; x++) {
        /* g made non-decreasing (a prefix maximum: still >= g), so that
         * 0 <= dy <= dx and the products below fit */
        int64_t y = x + slots(e, x);
        top = x == 0 || y > top ? y : top;
        /* pop the last vertex while it lies on or below the chord */
        while (k >= 2) {
            int64_t x0 = w->hx[k - 2], y0 = w->hy[k - 2];
            if ((top - y0) * (w->hx[k - 1] - x0) <
                (w->hy[k - 1] - y0) * (x - x0))
                break;
            k--;
        }
        w->hx[k] = x;
        w->hy[k] = top;
        k++;
    }
    return k;
}

/* Every server's envelope as segments (marginal, units), and sum_s G_s(0)
 * into *base.  Returns the number of segments, -1 out of memory. */
static int64_t envelopes(const env *e, int64_t U, work *w, int64_t *base)
{
    const hta_instance *inst = e->inst;
    int64_t nseg = 0;
    *base = 0;
    w->seg_off[0] = 0;
    for (int32_t s = 0; s < inst->n; s++) {
        int64_t k = hull(e, s, U, w);
        *base += w->hy[0];
        if (!HTA_RESERVE(w->seg_th, w->cap_th, (size_t)(nseg + k)) ||
            !HTA_RESERVE(w->seg_units, w->cap_units, (size_t)(nseg + k)))
            return -1;
        for (int64_t i = 1; i < k; i++) {
            int64_t dx = w->hx[i] - w->hx[i - 1], dy = w->hy[i] - w->hy[i - 1];
            HTA_CHECK(dy >= 0 && dy <= dx);
            w->seg_th[nseg] = marginal(dy, dx);
            w->seg_units[nseg] = dx;
            nseg++;
        }
        w->seg_off[s + 1] = nseg;
    }
    return nseg;
}

/* The distinct marginals, largest first, coarsened (rounded up to a
 * coarser grid, segments too) until at most MAX_LEVELS. */
static int64_t levels(work *w, int64_t nseg)
{
    int64_t K = 0;
    for (int shift = 0; shift <= ONE_BITS; shift++) {
        uint64_t unit = (uint64_t)1 << shift;
        for (int64_t i = 0; i < nseg; i++) {
            w->seg_th[i] = (w->seg_th[i] + unit - 1) / unit * unit;
            w->levels[i] = w->seg_th[i];
        }
        qsort(w->levels, (size_t)nseg, sizeof *w->levels, cmp_desc);
        K = 0;
        for (int64_t i = 0; i < nseg; i++)
            if (K == 0 || w->levels[K - 1] != w->levels[i])
                w->levels[K++] = w->levels[i];
        if (K <= MAX_LEVELS)
            break;
    }
    return K;
}

/* The decision's data: U, r0 = m - f(U) and c = w_rem(r0) into e and
 * res; *F = f(U).  res->refuted when nothing fits within L at all (strict
 * and L = 0): then nothing else is set up. */
static hta_status prepare(const hta_instance *inst, double L, int strict,
                          env *e, int64_t *F, hta_envelope_result *res,
                          hta_diag *d)
{
    memset(res, 0, sizeof *res);
    if (!(L >= 0) || !isfinite(L))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected a finite makespan L >= 0, found %g", L);
    int32_t m = inst->m, n = inst->n;
    *e = (env){inst, L, inst->w_loc, strict, hta_levels(inst) > 2};
    int64_t U = res->U = hta_room_local(inst, L, strict);
    *F = 0;
    if (slots(e, 0) < 0) { /* L < 0 excluded; strict and L = 0 */
        res->refuted = m > 0;
        res->r0 = m;
        res->c = hta_wrem_at(&inst->wrem, m);
        return HTA_OK;
    }
    hta_status st = HTA_OK;
    if (U > 0) {
        hta_maxcover *top = NULL;
        int64_t *caps = malloc(((size_t)n + 1) * sizeof *caps);
        if (!caps)
            return OOM(d);
        for (int32_t s = 0; s < n; s++)
            caps[s] = U;
        if ((st = hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &top, d)) ==
            HTA_OK)
            st = hta_maxcover_raise_caps(top, caps, d);
        if (st == HTA_OK)
            *F = hta_maxcover_size(top);
        free(caps);
        hta_maxcover_free(top);
    }
    res->r0 = m - *F;
    e->c = res->c = hta_wrem_at(&inst->wrem, res->r0);
    return st;
}

/* The most local tasks any server can run: the size of a hull. */
static int64_t max_ub(const hta_instance *inst, int64_t U)
{
    int64_t most = 0;
    for (int32_t s = 0; s < inst->n; s++) {
        int64_t deg = inst->srv_off[s + 1] - inst->srv_off[s];
        most = deg > most ? deg : most;
    }
    return most < U ? most : U;
}

/* The polymatroid greedy over the envelope's levels: the incremental
 * max-flow with the caps of every level in turn, its bound summed into
 * res.  With cover NULL it stops as soon as B < m or B >= m is certain
 * (the refutation); otherwise it runs every level and copies the final
 * cover, the relaxation's optimum, into cover (m entries).  *stopped
 * when the stop flag ended it first (then no cover, and no refutation). */
static hta_status greedy(const hta_instance *inst, double L, int strict,
                         volatile sig_atomic_t *stop, int32_t *cover,
                         int *stopped, hta_envelope_result *res,
                         hta_diag *d)
{
    env e = {inst, L, inst->w_loc, strict, hta_levels(inst) > 2};
    int64_t F = 0;
    hta_status st = prepare(inst, L, strict, &e, &F, res, d);
    if (st != HTA_OK || res->refuted)
        return st;
    int32_t m = inst->m, n = inst->n;
    int64_t U = res->U;
    hta_maxcover *mc = NULL;
    work w;
    memset(&w, 0, sizeof w);
    int64_t maxub = max_ub(inst, U);
    w.hx = malloc(((size_t)maxub + 1) * sizeof *w.hx);
    w.hy = malloc(((size_t)maxub + 1) * sizeof *w.hy);
    w.seg_off = malloc(((size_t)n + 1) * sizeof *w.seg_off);
    if (!w.hx || !w.hy || !w.seg_off) {
        st = OOM(d);
        goto done;
    }
    int64_t base;
    int64_t nseg = envelopes(&e, U, &w, &base);
    if (nseg < 0) {
        st = OOM(d);
        goto done;
    }
    uint64_t need = (uint64_t)m * ONE, sum = 0;
    res->bound = (double)base;
    if (base >= m && !cover)
        goto done; /* every server at 0 local tasks already fits m */
    sum = (uint64_t)base * ONE;
    w.levels = malloc(((size_t)nseg + 1) * sizeof *w.levels);
    w.caps = calloc((size_t)n + 1, sizeof *w.caps);
    w.cur = malloc(((size_t)n + 1) * sizeof *w.cur);
    if (!w.levels || !w.caps || !w.cur) {
        st = OOM(d);
        goto done;
    }
    int64_t K = levels(&w, nseg);
    res->levels = K;
    for (int32_t s = 0; s < n; s++)
        w.cur[s] = w.seg_off[s];
    if ((st = hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, d)) !=
        HTA_OK)
        goto done;
    /* sum: base + the levels so far; the rest lies between
     * theta_{i+1} rho_i and theta_{i+1} F (rho only grows, up to F) */
    int64_t rho = 0;
    int open = 1; /* 0 once B >= m is certain */
    for (int64_t i = 0; i < K && (open || cover); i++) {
        uint64_t next = i + 1 < K ? w.levels[i + 1] : 0;
        if (stop && *stop) {
            open = 0;
            *stopped = 1;
            break;
        }
        for (int32_t s = 0; s < n; s++)
            while (w.cur[s] < w.seg_off[s + 1] &&
                   w.seg_th[w.cur[s]] >= w.levels[i])
                w.caps[s] += w.seg_units[w.cur[s]++];
        if ((st = hta_maxcover_raise_caps(mc, w.caps, d)) != HTA_OK)
            goto done;
        res->flows++;
        rho = hta_maxcover_size(mc);
        HTA_CHECK(rho <= F);
        sum += (w.levels[i] - next) * (uint64_t)rho;
        if (cover)
            continue;
        if (sum + next * (uint64_t)rho >= need) {
            sum += next * (uint64_t)rho; /* B >= m whatever follows */
            open = 0;
        }
        if (sum + next * (uint64_t)F < need) {
            sum += next * (uint64_t)F; /* B < m whatever follows */
            break;
        }
    }
    res->bound = (double)sum / (double)ONE;
    res->refuted = !cover && open && sum < need;
    if (cover && open) {
        /* the last level's caps are every server's whole hull: a maximum
         * cover at U (the hulls reach min(U, deg_s)) */
        HTA_CHECK(rho == F);
        memcpy(cover, hta_maxcover_cover(mc), (size_t)m * sizeof *cover);
    }
done:
    hta_maxcover_free(mc);
    work_free(&w);
    return st;
}

hta_status hta_envelope_refute(const hta_instance *inst, double L, int strict,
                               volatile sig_atomic_t *stop,
                               hta_envelope_result *res, hta_diag *d)
{
    int stopped = 0;
    return greedy(inst, L, strict, stop, NULL, &stopped, res, d);
}

hta_status hta_envelope_cover(const hta_instance *inst, double L,
                              volatile sig_atomic_t *stop, int32_t *cover,
                              int *stopped, hta_diag *d)
{
    hta_envelope_result res;
    *stopped = 0;
    hta_status st = greedy(inst, L, 0, stop, cover, stopped, &res, d);
    if (st == HTA_OK && res.refuted) /* nothing fits (not at L >= 0) */
        for (int32_t t = 0; t < inst->m; t++)
            cover[t] = -1;
    return st;
}

/* ---- the certificate: the relaxation as an LP --------------------------- */

typedef struct lp_ctx {
    const env *e;
    int64_t U, r0, nseg;
    const char *path;
    work w;
    int *ia, *ja;
    double *ar;
} lp_ctx;

/* Column and row numbers: x_{t,s} are columns 1..|E| in task order, X_s
 * and y_s follow; rows: task_t, local_s, total, then the hull rows. */
static hta_status build_lp(void *ctx, hta_diag *d)
{
    lp_ctx *c = ctx;
    const hta_instance *inst = c->e->inst;
    int32_t m = inst->m, n = inst->n;
    int colX = (int)inst->edges + 1, colY = colX + n;
    int rowL = m + 1, rowT = m + n + 1, row = rowT;
    glp_prob *P = glp_create_prob();
    char name[80], cs[32], title[240];
    hta_format_real(cs, c->e->c);
    snprintf(title, sizeof title,
             "hta envelope relaxation of makespan %s %.17g: U = %lld, at "
             "least r0 = %lld remote tasks at w_rem(r0) = %s each; "
             "infeasible: no assignment has it",
             c->e->strict ? "<" : "<=", c->e->L, (long long)c->U,
             (long long)c->r0, cs);
    glp_set_prob_name(P, title);
    glp_set_obj_dir(P, GLP_MAX);
    glp_set_obj_name(P, "sum_g");
    glp_add_cols(P, colY + n - 1);
    glp_add_rows(P, (int)(m + n + 1 + c->nseg));
    int64_t k = 0;
    int col = 1;
    for (int32_t t = 0; t < m; t++) {
        snprintf(name, sizeof name, "task_%ld", (long)t);
        glp_set_row_name(P, t + 1, name);
        glp_set_row_bnds(P, t + 1, GLP_UP, 0.0, 1.0);
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            int32_t s = inst->task_srv[i];
            snprintf(name, sizeof name, "x_%ld_%ld", (long)t, (long)s);
            glp_set_col_name(P, col, name);
            glp_set_col_bnds(P, col, GLP_DB, 0.0, 1.0);
            ++k, c->ia[k] = t + 1, c->ja[k] = col, c->ar[k] = 1.0;
            ++k, c->ia[k] = rowL + s, c->ja[k] = col, c->ar[k] = -1.0;
            col++;
        }
    }
    glp_set_row_name(P, rowT, "total");
    glp_set_row_bnds(P, rowT, GLP_LO, (double)m, 0.0);
    for (int32_t s = 0; s < n; s++) {
        int64_t K = hull(c->e, s, c->U, &c->w);
        const int64_t *hx = c->w.hx, *hy = c->w.hy;
        snprintf(name, sizeof name, "local_%ld", (long)s);
        glp_set_row_name(P, rowL + s, name);
        glp_set_row_bnds(P, rowL + s, GLP_FX, 0.0, 0.0);
        snprintf(name, sizeof name, "X_%ld", (long)s);
        glp_set_col_name(P, colX + s, name);
        if (hx[K - 1] > 0)
            glp_set_col_bnds(P, colX + s, GLP_DB, 0.0, (double)hx[K - 1]);
        else
            glp_set_col_bnds(P, colX + s, GLP_FX, 0.0, 0.0);
        snprintf(name, sizeof name, "y_%ld", (long)s);
        glp_set_col_name(P, colY + s, name);
        if (hy[0] > 0)
            glp_set_col_bnds(P, colY + s, GLP_DB, 0.0, (double)hy[0]);
        else
            glp_set_col_bnds(P, colY + s, GLP_FX, 0.0, 0.0);
        glp_set_obj_coef(P, colX + s, 1.0);
        glp_set_obj_coef(P, colY + s, 1.0);
        ++k, c->ia[k] = rowL + s, c->ja[k] = colX + s, c->ar[k] = 1.0;
        ++k, c->ia[k] = rowT, c->ja[k] = colX + s, c->ar[k] = 1.0;
        ++k, c->ia[k] = rowT, c->ja[k] = colY + s, c->ar[k] = 1.0;
        /* X + y <= G_i + (dy/dx)(X - x_i), times dx: integers */
        for (int64_t i = 1; i < K; i++) {
            int64_t dx = hx[i] - hx[i - 1], dy = hy[i] - hy[i - 1];
            row++;
            snprintf(name, sizeof name, "hull_%ld_%lld", (long)s,
                     (long long)i);
            glp_set_row_name(P, row, name);
            glp_set_row_bnds(P, row, GLP_UP, 0.0,
                             (double)(hy[i - 1] * dx - dy * hx[i - 1]));
            if (dx != dy)
                ++k, c->ia[k] = row, c->ja[k] = colX + s,
                     c->ar[k] = (double)(dx - dy);
            ++k, c->ia[k] = row, c->ja[k] = colY + s, c->ar[k] = (double)dx;
        }
    }
    glp_load_matrix(P, (int)k, c->ia, c->ja, c->ar);
    hta_status st = HTA_OK;
    if (glp_write_lp(P, NULL, c->path) != 0)
        st = hta_diag_set(d, HTA_ERR_IO, c->path, 0,
                          "GLPK could not write the LP file");
    glp_delete_prob(P);
    return st;
}

hta_status hta_envelope_write_lp(const hta_instance *inst, double L,
                                 int strict, const char *path, int verbose,
                                 hta_diag *d)
{
    env e = {inst, L, inst->w_loc, strict, hta_levels(inst) > 2};
    int64_t F = 0;
    hta_envelope_result res;
    hta_status st = prepare(inst, L, strict, &e, &F, &res, d);
    if (st != HTA_OK)
        return st;
    if (res.refuted) /* nothing fits at all (prepare) */
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "makespan < 0: nothing to write");
    lp_ctx c;
    memset(&c, 0, sizeof c);
    c.e = &e;
    c.U = res.U;
    c.r0 = res.r0;
    c.path = path;
    int64_t maxub = max_ub(inst, c.U);
    c.w.hx = malloc(((size_t)maxub + 1) * sizeof *c.w.hx);
    c.w.hy = malloc(((size_t)maxub + 1) * sizeof *c.w.hy);
    if (!c.w.hx || !c.w.hy) {
        work_free(&c.w);
        return OOM(d);
    }
    /* the hull rows, and the largest coefficient: exact in a double */
    int64_t big = 0;
    for (int32_t s = 0; s < inst->n; s++) {
        int64_t K = hull(&e, s, c.U, &c.w);
        c.nseg += K - 1;
        for (int64_t i = 1; i < K; i++) {
            int64_t dx = c.w.hx[i] - c.w.hx[i - 1];
            /* |G_i dx - dy x_i| <= G_i dx: G <= 2m + 1, dx <= U */
            int64_t v = c.w.hy[i - 1] > INT64_MAX / (dx + 1) ?
                            INT64_MAX :
                            c.w.hy[i - 1] * dx;
            big = v > big ? v : big;
        }
    }
    int64_t nnz = 2 * inst->edges + 3 * (int64_t)inst->n + 2 * c.nseg;
    if (big > ((int64_t)1 << 53) ||
        inst->edges + 2 * (int64_t)inst->n >= INT32_MAX ||
        inst->m + (int64_t)inst->n + 1 + c.nseg >= INT32_MAX ||
        nnz >= INT32_MAX) {
        work_free(&c.w);
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the envelope LP is too large to write exactly "
                            "(%lld placement pairs)",
                            (long long)inst->edges);
    }
    c.ia = malloc(((size_t)nnz + 1) * sizeof *c.ia);
    c.ja = malloc(((size_t)nnz + 1) * sizeof *c.ja);
    c.ar = malloc(((size_t)nnz + 1) * sizeof *c.ar);
    if (!c.ia || !c.ja || !c.ar)
        st = OOM(d);
    else
        st = hta_glpk_guard(build_lp, &c, verbose, d);
    free(c.ia);
    free(c.ja);
    free(c.ar);
    work_free(&c.w);
    return st;
}
