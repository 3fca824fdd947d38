/* A sweep's --plot and --csv outputs, opened and committed as a set
 * (the chart itself: hta/chart.h, drawn by the library's src/chart/).
 *
 * Ownership: borrows the chart; owns its open outputs until commit or
 * abort.
 */
#ifndef HTA_CLI_CHART_H
#define HTA_CLI_CHART_H

#include <stdio.h>

#include "hta/chart.h"
#include "hta/diag.h"
#include "hta/outfile.h"

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
hta_status cli_figout_commit(cli_figout *o, const hta_chart *c, hta_diag *d);
/* Removes whatever was not committed; safe after commit. */
void cli_figout_abort(cli_figout *o);

/* x as a CSV field: every digit, empty when not finite; a comma before
 * it unless first. */
void csv_number(FILE *f, double x, int first);

#endif
