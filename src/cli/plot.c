/* SVG bar chart of per-server loads (local and remote work stacked). */
#include "plot.h"

#include <stdlib.h>

static const hta_eval *sort_ev;

static int by_load(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    double la = sort_ev->load[a], lb = sort_ev->load[b];
    if (la != lb)
        return la < lb ? 1 : -1;
    return (a > b) - (a < b);
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

hta_status hta_plot_loads(const hta_instance *inst, const hta_eval *ev,
                          double lower_bound, const char *title, FILE *f)
{
    int32_t n = inst->n;
    int32_t *order = malloc((size_t)n * sizeof *order);
    if (!order)
        return HTA_ERR_INTERNAL;
    for (int32_t s = 0; s < n; s++)
        order[s] = s;
    sort_ev = ev;
    qsort(order, (size_t)n, sizeof *order, by_load);
    const double W = 960, H = 540, left = 70, right = 20, top = 50,
                 bottom = 60;
    double pw = W - left - right, ph = H - top - bottom;
    double ymax = ev->makespan > 0 ? ev->makespan * 1.08 : 1;
    double bw = pw / n;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" "
               "height=\"%g\" font-family=\"sans-serif\" font-size=\"13\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H);
    fprintf(f, "<text x=\"%g\" y=\"24\" font-size=\"16\">", left);
    escape(f, title);
    fputs("</text>\n", f);
    /* axis ticks */
    for (int i = 0; i <= 4; i++) {
        double v = ymax * i / 4, y = top + ph - ph * v / ymax;
        fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" "
                   "stroke=\"#ddd\"/><text x=\"%g\" y=\"%.2f\" "
                   "text-anchor=\"end\">%.4g</text>\n",
                left, y, left + pw, y, left - 6, y + 4, v);
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t s = order[i];
        double loc = inst->w_loc * ev->nloc[s];
        double rem = ev->w_rem_r * ev->nrem[s];
        double x = left + i * bw, w = bw > 2 ? bw * 0.85 : bw;
        double yl = top + ph - ph * loc / ymax;
        double yr = yl - ph * rem / ymax;
        fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                   "height=\"%.2f\" fill=\"#4c78a8\"><title>server %ld: "
                   "%ld local</title></rect>\n",
                x, yl, w, ph * loc / ymax, (long)s, (long)ev->nloc[s]);
        if (rem > 0)
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                       "height=\"%.2f\" fill=\"#e45756\"><title>server %ld: "
                       "%ld remote</title></rect>\n",
                    x, yr, w, ph * rem / ymax, (long)s, (long)ev->nrem[s]);
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
    fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%ld servers, "
               "sorted by load; blue: local work (w_loc), red: remote work "
               "(w_rem(r) = %.6g)</text>\n</svg>\n",
            left + pw / 2, H - 20, (long)n, ev->w_rem_r);
    free(order);
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}
