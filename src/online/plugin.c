/* A plugged-in policy (policy.h): the table's check, the view a policy
 * reads and acts through, and the two calls made on the simulator's
 * behalf, each checked against the rules (route queues its task once,
 * serve returns the task it took), so that a wrong policy ends its run
 * with words naming the broken rule instead of corrupting the queues.
 *
 * The view's push and pop keep what the slot loop and the built-ins
 * keep: the work bits (HTA_POLICY_OWN_WORK: a server with a task in one
 * of its queues), Priority's length orders over queue 0
 * (HTA_POLICY_LENGTHS), in the order the built-ins keep them, so that a
 * plug-in written as a built-in draws the same ties. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hta/diag.h"
#include "sim_impl.h"

static const char *const builtin_names[] = {
    "jsq-maxweight", "priority", "gb-pandas", "balanced-pandas",
    "fcfs",          "fair",     "delay",    "plugin"};

hta_status hta_policy_check(const hta_policy *p, hta_diag *d)
{
    if (!p)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected a policy table, found none");
    if (p->abi != HTA_POLICY_ABI)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected a policy of ABI %d, found ABI %d",
                            HTA_POLICY_ABI, p->abi);
    const char *nm = p->name;
    size_t n = 0;
    while (nm && n <= 32 && nm[n] &&
           ((nm[n] >= 'a' && nm[n] <= 'z') || (nm[n] >= '0' && nm[n] <= '9') ||
            nm[n] == '-' || nm[n] == '_'))
        n++;
    if (!nm || n == 0 || n > 32 || nm[n]) {
        /* quoted as the readers quote: at most 40 bytes, read no
         * further, control bytes and others not printable as '?' */
        char head[44], q[64];
        size_t k = 0;
        while (nm && k < 41 && nm[k])
            k++;
        if (nm)
            memcpy(head, nm, k);
        head[k] = '\0';
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected a policy name of 1 to 32 of a-z, "
                            "0-9, '-' and '_', found %s%s%s",
                            nm ? "'" : "", nm ? hta_lex_quote(head, q) : "none",
                            nm ? "'" : "");
    }
    for (size_t i = 0; i < sizeof builtin_names / sizeof *builtin_names; i++)
        if (strcmp(nm, builtin_names[i]) == 0)
            return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                "expected a policy name of its own, found "
                                "'%s', %s", nm,
                                strcmp(nm, "plugin") == 0 ?
                                    "the command line's name for "
                                    "--policy-lib's policy" :
                                    "a built-in's");
    if (p->per_server < HTA_POLICY_PER_LEVEL ||
        p->per_server > HTA_POLICY_MAX_PER_SERVER || p->shared < 0 ||
        p->shared > HTA_POLICY_MAX_SHARED ||
        (p->per_server == 0 && p->shared == 0))
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "policy %s: expected 0 to %d queues per server "
                            "(or -1: one a level) and 0 to %d shared, at "
                            "least one queue, found %d and %d",
                            nm, HTA_POLICY_MAX_PER_SERVER,
                            HTA_POLICY_MAX_SHARED, p->per_server, p->shared);
    if (p->flags & ~(unsigned)(HTA_POLICY_OWN_WORK | HTA_POLICY_LENGTHS |
                               HTA_POLICY_LEVEL_QUEUES |
                               HTA_POLICY_WORKLOADS | HTA_POLICY_JOBS))
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "policy %s: expected flags HTA_POLICY_OWN_WORK, "
                            "HTA_POLICY_LENGTHS, HTA_POLICY_LEVEL_QUEUES, "
                            "HTA_POLICY_WORKLOADS and HTA_POLICY_JOBS, found "
                            "0x%x", nm, p->flags);
    if ((p->flags & HTA_POLICY_WORKLOADS) &&
        !(p->flags & HTA_POLICY_LEVEL_QUEUES))
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "policy %s: HTA_POLICY_WORKLOADS weighs queue n "
                            "- 1 of a server by 1 / alpha_n: expected "
                            "HTA_POLICY_LEVEL_QUEUES with it", nm);
    if ((p->flags & HTA_POLICY_LENGTHS) && p->per_server == 0)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "policy %s: HTA_POLICY_LENGTHS orders queue 0 "
                            "of each server: expected a queue per server",
                            nm);
    if (!p->route || !p->serve)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "policy %s: expected route and serve functions, "
                            "found %s missing", nm,
                            !p->route ? "route" : "serve");
    return HTA_OK;
}

size_t sim_policy_copy(hta_policy *dst, char name[40], const hta_policy *src)
{
    *dst = *src;
    size_t k = 0; /* at most 39 bytes read: a longer name is refused */
    while (src->name && k + 1 < 40 && src->name[k]) {
        name[k] = src->name[k];
        k++;
    }
    name[k] = '\0';
    dst->name = src->name ? name : NULL;
    return k;
}

/* ---- the view ---- */

static sim *of(const hta_view *v)
{
    return v->sim;
}

/* The first broken rule's words, "policy NAME: ...". */
static void broken(sim *s, const char *fmt, ...)
{
    if (s->pl_failed)
        return;
    s->pl_failed = 1;
    int n = snprintf(s->pl_err, sizeof s->pl_err, "policy %s: ",
                     s->pl->name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->pl_err + n, sizeof s->pl_err - (size_t)n, fmt, ap);
    va_end(ap);
}

static int server_ok(sim *s, int32_t m, const char *what)
{
    if (m >= 0 && m < s->M)
        return 1;
    broken(s, "%s: expected a server in 0..%" PRId32 ", found %" PRId32,
           what, s->M - 1, m);
    return 0;
}

static int level_ok(sim *s, int n, int lo, const char *what)
{
    if (n >= lo && n <= s->N)
        return 1;
    broken(s, "%s: expected a level in %d..%d, found %d", what, lo, s->N, n);
    return 0;
}

static int task_ok(sim *s, int64_t k, const char *what)
{
    /* the task routed or a queued one is in the pool; free entries are
     * not told apart (O(1)): their fields are a departed task's */
    if (k >= 0 && k < s->pool_n)
        return 1;
    broken(s, "%s: expected a task, found %" PRId64, what, k);
    return 0;
}

static int queue_ok(sim *s, int64_t q, const char *what)
{
    if (q >= 0 && q < s->nq)
        return 1;
    broken(s, "%s: expected a queue in 0..%" PRId64 ", found %" PRId64, what,
           s->nq - 1, q);
    return 0;
}

static int64_t v_slot(const hta_view *v)
{
    return of(v)->now;
}

static double v_rate(const hta_view *v, int n)
{
    sim *s = of(v);
    return level_ok(s, n, 1, "rate") ? s->alpha[n - 1] : 0;
}

static const int32_t *v_replicas(const hta_view *v, int64_t L, int64_t *n)
{
    sim *s = of(v);
    int64_t none;
    if (!n) /* the out-pointers of the view may be NULL: not wanted */
        n = &none;
    const hta_cluster *c = s->c;
    if (L < 0 || L >= c->T) {
        broken(s, "replicas: expected a type in 0..%" PRId64 ", found %"
                  PRId64, c->T - 1, L);
        *n = 0;
        return NULL;
    }
    *n = c->off[L + 1] - c->off[L];
    return c->srv + c->off[L];
}

static int v_level(const hta_view *v, int64_t L, int32_t m)
{
    sim *s = of(v);
    if (L < 0 || L >= s->c->T) {
        broken(s, "level: expected a type in 0..%" PRId64 ", found %" PRId64,
               s->c->T - 1, L);
        return 0;
    }
    return server_ok(s, m, "level") ? level_of(s, L, m) : 0;
}

static int64_t v_group(const hta_view *v, int32_t m, int n)
{
    sim *s = of(v);
    if (!server_ok(s, m, "group") || !level_ok(s, n, 2, "group"))
        return -1;
    return n == s->N ? 0 : group_index(s, m, n);
}

static void v_span(const hta_view *v, int n, int64_t g, int32_t *lo,
                   int32_t *hi)
{
    sim *s = of(v);
    int32_t lo0, hi0;
    lo = lo ? lo : &lo0;
    hi = hi ? hi : &hi0;
    *lo = *hi = 0;
    if (!level_ok(s, n, 2, "span"))
        return;
    int64_t G = n == s->N ? 1 : hta_cluster_groups(s->c, n);
    if (g < 0 || g >= G) {
        broken(s, "span: expected a group in 0..%" PRId64 ", found %" PRId64,
               G - 1, g);
        return;
    }
    group_span(s, n, g, lo, hi);
}

static int64_t v_task_type(const hta_view *v, int64_t k)
{
    sim *s = of(v);
    return task_ok(s, k, "type") ? s->tk[k].type : -1;
}

static int64_t v_task_arrival(const hta_view *v, int64_t k)
{
    sim *s = of(v);
    return task_ok(s, k, "arrival") ? s->tk[k].arr : -1;
}

static int64_t v_task_job(const hta_view *v, int64_t k)
{
    sim *s = of(v);
    return task_ok(s, k, "job") ? s->tk[k].job : -1;
}

static int64_t v_len(const hta_view *v, int64_t q)
{
    sim *s = of(v);
    return queue_ok(s, q, "len") ? s->q[q].len : 0;
}

/* Queue q's server (-1: a shared queue) and its index j there. */
static int32_t queue_server(const sim *s, int64_t q, int64_t *j)
{
    int64_t servers_q = (int64_t)s->M * s->per;
    if (q >= servers_q) {
        *j = q - servers_q;
        return -1;
    }
    *j = q % s->per;
    return (int32_t)(q / s->per);
}

/* Tasks in server m's own queues. */
static int64_t own_len(const sim *s, int32_t m)
{
    int64_t n = 0;
    for (int j = 0; j < s->per; j++)
        n += s->q[(int64_t)m * s->per + j].len;
    return n;
}

/* pop and take: in serve, its first task. */
static int may_take(sim *s, const char *what)
{
    if (s->pl_call != PL_SERVE) {
        broken(s, "%s outside serve", what);
        return 0;
    }
    if (s->pl_popped >= 0) {
        broken(s, "serve(server %" PRId32 ") took a second task",
               s->pl_server);
        return 0;
    }
    return 1;
}

static int v_push(hta_view *v, int64_t q, int64_t k)
{
    sim *s = of(v);
    if (s->pl_call != PL_ROUTE) {
        broken(s, "push outside route");
        return -1;
    }
    if (k != s->pl_task) {
        broken(s, "route(task %" PRId64 ") pushed task %" PRId64
                  ", not its own", s->pl_task, k);
        return -1;
    }
    if (s->pl_pushes) {
        broken(s, "route(task %" PRId64 ") pushed its task twice", k);
        return -1;
    }
    if (!queue_ok(s, q, "push"))
        return -1;
    int64_t j;
    int32_t m = queue_server(s, q, &j);
    if (m >= 0 && (s->pl->flags & HTA_POLICY_LEVEL_QUEUES)) {
        int lv = level_of(s, s->tk[k].type, m);
        if (lv != j + 1) {
            broken(s, "route(task %" PRId64 ") put a task of level %d at "
                      "server %" PRId32 " in its queue %" PRId64
                      " (HTA_POLICY_LEVEL_QUEUES: level %" PRId64 ")",
                   k, lv, m, j, j + 1);
            return -1;
        }
    }
    int64_t old = s->q[q].len;
    int had = m >= 0 && s->work ? own_len(s, m) > 0 : 1;
    if (sim_push(s, q, k) != 0 ||
        (s->ls[2].ord && m >= 0 && j == 0 &&
         sim_lens_inc(s, m, old) != 0)) {
        broken(s, "out of memory");
        s->pl_failed = 2;
        return -1;
    }
    s->pl_pushes = 1;
    if (m < 0)
        s->shared_queued++;
    else if (!had)
        set_work(s, m, 1);
    if (m >= 0 && s->Wl)
        sim_gb_update(s, m, 1);
    return 0;
}

static int64_t v_pop(hta_view *v, int64_t q)
{
    sim *s = of(v);
    if (!may_take(s, "pop"))
        return HTA_VIEW_IDLE;
    if (!queue_ok(s, q, "pop") || s->q[q].len == 0)
        return HTA_VIEW_IDLE;
    int64_t j;
    int32_t m = queue_server(s, q, &j);
    if (s->ls[2].ord && m >= 0 && j == 0)
        sim_lens_dec(s, m, s->q[q].len);
    int64_t k = sim_pop(s, q);
    /* the level: checked at its push, or worked out at the start (not a
       job_best's left over) */
    s->pick_level = m == s->pl_server &&
                            (s->pl->flags & HTA_POLICY_LEVEL_QUEUES) ?
                        (int)j + 1 :
                        0;
    if (m < 0)
        s->shared_queued--;
    else if (s->work && own_len(s, m) == 0)
        set_work(s, m, 0);
    if (m >= 0 && s->Wl)
        sim_gb_update(s, m, 0);
    s->pl_popped = k;
    return k;
}

static int32_t v_shortest(hta_view *v, int64_t L, int j, int64_t *len)
{
    sim *s = of(v);
    int64_t len0;
    len = len ? len : &len0;
    *len = 0;
    if (L < 0 || L >= s->c->T) {
        broken(s, "shortest: expected a type in 0..%" PRId64 ", found %"
                  PRId64, s->c->T - 1, L);
        return -1;
    }
    if (s->per == 0) {
        broken(s, "shortest needs a queue per server");
        return -1;
    }
    if (j < 0 || j >= s->per) {
        broken(s, "shortest: expected a queue of a server in 0..%d, found "
                  "%d", s->per - 1, j);
        return -1;
    }
    return sim_shortest(s, L, s->per, j, len);
}

static uint32_t v_below(hta_view *v, uint32_t n)
{
    sim *s = of(v);
    if (n == 0) {
        broken(s, "below: expected a bound of at least 1, found 0");
        return 0;
    }
    return hta_rng_below32(&s->route_rng, n);
}

static int32_t v_longest(hta_view *v, int32_t m, int n)
{
    sim *s = of(v);
    if (!s->ls[2].ord) {
        broken(s, "longest needs the flag HTA_POLICY_LENGTHS");
        return -1;
    }
    if (!server_ok(s, m, "longest") || !level_ok(s, n, 2, "longest"))
        return -1;
    return sim_lens_longest(s, m, n);
}

static int v_idle(const hta_view *v, int32_t m)
{
    sim *s = of(v);
    if (!server_ok(s, m, "idle"))
        return 0;
    return (int)((s->idle[m / 64] >> (m % 64)) & 1);
}

static int64_t v_job_running(const hta_view *v, int64_t j)
{
    sim *s = of(v);
    if (j < 0 || j >= s->j_n) {
        broken(s, "job_running: expected a job, found %" PRId64, j);
        return 0;
    }
    return s->j_run[j];
}

static int64_t v_queued(const hta_view *v)
{
    return of(v)->queued;
}

static void v_fail(hta_view *v, const char *msg)
{
    /* the policy's own words, at most 200 bytes, control bytes and
     * others not printable as '?' (they reach a terminal) */
    char q[204];
    size_t k = 0;
    for (; msg && k < 200 && msg[k]; k++)
        q[k] = (unsigned char)msg[k] < 0x20 || (unsigned char)msg[k] >= 0x7f ?
                   '?' :
                   msg[k];
    q[k] = '\0';
    broken(of(v), "%s", msg ? q : "failed");
}

static int32_t v_least(hta_view *v, int32_t m, int n, double *w,
                       uint32_t *tie)
{
    sim *s = of(v);
    double w0;
    uint32_t tie0;
    w = w ? w : &w0;
    tie = tie ? tie : &tie0;
    *w = 0;
    *tie = 0;
    if (!s->Wl) {
        broken(s, "least needs the flag HTA_POLICY_WORKLOADS");
        return -1;
    }
    if (!server_ok(s, m, "least") || !level_ok(s, n, 1, "least"))
        return -1;
    cand g = n == 1 ? (cand){m, s->Wl[m], sim_tree_tie(s, m)} :
                      sim_group_best(s, m, n);
    *w = g.key;
    *tie = g.tie;
    return g.m;
}

static double v_workload(const hta_view *v, int32_t m)
{
    sim *s = of(v);
    if (!s->Wl) {
        broken(s, "workload needs the flag HTA_POLICY_WORKLOADS");
        return 0;
    }
    return server_ok(s, m, "workload") ? s->Wl[m] : 0;
}

/* HTA_POLICY_JOBS: a job with its arrival's slot taken (ids are reused:
 * a job done is free until the next arrives). */
static int job_ok(sim *s, int64_t j, const char *what)
{
    if (!(s->pl->flags & HTA_POLICY_JOBS)) {
        broken(s, "%s needs the flag HTA_POLICY_JOBS", what);
        return 0;
    }
    if (j >= 0 && j < s->j_n)
        return 1;
    broken(s, "%s: expected a job, found %" PRId64, what, j);
    return 0;
}

static int v_push_job(hta_view *v, int64_t k)
{
    sim *s = of(v);
    if (!(s->pl->flags & HTA_POLICY_JOBS)) {
        broken(s, "push_job needs the flag HTA_POLICY_JOBS");
        return -1;
    }
    if (s->pl_call != PL_ROUTE || k != s->pl_task || s->pl_pushes) {
        broken(s, s->pl_call != PL_ROUTE ? "push_job outside route" :
                  k != s->pl_task ? "route pushed a task not its own" :
                                    "route pushed its task twice");
        return -1;
    }
    if (sim_job_enqueue(s, k) != 0) {
        broken(s, "out of memory");
        s->pl_failed = 2;
        return -1;
    }
    s->pl_pushes = 1;
    return 0;
}

static int64_t v_job_first(const hta_view *v)
{
    sim *s = of(v);
    if (!(s->pl->flags & HTA_POLICY_JOBS)) {
        broken(s, "job_first needs the flag HTA_POLICY_JOBS");
        return -1;
    }
    return s->hn > 0 ? s->hp[0] : -1;
}

static int64_t v_job_best(hta_view *v, int64_t j, int32_t m, int allowed,
                          int *level)
{
    sim *s = of(v);
    int level0;
    level = level ? level : &level0;
    *level = 0;
    if (!job_ok(s, j, "job_best") || !server_ok(s, m, "job_best") ||
        !level_ok(s, allowed, 1, "job_best"))
        return -1;
    if (s->j_nq[j] == 0)
        return -1;
    int saved = s->pick_level;
    int64_t k = sim_job_best_task(s, j, m, allowed);
    *level = k >= 0 ? s->pick_level : 0;
    s->pick_level = saved;
    s->pl_best = k;
    s->pl_best_level = *level;
    s->pl_best_server = m;
    return k;
}

static int64_t v_take(hta_view *v, int64_t k)
{
    sim *s = of(v);
    if (!(s->pl->flags & HTA_POLICY_JOBS)) {
        broken(s, "take needs the flag HTA_POLICY_JOBS");
        return HTA_VIEW_IDLE;
    }
    if (!may_take(s, "take"))
        return HTA_VIEW_IDLE;
    if (k < 0 || k != s->pl_best) {
        if (s->pl_best < 0)
            broken(s, "take: expected the task job_best gave last, found %"
                      PRId64 " (job_best gave none in this serve)", k);
        else
            broken(s, "take: expected the task job_best gave last (%" PRId64
                      "), found %" PRId64, s->pl_best, k);
        return HTA_VIEW_IDLE;
    }
    sim_job_unlink(s, k);
    /* the level the serving server has for the task, not the one of the
     * server job_best was asked about (the start works it out) */
    s->pick_level = s->pl_best_server == s->pl_server ? s->pl_best_level : 0;
    s->pl_best = -1;
    s->pl_popped = k;
    return k;
}

static void v_job_aside(hta_view *v, int64_t j)
{
    sim *s = of(v);
    if (!job_ok(s, j, "job_aside"))
        return;
    if (s->pl_call != PL_SERVE || s->hpos[j] < 0) {
        broken(s, s->pl_call != PL_SERVE ?
                      "job_aside outside serve" :
                      "job_aside: the job has no queued task or is aside");
        return;
    }
    sim_hremove(s, j);
    s->tmp[s->pl_aside++] = j;
}

static int64_t v_job_mark(const hta_view *v, int64_t j)
{
    sim *s = of(v);
    return job_ok(s, j, "job_mark") ? s->j_skip[j] : 0;
}

static void v_set_job_mark(hta_view *v, int64_t j, int64_t mark)
{
    sim *s = of(v);
    if (job_ok(s, j, "set_job_mark"))
        s->j_skip[j] = mark;
}

static const char *v_error(const hta_view *v)
{
    const sim *s = of(v);
    return s->pl_failed ? s->pl_err : NULL;
}

static const hta_view_ops ops = {
    v_slot,   v_rate,   v_replicas,     v_level,        v_group,
    v_span,   v_task_type, v_task_arrival, v_task_job, v_len,
    v_push,   v_pop,    v_below,        v_longest,      v_idle,
    v_job_running, v_queued, v_fail, v_error, v_least, v_workload,
    v_push_job, v_job_first, v_job_best, v_take, v_job_aside, v_job_mark,
    v_set_job_mark, v_shortest};

/* ---- the calls ---- */

hta_status sim_plugin_init(sim *s, hta_diag *d)
{
    const hta_policy *p = s->pl;
    s->view = (hta_view){&ops, s, s->M, s->N, s->c->T, s->per, p->shared};
    s->pl_popped = -1;
    if ((p->flags & HTA_POLICY_JOBS) && s->o->arrivals != HTA_ARR_JOBS) {
        broken(s, "HTA_POLICY_JOBS schedules jobs: it needs job arrivals");
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0, "%s", s->pl_err);
    }
    if ((p->flags & HTA_POLICY_WORKLOADS) && s->per != s->N) {
        broken(s, "HTA_POLICY_WORKLOADS needs a queue per level on each "
                  "server: expected %d (or HTA_POLICY_PER_LEVEL), found %d",
               s->N, s->per);
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0, "%s", s->pl_err);
    }
    if (p->init) {
        int rc = p->init(&s->pl_state, &s->view, p->arg);
        if (rc != 0 || s->pl_failed) {
            if (!s->pl_failed)
                broken(s, "init failed");
            return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0, "%s", s->pl_err);
        }
    }
    s->pl_inited = 1;
    return HTA_OK;
}

void sim_plugin_free(sim *s)
{
    if (s->pl && s->pl_inited && s->pl->free)
        s->pl->free(s->pl_state);
    s->pl_inited = 0;
}

int sim_plugin_route(sim *s, int64_t k)
{
    s->pl_call = PL_ROUTE;
    s->pl_task = k;
    s->pl_pushes = 0;
    int rc = s->pl->route(s->pl_state, &s->view, k);
    s->pl_call = PL_NONE;
    if (!s->pl_failed && rc != 0)
        broken(s, "route(task %" PRId64 ") failed", k);
    if (!s->pl_failed && !s->pl_pushes)
        broken(s, "route(task %" PRId64 ") queued no task", k);
    return s->pl_failed == 2 ? -1 : s->pl_failed ? -2 : 0;
}

int64_t sim_plugin_pick(sim *s, int32_t m)
{
    s->pl_call = PL_SERVE;
    s->pl_server = m;
    s->pl_popped = -1;
    s->pl_best = -1;
    s->pl_aside = 0;
    int64_t k = s->pl->serve(s->pl_state, &s->view, m);
    s->pl_call = PL_NONE;
    for (int64_t i = 0; i < s->pl_aside; i++) /* back in order, those */
        if (s->j_nq[s->tmp[i]] > 0)           /* with a task queued */
            sim_hpush(s, s->tmp[i]);
    if (!s->pl_failed) {
        if (k == HTA_VIEW_FAIL)
            broken(s, "serve(server %" PRId32 ") failed", m);
        else if (k == HTA_VIEW_IDLE && s->pl_popped >= 0)
            broken(s, "serve(server %" PRId32 ") took task %" PRId64
                      " and returned none", m, s->pl_popped);
        else if (k != HTA_VIEW_IDLE && k != s->pl_popped && s->pl_popped >= 0)
            broken(s, "serve(server %" PRId32 ") took task %" PRId64
                      " and returned %" PRId64, m, s->pl_popped, k);
        else if (k != HTA_VIEW_IDLE && k != s->pl_popped)
            broken(s, "serve(server %" PRId32 ") returned %" PRId64
                      " without taking a task (pop)", m, k);
    }
    return s->pl_failed ? -2 : k;
}
