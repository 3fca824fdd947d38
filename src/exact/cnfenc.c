/* CNF building and cardinality constraints (cnfenc.h). */
#include "exact/cnfenc.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

void enc_clause(enc *e, const int *l, int k)
{
    if (e->full || e->nomem)
        return;
    if (e->nlit + (size_t)k + 1 > e->max_lits) {
        e->full = 1;
        return;
    }
    if (!HTA_RESERVE(e->lit, e->cap, e->nlit + (size_t)k + 1)) {
        e->nomem = 1;
        return;
    }
    for (int i = 0; i < k; i++)
        e->lit[e->nlit++] = l[i];
    e->lit[e->nlit++] = 0;
    e->nclauses++;
}

/* A comparator: w[i] <- max, w[j] <- min.  Upward clauses (an input true
 * makes max true, both make min true) always; downward ones too with both
 * (then the outputs are exactly the sorted inputs). */
static void comparator(enc *e, int *w, size_t i, size_t j, int both)
{
    int a = w[i], b = w[j];
    if (!a) {
        w[i] = b;
        w[j] = 0;
        return;
    }
    if (!b)
        return;
    int mx = newvar(e), mn = newvar(e);
    clause2(e, -a, mx);
    clause2(e, -b, mx);
    clause3(e, -a, -b, mn);
    if (both) {
        clause3(e, -mx, a, b);
        clause2(e, -mn, a);
        clause2(e, -mn, b);
    }
    w[i] = mx;
    w[j] = mn;
}

/* Batcher's odd-even merge sort of w[0..N) (N a power of two), stages
 * p = first_p .. N/2: with first_p = 1 a whole sort, with first_p = N/2
 * the merge of two sorted halves.  Descending: w[i] is "at least i + 1
 * inputs are true". */
static void oddeven(enc *e, int *w, size_t N, size_t first_p, int both)
{
    for (size_t p = first_p; p < N; p <<= 1)
        for (size_t k = p; k >= 1; k >>= 1)
            for (size_t j = k % p; j + k < N; j += 2 * k)
                for (size_t i = 0; i < k && i + j + k < N; i++)
                    if ((i + j) / (2 * p) == (i + j + k) / (2 * p))
                        comparator(e, w, i + j, i + j + k, both);
}

size_t enc_pow2_at_least(size_t x)
{
    size_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

/* The top P outputs of sorting in[0..d) (P a power of two): chunks of P
 * sorted, then merged two by two keeping the top P of each merge (the top
 * P of a union is the top P of the two tops).  out: P entries. */
int enc_sort_top(enc *e, const int *in, size_t d, size_t P, int both,
                 int *out)
{
    if (d <= P) {
        size_t N = enc_pow2_at_least(d ? d : 1);
        int *w = calloc(N, sizeof *w);
        if (!w)
            return 0;
        memcpy(w, in, d * sizeof *w);
        oddeven(e, w, N, 1, both);
        memset(out, 0, P * sizeof *out);
        memcpy(out, w, N * sizeof *w);
        free(w);
        return 1;
    }
    int *w = calloc(2 * P, sizeof *w);
    if (!w)
        return 0;
    memset(out, 0, P * sizeof *out);
    for (size_t lo = 0; lo < d; lo += P) {
        size_t k = d - lo < P ? d - lo : P;
        int *chunk = lo == 0 ? out : w + P;
        memset(chunk, 0, P * sizeof *chunk);
        memcpy(chunk, in + lo, k * sizeof *chunk);
        oddeven(e, chunk, P, 1, both);
        if (lo == 0)
            continue;
        memcpy(w, out, P * sizeof *w);
        oddeven(e, w, 2 * P, P, both);
        memcpy(out, w, P * sizeof *w);
    }
    free(w);
    return 1;
}

/* At most K of x[0..n) true, 1 <= K < n: Sinz's sequential counter,
 * s[i][j] = "at least j + 1 of x[0..i] are true" (upward only). */
static void atmost_sequential(enc *e, const int *x, size_t n, size_t K)
{
    int prev[64], cur[64];
    for (size_t j = 0; j < K; j++)
        prev[j] = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < K; j++) {
            cur[j] = newvar(e);
            if (j == 0)
                clause2(e, -x[i], cur[0]);
            else if (prev[j - 1])
                clause3(e, -x[i], -prev[j - 1], cur[j]);
            if (prev[j])
                clause2(e, -prev[j], cur[j]);
        }
        if (prev[K - 1])
            clause2(e, -x[i], -prev[K - 1]);
        memcpy(prev, cur, K * sizeof *cur);
    }
}

/* At most K of x[0..n) true, K < n: units for K = 0, Sinz's counter up
 * to K = 8 (measured on Zipf s = 1.5, 10^4 tasks, slack 2: 30 s with the
 * counter, 106 s with the network; either way the time moves a lot with
 * the order of the variables), above that the top K + 1 outputs of a
 * cardinality network (one direction). */
void enc_atmost(enc *e, const int *x, size_t n, size_t K)
{
    if (K == 0) {
        for (size_t i = 0; i < n; i++)
            clause1(e, -x[i]);
    } else if (K <= 8) {
        atmost_sequential(e, x, n, K);
    } else {
        size_t P = enc_pow2_at_least(K + 1);
        int *out = malloc(P * sizeof *out);
        if (!out || !enc_sort_top(e, x, n, P, 0, out))
            e->nomem = 1;
        else if (out[K])
            clause1(e, -out[K]);
        free(out);
    }
}

