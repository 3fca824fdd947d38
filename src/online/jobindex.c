/* Fair sharing's and delay scheduling's question "the queued task of job
 * j with the least level for server m" in O(levels) hash look-ups instead
 * of a scan of the job's queued tasks (sim_impl.h's jobindex).
 *
 * Per job, level n < N and group g of that level (n = 1: a server), the
 * list of the job's queued tasks with a replica in g, in the job's FIFO
 * order: a task has level <= n for server m exactly when it is on the
 * list of m's level-n group.  So the least level is the least n whose
 * list exists, and the scan's answer, the first task in FIFO order at
 * that level, is the list's head (no task has a lower level); with no
 * list at any n < N every task has level N and the answer is the job's
 * head.  A task is on one list per level and distinct group of its
 * replicas: its entries are slots k * E + i of two link arrays, E the
 * most any type needs, i the type's i-th (level, group).  The lists'
 * heads and tails live in an open-addressing table keyed by (job, level,
 * group), a list's key deleted when it empties (backward shift).  A job
 * is indexed from its first scan that reads more than SIM_JX_FROM tasks
 * until its queue empties: a scan that soon meets a local task is as
 * fast without the index's upkeep (measured: fair with heavy-tailed jobs
 * on an overloaded cluster lost 23% when every job was indexed, 13% with
 * every job of 32 queued tasks or more). */
#include <string.h>
#include "core/buf.h"
#include "sim_impl.h"

static uint64_t key_of(int64_t n, int64_t g)
{
    return (uint64_t)g * HTA_MAX_LEVELS + (uint64_t)n;
}

static size_t slot_hash(const jobindex *x, int64_t j, uint64_t key)
{
    uint64_t h = ((uint64_t)j * 0x9E3779B97F4A7C15ull) ^
                 (key * 0xC2B2AE3D27D4EB4Full);
    h ^= h >> 31;
    return (size_t)(h & (x->cap - 1));
}

/* The slot of (j, key), or of the empty slot where it would go. */
static size_t find(const jobindex *x, int64_t j, uint64_t key)
{
    size_t i = slot_hash(x, j, key);
    while (x->slot[i].job >= 0 &&
           (x->slot[i].job != j || x->slot[i].key != key))
        i = (i + 1) & (x->cap - 1);
    return i;
}

/* Doubles the table (or makes it); -1 when out of memory. */
static int grow(jobindex *x)
{
    size_t cap = x->cap ? 2 * x->cap : 64;
    jslot *old = x->slot;
    size_t ocap = x->cap;
    x->slot = malloc(cap * sizeof *x->slot);
    if (!x->slot) {
        x->slot = old;
        return -1;
    }
    x->cap = cap;
    for (size_t i = 0; i < cap; i++)
        x->slot[i].job = -1;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].job >= 0)
            x->slot[find(x, old[i].job, old[i].key)] = old[i];
    free(old);
    return 0;
}

/* Empties slot i, moving later slots of its run back (linear probing's
 * deletion without tombstones). */
static void erase(jobindex *x, size_t i)
{
    size_t mask = x->cap - 1;
    for (size_t k = (i + 1) & mask; x->slot[k].job >= 0; k = (k + 1) & mask) {
        size_t home = slot_hash(x, x->slot[k].job, x->slot[k].key);
        /* k may move to i when its home is not in (i, k] cyclically */
        if (((k - home) & mask) >= ((k - i) & mask)) {
            x->slot[i] = x->slot[k];
            i = k;
        }
    }
    x->slot[i].job = -1;
    x->n--;
}

int sim_jobindex_init(sim *s)
{
    jobindex *x = &s->jx;
    const hta_cluster *c = s->c;
    x->off = malloc(((size_t)c->T + 1) * sizeof *x->off);
    if (!x->off)
        return -1;
    size_t need = 0;
    for (int pass = 0; pass < 2; pass++) {
        int64_t at = 0;
        for (int64_t L = 0; L < c->T; L++) {
            x->off[L] = at;
            for (int n = 1; n < s->N; n++)
                for (int64_t a = c->off[L]; a < c->off[L + 1]; a++) {
                    int64_t g = n == 1 ? c->srv[a] :
                                         group_index(s, c->srv[a], n);
                    int dup = 0;
                    for (int64_t b = c->off[L]; b < a && !dup; b++)
                        dup = (n == 1 ? c->srv[b] :
                                        group_index(s, c->srv[b], n)) == g;
                    if (dup)
                        continue;
                    if (pass == 1)
                        x->key[at] = key_of(n, g);
                    at++;
                }
            int64_t e = at - x->off[L];
            if (e > x->E)
                x->E = (int)e;
        }
        x->off[c->T] = at;
        if (pass == 0) {
            need = (size_t)at;
            x->key = malloc((need ? need : 1) * sizeof *x->key);
            if (!x->key)
                return -1;
        }
    }
    return grow(x);
}

void sim_jobindex_free(sim *s)
{
    free(s->jx.off);
    free(s->jx.key);
    free(s->jx.slot);
    free(s->jx.prev);
    free(s->jx.next);
    free(s->jx.on);
}

/* Task k joins its job's lists (at their tails). */
static int add_one(sim *s, int64_t k)
{
    jobindex *x = &s->jx;
    int64_t L = s->tk[k].type, j = s->tk[k].job;
    for (int64_t i = x->off[L]; i < x->off[L + 1]; i++) {
        if ((size_t)(2 * (x->n + 1)) > x->cap && grow(x) != 0)
            return -1;
        uint64_t key = x->key[i];
        size_t at = find(x, j, key);
        int64_t e = k * x->E + (i - x->off[L]);
        x->next[e] = -1;
        if (x->slot[at].job < 0) {
            x->slot[at] = (jslot){j, key, e, e};
            x->n++;
            x->prev[e] = -1;
        } else {
            x->prev[e] = x->slot[at].tail;
            x->next[x->slot[at].tail] = e;
            x->slot[at].tail = e;
        }
    }
    return 0;
}

int sim_jobindex_add(sim *s, int64_t k)
{
    jobindex *x = &s->jx;
    int64_t j = s->tk[k].job;
    size_t need = (size_t)(k + 1) * (size_t)x->E;
    if (!HTA_RESERVE(x->prev, x->cap_prev, need) ||
        !HTA_RESERVE(x->next, x->cap_next, need))
        return -1;
    if ((size_t)j >= x->n_on) {
        if (!HTA_RESERVE(x->on, x->cap_on, (size_t)j + 1))
            return -1;
        memset(x->on + x->n_on, 0, (size_t)j + 1 - x->n_on);
        x->n_on = (size_t)j + 1;
    }
    return x->on[j] ? add_one(s, k) : 0;
}

void sim_jobindex_build(sim *s, int64_t j)
{
    jobindex *x = &s->jx;
    size_t need = (size_t)x->n + (size_t)s->j_nq[j] * (size_t)x->E;
    while (2 * need > x->cap)
        if (grow(x) != 0)
            return; /* no room: the job stays scanned */
    x->on[j] = 1;
    for (int64_t q = s->j_head[j]; q >= 0; q = s->tk[q].next)
        (void)add_one(s, q); /* the table has room: cannot fail */
}

void sim_jobindex_remove(sim *s, int64_t k)
{
    jobindex *x = &s->jx;
    int64_t L = s->tk[k].type, j = s->tk[k].job;
    if (!x->on[j])
        return;
    if (s->j_nq[j] == 1)
        x->on[j] = 0; /* its last task: the lists go with it */
    for (int64_t i = x->off[L]; i < x->off[L + 1]; i++) {
        int64_t e = k * x->E + (i - x->off[L]);
        size_t at = find(x, j, x->key[i]);
        if (x->prev[e] >= 0)
            x->next[x->prev[e]] = x->next[e];
        else
            x->slot[at].head = x->next[e];
        if (x->next[e] >= 0)
            x->prev[x->next[e]] = x->prev[e];
        else
            x->slot[at].tail = x->prev[e];
        if (x->slot[at].head < 0)
            erase(x, at);
    }
}

int64_t sim_jobindex_best(sim *s, int64_t j, int32_t m, int allowed)
{
    const jobindex *x = &s->jx;
    if (!x->on[j])
        return -2;
    for (int n = 1; n <= allowed && n < s->N; n++) {
        int64_t g = n == 1 ? m : group_index(s, m, n);
        size_t at = find(x, j, key_of(n, g));
        if (x->slot[at].job >= 0) {
            s->pick_level = n;
            return x->slot[at].head / x->E;
        }
    }
    if (allowed >= s->N && s->j_head[j] >= 0) {
        s->pick_level = s->N;
        return s->j_head[j];
    }
    s->pick_level = 0;
    return -1;
}
