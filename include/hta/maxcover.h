/* Max-cover (Fischer-Su-Yin, Section 5.1.1, Lemma 5.2, Fact 5.1): the
 * largest set of tasks that can run locally when no server takes more than
 * tau local tasks, i.e. a maximum flow in G'_rho (source -> task, cap 1;
 * task -> each server holding its block, cap 1; server -> sink, cap tau).
 *
 * Ownership: hta_maxcover_new allocates the state, which borrows the
 * instance (it must outlive the state); hta_maxcover_free releases it.  The
 * arrays returned by the accessors belong to the state and change with
 * every hta_maxcover_raise.
 */
#ifndef HTA_MAXCOVER_H
#define HTA_MAXCOVER_H

#include <stdint.h>

#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hta_maxflow_engine {
    HTA_MAXFLOW_INCREMENTAL, /* Fact 5.1: augment the previous flow */
    HTA_MAXFLOW_IGRAPH       /* igraph_maxflow on G'_rho for every tau */
} hta_maxflow_engine;

typedef struct hta_maxcover hta_maxcover;

/* Counters for benchmarks and traces. */
typedef struct hta_maxcover_stats {
    int64_t direct;     /* tasks matched by a direct server scan */
    int64_t augmented;  /* augmenting paths of length >= 2 */
    int64_t phases;     /* breadth-first phases */
    int64_t forward;    /* of which searched forward */
    int64_t visited;    /* servers visited by the phases */
    int64_t guessed;    /* phases run as guessed phases */
    int64_t missed;     /* guesses short of the shortest paths */
    int64_t flow_calls; /* igraph_maxflow calls */
} hta_maxcover_stats;

hta_status hta_maxcover_new(const hta_instance *inst, hta_maxflow_engine e,
                            hta_maxcover **out, hta_diag *d);

/* Raises the threshold to tau (tau >= 1, never decreasing) and makes the
 * cover maximum for it.  When the maximum does not grow, the cover is left
 * exactly as it was (both engines), so equal f(tau) means equal covers.
 *
 * incremental: the previous cover stays valid (Fact 5.1) and is augmented
 * along shortest augmenting paths in Dinic-style phases; over a whole sweep
 * at most m augmentations, each phase O(|E|).  igraph: one igraph_maxflow on
 * G'_rho, O(|E| * sqrt(m + n)) or worse per call. */
hta_status hta_maxcover_raise(hta_maxcover *mc, int64_t tau, hta_diag *d);

/* A new state's first raise (incremental engine, nothing covered yet)
 * from a task-side greedy: each task in turn goes to the least loaded of
 * its servers below tau (the first of them on a tie), then the phases
 * make the cover maximum.  The same f(tau) as hta_maxcover_raise, another
 * cover; the state then goes on like any other (later raises, the log).
 * On placements with about as many servers as tasks the greedy leaves
 * few tasks out, where the servers' scan leaves many to the phases. */
hta_status hta_maxcover_raise_greedy(hta_maxcover *mc, int64_t tau,
                                     hta_diag *d);

/* The same with a cap per server (incremental engine): cap[s] >= the
 * current cap of every server (0 for a new state), n entries; the cover
 * stays valid and is augmented to a maximum b-matching with these caps.
 * A state raised this way is not raised by hta_maxcover_raise after, and
 * keeps no free counts (hta_maxcover_free_counts returns NULL). */
hta_status hta_maxcover_raise_caps(hta_maxcover *mc, const int64_t *cap,
                                   hta_diag *d);

/* Retiring (incremental engine, on by default): a phase that finds no
 * augmenting path takes every server its search reached out of the rest of
 * the sweep, since none of them can be on an augmenting path again; the
 * covers are the same as with it off, only the searches shrink
 * (maxcover_paths.c says why).  Off is the reference for tests and benchmarks. */
void hta_maxcover_set_retire(hta_maxcover *mc, int on);

/* Forward phases (incremental engine, on by default): a phase searches
 * from the servers holding an uncovered task instead of from the servers
 * below their cap when that side is smaller; the same augmenting paths,
 * hence the same covers (maxcover_paths.c says why).  0 (off) is the
 * reference, 1 the default, 2 searches every phase forward (tests). */
void hta_maxcover_set_forward(hta_maxcover *mc, int on);

/* Guessed phases (incremental engine, on by default): a backward phase
 * guesses that its shortest paths are one step longer than the last
 * phase's (at least that, Dinic) and searches only that far, the last
 * layer read off by its depth-first search; the same paths, hence the same
 * covers (maxcover_paths.c), and the rest of the search when the guess is
 * short.
 * 0 (off) is the reference for tests and benchmarks, 1 the default (a
 * guess after a phase of many paths), 2 a guess after every phase (tests:
 * the guesses that miss). */
void hta_maxcover_set_guess(hta_maxcover *mc, int on);

/* f(tau): the number of covered tasks. */
int64_t hta_maxcover_size(const hta_maxcover *mc);

/* After a raise of the incremental engine: servers in increasing order,
 * among them every server at its cap (and others); *len of them.  With
 * retiring on, most servers of a skewed placement are below tau and left
 * out, so a sweep reads the servers at tau in O(len), not O(n). */
const int32_t *hta_maxcover_alive(const hta_maxcover *mc, int32_t *len);

/* cover[t]: the server running t locally, or -1 for an uncovered task. */
const int32_t *hta_maxcover_cover(const hta_maxcover *mc);

/* loads[s]: the number of covered tasks on server s (at most tau). */
const int32_t *hta_maxcover_loads(const hta_maxcover *mc);

/* nfree[s]: the uncovered tasks local to s (F_s).  Maintained in O(1) per
 * covered replica by the incremental engine, recomputed in O(|E|) by the
 * igraph engine when the cover changes; made at the first raise, so NULL
 * before it, and NULL once dropped (below). */
const int32_t *hta_maxcover_free_counts(const hta_maxcover *mc);

/* Stops maintaining the free counts (incremental engine; the igraph
 * engine keeps its own).  Their upkeep is a random read of every newly
 * covered task's replicas, a fifth of a Zipf sweep's time: a sweep that
 * does not read them drops them (fsy bounds them from the loads). */
void hta_maxcover_drop_free_counts(hta_maxcover *mc);

/* A maximum b-matching for bal-assign's slots: the tasks with fixed[t] < 0
 * are matched to servers holding their block, at most cap[s] to server s,
 * as many as possible.  Writes a[t] = fixed[t] for fixed tasks, the matched
 * server or -1 for the others.  Uses mc (incremental engine only) as
 * scratch: its cover is reset, so a sweep needs a separate object.
 * O(m + n + |E|) per phase, few phases in practice. */
hta_status hta_maxcover_fill(hta_maxcover *mc, const int32_t *fixed,
                             const int64_t *cap, int32_t *a, hta_diag *d);

/* The same from the greedy start (hta_maxcover_raise_greedy, each task
 * to the server of most room left), wanting a perfect matching: when
 * every task with fixed[t] < 0 is matched, *perfect = 1 and a is written
 * as above (a perfect matching, any: every server then holds cap[s]
 * matched tasks when the caps sum to the tasks to match); else *perfect
 * = 0 and a is left as it was.  Where a perfect matching exists the
 * greedy leaves few tasks to the phases and reads no server's list. */
hta_status hta_maxcover_fill_perfect(hta_maxcover *mc, const int32_t *fixed,
                                     const int64_t *cap, int32_t *a,
                                     int *perfect, hta_diag *d);

const hta_maxcover_stats *hta_maxcover_stats_get(const hta_maxcover *mc);

/* The change log (incremental engine): once enabled, every change of the
 * cover (task t now covered by server s) is appended as a pair: (t, s)
 * when t was uncovered, (~t, s) when t moves from another server, which
 * is then always the server of the entry before (an augmenting path
 * covers its free task, then moves each of its tasks one server along).
 * A later reader rebuilds the cover of any tau of a sweep by replaying a
 * prefix, or by undoing a suffix from the sweep's last cover, without
 * repeating the sweep.  Memory: 8 bytes a change, at most m direct covers
 * plus the moves of the augmenting paths.  Out of memory stops the log
 * and marks it lost; the cover itself is unaffected. */
void hta_maxcover_log_start(hta_maxcover *mc);
/* The entries so far, or -1 when the log is off or was lost. */
int64_t hta_maxcover_log_len(const hta_maxcover *mc);
/* Hands the log over: *task and *server (len pairs) become the caller's
 * to free, and the log stops.  Returns 0 (nothing handed over) when the
 * log is off or was lost. */
int hta_maxcover_log_take(hta_maxcover *mc, int32_t **task, int32_t **server,
                          int64_t *len);

/* Applies entries [from, to) of a log to cover and loads (the state after
 * entry from - 1), giving the state after entry to - 1.  O(to - from). */
void hta_maxcover_log_replay(const int32_t *log_t, const int32_t *log_s,
                             int64_t from, int64_t to, int32_t *cover,
                             int32_t *loads);
/* Undoes entries [from, to), the last first: from the state after entry
 * to - 1 to the state after entry from - 1.  from must be 0 or the end
 * of a raise (no move is the first entry of a raise).  O(to - from). */
void hta_maxcover_log_undo(const int32_t *log_t, const int32_t *log_s,
                           int64_t from, int64_t to, int32_t *cover,
                           int32_t *loads);

/* Hands the cover array over (inst->m entries, the caller's to free):
 * a caller done with the state reuses memory whose pages are already
 * touched (fsy's replay of the log).  The state may then only be freed. */
int32_t *hta_maxcover_cover_take(hta_maxcover *mc);

/* The f(tau) sweep: f[tau] for tau = 0, 1, ..., K by the incremental
 * engine, up to f = m, or earlier when enough (if not NULL) returns
 * non-zero for the prefix f[0..K] computed so far.  *f is allocated here
 * (the caller frees it).  O(one incremental sweep). */
hta_status hta_maxcover_sweep(const hta_instance *inst,
                              int (*enough)(void *ctx, const int64_t *f,
                                            int64_t K),
                              void *ctx, int64_t **f, int64_t *K,
                              hta_diag *d);

void hta_maxcover_free(hta_maxcover *mc);

/* Makes igraph report errors as return codes instead of aborting; called
 * once by hta_maxcover_new, harmless to call again. */
/* The diagnostic for an igraph error code: "out of memory" (exit 1 like
 * every allocation failure) for IGRAPH_ENOMEM, else "igraph: <what>: ...".
 * Returns HTA_ERR_INTERNAL. */
hta_status hta_igraph_error(int err, const char *what, hta_diag *d);

void hta_igraph_init(void);

#ifdef __cplusplus
}
#endif

#endif
