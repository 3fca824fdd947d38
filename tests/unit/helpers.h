/* Test helpers: random tiny instances with every cost model, parsing from
 * strings.  Header-only so each test program stays one file. */
#ifndef HTA_TEST_HELPERS_H
#define HTA_TEST_HELPERS_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hta/assign.h"
#include "hta/gen.h"
#include "hta/instance.h"
#include "hta/levels.h"
#include "hta/rng.h"
#include "hta/solve.h"
#include "exact/brute.h"

/* hta_solve with options o and the rows fsy, then second. */
static inline void solve_fsy_then_opts(const hta_instance *inst,
                                       hta_algo second, hta_solve_opts *o,
                                       hta_solve_result *res)
{
    hta_diag d;
    o->algos[0] = HTA_ALGO_FSY;
    o->algos[1] = second;
    o->nalgos = 2;
    if (hta_solve(inst, o, res, &d) != HTA_OK)
        fail_msg("solve: %s", d.msg);
}

/* The same with the default options. */
static inline void solve_fsy_then(const hta_instance *inst, hta_algo second,
                                  hta_solve_result *res)
{
    hta_solve_opts o;
    hta_solve_opts_default(&o);
    solve_fsy_then_opts(inst, second, &o, res);
}

/* The brute-force optimum, run to completion. */
static inline hta_status brute_opt(const hta_instance *inst, int32_t *best,
                                   hta_diag *d)
{
    int complete = 0;
    hta_status st = hta_brute_run(inst, NULL, best, &complete, d);
    if (st == HTA_OK)
        assert_true(complete);
    return st;
}

/* Cost models drawn by random_instance; COST_INTEGER (one integer w_rem
 * in [w_loc, 3 w_loc], w_loc in 1..3) is asked for by name only. */
enum { COST_CONSTANT, COST_TABLE, COST_AFFINE, COST_MODELS,
       COST_INTEGER = COST_MODELS };

/* A random instance: m in [1, max_m], n in [1, max_n], each task a random
 * non-empty set of servers (at most max_rep), costs of the given model. */
static inline hta_instance *random_instance(hta_rng *r, int max_m, int max_n,
                                            int max_rep, int model)
{
    int32_t m = 1 + (int32_t)hta_rng_below(r, (uint64_t)max_m);
    int32_t n = 1 + (int32_t)hta_rng_below(r, (uint64_t)max_n);
    int64_t *off = malloc(((size_t)m + 1) * sizeof *off);
    int32_t *srv = malloc((size_t)m * (size_t)n * sizeof *srv);
    int32_t *perm = malloc((size_t)n * sizeof *perm);
    assert_non_null(off);
    assert_non_null(srv);
    assert_non_null(perm);
    off[0] = 0;
    for (int32_t t = 0; t < m; t++) {
        int rep = max_rep < n ? max_rep : n;
        int k = 1 + (int)hta_rng_below(r, (uint64_t)rep);
        for (int32_t s = 0; s < n; s++)
            perm[s] = s;
        hta_rng_shuffle(r, perm, n);
        memcpy(srv + off[t], perm, (size_t)k * sizeof *srv);
        off[t + 1] = off[t] + k;
    }
    static const double locs[] = {1.0, 1.5, 2.0, 0.7};
    double w_loc = locs[hta_rng_below(r, 4)];
    double v[6];
    hta_wrem w;
    memset(&w, 0, sizeof w);
    switch (model) {
    case COST_CONSTANT:
        w.kind = HTA_WREM_TABLE;
        w.k = 0;
        v[0] = w_loc * (1.0 + (double)hta_rng_below(r, 5) * 0.5);
        w.v = v;
        break;
    case COST_TABLE:
        w.kind = HTA_WREM_TABLE;
        w.k = 1 + (int64_t)hta_rng_below(r, 5);
        v[0] = w_loc * (1.0 + (double)hta_rng_below(r, 3) * 0.5);
        for (int64_t i = 1; i <= w.k; i++)
            v[i] = v[i - 1] + (double)hta_rng_below(r, 3) * 0.5;
        w.v = v;
        break;
    case COST_INTEGER:
        w_loc = (double)(1 + hta_rng_below(r, 3));
        w.kind = HTA_WREM_TABLE;
        w.k = 0;
        v[0] = w_loc + (double)hta_rng_below(r, (uint64_t)(2 * w_loc + 1));
        w.v = v;
        break;
    default:
        w.kind = HTA_WREM_AFFINE;
        w.a = w_loc * (1.0 + (double)hta_rng_below(r, 3) * 0.5);
        w.b = (double)hta_rng_below(r, 3) * 0.25;
        break;
    }
    hta_instance *inst = NULL;
    hta_diag d;
    hta_status st = hta_instance_build(m, n, w_loc, &w, off, srv, &inst, &d);
    if (st != HTA_OK)
        fail_msg("random_instance: %s", d.msg);
    free(off);
    free(srv);
    free(perm);
    return inst;
}

/* An HDFS-like instance from the library's generator, w_loc 1 and the
 * given w_rem. */
static inline hta_instance *hdfs_instance_wrem(int32_t m, int32_t n,
                                               int32_t k, double zipf,
                                               const hta_wrem *w,
                                               uint64_t seed)
{
    hta_gen_hdfs_params p;
    memset(&p, 0, sizeof p);
    p.tasks = m;
    p.servers = n;
    p.replicas = k;
    p.zipf = zipf;
    p.w_loc = 1.0;
    p.wrem = *w;
    p.seed = seed;
    hta_instance *inst = NULL;
    hta_diag d;
    if (hta_gen_hdfs(&p, &inst, &d) != HTA_OK)
        fail_msg("hdfs_instance: %s", d.msg);
    return inst;
}

/* The same with a constant w_rem c. */
static inline hta_instance *hdfs_instance(int32_t m, int32_t n, int32_t k,
                                          double zipf, double c,
                                          uint64_t seed)
{
    double v[1] = {c};
    hta_wrem w;
    memset(&w, 0, sizeof w);
    w.kind = HTA_WREM_TABLE;
    w.v = v;
    return hdfs_instance_wrem(m, n, k, zipf, &w, seed);
}

/* The most remote tasks beside x local ones within L (below L when
 * strict) at cost c, -1 when x alone does not fit: straight from the
 * definition, one remote task at a time (the oracle of close's and the
 * envelope bound's slot counts). */
static inline int64_t slots_ref(const hta_instance *inst, int64_t x,
                                double c, double L, int strict)
{
    double v = hta_load(inst, x, 0, c);
    if (strict ? !(v < L) : !(v <= L))
        return -1;
    int64_t j = 0;
    for (; j < inst->m; j++) {
        v = hta_load(inst, x, j + 1, c);
        if (strict ? !(v < L) : !(v <= L))
            break;
    }
    return j;
}

/* The makespan of a complete assignment by the evaluator; *remote (if
 * not NULL) receives r^A. */
static inline double evaluate(const hta_instance *inst, const int32_t *a,
                              int64_t *remote)
{
    hta_eval ev;
    hta_diag d;
    if (hta_eval_run(inst, a, &ev, &d) != HTA_OK)
        fail_msg("evaluate: %s", d.msg);
    double x = ev.makespan;
    if (remote)
        *remote = ev.remote;
    hta_eval_free(&ev);
    return x;
}

/* Writes text to a new temporary file named from the template path
 * ("...XXXXXX", replaced in place); the caller removes it. */
static inline void temp_text(char *path, const char *text)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static inline hta_instance *parse_text(const char *text)
{
    hta_instance *inst = NULL;
    hta_diag d;
    if (hta_instance_parse_memory("<test>", text, strlen(text), &inst, &d) !=
        HTA_OK)
        fail_msg("parse_text: line %ld: %s", d.line, d.msg);
    return inst;
}

/* w_loc + f (w - w_loc), of w's kind: a cost between w_loc and w. */
static inline void between(double w_loc, const hta_wrem *w, double f, hta_wrem *out,
                    double *v)
{
    /* rounded down to w where the sum's rounding would pass it */
    *out = *w;
    if (w->kind == HTA_WREM_AFFINE) {
        out->a = fmin(w->a, w_loc + f * (w->a - w_loc));
        out->b = f * w->b;
        return;
    }
    for (int64_t i = 0; i <= w->k; i++)
        v[i] = fmin(w->v[i], w_loc + f * (w->v[i] - w_loc));
    out->v = v;
}

/* A random instance of depth 1 or 2 racks (N = 3 or 4): servers in racks
 * by a random map (ids need not be consecutive), level costs a random
 * non-decreasing share of the way from w_loc to w_rem. */
static inline hta_instance *random_levels_model(hta_rng *r, int max_m,
                                                int max_n, int depth,
                                                int model)
{
    hta_instance *inst = random_instance(r, max_m, max_n, 3, model);
    int pods = 1 + (int)hta_rng_below(r, 2),
        racks = 1 + (int)hta_rng_below(r, 3);
    for (int32_t s = 0; s < inst->n_declared; s++) {
        char path[32];
        int p = (int)hta_rng_below(r, (uint64_t)pods),
            k = (int)hta_rng_below(r, (uint64_t)racks);
        if (depth == 1)
            snprintf(path, sizeof path, "/r%d", p * 3 + k);
        else
            snprintf(path, sizeof path, "/p%d/r%d", p, k);
        assert_int_equal(hta_instance_set_name(inst, 'r', s, path, NULL), HTA_OK);
    }
    static const double shares[] = {0.0, 0.25, 0.5, 1.0};
    double f[2] = {shares[hta_rng_below(r, 4)], shares[hta_rng_below(r, 4)]};
    if (f[0] > f[1]) {
        double x = f[0];
        f[0] = f[1];
        f[1] = x;
    }
    hta_wrem w[2];
    double v[2][8];
    for (int l = 0; l < depth; l++)
        between(inst->w_loc, &inst->wrem, f[l], &w[l], v[l]);
    hta_diag d;
    if (hta_instance_set_levels(inst, w, depth, &d) != HTA_OK)
        fail_msg("random_levels: %s", d.msg);
    assert_int_equal(hta_levels(inst), depth + 2);
    return inst;
}

static inline hta_instance *random_levels(hta_rng *r, int max_m, int max_n,
                                          int depth)
{
    int model = (int)hta_rng_below(r, COST_MODELS);
    return random_levels_model(r, max_m, max_n, depth, model);
}

/* A tiny skewed N-level instance where the level flow bound leaves gaps:
 * 4 servers (racks {0, 1}, {2, 3}; depth 2: pods {0, 1} and {2, 3}, each
 * server its own rack), 6 to 9 tasks whose first replica is server 0
 * half of the time, a second replica on a third of them; w_loc 1,
 * w_rack 1.5, (w_pod 2,) the top cost as draw gives it (drawn after the
 * tasks, into w with up to 8 values of v). */
static inline hta_instance *skewed_levels_with(hta_rng *r, int depth,
                                               void (*draw)(hta_rng *,
                                                            hta_wrem *,
                                                            double *))
{
    int32_t m = 6 + (int32_t)hta_rng_below(r, 4), n = 4;
    int64_t off[10];
    int32_t srv[20];
    off[0] = 0;
    for (int32_t t = 0; t < m; t++) {
        int32_t a = hta_rng_below(r, 2) ? 0 : (int32_t)hta_rng_below(r, 4);
        int64_t k = off[t];
        srv[k++] = a;
        if (hta_rng_below(r, 3) == 0) {
            int32_t b = (int32_t)hta_rng_below(r, 4);
            if (b != a)
                srv[k++] = b;
        }
        off[t + 1] = k;
    }
    double v[8];
    hta_wrem w;
    draw(r, &w, v);
    hta_instance *inst = NULL;
    hta_diag d;
    assert_int_equal(hta_instance_build(m, n, 1.0, &w, off, srv, &inst, &d),
                     HTA_OK);
    static const char *const paths[2][4] = {{"/r0", "/r0", "/r1", "/r1"},
                                            {"/p0/r0", "/p0/r1", "/p1/r2",
                                             "/p1/r3"}};
    for (int32_t x = 0; x < n; x++)
        assert_int_equal(hta_instance_set_name(inst, 'r', x,
                                               paths[depth - 1][x], NULL),
                         HTA_OK);
    double v1[2][1] = {{1.5}, {2.0}};
    hta_wrem lv[2] = {{HTA_WREM_TABLE, 0, v1[0], 0, 0},
                      {HTA_WREM_TABLE, 0, v1[1], 0, 0}};
    assert_int_equal(hta_instance_set_levels(inst, lv, depth, &d), HTA_OK);
    return inst;
}

#endif
