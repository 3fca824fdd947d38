/* The exact optimum of the flow-time problem: a time-indexed integer
 * program, solved by GLPK (flowtime.h).
 *
 * Horizon.  With U the total flow time of a feasible schedule and lb_j the
 * least flow time of job j alone (hta_ft_job_lb), every optimal schedule
 * has f_i - a_i + 1 <= U - sum_{j != i} lb_j, so job i lives in the slots
 * a_i .. T_i = a_i - 1 + U - sum_{j != i} lb_j.
 *
 * Variables, per job i and slot t in its window (all cumulative, so each
 * row has O(1) entries per job):
 *   P_t  map units done by the end of t, integer, P_{T_i} = M_i
 *   z_t  1 when the map work ended by the end of t: P_t >= M_i z_t
 *   c_t  1 when the job ended by the end of t (t < T_i)
 * preemptive:
 *   Q_t  reduce units done by the end of t, integer, Q_{T_i} = R_i,
 *        Q_t - Q_{t-1} <= min(N, R_i) z_{t-1}, Q_t >= R_i c_t
 * non-preemptive, per reduce task k of p units:
 *   S_t  1 when task k started by slot t (binary, non-decreasing), started
 *        by T_i - p + 1; S_t - S_{t-1} <= z_{t-1}; it runs in slot t iff
 *        S_t - S_{t-p} = 1; c_t <= S_{t-p+1}
 * map-only jobs: P_t >= M_i c_t.
 * Capacity of slot t: sum of (P_t - P_{t-1}) + (Q_t - Q_{t-1}) or
 * (S_t - S_{t-p}) over the jobs <= N.
 * Objective: sum_i f_i - a_i + 1 = sum_i (1 + T_i - a_i - sum_t c_t).
 *
 * The schedule read back is verified by hta_ft_check before it is
 * reported.
 */
#if !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#endif
#include "hta/flowtime.h"

#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "hta/num.h"
#include "core/buf.h"
#include "core/glpkx.h"

typedef struct model {
    const hta_jobs *J;
    const hta_ft_exact_opts *o;
    hta_ft_exact *out;
    int64_t *T;     /* [n] last slot of each job's window */
    int64_t *col0;  /* [n] first column of each job */
    int64_t ncols;
    /* triplets, 1-based for glp_load_matrix */
    int *ia, *ja;
    double *ar;
    size_t nnz, cap_ia, cap_ja, cap_ar;
    double *rowlo; /* row bounds: lo, hi (HUGE_VAL for none) */
    double *rowhi;
    size_t nrows, cap_lo, cap_hi;
    double *colval; /* the solution (in the shared area) */
    double deadline, started;
    struct shared *sh; /* written by the solving process */
    pid_t parent;
    size_t maplen;
    hta_diag *d;
} model;

/* What the process that runs GLPK shares with the caller's (an anonymous
 * shared mapping followed by the column values, written by the child
 * only and read once it has ended). */
typedef struct shared {
    int done; /* solve() returned (else the child was killed or died) */
    int st;   /* its status, and the message */
    char msg[sizeof ((hta_diag *)0)->msg];
    int found, optimal, cut, have_bound;
    double tree_bound, obj; /* best node bound seen, the answer's value */
} shared;

/* Column layout of job i, offsets from col0[i] (1-based columns):
 *   P: w slots, z: w - 1, c: w - 1, then Q: w - 1 (slots a+1..T) or,
 *   per task k, S: T - p_k + 1 - a slots (a+1 .. T - p_k + 1). */
static int64_t width(const model *m, int64_t i)
{
    return m->T[i] - m->J->arrival[i] + 1;
}

static int64_t col_P(const model *m, int64_t i, int64_t t)
{
    return m->col0[i] + (t - m->J->arrival[i]);
}

static int64_t col_z(const model *m, int64_t i, int64_t t)
{
    return m->col0[i] + width(m, i) + (t - m->J->arrival[i]);
}

static int64_t col_c(const model *m, int64_t i, int64_t t)
{
    return m->col0[i] + 2 * width(m, i) - 1 + (t - m->J->arrival[i]);
}

static int64_t col_R(const model *m, int64_t i)
{
    return m->col0[i] + 3 * width(m, i) - 2; /* first Q or S column */
}

static int64_t job_cols(const model *m, int64_t i)
{
    const hta_jobs *J = m->J;
    int64_t w = width(m, i), c = 3 * w - 2;
    if (J->roff[i + 1] == J->roff[i])
        return c;
    if (m->o->preemptive)
        return c + w - 1;
    for (int64_t k = J->roff[i]; k < J->roff[i + 1]; k++)
        c += m->T[i] - J->red[k] + 1 - J->arrival[i];
    return c;
}

static int64_t lb_sum(const hta_jobs *J, const hta_ft_exact_opts *o)
{
    int64_t sum = 0;
    for (int64_t i = 0; i < J->n; i++)
        sum += hta_ft_job_lb(J, i, o->machines, o->preemptive);
    return sum;
}

/* The last slot of job i's window (the header comment): a_i - 1 + U -
 * sum_{j != i} lb_j, and never past the last arrival plus all the work. */
static int64_t horizon(const hta_jobs *J, const hta_ft_exact_opts *o,
                       int64_t i, int64_t sum)
{
    int64_t lb = hta_ft_job_lb(J, i, o->machines, o->preemptive);
    int64_t T = J->arrival[i] - 1 + o->upper - (sum - lb);
    int64_t last = J->arrival[J->n - 1] + J->work - 1;
    return T < last ? T : last;
}

int64_t hta_ft_exact_size(const hta_jobs *J, const hta_ft_exact_opts *o)
{
    int64_t sum = lb_sum(J, o), total = 0;
    for (int64_t i = 0; i < J->n; i++) {
        int64_t w = horizon(J, o, i, sum) - J->arrival[i] + 1;
        if (w < 1 || total > INT64_MAX / 4)
            return INT64_MAX;
        total += 3 * w;
        int64_t K = J->roff[i + 1] - J->roff[i];
        if (K && o->preemptive)
            total += w;
        else if (K > 0 && w > INT64_MAX / 4 / K)
            return INT64_MAX;
        else
            total += K * w;
    }
    return total;
}

static int add_row(model *m, double lo, double hi)
{
    if (!HTA_RESERVE(m->rowlo, m->cap_lo, m->nrows + 1) ||
        !HTA_RESERVE(m->rowhi, m->cap_hi, m->nrows + 1))
        return -1;
    m->rowlo[m->nrows] = lo;
    m->rowhi[m->nrows] = hi;
    m->nrows++;
    return 0;
}

static int add(model *m, int64_t col, double v)
{
    size_t k = m->nnz + 1;
    if (!HTA_RESERVE(m->ia, m->cap_ia, k + 1) ||
        !HTA_RESERVE(m->ja, m->cap_ja, k + 1) ||
        !HTA_RESERVE(m->ar, m->cap_ar, k + 1))
        return -1;
    m->ia[k] = (int)m->nrows; /* the row added last */
    m->ja[k] = (int)col;
    m->ar[k] = v;
    m->nnz = k;
    return 0;
}

/* Cumulative S of task with first start slot f and last start slot l, at
 * slot t: a column, or the constant 0 (t < f) or 1 (t > l). */
static int S_term(model *m, int64_t base, int64_t f, int64_t l, int64_t t,
                  double v, double *rhs)
{
    if (t < f)
        return 0;
    if (t > l) {
        *rhs -= v;
        return 0;
    }
    return add(m, base + (t - f), v);
}

/* Builds every row in the triplet arrays.  -1 out of memory. */
static int build(model *m)
{
    const hta_jobs *J = m->J;
    int pre = m->o->preemptive;
    int32_t N = m->o->machines;
    int64_t tmin = J->arrival[0], tmax = 0;
    for (int64_t i = 0; i < J->n; i++)
        if (m->T[i] > tmax)
            tmax = m->T[i];
    /* per job rows */
    for (int64_t i = 0; i < J->n; i++) {
        int64_t a = J->arrival[i], T = m->T[i], M = J->map[i];
        int64_t R = hta_jobs_reduce_work(J, i);
        for (int64_t t = a; t <= T; t++) {
            if (t > a) { /* P non-decreasing */
                if (add_row(m, 0, HUGE_VAL) || add(m, col_P(m, i, t), 1) ||
                    add(m, col_P(m, i, t - 1), -1))
                    return -1;
            }
            if (t < T && t > a) { /* z and c never go back to 0 */
                if (add_row(m, 0, HUGE_VAL) || add(m, col_z(m, i, t), 1) ||
                    add(m, col_z(m, i, t - 1), -1) ||
                    add_row(m, 0, HUGE_VAL) || add(m, col_c(m, i, t), 1) ||
                    add(m, col_c(m, i, t - 1), -1))
                    return -1;
                /* a job with reduce work ends after its map: c_t <= z_t-1 */
                if (R > 0 && (add_row(m, -HUGE_VAL, 0) ||
                              add(m, col_c(m, i, t), 1) ||
                              add(m, col_z(m, i, t - 1), -1)))
                    return -1;
            }
            if (t < T) { /* z and c */
                if (add_row(m, 0, HUGE_VAL) || add(m, col_P(m, i, t), 1) ||
                    add(m, col_z(m, i, t), -(double)M))
                    return -1;
                if (R == 0 &&
                    (add_row(m, 0, HUGE_VAL) || add(m, col_P(m, i, t), 1) ||
                     add(m, col_c(m, i, t), -(double)M)))
                    return -1;
            }
        }
        if (R == 0)
            continue;
        int64_t q0 = col_R(m, i);
        if (pre) { /* Q over slots a+1 .. T */
            double cap = R < N ? (double)R : (double)N;
            /* the reduce work cannot end in the arrival slot: c_a = 0 */
            if (a < T && (add_row(m, -HUGE_VAL, 0) ||
                          add(m, col_c(m, i, a), 1)))
                return -1;
            for (int64_t t = a + 1; t <= T; t++) {
                int64_t q = q0 + (t - a - 1);
                /* Q_t - Q_{t-1} in [0, cap z_{t-1}] */
                if (add_row(m, 0, HUGE_VAL) || add(m, q, 1) ||
                    (t > a + 1 && add(m, q - 1, -1)))
                    return -1;
                if (add_row(m, -HUGE_VAL, 0) || add(m, q, 1) ||
                    (t > a + 1 && add(m, q - 1, -1)) ||
                    add(m, col_z(m, i, t - 1), -cap))
                    return -1;
                /* no reduce work done by t unless the map ended by t-1 */
                if (t < T && (add_row(m, -HUGE_VAL, 0) || add(m, q, 1) ||
                              add(m, col_z(m, i, t - 1), -(double)R)))
                    return -1;
                if (t < T && (add_row(m, 0, HUGE_VAL) || add(m, q, 1) ||
                              add(m, col_c(m, i, t), -(double)R)))
                    return -1;
            }
            continue;
        }
        int64_t base = q0;
        for (int64_t k = J->roff[i]; k < J->roff[i + 1]; k++) {
            int64_t p = J->red[k], f = a + 1, l = T - p + 1;
            for (int64_t t = f; t <= l; t++) {
                int64_t s = base + (t - f);
                /* S_t - S_{t-1} in [0, z_{t-1}] */
                if (t > f && (add_row(m, 0, HUGE_VAL) || add(m, s, 1) ||
                              add(m, s - 1, -1)))
                    return -1;
                if (add_row(m, -HUGE_VAL, 0) || add(m, s, 1) ||
                    (t > f && add(m, s - 1, -1)) ||
                    add(m, col_z(m, i, t - 1), -1))
                    return -1;
            }
            /* c_t <= S_{t-p+1} */
            for (int64_t t = a; t < T; t++) {
                double rhs = 0;
                if (add_row(m, -HUGE_VAL, 0) || add(m, col_c(m, i, t), 1) ||
                    S_term(m, base, f, l, t - p + 1, -1, &rhs))
                    return -1;
                m->rowhi[m->nrows - 1] = rhs;
            }
            base += l - f + 1;
        }
    }
    /* capacity rows */
    for (int64_t t = tmin; t <= tmax; t++) {
        double rhs = N;
        if (add_row(m, -HUGE_VAL, N))
            return -1;
        for (int64_t i = 0; i < J->n; i++) {
            int64_t a = J->arrival[i], T = m->T[i];
            if (t < a || t > T)
                continue;
            if (add(m, col_P(m, i, t), 1) ||
                (t > a && add(m, col_P(m, i, t - 1), -1)))
                return -1;
            if (J->roff[i + 1] == J->roff[i] || t == a)
                continue;
            int64_t q0 = col_R(m, i);
            if (pre) {
                if (add(m, q0 + (t - a - 1), 1) ||
                    (t > a + 1 && add(m, q0 + (t - a - 2), -1)))
                    return -1;
                continue;
            }
            int64_t base = q0;
            for (int64_t k = J->roff[i]; k < J->roff[i + 1]; k++) {
                int64_t p = J->red[k], f = a + 1, l = T - p + 1;
                if (S_term(m, base, f, l, t, 1, &rhs) ||
                    S_term(m, base, f, l, t - p, -1, &rhs))
                    return -1;
                base += l - f + 1;
            }
        }
        m->rowhi[m->nrows - 1] = rhs;
    }
    return 0;
}

/* Set in the child by the caller's SIGUSR1: end the search, keeping
 * the best schedule found. */
static volatile sig_atomic_t child_stop;

static void on_usr1(int sig)
{
    (void)sig;
    child_stop = 1;
}

/* Branch and bound: the best node's bound (the least over the active
 * nodes, which never falls, so the largest seen stands; a node not solved
 * yet has none: -DBL_MAX), the stop and the deadline. */
static void callback(glp_tree *tree, void *info)
{
    model *m = info;
    shared *sh = m->sh;
    int best = glp_ios_best_node(tree);
    if (best) {
        double b = glp_ios_node_bound(tree, best);
        if (isfinite(b) && b > -1e300 &&
            (!sh->have_bound || b > sh->tree_bound)) {
            sh->tree_bound = b;
            sh->have_bound = 1;
        }
    }
    if (child_stop || hta_clock_now() > m->deadline)
        glp_ios_terminate(tree);
}

/* Builds and solves the program in the child process, into the shared
 * area; runs inside hta_glpk_guard. */
static hta_status solve(void *ctx, hta_diag *d)
{
    model *m = ctx;
    const hta_jobs *J = m->J;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, (int)m->ncols);
    glp_add_rows(P, (int)m->nrows);
    double cst = 0;
    for (int64_t i = 0; i < J->n; i++) {
        int64_t a = J->arrival[i], T = m->T[i], w = width(m, i);
        int64_t M = J->map[i], R = hta_jobs_reduce_work(J, i);
        int64_t N = m->o->machines;
        int64_t lb = hta_ft_job_lb(J, i, m->o->machines, m->o->preemptive);
        cst += (double)(1 + T - a);
        for (int64_t t = a; t <= T; t++) {
            int c = (int)col_P(m, i, t);
            glp_set_col_kind(P, c, GLP_IV);
            if (t == T)
                glp_set_col_bnds(P, c, GLP_FX, (double)M, (double)M);
            else
                glp_set_col_bnds(P, c, GLP_DB, 0, (double)M);
            if (t < T) {
                glp_set_col_kind(P, (int)col_z(m, i, t), GLP_BV);
                glp_set_col_kind(P, (int)col_c(m, i, t), GLP_BV);
                glp_set_obj_coef(P, (int)col_c(m, i, t), -1);
                /* nothing ends before it can: the map in ceil(M/N)
                 * slots, the job in its least flow time */
                if (t < a + (M + N - 1) / N - 1)
                    glp_set_col_bnds(P, (int)col_z(m, i, t), GLP_FX, 0, 0);
                if (t < a + lb - 1)
                    glp_set_col_bnds(P, (int)col_c(m, i, t), GLP_FX, 0, 0);
            }
        }
        if (R == 0)
            continue;
        int64_t q0 = col_R(m, i), end = m->col0[i] + job_cols(m, i);
        for (int64_t c = q0; c < end; c++) {
            if (m->o->preemptive) {
                glp_set_col_kind(P, (int)c, GLP_IV);
                double lo = c == q0 + w - 2 ? (double)R : 0;
                glp_set_col_bnds(P, (int)c, lo == R ? GLP_FX : GLP_DB, lo,
                                 (double)R);
            } else {
                glp_set_col_kind(P, (int)c, GLP_BV);
            }
        }
        if (!m->o->preemptive) { /* every task started by its last slot */
            int64_t base = q0;
            for (int64_t k = J->roff[i]; k < J->roff[i + 1]; k++) {
                int64_t l = T - J->red[k] + 1, f = a + 1;
                glp_set_col_bnds(P, (int)(base + l - f), GLP_FX, 1, 1);
                base += l - f + 1;
            }
        }
    }
    glp_set_obj_coef(P, 0, cst);
    for (size_t r = 0; r < m->nrows; r++) {
        double lo = m->rowlo[r], hi = m->rowhi[r];
        int type = isinf(lo) ? (isinf(hi) ? GLP_FR : GLP_UP) :
                   isinf(hi) ? GLP_LO :
                   lo == hi  ? GLP_FX :
                               GLP_DB;
        glp_set_row_bnds(P, (int)r + 1, type, isinf(lo) ? 0 : lo,
                         isinf(hi) ? 0 : hi);
    }
    glp_load_matrix(P, (int)m->nnz, m->ia, m->ja, m->ar);
    glp_iocp iocp;
    glp_init_iocp(&iocp);
    iocp.msg_lev = m->o->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
    iocp.presolve = GLP_ON;
    iocp.mip_gap = 0;
    iocp.cb_func = callback;
    iocp.cb_info = m;
    if (m->o->time_limit > 0)
        iocp.tm_lim = (int)fmin(m->o->time_limit * 1000.0, 2e9);
    int ret = glp_intopt(P, &iocp);
    int status = glp_mip_status(P);
    hta_status st = HTA_OK;
    shared *sh = m->sh;
    if (ret != 0 && ret != GLP_ETMLIM && ret != GLP_ESTOP &&
        ret != GLP_ENOPFS && ret != GLP_ENODFS) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "GLPK branch-and-bound failed (code %d)", ret);
    } else if (ret == GLP_ENOPFS || ret == GLP_ENODFS ||
               status == GLP_NOFEAS) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "internal error: the flow-time program has no "
                          "solution within the horizon of a feasible "
                          "schedule");
    } else {
        sh->cut = ret != 0;
        sh->optimal = ret == 0 && status == GLP_OPT;
        if (status == GLP_OPT || status == GLP_FEAS) {
            sh->found = 1;
            sh->obj = glp_mip_obj_val(P);
            for (int64_t c = 1; c <= m->ncols; c++)
                m->colval[c] = glp_mip_col_val(P, (int)c);
        }
    }
    glp_delete_prob(P);
    return st;
}

/* The child: solve() under the guard, its outcome into the shared area.
 * It ignores the terminal's signals (the caller decides when it ends),
 * ends its search on SIGUSR1 and dies with the caller (Linux:
 * PR_SET_PDEATHSIG). */
static void child(model *m)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGUSR1, on_usr1);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != m->parent)
        _exit(0); /* the caller ended before the line above */
    hta_diag cd;
    hta_diag_clear(&cd);
    hta_status st = hta_glpk_guard(solve, m, m->o->verbose, &cd);
    m->sh->st = (int)st;
    snprintf(m->sh->msg, sizeof m->sh->msg, "%s", cd.msg);
    m->sh->done = 1;
    glp_free_env();
    _exit(0);
}

/* Runs GLPK in a child process and waits for it, polling the stop and
 * the deadline every 10 ms.  Then the child is asked to end (SIGUSR1:
 * its branch and bound ends at the next node and hands over the best
 * schedule found, in the original columns) and killed when it has not
 * within half a second (GLPK's simplex calls back nowhere: a root LP may
 * take minutes, and GLPK's time limit overshoots, 30 s became 42 s).  So
 * a stop ends the search within a second, wherever GLPK is; a killed
 * child leaves its bound.  The child's memory is the caller's, shared
 * copy-on-write. */
static hta_status supervise(model *m, hta_diag *d)
{
    fflush(NULL); /* nothing buffered twice */
    m->parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return hta_diag_errno(d, NULL, "cannot start the exact program's "
                                       "process",
                              errno);
    if (pid == 0)
        child(m);
    int status = 0, killed = 0;
    double asked = 0; /* when the child was asked to end */
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        double now = hta_clock_now();
        if (asked == 0 && ((m->o->stop && *m->o->stop) || now > m->deadline)) {
            kill(pid, SIGUSR1);
            asked = now;
        }
        if (asked > 0 && !killed && now > asked + 0.5) {
            kill(pid, SIGKILL);
            killed = 1;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    shared *sh = m->sh;
    hta_ft_exact *out = m->out;
    if (sh->done) {
        if (sh->st != HTA_OK)
            return hta_diag_set(d, (hta_status)sh->st, NULL, 0, "%s",
                                sh->msg);
        out->cut = sh->cut;
        out->optimal = sh->optimal;
    } else if (killed) {
        out->cut = 1;
    } else {
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                            "the exact program's process ended without an "
                            "answer (%s %d)",
                            WIFSIGNALED(status) ? "signal" : "exit code",
                            WIFSIGNALED(status) ? WTERMSIG(status) :
                                                  WEXITSTATUS(status));
    }
    out->found = sh->found;
    return HTA_OK;
}

/* The schedule from the column values, in slot order. */
static int by_slot(const void *a, const void *b)
{
    const hta_ft_entry *x = a, *y = b;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind - y->kind;
    return x->task - y->task;
}

static int push(hta_ft_sched *s, int64_t t, int64_t i, int kind, int64_t k,
                int64_t u)
{
    if (u <= 0)
        return 0;
    if (!HTA_RESERVE(s->e, s->cap, s->n + 1))
        return -1;
    s->e[s->n++] = (hta_ft_entry){t, i, kind, (int32_t)k, u, 1};
    return 0;
}

static int64_t val(const model *m, int64_t c)
{
    return (int64_t)llround(m->colval[c]);
}

static int read_schedule(model *m)
{
    const hta_jobs *J = m->J;
    hta_ft_sched *s = &m->out->sched;
    for (int64_t i = 0; i < J->n; i++) {
        int64_t a = J->arrival[i], T = m->T[i], prev = 0;
        for (int64_t t = a; t <= T; t++) {
            int64_t v = val(m, col_P(m, i, t));
            if (push(s, t, i, 0, -1, v - prev))
                return -1;
            prev = v;
        }
        if (J->roff[i + 1] == J->roff[i])
            continue;
        int64_t q0 = col_R(m, i);
        if (m->o->preemptive) {
            prev = 0;
            for (int64_t t = a + 1; t <= T; t++) {
                int64_t v = val(m, q0 + (t - a - 1));
                if (push(s, t, i, 1, -1, v - prev))
                    return -1;
                prev = v;
            }
            continue;
        }
        int64_t base = q0;
        for (int64_t k = J->roff[i]; k < J->roff[i + 1]; k++) {
            int64_t p = J->red[k], f = a + 1, l = T - p + 1, start = l;
            for (int64_t t = f; t <= l; t++)
                if (val(m, base + (t - f)) == 1) {
                    start = t;
                    break;
                }
            for (int64_t t = start; t < start + p; t++)
                if (push(s, t, i, 1, k - J->roff[i], 1))
                    return -1;
            base += l - f + 1;
        }
    }
    if (s->n)
        qsort(s->e, s->n, sizeof *s->e, by_slot);
    return 0;
}

hta_status hta_ft_exact_solve(const hta_jobs *J, const hta_ft_exact_opts *o,
                              hta_ft_exact *out, hta_diag *d)
{
    memset(out, 0, sizeof *out);
    out->value = o->upper;
    double t0 = hta_clock_now();
    int64_t size = hta_ft_exact_size(J, o);
    if (size > o->max_vars)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "the program would have %lld columns, above "
                            "the limit %lld",
                            size == INT64_MAX ? -1LL : (long long)size,
                            (long long)o->max_vars);
    model m = {0};
    m.J = J;
    m.o = o;
    m.out = out;
    m.d = d;
    m.T = malloc((size_t)J->n * sizeof *m.T);
    m.col0 = malloc((size_t)J->n * sizeof *m.col0);
    hta_status st = HTA_OK;
    if (!m.T || !m.col0)
        goto oom;
    int64_t sum = lb_sum(J, o);
    m.ncols = 0;
    for (int64_t i = 0; i < J->n; i++) {
        m.T[i] = horizon(J, o, i, sum);
        m.col0[i] = m.ncols + 1;
        m.ncols += job_cols(&m, i);
    }
    if (m.ncols >= INT32_MAX / 2)
        goto oom;
    if (build(&m) != 0 || m.nnz >= (size_t)INT32_MAX)
        goto oom;
    out->vars = m.ncols;
    out->rows = (int64_t)m.nrows;
    if (o->stop && *o->stop) { /* stopped before it began */
        out->cut = 1;
        goto bound;
    }
    /* the shared area: the child's outcome, then the column values */
    size_t head = (sizeof(shared) + 63) / 64 * 64;
    m.maplen = head + ((size_t)m.ncols + 1) * sizeof(double);
    void *area = mmap(NULL, m.maplen, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED)
        goto oom;
    m.sh = area;
    m.colval = (double *)((char *)area + head);
    m.started = t0;
    m.deadline = o->time_limit > 0 ? t0 + o->time_limit : INFINITY;
    st = supervise(&m, d);
    if (st == HTA_OK && out->found) {
        if (read_schedule(&m) != 0)
            goto oom;
        int64_t *fin = malloc((size_t)J->n * sizeof *fin), total = 0;
        if (!fin)
            goto oom;
        st = hta_ft_check(J, o->machines, o->preemptive, 0, &out->sched,
                          fin, &total, d);
        free(fin);
        if (st != HTA_OK) {
            char msg[sizeof d->msg];
            snprintf(msg, sizeof msg, "%s", d->msg);
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                              "internal error: GLPK's schedule fails the "
                              "check: %.300s", msg);
        } else if (total < out->value || !out->optimal) {
            out->value = total < out->value ? total : out->value;
        }
        if (st == HTA_OK && out->optimal) {
            if (llround(m.sh->obj) != total)
                st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                  "internal error: the program's optimum "
                                  "%.0f is not its schedule's %lld",
                                  m.sh->obj, (long long)total);
            out->value = total;
        }
    }
bound:
    if (st == HTA_OK) {
        /* a valid bound always: the jobs' own least flow times, raised by
         * the tree's bound where GLPK gave one, never above the best */
        int64_t b = lb_sum(J, o);
        if (m.sh && m.sh->have_bound &&
            m.sh->tree_bound < (double)INT64_MAX / 2) {
            double t = ceil(m.sh->tree_bound - 1e-6);
            if (t > (double)b)
                b = (int64_t)t;
        }
        out->bound = out->optimal || b > out->value ? out->value : b;
    }
    goto done;
oom:
    st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
done:
    out->seconds = hta_clock_now() - t0;
    free(m.T);
    free(m.col0);
    free(m.ia);
    free(m.ja);
    free(m.ar);
    free(m.rowlo);
    free(m.rowhi);
    if (m.sh)
        munmap(m.sh, m.maplen);
    if (st != HTA_OK)
        hta_ft_sched_free(&out->sched);
    return st;
}
