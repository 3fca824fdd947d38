/* The instance writer, format v1: parse(write(x)) == x (instance.h). */
#include "hta/instance.h"

#include <stdio.h>
#include <string.h>

#include "hta/levels.h"

/* A cost function's tokens after its keyword, and the line's end. */
static void write_cost(FILE *f, const hta_wrem *w)
{
    char buf[32];
    if (w->kind == HTA_WREM_AFFINE) {
        hta_format_real(buf, w->a);
        fprintf(f, " affine %s", buf);
        hta_format_real(buf, w->b);
        fprintf(f, " %s", buf);
    } else {
        for (int64_t i = 0; i <= w->k; i++) {
            hta_format_real(buf, w->v[i]);
            fprintf(f, " %s", buf);
        }
    }
    fputc('\n', f);
}

hta_status hta_instance_write(const hta_instance *inst, FILE *f,
                              const char *comment)
{
    char buf[32];
    if (comment) {
        const char *p = comment;
        while (*p) {
            const char *eol = strchr(p, '\n');
            int len = eol ? (int)(eol - p) : (int)strlen(p);
            fprintf(f, "# %.*s\n", len, p);
            p += len + (eol != NULL);
        }
    }
    fprintf(f, "hta-instance 1\ntasks %ld\nservers %ld\n", (long)inst->m,
            (long)inst->n_declared);
    hta_format_real(buf, inst->w_loc);
    fprintf(f, "w_loc %s\nw_rem", buf);
    write_cost(f, &inst->wrem);
    for (int l = 2; l < hta_levels(inst); l++) {
        const hta_wrem *w = &inst->wlev[l];
        fprintf(f, "w_level %d", l);
        write_cost(f, w);
    }
    for (int32_t t = 0; t < inst->m; t++) {
        fprintf(f, "task %ld", (long)t);
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++)
            fprintf(f, " %ld", (long)inst->task_srv[i]);
        fputc('\n', f);
    }
    for (int32_t t = 0; inst->task_name && t < inst->m; t++)
        if (inst->task_name[t])
            fprintf(f, "name task %ld %s\n", (long)t, inst->task_name[t]);
    for (int32_t s = 0; inst->server_name && s < inst->n; s++)
        if (inst->server_name[s])
            fprintf(f, "name server %ld %s\n", (long)s, inst->server_name[s]);
    for (int32_t s = 0; inst->server_rack && s < inst->n; s++)
        if (inst->server_rack[s])
            fprintf(f, "rack %ld %s\n", (long)s, inst->server_rack[s]);
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}
