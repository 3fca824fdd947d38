/* A failing-malloc shim for the out-of-memory tests: with
 * HTA_FAIL_AFTER=N in the environment, the first N allocations succeed
 * and every later one fails (NULL, errno ENOMEM), as under a memory limit.
 * Built as a shared object and loaded with LD_PRELOAD by tests/oom/run.sh.
 * Counting starts when main starts (the shim wraps __libc_start_main):
 * the libraries' own start-up (GLib, GnuTLS, pulled in by igraph's
 * libxml2) is not hta's to handle. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static long budget = -2; /* -2: not read yet, -1: unlimited */
static int armed;         /* main has started */

static int allowed(void)
{
    if (!armed)
        return 1;
    if (budget == -2) {
        const char *s = getenv("HTA_FAIL_AFTER");
        budget = s ? strtol(s, NULL, 10) : -1;
    }
    if (budget == -1)
        return 1;
    if (budget == 0) {
        errno = ENOMEM;
        return 0;
    }
    budget--;
    return 1;
}

void *malloc(size_t n)
{
    static void *(*real)(size_t);
    if (!real)
        real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    return allowed() ? real(n) : NULL;
}

void *calloc(size_t k, size_t n)
{
    static void *(*real)(size_t, size_t);
    if (!real) {
        /* dlsym may calloc: serve it from a static block */
        static char early[4096];
        static int busy;
        if (busy)
            return memset(early, 0, sizeof early);
        busy = 1;
        real = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
        busy = 0;
    }
    return allowed() ? real(k, n) : NULL;
}

int posix_memalign(void **p, size_t align, size_t n)
{
    static int (*real)(void **, size_t, size_t);
    if (!real)
        real = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT,
                                                        "posix_memalign");
    return allowed() ? real(p, align, n) : ENOMEM;
}

void *realloc(void *p, size_t n)
{
    static void *(*real)(void *, size_t);
    if (!real)
        real = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    return allowed() ? real(p, n) : NULL;
}

typedef int (*main_fn)(int, char **, char **);
static main_fn real_main;

static int armed_main(int argc, char **argv, char **envp)
{
    armed = 1;
    return real_main(argc, argv, envp);
}

int __libc_start_main(main_fn main, int argc, char **argv,
                      void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end);
int __libc_start_main(main_fn main, int argc, char **argv,
                      void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end)
{
    int (*real)(main_fn, int, char **, void (*)(void), void (*)(void),
                void (*)(void), void *) =
        (int (*)(main_fn, int, char **, void (*)(void), void (*)(void),
                 void (*)(void), void *))dlsym(RTLD_NEXT, "__libc_start_main");
    real_main = main;
    return real(armed_main, argc, argv, init, fini, rtld_fini, stack_end);
}
