/* The SAT decisions' shared state, internal to src/exact/: what one
 * decision encodes (spec), everything it holds (sd), and the steps the
 * constant decision (satdec.c) and the general one (satdec_general.c)
 * share: the preparation (maximum b-matching and vertex cover), one
 * spec's CNF and CaDiCaL run, the decoding of a model into an assignment,
 * the DIMACS output. */
#ifndef HTA_EXACT_SATDEC_IMPL_H
#define HTA_EXACT_SATDEC_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include "exact/cnfenc.h"
#include "exact/satdec.h"

#define OOM(d) hta_diag_set((d), HTA_ERR_INTERNAL, NULL, 0, "out of memory")

/* Deficit literals, each repeated by its weight. */
typedef struct defs {
    int *lit;
    size_t n, cap;
} defs;

/* What one decision encodes (satdec.h): with B g(v) = A v + Lt - r(v),
 * r(v) >= 0, for v = 0..U, g(v) the tasks in all that a server running v
 * local ones has room for (v + room[v]), the criterion sum_s g(k_s) >= m
 * reads A (M - sum k) + sum_s r(k_s) <= S = A M + n Lt - B m; and at most
 * dmax of M - sum k (-1: no such limit; the general decision's remote
 * count).  The constant decision: A = c - w, B = c, Lt = L, room[v] =
 * floor((L - w v) / c). */
typedef struct spec {
    int64_t U, A, B, Lt, dmax;
    const int64_t *r, *room; /* r[0..U], room[0..U] */
    int general;             /* decode_remote: no remote task on a server
                                holding its block */
} spec;

/* Everything the decision holds, released in one place. */
typedef struct sd {
    enc e;
    defs f;
    int32_t *cover;     /* per task: server or -1 (the maximum b-matching) */
    char *mark_t, *mark_s; /* reached from uncovered tasks: not C_T, C_S */
    int32_t *queue;
    int *edge_var;      /* task-side placement pair -> variable */
    int *edge_val;      /* a model's pairs, negated: a blocking clause */
    int *srv_in;        /* one server's inputs */
    int *out;           /* one server's outputs */
    int **ge;           /* per server: its outputs (P_s of them) */
    size_t *ge_n;
    int *rem;           /* per task: its "not local" variable, or 0 */
    int32_t *loads;
    int32_t *local;     /* a model's local tasks (decode_local) */
    unsigned char *on;  /* a model's pairs: 1 local */
    defs dl;            /* the literals of M - sum k, once each */
} sd;

void satdec_sd_free(sd *z, int32_t n);
/* The maximum b-matching at U, its vertex cover, the arrays of z. */
hta_status satdec_prepare(const hta_instance *inst, int64_t U,
                          const hta_satdec_opts *opts, sd *z, int64_t *M,
                          hta_satdec_result *res, hta_diag *d);
/* One spec: its CNF (copied into cert when one is kept), then CaDiCaL;
 * a model is decoded and evaluated against L (strict: below L). */
hta_status satdec_run_spec(const hta_instance *inst, const spec *sp, sd *z,
                           int64_t M, double L, int strict,
                           const hta_satdec_opts *opts, double t0,
                           FILE *cnf, enc *cert, int **sel, size_t *nsel,
                           size_t *capsel, int32_t *assign,
                           hta_satdec_result *res, hta_diag *d);
/* The CNF e in DIMACS on f (what: its comment line). */
hta_status satdec_write_cnf(FILE *f, const char *what, const enc *e,
                            hta_diag *d);
/* A model's pairs (on) into an assignment, evaluated against L. */
hta_status satdec_realise(const hta_instance *inst, const unsigned char *on,
                          const spec *sp, sd *z, double L, int strict,
                          int32_t *assign, hta_satdec_result *res,
                          hta_diag *d);

#endif
