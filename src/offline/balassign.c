/* Bal-assign (Fischer-Su-Yin, Section 5.1.2, Definition 12). */
#include "offline/balassign.h"
#include "core/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "core/buf.h"

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

/* The distinct loads of nloc in increasing order, load[0..runs), and how
 * many servers have each, count[]; by a counting sort when the largest
 * load is at most 4n, which also gives *ridx (ridx[l]: the run of load l),
 * else by a sort (*ridx NULL).  0 out of memory. */
static int load_runs(const hta_instance *inst, const int32_t *nloc,
                     int32_t **load_out, int64_t **count_out, int32_t *runs_out,
                     int32_t **ridx)
{
    int32_t n = inst->n, maxl = 0, max2 = 0, runs = 0;
    for (int32_t s = 0; s + 1 < n; s += 2) { /* two chains, as below */
        maxl = nloc[s] > maxl ? nloc[s] : maxl;
        max2 = nloc[s + 1] > max2 ? nloc[s + 1] : max2;
    }
    if (n % 2 && nloc[n - 1] > maxl)
        maxl = nloc[n - 1];
    maxl = max2 > maxl ? max2 : maxl;
    int counting = (int64_t)maxl <= 4 * (int64_t)n;
    size_t len = counting ? (size_t)maxl + 1 : (size_t)n;
    int32_t *load = malloc((size_t)n * sizeof *load); /* runs <= n */
    int64_t *count = counting ? calloc(len, sizeof *count) :
                                malloc(len * sizeof *count);
    *ridx = counting ? calloc(len, sizeof **ridx) : NULL;
    if (!load || !count || (counting && !*ridx)) {
        free(load);
        free(count);
        free(*ridx);
        *ridx = NULL;
        return 0;
    }
    if (counting) {
        /* two histograms, the odd servers' in ridx (merged below): a
         * run of equal loads, common here, then adds to two counters in
         * turn instead of waiting on one */
        int32_t *odd = *ridx;
        for (int32_t s = 0; s + 1 < n; s += 2) {
            count[nloc[s]]++;
            odd[nloc[s + 1]]++;
        }
        if (n % 2)
            count[nloc[n - 1]]++;
        for (int32_t l = 0; l <= maxl; l++)
            count[l] += odd[l];
        for (int32_t l = 0; l <= maxl; l++)
            if (count[l]) { /* runs <= l: packs in place */
                (*ridx)[l] = runs;
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
    *load_out = load;
    *count_out = count;
    *runs_out = runs;
    return 1;
}

/* The continuous water level lambda: sum over s of max(0, lambda -
 * w_loc*l_s)/c = u, over the distinct loads in increasing order. */
static double water_level(const hta_instance *inst, const int32_t *load,
                          const int64_t *count, int32_t runs, int64_t u,
                          double c)
{
    double cnt = 0, sum_v = 0, lambda = 0;
    for (int32_t r = 0; r < runs; r++) {
        cnt += (double)count[r];
        sum_v += inst->w_loc * (double)load[r] * (double)count[r];
        lambda = ((double)u * c + sum_v) / cnt;
        if (r + 1 == runs || lambda <= inst->w_loc * (double)load[r + 1])
            break;
    }
    return lambda;
}

/* A candidate pick value and how many servers offer it. */
typedef struct cand {
    double v;
    int64_t w;
} cand;

static int cmp_cand(const void *x, const void *y)
{
    double a = ((const cand *)x)->v, b = ((const cand *)y)->v;
    return (a > b) - (a < b);
}

/* The run of load l (load[] increasing). */
static int32_t run_of(const int32_t *load, int32_t runs, int32_t l)
{
    int32_t lo = 0, hi = runs - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (load[mid] < l)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The slots by runs (balassign.h): the runs of equal load (load_runs),
 * the slots of each run below the value V of the u-th pick, then the
 * ties at V.  Those go to the least servers, so in each run to a prefix
 * of its servers in id order; the scan for them stops at the last one
 * given, and a run is tied or not, with no float comparison per server.
 * hta_balassign_slots is these runs spread over the servers. */
hta_status hta_balassign_slot_runs(const hta_instance *inst,
                                   const int32_t *nloc, int64_t u, double c,
                                   hta_slot_runs *r, hta_diag *d)
{
    /* The greedy's picks are the u least pairs (w_loc*l_s + j*c, s), j >= 0,
     * in lexicographic order: each server's values grow with j, so the
     * picks are every pair below the value V of the u-th pick and, of the
     * pairs equal to V (at most one per server), those of the least
     * servers.  All pairs below a level lambda0 come first: lambda is the
     * continuous water level (sum over s of max(0, lambda - w_loc*l_s)/c
     * = u); at lambda0 = lambda - c every server has at most (lambda -
     * V_s)/c pairs below, so at most u in all.  V is then the k-th least
     * of the pairs from lambda0 up, k = u - done: those below lambda0 + i*c
     * for the least i that gives k of them (at most 3 per server).
     * Servers of equal load have equal pairs, so all of this runs over the
     * distinct loads with their counts (on a skewed placement a few hundred
     * against 10^4 servers), and only the last step, the ties at V in
     * server order, reads every server.  O(n + max load) per call; the
     * heap of the literal greedy (hta_balassign_slots_literal, the tests'
     * oracle) took O(n log n). */
    int32_t *load = NULL, *ridx = NULL, runs = 0;
    int64_t *count = NULL, *qr = NULL;
    cand *cands = NULL;
    size_t cap = 0;
    hta_status st = HTA_OK;
    double V = -INFINITY; /* no pick at a tie when k == 0 */
    int32_t *tied = NULL;
    memset(r, 0, sizeof *r);
    if (!load_runs(inst, nloc, &load, &count, &runs, &ridx) ||
        !(qr = calloc((size_t)runs + 1, sizeof *qr)) ||
        !(r->plus = calloc((size_t)runs + 1, sizeof *r->plus))) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    if (u == 0)
        goto done;
    double lambda = water_level(inst, load, count, runs, u, c);
    int64_t done;
    double level;
    for (level = lambda - c;; level -= c) {
        done = 0;
        for (int32_t k = 0; k < runs; k++) {
            qr[k] = below(inst, load[k], c, level);
            done += qr[k] * count[k];
        }
        if (done <= u)
            break;
    }
    int64_t k = u - done;
    if (k > 0) {
        /* the pairs in [level, hi), hi from level + 2c (lambda + c when the
           level is lambda - c: enough, since count(lambda + c) > u) up by c
           until there are k of them */
        int64_t nc = 0, total = 0;
        for (double hi = level + c; total < k;) {
            hi += c;
            nc = total = 0;
            for (int32_t x = 0; x < runs; x++)
                for (int64_t j = qr[x];; j++) {
                    double v = hta_balassign_virtual(inst, load[x], j, c);
                    if (!(v < hi))
                        break;
                    if (!HTA_RESERVE(cands, cap, (size_t)nc + 1)) {
                        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                          "out of memory");
                        goto done;
                    }
                    cands[nc].v = v;
                    cands[nc++].w = count[x];
                    total += count[x];
                }
        }
        qsort(cands, (size_t)nc, sizeof *cands, cmp_cand);
        for (int64_t i = 0, seen = 0; i < nc; i++)
            if ((seen += cands[i].w) >= k) {
                V = cands[i].v;
                break;
            }
        for (int32_t x = 0; x < runs; x++)
            while (hta_balassign_virtual(inst, load[x], qr[x], c) < V)
                qr[x]++;
    }
    int64_t given = 0;
    for (int32_t x = 0; x < runs; x++)
        given += qr[x] * count[x];
    if (given < u) {
        if (!(tied = malloc((size_t)runs * sizeof *tied))) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            goto done;
        }
        /* tied[x]: x when run x is tied, else runs, a slot of plus
         * counted and cleared after: no branch per server (tied runs
         * interleave at random in id order, so half such branches were
         * mispredicted) */
        for (int32_t x = 0; x < runs; x++)
            tied[x] = hta_balassign_virtual(inst, load[x], qr[x], c) == V ?
                          x : runs;
        for (int32_t s = 0; s < inst->n && given < u; s++) {
            int32_t x = tied[ridx ? ridx[nloc[s]] :
                                    run_of(load, runs, nloc[s])];
            r->plus[x]++;
            given += x != runs;
        }
        r->plus[runs] = 0;
    }
    HTA_CHECK(given == u);
done:
    free(cands);
    free(tied);
    r->runs = runs;
    r->load = load;
    r->count = count;
    r->q = qr;
    r->ridx = ridx;
    if (st != HTA_OK)
        hta_slot_runs_free(r);
    return st;
}

void hta_slot_runs_free(hta_slot_runs *r)
{
    if (!r)
        return;
    free(r->load);
    free(r->count);
    free(r->q);
    free(r->plus);
    free(r->ridx);
    memset(r, 0, sizeof *r);
}

void hta_slot_runs_expand(const hta_instance *inst, const int32_t *nloc,
                          const hta_slot_runs *r, int64_t *q)
{
    /* the runs' ties are the first of their servers in id order: the
       first `total` servers of tied runs (plus > 0) take one more */
    int64_t total = 0, given = 0;
    for (int32_t x = 0; x < r->runs; x++)
        total += r->plus[x];
    for (int32_t s = 0; s < inst->n; s++) {
        int32_t x = r->ridx ? r->ridx[nloc[s]] :
                              run_of(r->load, r->runs, nloc[s]);
        int one = r->plus[x] > 0 && given < total;
        q[s] = r->q[x] + one;
        given += one;
    }
}

hta_status hta_balassign_slots(const hta_instance *inst, const int32_t *nloc,
                               int64_t u, double c, int64_t *q, hta_diag *d)
{
    hta_slot_runs r;
    hta_status st = hta_balassign_slot_runs(inst, nloc, u, c, &r, d);
    if (st != HTA_OK)
        return st;
    hta_slot_runs_expand(inst, nloc, &r, q);
    hta_slot_runs_free(&r);
    return HTA_OK;
}

double hta_balassign_makespan(const hta_instance *inst, const int32_t *loads,
                              const int64_t *q, const int32_t *used,
                              int64_t *remote)
{
    int64_t r = 0;
    for (int32_t s = 0; s < inst->n; s++)
        r += q[s] - used[s];
    double c = hta_wrem_at(&inst->wrem, r), max = 0.0;
    for (int32_t s = 0; s < inst->n; s++) {
        double x = hta_load(inst, loads[s] + used[s], q[s] - used[s], c);
        max = x > max ? x : max;
    }
    *remote = r;
    return max;
}

int hta_balassign_matching_needed(const hta_instance *inst, const int64_t *q,
                                  const int32_t *nfree)
{
    for (int32_t s = 0; s < inst->n; s++)
        if (q[s] > 0 && (!nfree || nfree[s] > 0))
            return 1;
    return 0;
}

/* Whether every server has at least as many free local tasks as slots
 * (nfree, or the degree where unknown): else no matching is perfect. */
static int room_everywhere(const hta_instance *inst, const int64_t *q,
                           const int32_t *nfree)
{
    for (int32_t s = 0; s < inst->n; s++) {
        int64_t f = nfree ? nfree[s] : inst->srv_off[s + 1] - inst->srv_off[s];
        if (q[s] > f)
            return 0;
    }
    return 1;
}

hta_status hta_balassign_place(const hta_instance *inst, hta_maxcover *scratch,
                               const int64_t *q, const int32_t *nfree,
                               int32_t *a, int32_t *used, hta_diag *d)
{
    /* Most local tasks first: a maximum b-matching of the uncovered tasks
     * into the slots, then the rest fill the remaining slots. */
    const int32_t *matched = NULL;
    if (!nfree || hta_balassign_matching_needed(inst, q, nfree)) {
        if (!scratch)
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "bal-assign: no work space for the matching");
        /* When every slot can hold a local task of its server (nfree,
         * else the degree, at least q on every server), try for a
         * perfect matching from the greedy start: any perfect matching
         * puts q[s] local tasks on every server, the reference's too
         * (its size is the same maximum), so the loads and the makespan
         * are the reference's; only which task goes where differs.
         * Uniform placement, 10^7 tasks: every slot local, the servers'
         * scan read 3·10^7 covers at random (fsy 0.78 -> 0.30 s). */
        int perfect = 0;
        hta_status st = HTA_OK;
        if (room_everywhere(inst, q, nfree) &&
            (st = hta_maxcover_fill_perfect(scratch, a, q, a, &perfect,
                                            d)) != HTA_OK)
            return st;
        if (!perfect && (st = hta_maxcover_fill(scratch, a, q, a, d)) !=
                            HTA_OK)
            return st;
        matched = hta_maxcover_loads(scratch);
    }
    int32_t s = 0, n = inst->n;
    if (used) {
        if (matched)
            memcpy(used, matched, (size_t)n * sizeof *used);
        else
            memset(used, 0, (size_t)n * sizeof *used);
    }
    int64_t room = n ? q[0] - (matched ? matched[0] : 0) : 0;
    for (int32_t t = 0; t < inst->m; t++) {
        if (a[t] >= 0)
            continue;
        while (room == 0 && s + 1 < n) {
            s++;
            room = q[s] - (matched ? matched[s] : 0);
        }
        if (room <= 0)
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "bal-assign: more tasks than slots");
        a[t] = s;
        room--;
    }
    return HTA_OK;
}
