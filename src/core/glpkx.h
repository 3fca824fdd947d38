/* Running GLPK safely: GLPK calls abort() on bad arguments, even with its
 * terminal output off.  hta_glpk_guard runs a function with an error hook
 * that longjmps out instead, frees the GLPK environment in that case (every
 * problem object is gone then) and reports an error.  Output is off, or
 * sent to stderr when verbose.
 *
 * Ownership: fn must release its GLPK objects before returning normally;
 * memory it allocates outside GLPK must be owned by the caller of the
 * guard, so an abort cannot leak it.
 */
#ifndef HTA_GLPKX_H
#define HTA_GLPKX_H

#include <signal.h>

#include <glpk.h>

#include "hta/diag.h"

typedef hta_status (*hta_glpk_fn)(void *ctx, hta_diag *d);

hta_status hta_glpk_guard(hta_glpk_fn fn, void *ctx, int verbose,
                          hta_diag *d);

/* Simplex iterations a slice of hta_glpk_simplex runs at most. */
#define HTA_GLPK_SLICE_ITS 1000

/* glp_simplex in slices of HTA_GLPK_SLICE_ITS iterations and at most
 * 0.25 s, each going on from the basis the last one left, until it
 * ends, the clock reaches deadline (seconds of hta_clock_now; <= 0:
 * none) or *stop is set (stop may be NULL): GLPK's return code,
 * GLP_ETMLIM when cut.  So a stop or a deadline is seen within a
 * quarter of a second however long the LP is (one call polls nothing),
 * and where the iterations end a slice (not the clock) every run takes
 * the same path to the same basis.  parm's it_lim and tm_lim are
 * overwritten. */
int hta_glpk_simplex(glp_prob *P, glp_smcp *parm, double deadline,
                     volatile sig_atomic_t *stop);

#endif
