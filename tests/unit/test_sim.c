/* The simulator against closed forms and theorems: the discrete-time
 * Geo/Geo/1 queue, Little's law, conservation, stability inside and
 * outside the capacity region of hta capacity, and reproducibility. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

#include "hta/capacity.h"
#include "hta/cluster.h"
#include "hta/rng.h"
#include "hta/sim.h"
#include "online/sim_impl.h"

static hta_cluster *cluster(const char *text)
{
    char path[] = "/tmp/hta-sim-XXXXXX";
    temp_text(path, text);
    hta_cluster *c = NULL;
    hta_diag d;
    hta_status st = hta_cluster_parse(path, &c, &d);
    remove(path);
    if (st != HTA_OK)
        fail_msg("%s", d.msg);
    return c;
}

static hta_sim_opts opts(hta_sim_policy p, int64_t slots, uint64_t seed)
{
    hta_sim_opts o = {.policy = p,
                      .arrivals = HTA_ARR_POISSON,
                      .service = HTA_SVC_GEOMETRIC,
                      .cv = 1,
                      .load = 1,
                      .per_unit = 1,
                      .slots = slots,
                      .warmup = slots / 10,
                      .batches = 40,
                      .seed = seed};
    return o;
}

static void run(const hta_cluster *c, const hta_sim_opts *o,
                hta_sim_result *r)
{
    hta_diag d;
    if (hta_sim_run(c, o, r, &d) != HTA_OK)
        fail_msg("%s", d.msg);
    /* conservation, levels, routing: on every run */
    assert_int_equal(r->arrived, r->departed + r->in_system);
    assert_int_equal(r->level_errors, 0);
    assert_int_equal(r->route_errors, 0);
}

/* One server, Bernoulli(p) arrivals, geometric(mu) service: the number in
 * system at the end of a slot is a birth-death chain (up p(1-mu), down
 * (1-p)mu), so P(N = n) = (1-r) r^n with r = p(1-mu)/((1-p)mu):
 * E[N] = p(1-mu)/(mu-p), and by Little's law for end-of-slot counts
 * E[delay] = 1 + E[N]/p = 1 + (1-mu)/(mu-p). */
static void test_geo_geo_1(void **state)
{
    (void)state;
    const double p = 0.3, mu = 0.5;
    hta_cluster *c = cluster("hta-cluster 1\nservers 1\nrates 0.5 0.25\n"
                             "type 0.3 0\n");
    double en = p * (1 - mu) / (mu - p), ew = 1 + (1 - mu) / (mu - p);
    for (int pol = 0; pol < HTA_SIM_FAIR; pol++) {
        hta_sim_opts o = opts((hta_sim_policy)pol, 2000000, 7);
        o.arrivals = HTA_ARR_BERNOULLI;
        hta_sim_result r;
        run(c, &o, &r);
        print_message("%s: E[N] %.4f +- %.4f (%.4f), E[W] %.4f +- %.4f "
                      "(%.4f)\n",
                      hta_sim_policy_names[pol], r.mean_n, r.ci_n, en,
                      r.mean_delay, r.ci_delay, ew);
        /* within the 95% interval, widened by half for the 5% misses */
        assert_true(fabs(r.mean_n - en) <= 1.5 * r.ci_n);
        assert_true(fabs(r.mean_delay - ew) <= 1.5 * r.ci_delay);
        assert_true(fabs(r.utilisation - p / mu) < 0.01);
        assert_true(r.little_gap < 1e-3);
        assert_false(r.growing);
        hta_sim_result_free(&r);
    }
    hta_cluster_free(c);
}

/* One server, Poisson arrivals at 0.3 per time unit, service of mean 2
 * units, 50 slots per unit: close to the M/G/1 queue, whose mean number
 * in system is Pollaczek-Khinchine's rho + rho^2 (1 + cv^2) / (2 (1 -
 * rho)), rho = 0.6: 1.5 exponential (cv 1), 2.85 log-normal (cv 2),
 * 1.05 deterministic.  Slots make it an approximation (arrivals per slot,
 * service rounded to slots without bias): within the 95% interval
 * (widened by half) plus 3%.  Service times far past the timing wheel
 * (512 slots here) are common with cv 2. */
static void test_mg1(void **state)
{
    (void)state;
    hta_cluster *c = cluster("hta-cluster 1\nservers 1\nrates 0.5 0.25\n"
                             "type 0.3 0\n");
    static const struct {
        hta_sim_service svc;
        double cv;
    } set[] = {{HTA_SVC_EXPONENTIAL, 1},
               {HTA_SVC_LOGNORMAL, 2},
               {HTA_SVC_DETERMINISTIC, 0}};
    for (int i = 0; i < 3; i++) {
        hta_sim_opts o = opts(HTA_SIM_FCFS, 4000000, 21);
        o.service = set[i].svc;
        o.cv = set[i].cv > 0 ? set[i].cv : 1;
        o.per_unit = 50;
        hta_sim_result r;
        run(c, &o, &r);
        double pk = 0.6 + 0.36 * (1 + set[i].cv * set[i].cv) / 0.8;
        print_message("M/G/1, cv %g: E[N] %.4f +- %.4f (P-K %.4f), "
                      "utilisation %.4f\n",
                      set[i].cv, r.mean_n, r.ci_n, pk, r.utilisation);
        assert_true(fabs(r.mean_n - pk) <= 1.5 * r.ci_n + 0.03 * pk);
        assert_true(fabs(r.utilisation - 0.6) < 0.02);
        assert_true(r.little_gap < 1e-3);
        hta_sim_result_free(&r);
    }
    hta_cluster_free(c);
}

/* A random two-level cluster: M servers, T types of 1..3 replicas. */
static hta_cluster *random_cluster(hta_rng *g, int M, int T, int levels)
{
    char *text = malloc(65536);
    int len = snprintf(text, 65536, "hta-cluster 1\nservers %d\nrates %s\n",
                       M, levels == 2 ? "0.8 0.2" : "0.9 0.5 0.2");
    if (levels == 3)
        len += snprintf(text + len, 65536 - (size_t)len, "topology 4\n");
    for (int L = 0; L < T; L++) {
        int k = 1 + (int)hta_rng_below(g, 3);
        len += snprintf(text + len, 65536 - (size_t)len, "type %.3f",
                        0.1 + hta_rng_unit(g));
        int used[3] = {-1, -1, -1};
        for (int j = 0; j < k; j++) {
            int s;
            do
                s = (int)hta_rng_below(g, (uint64_t)M);
            while (s == used[0] || s == used[1]);
            used[j] = s;
            len += snprintf(text + len, 65536 - (size_t)len, " %d", s);
        }
        len += snprintf(text + len, 65536 - (size_t)len, "\n");
    }
    hta_cluster *c = cluster(text);
    free(text);
    return c;
}

static double rho_star(const hta_cluster *c)
{
    hta_capacity_opts o = {HTA_CAP_LP, 0, 0, 0, NULL, NULL, NULL};
    hta_capacity_result r;
    hta_diag d;
    if (hta_capacity_solve(c, &o, &r, &d) != HTA_OK)
        fail_msg("%s", d.msg);
    double rho = r.rho;
    hta_capacity_result_free(&r);
    return rho;
}

/* Inside the region (rho* = 0.9 after scaling) JSQ-MaxWeight and
 * GB-PANDAS keep the number in system bounded, on random clusters of two
 * and three levels; outside (rho* = 1.05) every policy's number grows. */
static void test_stability(void **state)
{
    (void)state;
    hta_rng g;
    hta_rng_seed(&g, 42);
    for (int it = 0; it < 4; it++) {
        int levels = it % 2 ? 3 : 2;
        hta_cluster *c = random_cluster(&g, 12, 10, levels);
        double rho = rho_star(c);
        for (int pol = 0; pol < HTA_SIM_FAIR; pol++) {
            hta_sim_opts o = opts((hta_sim_policy)pol, 400000, 3 + it);
            o.load = 0.9 / rho;
            hta_sim_result r;
            if (pol == HTA_SIM_JSQ_MAXWEIGHT || pol == HTA_SIM_GB_PANDAS) {
                run(c, &o, &r);
                print_message("levels %d rho %.3f %s inside: N %.2f slope "
                              "%.2g t %.2f\n",
                              levels, rho, hta_sim_policy_names[pol],
                              r.mean_n, r.slope, r.slope_t);
                assert_false(r.growing);
                assert_true(r.mean_n < 50 * c->M);
                assert_true(r.little_gap < 0.01);
                hta_sim_result_free(&r);
            }
            o.load = 1.05 / rho;
            o.slots = 200000;
            o.warmup = 20000;
            run(c, &o, &r);
            assert_true(r.growing);
            assert_true(r.in_system > 0);
            hta_sim_result_free(&r);
        }
        hta_cluster_free(c);
    }
}

/* Wang et al.'s set-up in small: 10 servers, data on 8 (one type each),
 * alpha 0.8, gamma 0.2.  The region's boundary is 8 * 0.8 + 2 * 0.2 = 6.8
 * tasks per slot, and no policy can serve more (the data servers at most
 * alpha each, the others only remote tasks at gamma), so at rho* = 1.05
 * every policy's number in system grows at least at the excess
 * 0.05 * 6.8 per slot, less 4 standard deviations of the noise: the
 * arrivals (Poisson, variance 7.14 a slot) and the completions (at most
 * 1/4 per server and slot) over 10^6 slots. */
static void test_growth_at_excess(void **state)
{
    (void)state;
    hta_cluster *c = cluster("hta-cluster 1\nservers 10\nrates 0.8 0.2\n"
                             "type 0.85 0\ntype 0.85 1\ntype 0.85 2\n"
                             "type 0.85 3\ntype 0.85 4\ntype 0.85 5\n"
                             "type 0.85 6\ntype 0.85 7\n");
    double rho = rho_star(c);
    assert_true(fabs(rho - 1) < 1e-9);
    for (int pol = 0; pol < HTA_SIM_FAIR; pol++) {
        hta_sim_opts o = opts((hta_sim_policy)pol, 1000000, 11);
        o.load = 1.05;
        hta_sim_result r;
        run(c, &o, &r);
        double excess = 0.05 * 6.8;
        double rate = (double)r.in_system / (double)r.slots;
        print_message("%s outside: growth %.4f per slot, excess %.4f\n",
                      hta_sim_policy_names[pol], rate, excess);
        assert_true(r.growing);
        double sd = sqrt((6.8 * 1.05 + 10 * 0.25) / (double)r.slots);
        assert_true(rate >= excess - 4 * sd);
        hta_sim_result_free(&r);
    }
    hta_cluster_free(c);
}

/* Same seed, same results; another seed, another sample path. */
static void test_reproducible(void **state)
{
    (void)state;
    hta_rng g;
    hta_rng_seed(&g, 5);
    hta_cluster *c = random_cluster(&g, 10, 8, 3);
    double rho = rho_star(c);
    for (int pol = 0; pol < HTA_SIM_FAIR; pol++) {
        hta_sim_opts o = opts((hta_sim_policy)pol, 50000, 9);
        o.load = 0.8 / rho;
        o.service = HTA_SVC_LOGNORMAL;
        hta_sim_result a, b, x;
        run(c, &o, &a);
        run(c, &o, &b);
        o.seed = 10;
        run(c, &o, &x);
        assert_int_equal(a.arrived, b.arrived);
        assert_int_equal(a.departed, b.departed);
        assert_true(a.mean_delay == b.mean_delay && a.mean_n == b.mean_n);
        assert_true(a.arrived != x.arrived || a.mean_n != x.mean_n);
        hta_sim_result_free(&a);
        hta_sim_result_free(&b);
        hta_sim_result_free(&x);
    }
    hta_cluster_free(c);
}

/* Job arrivals: with one task per job, fair sharing is FCFS (the job
 * with the fewest running tasks, all at 0, is the oldest) and delay
 * scheduling without delays is fair sharing: on one sample path the
 * three give the same numbers.  With jobs of 5 tasks, a job's delay is
 * the largest of its tasks', so the mean job delay is at least the mean
 * task delay; jobs are conserved; JSQ-MaxWeight stays stable inside. */
static void test_jobs(void **state)
{
    (void)state;
    hta_rng g;
    hta_rng_seed(&g, 77);
    for (int it = 0; it < 3; it++) {
        hta_cluster *c = random_cluster(&g, 12, 10, it % 2 ? 3 : 2);
        double rho = rho_star(c);
        hta_sim_result a, b, x;
        hta_sim_opts o = opts(HTA_SIM_FCFS, 30000, 5 + it);
        o.arrivals = HTA_ARR_JOBS;
        o.job_size = (hta_dist){.kind = HTA_DIST_FIXED, .a = 1, .b = 0};
        o.load = 0.3 / rho; /* FCFS stays stable at light load */
        run(c, &o, &a);
        o.policy = HTA_SIM_FAIR;
        run(c, &o, &b);
        o.policy = HTA_SIM_DELAY;
        o.delay[0] = o.delay[1] = 0;
        run(c, &o, &x);
        assert_int_equal(a.departed, b.departed);
        assert_int_equal(a.departed, x.departed);
        assert_true(a.mean_delay == b.mean_delay && a.mean_n == b.mean_n);
        assert_true(b.mean_delay == x.mean_delay && b.mean_n == x.mean_n);
        assert_true(a.mean_job_delay == a.mean_delay);
        hta_sim_result_free(&a);
        hta_sim_result_free(&b);
        hta_sim_result_free(&x);
        o.job_size = (hta_dist){.kind = HTA_DIST_FIXED, .a = 5, .b = 0};
        o.load = 0.8 / rho;
        for (int pol = 0; pol < HTA_SIM_NPOLICIES; pol++) {
            o.policy = (hta_sim_policy)pol;
            o.delay[0] = o.delay[1] = 3;
            run(c, &o, &a);
            assert_true(a.jobs_done <= a.jobs_arrived);
            assert_true(a.jobs_arrived * 5 == a.arrived);
            if (!a.growing)
                assert_true(a.mean_job_delay >= a.mean_delay - 1e-9);
            /* every job of 5 tasks is in class 2-10; percentiles ordered
             * and at least the least possible delay, 1 slot */
            assert_int_equal(a.class_jobs[0] + a.class_jobs[2] +
                                 a.class_jobs[3] + a.class_jobs[4],
                             0);
            assert_true(a.class_jobs[1] > 0 && a.class_jobs[1] <= a.jobs_done);
            assert_true(a.class_pct[1][0] >= 1 &&
                        a.class_pct[1][0] <= a.class_pct[1][1] &&
                        a.class_pct[1][1] <= a.class_pct[1][2]);
            if (pol == HTA_SIM_JSQ_MAXWEIGHT)
                assert_false(a.growing);
            hta_sim_result_free(&a);
        }
        hta_cluster_free(c);
    }
    /* fair and delay without job arrivals are refused */
    hta_cluster *c = random_cluster(&g, 4, 3, 2);
    hta_sim_opts o = opts(HTA_SIM_FAIR, 100, 1);
    hta_sim_result r;
    hta_diag d;
    assert_int_equal(hta_sim_run(c, &o, &r, &d), HTA_ERR_USAGE);
    hta_cluster_free(c);
}

/* Per-job sub-queues.  With one task per job every sub-queue holds one
 * task and the job with the fewest running tasks is the oldest (none
 * runs), so each queue-based policy gives the same numbers with and
 * without them.  On a cluster where every server is local to every type,
 * FCFS with sub-queues is naive fair sharing (the job with the fewest
 * running tasks, then the oldest, serves its first task): one sample
 * path, the same numbers.  With jobs of 5 tasks the sub-queues change
 * the schedule. */
static void test_subqueues(void **state)
{
    (void)state;
    hta_rng g;
    hta_rng_seed(&g, 31);
    for (int it = 0; it < 2; it++) {
        hta_cluster *c = random_cluster(&g, 12, 10, it ? 3 : 2);
        double rho = rho_star(c);
        for (int pol = 0; pol < HTA_SIM_FAIR; pol++) {
            hta_sim_opts o = opts((hta_sim_policy)pol, 20000, 3 + it);
            o.arrivals = HTA_ARR_JOBS;
            o.job_size = (hta_dist){.kind = HTA_DIST_FIXED, .a = 1, .b = 0};
            o.load = (pol == HTA_SIM_FCFS ? 0.3 : 0.85) / rho;
            hta_sim_result a, b;
            run(c, &o, &a);
            o.subqueues = 1;
            run(c, &o, &b);
            assert_int_equal(a.departed, b.departed);
            assert_true(a.mean_delay == b.mean_delay && a.mean_n == b.mean_n);
            assert_true(a.mean_job_delay == b.mean_job_delay);
            hta_sim_result_free(&a);
            hta_sim_result_free(&b);
        }
        hta_cluster_free(c);
    }
    hta_cluster *c = cluster("hta-cluster 1\nservers 4\nrates 0.5 0.25\n"
                             "type 1.2 0 1 2 3\ntype 0.6 0 1 2 3\n");
    hta_sim_opts o = opts(HTA_SIM_FCFS, 50000, 8);
    o.arrivals = HTA_ARR_JOBS;
    o.job_size = (hta_dist){.kind = HTA_DIST_UNIFORM, .a = 1, .b = 9};
    o.load = 1.7 / 2; /* 85% of the 4 * 0.5 tasks per slot */
    o.subqueues = 1;
    hta_sim_result a, b, x;
    run(c, &o, &a);
    o.policy = HTA_SIM_FAIR;
    o.subqueues = 0;
    run(c, &o, &b);
    print_message("fcfs with sub-queues: job delay %.4f, fair: %.4f\n",
                  a.mean_job_delay, b.mean_job_delay);
    assert_int_equal(a.departed, b.departed);
    assert_true(a.mean_delay == b.mean_delay && a.mean_n == b.mean_n);
    assert_true(a.mean_job_delay == b.mean_job_delay);
    o.policy = HTA_SIM_FCFS;
    run(c, &o, &x);
    assert_true(x.mean_job_delay != a.mean_job_delay);
    hta_sim_result_free(&a);
    hta_sim_result_free(&b);
    hta_sim_result_free(&x);
    hta_cluster_free(c);
    /* sub-queues without job arrivals are refused */
    c = random_cluster(&g, 4, 3, 2);
    o = opts(HTA_SIM_FCFS, 100, 1);
    o.subqueues = 1;
    hta_diag d;
    assert_int_equal(hta_sim_run(c, &o, &a, &d), HTA_ERR_USAGE);
    hta_cluster_free(c);
}

/* Deep topologies, both layouts of the routing tree: racks of 5 in
 * pods of 4 (100 servers: groups padded to 8 and 4 leaves, 256 leaves
 * against 128 plain, one node per group) and three levels of 5 over 126
 * servers (1024 padded leaves against 128: range queries).  The checked
 * build compares every GB-PANDAS routing with the minimum over all
 * servers and every task's level with capacity.h's (run()); inside the
 * region GB-PANDAS stays stable, outside every policy grows. */
static void test_layouts(void **state)
{
    (void)state;
    static const struct {
        int M;
        const char *topo, *rates;
    } set[] = {{100, "5 4", "0.9 0.6 0.4 0.2"},
               {126, "5 5 5", "0.95 0.8 0.6 0.4 0.2"}};
    hta_rng g;
    hta_rng_seed(&g, 17);
    for (int it = 0; it < 2; it++) {
        char *text = malloc(1 << 16);
        int M = set[it].M;
        int len = snprintf(text, 1 << 16,
                           "hta-cluster 1\nservers %d\nrates %s\n"
                           "topology %s\n",
                           M, set[it].rates, set[it].topo);
        for (int L = 0; L < 2 * M; L++) {
            int a = (int)hta_rng_below(&g, (uint64_t)M);
            int b = (int)hta_rng_below(&g, (uint64_t)M);
            len += snprintf(text + len, (1 << 16) - (size_t)len,
                            "type %.3f %d", 0.1 + hta_rng_unit(&g), a);
            if (b != a)
                len += snprintf(text + len, (1 << 16) - (size_t)len, " %d",
                                b);
            len += snprintf(text + len, (1 << 16) - (size_t)len, "\n");
        }
        /* hot spot: a tenth of the types are ten times as busy */
        hta_cluster *c = cluster(text);
        free(text);
        for (int64_t L = 0; L < c->T / 10; L++)
            c->lambda[L] *= 10;
        double rho = rho_star(c);
        for (int pol = HTA_SIM_PRIORITY; pol <= HTA_SIM_GB_PANDAS; pol++) {
            hta_sim_opts o = opts((hta_sim_policy)pol, 20000, 5);
            o.load = 0.9 / rho;
            hta_sim_result r;
            run(c, &o, &r);
            print_message("%d servers, topology %s, %s at rho 0.9: N %.1f "
                          "levels %.3f/%.3f\n",
                          M, set[it].topo, hta_sim_policy_names[pol],
                          r.mean_n, r.level_frac[0], r.level_frac[1]);
            if (pol == HTA_SIM_GB_PANDAS)
                assert_false(r.growing);
            hta_sim_result_free(&r);
            o.load = 1.1 / rho;
            run(c, &o, &r);
            assert_true(r.growing);
            hta_sim_result_free(&r);
        }
        hta_cluster_free(c);
    }
}

/* GB-PANDAS' lazy arg-min tree (mintree.c) against the eager one, built
 * from the leaves up (sim_tree_fill): every node's computed initial
 * value equals the eager node, on plain and padded layouts, ragged last
 * groups, two to five levels; then the same random updates on both (a
 * workload up or down, with a fresh tie) give, for every level of a
 * random server, the group best of a scan over the group's servers. */
static void test_lazy_tree(void **state)
{
    (void)state;
    static const struct {
        int M;
        const char *topo, *rates;
    } set[] = {{1, NULL, "0.5 0.2"},        {2, NULL, "0.5 0.2"},
               {7, NULL, "0.5 0.2"},        {100, NULL, "0.5 0.2"},
               {3, "2", "0.6 0.4 0.2"},     {33, "3", "0.6 0.4 0.2"},
               {100, "5 4", "0.9 0.6 0.4 0.2"},
               {97, "5 4", "0.9 0.6 0.4 0.2"},
               {37, "4 3", "0.9 0.6 0.4 0.2"},
               {1000, "7 3", "0.9 0.6 0.4 0.2"},
               {126, "5 5 5", "0.95 0.8 0.6 0.4 0.2"},
               {119, "5 5 5", "0.95 0.8 0.6 0.4 0.2"}};
    hta_rng g;
    hta_rng_seed(&g, 23);
    int layouts[2] = {0, 0};
    for (size_t it = 0; it < sizeof set / sizeof *set; it++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            char text[256];
            snprintf(text, sizeof text,
                     "hta-cluster 1\nservers %d\nrates %s\n%s%s%stype 1 0\n",
                     set[it].M, set[it].rates, set[it].topo ? "topology " : "",
                     set[it].topo ? set[it].topo : "",
                     set[it].topo ? "\n" : "");
            hta_cluster *c = cluster(text);
            hta_sim_opts o = opts(HTA_SIM_GB_PANDAS, 10, seed);
            hta_sim_result r;
            memset(&r, 0, sizeof r);
            sim s;
            hta_diag d;
            if (sim_init(&s, c, &o, &r, &d) != HTA_OK)
                fail_msg("%s", d.msg);
            layouts[s.tr.padded]++;
            sim e = s; /* the eager twin: its own nodes */
            size_t bytes = 2 * (size_t)s.tr.P * sizeof *s.tr.node;
            e.tr.node = malloc(bytes);
            assert_non_null(e.tr.node);
            sim_tree_fill(&e.tr);
            memset(s.tr.node, 0, bytes); /* lazy whatever the build */
            for (int32_t i = 1; i < 2 * s.tr.P; i++) {
                tnode a = sim_tree_fresh(&s.tr, i);
                assert_memory_equal(&a, &e.tr.node[i], sizeof a);
            }
            double *key = calloc((size_t)c->M, sizeof *key);
            uint32_t *tie = malloc((size_t)c->M * sizeof *tie);
            assert_true(key && tie);
            for (int32_t m = 0; m < c->M; m++)
                tie[m] = sim_tree_tie(&s, m); /* the initial ties */
            for (int step = 0; step < 400; step++) {
                int32_t m = (int32_t)hta_rng_below(&g, (uint64_t)c->M);
                double w = (double)hta_rng_below(&g, 4);
                uint32_t t = sim_tree_new_tie(&g);
                if (w == key[m]) /* as in the engine: the workload moves */
                    w += 1;
                if (w > key[m]) {
                    sim_tree_raise(&s.tr, m, w, t);
                    sim_tree_raise(&e.tr, m, w, t);
                } else {
                    sim_tree_lower(&s.tr, m, w, t);
                    sim_tree_lower(&e.tr, m, w, t);
                }
                key[m] = w;
                tie[m] = t;
                /* a random server's groups: lazy, eager, and the least
                 * (key, tie, server) over the group's servers */
                int32_t q = (int32_t)hta_rng_below(&g, (uint64_t)c->M);
                for (int n = 1; n <= s.N; n++) {
                    cand a = sim_group_best(&s, q, n);
                    cand b = sim_group_best(&e, q, n);
                    int32_t lo = q, hi = q + 1;
                    if (n > 1)
                        group_of(&s, q, n, &lo, &hi);
                    int32_t best = lo;
                    for (int32_t v = lo + 1; v < hi; v++)
                        if (key[v] < key[best] ||
                            (key[v] == key[best] && tie[v] < tie[best]))
                            best = v;
                    assert_int_equal(a.m, best);
                    assert_int_equal(b.m, best);
                    assert_true(a.key == key[best] && a.tie == tie[best]);
                    assert_true(b.key == key[best] && b.tie == tie[best]);
                }
            }
            free(key);
            free(tie);
            free(e.tr.node);
            sim_free(&s);
            hta_cluster_free(c);
        }
    assert_true(layouts[0] > 0 && layouts[1] > 0);
}

/* A library caller's explicit groups (hta_cluster_from_instance's kind):
 * runs of consecutive servers in order give the run of the same regular
 * topology, number for number (GB-PANDAS: its routing tree is plain
 * there, padded on the topology, so its ties differ: the same arrivals,
 * and the checked build's routing checks); groups out of order or not
 * runs are refused, not simulated on wrong spans. */
static void test_explicit_groups(void **state)
{
    (void)state;
    const char *text = "hta-cluster 1\nservers 6\nrates 0.8 0.4 0.1\n"
                       "topology 3\ntype 0.5 0\ntype 0.4 1 4\n"
                       "type 0.3 5\n";
    static const int32_t order[3][6] = {
        {0, 0, 0, 1, 1, 1}, {1, 1, 1, 0, 0, 0}, {0, 1, 0, 1, 0, 1}};
    for (int pol = HTA_SIM_JSQ_MAXWEIGHT; pol <= HTA_SIM_GB_PANDAS; pol++) {
        hta_cluster *reg = cluster(text);
        hta_sim_opts o = opts((hta_sim_policy)pol, 20000, 3);
        hta_sim_result a;
        run(reg, &o, &a);
        for (int v = 0; v < 3; v++) {
            hta_cluster *c = cluster(text);
            c->ngrp[2] = 2;
            c->grp[2] = malloc(6 * sizeof *c->grp[2]);
            c->mem_off[2] = malloc(3 * sizeof *c->mem_off[2]);
            c->mem[2] = malloc(6 * sizeof *c->mem[2]);
            assert_true(c->grp[2] && c->mem_off[2] && c->mem[2]);
            int64_t at = 0;
            for (int32_t g = 0; g < 2; g++) {
                c->mem_off[2][g] = at;
                for (int32_t m = 0; m < 6; m++)
                    if (order[v][m] == g)
                        c->mem[2][at++] = m;
            }
            c->mem_off[2][2] = at;
            memcpy(c->grp[2], order[v], sizeof order[v]);
            hta_sim_result b;
            hta_diag d;
            hta_status st = hta_sim_run(c, &o, &b, &d);
            if (v == 0) {
                assert_int_equal(st, HTA_OK);
                assert_int_equal(a.arrived, b.arrived);
                if (pol != HTA_SIM_GB_PANDAS) { /* its tree's layout, */
                    assert_int_equal(a.departed, b.departed); /* hence */
                    assert_true(a.mean_n == b.mean_n && /* its ties, */
                                a.mean_delay == b.mean_delay); /* differ */
                    assert_memory_equal(a.level_frac, b.level_frac,
                                        sizeof a.level_frac);
                }
                hta_sim_result_free(&b);
            } else {
                assert_int_equal(st, HTA_ERR_INPUT);
                assert_non_null(strstr(d.msg, "consecutive"));
            }
            hta_cluster_free(c);
        }
        hta_sim_result_free(&a);
        hta_cluster_free(reg);
    }
}

/* Fair sharing's and delay scheduling's job index (jobindex.c): jobs of
 * 200 tasks on 40 servers near and past saturation, so that scans read
 * more than SIM_JX_FROM tasks and jobs are indexed, then emptied and
 * indexed again.  Every answer of the index is compared with the scan
 * of the job's queue in the checked build (route_errors, asserted 0 by
 * run()); conservation on every run. */
static void test_job_index(void **state)
{
    (void)state;
    hta_rng g;
    hta_rng_seed(&g, 91);
    for (int levels = 2; levels <= 3; levels++) {
        hta_cluster *c = random_cluster(&g, 40, 30, levels);
        double rho = rho_star(c);
        for (int pol = HTA_SIM_FAIR; pol <= HTA_SIM_DELAY; pol++)
            for (int it = 0; it < 2; it++) {
                hta_sim_opts o = opts((hta_sim_policy)pol, 4000, 3 + it);
                o.arrivals = HTA_ARR_JOBS;
                o.job_size =
                    (hta_dist){.kind = HTA_DIST_FIXED, .a = 200, .b = 0};
                o.load = (it ? 1.2 : 0.7) / rho;
                hta_sim_result r;
                run(c, &o, &r);
                assert_true(r.departed > 0);
                hta_sim_result_free(&r);
            }
        hta_cluster_free(c);
    }
}

/* Runs that end early.  Past the backlog bound: unstable, the slot it
 * passed the bound in, exactly the bound in system, means up to there (a
 * single server of rate 0.5 at twice its load serves at its rate).  A
 * stop before the first slot: nothing measured, undecided.  A service
 * rate above 1 a slot is refused, and simulated with enough slots per
 * unit. */
static void test_ended_runs(void **state)
{
    (void)state;
    hta_cluster *c = cluster("hta-cluster 1\nservers 1\nrates 0.5 0.25\n"
                             "type 1 0\n");
    for (int pol = 0; pol < HTA_SIM_FAIR; pol++) {
        hta_sim_opts o = opts((hta_sim_policy)pol, 100000, 3);
        o.warmup = 100;
        o.max_backlog = 2000;
        hta_sim_result r;
        run(c, &o, &r);
        assert_int_equal(r.verdict, HTA_SIM_UNSTABLE);
        assert_int_equal(r.in_system, 2000);
        assert_true(r.slots < o.slots && r.slots > 2000);
        assert_int_equal(r.backlog_slot, r.slots + 1);
        assert_false(r.cut);
        assert_true(fabs(r.throughput - 0.5) < 0.05);
        assert_true(r.utilisation > 0.99 && r.utilisation <= 1);
        /* a stop before the first slot */
        volatile sig_atomic_t stop = 1;
        o.stop = &stop;
        run(c, &o, &r);
        assert_true(r.cut);
        assert_int_equal(r.slots, 0);
        assert_int_equal(r.verdict, HTA_SIM_UNDECIDED);
        assert_true(isnan(r.mean_n) && isnan(r.throughput) &&
                    isnan(r.utilisation));
    }
    hta_cluster_free(c);
    c = cluster("hta-cluster 1\nservers 1\nrates 4 2\ntype 1 0\n");
    hta_sim_opts o = opts(HTA_SIM_FCFS, 400000, 5);
    hta_sim_result r;
    hta_diag d;
    assert_int_equal(hta_sim_run(c, &o, &r, &d), HTA_ERR_USAGE);
    /* K = 4 slots a unit: geometric(1) service, one slot; M/D/1-like
     * with rho = 1/4 per unit: every task served, delay about a slot */
    o.per_unit = 4;
    run(c, &o, &r);
    assert_int_equal(r.verdict, HTA_SIM_STABLE);
    assert_true(fabs(r.throughput - 0.25) < 0.01); /* per slot */
    hta_cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geo_geo_1),
        cmocka_unit_test(test_mg1),
        cmocka_unit_test(test_stability),
        cmocka_unit_test(test_growth_at_excess),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_jobs),
        cmocka_unit_test(test_subqueues),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_lazy_tree),
        cmocka_unit_test(test_explicit_groups),
        cmocka_unit_test(test_job_index),
        cmocka_unit_test(test_ended_runs),
    };
    return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
