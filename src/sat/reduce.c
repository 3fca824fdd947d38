/* 3SAT -> (2,3)-UHTA (Fischer-Su-Yin, Section 3.2): the gadgets, the
 * witness of Lemma 3.4 and the decoding of Lemmas 3.5-3.10. */
#include "hta/reduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"

void hta_reduce_free(hta_reduction *r)
{
    if (!r)
        return;
    hta_cnf_free(r->f3);
    free(r->var_index);
    free(r->gadget_var);
    free(r->ring_of);
    hta_instance_free(r->inst);
    free(r);
}

/* Id helpers (layout in reduce.h). */
static int32_t ring_server(const hta_reduction *r, int32_t i, int32_t j)
{
    return r->alpha + 2 * r->omega * i + (j - 1);
}
static int32_t sink_server(const hta_reduction *r)
{
    return r->alpha + 2 * r->omega * r->beta;
}
static int32_t aux_task(const hta_reduction *r, int32_t u)
{
    return 3 * r->alpha + u;
}
static int32_t ring_task(const hta_reduction *r, int32_t i, int32_t j)
{
    return 4 * r->alpha + 2 * r->omega * i + (j - 1);
}
static int32_t var_task(const hta_reduction *r, int32_t i, int32_t j)
{
    return 4 * r->alpha + 2 * r->omega * r->beta + r->omega * i + (j - 1);
}
static int32_t sink_task(const hta_reduction *r, int32_t k)
{
    return 4 * r->alpha + 3 * r->omega * r->beta + k;
}

hta_status hta_reduce_build(const hta_cnf *orig, hta_reduction **out,
                            hta_diag *d)
{
    *out = NULL;
    hta_reduction *r = calloc(1, sizeof *r);
    int32_t *pos = NULL, *neg = NULL;
    int64_t *off = NULL;
    int32_t *srv = NULL;
    hta_status st;
    if (!r)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    r->orig = orig;
    if ((st = hta_cnf_to3(orig, &r->f3, d)) != HTA_OK)
        goto cleanup;
    const hta_cnf *f = r->f3;
    if (f->nclauses > 100000000 / 4) {
        st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                          "expected at most 25000000 clauses in 3-CNF, "
                          "found %lld",
                          (long long)f->nclauses);
        goto cleanup;
    }
    r->alpha = (int32_t)f->nclauses;
    r->var_index = malloc(((size_t)f->nvars + 1) * sizeof *r->var_index);
    r->gadget_var = malloc(((size_t)f->nvars + 1) * sizeof *r->gadget_var);
    pos = calloc((size_t)f->nvars + 1, sizeof *pos);
    neg = calloc((size_t)f->nvars + 1, sizeof *neg);
    r->ring_of = malloc(((size_t)3 * r->alpha + 1) * sizeof *r->ring_of);
    if (!r->var_index || !r->gadget_var || !pos || !neg || !r->ring_of) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    /* Variables that occur get gadgets, in increasing order; omega is the
     * largest number of occurrences of a literal. */
    for (int64_t i = 0; i < f->off[f->nclauses]; i++) {
        int32_t l = f->lits[i];
        if (l > 0)
            pos[l]++;
        else
            neg[-l]++;
    }
    r->omega = 0;
    for (int32_t v = 1; v <= f->nvars; v++) {
        r->var_index[v] = -1;
        if (pos[v] + neg[v] > 0) {
            r->var_index[v] = r->beta;
            r->gadget_var[r->beta++] = v;
        }
        if (pos[v] > r->omega)
            r->omega = pos[v];
        if (neg[v] > r->omega)
            r->omega = neg[v];
        pos[v] = neg[v] = 0; /* reused as occurrence counters */
    }
    int64_t servers = (int64_t)r->alpha + 2LL * r->omega * r->beta + 1;
    int64_t tasks = 4LL * r->alpha + 3LL * r->omega * r->beta + 3;
    if (servers > HTA_MAX_SERVERS || tasks > HTA_MAX_TASKS) {
        st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                          "the reduction would have %lld tasks and %lld "
                          "servers, beyond the limits",
                          (long long)tasks, (long long)servers);
        goto cleanup;
    }
    off = malloc(((size_t)tasks + 1) * sizeof *off);
    srv = malloc((size_t)tasks * 2 * sizeof *srv);
    if (!off || !srv) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    int64_t k = 0;
    int32_t t = 0;
    /* clause gadgets: literal tasks then auxiliary tasks */
    for (int32_t u = 0; u < r->alpha; u++)
        for (int32_t v = 0; v < 3; v++, t++) {
            int32_t l = f->lits[f->off[u] + v], x = l > 0 ? l : -l;
            int32_t i = r->var_index[x];
            int32_t j = l > 0 ? ++pos[x] : ++neg[x];
            r->ring_of[t] = ring_server(r, i, l > 0 ? 2 * j - 1 : 2 * j);
            off[t] = k;
            srv[k++] = u;
            srv[k++] = r->ring_of[t];
        }
    for (int32_t u = 0; u < r->alpha; u++, t++) {
        off[t] = k;
        srv[k++] = u;
    }
    /* variable gadgets: ring tasks between neighbours on the ring */
    for (int32_t i = 0; i < r->beta; i++)
        for (int32_t j = 1; j <= 2 * r->omega; j++, t++) {
            off[t] = k;
            srv[k++] = ring_server(r, i, j);
            srv[k++] = ring_server(r, i, j == 2 * r->omega ? 1 : j + 1);
        }
    /* variable tasks and sink tasks: local to the sink server only */
    for (int32_t n = 0; n < r->omega * r->beta + 3; n++, t++) {
        off[t] = k;
        srv[k++] = sink_server(r);
    }
    off[t] = k;
    double v3 = 3.0;
    hta_wrem w = {HTA_WREM_TABLE, 0, &v3, 0, 0};
    st = hta_instance_build((int32_t)tasks, (int32_t)servers, 1.0, &w, off,
                            srv, &r->inst, d);
cleanup:
    free(pos);
    free(neg);
    free(off);
    free(srv);
    if (st != HTA_OK)
        hta_reduce_free(r);
    else
        *out = r;
    return st;
}

const char *hta_reduce_comment(const hta_reduction *r, char *buf,
                               size_t size)
{
    int32_t A = r->alpha, B = r->beta, W = r->omega;
    snprintf(buf, size,
             "3SAT -> (2,3)-UHTA (Fischer, Su, Yin, Section 3.2): %ld "
             "clauses, %ld variables, omega %ld\n"
             "satisfiable iff some assignment has makespan <= 3\n"
             "servers 0..%ld: clause servers C_u = u\n"
             "servers %ld..%ld: ring servers R_j^(i) = %ld + %ld*i + j-1, "
             "j = 1..%ld\n"
             "server %ld: sink server P\n"
             "tasks 0..%ld: literal tasks l_{u,v} = 3u+v (on C_u and a "
             "ring server)\n"
             "tasks %ld..%ld: auxiliary tasks a_u\n"
             "tasks %ld..%ld: ring tasks r_j^(i) on R_j^(i), R_{j+1}^(i)\n"
             "tasks %ld..%ld: variable tasks v_j^(i) (on P)\n"
             "tasks %ld..%ld: sink tasks p_1..p_3 (on P)",
             (long)A, (long)B, (long)W, (long)A - 1, (long)A,
             (long)A + 2L * W * B - 1, (long)A, 2L * W, 2L * W,
             (long)A + 2L * W * B, 3L * A - 1, 3L * A, 4L * A - 1, 4L * A,
             4L * A + 2L * W * B - 1, 4L * A + 2L * W * B,
             4L * A + 3L * W * B - 1, 4L * A + 3L * W * B,
             4L * A + 3L * W * B + 2);
    return buf;
}

hta_status hta_reduce_witness(const hta_reduction *r, const signed char *model,
                              int32_t *a, double *makespan, hta_diag *d)
{
    const hta_cnf *f = r->f3;
    signed char *m = calloc((size_t)f->nvars + 1, 1);
    if (!m)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    memcpy(m, model, (size_t)f->orig_vars + 1);
    int64_t bad = hta_cnf_first_false(r->orig, m);
    if (bad >= 0) {
        free(m);
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "the model falsifies clause %lld (line %ld of the "
                            "formula)",
                            (long long)bad + 1, r->orig->line[bad]);
    }
    hta_cnf_extend_model(f, r->orig, m);
    /* Literal tasks: a true literal runs on its ring server, a false one
     * on its clause server (at most two per clause: the clause has a true
     * literal), auxiliary tasks on their clause servers. */
    for (int32_t u = 0; u < r->alpha; u++) {
        for (int32_t v = 0; v < 3; v++) {
            int32_t l = f->lits[f->off[u] + v], x = l > 0 ? l : -l;
            int truth = (m[x] != 0) == (l > 0);
            a[3 * u + v] = truth ? r->ring_of[3 * u + v] : u;
        }
        a[aux_task(r, u)] = u;
    }
    /* Ring i: x_i true puts the ring tasks on the odd servers T_i (which
     * take x_i's literal tasks) and the variable tasks, alone and remote,
     * on the even servers F_i; false the other way round. */
    for (int32_t i = 0; i < r->beta; i++) {
        int truth = m[r->gadget_var[i]] != 0;
        for (int32_t j = 1; j <= 2 * r->omega; j++) {
            int32_t next = j == 2 * r->omega ? 1 : j + 1;
            int j_odd = j % 2 == 1;
            a[ring_task(r, i, j)] =
                ring_server(r, i, j_odd == truth ? j : next);
        }
        for (int32_t j = 1; j <= r->omega; j++)
            a[var_task(r, i, j)] =
                ring_server(r, i, truth ? 2 * j : 2 * j - 1);
    }
    for (int32_t k = 0; k < 3; k++)
        a[sink_task(r, k)] = sink_server(r);
    free(m);
    hta_eval ev;
    hta_status st = hta_eval_run(r->inst, a, &ev, d);
    if (st != HTA_OK)
        return st;
    double span = ev.makespan;
    hta_eval_free(&ev);
    if (span > 3.0)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "the witness has makespan %g > 3", span);
    if (makespan)
        *makespan = span;
    return HTA_OK;
}

hta_status hta_reduce_decode(const hta_reduction *r, const int32_t *a,
                             signed char **model, hta_diag *d)
{
    const hta_instance *in = r->inst;
    const hta_cnf *f = r->f3;
    int32_t m = in->m;
    *model = NULL;
    hta_eval ev;
    hta_status st = hta_eval_run(in, a, &ev, d);
    if (st != HTA_OK)
        return st;
    double span = ev.makespan;
    hta_eval_free(&ev);
    if (span > 3.0)
        return hta_diag_set(d, HTA_ERR_NOPROOF, NULL, 0,
                            "the assignment has makespan %g > 3: it proves "
                            "nothing about the formula",
                            span);
    int32_t *b = malloc((size_t)m * sizeof *b);
    int32_t *xc = malloc((size_t)m * sizeof *xc);
    int32_t *xr = malloc((size_t)m * sizeof *xr);
    signed char *val = calloc((size_t)f->nvars + 1, 1);
    if (!b || !xc || !xr || !val) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    memcpy(b, a, (size_t)m * sizeof *b);
    int32_t P = sink_server(r), first_ring_task = 4 * r->alpha;
    /* Lemma 3.5: P holds three tasks at most; while a foreign task t is on
     * P, some sink task p runs elsewhere, remotely and so alone on its
     * server Q: swap them. */
    for (int32_t t = 0; t < sink_task(r, 0); t++) {
        if (b[t] != P)
            continue;
        int32_t p = sink_task(r, 0);
        while (p <= sink_task(r, 2) && b[p] == P)
            p++;
        if (p > sink_task(r, 2)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                              "decode: four tasks on the sink server");
            goto cleanup;
        }
        b[t] = b[p];
        b[p] = P;
    }
    /* Lemmas 3.6-3.7: G_C = clause servers with literal and auxiliary
     * tasks, G_R = ring servers with ring and variable tasks.  A task of
     * one side running remotely on a server of the other side is alone
     * there; pairs of such tasks swap servers until one kind is gone. */
    int64_t nc = 0, nr = 0;
    for (int32_t t = 0; t < sink_task(r, 0); t++) {
        int32_t s = b[t];
        if (s == P || hta_instance_is_local(in, t, s))
            continue;
        int task_c = t < first_ring_task, server_c = s < r->alpha;
        if (task_c && !server_c)
            xc[nc++] = t;
        else if (!task_c && server_c)
            xr[nr++] = t;
    }
    while (nc > 0 && nr > 0) {
        int32_t ti = xc[--nc], tj = xr[--nr];
        int32_t si = b[ti];
        b[ti] = b[tj];
        b[tj] = si;
    }
    /* Lemma 3.10: a literal task on its ring server makes its literal
     * true; a clause keeps at most two literal tasks beside its auxiliary
     * task, so every clause gets a true literal.  A variable whose literal
     * tasks all sit on clause servers is read from its ring: the side
     * holding the ring tasks is the saturated one (odd side: true). */
    for (int32_t i = 0; i < r->beta; i++) {
        int32_t x = r->gadget_var[i];
        int odd = 0, even = 0;
        for (int32_t j = 1; j <= 2 * r->omega; j++) {
            int32_t s = b[ring_task(r, i, j)] - ring_server(r, i, 1) + 1;
            if (s >= 1 && s <= 2 * r->omega) {
                if (s % 2)
                    odd++;
                else
                    even++;
            }
        }
        val[x] = (signed char)(odd >= even);
    }
    for (int32_t t = 0; t < 3 * r->alpha; t++)
        if (b[t] == r->ring_of[t]) {
            int32_t l = f->lits[f->off[t / 3] + t % 3];
            val[l > 0 ? l : -l] = l > 0;
        }
    int64_t bad = hta_cnf_first_false(f, val);
    if (bad < 0)
        bad = hta_cnf_first_false(r->orig, val);
    if (bad >= 0) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "decode: the truth assignment read from the "
                          "assignment falsifies clause %lld",
                          (long long)bad + 1);
        goto cleanup;
    }
    *model = malloc((size_t)r->orig->nvars + 1);
    if (!*model) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    memcpy(*model, val, (size_t)r->orig->nvars + 1);
cleanup:
    free(b);
    free(xc);
    free(xr);
    free(val);
    return st;
}

void hta_reduce_match_free(hta_reduction *r)
{
    if (!r)
        return;
    hta_cnf *f = (hta_cnf *)r->orig; /* owned by a recognised match */
    hta_reduce_free(r);
    hta_cnf_free(f);
}

/* The replicas of task t in both instances, as sets (at most two, each
 * server once per task). */
static int same_task(const hta_instance *a, const hta_instance *b, int32_t t)
{
    int64_t k = a->task_off[t + 1] - a->task_off[t];
    if (k != b->task_off[t + 1] - b->task_off[t] || k > 2)
        return 0;
    for (int64_t i = a->task_off[t]; i < a->task_off[t + 1]; i++)
        if (!hta_instance_is_local(b, t, a->task_srv[i]))
            return 0;
    return 1;
}

hta_status hta_reduce_recognize(const hta_instance *in, hta_reduction **out,
                                hta_diag *d)
{
    *out = NULL;
    int32_t m = in->m;
    if (in->w_loc != 1.0 || !hta_wrem_is_constant(&in->wrem) ||
        hta_wrem_at(&in->wrem, 0) != 3.0 || m < 3)
        return HTA_OK;
    /* alpha: literal tasks have two replicas, a_0 one */
    int32_t t = 0;
    while (t < m && in->task_off[t + 1] - in->task_off[t] == 2)
        t++;
    if (t == 0 || t % 3 != 0 || t == m)
        return HTA_OK;
    int64_t alpha = t / 3, wb3 = (int64_t)m - 4 * alpha - 3;
    if (wb3 <= 0 || wb3 % 3 != 0 ||
        (int64_t)in->n_declared != alpha + 2 * (wb3 / 3) + 1)
        return HTA_OK;
    int64_t wb = wb3 / 3, omega = 0;
    for (int64_t w = 1; w <= wb && !omega; w++) {
        int64_t rt = 4 * alpha + 2 * w - 1; /* r_{2w}^(0) if omega = w */
        if (wb % w == 0 && rt < m &&
            in->task_off[rt + 1] - in->task_off[rt] == 2 &&
            hta_instance_is_local(in, (int32_t)rt, (int32_t)alpha) &&
            hta_instance_is_local(in, (int32_t)rt,
                                  (int32_t)(alpha + 2 * w - 1)))
            omega = w;
    }
    if (!omega)
        return HTA_OK;
    int64_t beta = wb / omega;
    /* the formula: clause u's v-th literal from task 3u + v */
    hta_cnf *f = calloc(1, sizeof *f);
    if (f) {
        f->nvars = (int32_t)beta;
        f->nclauses = alpha;
        f->off = malloc(((size_t)alpha + 1) * sizeof *f->off);
        f->lits = malloc((size_t)alpha * 3 * sizeof *f->lits);
        f->line = calloc((size_t)alpha + 1, sizeof *f->line);
    }
    if (!f || !f->off || !f->lits || !f->line) {
        hta_cnf_free(f);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    int ok = 1;
    for (int64_t u = 0; u < alpha && ok; u++) {
        f->off[u] = 3 * u;
        f->line[u] = (long)u + 1;
        for (int v = 0; v < 3 && ok; v++) {
            int32_t task = (int32_t)(3 * u + v), ring = -1;
            ok = hta_instance_is_local(in, task, (int32_t)u);
            for (int64_t i = in->task_off[task]; i < in->task_off[task + 1];
                 i++)
                if (in->task_srv[i] != u)
                    ring = in->task_srv[i];
            int64_t pos = (int64_t)ring - alpha;
            ok = ok && pos >= 0 && pos < 2 * omega * beta;
            if (ok) {
                int32_t var = (int32_t)(pos / (2 * omega)) + 1;
                int odd = (pos % (2 * omega)) % 2 == 0; /* j = pos % 2w + 1 */
                f->lits[3 * u + v] = odd ? var : -var;
            }
        }
    }
    f->off[alpha] = 3 * alpha;
    hta_reduction *r = NULL;
    hta_status st = ok ? hta_reduce_build(f, &r, d) : HTA_ERR_INPUT;
    if (st != HTA_OK) {
        hta_cnf_free(f);
        /* out of memory is an error; a formula too large to rebuild (it
           cannot have made inst) is no match */
        return st == HTA_ERR_INTERNAL ? st : HTA_OK;
    }
    const hta_instance *b = r->inst;
    ok = b->m == m && b->n_declared == in->n_declared &&
         r->omega == omega && r->beta == beta;
    for (int32_t x = 0; x < m && ok; x++)
        ok = same_task(in, b, x);
    if (!ok) {
        hta_reduce_free(r);
        hta_cnf_free(f);
        return HTA_OK;
    }
    *out = r; /* r->orig is f: hta_reduce_match_free releases both */
    return HTA_OK;
}
