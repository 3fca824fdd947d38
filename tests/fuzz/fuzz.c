/* libFuzzer harnesses for every parser of hta; one binary per target,
 * chosen at compile time with -DTARGET=<name>.  Parsers that read files
 * get the input through a private temporary file.  Every input must be
 * either accepted or refused with a diagnostic; sanitizers catch the
 * rest.  The algorithm targets run what parsed: solve (rr, fsy, brute
 * and sat when tiny; every assignment evaluated, fsy within Theorem 5.4's
 * bound of brute force, sat's optimum or raised bound equal to brute
 * force's optimum), capacity (the LP, flow and gflow agree) and jobs
 * (every policy's schedule passes the checker with the flow times it
 * reports, SRPT below every policy, the exact program between them on
 * tiny traces) and slots (every slot costs its node's H, sorted; a short
 * placement run of every policy on what parsed). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hta/assign.h"
#include "hta/capacity.h"
#include "hta/cluster.h"
#include "hta/cnf.h"
#include "hta/flowtime.h"
#include "hta/fsck.h"
#include "hta/fsy.h"
#include "hta/instance.h"
#include "hta/jobs.h"
#include "hta/rplace.h"
#include "hta/sim.h"
#include "hta/solve.h"
#include "exact/brute.h"
#include "offline/rr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char input_path[4096];

static void input_remove(void) { unlink(input_path); }

/* The private file, in $TMPDIR (scripts/fuzz.sh: under build-fuzz) or
 * /tmp, removed when the fuzzer exits. */
static const char *input_file(const uint8_t *data, size_t size)
{
    if (!input_path[0]) {
        const char *dir = getenv("TMPDIR");
        if (!dir || !*dir)
            dir = "/tmp";
        int len = snprintf(input_path, sizeof input_path, "%s/hta-fuzz-%ld",
                           dir, (long)getpid());
        if (len < 0 || (size_t)len >= sizeof input_path)
            abort();
        atexit(input_remove);
    }
    FILE *f = fopen(input_path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    return input_path;
}

/* What is written is read back identically (instance format). */
static void roundtrip(const hta_instance *inst)
{
    char *buf = NULL;
    size_t len = 0;
    hta_diag d;
    FILE *f = open_memstream(&buf, &len);
    hta_instance_write(inst, f, NULL);
    fclose(f);
    hta_instance *again = NULL;
    if (hta_instance_parse_memory("<again>", buf, len, &again, &d) != HTA_OK ||
        !hta_instance_equal(inst, again))
        abort();
    hta_instance_free(again);
    free(buf);
}

static void check(hta_status st, const hta_diag *d)
{
    /* a refusal must say why */
    if (st != HTA_OK && d->msg[0] == '\0')
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hta_diag d;
    hta_diag_clear(&d);
#if TARGET_instance
    hta_instance *inst = NULL;
    hta_status st = hta_instance_parse_memory("<fuzz>", (const char *)data,
                                              size, &inst, &d);
    check(st, &d);
    if (st == HTA_OK)
        roundtrip(inst);
    /* the general path alone reads the same (hta_instance_fast_lines) */
    hta_instance *slow = NULL;
    hta_diag ds;
    hta_diag_clear(&ds);
    hta_instance_fast_lines(0);
    hta_status st2 = hta_instance_parse_memory("<fuzz>", (const char *)data,
                                               size, &slow, &ds);
    hta_instance_fast_lines(1);
    if (st2 != st || ds.line != d.line || strcmp(ds.msg, d.msg) != 0 ||
        (st == HTA_OK && !hta_instance_equal(inst, slow)))
        abort();
    hta_instance_free(slow);
    /* and two threads over small windows, server side included
       (hta_instance_read_tuning) */
    hta_instance *two = NULL;
    hta_diag_clear(&ds);
    hta_instance_read_tuning(2, 61 + size % 300, 1);
    st2 = hta_instance_parse_memory("<fuzz>", (const char *)data, size, &two,
                                    &ds);
    hta_instance_read_tuning(0, 0, 0);
    if (st2 != st || ds.line != d.line || strcmp(ds.msg, d.msg) != 0 ||
        (st == HTA_OK &&
         (!hta_instance_equal(inst, two) || inst->n != two->n ||
          memcmp(inst->srv_off, two->srv_off,
                 ((size_t)inst->n + 1) * sizeof *inst->srv_off) != 0 ||
          memcmp(inst->srv_task, two->srv_task,
                 (size_t)inst->edges * sizeof *inst->srv_task) != 0)))
        abort();
    hta_instance_free(two);
    hta_instance_free(inst);
#elif TARGET_solve
    hta_instance *inst = NULL;
    hta_status st = hta_instance_parse_memory("<fuzz>", (const char *)data,
                                              size, &inst, &d);
    check(st, &d);
    /* bounded work per input: a fuzzer wants many small runs */
    if (st == HTA_OK && inst->m <= 2000 && inst->n <= 2000 &&
        inst->edges <= 20000) {
        hta_solve_opts o;
        hta_solve_opts_default(&o);
        o.algos[0] = HTA_ALGO_RR;
        o.algos[1] = HTA_ALGO_FSY;
        o.algos[2] = HTA_ALGO_HADOOP; /* N levels: the refill, the bound */
        o.nalgos = 3;
        int brute = hta_brute_fits(inst) && inst->m <= 8;
        if (brute) {
            o.algos[o.nalgos++] = HTA_ALGO_BRUTE;
            o.algos[o.nalgos++] = HTA_ALGO_SAT;
            o.algos[o.nalgos++] = HTA_ALGO_ILP; /* = brute's, any levels */
            o.time_limit = 10;
        }
        hta_solve_result r;
        if (hta_solve(inst, &o, &r, &d) != HTA_OK || !r.best)
            abort();
        if (brute && r.nrows == 6 &&
            strcmp(r.rows[3].status, "optimal") == 0 &&
            strcmp(r.rows[5].status, "optimal") == 0 &&
            fabs(r.rows[3].makespan - r.rows[5].makespan) >
                1e-9 * fmax(1.0, r.rows[3].makespan))
            abort();
        hta_eval ev;
        if (hta_eval_run(inst, r.best, &ev, &d) != HTA_OK ||
            ev.makespan != r.best_span)
            abort();
        hta_eval_free(&ev);
        /* fsy's pruned sweep returns the full sweep's tau and assignment,
         * and with the jump its tau and makespan */
        if (inst->m <= 300) {
            int32_t *a = malloc((size_t)inst->m * sizeof *a);
            int32_t *b = malloc((size_t)inst->m * sizeof *b);
            hta_fsy_opts fo = {HTA_MAXFLOW_INCREMENTAL, 1, 0, NULL, NULL,
                               NULL, NULL};
            hta_fsy_result pr, fr;
            if (!a || !b || hta_fsy_run(inst, &fo, a, &pr, &d) != HTA_OK)
                abort();
            fo.prune = 0;
            if (hta_fsy_run(inst, &fo, b, &fr, &d) != HTA_OK ||
                pr.best_tau != fr.best_tau || pr.makespan != fr.makespan ||
                memcmp(a, b, (size_t)inst->m * sizeof *a) != 0)
                abort();
            /* the jump and one task a server: the same tau and
               makespan, optimal (the bound) */
            hta_fsy_result jr;
            fo.prune = 2;
            if (hta_fsy_run(inst, &fo, a, &jr, &d) != HTA_OK)
                abort();
            int other = jr.jumped || jr.spread;
            if (jr.best_tau != fr.best_tau || jr.makespan != fr.makespan ||
                (other && jr.lower_bound != jr.makespan) ||
                (!other && memcmp(a, b, (size_t)inst->m * sizeof *a)))
                abort();
            hta_fsy_result_free(&jr);
            hta_fsy_result_free(&pr);
            hta_fsy_result_free(&fr);
            free(a);
            free(b);
        }
        /* every lower bound below every makespan; with brute force,
         * fsy within Theorem 5.4's additive bound of the optimum */
        for (int i = 0; i < r.nrows; i++)
            if (r.rows[i].has_value &&
                r.rows[i].makespan < r.lower_bound * (1 - 1e-12))
                abort();
        /* sat against brute force: its optimum, or the bound raised to
         * it */
        if (brute && strcmp(r.rows[2].status, "optimal") == 0 &&
            ((strcmp(r.rows[3].status, "optimal") == 0 &&
              r.rows[3].makespan != r.rows[2].makespan) ||
             (strcmp(r.rows[3].status, "bound") == 0 &&
              r.lower_bound != r.rows[2].makespan)))
            abort();
        if (brute && strcmp(r.rows[2].status, "optimal") == 0 &&
            r.rows[1].makespan > r.rows[2].makespan + r.guarantee +
                                     1e-9 * r.rows[2].makespan)
            abort();
        hta_solve_result_free(&r);
    }
    hta_instance_free(inst);
#elif TARGET_capacity
    hta_cluster *c = NULL;
    hta_status st = hta_cluster_parse(input_file(data, size), &c, &d);
    check(st, &d);
    if (st == HTA_OK && c->T <= 200 && c->M <= 200 && c->off[c->T] <= 2000) {
        hta_capacity_opts o = {HTA_CAP_LP, 0, 1, 0, NULL, NULL, NULL};
        hta_capacity_result a, b;
        if (hta_capacity_solve(c, &o, &a, &d) != HTA_OK)
            abort();
        /* flow (Dinic on two levels, generalized flows on more) and
           gflow (generalized flows on any) against the LP */
        for (int k = 0; k < 2; k++) {
            o.method = k ? HTA_CAP_GFLOW : HTA_CAP_FLOW;
            if (hta_capacity_solve(c, &o, &b, &d) != HTA_OK)
                abort();
            if (fabs(a.rho - b.rho) > 1e-6 * fmax(1.0, a.rho) ||
                a.nbottle != b.nbottle)
                abort();
            hta_capacity_result_free(&b);
        }
        hta_capacity_result_free(&a);
    }
    hta_cluster_free(c);
#elif TARGET_assignment
    static hta_instance *inst;
    if (!inst) {
        static const char text[] = "hta-instance 1\ntasks 4\nservers 3\n"
                                   "w_loc 1\nw_rem 3\ntask 0 0\ntask 1 1 2\n"
                                   "task 2 2\ntask 3 0 1\n";
        if (hta_instance_parse_memory("<i>", text, sizeof text - 1, &inst,
                                      &d))
            abort();
    }
    int32_t *a = NULL;
    hta_status st = hta_assign_parse(input_file(data, size), inst, &a, &d);
    check(st, &d);
    if (st == HTA_OK) {
        hta_eval ev;
        if (hta_eval_run(inst, a, &ev, &d) != HTA_OK)
            abort();
        hta_eval_free(&ev);
    }
    free(a);
#elif TARGET_cluster
    /* what the reader takes, a short simulation takes too: every policy
     * the task arrivals allow, 300 slots, rates and counts at their
     * limits; what it reports stays within its own bounds */
    hta_cluster *c = NULL;
    hta_status st = hta_cluster_parse(input_file(data, size), &c, &d);
    check(st, &d);
    if (st == HTA_OK && c->M <= 5000 && c->T <= 500 &&
        c->off[c->T] <= 20000) {
        for (int p = 0; p < HTA_SIM_FAIR; p++) {
            hta_sim_opts o = {0};
            o.policy = (hta_sim_policy)p;
            o.arrivals = HTA_ARR_POISSON;
            o.load = 1;
            o.per_unit = 1;
            o.slots = 300;
            o.max_backlog = 100000;
            o.warmup = 30;
            o.batches = 5;
            o.seed = 1;
            o.job_size = (hta_dist){HTA_DIST_FIXED, 1, 0, NULL, 0, NULL,
                                    NULL};
            hta_sim_result r;
            st = hta_sim_run(c, &o, &r, &d);
            check(st, &d);
            if (st != HTA_OK)
                continue;
            if (r.departed > r.arrived || r.in_system < 0 ||
                r.utilisation > 1 + 1e-9 || r.utilisation < 0 ||
                r.in_system != r.arrived - r.departed ||
                (r.verdict == HTA_SIM_UNSTABLE) !=
                    (r.in_system >= o.max_backlog))
                abort();
            hta_sim_result_free(&r);
        }
    }
    hta_cluster_free(c);
#elif TARGET_cnf
    hta_cnf *f = NULL, *g = NULL;
    hta_status st = hta_cnf_parse(input_file(data, size), &f, &d);
    check(st, &d);
    if (st == HTA_OK && f->nvars < 1000 && f->nclauses < 1000)
        check(hta_cnf_to3(f, &g, &d), &d);
    hta_cnf_free(g);
    hta_cnf_free(f);
#elif TARGET_model
    signed char *m = NULL;
    check(hta_model_parse(input_file(data, size), 50, &m, &d), &d);
    free(m);
#elif TARGET_fsck
    double v = 3;
    hta_wrem w = {HTA_WREM_TABLE, 0, &v, 0, 0};
    hta_instance *inst = NULL;
    hta_fsck_result res;
    check(hta_fsck_import(input_file(data, size), 1.0, &w, 0, &inst, &res,
                          &d),
          &d);
    hta_fsck_result_free(&res);
    if (inst) /* what the importer writes, its own parser reads back */
        roundtrip(inst);
    hta_instance_free(inst);
#elif TARGET_jobs
    hta_jobs *J = NULL;
    hta_status st = hta_jobs_parse(input_file(data, size), &J, &d);
    check(st, &d);
    if (st == HTA_OK && J->n <= 12 && J->work <= 200 &&
        J->arrival[J->n - 1] <= 1000) {
        for (int pre = 0; pre <= 1; pre++)
            for (int32_t N = 1; N <= 3; N += 2) {
                int64_t srpt = 0, best = INT64_MAX;
                for (int p = 0; p < HTA_FT_NPOLICIES; p++) {
                    if (p == HTA_FT_DSRPT && !pre)
                        continue;
                    hta_ft_sched rec = {0};
                    hta_ft_opts o = {N, pre, &rec, NULL, NULL, NULL, 0};
                    hta_ft_result r;
                    int64_t fin[12], total;
                    hta_ft_opts step = o; /* the reference engine */
                    step.record = NULL;
                    step.stepwise = 1;
                    hta_ft_result q;
                    if (hta_ft_run(J, (hta_ft_policy)p, &o, &r, &d) ||
                        hta_ft_check(J, N, pre, p == HTA_FT_SRPT, &rec, fin,
                                     &total, &d) ||
                        total != r.total ||
                        memcmp(fin, r.finish, (size_t)J->n * sizeof *fin) ||
                        hta_ft_run(J, (hta_ft_policy)p, &step, &q, &d) ||
                        memcmp(q.finish, r.finish,
                               (size_t)J->n * sizeof *fin))
                        abort();
                    hta_ft_result_free(&q);
                    if (p == HTA_FT_SRPT)
                        srpt = total;
                    else if (total < srpt)
                        abort();
                    if (p != HTA_FT_SRPT && total < best)
                        best = total;
                    hta_ft_result_free(&r);
                    hta_ft_sched_free(&rec);
                }
                hta_ft_exact_opts eo = {N, pre, best, 600, 5, 0, NULL};
                hta_ft_exact x;
                if (J->n <= 4 && hta_ft_exact_size(J, &eo) <= 600) {
                    if (hta_ft_exact_solve(J, &eo, &x, &d) != HTA_OK)
                        abort();
                    if (x.optimal && (x.value < srpt || x.value > best))
                        abort();
                    hta_ft_sched_free(&x.sched);
                }
            }
    }
    hta_jobs_free(J);
#elif TARGET_swim
    hta_jobs *J = NULL;
    hta_swim_opts o = {64.0 * 1048576, 10, 1024.0 * 1048576};
    check(hta_jobs_from_swim(input_file(data, size), &o, &J, &d), &d);
    hta_jobs_free(J);
#elif TARGET_slots
    hta_slots *S = NULL;
    hta_status st = hta_slots_parse(input_file(data, size), &S, &d);
    check(st, &d);
    if (st == HTA_OK) {
        for (int64_t q = 0; q < S->nrun; q++) /* runs: costs up, ends up */
            if ((q && (S->rcost[q] <= S->rcost[q - 1] ||
                       S->rend[q] <= S->rend[q - 1])) ||
                (!q && S->rend[0] < 1) ||
                hta_slots_run_of(S, S->rend[q] - 1) != q)
                abort();
        if (S->rend[S->nrun - 1] != S->r)
            abort();
        if (S->r <= 100000) {
            hta_dist X = {HTA_DIST_UNIFORM, 1, 9, NULL, 0, NULL, NULL};
            hta_dist R = {HTA_DIST_FIXED, 1, 0, NULL, 0, NULL, NULL};
            hta_rp_law law;
            hta_rp_table t;
            int K = S->r < 3 ? (int)S->r : 3;
            if (hta_rp_law_product(&X, &R, &law, &d) ||
                hta_rp_table_build(&law, K, NULL, &t, &d))
                abort();
            hta_rp_opts o = {.policies = {1, 1, 1, 1, 1}, .lambda = 0.5,
                             .K = K, .jobs = 200, .warmup = 20,
                             .batches = 4, .window = 5, .seed = 1, .X = &X,
                             .R = &R, .rmax = 1, .mean_x = law.mean_x,
                             .table = &t};
            hta_rp_result r;
            if (hta_rp_run(S, &o, &r, &d) != HTA_OK)
                abort();
            for (int p = 0; p < HTA_RP_NPOLICIES; p++) /* greedy: least */
                if (o.policies[p] && K == 1 &&
                    r.row[p].mean < r.row[HTA_RP_GREEDY].mean * (1 - 1e-9))
                    abort();
            hta_rp_table_free(&t);
            hta_rp_law_free(&law);
        }
    }
    hta_slots_free(S);
#else
#error "define TARGET_<name>"
#endif
    return 0;
}
