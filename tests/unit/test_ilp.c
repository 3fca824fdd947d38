/* The exact ILP against brute force; Theorem 5.4 with the true optimum;
 * statuses; GLPK's abort turned into an error; CBC (alone and side by
 * side with GLPK, in a build with CBC=yes) against brute force and
 * against GLPK. */
#include "helpers.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glpk.h>

#include "hta/assign.h"
#include "hta/fsy.h"
#include "hta/ilp.h"
#include "hta/num.h"
#include "hta/reduce.h"
#include "hta/version.h"
#include "core/cbcx.h"
#include "core/glpkx.h"
#include "offline/bounds.h"
#include "exact/brute.h"

static hta_ilp_result solve_with(const hta_instance *inst, int plain,
                                 hta_ilp_model model, const int32_t *inc,
                                 double lb, double limit, int32_t *a,
                                 hta_ilp_engine engine)
{
    hta_ilp_opts o = {limit, 100000, 0,    plain, model, NULL, inc, lb, NULL,
                      NULL,  NULL,   engine};
    hta_ilp_result res;
    hta_diag d;
    if (hta_ilp_solve(inst, &o, a, &res, &d) != HTA_OK)
        fail_msg("ilp: %s", d.msg);
    return res;
}

static hta_ilp_result solve(const hta_instance *inst, int plain,
                            hta_ilp_model model, const int32_t *inc,
                            double lb, double limit, int32_t *a)
{
    return solve_with(inst, plain, model, inc, lb, limit, a,
                      HTA_ILP_ENGINE_GLPK);
}

/* No child process left behind: every CBC child was killed and reaped. */
static int no_children(void)
{
    return waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD;
}

static void test_ilp_vs_brute(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 41);
    int32_t a[8], opt[8], inc[8];
    int by_cbc = 0;
    for (int i = 0; i < 450; i++) {
        hta_instance *inst = random_instance(&r, 8, 4, 3, i % COST_MODELS);
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        double lo = evaluate(inst, opt, NULL);
        /* plain compact, plain naive, and with fsy's incumbent and bound;
         * with CBC (the first 120): CBC alone on the plain model, and
         * beside GLPK with the incumbent */
        int modes = hta_cbc_available() && i < 120 ? 5 : 3;
        for (int mode = 0; mode < modes; mode++) {
            hta_ilp_result res;
            if (mode < 2) {
                res = solve(inst, 1, mode ? HTA_ILP_NAIVE : HTA_ILP_COMPACT,
                            NULL, 0, 30, a);
            } else if (mode == 3) {
                res = solve_with(inst, 1, HTA_ILP_COMPACT, NULL, 0, 30, a,
                                 HTA_ILP_ENGINE_CBC);
                assert_true(res.proved_by != 0);
                by_cbc += (res.proved_by & 2) != 0;
            } else {
                hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 1, 0, NULL,
                                   NULL, NULL, NULL};
                hta_fsy_result fr;
                assert_int_equal(hta_fsy_run(inst, &fo, inc, &fr, &d),
                                 HTA_OK);
                res = solve_with(inst, 0, HTA_ILP_COMPACT, inc,
                                 fr.lower_bound, 30, a,
                                 mode == 2 ? HTA_ILP_ENGINE_GLPK :
                                             HTA_ILP_ENGINE_BOTH);
                hta_fsy_result_free(&fr);
            }
            if (res.status != HTA_ILP_OPTIMAL || res.makespan != lo ||
                evaluate(inst, a, NULL) != lo)
                fail_msg("instance %d mode %d: status %d ilp %g brute %g",
                         i, mode, res.status, res.makespan, lo);
            assert_true(res.bound <= lo);
            assert_true(no_children());
        }
        hta_instance_free(inst);
    }
    /* GLPK's LP may prove a piece; CBC proved most of them itself */
    assert_true(!hta_cbc_available() || by_cbc >= 60);
}

/* The N-level ILP with CBC (alone and beside GLPK) from a poor
 * incumbent and the level bound = brute force on tiny 3- and 4-level
 * instances.  CBC gets L without its lower bound where L ranges over
 * more than one value (ilp.c, search_piece): those runs are counted, so
 * the test cannot pass without them. */
static void test_levels_cbc_vs_brute(void **state)
{
    (void)state;
    /* without CBC (a build without it) the same runs by GLPK alone */
    int cbc = hta_cbc_available();
    hta_rng r;
    hta_rng_seed(&r, 61);
    int ranged = 0, by_cbc = 0;
    for (int i = 0; i < 160; i++) {
        hta_instance *inst = random_levels(&r, 7, 5, 1 + i % 2);
        int32_t m = inst->m;
        int32_t *opt = malloc((size_t)m * sizeof *opt),
                *a = malloc((size_t)m * sizeof *a);
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        double best = evaluate(inst, opt, NULL), lb;
        assert_int_equal(hta_bound_levels_compute(inst, &lb, &d), HTA_OK);
        /* a poor incumbent (every task on server 0), so that L ranges
           from the bound to far above it and the search is CBC's */
        int32_t *inc = calloc((size_t)m, sizeof *inc);
        ranged += evaluate(inst, inc, NULL) > lb + 1e-9;
        for (int e = cbc ? HTA_ILP_ENGINE_CBC : HTA_ILP_ENGINE_GLPK;
             e <= (cbc ? HTA_ILP_ENGINE_BOTH : HTA_ILP_ENGINE_GLPK); e++) {
            hta_ilp_result res = solve_with(inst, 0, HTA_ILP_COMPACT, inc,
                                            lb, 30, a, (hta_ilp_engine)e);
            if (res.status != HTA_ILP_OPTIMAL ||
                fabs(res.makespan - best) > 1e-9 * fmax(1, best) ||
                evaluate(inst, a, NULL) != res.makespan)
                fail_msg("instance %d (%d levels) engine %d: %g, brute %g "
                         "(%s)",
                         i, hta_levels(inst), e, res.makespan, best,
                         res.detail);
            assert_true(res.bound <= best * (1 + 1e-12));
            by_cbc += (res.proved_by & 2) != 0;
            assert_true(no_children());
        }
        free(inc);
        free(opt);
        free(a);
        hta_instance_free(inst);
    }
    print_message("levels with CBC: 160 instances = brute force, %d with "
                  "the incumbent above the bound, %d proofs by CBC\n",
                  ranged, by_cbc);
    assert_true(ranged >= 20 && (!cbc || by_cbc >= 20));
}

/* Theorem 5.4 with the exact optimum, beyond brute force's reach. */
static void test_theorem_5_4_exact(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 42);
    for (int i = 0; i < 60; i++) {
        hta_instance *inst = random_instance(&r, 40, 7, 3, i % COST_MODELS);
        if (inst->n < 3) {
            hta_instance_free(inst);
            continue;
        }
        int32_t *a = malloc((size_t)inst->m * sizeof *a);
        int32_t *f = malloc((size_t)inst->m * sizeof *f);
        hta_diag d;
        hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 1, 0, NULL, NULL, NULL,
                           NULL};
        hta_fsy_result fr;
        assert_int_equal(hta_fsy_run(inst, &fo, f, &fr, &d), HTA_OK);
        hta_ilp_result res =
            solve(inst, 0, HTA_ILP_COMPACT, f, fr.lower_bound, 60, a);
        assert_int_equal(res.status, HTA_ILP_OPTIMAL);
        int64_t r_opt;
        double opt = evaluate(inst, a, &r_opt);
        double add = (1.0 - 1.0 / (inst->n - 1)) *
                     hta_wrem_at(&inst->wrem, r_opt);
        assert_true(fr.makespan >= opt);
        assert_true(fr.makespan <= opt + add + 1e-9);
        assert_true(fr.lower_bound <= opt);
        hta_fsy_result_free(&fr);
        free(a);
        free(f);
        hta_instance_free(inst);
    }
}

static void test_statuses(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(50, 5, 2, 0, 3, 1);
    int32_t a[50];
    hta_ilp_opts o = {10,   49,   0,    0,   HTA_ILP_COMPACT,    NULL,
                      NULL, 0,    NULL, NULL, NULL, HTA_ILP_ENGINE_GLPK};
    hta_ilp_result res;
    hta_diag d;
    /* size guard */
    assert_int_equal(hta_ilp_solve(inst, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.status, HTA_ILP_SKIPPED);
    assert_non_null(strstr(res.detail, "skipped (too large)"));
    /* a zero time limit without incumbent: nothing found */
    o.max_tasks = 1000;
    o.time_limit = 0;
    o.plain = 1;
    assert_int_equal(hta_ilp_solve(inst, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.status, HTA_ILP_TIME_LIMIT);
    /* with an incumbent that is not optimal: feasible, with a bound */
    int32_t inc[50];
    for (int t = 0; t < 50; t++)
        inc[t] = 0; /* everything on server 0 */
    o.plain = 0;
    o.incumbent = inc;
    o.lower_bound = 10;
    assert_int_equal(hta_ilp_solve(inst, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.status, HTA_ILP_FEASIBLE);
    assert_true(res.bound >= 10 && res.bound <= res.makespan);
    /* certificate: an incumbent meeting the bound needs no GLPK */
    o.lower_bound = evaluate(inst, inc, NULL);
    assert_int_equal(hta_ilp_solve(inst, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.status, HTA_ILP_OPTIMAL);
    assert_int_equal(res.solved, 0);
    /* and with time, the optimum */
    o.time_limit = 30;
    o.lower_bound = 0;
    assert_int_equal(hta_ilp_solve(inst, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.status, HTA_ILP_OPTIMAL);
    assert_true(res.makespan == 10.0);
    /* An incumbent exactly one unit above the optimum: the cutoff
     * (incumbent - 1) must still admit the optimum. */
    int moved = 0;
    for (int t = 0; t < 50 && !moved; t++)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            if (inst->task_srv[i] != a[t]) {
                memcpy(inc, a, sizeof inc);
                inc[t] = inst->task_srv[i];
                moved = 1;
                break;
            }
    assert_true(moved);
    assert_true(evaluate(inst, inc, NULL) == 11.0);
    o.incumbent = inc;
    assert_int_equal(hta_ilp_solve(inst, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.status, HTA_ILP_OPTIMAL);
    assert_true(res.makespan == 10.0);
    assert_true(res.improved);
    hta_instance_free(inst);
}

/* In a build without CBC, asking for it is an error, never GLPK. */
static void test_cbc_refused(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(12, 3, 2, 0, 3, 2);
    hta_ilp_opts o = {10,   100000, 0,    1,    HTA_ILP_COMPACT,
                      NULL, NULL,   0,    NULL, NULL,
                      NULL, HTA_ILP_ENGINE_CBC};
    int32_t a[12];
    hta_ilp_result res;
    hta_diag d;
    hta_status st = hta_ilp_solve(inst, &o, a, &res, &d);
    if (hta_cbc_available()) {
        assert_int_equal(st, HTA_OK);
        assert_int_equal(res.status, HTA_ILP_OPTIMAL);
    } else {
        assert_int_equal(st, HTA_ERR_USAGE);
        assert_non_null(strstr(d.msg, "without CBC"));
    }
    hta_instance_free(inst);
}

/* Two engines, one optimum: on HDFS-like instances of 170 to 400 tasks
 * (Zipf s = 1.5, about 8 tasks per server, where fsy often misses the
 * bound; w_rem 1.5 and 3), CBC alone and GLPK alone prove the same
 * makespan. */
static void test_cbc_equals_glpk(void **state)
{
    (void)state;
    if (!hta_cbc_available())
        return; /* test_cbc_refused checked the refusal */
    int agreed = 0, searched = 0;
    for (int i = 0; i < 24; i++) {
        int32_t n = i % 12 < 6 ? 20 : 40, m = 8 * n + 13 * (1 + i % 6);
        hta_instance *inst =
            hdfs_instance(m, n, 3, 1.5, i < 12 ? 1.5 : 3, 1 + i % 6);
        int32_t *inc = malloc((size_t)m * sizeof *inc);
        int32_t *ag = malloc((size_t)m * sizeof *ag);
        int32_t *ac = malloc((size_t)m * sizeof *ac);
        hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 1, 0, NULL, NULL, NULL,
                           NULL};
        hta_fsy_result fr;
        hta_diag d;
        assert_int_equal(hta_fsy_run(inst, &fo, inc, &fr, &d), HTA_OK);
        hta_ilp_result g = solve_with(inst, 0, HTA_ILP_COMPACT, inc,
                                      fr.lower_bound, 60, ag,
                                      HTA_ILP_ENGINE_GLPK);
        hta_ilp_result c = solve_with(inst, 0, HTA_ILP_COMPACT, inc,
                                      fr.lower_bound, 60, ac,
                                      HTA_ILP_ENGINE_CBC);
        searched += (c.proved_by & 2) != 0;
        if (g.status == HTA_ILP_OPTIMAL && c.status == HTA_ILP_OPTIMAL) {
            if (g.makespan != c.makespan)
                fail_msg("instance %d: GLPK %g, CBC %g", i, g.makespan,
                         c.makespan);
            assert_true(evaluate(inst, ac, NULL) == c.makespan);
            agreed++;
        }
        /* whatever each proved, neither bound passes the other's best */
        assert_true(g.bound <= c.makespan * (1 + 1e-12));
        assert_true(c.bound <= g.makespan * (1 + 1e-12));
        hta_fsy_result_free(&fr);
        free(inc);
        free(ag);
        free(ac);
        hta_instance_free(inst);
    }
    assert_true(agreed == 24);
    assert_true(searched >= 12); /* fsy met the bound on the others */
}

/* CBC stopped by the time limit: the child is killed and reaped, the
 * result is the incumbent with a valid bound, never a false proof. */
static void test_cbc_stopped(void **state)
{
    (void)state;
    if (!hta_cbc_available())
        return;
    /* a 3SAT-like hard case is not needed: a zero time limit stops it */
    hta_instance *inst = hdfs_instance(300, 10, 2, 1.2, 3, 5);
    int32_t inc[300], a[300];
    for (int t = 0; t < 300; t++)
        inc[t] = inst->task_srv[inst->task_off[t]];
    double span = evaluate(inst, inc, NULL);
    for (int e = HTA_ILP_ENGINE_CBC; e <= HTA_ILP_ENGINE_BOTH; e++) {
        hta_ilp_result res = solve_with(inst, 0, HTA_ILP_COMPACT, inc, 1,
                                        0.05, a, (hta_ilp_engine)e);
        assert_true(res.status == HTA_ILP_FEASIBLE ||
                    res.status == HTA_ILP_OPTIMAL);
        assert_true(res.makespan <= span);
        assert_true(evaluate(inst, a, NULL) == res.makespan);
        if (res.status == HTA_ILP_FEASIBLE)
            assert_true(res.bound < res.makespan);
        assert_true(no_children());
    }
    hta_instance_free(inst);
}

/* The progress callback kills every child of this process (CBC's), as
 * an out-of-memory kill or a crash inside CBC would end it. */
static void kill_children(void *ctx, const hta_progress *p)
{
    (void)p;
    int *killed = ctx;
    DIR *dir = opendir("/proc");
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        const char *r = strrchr(buf, ')'); /* "pid (comm) S ppid ..." */
        int pid = atoi(e->d_name), ppid = 0;
        char st;
        if (r && sscanf(r + 1, " %c %d", &st, &ppid) == 2 &&
            ppid == (int)getpid() && kill(pid, SIGKILL) == 0)
            (*killed)++;
    }
    if (dir)
        closedir(dir);
}

/* CBC's process dying (killed from outside) ends CBC's search without a
 * proof: the row keeps the incumbent and a valid bound and says why, not
 * "time limit", long before the time limit; no child is left. */
static void test_cbc_killed(void **state)
{
    (void)state;
    if (!hta_cbc_available())
        return; /* test_cbc_refused checked the refusal */
    hta_cnf *f;
    hta_reduction *red;
    hta_diag d;
    assert_int_equal(hta_cnf_parse("tests/data/satlib/uf50-01.cnf", &f, &d),
                     HTA_OK);
    assert_int_equal(hta_reduce_build(f, &red, &d), HTA_OK);
    const hta_instance *inst = red->inst;
    int32_t *inc = malloc((size_t)inst->m * sizeof *inc);
    int32_t *a = malloc((size_t)inst->m * sizeof *a);
    hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 1, 0, NULL, NULL, NULL, NULL};
    hta_fsy_result fr;
    assert_int_equal(hta_fsy_run(inst, &fo, inc, &fr, &d), HTA_OK);
    int killed = 0;
    hta_ilp_opts o = {60,  100000, 0,    0,    HTA_ILP_COMPACT, NULL, inc,
                      fr.lower_bound, NULL, kill_children, &killed,
                      HTA_ILP_ENGINE_CBC};
    hta_ilp_result res;
    double t0 = hta_clock_now();
    assert_int_equal(hta_ilp_solve(inst, &o, a, &res, &d), HTA_OK);
    assert_true(hta_clock_now() - t0 < 30); /* not the 60 s limit */
    assert_true(killed >= 1);
    assert_int_equal(res.status, HTA_ILP_FEASIBLE);
    assert_true(res.makespan == fr.makespan && res.bound <= 3);
    assert_non_null(strstr(res.cbc_failed, "without an answer"));
    assert_non_null(strstr(res.detail, "without an answer"));
    assert_null(strstr(res.detail, "time limit"));
    assert_true(no_children());
    hta_fsy_result_free(&fr);
    free(inc);
    free(a);
    hta_reduce_free(red);
    hta_cnf_free(f);
}

/* GLPK aborts on a bad argument; the guard turns that into an error and
 * GLPK works again afterwards. */
static hta_status bad_call(void *ctx, hta_diag *d)
{
    (void)ctx;
    (void)d;
    glp_prob *P = glp_create_prob();
    glp_add_rows(P, 0); /* GLPK: invalid number of rows -> abort */
    return HTA_OK;
}

static void test_glpk_abort_recovered(void **state)
{
    (void)state;
    hta_diag d;
    assert_int_equal(hta_glpk_guard(bad_call, NULL, 0, &d), HTA_ERR_INTERNAL);
    hta_instance *inst = hdfs_instance(12, 3, 2, 0, 3, 2);
    int32_t a[12], opt[12];
    assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
    hta_ilp_result res = solve(inst, 1, HTA_ILP_COMPACT, NULL, 0, 10, a);
    assert_int_equal(res.status, HTA_ILP_OPTIMAL);
    assert_true(res.makespan == evaluate(inst, opt, NULL));
    hta_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ilp_vs_brute),
        cmocka_unit_test(test_theorem_5_4_exact),
        cmocka_unit_test(test_levels_cbc_vs_brute),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_glpk_abort_recovered),
        cmocka_unit_test(test_cbc_refused),
        cmocka_unit_test(test_cbc_equals_glpk),
        cmocka_unit_test(test_cbc_stopped),
        cmocka_unit_test(test_cbc_killed),
    };
    return cmocka_run_group_tests_name("ilp", tests, NULL, NULL);
}
