/* Brute-force oracle: enumerates every assignment (odometer order), keeping
 * per-server counts incrementally. */
#include "hta/brute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"

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
    int32_t *a = calloc((size_t)m, sizeof *a);
    int32_t *nloc = calloc((size_t)n, sizeof *nloc);
    int32_t *nrem = calloc((size_t)n, sizeof *nrem);
    unsigned char *loc = malloc((size_t)m * (size_t)n);
    hta_status st = HTA_OK;
    if (!a || !nloc || !nrem || !loc) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    memset(loc, 0, (size_t)m * (size_t)n);
    for (int32_t t = 0; t < m; t++)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            loc[(size_t)t * n + inst->task_srv[i]] = 1;
    int64_t r = 0;
    for (int32_t t = 0; t < m; t++) {
        if (loc[(size_t)t * n])
            nloc[0]++;
        else
            nrem[0]++, r++;
    }
    double best_span = INFINITY;
    for (uint32_t step = 0;; step++) {
        if ((step & 4095u) == 1 && stop && *stop)
            goto cleanup;
        double c = hta_wrem_at(&inst->wrem, r), span = 0.0;
        for (int32_t s = 0; s < n && span < best_span; s++) {
            double l = hta_load(inst, nloc[s], nrem[s], c);
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
            int is_loc = loc[(size_t)t * n + s];
            if (is_loc)
                nloc[s]--;
            else
                nrem[s]--, r--;
            s = s + 1 < n ? s + 1 : 0;
            a[t] = s;
            is_loc = loc[(size_t)t * n + s];
            if (is_loc)
                nloc[s]++;
            else
                nrem[s]++, r++;
            if (s != 0)
                break;
        }
        if (t < 0)
            break;
    }
    *complete = 1;
cleanup:
    free(a);
    free(nloc);
    free(nrem);
    free(loc);
    return st;
}
