/* Round robin (Fischer-Su-Yin, Algorithm 1, Section 4). */
#include "offline/rr.h"

#include <stdlib.h>
#include <string.h>

#include "hta/rng.h"

/* The first len entries of a uniform random permutation of 0..N-1, by a
 * forward Fisher-Yates shuffle that records only the displaced entries (an
 * open-addressing map of at most 2 len of them): O(len) time and memory
 * whatever N, so a declared server count costs nothing (instance.h). */
/* The slot of x in the map (its own, or the empty one where it goes). */
static size_t slot(const int64_t *key, size_t cap, int64_t x)
{
    size_t h = (size_t)((uint64_t)x * 0x9E3779B97F4A7C15ULL) & (cap - 1);
    while (key[h] >= 0 && key[h] != x)
        h = (h + 1) & (cap - 1);
    return h;
}

static int random_prefix(hta_rng *rng, int64_t N, int64_t len, int32_t *out)
{
    size_t cap = 16;
    while (cap < 4 * (size_t)len + 16)
        cap *= 2;
    int64_t *key = malloc(cap * sizeof *key);
    int32_t *val = malloc(cap * sizeof *val);
    if (!key || !val) {
        free(key);
        free(val);
        return 0;
    }
    for (size_t i = 0; i < cap; i++)
        key[i] = -1;
    for (int64_t i = 0; i < len; i++) {
        int64_t j = i + (int64_t)hta_rng_below(rng, (uint64_t)(N - i));
        size_t si = slot(key, cap, i), sj = slot(key, cap, j);
        int32_t vi = key[si] == i ? val[si] : (int32_t)i;
        int32_t vj = key[sj] == j ? val[sj] : (int32_t)j;
        out[i] = vj;
        /* position j now holds what position i held */
        key[sj] = j;
        val[sj] = vi;
    }
    free(key);
    free(val);
    return 1;
}

hta_status hta_rr_run(const hta_instance *inst, int randomized, uint64_t seed,
                      int32_t *a, hta_diag *d)
{
    /* Servers are visited among all declared ones; those at or beyond the
     * working n hold nothing and only take remote tasks (instance.h). */
    int32_t m = inst->m, n = inst->n;
    int64_t N = inst->n_declared;
    /* every visit gives a task: m visits, or rounds over N < m servers */
    int64_t visits = N < m ? N : m;
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
        order = malloc((size_t)visits * sizeof *order);
        local = malloc(((size_t)inst->edges + 1) * sizeof *local);
        pool = malloc((size_t)m * sizeof *pool);
        if (!order || !local || !pool ||
            !random_prefix(&rng, N, visits, order)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            goto cleanup;
        }
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
        int64_t i = step % visits;
        int32_t s = randomized ? order[i] : (int32_t)i;
        int32_t t = -1;
        if (s < n && randomized) {
            while (cursor[s] < inst->srv_off[s + 1] && a[lists[cursor[s]]] >= 0)
                cursor[s]++;
            if (cursor[s] < inst->srv_off[s + 1])
                t = lists[cursor[s]++];
        } else if (s < n) {
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
