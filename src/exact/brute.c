/* Brute-force oracle: enumerates every assignment (odometer order), keeping
 * per-server counts per locality level incrementally (levels.h; two
 * levels: local and remote). */
#include "exact/brute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/levels.h"

int hta_brute_fits(const hta_instance *inst)
{
    return (double)inst->m * log((double)inst->n) +
               log((double)inst->n + 1.0) <=
           log(HTA_BRUTE_MAX_WORK);
}

hta_status hta_brute_run(const hta_instance *inst,
                         volatile sig_atomic_t *stop, int32_t *best,
                         int *complete, hta_diag *d)
{
    *complete = 0;
    if (!hta_brute_fits(inst))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected n^m * (n+1) <= %.0f for brute force, "
                            "found n=%ld m=%ld",
                            HTA_BRUTE_MAX_WORK, (long)inst->n,
                            (long)inst->m);
    int32_t m = inst->m, n = inst->n;
    int N = hta_levels(inst);
    int32_t *a = calloc((size_t)m, sizeof *a);
    int64_t *cnt = calloc((size_t)n * (size_t)N, sizeof *cnt);
    unsigned char *lv = malloc((size_t)m * (size_t)n);
    hta_status st = HTA_OK;
    if (!a || !cnt || !lv) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    /* lv[t * n + s]: the level of task t on server s, 1..N */
    for (int32_t t = 0; t < m; t++)
        for (int32_t s = 0; s < n; s++)
            lv[(size_t)t * n + s] = (unsigned char)hta_level(inst, t, s);
    int64_t r[HTA_MAX_LEVELS] = {0}; /* tasks per level */
    for (int32_t t = 0; t < m; t++) {
        int l = lv[(size_t)t * n];
        cnt[l - 1]++;
        r[l - 1]++;
    }
    double best_span = INFINITY, c[HTA_MAX_LEVELS];
    c[0] = inst->w_loc;
    for (uint32_t step = 0;; step++) {
        if ((step & 4095u) == 1 && stop && *stop)
            goto cleanup;
        for (int l = 2; l <= N; l++)
            c[l - 1] = hta_level_cost(inst, l, r[l - 1]);
        double span = 0.0;
        for (int32_t s = 0; s < n && span < best_span; s++) {
            double l = hta_load_levels(N, cnt + (size_t)s * (size_t)N, c);
            if (l > span)
                span = l;
        }
        if (span < best_span) {
            best_span = span;
            memcpy(best, a, (size_t)m * sizeof *a);
        }
        /* Odometer step: the last task turns fastest. */
        int32_t t = m - 1;
        for (; t >= 0; t--) {
            int32_t s = a[t];
            int l = lv[(size_t)t * n + s];
            cnt[(size_t)s * (size_t)N + (size_t)(l - 1)]--;
            r[l - 1]--;
            s = s + 1 < n ? s + 1 : 0;
            a[t] = s;
            l = lv[(size_t)t * n + s];
            cnt[(size_t)s * (size_t)N + (size_t)(l - 1)]++;
            r[l - 1]++;
            if (s != 0)
                break;
        }
        if (t < 0)
            break;
    }
    *complete = 1;
cleanup:
    free(a);
    free(cnt);
    free(lv);
    return st;
}
