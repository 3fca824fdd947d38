/* Generalized maximum flows for the capacity region (gflow.h).
 *
 * The network, for a fixed rho, on the touched servers and groups
 * (touch.h):
 *   supply nodes: each touched server, with rho units of time from the
 *   source, and one pool per touched group holding untouched servers
 *   outside its touched subgroups, with rho units per such server;
 *   a node per touched group of levels 2..N (level N: the cluster), a
 *   tree arc from each supply node and group to the group above it (gain
 *   1, uncapacitated): unused time moves up the hierarchy;
 *   an entry arc from each local server of type L (gain alpha_1) and from
 *   each group of level n holding a replica of L (gain alpha_n) to L
 *   (uncapacitated): time becomes work;
 *   an arc from L to the sink (gain 1, capacity lambda_L).
 * These are the columns of capacity.c's aggregated LP, one row per node.
 *
 * Residual arcs: an arc e = (v, w) with flow g (measured leaving v) has a
 * forward residual cap - g at v, gain gamma, and a reverse residual
 * gamma * g at w, gain 1/gamma.  Labels mu(v) > 0 are valid when every
 * residual arc (v, w) has gamma mu(w) <= mu(v); an arc is tight when
 * equal (within TIGHT).  Along tight arcs, value (flow times the tail's
 * label) is conserved, so the flow of a phase is an ordinary maximum flow
 * in value units; it runs from every server with time left at once.
 */
#include "capacity/gflow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/num.h"
#include "touch.h"

#define TIGHT 1e-11       /* relative: an arc with gain*mu(w) this close */
#define MAX_NEWTON 500    /* Newton steps (a handful in practice) */
#define MAX_RELABELS 1000000 /* a guard: tens in practice */

#define ROOM 1 /* forward residual: cap - flow > eps */
#define POS 2  /* reverse residual: gain * flow > eps */

/* One arc's fields together: a search reads them all at once. */
typedef struct arc {
    int64_t tail, head;
    double gain, cap, flow;
} arc;

typedef struct net {
    const hta_cluster *c;
    cap_touch t;
    int64_t S;            /* supply nodes 0..S-1: the touched servers, then
                             the pools */
    double *weight;       /* per supply node: its servers */
    int64_t T, V, A;
    int64_t gbase[HTA_MAX_LEVELS + 1]; /* node of the first touched group
                                          of level n */
    int64_t type0, sink;
    arc *arcs;
    int64_t *hoff, *hand; /* per node: 2e where it is e's tail, 2e+1 head */
    int64_t *other;       /* beside each handle, the arc's other end */
    unsigned char *st;    /* per arc: ROOM and POS (above), so that the
                             searches skip arcs without a residual by
                             reading a byte instead of the arc */
    double *mu, *nu;      /* labels; their ratio during a relabelling */
    double *used;         /* per supply node: time drawn from the source */
    double rho, eps;
    int32_t *dist;        /* breadth-first distance to the sink */
    int64_t *cur;         /* current handle of each node */
    int64_t *heap, *pos;  /* Dijkstra's max-heap on nu */
    int64_t *queue, *path, *phand;
    int64_t relabels, rounds;
    int64_t first_entry;  /* the entry arcs follow the tree arcs */
    double *extra;        /* per touched server: unserved local work's
                             time */
    int unmet_local;      /* the bound put unserved work on servers */
} net;

static void net_free(net *n)
{
    cap_touch_free(&n->t);
    free(n->weight);
    free(n->arcs);
    free(n->hoff);
    free(n->hand);
    free(n->other);
    free(n->st);
    free(n->mu);
    free(n->nu);
    free(n->used);
    free(n->dist);
    free(n->cur);
    free(n->heap);
    free(n->pos);
    free(n->queue);
    free(n->path);
    free(n->phand);
    free(n->extra);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Distinct level-n groups of type L's servers into buf (sorted), as
 * indices among the touched groups; their count. */
static int64_t type_groups(const net *n0, int64_t L, int n, int64_t *buf)
{
    const hta_cluster *c = n0->c;
    int64_t k = 0;
    for (int64_t i = c->off[L]; i < c->off[L + 1]; i++)
        buf[k++] = cap_touch_group(&n0->t, n,
                                   hta_cluster_group(c, c->srv[i], n));
    qsort(buf, (size_t)k, sizeof *buf, cmp_i64);
    int64_t u = 0;
    for (int64_t i = 0; i < k; i++)
        if (u == 0 || buf[i] != buf[u - 1])
            buf[u++] = buf[i];
    return u;
}

static void add_arc(net *n, int64_t *a, int64_t v, int64_t w, double gain,
                    double cap)
{
    n->arcs[(*a)++] = (arc){v, w, gain, cap, 0};
}

/* The touched group of level lv above the touched group k of level
 * lv - 1 (lv - 1 = 1: the touched server k). */
static int64_t parent(const net *n, int lv, int64_t k)
{
    const hta_cluster *c = n->c;
    int32_t first = lv == 2 ? n->t.srv[k] :
                              hta_cluster_group_server(c, lv - 1,
                                                       n->t.grp[lv - 1][k], 0);
    return cap_touch_group(&n->t, lv, hta_cluster_group(c, first, lv));
}

/* Builds the network: counts the arcs, then fills them. */
static int net_build(net *n, const hta_cluster *c, double total)
{
    memset(n, 0, sizeof *n);
    int N = c->levels;
    n->c = c;
    n->T = c->T;
    if (!cap_touch_build(c, &n->t))
        return 0;
    const cap_touch *t = &n->t;
    n->S = t->nsrv;
    for (int lv = 2; lv <= N; lv++)
        for (int64_t k = 0; k < t->ngrp[lv]; k++)
            n->S += t->pool[lv][k] > 0;
    n->gbase[1] = 0;
    int64_t V = n->S;
    for (int lv = 2; lv <= N; lv++) {
        n->gbase[lv] = V;
        V += t->ngrp[lv];
    }
    n->type0 = V;
    V += c->T;
    n->sink = V++;
    n->V = V;
    n->eps = 1e-14 * fmax(1.0, total);
    int64_t kmax = 1;
    for (int64_t L = 0; L < c->T; L++)
        if (c->off[L + 1] - c->off[L] > kmax)
            kmax = c->off[L + 1] - c->off[L];
    int64_t *buf = malloc((size_t)kmax * sizeof *buf);
    if (!buf)
        return 0;
    int64_t A = n->S + c->T; /* tree arcs of the supply nodes, sink arcs */
    for (int lv = 2; lv < N; lv++)
        A += t->ngrp[lv];
    for (int64_t L = 0; L < c->T; L++) {
        A += c->off[L + 1] - c->off[L];
        for (int lv = 2; lv <= N; lv++)
            A += type_groups(n, L, lv, buf);
    }
    n->A = A;
    size_t a = (size_t)A, v = (size_t)V, S = (size_t)n->S;
    n->weight = malloc((S + 1) * sizeof *n->weight);
    n->arcs = malloc(a * sizeof *n->arcs);
    n->hoff = calloc(v + 1, sizeof *n->hoff);
    n->hand = malloc(2 * a * sizeof *n->hand);
    n->other = malloc(2 * a * sizeof *n->other);
    n->st = malloc(a + 1);
    n->mu = malloc(v * sizeof *n->mu);
    n->nu = malloc(v * sizeof *n->nu);
    n->used = calloc(S + 1, sizeof *n->used);
    n->dist = malloc(v * sizeof *n->dist);
    n->cur = malloc(v * sizeof *n->cur);
    n->heap = malloc(v * sizeof *n->heap);
    n->pos = malloc(v * sizeof *n->pos);
    n->queue = malloc(v * sizeof *n->queue);
    n->path = malloc((v + 1) * sizeof *n->path);
    n->phand = malloc((v + 1) * sizeof *n->phand);
    n->extra = malloc(((size_t)t->nsrv + 1) * sizeof *n->extra);
    if (!n->weight || !n->arcs || !n->hoff || !n->hand || !n->other ||
        !n->st || !n->mu || !n->nu || !n->used || !n->dist || !n->cur ||
        !n->heap || !n->pos || !n->queue || !n->path || !n->phand ||
        !n->extra) {
        free(buf);
        return 0;
    }
    int64_t e = 0, s = 0;
    for (; s < t->nsrv; s++) {
        n->weight[s] = 1;
        add_arc(n, &e, s, n->gbase[2] + parent(n, 2, s), 1.0, INFINITY);
    }
    for (int lv = 2; lv <= N; lv++)
        for (int64_t k = 0; k < t->ngrp[lv]; k++)
            if (t->pool[lv][k] > 0) {
                n->weight[s] = (double)t->pool[lv][k];
                add_arc(n, &e, s++, n->gbase[lv] + k, 1.0, INFINITY);
            }
    /* each group's arc up */
    for (int lv = 2; lv < N; lv++)
        for (int64_t k = 0; k < t->ngrp[lv]; k++)
            add_arc(n, &e, n->gbase[lv] + k,
                    n->gbase[lv + 1] + parent(n, lv + 1, k), 1.0, INFINITY);
    n->first_entry = e;
    for (int64_t L = 0; L < c->T; L++) {
        int64_t node = n->type0 + L;
        for (int64_t i = c->off[L]; i < c->off[L + 1]; i++)
            add_arc(n, &e, t->at[i], node, c->rate[0], INFINITY);
        for (int lv = 2; lv <= N; lv++) {
            int64_t k = type_groups(n, L, lv, buf);
            for (int64_t j = 0; j < k; j++)
                add_arc(n, &e, n->gbase[lv] + buf[j], node, c->rate[lv - 1],
                        INFINITY);
        }
        add_arc(n, &e, node, n->sink, 1.0, c->lambda[L]);
    }
    free(buf);
    for (int64_t i = 0; i < A; i++)
        n->st[i] = n->arcs[i].cap > n->eps ? ROOM : 0;
    /* handles: both ends of every arc */
    for (int64_t i = 0; i < A; i++) {
        n->hoff[n->arcs[i].tail + 1]++;
        n->hoff[n->arcs[i].head + 1]++;
    }
    for (int64_t x = 0; x < V; x++)
        n->hoff[x + 1] += n->hoff[x];
    int64_t *fill = n->cur; /* scratch */
    memcpy(fill, n->hoff, v * sizeof *fill);
    for (int64_t i = 0; i < A; i++) {
        int64_t tl = fill[n->arcs[i].tail]++, h = fill[n->arcs[i].head]++;
        n->hand[tl] = 2 * i;
        n->other[tl] = n->arcs[i].head;
        n->hand[h] = 2 * i + 1;
        n->other[h] = n->arcs[i].tail;
    }
    return 1;
}

static void set_state(net *n, int64_t e)
{
    const arc *a = &n->arcs[e];
    n->st[e] = (unsigned char)((a->cap - a->flow > n->eps ? ROOM : 0) |
                               (a->gain * a->flow > n->eps ? POS : 0));
}

/* Whether handle h has a residual arc into (in) or out of (out) its
 * node. */
static int has_in(const net *n, int64_t h)
{
    return n->st[h >> 1] & (h & 1 ? ROOM : POS);
}

static int has_out(const net *n, int64_t h)
{
    return n->st[h >> 1] & (h & 1 ? POS : ROOM);
}

/* The residual arc of handle h at node x, seen from x as its tail:
 * its head, gain and residual (in units at x; INFINITY when unbounded). */
static int64_t out_arc(const net *n, int64_t h, double *gain, double *res)
{
    const arc *a = &n->arcs[h >> 1];
    if (!(h & 1)) {
        *gain = a->gain;
        *res = a->cap - a->flow;
        return a->head;
    }
    *gain = 1.0 / a->gain;
    *res = a->gain * a->flow;
    return a->tail;
}

/* The residual arc of handle h at node x, seen from x as its head: its
 * tail, gain and residual (in units at the tail). */
static int64_t in_arc(const net *n, int64_t h, double *gain, double *res)
{
    const arc *a = &n->arcs[h >> 1];
    if (h & 1) {
        *gain = a->gain;
        *res = a->cap - a->flow;
        return a->tail;
    }
    *gain = 1.0 / a->gain;
    *res = a->gain * a->flow;
    return a->head;
}

static int tight(const net *n, int64_t v, int64_t w, double gain)
{
    return gain * n->mu[w] >= n->mu[v] * (1 - TIGHT);
}

/* The first labels: the network without flow is acyclic (sink, types,
 * groups from the cluster down, servers), so one pass in that order. */
static void first_labels(net *n)
{
    const hta_cluster *c = n->c;
    n->mu[n->sink] = 1;
    for (int64_t L = 0; L < n->T; L++)
        n->mu[n->type0 + L] = c->lambda[L] > n->eps ? 1 : 0;
    for (int lv = c->levels; lv >= 1; lv--) {
        int64_t lo = n->gbase[lv],
                hi = lv == c->levels ? n->type0 : n->gbase[lv + 1];
        for (int64_t x = lo; x < hi; x++) {
            double best = 0;
            for (int64_t j = n->hoff[x]; j < n->hoff[x + 1]; j++) {
                double g, r;
                if (n->hand[j] & 1)
                    continue; /* x is the head: no residual out */
                int64_t w = out_arc(n, n->hand[j], &g, &r);
                if (r > n->eps)
                    best = fmax(best, g * n->mu[w]);
            }
            n->mu[x] = best;
        }
    }
}

static void heap_up(net *n, int64_t i)
{
    int64_t x = n->heap[i];
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (n->nu[n->heap[p]] >= n->nu[x])
            break;
        n->heap[i] = n->heap[p];
        n->pos[n->heap[i]] = i;
        i = p;
    }
    n->heap[i] = x;
    n->pos[x] = i;
}

static void heap_down(net *n, int64_t i, int64_t size)
{
    int64_t x = n->heap[i];
    for (;;) {
        int64_t l = 2 * i + 1, best = i;
        double bv = n->nu[x];
        if (l < size && n->nu[n->heap[l]] > bv)
            best = l, bv = n->nu[n->heap[l]];
        if (l + 1 < size && n->nu[n->heap[l + 1]] > bv)
            best = l + 1;
        if (best == i)
            break;
        n->heap[i] = n->heap[best];
        n->pos[n->heap[i]] = i;
        i = best;
    }
    n->heap[i] = x;
    n->pos[x] = i;
}

/* New canonical labels from valid old ones: nu(v) = mu_new(v)/mu_old(v)
 * by Dijkstra from the sink over residual arcs with the relabelled gains
 * gain * mu_old(w) / mu_old(v) <= 1.  Labels only fall; a node with label
 * 0 (no residual path to the sink) keeps it. */
static void relabel(net *n)
{
    int64_t size = 0;
    n->relabels++;
    for (int64_t x = 0; x < n->V; x++) {
        n->nu[x] = 0;
        n->pos[x] = -1;
    }
    n->nu[n->sink] = 1;
    n->heap[size] = n->sink;
    n->pos[n->sink] = size++;
    while (size > 0) {
        int64_t w = n->heap[0];
        n->pos[w] = -2; /* settled */
        n->heap[0] = n->heap[--size];
        if (size > 0) {
            n->pos[n->heap[0]] = 0;
            heap_down(n, 0, size);
        }
        for (int64_t j = n->hoff[w]; j < n->hoff[w + 1]; j++) {
            int64_t v = n->other[j];
            if (n->pos[v] == -2 || n->mu[v] <= 0 || !has_in(n, n->hand[j]))
                continue;
            double g, r;
            in_arc(n, n->hand[j], &g, &r);
            if (r <= n->eps)
                continue;
            double cand = fmin(1.0, n->nu[w] * g * n->mu[w] / n->mu[v]);
            if (cand <= n->nu[v])
                continue;
            n->nu[v] = cand;
            if (n->pos[v] < 0) {
                n->heap[size] = v;
                n->pos[v] = size++;
            }
            heap_up(n, n->pos[v]);
        }
    }
    for (int64_t x = 0; x < n->V; x++)
        n->mu[x] *= n->nu[x];
}

static int has_supply(const net *n, int64_t s)
{
    return n->rho * n->weight[s] - n->used[s] > n->eps && n->mu[s] > 0;
}

/* Distances to the sink over tight residual arcs, up to the nearest
 * server with time left (Dinic's layers); 1 when there is one. */
static int bfs(net *n)
{
    int64_t head = 0, tailq = 0;
    int32_t found = INT32_MAX;
    n->rounds++;
    for (int64_t x = 0; x < n->V; x++)
        n->dist[x] = -1;
    n->dist[n->sink] = 0;
    n->queue[tailq++] = n->sink;
    while (head < tailq) {
        int64_t w = n->queue[head++];
        if (n->dist[w] >= found)
            break;
        for (int64_t j = n->hoff[w]; j < n->hoff[w + 1]; j++) {
            int64_t v = n->other[j];
            if (n->dist[v] >= 0 || n->mu[v] <= 0 || !has_in(n, n->hand[j]))
                continue;
            double g, r;
            in_arc(n, n->hand[j], &g, &r);
            if (r <= n->eps || !tight(n, v, w, g))
                continue;
            n->dist[v] = n->dist[w] + 1;
            n->queue[tailq++] = v;
            if (v < n->S && has_supply(n, v))
                found = n->dist[v];
        }
    }
    return found != INT32_MAX;
}

/* Pushes value delta along path[0..depth] (path[0] a server). */
static void augment(net *n, int64_t depth, double delta)
{
    int64_t s = n->path[0];
    n->used[s] = fmin(n->rho * n->weight[s], n->used[s] + delta / n->mu[s]);
    for (int64_t k = 0; k < depth; k++) {
        int64_t v = n->path[k], h = n->phand[k];
        arc *a = &n->arcs[h >> 1];
        if (!(h & 1)) {
            a->flow = fmin(a->cap, a->flow + delta / n->mu[v]);
        } else {
            a->flow -= delta / (n->mu[v] * a->gain);
            if (a->flow < 0)
                a->flow = 0;
        }
        set_state(n, h >> 1);
    }
}

/* A blocking flow on the layered tight network (Dinic), from every
 * supply node with time left. */
static void block(net *n)
{
    for (int64_t x = 0; x < n->V; x++)
        n->cur[x] = n->hoff[x];
    for (int64_t s0 = 0; s0 < n->S; s0++) {
        while (n->dist[s0] > 0 && has_supply(n, s0)) {
            int64_t depth = 0;
            n->path[0] = s0;
            while (depth >= 0 && n->path[depth] != n->sink) {
                int64_t v = n->path[depth], next = -1;
                for (; n->cur[v] < n->hoff[v + 1]; n->cur[v]++) {
                    int64_t w = n->other[n->cur[v]];
                    if (n->dist[w] != n->dist[v] - 1 ||
                        !has_out(n, n->hand[n->cur[v]]))
                        continue;
                    double g, r;
                    out_arc(n, n->hand[n->cur[v]], &g, &r);
                    if (r > n->eps && tight(n, v, w, g)) {
                        next = w;
                        break;
                    }
                }
                if (next < 0) {
                    n->dist[v] = -1; /* dead for this round */
                    depth--;
                    continue;
                }
                n->phand[depth] = n->hand[n->cur[v]];
                n->path[++depth] = next;
            }
            if (depth < 0)
                break;
            /* the bottleneck in value units */
            double delta = (n->rho * n->weight[s0] - n->used[s0]) * n->mu[s0];
            for (int64_t k = 0; k < depth; k++) {
                double g, r;
                out_arc(n, n->phand[k], &g, &r);
                delta = fmin(delta, r * n->mu[n->path[k]]);
            }
            augment(n, depth, delta);
        }
    }
}

/* The maximum flow at the current rho, from the current flow and valid
 * labels. */
static int maxflow(net *n)
{
    for (;;) {
        while (bfs(n))
            block(n);
        if (n->relabels >= MAX_RELABELS)
            return 0;
        relabel(n);
        if (!bfs(n))
            return 1;
        block(n);
    }
}

static double served(const net *n)
{
    double f = 0;
    for (int64_t j = n->hoff[n->sink]; j < n->hoff[n->sink + 1]; j++)
        f += n->arcs[n->hand[j] >> 1].flow;
    return f;
}

/* How far serving the work the flow left unserved (gap in all) raises
 * the largest utilisation above rho: spread over the whole cluster at
 * the slowest rate, or each type's rest on its first local server at
 * alpha_1, whichever is less (the second when the rest is the crumbs of
 * types too small for the flow's tolerance).  *local says which. */
static double unserved_bound(net *n, double gap, int *local)
{
    const hta_cluster *c = n->c;
    double spread = gap / (c->rate[c->levels - 1] * (double)c->M), most = 0;
    memset(n->extra, 0, (size_t)n->t.nsrv * sizeof *n->extra);
    for (int64_t j = n->hoff[n->sink]; j < n->hoff[n->sink + 1]; j++) {
        const arc *a = &n->arcs[n->hand[j] >> 1];
        int64_t L = a->tail - n->type0;
        double left = c->lambda[L] - a->flow;
        if (left > 0) {
            int32_t s = n->t.at[c->off[L]];
            n->extra[s] += left / c->rate[0];
            most = fmax(most, n->extra[s]);
        }
    }
    *local = most < spread;
    return *local ? most : spread;
}

void hta_gflow_result_free(hta_gflow_result *res)
{
    if (!res)
        return;
    free(res->entry);
    memset(res, 0, sizeof *res);
}

/* The allocation: the work on every entry arc, and what the flow left
 * unserved on the cluster's level. */
static int entries(const net *n, hta_gflow_result *res)
{
    const hta_cluster *c = n->c;
    int N = c->levels;
    int64_t k = 0, first = n->first_entry;
    res->entry = malloc(((size_t)(n->A - first) + 1) * sizeof *res->entry);
    if (!res->entry)
        return 0;
    for (int64_t e = first; e < n->A; e++) {
        const arc *a = &n->arcs[e];
        int64_t u = a->tail;
        if (a->head == n->sink) {
            int64_t L = u - n->type0;
            double left = c->lambda[L] - a->flow;
            if (left > 0)
                res->entry[k++] =
                    n->unmet_local ?
                        (hta_gflow_entry){L, c->srv[c->off[L]], 1, left} :
                        (hta_gflow_entry){L, 0, N, left};
            continue;
        }
        int64_t L = a->head - n->type0;
        double work = a->gain * a->flow;
        if (!(work > 0))
            continue;
        int lv = 1;
        while (lv < N && u >= n->gbase[lv + 1])
            lv++;
        res->entry[k++] = (hta_gflow_entry){
            L, lv == 1 ? n->t.srv[u] : n->t.grp[lv][u - n->gbase[lv]], lv,
            work};
    }
    res->nentry = k;
    return 1;
}

hta_status hta_gflow_capacity(const hta_cluster *c, int want_entries,
                              hta_progress_fn progress, void *progress_ctx,
                              volatile sig_atomic_t *stop,
                              hta_gflow_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    double total = 0;
    for (int64_t L = 0; L < c->T; L++)
        total += c->lambda[L];
    if (!(total > 0))
        return HTA_OK;
    net n;
    if (!net_build(&n, c, total)) {
        net_free(&n);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    double started = hta_clock_now();
    /* Newton from the left: rho* >= sum lambda / (alpha_1 M) */
    n.rho = total / (c->rate[0] * (double)c->M);
    first_labels(&n);
    double upper = INFINITY, lower = n.rho;
    hta_status st = HTA_OK;
    for (int it = 0;; it++) {
        if (stop && *stop) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "interrupted");
            break;
        }
        if (!maxflow(&n)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                              "the generalized flow did not converge in "
                              "%d relabellings",
                              MAX_RELABELS);
            break;
        }
        res->newton++;
        double F = served(&n), gap = fmax(0.0, total - F);
        lower = n.rho;
        upper = n.rho + unserved_bound(&n, gap, &n.unmet_local);
        if (progress) {
            hta_progress p = {"capacity gflow", hta_clock_now() - started,
                              upper, lower, it};
            progress(progress_ctx, &p);
        }
        double slope = 0;
        for (int64_t s = 0; s < n.S; s++)
            slope += n.mu[s] * n.weight[s];
        if (upper - lower <= 1e-12 * upper || !(slope > 0))
            break;
        double next = n.rho + gap / slope;
        if (!(next > n.rho) || it + 1 >= MAX_NEWTON)
            break;
        n.rho = next;
    }
    res->rho = upper;
    res->lower = lower;
    res->relabels = n.relabels;
    res->rounds = n.rounds;
    if (st == HTA_OK && !(upper - lower <= 1e-9 * upper))
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "the generalized flow stopped at rho in [%.17g, "
                          "%.17g], wider than 1e-9",
                          lower, upper);
    if (st == HTA_OK && want_entries && !entries(&n, res))
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    net_free(&n);
    if (st != HTA_OK)
        hta_gflow_result_free(res);
    return st;
}
