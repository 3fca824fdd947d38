/* hta import: placements from real clusters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hta/fsck.h"

static const cli_opt options[] = {
    CLI_COST_OPTS,
    {"strict", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "a MISSING block is an error, not a warning"},
    {"output", 'o', OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "INSTANCE",
     "write the instance here (default: standard output)"},
};

static const cli_spec spec = {
    "import", "fsck FILE [options]",
    "Reads the output of `hdfs fsck <path> -files -blocks -locations\n"
    "[-racks]` (Hadoop 2 and 3) and writes an instance: a task per block, a\n"
    "server per datanode, with the block ids, datanodes and racks as name\n"
    "lines.  MISSING blocks have no replica: each is reported on stderr\n"
    "with its line and left out (--strict: an error instead).\n",
    options, (int)(sizeof options / sizeof options[0]), 2, 2, NULL};

int cmd_import(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    if (strcmp(args.pos[0], "fsck") != 0)
        return cli_usage_error(&args, "unknown format '%s' (expected fsck)",
                               args.pos[0]);
    double w_loc, *store = NULL;
    hta_wrem w;
    if ((code = cli_costs(&args, &w_loc, &w, &store)) != 0)
        return code;
    const char *path = cli_str(&args, "output");
    if ((code = cli_check_outputs(&args, &path, 1, &args.pos[1], 1)) != 0) {
        free(store);
        return code;
    }
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    hta_fsck_result res = {0};
    hta_status st = hta_fsck_import(args.pos[1], w_loc, &w,
                                    cli_has(&args, "strict"), &inst, &res, &d);
    if (st == HTA_OK) {
        for (int64_t i = 0; i < res.missing; i++)
            fprintf(stderr, "%s:%ld: warning: MISSING block (no replica) "
                            "left out\n",
                    args.pos[1], res.missing_line[i]);
        char comment[300];
        snprintf(comment, sizeof comment,
                 "hta import fsck %s: %lld blocks, %lld MISSING left out, %ld "
                 "datanodes",
                 args.pos[1], (long long)res.blocks, (long long)res.missing,
                 (long)inst->n);
        st = cli_write_instance(inst, path, comment, &d);
    }
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_fsck_result_free(&res);
    hta_instance_free(inst);
    free(store);
    return code;
}
