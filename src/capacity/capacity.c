/* Capacity region: aggregated LP (N levels), plain LP (checks), and for
 * two levels Newton's method on max flows.
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
#include <igraph.h>

#include "hta/buf.h"
#include "hta/glpkx.h"
#include "hta/maxcover.h"
#include "hta/num.h"

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

int hta_capacity_level(const hta_cluster *c, int64_t L, int32_t s)
{
    int best = c->levels;
    for (int64_t i = c->off[L]; i < c->off[L + 1]; i++) {
        if (c->srv[i] == s)
            return 1;
        for (int n = 2; n < best; n++)
            if (hta_cluster_group(c, s, n) ==
                hta_cluster_group(c, c->srv[i], n)) {
                best = n;
                break;
            }
    }
    return best;
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

/* The servers of group g at level n >= 2 are the consecutive range
 * [*lo, *hi) (topology.h); level N is the whole cluster. */
static void group_range(const hta_cluster *c, int n, int64_t g, int32_t *lo,
                        int32_t *hi)
{
    if (n >= c->levels) {
        *lo = 0;
        *hi = c->M;
        return;
    }
    int64_t size = 1;
    for (int k = 0; k + 2 <= n && k < c->ntopo; k++)
        size *= c->topo[k];
    *lo = (int32_t)(g * size);
    *hi = (int32_t)(g * size + size < c->M ? g * size + size : c->M);
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
        int32_t lo, hi;
        group_range(c, p[i].n, p[i].g, &lo, &hi);
        for (int32_t s = lo; s < hi && left > 0; s++) {
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
            int32_t best = lo;
            for (int32_t s = lo; s < hi; s++)
                if (busy[s] < busy[best])
                    best = s;
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
    int64_t base[HTA_MAX_LEVELS + 1]; /* row of group 0 at level n */
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

static int64_t groups_at(const lp_ctx *x, int n)
{
    if (n == 1)
        return x->c->M;
    return x->plain ? 0 : hta_cluster_groups(x->c, n);
}

/* Servers in group g of level n (n >= 2). */
static int64_t group_size(const hta_cluster *c, int n, int64_t g)
{
    int32_t lo, hi;
    group_range(c, n, g, &lo, &hi);
    return hi - lo;
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
            !push(x, x->base[1] + s, x->ncols, 1.0 / c->rate[0]))
            return 0;
        for (int n = 2; n <= N; n++)
            if (!push(x, x->base[n] + hta_cluster_group(c, s, n), x->ncols,
                      1.0 / c->rate[0]))
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
            /* inside its own group and every enclosing one */
            int32_t rep = (int32_t)groups[j];
            for (int k2 = 0; k2 + 2 <= n && k2 < c->ntopo; k2++)
                rep *= c->topo[k2];
            for (int up = n; up <= N; up++)
                if (!push(x, x->base[up] + hta_cluster_group(c, rep, up),
                          x->ncols, 1.0 / c->rate[n - 1]))
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
                      n == 1 ? -1.0 : -(double)group_size(c, n, g));
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
        ret = glp_simplex(P, &sm);
        status = glp_get_status(P);
    }
    hta_status st = HTA_OK;
    if (ret != 0 || status != GLP_OPT) {
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
 * flow method and of the bottleneck.  Edges: T source edges, then the
 * off[T] type-server edges in the cluster's order, then M server edges. */
typedef struct localnet {
    igraph_t g;
    igraph_vector_t cap, flow;
    igraph_integer_t src, sink, server_edge; /* first server -> sink edge */
    int have_g, have_cap, have_flow;
} localnet;

static void localnet_free(localnet *net)
{
    if (net->have_g)
        igraph_destroy(&net->g);
    if (net->have_cap)
        igraph_vector_destroy(&net->cap);
    if (net->have_flow)
        igraph_vector_destroy(&net->flow);
    net->have_g = net->have_cap = net->have_flow = 0;
}

static hta_status localnet_build(const hta_cluster *c, localnet *net,
                                 hta_diag *d)
{
    int64_t T = c->T, E = c->off[T];
    int32_t M = c->M;
    igraph_integer_t nedges = T + E + M;
    memset(net, 0, sizeof *net);
    net->src = 0;
    net->sink = T + M + 1;
    net->server_edge = T + E;
    hta_igraph_init();
    igraph_vector_int_t el;
    igraph_error_t err;
    if ((err = igraph_vector_int_init(&el, 2 * nedges)))
        return hta_igraph_error(err, "cannot allocate the flow network", d);
    if ((err = igraph_vector_init(&net->cap, nedges)) ||
        !(net->have_cap = 1) || (err = igraph_vector_init(&net->flow, 0)) ||
        !(net->have_flow = 1)) {
        igraph_vector_int_destroy(&el);
        localnet_free(net);
        return hta_igraph_error(err, "cannot allocate the flow network", d);
    }
    igraph_integer_t k = 0;
    for (int64_t L = 0; L < T; L++) {
        VECTOR(el)[2 * k] = net->src;
        VECTOR(el)[2 * k + 1] = 1 + L;
        VECTOR(net->cap)[k++] = c->lambda[L];
    }
    for (int64_t L = 0; L < T; L++)
        for (int64_t i = c->off[L]; i < c->off[L + 1]; i++) {
            VECTOR(el)[2 * k] = 1 + L;
            VECTOR(el)[2 * k + 1] = 1 + T + c->srv[i];
            VECTOR(net->cap)[k++] = c->lambda[L];
        }
    for (int32_t s = 0; s < M; s++) {
        VECTOR(el)[2 * k] = 1 + T + s;
        VECTOR(el)[2 * k + 1] = net->sink;
        k++;
    }
    err = igraph_create(&net->g, &el, T + M + 2, IGRAPH_DIRECTED);
    igraph_vector_int_destroy(&el);
    if (err) {
        localnet_free(net);
        return hta_igraph_error(err, "cannot build the flow network", d);
    }
    net->have_g = 1;
    return HTA_OK;
}

/* A maximum flow with every server able to take server_cap; the cut's
 * edge ids in cut when it is not NULL. */
static hta_status localnet_maxflow(localnet *net, const hta_cluster *c,
                                   double server_cap, double *value,
                                   igraph_vector_int_t *cut, hta_diag *d)
{
    for (int32_t s = 0; s < c->M; s++)
        VECTOR(net->cap)[net->server_edge + s] = server_cap;
    igraph_real_t v;
    igraph_error_t err = igraph_maxflow(&net->g, &v, &net->flow, cut, NULL,
                                        NULL, net->src, net->sink, &net->cap,
                                        NULL);
    if (err)
        return hta_igraph_error(err, "igraph_maxflow failed", d);
    *value = v;
    return HTA_OK;
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
    igraph_vector_int_t cut;
    hta_status st = localnet_build(c, &net, d);
    if (st != HTA_OK)
        return st;
    igraph_error_t err = igraph_vector_int_init(&cut, 0);
    if (err) {
        localnet_free(&net);
        return hta_igraph_error(err, "cannot allocate the cut", d);
    }
    /* Newton from the left: at rho = sum/(alpha M), F <= alpha M rho and
     * so Phi(rho) <= alpha M rho - sum = 0. */
    double rho = sum / (alpha * (double)M), F = 0;
    double started = hta_clock_now();
    for (int it = 0; it < 200; it++) {
        if (opts->progress) {
            hta_progress p = {"capacity flow", hta_clock_now() - started, rho,
                              NAN, it};
            opts->progress(opts->progress_ctx, &p);
        }
        if ((st = localnet_maxflow(&net, c, alpha * rho, &F, &cut, d)) !=
            HTA_OK)
            goto done;
        res->flow_calls++;
        int64_t saturated = 0;
        for (igraph_integer_t i = 0; i < igraph_vector_int_size(&cut); i++)
            saturated += VECTOR(cut)[i] >= net.server_edge;
        double phi = (1 - gamma / alpha) * F + gamma * (double)M * rho - sum;
        double slope = (alpha - gamma) * (double)saturated + gamma * (double)M;
        if (phi >= -1e-12 * sum || slope <= 0)
            break;
        double next = rho - phi / slope;
        if (!(next > rho))
            break;
        rho = next;
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
                double v = VECTOR(net.flow)[T + i];
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
done:
    igraph_vector_int_destroy(&cut);
    localnet_free(&net);
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
    int64_t T = c->T, E = c->off[T];
    int32_t M = c->M;
    localnet net;
    char *seen = NULL;
    int64_t *queue = NULL, *in_off = NULL, *in_edge = NULL;
    double value;
    hta_status st = localnet_build(c, &net, d);
    if (st != HTA_OK)
        return st;
    if ((st = localnet_maxflow(&net, c, c->rate[0] * res->rho * (1 - 1e-7),
                               &value, NULL, d)) != HTA_OK)
        goto done;
    /* Residual reachability from the source: a type while its source edge
     * has room, a server from a type, a type back from a server that
     * carries its flow. */
    double eps = 1e-12 * fmax(1.0, total_lambda(c));
    const igraph_vector_t *flow = &net.flow;
    seen = calloc((size_t)(T + M), 1);
    queue = malloc(((size_t)T + (size_t)M) * sizeof *queue);
    in_off = calloc((size_t)M + 1, sizeof *in_off);
    in_edge = malloc(((size_t)E + 1) * sizeof *in_edge);
    if (!seen || !queue || !in_off || !in_edge) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    /* the edges into each server, for the backward steps */
    for (int64_t i = 0; i < E; i++)
        in_off[c->srv[i] + 1]++;
    for (int32_t s = 0; s < M; s++)
        in_off[s + 1] += in_off[s];
    for (int64_t i = 0; i < E; i++)
        in_edge[in_off[c->srv[i]]++] = i;
    for (int32_t s = M; s > 0; s--)
        in_off[s] = in_off[s - 1];
    in_off[0] = 0;
    int64_t head = 0, tail = 0;
    for (int64_t L = 0; L < T; L++)
        if (VECTOR(*flow)[L] < c->lambda[L] - eps)
            seen[L] = 1, queue[tail++] = L;
    while (head < tail) {
        int64_t v = queue[head++];
        if (v < T) {
            for (int64_t i = c->off[v]; i < c->off[v + 1]; i++) {
                int64_t w = T + c->srv[i];
                /* forward L -> s: capacity lambda_L, flow at most that */
                if (!seen[w] && VECTOR(*flow)[T + i] < c->lambda[v] - eps)
                    seen[w] = 1, queue[tail++] = w;
            }
            continue;
        }
        int32_t s = (int32_t)(v - T);
        for (int64_t j = in_off[s]; j < in_off[s + 1]; j++) {
            int64_t i = in_edge[j];
            if (VECTOR(*flow)[T + i] <= eps)
                continue;
            /* the type owning edge i, by binary search on off */
            int64_t lo = 0, hi = T - 1;
            while (lo < hi) {
                int64_t mid = (lo + hi + 1) / 2;
                if (c->off[mid] <= i)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            if (!seen[lo])
                seen[lo] = 1, queue[tail++] = lo;
        }
    }
    int64_t hot = 0;
    for (int32_t s = 0; s < M; s++)
        hot += seen[T + s];
    if (!(res->bottle = malloc(((size_t)hot + 1) * sizeof *res->bottle))) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    res->bottle[res->nbottle++] = (hta_bottleneck){c->levels, 0};
    for (int32_t s = 0; s < M; s++)
        if (seen[T + s])
            res->bottle[res->nbottle++] = (hta_bottleneck){1, s};
done:
    localnet_free(&net);
    free(seen);
    free(queue);
    free(in_off);
    free(in_edge);
    return st;
}

hta_status hta_capacity_solve(const hta_cluster *c,
                              const hta_capacity_opts *opts,
                              hta_capacity_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    hta_capacity_method m = opts->method;
    if (m == HTA_CAP_AUTO)
        m = c->levels == 2 ? HTA_CAP_FLOW : HTA_CAP_LP;
    if (m == HTA_CAP_FLOW && c->levels != 2)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the flow method needs two levels, the cluster "
                            "has %d",
                            c->levels);
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
    if (m == HTA_CAP_FLOW) {
        st = flow_solve(&scaled, opts, res, d);
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
