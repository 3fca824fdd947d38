/* A policy written in Python for hta.sim: an object with route(task,
 * view) and serve(server, view) becomes a plug-in table (hta/policy.h)
 * whose functions call it, and hta.View wraps the simulator's view for
 * the duration of one call.
 *
 * Threads: the runs go on the pool without the GIL, so every call takes
 * it (PyGILState_Ensure).  The runs of one Python policy object go one
 * at a time, so that its own state is never shared by two runs at once;
 * other policies' runs go on.  Within one hta.sim call they take turns
 * (a lock held from init to free); a second call given an object in a
 * call's runs (another thread's, or the policy's own: hta.sim in its
 * route) is refused before any run (ext_pypol_claim) rather than made
 * to wait: a wait would need the stop flag of the call it waits for,
 * and two calls could wait for each other.
 *
 * Arguments: the view's methods take ints and anything with __index__
 * (numpy's integers) but bools; serve's return likewise, or None.  A
 * value out of range is refused with the C view's words naming it as
 * the caller gave it.
 *
 * Errors: an exception raised by the policy ends its run (the view's
 * fail, so the simulator's words name the call) and is kept, the first
 * one, to be raised again by hta.sim with a note naming the call. */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
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

/* o as a Python int when it is an integer: an int or any object with
 * __index__ (numpy's integers of every width and byte order, 0-d integer
 * arrays) but a bool, which is no task, server nor queue.  A new
 * reference; NULL without an exception when o is not an integer, with
 * one when its __index__ raised. */
static PyObject *as_int(PyObject *o)
{
    if (PyLong_CheckExact(o))
        return Py_NewRef(o);
    if (PyBool_Check(o) || PyArray_IsScalar(o, Bool) || !PyIndex_Check(o))
        return NULL;
    if (PyArray_Check(o) && (PyArray_NDIM((PyArrayObject *)o) != 0 ||
                             !PyArray_ISINTEGER((PyArrayObject *)o)))
        return NULL;
    return PyNumber_Index(o);
}

/* An argument of the view's method `what` as an integer: *x its value,
 * *over 1 when it is beyond int64 (*x is then not it); 0 with TypeError
 * "<what>: expected an integer, found <type>" (or __index__'s own). */
static int integer(PyObject *o, const char *what, int64_t *x, int *over)
{
    *over = 0;
    PyObject *i = PyLong_CheckExact(o) ? o : as_int(o); /* o: no ref */
    if (!i) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError,
                         "%s: expected an integer, found %.60s", what,
                         Py_TYPE(o)->tp_name);
        return 0;
    }
    long long y = PyLong_AsLongLongAndOverflow(i, over);
    if (i != o)
        Py_DECREF(i);
    if (y == -1 && PyErr_Occurred())
        return 0;
    *x = (int64_t)y;
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

/* An argument refused here, not by the C view: its words (PyUnicode's
 * format) end the run as the view's own refusals do ("policy NAME:
 * ..."), and are raised; NULL. */
static PyObject *refuse(ext_view *self, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PyObject *s = PyUnicode_FromFormatV(fmt, ap);
    va_end(ap);
    const char *w = s ? PyUnicode_AsUTF8(s) : NULL;
    if (!w)
        PyErr_Clear();
    hta_view_fail(self->v, w ? w : "out of memory");
    Py_XDECREF(s);
    return rule(self);
}

/* The integer o as the caller gave it, for the words (o NULL: the
 * default 0); a new reference. */
static PyObject *found(PyObject *o)
{
    return o ? PyNumber_Index(o) : PyLong_FromLong(0);
}

/* What an argument of the view is: the words for a value beyond its C
 * type (int64; int32 for a server; int for a level and shortest's j). */
enum { A_QUEUE, A_TASK, A_TYPE, A_JOB, A_MARK, A_SERVER, A_LEVEL1,
       A_LEVEL2, A_SUBQUEUE };

/* Whether x fits the C type of kind k. */
static int fits(int k, int64_t x)
{
    return k < A_SERVER || (k == A_SERVER ? x >= INT32_MIN && x <= INT32_MAX :
                                            x >= INT_MIN && x <= INT_MAX);
}

static int view_arg_slow(ext_view *self, PyObject *o, const char *what,
                         int k, int64_t *x);

/* Argument o of the method `what`, of kind k, into *x; 0 with the
 * exception set.  A value the C type cannot hold is outside every range
 * the view checks: it is refused here, before the call's other rules,
 * with the view's words naming the value the caller gave ("level:
 * expected a server in 0..99, found 1099511627776"), and ends the run
 * as the view's refusals do.  Values the C type holds go to the view,
 * which says the same of them. */
static inline int view_arg(ext_view *self, PyObject *o, const char *what,
                           int k, int64_t *x)
{
    if (PyLong_CheckExact(o)) { /* the common case, without a call */
        int over;
        long long y = PyLong_AsLongLongAndOverflow(o, &over);
        if (!over && fits(k, y) && (y != -1 || !PyErr_Occurred())) {
            *x = (int64_t)y;
            return 1;
        }
    }
    return view_arg_slow(self, o, what, k, x);
}

static int view_arg_slow(ext_view *self, PyObject *o, const char *what,
                         int k, int64_t *x)
{
    int over;
    if (!integer(o, what, x, &over))
        return 0;
    if (!over && fits(k, *x))
        return 1;
    const hta_view *v = self->v;
    PyObject *f = found(o);
    if (!f)
        return 0;
    switch (k) {
    case A_QUEUE:
        refuse(self, "%s: expected a queue in 0..%lld, found %S", what,
               (long long)v->servers * v->per_server + v->shared - 1, f);
        break;
    case A_TASK:
        refuse(self, "%s: expected a task, found %S", what, f);
        break;
    case A_TYPE:
        refuse(self, "%s: expected a type in 0..%lld, found %S", what,
               (long long)v->types - 1, f);
        break;
    case A_JOB:
        refuse(self, "%s: expected a job, found %S", what, f);
        break;
    case A_MARK:
        refuse(self, "%s: expected a mark in %lld..%lld, found %S", what,
               (long long)INT64_MIN, (long long)INT64_MAX, f);
        break;
    case A_SERVER:
        refuse(self, "%s: expected a server in 0..%d, found %S", what,
               (int)v->servers - 1, f);
        break;
    case A_LEVEL1:
    case A_LEVEL2:
        refuse(self, "%s: expected a level in %d..%d, found %S", what,
               k == A_LEVEL1 ? 1 : 2, v->levels, f);
        break;
    default:
        if (v->per_server == 0)
            refuse(self, "%s needs a queue per server", what);
        else
            refuse(self, "%s: expected a queue of a server in 0..%d, found "
                         "%S", what, v->per_server - 1, f);
    }
    Py_DECREF(f);
    return 0;
}

/* nargs lo or hi (hi is lo or lo + 1), else TypeError "usage: expected
 * ..."; 0 then. */
static int nargs_in(Py_ssize_t nargs, int lo, int hi, const char *usage)
{
    if (nargs >= lo && nargs <= hi)
        return 1;
    if (lo == hi)
        PyErr_Format(PyExc_TypeError, "%s: expected %d argument%s, found %zd",
                     usage, lo, lo == 1 ? "" : "s", nargs);
    else
        PyErr_Format(PyExc_TypeError, "%s: expected %d or %d arguments, "
                                      "found %zd", usage, lo, hi, nargs);
    return 0;
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

/* The arguments of the method `name` (usage: its signature): one of
 * kind ka (METH_O), two of kinds ka and kb, or (a, j = 0). */
#define ARG1(a, ka, name)                                                    \
    int64_t a;                                                               \
    if (!alive(self) || !view_arg(self, arg, name, ka, &a))                  \
        return NULL;

#define ARGS2(a, ka, b, kb, name, usage)                                     \
    int64_t a, b;                                                            \
    if (!alive(self) || !nargs_in(nargs, 2, 2, usage) ||                     \
        !view_arg(self, args[0], name, ka, &a) ||                            \
        !view_arg(self, args[1], name, kb, &b))                              \
        return NULL;

#define ARGS_J(a, ka, j, kj, name, usage)                                    \
    int64_t a, j = 0;                                                        \
    if (!alive(self) || !nargs_in(nargs, 1, 2, usage) ||                     \
        !view_arg(self, args[0], name, ka, &a) ||                            \
        (nargs == 2 && !view_arg(self, args[1], name, kj, &j)))              \
        return NULL;

static PyObject *view_len(ext_view *self, PyObject *arg)
{
    ARG1(q, A_QUEUE, "len");
    return answer(self, hta_view_len(self->v, q));
}

static PyObject *view_push(ext_view *self, PyObject *const *args,
                           Py_ssize_t nargs)
{
    ARGS2(q, A_QUEUE, k, A_TASK, "push", "push(queue, task)");
    if (hta_view_push(self->v, q, k) != 0)
        return rule(self);
    Py_RETURN_NONE;
}

static PyObject *view_pop(ext_view *self, PyObject *arg)
{
    ARG1(q, A_QUEUE, "pop");
    return answer_id(self, hta_view_pop(self->v, q));
}

static PyObject *view_type(ext_view *self, PyObject *arg)
{
    ARG1(k, A_TASK, "type");
    return answer(self, hta_view_type(self->v, k));
}

static PyObject *view_arrival(ext_view *self, PyObject *arg)
{
    ARG1(k, A_TASK, "arrival");
    return answer(self, hta_view_arrival(self->v, k));
}

static PyObject *view_job(ext_view *self, PyObject *arg)
{
    ARG1(k, A_TASK, "job");
    return answer_id(self, hta_view_job(self->v, k));
}

/* The tuples are kept per run, keyed by the type as an int: the
 * argument is checked first, so 1.0 is refused as in any other call. */
static PyObject *view_replicas(ext_view *self, PyObject *arg)
{
    ARG1(L, A_TYPE, "replicas");
    PyObject *key = PyLong_CheckExact(arg) ? Py_NewRef(arg) :
                                             PyLong_FromLongLong(L);
    if (!key)
        return NULL;
    PyObject *t = PyDict_GetItemWithError(self->replicas, key);
    if (t || PyErr_Occurred()) {
        Py_DECREF(key);
        return Py_XNewRef(t);
    }
    int64_t n;
    const int32_t *r = hta_view_replicas(self->v, L, &n);
    if (!r) {
        Py_DECREF(key);
        return rule(self);
    }
    t = PyTuple_New((Py_ssize_t)n);
    for (int64_t i = 0; t && i < n; i++) {
        PyObject *x = PyLong_FromLong(r[i]);
        if (!x) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    if (t && PyDict_SetItem(self->replicas, key, t) < 0)
        Py_CLEAR(t);
    Py_DECREF(key);
    return t;
}

static PyObject *view_level(ext_view *self, PyObject *const *args,
                            Py_ssize_t nargs)
{
    ARGS2(L, A_TYPE, m, A_SERVER, "level", "level(type, server)");
    return answer(self, hta_view_level(self->v, L, (int32_t)m));
}

static PyObject *view_group(ext_view *self, PyObject *const *args,
                            Py_ssize_t nargs)
{
    ARGS2(m, A_SERVER, n, A_LEVEL2, "group", "group(server, level)");
    return answer(self, hta_view_group(self->v, (int32_t)m, (int)n));
}

/* span(level, group): the view checks the level first; a group beyond
 * int64 then gets its words here, the groups counted (the last one is
 * the largest group of any server: O(M), on this error only). */
static PyObject *view_span(ext_view *self, PyObject *const *args,
                           Py_ssize_t nargs)
{
    int64_t n, g;
    int over;
    if (!alive(self) || !nargs_in(nargs, 2, 2, "span(level, group)") ||
        !view_arg(self, args[0], "span", A_LEVEL2, &n) ||
        !integer(args[1], "span", &g, &over))
        return NULL;
    const hta_view *v = self->v;
    if (over && n >= 2 && n <= v->levels) {
        int64_t last = 0;
        for (int32_t m = 0; m < v->servers; m++) {
            int64_t x = hta_view_group(v, m, (int)n);
            last = x > last ? x : last;
        }
        PyObject *f = found(args[1]);
        PyObject *r = f ? refuse(self, "span: expected a group in 0..%lld, "
                                       "found %S", (long long)last, f) :
                          NULL;
        Py_XDECREF(f);
        return r;
    }
    int32_t lo, hi;
    hta_view_span(v, (int)n, over ? -1 : g, &lo, &hi);
    return sim_policy_broken(v) ? rule(self) : Py_BuildValue("(ii)", lo, hi);
}

static PyObject *view_longest(ext_view *self, PyObject *const *args,
                              Py_ssize_t nargs)
{
    ARGS2(m, A_SERVER, n, A_LEVEL2, "longest", "longest(server, level)");
    return answer_id(self, hta_view_longest(self->v, (int32_t)m, (int)n));
}

static PyObject *view_shortest(ext_view *self, PyObject *const *args,
                               Py_ssize_t nargs)
{
    ARGS_J(L, A_TYPE, j, A_SUBQUEUE, "shortest", "shortest(type, j=0)");
    int64_t len;
    int32_t m = hta_view_shortest(self->v, L, (int)j, &len);
    if (sim_policy_broken(self->v))
        return rule(self);
    return Py_BuildValue("(iL)", m, (long long)len);
}

static PyObject *view_least(ext_view *self, PyObject *const *args,
                            Py_ssize_t nargs)
{
    ARGS2(m, A_SERVER, n, A_LEVEL1, "least", "least(server, level)");
    double w;
    uint32_t tie;
    int32_t r = hta_view_least(self->v, (int32_t)m, (int)n, &w, &tie);
    if (sim_policy_broken(self->v))
        return rule(self);
    return Py_BuildValue("(idk)", r, w, (unsigned long)tie);
}

static PyObject *view_workload(ext_view *self, PyObject *arg)
{
    ARG1(m, A_SERVER, "workload");
    double w = hta_view_workload(self->v, (int32_t)m);
    return sim_policy_broken(self->v) ? rule(self) : PyFloat_FromDouble(w);
}

static PyObject *view_push_job(ext_view *self, PyObject *arg)
{
    ARG1(k, A_TASK, "push_job");
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
    if (!alive(self) ||
        !nargs_in(nargs, 3, 3, "job_best(job, server, allowed)") ||
        !view_arg(self, args[0], "job_best", A_JOB, &j) ||
        !view_arg(self, args[1], "job_best", A_SERVER, &m) ||
        !view_arg(self, args[2], "job_best", A_LEVEL1, &a))
        return NULL;
    int level;
    int64_t k = hta_view_job_best(self->v, j, (int32_t)m, (int)a, &level);
    if (sim_policy_broken(self->v))
        return rule(self);
    if (k < 0)
        Py_RETURN_NONE;
    return Py_BuildValue("(Li)", (long long)k, level);
}

static PyObject *view_take(ext_view *self, PyObject *arg)
{
    ARG1(k, A_TASK, "take");
    return answer(self, hta_view_take(self->v, k));
}

static PyObject *view_job_aside(ext_view *self, PyObject *arg)
{
    ARG1(j, A_JOB, "job_aside");
    hta_view_job_aside(self->v, j);
    if (sim_policy_broken(self->v))
        return rule(self);
    Py_RETURN_NONE;
}

static PyObject *view_job_mark(ext_view *self, PyObject *arg)
{
    ARG1(j, A_JOB, "job_mark");
    return answer(self, hta_view_job_mark(self->v, j));
}

static PyObject *view_set_job_mark(ext_view *self, PyObject *const *args,
                                   Py_ssize_t nargs)
{
    ARGS2(j, A_JOB, x, A_MARK, "set_job_mark", "set_job_mark(job, n)");
    hta_view_set_job_mark(self->v, j, x);
    if (sim_policy_broken(self->v))
        return rule(self);
    Py_RETURN_NONE;
}

/* below, queue and shared are checked here (the C view's below takes a
 * uint32_t; queue and shared are arithmetic), with the same effect as
 * the view's refusals: the run ends with the words raised. */
static PyObject *view_below(ext_view *self, PyObject *arg)
{
    int64_t n;
    int over;
    if (!alive(self) || !integer(arg, "below", &n, &over))
        return NULL;
    if (over || n < 1 || n > UINT32_MAX) {
        PyObject *f = found(arg);
        PyObject *r = f ? refuse(self, "below: expected a bound in 1..%lu, "
                                       "found %S",
                                 (unsigned long)UINT32_MAX, f) :
                          NULL;
        Py_XDECREF(f);
        return r;
    }
    uint32_t x = hta_view_below(self->v, (uint32_t)n);
    return sim_policy_broken(self->v) ? rule(self) :
                                        PyLong_FromUnsignedLong(x);
}

static PyObject *view_queue(ext_view *self, PyObject *const *args,
                            Py_ssize_t nargs)
{
    int64_t m, j = 0;
    int om, oj = 0;
    if (!alive(self) || !nargs_in(nargs, 1, 2, "queue(server, j=0)") ||
        !integer(args[0], "queue", &m, &om) ||
        (nargs == 2 && !integer(args[1], "queue", &j, &oj)))
        return NULL;
    const hta_view *v = self->v;
    if (v->per_server == 0)
        return refuse(self, "queue: the policy has no queue per server "
                            "(its queues_per_server is 0)");
    if (om || oj || m < 0 || m >= v->servers || j < 0 ||
        j >= v->per_server) {
        PyObject *fm = found(args[0]), *fj = found(nargs == 2 ? args[1] :
                                                                NULL);
        PyObject *r =
            fm && fj ? refuse(self, "queue: expected a server in 0..%d and "
                                    "a queue in 0..%d, found %S and %S",
                              (int)v->servers - 1, v->per_server - 1, fm,
                              fj) :
                       NULL;
        Py_XDECREF(fm);
        Py_XDECREF(fj);
        return r;
    }
    return PyLong_FromLongLong(hta_view_queue(v, (int32_t)m, (int)j));
}

static PyObject *view_shared(ext_view *self, PyObject *const *args,
                             Py_ssize_t nargs)
{
    int64_t i = 0;
    int over = 0;
    if (!alive(self) || !nargs_in(nargs, 0, 1, "shared(i=0)") ||
        (nargs == 1 && !integer(args[0], "shared", &i, &over)))
        return NULL;
    const hta_view *v = self->v;
    if (v->shared == 0)
        return refuse(self, "shared: the policy has no shared queue (its "
                            "shared_queues is 0)");
    if (over || i < 0 || i >= v->shared) {
        PyObject *f = found(nargs == 1 ? args[0] : NULL);
        PyObject *r = f ? refuse(self, "shared: expected a shared queue in "
                                       "0..%d, found %S", v->shared - 1, f) :
                          NULL;
        Py_XDECREF(f);
        return r;
    }
    return PyLong_FromLongLong(hta_view_shared(v, (int)i));
}

static PyObject *view_rate(ext_view *self, PyObject *arg)
{
    ARG1(n, A_LEVEL1, "rate");
    double r = hta_view_rate(self->v, (int)n);
    return sim_policy_broken(self->v) ? rule(self) : PyFloat_FromDouble(r);
}

static PyObject *view_idle(ext_view *self, PyObject *arg)
{
    ARG1(m, A_SERVER, "idle");
    int r = hta_view_idle(self->v, (int32_t)m);
    return sim_policy_broken(self->v) ? rule(self) : PyBool_FromLong(r);
}

static PyObject *view_job_running(ext_view *self, PyObject *arg)
{
    ARG1(j, A_JOB, "job_running");
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
    int claimed;    /* obj is in `busy` for this call */
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
    } else { /* an integer as the view's arguments are (as_int) */
        PyObject *i = as_int(x);
        int over = 0;
        long long y = i ? PyLong_AsLongLongAndOverflow(i, &over) : -1;
        if (!i && !PyErr_Occurred())
            PyErr_Format(PyExc_TypeError,
                         "%s: expected the task taken (view.pop) or None, "
                         "found %.60s", what, Py_TYPE(x)->tp_name);
        else if (i && !PyErr_Occurred() && (over || y < 0))
            PyErr_Format(PyExc_ValueError,
                         "%s: expected the task taken (view.pop) or None, "
                         "found %S", what, i);
        Py_XDECREF(i);
        if (PyErr_Occurred())
            raised(r, v, what);
        else
            k = (int64_t)y;
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

/* The policy objects of the hta.sim calls under way, as their ids (a
 * set, touched under the GIL only; an object is held by its call, so
 * its id is not reused while it is here). */
static PyObject *busy;

int ext_pypol_claim(ext_pypol *p, ext_pypol *const *before, int n)
{
    for (int k = 0; k < n; k++) {
        int same = before[k]->obj == p->obj;
        if (same || strcmp(before[k]->name, p->name) == 0) {
            PyErr_Format(PyExc_ValueError,
                         same ? "policies: policy '%s' given twice" :
                                "policies: name '%s' given twice (two "
                                "policies of that name)",
                         p->name);
            return 0;
        }
    }
    if (!busy && !(busy = PySet_New(NULL)))
        return 0;
    PyObject *id = PyLong_FromVoidPtr(p->obj);
    int in = id ? PySet_Contains(busy, id) : -1;
    if (in == 0 && PySet_Add(busy, id) == 0)
        p->claimed = 1;
    else if (in == 1)
        PyErr_Format(PyExc_RuntimeError,
                     "policies: policy '%s' is in the runs of another "
                     "hta.sim call, and the runs of one policy object go "
                     "one at a time: give each call its own object "
                     "(copy.deepcopy)", p->name);
    Py_XDECREF(id);
    return p->claimed;
}

PyObject *ext_pypol_forget(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    if (busy && PySet_Clear(busy) < 0)
        return NULL;
    Py_RETURN_NONE;
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
    if (p->claimed) { /* an exception being raised stays */
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        PyObject *id = PyLong_FromVoidPtr(p->obj);
        if (!id || PySet_Discard(busy, id) < 0)
            PyErr_Clear();
        Py_XDECREF(id);
        PyErr_Restore(et, ev, tb);
    }
    Py_XDECREF(p->obj);
    Py_XDECREF(p->route);
    Py_XDECREF(p->serve);
    Py_XDECREF(p->start);
    Py_XDECREF(p->exc);
    pthread_mutex_destroy(&p->lock);
    PyMem_RawFree(p);
}
