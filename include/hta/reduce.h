/* The reduction from 3SAT to (2,3)-UHTA of Fischer, Su, Yin (SPAA 2010),
 * Section 3.2, Theorem 3.1: a 3-CNF formula is satisfiable iff its
 * instance (w_loc = 1, w_rem = 3) has an assignment of makespan <= 3.
 *
 * Ids (0-based), alpha clauses, beta variables, omega the largest number
 * of occurrences of a literal:
 *   servers  C_u           u                        (u < alpha)
 *            R_j^(i)       alpha + 2*omega*i + j-1  (j = 1..2*omega)
 *            P             alpha + 2*omega*beta
 *   tasks    l_{u,v}       3u + v                   (v = 0, 1, 2)
 *            a_u           3*alpha + u
 *            r_j^(i)       4*alpha + 2*omega*i + j-1   on R_j, R_{j+1}
 *            v_j^(i)       4*alpha + 2*omega*beta + omega*i + j-1   on P
 *            p_k           4*alpha + 3*omega*beta + k  (k = 0, 1, 2) on P
 * l_{u,v} is on C_u and on R_{2j-1}^(i) if it is the j-th occurrence of
 * x_i, on R_{2j}^(i) if the j-th occurrence of -x_i; a_u only on C_u.
 *
 * Ownership: hta_reduction owns its 3-CNF and its instance.
 */
#ifndef HTA_REDUCE_H
#define HTA_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "hta/cnf.h"
#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hta_reduction {
    hta_cnf *f3;          /* the formula in 3-CNF (hta_cnf_to3) */
    const hta_cnf *orig;  /* borrowed: the formula as read */
    int32_t alpha, beta, omega;
    int32_t *var_index;   /* 3-CNF variable -> gadget index or -1 */
    int32_t *gadget_var;  /* gadget index -> 3-CNF variable */
    int32_t *ring_of;     /* literal task -> its ring server */
    hta_instance *inst;
} hta_reduction;

/* Builds the instance of Table 2.  O(size of the formula + beta*omega). */
hta_status hta_reduce_build(const hta_cnf *orig, hta_reduction **out,
                            hta_diag *d);

/* Lemma 3.4: from a model of the original formula (variables 1..nvars),
 * an assignment a[0..m) of makespan <= 3, its makespan (the evaluator's)
 * in *makespan unless NULL.  HTA_ERR_INPUT when the model falsifies a
 * clause (the message names it). */
hta_status hta_reduce_witness(const hta_reduction *r, const signed char *model,
                              int32_t *a, double *makespan, hta_diag *d);

/* Lemmas 3.5-3.10: from an assignment of makespan <= 3, a model of the
 * original formula (*model: nvars + 1 entries, caller frees), checked
 * against every clause.  HTA_ERR_NOPROOF when the makespan exceeds 3. */
hta_status hta_reduce_decode(const hta_reduction *r, const int32_t *a,
                             signed char **model, hta_diag *d);

/* A comment describing the id layout, for the instance file, written into
 * buf (1400 bytes hold it); returns buf. */
const char *hta_reduce_comment(const hta_reduction *r, char *buf,
                               size_t size);

void hta_reduce_free(hta_reduction *r);

/* Recognition: is inst exactly the instance hta_reduce_build makes from
 * some 3-CNF formula?  The layout above fixes alpha (the first task with
 * one replica is a_0 = task 3*alpha), omega (the first ring closes at
 * r_{2 omega}^(0), on R_{2 omega}^(0) and R_1^(0)) and beta; the formula
 * is read off the literal tasks (l_{u,v} on ring server R_j^(i) is the
 * v-th literal of clause u: variable i + 1, positive for odd j), rebuilt
 * with hta_reduce_build, and the two instances compared task by task
 * (replica sets, server count, w_loc = 1, w_rem = 3).  So a match is a
 * proof that Theorem 3.1 applies: inst has an assignment of makespan
 * <= 3 iff the formula is satisfiable.  *out is the reduction of the
 * formula read (it owns the formula: hta_reduce_match_free), or NULL
 * when inst is not one.  O(size of inst). */
hta_status hta_reduce_recognize(const hta_instance *inst,
                                hta_reduction **out, hta_diag *d);

/* Releases a reduction from hta_reduce_recognize and its formula. */
void hta_reduce_match_free(hta_reduction *r);

#ifdef __cplusplus
}
#endif

#endif
