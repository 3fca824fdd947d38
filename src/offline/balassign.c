/* Bal-assign (Fischer-Su-Yin, Section 5.1.2, Definition 12). */
#include "hta/balassign.h"
#include "hta/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/buf.h"

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

/* The k-th least (0-based) of a[0..n), n > k; a is reordered.
 * Quickselect with a three-way partition (the values repeat a lot: loads
 * are small integers) and pivots drawn by a fixed xorshift, so the
 * expected time is O(n) whatever the order of a. */
static double select_kth(double *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (;;) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double p = a[lo + (size_t)(x % (hi - lo))];
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            double v = a[i];
            if (v < p) {
                a[i++] = a[lt];
                a[lt++] = v;
            } else if (v > p) {
                a[i] = a[--gt];
                a[gt] = v;
            } else {
                i++;
            }
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return p;
    }
}

/* The continuous water level lambda: sum over s of max(0, lambda -
 * w_loc*l_s)/c = u, over the distinct loads in increasing order with
 * their counts (by a counting sort when the largest load is at most 4n,
 * else by a sort): O(n + max load). */
static int water_level(const hta_instance *inst, const int32_t *nloc,
                       int64_t u, double c, double *lambda)
{
    int32_t n = inst->n, maxl = 0, runs = 0;
    for (int32_t s = 0; s < n; s++)
        maxl = nloc[s] > maxl ? nloc[s] : maxl;
    int32_t *load = malloc((size_t)n * sizeof *load);
    int64_t *count = (int64_t)maxl <= 4 * (int64_t)n ?
                         calloc((size_t)maxl + 1, sizeof *count) :
                         malloc((size_t)n * sizeof *count);
    if (!load || !count) {
        free(load);
        free(count);
        return 0;
    }
    if ((int64_t)maxl <= 4 * (int64_t)n) {
        for (int32_t s = 0; s < n; s++)
            count[nloc[s]]++;
        for (int32_t l = 0; l <= maxl; l++)
            if (count[l]) { /* runs <= l: packs in place */
                load[runs] = l;
                count[runs++] = count[l];
            }
    } else {
        memcpy(load, nloc, (size_t)n * sizeof *load);
        qsort(load, (size_t)n, sizeof *load, cmp_int32);
        for (int32_t i = 0; i < n; i++) {
            if (i == 0 || load[i] != load[runs - 1]) {
                load[runs] = load[i];
                count[runs++] = 0;
            }
            count[runs - 1]++;
        }
    }
    double cnt = 0, sum_v = 0;
    *lambda = 0;
    for (int32_t r = 0; r < runs; r++) {
        cnt += (double)count[r];
        sum_v += inst->w_loc * (double)load[r] * (double)count[r];
        *lambda = ((double)u * c + sum_v) / cnt;
        if (r + 1 == runs || *lambda <= inst->w_loc * (double)load[r + 1])
            break;
    }
    free(load);
    free(count);
    return 1;
}

hta_status hta_balassign_slots(const hta_instance *inst, const int32_t *nloc,
                               int64_t u, double c, int64_t *q, hta_diag *d)
{
    int32_t n = inst->n;
    memset(q, 0, (size_t)n * sizeof *q);
    if (u == 0)
        return HTA_OK;
    /* The greedy's picks are the u least pairs (w_loc*l_s + j*c, s), j >= 0,
     * in lexicographic order: each server's values grow with j, so the
     * picks are every pair below the value V of the u-th pick and, of the
     * pairs equal to V (at most one per server), those of the least
     * servers.  All pairs below a level lambda0 come first: lambda is the
     * continuous water level (sum over s of max(0, lambda - w_loc*l_s)/c
     * = u); at lambda0 = lambda - c every server has at most (lambda -
     * V_s)/c pairs below, so at most u in all.  V is then the k-th least
     * of the pairs from lambda0 up, k = u - done: those below lambda0 + i*c
     * for the least i that gives k of them (at most 3 per server), by
     * quickselect.  O(n + max load) per call; the heap of the literal
     * greedy (hta_balassign_slots_literal, the tests' oracle) took
     * O(n log n). */
    double lambda;
    if (!water_level(inst, nloc, u, c, &lambda))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    int64_t done;
    double level;
    for (level = lambda - c;; level -= c) {
        done = 0;
        for (int32_t s = 0; s < n; s++) {
            q[s] = below(inst, nloc[s], c, level);
            done += q[s];
        }
        if (done <= u)
            break;
    }
    int64_t k = u - done;
    if (k == 0)
        return HTA_OK;
    /* the pairs in [level, hi), hi from level + 2c (lambda + c when the
     * level is lambda - c: enough, since count(lambda + c) > u) up by c
     * until there are k of them */
    double *cand = NULL;
    size_t cap = 0;
    int64_t nc = 0;
    for (double hi = level + c; nc < k;) {
        hi += c;
        nc = 0;
        for (int32_t s = 0; s < n; s++)
            for (int64_t j = q[s];; j++) {
                double v = hta_balassign_virtual(inst, nloc[s], j, c);
                if (!(v < hi))
                    break;
                if (!HTA_RESERVE(cand, cap, (size_t)nc + 1)) {
                    free(cand);
                    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                        "out of memory");
                }
                cand[nc++] = v;
            }
    }
    double V = select_kth(cand, (size_t)nc, (size_t)(k - 1));
    free(cand);
    int64_t given = 0;
    for (int32_t s = 0; s < n; s++) {
        while (hta_balassign_virtual(inst, nloc[s], q[s], c) < V)
            q[s]++;
        given += q[s];
    }
    /* pairs equal to V, least servers first */
    for (int32_t s = 0; s < n && given < u; s++)
        if (hta_balassign_virtual(inst, nloc[s], q[s], c) == V) {
            q[s]++;
            given++;
        }
    HTA_CHECK(given == u);
    return HTA_OK;
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
