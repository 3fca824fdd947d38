/* Gap closing on N > 2 levels: the decision "is there an assignment of
 * makespan <= T?" answered by search over slots, when every level's cost
 * is constant (c_1 = w_loc <= c_2 <= ... <= c_N), or every level's but the
 * top's, one constant-cost decision per piece of the top count
 * (toplevel.h).
 *
 * Slots.  Give each server s a number a_{s,l} of slots per level with
 * sum_l c_l a_{s,l} <= T.  A level-l slot of s (l >= 2) is put in the
 * pool of s's level-l group (level N: one pool, the cluster); a task may
 * take a local slot of a server holding its block, or a slot of a pool
 * at level l >= 2 whose group holds one of its replicas.  Claim: an
 * assignment of makespan <= T exists iff some slot vector lets every
 * task take a slot (a flow from the tasks, through their servers and
 * pools, saturating the tasks).
 *  - If: a task in the pool of level-l group G runs on a server s of G
 *    holding that slot (the pool's tasks are dealt to its servers by
 *    their a_{s,l}, which sum to the pool's capacity).  G holds one of
 *    the task's replicas and s is in G, so the task's level on s is at
 *    most l, and it costs at most c_l (costs rise with the level); s's
 *    load is at most sum_l c_l a_{s,l} <= T.
 *  - Only if: an assignment of makespan <= T, with a_{s,l} the tasks s
 *    runs at level l, is such a vector: a task at level l >= 2 on s
 *    shares s's level-l group with a replica, so it may take s's slot in
 *    that group's pool, and the load sum_l c_l a_{s,l} is s's.
 * Tasks with one replica set are one group of the flow (interchangeable),
 * so the network has a node per group, per server and per pool.
 *
 * The search.  Start with a_{s,1} = floor(T / c_1) (every slot local) and
 * a maximum flow.  While tasks are left without a slot, the servers and
 * pools an augmenting path reaches from them are saturated; a move adds
 * j = 1 or 2 slots of level l to a server s in a reached pool (level l
 * >= 2), taking from s's local slots the fewest that pay for them (the
 * local slots always fill what is left of s's budget), and is kept when
 * the maximum flow grows, undone otherwise (the maximum flow of the old
 * slots comes back: its value is unique).  Moves are tried by their
 * local loss first (slots removed beyond the server's unused ones, minus
 * the slots added); the search ends when no move of a round grows the
 * flow, or 32 of them did not (a move of loss <= 0 always grows it, so
 * the cap only cuts the speculative ones: each costs a maximum flow).  It only says yes with an assignment, which the caller
 * re-evaluates; no answer is not a proof.
 *
 * Ownership: the caller owns a (m entries).
 */
#ifndef HTA_EXACT_CLOSELEV_H
#define HTA_EXACT_CLOSELEV_H

#include <signal.h>
#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

typedef struct hta_closelev_result {
    int found;        /* a holds an assignment of makespan <= T */
    int stopped;      /* the deadline or the stop flag came first */
    int64_t start;    /* tasks placed by the all-local slots */
    int64_t moves;    /* moves kept */
    int64_t trials;   /* moves tried */
    int which;        /* decide_seq: the top setting of the answer */
    int64_t colds;    /* decide_seq: settings searched again cold */
} hta_closelev_result;

/* 1 when the search applies: N > 2 levels, every level's cost constant
 * below the top (the top's, w_rem(r), may grow: toplevel.h). */
int hta_closelev_applies(const hta_instance *inst);

/* The top level as one constant-cost decision (toplevel.h's pieces):
 * every level-N task costs c, and at most cap tasks are at level N (the
 * top pool's capacity is min(sum_s a_{s,N}, cap)).  A yes is then an
 * assignment of top count r <= cap whose top tasks cost w_rem(r) <= c
 * when c = w_rem(cap). */
typedef struct hta_closelev_top {
    double c;
    int64_t cap;
} hta_closelev_top;

/* Decides makespan <= T by the search above until deadline (hta_clock_now
 * seconds) or *stop, with the top level as top says (NULL: cost
 * w_rem(m), no cap; on constant costs, the instance's).
 * HTA_ERR_INTERNAL on out of memory. */
hta_status hta_closelev_decide(const hta_instance *inst, double T,
                               const hta_closelev_top *top, double deadline,
                               volatile sig_atomic_t *stop, int32_t *a,
                               hta_closelev_result *r, hta_diag *d);

/* Asked after the search under top setting k ends: full when every task
 * has a slot (a holds the assignment, top its level-N count).  1 goes
 * on with the setting *next; 0 stops, the assignment taken when full. */
typedef int (*hta_closelev_next)(void *ctx, int k, int full, int64_t top,
                                 hta_closelev_top *next);

/* The search under a sequence of top settings, from first on, each
 * setting from where the last left off (its slots kept, a server's top
 * slots past its new budget taken back): a warm start, since the
 * settings of a growing top share most of their moves.  A setting after
 * the first that the warm search leaves short is searched once more
 * cold: every top slot taken back (the servers that held them were
 * chosen at another cost), and a top slot's loss counting the idle
 * local slots of the server's whole level-2 group (its rack), where the
 * tasks it displaces find room, not only its own.  HDFS rack-aware,
 * 10^5 tasks, Zipf 2.2, top 3 + 0.01 r: the relaxation at 3 chose 478
 * servers, some for 3 top tasks each; at 8 the warm search kept 312 top
 * tasks and no move placed more; the cold search placed all (the
 * optimum, 11, found in 7 s where 30 s found nothing).  With next NULL
 * it is hta_closelev_decide.  r->which is the setting answered. */
hta_status hta_closelev_decide_seq(const hta_instance *inst, double T,
                                   const hta_closelev_top *first,
                                   hta_closelev_next next, void *ctx,
                                   double deadline,
                                   volatile sig_atomic_t *stop, int32_t *a,
                                   hta_closelev_result *r, hta_diag *d);

/* The count refutation of makespan <= T among the assignments whose top
 * count lies in [r0, r1] (0, m: all of them).  A server runs at most K =
 * floor(T / c_1) tasks (each costs c_1 at least); with D = n K - m, every
 * server runs at least K - D (the others' shortfalls from K sum to D), so
 * the tasks s runs at levels >= l cost it at least c_1 (K - D) + their
 * number times e_l = c_l - c_1 (costs rise with the level): there are at
 * most floor((T - c_1 max(K - D, 0)) / e_l) of them.  A maximum flow
 * from the tasks through their servers (level 1) and pools (levels >= 2)
 * to each server's chain of levels N -> ... -> 1 with those capacities,
 * then K to the sink, places every task in any assignment of makespan
 * <= T; *refuted when it places fewer (*room).  Tight where K n is about
 * m (every server full: at most one rack task fits in T = K c_1 + 0.5
 * with w_rack 1.5), weak elsewhere.  A growing top level: the counts R
 * in [r0, r1] split into pieces where the chain's level-N capacity,
 * floor(budget / (w_rem(R) - c_1)), is one value q; an assignment of top
 * count R in a piece pays at least w_rem(first R) per top task (room <=
 * q) and has at most the piece's last R top tasks (the capacity of the
 * top pool's inlet), so one flow per piece, and every piece refuted
 * refutes [r0, r1] (*room: the most any piece placed).  Polls deadline
 * (hta_clock_now seconds) and *stop as the search does: *stopped when
 * either came first (then nothing is refuted).  HTA_ERR_INTERNAL on out
 * of memory. */
hta_status hta_closelev_refute(const hta_instance *inst, double T, int64_t r0,
                               int64_t r1, double deadline,
                               volatile sig_atomic_t *stop, int *refuted,
                               int64_t *room, int *stopped, hta_diag *d);

/* The count flow at one target T, kept for refutations of several top
 * ranges (the pieces of a growing top: toplevel.h) so that its network
 * and base flow are built once.  hta_closelev_refute is new, refute,
 * free.  HTA_ERR_INTERNAL on out of memory. */
typedef struct hta_countflow hta_countflow;

hta_status hta_countflow_new(const hta_instance *inst, double T,
                             hta_countflow **cf, hta_diag *d);

hta_status hta_countflow_refute(hta_countflow *cf, int64_t r0, int64_t r1,
                                double deadline, volatile sig_atomic_t *stop,
                                int *refuted, int64_t *room, int *stopped,
                                hta_diag *d);

void hta_countflow_free(hta_countflow *cf);

#endif
