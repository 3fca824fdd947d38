/* hta.Cluster, hta.capacity and hta.sim: the online side's cluster model,
 * its capacity region and the simulator, reporting what `hta capacity
 * --json` and `hta sim --json` do (ext.h). */
#include "ext.h"

#include "hta/pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void cluster_dealloc(ext_cluster *self)
{
    hta_cluster_free(self->c);
    Py_XDECREF(self->recipe);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *ext_wrap_cluster(hta_cluster *c, PyObject *recipe)
{
    ext_cluster *o = PyObject_New(ext_cluster, &ext_ClusterType);
    if (!o) {
        hta_cluster_free(c);
        return NULL;
    }
    o->c = c;
    o->recipe = Py_XNewRef(recipe);
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
    ext_call call;
    ext_begin(&call);
    hta_status st = hta_cluster_parse(PyBytes_AS_STRING(path_obj), &c, &d);
    PyObject *r;
    if (ext_end(&call)) {
        hta_cluster_free(c);
        r = ext_interrupted(Py_None);
    } else {
        r = st == HTA_OK ? ext_wrap_cluster(c, NULL) : ext_raise(st, &d);
    }
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
    /* the recipe, for pickling: the values as read */
    PyObject *rt = PyTuple_New(nr), *tt = nt ? PyTuple_New(nt) : Py_NewRef(Py_None);
    for (int i = 0; rt && i < nr; i++)
        PyTuple_SET_ITEM(rt, i, PyFloat_FromDouble(rates[i]));
    for (int i = 0; tt && i < nt; i++)
        PyTuple_SET_ITEM(tt, i, PyLong_FromLong(topo[i]));
    PyObject *recipe = rt && tt ? Py_BuildValue("(OdOO)", ins, rate, rt, tt) :
                                  NULL;
    Py_XDECREF(rt);
    Py_XDECREF(tt);
    if (!recipe || PyErr_Occurred()) {
        Py_XDECREF(recipe);
        hta_cluster_free(c);
        return NULL;
    }
    PyObject *r = ext_wrap_cluster(c, recipe);
    Py_DECREF(recipe);
    return r;
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

static hta_status write_cluster(const void *obj, FILE *f,
                                const char *comment,
                                volatile sig_atomic_t *stop)
{
    (void)stop; /* a cluster file is written in well under a second */
    return hta_cluster_write(obj, f, comment);
}

static PyObject *cluster_write(ext_cluster *self, PyObject *args,
                               PyObject *kw)
{
    return ext_write(self->c, write_cluster, args, kw);
}

static PyMethodDef cluster_methods[] = {
    EXT_PICKLE_METHODS(ext_reduce_cluster),
    {"write", (PyCFunction)(void (*)(void))cluster_write,
     METH_VARARGS | METH_KEYWORDS,
     "write(path, comment=None): the cluster in its file format (the one\n"
     "hta capacity and hta sim read), replaced atomically as the command\n"
     "does (a special file written through)."},
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
    return st == HTA_OK ? ext_wrap_cluster(c, NULL) : ext_raise(st, &d);
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
    static char *kwl[] = {"cluster", "method", "interior", "decomposition",
                          "progress", NULL};
    ext_cluster *cl;
    const char *method = "auto";
    int interior = 0, decomposition = 0;
    PyObject *progress = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|sppO", kwl,
                                     &ext_ClusterType, &cl, &method,
                                     &interior, &decomposition, &progress))
        return NULL;
    hta_capacity_opts o;
    memset(&o, 0, sizeof o);
    o.interior = interior;
    o.decomposition = decomposition;
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
    ext_progress pg;
    ext_progress_init(&pg, progress);
    pg.stop = &c.stop;
    if (pg.fn) {
        o.progress = ext_progress_cb;
        o.progress_ctx = &pg;
    }
    ext_begin(&c);
    hta_status st = hta_capacity_solve(cl->c, &o, &res, &d);
    int stopped = ext_end(&c);
    if (!ext_progress_end(&pg)) { /* the callable's exception */
        if (st == HTA_OK)
            hta_capacity_result_free(&res);
        return NULL;
    }
    if (stopped) {
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
    if (ok && decomposition) { /* the rows of hta capacity --decomposition */
        PyObject *dd = PyDict_New();
        npy_intp nd = (npy_intp)res.ndec;
        PyObject *ty = ext_copy_i64(res.dec_type, nd),
                 *sv = PyArray_SimpleNew(1, &nd, NPY_INT64),
                 *rt = ext_copy_f64(res.dec_rate, nd),
                 *lv = PyArray_SimpleNew(1, &nd, NPY_INT64);
        ok = dd && ty && sv && rt && lv;
        for (npy_intp i = 0; ok && i < nd; i++) { /* int32, int8: widened */
            ((int64_t *)PyArray_DATA((PyArrayObject *)sv))[i] =
                res.dec_server[i];
            ((int64_t *)PyArray_DATA((PyArrayObject *)lv))[i] =
                res.dec_level[i];
        }
        ok = ok && ext_set(dd, "type", Py_NewRef(ty)) &&
             ext_set(dd, "server", Py_NewRef(sv)) &&
             ext_set(dd, "rate", Py_NewRef(rt)) &&
             ext_set(dd, "level", Py_NewRef(lv)) &&
             ext_set(r, "decomposition", Py_NewRef(dd));
        Py_XDECREF(ty);
        Py_XDECREF(sv);
        Py_XDECREF(rt);
        Py_XDECREF(lv);
        Py_XDECREF(dd);
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

/* The report of `hta sim --json` for one load: the head and its rows
 * (delays per time unit, throughput per unit, as the command prints). */
static PyObject *sim_head(const hta_cluster *c, const hta_sim_opts *o,
                          double total, double rho)
{
    static const char *const arr[] = {"poisson", "bernoulli", "jobs"};
    static const char *const svc[] = {"geometric", "lognormal",
                                      "exponential", "deterministic"};
    PyObject *h = PyDict_New();
    int ok = h && ext_set(h, "servers", PyLong_FromLong(c->M)) &&
             ext_set(h, "types", PyLong_FromLongLong(c->T)) &&
             ext_set(h, "levels", PyLong_FromLong(c->levels)) &&
             ext_set(h, "load", ext_real(o->load)) &&
             ext_set(h, "rate", ext_real(total * o->load)) &&
             ext_set(h, "rho", ext_real(rho)) &&
             ext_set(h, "slots", PyLong_FromLongLong(o->slots)) &&
             ext_set(h, "warmup", PyLong_FromLongLong(o->warmup)) &&
             ext_set(h, "batches", PyLong_FromLong(o->batches)) &&
             ext_set(h, "slots_per_unit", ext_real(o->per_unit)) &&
             ext_set(h, "arrivals", PyUnicode_FromString(arr[o->arrivals])) &&
             ext_set(h, "service", PyUnicode_FromString(svc[o->service])) &&
             ext_set(h, "subqueues", PyBool_FromLong(o->subqueues)) &&
             ext_set(h, "seed", PyLong_FromUnsignedLongLong(o->seed)) &&
             ext_set(h, "policies", PyList_New(0));
    if (!ok)
        Py_CLEAR(h);
    return h;
}

/* A name among names[0..n), or -1 with ValueError naming the argument. */
static int name_in(PyObject *obj, const char *what, const char *const *names,
                   int n)
{
    const char *nm = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    for (int j = 0; nm && j < n; j++)
        if (strcmp(nm, names[j]) == 0)
            return j;
    if (!PyErr_Occurred()) {
        char list[200] = "";
        for (int j = 0; j < n; j++)
            snprintf(list + strlen(list), sizeof list - strlen(list),
                     "%s%s", j ? (j + 1 < n ? ", " : " or ") : "", names[j]);
        PyObject *r = PyObject_Repr(obj);
        PyErr_Format(PyExc_ValueError, "%s: expected %s, found %s", what,
                     list, r ? PyUnicode_AsUTF8(r) : "?");
        Py_XDECREF(r);
    }
    return -1;
}

/* The policies: a list of names and policy objects (route, serve:
 * hta-policy(7)), or "a,b" (None: every built-in that applies);
 * balanced-pandas is gb-pandas.  The objects' tables go to py[], to be
 * freed by the caller (ext_pypol_free), *npy of them. */
static int sim_policies_in(PyObject *obj, hta_sim_ask *ask, ext_pypol **py,
                           int *npy)
{
    static const char *const names[] = {
        "jsq-maxweight", "priority", "gb-pandas", "balanced-pandas",
        "fcfs",          "fair",     "delay"};
    static const hta_sim_policy of[] = {
        HTA_SIM_JSQ_MAXWEIGHT, HTA_SIM_PRIORITY, HTA_SIM_GB_PANDAS,
        HTA_SIM_GB_PANDAS,     HTA_SIM_FCFS,     HTA_SIM_FAIR,
        HTA_SIM_DELAY};
    if (obj == Py_None)
        return 1;
    PyObject *seq = NULL;
    if (PyUnicode_Check(obj)) {
        PyObject *comma = PyUnicode_FromString(",");
        seq = comma ? PyUnicode_Split(obj, comma, -1) : NULL;
        Py_XDECREF(comma);
    } else if (!PySequence_Check(obj) || PyObject_HasAttrString(obj, "route")) {
        PyErr_Format(PyExc_TypeError, "policies: expected a list of names "
                                      "and policies, found %.60s",
                     Py_TYPE(obj)->tp_name);
        return 0;
    } else {
        seq = PySequence_Fast(obj, "policies: expected names");
    }
    if (!seq)
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int ok = 1;
    if (n < 1 || n > HTA_SIM_MAX_POLICIES) {
        PyErr_Format(PyExc_ValueError, "policies: expected 1 to %d names "
                                       "and policies", HTA_SIM_MAX_POLICIES);
        ok = 0;
    }
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyUnicode_Check(it)) { /* a policy of the caller's */
            ext_pypol *p = ext_pypol_new(it);
            if (!p || !ext_pypol_claim(p, py, *npy)) {
                ext_pypol_free(p);
                ok = 0;
                break;
            }
            py[(*npy)++] = p;
            ask->plugs[ask->npols] = ext_pypol_table(p);
            ask->pols[ask->npols++] = HTA_SIM_JSQ_MAXWEIGHT;
            continue;
        }
        int j = name_in(it, "policies", names, 7);
        if (j < 0) {
            ok = 0;
            break;
        }
        ask->pols_named_pandas |= j == 3;
        ask->pols[ask->npols++] = of[j];
    }
    Py_DECREF(seq);
    return ok;
}

/* A positive number given (None: 0, not given). */
static int positive(PyObject *obj, const char *what, double hi, double *out)
{
    *out = 0;
    if (!ext_real_or_none(obj, what, out))
        return 0;
    if (obj != Py_None && !(*out > 0 && *out <= hi)) {
        PyErr_Format(PyExc_ValueError, "%s: expected a number in (0, %g], "
                                       "found %R", what, hi, obj);
        return 0;
    }
    return 1;
}

static int int_or_zero(PyObject *obj, const char *what, long long lo,
                       long long hi, int64_t *out)
{
    long long v = 0;
    if (!ext_int_in(obj, what, lo, hi, &v))
        return 0;
    *out = obj == Py_None ? 0 : v;
    return 1;
}

/* The arguments of hta.sim as the library's request; 0 with the
 * exception set. */
static int sim_ask_in(PyObject *const *v, hta_sim_ask *ask, ext_pypol **py,
                      int *npy)
{
    static const char *const arr[] = {"poisson", "bernoulli", "jobs"};
    static const char *const svc[] = {"geometric", "lognormal",
                                      "exponential", "deterministic"};
    /* v: policies, loads, slots, warmup, batches, seed, arrivals,
       service, cv, slots_per_unit, job_size, jobs_trace, time_scale,
       block_mb, subqueues, delay, max_backlog, traced, trace_every */
    memset(ask, 0, sizeof *ask);
    int64_t x = 0;
    if (!sim_policies_in(v[0], ask, py, npy))
        return 0;
    if (v[1] != Py_None && !ext_reals(v[1], "load", ask->loads,
                                      HTA_SIM_MAX_LOADS, &ask->nloads))
        return 0;
    if (!int_or_zero(v[2], "slots", 2, 1000000000000000LL, &ask->slots) ||
        !int_or_zero(v[3], "warmup", 0, 1000000000000000LL, &ask->warmup) ||
        !int_or_zero(v[4], "batches", 2, 4096, &x))
        return 0;
    ask->warmup = v[3] == Py_None ? -1 : ask->warmup;
    ask->batches = (int)x;
    if (v[5] != Py_None) {
        if (!ext_seed(v[5], &ask->seed))
            return 0;
        ask->has_seed = 1;
    }
    int k;
    if (v[6] != Py_None) {
        if ((k = name_in(v[6], "arrivals", arr, 3)) < 0)
            return 0;
        ask->has_arrivals = 1;
        ask->arrivals = (hta_sim_arrivals)k;
    }
    if (v[7] != Py_None) {
        if ((k = name_in(v[7], "service", svc, 4)) < 0)
            return 0;
        ask->has_service = 1;
        ask->service = (hta_sim_service)k;
    }
    if (!positive(v[8], "cv", 100, &ask->cv) ||
        !int_or_zero(v[9], "slots_per_unit", 1, 1000000, &ask->per_unit))
        return 0;
    if (v[10] != Py_None && !PyUnicode_Check(v[10])) {
        PyErr_Format(PyExc_TypeError, "job_size: expected a str, found %s",
                     Py_TYPE(v[10])->tp_name);
        return 0;
    }
    if (v[10] != Py_None && !(ask->job_size = PyUnicode_AsUTF8(v[10])))
        return 0;
    if (v[11] != Py_None)
        ask->jobs_trace = PyBytes_AS_STRING(v[11]);
    if (!positive(v[12], "time_scale", 1e9, &ask->time_scale) ||
        !positive(v[13], "block_mb", 1e9, &ask->block_mb))
        return 0;
    ask->subqueues = PyObject_IsTrue(v[14]);
    if (ask->subqueues < 0)
        return 0;
    if (v[15] != Py_None) {
        PyObject *seq = PyLong_Check(v[15]) || PyIndex_Check(v[15]) ?
                            PyTuple_Pack(1, v[15]) :
                            PySequence_Tuple(v[15]);
        if (!seq)
            return 0;
        Py_ssize_t n = PyTuple_GET_SIZE(seq);
        int ok = n >= 1 && n <= 2;
        if (!ok)
            PyErr_SetString(PyExc_ValueError, "delay: expected D1 or (D1, D2)");
        for (Py_ssize_t i = 0; ok && i < n; i++) {
            long long dv = 0;
            ok = ext_int_in(PyTuple_GET_ITEM(seq, i), "delay", 0, 1000000000,
                            &dv);
            ask->delay[i] = (int)dv;
        }
        Py_DECREF(seq);
        if (!ok)
            return 0;
        ask->ndelay = (int)n;
    }
    if (!int_or_zero(v[16], "max_backlog", 1, 1000000000000000LL,
                     &ask->max_backlog))
        return 0;
    ask->traced = v[17] != Py_None;
    return int_or_zero(v[18], "trace_every", 1, 1000000000000000LL,
                       &ask->trace_every);
}

/* sim(cluster, policies, loads, slots, warmup, batches, seed, arrivals,
 * service, cv, slots_per_unit, job_size, jobs_trace, time_scale,
 * block_mb, subqueues, delay, max_backlog, threads, trace file,
 * trace_every; None where not given[, check]) -> ([report per load],
 * interrupted): the library's request (hta_sim_ask), so the command's
 * rules hold with its words; check: the request checked and set up,
 * nothing run (([], False): hta.sim(executor=) before its tasks). */
PyObject *ext_sim(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    (void)kw;
    ext_cluster *cl;
    PyObject *v[19], *o_threads, *trace_obj = NULL, *tpath_obj = NULL;
    int check = 0; /* the request checked and set up, nothing run */
    PyObject *progress = Py_None;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOOOOOO&OOOOOOO&O|pO",
                          &ext_ClusterType, &cl, &v[0], &v[1], &v[2], &v[3],
                          &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10],
                          ext_path_or_none, &trace_obj, &v[12], &v[13],
                          &v[14], &v[15], &v[16], &o_threads,
                          ext_path_or_none, &tpath_obj, &v[18], &check,
                          &progress))
        return NULL;
    v[11] = trace_obj ? trace_obj : Py_None;
    v[17] = tpath_obj ? tpath_obj : Py_None;
    const hta_cluster *c = cl->c;
    hta_sim_ask ask;
    long long threads = 1;
    PyObject *reps = NULL;
    ext_pypol *py[HTA_SIM_MAX_POLICIES];
    int npy = 0;
    if (!sim_ask_in(v, &ask, py, &npy) ||
        !ext_int_in(o_threads, "threads", 1, 1024, &threads)) {
        for (int i = 0; i < npy; i++)
            ext_pypol_free(py[i]);
        Py_XDECREF(trace_obj);
        Py_XDECREF(tpath_obj);
        return NULL;
    }
    if (o_threads == Py_None)
        threads = hta_threads_default();
    const char *tpath = tpath_obj ? PyBytes_AS_STRING(tpath_obj) : NULL;
    hta_dist js = {0};
    char msg[300];
    const char *ins[2] = {ask.jobs_trace, NULL};
    if (ask.job_size &&
        hta_dist_parse(ask.job_size, &js, msg, sizeof msg) == 0 &&
        js.kind == HTA_DIST_TABLE)
        ins[1] = js.path;
    for (int i = 0; tpath && i < 2; i++)
        if (ins[i] && hta_outfile_same_file(tpath, ins[i])) {
            PyErr_Format(PyExc_ValueError, "output '%s' is the input '%s'",
                         tpath, ins[i]);
            for (int j = 0; j < npy; j++)
                ext_pypol_free(py[j]);
            Py_XDECREF(trace_obj);
            Py_XDECREF(tpath_obj);
            return NULL;
        }
    ext_call call;
    ask.stop = &call.stop;
    hta_diag d;
    hta_diag_clear(&d);
    hta_sim_setup su = {0};
    hta_outfile tout = {0};
    hta_sim_result *res = NULL;
    int *ran = NULL, n = 0;
    ext_progress pg;
    ext_progress_init(&pg, progress);
    pg.stop = &call.stop;
    ext_begin(&call);
    hta_status st = hta_sim_ask_check(&ask, &d);
    if (st == HTA_OK && tpath && (st = hta_outfile_open(&tout, tpath, &d)) ==
                                     HTA_OK)
        fprintf(tout.f, "load,policy,slot,number_in_system\n");
    if (st == HTA_OK)
        st = hta_sim_setup_make(&ask, c, &su, &d);
    if (st == HTA_OK && pg.fn) {
        su.o.progress = ext_progress_cb;
        su.o.progress_ctx = &pg;
    }
    if (st == HTA_OK && !check) {
        n = su.nloads * su.npols;
        res = calloc((size_t)n, sizeof *res);
        ran = calloc((size_t)n, sizeof *ran);
        st = res && ran ? hta_sim_batch(c, &su, (int)threads,
                                        tpath ? tout.f : NULL, res, ran, &d) :
                          hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0,
                                       "out of memory");
    }
    if (st == HTA_OK && tpath)
        st = hta_outfile_commit(&tout, &d);
    hta_outfile_abort(&tout);
    int interrupted = ext_end(&call);
    /* the progress callable's exception, raised in the end in place of
       everything */
    PyObject *pt = NULL, *pv = NULL, *ptb = NULL;
    if (!ext_progress_end(&pg))
        PyErr_Fetch(&pt, &pv, &ptb);
    int pyexc = 0; /* a policy's own exception, first in run order */
    for (int k = 0; st != HTA_OK && res && !pyexc && k < n; k++)
        for (int i = 0; i < npy && !pyexc; i++) {
            hta_sim_opts o;
            hta_sim_setup_run(&su, k, &o);
            /* the run's table is the setup's copy: the same arg */
            if (o.plugin && o.plugin->arg == ext_pypol_table(py[i])->arg)
                pyexc = ext_pypol_raise(py[i], o.load);
        }
    /* the policy's exception, set again below with the reports of the
       runs up to it (its own as a cut run) as hta_reports */
    PyObject *et = NULL, *ev = NULL, *etb = NULL;
    if (pyexc) {
        PyErr_Fetch(&et, &ev, &etb);
        reps = PyList_New(0);
    } else if (st != HTA_OK && (!interrupted || st == HTA_ERR_USAGE)) {
        ext_raise(st, &d);
    } else if (st != HTA_OK) {
        ext_interrupted(Py_None);
    } else {
        reps = PyList_New(0);
    }
    PyObject *rep = NULL;
    for (int k = 0; reps && k < n; k++) {
        int q = k % su.npols;
        if (!ran[k]) {
            interrupted = 1;
            break;
        }
        if (pyexc && res[k].slots == 0)
            break; /* the failed run kept nothing */
        hta_sim_opts o;
        hta_sim_setup_run(&su, k, &o);
        if (q == 0) {
            double rho;
            hta_sim_setup_point(&su, k / su.npols, &o.load, &rho);
            rep = sim_head(c, &o, su.total, rho);
            if (!rep || PyList_Append(reps, rep) < 0) {
                Py_XDECREF(rep);
                Py_CLEAR(reps);
                break;
            }
            Py_DECREF(rep); /* the list holds it */
        }
        hta_sim_result *r = &res[k];
        PyObject *row = sim_row(c, r, hta_sim_opts_policy_name(&o));
        if (!row ||
            PyList_Append(PyDict_GetItemString(rep, "policies"), row) < 0) {
            Py_XDECREF(row);
            Py_CLEAR(reps);
            break;
        }
        Py_DECREF(row);
        if (r->cut) {
            interrupted = 1;
            break;
        }
    }
    for (int k = 0; res && k < n; k++)
        hta_sim_result_free(&res[k]);
    free(res);
    free(ran);
    hta_sim_setup_free(&su);
    for (int i = 0; i < npy; i++)
        ext_pypol_free(py[i]);
    Py_XDECREF(trace_obj);
    Py_XDECREF(tpath_obj);
    if (pt) {
        Py_XDECREF(reps);
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(etb);
        PyErr_Clear();
        PyErr_Restore(pt, pv, ptb);
        return NULL;
    }
    if (pyexc) {
        if (!reps || PyObject_SetAttrString(ev, "hta_reports", reps) < 0)
            PyErr_Clear(); /* the exception without them */
        Py_XDECREF(reps);
        PyErr_Restore(et, ev, etb);
        return NULL;
    }
    if (!reps)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(reps); i++)
        if (!ext_set(PyList_GET_ITEM(reps, i), "interrupted",
                     PyBool_FromLong(interrupted &&
                                     i == PyList_GET_SIZE(reps) - 1))) {
            Py_DECREF(reps);
            return NULL;
        }
    return Py_BuildValue("(NO)", reps, interrupted ? Py_True : Py_False);
}
