/* The SAT decision (satdec.h): both answers against brute force on tiny
 * instances with integer costs, the written CNF against picosat, and the
 * optimum against GLPK's on mid-size HDFS-like instances (the step below
 * it decided unsatisfiable by CaDiCaL, and by GLPK's proof of the same
 * optimum). */
#include "helpers.h"

#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hta/cnf.h"
#include "hta/reduce.h"
#include "hta/solve.h"
#include "exact/satdec.h"

static hta_satdec_result decide(const hta_instance *inst, double L,
                                int32_t *a, FILE *cnf)
{
    hta_satdec_opts o = {60, NULL, 0, cnf, 0, HTA_SATDEC_CADICAL, NULL};
    hta_satdec_result res;
    hta_diag d;
    if (hta_satdec_decide(inst, L, &o, a, &res, &d) != HTA_OK)
        fail_msg("satdec: %s", d.msg);
    return res;
}

/* picosat's verdict (10 SAT, 20 UNSAT) on formula f, written to path. */
static int picosat_formula(const hta_cnf *f, const char *path);

/* picosat's exit code on the CNF in path: 10 SAT, 20 UNSAT. */
static int picosat(const char *path)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "picosat %s >/dev/null 2>&1", path);
    int rc = system(cmd);
    assert_true(rc != -1 && WIFEXITED(rc));
    return WEXITSTATUS(rc);
}

/* glpsol on the CPLEX LP model in path: 1 when it finds no integer (or
 * no primal) feasible solution, 0 when it finds one. */
static int glpsol_infeasible(const char *path)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd,
             "glpsol --lp %s 2>&1 | grep -q 'NO INTEGER FEASIBLE\\|NO PRIMAL "
             "FEASIBLE'",
             path);
    int rc = system(cmd);
    assert_true(rc != -1 && WIFEXITED(rc));
    return WEXITSTATUS(rc) == 0;
}

static int picosat_formula(const hta_cnf *f, const char *path)
{
    FILE *o = fopen(path, "w");
    assert_non_null(o);
    assert_int_equal(hta_cnf_write(f, o, NULL), HTA_OK);
    assert_int_equal(fclose(o), 0);
    int verdict = picosat(path);
    assert_true(verdict == 10 || verdict == 20);
    return verdict;
}

/* Yes at the optimum (with an assignment within it), no one below it, on
 * 1500 tiny instances (brute force); every 10th CNF re-checked by
 * picosat, at the optimum and below. */
static void test_against_brute(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 4242);
    int32_t a[8], opt[8];
    int nos = 0, searched = 0, rechecked = 0;
    char path[] = "/tmp/hta-satdec-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int i = 0; i < 1500; i++) {
        hta_instance *inst = random_instance(&r, 8, 4, 3, COST_INTEGER);
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        double lo = evaluate(inst, opt, NULL);
        int check = i % 10 == 0;
        FILE *f = check ? fopen(path, "w") : NULL;
        hta_satdec_result yes = decide(inst, lo, a, f);
        if (f)
            assert_int_equal(fclose(f), 0);
        if (yes.answer != HTA_SATDEC_YES)
            fail_msg("instance %d: no at the optimum %g (%s)", i, lo,
                     yes.why);
        assert_true(evaluate(inst, a, NULL) <= lo);
        assert_true(yes.makespan == evaluate(inst, a, NULL));
        if (check)
            assert_int_equal(picosat(path), 10);
        if (lo >= 1) {
            f = check ? fopen(path, "w") : NULL;
            hta_satdec_result no = decide(inst, lo - 1, a, f);
            if (f)
                assert_int_equal(fclose(f), 0);
            if (no.answer != HTA_SATDEC_NO)
                fail_msg("instance %d: not no below the optimum %g", i, lo);
            if (check) {
                assert_int_equal(picosat(path), 20);
                rechecked++;
            }
            nos++;
            searched += no.slack >= 0; /* not the flow bound's no */
        }
        assert_int_equal(decide(inst, lo + 1, a, NULL).answer,
                         HTA_SATDEC_YES);
        hta_instance_free(inst);
    }
    unlink(path);
    print_message("%d proofs of no below the optimum (%d by the solver, "
                  "the others by the flow bound's slack), %d re-checked by "
                  "picosat\n", nos, searched, rechecked);
    assert_true(nos >= 1400 && searched >= 100 && rechecked >= 140);
}

/* The engine of decide_general: CaDiCaL in the tests written for it,
 * GLPK in test_general_glpk. */
static int general_engine = HTA_SATDEC_CADICAL;
static const char *general_lp; /* GLPK's model of a no, or NULL */

static hta_satdec_result decide_general(const hta_instance *inst, double L,
                                        int strict, int32_t *a, FILE *cnf)
{
    hta_satdec_opts o = {60, NULL, 0, cnf, 0, general_engine, general_lp};
    hta_satdec_result res;
    hta_diag d;
    if (hta_satdec_decide_general(inst, L, strict, &o, a, &res, &d) !=
        HTA_OK)
        fail_msg("satdec general: %s", d.msg);
    return res;
}

/* The i-th tiny instance of the general tests (every cost model in
 * turn: fractional constant, tables, affine, integer), its brute-force
 * optimum into opt and *lo. */
static hta_instance *tiny_general(hta_rng *r, int i, int32_t *opt,
                                  int *model, double *lo)
{
    *model = i % 4 == 3 ? COST_INTEGER : i % 3;
    hta_instance *inst = i % 2 ? random_instance(r, 10, 3, 2, *model) :
                                 random_instance(r, 8, 4, 3, *model);
    hta_diag d;
    assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
    *lo = evaluate(inst, opt, NULL);
    return inst;
}

/* The general decision on tiny instances of every cost model (fractional
 * constant, tables, affine, integer): yes at "<= the optimum" (brute
 * force) with an assignment within it, no at "< the optimum"; every 8th
 * certificate (one CNF for all pieces) re-checked by picosat both ways;
 * and on the integer ones the constant decision agrees at and below the
 * optimum. */
static void test_general_against_brute(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 777);
    int32_t a[10], opt[10];
    int searched = 0, rechecked = 0, multi = 0, agreed = 0;
    int64_t blocked = 0;
    char path[] = "/tmp/hta-satdec-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int i = 0; i < 1200; i++) {
        int model;
        double lo;
        hta_instance *inst = tiny_general(&r, i, opt, &model, &lo);
        int check = i % 8 == 0;
        FILE *f = check ? fopen(path, "w") : NULL;
        hta_satdec_result yes = decide_general(inst, lo, 0, a, f);
        if (f)
            assert_int_equal(fclose(f), 0);
        if (yes.answer != HTA_SATDEC_YES)
            fail_msg("instance %d: no at the optimum %.17g (%s)", i, lo,
                     yes.why);
        assert_true(evaluate(inst, a, NULL) <= lo);
        assert_true(yes.makespan == evaluate(inst, a, NULL));
        if (check)
            assert_int_equal(picosat(path), 10);
        f = check ? fopen(path, "w") : NULL;
        hta_satdec_result no = decide_general(inst, lo, 1, a, f);
        if (f)
            assert_int_equal(fclose(f), 0);
        if (no.answer != HTA_SATDEC_NO)
            fail_msg("instance %d: not no below the optimum %.17g", i, lo);
        if (check) {
            assert_int_equal(picosat(path), 20);
            rechecked++;
        }
        searched += no.vars > 0;
        multi += no.pieces > 1;
        blocked += yes.blocked + no.blocked;
        if (model == COST_INTEGER) {
            assert_int_equal(decide(inst, lo, a, NULL).answer,
                             HTA_SATDEC_YES);
            if (lo >= 1)
                assert_int_equal(decide(inst, lo - 1, a, NULL).answer,
                                 HTA_SATDEC_NO);
            agreed++;
        }
        hta_instance_free(inst);
    }
    /* HDFS-like affine instances of 150-200 tasks (GLPK does not prove
     * them in 20 s): sat after fsy proves each; where close proves too,
     * the same optimum; the no below it re-checked by picosat, the yes at
     * it evaluated */
    int mid = 0, mid_searched = 0, both = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        hta_wrem w;
        memset(&w, 0, sizeof w);
        w.kind = HTA_WREM_AFFINE;
        w.a = seed % 2 ? 3.0 : 2.5;
        w.b = seed % 2 ? 0.005 : 0.002;
        hta_instance *inst =
            seed % 2 ? hdfs_instance_wrem(150, 15, 3, 2.0, &w, seed) :
                       hdfs_instance_wrem(200, 20, 3, 1.5, &w, seed);
        hta_solve_result sr, cr;
        solve_fsy_then(inst, HTA_ALGO_SAT, &sr);
        solve_fsy_then(inst, HTA_ALGO_CLOSE, &cr);
        if (!hta_solve_proven(&sr))
            fail_msg("seed %d: sat does not prove (%s)", (int)seed,
                     sr.rows[1].note);
        double gopt = sr.best_span;
        if (hta_solve_proven(&cr)) {
            assert_true(cr.best_span == gopt);
            both++;
        }
        int32_t *b = malloc((size_t)inst->m * sizeof *b);
        assert_non_null(b);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        hta_satdec_result no = decide_general(inst, gopt, 1, b, f);
        assert_int_equal(fclose(f), 0);
        assert_int_equal(no.answer, HTA_SATDEC_NO);
        assert_int_equal(picosat(path), 20);
        rechecked++;
        mid_searched += no.vars > 0;
        hta_satdec_result yes = decide_general(inst, gopt, 0, b, NULL);
        assert_int_equal(yes.answer, HTA_SATDEC_YES);
        assert_true(evaluate(inst, b, NULL) <= gopt);
        free(b);
        mid++;
        hta_solve_result_free(&sr);
        hta_solve_result_free(&cr);
        hta_instance_free(inst);
    }
    unlink(path);
    print_message("general: 1200 tiny optima decided both ways (%d nos "
                  "with a CNF, %d over several pieces of the remote "
                  "count; %lld models blocked, no assignment realising "
                  "them), %d integer ones as the constant decision; %d "
                  "HDFS affine optima proven (%d nos with a CNF, %d "
                  "proven by close too); %d re-checked by picosat\n",
                  searched, multi, (long long)blocked, agreed, mid,
                  mid_searched, both, rechecked);
    assert_true(searched >= 5 && multi >= 100 && agreed == 300 &&
                mid == 8 && mid_searched >= 3 && both >= 4 &&
                rechecked >= 158);
}

/* Models that no assignment realises: tasks 0 .. 9 of which five are on
 * both servers (they run local), one only on server 1 and four only on
 * server 0, w_loc = w_rem = 0.7, optimum 3.5 = 0.7 * 5 (brute force).
 * "< 3.5": one server runs 5 tasks, and with doubles only a split of
 * them into local and remote gets below 3.5 (0.7 * 2 + 0.7 * 3 =
 * 3.4999999999999996); the SAT solver offers such models whose remote
 * tasks only a server holding their blocks could take (where they run
 * local: 0.7 * 5 again).
 * Each is blocked (70 here, found among 20000 random tiny instances by
 * test_general_against_brute's generator), then the answer is no, and
 * picosat agrees on the certificate; "<= 3.5" is yes. */
static void test_general_blocked(void **state)
{
    (void)state;
    hta_instance *inst = parse_text(
        "hta-instance 1\ntasks 10\nservers 2\nw_loc 0.7\nw_rem 0.7\n"
        "task 0 1\ntask 1 0 1\ntask 2 0\ntask 3 1 0\ntask 4 0\n"
        "task 5 0 1\ntask 6 1 0\ntask 7 0\ntask 8 0 1\ntask 9 0\n");
    int32_t a[10], opt[10];
    hta_diag d;
    assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
    assert_true(evaluate(inst, opt, NULL) == 3.5);
    char path[] = "/tmp/hta-satdec-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    hta_satdec_result no = decide_general(inst, 3.5, 1, a, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(no.answer, HTA_SATDEC_NO);
    assert_true(no.blocked >= 10);
    assert_int_equal(picosat(path), 20);
    unlink(path);
    hta_satdec_result yes = decide_general(inst, 3.5, 0, a, NULL);
    assert_int_equal(yes.answer, HTA_SATDEC_YES);
    assert_true(evaluate(inst, a, NULL) <= 3.5);
    print_message("%lld models blocked, then no\n", (long long)no.blocked);
    hta_instance_free(inst);
}

/* A model the greedy placement does not realise and the matching does:
 * tasks 0..9 only on server 0, 10..19 only on server 1, w_loc = w_rem =
 * 0.7.  All local: 0.7 * 10 = 7.  With doubles, 0.7 * 3 + 0.7 * 7 =
 * 6.999999999999999 < 7: each server runs some of its own tasks and the
 * rest of its ten remote, from the other server.  In server order the
 * remote tasks of server 0 land on server 0 and run local there (0.7 *
 * 10 again), while the matching swaps them; the optimum (brute force) is
 * the split's, and "< it": no. */
static void test_general_matched(void **state)
{
    (void)state;
    char text[600];
    int k = snprintf(text, sizeof text, "hta-instance 1\ntasks 20\n"
                     "servers 2\nw_loc 0.7\nw_rem 0.7\n");
    for (int t = 0; t < 20; t++)
        k += snprintf(text + k, sizeof text - (size_t)k, "task %d %d\n", t,
                      t / 10);
    hta_instance *inst = parse_text(text);
    int32_t a[20], opt[20];
    for (int t = 0; t < 20; t++)
        a[t] = t / 10;
    double all_local = evaluate(inst, a, NULL);
    hta_diag d;
    assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
    double lo = evaluate(inst, opt, NULL);
    assert_true(lo < all_local);
    hta_satdec_result yes = decide_general(inst, all_local, 1, a, NULL);
    assert_int_equal(yes.answer, HTA_SATDEC_YES);
    assert_true(yes.matched);
    assert_true(evaluate(inst, a, NULL) == lo);
    assert_int_equal(decide_general(inst, lo, 1, a, NULL).answer,
                     HTA_SATDEC_NO);
    hta_instance_free(inst);
}

/* The general decision by GLPK alone (the envelope-cut model, envilp.h):
 * the 1200 tiny instances of test_general_against_brute, yes at the
 * brute-force optimum with an assignment within it and no below it; the
 * blocked and the matched models above; HDFS affine instances of 150-500
 * tasks, where it agrees with CaDiCaL both ways; and the 1000-task Zipf s
 * = 1.5 affine instance of make bench-exact, where it refutes "< the best
 * close finds" (CaDiCaL does not decide it in 600 s): the best is then
 * optimal, and the yes at it gives an assignment within it. */
static void test_general_glpk(void **state)
{
    (void)state;
    general_engine = HTA_SATDEC_GLPK;
    hta_rng r;
    hta_rng_seed(&r, 777);
    int32_t a[10], opt[10];
    int64_t blocked = 0, solves = 0;
    int multi = 0, lps = 0;
    char path[] = "/tmp/hta-satdec-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int i = 0; i < 1200; i++) {
        int model;
        double lo;
        hta_instance *inst = tiny_general(&r, i, opt, &model, &lo);
        hta_satdec_result yes = decide_general(inst, lo, 0, a, NULL);
        if (yes.answer != HTA_SATDEC_YES)
            fail_msg("instance %d: no at the optimum %.17g (%s)", i, lo,
                     yes.why);
        assert_true(yes.glpk && yes.vars == 0);
        assert_true(evaluate(inst, a, NULL) <= lo);
        /* every 10th no: its model re-checked by glpsol */
        general_lp = i % 10 == 0 ? path : NULL;
        hta_satdec_result no = decide_general(inst, lo, 1, a, NULL);
        general_lp = NULL;
        if (no.answer != HTA_SATDEC_NO)
            fail_msg("instance %d: not no below the optimum %.17g (%s)", i,
                     lo, no.why);
        assert_true(no.glpk);
        if (i % 10 == 0 && no.lp_written) {
            assert_true(glpsol_infeasible(path));
            lps++;
        }
        blocked += yes.blocked + no.blocked;
        solves += yes.glpk_solves + no.glpk_solves;
        multi += no.pieces > 1;
        hta_instance_free(inst);
    }
    /* the blocked model and the matched one */
    hta_instance *inst = parse_text(
        "hta-instance 1\ntasks 10\nservers 2\nw_loc 0.7\nw_rem 0.7\n"
        "task 0 1\ntask 1 0 1\ntask 2 0\ntask 3 1 0\ntask 4 0\n"
        "task 5 0 1\ntask 6 1 0\ntask 7 0\ntask 8 0 1\ntask 9 0\n");
    hta_satdec_result no = decide_general(inst, 3.5, 1, a, NULL);
    assert_int_equal(no.answer, HTA_SATDEC_NO);
    int64_t blocked1 = no.blocked;
    assert_true(blocked1 >= 1);
    assert_int_equal(decide_general(inst, 3.5, 0, a, NULL).answer,
                     HTA_SATDEC_YES);
    assert_true(evaluate(inst, a, NULL) <= 3.5);
    hta_instance_free(inst);
    char text[600];
    int k = snprintf(text, sizeof text, "hta-instance 1\ntasks 20\n"
                     "servers 2\nw_loc 0.7\nw_rem 0.7\n");
    for (int t = 0; t < 20; t++)
        k += snprintf(text + k, sizeof text - (size_t)k, "task %d %d\n", t,
                      t / 10);
    inst = parse_text(text);
    int32_t b20[20], opt20[20];
    hta_diag d;
    assert_int_equal(brute_opt(inst, opt20, &d), HTA_OK);
    double lo20 = evaluate(inst, opt20, NULL);
    assert_true(lo20 < 7);
    hta_satdec_result yes = decide_general(inst, 7, 1, b20, NULL);
    assert_int_equal(yes.answer, HTA_SATDEC_YES);
    assert_true(evaluate(inst, b20, NULL) < 7);
    assert_int_equal(decide_general(inst, lo20, 1, b20, NULL).answer,
                     HTA_SATDEC_NO);
    hta_instance_free(inst);
    /* HDFS affine: GLPK and CaDiCaL agree at the optimum sat proves */
    int agreed = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        hta_wrem w;
        memset(&w, 0, sizeof w);
        w.kind = HTA_WREM_AFFINE;
        w.a = seed % 2 ? 3.0 : 2.5;
        w.b = seed % 2 ? 0.005 : 0.002;
        inst = seed % 2 ? hdfs_instance_wrem(150, 15, 3, 2.0, &w, seed) :
                          hdfs_instance_wrem(200, 20, 3, 1.5, &w, seed);
        hta_solve_result sr;
        solve_fsy_then(inst, HTA_ALGO_SAT, &sr);
        assert_true(hta_solve_proven(&sr));
        double gopt = sr.best_span;
        int32_t *b = malloc((size_t)inst->m * sizeof *b);
        assert_non_null(b);
        general_engine = HTA_SATDEC_GLPK;
        no = decide_general(inst, gopt, 1, b, NULL);
        assert_int_equal(no.answer, HTA_SATDEC_NO);
        yes = decide_general(inst, gopt, 0, b, NULL);
        assert_int_equal(yes.answer, HTA_SATDEC_YES);
        assert_true(evaluate(inst, b, NULL) <= gopt);
        general_engine = HTA_SATDEC_CADICAL;
        assert_int_equal(decide_general(inst, gopt, 1, b, NULL).answer,
                         HTA_SATDEC_NO);
        general_engine = HTA_SATDEC_GLPK;
        agreed++;
        free(b);
        hta_solve_result_free(&sr);
        hta_instance_free(inst);
    }
    /* the bench's row: close's best, then GLPK's no below it */
    hta_wrem w;
    memset(&w, 0, sizeof w);
    w.kind = HTA_WREM_AFFINE;
    w.a = 3.0;
    w.b = 0.0001;
    inst = hdfs_instance_wrem(1000, 100, 3, 1.5, &w, 1);
    hta_solve_result cr;
    solve_fsy_then(inst, HTA_ALGO_CLOSE, &cr);
    assert_false(hta_solve_proven(&cr));
    int32_t *b = malloc((size_t)inst->m * sizeof *b);
    assert_non_null(b);
    general_lp = path;
    no = decide_general(inst, cr.best_span, 1, b, NULL);
    general_lp = NULL;
    assert_int_equal(no.answer, HTA_SATDEC_NO);
    assert_true(no.lp_written && glpsol_infeasible(path));
    lps++;
    yes = decide_general(inst, cr.best_span, 0, b, NULL);
    assert_int_equal(yes.answer, HTA_SATDEC_YES);
    assert_true(evaluate(inst, b, NULL) <= cr.best_span);
    double best = cr.best_span;
    free(b);
    hta_solve_result_free(&cr);
    hta_instance_free(inst);
    general_engine = HTA_SATDEC_CADICAL;
    unlink(path);
    print_message("GLPK: 1200 tiny optima decided both ways (%lld "
                  "branch-and-bound runs, %lld solutions excluded, %d nos "
                  "over several pieces); blocked model: %lld excluded, "
                  "then no; %d HDFS affine optima agreed with CaDiCaL; "
                  "HDFS Zipf 1.5, 1000 tasks, affine: < %.17g refuted; "
                  "%d models of a no infeasible for glpsol\n",
                  (long long)solves, (long long)blocked, multi,
                  (long long)blocked1, agreed, best, lps);
    assert_true(agreed == 6 && lps >= 50);
}

/* sat alone (no best to start from) on tiny instances of the cost
 * models other than one integer w_rem: makespan <= the bound, then <= a
 * target whose step doubles, then < each better best: it proves the
 * brute-force optimum on every one, raising the bound on some. */
static void test_general_alone(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 31);
    int raised = 0;
    for (int i = 0; i < 300; i++) {
        hta_instance *inst = random_instance(&r, 8, 4, 3, i % 3);
        int32_t opt[8];
        hta_diag d;
        assert_int_equal(brute_opt(inst, opt, &d), HTA_OK);
        double lo = evaluate(inst, opt, NULL);
        hta_solve_opts o;
        hta_solve_opts_default(&o);
        o.algos[0] = HTA_ALGO_SAT;
        o.nalgos = 1;
        hta_solve_result res;
        if (hta_solve(inst, &o, &res, &d) != HTA_OK)
            fail_msg("solve: %s", d.msg);
        if (!hta_solve_proven(&res) || res.best_span != lo)
            fail_msg("instance %d: sat alone %s %.17g, brute force %.17g (%s)",
                     i, hta_solve_proven(&res) ? "proves" : "does not prove",
                     res.best_span, lo, res.rows[0].note);
        raised += strstr(res.rows[0].note, "<= ") != NULL;
        hta_solve_result_free(&res);
        hta_instance_free(inst);
    }
    print_message("sat alone: 300 optima proven, %d after raising the "
                  "bound\n", raised);
    assert_true(raised >= 10);
}

/* Where it does not apply it says why and decides nothing. */
static void test_not_applicable(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 5);
    int32_t a[8];
    for (int model = COST_TABLE; model <= COST_AFFINE; model++) {
        int na = 0;
        for (int i = 0; i < 40; i++) {
            hta_instance *inst = random_instance(&r, 6, 3, 2, model);
            char why[160];
            if (!hta_satdec_applies(inst, why, sizeof why)) {
                hta_satdec_result res = decide(inst, 10, a, NULL);
                assert_int_equal(res.answer, HTA_SATDEC_NA);
                assert_string_equal(res.why, why);
                na++;
            }
            hta_instance_free(inst);
        }
        assert_true(na > 0);
    }
    hta_instance *inst = random_instance(&r, 6, 3, 2, COST_INTEGER);
    hta_satdec_result res = decide(inst, 2.5, a, NULL);
    assert_int_equal(res.answer, HTA_SATDEC_NA);
    res = decide(inst, NAN, a, NULL);
    assert_int_equal(res.answer, HTA_SATDEC_NA);
    hta_instance_free(inst);
}

/* 1000 tasks on 100 servers, Zipf s = 1, w_rem 3: fsy then sat against
 * fsy then GLPK; the same proven optimum, and sat's no one below it. */
static void test_against_ilp(void **state)
{
    (void)state;
    int gaps = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        hta_instance *inst = hdfs_instance(1000, 100, 3, 1.0, 3.0, seed);
        hta_solve_result rs, ri;
        /* proofs are asserted: a limit no loaded machine reaches (the
         * default 60 s was, once, under ASan beside other jobs) */
        hta_solve_opts o;
        hta_solve_opts_default(&o);
        o.time_limit = 3600;
        solve_fsy_then_opts(inst, HTA_ALGO_SAT, &o, &rs);
        solve_fsy_then_opts(inst, HTA_ALGO_ILP, &o, &ri);
        const hta_row *fsy = &rs.rows[0], *sat = &rs.rows[1],
                      *ilp = &ri.rows[1];
        assert_string_equal(ilp->status, "optimal");
        assert_true(hta_solve_proven(&rs));
        assert_true(rs.best_span == ilp->makespan);
        if (fsy->makespan > ilp->makespan) {
            gaps++;
            assert_string_equal(sat->status, "optimal");
            assert_true(sat->makespan == ilp->makespan);
            int32_t *a = malloc(1000 * sizeof *a);
            assert_non_null(a);
            assert_int_equal(decide(inst, ilp->makespan - 1, a, NULL).answer,
                             HTA_SATDEC_NO);
            free(a);
        } else {
            assert_string_equal(sat->status, "skipped");
        }
        hta_solve_result_free(&rs);
        hta_solve_result_free(&ri);
        hta_instance_free(inst);
    }
    print_message("sat closed %d gaps of 3\n", gaps);
    assert_true(gaps >= 2);
}

/* The portfolio equals brute force on random tiny instances of every cost
 * model (constant, tables of w_rem by remote count, affine, integer),
 * proving each, until 200 of them had a gap after fsy (the others fsy
 * and the bound prove alone, and are compared too); and it equals ilp
 * wherever ilp proves. */
static void test_exact_against_brute(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 93);
    int proven_ilp = 0, gaps = 0, tried = 0, by[4] = {0, 0, 0, 0};
    for (; gaps < 200 && tried < 20000; tried++) {
        hta_instance *inst = random_instance(&r, 9, 4, 2, tried % 4 == 3 ?
                                                    COST_INTEGER : tried % 3);
        int32_t *best = malloc((size_t)inst->m * sizeof *best);
        hta_diag d;
        assert_int_equal(brute_opt(inst, best, &d), HTA_OK);
        double opt = evaluate(inst, best, NULL);
        hta_solve_result ex, il;
        solve_fsy_then(inst, HTA_ALGO_EXACT, &ex);
        if (!hta_solve_proven(&ex) ||
            fabs(ex.best_span - opt) > 1e-9 * fmax(1.0, opt))
            fail_msg("instance %d: exact %s %.17g, brute force %.17g", tried,
                     hta_solve_proven(&ex) ? "proves" : "does not prove",
                     ex.best_span, opt);
        /* which engine proved it: fsy meeting the bound, close, ilp, sat */
        int who = 0;
        for (int k = 1; k < ex.nrows; k++)
            if (!strcmp(ex.rows[k].status, "optimal") ||
                !strcmp(ex.rows[k].status, "bound"))
                who = !strcmp(ex.rows[k].algorithm, "close") ? 1 :
                      !strcmp(ex.rows[k].algorithm, "ilp")   ? 2 :
                                                               3;
        by[who]++;
        gaps += ex.nrows > 1;
        solve_fsy_then(inst, HTA_ALGO_ILP, &il);
        if (hta_solve_proven(&il)) {
            assert_true(fabs(il.best_span - ex.best_span) <=
                        1e-9 * fmax(1.0, opt));
            proven_ilp++;
        }
        hta_solve_result_free(&ex);
        hta_solve_result_free(&il);
        free(best);
        hta_instance_free(inst);
    }
    print_message("exact = brute force on %d instances, %d with a gap after "
                  "fsy (proved by fsy and the bound %d, close %d, ilp %d, "
                  "sat %d); = ilp on the %d ilp proves\n",
                  tried, gaps, by[0], by[1], by[2], by[3], proven_ilp);
    assert_int_equal(gaps, 200);
    assert_int_equal(proven_ilp, tried);
}

/* fsy, then algo (sat or exact) on the reduction r, writing sat's CNF to
 * path: proven, optimum 3 when picosat's verdict on the formula (expect)
 * is SAT and 4 when UNSAT, and, when sat decided makespan <= 3, the CNF
 * written with picosat agreeing. */
static void solve_reduction(const hta_reduction *r, hta_algo algo,
                            int generic, const char *path, int expect,
                            hta_solve_result *res)
{
    hta_solve_opts so;
    hta_solve_opts_default(&so);
    so.sat_generic = generic;
    so.write_cnf = fopen(path, "w");
    assert_non_null(so.write_cnf);
    solve_fsy_then_opts(r->inst, algo, &so, res);
    assert_int_equal(fclose(so.write_cnf), 0);
    assert_true(hta_solve_proven(res));
    assert_true(res->best_span == (expect == 10 ? 3 : 4));
    if (res->rows[0].makespan > 3) { /* sat decided makespan <= 3 */
        assert_true(res->cnf_written);
        assert_int_equal(picosat(path), expect);
    }
}

/* 3SAT reductions (Fischer-Su-Yin) decided by the deficit encoding
 * (sat_generic: no recognition): makespan <= 3 iff picosat says the
 * formula is satisfiable, for random formulas of 3 variables (5 to 8
 * clauses) and the two unsatisfiable ones below; a no, re-checked by
 * picosat on the written CNF, raises the bound through hta_solve (row
 * status bound). */
static void test_reductions(void **state)
{
    (void)state;
    char path[] = "/tmp/hta-satdec-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    int sat = 0, unsat = 0;
    for (int i = 0; i < 10; i++) {
        hta_cnf *f = NULL;
        hta_diag d;
        if (i < 8) {
            /* 3 variables, 5..8 clauses */
            assert_int_equal(hta_cnf_random3(3, 5 + i / 2, (uint64_t)i + 1,
                                             &f, &d),
                             HTA_OK);
        } else {
            /* every sign pattern on 2 (as 2-clauses) or 3 variables */
            FILE *o = fopen(path, "w");
            assert_non_null(o);
            fputs(i == 8 ? "p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n" :
                           "p cnf 3 8\n1 2 3 0\n1 2 -3 0\n1 -2 3 0\n"
                           "1 -2 -3 0\n-1 2 3 0\n-1 2 -3 0\n-1 -2 3 0\n"
                           "-1 -2 -3 0\n",
                  o);
            assert_int_equal(fclose(o), 0);
            assert_int_equal(hta_cnf_parse(path, &f, &d), HTA_OK);
        }
        int expect = picosat_formula(f, path);
        hta_reduction *r = NULL;
        assert_int_equal(hta_reduce_build(f, &r, &d), HTA_OK);
        hta_solve_result res;
        /* the deficit encoding, not the formula */
        solve_reduction(r, HTA_ALGO_SAT, 1, path, expect, &res);
        if (expect == 20) {
            assert_true(res.lower_bound == 4);
            assert_string_equal(res.bound_source,
                                "sat (no assignment below)");
            if (res.rows[0].makespan == 4)
                assert_string_equal(res.rows[1].status, "bound");
            unsat++;
        } else {
            assert_string_equal(res.rows[1].status, "optimal");
            sat++;
        }
        hta_solve_result_free(&res);
        if (i < 8) {
            hta_reduce_free(r);
            hta_cnf_free(f);
            continue;
        }
        /* the portfolio proves the same optimum (deficit encoding too) */
        hta_solve_opts so;
        hta_solve_opts_default(&so);
        so.sat_generic = 1;
        solve_fsy_then_opts(r->inst, HTA_ALGO_EXACT, &so, &res);
        assert_true(hta_solve_proven(&res));
        assert_true(res.best_span == (expect == 10 ? 3 : 4));
        hta_solve_result_free(&res);
        hta_reduce_free(r);
        hta_cnf_free(f);
    }
    unlink(path);
    print_message("%d satisfiable, %d unsatisfiable reductions\n", sat,
                  unsat);
    assert_true(sat >= 1 && unsat >= 2);
}

/* Recognition (hta_reduce_recognize) and the decision on the formula: for
 * random formulas of 5..20 variables at clause/variable ratio 4.26 (and
 * 2..6-literal clauses, which the reduction turns into 3-CNF), the
 * reduction is recognised and sat proves optimum 3 iff picosat says the
 * original formula is satisfiable, both answers certified: a yes by its
 * assignment (makespan 3, and hta_reduce_decode turns it into a model of
 * the original formula), a no by the written CNF, which picosat finds
 * unsatisfiable and which is the formula read off the instance: its
 * reduction is the instance itself.  Perturbed reductions (one replica
 * moved, w_rem 3.5, a task more) are not recognised. */
static hta_instance *copy_instance(const hta_instance *in, double w_rem,
                                   int move_task, int extra_task)
{
    int32_t m = in->m + (extra_task ? 1 : 0);
    int64_t *off = malloc(((size_t)m + 1) * sizeof *off);
    int32_t *srv = malloc(((size_t)in->edges + 1) * sizeof *srv);
    memcpy(off, in->task_off, ((size_t)in->m + 1) * sizeof *off);
    memcpy(srv, in->task_srv, (size_t)in->edges * sizeof *srv);
    if (move_task >= 0) { /* its second replica to the next server */
        int64_t i = off[move_task] + 1;
        srv[i] = (srv[i] + 1) % in->n_declared;
        if (srv[i] == srv[i - 1])
            srv[i] = (srv[i] + 1) % in->n_declared;
    }
    if (extra_task) {
        off[m] = off[m - 1] + 1;
        srv[off[m - 1]] = 0;
    }
    hta_wrem w = {HTA_WREM_TABLE, 0, &w_rem, 0, 0};
    hta_instance *out = NULL;
    hta_diag d;
    if (hta_instance_build(m, in->n_declared, 1.0, &w, off, srv, &out, &d))
        fail_msg("copy_instance: %s", d.msg);
    free(off);
    free(srv);
    return out;
}

static void test_recognized_reductions(void **state)
{
    (void)state;
    char path[] = "/tmp/hta-satdec-XXXXXX", fpath[] = "/tmp/hta-satdec-XXXXXX";
    int fd = mkstemp(path), fd2 = mkstemp(fpath);
    assert_true(fd >= 0 && fd2 >= 0);
    close(fd);
    close(fd2);
    hta_rng rng;
    hta_rng_seed(&rng, 91);
    int sat = 0, unsat = 0, moved_still = 0;
    for (int i = 0; i < 64; i++) {
        int32_t vars = 5 + i % 16;
        hta_cnf *f = NULL;
        hta_diag d;
        if (i % 8 != 7) {
            int64_t clauses = (int64_t)(4.26 * vars + 0.5);
            assert_int_equal(hta_cnf_random3(vars, clauses,
                                             (uint64_t)i + 100, &f, &d),
                             HTA_OK);
        } else { /* clauses of 2..6 literals */
            FILE *o = fopen(fpath, "w");
            assert_non_null(o);
            int64_t clauses = 3 * vars;
            fprintf(o, "p cnf %d %lld\n", (int)vars, (long long)clauses);
            for (int64_t c = 0; c < clauses; c++) {
                int k = 2 + (int)hta_rng_below(&rng, 5);
                for (int j = 0; j < k; j++) {
                    int v = 1 + (int)hta_rng_below(&rng, (uint64_t)vars);
                    fprintf(o, "%d ", hta_rng_below(&rng, 2) ? v : -v);
                }
                fputs("0\n", o);
            }
            assert_int_equal(fclose(o), 0);
            assert_int_equal(hta_cnf_parse(fpath, &f, &d), HTA_OK);
        }
        int expect = picosat_formula(f, fpath);
        hta_reduction *r = NULL, *rec = NULL;
        assert_int_equal(hta_reduce_build(f, &r, &d), HTA_OK);
        assert_int_equal(hta_reduce_recognize(r->inst, &rec, &d), HTA_OK);
        assert_non_null(rec);
        assert_int_equal(rec->alpha, r->alpha);
        assert_int_equal(rec->omega, r->omega);
        hta_reduce_match_free(rec);
        hta_solve_result res;
        solve_reduction(r, i % 2 ? HTA_ALGO_SAT : HTA_ALGO_EXACT, 0, path,
                        expect, &res);
        if (res.rows[0].makespan > 3) {
            /* the CNF written is the formula the instance reduces from */
            hta_cnf *g = NULL;
            hta_reduction *again = NULL;
            assert_int_equal(hta_cnf_parse(path, &g, &d), HTA_OK);
            assert_int_equal(hta_reduce_build(g, &again, &d), HTA_OK);
            assert_int_equal(again->inst->m, r->inst->m);
            assert_memory_equal(again->inst->task_srv, r->inst->task_srv,
                                (size_t)r->inst->edges * sizeof(int32_t));
            hta_reduce_free(again);
            hta_cnf_free(g);
        }
        if (expect == 10) {
            signed char *model = NULL;
            assert_int_equal(hta_reduce_decode(r, res.best, &model, &d),
                             HTA_OK);
            assert_true(hta_cnf_first_false(f, model) < 0);
            free(model);
            sat++;
        } else {
            assert_true(res.lower_bound == 4);
            unsat++;
        }
        hta_solve_result_free(&res);
        /* near misses are not reductions */
        hta_instance *bad[3] = {
            copy_instance(r->inst, 3.0,
                          (int)hta_rng_below(&rng, 3 * (uint64_t)r->alpha),
                          0),
            copy_instance(r->inst, 3.5, -1, 0),
            copy_instance(r->inst, 3.0, -1, 1)};
        for (int k = 0; k < 3; k++) {
            assert_int_equal(hta_reduce_recognize(bad[k], &rec, &d), HTA_OK);
            if (k == 0 && rec) {
                /* the moved replica made another formula's reduction
                   (a literal's sign or variable changed): then it is
                   exactly that reduction */
                assert_int_equal(rec->inst->m, bad[k]->m);
                assert_memory_equal(rec->inst->task_srv, bad[k]->task_srv,
                                    (size_t)bad[k]->edges * sizeof(int32_t));
                moved_still++;
                hta_reduce_match_free(rec);
            } else {
                assert_null(rec);
            }
            hta_instance_free(bad[k]);
        }
        hta_reduce_free(r);
        hta_cnf_free(f);
    }
    unlink(path);
    unlink(fpath);
    print_message("recognised: %d satisfiable, %d unsatisfiable; %d of 64 "
                  "moved replicas still a reduction (of another formula)\n",
                  sat, unsat, moved_still);
    assert_true(sat >= 10 && unsat >= 10);
}

/* The stop flag and the time limit give no answer. */
static void test_stops(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(1000, 100, 3, 1.0, 3.0, 3);
    int32_t *a = malloc(1000 * sizeof *a);
    assert_non_null(a);
    volatile sig_atomic_t stop = 1;
    hta_satdec_opts o = {60, &stop, 0, NULL, 0, HTA_SATDEC_CADICAL, NULL};
    hta_satdec_result res;
    hta_diag d;
    assert_int_equal(hta_satdec_decide(inst, 12, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.answer, HTA_SATDEC_UNKNOWN);
    o.stop = NULL;
    o.time_limit = 0;
    assert_int_equal(hta_satdec_decide(inst, 12, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.answer, HTA_SATDEC_UNKNOWN);
    /* a cap on the CNF: not applicable, with the reason */
    o.time_limit = 60;
    o.max_lits = 1000;
    assert_int_equal(hta_satdec_decide(inst, 12, &o, a, &res, &d), HTA_OK);
    assert_int_equal(res.answer, HTA_SATDEC_NA);
    assert_non_null(strstr(res.why, "exceeds 1000 literals"));
    free(a);
    hta_instance_free(inst);
    /* the same for the general decision (HDFS affine, 150 tasks: a piece
     * with a CNF at "< 14") */
    hta_wrem w;
    memset(&w, 0, sizeof w);
    w.kind = HTA_WREM_AFFINE;
    w.a = 3.0;
    w.b = 0.005;
    inst = hdfs_instance_wrem(150, 15, 3, 2.0, &w, 1);
    a = malloc(150 * sizeof *a);
    assert_non_null(a);
    /* each engine: the flag and the time limit stop it; CaDiCaL's CNF
     * cap makes it not applicable; then no (GLPK: without a CNF) */
    for (int engine = HTA_SATDEC_CADICAL; engine <= HTA_SATDEC_GLPK;
         engine++) {
        o.engine = engine;
        o.max_lits = 0;
        o.stop = &stop;
        o.time_limit = 60;
        assert_int_equal(
            hta_satdec_decide_general(inst, 14, 1, &o, a, &res, &d), HTA_OK);
        assert_int_equal(res.answer, HTA_SATDEC_UNKNOWN);
        o.stop = NULL;
        o.time_limit = 0;
        assert_int_equal(
            hta_satdec_decide_general(inst, 14, 1, &o, a, &res, &d), HTA_OK);
        assert_int_equal(res.answer, HTA_SATDEC_UNKNOWN);
        o.time_limit = 60;
        if (engine == HTA_SATDEC_CADICAL) {
            o.max_lits = 1000;
            assert_int_equal(hta_satdec_decide_general(inst, 14, 1, &o, a,
                                                       &res, &d),
                             HTA_OK);
            assert_int_equal(res.answer, HTA_SATDEC_NA);
            assert_non_null(strstr(res.why, "exceeds 1000 literals"));
            o.max_lits = 0;
        }
        assert_int_equal(
            hta_satdec_decide_general(inst, 14, 1, &o, a, &res, &d), HTA_OK);
        assert_int_equal(res.answer, HTA_SATDEC_NO);
        assert_int_equal(res.glpk, engine == HTA_SATDEC_GLPK);
        assert_true(engine == HTA_SATDEC_GLPK ? res.vars == 0 : res.vars > 0);
    }
    free(a);
    hta_instance_free(inst);
    /* GLPK's model over HTA_ENVILP_MAX_COLS columns (2.3 GB at 10^6
     * tasks): not applicable, with the reason, before any model */
    inst = hdfs_instance_wrem(200000, 2000, 3, 0.0, &w, 1); /* uniform */
    a = malloc(200000 * sizeof *a);
    assert_non_null(a);
    o.engine = HTA_SATDEC_GLPK;
    assert_int_equal(hta_satdec_decide_general(inst, 1e3, 1, &o, a, &res, &d),
                     HTA_OK);
    assert_int_equal(res.answer, HTA_SATDEC_NA);
    assert_non_null(strstr(res.why, "columns, over 500000"));
    free(a);
    hta_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_brute),
        cmocka_unit_test(test_not_applicable),
        cmocka_unit_test(test_general_against_brute),
        cmocka_unit_test(test_general_blocked),
        cmocka_unit_test(test_general_matched),
        cmocka_unit_test(test_general_glpk),
        cmocka_unit_test(test_general_alone),
        cmocka_unit_test(test_against_ilp),
        cmocka_unit_test(test_exact_against_brute),
        cmocka_unit_test(test_reductions),
        cmocka_unit_test(test_recognized_reductions),
        cmocka_unit_test(test_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
