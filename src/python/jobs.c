/* hta.Jobs and hta.flowtime: job traces from files or the generator, and
 * the flow-time policies on them (ext.h). */
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void jobs_dealloc(ext_jobs *self)
{
    hta_jobs_free(self->j);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *ext_wrap_jobs(hta_jobs *j)
{
    ext_jobs *o = PyObject_New(ext_jobs, &ext_JobsType);
    if (!o) {
        hta_jobs_free(j);
        return NULL;
    }
    o->j = j;
    return (PyObject *)o;
}

static PyObject *jobs_read(PyObject *cls, PyObject *args)
{
    (void)cls;
    PyObject *path_obj;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
        return NULL;
    hta_diag d;
    hta_diag_clear(&d);
    hta_jobs *j = NULL;
    ext_call call;
    ext_begin(&call);
    hta_status st = hta_jobs_parse(PyBytes_AS_STRING(path_obj), &j, &d);
    PyObject *r;
    if (ext_end(&call)) {
        hta_jobs_free(j);
        r = ext_interrupted(Py_None);
    } else {
        r = st == HTA_OK ? ext_wrap_jobs(j) : ext_raise(st, &d);
    }
    Py_DECREF(path_obj);
    return r;
}

static PyObject *get_n(ext_jobs *s, void *x)
{
    (void)x;
    return PyLong_FromLongLong(s->j->n);
}
static PyObject *get_work(ext_jobs *s, void *x)
{
    (void)x;
    return PyLong_FromLongLong(s->j->work);
}
static PyObject *get_arrival(ext_jobs *s, void *x)
{
    (void)x;
    return ext_copy_i64(s->j->arrival, (npy_intp)s->j->n);
}
static PyObject *get_map(ext_jobs *s, void *x)
{
    (void)x;
    return ext_copy_i64(s->j->map, (npy_intp)s->j->n);
}
static PyObject *get_reduce(ext_jobs *s, void *x)
{
    (void)x;
    npy_intp n = (npy_intp)s->j->n;
    PyObject *arr = PyArray_SimpleNew(1, &n, NPY_INT64);
    for (npy_intp i = 0; arr && i < n; i++)
        *(int64_t *)PyArray_GETPTR1((PyArrayObject *)arr, i) =
            hta_jobs_reduce_work(s->j, i);
    return arr;
}

static PyGetSetDef jobs_getset[] = {
    {"n", (getter)get_n, NULL, "jobs", NULL},
    {"work", (getter)get_work, NULL, "total work (units)", NULL},
    {"arrival", (getter)get_arrival, NULL, "arrival slot per job", NULL},
    {"map_work", (getter)get_map, NULL, "map work per job", NULL},
    {"reduce_work", (getter)get_reduce, NULL, "reduce work per job", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static hta_status write_jobs(const void *obj, FILE *f, const char *comment,
                             volatile sig_atomic_t *stop)
{
    (void)stop; /* blocked on a FIFO, the write ends with EINTR */
    return hta_jobs_write(obj, f, comment);
}

static PyObject *jobs_write(ext_jobs *self, PyObject *args, PyObject *kw)
{
    return ext_write(self->j, write_jobs, args, kw);
}

static PyMethodDef jobs_methods[] = {
    EXT_PICKLE_METHODS(ext_reduce_jobs),
    {"write", (PyCFunction)(void (*)(void))jobs_write,
     METH_VARARGS | METH_KEYWORDS,
     "write(path, comment=None): the trace (hta-jobs 1), replaced\n"
     "atomically as the command does (a special file written through)."},
    {"read", (PyCFunction)jobs_read, METH_VARARGS | METH_STATIC,
     "read(path) -> Jobs: a job trace (hta-jobs 1)."},
    {NULL, NULL, 0, NULL}};

static PyObject *jobs_repr(ext_jobs *self)
{
    const hta_jobs *j = self->j;
    return PyUnicode_FromFormat("<hta.Jobs: %lld jobs, %lld units of work, "
                                "last arrival slot %lld>",
                                (long long)j->n, (long long)j->work,
                                (long long)(j->n ? j->arrival[j->n - 1] : 0));
}

PyTypeObject ext_JobsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hta._hta.Jobs",
    .tp_basicsize = sizeof(ext_jobs),
    .tp_dealloc = (destructor)jobs_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A MapReduce job trace (hta-jobs 1).",
    .tp_repr = (reprfunc)jobs_repr,
    .tp_methods = jobs_methods,
    .tp_getset = jobs_getset,
};

static int dist(const char *s, const char *what, hta_dist *out)
{
    char msg[300];
    if (hta_dist_parse(s, out, msg, sizeof msg) != 0) {
        PyErr_Format(PyExc_ValueError, "%s: %s", what, msg);
        return 0;
    }
    return 1;
}

PyObject *ext_gen_jobs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"jobs",  "machines", "load",     "map",
                          "reduce", "tasks",   "map_only", "seed",
                          NULL};
    long long jobs = 1000, machines = 10, tasks = 1;
    double load = 0.7, map_only = 0;
    const char *map = "exp:10", *red = "exp:10";
    uint64_t seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|LLdssLdO&", kwl, &jobs,
                                     &machines, &load, &map, &red, &tasks,
                                     &map_only, ext_seed, &seed))
        return NULL;
    if (jobs < 1 || jobs > HTA_JOBS_MAX_JOBS || machines < 1 ||
        machines > INT32_MAX || !(load > 0 && load < 1) || tasks < 1 ||
        tasks > INT32_MAX || !(map_only >= 0 && map_only <= 1)) {
        PyErr_SetString(PyExc_ValueError,
                        "expected 1 <= jobs <= 10^8, machines >= 1, 0 < load "
                        "< 1, tasks >= 1, 0 <= map_only <= 1");
        return NULL;
    }
    hta_jobs_gen g;
    memset(&g, 0, sizeof g);
    g.jobs = jobs;
    g.machines = (int32_t)machines;
    g.load = load;
    g.max_tasks = (int32_t)tasks;
    g.map_only = map_only;
    g.seed = seed;
    if (!dist(map, "map", &g.map) || !dist(red, "reduce", &g.reduce)) {
        hta_dist_free(&g.map);
        return NULL;
    }
    hta_diag d;
    hta_diag_clear(&d);
    hta_jobs *j = NULL;
    ext_call c;
    g.stop = &c.stop;
    ext_begin(&c);
    hta_status st = hta_dist_load(&g.map, &d);
    if (st == HTA_OK)
        st = hta_dist_load(&g.reduce, &d);
    if (st == HTA_OK)
        st = hta_jobs_generate(&g, &j, &d);
    int stopped = ext_end(&c);
    hta_dist_free(&g.map);
    hta_dist_free(&g.reduce);
    if (stopped) {
        hta_jobs_free(j);
        return ext_interrupted(Py_None);
    }
    if (st != HTA_OK)
        return ext_raise(st == HTA_ERR_INPUT && !d.path ? HTA_ERR_USAGE : st,
                         &d);
    return ext_wrap_jobs(j);
}

/* A point of hta flowtime --json: its head, its rows (with the finish
 * arrays the JSON does not carry), its exact program. */
static PyObject *ft_point(const hta_jobs *J, int pre, const hta_ft_point *pt,
                          double asked)
{
    double lb = hta_ft_lower_bound(pt);
    const int64_t *count = pt->class_jobs;
    PyObject *rows = PyList_New(0), *ex = NULL;
    int ok = rows != NULL;
    for (int q = 0; ok && q < pt->nrows; q++) {
        const hta_ft_row *r = &pt->rows[q];
        PyObject *cls = PyList_New(0);
        ok = cls != NULL;
        for (int c = 0; ok && c < HTA_FT_NCLASSES; c++)
            if (count[c]) {
                PyObject *e = Py_BuildValue(
                    "{s:s,s:L,s:N}", "size", hta_ft_class_names[c], "jobs",
                    (long long)count[c], "mean",
                    ext_real(r->cls_sum[c] / (double)count[c]));
                ok = e && PyList_Append(cls, e) == 0;
                Py_XDECREF(e);
            }
        PyObject *row = ok ? Py_BuildValue(
            "{s:s,s:L,s:N,s:N,s:N,s:N,s:d,s:O,s:N}", "policy",
            hta_ft_policy_names[r->policy], "total", (long long)r->total,
            "mean", ext_real((double)r->total / (double)J->n), "ratio_srpt",
            ext_real(pt->have_srpt && pt->srpt > 0 ?
                         (double)r->total / (double)pt->srpt : NAN),
            "ratio_lb", ext_real(lb > 0 ? (double)r->total / lb : NAN),
            "ratio_exact",
            ext_real(pt->exact_ran && pt->ex.optimal ?
                         (double)r->total / (double)pt->ex.value : NAN),
            "seconds", r->seconds, "classes", cls, "finish",
            ext_copy_i64(r->finish, (npy_intp)J->n)) : NULL;
        Py_XDECREF(cls);
        ok = row && PyList_Append(rows, row) == 0;
        Py_XDECREF(row);
    }
    if (ok && pt->exact_ran)
        ex = Py_BuildValue("{s:s,s:L,s:L,s:L,s:L,s:d}", "status",
                           pt->ex.optimal     ? "optimal" :
                           pt->interrupted    ? "interrupted" :
                                                "time_limit",
                           "value", (long long)pt->ex.value, "bound",
                           (long long)pt->ex.bound, "columns",
                           (long long)pt->ex.vars, "rows",
                           (long long)pt->ex.rows, "seconds", pt->ex.seconds);
    else if (ok && pt->exact_skipped)
        ex = Py_BuildValue("{s:s,s:L}", "status", "skipped", "columns",
                           (long long)pt->exact_cols);
    else if (ok)
        ex = Py_NewRef(Py_None);
    PyObject *d = ok && ex ? Py_BuildValue(
        "{s:L,s:L,s:L,s:l,s:s,s:N,s:N,s:N,s:L,s:O,s:O,s:O}", "jobs",
        (long long)J->n, "work", (long long)J->work, "span",
        (long long)hta_ft_span(J), "machines", (long)pt->N, "mode",
        pre ? "preemptive" : "non-preemptive", "load", ext_real(pt->load),
        "load_asked", ext_real(asked), "lower_bound", ext_real(lb), "job_bound_sum", (long long)pt->lbsum,
        "interrupted", pt->interrupted ? Py_True : Py_False, "policies", rows,
        "exact", ex) : NULL;
    Py_XDECREF(rows);
    Py_XDECREF(ex);
    return d;
}

/* flowtime(jobs, policies, machines per point, preemptive, stepwise,
 * exact_max_vars, time_limit, threads) -> ([point], interrupted): the
 * arguments checked by hta/__init__.py as the command checks its
 * options. */
PyObject *ext_flowtime(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    (void)kw;
    ext_jobs *jo;
    PyObject *pols, *Nobj;
    int pre, stepwise, threads;
    long long max_vars;
    double time_limit;
    PyObject *progress = Py_None, *asked_obj = Py_None;
    if (!PyArg_ParseTuple(args, "O!OOppLdi|OO", &ext_JobsType, &jo, &pols,
                          &Nobj, &pre, &stepwise, &max_vars, &time_limit,
                          &threads, &progress, &asked_obj))
        return NULL;
    const hta_jobs *J = jo->j;
    hta_ft_points_opts o;
    memset(&o, 0, sizeof o);
    o.preemptive = pre;
    o.stepwise = stepwise;
    o.exact_max_vars = max_vars;
    o.time_limit = time_limit;
    o.threads = threads;
    PyObject *seq = PySequence_Fast(pols, "policies: expected names");
    if (!seq)
        return NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) &&
                           o.npols <= HTA_FT_NPOLICIES;
         i++) {
        const char *nm = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
        if (nm && strcmp(nm, "exact") == 0)
            o.pols[o.npols++] = HTA_FT_EXACT;
        for (int j = 0; nm && j < HTA_FT_NPOLICIES; j++)
            if (strcmp(nm, hta_ft_policy_names[j]) == 0)
                o.pols[o.npols++] = j;
    }
    Py_DECREF(seq);
    double Nd[64];
    int32_t N[64];
    int n = 0;
    if (!ext_reals(Nobj, "machines", Nd, 64, &n))
        return NULL;
    /* the loads asked, one per machine count (None: --machines) */
    double asked[64];
    int na = 0;
    if (asked_obj != Py_None &&
        (!ext_reals(asked_obj, "asked", asked, 64, &na) || na != n)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "asked: expected a load per machine count");
        return NULL;
    }
    for (int k = 0; k < n; k++)
        N[k] = (int32_t)Nd[k];
    hta_ft_point *pts = calloc((size_t)n, sizeof *pts);
    if (!pts)
        return PyErr_NoMemory();
    hta_diag d;
    hta_diag_clear(&d);
    int done = 0;
    ext_call c;
    o.stop = &c.stop;
    ext_progress pg;
    ext_progress_init(&pg, progress);
    pg.stop = &c.stop;
    if (pg.fn) {
        o.progress = o.exact_progress = ext_progress_cb;
        o.progress_ctx = o.exact_progress_ctx = &pg;
    }
    ext_begin(&c);
    hta_status st = hta_ft_points(J, &o, N, n, pts, &done, &d);
    int interrupted = ext_end(&c);
    if (!ext_progress_end(&pg)) { /* the callable's exception */
        for (int k = 0; k < done; k++)
            hta_ft_point_free(&pts[k]);
        free(pts);
        return NULL;
    }
    PyObject *list = st == HTA_OK ? PyList_New(0) : NULL;
    if (st != HTA_OK)
        ext_raise(st, &d);
    for (int k = 0; k < done; k++) {
        interrupted |= pts[k].interrupted;
        PyObject *p = list ? ft_point(J, pre, &pts[k], na ? asked[k] : NAN) :
                             NULL;
        if (list && (!p || PyList_Append(list, p) < 0))
            Py_CLEAR(list);
        Py_XDECREF(p);
        hta_ft_point_free(&pts[k]);
    }
    free(pts);
    if (!list)
        return NULL;
    return Py_BuildValue("(NO)", list, interrupted ? Py_True : Py_False);
}

/* ft_machines(jobs, load) -> the machines `hta flowtime --load` gives the
 * trace (ceil(W / (load * span)), at least 1). */
PyObject *ext_ft_machines(PyObject *self, PyObject *args)
{
    (void)self;
    ext_jobs *jo;
    double load;
    if (!PyArg_ParseTuple(args, "O!d", &ext_JobsType, &jo, &load))
        return NULL;
    return PyFloat_FromDouble(hta_ft_machines_for(jo->j, load));
}
