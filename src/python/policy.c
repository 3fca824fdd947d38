/* A policy written in Python for hta.sim: an object with route(task,
 * view) and serve(server, view) becomes a plug-in table (hta/policy.h)
 * whose functions call it, and hta.View wraps the simulator's view for
 * the duration of one call.
 *
 * Threads: the runs go on the pool without the GIL, so every call takes
 * it (PyGILState_Ensure).  The runs of one Python policy object go one
 * at a time (a lock held from init to free), so that its own state is
 * never shared by two runs at once; other policies' runs go on.
 *
 * Errors: an exception raised by the policy ends its run (the view's
 * fail, so the simulator's words name the call) and is kept, the first
 * one, to be raised again by hta.sim with a note naming the call. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ext.h"
#include "hta/policy.h"
#include "hta/sim.h"

/* ---- hta.View ---- */

typedef struct ext_view {
    PyObject_HEAD hta_view *v; /* NULL outside a call */
    PyObject *replicas;        /* dict: type -> tuple, this run's */
} ext_view;

static int alive(ext_view *self)
{
    if (self->v)
        return 1;
    PyErr_SetString(PyExc_RuntimeError,
                    "view: used outside the call it was passed to");
    return 0;
}

/* An int64 argument; 0 with TypeError. */
static int i64(PyObject *o, int64_t *out)
{
    if (!PyLong_Check(o) && !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "expected an integer, found %.60s",
                     Py_TYPE(o)->tp_name);
        return 0;
    }
    long long x = PyLong_AsLongLong(o);
    if (x == -1 && PyErr_Occurred())
        return 0;
    *out = (int64_t)x;
    return 1;
}

/* The view's words for a call that broke a rule, raised as ValueError
 * (the run ends anyway: the simulator's flag is set). */
static PyObject *rule(ext_view *self)
{
    const char *w = hta_view_error(self->v);
    PyErr_SetString(PyExc_ValueError, w ? w : "policy: a rule broken");
    return NULL;
}

#define sim_policy_broken(v) (hta_view_error(v) != NULL)

/* A server or a level from Python's int, out of the C types' range
 * mapped to -1, which the view refuses with its own words. */
static int32_t as_server(int64_t m)
{
    return m < INT32_MIN || m > INT32_MAX ? -1 : (int32_t)m;
}

static int as_level(int64_t n)
{
    return n < -1 || n > 1000 ? -1 : (int)n;
}

/* A view call's answer: the rule it broke raised, else x as an int
 * (answer) or None when negative (answer_id: no such task, server...). */
static PyObject *answer(ext_view *self, int64_t x)
{
    return sim_policy_broken(self->v) ? rule(self) : PyLong_FromLongLong(x);
}

static PyObject *answer_id(ext_view *self, int64_t x)
{
    if (sim_policy_broken(self->v))
        return rule(self);
    if (x < 0)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(x);
}

#define ARGS1(a)                                                             \
    int64_t a;                                                               \
    if (!alive(self) || !i64(arg, &a))                                       \
        return NULL;

#define ARGS2(a, b)                                                          \
    int64_t a, b;                                                            \
    if (!alive(self) || nargs != 2 || !i64(args[0], &a) ||                   \
        !i64(args[1], &b)) {                                                 \
        if (!PyErr_Occurred())                                               \
            PyErr_SetString(PyExc_TypeError, "expected 2 arguments");        \
        return NULL;                                                         \
    }

/* (a, j = 0): an index and an optional second one, usage the call's
 * signature for TypeError. */
#define ARGS_J(a, j, usage)                                                  \
    int64_t a, j = 0;                                                        \
    if (!alive(self) || nargs < 1 || nargs > 2 || !i64(args[0], &a) ||       \
        (nargs == 2 && !i64(args[1], &j))) {                                 \
        if (!PyErr_Occurred())                                               \
            PyErr_SetString(PyExc_TypeError, usage);                         \
        return NULL;                                                         \
    }

static PyObject *view_len(ext_view *self, PyObject *arg)
{
    ARGS1(q);
    return answer(self, hta_view_len(self->v, q));
}

static PyObject *view_push(ext_view *self, PyObject *const *args,
                           Py_ssize_t nargs)
{
    ARGS2(q, k);
    if (hta_view_push(self->v, q, k) != 0)
        return rule(self);
    Py_RETURN_NONE;
}

static PyObject *view_pop(ext_view *self, PyObject *arg)
{
    ARGS1(q);
    return answer_id(self, hta_view_pop(self->v, q));
}

static PyObject *view_type(ext_view *self, PyObject *arg)
{
    ARGS1(k);
    return answer(self, hta_view_type(self->v, k));
}

static PyObject *view_arrival(ext_view *self, PyObject *arg)
{
    ARGS1(k);
    return answer(self, hta_view_arrival(self->v, k));
}

static PyObject *view_job(ext_view *self, PyObject *arg)
{
    ARGS1(k);
    return answer_id(self, hta_view_job(self->v, k));
}

static PyObject *view_replicas(ext_view *self, PyObject *arg)
{
    if (!alive(self))
        return NULL;
    PyObject *t = PyDict_GetItemWithError(self->replicas, arg);
    if (t)
        return Py_NewRef(t);
    if (PyErr_Occurred())
        return NULL;
    int64_t L, n;
    if (!i64(arg, &L))
        return NULL;
    const int32_t *r = hta_view_replicas(self->v, L, &n);
    if (!r)
        return rule(self);
    t = PyTuple_New((Py_ssize_t)n);
    for (int64_t i = 0; t && i < n; i++) {
        PyObject *x = PyLong_FromLong(r[i]);
        if (!x) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    if (t && PyDict_SetItem(self->replicas, arg, t) < 0)
        Py_CLEAR(t);
    return t;
}

static PyObject *view_level(ext_view *self, PyObject *const *args,
                            Py_ssize_t nargs)
{
    ARGS2(L, m);
    return answer(self, hta_view_level(self->v, L, as_server(m)));
}

static PyObject *view_group(ext_view *self, PyObject *const *args,
                            Py_ssize_t nargs)
{
    ARGS2(m, n);
    return answer(self, hta_view_group(self->v, as_server(m), as_level(n)));
}

static PyObject *view_span(ext_view *self, PyObject *const *args,
                           Py_ssize_t nargs)
{
    ARGS2(n, g);
    int32_t lo, hi;
    hta_view_span(self->v, as_level(n), g, &lo, &hi);
    return sim_policy_broken(self->v) ? rule(self) :
                                        Py_BuildValue("(ii)", lo, hi);
}

static PyObject *view_longest(ext_view *self, PyObject *const *args,
                              Py_ssize_t nargs)
{
    ARGS2(m, n);
    return answer_id(self,
                     hta_view_longest(self->v, as_server(m), as_level(n)));
}

static PyObject *view_shortest(ext_view *self, PyObject *const *args,
                               Py_ssize_t nargs)
{
    ARGS_J(L, j, "shortest(type, j=0)");
    int64_t len;
    int32_t m = hta_view_shortest(self->v, L, as_level(j), &len);
    if (sim_policy_broken(self->v))
        return rule(self);
    return Py_BuildValue("(iL)", m, (long long)len);
}

static PyObject *view_least(ext_view *self, PyObject *const *args,
                            Py_ssize_t nargs)
{
    ARGS2(m, n);
    double w;
    uint32_t tie;
    int32_t r = hta_view_least(self->v, as_server(m), as_level(n), &w, &tie);
    if (sim_policy_broken(self->v))
        return rule(self);
    return Py_BuildValue("(idk)", r, w, (unsigned long)tie);
}

static PyObject *view_workload(ext_view *self, PyObject *arg)
{
    ARGS1(m);
    double w = hta_view_workload(self->v, as_server(m));
    return sim_policy_broken(self->v) ? rule(self) : PyFloat_FromDouble(w);
}

static PyObject *view_push_job(ext_view *self, PyObject *arg)
{
    ARGS1(k);
    if (hta_view_push_job(self->v, k) != 0)
        return rule(self);
    Py_RETURN_NONE;
}

static PyObject *view_job_first(ext_view *self, PyObject *unused)
{
    (void)unused;
    if (!alive(self))
        return NULL;
    int64_t j = hta_view_job_first(self->v);
    if (j < 0)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(j);
}

/* job_best(job, server, allowed) -> (task, level) or None */
static PyObject *view_job_best(ext_view *self, PyObject *const *args,
                               Py_ssize_t nargs)
{
    int64_t j, m, a;
    if (!alive(self) || nargs != 3 || !i64(args[0], &j) ||
        !i64(args[1], &m) || !i64(args[2], &a)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError,
                            "job_best(job, server, allowed)");
        return NULL;
    }
    int level;
    int64_t k = hta_view_job_best(self->v, j, as_server(m), as_level(a),
                                  &level);
    if (sim_policy_broken(self->v))
        return rule(self);
    if (k < 0)
        Py_RETURN_NONE;
    return Py_BuildValue("(Li)", (long long)k, level);
}

static PyObject *view_take(ext_view *self, PyObject *arg)
{
    ARGS1(k);
    return answer(self, hta_view_take(self->v, k));
}

static PyObject *view_job_aside(ext_view *self, PyObject *arg)
{
    ARGS1(j);
    hta_view_job_aside(self->v, j);
    if (sim_policy_broken(self->v))
        return rule(self);
    Py_RETURN_NONE;
}

static PyObject *view_job_mark(ext_view *self, PyObject *arg)
{
    ARGS1(j);
    return answer(self, hta_view_job_mark(self->v, j));
}

static PyObject *view_set_job_mark(ext_view *self, PyObject *const *args,
                                   Py_ssize_t nargs)
{
    ARGS2(j, x);
    hta_view_set_job_mark(self->v, j, x);
    if (sim_policy_broken(self->v))
        return rule(self);
    Py_RETURN_NONE;
}

static PyObject *view_below(ext_view *self, PyObject *arg)
{
    ARGS1(n);
    if (n < 1 || n > UINT32_MAX) {
        PyErr_Format(PyExc_ValueError,
                     "below: expected a bound in 1..%lu, found %lld",
                     (unsigned long)UINT32_MAX, (long long)n);
        return NULL;
    }
    return PyLong_FromUnsignedLong(hta_view_below(self->v, (uint32_t)n));
}

static PyObject *view_queue(ext_view *self, PyObject *const *args,
                            Py_ssize_t nargs)
{
    ARGS_J(m, j, "queue(server, j=0)");
    const hta_view *v = self->v;
    if (m < 0 || m >= v->servers || j < 0 || j >= v->per_server) {
        PyErr_Format(PyExc_ValueError,
                     "queue: expected a server in 0..%d and a queue in "
                     "0..%d, found %lld and %lld",
                     (int)v->servers - 1, v->per_server - 1, (long long)m,
                     (long long)j);
        return NULL;
    }
    return PyLong_FromLongLong(hta_view_queue(v, (int32_t)m, (int)j));
}

static PyObject *view_shared(ext_view *self, PyObject *const *args,
                             Py_ssize_t nargs)
{
    int64_t i = 0;
    if (!alive(self) || nargs > 1 || (nargs == 1 && !i64(args[0], &i))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "shared(i=0)");
        return NULL;
    }
    if (i < 0 || i >= self->v->shared) {
        PyErr_Format(PyExc_ValueError,
                     "shared: expected a shared queue in 0..%d, found %lld",
                     self->v->shared - 1, (long long)i);
        return NULL;
    }
    return PyLong_FromLongLong(hta_view_shared(self->v, (int)i));
}

static PyObject *view_rate(ext_view *self, PyObject *arg)
{
    ARGS1(n);
    double r = hta_view_rate(self->v, as_level(n));
    return sim_policy_broken(self->v) ? rule(self) : PyFloat_FromDouble(r);
}

static PyObject *view_idle(ext_view *self, PyObject *arg)
{
    ARGS1(m);
    int r = hta_view_idle(self->v, as_server(m));
    return sim_policy_broken(self->v) ? rule(self) : PyBool_FromLong(r);
}

static PyObject *view_job_running(ext_view *self, PyObject *arg)
{
    ARGS1(j);
    return answer(self, hta_view_job_running(self->v, j));
}

static PyObject *view_get(ext_view *self, void *what)
{
    if (!alive(self))
        return NULL;
    const hta_view *v = self->v;
    switch ((int)(intptr_t)what) {
    case 0:
        return PyLong_FromLong(v->servers);
    case 1:
        return PyLong_FromLong(v->levels);
    case 2:
        return PyLong_FromLongLong(v->types);
    case 3:
        return PyLong_FromLongLong(hta_view_slot(v));
    case 4:
        return PyLong_FromLongLong(hta_view_queued(v));
    case 5:
        return PyLong_FromLong(v->per_server);
    default:
        return PyLong_FromLong(v->shared);
    }
}

static PyMethodDef view_methods[] = {
    {"len", (PyCFunction)view_len, METH_O, "len(queue): its tasks"},
    {"push", (PyCFunction)(void (*)(void))view_push, METH_FASTCALL,
     "push(queue, task): route only, the task routed, once"},
    {"pop", (PyCFunction)view_pop, METH_O,
     "pop(queue): serve only, at most once: the head task, or None"},
    {"type", (PyCFunction)view_type, METH_O, "type(task)"},
    {"arrival", (PyCFunction)view_arrival, METH_O, "arrival(task): its slot"},
    {"job", (PyCFunction)view_job, METH_O, "job(task), or None"},
    {"replicas", (PyCFunction)view_replicas, METH_O,
     "replicas(type): the servers holding its data, a tuple"},
    {"level", (PyCFunction)(void (*)(void))view_level, METH_FASTCALL,
     "level(type, server): 1 (local) .. levels (remote)"},
    {"group", (PyCFunction)(void (*)(void))view_group, METH_FASTCALL,
     "group(server, level): its group at level 2..levels"},
    {"span", (PyCFunction)(void (*)(void))view_span, METH_FASTCALL,
     "span(level, group): its servers, (lo, hi)"},
    {"longest", (PyCFunction)(void (*)(void))view_longest, METH_FASTCALL,
     "longest(server, level): lengths = True: the server of the group "
     "with the longest queue 0, ties drawn, or None"},
    {"shortest", (PyCFunction)(void (*)(void))view_shortest, METH_FASTCALL,
     "shortest(type, j=0): (server, length) of the type's replica whose "
     "queue j is the shortest, ties drawn as the built-ins draw"},
    {"least", (PyCFunction)(void (*)(void))view_least, METH_FASTCALL,
     "least(server, level): workloads = True: (m, W_m, tie) of the "
     "server of the group with the least workload"},
    {"workload", (PyCFunction)view_workload, METH_O,
     "workload(server): workloads = True: W_m"},
    {"push_job", (PyCFunction)view_push_job, METH_O,
     "push_job(task): jobs = True, route only: to its job's queued tasks"},
    {"job_first", (PyCFunction)view_job_first, METH_NOARGS,
     "job_first(): jobs = True: the first job in fair-share order, or None"},
    {"job_best", (PyCFunction)(void (*)(void))view_job_best, METH_FASTCALL,
     "job_best(job, server, allowed): jobs = True: (task, level) of the "
     "job's queued task of the least level <= allowed, or None"},
    {"take", (PyCFunction)view_take, METH_O,
     "take(task): jobs = True, serve only: the task job_best gave last"},
    {"job_aside", (PyCFunction)view_job_aside, METH_O,
     "job_aside(job): jobs = True, serve only: out of the order until "
     "serve returns"},
    {"job_mark", (PyCFunction)view_job_mark, METH_O,
     "job_mark(job): a number kept per job, 0 at its arrival"},
    {"set_job_mark", (PyCFunction)(void (*)(void))view_set_job_mark,
     METH_FASTCALL, "set_job_mark(job, n)"},
    {"below", (PyCFunction)view_below, METH_O,
     "below(n): a uniform draw in 0..n-1 of the routing stream"},
    {"queue", (PyCFunction)(void (*)(void))view_queue, METH_FASTCALL,
     "queue(server, j=0): the index of the server's queue j"},
    {"shared", (PyCFunction)(void (*)(void))view_shared, METH_FASTCALL,
     "shared(i=0): the index of shared queue i"},
    {"rate", (PyCFunction)view_rate, METH_O, "rate(level): alpha_n"},
    {"idle", (PyCFunction)view_idle, METH_O, "idle(server)"},
    {"job_running", (PyCFunction)view_job_running, METH_O,
     "job_running(job): its tasks in service"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef view_getset[] = {
    {"servers", (getter)view_get, NULL, "M", (void *)0},
    {"levels", (getter)view_get, NULL, "N", (void *)1},
    {"types", (getter)view_get, NULL, "T", (void *)2},
    {"slot", (getter)view_get, NULL, "the current slot", (void *)3},
    {"queued", (getter)view_get, NULL, "tasks in all queues", (void *)4},
    {"queues_per_server", (getter)view_get, NULL, "", (void *)5},
    {"shared_queues", (getter)view_get, NULL, "", (void *)6},
    {NULL, NULL, NULL, NULL, NULL}};

static void view_dealloc(ext_view *self)
{
    Py_XDECREF(self->replicas);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject ext_ViewType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hta.View",
    .tp_basicsize = sizeof(ext_view),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The simulator's state as a policy sees it, during one call "
              "(hta-policy(7))",
    .tp_methods = view_methods,
    .tp_getset = view_getset,
    .tp_dealloc = (destructor)view_dealloc,
};

/* ---- the trampolines ---- */

struct ext_pypol {
    hta_policy table;
    char name[40];
    PyObject *obj, *route, *serve, *start; /* owned; start may be NULL */
    pthread_mutex_t lock;
    PyObject *exc;  /* the first exception raised, owned */
    char where[160];
};

/* One run: the policy, its view, and the thread state the run's thread
 * keeps from init to free (made by the first PyGILState_Ensure when the
 * thread is the pool's, and kept: made and dropped at every call, it
 * cost 16 us a call), released between calls. */
typedef struct pyrun {
    ext_pypol *p;
    ext_view *view;
    PyGILState_STATE g0;
    PyThreadState *saved;
} pyrun;

/* The exception raised in the call `what`: kept (the first), and the
 * run ended with the view's words. */
static void raised(pyrun *r, hta_view *v, const char *what)
{
    PyObject *et, *e, *tb;
    PyErr_Fetch(&et, &e, &tb);
    PyErr_NormalizeException(&et, &e, &tb);
    if (e && tb)
        PyException_SetTraceback(e, tb);
    Py_XDECREF(et);
    Py_XDECREF(tb);
    char words[200];
    PyObject *s = e ? PyObject_Str(e) : NULL;
    snprintf(words, sizeof words, "%s raised %.40s: %.100s", what,
             e ? Py_TYPE(e)->tp_name : "?",
             s && PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : "");
    if (!s)
        PyErr_Clear();
    Py_XDECREF(s);
    if (!r->p->exc) {
        r->p->exc = e;
        snprintf(r->p->where, sizeof r->p->where, "%s at slot %lld", what,
                 (long long)hta_view_slot(v));
    } else {
        Py_XDECREF(e);
    }
    if (!sim_policy_broken(v))
        hta_view_fail(v, words);
}

static int py_init(void **state, const hta_view *v, void *arg)
{
    ext_pypol *p = arg;
    pthread_mutex_lock(&p->lock); /* one run of this object at a time */
    PyGILState_STATE g = PyGILState_Ensure();
    pyrun *r = PyMem_RawCalloc(1, sizeof *r);
    ext_view *vo = r ? PyObject_New(ext_view, &ext_ViewType) : NULL;
    if (vo) {
        vo->v = NULL;
        vo->replicas = PyDict_New();
    }
    int ok = r && vo && vo->replicas;
    if (ok) {
        r->p = p;
        r->view = vo;
        *state = r;
    } else {
        PyErr_Clear();
        Py_XDECREF(vo);
        PyMem_RawFree(r);
        hta_view_fail((hta_view *)v, "out of memory");
    }
    if (ok && p->start) {
        vo->v = (hta_view *)v;
        PyObject *x = PyObject_CallOneArg(p->start, (PyObject *)vo);
        vo->v = NULL;
        if (!x) {
            raised(r, (hta_view *)v, "start");
            ok = 0;
            Py_DECREF(vo);
            PyMem_RawFree(r);
        }
        Py_XDECREF(x);
    }
    if (ok) { /* the thread state stays until free */
        r->g0 = g;
        r->saved = PyEval_SaveThread();
    } else {
        PyGILState_Release(g);
        pthread_mutex_unlock(&p->lock); /* free is not called */
    }
    return ok ? 0 : 1;
}

static void py_free(void *state)
{
    pyrun *r = state;
    ext_pypol *p = r->p;
    PyEval_RestoreThread(r->saved);
    PyGILState_STATE g = r->g0;
    Py_DECREF(r->view);
    PyMem_RawFree(r);
    PyGILState_Release(g);
    pthread_mutex_unlock(&p->lock);
}

static int py_route(void *state, hta_view *v, int64_t task)
{
    pyrun *r = state;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *t = PyLong_FromLongLong(task), *x = NULL;
    r->view->v = v;
    if (t) {
        PyObject *args[2] = {t, (PyObject *)r->view};
        x = PyObject_Vectorcall(r->p->route, args, 2, NULL);
    }
    r->view->v = NULL;
    int rc = 0;
    if (!x) {
        char what[48];
        snprintf(what, sizeof what, "route(task %lld)", (long long)task);
        raised(r, v, what);
        rc = 1;
    }
    Py_XDECREF(t);
    Py_XDECREF(x);
    PyGILState_Release(g);
    return rc;
}

static int64_t py_serve(void *state, hta_view *v, int32_t server)
{
    pyrun *r = state;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *m = PyLong_FromLong(server), *x = NULL;
    r->view->v = v;
    if (m) {
        PyObject *args[2] = {m, (PyObject *)r->view};
        x = PyObject_Vectorcall(r->p->serve, args, 2, NULL);
    }
    r->view->v = NULL;
    int64_t k = HTA_VIEW_FAIL;
    char what[48];
    snprintf(what, sizeof what, "serve(server %d)", (int)server);
    if (!x) {
        raised(r, v, what);
    } else if (x == Py_None) {
        k = HTA_VIEW_IDLE;
    } else if (PyLong_Check(x)) {
        long long y = PyLong_AsLongLong(x);
        if (y < 0 && !PyErr_Occurred())
            PyErr_Format(PyExc_ValueError,
                         "%s: expected the task taken (view.pop) or None, "
                         "found %lld", what, y);
        if (PyErr_Occurred())
            raised(r, v, what);
        else
            k = (int64_t)y;
    } else {
        PyErr_Format(PyExc_TypeError,
                     "%s: expected the task taken (view.pop) or None, "
                     "found %.60s", what, Py_TYPE(x)->tp_name);
        raised(r, v, what);
    }
    Py_XDECREF(m);
    Py_XDECREF(x);
    PyGILState_Release(g);
    return k;
}

/* An optional attribute: a bool, or an int in [lo, hi]; def when
 * absent.  0 with the exception set. */
/* obj.name into *out (NULL when absent); -1 with the exception set. */
static int optional_attr(PyObject *obj, const char *name, PyObject **out)
{
    *out = PyObject_GetAttrString(obj, name);
    if (*out)
        return 1;
    if (!PyErr_ExceptionMatches(PyExc_AttributeError))
        return -1;
    PyErr_Clear();
    return 0;
}

static int attr_int(PyObject *obj, const char *name, long long lo,
                    long long hi, long long def, long long *out)
{
    *out = def;
    PyObject *a = NULL;
    if (optional_attr(obj, name, &a) < 0)
        return 0;
    if (!a)
        return 1;
    char what[80];
    snprintf(what, sizeof what, "policy %s", name);
    int ok = PyBool_Check(a) ? (*out = a == Py_True, 1) :
                               ext_int_in(a, what, lo, hi, out);
    Py_DECREF(a);
    return ok;
}

ext_pypol *ext_pypol_new(PyObject *obj)
{
    if (!PyObject_HasAttrString(obj, "route") ||
        !PyObject_HasAttrString(obj, "serve")) {
        PyErr_Format(PyExc_TypeError,
                     "policies: expected a name or an object with route and "
                     "serve methods, found %.60s", Py_TYPE(obj)->tp_name);
        return NULL;
    }
    ext_pypol *p = PyMem_RawCalloc(1, sizeof *p);
    if (!p) {
        PyErr_NoMemory();
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    p->obj = Py_NewRef(obj);
    long long per, shared, own, lens, lvq, wls, jobs;
    PyObject *nm = NULL;
    int ok = (p->route = PyObject_GetAttrString(obj, "route")) &&
             (p->serve = PyObject_GetAttrString(obj, "serve")) &&
             optional_attr(obj, "start", &p->start) >= 0 &&
             attr_int(obj, "queues_per_server", HTA_POLICY_PER_LEVEL,
                      HTA_POLICY_MAX_PER_SERVER, 1, &per) &&
             attr_int(obj, "shared_queues", 0, HTA_POLICY_MAX_SHARED, 0,
                      &shared) &&
             attr_int(obj, "own_work", 0, 1, 0, &own) &&
             attr_int(obj, "lengths", 0, 1, 0, &lens) &&
             attr_int(obj, "level_queues", 0, 1, 0, &lvq) &&
             attr_int(obj, "workloads", 0, 1, 0, &wls) &&
             attr_int(obj, "jobs", 0, 1, 0, &jobs) &&
             optional_attr(obj, "name", &nm) >= 0;
    if (ok && (!PyCallable_Check(p->route) || !PyCallable_Check(p->serve))) {
        PyErr_SetString(PyExc_TypeError,
                        "policies: expected route and serve methods");
        ok = 0;
    }
    if (ok && nm && !PyUnicode_Check(nm)) {
        PyErr_Format(PyExc_TypeError, "policy name: expected a str, found "
                                      "%.60s", Py_TYPE(nm)->tp_name);
        ok = 0;
    }
    if (ok) { /* its name, or its class's in lower case */
        Py_ssize_t len = 0;
        const char *s = nm ? PyUnicode_AsUTF8AndSize(nm, &len) :
                             Py_TYPE(obj)->tp_name;
        if (s && !nm) {
            const char *dot = strrchr(s, '.');
            s = dot ? dot + 1 : s;
            len = (Py_ssize_t)strlen(s);
        }
        ok = s != NULL;
        size_t n = 0;
        for (; ok && n < (size_t)len && n + 1 < sizeof p->name; n++) {
            char ch = s[n] ? s[n] : '?'; /* a NUL is refused, not a cut */
            p->name[n] = nm || ch < 'A' || ch > 'Z' ? ch : (char)(ch + 32);
        }
        if (ok && n < (size_t)len) /* too long: the gate's words */
            p->name[sizeof p->name - 2] = '!';
    }
    Py_XDECREF(nm);
    if (!ok) {
        ext_pypol_free(p);
        return NULL;
    }
    if (PyErr_Occurred())
        PyErr_Clear();
    p->table = (hta_policy){HTA_POLICY_ABI,
                            p->name,
                            (int)per,
                            (int)shared,
                            (own ? HTA_POLICY_OWN_WORK : 0u) |
                                (lens ? HTA_POLICY_LENGTHS : 0u) |
                                (lvq ? HTA_POLICY_LEVEL_QUEUES : 0u) |
                                (wls ? HTA_POLICY_WORKLOADS : 0u) |
                                (jobs ? HTA_POLICY_JOBS : 0u),
                            py_init,
                            py_free,
                            py_route,
                            py_serve,
                            p};
    hta_diag d;
    hta_diag_clear(&d);
    if (hta_policy_check(&p->table, &d) != HTA_OK) {
        PyErr_Format(PyExc_ValueError, "policies: %s", d.msg);
        ext_pypol_free(p);
        return NULL;
    }
    return p;
}

const hta_policy *ext_pypol_table(const ext_pypol *p)
{
    return &p->table;
}

int ext_pypol_raise(ext_pypol *p, double load)
{
    if (!p->exc)
        return 0;
    PyObject *e = p->exc;
    p->exc = NULL;
    char at[40];
    snprintf(at, sizeof at, "%g", load);
    PyObject *note = PyUnicode_FromFormat(
        "hta.sim: raised by policy '%s' in %s of the run at load %s (the "
        "reports of the runs up to it: the exception's hta_reports)",
        p->name, p->where, at);
    if (note) {
        PyObject *x = PyObject_CallMethod(e, "add_note", "O", note);
        Py_XDECREF(x);
        Py_DECREF(note);
    }
    PyErr_Clear();
    PyErr_SetObject((PyObject *)Py_TYPE(e), e);
    Py_DECREF(e);
    return 1;
}

void ext_pypol_free(ext_pypol *p)
{
    if (!p)
        return;
    Py_XDECREF(p->obj);
    Py_XDECREF(p->route);
    Py_XDECREF(p->serve);
    Py_XDECREF(p->start);
    Py_XDECREF(p->exc);
    pthread_mutex_destroy(&p->lock);
    PyMem_RawFree(p);
}
