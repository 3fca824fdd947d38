/* What a caller asks of hta reduce-place, made into runs: the rules
 * between the options (one set of words for the command line and the
 * Python package), the slots, the laws or the SWIM trace, the threshold
 * table, and every rate on the pool. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/pool.h"
#include "hta/rplace.h"
#include "rplace/optimal.h"

#define USAGE(...) hta_diag_set(d, HTA_ERR_USAGE, NULL, 0, __VA_ARGS__)
#define RANGE(opt, v, lo, hi)                                              \
    USAGE(opt ": expected an integer in [%lld, %lld], found %lld",        \
          (long long)(lo), (long long)(hi), (long long)(v))

void hta_rp_trace_free(hta_rp_trace *tr)
{
    if (!tr)
        return;
    free(tr->t);
    free(tr->x);
    free(tr->R);
    memset(tr, 0, sizeof *tr);
}

hta_status hta_rp_trace_read(const char *path, double reducer_mb,
                             int32_t cap, hta_rp_trace *tr, hta_diag *d)
{
    hta_swim_row *rows = NULL;
    int64_t n = 0, k = 0;
    double bytes = reducer_mb * 1048576.0;
    memset(tr, 0, sizeof *tr);
    if (!(reducer_mb > 0 && reducer_mb <= 1e12) || cap < 1)
        return USAGE("expected --reducer-mb in (0, 1e12] and a cap >= 1, "
                     "found %g and %d", reducer_mb, (int)cap);
    hta_status st = hta_swim_read(path, &rows, &n, d);
    if (st != HTA_OK)
        return st;
    tr->t = malloc((size_t)n * sizeof *tr->t);
    tr->x = malloc((size_t)n * sizeof *tr->x);
    tr->R = malloc((size_t)n * sizeof *tr->R);
    if (!tr->t || !tr->x || !tr->R) {
        free(rows);
        hta_rp_trace_free(tr);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    for (int64_t i = 0; i < n; i++) {
        if (!(rows[i].shuffle > 0)) /* map-only: no ReduceTask */
            continue;
        double R = ceil(rows[i].shuffle / bytes);
        if (R < 1)
            R = 1;
        if (R > cap)
            R = cap;
        tr->t[k] = rows[i].submit;
        tr->R[k] = (int32_t)R;
        tr->x[k] = rows[i].shuffle / 1073741824.0 / R;
        k++;
    }
    free(rows);
    tr->n = k;
    if (k < 2 || !(tr->t[k - 1] > tr->t[0])) {
        hta_rp_trace_free(tr);
        return hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                            "expected at least two jobs with shuffle data "
                            "at different times, found %lld",
                            (long long)k);
    }
    return HTA_OK;
}

/* The rules that need no file, in the command line's order. */
static hta_status check(const hta_rp_ask *a, const int *pol, hta_diag *d)
{
    int traced = a->jobs_trace != NULL;
    if (a->slots_file && (a->slots || a->has_costs))
        return USAGE("--slots and --costs draw the costs: not with a SLOTS "
                     "file");
    if (traced && (a->data || a->reducers || a->jobs))
        return USAGE("--data, --reducers and --jobs do not apply to "
                     "--jobs-trace (its jobs are the trace's)");
    if (!traced && a->reducer_mb)
        return USAGE("--reducer-mb applies to --jobs-trace only");
    if (pol[HTA_RP_OPTIMAL] && traced)
        return USAGE("the optimal policy is solved for Poisson arrivals: "
                     "not with --jobs-trace");
    if (pol[HTA_RP_OPTIMAL] && !a->slots_file && a->slots > 30)
        return USAGE("the optimal policy is solved for at most 30 slots, "
                     "found --slots %lld", (long long)a->slots);
    if (pol[HTA_RP_OPTIMAL] && !a->slots_file && !a->slots)
        return USAGE("the optimal policy is solved for at most 30 slots: "
                     "give --slots or a SLOTS file");
    if (a->window && !pol[HTA_RP_RHC_ADAPTIVE])
        return USAGE("--window applies to the rhc-adaptive policy only");
    if (a->nl < 0 || a->nl > HTA_RP_MAX_SWEEP)
        return USAGE("expected 1 to %d rates, found %d", HTA_RP_MAX_SWEEP,
                     a->nl);
    for (int k = 0; k < a->nl; k++)
        if (!(a->lambdas[k] > 0))
            return USAGE("--lambda: expected a rate above 0, found %g",
                         a->lambdas[k]);
        else if (!(a->lambdas[k] < 1))
            return USAGE("the arrival rate must be below the service rate "
                         "mu = 1, found %g", a->lambdas[k]);
    if (a->has_costs && !(a->lo >= 0 && a->hi <= HTA_RP_MAX_COST))
        return USAGE("--costs LO,HI: expected costs in [0, %g], found "
                     "'%g,%g'", HTA_RP_MAX_COST, a->lo, a->hi);
    if (a->has_costs && !(a->lo <= a->hi))
        return USAGE("--costs LO,HI needs LO <= HI, found '%g,%g'", a->lo,
                     a->hi);
    /* 0 (-1 for the warm-up): not given */
    if (!(a->slots >= 0 && a->slots <= HTA_RP_MAX_SLOTS))
        return RANGE("--slots", a->slots, 1, HTA_RP_MAX_SLOTS);
    if (!(a->K >= 0 && a->K <= 1000000))
        return RANGE("--k-limit", a->K, 1, 1000000);
    if (!(a->jobs >= 0 && a->jobs <= 1000000000000LL))
        return RANGE("--jobs", a->jobs, 1, 1000000000000LL);
    if (!(a->warmup >= -1 && a->warmup <= 1000000000000LL))
        return RANGE("--warmup", a->warmup, 0, 1000000000000LL);
    if (!(a->batches == 0 || (a->batches >= 2 && a->batches <= 4096)))
        return RANGE("--batches", a->batches, 2, 4096);
    if (!(a->window >= 0 && a->window <= 100000000))
        return RANGE("--window", a->window, 1, 100000000);
    if (!(a->reducer_mb >= 0 && a->reducer_mb <= 1e12))
        return USAGE("--reducer-mb: expected a number in (0, 1e12], found "
                     "%g", a->reducer_mb);
    return HTA_OK;
}

static hta_status dist(const char *opt, const char *s, const char *dflt,
                       hta_dist *out, hta_diag *d)
{
    char msg[300];
    if (hta_dist_parse(s ? s : dflt, out, msg, sizeof msg) != 0)
        return USAGE("--%s: %s", opt, msg);
    return HTA_OK;
}

void hta_rp_setup_free(hta_rp_setup *su)
{
    if (!su)
        return;
    hta_slots_free(su->s);
    hta_rp_law_free(&su->law);
    hta_rp_table_free(&su->table);
    hta_rp_trace_free(&su->trace);
    hta_dist_free(&su->X);
    hta_dist_free(&su->R);
    memset(su, 0, sizeof *su);
}

/* The jobs: the trace's, or the laws of X and R. */
static hta_status jobs(const hta_rp_ask *a, hta_rp_setup *su, hta_diag *d)
{
    hta_rp_opts *o = &su->o;
    hta_status st;
    if (a->jobs_trace) {
        double mb = a->reducer_mb ? a->reducer_mb : 1024;
        int64_t per = su->s->r / o->K;
        int32_t cap = (int32_t)(per > 1000000 ? 1000000 : per);
        if (cap < 1)
            return USAGE("--k-limit %d exceeds the %lld slots", o->K,
                         (long long)su->s->r);
        hta_rp_trace *tr = &su->trace;
        if ((st = hta_rp_trace_read(a->jobs_trace, mb, cap, tr, d)) != HTA_OK)
            return st;
        o->trace_n = tr->n;
        o->trace_t = tr->t;
        o->trace_x = tr->x;
        o->trace_R = tr->R;
        o->warmup = a->warmup >= 0 ? a->warmup : tr->n / 10;
        snprintf(su->jobs, sizeof su->jobs,
                 "%s (%lld jobs with shuffle data, X in GiB, R = "
                 "ceil(shuffle / %g MiB) at most %d)",
                 a->jobs_trace, (long long)tr->n, mb, (int)cap);
        if (o->warmup >= tr->n || tr->n - o->warmup < o->batches)
            return USAGE("the trace's %lld jobs must exceed --warmup by at "
                         "least --batches (%d), found warm-up %lld",
                         (long long)tr->n, o->batches,
                         (long long)o->warmup);
        return hta_rp_law_sample(tr->x, tr->R, tr->n, &su->law, d);
    }
    o->X = &su->X;
    o->R = &su->R;
    if ((double)o->K * (double)hta_dist_max(&su->R) > (double)su->s->r)
        return USAGE("K * the largest R must fit in the slots: %d * %lld > "
                     "%lld", o->K, (long long)hta_dist_max(&su->R),
                     (long long)su->s->r);
    snprintf(su->jobs, sizeof su->jobs, "Poisson, X %s, R %s",
             a->data ? a->data : "uniform:1:100",
             a->reducers ? a->reducers : "uniform:1:10");
    return hta_rp_law_jobs(&su->X, &su->R, &su->law, d);
}

hta_status hta_rp_setup_make(const hta_rp_ask *a, hta_rp_setup *su,
                             hta_diag *d)
{
    memset(su, 0, sizeof *su);
    hta_rp_opts *o = &su->o;
    for (int p = 0; p < HTA_RP_NPOLICIES; p++)
        o->policies[p] = a->has_policies ? a->policies[p] != 0 :
                                           p != HTA_RP_OPTIMAL;
    hta_status st = check(a, o->policies, d);
    if (st != HTA_OK)
        return st;
    su->nl = a->nl ? a->nl : 1;
    su->lambdas[0] = 0.4;
    for (int k = 0; k < a->nl; k++)
        su->lambdas[k] = a->lambdas[k];
    o->lambda = su->lambdas[0];
    o->K = a->K ? a->K : 10;
    o->jobs = a->jobs ? a->jobs : 50000;
    o->batches = a->batches ? a->batches : 30;
    o->window = a->window ? a->window : 100;
    o->seed = a->has_seed ? a->seed : 1;
    o->stop = a->stop;
    double lo = a->has_costs ? a->lo : 1, hi = a->has_costs ? a->hi : 100;
    int64_t nslots = a->slots ? a->slots : 1000;
    if ((st = dist("data", a->data, "uniform:1:100", &su->X, d)) != HTA_OK ||
        (st = dist("reducers", a->reducers, "uniform:1:10", &su->R, d)) !=
            HTA_OK)
        return st;
    if (hta_dist_max(&su->R) < 0)
        return USAGE("--reducers needs a bounded distribution (fixed, "
                      "uniform or table): K jobs of the largest R must fit "
                      "in the slots");
    if ((o->policies[HTA_RP_THRESHOLD] || o->policies[HTA_RP_OPTIMAL]) &&
        hta_dist_max(&su->X) < 0)
        return USAGE("the %s policy needs a bounded --data distribution "
                     "(fixed, uniform or table)",
                     o->policies[HTA_RP_THRESHOLD] ? "threshold" : "optimal");
    if (!a->jobs_trace) {
        int64_t w = a->warmup >= 0 ? a->warmup : o->jobs / 10;
        if (w >= o->jobs || o->jobs - w < o->batches)
            return USAGE("--jobs must exceed --warmup by at least --batches "
                         "(%d), found %lld and %lld",
                         o->batches, (long long)o->jobs, (long long)w);
        o->warmup = w;
        if (su->R.kind != HTA_DIST_TABLE && !a->slots_file &&
            (double)o->K * (double)hta_dist_max(&su->R) > (double)nslots)
            return USAGE("K * the largest R must fit in the slots: %d * "
                         "%lld > %lld", o->K,
                         (long long)hta_dist_max(&su->R), (long long)nslots);
    }
    /* the work: the files, the slots, the law and its table */
    if ((st = hta_dist_load(&su->X, d)) != HTA_OK ||
        (st = hta_dist_load(&su->R, d)) != HTA_OK)
        return st;
    if (a->slots_file) {
        st = hta_slots_parse(a->slots_file, &su->s, d);
        if (st == HTA_OK && su->s->nodes)
            snprintf(su->source, sizeof su->source, "%lld nodes",
                     (long long)su->s->nodes);
        else
            snprintf(su->source, sizeof su->source, "cost list");
    } else {
        st = hta_slots_uniform(nslots, lo, hi, o->seed, &su->s, d);
        snprintf(su->source, sizeof su->source,
                 "i.i.d. uniform on [%g, %g]", lo, hi);
    }
    if (st == HTA_OK)
        st = jobs(a, su, d);
    /* the optimal policy's decision process, counted before it is built
       at every rate (a build past its limits took 40 s to refuse) */
    for (int k = 0; st == HTA_OK && o->policies[HTA_RP_OPTIMAL] && k < su->nl;
         k++)
        st = hta_rp_mdp_check(su->s->r, o->K, &su->law, su->lambdas[k], d);
    if (st == HTA_OK)
        st = hta_rp_opts_law(o, &su->law, &su->table, a->stop, d);
    return st;
}

typedef struct sweep_pool {
    const hta_rp_setup *su;
    hta_rp_result *res;
    hta_status *st;
    hta_diag *d;
    int *ran;
} sweep_pool;

static void sweep_job(void *ctx, int k)
{
    sweep_pool *p = ctx;
    hta_rp_opts o = p->su->o;
    o.lambda = p->su->lambdas[k];
    hta_diag_clear(&p->d[k]);
    p->st[k] = hta_rp_run(p->su->s, &o, &p->res[k], &p->d[k]);
    p->ran[k] = 1;
}

hta_status hta_rp_sweep(const hta_rp_setup *su, int threads,
                        hta_rp_result *res, int *ran, hta_diag *d)
{
    int n = su->nl;
    hta_status *st = calloc((size_t)n, sizeof *st);
    hta_diag *dg = calloc((size_t)n, sizeof *dg);
    if (!st || !dg) {
        free(st);
        free(dg);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    memset(ran, 0, (size_t)n * sizeof *ran);
    sweep_pool pool = {su, res, st, dg, ran};
    hta_pool_run(threads, n, sweep_job, &pool, su->o.stop);
    hta_status out = HTA_OK;
    for (int k = 0; k < n && out == HTA_OK; k++)
        if (ran[k] && st[k] != HTA_OK) {
            out = st[k];
            *d = dg[k];
        }
    free(st);
    free(dg);
    return out;
}
