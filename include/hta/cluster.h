/* Clusters for the capacity region (Wang et al., INFOCOM 2013; Yekkehkhany
 * et al., GB-PANDAS): servers in a hierarchy of groups, service rates by
 * locality level, task types with arrival rates and local servers.
 *
 * Levels: 1 = local (a server holding the type's data), 2 = same rack,
 * 3 = same pod, ..., N = elsewhere.  With topology k1 [k2 ...], racks are
 * k1 consecutive servers, pods k2 consecutive racks, and so on; N = 2 +
 * (number of topology levels).  A cluster made from an N-level instance
 * (hta_cluster_from_instance) has the instance's own groups instead
 * (explicit: any server in any rack, racks of any size); it has no
 * cluster-file form and the simulator takes regular topologies only.
 *
 * Ownership: hta_cluster_parse / _build allocate, hta_cluster_free
 * releases every array.
 */
#ifndef HTA_CLUSTER_H
#define HTA_CLUSTER_H

#include <stdint.h>
#include <stdio.h>

#include "hta/diag.h"
#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fastest rate is at most this many times the slowest: the LPs'
 * coefficients are the reciprocal rates, and GLPK's simplex works to about
 * 1e-9, so a wider span (found by fuzzing: rates 1.2e19 and 4) makes the
 * methods disagree. */
#define HTA_MAX_RATE_RATIO 1e6

typedef struct hta_cluster {
    int32_t M;                     /* servers 0..M-1 */
    int levels;                    /* N */
    double rate[HTA_MAX_LEVELS];   /* rate[0] = alpha_1 > ... > alpha_N */
    int ntopo;                     /* N - 2 */
    int32_t topo[HTA_MAX_LEVELS];  /* k1, k2, ... */
    int64_t T;                     /* task types */
    double *lambda;                /* per type: arrival rate */
    int64_t *off;                  /* type L: servers srv[off[L]..off[L+1]) */
    int32_t *srv;
    /* Explicit groups (ntopo = 0, levels > 2), else NULL: grp[n][s] the
     * level-n group of server s (2 <= n < N), ngrp[n] their count, and
     * the members of group g, increasing: mem[n][mem_off[n][g] ..
     * mem_off[n][g + 1]). */
    int32_t *grp[HTA_MAX_LEVELS];
    int64_t ngrp[HTA_MAX_LEVELS];
    int64_t *mem_off[HTA_MAX_LEVELS];
    int32_t *mem[HTA_MAX_LEVELS];
} hta_cluster;

/* Format v1 (README, "Cluster file"); same error discipline as instances. */
hta_status hta_cluster_parse(const char *path, hta_cluster **out,
                             hta_diag *d);
/* The same from text[0..len) (copied), name in the diagnostics. */
hta_status hta_cluster_parse_memory(const char *name, const char *text,
                                    size_t len, hta_cluster **out,
                                    hta_diag *d);
/* HTA_ERR_USAGE for a cluster with explicit groups (no file form). */
hta_status hta_cluster_write(const hta_cluster *c, FILE *f,
                             const char *comment);
void hta_cluster_free(hta_cluster *c);

/* Group of server s (0..M-1) at hierarchy level n (n = 2: its rack,
 * n = 3: its pod, ..., n >= N: 0, the whole cluster).  Groups of a level
 * are numbered from 0; hta_cluster_groups gives their count.  Both give
 * -1 for n < 2 or s out of range. */
int64_t hta_cluster_group(const hta_cluster *c, int32_t s, int n);
int64_t hta_cluster_groups(const hta_cluster *c, int n);

/* The servers of group g at level n: how many, and the i-th of them in
 * increasing order (a run of consecutive ids in a regular topology);
 * -1 for n < 2, g or i out of range.  O(N) each. */
int64_t hta_cluster_group_size(const hta_cluster *c, int n, int64_t g);
int32_t hta_cluster_group_server(const hta_cluster *c, int n, int64_t g,
                                 int64_t i);

/* Types from a placement instance: tasks with equal replica sets form a
 * type, each task contributing rate.  Two levels with rates a1 > a2 unless
 * topology is given; an N-level instance (levels.h) brings its own groups
 * (explicit, the same levels as hta_level's) and takes N rates and no
 * topology (HTA_ERR_USAGE otherwise).  O(|E| log |E| + n N). */
hta_status hta_cluster_from_instance(const hta_instance *inst, double rate,
                                     const double *rates, int nrates,
                                     const int32_t *topo, int ntopo,
                                     hta_cluster **out, hta_diag *d);

/* Checks and takes ownership of the arrays (all freed on failure too). */
hta_status hta_cluster_build(int32_t M, const double *rates, int nrates,
                             const int32_t *topo, int ntopo, int64_t T,
                             double *lambda, int64_t *off, int32_t *srv,
                             hta_cluster **out, hta_diag *d);

#ifdef __cplusplus
}
#endif

#endif
