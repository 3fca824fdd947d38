/* makespan <= L by CaDiCaL on the deficit encoding (satdec.h). */
#include "hta/satdec.h"

#include <ccadical.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/buf.h"
#include "hta/check.h"
#include "hta/maxcover.h"
#include "hta/num.h"
#include "hta/reduce.h"

#define OOM(d) hta_diag_set((d), HTA_ERR_INTERNAL, NULL, 0, "out of memory")

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

static int newvar(enc *e)
{
    if (e->nvars >= INT_MAX - 1) {
        e->full = 1;
        return 1;
    }
    return ++e->nvars;
}

static void clause(enc *e, const int *l, int k)
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

static void clause1(enc *e, int a) { clause(e, &a, 1); }
static void clause2(enc *e, int a, int b)
{
    int l[2] = {a, b};
    clause(e, l, 2);
}
static void clause3(enc *e, int a, int b, int c)
{
    int l[3] = {a, b, c};
    clause(e, l, 3);
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

static size_t pow2_at_least(size_t x)
{
    size_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

/* The top P outputs of sorting in[0..d) (P a power of two): chunks of P
 * sorted, then merged two by two keeping the top P of each merge (the top
 * P of a union is the top P of the two tops).  out: P entries. */
static int sort_top(enc *e, const int *in, size_t d, size_t P, int both,
                    int *out)
{
    if (d <= P) {
        size_t N = pow2_at_least(d ? d : 1);
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

/* Deficit literals, each repeated by its weight. */
typedef struct defs {
    int *lit;
    size_t n, cap;
} defs;

static int push_def(enc *e, defs *f, int lit, int64_t weight)
{
    if (weight > (int64_t)e->max_lits || f->n + (size_t)weight > e->max_lits) {
        e->full = 1; /* as many inputs to the sum as its literals */
        return 1;
    }
    for (int64_t i = 0; i < weight; i++) {
        if (!HTA_RESERVE(f->lit, f->cap, f->n + 1))
            return 0;
        f->lit[f->n++] = lit;
    }
    return 1;
}

int hta_satdec_applies(const hta_instance *inst, char *why, size_t size)
{
    const char *r = NULL;
    if (!hta_wrem_is_constant(&inst->wrem))
        r = "w_rem is not one value (the decision fixes the remote cost)";
    else if (!hta_instance_exact_costs(inst))
        r = "costs are not integers below 2^53";
    else if (hta_wrem_at(&inst->wrem, 0) < inst->w_loc)
        r = "w_rem is below w_loc";
    else if (inst->w_loc < 1)
        r = "w_loc is 0";
    if (r && why)
        snprintf(why, size, "%s", r);
    return r == NULL;
}

typedef struct term_ctx {
    double deadline;
    volatile sig_atomic_t *stop;
} term_ctx;

static int terminate_cb(void *state)
{
    term_ctx *t = state;
    return (t->stop && *t->stop) || hta_clock_now() > t->deadline;
}

/* Everything the decision holds, released in one place. */
typedef struct sd {
    enc e;
    defs f;
    int32_t *cover;     /* per task: server or -1 (the maximum b-matching) */
    char *mark_t, *mark_s; /* reached from uncovered tasks: not C_T, C_S */
    int32_t *queue;
    int *edge_var;      /* task-side placement pair -> variable */
    int *srv_in;        /* one server's inputs */
    int *out;           /* one server's outputs */
    int **ge;           /* per server: its outputs (P_s of them) */
    size_t *ge_n;
    int *rem;           /* per task: its "not local" variable, or 0 */
    int32_t *loads;
} sd;

static void sd_free(sd *z, int32_t n)
{
    free(z->e.lit);
    free(z->f.lit);
    free(z->cover);
    free(z->mark_t);
    free(z->mark_s);
    free(z->queue);
    free(z->edge_var);
    free(z->srv_in);
    free(z->out);
    if (z->ge)
        for (int32_t s = 0; s < n; s++)
            free(z->ge[s]);
    free(z->ge);
    free(z->ge_n);
    free(z->rem);
    free(z->loads);
}

/* [k_s >= v]: 1 true, -1 false, else 0 and *lit. */
static int ge(const sd *z, const hta_instance *inst, int32_t s, int64_t v,
              int *lit)
{
    int64_t deg = inst->srv_off[s + 1] - inst->srv_off[s];
    if (v <= 0)
        return 1;
    if (v > deg || (size_t)(v - 1) >= z->ge_n[s] || !z->ge[s][v - 1])
        return -1;
    *lit = z->ge[s][v - 1];
    return 0;
}

/* The maximum b-matching at U and a minimum vertex cover from it: the
 * tasks and servers reached from uncovered tasks along alternating paths
 * (a task to its other servers, a server to the tasks it runs) are not
 * C_T and are C_S. */
static hta_status cover_of(const hta_instance *inst, int64_t U, sd *z,
                           int64_t *M, int64_t *ct, int64_t *cs, hta_diag *d)
{
    int32_t m = inst->m, n = inst->n;
    hta_maxcover *mc = NULL;
    hta_status st = hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, d);
    if (st == HTA_OK)
        st = hta_maxcover_raise(mc, U, d);
    if (st != HTA_OK) {
        hta_maxcover_free(mc);
        return st;
    }
    *M = hta_maxcover_size(mc);
    memcpy(z->cover, hta_maxcover_cover(mc), (size_t)m * sizeof *z->cover);
    hta_maxcover_free(mc);
    int64_t head = 0, tail = 0;
    for (int32_t t = 0; t < m; t++)
        if (z->cover[t] < 0) {
            z->mark_t[t] = 1;
            z->queue[tail++] = t;
        }
    while (head < tail) {
        int32_t t = z->queue[head++];
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            int32_t s = inst->task_srv[i];
            if (s == z->cover[t] || z->mark_s[s])
                continue;
            z->mark_s[s] = 1;
            for (int64_t j = inst->srv_off[s]; j < inst->srv_off[s + 1]; j++) {
                int32_t t2 = inst->srv_task[j];
                if (z->cover[t2] == s && !z->mark_t[t2]) {
                    z->mark_t[t2] = 1;
                    z->queue[tail++] = t2;
                }
            }
        }
    }
    *ct = 0;
    *cs = 0;
    for (int32_t t = 0; t < m; t++)
        *ct += !z->mark_t[t];
    for (int32_t s = 0; s < n; s++)
        *cs += z->mark_s[s];
    /* König: a cover of the maximum's size (else the matching was not
     * maximum, or the cover is wrong) */
    if (*ct + U * *cs != *M)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "vertex cover of %lld + %lld x %lld does not "
                            "match the maximum %lld",
                            (long long)*ct, (long long)U, (long long)*cs,
                            (long long)*M);
    return HTA_OK;
}

/* The encoding; returns 0 on a constant no (res->why says it). */
static int encode(const hta_instance *inst, int64_t L, int64_t w, int64_t c,
                  int64_t U, int64_t S, sd *z, hta_satdec_result *res)
{
    int32_t m = inst->m, n = inst->n;
    enc *e = &z->e;
    int64_t wdef = c - w;
    /* placement pairs, and at most one local server per task */
    for (int64_t i = 0; i < inst->edges; i++)
        z->edge_var[i] = newvar(e);
    for (int32_t t = 0; t < m; t++) {
        int64_t a = inst->task_off[t], b = inst->task_off[t + 1];
        if (b - a <= 6) {
            for (int64_t i = a; i < b; i++)
                for (int64_t j = i + 1; j < b; j++)
                    clause2(e, -z->edge_var[i], -z->edge_var[j]);
        } else { /* sequential: s_i = some of the first i is local */
            int prev = 0;
            for (int64_t i = a; i < b; i++) {
                int x = z->edge_var[i], s = newvar(e);
                clause2(e, -x, s);
                if (prev) {
                    clause2(e, -prev, s);
                    clause2(e, -x, -prev);
                }
                prev = s;
            }
        }
    }
    /* constant deficits: residues of servers without placement pairs */
    for (int32_t s = 0; s < n; s++)
        if (inst->srv_off[s + 1] == inst->srv_off[s])
            S -= L % c;
    if (S < 0) {
        snprintf(res->why, sizeof res->why,
                 "the residues of idle servers exceed the slack");
        return 0;
    }
    res->slack = S;
    int64_t jmax = wdef > 0 ? S / wdef : U;
    /* per server: [k_s >= v] for v <= U + 1, the capacity, the residues */
    for (int32_t s = 0; s < n && !e->full && !e->nomem; s++) {
        int64_t a = inst->srv_off[s], deg = inst->srv_off[s + 1] - a;
        if (deg == 0)
            continue;
        for (int64_t j = 0; j < deg; j++) {
            int32_t t = inst->srv_task[a + j];
            int64_t i = inst->task_off[t];
            while (inst->task_srv[i] != s)
                i++;
            z->srv_in[j] = z->edge_var[i];
        }
        size_t P = pow2_at_least((size_t)(deg < U + 1 ? deg : U + 1));
        if (!(z->ge[s] = malloc(P * sizeof **z->ge)) ||
            !sort_top(e, z->srv_in, (size_t)deg, P, 1, z->ge[s])) {
            e->nomem = 1;
            break;
        }
        z->ge_n[s] = P;
        int lit;
        if (deg > U && ge(z, inst, s, U + 1, &lit) == 0)
            clause1(e, -lit);
        int64_t top = deg < U ? deg : U;
        for (int64_t v = 0; v <= top; v++) {
            int64_t r = (L - w * v) % c;
            if (r == 0)
                continue;
            int la = 0, lb = 0;
            int ka = ge(z, inst, s, v, &la), kb = ge(z, inst, s, v + 1, &lb);
            /* k_s = v: [k >= v] and not [k >= v + 1] */
            int l[3], k = 0;
            if (ka == 0)
                l[k++] = -la;
            if (kb == 0)
                l[k++] = lb;
            if (r > S) {
                clause(e, l, k); /* k_s = v is ruled out */
                continue;
            }
            int x = newvar(e);
            l[k++] = x;
            clause(e, l, k);
            if (!push_def(e, &z->f, x, r))
                e->nomem = 1;
        }
        if (z->mark_s[s]) { /* C_S: U - k_s counts, at weight wdef */
            for (int64_t v = U; v >= 1 && v > U - jmax; v--) {
                if (ge(z, inst, s, v, &lit) != 0)
                    continue; /* deg >= U on C_S: never */
                if (!push_def(e, &z->f, -lit, wdef))
                    e->nomem = 1;
            }
            if (U - jmax >= 1 && ge(z, inst, s, U - jmax, &lit) == 0)
                clause1(e, lit);
        }
    }
    /* C_T tasks not local, and local pairs between C_T and C_S */
    for (int32_t t = 0; t < m && !e->full && !e->nomem; t++) {
        if (z->mark_t[t])
            continue;
        int64_t a = inst->task_off[t], b = inst->task_off[t + 1];
        int r = wdef > S ? 0 : newvar(e);
        int l[64];
        /* r or some local pair: as one clause */
        size_t k = (size_t)(b - a) + 1;
        int *cl = k <= 64 ? l : malloc(k * sizeof *cl);
        if (!cl) {
            e->nomem = 1;
            break;
        }
        size_t q = 0;
        for (int64_t i = a; i < b; i++)
            cl[q++] = z->edge_var[i];
        if (r)
            cl[q++] = r;
        clause(e, cl, (int)q);
        if (cl != l)
            free(cl);
        if (r && !push_def(e, &z->f, r, wdef))
            e->nomem = 1;
        for (int64_t i = a; i < b; i++)
            if (z->mark_s[inst->task_srv[i]]) {
                if (wdef > S)
                    clause1(e, -z->edge_var[i]);
                else if (!push_def(e, &z->f, z->edge_var[i], wdef))
                    e->nomem = 1;
            }
    }
    /* the deficits sum to at most S */
    if (!e->full && !e->nomem && z->f.n > (size_t)S) {
        if (S == 0) {
            for (size_t i = 0; i < z->f.n; i++)
                clause1(e, -z->f.lit[i]);
        } else if (S <= 8) {
            /* measured on Zipf s = 1.5, 10^4 tasks, slack 2: 30 s with
             * this counter, 106 s with the network (either way the time
             * moves a lot with the order of the variables) */
            atmost_sequential(e, z->f.lit, z->f.n, (size_t)S);
        } else {
            size_t P = pow2_at_least((size_t)S + 1);
            int *out = malloc(P * sizeof *out);
            if (!out || !sort_top(e, z->f.lit, z->f.n, P, 0, out))
                e->nomem = 1;
            else if (out[S])
                clause1(e, -out[S]);
            free(out);
        }
    }
    return 1;
}

/* A model into an assignment: local tasks from the pairs, the others on
 * the remote slots.  0 when they do not fit (an encoding error). */
static int decode(const hta_instance *inst, CCaDiCaL *sat, int64_t L,
                  double c, const sd *z, int32_t *assign)
{
    int32_t m = inst->m, n = inst->n;
    for (int32_t s = 0; s < n; s++)
        z->loads[s] = 0;
    for (int32_t t = 0; t < m; t++) {
        assign[t] = -1;
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            if (ccadical_val(sat, z->edge_var[i]) > 0) {
                assign[t] = inst->task_srv[i];
                z->loads[assign[t]]++;
                break;
            }
    }
    int32_t s = 0;
    int64_t used = 0;
    for (int32_t t = 0; t < m; t++) {
        if (assign[t] >= 0)
            continue;
        while (s < n && hta_load(inst, z->loads[s], used + 1, c) > (double)L) {
            s++;
            used = 0;
        }
        if (s == n)
            return 0;
        assign[t] = s;
        used++;
    }
    return 1;
}

static hta_status write_cnf(FILE *f, const enc *e, hta_diag *d)
{
    if (fprintf(f, "c hta: makespan <= L, deficit encoding (satdec.h)\n"
                   "p cnf %d %lld\n",
                e->nvars, (long long)e->nclauses) < 0)
        goto fail;
    for (size_t i = 0; i < e->nlit; i++) {
        int x = e->lit[i];
        if (fprintf(f, x ? "%d " : "0\n", x) < 0)
            goto fail;
    }
    return HTA_OK;
fail:
    return hta_diag_set(d, HTA_ERR_IO, NULL, 0, "cannot write the CNF");
}

/* L = 3 on an instance that is the 3SAT reduction of a formula
 * (hta_reduce_recognize): Theorem 3.1 makes the decision the formula's
 * satisfiability, so CaDiCaL runs on the formula itself, a model becomes
 * an assignment by Lemma 3.4's witness (re-evaluated), and a no is the
 * formula's unsatisfiability.  The CNF written is the formula. */
static hta_status decide_formula(const hta_reduction *r,
                                 const hta_satdec_opts *opts, double t0,
                                 int32_t *assign, hta_satdec_result *res,
                                 hta_diag *d)
{
    const hta_cnf *f = r->orig;
    res->reduction = 1;
    res->vars = f->nvars;
    res->clauses = f->nclauses;
    res->seconds_encode = hta_clock_now() - t0;
    if (opts->cnf &&
        hta_cnf_write(f, opts->cnf,
                      "hta: the formula this instance is the 3SAT "
                      "reduction of (Theorem 3.1: makespan <= 3 iff "
                      "satisfiable)") != HTA_OK)
        return hta_diag_set(d, HTA_ERR_IO, NULL, 0, "cannot write the CNF");
    double t1 = hta_clock_now();
    CCaDiCaL *sat = ccadical_init();
    signed char *model = calloc((size_t)f->nvars + 1, 1);
    if (!sat || !model) {
        if (sat)
            ccadical_release(sat);
        free(model);
        return OOM(d);
    }
    ccadical_set_option(sat, "quiet", 1);
    for (int64_t c = 0; c < f->nclauses; c++) {
        for (int64_t i = f->off[c]; i < f->off[c + 1]; i++)
            ccadical_add(sat, f->lits[i]);
        ccadical_add(sat, 0);
    }
    term_ctx tc = {t0 + opts->time_limit, opts->stop};
    ccadical_set_terminate(sat, &tc, terminate_cb);
    int ans = ccadical_solve(sat);
    res->seconds_solve = hta_clock_now() - t1;
    hta_status st = HTA_OK;
    if (ans == 10) {
        for (int32_t v = 1; v <= f->nvars; v++)
            model[v] = ccadical_val(sat, v) > 0;
        /* the witness is evaluated there (makespan <= 3 checked) */
        if ((st = hta_reduce_witness(r, model, assign, &res->makespan, d)) ==
            HTA_OK)
            res->answer = HTA_SATDEC_YES;
    } else if (ans == 20) {
        res->answer = HTA_SATDEC_NO;
    } else {
        res->answer = HTA_SATDEC_UNKNOWN;
    }
    ccadical_release(sat);
    free(model);
    return st;
}

hta_status hta_satdec_decide(const hta_instance *inst, double Ld,
                             const hta_satdec_opts *opts, int32_t *assign,
                             hta_satdec_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    res->answer = HTA_SATDEC_NA;
    res->makespan = NAN;
    double t0 = hta_clock_now();
    if (!hta_satdec_applies(inst, res->why, sizeof res->why))
        return HTA_OK;
    if (!(Ld >= 0) || Ld != floor(Ld) || Ld > 9007199254740992.0) {
        snprintf(res->why, sizeof res->why,
                 "L is not an integer below 2^53");
        return HTA_OK;
    }
    if (Ld == 3 && !opts->generic) {
        hta_reduction *r;
        hta_status rs = hta_reduce_recognize(inst, &r, d);
        if (rs != HTA_OK)
            return rs;
        if (r) {
            rs = decide_formula(r, opts, t0, assign, res, d);
            hta_reduce_match_free(r);
            return rs;
        }
    }
    int32_t m = inst->m, n = inst->n;
    int64_t L = (int64_t)Ld, w = (int64_t)inst->w_loc;
    int64_t c = (int64_t)hta_wrem_at(&inst->wrem, 0);
    int64_t U = L / w;
    if (U > m)
        U = m;
    /* S = (c - w) M + n L - c m must not overflow: below 2^62 */
    if ((double)n * (double)L + (double)c * (double)m > 4e18) {
        snprintf(res->why, sizeof res->why, "n L exceeds 2^62");
        return HTA_OK;
    }
    sd z;
    memset(&z, 0, sizeof z);
    z.e.max_lits = (size_t)(opts->max_lits > 0 ? opts->max_lits :
                                                 HTA_SATDEC_MAX_LITS);
    hta_status st = HTA_OK;
    z.cover = malloc((size_t)m * sizeof *z.cover);
    z.mark_t = calloc((size_t)m + 1, 1);
    z.mark_s = calloc((size_t)n + 1, 1);
    z.queue = malloc((size_t)m * sizeof *z.queue + 1);
    z.edge_var = malloc((size_t)inst->edges * sizeof *z.edge_var + 1);
    z.loads = malloc((size_t)n * sizeof *z.loads + 1);
    int64_t maxdeg = 1;
    for (int32_t s = 0; s < n; s++)
        if (inst->srv_off[s + 1] - inst->srv_off[s] > maxdeg)
            maxdeg = inst->srv_off[s + 1] - inst->srv_off[s];
    z.srv_in = malloc((size_t)maxdeg * sizeof *z.srv_in);
    z.ge = calloc((size_t)n + 1, sizeof *z.ge);
    z.ge_n = calloc((size_t)n + 1, sizeof *z.ge_n);
    if (!z.cover || !z.mark_t || !z.mark_s || !z.queue || !z.edge_var ||
        !z.loads || !z.srv_in || !z.ge || !z.ge_n) {
        sd_free(&z, n);
        return OOM(d);
    }
    int64_t M = 0, ct = 0, cs = 0;
    if (U == 0) { /* no local task fits: M = 0, the empty cover */
        for (int32_t t = 0; t < m; t++)
            z.mark_t[t] = 1;
    } else if ((st = cover_of(inst, U, &z, &M, &ct, &cs, d)) != HTA_OK) {
        sd_free(&z, n);
        return st;
    }
    res->cover_tasks = ct;
    res->cover_servers = cs;
    int64_t S = (c - w) * M + (int64_t)n * L - c * (int64_t)m;
    res->slack = S;
    int constant_no = S < 0;
    if (constant_no)
        snprintf(res->why, sizeof res->why,
                 "the flow relaxation: slack %lld < 0", (long long)S);
    else
        constant_no = !encode(inst, L, w, c, U, S, &z, res);
    res->seconds_encode = hta_clock_now() - t0;
    if (z.e.nomem) {
        sd_free(&z, n);
        return OOM(d);
    }
    if (z.e.full) {
        snprintf(res->why, sizeof res->why,
                 "the CNF exceeds %lld literals (slack %lld, cover %lld "
                 "tasks and %lld servers)",
                 (long long)z.e.max_lits, (long long)res->slack,
                 (long long)ct, (long long)cs);
        sd_free(&z, n);
        return HTA_OK;
    }
    if (constant_no) {
        /* a no without search: the CNF is the empty clause */
        z.e.nlit = 0;
        z.e.nclauses = 0;
        clause(&z.e, NULL, 0);
    }
    res->vars = z.e.nvars;
    res->clauses = z.e.nclauses;
    if (opts->cnf && (st = write_cnf(opts->cnf, &z.e, d)) != HTA_OK) {
        sd_free(&z, n);
        return st;
    }
    if (constant_no) {
        res->answer = HTA_SATDEC_NO;
        sd_free(&z, n);
        return HTA_OK;
    }
    double t1 = hta_clock_now();
    CCaDiCaL *sat = ccadical_init();
    if (!sat) {
        sd_free(&z, n);
        return OOM(d);
    }
    ccadical_set_option(sat, "quiet", 1); /* nothing on stdout */
    for (size_t i = 0; i < z.e.nlit; i++)
        ccadical_add(sat, z.e.lit[i]);
    free(z.e.lit); /* CaDiCaL holds its own copy */
    z.e.lit = NULL;
    term_ctx tc = {t0 + opts->time_limit, opts->stop};
    ccadical_set_terminate(sat, &tc, terminate_cb);
    int r = ccadical_solve(sat);
    res->seconds_solve = hta_clock_now() - t1;
    if (r == 10) {
        if (!decode(inst, sat, L, (double)c, &z, assign)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                              "the SAT model does not decode into an "
                              "assignment of makespan <= %lld",
                              (long long)L);
        } else {
            hta_eval ev;
            if ((st = hta_eval_run(inst, assign, &ev, d)) == HTA_OK) {
                res->makespan = ev.makespan;
                hta_eval_free(&ev);
                if (res->makespan > (double)L)
                    st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                      "the SAT model evaluates to %g > %lld",
                                      res->makespan, (long long)L);
                else
                    res->answer = HTA_SATDEC_YES;
            }
        }
    } else if (r == 20) {
        res->answer = HTA_SATDEC_NO;
    } else {
        res->answer = HTA_SATDEC_UNKNOWN;
    }
    ccadical_release(sat);
    sd_free(&z, n);
    return st;
}
