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

PyObject *ext_reduce_place(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"slots_file", "slots",   "costs",  "policies",
                          "lam",        "k_limit", "jobs",   "warmup",
                          "batches",    "window",  "seed",   "data",
                          "reducers",   NULL};
    PyObject *path_obj = NULL, *pols = Py_None, *warm = Py_None;
    long long nslots = 1000, K = 10, jobs = 50000, warmup = -1, batches = 30,
              window = 100;
    uint64_t seed = 1;
    double lo = 1, hi = 100, lam = 0.4;
    const char *data = "uniform:1:100", *red = "uniform:1:10";
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "|O&L(dd)OdLLOLLO&ss", kwl, ext_path_or_none,
            &path_obj, &nslots, &lo, &hi, &pols, &lam, &K, &jobs, &warm,
            &batches, &window, ext_seed, &seed, &data, &red))
        return NULL;
    if (!ext_warmup(warm, &warmup))
        return NULL;
    hta_rp_opts o;
    memset(&o, 0, sizeof o);
    PyObject *r = NULL;
    hta_dist X = {0}, R = {0};
    hta_slots *s = NULL;
    hta_rp_law law = {0};
    hta_rp_table table = {0};
    char msg[300];
    if (pols == Py_None) {
        for (int p = 0; p < HTA_RP_NPOLICIES; p++)
            o.policies[p] = p != HTA_RP_OPTIMAL; /* a few slots only */
    } else {
        PyObject *seq = PySequence_Fast(pols, "policies: expected names");
        if (!seq)
            goto done;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            const char *nm = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
            int p = -1;
            for (int j = 0; nm && j < HTA_RP_NPOLICIES; j++)
                if (strcmp(nm, hta_rp_policy_names[j]) == 0)
                    p = j;
            if (p < 0) {
                if (nm)
                    PyErr_Format(PyExc_ValueError,
                                 "policies: expected random, greedy, "
                                 "threshold, rhc, rhc-adaptive or optimal, "
                                 "found "
                                 "'%s'",
                                 nm);
                Py_DECREF(seq);
                goto done;
            }
            o.policies[p] = 1;
        }
        Py_DECREF(seq);
    }
    if (!(lam > 0 && lam < 1) || K < 1 || K > 1000 || jobs < 2 ||
        jobs > 1000000000LL || batches < 2 || batches > 1000 ||
        window < 1 || window > 1000000 || nslots < 1 ||
        nslots > 100000000LL || !(lo > 0) || !(hi >= lo) || !isfinite(hi)) {
        PyErr_SetString(PyExc_ValueError,
                        "expected 0 < lam < 1, 1 <= k_limit <= 1000, jobs "
                        ">= 2, batches >= 2, window >= 1, slots >= 1, 0 < "
                        "costs[0] <= costs[1]");
        goto done;
    }
    o.lambda = lam;
    o.K = (int)K;
    o.jobs = jobs;
    o.batches = (int)batches;
    o.window = (int)window;
    o.seed = seed;
    o.warmup = warmup < 0 ? jobs / 10 : warmup;
    if (o.warmup >= jobs || jobs - o.warmup < batches) {
        PyErr_SetString(PyExc_ValueError,
                        "jobs must exceed warmup by at least batches");
        goto done;
    }
    if (hta_dist_parse(data, &X, msg, sizeof msg) != 0 ||
        hta_dist_parse(red, &R, msg, sizeof msg) != 0) {
        PyErr_Format(PyExc_ValueError, "data, reducers: %s", msg);
        goto done;
    }
    if (hta_dist_max(&R) < 0 ||
        ((o.policies[HTA_RP_THRESHOLD] || o.policies[HTA_RP_OPTIMAL]) &&
         hta_dist_max(&X) < 0)) {
        PyErr_SetString(PyExc_ValueError,
                        "reducers (and data, for the threshold and optimal "
                        "policies) need "
                        "a bounded distribution: fixed, uniform or table");
        goto done;
    }
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = hta_dist_load(&X, &d);
    if (st == HTA_OK)
        st = hta_dist_load(&R, &d);
    if (st == HTA_OK)
        st = path_obj ? hta_slots_parse(PyBytes_AS_STRING(path_obj), &s, &d) :
                        hta_slots_uniform(nslots, lo, hi, o.seed, &s, &d);
    if (st != HTA_OK) {
        ext_raise(st, &d);
        goto done;
    }
    if ((double)o.K * (double)hta_dist_max(&R) > (double)s->r) {
        PyErr_Format(PyExc_ValueError,
                     "K * the largest R must fit in the slots: %d * %lld > "
                     "%lld",
                     o.K, (long long)hta_dist_max(&R), (long long)s->r);
        goto done;
    }
    o.X = &X;
    o.R = &R;
    ext_call c;
    o.stop = &c.stop;
    ext_begin(&c);
    st = hta_rp_law_jobs(&X, &R, &law, &d);
    if (st == HTA_OK)
        st = hta_rp_opts_law(&o, &law, &table, &c.stop, &d);
    hta_rp_result res;
    int ran = st == HTA_OK && !c.stop;
    if (ran)
        st = hta_rp_run(s, &o, &res, &d);
    int stopped = ext_end(&c);
    if (stopped && (!ran || st != HTA_OK)) {
        r = Py_BuildValue("(OO)", Py_None, Py_True); /* nothing to show */
    } else if (st != HTA_OK) {
        ext_raise(st, &d);
    } else {
        PyObject *rep = report(s, &o, &res);
        r = rep ? Py_BuildValue("(NO)", rep,
                                res.cut || stopped ? Py_True : Py_False) :
                  NULL;
    }
done:
    hta_rp_table_free(&table);
    hta_rp_law_free(&law);
    hta_slots_free(s);
    hta_dist_free(&X);
    hta_dist_free(&R);
    Py_XDECREF(path_obj);
    return r;
}
