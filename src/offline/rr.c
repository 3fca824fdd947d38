/* Round robin (Fischer-Su-Yin, Algorithm 1, Section 4). */
#include "hta/rr.h"

#include <stdlib.h>
#include <string.h>

#include "hta/rng.h"

hta_status hta_rr_run(const hta_instance *inst, int randomized, uint64_t seed,
                      int32_t *a, hta_diag *d)
{
    int32_t m = inst->m, n = inst->n;
    hta_status st = HTA_OK;
    int64_t *cursor = malloc((size_t)n * sizeof *cursor);
    int32_t *order = NULL, *local = NULL, *pool = NULL;
    if (!cursor) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    const int32_t *lists = inst->srv_task;
    if (randomized) {
        hta_rng rng;
        hta_rng_seed(&rng, seed);
        order = malloc((size_t)n * sizeof *order);
        local = malloc(((size_t)inst->edges + 1) * sizeof *local);
        pool = malloc((size_t)m * sizeof *pool);
        if (!order || !local || !pool) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            goto cleanup;
        }
        for (int32_t s = 0; s < n; s++)
            order[s] = s;
        hta_rng_shuffle(&rng, order, n);
        memcpy(local, inst->srv_task, (size_t)inst->edges * sizeof *local);
        for (int32_t s = 0; s < n; s++)
            hta_rng_shuffle(&rng, local + inst->srv_off[s],
                            inst->srv_off[s + 1] - inst->srv_off[s]);
        for (int32_t t = 0; t < m; t++)
            pool[t] = t;
        hta_rng_shuffle(&rng, pool, m);
        lists = local;
    }
    /* The deterministic rule reads each local list from its end (highest
     * task id first); the randomized one from its start. */
    for (int32_t s = 0; s < n; s++)
        cursor[s] = randomized ? inst->srv_off[s] : inst->srv_off[s + 1] - 1;
    for (int32_t t = 0; t < m; t++)
        a[t] = -1;
    int32_t left = m, any = 0;
    for (int64_t step = 0; left > 0; step++) {
        int32_t i = (int32_t)(step % n);
        int32_t s = randomized ? order[i] : i;
        int32_t t = -1;
        if (randomized) {
            while (cursor[s] < inst->srv_off[s + 1] && a[lists[cursor[s]]] >= 0)
                cursor[s]++;
            if (cursor[s] < inst->srv_off[s + 1])
                t = lists[cursor[s]++];
        } else {
            while (cursor[s] >= inst->srv_off[s] && a[lists[cursor[s]]] >= 0)
                cursor[s]--;
            if (cursor[s] >= inst->srv_off[s])
                t = lists[cursor[s]--];
        }
        if (t < 0) {
            while (a[randomized ? pool[any] : any] >= 0)
                any++;
            t = randomized ? pool[any] : any;
        }
        a[t] = s;
        left--;
    }
cleanup:
    free(cursor);
    free(order);
    free(local);
    free(pool);
    return st;
}
