/* Max-cover's igraph engine (maxcover_impl.h): source -> servers
 * (capacity tau) -> tasks (1) -> sink, igraph_maxflow after each raise;
 * the reference the incremental engine is tested against. */
#include "core/buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "maxcover_impl.h"

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


/* Vertices: 0 source, 1..m tasks, m+1..m+n servers, m+n+1 sink.  Edges in
 * this order: source->task (m), task->server (|E|, task-major), server->sink
 * (n); only the last n capacities change with tau. */
hta_status mc_igraph_setup(hta_maxcover *mc, hta_diag *d)
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

hta_status mc_igraph_raise(hta_maxcover *mc, hta_diag *d)
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

