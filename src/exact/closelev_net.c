/* The network of gap closing on N levels (closelev_impl.h): groups of
 * tasks, their servers and pools, the arcs both ways. */
#include "closelev.h"
#include "closelev_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/levels.h"
#include "toplevel.h"

int hta_closelev_applies(const hta_instance *in)
{
    return hta_toplevel_applies(in);
}

void closelev_net_free(net *w)
{
    free(w->order);
    free(w->first);
    free(w->goff);
    free(w->gtgt);
    free(w->agrp);
    free(w->flow);
    free(w->toff);
    free(w->tarc);
    free(w->cap);
    free(w->used);
    free(w->ex);
    free(w->slot);
    free(w->moff);
    free(w->mem);
    free(w->seen);
    free(w->via);
    free(w->queue);
    free(w->gidle);
}

/* The distinct targets of group g's arcs, in order (local, then the
 * pools by level), into out; returns how many. */
static int32_t group_targets(const net *w, int32_t g, int32_t *out)
{
    const hta_instance *in = w->in;
    int32_t t = w->order[w->first[g]], k = 0;
    for (int l = 1; l <= w->N; l++)
        for (int64_t i = in->task_off[t]; i < in->task_off[t + 1]; i++) {
            int32_t s = in->task_srv[i];
            int32_t x = l == 1 ? s : closelev_pool_of(w, l, s);
            int dup = 0;
            for (int32_t q = 0; q < k && !dup; q++)
                dup = out[q] == x;
            if (!dup)
                out[k++] = x;
        }
    return k;
}

int closelev_net_build(net *w, const hta_instance *in, double T,
                       double ctop, int64_t topcap)
{
    memset(w, 0, sizeof *w);
    w->in = in;
    w->N = hta_levels(in);
    w->n = in->n;
    w->T = T;
    for (int l = 1; l <= w->N; l++)
        w->c[l] = hta_level_cost(in, l, 0);
    if (!isnan(ctop))
        w->c[w->N] = ctop;
    w->topcap = topcap < in->m ? topcap : in->m;
    int32_t m = in->m, n = in->n;
    w->order = malloc(((size_t)m + 1) * sizeof *w->order);
    w->first = malloc(((size_t)m + 2) * sizeof *w->first);
    if (!w->order || !w->first ||
        hta_instance_groups(in, w->order, w->first, &w->ng, NULL) != HTA_OK)
        return 0;
    int32_t nt = n;
    for (int l = 2; l <= w->N; l++) {
        w->base[l] = nt;
        nt += l == w->N ? 1 : in->ngrp[l];
    }
    w->nt = nt;
    int64_t maxr = 0;
    for (int32_t t = 0; t < m; t++)
        if (in->task_off[t + 1] - in->task_off[t] > maxr)
            maxr = in->task_off[t + 1] - in->task_off[t];
    int32_t *tg = malloc(((size_t)maxr * (size_t)w->N + 1) * sizeof *tg);
    w->goff = calloc((size_t)w->ng + 1, sizeof *w->goff);
    if (!tg || !w->goff) {
        free(tg);
        return 0;
    }
    for (int32_t g = 0; g < w->ng; g++)
        w->goff[g + 1] = w->goff[g] + group_targets(w, g, tg);
    int64_t na = w->goff[w->ng];
    w->gtgt = malloc(((size_t)na + 1) * sizeof *w->gtgt);
    w->agrp = malloc(((size_t)na + 1) * sizeof *w->agrp);
    w->flow = calloc((size_t)na + 1, sizeof *w->flow);
    w->toff = calloc((size_t)nt + 2, sizeof *w->toff);
    w->tarc = malloc(((size_t)na + 1) * sizeof *w->tarc);
    w->cap = calloc((size_t)nt + 1, sizeof *w->cap);
    w->used = calloc((size_t)nt + 1, sizeof *w->used);
    w->ex = malloc(((size_t)w->ng + 1) * sizeof *w->ex);
    w->slot = calloc((size_t)n * (size_t)w->N + 1, sizeof *w->slot);
    w->moff = calloc((size_t)nt + 2, sizeof *w->moff);
    w->mem = malloc(((size_t)n * (size_t)w->N + 1) * sizeof *w->mem);
    w->seen = calloc((size_t)w->ng + (size_t)nt + 1, sizeof *w->seen);
    w->via = malloc(((size_t)w->ng + (size_t)nt + 1) * sizeof *w->via);
    w->queue = malloc(((size_t)w->ng + (size_t)nt + 1) * sizeof *w->queue);
    w->gidle = malloc(((size_t)in->ngrp[2] + 1) * sizeof *w->gidle);
    if (!w->gtgt || !w->agrp || !w->flow || !w->toff || !w->tarc ||
        !w->cap || !w->used || !w->ex || !w->slot || !w->moff || !w->mem ||
        !w->seen || !w->via || !w->queue || !w->gidle) {
        free(tg);
        return 0;
    }
    for (int32_t g = 0; g < w->ng; g++) {
        group_targets(w, g, tg);
        for (int64_t e = w->goff[g]; e < w->goff[g + 1]; e++) {
            w->gtgt[e] = tg[e - w->goff[g]];
            w->agrp[e] = g;
            w->toff[w->gtgt[e] + 1]++;
        }
        w->ex[g] = w->first[g + 1] - w->first[g];
    }
    free(tg);
    for (int32_t x = 0; x < nt; x++)
        w->toff[x + 1] += w->toff[x];
    int64_t *fill = w->via; /* scratch until the search */
    for (int32_t x = 0; x < nt; x++)
        fill[x] = w->toff[x];
    for (int64_t e = 0; e < na; e++)
        w->tarc[fill[w->gtgt[e]]++] = e;
    for (int l = 2; l <= w->N; l++)
        for (int32_t s = 0; s < n; s++)
            w->moff[closelev_pool_of(w, l, s) + 1]++;
    for (int32_t x = 0; x < nt; x++)
        w->moff[x + 1] += w->moff[x];
    for (int32_t x = 0; x < nt; x++)
        fill[x] = w->moff[x];
    for (int l = 2; l <= w->N; l++)
        for (int32_t s = 0; s < n; s++)
            w->mem[fill[closelev_pool_of(w, l, s)]++] = s;
    return 1;
}
