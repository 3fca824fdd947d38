/* Command-line helpers: option parsing and error printing. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "hta/instance.h"
#include "hta/outfile.h"

#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile sig_atomic_t cli_interrupted = 0;

static void on_interrupt(int sig)
{
    cli_interrupted = 1;
    signal(sig, SIG_DFL);
}

void cli_catch_interrupt(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cli_usage_error(const cli_args *a, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "hta %s: ", a->command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (usage: 'hta %s --help')\n", a->command);
    return HTA_ERR_USAGE;
}

int cli_report(hta_status st, const hta_diag *d)
{
    char buf[800];
    hta_diag_format(d, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return (int)st;
}

static int find(const cli_args *a, const char *name)
{
    for (int i = 0; i < a->noptions; i++)
        if (strcmp(a->options[i].name, name) == 0)
            return i;
    return -1;
}

const char *cli_get(const cli_args *a, const char *name)
{
    int i = find(a, name);
    return i >= 0 && a->count[i] ? a->value[i] : NULL;
}

int cli_has(const cli_args *a, const char *name)
{
    int i = find(a, name);
    return i >= 0 && a->count[i] > 0;
}

int cli_parse(cli_args *a, int argc, char **argv, const char *command,
              const char *usage, const char *help, const cli_option *opts,
              int nopts, int min_pos, int max_pos, int *exit_now)
{
    memset(a, 0, sizeof *a);
    a->command = command;
    a->usage = usage;
    a->options = opts;
    a->noptions = nopts;
    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_pos || arg[0] != '-' || arg[1] == '\0') {
            if (a->npos >= max_pos || a->npos >= 16) {
                *exit_now = cli_usage_error(a, "unexpected argument '%s'",
                                            arg);
                return 0;
            }
            a->pos[a->npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            printf("usage: %s\n%s", usage, help);
            *exit_now = 0;
            return 0;
        }
        int k = -1;
        const char *inline_val = NULL;
        if (arg[1] == '-') {
            const char *name = arg + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            for (int j = 0; j < nopts; j++)
                if (strlen(opts[j].name) == len &&
                    strncmp(opts[j].name, name, len) == 0)
                    k = j;
            if (eq)
                inline_val = eq + 1;
        } else if (arg[2] == '\0') {
            for (int j = 0; j < nopts; j++)
                if (opts[j].short_name == arg[1])
                    k = j;
        }
        if (k < 0) {
            *exit_now = cli_usage_error(a, "unknown option '%s'", arg);
            return 0;
        }
        if (!opts[k].has_arg && inline_val) {
            *exit_now = cli_usage_error(a, "option '--%s' takes no argument",
                                        opts[k].name);
            return 0;
        }
        const char *val = "";
        if (opts[k].has_arg) {
            if (inline_val)
                val = inline_val;
            else if (i + 1 < argc)
                val = argv[++i];
            else {
                *exit_now = cli_usage_error(a, "option '%s' needs an argument",
                                            arg);
                return 0;
            }
        }
        a->value[k] = val;
        a->count[k]++;
    }
    if (a->npos < min_pos) {
        *exit_now = cli_usage_error(a, "missing argument");
        return 0;
    }
    return 1;
}

int cli_int(const cli_args *a, const char *name, int64_t lo, int64_t hi,
            int64_t *out)
{
    const char *s = cli_get(a, name);
    if (!s)
        return 1;
    errno = 0;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
        cli_usage_error(a, "--%s expects an integer in [%lld, %lld], found "
                           "'%s'",
                        name, (long long)lo, (long long)hi, s);
        return 0;
    }
    *out = (int64_t)v;
    return 1;
}

int cli_real(const cli_args *a, const char *name, double lo, double *out)
{
    const char *s = cli_get(a, name);
    if (!s)
        return 1;
    errno = 0;
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v) ||
        v < lo) {
        cli_usage_error(a, "--%s expects a number >= %g, found '%s'", name,
                        lo, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* Parses "V,V,..." into a table or "A,B" into an affine w_rem. */
int cli_wrem(const cli_args *a, hta_wrem *w, double **store)
{
    const char *table = cli_get(a, "w-rem"), *aff = cli_get(a, "w-rem-affine");
    if (table && aff)
        return cli_usage_error(a, "give --w-rem or --w-rem-affine, not both"),
               0;
    const char *s = aff ? aff : table ? table : "3";
    size_t count = 1;
    for (const char *p = s; *p; p++)
        count += *p == ',';
    double *v = malloc(count * sizeof *v);
    if (!v)
        return 0;
    const char *p = s;
    for (size_t i = 0; i < count; i++) {
        char *end;
        v[i] = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0')) {
            free(v);
            cli_usage_error(a, "expected numbers separated by commas, found "
                               "'%s'",
                            s);
            return 0;
        }
        p = end + (*end == ',');
    }
    *store = v;
    if (aff) {
        if (count != 2) {
            cli_usage_error(a, "--w-rem-affine expects A,B, found '%s'", s);
            return 0;
        }
        w->kind = HTA_WREM_AFFINE;
        w->a = v[0];
        w->b = v[1];
    } else {
        w->kind = HTA_WREM_TABLE;
        w->k = (int64_t)count - 1;
        w->v = v;
    }
    return 1;
}


/* Writes inst to path (or stdout) atomically. */
hta_status cli_write_instance(const hta_instance *inst, const char *path,
                                 const char *comment, hta_diag *d)
{
    hta_outfile out;
    hta_status st = hta_outfile_open(&out, path ? path : "-", d);
    if (st != HTA_OK)
        return st;
    if ((st = hta_instance_write(inst, out.f, comment)) != HTA_OK)
        hta_diag_set(d, st, path ? path : "<stdout>", 0, "write error");
    else
        st = hta_outfile_commit(&out, d);
    hta_outfile_abort(&out);
    return st;
}

