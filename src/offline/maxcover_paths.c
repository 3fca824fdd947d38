/* Max-cover's incremental engine (maxcover_impl.h): a b-matching of
 * tasks to servers grown by augmenting paths (Fact 5.1), Hopcroft-Karp
 * style phases (backward from the servers below their cap, or forward
 * from the uncovered tasks), retired servers, guessed phases, the
 * greedy start, and the change log the sweep's callers undo and replay. */
#include "core/buf.h"
#include "core/check.h"

#include <stdlib.h>
#include <string.h>

#include "maxcover_impl.h"

/* ---- incremental engine ---------------------------------------------- */

/* *a with room for m entries, on huge pages (buf.h), its contents
 * dropped; left as it was when out of memory. */
static void log_room(int32_t **a, size_t *cap, size_t m)
{
    if (*cap >= m)
        return;
    int32_t *b = hta_malloc_huge(m * sizeof *b);
    if (!b)
        return;
    free(*a);
    *a = b;
    *cap = m;
}

void hta_maxcover_log_start(hta_maxcover *mc)
{
    mc->logging = 1;
    mc->log_len = 0;
    /* a sweep covers up to m tasks, each logged once at least: room for
     * m pairs at once instead of growing by copies (the pages are only
     * touched as the log fills), on huge pages (buf.h; a log longer than
     * m grows from there by copies); out of memory here is left to the
     * growth, which marks the log lost */
    size_t m = (size_t)mc->inst->m;
    log_room(&mc->log_t, &mc->log_cap_t, m);
    log_room(&mc->log_s, &mc->log_cap_s, m);
}

int64_t hta_maxcover_log_len(const hta_maxcover *mc)
{
    return mc->logging == 1 ? mc->log_len : -1;
}

int hta_maxcover_log_take(hta_maxcover *mc, int32_t **task, int32_t **server,
                          int64_t *len)
{
    if (mc->logging != 1)
        return 0;
    *task = mc->log_t;
    *server = mc->log_s;
    *len = mc->log_len;
    mc->log_t = mc->log_s = NULL;
    mc->log_cap_t = mc->log_cap_s = 0;
    mc->log_len = 0;
    mc->logging = 0;
    return 1;
}

void hta_maxcover_log_replay(const int32_t *log_t, const int32_t *log_s,
                             int64_t from, int64_t to, int32_t *cover,
                             int32_t *loads)
{
    for (int64_t i = from; i < to; i++) {
        int32_t t = log_t[i] < 0 ? ~log_t[i] : log_t[i], s = log_s[i];
        if (cover[t] >= 0)
            loads[cover[t]]--;
        cover[t] = s;
        loads[s]++;
    }
}

void hta_maxcover_log_undo(const int32_t *log_t, const int32_t *log_s,
                           int64_t from, int64_t to, int32_t *cover,
                           int32_t *loads)
{
    for (int64_t i = to - 1; i >= from; i--) {
        int32_t s = log_s[i];
        loads[s]--;
        if (log_t[i] >= 0) { /* it was uncovered */
            cover[log_t[i]] = -1;
        } else { /* it was on the server of the entry before */
            cover[~log_t[i]] = log_s[i - 1];
            loads[log_s[i - 1]]++;
        }
    }
}

int32_t *hta_maxcover_cover_take(hta_maxcover *mc)
{
    int32_t *cover = mc->cover;
    mc->cover = NULL;
    return cover;
}

/* Room for need entries in the log, which moves.  0 when out of memory:
 * the log is lost (the reader falls back). */
static int log_grow(hta_maxcover *mc, size_t need)
{
    if (!HTA_RESERVE(mc->log_t, mc->log_cap_t, need) ||
        !HTA_RESERVE(mc->log_s, mc->log_cap_s, need)) {
        mc->logging = -1;
        return 0;
    }
    return 1;
}

/* cover[t] = s, logged: t when t was uncovered, ~t when it moves from
 * another server, which is then always the server of the entry before
 * (maxcover.h; an augmenting path covers its free task first, then moves
 * each task to the server before it). */
static inline void set_cover(hta_maxcover *mc, int32_t t, int32_t s)
{
    int32_t old = mc->cover[t];
    mc->cover[t] = s;
    if (mc->logging != 1)
        return;
    size_t need = (size_t)mc->log_len + 1;
    if ((need > mc->log_cap_t || need > mc->log_cap_s) && !log_grow(mc, need))
        return;
    HTA_CHECK(old < 0 || (mc->log_len > 0 &&
                          mc->log_s[mc->log_len - 1] == old));
    mc->log_t[mc->log_len] = old < 0 ? t : ~t;
    mc->log_s[mc->log_len++] = s;
}

/* Moves s's cursor past covered tasks; 1 when s has an uncovered task.
 * (Software prefetches here and in the passes below were measured out:
 * make bench-devices, no family 10% faster with them, one slower.) */
static inline int64_t first_free(const hta_maxcover *mc, int64_t i,
                                 int64_t end)
{
    const int32_t *list = mc->inst->srv_task;
    for (; i < end; i++) {
        if (mc->cover[list[i]] == -1)
            break;
    }
    return i;
}

static int has_free_task(hta_maxcover *mc, int32_t s)
{
    const hta_instance *inst = mc->inst;
    int64_t base = inst->srv_off[s], end = inst->srv_off[s + 1];
    int64_t i = first_free(mc, base + mc->next_free[s], end);
    mc->next_free[s] = (int32_t)(i - base);
    return i < end;
}

/* The free counts of the newly covered tasks' servers, in one pass over
 * them. */
static void flush_free_counts(hta_maxcover *mc)
{
    const hta_instance *inst = mc->inst;
    const int32_t *pend = mc->pend;
    int64_t k = mc->npend;
    for (int64_t p = 0; p < k; p++) {
        int32_t t = pend[p];
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            mc->nfree[inst->task_srv[i]]--;
    }
    mc->npend = 0;
}

/* The free counts' share of newly covering t (when they are kept). */
static inline void note_covered(hta_maxcover *mc, int32_t t)
{
    if (mc->nfree) {
        mc->pend[mc->npend++] = t;
        if (mc->npend == PEND)
            flush_free_counts(mc);
    }
}

/* Covers the uncovered task t by s. */
static void take_task(hta_maxcover *mc, int32_t t, int32_t s)
{
    set_cover(mc, t, s);
    mc->loads[s]++;
    mc->size++;
    note_covered(mc, t);
}

static void take_free_task(hta_maxcover *mc, int32_t s)
{
    const hta_instance *inst = mc->inst;
    take_task(mc, inst->srv_task[inst->srv_off[s] + mc->next_free[s]++], s);
}

/* One phase: breadth-first search backwards from the servers below tau
 * (the sink side) through covered tasks, up to the first layer holding a
 * server with an uncovered task of its own; then a blocking set of shortest
 * augmenting paths by depth-first search with current arcs (Dinic).
 *
 * An augmenting path s_0 <- t_0 <- s_1 <- ... <- s_k <- f reads: f is
 * uncovered and local to s_k; t_i is local to s_i and covered by s_{i+1}.
 * Augmenting gives f to s_k and t_i to s_i: s_0 gains one task, every other
 * server keeps its count.  Returns the number of augmentations.
 *
 * Retired servers.  Write x -> y when x covers a task local to y (y could
 * take it from x), and let H be the servers reachable along such arcs from
 * a server with an uncovered task.  Every server of an augmenting path is
 * in H (s_k holds f, s_{i+1} -> s_i).  H never gains a server: a direct
 * cover of f by s adds arcs s -> y only to servers y that held f
 * uncovered, already in H; an augmentation moves t_i to s_i, adding arcs
 * from s_i (in H) to t_i's servers, which were already reachable through
 * s_{i+1}; and uncovered tasks only become covered.  Neither does any cap
 * enter H's definition, so a server once outside H stays out for the rest
 * of the sweep.  A phase that finds no augmenting path proves it for every
 * server its search reached: each reaches a server below its cap through
 * covered tasks, so were it in H, an augmenting path would exist.  Those
 * servers are retired for good: no later phase starts from them or walks
 * through them.  From a server outside H the backward search only reaches
 * servers outside H (y's search reaches x only if x -> y), so retiring
 * removes nothing a phase could use: the levels of the other servers, the
 * paths and hence the covers are the same as without it.  A server below
 * its cap whose local tasks are all covered, all by itself, is outside H
 * too (no arc enters it from another server, and it holds no uncovered
 * task): it is retired when the phases would first start from it, without
 * waiting for a phase to fail (on Zipf s = 1 with as many servers as
 * tasks, 10^6, 84% of the seeds at tau = 2).  On a skewed
 * placement most servers end below tau with nothing to gain (Zipf s = 1,
 * 10^6 tasks, 10^4 servers: about 8700 of them at tau = 150) and every
 * phase started from all of them; now from the few in H. */

/* Forward phases.  The same shortest augmenting paths can be found from
 * the other end: a breadth-first search along the arcs x -> y from the
 * servers holding an uncovered task (level 0) up to the first layer
 * holding a server below its cap, which gives every server it reaches its
 * distance to an uncovered task; the depth-first search then starts from
 * the servers below their cap at that distance, in the same order as the
 * backward phase, and steps to a server one unit closer.  Every full path
 * of one is a full path of the other: a path s_0 .. s_k, k the shortest
 * length, has s_i at distance i from the seeds and k - i from the
 * uncovered tasks (a smaller distance either way would give a shorter
 * path).  Both searches take, from each seed, the first path in arc
 * order among those that can still be completed: the backward one walks
 * into servers that cannot finish and marks them dead, the forward one
 * never enters those that could not finish at the phase's start, and
 * marks dead those that can no longer (distances only grow within a
 * phase: an augmentation adds arcs back towards the seeds only).  So the
 * augmentations, and the covers, are the same; only the breadth-first
 * search differs, and it is cheaper from the smaller side.  Late in a
 * sweep on m = n placements few tasks are uncovered and most servers are
 * below their cap (uniform, 10^6 tasks and servers, tau = 2: 16 tasks
 * uncovered, 733,754 seeds).  The direction is chosen per phase from the
 * counts: forward when the uncovered tasks' replicas are fewer than the
 * seeds.  A forward phase that finds no path has reached every server of
 * H (below) and no seed, so every seed is outside H and retired. */
static int32_t *uncovered_tasks(hta_maxcover *mc, int64_t *len)
{
    const hta_instance *inst = mc->inst;
    if (!mc->unc) {
        mc->unc = malloc(((size_t)inst->m + 1) * sizeof *mc->unc);
        if (!mc->unc)
            return NULL;
        mc->nunc = 0;
        for (int32_t t = 0; t < inst->m; t++)
            if (mc->cover[t] == -1)
                mc->unc[mc->nunc++] = t;
    }
    int64_t kept = 0; /* tasks only become covered in a sweep */
    for (int64_t i = 0; i < mc->nunc; i++)
        if (mc->cover[mc->unc[i]] == -1)
            mc->unc[kept++] = mc->unc[i];
    mc->nunc = kept;
    *len = kept;
    return mc->unc;
}

/* s reached by a phase's breadth-first search at this level. */
static void reach(hta_maxcover *mc, int32_t s, int32_t level, int64_t *tail)
{
    mc->level[s] = level;
    mc->arc[s] = 0;
    mc->queue[(*tail)++] = s;
}

/* The backward search, resumable: level 0 the seeds; then backwards (y's
 * local tasks to the servers covering them) up to the first layer with a
 * server holding an uncovered task (found), or, for a guessed phase, to
 * the first server of level stop, where it pauses (head on that server;
 * start[l]: the queue index of level l's first server, l <= stop). */
#define GUESS_MAX 64   /* the deepest guess */
#define GUESS_AFTER 64 /* the fewest paths of a phase that the next guesses */
typedef struct back_search {
    int64_t head, tail;
    int32_t found, deepest; /* deepest: the last level labelled */
    int64_t start[GUESS_MAX + 1];
} back_search;

static void backward_start(hta_maxcover *mc, int32_t kept, back_search *b)
{
    b->head = b->tail = 0;
    b->found = INT32_MAX;
    b->deepest = 0;
    b->start[0] = 0;
    for (int32_t k = 0; k < kept; k++)
        reach(mc, mc->seeds[k], 0, &b->tail);
}

/* 1 when paused at level stop. */
static int backward_run(hta_maxcover *mc, back_search *b, int32_t stop)
{
    const hta_instance *inst = mc->inst;
    while (b->head < b->tail) {
        int32_t y = mc->queue[b->head];
        if (mc->level[y] >= b->found)
            break;
        if (mc->level[y] >= stop)
            return 1;
        b->head++;
        for (int64_t i = inst->srv_off[y]; i < inst->srv_off[y + 1]; i++) {
            int32_t x = mc->cover[inst->srv_task[i]];
            if (x < 0 || x == y || mc->level[x] != -1)
                continue;
            int32_t l = mc->level[y] + 1;
            if (l > b->deepest) { /* the first of its level */
                b->deepest = l;
                if (l <= GUESS_MAX)
                    b->start[l] = b->tail;
            }
            reach(mc, x, l, &b->tail);
            if (has_free_task(mc, x))
                b->found = l;
        }
    }
    return 0;
}

/* Level 0: the servers holding an uncovered task; then forward along
 * x -> y up to the first layer with a server below its cap.  Returns that
 * layer's level, INT32_MAX without one; *tailp: servers reached. */
static int32_t forward_search(hta_maxcover *mc, const int32_t *unc,
                              int64_t nunc, int64_t *tailp)
{
    const hta_instance *inst = mc->inst;
    int64_t head = 0, tail = 0;
    int32_t found = INT32_MAX;
    for (int64_t k = 0; k < nunc; k++) {
        int32_t t = unc[k];
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            if (mc->level[inst->task_srv[i]] == -1)
                reach(mc, inst->task_srv[i], 0, &tail);
    }
    while (head < tail) {
        int32_t x = mc->queue[head++];
        if (mc->level[x] >= found)
            break;
        for (int64_t k = inst->srv_off[x]; k < inst->srv_off[x + 1]; k++) {
            int32_t t = inst->srv_task[k];
            if (mc->cover[t] != x)
                continue;
            for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1];
                 i++) {
                int32_t y = inst->task_srv[i];
                if (y == x || mc->level[y] != -1)
                    continue;
                reach(mc, y, mc->level[x] + 1, &tail);
                if (found == INT32_MAX && mc->loads[y] < cap_of(mc, y))
                    found = mc->level[y];
            }
        }
    }
    *tailp = tail;
    return found;
}

/* Guessed phases.  A phase is a blocking set of shortest augmenting
 * paths, so within a run the length of the shortest path grows from phase
 * to phase (Dinic): the next phase's goal level is at least the last
 * one's plus one (1 for the first phase of a run).  A backward phase
 * with that guess g labels levels 0..g-1 only (it stops before the
 * servers of level g-1 would label level g, the largest layer), and its
 * depth-first search, at a server of level g-1, steps to a server x =
 * cover[t] of its tasks that is unlabelled (not labelled, not retired,
 * not dead): exactly the servers the full search would give level g,
 * since during the phase a task only changes hands to a server of the
 * path (labelled, or the goal x itself, unlabelled and of level g).  A
 * walk that augments proves found = g (its x had a free task from the
 * phase's start: free tasks only go), so it is the phase; one that does
 * not proves found > g: the labels are put back as the search left them
 * (the walk only marked servers dead and moved arcs) and the search goes
 * on, and no more guesses in this run.  A phase of few paths is often
 * followed by one of none, where the walk costs a search of its own:
 * only a phase of GUESS_AFTER paths or more has its successor guessed.
 * With g = 1 the search labels the seeds only: a walk over their tasks
 * (one_step_phase).  Saves the search's last layer, the largest: fsy on
 * 10^7 uniform tasks (bal-assign's matching: guesses 1, 2, 3, all right)
 * 0.84 -> 0.66 s, uniform 10^6 x 10^4 0.032 -> 0.027 s, uniform m = n
 * 0.243 -> 0.227 s (9 of its first run's 13 phases guessed, none
 * missed); the Zipf families within 2%. */

/* A guessed phase with g = 1 as a plain walk: the seeds labelled, each
 * seed's tasks in order, a step to their unlabelled covering servers.
 * The search and walk below do the same with g = 1; this copy stays
 * because it is lighter where such phases are large (fsy on 10^7 uniform
 * tasks, bal-assign's first phase of 790k paths: 0.69-0.76 s against
 * 0.72-0.80 s through the search, 6 runs interleaved). */
static int64_t one_step_phase(hta_maxcover *mc, int32_t kept, int64_t *tailp)
{
    const hta_instance *inst = mc->inst;
    int64_t tail = 0, augmented = 0;
    for (int32_t k = 0; k < kept; k++) {
        mc->level[mc->seeds[k]] = 0;
        mc->queue[tail++] = mc->seeds[k];
    }
    for (int32_t k = 0; k < kept; k++) {
        int32_t s0 = mc->seeds[k];
        int64_t end = inst->srv_off[s0 + 1];
        for (int64_t i = inst->srv_off[s0];
             i < end && mc->loads[s0] < cap_of(mc, s0); i++) {
            int32_t t = inst->srv_task[i], x = mc->cover[t];
            /* x < 0: t excluded (a fill; a seed has no free task) */
            if (x < 0 || mc->level[x] != -1)
                continue;
            if (!has_free_task(mc, x)) {
                mc->level[x] = -2; /* dead */
                mc->queue[tail++] = x;
                continue;
            }
            take_free_task(mc, x);
            set_cover(mc, t, s0);
            mc->loads[x]--;
            mc->loads[s0]++;
            augmented++;
        }
    }
    for (int64_t q = 0; q < tail; q++)
        mc->level[mc->queue[q]] = -1;
    *tailp = tail;
    return augmented;
}

/* A phase's paths: from each seed at the start level, one layer a step,
 * to a server holding an uncovered task at the goal level (step: +1
 * backward, -1 forward; lazy: a
 * guessed phase, whose goal servers are unlabelled and labelled here, at
 * *tail); each path shifts its tasks one server up and covers a free
 * task.  The number of paths. */
static int64_t walk_paths(hta_maxcover *mc, int32_t kept, int32_t start,
                          int32_t goal, int32_t step, int lazy, int64_t *tail)
{
    const hta_instance *inst = mc->inst;
    int64_t augmented = 0;
    for (int32_t q = 0; q < kept; q++) {
        int32_t s0 = mc->seeds[q];
        while (mc->loads[s0] < cap_of(mc, s0) && mc->level[s0] == start) {
            int32_t depth = 0;
            mc->path_srv[0] = s0;
            int success = 0;
            while (depth >= 0) {
                int32_t y = mc->path_srv[depth];
                /* a guessed phase's goal servers are unlabelled */
                if (lazy ? depth == goal : mc->level[y] == goal) {
                    if (has_free_task(mc, y)) {
                        success = 1;
                        break;
                    }
                    mc->level[y] = -2;
                    if (lazy)
                        mc->queue[(*tail)++] = y; /* labelled now */
                    depth--;
                    continue;
                }
                int64_t base = inst->srv_off[y], end = inst->srv_off[y + 1];
                int64_t k = base + mc->arc[y];
                int32_t x = -1, t = -1;
                int32_t want = lazy && mc->level[y] == goal - 1 ?
                                   -1 : mc->level[y] + step;
                for (; k < end; k++) {
                    t = inst->srv_task[k];
                    x = mc->cover[t];
                    if (x >= 0 && x != y && mc->level[x] == want)
                        break;
                }
                mc->arc[y] = (int32_t)(k - base);
                if (k >= end) {
                    mc->level[y] = depth ? -2 : -3; /* dead */
                    depth--;
                    continue;
                }
                mc->path_task[depth] = t;
                mc->path_srv[++depth] = x;
            }
            if (!success)
                break;
            /* Shift the tasks one server up the path, then cover f. */
            take_free_task(mc, mc->path_srv[depth]);
            for (int32_t i = depth - 1; i >= 0; i--) {
                int32_t from = mc->path_srv[i + 1], to = mc->path_srv[i];
                set_cover(mc, mc->path_task[i], to);
                mc->loads[from]--;
                mc->loads[to]++;
            }
            augmented++;
        }
    }
    return augmented;
}

static int64_t phase(hta_maxcover *mc)
{
    const hta_instance *inst = mc->inst;
    int64_t tail = 0, augmented = 0;
    int32_t found;

    int32_t kept = 0; /* the seeds that reached their cap leave */
    for (int32_t k = 0; k < mc->nseeds; k++) {
        int32_t s = mc->seeds[k];
        if (mc->loads[s] < cap_of(mc, s))
            mc->seeds[kept++] = s;
    }
    mc->nseeds = kept;
    /* forward when the uncovered tasks' replicas are fewer than the seeds */
    int forward = mc->forward == 2 ||
                  (mc->forward &&
                   (double)(mc->coverable - mc->size) * (double)inst->edges <
                       (double)kept * (double)inst->m);
    int32_t *unc = NULL;
    int64_t nunc = 0;
    if (forward && !(unc = uncovered_tasks(mc, &nunc)))
        forward = 0; /* out of memory: the backward search needs none */
    if (!forward && mc->guess == 1 && mc->next_goal == 1 && kept > 0) {
        augmented = one_step_phase(mc, kept, &tail);
        mc->stats.visited += tail;
        if (augmented > 0) {
            mc->stats.phases++;
            mc->stats.guessed++;
            mc->stats.augmented += augmented;
            mc->next_goal = 2;
            if (augmented < GUESS_AFTER && !mc->guess_all)
                mc->guess = -1;
            return augmented;
        }
        mc->guess = -1; /* found > 1: the full phase, no more guesses */
        mc->stats.missed++;
        tail = 0;
    }
    int32_t guess = !forward && mc->guess == 1 &&
                            mc->next_goal <= GUESS_MAX ?
                        mc->next_goal : 0;
    back_search b;
    int lazy = 0;
    if (forward) {
        found = forward_search(mc, unc, nunc, &tail);
    } else {
        backward_start(mc, kept, &b);
        lazy = backward_run(mc, &b, guess ? guess - 1 : INT32_MAX) &&
               b.found == INT32_MAX;
        tail = b.tail;
        /* a guess: the walk confirms it, or the search goes on */
        found = lazy ? guess : b.found;
    }
    int64_t labelled = tail;
walk:
    if (found != INT32_MAX)
        augmented += walk_paths(mc, kept, forward ? found : 0,
                                forward ? 0 : found, forward ? -1 : 1, lazy,
                                &tail);
    if (lazy && augmented == 0) {
        /* found > guess: the labels back as the search left them (the
           walk only marked servers dead and moved arcs), then the rest */
        mc->stats.visited += tail - labelled;
        for (int64_t q = labelled; q < tail; q++)
            mc->level[mc->queue[q]] = -1; /* dead goal servers */
        b.start[guess] = labelled;
        for (int32_t l = 0; l < guess; l++)
            for (int64_t q = b.start[l]; q < b.start[l + 1]; q++) {
                mc->level[mc->queue[q]] = l;
                mc->arc[mc->queue[q]] = 0;
            }
        b.tail = labelled;
        backward_run(mc, &b, INT32_MAX);
        tail = b.tail;
        found = b.found;
        lazy = 0;
        mc->guess = -1; /* not again in this run */
        mc->stats.missed++;
        goto walk;
    }
    mc->stats.visited += tail;
    /* No augmenting path: every server the backward search reached is out
       of the sweep for good (RETIRED, above); the forward search reached
       H itself, and every seed lies outside it. */
    int32_t after = found == INT32_MAX && mc->retire && !forward ? RETIRED : -1;
    for (int64_t q = 0; q < tail; q++)
        mc->level[mc->queue[q]] = after;
    if (found == INT32_MAX && mc->retire && forward)
        for (int32_t q = 0; q < kept; q++)
            mc->level[mc->seeds[q]] = RETIRED;
    mc->stats.phases++;
    mc->stats.forward += forward;
    mc->stats.guessed += lazy;
    mc->stats.augmented += augmented;
    if (augmented > 0)
        mc->next_goal = found + 1; /* the path length, either direction */
    /* After a phase of few paths the next one often has none, and a walk
       that fails costs a search of the labelled layers: no guess then. */
    if (mc->guess == 1 && augmented < GUESS_AFTER && !mc->guess_all)
        mc->guess = -1;
    return augmented;
}

/* Checked builds: no retired server is in H (phase), i.e. reachable from
 * a server holding an uncovered task through covered tasks.  O(|E|). */
static void check_retired(const hta_maxcover *mc)
{
#ifdef HTA_CHECKED
    const hta_instance *inst = mc->inst;
    char *seen = calloc((size_t)inst->n + 1, 1);
    int32_t *queue = malloc(((size_t)inst->n + 1) * sizeof *queue);
    int64_t head = 0, tail = 0;
    if (seen && queue)
        for (int32_t t = 0; t < inst->m; t++)
            for (int64_t i = inst->task_off[t];
                 mc->cover[t] == -1 && i < inst->task_off[t + 1]; i++) {
                int32_t y = inst->task_srv[i];
                if (!seen[y]) {
                    seen[y] = 1;
                    queue[tail++] = y;
                }
            }
    while (head < tail) {
        int32_t x = queue[head++];
        HTA_CHECK(mc->level[x] != RETIRED);
        for (int64_t k = inst->srv_off[x]; k < inst->srv_off[x + 1]; k++) {
            int32_t t = inst->srv_task[k];
            if (mc->cover[t] != x)
                continue;
            for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1];
                 i++) {
                int32_t y = inst->task_srv[i];
                if (!seen[y]) {
                    seen[y] = 1;
                    queue[tail++] = y;
                }
            }
        }
    }
    free(seen);
    free(queue);
#else
    (void)mc;
#endif
}

/* Whether one of s's local tasks is covered by another server. */
static int covered_elsewhere(const hta_maxcover *mc, int32_t s)
{
    const hta_instance *inst = mc->inst;
    for (int64_t i = inst->srv_off[s]; i < inst->srv_off[s + 1]; i++) {
        int32_t x = mc->cover[inst->srv_task[i]];
        if (x >= 0 && x != s)
            return 1;
    }
    return 0;
}

/* The direct scan of s: its uncovered tasks in list order up to its
 * cap, has_free_task and take_task in one loop with the cursor, load
 * and counts in locals and set_cover inlined.  Zipf s = 1, 10^6 x 10^4:
 * the sweep 6% faster than the two calls per task (pinned, both
 * processors, medians of warm repeats). */
static void direct_scan(hta_maxcover *mc, int32_t s)
{
    const hta_instance *inst = mc->inst;
    int64_t cap = cap_of(mc, s), l = mc->loads[s], took = 0;
    int64_t base = inst->srv_off[s], end = inst->srv_off[s + 1];
    int64_t i = base + mc->next_free[s];
    while (l + took < cap && (i = first_free(mc, i, end)) < end) {
        int32_t t = inst->srv_task[i++];
        set_cover(mc, t, s);
        note_covered(mc, t);
        took++;
    }
    mc->next_free[s] = (int32_t)(i - base);
    mc->loads[s] = (int32_t)(l + took);
    mc->size += took;
    mc->stats.direct += took;
}

hta_status mc_incremental_run(hta_maxcover *mc, const uint8_t *elsewhere)
{
    const hta_instance *inst = mc->inst;
    /* Paths of length one first: each server scans its own tasks with a
     * cursor that only moves forward, since a covered task stays covered
     * for the rest of the sweep (Fact 5.1).  Over a sweep: O(|E|).
     * Only the servers holding a task and not retired take part: a
     * retired server holds no uncovered task (it is outside H, phase), so
     * its scan would find nothing, and it is no seed.  On a skewed
     * placement most servers retire early (Zipf s = 1, 10^6 tasks, 10^4
     * servers: 1300 alive at tau = 150), and the sweep's raises read only
     * the others. */
    if (mc->nalive < 0) {
        mc->nalive = 0;
        for (int32_t s = 0; s < inst->n; s++)
            if (inst->srv_off[s + 1] > inst->srv_off[s] &&
                mc->level[s] != RETIRED)
                mc->alive[mc->nalive++] = s;
    }
    mc->nseeds = 0;
    int32_t kept = 0, nalive = mc->nalive;
    for (int32_t k = 0; k < nalive; k++) {
        int32_t s = mc->alive[k];
        if (mc->level[s] == RETIRED) { /* by a phase of the last run */
            if (mc->loads[s] >= cap_of(mc, s))
                mc->alive[kept++] = s; /* listed while at its cap */
            continue;
        }
        direct_scan(mc, s);
        if (mc->loads[s] < cap_of(mc, s)) {
            if (!mc->retire ||
                (elsewhere ? elsewhere[s] & 1 : covered_elsewhere(mc, s))) {
                mc->seeds[mc->nseeds++] = s;
            } else {
                mc->level[s] = RETIRED;
                continue;
            }
        }
        mc->alive[kept++] = s;
    }
    mc->nalive = kept;
    /* Longer paths start at a server below tau: all of them have no
     * uncovered task left, the phases move covered tasks towards them. */
    if (mc->guess)
        mc->guess = 1;
    mc->next_goal = 1;
    while (mc->size < mc->coverable && phase(mc) > 0)
        ;
    if (mc->nfree)
        flush_free_counts(mc);
    check_retired(mc);
    return HTA_OK;
}

hta_status mc_greedy_run(hta_maxcover *mc, int64_t tau, hta_diag *d)
{
    const hta_instance *inst = mc->inst;
    uint8_t *elsewhere = calloc((size_t)inst->n + 1, 1);
    if (!elsewhere)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (int32_t t = 0; t < inst->m; t++) {
        int64_t lo = inst->task_off[t], hi = inst->task_off[t + 1];
        if (mc->cover[t] != -1)
            continue;
        int32_t best = -1;
        int64_t most = 0;
        for (int64_t i = lo; i < hi; i++) {
            int32_t s = inst->task_srv[i];
            int64_t room = (tau ? tau : mc->cap[s]) - mc->loads[s];
            if (room > most) {
                most = room;
                best = s;
            }
        }
        if (best < 0) { /* its servers keep an uncovered task */
            for (int64_t i = lo; i < hi; i++) {
                int32_t s = inst->task_srv[i];
                if (elsewhere[s] & 2)
                    continue;
                /* the first: the cursor to it (lists in task order) */
                elsewhere[s] |= 2;
                int64_t a = inst->srv_off[s], b = inst->srv_off[s + 1];
                while (a < b) {
                    int64_t mid = a + (b - a) / 2;
                    if (inst->srv_task[mid] < t)
                        a = mid + 1;
                    else
                        b = mid;
                }
                mc->next_free[s] = (int32_t)(a - inst->srv_off[s]);
            }
            continue;
        }
        take_task(mc, t, best);
        mc->stats.direct++;
        for (int64_t i = lo; i < hi; i++)
            if (inst->task_srv[i] != best)
                elsewhere[inst->task_srv[i]] |= 1;
    }
    for (int32_t s = 0; s < inst->n; s++)
        if (!(elsewhere[s] & 2))
            mc->next_free[s] =
                (int32_t)(inst->srv_off[s + 1] - inst->srv_off[s]);
    hta_status st = mc_incremental_run(mc, elsewhere);
    free(elsewhere);
    return st;
}

