/* CNF formulas: DIMACS reading and writing, conversion to 3-CNF, models
 * (SAT-competition output) and evaluation.
 *
 * Ownership: formulas are allocated by the parse/convert functions and
 * released with hta_cnf_free; model arrays returned through out-parameters
 * belong to the caller (free()).  A model is a signed char array indexed
 * by variable 1..nvars: 1 true, 0 false.
 */
#ifndef HTA_CNF_H
#define HTA_CNF_H

#include <stdint.h>
#include <stdio.h>

#include "hta/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hta_fresh_kind {
    HTA_FRESH_FREE, /* any value satisfies its clauses */
    HTA_FRESH_CHAIN /* true iff the first pos+1 literals of clause are false */
} hta_fresh_kind;

typedef struct hta_cnf {
    int32_t nvars;     /* variables 1..nvars */
    int64_t nclauses;
    int64_t *off;      /* clause c: lits[off[c] .. off[c+1]) */
    int32_t *lits;     /* DIMACS literals: +v or -v */
    long *line;        /* per clause: line of its first literal (parsed) */
    /* Set by hta_cnf_to3 only: */
    int32_t orig_vars;     /* variables 1..orig_vars come from the input */
    hta_fresh_kind *fresh; /* per fresh variable v > orig_vars */
    int64_t *fresh_clause; /* CHAIN: the original clause */
    int32_t *fresh_pos;    /* CHAIN: position */
    int empty_clause;      /* the input had an empty clause */
} hta_cnf;

/* Reads DIMACS CNF: 'c' comment lines, one "p cnf V C" header, clauses of
 * literals in [-V, V] \ {0} ended by 0 (spanning or sharing lines), an
 * optional SATLIB '%' trailer that ends the formula.  The clause count
 * must match the header.  O(size of the file). */
hta_status hta_cnf_parse(const char *path, hta_cnf **out, hta_diag *d);

/* Equisatisfiable 3-CNF (every clause exactly 3 literals):
 *   (a)       -> (a|y|z) (a|y|-z) (a|-y|z) (a|-y|-z)   y, z fresh
 *   (a|b)     -> (a|b|y) (a|b|-y)                       y fresh
 *   (a1|..|ak), k > 3 -> (a1|a2|y1) (-y1|a3|y2) ... (-y_{k-3}|a_{k-1}|ak)
 *   ()        -> (y) and (-y) padded as unit clauses: unsatisfiable
 * A model of the input extends to the output (hta_cnf_extend_model).
 * O(total literals). */
hta_status hta_cnf_to3(const hta_cnf *in, hta_cnf **out, hta_diag *d);

/* Extends a model of the original formula (values 1..orig_vars set) to
 * the fresh variables of f3. */
void hta_cnf_extend_model(const hta_cnf *f3, const hta_cnf *orig,
                          signed char *model);

/* Index of the first clause the model falsifies, or -1 if it satisfies
 * the formula.  O(total literals). */
int64_t hta_cnf_first_false(const hta_cnf *f, const signed char *model);

/* Reads a model for nvars variables: SAT-competition lines ("s
 * SATISFIABLE", "v 1 -2 ... 0", "c ..."), or minisat's result file
 * ("SAT" then literals).  Unmentioned variables are false; a file saying
 * UNSATISFIABLE is an error.  *out has nvars + 1 entries. */
hta_status hta_model_parse(const char *path, int32_t nvars,
                           signed char **out, hta_diag *d);

/* Writes "s SATISFIABLE" and "v ... 0" lines for variables 1..nvars. */
void hta_model_write(FILE *f, const signed char *model, int32_t nvars);

/* Uniform random 3-CNF: each clause three distinct variables with random
 * signs.  Same seed, same formula. */
hta_status hta_cnf_random3(int32_t vars, int64_t clauses, uint64_t seed,
                           hta_cnf **out, hta_diag *d);

hta_status hta_cnf_write(const hta_cnf *f, FILE *out, const char *comment);

void hta_cnf_free(hta_cnf *f);

#ifdef __cplusplus
}
#endif

#endif
