/* The commands' --threads and their shared progress line (pool.h). */
#include "pool.h"

#include <pthread.h>

int cli_threads(const cli_args *a)
{
    const cli_val *v = cli_value(a, "threads");
    return v && v->given ? (int)v->i : hta_threads_default();
}

/* ---- one progress line for every thread ---- */

struct cli_pool_line {
    pthread_mutex_t lock;
    cli_progress line;
};

static cli_pool_line shared = {PTHREAD_MUTEX_INITIALIZER, {0, 0}};

cli_pool_line *cli_pool_line_get(void)
{
    return &shared;
}

hta_progress_fn cli_pool_progress_fn(int quiet)
{
    return cli_progress_fn(quiet) ? cli_pool_progress : NULL;
}

void cli_pool_progress(void *ctx, const hta_progress *p)
{
    cli_pool_line *l = ctx;
    pthread_mutex_lock(&l->lock);
    cli_progress_print(&l->line, p);
    pthread_mutex_unlock(&l->lock);
}

void cli_pool_line_end(void)
{
    pthread_mutex_lock(&shared.lock);
    cli_progress_end(&shared.line);
    pthread_mutex_unlock(&shared.lock);
}
