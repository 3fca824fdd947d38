/* Max-cover (Fischer-Su-Yin, Section 5.1.1): two engines computing the same
 * f(tau), an incremental b-matching (Fact 5.1) and igraph_maxflow. */
#include "hta/maxcover.h"
#include "hta/buf.h"
#include "hta/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <igraph.h>

struct hta_maxcover {
    const hta_instance *inst;
    hta_maxflow_engine engine;
    int64_t tau, size;
    int64_t coverable; /* tasks not excluded */
    int32_t *cover; /* per task: server, -1 uncovered, -2 excluded */
    int32_t *loads; /* per server: covered tasks */
    int64_t *cap;   /* per server: capacity (tau in a sweep) */
    int32_t *nfree; /* per server: uncovered tasks local to it */
    hta_maxcover_stats stats;

    /* incremental engine */
    int64_t *next_free; /* per server: cursor over its tasks; the tasks
                           before it are all covered */
    int32_t *level;     /* per server: BFS layer, -1 unseen, -2 dead */
    int64_t *arc;       /* per server: current arc of the phase's DFS */
    int32_t *queue;     /* BFS queue, also the list of touched servers */
    int32_t *path_srv;  /* DFS stack: servers */
    int32_t *path_task; /* DFS stack: task leading to the next server */
    /* foreign lists: per server y, fl[srv_off[y] .. + fcnt[y]) holds y's
     * local tasks covered by another server, the only ones a backward
     * search from y can use (on a skewed placement 85% of a server's
     * covered local tasks are its own); fpos[i], for the task-major edge
     * i = (t, y), is t's place in y's list (from srv_off[y]), -1 if not
     * there; fx, beside fl, is the server covering the entry's task, so
     * the searches read the lists in order instead of cover[] at random
     * (a cover change rewrites it in each replica's list).  Built once the
     * phases have scanned the edges twice. */
    int32_t *fl, *fx, *fcnt, *fpos;
    int no_foreign;     /* out of memory for them: scan local tasks */
    int64_t scanned;    /* edges scanned by breadth-first searches */
    int logging;        /* 1 on, -1 lost (out of memory) */
    int32_t *log_t, *log_s; /* the change log */
    size_t log_cap_t, log_cap_s;
    int64_t log_len;

    /* igraph engine */
    igraph_t graph;
    int have_graph;
    igraph_vector_t capacity, flow;
    int have_vectors;
};

hta_status hta_igraph_error(int err, const char *what, hta_diag *d)
{
    if (err == IGRAPH_ENOMEM)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "igraph: %s: %s", what,
                        igraph_strerror((igraph_error_t)err));
}

void hta_igraph_init(void)
{
    igraph_set_error_handler(igraph_error_handler_ignore);
    igraph_set_warning_handler(igraph_warning_handler_ignore);
}

/* No foreign lists (phases scan every local task until they are built
 * again). */
static void foreign_drop(hta_maxcover *mc)
{
    free(mc->fl);
    free(mc->fx);
    free(mc->fcnt);
    free(mc->fpos);
    mc->fl = mc->fx = mc->fcnt = mc->fpos = NULL;
}

void hta_maxcover_free(hta_maxcover *mc)
{
    if (!mc)
        return;
    free(mc->cover);
    free(mc->loads);
    free(mc->cap);
    free(mc->nfree);
    free(mc->next_free);
    free(mc->level);
    free(mc->arc);
    free(mc->queue);
    free(mc->path_srv);
    free(mc->path_task);
    free(mc->log_t);
    free(mc->log_s);
    foreign_drop(mc);
    if (mc->have_graph)
        igraph_destroy(&mc->graph);
    if (mc->have_vectors) {
        igraph_vector_destroy(&mc->capacity);
        igraph_vector_destroy(&mc->flow);
    }
    free(mc);
}

int64_t hta_maxcover_size(const hta_maxcover *mc) { return mc->size; }
const int32_t *hta_maxcover_cover(const hta_maxcover *mc) { return mc->cover; }
const int32_t *hta_maxcover_loads(const hta_maxcover *mc) { return mc->loads; }
const int32_t *hta_maxcover_free_counts(const hta_maxcover *mc)
{
    return mc->nfree;
}
const hta_maxcover_stats *hta_maxcover_stats_get(const hta_maxcover *mc)
{
    return &mc->stats;
}

/* ---- igraph engine --------------------------------------------------- */

/* Vertices: 0 source, 1..m tasks, m+1..m+n servers, m+n+1 sink.  Edges in
 * this order: source->task (m), task->server (|E|, task-major), server->sink
 * (n); only the last n capacities change with tau. */
static hta_status igraph_setup(hta_maxcover *mc, hta_diag *d)
{
    const hta_instance *inst = mc->inst;
    int64_t m = inst->m, n = inst->n, e = inst->edges;
    igraph_integer_t nedges = m + e + n;
    igraph_vector_int_t el;
    hta_status st = HTA_OK;
    igraph_error_t err;
    if ((err = igraph_vector_int_init(&el, 2 * nedges)) != IGRAPH_SUCCESS)
        return hta_igraph_error(err, "cannot allocate the edge list", d);
    igraph_integer_t k = 0;
    for (int64_t t = 0; t < m; t++) {
        VECTOR(el)[k++] = 0;
        VECTOR(el)[k++] = 1 + t;
    }
    for (int64_t t = 0; t < m; t++)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            VECTOR(el)[k++] = 1 + t;
            VECTOR(el)[k++] = 1 + m + inst->task_srv[i];
        }
    for (int64_t s = 0; s < n; s++) {
        VECTOR(el)[k++] = 1 + m + s;
        VECTOR(el)[k++] = 1 + m + n;
    }
    if ((err = igraph_create(&mc->graph, &el, m + n + 2, IGRAPH_DIRECTED)) !=
        IGRAPH_SUCCESS) {
        st = hta_igraph_error(err, "cannot create the flow network", d);
        goto cleanup;
    }
    mc->have_graph = 1;
    if ((err = igraph_vector_init(&mc->capacity, nedges)) != IGRAPH_SUCCESS) {
        st = hta_igraph_error(err, "cannot allocate capacities", d);
        goto cleanup;
    }
    if ((err = igraph_vector_init(&mc->flow, 0)) != IGRAPH_SUCCESS) {
        igraph_vector_destroy(&mc->capacity);
        st = hta_igraph_error(err, "cannot allocate the flow vector", d);
        goto cleanup;
    }
    mc->have_vectors = 1;
    igraph_vector_fill(&mc->capacity, 1.0);
cleanup:
    igraph_vector_int_destroy(&el);
    return st;
}

static hta_status igraph_raise(hta_maxcover *mc, hta_diag *d)
{
    const hta_instance *inst = mc->inst;
    int64_t m = inst->m, n = inst->n, e = inst->edges;
    /* Validated here, not by igraph: it silently accepts nonsense. */
    for (int64_t s = 0; s < n; s++)
        VECTOR(mc->capacity)[m + e + s] = (igraph_real_t)mc->tau;
    igraph_real_t value = 0;
    igraph_error_t err = igraph_maxflow(&mc->graph, &value, &mc->flow, NULL,
                                        NULL, NULL, 0, 1 + m + n,
                                        &mc->capacity, NULL);
    mc->stats.flow_calls++;
    if (err != IGRAPH_SUCCESS)
        return hta_igraph_error(err, "igraph_maxflow failed", d);
    int64_t f = (int64_t)llround(value);
    if (fabs(value - (double)f) > 1e-6 || f < mc->size || f > m)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "igraph_maxflow returned %g, not an integer in "
                            "[%lld, %lld]",
                            value, (long long)mc->size, (long long)m);
    if (f == mc->size)
        return HTA_OK; /* keep the cover: equal f means equal covers */
    foreign_drop(mc); /* they describe the cover replaced here */
    memset(mc->loads, 0, (size_t)n * sizeof *mc->loads);
    int64_t covered = 0;
    for (int64_t t = 0; t < m; t++) {
        mc->cover[t] = -1;
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            if (VECTOR(mc->flow)[m + i] > 0.5) {
                int32_t s = inst->task_srv[i];
                if (mc->cover[t] >= 0 || mc->loads[s] >= mc->tau)
                    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                        "igraph_maxflow returned a flow "
                                        "that is not a cover");
                mc->cover[t] = s;
                mc->loads[s]++;
                covered++;
            }
    }
    if (covered != f)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "igraph_maxflow: flow value %lld but %lld tasks "
                            "covered",
                            (long long)f, (long long)covered);
    mc->size = f;
    for (int64_t s = 0; s < n; s++) {
        mc->nfree[s] = 0;
        for (int64_t i = inst->srv_off[s]; i < inst->srv_off[s + 1]; i++)
            mc->nfree[s] += mc->cover[inst->srv_task[i]] == -1;
    }
    return HTA_OK;
}

/* ---- incremental engine ---------------------------------------------- */

void hta_maxcover_log_start(hta_maxcover *mc)
{
    mc->logging = 1;
    mc->log_len = 0;
}

int64_t hta_maxcover_log_len(const hta_maxcover *mc)
{
    return mc->logging == 1 ? mc->log_len : -1;
}

int hta_maxcover_log_take(hta_maxcover *mc, int32_t **task, int32_t **server,
                          int64_t *len)
{
    if (mc->logging != 1)
        return 0;
    *task = mc->log_t;
    *server = mc->log_s;
    *len = mc->log_len;
    mc->log_t = mc->log_s = NULL;
    mc->log_cap_t = mc->log_cap_s = 0;
    mc->log_len = 0;
    mc->logging = 0;
    return 1;
}

/* The foreign lists (above): t enters or leaves server y's list, i being
 * the edge (t, y). */
/* Task t, covered by x != y, into y's list (edge i = (t, y)). */
static void foreign_add(hta_maxcover *mc, int32_t t, int32_t y, int64_t i,
                        int32_t x)
{
    const hta_instance *inst = mc->inst;
    int64_t at = inst->srv_off[y] + mc->fcnt[y];
    mc->fpos[i] = mc->fcnt[y]++;
    mc->fl[at] = t;
    mc->fx[at] = x;
}

static void foreign_remove(hta_maxcover *mc, int32_t y, int64_t i)
{
    const hta_instance *inst = mc->inst;
    int32_t at = mc->fpos[i], last = --mc->fcnt[y];
    int32_t u = mc->fl[inst->srv_off[y] + last];
    mc->fpos[i] = -1;
    if (at == last)
        return;
    mc->fl[inst->srv_off[y] + at] = u; /* the last entry fills the gap */
    mc->fx[inst->srv_off[y] + at] = mc->fx[inst->srv_off[y] + last];
    for (int64_t k = inst->task_off[u]; k < inst->task_off[u + 1]; k++)
        if (inst->task_srv[k] == y) {
            mc->fpos[k] = at;
            break;
        }
}

/* cover[t] = s, logged, the foreign lists kept. */
static void set_cover(hta_maxcover *mc, int32_t t, int32_t s)
{
    const hta_instance *inst = mc->inst;
    int32_t old = mc->cover[t];
    if (mc->fl)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            int32_t y = inst->task_srv[i];
            if (y == s) {
                if (mc->fpos[i] >= 0) /* was covered elsewhere */
                    foreign_remove(mc, y, i);
            } else if (old == y || old < 0) { /* now elsewhere */
                foreign_add(mc, t, y, i, s);
            } else { /* elsewhere still, by s now */
                mc->fx[inst->srv_off[y] + mc->fpos[i]] = s;
            }
        }
    mc->cover[t] = s;
    if (mc->logging != 1)
        return;
    size_t need = (size_t)mc->log_len + 1;
    if (!HTA_RESERVE(mc->log_t, mc->log_cap_t, need) ||
        !HTA_RESERVE(mc->log_s, mc->log_cap_s, need)) {
        mc->logging = -1; /* lost: the reader falls back */
        return;
    }
    mc->log_t[mc->log_len] = t;
    mc->log_s[mc->log_len++] = s;
}

/* Moves s's cursor past covered tasks; 1 when s has an uncovered task. */
static int has_free_task(hta_maxcover *mc, int32_t s)
{
    const hta_instance *inst = mc->inst;
    int64_t end = inst->srv_off[s + 1];
    while (mc->next_free[s] < end &&
           mc->cover[inst->srv_task[mc->next_free[s]]] != -1)
        mc->next_free[s]++;
    return mc->next_free[s] < end;
}

static void take_free_task(hta_maxcover *mc, int32_t s)
{
    const hta_instance *inst = mc->inst;
    int32_t t = inst->srv_task[mc->next_free[s]++];
    set_cover(mc, t, s);
    mc->loads[s]++;
    mc->size++;
    if (mc->nfree)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            mc->nfree[inst->task_srv[i]]--;
}

/* One phase: breadth-first search backwards from the servers below tau
 * (the sink side) through covered tasks, up to the first layer holding a
 * server with an uncovered task of its own; then a blocking set of shortest
 * augmenting paths by depth-first search with current arcs (Dinic).
 *
 * An augmenting path s_0 <- t_0 <- s_1 <- ... <- s_k <- f reads: f is
 * uncovered and local to s_k; t_i is local to s_i and covered by s_{i+1}.
 * Augmenting gives f to s_k and t_i to s_i: s_0 gains one task, every other
 * server keeps its count.  Returns the number of augmentations. */
/* Builds the foreign lists from the cover; 0 out of memory (the phases
 * then scan every local task, as before). */
static int foreign_build(hta_maxcover *mc)
{
    const hta_instance *inst = mc->inst;
    mc->fl = malloc(((size_t)inst->edges + 1) * sizeof *mc->fl);
    mc->fx = malloc(((size_t)inst->edges + 1) * sizeof *mc->fx);
    mc->fcnt = calloc((size_t)inst->n + 1, sizeof *mc->fcnt);
    mc->fpos = malloc(((size_t)inst->edges + 1) * sizeof *mc->fpos);
    if (!mc->fl || !mc->fx || !mc->fcnt || !mc->fpos) {
        foreign_drop(mc);
        return 0;
    }
    for (int32_t t = 0; t < inst->m; t++)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            int32_t y = inst->task_srv[i];
            mc->fpos[i] = -1;
            if (mc->cover[t] >= 0 && mc->cover[t] != y)
                foreign_add(mc, t, y, i, mc->cover[t]);
        }
    return 1;
}

static int64_t phase(hta_maxcover *mc)
{
    const hta_instance *inst = mc->inst;
    int32_t n = inst->n;
    int64_t head = 0, tail = 0, augmented = 0;
    int32_t found = INT32_MAX;
    /* the lists pay off once the phases have scanned the edges twice
       (skewed placements: many phases per tau); uniform ones rarely get
       there and keep their memory */
    if (!mc->fl && !mc->no_foreign && mc->scanned > 2 * inst->edges)
        mc->no_foreign = !foreign_build(mc);

    for (int32_t s = 0; s < n; s++)
        if (mc->loads[s] < mc->cap[s] && inst->srv_off[s + 1] > inst->srv_off[s]) {
            mc->level[s] = 0;
            mc->arc[s] = inst->srv_off[s];
            mc->queue[tail++] = s;
        }
    int64_t sources = tail;
    while (head < tail) {
        int32_t y = mc->queue[head++];
        if (mc->level[y] >= found)
            break;
        int64_t lo = inst->srv_off[y];
        int64_t hi = mc->fl ? lo + mc->fcnt[y] : inst->srv_off[y + 1];
        mc->scanned += hi - lo;
        for (int64_t i = lo; i < hi; i++) {
            /* a foreign entry's server is another one, never -1 */
            int32_t x = mc->fl ? mc->fx[i] : mc->cover[inst->srv_task[i]];
            if (x < 0 || x == y || mc->level[x] != -1)
                continue;
            mc->level[x] = mc->level[y] + 1;
            mc->arc[x] = inst->srv_off[x];
            mc->queue[tail++] = x;
            if (has_free_task(mc, x))
                found = mc->level[x];
        }
    }
    mc->stats.phases++;
    mc->stats.visited += tail;

    if (found != INT32_MAX) {
        for (int64_t q = 0; q < sources; q++) {
            int32_t s0 = mc->queue[q];
            while (mc->loads[s0] < mc->cap[s0] && mc->level[s0] == 0) {
                int32_t depth = 0;
                mc->path_srv[0] = s0;
                int success = 0;
                while (depth >= 0) {
                    int32_t y = mc->path_srv[depth];
                    if (mc->level[y] == found) {
                        if (has_free_task(mc, y)) {
                            success = 1;
                            break;
                        }
                        mc->level[y] = -2;
                        depth--;
                        continue;
                    }
                    const int32_t *list = mc->fl ? mc->fl : inst->srv_task;
                    int64_t end = mc->fl ? inst->srv_off[y] + mc->fcnt[y] :
                                           inst->srv_off[y + 1];
                    int32_t x = -1, t = -1;
                    for (; mc->arc[y] < end; mc->arc[y]++) {
                        t = list[mc->arc[y]];
                        x = mc->fl ? mc->fx[mc->arc[y]] : mc->cover[t];
                        if (x >= 0 && x != y &&
                            mc->level[x] == mc->level[y] + 1)
                            break;
                    }
                    if (mc->arc[y] >= end) {
                        mc->level[y] = depth ? -2 : -3; /* dead */
                        depth--;
                        continue;
                    }
                    mc->path_task[depth] = t;
                    mc->path_srv[++depth] = x;
                }
                if (!success)
                    break;
                /* Shift the tasks one server up the path, then cover f. */
                take_free_task(mc, mc->path_srv[depth]);
                for (int32_t i = depth - 1; i >= 0; i--) {
                    int32_t from = mc->path_srv[i + 1], to = mc->path_srv[i];
                    set_cover(mc, mc->path_task[i], to);
                    mc->loads[from]--;
                    mc->loads[to]++;
                }
                augmented++;
            }
        }
    }
    for (int64_t q = 0; q < tail; q++)
        mc->level[mc->queue[q]] = -1;
    mc->stats.augmented += augmented;
    return augmented;
}

/* Checked builds: every foreign list holds exactly its server's local
 * tasks covered by another server, at the recorded places.  O(|E|). */
static void check_foreign(const hta_maxcover *mc)
{
#ifdef HTA_CHECKED
    const hta_instance *inst = mc->inst;
    if (!mc->fl)
        return;
    int64_t total = 0;
    for (int32_t t = 0; t < inst->m; t++)
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            int32_t y = inst->task_srv[i], x = mc->cover[t];
            int in = x >= 0 && x != y;
            HTA_CHECK(in == (mc->fpos[i] >= 0));
            if (in) {
                HTA_CHECK(mc->fpos[i] < mc->fcnt[y]);
                HTA_CHECK(mc->fl[inst->srv_off[y] + mc->fpos[i]] == t);
                HTA_CHECK(mc->fx[inst->srv_off[y] + mc->fpos[i]] == x);
                total++;
            }
        }
    for (int32_t y = 0; y < inst->n; y++)
        total -= mc->fcnt[y];
    HTA_CHECK(total == 0);
#else
    (void)mc;
#endif
}

static hta_status incremental_run(hta_maxcover *mc)
{
    const hta_instance *inst = mc->inst;
    /* Paths of length one first: each server scans its own tasks with a
     * cursor that only moves forward, since a covered task stays covered
     * for the rest of the sweep (Fact 5.1).  Over a sweep: O(|E|). */
    for (int32_t s = 0; s < inst->n; s++)
        while (mc->loads[s] < mc->cap[s] && has_free_task(mc, s)) {
            take_free_task(mc, s);
            mc->stats.direct++;
        }
    /* Longer paths start at a server below tau: all of them have no
     * uncovered task left, the phases move covered tasks towards them. */
    while (mc->size < mc->coverable && phase(mc) > 0)
        ;
    check_foreign(mc);
    return HTA_OK;
}

/* ---- common ------------------------------------------------------------ */

hta_status hta_maxcover_new(const hta_instance *inst, hta_maxflow_engine e,
                            hta_maxcover **out, hta_diag *d)
{
    hta_igraph_init();
    *out = NULL;
    hta_maxcover *mc = calloc(1, sizeof *mc);
    if (!mc)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    mc->inst = inst;
    mc->engine = e;
    size_t m = (size_t)inst->m, n = (size_t)inst->n;
    mc->cover = malloc(m * sizeof *mc->cover);
    mc->loads = calloc(n, sizeof *mc->loads);
    mc->cap = calloc(n, sizeof *mc->cap);
    mc->nfree = malloc(n * sizeof *mc->nfree);
    if (!mc->cover || !mc->loads || !mc->cap || !mc->nfree)
        goto oom;
    mc->coverable = inst->m;
    for (size_t s = 0; s < n; s++)
        mc->nfree[s] = (int32_t)(inst->srv_off[s + 1] - inst->srv_off[s]);
    memset(mc->cover, 0xff, m * sizeof *mc->cover);
    if (e == HTA_MAXFLOW_INCREMENTAL) {
        mc->next_free = malloc(n * sizeof *mc->next_free);
        mc->level = malloc(n * sizeof *mc->level);
        mc->arc = malloc(n * sizeof *mc->arc);
        mc->queue = malloc(n * sizeof *mc->queue);
        mc->path_srv = malloc((n + 1) * sizeof *mc->path_srv);
        mc->path_task = malloc((n + 1) * sizeof *mc->path_task);
        if (!mc->next_free || !mc->level || !mc->arc || !mc->queue ||
            !mc->path_srv || !mc->path_task)
            goto oom;
        for (size_t s = 0; s < n; s++) {
            mc->next_free[s] = inst->srv_off[s];
            mc->level[s] = -1;
        }
    } else {
        hta_status st = igraph_setup(mc, d);
        if (st != HTA_OK) {
            hta_maxcover_free(mc);
            return st;
        }
    }
    *out = mc;
    return HTA_OK;
oom:
    hta_maxcover_free(mc);
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

hta_status hta_maxcover_raise(hta_maxcover *mc, int64_t tau, hta_diag *d)
{
    if (tau < 1 || tau < mc->tau)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "max-cover: tau must be >= 1 and non-decreasing, "
                            "found %lld after %lld",
                            (long long)tau, (long long)mc->tau);
    mc->tau = tau;
    if (mc->engine == HTA_MAXFLOW_IGRAPH)
        return igraph_raise(mc, d);
    for (int32_t s = 0; s < mc->inst->n; s++)
        mc->cap[s] = tau;
    return incremental_run(mc);
}

hta_status hta_maxcover_fill(hta_maxcover *mc, const int32_t *fixed,
                             const int64_t *cap, int32_t *a, hta_diag *d)
{
    const hta_instance *inst = mc->inst;
    if (mc->engine != HTA_MAXFLOW_INCREMENTAL)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "max-cover fill needs the incremental engine");
    mc->size = 0;
    mc->coverable = 0;
    foreign_drop(mc); /* they describe the old cover: rebuilt on demand */
    for (int32_t t = 0; t < inst->m; t++) {
        mc->cover[t] = fixed[t] >= 0 ? -2 : -1;
        mc->coverable += fixed[t] < 0;
    }
    for (int32_t s = 0; s < inst->n; s++) {
        mc->loads[s] = 0;
        mc->cap[s] = cap[s];
        mc->next_free[s] = inst->srv_off[s];
    }
    /* The free counts belong to sweeps; a fill does not maintain them. */
    int32_t *nfree = mc->nfree;
    mc->nfree = NULL;
    hta_status st = incremental_run(mc);
    mc->nfree = nfree;
    for (int32_t t = 0; t < inst->m; t++)
        a[t] = fixed[t] >= 0 ? fixed[t] : mc->cover[t];
    return st;
}

hta_status hta_maxcover_sweep(const hta_instance *inst,
                              int (*enough)(void *ctx, const int64_t *f,
                                            int64_t K),
                              void *ctx, int64_t **f, int64_t *K,
                              hta_diag *d)
{
    hta_maxcover *mc = NULL;
    size_t cap = 0;
    *f = NULL;
    *K = 0;
    if (!HTA_RESERVE(*f, cap, 64))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    (*f)[0] = 0;
    hta_status st = hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, d);
    while (st == HTA_OK && (*f)[*K] < inst->m &&
           !(enough && enough(ctx, *f, *K))) {
        if (!HTA_RESERVE(*f, cap, (size_t)*K + 2)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            break;
        }
        if ((st = hta_maxcover_raise(mc, *K + 1, d)) == HTA_OK)
            (*f)[++*K] = hta_maxcover_size(mc);
    }
    hta_maxcover_free(mc);
    if (st != HTA_OK) {
        free(*f);
        *f = NULL;
    }
    return st;
}
