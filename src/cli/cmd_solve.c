/* hta solve: parses the options, calls hta_solve (the library's policy)
 * and prints the report; writes the requested outputs only when every
 * step succeeded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/assign.h"
#include "hta/outfile.h"

#include <errno.h>
#include "hta/solve.h"
#include "hta/version.h"
#include "cli.h"
#include "hta/chart.h"
#include "report.h"

/* Modes: the algorithms, bit i for hta_algo i. */
#define M_RR (1u << HTA_ALGO_RR)
#define M_FSY (1u << HTA_ALGO_FSY)
#define M_ILP (1u << HTA_ALGO_ILP)
#define M_BRUTE (1u << HTA_ALGO_BRUTE)
#define M_CLOSE (1u << HTA_ALGO_CLOSE)
#define M_SAT (1u << HTA_ALGO_SAT)
#define M_EXACT (1u << HTA_ALGO_EXACT)
#define M_HADOOP (1u << HTA_ALGO_HADOOP)
static const char *const mode_names[] = {
    "--algo rr",    "--algo fsy", "--algo ilp",  "--algo brute",
    "--algo close", "--algo sat", "--algo exact", "--algo hadoop"};

static const cli_opt options[] = {
    {"algo", 0, OPT_ENUMS, 0, 0, 0, 1, 5,
     "rr|fsy|ilp|brute|close|sat|exact|hadoop", 0,
     "LIST",
     "algorithms to run, in this order (default rr,fsy):\n"
     "rr     round robin (Algorithm 1)\n"
     "fsy    max-cover + bal-assign (Algorithm 2)\n"
     "ilp    exact optimum by GLPK\n"
     "brute  exhaustive search, tiny instances only\n"
     "close  gap closing: an assignment of makespan <= the lower\n"
     "       bound by search, and the envelope bound refuting what\n"
     "       lies below the best (the bound rises; any size)\n"
     "sat    makespan <= bound, bound + 1, ... decided by CaDiCaL:\n"
     "       a yes is the optimum, a no raises the bound (one integer\n"
     "       w_rem); other costs (affine, tables, fractional): makespan\n"
     "       < the best, again after each yes, until a no proves it,\n"
     "       by GLPK on the envelope-cut model (half the time), then\n"
     "       CaDiCaL (CaDiCaL alone with --write-cnf)\n"
     "exact  close, then ilp (3/4 of the time left) and sat (the\n"
     "       rest); for costs other than one integer w_rem, sat first\n"
     "       (3/4), then ilp; each while the best is not proven\n"
     "       (proven before: an exact row says by what)\n"
     "hadoop Hadoop's scheduler: each free server takes a task it\n"
     "       holds, else one of its rack, ..., else any\n"
     "On an instance with w_level lines (N locality levels: local,\n"
     "rack, ..., remote) every row is priced per level, fsy refills\n"
     "fsy's non-local tasks rack-aware, the bound is the N-level flow\n"
     "bound, close (constant costs per level below the top; a top\n"
     "w_rem(r) in pieces of the top count) refutes targets by the count\n"
     "flow and the envelope bound and searches slots per level, exact\n"
     "is close, then, while the best is not proven, brute force where\n"
     "it fits, else ilp (its N-level model; a growing top past 512 cost\n"
     "combinations by pieces below the incumbent), and sat (a two-level\n"
     "model) is skipped with the reason"},
    {"seed", 0, OPT_INT, 0, CLI_INT64_MAX, 0, 0, 0, NULL, M_RR, "S",
     "round robin with random choices drawn from S"},
    {"rr-runs", 0, OPT_INT, 1, 1000000, 0, 0, 0, NULL, M_RR, "K",
     "K randomized round-robin runs (seeds S..S+K-1, S default 1);\n"
     "the row reports the best, the note min/median/max"},
    {"maxflow", 0, OPT_ENUM, 0, 0, 0, 0, 0, "incremental|igraph", M_FSY,
     "ENGINE", "max-cover engine: incremental (default) or igraph"},
    {"no-prune", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_FSY, NULL,
     "fsy tries every tau = 1..m"},
    {"no-jump", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_FSY, NULL,
     "fsy keeps the sweep's own cover where the jump or one task a server\n"
     "would take another"},
    {"trace", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_FSY, NULL,
     "print tau, f(tau), w_rem^alpha, L^B per tau on stderr"},
    {"literal-balance", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_FSY, NULL,
     "bal-assign task by task (the reference; slow)"},
    {"time-limit", 0, OPT_REAL, 0, 1e9, 0, 0, 0, NULL,
     M_ILP | M_CLOSE | M_SAT | M_EXACT, "S",
     "ilp, close, sat: each stops after S seconds (default 60)"},
    {"ilp-max-tasks", 0, OPT_INT, 1, 2147483646, 0, 0, 0, NULL,
     M_ILP | M_EXACT, "M",
     "ilp: skip instances of more than M tasks (default 20000);\n"
     "exact: above M, GLPK runs after sat, up to 10^6 tasks"},
    {"verbose", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_ILP | M_EXACT, NULL,
     "ilp: GLPK's progress on stderr"},
    {"write-cnf", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, M_SAT | M_EXACT, "FILE",
     "sat: the CNF (DIMACS) of its first decision (makespan <= the\n"
     "bound; other costs: its last, makespan < the best, one CNF over\n"
     "the pieces of the remote count), for another solver to re-check\n"
     "(unsatisfiable: no such assignment)"},
    {"sat-generic", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_SAT | M_EXACT, NULL,
     "sat: the deficit encoding even on an instance that is a 3SAT\n"
     "reduction (by default sat decides makespan <= 3 there on the\n"
     "formula read off the instance, Theorem 3.1)"},
    {"write-lp", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL,
     M_ILP | M_CLOSE | M_SAT | M_EXACT, "FILE",
     "close: the LP of the envelope bound's largest refutation\n"
     "(infeasible: a certificate for another solver); sat, over it:\n"
     "the envelope-cut model of its last no by GLPK (one piece of\n"
     "the remote count standing for all; infeasible as a MIP); ilp,\n"
     "when none wrote: the model of the first w_rem piece in CPLEX\n"
     "LP format, L free (no incumbent cutoff); for a constant w_rem\n"
     "it is the whole problem (the first line says which)"},
    {"ilp-engine", 0, OPT_ENUM, 0, 0, 0, 0, 0, "glpk|cbc|both",
     M_ILP | M_EXACT, "ENGINE",
     "ilp: the branch and bound after GLPK's LP relaxation: glpk,\n"
     "cbc, or both side by side, the first proof winning (default:\n"
     "glpk for ilp, both for exact when hta is built with CBC)"},
    {"ilp-plain", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_ILP, NULL,
     "ilp: no incumbent, no bound (benchmarks)"},
    {"ilp-naive", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, M_ILP, NULL,
     "ilp: one binary per task-server pair (benchmarks)"},
    {"json", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "the report as JSON (hta-formats(5); its schema,\n"
     "solve.schema.json)"},
    {"output", 'o', OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE",
     "write the best assignment found"},
    {"plot", 0, OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE.svg",
     "per-server loads of the best assignment"},
    {"no-timing", 0, OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "report 0 seconds (reproducible output)"},
    {"quiet", 'q', OPT_FLAG, 0, 0, 0, 0, 0, NULL, 0, NULL,
     "no progress line on stderr (shown only on a terminal)"},
};

static const cli_spec spec = {
    "solve", "INSTANCE [options]",
    "Runs the algorithms of LIST and prints one row each, a lower bound on\n"
    "the optimum and the gaps.  Ctrl-C stops ilp, brute, close and sat with\n"
    "the best so far (status interrupted, exit 130; before any assignment,\n"
    "nothing is written).  Outputs are written only when every step\n"
    "succeeded.\n",
    options, (int)(sizeof options / sizeof options[0]), 1, 1, mode_names};

static void print_step(void *ctx, const hta_fsy_step *step)
{
    (void)ctx;
    char c[32], span[32];
    hta_format_real(c, step->w_rem_alpha);
    if (isnan(step->makespan))
        snprintf(span, sizeof span, "-");
    else
        hta_format_real(span, step->makespan);
    fprintf(stderr, "tau %lld f %lld w_rem_alpha %s L_B %s%s%s\n",
            (long long)step->tau, (long long)step->f, c, span,
            step->note ? "  # " : "", step->note ? step->note : "");
}

/* The options into the library's form; 0 after a usage error. */
static int read_options(const cli_args *a, hta_solve_opts *o)
{
    hta_solve_opts_default(o);
    const cli_val *algo = cli_value(a, "algo");
    if (algo->given) {
        o->nalgos = algo->n;
        for (int i = 0; i < algo->n; i++)
            o->algos[i] = (hta_algo)algo->items[i];
    }
    unsigned active = 0;
    for (int i = 0; i < o->nalgos; i++)
        active |= 1u << o->algos[i];
    if (!cli_check_modes(a, active))
        return 0;
    o->rr_randomized = cli_has(a, "seed") || cli_has(a, "rr-runs");
    if (cli_has(a, "seed"))
        o->seed = (uint64_t)cli_value(a, "seed")->i;
    if (cli_has(a, "rr-runs"))
        o->rr_runs = cli_value(a, "rr-runs")->i;
    if (cli_has(a, "maxflow") && cli_value(a, "maxflow")->e == 1)
        o->engine = HTA_MAXFLOW_IGRAPH;
    o->prune = cli_has(a, "no-prune") ? 0 : cli_has(a, "no-jump") ? 1 : 2;
    o->literal_balance = cli_has(a, "literal-balance");
    if (cli_has(a, "trace"))
        o->trace = print_step;
    if (cli_has(a, "time-limit"))
        o->time_limit = cli_value(a, "time-limit")->x;
    if (cli_has(a, "ilp-max-tasks"))
        o->ilp_max_tasks = cli_value(a, "ilp-max-tasks")->i;
    o->verbose = cli_has(a, "verbose");
    o->ilp_plain = cli_has(a, "ilp-plain");
    o->sat_generic = cli_has(a, "sat-generic");
    o->model = cli_has(a, "ilp-naive") ? HTA_ILP_NAIVE : HTA_ILP_COMPACT;
    if (cli_has(a, "ilp-engine")) {
        o->ilp_engine = cli_value(a, "ilp-engine")->e;
        if (o->ilp_engine != HTA_ILP_ENGINE_GLPK && !hta_cbc_available()) {
            cli_usage_error(a, "--ilp-engine %s: this hta was built without "
                               "CBC (build it with make CBC=yes)",
                            o->ilp_engine == HTA_ILP_ENGINE_CBC ? "cbc" :
                                                                  "both");
            return 0;
        }
    }
    return 1;
}

static const char *const out_names[] = {"output", "plot", "write-lp",
                                        "write-cnf"};
enum { OUT_ASSIGN, OUT_PLOT, OUT_LP, OUT_CNF, NOUT };

/* Every output can be written, is not the input, and no two outputs are
 * the same file.  Exit code, 0 when all is well. */
static int check_outputs(const cli_args *a)
{
    const char *outs[NOUT];
    for (int i = 0; i < NOUT; i++) {
        outs[i] = cli_str(a, out_names[i]);
        if (outs[i] && strcmp(outs[i], "-") == 0 && i != OUT_ASSIGN)
            return cli_usage_error(a, "--%s needs a file name, not '-'",
                                   out_names[i]);
    }
    return cli_check_outputs(a, outs, NOUT, &a->pos[0], 1);
}

/* The assignment and the plot, each into an opened output. */
static hta_status write_assignment(const hta_solve_result *r, hta_outfile *o,
                                   const char *path, hta_diag *d)
{
    hta_status st = hta_outfile_open(o, path, d);
    if (st == HTA_OK && (st = hta_assign_write(r->inst, r->best, o->f)) !=
                            HTA_OK)
        hta_diag_set(d, st, path, 0, "write error");
    return st;
}

static hta_status write_plot(const hta_solve_result *r, const char *inpath,
                             hta_outfile *o, const char *path, hta_diag *d)
{
    hta_eval ev;
    char title[300];
    int b = hta_solve_best_row(r);
    snprintf(title, sizeof title, "%s: %s, makespan %.6g%s", inpath,
             r->rows[b].algorithm, r->best_span,
             hta_solve_proven(r) ? " (proven optimal)" : "");
    hta_status st = hta_eval_run(r->inst, r->best, &ev, d);
    if (st != HTA_OK)
        return st;
    errno = 0;
    if ((st = hta_outfile_open(o, path, d)) == HTA_OK &&
        (st = hta_plot_loads(r->inst, &ev,
                             r->has_lower_bound ? r->lower_bound : 0, title,
                             o->f)) != HTA_OK) {
        if (st == HTA_ERR_INTERNAL)
            hta_diag_set(d, st, path, 0, "out of memory");
        else
            hta_diag_set(d, st, path, 0, "write error: %s",
                         strerror(errno ? errno : EIO));
    }
    hta_eval_free(&ev);
    return st;
}

/* Why no assignment exists, for the message. */
static const char *why_none(const hta_solve_result *r)
{
    for (int i = 0; i < r->nrows; i++)
        if (!r->rows[i].has_value)
            return r->rows[i].note;
    return "";
}

/* The rows, the bound and the best on stdout, as --json asks. */
static void print_report(const cli_args *args, hta_solve_result *res,
                         const char *path)
{
    if (cli_has(args, "no-timing"))
        for (int i = 0; i < res->nrows; i++)
            res->rows[i].seconds = 0.0;
    if (cli_has(args, "json"))
        report_json(res, path, stdout);
    else
        report_text(res, path, stdout);
}

int cmd_solve(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    hta_solve_opts opts;
    if (!read_options(&args, &opts))
        return HTA_ERR_USAGE;
    hta_diag d;
    hta_diag_clear(&d);
    if ((code = check_outputs(&args)) != 0)
        return code;
    cli_catch_signals();
    opts.stop = &cli_interrupted;
    cli_progress progress = {0, 0};
    opts.progress = cli_progress_fn(cli_has(&args, "quiet"));
    opts.progress_ctx = &progress;

    const char *path = args.pos[0];
    hta_instance *inst = NULL;
    hta_solve_result res;
    memset(&res, 0, sizeof res);
    hta_outfile out[NOUT];
    memset(out, 0, sizeof out);
    hta_status st = hta_instance_parse(path, &inst, &d);
    if (st != HTA_OK)
        return cli_report(st, &d);
    const char *lp = cli_str(&args, "write-lp");
    if (lp) {
        /* GLPK writes the model by name: into the temporary file. */
        if ((st = hta_outfile_open(&out[OUT_LP], lp, &d)) != HTA_OK)
            goto cleanup;
        fclose(out[OUT_LP].f);
        out[OUT_LP].f = NULL;
        opts.write_lp = hta_outfile_name(&out[OUT_LP]);
    }
    const char *cnf = cli_str(&args, "write-cnf");
    if (cnf) {
        if ((st = hta_outfile_open(&out[OUT_CNF], cnf, &d)) != HTA_OK)
            goto cleanup;
        opts.write_cnf = out[OUT_CNF].f;
    }
    cli_poll_interrupts(); /* the inputs read, the early outputs open */
    st = hta_solve(inst, &opts, &res, &d);
    cli_progress_end(&progress);
    cli_output_phase();
    if (st != HTA_OK)
        goto cleanup;
    const char *assign = cli_str(&args, "output"),
               *plot = cli_str(&args, "plot");
    int missing = ((assign || plot) && !res.best) ||
                  (lp && !res.lp_written) || (cnf && !res.cnf_written);
    if (missing && res.interrupted) {
        /* interrupted before an output could be made: the report of
           what was found, nothing written, the signal's exit code */
        fprintf(stderr, "hta solve: interrupted before an output could be "
                        "made: nothing written\n");
        print_report(&args, &res, path);
        code = cli_finish_stdout(cli_interrupt_code());
        goto cleanup;
    }
    if ((assign || plot) && !res.best) {
        code = cli_usage_error(&args, "no algorithm produced an assignment "
                                      "to write (%s)",
                               why_none(&res));
        goto cleanup;
    }
    if (lp && !res.lp_written) {
        const char *why = why_none(&res);
        code = cli_usage_error(&args,
                               "--write-lp: nothing to write (close and "
                               "sat's GLPK refuted nothing below the best, "
                               "no ilp model was built%s%s)",
                               *why ? ": " : "", why);
        goto cleanup;
    }
    if (cnf && !res.cnf_written) {
        code = cli_usage_error(&args, "--write-cnf: no CNF was built (the "
                                      "best met the bound, or sat did not "
                                      "apply)");
        goto cleanup;
    }
    if ((assign &&
         (st = write_assignment(&res, &out[OUT_ASSIGN], assign, &d)) !=
             HTA_OK) ||
        (plot && (st = write_plot(&res, path, &out[OUT_PLOT], plot, &d)) !=
                     HTA_OK))
        goto cleanup;
    /* Everything succeeded: commit every output, as a set (all synced,
     * then all renamed, or none). */
    hta_outfile *set[NOUT];
    for (int i = 0; i < NOUT; i++)
        set[i] = cli_str(&args, out_names[i]) ? &out[i] : NULL;
    st = hta_outfile_commit_set(set, NOUT, &d);
    if (st != HTA_OK)
        goto cleanup;
    print_report(&args, &res, path);
    code = cli_finish_stdout(res.interrupted ? cli_interrupt_code() : 0);
cleanup:
    for (int i = 0; i < NOUT; i++)
        hta_outfile_abort(&out[i]);
    if (st != HTA_OK)
        code = cli_report(st, &d);
    hta_solve_result_free(&res);
    hta_instance_free(inst);
    return code;
}
