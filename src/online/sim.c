/* The online affinity-scheduling simulator (sim.h).
 *
 * Data flow of a slot: the arrival stream draws the slot's tasks (types by
 * an alias table); the policy routes each into a queue; the idle servers
 * (a bit set, visited in cyclic order from a moving start) ask the policy
 * for a task and draw its service time from the task's own random
 * numbers, which files the server in a timing wheel under its last slot;
 * the wheel's bucket of the slot departs its tasks; statistics see the
 * number in system at the end of the slot.
 *
 * Queues are FIFO lists threaded through one task pool (with per-job
 * sub-queues: lists of job nodes, each a FIFO of tasks).  Levels come
 * from per-level group ids (racks, pods: runs of consecutive servers, the
 * rule of topology.h), so level(L, m) costs O(|S_L| * N); the groups are
 * subtrees of the min-tree GB-PANDAS routes by, and segments of the
 * length-sorted orders Priority steals from.
 */
#include "hta/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hta/capacity.h"
#include "hta/num.h"
#include "hta/rng.h"
#include "hta/topology.h"
#include "core/buf.h"
#include "measure.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const char *const hta_sim_policy_names[HTA_SIM_NPOLICIES] = {
    "jsq-maxweight", "priority", "gb-pandas", "fcfs", "fair", "delay"};

const char *const hta_sim_class_names[HTA_SIM_CLASSES] = {
    "1", "2-10", "11-100", "101-1000", ">1000"};

const char *const hta_sim_verdict_names[4] = {"stable", "growing",
                                              "undecided", "unstable"};

void hta_sim_result_free(hta_sim_result *r)
{
    memset(r, 0, sizeof *r);
}

void hta_sim_opts_default(hta_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->arrivals = HTA_ARR_POISSON;
    o->service = HTA_SVC_GEOMETRIC;
    o->cv = 1;
    o->load = 1;
    o->per_unit = 1;
    o->slots = 100000;
    o->warmup = o->slots / 10;
    o->batches = 30;
    o->seed = 1;
    o->job_size = (hta_dist){.kind = HTA_DIST_FIXED, .a = 10, .b = 0};
    o->delay[0] = o->delay[1] = -1;
    o->max_backlog = hta_sim_default_backlog();
}

int64_t hta_sim_default_backlog(void)
{
    double mem = (double)sysconf(_SC_PHYS_PAGES) *
                 (double)sysconf(_SC_PAGESIZE);
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (!(mem > 0) || (double)rl.rlim_cur < mem))
        mem = (double)rl.rlim_cur;
    /* a task in system costs its pool entry (48 bytes) and its share of
     * the pool's doubling (up to twice as much while it is copied) and of
     * queue and job nodes: a sixteenth of the memory in 48-byte tasks
     * stays within about a quarter of it (33 million tasks took 1.55 GB
     * of 24 GiB) */
    double n = mem > 0 ? mem / 16 / 48 : 1e6;
    return n < 1e6 ? 1000000 : n > 1e15 ? (int64_t)1e15 : (int64_t)n;
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
    int64_t head, tail, len; /* len: tasks; head, tail: tasks, or with
                                per-job sub-queues the job nodes */
} fifo;

/* Arg-min over servers (GB-PANDAS' workloads).  Padded layout: every
 * group (rack, pod, ...) is one subtree, its children counts rounded up
 * to powers of two, so a group's best is one node; when that padding
 * would take more than 4 times the plain tree, servers are leaves in
 * order and a group's best is a range query of O(log M) nodes. */
typedef struct tnode {
    double key;
    uint32_t tie; /* random tie-break */
    int32_t arg;  /* the server */
} tnode;

typedef struct tree {
    int32_t P;        /* leaves: a power of two */
    int padded;
    int shift[HTA_MAX_LEVELS + 1]; /* padded: level-n group of leaf i is
                                      node (i + P) >> shift[n] */
    int32_t *leaf;    /* [M] the leaf of each server */
    tnode *node;      /* [2P] */
} tree;

/* Priority's queue lengths, per group of every level >= 2: the group's
 * servers sorted by length in its segment [lo, hi) of ord, bucket l (the
 * servers of length l) being [st[l], st[l + 1]), st[maxl + 1] = hi.  A
 * length moves by one, so a server moves by one swap to the edge of its
 * bucket and the edge shifts: O(1) per level, and the longest queues of a
 * group are one range, from which a uniform draw breaks ties. */
typedef struct lgroup {
    int32_t *st;
    size_t cap;
    int64_t maxl;
} lgroup;

typedef struct lenset {
    int64_t *ord, *pos; /* [M] */
    lgroup *g;          /* per group of the level */
    int64_t ng;         /* groups */
} lenset;

typedef struct cand {
    int32_t m;
    double key;
    uint32_t tie;
} cand;

/* A task: its arrival slot, id (its common random numbers), type, links
 * (queue or job list) and job; one cache line. */
typedef struct task {
    int64_t arr, id, type, next, prev, job;
} task;

typedef struct sim {
    const hta_cluster *c;
    const hta_sim_opts *o;
    hta_sim_result *r;
    int N;
    int32_t M;
    double alpha[HTA_MAX_LEVELS];
    double inv[HTA_MAX_LEVELS];   /* 1 / alpha_n */
    double aslot[HTA_MAX_LEVELS]; /* alpha_n per slot */
    double geo[HTA_MAX_LEVELS];   /* 1 / log(1 - alpha_n / K) */
    double gthr[HTA_MAX_LEVELS][8]; /* (1 - alpha_n / K)^(k + 1) */
    double ln_mu[HTA_MAX_LEVELS], ln_sig; /* log-normal parameters */
    uint32_t zk[128];                     /* the normal's ziggurat */
    double zw[128], zf[128];
    int32_t *grp[HTA_MAX_LEVELS]; /* group of each server, levels 2..N-1 */
    int32_t *gstart[HTA_MAX_LEVELS]; /* first server of each group, +end */
    /* the task pool */
    task *tk;
    size_t cap_tk;
    int64_t pool_n, free_list;
    int64_t next_id;
    /* servers: the task in service, its level, its last slot; idle ones
     * in a bit set; busy ones in the timing wheel's bucket of their last
     * slot (mod W), linked through w_next */
    int64_t *task, *fin;
    int *lvl;
    uint64_t *idle;
    uint64_t *work; /* gb-pandas: servers with queued tasks; jsq-maxweight:
                       servers whose own queue has tasks (an idle server
                       without is skipped while the common queue is empty:
                       it would take nothing) */
    /* summaries: bit w of sum_idle is set when word w of idle has a bit,
     * of sum_ready when word w of idle & work has one; so a slot finds
     * its candidate servers in O(M / 4096 + candidates) */
    uint64_t *sum_idle, *sum_ready;
    int64_t nwords;
    int32_t nidle;
    int32_t *w_next, *wheel;
    int64_t wsize;
    /* queues: jsq-maxweight and priority M + 1 (the last: common),
     * gb-pandas M * N sub-queues, fcfs one */
    fifo *q;
    int64_t nq, queued;
    int pick_level; /* the level of the task pick() returned, 0: unknown */
    double *Wl;      /* gb-pandas workloads W_m */
    uint32_t *tl;    /* and their ties (the tree's leaves, at hand) */
    tree tr;
    lenset ls[HTA_MAX_LEVELS + 1]; /* priority: levels 2..N */
    /* per-job sub-queues (opts.subqueues): each queue a list of job
     * nodes, each node a FIFO of the job's tasks in that queue */
    int64_t *n_job, *n_head, *n_tail, *n_next, *n_prev, *n_len;
    size_t cap_njob, cap_nhead, cap_ntail, cap_nnext, cap_nprev, cap_nlen;
    int64_t n_n, n_free;
    int64_t *q_stamp, *q_node; /* the node of the arriving job per queue */
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
    volatile sig_atomic_t *stop; /* opts.stop, or a flag never set */
    int unstable;                /* the backlog reached opts.max_backlog */
} sim;

/* a before b: the lesser key, then the lesser tie, then the lesser
 * server (a total order: every layout and every way of updating gives
 * the same winner) */
static int node_better(const tnode *a, const tnode *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    if (a->tie != b->tie)
        return a->tie < b->tie;
    return a->arg < b->arg;
}

/* Server m's key went down (or m enters the tree, its leaf having been
 * padding): m now wins where it won and where it beats the winner, which
 * needs no sibling; the climb ends at the first ancestor whose winner
 * beats it. */
static void tree_lower(tree *t, int32_t m, double key, uint32_t tie)
{
    int32_t i = t->leaf[m] + t->P;
    tnode *nd = t->node;
    tnode w = {key, tie, m};
    nd[i] = w;
    for (i /= 2; i >= 1 && (nd[i].arg == m || node_better(&w, &nd[i]));
         i /= 2)
        nd[i] = w;
}

/* Server m's key went up: only the ancestors m won change, each
 * to the better of m and the sibling; the climb ends where m did not
 * win. */
static void tree_raise(tree *t, int32_t m, double key, uint32_t tie)
{
    int32_t i = t->leaf[m] + t->P;
    tnode *nd = t->node;
    tnode w = {key, tie, m};
    nd[i] = w;
    for (; i > 1 && nd[i / 2].arg == m; i /= 2) {
        const tnode *sib = &nd[i ^ 1];
        if (node_better(sib, &w))
            w = *sib;
        nd[i / 2] = w;
    }
}

/* The best leaf in [lo, hi) (leaf order = server order here). */
static cand tree_range(const tree *t, int32_t lo, int32_t hi)
{
    cand b = {-1, 0, 0};
    const tnode *bn = NULL;
    for (int32_t l = lo + t->P, h = hi + t->P; l < h; l /= 2, h /= 2) {
        const tnode *nodes[2] = {NULL, NULL};
        if (l & 1)
            nodes[0] = &t->node[l++];
        if (h & 1)
            nodes[1] = &t->node[--h];
        for (int k = 0; k < 2; k++)
            if (nodes[k] && (!bn || node_better(nodes[k], bn)))
                bn = nodes[k];
    }
    if (bn) {
        b.m = bn->arg;
        b.key = bn->key;
        b.tie = bn->tie;
    }
    return b;
}

/* The servers [lo, hi) of group g at level n >= 2 (level N: the
 * cluster, group 0). */
static void group_span(const sim *s, int n, int64_t g, int32_t *lo,
                       int32_t *hi)
{
    *lo = n == s->N ? 0 : s->gstart[n][g];
    *hi = n == s->N ? s->M : s->gstart[n][g + 1];
}

/* The index of server m's group at level n >= 2, and its span. */
static int64_t group_of(const sim *s, int32_t m, int n, int32_t *lo,
                        int32_t *hi)
{
    int64_t g = n == s->N ? 0 : s->grp[n][m];
    group_span(s, n, g, lo, hi);
    return g;
}

/* The best server of server r's group at level n (n = 1: r itself, N:
 * the cluster). */
static cand group_best(const sim *s, int32_t r, int n)
{
    const tree *t = &s->tr;
    int32_t i;
    if (n == 1)
        i = t->leaf[r] + t->P;
    else if (n == s->N)
        i = 1;
    else if (t->padded)
        i = (t->leaf[r] + t->P) >> t->shift[n];
    else {
        int32_t lo, hi;
        group_of(s, r, n, &lo, &hi);
        return tree_range(t, lo, hi);
    }
    cand b = {t->node[i].arg, t->node[i].key, t->node[i].tie};
    return b;
}

static int32_t pow2_at_least(int64_t n, int *bits)
{
    int32_t p = 1;
    *bits = 0;
    while (p < n) {
        p *= 2;
        ++*bits;
    }
    return p;
}

/* The tree's layout (see the type) and its leaves at neutral keys. */
static int tree_init(sim *s)
{
    const hta_cluster *c = s->c;
    tree *t = &s->tr;
    int bits, b = 0;
    int32_t plain = pow2_at_least(c->M, &bits);
    t->leaf = malloc((size_t)c->M * sizeof *t->leaf);
    if (!t->leaf)
        return -1;
    /* padded: rack index in its rack, then rack in its pod, ... */
    double leaves = 1;
    int bw[HTA_MAX_LEVELS];
    for (int i = 0; i < c->ntopo; i++) {
        leaves *= pow2_at_least(c->topo[i], &bw[i]);
        t->shift[i + 2] = b += bw[i];
    }
    int topbits = 0;
    if (s->N > 2)
        leaves *= pow2_at_least(hta_cluster_groups(c, s->N - 1), &topbits);
    t->padded = s->N > 2 && leaves <= 4.0 * plain;
    if (t->padded) {
        t->P = (int32_t)leaves;
        t->shift[s->N] = b + topbits;
        for (int32_t m = 0; m < c->M; m++) {
            int64_t x = m, leaf = 0;
            int sh = 0;
            for (int i = 0; i < c->ntopo; i++) {
                leaf |= (x % c->topo[i]) << sh;
                x /= c->topo[i];
                sh += bw[i];
            }
            t->leaf[m] = (int32_t)(leaf | x << sh);
        }
    } else {
        t->P = plain;
        for (int32_t m = 0; m < c->M; m++)
            t->leaf[m] = m;
    }
    size_t n2 = 2 * (size_t)t->P;
    t->node = malloc(n2 * sizeof *t->node);
    if (!t->node)
        return -1;
    for (size_t i = 0; i < n2; i++) { /* padding never wins */
        t->node[i].key = INFINITY;
        t->node[i].tie = UINT32_MAX;
        t->node[i].arg = -1;
    }
    for (int32_t m = 0; m < c->M; m++) {
        s->tl[m] = (uint32_t)hta_rng_next(&s->route_rng);
        tree_lower(t, m, 0, s->tl[m]);
    }
    return 0;
}

/* Swaps entries i and j of item[], keeping pos[] its inverse (pos[item[k]]
 * = k): Priority's length orders and the fair-share heap. */
static void swap_at(int64_t *item, int64_t *pos, int64_t i, int64_t j)
{
    int64_t a = item[i], b = item[j];
    item[i] = b;
    pos[b] = i;
    item[j] = a;
    pos[a] = j;
}

/* Every queue empty: one bucket per group. */
static int lens_init(sim *s)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        int64_t G = n == s->N ? 1 : hta_cluster_groups(s->c, n);
        ls->ord = malloc((size_t)s->M * sizeof *ls->ord);
        ls->pos = malloc((size_t)s->M * sizeof *ls->pos);
        ls->g = calloc((size_t)G, sizeof *ls->g);
        if (!ls->ord || !ls->pos || !ls->g)
            return -1;
        ls->ng = G;
        for (int32_t m = 0; m < s->M; m++)
            ls->ord[m] = ls->pos[m] = m;
        for (int64_t g = 0; g < G; g++) {
            int32_t lo, hi;
            group_span(s, n, g, &lo, &hi);
            if (!HTA_RESERVE(ls->g[g].st, ls->g[g].cap, 2))
                return -1;
            ls->g[g].st[0] = lo;
            ls->g[g].st[1] = hi;
        }
    }
    return 0;
}

static void lens_free(sim *s)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        for (int64_t g = 0; g < ls->ng; g++)
            free(ls->g[g].st);
        free(ls->g);
        free(ls->ord);
        free(ls->pos);
    }
}

/* Server m's queue grew from l to l + 1; -1 when out of memory. */
static int lens_inc(sim *s, int32_t m, int64_t l)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        int32_t lo, hi;
        lgroup *g = &ls->g[group_of(s, m, n, &lo, &hi)];
        if (l + 1 > g->maxl) { /* a new bucket on top, empty */
            if (!HTA_RESERVE(g->st, g->cap, (size_t)l + 3))
                return -1;
            g->st[l + 2] = hi;
            g->maxl = l + 1;
        }
        int32_t e = g->st[l + 1] - 1; /* the last of bucket l */
        swap_at(ls->ord, ls->pos, ls->pos[m], e);
        g->st[l + 1] = e;
    }
    return 0;
}

/* Server m's queue shrank from l >= 1 to l - 1. */
static void lens_dec(sim *s, int32_t m, int64_t l)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        int32_t lo, hi;
        lgroup *g = &ls->g[group_of(s, m, n, &lo, &hi)];
        int32_t b = g->st[l]; /* the first of bucket l */
        swap_at(ls->ord, ls->pos, ls->pos[m], b);
        g->st[l] = b + 1;
        if (l == g->maxl && g->st[l] == hi)
            g->maxl--;
    }
}

/* A longest queue of server m's group at level n, uniform among the
 * longest; -1 when every queue of the group is empty. */
static int32_t lens_longest(sim *s, int32_t m, int n)
{
    lenset *ls = &s->ls[n];
    int32_t lo, hi;
    const lgroup *g = &ls->g[group_of(s, m, n, &lo, &hi)];
    if (g->maxl == 0)
        return -1;
    int32_t first = g->st[g->maxl];
    int32_t r = (int32_t)ls->ord[first + (int32_t)hta_rng_below32(
                                               &s->route_rng,
                                               (uint32_t)(hi - first))];
#ifdef HTA_CHECKED
    for (int32_t v = lo; v < hi; v++)
        if (s->q[v].len > s->q[r].len)
            s->r->route_errors++;
#endif
    return r;
}

static int64_t sim_group(const void *ctx, int32_t x, int n)
{
    return ((const sim *)ctx)->grp[n][x];
}

/* Level (1..N) of server m for type L (topology.h's rule), from the group
 * ids. */
static int level_of(const sim *s, int64_t L, int32_t m)
{
    const hta_cluster *c = s->c;
    return hta_level_rule(c->srv + c->off[L], c->off[L + 1] - c->off[L], m,
                          s->N, sim_group, s);
}

/* ---- idle servers and servers with work, with their summaries ---- */

static void sum_fix(sim *s, int64_t w)
{
    uint64_t b = (uint64_t)1 << (w % 64);
    if (s->idle[w])
        s->sum_idle[w / 64] |= b;
    else
        s->sum_idle[w / 64] &= ~b;
    if (!s->work)
        return;
    if (s->idle[w] & s->work[w])
        s->sum_ready[w / 64] |= b;
    else
        s->sum_ready[w / 64] &= ~b;
}

/* Server m's bit in set (idle or work) to on, the summaries kept. */
static void set_bit(sim *s, uint64_t *set, int32_t m, int on)
{
    uint64_t b = (uint64_t)1 << (m % 64);
    if (on)
        set[m / 64] |= b;
    else
        set[m / 64] &= ~b;
    sum_fix(s, m / 64);
}

static void set_idle(sim *s, int32_t m, int on)
{
    set_bit(s, s->idle, m, on);
}

static void set_work(sim *s, int32_t m, int on)
{
    set_bit(s, s->work, m, on);
}

/* Every idle server may take a task, or only those with work: jsq-
 * maxweight's while its common queue is empty, gb-pandas' always. */
static int only_with_work(const sim *s)
{
    return s->work && !(s->o->policy == HTA_SIM_JSQ_MAXWEIGHT &&
                        s->q[s->M].len > 0);
}

/* The servers of word w that may take a task. */
static uint64_t candidates(const sim *s, int64_t w)
{
    return only_with_work(s) ? s->idle[w] & s->work[w] : s->idle[w];
}

/* The first word in [w, end) with a candidate, or end. */
static int64_t next_word(const sim *s, int64_t w, int64_t end)
{
    const uint64_t *sum = only_with_work(s) ? s->sum_ready : s->sum_idle;
    while (w < end) {
        uint64_t b = sum[w / 64] & (~(uint64_t)0 << (w % 64));
        if (b) {
            int64_t x = w / 64 * 64 + __builtin_ctzll(b);
            return x < end ? x : end;
        }
        w = (w / 64 + 1) * 64;
    }
    return end;
}

/* ---- the task pool and the queues ---- */

static int64_t task_new(sim *s, int64_t type, hta_diag *d)
{
    int64_t k = s->free_list;
    if (k >= 0) {
        s->free_list = s->tk[k].next;
    } else {
        size_t n = (size_t)s->pool_n + 1;
        if (!HTA_RESERVE(s->tk, s->cap_tk, n)) {
            hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            return -1;
        }
        k = s->pool_n++;
    }
    s->tk[k].type = type;
    s->tk[k].id = s->next_id++;
    s->tk[k].next = -1;
    s->tk[k].job = -1;
    return k;
}

/* Appends task k to the FIFO (head, tail) of tasks. */
static void task_append(sim *s, int64_t *head, int64_t *tail, int empty,
                        int64_t k)
{
    s->tk[k].next = -1;
    if (empty)
        *head = k;
    else
        s->tk[*tail].next = k;
    *tail = k;
}

/* The job node of task k's job in queue qi: the one made for the job's
 * arrival (all its tasks are routed in one go), or a new one at the end
 * of the queue's list; -1 when out of memory. */
static int64_t node_for(sim *s, int64_t qi, int64_t k)
{
    int64_t j = s->tk[k].job;
    if (s->q_stamp[qi] == s->j_seq[j])
        return s->q_node[qi];
    int64_t v = s->n_free;
    if (v >= 0) {
        s->n_free = s->n_next[v];
    } else {
        size_t n = (size_t)s->n_n + 1;
        if (!HTA_RESERVE(s->n_job, s->cap_njob, n) ||
            !HTA_RESERVE(s->n_head, s->cap_nhead, n) ||
            !HTA_RESERVE(s->n_tail, s->cap_ntail, n) ||
            !HTA_RESERVE(s->n_next, s->cap_nnext, n) ||
            !HTA_RESERVE(s->n_prev, s->cap_nprev, n) ||
            !HTA_RESERVE(s->n_len, s->cap_nlen, n))
            return -1;
        v = s->n_n++;
    }
    fifo *f = &s->q[qi];
    s->n_job[v] = j;
    s->n_len[v] = 0;
    s->n_prev[v] = f->len ? f->tail : -1;
    s->n_next[v] = -1;
    if (f->len)
        s->n_next[f->tail] = v;
    else
        f->head = v;
    f->tail = v;
    s->q_stamp[qi] = s->j_seq[j];
    s->q_node[qi] = v;
    return v;
}

/* Appends task k to queue qi; -1 when out of memory. */
static int push(sim *s, int64_t qi, int64_t k)
{
    fifo *f = &s->q[qi];
    if (s->o->subqueues) {
        int64_t v = node_for(s, qi, k);
        if (v < 0)
            return -1;
        task_append(s, &s->n_head[v], &s->n_tail[v], s->n_len[v]++ == 0,
                    k);
    } else {
        task_append(s, &f->head, &f->tail, f->len == 0, k);
    }
    f->len++;
    s->queued++;
    return 0;
}

/* Heap order of jobs: fewer running tasks first, then the earlier job. */
static int job_first(const sim *s, int64_t a, int64_t b)
{
    if (s->j_run[a] != s->j_run[b])
        return s->j_run[a] < s->j_run[b];
    return s->j_seq[a] < s->j_seq[b];
}

/* The head task of queue qi (non-empty); with per-job sub-queues, the
 * head of the sub-queue of the job with the fewest running tasks (then
 * the earliest job; Wang et al., Section V).  O(1), or O(jobs in the
 * queue) with sub-queues. */
static int64_t pop(sim *s, int64_t qi)
{
    fifo *f = &s->q[qi];
    int64_t k;
    if (s->o->subqueues) {
        int64_t v = f->head;
        for (int64_t u = s->n_next[v]; u >= 0; u = s->n_next[u])
            if (job_first(s, s->n_job[u], s->n_job[v]))
                v = u;
        k = s->n_head[v];
        s->n_head[v] = s->tk[k].next;
        if (--s->n_len[v] == 0) { /* unlink the node */
            if (s->n_prev[v] >= 0)
                s->n_next[s->n_prev[v]] = s->n_next[v];
            else
                f->head = s->n_next[v];
            if (s->n_next[v] >= 0)
                s->n_prev[s->n_next[v]] = s->n_prev[v];
            else
                f->tail = s->n_prev[v];
            if (s->q_node[qi] == v)
                s->q_stamp[qi] = -1;
            s->n_next[v] = s->n_free;
            s->n_free = v;
        }
    } else {
        k = f->head;
        f->head = s->tk[k].next;
    }
    f->len--;
    s->queued--;
    return k;
}

/* ---- service times (common random numbers) ---- */

/* Marsaglia and Tsang's ziggurat for the standard normal (J. Stat.
 * Softw. 5(8), 2000), 128 layers: a draw lands inside its layer's
 * rectangle, where it is returned at the cost of one multiplication,
 * 98.8% of the time; otherwise the wedge is tested against the density,
 * or the tail beyond r = 3.44262 sampled by Marsaglia's method.  Exact
 * (rejection), unlike an approximate inverse.  The sign and 31 bits of
 * the value come from the high half of a hash, the layer from its low 7
 * bits (independent bits, which the original 32-bit RNOR did not use;
 * sign and magnitude instead of its signed integer: no conversion out of
 * range, and a symmetric law). */
static void zig_init(sim *s)
{
    const double m1 = 2147483648.0, vn = 9.91256303526217e-3;
    double dn = 3.442619855899, tn = dn;
    double q = vn / exp(-0.5 * dn * dn);
    s->zk[0] = (uint32_t)(dn / q * m1);
    s->zk[1] = 0;
    s->zw[0] = q / m1;
    s->zw[127] = dn / m1;
    s->zf[0] = 1;
    s->zf[127] = exp(-0.5 * dn * dn);
    for (int i = 126; i >= 1; i--) {
        dn = sqrt(-2 * log(vn / dn + exp(-0.5 * dn * dn)));
        s->zk[i + 1] = (uint32_t)(dn / tn * m1);
        tn = dn;
        s->zf[i] = exp(-0.5 * dn * dn);
        s->zw[i] = dn / m1;
    }
}

/* A standard normal from the task's own hash chain, starting at h. */
static double normal(const sim *s, uint64_t h)
{
    const double r = 3.442619855899;
    for (;;) {
        h = mix(h);
        uint32_t az = (uint32_t)(h >> 32) & 0x7FFFFFFFu; /* |value| */
        int neg = (int)(h >> 63);                          /* its sign */
        int iz = (int)(h & 127);
        double x = (neg ? -(double)az : (double)az) * s->zw[iz];
        if (az < s->zk[iz])
            return x;
        if (iz == 0) { /* the tail */
            double y;
            do {
                h = mix(h);
                x = -log(unit_open(h)) / r;
                h = mix(h);
                y = -log(unit_open(h));
            } while (y + y < x * x);
            return neg ? -r - x : r + x;
        }
        h = mix(h);
        if (s->zf[iz] + unit_open(h) * (s->zf[iz - 1] - s->zf[iz]) <
            exp(-0.5 * x * x))
            return x;
    }
}


static int64_t service_slots(const sim *s, int64_t id, int level)
{
    double a = s->aslot[level - 1];
    uint64_t h = mix(s->o->seed ^ mix((uint64_t)id * 8 + (uint64_t)level));
    double u = unit_open(h), x;
    switch (s->o->service) {
    case HTA_SVC_GEOMETRIC:
        /* ceil(log u / log(1 - a)): the least k >= 1 with
         * u >= (1 - a)^k; the first 8 by table, then the logarithm */
        if (a >= 1)
            return 1;
        for (int k = 0; k < 8; k++)
            if (u >= s->gthr[level - 1][k])
                return k + 1;
        x = ceil(log(u) * s->geo[level - 1]);
        break;
    case HTA_SVC_EXPONENTIAL:
        x = -log(u) / a;
        break;
    case HTA_SVC_DETERMINISTIC:
        x = 1 / a;
        break;
    default: /* log-normal of mean 1/a and the given cv */
        x = exp(s->ln_mu[level - 1] + s->ln_sig * normal(s, h));
        break;
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

static void hswap(sim *s, int64_t i, int64_t k)
{
    swap_at(s->hp, s->hpos, i, k);
}

static void hfix(sim *s, int64_t i)
{
    while (i > 0 && job_first(s, s->hp[i], s->hp[(i - 1) / 2])) {
        hswap(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        int64_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->hn && job_first(s, s->hp[l], s->hp[m]))
            m = l;
        if (r < s->hn && job_first(s, s->hp[r], s->hp[m]))
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
    int64_t j = s->tk[k].job;
    s->tk[k].next = -1;
    s->tk[k].prev = s->j_tail[j];
    if (s->j_tail[j] >= 0)
        s->tk[s->j_tail[j]].next = k;
    else
        s->j_head[j] = k;
    s->j_tail[j] = k;
    s->queued++;
    if (s->j_nq[j]++ == 0)
        hpush(s, j);
}

static void job_unlink(sim *s, int64_t k)
{
    int64_t j = s->tk[k].job;
    if (s->tk[k].prev >= 0)
        s->tk[s->tk[k].prev].next = s->tk[k].next;
    else
        s->j_head[j] = s->tk[k].next;
    if (s->tk[k].next >= 0)
        s->tk[s->tk[k].next].prev = s->tk[k].prev;
    else
        s->j_tail[j] = s->tk[k].prev;
    s->queued--;
    if (--s->j_nq[j] == 0)
        hremove(s, j);
}

/* The queued task of job j with the least level for server m, if that
 * level is at most allowed (the level in s->pick_level); -1 otherwise.
 * O(queued tasks). */
static int64_t job_best_task(sim *s, int64_t j, int32_t m, int allowed)
{
    int64_t best = -1;
    int bl = allowed + 1;
    for (int64_t k = s->j_head[j]; k >= 0 && bl > 1; k = s->tk[k].next) {
        int lv = level_of(s, s->tk[k].type, m);
        if (lv < bl) {
            bl = lv;
            best = k;
        }
    }
    s->pick_level = best >= 0 ? bl : 0;
    return best;
}

/* ---- policies: routing ---- */

/* The shortest of the type's local queues, uniform among ties: the
 * least length (no jump on the comparisons: queue lengths are a coin
 * flip), how many have it, then one draw for which. */
static int32_t shortest_local(sim *s, int64_t L, int64_t *len)
{
    const hta_cluster *c = s->c;
    int64_t a = c->off[L], e = c->off[L + 1];
    int64_t bl = s->q[c->srv[a]].len;
    for (int64_t k = a + 1; k < e; k++) {
        int64_t l = s->q[c->srv[k]].len;
        bl = l < bl ? l : bl;
    }
    uint32_t ties = 0;
    int64_t last = a;
    for (int64_t k = a; k < e; k++) {
        int at = s->q[c->srv[k]].len == bl;
        ties += (uint32_t)at;
        last = at ? k : last;
    }
    *len = bl;
    if (ties == 1)
        return c->srv[last];
    uint32_t pick = hta_rng_below32(&s->route_rng, ties);
    for (int64_t k = a;; k++)
        if (s->q[c->srv[k]].len == bl && pick-- == 0)
            return c->srv[k];
}

/* W_m = sum_n Q_m^n / alpha_n from the sub-queue lengths, in one order
 * of operations, so equal lengths give equal workloads (ties are exact,
 * and no rounding drifts); then the tree, W having gone up (a task
 * routed to m) or down (m started one). */
static void gb_update(sim *s, int32_t m, int up)
{
    double w = 0;
    for (int n = 0; n < s->N; n++)
        w += (double)s->q[(int64_t)m * s->N + n].len * s->inv[n];
    s->Wl[m] = w;
    set_work(s, m, w > 0);
    uint32_t tie = (uint32_t)hta_rng_next(&s->route_rng);
    s->tl[m] = tie;
    if (up)
        tree_raise(&s->tr, m, w, tie);
    else
        tree_lower(&s->tr, m, w, tie);
#ifdef HTA_CHECKED
    for (int32_t i = (s->tr.leaf[m] + s->tr.P) / 2; i >= 1; i /= 2) {
        const tnode *a = &s->tr.node[2 * i];
        const tnode *b = node_better(a + 1, a) ? a + 1 : a;
        if (memcmp(b, &s->tr.node[i], sizeof *b) != 0)
            s->r->route_errors++;
    }
#endif
}

/* GB-PANDAS: "route to argmin_m W_m / alpha_{level(m)}", W_m the queued
 * workload sum_n Q_m^n / alpha_n (the task in service not counted).
 * Among equal scores the more local level wins, then chance: with ties
 * broken at random alone, an idle cluster (every W_m = 0) would send
 * tasks anywhere, mostly far.
 *
 * The candidates are groups: per replica r and level n, r's level-n group
 * (r itself at n = 1, the cluster at n = N) with score
 * min_{m in group} W_m / alpha_n.  The least group score is the optimum:
 * every server m lies in the level-level(m) group of some replica, whose
 * score is at most W_m / alpha_level(m); and the best server of a
 * level-n group has level at most n, so its true score is at most the
 * group's.  The winner's level is then exactly n: a lower level would
 * give a lower score (W > 0) or an equal score at a lower n (W = 0),
 * which the tie rule prefers.  O(replicas * levels) with the padded
 * tree, one update of O(log M). */
static int route_gb(sim *s, int64_t k)
{
    const hta_cluster *c = s->c;
    int64_t L = s->tk[k].type;
    cand b = {-1, INFINITY, 0};
    int blevel = s->N + 1;
    /* level by level; no level-n group scores below min_m W_m / alpha_n,
     * which grows with n, so the search stops there (on a tie the lower
     * level already won) */
    double wmin = s->tr.node[1].key;
    for (int n = 1; n <= s->N && b.key > wmin * s->inv[n - 1]; n++) {
        int64_t end = n == s->N ? c->off[L] + 1 : c->off[L + 1];
        for (int64_t j = c->off[L]; j < end; j++) {
            int dup = 0; /* replicas sharing a rack (pod) ask once */
            for (int64_t i = c->off[L]; i < j && n > 1 && n < s->N && !dup;
                 i++)
                dup = s->grp[n][c->srv[i]] == s->grp[n][c->srv[j]];
            if (dup)
                continue;
            int32_t r = c->srv[j];
            cand g = n == 1 ? (cand){r, s->Wl[r], s->tl[r]} :
                              group_best(s, r, n);
            double score = g.key * s->inv[n - 1];
            if (score < b.key ||
                (score == b.key && n == blevel && g.tie < b.tie)) {
                b = g;
                b.key = score;
                blevel = n;
            }
        }
    }
#ifdef HTA_CHECKED
    double truth = INFINITY; /* the definition, over every server */
    for (int32_t m = 0; m < s->M; m++) {
        double sc = s->Wl[m] * s->inv[level_of(s, L, m) - 1];
        if (sc < truth)
            truth = sc;
    }
    if (truth != b.key || level_of(s, L, b.m) != blevel)
        s->r->route_errors++;
#endif
    if (push(s, (int64_t)b.m * s->N + blevel - 1, k) != 0)
        return -1;
    gb_update(s, b.m, 1);
    return 0;
}

/* Routes task k; -1 when out of memory. */
static int route(sim *s, int64_t k)
{
    int64_t L = s->tk[k].type, len = 0;
    switch (s->o->policy) {
    case HTA_SIM_JSQ_MAXWEIGHT: {
        /* "a task joins the shortest of its local queues and the common
         * remote queue" (ties: local) */
        int32_t m = shortest_local(s, L, &len);
        int64_t qi = s->q[s->M].len < len ? s->M : m;
        if (push(s, qi, k) != 0)
            return -1;
        if (qi < s->M && s->q[qi].len == 1)
            set_work(s, m, 1);
        return 0;
    }
    case HTA_SIM_PRIORITY: {
        /* "join the shortest local queue" */
        int32_t m = shortest_local(s, L, &len);
        return push(s, m, k) != 0 || lens_inc(s, m, len) != 0 ? -1 : 0;
    }
    case HTA_SIM_GB_PANDAS:
        return route_gb(s, k);
    case HTA_SIM_FAIR:
    case HTA_SIM_DELAY:
        job_enqueue(s, k);
        return 0;
    default:
        return push(s, 0, k); /* FCFS: one queue */
    }
}

/* ---- policies: what an idle server takes; -1 for nothing ---- */

/* Sets s->pick_level to the task's level when the queue tells it (0:
 * the caller computes it). */
static int64_t pick(sim *s, int32_t m)
{
    s->pick_level = 0;
    switch (s->o->policy) {
    case HTA_SIM_JSQ_MAXWEIGHT: {
        /* "an idle server serves its own queue if alpha Q_m >= gamma
         * Q_common, else the common queue" (N levels: alpha_1, alpha_N) */
        int64_t own = s->q[m].len, com = s->q[s->M].len;
        if (own > 0 && s->alpha[0] * (double)own >=
                           s->alpha[s->N - 1] * (double)com) {
            s->pick_level = 1;
            int64_t k = pop(s, m);
            if (own == 1)
                set_work(s, m, 0);
            return k;
        }
        return com > 0 ? pop(s, s->M) : -1;
    }
    case HTA_SIM_PRIORITY: {
        /* "serve the local queue first, then a queue of the rack, ...,
         * then any": the longest queue of the nearest group */
        int32_t from = m;
        if (s->q[m].len == 0) {
            from = -1;
            for (int n = 2; n <= s->N && from < 0; n++)
                from = lens_longest(s, m, n);
            if (from < 0)
                return -1;
        } else {
            s->pick_level = 1;
        }
        lens_dec(s, from, s->q[from].len);
        return pop(s, from);
    }
    case HTA_SIM_GB_PANDAS:
        /* "serve by strict priority: 1-local, 2-local, ..., N-local" */
        for (int n = 0; n < s->N; n++) {
            int64_t qi = (int64_t)m * s->N + n;
            if (s->q[qi].len) {
                int64_t k = pop(s, qi);
                gb_update(s, m, 0);
                s->pick_level = n + 1;
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
                if (s->pick_level == 1)
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
        return s->q[0].len ? pop(s, 0) : -1;
    }
}

/* ---- a task's arrival and start ---- */

/* Task of type L (of job j, or -1) arrives in slot t and is routed; 1
 * when the run must end before (a stop, or the backlog at its bound:
 * s->unstable), -1 when out of memory (d set). */
static int arrive(sim *s, int64_t L, int64_t t, int64_t j, hta_diag *d)
{
    if (*s->stop)
        return 1;
    if (s->o->max_backlog > 0 && s->in_system >= s->o->max_backlog) {
        s->unstable = 1;
        return 1;
    }
    int64_t k = task_new(s, L, d);
    if (k < 0)
        return -1;
    s->tk[k].arr = t;
    s->tk[k].job = j;
    if (route(s, k) != 0) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        return -1;
    }
    s->in_system++;
    s->r->arrived++;
    return 0;
}

/* Idle server m starts task k in slot t: its level, its service time
 * (filed in the wheel under its last slot), its job's running count. */
static void start_task(sim *s, int32_t m, int64_t k, int64_t t)
{
    int lv = s->pick_level ? s->pick_level : level_of(s, s->tk[k].type, m);
#ifdef HTA_CHECKED
    if (lv != hta_capacity_level(s->c, s->tk[k].type, m))
        s->r->level_errors++;
#endif
    s->task[m] = k;
    s->lvl[m] = lv;
    int64_t j = s->tk[k].job;
    if (j >= 0) {
        s->j_run[j]++;
        if (s->hpos[j] >= 0)
            hfix(s, s->hpos[j]);
    }
    s->fin[m] = t + service_slots(s, s->tk[k].id, lv) - 1;
    int64_t bk = s->fin[m] & (s->wsize - 1);
    s->w_next[m] = s->wheel[bk];
    s->wheel[bk] = m;
    set_idle(s, m, 0);
    s->nidle--;
}

/* ---- set-up ---- */

static void sim_free(sim *s)
{
    lens_free(s);
    for (int n = 0; n < HTA_MAX_LEVELS; n++) {
        free(s->grp[n]);
        free(s->gstart[n]);
    }
    void *arrays[] = {
        s->tk, s->task, s->fin, s->lvl, s->idle, s->work, s->sum_idle,
        s->sum_ready, s->tl, s->w_next, s->wheel, s->q,
        s->Wl, s->tr.leaf, s->tr.node, s->n_job, s->n_head, s->n_tail,
        s->n_next, s->n_prev, s->n_len, s->q_stamp, s->q_node,
        s->prob, s->alias, s->j_arr, s->j_left, s->j_run, s->j_skip,
        s->j_head, s->j_tail, s->j_nq, s->j_seq, s->j_size, s->hp, s->hpos,
        s->tmp};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        free(arrays[i]);
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
    int64_t L = s->c->T < ((int64_t)1 << 32) ?
                    (int64_t)hta_rng_below32(&s->arr_rng, (uint32_t)s->c->T) :
                    (int64_t)hta_rng_below(&s->arr_rng, (uint64_t)s->c->T);
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
    s->n_free = -1;
    double mean_slots = 1;
    for (int n = 0; n < s->N; n++) {
        s->alpha[n] = c->rate[n];
        s->inv[n] = 1 / c->rate[n];
        s->aslot[n] = c->rate[n] / o->per_unit;
        double a = c->rate[n] / o->per_unit;
        s->geo[n] = a < 1 ? 1 / log1p(-a) : 0;
        for (int k = 0; k < 8; k++)
            s->gthr[n][k] = a < 1 ? pow(1 - a, k + 1) : 0;
        double s2 = log1p(o->cv * o->cv);
        s->ln_mu[n] = -log(a) - s2 / 2;
        s->ln_sig = sqrt(s2);
        mean_slots = fmax(mean_slots, 1 / a);
    }
    zig_init(s);
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
    /* the wheel: twice the slowest mean service, 64 .. 2^16 buckets */
    int bits;
    s->wsize = pow2_at_least((int64_t)fmin(fmax(2 * mean_slots, 64), 65536), &bits);
    s->task = malloc(M * sizeof *s->task);
    s->fin = malloc(M * sizeof *s->fin);
    s->lvl = malloc(M * sizeof *s->lvl);
    s->w_next = malloc(M * sizeof *s->w_next);
    s->wheel = malloc((size_t)s->wsize * sizeof *s->wheel);
    s->nwords = (int64_t)(M + 63) / 64;
    s->idle = calloc((size_t)s->nwords, sizeof *s->idle);
    s->sum_idle = calloc(((size_t)s->nwords + 63) / 64, sizeof *s->sum_idle);
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
    if (!s->task || !s->fin || !s->lvl || !s->w_next || !s->wheel ||
        !s->idle || !s->sum_idle || !s->q || build_alias(s) != 0)
        goto oom;
    for (int64_t i = 0; i < s->wsize; i++)
        s->wheel[i] = -1;
    if (o->policy == HTA_SIM_GB_PANDAS || o->policy == HTA_SIM_JSQ_MAXWEIGHT) {
        s->work = calloc((size_t)s->nwords, sizeof *s->work);
        s->sum_ready = calloc(((size_t)s->nwords + 63) / 64,
                              sizeof *s->sum_ready);
        if (!s->work || !s->sum_ready)
            goto oom;
    }
    for (int32_t m = 0; m < c->M; m++)
        s->idle[m / 64] |= (uint64_t)1 << (m % 64);
    for (int64_t w = 0; w < s->nwords; w++)
        sum_fix(s, w);
    s->nidle = c->M;
    if (o->subqueues) {
        s->q_stamp = malloc((size_t)s->nq * sizeof *s->q_stamp);
        s->q_node = malloc((size_t)s->nq * sizeof *s->q_node);
        if (!s->q_stamp || !s->q_node)
            goto oom;
        for (int64_t i = 0; i < s->nq; i++)
            s->q_stamp[i] = -1;
    }
    hta_rng_seed(&s->arr_rng, o->seed);
    hta_rng_seed(&s->route_rng, o->seed ^ 0x5EED5EED5EEDull);
    if (o->policy == HTA_SIM_GB_PANDAS) {
        s->Wl = calloc(M, sizeof *s->Wl);
        s->tl = malloc(M * sizeof *s->tl);
        if (!s->Wl || !s->tl || tree_init(s) != 0)
            goto oom;
    }
    if (o->policy == HTA_SIM_PRIORITY && lens_init(s) != 0)
        goto oom;
    return HTA_OK;
oom:
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

hta_status hta_sim_run(const hta_cluster *c, const hta_sim_opts *o,
                       hta_sim_result *r, hta_diag *d)
{
    memset(r, 0, sizeof *r);
    if (c->levels > 2 && c->ntopo == 0)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the simulator takes a regular topology, not "
                            "an instance's own groups (cluster.h)");
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
    if (o->subqueues && o->arrivals != HTA_ARR_JOBS)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "per-job sub-queues need job arrivals");
    for (int n = 0; n < c->levels; n++)
        if (c->rate[n] / o->per_unit > 1)
            return hta_diag_set(
                d, HTA_ERR_USAGE, NULL, 0,
                "the service rate %g at level %d is %g tasks per slot, "
                "above 1 (a server ends at most one task a slot): give "
                "--slots-per-unit %.0f or more",
                c->rate[n], n + 1, c->rate[n] / o->per_unit,
                ceil(c->rate[n]));
    double arrivals = 0; /* tasks a slot, in expectation */
    for (int64_t L = 0; L < c->T; L++)
        arrivals += c->lambda[L] * o->load / o->per_unit;
    if (!(arrivals <= HTA_SIM_MAX_ARRIVALS))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the arrivals are %g tasks per slot, above "
                            "10^9 (the draws of a slot are 64-bit counts): "
                            "a smaller --load or arrival rates",
                            arrivals);
    sim s;
    hta_status st = sim_init(&s, c, o, r, d);
    if (st == HTA_OK && o->arrivals == HTA_ARR_JOBS && !o->trace_jobs)
        s.job_rate = s.total_rate * o->load / o->per_unit /
                     hta_dist_mean(&o->job_size);
    measure ms;
    if (measure_init(&ms, o) != 0 && st == HTA_OK)
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    int64_t lvl_count[HTA_MAX_LEVELS] = {0};
    double t0 = hta_clock_now();
    r->levels = s.N;
    volatile sig_atomic_t never = 0;
    s.stop = o->stop ? o->stop : &never;
    int64_t t;
    for (t = 1; st == HTA_OK && t <= o->slots; t++) {
        /* 1. arrivals (end: a stop or the backlog's bound ends the run
         * before the slot is whole, so it is not counted) */
        int end = 0;
        if (o->arrivals == HTA_ARR_POISSON) {
            int64_t n_arr =
                poisson(&s.arr_rng, s.total_rate * o->load / o->per_unit);
            for (int64_t a = 0; a < n_arr && !end; a++)
                end = arrive(&s, draw_type(&s), t, -1, d);
        } else if (o->arrivals == HTA_ARR_JOBS) {
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
            for (int64_t q = 0; q < nj && !end; q++) {
                int64_t size = tj ? tj->map[s.trace_next - nj + q] :
                                    hta_dist_draw(&o->job_size, &s.arr_rng);
                int64_t j = job_new(&s, t, size, d);
                if (j < 0) {
                    end = -1;
                    break;
                }
                r->jobs_arrived++;
                for (int64_t a = 0; a < size && !end; a++)
                    end = arrive(&s, draw_type(&s), t, j, d);
            }
        } else {
            for (int64_t L = 0; L < c->T && !end; L++)
                if (hta_rng_unit(&s.arr_rng) <
                    c->lambda[L] * o->load / o->per_unit)
                    end = arrive(&s, L, t, -1, d);
        }
        if (end < 0)
            st = HTA_ERR_INTERNAL;
        if (end)
            break;
        sim_sums *bs = measure_batch(&ms, t); /* NULL in the warm-up */
        /* 2. idle servers start tasks, in cyclic order from a start that
         * moves each slot (no server is always first): the words from
         * the start's to the last, then from the first to the start's,
         * those without a candidate skipped through the summaries */
        int32_t start = (int32_t)(s.rot++ % (uint64_t)c->M);
        int64_t w0 = start / 64;
        for (int pass = 0; pass < 2 && s.queued > 0 && !end; pass++) {
            int64_t wend = pass == 0 ? s.nwords : w0 + 1;
            for (int64_t w = pass == 0 ? w0 : 0;
                 s.queued > 0 && !end && (w = next_word(&s, w, wend)) < wend;
                 w++) {
                uint64_t bits = candidates(&s, w);
                if (w == w0) /* from the start, or up to it */
                    bits &= pass == 0 ? ~(uint64_t)0 << (start % 64) :
                                        ((uint64_t)1 << (start % 64)) - 1;
                while (bits && s.queued > 0) {
                    if (*s.stop) {
                        end = 1;
                        break;
                    }
                    int32_t m = (int32_t)(w * 64 + __builtin_ctzll(bits));
                    bits &= bits - 1;
                    int64_t k = pick(&s, m);
                    if (k < 0)
                        continue;
                    start_task(&s, m, k, t);
                    lvl_count[s.lvl[m] - 1]++;
                }
            }
        }
        if (end)
            break;
        double busy = (double)(c->M - s.nidle);
        ms.all.busy += busy;
        if (bs)
            bs->busy += busy;
        /* 3. departures at the end of the slot: the wheel's bucket */
        for (int32_t *pm = &s.wheel[t & (s.wsize - 1)]; *pm >= 0;) {
            int32_t m = *pm;
            if (s.fin[m] != t) { /* a later turn of the wheel */
                pm = &s.w_next[m];
                continue;
            }
            *pm = s.w_next[m];
            set_idle(&s, m, 1);
            s.nidle++;
            int64_t k = s.task[m];
            double delay = (double)(t - s.tk[k].arr + 1);
            ms.all.delay += delay;
            ms.all.deps += 1;
            if (bs) {
                bs->delay += delay;
                bs->deps += 1;
            }
            int64_t j = s.tk[k].job;
            if (j >= 0) {
                s.j_run[j]--;
                if (s.hpos[j] >= 0)
                    hfix(&s, s.hpos[j]);
                if (--s.j_left[j] == 0) { /* the job is done */
                    r->jobs_done++;
                    if (bs)
                        measure_job(&ms, bs, s.j_size[j],
                                    (double)(t - s.j_arr[j] + 1));
                    s.j_head[j] = s.j_free;
                    s.j_free = j;
                }
            }
            s.tk[k].next = s.free_list;
            s.free_list = k;
            s.in_system--;
            r->departed++;
        }
        ms.all.n += (double)s.in_system;
        if (bs)
            bs->n += (double)s.in_system;
        if (o->trace && o->trace_every > 0 && t % o->trace_every == 0)
            o->trace(o->trace_ctx, t, s.in_system);
        if (*s.stop) { /* the slot is whole: counted */
            t++;
            break;
        }
        if ((t & 1023) == 0 && o->progress) {
            hta_progress p = {hta_sim_policy_names[o->policy],
                              hta_clock_now() - t0, (double)s.in_system,
                              NAN, t};
            o->progress(o->progress_ctx, &p);
        }
    }
    r->slots = t - 1;
    r->in_system = s.in_system;
    r->cut = *s.stop != 0;
    if (st == HTA_OK) {
        measure_finish(&ms, r->slots, r->slots < o->slots, s.unstable, c->M,
                       r);
        int64_t started = 0;
        for (int n = 0; n < s.N; n++)
            started += lvl_count[n];
        for (int n = 0; n < s.N; n++)
            r->level_frac[n] = started ? (double)lvl_count[n] /
                                             (double)started :
                                         0;
    }
    r->seconds = hta_clock_now() - t0;
    measure_free(&ms);
    sim_free(&s);
    if (st != HTA_OK)
        hta_sim_result_free(r);
    return st;
}
