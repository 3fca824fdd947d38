/* The HTA integer program through GLPK.
 *
 * Compact model for one remote cost c (a "piece"):
 *   x_{g,s} in [0, |g|] integer: tasks of group g run locally on s, for
 *       each server s holding the blocks of g (a group is a set of tasks
 *       with the same replica set: aggregating them removes their symmetry);
 *   y_s >= 0 integer: tasks charged as remote on server s;
 *   sum_s x_{g,s} <= |g|;  sum x + sum y = m;  sum y <= R;
 *   w_loc * sum_g x_{g,s} + c * y_s <= L for every server s;  minimise L.
 * Remote tasks are interchangeable: y only counts them.  A solution maps
 * to an assignment by running the x tasks locally and spreading the others
 * by y; a task that lands on a server holding its block is in fact local
 * and costs w_loc <= c, so the real makespan is at most L.  Conversely an
 * assignment with r <= R remote tasks gives a solution of value equal to
 * its makespan when w_rem(r) = c.  Hence with one model per distinct value
 * c_k of w_rem, R_k the largest r <= m with w_rem(r) = c_k:
 *   - an optimal assignment O, with w_rem(r^O) = c_k and r^O <= R_k, is
 *     feasible in model k with value L^O, so min_k opt_k <= L^O;
 *   - a solution of model k with r <= R_k remote tasks costs w_rem(r) <=
 *     c_k per remote task (w_rem is non-decreasing), so its real makespan
 *     is <= its value: min_k opt_k >= L^O.
 * A model is skipped when its lower bound (bounds.h, the flow bound with
 * cost c_k and at most R_k remote tasks) reaches the incumbent.
 *
 * With an upper bound L_hi on L, y_s <= floor(L_hi/c), and when c + w_loc
 * > L_hi a server with a remote task can run nothing else, which the rows
 * x_{g,s} + U*y_s <= U (U = min(|g|, floor(L_hi/w_loc))) state directly:
 * valid for every solution with L <= L_hi, and much tighter in the LP
 * relaxation than the load rows alone (decisive on 3SAT reductions).
 *
 * Help for GLPK: costs scaled to integers when they are small fractions,
 * L integral then and bounded by incumbent - 1 (a cutoff: an infeasible
 * model proves the incumbent optimal for that piece); otherwise L <=
 * incumbent and the incumbent offered as a heuristic solution.  Presolve
 * is off so that the callback sees the original columns, which needs an
 * optimal LP basis first (glp_simplex from glp_cpx_basis).
 */
#include "hta/ilp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glpk.h>

#include "hta/assign.h"
#include "hta/levels.h"
#include "hta/maxcover.h"
#include "hta/num.h"
#include "hta/version.h"
#include "core/buf.h"
#include "core/cbcx.h"
#include "core/glpkx.h"
#include "offline/bounds.h"

#include "ilplev.h"

typedef struct piece {
    double c;  /* remote cost of the piece */
    int64_t R; /* at most R remote tasks */
    /* N > 2 levels: level l's cost cl[l - 1] and cap Rl[l - 1] (l = 2..N;
     * cl[0] = w_loc; c and R are level N's) */
    double cl[HTA_MAX_LEVELS];
    int64_t Rl[HTA_MAX_LEVELS];
    double lb; /* lower bound on the piece's optimum */
    double proved; /* proven lower bound on the piece's optimum */
} piece;

typedef struct solver {
    const hta_instance *inst;
    const hta_ilp_opts *opts;
    hta_ilp_result *res;
    int32_t *best;          /* best assignment (caller's) */
    double best_span;       /* its makespan, INFINITY if none */
    double deadline;        /* monotonic seconds */
    double started;
    /* groups of identical tasks */
    int32_t ngroups;
    int32_t *group_of;      /* per task */
    int32_t *group_rep;     /* per group: a task holding the replica set */
    int32_t *group_size;
    int32_t *order;         /* tasks sorted by group */
    int32_t *group_first;   /* per group: start in order */
    /* the current model */
    const piece *pc;
    double scale;           /* costs times scale are integers, 0: not */
    int cutoff;             /* L' <= incumbent' - 1 */
    int32_t *a;             /* work assignment */
    /* Scratch arrays of the functions that run inside hta_glpk_guard:
     * owned here and freed by hta_ilp_solve, so that an abort out of
     * GLPK (a longjmp) leaks nothing (glpkx.h). */
    int *ia, *ja;
    double *ar;
    unsigned char *loc;
    int64_t *nloc, *nrem;
    int32_t *first_col, *pool;
    size_t cap_ia, cap_ja, cap_ar, cap_loc, cap_nloc, cap_nrem, cap_first,
        cap_pool;
    double *heur;           /* heuristic solution, 1-based */
    int heur_ok;
    double tree_bound;      /* best node bound seen (scaled) */
    int have_tree_bound;
    int ncols;
    double *vals;           /* a MIP solution read out, 1-based */
    size_t cap_vals;
    /* N > 2 levels: the model of ilplev.h */
    int levels;
    hta_ilplev lev;
    /* CBC side by side (HTA_ILP_ENGINE_BOTH) or alone */
    hta_cbc_job *job;       /* the running child, finished by the caller
                               of the guard too (an abort out of GLPK) */
    double next_poll;       /* monotonic seconds */
} solver;

/* ---- groups of identical tasks --------------------------------------- */

static hta_status build_groups(solver *sv, hta_diag *d)
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

static int cmp_piece(const void *x, const void *y)
{
    const piece *a = x, *b = y;
    if (a->lb != b->lb)
        return a->lb < b->lb ? -1 : 1;
    return (a->R > b->R) - (a->R < b->R);
}

/* One piece per distinct value of w over r = 0..m (w_rem, or a level's
 * cost). */
static hta_status build_pieces(const hta_wrem *w, int64_t m, piece **out,
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
#define LEVEL_PIECES_MAX 512
#define LEVEL_COLS_MAX 4000000

static hta_status build_level_pieces(const hta_instance *in, piece **out,
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
        st = build_pieces(hta_level_wrem(in, l), in->m, &lv[l - 1],
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
static double piece_scale(const solver *sv, const piece *pc)
{
    if (sv->levels)
        return integral_scale(pc->cl, hta_levels(sv->inst));
    double c[2] = {sv->inst->w_loc, pc->c};
    return integral_scale(c, 2);
}

/* ---- the model ---------------------------------------------------------- */

/* Columns: x_{g,s} for each group and each of its servers, then y_s, then
 * L.  Returns the number of columns, or 0 on out of memory. */
/* L's column: bounds, kind and objective (both models). */
static void set_L(glp_prob *P, int col_L, double L_lo, double L_hi, int L_int)
{
    glp_set_col_kind(P, col_L, L_int ? GLP_IV : GLP_CV);
    if (isfinite(L_hi))
        glp_set_col_bnds(P, col_L, L_hi > L_lo ? GLP_DB : GLP_FX, L_lo, L_hi);
    else
        glp_set_col_bnds(P, col_L, GLP_LO, L_lo, 0.0);
    glp_set_obj_coef(P, col_L, 1.0);
}

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
            if (U <= 0) {
                glp_set_col_kind(P, col, GLP_IV);
                glp_set_col_bnds(P, col, GLP_FX, 0.0, 0.0);
            } else if (U == 1) {
                glp_set_col_kind(P, col, GLP_BV);
            } else {
                glp_set_col_kind(P, col, GLP_IV);
                glp_set_col_bnds(P, col, GLP_DB, 0.0, U);
            }
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
    set_L(P, col_L, L_lo, L_hi, L_int);
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
    set_L(P, col_L, L_lo, L_hi, L_int);
    glp_load_matrix(P, (int)k, ia, ja, ar);
    sv->ncols = (int)(pairs + 1);
    return P;
}

/* The incumbent as a solution of the compact model, 1-based. */
static int incumbent_solution(solver *sv, double wl, double c)
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

static void callback(glp_tree *T, void *info)
{
    solver *sv = info;
    int reason = glp_ios_reason(T);
    if (reason == GLP_IHEUR && sv->heur_ok) {
        glp_ios_heur_sol(T, sv->heur);
        sv->heur_ok = 0; /* once is enough */
    }
    int best = glp_ios_best_node(T);
    if (best) {
        double b = glp_ios_node_bound(T, best);
        if (!sv->have_tree_bound || b > sv->tree_bound)
            sv->tree_bound = b;
        sv->have_tree_bound = 1;
    }
    int a_cnt, n_cnt, t_cnt;
    glp_ios_tree_size(T, &a_cnt, &n_cnt, &t_cnt);
    if (t_cnt > sv->res->nodes)
        sv->res->nodes = t_cnt;
    double now = hta_clock_now();
    if (sv->job && now >= sv->next_poll) {
        /* CBC's proof ends GLPK's search; its failure does not. */
        sv->next_poll = now + 0.01;
        hta_cbc_answer ans;
        hta_cbc_wait(sv->job, 0, NULL, &ans); /* a look, no wait */
        if (ans.status == HTA_CBC_OPTIMAL || ans.status == HTA_CBC_INFEASIBLE)
            glp_ios_terminate(T);
    }
    if (sv->opts->progress) {
        double D = sv->scale ? sv->scale : 1.0;
        hta_progress p = {"ilp", now - sv->started, sv->best_span,
                          sv->have_tree_bound ?
                              fmax(sv->pc->lb, sv->tree_bound / D) :
                              sv->pc->lb,
                          sv->res->nodes};
        sv->opts->progress(sv->opts->progress_ctx, &p);
    }
    if ((sv->opts->stop && *sv->opts->stop) || now > sv->deadline)
        glp_ios_terminate(T);
}

/* Reads a MIP solution (x: 1-based column values, from GLPK or CBC) into
 * sv->a.  0 when it does not add up, -1 out of memory. */
static int read_solution(solver *sv, const double *x)
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
static glp_prob *build_model(solver *sv, double L_lo, double L_hi, int L_int)
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

/* Writes the model of the current piece, with L free (no incumbent
 * cutoff, no bound), in CPLEX LP format to opts->write_lp; runs inside
 * hta_glpk_guard. */
static hta_status write_model(void *ctx, hta_diag *d)
{
    solver *sv = ctx;
    glp_prob *P = build_model(sv, 0.0, INFINITY, sv->scale != 0);
    if (!P)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    if (sv->levels)
        name_levels(sv, P);
    else if (sv->opts->model == HTA_ILP_COMPACT)
        name_compact(sv, P);
    hta_status st = HTA_OK;
    if (glp_write_lp(P, NULL, sv->opts->write_lp) != 0)
        st = hta_diag_set(d, HTA_ERR_IO, sv->opts->write_lp, 0,
                          "GLPK could not write the LP file");
    else
        sv->res->lp_written = 1;
    glp_delete_prob(P);
    return st;
}

/* How one piece's search ended. */
typedef enum outcome {
    PIECE_SEARCH,        /* the LP leaves a branch and bound to run */
    PIECE_DONE,          /* pc->proved is final */
    PIECE_STOPPED,       /* out of time before any bound: pc->lb */
    PIECE_STOPPED_BOUND, /* out of time, pc->proved set */
    PIECE_ERROR
} outcome;

/* The scaled costs and the range [L_lo, L_hi] of L for the current piece:
 * from the piece's bound, and below the incumbent (strictly, by one unit,
 * when costs are integral: a cutoff). */
static void piece_range(solver *sv, double *wl, double *c, double *L_lo,
                        double *L_hi)
{
    const hta_instance *in = sv->inst;
    const piece *pc = sv->pc;
    double D = sv->scale;
    *wl = D ? nearbyint(in->w_loc * D) : in->w_loc;
    *c = D ? nearbyint(pc->c * D) : pc->c;
    *L_lo = sv->opts->plain ? 0.0 : pc->lb * (D ? D : 1.0);
    *L_hi = INFINITY;
    sv->cutoff = 0;
    if (!sv->opts->plain && isfinite(sv->best_span)) {
        if (D) {
            *L_hi = nearbyint(sv->best_span * D) - 1; /* strictly better */
            sv->cutoff = 1;
        } else {
            *L_hi = sv->best_span;
        }
    }
    if (D)
        *L_lo = ceil(*L_lo - 1e-9 * fmax(1.0, *L_lo));
}

/* The LP relaxation: its optimum bounds the piece (*lp_bound), or it is
 * infeasible below the cutoff. */
static outcome run_lp(solver *sv, glp_prob *P, double *lp_bound, hta_diag *d)
{
    piece *pc = (piece *)sv->pc;
    double left = sv->deadline - hta_clock_now();
    if (left <= 0)
        return PIECE_STOPPED;
    glp_smcp smcp;
    glp_init_smcp(&smcp);
    smcp.msg_lev = sv->opts->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
    smcp.tm_lim = (int)fmin(left * 1000.0, 2e9);
    glp_cpx_basis(P);
    int ret = glp_simplex(P, &smcp);
    if (ret == GLP_ETMLIM)
        return PIECE_STOPPED;
    if (ret != 0) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                     "GLPK simplex failed (code %d)", ret);
        return PIECE_ERROR;
    }
    int lp_status = glp_get_status(P);
    if (lp_status == GLP_NOFEAS) {
        /* No solution below the cutoff in this piece. */
        pc->proved = sv->cutoff ? sv->best_span : fmax(pc->lb, sv->best_span);
        return PIECE_DONE;
    }
    if (lp_status != GLP_OPT) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                     "GLPK: the LP relaxation has status %d", lp_status);
        return PIECE_ERROR;
    }
    *lp_bound = glp_get_obj_val(P) / (sv->scale ? sv->scale : 1.0);
    if (sv->deadline - hta_clock_now() <= 0) {
        pc->proved = fmax(pc->lb, *lp_bound);
        return PIECE_STOPPED_BOUND;
    }
    return PIECE_SEARCH;
}

/* Keeps a MIP solution (x, 1-based) when it beats the best (evaluated
 * first). */
static outcome keep_values(solver *sv, const double *x, hta_diag *d)
{
    const hta_instance *in = sv->inst;
    int ok = read_solution(sv, x);
    if (ok <= 0) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "%s",
                     ok < 0 ? "out of memory" :
                              "the MIP solution does not add up to an "
                              "assignment");
        return PIECE_ERROR;
    }
    hta_eval ev;
    if (hta_eval_run(in, sv->a, &ev, d) != HTA_OK)
        return PIECE_ERROR;
    if (ev.makespan < sv->best_span) {
        sv->res->improved = isfinite(sv->best_span);
        sv->best_span = ev.makespan;
        memcpy(sv->best, sv->a, (size_t)in->m * sizeof *sv->a);
    }
    hta_eval_free(&ev);
    return PIECE_DONE;
}

/* A proven bound b on the piece, rounded up to the grid of the scaled
 * costs when they are integers (L is then a multiple of 1/scale). */
static double round_up_bound(const solver *sv, double b)
{
    double D = sv->scale;
    return D ? ceil(b * D - 1e-9 * fmax(1.0, b * D)) / D : b;
}

/* Branch and bound, within the time left. */
static outcome run_mip(solver *sv, glp_prob *P, double lp_bound, hta_diag *d)
{
    piece *pc = (piece *)sv->pc;
    double D = sv->scale, unit = D ? D : 1.0;
    glp_iocp iocp;
    glp_init_iocp(&iocp);
    iocp.msg_lev = sv->opts->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
    iocp.out_frq = 2000;
    iocp.tm_lim = (int)fmin((sv->deadline - hta_clock_now()) * 1000.0, 2e9);
    iocp.presolve = GLP_OFF;
    iocp.mip_gap = 0.0;
    iocp.cb_func = callback;
    iocp.cb_info = sv;
    if (!sv->opts->plain) {
        iocp.mir_cuts = GLP_ON;
        iocp.gmi_cuts = GLP_ON;
        iocp.fp_heur = GLP_ON;
    }
    sv->res->solved++;
    int ret = glp_intopt(P, &iocp);
    int mip = glp_mip_status(P);
    if (ret == GLP_ENOPFS) {
        pc->proved = sv->best_span;
        return PIECE_DONE;
    }
    if (ret != 0 && ret != GLP_ETMLIM && ret != GLP_ESTOP) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                     "GLPK branch-and-bound failed (code %d)", ret);
        return PIECE_ERROR;
    }
    if (mip == GLP_OPT || mip == GLP_FEAS) {
        int nc = glp_get_num_cols(P);
        if (!HTA_RESERVE(sv->vals, sv->cap_vals, (size_t)nc + 1)) {
            hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            return PIECE_ERROR;
        }
        for (int j = 1; j <= nc; j++)
            sv->vals[j] = glp_mip_col_val(P, j);
        if (keep_values(sv, sv->vals, d) == PIECE_ERROR)
            return PIECE_ERROR;
    }
    if (ret == 0) {
        /* Solved: optimum, or nothing below the cutoff. */
        pc->proved = mip == GLP_OPT ? glp_mip_obj_val(P) / unit : sv->best_span;
        if (mip == GLP_OPT && sv->best_span < pc->proved)
            pc->proved = sv->best_span;
        return PIECE_DONE;
    }
    double b = sv->have_tree_bound ? sv->tree_bound / unit : lp_bound;
    pc->proved = fmax(pc->lb, fmax(round_up_bound(sv, b), lp_bound));
    return PIECE_STOPPED_BOUND;
}

/* CBC's answer for the piece: a proof ends it (PIECE_DONE, the solution
 * evaluated first); anything else leaves out as it was. */
static outcome take_cbc(solver *sv, const hta_cbc_answer *ans, outcome out,
                        hta_diag *d)
{
    piece *pc = (piece *)sv->pc;
    double unit = sv->scale ? sv->scale : 1.0;
    if (ans->status == HTA_CBC_OPTIMAL) {
        if (keep_values(sv, ans->x, d) == PIECE_ERROR)
            return PIECE_ERROR;
        pc->proved = fmin(ans->obj / unit, sv->best_span);
    } else if (ans->status == HTA_CBC_INFEASIBLE) {
        pc->proved = sv->best_span; /* nothing at or below L's bound */
    } else {
        if (ans->status == HTA_CBC_FAILED)
            snprintf(sv->res->cbc_failed, sizeof sv->res->cbc_failed, "%s",
                     ans->why);
        return out;
    }
    sv->res->cbc_nodes += ans->nodes;
    sv->res->proved_by |= 2;
    return PIECE_DONE;
}

/* Waits for CBC until the deadline or the stop flag, with progress. */
static void wait_cbc(solver *sv, hta_cbc_answer *ans)
{
    for (;;) {
        double now = hta_clock_now();
        hta_cbc_wait(sv->job, fmin(sv->deadline, now + 0.5), sv->opts->stop,
                     ans);
        now = hta_clock_now();
        if (ans->status != HTA_CBC_RUNNING || now >= sv->deadline ||
            (sv->opts->stop && *sv->opts->stop))
            return;
        if (sv->opts->progress) {
            hta_progress p = {"ilp", now - sv->started, sv->best_span,
                              sv->pc->lb, sv->res->nodes};
            sv->opts->progress(sv->opts->progress_ctx, &p);
        }
    }
}

/* The search for one piece after its LP: GLPK, CBC, or both side by
 * side (CBC in a child process, GLPK here; the first proof wins). */
static outcome search_piece(solver *sv, glp_prob *P, double lp_bound,
                            hta_diag *d)
{
    hta_ilp_engine e = sv->opts->engine;
    outcome out = PIECE_STOPPED_BOUND;
    piece *pc = (piece *)sv->pc;
    if (e != HTA_ILP_ENGINE_GLPK) {
        sv->next_poll = 0;
        if (hta_cbc_start(P, sv->heur_ok ? sv->heur : NULL, &sv->job, d) !=
            HTA_OK)
            return PIECE_ERROR;
    }
    if (e != HTA_ILP_ENGINE_CBC) {
        out = run_mip(sv, P, lp_bound, d);
        if (out == PIECE_DONE)
            sv->res->proved_by |= 1;
    } else {
        sv->res->solved++;
        pc->proved = fmax(pc->lb, round_up_bound(sv, lp_bound));
    }
    if (sv->job && out != PIECE_DONE && out != PIECE_ERROR) {
        hta_cbc_answer ans;
        wait_cbc(sv, &ans);
        out = take_cbc(sv, &ans, out, d);
    }
    hta_cbc_finish(sv->job);
    sv->job = NULL;
    return out;
}

/* One piece through GLPK; runs inside hta_glpk_guard. */
static hta_status solve_piece(void *ctx, hta_diag *d)
{
    solver *sv = ctx;
    piece *pc = (piece *)sv->pc;
    double wl, c, L_lo, L_hi;
    piece_range(sv, &wl, &c, &L_lo, &L_hi);
    if (L_lo > L_hi) {
        pc->proved = sv->best_span;
        return HTA_OK;
    }
    glp_prob *P = build_model(sv, L_lo, L_hi, sv->scale != 0);
    if (!P)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    sv->heur_ok = 0;
    sv->have_tree_bound = 0;
    if (!sv->opts->plain && !sv->cutoff && isfinite(sv->best_span) &&
        sv->opts->model == HTA_ILP_COMPACT && !sv->levels) {
        free(sv->heur);
        sv->heur = malloc(((size_t)sv->ncols + 1) * sizeof *sv->heur);
        sv->heur_ok = sv->heur && incumbent_solution(sv, wl, c);
    }
    double lp_bound = 0;
    outcome out = run_lp(sv, P, &lp_bound, d);
    if (out == PIECE_DONE)
        sv->res->proved_by |= 1;
    if (out == PIECE_SEARCH)
        out = search_piece(sv, P, lp_bound, d);
    if (out == PIECE_STOPPED)
        pc->proved = pc->lb;
    if (out == PIECE_STOPPED || out == PIECE_STOPPED_BOUND)
        sv->res->status = HTA_ILP_FEASIBLE; /* marked as unfinished */
    glp_delete_prob(P);
    return out == PIECE_ERROR ? HTA_ERR_INTERNAL : HTA_OK;
}

hta_status hta_ilp_solve(const hta_instance *inst, const hta_ilp_opts *opts,
                         int32_t *best, hta_ilp_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    res->makespan = INFINITY;
    res->bound = opts->lower_bound;
    if (opts->engine < HTA_ILP_ENGINE_GLPK ||
        opts->engine > HTA_ILP_ENGINE_BOTH)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "ilp: unknown engine %d", (int)opts->engine);
    if (opts->engine != HTA_ILP_ENGINE_GLPK && !hta_cbc_available())
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "ilp: this hta was built without CBC (build it "
                            "with make CBC=yes)");
    if (inst->m > opts->max_tasks) {
        res->status = HTA_ILP_SKIPPED;
        snprintf(res->detail, sizeof res->detail,
                 "skipped (too large): %ld tasks > --ilp-max-tasks %lld",
                 (long)inst->m, (long long)opts->max_tasks);
        return HTA_OK;
    }
    if (opts->model == HTA_ILP_NAIVE && hta_levels(inst) > 2) {
        res->status = HTA_ILP_SKIPPED;
        snprintf(res->detail, sizeof res->detail,
                 "skipped: the naive model has two levels");
        return HTA_OK;
    }
    if (opts->model == HTA_ILP_NAIVE &&
        (double)inst->m * (double)inst->n > 2e8) {
        res->status = HTA_ILP_SKIPPED;
        snprintf(res->detail, sizeof res->detail,
                 "skipped (too large for the naive model)");
        return HTA_OK;
    }
    solver sv;
    memset(&sv, 0, sizeof sv);
    sv.inst = inst;
    sv.opts = opts;
    sv.res = res;
    sv.best = best;
    sv.best_span = INFINITY;
    sv.levels = hta_levels(inst) > 2;
    sv.started = hta_clock_now();
    sv.deadline = sv.started + opts->time_limit;
    piece *pieces = NULL;
    int np = 0;
    int64_t *f = NULL, K = 0;
    hta_status st = HTA_OK;
    int certified = 0;
    if (opts->incumbent && !opts->plain) {
        hta_eval ev;
        if ((st = hta_eval_run(inst, opts->incumbent, &ev, d)) != HTA_OK)
            goto cleanup;
        sv.best_span = ev.makespan;
        hta_eval_free(&ev);
        memcpy(best, opts->incumbent, (size_t)inst->m * sizeof *best);
        /* Certificate: nothing to search when the incumbent meets the
         * bound. */
        if (sv.best_span - opts->lower_bound <=
            1e-9 * fmax(1.0, sv.best_span)) {
            res->status = HTA_ILP_OPTIMAL;
            res->makespan = sv.best_span;
            res->bound = sv.best_span;
            snprintf(res->detail, sizeof res->detail,
                     "certificate: the incumbent meets the lower bound, "
                     "GLPK not run");
            certified = 1;
        }
    }
    if (certified && !opts->write_lp)
        goto cleanup;
    sv.a = malloc((size_t)inst->m * sizeof *sv.a);
    if (!sv.a) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    if ((st = build_groups(&sv, d)) != HTA_OK)
        goto cleanup;
    if (sv.levels) {
        int too_big = 0;
        if ((st = hta_ilplev_init(&sv.lev, inst, sv.order, sv.group_first,
                                  sv.ngroups, LEVEL_COLS_MAX, &too_big,
                                  d)) != HTA_OK ||
            (!too_big &&
             (st = build_level_pieces(inst, &pieces, &np, d)) != HTA_OK))
            goto cleanup;
        if (too_big || np < 0) {
            /* nothing searched: the incumbent stays, with the bound */
            res->status = HTA_ILP_SKIPPED;
            snprintf(res->detail, sizeof res->detail,
                     too_big ? "skipped (too large): the %d-level model "
                               "passes %g columns" :
                               "skipped: the %d levels' costs have more "
                               "than %g combinations of values",
                     hta_levels(inst),
                     too_big ? (double)LEVEL_COLS_MAX :
                               (double)LEVEL_PIECES_MAX);
            goto cleanup;
        }
    } else if ((st = build_pieces(&inst->wrem, inst->m, &pieces, &np, d)) !=
                   HTA_OK ||
               (st = hta_maxcover_sweep(inst, NULL, NULL, &f, &K, d)) !=
                   HTA_OK) {
        goto cleanup;
    }
    res->pieces = np;
    for (int i = 0; i < np; i++) {
        pieces[i].lb = fmax(opts->plain ? 0.0 : opts->lower_bound,
                            sv.levels ? pieces[i].lb :
                                        hta_bound_flow_piece(inst, f, K,
                                                             pieces[i].c,
                                                             pieces[i].R));
        pieces[i].proved = pieces[i].lb;
    }
    qsort(pieces, (size_t)np, sizeof *pieces, cmp_piece);
    if (opts->write_lp) {
        sv.pc = &pieces[0];
        sv.scale = piece_scale(&sv, &pieces[0]);
        if ((st = hta_glpk_guard(write_model, &sv, opts->verbose, d)) !=
            HTA_OK)
            goto cleanup;
    }
    if (certified)
        goto cleanup;
    int unfinished = 0;
    for (int i = 0; i < np; i++) {
        piece *pc = &pieces[i];
        if (!opts->plain && pc->lb >= sv.best_span)
            break; /* this and every later piece cannot improve */
        if ((opts->stop && *opts->stop) || hta_clock_now() >= sv.deadline) {
            unfinished = 1;
            break;
        }
        sv.pc = pc;
        sv.scale = piece_scale(&sv, pc);
        res->status = HTA_ILP_OPTIMAL;
        st = hta_glpk_guard(solve_piece, &sv, opts->verbose, d);
        hta_cbc_finish(sv.job); /* left running by an abort out of GLPK */
        sv.job = NULL;
        if (st != HTA_OK)
            goto cleanup;
        if (res->status == HTA_ILP_FEASIBLE)
            unfinished = 1;
    }
    /* L^O = min over pieces of their optima >= min of proven bounds. */
    double bound = INFINITY;
    for (int i = 0; i < np; i++)
        bound = fmin(bound, pieces[i].proved);
    bound = fmin(bound, sv.best_span);
    res->bound = fmax(opts->plain ? 0.0 : opts->lower_bound, bound);
    res->makespan = sv.best_span;
    if (!isfinite(sv.best_span))
        res->status = HTA_ILP_TIME_LIMIT;
    else if (sv.best_span - res->bound <= 1e-9 * fmax(1.0, sv.best_span))
        res->status = HTA_ILP_OPTIMAL;
    else
        res->status = HTA_ILP_FEASIBLE;
    static const char *const by[] = {"", " by GLPK", " by CBC",
                                     " by GLPK and CBC"};
    char cbc[48] = "";
    if (opts->engine != HTA_ILP_ENGINE_GLPK)
        snprintf(cbc, sizeof cbc, " (GLPK), %lld (CBC)",
                 (long long)res->cbc_nodes);
    /* CBC's failure, when it is why the search stopped short */
    int failed = unfinished && res->cbc_failed[0] &&
                 hta_clock_now() < sv.deadline &&
                 !(opts->stop && *opts->stop);
    snprintf(res->detail, sizeof res->detail,
             "%s%d of %d %s pieces solved%s, %lld nodes%s%s",
             res->improved ? "improved on the incumbent; " : "",
             res->solved, np, sv.levels ? "cost" : "w_rem",
             opts->engine == HTA_ILP_ENGINE_GLPK ? "" : by[res->proved_by & 3],
             (long long)res->nodes, cbc,
             unfinished && !failed ? ", stopped by the time limit" : "");
    size_t len = strlen(res->detail);
    if (failed && len + 2 < sizeof res->detail)
        snprintf(res->detail + len, sizeof res->detail - len, "; %s",
                 res->cbc_failed);
cleanup:
    hta_ilplev_free(&sv.lev);
    free(sv.a);
    free(sv.heur);
    free(sv.vals);
    free(sv.ia);
    free(sv.ja);
    free(sv.ar);
    free(sv.loc);
    free(sv.nloc);
    free(sv.nrem);
    free(sv.first_col);
    free(sv.pool);
    free(sv.group_of);
    free(sv.group_rep);
    free(sv.group_size);
    free(sv.order);
    free(sv.group_first);
    free(pieces);
    free(f);
    return st;
}
