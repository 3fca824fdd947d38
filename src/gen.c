/* Instance generators: HDFS-like placements (uniform and Zipf-skewed). */
#include "hta/gen.h"

#include <math.h>
#include <stdlib.h>

#include "hta/rng.h"

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
    for (int32_t t = 0; t < m; t++) {
        off[t] = (int64_t)t * k;
        for (int32_t j = 0; j < k; j++) {
            int32_t s;
            int tries = 0;
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
cleanup:
    free(off);
    free(srv);
    free(rank);
    free(stamp);
    free(cdf);
    return st;
}
