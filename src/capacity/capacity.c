/* Capacity region: aggregated LP (N levels), plain LP (checks), for two
 * levels Newton's method on max flows, and for N levels Newton's method
 * on generalized max flows (gflow.c, its argument in gflow.h).
 *
 * Aggregation (exact).  Levels n >= 2 are a laminar family of groups
 * (racks inside pods inside the cluster).  Per type L the LP keeps one
 * variable per local server, and one pooled variable p_{L,n,g} per group
 * g of level n containing a local server of L: work served at rate
 * alpha_n by some server of g.  Rows: for every group G of every level
 * (servers are the level-1 groups),
 *   sum of local work on G's servers / alpha_1
 *     + sum of pooled work of groups inside G / alpha_n  <=  |G| * rho.
 * (a) A solution of the per-server LP aggregates into one of this LP with
 *     the same rho: work of L on a server m of level n(L,m) >= 2 goes to
 *     the pooled variable of m's level-n(L,m) group, and each group row is
 *     the sum of its servers' rows.
 * (b) Conversely, pooled work can be spread over servers: a pooled demand
 *     may use any server of its group, and for laminar groups Hall's
 *     condition reduces to one inequality per group (the neighbourhood of
 *     any set of demands is a disjoint union of groups), which are the
 *     rows.  Greedily filling groups bottom-up realises it
 *     (spread_pooled).  Work pooled at level n landing on a server that
 *     is closer to L runs at a rate >= alpha_n, so utilisations only
 *     drop.
 * Two levels reduce further: one pooled variable per type and one row for
 * the cluster, and the problem for a fixed rho is a flow: with F(c) the
 * largest local work when each server takes at most c, rho is feasible
 * iff  Phi(rho) = (1 - gamma/alpha) F(alpha rho) + gamma M rho - sum
 * lambda >= 0  (local work L_loc <= F(alpha rho) costs L_loc/alpha, the
 * rest (sum lambda - L_loc)/gamma must fit in M rho - L_loc/alpha; the
 * left side grows with L_loc).  F is concave and piecewise linear; a
 * minimum cut gives a supergradient ((alpha - gamma) k + gamma M with k
 * servers saturated), so Newton's method started left of the root climbs
 * monotonically to it in finitely many steps.
 */
#include "hta/capacity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>

#include "hta/num.h"
#include "hta/topology.h"
#include "capacity/gflow.h"
#include "core/buf.h"
#include "core/glpkx.h"
#include "touch.h"

void hta_capacity_result_free(hta_capacity_result *res)
{
    if (!res)
        return;
    free(res->bottle);
    free(res->dec_type);
    free(res->dec_server);
    free(res->dec_rate);
    free(res->dec_level);
    memset(res, 0, sizeof *res);
}

const char *const hta_capacity_method_names[5] = {"auto", "lp", "flow",
                                                  "plain", "gflow"};
const char *const hta_capacity_status_names[3] = {"inside", "boundary",
                                                  "outside"};

static int64_t cluster_group(const void *ctx, int32_t x, int n)
{
    return hta_cluster_group(ctx, x, n);
}

int hta_capacity_level(const hta_cluster *c, int64_t L, int32_t s)
{
    if (L < 0 || L >= c->T || s < 0 || s >= c->M)
        return -1;
    return hta_level_rule(c->srv + c->off[L], c->off[L + 1] - c->off[L], s,
                          c->levels, cluster_group, c);
}

static double total_lambda(const hta_cluster *c)
{
    double s = 0;
    for (int64_t L = 0; L < c->T; L++)
        s += c->lambda[L];
    return s;
}

/* ---- decomposition ---------------------------------------------------- */

/* The decomposition's arrays grow together: one capacity for the four. */
typedef struct dec_caps {
    size_t type, server, rate, level;
} dec_caps;

static int add_dec(hta_capacity_result *res, dec_caps *cap, int64_t L,
                   int32_t s, double rate, int level)
{
    if (rate <= 0)
        return 1;
    size_t need = (size_t)res->ndec + 1;
    if (!HTA_RESERVE(res->dec_type, cap->type, need) ||
        !HTA_RESERVE(res->dec_server, cap->server, need) ||
        !HTA_RESERVE(res->dec_rate, cap->rate, need) ||
        !HTA_RESERVE(res->dec_level, cap->level, need))
        return 0;
    res->dec_type[res->ndec] = L;
    res->dec_server[res->ndec] = s;
    res->dec_rate[res->ndec] = rate;
    res->dec_level[res->ndec] = (int8_t)level;
    res->ndec++;
    return 1;
}

/* A pooled demand: work of type L at level n in group g. */
typedef struct pooled {
    int64_t L, g;
    int n;
    double work;
} pooled;

static int cmp_pooled(const void *x, const void *y)
{
    const pooled *a = x, *b = y;
    if (a->n != b->n)
        return a->n - b->n;
    return (a->g > b->g) - (a->g < b->g);
}

/* Spreads pooled work over the servers of its group, levels bottom-up,
 * filling each server's remaining time up to rho (proof (b) above). */
static int spread_pooled(const hta_cluster *c, pooled *p, int64_t np,
                         double *busy, double rho, hta_capacity_result *res,
                         dec_caps *cap)
{
    qsort(p, (size_t)np, sizeof *p, cmp_pooled);
    for (int64_t i = 0; i < np; i++) {
        double left = p[i].work;
        int64_t size = hta_cluster_group_size(c, p[i].n, p[i].g);
        for (int64_t j = 0; j < size && left > 0; j++) {
            int32_t s = hta_cluster_group_server(c, p[i].n, p[i].g, j);
            int lv = hta_capacity_level(c, p[i].L, s);
            double r = c->rate[lv - 1];
            double room = (rho - busy[s]) * r;
            if (room <= 0)
                continue;
            double take = fmin(room, left);
            busy[s] += take / r;
            left -= take;
            if (!add_dec(res, cap, p[i].L, s, take, lv))
                return 0;
        }
        if (left > 1e-9 * fmax(1.0, p[i].work)) {
            /* Rounding: give the crumb to the least busy server. */
            int32_t best = hta_cluster_group_server(c, p[i].n, p[i].g, 0);
            for (int64_t j = 1; j < size; j++) {
                int32_t s = hta_cluster_group_server(c, p[i].n, p[i].g, j);
                if (busy[s] < busy[best])
                    best = s;
            }
            int lv = hta_capacity_level(c, p[i].L, best);
            busy[best] += left / c->rate[lv - 1];
            if (!add_dec(res, cap, p[i].L, best, left, lv))
                return 0;
        }
    }
    return 1;
}

/* ---- the LPs ------------------------------------------------------------ */

/* Everything the LP needs, owned here and released by lp_free, so that no
 * heap memory is held only by a function that GLPK may abort out of
 * (glpkx.h). */
typedef struct lp_ctx {
    const hta_cluster *c;
    const hta_capacity_opts *opts;
    hta_capacity_result *res;
    int plain;
    cap_touch t; /* the aggregated LP's rows: touched servers and groups */
    int64_t base[HTA_MAX_LEVELS + 1]; /* row of the first group of level n */
    int64_t nrows;
    /* the matrix, 1-based as GLPK wants it */
    int *ia, *ja;
    double *ar;
    size_t nnz, cap_ia, cap_ja, cap_ar;
    /* columns, 1-based; column 1 is rho: (type, level, group or server) */
    int64_t *col_type, *col_group;
    int8_t *col_level;
    size_t ncols, cap_type, cap_group, cap_level;
    double *prim; /* the solution, per column */
    int ipt;      /* the solution is the interior point's */
} lp_ctx;

static void lp_free(lp_ctx *x)
{
    cap_touch_free(&x->t);
    free(x->ia);
    free(x->ja);
    free(x->ar);
    free(x->col_type);
    free(x->col_group);
    free(x->col_level);
    free(x->prim);
}

static int push(lp_ctx *x, int64_t row, size_t col, double v)
{
    size_t need = x->nnz + 2;
    if (!HTA_RESERVE(x->ia, x->cap_ia, need) ||
        !HTA_RESERVE(x->ja, x->cap_ja, need) ||
        !HTA_RESERVE(x->ar, x->cap_ar, need))
        return 0;
    ++x->nnz;
    x->ia[x->nnz] = (int)row;
    x->ja[x->nnz] = (int)col;
    x->ar[x->nnz] = v;
    return 1;
}

static int new_col(lp_ctx *x, int64_t L, int n, int64_t g)
{
    size_t need = x->ncols + 2;
    if (!HTA_RESERVE(x->col_type, x->cap_type, need) ||
        !HTA_RESERVE(x->col_group, x->cap_group, need) ||
        !HTA_RESERVE(x->col_level, x->cap_level, need))
        return 0;
    x->ncols++;
    x->col_type[x->ncols] = L;
    x->col_level[x->ncols] = (int8_t)n;
    x->col_group[x->ncols] = g;
    return 1;
}

/* Rows of level n: every server in the plain LP (no group rows), the
 * touched servers and groups in the aggregated one. */
static int64_t groups_at(const lp_ctx *x, int n)
{
    if (x->plain)
        return n == 1 ? x->c->M : 0;
    return n == 1 ? x->t.nsrv : x->t.ngrp[n];
}

/* The row of level n >= 2 holding server s (touched, so its groups are). */
static int64_t group_row(const lp_ctx *x, int32_t s, int n)
{
    return x->base[n] + cap_touch_group(&x->t, n, hta_cluster_group(x->c, s, n));
}

/* The columns of type L in the plain LP: one per server. */
static int plain_columns(lp_ctx *x, int64_t L)
{
    const hta_cluster *c = x->c;
    for (int32_t s = 0; s < c->M; s++) {
        int lv = hta_capacity_level(c, L, s);
        if (!new_col(x, L, lv, s) || !push(x, L + 1, x->ncols, 1.0) ||
            !push(x, x->base[1] + s, x->ncols, 1.0 / c->rate[lv - 1]))
            return 0;
    }
    return 1;
}

/* The columns of type L in the aggregated LP: one per local server, one
 * per group of each level containing a local server (groups holds room
 * for |S_L| entries). */
static int aggregated_columns(lp_ctx *x, int64_t L, int64_t *groups)
{
    const hta_cluster *c = x->c;
    int N = c->levels;
    for (int64_t i = c->off[L]; i < c->off[L + 1]; i++) {
        int32_t s = c->srv[i];
        if (!new_col(x, L, 1, s) || !push(x, L + 1, x->ncols, 1.0) ||
            !push(x, x->base[1] + x->t.at[i], x->ncols, 1.0 / c->rate[0]))
            return 0;
        for (int n = 2; n <= N; n++)
            if (!push(x, group_row(x, s, n), x->ncols, 1.0 / c->rate[0]))
                return 0;
    }
    for (int n = 2; n <= N; n++) {
        /* distinct level-n groups of L's servers */
        int64_t k = 0;
        for (int64_t i = c->off[L]; i < c->off[L + 1]; i++) {
            int64_t g = hta_cluster_group(c, c->srv[i], n);
            int dup = 0;
            for (int64_t j = 0; j < k && !dup; j++)
                dup = groups[j] == g;
            if (!dup)
                groups[k++] = g;
        }
        for (int64_t j = 0; j < k; j++) {
            if (!new_col(x, L, n, groups[j]) || !push(x, L + 1, x->ncols, 1.0))
                return 0;
            /* inside its own group and every enclosing one: those of its
               first server */
            int32_t rep = hta_cluster_group_server(c, n, groups[j], 0);
            for (int up = n; up <= N; up++)
                if (!push(x, group_row(x, rep, up), x->ncols,
                          1.0 / c->rate[n - 1]))
                    return 0;
        }
    }
    return 1;
}

/* The matrix of the LP (no GLPK call). */
static hta_status lp_build(lp_ctx *x, hta_diag *d)
{
    const hta_cluster *c = x->c;
    int N = c->levels;
    int64_t T = c->T;
    if (!x->plain && !cap_touch_build(c, &x->t))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    x->nrows = T;
    for (int n = 1; n <= N; n++) {
        x->base[n] = x->nrows + 1;
        x->nrows += groups_at(x, n);
    }
    int64_t *groups = malloc(((size_t)c->off[T] + 1) * sizeof *groups);
    int ok = groups && new_col(x, -1, 0, -1); /* column 1: rho */
    for (int64_t L = 0; L < T && ok; L++)
        ok = x->plain ? plain_columns(x, L) : aggregated_columns(x, L, groups);
    free(groups);
    /* rho is column 1: -|G| in every capacity row */
    for (int n = 1; n <= N && ok; n++)
        for (int64_t g = 0; g < groups_at(x, n) && ok; g++)
            ok = push(x, x->base[n] + g, 1,
                      n == 1 ? -1.0 :
                               -(double)hta_cluster_group_size(c, n,
                                                              x->t.grp[n][g]));
    if (ok && !(x->prim = malloc((x->ncols + 1) * sizeof *x->prim)))
        ok = 0;
    if (!ok)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    if (x->nrows > INT32_MAX - 1 || x->ncols > INT32_MAX - 1 ||
        x->nnz > INT32_MAX - 1)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "the capacity LP exceeds GLPK's size limits "
                            "(%lld rows, %zu columns)",
                            (long long)x->nrows, x->ncols);
    x->res->rows = x->nrows;
    x->res->cols = (int64_t)x->ncols;
    return HTA_OK;
}

/* Loads and solves the LP; rho and the primal values into x.  Runs inside
 * hta_glpk_guard and allocates nothing outside GLPK. */
static hta_status lp_glpk(void *arg, hta_diag *d)
{
    lp_ctx *x = arg;
    const hta_cluster *c = x->c;
    hta_capacity_result *res = x->res;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_rows(P, (int)x->nrows);
    glp_add_cols(P, (int)x->ncols);
    for (int64_t L = 0; L < c->T; L++)
        glp_set_row_bnds(P, (int)L + 1, GLP_FX, c->lambda[L], c->lambda[L]);
    for (int64_t r = c->T + 1; r <= x->nrows; r++)
        glp_set_row_bnds(P, (int)r, GLP_UP, 0.0, 0.0);
    for (size_t j = 1; j <= x->ncols; j++)
        glp_set_col_bnds(P, (int)j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, 1, 1.0);
    glp_load_matrix(P, (int)x->nnz, x->ia, x->ja, x->ar);
    int ret = 0, status = 0, ipt = x->opts->interior;
    if (ipt) {
        glp_iptcp ip;
        glp_init_iptcp(&ip);
        ip.msg_lev = x->opts->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
        ret = glp_interior(P, &ip);
        status = glp_ipt_status(P);
        if (ret != 0 || status != GLP_OPT) {
            /* GLPK's interior point gives up on some of these LPs
             * (numerical instability): say so and use the simplex. */
            res->interior_failed = ret ? ret : -status;
            ipt = 0;
        }
    }
    if (!ipt) {
        glp_smcp sm;
        glp_init_smcp(&sm);
        sm.msg_lev = x->opts->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
        glp_adv_basis(P, 0);
        ret = hta_glpk_simplex(P, &sm, 0, x->opts->stop);
        status = glp_get_status(P);
    }
    hta_status st = HTA_OK;
    if (ret == GLP_ETMLIM) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "interrupted");
    } else if (ret != 0 || status != GLP_OPT) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "GLPK could not solve the capacity LP (code %d, "
                          "status %d)",
                          ret, status);
    } else {
        res->rho = ipt ? glp_ipt_obj_val(P) : glp_get_obj_val(P);
        for (size_t j = 1; j <= x->ncols; j++)
            x->prim[j] = ipt ? glp_ipt_col_prim(P, (int)j) :
                               glp_get_col_prim(P, (int)j);
    }
    x->ipt = ipt;
    glp_delete_prob(P);
    return st;
}

/* The lambda_{L,m} from the LP's solution. */
static hta_status lp_decompose(lp_ctx *x, hta_diag *d)
{
    const hta_cluster *c = x->c;
    double *busy = calloc((size_t)c->M, sizeof *busy);
    pooled *p = malloc((x->ncols + 1) * sizeof *p);
    int64_t np = 0;
    dec_caps cap = {0, 0, 0, 0};
    int ok = busy && p;
    for (size_t j = 2; j <= x->ncols && ok; j++) {
        double v = x->prim[j];
        if (v <= 1e-12)
            continue;
        if (x->col_level[j] == 1 || x->plain) {
            int32_t s = (int32_t)x->col_group[j];
            busy[s] += v / c->rate[x->col_level[j] - 1];
            ok = add_dec(x->res, &cap, x->col_type[j], s, v, x->col_level[j]);
        } else {
            p[np++] = (pooled){x->col_type[j], x->col_group[j],
                               x->col_level[j], v};
        }
    }
    ok = ok && spread_pooled(c, p, np, busy, x->res->rho, x->res, &cap);
    free(busy);
    free(p);
    return ok ? HTA_OK :
                hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

static hta_status lp_solve(const hta_cluster *c, const hta_capacity_opts *opts,
                           hta_capacity_result *res, int plain, hta_diag *d)
{
    lp_ctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.opts = opts;
    x.res = res;
    x.plain = plain;
    hta_status st = lp_build(&x, d);
    if (st == HTA_OK && opts->progress) {
        hta_progress p = {plain ? "capacity plain LP" : "capacity LP", 0,
                          NAN, NAN, x.nrows};
        opts->progress(opts->progress_ctx, &p);
    }
    if (st == HTA_OK)
        st = hta_glpk_guard(lp_glpk, &x, opts->verbose, d);
    if (st == HTA_OK && opts->decomposition)
        st = lp_decompose(&x, d);
    lp_free(&x);
    return st;
}

/* ---- the local-work network ---------------------------------------------- */

/* source -> type L (capacity lambda_L) -> each local server of L
 * (capacity lambda_L) -> sink (capacity set per use): the network of the
 * flow method and of the bottleneck.  A maximum flow by Dinic's
 * algorithm in doubles, for this three-layer network alone (igraph's
 * general push-relabel took 3.5 s and 590 MB at 10^6 types; this one
 * keeps one double per edge and the reverse adjacency of the servers).
 * Residual arcs: source -> L while f_L < lambda_L; L -> s while f_Ls <
 * lambda_L; s -> L while f_Ls > 0; s -> sink while g_s < cap.  A residual
 * below eps (1e-12 of the total rate, as the bottleneck's test) counts as
 * none, so the phases end; the flow stays a flow (it only ever moves a
 * path's minimum residual). */
typedef struct localnet {
    int64_t T, E;
    int32_t M;      /* the touched servers (touch.h): the others have no
                       edge */
    const hta_cluster *c;
    cap_touch t;    /* server k of the network is t.srv[k] */
    double *fl;     /* [T] source -> L */
    double *flow;   /* [E] L -> s, in the cluster's order */
    double *fs;     /* [M] s -> sink */
    double cap, eps;
    int64_t *in_off, *in_edge; /* edges into each server */
    int64_t *owner;  /* [E] the type of each edge */
    int32_t *level;  /* [T + M]: types 0..T-1, servers T..T+M-1 */
    int64_t *arc;    /* [T + M] current arcs */
    int64_t *queue;  /* [T + M] */
    int64_t *path;   /* [T + M + 1] vertices of the DFS */
    int64_t *pedge;  /* [T + M + 1] the edge taken out of path[i] */
    char *reach;     /* [T + M] source side of the minimal cut */
} localnet;

static void localnet_free(localnet *net)
{
    free(net->fl);
    free(net->flow);
    free(net->fs);
    free(net->in_off);
    free(net->in_edge);
    free(net->owner);
    free(net->level);
    free(net->arc);
    free(net->queue);
    free(net->path);
    free(net->pedge);
    free(net->reach);
    cap_touch_free(&net->t);
    memset(net, 0, sizeof *net);
}

static hta_status localnet_build(const hta_cluster *c, localnet *net,
                                 hta_diag *d)
{
    memset(net, 0, sizeof *net);
    if (!cap_touch_build(c, &net->t))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    int64_t T = c->T, E = c->off[T];
    int32_t M = (int32_t)net->t.nsrv;
    const int32_t *at = net->t.at;
    size_t V = (size_t)T + (size_t)M;
    net->T = T;
    net->E = E;
    net->M = M;
    net->c = c;
    net->eps = 1e-12 * fmax(1.0, total_lambda(c));
    net->fl = calloc((size_t)T + 1, sizeof *net->fl);
    net->flow = calloc((size_t)E + 1, sizeof *net->flow);
    net->fs = calloc((size_t)M + 1, sizeof *net->fs);
    net->in_off = calloc((size_t)M + 1, sizeof *net->in_off);
    net->in_edge = malloc(((size_t)E + 1) * sizeof *net->in_edge);
    net->owner = malloc(((size_t)E + 1) * sizeof *net->owner);
    net->level = malloc((V + 1) * sizeof *net->level);
    net->arc = malloc((V + 1) * sizeof *net->arc);
    net->queue = malloc((V + 1) * sizeof *net->queue);
    net->path = malloc((V + 2) * sizeof *net->path);
    net->pedge = malloc((V + 2) * sizeof *net->pedge);
    net->reach = calloc(V + 1, 1);
    if (!net->fl || !net->flow || !net->fs || !net->in_off ||
        !net->in_edge || !net->owner || !net->level || !net->arc ||
        !net->queue || !net->path || !net->pedge || !net->reach) {
        localnet_free(net);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    for (int64_t L = 0; L < T; L++)
        for (int64_t i = c->off[L]; i < c->off[L + 1]; i++)
            net->owner[i] = L;
    for (int64_t i = 0; i < E; i++)
        net->in_off[at[i] + 1]++;
    for (int32_t s = 0; s < M; s++)
        net->in_off[s + 1] += net->in_off[s];
    for (int64_t i = 0; i < E; i++)
        net->in_edge[net->in_off[at[i]]++] = i;
    for (int32_t s = M; s > 0; s--)
        net->in_off[s] = net->in_off[s - 1];
    net->in_off[0] = 0;
    return HTA_OK;
}

/* Levels from the source in the residual network; 1 when the sink is
 * reached (its level is then *sink_level).  Also marks reach[]. */
static int localnet_bfs(localnet *net, int32_t *sink_level)
{
    const hta_cluster *c = net->c;
    int64_t T = net->T, head = 0, tail = 0;
    double eps = net->eps;
    int32_t found = INT32_MAX;
    for (int64_t v = 0; v < T + net->M; v++)
        net->level[v] = -1;
    for (int64_t L = 0; L < T; L++)
        if (c->lambda[L] - net->fl[L] > eps) {
            net->level[L] = 1;
            net->queue[tail++] = L;
        }
    while (head < tail) {
        int64_t v = net->queue[head++];
        if (net->level[v] >= found)
            break;
        if (v < T) {
            for (int64_t i = c->off[v]; i < c->off[v + 1]; i++) {
                int64_t w = T + net->t.at[i];
                if (net->level[w] < 0 &&
                    c->lambda[v] - net->flow[i] > eps) {
                    net->level[w] = net->level[v] + 1;
                    net->queue[tail++] = w;
                    if (net->cap - net->fs[w - T] > eps)
                        found = net->level[w] + 1;
                }
            }
        } else {
            int32_t s = (int32_t)(v - T);
            for (int64_t j = net->in_off[s]; j < net->in_off[s + 1]; j++) {
                int64_t i = net->in_edge[j], L = net->owner[i];
                if (net->level[L] < 0 && net->flow[i] > eps) {
                    net->level[L] = net->level[v] + 1;
                    net->queue[tail++] = L;
                }
            }
        }
    }
    for (int64_t v = 0; v < T + net->M; v++)
        net->reach[v] = net->level[v] >= 0;
    *sink_level = found;
    return found != INT32_MAX;
}

/* One blocking flow along shortest paths (current arcs). */
static void localnet_block(localnet *net, int32_t sink_level)
{
    const hta_cluster *c = net->c;
    int64_t T = net->T;
    double eps = net->eps;
    for (int64_t v = 0; v < T + net->M; v++)
        net->arc[v] = v < T ? c->off[v] : net->in_off[v - T];
    for (int64_t L0 = 0; L0 < T; L0++) {
        while (net->level[L0] == 1 && c->lambda[L0] - net->fl[L0] > eps) {
            int64_t depth = 0;
            net->path[0] = L0;
            int done = 0;
            while (depth >= 0 && !done) {
                int64_t v = net->path[depth];
                if (v >= T && net->level[v] + 1 == sink_level) {
                    if (net->cap - net->fs[v - T] > eps) {
                        done = 1;
                        break;
                    }
                    net->level[v] = -1; /* full: no path through it */
                    depth--;
                    continue;
                }
                int64_t next = -1;
                if (v < T) {
                    for (; net->arc[v] < c->off[v + 1]; net->arc[v]++) {
                        int64_t i = net->arc[v], w = T + net->t.at[i];
                        if (net->level[w] == net->level[v] + 1 &&
                            c->lambda[v] - net->flow[i] > eps) {
                            next = w;
                            break;
                        }
                    }
                } else {
                    int32_t s = (int32_t)(v - T);
                    for (; net->arc[v] < net->in_off[s + 1]; net->arc[v]++) {
                        int64_t i = net->in_edge[net->arc[v]];
                        int64_t L = net->owner[i];
                        if (net->level[L] == net->level[v] + 1 &&
                            net->flow[i] > eps) {
                            next = L;
                            break;
                        }
                    }
                }
                if (next < 0) {
                    net->level[v] = -1; /* dead for this phase */
                    depth--;
                    continue;
                }
                net->pedge[depth] = v < T ? net->arc[v] :
                                            net->in_edge[net->arc[v]];
                net->path[++depth] = next;
            }
            if (!done)
                break;
            /* the path's bottleneck, then push it */
            double delta = c->lambda[L0] - net->fl[L0];
            int64_t last = net->path[depth] - T;
            delta = fmin(delta, net->cap - net->fs[last]);
            for (int64_t k = 0; k < depth; k++) {
                int64_t v = net->path[k], i = net->pedge[k];
                delta = fmin(delta, v < T ? c->lambda[v] - net->flow[i] :
                                            net->flow[i]);
            }
            net->fl[L0] += delta;
            net->fs[last] += delta;
            for (int64_t k = 0; k < depth; k++) {
                int64_t v = net->path[k], i = net->pedge[k];
                net->flow[i] += v < T ? delta : -delta;
            }
        }
    }
}

/* A maximum flow with every server able to take server_cap, from zero:
 * its value, and the number of servers on the source side of the minimal
 * minimum cut (reach[]: the saturated server edges of that cut). */
static void localnet_maxflow(localnet *net, double server_cap,
                             double *value, int64_t *saturated)
{
    net->cap = server_cap;
    memset(net->fl, 0, (size_t)net->T * sizeof *net->fl);
    memset(net->flow, 0, (size_t)net->E * sizeof *net->flow);
    memset(net->fs, 0, (size_t)net->M * sizeof *net->fs);
    int32_t sink_level;
    while (localnet_bfs(net, &sink_level))
        localnet_block(net, sink_level);
    double v = 0;
    int64_t k = 0;
    for (int32_t s = 0; s < net->M; s++) {
        v += net->fs[s];
        k += net->reach[net->T + s];
    }
    *value = v;
    *saturated = k;
}

/* ---- two levels: Newton on max flows -------------------------------- */

static hta_status flow_solve(const hta_cluster *c,
                             const hta_capacity_opts *opts,
                             hta_capacity_result *res, hta_diag *d)
{
    int64_t T = c->T;
    int32_t M = c->M;
    double alpha = c->rate[0], gamma = c->rate[1], sum = total_lambda(c);
    if (sum <= 0) {
        res->rho = 0;
        return HTA_OK;
    }
    localnet net;
    hta_status st = localnet_build(c, &net, d);
    if (st != HTA_OK)
        return st;
    /* Newton from the left: at rho = sum/(alpha M), F <= alpha M rho and
     * so Phi(rho) <= alpha M rho - sum = 0. */
    double rho = sum / (alpha * (double)M), F = 0;
    double started = hta_clock_now();
    for (int it = 0; it < 200; it++) {
        if (opts->stop && *opts->stop) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "interrupted");
            break;
        }
        if (opts->progress) {
            hta_progress p = {"capacity flow", hta_clock_now() - started, rho,
                              NAN, it};
            opts->progress(opts->progress_ctx, &p);
        }
        int64_t saturated = 0;
        localnet_maxflow(&net, alpha * rho, &F, &saturated);
        res->flow_calls++;
        double phi = (1 - gamma / alpha) * F + gamma * (double)M * rho - sum;
        double slope = (alpha - gamma) * (double)saturated + gamma * (double)M;
        if (phi >= -1e-12 * sum || slope <= 0)
            break;
        double next = rho - phi / slope;
        if (!(next > rho))
            break;
        rho = next;
    }
    if (st != HTA_OK) {
        localnet_free(&net);
        return st;
    }
    res->rho = rho;
    if (opts->decomposition) {
        double *busy = calloc((size_t)M, sizeof *busy);
        pooled *p = malloc(((size_t)T + 1) * sizeof *p);
        int64_t np = 0;
        dec_caps capd = {0, 0, 0, 0};
        int ok = busy && p;
        for (int64_t L = 0; L < T && ok; L++) {
            double local = 0;
            for (int64_t i = c->off[L]; i < c->off[L + 1] && ok; i++) {
                double v = net.flow[i];
                if (v <= 0)
                    continue;
                local += v;
                busy[c->srv[i]] += v / alpha;
                ok = add_dec(res, &capd, L, c->srv[i], v, 1);
            }
            if (c->lambda[L] - local > 1e-12 * c->lambda[L])
                p[np++] = (pooled){L, 0, 2, c->lambda[L] - local};
        }
        ok = ok && spread_pooled(c, p, np, busy, rho, res, &capd);
        free(busy);
        free(p);
        if (!ok)
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    localnet_free(&net);
    return st;
}

/* ---- N levels: Newton on generalized max flows (gflow.c) ------------- */

static hta_status gflow_solve(const hta_cluster *c,
                              const hta_capacity_opts *opts,
                              hta_capacity_result *res, hta_diag *d)
{
    hta_gflow_result g;
    hta_status st = hta_gflow_capacity(c, opts->decomposition, opts->progress,
                                       opts->progress_ctx, opts->stop, &g, d);
    if (st != HTA_OK)
        return st;
    res->rho = g.rho;
    res->flow_calls = g.newton;
    res->relabels = g.relabels;
    res->rounds = g.rounds;
    if (opts->decomposition) {
        double *busy = calloc((size_t)c->M + 1, sizeof *busy);
        pooled *p = malloc(((size_t)g.nentry + 1) * sizeof *p);
        int64_t np = 0;
        dec_caps capd = {0, 0, 0, 0};
        int ok = busy && p;
        for (int64_t i = 0; i < g.nentry && ok; i++) {
            const hta_gflow_entry *e = &g.entry[i];
            if (e->level == 1) {
                busy[e->group] += e->work / c->rate[0];
                ok = add_dec(res, &capd, e->type, (int32_t)e->group, e->work,
                             1);
            } else {
                p[np++] = (pooled){e->type, e->group, e->level, e->work};
            }
        }
        ok = ok && spread_pooled(c, p, np, busy, res->rho, res, &capd);
        free(busy);
        free(p);
        if (!ok)
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    hta_gflow_result_free(&g);
    return st;
}

/* ---- the bottleneck ------------------------------------------------------ */

/* One definition for every method.  At the boundary (lambda scaled by
 * 1/rho*) every server is busy: level-N service can move work from a
 * busiest server to any server with slack, so the whole cluster is tight.
 * Inside it, the hot servers are the source side of the minimal minimum
 * cut of the local-work network (source -> type L, capacity lambda_L;
 * L -> each local server; server -> sink, capacity alpha_1 * rho*): the
 * servers whose local demand exceeds what they can serve locally, so that
 * raising their rates raises the capacity.  The minimal source side (the
 * vertices reachable from the source in the residual network of any
 * maximum flow) is unique, so every method reports the same set; the
 * network is built at rho* (1 - 1e-7), so that the last bits of rho*,
 * which differ between methods, cannot move a server across. */
static hta_status bottlenecks(const hta_cluster *c, hta_capacity_result *res,
                               hta_diag *d)
{
    if (!(res->rho > 0))
        return HTA_OK;
    int64_t T = c->T;
        localnet net;
    double value;
    int64_t hot;
    hta_status st = localnet_build(c, &net, d);
    if (st != HTA_OK)
        return st;
    /* the residual reachability from the source of the maximum flow: the
       last search of the max flow found no path, and marked it */
    localnet_maxflow(&net, c->rate[0] * res->rho * (1 - 1e-7), &value, &hot);
    if (!(res->bottle = malloc(((size_t)hot + 1) * sizeof *res->bottle))) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    res->bottle[res->nbottle++] = (hta_bottleneck){c->levels, 0};
    for (int32_t k = 0; k < net.M; k++)
        if (net.reach[T + k])
            res->bottle[res->nbottle++] = (hta_bottleneck){1, net.t.srv[k]};
done:
    localnet_free(&net);
    return st;
}

hta_status hta_capacity_solve(const hta_cluster *c,
                              const hta_capacity_opts *opts,
                              hta_capacity_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    hta_capacity_method m = opts->method;
    if (m == HTA_CAP_AUTO)
        m = HTA_CAP_FLOW;
    /* GLPK's simplex on the plain LP grows as columns^1.7 here (32,000
     * columns 0.4 s, 128,000 5 s) and failed with GLP_EFAIL after 84 s on
     * Wang's 800 x 1000: past the limit it is refused at once. */
    if (m == HTA_CAP_PLAIN && (double)c->T * c->M > HTA_CAP_PLAIN_MAX)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the plain LP has one column per (type, "
                            "server): %lld x %ld = %.0f columns, more than "
                            "its limit of %.0f; use --method lp (or flow "
                            "for two levels), which gives the same rho*",
                            (long long)c->T, (long)c->M,
                            (double)c->T * c->M, (double)HTA_CAP_PLAIN_MAX);
    res->method = m;
    /* Solved on a normalised copy: the largest arrival rate 1, alpha_1 1.
     * Utilisations scale as lambda/alpha, so rho* = rho' * Lmax / alpha_1,
     * the decomposition's rates scale by Lmax, and the bottleneck (a cut
     * of a network scaled as a whole) is the same; the LPs then see
     * coefficients of order one whatever the units. */
    double lmax = 0;
    for (int64_t L = 0; L < c->T; L++)
        lmax = fmax(lmax, c->lambda[L]);
    hta_cluster scaled = *c;
    double *lambda = malloc(((size_t)c->T + 1) * sizeof *lambda);
    if (!lambda)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (int64_t L = 0; L < c->T; L++)
        lambda[L] = lmax > 0 ? c->lambda[L] / lmax : 0;
    for (int i = 0; i < c->levels; i++)
        scaled.rate[i] = c->rate[i] / c->rate[0];
    scaled.lambda = lambda;
    hta_status st;
    if (m == HTA_CAP_FLOW && c->levels == 2) {
        st = flow_solve(&scaled, opts, res, d);
    } else if (m == HTA_CAP_FLOW || m == HTA_CAP_GFLOW) {
        st = gflow_solve(&scaled, opts, res, d);
    } else {
        st = lp_solve(&scaled, opts, res, m == HTA_CAP_PLAIN, d);
    }
    if (st == HTA_OK)
        st = bottlenecks(&scaled, res, d);
    free(lambda);
    if (st != HTA_OK) {
        hta_capacity_result_free(res);
        return st;
    }
    res->rho *= lmax / c->rate[0];
    for (int64_t i = 0; i < res->ndec; i++)
        res->dec_rate[i] *= lmax;
    res->status = fabs(res->rho - 1.0) <= HTA_CAP_TOL ? HTA_CAP_BOUNDARY :
                  res->rho < 1.0                    ? HTA_CAP_INSIDE :
                                                      HTA_CAP_OUTSIDE;
    return HTA_OK;
}
