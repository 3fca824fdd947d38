/* SVG line chart of a sweep (hta/chart.h): what the commands' --plot
 * draws, `hta plot` redraws from CSV, and hta.plot gives a notebook.
 *
 * Layout: the title and a subtitle, the legend in rows of four, the plot
 * area with round ticks on both axes.  The y axis is linear (from 0 when
 * every value is non-negative) unless the values are positive and the
 * largest is over 20 times the least: then it is logarithmic over whole
 * decades (delays near the capacity boundary grow by orders of
 * magnitude, and random placement costs 40 times greedy).  A vertical mark outside the
 * points' range by more than a quarter of it is named in the subtitle
 * instead of stretching the axis. */
#include "hta/chart.h"

#include <string.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "hta/instance.h"
#include "chart/svg.h"

static const char *const colours[] = {"#4c78a8", "#f58518", "#54a24b",
                                      "#e45756", "#b279a2", "#72b7b2",
                                      "#9d755d", "#eeca3b"};
#define NCOLOURS (int)(sizeof colours / sizeof colours[0])

/* Series that coincide stay apart without colour: a dash pattern (when
 * the chart gives none of its own meaning) and a marker per series. */
static const char *const dashes[] = {NULL, "6 3", "2 3", "8 3 2 3"};
#define NDASHES (int)(sizeof dashes / sizeof dashes[0])
#define NMARKERS 5 /* circle, square, triangle, diamond, triangle down */

static double at(const hta_chart *c, const double *a, int s, int k);

/* Series s's style (colour, dash, marker): its rank among the series
 * with a point, so that a series with none (exact skipped) takes no
 * style and a chart redrawn without it looks the same. */
static int style_of(const hta_chart *c, int s)
{
    int rank = 0;
    for (int t = 0; t < s; t++)
        for (int k = 0; k < c->npts; k++)
            if (isfinite(at(c, c->y, t, k))) {
                rank++;
                break;
            }
    return rank;
}

static const char *colour_of(const hta_chart *c, int s)
{
    return colours[style_of(c, s) % NCOLOURS];
}

static const char *dash_of(const hta_chart *c, int s)
{
    if (c->dashed)
        return c->dashed[s] ? "6 3" : NULL;
    return dashes[style_of(c, s) % NDASHES];
}

/* Series s's marker of radius r centred on (0, 0) (its group is
 * translated to the point). */
static void marker(FILE *f, int s, double r, const char *fill,
                   const char *stroke)
{
    switch (s % NMARKERS) {
    case 0:
        fprintf(f, "<circle r=\"%g\"", r);
        break;
    case 1:
        fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\"",
                -0.9 * r, -0.9 * r, 1.8 * r, 1.8 * r);
        break;
    case 2:
        fprintf(f, "<path d=\"M0,%g L%g,%g L%g,%g Z\"", -1.3 * r, 1.15 * r,
                0.75 * r, -1.15 * r, 0.75 * r);
        break;
    case 3:
        fprintf(f, "<path d=\"M0,%g L%g,0 L0,%g L%g,0 Z\"", -1.3 * r,
                1.3 * r, 1.3 * r, -1.3 * r);
        break;
    default:
        fprintf(f, "<path d=\"M0,%g L%g,%g L%g,%g Z\"", 1.3 * r, 1.15 * r,
                -0.75 * r, -1.15 * r, -0.75 * r);
        break;
    }
    fprintf(f, " fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>", fill,
            stroke);
}

typedef struct frame {
    double left, top, pw, ph;
    double x0, x1, t0, t1; /* x range; y range as plotted (log10 or not) */
    int logy;
} frame;

static double px(const frame *fr, double x)
{
    return fr->left + fr->pw * (x - fr->x0) / (fr->x1 - fr->x0);
}

/* y on the canvas, clamped to the plot area (a band's lower end may be
 * at or below zero on a logarithmic axis). */
static double py(const frame *fr, double y)
{
    double t = fr->logy ? (y > 0 ? log10(y) : fr->t0) : y;
    double v = fr->top + fr->ph - fr->ph * (t - fr->t0) / (fr->t1 - fr->t0);
    return fmin(fmax(v, fr->top), fr->top + fr->ph);
}

static double at(const hta_chart *c, const double *a, int s, int k)
{
    return a ? a[(size_t)s * (size_t)c->npts + (size_t)k] : NAN;
}

static double ci_of(const hta_chart *c, int s, int k)
{
    double h = at(c, c->ci, s, k);
    return isfinite(h) && h > 0 ? h : 0;
}

/* x, or instead when x overflowed. */
static double finite_or(double x, double instead)
{
    return isfinite(x) ? x : instead;
}

/* The ticks first, first + step, ... up to last, at most 64 (a step
 * below the values' resolution gives the ends alone): their count, and
 * the values into v. */
static int ticks(double first, double last, double step, double v[64])
{
    int n = 0;
    for (int k = 0; n < 64; k++) {
        double t = first + k * step;
        if (!(t <= last) || (n && !(t > v[n - 1])))
            break;
        v[n++] = t;
    }
    if (n == 1 && last > first) /* no room between: the ends */
        v[n++] = last;
    return n;
}

/* The ranges of the values and intervals; 0 when no point is finite. */
static int y_range(const hta_chart *c, double *lo, double *hi, double *pos)
{
    int any = 0;
    *lo = INFINITY, *hi = -INFINITY, *pos = INFINITY;
    for (int s = 0; s < c->nseries; s++)
        for (int k = 0; k < c->npts; k++) {
            double y = at(c, c->y, s, k), h = ci_of(c, s, k);
            if (!isfinite(y))
                continue;
            any = 1; /* a band past the doubles ends at their end */
            *lo = fmin(*lo, fmax(y - h, -DBL_MAX));
            *hi = fmax(*hi, fmin(y + h, DBL_MAX));
            if (y > 0)
                *pos = fmin(*pos, y);
        }
    return any;
}

static void set_y(frame *fr, const hta_chart *c)
{
    double lo, hi, pos;
    if (!y_range(c, &lo, &hi, &pos)) {
        fr->logy = 0, fr->t0 = 0, fr->t1 = 1;
        return;
    }
    fr->logy = isfinite(pos) && lo >= 0 && hi / pos > 20;
    for (int s = 0; fr->logy && s < c->nseries; s++)
        for (int k = 0; k < c->npts; k++)
            if (at(c, c->y, s, k) == 0) /* a zero has no place on it */
                fr->logy = 0;
    if (fr->logy) {
        fr->t0 = floor(log10(pos));
        fr->t1 = fmin(fmax(ceil(log10(hi)), fr->t0 + 1), 308);
        return;
    }
    double span = finite_or(hi - fmin(lo, 0), DBL_MAX);
    double step = hta_svg_nice_step(span > 0 ? finite_or(span * 1.05, span) :
                                                fabs(hi) + 1);
    fr->t0 = lo >= 0 ? 0 : finite_or(step * floor(lo / step), -DBL_MAX);
    fr->t1 = finite_or(step * ceil(fmax(finite_or(hi * 1.05, hi),
                                        fr->t0 + step) /
                                   step),
                       DBL_MAX);
    if (hi <= 0)
        fr->t1 = fmax(0, fr->t0 + step);
}

/* The x range; *mark_in when the mark is drawn inside it. */
static void set_x(frame *fr, const hta_chart *c, int *mark_in)
{
    double lo = c->x[0], hi = c->x[c->npts - 1];
    double span = hi > lo ? hi - lo : fmax(fabs(lo) * 0.2, 1);
    *mark_in = isfinite(c->mark_x) && c->mark_x >= lo - span / 4 &&
               c->mark_x <= hi + span / 4;
    if (*mark_in) {
        lo = fmin(lo, c->mark_x);
        hi = fmax(hi, c->mark_x);
    }
    if (hi <= lo) {
        lo -= span / 2;
        hi += span / 2;
    }
    double pad = (hi - lo) * 0.04;
    fr->x0 = lo - pad;
    fr->x1 = hi + pad;
}

/* Rows of four swatches: the series, then what a hollow point means;
 * returns the y below them. */
static double legend(FILE *f, const hta_chart *c, double left, double y)
{
    int col = 0, any_hollow = 0;
    for (int s = 0; c->hollow && s < c->nseries; s++)
        for (int k = 0; k < c->npts; k++)
            any_hollow |=
                c->hollow[(size_t)s * (size_t)c->npts + (size_t)k] != 0;
    for (int s = 0; s <= c->nseries; s++) {
        double x = left + 220 * col;
        if (s == c->nseries) {
            if (!any_hollow || !c->hollow_means)
                break;
            fprintf(f, "<circle cx=\"%g\" cy=\"%g\" r=\"4\" fill=\"white\" "
                       "stroke=\"#333\" stroke-width=\"1.5\"/><text x=\"%g\" "
                       "y=\"%g\">",
                    x + 6, y + 6, x + 16, y + 11);
            hta_svg_escape(f, c->hollow_means);
        } else {
            int drawn = 0;
            for (int k = 0; k < c->npts; k++)
                drawn |= isfinite(at(c, c->y, s, k));
            if (!drawn) /* a series without a point (exact skipped) */
                continue;
            const char *col_s = colour_of(c, s), *dash = dash_of(c, s);
            fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" "
                       "stroke=\"%s\" stroke-width=\"2\"",
                    x - 4, y + 6, x + 22, y + 6, col_s);
            if (dash)
                fprintf(f, " stroke-dasharray=\"%s\"", dash);
            fprintf(f, "/><g transform=\"translate(%g,%g)\">", x + 9, y + 6);
            marker(f, style_of(c, s), 3.5, col_s, col_s);
            fprintf(f, "</g><text x=\"%g\" y=\"%g\">", x + 26, y + 11);
            hta_svg_escape(f, c->names[s]);
        }
        fputs("</text>\n", f);
        if (++col == 4) {
            col = 0;
            y += 18;
        }
    }
    return col ? y + 18 : y;
}

static void axes(FILE *f, const frame *fr, const hta_chart *c)
{
    double xs = hta_svg_nice_step(fr->x1 - fr->x0), tv[64];
    int nt = ticks(xs * ceil(fr->x0 / xs), fr->x1, xs, tv);
    for (int i = 0; i < nt; i++) {
        double v = tv[i], x = px(fr, v), y = fr->top + fr->ph;
        fprintf(f, "<line x1=\"%.2f\" y1=\"%g\" x2=\"%.2f\" y2=\"%g\" "
                   "stroke=\"#eee\"/><text x=\"%.2f\" y=\"%g\" "
                   "text-anchor=\"middle\">%.6g</text>\n",
                x, fr->top, x, y, x, y + 16, fabs(v) < xs * 1e-9 ? 0 : v);
    }
    if (fr->logy) {
        for (double t = fr->t0; t <= fr->t1 + 1e-9; t++) {
            double y = py(fr, pow(10, t));
            fprintf(f, "<line class=\"tick\" data-value=\"%.17g\" x1=\"%g\" "
                       "y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" stroke=\"#ddd\"/>"
                       "<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\">%.6g"
                       "</text>\n",
                    pow(10, t), fr->left, y, fr->left + fr->pw, y,
                    fr->left - 6, y + 4, pow(10, t));
        }
    } else {
        double ys = hta_svg_nice_step(fr->t1 - fr->t0);
        nt = ticks(fr->t0, fr->t1 + ys * 1e-9, ys, tv);
        for (int i = 0; i < nt; i++) {
            double v = tv[i], y = py(fr, v),
                   shown = fabs(v) < ys * 1e-9 ? 0 : v;
            fprintf(f, "<line class=\"tick\" data-value=\"%.17g\" x1=\"%g\" "
                       "y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" stroke=\"#ddd\"/>"
                       "<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\">%.6g"
                       "</text>\n",
                    shown, fr->left, y, fr->left + fr->pw, y, fr->left - 6,
                    y + 4, shown);
        }
    }
    fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" "
               "fill=\"none\" stroke=\"#999\"/>\n",
            fr->left, fr->top, fr->pw, fr->ph);
    fprintf(f, "<text class=\"xlabel\" x=\"%g\" y=\"%g\" "
               "text-anchor=\"middle\">",
            fr->left + fr->pw / 2, fr->top + fr->ph + 40);
    hta_svg_escape(f, c->xlabel);
    fprintf(f, "</text>\n<text class=\"ylabel\" transform=\"translate(18 "
               "%g) rotate(-90)\" text-anchor=\"middle\">",
            fr->top + fr->ph / 2);
    hta_svg_escape(f, c->ylabel);
    fputs(fr->logy ? " (logarithmic)</text>\n" : "</text>\n", f);
}

/* The interval of series s as a closed band over each run of points
 * that have one. */
static void band(FILE *f, const frame *fr, const hta_chart *c, int s)
{
    for (int k = 0; k < c->npts;) {
        int e = k;
        while (e < c->npts && isfinite(at(c, c->y, s, e)) && ci_of(c, s, e) > 0)
            e++;
        if (e - k >= 1) {
            fprintf(f, "<path class=\"band\" data-series=\"");
            hta_svg_escape(f, c->names[s]);
            fprintf(f, "\" fill=\"%s\" fill-opacity=\"0.18\" d=\"",
                    colour_of(c, s));
            for (int j = k; j < e; j++)
                fprintf(f, "%s%.2f %.2f ", j == k ? "M" : "L", px(fr, c->x[j]),
                        py(fr, at(c, c->y, s, j) + ci_of(c, s, j)));
            for (int j = e - 1; j >= k; j--)
                fprintf(f, "L%.2f %.2f ", px(fr, c->x[j]),
                        py(fr, at(c, c->y, s, j) - ci_of(c, s, j)));
            fputs("Z\"/>\n", f);
        }
        k = e > k ? e : k + 1;
    }
}

static void line_and_points(FILE *f, const frame *fr, const hta_chart *c,
                            int s)
{
    const char *col = colour_of(c, s), *dash = dash_of(c, s);
    int open = 0;
    for (int k = 0; k < c->npts; k++) {
        double y = at(c, c->y, s, k);
        if (!isfinite(y)) {
            if (open)
                fputs("\"/>\n", f);
            open = 0;
            continue;
        }
        if (!open) {
            fputs("<polyline class=\"series\" data-series=\"", f);
            hta_svg_escape(f, c->names[s]);
            fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"",
                    col);
            if (dash)
                fprintf(f, " stroke-dasharray=\"%s\"", dash);
            fputs(" points=\"", f);
        }
        fprintf(f, "%s%.2f,%.2f", open ? " " : "", px(fr, c->x[k]), py(fr, y));
        open = 1;
    }
    if (open)
        fputs("\"/>\n", f);
    for (int k = 0; k < c->npts; k++) {
        double y = at(c, c->y, s, k), h = at(c, c->ci, s, k);
        if (!isfinite(y))
            continue;
        int hollow = c->hollow &&
                     c->hollow[(size_t)s * (size_t)c->npts + (size_t)k];
        fprintf(f, "<g class=\"point\" transform=\"translate(%.2f,%.2f)\" "
                   "data-series=\"",
                px(fr, c->x[k]), py(fr, y));
        hta_svg_escape(f, c->names[s]);
        fprintf(f, "\" data-x=\"%.17g\" data-y=\"%.17g\"", c->x[k], y);
        if (isfinite(h))
            fprintf(f, " data-ci=\"%.17g\"", h);
        if (hollow)
            fputs(" data-hollow=\"1\"", f);
        fputs("><title>", f);
        hta_svg_escape(f, c->names[s]);
        fprintf(f, " at %.6g: %.6g", c->x[k], y);
        if (isfinite(h))
            fprintf(f, " +- %.3g", h);
        if (hollow && c->hollow_means) {
            fputs(" (", f);
            hta_svg_escape(f, c->hollow_means);
            fputc(')', f);
        }
        fputs("</title>", f);
        marker(f, style_of(c, s), c->dashed && c->dashed[s] ? 2.5 : 3.5,
               hollow ? "white" : col, col);
        fputs("</g>\n", f);
    }
}

hta_status hta_chart_svg(const hta_chart *c, FILE *f)
{
    const double W = 960, H = 600;
    frame fr = {0};
    int mark_in = 0;
    set_x(&fr, c, &mark_in);
    set_y(&fr, c);
    fr.left = 80;
    fr.pw = W - fr.left - 30;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" "
               "height=\"%g\" font-family=\"sans-serif\" font-size=\"13\" "
               "data-yscale=\"%s\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text class=\"title\" x=\"%g\" y=\"24\" "
               "font-size=\"16\">",
            W, H, fr.logy ? "log" : "linear", fr.left);
    hta_svg_escape(f, c->title);
    fputs("</text>\n", f);
    double y = 36;
    if (c->subtitle || (isfinite(c->mark_x) && !mark_in)) {
        fprintf(f, "<text class=\"subtitle\" x=\"%g\" y=\"%g\" "
                   "fill=\"#555\">",
                fr.left, y + 8);
        if (c->subtitle)
            hta_svg_escape(f, c->subtitle);
        if (isfinite(c->mark_x) && !mark_in) {
            fputs(c->subtitle ? "; " : "", f);
            hta_svg_escape(f, c->mark_label);
            fprintf(f, " at %.6g, off the chart", c->mark_x);
        }
        fputs("</text>\n", f);
        y += 20;
    }
    fr.top = legend(f, c, fr.left, y) + 12;
    fr.ph = H - fr.top - 60;
    axes(f, &fr, c);
    if (mark_in) {
        double x = px(&fr, c->mark_x);
        fprintf(f, "<line class=\"mark\" data-x=\"%.17g\" x1=\"%.2f\" "
                   "y1=\"%g\" x2=\"%.2f\" y2=\"%g\" stroke=\"black\" "
                   "stroke-dasharray=\"6 3\"/>\n<text x=\"%.2f\" y=\"%g\" "
                   "text-anchor=\"end\">",
                c->mark_x, x, fr.top, x, fr.top + fr.ph, x - 4,
                fr.top + fr.ph - 6);
        hta_svg_escape(f, c->mark_label);
        fputs("</text>\n", f);
    }
    for (int s = 0; s < c->nseries; s++)
        band(f, &fr, c, s);
    for (int s = 0; s < c->nseries; s++)
        line_and_points(f, &fr, c, s);
    fputs("</svg>\n", f);
    return ferror(f) ? HTA_ERR_IO : HTA_OK;
}

