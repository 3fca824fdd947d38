/* hta gen: instance generators (same seed, same bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hta/gen.h"
#include "hta/outfile.h"

static const char usage[] =
    "hta gen hdfs --tasks M --servers N [--replicas 3] [--zipf S] "
    "[--w-loc X] [--w-rem V[,V...] | --w-rem-affine A,B] [--seed S] "
    "[-o FILE]";
static const char help[] =
    "\nWrites an instance (format v1) to FILE or standard output.\n"
    "  hdfs      every task gets --replicas distinct servers, uniformly or\n"
    "            with Zipf(S) server popularity (--zipf S, S > 0: hot spots)\n"
    "  --w-loc X              local cost (default 1)\n"
    "  --w-rem V[,V...]       remote cost table w_rem(r) = V_min(r,k)\n"
    "                         (default 3)\n"
    "  --w-rem-affine A,B     remote cost w_rem(r) = A + B*r\n"
    "  --seed S               random seed (default 1)\n";

static const cli_option options[] = {
    {"tasks", 0, 1},  {"servers", 0, 1}, {"replicas", 0, 1},
    {"zipf", 0, 1},   {"w-loc", 0, 1},   {"w-rem", 0, 1},
    {"w-rem-affine", 0, 1}, {"seed", 0, 1}, {"output", 'o', 1},
};

/* Parses "V,V,..." into a table or "A,B" into an affine w_rem. */
static int parse_wrem(const cli_args *a, hta_wrem *w, double **store)
{
    const char *table = cli_get(a, "w-rem"), *aff = cli_get(a, "w-rem-affine");
    if (table && aff)
        return cli_usage_error(a, "give --w-rem or --w-rem-affine, not both"),
               0;
    const char *s = aff ? aff : table ? table : "3";
    size_t count = 1;
    for (const char *p = s; *p; p++)
        count += *p == ',';
    double *v = malloc(count * sizeof *v);
    if (!v)
        return 0;
    const char *p = s;
    for (size_t i = 0; i < count; i++) {
        char *end;
        v[i] = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0')) {
            free(v);
            cli_usage_error(a, "expected numbers separated by commas, found "
                               "'%s'",
                            s);
            return 0;
        }
        p = end + (*end == ',');
    }
    *store = v;
    if (aff) {
        if (count != 2) {
            cli_usage_error(a, "--w-rem-affine expects A,B, found '%s'", s);
            return 0;
        }
        w->kind = HTA_WREM_AFFINE;
        w->a = v[0];
        w->b = v[1];
    } else {
        w->kind = HTA_WREM_TABLE;
        w->k = (int64_t)count - 1;
        w->v = v;
    }
    return 1;
}

int cmd_gen(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, argc, argv, "gen", usage, help, options,
                   (int)(sizeof options / sizeof options[0]), 1, 1, &code))
        return code;
    if (strcmp(args.pos[0], "hdfs") != 0)
        return cli_usage_error(&args, "unknown generator '%s'", args.pos[0]);
    int64_t m = 0, n = 0, k = 3, seed = 1;
    hta_gen_hdfs_params p;
    memset(&p, 0, sizeof p);
    p.w_loc = 1.0;
    double *store = NULL;
    if (!cli_has(&args, "tasks") || !cli_has(&args, "servers"))
        return cli_usage_error(&args, "--tasks and --servers are required");
    if (!cli_int(&args, "tasks", 1, HTA_MAX_TASKS, &m) ||
        !cli_int(&args, "servers", 1, HTA_MAX_SERVERS, &n) ||
        !cli_int(&args, "replicas", 1, HTA_MAX_SERVERS, &k) ||
        !cli_int(&args, "seed", 0, INT64_MAX, &seed) ||
        !cli_real(&args, "zipf", 0.0, &p.zipf) ||
        !cli_real(&args, "w-loc", 0.0, &p.w_loc) ||
        !parse_wrem(&args, &p.wrem, &store))
        return HTA_ERR_USAGE;
    p.tasks = (int32_t)m;
    p.servers = (int32_t)n;
    p.replicas = (int32_t)k;
    p.seed = (uint64_t)seed;
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    hta_outfile out = {0};
    hta_status st = hta_gen_hdfs(&p, &inst, &d);
    char comment[256];
    snprintf(comment, sizeof comment,
             "hta gen hdfs --tasks %lld --servers %lld --replicas %lld "
             "--zipf %g --seed %lld",
             (long long)m, (long long)n, (long long)k, p.zipf,
             (long long)seed);
    const char *path = cli_get(&args, "output");
    if (st == HTA_OK)
        st = hta_outfile_open(&out, path ? path : "-", &d);
    if (st == HTA_OK &&
        (st = hta_instance_write(inst, out.f, comment)) != HTA_OK)
        hta_diag_set(&d, st, path ? path : "<stdout>", 0, "write error");
    if (st == HTA_OK)
        st = hta_outfile_commit(&out, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_outfile_abort(&out);
    hta_instance_free(inst);
    free(store);
    return code;
}
