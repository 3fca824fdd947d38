/* Gap closing by residue repair (close.h). */
#include "exact/close.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/num.h"
#include "core/buf.h"
#include "core/check.h"
#include "exact/envelope.h"

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
    int64_t *coff;     /* per server: its covered tasks start at
                          clist[coff[s]], room for min(U, deg_s) */
    int32_t *clist;    /* the covered tasks, server by server */
    int32_t *clen;     /* per server: how many (x[s], kept apart) */
    int32_t *cpos;     /* per covered task: its place in its server's list */
    int32_t *crep;     /* beside each list entry, its task's replica
                          servers (REPS, -1 padded), or NULL when a task
                          has more: the searches then read task_srv */
    int32_t *x;        /* per server: local tasks */
    int32_t *nfree;    /* per server: uncovered tasks local to it */
    int64_t *free_cur; /* per server: cursor over its tasks; the ones
                          before it are covered (moves never uncover) */
    int32_t *par;      /* per server: BFS parent, or a source mark */
    int32_t *ptask;    /* per server: the task its parent gives it */
    int32_t *xpar;     /* per donor: a server giving it a task, or -2 */
    int32_t *xtask;    /* per donor: that task */
    int32_t *queue;
    int32_t *hits;     /* a shift's search: the servers it found gaining */
    size_t nlog, nto;  /* the journal of the shift under way */
    int64_t work;      /* servers expanded and tasks read by shifts */
    int64_t budget;    /* the most work shifts do in one decision */
    int32_t *dead;     /* per server: the shifts' epoch in which a search
                          from it reached no server that gains */
    int32_t epoch;
    int64_t *dead_room; /* the room it reached then, at most */
    int32_t *log_task; /* a shift's tasks and the servers they left */
    int32_t *log_from;
    int32_t *log_to;   /* a shift's receivers */
    size_t cap_task, cap_from, cap_to;
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

/* Replica copies beside the covered lists: the searches read a task's
 * servers where they read the task, not at task_srv[task_off[t]] (a
 * cache miss per task; on HDFS Zipf s = 1, affine, 10^6 tasks, 70% of
 * the search's time stalled on that load). */
#define REPS 4

static void copy_reps(const cl *k, int32_t t, int32_t *dst)
{
    const hta_instance *inst = k->inst;
    int64_t i = inst->task_off[t], e = inst->task_off[t + 1], r = 0;
    for (; i < e; i++)
        dst[r++] = inst->task_srv[i];
    for (; r < REPS; r++)
        dst[r] = -1;
}

/* The servers of the task at entry j of y's covered list: *cnt of them
 * at the pointer, -1 ending them early. */
static const int32_t *reps(const cl *k, int32_t y, int32_t j, int64_t *cnt)
{
    const hta_instance *inst = k->inst;
    int64_t at = k->coff[y] + j;
    if (k->crep) {
        *cnt = REPS;
        return k->crep + at * REPS;
    }
    int32_t t = k->clist[at];
    *cnt = inst->task_off[t + 1] - inst->task_off[t];
    return inst->task_srv + inst->task_off[t];
}

/* Task t now covered by s (-1: uncovered): its server's list of covered
 * tasks follows (the last one fills its place), so a search reads only
 * the tasks a server covers, not all it holds (a hot server of HDFS Zipf
 * s = 1 at 10^6 tasks holds 3 * 10^5 and covers at most U). */
static void set_cover(cl *k, int32_t t, int32_t s)
{
    int32_t y = k->cover[t];
    if (y >= 0) {
        int64_t from = k->coff[y] + --k->clen[y], to = k->coff[y] + k->cpos[t];
        int32_t last = k->clist[from];
        k->clist[to] = last;
        k->cpos[last] = k->cpos[t];
        if (k->crep)
            memcpy(k->crep + to * REPS, k->crep + from * REPS,
                   REPS * sizeof *k->crep);
    }
    k->cover[t] = s;
    if (s >= 0) {
        k->cpos[t] = k->clen[s];
        int64_t at = k->coff[s] + k->clen[s]++;
        k->clist[at] = t;
        if (k->crep)
            copy_reps(k, t, k->crep + at * REPS);
    }
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
    set_cover(k, t, s);
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
        set_cover(k, t0, z);
        for (int32_t w = y0; k->par[w] >= 0; w = k->par[w])
            set_cover(k, k->ptask[w], w);
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
        for (int32_t j = 0; j < k->clen[y]; j++) {
            int32_t t = k->clist[k->coff[y] + j];
            int64_t cnt;
            const int32_t *rs = reps(k, y, j, &cnt);
            for (int64_t i = 0; i < cnt && rs[i] >= 0; i++) {
                int32_t z = rs[i];
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

/* ---- shifts: a server's whole excess, one task at a time ----------------
 * When no path raises sum g, most servers sit at a step of j (their next
 * local task costs a remote slot) and the few others are a few tasks past
 * one: giving those e tasks back regains the slot.  A unit path from such
 * a server (e >= 2) to a server that gains leaves sum g unchanged (-1,
 * +1); the e-th raises it by one.  A shift takes e such paths: a
 * breadth-first search from the giver until the servers that gain within
 * reach have room for the rest, then as many paths of its forest as are
 * still valid, again until e are taken; it is undone when a search comes
 * up short.  Measured on HDFS
 * Zipf s = 1, affine, 10^5 tasks at L = 158 (seed 1): the rounds end with
 * 9 servers that lose nothing by giving one, 183 past a step by 2 or more
 * and 808 at a step. */

/* The tasks s would give before giving one costs nothing more: the
 * least e >= 1 with g(x - e) >= g(x) - (e - 1); 0 when there is none. */
static int64_t excess(const cl *k, int32_t s)
{
    int64_t x = k->x[s], gx = g(k, x);
    for (int64_t e = 1; e <= x; e++)
        if (g(k, x - e) >= gx - (e - 1))
            return e;
    return 0;
}

/* The local tasks s can still take, each raising g: 0 unless it gains. */
static int64_t room(const cl *k, int32_t s)
{
    int64_t r = 0;
    while (k->x[s] + r + 1 <= k->U &&
           g(k, k->x[s] + r + 1) > g(k, k->x[s] + r))
        r++;
    return r;
}

/* A breadth-first search from a over "y gives a task it covers to
 * another server holding its block", until the servers other than a that
 * gain have room for need tasks in all.  Those servers go to hits[0..*nhits)
 * in the order reached; returns 1 when they have the room, else 0 (the
 * search reached all it could); *got receives the room found.  The
 * servers reached stay in queue[0..*seen) with par[] and ptask[] set, the
 * forest the paths follow (reset by the next call). */
static int search_from(cl *k, int32_t a, int64_t need, int64_t *got,
                       int64_t *nhits, int64_t *seen)
{
    for (int64_t q = 0; q < *seen; q++)
        k->par[k->queue[q]] = UNSEEN;
    int64_t head = 0, tail = 0, have = 0, h = 0;
    k->par[a] = SRC_DONOR;
    k->queue[tail++] = a;
    while (head < tail && have < need) {
        int32_t y = k->queue[head++];
        k->work += k->clen[y] + 1;
        for (int32_t j = 0; j < k->clen[y] && have < need; j++) {
            int32_t t = k->clist[k->coff[y] + j];
            int64_t cnt;
            const int32_t *rs = reps(k, y, j, &cnt);
            for (int64_t i = 0; i < cnt && rs[i] >= 0; i++) {
                int32_t z = rs[i];
                if (k->par[z] != UNSEEN)
                    continue;
                k->par[z] = y;
                k->ptask[z] = t;
                k->queue[tail++] = z;
                int64_t r = room(k, z);
                if (r > 0) {
                    have += r;
                    k->hits[h++] = z;
                    if (have >= need)
                        break;
                }
            }
        }
    }
    *seen = tail;
    *got = have;
    *nhits = h;
    return have >= need;
}

/* The forest's path from a to z still valid: every task still covered by
 * the server that gives it.  Its length, or -1. */
static int64_t path_len(const cl *k, int32_t a, int32_t z)
{
    int64_t len = 0;
    for (int32_t w = z; w != a; w = k->par[w], len++)
        if (k->cover[k->ptask[w]] != k->par[w])
            return -1;
    return len;
}

/* The shifts' work in one decision, in breadth-first searches over the
 * whole cover (servers expanded plus covered tasks read): HDFS Zipf
 * s = 1, affine, 10^6 tasks, seed 1 (fsy 356.16, the envelope's bound
 * 352.96): 16 gives 354 (17 s before the replica copies), 64 gives
 * 353.16 (32 s then, 12 s with them), with no limit the first decision
 * alone ran past 120 s; at 10^5 tasks 16 and 64 give the same answers
 * as no limit. */
#define SHIFT_BUDGET 64

/* Undoes the journal of a's shift: covers back, loads back. */
static void undo(cl *k, int32_t a)
{
    while (k->nlog > 0) {
        k->nlog--;
        set_cover(k, k->log_task[k->nlog], k->log_from[k->nlog]);
    }
    k->x[a] += (int32_t)k->nto;
    while (k->nto > 0)
        k->x[k->log_to[--k->nto]]--;
}

/* Takes the forest's paths from a to the servers of hl[0..nh) still
 * valid and still gaining, in order, until need are taken, journaled;
 * *gained += what sum g gained.  Returns the number taken, -1 out of
 * memory. */
static int64_t take_hits(cl *k, int32_t a, const int32_t *hl, int64_t nh,
                         int64_t need, int64_t *gained)
{
    int64_t took = 0;
    for (int64_t h = 0; h < nh && took < need; h++) {
        int32_t z = hl[h];
        int64_t len = gains(k, z) ? path_len(k, a, z) : -1;
        if (len < 0)
            continue;
        if (!HTA_RESERVE(k->log_to, k->cap_to, k->nto + 1) ||
            !HTA_RESERVE(k->log_task, k->cap_task, k->nlog + (size_t)len) ||
            !HTA_RESERVE(k->log_from, k->cap_from, k->nlog + (size_t)len))
            return -1;
        k->log_to[k->nto++] = z;
        for (int32_t w = z; w != a; w = k->par[w]) {
            int32_t t = k->ptask[w];
            k->log_task[k->nlog] = t;
            k->log_from[k->nlog++] = k->cover[t];
            set_cover(k, t, w);
        }
        *gained += g(k, k->x[a] - 1) - g(k, k->x[a]) + g(k, k->x[z] + 1) -
                   g(k, k->x[z]);
        k->x[a]--;
        k->x[z]++;
        took++;
    }
    return took;
}

/* One shift of a's excess e: e unit paths to servers that gain, as many
 * per search as its forest holds valid (disjoint) paths, until e are
 * taken.  Returns what sum g gained (>= 1) when all e were, else undoes
 * them and returns 0; -1 out of memory (then undone too). */
static int64_t shift(cl *k, int32_t a, int64_t e, int64_t *seen)
{
    int64_t gained = 0, need = e, got, nhits;
    int ok = 1;
    k->nlog = k->nto = 0;
    while (need > 0 && ok > 0) {
        if (!search_from(k, a, need, &got, &nhits, seen)) {
            if (k->nto == 0) {
                /* too little room within reach of a, and of every server
                 * it reached: what they reach, a reaches (a included) */
                got += room(k, a);
                for (int64_t q = 0; q < *seen; q++) {
                    k->dead[k->queue[q]] = k->epoch;
                    k->dead_room[k->queue[q]] = got;
                }
            }
            ok = 0;
            break;
        }
        int64_t took = take_hits(k, a, k->hits, nhits, need, &gained);
        HTA_CHECK(took != 0); /* the first hit's path is valid */
        if (took <= 0)
            ok = took < 0 ? -1 : 0;
        else
            need -= took;
    }
    if (ok > 0 && gained > 0)
        return gained;
    undo(k, a);
    return ok < 0 ? -1 : 0;
}

/* Every server past a step by 2 or more tries one shift, the smallest
 * excess first; returns what sum g gained, -1 out of memory. */
static int64_t shifts(cl *k, const hta_close_opts *opts, double t0,
                      int64_t *paths)
{
    const hta_instance *inst = k->inst;
    int32_t n = inst->n;
    int64_t gained = 0, seen = 0;
    /* a server marked failing stays so for this call, though a shift may
     * open its way (the next call, after the rounds, tries it again):
     * retrying every failed one after each shift made this quadratic
     * (HDFS Zipf s = 1, affine, 10^6 tasks: +1471 in 20 s) */
    k->epoch++;
    for (int32_t s = 0; s < n; s++)
        k->par[s] = UNSEEN;
    /* the smallest excess first: one scan per value (e is at most the
     * period of j, about c / w_loc) */
    int64_t most = 0;
    for (int32_t s = 0; s < n; s++) {
        int64_t e = excess(k, s);
        k->xpar[s] = (int32_t)e; /* xpar: free here (rounds reset it) */
        most = e > most ? e : most;
    }
    for (int64_t want = 2; want <= most; want++)
        for (int32_t s = 0; s < n; s++) {
            if (k->xpar[s] != want ||
                (k->dead[s] == k->epoch && k->dead_room[s] < want) ||
                excess(k, s) != want)
                continue;
            if ((opts->stop && *opts->stop) ||
                hta_clock_now() - t0 > opts->time_limit)
                return gained; /* the caller sees the stop */
            if (k->work > k->budget)
                return gained;
            int64_t d = shift(k, s, want, &seen);
            if (d < 0)
                return -1;
            gained += d;
            *paths += d > 0 ? want : 0;
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
    free(k->coff);
    free(k->clist);
    free(k->clen);
    free(k->cpos);
    free(k->crep);
    free(k->x);
    free(k->nfree);
    free(k->free_cur);
    free(k->par);
    free(k->ptask);
    free(k->xpar);
    free(k->xtask);
    free(k->queue);
    free(k->hits);
    free(k->dead);
    free(k->dead_room);
    free(k->log_task);
    free(k->log_from);
    free(k->log_to);
}

/* The search's arrays, for n servers and m tasks: 0 when out of memory
 * (k freed by the caller). */
static int cl_alloc(cl *k, int32_t m, int32_t n)
{
    k->cover = malloc((size_t)m * sizeof *k->cover);
    k->x = malloc((size_t)n * sizeof *k->x);
    k->nfree = malloc((size_t)n * sizeof *k->nfree);
    k->free_cur = malloc((size_t)n * sizeof *k->free_cur);
    k->par = malloc((size_t)n * sizeof *k->par);
    k->ptask = malloc((size_t)n * sizeof *k->ptask);
    k->xpar = malloc((size_t)n * sizeof *k->xpar);
    k->xtask = malloc((size_t)n * sizeof *k->xtask);
    k->queue = malloc((size_t)n * sizeof *k->queue);
    k->hits = malloc((size_t)n * sizeof *k->hits + 1);
    k->coff = malloc(((size_t)n + 1) * sizeof *k->coff);
    k->clen = calloc((size_t)n + 1, sizeof *k->clen);
    k->cpos = malloc((size_t)m * sizeof *k->cpos + 1);
    k->dead = calloc((size_t)n + 1, sizeof *k->dead);
    k->dead_room = calloc((size_t)n + 1, sizeof *k->dead_room);
    return k->cover && k->x && k->nfree && k->free_cur && k->par &&
           k->ptask && k->xpar && k->xtask && k->queue && k->dead &&
           k->dead_room && k->coff && k->clen && k->cpos && k->hits;
}

/* The cover lists from the start cover (k->cover), the loads and free
 * counts, the remote cost, and sum g into *sum. */
static hta_status cl_start(cl *k, int64_t *sum, hta_diag *d)
{
    const hta_instance *inst = k->inst;
    int32_t m = inst->m, n = inst->n;
    int64_t covered = 0;
    for (int32_t s = 0; s < n; s++) {
        k->x[s] = 0;
        k->nfree[s] = (int32_t)(inst->srv_off[s + 1] - inst->srv_off[s]);
        k->free_cur[s] = inst->srv_off[s];
    }
    k->coff[0] = 0;
    for (int32_t s = 0; s < n; s++) {
        int64_t deg = inst->srv_off[s + 1] - inst->srv_off[s];
        k->coff[s + 1] = k->coff[s] + (deg < k->U ? deg : k->U);
    }
    k->clist = malloc((size_t)k->coff[n] * sizeof *k->clist + 1);
    int64_t most = 0;
    for (int32_t t = 0; t < m; t++) {
        int64_t r = inst->task_off[t + 1] - inst->task_off[t];
        most = r > most ? r : most;
    }
    if (most <= REPS)
        k->crep = malloc((size_t)k->coff[n] * REPS * sizeof *k->crep + 1);
    if (!k->clist || (most <= REPS && !k->crep)) {
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    for (int32_t t = 0; t < m; t++) {
        int32_t y = k->cover[t];
        if (y < 0)
            continue;
        if (k->clen[y] >= k->coff[y + 1] - k->coff[y]) { /* not at U */
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "close: a start above the local cap");
        }
        covered++;
        k->x[y]++;
        k->cover[t] = -1;
        set_cover(k, t, y);
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            k->nfree[inst->task_srv[i]]--;
    }
    /* no move adds a remote task: w_rem(r0) bounds the cost throughout */
    k->c = hta_wrem_at(&inst->wrem, m - covered);
    *sum = 0;
    for (int32_t s = 0; s < n; s++)
        *sum += g(k, k->x[s]);
    k->budget = SHIFT_BUDGET * (covered + n);
    return HTA_OK;
}

/* Rounds of paths, then of crossing paths, then shifts, until sum g
 * reaches m, nothing moves, or the time or a stop ends it. */
static hta_status cl_search(cl *k, const hta_close_opts *opts, double t0,
                            int64_t *sump, hta_close_result *res,
                            hta_diag *d)
{
    int32_t m = k->inst->m;
    int64_t sum = *sump;
    hta_status st = HTA_OK;
    int mode = ROUND_NORMAL;
    while (sum < m) {
        if ((opts->stop && *opts->stop) ||
            hta_clock_now() - t0 > opts->time_limit) {
            res->stopped = 1;
            break;
        }
        int64_t moved = round_once(k, mode, &res->moves);
        res->rounds++;
        sum += moved;
        if (opts->progress) {
            hta_progress p = {"close", hta_clock_now() - t0, (double)sum,
                              (double)m, res->rounds};
            opts->progress(opts->progress_ctx, &p);
        }
        if (moved > 0) {
            mode = ROUND_NORMAL;
            continue;
        }
        if (mode == ROUND_NORMAL) {
            mode = ROUND_CROSS;
            continue;
        }
        int64_t shifted = shifts(k, opts, t0, &res->moves);
        if (shifted < 0) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            break;
        }
        res->shifts += shifted;
        sum += shifted;
        if (shifted == 0) {
            /* stuck: no path nor shift raises sum g (or the shifts' work
             * budget, the time limit or the stop flag ended them) */
            res->stopped = (opts->stop && *opts->stop) ||
                           hta_clock_now() - t0 > opts->time_limit;
            break;
        }
        mode = ROUND_NORMAL;
    }
    *sump = sum;
    return st;
}

#ifdef HTA_CHECKED
/* The cover lists agree with the cover and sum g with the loads. */
static void cl_check(const cl *k, int64_t sum)
{
    const hta_instance *inst = k->inst;
    int32_t m = inst->m, n = inst->n;
    int64_t check = 0;
    for (int32_t s = 0; s < n; s++)
        check += g(k, k->x[s]);
    HTA_CHECK(check == sum);
    for (int32_t s = 0; s < n; s++)
        HTA_CHECK(k->clen[s] == k->x[s]);
    for (int32_t t = 0; t < m; t++) {
        HTA_CHECK(k->cover[t] < 0 ||
                  k->clist[k->coff[k->cover[t]] + k->cpos[t]] == t);
        if (k->cover[t] >= 0 && k->crep) {
            int32_t want[REPS];
            copy_reps(k, t, want);
            HTA_CHECK(memcmp(want,
                             k->crep + (k->coff[k->cover[t]] + k->cpos[t]) * REPS,
                             sizeof want) == 0);
        }
    }
}
#endif

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
    k.U = hta_room_local(inst, L, 0); /* the envelope's U too */
    k.epoch = 1;
    if (!cl_alloc(&k, m, n)) {
        cl_free(&k);
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    }
    hta_status st = HTA_OK;
    /* the start: the envelope relaxation's optimum (envelope.h), a
     * maximum cover at U whose loads sit at the vertices of the servers'
     * envelopes wherever the flow allowed; its loads and free counts.
     * Measured against an arbitrary maximum cover at U (make bench-close
     * to 10^5 tasks, both starts): the same or a better answer on every
     * instance, better on all nine Zipf rows with affine costs from 10^4
     * tasks (HDFS Zipf s = 1, affine, 10^5 tasks, seed 1: 159 ->
     * 158.518), at 1.1-2x the search's time. */
    int stopped = 0;
    if ((st = hta_envelope_cover(inst, L, opts->stop, k.cover, &stopped,
                                 d)) != HTA_OK) {
        cl_free(&k);
        return st;
    }
    if (stopped) {
        res->stopped = 1;
        cl_free(&k);
        return HTA_OK;
    }
    int64_t sum = 0;
    if ((st = cl_start(&k, &sum, d)) != HTA_OK) {
        cl_free(&k);
        return st;
    }
    res->start = sum;
    st = cl_search(&k, opts, t0, &sum, res, d);
#ifdef HTA_CHECKED
    cl_check(&k, sum);
#endif
    res->end = sum;
    if (st == HTA_OK && sum >= m) {
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
