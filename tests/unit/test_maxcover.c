/* Max-cover: the incremental engine against igraph_maxflow and against an
 * exhaustive enumeration; bal-assign: fast slots against the literal
 * greedy. */
#include "helpers.h"

#include <math.h>

#include "hta/maxcover.h"
#include "core/buf.h"
#include "offline/balassign.h"

/* The largest cover with a cap per server by trying every choice (a
 * local server or none) per task.  Tiny instances only. */
static int64_t exhaustive_caps(const hta_instance *inst, const int64_t *cap,
                               int32_t t, int32_t *load)
{
    if (t == inst->m)
        return 0;
    int64_t best = exhaustive_caps(inst, cap, t + 1, load);
    for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
        int32_t s = inst->task_srv[i];
        if (load[s] >= cap[s])
            continue;
        load[s]++;
        int64_t x = 1 + exhaustive_caps(inst, cap, t + 1, load);
        load[s]--;
        if (x > best)
            best = x;
    }
    return best;
}

/* The same with threshold tau on every server. */
static int64_t exhaustive_cover(const hta_instance *inst, int64_t tau,
                                int32_t *load)
{
    int64_t *cap = malloc(((size_t)inst->n + 1) * sizeof *cap);
    assert_non_null(cap);
    for (int32_t s = 0; s < inst->n; s++)
        cap[s] = tau;
    int64_t best = exhaustive_caps(inst, cap, 0, load);
    free(cap);
    return best;
}

/* The cover is consistent: local edges only, caps respected, sizes, loads
 * and free counts agree. */
static void check_cover(const hta_instance *inst, const hta_maxcover *mc,
                        int64_t tau)
{
    const int32_t *cover = hta_maxcover_cover(mc);
    const int32_t *loads = hta_maxcover_loads(mc);
    int32_t *cnt = calloc((size_t)inst->n, sizeof *cnt);
    int64_t size = 0;
    for (int32_t t = 0; t < inst->m; t++)
        if (cover[t] >= 0) {
            assert_true(hta_instance_is_local(inst, t, cover[t]));
            cnt[cover[t]]++;
            size++;
        }
    const int32_t *nfree = hta_maxcover_free_counts(mc);
    for (int32_t s = 0; s < inst->n; s++) {
        assert_int_equal(cnt[s], loads[s]);
        assert_true(cnt[s] <= tau);
        int32_t f = 0; /* the uncovered tasks local to s */
        for (int64_t i = inst->srv_off[s]; i < inst->srv_off[s + 1]; i++)
            f += cover[inst->srv_task[i]] == -1;
        assert_int_equal(f, nfree[s]);
    }
    assert_int_equal(size, hta_maxcover_size(mc));
    free(cnt);
}

/* Both engines through a whole sweep: same f(tau) for every tau. */
static void compare_engines(const hta_instance *inst, int64_t max_tau)
{
    hta_maxcover *inc = NULL, *ig = NULL;
    hta_diag d;
    assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &inc, &d),
                     HTA_OK);
    assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_IGRAPH, &ig, &d),
                     HTA_OK);
    int64_t prev = 0;
    for (int64_t tau = 1; tau <= max_tau; tau++) {
        assert_int_equal(hta_maxcover_raise(inc, tau, &d), HTA_OK);
        assert_int_equal(hta_maxcover_raise(ig, tau, &d), HTA_OK);
        if (hta_maxcover_size(inc) != hta_maxcover_size(ig))
            fail_msg("tau %lld: incremental %lld, igraph %lld",
                     (long long)tau, (long long)hta_maxcover_size(inc),
                     (long long)hta_maxcover_size(ig));
        assert_true(hta_maxcover_size(inc) >= prev);
        prev = hta_maxcover_size(inc);
        check_cover(inst, inc, tau);
        check_cover(inst, ig, tau);
        if (prev == inst->m)
            break;
    }
    hta_maxcover_free(inc);
    hta_maxcover_free(ig);
}

static void test_exhaustive_tiny(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 21);
    for (int i = 0; i < 300; i++) {
        hta_instance *inst = random_instance(&r, 8, 4, 3, COST_CONSTANT);
        hta_maxcover *mc = NULL;
        hta_diag d;
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, &d), HTA_OK);
        int32_t load[4] = {0};
        for (int64_t tau = 1; tau <= inst->m; tau++) {
            assert_int_equal(hta_maxcover_raise(mc, tau, &d), HTA_OK);
            assert_int_equal(hta_maxcover_size(mc),
                             exhaustive_cover(inst, tau, load));
            check_cover(inst, mc, tau);
        }
        hta_maxcover_free(mc);
        compare_engines(inst, inst->m);
        hta_instance_free(inst);
    }
}

static void test_engines_random_medium(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 22);
    for (int i = 0; i < 60; i++) {
        hta_instance *inst = random_instance(&r, 120, 30, 4, COST_CONSTANT);
        compare_engines(inst, inst->m);
        hta_instance_free(inst);
    }
}

static void test_engines_hdfs_families(void **state)
{
    (void)state;
    static const struct {
        int32_t m, n, k;
        double zipf;
    } fam[] = {
        {3000, 100, 3, 0.0}, {3000, 100, 1, 0.0}, {2000, 300, 3, 1.0},
        {2000, 2000, 3, 1.5}, {1500, 50, 2, 2.0}, {800, 800, 3, 0.0},
        {8000, 100, 3, 1.0}, /* many phases a tau: the foreign lists */
    };
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        hta_instance *inst = hdfs_instance(fam[i].m, fam[i].n, fam[i].k,
                                           fam[i].zipf, 3.0, 100 + i);
        compare_engines(inst, inst->m);
        hta_instance_free(inst);
    }
}

/* Retiring servers, forward phases and guessed phases are exact: with
 * them and without any a sweep makes the same cover, task by task, at
 * every tau; and they do shrink the searches (retiring on skewed
 * placements: fewer servers visited; forward phases run on the m = n
 * ones; guessed phases run, and guesses that miss when every phase
 * guesses), so the check is not vacuous. */
static void test_retire_same_covers(void **state)
{
    (void)state;
    int64_t guessed = 0, missed = 0;
    static const struct {
        int32_t m, n, k;
        double zipf;
        int fewer;   /* must visit fewer than half the servers */
        int forward; /* forward phases must run */
    } fam[] = {
        {20000, 300, 3, 1.0, 1, 0}, {8000, 100, 3, 1.0, 1, 0},
        {5000, 5000, 3, 1.0, 1, 0}, {4000, 400, 3, 1.5, 1, 0},
        {3000, 100, 2, 2.0, 0, 0},  {3000, 100, 3, 0.0, 0, 0},
        {20000, 20000, 3, 0.0, 0, 0}, {6000, 6000, 2, 0.0, 0, 1},
        {6000, 3000, 3, 0.5, 0, 1},
    };
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        hta_instance *inst = hdfs_instance(fam[i].m, fam[i].n, fam[i].k,
                                           fam[i].zipf, 3.0, 300 + i);
        hta_maxcover *on = NULL, *off = NULL, *fw = NULL, *ga = NULL;
        hta_diag d;
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &on, &d), HTA_OK);
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &off, &d), HTA_OK);
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &fw, &d), HTA_OK);
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &ga, &d), HTA_OK);
        hta_maxcover_set_guess(ga, 2); /* guesses that miss too */
        hta_maxcover_set_retire(off, 0);
        hta_maxcover_set_forward(off, 0);
        hta_maxcover_set_guess(off, 0);
        hta_maxcover_set_forward(fw, 2); /* every phase forward */
        for (int64_t tau = 1; hta_maxcover_size(on) < inst->m; tau++) {
            assert_int_equal(hta_maxcover_raise(on, tau, &d), HTA_OK);
            assert_int_equal(hta_maxcover_raise(off, tau, &d), HTA_OK);
            assert_int_equal(hta_maxcover_raise(fw, tau, &d), HTA_OK);
            assert_int_equal(hta_maxcover_raise(ga, tau, &d), HTA_OK);
            assert_memory_equal(hta_maxcover_cover(on), hta_maxcover_cover(off),
                                (size_t)inst->m * sizeof(int32_t));
            assert_memory_equal(hta_maxcover_cover(fw), hta_maxcover_cover(off),
                                (size_t)inst->m * sizeof(int32_t));
            assert_memory_equal(hta_maxcover_cover(ga), hta_maxcover_cover(off),
                                (size_t)inst->m * sizeof(int32_t));
            assert_memory_equal(hta_maxcover_free_counts(on),
                                hta_maxcover_free_counts(off),
                                (size_t)inst->n * sizeof(int32_t));
        }
        const hta_maxcover_stats *c = hta_maxcover_stats_get(fw);
        assert_int_equal(c->forward, c->phases);
        const hta_maxcover_stats *a = hta_maxcover_stats_get(on);
        const hta_maxcover_stats *b = hta_maxcover_stats_get(off);
        assert_int_equal(a->augmented, b->augmented);
        assert_int_equal(a->phases, b->phases);
        assert_int_equal(b->forward, 0);
        assert_int_equal(b->guessed, 0);
        guessed += a->guessed;
        missed += hta_maxcover_stats_get(ga)->missed;
        assert_int_equal(hta_maxcover_stats_get(ga)->augmented, b->augmented);
        assert_int_equal(c->augmented, b->augmented);
        assert_true(a->visited <= b->visited);
        if (fam[i].fewer && !(2 * a->visited < b->visited))
            fail_msg("family %zu: %lld servers visited retiring, %lld not",
                     i, (long long)a->visited, (long long)b->visited);
        if (fam[i].forward && a->forward == 0)
            fail_msg("family %zu: no forward phase", i);
        hta_maxcover_free(on);
        hta_maxcover_free(off);
        hta_maxcover_free(fw);
        hta_maxcover_free(ga);
        hta_instance_free(inst);
    }
    print_message("guessed phases: %lld; guesses after every phase: %lld "
                  "missed\n",
                  (long long)guessed, (long long)missed);
    assert_true(guessed > 0 && missed > 0);
}

/* The change log against snapshots of the sweep: at every tau, the
 * cover and loads rebuilt by replaying the log's prefix from nothing, by
 * undoing its suffix from the sweep's last cover, and by replaying on
 * from an earlier tau's undone state are the ones the sweep had there.
 * Moves are logged (augmenting paths of length 2 and more), so the undo's
 * "the server of the entry before" is exercised. */
static void test_log_replay_undo(void **state)
{
    (void)state;
    static const struct {
        int32_t m, n, k;
        double zipf;
        int forward;
    } fam[] = {
        {3000, 60, 3, 1.0, 1}, {4000, 400, 3, 1.5, 1}, {2000, 2000, 3, 0.0, 1},
        {3000, 100, 2, 2.0, 1}, {3000, 300, 3, 1.0, 0}, {2500, 2500, 2, 0.0, 2},
    };
    int64_t moves = 0, outgrown = 0;
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        hta_instance *inst = hdfs_instance(fam[i].m, fam[i].n, fam[i].k,
                                           fam[i].zipf, 3.0, 700 + i);
        size_t m = (size_t)inst->m, n = (size_t)inst->n;
        hta_maxcover *mc = NULL;
        hta_diag d;
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, &d), HTA_OK);
        hta_maxcover_set_forward(mc, fam[i].forward);
        hta_maxcover_log_start(mc);
        int32_t *snap_c = NULL, *snap_l = NULL;
        int64_t *end = NULL, K = 0;
        for (int64_t tau = 1; hta_maxcover_size(mc) < inst->m; tau++) {
            assert_int_equal(hta_maxcover_raise(mc, tau, &d), HTA_OK);
            K = tau;
            snap_c = realloc(snap_c, (size_t)(K + 1) * m * sizeof *snap_c);
            snap_l = realloc(snap_l, (size_t)(K + 1) * n * sizeof *snap_l);
            end = realloc(end, (size_t)(K + 1) * sizeof *end);
            assert_true(snap_c && snap_l && end);
            memcpy(snap_c + K * m, hta_maxcover_cover(mc), m * sizeof *snap_c);
            memcpy(snap_l + K * n, hta_maxcover_loads(mc), n * sizeof *snap_l);
            end[K] = hta_maxcover_log_len(mc);
            assert_true(end[K] >= 0);
        }
        int32_t *lt = NULL, *ls = NULL;
        int64_t len = 0;
        assert_true(hta_maxcover_log_take(mc, &lt, &ls, &len));
        assert_int_equal(len, end[K]);
        outgrown += (size_t)len > m;
        for (int64_t j = 0; j < len; j++)
            moves += lt[j] < 0;
        int32_t *c = malloc(m * sizeof *c + 1), *l = malloc(n * sizeof *l + 1);
        int32_t *u = malloc(m * sizeof *u + 1), *ul = malloc(n * sizeof *ul + 1);
        assert_true(c && l && u && ul);
        for (int64_t tau = 1; tau <= K; tau++) {
            memset(c, 0xff, m * sizeof *c);
            memset(l, 0, n * sizeof *l);
            hta_maxcover_log_replay(lt, ls, 0, end[tau], c, l);
            assert_memory_equal(c, snap_c + tau * m, m * sizeof *c);
            assert_memory_equal(l, snap_l + tau * n, n * sizeof *l);
            memcpy(u, snap_c + K * m, m * sizeof *u);
            memcpy(ul, snap_l + K * n, n * sizeof *ul);
            hta_maxcover_log_undo(lt, ls, end[tau], len, u, ul);
            assert_memory_equal(u, snap_c + tau * m, m * sizeof *u);
            assert_memory_equal(ul, snap_l + tau * n, n * sizeof *ul);
            int64_t later = tau + (K - tau + 1) / 2;
            hta_maxcover_log_replay(lt, ls, end[tau], end[later], u, ul);
            assert_memory_equal(u, snap_c + later * m, m * sizeof *u);
            assert_memory_equal(ul, snap_l + later * n, n * sizeof *ul);
        }
        /* the undo of everything is the empty cover */
        memcpy(u, snap_c + K * m, m * sizeof *u);
        memcpy(ul, snap_l + K * n, n * sizeof *ul);
        hta_maxcover_log_undo(lt, ls, 0, len, u, ul);
        for (size_t t = 0; t < m; t++)
            assert_int_equal(u[t], -1);
        for (size_t s = 0; s < n; s++)
            assert_int_equal(ul[s], 0);
        free(c);
        free(l);
        free(u);
        free(ul);
        free(lt);
        free(ls);
        free(snap_c);
        free(snap_l);
        free(end);
        hta_maxcover_free(mc);
        hta_instance_free(inst);
    }
    print_message("moves logged: %lld; logs outgrown their room: "
                  "%lld\n", (long long)moves, (long long)outgrown);
    assert_true(moves > 0);
    assert_true(outgrown > 0);
}

/* The literal greedy and the water-filling give the same slots. */
/* An HDFS-like instance of m0 + [0, 3000) tasks, n0 + [0, nspan)
 * servers, 1..3 replicas and Zipf exponent 0, 0.5, .. below zipfs / 2,
 * drawn in this order. */
static hta_instance *some_hdfs(hta_rng *r, int32_t m0, int32_t n0,
                               uint64_t nspan, uint64_t zipfs, uint64_t seed)
{
    int32_t m = m0 + (int32_t)hta_rng_below(r, 3000);
    int32_t n = n0 + (int32_t)hta_rng_below(r, nspan);
    int32_t k = 1 + (int32_t)hta_rng_below(r, 3);
    double zipf = (double)hta_rng_below(r, zipfs) * 0.5;
    return hdfs_instance(m, n, k, zipf, 3.0, seed);
}

/* The greedy start (hta_maxcover_raise_greedy) at any tau: the same f
 * as the exhaustive search (tiny) and as the sweep (hdfs families, m = n
 * among them); a valid cover with exact free counts; later raises keep
 * agreeing with the sweep; retiring on and off (the seeds read off the
 * greedy's notes against covered_elsewhere) give the same cover. */
static void test_raise_greedy(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 23);
    hta_diag d;
    int left = 0; /* runs where the greedy left work to the phases */
    for (int i = 0; i < 400; i++) {
        hta_instance *inst =
            i < 300 ? random_instance(&r, 8, 4, 3, COST_CONSTANT) :
                      some_hdfs(&r, 200, 50, 3000, 5, (uint64_t)i);
        int64_t tau0 = 1 + (int64_t)hta_rng_below(&r, i < 300 ? 4 : 6);
        hta_maxcover *g = NULL, *g0 = NULL, *ref = NULL;
        assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &g,
                                          &d), HTA_OK);
        assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &g0,
                                          &d), HTA_OK);
        assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &ref,
                                          &d), HTA_OK);
        hta_maxcover_set_retire(g0, 0);
        assert_int_equal(hta_maxcover_raise_greedy(g, tau0, &d), HTA_OK);
        assert_int_equal(hta_maxcover_raise_greedy(g0, tau0, &d), HTA_OK);
        /* a second greedy start on a raised state is refused */
        assert_int_equal(hta_maxcover_raise_greedy(g0, tau0, &d),
                         HTA_ERR_INTERNAL);
        left += hta_maxcover_stats_get(g)->augmented > 0;
        for (int64_t tau = 1; tau <= tau0; tau++)
            assert_int_equal(hta_maxcover_raise(ref, tau, &d), HTA_OK);
        if (i < 300) {
            int32_t load[4] = {0};
            assert_int_equal(hta_maxcover_size(g),
                             exhaustive_cover(inst, tau0, load));
        }
        for (int64_t tau = tau0; tau <= tau0 + 2; tau++) {
            if (tau > tau0) {
                assert_int_equal(hta_maxcover_raise(g, tau, &d), HTA_OK);
                assert_int_equal(hta_maxcover_raise(g0, tau, &d), HTA_OK);
                assert_int_equal(hta_maxcover_raise(ref, tau, &d), HTA_OK);
            }
            assert_int_equal(hta_maxcover_size(g), hta_maxcover_size(ref));
            check_cover(inst, g, tau);
            assert_memory_equal(hta_maxcover_cover(g), hta_maxcover_cover(g0),
                                (size_t)inst->m * sizeof(int32_t));
        }
        hta_maxcover_free(g);
        hta_maxcover_free(g0);
        hta_maxcover_free(ref);
        hta_instance_free(inst);
    }
    print_message("greedy starts completed by phases: %d of 400\n", left);
    assert_true(left > 20);
}

static void test_balassign_fast_equals_literal(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 23);
    static const double costs[] = {3.0, 1.0, 0.1, 1.0 / 3.0, 7.25, 1e-3};
    int plus_seen = 0; /* cases with ties at the last value */
    for (int i = 0; i < 2000; i++) {
        /* one case in ten on up to 3000 servers with loads 0..3: many
         * equal pairs at the u-th pick's value, the tie rule's case */
        int big = i % 10 == 9;
        int32_t n = 1 + (int32_t)hta_rng_below(&r, big ? 3000 : 60);
        double w_loc = costs[hta_rng_below(&r, 6)];
        double c = w_loc * (1.0 + (double)hta_rng_below(&r, 4) *
                                      costs[hta_rng_below(&r, 6)]);
        double v[1] = {c};
        hta_wrem w = {HTA_WREM_TABLE, 0, v, 0, 0};
        int64_t *off = malloc(((size_t)n + 1) * sizeof *off);
        int32_t *srv = malloc((size_t)n * sizeof *srv);
        for (int32_t t = 0; t < n; t++)
            off[t] = t, srv[t] = t;
        off[n] = n;
        hta_instance *inst = NULL;
        hta_diag d;
        assert_int_equal(
            hta_instance_build(n, n, w_loc, &w, off, srv, &inst, &d), HTA_OK);
        int32_t *nloc = malloc((size_t)n * sizeof *nloc);
        /* and one in ten with loads far above 4n: the sorted path */
        int spread = 1 + (int)hta_rng_below(&r, big          ? 4 :
                                                i % 10 == 8 ? 100000 :
                                                              40);
        for (int32_t s = 0; s < n; s++)
            nloc[s] = (int32_t)hta_rng_below(&r, (uint64_t)spread);
        int64_t u = (int64_t)hta_rng_below(&r, big ? 4 * (uint64_t)n : 3000);
        int64_t *q1 = malloc((size_t)n * sizeof *q1);
        int64_t *q2 = malloc((size_t)n * sizeof *q2);
        assert_int_equal(hta_balassign_slots(inst, nloc, u, c, q1, &d),
                         HTA_OK);
        assert_int_equal(hta_balassign_slots_literal(inst, nloc, u, c, q2, &d),
                         HTA_OK);
        assert_memory_equal(q1, q2, (size_t)n * sizeof *q1);
        int64_t sum = 0;
        for (int32_t s = 0; s < n; s++)
            sum += q1[s];
        assert_int_equal(sum, u);
        /* by runs: the same slots, each run's loads increasing, its
         * servers counted, and every server q or q + 1 of its run */
        hta_slot_runs sr;
        assert_int_equal(hta_balassign_slot_runs(inst, nloc, u, c, &sr, &d),
                         HTA_OK);
        int64_t servers = 0, plus = 0;
        for (int32_t x = 0; x < sr.runs; x++) {
            assert_true(x == 0 || sr.load[x] > sr.load[x - 1]);
            assert_true(sr.plus[x] >= 0 && sr.plus[x] <= sr.count[x]);
            servers += sr.count[x];
            plus += sr.plus[x];
        }
        assert_int_equal(servers, n);
        memset(q2, 0xff, (size_t)n * sizeof *q2);
        hta_slot_runs_expand(inst, nloc, &sr, q2);
        assert_memory_equal(q1, q2, (size_t)n * sizeof *q1);
        plus_seen += plus > 0;
        hta_slot_runs_free(&sr);
        free(off);
        free(srv);
        free(nloc);
        free(q1);
        free(q2);
        hta_instance_free(inst);
    }
    print_message("slots by runs with ties given to a prefix: %d of 2000\n",
                  plus_seen);
    assert_true(plus_seen > 200);
}

/* The documented tie rule, by hand: least (virtual load, server id).
 * Loads 2, 0, 0 with w_loc 1 and c = 2: picks s1 (0), s2 (0), s0 (2),
 * s1 (2), s2 (2), s0 (4): q = {2, 2, 2}; five picks give {1, 2, 2}. */
/* Placement with the free counts (the matching skipped when no slot
 * server holds an uncovered task), or with an upper bound on them that is
 * 0 where they are, and with guessed phases, gives the very assignment
 * and local counts of the full matching without them, on random partial
 * covers and on maximum covers (where slots on servers below tau are all
 * remote). */
static void test_balassign_place_free_counts(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 35);
    int skipped = 0, matched = 0;
    for (int i = 0; i < 1500; i++) {
        hta_instance *inst = i % 2 ? random_instance(&r, 10, 5, 3, i % 3) :
                                     hdfs_instance(60, 60, 1 + i % 3,
                                                   (i % 4) * 0.5, 3.0,
                                                   (uint64_t)i);
        int32_t m = inst->m, n = inst->n;
        int32_t *a = malloc((size_t)m * sizeof *a);
        int32_t *b = malloc((size_t)m * sizeof *b);
        int32_t *a0 = malloc((size_t)m * sizeof *a0);
        int32_t *loads = calloc((size_t)n, sizeof *loads);
        int32_t *nfree = calloc((size_t)n, sizeof *nfree);
        int32_t *ua = malloc((size_t)n * sizeof *ua);
        int32_t *ub = malloc((size_t)n * sizeof *ub);
        int64_t *q = malloc((size_t)n * sizeof *q);
        hta_diag d;
        hta_maxcover *mc = NULL, *sa = NULL, *sb = NULL;
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, &d), HTA_OK);
        if (i % 3 == 0) { /* a random partial cover */
            for (int32_t t = 0; t < m; t++) {
                int64_t deg = inst->task_off[t + 1] - inst->task_off[t];
                a[t] = -1;
                if (deg && hta_rng_below(&r, 2))
                    a[t] = inst->task_srv[inst->task_off[t] +
                                          (int64_t)hta_rng_below(&r, deg)];
            }
        } else { /* a maximum cover */
            assert_int_equal(
                hta_maxcover_raise(mc, 1 + hta_rng_below(&r, 3), &d), HTA_OK);
            memcpy(a, hta_maxcover_cover(mc), (size_t)m * sizeof *a);
        }
        int64_t u = 0;
        for (int32_t t = 0; t < m; t++) {
            if (a[t] >= 0) {
                loads[a[t]]++;
                continue;
            }
            u++;
            for (int64_t k = inst->task_off[t]; k < inst->task_off[t + 1];
                 k++)
                nfree[inst->task_srv[k]]++;
        }
        double c = hta_wrem_at(&inst->wrem, u);
        assert_int_equal(hta_balassign_slots(inst, loads, u, c, q, &d),
                         HTA_OK);
        memcpy(b, a, (size_t)m * sizeof *a);
        memcpy(a0, a, (size_t)m * sizeof *a);
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &sa, &d), HTA_OK);
        hta_maxcover_set_guess(sa, 0); /* the reference matching */
        assert_int_equal(hta_balassign_place(inst, sa, q, NULL, a, ua, &d),
                         HTA_OK);
        int need = hta_balassign_matching_needed(inst, q, nfree);
        if (need)
            assert_int_equal(
                hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &sb, &d),
                HTA_OK);
        assert_int_equal(hta_balassign_place(inst, sb, q, nfree, b, ub, &d),
                         HTA_OK);
        assert_memory_equal(a, b, (size_t)m * sizeof *a);
        assert_memory_equal(ua, ub, (size_t)n * sizeof *ua);
        /* an upper bound on the counts (0 where they are) does the same */
        for (int32_t s = 0; s < n; s++)
            nfree[s] += nfree[s] ? (int32_t)hta_rng_below(&r, 3) : 0;
        memcpy(b, a0, (size_t)m * sizeof *b);
        int need2 = hta_balassign_matching_needed(inst, q, nfree);
        assert_true(need2 == need);
        assert_int_equal(hta_balassign_place(inst, sb, q, nfree, b, ub, &d),
                         HTA_OK);
        assert_memory_equal(a, b, (size_t)m * sizeof *a);
        assert_memory_equal(ua, ub, (size_t)n * sizeof *ua);
        int64_t local = 0;
        for (int32_t s = 0; s < n; s++)
            local += ua[s];
        assert_true(need || local == 0);
        skipped += !need && u > 0;
        matched += local > 0;
        hta_maxcover_free(mc);
        hta_maxcover_free(sa);
        hta_maxcover_free(sb);
        free(a), free(b), free(a0), free(loads), free(nfree), free(ua);
        free(ub);
        free(q);
        hta_instance_free(inst);
    }
    print_message("matching skipped on %d placements, local slot tasks on "
                  "%d\n",
                  skipped, matched);
    assert_true(skipped > 100 && matched > 100);
}

static void test_balassign_tie_rule(void **state)
{
    (void)state;
    hta_instance *inst = parse_text("hta-instance 1\ntasks 3\nservers 3\n"
                                    "w_loc 1\nw_rem 2\ntask 0 0\ntask 1 1\n"
                                    "task 2 2\n");
    int32_t nloc[3] = {2, 0, 0};
    int64_t q[3];
    hta_diag d;
    static const int64_t want[7][3] = {{0, 0, 0}, {0, 1, 0}, {0, 1, 1},
                                       {1, 1, 1}, {1, 2, 1}, {1, 2, 2},
                                       {2, 2, 2}};
    for (int64_t u = 0; u <= 6; u++) {
        assert_int_equal(hta_balassign_slots(inst, nloc, u, 2.0, q, &d),
                         HTA_OK);
        assert_memory_equal(q, want[u], sizeof q);
        assert_int_equal(
            hta_balassign_slots_literal(inst, nloc, u, 2.0, q, &d), HTA_OK);
        assert_memory_equal(q, want[u], sizeof q);
    }
    hta_instance_free(inst);
}

/* Placement: every slot filled, locals first. */
static void test_balassign_place(void **state)
{
    (void)state;
    hta_instance *inst = parse_text("hta-instance 1\ntasks 4\nservers 3\n"
                                    "w_loc 1\nw_rem 3\ntask 0 0\ntask 1 0\n"
                                    "task 2 2\ntask 3 0 1\n");
    int32_t a[4] = {0, -1, -1, -1};
    int64_t q[3] = {0, 2, 1};
    hta_diag d;
    hta_maxcover *scratch = NULL;
    assert_int_equal(
        hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &scratch, &d), HTA_OK);
    assert_int_equal(hta_balassign_place(inst, scratch, q, NULL, a, NULL, &d),
                     HTA_OK);
    assert_int_equal(a[3], 1); /* local to server 1 */
    assert_int_equal(a[2], 2); /* local to server 2 */
    assert_int_equal(a[1], 1); /* the rest in order */
    hta_maxcover_free(scratch);
    hta_instance_free(inst);
}

/* Per-server caps raised step by step (hta_maxcover_raise_caps, the
 * envelope bound's flows): after each step a valid cover of the size of
 * the exhaustive maximum on tiny instances, and of a fill from scratch on
 * HDFS-like ones; a cap that decreases is refused. */
static void test_raise_caps(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 23);
    hta_diag d;
    for (int i = 0; i < 300; i++) {
        hta_instance *inst = i < 250 ?
                                 random_instance(&r, 8, 5, 3, COST_CONSTANT) :
                                 hdfs_instance(2000, 40, 3, 1.2, 3.0,
                                               (uint64_t)i);
        int32_t n = inst->n, m = inst->m;
        int64_t *cap = calloc((size_t)n, sizeof *cap);
        int32_t *load = calloc((size_t)n, sizeof *load);
        int32_t *fixed = malloc((size_t)m * sizeof *fixed);
        int32_t *a = malloc((size_t)m * sizeof *a);
        for (int32_t t = 0; t < m; t++)
            fixed[t] = -1;
        hta_maxcover *mc, *scratch;
        assert_int_equal(
            hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, &d), HTA_OK);
        assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL,
                                          &scratch, &d),
                         HTA_OK);
        for (int step = 0; step < 6; step++) {
            for (int32_t s = 0; s < n; s++)
                cap[s] += (int64_t)hta_rng_below(&r, i < 250 ? 3 : 30);
            assert_int_equal(hta_maxcover_raise_caps(mc, cap, &d), HTA_OK);
            const int32_t *cover = hta_maxcover_cover(mc);
            memset(load, 0, (size_t)n * sizeof *load);
            int64_t size = 0;
            for (int32_t t = 0; t < m; t++)
                if (cover[t] >= 0) {
                    assert_true(hta_instance_is_local(inst, t, cover[t]));
                    load[cover[t]]++;
                    size++;
                }
            for (int32_t s = 0; s < n; s++)
                assert_true(load[s] <= cap[s]);
            assert_int_equal(size, hta_maxcover_size(mc));
            int64_t want;
            if (i < 250) {
                memset(load, 0, (size_t)n * sizeof *load);
                want = exhaustive_caps(inst, cap, 0, load);
            } else {
                assert_int_equal(
                    hta_maxcover_fill(scratch, fixed, cap, a, &d), HTA_OK);
                want = hta_maxcover_size(scratch);
            }
            assert_int_equal(size, want);
        }
        if (n > 0 && cap[0] > 0) {
            cap[0]--;
            assert_int_equal(hta_maxcover_raise_caps(mc, cap, &d),
                             HTA_ERR_INTERNAL);
        }
        hta_maxcover_free(mc);
        hta_maxcover_free(scratch);
        free(cap);
        free(load);
        free(fixed);
        free(a);
        hta_instance_free(inst);
    }
}

/* The perfect fill from the greedy start against the reference fill:
 * random fixed tasks and caps, the caps often summing to the free tasks
 * (bal-assign's case); perfect exactly when the reference's maximum
 * matches every free task, then a valid matching with every server at
 * its cap where the caps sum to the free tasks, and a untouched
 * otherwise. */
static void test_fill_perfect(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 24);
    hta_diag d;
    int perfect_seen = 0, imperfect_seen = 0;
    int repaired = 0; /* perfect only after the phases */
    for (int i = 0; i < 600; i++) {
        hta_instance *inst =
            i < 400 ? random_instance(&r, 10, 5, 3, COST_CONSTANT) :
                      some_hdfs(&r, 300, 20, 300, 3, (uint64_t)i);
        int32_t n = inst->n, m = inst->m;
        int32_t *fixed = malloc(((size_t)m + 1) * sizeof *fixed);
        int32_t *a = malloc(((size_t)m + 1) * sizeof *a);
        int32_t *b = malloc(((size_t)m + 1) * sizeof *b);
        int64_t *cap = calloc((size_t)n + 1, sizeof *cap);
        int32_t *load = calloc((size_t)n + 1, sizeof *load);
        int64_t nfree = 0;
        for (int32_t t = 0; t < m; t++) {
            /* a task fixed on one of its servers, one in five */
            int64_t deg = inst->task_off[t + 1] - inst->task_off[t];
            fixed[t] = deg > 0 && hta_rng_below(&r, 5) == 0 ?
                           inst->task_srv[inst->task_off[t] +
                                          (int64_t)hta_rng_below(
                                              &r, (uint64_t)deg)] :
                           -1;
            nfree += fixed[t] < 0;
        }
        /* caps summing to the free tasks, spread at random, or random */
        if (i % 3 != 2) {
            for (int64_t k = 0; k < nfree; k++)
                cap[hta_rng_below(&r, (uint64_t)n)]++;
        } else {
            for (int32_t s = 0; s < n; s++)
                cap[s] = (int64_t)hta_rng_below(&r, 2 * (uint64_t)m / n + 2);
        }
        hta_maxcover *ref, *g;
        assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &ref,
                                          &d), HTA_OK);
        assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &g,
                                          &d), HTA_OK);
        assert_int_equal(hta_maxcover_fill(ref, fixed, cap, a, &d), HTA_OK);
        int whole = hta_maxcover_size(ref) == nfree;
        for (int32_t t = 0; t < m; t++)
            b[t] = -7;
        int perfect = -1;
        assert_int_equal(hta_maxcover_fill_perfect(g, fixed, cap, b, &perfect,
                                                   &d), HTA_OK);
        assert_int_equal(perfect, whole);
        if (perfect) {
            perfect_seen++;
            repaired += hta_maxcover_stats_get(g)->augmented > 0;
            int64_t sum = 0;
            for (int32_t s = 0; s < n; s++)
                sum += cap[s];
            for (int32_t t = 0; t < m; t++) {
                if (fixed[t] >= 0) {
                    assert_int_equal(b[t], fixed[t]);
                    continue;
                }
                assert_true(b[t] >= 0 && hta_instance_is_local(inst, t, b[t]));
                load[b[t]]++;
            }
            for (int32_t s = 0; s < n; s++) {
                assert_true(load[s] <= cap[s]);
                assert_int_equal(load[s], hta_maxcover_loads(g)[s]);
                if (sum == nfree)
                    assert_int_equal(load[s], cap[s]);
            }
        } else {
            imperfect_seen++;
            for (int32_t t = 0; t < m; t++)
                assert_int_equal(b[t], -7);
            /* the state is a maximum matching all the same */
            assert_int_equal(hta_maxcover_size(g), hta_maxcover_size(ref));
        }
        hta_maxcover_free(ref);
        hta_maxcover_free(g);
        free(fixed);
        free(a);
        free(b);
        free(cap);
        free(load);
        hta_instance_free(inst);
    }
    print_message("fills: %d perfect (%d after the phases), %d not\n",
                  perfect_seen, repaired, imperfect_seen);
    assert_true(perfect_seen > 50 && imperfect_seen > 50 && repaired > 10);
}

static void test_raise_rejects_decrease(void **state)
{
    (void)state;
    hta_instance *inst = hdfs_instance(10, 3, 2, 0, 3, 1);
    hta_maxcover *mc = NULL;
    hta_diag d;
    assert_int_equal(hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, &d),
                     HTA_OK);
    assert_int_equal(hta_maxcover_raise(mc, 2, &d), HTA_OK);
    assert_int_equal(hta_maxcover_raise(mc, 1, &d), HTA_ERR_INTERNAL);
    assert_int_equal(hta_maxcover_raise(mc, 0, &d), HTA_ERR_INTERNAL);
    hta_maxcover_free(mc);
    hta_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exhaustive_tiny),
        cmocka_unit_test(test_engines_random_medium),
        cmocka_unit_test(test_engines_hdfs_families),
        cmocka_unit_test(test_retire_same_covers),
        cmocka_unit_test(test_log_replay_undo),
        cmocka_unit_test(test_raise_greedy),
        cmocka_unit_test(test_balassign_fast_equals_literal),
        cmocka_unit_test(test_balassign_tie_rule),
        cmocka_unit_test(test_balassign_place),
        cmocka_unit_test(test_balassign_place_free_counts),
        cmocka_unit_test(test_raise_caps),
        cmocka_unit_test(test_fill_perfect),
        cmocka_unit_test(test_raise_rejects_decrease),
    };
    return cmocka_run_group_tests_name("maxcover", tests, NULL, NULL);
}
