/* Job traces (jobs.h): the hta_jobs model, the hta-jobs 1 reader and
 * writer. */
#include "hta/jobs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/num.h"
#include "hta/outfile.h"
#include "hta/rng.h"
#include "core/buf.h"
#include "core/lex.h"

#include "build.h"

typedef struct builder {
    hta_jobs j; /* first member: an hta_jobs * is its builder */
    size_t cap_arr, cap_map, cap_roff, cap_red, cap_line;
} builder;

hta_jobs *hta_jobs_new(void)
{
    builder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->j.roff = malloc(sizeof *b->j.roff);
    if (!b->j.roff) {
        free(b);
        return NULL;
    }
    b->j.roff[0] = 0;
    b->cap_roff = 1;
    return &b->j;
}

void hta_jobs_free(hta_jobs *j)
{
    if (!j)
        return;
    free(j->arrival);
    free(j->map);
    free(j->roff);
    free(j->red);
    free(j->line);
    free((builder *)j); /* j is the first member of its builder */
}

void traces_split_even(int64_t R, int64_t k, int64_t *red)
{
    for (int64_t t = 0; t < k; t++)
        red[t] = R / k + (t < R % k);
}

int64_t hta_jobs_reduce_work(const hta_jobs *j, int64_t i)
{
    int64_t s = 0;
    for (int64_t k = j->roff[i]; k < j->roff[i + 1]; k++)
        s += j->red[k];
    return s;
}

hta_status hta_jobs_add(hta_jobs *j, int64_t arrival, int64_t map,
                        const int64_t *red, int64_t k, hta_diag *d)
{
    builder *b = (builder *)j;
    if (j->n >= HTA_JOBS_MAX_JOBS)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected at most %lld jobs, found more",
                            (long long)HTA_JOBS_MAX_JOBS);
    int64_t w = map;
    for (int64_t t = 0; t < k; t++)
        w += red[t];
    if (w > HTA_JOBS_MAX_WORK - j->work)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected at most %lld units of work in all, "
                            "found %lld with this job",
                            (long long)HTA_JOBS_MAX_WORK,
                            (long long)(j->work + w));
    size_t n = (size_t)j->n, nr = (size_t)j->roff[j->n];
    if (!HTA_RESERVE(j->arrival, b->cap_arr, n + 1) ||
        !HTA_RESERVE(j->map, b->cap_map, n + 1) ||
        !HTA_RESERVE(j->roff, b->cap_roff, n + 2) ||
        !HTA_RESERVE(j->red, b->cap_red, nr + (size_t)k + 1))
        goto oom;
    j->arrival[n] = arrival;
    j->map[n] = map;
    if (k)
        memcpy(j->red + nr, red, (size_t)k * sizeof *red);
    j->roff[n + 1] = (int64_t)nr + k;
    j->work += w;
    j->n++;
    return HTA_OK;
oom:
    return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
}

hta_status traces_set_line(hta_jobs *j, long line, hta_diag *d)
{
    builder *b = (builder *)j;
    if (!HTA_RESERVE(j->line, b->cap_line, (size_t)j->n))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    j->line[j->n - 1] = line;
    return HTA_OK;
}

/* One "job a M R..." line. */
static hta_status parse_job(hta_lex *lx, hta_jobs *j, int64_t **red,
                            size_t *cap, hta_diag *d)
{
    int64_t a, m;
    if (strcmp(lx->tok[0], "job") != 0)
        return hta_lex_expected(lx, "a 'job' line", lx->tok[0], d);
    if (lx->ntok < 3)
        return hta_lex_expected(lx, lx->ntok < 2 ? "an arrival slot" :
                                                   "a map workload",
                                NULL, d);
    hta_status st = hta_lex_int(lx, lx->tok[1], 1, HTA_JOBS_MAX_ARRIVAL,
                                "an arrival slot", &a, d);
    if (st != HTA_OK)
        return st;
    if (j->n && a < j->arrival[j->n - 1]) {
        char q[64], what[96];
        snprintf(what, sizeof what, "an arrival slot >= %lld (the previous "
                 "job's)", (long long)j->arrival[j->n - 1]);
        return hta_lex_expected(lx, what, hta_lex_quote(lx->tok[1], q), d);
    }
    if ((st = hta_lex_int(lx, lx->tok[2], 1, HTA_JOBS_MAX_WORK,
                          "a map workload", &m, d)) != HTA_OK)
        return st;
    int64_t k = (int64_t)lx->ntok - 3;
    if (k > HTA_JOBS_MAX_TASKS) {
        char q[64];
        snprintf(q, sizeof q, "%lld", (long long)k);
        return hta_lex_expected(lx, "at most 1000000 reduce tasks", q, d);
    }
    if (!HTA_RESERVE(*red, *cap, (size_t)k + 1))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (int64_t t = 0; t < k; t++)
        if ((st = hta_lex_int(lx, lx->tok[3 + t], 1, HTA_JOBS_MAX_WORK,
                              "a reduce task workload", &(*red)[t], d)) !=
            HTA_OK)
            return st;
    if ((st = hta_jobs_add(j, a, m, *red, k, d)) != HTA_OK) {
        d->path = lx->path;
        d->line = lx->line;
        return st;
    }
    return traces_set_line(j, lx->line, d);
}

/* The trace the opened lx reads (freed here), named path. */
static hta_status parse_lexer(hta_lex *lx, const char *path, hta_jobs **out,
                              hta_diag *d)
{
    hta_status st = HTA_OK;
    hta_jobs *j = hta_jobs_new();
    int64_t *red = NULL;
    size_t cap = 0;
    int header = 0;
    if (!j) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    for (;;) {
        if ((st = hta_lex_next(lx, d)) != HTA_OK)
            goto done;
        if (lx->ntok == 0)
            break;
        if (!header) {
            int64_t v;
            if (strcmp(lx->tok[0], "hta-jobs") != 0) {
                st = hta_lex_expected(lx, "'hta-jobs 1'", lx->tok[0], d);
                goto done;
            }
            if (lx->ntok < 2) {
                st = hta_lex_expected(lx, "a format version", NULL, d);
                goto done;
            }
            if ((st = hta_lex_int(lx, lx->tok[1], 1, 1, "format version",
                                  &v, d)) != HTA_OK)
                goto done;
            if (lx->ntok > 2) {
                st = hta_lex_expected(lx, "the end of the line", lx->tok[2],
                                      d);
                goto done;
            }
            header = 1;
            continue;
        }
        if ((st = parse_job(lx, j, &red, &cap, d)) != HTA_OK)
            goto done;
    }
    if (!header)
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx->line,
                          "expected 'hta-jobs 1', found end of file");
    else if (j->n == 0)
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx->line,
                          "expected a 'job' line, found end of file");
done:
    free(red);
    hta_lex_free(lx);
    if (st != HTA_OK) {
        hta_jobs_free(j);
        return st;
    }
    *out = j;
    return HTA_OK;
}

hta_status hta_jobs_parse(const char *path, hta_jobs **out, hta_diag *d)
{
    *out = NULL;
    hta_lex lx;
    hta_status st = hta_lex_open(&lx, path, d);
    return st == HTA_OK ? parse_lexer(&lx, path, out, d) : st;
}

hta_status hta_jobs_parse_memory(const char *name, const char *text,
                                 size_t len, hta_jobs **out, hta_diag *d)
{
    *out = NULL;
    hta_lex lx;
    hta_status st = hta_lex_from_memory(&lx, name, text, len, d);
    return st == HTA_OK ? parse_lexer(&lx, name, out, d) : st;
}

hta_status hta_jobs_write(const hta_jobs *j, FILE *f, const char *comment)
{
    hta_write_comment(f, '#', comment);
    fprintf(f, "hta-jobs 1\n");
    for (int64_t i = 0; i < j->n; i++) {
        fprintf(f, "job %lld %lld", (long long)j->arrival[i],
                (long long)j->map[i]);
        for (int64_t k = j->roff[i]; k < j->roff[i + 1]; k++)
            fprintf(f, " %lld", (long long)j->red[k]);
        fputc('\n', f);
    }
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}
