/* The ReduceTask placement simulator (Tan et al., Sections II-V): jobs in
 * a K-limited processor-sharing system, every placement policy on one
 * sample path. */
#include "hta/rplace.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/num.h"
#include "hta/rng.h"
#include "core/buf.h"
#include "core/stats.h"
#include "rplace/optimal.h"

const char *const hta_rp_policy_names[HTA_RP_NPOLICIES] = {
    "random", "greedy", "threshold", "rhc", "rhc-adaptive", "optimal"};

static hta_status oom(hta_diag *d)
{
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

/* ---- free slots: a bit per slot (1: free) in the order of the sorted
 * costs, and a Fenwick tree over the free counts of its 64-slot words:
 * the k-th free slot in O(log r + 64), r / 8 + r / 16 bytes (a Fenwick
 * tree of slots took 4 bytes a slot, for each policy) ---- */

typedef struct freeset {
    int64_t n, nfree, nw; /* slots, free ones, words */
    int64_t top;          /* largest power of two <= nw */
    uint64_t *bit;        /* [nw] */
    int32_t *t;           /* [nw + 1], 1-based: free slots of words */
} freeset;

static int freeset_init(freeset *f, int64_t n)
{
    f->n = n;
    f->nfree = n;
    f->nw = (n + 63) / 64;
    f->bit = malloc((size_t)f->nw * sizeof *f->bit);
    f->t = malloc(((size_t)f->nw + 1) * sizeof *f->t);
    if (!f->bit || !f->t)
        return 0;
    for (int64_t w = 0; w < f->nw; w++)
        f->bit[w] = n - 64 * w >= 64 ? ~0ull : (1ull << (n - 64 * w)) - 1;
    f->t[0] = 0;
    for (int64_t i = 1; i <= f->nw; i++)
        f->t[i] = (int32_t)__builtin_popcountll(f->bit[i - 1]);
    for (int64_t i = 1; i <= f->nw; i++) { /* linear build */
        int64_t up = i + (i & -i);
        if (up <= f->nw)
            f->t[up] += f->t[i];
    }
    f->top = 1;
    while (f->top * 2 <= f->nw)
        f->top *= 2;
    return 1;
}

static void freeset_free(freeset *f)
{
    free(f->bit);
    free(f->t);
}

/* Slot pos (1-based) taken (delta -1) or freed (+1). */
static void freeset_add(freeset *f, int64_t pos, int32_t delta)
{
    int64_t w = (pos - 1) / 64;
    f->bit[w] ^= 1ull << ((pos - 1) % 64);
    for (int64_t i = w + 1; i <= f->nw; i += i & -i)
        f->t[i] += delta;
    f->nfree += delta;
}

/* The rank (1-based) of the k-th free slot, 1 <= k <= nfree. */
static int64_t freeset_kth(const freeset *f, int64_t k)
{
    int64_t w = 0;
    for (int64_t step = f->top; step; step >>= 1)
        if (w + step <= f->nw && f->t[w + step] < k) {
            w += step;
            k -= f->t[w];
        }
    uint64_t b = f->bit[w]; /* the word holding it: its k-th set bit */
    while (--k > 0)
        b &= b - 1;
    return 64 * w + __builtin_ctzll(b) + 1;
}

/* ---- the system ---- */

typedef struct job {
    double t, x; /* arrival time, data per task */
    int32_t R;
    int64_t index;
} job;

typedef struct policy {
    int on;
    freeset fs;
    int32_t *held; /* [K * rmax]: the ranks record k holds */
    double *bcost; /* [B] */
    double pos_sum, tasks;
} policy;

typedef struct sys {
    const hta_slots *s;
    const hta_rp_opts *o;
    const hta_rp_mdp *mdp; /* optimal */
    int K, B;
    int32_t rmax;
    policy pol[HTA_RP_NPOLICIES];
    job *rec;       /* [K] in-service records */
    int32_t *busy;  /* [K] record ids in service */
    int32_t *idle;  /* [K] free record ids */
    int nbusy, nidle;
    job *wait;      /* FIFO: wait[whead .. whead + wlen) */
    size_t wcap, whead, wlen;
    int64_t nsys;    /* jobs in the system */
    double next_dep; /* time of the next departure (+inf when empty) */
    double *wN, *wx; /* rhc-adaptive window ring [w] */
    int64_t wseen;
    double wsumN, wsumx;
    double rhc_p;
    int64_t *bjobs;  /* [B] jobs placed per batch */
    double *barea, *bspan; /* [B] integral of N and time per batch */
    int64_t batch_size;
    hta_rng dep_rng, pick_rng;
    double sojourn_sum;
    int64_t sojourn_n, waited;
} sys;

static int batch_of(const sys *y, int64_t index)
{
    if (index < y->o->warmup)
        return -1;
    int64_t b = (index - y->o->warmup) / y->batch_size;
    return b >= y->B ? y->B - 1 : (int)b;
}

/* The policy's first free rank to take for job j: the job takes the
 * free slots skip+1 .. skip+R of the sorted free list. */
static int64_t skip_of(sys *y, int p, const job *j)
{
    const freeset *f = &y->pol[p].fs;
    int64_t skip = 0;
    switch (p) {
    case HTA_RP_THRESHOLD:
        skip = hta_rp_table_skip(y->o->table, y->K - 1 - y->nbusy, j->x);
        break;
    case HTA_RP_RHC:
        skip = hta_rp_rhc_defer(j->x, y->rhc_p, y->o->mean_x) ? j->R : 0;
        break;
    case HTA_RP_RHC_ADAPTIVE: {
        int64_t n = y->wseen < y->o->window ? y->wseen : y->o->window;
        if (n > 0) {
            double N = y->wsumN / (double)n, mx = y->wsumx / (double)n;
            skip = hta_rp_rhc_defer(j->x, N / (2 * N + 1), mx) ? j->R : 0;
        }
        break;
    }
    default:
        break;
    }
    /* the next block when it exists, else the last R free slots (rhc
     * with fewer than 2R free; the threshold rule never needs it) */
    if (skip + j->R > f->nfree)
        skip = f->nfree - j->R;
    return skip;
}

/* The optimal policy's set for job j given what the jobs in service
 * hold (ranks 1..r, bit rank - 1): taken from q's free set into held;
 * the sum of the costs. */
static double place_optimal(sys *y, policy *q, const job *j, int32_t *held)
{
    uint32_t masks[32];
    for (int i = 0; i < y->nbusy; i++) {
        const int32_t *h = q->held + (size_t)y->busy[i] * (size_t)y->rmax;
        uint32_t a = 0;
        for (int32_t t = 0; t < y->rec[y->busy[i]].R; t++)
            a |= 1u << (h[t] - 1);
        masks[i] = a;
    }
    uint32_t a = hta_rp_mdp_choose(y->mdp, masks, y->nbusy, y->nsys, j->x,
                                   j->R);
    assert(a != 0);
    double cost = 0;
    int32_t t = 0;
    for (int i = 0; i < y->s->r && t < j->R; i++)
        if (a >> i & 1) {
            freeset_add(&q->fs, i + 1, -1);
            held[t++] = i + 1;
            cost += y->s->rcost[hta_slots_run_of(y->s, i)];
        }
    return cost;
}

/* Policy p's R slots for job j, ranks skip+1 .. skip+R of the sorted
 * free list (random: uniform picks), taken from q's free set into held;
 * the sum of the costs. */
static double place_ranked(sys *y, int p, policy *q, const job *j,
                           int32_t *held)
{
    double cost = 0;
    int64_t skip = p == HTA_RP_RANDOM ? 0 : skip_of(y, p, j);
    for (int32_t i = 0; i < j->R; i++) {
        int64_t kth = p == HTA_RP_RANDOM ?
                          1 + (int64_t)hta_rng_below(&y->pick_rng,
                                                     (uint64_t)q->fs.nfree) :
                          skip + 1;
        assert(kth >= 1 && kth <= q->fs.nfree);
        int64_t pos = freeset_kth(&q->fs, kth);
        freeset_add(&q->fs, pos, -1);
        held[i] = (int32_t)pos;
        cost += y->s->rcost[hta_slots_run_of(y->s, pos - 1)];
    }
    return cost;
}

/* Job j enters service: every policy places its R tasks. */
static void start(sys *y, const job *j)
{
    assert(y->nidle > 0 && j->R >= 1 && j->R <= y->rmax);
    int k = y->idle[--y->nidle];
    y->rec[k] = *j;
    y->busy[y->nbusy] = k;
    int b = batch_of(y, j->index);
    for (int p = 0; p < HTA_RP_NPOLICIES; p++) {
        policy *q = &y->pol[p];
        if (!q->on)
            continue;
        int32_t *held = q->held + (size_t)k * (size_t)y->rmax;
        double cost = p == HTA_RP_OPTIMAL ? place_optimal(y, q, j, held) :
                                            place_ranked(y, p, q, j, held);
        if (b >= 0) {
            for (int32_t i = 0; i < j->R; i++)
                q->pos_sum += (double)held[i];
            q->bcost[b] += j->x * cost;
            q->tasks += j->R;
        }
    }
    y->nbusy++;
    if (b >= 0)
        y->bjobs[b]++;
}

static double expo(hta_rng *g, double rate)
{
    return -log1p(-hta_rng_unit(g)) / rate;
}

/* The departure due at next_dep: one of the jobs in service, uniformly;
 * the next one comes at rate mu = 1 while jobs remain (memoryless). */
static void depart(sys *y)
{
    double t = y->next_dep;
    int i = (int)hta_rng_below(&y->dep_rng, (uint64_t)y->nbusy);
    int k = y->busy[i];
    y->busy[i] = y->busy[--y->nbusy];
    const job *j = &y->rec[k];
    for (int p = 0; p < HTA_RP_NPOLICIES; p++) {
        policy *q = &y->pol[p];
        if (!q->on)
            continue;
        const int32_t *held = q->held + (size_t)k * (size_t)y->rmax;
        for (int32_t r = 0; r < j->R; r++)
            freeset_add(&q->fs, held[r], +1);
    }
    if (j->index >= y->o->warmup) {
        y->sojourn_sum += t - j->t;
        y->sojourn_n++;
    }
    y->idle[y->nidle++] = k;
    y->nsys--;
    y->next_dep = y->nsys > 0 ? t + expo(&y->dep_rng, 1) : INFINITY;
    if (y->wlen > 0) {
        job w = y->wait[y->whead++];
        if (--y->wlen == 0)
            y->whead = 0;
        start(y, &w);
    }
}

/* Appends to the FIFO; 0 out of memory.  The live part moves to the
 * front before the array grows, so it grows with the queue only. */
static int enqueue(sys *y, const job *j)
{
    if (y->whead > 0 && y->whead + y->wlen == y->wcap) {
        memmove(y->wait, y->wait + y->whead, y->wlen * sizeof *y->wait);
        y->whead = 0;
    }
    if (!HTA_RESERVE(y->wait, y->wcap, y->whead + y->wlen + 1))
        return 0;
    y->wait[y->whead + y->wlen++] = *j;
    y->waited++;
    return 1;
}

static void sys_free(sys *y)
{
    for (int p = 0; p < HTA_RP_NPOLICIES; p++) {
        freeset_free(&y->pol[p].fs);
        free(y->pol[p].held);
        free(y->pol[p].bcost);
    }
    free(y->rec);
    free(y->busy);
    free(y->idle);
    free(y->wait);
    free(y->wN);
    free(y->wx);
    free(y->bjobs);
    free(y->barea);
    free(y->bspan);
}

static hta_status check(const hta_slots *s, const hta_rp_opts *o,
                        hta_diag *d)
{
    int any = 0;
    for (int p = 0; p < HTA_RP_NPOLICIES; p++)
        any |= o->policies[p];
    if (!any)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected at least one policy");
    if (!(o->lambda > 0 && o->lambda < 1))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected an arrival rate in (0, 1) (the "
                            "service rate is 1), found %g", o->lambda);
    if (o->K < 1 || o->rmax < 1 || (double)o->K * o->rmax > (double)s->r)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected K * (the largest R) <= %lld slots, "
                            "found %d * %d",
                            (long long)s->r, o->K, (int)o->rmax);
    int64_t n = o->trace_n ? o->trace_n : o->jobs;
    if (n < 1 || o->warmup < 0 || o->batches < 1 ||
        n - o->warmup < o->batches)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected at least as many jobs after the "
                            "warm-up as batches (>= 1)");
    if (o->policies[HTA_RP_THRESHOLD] &&
        (!o->table || o->table->K < o->K - 1))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the threshold policy needs its table");
    if (o->policies[HTA_RP_OPTIMAL] && o->X && hta_dist_max(o->X) < 0)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the optimal policy needs a bounded law of X");
    if (o->policies[HTA_RP_OPTIMAL] && (o->trace_n || !o->law))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the optimal policy is the decision process' "
                            "of Poisson arrivals: synthetic jobs only");
    if (o->policies[HTA_RP_RHC_ADAPTIVE] && o->window < 1)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected a window of at least one job");
    if (!o->trace_n && (!o->X || !o->R))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected distributions of X and R, or a trace");
    if (o->trace_n) {
        double span = o->trace_t[o->trace_n - 1] - o->trace_t[0];
        if (!(span > 0))
            return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                                "expected a trace whose jobs do not all "
                                "arrive at once");
        for (int64_t i = 0; i < o->trace_n; i++)
            if (o->trace_R[i] < 1 || o->trace_R[i] > o->rmax ||
                !(o->trace_x[i] > 0) || (i && o->trace_t[i] < o->trace_t[i - 1]))
                return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                                    "expected trace jobs with 1 <= R <= "
                                    "%d, x > 0, in time order",
                                    (int)o->rmax);
    }
    return HTA_OK;
}

/* The system's arrays and every policy's; 0 when out of memory (y
 * freed by the caller). */
static int sys_alloc(sys *y, const hta_slots *s, const hta_rp_opts *o)
{
    size_t K = (size_t)o->K, B = (size_t)o->batches;
    y->rec = malloc(K * sizeof *y->rec);
    y->busy = malloc(K * sizeof *y->busy);
    y->idle = malloc(K * sizeof *y->idle);
    y->bjobs = calloc(B, sizeof *y->bjobs);
    y->barea = calloc(B, sizeof *y->barea);
    y->bspan = calloc(B, sizeof *y->bspan);
    int w = o->policies[HTA_RP_RHC_ADAPTIVE] ? o->window : 1;
    y->wN = calloc((size_t)w, sizeof *y->wN);
    y->wx = calloc((size_t)w, sizeof *y->wx);
    if (!y->rec || !y->busy || !y->idle || !y->bjobs || !y->barea || !y->bspan ||
        !y->wN || !y->wx)
        return 0;
    for (int k = 0; k < o->K; k++)
        y->idle[k] = o->K - 1 - k;
    y->nidle = o->K;
    for (int p = 0; p < HTA_RP_NPOLICIES; p++) {
        policy *q = &y->pol[p];
        if (!(q->on = o->policies[p]))
            continue;
        if (!freeset_init(&q->fs, s->r) ||
            !(q->held = malloc(K * (size_t)o->rmax * sizeof *q->held)) ||
            !(q->bcost = calloc(B, sizeof *q->bcost)))
            return 0;
    }
    return 1;
}

/* The jobs, one sample path for every policy: arrivals (Poisson, or the
 * trace's times scaled to the rate), departures, placements; the
 * measured span [*tw, *tlast]; the jobs that arrived into *njobs_done.
 * 0 when out of memory. */
static int simulate(sys *y, hta_rp_result *res, double *twp, double *tlastp,
                    int64_t *done)
{
    const hta_rp_opts *o = y->o;
    int64_t njobs = o->trace_n ? o->trace_n : o->jobs;
    int w = o->policies[HTA_RP_RHC_ADAPTIVE] ? o->window : 1;
    /* one stream per purpose: arrivals, jobs, departures, random's
     * choices (the costs have their own, hta_slots_uniform) */
    hta_rng arr_rng, job_rng;
    hta_rng_seed(&arr_rng, o->seed);
    hta_rng_seed(&job_rng, o->seed ^ 0xB0B5EED5ull);
    hta_rng_seed(&y->dep_rng, o->seed ^ 0xDE9A27ull);
    hta_rng_seed(&y->pick_rng, o->seed ^ 0x9A1DC0DEull);
    double scale = 1;
    if (o->trace_n)
        scale = (double)(o->trace_n - 1) /
                (o->trace_t[o->trace_n - 1] - o->trace_t[0]) / o->lambda;
    double now = 0, ta = 0;
    double tw = NAN, tlast = 0; /* measured span */
    int64_t i;
    y->next_dep = INFINITY;
    int cur_b = -1;
    for (i = 0; i < njobs; i++) {
        if ((i & 1023) == 0 && o->stop && *o->stop) {
            res->cut = 1;
            break;
        }
        job j;
        if (o->trace_n) {
            ta = (o->trace_t[i] - o->trace_t[0]) * scale;
            j = (job){ta, o->trace_x[i], o->trace_R[i], i};
        } else {
            ta += expo(&arr_rng, o->lambda);
            double X = (double)hta_dist_draw(o->X, &job_rng);
            int32_t R = (int32_t)hta_dist_draw(o->R, &job_rng);
            j = (job){ta, X / R, R, i};
        }
        while (y->nsys > 0 && y->next_dep <= ta) {
            if (cur_b >= 0)
                y->barea[cur_b] += (double)y->nsys * (y->next_dep - now);
            now = y->next_dep;
            depart(y);
        }
        if (cur_b >= 0) {
            y->barea[cur_b] += (double)y->nsys * (ta - now);
            y->bspan[cur_b] += ta - tlast;
        }
        now = ta;
        cur_b = batch_of(y, i);
        if (i == o->warmup)
            tw = ta;
        tlast = ta;
        /* the adaptive window sees the number in system at arrivals */
        if (o->policies[HTA_RP_RHC_ADAPTIVE]) {
            int64_t slot = y->wseen % w;
            if (y->wseen >= w) {
                y->wsumN -= y->wN[slot];
                y->wsumx -= y->wx[slot];
            }
            y->wN[slot] = (double)y->nsys;
            y->wx[slot] = j.x;
            y->wsumN += (double)y->nsys;
            y->wsumx += j.x;
            y->wseen++;
        }
        if (++y->nsys == 1)
            y->next_dep = now + expo(&y->dep_rng, 1);
        if (y->nbusy < y->K)
            start(y, &j);
        else if (!enqueue(y, &j))
            return 0;
    }
    *twp = tw;
    *tlastp = tlast;
    *done = i;
    return 1;
}

/* The statistics over the batches that saw jobs: the number in system,
 * the time in system, Little's law, and per policy the cost per job and
 * the savings paired batch by batch.  0 when out of memory. */
static int statistics(const sys *y, hta_rp_result *res, double tw,
                      double tlast, int64_t i)
{
    const hta_rp_opts *o = y->o;
    size_t B = (size_t)o->batches;
    /* statistics over the batches that saw jobs */
    double *bm = malloc(B * sizeof *bm), *bs = malloc(B * sizeof *bs);
    if (!bm || !bs) {
        free(bm);
        free(bs);
        return 0;
    }
    int nb = 0;
    for (int b = 0; b < y->B; b++)
        if (y->bspan[b] > 0)
            bm[nb++] = y->barea[b] / y->bspan[b];
    res->mean_n = res->ci_n = NAN; /* no measured time: no data */
    if (nb)
        hta_mean_ci(bm, nb, &res->mean_n, &res->ci_n);
    res->mean_t = y->sojourn_n ? y->sojourn_sum / (double)y->sojourn_n : NAN;
    res->little_gap = NAN;
    if (!isnan(tw) && tlast > tw) {
        double area = 0;
        for (int b = 0; b < y->B; b++)
            area += y->barea[b];
        double mn = area / (tlast - tw);
        double rate = (double)(i - o->warmup - 1) / (tlast - tw);
        res->little_gap = mn > 0 ? fabs(mn - rate * res->mean_t) / mn : 0;
    }
    res->waited = i ? (double)y->waited / (double)i : 0;
    for (int p = 0; p < HTA_RP_NPOLICIES; p++) {
        const policy *q = &y->pol[p];
        hta_rp_row *row = &res->row[p];
        if (!(row->run = q->on))
            continue;
        nb = 0;
        for (int b = 0; b < y->B; b++)
            if (y->bjobs[b])
                bm[nb++] = q->bcost[b] / (double)y->bjobs[b];
        row->mean = row->ci = NAN;
        if (nb)
            hta_mean_ci(bm, nb, &row->mean, &row->ci);
        row->mean_pos = q->tasks > 0 ? q->pos_sum / q->tasks : NAN;
        /* the savings, paired batch by batch */
        const policy *refs[2] = {&y->pol[HTA_RP_RANDOM], &y->pol[HTA_RP_GREEDY]};
        double *mean[2] = {&row->vs_random, &row->vs_greedy};
        double *ci[2] = {&row->vs_random_ci, &row->vs_greedy_ci};
        for (int r = 0; r < 2; r++) {
            *mean[r] = *ci[r] = NAN;
            nb = 0;
            for (int b = 0; b < y->B && refs[r]->on; b++)
                if (y->bjobs[b] && refs[r]->bcost[b] > 0)
                    bs[nb++] = 100 * (1 - q->bcost[b] / refs[r]->bcost[b]);
            if (nb)
                hta_mean_ci(bs, nb, mean[r], ci[r]);
        }
    }
    free(bm);
    free(bs);
    return 1;
}

hta_status hta_rp_run(const hta_slots *s, const hta_rp_opts *o,
                      hta_rp_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    hta_status st = check(s, o, d);
    if (st != HTA_OK)
        return st;
    double t0 = hta_clock_now();
    sys y;
    memset(&y, 0, sizeof y);
    y.s = s;
    y.o = o;
    y.K = o->K;
    y.B = o->batches;
    y.rmax = o->rmax;
    int64_t njobs = o->trace_n ? o->trace_n : o->jobs;
    y.batch_size = (njobs - o->warmup) / y.B;
    y.rhc_p = o->lambda / (1 + o->lambda);
    hta_rp_mdp mdp;
    memset(&mdp, 0, sizeof mdp);
    if (o->policies[HTA_RP_OPTIMAL]) {
        st = hta_rp_mdp_solve(s, o->law, o->K, o->lambda, 1e-6, 1000000,
                              o->stop, &mdp, d);
        if (st != HTA_OK)
            return st;
        y.mdp = &mdp;
        res->opt_lo = mdp.cost_lo;
        res->opt_hi = mdp.cost_hi;
        res->opt_states = mdp.nstates;
        res->opt_iters = mdp.iters;
        res->opt_converged = mdp.converged;
    }
    if (!sys_alloc(&y, s, o))
        goto nomem;
    double tw = NAN, tlast = 0;
    int64_t i = 0;
    if (!simulate(&y, res, &tw, &tlast, &i))
        goto nomem;
    res->jobs = i;
    /* drain: every job placed and gone (none when cut short) */
    while (!res->cut && y.nsys > 0)
        depart(&y);
    if (!statistics(&y, res, tw, tlast, i))
        goto nomem;
    sys_free(&y);
    hta_rp_mdp_free(&mdp);
    res->seconds = hta_clock_now() - t0;
    return HTA_OK;
nomem:
    sys_free(&y);
    hta_rp_mdp_free(&mdp);
    memset(res, 0, sizeof *res);
    return oom(d);
}
