/* The instance writer, format v1: parse(write(x)) == x (instance.h). */
#include "hta/instance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/gate.h"
#include "hta/levels.h"
#include "hta/outfile.h"

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

/* " <v>" at p (v >= 0); the end. */
static char *put_id(char *p, int64_t v)
{
    char tmp[24];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    *p++ = ' ';
    while (k)
        *p++ = tmp[--k];
    return p;
}

/* The task lines, formatted by hand into a buffer written a block at a
 * time (an fprintf per id took 0.26 s for 10^6 tasks of 3 replicas, six
 * times the instance's read); 0 when *stop ended it. */
static int write_tasks(const hta_instance *inst, FILE *f,
                       volatile sig_atomic_t *stop)
{
    enum { CAP = 1 << 16, ROOM = 32 }; /* ROOM: one token and a newline */
    char buf[CAP], *p = buf;
    for (int32_t t = 0; t < inst->m; t++) {
        if ((t & 0xffff) == 0 && stop && *stop)
            return 0;
        memcpy(p, "task", 4);
        p = put_id(p + 4, t);
        for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1]; i++) {
            if (p + ROOM > buf + CAP) {
                fwrite(buf, 1, (size_t)(p - buf), f);
                p = buf;
            }
            p = put_id(p, inst->task_srv[i]);
        }
        *p++ = '\n';
        if (p + ROOM > buf + CAP) {
            fwrite(buf, 1, (size_t)(p - buf), f);
            p = buf;
        }
    }
    fwrite(buf, 1, (size_t)(p - buf), f);
    return 1;
}

hta_status hta_instance_write(const hta_instance *inst, FILE *f,
                              const char *comment)
{
    return hta_instance_write_stop(inst, f, comment, NULL);
}

hta_status hta_instance_write_stop(const hta_instance *inst, FILE *f,
                                   const char *comment,
                                   volatile sig_atomic_t *stop)
{
    char buf[32];
    hta_write_comment(f, '#', comment);
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
    if (!write_tasks(inst, f, stop))
        return HTA_ERR_INTERNAL;
    static const char *const line[] = {"name task", "name server", "rack"};
    char *const *names[] = {inst->task_name, inst->server_name,
                            inst->server_rack};
    int32_t count[] = {inst->m, inst->n, inst->n};
    char *esc = NULL;
    size_t cap = 0;
    for (int k = 0; k < 3; k++)
        for (int32_t i = 0; names[k] && i < count[k]; i++) {
            const char *name = names[k][i];
            if (!name)
                continue;
            size_t need = 3 * strlen(name) + 1;
            if (need > cap) {
                char *grown = realloc(esc, need);
                if (!grown) {
                    free(esc);
                    return HTA_ERR_INTERNAL;
                }
                esc = grown;
                cap = need;
            }
            fprintf(f, "%s %ld %s\n", line[k], (long)i,
                    hta_name_escape(name, esc));
        }
    free(esc);
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}
