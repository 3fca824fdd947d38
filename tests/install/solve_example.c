/* A program built against the installed library (pkg-config hta): solves
 * the instance given on the command line with hta_solve and prints the
 * best makespan and whether it is proven optimal, which the test compares
 * with what `hta solve` prints. */
#include <stdio.h>

#include <hta/instance.h>
#include <hta/solve.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    if (hta_instance_parse(argv[1], &inst, &d) != HTA_OK) {
        char buf[600];
        hta_diag_format(&d, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
        return 3;
    }
    hta_solve_opts o;
    hta_solve_opts_default(&o);
    hta_solve_result r;
    if (hta_solve(inst, &o, &r, &d) != HTA_OK)
        return 1;
    char x[32];
    hta_format_real(x, r.best_span);
    printf("best %s %s\n", x, hta_solve_proven(&r) ? "proven" : "open");
    hta_solve_result_free(&r);
    hta_instance_free(inst);
    return 0;
}
