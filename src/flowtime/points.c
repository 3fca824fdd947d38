/* What `hta flowtime` and hta.flowtime report for each number of
 * machines: every policy on a pool of threads, the bounds, the exact
 * program (flowtime.h). */
#include "hta/flowtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/pool.h"

const char *const hta_ft_class_names[HTA_FT_NCLASSES] = {
    "1", "2-10", "11-100", "101-1000", ">1000"};

int hta_ft_size_class(const hta_jobs *J, int64_t i)
{
    int64_t w = J->map[i] + hta_jobs_reduce_work(J, i);
    return w <= 1 ? 0 : w <= 10 ? 1 : w <= 100 ? 2 : w <= 1000 ? 3 : 4;
}

int64_t hta_ft_span(const hta_jobs *J)
{
    return J->arrival[J->n - 1] - J->arrival[0] + 1;
}

double hta_ft_machines_for(const hta_jobs *J, double load)
{
    double n = ceil((double)J->work / (load * (double)hta_ft_span(J)));
    return n < 1 ? 1 : n;
}

/* One run of the pool: a point (its machines) and a policy other than
 * exact. */
typedef struct ft_job {
    int32_t N;
    int policy;
    hta_ft_result res;
    hta_status st;
    hta_diag d;
    int ran;
} ft_job;

typedef struct ft_pool {
    const hta_jobs *J;
    const hta_ft_points_opts *o;
    ft_job *jobs;
} ft_pool;

static void ft_job_run(void *ctx, int k)
{
    ft_pool *p = ctx;
    ft_job *j = &p->jobs[k];
    hta_ft_opts o = {j->N,          p->o->preemptive, NULL,
                     p->o->progress, p->o->progress_ctx, p->o->stop,
                     p->o->stepwise};
    hta_diag_clear(&j->d);
    j->st = hta_ft_run(p->J, (hta_ft_policy)j->policy, &o, &j->res, &j->d);
    j->ran = 1;
}

/* The policies that are runs of the pool: every one but exact (and
 * dsrpt in the non-preemptive mode). */
static int pool_policies(const hta_ft_points_opts *o, int *out)
{
    int n = 0;
    for (int q = 0; q < o->npols; q++)
        if (o->pols[q] != HTA_FT_EXACT &&
            (o->pols[q] != HTA_FT_DSRPT || o->preemptive))
            out[n++] = o->pols[q];
    return n;
}

/* The point's rows from its runs (jobs, in policy order; their finish
 * arrays move into the rows), then the exact program. */
static hta_status run_point(const hta_jobs *J, const hta_ft_points_opts *o,
                            int32_t N, ft_job *jobs, hta_ft_point *pt,
                            hta_diag *d)
{
    memset(pt, 0, sizeof *pt);
    pt->N = N;
    pt->load = (double)J->work / ((double)N * (double)hta_ft_span(J));
    for (int64_t i = 0; i < J->n; i++) {
        pt->lbsum += hta_ft_job_lb(J, i, N, o->preemptive);
        pt->class_jobs[hta_ft_size_class(J, i)]++;
    }
    int64_t best = INT64_MAX;
    int want_exact = 0;
    for (int q = 0; q < o->npols; q++)
        want_exact |= o->pols[q] == HTA_FT_EXACT;
    int run[HTA_FT_NPOLICIES + 1];
    int nrun = pool_policies(o, run);
    for (int q = 0; q < nrun; q++) {
        ft_job *j = &jobs[q];
        if (!j->ran) {
            pt->interrupted = 1;
            return HTA_OK;
        }
        if (j->st != HTA_OK) {
            *d = j->d;
            return j->st;
        }
        hta_ft_row *r = &pt->rows[pt->nrows++];
        r->policy = run[q];
        r->cut = j->res.cut;
        r->total = j->res.total;
        r->seconds = j->res.seconds;
        for (int64_t i = 0; i < J->n; i++)
            if (j->res.finish[i])
                r->cls_sum[hta_ft_size_class(J, i)] +=
                    (double)(j->res.finish[i] - J->arrival[i] + 1);
        r->finish = j->res.finish;
        j->res.finish = NULL;
        if (j->res.cut) {
            pt->interrupted = 1;
            return HTA_OK;
        }
        if (run[q] == HTA_FT_SRPT) {
            pt->srpt = r->total;
            pt->have_srpt = 1;
        } else if (r->total < best) {
            best = r->total;
        }
    }
    if (!want_exact)
        return HTA_OK;
    hta_ft_opts fo = {N,
                      o->preemptive,
                      NULL,
                      o->exact_progress,
                      o->exact_progress_ctx,
                      o->stop,
                      o->stepwise};
    if (best == INT64_MAX) { /* exact needs a feasible schedule's total */
        hta_ft_result res;
        hta_status st = hta_ft_run(J, HTA_FT_FIFO, &fo, &res, d);
        if (st != HTA_OK)
            return st;
        best = res.total;
        hta_ft_result_free(&res);
    }
    hta_ft_exact_opts eo = {N,          o->preemptive, best,
                            o->exact_max_vars, o->time_limit, o->verbose,
                            o->stop};
    pt->exact_cols = hta_ft_exact_size(J, &eo);
    if (pt->exact_cols > eo.max_vars) {
        pt->exact_skipped = 1;
        return HTA_OK;
    }
    hta_status st = hta_ft_exact_solve(J, &eo, &pt->ex, d);
    if (st != HTA_OK)
        return st;
    pt->exact_ran = 1;
    if (pt->ex.cut && o->stop && *o->stop)
        pt->interrupted = 1;
    return HTA_OK;
}

hta_status hta_ft_points(const hta_jobs *J, const hta_ft_points_opts *o,
                         const int32_t *N, int n, hta_ft_point *pts,
                         int *done, hta_diag *d)
{
    *done = 0;
    for (int q = 0; q < o->npols; q++)
        if (o->pols[q] == HTA_FT_DSRPT && !o->preemptive)
            return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                                "dsrpt is defined for the preemptive mode "
                                "only");
    int run[HTA_FT_NPOLICIES + 1];
    int nrun = pool_policies(o, run);
    ft_job *jobs = calloc((size_t)(n * nrun) + 1, sizeof *jobs);
    if (!jobs)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (int k = 0; k < n * nrun; k++) {
        jobs[k].N = N[k / nrun];
        jobs[k].policy = run[k % nrun];
    }
    ft_pool pool = {J, o, jobs};
    /* a run holds about 64 bytes a job (dsrpt's, the most: 43) */
    hta_pool_run(hta_pool_fit(o->threads > 0 ? o->threads : 1, n * nrun,
                              64.0 * (double)J->n + 1048576),
                 n * nrun, ft_job_run, &pool, o->stop);
    hta_status st = HTA_OK;
    for (int k = 0; k < n && st == HTA_OK; k++) {
        st = run_point(J, o, N[k], jobs + k * nrun, &pts[k], d);
        if (st != HTA_OK) {
            hta_ft_point_free(&pts[k]);
            break;
        }
        *done = k + 1;
        if (pts[k].interrupted)
            break;
    }
    for (int k = 0; k < n * nrun; k++)
        hta_ft_result_free(&jobs[k].res);
    free(jobs);
    return st;
}

void hta_ft_point_free(hta_ft_point *pt)
{
    if (!pt)
        return;
    for (int q = 0; q < pt->nrows; q++) {
        free(pt->rows[q].finish);
        pt->rows[q].finish = NULL;
    }
    hta_ft_sched_free(&pt->ex.sched);
}

double hta_ft_lower_bound(const hta_ft_point *pt)
{
    double lb = (double)pt->lbsum;
    if (pt->have_srpt && (double)pt->srpt > lb)
        lb = (double)pt->srpt;
    if (pt->exact_ran && (double)pt->ex.bound > lb)
        lb = (double)pt->ex.bound;
    return lb;
}
