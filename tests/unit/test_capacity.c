/* Capacity region: hand-derived clusters, the flow method against the LP
 * (two levels: Dinic; N levels: generalized flows), the aggregated LP
 * against the plain one (N levels), the decomposition, and the 680 of
 * Wang et al. */
#include "helpers.h"

#include <math.h>

#include "hta/capacity.h"
#include "hta/gen.h"
#include "hta/levels.h"

static hta_cluster *make(int32_t M, const double *rates, int nrates,
                         const int32_t *topo, int ntopo, int64_t T,
                         const double *lambda, const int64_t *off,
                         const int32_t *srv)
{
    double *l = malloc((size_t)T * sizeof *l);
    int64_t *o = malloc(((size_t)T + 1) * sizeof *o);
    int32_t *s = malloc((size_t)off[T] * sizeof *s + 1);
    memcpy(l, lambda, (size_t)T * sizeof *l);
    memcpy(o, off, ((size_t)T + 1) * sizeof *o);
    memcpy(s, srv, (size_t)off[T] * sizeof *s);
    hta_cluster *c = NULL;
    hta_diag d;
    if (hta_cluster_build(M, rates, nrates, topo, ntopo, T, l, o, s, &c, &d))
        fail_msg("make: %s", d.msg);
    return c;
}

static double solve(const hta_cluster *c, hta_capacity_method m,
                    int decomposition, hta_capacity_result *keep)
{
    hta_capacity_opts o = {m, 0, decomposition, 0, NULL, NULL, NULL};
    hta_capacity_result res;
    hta_diag d;
    if (hta_capacity_solve(c, &o, &res, &d) != HTA_OK)
        fail_msg("capacity: %s", d.msg);
    double rho = res.rho;
    if (keep)
        *keep = res;
    else
        hta_capacity_result_free(&res);
    return rho;
}

/* Wang et al.'s set-up in small: D data servers with one type each, M - D
 * without data.  The boundary: total = D*alpha + (M-D)*gamma. */
static hta_cluster *wang(int32_t M, int32_t D, double total)
{
    double rates[] = {0.8, 0.2};
    double *l = malloc((size_t)D * sizeof *l);
    int64_t *o = malloc(((size_t)D + 1) * sizeof *o);
    int32_t *s = malloc((size_t)D * sizeof *s);
    for (int32_t i = 0; i < D; i++)
        l[i] = total / D, o[i] = i, s[i] = i;
    o[D] = D;
    hta_cluster *c = NULL;
    hta_diag d;
    assert_int_equal(
        hta_cluster_build(M, rates, 2, NULL, 0, D, l, o, s, &c, &d), HTA_OK);
    return c;
}

static void test_hand_clusters(void **state)
{
    (void)state;
    /* 4 servers; types 0.4 on {0}, 0.4 on {1}, 0.1 on {0,1}; alpha 0.8,
     * gamma 0.2.  By symmetry servers 0 and 1 run w = 0.8 rho locally and
     * the rest, 0.9 - 2w, runs remotely on servers 2 and 3 within 2 rho
     * * 0.2: rho = 0.45. */
    double rates[] = {0.8, 0.2}, lambda[] = {0.4, 0.4, 0.1};
    int64_t off[] = {0, 1, 2, 4};
    int32_t srv[] = {0, 1, 0, 1};
    hta_cluster *c = make(4, rates, 2, NULL, 0, 3, lambda, off, srv);
    for (int m = HTA_CAP_LP; m <= HTA_CAP_PLAIN; m++)
        assert_true(fabs(solve(c, (hta_capacity_method)m, 0, NULL) - 0.45) <
                    1e-9);
    hta_cluster_free(c);
    /* boundary, inside, outside around 4*0.8 + 1*0.2 = 3.4 */
    static const double totals[] = {3.4, 1.7, 6.8};
    static const hta_capacity_status want[] = {
        HTA_CAP_BOUNDARY, HTA_CAP_INSIDE, HTA_CAP_OUTSIDE};
    for (int i = 0; i < 3; i++) {
        c = wang(5, 4, totals[i]);
        hta_capacity_result res;
        double rho = solve(c, HTA_CAP_LP, 0, &res);
        assert_int_equal(res.status, want[i]);
        assert_true(fabs(rho - totals[i] / 3.4) < 1e-9);
        hta_capacity_result_free(&res);
        assert_true(fabs(solve(c, HTA_CAP_FLOW, 0, NULL) - rho) < 1e-9);
        hta_cluster_free(c);
    }
    /* Three levels by hand: racks of 2; one type of rate 1 on server 0;
     * rates 1, 0.5, 0.25 on 4 servers.  Server 0 runs x locally, server 1
     * (same rack) y at 0.5, servers 2, 3 z each at 0.25: x = rho, y =
     * 0.5 rho, z = 0.25 rho, x + y + 2z = 1: rho = 1/2. */
    double r3[] = {1, 0.5, 0.25}, l3[] = {1};
    int64_t o3[] = {0, 1};
    int32_t s3[] = {0}, t3[] = {2};
    c = make(4, r3, 3, t3, 1, 1, l3, o3, s3);
    assert_true(fabs(solve(c, HTA_CAP_LP, 0, NULL) - 0.5) < 1e-9);
    assert_true(fabs(solve(c, HTA_CAP_PLAIN, 0, NULL) - 0.5) < 1e-9);
    hta_cluster_free(c);
}

/* Wang et al., Section V: 1000 machines, data on 800, the boundary at a
 * total rate of 800*0.8 + 200*0.2 = 680. */
static void test_wang_680(void **state)
{
    (void)state;
    hta_cluster *c = wang(1000, 800, 680);
    hta_capacity_result res;
    assert_true(fabs(solve(c, HTA_CAP_FLOW, 0, &res) - 1.0) < 1e-9);
    assert_int_equal(res.status, HTA_CAP_BOUNDARY);
    hta_capacity_result_free(&res);
    assert_true(fabs(solve(c, HTA_CAP_LP, 0, &res) - 1.0) < 1e-9);
    assert_int_equal(res.status, HTA_CAP_BOUNDARY);
    hta_capacity_result_free(&res);
    hta_cluster_free(c);
    c = wang(1000, 800, 679);
    assert_true(solve(c, HTA_CAP_FLOW, 0, NULL) < 1.0 - 1e-4);
    hta_cluster_free(c);
    c = wang(1000, 800, 681);
    assert_true(solve(c, HTA_CAP_FLOW, 0, NULL) > 1.0 + 1e-4);
    hta_cluster_free(c);
}

static hta_cluster *random_cluster(hta_rng *r, int32_t M, int64_t T, int k,
                                   int nrates, const int32_t *topo, int ntopo,
                                   double skew)
{
    double rates[HTA_MAX_LEVELS];
    rates[0] = 1.0;
    for (int i = 1; i < nrates; i++)
        rates[i] = rates[i - 1] * (0.2 + 0.7 * hta_rng_unit(r));
    double *l = malloc((size_t)T * sizeof *l);
    int64_t *o = malloc(((size_t)T + 1) * sizeof *o);
    int32_t *s = malloc((size_t)T * (size_t)k * sizeof *s);
    int64_t n = 0;
    for (int64_t L = 0; L < T; L++) {
        o[L] = n;
        int want = 1 + (int)hta_rng_below(r, (uint64_t)k);
        for (int j = 0; j < want; j++) {
            /* skewed: low ids are hot */
            int32_t x = (int32_t)(pow(hta_rng_unit(r), skew) * M);
            int dup = 0;
            for (int64_t i = o[L]; i < n; i++)
                dup |= s[i] == x;
            if (!dup)
                s[n++] = x;
        }
        l[L] = hta_rng_unit(r) * 2.0 * (double)M / (double)T;
    }
    o[T] = n;
    hta_cluster *c = NULL;
    hta_diag d;
    if (hta_cluster_build(M, rates, nrates, topo, ntopo, T, l, o, s, &c, &d))
        fail_msg("random_cluster: %s", d.msg);
    return c;
}

/* Two levels: Newton on max flows equals the LP to 1e-6. */
static void test_flow_equals_lp(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 61);
    for (int i = 0; i < 80; i++) {
        int32_t M = 2 + (int32_t)hta_rng_below(&r, 60);
        int64_t T = 1 + (int64_t)hta_rng_below(&r, 200);
        hta_cluster *c = random_cluster(&r, M, T, 3, 2, NULL, 0,
                                        1.0 + 3.0 * hta_rng_unit(&r));
        double lp = solve(c, HTA_CAP_LP, 0, NULL);
        double fl = solve(c, HTA_CAP_FLOW, 0, NULL);
        if (fabs(lp - fl) > 1e-6 * fmax(1.0, lp))
            fail_msg("cluster %d: LP %.12g, flow %.12g", i, lp, fl);
        hta_cluster_free(c);
    }
}

/* N levels: the aggregated LP equals the plain one; the decomposition
 * adds up and keeps every utilisation within rho*. */
static void check_decomposition(const hta_cluster *c,
                                const hta_capacity_result *res)
{
    double *sum = calloc((size_t)c->T, sizeof *sum);
    double *busy = calloc((size_t)c->M, sizeof *busy);
    for (int64_t i = 0; i < res->ndec; i++) {
        int64_t L = res->dec_type[i];
        int32_t s = res->dec_server[i];
        int lv = hta_capacity_level(c, L, s);
        assert_int_equal(lv, res->dec_level[i]);
        assert_true(res->dec_rate[i] > 0);
        sum[L] += res->dec_rate[i];
        busy[s] += res->dec_rate[i] / c->rate[lv - 1];
    }
    for (int64_t L = 0; L < c->T; L++)
        assert_true(fabs(sum[L] - c->lambda[L]) <=
                    1e-7 * fmax(1.0, c->lambda[L]));
    for (int32_t s = 0; s < c->M; s++)
        if (busy[s] > res->rho * (1 + 1e-7) + 1e-9)
            fail_msg("server %ld busy %.12g > rho %.12g", (long)s, busy[s],
                     res->rho);
    free(sum);
    free(busy);
}

static void test_aggregated_equals_plain(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 62);
    for (int i = 0; i < 60; i++) {
        int ntopo = (int)hta_rng_below(&r, 3);
        int32_t topo[2] = {2 + (int32_t)hta_rng_below(&r, 4),
                           2 + (int32_t)hta_rng_below(&r, 3)};
        int32_t M = 2 + (int32_t)hta_rng_below(&r, 40);
        int64_t T = 1 + (int64_t)hta_rng_below(&r, 30);
        hta_cluster *c = random_cluster(&r, M, T, 3, 2 + ntopo, topo, ntopo,
                                        1.0 + 2.0 * hta_rng_unit(&r));
        hta_capacity_result agg, pl;
        double a = solve(c, HTA_CAP_LP, 1, &agg);
        double p = solve(c, HTA_CAP_PLAIN, 1, &pl);
        if (fabs(a - p) > 1e-7 * fmax(1.0, a))
            fail_msg("cluster %d (%d levels): aggregated %.12g, plain %.12g",
                     i, 2 + ntopo, a, p);
        check_decomposition(c, &agg);
        check_decomposition(c, &pl);
        hta_capacity_result fl;
        solve(c, HTA_CAP_FLOW, 1, &fl);
        check_decomposition(c, &fl);
        hta_capacity_result_free(&fl);
        hta_capacity_result_free(&agg);
        hta_capacity_result_free(&pl);
        hta_cluster_free(c);
    }
}

/* N levels: Newton on generalized max flows (flow on three levels or
 * more, gflow on any) equals the aggregated LP to 1e-9, and its
 * decomposition adds up within rho*; on two levels gflow equals the
 * Dinic flow.  Random clusters of 2..6 levels: rates falling by factors
 * of 0.2..0.9, topologies of 2..4 per level, skewed placements (low ids
 * hot), some types with no load. */
static void test_gflow_equals_lp(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 64);
    int compared = 0;
    for (int i = 0; i < 300; i++) {
        int ntopo = (int)hta_rng_below(&r, 5);
        int32_t topo[4];
        for (int k = 0; k < ntopo; k++)
            topo[k] = 2 + (int32_t)hta_rng_below(&r, 3);
        int32_t M = 1 + (int32_t)hta_rng_below(&r, 80);
        int64_t T = 1 + (int64_t)hta_rng_below(&r, 150);
        hta_cluster *c = random_cluster(&r, M, T, 1 + (int)hta_rng_below(&r, 4),
                                        2 + ntopo, topo, ntopo,
                                        1.0 + 3.0 * hta_rng_unit(&r));
        if (i % 7 == 0)
            c->lambda[hta_rng_below(&r, (uint64_t)T)] = 0;
        double lp = solve(c, HTA_CAP_LP, 0, NULL);
        hta_capacity_result g, f;
        double gf = solve(c, HTA_CAP_GFLOW, 1, &g);
        double fl = solve(c, HTA_CAP_FLOW, 1, &f);
        if (fabs(lp - gf) > 1e-9 * fmax(1e-300, lp) ||
            fabs(lp - fl) > 1e-9 * fmax(1e-300, lp))
            fail_msg("cluster %d (%d levels, %ld servers, %lld types): LP "
                     "%.17g, gflow %.17g, flow %.17g",
                     i, c->levels, (long)M, (long long)T, lp, gf, fl);
        check_decomposition(c, &g);
        check_decomposition(c, &f);
        assert_true(g.flow_calls >= 1);
        hta_capacity_result_free(&g);
        hta_capacity_result_free(&f);
        hta_cluster_free(c);
        compared++;
    }
    assert_int_equal(compared, 300);
}

/* The GB-PANDAS set-up (hta gen cluster gbpandas) in small, three loads:
 * generalized flows equal the LP to 1e-9, inside, near and outside the
 * region. */
static void test_gflow_gbpandas(void **state)
{
    (void)state;
    static const double loads[] = {0.5, 0.95, 1.3};
    for (int i = 0; i < 3; i++) {
        hta_gen_cluster_params p;
        hta_gen_cluster_defaults(&p, HTA_CLUSTER_GBPANDAS);
        p.servers = 400;
        p.types = 400;
        p.topo[0] = 10;
        p.topo[1] = 4;
        p.total = loads[i] * 400;
        p.seed = (uint64_t)(7 + i);
        hta_cluster *c = NULL;
        hta_diag d;
        assert_int_equal(hta_gen_cluster(&p, &c, &d), HTA_OK);
        double lp = solve(c, HTA_CAP_LP, 0, NULL);
        double gf = solve(c, HTA_CAP_FLOW, 0, NULL);
        if (fabs(lp - gf) > 1e-9 * lp)
            fail_msg("load %g: LP %.17g, flow %.17g", loads[i], lp, gf);
        hta_cluster_free(c);
    }
}


/* The bottleneck against an exhaustive oracle: the hot servers are the
 * smallest X minimising c|X| + sum of lambda_L over the types with a local
 * server outside X (the cut of the local-work network with server
 * capacity c = alpha_1 rho* (1 - 1e-7)); minimisers of this submodular
 * function are closed under intersection, so the smallest one is the
 * intersection of all of them.  Every method must report the cluster and
 * exactly that set. */
static void oracle_hot(const hta_cluster *c, double rho, char *hot)
{
    double cap = c->rate[0] * rho * (1 - 1e-7), best = INFINITY;
    uint32_t inter = 0;
    for (uint32_t X = 0; X < (1u << c->M); X++) {
        double v = cap * __builtin_popcount(X);
        for (int64_t L = 0; L < c->T; L++) {
            int inside = 1;
            for (int64_t i = c->off[L]; i < c->off[L + 1]; i++)
                inside &= (X >> c->srv[i]) & 1u;
            if (!inside)
                v += c->lambda[L];
        }
        double tol = 1e-9 * fmax(1.0, fabs(v));
        if (v < best - tol)
            best = v, inter = X;
        else if (fabs(v - best) <= tol)
            inter &= X;
    }
    for (int32_t s = 0; s < c->M; s++)
        hot[s] = (char)((inter >> s) & 1u);
}

static void check_bottleneck(const hta_cluster *c,
                             const hta_capacity_result *res, const char *hot,
                             int i, const char *method)
{
    assert_true(res->nbottle >= 1);
    assert_int_equal(res->bottle[0].level, c->levels);
    int64_t count = 0;
    for (int32_t s = 0; s < c->M; s++)
        count += hot[s];
    if (res->nbottle != count + 1)
        fail_msg("cluster %d, %s: %lld bottleneck servers, oracle %lld", i,
                 method, (long long)res->nbottle - 1, (long long)count);
    for (int64_t j = 1; j < res->nbottle; j++) {
        assert_int_equal(res->bottle[j].level, 1);
        if (!hot[res->bottle[j].group])
            fail_msg("cluster %d, %s: server %lld is not hot", i, method,
                     (long long)res->bottle[j].group);
    }
}

static void test_bottleneck_oracle(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 63);
    for (int i = 0; i < 150; i++) {
        int ntopo = (int)hta_rng_below(&r, 2);
        int32_t topo[1] = {2 + (int32_t)hta_rng_below(&r, 3)};
        int32_t M = 2 + (int32_t)hta_rng_below(&r, 9);
        int64_t T = 1 + (int64_t)hta_rng_below(&r, 12);
        hta_cluster *c = random_cluster(&r, M, T, 3, 2 + ntopo, topo, ntopo,
                                        1.0 + 3.0 * hta_rng_unit(&r));
        hta_capacity_result lp, pl;
        double rho = solve(c, HTA_CAP_LP, 0, &lp);
        solve(c, HTA_CAP_PLAIN, 0, &pl);
        char hot[16];
        oracle_hot(c, rho, hot);
        check_bottleneck(c, &lp, hot, i, "lp");
        check_bottleneck(c, &pl, hot, i, "plain");
        hta_capacity_result fl, gf;
        solve(c, HTA_CAP_FLOW, 0, &fl);
        check_bottleneck(c, &fl, hot, i, "flow");
        solve(c, HTA_CAP_GFLOW, 0, &gf);
        check_bottleneck(c, &gf, hot, i, "gflow");
        hta_capacity_result_free(&fl);
        hta_capacity_result_free(&gf);
        hta_capacity_result_free(&lp);
        hta_capacity_result_free(&pl);
        hta_cluster_free(c);
    }
}


/* Types on a few servers of a cluster that declares many more: whole
 * racks and pods no type touches, touched groups with untouched servers
 * beside their touched ones, a short last group.  The methods work on
 * the touched servers and groups and count the rest (touch.h); the plain
 * LP, one column per (type, server) over every declared server, is the
 * oracle of rho*, and every decomposition keeps each declared server
 * within rho*. */
static void test_untouched(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 65);
    for (int i = 0; i < 120; i++) {
        int ntopo = (int)hta_rng_below(&r, 4);
        int32_t topo[3];
        for (int k = 0; k < ntopo; k++)
            topo[k] = 2 + (int32_t)hta_rng_below(&r, 5);
        int32_t M = 20 + (int32_t)hta_rng_below(&r, 400);
        int64_t T = 1 + (int64_t)hta_rng_below(&r, 12);
        int nhot = 1 + (int)hta_rng_below(&r, 6);
        int32_t hot[6];
        for (int k = 0; k < nhot; k++)
            hot[k] = (int32_t)hta_rng_below(&r, (uint64_t)M);
        double rates[HTA_MAX_LEVELS];
        rates[0] = 1.0;
        for (int k = 1; k < 2 + ntopo; k++)
            rates[k] = rates[k - 1] * (0.2 + 0.7 * hta_rng_unit(&r));
        double *l = malloc((size_t)T * sizeof *l);
        int64_t *o = malloc(((size_t)T + 1) * sizeof *o);
        int32_t *sv = malloc((size_t)T * 6 * sizeof *sv);
        int64_t n = 0;
        /* loads from far inside to outside the region */
        double scale = (0.05 + 1.5 * hta_rng_unit(&r)) * (double)M / (double)T;
        for (int64_t L = 0; L < T; L++) {
            o[L] = n;
            for (int k = 0; k < nhot; k++) {
                int dup = 0;
                for (int64_t j = o[L]; j < n; j++)
                    dup |= sv[j] == hot[k];
                if (!dup && (k == 0 || hta_rng_below(&r, 2)))
                    sv[n++] = hot[k];
            }
            l[L] = scale * hta_rng_unit(&r);
        }
        o[T] = n;
        hta_cluster *c = NULL;
        hta_diag d;
        if (hta_cluster_build(M, rates, 2 + ntopo, topo, ntopo, T, l, o, sv,
                              &c, &d))
            fail_msg("cluster %d: %s", i, d.msg);
        hta_capacity_result pl;
        double p = solve(c, HTA_CAP_PLAIN, 1, &pl);
        check_decomposition(c, &pl);
        hta_capacity_method ms[] = {HTA_CAP_LP, HTA_CAP_FLOW, HTA_CAP_GFLOW};
        for (int k = 0; k < 3; k++) {
            hta_capacity_result res;
            double v = solve(c, ms[k], 1, &res);
            if (fabs(v - p) > 1e-7 * fmax(1.0, p))
                fail_msg("cluster %d (%ld servers, %d levels, method %d): "
                         "%.12g, plain LP %.12g",
                         i, (long)M, c->levels, (int)ms[k], v, p);
            check_decomposition(c, &res);
            /* the same hot servers as the plain LP's */
            assert_int_equal(res.nbottle, pl.nbottle);
            for (int64_t j = 0; j < res.nbottle; j++)
                assert_int_equal(res.bottle[j].group, pl.bottle[j].group);
            hta_capacity_result_free(&res);
        }
        hta_capacity_result_free(&pl);
        hta_cluster_free(c);
    }
}

/* The level of server s for a block on servers rep[0..k), by the rack
 * path strings of depth dep (a path's first dep - (n - 2) names are its
 * level-n group): the oracle of the cluster's levels. */
/* The length of p's first `names` names ("/p0/r3", 1: 3). */
static size_t prefix_len(const char *p, int names)
{
    size_t j = 1;
    for (int seen = 0; p[j]; j++)
        if (p[j] == '/' && ++seen == names)
            return j;
    return j;
}

static int path_level(char paths[][32], int dep, const int32_t *rep,
                      int64_t k, int32_t s)
{
    int best = dep + 2;
    for (int64_t i = 0; i < k; i++) {
        if (rep[i] == s)
            return 1;
        for (int n = 2; n < best; n++) {
            /* the first dep - (n - 2) names of each path */
            size_t a = prefix_len(paths[s], dep - (n - 2)),
                   b = prefix_len(paths[rep[i]], dep - (n - 2));
            if (a == b && strncmp(paths[s], paths[rep[i]], a) == 0) {
                best = n;
                break;
            }
        }
    }
    return best;
}

/* capacity --from-instance on an N-level instance: the instance's own
 * groups (racks of any size, any server in any rack), the same levels as
 * the path strings say, every method equal to the plain LP (which uses
 * no group, only each pair's level); racks that are runs of K servers
 * give the rho* of the two-level instance with topology K. */
static void test_instance_groups(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 66);
    for (int i = 0; i < 150; i++) {
        int dep = 1 + i % 2, regular = i % 3 == 0 && dep == 1;
        hta_instance *inst = random_instance(&r, 30, 24, 3, COST_CONSTANT);
        int32_t n = inst->n_declared, K = 1 + (int32_t)hta_rng_below(&r, 4);
        int racks = 1 + (int)hta_rng_below(&r, 5);
        char(*paths)[32] = malloc((size_t)n * sizeof *paths);
        for (int32_t s = 0; s < n; s++) {
            int k = regular ? (int)(s / K) : (int)hta_rng_below(&r, racks);
            if (dep == 1)
                snprintf(paths[s], 32, "/r%d", k);
            else
                snprintf(paths[s], 32, "/p%d/r%d", k % 2, k);
            assert_int_equal(hta_instance_set_name(inst, 'r', s, paths[s], NULL),
                             HTA_OK);
        }
        hta_wrem w[2] = {inst->wrem, inst->wrem};
        hta_diag d;
        hta_instance two = *inst; /* the two-level view (levels.h) */
        if (hta_instance_set_levels(inst, w, dep, &d) != HTA_OK)
            fail_msg("instance %d: %s", i, d.msg);
        double rates[HTA_MAX_LEVELS] = {1.0};
        for (int k = 1; k < dep + 2; k++)
            rates[k] = rates[k - 1] * (0.2 + 0.7 * hta_rng_unit(&r));
        double rate = (0.05 + 1.5 * hta_rng_unit(&r)) * n / inst->m;
        hta_cluster *c = NULL;
        if (hta_cluster_from_instance(inst, rate, rates, dep + 2, NULL, 0, &c,
                                      &d) != HTA_OK)
            fail_msg("instance %d: %s", i, d.msg);
        assert_int_equal(c->levels, dep + 2);
        for (int64_t L = 0; L < c->T; L++)
            for (int32_t s = 0; s < c->M; s++)
                assert_int_equal(hta_capacity_level(c, L, s),
                                 path_level(paths, dep, c->srv + c->off[L],
                                            c->off[L + 1] - c->off[L], s));
        hta_capacity_result pl;
        double p = solve(c, HTA_CAP_PLAIN, 1, &pl);
        check_decomposition(c, &pl);
        hta_capacity_method ms[] = {HTA_CAP_LP, HTA_CAP_FLOW, HTA_CAP_GFLOW};
        for (int k = 0; k < 3; k++) {
            hta_capacity_result res;
            double v = solve(c, ms[k], 1, &res);
            if (fabs(v - p) > 1e-7 * fmax(1.0, p))
                fail_msg("instance %d (%d levels, method %d): %.12g, plain "
                         "LP %.12g",
                         i, c->levels, (int)ms[k], v, p);
            check_decomposition(c, &res);
            hta_capacity_result_free(&res);
        }
        if (regular) {
            hta_cluster *t = NULL;
            two.levels = 2;
            if (hta_cluster_from_instance(&two, rate, rates, 3, &K, 1, &t,
                                          &d) != HTA_OK)
                fail_msg("instance %d: %s", i, d.msg);
            double q = solve(t, HTA_CAP_PLAIN, 0, NULL);
            if (fabs(q - p) > 1e-7 * fmax(1.0, p))
                fail_msg("instance %d: its racks %.12g, topology %d %.12g",
                         i, p, (int)K, q);
            hta_cluster_free(t);
        }
        hta_capacity_result_free(&pl);
        hta_cluster_free(c);
        hta_instance_free(inst);
        free(paths);
    }
}

/* Homogeneity: rho*(s*lambda, r*alpha) = (s/r) rho*(lambda, alpha), with
 * the same bottleneck, for every method, whatever the units (a fuzzer
 * found the LP answering 0 for tiny rates before the normalisation). */
static void test_scaling(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 64);
    static const double scales[][2] = {{1e-200, 1}, {1e200, 1e3},
                                       {1e-5, 1e-4}, {3.5, 0.25}};
    for (int i = 0; i < 40; i++) {
        int ntopo = (int)hta_rng_below(&r, 2);
        int32_t topo[1] = {2 + (int32_t)hta_rng_below(&r, 3)};
        int32_t M = 2 + (int32_t)hta_rng_below(&r, 20);
        int64_t T = 1 + (int64_t)hta_rng_below(&r, 20);
        hta_cluster *c = random_cluster(&r, M, T, 3, 2 + ntopo, topo, ntopo,
                                        1.0 + 2.0 * hta_rng_unit(&r));
        const double *sc = scales[i % 4];
        double *l = malloc((size_t)T * sizeof *l);
        int64_t *o = malloc(((size_t)T + 1) * sizeof *o);
        int32_t *sv = malloc((size_t)c->off[T] * sizeof *sv + 1);
        double rates[HTA_MAX_LEVELS];
        for (int64_t L = 0; L < T; L++)
            l[L] = c->lambda[L] * sc[0];
        memcpy(o, c->off, ((size_t)T + 1) * sizeof *o);
        memcpy(sv, c->srv, (size_t)c->off[T] * sizeof *sv);
        for (int k = 0; k < c->levels; k++)
            rates[k] = c->rate[k] * sc[1];
        hta_cluster *s2 = NULL;
        hta_diag d;
        assert_int_equal(hta_cluster_build(M, rates, c->levels, c->topo,
                                           c->ntopo, T, l, o, sv, &s2, &d),
                         HTA_OK);
        hta_capacity_method methods[] = {HTA_CAP_LP, HTA_CAP_PLAIN,
                                          HTA_CAP_FLOW, HTA_CAP_GFLOW};
        for (int k = 0; k < 4; k++) {
            hta_capacity_result a, b;
            double ra = solve(c, methods[k], 0, &a);
            double rb = solve(s2, methods[k], 0, &b);
            double want = ra * sc[0] / sc[1];
            if (fabs(rb - want) > 1e-9 * fabs(want))
                fail_msg("cluster %d, method %d: rho %.17g, scaled %.17g, "
                         "want %.17g",
                         i, k, ra, rb, want);
            assert_int_equal(a.nbottle, b.nbottle);
            for (int64_t j = 0; j < a.nbottle; j++)
                assert_int_equal(a.bottle[j].group, b.bottle[j].group);
            hta_capacity_result_free(&a);
            hta_capacity_result_free(&b);
        }
        hta_cluster_free(c);
        hta_cluster_free(s2);
    }
}

static void test_levels(void **state)
{
    (void)state;
    /* 12 servers, racks of 3, pods of 2 racks: server 7 is in rack 2 and
     * pod 1 */
    double rates[] = {4, 3, 2, 1}, lambda[] = {1};
    int64_t off[] = {0, 1};
    int32_t srv[] = {7}, topo[] = {3, 2};
    hta_cluster *c = make(12, rates, 4, topo, 2, 1, lambda, off, srv);
    assert_int_equal(hta_cluster_group(c, 7, 2), 2);
    assert_int_equal(hta_cluster_group(c, 7, 3), 1);
    assert_int_equal(hta_cluster_groups(c, 2), 4);
    assert_int_equal(hta_cluster_groups(c, 3), 2);
    assert_int_equal(hta_capacity_level(c, 0, 7), 1);
    assert_int_equal(hta_capacity_level(c, 0, 6), 2);
    assert_int_equal(hta_capacity_level(c, 0, 9), 3);
    assert_int_equal(hta_capacity_level(c, 0, 0), 4);
    hta_cluster_free(c);
}

static void test_from_instance(void **state)
{
    (void)state;
    hta_instance *inst = parse_text("hta-instance 1\ntasks 4\nservers 3\n"
                                    "w_loc 1\nw_rem 3\ntask 0 0 1\n"
                                    "task 1 1 0\ntask 2 2\ntask 3 0 1\n");
    double rates[] = {1, 0.5};
    hta_cluster *c = NULL;
    hta_diag d;
    assert_int_equal(
        hta_cluster_from_instance(inst, 0.25, rates, 2, NULL, 0, &c, &d),
        HTA_OK);
    assert_int_equal(c->T, 2); /* {0,1} three times, {2} once */
    double total = 0, big = 0;
    for (int64_t L = 0; L < c->T; L++) {
        total += c->lambda[L];
        big = fmax(big, c->lambda[L]);
    }
    assert_true(total == 1.0 && big == 0.75);
    hta_cluster_free(c);
    hta_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_clusters),
        cmocka_unit_test(test_wang_680),
        cmocka_unit_test(test_flow_equals_lp),
        cmocka_unit_test(test_aggregated_equals_plain),
        cmocka_unit_test(test_gflow_equals_lp),
        cmocka_unit_test(test_gflow_gbpandas),
        cmocka_unit_test(test_bottleneck_oracle),
        cmocka_unit_test(test_untouched),
        cmocka_unit_test(test_instance_groups),
        cmocka_unit_test(test_scaling),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_from_instance),
    };
    return cmocka_run_group_tests_name("capacity", tests, NULL, NULL);
}
