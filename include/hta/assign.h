/* Assignments: the file format v1 and the single evaluator of makespans
 * (Fischer-Su-Yin, Definitions 2, 6 and 7).
 *
 * An assignment is an int32_t array a[0..m) with a[t] the server of task t.
 * Ownership: arrays returned through an out-parameter belong to the caller
 * (free()); hta_eval owns its per-server arrays (hta_eval_free).
 */
#ifndef HTA_ASSIGN_H
#define HTA_ASSIGN_H

#include <stdint.h>
#include <stdio.h>

#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hta_eval {
    double makespan;   /* L^A = max_s L_s^A */
    double total;      /* H^A = sum_s L_s^A */
    double w_rem_r;    /* w_rem(r^A), the remote cost in force */
    int64_t local;     /* tasks on a server holding their block */
    int64_t remote;    /* r^A */
    int32_t argmax;    /* least server id with L_s^A = L^A */
    int32_t n;         /* the instance's working servers (instance.h) */
    int32_t n_declared;
    int32_t *nloc;     /* per working server: local tasks */
    int32_t *nrem;     /* per working server: remote tasks */
    double *load;      /* per working server: L_s^A */
    /* Servers at or beyond n that got tasks (all remote there): distinct
     * ids in increasing order and their counts; every other server beyond
     * n is empty. */
    int64_t ntail;
    int32_t *tail_srv;
    int32_t *tail_nrem;
    /* Per locality level l = 1..N (levels.h; N = 2: local and remote):
     * the tasks at that level and the cost of one of them in force.  On
     * N > 2 levels every server is a working one (no tail), remote counts
     * the tasks at levels >= 2, and w_rem_r is level N's cost. */
    int levels;
    int64_t count[HTA_MAX_LEVELS];  /* count[l - 1] */
    double cost[HTA_MAX_LEVELS];    /* cost[l - 1] */
    int64_t *nlev;  /* N > 2: server s's tasks at level l are
                       nlev[s * N + l - 1]; NULL on two levels (nloc and
                       nrem say it) */
} hta_eval;

/* The load of a server with nloc local and nrem remote tasks when a remote
 * task costs c.  Every load in hta is computed by this one formula, so equal
 * counts always give bit-identical loads. */
static inline double hta_load(const hta_instance *inst, int64_t nloc,
                              int64_t nrem, double c)
{
    return inst->w_loc * (double)nloc + c * (double)nrem;
}

/* Room within a makespan L (strict: below L) by hta_load's arithmetic,
 * so that what fits here fits for the evaluator too: the most local tasks
 * a server can run alone (0 .. m, 0 also when none fits), and the most
 * remote tasks beside x local ones at remote cost c (0 .. m; -1 when the
 * x local tasks alone do not fit).  O(1) steps past one division. */
int64_t hta_room_local(const hta_instance *inst, double L, int strict);
int64_t hta_room_remote(const hta_instance *inst, int64_t x, double c,
                        double L, int strict);

/* The load of the i-th tail server of ev. */
static inline double hta_eval_tail_load(const hta_instance *inst,
                                        const hta_eval *ev, int64_t i)
{
    return hta_load(inst, 0, ev->tail_nrem[i], ev->w_rem_r);
}

/* Server s's counts and load, s in 0..n_declared-1 (else -1, nothing
 * written): working ones from the arrays, the tail from its sorted list,
 * where *cursor (0 before the first call) remembers the place, so that
 * s = 0, 1, ..., n_declared - 1 in turn costs O(1) each; any other order
 * is answered too, in O(log tail).  0 when written. */
int hta_eval_server(const hta_instance *inst, const hta_eval *ev, int32_t s,
                    int64_t *cursor, int32_t *loc, int32_t *rem,
                    double *load);

/* Evaluates a complete assignment (every a[t] in [0, n_declared)).  Fills
 * *ev, whose arrays it allocates.  O(m log m + |E|) time, O(n + m)
 * memory. */
hta_status hta_eval_run(const hta_instance *inst, const int32_t *a,
                        hta_eval *ev, hta_diag *d);

void hta_eval_free(hta_eval *ev);

/* Reads an assignment file for inst: every task exactly once, server ids in
 * range.  *out is a new array of m entries.  O(size of the file). */
hta_status hta_assign_parse(const char *path, const hta_instance *inst,
                            int32_t **out, hta_diag *d);

hta_status hta_assign_write(const hta_instance *inst, const int32_t *a,
                            FILE *f);

#ifdef __cplusplus
}
#endif

#endif
