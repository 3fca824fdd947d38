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

hta_status hta_gen_cluster_resolve(const hta_gen_cluster_ask *a,
                                   hta_gen_cluster_params *p, hta_diag *d)
{
    int k = (int)a->kind;
    if (k < 0 || k > HTA_CLUSTER_RANDOM)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected wang, gbpandas or random, found kind "
                            "%d",
                            k);
    if (a->data_servers && k != HTA_CLUSTER_WANG)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "--data-servers is for wang only");
    hta_gen_cluster_defaults(p, a->kind);
    int has_total = !isnan(a->total), has_load = !isnan(a->load);
    if (has_total && has_load)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "give --total or --load, not both");
    if ((has_total && !(a->total >= 0 && a->total <= 1e300)) ||
        (has_load && !(a->load >= 0 && a->load <= 1e300)))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "--%s expects a number in [0, 1e+300]",
                            has_total ? "total" : "load");
    if (a->servers < 0 || a->servers > HTA_MAX_SERVERS ||
        a->data_servers < 0 || a->data_servers > HTA_MAX_SERVERS ||
        a->types < 0 || a->types > 100000000 || a->replicas < 0 ||
        a->replicas > 64 || a->nrates < 0 || a->nrates > HTA_MAX_LEVELS ||
        a->nrates == 1 || a->ntopo < 0 || a->ntopo > 6)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected --servers and --data-servers in [1, "
                            "%lld], --types in [1, 100000000], --replicas in "
                            "[1, 64], 2 to %d --rates, 1 to 6 --topology "
                            "levels",
                            HTA_MAX_SERVERS, HTA_MAX_LEVELS);
    if (a->servers)
        p->servers = a->servers;
    if (a->data_servers)
        p->data_servers = a->data_servers;
    if (k == HTA_CLUSTER_WANG && p->data_servers > p->servers)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "--data-servers exceeds --servers");
    p->types = a->types ? a->types :
               k == HTA_CLUSTER_WANG ? p->data_servers : p->servers;
    if (a->replicas)
        p->replicas = a->replicas;
    if (k == HTA_CLUSTER_WANG && p->replicas > p->data_servers) {
        if (a->replicas)
            return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                                "--replicas %ld exceeds the %ld data servers",
                                (long)p->replicas, (long)p->data_servers);
        p->replicas = p->data_servers; /* the default, 3, capped */
    }
    if (a->nrates) {
        p->nrates = a->nrates;
        memcpy(p->rates, a->rates, (size_t)a->nrates * sizeof *p->rates);
    }
    for (int i = 0; i < p->nrates; i++)
        if (!(p->rates[i] > 0 && p->rates[i] <= 1e300) ||
            (i && !(p->rates[i] < p->rates[i - 1]))) {
            char list[HTA_MAX_LEVELS * 33] = "", x[32];
            for (int j = 0; j < p->nrates; j++) {
                hta_format_real(x, p->rates[j]);
                if (j)
                    strcat(list, ",");
                strcat(list, x);
            }
            return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                                "--rates must be strictly decreasing, found "
                                "'%s'",
                                list);
        }
    if (a->ntopo) {
        p->ntopo = a->ntopo;
        for (int i = 0; i < a->ntopo; i++) {
            if (a->topo[i] < 1 || a->topo[i] > HTA_MAX_SERVERS)
                return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                                    "--topology expects integers in [1, "
                                    "%lld]",
                                    HTA_MAX_SERVERS);
            p->topo[i] = a->topo[i];
        }
    } else if (a->nrates && p->nrates != p->ntopo + 2) {
        p->ntopo = 0; /* the set-up's topology does not fit the rates */
    }
    if (p->ntopo + 2 != p->nrates)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "%d rates need %d topology level%s, found %d",
                            p->nrates, p->nrates - 2,
                            p->nrates == 3 ? "" : "s", p->ntopo);
    if (has_load)
        p->total = a->load * (double)p->servers;
    else if (has_total)
        p->total = a->total;
    else if (k == HTA_CLUSTER_WANG)
        p->total = p->rates[0] * p->data_servers +
                   p->rates[p->nrates - 1] * (p->servers - p->data_servers);
    else
        p->total = 0.5 * (double)p->servers;
    if (a->has_seed)
        p->seed = a->seed;
    return HTA_OK;
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
