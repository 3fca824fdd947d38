/* The instance model: tasks, servers, the placement graph and the costs
 * (Fischer, Su, Yin, "Assigning Tasks for Efficiency in Hadoop", SPAA 2010,
 * Definitions 2, 3 and 7).
 *
 * Ownership: an hta_instance is created by hta_instance_parse or
 * hta_instance_build and released with hta_instance_free; every array in it
 * belongs to it.  Callers read the fields but never modify them.
 */
#ifndef HTA_INSTANCE_H
#define HTA_INSTANCE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "hta/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Documented limits (README, "Limits"); tests probe them. */
#define HTA_MAX_TASKS 2147483646LL   /* ids fit in int32_t */
#define HTA_MAX_SERVERS 16777216LL   /* 2^24 */
#define HTA_MAX_WREM_TABLE 1000000LL /* entries of a w_rem table */
/* Locality levels, here and in clusters (cluster.h): 1 local, ..., N. */
#define HTA_MAX_LEVELS 8

typedef enum hta_wrem_kind { HTA_WREM_TABLE, HTA_WREM_AFFINE } hta_wrem_kind;

/* The remote cost w_rem(r) as a function of the number r of remote tasks:
 * a table v[0..k] with w_rem(r) = v[min(r, k)], or a + b*r. */
typedef struct hta_wrem {
    hta_wrem_kind kind;
    int64_t k;  /* table: index of the last entry */
    double *v;  /* table: k + 1 non-decreasing values (owned) */
    double a, b;
} hta_wrem;

/* Servers that hold no replica and that no line names are idle and
 * interchangeable, and an assignment of m tasks uses at most m of them; so
 * when the declared count n_declared exceeds k + m, k being 1 + the largest
 * server id any line names, every algorithm works on the first n = k + m
 * servers only, and memory follows what was read, not the header:
 *   - an optimal assignment never needs a server beyond them (move its
 *     tasks to an unused idle server of smaller id: same loads), so the
 *     optimum, brute force's lexicographically first optimum and the ILP's
 *     value are those of the declared instance;
 *   - deterministic round robin visits servers 0, 1, ... and gives a task
 *     at every visit, so it stops before server m;
 *   - bal-assign gives each uncovered task to a least loaded server, ties
 *     to the least id: an idle server beyond the first m idle ones is never
 *     reached;
 *   - randomized round robin visits servers in a random order of all
 *     n_declared, drawn lazily (rr.c), and evaluation takes any server id
 *     below n_declared (assign.h), so assignments may use the rest.
 * Lower bounds and Theorem 5.4's term computed on n servers are valid for
 * the declared instance, whose optimum is the same (and never weaker). */
typedef struct hta_instance {
    int32_t m;       /* tasks 0..m-1 */
    int32_t n;       /* servers 0..n-1 the algorithms work on (above) */
    int32_t n_declared; /* servers of the instance, n <= n_declared */
    int64_t edges;   /* |E|: number of (task, server) placement pairs */
    double w_loc;
    hta_wrem wrem;
    /* Placement graph, task side: the servers of task t are
     * task_srv[task_off[t] .. task_off[t+1]), in file order. */
    int64_t *task_off;
    int32_t *task_srv;
    /* Server side: the tasks local to s are srv_task[srv_off[s] ..
     * srv_off[s+1]), in increasing task id. */
    int64_t *srv_off;
    int32_t *srv_task;
    /* Optional names (NULL when the file has none; entries NULL when
     * unnamed): "name task <t> <name>", "name server <s> <name>",
     * "rack <s> <name>" lines. */
    char **task_name;
    char **server_name;
    char **server_rack;
    /* N-level locality (levels.h): 0 or 2 for FSY's two levels, N > 2
     * when w_level lines give the costs of the levels between local and
     * remote, which rack paths define.  wlev[l] is level l's cost for
     * 2 <= l < N (level N's is wrem); grp[l][s] server s's group at level
     * l, 0..ngrp[l]-1. */
    int levels;
    hta_wrem wlev[HTA_MAX_LEVELS];
    int32_t ngrp[HTA_MAX_LEVELS];
    int32_t *grp[HTA_MAX_LEVELS];
} hta_instance;

/* w_rem(r) for r >= 0.  O(1). */
double hta_wrem_at(const hta_wrem *w, int64_t r);

/* *dst = *src with its own copy of a table (dst's old table is not
 * freed).  HTA_ERR_INTERNAL on out of memory. */
hta_status hta_wrem_copy(hta_wrem *dst, const hta_wrem *src);

/* 1 when w_rem is the same for every r (a table of one distinct value or
 * an affine function with b = 0). */
int hta_wrem_is_constant(const hta_wrem *w);

/* 1 when the largest possible load, m * max(w_loc, w_rem(m)) (every task
 * remote on one server), is finite, so that every load is.  O(1). */
int hta_costs_finite(double w_loc, const hta_wrem *w, int64_t m);

/* 1 when every load is computed exactly: integral costs (w_loc and every
 * w_rem value) and loads below 2^53, so makespans are integers.  O(1)
 * for affine costs, O(table) for a table. */
int hta_instance_exact_costs(const hta_instance *inst);

/* Reads an instance (format v1, README) from path ("-": stdin).  On failure
 * returns HTA_ERR_IO or HTA_ERR_INPUT with the diagnostic filled and *out
 * NULL.  The file is read in a stream; memory follows the lines read
 * (never a header count) until m task lines have been read.  O(size of the
 * file) time and memory, plus O(n) for the server side. */
hta_status hta_instance_parse(const char *path, hta_instance **out,
                              hta_diag *d);

/* The same, polling *stop (NULL: never) before each MiB it reads, and
 * when a read of a pipe or FIFO is cut by a signal: non-zero ends it with
 * HTA_ERR_INTERNAL "interrupted" and *out NULL.  For callers that stop a
 * long read on request (the Python package's Ctrl-C). */
hta_status hta_instance_parse_stop(const char *path,
                                   volatile sig_atomic_t *stop,
                                   hta_instance **out, hta_diag *d);

/* Task lines in the plain form "task T S1 S2 ..." (one space between
 * ids, digits only, T the next task) are read in place, without the
 * general path's tokens; on (1) by default.  0 reads every line by the
 * general path, the reference (tests compare both: the same instances,
 * the same diagnostics).  Process-wide; for tests and benchmarks. */
void hta_instance_fast_lines(int on);

/* Threads of the reader: the fast path's windows of whole lines, window
 * bytes at a time (0: 1 MiB, the read buffer), each cut in two halves
 * read side by side, and the server side's passes split in two, when
 * threads is 2, or 0 (the default) and the machine has two processors or
 * more, and a half holds at least split_min bytes (of text; of replica
 * ids for the server side; 0: 256 KiB); 1 thread reads alone.  The same
 * instances and diagnostics whatever the values (tests read with tiny
 * windows and split_min 1).  Process-wide, not to be changed while
 * another thread parses or builds an instance; for tests and
 * benchmarks. */
void hta_instance_read_tuning(int threads, size_t window, size_t split_min);

/* Same, from memory; name is used in diagnostics. */
hta_status hta_instance_parse_memory(const char *name, const char *text,
                                     size_t len, hta_instance **out,
                                     hta_diag *d);

/* Builds an instance from CSR arrays (copied): the servers of task t are
 * srv[off[t] .. off[t+1]).  wrem is copied.  Checks every rule of the file
 * format (Definition 3 and 7).  O(m + n + |E|). */
hta_status hta_instance_build(int32_t m, int32_t n, double w_loc,
                              const hta_wrem *wrem, const int64_t *off,
                              const int32_t *srv, hta_instance **out,
                              hta_diag *d);

/* Writes inst in format v1; parse(write(x)) == x.  comment, if not NULL, is
 * written as '#' lines at the top.  Returns HTA_ERR_IO on a write error,
 * HTA_ERR_INTERNAL on out of memory (a name's escape buffer). */
hta_status hta_instance_write(const hta_instance *inst, FILE *f,
                              const char *comment);

/* The same, polling *stop (NULL: never) every 65,536 tasks: non-zero
 * ends it with HTA_ERR_INTERNAL, the file cut. */
hta_status hta_instance_write_stop(const hta_instance *inst, FILE *f,
                                   const char *comment,
                                   volatile sig_atomic_t *stop);

/* 1 when server s holds task t's block; 0 otherwise, and for a task id
 * outside 0..m-1 (an id no task has holds nothing).  O(replicas of t). */
int hta_instance_is_local(const hta_instance *inst, int32_t t, int32_t s);

/* The name of a task ('t', 0..m-1), server ('s', 0..n_declared-1) or a
 * server's rack path ('r'), or NULL: unnamed, or an id out of range.
 * O(1). */
const char *hta_instance_name(const hta_instance *inst, char kind, int64_t id);

/* Sets a name (copied, as given: the writer escapes it, gate.h); kind
 * 't' task, 's' server, 'r' rack path.  A server id below n_declared
 * beyond the working ones makes the servers up to it working ones.
 * HTA_ERR_INPUT when the name breaks the gate's rules (hta_gate_name),
 * the id is out of range (0..m-1 for a task, 0..n_declared-1 for a
 * server), or a rack path comes after hta_instance_set_levels (whose
 * groups are made from the paths); HTA_ERR_INTERNAL on out of memory.
 * O(strlen(name)), plus O(id - n) when the working servers grow. */
hta_status hta_instance_set_name(hta_instance *inst, char kind, int32_t id,
                                 const char *name, hta_diag *d);

/* Groups of tasks with the same replica set (as sets): order[0..m) lists
 * the tasks group by group, each group in increasing task id, and group g
 * is order[first[g] .. first[g+1]); *ngroups receives the count.  The
 * caller provides order (m entries) and first (m + 1 entries).
 * O(|E| log |E| + m log m). */
hta_status hta_instance_groups(const hta_instance *inst, int32_t *order,
                               int32_t *first, int32_t *ngroups,
                               hta_diag *d);

/* Exact equality of two instances (same costs, same replica lists). */
int hta_instance_equal(const hta_instance *a, const hta_instance *b);

void hta_instance_free(hta_instance *inst);

/* Writes x so that strtod reads back the same double, shortest form. */
void hta_format_real(char buf[32], double x);

#ifdef __cplusplus
}
#endif

#endif
