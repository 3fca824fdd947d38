/* The online affinity-scheduling simulator (sim.h).
 *
 * Data flow of a slot: the arrival stream draws the slot's tasks (types by
 * an alias table); the policy routes each into a queue; every idle server
 * asks the policy for a task and draws its service time from the task's
 * own random numbers; servers whose task ends depart it; statistics see
 * the number in system at the end of the slot.
 *
 * Queues are FIFO lists threaded through one task pool.  Levels come from
 * per-level group ids (racks, pods: runs of consecutive servers, the rule
 * of topology.h), so level(L, m) costs O(|S_L| * N) and the groups are
 * index ranges for the range-min and range-max trees the routing of
 * GB-PANDAS and the stealing of Priority use (O(log M) each).
 */
#include "hta/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/buf.h"
#include "hta/capacity.h"
#include "hta/num.h"
#include "hta/rng.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const char *const hta_sim_policy_names[HTA_SIM_NPOLICIES] = {
    "jsq-maxweight", "priority", "gb-pandas", "fcfs", "fair", "delay"};

void hta_sim_result_free(hta_sim_result *r)
{
    memset(r, 0, sizeof *r);
}

/* ---- random numbers ---- */

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform in (0, 1] from a 64-bit value. */
static double unit_open(uint64_t x)
{
    return ((double)(x >> 11) + 1.0) * 0x1.0p-53;
}

/* Poisson(lam): multiplication for small means, Hormann's PTRS
 * transformed rejection otherwise. */
static int64_t poisson(hta_rng *r, double lam)
{
    if (lam <= 0)
        return 0;
    if (lam < 10) {
        double L = exp(-lam), p = 1;
        int64_t k = 0;
        for (;;) {
            p *= hta_rng_unit(r);
            if (p <= L)
                return k;
            k++;
        }
    }
    double slam = sqrt(lam), loglam = log(lam);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double U = hta_rng_unit(r) - 0.5, V = hta_rng_unit(r);
        double us = 0.5 - fabs(U);
        double k = floor((2 * a / us + b) * U + lam + 0.43);
        if (us >= 0.07 && V <= vr)
            return (int64_t)k;
        if (k < 0 || (us < 0.013 && V > us))
            continue;
        if (log(V) + log(invalpha) - log(a / (us * us) + b) <=
            -lam + k * loglam - lgamma(k + 1))
            return (int64_t)k;
    }
}

/* ---- the simulator's state ---- */

typedef struct fifo {
    int64_t head, tail, len;
} fifo;

typedef struct tree { /* range arg-min (or arg-max) over servers */
    int32_t P;        /* leaves: a power of two >= M */
    double *key;      /* [2P] */
    uint32_t *tie;    /* [2P] random tie-breaks */
    int32_t *arg;     /* [2P] */
    int max;          /* 1: arg-max */
} tree;

typedef struct sim {
    const hta_cluster *c;
    const hta_sim_opts *o;
    hta_sim_result *r;
    int N;
    int32_t M;
    double alpha[HTA_MAX_LEVELS];
    double geo[HTA_MAX_LEVELS];   /* 1 / log(1 - alpha_n / K) */
    int32_t *grp[HTA_MAX_LEVELS]; /* group of each server, levels 2..N-1 */
    int32_t *gstart[HTA_MAX_LEVELS]; /* first server of each group, +end */
    /* the task pool */
    int64_t *t_arr, *t_id, *t_type, *t_next, *t_prev, *t_job;
    size_t cap_arr, cap_id, cap_type, cap_next, cap_prev, cap_tjob;
    int64_t pool_n, free_list;
    int64_t next_id;
    /* servers */
    int64_t *left;   /* slots of service left, 0 idle */
    int64_t *task;   /* the task in service */
    int *lvl;        /* its level */
    /* queues: jsq-maxweight and priority M + 1 (the last: common),
     * gb-pandas M * N sub-queues, fcfs one */
    fifo *q;
    int64_t nq;
    double *W;       /* gb-pandas workloads */
    tree tr;
    /* arrivals */
    double *prob;    /* alias table */
    int64_t *alias;
    double total_rate;
    hta_rng arr_rng, route_rng;
    int64_t in_system;
    uint64_t rot;
    /* jobs (job arrivals): arrival slot, tasks not departed, running,
     * queued (fair, delay: a list per job), skips (delay) */
    int64_t *j_arr, *j_left, *j_run, *j_skip, *j_head, *j_tail, *j_nq;
    int64_t *j_seq; /* creation order (ids are reused) */
    int64_t *j_size;
    size_t cap_jarr, cap_jleft, cap_jrun, cap_jskip, cap_jhead, cap_jtail,
        cap_jnq, cap_jseq, cap_jsize;
    int64_t j_n, j_free, j_count;
    /* fair, delay: the jobs with queued tasks, a heap by (running,
     * arrival order) */
    int64_t *hp, *hpos;
    size_t cap_hp, cap_hpos;
    int64_t hn;
    int64_t *tmp;
    size_t cap_tmp;
    double job_rate;   /* jobs per slot */
    int64_t trace_next;
} sim;

static void tree_set(tree *t, int32_t m, double key, uint32_t tie)
{
    int32_t i = m + t->P;
    t->key[i] = key;
    t->tie[i] = tie;
    t->arg[i] = m;
    for (i /= 2; i >= 1; i /= 2) {
        int32_t a = 2 * i, b = a + 1;
        int pick_b = t->max ? (t->key[b] > t->key[a] ||
                               (t->key[b] == t->key[a] && t->tie[b] < t->tie[a])) :
                              (t->key[b] < t->key[a] ||
                               (t->key[b] == t->key[a] && t->tie[b] < t->tie[a]));
        int32_t w = pick_b ? b : a;
        t->key[i] = t->key[w];
        t->tie[i] = t->tie[w];
        t->arg[i] = t->arg[w];
    }
}

/* The best server in [lo, hi). */
static int32_t tree_query(const tree *t, int32_t lo, int32_t hi, double *key)
{
    int32_t best = -1;
    double bk = 0;
    uint32_t bt = 0;
    for (int32_t l = lo + t->P, h = hi + t->P; l < h; l /= 2, h /= 2) {
        int32_t nodes[2] = {-1, -1};
        if (l & 1)
            nodes[0] = l++;
        if (h & 1)
            nodes[1] = --h;
        for (int k = 0; k < 2; k++) {
            int32_t i = nodes[k];
            if (i < 0)
                continue;
            int better = best < 0 ||
                         (t->max ? (t->key[i] > bk ||
                                    (t->key[i] == bk && t->tie[i] < bt)) :
                                   (t->key[i] < bk ||
                                    (t->key[i] == bk && t->tie[i] < bt)));
            if (better) {
                best = t->arg[i];
                bk = t->key[i];
                bt = t->tie[i];
            }
        }
    }
    *key = bk;
    return best;
}

/* Level (1..N) of server m for type L, from the group ids. */
static int level_of(const sim *s, int64_t L, int32_t m)
{
    const hta_cluster *c = s->c;
    int best = s->N;
    for (int64_t k = c->off[L]; k < c->off[L + 1]; k++) {
        int32_t r = c->srv[k];
        if (r == m)
            return 1;
        for (int n = 2; n < best; n++)
            if (s->grp[n][r] == s->grp[n][m]) {
                best = n;
                break;
            }
    }
    return best;
}

/* ---- the task pool and the queues ---- */

static int64_t task_new(sim *s, int64_t type, hta_diag *d)
{
    int64_t k = s->free_list;
    if (k >= 0) {
        s->free_list = s->t_next[k];
    } else {
        size_t n = (size_t)s->pool_n + 1;
        if (!HTA_RESERVE(s->t_arr, s->cap_arr, n) ||
            !HTA_RESERVE(s->t_id, s->cap_id, n) ||
            !HTA_RESERVE(s->t_type, s->cap_type, n) ||
            !HTA_RESERVE(s->t_next, s->cap_next, n) ||
            !HTA_RESERVE(s->t_prev, s->cap_prev, n) ||
            !HTA_RESERVE(s->t_job, s->cap_tjob, n)) {
            hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            return -1;
        }
        k = s->pool_n++;
    }
    s->t_type[k] = type;
    s->t_id[k] = s->next_id++;
    s->t_next[k] = -1;
    s->t_job[k] = -1;
    return k;
}

static void push(sim *s, fifo *f, int64_t k)
{
    s->t_next[k] = -1;
    if (f->len++)
        s->t_next[f->tail] = k;
    else
        f->head = k;
    f->tail = k;
}

static int64_t pop(sim *s, fifo *f)
{
    int64_t k = f->head;
    f->head = s->t_next[k];
    f->len--;
    return k;
}

/* ---- service times (common random numbers) ---- */

static int64_t service_slots(const sim *s, int64_t id, int level)
{
    double a = s->alpha[level - 1] / s->o->per_unit; /* per slot */
    uint64_t h = mix(s->o->seed ^ mix((uint64_t)id * 8 + (uint64_t)level));
    double u = unit_open(h), x;
    switch (s->o->service) {
    case HTA_SVC_GEOMETRIC:
        if (a >= 1)
            return 1;
        x = ceil(log(u) * s->geo[level - 1]);
        break;
    case HTA_SVC_EXPONENTIAL:
        x = -log(u) / a;
        break;
    case HTA_SVC_DETERMINISTIC:
        x = 1 / a;
        break;
    default: { /* log-normal of mean 1/a and the given cv */
        double v = unit_open(mix(h));
        double z = sqrt(-2 * log(u)) * cos(2 * M_PI * v);
        double s2 = log1p(s->o->cv * s->o->cv);
        x = exp(-log(a) - s2 / 2 + sqrt(s2) * z);
        break;
    }
    }
    if (s->o->service != HTA_SVC_GEOMETRIC) {
        /* a continuous time x (slots): floor(x) slots and one more with
         * probability frac(x), so the mean stays x; at least 1 slot */
        double w = unit_open(mix(h ^ 0xA5A5A5A5A5A5A5A5ull)), f = floor(x);
        x = f + (w <= x - f ? 1 : 0);
    }
    if (!(x >= 1))
        x = 1;
    if (x > 1e15)
        x = 1e15;
    return (int64_t)x;
}

/* ---- jobs ---- */

static int64_t job_new(sim *s, int64_t t, int64_t ntasks, hta_diag *d)
{
    int64_t j = s->j_free;
    if (j >= 0) {
        s->j_free = s->j_head[j];
    } else {
        size_t n = (size_t)s->j_n + 1;
        if (!HTA_RESERVE(s->j_arr, s->cap_jarr, n) ||
            !HTA_RESERVE(s->j_left, s->cap_jleft, n) ||
            !HTA_RESERVE(s->j_run, s->cap_jrun, n) ||
            !HTA_RESERVE(s->j_skip, s->cap_jskip, n) ||
            !HTA_RESERVE(s->j_head, s->cap_jhead, n) ||
            !HTA_RESERVE(s->j_tail, s->cap_jtail, n) ||
            !HTA_RESERVE(s->j_nq, s->cap_jnq, n) ||
            !HTA_RESERVE(s->j_seq, s->cap_jseq, n) ||
            !HTA_RESERVE(s->j_size, s->cap_jsize, n) ||
            !HTA_RESERVE(s->hpos, s->cap_hpos, n) ||
            !HTA_RESERVE(s->hp, s->cap_hp, n) ||
            !HTA_RESERVE(s->tmp, s->cap_tmp, n)) {
            hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            return -1;
        }
        j = s->j_n++;
    }
    s->j_arr[j] = t;
    s->j_seq[j] = s->j_count++;
    s->j_size[j] = ntasks;
    s->j_left[j] = ntasks;
    s->j_run[j] = s->j_skip[j] = s->j_nq[j] = 0;
    s->j_head[j] = s->j_tail[j] = -1;
    s->hpos[j] = -1;
    return j;
}

/* Heap order: fewer running tasks first, then the earlier job. */
static int hless(const sim *s, int64_t a, int64_t b)
{
    if (s->j_run[a] != s->j_run[b])
        return s->j_run[a] < s->j_run[b];
    return s->j_seq[a] < s->j_seq[b];
}

static void hswap(sim *s, int64_t i, int64_t k)
{
    int64_t a = s->hp[i], b = s->hp[k];
    s->hp[i] = b;
    s->hp[k] = a;
    s->hpos[b] = i;
    s->hpos[a] = k;
}

static void hfix(sim *s, int64_t i)
{
    while (i > 0 && hless(s, s->hp[i], s->hp[(i - 1) / 2])) {
        hswap(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        int64_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->hn && hless(s, s->hp[l], s->hp[m]))
            m = l;
        if (r < s->hn && hless(s, s->hp[r], s->hp[m]))
            m = r;
        if (m == i)
            return;
        hswap(s, i, m);
        i = m;
    }
}

static void hpush(sim *s, int64_t j)
{
    s->hp[s->hn] = j;
    s->hpos[j] = s->hn++;
    hfix(s, s->hn - 1);
}

static void hremove(sim *s, int64_t j)
{
    int64_t i = s->hpos[j];
    s->hn--;
    if (i != s->hn) {
        hswap(s, i, s->hn);
        hfix(s, i);
    }
    s->hpos[j] = -1;
}

/* Appends task k to its job's queue (fair, delay). */
static void job_enqueue(sim *s, int64_t k)
{
    int64_t j = s->t_job[k];
    s->t_next[k] = -1;
    s->t_prev[k] = s->j_tail[j];
    if (s->j_tail[j] >= 0)
        s->t_next[s->j_tail[j]] = k;
    else
        s->j_head[j] = k;
    s->j_tail[j] = k;
    if (s->j_nq[j]++ == 0)
        hpush(s, j);
}

static void job_unlink(sim *s, int64_t k)
{
    int64_t j = s->t_job[k];
    if (s->t_prev[k] >= 0)
        s->t_next[s->t_prev[k]] = s->t_next[k];
    else
        s->j_head[j] = s->t_next[k];
    if (s->t_next[k] >= 0)
        s->t_prev[s->t_next[k]] = s->t_prev[k];
    else
        s->j_tail[j] = s->t_prev[k];
    if (--s->j_nq[j] == 0)
        hremove(s, j);
}

/* The queued task of job j with the least level for server m, if that
 * level is at most allowed; -1 otherwise.  O(queued tasks). */
static int64_t job_best_task(const sim *s, int64_t j, int32_t m, int allowed)
{
    int64_t best = -1;
    int bl = allowed + 1;
    for (int64_t k = s->j_head[j]; k >= 0 && bl > 1; k = s->t_next[k]) {
        int lv = level_of(s, s->t_type[k], m);
        if (lv < bl) {
            bl = lv;
            best = k;
        }
    }
    return best;
}

/* ---- policies: routing ---- */

/* The shortest of the type's local queues, random among ties. */
static int32_t shortest_local(sim *s, int64_t L, int64_t *len)
{
    const hta_cluster *c = s->c;
    int32_t best = -1;
    int64_t ties = 0;
    for (int64_t k = c->off[L]; k < c->off[L + 1]; k++) {
        int32_t m = c->srv[k];
        int64_t l = s->q[m].len;
        if (best < 0 || l < *len) {
            best = m;
            *len = l;
            ties = 1;
        } else if (l == *len && hta_rng_below(&s->route_rng, (uint64_t)++ties) == 0) {
            best = m;
        }
    }
    return best;
}

static void prio_update(sim *s, int32_t m)
{
    tree_set(&s->tr, m, (double)s->q[m].len,
             (uint32_t)hta_rng_next(&s->route_rng));
}

static void gb_update(sim *s, int32_t m)
{
    tree_set(&s->tr, m, s->W[m], (uint32_t)hta_rng_next(&s->route_rng));
}

/* GB-PANDAS: "route to argmin_m W_m / alpha_{level(m)}", W_m the queued
 * workload sum_n Q_m^n / alpha_n (the task in service not counted).
 * Among equal scores the more local level wins, then chance: with ties
 * broken at random alone, an idle cluster (every W_m = 0) would send
 * tasks anywhere, mostly far.  The candidates:
 * the local servers, and per replica and level n the least W in its
 * group (the whole cluster at level N).  A candidate's true score is at
 * most its group score W / alpha_n and at least the optimum, so the best
 * true score among them is the optimum. */
static void route_gb(sim *s, int64_t k)
{
    const hta_cluster *c = s->c;
    int64_t L = s->t_type[k];
    int32_t best = -1;
    int blevel = s->N + 1;
    double bscore = INFINITY;
    uint32_t btie = 0;
    for (int64_t j = c->off[L]; j < c->off[L + 1]; j++) {
        int32_t r = c->srv[j];
        for (int n = 1; n <= s->N; n++) {
            int32_t m;
            double w;
            if (n == 1) {
                m = r;
                w = s->W[r];
            } else if (n == s->N) {
                if (j > c->off[L])
                    break; /* the whole cluster: once */
                m = tree_query(&s->tr, 0, s->M, &w);
            } else {
                int32_t g = s->grp[n][r];
                m = tree_query(&s->tr, s->gstart[n][g], s->gstart[n][g + 1],
                               &w);
            }
            int lv = n == 1 ? 1 : level_of(s, L, m);
            double score = w / s->alpha[lv - 1];
            uint32_t tie = s->tr.tie[m + s->tr.P];
            /* ties: the more local level first, then at random */
            if (score < bscore ||
                (score == bscore &&
                 (lv < blevel || (lv == blevel && tie < btie)))) {
                best = m;
                bscore = score;
                btie = tie;
                blevel = lv;
            }
        }
    }
#ifdef HTA_CHECKED
    double truth = INFINITY; /* the definition, over every server */
    for (int32_t m = 0; m < s->M; m++) {
        double sc = s->W[m] / s->alpha[level_of(s, L, m) - 1];
        if (sc < truth)
            truth = sc;
    }
    if (truth != bscore)
        s->r->route_errors++;
#endif
    push(s, &s->q[(int64_t)best * s->N + blevel - 1], k);
    s->W[best] += 1.0 / s->alpha[blevel - 1];
    gb_update(s, best);
}

static void route(sim *s, int64_t k)
{
    int64_t L = s->t_type[k], len = 0;
    switch (s->o->policy) {
    case HTA_SIM_JSQ_MAXWEIGHT: {
        /* "a task joins the shortest of its local queues and the common
         * remote queue" (ties: local) */
        int32_t m = shortest_local(s, L, &len);
        if (s->q[s->M].len < len)
            push(s, &s->q[s->M], k);
        else
            push(s, &s->q[m], k);
        break;
    }
    case HTA_SIM_PRIORITY: {
        /* "join the shortest local queue" */
        int32_t m = shortest_local(s, L, &len);
        push(s, &s->q[m], k);
        prio_update(s, m);
        break;
    }
    case HTA_SIM_GB_PANDAS:
        route_gb(s, k);
        break;
    case HTA_SIM_FAIR:
    case HTA_SIM_DELAY:
        job_enqueue(s, k);
        break;
    default:
        push(s, &s->q[0], k); /* FCFS: one queue */
        break;
    }
}

/* ---- policies: what an idle server takes; -1 for nothing ---- */

static int64_t pick(sim *s, int32_t m)
{
    switch (s->o->policy) {
    case HTA_SIM_JSQ_MAXWEIGHT: {
        /* "an idle server serves its own queue if alpha Q_m >= gamma
         * Q_common, else the common queue" (N levels: alpha_1, alpha_N) */
        fifo *own = &s->q[m], *com = &s->q[s->M];
        if (own->len == 0 && com->len == 0)
            return -1;
        if (s->alpha[0] * (double)own->len >=
                s->alpha[s->N - 1] * (double)com->len &&
            own->len > 0)
            return pop(s, own);
        return pop(s, com);
    }
    case HTA_SIM_PRIORITY: {
        /* "serve the local queue first, then a queue of the rack, ...,
         * then any": the longest queue of the nearest group */
        int32_t from = m;
        if (s->q[m].len == 0) {
            from = -1;
            for (int n = 2; n <= s->N && from < 0; n++) {
                double key;
                int32_t lo = 0, hi = s->M;
                if (n < s->N) {
                    int32_t g = s->grp[n][m];
                    lo = s->gstart[n][g];
                    hi = s->gstart[n][g + 1];
                }
                int32_t v = tree_query(&s->tr, lo, hi, &key);
                if (key > 0)
                    from = v;
            }
            if (from < 0)
                return -1;
        }
        int64_t k = pop(s, &s->q[from]);
        prio_update(s, from);
        return k;
    }
    case HTA_SIM_GB_PANDAS:
        /* "serve by strict priority: 1-local, 2-local, ..., N-local" */
        for (int n = 0; n < s->N; n++) {
            fifo *f = &s->q[(int64_t)m * s->N + n];
            if (f->len) {
                int64_t k = pop(s, f);
                s->W[m] -= 1.0 / s->alpha[n];
                if (s->W[m] < 1e-9)
                    s->W[m] = 0; /* no drift from rounding */
                gb_update(s, m);
                return k;
            }
        }
        return -1;
    case HTA_SIM_FAIR: {
        /* "naive fair sharing: the job with the fewest running tasks
         * gets the machine; it runs a local task if it has one, else
         * any" */
        if (s->hn == 0)
            return -1;
        int64_t j = s->hp[0];
        int64_t k = job_best_task(s, j, m, s->N);
        job_unlink(s, k);
        return k;
    }
    case HTA_SIM_DELAY: {
        /* Zaharia et al.'s delay scheduling: "for each job in fair-share
         * order: if it has a local task, launch it (skips = 0); else if it
         * waited D1 skips, a rack-local one, D1 + D2 skips, any; else skip
         * it (skips + 1) and try the next job" */
        int64_t n = 0, k = -1;
        int D1 = s->o->delay[0], D2 = s->o->delay[1];
        while (s->hn > 0 && k < 0) {
            int64_t j = s->hp[0];
            int allowed = s->j_skip[j] >= (int64_t)D1 + D2 ? s->N :
                          s->j_skip[j] >= D1 ? (s->N > 2 ? s->N - 1 : s->N) :
                                               1;
            k = job_best_task(s, j, m, allowed);
            if (k >= 0) {
                if (level_of(s, s->t_type[k], m) == 1)
                    s->j_skip[j] = 0;
                job_unlink(s, k);
                break;
            }
            s->j_skip[j]++;
            hremove(s, j); /* set aside; the next job in order */
            s->tmp[n++] = j;
        }
        for (int64_t i = 0; i < n; i++)
            hpush(s, s->tmp[i]);
        return k;
    }
    default:
        return s->q[0].len ? pop(s, &s->q[0]) : -1;
    }
}

/* ---- set-up ---- */

static void sim_free(sim *s)
{
    for (int n = 0; n < HTA_MAX_LEVELS; n++) {
        free(s->grp[n]);
        free(s->gstart[n]);
    }
    free(s->t_arr);
    free(s->t_id);
    free(s->t_type);
    free(s->t_next);
    free(s->left);
    free(s->task);
    free(s->lvl);
    free(s->q);
    free(s->W);
    free(s->tr.key);
    free(s->tr.tie);
    free(s->tr.arg);
    free(s->prob);
    free(s->alias);
    free(s->t_prev);
    free(s->t_job);
    free(s->j_arr);
    free(s->j_left);
    free(s->j_run);
    free(s->j_skip);
    free(s->j_head);
    free(s->j_tail);
    free(s->j_nq);
    free(s->j_seq);
    free(s->j_size);
    free(s->hp);
    free(s->hpos);
    free(s->tmp);
}

/* Walker's alias table over the types, by rate. */
static int build_alias(sim *s)
{
    const hta_cluster *c = s->c;
    int64_t T = c->T;
    s->prob = malloc((size_t)T * sizeof *s->prob);
    s->alias = malloc((size_t)T * sizeof *s->alias);
    int64_t *small = malloc((size_t)T * sizeof *small);
    int64_t *large = malloc((size_t)T * sizeof *large);
    if (!s->prob || !s->alias || !small || !large) {
        free(small);
        free(large);
        return -1;
    }
    s->total_rate = 0;
    for (int64_t L = 0; L < T; L++)
        s->total_rate += c->lambda[L];
    int64_t ns = 0, nl = 0;
    for (int64_t L = 0; L < T; L++) {
        s->prob[L] = s->total_rate > 0 ? c->lambda[L] * (double)T /
                                             s->total_rate :
                                         1;
        s->alias[L] = L;
        if (s->prob[L] < 1)
            small[ns++] = L;
        else
            large[nl++] = L;
    }
    while (ns && nl) {
        int64_t a = small[--ns], b = large[nl - 1];
        s->alias[a] = b;
        s->prob[b] -= 1 - s->prob[a];
        if (s->prob[b] < 1) {
            nl--;
            small[ns++] = b;
        }
    }
    while (nl)
        s->prob[large[--nl]] = 1;
    while (ns)
        s->prob[small[--ns]] = 1;
    free(small);
    free(large);
    return 0;
}

static int64_t draw_type(sim *s)
{
    int64_t L = (int64_t)hta_rng_below(&s->arr_rng, (uint64_t)s->c->T);
    return hta_rng_unit(&s->arr_rng) < s->prob[L] ? L : s->alias[L];
}

static hta_status sim_init(sim *s, const hta_cluster *c,
                           const hta_sim_opts *o, hta_sim_result *r,
                           hta_diag *d)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->o = o;
    s->r = r;
    s->N = c->levels;
    s->M = c->M;
    s->free_list = -1;
    s->j_free = -1;
    for (int n = 0; n < s->N; n++) {
        s->alpha[n] = c->rate[n];
        double a = c->rate[n] / o->per_unit;
        s->geo[n] = a < 1 ? 1 / log1p(-a) : 0;
    }
    size_t M = (size_t)c->M;
    for (int n = 2; n < s->N; n++) {
        int64_t G = hta_cluster_groups(c, n);
        s->grp[n] = malloc(M * sizeof *s->grp[n]);
        s->gstart[n] = malloc(((size_t)G + 1) * sizeof *s->gstart[n]);
        if (!s->grp[n] || !s->gstart[n])
            goto oom;
        int64_t prev = -1;
        for (int32_t m = 0; m < c->M; m++) {
            int64_t g = hta_cluster_group(c, m, n);
            s->grp[n][m] = (int32_t)g;
            if (g != prev) /* groups are runs of consecutive servers */
                s->gstart[n][g] = m;
            prev = g;
        }
        s->gstart[n][G] = c->M;
    }
    s->left = calloc(M, sizeof *s->left);
    s->task = malloc(M * sizeof *s->task);
    s->lvl = malloc(M * sizeof *s->lvl);
    switch (o->policy) {
    case HTA_SIM_GB_PANDAS:
        s->nq = (int64_t)M * s->N;
        break;
    case HTA_SIM_FCFS:
        s->nq = 1;
        break;
    default:
        s->nq = (int64_t)M + 1;
    }
    s->q = calloc((size_t)s->nq, sizeof *s->q);
    if (!s->left || !s->task || !s->lvl || !s->q || build_alias(s) != 0)
        goto oom;
    if (o->policy == HTA_SIM_GB_PANDAS || o->policy == HTA_SIM_PRIORITY) {
        int32_t P = 1;
        while (P < c->M)
            P *= 2;
        s->tr.P = P;
        s->tr.max = o->policy == HTA_SIM_PRIORITY;
        s->tr.key = malloc(2 * (size_t)P * sizeof *s->tr.key);
        s->tr.tie = malloc(2 * (size_t)P * sizeof *s->tr.tie);
        s->tr.arg = malloc(2 * (size_t)P * sizeof *s->tr.arg);
        s->W = calloc(M, sizeof *s->W);
        if (!s->tr.key || !s->tr.tie || !s->tr.arg || !s->W)
            goto oom;
        for (int32_t i = 0; i < 2 * P; i++) { /* padding never wins */
            s->tr.key[i] = s->tr.max ? -1 : INFINITY;
            s->tr.tie[i] = UINT32_MAX;
            s->tr.arg[i] = -1;
        }
    }
    hta_rng_seed(&s->arr_rng, o->seed);
    hta_rng_seed(&s->route_rng, o->seed ^ 0x5EED5EED5EEDull);
    for (int32_t m = 0; m < c->M && s->tr.P; m++)
        tree_set(&s->tr, m, 0, (uint32_t)hta_rng_next(&s->route_rng));
    return HTA_OK;
oom:
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

/* Two-sided 95% quantile of Student's t with df degrees of freedom
 * (Cornish-Fisher expansion; within 0.1% for df >= 5). */
static double t975(int df)
{
    double z = 1.959963984540054, z3 = z * z * z, z5 = z3 * z * z;
    return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) /
                                           (96.0 * df * df);
}

static void mean_ci(const double *x, int n, double *mean, double *ci)
{
    double s = 0, ss = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    *mean = s / n;
    for (int i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    *ci = n > 1 ? t975(n - 1) * sqrt(ss / (n - 1) / n) : INFINITY;
}

hta_status hta_sim_run(const hta_cluster *c, const hta_sim_opts *o,
                       hta_sim_result *r, hta_diag *d)
{
    memset(r, 0, sizeof *r);
    if (!(o->per_unit >= 1))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected at least 1 slot per time unit");
    if (o->slots <= o->warmup || o->batches < 2 ||
        (o->slots - o->warmup) < o->batches)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected more measured slots (slots - "
                            "warm-up) than batches, and at least 2 "
                            "batches");
    int jobpol = o->policy == HTA_SIM_FAIR || o->policy == HTA_SIM_DELAY;
    if (jobpol && o->arrivals != HTA_ARR_JOBS)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "%s schedules jobs: it needs job arrivals",
                            hta_sim_policy_names[o->policy]);
    sim s;
    hta_status st = sim_init(&s, c, o, r, d);
    if (st == HTA_OK && o->arrivals == HTA_ARR_JOBS && !o->trace_jobs)
        s.job_rate = s.total_rate * o->load / o->per_unit /
                     hta_dist_mean(&o->job_size);
    int B = o->batches;
    double *bn = calloc((size_t)B, sizeof *bn);      /* sum of N */
    double *bd = calloc((size_t)B, sizeof *bd);      /* sum of delays */
    double *bc = calloc((size_t)B, sizeof *bc);      /* departures */
    double *bjd = calloc((size_t)B, sizeof *bjd);    /* job delays */
    double *bjc = calloc((size_t)B, sizeof *bjc);    /* jobs done */
    int64_t *hist = calloc((size_t)HTA_SIM_CLASSES * HTA_SIM_BINS,
                           sizeof *hist);
    if (st == HTA_OK &&
        (!bn || !bd || !bc || !bjd || !bjc || !hist))
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    int64_t measured = o->slots - o->warmup;
    int64_t blen = measured / B; /* the last batch takes the rest */
    double sumN_all = 0, sumD_all = 0, busy = 0;
    int64_t dep_all = 0, lvl_count[HTA_MAX_LEVELS] = {0};
    double t0 = hta_clock_now();
    r->levels = s.N;
    int64_t t;
    for (t = 1; st == HTA_OK && t <= o->slots; t++) {
        /* 1. arrivals */
        int64_t n_arr;
        if (o->arrivals == HTA_ARR_POISSON) {
            n_arr = poisson(&s.arr_rng, s.total_rate * o->load / o->per_unit);
            for (int64_t a = 0; a < n_arr && st == HTA_OK; a++) {
                int64_t k = task_new(&s, draw_type(&s), d);
                if (k < 0) {
                    st = HTA_ERR_INTERNAL;
                    break;
                }
                s.t_arr[k] = t;
                route(&s, k);
            }
        } else if (o->arrivals == HTA_ARR_JOBS) {
            n_arr = 0;
            int64_t nj = 0;
            const hta_jobs *tj = o->trace_jobs;
            if (tj) {
                while (s.trace_next < tj->n && tj->arrival[s.trace_next] < t)
                    s.trace_next++; /* none: arrivals are non-decreasing */
                while (s.trace_next < tj->n && tj->arrival[s.trace_next] == t)
                    nj++, s.trace_next++;
            } else {
                nj = poisson(&s.arr_rng, s.job_rate);
            }
            for (int64_t q = 0; q < nj && st == HTA_OK; q++) {
                int64_t size = tj ? tj->map[s.trace_next - nj + q] :
                                    hta_dist_draw(&o->job_size, &s.arr_rng);
                int64_t j = job_new(&s, t, size, d);
                if (j < 0) {
                    st = HTA_ERR_INTERNAL;
                    break;
                }
                r->jobs_arrived++;
                for (int64_t a = 0; a < size; a++) {
                    int64_t k = task_new(&s, draw_type(&s), d);
                    if (k < 0) {
                        st = HTA_ERR_INTERNAL;
                        break;
                    }
                    s.t_arr[k] = t;
                    s.t_job[k] = j;
                    route(&s, k);
                    n_arr++;
                }
            }
        } else {
            n_arr = 0;
            for (int64_t L = 0; L < c->T && st == HTA_OK; L++)
                if (hta_rng_unit(&s.arr_rng) <
                    c->lambda[L] * o->load / o->per_unit) {
                    int64_t k = task_new(&s, L, d);
                    if (k < 0) {
                        st = HTA_ERR_INTERNAL;
                        break;
                    }
                    s.t_arr[k] = t;
                    route(&s, k);
                    n_arr++;
                }
        }
        if (st != HTA_OK)
            break;
        r->arrived += n_arr;
        s.in_system += n_arr;
        int in_window = t > o->warmup;
        int b = 0;
        if (in_window) {
            b = (int)((t - o->warmup - 1) / blen);
            if (b >= B)
                b = B - 1;
        }
        /* 2. idle servers start tasks, from a start that moves each slot
         * (no server is always first) */
        int32_t start = (int32_t)(s.rot++ % (uint64_t)c->M);
        for (int32_t q = 0; q < c->M; q++) {
            int32_t m = start + q < c->M ? start + q : start + q - c->M;
            if (s.left[m] == 0) {
                int64_t k = pick(&s, m);
                if (k < 0)
                    continue;
                int lv = level_of(&s, s.t_type[k], m);
#ifdef HTA_CHECKED
                if (lv != hta_capacity_level(c, s.t_type[k], m))
                    r->level_errors++;
#endif
                s.task[m] = k;
                s.lvl[m] = lv;
                if (s.t_job[k] >= 0) {
                    int64_t j = s.t_job[k];
                    s.j_run[j]++;
                    if (s.hpos[j] >= 0)
                        hfix(&s, s.hpos[j]);
                }
                s.left[m] = service_slots(&s, s.t_id[k], lv);
                lvl_count[lv - 1]++;
            }
            /* 3. the slot's work; departures at its end */
            if (s.left[m] > 0) {
                busy += in_window;
                if (--s.left[m] == 0) {
                    int64_t k = s.task[m];
                    double delay = (double)(t - s.t_arr[k] + 1);
                    sumD_all += delay - 1;
                    dep_all++;
                    if (in_window) {
                        bd[b] += delay;
                        bc[b] += 1;
                    }
                    int64_t j = s.t_job[k];
                    if (j >= 0) {
                        s.j_run[j]--;
                        if (s.hpos[j] >= 0)
                            hfix(&s, s.hpos[j]);
                        if (--s.j_left[j] == 0) { /* the job is done */
                            r->jobs_done++;
                            if (in_window) {
                                double jd = (double)(t - s.j_arr[j] + 1);
                                bjd[b] += jd;
                                bjc[b] += 1;
                                int64_t z = s.j_size[j];
                                int cl = z <= 1 ? 0 : z <= 10 ? 1 :
                                         z <= 100 ? 2 : z <= 1000 ? 3 : 4;
                                int bin = (int)(log(jd) / log(1.01));
                                if (bin >= HTA_SIM_BINS)
                                    bin = HTA_SIM_BINS - 1;
                                hist[cl * HTA_SIM_BINS + bin]++;
                            }
                            s.j_head[j] = s.j_free;
                            s.j_free = j;
                        }
                    }
                    s.t_next[k] = s.free_list;
                    s.free_list = k;
                    s.in_system--;
                    r->departed++;
                }
            }
        }
        sumN_all += (double)s.in_system;
        if (o->trace && o->trace_every > 0 && t % o->trace_every == 0)
            o->trace(o->trace_ctx, t, s.in_system);
        if (in_window)
            bn[b] += (double)s.in_system;
        if ((t & 1023) == 0) {
            if (o->stop && *o->stop) {
                r->cut = 1;
                t++;
                break;
            }
            if (o->progress) {
                hta_progress p = {hta_sim_policy_names[o->policy],
                                  hta_clock_now() - t0,
                                  (double)s.in_system, NAN, t};
                o->progress(o->progress_ctx, &p);
            }
        }
    }
    r->slots = t - 1;
    r->in_system = s.in_system;
    if (st == HTA_OK) {
        /* batch statistics over the batches completed */
        int64_t done = r->slots - o->warmup;
        int nb = done <= 0 ? 0 : (int)(done / blen);
        if (nb > B)
            nb = B;
        double bm[4096], dm[4096];
        int nd = 0;
        if (nb > 4096)
            nb = 4096;
        for (int i = 0; i < nb; i++) {
            int64_t len = i == B - 1 ? measured - blen * (B - 1) : blen;
            bm[i] = bn[i] / (double)len;
            if (bc[i] > 0)
                dm[nd++] = bd[i] / bc[i];
        }
        r->mean_n = r->ci_n = r->mean_delay = r->ci_delay = NAN;
        if (nb >= 2)
            mean_ci(bm, nb, &r->mean_n, &r->ci_n);
        if (nd >= 2)
            mean_ci(dm, nd, &r->mean_delay, &r->ci_delay);
        double jm[4096];
        int nj = 0;
        for (int i = 0; i < nb; i++)
            if (bjc[i] > 0)
                jm[nj++] = bjd[i] / bjc[i];
        r->mean_job_delay = r->ci_job_delay = NAN;
        for (int cl = 0; cl < HTA_SIM_CLASSES; cl++) {
            const int64_t *h = hist + cl * HTA_SIM_BINS;
            int64_t n = 0;
            for (int i = 0; i < HTA_SIM_BINS; i++)
                n += h[i];
            r->class_jobs[cl] = n;
            static const double q[3] = {0.5, 0.95, 0.99};
            for (int k = 0; k < 3; k++) {
                r->class_pct[cl][k] = NAN;
                int64_t need = (int64_t)ceil(q[k] * (double)n), acc = 0;
                for (int i = 0; i < HTA_SIM_BINS && n > 0; i++) {
                    acc += h[i];
                    if (acc >= need && need > 0) {
                        /* the bin's geometric middle */
                        r->class_pct[cl][k] = pow(1.01, i + 0.5);
                        break;
                    }
                }
            }
        }
        if (nj >= 2)
            mean_ci(jm, nj, &r->mean_job_delay, &r->ci_job_delay);
        double deps = 0, dsum = 0;
        for (int i = 0; i < nb; i++) {
            deps += bc[i];
            dsum += bd[i];
        }
        int64_t mslots = nb == B ? measured : blen * nb;
        r->throughput = mslots > 0 ? deps / (double)mslots : NAN;
        r->utilisation = mslots > 0 ? busy / ((double)c->M * (double)mslots)
                                    : NAN;
        /* Little's law over the whole run: sum of N = time in system of
         * the departed + that of those still in */
        double Lw = sumN_all / (double)r->slots;
        double Wm = dep_all ? sumD_all / (double)dep_all : 0;
        r->little_gap = fabs(Lw - (double)dep_all / (double)r->slots * Wm) /
                        fmax(Lw, 1e-12);
        int64_t started = 0;
        for (int n = 0; n < s.N; n++)
            started += lvl_count[n];
        for (int n = 0; n < s.N; n++)
            r->level_frac[n] = started ? (double)lvl_count[n] /
                                             (double)started :
                                         0;
        /* stability: slope of the batch means over the second half */
        int h0 = nb / 2, hn = nb - h0;
        if (hn >= 3) {
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            for (int i = h0; i < nb; i++) {
                double x = (double)(i - h0) * (double)blen;
                sx += x;
                sy += bm[i];
                sxx += x * x;
                sxy += x * bm[i];
            }
            double den = hn * sxx - sx * sx;
            r->slope = (hn * sxy - sx * sy) / den;
            double icpt = (sy - r->slope * sx) / hn, sse = 0;
            for (int i = h0; i < nb; i++) {
                double x = (double)(i - h0) * (double)blen;
                double e = bm[i] - icpt - r->slope * x;
                sse += e * e;
            }
            double se = sqrt(sse / (hn - 2) / (sxx - sx * sx / hn));
            r->slope_t = se > 0 ? r->slope / se : (r->slope > 0 ? INFINITY : 0);
            double rise = r->slope * (double)blen * hn;
            r->growing = r->slope_t > 2.58 && rise > 0.1 * fmax(sy / hn, 1);
        }
    }
    r->seconds = hta_clock_now() - t0;
    free(bn);
    free(bd);
    free(bc);
    free(bjd);
    free(bjc);
    free(hist);
    sim_free(&s);
    if (st != HTA_OK)
        hta_sim_result_free(r);
    return st;
}
