/* The servers and groups a cluster's types touch (internal to
 * src/capacity).
 *
 * A server that holds no type's data serves only pooled work (levels
 * >= 2), so in the capacity region it is one of many interchangeable
 * units of time inside its groups: the LP needs no row for it, the flows
 * no node, and a group no type touches only passes its servers' time up.
 * Every method therefore works on the touched servers, the touched groups
 * of each level and the counts of untouched servers below them, so a
 * header that declares 2^24 servers with its types on 100 costs what the
 * 100 cost.  A group's size still counts all its servers.
 *
 * Ownership: cap_touch_build allocates the arrays, cap_touch_free
 * releases them (safe on a zeroed or partly built struct).
 */
#ifndef HTA_CAPACITY_TOUCH_H
#define HTA_CAPACITY_TOUCH_H

#include <stdint.h>

#include "hta/cluster.h"

typedef struct cap_touch {
    int64_t nsrv;                    /* touched servers */
    int32_t *srv;                    /* [nsrv] their ids, increasing */
    int32_t *at;                     /* [off[T]] per entry of c->srv, its
                                        index in srv */
    int64_t ngrp[HTA_MAX_LEVELS + 1]; /* touched groups of level n >= 2 */
    int64_t *grp[HTA_MAX_LEVELS + 1]; /* their ids, increasing (level N:
                                         the cluster, group 0, always) */
    int64_t *pool[HTA_MAX_LEVELS + 1]; /* per touched group: its untouched
                                          servers outside every touched
                                          group of the level below */
} cap_touch;

/* 1 on success, 0 when out of memory (t is then freed).  O(E log E) for
 * E = off[T] entries. */
int cap_touch_build(const hta_cluster *c, cap_touch *t);
void cap_touch_free(cap_touch *t);

/* The index of group g of level n >= 2 among the touched ones, or -1. */
int64_t cap_touch_group(const cap_touch *t, int n, int64_t g);

#endif
