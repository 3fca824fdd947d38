/* The --plot and --csv outputs of a sweep (the chart itself:
 * hta/chart.h). */
#include "chart.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hta/num.h"

hta_status cli_figout_open(cli_figout *o, const char *plot, const char *csv,
                           hta_diag *d)
{
    hta_status st = HTA_OK;
    if (plot && (st = hta_outfile_open(&o->plot, plot, d)) == HTA_OK)
        o->has_plot = 1;
    if (st == HTA_OK && csv && (st = hta_outfile_open(&o->csv, csv, d)) == HTA_OK)
        o->has_csv = 1;
    if (st != HTA_OK)
        cli_figout_abort(o);
    return st;
}

FILE *cli_figout_csv(cli_figout *o)
{
    return o->has_csv ? o->csv.f : NULL;
}

hta_status cli_figout_commit(cli_figout *o, const hta_chart *c, hta_diag *d)
{
    hta_status st = HTA_OK;
    errno = 0;
    if (o->has_plot && (st = hta_chart_svg(c, o->plot.f)) != HTA_OK)
        hta_diag_set(d, st, o->plot.path, 0, "write error: %s",
                     strerror(errno ? errno : EIO));
    hta_outfile *set[3] = {o->has_plot ? &o->plot : NULL,
                           o->has_csv ? &o->csv : NULL, o->with};
    if (st == HTA_OK)
        st = hta_outfile_commit_set(set, 3, d);
    else if (o->with)
        hta_outfile_abort(o->with);
    cli_figout_abort(o);
    return st;
}

void cli_figout_abort(cli_figout *o)
{
    if (o->has_plot)
        hta_outfile_abort(&o->plot);
    if (o->has_csv)
        hta_outfile_abort(&o->csv);
    o->has_plot = o->has_csv = 0;
}

void csv_number(FILE *f, double x, int first)
{
    if (!first)
        fputc(',', f);
    if (isfinite(x)) {
        char buf[32];
        hta_format_real(buf, x);
        fputs(buf, f);
    }
}
