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
#include "hta/pool.h"
#include "hta/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hta/num.h"
#include "measure.h"
#include "sim_impl.h"

const char *const hta_sim_policy_names[HTA_SIM_NPOLICIES] = {
    "jsq-maxweight", "priority", "gb-pandas", "fcfs", "fair", "delay"};

const char *const hta_sim_class_names[HTA_SIM_CLASSES] = {
    "1", "2-10", "11-100", "101-1000", ">1000"};

const char *const hta_sim_verdict_names[4] = {"stable", "growing",
                                              "undecided", "unstable"};

const char *hta_sim_opts_policy_name(const hta_sim_opts *o)
{
    return o->plugin ? o->plugin->name : hta_sim_policy_names[o->policy];
}

void hta_sim_result_free(hta_sim_result *r)
{
    if (r)
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

int64_t hta_sim_backlog_for(int runs)
{
    double mem = hta_mem_usable();
    /* a task in system costs its pool entry (48 bytes) and its share of
     * the pool's doubling (up to twice as much while it is copied) and of
     * queue and job nodes: a sixteenth of the memory in 48-byte tasks
     * stays within about a quarter of it (33 million tasks took 1.55 GB
     * of 24 GiB), shared by the runs going at once */
    double n = mem > 0 ? mem / 16 / 48 / (double)(runs > 1 ? runs : 1) :
                         1e6;
    return n < 1e4 ? 10000 : n > 1e15 ? (int64_t)1e15 : (int64_t)n;
}

int64_t hta_sim_default_backlog(void)
{
    long procs = sysconf(_SC_NPROCESSORS_ONLN);
    return hta_sim_backlog_for(procs > 1 ? (int)procs : 1);
}

/* Every idle server may take a task, or only those with work: jsq-
 * maxweight's while its common queue is empty, gb-pandas' always, a
 * plug-in's with HTA_POLICY_OWN_WORK while its shared queues are
 * empty. */
static int only_with_work(const sim *s)
{
    if (s->pl)
        return s->work && s->shared_queued == 0;
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

/* ---- a task's arrival and start ---- */

/* Task of type L (of job j, or -1) arrives in slot t and is routed; 1
 * when the run must end before (a stop, or the backlog at its bound:
 * s->unstable), -1 when out of memory, -2 when a plugged-in policy
 * failed (d set). */
static int arrive(sim *s, int64_t L, int64_t t, int64_t j, hta_diag *d)
{
    if (*s->stop)
        return 1;
    if (s->o->max_backlog > 0 && s->in_system >= s->o->max_backlog) {
        s->unstable = 1;
        return 1;
    }
    int64_t k = sim_task_new(s, L, d);
    if (k < 0)
        return -1;
    s->tk[k].arr = t;
    s->tk[k].job = j;
    int rc = sim_route(s, k);
    if (rc == -2) {
        hta_diag_set(d, HTA_ERR_INPUT, NULL, 0, "%s", s->pl_err);
        return -2;
    }
    if (rc != 0) {
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
            sim_hfix(s, s->hpos[j]);
    }
    s->fin[m] = t + sim_service_slots(s, s->tk[k].id, lv) - 1;
    int64_t bk = s->fin[m] & (s->wsize - 1);
    s->w_next[m] = s->wheel[bk];
    s->wheel[bk] = m;
    set_idle(s, m, 0);
    s->nidle--;
}

static int64_t draw_type(sim *s)
{
    int64_t L = s->c->T < ((int64_t)1 << 32) ?
                    (int64_t)hta_rng_below32(&s->arr_rng, (uint32_t)s->c->T) :
                    (int64_t)hta_rng_below(&s->arr_rng, (uint64_t)s->c->T);
    return hta_rng_unit(&s->arr_rng) < s->prob[L] ? L : s->alias[L];
}

/* The run's options against the cluster, before any allocation. */
static hta_status check_opts(const hta_cluster *c, const hta_sim_opts *o,
                             hta_diag *d)
{
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
    if (o->plugin) {
        hta_status st = hta_policy_check(o->plugin, d);
        if (st != HTA_OK)
            return st;
    }
    int jobpol = !o->plugin &&
                 (o->policy == HTA_SIM_FAIR || o->policy == HTA_SIM_DELAY);
    if (jobpol && o->arrivals != HTA_ARR_JOBS)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "%s schedules jobs: it needs job arrivals",
                            hta_sim_opts_policy_name(o));
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
    return HTA_OK;
}

/* 1. The arrivals of slot t: 0, or 1 when a stop or the backlog's bound
 * ends the run before the slot is whole (it is not counted), -1 when out
 * of memory, -2 when a plugged-in policy failed (d set). */
static int slot_arrivals(sim *s, int64_t t, hta_diag *d)
{
    const hta_cluster *c = s->c;
    const hta_sim_opts *o = s->o;
    int end = 0;
    if (o->arrivals == HTA_ARR_POISSON) {
        int64_t n_arr =
            sim_poisson(&s->arr_rng, s->total_rate * o->load / o->per_unit);
        for (int64_t a = 0; a < n_arr && !end; a++)
            end = arrive(s, draw_type(s), t, -1, d);
    } else if (o->arrivals == HTA_ARR_JOBS) {
        int64_t nj = 0;
        const hta_jobs *tj = o->trace_jobs;
        if (tj) {
            while (s->trace_next < tj->n && tj->arrival[s->trace_next] < t)
                s->trace_next++; /* none: arrivals are non-decreasing */
            while (s->trace_next < tj->n && tj->arrival[s->trace_next] == t)
                nj++, s->trace_next++;
        } else {
            nj = sim_poisson(&s->arr_rng, s->job_rate);
        }
        for (int64_t q = 0; q < nj && !end; q++) {
            int64_t size = tj ? tj->map[s->trace_next - nj + q] :
                                hta_dist_draw(&o->job_size, &s->arr_rng);
            int64_t j = sim_job_new(s, t, size, d);
            if (j < 0)
                return -1;
            s->r->jobs_arrived++;
            for (int64_t a = 0; a < size && !end; a++)
                end = arrive(s, draw_type(s), t, j, d);
        }
    } else {
        for (int64_t L = 0; L < c->T && !end; L++)
            if (hta_rng_unit(&s->arr_rng) <
                c->lambda[L] * o->load / o->per_unit)
                end = arrive(s, L, t, -1, d);
    }
    return end;
}

/* 2. Idle servers start tasks, in cyclic order from a start that moves
 * each slot (no server is always first): the words from the start's to
 * the last, then from the first to the start's, those without a
 * candidate skipped through the summaries.  1 when a stop ends the run,
 * -1 when a plugged-in policy failed (d set). */
static int slot_starts(sim *s, int64_t t, int64_t *lvl_count, hta_diag *d)
{
    int32_t start = (int32_t)(s->rot++ % (uint64_t)s->M);
    int64_t w0 = start / 64;
    for (int pass = 0; pass < 2 && s->queued > 0; pass++) {
        int64_t wend = pass == 0 ? s->nwords : w0 + 1;
        for (int64_t w = pass == 0 ? w0 : 0;
             s->queued > 0 && (w = next_word(s, w, wend)) < wend; w++) {
            uint64_t bits = candidates(s, w);
            if (w == w0) /* from the start, or up to it */
                bits &= pass == 0 ? ~(uint64_t)0 << (start % 64) :
                                    ((uint64_t)1 << (start % 64)) - 1;
            while (bits && s->queued > 0) {
                if (*s->stop)
                    return 1;
                int32_t m = (int32_t)(w * 64 + __builtin_ctzll(bits));
                bits &= bits - 1;
                int64_t k = sim_pick(s, m);
                if (k == -2) {
                    hta_diag_set(d, HTA_ERR_INPUT, NULL, 0, "%s", s->pl_err);
                    return -1;
                }
                if (k < 0)
                    continue;
                start_task(s, m, k, t);
                lvl_count[s->lvl[m] - 1]++;
            }
        }
    }
    return 0;
}

/* 3. The departures at the end of slot t: the wheel's bucket; the
 * delays go to the whole run's sums and to batch bs (NULL in the
 * warm-up). */
static void slot_departures(sim *s, measure *ms, sim_sums *bs, int64_t t)
{
    for (int32_t *pm = &s->wheel[t & (s->wsize - 1)]; *pm >= 0;) {
        int32_t m = *pm;
        if (s->fin[m] != t) { /* a later turn of the wheel */
            pm = &s->w_next[m];
            continue;
        }
        *pm = s->w_next[m];
        set_idle(s, m, 1);
        s->nidle++;
        int64_t k = s->task[m];
        double delay = (double)(t - s->tk[k].arr + 1);
        ms->all.delay += delay;
        ms->all.deps += 1;
        if (bs) {
            bs->delay += delay;
            bs->deps += 1;
        }
        int64_t j = s->tk[k].job;
        if (j >= 0) {
            s->j_run[j]--;
            if (s->hpos[j] >= 0)
                sim_hfix(s, s->hpos[j]);
            if (--s->j_left[j] == 0) { /* the job is done */
                s->r->jobs_done++;
                if (bs)
                    measure_job(ms, bs, s->j_size[j],
                                (double)(t - s->j_arr[j] + 1));
                s->j_head[j] = s->j_free;
                s->j_free = j;
            }
        }
        s->tk[k].next = s->free_list;
        s->free_list = k;
        s->in_system--;
        s->r->departed++;
    }
}

hta_status hta_sim_run(const hta_cluster *c, const hta_sim_opts *o,
                       hta_sim_result *r, hta_diag *d)
{
    memset(r, 0, sizeof *r);
    hta_status st = check_opts(c, o, d);
    if (st != HTA_OK)
        return st;
    sim s;
    st = sim_init(&s, c, o, r, d);
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
        s.now = t;
        int end = slot_arrivals(&s, t, d);
        if (end < 0)
            st = end == -2 ? HTA_ERR_INPUT : HTA_ERR_INTERNAL;
        if (end)
            break;
        sim_sums *bs = measure_batch(&ms, t); /* NULL in the warm-up */
        int stop = slot_starts(&s, t, lvl_count, d);
        if (stop < 0)
            st = HTA_ERR_INPUT;
        if (stop)
            break;
        double busy = (double)(c->M - s.nidle);
        ms.all.busy += busy;
        if (bs)
            bs->busy += busy;
        slot_departures(&s, &ms, bs, t);
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
            hta_progress p = {hta_sim_opts_policy_name(o),
                              hta_clock_now() - t0, (double)s.in_system,
                              NAN, t};
            o->progress(o->progress_ctx, &p);
        }
    }
    r->slots = t - 1;
    r->in_system = s.in_system;
    r->cut = *s.stop != 0;
    /* a plug-in's failure keeps what the run had, as a cut run */
    int keep = st == HTA_ERR_INPUT && s.pl_failed && r->slots > 0;
    if (keep)
        r->cut = 1;
    if (st == HTA_OK || keep) {
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
    if (st != HTA_OK && !keep)
        hta_sim_result_free(r);
    return st;
}
