/* The SVG pictures hta draws (src/chart/), one code for the command's
 * --plot, `hta plot` and the Python package's hta.plot:
 *
 * - a sweep's line chart (hta_chart_svg): one line per series (a
 *   policy, or a bound drawn dashed) over the points' x (a load or a
 *   rate), a point's 95% interval as a band, points flagged hollow (a
 *   run still growing), and a vertical mark (the capacity boundary rho*
 *   = 1); every series its own colour, marker and (unless its dashes
 *   mean a bound) dash pattern, in the order of the series with a
 *   point.  The y axis is logarithmic when the values are positive and
 *   the largest is over 20 times the least.  Every point is a <g
 *   class="point"> carrying its series, x, y and interval as data
 *   attributes;
 * - an assignment's loads (hta_plot_loads): per-server loads, the work
 *   of each locality level stacked in its colour, servers sorted by load
 *   (named where the instance names them), the makespan and a lower
 *   bound marked, their labels in a margin off the bars.
 *
 * Ownership: borrows everything; writes to the caller's FILE.
 */
#ifndef HTA_CHART_H
#define HTA_CHART_H

#include <stdio.h>

#include "hta/assign.h"
#include "hta/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hta_chart {
    const char *title;
    const char *subtitle;        /* a line under the title; NULL: none */
    const char *xlabel, *ylabel;
    int nseries, npts;
    const char *const *names;    /* [nseries] */
    const unsigned char *dashed; /* [nseries]; NULL: none dashed */
    const double *x;             /* [npts], increasing */
    const double *y;             /* [s * npts + k]; not finite: no point */
    const double *ci;            /* half-widths, the same shape; NULL or
                                    not finite: no interval */
    const unsigned char *hollow; /* the same shape; NULL: none */
    const char *hollow_means;    /* the legend's words for a hollow point */
    double mark_x;               /* a vertical line; NaN: none */
    const char *mark_label;
} hta_chart;

/* HTA_ERR_IO on a write error.  O(series^2 * points). */
hta_status hta_chart_svg(const hta_chart *c, FILE *f);

/* lower_bound <= 0: not drawn.  O(n log n). */
hta_status hta_plot_loads(const hta_instance *inst, const hta_eval *ev,
                          double lower_bound, const char *title, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
