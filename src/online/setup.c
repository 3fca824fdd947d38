/* The simulator's set-up and release: the per-level groups, the wheel,
 * the idle and work sets, the queues, the alias table over the types, and
 * the policy's own structures. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "sim_impl.h"

/* ---- set-up ---- */

void sim_free(sim *s)
{
    sim_plugin_free(s);
    sim_lens_free(s);
    sim_jobindex_free(s);
    for (int n = 0; n < HTA_MAX_LEVELS; n++)
        free(s->gstart[n]);
    void *arrays[] = {
        s->tk, s->task, s->fin, s->lvl, s->idle, s->work, s->sum_idle,
        s->sum_ready, s->tl, s->w_next, s->wheel, s->q,
        s->Wl, s->tr.leafp1, s->tr.node, s->n_job, s->n_head, s->n_tail,
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

/* The groups of levels 2..N-1 (the type's comment): a regular topology's
 * sizes, or a caller's explicit groups when group g is the run of
 * servers after group g - 1's (the simulator's spans need runs; hta's
 * cluster files always give them). */
static hta_status set_groups(sim *s, hta_diag *d)
{
    const hta_cluster *c = s->c;
    for (int n = 2; n < s->N; n++) {
        if (!c->grp[n]) { /* group 0 is full-sized, or the cluster */
            s->gsize[n] = (int32_t)hta_cluster_group_size(c, n, 0);
            continue;
        }
        int64_t G = hta_cluster_groups(c, n);
        s->xgrp[n] = c->grp[n];
        s->gstart[n] = malloc(((size_t)G + 1) * sizeof *s->gstart[n]);
        if (!s->gstart[n])
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory");
        int64_t at = 0; /* group g must be servers [at, at + size) */
        for (int64_t g = 0; g < G; g++) {
            int64_t size = hta_cluster_group_size(c, n, g);
            if (size < 1 || hta_cluster_group_server(c, n, g, 0) != at ||
                hta_cluster_group_server(c, n, g, size - 1) != at + size - 1)
                return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                    "expected groups of consecutive "
                                    "servers in order at level %d, found "
                                    "group %" PRId64 " elsewhere", n, g);
            s->gstart[n][g] = (int32_t)at;
            at += size;
        }
        s->gstart[n][G] = c->M;
    }
    return HTA_OK;
}

hta_status sim_init(sim *s, const hta_cluster *c,
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
    sim_zig_init(s);
    size_t M = (size_t)c->M;
    hta_status st = set_groups(s, d);
    if (st != HTA_OK)
        return st;
    /* the wheel: twice the slowest mean service, 64 .. 2^16 buckets */
    int bits;
    s->wsize = pow2_at_least(
        (int64_t)fmin(fmax(2 * mean_slots, 64), 65536), &bits);
    s->task = malloc(M * sizeof *s->task);
    s->fin = malloc(M * sizeof *s->fin);
    s->lvl = malloc(M * sizeof *s->lvl);
    s->w_next = malloc(M * sizeof *s->w_next);
    s->wheel = malloc((size_t)s->wsize * sizeof *s->wheel);
    s->nwords = (int64_t)(M + 63) / 64;
    s->idle = calloc((size_t)s->nwords, sizeof *s->idle);
    s->sum_idle = calloc(((size_t)s->nwords + 63) / 64, sizeof *s->sum_idle);
    s->pl = NULL;
    if (o->plugin) {
        /* the run reads its own copy of the table, checked: a plug-in
         * that changes its table (its flags, its name) during a run
         * changes nothing the simulator reads */
        sim_policy_copy(&s->pl_copy, s->pl_name, o->plugin);
        hta_status cst = hta_policy_check(&s->pl_copy, d);
        if (cst != HTA_OK)
            return cst;
        s->pl = &s->pl_copy;
    }
    s->per = !s->pl ? 1 :
             s->pl->per_server == HTA_POLICY_PER_LEVEL ? s->N :
                                                         s->pl->per_server;
    switch (s->pl ? -1 : (int)o->policy) {
    case -1:
        s->nq = (int64_t)M * s->per + s->pl->shared;
        break;
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
    int own_work = s->pl ? (s->pl->flags & HTA_POLICY_OWN_WORK) &&
                               s->per > 0 :
                           o->policy == HTA_SIM_GB_PANDAS ||
                               o->policy == HTA_SIM_JSQ_MAXWEIGHT;
    if (own_work) {
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
        s->q_stamp = calloc((size_t)s->nq, sizeof *s->q_stamp);
        s->q_node = malloc((size_t)s->nq * sizeof *s->q_node);
        if (!s->q_stamp || !s->q_node)
            goto oom;
    }
    hta_rng_seed(&s->arr_rng, o->seed);
    hta_rng_seed(&s->route_rng, o->seed ^ 0x5EED5EED5EEDull);
    int workloads = s->pl ? (s->pl->flags & HTA_POLICY_WORKLOADS) &&
                                s->per == s->N :
                            o->policy == HTA_SIM_GB_PANDAS;
    if (workloads) {
        s->Wl = calloc(M, sizeof *s->Wl);
        s->tl = calloc(M, sizeof *s->tl);
        if (!s->Wl || !s->tl || sim_tree_init(s) != 0)
            goto oom;
#ifdef HTA_CHECKED
        /* the checked build runs small clusters on the eager tree, which
         * the lazy one of the release build must equal output for output
         * (the suite's golden outputs come from the release build) */
        if (c->M <= 4096)
            sim_tree_fill(&s->tr);
#endif
    }
    int lengths = s->pl ? (s->pl->flags & HTA_POLICY_LENGTHS) != 0 :
                          o->policy == HTA_SIM_PRIORITY;
    if (lengths && sim_lens_init(s) != 0)
        goto oom;
    int jobs = s->pl ? (s->pl->flags & HTA_POLICY_JOBS) != 0 :
                       o->policy == HTA_SIM_FAIR || o->policy == HTA_SIM_DELAY;
    if (jobs && sim_jobindex_init(s) != 0)
        goto oom;
    if (s->pl)
        return sim_plugin_init(s, d);
    return HTA_OK;
oom:
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}
