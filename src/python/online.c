/* hta.Cluster, hta.capacity and hta.sim: the online side's cluster model,
 * its capacity region and the simulator, reporting what `hta capacity
 * --json` and `hta sim --json` do (ext.h). */
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void cluster_dealloc(ext_cluster *self)
{
    hta_cluster_free(self->c);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *wrap_cluster(hta_cluster *c)
{
    ext_cluster *o = PyObject_New(ext_cluster, &ext_ClusterType);
    if (!o) {
        hta_cluster_free(c);
        return NULL;
    }
    o->c = c;
    return (PyObject *)o;
}

static PyObject *cluster_read(PyObject *cls, PyObject *args)
{
    (void)cls;
    PyObject *path_obj;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
        return NULL;
    hta_diag d;
    hta_diag_clear(&d);
    hta_cluster *c = NULL;
    hta_status st = hta_cluster_parse(PyBytes_AS_STRING(path_obj), &c, &d);
    PyObject *r = st == HTA_OK ? wrap_cluster(c) : ext_raise(st, &d);
    Py_DECREF(path_obj);
    return r;
}

/* A sequence of at most max numbers into out; its length, -1 on error. */
static int reals(PyObject *obj, const char *what, double *out, int max)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > max) {
        PyErr_Format(PyExc_ValueError, "%s: expected at most %d values", what,
                     max);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return (int)k;
}

static PyObject *cluster_from_instance(PyObject *cls, PyObject *args,
                                       PyObject *kw)
{
    (void)cls;
    static char *kwl[] = {"instance", "rate", "rates", "topology", NULL};
    ext_instance *ins;
    double rate, rates[HTA_MAX_LEVELS + 1], tv[HTA_MAX_LEVELS + 1];
    PyObject *rates_obj, *topo_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!dO|O", kwl,
                                     &ext_InstanceType, &ins, &rate,
                                     &rates_obj, &topo_obj))
        return NULL;
    int nr = reals(rates_obj, "rates", rates, HTA_MAX_LEVELS);
    int nt = topo_obj == Py_None ? 0 :
                                   reals(topo_obj, "topology", tv,
                                         HTA_MAX_LEVELS - 2);
    if (nr < 0 || nt < 0)
        return NULL;
    int32_t topo[HTA_MAX_LEVELS];
    for (int i = 0; i < nt; i++) {
        if (!(tv[i] >= 1 && tv[i] <= 16777216 && tv[i] == floor(tv[i]))) {
            PyErr_SetString(PyExc_ValueError,
                            "topology: expected integers in [1, 2^24]");
            return NULL;
        }
        topo[i] = (int32_t)tv[i];
    }
    hta_diag d;
    hta_diag_clear(&d);
    hta_cluster *c = NULL;
    hta_status st = hta_cluster_from_instance(ins->inst, rate, rates, nr,
                                              topo, nt, &c, &d);
    if (st != HTA_OK)
        return ext_raise(st == HTA_ERR_INPUT ? HTA_ERR_USAGE : st, &d);
    return wrap_cluster(c);
}

static PyObject *get_servers(ext_cluster *s, void *x)
{
    (void)x;
    return PyLong_FromLong(s->c->M);
}
static PyObject *get_types(ext_cluster *s, void *x)
{
    (void)x;
    return PyLong_FromLongLong(s->c->T);
}
static PyObject *get_levels(ext_cluster *s, void *x)
{
    (void)x;
    return PyLong_FromLong(s->c->levels);
}
static PyObject *get_rates(ext_cluster *s, void *x)
{
    (void)x;
    return ext_copy_f64(s->c->rate, s->c->levels);
}
static PyObject *get_arrival(ext_cluster *s, void *x)
{
    (void)x;
    return ext_copy_f64(s->c->lambda, (npy_intp)s->c->T);
}

static PyGetSetDef cluster_getset[] = {
    {"servers", (getter)get_servers, NULL, "servers M", NULL},
    {"types", (getter)get_types, NULL, "task types", NULL},
    {"levels", (getter)get_levels, NULL, "locality levels N", NULL},
    {"rates", (getter)get_rates, NULL, "service rate per level", NULL},
    {"arrival_rates", (getter)get_arrival, NULL, "lambda per type", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef cluster_methods[] = {
    {"read", (PyCFunction)cluster_read, METH_VARARGS | METH_STATIC,
     "read(path) -> Cluster: a cluster file (hta-cluster 1)."},
    {"from_instance", (PyCFunction)(void (*)(void))cluster_from_instance,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     "from_instance(instance, rate, rates, topology=None) -> Cluster:\n"
     "tasks with one replica set form a type, each task adding rate;\n"
     "rates per level, strictly decreasing; topology (racks of K1\n"
     "servers, ...) for a two-level instance, none for an N-level one\n"
     "(its own racks)."},
    {NULL, NULL, 0, NULL}};

static PyObject *cluster_repr(ext_cluster *self)
{
    const hta_cluster *c = self->c;
    double total = 0;
    for (int64_t L = 0; L < c->T; L++)
        total += c->lambda[L];
    char x[32];
    hta_format_real(x, total);
    return PyUnicode_FromFormat("<hta.Cluster: %ld servers, %lld types, %d "
                                "levels, total arrival rate %s>",
                                (long)c->M, (long long)c->T, c->levels, x);
}

PyTypeObject ext_ClusterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hta._hta.Cluster",
    .tp_basicsize = sizeof(ext_cluster),
    .tp_dealloc = (destructor)cluster_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A cluster for the capacity region and the simulator.",
    .tp_repr = (reprfunc)cluster_repr,
    .tp_methods = cluster_methods,
    .tp_getset = cluster_getset,
};

/* A number given must be one the command reads: NaN (the library's
 * "not given") and infinities are refused. */
static int finite_or_none(PyObject *obj, const char *what, double x)
{
    if (obj == Py_None || isfinite(x))
        return 1;
    PyErr_Format(PyExc_ValueError, "%s: expected a number in [0, 1e+300]",
                 what);
    return 0;
}

PyObject *ext_gen_cluster(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"kind",  "servers", "data_servers", "types",
                          "replicas", "total", "load", "rates",
                          "topology", "seed", NULL};
    const char *kind;
    PyObject *o[8] = {Py_None, Py_None, Py_None, Py_None,
                      Py_None, Py_None, Py_None, Py_None};
    hta_gen_cluster_ask ask;
    memset(&ask, 0, sizeof ask);
    ask.has_seed = 1;
    ask.seed = 1; /* the command's default */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|OOOOOOOOO&", kwl, &kind,
                                     &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                                     &o[6], &o[7], ext_seed, &ask.seed))
        return NULL;
    static const char *const kinds[] = {"wang", "gbpandas", "random"};
    int k = -1;
    for (int i = 0; i < 3; i++)
        if (strcmp(kind, kinds[i]) == 0)
            k = i;
    if (k < 0) {
        PyErr_Format(PyExc_ValueError,
                     "kind: expected 'wang', 'gbpandas' or 'random', found "
                     "'%s'",
                     kind);
        return NULL;
    }
    ask.kind = (hta_cluster_kind)k;
    long long servers = 0, data = 0, types = 0, replicas = 0;
    ask.total = ask.load = NAN;
    if (!ext_int_in(o[0], "servers", 1, HTA_MAX_SERVERS, &servers) ||
        !ext_int_in(o[1], "data_servers", 1, HTA_MAX_SERVERS, &data) ||
        !ext_int_in(o[2], "types", 1, 100000000, &types) ||
        !ext_int_in(o[3], "replicas", 1, 64, &replicas) ||
        !ext_real_or_none(o[4], "total", &ask.total) ||
        !ext_real_or_none(o[5], "load", &ask.load) ||
        !finite_or_none(o[4], "total", ask.total) ||
        !finite_or_none(o[5], "load", ask.load) ||
        (o[6] != Py_None &&
         !ext_reals(o[6], "rates", ask.rates, HTA_MAX_LEVELS, &ask.nrates)))
        return NULL;
    if (o[7] != Py_None) {
        double t[6];
        if (!ext_reals(o[7], "topology", t, 6, &ask.ntopo))
            return NULL;
        for (int i = 0; i < ask.ntopo; i++) {
            if (!(t[i] >= 1 && t[i] <= (double)HTA_MAX_SERVERS) ||
                t[i] != (double)(int32_t)t[i]) {
                PyErr_Format(PyExc_ValueError,
                             "topology: expected integers in [1, %lld]",
                             HTA_MAX_SERVERS);
                return NULL;
            }
            ask.topo[i] = (int32_t)t[i];
        }
    }
    ask.servers = (int32_t)servers;
    ask.data_servers = (int32_t)data;
    ask.types = types;
    ask.replicas = (int32_t)replicas;
    hta_gen_cluster_params p;
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = hta_gen_cluster_resolve(&ask, &p, &d);
    if (st != HTA_OK)
        return ext_raise(st, &d);
    hta_cluster *c = NULL;
    ext_call call;
    p.stop = &call.stop;
    ext_begin(&call);
    st = hta_gen_cluster(&p, &c, &d);
    if (ext_end(&call)) {
        hta_cluster_free(c);
        return ext_interrupted(Py_None);
    }
    return st == HTA_OK ? wrap_cluster(c) : ext_raise(st, &d);
}

/* ---- capacity --------------------------------------------------------- */

static double total_rate(const hta_cluster *c)
{
    double s = 0;
    for (int64_t L = 0; L < c->T; L++)
        s += c->lambda[L];
    return s;
}

PyObject *ext_capacity(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"cluster", "method", NULL};
    ext_cluster *cl;
    const char *method = "auto";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|s", kwl, &ext_ClusterType,
                                     &cl, &method))
        return NULL;
    hta_capacity_opts o;
    memset(&o, 0, sizeof o);
    int m = -1;
    for (int i = 0; i < 5; i++)
        if (strcmp(method, hta_capacity_method_names[i]) == 0)
            m = i;
    if (m < 0) {
        PyErr_Format(PyExc_ValueError,
                     "method: expected auto, lp, flow, plain or gflow, "
                     "found '%s'",
                     method);
        return NULL;
    }
    o.method = (hta_capacity_method)m;
    hta_diag d;
    hta_diag_clear(&d);
    hta_capacity_result res;
    ext_call c;
    o.stop = &c.stop;
    ext_begin(&c);
    hta_status st = hta_capacity_solve(cl->c, &o, &res, &d);
    if (ext_end(&c)) {
        if (st == HTA_OK)
            hta_capacity_result_free(&res);
        return ext_interrupted(Py_None);
    }
    if (st != HTA_OK)
        return ext_raise(st, &d);
    const hta_cluster *k = cl->c;
    PyObject *r = PyDict_New(), *b = PyList_New(res.nbottle);
    int ok = r && b;
    for (int64_t i = 0; ok && i < res.nbottle; i++) {
        const hta_bottleneck *x = &res.bottle[i];
        char name[64];
        if (x->level >= k->levels)
            snprintf(name, sizeof name, "cluster");
        else
            snprintf(name, sizeof name, "server %lld", (long long)x->group);
        PyObject *e = Py_BuildValue("{s:i,s:L,s:s}", "level", x->level,
                                    "group", (long long)x->group, "name",
                                    name);
        if (!e)
            ok = 0;
        else
            PyList_SET_ITEM(b, (Py_ssize_t)i, e);
    }
    ok = ok && ext_set(r, "servers", PyLong_FromLong(k->M)) &&
         ext_set(r, "types", PyLong_FromLongLong(k->T)) &&
         ext_set(r, "levels", PyLong_FromLong(k->levels)) &&
         ext_set(r, "total_rate", PyFloat_FromDouble(total_rate(k))) &&
         ext_set(r, "method",
                 PyUnicode_FromString(hta_capacity_method_names[res.method])) &&
         ext_set(r, "rho", PyFloat_FromDouble(res.rho)) &&
         ext_set(r, "status",
                 PyUnicode_FromString(hta_capacity_status_names[res.status])) &&
         ext_set(r, "headroom",
                 PyFloat_FromDouble(res.rho > 0 ? 1.0 / res.rho : INFINITY));
    if (ok) {
        ok = ext_set(r, "bottlenecks", b);
        b = NULL;
    }
    hta_capacity_result_free(&res);
    Py_XDECREF(b);
    if (!ok)
        Py_CLEAR(r);
    return r;
}

/* ---- the simulator ---------------------------------------------------- */

static PyObject *sim_row(const hta_cluster *c, const hta_sim_result *r,
                         const char *name)
{
    PyObject *d = PyDict_New(), *lv = PyList_New(c->levels),
             *cls = PyList_New(0);
    int ok = d && lv && cls;
    for (int n = 0; ok && n < c->levels; n++) {
        PyObject *x = ext_real(r->level_frac[n]);
        if (!x)
            ok = 0;
        else
            PyList_SET_ITEM(lv, n, x);
    }
    for (int k = 0; ok && k < HTA_SIM_CLASSES; k++) {
        if (!r->class_jobs[k])
            continue;
        PyObject *e = PyDict_New();
        ok = e &&
             ext_set(e, "size",
                     PyUnicode_FromString(hta_sim_class_names[k])) &&
             ext_set(e, "jobs", PyLong_FromLongLong(r->class_jobs[k])) &&
             ext_set(e, "p50", ext_real(r->class_pct[k][0])) &&
             ext_set(e, "p95", ext_real(r->class_pct[k][1])) &&
             ext_set(e, "p99", ext_real(r->class_pct[k][2])) &&
             PyList_Append(cls, e) == 0;
        Py_XDECREF(e);
    }
    ok = ok && ext_set(d, "policy", PyUnicode_FromString(name)) &&
         ext_set(d, "slots", PyLong_FromLongLong(r->slots)) &&
         ext_set(d, "cut", PyBool_FromLong(r->cut)) &&
         ext_set(d, "arrived", PyLong_FromLongLong(r->arrived)) &&
         ext_set(d, "departed", PyLong_FromLongLong(r->departed)) &&
         ext_set(d, "in_system", PyLong_FromLongLong(r->in_system)) &&
         ext_set(d, "delay", ext_real(r->mean_delay)) &&
         ext_set(d, "delay_ci", ext_real(r->ci_delay)) &&
         ext_set(d, "number", ext_real(r->mean_n)) &&
         ext_set(d, "number_ci", ext_real(r->ci_n)) &&
         ext_set(d, "throughput", ext_real(r->throughput)) &&
         ext_set(d, "utilisation", ext_real(r->utilisation));
    if (ok) {
        ok = ext_set(d, "levels", lv);
        lv = NULL;
    }
    ok = ok && ext_set(d, "little_gap", ext_real(r->little_gap)) &&
         ext_set(d, "slope", ext_real(r->slope)) &&
         ext_set(d, "slope_t", ext_real(r->slope_t)) &&
         ext_set(d, "jobs", PyLong_FromLongLong(r->jobs_arrived)) &&
         ext_set(d, "jobs_done", PyLong_FromLongLong(r->jobs_done)) &&
         ext_set(d, "job_delay",
                 ext_real(r->jobs_arrived ? r->mean_job_delay : NAN)) &&
         ext_set(d, "job_delay_ci",
                 ext_real(r->jobs_arrived ? r->ci_job_delay : NAN));
    if (ok) {
        ok = ext_set(d, "job_classes", cls);
        cls = NULL;
    }
    ok = ok &&
         ext_set(d, "verdict",
                 PyUnicode_FromString(hta_sim_verdict_names[r->verdict])) &&
         ext_set(d, "stable",
                 r->verdict == HTA_SIM_STABLE    ? Py_NewRef(Py_True) :
                 r->verdict == HTA_SIM_UNDECIDED ? Py_NewRef(Py_None) :
                                                   Py_NewRef(Py_False)) &&
         ext_set(d, "backlog_slot",
                 ext_real(r->verdict == HTA_SIM_UNSTABLE ?
                              (double)r->backlog_slot :
                              NAN)) &&
         ext_set(d, "seconds", PyFloat_FromDouble(r->seconds));
    Py_XDECREF(lv);
    Py_XDECREF(cls);
    if (!ok)
        Py_CLEAR(d);
    return d;
}

PyObject *ext_sim(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"cluster", "policies", "slots", "load", "seed",
                          "warmup",  "batches",  NULL};
    ext_cluster *cl;
    PyObject *pols = NULL;
    long long slots = 100000, warmup = -1, batches = 30;
    uint64_t seed = 1;
    double load = 1;
    PyObject *warm = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|OLdO&OL", kwl,
                                     &ext_ClusterType, &cl, &pols, &slots,
                                     &load, ext_seed, &seed, &warm, &batches))
        return NULL;
    if (!ext_warmup(warm, &warmup))
        return NULL;
    int pv[HTA_SIM_NPOLICIES * 2], np = 0;
    if (!pols) {
        pv[np++] = HTA_SIM_JSQ_MAXWEIGHT;
        pv[np++] = HTA_SIM_PRIORITY;
        pv[np++] = HTA_SIM_GB_PANDAS;
        pv[np++] = HTA_SIM_FCFS;
    } else {
        PyObject *seq = NULL;
        if (PyUnicode_Check(pols)) { /* "a,b": split on commas */
            PyObject *sep = PyUnicode_FromString(",");
            seq = sep ? PyUnicode_Split(pols, sep, -1) : NULL;
            Py_XDECREF(sep);
        } else {
            seq = PySequence_List(pols);
        }
        if (!seq)
            return NULL;
        Py_ssize_t k = PyList_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < k; i++) {
            const char *nm = PyUnicode_AsUTF8(PyList_GET_ITEM(seq, i));
            int p = -1;
            for (int j = 0; nm && j < HTA_SIM_NPOLICIES; j++)
                if (strcmp(nm, hta_sim_policy_names[j]) == 0)
                    p = j;
            if (nm && strcmp(nm, "balanced-pandas") == 0)
                p = HTA_SIM_GB_PANDAS;
            if (p < 0 || p == HTA_SIM_FAIR || p == HTA_SIM_DELAY ||
                np >= HTA_SIM_NPOLICIES * 2) {
                if (nm)
                    PyErr_Format(PyExc_ValueError,
                                 "policies: expected jsq-maxweight, "
                                 "priority, gb-pandas or fcfs (at most "
                                 "%d), found '%s'",
                                 HTA_SIM_NPOLICIES * 2, nm);
                Py_DECREF(seq);
                return NULL;
            }
            pv[np++] = p;
        }
        Py_DECREF(seq);
        if (np == 0) {
            PyErr_SetString(PyExc_ValueError, "policies: expected one or more");
            return NULL;
        }
    }
    if (warmup < 0)
        warmup = slots / 10;
    if (slots < 1 || slots > 4000000000000LL || batches < 2 ||
        batches > 1000 || warmup >= slots || slots - warmup < batches) {
        PyErr_SetString(PyExc_ValueError,
                        "expected slots > warmup >= 0 with slots - warmup "
                        ">= batches >= 2");
        return NULL;
    }
    if (!(load >= 0) || !isfinite(load)) {
        PyErr_SetString(PyExc_ValueError, "load: expected a finite x >= 0");
        return NULL;
    }
    hta_sim_opts o;
    hta_sim_opts_default(&o);
    o.load = load;
    o.slots = slots;
    o.warmup = warmup;
    o.batches = (int)batches;
    o.seed = seed;
    PyObject *rows = PyList_New(0);
    int interrupted = 0;
    for (int q = 0; rows && q < np && !interrupted; q++) {
        o.policy = (hta_sim_policy)pv[q];
        hta_diag d;
        hta_diag_clear(&d);
        hta_sim_result r;
        ext_call c;
        o.stop = &c.stop;
        ext_begin(&c);
        hta_status st = hta_sim_run(cl->c, &o, &r, &d);
        interrupted = ext_end(&c) || (st == HTA_OK && r.cut);
        if (st != HTA_OK) {
            Py_DECREF(rows);
            return ext_raise(st, &d);
        }
        PyObject *row = sim_row(cl->c, &r, hta_sim_policy_names[o.policy]);
        hta_sim_result_free(&r);
        if (!row || PyList_Append(rows, row) < 0)
            Py_CLEAR(rows);
        Py_XDECREF(row);
    }
    if (!rows)
        return NULL;
    return Py_BuildValue("(NO)", rows, interrupted ? Py_True : Py_False);
}
