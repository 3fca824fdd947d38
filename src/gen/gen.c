/* Instance generators: HDFS-like placements (uniform and Zipf-skewed). */
#include "hta/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hta/levels.h"
#include "hta/rng.h"
#include "hta/topology.h"

/* Rack paths by the rule of topology.h, then the levels' costs. */
static hta_status name_levels(const hta_gen_hdfs_params *p,
                              hta_instance *inst, hta_diag *d)
{
    int64_t K = p->racks >= 1 ? hta_rack_size(p->servers, p->racks) : 0;
    int64_t P = p->nlev >= 2 && p->pods >= 1 ?
                    hta_rack_size(p->racks, p->pods) : 0;
    if (!K || (p->nlev >= 2 && !P) || p->nlev > 2)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected rack costs with racks (and pod costs "
                            "with pods) that split the servers (racks) into "
                            "that many runs, found %ld racks, %ld pods",
                            (long)p->racks, (long)p->pods);
    for (int32_t s = 0; s < p->servers; s++) {
        char path[64];
        int64_t r = hta_rack_of(s, K);
        if (p->nlev >= 2)
            snprintf(path, sizeof path, "/pod%lld/rack%lld",
                     (long long)hta_rack_of(r, P), (long long)r);
        else
            snprintf(path, sizeof path, "/rack%lld", (long long)r);
        hta_status st = hta_instance_set_name(inst, 'r', s, path, d);
        if (st != HTA_OK)
            return st;
    }
    return hta_instance_set_levels(inst, p->wlev, p->nlev, d);
}

hta_status hta_gen_hdfs(const hta_gen_hdfs_params *p, hta_instance **out,
                        hta_diag *d)
{
    *out = NULL;
    int32_t m = p->tasks, n = p->servers, k = p->replicas;
    if (m < 1 || n < 1 || k < 1 || k > n)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected tasks >= 1, servers >= 1 and 1 <= "
                            "replicas <= servers, found %ld, %ld, %ld",
                            (long)m, (long)n, (long)k);
    if (!(p->zipf >= 0 && p->zipf <= 100)) {
        char buf[32];
        hta_format_real(buf, p->zipf);
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "zipf: expected a number in [0, 100] (0: "
                            "uniform), found '%s'",
                            buf);
    }
    hta_rng rng;
    hta_rng_seed(&rng, p->seed);
    int64_t *off = malloc(((size_t)m + 1) * sizeof *off);
    int32_t *srv = malloc((size_t)m * (size_t)k * sizeof *srv);
    int32_t *rank = malloc((size_t)n * sizeof *rank);
    int32_t *stamp = calloc((size_t)n, sizeof *stamp);
    double *cdf = p->zipf > 0 ? malloc((size_t)n * sizeof *cdf) : NULL;
    hta_status st = HTA_OK;
    if (!off || !srv || !rank || !stamp || (p->zipf > 0 && !cdf)) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    for (int32_t s = 0; s < n; s++)
        rank[s] = s;
    hta_rng_shuffle(&rng, rank, n);
    if (cdf) {
        double acc = 0;
        for (int32_t i = 0; i < n; i++)
            cdf[i] = acc += pow((double)i + 1.0, -p->zipf);
        for (int32_t i = 0; i < n; i++)
            cdf[i] /= acc;
    }
    int64_t K = 0; /* rack size, 0: no racks */
    if (p->rack_aware) {
        if (p->racks < 2 || !(K = hta_rack_size(n, p->racks))) {
            st = hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                              "expected a rack-aware placement on 2 or more "
                              "racks of consecutive servers, found %ld "
                              "racks on %ld servers",
                              (long)p->racks, (long)n);
            goto cleanup;
        }
    }
    for (int32_t t = 0; t < m; t++) {
        if ((t & 0xffff) == 0 && p->stop && *p->stop) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "interrupted");
            goto cleanup;
        }
        off[t] = (int64_t)t * k;
        for (int32_t j = 0; j < k; j++) {
            int32_t s;
            int tries = 0;
            if (K && (j == 1 || j == 2)) {
                /* second: another rack than the first; third: the
                 * second's rack, another server */
                int32_t prev = srv[(int64_t)t * k + j - 1];
                int32_t first = srv[(int64_t)t * k];
                int64_t lo = hta_rack_of(prev, K) * K;
                int64_t hi = lo + K < n ? lo + K : n;
                int found = 0;
                for (int tr = 0; tr < 64 && !found; tr++) {
                    if (j == 1) {
                        s = (int32_t)hta_rng_below(&rng, (uint64_t)n);
                        found = hta_rack_of(s, K) != hta_rack_of(first, K);
                    } else {
                        s = (int32_t)(lo + (int64_t)hta_rng_below(
                                               &rng, (uint64_t)(hi - lo)));
                        found = stamp[s] != t + 1;
                    }
                }
                if (found) {
                    stamp[s] = t + 1;
                    srv[(int64_t)t * k + j] = s;
                    continue;
                }
            }
            do {
                if (cdf && tries < 64) {
                    double x = hta_rng_unit(&rng);
                    int32_t lo = 0, hi = n - 1;
                    while (lo < hi) {
                        int32_t mid = lo + (hi - lo) / 2;
                        if (cdf[mid] > x)
                            hi = mid;
                        else
                            lo = mid + 1;
                    }
                    s = rank[lo];
                } else {
                    /* Uniform, also the fallback of a very skewed draw. */
                    s = (int32_t)hta_rng_below(&rng, (uint64_t)n);
                }
                tries++;
            } while (stamp[s] == t + 1);
            stamp[s] = t + 1;
            srv[(int64_t)t * k + j] = s;
        }
    }
    off[m] = (int64_t)m * k;
    st = hta_instance_build(m, n, p->w_loc, &p->wrem, off, srv, out, d);
    if (st == HTA_OK && p->nlev > 0 && (st = name_levels(p, *out, d)) != HTA_OK) {
        hta_instance_free(*out);
        *out = NULL;
    }
cleanup:
    free(off);
    free(srv);
    free(rank);
    free(stamp);
    free(cdf);
    return st;
}

static hta_status build_3(int32_t m, int32_t n, int64_t *off, int32_t *srv,
                          hta_instance **out, hta_diag *d)
{
    double v = 3.0;
    hta_wrem w = {HTA_WREM_TABLE, 0, &v, 0, 0};
    hta_status st = hta_instance_build(m, n, 1.0, &w, off, srv, out, d);
    free(off);
    free(srv);
    return st;
}

hta_status hta_gen_rr_replica(int32_t n, int extra, hta_instance **out,
                              hta_diag *d)
{
    *out = NULL;
    if (n < 2)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected at least 2 servers, found %ld",
                            (long)n);
    int64_t *off = malloc(((size_t)n + 1) * sizeof *off);
    int32_t *srv = malloc(((size_t)n + 1) * sizeof *srv);
    if (!off || !srv) {
        free(off);
        free(srv);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    int64_t k = 0;
    for (int32_t t = 0; t < n; t++) {
        off[t] = k;
        srv[k++] = t;
        if (extra && t == n - 1)
            srv[k++] = 0;
    }
    off[n] = k;
    return build_3(n, n, off, srv, out, d);
}

hta_status hta_gen_rr_worst(int32_t n, int32_t m, hta_instance **out,
                            hta_diag *d)
{
    *out = NULL;
    if (n < 3 || m < n || (int64_t)m > (int64_t)n * (n - 2))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected n >= 3 and n <= m <= n(n-2), found "
                            "n=%ld m=%ld",
                            (long)n, (long)m);
    int32_t k = m / n, r = m % n;
    int64_t *off = malloc(((size_t)m + 1) * sizeof *off);
    int32_t *srv = malloc(((size_t)m * 2 + 1) * sizeof *srv);
    if (!off || !srv) {
        free(off);
        free(srv);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    int64_t e = 0;
    int32_t t = 0;
    /* own tasks: servers 0..r-1 get k+1, servers r..n-2 get k */
    for (int32_t s = 0; s < n - 1; s++)
        for (int32_t i = 0; i < k + (s < r); i++, t++) {
            off[t] = e;
            srv[e++] = s;
        }
    /* u_j (j = 1..k), the highest ids: on server j-1 and server n-1 */
    for (int32_t j = 1; j <= k; j++, t++) {
        off[t] = e;
        srv[e++] = j - 1;
        srv[e++] = n - 1;
    }
    off[t] = e;
    return build_3(m, n, off, srv, out, d);
}
