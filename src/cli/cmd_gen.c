/* hta gen: instance, formula and cluster generators (same seed, same
 * bytes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/cnf.h"
#include "hta/gen.h"
#include "hta/jobs.h"
#include "hta/levels.h"
#include "hta/outfile.h"
#include "hta/reduce.h"
#include "hta/topology.h"
#include "cli.h"

#define OUT_OPT(what)                                                      \
    {"output", 'o', OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",               \
     "write " what " here (default: standard output)"}
#define SEED_OPT                                                           \
    {"seed", 0, OPT_INT, 0, CLI_INT64_MAX, 0, 0, 0, NULL, 0, "S",                 \
     "random seed (default 1)"}

/* ---- hta gen hdfs ----------------------------------------------------- */

static const cli_opt options_hdfs[] = {
    {"tasks", 0, OPT_INT, 1, 2147483646, 0, 0, 0, NULL, 0, "M",
     "number of tasks (required)"},
    {"servers", 0, OPT_INT, 1, 16777216, 0, 0, 0, NULL, 0, "N",
     "number of servers (required)"},
    {"replicas", 0, OPT_INT, 1, 16777216, 0, 0, 0, NULL, 0, "K",
     "distinct servers per task (default 3)"},
    {"zipf", 0, OPT_REAL, 0, 100, OPT_OPEN_LO, 0, 0, NULL, 0, "S",
     "Zipf(S) server popularity, S > 0: hot spots (default:\n"
     "uniform)"},
    {"policy", 0, OPT_ENUM, 0, 0, 0, 0, 0, "uniform|rack-aware", 0, "P",
     "uniform (default) or rack-aware: HDFS's default, the second\n"
     "replica in another rack, the third in the second's rack\n"
     "(needs --racks)"},
    {"racks", 0, OPT_INT, 2, 16777216, 0, 0, 0, NULL, 0, "R",
     "rack-aware: R racks of ceil(N/R) consecutive servers"},
    CLI_COST_OPTS,
    CLI_LEVEL_COST_OPTS(0),
    {"pods", 0, OPT_INT, 1, 16777216, 0, 0, 0, NULL, 0, "P",
     "with --w-rack: the racks in P pods of consecutive racks, a\n"
     "fourth level (needs --w-pod)"},
    SEED_OPT,
    OUT_OPT("the instance"),
};

static const cli_spec spec_hdfs = {
    "gen hdfs",
    "--tasks M --servers N [--replicas 3] [--zipf S] "
    "[--policy uniform|rack-aware --racks R] [--w-loc X] "
    "[--w-rem V[,V...] | --w-rem-affine A,B] "
    "[--w-rack V[,V...] | --w-rack-affine A,B "
    "[--pods P --w-pod V[,V...] | --w-pod-affine A,B]] [--seed S] [-o FILE]",
    "HDFS-like placements (format v1): every task gets --replicas distinct\n"
    "servers.  With --w-rack, rack lines and N-level costs (w_level\n"
    "lines): local, rack, [pod,] remote.\n",
    options_hdfs, (int)(sizeof options_hdfs / sizeof options_hdfs[0]), 0, 0,
    NULL};

static int gen_hdfs(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec_hdfs, argc, argv, &code))
        return code;
    if (!cli_has(&args, "tasks") || !cli_has(&args, "servers"))
        return cli_usage_error(&args, "--tasks and --servers are required");
    hta_gen_hdfs_params p;
    memset(&p, 0, sizeof p);
    p.tasks = (int32_t)cli_value(&args, "tasks")->i;
    p.servers = (int32_t)cli_value(&args, "servers")->i;
    p.replicas = cli_has(&args, "replicas") ?
                     (int32_t)cli_value(&args, "replicas")->i :
                     3;
    p.zipf = cli_has(&args, "zipf") ? cli_value(&args, "zipf")->x : 0;
    p.rack_aware = cli_has(&args, "policy") &&
                   cli_value(&args, "policy")->e == 1;
    p.racks = cli_has(&args, "racks") ? (int32_t)cli_value(&args, "racks")->i
                                      : 0;
    p.seed = cli_has(&args, "seed") ? (uint64_t)cli_value(&args, "seed")->i
                                    : 1;
    if (p.replicas > p.servers)
        return cli_usage_error(&args, "--replicas %ld exceeds --servers %ld",
                               (long)p.replicas, (long)p.servers);
    if (p.rack_aware != (p.racks > 0))
        return cli_usage_error(&args, "--policy rack-aware and --racks R go "
                                      "together");
    if (p.rack_aware && !hta_rack_size(p.servers, p.racks))
        return cli_usage_error(&args, "--racks %ld: racks of ceil(%ld/%ld) "
                                      "consecutive servers make another "
                                      "number of racks",
                               (long)p.racks, (long)p.servers,
                               (long)p.racks);
    double *store = NULL, *lstore[2] = {NULL, NULL};
    if ((code = cli_costs(&args, &p.w_loc, &p.wrem, &store)) != 0)
        return code;
    if ((code = cli_level_costs(&args, p.wlev, lstore, &p.nlev)) != 0)
        goto done;
    p.pods = cli_has(&args, "pods") ? (int32_t)cli_value(&args, "pods")->i
                                    : 0;
    if (!hta_costs_finite(p.w_loc, &p.wrem, p.tasks)) {
        code = cli_usage_error(&args, "the largest load --tasks * w_rem "
                                      "overflows: choose smaller costs");
        goto done;
    }
    if (p.nlev && !p.racks) {
        code = cli_usage_error(&args, "--w-rack needs the racks: "
                                      "--policy rack-aware --racks R");
        goto done;
    }
    if ((p.nlev == 2) != (p.pods > 0)) {
        code = cli_usage_error(&args, "--pods P and --w-pod go together, "
                                      "with --w-rack");
        goto done;
    }
    if (p.pods && !hta_rack_size(p.racks, p.pods)) {
        code = cli_usage_error(&args, "--pods %ld: pods of ceil(%ld/%ld) "
                                      "consecutive racks make another "
                                      "number of pods",
                               (long)p.pods, (long)p.racks, (long)p.pods);
        goto done;
    }
    hta_diag cd;
    hta_diag_clear(&cd);
    if (p.nlev && hta_levels_check_costs(p.w_loc, &p.wrem, p.wlev, p.nlev,
                                         p.tasks, &cd) != HTA_OK) {
        code = cli_usage_error(&args, "%s", cd.msg);
        goto done;
    }
    const char *path = cli_str(&args, "output");
    if ((code = cli_check_outputs(&args, &path, 1, NULL, 0)) != 0)
        goto done;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    hta_status st = hta_gen_hdfs(&p, &inst, &d);
    char comment[300];
    int len = snprintf(comment, sizeof comment,
                       "hta gen hdfs --tasks %ld --servers %ld --replicas %ld "
                       "--zipf %g --racks %ld --policy %s --seed %llu",
                       (long)p.tasks, (long)p.servers, (long)p.replicas,
                       p.zipf, (long)p.racks,
                       p.rack_aware ? "rack-aware" : "uniform",
                       (unsigned long long)p.seed);
    if (p.nlev && len > 0 && (size_t)len < sizeof comment)
        snprintf(comment + len, sizeof comment - (size_t)len,
                 " (%d levels, pods %ld; costs in the w_level lines)",
                 p.nlev + 2, (long)p.pods);
    if (st == HTA_OK)
        st = cli_write_instance(inst, path, comment, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_instance_free(inst);
done:
    free(store);
    free(lstore[0]);
    free(lstore[1]);
    return code;
}

/* ---- hta gen sat ------------------------------------------------------ */

static const cli_opt options_sat[] = {
    OUT_OPT("the instance (or with --model the assignment)"),
    {"model", 0, OPT_IN, 0, 0, 0, 0, 0, NULL, 0, "MODEL",
     "a satisfying truth assignment (\"v ... 0\" lines as SAT\n"
     "solvers print them): write Lemma 3.4's assignment of\n"
     "makespan <= 3 instead of the instance (needs -o)"},
};

static const cli_spec spec_sat = {
    "gen sat",
    "FORMULA.cnf [-o INSTANCE] | hta gen sat FORMULA.cnf --model MODEL "
    "-o ASSIGNMENT",
    "The reduction of Fischer, Su, Yin (Section 3.2) from 3SAT to\n"
    "(2,3)-UHTA: the formula is satisfiable iff the instance has an\n"
    "assignment of makespan <= 3 (w_loc = 1, w_rem = 3).  Clauses that are\n"
    "not of length 3 are first made 3-CNF with fresh variables (README).\n",
    options_sat, 2, 1, 1, NULL};

static int gen_sat(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec_sat, argc, argv, &code))
        return code;
    const char *model_path = cli_str(&args, "model");
    const char *path = cli_str(&args, "output");
    if (model_path && !path)
        return cli_usage_error(&args, "--model needs -o ASSIGNMENT");
    const char *ins[] = {args.pos[0], model_path};
    if ((code = cli_check_outputs(&args, &path, 1, ins, 2)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_cnf *f = NULL;
    hta_reduction *r = NULL;
    signed char *model = NULL;
    int32_t *a = NULL;
    hta_outfile out = {0};
    hta_status st = hta_cnf_parse(args.pos[0], &f, &d);
    if (st == HTA_OK)
        st = hta_reduce_build(f, &r, &d);
    if (st == HTA_OK && f->empty_clause)
        fprintf(stderr, "hta gen sat: %s has an empty clause: the formula "
                        "is unsatisfiable and the instance is not "
                        "3-admissible\n",
                args.pos[0]);
    if (st == HTA_OK && !model_path) {
        char comment[1400];
        st = cli_write_instance(r->inst, path,
                                hta_reduce_comment(r, comment, sizeof comment),
                                &d);
    } else if (st == HTA_OK) {
        if ((st = hta_model_parse(model_path, f->nvars, &model, &d)) ==
                HTA_OK &&
            !(a = malloc((size_t)r->inst->m * sizeof *a)))
            st = hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        if (st == HTA_OK &&
            (st = hta_reduce_witness(r, model, a, NULL, &d)) == HTA_ERR_INPUT)
            d.path = model_path;
        if (st == HTA_OK && (st = hta_outfile_open(&out, path, &d)) == HTA_OK &&
            (st = hta_assign_write(r->inst, a, out.f)) == HTA_OK)
            st = hta_outfile_commit(&out, &d);
    }
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_outfile_abort(&out);
    free(a);
    free(model);
    hta_reduce_free(r);
    hta_cnf_free(f);
    return code;
}

/* ---- hta gen random3sat ----------------------------------------------- */

static const cli_opt options_r3[] = {
    {"vars", 0, OPT_INT, 3, 10000000, 0, 0, 0, NULL, 0, "V",
     "number of variables (required)"},
    {"clauses", 0, OPT_INT, 1, 100000000, 0, 0, 0, NULL, 0, "C",
     "number of clauses (required)"},
    SEED_OPT,
    OUT_OPT("the formula"),
};

static const cli_spec spec_r3 = {
    "gen random3sat", "--vars V --clauses C [--seed S] [-o FORMULA.cnf]",
    "Uniform random 3-CNF in DIMACS: each clause has three distinct\n"
    "variables with random signs.  Same seed, same bytes.\n",
    options_r3, 4, 0, 0, NULL};

static int gen_random3sat(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec_r3, argc, argv, &code))
        return code;
    if (!cli_has(&args, "vars") || !cli_has(&args, "clauses"))
        return cli_usage_error(&args, "--vars and --clauses are required");
    int64_t vars = cli_value(&args, "vars")->i,
            clauses = cli_value(&args, "clauses")->i;
    uint64_t seed = cli_has(&args, "seed") ?
                        (uint64_t)cli_value(&args, "seed")->i :
                        1;
    const char *path = cli_str(&args, "output");
    if ((code = cli_check_outputs(&args, &path, 1, NULL, 0)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_cnf *f = NULL;
    hta_outfile out = {0};
    char comment[160];
    snprintf(comment, sizeof comment,
             "hta gen random3sat --vars %lld --clauses %lld --seed %llu",
             (long long)vars, (long long)clauses, (unsigned long long)seed);
    hta_status st = hta_cnf_random3((int32_t)vars, clauses, seed, &f, &d);
    if (st == HTA_OK &&
        (st = hta_outfile_open(&out, path ? path : "-", &d)) == HTA_OK &&
        (st = hta_cnf_write(f, out.f, comment)) == HTA_OK)
        st = hta_outfile_commit(&out, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_outfile_abort(&out);
    hta_cnf_free(f);
    return code;
}

/* ---- hta gen cluster -------------------------------------------------- */

/* Modes: the set-ups, bit i for hta_cluster_kind i. */
#define M_WANG (1u << HTA_CLUSTER_WANG)
#define M_GBP (1u << HTA_CLUSTER_GBPANDAS)
#define M_RANDOM (1u << HTA_CLUSTER_RANDOM)
static const char *const cluster_modes[] = {"wang", "gbpandas", "random"};

static const cli_opt options_cl[] = {
    {"servers", 0, OPT_INT, 1, 16777216, 0, 0, 0, NULL, 0, "M",
     "servers (default 1000, 5000, 100)"},
    {"data-servers", 0, OPT_INT, 1, 16777216, 0, 0, 0, NULL, M_WANG, "D",
     "wang: the servers holding data (default 800)"},
    {"types", 0, OPT_INT, 1, 100000000, 0, 0, 0, NULL, 0, "T",
     "task types (default: D for wang, M otherwise)"},
    {"replicas", 0, OPT_INT, 1, 64, 0, 0, 0, NULL, 0, "K",
     "local servers per type (default 3; random: 1..K; wang:\n"
     "on the data servers, 1 for one type per data server)"},
    {"total", 0, OPT_REAL, 0, 1e300, 0, 0, 0, NULL, 0, "R",
     "total arrival rate, split over the types (default: the\n"
     "capacity alpha*D + gamma*(M-D) for wang, 0.5*M otherwise)"},
    {"load", 0, OPT_REAL, 0, 1e300, 0, 0, 0, NULL, 0, "R",
     "arrival rate per server: total = R*M"},
    {"rates", 0, OPT_REALS, 0, 1e300, OPT_OPEN_LO, 2, 8, NULL, 0,
     "A1,A2,...",
     "service rates, one per locality level, strictly decreasing:\n"
     "local first, remote last, a topology of k numbers needs\n"
     "k + 2 (no --topology: 2, local and remote; --topology 50,10:\n"
     "4, as --rates 1,0.9,0.6,0.25 for local, rack, pod, remote)"},
    {"topology", 0, OPT_INTS, 1, 16777216, 0, 1, 6, NULL, 0, "K1,...",
     "K1 servers per rack, K2 racks per pod, ...: k numbers make\n"
     "k levels between local and remote, so --rates needs k + 2\n"
     "rates (--topology 50 --rates 1,0.5,0.2: racks of 50;\n"
     "--topology 50,10 --rates 1,0.9,0.6,0.25: pods of 10 racks)"},
    SEED_OPT,
    OUT_OPT("the cluster"),
};

static const cli_spec spec_cl = {
    "gen cluster", "wang|gbpandas|random [options]",
    "Cluster files (format v1) for hta capacity:\n"
    "  wang      Wang et al., Section V: 1000 servers, data on 800 (type\n"
    "            L on data server L mod 800 and 2 more at random),\n"
    "            rates 0.8,0.2\n"
    "  gbpandas  GB-PANDAS, Section 5: 5000 servers, racks of 50, 10 racks\n"
    "            per pod, rates 1,0.9,0.6,0.25 (mean service times 1,\n"
    "            10/9, 5/3, 4), types of 3 replicas placed by HDFS's\n"
    "            rack-aware rule\n"
    "  random    types with 1..K random servers and random rates\n",
    options_cl, (int)(sizeof options_cl / sizeof options_cl[0]), 1, 1,
    cluster_modes};

/* The parameters from the options (the library resolves them, with its
 * rules); 0 after a usage error. */
static int cluster_params(const cli_args *a, hta_gen_cluster_params *p)
{
    const char *kind = a->pos[0];
    int k;
    for (k = 0; k < 3 && strcmp(kind, cluster_modes[k]) != 0; k++)
        ;
    if (k == 3)
        return cli_usage_error(a, "expected wang, gbpandas or random, found "
                                  "'%s'",
                               kind),
               0;
    if (!cli_check_modes(a, 1u << k))
        return 0;
    hta_gen_cluster_ask ask;
    memset(&ask, 0, sizeof ask);
    ask.kind = (hta_cluster_kind)k;
    ask.total = cli_has(a, "total") ? cli_value(a, "total")->x : NAN;
    ask.load = cli_has(a, "load") ? cli_value(a, "load")->x : NAN;
    if (cli_has(a, "servers"))
        ask.servers = (int32_t)cli_value(a, "servers")->i;
    if (cli_has(a, "data-servers"))
        ask.data_servers = (int32_t)cli_value(a, "data-servers")->i;
    if (cli_has(a, "types"))
        ask.types = cli_value(a, "types")->i;
    if (cli_has(a, "replicas"))
        ask.replicas = (int32_t)cli_value(a, "replicas")->i;
    const cli_val *rates = cli_value(a, "rates"), *topo = cli_value(a, "topology");
    if (rates->given) {
        ask.nrates = rates->n;
        memcpy(ask.rates, rates->list, (size_t)rates->n * sizeof *ask.rates);
    }
    if (topo->given) {
        ask.ntopo = topo->n;
        for (int i = 0; i < topo->n; i++)
            ask.topo[i] = (int32_t)topo->list[i];
    }
    if (cli_has(a, "seed")) {
        ask.has_seed = 1;
        ask.seed = (uint64_t)cli_value(a, "seed")->i;
    }
    hta_diag d;
    hta_diag_clear(&d);
    if (hta_gen_cluster_resolve(&ask, p, &d) != HTA_OK)
        return cli_usage_error(a, "%s", d.msg), 0;
    return 1;
}

/* The command that reproduces the file, every parameter spelt out. */
static void cluster_comment(const hta_gen_cluster_params *p, const char *kind,
                            char *buf, size_t size)
{
    char x[32];
    hta_format_real(x, p->total);
    size_t n = (size_t)snprintf(buf, size,
                                "hta gen cluster %s --servers %ld --types %lld "
                                "--total %s",
                                kind, (long)p->servers, (long long)p->types, x);
    if (p->kind == HTA_CLUSTER_WANG)
        n += (size_t)snprintf(buf + n, size - n, " --data-servers %ld",
                              (long)p->data_servers);
    n += (size_t)snprintf(buf + n, size - n, " --replicas %ld",
                          (long)p->replicas);
    for (int i = 0; i < p->nrates && n < size; i++) {
        hta_format_real(x, p->rates[i]);
        n += (size_t)snprintf(buf + n, size - n, "%s%s",
                              i ? "," : " --rates ", x);
    }
    for (int i = 0; i < p->ntopo && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%ld",
                              i ? "," : " --topology ", (long)p->topo[i]);
    if (n < size)
        snprintf(buf + n, size - n, " --seed %llu",
                 (unsigned long long)p->seed);
}

static int gen_cluster(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec_cl, argc, argv, &code))
        return code;
    hta_gen_cluster_params p;
    if (!cluster_params(&args, &p))
        return HTA_ERR_USAGE;
    const char *path = cli_str(&args, "output");
    if ((code = cli_check_outputs(&args, &path, 1, NULL, 0)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_cluster *c = NULL;
    hta_status st = hta_gen_cluster(&p, &c, &d);
    if (st == HTA_ERR_USAGE)
        return cli_usage_error(&args, "%s", d.msg);
    char comment[600];
    cluster_comment(&p, args.pos[0], comment, sizeof comment);
    if (st == HTA_OK)
        st = cli_write_cluster(c, path, comment, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_cluster_free(c);
    return code;
}

/* ---- hta gen rr-replica / rr-worst ------------------------------------ */

static const cli_opt options_rr[] = {
    {"servers", 0, OPT_INT, 2, 16777216, 0, 0, 0, NULL, 0, "N",
     "number of servers (required)"},
    {"tasks", 0, OPT_INT, 1, 2147483646, 0, 0, 0, NULL, 2, "M",
     "rr-worst: number of tasks, M <= N(N-2) (required)"},
    {"extra", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 1, NULL,
     "rr-replica: also task N-1 on server 0"},
    OUT_OPT("the instance"),
};
static const char *const rr_modes[] = {"rr-replica", "rr-worst"};

static const cli_spec spec_rr_replica = {
    "gen rr-replica", "--servers N [--extra] [-o FILE]",
    "Theorem 4.1 of Fischer, Su, Yin (w_loc 1, w_rem 3): the identity\n"
    "placement (task i on server i); with --extra also task N-1 on server\n"
    "0, where round robin goes from makespan w_loc to w_rem.\n",
    options_rr, 4, 0, 0, rr_modes};

static const cli_spec spec_rr_worst = {
    "gen rr-worst", "--servers N --tasks M [-o FILE]",
    "Theorem 4.3 of Fischer, Su, Yin (w_loc 1, w_rem 3, M <= N(N-2)):\n"
    "round robin may reach floor(M/N)*w_rem, the optimum is\n"
    "ceil(M/N)*w_loc.\n",
    options_rr, 4, 0, 0, rr_modes};

static int gen_rr(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    int worst = strcmp(argv[0], "rr-worst") == 0;
    if (!cli_parse(&args, worst ? &spec_rr_worst : &spec_rr_replica, argc,
                   argv, &code))
        return code;
    if (!cli_check_modes(&args, worst ? 2u : 1u))
        return HTA_ERR_USAGE;
    if (!cli_has(&args, "servers") || (worst && !cli_has(&args, "tasks")))
        return cli_usage_error(&args, "--servers%s required",
                               worst ? " and --tasks are" : " is");
    int64_t n = cli_value(&args, "servers")->i,
            m = worst ? cli_value(&args, "tasks")->i : 0;
    const char *path = cli_str(&args, "output");
    if ((code = cli_check_outputs(&args, &path, 1, NULL, 0)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    hta_status st = worst ? hta_gen_rr_worst((int32_t)n, (int32_t)m, &inst, &d) :
                            hta_gen_rr_replica((int32_t)n,
                                               cli_has(&args, "extra"), &inst,
                                               &d);
    if (st == HTA_ERR_USAGE)
        return cli_usage_error(&args, "%s", d.msg);
    char comment[160];
    if (worst)
        snprintf(comment, sizeof comment,
                 "Theorem 4.3: round robin may reach floor(m/n)*w_rem = %lld, "
                 "the optimum is ceil(m/n)*w_loc = %lld",
                 (long long)(m / n) * 3, (long long)((m + n - 1) / n));
    else
        snprintf(comment, sizeof comment,
                 "Theorem 4.1: identity placement on %lld servers%s",
                 (long long)n,
                 cli_has(&args, "extra") ? " plus task n-1 on server 0" : "");
    if (st == HTA_OK)
        st = cli_write_instance(inst, path, comment, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_instance_free(inst);
    return code;
}

/* ---- hta gen jobs ----------------------------------------------------- */

static const cli_opt options_jobs[] = {
    {"jobs", 0, OPT_INT, 1, 100000000, 0, 0, 0, NULL, 0, "J",
     "number of jobs (default 1000)"},
    {"machines", 'n', OPT_INT, 1, 1000000, 0, 0, 0, NULL, 0, "N",
     "machines the load refers to (default 10)"},
    {"load", 0, OPT_REAL, 0, 1, OPT_OPEN_LO | OPT_OPEN_HI, 0, 0, NULL, 0,
     "RHO", "offered load in (0, 1): job arrival rate RHO*N/E[M+R]\n"
     "(default 0.7)"},
    {"map", 0, OPT_DIST, 0, 0, 0, 0, 0, NULL, 0, "DIST",
     "map workload: fixed:V, uniform:LO:HI, exp:MEAN (ceil of an\n"
     "exponential), pareto:SHAPE:MIN (ceil), table:FILE (rows\n"
     "'VALUE [WEIGHT]') (default exp:10)"},
    {"reduce", 0, OPT_DIST, 0, 0, 0, 0, 0, NULL, 0, "DIST",
     "reduce workload, split over the tasks (default exp:10)"},
    {"tasks", 0, OPT_INT, 1, 1000, 0, 0, 0, NULL, 0, "K",
     "reduce tasks per job uniform on 1..K, at most R (default 1)"},
    {"map-only", 0, OPT_REAL, 0, 1, OPT_OPEN_HI, 0, 0, NULL, 0, "P",
     "probability of a map-only job, in [0, 1) (default 0)"},
    SEED_OPT,
    OUT_OPT("the trace"),
};

static const cli_spec spec_jobs = {
    "gen jobs", "[options]",
    "A random job trace (format hta-jobs 1) for hta flowtime: Poisson job\n"
    "arrivals (a job arriving at time x is in slot floor(x) + 1), i.i.d.\n"
    "map and reduce workloads in units (one machine-slot each).\n",
    options_jobs, (int)(sizeof options_jobs / sizeof options_jobs[0]), 0, 0,
    NULL};

static int gen_jobs(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec_jobs, argc, argv, &code))
        return code;
    hta_jobs_gen g = {1000, 10, 0.7, {.kind = HTA_DIST_EXP, .a = 10},
                      {.kind = HTA_DIST_EXP, .a = 10}, 1, 0, 1, NULL};
    char msg[300];
    const char *names[2] = {"map", "reduce"};
    hta_dist *dists[2] = {&g.map, &g.reduce};
    for (int k = 0; k < 2; k++) /* checked by cli_parse already */
        if (cli_has(&args, names[k]))
            hta_dist_parse(cli_str(&args, names[k]), dists[k], msg,
                           sizeof msg);
    if (cli_has(&args, "jobs"))
        g.jobs = cli_value(&args, "jobs")->i;
    if (cli_has(&args, "machines"))
        g.machines = (int32_t)cli_value(&args, "machines")->i;
    if (cli_has(&args, "load"))
        g.load = cli_value(&args, "load")->x;
    if (cli_has(&args, "tasks"))
        g.max_tasks = (int32_t)cli_value(&args, "tasks")->i;
    if (cli_has(&args, "map-only"))
        g.map_only = cli_value(&args, "map-only")->x;
    /* the trace's limits (jobs.h), in expectation: refused here, before
     * any work, as what the options ask */
    double mean = hta_dist_mean(&g.map) +
                  (1 - g.map_only) * hta_dist_mean(&g.reduce);
    double span = (double)g.jobs * mean / (g.load * g.machines);
    if (!(span <= (double)HTA_JOBS_MAX_ARRIVAL))
        return cli_usage_error(&args, "--jobs %lld at --load %g on %ld "
                                      "machines arrive over about %.3g slots, "
                                      "above the trace's limit of 10^12: "
                                      "raise --load or --machines",
                               (long long)g.jobs, g.load, (long)g.machines,
                               span);
    if (!((double)g.jobs * mean <= (double)HTA_JOBS_MAX_WORK))
        return cli_usage_error(&args, "--jobs %lld of mean work %.3g make "
                                      "about %.3g units, above the trace's "
                                      "limit of 10^10: fewer --jobs or "
                                      "smaller --map, --reduce",
                               (long long)g.jobs, mean,
                               (double)g.jobs * mean);
    if (cli_has(&args, "seed"))
        g.seed = (uint64_t)cli_value(&args, "seed")->i;
    const char *path = cli_str(&args, "output");
    const char *tables[2];
    int ntables = 0;
    for (int k = 0; k < 2; k++)
        if (dists[k]->kind == HTA_DIST_TABLE)
            tables[ntables++] = dists[k]->path;
    if ((code = cli_check_outputs(&args, &path, 1, tables, ntables)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = hta_dist_load(&g.map, &d);
    if (st == HTA_OK)
        st = hta_dist_load(&g.reduce, &d);
    int from_options = 0; /* the generator's refusal: of the options */
    if (st == HTA_OK) { /* the limits first: then nothing is written */
        st = hta_jobs_gen_check(&g, &d);
        from_options = st == HTA_ERR_INPUT;
    }
    char comment[700];
    snprintf(comment, sizeof comment,
             "hta gen jobs --jobs %lld --machines %ld --load %g --map %s "
             "--reduce %s --tasks %ld --map-only %g --seed %llu",
             (long long)g.jobs, (long)g.machines, g.load,
             cli_has(&args, "map") ? cli_str(&args, "map") : "exp:10",
             cli_has(&args, "reduce") ? cli_str(&args, "reduce") : "exp:10",
             (long)g.max_tasks, g.map_only, (unsigned long long)g.seed);
    if (st == HTA_OK)
        st = cli_write_gen_jobs(&g, path, comment, &d);
    if (from_options)
        code = cli_usage_error(&args, "the options give a trace beyond the "
                                      "format's limits: %s", d.msg);
    else if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_dist_free(&g.map);
    hta_dist_free(&g.reduce);
    return code;
}

/* ---- dispatch --------------------------------------------------------- */

static const struct {
    const char *name;
    int (*run)(int, char **);
    const cli_spec *spec;
} generators[] = {
    {"hdfs", gen_hdfs, &spec_hdfs},
    {"sat", gen_sat, &spec_sat},
    {"random3sat", gen_random3sat, &spec_r3},
    {"cluster", gen_cluster, &spec_cl},
    {"rr-replica", gen_rr, &spec_rr_replica},
    {"rr-worst", gen_rr, &spec_rr_worst},
    {"jobs", gen_jobs, &spec_jobs},
};

int cmd_gen(int argc, char **argv)
{
    size_t n = sizeof generators / sizeof generators[0];
    if (argc >= 2)
        for (size_t i = 0; i < n; i++)
            if (strcmp(argv[1], generators[i].name) == 0)
                return generators[i].run(argc - 1, argv + 1);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
                      strcmp(argv[1], "-h") == 0)) {
        printf("usage: hta gen KIND [options]; KIND is one of:\n");
        for (size_t i = 0; i < n; i++)
            printf("  hta %s %s\n", generators[i].spec->name,
                   generators[i].spec->usage);
        printf("\n'hta gen KIND --help' describes a kind.\n");
        return cli_finish_stdout(0);
    }
    fprintf(stderr, "hta gen: %s '%s' (usage: 'hta gen --help')\n",
            argc >= 2 ? "unknown generator" : "missing generator",
            argc >= 2 ? argv[1] : "");
    return HTA_ERR_USAGE;
}
