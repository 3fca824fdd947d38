/* The decision "is there an assignment of makespan <= L?" by a SAT solver
 * (CaDiCaL), exact both ways: a yes comes with an assignment (re-evaluated
 * by the evaluator), a no is a proof, and the CNF can be written for
 * another solver to re-check.
 *
 * It applies when w_rem is one value c >= w_loc and the costs and L are
 * integers (hta_instance_exact_costs).  Then, with U = floor(L / w_loc)
 * and g(k) = k + floor((L - w_loc k) / c) (a server running k local tasks
 * has room for g(k) - k remote ones), an assignment of makespan <= L
 * exists iff some b-matching of tasks to servers holding their blocks
 * (k_s <= U) has sum_s g(k_s) >= m (close.h).  Multiplied by c:
 *   c g(k) = (c - w_loc) k + L - r(k),  r(k) = (L - w_loc k) mod c,
 * so the criterion reads, with M the maximum b-matching at U,
 *   (c - w_loc) (M - sum k) + sum_s r(k_s) <= S = (c - w_loc) M + n L - c m.
 * M - sum k is not local, but a minimum vertex cover (C_T tasks, C_S
 * servers, |C_T| + U |C_S| = M, every placement pair touches it) splits
 * it into terms of single tasks, servers and pairs (König):
 *   M - sum k = #(C_T tasks not local) + sum_{s in C_S} (U - k_s)
 *             + #(local pairs between C_T and C_S).
 * The encoding is this "deficit" form: every term is a literal of small
 * weight, and they must sum to at most S, the slack of the flow bound.
 * Where the bound is nearly tight (S of a few units, the instances fsy
 * and the search leave one unit short) the sum propagates at once: most
 * literals are forced false.  Per server, one cardinality network over
 * its placement pairs (both directions, truncated at U + 1) gives
 * [k_s >= v]; per task, at most one local server; the deficit sum is
 * Sinz's sequential counter up to S = 8 (on Zipf s = 1.5, 10^4 tasks,
 * S = 2: 30 s against 106 s with a network) and above that one more
 * cardinality network (one direction) truncated at S + 1.
 *
 * Measured and not kept (uf20-01's reduction at L = 3, and an 8-variable
 * unsatisfiable one): sum_s g(k_s) >= m as one at-least constraint, by a
 * sorting network or a totalizer over the servers in id order; neither
 * decides the 8-variable reduction in 120 s.  The reductions need a
 * counting argument per variable gadget (at most omega hosts in a ring of
 * 2 omega servers) that a flat cardinality constraint hides.
 *
 * Ownership: the caller owns assign (m entries) and the FILE.
 */
#ifndef HTA_SATDEC_H
#define HTA_SATDEC_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "hta/diag.h"
#include "hta/instance.h"

/* The most literals (with clause ends) a CNF may have: 4 bytes each here,
 * more inside CaDiCaL (Zipf s = 1.5, 10^4 tasks: 1.27*10^7 literals, 0.68
 * GB resident after 1 s of search, 1.1 GB after 100 s), so about 2-3 GB
 * at the cap.  CaDiCaL ends the process when it runs out of memory; the
 * cap keeps it far from that on this kind of machine. */
#define HTA_SATDEC_MAX_LITS 25000000LL

typedef struct hta_satdec_opts {
    double time_limit;           /* seconds */
    volatile sig_atomic_t *stop; /* polled by the solver, or NULL */
    int64_t max_lits;            /* 0: HTA_SATDEC_MAX_LITS */
    FILE *cnf;                   /* DIMACS of the decision, or NULL */
    int generic;                 /* never decide on a recognised formula */
    int engine;                  /* the general decision, per piece: */
    const char *write_lp;        /* the general decision: GLPK's model of
                                    a no in one piece, or NULL (below) */
} hta_satdec_opts;

/* hta_satdec_opts.engine: GLPK on the envelope-cut model (below) with
 * half the time, then CaDiCaL with the rest (AUTO; CaDiCaL alone when a
 * CNF is to be written), or one of them alone. */
enum { HTA_SATDEC_AUTO, HTA_SATDEC_CADICAL, HTA_SATDEC_GLPK };

typedef enum hta_satdec_answer {
    HTA_SATDEC_YES,     /* assign has makespan <= L */
    HTA_SATDEC_NO,      /* proof: no assignment has makespan <= L */
    HTA_SATDEC_UNKNOWN, /* time limit or stop flag */
    HTA_SATDEC_NA       /* does not apply (why says which condition) */
} hta_satdec_answer;

typedef struct hta_satdec_result {
    hta_satdec_answer answer;
    double makespan;       /* the assignment's (evaluator), on a yes */
    int64_t slack;         /* S above, after constant deficits */
    int64_t cover_tasks;   /* |C_T| */
    int64_t cover_servers; /* |C_S| */
    int64_t vars, clauses; /* the CNF (0 when no CNF was needed; the
                              general decision: summed over its pieces) */
    int64_t pieces;        /* the general decision: pieces of the remote
                              count decided (1 for the constant one) */
    int64_t blocked;       /* the general decision: models blocked because
                              no assignment realises them */
    int matched;           /* the general decision's yes: realised by the
                              matching (decode_remote), not the greedy */
    int reduction;         /* decided on the formula inst reduces from */
    int glpk;              /* the general decision: answered by GLPK's
                              path (a no there may need no model: no
                              remote slot at all) */
    int64_t glpk_solves;   /* GLPK branch-and-bound runs (pieces, tightened
                              ranges, excluded solutions) */
    int lp_written;        /* opts->write_lp was written */
    double seconds_encode, seconds_solve;
    char why[160];         /* NA: the reason; NO without a CNF: why */
} hta_satdec_result;

/* Decides makespan <= L as above.  O(|E| log^2 U) clauses for the servers,
 * O(|E| log^2 S) for the deficit sum, then the solver.  But at L = 3, on
 * an instance that is exactly the 3SAT reduction of a formula
 * (hta_reduce_recognize, reduce.h) and unless opts->generic, on the
 * formula: Theorem 3.1 makes the decision its satisfiability; a yes is
 * Lemma 3.4's witness (evaluated), cnf gets the formula, res->reduction
 * is 1 and vars and clauses are the formula's (slack and cover 0).
 * HTA_ERR_* only for failures (out of memory, a write error on cnf); an
 * answer of any kind is HTA_OK. */
hta_status hta_satdec_decide(const hta_instance *inst, double L,
                             const hta_satdec_opts *opts, int32_t *assign,
                             hta_satdec_result *res, hta_diag *d);

/* 1 when the decision applies to inst (constant w_rem >= w_loc, integer
 * costs); otherwise 0 and the reason in why (160 bytes). */
int hta_satdec_applies(const hta_instance *inst, char *why, size_t size);

/* The general decision: makespan <= L (strict: < L) for any cost model
 * with w_rem(0) >= w_loc > 0 (w_rem a table or affine in the remote count
 * r, fractional costs, any L).  With U the most local tasks a server can
 * run within L, M the maximum b-matching at U, and room_R(v) the most
 * remote tasks beside v local ones within L at w_rem(R) (the evaluator's
 * arithmetic), an assignment exists iff for some remote count R >= m - M
 * a b-matching k (k_s <= U) has sum_s (k_s + room_R(k_s)) >= m and
 * m - sum k <= R: its remote tasks fit the slots, and their number is at
 * most R, so their cost is at most w_rem(R) (non-decreasing).  room_R
 * only falls as R grows; on each piece of R where it is constant the
 * decision is one of the form above in task units: B g(v) = (B - 1) v +
 * Lt - r(v) with g(v) = v + room(v), B the piece's w_rem / w_loc rounded
 * down (at least 1), Lt the least value making every r(v) >= 0, and the
 * remote count m - sum k = m - M + (M - sum k) bounded by the piece's last
 * R: a cardinality constraint on the deficit literals of M - sum k.  The
 * pieces are decided in order of R, the first yes wins; a piece whose
 * flow relaxation fails (slack < 0) costs no search, and past the first R
 * with no remote slot at all nothing fits.  On a constant integer w_rem
 * and an integer L this is hta_satdec_decide's decision (one piece, B =
 * c / w_loc rounded down where hta_satdec_decide takes B = c; both exact).
 * A task on every server is local.  A model decodes by placing the
 * remote tasks in server order (one that lands on a server holding its
 * block runs local: never a larger load in exact arithmetic), else by a
 * matching that keeps them off such servers (with costs as doubles,
 * 0.7 * 10 > 0.7 * 3 + 0.7 * 7); a model neither realises within L is
 * blocked by a clause over the placement pairs, and the solver asked
 * again (res->blocked).  opts->cnf gets one CNF for all pieces, blocking
 * clauses included: each piece's clauses guarded by a selector, and a
 * clause asking for one selector, so it is unsatisfiable iff every piece
 * is (the certificate of a no, given that the blocked models are not
 * realisable).  A yes comes with an assignment, evaluated (makespan <= L,
 * or < L, checked).
 *
 * Engines (opts->engine): by default GLPK first, with half the time, on
 * the envelope-cut model of each piece (src/exact/envilp.h: the
 * placement pairs, per server a knapsack row whose integer points are
 * exactly the staircase y <= room(X) and the rows of the upper concave
 * envelope of v + room(v), and GLPK's Gomory, MIR, cover and clique
 * cuts).  A piece's rooms hold for every larger remote count, so a model
 * without solution refutes all of them at once; a solution realised as
 * above is the yes; one beyond the piece's range that does not realise
 * restricts the model to the piece, one within it is excluded by a row
 * (as a blocked model).  Then CaDiCaL with the rest of the time; CaDiCaL
 * alone when opts->cnf asks for the certificate.  HDFS Zipf s = 1.5,
 * affine 3 + 10^-4 r, 1000 tasks on 100 servers: "< 17.058" refuted by
 * GLPK in 0.03 s at the root (CaDiCaL: undecided in 600 s); Zipf s = 1.5,
 * 500 tasks, 3 + 0.0005 r, seed 2: "< 16" in 0.01 s (CaDiCaL 29 s).
 * opts->write_lp: when GLPK says no on the first piece (whose rooms stand
 * for every remote count, so its model alone is the proof), that model
 * in CPLEX LP format, the problem name saying what it refutes; a
 * solver's "no integer feasible solution" on it re-checks the no. */
hta_status hta_satdec_decide_general(const hta_instance *inst, double L,
                                     int strict, const hta_satdec_opts *opts,
                                     int32_t *assign, hta_satdec_result *res,
                                     hta_diag *d);

/* 1 when the general decision applies (w_rem(0) >= w_loc > 0); otherwise
 * 0 and the reason in why. */
int hta_satdec_applies_general(const hta_instance *inst, char *why,
                               size_t size);

#endif
