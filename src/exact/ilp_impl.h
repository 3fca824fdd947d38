/* The HTA integer program's models (ilpmodel.c) and its search (ilp.c):
 * what they share.  Internal to src/exact; the design is ilp.c's
 * opening comment.
 *
 * Ownership: the solver owns its scratch arrays (freed by hta_ilp_solve),
 * so that an abort out of GLPK (glpkx.h) leaks nothing.
 */
#ifndef HTA_EXACT_ILP_IMPL_H
#define HTA_EXACT_ILP_IMPL_H

#include <stdint.h>

#include <glpk.h>

#include "hta/ilp.h"
#include "hta/levels.h"
#include "core/cbcx.h"
#include "ilplev.h"

/* N > 2 levels: at most this many combinations of the levels' cost
 * values, and this many columns (else the ILP is skipped). */
#define LEVEL_PIECES_MAX 512
#define LEVEL_COLS_MAX 4000000

typedef struct piece {
    double c;  /* remote cost of the piece */
    int64_t R; /* at most R remote tasks */
    /* N > 2 levels: level l's cost cl[l - 1] and cap Rl[l - 1] (l = 2..N;
     * cl[0] = w_loc; c and R are level N's) */
    double cl[HTA_MAX_LEVELS];
    int64_t Rl[HTA_MAX_LEVELS];
    double lb; /* lower bound on the piece's optimum */
    double proved; /* proven lower bound on the piece's optimum */
} piece;

typedef struct solver {
    const hta_instance *inst;
    const hta_ilp_opts *opts;
    hta_ilp_result *res;
    int32_t *best;          /* best assignment (caller's) */
    double best_span;       /* its makespan, INFINITY if none */
    double deadline;        /* monotonic seconds */
    double last_call;       /* GLPK's last callback (0: none yet) */
    double step;            /* the time between its last two callbacks:
                               what GLPK may run before the next one */
    double lp_seconds;      /* the piece's root LP took */
    double started;
    /* groups of identical tasks */
    int32_t ngroups;
    int32_t *group_of;      /* per task */
    int32_t *group_rep;     /* per group: a task holding the replica set */
    int32_t *group_size;
    int32_t *order;         /* tasks sorted by group */
    int32_t *group_first;   /* per group: start in order */
    /* the current model */
    const piece *pc;
    double scale;           /* costs times scale are integers, 0: not */
    int cutoff;             /* L' <= incumbent' - 1 */
    int32_t *a;             /* work assignment */
    /* Scratch arrays of the functions that run inside hta_glpk_guard:
     * owned here and freed by hta_ilp_solve, so that an abort out of
     * GLPK (a longjmp) leaks nothing (glpkx.h). */
    int *ia, *ja;
    double *ar;
    unsigned char *loc;
    int64_t *nloc, *nrem;
    int32_t *first_col, *pool;
    size_t cap_ia, cap_ja, cap_ar, cap_loc, cap_nloc, cap_nrem, cap_first,
        cap_pool;
    double *heur;           /* heuristic solution, 1-based */
    int heur_ok;
    double tree_bound;      /* best node bound seen (scaled) */
    int have_tree_bound;
    int ncols;
    double *vals;           /* a MIP solution read out, 1-based */
    size_t cap_vals;
    /* N > 2 levels: the model of ilplev.h */
    int levels;
    hta_ilplev lev;
    /* a growing top level past LEVEL_PIECES_MAX (ilp.c): the pieces of
     * toplevel.h at top_T, the greatest load below the incumbent */
    int top_mode;
    const char *top_why; /* why the top's pieces were not cut, or NULL */
    double top_T;
    int top_pieces; /* asked for even within LEVEL_PIECES_MAX */
    /* CBC side by side (HTA_ILP_ENGINE_BOTH) or alone */
    hta_cbc_job *job;       /* the running child, finished by the caller
                               of the guard too (an abort out of GLPK) */
    double next_poll;       /* monotonic seconds */
} solver;

/* hta_ilp_solve, on N levels with a growing top (the levels below it
 * constant) deciding "makespan < incumbent" by pieces of the top count
 * (ilp.c) even within LEVEL_PIECES_MAX combinations of cost values when
 * top_pieces, where one model per combination is the default (the tests
 * compare them); needs an incumbent. */
hta_status ilp_solve(const hta_instance *inst, const hta_ilp_opts *opts,
                     int top_pieces, int32_t *best, hta_ilp_result *res,
                     hta_diag *d);

/* Groups of identical tasks into sv (order, group_first, ...). */
hta_status ilp_build_groups(solver *sv, hta_diag *d);

/* One piece per distinct value of w over r = 0..m (w_rem, or a level's
 * cost); on N > 2 levels one per combination of the levels' pieces, each
 * with its bound, *np = -1 past LEVEL_PIECES_MAX. */
hta_status ilp_build_pieces(const hta_wrem *w, int64_t m, piece **out,
                            int *np, hta_diag *d);
hta_status ilp_build_level_pieces(const hta_instance *in, piece **out,
                                  int *np, hta_diag *d);

/* Pieces by their bound, then by R (qsort). */
int ilp_cmp_piece(const void *x, const void *y);

/* The least D making the piece's costs integers (0: none). */
double ilp_piece_scale(const solver *sv, const piece *pc);

/* The current piece's model (compact, naive or N-level), costs scaled by
 * sv->scale when not 0, L in [L_lo, L_hi] (integer when L_int); NULL on
 * out of memory.  ilp_name_model names its rows and columns. */
glp_prob *ilp_build_model(solver *sv, double L_lo, double L_hi, int L_int);
void ilp_name_model(const solver *sv, glp_prob *P);

/* The incumbent as a solution of the compact model (sv->heur), 1 when it
 * fits the piece's remote cap; 0 also on out of memory. */
int ilp_incumbent_solution(solver *sv, double wl, double c);

/* A MIP solution (1-based column values) as an assignment in sv->a: 1,
 * 0 when it does not add up, -1 out of memory. */
int ilp_read_solution(solver *sv, const double *x);

#endif
