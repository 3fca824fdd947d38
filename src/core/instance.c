/* The instance model (Fischer-Su-Yin, Definitions 2, 3 and 7): costs,
 * names, the working servers, building from CSR arrays with every rule
 * of format v1 checked, the server side of the placement graph, groups
 * of identical replica sets, equality.  The reader is read.c, the
 * writer write.c. */
#include "hta/instance.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hta/gate.h"
#include "hta/levels.h"
#include "hta/num.h"
#include "core/buf.h"
#include "instance_impl.h"
#include "levels_apply.h"

double hta_wrem_at(const hta_wrem *w, int64_t r)
{
    if (w->kind == HTA_WREM_AFFINE)
        return w->a + w->b * (double)r;
    return w->v[r < w->k ? r : w->k];
}

int hta_instance_exact_costs(const hta_instance *inst)
{
    const hta_wrem *w = &inst->wrem;
    double top = hta_wrem_at(w, inst->m);
    if (inst->w_loc != floor(inst->w_loc) || top * inst->m > 0x1p53)
        return 0;
    if (w->kind == HTA_WREM_AFFINE)
        return w->a == floor(w->a) && w->b == floor(w->b);
    for (int64_t i = 0; i <= w->k; i++)
        if (w->v[i] != floor(w->v[i]))
            return 0;
    return 1;
}

int hta_wrem_is_constant(const hta_wrem *w)
{
    if (w->kind == HTA_WREM_AFFINE)
        return w->b == 0.0;
    return w->v[0] == w->v[w->k];
}

void hta_format_real(char buf[32], double x)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

static void free_names(char **names, int32_t count)
{
    if (!names)
        return;
    for (int32_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

void hta_instance_free(hta_instance *inst)
{
    if (!inst)
        return;
    free_names(inst->task_name, inst->m);
    free_names(inst->server_name, inst->n);
    free_names(inst->server_rack, inst->n);
    hta_levels_free(inst);
    free(inst->wrem.v);
    free(inst->task_off);
    free(inst->task_srv);
    free(inst->srv_off);
    free(inst->srv_task);
    free(inst);
}

/* Grows an array of old entries to count, the new ones zero. */
static int grow_zero(void **p, size_t size, int32_t old, int32_t count)
{
    if (!*p)
        return 1;
    char *q = realloc(*p, ((size_t)count + 1) * size);
    if (!q)
        return 0;
    memset(q + (size_t)old * size, 0, (size_t)(count - old) * size);
    *p = q;
    return 1;
}

/* Makes servers n..upto-1 working ones (instance.h): empty replica lists,
 * no names yet.  A name for a server beyond the working ones needs it
 * (levels need every server's rack). */
static int work_upto(hta_instance *inst, int32_t upto)
{
    int32_t old = inst->n;
    if (upto <= old)
        return 1;
    int64_t *off = realloc(inst->srv_off, ((size_t)upto + 1) * sizeof *off);
    if (!off)
        return 0;
    inst->srv_off = off;
    for (int32_t s = old + 1; s <= upto; s++)
        off[s] = off[old];
    if (!grow_zero((void **)&inst->server_name, sizeof(char *), old, upto) ||
        !grow_zero((void **)&inst->server_rack, sizeof(char *), old, upto))
        return 0;
    inst->n = upto;
    return 1;
}

hta_status hta_instance_set_name(hta_instance *inst, char kind, int32_t id,
                                 const char *name, hta_diag *d)
{
    hta_status st = hta_gate_name(kind, name ? name : "",
                                  name ? strlen(name) : 0, NULL, 0, d);
    if (st != HTA_OK)
        return st;
    int32_t count = kind == 't' ? inst->m : inst->n_declared;
    if (id < 0 || id >= count)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected a %s id in [0, %ld], found %ld",
                            kind == 't' ? "task" : "server", (long)count - 1,
                            (long)id);
    if (kind == 'r' && hta_levels(inst) > 2)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected the rack paths before the levels "
                            "(hta_instance_set_levels makes the groups "
                            "from them), found an instance of %d levels",
                            hta_levels(inst));
    if (kind != 't' && id >= inst->n && !work_upto(inst, id + 1))
        goto oom;
    char ***slot = kind == 't' ? &inst->task_name :
                   kind == 's' ? &inst->server_name :
                                 &inst->server_rack;
    if (!*slot && !(*slot = calloc((size_t)(kind == 't' ? inst->m : inst->n),
                                   sizeof **slot)))
        goto oom;
    size_t len = strlen(name);
    char *copy = malloc(len + 1);
    if (!copy)
        goto oom;
    memcpy(copy, name, len + 1);
    free((*slot)[id]);
    (*slot)[id] = copy;
    return HTA_OK;
oom:
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

const char *hta_instance_name(const hta_instance *inst, char kind, int64_t id)
{
    if (kind == 't')
        return inst->task_name && id >= 0 && id < inst->m ?
                   inst->task_name[id] :
                   NULL;
    char **names = kind == 's' ? inst->server_name :
                   kind == 'r' ? inst->server_rack :
                                 NULL;
    return names && id >= 0 && id < inst->n ? names[id] : NULL;
}

int hta_instance_is_local(const hta_instance *inst, int32_t t, int32_t s)
{
    if (t < 0 || t >= inst->m)
        return 0;
    for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
        if (inst->task_srv[i] == s)
            return 1;
    return 0;
}

/* The working server count: all declared servers, or the first k + m of
 * them, k = 1 + the largest server id named (hta_instance, above). */
int32_t core_working_servers(int64_t declared, int64_t k, int64_t m)
{
    return (int32_t)(declared < k + m ? declared : k + m);
}

/* Set by hta_instance_read_tuning (read.c). */
int core_read_threads = 0;
size_t core_read_window = CORE_READ_WINDOW;
size_t core_read_split_min = CORE_READ_SPLIT_MIN;

int core_threads_to_use(void)
{
    if (core_read_threads > 0)
        return core_read_threads;
#ifdef _SC_NPROCESSORS_ONLN
    return sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
#else
    return 1;
#endif
}

/* f(a) here and, when b is not NULL, f(b) in a second thread (after
 * f(a) when no thread can be had). */
void core_run_two(void *(*f)(void *), void *a, void *b)
{
    pthread_t th;
    int spawned = b && pthread_create(&th, NULL, f, b) == 0;
    f(a);
    if (spawned)
        pthread_join(th, NULL);
    else if (b)
        f(b);
}

/* One thread's share of the server side: tasks [t0, t1) for the count
 * and the scatter, groups [b0, b1) for the second pass by groups. */
typedef struct side_job {
    hta_instance *inst;
    int32_t t0, t1;
    int64_t *cnt;     /* count: replicas per server, at s + 1 */
    int64_t *fill;    /* each server's next slot */
    int shift;        /* by groups: servers s >> shift form a group */
    int64_t *at;      /* first pass: each group's next slot */
    uint16_t *within; /* each replica's server within its group */
    int b0, b1;
    const int64_t *start; /* each group's first slot */
    int32_t *group;   /* second pass: a group's task ids */
} side_job;

static void *count_run(void *arg)
{
    side_job *j = arg;
    const hta_instance *inst = j->inst;
    for (int64_t i = inst->task_off[j->t0]; i < inst->task_off[j->t1]; i++)
        j->cnt[inst->task_srv[i] + 1]++;
    return NULL;
}

static void *scatter_run(void *arg)
{
    side_job *j = arg;
    hta_instance *inst = j->inst;
    for (int32_t t = j->t0; t < j->t1; t++)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            inst->srv_task[j->fill[inst->task_srv[i]]++] = t;
    return NULL;
}

static void *first_pass_run(void *arg)
{
    side_job *j = arg;
    hta_instance *inst = j->inst;
    const int32_t low = ((int32_t)1 << j->shift) - 1;
    for (int32_t t = j->t0; t < j->t1; t++)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            int32_t s = inst->task_srv[i];
            int64_t k = j->at[s >> j->shift]++;
            inst->srv_task[k] = t;
            j->within[k] = (uint16_t)(s & low);
        }
    return NULL;
}

static void *second_pass_run(void *arg)
{
    side_job *j = arg;
    hta_instance *inst = j->inst;
    for (int b = j->b0; b < j->b1; b++) {
        int64_t lo = j->start[b], len = j->start[b + 1] - lo;
        const int64_t base = (int64_t)b << j->shift;
        memcpy(j->group, inst->srv_task + lo, (size_t)len * sizeof *j->group);
        for (int64_t k = 0; k < len; k++)
            inst->srv_task[j->fill[base + j->within[lo + k]]++] = j->group[k];
    }
    return NULL;
}

/* The server side in two passes when the servers are many.  One pass
 * writes each replica to its server's list: with 10^5 servers that is
 * 10^5 write streams, more lines than the caches hold, and every write
 * misses (a third of the parse of 10^7 tasks, which grew 12x for 10x the
 * input).  Instead: the replicas, in task order, to at most BLOCKS
 * groups of consecutive servers first (few streams; a power of two
 * servers each, so a shift finds the group), then each group's to its
 * servers (the group's lists fit in the cache).  A group's lists fill
 * exactly the part of srv_task between its first server's offset and the
 * next group's, so the first pass writes the task ids there already and
 * keeps only each replica's server within its group aside (2 bytes: a
 * group has at most 65536 servers, n <= 2^24); the second pass copies a
 * group's task ids out to a buffer of the largest group's size and puts
 * them back, each to its server's list.  Both passes keep task order, so
 * the lists come out the same.  Memory: 2 bytes per replica and the
 * largest group (it was 8 bytes per replica, the pairs (task, server):
 * their first touch was a tenth of the parse of 10^7 tasks, the kernel
 * clearing fresh pages).  0 when that cannot be had (the caller does it
 * in one pass). */
#define BLOCKS 256
#define BLOCKS_FROM 32768 /* servers: below, the lists stay in the cache */

/* The servers of a group: 1 << shift, BLOCKS groups at most; a power of
 * two, so a shift, not a division, finds a replica's group (the division
 * was a tenth of the first pass). */
static int group_shift(int32_t n)
{
    int shift = 0;
    while (((int64_t)BLOCKS << shift) < n)
        shift++;
    return shift;
}

/* The passes by groups, a and b (NULL: one thread) each with its tasks
 * and, in at, where its replicas start in each group (b's after a's). */
static int scatter_by_blocks(side_job *a, side_job *b)
{
    hta_instance *inst = a->inst;
    int32_t n = inst->n;
    int shift = a->shift;
    int64_t width = (int64_t)1 << shift;
    int blocks = (int)((n + width - 1) >> shift);
    int64_t start[BLOCKS + 1], widest = 0;
    for (int g = 0; g <= blocks; g++) {
        int64_t s = (int64_t)g * width;
        start[g] = inst->srv_off[s < n ? s : n];
        if (g > 0 && start[g] - start[g - 1] > widest)
            widest = start[g] - start[g - 1];
    }
    uint16_t *within =
        hta_malloc_huge(((size_t)inst->edges + 1) * sizeof *within);
    int32_t *group = malloc(((size_t)widest + 1) * sizeof *group);
    int32_t *group2 = b ? malloc(((size_t)widest + 1) * sizeof *group2) : NULL;
    if (!within || !group || (b && !group2)) {
        free(within);
        free(group);
        free(group2);
        return 0;
    }
    a->within = within;
    a->start = start;
    a->group = group;
    a->b0 = 0;
    a->b1 = blocks;
    if (b) { /* the second pass split where half the replicas are */
        b->within = within;
        b->start = start;
        b->group = group2;
        while (a->b1 > 1 && start[a->b1 - 1] >= inst->edges / 2)
            a->b1--;
        b->b0 = a->b1;
        b->b1 = blocks;
    }
    core_run_two(first_pass_run, a, b);
    core_run_two(second_pass_run, a, b);
    free(within);
    free(group);
    free(group2);
    return 1;
}

/* Fills the server side of the placement graph from the task side, each
 * server's list in task order.  With two threads (a second processor and
 * at least core_read_split_min bytes of replica ids) each pass is split: the
 * tasks at the replica in the middle (the count, the first pass by
 * groups, the one pass), where the second half's replicas start in each
 * list and each group known from the first half's counts, and the groups
 * at the middle (the second pass).  The same lists either way (tests
 * compare).  10^7 tasks x 10^5 servers: 0.22 -> 0.12 s (medians of 15,
 * side by side). */
int core_build_server_side(hta_instance *inst)
{
    int32_t n = inst->n, m = inst->m;
    int64_t edges = inst->edges;
    inst->srv_off = hta_calloc_huge((size_t)n + 1, sizeof *inst->srv_off);
    inst->srv_task =
        hta_malloc_huge(((size_t)edges + 1) * sizeof *inst->srv_task);
    if (!inst->srv_off || !inst->srv_task)
        return 0;
    side_job a = {0}, b = {0};
    int two = core_threads_to_use() > 1 && m > 1 &&
              (size_t)edges * sizeof *inst->task_srv >= core_read_split_min;
    int64_t *cnt2 = two ? hta_calloc_huge((size_t)n + 1, sizeof *cnt2) : NULL;
    two = cnt2 != NULL;
    int32_t mid = m;
    if (two) { /* the first task at or past half the replicas */
        int32_t lo = 1, hi = m - 1;
        while (lo < hi) {
            int32_t t = lo + (hi - lo) / 2;
            if (inst->task_off[t] >= edges / 2)
                hi = t;
            else
                lo = t + 1;
        }
        mid = lo;
    }
    a = (side_job){.inst = inst, .t0 = 0, .t1 = mid, .cnt = inst->srv_off};
    b = (side_job){.inst = inst, .t0 = mid, .t1 = m, .cnt = cnt2};
    core_run_two(count_run, &a, two ? &b : NULL);
    /* offsets; cnt2[s]: where the second half's tasks start in s's list;
       first[g]: the first half's replicas in group g */
    int shift = group_shift(n);
    int by_groups = n >= BLOCKS_FROM && shift <= 16; /* within: uint16 */
    int64_t first[BLOCKS] = {0};
    for (int32_t s = 0; s < n; s++) {
        int64_t ca = inst->srv_off[s + 1], cb = two ? cnt2[s + 1] : 0;
        if (two)
            cnt2[s] = inst->srv_off[s] + ca;
        if (by_groups)
            first[s >> shift] += ca;
        inst->srv_off[s + 1] = inst->srv_off[s] + ca + cb;
    }
    int64_t *fill = hta_malloc_huge(((size_t)n + 1) * sizeof *fill);
    if (!fill) {
        free(cnt2);
        return 0;
    }
    memcpy(fill, inst->srv_off, ((size_t)n + 1) * sizeof *fill);
    int done = 0;
    if (by_groups) {
        /* a cache line apart: each thread bumps its own at every replica */
        _Alignas(64) int64_t at_a[BLOCKS];
        _Alignas(64) int64_t at_b[BLOCKS];
        for (int g = 0; g < BLOCKS && ((int64_t)g << shift) < n; g++) {
            at_a[g] = inst->srv_off[(int64_t)g << shift];
            at_b[g] = at_a[g] + first[g];
        }
        a.shift = b.shift = shift;
        a.at = at_a;
        b.at = at_b;
        a.fill = b.fill = fill;
        done = scatter_by_blocks(&a, two ? &b : NULL);
    }
    if (!done) {
        a.fill = fill;
        b.fill = cnt2;
        core_run_two(scatter_run, &a, two ? &b : NULL);
    }
    free(fill);
    free(cnt2);
    return 1;
}

hta_status hta_wrem_copy(hta_wrem *dst, const hta_wrem *src)
{
    *dst = *src;
    dst->v = NULL;
    if (src->kind == HTA_WREM_TABLE) {
        dst->v = malloc(((size_t)src->k + 1) * sizeof *dst->v);
        if (!dst->v)
            return HTA_ERR_INTERNAL;
        memcpy(dst->v, src->v, ((size_t)src->k + 1) * sizeof *dst->v);
    }
    return HTA_OK;
}

/* Checks Definition 7 on a cost model; names the first violated rule. */
int hta_costs_finite(double w_loc, const hta_wrem *w, int64_t m)
{
    /* the largest load: every task on one server, remote */
    double top = fmax(w_loc, hta_wrem_at(w, m));
    return isfinite(top) && isfinite((double)m * top);
}

hta_status hta_instance_build(int32_t m, int32_t n, double w_loc,
                              const hta_wrem *wrem, const int64_t *off,
                              const int32_t *srv, hta_instance **out,
                              hta_diag *d)
{
    *out = NULL;
    if (m < 1 || n < 1 || n > HTA_MAX_SERVERS)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected m >= 1 and 1 <= n <= %lld, found m=%ld "
                            "n=%ld",
                            HTA_MAX_SERVERS, (long)m, (long)n);
    hta_status st = hta_gate_cost(w_loc, wrem, m, "w_rem", NULL, NULL, 0, d);
    if (st != HTA_OK)
        return st;
    if (off[0] != 0)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected off[0] = 0");
    int32_t *stamp = calloc((size_t)n, sizeof *stamp);
    hta_instance *inst = calloc(1, sizeof *inst);
    if (!stamp || !inst) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    for (int32_t t = 0; t < m; t++) {
        if (off[t + 1] <= off[t]) {
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "expected at least one server for task %ld",
                              (long)t);
            goto cleanup;
        }
        for (int64_t i = off[t]; i < off[t + 1]; i++) {
            if (srv[i] < 0 || srv[i] >= n) {
                st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                  "expected a server id in [0, %ld] for "
                                  "task %ld, found %ld",
                                  (long)n - 1, (long)t, (long)srv[i]);
                goto cleanup;
            }
            if (stamp[srv[i]] == t + 1) {
                st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                  "expected distinct servers for task %ld, "
                                  "found server %ld twice",
                                  (long)t, (long)srv[i]);
                goto cleanup;
            }
            stamp[srv[i]] = t + 1;
        }
    }
    int64_t k = 0;
    for (int64_t i = 0; i < off[m]; i++)
        k = srv[i] + 1 > k ? srv[i] + 1 : k;
    inst->m = m;
    inst->n_declared = n;
    inst->n = core_working_servers(n, k, m);
    inst->w_loc = w_loc;
    inst->edges = off[m];
    inst->task_off = malloc(((size_t)m + 1) * sizeof *inst->task_off);
    inst->task_srv = malloc(((size_t)off[m] + 1) * sizeof *inst->task_srv);
    if (!inst->task_off || !inst->task_srv ||
        hta_wrem_copy(&inst->wrem, wrem) != HTA_OK) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    memcpy(inst->task_off, off, ((size_t)m + 1) * sizeof *off);
    memcpy(inst->task_srv, srv, (size_t)off[m] * sizeof *srv);
    if (!core_build_server_side(inst)) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    *out = inst;
    inst = NULL;
cleanup:
    free(stamp);
    hta_instance_free(inst);
    return st;
}

/* ---- groups of identical replica sets --------------------------------- */

static int cmp_server(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* A task with its sorted replica list: the sort needs no global state. */
typedef struct replica_set {
    const int32_t *key; /* sorted servers */
    int64_t deg;
    int32_t t;
} replica_set;

static int same_set(const replica_set *a, const replica_set *b)
{
    return a->deg == b->deg &&
           memcmp(a->key, b->key, (size_t)a->deg * sizeof *a->key) == 0;
}

/* By size, then the sorted lists, then the task id. */
static int cmp_replica_set(const void *x, const void *y)
{
    const replica_set *a = x, *b = y;
    if (a->deg != b->deg)
        return a->deg < b->deg ? -1 : 1;
    int c = memcmp(a->key, b->key, (size_t)a->deg * sizeof *a->key);
    return c ? c : (a->t > b->t) - (a->t < b->t);
}

hta_status hta_instance_groups(const hta_instance *inst, int32_t *order,
                               int32_t *first, int32_t *ngroups,
                               hta_diag *d)
{
    int32_t *keys = malloc(((size_t)inst->edges + 1) * sizeof *keys);
    replica_set *sets = malloc(((size_t)inst->m + 1) * sizeof *sets);
    if (!keys || !sets) {
        free(keys);
        free(sets);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    memcpy(keys, inst->task_srv, (size_t)inst->edges * sizeof *keys);
    for (int32_t t = 0; t < inst->m; t++) {
        int64_t off = inst->task_off[t], deg = inst->task_off[t + 1] - off;
        qsort(keys + off, (size_t)deg, sizeof *keys, cmp_server);
        sets[t] = (replica_set){keys + off, deg, t};
    }
    qsort(sets, (size_t)inst->m, sizeof *sets, cmp_replica_set);
    int32_t g = 0;
    for (int32_t i = 0; i < inst->m; i++) {
        order[i] = sets[i].t;
        if (i == 0 || !same_set(&sets[i - 1], &sets[i]))
            first[g++] = i;
    }
    free(sets);
    first[g] = inst->m;
    *ngroups = g;
    free(keys);
    return HTA_OK;
}

static int names_equal(char **a, char **b, int32_t count)
{
    for (int32_t i = 0; i < count; i++) {
        const char *x = a ? a[i] : NULL, *y = b ? b[i] : NULL;
        if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0))
            return 0;
    }
    return 1;
}

static int costs_equal(const hta_wrem *a, const hta_wrem *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == HTA_WREM_AFFINE)
        return a->a == b->a && a->b == b->b;
    if (a->k != b->k)
        return 0;
    for (int64_t i = 0; i <= a->k; i++)
        if (a->v[i] != b->v[i])
            return 0;
    return 1;
}

int hta_instance_equal(const hta_instance *a, const hta_instance *b)
{
    if (a->m != b->m || a->n != b->n || a->n_declared != b->n_declared ||
        a->edges != b->edges || a->w_loc != b->w_loc ||
        !costs_equal(&a->wrem, &b->wrem) || hta_levels(a) != hta_levels(b))
        return 0;
    /* the groups follow from the rack names, compared below */
    for (int l = 2; l < hta_levels(a); l++)
        if (!costs_equal(&a->wlev[l], &b->wlev[l]))
            return 0;
    return memcmp(a->task_off, b->task_off,
                  ((size_t)a->m + 1) * sizeof *a->task_off) == 0 &&
           memcmp(a->task_srv, b->task_srv,
                  (size_t)a->edges * sizeof *a->task_srv) == 0 &&
           names_equal(a->task_name, b->task_name, a->m) &&
           names_equal(a->server_name, b->server_name, a->n) &&
           names_equal(a->server_rack, b->server_rack, a->n);
}
