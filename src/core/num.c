/* Numbers, comma lists and the clock: one reader for files and options. */
#include "hta/num.h"
#include "hta/buf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

hta_num_result hta_num_int(const char *s, int64_t lo, int64_t hi,
                           int64_t *out)
{
    const char *p = s + (s[0] == '-');
    if (*p < '0' || *p > '9')
        return HTA_NUM_SYNTAX;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            return HTA_NUM_SYNTAX;
    errno = 0;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0')
        return HTA_NUM_SYNTAX;
    if (errno == ERANGE || v < lo || v > hi)
        return HTA_NUM_RANGE;
    *out = (int64_t)v;
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

void *hta_grow_(void *p, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return p;
        c *= 2;
    }
    if (c > SIZE_MAX / elem)
        return p;
    void *q = realloc(p, c * elem);
    if (!q)
        return p;
    *cap = c;
    return q;
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
