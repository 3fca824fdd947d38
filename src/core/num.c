/* Numbers, comma lists and the clock: one reader for files and options. */
#include "hta/num.h"
#include "core/buf.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

hta_num_result hta_num_int(const char *s, int64_t lo, int64_t hi,
                           int64_t *out)
{
    /* By hand rather than strtoll: the readers convert every replica id
     * with it, and strtoll's locale and base handling was a third of the
     * time of reading an instance.  Same results: digits after an
     * optional '-', overflow a range error (after the syntax check of
     * the whole string), "-0" is 0. */
    int neg = s[0] == '-';
    const char *p = s + neg;
    if (*p < '0' || *p > '9')
        return HTA_NUM_SYNTAX;
    while (*p == '0') /* leading zeros, as strtoll */
        p++;
    uint64_t v = 0;
    const char *q = p;
    for (; *q; q++) {
        unsigned digit = (unsigned)(unsigned char)*q - '0';
        if (digit > 9)
            return HTA_NUM_SYNTAX;
        v = v * 10 + digit; /* wraps only past 19 digits, refused below */
    }
    /* 19 significant digits stay below 10^19 < 2^64; 20 or more exceed
     * every int64 */
    int over = q - p > 19;
    int64_t x;
    if (over || v > (uint64_t)INT64_MAX + (uint64_t)neg)
        return HTA_NUM_RANGE;
    if (!neg)
        x = (int64_t)v;
    else if (v == (uint64_t)INT64_MAX + 1)
        x = INT64_MIN;
    else
        x = -(int64_t)v;
    if (x < lo || x > hi)
        return HTA_NUM_RANGE;
    *out = x;
    return HTA_NUM_OK;
}

hta_num_result hta_num_real(const char *s, double *out)
{
    /* Decimal notation only: strtod alone would take "nan", "inf", hex
     * and leading blanks. */
    if (!*s)
        return HTA_NUM_SYNTAX;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' ||
              *p == 'E' || *p == '-' || *p == '+'))
            return HTA_NUM_SYNTAX;
    errno = 0;
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end != '\0')
        return HTA_NUM_SYNTAX;
    if (errno == ERANGE)
        return HTA_NUM_RANGE;
    *out = v + 0.0; /* turns -0 into +0 */
    return HTA_NUM_OK;
}

hta_num_result hta_num_real_list(const char *s, double *out, int max,
                                 int *n)
{
    char item[64];
    *n = 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof item || *n >= max)
            return HTA_NUM_SYNTAX;
        memcpy(item, s, len);
        item[len] = '\0';
        hta_num_result r = hta_num_real(item, &out[*n]);
        if (r != HTA_NUM_OK)
            return r;
        ++*n;
        if (s[len] == '\0')
            return HTA_NUM_OK;
        s += len + 1;
    }
}

double hta_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

int64_t hta_first_repeat(const int32_t *ids, int32_t *sorted, int64_t k)
{
    if (k < 2)
        return -1;
    if (k <= 8) { /* a task line's few replicas: pairs, no sort */
        int64_t best = -1;
        for (int64_t j = 1; j < k; j++)
            for (int64_t i = 0; i < j; i++)
                if (ids[i] == ids[j]) {
                    if (best < 0 || ids[j] < ids[best])
                        best = j;
                    break;
                }
        return best;
    }
    memcpy(sorted, ids, (size_t)k * sizeof *sorted);
    qsort(sorted, (size_t)k, sizeof *sorted, cmp_i32);
    int64_t i = 1;
    while (i < k && sorted[i] != sorted[i - 1])
        i++;
    if (i == k)
        return -1;
    for (int64_t j = 0, seen = 0; j < k; j++)
        if (ids[j] == sorted[i] && seen++)
            return j;
    return -1; /* not reached */
}

void hta_format_figure(char buf[32], double x)
{
    double a = fabs(x);
    if (!isfinite(x) || a >= 1e15 || (a < 1e-4 && a > 0)) {
        snprintf(buf, 32, "%.6g", x);
    } else if (x == nearbyint(x)) {
        snprintf(buf, 32, "%.0f", x);
    } else {
        int digits = a >= 1 ? (int)floor(log10(a)) + 1 : 0;
        int dec = 6 - digits;
        if (a < 1) /* 6 significant digits after the leading zeros */
            dec = 6 - (int)floor(log10(a)) - 1;
        dec = dec < 0 ? 0 : dec > 15 ? 15 : dec;
        snprintf(buf, 32, "%.*f", dec, x);
        if (strchr(buf, '.')) { /* no trailing zeros */
            size_t n = strlen(buf);
            while (buf[n - 1] == '0')
                buf[--n] = '\0';
            if (buf[n - 1] == '.')
                buf[--n] = '\0';
        }
        if (strcmp(buf, "-0") == 0)
            strcpy(buf, "0");
    }
}
