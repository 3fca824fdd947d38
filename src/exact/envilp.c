/* One piece of the general decision by GLPK: the envelope-cut model
 * (envilp.h). */
#include "envilp.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>

#include "hta/num.h"
#include "core/glpkx.h"

#define OOM(d) hta_diag_set((d), HTA_ERR_INTERNAL, NULL, 0, "out of memory")

/* The largest U for which the knapsack row is searched (pairs of local
 * counts: U^2 / 2 comparisons). */
#define KNAP_MAX_U 4096

/* The simplest fraction strictly between a/b and c/d (0 <= a/b < c/d,
 * b, d > 0) into *p / *q: the continued-fraction recursion; 0 when a
 * value outgrows 2^40. */
static int simplest(int64_t a, int64_t b, int64_t c, int64_t d, int64_t *p,
                    int64_t *q)
{
    if (a > 0x1p40 || b > 0x1p40 || c > 0x1p40 || d > 0x1p40)
        return 0;
    int64_t k = a / b; /* floor, a >= 0 */
    if ((k + 1) * d < c) { /* k + 1 lies inside */
        *p = k + 1;
        *q = 1;
        return 1;
    }
    /* k <= a/b < c/d <= k + 1: shift by k */
    int64_t a1 = a - k * b, c1 = c - k * d;
    if (a1 == 0) { /* (0, c1/d): 1/j with j > d/c1 */
        *q = d / c1 + 1;
        *p = k * *q + 1;
        return 1;
    }
    /* the reciprocals: strictly between d/c1 and b/a1 */
    int64_t n, m;
    if (!simplest(d, c1, b, a1, &n, &m))
        return 0;
    /* a1/b < m/n < c1/d: the fraction is k + m/n */
    *p = k * n + m;
    *q = n;
    return 1;
}

/* A knapsack row p v + q j <= K whose integer points (v in 0..U, j >= 0)
 * are exactly those with j <= room[v]: A = p/q must keep the spread of
 * A v + room[v] below 1, an open interval of A from every pair v < u;
 * the simplest fraction in it.  0 when there is none (checked in integers
 * at the end). */
static int knapsack_row(const int64_t *room, int64_t U, int64_t *pp,
                        int64_t *qq, int64_t *KK)
{
    if (U > KNAP_MAX_U)
        return 0;
    /* lo = max (dr - 1)/du, hi = min (dr + 1)/du; as fractions */
    int64_t ln = -1, ld = 1, hn = INT64_MAX, hd = 1;
    for (int64_t v = 0; v <= U; v++)
        for (int64_t u = v + 1; u <= U; u++) {
            int64_t du = u - v, dr = room[v] - room[u];
            if ((dr - 1) * ld > ln * du)
                ln = dr - 1, ld = du;
            if (hn == INT64_MAX || (dr + 1) * hd < hn * du)
                hn = dr + 1, hd = du;
        }
    int64_t p, q;
    if (hn == INT64_MAX) { /* U = 0: y <= room[0] */
        p = 0;
        q = 1;
    } else if (ln < 0) { /* lo < 0 < hi (hi > 0: rooms never grow) */
        p = 0;
        q = 1;
    } else if (ln * hd >= hn * ld || !simplest(ln, ld, hn, hd, &p, &q)) {
        return 0;
    }
    int64_t K = INT64_MIN;
    for (int64_t v = 0; v <= U; v++)
        if (p * v + q * room[v] > K)
            K = p * v + q * room[v];
    for (int64_t v = 0; v <= U; v++)
        if (p * v + q * (room[v] + 1) <= K)
            return 0;
    if (p > 0x1p50 || q > 0x1p50 || K > 0x1p50)
        return 0; /* GLPK holds the row in doubles: exact below 2^53 */
    *pp = p;
    *qq = q;
    *KK = K;
    return 1;
}

typedef struct model {
    const hta_instance *inst;
    const hta_envilp_piece *pc;
    double deadline;
    volatile sig_atomic_t *stop;
    unsigned char *on;
    hta_envilp_realise realise;
    void *ctx;
    hta_envilp_result *res;
    const char *write_lp, *what;
    int64_t p, q, K;
    int levels;       /* no knapsack row: y_s <= room[X_s] by levels */
    /* scratch, owned here (an abort out of GLPK leaks nothing) */
    int *ia, *ja;
    double *ar;
    int64_t *hx, *hg; /* one server's hull */
    int *rowX;        /* per server: its X row */
    /* groups of tasks with one replica set (hta_instance_groups), one
     * column per group and replica; or each task its own group */
    int aggregate, rebuild;
    int32_t ngroups;
    int32_t *order, *first; /* the groups' tasks */
    int64_t *col0;          /* per group: its first column - 1 */
    int64_t ncols;          /* the group columns */
} model;

/* The upper concave hull of (v, v + room[v]), v = 0..u, into hx, hg;
 * returns its number of vertices. */
static int64_t hull(const int64_t *room, int64_t u, int64_t *hx, int64_t *hg)
{
    int64_t k = 0;
    for (int64_t v = 0; v <= u; v++) {
        int64_t g = v + room[v];
        while (k >= 2 && (hg[k - 1] - hg[k - 2]) * (v - hx[k - 2]) <=
                             (g - hg[k - 2]) * (hx[k - 1] - hx[k - 2]))
            k--;
        hx[k] = v;
        hg[k] = g;
        k++;
    }
    return k;
}

static void callback(glp_tree *T, void *info)
{
    model *md = info;
    if (glp_ios_reason(T) == GLP_IBINGO) {
        glp_ios_terminate(T); /* a solution: the decision needs no more */
        return;
    }
    if ((md->stop && *md->stop) || hta_clock_now() > md->deadline)
        glp_ios_terminate(T);
}

/* The MIP solution's local pairs into md->on, group by group: the first
 * x_{g,s_1} tasks of g on s_1, the next x_{g,s_2} on s_2, ...; returns
 * the number of local tasks. */
static int64_t read_pairs(model *md, glp_prob *P)
{
    const hta_instance *in = md->inst;
    int64_t local = 0;
    memset(md->on, 0, (size_t)in->edges);
    for (int32_t g = 0; g < md->ngroups; g++) {
        int32_t rep = md->order[md->first[g]], next = md->first[g];
        for (int64_t j = 0; j < in->task_off[rep + 1] - in->task_off[rep];
             j++) {
            int32_t s = in->task_srv[in->task_off[rep] + j];
            double v = glp_mip_col_val(P, (int)(md->col0[g] + j) + 1);
            for (int64_t c = (int64_t)llround(v); c > 0 && next <
                                 md->first[g + 1]; c--, next++) {
                int32_t t = md->order[next];
                int64_t i = in->task_off[t];
                while (in->task_srv[i] != s) /* same set, own order */
                    i++;
                md->on[i] = 1;
                local++;
            }
        }
    }
    return local;
}

/* Runs inside the guard: builds the model, then solves until an answer. */
/* The envelope-cut model of the piece, its matrix loaded. */
static glp_prob *build_model(model *md)
{
    const hta_instance *in = md->inst;
    const hta_envilp_piece *pc = md->pc;
    int32_t m = in->m, n = in->n;
    int64_t E = md->ncols, U = pc->U;
    /* columns: the groups' (1..E; a group g with replica set {s_1 ..
     * s_k}: x_{g,s_j} local tasks of g on s_j, column col0[g] + j), X_s
     * (E+1..E+n), y_s (E+n+1..E+2n) */
    int colX = (int)E + 1, colY = (int)E + n + 1;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_cols(P, (int)E + 2 * n);
    for (int32_t g = 0; g < md->ngroups; g++) {
        int32_t t = md->order[md->first[g]];
        int32_t size = md->first[g + 1] - md->first[g];
        for (int64_t j = 0; j < in->task_off[t + 1] - in->task_off[t]; j++) {
            int c = (int)(md->col0[g] + j) + 1;
            if (size == 1) {
                glp_set_col_kind(P, c, GLP_BV);
            } else {
                glp_set_col_kind(P, c, GLP_IV);
                glp_set_col_bnds(P, c, GLP_DB, 0.0, (double)size);
            }
        }
    }
    for (int32_t s = 0; s < n; s++) {
        int64_t deg = in->srv_off[s + 1] - in->srv_off[s];
        double ux = (double)(deg < U ? deg : U);
        glp_set_col_kind(P, colX + s, GLP_IV);
        glp_set_col_bnds(P, colX + s, ux > 0 ? GLP_DB : GLP_FX, 0.0, ux);
        glp_set_obj_coef(P, colX + s, 1.0);
        glp_set_col_kind(P, colY + s, GLP_IV);
        double uy = (double)pc->room[0];
        glp_set_col_bnds(P, colY + s, uy > 0 ? GLP_DB : GLP_FX, 0.0, uy);
        glp_set_obj_coef(P, colY + s, 1.0);
    }
    int64_t k = 0;
    int row = 0;
    /* groups: at most their size local; exactly for tasks on every
     * server (they run local wherever they run: without the row, GLPK
     * offers solutions that no assignment realises, one after another) */
    for (int32_t g = 0; g < md->ngroups; g++) {
        int32_t t = md->order[md->first[g]];
        double size = (double)(md->first[g + 1] - md->first[g]);
        int64_t deg = in->task_off[t + 1] - in->task_off[t];
        if (deg < 2 && deg < n)
            continue;
        row = glp_add_rows(P, 1);
        glp_set_row_bnds(P, row, deg == n ? GLP_FX : GLP_UP,
                         deg == n ? size : 0.0, size);
        for (int64_t j = 0; j < deg; j++)
            ++k, md->ia[k] = row, md->ja[k] = (int)(md->col0[g] + j) + 1,
                 md->ar[k] = 1.0;
    }
    /* per server: X_s - its pairs = 0 (the pairs below), the knapsack
     * row, the envelope rows */
    for (int32_t s = 0; s < n; s++) {
        row = md->rowX[s] = glp_add_rows(P, 1);
        glp_set_row_bnds(P, row, GLP_FX, 0.0, 0.0);
        ++k, md->ia[k] = row, md->ja[k] = colX + s, md->ar[k] = 1.0;
        int64_t deg = in->srv_off[s + 1] - in->srv_off[s];
        if (md->levels) {
            /* z_{s,v} in {0, 1}, v = 0..U_s: sum z = 1, X_s = sum v z,
             * y_s <= sum room[v] z (exact for any rooms) */
            int64_t us = deg < U ? deg : U;
            int c0 = glp_add_cols(P, (int)us + 1);
            row = glp_add_rows(P, 3);
            glp_set_row_bnds(P, row, GLP_FX, 1.0, 1.0);
            glp_set_row_bnds(P, row + 1, GLP_FX, 0.0, 0.0);
            glp_set_row_bnds(P, row + 2, GLP_UP, 0.0, 0.0);
            ++k, md->ia[k] = row + 1, md->ja[k] = colX + s, md->ar[k] = 1.0;
            ++k, md->ia[k] = row + 2, md->ja[k] = colY + s, md->ar[k] = 1.0;
            for (int64_t v = 0; v <= us; v++) {
                int c = c0 + (int)v;
                glp_set_col_kind(P, c, GLP_BV);
                ++k, md->ia[k] = row, md->ja[k] = c, md->ar[k] = 1.0;
                ++k, md->ia[k] = row + 1, md->ja[k] = c, md->ar[k] = -(double)v;
                ++k, md->ia[k] = row + 2, md->ja[k] = c,
                     md->ar[k] = -(double)pc->room[v];
            }
        } else {
            row = glp_add_rows(P, 1);
            glp_set_row_bnds(P, row, GLP_UP, 0.0, (double)md->K);
            ++k, md->ia[k] = row, md->ja[k] = colX + s,
                 md->ar[k] = (double)md->p;
            ++k, md->ia[k] = row, md->ja[k] = colY + s,
                 md->ar[k] = (double)md->q;
        }
        int64_t h = hull(pc->room, deg < U ? deg : U, md->hx, md->hg);
        for (int64_t j = 0; j + 1 < h; j++) {
            int64_t dx = md->hx[j + 1] - md->hx[j],
                    dy = md->hg[j + 1] - md->hg[j];
            row = glp_add_rows(P, 1);
            glp_set_row_bnds(P, row, GLP_UP, 0.0,
                             (double)(dx * md->hg[j] - dy * md->hx[j]));
            ++k, md->ia[k] = row, md->ja[k] = colX + s,
                 md->ar[k] = (double)(dx - dy);
            ++k, md->ia[k] = row, md->ja[k] = colY + s, md->ar[k] = (double)dx;
        }
    }
    for (int32_t g = 0; g < md->ngroups; g++) {
        int32_t t = md->order[md->first[g]];
        for (int64_t i = in->task_off[t]; i < in->task_off[t + 1]; i++)
            ++k, md->ia[k] = md->rowX[in->task_srv[i]],
                 md->ja[k] = (int)(md->col0[g] + i - in->task_off[t]) + 1,
                 md->ar[k] = -1.0;
    }
    /* sum X + y >= m; sum X <= m - rmin */
    row = glp_add_rows(P, 2);
    glp_set_row_bnds(P, row, GLP_LO, (double)m, 0.0);
    glp_set_row_bnds(P, row + 1, GLP_UP, 0.0, (double)(m - pc->rmin));
    for (int32_t s = 0; s < n; s++) {
        ++k, md->ia[k] = row, md->ja[k] = colX + s, md->ar[k] = 1.0;
        ++k, md->ia[k] = row, md->ja[k] = colY + s, md->ar[k] = 1.0;
        ++k, md->ia[k] = row + 1, md->ja[k] = colX + s, md->ar[k] = 1.0;
    }
    glp_load_matrix(P, (int)k, md->ia, md->ja, md->ar);
    return P;
}

/* No solution: the answer, and the model written when asked (the first,
 * untightened one: the certificate). */
static hta_status infeasible(model *md, glp_prob *P, int tight, hta_diag *d)
{
    md->res->answer = tight ? HTA_ENVILP_NO_TIGHT : HTA_ENVILP_NO;
    if (tight || !md->write_lp)
        return HTA_OK;
    glp_set_prob_name(P, md->what);
    if (glp_write_lp(P, NULL, md->write_lp) != 0)
        return hta_diag_set(d, HTA_ERR_IO, NULL, 0,
                            "cannot write the model to %s", md->write_lp);
    md->res->lp_written = 1;
    return HTA_OK;
}

/* Branch and bound on the model, each solution realised or excluded,
 * until an answer, the deadline or a stop. */
static hta_status search(model *md, glp_prob *P, hta_diag *d)
{
    const hta_instance *in = md->inst;
    const hta_envilp_piece *pc = md->pc;
    hta_envilp_result *res = md->res;
    int32_t m = in->m, n = in->n;
    int64_t E = md->ncols;
    int colX = (int)E + 1, row;
    hta_status st = HTA_OK;
    int tight = 0;
    res->answer = HTA_ENVILP_UNKNOWN;
    for (;;) {
        double left = md->deadline - hta_clock_now();
        if (left <= 0 || (md->stop && *md->stop))
            break;
        /* the relaxation first, by the simplex in slices that poll the
         * deadline and the stop flag (glp_intopt's presolver solves it
         * without a callback: 5 s after Ctrl-C at 10^6 tasks), then the
         * search from its optimal basis */
        glp_smcp smcp;
        glp_init_smcp(&smcp);
        smcp.msg_lev = GLP_MSG_OFF;
        res->solves++;
        int lp = hta_glpk_simplex(P, &smcp, md->deadline, md->stop);
        if (lp == GLP_ETMLIM)
            break;
        if (lp == 0 && glp_get_status(P) == GLP_NOFEAS) {
            st = infeasible(md, P, tight, d);
            break;
        }
        if (lp != 0 || glp_get_status(P) != GLP_OPT) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                              "GLPK: the relaxation ended with code %d, "
                              "status %d", lp, glp_get_status(P));
            break;
        }
        left = md->deadline - hta_clock_now();
        if (left <= 0 || (md->stop && *md->stop))
            break;
        glp_iocp io;
        glp_init_iocp(&io);
        io.msg_lev = GLP_MSG_OFF;
        io.presolve = GLP_OFF;
        io.gmi_cuts = GLP_ON;
        io.mir_cuts = GLP_ON;
        io.cov_cuts = GLP_ON;
        io.clq_cuts = GLP_ON;
        io.tm_lim = (int)fmin(left * 1000.0, 2e9);
        io.cb_func = callback;
        io.cb_info = md;
        int ret = glp_intopt(P, &io);
        int mip = glp_mip_status(P);
        if (ret == GLP_ENOPFS || (ret == 0 && mip == GLP_NOFEAS)) {
            st = infeasible(md, P, tight, d);
            break;
        }
        if (ret != 0 && ret != GLP_ETMLIM && ret != GLP_ESTOP) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                              "GLPK branch-and-bound failed (code %d)", ret);
            break;
        }
        if (mip != GLP_OPT && mip != GLP_FEAS)
            break; /* stopped without a solution */
        int64_t local = read_pairs(md, P); /* m - R */
        int ok = md->realise(md->ctx, md->on, &st, d);
        if (ok < 0)
            break; /* st says why */
        if (ok) {
            res->answer = HTA_ENVILP_YES;
            break;
        }
        if (!tight && m - local > pc->rtight) {
            /* the rooms are optimistic above rtight: within it first */
            int64_t len = 0;
            for (int32_t s = 0; s < n; s++)
                md->ja[++len] = colX + s, md->ar[len] = 1.0;
            row = glp_add_rows(P, 1);
            glp_set_row_bnds(P, row, GLP_LO, (double)(m - pc->rtight), 0.0);
            glp_set_mat_row(P, row, (int)len, md->ja, md->ar);
            tight = 1;
            continue;
        }
        if (md->aggregate) {
            /* a group's columns count tasks: excluded one by one, pair
             * by pair, so the model is built again with a group per
             * task */
            md->rebuild = 1;
            break;
        }
        /* excluded: sum_on e - sum_off e <= |on| - 1 (a column per pair) */
        int64_t len = 0;
        for (int64_t i = 0; i < E; i++)
            md->ja[++len] = (int)i + 1, md->ar[len] = md->on[i] ? 1.0 : -1.0;
        row = glp_add_rows(P, 1);
        glp_set_row_bnds(P, row, GLP_UP, 0.0, (double)(local - 1));
        glp_set_mat_row(P, row, (int)len, md->ja, md->ar);
        res->blocked++;
    }
    return st;
}

static hta_status solve(void *arg, hta_diag *d)
{
    model *md = arg;
    glp_prob *P = build_model(md);
    hta_status st = search(md, P, d);
    glp_delete_prob(P);
    return st;
}

hta_status hta_envilp_decide(const hta_instance *inst,
                             const hta_envilp_piece *pc, double deadline,
                             volatile sig_atomic_t *stop, unsigned char *on,
                             hta_envilp_realise realise, void *ctx,
                             const char *write_lp, const char *what,
                             hta_envilp_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    res->answer = HTA_ENVILP_NA;
    model md = {.inst = inst, .pc = pc, .deadline = deadline,
                .stop = stop, .on = on, .realise = realise, .ctx = ctx,
                .res = res, .write_lp = write_lp, .what = what};
    md.levels = !knapsack_row(pc->room, pc->U, &md.p, &md.q, &md.K);
    int64_t E = inst->edges, n = inst->n, U = pc->U;
    /* nonzeros: tasks E, X rows E + n, knapsack 2n, envelope 2 per
     * segment (at most U per server), the totals 3n; a blocking row E */
    double nlev = md.levels ? (double)n * (double)(U + 1) : 0;
    double nnz = 2.0 * (double)E + 6.0 * (double)n +
                 2.0 * (double)n * (double)(U + 1) + 3.0 * (double)n +
                 4.0 * nlev + 8;
    if (nnz > (double)INT_MAX / 2 ||
        (double)E + 2.0 * (double)n + nlev > INT_MAX / 2) {
        snprintf(res->why, sizeof res->why,
                 "the model exceeds GLPK's int indices");
        return HTA_OK;
    }
    size_t N = (size_t)nnz + 1, W = (size_t)(E > 2 * n ? E : 2 * n) +
                                     (size_t)n + 2;
    if (W > N)
        N = W;
    md.ia = malloc(N * sizeof *md.ia);
    md.ja = malloc(N * sizeof *md.ja);
    md.ar = malloc(N * sizeof *md.ar);
    md.hx = malloc(((size_t)U + 2) * sizeof *md.hx);
    md.hg = malloc(((size_t)U + 2) * sizeof *md.hg);
    md.rowX = malloc(((size_t)n + 1) * sizeof *md.rowX);
    int32_t m = inst->m;
    md.order = malloc(((size_t)m + 1) * sizeof *md.order);
    md.first = malloc(((size_t)m + 2) * sizeof *md.first);
    md.col0 = malloc(((size_t)m + 1) * sizeof *md.col0);
    hta_status st = HTA_OK;
    if (!md.ia || !md.ja || !md.ar || !md.hx || !md.hg || !md.rowX ||
        !md.order || !md.first || !md.col0)
        st = OOM(d);
    else
        st = hta_instance_groups(inst, md.order, md.first, &md.ngroups, d);
    md.aggregate = md.ngroups < m;
    for (int round = 0; st == HTA_OK && round < 2; round++) {
        if (round) { /* a group per task, columns as the pairs */
            if (!md.rebuild)
                break;
            for (int32_t t = 0; t < m; t++)
                md.order[t] = md.first[t] = t;
            md.first[m] = m;
            md.ngroups = m;
            md.aggregate = md.rebuild = 0;
        }
        md.ncols = 0;
        for (int32_t g = 0; g < md.ngroups; g++) {
            int32_t t = md.order[md.first[g]];
            md.col0[g] = md.ncols;
            md.ncols += inst->task_off[t + 1] - inst->task_off[t];
        }
        double cols = (double)md.ncols + 2.0 * (double)n + nlev;
        if (cols > HTA_ENVILP_MAX_COLS) {
            res->answer = HTA_ENVILP_NA;
            snprintf(res->why, sizeof res->why,
                     "the GLPK model has %.0f columns, over %.0f", cols,
                     (double)HTA_ENVILP_MAX_COLS);
            break;
        }
        res->answer = HTA_ENVILP_UNKNOWN;
        st = hta_glpk_guard(solve, &md, 0, d);
    }
    free(md.order);
    free(md.first);
    free(md.col0);
    free(md.ia);
    free(md.ja);
    free(md.ar);
    free(md.hx);
    free(md.hg);
    free(md.rowX);
    return st;
}
