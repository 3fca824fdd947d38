/* Gap closing on N > 2 levels (closelev.h), the slot search: slots, a
 * maximum flow kept up to date by augmenting paths, and moves that trade
 * local slots for slots of a farther level. */
#include "closelev.h"
#include "closelev_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/levels.h"
#include "hta/num.h"

#define EPS CLOSELEV_EPS
/* Moves that did not grow the flow, at most, in a round (closelev.h). */
#define FAILS_PER_ROUND 32

typedef struct move {
    int64_t loss;
    int32_t s;
    int l, j;
} move;

/* Fills what is left of s's budget with local slots; -1 when the other
 * slots pass it. */
static int64_t local_slots(const net *w, int32_t s)
{
    double nl = 0;
    for (int l = 2; l <= w->N; l++)
        nl += w->c[l] * (double)w->slot[(size_t)s * w->N + l - 1];
    double room = w->T - nl;
    if (room < -EPS * fmax(1.0, w->T))
        return -1;
    return (int64_t)floor(room / w->c[1] + EPS);
}

/* Takes flow off target x until it fits its capacity. */
static void shrink(net *w, int32_t x)
{
    for (int64_t k = w->toff[x]; w->used[x] > w->cap[x] && k < w->toff[x + 1];
         k++) {
        int64_t e = w->tarc[k];
        int64_t d = w->flow[e] < w->used[x] - w->cap[x] ?
                        w->flow[e] : w->used[x] - w->cap[x];
        w->flow[e] -= d;
        w->used[x] -= d;
        w->ex[w->agrp[e]] += d;
        w->placed -= d;
    }
}

/* A breadth-first search from the groups with tasks left: the target
 * with room an augmenting path ends at, or -1 (the nodes reached carry
 * the stamp). */
static int32_t search(net *w)
{
    int32_t head = 0, tail = 0, ng = w->ng;
    if (++w->stamp == 0) {
        memset(w->seen, 0, ((size_t)ng + (size_t)w->nt) * sizeof *w->seen);
        w->stamp = 1;
    }
    for (int32_t g = 0; g < ng; g++)
        if (w->ex[g] > 0) {
            w->seen[g] = w->stamp;
            w->via[g] = -1;
            w->queue[tail++] = g;
        }
    while (head < tail) {
        int32_t u = w->queue[head++];
        if (u < ng) {
            for (int64_t e = w->goff[u]; e < w->goff[u + 1]; e++) {
                int32_t x = w->gtgt[e];
                if (w->seen[ng + x] == w->stamp)
                    continue;
                w->seen[ng + x] = w->stamp;
                w->via[ng + x] = e;
                if (w->used[x] < w->cap[x])
                    return x;
                w->queue[tail++] = ng + x;
            }
        } else {
            int32_t x = u - ng;
            for (int64_t k = w->toff[x]; k < w->toff[x + 1]; k++) {
                int64_t e = w->tarc[k];
                int32_t g = w->agrp[e];
                if (w->flow[e] > 0 && w->seen[g] != w->stamp) {
                    w->seen[g] = w->stamp;
                    w->via[g] = e;
                    w->queue[tail++] = g;
                }
            }
        }
    }
    return -1;
}

/* One unit along the path search found, ending at target x. */
static void augment_path(net *w, int32_t x)
{
    w->used[x]++;
    w->placed++;
    for (;;) {
        int64_t e = w->via[w->ng + x];
        w->flow[e]++;
        int32_t g = w->agrp[e];
        if (w->via[g] < 0) {
            w->ex[g]--;
            return;
        }
        int64_t back = w->via[g];
        w->flow[back]--;
        x = w->gtgt[back];
    }
}

/* A maximum flow from the current one: a greedy fill of each group's
 * arcs, then augmenting paths; the last search's stamp marks what the
 * tasks left reach. */
static void maxflow(net *w)
{
    for (int32_t g = 0; g < w->ng; g++)
        for (int64_t e = w->goff[g]; w->ex[g] > 0 && e < w->goff[g + 1];
             e++) {
            int32_t x = w->gtgt[e];
            int64_t d = w->cap[x] - w->used[x];
            if (d > w->ex[g])
                d = w->ex[g];
            if (d > 0) {
                w->flow[e] += d;
                w->used[x] += d;
                w->ex[g] -= d;
                w->placed += d;
            }
        }
    int32_t x;
    for (int64_t k = 1; w->placed < w->in->m && (x = search(w)) >= 0; k++) {
        augment_path(w, x);
        if (k % CLOSELEV_POLL_EVERY == 0 && w->placed < w->in->m &&
            (hta_clock_now() > w->deadline || (w->stop && *w->stop))) {
            w->stopped = 1; /* a flow, not a maximum one */
            return;
        }
    }
}

/* Adds j slots of level l to server s (j < 0 takes them back), the local
 * slots filling what is left; 0 when the budget does not allow it. */
static int add_slots(net *w, int32_t s, int l, int j)
{
    int32_t *a = &w->slot[(size_t)s * w->N];
    a[l - 1] += j;
    int64_t loc = local_slots(w, s);
    if (loc < 0) {
        a[l - 1] -= j;
        return 0;
    }
    int32_t p = closelev_pool_of(w, l, s);
    if (l == w->N) { /* the top pool holds at most topcap tasks */
        w->topslots += j;
        w->cap[p] = w->topslots < w->topcap ? w->topslots : w->topcap;
    } else {
        w->cap[p] += j;
    }
    shrink(w, p);
    a[0] = (int32_t)loc;
    w->cap[s] = loc;
    shrink(w, s);
    return 1;
}

static int cmp_move(const void *x, const void *y)
{
    const move *p = x, *q = y;
    if (p->loss != q->loss)
        return p->loss < q->loss ? -1 : 1;
    if (p->l != q->l)
        return p->l - q->l;
    if (p->s != q->s)
        return p->s < q->s ? -1 : 1;
    return p->j - q->j;
}

/* The idle local slots of each level-2 group's servers into w->gidle. */
static void group_idle(net *w)
{
    const int32_t *grp = w->in->grp[2];
    memset(w->gidle, 0, (size_t)w->in->ngrp[2] * sizeof *w->gidle);
    for (int32_t s = 0; s < w->n; s++)
        w->gidle[grp[s]] += w->cap[s] - w->used[s];
}

/* The moves at the pools the last search reached, by loss: *k of them in
 * *bufp (grown as needed, *cap entries).  A top slot's loss counts the
 * idle local slots of the server's whole level-2 group (its rack), where
 * the tasks it displaces find room (closelev.h).  0 on out of memory. */
static int moves_of(net *w, move **bufp, size_t *k, size_t *cap)
{
    move *buf = *bufp;
    *k = 0;
    if (w->cold)
        group_idle(w);
    for (int l = 2; l <= w->N; l++) {
        int32_t p0 = w->base[l], p1 = l == w->N ? w->nt : w->base[l + 1];
        for (int32_t p = p0; p < p1; p++) {
            if (w->seen[w->ng + p] != w->stamp ||
                (l == w->N && w->topslots >= w->topcap))
                continue; /* a top slot past the cap places nothing */
            for (int32_t i = w->moff[p]; i < w->moff[p + 1]; i++) {
                int32_t s = w->mem[i];
                for (int j = 1; j <= 2; j++) {
                    int32_t *a = &w->slot[(size_t)s * w->N];
                    a[l - 1] += j;
                    int64_t loc = local_slots(w, s);
                    a[l - 1] -= j;
                    if (loc < 0)
                        break;
                    int64_t lost = a[0] - loc,
                            idle = w->cap[s] - w->used[s];
                    if (l == w->N && w->cold)
                        idle = w->gidle[w->in->grp[2][s]];
                    if (*k == *cap) {
                        size_t nc = *cap ? 2 * *cap : 256;
                        move *nb = realloc(buf, nc * sizeof *nb);
                        if (!nb)
                            return 0; /* *bufp, still the caller's */
                        buf = *bufp = nb;
                        *cap = nc;
                    }
                    buf[(*k)++] = (move){(lost > idle ? lost - idle : 0) - j,
                                         s, l, j};
                }
            }
        }
    }
    if (*k > 1)
        qsort(buf, *k, sizeof *buf, cmp_move);
    return 1;
}

/* The assignment of a full flow: local arcs name their server; a pool's
 * tasks are dealt to its servers by their slots.  0 on out of memory. */
static int read_out(net *w, int32_t *a)
{
    int64_t *fill = w->via; /* per pool: the next free place in list */
    int32_t *list = malloc(((size_t)w->in->m + 1) * sizeof *list);
    if (!list)
        return 0;
    int64_t at = 0;
    for (int32_t x = w->n; x < w->nt; x++) {
        fill[x] = at;
        at += w->used[x];
    }
    for (int32_t g = 0; g < w->ng; g++) {
        int32_t cur = w->first[g];
        for (int64_t e = w->goff[g]; e < w->goff[g + 1]; e++)
            for (int64_t f = w->flow[e]; f > 0; f--) {
                int32_t t = w->order[cur++];
                if (w->gtgt[e] < w->n)
                    a[t] = w->gtgt[e];
                else
                    list[fill[w->gtgt[e]]++] = t;
            }
    }
    at = 0;
    for (int32_t x = w->n; x < w->nt; x++) {
        int64_t end = at + w->used[x];
        int l = 2;
        while (l < w->N && x >= w->base[l + 1])
            l++;
        for (int32_t i = w->moff[x]; i < w->moff[x + 1] && at < end; i++) {
            int32_t s = w->mem[i];
            for (int32_t k = 0; k < w->slot[(size_t)s * w->N + l - 1] &&
                                at < end;
                 k++)
                a[list[at++]] = s;
        }
    }
    free(list);
    return 1;
}

/* The moves until every task has a slot, no move of a round grows the
 * flow, or the deadline or the stop flag; 0 on out of memory. */
static int run_moves(net *w, move **mv, size_t *nmv, size_t *cap,
                     hta_closelev_result *r)
{
    while (w->placed < w->in->m && !w->stopped) {
        if (!moves_of(w, mv, nmv, cap))
            return 0;
        int gained = 0, fails = 0;
        for (size_t i = 0; i < *nmv && !gained && fails < FAILS_PER_ROUND;
             i++) {
            if (hta_clock_now() > w->deadline || (w->stop && *w->stop)) {
                w->stopped = 1;
                break;
            }
            const move *x = &(*mv)[i];
            int64_t before = w->placed;
            if (!add_slots(w, x->s, x->l, x->j))
                continue;
            r->trials++;
            maxflow(w);
            if (w->stopped)
                break;
            if (w->placed > before) {
                gained = 1;
                r->moves++;
            } else {
                fails++;
                add_slots(w, x->s, x->l, -x->j);
                maxflow(w);
                if (w->stopped)
                    break;
            }
        }
        if (!gained)
            break;
        /* the stamp of the last search marks what the tasks left reach */
    }
    if (w->stopped)
        r->stopped = 1;
    return 1;
}

/* The top at cost c with at most cap tasks, the slots kept: a server's
 * top slots past its budget are taken back (all of them when cold), the
 * local ones refilled. */
static void retop(net *w, double c, int64_t cap, int cold)
{
    int N = w->N;
    int32_t p = w->base[N];
    w->c[N] = c;
    w->topcap = cap < w->in->m ? cap : w->in->m;
    if (cold) {
        for (int32_t s = 0; s < w->n; s++)
            w->slot[(size_t)s * N + N - 1] = 0;
        w->topslots = 0;
    }
    for (int32_t s = 0; s < w->n; s++) {
        int32_t *a = &w->slot[(size_t)s * N];
        int64_t loc;
        while ((loc = local_slots(w, s)) < 0 && a[N - 1] > 0) {
            a[N - 1]--;
            w->topslots--;
        }
        a[0] = (int32_t)(loc > 0 ? loc : 0);
        w->cap[s] = a[0];
        shrink(w, s);
    }
    w->cap[p] = w->topslots < w->topcap ? w->topslots : w->topcap;
    shrink(w, p);
}

hta_status hta_closelev_decide_seq(const hta_instance *in, double T,
                                   const hta_closelev_top *first,
                                   hta_closelev_next next, void *ctx,
                                   double deadline,
                                   volatile sig_atomic_t *stop, int32_t *a,
                                   hta_closelev_result *r, hta_diag *d)
{
    memset(r, 0, sizeof *r);
    r->which = -1;
    net w;
    move *mv = NULL;
    size_t nmv = 0, cap = 0;
    hta_status st = HTA_OK;
    double ctop = first ? first->c : hta_wrem_at(&in->wrem, in->m);
    if (!closelev_net_build(&w, in, T, ctop, first ? first->cap : in->m)) {
        closelev_net_free(&w);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    w.deadline = deadline;
    w.stop = stop;
    for (int32_t s = 0; s < w.n; s++) {
        int64_t loc = local_slots(&w, s);
        w.slot[(size_t)s * w.N] = (int32_t)(loc > 0 ? loc : 0);
        w.cap[s] = loc > 0 ? loc : 0;
    }
    maxflow(&w);
    r->start = w.placed;
    for (int k = 0, retried = 0;;) {
        int ok = run_moves(&w, &mv, &nmv, &cap, r);
        w.cold = 0;
        if (!ok) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            break;
        }
        if (w.stopped)
            break;
        if (k > 0 && !retried && w.placed < in->m) {
            /* the same setting once more, the top cold (closelev.h) */
            r->colds++;
            retried = w.cold = 1;
            retop(&w, w.c[w.N], w.topcap, 1);
            maxflow(&w);
            continue;
        }
        int full = w.placed == in->m;
        if (full && !read_out(&w, a)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            break;
        }
        hta_closelev_top nx;
        if (!next || !next(ctx, k, full, w.used[w.base[w.N]], &nx)) {
            r->found = full;
            r->which = full ? k : -1;
            break;
        }
        retop(&w, nx.c, nx.cap, 0);
        maxflow(&w);
        k++;
        retried = 0;
    }
    if (w.stopped)
        r->stopped = 1;
    free(mv);
    closelev_net_free(&w);
    return st;
}

hta_status hta_closelev_decide(const hta_instance *in, double T,
                               const hta_closelev_top *top, double deadline,
                               volatile sig_atomic_t *stop, int32_t *a,
                               hta_closelev_result *r, hta_diag *d)
{
    return hta_closelev_decide_seq(in, T, top, NULL, NULL, deadline, stop,
                                   a, r, d);
}
