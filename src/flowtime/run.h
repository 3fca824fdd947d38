/* The flow-time engine's state, shared by its two halves: policy.c
 * (the slot: admissions, SRPT's relaxation, the policies' rules) and
 * leap.c (leaping over the slots that repeat one without an event).
 * Internal to src/flowtime/. */
#ifndef HTA_FLOWTIME_RUN_H
#define HTA_FLOWTIME_RUN_H

#include "hta/flowtime.h"

typedef struct served {
    int64_t job, map, red; /* units SRPT gave job in this slot */
} served;

typedef struct sim {
    const hta_jobs *J;
    int32_t N;
    int pre;
    hta_ft_policy pol;
    hta_ft_sched *rec;
    int64_t t, next, active, done;
    hta_ft_result *res;
    /* the policy's state */
    int64_t *mrem;   /* map units left */
    int64_t *rrem;   /* reduce units not yet started */
    int64_t *mapend; /* slot in which the map work ended, 0 before */
    int64_t *tnext;  /* non-preemptive: next task to start (LPT order) */
    int64_t *tleft;  /* non-preemptive: tasks not finished */
    int32_t *held;   /* non-preemptive: machines running its tasks */
    int64_t *perm;   /* reduce tasks of each job, longest first */
    int64_t *prev, *nxt, head, tail; /* active jobs, arrival order */
    int64_t *rjob, *rtask, *rleft;   /* running tasks */
    int32_t nrun;
    /* the virtual SRPT schedule */
    int virt;
    int64_t *vrem, *vmap;  /* SRPT's remaining work, map units done */
    int64_t *vred, *rdone; /* dsrpt: SRPT's reduce units up to t - 1,
                              and those dsrpt did */
    int64_t *vlist, vhead, vend;
    int64_t *vdone, vdhead, vdend; /* finished by SRPT, not by the policy */
    served *sv; /* SRPT's units in this slot, SRPT order */
    int64_t nsv;
    /* fair */
    int64_t *ready, *got;
    uint64_t rot;
    int64_t fnr, fstart, flevel; /* this slot: ready jobs, start, level */
    /* leaping (leap.c's half of the file): this slot's work */
    int leaps, event;  /* leaping on; something happened in this slot */
    int logging;       /* the slot's units are noted: recording, or a
                          leap may follow (no arrival in the next slot) */
    hta_ft_entry *log; /* the units of this slot, in order */
    size_t nlog, logcap;
    int64_t *lm, *lr, *lv; /* per job: map, reduce units in the slot, and
                              SRPT's reduce units (dsrpt) */
    int64_t *touched, ntouched;
} sim;

/* Appends the slot's units (s->log) to the record, span slots from slot
 * on (policy.c). */
hta_status ft_record_log(sim *s, int64_t slot, int64_t span, hta_diag *d);

/* ASRPT's invariant against SRPT's map work (policy.c). */
hta_status ft_asrpt_check(const sim *s, hta_diag *d);

/* After a slot without an event: leaps as far as the slot before the
 * next one (leap.c). */
hta_status ft_try_leap(sim *s, hta_diag *d);

#endif
