/* CBC (COIN-OR branch and cut) as a second MIP engine, in a child process.
 *
 * A model built for GLPK (a glp_prob: bounds, kinds, objective and rows)
 * is copied into CBC's column storage and solved by a forked child, which
 * sends back its answer through a pipe.  A process, not a thread: CBC
 * cannot be stopped from outside through its C interface, a process can
 * (SIGKILL), so a time limit, Ctrl-C or the other engine's proof ends it
 * at once, and an abort inside CBC (out of memory in its C++ code) ends
 * the child, not hta.  CBC is given no time limit of its own: it runs
 * until it proves or is killed, so its answers are complete searches
 * (a time limit expiring in its preprocessing can make CBC 2.10 call a
 * feasible model infeasible).
 *
 * Optional at build time (HTA_HAVE_CBC, `make CBC=no` builds without):
 * then hta_cbc_available() is 0 and hta_cbc_start fails.
 *
 * Ownership: a job owns the child and its answer; hta_cbc_finish kills
 * the child if it still runs, reaps it and frees the job.
 */
#ifndef HTA_CBCX_H
#define HTA_CBCX_H

#include <signal.h>

#include <glpk.h>

#include "hta/diag.h"

typedef enum hta_cbc_status {
    HTA_CBC_RUNNING,    /* no answer yet */
    HTA_CBC_OPTIMAL,    /* x is an optimal solution */
    HTA_CBC_INFEASIBLE, /* proved: no integer solution */
    HTA_CBC_FAILED      /* ended without a proof (killed, abandoned) */
} hta_cbc_status;

typedef struct hta_cbc_job hta_cbc_job;

typedef struct hta_cbc_answer {
    hta_cbc_status status;
    double obj;     /* optimum when OPTIMAL */
    const double *x; /* 1-based column values when OPTIMAL (job's) */
    long nodes;     /* branch-and-bound nodes */
    char why[96];   /* FAILED: what happened */
} hta_cbc_answer;

/* Starts CBC on P's MIP; start (1-based column values of a feasible
 * solution) or NULL.  Call inside hta_glpk_guard (it reads P). */
hta_status hta_cbc_start(glp_prob *P, const double *start, hta_cbc_job **job,
                         hta_diag *d);

/* Waits for the answer until the monotonic deadline or *stop (stop may
 * be NULL); a deadline already past looks once without blocking.  Fills
 * ans: RUNNING when the wait ended first (the child still runs). */
void hta_cbc_wait(hta_cbc_job *job, double deadline,
                  volatile sig_atomic_t *stop, hta_cbc_answer *ans);

/* Kills the child if it runs, reaps it, frees the job and its answer. */
void hta_cbc_finish(hta_cbc_job *job);

#endif
