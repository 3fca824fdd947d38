/* hta gen: instance generators (same seed, same bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hta/assign.h"
#include "hta/cluster.h"
#include "hta/rng.h"
#include "hta/cnf.h"
#include "hta/gen.h"
#include "hta/reduce.h"
#include "hta/outfile.h"

static const char usage_hdfs[] =
    "hta gen hdfs --tasks M --servers N [--replicas 3] [--zipf S] "
    "[--racks R] [--policy uniform|rack-aware] "
    "[--w-loc X] [--w-rem V[,V...] | --w-rem-affine A,B] [--seed S] "
    "[-o FILE]";
static const char help_hdfs[] =
    "\nWrites an instance (format v1) to FILE or standard output.\n"
    "  hdfs      every task gets --replicas distinct servers, uniformly or\n"
    "            with Zipf(S) server popularity (--zipf S, S > 0: hot spots);\n"
    "            --policy rack-aware (with --racks R >= 2): HDFS's default,\n"
    "            the second replica in another rack, the third in the\n"
    "            second's rack\n"
    "  --w-loc X              local cost (default 1)\n"
    "  --w-rem V[,V...]       remote cost table w_rem(r) = V_min(r,k)\n"
    "                         (default 3)\n"
    "  --w-rem-affine A,B     remote cost w_rem(r) = A + B*r\n"
    "  --seed S               random seed (default 1)\n";

static const cli_option options_hdfs[] = {
    {"tasks", 0, 1},  {"servers", 0, 1}, {"replicas", 0, 1},
    {"zipf", 0, 1},   {"w-loc", 0, 1},   {"w-rem", 0, 1},
    {"w-rem-affine", 0, 1}, {"seed", 0, 1}, {"output", 'o', 1},
    {"racks", 0, 1},  {"policy", 0, 1},
};

static int gen_hdfs(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, argc, argv, "gen hdfs", usage_hdfs, help_hdfs,
                   options_hdfs,
                   (int)(sizeof options_hdfs / sizeof options_hdfs[0]), 0, 0,
                   &code))
        return code;
    int64_t m = 0, n = 0, k = 3, seed = 1, racks = 0;
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
        !cli_int(&args, "racks", 0, HTA_MAX_SERVERS, &racks) ||
        !cli_real(&args, "zipf", 0.0, &p.zipf) ||
        !cli_real(&args, "w-loc", 0.0, &p.w_loc) ||
        !cli_wrem(&args, &p.wrem, &store))
        return HTA_ERR_USAGE;
    const char *policy = cli_get(&args, "policy");
    if (policy && strcmp(policy, "rack-aware") != 0 &&
        strcmp(policy, "uniform") != 0) {
        free(store);
        return cli_usage_error(&args, "--policy expects uniform or "
                                      "rack-aware, found '%s'",
                               policy);
    }
    p.rack_aware = policy && strcmp(policy, "rack-aware") == 0;
    p.racks = (int32_t)racks;
    p.tasks = (int32_t)m;
    p.servers = (int32_t)n;
    p.replicas = (int32_t)k;
    p.seed = (uint64_t)seed;
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    hta_status st = hta_gen_hdfs(&p, &inst, &d);
    char comment[256];
    snprintf(comment, sizeof comment,
             "hta gen hdfs --tasks %lld --servers %lld --replicas %lld "
             "--zipf %g --racks %lld --policy %s --seed %lld",
             (long long)m, (long long)n, (long long)k, p.zipf,
             (long long)racks, p.rack_aware ? "rack-aware" : "uniform",
             (long long)seed);
    if (st == HTA_OK)
        st = cli_write_instance(inst, cli_get(&args, "output"), comment, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_instance_free(inst);
    free(store);
    return code;
}

/* ---- hta gen sat ---------------------------------------------------- */

static const char usage_sat[] =
    "hta gen sat FORMULA.cnf [-o INSTANCE] | hta gen sat FORMULA.cnf "
    "--model MODEL -o ASSIGNMENT";
static const char help_sat[] =
    "\nThe reduction of Fischer, Su, Yin (Section 3.2) from 3SAT to\n"
    "(2,3)-UHTA: the formula is satisfiable iff the instance has an\n"
    "assignment of makespan <= 3 (w_loc = 1, w_rem = 3).  Clauses that are\n"
    "not of length 3 are first made 3-CNF with fresh variables (README).\n"
    "  -o FILE        the instance (default: standard output)\n"
    "  --model MODEL  a satisfying truth assignment (\"v ... 0\" lines as\n"
    "                 SAT solvers print them): write Lemma 3.4's assignment\n"
    "                 of makespan <= 3 instead of the instance\n";
static const cli_option options_sat[] = {{"output", 'o', 1}, {"model", 0, 1}};

static int gen_sat(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, argc, argv, "gen sat", usage_sat, help_sat,
                   options_sat, 2, 1, 1, &code))
        return code;
    const char *model_path = cli_get(&args, "model");
    const char *path = cli_get(&args, "output");
    if (model_path && !path)
        return cli_usage_error(&args, "--model needs -o ASSIGNMENT");
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
        st = cli_write_instance(r->inst, path, hta_reduce_comment(r), &d);
    } else if (st == HTA_OK) {
        if ((st = hta_model_parse(model_path, f->nvars, &model, &d)) ==
                HTA_OK &&
            !(a = malloc((size_t)r->inst->m * sizeof *a)))
            st = hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        if (st == HTA_OK &&
            (st = hta_reduce_witness(r, model, a, &d)) != HTA_OK &&
            st == HTA_ERR_INPUT)
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

/* ---- hta gen random3sat --------------------------------------------- */

static const char usage_r3[] =
    "hta gen random3sat --vars V --clauses C [--seed S] [-o FORMULA.cnf]";
static const char help_r3[] =
    "\nUniform random 3-CNF in DIMACS: each clause has three distinct\n"
    "variables with random signs.  Same seed, same bytes.\n";
static const cli_option options_r3[] = {
    {"vars", 0, 1}, {"clauses", 0, 1}, {"seed", 0, 1}, {"output", 'o', 1}};

static int gen_random3sat(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, argc, argv, "gen random3sat", usage_r3, help_r3,
                   options_r3, 4, 0, 0, &code))
        return code;
    int64_t vars = 0, clauses = 0, seed = 1;
    if (!cli_has(&args, "vars") || !cli_has(&args, "clauses"))
        return cli_usage_error(&args, "--vars and --clauses are required");
    if (!cli_int(&args, "vars", 3, 10000000, &vars) ||
        !cli_int(&args, "clauses", 1, 100000000, &clauses) ||
        !cli_int(&args, "seed", 0, INT64_MAX, &seed))
        return HTA_ERR_USAGE;
    hta_diag d;
    hta_diag_clear(&d);
    hta_cnf *f = NULL;
    hta_outfile out = {0};
    const char *path = cli_get(&args, "output");
    char comment[160];
    snprintf(comment, sizeof comment,
             "hta gen random3sat --vars %lld --clauses %lld --seed %lld",
             (long long)vars, (long long)clauses, (long long)seed);
    hta_status st = hta_cnf_random3((int32_t)vars, clauses, (uint64_t)seed,
                                    &f, &d);
    if (st == HTA_OK && (st = hta_outfile_open(&out, path ? path : "-", &d)) ==
                            HTA_OK &&
        (st = hta_cnf_write(f, out.f, comment)) == HTA_OK)
        st = hta_outfile_commit(&out, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_outfile_abort(&out);
    hta_cnf_free(f);
    return code;
}

/* ---- hta gen cluster ------------------------------------------------ */

static const char usage_cl[] =
    "hta gen cluster wang|gbpandas|random [--servers M] [--types T] "
    "[--data-servers D] [--total R | --load R] [--rates A1,A2,...] "
    "[--topology K1,...] [--replicas K] [--seed S] [-o FILE]";
static const char help_cl[] =
    "\nCluster files (format v1) for hta capacity:\n"
    "  wang      Wang et al., Section V: --servers 1000, data uniformly on\n"
    "            --data-servers 800 (one type per data server), rates\n"
    "            0.8,0.2; --total R splits R equally over the types\n"
    "  gbpandas  GB-PANDAS, Section 5: 5000 servers, racks of 50, 10 racks\n"
    "            per pod, rates 1,0.9,0.6,0.25 (mean service times 1, 10/9,\n"
    "            5/3, 4); --types T (default M) with 3 replicas placed by\n"
    "            HDFS's rack-aware rule; --load R per server\n"
    "  random    --types T with 1..--replicas random servers and random\n"
    "            rates scaled to --total\n";
static const cli_option options_cl[] = {
    {"servers", 0, 1}, {"types", 0, 1},    {"data-servers", 0, 1},
    {"total", 0, 1},   {"load", 0, 1},     {"rates", 0, 1},
    {"topology", 0, 1}, {"replicas", 0, 1}, {"seed", 0, 1},
    {"output", 'o', 1},
};

static int list_arg(const cli_args *a, const char *name, double *out,
                    int max)
{
    const char *s = cli_get(a, name);
    int n = 0;
    while (s && *s && n < max) {
        char *end;
        out[n++] = strtod(s, &end);
        if (end == s || (*end != ',' && *end != '\0'))
            return -1;
        s = end + (*end == ',');
    }
    return s && *s ? -1 : n;
}

static int gen_cluster(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, argc, argv, "gen cluster", usage_cl, help_cl,
                   options_cl, (int)(sizeof options_cl / sizeof options_cl[0]),
                   1, 1, &code))
        return code;
    const char *kind = args.pos[0];
    int wang = strcmp(kind, "wang") == 0, gbp = strcmp(kind, "gbpandas") == 0;
    if (!wang && !gbp && strcmp(kind, "random") != 0)
        return cli_usage_error(&args, "unknown cluster set-up '%s'", kind);
    int64_t M = wang ? 1000 : gbp ? 5000 : 100, D = 800, T = -1, k = 3,
            seed = 1;
    double total = -1, load = -1, rates[HTA_MAX_LEVELS], topo_d[HTA_MAX_LEVELS];
    int nrates = list_arg(&args, "rates", rates, HTA_MAX_LEVELS);
    int ntopo = list_arg(&args, "topology", topo_d, HTA_MAX_LEVELS - 2);
    if (nrates < 0 || ntopo < 0)
        return cli_usage_error(&args, "expected comma-separated numbers");
    if (!cli_int(&args, "servers", 1, HTA_MAX_SERVERS, &M) ||
        !cli_int(&args, "data-servers", 1, HTA_MAX_SERVERS, &D) ||
        !cli_int(&args, "types", 1, 100000000, &T) ||
        !cli_int(&args, "replicas", 1, 64, &k) ||
        !cli_int(&args, "seed", 0, INT64_MAX, &seed) ||
        !cli_real(&args, "total", 0.0, &total) ||
        !cli_real(&args, "load", 0.0, &load))
        return HTA_ERR_USAGE;
    if (nrates == 0) {
        static const double wr[] = {0.8, 0.2}, gr[] = {1, 0.9, 0.6, 0.25};
        nrates = wang || !gbp ? 2 : 4;
        memcpy(rates, wang || !gbp ? wr : gr, (size_t)nrates * sizeof *rates);
    }
    int32_t topo[HTA_MAX_LEVELS];
    if (ntopo == 0 && gbp) {
        topo_d[0] = 50;
        topo_d[1] = 10;
        ntopo = 2;
    }
    for (int i = 0; i < ntopo; i++)
        topo[i] = (int32_t)topo_d[i];
    if (wang && D > M)
        return cli_usage_error(&args, "--data-servers exceeds --servers");
    if (T < 0)
        T = wang ? D : M;
    if (k > M)
        k = M;
    if (load >= 0)
        total = load * (double)M;
    if (total < 0)
        total = wang ? 0.8 * (double)D + 0.2 * (double)(M - D) : 0.5 * (double)M;
    double *lambda = malloc((size_t)T * sizeof *lambda);
    int64_t *off = malloc(((size_t)T + 1) * sizeof *off);
    int32_t *srv = malloc((size_t)T * (size_t)k * sizeof *srv);
    if (!lambda || !off || !srv) {
        free(lambda);
        free(off);
        free(srv);
        fprintf(stderr, "hta gen cluster: out of memory\n");
        return HTA_ERR_INTERNAL;
    }
    hta_rng r;
    hta_rng_seed(&r, (uint64_t)seed);
    int64_t n = 0;
    double sum = 0;
    int64_t rack = ntopo ? topo[0] : M;
    for (int64_t L = 0; L < T; L++) {
        off[L] = n;
        if (wang) {
            srv[n++] = (int32_t)(L % D);
            lambda[L] = 1;
        } else if (gbp) {
            /* HDFS rack-aware: a random server, one in another rack, and
             * another one in that second rack. */
            int32_t a = (int32_t)hta_rng_below(&r, (uint64_t)M), b, c3;
            srv[n++] = a;
            if (k >= 2) {
                do
                    b = (int32_t)hta_rng_below(&r, (uint64_t)M);
                while (M > rack && b / rack == a / rack);
                if (b != a)
                    srv[n++] = b;
                if (k >= 3 && rack > 1) {
                    int64_t base = (b / rack) * rack;
                    int64_t size = base + rack <= M ? rack : M - base;
                    do
                        c3 = (int32_t)(base + (int64_t)hta_rng_below(
                                                  &r, (uint64_t)size));
                    while (c3 == b && size > 1);
                    if (c3 != b && c3 != a)
                        srv[n++] = c3;
                }
            }
            lambda[L] = 1;
        } else {
            int64_t want = 1 + (int64_t)hta_rng_below(&r, (uint64_t)k);
            for (int64_t j = 0; j < want; j++) {
                int32_t s;
                int dup;
                do {
                    s = (int32_t)hta_rng_below(&r, (uint64_t)M);
                    dup = 0;
                    for (int64_t i = off[L]; i < n; i++)
                        dup |= srv[i] == s;
                } while (dup);
                srv[n++] = s;
            }
            lambda[L] = 0.05 + hta_rng_unit(&r);
        }
        sum += lambda[L];
    }
    off[T] = n;
    for (int64_t L = 0; L < T; L++)
        lambda[L] *= total / sum;
    hta_diag d;
    hta_diag_clear(&d);
    hta_cluster *c = NULL;
    hta_outfile out = {0};
    hta_status st = hta_cluster_build((int32_t)M, rates, nrates, topo, ntopo,
                                      T, lambda, off, srv, &c, &d);
    const char *path = cli_get(&args, "output");
    char comment[200];
    snprintf(comment, sizeof comment,
             "hta gen cluster %s --servers %lld --types %lld --total %.17g "
             "--seed %lld",
             kind, (long long)M, (long long)T, total, (long long)seed);
    if (st == HTA_OK && (st = hta_outfile_open(&out, path ? path : "-", &d)) ==
                            HTA_OK &&
        (st = hta_cluster_write(c, out.f, comment)) == HTA_OK)
        st = hta_outfile_commit(&out, &d);
    if (st != HTA_OK)
        code = st == HTA_ERR_INPUT ? cli_usage_error(&args, "%s", d.msg) :
                                     cli_report(st, &d);
    hta_outfile_abort(&out);
    hta_cluster_free(c);
    return code;
}

/* ---- hta gen rr-replica / rr-worst ------------------------------------ */

static const char usage_rr[] =
    "hta gen rr-replica --servers N [--extra] [-o FILE] | hta gen rr-worst "
    "--servers N --tasks M [-o FILE]";
static const char help_rr[] =
    "\nThe round-robin families of Fischer, Su, Yin (w_loc 1, w_rem 3):\n"
    "  rr-replica  Theorem 4.1: the identity placement (task i on server\n"
    "              i); with --extra also task N-1 on server 0, where round\n"
    "              robin goes from makespan w_loc to w_rem\n"
    "  rr-worst    Theorem 4.3 (M <= N(N-2)): round robin may reach\n"
    "              floor(M/N)*w_rem, the optimum is ceil(M/N)*w_loc\n";
static const cli_option options_rr[] = {
    {"servers", 0, 1}, {"tasks", 0, 1}, {"extra", 0, 0}, {"output", 'o', 1}};

static int gen_rr(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    int worst = strcmp(argv[0], "rr-worst") == 0;
    if (!cli_parse(&args, argc, argv, worst ? "gen rr-worst" : "gen rr-replica",
                   usage_rr, help_rr, options_rr, 4, 0, 0, &code))
        return code;
    int64_t n = 0, m = 0;
    if (!cli_has(&args, "servers") || (worst && !cli_has(&args, "tasks")))
        return cli_usage_error(&args, "--servers%s required",
                               worst ? " and --tasks are" : " is");
    if (!cli_int(&args, "servers", 2, HTA_MAX_SERVERS, &n) ||
        !cli_int(&args, "tasks", 1, HTA_MAX_TASKS, &m))
        return HTA_ERR_USAGE;
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
        st = cli_write_instance(inst, cli_get(&args, "output"), comment, &d);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_instance_free(inst);
    return code;
}

/* ---- dispatch ------------------------------------------------------- */

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *usage;
} generators[] = {
    {"hdfs", gen_hdfs, usage_hdfs},
    {"sat", gen_sat, usage_sat},
    {"random3sat", gen_random3sat, usage_r3},
    {"cluster", gen_cluster, usage_cl},
    {"rr-replica", gen_rr, usage_rr},
    {"rr-worst", gen_rr, usage_rr},
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
            printf("  %s\n", generators[i].usage);
        return 0;
    }
    fprintf(stderr, "hta gen: %s '%s' (usage: 'hta gen --help')\n",
            argc >= 2 ? "unknown generator" : "missing generator",
            argc >= 2 ? argv[1] : "");
    return HTA_ERR_USAGE;
}
