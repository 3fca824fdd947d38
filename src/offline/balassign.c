/* Bal-assign (Fischer-Su-Yin, Section 5.1.2, Definition 12). */
#include "hta/balassign.h"
#include "hta/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"

double hta_balassign_virtual(const hta_instance *inst, int32_t nloc, int64_t j,
                             double c)
{
    return hta_load(inst, nloc, j, c);
}

static int cmp_int32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Binary min-heap of servers keyed by (virtual load, id). */
typedef struct heap {
    int32_t *srv;
    double *key;
    int64_t len;
} heap;

static int less(const heap *h, int64_t i, int64_t j)
{
    return h->key[i] < h->key[j] ||
           (h->key[i] == h->key[j] && h->srv[i] < h->srv[j]);
}

static void swap(heap *h, int64_t i, int64_t j)
{
    int32_t s = h->srv[i];
    double k = h->key[i];
    h->srv[i] = h->srv[j], h->key[i] = h->key[j];
    h->srv[j] = s, h->key[j] = k;
}

static void sift_down(heap *h, int64_t i)
{
    for (;;) {
        int64_t l = 2 * i + 1, best = i;
        if (l < h->len && less(h, l, best))
            best = l;
        if (l + 1 < h->len && less(h, l + 1, best))
            best = l + 1;
        if (best == i)
            return;
        swap(h, i, best);
        i = best;
    }
}

/* Makes u - done more picks from the heap of all servers, whose key is the
 * virtual load with the slots q[s] given so far. */
static hta_status heap_picks(const hta_instance *inst, const int32_t *nloc,
                             int64_t picks, double c, int64_t *q, hta_diag *d)
{
    int32_t n = inst->n;
    heap h = {malloc((size_t)n * sizeof *h.srv),
              malloc((size_t)n * sizeof *h.key), n};
    if (!h.srv || !h.key) {
        free(h.srv);
        free(h.key);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    for (int32_t s = 0; s < n; s++) {
        h.srv[s] = s;
        h.key[s] = hta_balassign_virtual(inst, nloc[s], q[s], c);
    }
    for (int64_t i = n / 2 - 1; i >= 0; i--)
        sift_down(&h, i);
    for (int64_t k = 0; k < picks; k++) {
        int32_t s = h.srv[0];
        q[s]++;
        h.key[0] = hta_balassign_virtual(inst, nloc[s], q[s], c);
        sift_down(&h, 0);
    }
    free(h.srv);
    free(h.key);
    return HTA_OK;
}

hta_status hta_balassign_slots_literal(const hta_instance *inst,
                                       const int32_t *nloc, int64_t u,
                                       double c, int64_t *q, hta_diag *d)
{
    memset(q, 0, (size_t)inst->n * sizeof *q);
    return heap_picks(inst, nloc, u, c, q, d);
}

/* #{j >= 0 : virtual(s, j) < level}, with the very formula the greedy
 * compares, so float rounding cannot make the two disagree. */
static int64_t below(const hta_instance *inst, int32_t nloc, double c,
                     double level)
{
    double base = hta_balassign_virtual(inst, nloc, 0, c);
    if (!(base < level))
        return 0;
    double est = floor((level - base) / c) + 1.0;
    int64_t j = est > 9e15 ? (int64_t)9e15 : (int64_t)est;
    while (j > 0 && !(hta_balassign_virtual(inst, nloc, j - 1, c) < level))
        j--;
    while (hta_balassign_virtual(inst, nloc, j, c) < level)
        j++;
    return j;
}

hta_status hta_balassign_slots(const hta_instance *inst, const int32_t *nloc,
                               int64_t u, double c, int64_t *q, hta_diag *d)
{
    int32_t n = inst->n;
    memset(q, 0, (size_t)n * sizeof *q);
    if (u == 0)
        return HTA_OK;
    /* The greedy's picks are the u least pairs (w_loc*l_s + j*c, s), j >= 0,
     * in lexicographic order: each server's values grow with j, so the heap
     * merges n sorted sequences.  All pairs below a level lambda0 come
     * first; only the rest needs the heap.  lambda is the continuous water
     * level (sum over s of max(0, lambda - w_loc*l_s)/c = u); at
     * lambda0 = lambda - c every server has at most (lambda - V_s)/c pairs
     * below, so at most u in all, and at least (lambda - V_s)/c - 1, so the
     * heap makes at most n picks. */
    /* Water level over the sorted loads: O(n log n), independent of how
     * large the loads are. */
    int32_t *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    memcpy(sorted, nloc, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_int32);
    double cnt = 0, sum_v = 0, lambda = 0;
    for (int32_t i = 0; i < n;) {
        int32_t l = sorted[i];
        while (i < n && sorted[i] == l) {
            cnt += 1;
            sum_v += inst->w_loc * (double)l;
            i++;
        }
        lambda = ((double)u * c + sum_v) / cnt;
        if (i == n || lambda <= inst->w_loc * (double)sorted[i])
            break;
    }
    free(sorted);
    int64_t done;
    for (double level = lambda - c;; level -= c) {
        done = 0;
        for (int32_t s = 0; s < n; s++) {
            q[s] = below(inst, nloc[s], c, level);
            done += q[s];
        }
        if (done <= u)
            break;
    }
    hta_status st = heap_picks(inst, nloc, u - done, c, q, d);
#ifdef HTA_CHECKED
    /* bal-assign gives out exactly the u uncovered tasks */
    int64_t given = 0;
    for (int32_t s = 0; st == HTA_OK && s < n; s++)
        given += q[s];
    HTA_CHECK(st != HTA_OK || given == u);
#endif
    return st;
}

hta_status hta_balassign_place(const hta_instance *inst, hta_maxcover *scratch,
                               const int64_t *q, int32_t *a, hta_diag *d)
{
    /* Most local tasks first: a maximum b-matching of the uncovered tasks
     * into the slots, then the rest fill the remaining slots. */
    hta_status st = hta_maxcover_fill(scratch, a, q, a, d);
    if (st != HTA_OK)
        return st;
    const int32_t *used = hta_maxcover_loads(scratch);
    int32_t s = 0, n = inst->n;
    int64_t room = n ? q[0] - used[0] : 0;
    for (int32_t t = 0; t < inst->m; t++) {
        if (a[t] >= 0)
            continue;
        while (room == 0 && s + 1 < n) {
            s++;
            room = q[s] - used[s];
        }
        if (room <= 0)
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "bal-assign: more tasks than slots");
        a[t] = s;
        room--;
    }
    return HTA_OK;
}
