/* The one gate (gate.h): every C door refuses the same costs and names
 * with the reader's words; names written and read back are the bytes
 * given; every release function takes NULL. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hta/hta.h"

#include "helpers.h"

/* The message of d after "expected " (the words every door shares). */
static const char *words(const hta_diag *d)
{
    const char *p = strstr(d->msg, "expected ");
    return p ? p : d->msg;
}

/* A cost line's text for the reader, and the same function as a
 * struct, each refused. */
typedef struct bad_cost {
    const char *line; /* after "w_rem " */
    hta_wrem w;
    double v[3];
    const char *says; /* a piece of the shared message */
} bad_cost;

static hta_instance *two_tasks(void)
{
    return parse_text("hta-instance 1\ntasks 2\nservers 2\nw_loc 1\n"
                      "w_rem 3\ntask 0 0\ntask 1 1\nrack 0 /a\nrack 1 /b\n");
}

/* NaN, infinities, negative slopes, decreasing tables and costs below
 * w_loc: through the reader (its words are the reference), through
 * hta_instance_build, as a level through hta_instance_set_levels and
 * through hta_levels_check_costs: the same status and words. */
static void test_costs_every_door(void **state)
{
    (void)state;
    bad_cost cases[] = {
        {"affine 3 -1", {HTA_WREM_AFFINE, 0, NULL, 3, -1}, {0}, "slope b"},
        {"affine 0.5 0", {HTA_WREM_AFFINE, 0, NULL, 0.5, 0}, {0},
         "a >= w_loc"},
        {"3 2", {HTA_WREM_TABLE, 1, NULL, 0, 0}, {3, 2, 0},
         "non-decreasing"},
        {"0.5", {HTA_WREM_TABLE, 0, NULL, 0, 0}, {0.5, 0, 0}, ">= w_loc"},
        {"affine 3 1e+308", {HTA_WREM_AFFINE, 0, NULL, 3, 1e308}, {0},
         "finite"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bad_cost *c = &cases[i];
        if (c->w.kind == HTA_WREM_TABLE)
            c->w.v = c->v;
        char text[256], path[64] = "/tmp/hta-gate-XXXXXX";
        snprintf(text, sizeof text,
                 "hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem %s\n"
                 "task 0 0\ntask 1 1\n",
                 c->line);
        temp_text(path, text);
        hta_instance *inst = NULL;
        hta_diag df, db, dl, dc;
        assert_int_equal(hta_instance_parse(path, &inst, &df), HTA_ERR_INPUT);
        remove(path);
        assert_int_equal(df.line, 5);
        assert_non_null(strstr(df.msg, c->says));
        int64_t off[3] = {0, 1, 2};
        int32_t srv[2] = {0, 1};
        assert_int_equal(
            hta_instance_build(2, 2, 1.0, &c->w, off, srv, &inst, &db),
            HTA_ERR_INPUT);
        assert_null(inst);
        assert_string_equal(words(&db), words(&df));
        /* as level 2's cost: the same rule under the level's name */
        hta_instance *lv = two_tasks();
        hta_wrem hi = {HTA_WREM_AFFINE, 0, NULL, 1e300, 0};
        if (lv->wrem.kind == HTA_WREM_TABLE)
            free(lv->wrem.v); /* the instance's own table, replaced */
        lv->wrem = hi;
        assert_int_equal(hta_instance_set_levels(lv, &c->w, 1, &dl),
                         HTA_ERR_INPUT);
        assert_int_equal(hta_levels(lv), 2);
        assert_int_equal(
            hta_levels_check_costs(1.0, &hi, &c->w, 1, 2, &dc),
            HTA_ERR_INPUT);
        assert_string_equal(dl.msg, dc.msg);
        assert_non_null(strstr(dl.msg, c->says));
        hta_instance_free(lv);
    }
    /* NaN and infinities, which no file can write */
    double bad[] = {NAN, INFINITY, -INFINITY, -1.0};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        hta_wrem t = {HTA_WREM_TABLE, 0, &bad[i], 0, 0};
        hta_wrem a = {HTA_WREM_AFFINE, 0, NULL, 3, bad[i]};
        hta_wrem a0 = {HTA_WREM_AFFINE, 0, NULL, bad[i], 0};
        hta_diag d;
        assert_int_equal(hta_gate_cost(1, &t, 5, "w_rem", NULL, NULL, 0, &d),
                         HTA_ERR_INPUT);
        assert_int_equal(hta_gate_cost(1, &a, 5, "w_rem", NULL, NULL, 0, &d),
                         HTA_ERR_INPUT);
        assert_non_null(strstr(d.msg, "slope b >= 0"));
        assert_int_equal(hta_gate_cost(1, &a0, 5, "w_rem", NULL, NULL, 0, &d),
                         HTA_ERR_INPUT);
        assert_int_equal(hta_gate_w_loc(bad[i], NULL, NULL, 0, &d),
                         HTA_ERR_INPUT);
        hta_instance *lv = two_tasks();
        assert_int_equal(hta_instance_set_levels(lv, &a, 1, &d),
                         HTA_ERR_INPUT);
        assert_int_equal(hta_levels(lv), 2);
        hta_instance_free(lv);
    }
    /* a table longer than a file may hold */
    double *big = malloc((size_t)(HTA_MAX_WREM_TABLE + 1) * sizeof *big);
    assert_non_null(big);
    for (int64_t i = 0; i <= HTA_MAX_WREM_TABLE; i++)
        big[i] = 3;
    hta_wrem t = {HTA_WREM_TABLE, HTA_MAX_WREM_TABLE, big, 0, 0};
    hta_diag d;
    assert_int_equal(hta_gate_cost(1, &t, 5, "w_rem", NULL, NULL, 0, &d),
                     HTA_ERR_INPUT);
    assert_non_null(strstr(d.msg, "at most 1000000 w_rem values"));
    t.k--;
    assert_int_equal(hta_gate_cost(1, &t, 5, "w_rem", NULL, NULL, 0, &d),
                     HTA_OK);
    free(big);
}

/* Ids out of range, empty names, NUL bytes, racks after the levels:
 * refused, the instance unchanged (before: heap corruption). */
static void test_set_name_refusals(void **state)
{
    (void)state;
    hta_instance *inst = two_tasks();
    hta_diag d;
    assert_int_equal(hta_instance_set_name(inst, 't', 2, "x", &d),
                     HTA_ERR_INPUT);
    assert_non_null(strstr(d.msg, "task id in [0, 1], found 2"));
    assert_int_equal(hta_instance_set_name(inst, 's', -1, "x", &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_instance_set_name(inst, 's', 1 << 30, "x", &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_instance_set_name(inst, 't', 0, "", &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_instance_set_name(inst, 't', 0, NULL, &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_instance_set_name(inst, 'x', 0, "a", &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_gate_name('s', "a\0b", 3, NULL, 0, &d),
                     HTA_ERR_INPUT);
    assert_non_null(strstr(d.msg, "without NUL bytes, found one at byte 1"));
    char *longname = malloc(HTA_MAX_NAME + 2);
    assert_non_null(longname);
    memset(longname, 'a', HTA_MAX_NAME + 1);
    longname[HTA_MAX_NAME + 1] = '\0';
    assert_int_equal(hta_instance_set_name(inst, 's', 0, longname, &d),
                     HTA_ERR_INPUT);
    longname[HTA_MAX_NAME] = '\0';
    assert_int_equal(hta_instance_set_name(inst, 's', 0, longname, &d),
                     HTA_OK);
    free(longname);
    hta_wrem w2 = {HTA_WREM_AFFINE, 0, NULL, 2, 0};
    assert_int_equal(hta_instance_set_levels(inst, &w2, 1, &d), HTA_OK);
    assert_int_equal(hta_instance_set_name(inst, 'r', 0, "/b", &d),
                     HTA_ERR_INPUT);
    assert_string_equal(inst->server_rack[0], "/a");
    assert_int_equal(hta_level(inst, 0, 1), 3);
    hta_instance_free(inst);
}

/* write then read gives back every byte of every name (1..255, seeded
 * random names and the hostile ones), and the optimum of an instance
 * whose rack names hold '#' stays (before: two racks merged). */
static void test_names_round_trip(void **state)
{
    (void)state;
    hta_rng rng;
    hta_rng_seed(&rng, 58);
    const char *hostile[] = {"a#b", "%", "%41", "a b", "t\tab", "new\nline",
                             "\xc3\xa9t\xc3\xa9", "\x7f", "#", "%%", " "};
    size_t nh = sizeof hostile / sizeof *hostile;
    for (int round = 0; round < 200; round++) {
        hta_instance *inst = two_tasks();
        char name[3][40];
        for (int k = 0; k < 3; k++) {
            if (round < (int)nh) {
                snprintf(name[k], sizeof name[k], "%s%d", hostile[round], k);
            } else {
                int len = 1 + (int)hta_rng_below(&rng, 30);
                for (int i = 0; i < len; i++)
                    name[k][i] = (char)(1 + hta_rng_below(&rng, 255));
                name[k][len] = '\0';
            }
        }
        hta_diag d;
        assert_int_equal(hta_instance_set_name(inst, 't', 1, name[0], &d),
                         HTA_OK);
        assert_int_equal(hta_instance_set_name(inst, 's', 0, name[1], &d),
                         HTA_OK);
        assert_int_equal(hta_instance_set_name(inst, 'r', 1, name[2], &d),
                         HTA_OK);
        char path[64] = "/tmp/hta-gate-XXXXXX";
        temp_text(path, "");
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(hta_instance_write(inst, f, NULL), HTA_OK);
        fclose(f);
        hta_instance *back = NULL;
        assert_int_equal(hta_instance_parse(path, &back, &d), HTA_OK);
        remove(path);
        assert_string_equal(back->task_name[1], name[0]);
        assert_string_equal(back->server_name[0], name[1]);
        assert_string_equal(back->server_rack[1], name[2]);
        assert_null(back->task_name[0]);
        assert_int_equal(hta_instance_equal(inst, back), 1);
        hta_instance_free(back);
        hta_instance_free(inst);
    }
    /* a '%' not followed by two hex digits, and %00, are refused */
    const char *bad[] = {"rack 0 /a%2", "rack 0 /a%zz", "name task 0 %00"};
    for (size_t i = 0; i < 3; i++) {
        char text[256], path[64] = "/tmp/hta-gate-XXXXXX";
        snprintf(text, sizeof text,
                 "hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem 3\n"
                 "task 0 0\ntask 1 1\n%s\n",
                 bad[i]);
        temp_text(path, text);
        hta_instance *inst = NULL;
        hta_diag d;
        assert_int_equal(hta_instance_parse(path, &inst, &d), HTA_ERR_INPUT);
        assert_int_equal(d.line, 8);
        remove(path);
    }
}

/* Racks "/a#x" and "/a#y" are two racks, so server 1 is remote to every
 * task: the optimum is 4 (all local), read from the written file or not
 * (before, the writer let '#' cut both names to "/a": one rack, and an
 * optimum of 3 with rack-local work at 1.5). */
static void test_hash_racks_keep_the_optimum(void **state)
{
    (void)state;
    hta_instance *inst = parse_text(
        "hta-instance 1\ntasks 4\nservers 2\nw_loc 1\nw_rem 5\n"
        "w_level 2 1.5\ntask 0 0\ntask 1 0\ntask 2 0\ntask 3 0\n"
        "rack 0 /a%23x\nrack 1 /a%23y\n");
    assert_string_equal(inst->server_rack[0], "/a#x");
    assert_int_equal(inst->ngrp[2], 2);
    char path[64] = "/tmp/hta-gate-XXXXXX";
    temp_text(path, "");
    FILE *f = fopen(path, "w");
    assert_int_equal(hta_instance_write(inst, f, NULL), HTA_OK);
    fclose(f);
    hta_instance *back = NULL;
    hta_diag d;
    assert_int_equal(hta_instance_parse(path, &back, &d), HTA_OK);
    remove(path);
    assert_int_equal(back->ngrp[2], 2);
    int32_t best[4];
    assert_int_equal(brute_opt(inst, best, &d), HTA_OK);
    double opt_a = evaluate(inst, best, NULL);
    assert_int_equal(brute_opt(back, best, &d), HTA_OK);
    double opt_b = evaluate(back, best, NULL);
    assert_true(opt_a == opt_b);
    assert_true(opt_a == 4.0);
    /* the oracle tells the two apart: one rack "/a" gives 3 */
    hta_instance *one = parse_text(
        "hta-instance 1\ntasks 4\nservers 2\nw_loc 1\nw_rem 5\n"
        "w_level 2 1.5\ntask 0 0\ntask 1 0\ntask 2 0\ntask 3 0\n"
        "rack 0 /a\nrack 1 /a\n");
    assert_int_equal(brute_opt(one, best, &d), HTA_OK);
    assert_true(evaluate(one, best, NULL) == 3.0);
    hta_instance_free(one);
    hta_instance_free(back);
    hta_instance_free(inst);
}

/* Every release function of the public headers takes NULL. */
static void test_free_null(void **state)
{
    (void)state;
    hta_eval_free(NULL);
    hta_capacity_result_free(NULL);
    hta_cluster_free(NULL);
    hta_cnf_free(NULL);
    hta_ft_result_free(NULL);
    hta_ft_sched_free(NULL);
    hta_fsck_result_free(NULL);
    hta_fsy_result_free(NULL);
    hta_instance_free(NULL);
    hta_jobs_free(NULL);
    hta_dist_free(NULL);
    hta_maxcover_drop_free_counts(NULL);
    hta_maxcover_free(NULL);
    hta_reduce_free(NULL);
    hta_reduce_match_free(NULL);
    hta_slots_free(NULL);
    hta_rp_law_free(NULL);
    hta_rp_table_free(NULL);
    hta_sim_result_free(NULL);
    hta_solve_result_free(NULL);
    hta_rp_trace_free(NULL);
    hta_rp_setup_free(NULL);
}

/* Every query taking an id answers an id out of range with its
 * documented "none" (-1, NULL, NaN, 0), never a read outside the arrays
 * (the suite runs under ASan and valgrind). */
static void test_ids_are_range_checked(void **state)
{
    (void)state;
    hta_diag d;
    hta_instance *inst = NULL;
    assert_int_equal(hta_instance_parse("instances/racks-tiny.txt", &inst, &d),
                     HTA_OK);
    int N = hta_levels(inst);
    assert_true(N > 2);
    int32_t bad[] = {-1, INT32_MIN, INT32_MAX};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(hta_level(inst, bad[k], 0), -1);
        assert_int_equal(hta_level(inst, 0, bad[k]), -1);
        assert_int_equal(hta_instance_is_local(inst, bad[k], 0), 0);
        assert_int_equal(hta_instance_is_local(inst, 0, bad[k]), 0);
    }
    assert_int_equal(hta_level(inst, inst->m, 0), -1);
    assert_int_equal(hta_level(inst, 0, inst->n), -1);
    for (int32_t t = 0; t < inst->m; t++)
        for (int32_t sv = 0; sv < inst->n; sv++) {
            int l = hta_level(inst, t, sv);
            assert_true(l >= 1 && l <= N);
            assert_int_equal(l == 1, hta_instance_is_local(inst, t, sv));
        }
    assert_null(hta_level_wrem(inst, 1));
    assert_null(hta_level_wrem(inst, N + 1));
    assert_ptr_equal(hta_level_wrem(inst, N), &inst->wrem);
    assert_true(isnan(hta_level_cost(inst, 0, 1)));
    assert_true(isnan(hta_level_cost(inst, N + 1, 1)));
    assert_true(isnan(hta_level_cost(inst, 2, -1)));
    assert_true(hta_level_cost(inst, 1, 1) == inst->w_loc);
    hta_instance_free(inst);

    hta_cluster *c = NULL;
    assert_int_equal(hta_cluster_parse("instances/clusters/"
                                       "priority-unstable.txt", &c, &d),
                     HTA_OK);
    assert_int_equal(c->levels, 4);
    assert_int_equal(hta_capacity_level(c, -1, 0), -1);
    assert_int_equal(hta_capacity_level(c, c->T, 0), -1);
    assert_int_equal(hta_capacity_level(c, 0, c->M), -1);
    assert_int_equal(hta_capacity_level(c, 0, -1), -1);
    assert_int_equal(hta_capacity_level(c, 0, 0), 1);
    assert_int_equal(hta_cluster_group(c, -1, 2), -1);
    assert_int_equal(hta_cluster_group(c, c->M, 2), -1);
    assert_int_equal(hta_cluster_group(c, 0, 1), -1);
    assert_int_equal(hta_cluster_groups(c, 1), -1);
    for (int n = 2; n <= 5; n++) {
        int64_t G = hta_cluster_groups(c, n), seen = 0;
        assert_int_equal(hta_cluster_group_size(c, n, G), -1);
        assert_int_equal(hta_cluster_group_size(c, n, -1), -1);
        assert_int_equal(hta_cluster_group_server(c, n, G, 0), -1);
        assert_int_equal(hta_cluster_group_server(c, n, INT64_MAX / 2, 0),
                         -1);
        for (int64_t g = 0; g < G; g++) {
            int64_t size = hta_cluster_group_size(c, n, g);
            assert_int_equal(hta_cluster_group_server(c, n, g, size), -1);
            assert_int_equal(hta_cluster_group_server(c, n, g, -1), -1);
            for (int64_t i = 0; i < size; i++) {
                int32_t x = hta_cluster_group_server(c, n, g, i);
                assert_int_equal(hta_cluster_group(c, x, n), g);
            }
            seen += size;
        }
        assert_int_equal(seen, c->M); /* the groups partition the servers */
    }
    hta_cluster_free(c);

    /* a tail of declared servers beyond the working ones, asked in any
     * order: the same as asked in turn */
    inst = parse_text("hta-instance 1\ntasks 3\nservers 50\nw_loc 1\n"
                      "w_rem 3\ntask 0 0\ntask 1 1\ntask 2 1\n");
    int32_t a[3] = {40, 7, 40};
    hta_eval ev;
    assert_int_equal(hta_eval_run(inst, a, &ev, &d), HTA_OK);
    int64_t cur = 0;
    int32_t loc[50], rem[50], x, y;
    double load[50], z;
    for (int32_t sv = 0; sv < 50; sv++)
        assert_int_equal(hta_eval_server(inst, &ev, sv, &cur, &loc[sv],
                                         &rem[sv], &load[sv]),
                         0);
    assert_int_equal(rem[40], 2);
    assert_int_equal(rem[7], 1);
    assert_true(load[40] > load[7] && load[7] > 0);
    cur = 0;
    for (int32_t sv = 49; sv >= 0; sv--) {
        assert_int_equal(hta_eval_server(inst, &ev, sv, &cur, &x, &y, &z),
                         0);
        assert_int_equal(x, loc[sv]);
        assert_int_equal(y, rem[sv]);
        assert_true(z == load[sv]);
    }
    assert_int_equal(hta_eval_server(inst, &ev, 50, &cur, &x, &y, &z), -1);
    assert_int_equal(hta_eval_server(inst, &ev, -1, &cur, &x, &y, &z), -1);
    hta_eval_free(&ev);
    hta_instance_free(inst);
}

/* Three readers of one thread under its stop flag (hta/stop.h). */
static hta_status read_three(hta_diag *d)
{
    hta_cluster *c = NULL;
    hta_cnf *f = NULL;
    hta_instance *inst = NULL;
    hta_status st = hta_cluster_parse("instances/clusters/"
                                      "priority-unstable.txt", &c, d);
    if (st == HTA_OK)
        st = hta_cnf_parse("tests/data/satlib/uf20-01.cnf", &f, d);
    if (st == HTA_OK)
        st = hta_instance_parse("instances/example.txt", &inst, d);
    hta_cluster_free(c);
    hta_cnf_free(f);
    hta_instance_free(inst);
    return st;
}

static void *read_in_thread(void *arg)
{
    hta_diag d;
    hta_diag_clear(&d);
    *(hta_status *)arg = read_three(&d);
    return NULL;
}

/* A thread's stop flag ends its readers, not another thread's, and is
 * restored as it was. */
static void test_reads_stop_is_the_threads(void **state)
{
    (void)state;
    volatile sig_atomic_t stop = 1;
    hta_diag d;
    hta_diag_clear(&d);
    assert_null(hta_reads_stop(&stop));
    assert_int_equal(read_three(&d), HTA_ERR_INTERNAL);
    assert_string_equal(d.msg, "interrupted");
    pthread_t t;
    hta_status other = HTA_ERR_IO;
    assert_int_equal(pthread_create(&t, NULL, read_in_thread, &other), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(other, HTA_OK);
    stop = 0;
    assert_int_equal(read_three(&d), HTA_OK);
    assert_ptr_equal(hta_reads_stop(NULL), &stop);
    stop = 1;
    assert_int_equal(read_three(&d), HTA_OK);
}

/* Text through a temporary file and from memory: the same object (its
 * written text) or the same words and line (pickling's door, issue 69). */
typedef hta_status (*parse_file_fn)(const char *, void **, hta_diag *);
typedef hta_status (*parse_mem_fn)(const char *, const char *, size_t,
                                   void **, hta_diag *);
typedef hta_status (*write_fn)(const void *, FILE *);
typedef void (*free_fn)(void *);

static hta_status cluster_file(const char *p, void **o, hta_diag *d)
{
    return hta_cluster_parse(p, (hta_cluster **)o, d);
}
static hta_status cluster_mem(const char *n, const char *t, size_t l,
                              void **o, hta_diag *d)
{
    return hta_cluster_parse_memory(n, t, l, (hta_cluster **)o, d);
}
static hta_status cluster_out(const void *o, FILE *f)
{
    return hta_cluster_write(o, f, NULL);
}
static void cluster_free(void *o)
{
    hta_cluster_free(o);
}
static hta_status jobs_file(const char *p, void **o, hta_diag *d)
{
    return hta_jobs_parse(p, (hta_jobs **)o, d);
}
static hta_status jobs_mem(const char *n, const char *t, size_t l, void **o,
                           hta_diag *d)
{
    return hta_jobs_parse_memory(n, t, l, (hta_jobs **)o, d);
}
static hta_status jobs_out(const void *o, FILE *f)
{
    return hta_jobs_write(o, f, NULL);
}
static void jobs_free(void *o)
{
    hta_jobs_free(o);
}

static char *text_of(const void *o, write_fn w)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(w(o, f), HTA_OK);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void same_either_way(const char *text, parse_file_fn pf,
                            parse_mem_fn pm, write_fn w, free_fn fr)
{
    char path[] = "/tmp/hta-gate-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    void *a = NULL, *b = NULL;
    hta_diag da, db;
    hta_diag_clear(&da);
    hta_diag_clear(&db);
    hta_status sa = pf(path, &a, &da),
               sb = pm("<text>", text, strlen(text), &b, &db);
    remove(path);
    assert_int_equal(sa, sb);
    if (sa == HTA_OK) {
        char *ta = text_of(a, w), *tb = text_of(b, w);
        assert_string_equal(ta, tb);
        free(ta);
        free(tb);
    } else {
        assert_string_equal(da.msg, db.msg);
        assert_int_equal(da.line, db.line);
        assert_string_equal(db.path, "<text>");
    }
    fr(a);
    fr(b);
}

static void test_memory_readers_are_the_file_readers(void **state)
{
    (void)state;
    static const char *const clusters[] = {
        "hta-cluster 1\nservers 4\nrates 1 0.5 0.2\ntopology 2\n"
        "type 0.5 0 1\ntype 0.25 3\n",
        "hta-cluster 1\nservers 4\nrates 1 0.5\ntype 0.5 0 4\n",
        "hta-cluster 1\nservers 4\nrates 1 1e-400\ntype 0.5 0\n",
        "hta-cluster 1\nservers 4\nrates 1 0.5\n",
        "hta-cluster 2\n", ""};
    static const char *const jobs[] = {
        "hta-jobs 1\njob 1 3 2 2\njob 4 1\n",
        "hta-jobs 1\njob 4 3\njob 1 1\n", "hta-jobs 1\njob 1 0\n",
        "hta-jobs 1\n", "job 1 1\n"};
    for (size_t i = 0; i < sizeof clusters / sizeof *clusters; i++)
        same_either_way(clusters[i], cluster_file, cluster_mem, cluster_out,
                        cluster_free);
    for (size_t i = 0; i < sizeof jobs / sizeof *jobs; i++)
        same_either_way(jobs[i], jobs_file, jobs_mem, jobs_out, jobs_free);
}

/* A subnormal cost has no file form (the reader refuses it as out of
 * range): the gate refuses it with those words, so that every instance
 * built in memory reads back from its file. */
static void test_subnormal_costs_are_out_of_range(void **state)
{
    (void)state;
    double tiny = 1.1125369292536007e-308;
    hta_wrem aff = {.kind = HTA_WREM_AFFINE, .a = 3, .b = tiny};
    hta_diag d;
    hta_diag_clear(&d);
    assert_int_equal(hta_gate_cost(1, &aff, 10, "w_rem", NULL, NULL, 0, &d),
                     HTA_ERR_INPUT);
    assert_string_equal(d.msg, "expected a slope b >= 0, found "
                               "out-of-range '1.1125369292536007e-308'");
    hta_diag_clear(&d);
    assert_int_equal(hta_gate_w_loc(tiny, NULL, NULL, 0, &d),
                     HTA_ERR_INPUT);
    assert_non_null(strstr(d.msg, "out-of-range"));
    static const char text[] = "hta-instance 1\ntasks 1\nservers 2\n"
                               "w_loc 1\nw_rem affine 3 "
                               "1.1125369292536007e-308\ntask 0 0\n";
    hta_instance *inst = NULL;
    hta_diag_clear(&d);
    assert_int_equal(hta_instance_parse_memory("t", text, sizeof text - 1,
                                               &inst, &d),
                     HTA_ERR_INPUT);
    assert_null(inst);
    assert_string_equal(d.msg, "expected a slope b >= 0, found "
                               "out-of-range '1.1125369292536007e-308'");
    double rates[2] = {1, 0.5};
    int64_t *off = malloc(2 * sizeof *off);
    int32_t *srv = malloc(sizeof *srv);
    double *lam = malloc(sizeof *lam);
    off[0] = 0;
    off[1] = 1;
    srv[0] = 0;
    lam[0] = tiny;
    hta_cluster *c = NULL;
    hta_diag_clear(&d);
    assert_int_equal(hta_cluster_build(2, rates, 2, NULL, 0, 1, lam, off,
                                       srv, &c, &d),
                     HTA_ERR_INPUT);
    assert_null(c);
    assert_non_null(strstr(d.msg, "out-of-range"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_costs_every_door),
        cmocka_unit_test(test_set_name_refusals),
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_hash_racks_keep_the_optimum),
        cmocka_unit_test(test_free_null),
        cmocka_unit_test(test_reads_stop_is_the_threads),
        cmocka_unit_test(test_ids_are_range_checked),
        cmocka_unit_test(test_memory_readers_are_the_file_readers),
        cmocka_unit_test(test_subnormal_costs_are_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
