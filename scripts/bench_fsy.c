/* Benchmark driver for the flow algorithm: times each phase on one
 * instance, median of R runs.  Prints one line of figures; asserts
 * nothing.
 * usage: bench_fsy INSTANCE [RUNS] [igraph-sweep|igraph-one|none] [THREADS]
 *        bench_fsy FILE RUNS digits
 * THREADS: the reader's (hta_instance_read_tuning; 0, the default: as
 * many as there are processors, at most 2).  digits: the median seconds
 * of the least any reader of the file does, each byte looked at once and
 * every decimal number converted (read in 1 MiB chunks, nothing stored,
 * nothing checked): the floor under the reader's time on one core.
 * After the fixed columns: the median of the per-run ratio fsy / parse
 * and, on Linux, the processor each run's fsy ended on (cpu N xK): on a
 * machine whose processors differ in memory speed the ratio depends on
 * where the single-threaded algorithm runs (the reader uses two). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getcpu */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sched.h>
#endif

#include "hta/num.h"
#include "hta/bounds.h"
#include "hta/buf.h"
#include "hta/instance.h"
#include "hta/fsy.h"
#include "hta/maxcover.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A whole max-cover sweep tau = 1..K with one engine. */
static double sweep(const hta_instance *inst, hta_maxflow_engine e, int64_t K)
{
    hta_maxcover *mc;
    hta_diag d;
    double t0 = hta_clock_now();
    if (hta_maxcover_new(inst, e, &mc, &d) != HTA_OK)
        return NAN;
    for (int64_t tau = 1; tau <= K; tau++)
        if (hta_maxcover_raise(mc, tau, &d) != HTA_OK)
            return NAN;
    hta_maxcover_free(mc);
    return hta_clock_now() - t0;
}

/* Seconds of one pass of the digits loop over path, or NAN. */
static double digits(const char *path, uint64_t *sum)
{
    enum { CHUNK = 1 << 20 };
    static char buf[CHUNK];
    FILE *f = fopen(path, "rb");
    if (!f)
        return NAN;
    double t0 = hta_clock_now();
    uint64_t v = 0, total = 0;
    size_t got;
    while ((got = fread(buf, 1, CHUNK, f)) > 0)
        for (size_t i = 0; i < got; i++) {
            unsigned c = (unsigned char)buf[i] - '0';
            if (c <= 9) {
                v = v * 10 + c;
            } else {
                total += v;
                v = 0;
            }
        }
    double t = hta_clock_now() - t0;
    fclose(f);
    *sum = total + v;
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_fsy INSTANCE [RUNS] [igraph-sweep|"
                        "igraph-one|none|digits] [THREADS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    const char *ig = argc > 3 ? argv[3] : "none";
    if (runs < 1 || runs > 100)
        runs = 5;
    if (strcmp(ig, "digits") == 0) {
        double *t = calloc((size_t)runs, sizeof *t);
        uint64_t sum = 0;
        for (int r = 0; r < runs; r++)
            if (isnan(t[r] = digits(argv[1], &sum))) {
                fprintf(stderr, "bench_fsy: cannot read %s\n", argv[1]);
                return 1;
            }
        printf("%.3f (sum of the numbers %llu)\n", median(t, runs),
               (unsigned long long)sum);
        free(t);
        return 0;
    }
    hta_instance_read_tuning(argc > 4 ? atoi(argv[4]) : 0, 0, 0);
    double *t_parse = calloc((size_t)runs, sizeof(double));
    double *t_fsy = calloc((size_t)runs, sizeof(double));
    double *t_cover = calloc((size_t)runs, sizeof(double));
    double *t_bal = calloc((size_t)runs, sizeof(double));
    double *t_lb = calloc((size_t)runs, sizeof(double));
    double *t_inc = calloc((size_t)runs, sizeof(double));
    double *ratio = calloc((size_t)runs, sizeof(double));
    int cpus[64] = {0}; /* runs whose fsy ended on processor i */
    hta_instance *inst = NULL;
    hta_diag d;
    hta_fsy_result res;
    memset(&res, 0, sizeof res);
    int64_t K = 0;
    double span = 0, lb = 0;
    for (int r = 0; r < runs; r++) {
        hta_instance_free(inst);
        double t0 = hta_clock_now();
        if (hta_instance_parse(argv[1], &inst, &d) != HTA_OK) {
            fprintf(stderr, "%s\n", d.msg);
            return 1;
        }
        t_parse[r] = hta_clock_now() - t0;
        /* the answer on huge pages, as the command allocates it (solve.c) */
        int32_t *a = hta_malloc_huge((size_t)inst->m * sizeof *a);
        hta_fsy_opts o = {HTA_MAXFLOW_INCREMENTAL, 2, 0, NULL, NULL, NULL, NULL};
        hta_fsy_result_free(&res);
        t0 = hta_clock_now();
        if (hta_fsy_run(inst, &o, a, &res, &d) != HTA_OK) {
            fprintf(stderr, "%s\n", d.msg);
            return 1;
        }
        t_fsy[r] = hta_clock_now() - t0;
        ratio[r] = t_fsy[r] / t_parse[r];
#if defined(__linux__)
        int cpu = sched_getcpu();
        if (cpu >= 0 && cpu < 64)
            cpus[cpu]++;
#endif
        t_cover[r] = res.seconds_cover;
        t_bal[r] = res.seconds_balance;
        K = res.K;
        span = res.makespan;
        t0 = hta_clock_now();
        hta_bound_flow_compute(inst, &lb, &d);
        t_lb[r] = hta_clock_now() - t0;
        t_inc[r] = sweep(inst, HTA_MAXFLOW_INCREMENTAL, K);
        free(a);
    }
    double ig_time = NAN;
    int64_t ig_taus = 0;
    if (strcmp(ig, "igraph-sweep") == 0) {
        ig_time = sweep(inst, HTA_MAXFLOW_IGRAPH, K);
        ig_taus = K;
    } else if (strcmp(ig, "igraph-one") == 0) {
        /* One igraph_maxflow call at tau = ceil(m/n). */
        hta_maxcover *mc;
        double t0 = hta_clock_now();
        hta_maxcover_new(inst, HTA_MAXFLOW_IGRAPH, &mc, &d);
        hta_maxcover_raise(mc, (inst->m + inst->n - 1) / inst->n, &d);
        ig_time = hta_clock_now() - t0;
        ig_taus = 1;
        hta_maxcover_free(mc);
    }
    printf("%-9lld %-7ld %8.3f %8.3f %8.3f %8.3f %8.3f %9.3f  %-6lld ",
           (long long)inst->m, (long)inst->n, median(t_parse, runs),
           median(t_fsy, runs), median(t_cover, runs), median(t_bal, runs),
           median(t_lb, runs), median(t_inc, runs), (long long)K);
    if (ig_taus)
        printf("%9.3f (%lld tau%s)", ig_time, (long long)ig_taus,
               ig_taus > 1 ? "s" : "");
    else
        printf("%9s", "-");
    printf("  L=%g LB=%g  fsy/parse %.2f", span, lb, median(ratio, runs));
    for (int i = 0; i < 64; i++)
        if (cpus[i])
            printf(" (cpu %d x%d)", i, cpus[i]);
    printf("\n");
    hta_fsy_result_free(&res);
    hta_instance_free(inst);
    free(t_parse);
    free(t_fsy);
    free(t_cover);
    free(t_bal);
    free(t_lb);
    free(t_inc);
    free(ratio);
    return 0;
}
