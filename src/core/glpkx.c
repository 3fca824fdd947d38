/* GLPK guard: error hook with longjmp, output control. */
#include "hta/glpkx.h"

#include <setjmp.h>
#include <stdio.h>

#include <glpk.h>

static jmp_buf guard_jmp;

static void on_error(void *info)
{
    (void)info;
    longjmp(guard_jmp, 1);
}

static int to_stderr(void *info, const char *s)
{
    (void)info;
    fputs(s, stderr);
    return 1; /* handled: GLPK prints nothing itself */
}

static int to_nowhere(void *info, const char *s)
{
    (void)info;
    (void)s;
    return 1;
}

hta_status hta_glpk_guard(hta_glpk_fn fn, void *ctx, int verbose,
                          hta_diag *d)
{
    glp_term_out(verbose ? GLP_ON : GLP_OFF);
    glp_term_hook(verbose ? to_stderr : to_nowhere, NULL);
    glp_error_hook(on_error, NULL);
    hta_status st;
    if (setjmp(guard_jmp) == 0) {
        st = fn(ctx, d);
    } else {
        /* GLPK is unusable after an error: start over with a new
         * environment (the next glp_* call creates it). */
        glp_free_env();
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                          "GLPK stopped on an internal error");
    }
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    return st;
}
