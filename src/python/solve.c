/* hta.solve: what `hta solve --json` reports, as a dict, with the best
 * assignment as a numpy array the caller owns (ext.h). */
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* algos: a sequence of names, or one comma-separated string. */
static int parse_algos(PyObject *obj, hta_solve_opts *o)
{
    PyObject *seq = NULL;
    if (PyUnicode_Check(obj)) {
        PyObject *sep = PyUnicode_FromString(",");
        seq = sep ? PyUnicode_Split(obj, sep, -1) : NULL;
        Py_XDECREF(sep);
    } else {
        seq = PySequence_Fast(obj, "algos: expected a sequence of names");
    }
    if (!seq)
        return 0;
    PyObject *fast = PySequence_Fast(seq, "algos");
    Py_DECREF(seq);
    if (!fast)
        return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    int rows = 0, ok = k >= 1 && k <= HTA_SOLVE_MAX_ROWS;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "algos: expected 1 to %d names",
                     HTA_SOLVE_MAX_ROWS);
    for (Py_ssize_t i = 0; ok && i < k; i++) {
        const char *name = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i));
        if (!name) {
            ok = 0;
            break;
        }
        int a = -1;
        for (int j = 0; j <= HTA_ALGO_HADOOP; j++)
            if (strcmp(name, hta_algo_names[j]) == 0)
                a = j;
        if (a < 0) {
            PyErr_Format(PyExc_ValueError,
                         "algos: unknown algorithm '%s' (rr, fsy, hadoop, "
                         "ilp, brute, close, sat, exact)",
                         name);
            ok = 0;
            break;
        }
        o->algos[i] = (hta_algo)a;
        rows += a == HTA_ALGO_EXACT ? 3 : 1;
    }
    if (ok && rows > HTA_SOLVE_MAX_ROWS) {
        PyErr_Format(PyExc_ValueError,
                     "algos: at most %d rows (exact counts 3), found %d",
                     HTA_SOLVE_MAX_ROWS, rows);
        ok = 0;
    }
    o->nalgos = (int)k;
    Py_DECREF(fast);
    return ok;
}

static PyObject *row_dict(const hta_solve_result *r, const hta_row *row)
{
    const hta_instance *inst = r->inst;
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    int ok = ext_set(d, "algorithm", PyUnicode_FromString(row->algorithm)) &&
             ext_set(d, "status", PyUnicode_FromString(row->status)) &&
             ext_set(d, "makespan",
                     ext_real(row->has_value ? row->makespan : NAN));
    if (ok && row->has_value) {
        ok = ext_set(d, "local", PyLong_FromLongLong(row->local)) &&
             ext_set(d, "remote", PyLong_FromLongLong(row->remote));
        if (ok && hta_levels(inst) > 2) {
            PyObject *l = PyList_New(hta_levels(inst));
            for (int i = 0; l && i < hta_levels(inst); i++)
                PyList_SET_ITEM(l, i, PyLong_FromLongLong(row->count[i]));
            ok = ext_set(d, "per_level", l);
        }
    } else if (ok) {
        ok = ext_set(d, "local", Py_NewRef(Py_None)) &&
             ext_set(d, "remote", Py_NewRef(Py_None));
    }
    ok = ok &&
         ext_set(d, "gap",
                 ext_real(row->has_value ? hta_solve_gap(r, row->makespan) :
                                           NAN)) &&
         ext_set(d, "seconds", PyFloat_FromDouble(row->seconds)) &&
         ext_set(d, "note", PyUnicode_FromString(row->note));
    if (!ok)
        Py_CLEAR(d);
    return d;
}

PyObject *ext_solve_rows(const hta_solve_result *r)
{
    PyObject *rows = PyList_New(r->nrows);
    for (int i = 0; rows && i < r->nrows; i++) {
        PyObject *x = row_dict(r, &r->rows[i]);
        if (!x)
            Py_CLEAR(rows);
        else
            PyList_SET_ITEM(rows, i, x);
    }
    return rows;
}

/* The report of `hta solve --json` (minus the path) and the assignment. */
static PyObject *report(hta_solve_result *r)
{
    const hta_instance *inst = r->inst;
    PyObject *d = PyDict_New(), *in = PyDict_New(), *rows = NULL;
    int ok = d && in && ext_set(in, "tasks", PyLong_FromLong(inst->m)) &&
             ext_set(in, "servers", PyLong_FromLong(inst->n_declared)) &&
             ext_set(in, "edges", PyLong_FromLongLong(inst->edges)) &&
             ext_set(in, "w_loc", PyFloat_FromDouble(inst->w_loc));
    if (ok && hta_levels(inst) > 2)
        ok = ext_set(in, "levels", PyLong_FromLong(hta_levels(inst)));
    if (ok) {
        ok = ext_set(d, "instance", in);
        in = NULL;
    }
    ok = ok &&
         ext_set(d, "lower_bound",
                 ext_real(r->has_lower_bound ? r->lower_bound : NAN)) &&
         ext_set(d, "lower_bound_source",
                 r->has_lower_bound ? PyUnicode_FromString(r->bound_source) :
                                      Py_NewRef(Py_None)) &&
         ext_set(d, "guarantee",
                 ext_real(r->has_guarantee ? r->guarantee : NAN));
    if (ok && !(rows = ext_solve_rows(r)))
        ok = 0;
    if (ok) {
        ok = ext_set(d, "results", rows);
        rows = NULL;
    }
    int b = hta_solve_best_row(r);
    if (ok && b < 0)
        ok = ext_set(d, "best", Py_NewRef(Py_None));
    else if (ok)
        ok = ext_set(d, "best",
                     Py_BuildValue("{s:s,s:d,s:O}", "algorithm",
                                   r->rows[b].algorithm, "makespan",
                                   r->rows[b].makespan, "proven_optimal",
                                   hta_solve_proven(r) ? Py_True : Py_False));
    ok = ok && ext_set(d, "interrupted", PyBool_FromLong(r->interrupted));
    if (ok && r->best) {
        ok = ext_set(d, "assignment",
                     ext_own_array(r->best, (npy_intp)inst->m, NPY_INT32));
        r->best = NULL; /* numpy's now (freed with it on failure) */
    } else if (ok) {
        ok = ext_set(d, "assignment", Py_NewRef(Py_None));
    }
    Py_XDECREF(in);
    Py_XDECREF(rows);
    if (!ok)
        Py_CLEAR(d);
    return d;
}

/* The run of o, and the files write_cnf and write_lp (paths or None)
 * ask for: written only when the run made them, replaced atomically, as
 * the command's --write-cnf and --write-lp. */
static PyObject *solve_run(const ext_instance *ins, hta_solve_opts *o,
                           PyObject *cnf_arg, PyObject *lp_arg,
                           PyObject *progress)
{
    PyObject *cnf_obj = NULL, *lp_obj = NULL;
    if (!ext_path_or_none(cnf_arg, &cnf_obj) ||
        !ext_path_or_none(lp_arg, &lp_obj)) {
        Py_XDECREF(cnf_obj);
        return NULL;
    }
    hta_diag d;
    hta_diag_clear(&d);
    hta_solve_result r;
    hta_outfile lp = {0}, cnf = {0};
    ext_call c;
    o->stop = &c.stop;
    ext_progress pg;
    ext_progress_init(&pg, progress);
    pg.stop = &c.stop;
    if (pg.fn) {
        o->progress = ext_progress_cb;
        o->progress_ctx = &pg;
    }
    ext_begin(&c);
    hta_status st = HTA_OK;
    if (lp_obj && (st = hta_outfile_open(&lp, PyBytes_AS_STRING(lp_obj),
                                         &d)) == HTA_OK) {
        /* GLPK writes the model by name: into the temporary file */
        fclose(lp.f);
        lp.f = NULL;
        o->write_lp = hta_outfile_name(&lp);
    }
    if (st == HTA_OK && cnf_obj &&
        (st = hta_outfile_open(&cnf, PyBytes_AS_STRING(cnf_obj), &d)) ==
            HTA_OK)
        o->write_cnf = cnf.f;
    int solved = st == HTA_OK;
    if (solved)
        st = hta_solve(ins->inst, o, &r, &d);
    ext_end(&c);
    solved = solved && st == HTA_OK;
    if (!ext_progress_end(&pg)) { /* the callable's exception */
        if (solved)
            hta_solve_result_free(&r);
        hta_outfile_abort(&lp);
        hta_outfile_abort(&cnf);
        Py_XDECREF(cnf_obj);
        Py_XDECREF(lp_obj);
        return NULL;
    }
    const char *none = NULL;
    if (solved && lp_obj && !r.lp_written)
        none = "write_lp: nothing to write (close and sat's GLPK refuted "
               "nothing below the best, no ilp model was built)";
    else if (solved && cnf_obj && !r.cnf_written)
        none = "write_cnf: no CNF was built (the best met the bound, or "
               "sat did not apply)";
    if (solved && !none && lp_obj)
        st = hta_outfile_commit(&lp, &d);
    if (solved && !none && st == HTA_OK && cnf_obj)
        st = hta_outfile_commit(&cnf, &d);
    hta_outfile_abort(&lp);
    hta_outfile_abort(&cnf);
    PyObject *rep = NULL;
    if (st != HTA_OK)
        ext_raise(st, &d);
    else if (none)
        PyErr_SetString(PyExc_ValueError, none);
    else
        rep = report(&r);
    if (solved)
        hta_solve_result_free(&r);
    Py_XDECREF(cnf_obj);
    Py_XDECREF(lp_obj);
    return rep;
}

PyObject *ext_solve(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"instance",   "algos",       "time_limit",
                          "seed",       "rr_runs",     "ilp_max_tasks",
                          "maxflow",    "ilp_engine",  "no_prune",
                          "no_jump",    "literal_balance", "sat_generic",
                          "ilp_plain",  "ilp_naive",   "write_cnf",
                          "write_lp",   "progress",    NULL};
    ext_instance *ins;
    PyObject *algos = NULL, *seed = Py_None, *rr_runs = Py_None;
    PyObject *cnf_arg = Py_None, *lp_arg = Py_None, *progress = Py_None;
    double time_limit = 60;
    long long ilp_max = 20000;
    const char *maxflow = "incremental", *engine = NULL;
    int no_prune = 0, no_jump = 0, literal = 0, generic = 0, plain = 0,
        naive = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|OdOOLszppppppOOO", kwl,
                                     &ext_InstanceType, &ins, &algos,
                                     &time_limit, &seed, &rr_runs, &ilp_max,
                                     &maxflow, &engine, &no_prune, &no_jump,
                                     &literal, &generic, &plain, &naive,
                                     &cnf_arg, &lp_arg, &progress))
        return NULL;
    hta_solve_opts o;
    hta_solve_opts_default(&o);
    /* as the command's flags of the same names */
    o.prune = no_prune ? 0 : no_jump ? 1 : 2;
    o.literal_balance = literal;
    o.sat_generic = generic;
    o.ilp_plain = plain;
    o.model = naive ? HTA_ILP_NAIVE : HTA_ILP_COMPACT;
    if (algos && !parse_algos(algos, &o))
        return NULL;
    if (!(time_limit > 0) || time_limit > 1e9) {
        PyErr_SetString(PyExc_ValueError,
                        "time_limit: expected seconds in (0, 1e9]");
        return NULL;
    }
    o.time_limit = time_limit;
    if (ilp_max < 1) {
        PyErr_SetString(PyExc_ValueError, "ilp_max_tasks: expected >= 1");
        return NULL;
    }
    o.ilp_max_tasks = ilp_max;
    if (seed != Py_None || rr_runs != Py_None) {
        o.rr_randomized = 1;
        if (seed != Py_None && !ext_seed(seed, &o.seed))
            return NULL;
        if (rr_runs != Py_None) {
            long long k = PyLong_AsLongLong(rr_runs);
            if (k == -1 && PyErr_Occurred())
                return NULL;
            if (k < 1 || k > 1000000) {
                PyErr_SetString(PyExc_ValueError,
                                "rr_runs: expected 1 to 10^6");
                return NULL;
            }
            o.rr_runs = k;
        }
    }
    if (strcmp(maxflow, "igraph") == 0)
        o.engine = HTA_MAXFLOW_IGRAPH;
    else if (strcmp(maxflow, "incremental") != 0) {
        PyErr_Format(PyExc_ValueError,
                     "maxflow: expected 'incremental' or 'igraph', found "
                     "'%s'",
                     maxflow);
        return NULL;
    }
    if (engine) {
        static const char *const names[] = {"glpk", "cbc", "both"};
        o.ilp_engine = -1;
        for (int i = 0; i < 3; i++)
            if (strcmp(engine, names[i]) == 0)
                o.ilp_engine = i;
        if (o.ilp_engine < 0) {
            PyErr_Format(PyExc_ValueError,
                         "ilp_engine: expected 'glpk', 'cbc' or 'both', "
                         "found '%s'",
                         engine);
            return NULL;
        }
        if (o.ilp_engine != HTA_ILP_ENGINE_GLPK && !hta_cbc_available()) {
            PyErr_SetString(PyExc_ValueError,
                            "ilp_engine: this hta was built without CBC");
            return NULL;
        }
    }
    return solve_run(ins, &o, cnf_arg, lp_arg, progress);
}
