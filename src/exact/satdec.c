/* makespan <= L by CaDiCaL on the deficit encoding (satdec.h): the
 * encoding, the decoding of models, the constant-w_rem decision. */
#include "exact/satdec.h"

#include <ccadical.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/maxcover.h"
#include "hta/num.h"
#include "hta/reduce.h"
#include "core/buf.h"
#include "core/check.h"
#include "envilp.h"
#include "satdec_impl.h"


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


static int push_d(sd *z, int lit)
{
    if (!HTA_RESERVE(z->dl.lit, z->dl.cap, z->dl.n + 1))
        return 0;
    z->dl.lit[z->dl.n++] = lit;
    return 1;
}

void satdec_sd_free(sd *z, int32_t n)
{
    free(z->e.lit);
    free(z->f.lit);
    free(z->cover);
    free(z->mark_t);
    free(z->mark_s);
    free(z->queue);
    free(z->edge_var);
    free(z->edge_val);
    free(z->srv_in);
    free(z->out);
    if (z->ge)
        for (int32_t s = 0; s < n; s++)
            free(z->ge[s]);
    free(z->ge);
    free(z->ge_n);
    free(z->rem);
    free(z->loads);
    free(z->local);
    free(z->on);
    free(z->dl.lit);
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

/* The placement pairs' variables, and at most one local server per
 * task (pairwise up to 6 replicas, else a sequential chain). */
static void encode_pairs(const hta_instance *inst, const spec *sp, sd *z)
{
    int32_t m = inst->m, n = inst->n;
    enc *e = &z->e;
    for (int64_t i = 0; i < inst->edges; i++)
        z->edge_var[i] = newvar(e);
    for (int32_t t = 0; t < m; t++) {
        int64_t a = inst->task_off[t], b = inst->task_off[t + 1];
        /* the general decision: a task on every server runs local (no
         * server could run it remote; decode_remote) */
        if (sp->general && b - a == n) {
            for (int64_t i = a; i < b; i++)
                z->srv_in[i - a] = z->edge_var[i];
            enc_clause(e, z->srv_in, (int)(b - a));
        }
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
}

/* The encoding; returns 0 on a constant no (res->why says it). */
static int encode(const hta_instance *inst, const spec *sp, int64_t S, sd *z,
                  hta_satdec_result *res)
{
    int32_t m = inst->m, n = inst->n;
    enc *e = &z->e;
    int64_t wdef = sp->A, U = sp->U;
    encode_pairs(inst, sp, z);
    /* constant deficits: residues of servers without placement pairs */
    for (int32_t s = 0; s < n; s++)
        if (inst->srv_off[s + 1] == inst->srv_off[s])
            S -= sp->r[0];
    if (S < 0) {
        snprintf(res->why, sizeof res->why,
                 "the residues of idle servers exceed the slack");
        return 0;
    }
    res->slack = S;
    /* the most units of M - sum k: by the slack, by dmax */
    int64_t jmax = wdef > 0 ? S / wdef : U;
    if (sp->dmax >= 0 && sp->dmax < jmax)
        jmax = sp->dmax;
    int64_t dfree = wdef > 0 ? S / wdef : INT64_MAX; /* no counter below */
    size_t d0 = z->dl.n;
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
        size_t P = enc_pow2_at_least((size_t)(deg < U + 1 ? deg : U + 1));
        if (!(z->ge[s] = malloc(P * sizeof **z->ge)) ||
            !enc_sort_top(e, z->srv_in, (size_t)deg, P, 1, z->ge[s])) {
            e->nomem = 1;
            break;
        }
        z->ge_n[s] = P;
        int lit;
        if (deg > U && ge(z, inst, s, U + 1, &lit) == 0)
            clause1(e, -lit);
        int64_t top = deg < U ? deg : U;
        for (int64_t v = 0; v <= top; v++) {
            int64_t r = sp->r[v];
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
                enc_clause(e, l, k); /* k_s = v is ruled out */
                continue;
            }
            int x = newvar(e);
            l[k++] = x;
            enc_clause(e, l, k);
            if (!push_def(e, &z->f, x, r))
                e->nomem = 1;
        }
        if (z->mark_s[s]) { /* C_S: U - k_s counts, at weight wdef */
            for (int64_t v = U; v >= 1 && v > U - jmax; v--) {
                if (ge(z, inst, s, v, &lit) != 0)
                    continue; /* deg >= U on C_S: never */
                if (!push_def(e, &z->f, -lit, wdef) || !push_d(z, -lit))
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
        int r = jmax == 0 ? 0 : newvar(e);
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
        enc_clause(e, cl, (int)q);
        if (cl != l)
            free(cl);
        if (r && (!push_def(e, &z->f, r, wdef) || !push_d(z, r)))
            e->nomem = 1;
        for (int64_t i = a; i < b; i++)
            if (z->mark_s[inst->task_srv[i]]) {
                if (jmax == 0)
                    clause1(e, -z->edge_var[i]);
                else if (!push_def(e, &z->f, z->edge_var[i], wdef) ||
                         !push_d(z, z->edge_var[i]))
                    e->nomem = 1;
            }
    }
    /* the deficits sum to at most S */
    if (!e->full && !e->nomem && z->f.n > (size_t)S)
        enc_atmost(e, z->f.lit, z->f.n, (size_t)S);
    /* M - sum k <= dmax, where the slack does not imply it */
    if (!e->full && !e->nomem && jmax < dfree && z->dl.n - d0 > (size_t)jmax)
        enc_atmost(e, z->dl.lit + d0, z->dl.n - d0, (size_t)jmax);
    return 1;
}

/* The general decision's remote tasks (assign -1) onto the slots,
 * room[loads[s]] on server s, never on a server holding the task's block:
 * a remote task there would run local, and with costs as doubles the
 * load of (k + 1, y - 1) can round above that of (k, y) even when w_rem
 * >= w_loc (0.7 * 10 > 0.7 * 3 + 0.7 * 7).  A bipartite matching: each task
 * to an open server outside its replicas if one is left, else along an
 * augmenting path found breadth-first over the tasks placed so far.  0
 * when none exists (the caller blocks the model and asks again: a model
 * read off a real assignment always decodes, its own remote placement
 * being a matching), -1 out of memory. */
static int decode_remote(const hta_instance *inst, const spec *sp,
                         const sd *z, int32_t *assign)
{
    int32_t m = inst->m, n = inst->n;
    int64_t *cap = malloc((size_t)n * sizeof *cap + 1);
    int32_t *open = malloc((size_t)n * sizeof *open + 1);
    int32_t *rem = malloc((size_t)m * sizeof *rem + 1);
    int32_t *parent = malloc((size_t)m * sizeof *parent + 1);
    int32_t *queue = malloc((size_t)m * sizeof *queue + 1);
    int ok = cap && open && rem && parent && queue ? 1 : -1;
    int32_t nopen = 0, nrem = 0;
    for (int32_t s = 0; ok == 1 && s < n; s++)
        if ((cap[s] = sp->room[z->loads[s]]) > 0)
            open[nopen++] = s;
    for (int32_t t = 0; ok == 1 && t < m; t++) {
        if (assign[t] >= 0)
            continue;
        int32_t k = 0;
        for (; k < nopen; k++) {
            if (cap[open[k]] == 0) { /* full: out of the list */
                open[k--] = open[--nopen];
                continue;
            }
            if (!hta_instance_is_local(inst, t, open[k]))
                break;
        }
        if (k < nopen) {
            assign[t] = open[k];
            cap[open[k]]--;
            rem[nrem++] = t;
            continue;
        }
        /* breadth-first from t: a task u may take the server of a placed
         * remote task v (not holding u's block), v moving on */
        for (int32_t i = 0; i < nrem; i++)
            parent[rem[i]] = -2; /* unseen */
        int64_t head = 0, tail = 0;
        queue[tail++] = t;
        int32_t last = -1, to = -1;
        while (head < tail && last < 0) {
            int32_t u = queue[head++];
            for (int32_t s = 0; s < n && last < 0; s++) {
                if (hta_instance_is_local(inst, u, s))
                    continue;
                if (cap[s] > 0) {
                    last = u;
                    to = s;
                    break;
                }
                for (int32_t i = 0; i < nrem; i++) {
                    int32_t v = rem[i];
                    if (assign[v] == s && parent[v] == -2) {
                        parent[v] = u;
                        queue[tail++] = v;
                    }
                }
            }
        }
        if (last < 0) {
            ok = 0;
            break;
        }
        /* last to the open server, each task on the path to the server
         * of the one after it */
        cap[to]--;
        while (last != t) {
            int32_t from = assign[last];
            assign[last] = to;
            to = from;
            last = parent[last];
        }
        assign[t] = to;
        rem[nrem++] = t;
        /* the open list may miss a server only if it filled up: intact */
    }
    free(cap);
    free(open);
    free(rem);
    free(parent);
    free(queue);
    return ok;
}

/* A model's local tasks into assign (-1 for the others) and z->loads;
 * 0 when a load exceeds U (an encoding error). */
static int decode_local(const hta_instance *inst, const unsigned char *on,
                        const spec *sp, const sd *z, int32_t *assign)
{
    int32_t m = inst->m, n = inst->n;
    for (int32_t s = 0; s < n; s++)
        z->loads[s] = 0;
    for (int32_t t = 0; t < m; t++) {
        assign[t] = -1;
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            if (on[i]) {
                assign[t] = inst->task_srv[i];
                z->loads[assign[t]]++;
                break;
            }
    }
    for (int32_t s = 0; s < n; s++)
        if (z->loads[s] > sp->U)
            return 0;
    return 1;
}

/* The other tasks onto the remote slots in server order, a task landing
 * on a server that holds its block running local there (never a larger
 * load in exact arithmetic: w_rem >= w_loc, and fewer remote tasks);
 * 0 when they do not fit (an encoding error). */
static int decode_greedy(const hta_instance *inst, const spec *sp,
                         const sd *z, int32_t *assign)
{
    int32_t m = inst->m, n = inst->n;
    int32_t s = 0;
    int64_t used = 0;
    for (int32_t t = 0; t < m; t++) {
        if (assign[t] >= 0)
            continue;
        while (s < n && used >= sp->room[z->loads[s]]) {
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

hta_status satdec_write_cnf(FILE *f, const char *what, const enc *e,
                           hta_diag *d)
{
    if (fprintf(f, "c hta: %s (satdec.h)\np cnf %d %lld\n", what, e->nvars,
                (long long)e->nclauses) < 0)
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

/* The arrays of a decision and the maximum b-matching at U with its
 * vertex cover (cover_of), shared by every spec of one decision. */
hta_status satdec_prepare(const hta_instance *inst, int64_t U,
                          const hta_satdec_opts *opts, sd *z, int64_t *M,
                          hta_satdec_result *res, hta_diag *d)
{
    int32_t m = inst->m, n = inst->n;
    memset(z, 0, sizeof *z);
    z->e.max_lits = (size_t)(opts->max_lits > 0 ? opts->max_lits :
                                                  HTA_SATDEC_MAX_LITS);
    z->cover = malloc((size_t)m * sizeof *z->cover);
    z->mark_t = calloc((size_t)m + 1, 1);
    z->mark_s = calloc((size_t)n + 1, 1);
    z->queue = malloc((size_t)m * sizeof *z->queue + 1);
    z->edge_var = malloc((size_t)inst->edges * sizeof *z->edge_var + 1);
    z->edge_val = malloc((size_t)inst->edges * sizeof *z->edge_val + 1);
    z->loads = malloc((size_t)n * sizeof *z->loads + 1);
    z->local = malloc((size_t)m * sizeof *z->local + 1);
    z->on = malloc((size_t)inst->edges + 1);
    int64_t maxdeg = 1;
    for (int32_t s = 0; s < n; s++)
        if (inst->srv_off[s + 1] - inst->srv_off[s] > maxdeg)
            maxdeg = inst->srv_off[s + 1] - inst->srv_off[s];
    for (int32_t t = 0; t < m; t++) /* srv_in also holds a task's pairs */
        if (inst->task_off[t + 1] - inst->task_off[t] > maxdeg)
            maxdeg = inst->task_off[t + 1] - inst->task_off[t];
    z->srv_in = malloc((size_t)maxdeg * sizeof *z->srv_in);
    z->ge = calloc((size_t)n + 1, sizeof *z->ge);
    z->ge_n = calloc((size_t)n + 1, sizeof *z->ge_n);
    if (!z->cover || !z->mark_t || !z->mark_s || !z->queue ||
        !z->edge_var || !z->edge_val || !z->loads || !z->local || !z->on ||
        !z->srv_in || !z->ge || !z->ge_n)
        return OOM(d);
    int64_t ct = 0, cs = 0;
    *M = 0;
    if (U == 0) { /* no local task fits: M = 0, the empty cover */
        for (int32_t t = 0; t < m; t++)
            z->mark_t[t] = 1;
    } else {
        hta_status st = cover_of(inst, U, z, M, &ct, &cs, d);
        if (st != HTA_OK)
            return st;
    }
    res->cover_tasks = ct;
    res->cover_servers = cs;
    return HTA_OK;
}

/* A fresh CNF for the next spec (the arrays stay). */
static void reset_cnf(sd *z, int32_t n)
{
    z->e.nlit = 0;
    z->e.nclauses = 0;
    z->e.nvars = 0;
    z->e.full = z->e.nomem = 0;
    z->f.n = 0;
    z->dl.n = 0;
    for (int32_t s = 0; s < n; s++) {
        free(z->ge[s]);
        z->ge[s] = NULL;
        z->ge_n[s] = 0;
    }
}

/* Appends the CNF of e to the certificate c, every clause guarded by a
 * new selector (false: the clause holds); the selectors are tied by one
 * clause at the end (hta_satdec_decide_general), so that the certificate
 * is unsatisfiable iff every spec's CNF is. */
static int add_cert(enc *c, const enc *e, int **sel, size_t *nsel,
                    size_t *capsel)
{
    if (c->full || c->nomem)
        return 1;
    if (!HTA_RESERVE(*sel, *capsel, *nsel + 1))
        return 0;
    int g = newvar(c), base = c->nvars;
    if ((int64_t)base + e->nvars >= INT_MAX - 1) {
        c->full = 1;
        return 1;
    }
    c->nvars += e->nvars;
    (*sel)[(*nsel)++] = g;
    int *l = NULL;
    size_t capl = 0, k = 0;
    int ok = 1;
    for (size_t i = 0; ok && i < e->nlit; i++) {
        int x = e->lit[i];
        if (!(ok = HTA_RESERVE(l, capl, k + 1)))
            break;
        if (x == 0) {
            l[k++] = -g;
            enc_clause(c, l, (int)k);
            k = 0;
        } else {
            l[k++] = x > 0 ? x + base : x - base;
        }
    }
    free(l);
    return ok && !c->nomem;
}

/* *ok: assign's makespan (evaluated into res->makespan) is <= L (strict:
 * < L). */
static hta_status fits(const hta_instance *inst, const int32_t *assign,
                       double L, int strict, int *ok, hta_satdec_result *res,
                       hta_diag *d)
{
    hta_eval ev;
    hta_status st = hta_eval_run(inst, assign, &ev, d);
    if (st != HTA_OK)
        return st;
    res->makespan = ev.makespan;
    hta_eval_free(&ev);
    *ok = strict ? res->makespan < L : res->makespan <= L;
    return HTA_OK;
}

/* A model into an assignment within L (strict: below L), res->answer YES
 * when one is found: the remote tasks in server order (a task on a server
 * holding its block runs local), evaluated; for the general decision,
 * where costs are doubles and such a task can round the load up
 * (decode_remote), then the placement that keeps them remote.  Neither
 * (answer left as it is): the caller blocks the model, or, for the
 * constant decision, reports an encoding error. */
hta_status satdec_realise(const hta_instance *inst, const unsigned char *on,
                          const spec *sp, sd *z, double L, int strict,
                          int32_t *assign, hta_satdec_result *res,
                          hta_diag *d)
{
    if (!decode_local(inst, on, sp, z, assign))
        return HTA_OK; /* an encoding error */
    memcpy(z->local, assign, (size_t)inst->m * sizeof *assign);
    for (int way = 0; way < 1 + sp->general; way++) {
        if (way)
            memcpy(assign, z->local, (size_t)inst->m * sizeof *assign);
        int dec = way ? decode_remote(inst, sp, z, assign) :
                        decode_greedy(inst, sp, z, assign);
        if (dec < 0)
            return OOM(d);
        hta_status st;
        if (dec && (st = fits(inst, assign, L, strict, &dec, res, d)) !=
                       HTA_OK)
            return st;
        if (dec) {
            res->answer = HTA_SATDEC_YES;
            res->matched = way;
            return HTA_OK;
        }
    }
    return HTA_OK;
}

/* A CaDiCaL model's placement pairs into z->on. */
static void model_pairs(const hta_instance *inst, CCaDiCaL *sat, sd *z)
{
    for (int64_t i = 0; i < inst->edges; i++)
        z->on[i] = ccadical_val(sat, z->edge_var[i]) > 0;
}

/* One spec: its CNF (copied into cert when one is kept), then CaDiCaL;
 * a model is decoded and evaluated against L (strict: below L). */
hta_status satdec_run_spec(const hta_instance *inst, const spec *sp, sd *z,
                           int64_t M, double L, int strict,
                           const hta_satdec_opts *opts, double t0,
                           FILE *cnf, enc *cert, int **sel, size_t *nsel,
                           size_t *capsel, int32_t *assign,
                           hta_satdec_result *res, hta_diag *d)
{
    int32_t m = inst->m, n = inst->n;
    reset_cnf(z, n);
    res->answer = HTA_SATDEC_UNKNOWN;
    /* S = A M + n Lt - B m must not overflow: below 2^62 */
    if ((double)sp->A * (double)M + (double)n * (double)sp->Lt +
            (double)sp->B * (double)m > 4e18) {
        res->answer = HTA_SATDEC_NA;
        snprintf(res->why, sizeof res->why, "n L exceeds 2^62");
        return HTA_OK;
    }
    int64_t S = sp->A * M + (int64_t)n * sp->Lt - sp->B * (int64_t)m;
    res->slack = S;
    int constant_no = S < 0;
    if (constant_no)
        snprintf(res->why, sizeof res->why,
                 "the flow relaxation: slack %lld < 0", (long long)S);
    else
        constant_no = !encode(inst, sp, S, z, res);
    if (z->e.nomem)
        return OOM(d);
    if (z->e.full) {
        res->answer = HTA_SATDEC_NA;
        snprintf(res->why, sizeof res->why,
                 "the CNF exceeds %lld literals (slack %lld, cover %lld "
                 "tasks and %lld servers)",
                 (long long)z->e.max_lits, (long long)res->slack,
                 (long long)res->cover_tasks, (long long)res->cover_servers);
        return HTA_OK;
    }
    if (constant_no) {
        /* a no without search: the CNF is the empty clause */
        z->e.nlit = 0;
        z->e.nclauses = 0;
        z->e.nvars = 0;
        enc_clause(&z->e, NULL, 0);
    }
    res->vars += z->e.nvars;
    res->clauses += z->e.nclauses;
    hta_status st = HTA_OK;
    int r = 20; /* a constant no */
    CCaDiCaL *sat = NULL;
    if (!constant_no) {
        double t1 = hta_clock_now();
        if (!(sat = ccadical_init()))
            return OOM(d);
        ccadical_set_option(sat, "quiet", 1); /* nothing on stdout */
        /* every variable at once: CaDiCaL grows its tables a variable at
           a time as the clauses name new ones (uf100's reduction: 1.1 s
           before the search starts, signals unanswered) */
        if (z->e.nvars > 0) {
            ccadical_freeze(sat, (int)z->e.nvars);
            ccadical_melt(sat, (int)z->e.nvars);
        }
        /* the clauses, polling the stop every 2^20 literals (uf100's
           reduction: 10^7 literals, 0.8 s); stopped, no search (0) */
        term_ctx tc = {t0 + opts->time_limit, opts->stop};
        int cut = 0;
        for (size_t i = 0; i < z->e.nlit && !cut; i++) {
            ccadical_add(sat, z->e.lit[i]);
            cut = (i & 0xfffff) == 0xfffff && terminate_cb(&tc);
        }
        ccadical_set_terminate(sat, &tc, terminate_cb);
        r = cut ? 0 : ccadical_solve(sat);
        while (r == 10) {
            model_pairs(inst, sat, z);
            if ((st = satdec_realise(inst, z->on, sp, z, L, strict, assign, res,
                              d)) != HTA_OK ||
                res->answer == HTA_SATDEC_YES || !sp->general)
                break;
            /* blocked: the clause over the model's pairs (read once, into
             * z->on); it goes into the CNF written too */
            for (int64_t i = 0; i < inst->edges; i++)
                z->edge_val[i] = z->on[i] ? -z->edge_var[i] : z->edge_var[i];
            for (int64_t i = 0; i < inst->edges; i++)
                ccadical_add(sat, z->edge_val[i]);
            ccadical_add(sat, 0);
            if (inst->edges <= INT_MAX)
                enc_clause(&z->e, z->edge_val, (int)inst->edges);
            else
                z->e.full = 1;
            res->blocked++;
            r = ccadical_solve(sat);
        }
        res->seconds_solve += hta_clock_now() - t1;
    }
    /* the CNF as solved (blocking clauses included) */
    if (st == HTA_OK && (cnf || cert) && (z->e.full || z->e.nomem))
        st = z->e.nomem ? OOM(d) :
                          hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                       "the CNF with its blocking clauses "
                                       "exceeds %lld literals",
                                       (long long)z->e.max_lits);
    if (st == HTA_OK && cnf)
        st = satdec_write_cnf(cnf, "makespan <= L, deficit encoding", &z->e, d);
    if (st == HTA_OK && cert && !add_cert(cert, &z->e, sel, nsel, capsel))
        st = OOM(d);
    if (st == HTA_OK && r == 10 && res->answer != HTA_SATDEC_YES)
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "the SAT model does not decode into an "
                          "assignment of makespan %s %.17g",
                          strict ? "<" : "<=", L);
    else if (st == HTA_OK && r == 20)
        res->answer = HTA_SATDEC_NO;
    if (sat)
        ccadical_release(sat);
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
    int64_t *tab = malloc(2 * ((size_t)U + 1) * sizeof *tab);
    if (!tab)
        return OOM(d);
    spec sp = {U, c - w, c, L, -1, tab, tab + U + 1, 0};
    for (int64_t v = 0; v <= U; v++) {
        tab[v] = (L - w * v) % c;
        tab[U + 1 + v] = (L - w * v) / c;
    }
    sd z;
    int64_t M = 0;
    hta_status st = satdec_prepare(inst, U, opts, &z, &M, res, d);
    if (st == HTA_OK) {
        res->answer = HTA_SATDEC_UNKNOWN;
        res->pieces = 1;
        st = satdec_run_spec(inst, &sp, &z, M, Ld, 0, opts, t0, opts->cnf, NULL,
                      NULL, NULL, NULL, assign, res, d);
        res->seconds_encode = hta_clock_now() - t0 - res->seconds_solve;
    }
    satdec_sd_free(&z, n);
    free(tab);
    return st;
}

