/* The flow algorithm against brute force (Theorem 5.4), the lower bounds,
 * and the pruned sweep against the full one. */
#include "helpers.h"

#include "hta/solve.h"
#include "offline/rr.h"

#include <math.h>

#include "hta/assign.h"
#include "hta/fsy.h"
#include "hta/maxcover.h"
#include "core/buf.h"
#include "offline/balassign.h"
#include "offline/bounds.h"
#include "exact/brute.h"

static double run_fsy(const hta_instance *inst, hta_maxflow_engine e,
                      int prune, int literal, int32_t *a, hta_fsy_result *res)
{
    hta_fsy_opts o = {e, prune, literal, NULL, NULL, NULL, NULL};
    hta_diag d;
    hta_status st = hta_fsy_run(inst, &o, a, res, &d);
    if (st != HTA_OK)
        fail_msg("fsy: %s", d.msg);
    double span = evaluate(inst, a, NULL);
    assert_true(span == res->makespan);
    return span;
}

static void test_fsy_vs_brute(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 31);
    int32_t a[8], opt[8];
    int optimal = 0, total = 0;
    for (int i = 0; i < 900; i++) {
        hta_instance *inst = random_instance(&r, 8, 4, 3, i % COST_MODELS);
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        int64_t r_opt;
        double lo = evaluate(inst, opt, &r_opt);
        hta_fsy_result res;
        double span = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 1, 0, a, &res);
        /* Theorem 5.4 with the true w_rem^O = w_rem(r^O). */
        double add = inst->n >= 3 ?
                         (1.0 - 1.0 / (inst->n - 1)) *
                             hta_wrem_at(&inst->wrem, r_opt) :
                         0.0;
        if (!(span >= lo && span <= lo + add + 1e-9))
            fail_msg("instance %d (n=%d m=%d): fsy %g, optimum %g, additive "
                     "%g",
                     i, inst->n, inst->m, span, lo, add);
        /* Lower bounds never exceed the optimum. */
        assert_true(res.lower_bound <= lo);
        assert_true(hta_bound_trivial(inst) <= lo);
        double lb;
        assert_int_equal(hta_bound_flow_compute(inst, &lb, &d), HTA_OK);
        assert_true(lb <= lo);
        assert_true(lb == res.lower_bound || res.K < inst->m);
        if (hta_wrem_is_constant(&inst->wrem)) {
            /* The bound is itself a load a*w_loc + b*c. */
            double c = hta_wrem_at(&inst->wrem, 0);
            int found = 0;
            for (int64_t b = 0; b * c <= lb && !found; b++)
                for (int64_t x = 0; x * inst->w_loc + b * c <= lb; x++)
                    found |= hta_load(inst, x, b, c) == lb;
            assert_true(found);
        }
        optimal += span == lo;
        total++;
        hta_fsy_result_free(&res);
        hta_instance_free(inst);
    }
    /* Not a bound of the paper, a sanity check that the test has teeth:
     * on tiny instances fsy is mostly optimal. */
    assert_true(optimal > total / 2);
}

/* n = 2: the additive term is 0, so fsy is optimal. */
static void test_fsy_two_servers_optimal(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 32);
    int32_t a[9], opt[9];
    for (int i = 0; i < 400; i++) {
        hta_instance *tmp = random_instance(&r, 9, 2, 2, i % COST_MODELS);
        if (tmp->n != 2) {
            hta_instance_free(tmp);
            continue;
        }
        hta_diag d;
        assert_int_equal(brute_opt(tmp, opt, &d), HTA_OK);
        hta_fsy_result res;
        double span = run_fsy(tmp, HTA_MAXFLOW_INCREMENTAL, 1, 0, a, &res);
        assert_true(span == evaluate(tmp, opt, NULL));
        hta_fsy_result_free(&res);
        hta_instance_free(tmp);
    }
}

/* Pruning is exact; both engines and the literal bal-assign agree with
 * the full sweep on makespan, the pruned sweep returns the full sweep's
 * tau and assignment, and the two engines give the same assignment (the
 * answer does not depend on --maxflow). */
static void test_prune_equals_full(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 33);
    for (int i = 0; i < 250; i++) {
        /* as many servers as tasks: an early tau often ties the best */
        hta_instance *inst =
            i % 5 == 4 ? hdfs_instance(300, 25, 1 + i % 3, (i % 3) * 0.8,
                                       1.5 + i % 4, (uint64_t)i) :
            i % 5 == 3 ? hdfs_instance(400, 400, 3, 1.0 + (i % 3) * 0.5,
                                       3.0, (uint64_t)i) :
                         random_instance(&r, 60, 12, 4, i % COST_MODELS);
        int32_t *a = malloc((size_t)inst->m * sizeof *a);
        int32_t *b = malloc((size_t)inst->m * sizeof *b);
        hta_fsy_result res;
        double full = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 0, 0, b, &res);
        int64_t full_tau = res.best_tau;
        hta_fsy_result_free(&res);
        double pruned = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 1, 0, a, &res);
        /* the same B^tau: the first tau reaching the least makespan */
        assert_int_equal(res.best_tau, full_tau);
        assert_memory_equal(a, b, (size_t)inst->m * sizeof *a);
        hta_fsy_result_free(&res);
        double literal = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 1, 1, a, &res);
        hta_fsy_result_free(&res);
        assert_true(pruned <= full);
        assert_true(pruned == full);
        assert_true(literal == pruned);
        double ig_full = run_fsy(inst, HTA_MAXFLOW_IGRAPH, 0, 0, a, &res);
        hta_fsy_result_free(&res);
        double ig_pruned = run_fsy(inst, HTA_MAXFLOW_IGRAPH, 1, 0, b, &res);
        hta_fsy_result_free(&res);
        assert_true(ig_pruned == ig_full);
        assert_true(ig_pruned == pruned);
        run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 1, 0, a, &res);
        hta_fsy_result_free(&res);
        assert_memory_equal(a, b, (size_t)inst->m * sizeof *a);
        free(a);
        free(b);
        hta_instance_free(inst);
    }
}

/* The flow bound by hand: 4 tasks all on server 0 of 2, w_loc 1, w_rem 3.
 * L < 1: no local task, total 12 > 2L.  k = 1 (L in [1,2)): one local,
 * three remote, total 10: L >= 5, outside [1,2).  k = 2: 2 local, 2 remote:
 * total 8, L >= 4, outside [2,3).  k = 3: 3 local, 1 remote: total 6,
 * L >= 3 and pigeonhole L >= 3: L = 3 in [3,4).  The optimum is 3. */
static void test_flow_bound_by_hand(void **state)
{
    (void)state;
    hta_instance *inst = parse_text("hta-instance 1\ntasks 4\nservers 2\n"
                                    "w_loc 1\nw_rem 3\ntask 0 0\ntask 1 0\n"
                                    "task 2 0\ntask 3 0\n");
    int64_t f[] = {0, 1, 2, 3, 4};
    assert_true(hta_bound_flow(inst, f, 4) == 3.0);
    /* f(1) = 1 alone: concavity gives f(k) <= k, the same argument */
    assert_true(hta_bound_flow(inst, f, 1) == 3.0);
    assert_true(hta_bound_flow(inst, f, 0) == 2.0); /* (K+1)*w_loc */
    assert_true(hta_bound_trivial(inst) == 2.0);
    hta_diag d;
    double lb;
    assert_int_equal(hta_bound_flow_compute(inst, &lb, &d), HTA_OK);
    assert_true(lb == 3.0);
    int32_t a[4];
    hta_fsy_result res;
    assert_true(run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 1, 0, a, &res) == 3.0);
    assert_true(res.lower_bound == 3.0);
    hta_fsy_result_free(&res);
    hta_instance_free(inst);
}

/* The flow bound from a prefix f[0..K] of the sweep (the concave tail,
 * bounds.c): f is concave on every instance; the bound never exceeds the
 * bound from the whole sweep nor (tiny instances) the brute-force optimum,
 * and grows with K.  Teeth: where the whole sweep's bound is above the
 * plain (K+1)*w_loc, the tail must beat it on a fifth of the prefixes
 * and reach the whole sweep's bound on some. */
static void test_flow_bound_tail(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 34);
    int beats = 0, reaches = 0, gainable = 0;
    for (int i = 0; i < 600; i++) {
        hta_instance *inst =
            i % 3 == 2 ? hdfs_instance(300 + i, 300 + i, 1 + i % 3,
                                       (i % 4) * 0.5, 1.5 + i % 3,
                                       (uint64_t)i) :
                         random_instance(&r, 8, 4, 3, i % COST_MODELS);
        hta_diag d;
        int64_t *f = NULL, K = 0;
        assert_int_equal(hta_maxcover_sweep(inst, NULL, NULL, &f, &K, &d),
                         HTA_OK);
        for (int64_t k = 1; k < K; k++)
            assert_true(f[k + 1] - f[k] <= f[k] - f[k - 1]);
        double whole = hta_bound_flow(inst, f, K), prev = 0;
        double opt = INFINITY;
        if (inst->m <= 8) {
            int32_t best[8];
            assert_int_equal(brute_opt(inst, best, &d), HTA_OK);
            opt = evaluate(inst, best, NULL);
            assert_true(whole <= opt);
        }
        for (int64_t k = 0; k <= K; k++) {
            double b = hta_bound_flow(inst, f, k);
            assert_true(b <= whole && b >= prev);
            prev = b;
            double plain = fmax((double)(k + 1) * inst->w_loc,
                                hta_bound_trivial(inst));
            if (k < K && whole > plain) { /* the tail has room */
                gainable++;
                beats += b > plain;
                reaches += b == whole;
            }
        }
        free(f);
        hta_instance_free(inst);
    }
    print_message("of %d prefixes with room, the tail is above (K+1)*w_loc "
                  "on %d, the whole sweep's bound on %d\n",
                  gainable, beats, reaches);
    assert_true(beats > gainable / 5 && reaches > 0);
}

/* Large uniform placements: fsy reaches the trivial bound. */
static void test_uniform_proven(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(20000, 200, 3, 0, 3, 4);
    int32_t *a = malloc(20000 * sizeof *a);
    hta_fsy_result res;
    double span = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 1, 0, a, &res);
    assert_true(span == 100.0);
    assert_true(res.lower_bound == 100.0);
    hta_fsy_result_free(&res);
    free(a);
    hta_instance_free(inst);
}


/* The idle tail (instance.h): an instance declaring many more servers than
 * it names is solved on its first k + m servers.  Oracle: the same
 * instance with one more line naming the last declared server, which makes
 * every server a working one.  Both must give the same makespans for
 * deterministic rr, fsy, the ILP and brute force (and the same assignment
 * for rr and brute force); every lower bound of either must stay below
 * the optimum; randomized rr's assignments must evaluate to a makespan at
 * least the optimum, with servers anywhere below n_declared. */
static void solve_text(const char *text, hta_algo *algos, int nalgos,
                       hta_solve_result *r, hta_instance **inst)
{
    *inst = parse_text(text);
    hta_solve_opts o;
    hta_solve_opts_default(&o);
    memcpy(o.algos, algos, (size_t)nalgos * sizeof *algos);
    o.nalgos = nalgos;
    o.time_limit = 30;
    hta_diag d;
    if (hta_solve(*inst, &o, r, &d) != HTA_OK)
        fail_msg("solve: %s", d.msg);
}

static void test_idle_tail(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 77);
    hta_algo algos[] = {HTA_ALGO_RR, HTA_ALGO_FSY, HTA_ALGO_ILP,
                        HTA_ALGO_BRUTE};
    for (int i = 0; i < 120; i++) {
        int32_t m = 1 + (int32_t)hta_rng_below(&r, 5);
        int32_t k = 1 + (int32_t)hta_rng_below(&r, 3);
        int32_t n = k + m + 1 + (int32_t)hta_rng_below(&r, 6);
        double c = 1.5 + (double)hta_rng_below(&r, 4);
        char text[2048], named[2200];
        int len = snprintf(text, sizeof text,
                           "hta-instance 1\ntasks %d\nservers %d\nw_loc 1\n"
                           "w_rem %g\n",
                           m, n, c);
        int32_t named_k = 0; /* 1 + the largest server id named */
        for (int32_t t = 0; t < m; t++) {
            int32_t a = (int32_t)hta_rng_below(&r, (uint64_t)k);
            named_k = a + 1 > named_k ? a + 1 : named_k;
            len += snprintf(text + len, sizeof text - (size_t)len,
                            "task %d %d\n", t, a);
        }
        snprintf(named, sizeof named, "%sname server %d last\n", text, n - 1);
        hta_solve_result a, b;
        hta_instance *ia, *ib;
        solve_text(text, algos, 4, &a, &ia);
        solve_text(named, algos, 4, &b, &ib);
        assert_int_equal(ia->n_declared, n);
        assert_int_equal(ia->n, named_k + m);
        assert_int_equal(ib->n, n);
        double opt = b.rows[3].makespan;
        assert_string_equal(b.rows[3].status, "optimal");
        for (int row = 0; row < 4; row++) {
            assert_true(a.rows[row].has_value && b.rows[row].has_value);
            if (a.rows[row].makespan != b.rows[row].makespan)
                fail_msg("case %d, %s: %g with the idle tail, %g without", i,
                         a.rows[row].algorithm, a.rows[row].makespan,
                         b.rows[row].makespan);
        }
        assert_true(a.lower_bound <= opt + 1e-9);
        assert_true(b.lower_bound <= opt + 1e-9);
        hta_solve_result_free(&a);
        hta_solve_result_free(&b);
        /* randomized rr over all declared servers */
        for (uint64_t seed = 1; seed <= 3; seed++) {
            int32_t asg[8];
            hta_diag d;
            hta_eval ev;
            assert_int_equal(hta_rr_run(ia, 1, seed, asg, &d), HTA_OK);
            for (int32_t t = 0; t < m; t++)
                assert_true(asg[t] >= 0 && asg[t] < n);
            assert_int_equal(hta_eval_run(ia, asg, &ev, &d), HTA_OK);
            assert_true(ev.makespan >= opt - 1e-9);
            assert_int_equal(ev.local + ev.remote, m);
            hta_eval_free(&ev);
        }
        hta_instance_free(ia);
        hta_instance_free(ib);
    }
}

/* tau* of the jump by its definition (fsy.c), 0 where a condition fails:
 * the least tau with sum_s min(tau, deg_s) >= m, tau* >= 2, a server
 * with no replica, one remote task dearer than tau* local ones. */
static int64_t jump_ref(const hta_instance *inst)
{
    double alone = hta_load(inst, 0, 1, hta_wrem_at(&inst->wrem, 1));
    int empty = 0;
    for (int32_t s = 0; s < inst->n; s++)
        empty |= inst->srv_off[s + 1] == inst->srv_off[s];
    for (int64_t tau = 1; tau <= inst->m; tau++) {
        int64_t D = 0;
        for (int32_t s = 0; s < inst->n; s++) {
            int64_t deg = inst->srv_off[s + 1] - inst->srv_off[s];
            D += deg < tau ? deg : tau;
        }
        if (D >= inst->m)
            return tau >= 2 && empty &&
                           hta_load(inst, tau, 0, 0.0) < alone ?
                       tau : 0;
    }
    return 0;
}

/* The jump (prune 2) gives the full sweep's makespan and tau, and where
 * it fires a cover of every task within tau* that is optimal (brute
 * force on tiny instances) with the lower bound equal to it and f below
 * tau* bounded by the degrees; where it does not, prune 1's assignment.
 * Both outcomes of an attempt (a cover of every task, or a miss and the
 * sweep after it) occur. */
static void test_jump(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 35);
    int jumped = 0, missed = 0, brute = 0;
    for (int i = 0; i < 600; i++) {
        hta_instance *inst;
        int tiny = i % 3 == 0;
        if (tiny) {
            inst = random_instance(&r, 6, 8, 2, i % COST_MODELS);
        } else {
            int32_t m = 100 + (int32_t)hta_rng_below(&r, 400);
            int32_t n = m - 20 + (int32_t)hta_rng_below(&r, 60);
            double zipf = (double)hta_rng_below(&r, 3) * 0.5;
            double v[1] = {2.0 + (double)hta_rng_below(&r, 7) * 0.5};
            hta_wrem w;
            memset(&w, 0, sizeof w);
            if (i % 3 == 1) {
                w.kind = HTA_WREM_TABLE;
                w.v = v;
            } else {
                w.kind = HTA_WREM_AFFINE;
                w.a = v[0];
                w.b = 0.01;
            }
            inst = hdfs_instance_wrem(m, n, 1 + (int32_t)(i % 4 == 2) +
                                                 (int32_t)(i % 8 < 4) * 2,
                                      zipf, &w, (uint64_t)i);
        }
        int32_t *a = malloc((size_t)inst->m * sizeof *a);
        int32_t *b = malloc((size_t)inst->m * sizeof *b);
        hta_fsy_result full, one, two;
        double span_full = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 0, 0, b,
                                   &full);
        run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 1, 0, b, &one);
        double span = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 2, 0, a, &two);
        assert_true(span == span_full);
        assert_int_equal(two.best_tau, full.best_tau);
        int64_t ref = jump_ref(inst);
        if (two.jumped) {
            jumped++;
            assert_int_equal(two.jumped, ref);
            int64_t tau = two.jumped, r_jump;
            assert_true(evaluate(inst, a, &r_jump) ==
                        hta_load(inst, tau, 0, 0.0));
            assert_int_equal(r_jump, 0);
            assert_int_equal(full.f[tau], inst->m);
            assert_true(full.f[tau - 1] < inst->m);
            for (int64_t k = 1; k < tau; k++)
                assert_true(two.f[k] >= full.f[k] && two.f[k] < inst->m);
            assert_true(two.lower_bound == span);
            assert_true(one.lower_bound == span);
            assert_int_equal(two.balanced, 0);
            if (tiny && hta_brute_fits(inst)) {
                int32_t *opt = malloc((size_t)inst->m * sizeof *opt);
                hta_diag d;
                assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
                assert_true(evaluate(inst, opt, NULL) == span);
                brute++;
                free(opt);
            }
        } else {
            /* a miss: the cover at tau* left a task out */
            if (ref) {
                missed++;
                int64_t fk = 0;
                hta_maxcover *mc;
                hta_diag d;
                assert_int_equal(hta_maxcover_new(inst,
                                                  HTA_MAXFLOW_INCREMENTAL,
                                                  &mc, &d), HTA_OK);
                assert_int_equal(hta_maxcover_raise(mc, ref, &d), HTA_OK);
                fk = hta_maxcover_size(mc);
                hta_maxcover_free(mc);
                assert_true(fk < inst->m);
            }
            if (!two.spread) { /* else test_spread */
                assert_memory_equal(a, b, (size_t)inst->m * sizeof *a);
                assert_true(two.lower_bound == one.lower_bound);
            }
        }
        hta_fsy_result_free(&full);
        hta_fsy_result_free(&one);
        hta_fsy_result_free(&two);
        free(a);
        free(b);
        hta_instance_free(inst);
    }
    print_message("jump: %d of 600 (%d against brute force), %d missed\n",
                  jumped, brute, missed);
    assert_true(jumped >= 50);
    assert_true(brute >= 10);
    assert_true(missed >= 5);
}

/* One task a server (prune 2, fsy.c): m <= n.  The full sweep's makespan
 * and tau always; where it fires, the optimum (brute force on tiny
 * instances), the lower bound equal to it, at most one task a server,
 * f(1) bounded by the servers holding a replica; where the costs allow it
 * but the bound does not, prune 1's assignment.  Both occur. */
static void test_spread(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 36);
    int fired = 0, held = 0, brute = 0;
    for (int i = 0; i < 600; i++) {
        hta_instance *inst;
        int tiny = i % 3 == 0;
        if (tiny) {
            inst = random_instance(&r, 6, 8, 2,
                                   i % 2 ? COST_INTEGER : i % COST_MODELS);
        } else {
            int32_t n = 50 + (int32_t)hta_rng_below(&r, 400);
            int32_t m = n / 2 + (int32_t)hta_rng_below(&r, (uint64_t)n / 2 + 1);
            double zipf = (double)hta_rng_below(&r, 4) * 0.5;
            int32_t k = 1 + (int32_t)hta_rng_below(&r, 3);
            double c = (double)(1 + hta_rng_below(&r, 4));
            inst = hdfs_instance(m, n, k, zipf, c, (uint64_t)i);
        }
        int32_t m = inst->m;
        int32_t *a = malloc((size_t)m * sizeof *a);
        int32_t *b = malloc((size_t)m * sizeof *b);
        hta_fsy_result full, one, two;
        double span_full = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 0, 0, b,
                                   &full);
        run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 1, 0, b, &one);
        double span = run_fsy(inst, HTA_MAXFLOW_INCREMENTAL, 2, 0, a, &two);
        assert_true(span == span_full);
        assert_int_equal(two.best_tau, full.best_tau);
        if (two.spread) {
            fired++;
            assert_true(m <= inst->n && hta_instance_exact_costs(inst));
            assert_int_equal(two.best_tau, 1);
            assert_true(two.lower_bound == span);
            assert_true(two.f[1] >= full.f[1]);
            int32_t *cnt = calloc((size_t)inst->n, sizeof *cnt);
            for (int32_t t = 0; t < m; t++)
                assert_true(++cnt[a[t]] == 1);
            free(cnt);
            if (tiny && hta_brute_fits(inst)) {
                int32_t *opt = malloc((size_t)m * sizeof *opt);
                hta_diag d;
                assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
                assert_true(evaluate(inst, opt, NULL) == span);
                brute++;
                free(opt);
            }
        } else if (!two.jumped) {
            held += m <= inst->n && hta_instance_exact_costs(inst);
            assert_memory_equal(a, b, (size_t)m * sizeof *a);
        }
        hta_fsy_result_free(&full);
        hta_fsy_result_free(&one);
        hta_fsy_result_free(&two);
        free(a);
        free(b);
        hta_instance_free(inst);
    }
    print_message("one task a server: %d of 600 (%d against brute force), "
                  "%d where the bound held it back\n",
                  fired, brute, held);
    assert_true(fired >= 50 && brute >= 10 && held >= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fsy_vs_brute),
        cmocka_unit_test(test_fsy_two_servers_optimal),
        cmocka_unit_test(test_prune_equals_full),
        cmocka_unit_test(test_jump),
        cmocka_unit_test(test_spread),
        cmocka_unit_test(test_flow_bound_by_hand),
        cmocka_unit_test(test_flow_bound_tail),
        cmocka_unit_test(test_uniform_proven),
        cmocka_unit_test(test_idle_tail),
    };
    return cmocka_run_group_tests_name("fsy", tests, NULL, NULL);
}
