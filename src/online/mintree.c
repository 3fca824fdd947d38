/* GB-PANDAS' arg-min tree over the servers' workloads (sim_impl.h's
 * tree): updates in O(log M), a group's best server as one node (padded
 * layout) or a range query (plain layout). */
#include <math.h>
#include "sim_impl.h"

/* Server m's key went down (or m enters the tree, its leaf having been
 * padding): m now wins where it won and where it beats the winner, which
 * needs no sibling; the climb ends at the first ancestor whose winner
 * beats it. */
void sim_tree_lower(tree *t, int32_t m, double key, uint32_t tie)
{
    int32_t i = t->leaf[m] + t->P;
    tnode *nd = t->node;
    tnode w = {key, tie, m};
    nd[i] = w;
    for (i /= 2; i >= 1 && (nd[i].arg == m || node_better(&w, &nd[i]));
         i /= 2)
        nd[i] = w;
}

/* Server m's key went up: only the ancestors m won change, each
 * to the better of m and the sibling; the climb ends where m did not
 * win. */
void sim_tree_raise(tree *t, int32_t m, double key, uint32_t tie)
{
    int32_t i = t->leaf[m] + t->P;
    tnode *nd = t->node;
    tnode w = {key, tie, m};
    nd[i] = w;
    for (; i > 1 && nd[i / 2].arg == m; i /= 2) {
        const tnode *sib = &nd[i ^ 1];
        if (node_better(sib, &w))
            w = *sib;
        nd[i / 2] = w;
    }
}

/* The best leaf in [lo, hi) (leaf order = server order here). */
static cand tree_range(const tree *t, int32_t lo, int32_t hi)
{
    cand b = {-1, 0, 0};
    const tnode *bn = NULL;
    for (int32_t l = lo + t->P, h = hi + t->P; l < h; l /= 2, h /= 2) {
        const tnode *nodes[2] = {NULL, NULL};
        if (l & 1)
            nodes[0] = &t->node[l++];
        if (h & 1)
            nodes[1] = &t->node[--h];
        for (int k = 0; k < 2; k++)
            if (nodes[k] && (!bn || node_better(nodes[k], bn)))
                bn = nodes[k];
    }
    if (bn) {
        b.m = bn->arg;
        b.key = bn->key;
        b.tie = bn->tie;
    }
    return b;
}

/* The best server of server r's group at level n (n = 1: r itself, N:
 * the cluster). */
cand sim_group_best(const sim *s, int32_t r, int n)
{
    const tree *t = &s->tr;
    int32_t i;
    if (n == 1)
        i = t->leaf[r] + t->P;
    else if (n == s->N)
        i = 1;
    else if (t->padded)
        i = (t->leaf[r] + t->P) >> t->shift[n];
    else {
        int32_t lo, hi;
        group_of(s, r, n, &lo, &hi);
        return tree_range(t, lo, hi);
    }
    cand b = {t->node[i].arg, t->node[i].key, t->node[i].tie};
    return b;
}

/* The tree's layout (see the type) and its leaves at neutral keys. */
int sim_tree_init(sim *s)
{
    const hta_cluster *c = s->c;
    tree *t = &s->tr;
    int bits, b = 0;
    int32_t plain = pow2_at_least(c->M, &bits);
    t->leaf = malloc((size_t)c->M * sizeof *t->leaf);
    if (!t->leaf)
        return -1;
    /* padded: rack index in its rack, then rack in its pod, ... */
    double leaves = 1;
    int bw[HTA_MAX_LEVELS];
    for (int i = 0; i < c->ntopo; i++) {
        leaves *= pow2_at_least(c->topo[i], &bw[i]);
        t->shift[i + 2] = b += bw[i];
    }
    int topbits = 0;
    if (s->N > 2)
        leaves *= pow2_at_least(hta_cluster_groups(c, s->N - 1), &topbits);
    t->padded = s->N > 2 && leaves <= 4.0 * plain;
    if (t->padded) {
        t->P = (int32_t)leaves;
        t->shift[s->N] = b + topbits;
        for (int32_t m = 0; m < c->M; m++) {
            int64_t x = m, leaf = 0;
            int sh = 0;
            for (int i = 0; i < c->ntopo; i++) {
                leaf |= (x % c->topo[i]) << sh;
                x /= c->topo[i];
                sh += bw[i];
            }
            t->leaf[m] = (int32_t)(leaf | x << sh);
        }
    } else {
        t->P = plain;
        for (int32_t m = 0; m < c->M; m++)
            t->leaf[m] = m;
    }
    size_t n2 = 2 * (size_t)t->P;
    t->node = malloc(n2 * sizeof *t->node);
    if (!t->node)
        return -1;
    for (size_t i = 0; i < n2; i++) { /* padding never wins */
        t->node[i].key = INFINITY;
        t->node[i].tie = UINT32_MAX;
        t->node[i].arg = -1;
    }
    for (int32_t m = 0; m < c->M; m++) {
        s->tl[m] = (uint32_t)hta_rng_next(&s->route_rng);
        sim_tree_lower(t, m, 0, s->tl[m]);
    }
    return 0;
}
