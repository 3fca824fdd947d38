/* Pickling Instance, Cluster and Jobs (ext.h): an object travels as its
 * file's text (the writer's, parse(write(x)) = x: names, racks, level
 * costs, tables, affine costs, types, rates, replicas) with a 64-bit
 * checksum of that text, and comes back through the reader's gate
 * (hta_*_parse_memory), so that a truncated, altered or foreign byte
 * string raises as a bad file would, never builds what a file could not.
 * A cluster made from an N-level instance has no file form (its racks
 * are the instance's): it travels as its recipe, the instance and the
 * arguments of Cluster.from_instance, which rebuild it exactly.
 *
 * The three objects are immutable: copy.copy and copy.deepcopy give the
 * object itself, as for a tuple.
 *
 * Cost: writing and reading the text, both without the GIL (10^6 tasks:
 * see scripts/bench_python.sh). */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

/* The tag of the pickled payload: a change of the payload's form bumps
 * it, and an unpickler refuses a tag it does not know. */
#define PAYLOAD_TAG "hta-pickle 1"

/* 64-bit checksum of p[0..n): FNV-1a over 8-byte little-endian words
 * (the same value on every machine), then the bytes left. */
static uint64_t checksum(const char *p, size_t n)
{
    const unsigned char *u = (const unsigned char *)p;
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--)
            w = w << 8 | u[i + (size_t)b];
        h = (h ^ w) * 0x100000001b3u;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ u[i]) * 0x100000001b3u;
    return h ^ (h >> 32);
}

static hta_status write_instance(const void *obj, FILE *f)
{
    return hta_instance_write(obj, f, NULL);
}
static hta_status write_cluster(const void *obj, FILE *f)
{
    return hta_cluster_write(obj, f, NULL);
}
static hta_status write_jobs(const void *obj, FILE *f)
{
    return hta_jobs_write(obj, f, NULL);
}

/* obj's text as bytes, written without the GIL; NULL with MemoryError.
 * *usage is set when the writer refuses the object (no file form). */
static PyObject *to_text(const void *obj, ext_memwriter fn, int *usage)
{
    size_t len;
    hta_status st;
    char *buf = ext_memwrite(fn, obj, &len, &st);
    *usage = st == HTA_ERR_USAGE;
    if (!buf)
        return *usage ? NULL : PyErr_NoMemory();
    PyObject *r = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
    free(buf);
    return r;
}

/* (hta._hta._restore, (kind, tag, text, checksum)) */
static PyObject *reduce_text(const char *kind, const void *obj,
                             ext_memwriter fn, int *usage)
{
    PyObject *text = to_text(obj, fn, usage);
    if (!text)
        return NULL;
    uint64_t sum = checksum(PyBytes_AS_STRING(text),
                            (size_t)PyBytes_GET_SIZE(text));
    PyObject *mod = PyImport_ImportModule("hta._hta");
    PyObject *fn_obj = mod ? PyObject_GetAttrString(mod, "_restore") : NULL;
    Py_XDECREF(mod);
    if (!fn_obj) {
        Py_DECREF(text);
        return NULL;
    }
    return Py_BuildValue("(N(ssNK))", fn_obj, kind, PAYLOAD_TAG, text,
                         (unsigned long long)sum);
}

PyObject *ext_reduce_instance(PyObject *self, PyObject *unused)
{
    (void)unused;
    int usage;
    return reduce_text("Instance", ((ext_instance *)self)->inst,
                       write_instance, &usage);
}

PyObject *ext_reduce_jobs(PyObject *self, PyObject *unused)
{
    (void)unused;
    int usage;
    return reduce_text("Jobs", ((ext_jobs *)self)->j, write_jobs, &usage);
}

PyObject *ext_reduce_cluster(PyObject *self, PyObject *unused)
{
    (void)unused;
    ext_cluster *c = (ext_cluster *)self;
    int usage;
    PyObject *r = reduce_text("Cluster", c->c, write_cluster, &usage);
    if (r || !usage)
        return r;
    if (!c->recipe) /* explicit groups come from an instance only */
        return PyErr_Format(PyExc_TypeError, "cannot pickle this "
                                             "hta.Cluster: it has no file "
                                             "form and no recipe");
    PyObject *fn = PyObject_GetAttrString((PyObject *)&ext_ClusterType,
                                          "from_instance");
    return fn ? Py_BuildValue("(NO)", fn, c->recipe) : NULL;
}

PyObject *ext_copy_self(PyObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(self);
}

/* _restore(kind, tag, text, checksum): the object back through its
 * reader; ValueError for a payload not hta's or not intact, the
 * reader's ParseError (path "<pickle>") for text it refuses. */
PyObject *ext_restore(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *kind, *tag;
    Py_buffer text;
    unsigned long long sum;
    if (!PyArg_ParseTuple(args, "ssy*K", &kind, &tag, &text, &sum))
        return NULL;
    PyObject *r = NULL;
    int k = strcmp(kind, "Instance") == 0 ? 0 :
            strcmp(kind, "Cluster") == 0  ? 1 :
            strcmp(kind, "Jobs") == 0     ? 2 :
                                            -1;
    if (k < 0 || strcmp(tag, PAYLOAD_TAG) != 0) {
        PyErr_Format(PyExc_ValueError,
                     "unpickling hta: expected an Instance, Cluster or Jobs "
                     "of '%s', found %.40R of '%.40s'",
                     PAYLOAD_TAG, PyTuple_GET_ITEM(args, 0), tag);
        goto done;
    }
    const char *p = text.buf;
    size_t n = (size_t)text.len;
    if (checksum(p, n) != (uint64_t)sum) {
        PyErr_Format(PyExc_ValueError,
                     "unpickling hta.%s: expected its text intact, found "
                     "%zd bytes that do not match their checksum",
                     kind, text.len);
        goto done;
    }
    hta_diag d;
    hta_diag_clear(&d);
    hta_status st = HTA_OK;
    void *obj = NULL;
    const char *name = "<pickle>";
    Py_BEGIN_ALLOW_THREADS
    if (k == 0)
        st = hta_instance_parse_memory(name, p, n, (hta_instance **)&obj,
                                       &d);
    else if (k == 1)
        st = hta_cluster_parse_memory(name, p, n, (hta_cluster **)&obj, &d);
    else
        st = hta_jobs_parse_memory(name, p, n, (hta_jobs **)&obj, &d);
    Py_END_ALLOW_THREADS
    if (st != HTA_OK)
        r = ext_raise(st, &d);
    else if (k == 0)
        r = ext_wrap_instance(obj);
    else if (k == 1)
        r = ext_wrap_cluster(obj, NULL);
    else
        r = ext_wrap_jobs(obj);
done:
    PyBuffer_Release(&text);
    return r;
}
