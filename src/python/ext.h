/* The Python extension hta._hta over the public C API (include/hta/):
 * what its files share.  Internal to src/python.
 *
 * Errors become exceptions (ext_raise): a file's error hta.ParseError (a
 * ValueError with path and line), a bad option ValueError, out of memory
 * MemoryError, an unreadable file OSError, a library failure hta.Error.
 * Long calls run without the GIL inside ext_begin/ext_end, which make
 * SIGINT set the call's own stop flag (ext_call) instead of Python's;
 * the call then returns what it has with interrupted = True and the
 * Python layer raises hta.Interrupted (a KeyboardInterrupt carrying it).
 *
 * Ownership: every object owns its C value (freed by its dealloc); arrays
 * handed to numpy are owned by numpy through a capsule base.
 */
#ifndef HTA_PYTHON_EXT_H
#define HTA_PYTHON_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <signal.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL hta_ext_ARRAY_API
#ifndef HTA_EXT_MODULE
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "hta/hta.h"
#include "hta/policy.h"

extern PyObject *ext_ParseError, *ext_Error;

/* Sets the exception for st and d; returns NULL. */
PyObject *ext_raise(hta_status st, const hta_diag *d);

/* The same for an argument the gate refused (gate.h): ValueError
 * "<arg>: <the gate's words>" (MemoryError and the rest as ext_raise). */
PyObject *ext_raise_arg(const char *arg, hta_status st, const hta_diag *d);

/* Name kind ('t', 's', 'r') of id from obj (a str), through the gate:
 * TypeError for a non-str, ValueError with the gate's words (NUL,
 * empty, too long, id out of range); 0 with the exception set. */
int ext_set_name(hta_instance *inst, char kind, int32_t id, PyObject *obj,
                 const char *arg);

/* One long call: its own stop flag (the library polls c.stop through
 * its options' stop pointer), set by SIGINT between ext_begin and
 * ext_end when the call runs in the main thread, where Python takes
 * Ctrl-C.  A call in another thread is never stopped by it, and a stop
 * ends only the call that took it: no flag is shared between calls.
 * The library's readers called in between poll it too (hta_reads_stop). */
typedef struct ext_call {
    volatile sig_atomic_t stop;
    volatile sig_atomic_t *prev; /* the main thread's call around it */
    volatile sig_atomic_t *reads; /* this thread's readers' flag before */
    PyThreadState *ts;
    int handler;
    struct sigaction old;
} ext_call;
void ext_begin(ext_call *c); /* releases the GIL */
int ext_end(ext_call *c);    /* takes it back; 1 when SIGINT came */

/* obj written to path as a file is replaced (hta_outfile: atomically,
 * a special file written through), without the GIL, Ctrl-C ending a
 * wait on a FIFO: the Python objects' write(path, comment=None). */
typedef hta_status (*ext_writer)(const void *obj, FILE *f,
                                 const char *comment,
                                 volatile sig_atomic_t *stop);
PyObject *ext_write(const void *obj, ext_writer fn, PyObject *args,
                    PyObject *kw);

/* fn(obj, f) written into memory without the GIL: the text (malloc'd,
 * *len bytes), or NULL with *st the writer's status (HTA_ERR_INTERNAL
 * when the memory ran out).  The pickles' text and the pictures' SVG. */
typedef hta_status (*ext_memwriter)(const void *obj, FILE *f);
char *ext_memwrite(ext_memwriter fn, const void *obj, size_t *len,
                   hta_status *st);

/* Raises hta.Interrupted(result) (result borrowed; None when the call
 * has nothing to show); returns NULL. */
PyObject *ext_interrupted(PyObject *result);

/* A numpy array taking ownership of data (malloc'd), no copy. */
PyObject *ext_own_array(void *data, npy_intp n, int type);

/* A new int64 or double array of n values copied from data. */
PyObject *ext_copy_i64(const int64_t *data, npy_intp n);
PyObject *ext_copy_f64(const double *data, npy_intp n);

/* obj as a contiguous 1-D int64 array (safe casting: TypeError for
 * floats), or NULL with the exception set.  A value beyond int64 (a
 * uint64, an int of a list) is refused as the caller refuses one out of
 * its range: "<what>: expected <range>, found <value> <at> <index>". */
PyArrayObject *ext_int_array(PyObject *obj, const char *what,
                             const char *range, const char *at);

/* A cost function from a number (a table of one value, as the file's
 * "w_rem 3"; any int, float or numpy scalar), a sequence of numbers (a
 * table) or ("affine", a, b).  The table is copied into v (owned by the caller,
 * freed with free); 0 with the exception set. */
int ext_wrem(PyObject *obj, const char *what, hta_wrem *w, double **v);

/* The commands' default w_rem: the one-value table 3 (--w-rem 3). */
hta_wrem ext_wrem_default(void);

/* w_loc, w_rem and the levels' costs (w_rack, and w_pod when nlev is
 * 2) through the gate for m tasks, each refused under its argument's
 * name, then the levels' order; 0 with the exception set.  m may be 0
 * when the tasks are not known yet (their count's rule is then the
 * library's, later). */
int ext_gate_costs(double w_loc, const hta_wrem *wrem, const hta_wrem *wlev,
                   int nlev, int64_t m);

/* An O& converter for a seed (*out a uint64_t): an integer in [0,
 * 2^63 - 1], the range of the commands' --seed; TypeError for a
 * non-integer, ValueError out of range. */
int ext_seed(PyObject *obj, void *out);

/* A warm-up count from obj: None (*out -1: the default, a tenth) or an
 * integer >= 0; 0 with the exception set. */
int ext_warmup(PyObject *obj, long long *out);

/* A sequence of 1..max numbers (any int, float or numpy scalar) into
 * out[0..*n); 0 with the exception set (TypeError, ValueError naming
 * what). */
int ext_reals(PyObject *obj, const char *what, double *out, int max, int *n);

/* An integer argument (int, numpy integer) in [lo, hi], or None (*out
 * untouched); 0 with the exception set. */
int ext_int_in(PyObject *obj, const char *what, long long lo, long long hi,
               long long *out);

/* A number argument, or None (*out untouched); 0 with the exception
 * set. */
int ext_real_or_none(PyObject *obj, const char *what, double *out);

/* An O& converter: a path (as PyUnicode_FSConverter, *out a bytes
 * object) or None (*out NULL). */
int ext_path_or_none(PyObject *obj, void *out);

/* Dict helpers: set key to a new reference (stolen); 0 on failure. */
int ext_set(PyObject *dict, const char *key, PyObject *value);
PyObject *ext_real(double x); /* float, or None for NaN */

/* A policy written in Python (policy.c): obj with route(task, view) and
 * serve(server, view), and optionally name, start(view),
 * queues_per_server (-1: one a level), shared_queues, own_work, lengths,
 * level_queues, workloads, jobs;
 * NULL with the exception set (the gate's words: hta_policy_check). */
typedef struct ext_pypol ext_pypol;
ext_pypol *ext_pypol_new(PyObject *obj);
/* p for one hta.sim call, after the call's before[0..n): ValueError
 * when one of them is the same object or has its name ("given twice");
 * RuntimeError when the object is in another call's runs (the runs of
 * one object go one at a time: a second call is refused, not queued, so
 * that no run waits on another call's, nor a policy on itself).  The
 * claim ends with ext_pypol_free.  1, or 0 with the exception set. */
int ext_pypol_claim(ext_pypol *p, ext_pypol *const *before, int n);
/* _hta._forget_policies(): no object is in a run (a forked child's
 * start: its parent's calls are not its own). */
PyObject *ext_pypol_forget(PyObject *self, PyObject *unused);
const hta_policy *ext_pypol_table(const ext_pypol *p);
/* The first exception the policy raised, set again with a note naming
 * the call and the run's load; 1 when there was one. */
int ext_pypol_raise(ext_pypol *p, double load);
void ext_pypol_free(ext_pypol *p);
extern PyTypeObject ext_ViewType;

/* Types and functions of the other files. */
typedef struct ext_instance {
    PyObject_HEAD hta_instance *inst;
} ext_instance;
extern PyTypeObject ext_InstanceType;
PyObject *ext_wrap_instance(hta_instance *inst); /* takes ownership */

typedef struct ext_cluster {
    PyObject_HEAD hta_cluster *c;
    /* (instance, rate, rates, topology) of Cluster.from_instance, which
     * pickles a cluster with no file form (explicit groups); else NULL */
    PyObject *recipe;
} ext_cluster;
extern PyTypeObject ext_ClusterType;
/* Takes ownership of c; recipe (borrowed) may be NULL. */
PyObject *ext_wrap_cluster(hta_cluster *c, PyObject *recipe);

typedef struct ext_jobs {
    PyObject_HEAD hta_jobs *j;
} ext_jobs;
extern PyTypeObject ext_JobsType;
PyObject *ext_wrap_jobs(hta_jobs *j); /* takes ownership */

/* A long call's progress= (progress.c): the library's reports to a
 * Python callable, a dict at most four times a second under the GIL;
 * its exception stops the call (*stop, set once the call's flag is
 * known) and ext_progress_end raises it (0 then, 1 otherwise). */
typedef struct ext_progress {
    PyObject *fn; /* borrowed; NULL: none */
    pthread_mutex_t mu;
    double next;  /* the callable is called again from then on */
    int busy;     /* a thread is in the callable */
    volatile sig_atomic_t *stop;
    PyObject *et, *ev, *etb; /* its exception */
} ext_progress;
void ext_progress_init(ext_progress *p, PyObject *fn);
void ext_progress_cb(void *ctx, const hta_progress *r);
int ext_progress_end(ext_progress *p);

/* Pickling (pickle.c): __reduce__ of the three objects, the module's
 * _restore(kind, tag, text, checksum), and __copy__ / __deepcopy__ of
 * immutable objects (the object itself). */
PyObject *ext_reduce_instance(PyObject *self, PyObject *unused);
PyObject *ext_reduce_cluster(PyObject *self, PyObject *unused);
PyObject *ext_reduce_jobs(PyObject *self, PyObject *unused);
PyObject *ext_restore(PyObject *mod, PyObject *args);
PyObject *ext_copy_self(PyObject *self, PyObject *unused);
#define EXT_PICKLE_METHODS(reduce)                                        \
    {"__reduce__", reduce, METH_NOARGS,                                   \
     "pickled as its file's text, read back through the reader"},         \
        {"__copy__", ext_copy_self, METH_NOARGS, "immutable: itself"},    \
        {"__deepcopy__", ext_copy_self, METH_O, "immutable: itself"}

/* The assignment obj (any integer array) as int32 task -> server ids
 * checked against inst (malloc'd); NULL with the exception set. */
int32_t *ext_assignment(const hta_instance *inst, PyObject *obj);

/* The pictures (chart.c, over hta/chart.h): _hta.chart_svg (a sweep's
 * line chart from its series) and _hta.loads_svg (an assignment's
 * loads), each the SVG text the command writes. */
PyObject *ext_chart_svg(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_loads_svg(PyObject *self, PyObject *args, PyObject *kw);

PyObject *ext_solve(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_evaluate(PyObject *self, PyObject *args, PyObject *kw);
/* The rows of a solve as hta solve --json's "results" list. */
PyObject *ext_solve_rows(const hta_solve_result *r);
PyObject *ext_gen_hdfs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_capacity(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_sim(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_flowtime(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_gen_jobs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_gen_cluster(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_gen_sat(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_reduce_place(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_ft_machines(PyObject *self, PyObject *args);
PyObject *ext_sat_witness(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_decode(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_gen_rr(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_import_fsck(PyObject *self, PyObject *args, PyObject *kw);
PyObject *ext_import_swim(PyObject *self, PyObject *args, PyObject *kw);

#endif
