/* The flow-time policies, slot by slot (flowtime.h).
 *
 * Data flow of one slot t:
 *   1. admit the jobs arriving at t (skip idle stretches first);
 *   2. the virtual SRPT schedule of the relaxation takes its N units (the
 *      policies srpt, dsrpt and asrpt follow it);
 *   3. non-preemptive: every running reduce task does its unit;
 *   4. the policy deals the free machines;
 *   5. jobs whose last unit was done finish at t.
 * Every active job is on a list in arrival order (fifo, fair); the SRPT
 * order is the virtual list sorted by remaining work (jobs the relaxation
 * has finished but the policy has not come first, in the order SRPT
 * finished them).  A slot costs O(N + jobs skipped) for fifo and the SRPT
 * family and O(N + active jobs) for fair.
 *
 * After a slot without an event the run leaps over the slots that repeat
 * it (leap.c), up to the slot before the next event: a run costs
 * O(events), not O(slots), times the above (fair: plus O(active jobs log
 * active jobs) a leap).  opts.stepwise computes every slot, the reference
 * the tests hold the leaps to.
 */
#include "hta/flowtime.h"

#include <stdlib.h>
#include <string.h>

#include "hta/num.h"
#include "core/buf.h"
#include "run.h"

const char *const hta_ft_policy_names[HTA_FT_NPOLICIES] = {
    "srpt", "dsrpt", "asrpt", "fifo", "fair"};

void hta_ft_result_free(hta_ft_result *r)
{
    if (!r)
        return;
    free(r->finish);
    r->finish = NULL;
}

void hta_ft_sched_free(hta_ft_sched *s)
{
    if (!s)
        return;
    free(s->e);
    s->e = NULL;
    s->n = s->cap = 0;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

int64_t hta_ft_job_lb(const hta_jobs *j, int64_t i, int32_t machines,
                      int preemptive)
{
    int64_t R = 0, longest = 0;
    for (int64_t k = j->roff[i]; k < j->roff[i + 1]; k++) {
        R += j->red[k];
        if (j->red[k] > longest)
            longest = j->red[k];
    }
    int64_t f = ceil_div(j->map[i], machines);
    if (R == 0)
        return f;
    int64_t r = ceil_div(R, machines);
    if (!preemptive && longest > r)
        r = longest;
    return f + r;
}

/* Notes units of a job's work in this slot (the record and the leap). */
static hta_status note(sim *s, int64_t job, int kind, int64_t task,
                       int64_t units, hta_diag *d)
{
    if (!s->logging || units == 0)
        return HTA_OK;
    if (!HTA_RESERVE(s->log, s->logcap, s->nlog + 1))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    s->log[s->nlog++] =
        (hta_ft_entry){s->t, job, kind, (int32_t)task, units, 1};
    return HTA_OK;
}

/* Appends the slot's units to the record, span slots from slot on. */
hta_status ft_record_log(sim *s, int64_t slot, int64_t span, hta_diag *d)
{
    hta_ft_sched *r = s->rec;
    if (!r || s->nlog == 0)
        return HTA_OK;
    if (!HTA_RESERVE(r->e, r->cap, r->n + s->nlog))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (size_t q = 0; q < s->nlog; q++) {
        hta_ft_entry x = s->log[q];
        x.slot = slot;
        x.span = span;
        r->e[r->n++] = x;
    }
    return HTA_OK;
}

static void finish(sim *s, int64_t i)
{
    s->event = 1;
    s->res->finish[i] = s->t;
    s->res->total += s->t - s->J->arrival[i] + 1;
    s->res->last = s->t;
    s->done++;
    /* unlink from the arrival-order list */
    if (s->prev[i] >= 0)
        s->nxt[s->prev[i]] = s->nxt[i];
    else
        s->head = s->nxt[i];
    if (s->nxt[i] >= 0)
        s->prev[s->nxt[i]] = s->prev[i];
    else
        s->tail = s->prev[i];
    s->active--;
}

static int has_reduce(const sim *s, int64_t i)
{
    return s->J->roff[i + 1] > s->J->roff[i];
}

/* Up to want units of job i's map work; returns the units done. */
static int64_t give_map(sim *s, int64_t i, int64_t want, hta_diag *d,
                        hta_status *st)
{
    int64_t u = s->mrem[i] < want ? s->mrem[i] : want;
    if (u <= 0)
        return 0;
    s->mrem[i] -= u;
    *st = note(s, i, 0, -1, u, d);
    if (s->mrem[i] == 0) {
        s->mapend[i] = s->t;
        s->event = 1;
        if (!has_reduce(s, i))
            finish(s, i);
    }
    return u;
}

/* Reduce work may run in slot t when the map work ended before t. */
static int reduce_ready(const sim *s, int64_t i)
{
    return s->mapend[i] != 0 && s->mapend[i] < s->t;
}

/* Up to want machines on job i's reduce work: units of the pool
 * (preemptive) or tasks started, longest first (non-preemptive), each
 * doing its first unit now.  Returns the machines used. */
static int64_t give_reduce(sim *s, int64_t i, int64_t want, hta_diag *d,
                           hta_status *st)
{
    if (want <= 0 || !reduce_ready(s, i) || s->rrem[i] == 0)
        return 0;
    if (s->pre) {
        int64_t u = s->rrem[i] < want ? s->rrem[i] : want;
        s->rrem[i] -= u;
        *st = note(s, i, 1, -1, u, d);
        if (s->rrem[i] == 0)
            finish(s, i);
        return u;
    }
    const hta_jobs *J = s->J;
    int64_t used = 0;
    while (used < want && J->roff[i] + s->tnext[i] < J->roff[i + 1]) {
        int64_t k = s->perm[J->roff[i] + s->tnext[i]++];
        int64_t len = J->red[k];
        s->rrem[i] -= len;
        used++;
        s->event = 1; /* a task starts */
        *st = note(s, i, 1, k - J->roff[i], 1, d);
        if (len == 1) {
            if (--s->tleft[i] == 0)
                finish(s, i);
        } else {
            s->rjob[s->nrun] = i;
            s->rtask[s->nrun] = k;
            s->rleft[s->nrun] = len - 1;
            s->nrun++;
            s->held[i]++;
        }
    }
    return used;
}

/* Step 3: running tasks do one unit each; returns the machines they hold
 * in this slot. */
static int32_t run_tasks(sim *s, hta_diag *d, hta_status *st)
{
    int32_t busy = s->nrun, kept = 0;
    for (int32_t r = 0; r < s->nrun; r++) {
        int64_t i = s->rjob[r];
        *st = note(s, i, 1, s->rtask[r] - s->J->roff[i], 1, d);
        if (--s->rleft[r] > 0) {
            s->rjob[kept] = i;
            s->rtask[kept] = s->rtask[r];
            s->rleft[kept] = s->rleft[r];
            kept++;
            continue;
        }
        s->held[i]--;
        s->event = 1; /* a task ends */
        if (--s->tleft[i] == 0)
            finish(s, i);
    }
    s->nrun = kept;
    return busy;
}

/* Step 2: "SRPT: in each slot the N units go to the jobs with the least
 * remaining workload M_i + R_i" (the relaxation: map and reduce work of a
 * job may run in the same slot, on any number of machines).  The served
 * jobs are a prefix of the sorted list and keep their order; a job's first
 * M_i units are its map work.
 *
 * Why its total flow time is a lower bound on the optimum F* (the paper's
 * argument, for both scenarios):
 * (a) every feasible schedule is one of the relaxation: drop the rule
 *     that reduce work waits for the slot after the map's last, merge the
 *     two phases into one pool of M_i + R_i units; a non-preemptive
 *     schedule is in particular a preemptive one;
 * (b) the relaxation is one machine of speed N with preemption and
 *     release dates a_i; the total flow time is the sum over slots t of
 *     the number of jobs present at t (arrived, not done before t);
 * (c) SRPT minimises that number at every t (Schrage: take any schedule
 *     and the first slot where it serves a unit of a job j while a job k
 *     with less remaining work waits; swapping the next units of j and k
 *     finishes k no later than j did and j no later than k did, so the
 *     number of jobs done by any slot does not drop; repeat).
 * Hence SRPT's total <= the relaxation's optimum <= F*. */
static hta_status virtual_step(sim *s, hta_diag *d)
{
    int64_t cap = s->N;
    s->nsv = 0;
    hta_status st = HTA_OK;
    while (cap > 0 && s->vhead < s->vend) {
        int64_t i = s->vlist[s->vhead];
        int64_t u = s->vrem[i] < cap ? s->vrem[i] : cap;
        int64_t mu = s->J->map[i] - s->vmap[i];
        if (mu > u)
            mu = u;
        s->vmap[i] += mu;
        if (mu > 0 && s->vmap[i] == s->J->map[i])
            s->event = 1; /* the relaxation's map work of i ends */
        s->sv[s->nsv++] = (served){i, mu, u - mu};
        s->vrem[i] -= u;
        cap -= u;
        if (s->pol == HTA_FT_SRPT) {
            if ((st = note(s, i, 0, -1, mu, d)) != HTA_OK ||
                (st = note(s, i, 1, -1, u - mu, d)) != HTA_OK)
                return st;
        }
        if (s->vrem[i] > 0)
            break; /* cap is 0 */
        s->vhead++;
        s->event = 1; /* the relaxation's job i ends */
        if (s->pol == HTA_FT_SRPT)
            finish(s, i);
        else if (s->res->finish[i] == 0)
            s->vdone[s->vdend++] = i;
    }
    return st;
}

/* Inserts arriving job i into the virtual list, sorted by (remaining,
 * index). */
static void virtual_admit(sim *s, int64_t i)
{
    int64_t lo = s->vhead, hi = s->vend, w = s->vrem[i];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, q = s->vlist[mid];
        if (s->vrem[q] < w || (s->vrem[q] == w && q < i))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (s->vhead > 0 && lo - s->vhead < s->vend - lo) {
        /* shift the front part left */
        memmove(s->vlist + s->vhead - 1, s->vlist + s->vhead,
                (size_t)(lo - s->vhead) * sizeof *s->vlist);
        s->vhead--;
        s->vlist[lo - 1] = i;
        return;
    }
    memmove(s->vlist + lo + 1, s->vlist + lo,
            (size_t)(s->vend - lo) * sizeof *s->vlist);
    s->vlist[lo] = i;
    s->vend++;
}

/* The SRPT order of the policy's unfinished jobs: cursor over the jobs
 * SRPT has finished, then the virtual list. */
typedef struct cursor {
    int64_t a, b;
} cursor;

static int64_t cursor_next(sim *s, cursor *c)
{
    while (c->a < s->vdend) {
        int64_t i = s->vdone[c->a++];
        if (s->res->finish[i] == 0)
            return i;
    }
    while (c->b < s->vend) {
        int64_t i = s->vlist[c->b++];
        if (s->res->finish[i] == 0)
            return i;
    }
    return -1;
}

static cursor cursor_start(sim *s)
{
    /* drop finished jobs at the front of the done list for good */
    while (s->vdhead < s->vdend && s->res->finish[s->vdone[s->vdhead]])
        s->vdhead++;
    return (cursor){s->vdhead, s->vhead};
}

/* "DSRPT: the map work is scheduled exactly as in SRPT; the reduce work
 * SRPT did in a slot is done one slot later" -- here as soon as machines
 * are free from the map work, in SRPT's order, so that the schedule stays
 * within N machines (preemptive only: the paper's analysis device). */
static hta_status step_dsrpt(sim *s, int64_t free, hta_diag *d)
{
    hta_status st = HTA_OK;
    for (int64_t q = 0; q < s->nsv && st == HTA_OK; q++)
        free -= give_map(s, s->sv[q].job, s->sv[q].map, d, &st);
    cursor c = cursor_start(s);
    for (int64_t i; free > 0 && st == HTA_OK &&
                    (i = cursor_next(s, &c)) >= 0;) {
        int64_t rel = s->vred[i] - s->rdone[i]; /* released by t - 1 */
        int64_t u = give_reduce(s, i, rel < free ? rel : free, d, &st);
        s->rdone[i] += u;
        free -= u;
    }
    return st;
}

/* The paper's argument, checked on every run: slot by slot (and after
 * every leap), ASRPT has done at least the map work SRPT (hence DSRPT)
 * has, job by job.  Only the jobs SRPT served now can break it. */
hta_status ft_asrpt_check(const sim *s, hta_diag *d)
{
    if (!s->pre)
        return HTA_OK;
    for (int64_t q = 0; q < s->nsv; q++) {
        int64_t i = s->sv[q].job;
        if (s->J->map[i] - s->mrem[i] < s->vmap[i])
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "internal error: asrpt is behind SRPT's "
                                "map work of job %lld at slot %lld",
                                (long long)i + 1, (long long)s->t);
    }
    return HTA_OK;
}

/* "ASRPT: (1) unfinished reduce tasks already started (non-preemptive);
 * (2) the map tasks in SRPT's list for this slot; (3) the available reduce
 * tasks; (4) the available map tasks" -- (3) and (4) in SRPT's order of
 * the jobs. */
static hta_status step_asrpt(sim *s, int64_t free, hta_diag *d)
{
    hta_status st = HTA_OK;
    for (int64_t q = 0; q < s->nsv && free > 0 && st == HTA_OK; q++)
        free -= give_map(s, s->sv[q].job,
                         s->sv[q].map < free ? s->sv[q].map : free, d, &st);
    cursor c = cursor_start(s);
    for (int64_t i; free > 0 && st == HTA_OK &&
                    (i = cursor_next(s, &c)) >= 0;)
        free -= give_reduce(s, i, free, d, &st);
    c = cursor_start(s);
    for (int64_t i; free > 0 && st == HTA_OK &&
                    (i = cursor_next(s, &c)) >= 0;)
        free -= give_map(s, i, free, d, &st);
    if (st == HTA_OK)
        st = ft_asrpt_check(s, d);
    return st;
}

/* "FIFO: the machines go to the jobs in the order of arrival, each taking
 * all the work it has ready." */
static hta_status step_fifo(sim *s, int64_t free, hta_diag *d)
{
    hta_status st = HTA_OK;
    for (int64_t i = s->head, nx; i >= 0 && free > 0 && st == HTA_OK;
         i = nx) {
        nx = s->nxt[i];
        free -= give_map(s, i, free, d, &st);
        if (s->res->finish[i] == 0)
            free -= give_reduce(s, i, free, d, &st);
    }
    return st;
}

/* Machines job i could use in this slot. */
static int64_t demand(const sim *s, int64_t i)
{
    if (s->mrem[i] > 0)
        return s->mrem[i];
    if (!reduce_ready(s, i))
        return 0;
    if (s->pre)
        return s->rrem[i];
    return s->J->roff[i + 1] - s->J->roff[i] - s->tnext[i];
}

/* "Fair: the machines are shared equally among the jobs with work ready"
 * -- water-filling: a machine goes to a ready job holding the fewest
 * machines in this slot (its running reduce tasks count), ties round
 * robin from a start that moves every slot. */
static hta_status step_fair(sim *s, int64_t free, hta_diag *d)
{
    hta_status st = HTA_OK;
    int64_t nr = 0;
    for (int64_t i = s->head; i >= 0; i = s->nxt[i])
        if (demand(s, i) > 0)
            s->got[nr++] = i;
    s->fnr = nr;
    if (nr == 0)
        return HTA_OK;
    int64_t start = (int64_t)(s->rot++ % (uint64_t)nr), low = INT64_MAX;
    s->fstart = start;
    s->flevel = INT64_MIN; /* no level (no machine free) */
    for (int64_t q = 0; q < nr; q++) {
        int64_t i = s->got[(start + q) % nr];
        s->ready[2 * q] = i;
        s->ready[2 * q + 1] = s->held[i]; /* machines it holds now */
        if (s->held[i] < low)
            low = s->held[i];
    }
    for (int64_t level = low + 1; free > 0 && nr > 0 && st == HTA_OK;
         level++) {
        int64_t kept = 0;
        s->flevel = level;
        for (int64_t q = 0; q < nr; q++) {
            int64_t i = s->ready[2 * q], h = s->ready[2 * q + 1];
            if (free > 0 && h < level && st == HTA_OK) {
                int64_t u = s->mrem[i] > 0 ? give_map(s, i, 1, d, &st) :
                                             give_reduce(s, i, 1, d, &st);
                free -= u;
                h += u;
            }
            if (s->res->finish[i] == 0 && demand(s, i) > 0) {
                s->ready[2 * kept] = i;
                s->ready[2 * kept + 1] = h;
                kept++;
            }
        }
        nr = kept;
    }
    return st;
}

static void sim_free(sim *s)
{
    free(s->log);
    free(s->lm);
    free(s->lr);
    free(s->lv);
    free(s->touched);
    free(s->mrem);
    free(s->rrem);
    free(s->mapend);
    free(s->tnext);
    free(s->tleft);
    free(s->held);
    free(s->perm);
    free(s->prev);
    free(s->nxt);
    free(s->rjob);
    free(s->rtask);
    free(s->rleft);
    free(s->vrem);
    free(s->vmap);
    free(s->vred);
    free(s->rdone);
    free(s->vlist);
    free(s->vdone);
    free(s->sv);
    free(s->ready);
    free(s->got);
}

/* Reduce tasks by length, longest first, then by index. */
typedef struct task_len {
    int64_t len, k;
} task_len;

static int by_length_desc(const void *a, const void *b)
{
    const task_len *x = a, *y = b;
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

static hta_status sim_init(sim *s, const hta_jobs *J, hta_ft_policy p,
                           const hta_ft_opts *o, hta_ft_result *r,
                           hta_diag *d)
{
    size_t n = (size_t)J->n, nt = (size_t)J->roff[J->n];
    memset(s, 0, sizeof *s);
    s->J = J;
    s->N = o->machines;
    s->pre = o->preemptive;
    s->pol = p;
    s->rec = o->record;
    s->res = r;
    s->head = s->tail = -1;
    s->virt = p == HTA_FT_SRPT || p == HTA_FT_DSRPT || p == HTA_FT_ASRPT;
    s->leaps = !o->stepwise;
    size_t N = (size_t)o->machines;
    s->mrem = malloc(n * sizeof *s->mrem);
    s->rrem = malloc(n * sizeof *s->rrem);
    s->mapend = calloc(n, sizeof *s->mapend);
    s->tnext = calloc(n, sizeof *s->tnext);
    s->tleft = malloc(n * sizeof *s->tleft);
    s->held = calloc(n, sizeof *s->held);
    s->perm = malloc((nt + 1) * sizeof *s->perm);
    s->prev = malloc(n * sizeof *s->prev);
    s->nxt = malloc(n * sizeof *s->nxt);
    s->rjob = malloc(N * sizeof *s->rjob);
    s->rtask = malloc(N * sizeof *s->rtask);
    s->rleft = malloc(N * sizeof *s->rleft);
    r->finish = calloc(n, sizeof *r->finish);
    int ok = s->mrem && s->rrem && s->mapend && s->tnext && s->tleft &&
             s->held && s->perm && s->prev && s->nxt && s->rjob &&
             s->rtask && s->rleft && r->finish;
    if (ok && s->virt) {
        s->vrem = malloc(n * sizeof *s->vrem);
        s->vmap = calloc(n, sizeof *s->vmap);
        s->vred = calloc(n, sizeof *s->vred);
        s->rdone = calloc(n, sizeof *s->rdone);
        s->vlist = malloc(n * sizeof *s->vlist);
        s->vdone = malloc(n * sizeof *s->vdone);
        s->sv = malloc((N + 1) * sizeof *s->sv);
        ok = s->vrem && s->vmap && s->vred && s->rdone && s->vlist &&
             s->vdone && s->sv;
    }
    if (ok && s->leaps) {
        s->lm = calloc(n, sizeof *s->lm);
        s->lr = calloc(n, sizeof *s->lr);
        s->lv = calloc(n, sizeof *s->lv);
        s->touched = malloc(n * sizeof *s->touched);
        ok = s->lm && s->lr && s->lv && s->touched;
    }
    if (ok && p == HTA_FT_FAIR) {
        s->ready = malloc(2 * n * sizeof *s->ready);
        s->got = malloc(n * sizeof *s->got);
        ok = s->ready && s->got;
    }
    if (!ok)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        s->mrem[i] = J->map[i];
        s->rrem[i] = hta_jobs_reduce_work(J, (int64_t)i);
        s->tleft[i] = J->roff[i + 1] - J->roff[i];
        if (s->virt)
            s->vrem[i] = s->mrem[i] + s->rrem[i];
    }
    for (size_t k = 0; k < nt; k++)
        s->perm[k] = (int64_t)k;
    task_len *tl = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) { /* tasks of a job, longest first */
        size_t K = (size_t)(J->roff[i + 1] - J->roff[i]);
        if (K < 2)
            continue;
        if (!HTA_RESERVE(tl, cap, K)) {
            free(tl);
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory");
        }
        for (size_t q = 0; q < K; q++) {
            int64_t k = J->roff[i] + (int64_t)q;
            tl[q] = (task_len){J->red[k], k};
        }
        qsort(tl, K, sizeof *tl, by_length_desc);
        for (size_t q = 0; q < K; q++)
            s->perm[J->roff[i] + (int64_t)q] = tl[q].k;
    }
    free(tl);
    return HTA_OK;
}

static void admit(sim *s, int64_t i)
{
    s->prev[i] = s->tail;
    s->nxt[i] = -1;
    if (s->tail >= 0)
        s->nxt[s->tail] = i;
    else
        s->head = i;
    s->tail = i;
    s->active++;
    if (s->virt)
        virtual_admit(s, i);
}

hta_status hta_ft_run(const hta_jobs *J, hta_ft_policy p,
                      const hta_ft_opts *o, hta_ft_result *r, hta_diag *d)
{
    memset(r, 0, sizeof *r);
    r->policy = p;
    if (p == HTA_FT_DSRPT && !o->preemptive)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "dsrpt is defined for the preemptive scenario "
                            "only");
    if (o->machines < 1)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected at least one machine");
    double t0 = hta_clock_now();
    sim s;
    hta_status st = sim_init(&s, J, p, o, r, d);
    s.t = 0;
    while (st == HTA_OK && s.done < J->n) {
        if (s.active == 0 && (s.vhead == s.vend) &&
            J->arrival[s.next] > s.t + 1)
            s.t = J->arrival[s.next]; /* an idle stretch */
        else
            s.t++;
        r->slots++;
        r->steps++;
        s.event = 0;
        s.nlog = 0;
        while (s.next < J->n && J->arrival[s.next] == s.t)
            admit(&s, s.next++);
        int leap_next = s.leaps && (s.next == J->n ||
                                    J->arrival[s.next] > s.t + 1);
        s.logging = leap_next || s.rec;
        if (s.virt && (st = virtual_step(&s, d)) != HTA_OK)
            break;
        int64_t free = s.N;
        if (!s.pre)
            free -= run_tasks(&s, d, &st);
        if (st != HTA_OK)
            break;
        switch (p) {
        case HTA_FT_SRPT:
            break;
        case HTA_FT_DSRPT:
            st = step_dsrpt(&s, free, d);
            break;
        case HTA_FT_ASRPT:
            st = step_asrpt(&s, free, d);
            break;
        case HTA_FT_FIFO:
            st = step_fifo(&s, free, d);
            break;
        default:
            st = step_fair(&s, free, d);
            break;
        }
        if (s.virt) /* SRPT's reduce units of t are released at t + 1 */
            for (int64_t q = 0; q < s.nsv; q++)
                s.vred[s.sv[q].job] += s.sv[q].red;
        if (st == HTA_OK)
            st = ft_record_log(&s, s.t, 1, d);
        if (st == HTA_OK && leap_next && !s.event && s.done < J->n)
            st = ft_try_leap(&s, d);
        if ((r->steps & 4095) == 0) {
            if (o->stop && *o->stop) {
                r->cut = 1;
                break;
            }
            if (o->progress) {
                hta_progress pr = {hta_ft_policy_names[p],
                                   hta_clock_now() - t0, (double)s.done,
                                   (double)J->n, s.t};
                o->progress(o->progress_ctx, &pr);
            }
        }
    }
    r->seconds = hta_clock_now() - t0;
    sim_free(&s);
    if (st != HTA_OK)
        hta_ft_result_free(r);
    return st;
}
