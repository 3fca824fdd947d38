/* A CNF under construction and the cardinality constraints the SAT
 * decisions build on it: clauses as literals ending in 0, Batcher's
 * odd-even sorting networks (whole, or the top P outputs), Sinz's
 * sequential counter, and "at most K of these" choosing between them.
 * A CNF that outgrows max_lits or the variable range is marked full, one
 * whose growth fails nomem; every builder then does nothing. */
#ifndef HTA_EXACT_CNFENC_H
#define HTA_EXACT_CNFENC_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>


/* The CNF under construction: clauses as literals ending in 0.  Wires of
 * the sorting networks use 0 for the constant false. */
typedef struct enc {
    int *lit;
    size_t nlit, cap;
    int64_t nclauses;
    int nvars;
    size_t max_lits;
    int full;   /* the CNF outgrew max_lits or the variable range */
    int nomem;
} enc;

static inline int newvar(enc *e)
{
    if (e->nvars >= INT_MAX - 1) {
        e->full = 1;
        return 1;
    }
    return ++e->nvars;
}

/* Appends the clause l[0..k). */
void enc_clause(enc *e, const int *l, int k);

static inline void clause1(enc *e, int a) { enc_clause(e, &a, 1); }
static inline void clause2(enc *e, int a, int b)
{
    int l[2] = {a, b};
    enc_clause(e, l, 2);
}
static inline void clause3(enc *e, int a, int b, int c)
{
    int l[3] = {a, b, c};
    enc_clause(e, l, 3);
}

/* The least power of two >= x. */
size_t enc_pow2_at_least(size_t x);

/* The top P outputs of sorting in[0..d) (P a power of two; both: the
 * downward clauses too, so the outputs are exactly the sorted inputs)
 * into out[0..P): out[i] is "at least i + 1 inputs are true".  0 when
 * out of memory. */
int enc_sort_top(enc *e, const int *in, size_t d, size_t P, int both,
                 int *out);

/* At most K of x[0..n) true, K < n. */
void enc_atmost(enc *e, const int *x, size_t n, size_t K);

#endif
