/* What the commands add to the library's pool of threads (hta/pool.h),
 * on which they run their independent runs (sweep points, policies) so
 * that `--threads N` changes how fast, never what: the --threads option
 * and one progress line shared by the runs.
 */
#ifndef HTA_CLI_POOL_H
#define HTA_CLI_POOL_H

#include <signal.h>

#include "hta/pool.h"
#include "hta/progress.h"
#include "cli.h"

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
