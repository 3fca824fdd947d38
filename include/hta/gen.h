/* Instance generators.  Every generator is a function of its parameters and
 * seed only: the same seed gives the same instance on every platform.
 *
 * Ownership: the returned instance belongs to the caller
 * (hta_instance_free).
 */
#ifndef HTA_GEN_H
#define HTA_GEN_H

#include <stdint.h>

#include "hta/instance.h"

typedef struct hta_gen_hdfs_params {
    int32_t tasks, servers, replicas;
    double zipf;     /* 0: uniform servers; s > 0: P(rank i) ~ 1/i^s */
    double w_loc;
    hta_wrem wrem;   /* borrowed */
    uint64_t seed;
} hta_gen_hdfs_params;

/* HDFS-like placement: every task gets `replicas` distinct servers, drawn
 * uniformly or with Zipf popularity (server ranks are a random permutation
 * of the ids, so hot servers are spread over the id range).
 * O(tasks * replicas * log servers) expected time. */
hta_status hta_gen_hdfs(const hta_gen_hdfs_params *p, hta_instance **out,
                        hta_diag *d);

#endif
