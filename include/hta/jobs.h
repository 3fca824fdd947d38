/* MapReduce job traces for the flow-time schedulers (flowtime.h): the
 * `hta-jobs 1` format, a generator of random workloads and the reader of
 * the SWIM Facebook traces.
 *
 * A job i arrives at slot a_i >= 1 with map workload M_i >= 1 units and
 * K_i >= 0 reduce tasks of R_i^(1..K_i) >= 1 units each (K_i = 0: a
 * map-only job).  One unit is what one machine does in one slot.
 *
 * Format (lex.h rules: blanks, '#' comments):
 *
 *     hta-jobs 1
 *     job <a> <M> [<R_1> ... <R_K>]      one line per job, a non-decreasing
 *
 * Ownership: an hta_jobs owns its arrays; free with hta_jobs_free.
 */
#ifndef HTA_JOBS_H
#define HTA_JOBS_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "hta/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hta_rng;

/* Limits every reader and generator enforces (so that a run is bounded
 * by the input: the schedulers simulate at most a few slots per unit). */
#define HTA_JOBS_MAX_JOBS 100000000LL    /* 10^8 jobs */
#define HTA_JOBS_MAX_ARRIVAL 1000000000000LL /* 10^12 slots */
#define HTA_JOBS_MAX_WORK 10000000000LL  /* 10^10 units in all */
#define HTA_JOBS_MAX_TASKS 1000000       /* reduce tasks of one job */

typedef struct hta_jobs {
    int64_t n;        /* jobs */
    int64_t *arrival; /* [n], slot >= 1, non-decreasing */
    int64_t *map;     /* [n], M_i >= 1 */
    int64_t *roff;    /* [n + 1]: job i's tasks are red[roff[i]..roff[i+1]) */
    int64_t *red;     /* reduce task workloads >= 1 */
    int64_t work;     /* sum of all workloads */
    long *line;       /* [n] source line of each job, NULL when generated */
} hta_jobs;

void hta_jobs_free(hta_jobs *j);

/* Reads a trace ("-": standard input).  Every error is path:line. */
hta_status hta_jobs_parse(const char *path, hta_jobs **out, hta_diag *d);

/* The same from text[0..len) (copied), name in the diagnostics. */
hta_status hta_jobs_parse_memory(const char *name, const char *text,
                                 size_t len, hta_jobs **out, hta_diag *d);

/* Writes the trace in the format above, comment first (may be NULL). */
hta_status hta_jobs_write(const hta_jobs *j, FILE *f, const char *comment);

/* Total reduce work of job i. */
int64_t hta_jobs_reduce_work(const hta_jobs *j, int64_t i);

/* Builder used by the generators: appends a job (arrival non-decreasing,
 * workloads >= 1); HTA_ERR_INPUT with a message past a limit, HTA_ERR_
 * INTERNAL out of memory. */
hta_status hta_jobs_add(hta_jobs *j, int64_t arrival, int64_t map,
                        const int64_t *red, int64_t k, hta_diag *d);
hta_jobs *hta_jobs_new(void);

/* A workload distribution over the integers >= 1. */
typedef enum hta_dist_kind {
    HTA_DIST_FIXED,   /* a */
    HTA_DIST_UNIFORM, /* uniform on the integers a..b */
    HTA_DIST_EXP,     /* ceil of an exponential of mean a */
    HTA_DIST_PARETO,  /* ceil of a Pareto of shape a > 1 and minimum b */
    HTA_DIST_TABLE    /* an empirical table: value v[i] with weight
                         proportional to w[i] (hta_dist_load) */
} hta_dist_kind;

/* Ownership: a plain value, except a loaded table, whose arrays the
 * value that hta_dist_load filled owns (hta_dist_free); copies borrow
 * them.  path is borrowed from the string hta_dist_parse read. */
typedef struct hta_dist {
    hta_dist_kind kind;
    double a, b;      /* table, once loaded: a = mean, b = total weight */
    const char *path; /* table */
    int64_t n;        /* table rows */
    int64_t *val;     /* [n] */
    double *cum;      /* [n] cumulative weights */
} hta_dist;

/* Parses "fixed:V", "uniform:LO:HI", "exp:MEAN", "pareto:SHAPE:MIN",
 * "table:FILE" (the file is read by hta_dist_load).  Returns 0 and fills
 * *out, or -1 with msg naming what was expected. */
int hta_dist_parse(const char *s, hta_dist *out, char *msg, size_t size);

/* Reads a table's file: one row per line, "VALUE [WEIGHT]" (an integer
 * in 1..10^9, a positive weight, default 1; '#' comments), at least one
 * row, at most 10^7; errors as path:line (HTA_ERR_INPUT).  Nothing to do
 * for the other kinds.  O(rows). */
hta_status hta_dist_load(hta_dist *dist, hta_diag *d);
void hta_dist_free(hta_dist *dist);

/* The exact mean of the integer-valued distribution (the ceil included). */
double hta_dist_mean(const hta_dist *dist);

/* The largest value of a bounded distribution (fixed, uniform, a loaded
 * table), or -1 for exp and pareto. */
int64_t hta_dist_max(const hta_dist *dist);

/* One draw (>= 1, at most 10^9). */
int64_t hta_dist_draw(const hta_dist *dist, struct hta_rng *r);

typedef struct hta_jobs_gen {
    int64_t jobs;     /* how many */
    int32_t machines; /* N */
    double load;      /* rho in (0, 1): arrival rate = rho N / E[M + R] */
    hta_dist map, reduce;
    int32_t max_tasks;   /* K_i uniform on 1..max_tasks, at most R_i */
    double map_only;     /* probability that a job has no reduce phase */
    uint64_t seed;
    /* Polled every 65,536 jobs, or NULL: non-zero ends the generation
     * with HTA_ERR_INTERNAL "interrupted". */
    volatile sig_atomic_t *stop;
} hta_jobs_gen;

/* Poisson job arrivals (a Poisson process of the rate above, each job in
 * the slot floor(time) + 1), workloads i.i.d. from the distributions,
 * the reduce work split as evenly as possible over K_i tasks. */
hta_status hta_jobs_generate(const hta_jobs_gen *g, hta_jobs **out,
                             hta_diag *d);

/* The same jobs, one at a time, to emit (its error ends the stream):
 * O(max_tasks) memory whatever the number of jobs.  hta_jobs_gen_write
 * writes them as a trace (comment first, may be NULL; HTA_ERR_IO on a
 * write error); hta_jobs_gen_check draws them only, for the limits (a
 * writer to a pipe checks first: nothing written, then a refusal). */
typedef hta_status (*hta_jobs_emit)(void *ctx, int64_t arrival, int64_t map,
                                    const int64_t *red, int64_t k,
                                    hta_diag *d);
hta_status hta_jobs_gen_stream(const hta_jobs_gen *g, hta_jobs_emit emit,
                               void *ctx, hta_diag *d);
hta_status hta_jobs_gen_write(const hta_jobs_gen *g, FILE *f,
                              const char *comment, hta_diag *d);
hta_status hta_jobs_gen_check(const hta_jobs_gen *g, hta_diag *d);

/* The SWIM Facebook trace (tab-separated: name, submit seconds, gap,
 * input bytes, shuffle bytes, output bytes).  One slot is the time one
 * machine takes for one block: a job submitted at s seconds arrives in
 * slot floor(s / slot_seconds) + 1; M = max(1, ceil(input / block)),
 * R = ceil(shuffle / block) split into K = ceil(shuffle / reducer_bytes)
 * tasks (at most R); shuffle 0 makes a map-only job. */
typedef struct hta_swim_opts {
    double block_bytes;   /* e.g. 64 MiB */
    double slot_seconds;  /* e.g. 10 */
    double reducer_bytes; /* e.g. 1 GiB */
} hta_swim_opts;

hta_status hta_jobs_from_swim(const char *path, const hta_swim_opts *o,
                              hta_jobs **out, hta_diag *d);

/* The SWIM rows themselves (the reader hta_jobs_from_swim and the
 * ReduceTask placement share): submit times non-decreasing, byte counts
 * in [0, 1e18], at least one row, at most 10^8; errors as path:line. */
typedef struct hta_swim_row {
    double submit, input, shuffle, output;
    long line;
} hta_swim_row;

hta_status hta_swim_read(const char *path, hta_swim_row **rows, int64_t *n,
                         hta_diag *d);

#ifdef __cplusplus
}
#endif

#endif
