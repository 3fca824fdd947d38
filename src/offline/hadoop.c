/* Hadoop's N-level greedy (hadoop.h). */
#include "offline/hadoop.h"

#include <stdlib.h>
#include <string.h>

#include "hta/levels.h"

/* A (group, task) pair of one level's lists. */
typedef struct member {
    int32_t g, t;
} member;

static int cmp_member(const void *x, const void *y)
{
    const member *a = x, *b = y;
    if (a->g != b->g)
        return a->g < b->g ? -1 : 1;
    return (a->t < b->t) - (a->t > b->t); /* highest task first */
}

/* Per group of level l, the tasks with a replica in it (highest id
 * first): list[off[g] .. off[g + 1]).  0 when out of memory. */
static int group_lists(const hta_instance *inst, int l, int64_t **off,
                       int32_t **list)
{
    member *p = malloc(((size_t)inst->edges + 1) * sizeof *p);
    int32_t G = inst->ngrp[l];
    *off = calloc((size_t)G + 1, sizeof **off);
    *list = malloc(((size_t)inst->edges + 1) * sizeof **list);
    if (!p || !*off || !*list) {
        free(p);
        return 0;
    }
    int64_t k = 0;
    for (int32_t t = 0; t < inst->m; t++)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            p[k++] = (member){inst->grp[l][inst->task_srv[i]], t};
    qsort(p, (size_t)k, sizeof *p, cmp_member);
    int64_t u = 0;
    for (int64_t i = 0; i < k; i++)
        if (u == 0 || p[i].g != p[u - 1].g || p[i].t != p[u - 1].t)
            p[u++] = p[i];
    for (int64_t i = 0; i < u; i++) {
        (*list)[i] = p[i].t;
        (*off)[p[i].g + 1]++;
    }
    for (int32_t g = 0; g < G; g++)
        (*off)[g + 1] += (*off)[g];
    free(p);
    return 1;
}

hta_status hta_hadoop_run(const hta_instance *inst, int32_t *a, hta_diag *d)
{
    int N = hta_levels(inst);
    int32_t m = inst->m, n = inst->n;
    int64_t visits = inst->n_declared < m ? inst->n_declared : m;
    int64_t *off[HTA_MAX_LEVELS] = {0}, *cur[HTA_MAX_LEVELS] = {0};
    int32_t *list[HTA_MAX_LEVELS] = {0};
    int64_t *own = malloc(((size_t)n + 1) * sizeof *own);
    hta_status st = HTA_OK;
    int ok = own != NULL;
    for (int l = 2; l < N && ok; l++)
        ok = group_lists(inst, l, &off[l], &list[l]) &&
             (cur[l] = malloc(((size_t)inst->ngrp[l] + 1) * sizeof *cur[l]));
    if (!ok) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    for (int32_t s = 0; s < n; s++)
        own[s] = inst->srv_off[s + 1] - 1; /* highest task id first */
    for (int l = 2; l < N; l++)
        memcpy(cur[l], off[l], (size_t)inst->ngrp[l] * sizeof *cur[l]);
    for (int32_t t = 0; t < m; t++)
        a[t] = -1;
    int32_t left = m, any = 0;
    for (int64_t step = 0; left > 0; step++) {
        int32_t s = (int32_t)(step % visits), t = -1;
        if (s < n) {
            while (own[s] >= inst->srv_off[s] &&
                   a[inst->srv_task[own[s]]] >= 0)
                own[s]--;
            if (own[s] >= inst->srv_off[s])
                t = inst->srv_task[own[s]--];
        }
        for (int l = 2; l < N && t < 0; l++) {
            int32_t g = inst->grp[l][s];
            int64_t *c = &cur[l][g];
            while (*c < off[l][g + 1] && a[list[l][*c]] >= 0)
                (*c)++;
            if (*c < off[l][g + 1])
                t = list[l][(*c)++];
        }
        if (t < 0) {
            while (a[any] >= 0)
                any++;
            t = any;
        }
        a[t] = s;
        left--;
    }
cleanup:
    for (int l = 0; l < HTA_MAX_LEVELS; l++) {
        free(off[l]);
        free(cur[l]);
        free(list[l]);
    }
    free(own);
    return st;
}
