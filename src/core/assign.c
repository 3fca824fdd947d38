/* Assignment files and the evaluator (Fischer-Su-Yin, Definitions 2, 6, 7):
 * the only place where makespans of complete assignments are computed. */
#include "hta/assign.h"
#include "hta/levels.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/lex.h"

static int fits(double load, double L, int strict)
{
    return strict ? load < L : load <= L;
}

int64_t hta_room_local(const hta_instance *inst, double L, int strict)
{
    int64_t m = inst->m;
    double u = floor(L / inst->w_loc);
    int64_t x = !(u > 0) ? 0 : u > (double)m ? m : (int64_t)u;
    while (x > 0 && !fits(hta_load(inst, x, 0, 1.0), L, strict))
        x--; /* the division's rounding, either way */
    while (x < m && fits(hta_load(inst, x + 1, 0, 1.0), L, strict))
        x++;
    return x;
}

int64_t hta_room_remote(const hta_instance *inst, int64_t x, double c,
                        double L, int strict)
{
    int64_t m = inst->m;
    if (!fits(hta_load(inst, x, 0, c), L, strict))
        return -1;
    double q = floor((L - inst->w_loc * (double)x) / c);
    int64_t j = !(q > 0) ? 0 : q > (double)m ? m : (int64_t)q;
    while (j > 0 && !fits(hta_load(inst, x, j, c), L, strict))
        j--;
    while (j < m && fits(hta_load(inst, x, j + 1, c), L, strict))
        j++;
    return j;
}

int hta_eval_server(const hta_instance *inst, const hta_eval *ev, int32_t s,
                    int64_t *cursor, int32_t *loc, int32_t *rem, double *load)
{
    if (s < 0 || s >= inst->n_declared)
        return -1;
    if (s < ev->n) {
        *loc = ev->nloc[s];
        *rem = ev->nrem[s];
        *load = ev->load[s];
        return 0;
    }
    *loc = 0;
    *rem = 0;
    *load = 0;
    int64_t k = *cursor;
    if (!(k >= 0 && k <= ev->ntail &&
          (k == ev->ntail || ev->tail_srv[k] >= s) &&
          (k == 0 || ev->tail_srv[k - 1] < s))) {
        int64_t lo = 0, hi = ev->ntail; /* the first tail entry >= s */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (ev->tail_srv[mid] < s)
                lo = mid + 1;
            else
                hi = mid;
        }
        k = lo;
    }
    *cursor = k;
    if (k < ev->ntail && ev->tail_srv[k] == s) {
        *rem = ev->tail_nrem[k];
        *load = hta_eval_tail_load(inst, ev, k);
        *cursor = k + 1;
    }
    return 0;
}

void hta_eval_free(hta_eval *ev)
{
    if (!ev)
        return;
    free(ev->nloc);
    free(ev->nrem);
    free(ev->nlev);
    free(ev->load);
    free(ev->tail_srv);
    free(ev->tail_nrem);
    memset(ev, 0, sizeof *ev);
}

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Tasks on servers beyond the working ones (instance.h: idle, every task
 * there remote): their distinct ids and counts, from the sorted ids. */
static int tail_counts(hta_eval *ev, int32_t *ids, int64_t k)
{
    qsort(ids, (size_t)k, sizeof *ids, cmp_i32);
    int64_t distinct = 0;
    for (int64_t i = 0; i < k; i++)
        distinct += i == 0 || ids[i] != ids[i - 1];
    ev->tail_srv = malloc(((size_t)distinct + 1) * sizeof *ev->tail_srv);
    ev->tail_nrem = malloc(((size_t)distinct + 1) * sizeof *ev->tail_nrem);
    if (!ev->tail_srv || !ev->tail_nrem)
        return 0;
    for (int64_t i = 0; i < k; i++) {
        if (i == 0 || ids[i] != ids[i - 1]) {
            ev->tail_srv[ev->ntail] = ids[i];
            ev->tail_nrem[ev->ntail++] = 0;
        }
        ev->tail_nrem[ev->ntail - 1]++;
    }
    return 1;
}

/* N > 2 levels: every server is a working one (levels.h). */
static hta_status eval_levels(const hta_instance *inst, const int32_t *a,
                              hta_eval *ev, hta_diag *d)
{
    int N = hta_levels(inst);
    int32_t n = inst->n;
    int64_t *cnt = calloc((size_t)n * (size_t)N + 1, sizeof *cnt);
    if (!cnt) {
        hta_eval_free(ev);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    for (int32_t t = 0; t < inst->m; t++) {
        int l = hta_level(inst, t, a[t]);
        ev->count[l - 1]++;
        cnt[(size_t)a[t] * (size_t)N + (size_t)(l - 1)]++;
        if (l == 1)
            ev->nloc[a[t]]++;
        else
            ev->nrem[a[t]]++;
    }
    for (int l = 1; l <= N; l++)
        ev->cost[l - 1] = hta_level_cost(inst, l, ev->count[l - 1]);
    ev->local = ev->count[0];
    ev->remote = inst->m - ev->local;
    ev->w_rem_r = ev->cost[N - 1];
    ev->makespan = -1.0;
    for (int32_t s = 0; s < n; s++) {
        ev->load[s] = hta_load_levels(N, cnt + (size_t)s * (size_t)N,
                                      ev->cost);
        ev->total += ev->load[s];
        if (ev->load[s] > ev->makespan) {
            ev->makespan = ev->load[s];
            ev->argmax = s;
        }
    }
    ev->nlev = cnt; /* the per-server counts, kept */
    return HTA_OK;
}

hta_status hta_eval_run(const hta_instance *inst, const int32_t *a,
                        hta_eval *ev, hta_diag *d)
{
    int32_t n = inst->n;
    memset(ev, 0, sizeof *ev);
    ev->n = n;
    ev->n_declared = inst->n_declared;
    ev->nloc = calloc((size_t)n, sizeof *ev->nloc);
    ev->nrem = calloc((size_t)n, sizeof *ev->nrem);
    ev->load = malloc((size_t)n * sizeof *ev->load);
    ev->levels = hta_levels(inst);
    int32_t *tail = NULL;
    int64_t ntail = 0;
    if (!ev->nloc || !ev->nrem || !ev->load) {
        hta_eval_free(ev);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    /* every server id in range, before anything is counted */
    for (int32_t t = 0; t < inst->m; t++)
        if (a[t] < 0 || a[t] >= inst->n_declared) {
            hta_eval_free(ev);
            return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                "expected a server id in [0, %ld] for task "
                                "%ld, found %ld",
                                (long)inst->n_declared - 1, (long)t,
                                (long)a[t]);
        }
    if (ev->levels > 2)
        return eval_levels(inst, a, ev, d);
    for (int32_t t = 0; t < inst->m; t++) {
        int32_t s = a[t];
        if (s >= n) {
            if (!tail && !(tail = malloc((size_t)inst->m * sizeof *tail))) {
                hta_eval_free(ev);
                return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                    "out of memory");
            }
            tail[ntail++] = s;
        } else if (hta_instance_is_local(inst, t, s)) {
            ev->nloc[s]++;
        } else {
            ev->nrem[s]++;
        }
    }
    if (ntail && !tail_counts(ev, tail, ntail)) {
        free(tail);
        hta_eval_free(ev);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    free(tail);
    ev->remote = ntail;
    for (int32_t s = 0; s < n; s++)
        ev->remote += ev->nrem[s];
    ev->local = inst->m - ev->remote;
    assert(ev->local >= 0 && ev->remote <= inst->m);
    ev->w_rem_r = hta_wrem_at(&inst->wrem, ev->remote);
    ev->count[0] = ev->local;
    ev->count[1] = ev->remote;
    ev->cost[0] = inst->w_loc;
    ev->cost[1] = ev->w_rem_r;
    ev->makespan = -1.0;
    for (int32_t s = 0; s < n; s++) {
        ev->load[s] = hta_load(inst, ev->nloc[s], ev->nrem[s], ev->w_rem_r);
        ev->total += ev->load[s];
        if (ev->load[s] > ev->makespan) {
            ev->makespan = ev->load[s];
            ev->argmax = s;
        }
    }
    /* the tail's ids are all larger: a tie keeps the smaller id */
    for (int64_t i = 0; i < ev->ntail; i++) {
        double load = hta_eval_tail_load(inst, ev, i);
        ev->total += load;
        if (load > ev->makespan) {
            ev->makespan = load;
            ev->argmax = ev->tail_srv[i];
        }
    }
    return HTA_OK;
}

hta_status hta_assign_parse(const char *path, const hta_instance *inst,
                            int32_t **out, hta_diag *d)
{
    hta_lex lx;
    int32_t *a = NULL;
    int64_t t, s, seen = 0;
    *out = NULL;
    hta_status st = hta_lex_open(&lx, path, d);
    if (st != HTA_OK)
        return st;
    if ((st = hta_lex_next(&lx, d)) != HTA_OK)
        goto cleanup;
    if (lx.ntok == 0) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected the magic 'hta-assignment', found end "
                          "of file");
        goto cleanup;
    }
    if (strcmp(lx.tok[0], "hta-assignment") != 0) {
        st = hta_lex_expected(&lx, "the magic 'hta-assignment'", lx.tok[0], d);
        goto cleanup;
    }
    if (lx.ntok != 2) {
        st = hta_lex_expected(&lx, "'hta-assignment 1'",
                              lx.ntok > 2 ? lx.tok[2] : NULL, d);
        goto cleanup;
    }
    if ((st = hta_lex_int(&lx, lx.tok[1], 1, 1, "format version", &t, d)) !=
        HTA_OK)
        goto cleanup;
    a = malloc((size_t)inst->m * sizeof *a);
    if (!a) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
        goto cleanup;
    }
    memset(a, 0xff, (size_t)inst->m * sizeof *a);
    for (;;) {
        if ((st = hta_lex_next(&lx, d)) != HTA_OK)
            goto cleanup;
        if (lx.ntok == 0)
            break;
        if ((st = hta_lex_int(&lx, lx.tok[0], 0, inst->m - 1, "a task id", &t,
                              d)) != HTA_OK)
            goto cleanup;
        if (a[t] >= 0) {
            char q[64];
            st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                              "expected one line per task, found a second "
                              "line for task '%s'",
                              hta_lex_quote(lx.tok[0], q));
            goto cleanup;
        }
        if (lx.ntok < 2) {
            st = hta_lex_expected(&lx, "a server id", NULL, d);
            goto cleanup;
        }
        if ((st = hta_lex_int(&lx, lx.tok[1], 0, inst->n_declared - 1,
                              "a server id",
                              &s, d)) != HTA_OK)
            goto cleanup;
        if (lx.ntok > 2) {
            st = hta_lex_expected(&lx, "end of line after '<task> <server>'",
                                  lx.tok[2], d);
            goto cleanup;
        }
        a[t] = (int32_t)s;
        seen++;
    }
    if (seen < inst->m) {
        t = 0;
        while (a[t] >= 0)
            t++;
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected a line for task %lld, found end of file",
                          (long long)t);
        goto cleanup;
    }
    *out = a;
    a = NULL;
cleanup:
    free(a);
    hta_lex_free(&lx);
    return st;
}

hta_status hta_assign_write(const hta_instance *inst, const int32_t *a,
                            FILE *f)
{
    fputs("hta-assignment 1\n", f);
    for (int32_t t = 0; t < inst->m; t++) {
        fprintf(f, "%ld %ld", (long)t, (long)a[t]);
        /* named instances: the assignment in the cluster's own terms */
        const char *tn = hta_instance_name(inst, 't', t);
        const char *sn = hta_instance_name(inst, 's', a[t]);
        if (tn || sn)
            fprintf(f, "  # %s -> %s%s", tn ? tn : "-", sn ? sn : "-",
                    hta_instance_is_local(inst, t, a[t]) ? "" : " (remote)");
        fputc('\n', f);
    }
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}
