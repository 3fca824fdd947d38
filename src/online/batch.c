/* What a caller asks of hta sim, made into runs: the rules between the
 * options (one set of words for the command line and the Python
 * package), the job sizes and the SWIM trace, the cluster's limits,
 * rho*, and every load and policy on the pool with the sample paths in
 * run order. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/capacity.h"
#include "hta/pool.h"
#include "hta/sim.h"
#include "sim_impl.h"

#define USAGE(...) hta_diag_set(d, HTA_ERR_USAGE, NULL, 0, __VA_ARGS__)

static int has(const hta_sim_ask *a, hta_sim_policy p)
{
    for (int q = 0; q < a->npols; q++)
        if (!a->plugs[q] && a->pols[q] == p)
            return 1;
    return 0;
}

static const char *name_of(const hta_sim_ask *a, int q)
{
    return a->plugs[q] ? a->plugs[q]->name : hta_sim_policy_names[a->pols[q]];
}

/* Plug-in q of the setup: a copy of table p and of its name (at most 32
 * bytes read: more is refused by the check), checked. */
static hta_status copy_plug(hta_sim_setup *su, int q, const hta_policy *p,
                            hta_diag *d)
{
    sim_policy_copy(&su->plug_copy[q], su->plug_name[q], p);
    su->plugs[q] = &su->plug_copy[q];
    return hta_policy_check(su->plugs[q], d);
}

hta_status hta_sim_ask_check(const hta_sim_ask *a, hta_diag *d)
{
    int jobs = a->has_arrivals && a->arrivals == HTA_ARR_JOBS;
    if (a->npols < 0 || a->npols > HTA_SIM_MAX_POLICIES)
        return USAGE("--policy: expected 1 to %d policies, found %d",
                     HTA_SIM_MAX_POLICIES, a->npols);
    for (int q = 0; q < a->npols; q++) {
        hta_sim_policy p = a->pols[q];
        if (a->plugs[q]) {
            hta_status st = hta_policy_check(a->plugs[q], d);
            if (st != HTA_OK)
                return st;
        } else if ((int)p < 0 || p >= HTA_SIM_NPOLICIES) {
            return USAGE("--policy: expected a policy, found %d", (int)p);
        }
        for (int k = 0; k < q; k++)
            if (strcmp(name_of(a, k), name_of(a, q)) == 0)
                return USAGE("--policy names %s twice%s", name_of(a, q),
                             !a->plugs[q] && p == HTA_SIM_GB_PANDAS &&
                                     a->pols_named_pandas ?
                                 " (its other name is balanced-pandas)" :
                                 "");
        if (a->plugs[q])
            continue;
        if ((p == HTA_SIM_FAIR || p == HTA_SIM_DELAY) && !jobs)
            return USAGE("%s schedules jobs: it needs --arrivals jobs",
                         hta_sim_policy_names[p]);
    }
    if (!jobs && (a->job_size || a->jobs_trace))
        return USAGE("--job-size and --jobs-trace apply to --arrivals jobs "
                     "only");
    if (!jobs && a->subqueues)
        return USAGE("--subqueues applies to --arrivals jobs only");
    if (a->job_size && a->jobs_trace)
        return USAGE("give --job-size or --jobs-trace, not both");
    if (a->jobs_trace && a->nloads)
        return USAGE("--load and --sweep do not apply to --jobs-trace (its "
                     "times set the rate; see --time-scale)");
    if (!a->jobs_trace && (a->time_scale || a->block_mb))
        return USAGE("--time-scale and --block-mb apply to --jobs-trace "
                     "only");
    if (a->subqueues && a->npols) {
        int queued = 0; /* fair and delay keep no queues to split */
        for (int q = 0; q < a->npols; q++)
            queued |= a->plugs[q] || (a->pols[q] != HTA_SIM_FAIR &&
                                      a->pols[q] != HTA_SIM_DELAY);
        if (!queued)
            return USAGE("--subqueues applies to jsq-maxweight, priority, "
                         "gb-pandas, fcfs and plug-ins only");
    }
    if (a->ndelay && !(jobs && (!a->npols || has(a, HTA_SIM_DELAY))))
        return USAGE("--delay applies to the delay policy only");
    /* the ranges of the command's options */
    if (!(a->slots == 0 || (a->slots >= 2 && a->slots <= 1000000000000000LL)))
        return USAGE("--slots: expected an integer in [2, 1e15], found %lld",
                     (long long)a->slots);
    if (!(a->warmup >= -1 && a->warmup <= 1000000000000000LL))
        return USAGE("--warmup: expected an integer in [0, 1e15], found "
                     "%lld", (long long)a->warmup);
    if (!(a->batches == 0 || (a->batches >= 2 && a->batches <= 4096)))
        return USAGE("--batches: expected an integer in [2, 4096], found %d",
                     a->batches);
    int64_t slots = a->slots ? a->slots : 100000;
    int64_t warm = a->warmup >= 0 ? a->warmup : slots / 10;
    int batches = a->batches ? a->batches : 30;
    if (warm >= slots || slots - warm < batches)
        return USAGE("--slots must exceed --warmup by at least --batches "
                     "(%d), found %lld and %lld",
                     batches, (long long)slots, (long long)warm);
    if (a->nloads < 0 || a->nloads > HTA_SIM_MAX_LOADS)
        return USAGE("--sweep: at most %d loads, found %d",
                     HTA_SIM_MAX_LOADS, a->nloads);
    for (int k = 0; k < a->nloads; k++)
        if (!(a->loads[k] > 0 && a->loads[k] <= 1e6))
            return USAGE("--load: expected a number in (0, 1e6], found %g",
                         a->loads[k]);
    if ((int)a->arrivals < 0 || a->arrivals > HTA_ARR_JOBS ||
        (int)a->service < 0 || a->service > HTA_SVC_DETERMINISTIC)
        return USAGE("--arrivals, --service: expected one of the names");
    if (a->cv && !(a->has_service && a->service == HTA_SVC_LOGNORMAL))
        return USAGE("--cv applies to --service lognormal only");
    if (!(a->cv >= 0 && a->cv <= 100))
        return USAGE("--cv: expected a number in (0, 100], found %g", a->cv);
    if (!(a->time_scale >= 0 && a->time_scale <= 1e9) ||
        !(a->block_mb >= 0 && a->block_mb <= 1e9))
        return USAGE("--time-scale, --block-mb: expected numbers in (0, "
                     "1e9], found %g and %g", a->time_scale, a->block_mb);
    if (a->ndelay < 0 || a->ndelay > 2)
        return USAGE("--delay: expected D1[,D2]");
    for (int i = 0; i < a->ndelay; i++)
        if (!(a->delay[i] >= 0 && a->delay[i] <= 1000000000))
            return USAGE("--delay: expected integers in [0, 1e9], found %d",
                         a->delay[i]);
    if (!(a->per_unit >= 0 && a->per_unit <= 1000000))
        return USAGE("--slots-per-unit: expected an integer in [1, 1e6], "
                     "found %lld", (long long)a->per_unit);
    if (!(a->max_backlog >= 0 && a->max_backlog <= 1000000000000000LL))
        return USAGE("--max-backlog: expected an integer in [1, 1e15], "
                     "found %lld", (long long)a->max_backlog);
    if (a->trace_every && !a->traced)
        return USAGE("--trace-every applies with --trace-file only");
    if (!(a->trace_every >= 0 && a->trace_every <= 1000000000000000LL))
        return USAGE("--trace-every: expected an integer in [1, 1e15], "
                     "found %lld", (long long)a->trace_every);
    return HTA_OK;
}

void hta_sim_setup_free(hta_sim_setup *su)
{
    if (!su)
        return;
    hta_jobs_free(su->trace);
    hta_dist_free(&su->o.job_size);
    memset(su, 0, sizeof *su);
}

/* The cluster's limits at the largest load (after the trace: its own
 * rate has no load). */
static hta_status limits(const hta_cluster *c, const hta_sim_setup *su,
                         hta_diag *d)
{
    const hta_sim_opts *o = &su->o;
    double top = 0, maxload = 0;
    for (int k = 0; k < su->nloads; k++)
        maxload = su->loads[k] > maxload ? su->loads[k] : maxload;
    for (int64_t L = 0; L < c->T; L++)
        top = c->lambda[L] > top ? c->lambda[L] : top;
    if (o->arrivals == HTA_ARR_BERNOULLI && top * maxload > o->per_unit)
        return USAGE("Bernoulli arrivals need every lambda_L * load / K <= "
                     "1, found %g", top * maxload / o->per_unit);
    for (int n = 0; n < c->levels; n++)
        if (c->rate[n] > o->per_unit)
            return USAGE("the service rate %g of level %d is %g tasks a "
                         "slot, above 1 (a server ends at most one a slot): "
                         "give --slots-per-unit %.0f or more (rates per time "
                         "unit of K slots)",
                         c->rate[n], n + 1, c->rate[n] / o->per_unit,
                         ceil(c->rate[n]));
    double most = su->total * maxload / o->per_unit;
    if (!su->trace && !(most <= HTA_SIM_MAX_ARRIVALS))
        return USAGE("the arrivals are %g tasks a slot, above 10^9 (a "
                     "slot's draws are 64-bit counts): a smaller --load or "
                     "arrival rates", most);
    return HTA_OK;
}

hta_status hta_sim_setup_make(const hta_sim_ask *a, const hta_cluster *c,
                              hta_sim_setup *su, hta_diag *d)
{
    memset(su, 0, sizeof *su);
    hta_sim_opts *o = &su->o;
    hta_sim_opts_default(o);
    o->job_size = (hta_dist){0}; /* nothing owned until parsed */
    hta_status st = hta_sim_ask_check(a, d);
    if (st != HTA_OK)
        return st;
    int jobs = a->has_arrivals && a->arrivals == HTA_ARR_JOBS;
    su->npols = 0;
    if (a->npols) {
        for (int q = 0; q < a->npols; q++) {
            if (a->plugs[q] &&
                (st = copy_plug(su, su->npols, a->plugs[q], d)) != HTA_OK)
                return st;
            su->pols[su->npols++] = a->pols[q];
        }
    } else {
        for (int p = 0; p < HTA_SIM_NPOLICIES; p++)
            if (jobs || (p != HTA_SIM_FAIR && p != HTA_SIM_DELAY))
                su->pols[su->npols++] = (hta_sim_policy)p;
    }
    su->nloads = a->nloads ? a->nloads : 1;
    su->loads[0] = 1;
    for (int k = 0; k < a->nloads; k++)
        su->loads[k] = a->loads[k];
    o->load = su->loads[0];
    if (a->per_unit)
        o->per_unit = (double)a->per_unit;
    if (a->slots)
        o->slots = a->slots;
    o->warmup = a->warmup >= 0 ? a->warmup : o->slots / 10;
    if (a->batches)
        o->batches = a->batches;
    if (a->has_arrivals)
        o->arrivals = a->arrivals;
    if (a->has_service)
        o->service = a->service;
    if (a->cv)
        o->cv = a->cv;
    o->subqueues = a->subqueues;
    if (a->has_seed)
        o->seed = a->seed;
    for (int i = 0; i < a->ndelay; i++)
        o->delay[i] = a->delay[i];
    if (a->ndelay == 1)
        o->delay[1] = 0;
    if ((su->backlog_given = a->max_backlog != 0))
        o->max_backlog = a->max_backlog;
    o->trace_every = a->trace_every ? a->trace_every :
                     o->slots >= 1000 ? o->slots / 1000 : 1;
    o->stop = a->stop;
    char msg[300];
    if (hta_dist_parse(a->job_size ? a->job_size : "fixed:10", &o->job_size,
                       msg, sizeof msg) != 0)
        return USAGE("--job-size: %s", msg);
    if ((st = hta_dist_load(&o->job_size, d)) != HTA_OK)
        return st;
    if (a->jobs_trace) {
        const double mib = 1048576.0;
        hta_swim_opts so = {(a->block_mb ? a->block_mb : 64) * mib,
                            a->time_scale ? a->time_scale : 1, 1024 * mib};
        if ((st = hta_jobs_from_swim(a->jobs_trace, &so, &su->trace, d)) !=
            HTA_OK)
            return st;
        o->trace_jobs = su->trace;
    }
    for (int64_t L = 0; L < c->T; L++)
        su->total += c->lambda[L];
    if ((st = limits(c, su, d)) != HTA_OK)
        return st;
    for (int i = 0; i < 2; i++) /* default: one skip per server */
        if (o->delay[i] < 0)
            o->delay[i] = c->M;
    hta_capacity_opts co = {HTA_CAP_AUTO, 0, 0, 0, NULL, NULL, a->stop};
    hta_capacity_result cap = {0};
    st = hta_capacity_solve(c, &co, &cap, d);
    su->rho1 = cap.rho;
    hta_capacity_result_free(&cap);
    return st;
}

void hta_sim_setup_point(const hta_sim_setup *su, int load, double *rate,
                         double *rho)
{
    double x = su->loads[load];
    *rate = x;
    *rho = su->rho1 * x;
    const hta_jobs *tj = su->trace;
    if (!tj)
        return;
    /* the trace's own rate, the cluster's type mix */
    double span = (double)(tj->arrival[tj->n - 1] - tj->arrival[0] + 1);
    double tasks = 0;
    for (int64_t i = 0; i < tj->n; i++)
        tasks += (double)tj->map[i];
    double r = tasks / span * su->o.per_unit;
    *rho = su->total > 0 ? su->rho1 * r / su->total : 0;
    *rate = su->total > 0 ? r / su->total : 1;
}

void hta_sim_setup_run(const hta_sim_setup *su, int k, hta_sim_opts *o)
{
    *o = su->o;
    o->load = su->loads[k / su->npols];
    o->policy = su->pols[k % su->npols];
    o->plugin = su->plugs[k % su->npols];
}

/* One run's sample path. */
typedef struct tracer {
    FILE *f;
    double load;
    const char *policy;
} tracer;

static void trace_line(void *ctx, int64_t slot, int64_t n)
{
    tracer *t = ctx;
    fprintf(t->f, "%g,%s,%lld,%lld\n", t->load, t->policy, (long long)slot,
            (long long)n);
}

typedef struct batch {
    const hta_cluster *c;
    const hta_sim_setup *su;
    hta_sim_result *res;
    int *ran;
    hta_status *st;
    hta_diag *d;
    tracer *tr;
    int64_t backlog;
} batch;

static void run_one(void *ctx, int k)
{
    batch *b = ctx;
    const hta_sim_setup *su = b->su;
    hta_sim_opts o;
    hta_sim_setup_run(su, k, &o);
    o.max_backlog = b->backlog;
    if (b->tr) {
        o.trace = trace_line;
        o.trace_ctx = &b->tr[k];
    }
    hta_diag_clear(&b->d[k]);
    hta_sim_result *r = &b->res[k];
    b->st[k] = hta_sim_run(b->c, &o, r, &b->d[k]);
    b->ran[k] = 1;
    if (b->st[k] != HTA_OK && !r->cut) /* nothing kept */
        return;
    double K = o.per_unit; /* delays in time units, throughput per unit */
    r->mean_delay /= K;
    r->ci_delay /= K;
    r->mean_job_delay /= K;
    r->ci_job_delay /= K;
    for (int cl = 0; cl < HTA_SIM_CLASSES; cl++)
        for (int i = 0; i < 3; i++)
            r->class_pct[cl][i] /= K;
    r->throughput *= K;
}

/* The runs' own trace files copied into out in run order, up to the
 * first run not done or cut. */
static hta_status copy_traces(const batch *b, int n, FILE *out, hta_diag *d)
{
    for (int k = 0; k < n; k++) {
        if (!b->ran[k] || b->st[k] != HTA_OK)
            break;
        FILE *f = b->tr[k].f;
        if (f != out) {
            char buf[65536];
            size_t got;
            rewind(f);
            while ((got = fread(buf, 1, sizeof buf, f)) > 0)
                fwrite(buf, 1, got, out);
            if (ferror(f))
                return hta_diag_set(d, HTA_ERR_IO, NULL, 0,
                                    "cannot read back the trace: %s",
                                    strerror(errno));
        }
        if (b->res[k].cut)
            break;
    }
    return HTA_OK;
}

hta_status hta_sim_batch(const hta_cluster *c, const hta_sim_setup *su,
                         int threads, FILE *trace, hta_sim_result *res,
                         int *ran, hta_diag *d)
{
    int n = su->nloads * su->npols;
    batch b = {c, su, res, ran, calloc((size_t)n, sizeof *b.st),
               calloc((size_t)n, sizeof *b.d),
               trace ? calloc((size_t)n, sizeof *b.tr) : NULL,
               su->o.max_backlog};
    if (!su->backlog_given) /* the runs going at once share the memory */
        b.backlog = hta_sim_backlog_for(threads < n ? threads : n);
    hta_status st = HTA_OK;
    if (!b.st || !b.d || (trace && !b.tr))
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    memset(ran, 0, (size_t)n * sizeof *ran);
    memset(res, 0, (size_t)n * sizeof *res);
    for (int k = 0; trace && st == HTA_OK && k < n; k++) {
        hta_sim_opts o;
        hta_sim_setup_run(su, k, &o);
        b.tr[k] = (tracer){trace, o.load, hta_sim_opts_policy_name(&o)};
        if (threads > 1 && n > 1 && !(b.tr[k].f = tmpfile()))
            st = hta_diag_set(d, HTA_ERR_IO, NULL, 0,
                              "cannot make a temporary file for the trace: "
                              "%s", strerror(errno));
    }
    if (st == HTA_OK)
        hta_pool_run(threads, n, run_one, &b, su->o.stop);
    for (int k = 0; st == HTA_OK && k < n; k++)
        if (ran[k] && b.st[k] != HTA_OK) {
            st = b.st[k];
            *d = b.d[k];
        }
    if (st == HTA_OK && trace)
        st = copy_traces(&b, n, trace, d);
    for (int k = 0; b.tr && k < n; k++)
        if (b.tr[k].f && b.tr[k].f != trace)
            fclose(b.tr[k].f);
    free(b.st);
    free(b.d);
    free(b.tr);
    return st;
}
