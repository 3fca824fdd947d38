/* The solve report: text and JSON renderings of the same rows. */
#include "report.h"

#include "hta/num.h"

#include "hta/levels.h"
#include "hta/solve.h"

#include <math.h>
#include <string.h>

static void describe_cost(const hta_wrem *w, char *buf, size_t size)
{
    char x[32], y[32];
    if (w->kind == HTA_WREM_AFFINE) {
        hta_format_real(x, w->a);
        hta_format_real(y, w->b);
        snprintf(buf, size, "%s + %s*r", x, y);
        return;
    }
    hta_format_real(x, w->v[0]);
    if (w->k == 0) {
        snprintf(buf, size, "%s", x);
        return;
    }
    hta_format_real(y, w->v[w->k]);
    snprintf(buf, size, "table %s..%s (%lld entries)", x, y,
             (long long)w->k + 1);
}

/* ", 3 levels (w_2 2, w_rem at level 3)" on N > 2 levels, else "". */
static void describe_levels(const hta_instance *inst, FILE *f)
{
    int N = hta_levels(inst);
    if (N <= 2)
        return;
    fprintf(f, ", %d levels (", N);
    for (int l = 2; l < N; l++) {
        char buf[160];
        describe_cost(&inst->wlev[l], buf, sizeof buf);
        fprintf(f, "w_%d %s, ", l, buf);
    }
    fprintf(f, "w_rem at level %d)", N);
}

/* "tasks per level 1..N: a/b/c; " before an N-level row's note. */
static void describe_counts(const hta_instance *inst, const hta_row *row,
                            FILE *f)
{
    int N = hta_levels(inst);
    if (N <= 2 || !row->has_value)
        return;
    fprintf(f, "per level %lld", (long long)row->count[0]);
    for (int l = 1; l < N; l++)
        fprintf(f, "/%lld", (long long)row->count[l]);
    fputs("; ", f);
}

void report_rows_text(const hta_solve_result *r, FILE *f)
{
    const hta_instance *inst = r->inst;
    char x[32];
    /* on N levels the tasks not local are rack-, pod- and remote ones
       (the note's "per level" splits them) */
    fprintf(f, "%-10s %-11s %12s %9s %9s %9s %9s  %s\n", "algorithm",
            "status", "makespan", "local",
            hta_levels(inst) > 2 ? "non-local" : "remote", "gap", "seconds",
            "note");
    for (int i = 0; i < r->nrows; i++) {
        const hta_row *row = &r->rows[i];
        if (row->has_value) {
            double g = hta_solve_gap(r, row->makespan);
            char gs[32];
            if (isnan(g))
                snprintf(gs, sizeof gs, "-");
            else
                snprintf(gs, sizeof gs, "%.2f%%", 100.0 * g);
            report_real(x, row->makespan);
            fprintf(f, "%-10s %-11s %12s %9lld %9lld %9s %9.3f  ",
                    row->algorithm, row->status, x, (long long)row->local,
                    (long long)row->remote, gs, row->seconds);
            describe_counts(inst, row, f);
            fprintf(f, "%s\n", row->note);
        } else {
            fprintf(f, "%-10s %-11s %12s %9s %9s %9s %9.3f  %s\n",
                    row->algorithm, row->status, "-", "-", "-", "-",
                    row->seconds, row->note);
        }
    }
}

void report_text(const hta_solve_result *r, const char *path, FILE *f)
{
    const hta_instance *inst = r->inst;
    char buf[160], x[32];
    describe_cost(&inst->wrem, buf, sizeof buf);
    hta_format_real(x, inst->w_loc);
    fprintf(f, "instance %s: %ld tasks, %ld servers, %lld replicas, "
               "w_loc %s, w_rem %s",
            path, (long)inst->m, (long)inst->n_declared, (long long)inst->edges, x,
            buf);
    describe_levels(inst, f);
    fputc('\n', f);
    report_rows_text(r, f);
    if (r->has_lower_bound) {
        report_real(x, r->lower_bound);
        fprintf(f, "lower bound %s (%s)\n", x, r->bound_source);
    } else {
        fprintf(f, "lower bound none\n");
    }
    if (r->has_guarantee) {
        report_real(x, r->guarantee);
        fprintf(f, "guarantee fsy <= L^O + %s (Theorem 5.4: (1 - 1/(n-1)) * "
                   "w_rem(m))\n",
                x);
    }
    int b = hta_solve_best_row(r);
    if (b < 0) {
        fprintf(f, "best none\n");
        return;
    }
    report_real(x, r->rows[b].makespan);
    if (hta_solve_proven(r)) {
        fprintf(f, "best %s %s proven optimal\n", r->rows[b].algorithm, x);
    } else {
        double g = hta_solve_gap(r, r->rows[b].makespan);
        if (isnan(g))
            fprintf(f, "best %s %s\n", r->rows[b].algorithm, x);
        else
            fprintf(f, "best %s %s within %.2f%% of optimal\n",
                    r->rows[b].algorithm, x, 100.0 * g);
    }
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes
 * there are not one (stray continuation, overlong, surrogate, > U+10FFFF,
 * cut short). */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, min = 0x10000;
    else
        return 0;
    unsigned cp = c & (0x3fu >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void json_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', f);
    while (*s) {
        unsigned char c = *s;
        int n = utf8_len(s);
        if (n == 0) {
            /* Not UTF-8 (a file name in another encoding): the JSON stays
             * valid, the byte becomes U+FFFD. */
            fputs("\\ufffd", f);
            s++;
        } else if (c == '"' || c == '\\') {
            fprintf(f, "\\%c", c);
            s++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04x", c);
            s++;
        } else {
            fwrite(s, 1, (size_t)n, f);
            s += n;
        }
    }
    fputc('"', f);
}

void report_real(char buf[32], double x)
{
    hta_format_figure(buf, x);
}

void json_number(FILE *f, double x)
{
    char buf[32];
    if (!isfinite(x)) {
        fputs("null", f);
        return;
    }
    hta_format_real(buf, x);
    fputs(buf, f);
}

void json_field(FILE *f, const char *name, double x)
{
    fprintf(f, ", \"%s\": ", name);
    json_number(f, x);
}

void report_rows_json(const hta_solve_result *r, FILE *f)
{
    const hta_instance *inst = r->inst;
    fputc('[', f);
    for (int i = 0; i < r->nrows; i++) {
        const hta_row *row = &r->rows[i];
        fputs(i ? ",\n  {" : "\n  {", f);
        fputs("\"algorithm\": ", f);
        json_string(f, row->algorithm);
        fputs(", \"status\": ", f);
        json_string(f, row->status);
        fputs(", \"makespan\": ", f);
        json_number(f, row->has_value ? row->makespan : NAN);
        if (row->has_value) {
            fprintf(f, ", \"local\": %lld, \"remote\": %lld",
                    (long long)row->local, (long long)row->remote);
            if (hta_levels(inst) > 2) {
                fputs(", \"per_level\": [", f);
                for (int l = 0; l < hta_levels(inst); l++)
                    fprintf(f, "%s%lld", l ? ", " : "",
                            (long long)row->count[l]);
                fputc(']', f);
            }
        } else
            fputs(", \"local\": null, \"remote\": null", f);
        fputs(", \"gap\": ", f);
        json_number(f, row->has_value ? hta_solve_gap(r, row->makespan) : NAN);
        fputs(", \"seconds\": ", f);
        json_number(f, row->seconds);
        fputs(", \"note\": ", f);
        json_string(f, row->note);
        fputc('}', f);
    }
    fputc(']', f);
}

void report_json(const hta_solve_result *r, const char *path, FILE *f)
{
    const hta_instance *inst = r->inst;
    fputs("{\"instance\": {\"path\": ", f);
    json_string(f, path);
    fprintf(f, ", \"tasks\": %ld, \"servers\": %ld, \"edges\": %lld, "
               "\"w_loc\": ",
            (long)inst->m, (long)inst->n_declared, (long long)inst->edges);
    json_number(f, inst->w_loc);
    if (hta_levels(inst) > 2)
        fprintf(f, ", \"levels\": %d", hta_levels(inst));
    fputs("},\n \"lower_bound\": ", f);
    json_number(f, r->has_lower_bound ? r->lower_bound : NAN);
    fputs(", \"lower_bound_source\": ", f);
    if (r->has_lower_bound)
        json_string(f, r->bound_source);
    else
        fputs("null", f);
    fputs(", \"guarantee\": ", f);
    json_number(f, r->has_guarantee ? r->guarantee : NAN);
    fputs(",\n \"results\": ", f);
    report_rows_json(r, f);
    fputs(",\n \"best\": ", f);
    int b = hta_solve_best_row(r);
    if (b < 0) {
        fprintf(f, "null,\n \"interrupted\": %s}\n",
                r->interrupted ? "true" : "false");
        return;
    }
    fputs("{\"algorithm\": ", f);
    json_string(f, r->rows[b].algorithm);
    fputs(", \"makespan\": ", f);
    json_number(f, r->rows[b].makespan);
    fprintf(f, ", \"proven_optimal\": %s},\n \"interrupted\": %s}\n",
            hta_solve_proven(r) ? "true" : "false",
            r->interrupted ? "true" : "false");
}
