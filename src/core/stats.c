/* Confidence intervals: Student's t on batch means. */
#include "core/stats.h"

#include <math.h>

double hta_t975(int df)
{
    double z = 1.959963984540054, z3 = z * z * z, z5 = z3 * z * z;
    return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) /
                                           (96.0 * df * df);
}

void hta_mean_ci(const double *x, int n, double *mean, double *ci)
{
    double s = 0, ss = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    *mean = s / n;
    for (int i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    *ci = n > 1 ? hta_t975(n - 1) * sqrt(ss / (n - 1) / n) : INFINITY;
}
