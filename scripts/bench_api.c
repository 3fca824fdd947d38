/* The C library call that make bench-python compares the Python package
 * with: reads an instance (untimed), copies its CSR arrays, then times
 * hta_instance_build on them and hta_solve (rr,fsy), as hta.solve on
 * hta.Instance.from_arrays does.  Prints "build_s solve_s best".
 * usage: bench_api INSTANCE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/hta.h"

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *in = NULL;
    if (hta_instance_parse(argv[1], &in, &d) != HTA_OK)
        return 3;
    size_t m = (size_t)in->m, E = (size_t)in->edges;
    int64_t *off = malloc((m + 1) * sizeof *off);
    int32_t *srv = malloc(E * sizeof *srv);
    if (!off || !srv)
        return 1;
    memcpy(off, in->task_off, (m + 1) * sizeof *off);
    memcpy(srv, in->task_srv, E * sizeof *srv);
    double t0 = hta_clock_now();
    hta_instance *b = NULL;
    if (hta_instance_build(in->m, in->n_declared, in->w_loc, &in->wrem, off,
                           srv, &b, &d) != HTA_OK)
        return 1;
    double t1 = hta_clock_now();
    hta_solve_opts o;
    hta_solve_opts_default(&o);
    hta_solve_result r;
    if (hta_solve(b, &o, &r, &d) != HTA_OK)
        return 1;
    double t2 = hta_clock_now();
    char x[32];
    hta_format_real(x, r.best_span);
    printf("%.6f %.6f %s\n", t1 - t0, t2 - t1, x);
    hta_solve_result_free(&r);
    hta_instance_free(b);
    hta_instance_free(in);
    free(off);
    free(srv);
    return 0;
}
