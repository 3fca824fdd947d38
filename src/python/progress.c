/* The library's progress reports (hta/progress.h) to a Python callable
 * (ext.h): a long call's progress= argument.  The library calls often,
 * from its worker threads too; the callable gets a dict (phase, elapsed,
 * best, bound, count) at most four times a second, as the command's
 * line on a terminal, under the GIL, one call at a time (another thread
 * reporting meanwhile is skipped), and a slow callable at most a fifth
 * of the time.  An exception it raises stops the
 * call (its stop flag) and is raised by the call. */
#include "ext.h"

#include <math.h>

void ext_progress_init(ext_progress *p, PyObject *fn)
{
    p->fn = fn == Py_None ? NULL : fn;
    p->next = 0;
    p->busy = 0;
    p->stop = NULL;
    p->et = p->ev = p->etb = NULL;
    pthread_mutex_init(&p->mu, NULL);
}

void ext_progress_cb(void *ctx, const hta_progress *r)
{
    ext_progress *p = ctx;
    double now = hta_clock_now();
    pthread_mutex_lock(&p->mu);
    int go = p->fn && !p->et && !p->busy && now >= p->next;
    if (go)
        p->busy = 1;
    pthread_mutex_unlock(&p->mu);
    if (!go)
        return;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *d = PyDict_New();
    int ok = d && ext_set(d, "phase", PyUnicode_FromString(r->phase)) &&
             ext_set(d, "elapsed", PyFloat_FromDouble(r->elapsed)) &&
             ext_set(d, "best", ext_real(r->best)) &&
             ext_set(d, "bound", ext_real(r->bound)) &&
             ext_set(d, "count", r->count >= 0 ?
                                     PyLong_FromLongLong(r->count) :
                                     Py_NewRef(Py_None));
    PyObject *res = ok ? PyObject_CallOneArg(p->fn, d) : NULL;
    Py_XDECREF(d);
    if (!res) { /* the first exception ends the call */
        pthread_mutex_lock(&p->mu);
        if (!p->et) {
            PyErr_Fetch(&p->et, &p->ev, &p->etb);
            if (p->stop)
                *p->stop = 1;
        } else {
            PyErr_Clear();
        }
        pthread_mutex_unlock(&p->mu);
    }
    Py_XDECREF(res);
    PyGILState_Release(g);
    /* the next call 0.25 s on, or four times the callable's own time
       later: a slow callable takes at most a fifth of the run */
    double end = hta_clock_now(), took = end - now;
    pthread_mutex_lock(&p->mu);
    p->next = end + (4 * took > 0.25 ? 4 * took : 0.25);
    p->busy = 0;
    pthread_mutex_unlock(&p->mu);
}

int ext_progress_end(ext_progress *p)
{
    pthread_mutex_destroy(&p->mu);
    if (!p->et)
        return 1;
    PyErr_Restore(p->et, p->ev, p->etb);
    p->et = p->ev = p->etb = NULL;
    return 0;
}
