/* The count refutation of gap closing on N levels (closelev.h): a
 * maximum flow by Dinic's algorithm on the tasks' groups, their servers
 * and pools, and each server's chain of levels. */
#include "closelev.h"
#include "closelev_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/levels.h"
#include "hta/num.h"

#define EPS CLOSELEV_EPS

/* Dinic's maximum flow on a general network, arcs in pairs (e, e ^ 1). */
typedef struct dinic {
    int32_t nv;
    int64_t na, cap_a;
    int32_t *head, *nxt, *to;   /* adjacency by linked arcs */
    int64_t *cap;
    int32_t *level, *it, *queue;
    double deadline;              /* polled as the slot search polls */
    volatile sig_atomic_t *stop;
    int stopped;
} dinic;

static int dinic_poll(dinic *g)
{
    if (hta_clock_now() > g->deadline || (g->stop && *g->stop))
        g->stopped = 1;
    return g->stopped;
}

static int dinic_arc(dinic *g, int32_t u, int32_t v, int64_t c)
{
    if (g->na + 2 > g->cap_a) {
        int64_t nc = g->cap_a ? 2 * g->cap_a : 1024;
        int32_t *nx = realloc(g->nxt, (size_t)nc * sizeof *nx);
        if (nx)
            g->nxt = nx;
        int32_t *nt = realloc(g->to, (size_t)nc * sizeof *nt);
        if (nt)
            g->to = nt;
        int64_t *ncap = realloc(g->cap, (size_t)nc * sizeof *ncap);
        if (ncap)
            g->cap = ncap;
        if (!nx || !nt || !ncap || nc > INT32_MAX)
            return 0;
        g->cap_a = nc;
    }
    int32_t e = (int32_t)g->na;
    g->to[e] = v, g->cap[e] = c, g->nxt[e] = g->head[u], g->head[u] = e;
    g->to[e + 1] = u, g->cap[e + 1] = 0, g->nxt[e + 1] = g->head[v],
              g->head[v] = e + 1;
    g->na += 2;
    return 1;
}

static int dinic_bfs(dinic *g, int32_t s, int32_t t)
{
    for (int32_t v = 0; v < g->nv; v++)
        g->level[v] = -1;
    int32_t h = 0, q = 0;
    g->level[s] = 0;
    g->queue[q++] = s;
    while (h < q) {
        int32_t u = g->queue[h++];
        for (int32_t e = g->head[u]; e >= 0; e = g->nxt[e])
            if (g->cap[e] > 0 && g->level[g->to[e]] < 0) {
                g->level[g->to[e]] = g->level[u] + 1;
                g->queue[q++] = g->to[e];
            }
    }
    return g->level[t] >= 0;
}

/* One blocking-flow path from u, iteratively (the depth is the levels'
 * count, small, but a recursion per node is avoided all the same). */
static int64_t dinic_path(dinic *g, int32_t s, int32_t t, int32_t *stack)
{
    int32_t depth = 0, u = s;
    for (;;) {
        if (u == t) {
            int64_t b = INT64_MAX;
            for (int32_t i = 0; i < depth; i++)
                if (g->cap[stack[i]] < b)
                    b = g->cap[stack[i]];
            for (int32_t i = 0; i < depth; i++) {
                g->cap[stack[i]] -= b;
                g->cap[stack[i] ^ 1] += b;
            }
            return b;
        }
        int32_t e = g->it[u];
        while (e >= 0 && !(g->cap[e] > 0 &&
                           g->level[g->to[e]] == g->level[u] + 1))
            e = g->nxt[e];
        g->it[u] = e;
        if (e >= 0) {
            stack[depth++] = e;
            u = g->to[e];
            continue;
        }
        if (u == s)
            return 0;
        g->level[u] = -1; /* dead end */
        u = g->to[stack[--depth] ^ 1];
        g->it[u] = g->nxt[g->it[u]];
    }
}

static int64_t dinic_run(dinic *g, int32_t s, int32_t t, int32_t *stack)
{
    int64_t total = 0;
    while (!dinic_poll(g) && dinic_bfs(g, s, t)) {
        for (int32_t v = 0; v < g->nv; v++)
            g->it[v] = g->head[v];
        int64_t f, k = 0;
        while ((f = dinic_path(g, s, t, stack)) > 0) {
            total += f;
            if (++k % 4096 == 0 && dinic_poll(g))
                return total;
        }
    }
    return total;
}

/* The most tasks at a level of cost c or farther on a server past its
 * kmin local ones (its chain's arc at that level): budget / (c - c_1). */
static int64_t chain_room(const net *w, double budget, double c)
{
    double e = c - w->c[1];
    return e <= 0 ? w->in->m :
                    (int64_t)fmin((double)w->in->m, floor(budget / e + EPS));
}

/* The count flow at one target (closelev.h): the network and its base
 * capacities cap0 (without the inlet and the level-N arcs), or F0's
 * residual network once the base flow is taken. */
struct hta_countflow {
    const hta_instance *in;
    net w;
    dinic g;
    int32_t *stack;
    int64_t *cap0;
    int64_t K, cap_arc, chain0, chain_step;
    double budget;
    int none;      /* K < 0 or n K < m: nothing fits, every range refuted */
    int growing;   /* the top's cost grows: pieces, the base flow */
    int based;     /* F0 taken, cap0 its residual */
    int64_t F0;
    int32_t src, sink;
};

void hta_countflow_free(hta_countflow *cf)
{
    if (!cf)
        return;
    free(cf->cap0);
    free(cf->g.head);
    free(cf->g.nxt);
    free(cf->g.to);
    free(cf->g.cap);
    free(cf->g.level);
    free(cf->g.it);
    free(cf->g.queue);
    free(cf->stack);
    closelev_net_free(&cf->w);
    free(cf);
}

hta_status hta_countflow_new(const hta_instance *in, double T,
                             hta_countflow **out, hta_diag *d)
{
    *out = NULL;
    hta_countflow *cf = calloc(1, sizeof *cf);
    if (!cf)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    cf->in = in;
    net *w = &cf->w;
    dinic *g = &cf->g;
    if (!closelev_net_build(w, in, T, NAN, in->m)) {
        hta_countflow_free(cf);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    int N = w->N;
    int32_t n = w->n;
    double c1 = w->c[1];
    /* K_s = floor(T / c1) tasks at most per server; D the count's slack */
    int64_t K = (int64_t)floor(T / c1 + EPS);
    int64_t D = (int64_t)n * K - in->m;
    cf->K = K;
    if (K < 0 || D < 0) {
        cf->none = 1;
        *out = cf;
        return HTA_OK;
    }
    int64_t kmin = K - D > 0 ? K - D : 0;
    double budget = cf->budget = T - c1 * (double)kmin; /* beyond c1 */
    /* nodes: source, groups, pools, (s, l) for l = 1..N, sink, and the
       top pool's inlet (its arc to the pool caps the level-N count) */
    int32_t src = 0, g0 = 1, p0 = g0 + w->ng, s0 = p0 + (w->nt - n),
            sink = s0 + n * N, inlet = sink + 1,
            top = p0 + w->base[N] - n;
    cf->src = src;
    cf->sink = sink;
    g->nv = inlet + 1;
    g->head = malloc(((size_t)g->nv + 1) * sizeof *g->head);
    g->level = malloc(((size_t)g->nv + 1) * sizeof *g->level);
    g->it = malloc(((size_t)g->nv + 1) * sizeof *g->it);
    g->queue = malloc(((size_t)g->nv + 1) * sizeof *g->queue);
    cf->stack = malloc(((size_t)g->nv + 1) * sizeof *cf->stack);
    int ok = g->head && g->level && g->it && g->queue && cf->stack;
    for (int32_t v = 0; ok && v < g->nv; v++)
        g->head[v] = -1;
    for (int32_t x = 0; ok && x < w->ng; x++) {
        ok = dinic_arc(g, src, g0 + x, w->first[x + 1] - w->first[x]);
        for (int64_t e = w->goff[x]; ok && e < w->goff[x + 1]; e++) {
            int32_t y = w->gtgt[e], v = y < n ? s0 + y * N : p0 + y - n;
            ok = dinic_arc(g, g0 + x, v == top ? inlet : v, in->m);
        }
    }
    cf->cap_arc = g->na; /* inlet -> top pool */
    if (ok)
        ok = dinic_arc(g, inlet, top, in->m);
    for (int l = 2; ok && l <= N; l++)
        for (int32_t s = 0; ok && s < n; s++)
            ok = dinic_arc(g, p0 + closelev_pool_of(w, l, s) - n,
                           s0 + s * N + l - 1, in->m);
    cf->chain0 = g->na; /* server s's arc (s, N) -> (s, N - 1) */
    for (int32_t s = 0; ok && s < n; s++) {
        for (int l = N; ok && l >= 2; l--) /* tasks at level >= l */
            ok = dinic_arc(g, s0 + s * N + l - 1, s0 + s * N + l - 2,
                           chain_room(w, budget, w->c[l]));
        if (ok)
            ok = dinic_arc(g, s0 + s * N, sink, K);
    }
    cf->chain_step = 2 * N; /* arcs per server in the chains' loop */
    if (ok && (cf->cap0 = malloc(((size_t)g->na + 1) * sizeof *cf->cap0)))
        memcpy(cf->cap0, g->cap, (size_t)g->na * sizeof *cf->cap0);
    if (!ok || !cf->cap0) {
        hta_countflow_free(cf);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    /* the base network: no inlet, no level-N arcs (a piece adds its cap
       and its room to them) */
    cf->cap0[cf->cap_arc] = 0;
    for (int32_t s = 0; s < n; s++)
        cf->cap0[cf->chain0 + (int64_t)s * cf->chain_step] = 0;
    cf->growing = !hta_wrem_is_constant(hta_level_wrem(in, N));
    *out = cf;
    return HTA_OK;
}

/* The chain's level-N room when R tasks are at level N. */
static int64_t room_at(const hta_countflow *cf, const hta_wrem *wr,
                       int64_t R)
{
    return chain_room(&cf->w, cf->budget, hta_wrem_at(wr, R));
}

/* The top counts r0..r1 by pieces of one chain room q: every count R of a
 * piece has cost w_rem(R) >= the piece's first (room <= q) and R <= its
 * last (the cap), so one flow refutes the piece.  A growing top first
 * takes the base flow F0, without the inlet and the chains' level-N arcs
 * (once per target): a level-N arc is reached only through the inlet, so
 * a piece's flow is F0 plus at most its cap (R < m - F0 refutes it at
 * once), and from F0's residual network (a flow of every piece's, whose
 * capacities are only larger) a piece only augments. */
hta_status hta_countflow_refute(hta_countflow *cf, int64_t r0, int64_t r1,
                                double deadline, volatile sig_atomic_t *stop,
                                int *refuted, int64_t *room, int *stopped,
                                hta_diag *d)
{
    (void)d;
    const hta_instance *in = cf->in;
    dinic *g = &cf->g;
    int32_t n = cf->w.n;
    *refuted = 0;
    *room = in->m;
    *stopped = 0;
    r0 = r0 < 0 ? 0 : r0;
    r1 = r1 > in->m ? in->m : r1;
    if (r0 > r1 || cf->none) { /* no top count, or nothing fits */
        *refuted = 1;
        *room = cf->none && cf->K > 0 ? (int64_t)n * cf->K : 0;
        return HTA_OK;
    }
    g->deadline = deadline;
    g->stop = stop;
    g->stopped = 0;
    const hta_wrem *wr = hta_level_wrem(in, cf->w.N);
    if (cf->growing && !cf->based) {
        memcpy(g->cap, cf->cap0, (size_t)g->na * sizeof *g->cap);
        cf->F0 = dinic_run(g, cf->src, cf->sink, cf->stack);
        if (g->stopped) {
            *stopped = 1; /* a flow cut short refutes nothing */
            return HTA_OK;
        }
        memcpy(cf->cap0, g->cap, (size_t)g->na * sizeof *g->cap);
        cf->based = 1;
    }
    int64_t most = cf->F0;
    for (int64_t R = r0; R <= r1;) {
        int64_t q = room_at(cf, wr, R), lo = R,
                hi = r1 + 1; /* lo has room q, hi does not */
        if (room_at(cf, wr, r1) == q)
            lo = r1;
        else
            while (hi - lo > 1) {
                int64_t mid = lo + (hi - lo) / 2;
                if (room_at(cf, wr, mid) == q)
                    lo = mid;
                else
                    hi = mid;
            }
        int64_t flow;
        if (cf->based && cf->F0 + lo < in->m) {
            flow = cf->F0 + lo; /* at most */
        } else {
            memcpy(g->cap, cf->cap0, (size_t)g->na * sizeof *g->cap);
            g->cap[cf->cap_arc] += lo;
            for (int32_t s = 0; s < n; s++)
                g->cap[cf->chain0 + (int64_t)s * cf->chain_step] += q;
            flow = cf->F0 + dinic_run(g, cf->src, cf->sink, cf->stack);
        }
        if (g->stopped)
            break;
        most = flow > most ? flow : most;
        if (flow >= in->m)
            break;
        R = lo + 1;
        if (R > r1)
            *refuted = 1;
    }
    /* a flow cut short refutes nothing */
    *stopped = g->stopped;
    *room = *refuted ? most : in->m;
    if (g->stopped)
        *refuted = 0;
    return HTA_OK;
}

hta_status hta_closelev_refute(const hta_instance *in, double T, int64_t r0,
                               int64_t r1, double deadline,
                               volatile sig_atomic_t *stop, int *refuted,
                               int64_t *room, int *stopped, hta_diag *d)
{
    *refuted = 0;
    *room = in->m;
    *stopped = 0;
    hta_countflow *cf;
    hta_status st = hta_countflow_new(in, T, &cf, d);
    if (st == HTA_OK)
        st = hta_countflow_refute(cf, r0, r1, deadline, stop, refuted, room,
                                  stopped, d);
    hta_countflow_free(cf);
    return st;
}
