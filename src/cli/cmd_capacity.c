/* hta capacity: is an arrival vector inside the capacity region? */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hta/capacity.h"
#include "hta/outfile.h"
#include "report.h"

static const char usage[] =
    "hta capacity CLUSTER [--method auto|lp|flow|plain] [--interior] "
    "[--decomposition FILE] [--json] [--verbose] | hta capacity "
    "--from-instance INSTANCE --rate R --rates A1,A2[,...] "
    "[--topology K1[,K2...]] [options]";
static const char help[] =
    "\nSolves min rho such that every server's utilisation is <= rho\n"
    "(Wang et al. for two levels, GB-PANDAS for more) and reports rho*,\n"
    "inside / boundary / outside (rho* < 1, = 1 within 1e-7, > 1), the\n"
    "headroom 1/rho* and the bottleneck servers or groups.\n"
    "  --method M           auto (default: flow for two levels, else lp),\n"
    "                       lp (aggregated LP, GLPK), flow (Newton on\n"
    "                       igraph max flows, two levels), plain (the LP\n"
    "                       with one variable per (type, server))\n"
    "  --interior           LP by interior point instead of simplex\n"
    "  --decomposition FILE the rates lambda_{L,m} found\n"
    "  --from-instance F    types from a placement instance: tasks with the\n"
    "                       same replica set form a type, each task adds R\n"
    "  --rates A1,A2,...    service rates, strictly decreasing\n"
    "  --topology K1,...    K1 servers per rack, K2 racks per pod, ...\n";

static const cli_option options[] = {
    {"method", 0, 1},  {"interior", 0, 0},      {"decomposition", 0, 1},
    {"json", 0, 0},    {"verbose", 0, 0},       {"from-instance", 0, 1},
    {"rate", 0, 1},    {"rates", 0, 1},         {"topology", 0, 1},
};

/* "a,b,c" into at most max numbers; 0 on a malformed list. */
static int parse_list(const char *s, double *out, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        out[n++] = strtod(s, &end);
        if (end == s || (*end != ',' && *end != '\0'))
            return 0;
        s = end + (*end == ',');
    }
    return *s ? 0 : n;
}

static const char *const level_names[] = {"", "server", "rack", "pod"};

static void bottleneck_name(const hta_cluster *c, const hta_bottleneck *b,
                            char *buf, size_t size)
{
    if (b->level >= c->levels)
        snprintf(buf, size, "cluster");
    else if (b->level <= 3)
        snprintf(buf, size, "%s %lld", level_names[b->level],
                 (long long)b->group);
    else
        snprintf(buf, size, "level-%d group %lld", b->level,
                 (long long)b->group);
}

int cmd_capacity(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, argc, argv, "capacity", usage, help, options,
                   (int)(sizeof options / sizeof options[0]), 0, 1, &code))
        return code;
    const char *from = cli_get(&args, "from-instance");
    if ((from != NULL) == (args.npos == 1))
        return cli_usage_error(&args, "give a CLUSTER file or "
                                      "--from-instance INSTANCE");
    hta_capacity_opts opts = {HTA_CAP_AUTO, cli_has(&args, "interior"),
                              cli_has(&args, "decomposition"),
                              cli_has(&args, "verbose")};
    const char *method = cli_get(&args, "method");
    if (method) {
        static const char *const names[] = {"auto", "lp", "flow", "plain"};
        int i;
        for (i = 0; i < 4 && strcmp(method, names[i]) != 0; i++)
            ;
        if (i == 4)
            return cli_usage_error(&args, "--method expects auto, lp, flow "
                                          "or plain, found '%s'",
                                   method);
        opts.method = (hta_capacity_method)i;
    }
    hta_diag d;
    hta_diag_clear(&d);
    hta_cluster *c = NULL;
    hta_capacity_result res = {0};
    hta_outfile out = {0};
    hta_status st;
    if (from) {
        double rate = 0, rates[HTA_MAX_LEVELS], topo_d[HTA_MAX_LEVELS];
        int32_t topo[HTA_MAX_LEVELS];
        int nrates = 0, ntopo = 0;
        if (!cli_has(&args, "rate") || !cli_has(&args, "rates"))
            return cli_usage_error(&args, "--from-instance needs --rate and "
                                          "--rates");
        if (!cli_real(&args, "rate", 0.0, &rate))
            return HTA_ERR_USAGE;
        nrates = parse_list(cli_get(&args, "rates"), rates, HTA_MAX_LEVELS);
        if (nrates < 2)
            return cli_usage_error(&args, "--rates expects A1,A2[,...], "
                                          "found '%s'",
                                   cli_get(&args, "rates"));
        if (cli_has(&args, "topology")) {
            ntopo = parse_list(cli_get(&args, "topology"), topo_d,
                               HTA_MAX_LEVELS - 2);
            if (ntopo < 1)
                return cli_usage_error(&args, "--topology expects K1[,K2...]");
            for (int i = 0; i < ntopo; i++) {
                if (!(topo_d[i] >= 1 && topo_d[i] <= HTA_MAX_SERVERS &&
                      topo_d[i] == floor(topo_d[i])))
                    return cli_usage_error(&args, "--topology expects "
                                                  "positive integers");
                topo[i] = (int32_t)topo_d[i];
            }
        }
        hta_instance *inst = NULL;
        st = hta_instance_parse(from, &inst, &d);
        if (st == HTA_OK) {
            st = hta_cluster_from_instance(inst, rate, rates, nrates, topo,
                                           ntopo, &c, &d);
            if (st == HTA_ERR_INPUT || st == HTA_ERR_USAGE) {
                hta_instance_free(inst);
                return cli_usage_error(&args, "%s", d.msg);
            }
        }
        hta_instance_free(inst);
    } else {
        st = hta_cluster_parse(args.pos[0], &c, &d);
    }
    if (st == HTA_OK)
        st = hta_capacity_solve(c, &opts, &res, &d);
    if (st == HTA_ERR_USAGE) {
        code = cli_usage_error(&args, "%s", d.msg);
        goto cleanup;
    }
    const char *decomp = cli_get(&args, "decomposition");
    if (st == HTA_OK && decomp) {
        if ((st = hta_outfile_open(&out, decomp, &d)) == HTA_OK) {
            char buf[32];
            fprintf(out.f, "hta-decomposition 1\n# type server rate level\n");
            for (int64_t i = 0; i < res.ndec; i++) {
                hta_format_real(buf, res.dec_rate[i]);
                fprintf(out.f, "%lld %ld %s %d\n", (long long)res.dec_type[i],
                        (long)res.dec_server[i], buf, res.dec_level[i]);
            }
            st = hta_outfile_commit(&out, &d);
        }
    }
    if (st != HTA_OK) {
        code = cli_report(st, &d);
        goto cleanup;
    }
    static const char *const statuses[] = {"inside", "boundary", "outside"};
    static const char *const methods[] = {"auto", "lp", "flow", "plain"};
    double total = 0;
    for (int64_t L = 0; L < c->T; L++)
        total += c->lambda[L];
    char x[32], y[32];
    if (cli_has(&args, "json")) {
        printf("{\"servers\": %ld, \"types\": %lld, \"levels\": %d, "
               "\"total_rate\": ",
               (long)c->M, (long long)c->T, c->levels);
        hta_json_number(stdout, total);
        printf(", \"method\": \"%s\", \"rho\": ", methods[res.method]);
        hta_json_number(stdout, res.rho);
        printf(", \"status\": \"%s\", \"headroom\": ", statuses[res.status]);
        hta_json_number(stdout, res.rho > 0 ? 1.0 / res.rho : INFINITY);
        fputs(", \"bottlenecks\": [", stdout);
        for (int64_t i = 0; i < res.nbottle; i++) {
            char name[64];
            bottleneck_name(c, &res.bottle[i], name, sizeof name);
            printf("%s{\"level\": %d, \"group\": %lld, \"name\": \"%s\", "
                   "\"dual\": ",
                   i ? ", " : "", res.bottle[i].level,
                   (long long)res.bottle[i].group, name);
            hta_json_number(stdout, res.bottle[i].dual);
            putchar('}');
        }
        puts("]}");
    } else {
        hta_format_real(x, total);
        printf("cluster %s: %ld servers, %lld types, %d levels, total "
               "arrival rate %s\n",
               from ? from : args.pos[0], (long)c->M, (long long)c->T,
               c->levels, x);
        if (res.method == HTA_CAP_FLOW)
            printf("method flow: Newton on max flows, %d igraph calls\n",
                   res.flow_calls);
        else
            printf("method %s LP: %lld rows, %lld columns, %s\n",
                   res.method == HTA_CAP_PLAIN ? "plain" : "aggregated",
                   (long long)res.rows, (long long)res.cols,
                   !opts.interior        ? "simplex" :
                   res.interior_failed   ? "simplex (GLPK's interior point "
                                           "failed)" :
                                           "interior point");
        hta_format_real(x, res.rho);
        printf("rho* %s\n", x);
        if (res.rho > 0) {
            hta_format_real(y, 1.0 / res.rho);
            printf("status %s (headroom 1/rho* = %s)\n", statuses[res.status],
                   y);
        } else {
            printf("status %s (no load)\n", statuses[res.status]);
        }
        printf("bottleneck");
        int64_t shown = res.nbottle < 20 ? res.nbottle : 20;
        for (int64_t i = 0; i < shown; i++) {
            char name[64];
            bottleneck_name(c, &res.bottle[i], name, sizeof name);
            printf("%s %s", i ? "," : "", name);
        }
        if (res.nbottle > shown)
            printf(", ... (%lld in all)", (long long)res.nbottle);
        if (res.nbottle == 0)
            printf(" none");
        putchar('\n');
    }
cleanup:
    hta_outfile_abort(&out);
    hta_capacity_result_free(&res);
    hta_cluster_free(c);
    return code;
}
