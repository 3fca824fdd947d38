/* SVG chart of per-server loads (local and remote work stacked), servers
 * sorted by load.  Up to PLOT_BARS servers get a bar each; beyond, the
 * sorted servers are drawn in PLOT_BARS equal groups (the mean local and
 * remote work of each group stacked, the group's largest load as a line),
 * so the file stays small (under 1 MB) whatever the cluster's size. */
#include "plot.h"

#include <math.h>
#include <stdlib.h>

#define PLOT_BARS 1000

/* A server and its load, sorted without global state. */
typedef struct by_load_entry {
    double load;
    int32_t s;
} by_load_entry;

static int by_load(const void *x, const void *y)
{
    const by_load_entry *a = x, *b = y;
    if (a->load != b->load)
        return a->load < b->load ? 1 : -1;
    return (a->s > b->s) - (a->s < b->s);
}

static void escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

/* A tick step of 1, 2 or 5 times a power of ten giving 4 to 10 ticks. */
static double nice_step(double range)
{
    if (!(range > 0))
        return 1;
    double raw = range / 6, p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

hta_status hta_plot_loads(const hta_instance *inst, const hta_eval *ev,
                          double lower_bound, const char *title, FILE *f)
{
    /* the working servers and the tail servers that got tasks; every other
     * declared server is empty and comes last (instance.h) */
    int64_t n = inst->n_declared, known = inst->n + ev->ntail;
    by_load_entry *order = malloc((size_t)known * sizeof *order);
    int32_t *nloc = malloc((size_t)known * sizeof *nloc);
    int32_t *nrem = malloc((size_t)known * sizeof *nrem);
    if (!order || !nloc || !nrem) {
        free(order);
        free(nloc);
        free(nrem);
        return HTA_ERR_INTERNAL;
    }
    for (int32_t s = 0; s < inst->n; s++)
        order[s] = (by_load_entry){ev->load[s], s};
    for (int64_t i = 0; i < ev->ntail; i++)
        order[inst->n + i] = (by_load_entry){hta_eval_tail_load(inst, ev, i),
                                             (int32_t)(inst->n + i)};
    qsort(order, (size_t)known, sizeof *order, by_load);
    for (int64_t j = 0; j < known; j++) {
        int32_t s = order[j].s;
        nloc[j] = s < inst->n ? ev->nloc[s] : 0;
        nrem[j] = s < inst->n ? ev->nrem[s] : ev->tail_nrem[s - inst->n];
        /* the tail's real ids, for the tooltips */
        if (s >= inst->n)
            order[j].s = ev->tail_srv[s - inst->n];
    }
    const double W = 960, H = 560, left = 80, right = 20, top = 70,
                 bottom = 70;
    double pw = W - left - right, ph = H - top - bottom;
    double step = nice_step(ev->makespan > 0 ? ev->makespan : 1);
    double ymax = step * ceil((ev->makespan > 0 ? ev->makespan : 1) * 1.05 /
                              step);
    int32_t bars = n <= PLOT_BARS ? (int32_t)n : PLOT_BARS;
    double bw = pw / bars;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" "
               "height=\"%g\" font-family=\"sans-serif\" font-size=\"13\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H);
    fprintf(f, "<text x=\"%g\" y=\"24\" font-size=\"16\">", left);
    escape(f, title);
    fputs("</text>\n", f);
    /* legend */
    fprintf(f, "<rect x=\"%g\" y=\"36\" width=\"12\" height=\"12\" "
               "fill=\"#4c78a8\"/><text x=\"%g\" y=\"47\">local work "
               "(w_loc each)</text>\n"
               "<rect x=\"%g\" y=\"36\" width=\"12\" height=\"12\" "
               "fill=\"#e45756\"/><text x=\"%g\" y=\"47\">remote work "
               "(w_rem(r) = %.6g each)</text>\n",
            left, left + 16, left + 200, left + 216, ev->w_rem_r);
    if (n > PLOT_BARS)
        fprintf(f, "<line x1=\"%g\" y1=\"42\" x2=\"%g\" y2=\"42\" "
                   "stroke=\"#333\"/><text x=\"%g\" y=\"47\">largest load "
                   "in the group</text>\n",
                left + 470, left + 490, left + 496);
    /* y axis: nice ticks and the label, with units */
    for (double v = 0; v <= ymax * (1 + 1e-9); v += step) {
        double y = top + ph - ph * v / ymax;
        fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" "
                   "stroke=\"#ddd\"/><text x=\"%g\" y=\"%.2f\" "
                   "text-anchor=\"end\">%.6g</text>\n",
                left, y, left + pw, y, left - 6, y + 4, v);
    }
    fprintf(f, "<text transform=\"translate(18 %g) rotate(-90)\" "
               "text-anchor=\"middle\">load (time units, as w_loc and "
               "w_rem)</text>\n",
            top + ph / 2);
    for (int32_t i = 0; i < bars; i++) {
        /* servers lo..hi-1 of the sorted order; past `known` all empty */
        int64_t lo = (int64_t)i * n / bars, hi = (int64_t)(i + 1) * n / bars;
        if (lo >= known)
            break;
        double loc = 0, rem = 0, peak = 0;
        for (int64_t j = lo; j < hi && j < known; j++) {
            loc += inst->w_loc * nloc[j];
            rem += ev->w_rem_r * nrem[j];
            peak = fmax(peak, order[j].load);
        }
        loc /= (double)(hi - lo);
        rem /= (double)(hi - lo);
        double x = left + i * bw, w = bw > 2 ? bw * 0.85 : bw;
        double yl = top + ph - ph * loc / ymax;
        double yr = yl - ph * rem / ymax;
        if (n <= PLOT_BARS)
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                       "height=\"%.2f\" fill=\"#4c78a8\"><title>server %ld: "
                       "%ld local</title></rect>\n",
                    x, yl, w, ph * loc / ymax, (long)order[lo].s,
                    (long)nloc[lo]);
        else
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                       "height=\"%.2f\" fill=\"#4c78a8\"/>\n",
                    x, yl, w, ph * loc / ymax);
        if (rem > 0)
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                       "height=\"%.2f\" fill=\"#e45756\"/>\n",
                    x, yr, w, ph * rem / ymax);
        if (n > PLOT_BARS) {
            double yp = top + ph - ph * peak / ymax;
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
                       "y2=\"%.2f\" stroke=\"#333\"/>\n",
                    x, yp, x + bw, yp);
        }
    }
    double ym = top + ph - ph * ev->makespan / ymax;
    fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" "
               "stroke=\"black\" stroke-dasharray=\"6 3\"/>\n"
               "<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\">makespan "
               "%.6g</text>\n",
            left, ym, left + pw, ym, left + pw, ym - 4, ev->makespan);
    if (lower_bound > 0) {
        double yb = top + ph - ph * lower_bound / ymax;
        fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" "
                   "stroke=\"#2a9d3f\" stroke-dasharray=\"2 3\"/>\n"
                   "<text x=\"%g\" y=\"%.2f\" "
                   "fill=\"#2a9d3f\">lower bound %.6g</text>\n",
                left, yb, left + pw, yb, left + 4, yb - 4, lower_bound);
    }
    /* x axis: the label, with the grouping when there is one */
    if (n <= PLOT_BARS)
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">servers, "
                   "sorted by load (%ld in all)</text>\n",
                left + pw / 2, H - 30, (long)n);
    else
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">servers, "
                   "sorted by load (%ld in all, in %d groups of about %.0f: "
                   "mean work per group)</text>\n",
                left + pw / 2, H - 30, (long)n, PLOT_BARS,
                (double)n / PLOT_BARS);
    fprintf(f, "<text x=\"%g\" y=\"%g\">heaviest</text><text x=\"%g\" "
               "y=\"%g\" text-anchor=\"end\">lightest</text>\n</svg>\n",
            left, top + ph + 18, left + pw, top + ph + 18);
    free(order);
    free(nloc);
    free(nrem);
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}
