/* SVG line chart of a sweep (hta sim, flowtime and reduce-place
 * --plot): one line per series (a policy, or a bound drawn dashed) over
 * the points' x (a load or a rate), a point's 95% interval as a band,
 * points flagged hollow (a run still growing), and a vertical mark (the
 * capacity boundary rho* = 1).  The y axis is logarithmic when the
 * values are positive and the largest is over 20 times the least.
 * Every point is a <g class="point"> carrying its series, x, y and
 * interval as data attributes, which tests/python/test_sweep_plots.py
 * reads back.
 *
 * Ownership: borrows everything; writes to the caller's FILE.
 */
#ifndef HTA_CLI_CHART_H
#define HTA_CLI_CHART_H

#include <stdio.h>

#include "hta/diag.h"
#include "hta/outfile.h"

typedef struct cli_chart {
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
} cli_chart;

/* O(series * points). */
hta_status cli_chart_svg(const cli_chart *c, FILE *f);

/* The optional --plot and --csv outputs of a sweep: opened once the
 * inputs are read, the CSV written by the command as its runs are
 * reported, the chart at the end, both committed together (or neither,
 * on an error). */
typedef struct cli_figout {
    hta_outfile plot, csv;
    int has_plot, has_csv;
    hta_outfile *with; /* the command's other output (sim's trace file),
                          committed in the set; the caller's to open and
                          to abort */
} cli_figout;

/* NULL paths: that output is not asked. */
hta_status cli_figout_open(cli_figout *o, const char *plot, const char *csv,
                           hta_diag *d);
/* The CSV stream, or NULL when none was asked. */
FILE *cli_figout_csv(cli_figout *o);
/* Writes the chart (when asked) and commits the outputs as a set
 * (outfile.h): all of them, or none on an error. */
hta_status cli_figout_commit(cli_figout *o, const cli_chart *c, hta_diag *d);
/* Removes whatever was not committed; safe after commit. */
void cli_figout_abort(cli_figout *o);

/* x as a CSV field: every digit, empty when not finite; a comma before
 * it unless first. */
void csv_number(FILE *f, double x, int first);

#endif
