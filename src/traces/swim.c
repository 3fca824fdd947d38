/* The SWIM Facebook traces (jobs.h): the reader of their rows and the
 * job trace they make. */
#include "hta/jobs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/num.h"
#include "core/buf.h"
#include "core/lex.h"

#include "build.h"

static hta_status swim_field(hta_lex *lx, char **p, int last, double *x,
                             const char *what, hta_diag *d)
{
    char *s = *p, *end = s + strcspn(s, "\t");
    int at_end = *end == 0;
    char save = *end;
    *end = 0;
    char q[64];
    hta_status st = HTA_OK;
    if (hta_num_real(s, x) != HTA_NUM_OK || *x < 0 || *x > 1e18)
        st = hta_lex_expected(lx, what, hta_lex_quote(s, q), d);
    else if (!last && at_end)
        st = hta_lex_expected(lx, "6 tab-separated columns", NULL, d);
    *end = save;
    *p = at_end ? end : end + 1;
    return st;
}

hta_status hta_swim_read(const char *path, hta_swim_row **rows, int64_t *n,
                         hta_diag *d)
{
    *rows = NULL;
    *n = 0;
    hta_lex lx;
    hta_status st = hta_lex_open(&lx, path, d);
    if (st != HTA_OK)
        return st;
    hta_swim_row *v = NULL;
    size_t cap = 0;
    int64_t k = 0;
    double prev_submit = 0;
    for (;;) {
        int more;
        if ((st = hta_lex_raw(&lx, &more, d)) != HTA_OK)
            goto done;
        if (!more)
            break;
        if (lx.len && lx.buf[lx.len - 1] == '\r')
            lx.buf[--lx.len] = 0;
        if (lx.len == 0)
            continue;
        char *p = lx.buf + strcspn(lx.buf, "\t");
        if (*p != '\t') {
            st = hta_lex_expected(&lx, "6 tab-separated columns", NULL, d);
            goto done;
        }
        p++;
        double f[5];
        static const char *const what[] = {
            "a submit time in seconds", "an inter-job gap in seconds",
            "input bytes", "shuffle bytes", "output bytes"};
        for (int c = 0; c < 5; c++)
            if ((st = swim_field(&lx, &p, c == 4, &f[c], what[c], d)) !=
                HTA_OK)
                goto done;
        if (*p) {
            char q[64];
            st = hta_lex_expected(&lx, "6 tab-separated columns",
                                  hta_lex_quote(p, q), d);
            goto done;
        }
        if (f[0] < prev_submit) {
            char q[64], want[80];
            snprintf(q, sizeof q, "%.15g", f[0]);
            snprintf(want, sizeof want, "a submit time >= %.15g (the "
                     "previous job's)", prev_submit);
            st = hta_lex_expected(&lx, want, q, d);
            goto done;
        }
        prev_submit = f[0];
        if (k >= HTA_JOBS_MAX_JOBS) {
            st = hta_lex_expected(&lx, "at most 10^8 jobs", "a job", d);
            goto done;
        }
        if (!HTA_RESERVE(v, cap, (size_t)k + 1)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            goto done;
        }
        v[k++] = (hta_swim_row){f[0], f[2], f[3], f[4], lx.line};
    }
    if (k == 0)
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected a job line, found end of file");
done:
    hta_lex_free(&lx);
    if (st != HTA_OK) {
        free(v);
        return st;
    }
    *rows = v;
    *n = k;
    return HTA_OK;
}

hta_status hta_jobs_from_swim(const char *path, const hta_swim_opts *o,
                              hta_jobs **out, hta_diag *d)
{
    *out = NULL;
    hta_swim_row *v = NULL;
    int64_t n = 0;
    hta_status st = hta_swim_read(path, &v, &n, d);
    if (st != HTA_OK)
        return st;
    hta_jobs *j = hta_jobs_new();
    int64_t *red = NULL;
    size_t cap = 0;
    if (!j) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    for (int64_t i = 0; i < n; i++) {
        double a = floor(v[i].submit / o->slot_seconds) + 1;
        double m = ceil(v[i].input / o->block_bytes);
        double R = ceil(v[i].shuffle / o->block_bytes);
        if (m < 1)
            m = 1;
        if (a > (double)HTA_JOBS_MAX_ARRIVAL || m + R > 1e10) {
            st = hta_diag_set(d, HTA_ERR_INPUT, path, v[i].line,
                              "expected at most %lld slots and 10^10 "
                              "units, found a job beyond (a larger "
                              "--slot-seconds or block)",
                              (long long)HTA_JOBS_MAX_ARRIVAL);
            goto done;
        }
        int64_t k = 0;
        if (R > 0) {
            double kk = ceil(v[i].shuffle / o->reducer_bytes);
            if (kk < 1)
                kk = 1;
            if (kk > R)
                kk = R;
            if (kk > HTA_JOBS_MAX_TASKS)
                kk = HTA_JOBS_MAX_TASKS;
            k = (int64_t)kk;
            if (!HTA_RESERVE(red, cap, (size_t)k)) {
                st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0,
                                  "out of memory");
                goto done;
            }
            traces_split_even((int64_t)R, k, red);
        }
        if ((st = hta_jobs_add(j, (int64_t)a, (int64_t)m, red, k, d)) !=
            HTA_OK) {
            d->path = path;
            d->line = v[i].line;
            goto done;
        }
        if ((st = traces_set_line(j, v[i].line, d)) != HTA_OK)
            goto done;
    }
done:
    free(red);
    free(v);
    if (st != HTA_OK) {
        hta_jobs_free(j);
        return st;
    }
    *out = j;
    return HTA_OK;
}
