/* DIMACS parsing, 3-CNF conversion, and the 3SAT reduction: Table 2,
 * Lemma 3.2, the witness of Lemma 3.4 and the decoding, against brute
 * force over all truth assignments. */
#include "helpers.h"

#include <stdio.h>

#include "hta/assign.h"
#include "hta/cnf.h"
#include "hta/fsy.h"
#include "hta/ilp.h"
#include "hta/reduce.h"
#include "exact/brute.h"

static hta_cnf *parse_cnf_text(const char *text, hta_diag *d,
                               hta_status *st)
{
    char path[] = "/tmp/hta-test-XXXXXX";
    temp_text(path, text);
    hta_cnf *cnf = NULL;
    *st = hta_cnf_parse(path, &cnf, d);
    remove(path);
    return cnf;
}

static void test_dimacs_valid(void **state)
{
    (void)state;
    hta_diag d;
    hta_status st;
    hta_cnf *f = parse_cnf_text("c a comment\nc another\np  cnf   4  3 \n"
                                "1 -2\n 3 0 -1 2 0\n4\n0\n%\n0\n\n",
                                &d, &st);
    assert_int_equal(st, HTA_OK);
    assert_int_equal(f->nvars, 4);
    assert_int_equal(f->nclauses, 3);
    assert_int_equal(f->off[1], 3); /* 1 -2 3 */
    assert_int_equal(f->lits[2], 3);
    assert_int_equal(f->off[2] - f->off[1], 2); /* -1 2 */
    assert_int_equal(f->off[3] - f->off[2], 1); /* 4 */
    assert_false(f->empty_clause);
    hta_cnf_free(f);
    /* only empty clauses (found by the fuzzer: no literal array at all) */
    f = parse_cnf_text("p cnf 1 1\n0\n", &d, &st);
    assert_int_equal(st, HTA_OK);
    hta_reduction *red = NULL;
    assert_int_equal(hta_reduce_build(f, &red, &d), HTA_OK);
    assert_true(red->f3->nclauses == 8); /* (y) and (-y), padded */
    hta_reduce_free(red);
    hta_cnf_free(f);
    /* an empty clause, and a last clause without its 0 */
    f = parse_cnf_text("p cnf 2 2\n0\n1 -2", &d, &st);
    assert_int_equal(st, HTA_OK);
    assert_true(f->empty_clause);
    assert_int_equal(f->nclauses, 2);
    hta_cnf_free(f);
}

static void test_dimacs_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        long line;
        const char *msg;
    } cases[] = {
        {"1 2 0\n", 1, "expected the header 'p cnf <variables> <clauses>', found '1'"},
        {"c only\n", 2, "expected the header 'p cnf <variables> <clauses>', found end of file"},
        {"p cnf 3\n", 1, "expected 'p cnf <variables> <clauses>'"},
        {"p sat 3 1\n", 1, "expected 'p cnf <variables> <clauses>', found 'sat'"},
        {"p cnf 3 1\n1 4 0\n", 2, "expected a literal in [-3, 3], found '4'"},
        {"p cnf 3 1\n1 x 0\n", 2, "expected a literal, found 'x'"},
        {"p cnf 3 2\n1 2 0\n", 3, "expected 2 clauses (the header), found 1"},
        {"p cnf 3 1\n1 2 0\n3 0\n", 3, "expected 1 clauses (the header), found more"},
        {"p cnf 3 1\np cnf 3 1\n", 2, "expected a clause (one 'p' header only), found 'p'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hta_diag d;
        hta_status st;
        hta_cnf *f = parse_cnf_text(cases[i].text, &d, &st);
        hta_cnf_free(f);
        if (st != HTA_ERR_INPUT || d.line != cases[i].line ||
            !strstr(d.msg, cases[i].msg))
            fail_msg("case %zu: status %d line %ld '%s'", i, st, d.line,
                     d.msg);
    }
}

/* Satisfiable by enumeration; with vars <= 20. */
static int brute_sat(const hta_cnf *f, signed char *model)
{
    int32_t n = f->nvars;
    for (uint64_t bits = 0; bits < (1ULL << n); bits++) {
        for (int32_t v = 1; v <= n; v++)
            model[v] = (signed char)((bits >> (v - 1)) & 1);
        if (hta_cnf_first_false(f, model) < 0)
            return 1;
    }
    return 0;
}

/* A random formula with clause lengths 0..6 (length 0 rarely). */
static hta_cnf *random_formula(hta_rng *r, int32_t vars, int64_t clauses)
{
    char buf[8192];
    int len = snprintf(buf, sizeof buf, "p cnf %ld %lld\n", (long)vars,
                       (long long)clauses);
    for (int64_t c = 0; c < clauses; c++) {
        int k = (int)hta_rng_below(r, 100) < 2 ? 0 :
                                                1 + (int)hta_rng_below(r, 6);
        for (int i = 0; i < k; i++) {
            int32_t v = 1 + (int32_t)hta_rng_below(r, (uint64_t)vars);
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%ld ",
                            hta_rng_below(r, 2) ? "-" : "", (long)v);
        }
        len += snprintf(buf + len, sizeof buf - (size_t)len, "0\n");
    }
    hta_diag d;
    hta_status st;
    hta_cnf *f = parse_cnf_text(buf, &d, &st);
    if (st != HTA_OK)
        fail_msg("random_formula: %s", d.msg);
    return f;
}

static void test_to3_equisatisfiable(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 51);
    signed char m1[64], m3[64];
    for (int i = 0; i < 300; i++) {
        hta_cnf *f = random_formula(&r, 1 + (int32_t)hta_rng_below(&r, 6),
                                    1 + (int64_t)hta_rng_below(&r, 6));
        hta_cnf *g = NULL;
        hta_diag d;
        assert_int_equal(hta_cnf_to3(f, &g, &d), HTA_OK);
        for (int64_t c = 0; c < g->nclauses; c++)
            assert_int_equal(g->off[c + 1] - g->off[c], 3);
        if (g->nvars > 20) { /* beyond enumeration */
            hta_cnf_free(f);
            hta_cnf_free(g);
            continue;
        }
        int s1 = brute_sat(f, m1), s3 = brute_sat(g, m3);
        assert_int_equal(s1, s3);
        if (s1) {
            /* the extension of a model of f satisfies g */
            memset(m3, 0, sizeof m3);
            memcpy(m3, m1, (size_t)f->nvars + 1);
            hta_cnf_extend_model(g, f, m3);
            assert_true(hta_cnf_first_false(g, m3) < 0);
        }
        hta_cnf_free(f);
        hta_cnf_free(g);
    }
}

/* Table 2 and Lemma 3.2 on a formula. */
static void check_structure(const hta_reduction *r)
{
    const hta_instance *in = r->inst;
    int64_t A = r->alpha, B = r->beta, W = r->omega;
    assert_int_equal(in->n, A + 2 * B * W + 1);
    assert_int_equal(in->m, 3 * A + A + 2 * B * W + B * W + 3);
    assert_true(in->w_loc == 1.0 && hta_wrem_at(&in->wrem, 0) == 3.0 &&
                hta_wrem_is_constant(&in->wrem));
    int32_t P = (int32_t)(A + 2 * B * W);
    for (int32_t t = 0; t < in->m; t++) {
        int64_t deg = in->task_off[t + 1] - in->task_off[t];
        assert_true(deg >= 1 && deg <= 2); /* Lemma 3.2 */
        int32_t s0 = in->task_srv[in->task_off[t]];
        if (t < 3 * A) { /* literal task: clause server and a ring server */
            assert_int_equal(deg, 2);
            assert_int_equal(s0, t / 3);
            int32_t s1 = in->task_srv[in->task_off[t] + 1];
            assert_true(s1 >= A && s1 < P);
        } else if (t < 4 * A) { /* auxiliary */
            assert_int_equal(deg, 1);
            assert_int_equal(s0, t - 3 * A);
        } else if (t < 4 * A + 2 * B * W) { /* ring task */
            assert_int_equal(deg, 2);
            assert_true(s0 >= A && s0 < P);
        } else { /* variable and sink tasks */
            assert_int_equal(deg, 1);
            assert_int_equal(s0, P);
        }
    }
    /* each ring server holds at most one literal task */
    for (int32_t s = (int32_t)A; s < P; s++) {
        int lits = 0;
        for (int64_t i = in->srv_off[s]; i < in->srv_off[s + 1]; i++)
            lits += in->srv_task[i] < 3 * A;
        assert_true(lits <= 1);
    }
}

static void test_reduction_vs_enumeration(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 52);
    signed char model[64];
    int sat_seen = 0, unsat_seen = 0;
    for (int i = 0; i < 120; i++) {
        int32_t vars = 3 + (int32_t)hta_rng_below(&r, 4);
        hta_cnf *f = random_formula(&r, vars, 2 + (int64_t)hta_rng_below(&r, 9));
        hta_reduction *red = NULL;
        hta_diag d;
        assert_int_equal(hta_reduce_build(f, &red, &d), HTA_OK);
        check_structure(red);
        int32_t *a = malloc((size_t)red->inst->m * sizeof *a);
        /* every model gives a witness of makespan <= 3 that decodes to a
         * model; non-models are refused */
        int any = 0;
        for (uint64_t bits = 0; bits < (1ULL << vars); bits++) {
            for (int32_t v = 1; v <= vars; v++)
                model[v] = (signed char)((bits >> (v - 1)) & 1);
            int is_model = hta_cnf_first_false(f, model) < 0;
            hta_status st = hta_reduce_witness(red, model, a, NULL, &d);
            if (!is_model) {
                assert_int_equal(st, HTA_ERR_INPUT);
                continue;
            }
            any = 1;
            assert_int_equal(st, HTA_OK);
            signed char *dec = NULL;
            assert_int_equal(hta_reduce_decode(red, a, &dec, &d), HTA_OK);
            assert_true(hta_cnf_first_false(f, dec) < 0);
            free(dec);
        }
        sat_seen += any;
        unsat_seen += !any;
        free(a);
        hta_reduce_free(red);
        hta_cnf_free(f);
    }
    assert_true(sat_seen > 10 && unsat_seen > 10);
}

/* Theorem 3.1 end to end on tiny formulas: satisfiable iff the exact
 * optimum is <= 3; the optimal assignment decodes to a model. */
static void test_theorem_3_1_exact(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 53);
    signed char model[64];
    int sat_seen = 0, unsat_seen = 0;
    for (int i = 0; i < 40; i++) {
        hta_cnf *f = random_formula(&r, 3, 3 + (int64_t)hta_rng_below(&r, 8));
        hta_reduction *red = NULL;
        hta_diag d;
        assert_int_equal(hta_reduce_build(f, &red, &d), HTA_OK);
        int32_t *a = malloc((size_t)red->inst->m * sizeof *a);
        int32_t *inc = malloc((size_t)red->inst->m * sizeof *inc);
        hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 1, 0, NULL, NULL, NULL,
                           NULL};
        hta_fsy_result fr;
        assert_int_equal(hta_fsy_run(red->inst, &fo, inc, &fr, &d), HTA_OK);
        hta_ilp_opts o = {60, 100000, 0, 0, HTA_ILP_COMPACT, NULL, inc,
                          fr.lower_bound, NULL, NULL, NULL, HTA_ILP_ENGINE_GLPK};
        hta_fsy_result_free(&fr);
        hta_ilp_result res;
        assert_int_equal(hta_ilp_solve(red->inst, &o, a, &res, &d), HTA_OK);
        assert_int_equal(res.status, HTA_ILP_OPTIMAL);
        int sat = brute_sat(f, model);
        assert_int_equal(sat, res.makespan <= 3.0);
        signed char *dec = NULL;
        hta_status st = hta_reduce_decode(red, a, &dec, &d);
        if (sat) {
            assert_int_equal(st, HTA_OK);
            assert_true(hta_cnf_first_false(f, dec) < 0);
        } else {
            assert_int_equal(st, HTA_ERR_NOPROOF);
        }
        sat_seen += sat;
        unsat_seen += !sat;
        free(dec);
        free(a);
        free(inc);
        hta_reduce_free(red);
        hta_cnf_free(f);
    }
    assert_true(sat_seen > 5 && unsat_seen > 5);
}

static void test_satlib_files(void **state)
{
    (void)state;
    static const char *const files[] = {
        "tests/data/satlib/uf20-01.cnf", "tests/data/satlib/uf50-01.cnf",
        "tests/data/satlib/uuf50-01.cnf", "tests/data/satlib/uf100-01.cnf"};
    static const int32_t vars[] = {20, 50, 50, 100};
    static const int64_t clauses[] = {91, 218, 218, 430};
    for (int i = 0; i < 4; i++) {
        hta_cnf *f = NULL;
        hta_diag d;
        hta_status st = hta_cnf_parse(files[i], &f, &d);
        if (st != HTA_OK)
            fail_msg("%s: %s", files[i], d.msg);
        assert_int_equal(f->nvars, vars[i]);
        assert_int_equal(f->nclauses, clauses[i]);
        hta_reduction *red = NULL;
        assert_int_equal(hta_reduce_build(f, &red, &d), HTA_OK);
        check_structure(red);
        hta_reduce_free(red);
        hta_cnf_free(f);
    }
}

static void test_random3_deterministic(void **state)
{
    (void)state;
    hta_cnf *a = NULL, *b = NULL;
    hta_diag d;
    assert_int_equal(hta_cnf_random3(10, 42, 7, &a, &d), HTA_OK);
    assert_int_equal(hta_cnf_random3(10, 42, 7, &b, &d), HTA_OK);
    assert_int_equal(a->off[a->nclauses], 126);
    assert_memory_equal(a->lits, b->lits, 126 * sizeof *a->lits);
    for (int64_t c = 0; c < a->nclauses; c++) {
        int32_t *l = a->lits + 3 * c;
        int32_t x = abs(l[0]), y = abs(l[1]), z = abs(l[2]);
        assert_true(x != y && y != z && x != z);
    }
    hta_cnf_free(a);
    hta_cnf_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dimacs_valid),
        cmocka_unit_test(test_dimacs_errors),
        cmocka_unit_test(test_to3_equisatisfiable),
        cmocka_unit_test(test_reduction_vs_enumeration),
        cmocka_unit_test(test_theorem_3_1_exact),
        cmocka_unit_test(test_satlib_files),
        cmocka_unit_test(test_random3_deterministic),
    };
    return cmocka_run_group_tests_name("sat", tests, NULL, NULL);
}
