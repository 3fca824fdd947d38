/* Random workloads (jobs.h): Poisson jobs of drawn sizes, streamed to a
 * callback, an hta_jobs or a file. */
#include "hta/jobs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/outfile.h"
#include "hta/rng.h"

#include "build.h"

hta_status hta_jobs_gen_stream(const hta_jobs_gen *g, hta_jobs_emit emit,
                               void *ctx, hta_diag *d)
{
    double mean = hta_dist_mean(&g->map) +
                  (1 - g->map_only) * hta_dist_mean(&g->reduce);
    double rate = g->load * g->machines / mean; /* jobs per slot */
    if (g->jobs > HTA_JOBS_MAX_JOBS)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected at most %lld jobs, found %lld",
                            (long long)HTA_JOBS_MAX_JOBS,
                            (long long)g->jobs);
    int64_t *red = malloc(((size_t)g->max_tasks + 1) * sizeof *red);
    if (!red)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    hta_status st = HTA_OK;
    hta_rng r;
    hta_rng_seed(&r, g->seed);
    double time = 0;
    int64_t work = 0;
    for (int64_t i = 0; i < g->jobs && st == HTA_OK; i++) {
        if ((i & 0xffff) == 0 && g->stop && *g->stop) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "interrupted");
            break;
        }
        time += -log(1.0 - hta_rng_unit(&r)) / rate;
        double slot = floor(time) + 1;
        if (slot > (double)HTA_JOBS_MAX_ARRIVAL) {
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "expected arrivals within %lld slots",
                              (long long)HTA_JOBS_MAX_ARRIVAL);
            break;
        }
        int64_t m = hta_dist_draw(&g->map, &r), k = 0, w = m;
        int only = g->map_only > 0 && hta_rng_unit(&r) < g->map_only;
        if (!only) {
            int64_t R = hta_dist_draw(&g->reduce, &r);
            k = 1 + (int64_t)hta_rng_below(&r, (uint64_t)g->max_tasks);
            if (k > R)
                k = R;
            traces_split_even(R, k, red);
            w += R;
        }
        if (w > HTA_JOBS_MAX_WORK - work) {
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "expected at most %lld units of work in all, "
                              "found %lld with this job",
                              (long long)HTA_JOBS_MAX_WORK,
                              (long long)(work + w));
            break;
        }
        work += w;
        st = emit(ctx, (int64_t)slot, m, red, k, d);
    }
    free(red);
    return st;
}

static hta_status emit_add(void *ctx, int64_t arrival, int64_t map,
                           const int64_t *red, int64_t k, hta_diag *d)
{
    return hta_jobs_add(ctx, arrival, map, red, k, d);
}

hta_status hta_jobs_generate(const hta_jobs_gen *g, hta_jobs **out,
                             hta_diag *d)
{
    *out = NULL;
    hta_jobs *j = hta_jobs_new();
    if (!j)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    hta_status st = hta_jobs_gen_stream(g, emit_add, j, d);
    if (st != HTA_OK) {
        hta_jobs_free(j);
        return st;
    }
    *out = j;
    return HTA_OK;
}

static hta_status emit_line(void *ctx, int64_t arrival, int64_t map,
                            const int64_t *red, int64_t k, hta_diag *d)
{
    FILE *f = ctx;
    fprintf(f, "job %lld %lld", (long long)arrival, (long long)map);
    for (int64_t t = 0; t < k; t++)
        fprintf(f, " %lld", (long long)red[t]);
    if (putc('\n', f) == EOF)
        return hta_diag_set(d, HTA_ERR_IO, NULL, 0, "write error");
    return HTA_OK;
}

hta_status hta_jobs_gen_write(const hta_jobs_gen *g, FILE *f,
                              const char *comment, hta_diag *d)
{
    hta_write_comment(f, '#', comment);
    fprintf(f, "hta-jobs 1\n");
    hta_status st = hta_jobs_gen_stream(g, emit_line, f, d);
    if (st == HTA_OK && ferror(f))
        st = hta_diag_set(d, HTA_ERR_IO, NULL, 0, "write error");
    return st;
}

static hta_status emit_none(void *ctx, int64_t arrival, int64_t map,
                            const int64_t *red, int64_t k, hta_diag *d)
{
    (void)ctx, (void)arrival, (void)map, (void)red, (void)k, (void)d;
    return HTA_OK;
}

hta_status hta_jobs_gen_check(const hta_jobs_gen *g, hta_diag *d)
{
    return hta_jobs_gen_stream(g, emit_none, NULL, d);
}
