/* The HTA integer program's models (ilp_impl.h): groups of identical
 * tasks, the pieces of the cost functions, integral scaling, the compact,
 * naive and N-level models, the incumbent as a solution, a solution read
 * back as an assignment, and the names of an LP file. */
#include "ilp_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "offline/bounds.h"

/* ---- groups of identical tasks --------------------------------------- */

hta_status ilp_build_groups(solver *sv, hta_diag *d)
{
    const hta_instance *in = sv->inst;
    int32_t m = in->m;
    sv->group_of = malloc((size_t)m * sizeof *sv->group_of);
    sv->order = malloc((size_t)m * sizeof *sv->order);
    sv->group_rep = malloc((size_t)m * sizeof *sv->group_rep);
    sv->group_size = malloc((size_t)m * sizeof *sv->group_size);
    sv->group_first = malloc(((size_t)m + 1) * sizeof *sv->group_first);
    if (!sv->group_of || !sv->order || !sv->group_rep || !sv->group_size ||
        !sv->group_first)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    hta_status st = hta_instance_groups(in, sv->order, sv->group_first,
                                        &sv->ngroups, d);
    for (int32_t g = 0; st == HTA_OK && g < sv->ngroups; g++) {
        sv->group_rep[g] = sv->order[sv->group_first[g]];
        sv->group_size[g] = sv->group_first[g + 1] - sv->group_first[g];
        for (int32_t i = sv->group_first[g]; i < sv->group_first[g + 1]; i++)
            sv->group_of[sv->order[i]] = g;
    }
    return st;
}

/* ---- pieces ------------------------------------------------------------ */

int ilp_cmp_piece(const void *x, const void *y)
{
    const piece *a = x, *b = y;
    if (a->lb != b->lb)
        return a->lb < b->lb ? -1 : 1;
    return (a->R > b->R) - (a->R < b->R);
}

/* One piece per distinct value of w over r = 0..m (w_rem, or a level's
 * cost). */
hta_status ilp_build_pieces(const hta_wrem *w, int64_t m, piece **out,
                               int *np, hta_diag *d)
{
    int64_t cap = 0;
    if (w->kind == HTA_WREM_AFFINE)
        cap = w->b == 0 ? 1 : m + 1;
    else
        cap = (w->k < m ? w->k : m) + 1;
    piece *p = calloc((size_t)cap, sizeof *p);
    if (!p)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    int n = 0;
    for (int64_t r = 0; r <= m; r++) {
        double c = hta_wrem_at(w, r);
        if (n > 0 && p[n - 1].c == c) {
            p[n - 1].R = r;
        } else {
            p[n].c = c;
            p[n].R = r;
            n++;
        }
        /* Beyond the table (or a flat affine function) w_rem is
         * constant: the piece runs to m. */
        if ((w->kind == HTA_WREM_TABLE && r >= w->k) ||
            (w->kind == HTA_WREM_AFFINE && w->b == 0)) {
            p[n - 1].R = m;
            break;
        }
    }
    *out = p;
    *np = n;
    return HTA_OK;
}

/* N > 2 levels: one piece per combination of the levels' pieces, at most
 * max of them (*np = -1 past it).  Each piece's bound: the level flow
 * bound with its costs made constant (bounds.h), a relaxation of it. */

hta_status ilp_build_level_pieces(const hta_instance *in, piece **out,
                                     int *np, hta_diag *d)
{
    int N = hta_levels(in);
    piece *lv[HTA_MAX_LEVELS] = {NULL};
    int cnt[HTA_MAX_LEVELS] = {0}, idx[HTA_MAX_LEVELS] = {0};
    hta_status st = HTA_OK;
    int64_t total = 1;
    piece *p = NULL;
    *out = NULL;
    *np = -1;
    for (int l = 2; l <= N && st == HTA_OK; l++) {
        st = ilp_build_pieces(hta_level_wrem(in, l), in->m, &lv[l - 1],
                          &cnt[l - 1], d);
        if (st == HTA_OK)
            total *= cnt[l - 1];
        if (total > LEVEL_PIECES_MAX)
            goto cleanup;
    }
    if (st == HTA_OK && !(p = calloc((size_t)total, sizeof *p)))
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (int64_t i = 0; st == HTA_OK && i < total; i++) {
        p[i].cl[0] = in->w_loc;
        hta_instance v = *in; /* the costs of the piece, constant */
        for (int l = 2; l <= N; l++) {
            const piece *q = &lv[l - 1][idx[l - 1]];
            p[i].cl[l - 1] = q->c;
            p[i].Rl[l - 1] = q->R;
            hta_wrem w = {HTA_WREM_AFFINE, 0, NULL, q->c, 0.0};
            if (l < N)
                v.wlev[l] = w;
            else
                v.wrem = w;
        }
        p[i].c = p[i].cl[N - 1];
        p[i].R = p[i].Rl[N - 1];
        st = hta_bound_levels_compute(&v, &p[i].lb, d);
        for (int l = 2; l <= N && ++idx[l - 1] == cnt[l - 1]; l++)
            idx[l - 1] = 0;
    }
    if (st == HTA_OK) {
        *out = p;
        *np = (int)total;
    } else {
        free(p);
    }
cleanup:
    for (int l = 0; l < HTA_MAX_LEVELS; l++)
        free(lv[l]);
    return st;
}

/* ---- scaling ------------------------------------------------------------ */

/* The least D <= 10^6 (among 1..1000 and powers of ten) making every c[i]
 * * D (i < k) an integer below 2^40, or 0. */
static double integral_scale(const double *c, int k)
{
    for (double D = 1; D <= 1e6; D = D < 1000 ? D + 1 : D * 10) {
        int ok = 1;
        for (int i = 0; i < k && ok; i++) {
            double a = c[i] * D;
            if (a > 0x1p40)
                return 0;
            ok = fabs(a - nearbyint(a)) <= 1e-9 * a;
        }
        if (ok)
            return D;
    }
    return 0;
}

/* The scale of a piece's costs (w_loc and its remote cost or its level
 * costs). */
double ilp_piece_scale(const solver *sv, const piece *pc)
{
    if (sv->levels)
        return integral_scale(pc->cl, hta_levels(sv->inst));
    double c[2] = {sv->inst->w_loc, pc->c};
    return integral_scale(c, 2);
}

/* ---- the model ---------------------------------------------------------- */

/* Columns: x_{g,s} for each group and each of its servers, then y_s, then
 * L.  NULL on out of memory. */
static glp_prob *build_compact(solver *sv, double wl, double c, double L_lo,
                               double L_hi, int L_int)
{
    const hta_instance *in = sv->inst;
    int32_t n = in->n, G = sv->ngroups;
    int64_t nx = 0, multi = 0;
    for (int32_t g = 0; g < G; g++) {
        int32_t t = sv->group_rep[g];
        int64_t deg = in->task_off[t + 1] - in->task_off[t];
        nx += deg;
        multi += deg > 1;
    }
    int ncols = (int)(nx + n + 1);
    /* A remote task fills its server alone when c + wl > L_hi. */
    int exclusive = isfinite(L_hi) && c + wl > L_hi;
    double y_max = isfinite(L_hi) ? floor(L_hi / c + 1e-9) : INFINITY;
    double x_max = isfinite(L_hi) ? floor(L_hi / wl + 1e-9) : INFINITY;
    int64_t nnz = nx /* group rows (upper bound) */ + nx + n /* total */ +
                  nx + 2 * (int64_t)n /* servers */ + n /* cap */ +
                  (exclusive ? 2 * nx : 0);
    if (!HTA_RESERVE(sv->ia, sv->cap_ia, (size_t)nnz + 1) ||
        !HTA_RESERVE(sv->ja, sv->cap_ja, (size_t)nnz + 1) ||
        !HTA_RESERVE(sv->ar, sv->cap_ar, (size_t)nnz + 1))
        return NULL;
    int *ia = sv->ia, *ja = sv->ja;
    double *ar = sv->ar;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, ncols);
    int row_total = 1, row_srv = 2, row_cap = 2 + n;
    int nrows = 1 + n + (sv->pc->R < in->m) + (int)multi;
    int row_group = row_cap + (sv->pc->R < in->m);
    int row_vub = nrows + 1;
    if (exclusive)
        nrows += (int)nx;
    glp_add_rows(P, nrows);
    glp_set_row_bnds(P, row_total, GLP_FX, (double)in->m, (double)in->m);
    for (int32_t s = 0; s < n; s++)
        glp_set_row_bnds(P, row_srv + s, GLP_UP, 0.0, 0.0);
    if (sv->pc->R < in->m)
        glp_set_row_bnds(P, row_cap, GLP_UP, 0.0, (double)sv->pc->R);
    int64_t k = 0;
    int col = 1, grow = row_group;
    for (int32_t g = 0; g < G; g++) {
        int32_t t = sv->group_rep[g], size = sv->group_size[g];
        int64_t deg = in->task_off[t + 1] - in->task_off[t];
        if (deg > 1)
            glp_set_row_bnds(P, grow, GLP_UP, 0.0, (double)size);
        for (int64_t i = in->task_off[t]; i < in->task_off[t + 1]; i++) {
            int32_t s = in->task_srv[i];
            double U = fmin((double)size, x_max);
            hta_ilp_int_col(P, col, U);
            if (deg > 1)
                ++k, ia[k] = grow, ja[k] = col, ar[k] = 1.0;
            ++k, ia[k] = row_total, ja[k] = col, ar[k] = 1.0;
            ++k, ia[k] = row_srv + s, ja[k] = col, ar[k] = wl;
            if (exclusive) {
                /* x_{g,s} + U*y_s <= U; y_s is column nx + 1 + s */
                int r = row_vub + col - 1;
                glp_set_row_bnds(P, r, GLP_UP, 0.0, fmax(U, 0.0));
                ++k, ia[k] = r, ja[k] = col, ar[k] = 1.0;
                if (U > 0)
                    ++k, ia[k] = r, ja[k] = (int)(nx + 1 + s), ar[k] = U;
            }
            col++;
        }
        grow += deg > 1;
    }
    int col_L = ncols;
    for (int32_t s = 0; s < n; s++, col++) {
        glp_set_col_kind(P, col, GLP_IV);
        double ub = (double)(sv->pc->R < in->m ? sv->pc->R : in->m);
        ub = fmin(ub, y_max);
        if (ub > 0)
            glp_set_col_bnds(P, col, GLP_DB, 0.0, ub);
        else
            glp_set_col_bnds(P, col, GLP_FX, 0.0, 0.0);
        ++k, ia[k] = row_total, ja[k] = col, ar[k] = 1.0;
        ++k, ia[k] = row_srv + s, ja[k] = col, ar[k] = c;
        ++k, ia[k] = row_srv + s, ja[k] = col_L, ar[k] = -1.0;
        if (sv->pc->R < in->m)
            ++k, ia[k] = row_cap, ja[k] = col, ar[k] = 1.0;
    }
    hta_ilp_L_col(P, col_L, L_lo, L_hi, L_int);
    glp_load_matrix(P, (int)k, ia, ja, ar);
    sv->ncols = ncols;
    return P;
}

/* The naive model: x_{t,s} for every pair, for benchmarks. */
static glp_prob *build_naive(solver *sv, double wl, double c, double L_lo,
                             double L_hi, int L_int)
{
    const hta_instance *in = sv->inst;
    int64_t m = in->m, n = in->n, pairs = m * n;
    int remote_row = sv->pc->R < m;
    int64_t nnz = 2 * pairs + n + (remote_row ? pairs : 0);
    if (!HTA_RESERVE(sv->ia, sv->cap_ia, (size_t)nnz + 1) ||
        !HTA_RESERVE(sv->ja, sv->cap_ja, (size_t)nnz + 1) ||
        !HTA_RESERVE(sv->ar, sv->cap_ar, (size_t)nnz + 1) ||
        !HTA_RESERVE(sv->loc, sv->cap_loc, (size_t)pairs))
        return NULL;
    int *ia = sv->ia, *ja = sv->ja;
    double *ar = sv->ar;
    unsigned char *loc = sv->loc;
    memset(loc, 0, (size_t)pairs);
    for (int64_t t = 0; t < m; t++)
        for (int64_t i = in->task_off[t]; i < in->task_off[t + 1]; i++)
            loc[t * n + in->task_srv[i]] = 1;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, (int)(pairs + 1));
    glp_add_rows(P, (int)(m + n + remote_row));
    int64_t k = 0;
    for (int64_t t = 0; t < m; t++)
        glp_set_row_bnds(P, (int)(t + 1), GLP_FX, 1.0, 1.0);
    for (int64_t s = 0; s < n; s++)
        glp_set_row_bnds(P, (int)(m + 1 + s), GLP_UP, 0.0, 0.0);
    if (remote_row)
        glp_set_row_bnds(P, (int)(m + n + 1), GLP_UP, 0.0,
                         (double)sv->pc->R);
    for (int64_t t = 0; t < m; t++)
        for (int64_t s = 0; s < n; s++) {
            int col = (int)(t * n + s + 1);
            glp_set_col_kind(P, col, GLP_BV);
            ++k, ia[k] = (int)(t + 1), ja[k] = col, ar[k] = 1.0;
            ++k, ia[k] = (int)(m + 1 + s), ja[k] = col,
                 ar[k] = loc[t * n + s] ? wl : c;
            if (remote_row && !loc[t * n + s])
                ++k, ia[k] = (int)(m + n + 1), ja[k] = col, ar[k] = 1.0;
        }
    int col_L = (int)(pairs + 1);
    for (int64_t s = 0; s < n; s++)
        ++k, ia[k] = (int)(m + 1 + s), ja[k] = col_L, ar[k] = -1.0;
    hta_ilp_L_col(P, col_L, L_lo, L_hi, L_int);
    glp_load_matrix(P, (int)k, ia, ja, ar);
    sv->ncols = (int)(pairs + 1);
    return P;
}

/* The incumbent as a solution of the compact model, 1-based. */
int ilp_incumbent_solution(solver *sv, double wl, double c)
{
    const hta_instance *in = sv->inst;
    const int32_t *a = sv->best;
    int32_t n = in->n;
    int64_t r = 0;
    memset(sv->heur, 0, ((size_t)sv->ncols + 1) * sizeof *sv->heur);
    /* column of (group, server): walk each group's sorted server list */
    int col = 1;
    if (!HTA_RESERVE(sv->nloc, sv->cap_nloc, (size_t)n) ||
        !HTA_RESERVE(sv->nrem, sv->cap_nrem, (size_t)n) ||
        !HTA_RESERVE(sv->first_col, sv->cap_first, (size_t)sv->ngroups + 1))
        return 0;
    int64_t *nloc = sv->nloc, *nrem = sv->nrem;
    int32_t *first_col = sv->first_col;
    memset(nloc, 0, (size_t)n * sizeof *nloc);
    memset(nrem, 0, (size_t)n * sizeof *nrem);
    for (int32_t g = 0; g < sv->ngroups; g++) {
        int32_t t = sv->group_rep[g];
        first_col[g] = col;
        col += (int)(in->task_off[t + 1] - in->task_off[t]);
    }
    for (int32_t t = 0; t < in->m; t++) {
        int32_t g = sv->group_of[t], rep = sv->group_rep[g], s = a[t];
        int found = 0;
        for (int64_t i = in->task_off[rep]; i < in->task_off[rep + 1]; i++)
            if (in->task_srv[i] == s) {
                sv->heur[first_col[g] + (i - in->task_off[rep])] += 1.0;
                found = 1;
            }
        if (found)
            nloc[s]++;
        else
            nrem[s]++, r++;
    }
    double L = 0;
    for (int32_t s = 0; s < n; s++) {
        sv->heur[col + s] = (double)nrem[s];
        double load = wl * (double)nloc[s] + c * (double)nrem[s];
        L = load > L ? load : L;
    }
    sv->heur[sv->ncols] = L;
    return r <= sv->pc->R;
}

/* Reads a MIP solution (x: 1-based column values, from GLPK or CBC) into
 * sv->a.  0 when it does not add up, -1 out of memory. */
int ilp_read_solution(solver *sv, const double *x)
{
    const hta_instance *in = sv->inst;
    int32_t m = in->m, n = in->n;
    if (sv->levels)
        return hta_ilplev_read(&sv->lev, x, sv->a);
    if (sv->opts->model == HTA_ILP_NAIVE) {
        for (int32_t t = 0; t < m; t++) {
            sv->a[t] = -1;
            for (int32_t s = 0; s < n; s++)
                if (x[(int64_t)t * n + s + 1] > 0.5)
                    sv->a[t] = s;
            if (sv->a[t] < 0)
                return 0;
        }
        return 1;
    }
    int col = 1;
    int64_t pool_len = 0;
    if (!HTA_RESERVE(sv->pool, sv->cap_pool, (size_t)m + 1))
        return -1;
    int32_t *pool = sv->pool;
    for (int32_t g = 0; g < sv->ngroups; g++) {
        int32_t rep = sv->group_rep[g];
        int32_t i = sv->group_first[g], end = sv->group_first[g + 1];
        for (int64_t e = in->task_off[rep]; e < in->task_off[rep + 1];
             e++, col++) {
            int64_t cnt = llround(x[col]);
            for (; cnt > 0 && i < end; cnt--)
                sv->a[sv->order[i++]] = in->task_srv[e];
            if (cnt > 0)
                return 0;
        }
        for (; i < end; i++)
            pool[pool_len++] = sv->order[i];
    }
    int64_t used = 0;
    for (int32_t s = 0; s < n; s++, col++) {
        int64_t cnt = llround(x[col]);
        for (; cnt > 0 && used < pool_len; cnt--)
            sv->a[pool[used++]] = s;
        if (cnt > 0)
            return 0;
    }
    return used == pool_len;
}

/* Names rows and columns after the model, for a readable LP file. */
static void name_compact(const solver *sv, glp_prob *P)
{
    const hta_instance *in = sv->inst;
    char name[64];
    int col = 1, grow = 2 + in->n + (sv->pc->R < in->m);
    char title[240], c[32], scaled[96] = "";
    hta_format_real(c, sv->pc->c);
    if (sv->scale && sv->scale != 1)
        snprintf(scaled, sizeof scaled,
                 ", costs and L scaled by %g (L = objective / %g)",
                 sv->scale, sv->scale);
    /* What the file means, in its own first line. */
    snprintf(title, sizeof title,
             "hta exact model, min L, w_rem piece c = %s with at most %lld "
             "remote tasks%s%s",
             c, (long long)sv->pc->R,
             hta_wrem_is_constant(&in->wrem) ? " (w_rem constant: the whole "
                                               "problem)" :
                                               " (one of the pieces)",
             scaled);
    glp_set_prob_name(P, title);
    glp_set_obj_name(P, "makespan");
    glp_set_row_name(P, 1, "total");
    for (int32_t s = 0; s < in->n; s++) {
        snprintf(name, sizeof name, "load_%ld", (long)s);
        glp_set_row_name(P, 2 + s, name);
    }
    if (sv->pc->R < in->m)
        glp_set_row_name(P, 2 + in->n, "remote_cap");
    for (int32_t g = 0; g < sv->ngroups; g++) {
        int32_t t = sv->group_rep[g];
        if (in->task_off[t + 1] - in->task_off[t] > 1) {
            snprintf(name, sizeof name, "group_%ld", (long)g);
            glp_set_row_name(P, grow++, name);
        }
        for (int64_t i = in->task_off[t]; i < in->task_off[t + 1]; i++) {
            snprintf(name, sizeof name, "x_%ld_%ld", (long)g,
                     (long)in->task_srv[i]);
            glp_set_col_name(P, col++, name);
        }
    }
    for (int32_t s = 0; s < in->n; s++) {
        snprintf(name, sizeof name, "y_%ld", (long)s);
        glp_set_col_name(P, col++, name);
    }
    glp_set_col_name(P, col, "L");
}

/* The current piece's model (compact, naive or N-level), costs scaled
 * by sv->scale when it is not 0.  NULL on out of memory. */
glp_prob *ilp_build_model(solver *sv, double L_lo, double L_hi, int L_int)
{
    const piece *pc = sv->pc;
    double D = sv->scale;
    if (sv->levels) {
        double c[HTA_MAX_LEVELS];
        for (int l = 0; l < hta_levels(sv->inst); l++)
            c[l] = D ? nearbyint(pc->cl[l] * D) : pc->cl[l];
        glp_prob *P = hta_ilplev_build(&sv->lev, c, pc->Rl, L_lo, L_hi,
                                       L_int);
        if (P)
            sv->ncols = glp_get_num_cols(P);
        return P;
    }
    double wl = D ? nearbyint(sv->inst->w_loc * D) : sv->inst->w_loc;
    double c = D ? nearbyint(pc->c * D) : pc->c;
    return sv->opts->model == HTA_ILP_NAIVE ?
               build_naive(sv, wl, c, L_lo, L_hi, L_int) :
               build_compact(sv, wl, c, L_lo, L_hi, L_int);
}

/* Names the N-level model's rows and columns, with its title. */
static void name_levels(const solver *sv, glp_prob *P)
{
    char title[240], scaled[96] = "", part[64];
    size_t len = 0;
    int N = hta_levels(sv->inst);
    len += (size_t)snprintf(title, sizeof title,
                            "hta exact model, min L, %d levels, costs", N);
    for (int l = 2; l <= N && len < sizeof title; l++) {
        char c[32];
        hta_format_real(c, sv->pc->cl[l - 1]);
        snprintf(part, sizeof part, " %s (level %d, at most %lld)", c, l,
                 (long long)sv->pc->Rl[l - 1]);
        len += (size_t)snprintf(title + len, sizeof title - len, "%s", part);
    }
    if (sv->scale && sv->scale != 1)
        snprintf(scaled, sizeof scaled, ", scaled by %g", sv->scale);
    if (len < sizeof title)
        snprintf(title + len, sizeof title - len, "%s", scaled);
    hta_ilplev_name(&sv->lev, P, sv->pc->Rl, title);
}

void ilp_name_model(const solver *sv, glp_prob *P)
{
    if (sv->levels)
        name_levels(sv, P);
    else if (sv->opts->model == HTA_ILP_COMPACT)
        name_compact(sv, P);
}
