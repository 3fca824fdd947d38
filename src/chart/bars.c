/* SVG chart of per-server loads, the work of each locality level stacked
 * in its own colour (local, rack, pod, ..., remote), servers sorted by
 * load.  Up to PLOT_BARS servers get a bar each, named on the axis when
 * they are few; beyond, the sorted servers are drawn in PLOT_BARS equal
 * groups (the mean work of each level stacked, the group's largest load
 * as a line), so the file stays small (under 1 MB) whatever the
 * cluster's size.  Every bar is a <g> carrying its server (or group) and
 * load as data attributes, which tests/python/test_plots.py reads back. */
#include "hta/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/levels.h"
#include "chart/svg.h"

#define PLOT_BARS 1000
#define PLOT_NAMED 64 /* bars named on the axis at most */

/* A server and its load, sorted without global state. */
typedef struct by_load_entry {
    double load;
    int32_t s;   /* the server's id */
    int32_t row; /* its row of counts */
} by_load_entry;

static int by_load(const void *x, const void *y)
{
    const by_load_entry *a = x, *b = y;
    if (a->load != b->load)
        return a->load < b->load ? 1 : -1;
    return (a->s > b->s) - (a->s < b->s);
}

/* Level l's colour and name (0-based) of N: local blue, remote red,
 * the levels between in the order of a colour-blind-safe palette. */
static const char *level_colour(int l, int N)
{
    static const char *const mid[] = {"#f58518", "#54a24b", "#b279a2",
                                      "#eeca3b", "#9d755d", "#72b7b2"};
    return l == 0 ? "#4c78a8" : l == N - 1 ? "#e45756" : mid[(l - 1) % 6];
}

static void level_name(int l, int N, char *buf, size_t size)
{
    static const char *const mid[] = {"rack", "pod"};
    if (l == 0)
        snprintf(buf, size, "local");
    else if (l == N - 1)
        snprintf(buf, size, "remote");
    else if (l - 1 < 2)
        snprintf(buf, size, "%s", mid[l - 1]);
    else
        snprintf(buf, size, "level %d", l + 1);
}

/* The counts per server and level: rows 0..n-1 the working servers, then
 * the tail's (all remote); the evaluator's on N > 2 levels. */
static int32_t *level_counts(const hta_instance *inst, const hta_eval *ev,
                             int N, int64_t known)
{
    int32_t *cnt = calloc((size_t)known * (size_t)N, sizeof *cnt);
    if (!cnt)
        return NULL;
    if (N > 2) {
        for (int64_t k = 0; k < (int64_t)inst->n * N; k++)
            cnt[k] = (int32_t)ev->nlev[k];
        return cnt;
    }
    for (int32_t s = 0; s < inst->n; s++) {
        cnt[2 * (int64_t)s] = ev->nloc[s];
        cnt[2 * (int64_t)s + 1] = ev->nrem[s];
    }
    for (int64_t i = 0; i < ev->ntail; i++)
        cnt[2 * (inst->n + i) + 1] = ev->tail_nrem[i];
    return cnt;
}

/* The legend: a swatch per level with its cost in force, in rows of
 * four; returns the y below it. */
static double legend(FILE *f, const hta_eval *ev, int N, int grouped,
                     double left)
{
    double y = 36;
    int col = 0;
    for (int l = 0; l <= N; l++) {
        char name[32], cost[64];
        if (l == N && !grouped)
            break;
        double x = left + 220 * col;
        if (l == N) {
            fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" "
                       "stroke=\"#333\"/><text x=\"%g\" y=\"%g\">largest "
                       "load in the group</text>\n",
                    x, y + 6, x + 12, y + 6, x + 16, y + 11);
        } else {
            level_name(l, N, name, sizeof name);
            if (l == 0)
                snprintf(cost, sizeof cost, "w_loc = %.6g", ev->cost[0]);
            else if (l == N - 1)
                snprintf(cost, sizeof cost, "w_rem = %.6g", ev->cost[l]);
            else
                snprintf(cost, sizeof cost, "w_%d = %.6g", l + 1,
                         ev->cost[l]);
            fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"12\" height=\"12\" "
                       "fill=\"%s\"/><text x=\"%g\" y=\"%g\">%s (%s each)"
                       "</text>\n",
                    x, y, level_colour(l, N), x + 16, y + 11, name, cost);
        }
        if (++col == 4) {
            col = 0;
            y += 18;
        }
    }
    return col ? y + 18 : y;
}

hta_status hta_plot_loads(const hta_instance *inst, const hta_eval *ev, double lower_bound,
                          const char *title, FILE *f)
{
    /* the working servers and the tail servers that got tasks; every other
     * declared server is empty and comes last (instance.h) */
    int N = ev->levels > 2 ? ev->levels : 2;
    int64_t n = inst->n_declared, known = inst->n + ev->ntail;
    by_load_entry *order = malloc((size_t)known * sizeof *order);
    int32_t *cnt = level_counts(inst, ev, N, known);
    if (!order || !cnt) {
        free(order);
        free(cnt);
        return HTA_ERR_INTERNAL;
    }
    for (int32_t s = 0; s < inst->n; s++)
        order[s] = (by_load_entry){ev->load[s], s, s};
    for (int64_t i = 0; i < ev->ntail; i++)
        order[inst->n + i] = (by_load_entry){hta_eval_tail_load(inst, ev, i),
                                             ev->tail_srv[i],
                                             (int32_t)(inst->n + i)};
    qsort(order, (size_t)known, sizeof *order, by_load);
    int grouped = n > PLOT_BARS;
    int32_t bars = grouped ? PLOT_BARS : (int32_t)n;
    int named = !grouped && n <= PLOT_NAMED;
    /* right: a margin for the makespan's and the bound's labels, off
       the bars */
    const double W = 1040, H = named ? 620 : 560, left = 80, right = 100,
                 bottom = named ? 130 : 70;
    double pw = W - left - right;
    double step = hta_svg_nice_step(ev->makespan > 0 ? ev->makespan : 1);
    double ymax = step * ceil((ev->makespan > 0 ? ev->makespan : 1) * 1.05 /
                              step);
    double bw = pw / bars;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" "
               "height=\"%g\" font-family=\"sans-serif\" font-size=\"13\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H);
    fprintf(f, "<text class=\"title\" x=\"%g\" y=\"24\" "
               "font-size=\"16\">",
            left);
    hta_svg_escape(f, title);
    fputs("</text>\n", f);
    double top = legend(f, ev, N, grouped, left) + 14;
    double ph = H - top - bottom;
    /* y axis: nice ticks and the label, with units */
    for (int k = 0; k <= 64 && k * step <= ymax * (1 + 1e-9); k++) {
        double v = k * step, y = top + ph - ph * v / ymax;
        fprintf(f, "<line class=\"tick\" data-value=\"%.17g\" x1=\"%g\" "
                   "y1=\"%.4f\" x2=\"%g\" y2=\"%.4f\" stroke=\"#ddd\"/>"
                   "<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\">%.6g"
                   "</text>\n",
                v, left, y, left + pw, y, left - 6, y + 4, v);
    }
    fprintf(f, "<text transform=\"translate(18 %g) rotate(-90)\" "
               "text-anchor=\"middle\">load (time units, as the level "
               "costs)</text>\n",
            top + ph / 2);
    double *work = malloc((size_t)N * sizeof *work);
    if (!work) {
        free(order);
        free(cnt);
        return HTA_ERR_INTERNAL;
    }
    for (int32_t i = 0; i < bars; i++) {
        /* servers lo..hi-1 of the sorted order; past `known` all empty */
        int64_t lo = (int64_t)i * n / bars, hi = (int64_t)(i + 1) * n / bars;
        if (lo >= known)
            break;
        double peak = 0, load = 0;
        for (int l = 0; l < N; l++)
            work[l] = 0;
        for (int64_t j = lo; j < hi && j < known; j++) {
            const int32_t *c = cnt + (int64_t)order[j].row * N;
            for (int l = 0; l < N; l++)
                work[l] += ev->cost[l] * c[l];
            peak = fmax(peak, order[j].load);
            load += order[j].load;
        }
        for (int l = 0; l < N; l++)
            work[l] /= (double)(hi - lo);
        load /= (double)(hi - lo);
        double x = left + i * bw, w = bw > 2 ? bw * 0.85 : bw;
        const char *name =
            grouped ? NULL : hta_instance_name(inst, 's', order[lo].s);
        if (grouped) {
            fprintf(f, "<g class=\"bar\" data-servers=\"%lld\" "
                       "data-load=\"%.17g\" data-peak=\"%.17g\">",
                    (long long)(hi - lo), load, peak);
        } else {
            fprintf(f, "<g class=\"bar\" data-server=\"%ld\" "
                       "data-load=\"%.17g\"><title>server %ld",
                    (long)order[lo].s, load, (long)order[lo].s);
            if (name) {
                fputs(" (", f);
                hta_svg_escape(f, name);
                fputc(')', f);
            }
            fprintf(f, ": load %.6g;", load);
            const int32_t *c = cnt + (int64_t)order[lo].row * N;
            for (int l = 0; l < N; l++) {
                char ln[32];
                level_name(l, N, ln, sizeof ln);
                fprintf(f, " %ld %s", (long)c[l], ln);
            }
            fputs("</title>", f);
        }
        double y = top + ph;
        for (int l = 0; l < N; l++) {
            if (!(work[l] > 0))
                continue;
            double h = ph * work[l] / ymax;
            y -= h;
            fprintf(f, "<rect x=\"%.2f\" y=\"%.4f\" width=\"%.2f\" "
                       "height=\"%.4f\" fill=\"%s\"/>",
                    x, y, w, h, level_colour(l, N));
        }
        if (grouped) {
            double yp = top + ph - ph * peak / ymax;
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
                       "y2=\"%.2f\" stroke=\"#333\"/>",
                    x, yp, x + bw, yp);
        }
        fputs("</g>\n", f);
        if (named) { /* the server's name (or id) under its bar */
            fprintf(f, "<text transform=\"translate(%.2f %g) rotate(-60)\" "
                       "text-anchor=\"end\" font-size=\"11\">",
                    x + w / 2 + 4, top + ph + 10);
            if (name && strlen(name) > 24) { /* the tooltip has it whole */
                char cut[32];
                snprintf(cut, sizeof cut, "%.21s...", name);
                hta_svg_escape(f, cut);
            } else if (name)
                hta_svg_escape(f, name);
            else
                fprintf(f, "%ld", (long)order[lo].s);
            fputs("</text>\n", f);
        }
    }
    free(work);
    double ym = top + ph - ph * ev->makespan / ymax;
    fprintf(f, "<line class=\"makespan\" data-value=\"%.17g\" x1=\"%g\" "
               "y1=\"%.4f\" x2=\"%g\" y2=\"%.4f\" stroke=\"black\" "
               "stroke-dasharray=\"6 3\"/>\n"
               "<text class=\"makespan\" x=\"%g\" y=\"%.2f\">makespan"
               "</text>\n<text class=\"makespan\" x=\"%g\" y=\"%.2f\">"
               "%.6g</text>\n",
            ev->makespan, left, ym, left + pw, ym, left + pw + 6, ym - 16,
            left + pw + 6, ym - 3, ev->makespan);
    if (lower_bound > 0) {
        double yb = top + ph - ph * lower_bound / ymax;
        /* in the margin, below its line (the makespan's label is above
           its own, which is never lower) */
        fprintf(f, "<line class=\"lower-bound\" data-value=\"%.17g\" "
                   "x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" "
                   "stroke=\"#2a9d3f\" stroke-dasharray=\"2 3\"/>\n"
                   "<text class=\"lower-bound\" x=\"%g\" y=\"%.2f\" "
                   "fill=\"#2a9d3f\">lower bound</text>\n<text "
                   "class=\"lower-bound\" x=\"%g\" y=\"%.2f\" "
                   "fill=\"#2a9d3f\">%.6g</text>\n",
                lower_bound, left, yb, left + pw, yb, left + pw + 6, yb + 12,
                left + pw + 6, yb + 25, lower_bound);
    }
    /* x axis: the label, with the grouping when there is one */
    if (!grouped)
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">servers, "
                   "sorted by load (%ld in all)</text>\n",
                left + pw / 2, H - 12, (long)n);
    else
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">servers, "
                   "sorted by load (%ld in all, in %d groups of about %.0f: "
                   "mean work per group)</text>\n",
                left + pw / 2, H - 30, (long)n, PLOT_BARS,
                (double)n / PLOT_BARS);
    if (!named)
        fprintf(f, "<text x=\"%g\" y=\"%g\">heaviest</text><text x=\"%g\" "
                   "y=\"%g\" text-anchor=\"end\">lightest</text>\n",
                left, top + ph + 18, left + pw, top + ph + 18);
    fputs("</svg>\n", f);
    free(order);
    free(cnt);
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}
