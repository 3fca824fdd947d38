/* hta.Instance: an instance from a file, from numpy arrays or from the
 * HDFS generator; its writer, its arrays; the evaluator (ext.h). */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

static void instance_dealloc(ext_instance *self)
{
    hta_instance_free(self->inst);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *ext_wrap_instance(hta_instance *inst)
{
    ext_instance *o = PyObject_New(ext_instance, &ext_InstanceType);
    if (!o) {
        hta_instance_free(inst);
        return NULL;
    }
    o->inst = inst;
    return (PyObject *)o;
}

static PyObject *instance_read(PyObject *cls, PyObject *args)
{
    (void)cls;
    PyObject *path_obj;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    ext_call c;
    ext_begin(&c);
    hta_status st = hta_instance_parse_stop(path, &c.stop, &inst, &d);
    PyObject *r;
    if (ext_end(&c)) {
        hta_instance_free(inst);
        r = ext_interrupted(Py_None);
    } else {
        r = st == HTA_OK ? ext_wrap_instance(inst) : ext_raise(st, &d);
    }
    Py_DECREF(path_obj);
    return r;
}

/* Rack paths (a sequence of str, one per server) and level costs (a
 * sequence of cost functions, levels 2..N-1) onto inst. */
static int set_levels(hta_instance *inst, PyObject *racks, PyObject *wlev)
{
    PyObject *seq = PySequence_Fast(racks, "racks: expected a sequence "
                                           "of rack paths, one per server");
    if (!seq)
        return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k != inst->n_declared) {
        PyErr_Format(PyExc_ValueError,
                     "racks: expected %ld rack paths (one per server), "
                     "found %zd",
                     (long)inst->n_declared, k);
        Py_DECREF(seq);
        return 0;
    }
    hta_diag d;
    hta_diag_clear(&d);
    for (Py_ssize_t s = 0; s < k; s++)
        if (!ext_set_name(inst, 'r', (int32_t)s,
                          PySequence_Fast_GET_ITEM(seq, s), "racks")) {
            Py_DECREF(seq);
            return 0;
        }
    Py_DECREF(seq);
    PyObject *ws = PySequence_Fast(wlev, "w_levels: expected a sequence "
                                         "of cost functions");
    if (!ws)
        return 0;
    Py_ssize_t nl = PySequence_Fast_GET_SIZE(ws);
    if (nl < 1 || nl > HTA_MAX_LEVELS - 2) {
        PyErr_Format(PyExc_ValueError,
                     "w_levels: expected 1 to %d costs, found %zd",
                     HTA_MAX_LEVELS - 2, nl);
        Py_DECREF(ws);
        return 0;
    }
    hta_wrem w[HTA_MAX_LEVELS];
    double *v[HTA_MAX_LEVELS] = {NULL};
    int ok = 1;
    for (Py_ssize_t i = 0; i < nl && ok; i++)
        ok = ext_wrem(PySequence_Fast_GET_ITEM(ws, i), "w_levels", &w[i],
                      &v[i]);
    Py_DECREF(ws);
    if (ok) {
        hta_status st = hta_instance_set_levels(inst, w, (int)nl, &d);
        if (st != HTA_OK) {
            ext_raise_arg("w_levels", st, &d);
            ok = 0;
        }
    }
    for (int i = 0; i < HTA_MAX_LEVELS; i++)
        free(v[i]);
    return ok;
}

/* Names of one kind from a sequence (None entries: unnamed), one per
 * task or declared server; 0 with the exception set. */
static int set_names(hta_instance *inst, char kind, PyObject *obj,
                     const char *arg)
{
    if (obj == Py_None)
        return 1;
    PyObject *seq = PySequence_Fast(obj, "expected a sequence of names");
    if (!seq)
        return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    long want = kind == 't' ? (long)inst->m : (long)inst->n_declared;
    int ok = 1;
    if (k != want) {
        PyErr_Format(PyExc_ValueError,
                     "%s: expected %ld names (one per %s, None for none), "
                     "found %zd",
                     arg, want, kind == 't' ? "task" : "server", k);
        ok = 0;
    }
    for (Py_ssize_t i = 0; ok && i < k; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(seq, i);
        if (x != Py_None)
            ok = ext_set_name(inst, kind, (int32_t)i, x, arg);
    }
    Py_DECREF(seq);
    return ok;
}

static PyObject *instance_from_arrays(PyObject *cls, PyObject *args,
                                      PyObject *kw)
{
    (void)cls;
    static char *kwl[] = {"offsets", "servers", "n",        "w_loc",
                          "w_rem",   "racks",   "w_levels", "names",
                          "task_names", NULL};
    PyObject *off_obj, *srv_obj, *wrem_obj = NULL, *racks = Py_None,
                                 *wlev = Py_None, *names = Py_None,
                                 *tnames = Py_None;
    long long n;
    double w_loc = 1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOL|dOOOOO", kwl, &off_obj,
                                     &srv_obj, &n, &w_loc, &wrem_obj, &racks,
                                     &wlev, &names, &tnames))
        return NULL;
    if ((racks == Py_None) != (wlev == Py_None)) {
        PyErr_SetString(PyExc_ValueError,
                        "racks and w_levels go together (N levels)");
        return NULL;
    }
    char ids_range[64];
    snprintf(ids_range, sizeof ids_range, "ids in [0, %lld)", n);
    PyArrayObject *off = ext_int_array(
        off_obj, "offsets", "offsets from 0 to len(servers)", "at");
    /* servers: native int32 as they are (no copy), any other integers
       (another width, sign or byte order) through native int64 */
    PyArrayObject *srv = NULL;
    if (off && PyArray_Check(srv_obj) &&
        PyArray_TYPE((PyArrayObject *)srv_obj) == NPY_INT32 &&
        PyArray_ISNOTSWAPPED((PyArrayObject *)srv_obj) &&
        PyArray_NDIM((PyArrayObject *)srv_obj) == 1)
        srv = (PyArrayObject *)PyArray_FROM_OF(
            srv_obj, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_NOTSWAPPED);
    else if (off)
        srv = ext_int_array(srv_obj, "servers", ids_range, "at");
    PyObject *r = NULL;
    int32_t *s32 = NULL;
    double *tab = NULL;
    hta_wrem w = ext_wrem_default();
    if (!srv)
        goto done;
    npy_intp mo = PyArray_SIZE(off), E = PyArray_SIZE(srv);
    const int64_t *o = PyArray_DATA(off);
    int narrow = PyArray_TYPE(srv) == NPY_INT32;
    if (mo < 2 || mo - 1 > INT32_MAX) {
        PyErr_Format(PyExc_ValueError,
                     "offsets: expected m + 1 entries, 1 <= m < 2^31, found "
                     "%zd",
                     (Py_ssize_t)mo);
        goto done;
    }
    if (n < 1 || n > INT32_MAX) {
        PyErr_Format(PyExc_ValueError,
                     "n: expected 1 <= n < 2^31 servers, found %lld", n);
        goto done;
    }
    if (o[0] != 0 || o[mo - 1] != (int64_t)E) {
        PyErr_Format(PyExc_ValueError,
                     "offsets: expected offsets[0] = 0 and offsets[m] = "
                     "len(servers) = %zd, found %lld and %lld",
                     (Py_ssize_t)E, (long long)o[0], (long long)o[mo - 1]);
        goto done;
    }
    for (npy_intp t = 0; t + 1 < mo; t++)
        if (o[t + 1] <= o[t]) {
            PyErr_Format(PyExc_ValueError,
                         "offsets: expected every task to have a replica "
                         "(offsets increasing), found offsets[%zd] = %lld "
                         "and offsets[%zd] = %lld",
                         (Py_ssize_t)t, (long long)o[t], (Py_ssize_t)t + 1,
                         (long long)o[t + 1]);
            goto done;
        }
    const int32_t *ids = NULL;
    if (narrow) {
        ids = PyArray_DATA(srv);
    } else {
        if (!(s32 = malloc(((size_t)E + 1) * sizeof *s32))) {
            PyErr_NoMemory();
            goto done;
        }
        const int64_t *sv = PyArray_DATA(srv);
        for (npy_intp i = 0; i < E; i++)
            s32[i] = sv[i] < 0 || sv[i] >= n ? -1 : (int32_t)sv[i];
        ids = s32;
    }
    for (npy_intp i = 0; i < E; i++)
        if (ids[i] < 0 || ids[i] >= n) {
            long long v = narrow ? ids[i] :
                                   (long long)((const int64_t *)
                                                   PyArray_DATA(srv))[i];
            PyErr_Format(PyExc_ValueError,
                         "servers: expected ids in [0, %lld), found %lld at "
                         "%zd",
                         n, v, (Py_ssize_t)i);
            goto done;
        }
    if (wrem_obj && !ext_wrem(wrem_obj, "w_rem", &w, &tab))
        goto done;
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    /* the costs through the gate under their arguments' names; the
       build checks them again, and the placement */
    if (!ext_gate_costs(w_loc, &w, NULL, 0, mo - 1))
        goto done;
    hta_status st = hta_instance_build((int32_t)(mo - 1), (int32_t)n, w_loc, &w, o, ids,
                            &inst, &d);
    if (st != HTA_OK) {
        ext_raise_arg("servers", st, &d);
        goto done;
    }
    if (!set_names(inst, 's', names, "names") ||
        !set_names(inst, 't', tnames, "task_names") ||
        (racks != Py_None && !set_levels(inst, racks, wlev))) {
        hta_instance_free(inst);
        goto done;
    }
    r = ext_wrap_instance(inst);
done:
    free(s32);
    free(tab);
    Py_XDECREF(off);
    Py_XDECREF(srv);
    return r;
}

static hta_status write_instance(const void *obj, FILE *f,
                                 const char *comment,
                                 volatile sig_atomic_t *stop)
{
    return hta_instance_write_stop(obj, f, comment, stop);
}

static PyObject *instance_write(ext_instance *self, PyObject *args,
                                PyObject *kw)
{
    return ext_write(self->inst, write_instance, args, kw);
}

static PyObject *wrem_value(const hta_wrem *w)
{
    if (w->kind == HTA_WREM_AFFINE && w->b == 0)
        return PyFloat_FromDouble(w->a);
    if (w->kind == HTA_WREM_TABLE && w->k == 0)
        return PyFloat_FromDouble(w->v[0]);
    if (w->kind == HTA_WREM_AFFINE)
        return Py_BuildValue("(sdd)", "affine", w->a, w->b);
    PyObject *t = PyTuple_New((Py_ssize_t)w->k + 1);
    for (int64_t i = 0; t && i <= w->k; i++) {
        PyObject *x = PyFloat_FromDouble(w->v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, x);
    }
    return t;
}

static PyObject *get_m(ext_instance *s, void *c)
{
    (void)c;
    return PyLong_FromLong(s->inst->m);
}
static PyObject *get_n(ext_instance *s, void *c)
{
    (void)c;
    return PyLong_FromLong(s->inst->n_declared);
}
static PyObject *get_edges(ext_instance *s, void *c)
{
    (void)c;
    return PyLong_FromLongLong(s->inst->edges);
}
static PyObject *get_w_loc(ext_instance *s, void *c)
{
    (void)c;
    return PyFloat_FromDouble(s->inst->w_loc);
}
static PyObject *get_w_rem(ext_instance *s, void *c)
{
    (void)c;
    return wrem_value(&s->inst->wrem);
}
static PyObject *get_levels(ext_instance *s, void *c)
{
    (void)c;
    return PyLong_FromLong(hta_levels(s->inst));
}
static PyObject *get_offsets(ext_instance *s, void *c)
{
    (void)c;
    return ext_copy_i64(s->inst->task_off, (npy_intp)s->inst->m + 1);
}
static PyObject *get_servers(ext_instance *s, void *c)
{
    (void)c;
    npy_intp E = (npy_intp)s->inst->edges;
    PyObject *arr = PyArray_SimpleNew(1, &E, NPY_INT32);
    if (arr && E)
        memcpy(PyArray_DATA((PyArrayObject *)arr), s->inst->task_srv,
               (size_t)E * sizeof(int32_t));
    return arr;
}
/* The names of one kind as a list (None where unnamed), or None when
 * the instance has none; bytes that are not UTF-8 (a file may hold
 * them) come back as surrogate escapes. */
static PyObject *names_of(const hta_instance *in, char kind)
{
    char **v = kind == 't' ? in->task_name :
               kind == 's' ? in->server_name : in->server_rack;
    int32_t count = kind == 't' ? in->m : in->n_declared;
    int32_t have = kind == 't' ? in->m : in->n;
    if (!v)
        Py_RETURN_NONE;
    PyObject *l = PyList_New(count);
    for (int32_t i = 0; l && i < count; i++) {
        const char *p = i < have ? v[i] : NULL;
        PyObject *x = p ? PyUnicode_DecodeUTF8(p, (Py_ssize_t)strlen(p),
                                               "surrogateescape") :
                          Py_NewRef(Py_None);
        if (!x) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}
static PyObject *get_racks(ext_instance *s, void *c)
{
    (void)c;
    return names_of(s->inst, 'r');
}
static PyObject *get_names(ext_instance *s, void *c)
{
    (void)c;
    return names_of(s->inst, 's');
}
static PyObject *get_task_names(ext_instance *s, void *c)
{
    (void)c;
    return names_of(s->inst, 't');
}
static PyObject *get_w_levels(ext_instance *s, void *c)
{
    (void)c;
    int N = hta_levels(s->inst);
    if (N <= 2)
        Py_RETURN_NONE;
    PyObject *t = PyTuple_New(N - 2);
    for (int l = 2; t && l < N; l++) {
        PyObject *x = wrem_value(&s->inst->wlev[l]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, l - 2, x);
    }
    return t;
}

static PyObject *instance_repr(ext_instance *s)
{
    const hta_instance *in = s->inst;
    char loc[32], rem[32];
    hta_format_real(loc, in->w_loc);
    if (hta_wrem_is_constant(&in->wrem))
        hta_format_real(rem, hta_wrem_at(&in->wrem, 0));
    else
        snprintf(rem, sizeof rem, "%s",
                 in->wrem.kind == HTA_WREM_AFFINE ? "affine" : "a table");
    return PyUnicode_FromFormat("<hta.Instance: %ld tasks, %ld servers, "
                                "%lld replicas, w_loc %s, w_rem %s, %d "
                                "levels>",
                                (long)in->m, (long)in->n_declared,
                                (long long)in->edges, loc, rem,
                                hta_levels(in));
}

static PyGetSetDef instance_getset[] = {
    {"m", (getter)get_m, NULL, "tasks", NULL},
    {"n", (getter)get_n, NULL, "servers (as declared)", NULL},
    {"edges", (getter)get_edges, NULL, "(task, replica) pairs", NULL},
    {"w_loc", (getter)get_w_loc, NULL, "local cost", NULL},
    {"w_rem", (getter)get_w_rem, NULL,
     "remote cost: a float, a tuple (table) or ('affine', a, b)", NULL},
    {"levels", (getter)get_levels, NULL, "locality levels N", NULL},
    {"offsets", (getter)get_offsets, NULL,
     "int64 array of m + 1 offsets into servers (a copy)", NULL},
    {"servers", (getter)get_servers, NULL,
     "int32 array of replica servers, task by task (a copy)", NULL},
    {"racks", (getter)get_racks, NULL, "rack paths per server, or None",
     NULL},
    {"names", (getter)get_names, NULL,
     "server names (a datanode's, from an fsck import), None where a\n"
     "server has none; None when no server has one",
     NULL},
    {"task_names", (getter)get_task_names, NULL,
     "task names (a block's, from an fsck import), as names", NULL},
    {"w_levels", (getter)get_w_levels, NULL,
     "costs of levels 2..N-1, or None on two levels", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef instance_methods[] = {
    EXT_PICKLE_METHODS(ext_reduce_instance),
    {"read", (PyCFunction)instance_read, METH_VARARGS | METH_STATIC,
     "read(path) -> Instance: an instance file (format v1, the\n"
     "command's); hta.ParseError with path and line when malformed."},
    {"from_arrays", (PyCFunction)(void (*)(void))instance_from_arrays,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC,
     "from_arrays(offsets, servers, n, w_loc=1.0, w_rem=3.0, racks=None,\n"
     "w_levels=None, names=None, task_names=None) -> Instance: task t's\n"
     "replicas are\n"
     "servers[offsets[t]:offsets[t+1]] (integer arrays; int32 servers are\n"
     "read without a copy), n servers; w_rem a float, a table or\n"
     "('affine', a, b); racks (a path per server) with w_levels (the\n"
     "costs of levels 2..N-1) for N levels; names (a str or None per\n"
     "server) and task_names (per task): any text without NUL, written\n"
     "escaped and read back the same.  The file format's rules;\n"
     "ValueError or TypeError naming what is wrong."},
    {"write", (PyCFunction)(void (*)(void))instance_write,
     METH_VARARGS | METH_KEYWORDS,
     "write(path, comment=None): the instance in format v1, the file\n"
     "replaced atomically (a special file written through)."},
    {NULL, NULL, 0, NULL}};

PyTypeObject ext_InstanceType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hta._hta.Instance",
    .tp_basicsize = sizeof(ext_instance),
    .tp_dealloc = (destructor)instance_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc =
    "A task-assignment instance: m tasks, n servers, the\n"
    "replica servers of every task (a CSR: task t's servers are\n"
    "servers[offsets[t]:offsets[t+1]]), the local cost w_loc, the remote cost\n"
    "w_rem (a float, a tuple table indexed by the number of remote tasks, or\n"
    "(\"affine\", a, b)), and optionally N locality levels (racks: a rack path\n"
    "per server such as \"/pod0/rack3\", w_levels: the costs of levels 2..N-1).\n"
    "\n"
    "Make one with Instance.read(path), Instance.from_arrays(offsets, servers,\n"
    "n, w_loc=1.0, w_rem=3.0, racks=None, w_levels=None) or gen_hdfs(...);\n"
    "write it with inst.write(path) (replaced atomically, as the command\n"
    "does).  Attributes: m, n, edges, w_loc, w_rem, levels, offsets, servers,\n"
    "racks, w_levels, names, task_names (arrays and lists are copies).",
    .tp_repr = (reprfunc)instance_repr,
    .tp_methods = instance_methods,
    .tp_getset = instance_getset,
};

/* ---- the evaluator and the generator --------------------------------- */

int32_t *ext_assignment(const hta_instance *inst, PyObject *obj)
{
    char range[64];
    snprintf(range, sizeof range, "server ids in [0, %ld)",
             (long)inst->n_declared);
    PyArrayObject *a = ext_int_array(obj, "assignment", range, "for task");
    if (!a)
        return NULL;
    int32_t *out = NULL;
    if (PyArray_SIZE(a) != inst->m) {
        PyErr_Format(PyExc_ValueError,
                     "assignment: expected %ld server ids (one per task), "
                     "found %zd",
                     (long)inst->m, (Py_ssize_t)PyArray_SIZE(a));
    } else if (!(out = malloc(((size_t)inst->m + 1) * sizeof *out))) {
        PyErr_NoMemory();
    } else {
        const int64_t *v = PyArray_DATA(a);
        for (int32_t t = 0; t < inst->m; t++) {
            if (v[t] < 0 || v[t] >= inst->n_declared) {
                PyErr_Format(PyExc_ValueError,
                             "assignment: expected server ids in [0, %ld), "
                             "found %lld for task %ld",
                             (long)inst->n_declared, (long long)v[t],
                             (long)t);
                free(out);
                out = NULL;
                break;
            }
            out[t] = (int32_t)v[t];
        }
    }
    Py_DECREF(a);
    return out;
}

PyObject *ext_evaluate(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"instance", "assignment", "exact", "time_limit",
                          NULL};
    ext_instance *ins;
    PyObject *aobj, *tl = Py_None;
    int exact = 0;
    double time_limit = 60; /* None: hta eval's default */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|pO", kwl,
                                     &ext_InstanceType, &ins, &aobj, &exact,
                                     &tl) ||
        !ext_real_or_none(tl, "time_limit", &time_limit))
        return NULL;
    if (!(time_limit > 0) || time_limit > 1e9) { /* hta eval --time-limit */
        PyErr_SetString(PyExc_ValueError,
                        "time_limit: expected seconds in (0, 1e9]");
        return NULL;
    }
    if (tl != Py_None && !exact) { /* the command's rule, its words */
        PyErr_SetString(PyExc_ValueError,
                        "--time-limit applies to --exact only");
        return NULL;
    }
    int32_t *a = ext_assignment(ins->inst, aobj);
    if (!a)
        return NULL;
    hta_diag d;
    hta_diag_clear(&d);
    hta_eval ev;
    hta_status st = hta_eval_run(ins->inst, a, &ev, &d);
    /* the bound, and with exact the portfolio, from the assignment (hta
       eval [--exact]) */
    hta_solve_opts so;
    hta_solve_opts_default(&so);
    so.given = a;
    so.nalgos = exact ? 1 : 0;
    so.algos[0] = HTA_ALGO_EXACT;
    so.time_limit = time_limit;
    hta_solve_result sr;
    int solved = 0;
    if (st == HTA_OK) {
        ext_call c;
        so.stop = &c.stop;
        ext_begin(&c);
        st = hta_solve(ins->inst, &so, &sr, &d);
        ext_end(&c);
        solved = st == HTA_OK;
        if (!solved)
            hta_eval_free(&ev);
    }
    free(a);
    if (st != HTA_OK)
        return ext_raise(st, &d);
    /* every declared server, as hta eval --json lists them */
    npy_intp nd = ins->inst->n_declared;
    PyObject *loads = PyArray_SimpleNew(1, &nd, NPY_FLOAT64);
    PyObject *sloc = PyArray_SimpleNew(1, &nd, NPY_INT64);
    PyObject *srem = PyArray_SimpleNew(1, &nd, NPY_INT64);
    npy_intp dims[2] = {nd, ev.levels};
    PyObject *slev = PyArray_SimpleNew(2, dims, NPY_INT64);
    if (loads && sloc && srem && slev) {
        int64_t *sl = PyArray_DATA((PyArrayObject *)slev);
        double *lv = PyArray_DATA((PyArrayObject *)loads);
        int64_t *lo = PyArray_DATA((PyArrayObject *)sloc);
        int64_t *re = PyArray_DATA((PyArrayObject *)srem);
        int64_t cursor = 0;
        for (npy_intp s = 0; s < nd; s++) {
            int32_t x, y;
            hta_eval_server(ins->inst, &ev, (int32_t)s, &cursor, &x, &y,
                            &lv[s]);
            lo[s] = x;
            re[s] = y;
            for (int l = 0; l < ev.levels; l++) /* N levels: the counts */
                sl[s * ev.levels + l] =
                    ev.nlev ? ev.nlev[s * ev.levels + l] : l ? y : x;
        }
    }
    PyObject *r = PyDict_New();
    int ok = r && loads && sloc && srem && slev &&
             ext_set(r, "makespan", PyFloat_FromDouble(ev.makespan)) &&
             ext_set(r, "total", PyFloat_FromDouble(ev.total)) &&
             ext_set(r, "local", PyLong_FromLongLong(ev.local)) &&
             ext_set(r, "remote", PyLong_FromLongLong(ev.remote)) &&
             ext_set(r, "w_rem_r", PyFloat_FromDouble(ev.w_rem_r)) &&
             ext_set(r, "argmax", PyLong_FromLong(ev.argmax)) &&
             ext_set(r, "per_level",
                     ext_copy_i64(ev.count, (npy_intp)ev.levels)) &&
             ext_set(r, "level_costs",
                     ext_copy_f64(ev.cost, (npy_intp)ev.levels)) &&
             ext_set(r, "loads", Py_NewRef(loads)) &&
             ext_set(r, "server_local", Py_NewRef(sloc)) &&
             ext_set(r, "server_remote", Py_NewRef(srem)) &&
             ext_set(r, "server_levels", Py_NewRef(slev)) &&
             ext_set(r, "lower_bound", PyFloat_FromDouble(sr.lower_bound)) &&
             ext_set(r, "lower_bound_source",
                     PyUnicode_FromString(sr.bound_source)) &&
             ext_set(r, "gap", ext_real(hta_solve_gap(&sr, ev.makespan)));
    if (ok && exact) {
        int proven = hta_solve_proven(&sr);
        char why[HTA_SOLVE_WHY_MAX]; /* hta eval --exact's words */
        hta_solve_why_unproven(&sr, why, sizeof why);
        PyObject *x = PyDict_New();
        ok = x && ext_set(x, "results", ext_solve_rows(&sr)) &&
             ext_set(x, "best", PyFloat_FromDouble(sr.best_span)) &&
             ext_set(x, "proven_optimal", PyBool_FromLong(proven)) &&
             ext_set(x, "optimum", ext_real(proven ? sr.best_span : NAN)) &&
             ext_set(x, "gap_optimum",
                     ext_real(proven && sr.best_span > 0 ?
                                  (ev.makespan - sr.best_span) / sr.best_span :
                                  NAN)) &&
             ext_set(x, "why_not_proven",
                     proven ? Py_NewRef(Py_None) :
                              PyUnicode_FromString(why)) &&
             ext_set(x, "interrupted", PyBool_FromLong(sr.interrupted));
        ok = ok && ext_set(r, "exact", Py_NewRef(x));
        Py_XDECREF(x);
    }
    hta_solve_result_free(&sr);
    Py_XDECREF(slev);
    Py_XDECREF(loads);
    Py_XDECREF(sloc);
    Py_XDECREF(srem);
    hta_eval_free(&ev);
    if (!ok)
        Py_CLEAR(r);
    return r;
}

PyObject *ext_gen_hdfs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"tasks",  "servers", "replicas", "zipf",
                          "racks",  "policy",  "w_loc",    "w_rem",
                          "w_rack", "pods",    "w_pod",    "seed",
                          NULL};
    long long tasks, servers, replicas = 3, racks = 0, pods = 0;
    uint64_t seed = 1;
    double zipf = 0, w_loc = 1;
    const char *policy = "uniform";
    PyObject *wrem_obj = NULL, *wrack = Py_None, *wpod = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LL|LdLsdOOLOO&", kwl, &tasks,
                                     &servers, &replicas, &zipf, &racks,
                                     &policy, &w_loc, &wrem_obj, &wrack,
                                     &pods, &wpod, ext_seed, &seed))
        return NULL;
    int aware = strcmp(policy, "rack-aware") == 0;
    if (!aware && strcmp(policy, "uniform") != 0) {
        PyErr_Format(PyExc_ValueError,
                     "policy: expected 'uniform' or 'rack-aware', found '%s'",
                     policy);
        return NULL;
    }
    if (tasks < 1 || tasks > INT32_MAX || servers < 1 ||
        servers > INT32_MAX || replicas < 1 || replicas > servers ||
        racks < 0 || racks > servers || pods < 0 || pods > racks) {
        PyErr_SetString(PyExc_ValueError,
                        "expected 1 <= tasks, 1 <= replicas <= servers < "
                        "2^31, 0 <= pods <= racks <= servers");
        return NULL;
    }
    if (aware != (racks >= 2)) {
        PyErr_SetString(PyExc_ValueError,
                        "policy 'rack-aware' goes with racks >= 2");
        return NULL;
    }
    if ((wrack != Py_None && !aware) || (wpod != Py_None) != (pods > 0) ||
        (wpod != Py_None && wrack == Py_None)) {
        PyErr_SetString(PyExc_ValueError,
                        "w_rack needs the rack-aware policy; w_pod needs "
                        "w_rack and pods (and pods needs w_pod)");
        return NULL;
    }
    hta_gen_hdfs_params p;
    memset(&p, 0, sizeof p);
    p.tasks = (int32_t)tasks;
    p.servers = (int32_t)servers;
    p.replicas = (int32_t)replicas;
    p.racks = (int32_t)racks;
    p.rack_aware = aware;
    p.zipf = zipf;
    p.w_loc = w_loc;
    p.seed = seed;
    p.wrem = ext_wrem_default();
    double *v[3] = {NULL, NULL, NULL};
    int ok = !wrem_obj || ext_wrem(wrem_obj, "w_rem", &p.wrem, &v[0]);
    if (ok && wrack != Py_None) {
        p.nlev = 1;
        ok = ext_wrem(wrack, "w_rack", &p.wlev[0], &v[1]);
    }
    if (ok && wpod != Py_None) {
        p.nlev = 2;
        p.pods = (int32_t)pods;
        ok = ext_wrem(wpod, "w_pod", &p.wlev[1], &v[2]);
    }
    PyObject *r = NULL;
    ok = ok && ext_gate_costs(p.w_loc, &p.wrem, p.wlev, p.nlev, p.tasks);
    if (ok) {
        hta_diag d;
        hta_diag_clear(&d);
        hta_instance *inst = NULL;
        ext_call c;
        p.stop = &c.stop;
        ext_begin(&c);
        hta_status st = hta_gen_hdfs(&p, &inst, &d);
        if (ext_end(&c)) {
            hta_instance_free(inst);
            r = ext_interrupted(Py_None);
        } else {
            r = st == HTA_OK ? ext_wrap_instance(inst) : ext_raise(st, &d);
        }
    }
    for (int i = 0; i < 3; i++)
        free(v[i]);
    return r;
}

PyObject *ext_gen_sat(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"cnf", "vars", "clauses", "seed", NULL};
    PyObject *path_obj = NULL;
    long long vars = 0, clauses = 0;
    uint64_t seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O&LLO&", kwl,
                                     ext_path_or_none, &path_obj, &vars,
                                     &clauses, ext_seed, &seed))
        return NULL;
    if ((path_obj != NULL) == (vars > 0 || clauses > 0)) {
        Py_XDECREF(path_obj);
        PyErr_SetString(PyExc_ValueError,
                        "give a DIMACS file (cnf) or a random formula's vars "
                        "and clauses");
        return NULL;
    }
    if (!path_obj && (vars < 3 || vars > 1000000 || clauses < 1 ||
                      clauses > 10000000)) {
        PyErr_SetString(PyExc_ValueError,
                        "expected 3 <= vars <= 10^6 and 1 <= clauses <= "
                        "10^7");
        return NULL;
    }
    hta_diag d;
    hta_diag_clear(&d);
    hta_cnf *f = NULL;
    hta_reduction *red = NULL;
    ext_call c;
    ext_begin(&c); /* the reader polls Ctrl-C */
    hta_status st = path_obj ?
                        hta_cnf_parse(PyBytes_AS_STRING(path_obj), &f, &d) :
                        hta_cnf_random3((int32_t)vars, clauses, seed, &f, &d);
    if (st == HTA_OK)
        st = hta_reduce_build(f, &red, &d);
    PyObject *r = NULL;
    if (ext_end(&c)) {
        ext_interrupted(Py_None);
    } else if (st == HTA_OK) {
        hta_instance *inst = red->inst;
        red->inst = NULL; /* the caller's now */
        r = ext_wrap_instance(inst);
    } else {
        ext_raise(st, &d);
    }
    hta_reduce_free(red);
    hta_cnf_free(f);
    Py_XDECREF(path_obj);
    return r;
}

/* gen_rr(kind, servers, tasks, extra): Theorems 4.1 ("replica") and 4.3
 * ("worst"), the command's ranges (servers 2..2^24, tasks 1..). */
PyObject *ext_gen_rr(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    (void)kw;
    const char *kind;
    PyObject *so, *to;
    int extra;
    if (!PyArg_ParseTuple(args, "sOOp", &kind, &so, &to, &extra))
        return NULL;
    long long n = 0, m = 0;
    int worst = strcmp(kind, "worst") == 0;
    if (!ext_int_in(so, "servers", 2, HTA_MAX_SERVERS, &n) ||
        (worst && !ext_int_in(to, "tasks", 1, HTA_MAX_TASKS, &m)))
        return NULL;
    hta_diag d;
    hta_diag_clear(&d);
    hta_instance *inst = NULL;
    hta_status st = worst ? hta_gen_rr_worst((int32_t)n, (int32_t)m, &inst,
                                             &d) :
                            hta_gen_rr_replica((int32_t)n, extra, &inst, &d);
    return st == HTA_OK ? ext_wrap_instance(inst) : ext_raise(st, &d);
}

/* The formula at path and its reduction; 0 with the exception set. */
static int reduction_of(PyObject *path_obj, hta_cnf **f, hta_reduction **r)
{
    hta_diag d;
    hta_diag_clear(&d);
    *f = NULL;
    *r = NULL;
    ext_call c;
    ext_begin(&c); /* the reader polls Ctrl-C */
    hta_status st = hta_cnf_parse(PyBytes_AS_STRING(path_obj), f, &d);
    if (st == HTA_OK)
        st = hta_reduce_build(*f, r, &d);
    int stopped = ext_end(&c);
    if (st != HTA_OK || stopped) {
        hta_reduce_free(*r);
        hta_cnf_free(*f);
        *f = NULL;
        *r = NULL;
        if (stopped)
            ext_interrupted(Py_None);
        else
            ext_raise(st, &d);
        return 0;
    }
    return 1;
}

/* sat_witness(cnf, model) -> the assignment of Lemma 3.4 (hta gen sat
 * FORMULA --model MODEL): int32 numpy array, makespan <= 3. */
PyObject *ext_sat_witness(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"cnf", "model", NULL};
    PyObject *cnf_obj, *model_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&", kwl,
                                     PyUnicode_FSConverter, &cnf_obj,
                                     PyUnicode_FSConverter, &model_obj))
        return NULL;
    hta_cnf *f;
    hta_reduction *r;
    PyObject *res = NULL;
    if (reduction_of(cnf_obj, &f, &r)) {
        hta_diag d;
        hta_diag_clear(&d);
        signed char *model = NULL;
        const char *mpath = PyBytes_AS_STRING(model_obj);
        int32_t *a = malloc((size_t)r->inst->m * sizeof *a);
        hta_status st = a ? hta_model_parse(mpath, f->nvars, &model, &d) :
                            hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0,
                                         "out of memory");
        if (st == HTA_OK &&
            (st = hta_reduce_witness(r, model, a, NULL, &d)) ==
                HTA_ERR_INPUT)
            d.path = mpath;
        if (st == HTA_OK) {
            res = ext_own_array(a, (npy_intp)r->inst->m, NPY_INT32);
            a = NULL;
        } else {
            ext_raise(st, &d);
        }
        free(a);
        free(model);
        hta_reduce_free(r);
        hta_cnf_free(f);
    }
    Py_DECREF(cnf_obj);
    Py_DECREF(model_obj);
    return res;
}

/* decode(cnf, assignment) -> the model of Lemmas 3.5-3.10 (hta decode):
 * an int8 array over variables 0..nvars (entry 0 unused; 1 true, 0
 * false), or None when the makespan exceeds 3 (the command's exit 5:
 * such an assignment proves nothing). */
PyObject *ext_decode(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"cnf", "assignment", NULL};
    PyObject *cnf_obj, *aobj;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O", kwl,
                                     PyUnicode_FSConverter, &cnf_obj, &aobj))
        return NULL;
    hta_cnf *f;
    hta_reduction *r;
    PyObject *res = NULL;
    if (reduction_of(cnf_obj, &f, &r)) {
        int32_t *a = ext_assignment(r->inst, aobj);
        if (a) {
            hta_diag d;
            hta_diag_clear(&d);
            signed char *model = NULL;
            hta_status st = hta_reduce_decode(r, a, &model, &d);
            if (st == HTA_OK)
                res = ext_own_array(model, (npy_intp)f->nvars + 1, NPY_INT8);
            else if (st == HTA_ERR_NOPROOF)
                res = Py_NewRef(Py_None);
            else
                ext_raise(st, &d);
            free(a);
        }
        hta_reduce_free(r);
        hta_cnf_free(f);
    }
    Py_DECREF(cnf_obj);
    return res;
}
