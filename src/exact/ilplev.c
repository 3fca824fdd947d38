/* The N-level integer program (ilplev.h): its columns, rows and read-out. */
#include "ilplev.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/levels.h"
#include "core/buf.h"

/* The parent of server s at level l >= 2: its level-l group, 0 at
 * level N. */
static int32_t parent_of(const hta_instance *in, int N, int l, int32_t s)
{
    return l == N ? 0 : in->grp[l][s];
}

/* The unit of server s at level l >= 2: pooled, its level-l group (its
 * parent); exact, itself (l = 2), else its level l - 1 group. */
static int32_t unit_of(const hta_ilplev *mv, int l, int32_t s)
{
    if (mv->pooled)
        return parent_of(mv->inst, mv->N, l, s);
    return l == 2 ? s : mv->inst->grp[l - 1][s];
}

/* Whether level l's columns name servers (level 1; level 2 when exact)
 * rather than units. */
static int direct(const hta_ilplev *mv, int l)
{
    return l == 1 || (l == 2 && !mv->pooled);
}

/* Units by parent, level l: kid[off[p] .. off[p + 1]). */
typedef struct kids {
    int32_t *off, *kid;
} kids;

static int build_kids(const hta_ilplev *mv, int l, kids *k)
{
    const hta_instance *in = mv->inst;
    int N = mv->N;
    int32_t np = l == N ? 1 : in->ngrp[l];
    int32_t nu = l == 2 ? in->n : in->ngrp[l - 1];
    int32_t *seen = calloc((size_t)nu + 1, sizeof *seen);
    k->off = calloc((size_t)np + 2, sizeof *k->off);
    k->kid = malloc(((size_t)nu + 1) * sizeof *k->kid);
    if (!seen || !k->off || !k->kid) {
        free(seen);
        return 0;
    }
    /* a unit's parent is its first server's */
    int32_t *par = malloc(((size_t)nu + 1) * sizeof *par);
    if (!par) {
        free(seen);
        return 0;
    }
    for (int32_t s = 0; s < in->n; s++) {
        int32_t u = l == 2 ? s : in->grp[l - 1][s];
        if (!seen[u]) {
            seen[u] = 1;
            par[u] = parent_of(in, N, l, s);
            k->off[par[u] + 1]++;
        }
    }
    for (int32_t p = 0; p < np; p++)
        k->off[p + 1] += k->off[p];
    int32_t *fill = seen; /* reused as cursors */
    for (int32_t p = 0; p < np; p++)
        fill[p] = k->off[p];
    for (int32_t u = 0; u < nu; u++)
        k->kid[fill[par[u]]++] = u;
    free(par);
    free(seen);
    return 1;
}

/* 1 when unit u of level l holds a replica of task t. */
static int unit_holds(const hta_ilplev *mv, int l, int32_t t, int32_t u)
{
    const hta_instance *in = mv->inst;
    for (int64_t i = in->task_off[t]; i < in->task_off[t + 1]; i++)
        if (unit_of(mv, l, in->task_srv[i]) == u)
            return 1;
    return 0;
}

/* Calls visit(g, l, target) for every column of group g, in order;
 * returns how many. */
typedef void (*visit_fn)(hta_ilplev *mv, int32_t g, int l, int32_t target,
                         int64_t col);

static int64_t walk_group(hta_ilplev *mv, const kids *kd, int32_t g,
                          int64_t col, visit_fn visit)
{
    const hta_instance *in = mv->inst;
    int N = mv->N;
    int32_t t = mv->order[mv->first[g]];
    int64_t c0 = col;
    for (int64_t i = in->task_off[t]; i < in->task_off[t + 1]; i++) {
        if (visit)
            visit(mv, g, 1, in->task_srv[i], col);
        col++;
    }
    for (int l = 2; l <= N; l++) {
        for (int64_t i = in->task_off[t]; i < in->task_off[t + 1]; i++) {
            int32_t p = parent_of(in, N, l, in->task_srv[i]);
            int dup = 0; /* a parent met at an earlier replica */
            for (int64_t j = in->task_off[t]; j < i && !dup; j++)
                dup = parent_of(in, N, l, in->task_srv[j]) == p;
            if (dup)
                continue;
            if (mv->pooled) { /* the parent is the pool */
                if (visit)
                    visit(mv, g, l, p, col);
                col++;
                continue;
            }
            for (int32_t k = kd[l].off[p]; k < kd[l].off[p + 1]; k++) {
                int32_t u = kd[l].kid[k];
                if (unit_holds(mv, l, t, u))
                    continue;
                if (visit)
                    visit(mv, g, l, u, col);
                col++;
            }
        }
    }
    return col - c0;
}

static void record(hta_ilplev *mv, int32_t g, int l, int32_t target,
                   int64_t col)
{
    mv->col_group[col] = g;
    mv->col_level[col] = (unsigned char)l;
    mv->col_target[col] = target;
}

hta_status hta_ilplev_init(hta_ilplev *mv, const hta_instance *in,
                           const int32_t *order, const int32_t *first,
                           int32_t ngroups, int pooled, int64_t max_cols,
                           int *too_big, hta_diag *d)
{
    memset(mv, 0, sizeof *mv);
    mv->inst = in;
    mv->pooled = pooled;
    mv->N = hta_levels(in);
    mv->order = order;
    mv->first = first;
    mv->ngroups = ngroups;
    *too_big = 0;
    kids kd[HTA_MAX_LEVELS + 1];
    memset(kd, 0, sizeof kd);
    hta_status st = HTA_OK;
    for (int l = 2; l <= mv->N && st == HTA_OK && !pooled; l++)
        if (!build_kids(mv, l, &kd[l]))
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (int l = 2; l <= mv->N; l++)
        if (!direct(mv, l))
            mv->nunits[l] = pooled ? (l == mv->N ? 1 : in->ngrp[l]) :
                                     in->ngrp[l - 1];
    int64_t total = 0;
    if (st == HTA_OK &&
        !(mv->group_col = malloc(((size_t)ngroups + 1) *
                                 sizeof *mv->group_col)))
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (int32_t g = 0; st == HTA_OK && g < ngroups; g++) {
        mv->group_col[g] = total;
        total += walk_group(mv, kd, g, 0, NULL);
        if (total + (int64_t)mv->N * in->n + 1 > max_cols) {
            *too_big = 1;
            break;
        }
    }
    if (st == HTA_OK && !*too_big) {
        mv->group_col[ngroups] = total;
        mv->ncols = total;
        mv->col_group = malloc(((size_t)total + 1) * sizeof *mv->col_group);
        mv->col_target = malloc(((size_t)total + 1) * sizeof *mv->col_target);
        mv->col_level = malloc((size_t)total + 1);
        if (!mv->col_group || !mv->col_target || !mv->col_level)
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        for (int32_t g = 0; st == HTA_OK && g < ngroups; g++)
            walk_group(mv, kd, g, mv->group_col[g], record);
    }
    for (int l = 0; l <= HTA_MAX_LEVELS; l++) {
        free(kd[l].off);
        free(kd[l].kid);
    }
    return st;
}

/* Row numbers: groups, then loads, then one count row per capped level,
 * then the link rows of levels 3..N, unit by unit. */
typedef struct rows {
    int load, count[HTA_MAX_LEVELS + 1], link[HTA_MAX_LEVELS + 1], agg,
        tasks, total;
} rows;

static rows row_layout(const hta_ilplev *mv, const int64_t *R)
{
    rows r;
    memset(&r, 0, sizeof r);
    int next = mv->ngroups + 1;
    r.load = next;
    next += mv->inst->n;
    for (int l = 2; l <= mv->N; l++)
        if (R && R[l - 1] < mv->inst->m)
            r.count[l] = next++;
    for (int l = 2; l <= mv->N; l++)
        if (!direct(mv, l)) {
            r.link[l] = next;
            next += mv->nunits[l];
        }
    r.agg = next;
    next += (mv->pooled ? 1 : 2) * mv->inst->n;
    r.tasks = next;
    next += mv->inst->n;
    r.total = next - 1;
    return r;
}

/* y_{l,s}'s column: the tasks server s runs at level l. */
static int y_col(const hta_ilplev *mv, int l, int32_t s)
{
    return (int)(mv->ncols + (int64_t)(l - 1) * mv->inst->n + s + 1);
}

void hta_ilp_L_col(glp_prob *P, int col, double L_lo, double L_hi, int L_int)
{
    glp_set_col_kind(P, col, L_int ? GLP_IV : GLP_CV);
    if (isfinite(L_hi))
        glp_set_col_bnds(P, col, L_hi > L_lo ? GLP_DB : GLP_FX, L_lo, L_hi);
    else
        glp_set_col_bnds(P, col, GLP_LO, L_lo, 0.0);
    glp_set_obj_coef(P, col, 1.0);
}

void hta_ilp_int_col(glp_prob *P, int col, double U)
{
    if (U <= 0) {
        glp_set_col_kind(P, col, GLP_IV);
        glp_set_col_bnds(P, col, GLP_FX, 0.0, 0.0);
    } else if (U == 1) {
        glp_set_col_kind(P, col, GLP_BV);
    } else {
        glp_set_col_kind(P, col, GLP_IV);
        glp_set_col_bnds(P, col, GLP_DB, 0.0, U);
    }
}

glp_prob *hta_ilplev_build(hta_ilplev *mv, const double *c, const int64_t *R,
                           double L_lo, double L_hi, int L_int)
{
    const hta_instance *in = mv->inst;
    int N = mv->N;
    int32_t n = in->n;
    rows r = row_layout(mv, R);
    int64_t ny = (int64_t)N * n; /* y of levels 3..N, a of levels 1, 2 */
    int64_t nnz = 2 * mv->ncols + 4 * ny + n;
    if (!HTA_RESERVE(mv->ia, mv->cap_ia, (size_t)nnz + 1) ||
        !HTA_RESERVE(mv->ja, mv->cap_ja, (size_t)nnz + 1) ||
        !HTA_RESERVE(mv->ar, mv->cap_ar, (size_t)nnz + 1))
        return NULL;
    int *ia = mv->ia, *ja = mv->ja;
    double *ar = mv->ar;
    double cap[HTA_MAX_LEVELS + 1], per[HTA_MAX_LEVELS + 1];
    for (int l = 1; l <= N; l++) {
        cap[l] = l == 1 ? (double)in->m :
                          (double)(R[l - 1] < in->m ? R[l - 1] : in->m);
        per[l] = isfinite(L_hi) ? floor(L_hi / c[l - 1] + 1e-9) : INFINITY;
    }
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    int ncol = (int)(mv->ncols + ny + 1), col_L = ncol;
    glp_add_cols(P, ncol);
    glp_add_rows(P, r.total);
    for (int32_t g = 0; g < mv->ngroups; g++) {
        double size = mv->first[g + 1] - mv->first[g];
        glp_set_row_bnds(P, g + 1, GLP_FX, size, size);
    }
    for (int32_t s = 0; s < n; s++)
        glp_set_row_bnds(P, r.load + s, GLP_UP, 0.0, 0.0);
    for (int l = 2; l <= N; l++)
        if (r.count[l])
            glp_set_row_bnds(P, r.count[l], GLP_UP, 0.0, (double)R[l - 1]);
    for (int l = 2; l <= N; l++)
        for (int32_t u = 0; r.link[l] && u < mv->nunits[l]; u++)
            glp_set_row_bnds(P, r.link[l] + u, GLP_FX, 0.0, 0.0);
    for (int i = r.agg; i < r.tasks; i++)
        glp_set_row_bnds(P, i, GLP_FX, 0.0, 0.0);
    for (int32_t s = 0; s < n; s++) /* a server's tasks: per[1] at most */
        if (isfinite(per[1]))
            glp_set_row_bnds(P, r.tasks + s, GLP_UP, 0.0, per[1]);
        else
            glp_set_row_bnds(P, r.tasks + s, GLP_FR, 0.0, 0.0);
    int64_t k = 0;
    /* the flows: continuous (integral once the counts are, see above) */
    for (int64_t j = 0; j < mv->ncols; j++) {
        int col = (int)(j + 1), l = mv->col_level[j];
        int32_t g = mv->col_group[j], tg = mv->col_target[j];
        double size = mv->first[g + 1] - mv->first[g];
        double U = fmin(size, cap[l]);
        if (direct(mv, l))
            U = fmin(U, per[l]);
        glp_set_col_kind(P, col, GLP_CV);
        glp_set_col_bnds(P, col, U > 0 ? GLP_DB : GLP_FX, 0.0, fmax(U, 0));
        ++k, ia[k] = g + 1, ja[k] = col, ar[k] = 1.0;
        if (direct(mv, l))
            ++k, ia[k] = r.agg + (l - 1) * n + tg, ja[k] = col, ar[k] = 1.0;
        else
            ++k, ia[k] = r.link[l] + tg, ja[k] = col, ar[k] = -1.0;
    }
    /* the counts per server and level: the integers */
    for (int l = 1; l <= N; l++)
        for (int32_t s = 0; s < n; s++) {
            int col = y_col(mv, l, s);
            hta_ilp_int_col(P, col, fmin(cap[l], per[l]));
            ++k, ia[k] = r.load + s, ja[k] = col, ar[k] = c[l - 1];
            if (direct(mv, l))
                ++k, ia[k] = r.agg + (l - 1) * n + s, ja[k] = col,
                     ar[k] = -1.0;
            else
                ++k, ia[k] = r.link[l] + unit_of(mv, l, s), ja[k] = col,
                     ar[k] = 1.0;
            if (l >= 2 && r.count[l])
                ++k, ia[k] = r.count[l], ja[k] = col, ar[k] = 1.0;
            ++k, ia[k] = r.tasks + s, ja[k] = col, ar[k] = 1.0;
        }
    for (int32_t s = 0; s < n; s++)
        ++k, ia[k] = r.load + s, ja[k] = col_L, ar[k] = -1.0;
    hta_ilp_L_col(P, col_L, L_lo, L_hi, L_int);
    glp_load_matrix(P, (int)k, ia, ja, ar);
    return P;
}

void hta_ilplev_name(const hta_ilplev *mv, glp_prob *P, const int64_t *R,
                     const char *title)
{
    const hta_instance *in = mv->inst;
    char name[64];
    glp_set_prob_name(P, title);
    glp_set_obj_name(P, "makespan");
    rows r = row_layout(mv, R);
    for (int32_t g = 0; g < mv->ngroups; g++) {
        snprintf(name, sizeof name, "group_%ld", (long)g);
        glp_set_row_name(P, g + 1, name);
    }
    for (int32_t s = 0; s < in->n; s++) {
        snprintf(name, sizeof name, "load_%ld", (long)s);
        glp_set_row_name(P, r.load + s, name);
    }
    for (int l = 2; l <= mv->N; l++)
        if (r.count[l]) {
            snprintf(name, sizeof name, "count_level%d", l);
            glp_set_row_name(P, r.count[l], name);
        }
    for (int l = 2; l <= mv->N; l++)
        for (int32_t u = 0; r.link[l] && u < mv->nunits[l]; u++) {
            snprintf(name, sizeof name, "%s%d_%ld",
                     mv->pooled ? "pool" : "unit", l, (long)u);
            glp_set_row_name(P, r.link[l] + u, name);
        }
    for (int64_t j = 0; j < mv->ncols; j++) {
        int l = mv->col_level[j];
        if (l == 1)
            snprintf(name, sizeof name, "x_%ld_%ld", (long)mv->col_group[j],
                     (long)mv->col_target[j]);
        else
            snprintf(name, sizeof name, "z%d_%ld_%ld", l,
                     (long)mv->col_group[j], (long)mv->col_target[j]);
        glp_set_col_name(P, (int)(j + 1), name);
    }
    for (int l = 1; l <= mv->N; l++)
        for (int32_t s = 0; s < in->n; s++) {
            if (direct(mv, l)) {
                snprintf(name, sizeof name, "level%d_%ld", l, (long)s);
                glp_set_row_name(P, r.agg + (l - 1) * in->n + s, name);
            }
            snprintf(name, sizeof name, "y%d_%ld", l, (long)s);
            glp_set_col_name(P, y_col(mv, l, s), name);
        }
    for (int32_t s = 0; s < in->n; s++) {
        snprintf(name, sizeof name, "tasks_%ld", (long)s);
        glp_set_row_name(P, r.tasks + s, name);
    }
    glp_set_col_name(P, glp_get_num_cols(P), "L");
}

/* The first index of each unit level's units in one numbering (base[l]
 * for the levels that are not direct); returns how many units. */
static int64_t unit_bases(const hta_ilplev *mv, int64_t *base)
{
    int64_t nunit = 0;
    for (int l = 1; l <= mv->N; l++) {
        base[l] = nunit;
        if (!direct(mv, l))
            nunit += mv->nunits[l];
    }
    return nunit;
}

/* Integral flows for the counts of x (rounded), in mv->flow (1-based,
 * x's layout): the flow rows alone with the counts fixed form a bipartite
 * transportation problem (every flow column in one group row and one row
 * of a server's or unit's count), totally unimodular with integral right
 * sides, so a basic solution of it is integral.  x's own flows are
 * feasible there, so a basic one exists.  1 done, 0 not integral or
 * infeasible (never, save numerics), -1 out of memory. */
static int integral_flows(hta_ilplev *mv, const double *x)
{
    const hta_instance *in = mv->inst;
    int N = mv->N;
    int32_t n = in->n;
    int64_t nall = mv->ncols + (int64_t)N * n + 1;
    if (!HTA_RESERVE(mv->flow, mv->cap_flow, (size_t)nall + 1))
        return -1;
    memcpy(mv->flow, x, ((size_t)nall + 1) * sizeof *x);
    int whole = 1;
    for (int64_t j = 1; j <= mv->ncols && whole; j++)
        whole = fabs(x[j] - nearbyint(x[j])) <= 1e-6;
    if (whole)
        return 1;
    int64_t base[HTA_MAX_LEVELS + 1];
    int64_t nunit = unit_bases(mv, base);
    int ndirect = mv->pooled ? 1 : 2;
    int nrow = (int)(mv->ngroups + ndirect * (int64_t)n + nunit);
    int64_t nnz = 2 * mv->ncols;
    if (!HTA_RESERVE(mv->ia, mv->cap_ia, (size_t)nnz + 1) ||
        !HTA_RESERVE(mv->ja, mv->cap_ja, (size_t)nnz + 1) ||
        !HTA_RESERVE(mv->ar, mv->cap_ar, (size_t)nnz + 1))
        return -1;
    double *rhs = calloc((size_t)nrow + 1, sizeof *rhs);
    if (!rhs)
        return -1;
    int row_cnt = mv->ngroups + 1, row_unit = row_cnt + ndirect * n;
    for (int32_t g = 0; g < mv->ngroups; g++)
        rhs[g + 1] = mv->first[g + 1] - mv->first[g];
    for (int l = 1; l <= N; l++)
        for (int32_t s = 0; s < n; s++) {
            double v = nearbyint(x[y_col(mv, l, s)]);
            if (direct(mv, l))
                rhs[row_cnt + (l - 1) * n + s] = v;
            else
                rhs[row_unit + base[l] + unit_of(mv, l, s)] += v;
        }
    glp_prob *P = glp_create_prob();
    glp_add_rows(P, nrow);
    glp_add_cols(P, (int)mv->ncols);
    for (int i = 1; i <= nrow; i++)
        glp_set_row_bnds(P, i, GLP_FX, rhs[i], rhs[i]);
    free(rhs);
    int *ia = mv->ia, *ja = mv->ja;
    double *ar = mv->ar;
    int64_t k = 0;
    for (int64_t j = 0; j < mv->ncols; j++) {
        int l = mv->col_level[j];
        int32_t g = mv->col_group[j], tg = mv->col_target[j];
        glp_set_col_bnds(P, (int)(j + 1), GLP_DB, 0.0,
                         mv->first[g + 1] - mv->first[g]);
        ++k, ia[k] = g + 1, ja[k] = (int)(j + 1), ar[k] = 1.0;
        ++k, ia[k] = direct(mv, l) ? row_cnt + (l - 1) * n + tg :
                                     (int)(row_unit + base[l] + tg),
             ja[k] = (int)(j + 1), ar[k] = 1.0;
    }
    glp_load_matrix(P, (int)k, ia, ja, ar);
    glp_smcp smcp;
    glp_init_smcp(&smcp);
    smcp.msg_lev = GLP_MSG_OFF;
    glp_adv_basis(P, 0);
    int ok = glp_simplex(P, &smcp) == 0 && glp_get_status(P) == GLP_OPT;
    for (int64_t j = 0; ok && j < mv->ncols; j++) {
        double v = glp_get_col_prim(P, (int)(j + 1));
        ok = fabs(v - nearbyint(v)) <= 1e-6;
        mv->flow[j + 1] = nearbyint(v);
    }
    glp_delete_prob(P);
    return ok;
}

int hta_ilplev_read(hta_ilplev *mv, const double *xin, int32_t *a)
{
    int fl = integral_flows(mv, xin);
    if (fl <= 0)
        return fl;
    const double *x = mv->flow;
    const hta_instance *in = mv->inst;
    int N = mv->N;
    int64_t base[HTA_MAX_LEVELS + 1];
    int64_t nunit = unit_bases(mv, base);
    if (!HTA_RESERVE(mv->pool, mv->cap_pool, (size_t)in->m + 1) ||
        !HTA_RESERVE(mv->pool_off, mv->cap_off, (size_t)nunit + 2) ||
        !HTA_RESERVE(mv->pool_fill, mv->cap_fill, (size_t)nunit + 1))
        return -1;
    int32_t *off = mv->pool_off, *fill = mv->pool_fill;
    memset(off, 0, ((size_t)nunit + 2) * sizeof *off);
    for (int64_t j = 0; j < mv->ncols; j++) {
        int64_t cnt = llround(x[j + 1]);
        if (cnt < 0 || cnt > in->m)
            return 0;
        if (!direct(mv, mv->col_level[j]))
            off[base[mv->col_level[j]] + mv->col_target[j] + 1] +=
                (int32_t)cnt;
    }
    for (int64_t u = 0; u < nunit; u++) {
        off[u + 1] += off[u];
        fill[u] = off[u];
    }
    if (off[nunit] > in->m)
        return 0;
    int32_t g = -1, cur = 0;
    for (int64_t j = 0; j < mv->ncols; j++) {
        if (mv->col_group[j] != g) {
            if (g >= 0 && cur != mv->first[g + 1])
                return 0;
            g = mv->col_group[j];
            cur = mv->first[g];
        }
        int64_t cnt = llround(x[j + 1]);
        int l = mv->col_level[j];
        int32_t tg = mv->col_target[j];
        if (cnt > mv->first[g + 1] - cur)
            return 0;
        for (; cnt > 0; cnt--) {
            int32_t t = mv->order[cur++];
            if (direct(mv, l))
                a[t] = tg;
            else
                mv->pool[fill[base[l] + tg]++] = t;
        }
    }
    if (g >= 0 && cur != mv->first[g + 1])
        return 0;
    for (int64_t u = 0; u < nunit; u++)
        fill[u] = off[u];
    for (int l = 2; l <= N; l++)
        for (int32_t s = 0; s < in->n && !direct(mv, l); s++) {
            int64_t cnt = llround(x[y_col(mv, l, s)]);
            int64_t u = base[l] + unit_of(mv, l, s);
            if (cnt < 0 || cnt > off[u + 1] - fill[u])
                return 0;
            for (; cnt > 0; cnt--)
                a[mv->pool[fill[u]++]] = s;
        }
    for (int64_t u = 0; u < nunit; u++)
        if (fill[u] != off[u + 1])
            return 0;
    return 1;
}

void hta_ilplev_free(hta_ilplev *mv)
{
    if (!mv)
        return;
    free(mv->col_group);
    free(mv->col_target);
    free(mv->col_level);
    free(mv->group_col);
    free(mv->ia);
    free(mv->ja);
    free(mv->ar);
    free(mv->pool);
    free(mv->pool_off);
    free(mv->pool_fill);
    free(mv->flow);
    memset(mv, 0, sizeof *mv);
}
