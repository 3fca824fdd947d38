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
    int32_t racks;   /* racks of consecutive servers (0 or 1: none) */
    int rack_aware;  /* HDFS's default policy instead of uniform */
    double zipf;     /* 0: uniform servers; s > 0: P(rank i) ~ 1/i^s */
    double w_loc;
    hta_wrem wrem;   /* borrowed */
    uint64_t seed;
} hta_gen_hdfs_params;

/* HDFS-like placement: every task gets `replicas` distinct servers, drawn
 * uniformly or with Zipf popularity (server ranks are a random permutation
 * of the ids, so hot servers are spread over the id range).  With
 * rack_aware and racks >= 2 (server s in rack s*racks/servers), HDFS's
 * default policy: the first replica on a drawn server, the second on a
 * server of another rack, the third on another server of the second's
 * rack, any further ones on drawn servers.
 * O(tasks * replicas * log servers) expected time. */
hta_status hta_gen_hdfs(const hta_gen_hdfs_params *p, hta_instance **out,
                        hta_diag *d);

/* Theorem 4.1's pair: the identity placement on n servers (task i on
 * server i), plus with extra a second replica of task n-1 on server 0.
 * w_loc 1, w_rem 3. */
hta_status hta_gen_rr_replica(int32_t n, int extra, hta_instance **out,
                              hta_diag *d);

/* Theorem 4.3's placement, m <= n(n-2), k = floor(m/n): servers 0..n-2
 * own k or k+1 tasks (ceil(m/n) in all among them), and k further tasks
 * u_1..u_k sit on server j-1 and on server n-1 with the highest ids.  The
 * optimum runs everything locally, makespan ceil(m/n)*w_loc; round robin
 * (in the order of the proof, our deterministic rule) gives u_j to server
 * j-1 in the first round, so server n-1 only gets remote tasks:
 * floor(m/n)*w_rem.  w_loc 1, w_rem 3. */
hta_status hta_gen_rr_worst(int32_t n, int32_t m, hta_instance **out,
                            hta_diag *d);

#endif
