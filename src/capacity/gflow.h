/* The capacity region of N locality levels by generalized maximum flows
 * (hta capacity --method flow on clusters of three levels or more, and
 * --method gflow on any): rho* without an LP.
 *
 * For a fixed rho the aggregated LP of capacity.c is a generalized flow
 * problem: each server supplies rho units of time, time flows up the
 * hierarchy (server -> rack -> pod -> cluster, gain 1), an entry u (a
 * local server, or a group of level n holding a replica) turns time into
 * work of type L at gain alpha_n, and type L takes at most lambda_L work.
 * rho is feasible iff the maximum work F(rho) reaching the types is
 * sum lambda.  F is concave and piecewise linear; Newton's method from a
 * point left of rho* (sum lambda / (alpha_1 M)) with the slope read off
 * the optimal flow's labels climbs to rho* without passing it.
 *
 * Each F(rho) is found by Truemper's primal-dual algorithm: canonical
 * labels mu(v) (the largest gain of a residual path from v to the sink)
 * by Dijkstra on the relabelled gains (all <= 1, so Dijkstra is exact),
 * then a maximum flow (Dinic) through the arcs that are tight for mu,
 * measured in units of value at the sink, where gains are 1; repeated
 * until no server with time left reaches the sink.  A flow pushed along
 * tight arcs only keeps every residual cycle's gain <= 1, so the end is
 * optimal (no augmenting path, no flow-generating cycle), and a rise of
 * rho only adds supply: flow and labels carry over to the next Newton
 * step.
 *
 * Ownership: hta_gflow_capacity allocates the result's array;
 * hta_gflow_result_free releases it (NULL-safe).
 */
#ifndef HTA_GFLOW_H
#define HTA_GFLOW_H

#include <signal.h>
#include <stdint.h>

#include "hta/cluster.h"
#include "hta/diag.h"
#include "hta/progress.h"

/* Work of one type served at one entry. */
typedef struct hta_gflow_entry {
    int64_t type;
    int64_t group; /* the server at level 1, else the group of the level */
    int level;     /* 1..N */
    double work;
} hta_gflow_entry;

typedef struct hta_gflow_result {
    double rho;      /* the allocation's largest utilisation */
    double lower;    /* Newton's last iterate: lower <= rho* <= rho */
    int newton;      /* Newton steps (maximum flows) */
    int64_t relabels; /* label computations (Dijkstra) */
    int64_t rounds;  /* Dinic rounds (breadth-first searches) */
    int64_t nentry;  /* the allocation at rho, when asked for */
    hta_gflow_entry *entry;
} hta_gflow_result;

/* rho* of cluster c (best with its rates and arrival rates scaled to
 * about 1, as hta_capacity_solve does).  With want_entries, the work of
 * every type at every entry, which covers lambda and keeps every group's
 * time within rho * |group|: work the flow left unserved (crumbs within
 * its tolerance, 1e-14 of the total) goes to the type's first local
 * server or is spread on the cluster's level, whichever raises rho less;
 * rho includes it. */
hta_status hta_gflow_capacity(const hta_cluster *c, int want_entries,
                              hta_progress_fn progress, void *progress_ctx,
                              volatile sig_atomic_t *stop,
                              hta_gflow_result *res, hta_diag *d);

void hta_gflow_result_free(hta_gflow_result *res);

#endif
