/* hta.reduce_place: ReduceTask placement (Tan, Meng, Zhang), reporting
 * what `hta reduce-place --json` does for synthetic jobs on a slots file
 * or on i.i.d. uniform slot costs (ext.h). */
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static PyObject *report(const hta_slots *s, const hta_rp_opts *o,
                        const hta_rp_result *r)
{
    PyObject *pols = PyList_New(0), *d = PyDict_New();
    int ok = pols && d;
    for (int p = 0; ok && p < HTA_RP_NPOLICIES; p++) {
        const hta_rp_row *w = &r->row[p];
        if (!w->run)
            continue;
        PyObject *e = PyDict_New();
        ok = e &&
             ext_set(e, "policy",
                     PyUnicode_FromString(hta_rp_policy_names[p])) &&
             ext_set(e, "cost", ext_real(w->mean)) &&
             ext_set(e, "cost_ci", ext_real(w->ci)) &&
             ext_set(e, "vs_random", ext_real(w->vs_random)) &&
             ext_set(e, "vs_random_ci", ext_real(w->vs_random_ci)) &&
             ext_set(e, "vs_greedy", ext_real(w->vs_greedy)) &&
             ext_set(e, "vs_greedy_ci", ext_real(w->vs_greedy_ci)) &&
             ext_set(e, "mean_rank", ext_real(w->mean_pos)) &&
             PyList_Append(pols, e) == 0;
        Py_XDECREF(e);
    }
    ok = ok && ext_set(d, "slots", PyLong_FromLongLong(s->r)) &&
         ext_set(d, "cost_min", ext_real(s->rcost[0])) &&
         ext_set(d, "cost_max", ext_real(s->rcost[s->nrun - 1])) &&
         ext_set(d, "cost_mean", ext_real(hta_slots_mean_cost(s))) &&
         ext_set(d, "lambda", ext_real(o->lambda)) &&
         ext_set(d, "k_limit", PyLong_FromLong(o->K)) &&
         ext_set(d, "jobs", PyLong_FromLongLong(r->jobs)) &&
         ext_set(d, "warmup", PyLong_FromLongLong(o->warmup)) &&
         ext_set(d, "batches", PyLong_FromLong(o->batches)) &&
         ext_set(d, "seed", PyLong_FromUnsignedLongLong(o->seed)) &&
         ext_set(d, "number", ext_real(r->mean_n)) &&
         ext_set(d, "number_ci", ext_real(r->ci_n)) &&
         ext_set(d, "time_in_system", ext_real(r->mean_t)) &&
         ext_set(d, "little_gap", ext_real(r->little_gap)) &&
         ext_set(d, "waited", ext_real(r->waited));
    if (ok) {
        ok = ext_set(d, "policies", pols);
        pols = NULL;
    }
    if (ok && r->row[HTA_RP_OPTIMAL].run) /* as the command's JSON */
        ok = ext_set(d, "optimal_cost_lo", ext_real(r->opt_lo)) &&
             ext_set(d, "optimal_cost_hi", ext_real(r->opt_hi)) &&
             ext_set(d, "optimal_states",
                     PyLong_FromLongLong(r->opt_states)) &&
             ext_set(d, "optimal_iterations",
                     PyLong_FromLongLong(r->opt_iters)) &&
             ext_set(d, "optimal_converged",
                     PyBool_FromLong(r->opt_converged));
    ok = ok && ext_set(d, "interrupted", PyBool_FromLong(r->cut)) &&
         ext_set(d, "seconds", PyFloat_FromDouble(r->seconds));
    Py_XDECREF(pols);
    if (!ok)
        Py_CLEAR(d);
    return d;
}

/* The policies' names (None: the command's default). */
static int policies_in(PyObject *pols, hta_rp_ask *ask)
{
    if (pols == Py_None)
        return 1;
    PyObject *seq = PyUnicode_Check(pols) ?
                        NULL :
                        PySequence_Fast(pols, "policies: expected names");
    if (!seq) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError,
                            "policies: expected a list of names");
        return 0;
    }
    ask->has_policies = 1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
        const char *nm = PyUnicode_Check(it) ? PyUnicode_AsUTF8(it) : NULL;
        int p = -1;
        for (int j = 0; nm && j < HTA_RP_NPOLICIES; j++)
            if (strcmp(nm, hta_rp_policy_names[j]) == 0)
                p = j;
        if (p < 0 || ask->policies[p]) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError,
                             p >= 0 ? "policies: '%s' given twice" :
                                      "policies: expected random, greedy, "
                                      "threshold, rhc, rhc-adaptive or "
                                      "optimal, found '%s'",
                             nm ? nm : Py_TYPE(it)->tp_name);
            Py_DECREF(seq);
            return 0;
        }
        ask->policies[p] = 1;
    }
    Py_DECREF(seq);
    return 1;
}

PyObject *ext_reduce_place(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"slots_file", "slots",      "costs",   "policies",
                          "lambdas",    "k_limit",    "jobs",    "warmup",
                          "batches",    "window",     "seed",    "data",
                          "reducers",   "jobs_trace", "reducer_mb",
                          "threads",    "check",      NULL};
    PyObject *path_obj = NULL, *trace_obj = NULL, *pols = Py_None,
             *costs = Py_None, *lams = Py_None, *o_slots = Py_None,
             *o_K = Py_None, *o_jobs = Py_None, *o_warm = Py_None,
             *o_batches = Py_None, *o_window = Py_None, *o_seed = Py_None,
             *o_mb = Py_None, *o_threads = Py_None;
    const char *data = NULL, *red = NULL;
    int check = 0; /* the request checked and set up, nothing run */
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "|O&OOOOOOOOOOzzO&OOp", kwl, ext_path_or_none,
            &path_obj, &o_slots, &costs, &pols, &lams, &o_K, &o_jobs,
            &o_warm, &o_batches, &o_window, &o_seed, &data, &red,
            ext_path_or_none, &trace_obj, &o_mb, &o_threads, &check))
        return NULL;
    hta_rp_ask ask;
    memset(&ask, 0, sizeof ask);
    ask.warmup = -1;
    long long v = 0, threads = 1;
    PyObject *r = NULL;
    double mb = 0, cl[2];
    int n = 0;
    if (!policies_in(pols, &ask) ||
        !ext_int_in(o_slots, "slots", 1, HTA_RP_MAX_SLOTS, &v))
        goto done;
    ask.slots = o_slots == Py_None ? 0 : v;
    if (!ext_int_in(o_K, "k_limit", 1, 1000000, &v))
        goto done;
    ask.K = o_K == Py_None ? 0 : (int)v;
    if (!ext_int_in(o_jobs, "jobs", 1, 1000000000000LL, &v))
        goto done;
    ask.jobs = o_jobs == Py_None ? 0 : v;
    if (!ext_int_in(o_warm, "warmup", 0, 1000000000000LL, &v))
        goto done;
    ask.warmup = o_warm == Py_None ? -1 : v;
    if (!ext_int_in(o_batches, "batches", 2, 4096, &v))
        goto done;
    ask.batches = o_batches == Py_None ? 0 : (int)v;
    if (!ext_int_in(o_window, "window", 1, 100000000, &v))
        goto done;
    ask.window = o_window == Py_None ? 0 : (int)v;
    if (o_seed != Py_None) {
        if (!ext_seed(o_seed, &ask.seed))
            goto done;
        ask.has_seed = 1;
    }
    if (!ext_int_in(o_threads, "threads", 1, 1024, &threads))
        goto done;
    if (o_threads == Py_None)
        threads = 1;
    if (costs != Py_None) {
        if (!ext_reals(costs, "costs", cl, 2, &n))
            goto done;
        if (n != 2) {
            PyErr_SetString(PyExc_ValueError, "costs: expected (LO, HI)");
            goto done;
        }
        ask.has_costs = 1;
        ask.lo = cl[0];
        ask.hi = cl[1];
    }
    if (lams != Py_None &&
        !ext_reals(lams, "lam", ask.lambdas, HTA_RP_MAX_SWEEP, &ask.nl))
        goto done;
    if (o_mb != Py_None) {
        if (!ext_real_or_none(o_mb, "reducer_mb", &mb))
            goto done;
        if (!(mb > 0)) {
            PyErr_Format(PyExc_ValueError, "reducer_mb: expected a number "
                                           "in (0, 1e12], found %g", mb);
            goto done;
        }
        ask.reducer_mb = mb;
    }
    ask.slots_file = path_obj ? PyBytes_AS_STRING(path_obj) : NULL;
    ask.jobs_trace = trace_obj ? PyBytes_AS_STRING(trace_obj) : NULL;
    ask.data = data;
    ask.reducers = red;
    ext_call c;
    ask.stop = &c.stop;
    hta_diag d;
    hta_diag_clear(&d);
    hta_rp_setup su;
    hta_rp_result *res = NULL;
    int *ran = NULL;
    ext_begin(&c);
    hta_status st = hta_rp_setup_make(&ask, &su, &d);
    if (st == HTA_OK && check)
        su.nl = 0; /* checked: no rate runs, none reported */
    if (st == HTA_OK && !c.stop && !check) {
        res = calloc((size_t)su.nl, sizeof *res);
        ran = calloc((size_t)su.nl, sizeof *ran);
        st = res && ran ? hta_rp_sweep(&su, (int)threads, res, ran, &d) :
                          hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0,
                                       "out of memory");
    }
    int stopped = ext_end(&c);
    if (st != HTA_OK && !(stopped && st != HTA_ERR_USAGE)) {
        ext_raise(st, &d);
    } else {
        /* the rates that ran, in order, up to the first cut */
        PyObject *reps = PyList_New(0);
        int cut = stopped || st != HTA_OK;
        for (int k = 0; reps && k < su.nl && st == HTA_OK && ran[k]; k++) {
            hta_rp_opts o = su.o;
            o.lambda = su.lambdas[k];
            PyObject *rep = report(su.s, &o, &res[k]);
            if (!rep || PyList_Append(reps, rep) != 0)
                Py_CLEAR(reps);
            Py_XDECREF(rep);
            if (res[k].cut)
                break;
        }
        for (int k = 0; st == HTA_OK && k < su.nl; k++)
            cut |= !ran[k] || res[k].cut;
        r = reps ? Py_BuildValue("(NO)", reps, cut ? Py_True : Py_False) :
                   NULL;
    }
    free(res);
    free(ran);
    hta_rp_setup_free(&su);
done:
    Py_XDECREF(path_obj);
    Py_XDECREF(trace_obj);
    return r;
}
