/* hta capacity: is an arrival vector inside the capacity region? */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/capacity.h"
#include "hta/outfile.h"
#include "cli.h"
#include "report.h"

/* Modes: a cluster file, or types from an instance. */
#define M_FILE 1u
#define M_FROM 2u
static const char *const mode_names[] = {"a CLUSTER file",
                                         "--from-instance"};

static const cli_opt options[] = {
    {"method", 0, OPT_ENUM, 0, 0, 0, 0, 0, "auto|lp|flow|plain|gflow", 0,
     "M",
     "auto (default: flow; lp with --interior), lp (aggregated LP,\n"
     "GLPK), flow (Newton on max flows: Dinic for two levels,\n"
     "generalized flows for more), plain (the LP with one variable\n"
     "per (type, server)), gflow (the generalized flows on any\n"
     "levels, a check of flow)"},
    {"interior", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "LP by interior point instead of simplex (lp, plain)"},
    {"decomposition", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "write the rates lambda_{L,m} found"},
    {"json", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL, "the report as JSON"},
    {"verbose", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "GLPK's output on stderr"},
    {"quiet", 'q', OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "no progress line on stderr (shown only on a terminal)"},
    {"from-instance", 0, OPT_IN, 0, 0, 0, 0, 0, NULL, 0, "F",
     "types from a placement instance: tasks with the same\n"
     "replica set form a type, each task adds R; an N-level\n"
     "instance brings its own racks and pods (N rates)"},
    {"rate", 0, OPT_REAL, 0, 1e300, 0, 0, 0, NULL, M_FROM, "R",
     "arrival rate per task (with --from-instance)"},
    {"rates", 0, OPT_REALS, 0, 1e300, OPT_OPEN_LO, 2, 8, NULL, M_FROM,
     "A1,A2,...", "service rates by level, strictly decreasing"},
    {"topology", 0, OPT_INTS, 1, 16777216, 0, 1, 6, NULL, M_FROM, "K1,...",
     "K1 servers per rack, K2 racks per pod, ..."},
};

static const cli_spec spec = {
    "capacity",
    "CLUSTER [options] | hta capacity --from-instance INSTANCE --rate R "
    "--rates A1,A2[,...] [--topology K1[,K2...]] [options]",
    "Solves min rho such that every server's utilisation is <= rho\n"
    "(Wang et al. for two levels, GB-PANDAS for more) and reports rho*,\n"
    "inside / boundary / outside (rho* < 1, = 1 within 1e-7, > 1), the\n"
    "headroom 1/rho* and the bottleneck: the cluster (every server is busy\n"
    "at the boundary) and the hot servers, whose local demand exceeds what\n"
    "they serve locally (the minimal minimum cut; the same for every\n"
    "method).\n",
    options, (int)(sizeof options / sizeof options[0]), 0, 1, mode_names};

static void bottleneck_name(const hta_cluster *c, const hta_bottleneck *b,
                            char *buf, size_t size)
{
    if (b->level >= c->levels)
        snprintf(buf, size, "cluster");
    else
        snprintf(buf, size, "server %lld", (long long)b->group);
}


static void print_json(const hta_cluster *c, const hta_capacity_result *res,
                       double total)
{
    printf("{\"servers\": %ld, \"types\": %lld, \"levels\": %d, "
           "\"total_rate\": ",
           (long)c->M, (long long)c->T, c->levels);
    json_number(stdout, total);
    printf(", \"method\": \"%s\", \"rho\": ",
           hta_capacity_method_names[res->method]);
    json_number(stdout, res->rho);
    printf(", \"status\": \"%s\", \"headroom\": ",
           hta_capacity_status_names[res->status]);
    json_number(stdout, res->rho > 0 ? 1.0 / res->rho : INFINITY);
    fputs(", \"bottlenecks\": [", stdout);
    for (int64_t i = 0; i < res->nbottle; i++) {
        char name[64];
        bottleneck_name(c, &res->bottle[i], name, sizeof name);
        printf("%s{\"level\": %d, \"group\": %lld, \"name\": \"%s\"}",
               i ? ", " : "", res->bottle[i].level,
               (long long)res->bottle[i].group, name);
    }
    puts("]}");
}

static void print_text(const hta_cluster *c, const hta_capacity_result *res,
                       double total, const char *name, int interior)
{
    char x[32], y[32];
    report_real(x, total);
    printf("cluster %s: %ld servers, %lld types, %d levels, total "
           "arrival rate %s\n",
           name, (long)c->M, (long long)c->T, c->levels, x);
    if (res->method == HTA_CAP_FLOW && c->levels == 2)
        printf("method flow: Newton on max flows, %d max-flow calls\n",
               res->flow_calls);
    else if (res->method == HTA_CAP_FLOW || res->method == HTA_CAP_GFLOW)
        printf("method %s: Newton on generalized max flows, %d max-flow "
               "calls (%lld labellings, %lld Dinic rounds)\n",
               hta_capacity_method_names[res->method], res->flow_calls,
               (long long)res->relabels, (long long)res->rounds);
    else
        printf("method %s LP: %lld rows, %lld columns, %s\n",
               res->method == HTA_CAP_PLAIN ? "plain" : "aggregated",
               (long long)res->rows, (long long)res->cols,
               !interior             ? "simplex" :
               res->interior_failed  ? "simplex (GLPK's interior point "
                                       "failed)" :
                                       "interior point");
    report_real(x, res->rho);
    printf("rho* %s\n", x);
    if (res->rho > 0) {
        report_real(y, 1.0 / res->rho);
        printf("status %s (headroom 1/rho* = %s)\n",
               hta_capacity_status_names[res->status], y);
    } else {
        printf("status %s (no load)\n", hta_capacity_status_names[res->status]);
    }
    printf("bottleneck");
    int64_t shown = res->nbottle < 20 ? res->nbottle : 20;
    for (int64_t i = 0; i < shown; i++) {
        char b[64];
        bottleneck_name(c, &res->bottle[i], b, sizeof b);
        printf("%s %s", i ? "," : "", b);
    }
    if (res->nbottle > shown)
        printf(", ... (%lld in all)", (long long)res->nbottle);
    if (res->nbottle == 0)
        printf(" none");
    putchar('\n');
}

static hta_status write_decomposition(const hta_capacity_result *res,
                                      const char *path, hta_diag *d)
{
    hta_outfile out;
    hta_status st = hta_outfile_open(&out, path, d);
    if (st != HTA_OK)
        return st;
    char buf[32];
    fprintf(out.f, "hta-decomposition 1\n# type server rate level\n");
    for (int64_t i = 0; i < res->ndec; i++) {
        hta_format_real(buf, res->dec_rate[i]);
        fprintf(out.f, "%lld %ld %s %d\n", (long long)res->dec_type[i],
                (long)res->dec_server[i], buf, res->dec_level[i]);
    }
    st = hta_outfile_commit(&out, d);
    hta_outfile_abort(&out);
    return st;
}

/* The cluster from the file or from the instance. */
static hta_status load(const cli_args *a, hta_cluster **c, hta_diag *d)
{
    const char *from = cli_str(a, "from-instance");
    if (!from)
        return hta_cluster_parse(a->pos[0], c, d);
    const cli_val *rates = cli_value(a, "rates"), *topo = cli_value(a, "topology");
    int32_t t[HTA_MAX_LEVELS];
    for (int i = 0; i < topo->n; i++)
        t[i] = (int32_t)topo->list[i];
    hta_instance *inst = NULL;
    hta_status st = hta_instance_parse(from, &inst, d);
    if (st == HTA_OK)
        st = hta_cluster_from_instance(inst, cli_value(a, "rate")->x,
                                       rates->list, rates->n, t, topo->n, c,
                                       d);
    hta_instance_free(inst);
    return st;
}

int cmd_capacity(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    const char *from = cli_str(&args, "from-instance");
    if ((from != NULL) == (args.npos == 1))
        return cli_usage_error(&args, "give a CLUSTER file or "
                                      "--from-instance INSTANCE");
    if (!cli_check_modes(&args, from ? M_FROM : M_FILE))
        return HTA_ERR_USAGE;
    if (from && (!cli_has(&args, "rate") || !cli_has(&args, "rates")))
        return cli_usage_error(&args, "--from-instance needs --rate and "
                                      "--rates");
    const cli_val *rates = cli_value(&args, "rates");
    for (int i = 1; i < rates->n; i++)
        if (!(rates->list[i] < rates->list[i - 1]))
            return cli_usage_error(&args, "--rates must be strictly "
                                          "decreasing, found '%s'",
                                   rates->raw);
    if (cli_value(&args, "topology")->n + 2 > rates->n && from &&
        cli_has(&args, "topology"))
        return cli_usage_error(&args, "--topology K1,...,Kj needs j + 2 "
                                      "rates, found '%s'",
                               rates->raw);
    cli_progress progress = {0, 0};
    hta_capacity_opts opts = {HTA_CAP_AUTO,
                              cli_has(&args, "interior"),
                              cli_has(&args, "decomposition"),
                              cli_has(&args, "verbose"),
                              cli_progress_fn(cli_has(&args, "quiet")),
                              &progress,
                              NULL};
    if (cli_has(&args, "method"))
        opts.method = (hta_capacity_method)cli_value(&args, "method")->e;
    if (opts.interior &&
        (opts.method == HTA_CAP_FLOW || opts.method == HTA_CAP_GFLOW))
        return cli_usage_error(&args, "--interior applies only to the LP "
                                      "methods (lp, plain)");
    if (opts.interior && opts.method == HTA_CAP_AUTO)
        opts.method = HTA_CAP_LP;
    const char *decomp = cli_str(&args, "decomposition");
    if (decomp && strcmp(decomp, "-") == 0)
        return cli_usage_error(&args, "--decomposition - would mix the "
                                      "decomposition with the report on "
                                      "standard output: name a file");
    const char *in = from ? from : args.pos[0];
    if ((code = cli_check_outputs(&args, &decomp, 1, &in, 1)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_cluster *c = NULL;
    hta_capacity_result res = {0};
    hta_status st = load(&args, &c, &d);
    if (st == HTA_OK)
        st = hta_capacity_solve(c, &opts, &res, &d);
    cli_progress_end(&progress);
    if (st == HTA_ERR_USAGE) {
        code = cli_usage_error(&args, "%s", d.msg);
        goto cleanup;
    }
    if (st == HTA_OK && decomp)
        st = write_decomposition(&res, decomp, &d);
    if (st != HTA_OK) {
        code = cli_report(st, &d);
        goto cleanup;
    }
    double total = 0;
    for (int64_t L = 0; L < c->T; L++)
        total += c->lambda[L];
    if (cli_has(&args, "json"))
        print_json(c, &res, total);
    else
        print_text(c, &res, total, in, opts.interior);
    code = cli_finish_stdout(0);
cleanup:
    hta_capacity_result_free(&res);
    hta_cluster_free(c);
    return code;
}
