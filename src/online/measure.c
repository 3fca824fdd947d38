/* What a simulation run measures (measure.h): batch means with Student's
 * t intervals, job-delay percentiles from a logarithmic histogram,
 * Little's law's gap, and the stability verdict: a least-squares slope of
 * the batch means of N over the second half, growing when its t statistic
 * passes 2.58 (1%) and the rise over the half passes 10% of their mean. */
#include "measure.h"

#include <math.h>
#include <stdlib.h>

#include "core/stats.h"

int measure_init(measure *m, const hta_sim_opts *o)
{
    m->B = o->batches;
    m->warmup = o->warmup;
    m->measured = o->slots - o->warmup;
    m->blen = m->measured / m->B; /* the last batch takes the rest */
    m->all = (sim_sums){0};
    m->bt = calloc((size_t)m->B, sizeof *m->bt);
    m->hist = calloc((size_t)HTA_SIM_CLASSES * HTA_SIM_BINS, sizeof *m->hist);
    return m->bt && m->hist ? 0 : -1;
}

void measure_free(measure *m)
{
    free(m->bt);
    free(m->hist);
    m->bt = NULL;
    m->hist = NULL;
}

sim_sums *measure_batch(measure *m, int64_t t)
{
    if (t <= m->warmup)
        return NULL;
    int64_t b = (t - m->warmup - 1) / m->blen;
    return &m->bt[b < m->B ? b : m->B - 1];
}

void measure_job(measure *m, sim_sums *b, int64_t size, double jd)
{
    b->jdelay += jd;
    b->jobs += 1;
    int cl = size <= 1 ? 0 : size <= 10 ? 1 : size <= 100 ? 2 :
             size <= 1000 ? 3 : 4;
    int bin = (int)(log(jd) / log(1.01));
    if (bin >= HTA_SIM_BINS)
        bin = HTA_SIM_BINS - 1;
    m->hist[cl * HTA_SIM_BINS + bin]++;
}

/* Median, 95th and 99th percentile of the job delays by size class: the
 * geometric middle of the bin (within 0.5%). */
static void percentiles(const measure *m, hta_sim_result *r)
{
    static const double q[3] = {0.5, 0.95, 0.99};
    for (int cl = 0; cl < HTA_SIM_CLASSES; cl++) {
        const int64_t *h = m->hist + cl * HTA_SIM_BINS;
        int64_t n = 0;
        for (int i = 0; i < HTA_SIM_BINS; i++)
            n += h[i];
        r->class_jobs[cl] = n;
        for (int k = 0; k < 3; k++) {
            r->class_pct[cl][k] = NAN;
            int64_t need = (int64_t)ceil(q[k] * (double)n), acc = 0;
            for (int i = 0; i < HTA_SIM_BINS && n > 0; i++) {
                acc += h[i];
                if (acc >= need && need > 0) {
                    r->class_pct[cl][k] = pow(1.01, i + 0.5);
                    break;
                }
            }
        }
    }
}

/* The slope test on the batch means bm[h0 .. nb) (hn = nb - h0 >= 3). */
static void slope_test(const double *bm, int h0, int nb, int64_t blen,
                       hta_sim_result *r)
{
    int hn = nb - h0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = h0; i < nb; i++) {
        double x = (double)(i - h0) * (double)blen;
        sx += x;
        sy += bm[i];
        sxx += x * x;
        sxy += x * bm[i];
    }
    double den = hn * sxx - sx * sx;
    r->slope = (hn * sxy - sx * sy) / den;
    double icpt = (sy - r->slope * sx) / hn, sse = 0;
    for (int i = h0; i < nb; i++) {
        double x = (double)(i - h0) * (double)blen;
        double e = bm[i] - icpt - r->slope * x;
        sse += e * e;
    }
    double se = sqrt(sse / (hn - 2) / (sxx - sx * sx / hn));
    r->slope_t = se > 0 ? r->slope / se : (r->slope > 0 ? INFINITY : 0);
    double rise = r->slope * (double)blen * hn;
    r->growing = r->slope_t > 2.58 && rise > 0.1 * fmax(sy / hn, 1);
}

void measure_finish(const measure *m, int64_t slots, int ended,
                    int unstable, int32_t M, hta_sim_result *r)
{
    int B = m->B;
    int64_t blen = m->blen, done = slots - m->warmup;
    /* the complete batches (the last, which takes the rest, is complete
     * only in a whole run) */
    int nb = done <= 0 ? 0 : (int)(done / blen);
    if (nb > (ended ? B - 1 : B))
        nb = ended ? B - 1 : B;
    if (nb > 4096)
        nb = 4096;
    double bm[4096], dm[4096], jm[4096];
    int nd = 0, nj = 0;
    sim_sums c = {0}; /* over the complete batches */
    for (int i = 0; i < nb; i++) {
        const sim_sums *b = &m->bt[i];
        int64_t len = i == B - 1 ? m->measured - blen * (B - 1) : blen;
        bm[i] = b->n / (double)len;
        if (b->deps > 0)
            dm[nd++] = b->delay / b->deps;
        if (b->jobs > 0)
            jm[nj++] = b->jdelay / b->jobs;
        c.deps += b->deps;
        c.busy += b->busy;
    }
    r->mean_n = r->ci_n = r->mean_delay = r->ci_delay = NAN;
    r->mean_job_delay = r->ci_job_delay = NAN;
    if (nb >= 2)
        hta_mean_ci(bm, nb, &r->mean_n, &r->ci_n);
    if (nd >= 2)
        hta_mean_ci(dm, nd, &r->mean_delay, &r->ci_delay);
    if (nj >= 2)
        hta_mean_ci(jm, nj, &r->mean_job_delay, &r->ci_job_delay);
    percentiles(m, r);
    int64_t mslots = nb == B ? m->measured : blen * nb;
    r->throughput = mslots > 0 ? c.deps / (double)mslots : NAN;
    r->utilisation = mslots > 0 ? c.busy / ((double)M * (double)mslots) : NAN;
    if (ended) { /* over every measured slot it ran, or every slot */
        sim_sums t = done > 0 ? (sim_sums){0} : m->all;
        for (int i = 0; i < B && done > 0; i++) {
            t.n += m->bt[i].n;
            t.delay += m->bt[i].delay;
            t.deps += m->bt[i].deps;
            t.jdelay += m->bt[i].jdelay;
            t.jobs += m->bt[i].jobs;
            t.busy += m->bt[i].busy;
        }
        double sl = (double)(done > 0 ? done : slots);
        if (sl > 0) {
            r->mean_n = t.n / sl;
            r->throughput = t.deps / sl;
            r->utilisation = t.busy / ((double)M * sl);
            r->mean_delay = t.deps > 0 ? t.delay / t.deps : NAN;
            r->mean_job_delay = t.jobs > 0 ? t.jdelay / t.jobs : NAN;
        }
    }
    /* Little's law over the whole run: sum of N = time in system of the
     * departed + that of those still in (a delay counts its last slot) */
    const sim_sums *a = &m->all;
    double Lw = a->n / (double)slots;
    double Wm = a->deps > 0 ? (a->delay - a->deps) / a->deps : 0;
    r->little_gap = slots == 0 ? NAN :
                    fabs(Lw - a->deps / (double)slots * Wm) / fmax(Lw, 1e-12);
    int h0 = nb / 2, hn = nb - h0;
    if (hn >= 3)
        slope_test(bm, h0, nb, blen, r);
    else
        r->slope = r->slope_t = NAN; /* no test */
    r->verdict = unstable       ? HTA_SIM_UNSTABLE :
                 r->growing     ? HTA_SIM_GROWING :
                 ended || hn < 3 ? HTA_SIM_UNDECIDED :
                                   HTA_SIM_STABLE;
    if (unstable)
        r->backlog_slot = slots + 1;
}
