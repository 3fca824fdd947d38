/* Work distributions (jobs.h): fixed, uniform, geometric, Pareto and
 * empirical tables, parsed from their one-word form and drawn. */
#include "hta/jobs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/num.h"
#include "hta/rng.h"
#include "core/buf.h"
#include "core/lex.h"

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
    if (!dist)
        return;
    free(dist->val);
    free(dist->cum);
    dist->val = NULL;
    dist->cum = NULL;
    dist->n = 0;
}

int64_t hta_dist_max(const hta_dist *dist)
{
    switch (dist->kind) {
    case HTA_DIST_FIXED:
        return (int64_t)dist->a;
    case HTA_DIST_UNIFORM:
        return (int64_t)dist->b;
    case HTA_DIST_TABLE: {
        int64_t m = 0;
        for (int64_t i = 0; i < dist->n; i++)
            if (dist->val[i] > m)
                m = dist->val[i];
        return m;
    }
    default:
        return -1;
    }
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
