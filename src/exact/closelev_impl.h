/* The network of gap closing on N levels (closelev.h), shared by the
 * slot search (closelev.c) and the count flow (countflow.c), built by
 * closelev_net.c.  Internal to src/exact.
 *
 * Ownership: a net owns its arrays (closelev_net_free).
 */
#ifndef HTA_EXACT_CLOSELEV_IMPL_H
#define HTA_EXACT_CLOSELEV_IMPL_H

#include <signal.h>
#include <stdint.h>

#include "hta/instance.h"

#define CLOSELEV_EPS 1e-9

/* The network: a node per group of tasks (tasks with one replica set),
 * then a node per target: the servers' local slots (targets 0..n-1), then
 * the pools, pool (l, G) being target base[l] + G (level N: one). */
typedef struct net {
    const hta_instance *in;
    int N;
    int32_t n, ng, nt;
    double c[HTA_MAX_LEVELS + 1], T; /* c[l]: level l's cost */
    int32_t *order, *first;        /* groups (hta_instance_groups) */
    int32_t base[HTA_MAX_LEVELS + 1];
    int64_t *goff;                 /* arcs by group: goff[g]..goff[g+1] */
    int32_t *gtgt, *agrp;          /* an arc's target and group */
    int64_t *flow;                 /* per arc */
    int64_t *toff, *tarc;          /* arcs by target */
    int64_t *cap, *used;           /* per target */
    int64_t *ex;                   /* per group: tasks without a slot */
    int64_t placed;
    int32_t *slot;                 /* a_{s,l}: slot[s * N + l - 1] */
    int64_t topcap;                /* the most tasks at level N */
    int64_t topslots;              /* sum_s a_{s,N} */
    int32_t *moff, *mem;           /* servers by pool (targets n..nt-1) */
    int64_t *gidle;                /* per level-2 group: its servers' idle
                                      local slots (the search's scratch) */
    int cold;                      /* the top's slots chosen afresh: a top
                                      slot's loss counts its rack's idle */
    uint32_t *seen, stamp;         /* per node: groups, then targets */
    int64_t *via;                  /* per node: the arc that reached it */
    int32_t *queue;
    /* the search's deadline (hta_clock_now seconds) and stop flag,
     * polled every CLOSELEV_POLL_EVERY augmenting paths; stopped once either
     * came */
    double deadline;
    volatile sig_atomic_t *stop;
    int stopped;
} net;

/* Augmenting paths (each a search of the network, up to its size)
 * between polls of the deadline and the stop flag: at 10^6 tasks on
 * racks a search that fails reads the whole network (20 ms; 64 of them
 * made Ctrl-C wait 1.2 s), and the clock costs 20 ns. */
#define CLOSELEV_POLL_EVERY 1

/* Pool (l, G) of server s's level-l group (level N: the cluster's). */
static inline int32_t closelev_pool_of(const net *w, int l, int32_t s)
{
    return w->base[l] + (l == w->N ? 0 : w->in->grp[l][s]);
}

/* The network of inst at target T, the top level costing ctop (NaN:
 * w_rem(0)) with at most topcap tasks: groups, arcs (local, then pools by
 * level), servers by pool, every slot 0 and every flow 0, each group's
 * tasks without a slot.  0 on out of memory (free it all the same). */
int closelev_net_build(net *w, const hta_instance *inst, double T,
                       double ctop, int64_t topcap);

void closelev_net_free(net *w);

#endif
