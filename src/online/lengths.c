/* Priority's length orders (sim_impl.h's lenset): per group of every
 * level >= 2, its servers sorted by queue length in buckets, kept in O(1)
 * per level as a length moves by one; the longest queues of a group are
 * one range. */
#include "core/buf.h"
#include "sim_impl.h"

/* Every queue empty: one bucket per group. */
int sim_lens_init(sim *s)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        int64_t G = n == s->N ? 1 : hta_cluster_groups(s->c, n);
        ls->ord = malloc((size_t)s->M * sizeof *ls->ord);
        ls->pos = malloc((size_t)s->M * sizeof *ls->pos);
        ls->g = calloc((size_t)G, sizeof *ls->g);
        if (!ls->ord || !ls->pos || !ls->g)
            return -1;
        ls->ng = G;
        for (int32_t m = 0; m < s->M; m++)
            ls->ord[m] = ls->pos[m] = m;
        for (int64_t g = 0; g < G; g++) {
            int32_t lo, hi;
            group_span(s, n, g, &lo, &hi);
            if (!HTA_RESERVE(ls->g[g].st, ls->g[g].cap, 2))
                return -1;
            ls->g[g].st[0] = lo;
            ls->g[g].st[1] = hi;
        }
    }
    return 0;
}

void sim_lens_free(sim *s)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        for (int64_t g = 0; g < ls->ng; g++)
            free(ls->g[g].st);
        free(ls->g);
        free(ls->ord);
        free(ls->pos);
    }
}

/* Server m's queue grew from l to l + 1; -1 when out of memory. */
int sim_lens_inc(sim *s, int32_t m, int64_t l)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        int32_t lo, hi;
        lgroup *g = &ls->g[group_of(s, m, n, &lo, &hi)];
        if (l + 1 > g->maxl) { /* a new bucket on top, empty */
            if (!HTA_RESERVE(g->st, g->cap, (size_t)l + 3))
                return -1;
            g->st[l + 2] = hi;
            g->maxl = l + 1;
        }
        int32_t e = g->st[l + 1] - 1; /* the last of bucket l */
        swap_at(ls->ord, ls->pos, ls->pos[m], e);
        g->st[l + 1] = e;
    }
    return 0;
}

/* Server m's queue shrank from l >= 1 to l - 1. */
void sim_lens_dec(sim *s, int32_t m, int64_t l)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        int32_t lo, hi;
        lgroup *g = &ls->g[group_of(s, m, n, &lo, &hi)];
        int32_t b = g->st[l]; /* the first of bucket l */
        swap_at(ls->ord, ls->pos, ls->pos[m], b);
        g->st[l] = b + 1;
        if (l == g->maxl && g->st[l] == hi)
            g->maxl--;
    }
}

/* A longest queue of server m's group at level n, uniform among the
 * longest; -1 when every queue of the group is empty. */
int32_t sim_lens_longest(sim *s, int32_t m, int n)
{
    lenset *ls = &s->ls[n];
    int32_t lo, hi;
    const lgroup *g = &ls->g[group_of(s, m, n, &lo, &hi)];
    if (g->maxl == 0)
        return -1;
    int32_t first = g->st[g->maxl];
    int32_t r = (int32_t)ls->ord[first + (int32_t)hta_rng_below32(
                                               &s->route_rng,
                                               (uint32_t)(hi - first))];
#ifdef HTA_CHECKED
    for (int32_t v = lo; v < hi; v++)
        if (s->q[v].len > s->q[r].len)
            s->r->route_errors++;
#endif
    return r;
}
