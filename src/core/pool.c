/* The pool of threads for independent runs (pool.h). */
#include "hta/pool.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

typedef struct pool {
    pthread_mutex_t lock;
    int next, n;
    hta_job_fn fn;
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

void hta_pool_run(int threads, int n, hta_job_fn fn, void *ctx,
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

int hta_threads_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

double hta_mem_usable(void)
{
    double mem = (double)sysconf(_SC_PHYS_PAGES) *
                 (double)sysconf(_SC_PAGESIZE);
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (!(mem > 0) || (double)rl.rlim_cur < mem))
        mem = (double)rl.rlim_cur;
    return mem > 0 ? mem : 0;
}

int hta_pool_fit(int threads, int n, double bytes_per_run)
{
    int t = threads < n ? threads : n;
    double mem = hta_mem_usable(), each = bytes_per_run + 80.0 * 1048576;
    if (mem > 0 && each > 0 && (double)t * each > mem / 2)
        t = (int)(mem / 2 / each);
    return t < 1 ? 1 : t;
}
