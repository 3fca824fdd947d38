/* The HTA integer program through GLPK: the search (the pieces in turn,
 * the LP, branch and bound, CBC beside it); the models are ilpmodel.c
 * and ilplev.c (ilp_impl.h).
 *
 * Compact model for one remote cost c (a "piece"):
 *   x_{g,s} in [0, |g|] integer: tasks of group g run locally on s, for
 *       each server s holding the blocks of g (a group is a set of tasks
 *       with the same replica set: aggregating them removes their symmetry);
 *   y_s >= 0 integer: tasks charged as remote on server s;
 *   sum_s x_{g,s} <= |g|;  sum x + sum y = m;  sum y <= R;
 *   w_loc * sum_g x_{g,s} + c * y_s <= L for every server s;  minimise L.
 * Remote tasks are interchangeable: y only counts them.  A solution maps
 * to an assignment by running the x tasks locally and spreading the others
 * by y; a task that lands on a server holding its block is in fact local
 * and costs w_loc <= c, so the real makespan is at most L.  Conversely an
 * assignment with r <= R remote tasks gives a solution of value equal to
 * its makespan when w_rem(r) = c.  Hence with one model per distinct value
 * c_k of w_rem, R_k the largest r <= m with w_rem(r) = c_k:
 *   - an optimal assignment O, with w_rem(r^O) = c_k and r^O <= R_k, is
 *     feasible in model k with value L^O, so min_k opt_k <= L^O;
 *   - a solution of model k with r <= R_k remote tasks costs w_rem(r) <=
 *     c_k per remote task (w_rem is non-decreasing), so its real makespan
 *     is <= its value: min_k opt_k >= L^O.
 * A model is skipped when its lower bound (bounds.h, the flow bound with
 * cost c_k and at most R_k remote tasks) reaches the incumbent.
 *
 * With an upper bound L_hi on L, y_s <= floor(L_hi/c), and when c + w_loc
 * > L_hi a server with a remote task can run nothing else, which the rows
 * x_{g,s} + U*y_s <= U (U = min(|g|, floor(L_hi/w_loc))) state directly:
 * valid for every solution with L <= L_hi, and much tighter in the LP
 * relaxation than the load rows alone (decisive on 3SAT reductions).
 *
 * Help for GLPK: costs scaled to integers when they are small fractions,
 * L integral then and bounded by incumbent - 1 (a cutoff: an infeasible
 * model proves the incumbent optimal for that piece); otherwise L <=
 * incumbent and the incumbent offered as a heuristic solution.  Presolve
 * is off so that the callback sees the original columns, which needs an
 * optimal LP basis first (glp_simplex from glp_cpx_basis).
 */
#include "hta/ilp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/maxcover.h"
#include "hta/num.h"
#include "hta/version.h"
#include "core/buf.h"
#include "core/glpkx.h"
#include "offline/bounds.h"
#include "toplevel.h"

#include "ilp_impl.h"

static void callback(glp_tree *T, void *info)
{
    solver *sv = info;
    int reason = glp_ios_reason(T);
    if (reason == GLP_IHEUR && sv->heur_ok) {
        glp_ios_heur_sol(T, sv->heur);
        sv->heur_ok = 0; /* once is enough */
    }
    int best = glp_ios_best_node(T);
    if (best) {
        double b = glp_ios_node_bound(T, best);
        if (!sv->have_tree_bound || b > sv->tree_bound)
            sv->tree_bound = b;
        sv->have_tree_bound = 1;
    }
    int a_cnt, n_cnt, t_cnt;
    glp_ios_tree_size(T, &a_cnt, &n_cnt, &t_cnt);
    if (t_cnt > sv->res->nodes)
        sv->res->nodes = t_cnt;
    double now = hta_clock_now();
    if (sv->job && now >= sv->next_poll) {
        /* CBC's proof ends GLPK's search; its failure does not. */
        sv->next_poll = now + 0.01;
        hta_cbc_answer ans;
        hta_cbc_wait(sv->job, 0, NULL, &ans); /* a look, no wait */
        if (ans.status == HTA_CBC_OPTIMAL || ans.status == HTA_CBC_INFEASIBLE)
            glp_ios_terminate(T);
    }
    if (sv->opts->progress) {
        double D = sv->scale ? sv->scale : 1.0;
        hta_progress p = {"ilp", now - sv->started, sv->best_span,
                          sv->have_tree_bound ?
                              fmax(sv->pc->lb, sv->tree_bound / D) :
                              sv->pc->lb,
                          sv->res->nodes};
        sv->opts->progress(sv->opts->progress_ctx, &p);
    }
    /* GLPK runs a node's LP, cuts and branching heuristic (its
     * tableau rows: seconds on large models) without a callback: stop
     * when the next step, as long as the last, would end past the
     * deadline, so the limit holds within a step's error */
    if (sv->last_call > 0)
        sv->step = now - sv->last_call;
    sv->last_call = now;
    if ((sv->opts->stop && *sv->opts->stop) || now + sv->step > sv->deadline)
        glp_ios_terminate(T);
}

/* Writes the model of the current piece, with L free (no incumbent
 * cutoff, no bound), in CPLEX LP format to opts->write_lp; runs inside
 * hta_glpk_guard. */
static hta_status write_model(void *ctx, hta_diag *d)
{
    solver *sv = ctx;
    glp_prob *P = ilp_build_model(sv, 0.0, INFINITY, sv->scale != 0);
    if (!P)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    ilp_name_model(sv, P);
    hta_status st = HTA_OK;
    if (glp_write_lp(P, NULL, sv->opts->write_lp) != 0)
        st = hta_diag_set(d, HTA_ERR_IO, sv->opts->write_lp, 0,
                          "GLPK could not write the LP file");
    else
        sv->res->lp_written = 1;
    glp_delete_prob(P);
    return st;
}

/* How one piece's search ended. */
typedef enum outcome {
    PIECE_SEARCH,        /* the LP leaves a branch and bound to run */
    PIECE_DONE,          /* pc->proved is final */
    PIECE_STOPPED,       /* out of time before any bound: pc->lb */
    PIECE_STOPPED_BOUND, /* out of time, pc->proved set */
    PIECE_ERROR
} outcome;

/* The scaled costs and the range [L_lo, L_hi] of L for the current piece:
 * from the piece's bound, and below the incumbent (strictly, by one unit,
 * when costs are integral: a cutoff). */
static void piece_range(solver *sv, double *wl, double *c, double *L_lo,
                        double *L_hi)
{
    const hta_instance *in = sv->inst;
    const piece *pc = sv->pc;
    double D = sv->scale;
    *wl = D ? nearbyint(in->w_loc * D) : in->w_loc;
    *c = D ? nearbyint(pc->c * D) : pc->c;
    *L_lo = sv->opts->plain ? 0.0 : pc->lb * (D ? D : 1.0);
    *L_hi = INFINITY;
    sv->cutoff = 0;
    if (!sv->opts->plain && isfinite(sv->best_span)) {
        if (D) {
            *L_hi = nearbyint(sv->best_span * D) - 1; /* strictly better */
            sv->cutoff = 1;
        } else {
            *L_hi = sv->best_span;
        }
    }
    if (D)
        *L_lo = ceil(*L_lo - 1e-9 * fmax(1.0, *L_lo));
    else if (sv->top_mode)
        *L_hi = fmin(*L_hi, sv->top_T); /* the decision's target */
}

/* The LP relaxation: its optimum bounds the piece (*lp_bound), or it is
 * infeasible below the cutoff. */
static outcome run_lp(solver *sv, glp_prob *P, double *lp_bound, hta_diag *d)
{
    piece *pc = (piece *)sv->pc;
    double left = sv->deadline - hta_clock_now();
    if (left <= 0)
        return PIECE_STOPPED;
    glp_smcp smcp;
    glp_init_smcp(&smcp);
    smcp.msg_lev = sv->opts->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
    glp_cpx_basis(P);
    double t0 = hta_clock_now();
    int ret = hta_glpk_simplex(P, &smcp, sv->deadline, sv->opts->stop);
    sv->lp_seconds = hta_clock_now() - t0;
    if (ret == GLP_ETMLIM)
        return PIECE_STOPPED;
    if (ret != 0) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                     "GLPK simplex failed (code %d)", ret);
        return PIECE_ERROR;
    }
    int lp_status = glp_get_status(P);
    if (lp_status == GLP_NOFEAS) {
        /* No solution below the cutoff in this piece. */
        pc->proved = sv->cutoff ? sv->best_span : fmax(pc->lb, sv->best_span);
        return PIECE_DONE;
    }
    if (lp_status != GLP_OPT) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                     "GLPK: the LP relaxation has status %d", lp_status);
        return PIECE_ERROR;
    }
    *lp_bound = glp_get_obj_val(P) / (sv->scale ? sv->scale : 1.0);
    if (sv->deadline - hta_clock_now() <= 0) {
        pc->proved = fmax(pc->lb, *lp_bound);
        return PIECE_STOPPED_BOUND;
    }
    return PIECE_SEARCH;
}

/* Keeps a MIP solution (x, 1-based) when it beats the best (evaluated
 * first). */
static outcome keep_values(solver *sv, const double *x, hta_diag *d)
{
    const hta_instance *in = sv->inst;
    int ok = ilp_read_solution(sv, x);
    if (ok <= 0) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "%s",
                     ok < 0 ? "out of memory" :
                              "the MIP solution does not add up to an "
                              "assignment");
        return PIECE_ERROR;
    }
    hta_eval ev;
    if (hta_eval_run(in, sv->a, &ev, d) != HTA_OK)
        return PIECE_ERROR;
    if (ev.makespan < sv->best_span) {
        sv->res->improved = isfinite(sv->best_span);
        sv->best_span = ev.makespan;
        memcpy(sv->best, sv->a, (size_t)in->m * sizeof *sv->a);
    }
    hta_eval_free(&ev);
    return PIECE_DONE;
}

/* A proven bound b on the piece, rounded up to the grid of the scaled
 * costs when they are integers (L is then a multiple of 1/scale). */
static double round_up_bound(const solver *sv, double b)
{
    double D = sv->scale;
    return D ? ceil(b * D - 1e-9 * fmax(1.0, b * D)) / D : b;
}

/* Branch and bound, within the time left. */
static outcome run_mip(solver *sv, glp_prob *P, double lp_bound, hta_diag *d)
{
    piece *pc = (piece *)sv->pc;
    double D = sv->scale, unit = D ? D : 1.0;
    glp_iocp iocp;
    glp_init_iocp(&iocp);
    iocp.msg_lev = sv->opts->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
    iocp.out_frq = 2000;
    /* GLPK refuses a negative limit (its error hook, not a code): the
     * deadline may have passed since the relaxation */
    double left = sv->deadline - hta_clock_now();
    if (left <= 0) {
        pc->proved = fmax(pc->lb, lp_bound);
        return PIECE_STOPPED_BOUND;
    }
    iocp.tm_lim = (int)fmin(left * 1000.0, 2e9);
    iocp.presolve = GLP_OFF;
    iocp.mip_gap = 0.0;
    iocp.cb_func = callback;
    iocp.cb_info = sv;
    if (!sv->opts->plain) {
        iocp.mir_cuts = GLP_ON;
        iocp.gmi_cuts = GLP_ON;
        iocp.fp_heur = GLP_ON;
    }
    sv->res->solved++;
    sv->last_call = 0;
    sv->step = sv->lp_seconds; /* the root's cuts: as long as its LP */
    int ret = glp_intopt(P, &iocp);
    int mip = glp_mip_status(P);
    if (ret == GLP_ENOPFS) {
        pc->proved = sv->best_span;
        return PIECE_DONE;
    }
    if (ret != 0 && ret != GLP_ETMLIM && ret != GLP_ESTOP) {
        hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                     "GLPK branch-and-bound failed (code %d)", ret);
        return PIECE_ERROR;
    }
    if (mip == GLP_OPT || mip == GLP_FEAS) {
        int nc = glp_get_num_cols(P);
        if (!HTA_RESERVE(sv->vals, sv->cap_vals, (size_t)nc + 1)) {
            hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            return PIECE_ERROR;
        }
        for (int j = 1; j <= nc; j++)
            sv->vals[j] = glp_mip_col_val(P, j);
        if (keep_values(sv, sv->vals, d) == PIECE_ERROR)
            return PIECE_ERROR;
    }
    if (ret == 0) {
        /* Solved: optimum, or nothing below the cutoff. */
        pc->proved = mip == GLP_OPT ? glp_mip_obj_val(P) / unit : sv->best_span;
        if (mip == GLP_OPT && sv->best_span < pc->proved)
            pc->proved = sv->best_span;
        return PIECE_DONE;
    }
    double b = sv->have_tree_bound ? sv->tree_bound / unit : lp_bound;
    pc->proved = fmax(pc->lb, fmax(round_up_bound(sv, b), lp_bound));
    return PIECE_STOPPED_BOUND;
}

/* CBC's answer for the piece: a proof ends it (PIECE_DONE, the solution
 * evaluated first); anything else leaves out as it was. */
static outcome take_cbc(solver *sv, const hta_cbc_answer *ans, outcome out,
                        hta_diag *d)
{
    piece *pc = (piece *)sv->pc;
    double unit = sv->scale ? sv->scale : 1.0;
    if (ans->status == HTA_CBC_OPTIMAL) {
        if (keep_values(sv, ans->x, d) == PIECE_ERROR)
            return PIECE_ERROR;
        pc->proved = fmin(ans->obj / unit, sv->best_span);
    } else if (ans->status == HTA_CBC_INFEASIBLE) {
        pc->proved = sv->best_span; /* nothing at or below L's bound */
    } else {
        if (ans->status == HTA_CBC_FAILED)
            snprintf(sv->res->cbc_failed, sizeof sv->res->cbc_failed, "%s",
                     ans->why);
        return out;
    }
    sv->res->cbc_nodes += ans->nodes;
    sv->res->proved_by |= 2;
    return PIECE_DONE;
}

/* Waits for CBC until the deadline or the stop flag, with progress. */
static void wait_cbc(solver *sv, hta_cbc_answer *ans)
{
    for (;;) {
        double now = hta_clock_now();
        hta_cbc_wait(sv->job, fmin(sv->deadline, now + 0.5), sv->opts->stop,
                     ans);
        now = hta_clock_now();
        if (ans->status != HTA_CBC_RUNNING || now >= sv->deadline ||
            (sv->opts->stop && *sv->opts->stop))
            return;
        if (sv->opts->progress) {
            hta_progress p = {"ilp", now - sv->started, sv->best_span,
                              sv->pc->lb, sv->res->nodes};
            sv->opts->progress(sv->opts->progress_ctx, &p);
        }
    }
}

/* The column of L: the one the objective counts (every model minimises
 * L alone); 0 when none. */
static int L_column(glp_prob *P)
{
    for (int j = glp_get_num_cols(P); j >= 1; j--)
        if (glp_get_obj_coef(P, j) != 0)
            return j;
    return 0;
}

/* The search for one piece after its LP: GLPK, CBC, or both side by
 * side (CBC in a child process, GLPK here; the first proof wins). */
static outcome search_piece(solver *sv, glp_prob *P, double lp_bound,
                            hta_diag *d)
{
    hta_ilp_engine e = sv->opts->engine;
    outcome out = PIECE_STOPPED_BOUND;
    piece *pc = (piece *)sv->pc;
    if (e != HTA_ILP_ENGINE_GLPK) {
        sv->next_poll = 0;
        /* CBC gets L without its lower bound (the piece's proven bound)
           when L may take more than one value: with the bound the
           objective is flat over every solution CBC meets near the
           optimum and its search stalls (the issue-61 rack instance,
           10^4 tasks: no proof in 60 s with L in [202, 203], 4.8 s with
           L <= 203, as CBC 2.10.8 reads the written model).  With L
           fixed (the bound is the last value below the incumbent: 3SAT
           reductions) the model is a feasibility question CBC answers
           best as it is (uf20-01: 0.33 s, against 4.2 s with L in
           [0, 3]).  N-level models only: on two levels, where close and
           sat prove before ilp runs, --ilp-engine cbc won with it (HDFS
           Zipf 1, 10^3 tasks, affine: 30 s open -> 1.9 s proven) but lost
           20% on 200 tasks of 201 affine pieces (0.43 -> 0.52 s).  Its
           optimum is the piece's either way: the bound is valid. */
        int col = L_column(P);
        if (col && (!sv->levels || glp_get_col_type(P, col) != GLP_DB))
            col = 0;
        int type = col ? glp_get_col_type(P, col) : 0;
        double lo = col ? glp_get_col_lb(P, col) : 0,
               hi = col ? glp_get_col_ub(P, col) : 0;
        if (col && lo > 0)
            glp_set_col_bnds(P, col, GLP_DB, 0.0, hi);
        hta_status cst = hta_cbc_start(P, sv->heur_ok ? sv->heur : NULL,
                                       &sv->job, d);
        if (col && lo > 0)
            glp_set_col_bnds(P, col, type, lo, hi);
        if (cst != HTA_OK)
            return PIECE_ERROR;
    }
    if (e != HTA_ILP_ENGINE_CBC) {
        out = run_mip(sv, P, lp_bound, d);
        if (out == PIECE_DONE)
            sv->res->proved_by |= 1;
    } else {
        sv->res->solved++;
        pc->proved = fmax(pc->lb, round_up_bound(sv, lp_bound));
    }
    if (sv->job && out != PIECE_DONE && out != PIECE_ERROR) {
        hta_cbc_answer ans;
        wait_cbc(sv, &ans);
        out = take_cbc(sv, &ans, out, d);
    }
    hta_cbc_finish(sv->job);
    sv->job = NULL;
    return out;
}

/* One piece through GLPK; runs inside hta_glpk_guard. */
static hta_status solve_piece(void *ctx, hta_diag *d)
{
    solver *sv = ctx;
    piece *pc = (piece *)sv->pc;
    double wl, c, L_lo, L_hi;
    piece_range(sv, &wl, &c, &L_lo, &L_hi);
    if (L_lo > L_hi) {
        pc->proved = sv->best_span;
        return HTA_OK;
    }
    glp_prob *P = ilp_build_model(sv, L_lo, L_hi, sv->scale != 0);
    if (!P)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    sv->heur_ok = 0;
    sv->have_tree_bound = 0;
    if (!sv->opts->plain && !sv->cutoff && isfinite(sv->best_span) &&
        sv->opts->model == HTA_ILP_COMPACT && !sv->levels) {
        free(sv->heur);
        sv->heur = malloc(((size_t)sv->ncols + 1) * sizeof *sv->heur);
        sv->heur_ok = sv->heur && ilp_incumbent_solution(sv, wl, c);
    }
    double lp_bound = 0;
    outcome out = run_lp(sv, P, &lp_bound, d);
    if (out == PIECE_DONE)
        sv->res->proved_by |= 1;
    if (out == PIECE_SEARCH)
        out = search_piece(sv, P, lp_bound, d);
    if (out == PIECE_STOPPED)
        pc->proved = pc->lb;
    if (out == PIECE_STOPPED || out == PIECE_STOPPED_BOUND)
        sv->res->status = HTA_ILP_FEASIBLE; /* marked as unfinished */
    glp_delete_prob(P);
    return out == PIECE_ERROR ? HTA_ERR_INTERNAL : HTA_OK;
}

/* Whether the model is not built at all (res says why). */
static int ilp_skipped(const hta_instance *inst, const hta_ilp_opts *opts,
                       hta_ilp_result *res)
{
    if (inst->m > opts->max_tasks) {
        res->status = HTA_ILP_SKIPPED;
        snprintf(res->detail, sizeof res->detail,
                 "skipped (too large): %ld tasks > --ilp-max-tasks %lld",
                 (long)inst->m, (long long)opts->max_tasks);
        return 1;
    }
    if (opts->model == HTA_ILP_NAIVE && hta_levels(inst) > 2) {
        res->status = HTA_ILP_SKIPPED;
        snprintf(res->detail, sizeof res->detail,
                 "skipped: the naive model has two levels");
        return 1;
    }
    if (opts->model == HTA_ILP_NAIVE &&
        (double)inst->m * (double)inst->n > 2e8) {
        res->status = HTA_ILP_SKIPPED;
        snprintf(res->detail, sizeof res->detail,
                 "skipped (too large for the naive model)");
        return 1;
    }
    return 0;
}

/* A growing top level past LEVEL_PIECES_MAX (the levels below it of
 * constant cost): the decision "makespan < incumbent" as the pieces of
 * toplevel.h at T, the greatest load below the incumbent.  Piece
 * [r0, r1] is the N-level model (ilplev.h) with the top at w_rem(r1) and
 * at most r1 top tasks, L <= T (below the incumbent by the cutoff when
 * the costs scale to integers): every assignment of makespan <= T with a
 * top count in [r0, r1] is a solution (its rooms at w_rem(r1) are those
 * at its own cost, toplevel.h), and a solution is an assignment whose
 * top tasks cost w_rem(r) <= w_rem(r1), of makespan <= L.  So every
 * piece infeasible proves the incumbent optimal; a solution is a better
 * incumbent, and the pieces are cut again at its T.  A piece's optimum
 * overprices the top below T, so it bounds nothing: the bound is the
 * caller's until every piece is refuted.  *np = 0 when no load lies
 * below the incumbent (proven), -1 past HTA_TOPLEVEL_MAX_LOADS. */
static hta_status cut_top_pieces(solver *sv, piece **out, int *np,
                                 hta_diag *d)
{
    const hta_instance *in = sv->inst;
    int N = hta_levels(in), many = 0;
    hta_toplevel tl;
    *out = NULL;
    *np = -1;
    sv->top_why = "lower loads pass 2e6";
    hta_status st = hta_toplevel_init(&tl, in, sv->best_span, 0, &many, d);
    if (st != HTA_OK || many)
        return st;
    sv->top_T = hta_toplevel_load_below(&tl, sv->best_span);
    hta_toplevel_free(&tl);
    sv->top_why = "load below the incumbent is past 2e7 steps";
    if (isnan(sv->top_T))
        return HTA_OK; /* *np = -1: past the steps */
    sv->top_why = NULL;
    *np = 0;
    if (!(sv->top_T >= sv->opts->lower_bound))
        return HTA_OK; /* nothing between the bound and the incumbent */
    if ((st = hta_toplevel_init(&tl, in, sv->top_T, 0, &many, d)) !=
            HTA_OK ||
        many) {
        *np = many ? -1 : 0;
        sv->top_why = many ? "lower loads pass 2e6" : NULL;
        return st;
    }
    size_t cap = 0;
    piece *p = NULL;
    for (int64_t r0 = 0; r0 <= in->m;) {
        if (*np == HTA_TOPLEVEL_MAX_PIECES ||
            (sv->opts->stop && *sv->opts->stop) ||
            hta_clock_now() >= sv->deadline) {
            free(p); /* too many pieces, or no time: not searched */
            hta_toplevel_free(&tl);
            sv->top_why = *np == HTA_TOPLEVEL_MAX_PIECES ?
                              "pieces below the incumbent pass 4096" :
                              "pieces were not cut in the time";
            *np = -1;
            return HTA_OK;
        }
        int64_t r1 = hta_toplevel_piece_end(&tl, r0);
        if (!HTA_RESERVE(p, cap, (size_t)*np + 1)) {
            free(p);
            hta_toplevel_free(&tl);
            *np = -1;
            return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory");
        }
        piece *pc = &p[(*np)++];
        memset(pc, 0, sizeof *pc);
        pc->cl[0] = in->w_loc;
        for (int l = 2; l <= N; l++) {
            pc->cl[l - 1] = hta_level_cost(in, l, l == N ? r1 : 0);
            pc->Rl[l - 1] = l == N ? r1 : in->m;
        }
        pc->c = pc->cl[N - 1];
        pc->R = r1;
        pc->lb = sv->opts->lower_bound;
        r0 = r1 + 1;
    }
    hta_toplevel_free(&tl);
    *out = p;
    sv->top_mode = 1;
    return HTA_OK;
}

/* The pieces of the cost functions, each with its lower bound, in
 * increasing order of it; *np = -1 when the model is not built (res
 * says why). */
static hta_status ilp_pieces(solver *sv, piece **piecesp, int *np,
                             int64_t **f, hta_diag *d)
{
    const hta_instance *inst = sv->inst;
    const hta_ilp_opts *opts = sv->opts;
    hta_ilp_result *res = sv->res;
    hta_status st;
    int64_t K = 0;
    piece *pieces = NULL;
    if ((st = ilp_build_groups(sv, d)) != HTA_OK)
        goto out;
    if (sv->levels) {
        int too_big = 0;
        if ((st = ilp_build_level_pieces(inst, &pieces, np, d)) != HTA_OK)
            goto out;
        /* a growing top level past the combinations (or asked):
           decisions below the incumbent */
        int top = (*np < 0 || sv->top_pieces) &&
                  hta_toplevel_applies(inst) &&
                  !hta_wrem_is_constant(&inst->wrem) &&
                  isfinite(sv->best_span);
        if (top) {
            free(pieces);
            pieces = NULL;
            if ((st = cut_top_pieces(sv, &pieces, np, d)) != HTA_OK)
                goto out;
        }
        /* one piece without caps: constant costs, pooled (ilplev.h) */
        int pooled = !top && *np == 1;
        for (int l = 2; pooled && l <= hta_levels(inst); l++)
            pooled = pieces[0].Rl[l - 1] >= inst->m;
        if (*np > 0 &&
            (st = hta_ilplev_init(&sv->lev, inst, sv->order, sv->group_first,
                                  sv->ngroups, pooled, LEVEL_COLS_MAX,
                                  &too_big, d)) != HTA_OK)
            goto out;
        if (too_big || *np < 0) {
            /* nothing searched: the incumbent stays, with the bound */
            res->status = HTA_ILP_SKIPPED;
            snprintf(res->detail, sizeof res->detail,
                     too_big ? "skipped (too large): the %d-level model "
                               "passes %g columns" :
                               "skipped: the %d levels' costs have more "
                               "than %g combinations of values%s%s",
                     hta_levels(inst),
                     too_big ? (double)LEVEL_COLS_MAX :
                               (double)LEVEL_PIECES_MAX,
                     sv->top_why ? ", and the growing top's " : "",
                     sv->top_why ? sv->top_why : "");
            goto out;
        }
    } else if ((st = ilp_build_pieces(&inst->wrem, inst->m, &pieces, np, d)) !=
                   HTA_OK ||
               (st = hta_maxcover_sweep(inst, NULL, NULL, f, &K, d)) !=
                   HTA_OK) {
        goto out;
    }
    res->pieces = *np;
    /* each piece's flow bound scans the thresholds: at 10^6 pieces (affine
     * costs at 10^6 tasks) 30 s; past the deadline or a stop the pieces
     * left keep the caller's bound, valid for every piece */
    int polled = 0;
    for (int i = 0; i < *np; i++) {
        if (!sv->levels && !polled && i % 1024 == 1023 &&
            ((opts->stop && *opts->stop) || hta_clock_now() >= sv->deadline))
            polled = 1;
        pieces[i].lb = fmax(opts->plain ? 0.0 : opts->lower_bound,
                            sv->levels || polled ?
                                pieces[i].lb :
                                hta_bound_flow_piece(inst, *f, K,
                                                     pieces[i].c,
                                                     pieces[i].R));
        pieces[i].proved = pieces[i].lb;
    }
    qsort(pieces, (size_t)*np, sizeof *pieces, ilp_cmp_piece);
out:
    *piecesp = pieces;
    return st;
}

/* The result once the pieces are searched: the bound (the least of
 * the pieces' proven bounds), the status, and the detail line. */
static void ilp_finish(const solver *sv, const piece *pieces, int np,
                       int unfinished)
{
    const hta_ilp_opts *opts = sv->opts;
    hta_ilp_result *res = sv->res;
    /* L^O = min over pieces of their optima >= min of proven bounds; a
       growing top's pieces bound nothing until every one is refuted */
    double bound = INFINITY;
    for (int i = 0; i < np; i++)
        bound = fmin(bound, pieces[i].proved);
    bound = fmin(bound, sv->best_span);
    if (sv->top_mode && unfinished)
        bound = opts->lower_bound;
    res->bound = fmax(opts->plain ? 0.0 : opts->lower_bound, bound);
    res->makespan = sv->best_span;
    if (!isfinite(sv->best_span))
        res->status = HTA_ILP_TIME_LIMIT;
    else if (sv->best_span - res->bound <= 1e-9 * fmax(1.0, sv->best_span))
        res->status = HTA_ILP_OPTIMAL;
    else
        res->status = HTA_ILP_FEASIBLE;
    static const char *const by[] = {"", " by GLPK", " by CBC",
                                     " by GLPK and CBC"};
    char cbc[48] = "";
    if (opts->engine != HTA_ILP_ENGINE_GLPK)
        snprintf(cbc, sizeof cbc, " (GLPK), %lld (CBC)",
                 (long long)res->cbc_nodes);
    /* CBC's failure, when it is why the search stopped short */
    int failed = unfinished && res->cbc_failed[0] &&
                 hta_clock_now() < sv->deadline &&
                 !(opts->stop && *opts->stop);
    char pn[16];
    snprintf(pn, sizeof pn, "%d", np);
    snprintf(res->detail, sizeof res->detail,
             "%s%d%s%s%s pieces solved%s, %lld nodes%s%s",
             res->improved ? "improved on the incumbent; " : "",
             res->solved, sv->top_mode ? "" : " of ", sv->top_mode ? "" : pn,
             sv->top_mode ? "" : sv->levels ? " cost" : " w_rem",
             opts->engine == HTA_ILP_ENGINE_GLPK ? "" : by[res->proved_by & 3],
             (long long)res->nodes, cbc,
             !unfinished || failed ? "" :
             opts->stop && *opts->stop ? ", stopped by an interrupt" :
                                         ", stopped by the time limit");
    size_t len = strlen(res->detail);
    if (sv->top_mode) { /* rounds of pieces of the top count, first */
        char head[48];
        snprintf(head, sizeof head, "w_rem(r) on top, %d round%s of pieces; ",
                 res->rounds + 1, res->rounds ? "s" : "");
        size_t hl = strlen(head);
        if (hl + len < sizeof res->detail) {
            memmove(res->detail + hl, res->detail, len + 1);
            memcpy(res->detail, head, hl);
            len += hl;
        }
    }
    if (failed && len + 2 < sizeof res->detail)
        snprintf(res->detail + len, sizeof res->detail - len, "; %s",
                 res->cbc_failed);
}

static void solver_free(solver *sv)
{
    hta_ilplev_free(&sv->lev);
    free(sv->a);
    free(sv->heur);
    free(sv->vals);
    free(sv->ia);
    free(sv->ja);
    free(sv->ar);
    free(sv->loc);
    free(sv->nloc);
    free(sv->nrem);
    free(sv->first_col);
    free(sv->pool);
    free(sv->group_of);
    free(sv->group_rep);
    free(sv->group_size);
    free(sv->order);
    free(sv->group_first);
}

hta_status hta_ilp_solve(const hta_instance *inst, const hta_ilp_opts *opts,
                         int32_t *best, hta_ilp_result *res, hta_diag *d)
{
    return ilp_solve(inst, opts, 0, best, res, d);
}

hta_status ilp_solve(const hta_instance *inst, const hta_ilp_opts *opts,
                     int top_pieces, int32_t *best, hta_ilp_result *res,
                     hta_diag *d)
{
    memset(res, 0, sizeof *res);
    res->makespan = INFINITY;
    res->bound = opts->lower_bound;
    if (opts->engine < HTA_ILP_ENGINE_GLPK ||
        opts->engine > HTA_ILP_ENGINE_BOTH)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "ilp: unknown engine %d", (int)opts->engine);
    if (opts->engine != HTA_ILP_ENGINE_GLPK && !hta_cbc_available())
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "ilp: this hta was built without CBC (build it "
                            "with make CBC=yes)");
    if (ilp_skipped(inst, opts, res))
        return HTA_OK;
    solver sv;
    memset(&sv, 0, sizeof sv);
    sv.inst = inst;
    sv.opts = opts;
    sv.res = res;
    sv.best = best;
    sv.best_span = INFINITY;
    sv.levels = hta_levels(inst) > 2;
    sv.top_pieces = top_pieces;
    sv.started = hta_clock_now();
    sv.deadline = sv.started + opts->time_limit;
    piece *pieces = NULL;
    int np = 0;
    int64_t *f = NULL;
    hta_status st = HTA_OK;
    int certified = 0;
    if (opts->incumbent && !opts->plain) {
        hta_eval ev;
        if ((st = hta_eval_run(inst, opts->incumbent, &ev, d)) != HTA_OK)
            goto cleanup;
        sv.best_span = ev.makespan;
        hta_eval_free(&ev);
        memcpy(best, opts->incumbent, (size_t)inst->m * sizeof *best);
        /* Certificate: nothing to search when the incumbent meets the
         * bound. */
        if (sv.best_span - opts->lower_bound <=
            1e-9 * fmax(1.0, sv.best_span)) {
            res->status = HTA_ILP_OPTIMAL;
            res->makespan = sv.best_span;
            res->bound = sv.best_span;
            snprintf(res->detail, sizeof res->detail,
                     "certificate: the incumbent meets the lower bound, "
                     "GLPK not run");
            certified = 1;
        }
    }
    if (certified && !opts->write_lp)
        goto cleanup;
    sv.a = malloc((size_t)inst->m * sizeof *sv.a);
    if (!sv.a) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto cleanup;
    }
    if ((st = ilp_pieces(&sv, &pieces, &np, &f, d)) != HTA_OK ||
        res->status == HTA_ILP_SKIPPED)
        goto cleanup;
    if (opts->write_lp) {
        sv.pc = &pieces[0];
        sv.scale = ilp_piece_scale(&sv, &pieces[0]);
        if ((st = hta_glpk_guard(write_model, &sv, opts->verbose, d)) !=
            HTA_OK)
            goto cleanup;
    }
    if (certified)
        goto cleanup;
    int unfinished = 0;
    for (;;) {
        double before = sv.best_span;
        for (int i = 0; i < np; i++) {
            piece *pc = &pieces[i];
            if (!opts->plain && pc->lb >= sv.best_span)
                break; /* this and every later piece cannot improve */
            if ((opts->stop && *opts->stop) ||
                hta_clock_now() >= sv.deadline) {
                unfinished = 1;
                break;
            }
            sv.pc = pc;
            sv.scale = ilp_piece_scale(&sv, pc);
            res->status = HTA_ILP_OPTIMAL;
            st = hta_glpk_guard(solve_piece, &sv, opts->verbose, d);
            hta_cbc_finish(sv.job); /* left running by an abort out of GLPK */
            sv.job = NULL;
            if (st != HTA_OK)
                goto cleanup;
            if (res->status == HTA_ILP_FEASIBLE)
                unfinished = 1;
            if (sv.top_mode && sv.best_span < before)
                break; /* a better incumbent: its own pieces */
        }
        if (!sv.top_mode || unfinished || !(sv.best_span < before))
            break;
        free(pieces);
        pieces = NULL;
        res->rounds++;
        if ((st = cut_top_pieces(&sv, &pieces, &np, d)) != HTA_OK)
            goto cleanup;
        if (np < 0) { /* too many loads below the new incumbent */
            np = 0;
            unfinished = 1;
            break;
        }
    }
    ilp_finish(&sv, pieces, np, unfinished);
cleanup:
    solver_free(&sv);
    free(pieces);
    free(f);
    return st;
}
