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

#include "hta/diag.h"

typedef hta_status (*hta_glpk_fn)(void *ctx, hta_diag *d);

hta_status hta_glpk_guard(hta_glpk_fn fn, void *ctx, int verbose,
                          hta_diag *d);

/* The same, and a stop: every line GLPK writes (progress lines included,
 * which fn asks for at msg_lev GLP_MSG_ON with a short out_frq, since
 * its simplex has no other call-back) polls *stop, and a stop leaves GLPK
 * at once.  Then *stopped is 1 and the status HTA_OK: what fn keeps
 * outside GLPK (an incumbent copied in a branch-and-bound call-back, a
 * bound) stands; fn's GLPK objects are gone. */
hta_status hta_glpk_guard_stop(hta_glpk_fn fn, void *ctx, int verbose,
                               volatile sig_atomic_t *stop, int *stopped,
                               hta_diag *d);

#endif
