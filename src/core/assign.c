/* Assignment files and the evaluator (Fischer-Su-Yin, Definitions 2, 6, 7):
 * the only place where makespans of complete assignments are computed. */
#include "hta/assign.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "hta/lex.h"

void hta_eval_free(hta_eval *ev)
{
    if (!ev)
        return;
    free(ev->nloc);
    free(ev->nrem);
    free(ev->load);
    memset(ev, 0, sizeof *ev);
}

hta_status hta_eval_run(const hta_instance *inst, const int32_t *a,
                        hta_eval *ev, hta_diag *d)
{
    int32_t n = inst->n;
    memset(ev, 0, sizeof *ev);
    ev->n = n;
    ev->nloc = calloc((size_t)n, sizeof *ev->nloc);
    ev->nrem = calloc((size_t)n, sizeof *ev->nrem);
    ev->load = malloc((size_t)n * sizeof *ev->load);
    if (!ev->nloc || !ev->nrem || !ev->load) {
        hta_eval_free(ev);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    for (int32_t t = 0; t < inst->m; t++) {
        int32_t s = a[t];
        if (s < 0 || s >= n) {
            hta_eval_free(ev);
            return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                "expected a server id in [0, %ld] for task "
                                "%ld, found %ld",
                                (long)n - 1, (long)t, (long)s);
        }
        if (hta_instance_is_local(inst, t, s))
            ev->nloc[s]++;
        else
            ev->nrem[s]++;
    }
    for (int32_t s = 0; s < n; s++)
        ev->remote += ev->nrem[s];
    ev->local = inst->m - ev->remote;
    assert(ev->local >= 0 && ev->remote <= inst->m);
    ev->w_rem_r = hta_wrem_at(&inst->wrem, ev->remote);
    ev->makespan = -1.0;
    for (int32_t s = 0; s < n; s++) {
        ev->load[s] = hta_load(inst, ev->nloc[s], ev->nrem[s], ev->w_rem_r);
        ev->total += ev->load[s];
        if (ev->load[s] > ev->makespan) {
            ev->makespan = ev->load[s];
            ev->argmax = s;
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
            st = hta_lex_expected(&lx, "each task once, task id", lx.tok[0],
                                  d);
            goto cleanup;
        }
        if (lx.ntok < 2) {
            st = hta_lex_expected(&lx, "a server id", NULL, d);
            goto cleanup;
        }
        if ((st = hta_lex_int(&lx, lx.tok[1], 0, inst->n - 1, "a server id",
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
        const char *tn = inst->task_name ? inst->task_name[t] : NULL;
        const char *sn = inst->server_name ? inst->server_name[a[t]] : NULL;
        if (tn || sn)
            fprintf(f, "  # %s -> %s%s", tn ? tn : "-", sn ? sn : "-",
                    hta_instance_is_local(inst, t, a[t]) ? "" : " (remote)");
        fputc('\n', f);
    }
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}
