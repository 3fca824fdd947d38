/* Gap closing (close.h): the characterization "makespan <= L iff some
 * local load vector has sum g >= m" against brute force, the search's
 * answers against brute force on every cost model, and against GLPK's
 * proven optimum on mid-size HDFS-like instances. */
#include "helpers.h"

#include <math.h>

#include "hta/solve.h"
#include "exact/close.h"

static hta_close_result decide(const hta_instance *inst, double L,
                               int32_t *a)
{
    hta_close_opts o = {30, NULL, NULL, NULL};
    hta_close_result res;
    hta_diag d;
    if (hta_close_decide(inst, L, &o, a, &res, &d) != HTA_OK)
        fail_msg("close: %s", d.msg);
    return res;
}

/* Does some partial local assignment (each task on one of its servers or
 * uncovered) reach sum_s g(x_s) >= m, every x_s within L?  Exhaustive. */
static int some_cover_fits(const hta_instance *inst, double c, double L)
{
    int32_t m = inst->m, n = inst->n;
    int32_t pick[8], x[8];
    memset(pick, 0, sizeof pick);
    for (;;) {
        memset(x, 0, sizeof x);
        for (int32_t t = 0; t < m; t++)
            if (pick[t] > 0)
                x[inst->task_srv[inst->task_off[t] + pick[t] - 1]]++;
        int64_t sum = 0;
        int ok = 1;
        for (int32_t s = 0; s < n && ok; s++) {
            int64_t j = slots_ref(inst, x[s], c, L, 0);
            ok = j >= 0;
            sum += x[s] + j;
        }
        if (ok && sum >= m)
            return 1;
        int32_t t = 0; /* next choice vector, odometer-wise */
        while (t < m && ++pick[t] > inst->task_off[t + 1] - inst->task_off[t])
            pick[t++] = 0;
        if (t == m)
            return 0;
    }
}

/* Constant w_rem: the criterion of close.h equals the brute-force answer
 * at the optimum and just below it; the search is sound and, where it
 * answers, right. */
static void test_characterization(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 77);
    int32_t a[8], opt[8];
    int found = 0, total = 0;
    for (int i = 0; i < 400; i++) {
        hta_instance *inst = random_instance(&r, 7, 4, 3, COST_CONSTANT);
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        double lo = evaluate(inst, opt, NULL), c = inst->wrem.v[0];
        double below = lo - 0.25 * inst->w_loc;
        if (!some_cover_fits(inst, c, lo) || some_cover_fits(inst, c, below))
            fail_msg("instance %d: the criterion disagrees with brute force "
                     "(optimum %g)", i, lo);
        hta_close_result res = decide(inst, lo, a);
        if (res.found) {
            assert_true(evaluate(inst, a, NULL) == lo);
            assert_true(res.makespan == lo);
            found++;
        }
        assert_true(res.end >= res.start);
        assert_false(decide(inst, below, a).found);
        total++;
        hta_instance_free(inst);
    }
    /* the search is not complete; on these it answered 400 of 400 */
    print_message("close found the optimum on %d of %d tiny instances\n",
                  found, total);
    assert_true(found * 10 >= total * 9);
}

/* Every cost model: a yes is an assignment within L, never below the
 * optimum. */
static void test_sound_every_model(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 78);
    int32_t a[8], opt[8];
    for (int i = 0; i < 450; i++) {
        hta_instance *inst = random_instance(&r, 8, 4, 3, i % COST_MODELS);
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        double lo = evaluate(inst, opt, NULL);
        const double Ls[] = {lo * (1 - 1e-9), lo, lo * 1.2, lo + 10};
        for (int k = 0; k < 4; k++) {
            hta_close_result res = decide(inst, Ls[k], a);
            if (!res.found)
                continue;
            double span = evaluate(inst, a, NULL);
            if (span > Ls[k] || span < lo || span != res.makespan)
                fail_msg("instance %d L %g: close %g, optimum %g", i, Ls[k],
                         span, lo);
        }
        hta_instance_free(inst);
    }
}

/* Tasks with more replicas than the search keeps beside its covered
 * lists (close.c, REPS) send it to the placement arrays instead: on tiny
 * instances with up to 7 replicas a task, a yes at the optimum is an
 * assignment within it, and the search finds one on most. */
static void test_wide_replicas(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 79);
    int32_t a[7], opt[7];
    int wide = 0, found = 0;
    for (int i = 0; i < 400; i++) {
        hta_instance *inst = random_instance(&r, 7, 7, 7, COST_CONSTANT);
        int most = 0;
        for (int32_t t = 0; t < inst->m; t++) {
            int64_t k = inst->task_off[t + 1] - inst->task_off[t];
            most = k > most ? (int)k : most;
        }
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        double lo = evaluate(inst, opt, NULL);
        hta_close_result res = decide(inst, lo, a);
        if (res.found) {
            double span = evaluate(inst, a, NULL);
            if (span > lo || span != res.makespan)
                fail_msg("instance %d: close %g, optimum %g", i, span, lo);
        }
        if (most > 4) {
            wide++;
            found += res.found;
        }
        hta_instance_free(inst);
    }
    print_message("%d of %d instances with a task on more than 4 servers "
                  "closed at the optimum\n",
                  found, wide);
    assert_true(wide >= 100 && found >= wide / 2);
}

/* Mid-size HDFS-like instances with hot spots (1000 tasks, 100 servers,
 * Zipf s = 1, where fsy is often one above the flow bound): hta_solve
 * with fsy, close and the ILP; where close answers, GLPK proves the same
 * optimum, and close never skips a gap. */
static void test_against_ilp(void **state)
{
    (void)state;
    int closed = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        hta_instance *inst = hdfs_instance(1000, 100, 3, 1.0, 3.0, seed);
        /* fsy then close; apart, fsy then GLPK (fsy's incumbent and the
           flow bound, never close's assignment) */
        hta_solve_result rc, ri;
        solve_fsy_then(inst, HTA_ALGO_CLOSE, &rc);
        solve_fsy_then(inst, HTA_ALGO_ILP, &ri);
        const hta_row *fsy = &rc.rows[0], *cl = &rc.rows[1],
                      *ilp = &ri.rows[1];
        assert_string_equal(ilp->status, "optimal");
        assert_true(fsy->makespan >= ilp->makespan);
        if (cl->has_value) {
            if (cl->makespan != ilp->makespan ||
                strcmp(cl->status, "optimal") != 0)
                fail_msg("seed %llu: close %g (%s), ilp %g",
                         (unsigned long long)seed, cl->makespan, cl->status,
                         ilp->makespan);
            closed += fsy->makespan > cl->makespan;
        } else {
            /* no answer: never skipped with a gap open */
            assert_true(strcmp(cl->status, "skipped") != 0 ||
                        fsy->makespan == ilp->makespan);
        }
        hta_solve_result_free(&rc);
        hta_solve_result_free(&ri);
        hta_instance_free(inst);
    }
    print_message("close improved fsy to the optimum on %d of 12\n", closed);
    assert_true(closed >= 10);
}

/* Shifts (close.h): HDFS Zipf s = 1.5, 10^4 tasks, 100 servers, w_rem 3,
 * seed 1, whose optimum 164 is the flow bound (GLPK proves it, below, in
 * about a second): the paths alone end short of sum g = m at 164; the
 * shifts reach it, and the assignment evaluates to 164. */
static void test_shifts(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(10000, 100, 3, 1.5, 3.0, 1);
    int32_t *a = malloc(10000 * sizeof *a);
    assert_non_null(a);
    hta_close_opts o = {60, NULL, NULL, NULL};
    hta_close_result res;
    hta_diag d;
    assert_int_equal(hta_close_decide(inst, 164, &o, a, &res, &d), HTA_OK);
    print_message("sum g %lld -> %lld of %lld, %lld by shifts\n",
                  (long long)res.start, (long long)res.end,
                  (long long)res.need, (long long)res.shifts);
    assert_true(res.found && res.makespan == 164);
    assert_true(res.shifts >= 1 && res.end - res.shifts < res.need);
    assert_true(evaluate(inst, a, NULL) == 164);
    hta_solve_result ri;
    solve_fsy_then(inst, HTA_ALGO_ILP, &ri);
    assert_string_equal(ri.rows[1].status, "optimal");
    assert_true(ri.rows[1].makespan == 164);
    hta_solve_result_free(&ri);
    free(a);
    hta_instance_free(inst);
}

/* The stop flag and the time limit end the search before an answer,
 * and hta_solve reports the row as interrupted. */
static void test_stops(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(1000, 100, 3, 1.0, 3.0, 2);
    int32_t a[1000];
    hta_diag d;
    volatile sig_atomic_t stop = 1;
    hta_close_opts o = {60, &stop, NULL, NULL};
    hta_close_result res;
    /* 12 is the optimum (test_against_ilp), reached only after rounds
     * (the envelope's start has sum g 997 of 1000) */
    assert_int_equal(hta_close_decide(inst, 12, &o, a, &res, &d), HTA_OK);
    assert_true(res.stopped && !res.found && res.rounds == 0);
    o.stop = NULL;
    o.time_limit = 0;
    assert_int_equal(hta_close_decide(inst, 12, &o, a, &res, &d), HTA_OK);
    assert_true(res.start < res.need);
    assert_true(res.stopped && !res.found);
    o.time_limit = 60;
    assert_int_equal(hta_close_decide(inst, 12, &o, a, &res, &d), HTA_OK);
    assert_true(res.found && !res.stopped && res.makespan == 12);
    assert_true(res.rounds >= 1 && res.start < res.need);
    assert_int_equal(hta_close_decide(inst, NAN, &o, a, &res, &d),
                     HTA_ERR_USAGE);
    hta_solve_opts so;
    hta_solve_opts_default(&so);
    so.algos[0] = HTA_ALGO_FSY;
    so.algos[1] = HTA_ALGO_CLOSE;
    so.nalgos = 2;
    so.stop = &stop;
    hta_solve_result sr;
    stop = 0;
    assert_int_equal(hta_solve(inst, &so, &sr, &d), HTA_OK);
    assert_string_equal(sr.rows[1].status, "optimal");
    hta_solve_result_free(&sr);
    so.algos[0] = HTA_ALGO_CLOSE;
    so.nalgos = 1;
    stop = 1;
    assert_int_equal(hta_solve(inst, &so, &sr, &d), HTA_OK);
    assert_string_equal(sr.rows[0].status, "interrupted");
    assert_false(sr.rows[0].has_value);
    hta_solve_result_free(&sr);
    hta_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_characterization),
        cmocka_unit_test(test_sound_every_model),
        cmocka_unit_test(test_against_ilp),
        cmocka_unit_test(test_wide_replicas),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
