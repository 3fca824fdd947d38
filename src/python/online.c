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
    ext_call call;
    ext_begin(&call);
    hta_status st = hta_cluster_parse(PyBytes_AS_STRING(path_obj), &c, &d);
    PyObject *r;
    if (ext_end(&call)) {
        hta_cluster_free(c);
        r = ext_interrupted(Py_None);
    } else {
        r = st == HTA_OK ? wrap_cluster(c) : ext_raise(st, &d);
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
    static char *kwl[] = {"cluster", "method", "interior", "decomposition",
                          NULL};
    ext_cluster *cl;
    const char *method = "auto";
    int interior = 0, decomposition = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|spp", kwl,
                                     &ext_ClusterType, &cl, &method,
                                     &interior, &decomposition))
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

/* One run of a sim call: a load and a policy, on the pool. */
typedef struct sim_run {
    hta_sim_opts o;
    hta_sim_result r;
    hta_status st;
    hta_diag d;
    int ran;
    int64_t *trace; /* (slot, number in system) pairs, when traced */
    size_t ntrace, cap;
    int trace_oom;
} sim_run;

static void sim_trace(void *ctx, int64_t slot, int64_t n)
{
    sim_run *j = ctx;
    if (j->ntrace + 2 > j->cap) {
        size_t cap = j->cap ? 2 * j->cap : 2048;
        int64_t *t = realloc(j->trace, cap * sizeof *t);
        if (!t) {
            j->trace_oom = 1;
            return;
        }
        j->trace = t;
        j->cap = cap;
    }
    j->trace[j->ntrace++] = slot;
    j->trace[j->ntrace++] = n;
}

/* The sample paths of the runs, in run order, as hta sim --trace-file
 * writes them, into out (opened before the runs: a path that cannot be
 * written is refused before any work). */
static hta_status write_traces(hta_outfile *out, const sim_run *runs, int n,
                               hta_diag *d)
{
    fprintf(out->f, "load,policy,slot,number_in_system\n");
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i + 1 < runs[k].ntrace; i += 2)
            fprintf(out->f, "%g,%s,%lld,%lld\n", runs[k].o.load,
                    hta_sim_policy_names[runs[k].o.policy],
                    (long long)runs[k].trace[i],
                    (long long)runs[k].trace[i + 1]);
    return hta_outfile_commit(out, d);
}

typedef struct sim_batch {
    const hta_cluster *c;
    sim_run *runs;
} sim_batch;

static void sim_run_one(void *ctx, int k)
{
    sim_batch *b = ctx;
    sim_run *j = &b->runs[k];
    hta_diag_clear(&j->d);
    j->st = hta_sim_run(b->c, &j->o, &j->r, &j->d);
    j->ran = 1;
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

/* sim(cluster, policies, loads, slots, warmup, batches, seed, arrivals,
 * service, cv, slots_per_unit, job_size, jobs, subqueues, delay,
 * max_backlog, threads, trace file (bytes, os.fsencode's, or None),
 * trace_every) -> ([report per load], interrupted); the arguments
 * checked by hta/__init__.py as the command checks its options, the
 * cluster's own limits here. */
PyObject *ext_sim(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    (void)kw;
    ext_cluster *cl;
    PyObject *pols, *loads_obj, *jobs_obj, *delay_obj, *tobj;
    long long slots, warmup, batches, per_unit, max_backlog, every;
    uint64_t seed;
    int arrivals, service, subqueues, threads;
    double cv;
    const char *job_size;
    if (!PyArg_ParseTuple(args, "O!OOLLLO&iidLzOpOLiOL", &ext_ClusterType,
                          &cl, &pols, &loads_obj, &slots, &warmup, &batches,
                          ext_seed, &seed, &arrivals, &service, &cv,
                          &per_unit, &job_size, &jobs_obj, &subqueues,
                          &delay_obj, &max_backlog, &threads, &tobj, &every))
        return NULL;
    /* borrowed from the arguments, alive for the call */
    const char *tpath = tobj == Py_None ? NULL : PyBytes_AsString(tobj);
    if (tobj != Py_None && !tpath)
        return NULL;
    const hta_cluster *c = cl->c;
    double loads[64];
    int nloads = 0, pv[HTA_SIM_NPOLICIES], np = 0;
    if (!ext_reals(loads_obj, "loads", loads, 64, &nloads))
        return NULL;
    PyObject *seq = PySequence_Fast(pols, "policies: expected names");
    if (!seq)
        return NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) &&
                           np < HTA_SIM_NPOLICIES;
         i++) {
        const char *nm = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
        for (int j = 0; nm && j < HTA_SIM_NPOLICIES; j++)
            if (strcmp(nm, hta_sim_policy_names[j]) == 0)
                pv[np++] = j;
    }
    Py_DECREF(seq);
    if (np == 0) {
        PyErr_SetString(PyExc_ValueError, "policies: expected one or more");
        return NULL;
    }
    hta_sim_opts o;
    hta_sim_opts_default(&o);
    o.slots = slots;
    o.warmup = warmup;
    o.batches = (int)batches;
    o.seed = seed;
    o.arrivals = (hta_sim_arrivals)arrivals;
    o.service = (hta_sim_service)service;
    o.cv = cv;
    o.per_unit = (double)per_unit;
    o.subqueues = subqueues;
    if (max_backlog > 0)
        o.max_backlog = max_backlog;
    if (delay_obj != Py_None) {
        double dv[2];
        int nd = 0;
        if (!ext_reals(delay_obj, "delay", dv, 2, &nd))
            return NULL;
        o.delay[0] = (int)dv[0];
        o.delay[1] = nd > 1 ? (int)dv[1] : 0;
    }
    if (jobs_obj != Py_None) {
        if (!PyObject_TypeCheck(jobs_obj, &ext_JobsType)) {
            PyErr_SetString(PyExc_TypeError, "jobs_trace: expected Jobs");
            return NULL;
        }
        o.trace_jobs = ((ext_jobs *)jobs_obj)->j;
    }
    char msg[300];
    hta_diag d;
    hta_diag_clear(&d);
    if (job_size && hta_dist_parse(job_size, &o.job_size, msg, sizeof msg)) {
        PyErr_Format(PyExc_ValueError, "job_size: %s", msg);
        return NULL;
    }
    hta_status st = hta_dist_load(&o.job_size, &d);
    if (st != HTA_OK)
        return ext_raise(st, &d);
    /* the cluster's limits, as the command checks them */
    double total = 0, top = 0, maxload = 0;
    for (int k = 0; k < nloads; k++)
        maxload = loads[k] > maxload ? loads[k] : maxload;
    for (int64_t L = 0; L < c->T; L++) {
        total += c->lambda[L];
        top = c->lambda[L] > top ? c->lambda[L] : top;
    }
    const char *bad = NULL;
    if (o.arrivals == HTA_ARR_BERNOULLI && top * maxload > o.per_unit) {
        snprintf(msg, sizeof msg,
                 "Bernoulli arrivals need every lambda_L * load / K <= 1, "
                 "found %g",
                 top * maxload / o.per_unit);
        bad = msg;
    }
    for (int n = 0; !bad && n < c->levels; n++)
        if (c->rate[n] > o.per_unit) {
            snprintf(msg, sizeof msg,
                     "the service rate %g of level %d is %g tasks a slot, "
                     "above 1 (a server ends at most one a slot): give "
                     "slots_per_unit=%.0f or more (rates per time unit of K "
                     "slots)",
                     c->rate[n], n + 1, c->rate[n] / o.per_unit,
                     ceil(c->rate[n]));
            bad = msg;
        }
    if (!bad && !o.trace_jobs &&
        !(total * maxload / o.per_unit <= HTA_SIM_MAX_ARRIVALS)) {
        snprintf(msg, sizeof msg,
                 "the arrivals are %g tasks a slot, above 10^9 (a slot's "
                 "draws are 64-bit counts): a smaller load or arrival rates",
                 total * maxload / o.per_unit);
        bad = msg;
    }
    if (bad) {
        hta_dist_free(&o.job_size);
        PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    for (int i = 0; i < 2; i++) /* default: one skip per server */
        if (o.delay[i] < 0)
            o.delay[i] = c->M;
    int n = nloads * np;
    sim_run *runs = calloc((size_t)n, sizeof *runs);
    if (!runs) {
        hta_dist_free(&o.job_size);
        return PyErr_NoMemory();
    }
    ext_call call;
    for (int k = 0; k < n; k++) {
        runs[k].o = o;
        runs[k].o.load = loads[k / np];
        runs[k].o.policy = (hta_sim_policy)pv[k % np];
        runs[k].o.stop = &call.stop;
        if (tpath) {
            runs[k].o.trace = sim_trace;
            runs[k].o.trace_ctx = &runs[k];
            runs[k].o.trace_every =
                every > 0 ? every : (slots >= 1000 ? slots / 1000 : 1);
        }
    }
    hta_capacity_opts co = {HTA_CAP_AUTO, 0, 0, 0, NULL, NULL, &call.stop};
    hta_capacity_result cap = {0};
    hta_outfile tout = {0};
    ext_begin(&call);
    if (tpath)
        st = hta_outfile_open(&tout, tpath, &d);
    if (st == HTA_OK)
        st = hta_capacity_solve(c, &co, &cap, &d);
    double rho1 = cap.rho;
    hta_capacity_result_free(&cap);
    if (st == HTA_OK) {
        sim_batch b = {c, runs};
        hta_pool_run(threads, n, sim_run_one, &b, &call.stop);
    }
    for (int k = 0; k < n && st == HTA_OK; k++)
        if (runs[k].trace_oom)
            st = hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0,
                              "out of memory");
    int ran_all = 1;
    for (int k = 0; k < n; k++)
        ran_all &= runs[k].ran && runs[k].st == HTA_OK;
    if (st == HTA_OK && tpath && ran_all)
        st = write_traces(&tout, runs, n, &d);
    hta_outfile_abort(&tout);
    int interrupted = ext_end(&call);
    PyObject *reps = st == HTA_OK ? PyList_New(0) : NULL, *rep = NULL;
    if (st != HTA_OK && !interrupted)
        ext_raise(st, &d);
    else if (st != HTA_OK)
        ext_interrupted(Py_None);
    for (int k = 0; reps && k < n; k++) {
        sim_run *j = &runs[k];
        hta_sim_opts ok_o = j->o;
        if (!j->ran || j->st != HTA_OK) {
            if (j->ran) {
                Py_CLEAR(reps);
                ext_raise(j->st, &j->d);
            }
            interrupted = 1;
            break;
        }
        if (k % np == 0) {
            double rho = rho1 * ok_o.load;
            const hta_jobs *tj = ok_o.trace_jobs;
            if (tj) { /* the trace's own rate, the cluster's type mix */
                double span = (double)(tj->arrival[tj->n - 1] -
                                       tj->arrival[0] + 1);
                double tasks = 0;
                for (int64_t i = 0; i < tj->n; i++)
                    tasks += (double)tj->map[i];
                double rate = tasks / span * ok_o.per_unit;
                rho = total > 0 ? rho1 * rate / total : 0;
                ok_o.load = total > 0 ? rate / total : 1;
            }
            rep = sim_head(c, &ok_o, total, rho);
            if (!rep || PyList_Append(reps, rep) < 0) {
                Py_XDECREF(rep);
                Py_CLEAR(reps);
                break;
            }
            Py_DECREF(rep); /* the list holds it */
        }
        hta_sim_result *r = &j->r;
        double K = ok_o.per_unit; /* delays per time unit */
        r->mean_delay /= K;
        r->ci_delay /= K;
        r->mean_job_delay /= K;
        r->ci_job_delay /= K;
        for (int q = 0; q < HTA_SIM_CLASSES; q++)
            for (int i = 0; i < 3; i++)
                r->class_pct[q][i] /= K;
        r->throughput *= K;
        PyObject *row = sim_row(c, r, hta_sim_policy_names[ok_o.policy]);
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
    for (int k = 0; k < n; k++) {
        hta_sim_result_free(&runs[k].r);
        free(runs[k].trace);
    }
    free(runs);
    hta_dist_free(&o.job_size);
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
