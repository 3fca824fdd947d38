/* hta.import_fsck and hta.import_swim: placements and job traces from
 * real clusters, as `hta import fsck` and `hta import swim` make them
 * (ext.h). */
#include "ext.h"

#include <stdlib.h>

/* import_fsck(path, w_loc, w_rem, w_rack, w_pod, strict, rack_depth) ->
 * (Instance, [lines of MISSING blocks]). */
PyObject *ext_import_fsck(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"path",   "w_loc",      "w_rem", "w_rack",
                          "w_pod",  "strict",     "rack_depth", NULL};
    PyObject *path_obj, *wrem_obj = NULL, *wrack = Py_None, *wpod = Py_None,
             *depth_obj = Py_None;
    double w_loc = 1;
    int strict = 0;
    long long depth = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|dOOOpO", kwl,
                                     PyUnicode_FSConverter, &path_obj,
                                     &w_loc, &wrem_obj, &wrack, &wpod,
                                     &strict, &depth_obj))
        return NULL;
    /* the command's range (hta import --rack-depth), then its rule */
    if (depth_obj != Py_None &&
        !ext_int_in(depth_obj, "rack_depth", 1, HTA_MAX_LEVELS - 2, &depth)) {
        Py_DECREF(path_obj);
        return NULL;
    }
    hta_wrem w = ext_wrem_default(), wlev[2];
    double *v[3] = {NULL, NULL, NULL};
    int nlev = 0, ok = 1;
    PyObject *r = NULL;
    if (wpod != Py_None && wrack == Py_None) {
        PyErr_SetString(PyExc_ValueError, "w_pod: needs w_rack");
        ok = 0;
    }
    if (ok && wrem_obj)
        ok = ext_wrem(wrem_obj, "w_rem", &w, &v[0]);
    if (ok && wrack != Py_None && (ok = ext_wrem(wrack, "w_rack", &wlev[0],
                                                 &v[1])))
        nlev = 1;
    if (ok && wpod != Py_None && (ok = ext_wrem(wpod, "w_pod", &wlev[1],
                                                &v[2])))
        nlev = 2;
    /* the blocks' count is known once read: its rule is the import's */
    ok = ok && ext_gate_costs(w_loc, &w, wlev, nlev, 0);
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = HTA_OK;
    if (ok && hta_fsck_check_depth(nlev, (int)depth, &d) != HTA_OK) {
        PyErr_SetString(PyExc_ValueError, d.msg);
        ok = 0;
    }
    if (ok) {
        const char *path = PyBytes_AS_STRING(path_obj);
        hta_instance *inst = NULL;
        hta_fsck_result res = {0};
        ext_call c;
        ext_begin(&c);
        st = hta_fsck_import(path, w_loc, &w, strict, &inst, &res, &d);
        if (st == HTA_OK && (nlev || depth))
            st = hta_fsck_set_levels(inst, path, &res, wlev, nlev,
                                     (int)depth, &d);
        if (ext_end(&c)) {
            hta_instance_free(inst);
            r = ext_interrupted(Py_None);
        } else if (st != HTA_OK) {
            hta_instance_free(inst);
            r = d.path ? ext_raise(st, &d) :
                         ext_raise_arg("w_rem, w_rack, w_pod", st, &d);
        } else {
            PyObject *lines = PyList_New((Py_ssize_t)res.nwarnings);
            for (int64_t i = 0; lines && i < res.nwarnings; i++) {
                PyObject *x = Py_BuildValue("(ls)", res.warnings[i].line,
                                            res.warnings[i].text);
                if (!x) {
                    Py_CLEAR(lines);
                    break;
                }
                PyList_SET_ITEM(lines, (Py_ssize_t)i, x);
            }
            PyObject *o = lines ? ext_wrap_instance(inst) : NULL;
            if (!lines)
                hta_instance_free(inst);
            r = o ? Py_BuildValue("(NN)", o, lines) : NULL;
            if (!o)
                Py_XDECREF(lines);
        }
        hta_fsck_result_free(&res);
    }
    for (int i = 0; i < 3; i++)
        free(v[i]);
    Py_DECREF(path_obj);
    return r;
}

/* import_swim(path, block_mb, slot_seconds, reducer_mb) -> Jobs. */
PyObject *ext_import_swim(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"path", "block_mb", "slot_seconds", "reducer_mb",
                          NULL};
    PyObject *path_obj;
    const double mib = 1048576.0;
    double block = 64, slot = 10, reducer = 1024;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|ddd", kwl,
                                     PyUnicode_FSConverter, &path_obj,
                                     &block, &slot, &reducer))
        return NULL;
    /* the command's ranges (hta import --help) */
    const char *bad = !(block > 0 && block <= 1e9)     ? "block_mb" :
                      !(slot > 0 && slot <= 1e9)       ? "slot_seconds" :
                      !(reducer > 0 && reducer <= 1e12) ? "reducer_mb" :
                                                          NULL;
    if (bad) {
        PyErr_Format(PyExc_ValueError, "%s: expected a number in (0, %s]",
                     bad, bad[0] == 'r' ? "1e+12" : "1e+09");
        Py_DECREF(path_obj);
        return NULL;
    }
    hta_swim_opts o = {block * mib, slot, reducer * mib};
    hta_diag d;
    hta_diag_clear(&d);
    hta_jobs *J = NULL;
    ext_call c;
    ext_begin(&c);
    hta_status st = hta_jobs_from_swim(PyBytes_AS_STRING(path_obj), &o, &J,
                                       &d);
    PyObject *r;
    if (ext_end(&c)) {
        hta_jobs_free(J);
        r = ext_interrupted(Py_None);
    } else {
        r = st == HTA_OK ? ext_wrap_jobs(J) : ext_raise(st, &d);
    }
    Py_DECREF(path_obj);
    return r;
}
