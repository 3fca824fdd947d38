/* Max-cover (Fischer-Su-Yin, Section 5.1.1): f(tau), the most tasks
 * coverable with at most tau per server, by two engines computing the same
 * value (maxcover_impl.h); here the interface: creation, raises, the
 * per-server capacities of a fill, the sweep over tau. */
#include "hta/maxcover.h"
#include "core/buf.h"
#include "core/check.h"

#include <stdlib.h>
#include <string.h>

#include "maxcover_impl.h"

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
    free(mc->seeds);
    free(mc->alive);
    free(mc->unc);
    free(mc->pend);
    free(mc->path_srv);
    free(mc->path_task);
    free(mc->log_t);
    free(mc->log_s);
    if (mc->have_graph)
        igraph_destroy(&mc->graph);
    if (mc->have_vectors) {
        igraph_vector_destroy(&mc->capacity);
        igraph_vector_destroy(&mc->flow);
    }
    free(mc);
}

int64_t hta_maxcover_size(const hta_maxcover *mc) { return mc->size; }

const int32_t *hta_maxcover_alive(const hta_maxcover *mc, int32_t *len)
{
    *len = mc->nalive > 0 ? mc->nalive : 0;
    return mc->alive;
}
const int32_t *hta_maxcover_cover(const hta_maxcover *mc) { return mc->cover; }
const int32_t *hta_maxcover_loads(const hta_maxcover *mc) { return mc->loads; }
const int32_t *hta_maxcover_free_counts(const hta_maxcover *mc)
{
    return mc->nfree;
}

/* A capacity array of its own (per-server caps): 0 out of memory. */
static int own_caps(hta_maxcover *mc)
{
    if (!mc->cap)
        mc->cap = hta_malloc_huge((size_t)mc->inst->n * sizeof *mc->cap);
    return mc->cap != NULL;
}

/* A raise to tau: the free counts made at the first (count_free: every
 * task of the new state is uncovered, so each server's degree), and the
 * cap tau for all, kept in mc->tau alone. */
static hta_status begin_raise(hta_maxcover *mc, int64_t tau, hta_diag *d)
{
    const hta_instance *inst = mc->inst;
    if (mc->count_free && !mc->nfree) {
        size_t n = (size_t)inst->n;
        if (!(mc->nfree = hta_malloc_huge(n * sizeof *mc->nfree)))
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory");
        for (size_t s = 0; s < n; s++)
            mc->nfree[s] =
                (int32_t)(inst->srv_off[s + 1] - inst->srv_off[s]);
    }
    mc->tau = tau;
    free(mc->cap);
    mc->cap = NULL;
    return HTA_OK;
}

const hta_maxcover_stats *hta_maxcover_stats_get(const hta_maxcover *mc)
{
    return &mc->stats;
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
    mc->retire = 1;
    mc->forward = 1;
    mc->guess = 1;
    size_t m = (size_t)inst->m, n = (size_t)inst->n;
    mc->cover = hta_malloc_huge(m * sizeof *mc->cover);
    mc->loads = hta_calloc_huge(n, sizeof *mc->loads);
    mc->count_free = 1;
    if (!mc->cover || !mc->loads)
        goto oom;
    mc->coverable = inst->m;
    memset(mc->cover, 0xff, m * sizeof *mc->cover);
    if (e == HTA_MAXFLOW_INCREMENTAL) {
        /* written whole (the first two) or up to the servers in
           play, often most of them: on huge pages (buf.h) */
        mc->next_free = hta_malloc_huge(n * sizeof *mc->next_free);
        mc->level = hta_malloc_huge(n * sizeof *mc->level);
        mc->arc = hta_malloc_huge(n * sizeof *mc->arc);
        mc->queue = hta_malloc_huge(n * sizeof *mc->queue);
        mc->seeds = hta_malloc_huge(n * sizeof *mc->seeds);
        mc->alive = hta_malloc_huge(n * sizeof *mc->alive);
        mc->nalive = -1;
        mc->pend = malloc(PEND * sizeof *mc->pend);
        mc->path_srv = malloc((n + 1) * sizeof *mc->path_srv);
        mc->path_task = malloc((n + 1) * sizeof *mc->path_task);
        if (!mc->next_free || !mc->level || !mc->arc || !mc->queue ||
            !mc->seeds || !mc->alive || !mc->pend ||
            !mc->path_srv || !mc->path_task)
            goto oom;
        for (size_t s = 0; s < n; s++) {
            mc->next_free[s] = 0;
            mc->level[s] = -1;
        }
    } else {
        hta_status st = mc_igraph_setup(mc, d);
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

void hta_maxcover_drop_free_counts(hta_maxcover *mc)
{
    if (!mc || mc->engine != HTA_MAXFLOW_INCREMENTAL)
        return;
    free(mc->nfree);
    mc->nfree = NULL;
    mc->count_free = 0;
}

void hta_maxcover_set_forward(hta_maxcover *mc, int on)
{
    mc->forward = on;
}

void hta_maxcover_set_guess(hta_maxcover *mc, int on)
{
    mc->guess = on ? 1 : 0;
    mc->guess_all = on == 2;
}

void hta_maxcover_set_retire(hta_maxcover *mc, int on)
{
    mc->retire = on;
    if (!on && mc->level) {
        for (int32_t s = 0; s < mc->inst->n; s++)
            if (mc->level[s] == RETIRED)
                mc->level[s] = -1;
        mc->nalive = -1; /* the retired ones are back */
    }
}

hta_status hta_maxcover_raise(hta_maxcover *mc, int64_t tau, hta_diag *d)
{
    if (tau < 1 || tau < mc->tau)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "max-cover: tau must be >= 1 and non-decreasing, "
                            "found %lld after %lld",
                            (long long)tau, (long long)mc->tau);
    hta_status st = begin_raise(mc, tau, d);
    if (st != HTA_OK)
        return st;
    if (mc->engine == HTA_MAXFLOW_IGRAPH)
        return mc_igraph_raise(mc, d);
    return mc_incremental_run(mc, NULL);
}

/* The task-side greedy start (maxcover.h): each uncovered task, in
 * order, to the server with the most room below its cap among its own
 * (the first of them on a tie; with one cap for all, tau > 0, the least
 * loaded; tau = 0: the caps in mc->cap, read at random: the raise's one
 * cap saves those reads, uniform 10^6 tasks and servers 0.071 -> 0.065 s
 * side by side).
 * A task left uncovered marks its servers (flag 2 of a byte per server),
 * and the first to mark a server moves its cursor to that task (a binary
 * search: the lists are in task order, the tasks before it are covered);
 * the cursor of every other server moves to the end of its list, since
 * all its tasks are covered.  So neither the direct pass nor the phases
 * read a list for an uncovered task (at 10^7 tasks, with 0.2% of them
 * left to the phases, on 60% of the servers, their searches read whole
 * lists at random).
 * A server below its cap at the end is never marked: it was below it
 * when each of its tasks came.  Which servers a cover leaves out (flag 1:
 * some task of s is covered by another server) is noted for the run's
 * seeds too: the run would read every list again to learn it
 * (covered_elsewhere).  Uniform placement, 10^6 tasks and servers, tau =
 * 2: the cover 0.11 -> 0.05 s (README, Benchmarks). */
hta_status hta_maxcover_raise_greedy(hta_maxcover *mc, int64_t tau,
                                     hta_diag *d)
{
    if (mc->engine != HTA_MAXFLOW_INCREMENTAL || mc->tau != 0 ||
        mc->size != 0 || tau < 1)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "max-cover: the greedy start needs a new state "
                            "of the incremental engine and tau >= 1");
    hta_status st = begin_raise(mc, tau, d);
    if (st != HTA_OK)
        return st;
    return mc_greedy_run(mc, tau, d);
}

hta_status hta_maxcover_raise_caps(hta_maxcover *mc, const int64_t *cap,
                                  hta_diag *d)
{
    const hta_instance *inst = mc->inst;
    if (mc->engine != HTA_MAXFLOW_INCREMENTAL)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "max-cover: per-server caps need the incremental "
                            "engine");
    for (int32_t s = 0; s < inst->n; s++)
        if (cap[s] < cap_of(mc, s))
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "max-cover: the cap of server %ld must not "
                                "decrease, found %lld after %lld",
                                (long)s, (long long)cap[s],
                                (long long)cap_of(mc, s));
    if (!own_caps(mc))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    /* Fact 5.1 and retiring hold for any caps that only grow: the cover
     * stays valid, and no cap enters the definition of H (above). */
    memcpy(mc->cap, cap, (size_t)inst->n * sizeof *cap);
    /* The free counts belong to sweeps, as in a fill (a tenth of the
     * time of the envelope bound's flows): none from here on. */
    free(mc->nfree);
    mc->nfree = NULL;
    mc->count_free = 0;
    return mc_incremental_run(mc, NULL);
}

/* A fill by the servers' scan (the reference) or from the greedy start;
 * a is written unless only a perfect matching is wanted and the greedy's
 * is not (*perfect = 0). */
static hta_status fill(hta_maxcover *mc, const int32_t *fixed,
                       const int64_t *cap, int32_t *a, int *perfect,
                       hta_diag *d)
{
    const hta_instance *inst = mc->inst;
    if (mc->engine != HTA_MAXFLOW_INCREMENTAL)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "max-cover fill needs the incremental engine");
    if (!own_caps(mc))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    mc->size = 0;
    mc->coverable = 0;
    for (int32_t t = 0; t < inst->m; t++) {
        mc->cover[t] = fixed[t] >= 0 ? -2 : -1;
        mc->coverable += fixed[t] < 0;
    }
    free(mc->unc); /* a new cover: rebuilt when needed */
    mc->unc = NULL;
    for (int32_t s = 0; s < inst->n; s++) {
        mc->loads[s] = 0;
        mc->cap[s] = cap[s];
        mc->next_free[s] = 0;
        mc->level[s] = -1; /* a new cover: nobody retired */
    }
    mc->nalive = -1;
    /* The free counts belong to sweeps; a fill does not maintain them
       (and never makes them: counts of a fill's cover would be wrong) */
    int32_t *nfree = mc->nfree;
    mc->nfree = NULL;
    if (!nfree)
        mc->count_free = 0;
    hta_status st = perfect ? mc_greedy_run(mc, 0, d) :
                              mc_incremental_run(mc, NULL);
    mc->nfree = nfree;
    if (perfect && (*perfect = st == HTA_OK && mc->size == mc->coverable) == 0)
        return st;
    for (int32_t t = 0; t < inst->m; t++)
        a[t] = fixed[t] >= 0 ? fixed[t] : mc->cover[t];
    return st;
}

hta_status hta_maxcover_fill(hta_maxcover *mc, const int32_t *fixed,
                             const int64_t *cap, int32_t *a, hta_diag *d)
{
    return fill(mc, fixed, cap, a, NULL, d);
}

hta_status hta_maxcover_fill_perfect(hta_maxcover *mc, const int32_t *fixed,
                                     const int64_t *cap, int32_t *a,
                                     int *perfect, hta_diag *d)
{
    return fill(mc, fixed, cap, a, perfect, d);
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

