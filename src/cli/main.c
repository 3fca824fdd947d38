/* hta: the command-line front end, a table of subcommands. */
#include <stdio.h>
#include <string.h>

#include <glpk.h>
#include <igraph_version.h>

#include "hta/version.h"
#include "cli.h"

#ifndef HTA_VERSION
#define HTA_VERSION "0.3.0"
#endif

const cli_command cli_commands[] = {
    {"solve", cmd_solve,
     "best assignment, lower bound and gaps (rr, fsy, ilp, brute)"},
    {"eval", cmd_eval, "makespan and loads of a given assignment"},
    {"gen", cmd_gen,
     "generate: hdfs, sat, random3sat, cluster, rr-replica, rr-worst,\n"
     "               jobs"},
    {"capacity", cmd_capacity,
     "capacity region: rho*, inside/boundary/outside, bottleneck"},
    {"sim", cmd_sim,
     "online schedulers (JSQ-MaxWeight, Pandas, GB-PANDAS, FCFS)"},
    {"reduce-place", cmd_rplace,
     "ReduceTask placement: random, greedy, threshold, receding horizon"},
    {"flowtime", cmd_flowtime,
     "map-then-reduce flow time: SRPT bound, ASRPT, FIFO, fair, exact"},
    {"import", cmd_import,
     "real inputs: hdfs fsck placements, SWIM job traces"},
    {"decode", cmd_decode,
     "a satisfying truth assignment from a reduction's assignment"},
    {NULL, NULL, NULL},
};

static void help(FILE *f)
{
    fprintf(f, "hta %s: the Hadoop task assignment optimizer\n\n"
               "usage: hta COMMAND [options]\n\ncommands:\n",
            HTA_VERSION);
    for (const cli_command *c = cli_commands; c->name; c++)
        fprintf(f, "  %-12s %s\n", c->name, c->summary);
    fprintf(f, "\n'hta help COMMAND' or 'hta COMMAND --help' describes a "
               "command;\n'hta gen KIND --help' a generator.  "
               "'hta --version' (-V) prints the versions.\n");
}

static int version(void)
{
    printf("hta %s\nigraph %s\nGLPK %s\nCBC %s\n", HTA_VERSION,
           IGRAPH_VERSION, glp_version(), hta_cbc_version());
    return cli_finish_stdout(0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        help(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0)
        return version();
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        (strcmp(cmd, "help") == 0 && argc == 2)) {
        help(stdout);
        return cli_finish_stdout(0);
    }
    if (strcmp(cmd, "help") == 0) {
        /* hta help CMD [KIND] is CMD [KIND] --help */
        static char help_arg[] = "--help";
        char *args[4] = {argv[2], argc > 3 ? argv[3] : help_arg, help_arg,
                         NULL};
        for (const cli_command *c = cli_commands; c->name; c++)
            if (strcmp(argv[2], c->name) == 0)
                return c->run(argc > 3 ? 3 : 2, args);
        fprintf(stderr, "hta: unknown command '%s' (usage: 'hta --help')\n",
                argv[2]);
        return 2;
    }
    for (const cli_command *c = cli_commands; c->name; c++)
        if (strcmp(cmd, c->name) == 0)
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "hta: unknown command '%s' (usage: 'hta --help')\n", cmd);
    return 2;
}
