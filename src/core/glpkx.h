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

/* glp_simplex in slices of at most 0.25 s, each going on from the basis
 * the last one left, until it ends, the clock reaches deadline (seconds
 * of hta_clock_now; <= 0: none) or *stop is set (stop may be NULL):
 * GLPK's return code, GLP_ETMLIM when cut.  So a stop or a deadline is
 * seen within a quarter of a second however long the LP is (one call
 * polls nothing).  parm's tm_lim is overwritten. */
int hta_glpk_simplex(glp_prob *P, glp_smcp *parm, double deadline,
                     volatile sig_atomic_t *stop);

#endif
