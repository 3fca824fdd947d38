/* The capacity region: is an arrival vector lambda inside it, and how far
 * from its boundary?  Two levels: Wang et al. (INFOCOM 2013), eq. (3);
 * N levels: Yekkehkhany et al. (GB-PANDAS), eq. (2).  Both solve
 *   min rho  s.t.  sum_m lambda_{L,m} = lambda_L for every type L,
 *                  sum_L lambda_{L,m} / alpha_{n(L,m)} <= rho for every
 *                  server m,  lambda >= 0,
 * lambda being inside the region iff rho* < 1.
 *
 * Ownership: the result's arrays are allocated by hta_capacity_solve and
 * released by hta_capacity_result_free.
 */
#ifndef HTA_CAPACITY_H
#define HTA_CAPACITY_H

#include <signal.h>
#include <stdint.h>

#include "hta/cluster.h"
#include "hta/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hta_capacity_method {
    HTA_CAP_AUTO,  /* flow */
    HTA_CAP_LP,    /* the aggregated LP (GLPK) */
    HTA_CAP_FLOW,  /* Newton on max flows: Dinic for two levels,
                      generalized flows (gflow.h) for more */
    HTA_CAP_PLAIN, /* the LP with one variable per (type, server): checks */
    HTA_CAP_GFLOW  /* Newton on generalized max flows, any levels */
} hta_capacity_method;

typedef enum hta_capacity_status {
    HTA_CAP_INSIDE,   /* rho* < 1 */
    HTA_CAP_BOUNDARY, /* |rho* - 1| <= HTA_CAP_TOL */
    HTA_CAP_OUTSIDE
} hta_capacity_status;

#define HTA_CAP_TOL 1e-7

/* Names in the order of the enums: "auto", "lp", "flow", "plain",
 * "gflow"; "inside", "boundary", "outside". */
extern const char *const hta_capacity_method_names[5];
extern const char *const hta_capacity_status_names[3];

/* The most columns (types x servers) the plain LP takes (--method plain,
 * a check of the aggregated LP on small clusters). */
#define HTA_CAP_PLAIN_MAX 200000.0

typedef struct hta_capacity_opts {
    hta_capacity_method method;
    int interior;       /* LP by interior point instead of simplex */
    int decomposition;  /* fill the lambda_{L,m} */
    int verbose;        /* GLPK output on stderr */
    hta_progress_fn progress; /* or NULL: before the LP, per Newton step */
    void *progress_ctx;
    /* Polled at every Newton step of the flows and every 0.25 s of the
     * simplex (not by the interior point method), or NULL: non-zero ends
     * the solve with HTA_ERR_INTERNAL "interrupted". */
    volatile sig_atomic_t *stop;
} hta_capacity_opts;

/* The bottleneck, the same for every method (capacity.c): at the
 * boundary the whole cluster is tight (level N, group 0), and inside it
 * the hot servers (level 1): the minimal minimum cut of the local-work
 * network at rates alpha_1 * rho*, whose local demand exceeds what they
 * can serve locally. */
typedef struct hta_bottleneck {
    int level;     /* 1 server, N the whole cluster */
    int64_t group; /* server id, or 0 for the cluster */
} hta_bottleneck;

typedef struct hta_capacity_result {
    double rho;
    hta_capacity_status status;
    hta_capacity_method method; /* the method that ran */
    int64_t rows, cols;        /* LP size */
    int flow_calls;            /* max flows computed */
    int64_t relabels, rounds;  /* generalized flows: label computations,
                                  Dinic rounds (gflow.h) */
    int interior_failed;       /* GLPK code when interior point failed
                                  and the simplex was used instead */
    int64_t nbottle;           /* 0 when rho* = 0 (no load) */
    hta_bottleneck *bottle;    /* the cluster first, then hot servers */
    int64_t ndec;              /* decomposition entries */
    int64_t *dec_type;
    int32_t *dec_server;
    double *dec_rate;
    int8_t *dec_level;         /* locality level of (type, server) */
} hta_capacity_result;

hta_status hta_capacity_solve(const hta_cluster *c,
                              const hta_capacity_opts *opts,
                              hta_capacity_result *res, hta_diag *d);

void hta_capacity_result_free(hta_capacity_result *res);

/* Locality level (1..N) of server s (0..M-1) for type L (0..T-1); -1
 * when either id is out of range.  O(|S_L| * N). */
int hta_capacity_level(const hta_cluster *c, int64_t L, int32_t s);

#ifdef __cplusplus
}
#endif

#endif
