/* Max-cover's state, internal to src/offline/ (maxcover.h is the public
 * side): the struct both engines fill, and what the interface
 * (maxcover.c) asks of the engines: igraph's max-flow
 * (maxcover_igraph.c) and the incremental b-matching by augmenting paths
 * (maxcover_paths.c). */
#ifndef HTA_OFFLINE_MAXCOVER_IMPL_H
#define HTA_OFFLINE_MAXCOVER_IMPL_H

#include <stdint.h>

#include <igraph.h>

#include "hta/maxcover.h"

/* Newly covered tasks buffered before their free counts are updated. */
#define PEND 4096

struct hta_maxcover {
    const hta_instance *inst;
    hta_maxflow_engine engine;
    int64_t tau, size;
    int64_t coverable; /* tasks not excluded */
    int32_t *cover; /* per task: server, -1 uncovered, -2 excluded */
    int32_t *loads; /* per server: covered tasks */
    int64_t *cap;   /* per server: capacity; NULL while it is tau for
                       all, as in a sweep's raises (at 10^6 servers an
                       8 MB array written at every raise) */
    int32_t *nfree; /* per server: uncovered tasks local to it, made at
                       the first raise when count_free (a sweep that
                       drops them never writes them) */
    int count_free; /* 1: nfree is kept (until dropped, raise_caps, or a
                       fill before any raise) */
    hta_maxcover_stats stats;

    /* incremental engine */
    int32_t *next_free; /* per server: cursor over its tasks, from its
                           list's start (a degree fits in 32 bits); the
                           tasks before it are all covered */
    int32_t *level;     /* per server: BFS layer, -1 unseen, -2 and -3
                           dead for the phase, RETIRED for the sweep */
    int32_t *arc;       /* per server: current arc of the phase's DFS,
                           from its list's start */
    int32_t *queue;     /* BFS queue, also the list of touched servers */
    int32_t *seeds;     /* the run's servers below their cap, not retired
                           (phase), in increasing order; only shrinks */
    int32_t nseeds;
    int32_t *alive;     /* the servers holding a task and not retired, in
                           increasing order (retired ones leave at the next
                           run); NULL until the first run */
    int32_t nalive;     /* -1: to be made from the levels */
    int32_t *pend;      /* newly covered tasks whose free counts are due */
    int64_t npend;
    int retire;         /* retire servers (phase); 0 is the reference */
    int forward;        /* forward phases: 0 never (the reference), 1 by
                           the counts, 2 always (tests) */
    int guess;          /* guessed phases: 0 never (the reference), 1 try,
                           -1 not again in this run */
    int guess_all;      /* guess after every phase (tests), not only after
                           one of GUESS_AFTER paths */
    int32_t next_goal;  /* guessed phases: the next phase's least goal */
    int32_t *unc;       /* forward phases: the uncovered tasks (a superset,
                           compacted when read), NULL until needed */
    int64_t nunc;
    int32_t *path_srv;  /* DFS stack: servers */
    int32_t *path_task; /* DFS stack: task leading to the next server */
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


/* The level of a server retired for the rest of a sweep (maxcover_paths.c
 * says when). */
#define RETIRED (-4)

/* Server s's capacity. */
static inline int64_t cap_of(const hta_maxcover *mc, int32_t s)
{
    return mc->cap ? mc->cap[s] : mc->tau;
}

/* igraph's engine: the flow network of the instance, once; a raise to
 * mc->tau from the last flow. */
hta_status mc_igraph_setup(hta_maxcover *mc, hta_diag *d);
hta_status mc_igraph_raise(hta_maxcover *mc, hta_diag *d);

/* The incremental engine: phases of augmenting paths up to the caps
 * (elsewhere: servers whose tasks are covered elsewhere, or NULL); the
 * greedy start of a raise to tau, then the phases. */
hta_status mc_incremental_run(hta_maxcover *mc, const uint8_t *elsewhere);
hta_status mc_greedy_run(hta_maxcover *mc, int64_t tau, hta_diag *d);

#endif
