/* Evaluator, round robin (Theorems 4.1, 4.2) and the brute-force oracle. */
#include "helpers.h"

#include <math.h>

#include "hta/assign.h"
#include "hta/gen.h"
#include "exact/brute.h"
#include "offline/rr.h"

static void test_eval_by_hand(void **state)
{
    (void)state;
    /* w_rem(r) = 2 + r: with 2 remote tasks a remote one costs 4. */
    hta_instance *inst = parse_text("hta-instance 1\ntasks 4\nservers 2\n"
                                    "w_loc 1\nw_rem affine 2 1\n"
                                    "task 0 0\ntask 1 0\ntask 2 0 1\n"
                                    "task 3 0\n");
    int32_t a[] = {0, 1, 1, 1};
    hta_eval ev;
    hta_diag d;
    assert_int_equal(hta_eval_run(inst, a, &ev, &d), HTA_OK);
    assert_int_equal(ev.local, 2);
    assert_int_equal(ev.remote, 2);
    assert_true(ev.w_rem_r == 4.0);
    assert_true(ev.load[0] == 1.0);
    assert_true(ev.load[1] == 1.0 + 4.0 + 4.0);
    assert_true(ev.makespan == 9.0);
    assert_true(ev.total == 10.0);
    assert_int_equal(ev.argmax, 1);
    assert_int_equal(ev.nloc[1], 1);
    assert_int_equal(ev.nrem[1], 2);
    hta_eval_free(&ev);
    int32_t bad[] = {0, 2, 0, 0};
    assert_int_equal(hta_eval_run(inst, bad, &ev, &d), HTA_ERR_INPUT);
    hta_instance_free(inst);
}

/* Theorem 4.1: the identity placement gives w_loc; one more replica (t_n
 * on s_1) makes round robin give w_rem. */
static void test_theorem_4_1(void **state)
{
    (void)state;
    for (int32_t n = 2; n <= 12; n++) {
        for (int extra = 0; extra <= 1; extra++) {
            hta_instance *inst = NULL;
            hta_diag d;
            assert_int_equal(hta_gen_rr_replica(n, extra, &inst, &d), HTA_OK);
            int32_t a[12];
            assert_int_equal(hta_rr_run(inst, 0, 0, a, &d), HTA_OK);
            assert_true(evaluate(inst, a, NULL) == (extra ? 3.0 : 1.0));
            if (extra) {
                assert_int_equal(a[n - 1], 0); /* s_1 took t_n */
                assert_int_equal(a[0], n - 1); /* t_1 ended on s_n */
            }
            hta_instance_free(inst);
        }
    }
}

static void test_rr_valid_and_seeded(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(2000, 37, 3, 1.1, 3.0, 5);
    int32_t *a = malloc(2000 * sizeof *a), *b = malloc(2000 * sizeof *b);
    hta_diag d;
    assert_int_equal(hta_rr_run(inst, 1, 42, a, &d), HTA_OK);
    assert_int_equal(hta_rr_run(inst, 1, 42, b, &d), HTA_OK);
    assert_memory_equal(a, b, 2000 * sizeof *a);
    /* Round robin hands out tasks one per visit: loads differ by <= 1. */
    int32_t cnt[37] = {0};
    for (int t = 0; t < 2000; t++)
        cnt[a[t]]++;
    for (int s = 0; s < 37; s++)
        assert_true(cnt[s] == 2000 / 37 || cnt[s] == 2000 / 37 + 1);
    free(a);
    free(b);
    hta_instance_free(inst);
}

/* Brute force is exact; round robin never beats it and, with a constant
 * remote cost, stays within (w_rem/w_loc) * L^O (Theorem 4.2). */
static void test_rr_vs_brute(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 3);
    int32_t a[8], opt[8];
    for (int i = 0; i < 400; i++) {
        int model = i % COST_MODELS;
        hta_instance *inst = random_instance(&r, 8, 4, 4, model);
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        double lo = evaluate(inst, opt, NULL);
        for (int run = 0; run < 4; run++) {
            assert_int_equal(hta_rr_run(inst, run > 0, (uint64_t)run, a, &d),
                             HTA_OK);
            double span = evaluate(inst, a, NULL);
            assert_true(span >= lo);
            if (model == COST_CONSTANT)
                assert_true(span <= inst->wrem.v[0] / inst->w_loc * lo *
                                        (1 + 1e-12));
        }
        hta_instance_free(inst);
    }
}

/* The oracle itself: against an independent recursive enumeration. */
static double rec_best(const hta_instance *inst, int32_t t, int32_t *a)
{
    if (t == inst->m)
        return evaluate(inst, a, NULL);
    double best = INFINITY;
    for (int32_t s = 0; s < inst->n; s++) {
        a[t] = s;
        double x = rec_best(inst, t + 1, a);
        if (x < best)
            best = x;
    }
    return best;
}

static void test_brute_vs_recursion(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 9);
    int32_t a[6], opt[6];
    for (int i = 0; i < 150; i++) {
        hta_instance *inst = random_instance(&r, 6, 4, 3, i % COST_MODELS);
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        assert_true(evaluate(inst, opt, NULL) == rec_best(inst, 0, a));
        hta_instance_free(inst);
    }
}

static void test_brute_refuses_large(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(40, 10, 2, 0, 3, 1);
    int32_t a[40];
    hta_diag d;
    assert_false(hta_brute_fits(inst));
    assert_int_equal(brute_opt(inst, a, &d), HTA_ERR_USAGE);
    hta_instance_free(inst);
}

/* A raised stop flag ends the search after the first assignment: best is
 * a complete assignment of the instance and complete is 0. */
static void test_brute_stops(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(8, 4, 2, 0, 3, 1);
    int32_t a[8];
    hta_diag d;
    volatile sig_atomic_t stop = 1;
    int complete = 1;
    assert_int_equal(hta_brute_run(inst, &stop, a, &complete, &d), HTA_OK);
    assert_false(complete);
    for (int t = 0; t < 8; t++)
        assert_int_equal(a[t], 0); /* the first assignment of the odometer */
    stop = 0;
    assert_int_equal(hta_brute_run(inst, &stop, a, &complete, &d), HTA_OK);
    assert_true(complete);
    hta_instance_free(inst);
}

/* Theorem 4.3's family: deterministic round robin reaches floor(m/n) *
 * w_rem while the placement admits ceil(m/n) * w_loc (checked by brute
 * force where it fits, otherwise by the all-local assignment). */
static void test_theorem_4_3(void **state)
{
    (void)state;
    for (int32_t n = 3; n <= 9; n++)
        for (int32_t m = n; m <= n * (n - 2); m++) {
            hta_instance *inst = NULL;
            hta_diag d;
            assert_int_equal(hta_gen_rr_worst(n, m, &inst, &d), HTA_OK);
            int32_t *a = malloc((size_t)m * sizeof *a);
            assert_int_equal(hta_rr_run(inst, 0, 0, a, &d), HTA_OK);
            assert_true(evaluate(inst, a, NULL) == (double)(m / n) * 3.0);
            /* the optimum: every task on its first server */
            for (int32_t t = 0; t < m; t++)
                a[t] = inst->task_srv[inst->task_off[t] +
                                      (inst->task_off[t + 1] -
                                       inst->task_off[t] - 1)];
            assert_true(evaluate(inst, a, NULL) == (double)((m + n - 1) / n));
            if (hta_brute_fits(inst)) {
                assert_int_equal(brute_opt(inst, a, &d), HTA_OK);
                assert_true(evaluate(inst, a, NULL) == (double)((m + n - 1) / n));
            }
            free(a);
            hta_instance_free(inst);
        }
    hta_instance *inst = NULL;
    hta_diag d;
    assert_int_equal(hta_gen_rr_worst(5, 16, &inst, &d), HTA_ERR_USAGE);
}

/* HDFS's rack-aware policy: the second replica in another rack than the
 * first, the third in the second's rack. */
static void test_rack_aware(void **state)
{
    (void)state;
    double v = 3;
    hta_gen_hdfs_params p;
    memset(&p, 0, sizeof p);
    p.tasks = 3000;
    p.servers = 40;
    p.replicas = 3;
    p.racks = 5;
    p.rack_aware = 1;
    p.w_loc = 1;
    p.wrem = (hta_wrem){HTA_WREM_TABLE, 0, &v, 0, 0};
    p.seed = 9;
    hta_instance *inst = NULL;
    hta_diag d;
    assert_int_equal(hta_gen_hdfs(&p, &inst, &d), HTA_OK);
    for (int32_t t = 0; t < inst->m; t++) {
        const int32_t *s = inst->task_srv + inst->task_off[t];
        assert_true(s[0] * 5 / 40 != s[1] * 5 / 40);
        assert_true(s[1] * 5 / 40 == s[2] * 5 / 40);
        assert_true(s[1] != s[2]);
    }
    hta_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_by_hand),
        cmocka_unit_test(test_theorem_4_1),
        cmocka_unit_test(test_rr_valid_and_seeded),
        cmocka_unit_test(test_rr_vs_brute),
        cmocka_unit_test(test_brute_vs_recursion),
        cmocka_unit_test(test_brute_refuses_large),
        cmocka_unit_test(test_brute_stops),
        cmocka_unit_test(test_theorem_4_3),
        cmocka_unit_test(test_rack_aware),
    };
    return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
