/* hta import: placements from real clusters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hta/fsck.h"

static const char usage[] =
    "hta import fsck FILE [--w-loc X] [--w-rem V[,V...] | --w-rem-affine "
    "A,B] [--strict] [-o INSTANCE]";
static const char help[] =
    "\nReads the output of `hdfs fsck <path> -files -blocks -locations\n"
    "[-racks]` (Hadoop 2 and 3) and writes an instance: a task per block, a\n"
    "server per datanode, with the block ids, datanodes and racks as name\n"
    "lines.  MISSING blocks have no replica: each is reported on stderr\n"
    "with its line and left out (--strict: an error instead).\n"
    "  --w-loc X, --w-rem ..., --w-rem-affine A,B   costs (default 1, 3)\n";
static const cli_option options[] = {
    {"w-loc", 0, 1},  {"w-rem", 0, 1},     {"w-rem-affine", 0, 1},
    {"strict", 0, 0}, {"output", 'o', 1},
};

int cmd_import(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, argc, argv, "import", usage, help, options,
                   (int)(sizeof options / sizeof options[0]), 2, 2, &code))
        return code;
    if (strcmp(args.pos[0], "fsck") != 0)
        return cli_usage_error(&args, "unknown format '%s' (expected fsck)",
                               args.pos[0]);
    double w_loc = 1.0, *store = NULL;
    hta_wrem w;
    memset(&w, 0, sizeof w);
    if (!cli_real(&args, "w-loc", 0.0, &w_loc) ||
        !cli_wrem(&args, &w, &store))
        return HTA_ERR_USAGE;
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    hta_fsck_result res;
    const char *path = cli_get(&args, "output");
    hta_status st = hta_fsck_import(args.pos[1], w_loc, &w,
                                    cli_has(&args, "strict"), &inst, &res, &d);
    if (st == HTA_ERR_INPUT && !d.path)
        code = cli_usage_error(&args, "%s", d.msg); /* bad cost options */
    else if (st != HTA_OK)
        code = cli_report(st, &d);
    if (st != HTA_OK)
        goto cleanup;
    for (int64_t i = 0; i < res.missing; i++)
        fprintf(stderr, "%s:%ld: warning: MISSING block (no replica) left "
                        "out\n",
                args.pos[1], res.missing_line[i]);
    char comment[300];
    snprintf(comment, sizeof comment,
             "hta import fsck %s: %lld blocks, %lld MISSING left out, %ld "
             "datanodes",
             args.pos[1], (long long)res.blocks, (long long)res.missing,
             (long)inst->n);
    if ((st = cli_write_instance(inst, path, comment, &d)) != HTA_OK)
        code = cli_report(st, &d);
cleanup:
    free(res.missing_line);
    hta_instance_free(inst);
    free(store);
    return code;
}
