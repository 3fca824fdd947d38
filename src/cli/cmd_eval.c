/* hta eval: the evaluation of a given assignment (Definitions 2, 6, 7). */
#include <stdio.h>
#include <stdlib.h>

#include "hta/assign.h"
#include "cli.h"
#include "report.h"

static const cli_opt options[] = {
    {"json", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "as JSON, with the per-server counts and loads"},
    {"loads", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "also list every server's local, remote and load"},
};

static const cli_spec spec = {
    "eval", "INSTANCE ASSIGNMENT [--json] [--loads]",
    "Prints the makespan L^A, the total load H^A, the local and remote\n"
    "counts and the remote cost w_rem(r^A) of an assignment; on an\n"
    "instance with w_level lines also the tasks and the cost in force at\n"
    "each locality level (remote counts every task not local).\n",
    options, 2, 2, 2, NULL};

static void print_json(const hta_instance *inst, const hta_eval *ev)
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
    printf(", \"argmax\": %ld,\n \"servers\": [", (long)ev->argmax);
    int64_t cursor = 0;
    for (int32_t s = 0; s < inst->n_declared; s++) {
        int32_t loc, rem;
        double load;
        hta_eval_server(inst, ev, s, &cursor, &loc, &rem, &load);
        printf("%s{\"local\": %ld, \"remote\": %ld, \"load\": ", s ? ", " : "",
               (long)loc, (long)rem);
        json_number(stdout, load);
        putchar('}');
    }
    puts("]}");
}

static void print_text(const hta_instance *inst, const hta_eval *ev,
                       int loads)
{
    char x[32];
    hta_format_real(x, ev->makespan);
    printf("makespan %s (server %ld)\n", x, (long)ev->argmax);
    hta_format_real(x, ev->total);
    printf("total %s\n", x);
    printf("local %lld\nremote %lld\n", (long long)ev->local,
           (long long)ev->remote);
    hta_format_real(x, ev->w_rem_r);
    printf("w_rem(r) %s\n", x);
    for (int l = 0; ev->levels > 2 && l < ev->levels; l++) {
        hta_format_real(x, ev->cost[l]);
        printf("level %d tasks %lld cost %s\n", l + 1,
               (long long)ev->count[l], x);
    }
    int64_t cursor = 0;
    for (int32_t s = 0; loads && s < inst->n_declared; s++) {
        int32_t loc, rem;
        double load;
        hta_eval_server(inst, ev, s, &cursor, &loc, &rem, &load);
        hta_format_real(x, load);
        printf("server %ld local %ld remote %ld load %s\n", (long)s,
               (long)loc, (long)rem, x);
    }
}

int cmd_eval(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
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
    if (st != HTA_OK) {
        code = cli_report(st, &d);
    } else {
        if (cli_has(&args, "json"))
            print_json(inst, &ev);
        else
            print_text(inst, &ev, cli_has(&args, "loads"));
        code = cli_finish_stdout(0);
    }
    hta_eval_free(&ev);
    free(a);
    hta_instance_free(inst);
    return code;
}
