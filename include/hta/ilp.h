/* The exact optimum through GLPK: the HTA integer program (compact model),
 * piecewise over the distinct values of w_rem, with an incumbent, a lower
 * bound cut, integral scaling and aggregation of identical tasks.
 *
 * Ownership: the caller provides best[0..m) (the result) and the optional
 * incumbent; everything GLPK allocates is released before returning.
 */
#ifndef HTA_ILP_H
#define HTA_ILP_H

#include <signal.h>
#include <stdint.h>

#include "hta/instance.h"
#include "hta/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hta_ilp_status {
    HTA_ILP_OPTIMAL,    /* best is L^O (proved by GLPK or a certificate) */
    HTA_ILP_FEASIBLE,   /* stopped early; best and a lower bound */
    HTA_ILP_TIME_LIMIT, /* stopped early without any assignment */
    HTA_ILP_SKIPPED     /* not run: the instance exceeds max_tasks */
} hta_ilp_status;

typedef enum hta_ilp_model {
    HTA_ILP_COMPACT, /* x per (replica set, server), y per server, L */
    HTA_ILP_NAIVE    /* x per (task, server) pair: benchmarks only */
} hta_ilp_model;

/* Who searches after the LP relaxation: GLPK, CBC (cbcx.h, when built
 * with it), or both side by side, the first proof winning. */
typedef enum hta_ilp_engine {
    HTA_ILP_ENGINE_GLPK,
    HTA_ILP_ENGINE_CBC,
    HTA_ILP_ENGINE_BOTH
} hta_ilp_engine;

typedef struct hta_ilp_opts {
    double time_limit;       /* seconds, whole solve */
    int64_t max_tasks;       /* size guard */
    int verbose;             /* GLPK progress on stderr */
    int plain;               /* no incumbent, no bound cut */
    hta_ilp_model model;
    /* File name for the model of the first w_rem piece (L free, no
     * incumbent cutoff; for a constant w_rem the whole problem) in CPLEX
     * LP format, or NULL.  Written by name, not atomically: callers pass
     * a temporary name (outfile.h). */
    const char *write_lp;
    const int32_t *incumbent; /* a complete assignment, or NULL */
    double lower_bound;      /* a valid bound on L^O (0 if none) */
    volatile sig_atomic_t *stop; /* set asynchronously to stop, or NULL */
    hta_progress_fn progress;    /* or NULL: elapsed, best, bound, nodes */
    void *progress_ctx;
    hta_ilp_engine engine;       /* 0: GLPK */
} hta_ilp_opts;

typedef struct hta_ilp_result {
    hta_ilp_status status;
    double makespan;   /* of best (evaluated), INFINITY without one */
    double bound;      /* proven lower bound on L^O */
    int pieces;        /* distinct values of w_rem considered */
    int solved;        /* models handed to GLPK */
    int improved;      /* 1 when GLPK found better than the incumbent */
    int rounds;        /* a growing top (N levels): decisions after the
                          first, each below a better incumbent */
    int64_t nodes;     /* GLPK's branch-and-bound nodes (its callback) */
    int64_t cbc_nodes; /* CBC's, where its answer was used */
    int proved_by;     /* pieces proved: 1 GLPK, 2 CBC (bits) */
    char cbc_failed[96]; /* why CBC ended without a proof, or "" */
    int lp_written;    /* opts->write_lp was written */
    char detail[160];
} hta_ilp_result;

/* Solves min L.  Returns HTA_OK with res->status telling what was proved,
 * or an error (GLPK failure, out of memory, unwritable LP file).  Time:
 * exponential in the worst case, bounded by opts->time_limit. */
hta_status hta_ilp_solve(const hta_instance *inst, const hta_ilp_opts *opts,
                         int32_t *best, hta_ilp_result *res, hta_diag *d);

#ifdef __cplusplus
}
#endif

#endif
