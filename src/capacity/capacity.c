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

#include "hta/glpkx.h"
#include "hta/maxcover.h"

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

static int add_dec(hta_capacity_result *res, int64_t *cap, int64_t L,
                   int32_t s, double rate, int level)
{
    if (rate <= 0)
        return 1;
    if (res->ndec == *cap) {
        int64_t nc = *cap ? *cap * 2 : 1024;
        int64_t *t = realloc(res->dec_type, (size_t)nc * sizeof *t);
        if (t)
            res->dec_type = t;
        int32_t *sv = realloc(res->dec_server, (size_t)nc * sizeof *sv);
        if (sv)
            res->dec_server = sv;
        double *r = realloc(res->dec_rate, (size_t)nc * sizeof *r);
        if (r)
            res->dec_rate = r;
        int8_t *lv = realloc(res->dec_level, (size_t)nc * sizeof *lv);
        if (lv)
            res->dec_level = lv;
        if (!t || !sv || !r || !lv)
            return 0;
        *cap = nc;
    }
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
                         int64_t *cap)
{
    qsort(p, (size_t)np, sizeof *p, cmp_pooled);
    int32_t M = c->M;
    for (int64_t i = 0; i < np; i++) {
        double left = p[i].work;
        /* the servers of group g at level n are a consecutive range */
        int64_t size = 1;
        for (int k = 0; k + 2 <= p[i].n && k < c->ntopo; k++)
            size *= c->topo[k];
        int32_t lo = p[i].n >= c->levels ? 0 : (int32_t)(p[i].g * size);
        int32_t hi = p[i].n >= c->levels ? M : (int32_t)fmin(M, lo + size);
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

typedef struct lp_ctx {
    const hta_cluster *c;
    const hta_capacity_opts *opts;
    hta_capacity_result *res;
    int plain;
} lp_ctx;

/* Row of group g at level n in the aggregated LP (levels 1..N). */
typedef struct rowmap {
    int64_t base[HTA_MAX_LEVELS + 1];
} rowmap;

static hta_status lp_solve(void *arg, hta_diag *d)
{
    lp_ctx *x = arg;
    const hta_cluster *c = x->c;
    hta_capacity_result *res = x->res;
    int N = c->levels;
    int32_t M = c->M;
    int64_t T = c->T;
    hta_status st = HTA_OK;
    glp_prob *P = glp_create_prob();
    int *ia = NULL, *ja = NULL;
    double *ar = NULL;
    /* columns and their (type, level, group/server) */
    int64_t *col_type = NULL, *col_group = NULL;
    int8_t *col_level = NULL;
    int64_t ncols = 1, capc = 1024, nnz = 0, capn = 4096;
    rowmap rm;
    int64_t nrows = T;
    for (int n = 1; n <= N; n++) {
        rm.base[n] = nrows + 1;
        nrows += x->plain ? (n == 1 ? M : 0) : (n == 1 ? M :
                                                hta_cluster_groups(c, n));
    }
    col_type = malloc((size_t)capc * sizeof *col_type);
    col_group = malloc((size_t)capc * sizeof *col_group);
    col_level = malloc((size_t)capc * sizeof *col_level);
    ia = malloc((size_t)capn * sizeof *ia);
    ja = malloc((size_t)capn * sizeof *ja);
    ar = malloc((size_t)capn * sizeof *ar);
    int64_t *groups = malloc(((size_t)c->off[T] + 1) * sizeof *groups);
    if (!col_type || !col_group || !col_level || !ia || !ja || !ar ||
        !groups) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
#define PUSH(r, cidx, v)                                                      \
    do {                                                                      \
        if (nnz + 2 > capn) {                                                 \
            capn *= 2;                                                        \
            int *ni = realloc(ia, (size_t)capn * sizeof *ni);                 \
            if (ni)                                                           \
                ia = ni;                                                      \
            int *nj = realloc(ja, (size_t)capn * sizeof *nj);                 \
            if (nj)                                                           \
                ja = nj;                                                      \
            double *na = realloc(ar, (size_t)capn * sizeof *na);              \
            if (na)                                                           \
                ar = na;                                                      \
            if (!ni || !nj || !na) {                                          \
                st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,               \
                                  "out of memory");                           \
                goto done;                                                    \
            }                                                                 \
        }                                                                     \
        ++nnz;                                                                \
        ia[nnz] = (int)(r);                                                   \
        ja[nnz] = (int)(cidx);                                                \
        ar[nnz] = (v);                                                        \
    } while (0)
#define NEWCOL(L, n, g)                                                       \
    do {                                                                      \
        if (ncols + 1 >= capc) {                                              \
            capc *= 2;                                                        \
            int64_t *nt = realloc(col_type, (size_t)capc * sizeof *nt);       \
            if (nt)                                                           \
                col_type = nt;                                                \
            int64_t *ng = realloc(col_group, (size_t)capc * sizeof *ng);      \
            if (ng)                                                           \
                col_group = ng;                                               \
            int8_t *nl = realloc(col_level, (size_t)capc * sizeof *nl);       \
            if (nl)                                                           \
                col_level = nl;                                               \
            if (!nt || !ng || !nl) {                                          \
                st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,               \
                                  "out of memory");                           \
                goto done;                                                    \
            }                                                                 \
        }                                                                     \
        ncols++;                                                              \
        col_type[ncols] = (L);                                                \
        col_level[ncols] = (int8_t)(n);                                       \
        col_group[ncols] = (g);                                               \
    } while (0)

    for (int64_t L = 0; L < T; L++) {
        if (x->plain) {
            for (int32_t s = 0; s < M; s++) {
                int lv = hta_capacity_level(c, L, s);
                NEWCOL(L, lv, s);
                PUSH(L + 1, ncols, 1.0);
                PUSH(rm.base[1] + s, ncols, 1.0 / c->rate[lv - 1]);
            }
            continue;
        }
        for (int64_t i = c->off[L]; i < c->off[L + 1]; i++) {
            int32_t s = c->srv[i];
            NEWCOL(L, 1, s);
            PUSH(L + 1, ncols, 1.0);
            PUSH(rm.base[1] + s, ncols, 1.0 / c->rate[0]);
            for (int n = 2; n <= N; n++)
                PUSH(rm.base[n] + hta_cluster_group(c, s, n), ncols,
                     1.0 / c->rate[0]);
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
                NEWCOL(L, n, groups[j]);
                PUSH(L + 1, ncols, 1.0);
                /* inside its own group and every enclosing one */
                int32_t rep = (int32_t)groups[j];
                for (int k2 = 0; k2 + 2 <= n && k2 < c->ntopo; k2++)
                    rep *= c->topo[k2];
                for (int up = n; up <= N; up++)
                    PUSH(rm.base[up] + hta_cluster_group(c, rep, up), ncols,
                         1.0 / c->rate[n - 1]);
            }
        }
    }
    /* rho is column 1: -|G| in every capacity row */
    for (int n = 1; n <= N; n++) {
        int64_t groups_n = x->plain ? (n == 1 ? M : 0) :
                                      (n == 1 ? M : hta_cluster_groups(c, n));
        for (int64_t g = 0; g < groups_n; g++) {
            int64_t size = 1;
            if (n > 1) {
                int64_t lo = g, hi = g + 1;
                for (int k = 0; k + 2 <= n && k < c->ntopo; k++)
                    lo *= c->topo[k], hi *= c->topo[k];
                if (n >= N)
                    lo = 0, hi = M;
                size = (hi < M ? hi : M) - lo;
            }
            PUSH(rm.base[n] + g, 1, -(double)size);
        }
    }
    res->rows = nrows;
    res->cols = ncols;
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_rows(P, (int)nrows);
    glp_add_cols(P, (int)ncols);
    for (int64_t L = 0; L < T; L++)
        glp_set_row_bnds(P, (int)L + 1, GLP_FX, c->lambda[L], c->lambda[L]);
    for (int64_t r = T + 1; r <= nrows; r++)
        glp_set_row_bnds(P, (int)r, GLP_UP, 0.0, 0.0);
    for (int64_t j = 1; j <= ncols; j++)
        glp_set_col_bnds(P, (int)j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, 1, 1.0);
    glp_load_matrix(P, (int)nnz, ia, ja, ar);
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
    if (ret != 0 || status != GLP_OPT) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "GLPK could not solve the capacity LP (code %d, "
                          "status %d)",
                          ret, status);
        goto done;
    }
    res->rho = ipt ? glp_ipt_obj_val(P) : glp_get_obj_val(P);
    /* bottlenecks: capacity rows that are tight with a non-zero dual */
    for (int n = 1; n <= N; n++) {
        int64_t groups_n = x->plain ? (n == 1 ? M : 0) :
                                      (n == 1 ? M : hta_cluster_groups(c, n));
        for (int64_t g = 0; g < groups_n; g++) {
            int r = (int)(rm.base[n] + g);
            double dual = ipt ? glp_ipt_row_dual(P, r) : glp_get_row_dual(P, r);
            double act = ipt ? glp_ipt_row_prim(P, r) : glp_get_row_prim(P, r);
            if (fabs(dual) > 1e-9 && fabs(act) <= 1e-7 * fmax(1.0, res->rho)) {
                hta_bottleneck *nb = realloc(
                    res->bottle, (size_t)(res->nbottle + 1) * sizeof *nb);
                if (!nb) {
                    st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                      "out of memory");
                    goto done;
                }
                res->bottle = nb;
                res->bottle[res->nbottle++] =
                    (hta_bottleneck){n, g, dual};
            }
        }
    }
    if (x->opts->decomposition) {
        double *busy = calloc((size_t)M, sizeof *busy);
        pooled *p = malloc((size_t)ncols * sizeof *p);
        int64_t np = 0, cap = 0;
        if (!busy || !p) {
            free(busy);
            free(p);
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            goto done;
        }
        int ok = 1;
        for (int64_t j = 2; j <= ncols && ok; j++) {
            double v = ipt ? glp_ipt_col_prim(P, (int)j) :
                             glp_get_col_prim(P, (int)j);
            if (v <= 1e-12)
                continue;
            if (col_level[j] == 1 || x->plain) {
                int32_t s = (int32_t)col_group[j];
                busy[s] += v / c->rate[col_level[j] - 1];
                ok = add_dec(res, &cap, col_type[j], s, v, col_level[j]);
            } else {
                p[np++] = (pooled){col_type[j], col_group[j], col_level[j], v};
            }
        }
        ok = ok && spread_pooled(c, p, np, busy, res->rho, res, &cap);
        free(busy);
        free(p);
        if (!ok) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            goto done;
        }
    }
done:
#undef PUSH
#undef NEWCOL
    glp_delete_prob(P);
    free(ia);
    free(ja);
    free(ar);
    free(col_type);
    free(col_group);
    free(col_level);
    free(groups);
    return st;
}

/* ---- two levels: Newton on max flows -------------------------------- */

static hta_status flow_solve(const hta_cluster *c,
                             const hta_capacity_opts *opts,
                             hta_capacity_result *res, hta_diag *d)
{
    hta_igraph_init();
    int64_t T = c->T, E = c->off[T];
    int32_t M = c->M;
    double alpha = c->rate[0], gamma = c->rate[1], sum = total_lambda(c);
    if (sum <= 0) {
        res->rho = 0;
        return HTA_OK;
    }
    igraph_integer_t nedges = T + E + M, src = 0, sink = T + M + 1;
    igraph_vector_int_t el, cut;
    igraph_vector_t cap, flow;
    igraph_t g;
    hta_status st = HTA_OK;
    int have_graph = 0;
    if (igraph_vector_int_init(&el, 2 * nedges) ||
        igraph_vector_int_init(&cut, 0) || igraph_vector_init(&cap, nedges) ||
        igraph_vector_init(&flow, 0))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "igraph: out of memory");
    igraph_integer_t k = 0;
    for (int64_t L = 0; L < T; L++) {
        VECTOR(el)[2 * k] = src;
        VECTOR(el)[2 * k + 1] = 1 + L;
        VECTOR(cap)[k++] = c->lambda[L];
    }
    for (int64_t L = 0; L < T; L++)
        for (int64_t i = c->off[L]; i < c->off[L + 1]; i++) {
            VECTOR(el)[2 * k] = 1 + L;
            VECTOR(el)[2 * k + 1] = 1 + T + c->srv[i];
            VECTOR(cap)[k++] = c->lambda[L];
        }
    for (int32_t s = 0; s < M; s++) {
        VECTOR(el)[2 * k] = 1 + T + s;
        VECTOR(el)[2 * k + 1] = sink;
        k++;
    }
    if (igraph_create(&g, &el, T + M + 2, IGRAPH_DIRECTED)) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "igraph: cannot build the flow network");
        goto done;
    }
    have_graph = 1;
    /* Newton from the left: at rho = sum/(alpha M), F <= alpha M rho and
     * so Phi(rho) <= alpha M rho - sum = 0. */
    double rho = sum / (alpha * (double)M), F = 0;
    int64_t saturated = 0;
    for (int it = 0; it < 200; it++) {
        for (int32_t s = 0; s < M; s++)
            VECTOR(cap)[T + E + s] = alpha * rho;
        igraph_real_t value;
        if (igraph_maxflow(&g, &value, &flow, &cut, NULL, NULL, src, sink,
                           &cap, NULL)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                              "igraph_maxflow failed");
            goto done;
        }
        res->flow_calls++;
        F = value;
        saturated = 0;
        for (igraph_integer_t i = 0; i < igraph_vector_int_size(&cut); i++)
            saturated += VECTOR(cut)[i] >= T + E;
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
    /* bottlenecks: servers saturated by local work in the minimum cut */
    for (igraph_integer_t i = 0; i < igraph_vector_int_size(&cut); i++)
        if (VECTOR(cut)[i] >= T + E) {
            hta_bottleneck *nb = realloc(
                res->bottle, (size_t)(res->nbottle + 1) * sizeof *nb);
            if (!nb) {
                st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                  "out of memory");
                goto done;
            }
            res->bottle = nb;
            res->bottle[res->nbottle++] =
                (hta_bottleneck){1, VECTOR(cut)[i] - T - E, 0.0};
        }
    if (opts->decomposition) {
        double *busy = calloc((size_t)M, sizeof *busy);
        pooled *p = malloc(((size_t)T + 1) * sizeof *p);
        int64_t np = 0, capd = 0;
        int ok = busy && p;
        for (int64_t L = 0; L < T && ok; L++) {
            double local = 0;
            for (int64_t i = c->off[L]; i < c->off[L + 1] && ok; i++) {
                double v = VECTOR(flow)[T + i];
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
    if (have_graph)
        igraph_destroy(&g);
    igraph_vector_int_destroy(&el);
    igraph_vector_int_destroy(&cut);
    igraph_vector_destroy(&cap);
    igraph_vector_destroy(&flow);
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
    if (m == HTA_CAP_PLAIN && (double)c->T * c->M > 5e6)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the plain LP has one column per (type, "
                            "server): %lld x %ld is too large",
                            (long long)c->T, (long)c->M);
    res->method = m;
    hta_status st;
    if (m == HTA_CAP_FLOW) {
        st = flow_solve(c, opts, res, d);
    } else {
        lp_ctx x = {c, opts, res, m == HTA_CAP_PLAIN};
        st = hta_glpk_guard(lp_solve, &x, opts->verbose, d);
    }
    if (st != HTA_OK) {
        hta_capacity_result_free(res);
        return st;
    }
    res->status = fabs(res->rho - 1.0) <= HTA_CAP_TOL ? HTA_CAP_BOUNDARY :
                  res->rho < 1.0                    ? HTA_CAP_INSIDE :
                                                      HTA_CAP_OUTSIDE;
    return HTA_OK;
}
