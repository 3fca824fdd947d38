/* Job traces: the hta-jobs format, random workloads, SWIM traces. */
#include "hta/jobs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/buf.h"
#include "hta/lex.h"
#include "hta/num.h"
#include "hta/rng.h"

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

/* R units over k tasks, as evenly as possible. */
static void split_even(int64_t R, int64_t k, int64_t *red)
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

static hta_status set_line(hta_jobs *j, long line, hta_diag *d)
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
    return set_line(j, lx->line, d);
}

hta_status hta_jobs_parse(const char *path, hta_jobs **out, hta_diag *d)
{
    *out = NULL;
    hta_lex lx;
    hta_status st = hta_lex_open(&lx, path, d);
    if (st != HTA_OK)
        return st;
    hta_jobs *j = hta_jobs_new();
    int64_t *red = NULL;
    size_t cap = 0;
    int header = 0;
    if (!j) {
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        goto done;
    }
    for (;;) {
        if ((st = hta_lex_next(&lx, d)) != HTA_OK)
            goto done;
        if (lx.ntok == 0)
            break;
        if (!header) {
            int64_t v;
            if (strcmp(lx.tok[0], "hta-jobs") != 0) {
                st = hta_lex_expected(&lx, "'hta-jobs 1'", lx.tok[0], d);
                goto done;
            }
            if (lx.ntok < 2) {
                st = hta_lex_expected(&lx, "a format version", NULL, d);
                goto done;
            }
            if ((st = hta_lex_int(&lx, lx.tok[1], 1, 1, "format version",
                                  &v, d)) != HTA_OK)
                goto done;
            if (lx.ntok > 2) {
                st = hta_lex_expected(&lx, "the end of the line", lx.tok[2],
                                      d);
                goto done;
            }
            header = 1;
            continue;
        }
        if ((st = parse_job(&lx, j, &red, &cap, d)) != HTA_OK)
            goto done;
    }
    if (!header)
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected 'hta-jobs 1', found end of file");
    else if (j->n == 0)
        st = hta_diag_set(d, HTA_ERR_INPUT, path, lx.line,
                          "expected a 'job' line, found end of file");
done:
    free(red);
    hta_lex_free(&lx);
    if (st != HTA_OK) {
        hta_jobs_free(j);
        return st;
    }
    *out = j;
    return HTA_OK;
}

hta_status hta_jobs_write(const hta_jobs *j, FILE *f, const char *comment)
{
    if (comment)
        fprintf(f, "%s", comment);
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

/* ---- distributions ---- */

static int real_field(const char **s, double *x)
{
    char buf[64];
    size_t n = strcspn(*s, ":");
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, *s, n);
    buf[n] = 0;
    if (hta_num_real(buf, x) != HTA_NUM_OK)
        return -1;
    *s += n;
    if (**s == ':')
        (*s)++;
    return 0;
}

int hta_dist_parse(const char *s, hta_dist *out, char *msg, size_t size)
{
    static const struct {
        const char *name;
        hta_dist_kind kind;
        int nargs;
    } kinds[] = {{"fixed:", HTA_DIST_FIXED, 1},
                 {"uniform:", HTA_DIST_UNIFORM, 2},
                 {"exp:", HTA_DIST_EXP, 1},
                 {"pareto:", HTA_DIST_PARETO, 2}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t len = strlen(kinds[i].name);
        if (strncmp(s, kinds[i].name, len) != 0)
            continue;
        const char *p = s + len;
        double v[2] = {0, 0};
        for (int a = 0; a < kinds[i].nargs; a++)
            if (real_field(&p, &v[a]) != 0)
                goto syntax;
        if (*p)
            goto syntax;
        memset(out, 0, sizeof *out);
        out->kind = kinds[i].kind;
        out->a = v[0];
        out->b = v[1];
        const double big = 1e9;
        switch (out->kind) {
        case HTA_DIST_FIXED:
            if (v[0] != floor(v[0]) || v[0] < 1 || v[0] > big)
                goto range;
            break;
        case HTA_DIST_UNIFORM:
            if (v[0] != floor(v[0]) || v[1] != floor(v[1]) || v[0] < 1 ||
                v[1] < v[0] || v[1] > big)
                goto range;
            break;
        case HTA_DIST_EXP:
            if (!(v[0] > 0) || v[0] > big)
                goto range;
            break;
        case HTA_DIST_PARETO:
            if (!(v[0] > 1) || v[0] > 100 || !(v[1] > 0) || v[1] > big)
                goto range;
            break;
        case HTA_DIST_TABLE:
            break;
        }
        return 0;
    }
    if (strncmp(s, "table:", 6) == 0 && s[6]) {
        memset(out, 0, sizeof *out);
        out->kind = HTA_DIST_TABLE;
        out->path = s + 6;
        return 0;
    }
syntax:
    snprintf(msg, size, "fixed:V, uniform:LO:HI, exp:MEAN, "
                        "pareto:SHAPE:MIN or table:FILE");
    return -1;
range:
    snprintf(msg, size, "integers 1 <= V, LO <= HI <= 1e9, 0 < MEAN <= "
                        "1e9, 1 < SHAPE <= 100, 0 < MIN <= 1e9");
    return -1;
}

#define HTA_DIST_MAX_ROWS 10000000

hta_status hta_dist_load(hta_dist *dist, hta_diag *d)
{
    if (dist->kind != HTA_DIST_TABLE || dist->val)
        return HTA_OK;
    hta_lex lx;
    hta_status st = hta_lex_open(&lx, dist->path, d);
    if (st != HTA_OK)
        return st;
    int64_t *val = NULL;
    double *cum = NULL, total = 0, sum = 0;
    size_t cap_val = 0, cap_cum = 0;
    int64_t n = 0;
    while ((st = hta_lex_next(&lx, d)) == HTA_OK && lx.ntok > 0) {
        char q[64];
        int64_t v;
        double w = 1;
        if (lx.ntok > 2) {
            st = hta_diag_set(d, HTA_ERR_INPUT, dist->path, lx.line,
                              "expected 'VALUE [WEIGHT]', found '%s'",
                              hta_lex_quote(lx.tok[2], q));
            break;
        }
        if ((st = hta_lex_int(&lx, lx.tok[0], 1, 1000000000,
                              "a table value", &v, d)) != HTA_OK)
            break;
        if (lx.ntok == 2 &&
            (st = hta_lex_real(&lx, lx.tok[1], 1, "a positive weight", &w,
                               d)) != HTA_OK)
            break;
        if (n == HTA_DIST_MAX_ROWS) {
            st = hta_diag_set(d, HTA_ERR_INPUT, dist->path, lx.line,
                              "expected at most %d rows, found more",
                              HTA_DIST_MAX_ROWS);
            break;
        }
        if (!HTA_RESERVE(val, cap_val, (size_t)n + 1) ||
            !HTA_RESERVE(cum, cap_cum, (size_t)n + 1)) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
            break;
        }
        total += w;
        sum += w * (double)v;
        if (!isfinite(total)) {
            st = hta_diag_set(d, HTA_ERR_INPUT, dist->path, lx.line,
                              "expected weights of a finite total, found "
                              "'%s'", hta_lex_quote(lx.tok[1], q));
            break;
        }
        val[n] = v;
        cum[n++] = total;
    }
    if (st == HTA_OK && n == 0)
        st = hta_diag_set(d, HTA_ERR_INPUT, dist->path, lx.line,
                          "expected at least one row 'VALUE [WEIGHT]', "
                          "found end of file");
    hta_lex_free(&lx);
    if (st != HTA_OK) {
        free(val);
        free(cum);
        return st;
    }
    dist->n = n;
    dist->val = val;
    dist->cum = cum;
    dist->a = sum / total;
    dist->b = total;
    return HTA_OK;
}

void hta_dist_free(hta_dist *dist)
{
    free(dist->val);
    free(dist->cum);
    dist->val = NULL;
    dist->cum = NULL;
    dist->n = 0;
}

double hta_dist_mean(const hta_dist *dist)
{
    switch (dist->kind) {
    case HTA_DIST_TABLE:
        return dist->a;
    case HTA_DIST_FIXED:
        return dist->a;
    case HTA_DIST_UNIFORM:
        return (dist->a + dist->b) / 2;
    case HTA_DIST_EXP:
        /* ceil(X), X exponential of mean a: geometric on 1, 2, ... with
         * P(ceil X > k) = e^(-k/a), mean 1 / (1 - e^(-1/a)) */
        return 1.0 / -expm1(-1.0 / dist->a);
    case HTA_DIST_PARETO: {
        /* E[ceil X] = sum_{k>=0} P(X > k), P(X > k) = min(1, (b/k)^a);
         * summed to K, the tail by the integral (error below one term) */
        double alpha = dist->a, xm = dist->b, s = 0;
        int64_t k0 = (int64_t)ceil(xm), K = k0 + 1000000;
        s = (double)k0; /* k = 0 .. k0-1 have P = 1 */
        for (int64_t k = k0; k < K; k++)
            s += pow(xm / (double)k, alpha);
        s += pow(xm, alpha) * pow((double)K, 1 - alpha) / (alpha - 1) -
             0.5 * pow(xm / (double)K, alpha);
        return s;
    }
    }
    return 0;
}

int64_t hta_dist_draw(const hta_dist *dist, hta_rng *r)
{
    double u = 1.0 - hta_rng_unit(r); /* (0, 1] */
    double x;
    switch (dist->kind) {
    case HTA_DIST_FIXED:
        return (int64_t)dist->a;
    case HTA_DIST_UNIFORM:
        return (int64_t)dist->a +
               (int64_t)hta_rng_below(r, (uint64_t)(dist->b - dist->a) + 1);
    case HTA_DIST_EXP:
        x = -dist->a * log(u);
        break;
    case HTA_DIST_TABLE: {
        /* the first row whose cumulative weight exceeds U * total */
        double t = (1.0 - u) * dist->b;
        int64_t lo = 0, hi = dist->n - 1;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (dist->cum[mid] > t)
                hi = mid;
            else
                lo = mid + 1;
        }
        return dist->val[lo];
    }
    default:
        x = dist->b * pow(u, -1.0 / dist->a);
        break;
    }
    x = ceil(x);
    if (x < 1)
        x = 1;
    if (x > 1e9) /* the Pareto tail, cut where every workload is cut */
        x = 1e9;
    return (int64_t)x;
}

hta_status hta_jobs_gen_stream(const hta_jobs_gen *g, hta_jobs_emit emit,
                               void *ctx, hta_diag *d)
{
    double mean = hta_dist_mean(&g->map) +
                  (1 - g->map_only) * hta_dist_mean(&g->reduce);
    double rate = g->load * g->machines / mean; /* jobs per slot */
    if (g->jobs > HTA_JOBS_MAX_JOBS)
        return hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                            "expected at most %lld jobs, found %lld",
                            (long long)HTA_JOBS_MAX_JOBS,
                            (long long)g->jobs);
    int64_t *red = malloc(((size_t)g->max_tasks + 1) * sizeof *red);
    if (!red)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    hta_status st = HTA_OK;
    hta_rng r;
    hta_rng_seed(&r, g->seed);
    double time = 0;
    int64_t work = 0;
    for (int64_t i = 0; i < g->jobs && st == HTA_OK; i++) {
        time += -log(1.0 - hta_rng_unit(&r)) / rate;
        double slot = floor(time) + 1;
        if (slot > (double)HTA_JOBS_MAX_ARRIVAL) {
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "expected arrivals within %lld slots",
                              (long long)HTA_JOBS_MAX_ARRIVAL);
            break;
        }
        int64_t m = hta_dist_draw(&g->map, &r), k = 0, w = m;
        int only = g->map_only > 0 && hta_rng_unit(&r) < g->map_only;
        if (!only) {
            int64_t R = hta_dist_draw(&g->reduce, &r);
            k = 1 + (int64_t)hta_rng_below(&r, (uint64_t)g->max_tasks);
            if (k > R)
                k = R;
            split_even(R, k, red);
            w += R;
        }
        if (w > HTA_JOBS_MAX_WORK - work) {
            st = hta_diag_set(d, HTA_ERR_INPUT, NULL, 0,
                              "expected at most %lld units of work in all, "
                              "found %lld with this job",
                              (long long)HTA_JOBS_MAX_WORK,
                              (long long)(work + w));
            break;
        }
        work += w;
        st = emit(ctx, (int64_t)slot, m, red, k, d);
    }
    free(red);
    return st;
}

static hta_status emit_add(void *ctx, int64_t arrival, int64_t map,
                           const int64_t *red, int64_t k, hta_diag *d)
{
    return hta_jobs_add(ctx, arrival, map, red, k, d);
}

hta_status hta_jobs_generate(const hta_jobs_gen *g, hta_jobs **out,
                             hta_diag *d)
{
    *out = NULL;
    hta_jobs *j = hta_jobs_new();
    if (!j)
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    hta_status st = hta_jobs_gen_stream(g, emit_add, j, d);
    if (st != HTA_OK) {
        hta_jobs_free(j);
        return st;
    }
    *out = j;
    return HTA_OK;
}

static hta_status emit_line(void *ctx, int64_t arrival, int64_t map,
                            const int64_t *red, int64_t k, hta_diag *d)
{
    FILE *f = ctx;
    fprintf(f, "job %lld %lld", (long long)arrival, (long long)map);
    for (int64_t t = 0; t < k; t++)
        fprintf(f, " %lld", (long long)red[t]);
    if (putc('\n', f) == EOF)
        return hta_diag_set(d, HTA_ERR_IO, NULL, 0, "write error");
    return HTA_OK;
}

hta_status hta_jobs_gen_write(const hta_jobs_gen *g, FILE *f,
                              const char *comment, hta_diag *d)
{
    if (comment)
        fprintf(f, "%s", comment);
    fprintf(f, "hta-jobs 1\n");
    hta_status st = hta_jobs_gen_stream(g, emit_line, f, d);
    if (st == HTA_OK && ferror(f))
        st = hta_diag_set(d, HTA_ERR_IO, NULL, 0, "write error");
    return st;
}

static hta_status emit_none(void *ctx, int64_t arrival, int64_t map,
                            const int64_t *red, int64_t k, hta_diag *d)
{
    (void)ctx, (void)arrival, (void)map, (void)red, (void)k, (void)d;
    return HTA_OK;
}

hta_status hta_jobs_gen_check(const hta_jobs_gen *g, hta_diag *d)
{
    return hta_jobs_gen_stream(g, emit_none, NULL, d);
}

/* ---- SWIM ---- */

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
            split_even((int64_t)R, k, red);
        }
        if ((st = hta_jobs_add(j, (int64_t)a, (int64_t)m, red, k, d)) !=
            HTA_OK) {
            d->path = path;
            d->line = v[i].line;
            goto done;
        }
        if ((st = set_line(j, v[i].line, d)) != HTA_OK)
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
