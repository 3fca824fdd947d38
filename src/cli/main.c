/* hta: the command-line front end, a table of subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef HTA_VERSION
#define HTA_VERSION "0.1.0"
#endif

const cli_command cli_commands[] = {
    {"solve", cmd_solve, "hta solve INSTANCE [options]",
     "best assignment, lower bound and gaps (rr, fsy, brute)"},
    {"eval", cmd_eval, "hta eval INSTANCE ASSIGNMENT [--json]",
     "makespan and loads of a given assignment"},
    {"gen", cmd_gen, "hta gen KIND [options]",
     "generate instances: hdfs placements, 3SAT reductions, random 3-CNF"},
    {"capacity", cmd_capacity,
     "hta capacity CLUSTER | --from-instance INSTANCE --rate R --rates ...",
     "capacity region: rho*, inside/boundary/outside, bottlenecks"},
    {"import", cmd_import, "hta import fsck FILE [options]",
     "placements from real clusters (hdfs fsck output)"},
    {"decode", cmd_decode, "hta decode FORMULA.cnf ASSIGNMENT",
     "a satisfying truth assignment from a reduction's assignment"},
    {NULL, NULL, NULL, NULL},
};

static void help(FILE *f)
{
    fprintf(f, "hta %s: the Hadoop task assignment optimizer\n\ncommands:\n",
            HTA_VERSION);
    for (const cli_command *c = cli_commands; c->name; c++)
        fprintf(f, "  %-9s %s\n", c->name, c->summary);
    fprintf(f, "\n'hta COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        help(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("hta %s\n", HTA_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        help(stdout);
        return 0;
    }
    for (const cli_command *c = cli_commands; c->name; c++)
        if (strcmp(argv[1], c->name) == 0)
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "hta: unknown command '%s'\n", argv[1]);
    help(stderr);
    return 2;
}
