/* The policy of `hta solve` as one library call: which algorithms run and
 * in which order, the incumbent and bound handed to the exact solver, the
 * lower bound, and whether the best assignment is proven optimal.  A C
 * program calling hta_solve gets what the command prints.
 *
 * Ownership: the result owns best (hta_solve_result_free); it borrows the
 * instance.  Options borrow their strings.
 */
#ifndef HTA_SOLVE_H
#define HTA_SOLVE_H

#include <signal.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include "hta/fsy.h"
#include "hta/ilp.h"
#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HTA_SOLVE_MAX_ROWS 8

typedef enum hta_algo {
    HTA_ALGO_RR,   /* round robin, Algorithm 1 */
    HTA_ALGO_FSY,  /* max-cover + bal-assign, Algorithm 2 */
    HTA_ALGO_ILP,  /* exact optimum by GLPK */
    HTA_ALGO_BRUTE, /* exhaustive search */
    HTA_ALGO_CLOSE, /* gap closing: makespan <= the bound, by search */
    HTA_ALGO_SAT,   /* makespan <= L decided by CaDiCaL (satdec.h) */
    HTA_ALGO_EXACT, /* the portfolio: close, ilp, sat (one row each) */
    HTA_ALGO_HADOOP, /* Hadoop's N-level greedy (hadoop.h) */
    HTA_ALGO_GIVEN   /* the caller's assignment (opts.given): a row, not
                        an algorithm to ask for */
} hta_algo;

/* Names in the order of hta_algo: "rr", "fsy", "ilp", "brute", "close",
 * "sat", "exact", "hadoop", "given".
 *
 * On N > 2 locality levels (levels.h): every row is evaluated under the
 * N-level costs; fsy is the rack-aware refill of fsy's assignment
 * (refill.h), never worse than it; the lower bound is the N-level flow
 * bound (bounds.h); brute force is exact; close, ilp and sat model two
 * levels and are skipped with the reason in their note (exact runs brute
 * force where it fits); Theorem 5.4's guarantee does not apply. */
extern const char *const hta_algo_names[];

typedef struct hta_solve_opts {
    hta_algo algos[HTA_SOLVE_MAX_ROWS]; /* run in this order */
    int nalgos;
    /* rr */
    int rr_randomized;  /* random choices drawn from seed */
    uint64_t seed;
    int64_t rr_runs;    /* >= 1: seeds seed..seed+rr_runs-1, best kept */
    /* fsy */
    hta_maxflow_engine engine;
    int prune;          /* as hta_fsy_opts: 0, 1, 2 (default) */
    int literal_balance;
    void (*trace)(void *ctx, const hta_fsy_step *step);
    void *trace_ctx;
    /* ilp, close */
    double time_limit;  /* seconds */
    int64_t ilp_max_tasks;
    int verbose;
    int ilp_plain;      /* no incumbent, no bound (benchmarks) */
    hta_ilp_model model;
    const char *write_lp; /* file name for the LP model, or NULL */
    FILE *write_cnf;      /* sat: the CNF of makespan <= the bound */
    int sat_generic;      /* sat: the deficit encoding even on a 3SAT
                             reduction (no hta_reduce_recognize) */
    int ilp_engine;       /* hta_ilp_engine, or -1: GLPK for ilp, GLPK
                             and CBC side by side for exact when hta has
                             CBC (hta_cbc_available) */
    /* An assignment of the caller's (a server below n_declared per task,
     * HTA_ERR_USAGE otherwise), or NULL: evaluated first as the row
     * "given", the incumbent the algorithms after it start from (hta
     * eval's gap to the bound and the optimum).  With it nalgos may be
     * 0: the row and the lower bound alone. */
    const int32_t *given;
    /* Polled by the long searches (ilp, brute): non-zero stops them with
     * their best so far. */
    volatile sig_atomic_t *stop;
    /* Progress of fsy and ilp (progress.h), or NULL. */
    hta_progress_fn progress;
    void *progress_ctx;
} hta_solve_opts;

/* The defaults of the command: rr,fsy, deterministic rr, incremental
 * max-flow with pruning, 60 s and 20000 tasks for ilp. */
void hta_solve_opts_default(hta_solve_opts *o);

typedef struct hta_row {
    char algorithm[16]; /* rr, fsy, ilp, brute, close, sat, hadoop; exact
                           when the rows before it proved the best */
    char status[24];    /* ok, optimal, feasible, time_limit, skipped,
                           interrupted, undecided (close: no answer),
                           bound (sat: no assignment below the best; the
                           row has no value, the lower bound rose) */
    int has_value;      /* 0: no assignment (skipped, stopped) */
    double makespan;
    int64_t local, remote;
    double seconds;
    char note[256];     /* free text: rr spread, fsy tau, ilp bound, why */
    int64_t count[HTA_MAX_LEVELS]; /* tasks at level l = 1..N (count[l-1]);
                                      two levels: local, remote */
} hta_row;

typedef struct hta_solve_result {
    const hta_instance *inst;
    int has_lower_bound;
    double lower_bound;
    char bound_source[32]; /* which bound is the largest */
    int has_guarantee;
    double guarantee; /* Theorem 5.4 additive term */
    hta_row rows[HTA_SOLVE_MAX_ROWS];
    int nrows;
    int32_t *best;    /* best assignment over all rows, or NULL */
    double best_span; /* its makespan (INFINITY without one) */
    int interrupted;  /* opts->stop was raised during the run */
    int timed_out;    /* an exact row stopped at the time limit, or the
                         exact rows took 90% of it */
    int lp_written;   /* opts->write_lp was written (ilp ran far enough) */
    int cnf_written;  /* opts->write_cnf was written (sat decided) */
} hta_solve_result;

/* Runs opts->algos in order on inst, then the flow bound if fsy did not
 * give it.  Every assignment is re-evaluated by the evaluator (assign.h)
 * before it counts.  Returns an error only for failures (out of memory,
 * GLPK, an unwritable LP file); an interruption is a result.  Time: the
 * sum of the algorithms'. */
hta_status hta_solve(const hta_instance *inst, const hta_solve_opts *opts,
                     hta_solve_result *res, hta_diag *d);

void hta_solve_result_free(hta_solve_result *res);

/* Raises the lower bound to lb (keeping the largest), naming its source. */
void hta_solve_bound(hta_solve_result *r, double lb, const char *source);

/* Index of the row of least makespan (first one on ties), -1 if none. */
int hta_solve_best_row(const hta_solve_result *r);

/* 1 when the best makespan is proven optimal: an exact row reached it or
 * it meets the lower bound (relative tolerance 1e-9, which only matters
 * for non-representable costs). */
int hta_solve_proven(const hta_solve_result *r);

/* (makespan - lower bound) / lower bound, NAN without a positive bound. */
double hta_solve_gap(const hta_solve_result *r, double makespan);

/* Room for hta_solve_why_unproven's words: every row's name, status and
 * note. */
#define HTA_SOLVE_WHY_MAX (HTA_SOLVE_MAX_ROWS * 300 + 64)

/* Why the best of a run with exact engines (ilp, brute, close, sat,
 * exact; hta eval --exact) is not proven optimal, in the words hta eval
 * and hta.evaluate print: 0 and "" when it is proven; else 1 and buf
 * holds "interrupted", "no exact engine ran" when there is none, "no
 * exact engine applies: close (NOTE), ilp (NOTE), sat (NOTE)" when
 * every exact row was skipped (each with its own note, as hta solve
 * prints it), "time limit" when an engine that ran stopped at the time
 * limit (r->timed_out), else "no exact engine decided: close undecided
 * (NOTE), ilp (NOTE), ..." (the engines gave up before the time: each
 * row's status, unless skipped, and note).  HTA_SOLVE_WHY_MAX bytes
 * hold every answer.  O(rows). */
int hta_solve_why_unproven(const hta_solve_result *r, char *buf,
                            size_t size);

#ifdef __cplusplus
}
#endif

#endif
