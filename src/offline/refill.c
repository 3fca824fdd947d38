/* The rack-aware refill (refill.h). */
#include "offline/refill.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/levels.h"
#include "core/buf.h"

/* Tasks and servers up to which the refill also places every task from
 * nothing and moves up to 64 tasks (each move costs an evaluation). */
#define SMALL 100000

/* Servers laid out group by group (every group of every level is a range
 * of positions) under a minimum tree of their loads. */
typedef struct layout {
    int32_t n, P;        /* servers, leaves (a power of two) */
    int32_t *pos;        /* [n] position of server s */
    int32_t *at;         /* [n] server at position i */
    int32_t *lo[HTA_MAX_LEVELS], *hi[HTA_MAX_LEVELS]; /* group ranges */
    double *load;        /* [n] by server */
    int32_t *tree;       /* [2P] the position of least load (ties: left) */
} layout;

static void layout_free(layout *y)
{
    free(y->pos);
    free(y->at);
    for (int l = 0; l < HTA_MAX_LEVELS; l++) {
        free(y->lo[l]);
        free(y->hi[l]);
    }
    free(y->load);
    free(y->tree);
}

static double load_at(const layout *y, int32_t i)
{
    return i < y->n ? y->load[y->at[i]] : INFINITY;
}

static int32_t better(const layout *y, int32_t i, int32_t j)
{
    double a = load_at(y, i), b = load_at(y, j);
    return b < a || (b == a && j < i) ? j : i;
}

static void tree_set(layout *y, int32_t s)
{
    int32_t v = (y->pos[s] + y->P) / 2;
    for (; v >= 1; v /= 2)
        y->tree[v] = better(y, y->tree[2 * v], y->tree[2 * v + 1]);
}

/* The position of least load in [lo, hi). */
static int32_t tree_min(const layout *y, int32_t lo, int32_t hi)
{
    int32_t best = lo;
    for (lo += y->P, hi += y->P; lo < hi; lo /= 2, hi /= 2) {
        if (lo & 1)
            best = better(y, best, y->tree[lo++]);
        if (hi & 1)
            best = better(y, best, y->tree[--hi]);
    }
    return best;
}

static int layout_new(const hta_instance *inst, layout *y)
{
    memset(y, 0, sizeof *y);
    int32_t n = inst->n;
    int N = hta_levels(inst);
    y->n = n;
    y->P = 1;
    while (y->P < n)
        y->P *= 2;
    y->pos = malloc((size_t)n * sizeof *y->pos);
    y->at = malloc((size_t)n * sizeof *y->at);
    y->load = calloc((size_t)n, sizeof *y->load);
    y->tree = malloc(2 * (size_t)y->P * sizeof *y->tree);
    if (!y->pos || !y->at || !y->load || !y->tree)
        return 0;
    /* by rack, then by id: the racks are numbered in the order of their
       paths (levels.c), and the paths that share a pod's prefix are
       consecutive in that order, so every group of every level is a
       range */
    if (N > 2) {
        int32_t G = inst->ngrp[2];
        int32_t *first = calloc((size_t)G + 1, sizeof *first);
        if (!first)
            return 0;
        for (int32_t s = 0; s < n; s++)
            first[inst->grp[2][s] + 1]++;
        for (int32_t g = 0; g < G; g++)
            first[g + 1] += first[g];
        for (int32_t s = 0; s < n; s++)
            y->at[first[inst->grp[2][s]]++] = s;
        free(first);
    } else {
        for (int32_t s = 0; s < n; s++)
            y->at[s] = s;
    }
    for (int32_t i = 0; i < n; i++)
        y->pos[y->at[i]] = i;
    for (int l = 2; l < N; l++) {
        size_t G = (size_t)inst->ngrp[l];
        y->lo[l] = malloc((G + 1) * sizeof *y->lo[l]);
        y->hi[l] = malloc((G + 1) * sizeof *y->hi[l]);
        if (!y->lo[l] || !y->hi[l])
            return 0;
        for (int32_t i = n - 1; i >= 0; i--)
            y->lo[l][inst->grp[l][y->at[i]]] = i;
        for (int32_t i = 0; i < n; i++)
            y->hi[l][inst->grp[l][y->at[i]]] = i + 1;
#ifdef HTA_CHECKED
        /* a range holds its group's servers only */
        for (int32_t g = 0; g < inst->ngrp[l]; g++)
            for (int32_t i = y->lo[l][g]; i < y->hi[l][g]; i++)
                assert(inst->grp[l][y->at[i]] == g);
#endif
    }
    return 1;
}

static void layout_reset(layout *y)
{
    for (int32_t i = 0; i < y->P; i++)
        y->tree[y->P + i] = i;
    for (int32_t v = y->P - 1; v >= 1; v--)
        y->tree[v] = better(y, y->tree[2 * v], y->tree[2 * v + 1]);
}

/* One pass at the costs c[l - 1]: from the loads load0 of the tasks it
 * keeps, the greedy placement of the tasks of list[0..k), each where it
 * would finish first: task list[q] on server out[q]. */
static void pass(const hta_instance *inst, const double *c,
                 const int32_t *list, int64_t k, const double *load0,
                 layout *y, int32_t *out)
{
    int N = hta_levels(inst);
    memcpy(y->load, load0, (size_t)inst->n * sizeof *y->load);
    layout_reset(y);
    for (int64_t q = 0; q < k; q++) {
        int32_t t = list[q];
        /* anywhere first, then closer levels win ties */
        int32_t best = y->at[y->tree[1]];
        double fin = y->load[best] + c[N - 1];
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            int32_t r = inst->task_srv[i];
            for (int l = N - 1; l >= 2; l--) {
                int32_t g = inst->grp[l][r];
                int32_t s = y->at[tree_min(y, y->lo[l][g], y->hi[l][g])];
                double f = y->load[s] + c[l - 1];
                if (f < fin || (f == fin && s < best))
                    best = s, fin = f;
            }
            double f = y->load[r] + c[0];
            if (f < fin || (f == fin && r < best))
                best = r, fin = f;
        }
        out[q] = best;
        y->load[best] += c[hta_level(inst, t, best) - 1];
        tree_set(y, best);
    }
}

/* Per server and level the tasks of an assignment, and per level, as the
 * evaluator counts them (assign.c), kept as tasks come and go: a
 * makespan then costs O(n N) instead of O(|E|), and equals hta_eval_run's
 * to the bit (the same integer counts into the same formula,
 * hta_load_levels). */
typedef struct tally {
    int N;
    int32_t n;
    int64_t *cnt;                   /* [n N]: server s, level l at s N + l-1 */
    int64_t count[HTA_MAX_LEVELS];  /* per level */
    double cost[HTA_MAX_LEVELS];    /* in force, after settle */
    double *load;                   /* [n], after settle */
    double span;
    int32_t argmax;                 /* the least server at the span */
} tally;

static int tally_new(const hta_instance *inst, tally *T)
{
    memset(T, 0, sizeof *T);
    T->N = hta_levels(inst);
    T->n = inst->n;
    T->cnt = calloc((size_t)T->n * (size_t)T->N + 1, sizeof *T->cnt);
    T->load = malloc(((size_t)T->n + 1) * sizeof *T->load);
    return T->cnt && T->load;
}

static void tally_free(tally *T)
{
    free(T->cnt);
    free(T->load);
}

static void tally_copy(tally *dst, const tally *src)
{
    memcpy(dst->cnt, src->cnt,
           (size_t)src->n * (size_t)src->N * sizeof *dst->cnt);
    memcpy(dst->count, src->count, sizeof dst->count);
}

static void tally_clear(tally *T)
{
    memset(T->cnt, 0, (size_t)T->n * (size_t)T->N * sizeof *T->cnt);
    memset(T->count, 0, sizeof T->count);
}

/* Task t on server s comes (sign 1) or goes (-1). */
static void tally_add(const hta_instance *inst, tally *T, int32_t t,
                      int32_t s, int sign)
{
    int l = hta_level(inst, t, s);
    T->cnt[(size_t)s * (size_t)T->N + (size_t)(l - 1)] += sign;
    T->count[l - 1] += sign;
}

/* The costs, loads, makespan and argmax of the counts. */
static void tally_settle(const hta_instance *inst, tally *T)
{
    for (int l = 1; l <= T->N; l++)
        T->cost[l - 1] = hta_level_cost(inst, l, T->count[l - 1]);
    T->span = -1.0;
    T->argmax = 0;
    for (int32_t s = 0; s < T->n; s++) {
        T->load[s] = hta_load_levels(T->N, T->cnt + (size_t)s * (size_t)T->N,
                                     T->cost);
        if (T->load[s] > T->span) {
            T->span = T->load[s];
            T->argmax = s;
        }
    }
}

/* The best move of one task off the busiest server at the current
 * costs: *t and *to, or -1 when no move lowers the makespan at them. */
static void best_move(const hta_instance *inst, const int32_t *a,
                      const tally *T, layout *y, int32_t *t_out, int32_t *to)
{
    int N = T->N;
    int32_t top = T->argmax;
    double L = T->span, second = 0, best = L;
    for (int32_t s = 0; s < inst->n; s++) {
        y->load[s] = T->load[s];
        if (s != top)
            second = fmax(second, T->load[s]);
    }
    layout_reset(y);
    *t_out = *to = -1;
    for (int32_t t = 0; t < inst->m; t++) {
        if (a[t] != top)
            continue;
        double left = L - T->cost[hta_level(inst, t, top) - 1];
        /* the candidates: its replicas, the least loaded server of each
           of their groups, and of the cluster */
        int32_t cands[64];
        int nc = 0;
        cands[nc++] = y->at[y->tree[1]];
        for (int64_t i = inst->task_off[t];
             i < inst->task_off[t + 1] && nc + N < 64; i++) {
            int32_t r = inst->task_srv[i];
            cands[nc++] = r;
            for (int l = 2; l < N; l++) {
                int32_t g = inst->grp[l][r];
                cands[nc++] = y->at[tree_min(y, y->lo[l][g], y->hi[l][g])];
            }
        }
        for (int k = 0; k < nc; k++) {
            int32_t s = cands[k];
            if (s == top)
                continue;
            double grown = T->load[s] + T->cost[hta_level(inst, t, s) - 1];
            double est = fmax(second, fmax(left, grown));
            if (est < best) {
                best = est;
                *t_out = t;
                *to = s;
            }
        }
    }
}

/* Moves tasks off the busiest server while a move lowers the makespan
 * (estimated at the current costs, kept only when the recount agrees):
 * at most 64 moves, 2 above 10^5 tasks and servers (each move scans the
 * tasks). T holds a's counts. */
static void improve(const hta_instance *inst, int32_t *a, tally *T,
                    layout *y, int *moves)
{
    int budget = (int64_t)inst->m + inst->n <= SMALL ? 64 : 2;
    tally_settle(inst, T);
    for (int it = 0; it < budget; it++) {
        int32_t t, to;
        best_move(inst, a, T, y, &t, &to);
        if (t < 0)
            break;
        int32_t from = a[t];
        double before = T->span;
        tally_add(inst, T, t, from, -1);
        tally_add(inst, T, t, to, 1);
        tally_settle(inst, T);
        if (!(T->span < before)) {
            tally_add(inst, T, t, to, -1);
            tally_add(inst, T, t, from, 1);
            tally_settle(inst, T);
            break;
        }
        a[t] = to;
        ++*moves;
    }
}

/* The tasks of list[0..k) (list NULL: tasks 0..k-1) by their number of
 * replicas (fewest first: they have the fewest close servers), in list
 * order among equals: a counting sort into out. */
static int by_replicas(const hta_instance *inst, const int32_t *list,
                       int64_t k, int32_t *out)
{
#define TASK(q) (list ? list[q] : (int32_t)(q))
#define DEGREE(t) (inst->task_off[(t) + 1] - inst->task_off[t])
    int64_t top = 0;
    for (int64_t q = 0; q < k; q++)
        if (DEGREE(TASK(q)) > top)
            top = DEGREE(TASK(q));
    int64_t *first = calloc((size_t)top + 2, sizeof *first);
    if (!first)
        return 0;
    for (int64_t q = 0; q < k; q++)
        first[DEGREE(TASK(q)) + 1]++;
    for (int64_t r = 0; r <= top; r++)
        first[r + 1] += first[r];
    for (int64_t q = 0; q < k; q++)
        out[first[DEGREE(TASK(q))]++] = TASK(q);
    free(first);
    return 1;
#undef TASK
#undef DEGREE
}

hta_status hta_refill_run(const hta_instance *inst, const int32_t *start,
                          int32_t *a, hta_refill_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    int N = hta_levels(inst);
    int32_t m = inst->m;
    int small = (int64_t)m + inst->n <= SMALL;
    layout y;
    tally T, T0, Tc; /* a's counts, the kept tasks', a pass's */
    int counted = tally_new(inst, &T) & tally_new(inst, &T0) &
                  tally_new(inst, &Tc);
    /* sized by the tasks a pass places: the start's non-local ones, or on
       small instances every task */
    int32_t *found = NULL, *rest = NULL, *out = NULL;
    size_t cap_found = 0;
    double *base_load = calloc((size_t)inst->n + 1, sizeof *base_load);
    hta_status st = HTA_OK;
    int laid = counted && base_load && layout_new(inst, &y);
    if (!laid) {
        if (counted && base_load)
            layout_free(&y);
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    /* the start's counts, and those of its local tasks, which the first
       passes keep; found: the others, which they place again */
    int64_t nrest = 0;
    for (int32_t t = 0; t < m; t++) {
        int32_t s0 = start[t];
        int l = hta_level(inst, t, s0);
        size_t at = (size_t)s0 * (size_t)N + (size_t)(l - 1);
        T.cnt[at]++;
        T.count[l - 1]++;
        if (l == 1) {
            base_load[s0] += inst->w_loc;
            T0.cnt[at]++;
            T0.count[0]++;
        } else {
            if (!HTA_RESERVE(found, cap_found, (size_t)nrest + 1))
                goto oom;
            found[nrest++] = t;
        }
    }
    size_t most = small ? (size_t)m : (size_t)nrest;
    rest = malloc(((size_t)nrest + 1) * sizeof *rest);
    out = malloc((most + 1) * sizeof *out);
    if (!rest || !out || !by_replicas(inst, found, nrest, rest))
        goto oom;
    tally_settle(inst, &T);
    res->start_span = res->makespan = T.span;
    memcpy(a, start, (size_t)m * sizeof *a);
    double c[HTA_MAX_LEVELS];
    c[0] = inst->w_loc;
    for (int l = 2; l <= N; l++)
        c[l - 1] = hta_level_cost(inst, l, 0);
    /* two passes from the start's local tasks, then on instances of at
       most 10^5 tasks and servers two from nothing (every task) */
    int32_t *order = NULL;
    for (int k = 0; k < 4; k++) {
        if (k < 2 && nrest == 0)
            continue; /* the start itself */
        if (k >= 2 && !small)
            break;
        if (k == 2) {
            for (int l = 2; l <= N; l++)
                c[l - 1] = hta_level_cost(inst, l, 0);
            memset(base_load, 0, (size_t)inst->n * sizeof *base_load);
            tally_clear(&T0);
            order = malloc(((size_t)m + 1) * sizeof *order);
            if (!order || !by_replicas(inst, NULL, m, order)) {
                free(order);
                goto oom;
            }
        }
        const int32_t *list = k < 2 ? rest : order;
        int64_t len = k < 2 ? nrest : m;
        pass(inst, c, list, len, base_load, &y, out);
        tally_copy(&Tc, &T0);
        for (int64_t q = 0; q < len; q++)
            tally_add(inst, &Tc, list[q], out[q], 1);
        tally_settle(inst, &Tc);
        res->pass_span[k] = Tc.span;
        if (Tc.span < res->makespan) {
            res->makespan = Tc.span;
            res->chosen = k + 1;
            if (k >= 2)
                memcpy(a, start, (size_t)m * sizeof *a);
            for (int64_t q = 0; q < len; q++)
                a[list[q]] = out[q];
            tally_copy(&T, &Tc);
        }
        for (int l = 2; l <= N; l++)
            c[l - 1] = Tc.cost[l - 1];
    }
    free(order);
    improve(inst, a, &T, &y, &res->moves);
    res->makespan = T.span;
    layout_free(&y);
    goto done;
oom:
    layout_free(&y);
    st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
done:
    tally_free(&T);
    tally_free(&T0);
    tally_free(&Tc);
    free(found);
    free(rest);
    free(out);
    free(base_load);
    return st;
}

hta_status hta_refill_views(const hta_instance *inst, const hta_fsy_opts *fo,
                            int32_t *a, double *span, int *view, hta_diag *d)
{
    *view = 0;
    int N = hta_levels(inst);
    if (N <= 2 || (int64_t)inst->m + inst->n > SMALL)
        return HTA_OK;
    int32_t *f = malloc(((size_t)inst->m + 1) * sizeof *f),
            *b = malloc(((size_t)inst->m + 1) * sizeof *b);
    hta_status st = f && b ? HTA_OK :
                             hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                          "out of memory");
    for (int l = 2; l < N && st == HTA_OK; l++) {
        hta_instance v = hta_instance_flat(inst);
        v.wrem = inst->wlev[l]; /* borrowed, as the view's arrays */
        hta_fsy_result fr;
        hta_refill_result rr;
        if ((st = hta_fsy_run(&v, fo, f, &fr, d)) != HTA_OK)
            break;
        hta_fsy_result_free(&fr);
        if ((st = hta_refill_run(inst, f, b, &rr, d)) == HTA_OK &&
            rr.makespan < *span) {
            *span = rr.makespan;
            *view = l;
            memcpy(a, b, (size_t)inst->m * sizeof *a);
        }
    }
    free(f);
    free(b);
    return st;
}
