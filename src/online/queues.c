/* The task pool, the FIFO queues threaded through it (with per-job
 * sub-queues: lists of job nodes), the jobs of job arrivals, their task
 * lists (fair, delay) and the fair-share heap. */
#include "core/buf.h"
#include "sim_impl.h"

/* ---- the task pool and the queues ---- */

int64_t sim_task_new(sim *s, int64_t type, hta_diag *d)
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
    if (s->q_stamp[qi] == s->j_seq[j] + 1)
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
    s->q_stamp[qi] = s->j_seq[j] + 1;
    s->q_node[qi] = v;
    return v;
}

/* Appends task k to queue qi; -1 when out of memory. */
int sim_push(sim *s, int64_t qi, int64_t k)
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
int64_t sim_pop(sim *s, int64_t qi)
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
                s->q_stamp[qi] = 0;
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

/* ---- jobs ---- */

int64_t sim_job_new(sim *s, int64_t t, int64_t ntasks, hta_diag *d)
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

void sim_hfix(sim *s, int64_t i)
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

void sim_hpush(sim *s, int64_t j)
{
    s->hp[s->hn] = j;
    s->hpos[j] = s->hn++;
    sim_hfix(s, s->hn - 1);
}

void sim_hremove(sim *s, int64_t j)
{
    int64_t i = s->hpos[j];
    s->hn--;
    if (i != s->hn) {
        hswap(s, i, s->hn);
        sim_hfix(s, i);
    }
    s->hpos[j] = -1;
}

/* Appends task k to its job's queue (fair, delay). */
int sim_job_enqueue(sim *s, int64_t k)
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
        sim_hpush(s, j);
    return sim_jobindex_add(s, k);
}

void sim_job_unlink(sim *s, int64_t k)
{
    int64_t j = s->tk[k].job;
    sim_jobindex_remove(s, k);
    if (s->tk[k].prev >= 0)
        s->tk[s->tk[k].prev].next = s->tk[k].next;
    else
        s->j_head[j] = s->tk[k].next;
    if (s->tk[k].next >= 0)
        s->tk[s->tk[k].next].prev = s->tk[k].prev;
    else
        s->j_tail[j] = s->tk[k].prev;
    s->queued--;
    /* a job set aside (a plug-in's job_aside) is out of the heap */
    if (--s->j_nq[j] == 0 && s->hpos[j] >= 0)
        sim_hremove(s, j);
}

/* The queued task of job j with the least level for server m, if that
 * level is at most allowed (the level in s->pick_level); -1 otherwise:
 * the first such task in the job's order.  By the scan of the job's
 * queued tasks, or for a job whose scan once read more than SIM_JX_FROM
 * tasks by the index, O(levels) (jobindex.c; the checked build compares
 * it with the scan). */
int64_t sim_job_best_task(sim *s, int64_t j, int32_t m, int allowed)
{
    int64_t got = sim_jobindex_best(s, j, m, allowed);
#ifdef HTA_CHECKED
    int lvl = s->pick_level; /* the index's answer, checked below */
#else
    if (got != -2)
        return got;
#endif
    int64_t best = -1;
    int bl = allowed + 1;
    int64_t read = 0;
    for (int64_t k = s->j_head[j]; k >= 0 && bl > 1; k = s->tk[k].next) {
        int lv = level_of(s, s->tk[k].type, m);
        read++;
        if (lv < bl) {
            bl = lv;
            best = k;
        }
    }
    s->pick_level = best >= 0 ? bl : 0;
    if (got == -2 && read > SIM_JX_FROM)
        sim_jobindex_build(s, j);
#ifdef HTA_CHECKED
    if (got != -2) {
        if (best != got || (best >= 0 && bl != lvl))
            s->r->route_errors++;
        s->pick_level = lvl;
    }
#endif
    return best;
}
