/* hta decode: a truth assignment from an assignment of makespan <= 3 on a
 * reduction instance (Fischer-Su-Yin, Lemmas 3.5-3.10). */
#include <stdio.h>
#include <stdlib.h>

#include "hta/assign.h"
#include "hta/cnf.h"
#include "hta/reduce.h"
#include "cli.h"

static const cli_spec spec = {
    "decode", "FORMULA.cnf ASSIGNMENT",
    "Rebuilds the reduction instance of FORMULA (hta gen sat), reads an\n"
    "assignment for it and, when its makespan is <= 3, derives a truth\n"
    "assignment, checks it against every clause and prints it as\n"
    "\"s SATISFIABLE\" and \"v ... 0\" lines.  Exit 5 when the makespan\n"
    "exceeds 3: such an assignment proves nothing.\n",
    NULL, 0, 2, 2, NULL};

int cmd_decode(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_cnf *f = NULL;
    hta_reduction *r = NULL;
    int32_t *a = NULL;
    signed char *model = NULL;
    hta_status st = hta_cnf_parse(args.pos[0], &f, &d);
    if (st == HTA_OK)
        st = hta_reduce_build(f, &r, &d);
    if (st == HTA_OK)
        st = hta_assign_parse(args.pos[1], r->inst, &a, &d);
    if (st == HTA_OK && (st = hta_reduce_decode(r, a, &model, &d)) ==
                            HTA_ERR_NOPROOF)
        d.path = args.pos[1];
    if (st == HTA_OK) {
        hta_model_write(stdout, model, f->nvars);
        code = cli_finish_stdout(0);
    } else {
        code = cli_report(st, &d);
    }
    free(model);
    free(a);
    hta_reduce_free(r);
    hta_cnf_free(f);
    return code;
}
