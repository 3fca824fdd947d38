/* The command line's pool of runs (pool.h). */
#include "pool.h"

#include <pthread.h>
#include <unistd.h>

typedef struct pool {
    pthread_mutex_t lock;
    int next, n;
    cli_job_fn fn;
    void *ctx;
    volatile sig_atomic_t *stop;
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int job = p->stop && *p->stop ? p->n : p->next;
        if (job < p->n)
            p->next++;
        pthread_mutex_unlock(&p->lock);
        if (job >= p->n)
            return NULL;
        p->fn(p->ctx, job);
    }
}

void cli_pool_run(int threads, int n, cli_job_fn fn, void *ctx,
                  volatile sig_atomic_t *stop)
{
    pool p = {PTHREAD_MUTEX_INITIALIZER, 0, n, fn, ctx, stop};
    int extra = (threads < n ? threads : n) - 1;
    pthread_t tid[1024];
    int started = 0;
    for (int i = 0; i < extra && i < 1024; i++)
        if (pthread_create(&tid[started], NULL, worker, &p) == 0)
            started++;
    worker(&p); /* the caller works too */
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&p.lock);
}

int cli_threads_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

int cli_threads(const cli_args *a)
{
    const cli_val *v = cli_value(a, "threads");
    return v && v->given ? (int)v->i : cli_threads_default();
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
