/* Priority's length orders (sim_impl.h's lenset): per group of every
 * level >= 2, its servers sorted by queue length in buckets, kept in O(1)
 * per level as a length moves by one; the longest queues of a group are
 * one range. */
#include "core/buf.h"
#include "sim_impl.h"

/* Every queue empty: the order is the identity and each group one
 * bucket.  Both are stored so that zero bytes mean them (ord[i] and
 * pos[m] as their offsets from i and m, a group's buckets not yet
 * made), so calloc's untouched pages hold them: memory follows the
 * servers whose queues ever held a task, not the cluster's size. */
int sim_lens_init(sim *s)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        int64_t G = n == s->N ? 1 : hta_cluster_groups(s->c, n);
        ls->ord = calloc((size_t)s->M, sizeof *ls->ord);
        ls->pos = calloc((size_t)s->M, sizeof *ls->pos);
        ls->g = calloc((size_t)G, sizeof *ls->g);
        if (!ls->ord || !ls->pos || !ls->g)
            return -1;
    }
    return 0;
}

static inline int32_t ord_at(const lenset *ls, int32_t i)
{
    return (int32_t)(ls->ord[i] + i);
}

static inline int32_t pos_of(const lenset *ls, int32_t m)
{
    return (int32_t)(ls->pos[m] + m);
}

/* Swaps the servers at places i and j of the order. */
static void swap_places(lenset *ls, int32_t i, int32_t j)
{
    int32_t a = ord_at(ls, i), b = ord_at(ls, j);
    ls->ord[i] = b - i;
    ls->pos[b] = i - b;
    ls->ord[j] = a - j;
    ls->pos[a] = j - a;
}

/* Group g's buckets, made on its first task: [lo, hi) one bucket.  NULL
 * when out of memory. */
static lgroup *lgroup_made(sim *s, lenset *ls, int n, int64_t g)
{
    lgroup *gr = &ls->g[g];
    if (!gr->st) {
        int32_t lo, hi;
        group_span(s, n, g, &lo, &hi);
        if (!HTA_RESERVE(ls->made, ls->cap_made, (size_t)ls->nmade + 1) ||
            !HTA_RESERVE(gr->st, gr->cap, 2))
            return NULL;
        ls->made[ls->nmade++] = g;
        gr->st[0] = lo;
        gr->st[1] = hi;
    }
    return gr;
}

void sim_lens_free(sim *s)
{
    for (int n = 2; n <= s->N; n++) {
        lenset *ls = &s->ls[n];
        for (int64_t i = 0; i < ls->nmade; i++) /* not every group: */
            free(ls->g[ls->made[i]].st);   /* pages never touched */
        free(ls->made);
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
        lgroup *g = lgroup_made(s, ls, n, group_of(s, m, n, &lo, &hi));
        if (!g)
            return -1;
        if (l + 1 > g->maxl) { /* a new bucket on top, empty */
            if (!HTA_RESERVE(g->st, g->cap, (size_t)l + 3))
                return -1;
            g->st[l + 2] = hi;
            g->maxl = l + 1;
        }
        int32_t e = g->st[l + 1] - 1; /* the last of bucket l */
        swap_places(ls, pos_of(ls, m), e);
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
        swap_places(ls, pos_of(ls, m), b);
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
    int32_t r = ord_at(ls, first + (int32_t)hta_rng_below32(
                                       &s->route_rng, (uint32_t)(hi - first)));
#ifdef HTA_CHECKED
    for (int32_t v = lo; v < hi; v++)
        if (s->q[(int64_t)v * s->per].len > s->q[(int64_t)r * s->per].len)
            s->r->route_errors++;
#endif
    return r;
}
