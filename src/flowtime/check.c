/* The schedule checker (flowtime.h): every policy's and the exact
 * program's schedules are verified here in the tests, independently of
 * the code that made them. */
#include "hta/flowtime.h"

#include <stdlib.h>

static hta_status bad(hta_diag *d, size_t e, const char *what)
{
    return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                        "schedule entry %zu: %s", e + 1, what);
}

hta_status hta_ft_check(const hta_jobs *J, int32_t machines, int preemptive,
                        int relaxed, const hta_ft_sched *s, int64_t *finish,
                        int64_t *total, hta_diag *d)
{
    size_t n = (size_t)J->n, nt = (size_t)J->roff[J->n];
    int64_t *mdone = calloc(n, sizeof *mdone);
    int64_t *rdone = calloc(n, sizeof *rdone);
    int64_t *mapend = calloc(n, sizeof *mapend);
    int64_t *tdone = calloc(nt + 1, sizeof *tdone);
    int64_t *tlast = calloc(nt + 1, sizeof *tlast);
    hta_status st = HTA_OK;
    if (!mdone || !rdone || !mapend || !tdone || !tlast) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        finish[i] = 0;
    /* a group: the entries starting in one slot, all over span slots */
    int64_t slot = 0, span = 1, used = 0;
    for (size_t e = 0; e < s->n; e++) {
        const hta_ft_entry *x = &s->e[e];
        int64_t xs = x->span > 1 ? x->span : 1;
        if (x->job < 0 || x->job >= J->n || x->units < 1 ||
            (x->kind != 0 && x->kind != 1) ||
            x->units > INT64_MAX / xs) {
            st = bad(d, e, "no such job, kind or a unit count < 1");
            goto done;
        }
        int64_t i = x->job, all = x->units * xs, last = x->slot + xs - 1;
        if (x->slot < slot || (x->slot == slot && xs != span) ||
            (x->slot > slot && x->slot < slot + span)) {
            st = bad(d, e, "slots out of order or overlapping spans");
            goto done;
        }
        if (x->slot > slot)
            slot = x->slot, span = xs, used = 0;
        if (slot < J->arrival[i]) {
            st = bad(d, e, "work before the job's arrival");
            goto done;
        }
        used += x->units;
        if (used > machines) {
            st = bad(d, e, "more units in a slot than machines");
            goto done;
        }
        if (finish[i] < last)
            finish[i] = last;
        int64_t R = hta_jobs_reduce_work(J, i);
        if (relaxed) { /* one pool of M + R units */
            if (all > J->map[i] + R - mdone[i] - rdone[i]) {
                st = bad(d, e, "more work than the job has");
                goto done;
            }
            if (x->kind == 0)
                mdone[i] += all;
            else
                rdone[i] += all;
            continue;
        }
        if (x->kind == 0) {
            if (all > J->map[i] - mdone[i]) {
                st = bad(d, e, "more map work than the job has");
                goto done;
            }
            mdone[i] += all;
            if (mdone[i] == J->map[i])
                mapend[i] = last;
            continue;
        }
        if (mapend[i] == 0 || mapend[i] >= slot) {
            st = bad(d, e, "reduce work before the slot after the map "
                           "work ended");
            goto done;
        }
        if (all > R - rdone[i]) {
            st = bad(d, e, "more reduce work than the job has");
            goto done;
        }
        rdone[i] += all;
        if (preemptive)
            continue;
        int64_t k = x->task;
        if (k < 0 || k >= J->roff[i + 1] - J->roff[i] || x->units != 1) {
            st = bad(d, e, "no such reduce task, or more than one unit "
                           "of a task in a slot");
            goto done;
        }
        k += J->roff[i];
        if (tdone[k] > 0 && tlast[k] != slot - 1) {
            st = bad(d, e, "a reduce task interrupted (non-preemptive)");
            goto done;
        }
        tdone[k] += xs;
        tlast[k] = last;
    }
    *total = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t R = hta_jobs_reduce_work(J, (int64_t)i);
        if (mdone[i] + rdone[i] != J->map[i] + R ||
            (!relaxed && mdone[i] != J->map[i])) {
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "schedule: job %zu is not finished", i + 1);
            goto done;
        }
        *total += finish[i] - J->arrival[i] + 1;
    }
    if (!preemptive && !relaxed)
        for (size_t k = 0; k < nt; k++)
            if (tdone[k] != J->red[k]) {
                st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                                  "schedule: reduce task %zu is not "
                                  "finished", k + 1);
                goto done;
            }
done:
    free(mdone);
    free(rdone);
    free(mapend);
    free(tdone);
    free(tlast);
    return st;
}
