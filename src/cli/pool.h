/* Runs a command's independent runs (sweep points, policies) on a pool
 * of threads, so that `--threads N` changes how fast, never what: every
 * job writes only its own result slot, the caller prints the slots in
 * job order once the pool is done, so the output is the same bytes for
 * every N.  Part of the command line, not of the library.
 */
#ifndef HTA_CLI_POOL_H
#define HTA_CLI_POOL_H

#include <signal.h>

#include "hta/progress.h"
#include "cli.h"

typedef void (*cli_job_fn)(void *ctx, int job);

/* Jobs 0..n-1, each once, on at most `threads` threads (the caller's
 * among them), taken in order; no job starts once *stop is set (the
 * caller tells the runs that did by its own slots).  Where a thread
 * cannot be created the jobs run on fewer. */
void cli_pool_run(int threads, int n, cli_job_fn fn, void *ctx,
                  volatile sig_atomic_t *stop);

/* The processors available (at least 1): --threads' default. */
int cli_threads_default(void);

/* One progress line shared by the pool's runs: cli_pool_progress is an
 * hta_progress_fn whose context is a cli_pool_line, safe to call from
 * every thread; NULL when quiet or stderr is not a terminal. */
typedef struct cli_pool_line cli_pool_line;
hta_progress_fn cli_pool_progress_fn(int quiet);
void cli_pool_progress(void *ctx, const hta_progress *p);
cli_pool_line *cli_pool_line_get(void);
void cli_pool_line_end(void);

/* The --threads option, as every command that has it declares it. */
#define CLI_OPT_THREADS                                                    \
    {"threads", 0, OPT_INT, 1, 1024, 0, 0, 0, NULL, 0, "N",                \
     "runs at once, one a thread (default: the processors available;\n"   \
     "the output is the same for every N)"}

/* --threads' value, or the default. */
int cli_threads(const cli_args *a);

#endif
