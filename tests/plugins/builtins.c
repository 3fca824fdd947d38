/* JSQ-MaxWeight, JSQ-Priority, GB-PANDAS, FCFS, fair sharing and delay
 * scheduling written again as plug-ins
 * (hta/policy.h), from the built-ins' rules and nothing else of the
 * simulator: the oracle that a plug-in sees what a built-in sees.  Each
 * draws its ties as the built-in does (one hta_view_below among the
 * tied local queues), so its output must equal the built-in's byte for
 * byte (tests/plugins/run.sh, test_plugin).
 *
 * Built as a shared library for `hta sim --policy-lib`, with
 * -DHTA_PLUGIN=1 (jsq, through the view's shortest local queue), 8 (jsq
 * scanning the replicas' lengths itself, its tie rule written out), 2
 * (priority, the same scan), 3 (fcfs), 5 (gb-pandas), 6 (fair), 7
 * (delay, --delay 3,5) or 4 (jsq's scan with a wrong tie rule, the
 * first of the tied queues: a mutation the oracle must catch); compiled
 * into test_plugin as a table each. */
#include <math.h>
#include <stddef.h>

#include "hta/policy.h"

/* The shortest of type L's local queues (queue 0 of its replicas),
 * uniform among ties; *len its length.  mutant: the first of the ties. */
static int32_t shortest_local(hta_view *v, int64_t L, int64_t *len,
                              int mutant)
{
    int64_t n;
    const int32_t *r = hta_view_replicas(v, L, &n);
    int64_t best = INT64_MAX, last = 0;
    uint32_t ties = 0;
    for (int64_t i = 0; i < n; i++) { /* the least length, its ties */
        int64_t l = hta_view_len(v, hta_view_queue(v, r[i], 0));
        if (l < best) {
            best = l;
            ties = 0;
        }
        if (l == best) {
            ties++;
            last = i;
        }
    }
    *len = best;
    if (ties == 1)
        return r[last];
    uint32_t pick = mutant ? 0 : hta_view_below(v, ties);
    for (int64_t i = 0;; i++)
        if (hta_view_len(v, hta_view_queue(v, r[i], 0)) == best &&
            pick-- == 0)
            return r[i];
}

/* ---- JSQ-MaxWeight (Wang et al.): a queue per server and a common
 * one ---- */

/* "the shortest of its local queues and the common queue" (ties:
 * local), m the shortest local queue's server, len its length */
static int jsq_join(hta_view *v, int64_t task, int32_t m, int64_t len)
{
    int64_t common = hta_view_shared(v, 0);
    int64_t q = hta_view_len(v, common) < len ? common : hta_view_queue(v, m, 0);
    return hta_view_push(v, q, task);
}

/* the shortest local queue from the view (hta_view_shortest) */
static int jsq_route(void *state, hta_view *v, int64_t task)
{
    (void)state;
    int64_t len;
    int32_t m = hta_view_shortest(v, hta_view_type(v, task), 0, &len);
    return jsq_join(v, task, m, len);
}

/* the scan above: the tie rule written out; the mutant's wrong */
static int jsq_route_scan(void *state, hta_view *v, int64_t task)
{
    (void)state;
    int64_t len;
    int32_t m = shortest_local(v, hta_view_type(v, task), &len, 0);
    return jsq_join(v, task, m, len);
}

static int jsq_route_mutant(void *state, hta_view *v, int64_t task)
{
    (void)state;
    int64_t len;
    int32_t m = shortest_local(v, hta_view_type(v, task), &len, 1);
    return jsq_join(v, task, m, len);
}

static int64_t jsq_serve(void *state, hta_view *v, int32_t server)
{
    (void)state;
    int64_t own = hta_view_queue(v, server, 0), common = hta_view_shared(v, 0);
    int64_t lo = hta_view_len(v, own), lc = hta_view_len(v, common);
    /* "its own queue if alpha Q_m >= gamma Q_common" */
    if (lo > 0 && hta_view_rate(v, 1) * (double)lo >=
                      hta_view_rate(v, v->levels) * (double)lc)
        return hta_view_pop(v, own);
    return lc > 0 ? hta_view_pop(v, common) : HTA_VIEW_IDLE;
}

/* ---- JSQ-Priority: a queue per server, the longest of the nearest
 * group when its own is empty ---- */

static int priority_route(void *state, hta_view *v, int64_t task)
{
    (void)state;
    int64_t len;
    int32_t m = shortest_local(v, hta_view_type(v, task), &len, 0);
    return hta_view_push(v, hta_view_queue(v, m, 0), task);
}

static int64_t priority_serve(void *state, hta_view *v, int32_t server)
{
    (void)state;
    int32_t from = server;
    if (hta_view_len(v, hta_view_queue(v, server, 0)) == 0) {
        from = -1;
        for (int n = 2; n <= v->levels && from < 0; n++)
            from = hta_view_longest(v, server, n);
        if (from < 0)
            return HTA_VIEW_IDLE;
    }
    return hta_view_pop(v, hta_view_queue(v, from, 0));
}

/* ---- GB-PANDAS: a queue per level on each server, routed to the
 * least W_m / alpha_level(m) ---- */

/* "route to argmin_m W_m / alpha_{level(m)}", ties to the more local
 * level, then the lesser tie: the candidates are, level by level, each
 * replica's level-n group's least W (the replicas sharing a group asked
 * once), until no level-n group can score below min W / alpha_n. */
static int gb_route(void *state, hta_view *v, int64_t task)
{
    (void)state;
    int64_t nr;
    const int32_t *r = hta_view_replicas(v, hta_view_type(v, task), &nr);
    int N = v->levels, blevel = N + 1;
    double wmin, bkey = INFINITY;
    uint32_t tie, btie = 0;
    int32_t bm = -1;
    hta_view_least(v, 0, N, &wmin, &tie);
    for (int n = 1; n <= N && bkey > wmin * (1 / hta_view_rate(v, n)); n++) {
        double inv = 1 / hta_view_rate(v, n);
        for (int64_t j = 0; j < (n == N ? 1 : nr); j++) {
            int dup = 0;
            for (int64_t i = 0; i < j && n > 1 && n < N && !dup; i++)
                dup = hta_view_group(v, r[i], n) == hta_view_group(v, r[j], n);
            if (dup)
                continue;
            double w;
            uint32_t t;
            int32_t m = hta_view_least(v, r[j], n, &w, &t);
            double score = w * inv;
            if (score < bkey || (score == bkey && n == blevel && t < btie)) {
                bm = m;
                bkey = score;
                btie = t;
                blevel = n;
            }
        }
    }
    return hta_view_push(v, hta_view_queue(v, bm, blevel - 1), task);
}

/* "serve by strict priority: 1-local, 2-local, ..., N-local" */
static int64_t gb_serve(void *state, hta_view *v, int32_t server)
{
    (void)state;
    for (int n = 0; n < v->levels; n++)
        if (hta_view_len(v, hta_view_queue(v, server, n)))
            return hta_view_pop(v, hta_view_queue(v, server, n));
    return HTA_VIEW_IDLE;
}

/* ---- fair sharing and delay scheduling (job arrivals): the jobs'
 * queued tasks, kept by the simulator (HTA_POLICY_JOBS) ---- */

static int job_route(void *state, hta_view *v, int64_t task)
{
    (void)state;
    return hta_view_push_job(v, task);
}

/* "naive fair sharing: the job with the fewest running tasks gets the
 * machine; it runs a local task if it has one, else any" */
static int64_t fair_serve(void *state, hta_view *v, int32_t server)
{
    (void)state;
    int64_t j = hta_view_job_first(v);
    if (j < 0)
        return HTA_VIEW_IDLE;
    int level;
    return hta_view_take(v, hta_view_job_best(v, j, server, v->levels,
                                              &level));
}

/* Zaharia et al.'s delay scheduling, skips D1 = 3 before rack-local
 * tasks and D1 + D2 = 3 + 5 before remote ones (hta sim --delay 3,5):
 * "for each job in fair-share order: if it has a local task, launch it
 * (skips = 0); else if it waited D1 skips, a rack-local one, D1 + D2
 * skips, any; else skip it (skips + 1) and try the next job" */
enum { D1 = 3, D2 = 5 };

static int64_t delay_serve(void *state, hta_view *v, int32_t server)
{
    (void)state;
    int N = v->levels;
    for (int64_t j; (j = hta_view_job_first(v)) >= 0;) {
        int64_t skips = hta_view_job_mark(v, j);
        int allowed = skips >= D1 + D2 ? N :
                      skips >= D1      ? (N > 2 ? N - 1 : N) :
                                         1;
        int level;
        int64_t k = hta_view_job_best(v, j, server, allowed, &level);
        if (k >= 0) {
            if (level == 1)
                hta_view_set_job_mark(v, j, 0);
            return hta_view_take(v, k);
        }
        hta_view_set_job_mark(v, j, skips + 1);
        hta_view_job_aside(v, j); /* the next job in order */
    }
    return HTA_VIEW_IDLE;
}

/* ---- FCFS: one queue ---- */

static int fcfs_route(void *state, hta_view *v, int64_t task)
{
    (void)state;
    return hta_view_push(v, hta_view_shared(v, 0), task);
}

static int64_t fcfs_serve(void *state, hta_view *v, int32_t server)
{
    (void)state;
    (void)server;
    return hta_view_pop(v, hta_view_shared(v, 0));
}

const hta_policy plugin_jsq = {HTA_POLICY_ABI, "my-jsq", 1, 1,
                               HTA_POLICY_OWN_WORK | HTA_POLICY_LEVEL_QUEUES,
                               NULL, NULL,
                               jsq_route, jsq_serve, NULL};
const hta_policy plugin_jsq_scan = {HTA_POLICY_ABI, "my-jsq-scan", 1, 1,
                                    HTA_POLICY_OWN_WORK |
                                        HTA_POLICY_LEVEL_QUEUES,
                                    NULL, NULL,
                                    jsq_route_scan, jsq_serve, NULL};
const hta_policy plugin_jsq_mutant = {HTA_POLICY_ABI, "my-jsq-mutant", 1, 1,
                                      HTA_POLICY_OWN_WORK |
                                          HTA_POLICY_LEVEL_QUEUES,
                                      NULL, NULL,
                                      jsq_route_mutant, jsq_serve, NULL};
const hta_policy plugin_priority = {HTA_POLICY_ABI, "my-priority", 1, 0,
                                    HTA_POLICY_LENGTHS |
                                        HTA_POLICY_LEVEL_QUEUES,
                                    NULL, NULL,
                                    priority_route, priority_serve, NULL};
const hta_policy plugin_gb = {HTA_POLICY_ABI, "my-gb-pandas",
                              HTA_POLICY_PER_LEVEL, 0,
                              HTA_POLICY_OWN_WORK | HTA_POLICY_LEVEL_QUEUES |
                                  HTA_POLICY_WORKLOADS,
                              NULL, NULL, gb_route, gb_serve, NULL};
const hta_policy plugin_fair = {HTA_POLICY_ABI, "my-fair", 0, 1,
                                HTA_POLICY_JOBS, NULL, NULL, job_route,
                                fair_serve, NULL};
const hta_policy plugin_delay = {HTA_POLICY_ABI, "my-delay", 0, 1,
                                 HTA_POLICY_JOBS, NULL, NULL, job_route,
                                 delay_serve, NULL};
const hta_policy plugin_fcfs = {HTA_POLICY_ABI, "my-fcfs", 0, 1, 0, NULL,
                                NULL, fcfs_route, fcfs_serve, NULL};

#ifdef HTA_PLUGIN
const hta_policy *hta_policy_entry(int abi);
const hta_policy *hta_policy_entry(int abi)
{
    if (abi != HTA_POLICY_ABI)
        return NULL;
    return HTA_PLUGIN == 1 ? &plugin_jsq :
           HTA_PLUGIN == 2 ? &plugin_priority :
           HTA_PLUGIN == 3 ? &plugin_fcfs :
           HTA_PLUGIN == 5 ? &plugin_gb :
           HTA_PLUGIN == 6 ? &plugin_fair :
           HTA_PLUGIN == 7 ? &plugin_delay :
           HTA_PLUGIN == 8 ? &plugin_jsq_scan : &plugin_jsq_mutant;
}
#endif
