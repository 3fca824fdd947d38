/* The pictures from Python (ext.h): a sweep's line chart and an
 * assignment's loads, drawn by the library's src/chart/ into memory, the
 * SVG text the command writes. */
#include "ext.h"

#include "hta/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* fn(obj)'s SVG as a str (UTF-8: the escaper keeps to it). */
static PyObject *svg_of(ext_memwriter fn, const void *obj)
{
    size_t len;
    hta_status st;
    char *buf = ext_memwrite(fn, obj, &len, &st);
    if (!buf)
        return PyErr_NoMemory(); /* a write to memory fails no other way */
    PyObject *r = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)len, "replace");
    free(buf);
    return r;
}

static hta_status write_chart(const void *obj, FILE *f)
{
    return hta_chart_svg(obj, f);
}

/* hta_plot_loads' arguments */
typedef struct loads_pic {
    const hta_instance *inst;
    const hta_eval *ev;
    double lb;
    const char *title;
} loads_pic;

static hta_status write_loads(const void *obj, FILE *f)
{
    const loads_pic *p = obj;
    return hta_plot_loads(p->inst, p->ev, p->lb, p->title, f);
}

/* A sequence of n numbers (None: NaN) into out[0..n), or of n bools
 * into flags; 0 with the exception set. */
static int numbers(PyObject *obj, const char *what, Py_ssize_t n,
                   double *out, unsigned char *flags)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return 0;
    int ok = PySequence_Fast_GET_SIZE(seq) == n;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values, found %zd",
                     what, n, PySequence_Fast_GET_SIZE(seq));
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *v = PySequence_Fast_GET_ITEM(seq, i);
        if (flags) {
            int b = PyObject_IsTrue(v);
            ok = b >= 0;
            flags[i] = (unsigned char)(b > 0);
        } else if (v == Py_None) {
            out[i] = NAN;
        } else {
            out[i] = PyFloat_AsDouble(v);
            ok = !(out[i] == -1 && PyErr_Occurred());
        }
    }
    Py_DECREF(seq);
    return ok;
}

/* chart_svg(title, subtitle, xlabel, ylabel, names, x, y, ci, hollow,
 * dashed, hollow_means, mark_x, mark_label): y, ci and hollow flat,
 * series by series (nseries * npts); ci, hollow, dashed, mark_x None
 * for none. */
PyObject *ext_chart_svg(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"title",  "subtitle", "xlabel",       "ylabel",
                          "names",  "x",        "y",            "ci",
                          "hollow", "dashed",   "hollow_means", "mark_x",
                          "mark_label", NULL};
    const char *title, *sub, *xl, *yl, *hm = NULL, *ml = NULL;
    PyObject *names, *xo, *yo, *cio = Py_None, *ho = Py_None,
                                *dso = Py_None, *mxo = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "zzssOOO|OOOzOz", kwl, &title,
                                     &sub, &xl, &yl, &names, &xo, &yo, &cio,
                                     &ho, &dso, &hm, &mxo, &ml))
        return NULL;
    if (!title)
        title = "";
    PyObject *nseq = PySequence_Fast(names, "names: expected a sequence");
    if (!nseq)
        return NULL;
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(nseq), np = PyObject_Length(xo);
    PyObject *r = NULL;
    const char **nm = NULL;
    double *x = NULL, *y = NULL, *ci = NULL, mark = NAN;
    unsigned char *hol = NULL, *dash = NULL;
    if (np < 0)
        goto done;
    if (ns < 1 || ns > 1024 || np < 1 || np > 1000000 ||
        (size_t)ns * (size_t)np > 10000000) {
        PyErr_Format(PyExc_ValueError, "expected 1 to 1024 series of 1 to "
                                       "10^6 points, found %zd of %zd",
                     ns, np);
        goto done;
    }
    size_t cells = (size_t)ns * (size_t)np;
    nm = calloc((size_t)ns, sizeof *nm);
    x = malloc((size_t)np * sizeof *x);
    y = malloc(cells * sizeof *y);
    ci = cio != Py_None ? malloc(cells * sizeof *ci) : NULL;
    hol = ho != Py_None ? malloc(cells) : NULL;
    dash = dso != Py_None ? malloc((size_t)ns) : NULL;
    if (!nm || !x || !y || (cio != Py_None && !ci) ||
        (ho != Py_None && !hol) || (dso != Py_None && !dash)) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t s = 0; s < ns; s++) {
        PyObject *o = PySequence_Fast_GET_ITEM(nseq, s);
        Py_ssize_t len;
        if (!PyUnicode_Check(o) || !(nm[s] = PyUnicode_AsUTF8AndSize(o, &len))) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "names: expected str");
            goto done;
        }
        if ((size_t)len != strlen(nm[s])) {
            PyErr_SetString(PyExc_ValueError, "names: expected text "
                                              "without NUL");
            goto done;
        }
    }
    if (!numbers(xo, "x", np, x, NULL) ||
        !numbers(yo, "y", (Py_ssize_t)cells, y, NULL) ||
        (ci && !numbers(cio, "ci", (Py_ssize_t)cells, ci, NULL)) ||
        (hol && !numbers(ho, "hollow", (Py_ssize_t)cells, NULL, hol)) ||
        (dash && !numbers(dso, "dashed", ns, NULL, dash)) ||
        (mxo != Py_None && (mark = PyFloat_AsDouble(mxo)) == -1 &&
         PyErr_Occurred()))
        goto done;
    for (Py_ssize_t k = 0; k < np; k++)
        if (!(fabs(x[k]) <= 1e300) || (k && !(x[k] >= x[k - 1]))) {
            PyErr_SetString(PyExc_ValueError,
                            "x: expected non-decreasing values in [-1e300, "
                            "1e300]");
            goto done;
        }
    hta_chart ch = {title, sub, xl, yl, (int)ns, (int)np, nm, dash, x, y,
                    ci, hol, hm, mark, ml ? ml : ""};
    r = svg_of(write_chart, &ch);
done:
    Py_DECREF(nseq);
    free(nm);
    free(x);
    free(y);
    free(ci);
    free(hol);
    free(dash);
    return r;
}

/* loads_svg(instance, assignment, lower_bound, title): the picture of
 * hta solve / eval --plot. */
PyObject *ext_loads_svg(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"instance", "assignment", "lower_bound", "title",
                          NULL};
    ext_instance *ins;
    PyObject *aobj;
    double lb = 0;
    const char *title = "";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|ds", kwl,
                                     &ext_InstanceType, &ins, &aobj, &lb,
                                     &title))
        return NULL;
    int32_t *a = ext_assignment(ins->inst, aobj);
    if (!a)
        return NULL;
    hta_diag d;
    hta_diag_clear(&d);
    hta_eval ev;
    hta_status st = hta_eval_run(ins->inst, a, &ev, &d);
    free(a);
    if (st != HTA_OK)
        return ext_raise(st, &d);
    loads_pic pic = {ins->inst, &ev, isfinite(lb) ? lb : 0, title};
    PyObject *r = svg_of(write_loads, &pic);
    hta_eval_free(&ev);
    return r;
}
