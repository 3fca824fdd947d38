/* Flow-time schedulers against independent oracles: a brute-force search
 * over all schedules of tiny traces (both scenarios and the relaxation),
 * the schedule checker on every policy's schedule, the exact program
 * against the search, the adversarial family of the paper, and the
 * efficiency-ratio bounds on long random runs. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

#include "hta/flowtime.h"
#include "hta/jobs.h"
#include "hta/rng.h"

/* ---- brute force: every schedule, by memoised search over states ----
 * The state at the start of a slot is the work left: map units per job and
 * reduce units (the pool, preemptive and relaxed) or per task
 * (non-preemptive: a task with 0 < left < length is running and must go
 * on).  A map with 0 units left at the start of a slot ended before it, so
 * reduce work is ready.  The cost of a slot is the number of jobs present
 * at its start; the total over the slots is the total flow time. */

#define BF_MAXJ 3
#define BF_MAXI 8 /* items: per job map + up to 2 tasks, or a pool */

typedef struct bf {
    const hta_jobs *J;
    int N, pre, relaxed;
    int nitem;
    int job[BF_MAXJ * 3];  /* item -> job */
    int kind[BF_MAXJ * 3]; /* 0 map, 1 reduce pool, 2 task, 3 relaxed */
    int64_t len[BF_MAXJ * 3];
    int64_t radix[BF_MAXJ * 3];
    int64_t nstates, horizon;
    int64_t *memo; /* (slot, state) -> best cost from there, -1 unknown */
} bf;

static int64_t bf_solve(bf *b, int64_t t, int64_t *left);

static int64_t bf_encode(const bf *b, const int64_t *left)
{
    int64_t code = 0;
    for (int k = b->nitem - 1; k >= 0; k--)
        code = code * b->radix[k] + left[k];
    return code;
}

static int bf_job_done(const bf *b, const int64_t *left, int j)
{
    for (int k = 0; k < b->nitem; k++)
        if (b->job[k] == j && left[k] > 0)
            return 0;
    return 1;
}

/* The best cost from slot t when the machines from `machines` on are
 * dealt among items from `from` on (a multiset: no order counted twice),
 * or the rest idle. */
static int64_t bf_deal(bf *b, int64_t t, const int64_t *left, int64_t *take,
                       int machines, int from, int64_t cost)
{
    int64_t next[BF_MAXJ * 3];
    for (int k = 0; k < b->nitem; k++)
        next[k] = left[k] - take[k];
    int64_t best = cost + bf_solve(b, t + 1, next);
    if (machines == 0)
        return best;
    for (int k = from; k < b->nitem; k++) {
        int j = b->job[k];
        if (b->J->arrival[j] > t || take[k] >= left[k])
            continue;
        if (b->kind[k] == 1 || b->kind[k] == 2) {
            int ready = 1; /* the map ended before this slot */
            for (int q = 0; q < b->nitem; q++)
                if (b->job[q] == j && b->kind[q] == 0 && left[q] > 0)
                    ready = 0;
            if (!ready)
                continue;
        }
        if (b->kind[k] == 2 && take[k] > 0)
            continue; /* one machine per task (running ones have it) */
        take[k]++;
        int64_t v = bf_deal(b, t, left, take, machines - 1, k, cost);
        take[k]--;
        if (v < best)
            best = v;
    }
    return best;
}

static int64_t bf_solve(bf *b, int64_t t, int64_t *left)
{
    int all = 1;
    for (int k = 0; k < b->nitem; k++)
        if (left[k])
            all = 0;
    if (all)
        return 0;
    if (t > b->horizon)
        return INT64_MAX / 4;
    int64_t code = bf_encode(b, left), *m = &b->memo[t * b->nstates + code];
    if (*m >= 0)
        return *m;
    int64_t cost = 0;
    for (int j = 0; j < b->J->n; j++)
        if (b->J->arrival[j] <= t && !bf_job_done(b, left, j))
            cost++;
    /* non-preemptive: running tasks take their machines first */
    int64_t take[BF_MAXJ * 3] = {0};
    int machines = b->N;
    for (int k = 0; k < b->nitem; k++)
        if (b->kind[k] == 2 && left[k] > 0 && left[k] < b->len[k]) {
            take[k] = 1;
            machines--;
        }
    *m = bf_deal(b, t, left, take, machines, 0, cost);
    return *m;
}

static int64_t brute(const hta_jobs *J, int N, int pre, int relaxed)
{
    bf b = {0};
    b.J = J;
    b.N = N;
    b.pre = pre;
    b.relaxed = relaxed;
    int64_t left[BF_MAXJ * 3];
    assert_true(J->n <= BF_MAXJ);
    for (int j = 0; j < J->n; j++) {
        int64_t R = hta_jobs_reduce_work(J, j);
        if (relaxed) {
            b.job[b.nitem] = j, b.kind[b.nitem] = 3;
            b.len[b.nitem] = J->map[j] + R;
            b.nitem++;
            continue;
        }
        b.job[b.nitem] = j, b.kind[b.nitem] = 0, b.len[b.nitem] = J->map[j];
        b.nitem++;
        if (R == 0)
            continue;
        if (pre) {
            b.job[b.nitem] = j, b.kind[b.nitem] = 1, b.len[b.nitem] = R;
            b.nitem++;
            continue;
        }
        for (int64_t k = J->roff[j]; k < J->roff[j + 1]; k++) {
            b.job[b.nitem] = j, b.kind[b.nitem] = 2;
            b.len[b.nitem] = J->red[k];
            b.nitem++;
        }
    }
    b.nstates = 1;
    for (int k = 0; k < b.nitem; k++) {
        b.radix[k] = b.len[k] + 1;
        b.nstates *= b.radix[k];
        left[k] = b.len[k];
    }
    b.horizon = J->arrival[J->n - 1] + J->work + 1;
    b.memo = malloc((size_t)((b.horizon + 2) * b.nstates) * sizeof *b.memo);
    assert_non_null(b.memo);
    for (int64_t q = 0; q < (b.horizon + 2) * b.nstates; q++)
        b.memo[q] = -1;
    int64_t v = bf_solve(&b, 1, left);
    free(b.memo);
    return v;
}

/* ---- traces ---- */

static hta_jobs *trace(const char *text)
{
    hta_jobs *J = NULL;
    hta_diag d;
    hta_diag_clear(&d);
    char path[] = "/tmp/hta-ft-XXXXXX";
    temp_text(path, text);
    hta_status st = hta_jobs_parse(path, &J, &d);
    remove(path);
    if (st != HTA_OK)
        fail_msg("%s", d.msg);
    return J;
}

static hta_jobs *random_tiny(hta_rng *r, int maxjobs, int maxwork,
                             int maxtasks)
{
    hta_jobs *J = hta_jobs_new();
    hta_diag d;
    int n = 1 + (int)hta_rng_below(r, (uint64_t)maxjobs);
    int64_t a = 1;
    for (int i = 0; i < n; i++) {
        a += (int64_t)hta_rng_below(r, 3);
        int64_t m = 1 + (int64_t)hta_rng_below(r, (uint64_t)maxwork);
        int64_t k = (int64_t)hta_rng_below(r, (uint64_t)maxtasks + 1);
        int64_t red[4];
        for (int64_t q = 0; q < k; q++)
            red[q] = 1 + (int64_t)hta_rng_below(r, 2);
        assert_int_equal(hta_jobs_add(J, a, m, red, k, &d), HTA_OK);
    }
    return J;
}

/* Runs policy p with the schedule recorded, checks the schedule and that
 * it agrees with the reported flow times; returns the total. */
static int64_t run_checked(const hta_jobs *J, hta_ft_policy p, int N,
                           int pre)
{
    hta_ft_sched rec = {0};
    hta_ft_opts o = {N, pre, &rec, NULL, NULL, NULL, 0};
    hta_ft_result r;
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = hta_ft_run(J, p, &o, &r, &d);
    if (st != HTA_OK)
        fail_msg("%s: %s", hta_ft_policy_names[p], d.msg);
    int64_t *fin = malloc((size_t)J->n * sizeof *fin), total = -1;
    st = hta_ft_check(J, N, pre, p == HTA_FT_SRPT, &rec, fin, &total, &d);
    if (st != HTA_OK)
        fail_msg("%s %s: %s", hta_ft_policy_names[p],
                 pre ? "preemptive" : "non-preemptive", d.msg);
    for (int64_t i = 0; i < J->n; i++)
        assert_int_equal(fin[i], r.finish[i]);
    assert_int_equal(total, r.total);
    free(fin);
    hta_ft_sched_free(&rec);
    hta_ft_result_free(&r);
    return total;
}

static int64_t exact(const hta_jobs *J, int N, int pre, int64_t upper)
{
    hta_ft_exact_opts o = {N, pre, upper, 1000000, 0, 0, NULL};
    hta_ft_exact x;
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = hta_ft_exact_solve(J, &o, &x, &d);
    if (st != HTA_OK) {
        hta_jobs_write(J, stderr, NULL);
        fail_msg("exact (N %d, %s): %s", N, pre ? "pre" : "non-pre", d.msg);
    }
    assert_true(x.optimal);
    assert_int_equal(x.bound, x.value);

    hta_ft_sched_free(&x.sched);
    return x.value;
}

/* SRPT <= optimum <= every policy; exact = brute force; SRPT = the
 * brute-force optimum of the relaxation. */
static void test_tiny_against_brute(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 20131);
    for (int it = 0; it < 300; it++) {
        hta_jobs *J = random_tiny(&r, 3, 3, 2);
        int N = 1 + (int)hta_rng_below(&r, 2);
        for (int pre = 0; pre <= 1; pre++) {
            int64_t opt = brute(J, N, pre, 0);
            int64_t srpt = run_checked(J, HTA_FT_SRPT, N, pre);
            assert_int_equal(srpt, brute(J, N, pre, 1));
            assert_true(srpt <= opt);
            int64_t best = INT64_MAX;
            for (int p = HTA_FT_DSRPT; p < HTA_FT_NPOLICIES; p++) {
                if (p == HTA_FT_DSRPT && !pre)
                    continue;
                int64_t v = run_checked(J, (hta_ft_policy)p, N, pre);
                assert_true(v >= opt);
                if (v < best)
                    best = v;
            }
            int64_t lbsum = 0;
            for (int64_t i = 0; i < J->n; i++)
                lbsum += hta_ft_job_lb(J, i, N, pre);
            assert_true(lbsum <= opt);
            assert_int_equal(exact(J, N, pre, best), opt);
        }
        hta_jobs_free(J);
    }
}

/* The exact program on larger random traces: never above a policy, never
 * below SRPT, and its schedule passes the checker (inside the solver). */
static void test_exact_mid(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 7);
    for (int it = 0; it < 30; it++) {
        hta_jobs *J = random_tiny(&r, 5, 3, 3);
        int N = 1 + (int)hta_rng_below(&r, 3);
        for (int pre = 0; pre <= 1; pre++) {
            int64_t srpt = run_checked(J, HTA_FT_SRPT, N, pre);
            int64_t best = INT64_MAX;
            for (int p = HTA_FT_DSRPT; p < HTA_FT_NPOLICIES; p++) {
                if (p == HTA_FT_DSRPT && !pre)
                    continue;
                int64_t v = run_checked(J, (hta_ft_policy)p, N, pre);
                if (v < best)
                    best = v;
            }
            int64_t x = exact(J, N, pre, best);
            assert_true(srpt <= x && x <= best);
        }
        hta_jobs_free(J);
    }
}

/* Leaping from event to event against stepping slot by slot, the
 * reference: the same completion slot for every job under every policy
 * and scenario, and the leaping run's record (entries spanning slots)
 * passes the checker.  Traces with long jobs, sparse arrivals and up to
 * 5 machines, so that leaps (fair's rotation among them) are many; the
 * test fails if none happens. */
static void test_leaps_match_steps(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 4545);
    int64_t slots = 0, steps = 0;
    for (int it = 0; it < 600; it++) {
        hta_jobs *J = hta_jobs_new();
        hta_diag d;
        hta_diag_clear(&d);
        int n = 1 + (int)hta_rng_below(&r, 8);
        int64_t a = 1;
        for (int i = 0; i < n; i++) {
            a += (int64_t)hta_rng_below(&r, it % 2 ? 4 : 30);
            int64_t m = 1 + (int64_t)hta_rng_below(&r, 80);
            int64_t k = (int64_t)hta_rng_below(&r, 4), red[3];
            for (int64_t q = 0; q < k; q++)
                red[q] = 1 + (int64_t)hta_rng_below(&r, 12);
            assert_int_equal(hta_jobs_add(J, a, m, red, k, &d), HTA_OK);
        }
        int N = 1 + (int)hta_rng_below(&r, 5);
        for (int pre = 0; pre <= 1; pre++)
            for (int p = 0; p < HTA_FT_NPOLICIES; p++) {
                if (p == HTA_FT_DSRPT && !pre)
                    continue;
                hta_ft_opts step = {N, pre, NULL, NULL, NULL, NULL, 1};
                hta_ft_result a1, a2;
                assert_int_equal(hta_ft_run(J, (hta_ft_policy)p, &step,
                                            &a1, &d), HTA_OK);
                hta_ft_sched rec = {0};
                hta_ft_opts leap = {N, pre, &rec, NULL, NULL, NULL, 0};
                assert_int_equal(hta_ft_run(J, (hta_ft_policy)p, &leap,
                                            &a2, &d), HTA_OK);
                assert_int_equal(a1.steps, a1.slots);
                assert_int_equal(a1.slots, a2.slots);
                assert_int_equal(a1.total, a2.total);
                for (int64_t i = 0; i < J->n; i++)
                    if (a1.finish[i] != a2.finish[i])
                        fail_msg("%s %s N %d: job %lld ends at %lld "
                                 "stepping, %lld leaping",
                                 hta_ft_policy_names[p],
                                 pre ? "pre" : "non-pre", N,
                                 (long long)i + 1, (long long)a1.finish[i],
                                 (long long)a2.finish[i]);
                int64_t *fin = malloc((size_t)J->n * sizeof *fin), tot;
                if (hta_ft_check(J, N, pre, p == HTA_FT_SRPT, &rec, fin,
                                 &tot, &d) != HTA_OK)
                    fail_msg("%s %s N %d: %s", hta_ft_policy_names[p],
                             pre ? "pre" : "non-pre", N, d.msg);
                assert_int_equal(tot, a2.total);
                free(fin);
                slots += a2.slots;
                steps += a2.steps;
                hta_ft_sched_free(&rec);
                hta_ft_result_free(&a1);
                hta_ft_result_free(&a2);
            }
        hta_jobs_free(J);
    }
    assert_true(steps * 2 < slots);
}

/* ---- the adversarial family (no constant competitive ratio) ----
 * One machine, non-preemptive.  Job 0: arrives at slot 1, map 1, one
 * reduce task of 2Q + 1.  A schedule S(H, L) runs its map in slot H + 1
 * and starts the reduce task L slots later, in slot H + L + 2.
 * Pattern A: job 0 alone.  S pays H + L + 2Q + 2; the optimum 2Q + 2.
 * Pattern B: Q more jobs (map 1, one reduce task of 1) arrive at slots
 * H + L + 2j, j = 1..Q, exactly when the long task holds the machine.  S
 * then serves them job by job after it: each has flow 2Q + 3, in all
 * H + L + 2Q + 2 + Q(2Q + 3).  Serving each small job on arrival and the
 * long task after them pays 2 each and H + L + 4Q + 2 for job 0: in all
 * H + L + 6Q + 2.  Whatever S an online scheduler picks before it sees
 * the future, one pattern makes its ratio grow without bound in Q. */
static hta_jobs *family(int64_t Q, int64_t H, int64_t L, int with_b)
{
    char text[4096];
    int len = snprintf(text, sizeof text, "hta-jobs 1\njob 1 1 %lld\n",
                       (long long)(2 * Q + 1));
    for (int64_t j = 1; with_b && j <= Q; j++)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "job %lld 1 1\n", (long long)(H + L + 2 * j));
    return trace(text);
}

static void push(hta_ft_sched *s, int64_t t, int64_t job, int kind,
                 int task)
{
    s->e = realloc(s->e, (s->n + 1) * sizeof *s->e);
    assert_non_null(s->e);
    s->e[s->n++] = (hta_ft_entry){t, job, kind, task, 1, 1};
}

static int64_t checked_total(const hta_jobs *J, hta_ft_sched *s)
{
    int64_t *fin = malloc((size_t)J->n * sizeof *fin), total = -1;
    hta_diag d;
    hta_diag_clear(&d);
    if (hta_ft_check(J, 1, 0, 0, s, fin, &total, &d) != HTA_OK)
        fail_msg("%s", d.msg);
    free(fin);
    hta_ft_sched_free(s);
    return total;
}

static void test_adversarial_family(void **state)
{
    (void)state;
    for (int64_t Q = 1; Q <= 3; Q++)
        for (int64_t H = 0; H <= 2; H++)
            for (int64_t L = 0; L <= 2; L++) {
                int64_t big = 2 * Q + 1, base = H + L;
                hta_jobs *A = family(Q, H, L, 0), *B = family(Q, H, L, 1);
                /* S(H, L) on pattern A */
                hta_ft_sched s = {0};
                push(&s, H + 1, 0, 0, -1);
                for (int64_t t = 0; t < big; t++)
                    push(&s, base + 2 + t, 0, 1, 0);
                assert_int_equal(checked_total(A, &s), base + 2 * Q + 2);
                /* S(H, L) on pattern B: the small jobs after the task */
                push(&s, H + 1, 0, 0, -1);
                for (int64_t t = 0; t < big; t++)
                    push(&s, base + 2 + t, 0, 1, 0);
                for (int64_t j = 1; j <= Q; j++) {
                    push(&s, base + 2 * Q + 2 + 2 * j - 1, j, 0, -1);
                    push(&s, base + 2 * Q + 2 + 2 * j, j, 1, 0);
                }
                assert_int_equal(checked_total(B, &s),
                                 base + 2 * Q + 2 + Q * (2 * Q + 3));
                /* the other pattern: small jobs first */
                push(&s, 1, 0, 0, -1);
                for (int64_t j = 1; j <= Q; j++) {
                    push(&s, base + 2 * j, j, 0, -1);
                    push(&s, base + 2 * j + 1, j, 1, 0);
                }
                for (int64_t t = 0; t < big; t++)
                    push(&s, base + 2 * Q + 2 + t, 0, 1, 0);
                int64_t alt = checked_total(B, &s);
                assert_int_equal(alt, base + 6 * Q + 2);
                /* the optima */
                assert_int_equal(exact(A, 1, 0, base + 2 * Q + 2),
                                 2 * Q + 2);
                int64_t ob = exact(B, 1, 0, alt);
                assert_true(ob <= alt);
                if (Q <= 2)
                    assert_int_equal(ob, brute(B, 1, 0, 0));
                /* FIFO is S(0, 0): it starts the long task at once */
                if (H == 0 && L == 0)
                    assert_int_equal(run_checked(B, HTA_FT_FIFO, 1, 0),
                                     2 * Q + 2 + Q * (2 * Q + 3));
                hta_jobs_free(A);
                hta_jobs_free(B);
            }
}

/* The efficiency ratio (Zheng et al., Theorems 4-5): under i.i.d.
 * arrivals and workloads at load < 1, preemptive, ASRPT's total flow time
 * is below 2 x the lower bound max(SRPT's, sum of each job's least flow
 * time) and below 3 x SRPT's.  Long seeded runs at three loads. */
static void test_efficiency_ratio(void **state)
{
    (void)state;
    const double loads[] = {0.5, 0.7, 0.9};
    for (int q = 0; q < 3; q++) {
        hta_jobs_gen g = {20000, 20, loads[q],
                          {.kind = HTA_DIST_EXP, .a = 5},
                          {.kind = HTA_DIST_EXP, .a = 8}, 3, 0.2,
                          11 + (uint64_t)q, NULL};
        hta_jobs *J = NULL;
        hta_diag d;
        assert_int_equal(hta_jobs_generate(&g, &J, &d), HTA_OK);
        hta_ft_opts o = {20, 1, NULL, NULL, NULL, NULL, 0};
        hta_ft_result rs, ra, rd;
        assert_int_equal(hta_ft_run(J, HTA_FT_SRPT, &o, &rs, &d), HTA_OK);
        assert_int_equal(hta_ft_run(J, HTA_FT_ASRPT, &o, &ra, &d), HTA_OK);
        assert_int_equal(hta_ft_run(J, HTA_FT_DSRPT, &o, &rd, &d), HTA_OK);
        int64_t lbsum = 0;
        for (int64_t i = 0; i < J->n; i++)
            lbsum += hta_ft_job_lb(J, i, 20, 1);
        double lb = (double)(rs.total > lbsum ? rs.total : lbsum);
        print_message("load %.1f: asrpt/lb %.3f asrpt/srpt %.3f "
                      "dsrpt/srpt %.3f\n",
                      loads[q], (double)ra.total / lb,
                      (double)ra.total / (double)rs.total,
                      (double)rd.total / (double)rs.total);
        assert_true((double)ra.total < 2 * lb);
        assert_true(ra.total < 3 * rs.total);
        assert_true(rd.total < 3 * rs.total);
        assert_true(rs.total <= ra.total);
        hta_ft_result_free(&rs);
        hta_ft_result_free(&ra);
        hta_ft_result_free(&rd);
        hta_jobs_free(J);
    }
}

/* Workload distributions against their definitions: 10^6 seeded draws
 * of an empirical table fall in its rows with the weights' frequencies
 * (Pearson's chi-square below its 0.9999 quantile, 4 degrees of freedom:
 * 23.5) and average to hta_dist_mean = sum w v / sum w; the parametric
 * kinds average to their exact means within 5 standard errors; a table
 * without rows, with a bad value or weight is an input error at its
 * line. */
static void test_dist_table(void **state)
{
    (void)state;
    char path[] = "/tmp/hta-dist-XXXXXX";
    temp_text(path, "# size weight\n1 50\n3\n10 30\n100 14.5\n1000 4.5\n");
    hta_dist t;
    char msg[200];
    char spec[64];
    snprintf(spec, sizeof spec, "table:%s", path);
    assert_int_equal(hta_dist_parse(spec, &t, msg, sizeof msg), 0);
    hta_diag d;
    assert_int_equal(hta_dist_load(&t, &d), HTA_OK);
    const double w[5] = {50, 1, 30, 14.5, 4.5}, v[5] = {1, 3, 10, 100, 1000};
    double total = 100, mean = 0;
    for (int i = 0; i < 5; i++)
        mean += w[i] * v[i] / total;
    assert_true(fabs(hta_dist_mean(&t) - mean) < 1e-9);
    hta_rng r;
    hta_rng_seed(&r, 99);
    int64_t count[5] = {0};
    const int n = 1000000;
    for (int k = 0; k < n; k++) {
        int64_t x = hta_dist_draw(&t, &r);
        int i = 0;
        while (i < 5 && v[i] != (double)x)
            i++;
        assert_true(i < 5);
        count[i]++;
    }
    double chi2 = 0;
    for (int i = 0; i < 5; i++) {
        double e = n * w[i] / total;
        chi2 += (count[i] - e) * (count[i] - e) / e;
    }
    print_message("table: chi-square %.2f (4 df)\n", chi2);
    assert_true(chi2 < 23.5);
    hta_dist_free(&t);
    static const char *const bad[] = {"", "x 2\n", "5 0\n", "5 1 2\n"};
    static const int line[] = {1, 1, 1, 1};
    for (int b = 0; b < 4; b++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(bad[b], f);
        fclose(f);
        assert_int_equal(hta_dist_parse(spec, &t, msg, sizeof msg), 0);
        assert_int_equal(hta_dist_load(&t, &d), HTA_ERR_INPUT);
        assert_int_equal(d.line, line[b]);
        assert_null(t.val);
    }
    remove(path);
    /* the parametric kinds: sample means against the exact ones */
    static const char *const kinds[] = {"fixed:7", "uniform:2:9", "exp:10",
                                        "exp:0.5", "pareto:3:2"};
    for (int k = 0; k < 5; k++) {
        hta_dist p;
        assert_int_equal(hta_dist_parse(kinds[k], &p, msg, sizeof msg), 0);
        assert_int_equal(hta_dist_load(&p, &d), HTA_OK);
        double s = 0, ss = 0;
        for (int i = 0; i < n; i++) {
            double x = (double)hta_dist_draw(&p, &r);
            s += x;
            ss += x * x;
        }
        double m = s / n, se = sqrt((ss / n - m * m) / n);
        print_message("%s: mean %.4f +- %.4f, exact %.4f\n", kinds[k], m,
                      se, hta_dist_mean(&p));
        assert_true(fabs(m - hta_dist_mean(&p)) <= 5 * se + 1e-12);
        hta_dist_free(&p);
    }
}

/* A stop before the program is solved: the answer is the upper bound
 * given, cut, and the bound is still valid: the sum of the jobs' own
 * least flow times, never GLPK's "no bound yet".  (A stop while GLPK
 * runs, in its child process, is tests/signals/run.sh's.) */
static void test_exact_cut_bound(void **state)
{
    (void)state;
    hta_jobs *J = trace("hta-jobs 1\njob 1 6 2 2\njob 1 4 3\njob 2 5 1 1\n"
                        "job 3 2 4\njob 4 3 2\n");
    for (int pre = 0; pre < 2; pre++) {
        int64_t upper = run_checked(J, HTA_FT_FIFO, 2, pre);
        int64_t lbs = 0;
        for (int64_t i = 0; i < J->n; i++)
            lbs += hta_ft_job_lb(J, i, 2, pre);
        volatile sig_atomic_t stop = 1;
        hta_ft_exact_opts o = {2, pre, upper, 1000000, 0, 0, &stop};
        hta_ft_exact x;
        hta_diag d;
        hta_diag_clear(&d);
        assert_int_equal(hta_ft_exact_solve(J, &o, &x, &d), HTA_OK);
        assert_true(x.cut);
        assert_false(x.optimal);
        assert_false(x.found);
        assert_int_equal(x.value, upper);
        assert_int_equal(x.bound, lbs);
        hta_ft_sched_free(&x.sched);
        /* and without the stop, the optimum within the two */
        stop = 0;
        int64_t opt = exact(J, 2, pre, upper);
        assert_true(lbs <= opt && opt <= upper);
    }
    hta_jobs_free(J);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_against_brute),
        cmocka_unit_test(test_exact_mid),
        cmocka_unit_test(test_leaps_match_steps),
        cmocka_unit_test(test_adversarial_family),
        cmocka_unit_test(test_efficiency_ratio),
        cmocka_unit_test(test_dist_table),
        cmocka_unit_test(test_exact_cut_bound),
    };
    const char *filter = getenv("HTA_TEST_FILTER");
    if (filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests_name("flowtime", tests, NULL, NULL);
}
