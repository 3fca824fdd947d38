/* The policies: where an arriving task is queued (route) and what an idle
 * server takes (pick), each quoted from its paper. */
#include <math.h>
#include <string.h>
#include "sim_impl.h"

/* ---- policies: routing ---- */

/* W_m = sum_n Q_m^n / alpha_n from the sub-queue lengths, in one order
 * of operations, so equal lengths give equal workloads (ties are exact,
 * and no rounding drifts); then the tree, W having gone up (a task
 * routed to m) or down (m started one). */
void sim_gb_update(sim *s, int32_t m, int up)
{
    double w = 0;
    for (int n = 0; n < s->N; n++)
        w += (double)s->q[(int64_t)m * s->N + n].len * s->inv[n];
    s->Wl[m] = w;
    if (s->work)
        set_work(s, m, w > 0);
    uint32_t tie = sim_tree_new_tie(&s->route_rng);
    s->tl[m] = tie;
    if (up)
        sim_tree_raise(&s->tr, m, w, tie);
    else
        sim_tree_lower(&s->tr, m, w, tie);
#ifdef HTA_CHECKED
    for (int32_t i = (sim_tree_leaf_of(&s->tr, m) + s->tr.P) / 2; i >= 1;
         i /= 2) {
        tnode a = tree_at(&s->tr, 2 * i), b = tree_at(&s->tr, 2 * i + 1),
              v = tree_at(&s->tr, i);
        const tnode *best = node_better(&b, &a) ? &b : &a;
        if (memcmp(best, &v, sizeof v) != 0)
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
    double wmin = tree_at(&s->tr, 1).key;
    for (int n = 1; n <= s->N && b.key > wmin * s->inv[n - 1]; n++) {
        int64_t end = n == s->N ? c->off[L] + 1 : c->off[L + 1];
        for (int64_t j = c->off[L]; j < end; j++) {
            int dup = 0; /* replicas sharing a rack (pod) ask once */
            for (int64_t i = c->off[L]; i < j && n > 1 && n < s->N && !dup;
                 i++)
                dup = group_index(s, c->srv[i], n) ==
                      group_index(s, c->srv[j], n);
            if (dup)
                continue;
            int32_t r = c->srv[j];
            cand g = n == 1 ? (cand){r, s->Wl[r], sim_tree_tie(s, r)} :
                              sim_group_best(s, r, n);
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
    /* the definition, over every server: for every routing up to 4096
     * servers, one in 64 above (O(M) each) */
    double truth = INFINITY;
    for (int32_t m = 0; m < s->M && (s->M <= 4096 || s->tk[k].id % 64 == 0);
         m++) {
        double sc = s->Wl[m] * s->inv[level_of(s, L, m) - 1];
        if (sc < truth)
            truth = sc;
    }
    if (truth != INFINITY &&
        (truth != b.key || level_of(s, L, b.m) != blevel))
        s->r->route_errors++;
#endif
    if (sim_push(s, (int64_t)b.m * s->N + blevel - 1, k) != 0)
        return -1;
    sim_gb_update(s, b.m, 1);
    return 0;
}

/* Routes task k; -1 when out of memory. */
int sim_route(sim *s, int64_t k)
{
    if (s->pl)
        return sim_plugin_route(s, k);
    int64_t L = s->tk[k].type, len = 0;
    switch (s->o->policy) {
    case HTA_SIM_JSQ_MAXWEIGHT: {
        /* "a task joins the shortest of its local queues and the common
         * remote queue" (ties: local) */
        int32_t m = sim_shortest(s, L, 1, 0, &len);
        int64_t qi = s->q[s->M].len < len ? s->M : m;
        if (sim_push(s, qi, k) != 0)
            return -1;
        if (qi < s->M && s->q[qi].len == 1)
            set_work(s, m, 1);
        return 0;
    }
    case HTA_SIM_PRIORITY: {
        /* "join the shortest local queue" */
        int32_t m = sim_shortest(s, L, 1, 0, &len);
        return sim_push(s, m, k) != 0 || sim_lens_inc(s, m, len) != 0 ? -1 : 0;
    }
    case HTA_SIM_GB_PANDAS:
        return route_gb(s, k);
    case HTA_SIM_FAIR:
    case HTA_SIM_DELAY:
        return sim_job_enqueue(s, k);
    default:
        return sim_push(s, 0, k); /* FCFS: one queue */
    }
}

/* ---- policies: what an idle server takes; -1 for nothing ---- */

/* Sets s->pick_level to the task's level when the queue tells it (0:
 * the caller computes it). */
int64_t sim_pick(sim *s, int32_t m)
{
    s->pick_level = 0;
    if (s->pl)
        return sim_plugin_pick(s, m);
    switch (s->o->policy) {
    case HTA_SIM_JSQ_MAXWEIGHT: {
        /* "an idle server serves its own queue if alpha Q_m >= gamma
         * Q_common, else the common queue" (N levels: alpha_1, alpha_N) */
        int64_t own = s->q[m].len, com = s->q[s->M].len;
        if (own > 0 && s->alpha[0] * (double)own >=
                           s->alpha[s->N - 1] * (double)com) {
            s->pick_level = 1;
            int64_t k = sim_pop(s, m);
            if (own == 1)
                set_work(s, m, 0);
            return k;
        }
        return com > 0 ? sim_pop(s, s->M) : -1;
    }
    case HTA_SIM_PRIORITY: {
        /* "serve the local queue first, then a queue of the rack, ...,
         * then any": the longest queue of the nearest group */
        int32_t from = m;
        if (s->q[m].len == 0) {
            from = -1;
            for (int n = 2; n <= s->N && from < 0; n++)
                from = sim_lens_longest(s, m, n);
            if (from < 0)
                return -1;
        } else {
            s->pick_level = 1;
        }
        sim_lens_dec(s, from, s->q[from].len);
        return sim_pop(s, from);
    }
    case HTA_SIM_GB_PANDAS:
        /* "serve by strict priority: 1-local, 2-local, ..., N-local" */
        for (int n = 0; n < s->N; n++) {
            int64_t qi = (int64_t)m * s->N + n;
            if (s->q[qi].len) {
                int64_t k = sim_pop(s, qi);
                sim_gb_update(s, m, 0);
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
        int64_t k = sim_job_best_task(s, j, m, s->N);
        sim_job_unlink(s, k);
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
            k = sim_job_best_task(s, j, m, allowed);
            if (k >= 0) {
                if (s->pick_level == 1)
                    s->j_skip[j] = 0;
                sim_job_unlink(s, k);
                break;
            }
            s->j_skip[j]++;
            sim_hremove(s, j); /* set aside; the next job in order */
            s->tmp[n++] = j;
        }
        for (int64_t i = 0; i < n; i++)
            sim_hpush(s, s->tmp[i]);
        return k;
    }
    default:
        return s->q[0].len ? sim_pop(s, 0) : -1;
    }
}
