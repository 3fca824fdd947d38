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

#include "hta/diag.h"

typedef hta_status (*hta_glpk_fn)(void *ctx, hta_diag *d);

hta_status hta_glpk_guard(hta_glpk_fn fn, void *ctx, int verbose,
                          hta_diag *d);

#endif
