/* Leaping from event to event (run.h): the slots that repeat one
 * without an event, applied at once.
 *
 * A slot without an event (s->event 0: no arrival, no job's map work or
 * job ending, no reduce task starting or ending, no job or map work of
 * the relaxation ending) leaves every quantity a rule compares on the
 * same side: what a job has left stays above what it takes, no reduce
 * work becomes ready, the arrival list, the SRPT order, the running tasks
 * and fair's held machines stay as they are.  The next slot then repeats
 * it unit for unit (fair: but for its rotating start, below), and so on
 * until an event.  A leap applies k such slots at once, k ending one slot
 * before the first event, which is computed slot by slot; the engines
 * agree slot for slot (opts.stepwise, the tests). */
#include <stdint.h>
#include <stdlib.h>

#include "core/buf.h"
#include "run.h"

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* The most slots after this one in which q, less u a slot, stays >= 1. */
static int64_t lasting(int64_t q, int64_t u)
{
    return u > 0 ? (q - 1) / u : INT64_MAX;
}

/* Bounds of every policy: the next arrival, the running tasks, the
 * relaxation's jobs and map work. */
static int64_t leap_common(const sim *s)
{
    int64_t k = INT64_MAX;
    if (s->next < s->J->n)
        k = s->J->arrival[s->next] - s->t - 1;
    for (int32_t r = 0; r < s->nrun && k > 0; r++)
        k = min64(k, s->rleft[r] - 1);
    for (int64_t q = 0; q < s->nsv; q++) {
        int64_t i = s->sv[q].job;
        k = min64(k, lasting(s->vrem[i], s->sv[q].map + s->sv[q].red));
        if (s->sv[q].map > 0)
            k = min64(k, lasting(s->J->map[i] - s->vmap[i], s->sv[q].map));
    }
    return k;
}

/* The policy's own units in the log (not the relaxation's, not running
 * tasks'): map, or preemptive reduce. */
static int own_unit(const sim *s, const hta_ft_entry *x)
{
    return s->pol != HTA_FT_SRPT && (x->kind == 0 || s->pre);
}

static void touch(sim *s, int64_t i)
{
    if (s->lm[i] == 0 && s->lr[i] == 0 && s->lv[i] == 0)
        s->touched[s->ntouched++] = i;
}

/* The leap of every policy but fair. */
static int64_t leap_bound(sim *s)
{
    int64_t k = leap_common(s);
    if (k <= 0)
        return 0;
    s->ntouched = 0;
    for (size_t q = 0; q < s->nlog; q++) {
        const hta_ft_entry *x = &s->log[q];
        if (!own_unit(s, x))
            continue;
        touch(s, x->job);
        *(x->kind == 0 ? &s->lm[x->job] : &s->lr[x->job]) += x->units;
    }
    if (s->pol == HTA_FT_DSRPT) /* released reduce work must not move */
        for (int64_t q = 0; q < s->nsv; q++)
            if (s->sv[q].red > 0) {
                touch(s, s->sv[q].job);
                s->lv[s->sv[q].job] += s->sv[q].red;
            }
    for (int64_t q = 0; q < s->ntouched; q++) {
        int64_t i = s->touched[q];
        k = min64(k, lasting(s->mrem[i], s->lm[i]));
        k = min64(k, lasting(s->rrem[i], s->lr[i]));
        if (s->pol == HTA_FT_DSRPT && s->lr[i] != s->lv[i])
            k = 0;
        s->lm[i] = s->lr[i] = s->lv[i] = 0;
    }
    return k == INT64_MAX ? 0 : k; /* nothing bounds it: nothing to do */
}

/* A leap ends before every event: what it took from stays positive. */
static hta_status overshot(const sim *s, hta_diag *d)
{
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                        "internal error: %s leapt past an event at slot "
                        "%lld",
                        hta_ft_policy_names[s->pol], (long long)s->t);
}

/* Running tasks and the relaxation over the k slots. */
static hta_status leap_rest(sim *s, int64_t k, hta_diag *d)
{
    int bad = 0;
    for (int32_t r = 0; r < s->nrun; r++)
        bad |= (s->rleft[r] -= k) < 1;
    for (int64_t q = 0; q < s->nsv; q++) {
        int64_t i = s->sv[q].job;
        bad |= (s->vrem[i] -= k * (s->sv[q].map + s->sv[q].red)) < 1;
        s->vmap[i] += k * s->sv[q].map;
        bad |= s->sv[q].map > 0 && s->vmap[i] >= s->J->map[i];
        s->vred[i] += k * s->sv[q].red;
    }
    s->t += k;
    s->res->slots += k;
    bad |= s->next < s->J->n && s->J->arrival[s->next] <= s->t;
    return bad ? overshot(s, d) : HTA_OK;
}

static hta_status leap(sim *s, int64_t k, hta_diag *d)
{
    hta_status st = ft_record_log(s, s->t + 1, k, d);
    for (size_t q = 0; q < s->nlog && st == HTA_OK; q++) {
        const hta_ft_entry *x = &s->log[q];
        if (!own_unit(s, x))
            continue;
        if (x->kind == 0) {
            if ((s->mrem[x->job] -= k * x->units) < 1)
                return overshot(s, d);
            continue;
        }
        if ((s->rrem[x->job] -= k * x->units) < 1)
            return overshot(s, d);
        if (s->pol == HTA_FT_DSRPT)
            s->rdone[x->job] += k * x->units;
    }
    return st == HTA_OK ? leap_rest(s, k, d) : st;
}

/* Fair.  The water-filling of a slot without an event gives job i b_i
 * units in the levels it completes, and the e units of its last, partial
 * level to the first e of the m jobs eligible there, in the ready list's
 * order from the start, which moves one position a slot.  With the
 * eligible jobs at positions P_0 < ... < P_{m-1}, job P_q gets one of the
 * e exactly when the start lies in the cyclic interval (P_{q-e}, P_q]
 * (indices mod m): from there on, it is among the first e.  Per job:
 * lm b_i, lr the interval's lo (-1: not eligible), lv its hi. */
static void fair_levels(sim *s)
{
    int64_t nr = s->fnr, L = s->flevel, m = 0, e = 0, *P = s->touched;
    for (int64_t p = 0; p < nr; p++) {
        int64_t q = (p - s->fstart + nr) % nr;
        int64_t i = s->ready[2 * q], h = s->ready[2 * q + 1];
        int top = h - s->held[i] > 0 && h == L; /* one at level L */
        s->lm[i] = h - s->held[i] - top;
        s->lr[i] = -1;
        if (top || h < L) {
            P[m++] = p;
            e += top;
        }
    }
    for (int64_t q = 0; q < m; q++) {
        int64_t i = s->got[P[q]];
        if (e == m) { /* the level is complete: no rotation */
            s->lm[i]++;
            continue;
        }
        s->lr[i] = P[(q - e + m) % m];
        s->lv[i] = P[q];
    }
}

/* Positions u in [0, y) whose u mod nr lies in (lo, hi] (cyclic). */
static int64_t in_interval(int64_t y, int64_t lo, int64_t hi, int64_t nr)
{
    int64_t len = (hi - lo + nr) % nr, z = y % nr, g;
    if (lo < hi)
        g = min64(z, hi + 1) - (lo + 1) > 0 ? min64(z, hi + 1) - (lo + 1) : 0;
    else
        g = min64(z, hi + 1) + (z - (lo + 1) > 0 ? z - (lo + 1) : 0);
    return (y / nr) * len + g;
}

/* Units job i gets in the x slots after this one (starts s0, s0+1, ...). */
static int64_t fair_units(const sim *s, int64_t i, int64_t x, int64_t s0)
{
    int64_t u = s->lm[i] * x;
    if (s->lr[i] >= 0)
        u += in_interval(s0 + x, s->lr[i], s->lv[i], s->fnr) -
             in_interval(s0, s->lr[i], s->lv[i], s->fnr);
    return u;
}

/* What job i has left of the work it takes: its map work, its reduce
 * units (preemptive), or 1 (its next unit starts a task: an event). */
static int64_t fair_left(const sim *s, int64_t i)
{
    if (s->mrem[i] > 0)
        return s->mrem[i];
    return s->pre ? s->rrem[i] : 1;
}

static int64_t fair_bound(sim *s)
{
    int64_t k = leap_common(s), nr = s->fnr;
    if (k <= 0 || nr == 0)
        return k == INT64_MAX ? 0 : k;
    fair_levels(s);
    int64_t s0 = (s->fstart + 1) % nr;
    for (int64_t p = 0; p < nr && k > 0; p++) {
        int64_t i = s->got[p];
        int64_t len = s->lr[i] >= 0 ? (s->lv[i] - s->lr[i] + nr) % nr : 0;
        int64_t per = s->lm[i] * nr + len; /* units a period of nr slots */
        if (per == 0)
            continue;
        /* the first slot x with units(x) >= left: its period, then the
         * slot inside it by bisection */
        int64_t left = fair_left(s, i), full = (left - 1) / per;
        if (full >= k / nr + (k % nr != 0)) /* x - 1 >= full nr >= k */
            continue;
        int64_t lo = 1, hi = nr;
        while (lo < hi) {
            int64_t y = lo + (hi - lo) / 2;
            if (full * per + fair_units(s, i, y, s0) >= left)
                hi = y;
            else
                lo = y + 1;
        }
        k = min64(k, full * nr + lo - 1);
    }
    return k == INT64_MAX ? 0 : k;
}

static hta_status fair_leap(sim *s, int64_t k, hta_diag *d)
{
    int64_t nr = s->fnr, s0 = nr > 0 ? (s->fstart + 1) % nr : 0;
    hta_ft_sched *r = s->rec;
    for (int64_t x = 0; r && x < k; x++) { /* the record, slot by slot */
        size_t need = s->nlog + (size_t)nr;
        if (!HTA_RESERVE(r->e, r->cap, r->n + need))
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory");
        for (size_t q = 0; q < s->nlog; q++)
            if (!own_unit(s, &s->log[q])) { /* running tasks */
                hta_ft_entry y = s->log[q];
                y.slot = s->t + 1 + x;
                r->e[r->n++] = y;
            }
        for (int64_t p = 0; p < nr; p++) {
            int64_t i = s->got[p];
            int64_t u = fair_units(s, i, x + 1, s0) - fair_units(s, i, x, s0);
            if (u > 0)
                r->e[r->n++] = (hta_ft_entry){
                    s->t + 1 + x, i, s->mrem[i] > 0 ? 0 : 1, -1, u, 1};
        }
    }
    for (int64_t p = 0; p < nr; p++) {
        int64_t i = s->got[p], u = fair_units(s, i, k, s0);
        if (u > 0 && (*(s->mrem[i] > 0 ? &s->mrem[i] : &s->rrem[i]) -= u) < 1)
            return overshot(s, d);
    }
    if (nr > 0)
        s->rot += (uint64_t)k;
    return leap_rest(s, k, d);
}

/* Kept out of the slot loop's file, so out of the loop (inlined there,
 * it slowed srpt by 11% on a trace with an event nearly every slot,
 * where leaps are rare). */
hta_status ft_try_leap(sim *s, hta_diag *d)
{
    hta_status st = HTA_OK;
    if (s->pol == HTA_FT_FAIR) {
        int64_t k = fair_bound(s);
        if (k > 0)
            st = fair_leap(s, k, d);
        for (int64_t q = 0; q < s->fnr; q++)
            s->lm[s->got[q]] = s->lr[s->got[q]] = s->lv[s->got[q]] = 0;
    } else {
        int64_t k = leap_bound(s);
        if (k > 0)
            st = leap(s, k, d);
    }
    if (st == HTA_OK && s->pol == HTA_FT_ASRPT)
        st = ft_asrpt_check(s, d);
    return st;
}
