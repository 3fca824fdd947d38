/* hta import: placements from real clusters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/fsck.h"
#include "hta/jobs.h"
#include "hta/levels.h"
#include "cli.h"

/* Modes: the two formats. */
#define M_FSCK 1u
#define M_SWIM 2u
static const char *const mode_names[] = {"fsck", "swim"};

static const cli_opt options[] = {
    {"w-loc", 0, OPT_REAL, 0, 1e300, OPT_OPEN_LO, 0, 0, NULL, M_FSCK, "X",
     "local cost w_loc (default 1)"},
    {"w-rem", 0, OPT_REALS, 0, 1e300, OPT_OPEN_LO, 1, CLI_MAX_LIST, NULL,
     M_FSCK, "V[,V...]",
     "remote cost table: w_rem(r) = V_min(r,k), non-decreasing,\n"
     ">= w_loc (default 3)"},
    {"w-rem-affine", 0, OPT_REALS, 0, 1e300, 0, 2, 2, NULL, M_FSCK, "A,B",
     "remote cost w_rem(r) = A + B*r (A >= w_loc, B >= 0)"},
    CLI_LEVEL_COST_OPTS(M_FSCK),
    {"rack-depth", 0, OPT_INT, 1, HTA_MAX_LEVELS - 2, 0, 0, 0, NULL, M_FSCK,
     "N",
     "keep the last N names of each rack path (/dc1/rack3 at 1:\n"
     "/rack3); with --w-rack, N is the levels priced: 1, or 2\n"
     "with --w-pod (default: the whole path)"},
    {"strict", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_FSCK, NULL,
     "a MISSING block is an error, not a warning"},
    {"block-mb", 0, OPT_REAL, 0, 1e9, OPT_OPEN_LO, 0, 0, NULL, M_SWIM, "B",
     "block size in MiB: one unit of work (default 64, Hadoop 1)"},
    {"slot-seconds", 0, OPT_REAL, 0, 1e9, OPT_OPEN_LO, 0, 0, NULL, M_SWIM,
     "S", "seconds a machine takes for one block: one slot\n"
          "(default 10)"},
    {"reducer-mb", 0, OPT_REAL, 0, 1e12, OPT_OPEN_LO, 0, 0, NULL, M_SWIM,
     "B", "shuffle MiB per reduce task (default 1024)"},
    {"output", 'o', OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "write the instance or trace here (default: standard output)"},
};

static const cli_spec spec = {
    "import", "fsck FILE [options] | hta import swim FILE [options]",
    "fsck: reads the output of `hdfs fsck <path> -files -blocks -locations\n"
    "[-racks]` (Hadoop 2 and 3) and writes an instance: a task per block, a\n"
    "server per datanode, with the block ids, datanodes and racks as name\n"
    "lines.  MISSING blocks have no replica: each is reported on stderr\n"
    "with its line and left out (--strict: an error instead).  With\n"
    "--w-rack (and --w-pod) the racks become locality levels: w_level\n"
    "lines, every datanode needing a rack path of as many names as levels\n"
    "priced (/rack with --w-rack, /pod/rack with --w-pod too;\n"
    "--rack-depth 1 reads /dc1/rack3 as /rack3).\n"
    "swim: reads a SWIM workload (Facebook 2009/2010 traces: name, submit\n"
    "seconds, gap, input bytes, shuffle bytes, output bytes, tab-separated)\n"
    "and writes a job trace for hta flowtime: a job submitted at s seconds\n"
    "arrives in slot floor(s / S) + 1, map work ceil(input / B) units (at\n"
    "least 1), reduce work ceil(shuffle / B) units split evenly over\n"
    "ceil(shuffle / reducer-mb) tasks; no shuffle: a map-only job.\n",
    options, (int)(sizeof options / sizeof options[0]), 2, 2, mode_names};

static int import_swim(const cli_args *a)
{
    const double mib = 1048576.0;
    hta_swim_opts o = {64 * mib, 10, 1024 * mib};
    if (cli_has(a, "block-mb"))
        o.block_bytes = cli_value(a, "block-mb")->x * mib;
    if (cli_has(a, "slot-seconds"))
        o.slot_seconds = cli_value(a, "slot-seconds")->x;
    if (cli_has(a, "reducer-mb"))
        o.reducer_bytes = cli_value(a, "reducer-mb")->x * mib;
    const char *path = cli_str(a, "output");
    int code;
    if ((code = cli_check_outputs(a, &path, 1, &a->pos[1], 1)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_jobs *J = NULL;
    hta_status st = hta_jobs_from_swim(a->pos[1], &o, &J, &d);
    char comment[600];
    if (st == HTA_OK) {
        int64_t maponly = 0;
        for (int64_t i = 0; i < J->n; i++)
            maponly += J->roff[i + 1] == J->roff[i];
        snprintf(comment, sizeof comment,
                 "hta import swim %.200s --block-mb %g --slot-seconds %g "
                 "--reducer-mb %g\n%lld jobs (%lld map-only), %lld units "
                 "of work, last arrival slot %lld",
                 a->pos[1], o.block_bytes / mib, o.slot_seconds,
                 o.reducer_bytes / mib, (long long)J->n, (long long)maponly,
                 (long long)J->work, (long long)J->arrival[J->n - 1]);
    }
    if (st == HTA_OK)
        st = cli_write_jobs(J, path, comment, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_jobs_free(J);
    return code;
}

int cmd_import(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    int swim = strcmp(args.pos[0], "swim") == 0;
    if (!swim && strcmp(args.pos[0], "fsck") != 0)
        return cli_usage_error(&args, "unknown format '%s' (expected fsck "
                                      "or swim)",
                               args.pos[0]);
    if (!cli_check_modes(&args, swim ? M_SWIM : M_FSCK))
        return HTA_ERR_USAGE;
    if (swim)
        return import_swim(&args);
    double w_loc, *store = NULL, *lstore[2] = {NULL, NULL};
    hta_wrem w, wlev[2];
    int nlev = 0;
    const char *path = cli_str(&args, "output");
    if ((code = cli_costs(&args, &w_loc, &w, &store)) != 0)
        return code;
    if ((code = cli_level_costs(&args, wlev, lstore, &nlev)) != 0)
        goto done;
    int depth = cli_has(&args, "rack-depth") ?
                    (int)cli_value(&args, "rack-depth")->i : 0;
    hta_diag d;
    hta_diag_clear(&d);
    if (hta_fsck_check_depth(nlev, depth, &d) != HTA_OK) {
        code = cli_usage_error(&args, "%s", d.msg);
        goto done;
    }
    if ((code = cli_check_outputs(&args, &path, 1, &args.pos[1], 1)) != 0)
        goto done;
    cli_catch_signals();
    hta_instance *inst = NULL;
    hta_fsck_result res = {0};
    hta_status st = hta_fsck_import(args.pos[1], w_loc, &w,
                                    cli_has(&args, "strict"), &inst, &res, &d);
    if (st == HTA_OK && nlev &&
        hta_levels_check_costs(w_loc, &w, wlev, nlev, inst->m, &d) != HTA_OK) {
        /* the options disagree, whatever the file: a usage error, once
           the file gave the r = 0..m the tables are checked for */
        code = cli_usage_error(&args, "%s", d.msg);
        goto out;
    }
    if (st == HTA_OK && (nlev || depth))
        st = hta_fsck_set_levels(inst, args.pos[1], &res, wlev, nlev, depth,
                                 &d);
    if (st == HTA_OK) {
        for (int64_t i = 0; i < res.nwarnings; i++)
            fprintf(stderr, "%s:%ld: warning: %s\n", args.pos[1],
                    res.warnings[i].line, res.warnings[i].text);
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
out:
    hta_fsck_result_free(&res);
    hta_instance_free(inst);
done:
    free(store);
    free(lstore[0]);
    free(lstore[1]);
    return code;
}
