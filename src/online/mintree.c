/* GB-PANDAS' arg-min tree over the servers' workloads (sim_impl.h's
 * tree): updates in O(log M), a group's best server as one node (padded
 * layout) or a range query (plain layout).  Nodes never written are
 * computed from the initial ties (sim_tree_fresh), so memory follows the
 * servers routed to, not the servers declared. */
#include <math.h>
#include "sim_impl.h"

/* ---- leaves and servers ---- */

/* The server at leaf i, or -1 when i is padding. */
static int32_t leaf_server(const tree *t, int64_t i)
{
    if (!t->padded)
        return i < t->M ? (int32_t)i : -1;
    int64_t m = 0;
    for (int k = 0; k < t->nf; k++) {
        int64_t d = (i >> t->foff[k]) & (((int64_t)1 << (t->foff[k + 1] -
                                                         t->foff[k])) - 1);
        if (d >= t->fbound[k])
            return -1;
        m += d * t->fstride[k];
    }
    m += (i >> t->foff[t->nf]) * t->fstride[t->nf];
    return m < t->M ? (int32_t)m : -1;
}

int32_t sim_tree_leaf_of(tree *t, int32_t m)
{
    if (!t->padded)
        return m;
    if (t->leafp1[m])
        return t->leafp1[m] - 1;
    int64_t x = m, leaf = 0;
    for (int k = 0; k < t->nf; k++) {
        leaf |= (x % t->fbound[k]) << t->foff[k];
        x /= t->fbound[k];
    }
    leaf |= x << t->foff[t->nf];
    t->leafp1[m] = (int32_t)leaf + 1;
    return (int32_t)leaf;
}

/* Leaf i's initial tie: its xor distance to the mask on top, salt
 * below, odd. */
static uint32_t initial_tie(const tree *t, int64_t i)
{
    uint64_t h = (t->salt + (uint64_t)i) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    uint64_t top = (uint64_t)(i ^ t->mask) << (32 - t->bits);
    uint64_t low = h & ((((uint64_t)1) << (32 - t->bits)) - 1);
    return (uint32_t)(top | low | 1);
}

/* Node i's initial value: the real leaf of its block with the least
 * initial tie, i.e. the least (leaf ^ mask), chosen bit by bit from the
 * top: a bit equal to the mask's wherever some real leaf has the bits
 * chosen so far, which holds exactly when the leaf with those bits and
 * zeros below is real (a leaf's fields and server grow with its bits).
 * Padding alone: a node that never wins. */
tnode sim_tree_fresh(const tree *t, int32_t i)
{
    int depth = 0;
    while (((int64_t)1 << (depth + 1)) <= i)
        depth++;
    int k = t->bits - depth; /* free bits of the block */
    int64_t best = ((int64_t)i - ((int64_t)1 << depth)) << k;
    tnode v = {INFINITY, UINT32_MAX, -1};
    if (leaf_server(t, best) < 0)
        return v;
    for (int j = k - 1; j >= 0; j--)
        if ((t->mask >> j) & 1 && leaf_server(t, best | (int64_t)1 << j) >= 0)
            best |= (int64_t)1 << j;
    v.key = 0;
    v.tie = initial_tie(t, best);
    v.arg = leaf_server(t, best);
    return v;
}

uint32_t sim_tree_tie(sim *s, int32_t m)
{
    return s->tl[m] ? s->tl[m] :
                      initial_tie(&s->tr, sim_tree_leaf_of(&s->tr, m));
}

/* ---- updates ---- */

/* Server m's key went down: m now wins where it won and where it beats
 * the winner, which needs no sibling; the climb ends at the first
 * ancestor whose winner beats it. */
void sim_tree_lower(tree *t, int32_t m, double key, uint32_t tie)
{
    int32_t i = sim_tree_leaf_of(t, m) + t->P;
    tnode *nd = t->node;
    tnode w = {key, tie, m};
    nd[i] = w;
    for (i /= 2; i >= 1; i /= 2) {
        tnode a = tree_at(t, i);
        if (a.arg != m && !node_better(&w, &a))
            break;
        nd[i] = w;
    }
}

/* Server m's key went up: only the ancestors m won change, each
 * to the better of m and the sibling; the climb ends where m did not
 * win. */
void sim_tree_raise(tree *t, int32_t m, double key, uint32_t tie)
{
    int32_t i = sim_tree_leaf_of(t, m) + t->P;
    tnode *nd = t->node;
    tnode w = {key, tie, m};
    nd[i] = w;
    for (; i > 1 && tree_at(t, i / 2).arg == m; i /= 2) {
        tnode sib = tree_at(t, i ^ 1);
        if (node_better(&sib, &w))
            w = sib;
        nd[i / 2] = w;
    }
}

/* ---- queries ---- */

/* The best leaf in [lo, hi) (leaf order = server order here). */
static cand tree_range(const tree *t, int32_t lo, int32_t hi)
{
    cand b = {-1, 0, 0};
    tnode bn = {INFINITY, UINT32_MAX, -1};
    int any = 0;
    for (int32_t l = lo + t->P, h = hi + t->P; l < h; l /= 2, h /= 2) {
        int32_t at[2], n = 0;
        if (l & 1)
            at[n++] = l++;
        if (h & 1)
            at[n++] = --h;
        for (int k = 0; k < n; k++) {
            tnode v = tree_at(t, at[k]);
            if (!any || node_better(&v, &bn)) {
                bn = v;
                any = 1;
            }
        }
    }
    if (any) {
        b.m = bn.arg;
        b.key = bn.key;
        b.tie = bn.tie;
    }
    return b;
}

/* The best server of server r's group at level n (n = 1: r itself, N:
 * the cluster). */
cand sim_group_best(sim *s, int32_t r, int n)
{
    tree *t = &s->tr;
    int32_t i;
    if (n == 1)
        i = sim_tree_leaf_of(t, r) + t->P;
    else if (n == s->N)
        i = 1;
    else if (t->padded)
        i = (sim_tree_leaf_of(t, r) + t->P) >> t->shift[n];
    else {
        int32_t lo, hi;
        group_of(s, r, n, &lo, &hi);
        return tree_range(t, lo, hi);
    }
    tnode v = tree_at(t, i);
    cand b = {v.arg, v.key, v.tie};
    return b;
}

/* ---- set-up ---- */

/* The tree's layout (see the type); every node starts unwritten. */
int sim_tree_init(sim *s)
{
    const hta_cluster *c = s->c;
    tree *t = &s->tr;
    int bits, b = 0;
    int32_t plain = pow2_at_least(c->M, &bits);
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
    t->padded = s->N > 2 && !s->xgrp[2] && leaves <= 4.0 * plain;
    t->M = c->M;
    if (t->padded) {
        t->P = (int32_t)leaves;
        t->bits = b + topbits;
        t->shift[s->N] = t->bits;
        t->nf = c->ntopo;
        int64_t stride = 1;
        for (int k = 0; k < c->ntopo; k++) {
            t->foff[k] = k ? t->shift[k + 1] : 0;
            t->fbound[k] = c->topo[k];
            t->fstride[k] = stride;
            stride *= c->topo[k];
        }
        t->foff[c->ntopo] = b;
        t->fstride[c->ntopo] = stride;
        t->leafp1 = calloc((size_t)c->M, sizeof *t->leafp1);
        if (!t->leafp1)
            return -1;
    } else {
        t->P = plain;
        t->bits = bits;
    }
    t->mask = (uint32_t)(hta_rng_next(&s->route_rng) &
                         ((((uint64_t)1) << t->bits) - 1));
    t->salt = hta_rng_next(&s->route_rng);
    t->node = calloc(2 * (size_t)t->P, sizeof *t->node);
    return t->node ? 0 : -1;
}

/* Every node written with its value from the leaves up: the eager tree
 * the lazy one must equal (tests; sim_tree_fresh's oracle). */
void sim_tree_fill(tree *t)
{
    for (int64_t i = 0; i < t->P; i++) {
        int32_t m = leaf_server(t, i);
        tnode v = {INFINITY, UINT32_MAX, -1};
        if (m >= 0) {
            v.key = 0;
            v.tie = initial_tie(t, i);
            v.arg = m;
        }
        t->node[t->P + i] = v;
    }
    for (int32_t i = t->P - 1; i >= 1; i--) {
        const tnode *a = &t->node[2 * i], *b = a + 1;
        t->node[i] = node_better(b, a) ? *b : *a;
    }
}
