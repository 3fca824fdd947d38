/* The servers and groups a cluster's types touch (touch.h). */
#include "touch.h"

#include <stdlib.h>
#include <string.h>

void cap_touch_free(cap_touch *t)
{
    free(t->srv);
    free(t->at);
    for (int n = 0; n <= HTA_MAX_LEVELS; n++) {
        free(t->grp[n]);
        free(t->pool[n]);
    }
    memset(t, 0, sizeof *t);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Index of v in the increasing a[0..n), or -1. */
static int64_t find_i32(const int32_t *a, int64_t n, int32_t v)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo] == v ? lo : -1;
}

int64_t cap_touch_group(const cap_touch *t, int n, int64_t g)
{
    const int64_t *a = t->grp[n];
    int64_t lo = 0, hi = t->ngrp[n];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->ngrp[n] && a[lo] == g ? lo : -1;
}

int cap_touch_build(const hta_cluster *c, cap_touch *t)
{
    memset(t, 0, sizeof *t);
    int64_t E = c->off[c->T];
    int N = c->levels;
    t->srv = malloc(((size_t)E + 1) * sizeof *t->srv);
    t->at = malloc(((size_t)E + 1) * sizeof *t->at);
    if (!t->srv || !t->at)
        goto fail;
    memcpy(t->srv, c->srv, (size_t)E * sizeof *t->srv);
    qsort(t->srv, (size_t)E, sizeof *t->srv, cmp_i32);
    for (int64_t i = 0; i < E; i++)
        if (t->nsrv == 0 || t->srv[i] != t->srv[t->nsrv - 1])
            t->srv[t->nsrv++] = t->srv[i];
    for (int64_t i = 0; i < E; i++)
        t->at[i] = (int32_t)find_i32(t->srv, t->nsrv, c->srv[i]);
    /* touched groups, level by level: the touched servers' groups, sorted
       (in server order already with a regular topology) */
    for (int n = 2; n <= N; n++) {
        t->grp[n] = malloc(((size_t)t->nsrv + 1) * sizeof *t->grp[n]);
        t->pool[n] = malloc(((size_t)t->nsrv + 1) * sizeof *t->pool[n]);
        if (!t->grp[n] || !t->pool[n])
            goto fail;
        for (int64_t k = 0; k < t->nsrv; k++)
            t->grp[n][k] = hta_cluster_group(c, t->srv[k], n);
        if (c->grp[2])
            qsort(t->grp[n], (size_t)t->nsrv, sizeof *t->grp[n], cmp_i64);
        for (int64_t k = 0; k < t->nsrv; k++)
            if (t->ngrp[n] == 0 || t->grp[n][k] != t->grp[n][t->ngrp[n] - 1])
                t->grp[n][t->ngrp[n]++] = t->grp[n][k];
        if (n == N && t->ngrp[n] == 0) /* the cluster, always */
            t->grp[n][t->ngrp[n]++] = 0;
    }
    /* pools: a group's size less what its touched children hold */
    for (int n = 2; n <= N; n++) {
        for (int64_t k = 0; k < t->ngrp[n]; k++)
            t->pool[n][k] = hta_cluster_group_size(c, n, t->grp[n][k]);
        if (n == 2) {
            for (int64_t k = 0; k < t->nsrv; k++)
                t->pool[2][cap_touch_group(t, 2, hta_cluster_group(
                                                      c, t->srv[k], 2))]--;
            continue;
        }
        for (int64_t k = 0; k < t->ngrp[n - 1]; k++) {
            int64_t g = t->grp[n - 1][k];
            int32_t first = hta_cluster_group_server(c, n - 1, g, 0);
            t->pool[n][cap_touch_group(t, n, hta_cluster_group(c, first,
                                                               n))] -=
                hta_cluster_group_size(c, n - 1, g);
        }
    }
    return 1;
fail:
    cap_touch_free(t);
    return 0;
}
