/* A map-task scheduling policy of the caller's, plugged into the online
 * simulator (sim.h): a table of functions over a view of the run's state.
 * The simulator draws the arrivals and the service times (common random
 * numbers: every policy, built-in or plugged in, sees one sample path),
 * keeps the queues, the servers and the measurements; the policy decides
 * two things:
 *
 *   route(state, v, task)   a task has arrived: put it in one queue
 *                           (hta_view_push, exactly once);
 *   serve(state, v, server) the server is idle: take one task from a
 *                           queue (hta_view_pop) and return it, or return
 *                           HTA_VIEW_IDLE to leave the server idle.
 *
 * Queues.  A policy declares how many FIFO queues it keeps: per_server
 * per server (queue j of server m is hta_view_queue(v, m, j)) and shared
 * ones (hta_view_shared(v, i)); JSQ-MaxWeight is per_server 1, shared 1,
 * GB-PANDAS per_server = the levels, FCFS shared 1.  The simulator keeps
 * them (O(1) push and pop, lengths at hand); the policy may keep more
 * state of its own behind its state pointer.
 *
 * The view is valid during the call it is passed to.  Every function of
 * it is O(1) unless said; none allocates but push (the task pool's
 * growth).  An out-pointer of a view call (n, len, lo, hi, w, tie,
 * level) may be NULL when its value is not wanted.  The simulator reads
 * a copy of the table taken and checked before the run: changing the
 * table during a run changes nothing.  Ties: hta_view_below draws from the run's routing stream, the
 * one the built-in policies draw their ties from, so a plug-in that
 * draws as a built-in does gives its output byte for byte.
 *
 * Rules the simulator enforces (the run ends with HTA_ERR_INPUT and
 * "policy NAME: ..." naming the broken rule): route pushes its task once
 * and pops nothing; serve pops at most one task and returns it; queues
 * and servers in range; hta_view_longest only with HTA_POLICY_LENGTHS.
 * A view call that breaks a rule returns -1 (push) or HTA_VIEW_IDLE.
 *
 * A callback returns HTA_VIEW_FAIL (route: nonzero) to end the run with
 * an error of its own (hta_view_fail's words, or "policy NAME failed").
 *
 * From the command line a policy comes from a shared library (`hta sim
 * --policy-lib ./mine.so`): it exports
 *     const hta_policy *hta_policy_entry(int abi);
 * which returns its table, or NULL when it was built for another ABI
 * than `abi` (HTA_POLICY_ABI).  The library needs no link to libhta: the
 * view carries its functions.
 *
 * Ownership: the table and its name are the caller's and outlive the
 * runs; init's state is freed by free (may be NULL). */
#ifndef HTA_POLICY_H
#define HTA_POLICY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HTA_POLICY_ABI 1

#define HTA_VIEW_IDLE ((int64_t)-1) /* serve: the server stays idle */
#define HTA_VIEW_FAIL ((int64_t)-2) /* serve: end the run with an error */

/* The most queues of each kind a policy may declare; per_server may be
 * HTA_POLICY_PER_LEVEL: one queue a level (N), known at the run. */
#define HTA_POLICY_MAX_PER_SERVER 64
#define HTA_POLICY_MAX_SHARED 64
#define HTA_POLICY_PER_LEVEL (-1)

enum {
    /* serve(m) takes nothing when m's own queues and every shared queue
     * are empty, so the simulator need not ask (it then visits only the
     * idle servers with work: a slot costs its events, not the cluster's
     * size).  Leave it unset when an idle server may take from others'
     * queues. */
    HTA_POLICY_OWN_WORK = 1u,
    /* the simulator keeps, per group of every level >= 2, the servers
     * ordered by the length of their queue 0, for hta_view_longest */
    HTA_POLICY_LENGTHS = 2u,
    /* queue j of server m holds tasks of level j + 1 at m (JSQ-
     * MaxWeight's and Priority's queue 0: local tasks; GB-PANDAS' queue
     * n - 1: level n): checked at each push, where the type's replicas
     * are at hand, so that a server taking from its own queue starts
     * the task without working its level out again */
    HTA_POLICY_LEVEL_QUEUES = 4u,
    /* with a queue per level on each server (per_server = N) and
     * HTA_POLICY_LEVEL_QUEUES: the simulator keeps each server's queued
     * workload W_m = sum_n len(queue n - 1 of m) / alpha_n and GB-
     * PANDAS' arg-min tree over it, for hta_view_least and
     * hta_view_workload */
    HTA_POLICY_WORKLOADS = 8u,
    /* job arrivals: the simulator keeps each job's queued tasks (in
     * arrival order, indexed by level and group), the jobs with queued
     * tasks in fair-share order (fewest running tasks, then the older
     * job), for hta_view_push_job, hta_view_job_first, hta_view_job_best,
     * hta_view_take, hta_view_job_aside and the job marks: fair sharing
     * and delay scheduling */
    HTA_POLICY_JOBS = 16u
};

typedef struct hta_view hta_view;

/* The view's functions (call them through the hta_view_* wrappers). */
typedef struct hta_view_ops {
    int64_t (*slot)(const hta_view *v);
    double (*rate)(const hta_view *v, int level);
    const int32_t *(*replicas)(const hta_view *v, int64_t type,
                               int64_t *n);
    int (*level)(const hta_view *v, int64_t type, int32_t server);
    int64_t (*group)(const hta_view *v, int32_t server, int level);
    void (*span)(const hta_view *v, int level, int64_t group, int32_t *lo,
                 int32_t *hi);
    int64_t (*task_type)(const hta_view *v, int64_t task);
    int64_t (*task_arrival)(const hta_view *v, int64_t task);
    int64_t (*task_job)(const hta_view *v, int64_t task);
    int64_t (*len)(const hta_view *v, int64_t queue);
    int (*push)(hta_view *v, int64_t queue, int64_t task);
    int64_t (*pop)(hta_view *v, int64_t queue);
    uint32_t (*below)(hta_view *v, uint32_t n);
    int32_t (*longest)(hta_view *v, int32_t server, int level);
    int (*idle)(const hta_view *v, int32_t server);
    int64_t (*job_running)(const hta_view *v, int64_t job);
    int64_t (*queued)(const hta_view *v);
    void (*failure)(hta_view *v, const char *message);
    const char *(*error)(const hta_view *v);
    int32_t (*least)(hta_view *v, int32_t server, int level, double *w,
                     uint32_t *tie);
    double (*workload)(const hta_view *v, int32_t server);
    int (*push_job)(hta_view *v, int64_t task);
    int64_t (*job_first)(const hta_view *v);
    int64_t (*job_best)(hta_view *v, int64_t job, int32_t server,
                        int allowed, int *level);
    int64_t (*take)(hta_view *v, int64_t task);
    void (*job_aside)(hta_view *v, int64_t job);
    int64_t (*job_mark)(const hta_view *v, int64_t job);
    void (*set_job_mark)(hta_view *v, int64_t job, int64_t mark);
    int32_t (*shortest)(hta_view *v, int64_t type, int j, int64_t *len);
} hta_view_ops;

/* What a policy sees.  The fields are constant during a run. */
struct hta_view {
    const hta_view_ops *ops;
    void *sim;          /* the simulator's, opaque */
    int32_t servers;    /* M */
    int levels;         /* N >= 2 (level 1: local, N: remote) */
    int64_t types;      /* T */
    int per_server, shared; /* the policy's queues (per_server N for
                               HTA_POLICY_PER_LEVEL) */
};

typedef struct hta_policy {
    int abi;            /* HTA_POLICY_ABI: first, so that it is read
                           before anything else */
    const char *name;   /* 1 to 32 of [a-z0-9_-], not a built-in's */
    int per_server;     /* 0 .. HTA_POLICY_MAX_PER_SERVER, or
                           HTA_POLICY_PER_LEVEL (the view's per_server
                           is then N) */
    int shared;         /* 0 .. HTA_POLICY_MAX_SHARED; with per_server,
                           at least one queue */
    unsigned flags;     /* HTA_POLICY_OWN_WORK | HTA_POLICY_LENGTHS */
    /* before the run (may be NULL): *state for the other calls; nonzero
     * ends the run with an error, and free is then not called (init
     * releases what it made) */
    int (*init)(void **state, const hta_view *v, void *arg);
    void (*free)(void *state); /* after the run (may be NULL) */
    int (*route)(void *state, hta_view *v, int64_t task);
    int64_t (*serve)(void *state, hta_view *v, int32_t server);
    void *arg;          /* passed to init */
} hta_policy;

/* The shared library's entry (the top comment). */
typedef const hta_policy *(*hta_policy_entry_fn)(int abi);
#define HTA_POLICY_ENTRY "hta_policy_entry"

/* ---- the view's calls ---- */

/* The current slot (1, 2, ...). */
static inline int64_t hta_view_slot(const hta_view *v)
{
    return v->ops->slot(v);
}

/* alpha_n, the service rate at level n (1..N), per time unit. */
static inline double hta_view_rate(const hta_view *v, int level)
{
    return v->ops->rate(v, level);
}

/* The servers holding type L's data (its level-1 servers), *n of them;
 * NULL for a type out of range. */
static inline const int32_t *hta_view_replicas(const hta_view *v,
                                               int64_t type, int64_t *n)
{
    return v->ops->replicas(v, type, n);
}

/* The level (1..N) of server m for type L; O(replicas * levels). */
static inline int hta_view_level(const hta_view *v, int64_t type,
                                 int32_t server)
{
    return v->ops->level(v, type, server);
}

/* Server m's group at level n (2..N; level N: 0, the cluster), and a
 * group's servers, the run [lo, hi). */
static inline int64_t hta_view_group(const hta_view *v, int32_t server,
                                     int level)
{
    return v->ops->group(v, server, level);
}
static inline void hta_view_span(const hta_view *v, int level, int64_t group,
                                 int32_t *lo, int32_t *hi)
{
    v->ops->span(v, level, group, lo, hi);
}

/* A task's type, arrival slot and job (-1 without job arrivals). */
static inline int64_t hta_view_type(const hta_view *v, int64_t task)
{
    return v->ops->task_type(v, task);
}
static inline int64_t hta_view_arrival(const hta_view *v, int64_t task)
{
    return v->ops->task_arrival(v, task);
}
static inline int64_t hta_view_job(const hta_view *v, int64_t task)
{
    return v->ops->task_job(v, task);
}

/* Queue j of server m, shared queue i (plain arithmetic). */
static inline int64_t hta_view_queue(const hta_view *v, int32_t server,
                                     int j)
{
    return (int64_t)server * v->per_server + j;
}
static inline int64_t hta_view_shared(const hta_view *v, int i)
{
    return (int64_t)v->servers * v->per_server + i;
}

/* A queue's length (tasks). */
static inline int64_t hta_view_len(const hta_view *v, int64_t queue)
{
    return v->ops->len(v, queue);
}

/* route: the task to the tail of a queue; 0, or -1 (a rule broken, out
 * of memory: return nonzero from route). */
static inline int hta_view_push(hta_view *v, int64_t queue, int64_t task)
{
    return v->ops->push(v, queue, task);
}

/* serve: the task at the head of a queue, taken; HTA_VIEW_IDLE when the
 * queue is empty (or a rule is broken). */
static inline int64_t hta_view_pop(hta_view *v, int64_t queue)
{
    return v->ops->pop(v, queue);
}

/* A uniform draw from 0 .. n - 1 (n >= 1) of the routing stream. */
static inline uint32_t hta_view_below(hta_view *v, uint32_t n)
{
    return v->ops->below(v, n);
}

/* The replica of type L (a server holding its data) whose queue j is
 * the shortest, uniform among ties (one hta_view_below when there are
 * several, none else: the draws of JSQ-MaxWeight's and Priority's
 * routing), *len that queue's length; -1 for a type or j out of range
 * (a broken rule).  O(replicas): the scan a policy would write, without
 * a call per length. */
static inline int32_t hta_view_shortest(hta_view *v, int64_t type, int j,
                                        int64_t *len)
{
    return v->ops->shortest(v, type, j, len);
}

/* HTA_POLICY_LENGTHS: the server of m's level-n group (2..N) whose queue
 * 0 is the longest, uniform among ties (one hta_view_below), or -1 when
 * every one is empty. */
static inline int32_t hta_view_longest(hta_view *v, int32_t server,
                                       int level)
{
    return v->ops->longest(v, server, level);
}

/* HTA_POLICY_WORKLOADS: the server of m's level-n group (1: m itself,
 * N: the cluster) with the least workload W, *w its W and *tie its tie
 * (ties between equal W: the lesser tie, then the lesser server; a
 * server's tie is drawn anew from the routing stream at each change of
 * its W, as GB-PANDAS' built-in does); O(1) with a regular topology's
 * group sizes near powers of two, else O(log M).  -1 on a broken
 * rule. */
static inline int32_t hta_view_least(hta_view *v, int32_t server, int level,
                                     double *w, uint32_t *tie)
{
    return v->ops->least(v, server, level, w, tie);
}

/* HTA_POLICY_WORKLOADS: server m's W. */
static inline double hta_view_workload(const hta_view *v, int32_t server)
{
    return v->ops->workload(v, server);
}

/* HTA_POLICY_JOBS, route: the task to its job's queued tasks (instead
 * of hta_view_push); 0 or -1.  O(levels). */
static inline int hta_view_push_job(hta_view *v, int64_t task)
{
    return v->ops->push_job(v, task);
}

/* HTA_POLICY_JOBS: the first job in fair-share order (the fewest running
 * tasks, then the older job) among those with queued tasks and not set
 * aside in this serve; -1 when none.  O(1). */
static inline int64_t hta_view_job_first(const hta_view *v)
{
    return v->ops->job_first(v);
}

/* HTA_POLICY_JOBS: the job's queued task of the least level at the
 * server, if that level is at most `allowed` (*level it), the first such
 * in the job's order; -1 when none.  O(levels) once the job is indexed
 * (after a scan of more than 64 of its tasks), else the scan. */
static inline int64_t hta_view_job_best(hta_view *v, int64_t job,
                                        int32_t server, int allowed,
                                        int *level)
{
    return v->ops->job_best(v, job, server, allowed, level);
}

/* HTA_POLICY_JOBS, serve: takes the task hta_view_job_best gave last
 * (instead of hta_view_pop), at most one a serve; the task, or
 * HTA_VIEW_IDLE on a broken rule.  O(log jobs). */
static inline int64_t hta_view_take(hta_view *v, int64_t task)
{
    return v->ops->take(v, task);
}

/* HTA_POLICY_JOBS, serve: the job leaves the fair-share order until this
 * serve returns, so that hta_view_job_first gives the next (delay
 * scheduling's skip).  O(log jobs). */
static inline void hta_view_job_aside(hta_view *v, int64_t job)
{
    v->ops->job_aside(v, job);
}

/* HTA_POLICY_JOBS: a number kept per job for the policy, 0 when the job
 * arrives (delay scheduling's skips). */
static inline int64_t hta_view_job_mark(const hta_view *v, int64_t job)
{
    return v->ops->job_mark(v, job);
}
static inline void hta_view_set_job_mark(hta_view *v, int64_t job,
                                         int64_t mark)
{
    v->ops->set_job_mark(v, job, mark);
}

/* 1 when server m is idle. */
static inline int hta_view_idle(const hta_view *v, int32_t server)
{
    return v->ops->idle(v, server);
}

/* Job arrivals: the job's tasks in service. */
static inline int64_t hta_view_job_running(const hta_view *v, int64_t job)
{
    return v->ops->job_running(v, job);
}

/* Tasks in all the queues. */
static inline int64_t hta_view_queued(const hta_view *v)
{
    return v->ops->queued(v);
}

/* The words of the error a callback is about to return (copied). */
static inline void hta_view_fail(hta_view *v, const char *message)
{
    v->ops->failure(v, message);
}

/* The words of the first rule broken in this run ("policy NAME: ..."),
 * or NULL: a call that returned -1 or HTA_VIEW_IDLE may say why. */
static inline const char *hta_view_error(const hta_view *v)
{
    return v->ops->error(v);
}

#ifdef __cplusplus
}
#endif

#endif
