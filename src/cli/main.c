/* hta: the command-line front end, a table of subcommands. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glpk.h>
#include <igraph_version.h>

#include "hta/version.h"
#include "cli.h"

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
    {"plot", cmd_plot,
     "a sweep's chart redrawn from --csv files (a split sweep's parts)"},
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
               "'hta --version' (-V) prints the versions.\n"
               "'hta help formats': the files; 'hta help policy': a "
               "scheduling policy of your own.\n");
}

/* An executable named name on PATH. */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *e = strchr(path, ':');
        size_t len = e ? (size_t)(e - path) : strlen(path);
        char buf[PATH_MAX];
        if (len > 0 && len + strlen(name) + 2 <= sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, name);
            if (access(buf, X_OK) == 0)
                return 1;
        }
        path = e ? e + 1 : NULL;
    }
    return 0;
}

/* 'hta help PAGE': the installed manual page hta-PAGE(SECTION), beside
 * this binary (PREFIX/bin/hta, PREFIX/share/man/manS/hta-PAGE.S), shown
 * by man(1) when both are there; returns only when they are not. */
static void show_page(const char *page, int section)
{
    char exe[PATH_MAX], file[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || !on_path("man"))
        return;
    exe[n] = '\0';
    for (int up = 0; up < 2; up++) { /* PREFIX/bin/hta -> PREFIX */
        char *slash = strrchr(exe, '/');
        if (!slash)
            return;
        *slash = '\0';
    }
    snprintf(file, sizeof file, "%s/share/man/man%d/hta-%s.%d", exe,
             section, page, section);
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    fflush(NULL);
    static char man[] = "man", local[] = "-l";
    char *args[] = {man, local, file, NULL};
    execvp("man", args);
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
        /* hta help CMD [KIND]: the command's manual page where man and
         * the page are installed, else CMD [KIND] --help; hta help
         * formats: hta-formats(5); hta help policy: hta-policy(7) */
        static char help_arg[] = "--help";
        char *args[4] = {argv[2], argc > 3 ? argv[3] : help_arg, help_arg,
                         NULL};
        static const struct {
            const char *page;
            int section;
        } pages[] = {{"formats", 5}, {"policy", 7}};
        for (size_t i = 0; i < sizeof pages / sizeof *pages; i++)
            if (strcmp(argv[2], pages[i].page) == 0 && argc == 3) {
                show_page(pages[i].page, pages[i].section);
                fprintf(stderr,
                        "hta: the page hta-%s(%d) is not installed beside "
                        "this hta, or man(1) is missing ('make install'; its "
                        "source: src/cli/doc/hta-%s.%d.scd)\n",
                        pages[i].page, pages[i].section, pages[i].page,
                        pages[i].section);
                return 2;
            }
        for (const cli_command *c = cli_commands; c->name; c++)
            if (strcmp(argv[2], c->name) == 0) {
                show_page(c->name, 1);
                return c->run(argc > 3 ? 3 : 2, args);
            }
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
