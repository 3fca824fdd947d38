/* hta.Jobs and hta.flowtime: job traces from files or the generator, and
 * the flow-time policies on them (ext.h). */
#include "ext.h"

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
    hta_status st = hta_jobs_parse(PyBytes_AS_STRING(path_obj), &j, &d);
    PyObject *r = st == HTA_OK ? ext_wrap_jobs(j) : ext_raise(st, &d);
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

PyObject *ext_flowtime(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"jobs", "machines", "policies", "preemptive",
                          NULL};
    ext_jobs *jo;
    long long machines;
    PyObject *pols = NULL;
    int pre = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!L|Op", kwl, &ext_JobsType,
                                     &jo, &machines, &pols, &pre))
        return NULL;
    if (machines < 1 || machines > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "machines: expected >= 1");
        return NULL;
    }
    int pv[HTA_FT_NPOLICIES], np = 0;
    if (!pols || pols == Py_None) {
        for (int p = 0; p < HTA_FT_NPOLICIES; p++)
            if (p != HTA_FT_DSRPT || pre)
                pv[np++] = p;
    } else {
        PyObject *seq = PySequence_Fast(pols, "policies: expected a "
                                              "sequence of names");
        if (!seq)
            return NULL;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < k; i++) {
            const char *nm = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
            int p = -1;
            for (int j = 0; nm && j < HTA_FT_NPOLICIES; j++)
                if (strcmp(nm, hta_ft_policy_names[j]) == 0)
                    p = j;
            if (p < 0 || np >= HTA_FT_NPOLICIES || (p == HTA_FT_DSRPT && !pre)) {
                if (nm)
                    PyErr_Format(PyExc_ValueError,
                                 "policies: expected distinct names among "
                                 "srpt, dsrpt (preemptive only), asrpt, "
                                 "fifo, fair; found '%s'",
                                 nm);
                Py_DECREF(seq);
                return NULL;
            }
            pv[np++] = p;
        }
        Py_DECREF(seq);
    }
    hta_ft_opts o;
    memset(&o, 0, sizeof o);
    o.machines = (int32_t)machines;
    o.preemptive = pre;
    PyObject *rows = PyList_New(0);
    int interrupted = 0;
    for (int q = 0; rows && q < np && !interrupted; q++) {
        hta_diag d;
        hta_diag_clear(&d);
        hta_ft_result r;
        ext_call c;
        o.stop = &c.stop;
        ext_begin(&c);
        hta_status st = hta_ft_run(jo->j, (hta_ft_policy)pv[q], &o, &r, &d);
        interrupted = ext_end(&c) || (st == HTA_OK && r.cut);
        if (st != HTA_OK) {
            Py_DECREF(rows);
            return ext_raise(st, &d);
        }
        PyObject *row = Py_BuildValue(
            "{s:s,s:L,s:d,s:L,s:L,s:O,s:d,s:N}", "policy",
            hta_ft_policy_names[pv[q]], "total", (long long)r.total, "mean",
            jo->j->n ? (double)r.total / (double)jo->j->n : 0.0, "slots",
            (long long)r.slots, "last", (long long)r.last, "cut",
            r.cut ? Py_True : Py_False, "seconds", r.seconds, "finish",
            ext_copy_i64(r.finish, (npy_intp)jo->j->n));
        hta_ft_result_free(&r);
        if (!row || PyList_Append(rows, row) < 0)
            Py_CLEAR(rows);
        Py_XDECREF(row);
    }
    if (!rows)
        return NULL;
    return Py_BuildValue("(NO)", rows, interrupted ? Py_True : Py_False);
}
