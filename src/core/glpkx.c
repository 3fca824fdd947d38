/* GLPK guard: error hook with longjmp, output control. */
#include "core/glpkx.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <glpk.h>

#include "hta/num.h"

static jmp_buf guard_jmp;

static void on_error(void *info)
{
    (void)info;
    longjmp(guard_jmp, 1);
}

/* Whether GLPK wrote of memory since the guard began, to name the cause
 * of an error (GLPK says "no memory available" when an allocation
 * fails). */
static int said_memory;

static void remember(const char *s)
{
    if (strstr(s, "memory"))
        said_memory = 1;
}

static int to_stderr_remembered(void *info, const char *s)
{
    (void)info;
    remember(s);
    fputs(s, stderr);
    return 1;
}

static int to_memory(void *info, const char *s)
{
    (void)info;
    remember(s);
    return 1; /* handled: GLPK prints nothing itself */
}

hta_status hta_glpk_guard(hta_glpk_fn fn, void *ctx, int verbose,
                          hta_diag *d)
{
    /* The environment first, checked: left to itself, GLPK aborts when it
     * cannot allocate it. */
    if (glp_init_env() == 2)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    /* Output stays on, into the hook, so that an error's message is
     * seen; solvers print progress only at their own msg_lev. */
    glp_term_out(GLP_ON);
    glp_term_hook(verbose ? to_stderr_remembered : to_memory, NULL);
    glp_error_hook(on_error, NULL);
    said_memory = 0;
    hta_status st;
    volatile int freed = 0;
    if (setjmp(guard_jmp) == 0) {
        st = fn(ctx, d);
    } else {
        /* GLPK is unusable after an error: start over with a new
         * environment (the next glp_* call creates it). */
        int oom = said_memory;
        /* Freed, the environment has no hooks left to reset, and a GLPK
         * call now would create a new one, aborting when memory is
         * short: none is made. */
        glp_free_env();
        freed = 1;
        st = oom ? hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "out of memory") :
                   hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                "GLPK stopped on an internal error");
    }
    if (!freed) {
        glp_error_hook(NULL, NULL);
        glp_term_hook(NULL, NULL);
    }
    return st;
}

int hta_glpk_simplex(glp_prob *P, glp_smcp *parm, double deadline,
                     volatile sig_atomic_t *stop)
{
    /* Slices of HTA_GLPK_SLICE_ITS iterations, each restarted from the
     * basis the last left: the same path every run (slices of 250 ms
     * restarted where the clock fell, and a degenerate LP ended at
     * another optimal basis: GLPK's branch and bound on zipf-10k then
     * took 949, 1431 or 6119 nodes, 7 s or the whole 60).  A slice
     * also ends after a quarter of a second (a model whose iterations
     * are slow), so that a signal or the deadline is answered. */
    for (;;) {
        double left = deadline > 0 ? deadline - hta_clock_now() : 1e9;
        if (left <= 0 || (stop && *stop))
            return GLP_ETMLIM;
        parm->it_lim = HTA_GLPK_SLICE_ITS;
        parm->tm_lim = (int)fmin(left * 1000.0, 250.0);
        if (parm->tm_lim < 1)
            parm->tm_lim = 1;
        int ret = glp_simplex(P, parm);
        if (ret != GLP_ETMLIM && ret != GLP_EITLIM)
            return ret;
    }
}
