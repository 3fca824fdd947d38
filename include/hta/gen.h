/* Instance generators.  Every generator is a function of its parameters and
 * seed only: the same seed gives the same instance on every platform.
 *
 * Ownership: the returned instance belongs to the caller
 * (hta_instance_free).
 */
#ifndef HTA_GEN_H
#define HTA_GEN_H

#include <signal.h>
#include <stdint.h>

#include "hta/cluster.h"
#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hta_gen_hdfs_params {
    int32_t tasks, servers, replicas;
    int32_t racks;   /* rack_aware: racks of consecutive servers (>= 2) */
    int rack_aware;  /* HDFS's default policy instead of uniform */
    double zipf;     /* 0: uniform servers; s in (0, 100]: P(rank i) ~ 1/i^s */
    double w_loc;
    hta_wrem wrem;   /* borrowed */
    uint64_t seed;
    /* N-level costs (levels.h), with racks: nlev = 1 prices level 2 (the
     * rack) at wlev[0]; nlev = 2 also puts the racks in pods of
     * ceil(racks / pods) consecutive racks and prices level 3 at wlev[1].
     * The servers get rack paths "/rack<i>" or "/pod<j>/rack<i>".  0: FSY's
     * two levels, no rack lines. */
    int nlev;
    int32_t pods;
    hta_wrem wlev[2]; /* borrowed */
    /* Polled every 65,536 tasks, or NULL: non-zero ends the generation
     * with HTA_ERR_INTERNAL "interrupted". */
    volatile sig_atomic_t *stop;
} hta_gen_hdfs_params;

/* HDFS-like placement: every task gets `replicas` distinct servers, drawn
 * uniformly or with Zipf popularity (server ranks are a random permutation
 * of the ids, so hot servers are spread over the id range).  With
 * rack_aware (racks >= 2 racks by the rule of topology.h, rack size
 * ceil(servers/racks); HTA_ERR_USAGE when that size makes another number
 * of racks), HDFS's
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

/* The clusters of the papers and random ones, for hta capacity. */
typedef enum hta_cluster_kind {
    HTA_CLUSTER_WANG,     /* Wang et al., Section V */
    HTA_CLUSTER_GBPANDAS, /* GB-PANDAS, Section 5 */
    HTA_CLUSTER_RANDOM
} hta_cluster_kind;

typedef struct hta_gen_cluster_params {
    hta_cluster_kind kind;
    int32_t servers;      /* M */
    int32_t data_servers; /* wang: the servers holding data */
    int64_t types;        /* gbpandas, random: task types */
    int32_t replicas;     /* gbpandas, random: local servers per type */
    double total;         /* total arrival rate, split over the types */
    double rates[HTA_MAX_LEVELS];
    int nrates;
    int32_t topo[HTA_MAX_LEVELS];
    int ntopo;
    uint64_t seed;
    /* Polled every 65,536 types, or NULL: non-zero ends it with
     * HTA_ERR_INTERNAL "interrupted". */
    volatile sig_atomic_t *stop;
} hta_gen_cluster_params;

/* The defaults of each set-up: wang 1000 servers, data on 800 (one type
 * per data server), rates 0.8, 0.2, total 680 (the capacity); gbpandas
 * 5000 servers, racks of 50, 10 racks per pod, rates 1, 0.9, 0.6, 0.25,
 * 5000 types of 3 replicas, total 0.5 per server; random 100 servers,
 * 100 types of 1..3 random servers, rates 0.8, 0.2, total 50.  Seed 1. */
void hta_gen_cluster_defaults(hta_gen_cluster_params *p,
                              hta_cluster_kind kind);

/* What a caller asks of a set-up: each field 0 (NaN for the rates) when
 * not given, so the set-up's default holds.  The command line's options
 * and the Python package's arguments of the same names. */
typedef struct hta_gen_cluster_ask {
    hta_cluster_kind kind;
    int32_t servers, data_servers, replicas;
    int64_t types;
    double total, load;   /* NaN: not given; at most one of them */
    double rates[HTA_MAX_LEVELS];
    int nrates;           /* 0: the set-up's */
    int32_t topo[HTA_MAX_LEVELS];
    int ntopo;            /* 0: the set-up's (when it fits the rates) */
    int has_seed;
    uint64_t seed;
} hta_gen_cluster_ask;

/* The parameters of a request: the set-up's defaults, then what it
 * gives, with the rules between them (data servers within the servers,
 * wang's replicas within the data servers, rates strictly decreasing,
 * 2 + #topology levels rates, total or load).  HTA_ERR_USAGE naming the
 * options (--data-servers, ...) as the command line does.  O(1). */
hta_status hta_gen_cluster_resolve(const hta_gen_cluster_ask *ask,
                                   hta_gen_cluster_params *p, hta_diag *d);

/* Builds the cluster.  wang: type L local to data server L mod D, equal
 * rates; gbpandas: replicas by HDFS's rack-aware rule (a random server,
 * one in another rack, another one in that second rack), equal rates;
 * random: 1..replicas distinct random servers, rates uniform in
 * [0.05, 1.05) scaled to the total.  HTA_ERR_USAGE on parameters that do
 * not fit.  O(types * replicas) expected time. */
hta_status hta_gen_cluster(const hta_gen_cluster_params *p,
                           hta_cluster **out, hta_diag *d);

#ifdef __cplusplus
}
#endif

#endif
