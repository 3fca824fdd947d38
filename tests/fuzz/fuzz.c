/* libFuzzer harnesses for every parser of hta; one binary per target,
 * chosen at compile time with -DTARGET=<name>.  Parsers that read files
 * get the input through a private temporary file.  Every input must be
 * either accepted or refused with a diagnostic; sanitizers catch the
 * rest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hta/assign.h"
#include "hta/cluster.h"
#include "hta/cnf.h"
#include "hta/fsck.h"
#include "hta/instance.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *input_file(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/hta-fuzz-%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    return path;
}

static void check(hta_status st, const hta_diag *d)
{
    /* a refusal must say why */
    if (st != HTA_OK && d->msg[0] == '\0')
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hta_diag d;
    hta_diag_clear(&d);
#if TARGET_instance
    hta_instance *inst = NULL;
    hta_status st = hta_instance_parse_memory("<fuzz>", (const char *)data,
                                              size, &inst, &d);
    check(st, &d);
    if (st == HTA_OK) {
        /* round trip: what we write we read back identically */
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        hta_instance_write(inst, f, NULL);
        fclose(f);
        hta_instance *again = NULL;
        if (hta_instance_parse_memory("<again>", buf, len, &again, &d) !=
                HTA_OK ||
            !hta_instance_equal(inst, again))
            abort();
        hta_instance_free(again);
        free(buf);
    }
    hta_instance_free(inst);
#elif TARGET_assignment
    static hta_instance *inst;
    if (!inst) {
        static const char text[] = "hta-instance 1\ntasks 4\nservers 3\n"
                                   "w_loc 1\nw_rem 3\ntask 0 0\ntask 1 1 2\n"
                                   "task 2 2\ntask 3 0 1\n";
        if (hta_instance_parse_memory("<i>", text, sizeof text - 1, &inst,
                                      &d))
            abort();
    }
    int32_t *a = NULL;
    hta_status st = hta_assign_parse(input_file(data, size), inst, &a, &d);
    check(st, &d);
    if (st == HTA_OK) {
        hta_eval ev;
        if (hta_eval_run(inst, a, &ev, &d) != HTA_OK)
            abort();
        hta_eval_free(&ev);
    }
    free(a);
#elif TARGET_cluster
    hta_cluster *c = NULL;
    check(hta_cluster_parse(input_file(data, size), &c, &d), &d);
    hta_cluster_free(c);
#elif TARGET_cnf
    hta_cnf *f = NULL, *g = NULL;
    hta_status st = hta_cnf_parse(input_file(data, size), &f, &d);
    check(st, &d);
    if (st == HTA_OK && f->nvars < 1000 && f->nclauses < 1000)
        check(hta_cnf_to3(f, &g, &d), &d);
    hta_cnf_free(g);
    hta_cnf_free(f);
#elif TARGET_model
    signed char *m = NULL;
    check(hta_model_parse(input_file(data, size), 50, &m, &d), &d);
    free(m);
#elif TARGET_fsck
    double v = 3;
    hta_wrem w = {HTA_WREM_TABLE, 0, &v, 0, 0};
    hta_instance *inst = NULL;
    hta_fsck_result res;
    check(hta_fsck_import(input_file(data, size), 1.0, &w, 0, &inst, &res,
                          &d),
          &d);
    free(res.missing_line);
    hta_instance_free(inst);
#else
#error "define TARGET_<name>"
#endif
    return 0;
}
