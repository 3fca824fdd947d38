/* Gap closing by residue repair (close.h). */
#include "hta/close.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/check.h"
#include "hta/maxcover.h"
#include "hta/num.h"

/* Path sources in par[]: a server giving one of its covered tasks away at
 * no loss, or one taking an uncovered task of its own; -2 unseen. */
#define SRC_DONOR (-1)
#define UNSEEN (-2)
#define SRC_FREE (-3)

/* Rounds: normal; cross (paths between donors too) when a normal one
 * gained nothing.  Measured and dropped: cross paths in every round
 * (they spend two donors on one gain: z1-10^5 seed 3 ended 24 short),
 * rounds ending at servers that gain by two tasks only, and a server
 * giving two or three tasks at once for a loss of one or two (neither
 * changed an answer on make bench-close's instances or the tests), and
 * GLPK on regions of 48 servers around the wasteful ones (a large
 * neighbourhood search: it closed Zipf s = 1.5, 10^4 tasks, seed 1, which
 * GLPK's whole ILP also closes in 0.7 s, but no 10^5 instance within
 * 60 s, and it turned the quick "no" on affine costs, after which the
 * bisection improves the best, into time-limit runs). */
enum { ROUND_NORMAL, ROUND_CROSS };

typedef struct cl {
    const hta_instance *inst;
    double L, c;
    int64_t U;         /* the most local tasks a server can run */
    int32_t *cover;    /* per task: server, -1 uncovered */
    int32_t *x;        /* per server: local tasks */
    int32_t *nfree;    /* per server: uncovered tasks local to it */
    int64_t *free_cur; /* per server: cursor over its tasks; the ones
                          before it are covered (moves never uncover) */
    int32_t *par;      /* per server: BFS parent, or a source mark */
    int32_t *ptask;    /* per server: the task its parent gives it */
    int32_t *xpar;     /* per donor: a server giving it a task, or -2 */
    int32_t *xtask;    /* per donor: that task */
    int32_t *queue;
} cl;

/* Remote slots beside x local tasks: the most j <= m with
 * hta_load(x, j) <= L, -1 when x alone exceeds L.  The same arithmetic as
 * the evaluator's, so a yes is a yes there too.  hta_room_remote
 * (assign.h) computes the same; this copy stays because calling it cost
 * 5% of the search's time (HDFS Zipf s = 1, affine, 10^5 tasks, 8 runs
 * interleaved: 0.19-0.20 s against 0.18-0.19 s). */
static int64_t slots(const cl *k, int64_t x)
{
    const hta_instance *inst = k->inst;
    if (hta_load(inst, x, 0, k->c) > k->L)
        return -1;
    double q = floor((k->L - inst->w_loc * (double)x) / k->c);
    int64_t j = q < 0 ? 0 : q > (double)inst->m ? inst->m : (int64_t)q;
    while (j > 0 && hta_load(inst, x, j, k->c) > k->L)
        j--;
    while (j < inst->m && hta_load(inst, x, j + 1, k->c) <= k->L)
        j++;
    return j;
}

static int64_t g(const cl *k, int64_t x) { return x + slots(k, x); }

/* What taking one more local task gains, and giving one up loses. */
static int gains(const cl *k, int32_t s)
{
    return k->x[s] + 1 <= k->U && g(k, k->x[s] + 1) > g(k, k->x[s]);
}

static int loses_nothing(const cl *k, int32_t s)
{
    return k->x[s] >= 1 && g(k, k->x[s] - 1) >= g(k, k->x[s]);
}

/* An uncovered task local to s (nfree[s] > 0). */
static int32_t free_task(cl *k, int32_t s)
{
    const hta_instance *inst = k->inst;
    while (k->cover[inst->srv_task[k->free_cur[s]]] != -1)
        k->free_cur[s]++;
    return inst->srv_task[k->free_cur[s]];
}

static void cover_free(cl *k, int32_t t, int32_t s)
{
    const hta_instance *inst = k->inst;
    k->cover[t] = s;
    for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
        k->nfree[inst->task_srv[i]]--;
}

/* The path ending at z whose last step is y0 giving t0 to z (y0 < 0: z
 * is a free source taking its own task), then up the search forest, if
 * still valid: every task still covered by the server that gives it, the
 * source still a source and not z, z still gaining.  Then taken;
 * *gained receives what sum g gained (>= 1).  Only the ends change
 * counts: a free source takes its task and gives one on. */
static int take_path(cl *k, int32_t z, int32_t y0, int32_t t0,
                     int64_t *gained)
{
    if (!gains(k, z))
        return 0;
    if (y0 >= 0 && k->cover[t0] != y0)
        return 0;
    int32_t y = y0 >= 0 ? y0 : z;
    while (k->par[y] >= 0) {
        if (k->cover[k->ptask[y]] != k->par[y])
            return 0;
        y = k->par[y];
    }
    int donor = k->par[y] == SRC_DONOR;
    if ((y == z && y0 >= 0) ||
        (donor ? !loses_nothing(k, y) : k->nfree[y] == 0))
        return 0;
    int64_t before = g(k, k->x[z]) + (donor ? g(k, k->x[y]) : 0);
    if (donor)
        k->x[y]--;
    else
        cover_free(k, free_task(k, y), y);
    if (y0 >= 0) {
        k->cover[t0] = z;
        for (int32_t w = y0; k->par[w] >= 0; w = k->par[w])
            k->cover[k->ptask[w]] = w;
    }
    k->x[z]++;
    *gained += g(k, k->x[z]) + (donor ? g(k, k->x[y]) : 0) - before;
    return 1;
}

/* One round: a breadth-first search from every source over "y gives a
 * task it covers to another server holding its block", then every path
 * of the forest to a gaining server still valid, nearest first.  A
 * donor that also gains is a source and a target: the first step into it
 * is kept beside the forest (xpar, xtask), and a cross round (when a
 * normal one gained nothing) also takes these paths between donors, last
 * (they spend two donors on one gain).  Returns what sum g gained;
 * *paths counts the paths. */
static int64_t round_once(cl *k, int mode, int64_t *paths)
{
    const hta_instance *inst = k->inst;
    int32_t n = inst->n;
    int64_t head = 0, tail = 0, gained = 0;
    for (int32_t s = 0; s < n; s++) {
        k->par[s] = k->nfree[s] > 0      ? SRC_FREE :
                    loses_nothing(k, s) ? SRC_DONOR :
                                          UNSEEN;
        k->xpar[s] = UNSEEN;
        if (k->par[s] != UNSEEN)
            k->queue[tail++] = s;
    }
    while (head < tail) {
        int32_t y = k->queue[head++];
        for (int64_t j = inst->srv_off[y]; j < inst->srv_off[y + 1]; j++) {
            int32_t t = inst->srv_task[j];
            if (k->cover[t] != y)
                continue;
            for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1];
                 i++) {
                int32_t z = inst->task_srv[i];
                if (k->par[z] == UNSEEN) {
                    k->par[z] = y;
                    k->ptask[z] = t;
                    k->queue[tail++] = z;
                } else if (k->par[z] == SRC_DONOR && k->xpar[z] == UNSEEN &&
                           z != y) {
                    k->xpar[z] = y;
                    k->xtask[z] = t;
                }
            }
        }
    }
    /* the queue is in BFS order: sources first, then by distance */
    for (int64_t q = 0; q < tail; q++) {
        int32_t z = k->queue[q];
        if (k->par[z] >= 0)
            *paths += take_path(k, z, k->par[z], k->ptask[z], &gained);
        else if (k->par[z] == SRC_FREE)
            *paths += take_path(k, z, -1, -1, &gained);
    }
    for (int64_t q = 0; q < tail && mode == ROUND_CROSS; q++) {
        int32_t z = k->queue[q];
        if (k->par[z] == SRC_DONOR && k->xpar[z] >= 0)
            *paths += take_path(k, z, k->xpar[z], k->xtask[z], &gained);
    }
    return gained;
}

/* The assignment: covered tasks where they are, the others into the
 * remote slots, server by server. */
static void build(const cl *k, int32_t *a)
{
    const hta_instance *inst = k->inst;
    int32_t s = 0;
    int64_t room = inst->n > 0 ? slots(k, k->x[0]) : 0;
    for (int32_t t = 0; t < inst->m; t++) {
        if (k->cover[t] >= 0) {
            a[t] = k->cover[t];
            continue;
        }
        while (room <= 0 && s + 1 < inst->n)
            room = slots(k, k->x[++s]);
        a[t] = s;
        room--;
    }
}

static void cl_free(cl *k)
{
    free(k->cover);
    free(k->x);
    free(k->nfree);
    free(k->free_cur);
    free(k->par);
    free(k->ptask);
    free(k->xpar);
    free(k->xtask);
    free(k->queue);
}

hta_status hta_close_decide(const hta_instance *inst, double L,
                            const hta_close_opts *opts, int32_t *assign,
                            hta_close_result *res, hta_diag *d)
{
    memset(res, 0, sizeof *res);
    res->need = inst->m;
    res->makespan = NAN;
    if (!(L >= 0) || !isfinite(L))
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "expected a finite makespan L >= 0, found %g", L);
    double t0 = hta_clock_now();
    int32_t m = inst->m, n = inst->n;
    cl k;
    memset(&k, 0, sizeof k);
    k.inst = inst;
    k.L = L;
    double u = floor(L / inst->w_loc);
    k.U = u > (double)m ? m : (int64_t)u;
    while (k.U > 0 && hta_load(inst, k.U, 0, 1.0) > L)
        k.U--; /* the division's rounding, either way */
    while (k.U < m && hta_load(inst, k.U + 1, 0, 1.0) <= L)
        k.U++;
    k.cover = malloc((size_t)m * sizeof *k.cover);
    k.x = malloc((size_t)n * sizeof *k.x);
    k.nfree = malloc((size_t)n * sizeof *k.nfree);
    k.free_cur = malloc((size_t)n * sizeof *k.free_cur);
    k.par = malloc((size_t)n * sizeof *k.par);
    k.ptask = malloc((size_t)n * sizeof *k.ptask);
    k.xpar = malloc((size_t)n * sizeof *k.xpar);
    k.xtask = malloc((size_t)n * sizeof *k.xtask);
    k.queue = malloc((size_t)n * sizeof *k.queue);
    hta_status st = HTA_OK;
    if (!k.cover || !k.x || !k.nfree || !k.free_cur || !k.par || !k.ptask ||
        !k.xpar || !k.xtask || !k.queue) {
        cl_free(&k);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    /* the start: a maximum cover with every server at most U (none when
     * U = 0: the state of a new max-cover), its loads and free counts */
    hta_maxcover *mc = NULL;
    if ((st = hta_maxcover_new(inst, HTA_MAXFLOW_INCREMENTAL, &mc, d)) !=
            HTA_OK ||
        (k.U > 0 && (st = hta_maxcover_raise(mc, k.U, d)) != HTA_OK)) {
        hta_maxcover_free(mc);
        cl_free(&k);
        return st;
    }
    memcpy(k.cover, hta_maxcover_cover(mc), (size_t)m * sizeof *k.cover);
    memcpy(k.x, hta_maxcover_loads(mc), (size_t)n * sizeof *k.x);
    memcpy(k.nfree, hta_maxcover_free_counts(mc), (size_t)n * sizeof *k.nfree);
    int64_t covered = hta_maxcover_size(mc);
    hta_maxcover_free(mc);
    for (int32_t s = 0; s < n; s++)
        k.free_cur[s] = inst->srv_off[s];
    /* no move adds a remote task: w_rem(r0) bounds the cost throughout */
    k.c = hta_wrem_at(&inst->wrem, m - covered);
    int64_t sum = 0;
    for (int32_t s = 0; s < n; s++)
        sum += g(&k, k.x[s]);
    res->start = sum;
    int mode = ROUND_NORMAL;
    while (sum < m) {
        if ((opts->stop && *opts->stop) ||
            hta_clock_now() - t0 > opts->time_limit) {
            res->stopped = 1;
            break;
        }
        int64_t moved = round_once(&k, mode, &res->moves);
        res->rounds++;
        sum += moved;
        if (opts->progress) {
            hta_progress p = {"close", hta_clock_now() - t0, (double)sum,
                              (double)m, res->rounds};
            opts->progress(opts->progress_ctx, &p);
        }
        if (moved > 0)
            mode = ROUND_NORMAL;
        else if (mode == ROUND_NORMAL)
            mode = ROUND_CROSS;
        else
            break; /* stuck: no path raises sum g */
    }
#ifdef HTA_CHECKED
    int64_t check = 0;
    for (int32_t s = 0; s < n; s++)
        check += g(&k, k.x[s]);
    HTA_CHECK(check == sum);
#endif
    res->end = sum;
    if (sum >= m) {
        build(&k, assign);
        hta_eval ev;
        if ((st = hta_eval_run(inst, assign, &ev, d)) == HTA_OK) {
            res->makespan = ev.makespan;
            res->found = ev.makespan <= L;
            hta_eval_free(&ev);
        }
    }
    cl_free(&k);
    return st;
}
