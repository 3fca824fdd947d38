/* The module hta._hta: its exceptions, the GIL and Ctrl-C around long
 * calls, and the conversions every file uses (ext.h). */
#define HTA_EXT_MODULE
#include "ext.h"

#include <pythread.h>

#include "hta/pool.h"
#include <stdlib.h>
#include <string.h>

PyObject *ext_ParseError, *ext_Error;
/* The stop flag of the main thread's running call, or NULL: what SIGINT
   sets.  Written with the GIL held, read by the handler. */
static volatile sig_atomic_t *volatile main_stop;
static unsigned long main_ident; /* threading.main_thread().ident */

PyObject *ext_raise(hta_status st, const hta_diag *d)
{
    const char *msg = d->msg[0] ? d->msg : "error";
    if (st == HTA_ERR_INPUT && d->path) {
        PyObject *e = PyObject_CallFunction(ext_ParseError, "ssl", msg,
                                            d->path, d->line);
        if (e) {
            PyErr_SetObject(ext_ParseError, e);
            Py_DECREF(e);
        }
    } else if (st == HTA_ERR_INTERNAL && strstr(msg, "out of memory")) {
        PyErr_NoMemory();
    } else if (st == HTA_ERR_IO) {
        if (d->path)
            PyErr_Format(PyExc_OSError, "%s: %s", d->path, msg);
        else
            PyErr_SetString(PyExc_OSError, msg);
    } else if (st == HTA_ERR_USAGE || st == HTA_ERR_INPUT) {
        PyErr_SetString(PyExc_ValueError, msg);
    } else {
        PyErr_SetString(ext_Error, msg);
    }
    return NULL;
}

PyObject *ext_raise_arg(const char *arg, hta_status st, const hta_diag *d)
{
    if (st != HTA_ERR_INPUT && st != HTA_ERR_USAGE)
        return ext_raise(st, d);
    PyErr_Format(PyExc_ValueError, "%s: %s", arg,
                 d->msg[0] ? d->msg : "error");
    return NULL;
}

int ext_set_name(hta_instance *inst, char kind, int32_t id, PyObject *obj,
                 const char *arg)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected str, found %s", arg,
                     Py_TYPE(obj)->tp_name);
        return 0;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(obj, &len);
    if (!s)
        return 0;
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = hta_gate_name(kind, s, (size_t)len, NULL, 0, &d);
    if (st == HTA_OK)
        st = hta_instance_set_name(inst, kind, id, s, &d);
    if (st != HTA_OK) {
        ext_raise_arg(arg, st, &d);
        return 0;
    }
    return 1;
}

static void on_sigint(int sig)
{
    (void)sig;
    volatile sig_atomic_t *p = main_stop;
    if (p)
        *p = 1;
}

void ext_begin(ext_call *c)
{
    c->handler = 0;
    c->stop = 0;
    c->prev = NULL;
    /* Ctrl-C is ours only in the main thread, where Python takes it,
       and not where SIGINT is ignored (a background job) */
    struct sigaction sa;
    if (PyThread_get_thread_ident() == main_ident &&
        sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        c->prev = main_stop;
        main_stop = &c->stop;
        c->handler = sigaction(SIGINT, &sa, &c->old) == 0;
        if (!c->handler)
            main_stop = c->prev;
    }
    c->reads = hta_reads_stop(&c->stop);
    c->ts = PyEval_SaveThread();
}

int ext_end(ext_call *c)
{
    PyEval_RestoreThread(c->ts);
    hta_reads_stop(c->reads);
    if (c->handler) {
        sigaction(SIGINT, &c->old, NULL);
        main_stop = c->prev;
    }
    return c->handler && c->stop;
}

PyObject *ext_interrupted(PyObject *result)
{
    PyObject *mod = PyImport_ImportModule("hta");
    PyObject *cls = mod ? PyObject_GetAttrString(mod, "Interrupted") : NULL;
    Py_XDECREF(mod);
    if (!cls) {
        PyErr_Clear();
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        return NULL;
    }
    PyObject *e = PyObject_CallOneArg(cls, result);
    if (e) {
        PyErr_SetObject(cls, e);
        Py_DECREF(e);
    }
    Py_DECREF(cls);
    return NULL;
}

PyObject *ext_write(const void *obj, ext_writer fn, PyObject *args,
                    PyObject *kw)
{
    static char *kwl[] = {"path", "comment", NULL};
    PyObject *path_obj;
    const char *comment = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|z", kwl,
                                     PyUnicode_FSConverter, &path_obj,
                                     &comment))
        return NULL;
    hta_diag d;
    hta_diag_clear(&d);
    hta_outfile out;
    const char *path = PyBytes_AS_STRING(path_obj);
    ext_call c;
    ext_begin(&c);
    hta_status st = hta_outfile_open(&out, path, &d);
    if (st == HTA_OK) {
        st = fn(obj, out.f, comment, &c.stop);
        if (st != HTA_OK)
            hta_diag_set(&d, st, path, 0, "write error");
        else
            st = hta_outfile_commit(&out, &d);
        hta_outfile_abort(&out);
    }
    int stopped = ext_end(&c);
    PyObject *r = stopped && st != HTA_OK ? ext_interrupted(Py_None) :
                  st == HTA_OK            ? Py_NewRef(Py_None) :
                                            ext_raise(st, &d);
    Py_DECREF(path_obj);
    return r;
}

char *ext_memwrite(ext_memwriter fn, const void *obj, size_t *len,
                   hta_status *st)
{
    char *buf = NULL;
    *len = 0;
    *st = HTA_ERR_INTERNAL; /* no stream: out of memory */
    Py_BEGIN_ALLOW_THREADS
    FILE *f = open_memstream(&buf, len);
    if (f) {
        *st = fn(obj, f);
        if (fclose(f) != 0 && *st == HTA_OK)
            *st = HTA_ERR_INTERNAL;
    }
    Py_END_ALLOW_THREADS
    if (*st != HTA_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void free_capsule(PyObject *cap)
{
    free(PyCapsule_GetPointer(cap, "hta.array"));
}

PyObject *ext_own_array(void *data, npy_intp n, int type)
{
    PyObject *arr = PyArray_SimpleNewFromData(1, &n, type, data);
    if (!arr) {
        free(data);
        return NULL;
    }
    PyObject *cap = PyCapsule_New(data, "hta.array", free_capsule);
    if (!cap) {
        Py_DECREF(arr);
        free(data);
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)arr, cap) < 0) {
        Py_DECREF(arr);
        return NULL; /* the capsule, stolen, freed the data */
    }
    return arr;
}

PyObject *ext_copy_i64(const int64_t *data, npy_intp n)
{
    PyObject *arr = PyArray_SimpleNew(1, &n, NPY_INT64);
    if (arr && n)
        memcpy(PyArray_DATA((PyArrayObject *)arr), data,
               (size_t)n * sizeof *data);
    return arr;
}

PyObject *ext_copy_f64(const double *data, npy_intp n)
{
    PyObject *arr = PyArray_SimpleNew(1, &n, NPY_FLOAT64);
    if (arr && n)
        memcpy(PyArray_DATA((PyArrayObject *)arr), data,
               (size_t)n * sizeof *data);
    return arr;
}

/* A list numpy made floats or objects of for an integer in it beyond
 * int64 (2**63: [0, 2**63] is float64, [2**64] object): that integer
 * refused with the caller's words, as a value of an int64 array out of
 * range is; 0 (nothing set) when every item is not an integer or none
 * is beyond int64, for the dtype's refusal. */
static int beyond_int64(PyObject *obj, PyArrayObject *in, const char *what,
                        const char *range, const char *at)
{
    int made = PyArray_ISOBJECT(in) ||
               (PyArray_ISFLOAT(in) && !PyArray_Check(obj));
    if (PyArray_NDIM(in) != 1 || !made)
        return 0;
    PyObject *seq = PySequence_Fast(obj, "");
    if (!seq) {
        PyErr_Clear();
        return 0;
    }
    PyObject *big = NULL;
    Py_ssize_t where = 0, n = PySequence_Fast_GET_SIZE(seq);
    int ints = 1;
    for (Py_ssize_t i = 0; ints && i < n; i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
        PyObject *v = PyFloat_Check(it) || PyArray_Check(it) ||
                              !PyIndex_Check(it) ?
                          NULL :
                          PyNumber_Index(it);
        int over = 0;
        if (v)
            PyLong_AsLongLongAndOverflow(v, &over);
        if (!v || PyErr_Occurred()) {
            PyErr_Clear();
            ints = 0;
        } else if (over && !big) {
            big = Py_NewRef(v);
            where = i;
        }
        Py_XDECREF(v);
    }
    Py_DECREF(seq);
    if (ints && big)
        PyErr_Format(PyExc_ValueError, "%s: expected %s, found %S %s %zd",
                     what, range, big, at, where);
    Py_XDECREF(big);
    return ints && big;
}

PyArrayObject *ext_int_array(PyObject *obj, const char *what,
                             const char *range, const char *at)
{
    PyArrayObject *in = (PyArrayObject *)PyArray_FROM_O(obj);
    if (!in)
        return NULL;
    if (PyArray_SIZE(in) > 0 && !PyArray_ISINTEGER(in) &&
        !PyArray_ISBOOL(in)) {
        if (!beyond_int64(obj, in, what, range, at))
            PyErr_Format(PyExc_TypeError,
                         "%s: expected integers, found dtype %s", what,
                         PyArray_DESCR(in)->typeobj->tp_name);
        Py_DECREF(in);
        return NULL;
    }
    if (PyArray_NDIM(in) != 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s: expected a one-dimensional array, found %d "
                     "dimensions",
                     what, PyArray_NDIM(in));
        Py_DECREF(in);
        return NULL;
    }
    if (PyArray_ISUNSIGNED(in) && PyArray_ITEMSIZE(in) == 8) {
        /* uint64 does not cast safely to int64: check the values, in the
           machine's byte order */
        PyArrayObject *u = (PyArrayObject *)PyArray_FromArray(
            in, PyArray_DescrFromType(NPY_UINT64),
            NPY_ARRAY_IN_ARRAY | NPY_ARRAY_NOTSWAPPED);
        Py_DECREF(in);
        if (!(in = u))
            return NULL;
        npy_intp n = PyArray_SIZE(in);
        const npy_uint64 *uv = PyArray_DATA(in);
        for (npy_intp i = 0; i < n; i++)
            if (uv[i] > (npy_uint64)INT64_MAX) {
                PyErr_Format(PyExc_ValueError, "%s: expected %s, found %llu "
                                               "%s %zd",
                             what, range, (unsigned long long)uv[i], at,
                             (Py_ssize_t)i);
                Py_DECREF(in);
                return NULL;
            }
    }
    PyArrayObject *out = (PyArrayObject *)PyArray_FromArray(
        in, PyArray_DescrFromType(NPY_INT64),
        NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(in);
    return out;
}

/* A cost's number: a float, an int or numpy's scalars, not a bool or a
 * str (TypeError naming what and the item). */
static int cost_number(PyObject *x, const char *what, const char *item,
                       double *out)
{
    if (!PyBool_Check(x) && !PyUnicode_Check(x) && !PyBytes_Check(x)) {
        *out = PyFloat_AsDouble(x);
        if (!(*out == -1 && PyErr_Occurred()))
            return 1;
        PyErr_Clear();
    }
    PyErr_Format(PyExc_TypeError, "%s: expected a number as %s, found a %s",
                 what, item, Py_TYPE(x)->tp_name);
    return 0;
}

int ext_wrem(PyObject *obj, const char *what, hta_wrem *w, double **v)
{
    memset(w, 0, sizeof *w);
    *v = NULL;
    /* a number: float, int, numpy's scalars of any width (not a bool, a
       str, a sequence or an array of more than one value) */
    if (!PyBool_Check(obj) &&
        (PyFloat_Check(obj) || PyLong_Check(obj) ||
         (PyNumber_Check(obj) && !PySequence_Check(obj) &&
          !PyUnicode_Check(obj)))) {
        /* a table of one value, as the file's "w_rem 3" */
        double x = PyFloat_AsDouble(obj);
        if (x == -1 && PyErr_Occurred())
            return 0;
        if (!(*v = malloc(sizeof **v))) {
            PyErr_NoMemory();
            return 0;
        }
        (*v)[0] = x;
        w->kind = HTA_WREM_TABLE;
        w->k = 0;
        w->v = *v;
        return 1;
    }
    if (PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) >= 1 &&
        PyUnicode_Check(PyTuple_GET_ITEM(obj, 0))) {
        /* ('affine', a, b), and no other tuple led by a name */
        if (PyTuple_GET_SIZE(obj) != 3 ||
            PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(obj, 0),
                                             "affine") != 0) {
            PyErr_Format(PyExc_TypeError,
                         "%s: expected ('affine', a, b), found a tuple of "
                         "%zd items led by %R",
                         what, PyTuple_GET_SIZE(obj),
                         PyTuple_GET_ITEM(obj, 0));
            return 0;
        }
        double a, b;
        if (!cost_number(PyTuple_GET_ITEM(obj, 1), what, "a", &a) ||
            !cost_number(PyTuple_GET_ITEM(obj, 2), what, "b", &b))
            return 0;
        w->kind = HTA_WREM_AFFINE;
        w->a = a;
        w->b = b;
        return 1;
    }
    PyObject *seq = PySequence_Fast(obj, "");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "%s: expected a number, a sequence of numbers (a "
                     "table) or ('affine', a, b), found a %s",
                     what, Py_TYPE(obj)->tp_name);
        return 0;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k < 1) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: expected a non-empty table",
                     what);
        return 0;
    }
    if (!(*v = malloc((size_t)k * sizeof **v))) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (!cost_number(PySequence_Fast_GET_ITEM(seq, i), what,
                         "a table's value", &(*v)[i])) {
            Py_DECREF(seq);
            free(*v);
            *v = NULL;
            return 0;
        }
    }
    Py_DECREF(seq);
    w->kind = HTA_WREM_TABLE;
    w->k = k - 1;
    w->v = *v;
    return 1;
}

hta_wrem ext_wrem_default(void)
{
    static double three = 3.0;
    return (hta_wrem){HTA_WREM_TABLE, 0, &three, 0, 0};
}

int ext_gate_costs(double w_loc, const hta_wrem *wrem, const hta_wrem *wlev,
                   int nlev, int64_t m)
{
    static const char *const arg[] = {"w_rem", "w_rack", "w_pod"};
    static const char *const name[] = {"w_rem", "w_level 2", "w_level 3"};
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = hta_gate_w_loc(w_loc, NULL, NULL, 0, &d);
    const char *bad = "w_loc";
    for (int i = 0; st == HTA_OK && i <= nlev; i++) {
        st = hta_gate_cost(w_loc, i ? &wlev[i - 1] : wrem, m, name[i], NULL,
                           NULL, 0, &d);
        bad = arg[i];
    }
    if (st == HTA_OK && nlev) {
        st = hta_levels_check_costs(w_loc, wrem, wlev, nlev, m, &d);
        bad = nlev == 2 ? "w_rack, w_pod" : "w_rack";
    }
    if (st != HTA_OK) {
        ext_raise_arg(bad, st, &d);
        return 0;
    }
    return 1;
}

int ext_seed(PyObject *obj, void *out)
{
    /* an int (or numpy integer) in the command line's range of --seed */
    long long v = 0;
    if (obj == Py_None) {
        PyErr_SetString(PyExc_TypeError,
                        "seed: expected an integer, found None");
        return 0;
    }
    if (!ext_int_in(obj, "seed", 0, INT64_MAX, &v))
        return 0;
    *(uint64_t *)out = (uint64_t)v;
    return 1;
}

int ext_warmup(PyObject *obj, long long *out)
{
    *out = -1; /* None: the default, a tenth */
    return ext_int_in(obj, "warmup", 0, INT64_MAX, out);
}

int ext_reals(PyObject *obj, const char *what, double *out, int max, int *n)
{
    PyObject *seq = PyUnicode_Check(obj) ? NULL :
                                           PySequence_Fast(obj, "not a list");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a sequence of numbers",
                     what);
        return 0;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k < 1 || k > max) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: expected 1 to %d numbers, found "
                                       "%zd",
                     what, max, k);
        return 0;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected numbers", what);
            return 0;
        }
    }
    Py_DECREF(seq);
    *n = (int)k;
    return 1;
}

int ext_int_in(PyObject *obj, const char *what, long long lo, long long hi,
               long long *out)
{
    if (obj == Py_None)
        return 1;
    PyObject *i = PyNumber_Index(obj);
    if (!i) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected an integer, found %s",
                     what, Py_TYPE(obj)->tp_name);
        return 0;
    }
    int over = 0;
    long long v = PyLong_AsLongLongAndOverflow(i, &over);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred())
        return 0;
    if (over || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError,
                     "%s: expected an integer in [%lld, %lld]", what, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

int ext_real_or_none(PyObject *obj, const char *what, double *out)
{
    if (obj == Py_None)
        return 1;
    double x = PyFloat_AsDouble(obj);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a number, found %s", what,
                     Py_TYPE(obj)->tp_name);
        return 0;
    }
    *out = x;
    return 1;
}

int ext_path_or_none(PyObject *obj, void *out)
{
    if (obj == Py_None) {
        *(PyObject **)out = NULL;
        return 1;
    }
    return PyUnicode_FSConverter(obj, out);
}

int ext_set(PyObject *dict, const char *key, PyObject *value)
{
    if (!value)
        return 0;
    int r = PyDict_SetItemString(dict, key, value);
    Py_DECREF(value);
    return r == 0;
}

PyObject *ext_real(double x)
{
    if (x != x)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(x);
}

static PyObject *ext_version(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    return PyUnicode_FromString(hta_version());
}

static PyObject *ext_threads_default(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    return PyLong_FromLong(hta_threads_default());
}

static PyMethodDef methods[] = {
    {"threads_default", ext_threads_default, METH_NOARGS,
     "The processors available (--threads' default)."},
    {"version", ext_version, METH_NOARGS,
     "The C library's version (hta --version's)."},
    {"chart_svg", (PyCFunction)(void (*)(void))ext_chart_svg,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"loads_svg", (PyCFunction)(void (*)(void))ext_loads_svg,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"_restore", ext_restore, METH_VARARGS,
     "_restore(kind, tag, text, checksum): an object pickle made"},
    {"_forget_policies", ext_pypol_forget, METH_NOARGS,
     "After a fork, in the child: no policy object is in a run."},
    {"solve", (PyCFunction)(void (*)(void))ext_solve,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"evaluate", (PyCFunction)(void (*)(void))ext_evaluate,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"gen_hdfs", (PyCFunction)(void (*)(void))ext_gen_hdfs,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"gen_cluster", (PyCFunction)(void (*)(void))ext_gen_cluster,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"gen_jobs", (PyCFunction)(void (*)(void))ext_gen_jobs,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"capacity", (PyCFunction)(void (*)(void))ext_capacity,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"sim", (PyCFunction)(void (*)(void))ext_sim,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"flowtime", (PyCFunction)(void (*)(void))ext_flowtime,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"gen_sat", (PyCFunction)(void (*)(void))ext_gen_sat,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"reduce_place", (PyCFunction)(void (*)(void))ext_reduce_place,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"ft_machines", ext_ft_machines, METH_VARARGS, NULL},
    {"sat_witness", (PyCFunction)(void (*)(void))ext_sat_witness,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"decode", (PyCFunction)(void (*)(void))ext_decode,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"gen_rr", (PyCFunction)(void (*)(void))ext_gen_rr,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"import_fsck", (PyCFunction)(void (*)(void))ext_import_fsck,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"import_swim", (PyCFunction)(void (*)(void))ext_import_swim,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_hta",
                                    "hta's C library (the hta package wraps "
                                    "it)",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__hta(void);
PyMODINIT_FUNC PyInit__hta(void)
{
    import_array();
    PyObject *th = PyImport_ImportModule("threading");
    PyObject *mt = th ? PyObject_CallMethod(th, "main_thread", NULL) : NULL;
    PyObject *id = mt ? PyObject_GetAttrString(mt, "ident") : NULL;
    main_ident = id ? PyLong_AsUnsignedLong(id) : 0;
    Py_XDECREF(id);
    Py_XDECREF(mt);
    Py_XDECREF(th);
    if (PyErr_Occurred())
        return NULL;
    if (PyType_Ready(&ext_InstanceType) < 0 ||
        PyType_Ready(&ext_ClusterType) < 0 || PyType_Ready(&ext_JobsType) < 0 ||
        PyType_Ready(&ext_ViewType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    ext_Error = PyErr_NewException("hta._hta.Error", NULL, NULL);
    if (!ext_Error || PyModule_AddObjectRef(m, "Error", ext_Error) < 0)
        goto fail;
    /* ParseError(message, path, line), set by the Python layer's class
       when it registers it; a plain ValueError subclass until then */
    ext_ParseError = PyErr_NewException("hta._hta.ParseError",
                                        PyExc_ValueError, NULL);
    if (!ext_ParseError ||
        PyModule_AddObjectRef(m, "ParseError", ext_ParseError) < 0 ||
        PyModule_AddObjectRef(m, "Instance", (PyObject *)&ext_InstanceType) <
            0 ||
        PyModule_AddObjectRef(m, "Cluster", (PyObject *)&ext_ClusterType) <
            0 ||
        PyModule_AddObjectRef(m, "Jobs", (PyObject *)&ext_JobsType) < 0 ||
        PyModule_AddObjectRef(m, "View", (PyObject *)&ext_ViewType) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
