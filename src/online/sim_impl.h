/* The online simulator's state, internal to src/online/ (sim.h is the
 * public side): the types every part of the engine shares, the functions
 * one file gives another, and the small helpers of the hot path (levels,
 * idle and work bits, group spans), kept inline here so that splitting
 * the engine into files costs no call on them.
 *
 * Files: sim.c the slot loop; setup.c allocation and release; queues.c
 * the task pool, the FIFO queues, per-job sub-queues, jobs and the fair-
 * share heap; jobindex.c each job's queued tasks by level and group;
 * policy.c routing and picking (every policy); mintree.c GB-PANDAS'
 * arg-min tree; lengths.c Priority's length orders; service.c service
 * times and the Poisson draws.
 */
#ifndef HTA_ONLINE_SIM_IMPL_H
#define HTA_ONLINE_SIM_IMPL_H

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

#include "hta/capacity.h"
#include "hta/policy.h"
#include "hta/rng.h"
#include "hta/sim.h"
#include "hta/topology.h"

typedef struct fifo {
    int64_t head, tail, len; /* len: tasks; head, tail: tasks, or with
                                per-job sub-queues the job nodes */
} fifo;

/* Arg-min over servers (GB-PANDAS' workloads).  Padded layout: every
 * group (rack, pod, ...) is one subtree, its children counts rounded up
 * to powers of two, so a group's best is one node; when that padding
 * would take more than 4 times the plain tree, servers are leaves in
 * order and a group's best is a range query of O(log M) nodes.
 *
 * Lazy: a node never written holds zero bytes (calloc's untouched pages)
 * and stands for its initial value, computed when read (tree_at): every
 * server at workload 0 with its initial tie, which is a function of its
 * leaf i, ((i ^ mask) << (32 - bits)) | salt bits | 1, so that the
 * initial best of a subtree is the leaf of its block closest to the mask
 * in the xor sense, found bit by bit (mintree.c).  A cluster that
 * declares 2^24 servers and routes to a few costs the nodes of their
 * paths.  Ties written later are odd too, so a written node is never
 * zero. */
typedef struct tnode {
    double key;
    uint32_t tie; /* random tie-break, odd */
    int32_t arg;  /* the server */
} tnode;

typedef struct tree {
    int32_t P;        /* leaves: a power of two, 2^bits */
    int bits;
    int padded;
    int shift[HTA_MAX_LEVELS + 1]; /* padded: level-n group of leaf i is
                                      node (i + P) >> shift[n] */
    /* padded: field k of a leaf (bits foff[k] ..) is the server's index
     * in its level-(k + 2) group, below fbound[k], weighing fstride[k];
     * field nf (the top) its group of level N - 1 */
    int nf;
    int foff[HTA_MAX_LEVELS + 1];
    int32_t fbound[HTA_MAX_LEVELS];
    int64_t fstride[HTA_MAX_LEVELS + 1];
    int32_t M;
    uint32_t mask;    /* of the initial ties */
    uint64_t salt;
    int32_t *leafp1;  /* padded: [M] the leaf of each server + 1, 0: not
                         yet computed */
    tnode *node;      /* [2P], zero bytes: never written */
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
    int32_t *ord, *pos; /* [M], as offsets (lengths.c) */
    lgroup *g;          /* per group of the level */
    int64_t *made;      /* the groups whose buckets were made */
    size_t cap_made;
    int64_t nmade;
} lenset;

/* Fair sharing's and delay scheduling's index of each job's queued
 * tasks by level and group (jobindex.c). */
typedef struct jslot {
    int64_t job; /* -1: empty */
    uint64_t key;
    int64_t head, tail; /* entries */
} jslot;

typedef struct jobindex {
    int64_t *off;  /* [T + 1]: type L's (level, group) keys */
    uint64_t *key; /* off[L] .. off[L + 1] */
    int E;         /* the most keys of a type: entries per task */
    int64_t *prev, *next; /* [tasks * E] the lists' links */
    size_t cap_prev, cap_next;
    jslot *slot;   /* [cap], a power of two, at most half full */
    size_t cap;
    int64_t n;
    unsigned char *on; /* [jobs] 1: the job's tasks are indexed (from a
                          scan of more than SIM_JX_FROM tasks until its
                          queue empties) */
    size_t cap_on, n_on;
} jobindex;

#define SIM_JX_FROM 64

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
    /* groups of levels 2..N-1, runs of consecutive servers: a regular
     * topology's are gsize[n] servers (the last cut at M), computed, so
     * that servers no type touches cost no memory; a library caller's
     * explicit groups (hta_cluster_from_instance) are read from xgrp[n]
     * with each group's first server in gstart[n] (+ end) */
    int32_t gsize[HTA_MAX_LEVELS];
    const int32_t *xgrp[HTA_MAX_LEVELS];
    int32_t *gstart[HTA_MAX_LEVELS];
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
    int pick_level; /* the level of the task sim_pick() returned, 0: unknown */
    double *Wl;      /* gb-pandas workloads W_m */
    uint32_t *tl;    /* and their ties (the tree's leaves, at hand; 0:
                        the initial tie, sim_tree_tie) */
    tree tr;
    lenset ls[HTA_MAX_LEVELS + 1]; /* priority: levels 2..N */
    /* per-job sub-queues (opts.subqueues): each queue a list of job
     * nodes, each node a FIFO of the job's tasks in that queue */
    int64_t *n_job, *n_head, *n_tail, *n_next, *n_prev, *n_len;
    size_t cap_njob, cap_nhead, cap_ntail, cap_nnext, cap_nprev, cap_nlen;
    int64_t n_n, n_free;
    int64_t *q_stamp, *q_node; /* the node of the arriving job per queue,
                                  stamp: its j_seq + 1, 0 none */
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
    jobindex jx; /* fair, delay */
    double job_rate;   /* jobs per slot */
    int64_t trace_next;
    volatile sig_atomic_t *stop; /* opts.stop, or a flag never set */
    int unstable;                /* the backlog reached opts.max_backlog */
    int64_t now;                 /* the slot */
    /* a plugged-in policy (opts.plugin, view.c): its view and state,
     * the call under way (PL_ROUTE task pl_task, PL_SERVE server
     * pl_server) and what it did, the tasks in shared queues, the
     * queues per server (per = 1 for the built-ins' server queues) */
    const hta_policy *pl; /* &pl_copy, or NULL: a built-in */
    hta_policy pl_copy;   /* the plug-in's table as the run began */
    char pl_name[40];     /* and its name (at most 32 bytes) */
    void *pl_state;
    int pl_inited;
    hta_view view;
    int pl_call;
    int64_t pl_task, pl_popped;
    int32_t pl_server;
    int pl_pushes;
    int pl_failed;
    char pl_err[256];
    int64_t shared_queued;
    int per;
    int64_t pl_best;     /* the task hta_view_job_best gave last, -1 */
    int pl_best_level;   /* and its level */
    int32_t pl_best_server; /* and the server it was asked for */
    int64_t pl_aside;    /* jobs set aside in this serve, in s->tmp */
} sim;

enum { PL_NONE, PL_ROUTE, PL_SERVE };

/* ---- set-up (setup.c) ---- */
hta_status sim_init(sim *s, const hta_cluster *c, const hta_sim_opts *o,
                    hta_sim_result *r, hta_diag *d);
void sim_free(sim *s);

/* A copy of plug-in table src into dst, its name into name (at most 39
 * bytes read, NUL-terminated), so that a plug-in that changes its table
 * during the runs changes nothing the simulator reads; check the copy
 * (hta_policy_check).  Returns the name's length. */
size_t sim_policy_copy(hta_policy *dst, char name[40], const hta_policy *src);

/* ---- service times and draws (service.c) ---- */
int64_t sim_poisson(hta_rng *r, double lam);
void sim_zig_init(sim *s);
/* The service time in slots of task id at a level (1..N): a function of
 * the seed, the task and the level alone (common random numbers). */
int64_t sim_service_slots(const sim *s, int64_t id, int level);

/* ---- the task pool, queues and jobs (queues.c) ---- */
int64_t sim_task_new(sim *s, int64_t type, hta_diag *d);
int sim_push(sim *s, int64_t qi, int64_t k);
int64_t sim_pop(sim *s, int64_t qi);
int64_t sim_job_new(sim *s, int64_t t, int64_t ntasks, hta_diag *d);
void sim_hfix(sim *s, int64_t i);
void sim_hpush(sim *s, int64_t j);
void sim_hremove(sim *s, int64_t j);
int sim_job_enqueue(sim *s, int64_t k);
void sim_job_unlink(sim *s, int64_t k);
int64_t sim_job_best_task(sim *s, int64_t j, int32_t m, int allowed);

/* ---- the jobs' index (jobindex.c) ---- */
int sim_jobindex_init(sim *s);
void sim_jobindex_free(sim *s);
/* Task k, just queued at its job's tail, joins the index when its job is
 * indexed; -1 when out of memory. */
int sim_jobindex_add(sim *s, int64_t k);
/* Job j's queued tasks indexed, from now until its queue empties (not,
 * when the table cannot grow: the job stays scanned). */
void sim_jobindex_build(sim *s, int64_t j);
/* Task k, before it leaves its job's queue. */
void sim_jobindex_remove(sim *s, int64_t k);
/* sim_job_best_task's answer (its comment) by the index; -2 when job j
 * is not indexed. */
int64_t sim_jobindex_best(sim *s, int64_t j, int32_t m, int allowed);

/* ---- policies (policy.c) ---- */
/* Routes task k: 0, -1 when out of memory, -2 when a plugged-in policy
 * failed (s->pl_err). */
int sim_route(sim *s, int64_t k);
/* The task idle server m starts, -1 for none, -2 when a plugged-in
 * policy failed. */
int64_t sim_pick(sim *s, int32_t m);

/* GB-PANDAS' workload of server m from its level queues (m * N + n),
 * then the arg-min tree, W having gone up (a task queued at m) or down
 * (m took one); a new tie from the routing stream (policy.c). */
void sim_gb_update(sim *s, int32_t m, int up);

/* ---- a plugged-in policy (plugin.c) ---- */
/* The view and the policy's init; after the queues are made. */
hta_status sim_plugin_init(sim *s, hta_diag *d);
void sim_plugin_free(sim *s);
int sim_plugin_route(sim *s, int64_t k);
int64_t sim_plugin_pick(sim *s, int32_t m);

/* ---- GB-PANDAS' arg-min tree (mintree.c) ---- */
int sim_tree_init(sim *s);
/* Node i's initial value (every server at workload 0), for tree_at. */
tnode sim_tree_fresh(const tree *t, int32_t i);
int32_t sim_tree_leaf_of(tree *t, int32_t m);
/* Server m's tie: the one written last, or its initial one. */
uint32_t sim_tree_tie(sim *s, int32_t m);
/* A tie for a new workload: random, odd. */
static inline uint32_t sim_tree_new_tie(hta_rng *r)
{
    return (uint32_t)hta_rng_next(r) | 1;
}
void sim_tree_lower(tree *t, int32_t m, double key, uint32_t tie);
void sim_tree_raise(tree *t, int32_t m, double key, uint32_t tie);
cand sim_group_best(sim *s, int32_t r, int n);
/* Every node written, from the leaves up (the eager tree). */
void sim_tree_fill(tree *t);

/* ---- Priority's length orders (lengths.c) ---- */
int sim_lens_init(sim *s);
void sim_lens_free(sim *s);
int sim_lens_inc(sim *s, int32_t m, int64_t l);
void sim_lens_dec(sim *s, int32_t m, int64_t l);
int32_t sim_lens_longest(sim *s, int32_t m, int n);

/* ---- inline helpers of the hot path ---- */

/* Node i of the arg-min tree, its initial value if never written. */
static inline tnode tree_at(const tree *t, int32_t i)
{
    tnode v = t->node[i];
    return v.tie ? v : sim_tree_fresh(t, i);
}

/* a before b: the lesser key, then the lesser tie, then the lesser
 * server (a total order: every layout and every way of updating gives
 * the same winner) */
static inline int node_better(const tnode *a, const tnode *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    if (a->tie != b->tie)
        return a->tie < b->tie;
    return a->arg < b->arg;
}

/* The servers [lo, hi) of group g at level n >= 2 (level N: the
 * cluster, group 0). */
static inline void group_span(const sim *s, int n, int64_t g, int32_t *lo,
                       int32_t *hi)
{
    if (n == s->N) {
        *lo = 0;
        *hi = s->M;
    } else if (s->xgrp[n]) {
        *lo = s->gstart[n][g];
        *hi = s->gstart[n][g + 1];
    } else {
        int64_t a = g * s->gsize[n], b = a + s->gsize[n];
        *lo = (int32_t)a;
        *hi = (int32_t)(b < s->M ? b : s->M);
    }
}

/* The index of server m's group at level n, 2 <= n < N. */
static inline int32_t group_index(const sim *s, int32_t m, int n)
{
    return s->xgrp[n] ? s->xgrp[n][m] : m / s->gsize[n];
}

/* The index of server m's group at level n >= 2, and its span. */
static inline int64_t group_of(const sim *s, int32_t m, int n, int32_t *lo,
                        int32_t *hi)
{
    int64_t g = n == s->N ? 0 : group_index(s, m, n);
    group_span(s, n, g, lo, hi);
    return g;
}

static inline int32_t pow2_at_least(int64_t n, int *bits)
{
    int32_t p = 1;
    *bits = 0;
    while (p < n) {
        p *= 2;
        ++*bits;
    }
    return p;
}

/* Swaps entries i and j of item[], keeping pos[] its inverse (pos[item[k]]
 * = k): Priority's length orders and the fair-share heap. */
static inline void swap_at(int64_t *item, int64_t *pos, int64_t i, int64_t j)
{
    int64_t a = item[i], b = item[j];
    item[i] = b;
    pos[b] = i;
    item[j] = a;
    pos[a] = j;
}

static inline int64_t sim_group(const void *ctx, int32_t x, int n)
{
    return group_index((const sim *)ctx, x, n);
}

/* The shortest of queue j of type L's replicas (queue m * per + j of
 * replica m), uniform among ties: the least length (no jump on the
 * comparisons: queue lengths are a coin flip), how many have it, then
 * one draw of the routing stream for which; *len its length.  The
 * built-ins' JSQ step (per 1, j 0) and the view's hta_view_shortest. */
static inline int32_t sim_shortest(sim *s, int64_t L, int64_t per, int64_t j,
                                   int64_t *len)
{
    const hta_cluster *c = s->c;
    const int32_t *r = c->srv;
    int64_t a = c->off[L], e = c->off[L + 1];
    int64_t bl = s->q[r[a] * per + j].len;
    for (int64_t k = a + 1; k < e; k++) {
        int64_t l = s->q[r[k] * per + j].len;
        bl = l < bl ? l : bl;
    }
    uint32_t ties = 0;
    int64_t last = a;
    for (int64_t k = a; k < e; k++) {
        int at = s->q[r[k] * per + j].len == bl;
        ties += (uint32_t)at;
        last = at ? k : last;
    }
    *len = bl;
    if (ties == 1)
        return r[last];
    uint32_t pick = hta_rng_below32(&s->route_rng, ties);
    for (int64_t k = a;; k++)
        if (s->q[r[k] * per + j].len == bl && pick-- == 0)
            return r[k];
}

/* Level (1..N) of server m for type L (topology.h's rule), from the group
 * ids. */
static inline int level_of(const sim *s, int64_t L, int32_t m)
{
    const hta_cluster *c = s->c;
    return hta_level_rule(c->srv + c->off[L], c->off[L + 1] - c->off[L], m,
                          s->N, sim_group, s);
}

/* ---- idle servers and servers with work, with their summaries ---- */

static inline void sum_fix(sim *s, int64_t w)
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
static inline void set_bit(sim *s, uint64_t *set, int32_t m, int on)
{
    uint64_t b = (uint64_t)1 << (m % 64);
    if (on)
        set[m / 64] |= b;
    else
        set[m / 64] &= ~b;
    sum_fix(s, m / 64);
}

static inline void set_idle(sim *s, int32_t m, int on)
{
    set_bit(s, s->idle, m, on);
}

static inline void set_work(sim *s, int32_t m, int on)
{
    set_bit(s, s->work, m, on);
}

#endif
