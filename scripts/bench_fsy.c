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
 * where the single-threaded algorithm runs (the reader uses two).
 * Each run (parse, fsy, bound, sweep) is a fresh process (fork), as each
 * command is: in one process the reader reused the pages of the run
 * before while fsy's huge blocks were mapped anew, which read fsy/parse
 * 0.1-0.3 higher than fresh processes on Zipf s = 1, 10^6 tasks. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getcpu */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
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

/* One run's figures, from its process. */
typedef struct run {
    int ok, cpu;
    int64_t m, n, K;
    double parse, fsy, cover, bal, lb, inc, span, bound;
} run;

/* Parse, fsy, the flow bound and the sweep alone, in this process. */
static run one_run(const char *path)
{
    run x;
    memset(&x, 0, sizeof x);
    x.cpu = -1;
    hta_instance *inst = NULL;
    hta_diag d;
    double t0 = hta_clock_now();
    if (hta_instance_parse(path, &inst, &d) != HTA_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return x;
    }
    x.parse = hta_clock_now() - t0;
    x.m = inst->m;
    x.n = inst->n;
    /* the answer on huge pages, as the command allocates it (solve.c) */
    int32_t *a = hta_malloc_huge((size_t)inst->m * sizeof *a);
    hta_fsy_opts o = {HTA_MAXFLOW_INCREMENTAL, 2, 0, NULL, NULL, NULL, NULL};
    hta_fsy_result res;
    t0 = hta_clock_now();
    if (!a || hta_fsy_run(inst, &o, a, &res, &d) != HTA_OK) {
        fprintf(stderr, "%s\n", a ? d.msg : "out of memory");
        free(a);
        hta_instance_free(inst);
        return x;
    }
    x.fsy = hta_clock_now() - t0;
#if defined(__linux__)
    x.cpu = sched_getcpu();
#endif
    x.cover = res.seconds_cover;
    x.bal = res.seconds_balance;
    x.K = res.K;
    x.span = res.makespan;
    hta_fsy_result_free(&res);
    t0 = hta_clock_now();
    hta_bound_flow_compute(inst, &x.bound, &d);
    x.lb = hta_clock_now() - t0;
    x.inc = sweep(inst, HTA_MAXFLOW_INCREMENTAL, x.K);
    free(a);
    hta_instance_free(inst);
    x.ok = 1;
    return x;
}

/* one_run in a child process; its figures through a pipe. */
static run fresh_run(const char *path)
{
    run x;
    memset(&x, 0, sizeof x);
    int fd[2];
    if (pipe(fd) != 0)
        return x;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return x;
    }
    if (pid == 0) {
        close(fd[0]);
        run y = one_run(path);
        ssize_t w = write(fd[1], &y, sizeof y);
        _exit(w == (ssize_t)sizeof y ? 0 : 1);
    }
    close(fd[1]);
    size_t got = 0;
    while (got < sizeof x) {
        ssize_t n = read(fd[0], (char *)&x + got, sizeof x - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    if (got != sizeof x || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        x.ok = 0;
    return x;
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
    int64_t m = 0, n = 0, K = 0;
    double span = 0, lb = 0;
    for (int r = 0; r < runs; r++) {
        run x = fresh_run(argv[1]);
        if (!x.ok) {
            fprintf(stderr, "bench_fsy: run %d on %s failed\n", r + 1,
                    argv[1]);
            return 1;
        }
        t_parse[r] = x.parse;
        t_fsy[r] = x.fsy;
        ratio[r] = x.fsy / x.parse;
        if (x.cpu >= 0 && x.cpu < 64)
            cpus[x.cpu]++;
        t_cover[r] = x.cover;
        t_bal[r] = x.bal;
        t_lb[r] = x.lb;
        t_inc[r] = x.inc;
        m = x.m;
        n = x.n;
        K = x.K;
        span = x.span;
        lb = x.bound;
    }
    /* the instance here only for igraph */
    hta_instance *inst = NULL;
    hta_diag d;
    if (strcmp(ig, "none") != 0 &&
        hta_instance_parse(argv[1], &inst, &d) != HTA_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return 1;
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
           (long long)m, (long)n, median(t_parse, runs),
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
