/* The solve report: text and JSON renderings of the same rows. */
#include "report.h"

#include <math.h>
#include <string.h>

void hta_report_bound(hta_report *r, double lb, const char *source)
{
    if (!r->has_lower_bound || lb > r->lower_bound) {
        r->has_lower_bound = 1;
        r->lower_bound = lb;
        snprintf(r->bound_source, sizeof r->bound_source, "%s", source);
    }
}

int hta_report_best(const hta_report *r)
{
    int best = -1;
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].has_value &&
            (best < 0 || r->rows[i].makespan < r->rows[best].makespan))
            best = i;
    return best;
}

int hta_report_proven(const hta_report *r)
{
    int b = hta_report_best(r);
    if (b < 0)
        return 0;
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].has_value && strcmp(r->rows[i].status, "optimal") == 0 &&
            r->rows[i].makespan <= r->rows[b].makespan)
            return 1;
    if (!r->has_lower_bound)
        return 0;
    double span = r->rows[b].makespan;
    return span - r->lower_bound <= 1e-9 * fmax(1.0, span);
}

static double gap(const hta_report *r, double span)
{
    if (!r->has_lower_bound || r->lower_bound <= 0)
        return NAN;
    double g = (span - r->lower_bound) / r->lower_bound;
    return g < 1e-9 ? 0.0 : g;
}

static void describe_wrem(const hta_instance *inst, char *buf, size_t size)
{
    char x[32], y[32];
    if (inst->wrem.kind == HTA_WREM_AFFINE) {
        hta_format_real(x, inst->wrem.a);
        hta_format_real(y, inst->wrem.b);
        snprintf(buf, size, "%s + %s*r", x, y);
        return;
    }
    hta_format_real(x, inst->wrem.v[0]);
    if (inst->wrem.k == 0) {
        snprintf(buf, size, "%s", x);
        return;
    }
    hta_format_real(y, inst->wrem.v[inst->wrem.k]);
    snprintf(buf, size, "table %s..%s (%lld entries)", x, y,
             (long long)inst->wrem.k + 1);
}

void hta_report_text(const hta_report *r, FILE *f)
{
    const hta_instance *inst = r->inst;
    char buf[160], x[32];
    describe_wrem(inst, buf, sizeof buf);
    hta_format_real(x, inst->w_loc);
    fprintf(f, "instance %s: %ld tasks, %ld servers, %lld replicas, "
               "w_loc %s, w_rem %s\n",
            r->path, (long)inst->m, (long)inst->n, (long long)inst->edges, x,
            buf);
    fprintf(f, "%-10s %-11s %12s %9s %9s %9s %9s  %s\n", "algorithm",
            "status", "makespan", "local", "remote", "gap", "seconds",
            "note");
    for (int i = 0; i < r->nrows; i++) {
        const hta_row *row = &r->rows[i];
        if (row->has_value) {
            double g = gap(r, row->makespan);
            char gs[32];
            if (isnan(g))
                snprintf(gs, sizeof gs, "-");
            else
                snprintf(gs, sizeof gs, "%.2f%%", 100.0 * g);
            hta_format_real(x, row->makespan);
            fprintf(f, "%-10s %-11s %12s %9lld %9lld %9s %9.3f  %s\n",
                    row->algorithm, row->status, x, (long long)row->local,
                    (long long)row->remote, gs, row->seconds, row->note);
        } else {
            fprintf(f, "%-10s %-11s %12s %9s %9s %9s %9.3f  %s\n",
                    row->algorithm, row->status, "-", "-", "-", "-",
                    row->seconds, row->note);
        }
    }
    if (r->has_lower_bound) {
        hta_format_real(x, r->lower_bound);
        fprintf(f, "lower bound %s (%s)\n", x, r->bound_source);
    } else {
        fprintf(f, "lower bound none\n");
    }
    if (r->has_guarantee) {
        hta_format_real(x, r->guarantee);
        fprintf(f, "guarantee fsy <= L^O + %s (Theorem 5.4: (1 - 1/(n-1)) * "
                   "w_rem(m))\n",
                x);
    }
    int b = hta_report_best(r);
    if (b < 0) {
        fprintf(f, "best none\n");
        return;
    }
    hta_format_real(x, r->rows[b].makespan);
    if (hta_report_proven(r)) {
        fprintf(f, "best %s %s proven optimal\n", r->rows[b].algorithm, x);
    } else {
        double g = gap(r, r->rows[b].makespan);
        if (isnan(g))
            fprintf(f, "best %s %s\n", r->rows[b].algorithm, x);
        else
            fprintf(f, "best %s %s within %.2f%% of optimal\n",
                    r->rows[b].algorithm, x, 100.0 * g);
    }
}

void hta_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void hta_json_number(FILE *f, double x)
{
    char buf[32];
    if (!isfinite(x)) {
        fputs("null", f);
        return;
    }
    hta_format_real(buf, x);
    fputs(buf, f);
}

void hta_report_json(const hta_report *r, FILE *f)
{
    const hta_instance *inst = r->inst;
    fputs("{\"instance\": {\"path\": ", f);
    hta_json_string(f, r->path);
    fprintf(f, ", \"tasks\": %ld, \"servers\": %ld, \"edges\": %lld, "
               "\"w_loc\": ",
            (long)inst->m, (long)inst->n, (long long)inst->edges);
    hta_json_number(f, inst->w_loc);
    fputs("},\n \"lower_bound\": ", f);
    hta_json_number(f, r->has_lower_bound ? r->lower_bound : NAN);
    fputs(", \"lower_bound_source\": ", f);
    if (r->has_lower_bound)
        hta_json_string(f, r->bound_source);
    else
        fputs("null", f);
    fputs(", \"guarantee\": ", f);
    hta_json_number(f, r->has_guarantee ? r->guarantee : NAN);
    fputs(",\n \"results\": [", f);
    for (int i = 0; i < r->nrows; i++) {
        const hta_row *row = &r->rows[i];
        fputs(i ? ",\n  {" : "\n  {", f);
        fputs("\"algorithm\": ", f);
        hta_json_string(f, row->algorithm);
        fputs(", \"status\": ", f);
        hta_json_string(f, row->status);
        fputs(", \"makespan\": ", f);
        hta_json_number(f, row->has_value ? row->makespan : NAN);
        if (row->has_value)
            fprintf(f, ", \"local\": %lld, \"remote\": %lld",
                    (long long)row->local, (long long)row->remote);
        else
            fputs(", \"local\": null, \"remote\": null", f);
        fputs(", \"gap\": ", f);
        hta_json_number(f, row->has_value ? gap(r, row->makespan) : NAN);
        fputs(", \"seconds\": ", f);
        hta_json_number(f, row->seconds);
        fputs(", \"note\": ", f);
        hta_json_string(f, row->note);
        fputc('}', f);
    }
    fputs("],\n \"best\": ", f);
    int b = hta_report_best(r);
    if (b < 0) {
        fputs("null}\n", f);
        return;
    }
    fputs("{\"algorithm\": ", f);
    hta_json_string(f, r->rows[b].algorithm);
    fputs(", \"makespan\": ", f);
    hta_json_number(f, r->rows[b].makespan);
    fprintf(f, ", \"proven_optimal\": %s}}\n",
            hta_report_proven(r) ? "true" : "false");
}
