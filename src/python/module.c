/* The module hta._hta: its exceptions, the GIL and Ctrl-C around long
 * calls, and the conversions every file uses (ext.h). */
#define HTA_EXT_MODULE
#include "ext.h"

#include <pythread.h>
#include <stdlib.h>
#include <string.h>

PyObject *ext_ParseError, *ext_Error;
volatile sig_atomic_t ext_stop;
static int active; /* calls between ext_begin and ext_end (GIL held) */
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

static void on_sigint(int sig)
{
    (void)sig;
    ext_stop = 1;
}

void ext_begin(ext_call *c)
{
    c->handler = 0;
    if (active++ == 0)
        ext_stop = 0;
    /* Ctrl-C is ours only in the main thread, where Python takes it,
       and not where SIGINT is ignored (a background job) */
    struct sigaction sa;
    if (PyThread_get_thread_ident() == main_ident &&
        sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        c->handler = sigaction(SIGINT, &sa, &c->old) == 0;
    }
    c->ts = PyEval_SaveThread();
}

int ext_end(ext_call *c)
{
    PyEval_RestoreThread(c->ts);
    if (c->handler)
        sigaction(SIGINT, &c->old, NULL);
    active--;
    return c->handler && ext_stop;
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

PyArrayObject *ext_int_array(PyObject *obj, const char *what)
{
    PyArrayObject *in = (PyArrayObject *)PyArray_FROM_O(obj);
    if (!in)
        return NULL;
    if (PyArray_SIZE(in) > 0 && !PyArray_ISINTEGER(in) &&
        !PyArray_ISBOOL(in)) {
        PyErr_Format(PyExc_TypeError, "%s: expected integers, found dtype %s",
                     what, PyArray_DESCR(in)->typeobj->tp_name);
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
        /* uint64 does not cast safely to int64: check the values */
        npy_intp n = PyArray_SIZE(in);
        for (npy_intp i = 0; i < n; i++)
            if (*(npy_uint64 *)PyArray_GETPTR1(in, i) > (npy_uint64)INT64_MAX) {
                PyErr_Format(PyExc_ValueError, "%s: value out of range",
                             what);
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

int ext_wrem(PyObject *obj, const char *what, hta_wrem *w, double **v)
{
    memset(w, 0, sizeof *w);
    *v = NULL;
    if (PyFloat_Check(obj) || PyLong_Check(obj)) {
        double x = PyFloat_AsDouble(obj);
        if (x == -1 && PyErr_Occurred())
            return 0;
        w->kind = HTA_WREM_AFFINE;
        w->a = x;
        return 1;
    }
    if (PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 3 &&
        PyUnicode_Check(PyTuple_GET_ITEM(obj, 0)) &&
        PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(obj, 0),
                                         "affine") == 0) {
        double a = PyFloat_AsDouble(PyTuple_GET_ITEM(obj, 1));
        double b = PyFloat_AsDouble(PyTuple_GET_ITEM(obj, 2));
        if (PyErr_Occurred())
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
                     "table) or ('affine', a, b)",
                     what);
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
        (*v)[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if ((*v)[i] == -1 && PyErr_Occurred()) {
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

static PyMethodDef methods[] = {
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
        PyType_Ready(&ext_ClusterType) < 0 || PyType_Ready(&ext_JobsType) < 0)
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
        PyModule_AddObjectRef(m, "Jobs", (PyObject *)&ext_JobsType) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
