/* Cluster generators: the set-ups of Wang et al. and GB-PANDAS, random
 * clusters. */
#include "hta/gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/rng.h"
#include "hta/topology.h"

void hta_gen_cluster_defaults(hta_gen_cluster_params *p,
                              hta_cluster_kind kind)
{
    static const double wr[] = {0.8, 0.2}, gr[] = {1, 0.9, 0.6, 0.25};
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->seed = 1;
    p->replicas = 3;
    p->data_servers = 800;
    switch (kind) {
    case HTA_CLUSTER_WANG:
        p->servers = 1000;
        p->types = 800;
        p->total = 0.8 * 800 + 0.2 * 200;
        break;
    case HTA_CLUSTER_GBPANDAS:
        p->servers = 5000;
        p->types = 5000;
        p->total = 0.5 * 5000;
        p->topo[0] = 50;
        p->topo[1] = 10;
        p->ntopo = 2;
        break;
    case HTA_CLUSTER_RANDOM:
        p->servers = 100;
        p->types = 100;
        p->total = 50;
        break;
    }
    p->nrates = kind == HTA_CLUSTER_GBPANDAS ? 4 : 2;
    memcpy(p->rates, kind == HTA_CLUSTER_GBPANDAS ? gr : wr,
           (size_t)p->nrates * sizeof *p->rates);
}

/* HDFS rack-aware replicas of one type into srv[n..]: a random server,
 * one in another rack, and another one in that second rack. */
static int64_t rack_aware(hta_rng *r, int32_t M, int64_t rack, int32_t k,
                          int32_t *srv, int64_t n)
{
    int32_t a = (int32_t)hta_rng_below(r, (uint64_t)M), b, c3;
    srv[n++] = a;
    if (k < 2)
        return n;
    do
        b = (int32_t)hta_rng_below(r, (uint64_t)M);
    while (M > rack && hta_rack_of(b, rack) == hta_rack_of(a, rack));
    if (b != a)
        srv[n++] = b;
    if (k >= 3 && rack > 1) {
        int64_t base = hta_rack_of(b, rack) * rack;
        int64_t size = base + rack <= M ? rack : M - base;
        do
            c3 = (int32_t)(base + (int64_t)hta_rng_below(r, (uint64_t)size));
        while (c3 == b && size > 1);
        if (c3 != b && c3 != a)
            srv[n++] = c3;
    }
    return n;
}

/* 1..k distinct random servers of one type into srv[n..]. */
static int64_t random_servers(hta_rng *r, int32_t M, int32_t k, int32_t *srv,
                              int64_t n)
{
    int64_t start = n, want = 1 + (int64_t)hta_rng_below(r, (uint64_t)k);
    for (int64_t j = 0; j < want; j++) {
        int32_t s;
        int dup;
        do {
            s = (int32_t)hta_rng_below(r, (uint64_t)M);
            dup = 0;
            for (int64_t i = start; i < n; i++)
                dup |= srv[i] == s;
        } while (dup);
        srv[n++] = s;
    }
    return n;
}

hta_status hta_gen_cluster(const hta_gen_cluster_params *p,
                           hta_cluster **out, hta_diag *d)
{
    *out = NULL;
    int32_t M = p->servers, D = p->data_servers;
    int64_t T = p->types;
    int32_t k = p->replicas < M ? p->replicas : M;
    if (M < 1 || T < 1 || k < 1 || !(p->total >= 0) || isinf(p->total))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected servers, types and replicas >= 1 and "
                            "a finite total rate >= 0");
    if (p->kind == HTA_CLUSTER_WANG && (D < 1 || D > M))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected 1 <= data servers <= servers, found "
                            "%ld and %ld",
                            (long)D, (long)M);
    double *lambda = malloc((size_t)T * sizeof *lambda);
    int64_t *off = malloc(((size_t)T + 1) * sizeof *off);
    int32_t *srv = malloc((size_t)T * (size_t)k * sizeof *srv);
    if (!lambda || !off || !srv) {
        free(lambda);
        free(off);
        free(srv);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    hta_rng r;
    hta_rng_seed(&r, p->seed);
    int64_t n = 0, rack = p->ntopo ? p->topo[0] : M;
    double sum = 0;
    for (int64_t L = 0; L < T; L++) {
        if ((L & 0xffff) == 0 && p->stop && *p->stop) {
            free(lambda);
            free(off);
            free(srv);
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "interrupted");
        }
        off[L] = n;
        lambda[L] = 1;
        if (p->kind == HTA_CLUSTER_WANG) {
            /* replicas on the data servers: L mod D (every data server
             * holds as many first replicas), then distinct random ones */
            int64_t first = n;
            srv[n++] = (int32_t)(L % D);
            for (int32_t j = 1; j < k && j < D; j++) {
                int32_t s;
                int dup;
                do {
                    s = (int32_t)hta_rng_below(&r, (uint64_t)D);
                    dup = 0;
                    for (int64_t i = first; i < n; i++)
                        dup |= srv[i] == s;
                } while (dup);
                srv[n++] = s;
            }
        } else if (p->kind == HTA_CLUSTER_GBPANDAS) {
            n = rack_aware(&r, M, rack, k, srv, n);
        } else {
            n = random_servers(&r, M, k, srv, n);
            lambda[L] = 0.05 + hta_rng_unit(&r);
        }
        sum += lambda[L];
    }
    off[T] = n;
    for (int64_t L = 0; L < T; L++)
        lambda[L] *= p->total / sum;
    /* hta_cluster_build takes the arrays, also on failure. */
    hta_status st = hta_cluster_build(M, p->rates, p->nrates, p->topo,
                                      p->ntopo, T, lambda, off, srv, out, d);
    if (st == HTA_ERR_INPUT)
        st = HTA_ERR_USAGE, d->path = NULL;
    return st;
}
