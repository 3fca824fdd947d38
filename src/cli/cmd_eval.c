/* hta eval: the evaluation of a given assignment (Definitions 2, 6, 7). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/outfile.h"

#include <errno.h>
#include "hta/solve.h"
#include "cli.h"
#include "hta/chart.h"
#include "report.h"

static const cli_opt options[] = {
    {"json", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "as JSON, with the per-server counts and loads"},
    {"loads", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "also list every server's local, remote (on N levels the tasks at\n"
     "each level) and load, with its name where the instance has one"},
    {"plot", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE.svg",
     "an SVG chart of the loads, each level's work in its colour\n"
     "(as hta solve --plot)"},
    {"exact", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "also the optimum: hta solve's exact portfolio (close, ilp,\n"
     "sat; brute or ilp on N levels) from this assignment, and the\n"
     "gap to the optimum, or the best bound proven in the time"},
    {"time-limit", 0, OPT_REAL, 0, 1e9, OPT_OPEN_LO, 0, 0, NULL, 0, "S",
     "--exact: seconds (default 60)"},
};

static const cli_spec spec = {
    "eval", "INSTANCE ASSIGNMENT [--json] [--loads] [--plot FILE.svg] "
            "[--exact [--time-limit S]]",
    "Prints the makespan L^A, the total load H^A, the local and remote\n"
    "counts and the remote cost w_rem(r^A) of an assignment; on an\n"
    "instance with w_level lines also the tasks and the cost in force at\n"
    "each locality level (remote counts every task not local).  Then the\n"
    "lower bound hta solve prints (flow, or level flow on N levels) and\n"
    "the gap to it: how far the assignment can be from the optimum at\n"
    "most; with --exact the optimum as hta solve --algo exact proves it,\n"
    "starting from this assignment, and the gap to it.\n"
    "Servers are named as the instance names them (name server lines,\n"
    "hta import fsck's datanodes).\n",
    options, (int)(sizeof options / sizeof options[0]), 2, 2, NULL};

/* The bound, the gap to it, and with --exact the optimum (what hta
 * solve proved from the assignment given). */
static void json_gaps(const hta_solve_result *r, double span, int exact)
{
    fputs(",\n \"lower_bound\": ", stdout);
    json_number(stdout, r->lower_bound);
    fputs(", \"lower_bound_source\": ", stdout);
    json_string(stdout, r->bound_source);
    fputs(", \"gap\": ", stdout);
    json_number(stdout, hta_solve_gap(r, span));
    if (!exact)
        return;
    int proven = hta_solve_proven(r);
    fputs(",\n \"exact\": {\"results\": ", stdout);
    report_rows_json(r, stdout);
    fputs(", \"best\": ", stdout);
    json_number(stdout, r->best_span);
    printf(", \"proven_optimal\": %s, \"optimum\": ",
           proven ? "true" : "false");
    json_number(stdout, proven ? r->best_span : NAN);
    fputs(", \"gap_optimum\": ", stdout);
    json_number(stdout, proven && r->best_span > 0 ?
                            (span - r->best_span) / r->best_span : NAN);
    char why[HTA_SOLVE_WHY_MAX];
    fputs(", \"why_not_proven\": ", stdout);
    if (hta_solve_why_unproven(r, why, sizeof why))
        json_string(stdout, why);
    else
        fputs("null", stdout);
    printf(", \"interrupted\": %s}", r->interrupted ? "true" : "false");
}

static void text_gaps(const hta_solve_result *r, double span, int exact)
{
    char x[32], y[32];
    if (exact)
        report_rows_text(r, stdout);
    report_real(x, r->lower_bound);
    printf("lower bound %s (%s)\n", x, r->bound_source);
    double g = hta_solve_gap(r, span);
    if (isnan(g))
        printf("gap - (no positive bound)\n");
    else
        printf("gap %.2f%% (at most this far above the optimum)\n",
               100.0 * g);
    if (!exact)
        return;
    report_real(x, r->best_span);
    if (hta_solve_proven(r)) {
        double go = r->best_span > 0 ? (span - r->best_span) / r->best_span : 0;
        if (span <= r->best_span)
            printf("optimum %s proven: the assignment is optimal\n", x);
        else
            printf("optimum %s proven (%s): the assignment is %.2f%% above "
                   "it\n",
                   x, r->rows[hta_solve_best_row(r)].algorithm, 100.0 * go);
    } else {
        /* the time limit, an interruption, or no engine that applies
           (each skipped row's note says why, as hta solve prints it) */
        char why[HTA_SOLVE_WHY_MAX];
        hta_solve_why_unproven(r, why, sizeof why);
        int applies = strncmp(why, "no exact engine", 15) != 0;
        report_real(y, r->lower_bound);
        printf("optimum not proven%s: between %s and %s (%s)%s%s\n",
               r->interrupted ? " (interrupted)" :
               applies        ? " in the time limit" :
                                "",
               y, x, r->rows[hta_solve_best_row(r)].algorithm,
               applies ? "" : "; ", applies ? "" : why);
    }
}

static void print_json(const hta_instance *inst, const hta_eval *ev,
                       const hta_solve_result *r, int exact)
{
    fputs("{\"makespan\": ", stdout);
    json_number(stdout, ev->makespan);
    fputs(", \"total\": ", stdout);
    json_number(stdout, ev->total);
    printf(", \"local\": %lld, \"remote\": %lld, \"w_rem_r\": ",
           (long long)ev->local, (long long)ev->remote);
    json_number(stdout, ev->w_rem_r);
    if (ev->levels > 2) {
        /* N levels (levels.h): tasks and the cost in force per level */
        printf(", \"levels\": [");
        for (int l = 0; l < ev->levels; l++) {
            printf("%s{\"level\": %d, \"tasks\": %lld, \"cost\": ",
                   l ? ", " : "", l + 1, (long long)ev->count[l]);
            json_number(stdout, ev->cost[l]);
            putchar('}');
        }
        putchar(']');
    }
    printf(", \"argmax\": %ld", (long)ev->argmax);
    if (hta_instance_name(inst, 's', ev->argmax)) {
        fputs(", \"argmax_name\": ", stdout);
        json_string(stdout, hta_instance_name(inst, 's', ev->argmax));
    }
    printf(",\n \"servers\": [");
    int64_t cursor = 0;
    for (int32_t s = 0; s < inst->n_declared; s++) {
        int32_t loc, rem;
        double load;
        hta_eval_server(inst, ev, s, &cursor, &loc, &rem, &load);
        printf("%s{", s ? ", " : "");
        if (hta_instance_name(inst, 's', s)) {
            fputs("\"name\": ", stdout);
            json_string(stdout, hta_instance_name(inst, 's', s));
            fputs(", ", stdout);
        }
        printf("\"local\": %ld, \"remote\": %ld", (long)loc, (long)rem);
        if (ev->nlev) {
            fputs(", \"levels\": [", stdout);
            for (int l = 0; l < ev->levels; l++)
                printf("%s%lld", l ? ", " : "",
                       (long long)ev->nlev[(int64_t)s * ev->levels + l]);
            putchar(']');
        }
        fputs(", \"load\": ", stdout);
        json_number(stdout, load);
        putchar('}');
    }
    putchar(']');
    json_gaps(r, ev->makespan, exact);
    puts("}");
}

static void print_text(const hta_instance *inst, const hta_eval *ev,
                       int loads, const hta_solve_result *r, int exact)
{
    char x[32];
    report_real(x, ev->makespan);
    printf("makespan %s (server %ld%s%s)\n", x, (long)ev->argmax,
           hta_instance_name(inst, 's', ev->argmax) ? " " : "",
           hta_instance_name(inst, 's', ev->argmax) ? hta_instance_name(inst, 's', ev->argmax) : "");
    report_real(x, ev->total);
    printf("total %s\n", x);
    printf("local %lld\nremote %lld\n", (long long)ev->local,
           (long long)ev->remote);
    report_real(x, ev->w_rem_r);
    printf("w_rem(r) %s\n", x);
    for (int l = 0; ev->levels > 2 && l < ev->levels; l++) {
        report_real(x, ev->cost[l]);
        printf("level %d tasks %lld cost %s\n", l + 1,
               (long long)ev->count[l], x);
    }
    int64_t cursor = 0;
    for (int32_t s = 0; loads && s < inst->n_declared; s++) {
        int32_t loc, rem;
        double load;
        hta_eval_server(inst, ev, s, &cursor, &loc, &rem, &load);
        report_real(x, load);
        printf("server %ld", (long)s);
        if (hta_instance_name(inst, 's', s))
            printf(" name %s", hta_instance_name(inst, 's', s));
        if (ev->nlev) {
            fputs(" levels", stdout);
            for (int l = 0; l < ev->levels; l++)
                printf("%s%lld", l ? "/" : " ",
                       (long long)ev->nlev[(int64_t)s * ev->levels + l]);
        } else {
            printf(" local %ld remote %ld", (long)loc, (long)rem);
        }
        printf(" load %s\n", x);
    }
    text_gaps(r, ev->makespan, exact);
}

int cmd_eval(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    int exact = cli_has(&args, "exact");
    if (cli_has(&args, "time-limit") && !exact)
        return cli_usage_error(&args, "--time-limit applies to --exact only");
    const char *plot = cli_str(&args, "plot");
    if ((code = cli_check_outputs(&args, &plot, 1, args.pos, 2)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    int32_t *a = NULL;
    hta_eval ev = {0};
    hta_status st = hta_instance_parse(args.pos[0], &inst, &d);
    if (st == HTA_OK)
        st = hta_assign_parse(args.pos[1], inst, &a, &d);
    if (st == HTA_OK)
        st = hta_eval_run(inst, a, &ev, &d);
    /* the bound, and with --exact the portfolio, from the assignment */
    hta_solve_opts so;
    hta_solve_opts_default(&so);
    so.given = a;
    so.nalgos = exact ? 1 : 0;
    so.algos[0] = HTA_ALGO_EXACT;
    so.stop = &cli_interrupted;
    if (cli_has(&args, "time-limit"))
        so.time_limit = cli_value(&args, "time-limit")->x;
    hta_solve_result res;
    int solved = 0;
    if (st == HTA_OK) {
        cli_poll_interrupts();
        st = hta_solve(inst, &so, &res, &d);
        solved = st == HTA_OK;
        cli_output_phase();
    }
    hta_outfile out = {0};
    if (st == HTA_OK && plot) {
        char title[600];
        snprintf(title, sizeof title, "%s: %s, makespan %.6g", args.pos[0],
                 args.pos[1], ev.makespan);
        errno = 0;
        if ((st = hta_outfile_open(&out, plot, &d)) == HTA_OK &&
            (st = hta_plot_loads(inst, &ev, res.lower_bound, title,
                                 out.f)) != HTA_OK) {
            if (st == HTA_ERR_INTERNAL)
                hta_diag_set(&d, st, plot, 0, "out of memory");
            else
                hta_diag_set(&d, st, plot, 0, "write error: %s",
                             strerror(errno ? errno : EIO));
        }
        if (st == HTA_OK)
            st = hta_outfile_commit(&out, &d);
        hta_outfile_abort(&out);
    }
    if (st != HTA_OK) {
        code = cli_report(st, &d);
    } else {
        if (cli_has(&args, "json"))
            print_json(inst, &ev, &res, exact);
        else
            print_text(inst, &ev, cli_has(&args, "loads"), &res, exact);
        code = cli_finish_stdout(res.interrupted ? cli_interrupt_code() : 0);
    }
    if (solved)
        hta_solve_result_free(&res);
    hta_eval_free(&ev);
    free(a);
    hta_instance_free(inst);
    return code;
}
