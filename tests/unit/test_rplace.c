/* ReduceTask placement (Tan et al., INFOCOM 2013) against independent
 * oracles: H(v) by all pairs, the threshold rule and its value against a
 * dynamic program over every set of slots, the receding-horizon rule
 * against brute force over every subset, greedy and random on one job
 * in closed form, the queue against M/M/1 and Little's law, and common
 * random numbers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

#include "hta/num.h"
#include "hta/rng.h"
#include "hta/rplace.h"
#include "rplace/optimal.h"


/* The cost of the slot ranked i (from 0). */
static double slot_cost(const hta_slots *s, int64_t i)
{
    return s->rcost[hta_slots_run_of(s, i)];
}

static hta_slots *slots_from(const char *text)
{
    char path[] = "/tmp/hta-rplace-XXXXXX";
    temp_text(path, text);
    hta_slots *s = NULL;
    hta_diag d;
    hta_status st = hta_slots_parse(path, &s, &d);
    remove(path);
    if (st != HTA_OK)
        fail_msg("%s", d.msg);
    return s;
}

/* Slots of equal cost are one run, whatever their number and lines:
 * memory follows the lines (10^8 slots in 2 runs). */
static void test_runs(void **state)
{
    (void)state;
    hta_slots *s =
        slots_from("hta-slots 1\nslot 3 99999993\nslot 1 2\nslot 3 5\n");
    assert_int_equal(s->r, 100000000);
    assert_int_equal(s->nrun, 2);
    assert_true(s->rcost[0] == 1 && s->rcost[1] == 3);
    assert_int_equal(s->rend[0], 2);
    assert_int_equal(s->rend[1], 100000000);
    assert_int_equal(hta_slots_run_of(s, 0), 0);
    assert_int_equal(hta_slots_run_of(s, 1), 0);
    assert_int_equal(hta_slots_run_of(s, 2), 1);
    assert_int_equal(hta_slots_run_of(s, 99999999), 1);
    hta_slots_free(s);
    /* nodes of equal H merge too: a rack of 4 nodes, two of 2 */
    s = slots_from("hta-slots 1\nnode a 2 r1\nnode b 2 r1\nnode c 2 r1\n"
                   "node d 2 r1\nnode e 1 r2\nnode f 1 r2\nnode g 1 r3\n"
                   "node h 1 r3\n");
    assert_int_equal(s->r, 12);
    assert_int_equal(s->nrun, 2); /* H 3 + 4 * 2 (rack of 4), 1 + 6 * 2 */
    assert_true(s->rcost[0] == 11 && s->rcost[1] == 13);
    assert_int_equal(s->rend[0], 8);
    hta_slots_free(s);
}

/* The tree of the paper's Fig. 1 as far as its two quoted values fix it
 * (the figure itself was not reachable): a core over two pods; pod 1 has
 * rack 1 (A, B, C, D) and rack 2 (E, F), pod 2 rack 3 (G, H); a hop is a
 * level climbed to the lowest common switch.  H(A) = 3*1 + 2*2 + 2*3 =
 * 13, H(G) = 1*1 + 6*3 = 19. */
static void test_fig1(void **state)
{
    (void)state;
    hta_slots *s = slots_from("hta-slots 1\n"
                              "node A 2 r1 p1\nnode B 2 r1 p1\n"
                              "node C 2 r1 p1\nnode D 2 r1 p1\n"
                              "node E 2 r2 p1\nnode F 2 r2 p1\n"
                              "node G 2 r3 p2\nnode H 2 r3 p2\n");
    static const struct {
        const char *name;
        double H;
    } want[] = {{"A", 13}, {"B", 13}, {"C", 13}, {"D", 13},
                {"E", 15}, {"F", 15}, {"G", 19}, {"H", 19}};
    for (int i = 0; i < 8; i++) {
        int64_t v = hta_slots_find(s, want[i].name);
        assert_true(v >= 0);
        assert_true(s->H[v] == want[i].H);
    }
    assert_int_equal(s->r, 16);
    assert_true(slot_cost(s, 0) == 13 && slot_cost(s, 15) == 19);
    assert_int_equal(hta_slots_find(s, "Z"), -1);
    hta_slots_free(s);
    /* the same tree counting links (2 per level) doubles every H */
    s = slots_from("hta-slots 1\nhops 2 4 6\n"
                   "node A 1 r1 p1\nnode B 1 r1 p1\n"
                   "node C 1 r1 p1\nnode D 1 r1 p1\n"
                   "node E 1 r2 p1\nnode F 1 r2 p1\n"
                   "node G 1 r3 p2\nnode H 1 r3 p2\n");
    assert_true(s->H[hta_slots_find(s, "A")] == 26);
    assert_true(s->H[hta_slots_find(s, "G")] == 38);
    hta_slots_free(s);
}

/* H(v) of random trees against the sum over all pairs of the distance
 * defined by the lowest common group; the slot costs are the H values
 * repeated by the slot counts, sorted. */
static void test_h_pairs(void **state)
{
    (void)state;
    hta_rng g;
    hta_rng_seed(&g, 11);
    for (int rep = 0; rep < 200; rep++) {
        int L = (int)hta_rng_below(&g, 4), N = 1 + (int)hta_rng_below(&g, 40);
        int grp[40][4], nslot[40];
        double hops[5];
        char text[8192];
        int len = snprintf(text, sizeof text, "hta-slots 1\nhops");
        for (int j = 0; j <= L; j++) {
            hops[j] = (j ? hops[j - 1] : 0) + (double)hta_rng_below(&g, 3) +
                      (j ? 0 : 1);
            len += snprintf(text + len, sizeof text - (size_t)len, " %g",
                            hops[j]);
        }
        len += snprintf(text + len, sizeof text - (size_t)len, "\n");
        for (int v = 0; v < N; v++) {
            /* group at level j = a random id, the parent a function of it
             * (so every group has one parent): id_{j+1} = id_j / 2 */
            int id = (int)hta_rng_below(&g, 16);
            nslot[v] = (int)hta_rng_below(&g, 3);
            len += snprintf(text + len, sizeof text - (size_t)len,
                            "node n%d %d", v, nslot[v]);
            for (int j = 0; j < L; j++) {
                grp[v][j] = id;
                len += snprintf(text + len, sizeof text - (size_t)len,
                                " g%d", id);
                id /= 2;
            }
            len += snprintf(text + len, sizeof text - (size_t)len, "\n");
        }
        int total = 0;
        for (int v = 0; v < N; v++)
            total += nslot[v];
        if (total == 0)
            continue;
        hta_slots *s = slots_from(text);
        double want[40], cost[200];
        int k = 0;
        for (int v = 0; v < N; v++) {
            want[v] = 0;
            for (int w = 0; w < N; w++) {
                if (w == v)
                    continue;
                int j = 0;
                while (j < L && grp[v][j] != grp[w][j])
                    j++;
                want[v] += hops[j];
            }
            assert_true(fabs(s->H[v] - want[v]) < 1e-9);
            for (int q = 0; q < nslot[v]; q++)
                cost[k++] = want[v];
        }
        assert_int_equal(s->r, total);
        for (int i = 0; i < k; i++) /* sorted: the i-th smallest */
            for (int j = i + 1; j < k; j++)
                if (cost[j] < cost[i]) {
                    double t = cost[i];
                    cost[i] = cost[j];
                    cost[j] = t;
                }
        for (int i = 0; i < k; i++)
            assert_true(slot_cost(s, i) == cost[i]);
        hta_slots_free(s);
    }
}

/* ---- the threshold rule against a dynamic program ---- */

typedef struct dp {
    int r, nat;
    double h[12]; /* sorted */
    double x[24], p[24];
    int R[24];
    double memo[13][4096];
    unsigned char seen[13][4096];
} dp;

/* V(used, m): the least expected cost of m more jobs, every subset of
 * the free slots of each job's size tried. */
static double best(dp *z, unsigned used, int m)
{
    if (m == 0)
        return 0;
    if (z->seen[m][used])
        return z->memo[m][used];
    double v = 0;
    for (int a = 0; a < z->nat; a++) {
        double lo = INFINITY;
        for (unsigned S = 0; S < (1u << z->r); S++) {
            if ((S & used) || __builtin_popcount(S) != z->R[a])
                continue;
            double c = 0;
            for (int i = 0; i < z->r; i++)
                if (S >> i & 1)
                    c += z->h[i];
            double t = z->x[a] * c + best(z, used | S, m - 1);
            if (t < lo)
                lo = t;
        }
        v += z->p[a] * lo;
    }
    z->seen[m][used] = 1;
    z->memo[m][used] = v;
    return v;
}

/* W(used, m): the expected cost of the threshold policy. */
static double policy_value(const dp *z, const hta_rp_table *t, unsigned used,
                           int m)
{
    if (m == 0)
        return 0;
    double v = 0;
    for (int a = 0; a < z->nat; a++) {
        int64_t k = hta_rp_table_skip(t, m - 1, z->x[a]);
        unsigned S = 0;
        double c = 0;
        int seen = 0;
        for (int i = 0; i < z->r && seen < k + z->R[a]; i++)
            if (!(used >> i & 1)) {
                if (seen >= k) {
                    S |= 1u << i;
                    c += z->h[i];
                }
                seen++;
            }
        assert_int_equal(__builtin_popcount(S), z->R[a]);
        v += z->p[a] * (z->x[a] * c + policy_value(z, t, used | S, m - 1));
    }
    return v;
}

static void threshold_cases(int fixed_R, int reps, uint64_t seed)
{
    hta_rng g;
    hta_rng_seed(&g, seed);
    dp *z = malloc(sizeof *z);
    for (int rep = 0; rep < reps; rep++) {
        memset(z, 0, sizeof *z);
        int K = 2 + (int)hta_rng_below(&g, 2); /* 2 or 3 jobs */
        int rmax = fixed_R ? 1 + (int)hta_rng_below(&g, 3) :
                             2 + (int)hta_rng_below(&g, 2);
        z->r = K * rmax + (int)hta_rng_below(&g, 3);
        if (z->r > 10)
            z->r = 10;
        for (int i = 0; i < z->r; i++)
            z->h[i] = 1 + (double)hta_rng_below(&g, 20);
        for (int i = 0; i < z->r; i++) /* sorted */
            for (int j = i + 1; j < z->r; j++)
                if (z->h[j] < z->h[i]) {
                    double t = z->h[i];
                    z->h[i] = z->h[j];
                    z->h[j] = t;
                }
        /* a small discrete law: atoms repeated to give weights */
        int n = 0;
        double xs[24];
        int32_t Rs[24];
        int distinct = 2 + (int)hta_rng_below(&g, 3);
        for (int a = 0; a < distinct; a++) {
            double x = 0.5 + (double)hta_rng_below(&g, 10);
            int R = fixed_R ? rmax : 1 + (int)hta_rng_below(&g, (uint64_t)rmax);
            int w = 1 + (int)hta_rng_below(&g, 3);
            for (int q = 0; q < w; q++) {
                xs[n] = x;
                Rs[n++] = R;
            }
        }
        hta_rp_law law;
        hta_rp_table t;
        hta_diag d;
        assert_int_equal(hta_rp_law_sample(xs, Rs, n, &law, &d), HTA_OK);
        assert_int_equal(hta_rp_table_build(&law, K, NULL, &t, &d), HTA_OK);
        z->nat = (int)law.n;
        for (int a = 0; a < z->nat; a++) {
            z->x[a] = law.x[a];
            z->R[a] = law.R[a];
            z->p[a] = law.p[a];
        }
        double opt = best(z, 0, K);
        double pol = policy_value(z, &t, 0, K);
        double val = hta_rp_table_value(&t, K, z->h, z->r);
        double tol = 1e-9 * (1 + opt);
        if (fabs(opt - pol) > tol || fabs(opt - val) > tol)
            fail_msg("K %d r %d: optimum %.12g, threshold policy %.12g, "
                     "sum c h %.12g",
                     K, z->r, opt, pol, val);
        if (fixed_R) /* blocks: the skip is a multiple of R */
            for (int m = 0; m < K; m++)
                for (int a = 0; a < z->nat; a++)
                    assert_int_equal(hta_rp_table_skip(&t, m, z->x[a]) %
                                         rmax,
                                     0);
        hta_rp_table_free(&t);
        hta_rp_law_free(&law);
    }
    free(z);
}

/* Theorems 1-2: a fixed R, the paper's case. */
static void test_threshold_fixed_R(void **state)
{
    (void)state;
    threshold_cases(1, 300, 3);
}

/* The slot-level generalisation to a random R. */
static void test_threshold_random_R(void **state)
{
    (void)state;
    threshold_cases(0, 300, 5);
}

/* Theorem 4: two jobs of the same R; the second arrives while the first
 * holds its slots with probability p.  Brute force over every set of R
 * slots for the first job (the second then takes the best R free ones)
 * equals the two-block rule. */
static void test_rhc_two_jobs(void **state)
{
    (void)state;
    hta_rng g;
    hta_rng_seed(&g, 17);
    for (int rep = 0; rep < 400; rep++) {
        int R = 1 + (int)hta_rng_below(&g, 3);
        int r = 2 * R + (int)hta_rng_below(&g, 4);
        if (r > 10)
            r = 10;
        double h[10];
        for (int i = 0; i < r; i++)
            h[i] = (double)hta_rng_below(&g, 50);
        for (int i = 0; i < r; i++)
            for (int j = i + 1; j < r; j++)
                if (h[j] < h[i]) {
                    double t = h[i];
                    h[i] = h[j];
                    h[j] = t;
                }
        double p = hta_rng_unit(&g), x = 0.1 + 10 * hta_rng_unit(&g);
        int na = 1 + (int)hta_rng_below(&g, 4);
        double xa[4], pa[4], mean = 0, tot = 0;
        for (int a = 0; a < na; a++) {
            xa[a] = 0.1 + 10 * hta_rng_unit(&g);
            pa[a] = 1 + (double)hta_rng_below(&g, 3);
            tot += pa[a];
        }
        for (int a = 0; a < na; a++)
            mean += (pa[a] /= tot) * xa[a];
        double all = 0;
        for (int i = 0; i < R; i++)
            all += h[i];
        double lo = INFINITY, rule = NAN;
        int defer = hta_rp_rhc_defer(x, p, mean);
        for (unsigned S = 0; S < (1u << r); S++) {
            if (__builtin_popcount(S) != R)
                continue;
            double c = 0, rest = 0;
            int taken = 0;
            for (int i = 0; i < r; i++)
                if (S >> i & 1)
                    c += h[i];
                else if (taken < R) {
                    rest += h[i];
                    taken++;
                }
            double v = x * c + p * mean * rest + (1 - p) * mean * all;
            if (v < lo)
                lo = v;
            unsigned block = ((1u << R) - 1) << (defer ? R : 0);
            if (S == block)
                rule = v;
        }
        assert_true(fabs(rule - lo) <= 1e-9 * (1 + lo));
    }
}

/* ---- the simulator ---- */

static hta_rp_opts opts(const hta_dist *X, const hta_dist *R, int K,
                        int64_t jobs, double lambda, uint64_t seed)
{
    hta_rp_opts o = {.lambda = lambda,
                     .K = K,
                     .jobs = jobs,
                     .warmup = jobs / 10,
                     .batches = 30,
                     .window = 100,
                     .seed = seed,
                     .X = X,
                     .R = R};
    for (int p = 0; p < HTA_RP_NPOLICIES; p++)
        o.policies[p] = p != HTA_RP_OPTIMAL; /* a few slots only */
    return o;
}

static void prepare(hta_rp_opts *o, hta_rp_law *law, hta_rp_table *t)
{
    hta_diag d;
    assert_int_equal(hta_rp_law_product(o->X, o->R, law, &d), HTA_OK);
    assert_int_equal(hta_rp_table_build(law, o->K, NULL, t, &d), HTA_OK);
    o->rmax = law->rmax;
    o->mean_x = law->mean_x;
    o->table = t;
    o->law = law;
}

static void run(const hta_slots *s, const hta_rp_opts *o, hta_rp_result *r)
{
    hta_diag d;
    if (hta_rp_run(s, o, r, &d) != HTA_OK)
        fail_msg("%s", d.msg);
}

/* One job on empty slots: greedy pays x times the R cheapest costs, never
 * more than random, whose mean over seeds is x R times the mean cost. */
static void test_single_job(void **state)
{
    (void)state;
    hta_dist X = {HTA_DIST_FIXED, 30, 0, NULL, 0, NULL, NULL};
    hta_dist R = {HTA_DIST_FIXED, 4, 0, NULL, 0, NULL, NULL};
    double sum = 0, sumsq = 0;
    const int n = 3000;
    hta_slots *s = NULL;
    hta_diag d;
    assert_int_equal(hta_slots_uniform(50, 1, 100, 99, &s, &d), HTA_OK);
    double mean_h = 0, cheap = 0;
    for (int i = 0; i < 50; i++)
        mean_h += slot_cost(s, i) / 50;
    for (int i = 0; i < 4; i++)
        cheap += slot_cost(s, i);
    for (int seed = 0; seed < n; seed++) {
        hta_rp_opts o = opts(&X, &R, 5, 1, 0.5, (uint64_t)seed);
        hta_rp_law law;
        hta_rp_table t;
        prepare(&o, &law, &t);
        o.warmup = 0;
        o.batches = 1;
        hta_rp_result r;
        run(s, &o, &r);
        double g = r.row[HTA_RP_GREEDY].mean, rnd = r.row[HTA_RP_RANDOM].mean;
        assert_true(fabs(g - 30.0 / 4 * cheap) < 1e-9 * g);
        assert_true(g <= rnd + 1e-12);
        /* alone in the system every policy takes the best block */
        assert_true(r.row[HTA_RP_RHC].mean == g);
        sum += rnd;
        sumsq += rnd * rnd;
        hta_rp_table_free(&t);
        hta_rp_law_free(&law);
    }
    double m = sum / n, sd = sqrt((sumsq - n * m * m) / (n - 1));
    double want = 30.0 / 4 * 4 * mean_h;
    print_message("random on one job: %.3f +- %.3f, x R mean h %.3f\n", m,
                  1.96 * sd / sqrt(n), want);
    assert_true(fabs(m - want) <= 3 * sd / sqrt(n));
    hta_slots_free(s);
}

/* The K-limited processor-sharing queue with exponential service: the
 * number in system is M/M/1 whatever K (E[N] = rho / (1 - rho), E[T] =
 * 1 / (1 - rho)), and an arrival waits for slots iff it finds K or more
 * jobs: P = rho^K. */
static void test_mm1(void **state)
{
    (void)state;
    hta_dist X = {HTA_DIST_UNIFORM, 1, 100, NULL, 0, NULL, NULL};
    hta_dist R = {HTA_DIST_UNIFORM, 1, 10, NULL, 0, NULL, NULL};
    hta_slots *s = NULL;
    hta_diag d;
    assert_int_equal(hta_slots_uniform(1000, 1, 100, 1, &s, &d), HTA_OK);
    static const struct {
        int K;
        double rho;
    } set[] = {{1, 0.5}, {3, 0.5}, {10, 0.7}};
    for (int i = 0; i < 3; i++) {
        hta_rp_opts o = opts(&X, &R, set[i].K, 400000, set[i].rho, 23);
        hta_rp_law law;
        hta_rp_table t;
        prepare(&o, &law, &t);
        hta_rp_result r;
        run(s, &o, &r);
        double rho = set[i].rho, en = rho / (1 - rho), et = 1 / (1 - rho);
        double pw = pow(rho, set[i].K);
        print_message("K %d rho %g: E[N] %.4f +- %.4f (%.4f), E[T] %.4f "
                      "(%.4f), waited %.4f (%.4f), Little %.1e\n",
                      set[i].K, rho, r.mean_n, r.ci_n, en, r.mean_t, et,
                      r.waited, pw, r.little_gap);
        assert_true(fabs(r.mean_n - en) <= 1.5 * r.ci_n);
        assert_true(fabs(r.mean_t - et) <= 0.03 * et);
        assert_true(fabs(r.waited - pw) <= 0.01);
        assert_true(r.little_gap < 0.01);
        assert_false(r.cut);
        assert_int_equal(r.jobs, 400000);
        hta_rp_table_free(&t);
        hta_rp_law_free(&law);
    }
    hta_slots_free(s);
}

/* Common random numbers: the same seed gives the same numbers, and a
 * policy's numbers do not depend on which others run beside it; with K =
 * 1 the threshold rule has no job to keep slots for and is greedy. */
static void test_crn(void **state)
{
    (void)state;
    hta_dist X = {HTA_DIST_UNIFORM, 1, 100, NULL, 0, NULL, NULL};
    hta_dist R = {HTA_DIST_UNIFORM, 1, 10, NULL, 0, NULL, NULL};
    hta_slots *s = NULL;
    hta_diag d;
    assert_int_equal(hta_slots_uniform(1000, 1, 100, 4, &s, &d), HTA_OK);
    hta_rp_opts o = opts(&X, &R, 10, 20000, 0.6, 4);
    hta_rp_law law;
    hta_rp_table t;
    prepare(&o, &law, &t);
    hta_rp_result a, b;
    run(s, &o, &a);
    run(s, &o, &b);
    for (int p = 0; p < HTA_RP_NPOLICIES; p++)
        assert_memory_equal(&a.row[p], &b.row[p], sizeof a.row[p]);
    assert_true(a.mean_n == b.mean_n && a.mean_t == b.mean_t);
    for (int p = 0; p < HTA_RP_OPTIMAL; p++) {
        hta_rp_opts one = o;
        memset(one.policies, 0, sizeof one.policies);
        one.policies[p] = 1;
        run(s, &one, &b);
        assert_true(b.row[p].mean == a.row[p].mean);
        assert_true(b.mean_n == a.mean_n);
    }
    /* the savings against random and greedy are paired per batch */
    assert_true(a.row[HTA_RP_GREEDY].vs_greedy == 0);
    assert_true(a.row[HTA_RP_RANDOM].vs_random == 0);
    assert_true(a.row[HTA_RP_GREEDY].vs_random > 90);
    hta_rp_table_free(&t);
    hta_rp_law_free(&law);
    o.K = 1;
    prepare(&o, &law, &t);
    run(s, &o, &a);
    assert_true(a.row[HTA_RP_THRESHOLD].mean == a.row[HTA_RP_GREEDY].mean);
    hta_rp_table_free(&t);
    hta_rp_law_free(&law);
    hta_slots_free(s);
}

/* ---- the optimal policy against policy iteration ----
 * The decision process of rplace/optimal.c for R = 1 rebuilt here on its
 * own terms: states (mask of busy slots, n), a policy a table of slots by
 * (mask before, n after, atom), evaluated exactly (the average-cost
 * equations h + g = c + P h, h(empty) = 0, solved by Gaussian
 * elimination) and improved until stable (Howard).  Its g must lie in
 * the value iteration's bounds. */
enum { PI_R = 4, PI_NMAX = 64 };

typedef struct pi_model {
    int r, K, nmax, S, na;
    double lambda, cost[PI_R], x[4], p[4];
    int idx[PI_NMAX + 1][1 << PI_R];
    int smask[2000], sn[2000];
    int pol[PI_NMAX + 1][1 << PI_R][4];
} pi_model;

static int popc(unsigned a)
{
    int c = 0;
    for (; a; a &= a - 1)
        c++;
    return c;
}

/* One decision (job of atom a into busy mask b with n after): add its
 * cost and its move, with weight w, to row i. */
static void pi_place(const pi_model *M, double w, int b, int n, int a,
                     double *row, double *c)
{
    int slot = M->pol[n][b][a];
    *c += w * M->x[a] * M->cost[slot];
    row[M->idx[n][b | 1 << slot]] += w;
}

/* Evaluates the policy: g (per unit time) and h[S]. */
static double pi_eval(const pi_model *M, double *h)
{
    int S = M->S;
    double Lam = M->lambda + 1;
    double *A = calloc((size_t)S * (size_t)(S + 1), sizeof *A);
    assert_non_null(A);
    /* unknowns: h[1..S-1] in columns 1..S-1, g in column 0 */
    for (int i = 0; i < S; i++) {
        double *row = A + (size_t)i * (size_t)(S + 1), c = 0;
        double *P = calloc((size_t)S, sizeof *P);
        assert_non_null(P);
        int b = M->smask[i], n = M->sn[i], busy = popc((unsigned)b);
        double la = M->lambda / Lam, self = 1;
        if (n < M->K) {
            for (int a = 0; a < M->na; a++)
                pi_place(M, la * M->p[a], b, n + 1, a, P, &c);
            self -= la;
        } else if (n < M->nmax) {
            P[M->idx[n + 1][b]] += la;
            self -= la;
        }
        if (n >= 1) {
            for (int j = 0; j < M->r; j++) {
                if (!(b >> j & 1))
                    continue;
                double w = 1 / Lam / busy;
                int b2 = b & ~(1 << j);
                if (n - 1 >= M->K)
                    for (int a = 0; a < M->na; a++)
                        pi_place(M, w * M->p[a], b2, n - 1, a, P, &c);
                else
                    P[M->idx[n - 1][b2]] += w;
            }
            self -= 1 / Lam;
        }
        P[i] += self;
        /* h_i + g - sum_j P_ij h_j = c_i */
        row[0] = 1;
        for (int j = 1; j < S; j++)
            row[j] = (j == i) - P[j];
        row[S] = c;
        free(P);
    }
    /* Gaussian elimination, partial pivoting */
    for (int k = 0; k < S; k++) {
        int piv = k;
        for (int i = k + 1; i < S; i++)
            if (fabs(A[(size_t)i * (S + 1) + k]) > fabs(A[(size_t)piv * (S + 1) + k]))
                piv = i;
        for (int j = 0; j <= S; j++) {
            double t = A[(size_t)k * (S + 1) + j];
            A[(size_t)k * (S + 1) + j] = A[(size_t)piv * (S + 1) + j];
            A[(size_t)piv * (S + 1) + j] = t;
        }
        double dkk = A[(size_t)k * (S + 1) + k];
        assert_true(fabs(dkk) > 1e-14);
        for (int i = 0; i < S; i++) {
            if (i == k)
                continue;
            double f = A[(size_t)i * (S + 1) + k] / dkk;
            if (f != 0)
                for (int j = k; j <= S; j++)
                    A[(size_t)i * (S + 1) + j] -= f * A[(size_t)k * (S + 1) + j];
        }
    }
    h[0] = 0;
    for (int j = 1; j < S; j++)
        h[j] = A[(size_t)j * (S + 1) + S] / A[(size_t)j * (S + 1) + j];
    double g = A[S] / A[0];
    free(A);
    return g * Lam; /* per step to per unit time */
}

static double policy_iteration(pi_model *M, double *greedy)
{
    int S = 0;
    for (int n = 0; n <= M->nmax; n++)
        for (int b = 0; b < 1 << M->r; b++) {
            M->idx[n][b] = -1;
            if (popc((unsigned)b) == (n < M->K ? n : M->K)) {
                assert_true(S < 2000);
                M->smask[S] = b;
                M->sn[S] = n;
                M->idx[n][b] = S++;
            }
        }
    M->S = S;
    /* start: greedy (the cheapest free slot) */
    for (int n = 1; n <= M->nmax; n++)
        for (int b = 0; b < 1 << M->r; b++)
            for (int a = 0; a < M->na; a++) {
                int j = 0;
                while (j < M->r - 1 && (b >> j & 1))
                    j++;
                M->pol[n][b][a] = j;
            }
    double *h = calloc((size_t)S, sizeof *h), g = 0;
    assert_non_null(h);
    for (int round = 0;; round++) {
        assert_true(round < 100);
        g = pi_eval(M, h);
        if (round == 0)
            *greedy = g / M->lambda;
        int changed = 0;
        for (int n = 1; n <= M->nmax; n++)
            for (int b = 0; b < 1 << M->r; b++) {
                if (popc((unsigned)b) != (n <= M->K ? n - 1 : M->K - 1))
                    continue;
                for (int a = 0; a < M->na; a++) {
                    int cur = M->pol[n][b][a];
                    double best = M->x[a] * M->cost[cur] + h[M->idx[n][b | 1 << cur]];
                    for (int j = 0; j < M->r; j++) {
                        if (b >> j & 1)
                            continue;
                        double v = M->x[a] * M->cost[j] + h[M->idx[n][b | 1 << j]];
                        if (v < best - 1e-9 * (1 + fabs(best))) {
                            best = v;
                            M->pol[n][b][a] = j;
                            changed = 1;
                        }
                    }
                }
            }
        if (!changed)
            break;
    }
    free(h);
    return g / M->lambda;
}

static void test_optimal_vs_policy_iteration(void **state)
{
    (void)state;
    static const struct {
        const char *slots;
        int K;
        double lambda;
    } set[] = {{"hta-slots 1\nslot 1\nslot 3\nslot 7\n", 2, 0.5},
               {"hta-slots 1\nslot 1\nslot 2\nslot 5\nslot 9\n", 2, 0.6},
               {"hta-slots 1\nslot 1\nslot 2\nslot 5\nslot 9\n", 3, 0.4}};
    double xs[] = {1, 4, 1, 9}, atoms[] = {1, 4, 9};
    int32_t Rs[] = {1, 1, 1, 1};
    for (int i = 0; i < 3; i++) {
        hta_slots *s = slots_from(set[i].slots);
        hta_rp_law law;
        hta_diag d;
        assert_int_equal(hta_rp_law_sample(xs, Rs, 4, &law, &d), HTA_OK);
        hta_rp_mdp m;
        assert_int_equal(hta_rp_mdp_solve(s, &law, set[i].K, set[i].lambda,
                                          1e-10, 1000000, NULL, &m, &d),
                         HTA_OK);
        assert_true(m.converged);
        assert_true(m.nmax <= PI_NMAX);
        pi_model *M = calloc(1, sizeof *M);
        assert_non_null(M);
        M->r = (int)s->r;
        M->K = set[i].K;
        M->nmax = (int)m.nmax;
        M->lambda = set[i].lambda;
        for (int j = 0; j < M->r; j++)
            M->cost[j] = slot_cost(s, j);
        M->na = 3;
        for (int a = 0; a < 3; a++) {
            M->x[a] = atoms[a];
            M->p[a] = a == 0 ? 0.5 : 0.25;
        }
        double greedy, g = policy_iteration(M, &greedy);
        print_message("slots %d K %d lambda %g: value iteration %.9f .. "
                      "%.9f, policy iteration %.9f (from greedy's %.9f)\n",
                      M->r, M->K, M->lambda, m.cost_lo, m.cost_hi, g, greedy);
        /* the instances are ones where greedy is not optimal */
        assert_true(g < greedy - 1e-3);
        assert_true(g >= m.cost_lo - 1e-7 * g && g <= m.cost_hi + 1e-7 * g);
        free(M);
        hta_rp_mdp_free(&m);
        hta_rp_law_free(&law);
        hta_slots_free(s);
    }
}

/* The optimal policy simulated on the common path (random R, so sets
 * need not be blocks): its mean cost per job agrees with the decision
 * process' value, and no other policy does better. */
static void test_optimal_simulated(void **state)
{
    (void)state;
    hta_dist X = {HTA_DIST_UNIFORM, 1, 100, NULL, 0, NULL, NULL};
    hta_dist R = {HTA_DIST_UNIFORM, 1, 2, NULL, 0, NULL, NULL};
    hta_slots *s = NULL;
    hta_diag d;
    assert_int_equal(hta_slots_uniform(6, 1, 100, 7, &s, &d), HTA_OK);
    hta_rp_opts o = opts(&X, &R, 2, 300000, 0.7, 11);
    o.policies[HTA_RP_OPTIMAL] = 1;
    hta_rp_law law;
    hta_rp_table t;
    prepare(&o, &law, &t);
    hta_rp_result r;
    run(s, &o, &r);
    const hta_rp_row *opt = &r.row[HTA_RP_OPTIMAL];
    print_message("optimal %.3f +- %.3f, value %.4f .. %.4f; greedy %.3f, "
                  "rhc %.3f, threshold %.3f\n", opt->mean, opt->ci,
                  r.opt_lo, r.opt_hi, r.row[HTA_RP_GREEDY].mean,
                  r.row[HTA_RP_RHC].mean, r.row[HTA_RP_THRESHOLD].mean);
    assert_true(r.opt_converged);
    assert_true(fabs(opt->mean - r.opt_lo) <= 3 * opt->ci);
    for (int p = 0; p < HTA_RP_OPTIMAL; p++)
        assert_true(opt->mean <= r.row[p].mean + 1e-9);
    assert_true(opt->vs_greedy > 0);
    hta_rp_table_free(&t);
    hta_rp_law_free(&law);
    hta_slots_free(s);
}

/* The decision process' size in closed form (hta_rp_mdp_size, what the
 * command checks before any work) equals what hta_rp_mdp_solve builds:
 * configurations, choices and states, on every slot count up to 12, K up
 * to 4 and several sets of R; and the check refuses past the limits
 * before building anything (issue 71: 20 slots, K 2 took 40 s to say
 * "more than 1000000 configurations"). */
static void test_optimal_size(void **state)
{
    (void)state;
    static const int32_t sets[][4] = {{1}, {2}, {1, 2}, {1, 3}, {2, 3},
                                      {1, 2, 3}, {1, 2, 4}};
    static const int nsets[] = {1, 1, 2, 2, 2, 3, 3};
    int checked = 0;
    for (int r = 1; r <= 12; r++)
        for (int K = 1; K <= 4; K++)
            for (int q = 0; q < 7; q++) {
                int32_t Rs[4];
                double xs[4];
                int rmax = 0;
                for (int i = 0; i < nsets[q]; i++) {
                    Rs[i] = sets[q][i];
                    xs[i] = 1 + 2 * i;
                    rmax = Rs[i] > rmax ? Rs[i] : rmax;
                }
                if (K * rmax > r)
                    continue;
                char text[256] = "hta-slots 1\n";
                for (int i = 0; i < r; i++)
                    snprintf(text + strlen(text), sizeof text - strlen(text),
                             "slot %d\n", 1 + 3 * i);
                hta_slots *s = slots_from(text);
                hta_rp_law law;
                hta_diag d;
                assert_int_equal(hta_rp_law_sample(xs, Rs, nsets[q], &law,
                                                   &d), HTA_OK);
                double cfg, ch, st;
                hta_rp_mdp_size(r, K, law.gR, law.ngroups,
                                hta_rp_mdp_nmax(K, 0.5), &cfg, &ch, &st);
                if (cfg > 20000) { /* a second's build: not here */
                    hta_rp_law_free(&law);
                    hta_slots_free(s);
                    continue;
                }
                hta_rp_mdp m;
                assert_int_equal(hta_rp_mdp_solve(s, &law, K, 0.5, 1e-3, 1,
                                                  NULL, &m, &d), HTA_OK);
                if (cfg != (double)m.ncfg ||
                    ch != (double)m.coff[m.ncfg * m.ngroups] ||
                    st != (double)m.nstates)
                    fail_msg("r %d K %d set %d: closed form %g %g %g, built "
                             "%lld %lld %lld", r, K, q, cfg, ch, st,
                             (long long)m.ncfg,
                             (long long)m.coff[m.ncfg * m.ngroups],
                             (long long)m.nstates);
                assert_int_equal(hta_rp_mdp_check(r, K, &law, 0.5, &d),
                                 HTA_OK);
                checked++;
                hta_rp_mdp_free(&m);
                hta_rp_law_free(&law);
                hta_slots_free(s);
            }
    print_message("%d sizes equal the built process\n", checked);
    assert_true(checked >= 150);
    /* past the limits: refused with the count, nothing built */
    double xs[10];
    int32_t Rs[10];
    for (int i = 0; i < 10; i++) {
        xs[i] = 1 + i;
        Rs[i] = 1 + i;
    }
    hta_rp_law law;
    hta_diag d;
    assert_int_equal(hta_rp_law_sample(xs, Rs, 10, &law, &d), HTA_OK);
    double t0 = hta_clock_now();
    assert_int_equal(hta_rp_mdp_check(20, 2, &law, 0.4, &d), HTA_ERR_USAGE);
    assert_true(hta_clock_now() - t0 < 0.1);
    assert_string_equal(d.msg,
                        "the optimal policy's decision process would have "
                        "1612161592 configurations (20 slots, K 2, R up to "
                        "10), more than 1000000: fewer slots, a smaller K "
                        "or R");
    assert_int_equal(hta_rp_mdp_check(31, 1, &law, 0.4, &d), HTA_ERR_USAGE);
    assert_string_equal(d.msg, "the optimal policy is computed for at most "
                               "30 slots, found 31");
    hta_rp_law_free(&law);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_fig1),
        cmocka_unit_test(test_h_pairs),
        cmocka_unit_test(test_threshold_fixed_R),
        cmocka_unit_test(test_threshold_random_R),
        cmocka_unit_test(test_rhc_two_jobs),
        cmocka_unit_test(test_single_job),
        cmocka_unit_test(test_mm1),
        cmocka_unit_test(test_crn),
        cmocka_unit_test(test_optimal_vs_policy_iteration),
        cmocka_unit_test(test_optimal_simulated),
        cmocka_unit_test(test_optimal_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
