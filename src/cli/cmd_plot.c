/* hta plot: a sweep's chart redrawn from the CSV files of `hta sim`,
 * `hta flowtime` or `hta reduce-place` --csv, one file or the parts of a
 * sweep split by load over hosts (issue 69).
 *
 * Data flow: each file's header names its command (every file the same
 * header); its rows are read into runs of consecutive rows with one load
 * (a point: the rows of one load's policies, as the command writes
 * them), the points of every file sorted by load (stable: two equal
 * loads keep their order, as flowtime's loads of one machine count do),
 * the series the policies in their first order, and the chart is the
 * command's own (chart.h), point for point: the same series, values,
 * intervals, hollow points, dashes and capacity boundary as the whole
 * sweep's --plot.  Only the words the CSV does not carry differ: the
 * title and subtitle (the input's path, the seed), and sim's y label
 * (slots or time units). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/num.h"
#include "chart.h"
#include "cli.h"

static const cli_opt opts[] = {
    {"output", 'o', OPT_OUT, 0, 0, 0, 0, 0, NULL, 0, "FILE.svg",
     "the chart (required; '-': standard output)"},
};

static const cli_spec spec = {
    "plot", "CSV... -o FILE.svg",
    "Redraws the chart of a sweep from the CSV files of hta sim, hta\n"
    "flowtime or hta reduce-place --csv: one file, or the parts of a sweep\n"
    "split by load over hosts (GNU parallel, a Slurm job array), in any\n"
    "order.  The chart is the one --plot draws for the whole sweep: the\n"
    "same series, values, intervals, hollow points and capacity boundary\n"
    "(the title and subtitle say less: the CSV does not carry the input's\n"
    "path or the seed).  Every file has the same header; a row that is\n"
    "not its command's, or a policy twice at one load, is an error naming\n"
    "its line.\n",
    opts, (int)(sizeof opts / sizeof opts[0]), 1, CLI_MAX_POS, NULL};

#define MAX_LINE 65536
#define MAX_FIELDS 32
#define MAX_SERIES 64
#define MAX_POINTS 65536

typedef enum kind { K_SIM, K_FLOWTIME, K_RPLACE } kind;

/* One row, as the chart needs it. */
typedef struct row {
    double x, y, ci, rho, lb, total;
    int series, hollow, file;
    long line;
} row;

typedef struct point {
    double x;
    size_t first, n; /* rows[first .. first + n) */
    int file;
} point;

typedef struct reader {
    const char *path;
    FILE *f;
    long line;
    char buf[MAX_LINE + 2];
} reader;

typedef struct plot {
    kind k;
    char header[MAX_LINE + 2];
    int nfields;
    int col[8]; /* the fields the chart reads, by kind */
    row *rows;
    size_t nrows, cap;
    char *names[MAX_SERIES];
    int nseries;
    hta_diag *d;
    hta_status st; /* of the diagnostic set in d */
} plot;

/* The next line of r into r->buf (no line end); 0 at the end, -1 on an
 * error (set in d). */
static int next_line(plot *p, reader *r)
{
    hta_diag *d = p->d;
    size_t n = 0;
    int c;
    while ((c = getc(r->f)) != EOF && c != '\n') {
        if (c == '\0' || n == MAX_LINE) {
            p->st = hta_diag_set(d, HTA_ERR_INPUT, r->path, r->line + 1,
                         c ? "expected a line of at most %d bytes, found "
                             "more" :
                             "expected text, found a NUL byte",
                         MAX_LINE);
            return -1;
        }
        r->buf[n++] = (char)c;
    }
    if (ferror(r->f)) {
        p->st = hta_diag_errno(d, r->path, "read error", errno);
        return -1;
    }
    if (c == EOF && n == 0)
        return 0;
    if (n && r->buf[n - 1] == '\r')
        n--;
    r->buf[n] = '\0';
    r->line++;
    return 1;
}

/* The fields of line (cut in place at the commas); their count, or -1
 * past MAX_FIELDS. */
static int split(char *line, char *field[MAX_FIELDS])
{
    int n = 0;
    for (char *p = line;;) {
        if (n == MAX_FIELDS)
            return -1;
        field[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            return n;
        *c = '\0';
        p = c + 1;
    }
}

static const char *const sim_tail[] = {"little_gap", "verdict", "job_delay",
                                       "job_delay_ci", "slots", "cut"};

/* The command whose --csv header line is, and the columns read; 0 when
 * it is none of theirs. */
static int kind_of(plot *p, const char *line)
{
    char copy[MAX_LINE + 2], *f[MAX_FIELDS];
    snprintf(copy, sizeof copy, "%s", line);
    int n = split(copy, f);
    if (n < 0)
        return 0;
    p->nfields = n;
    if (strcmp(line, "load,load_asked,machines,policy,total_flow,mean_flow,"
                     "lower_bound,ratio_srpt,ratio_lb,ratio_exact,status,"
                     "seconds") == 0) {
        p->k = K_FLOWTIME; /* x, policy, y, lb, total, status */
        int c[] = {0, 3, 5, 6, 4, 10};
        memcpy(p->col, c, sizeof c);
        return 1;
    }
    if (strcmp(line, "lambda,policy,cost,cost_ci,vs_random,vs_random_ci,"
                     "vs_greedy,vs_greedy_ci,mean_rank,number,number_ci,"
                     "jobs,cut") == 0) {
        p->k = K_RPLACE; /* x, policy, y, ci */
        int c[] = {0, 1, 2, 3};
        memcpy(p->col, c, sizeof c);
        return 1;
    }
    /* sim: load,rho,policy,delay,delay_ci,number,number_ci,throughput,
       utilisation,level_1..level_N,little_gap,...,cut */
    static const char *const head[] = {"load",      "rho",
                                       "policy",    "delay",
                                       "delay_ci",  "number",
                                       "number_ci", "throughput",
                                       "utilisation"};
    int levels = n - 9 - 6;
    if (levels < 2 || levels > 8)
        return 0;
    for (int i = 0; i < 9; i++)
        if (strcmp(f[i], head[i]) != 0)
            return 0;
    for (int l = 0; l < levels; l++) {
        char want[24];
        snprintf(want, sizeof want, "level_%d", l + 1);
        if (strcmp(f[9 + l], want) != 0)
            return 0;
    }
    for (int i = 0; i < 6; i++)
        if (strcmp(f[9 + levels + i], sim_tail[i]) != 0)
            return 0;
    p->k = K_SIM; /* x, policy, y, ci, rho, verdict */
    int c[] = {0, 2, 3, 4, 1, 10 + levels};
    memcpy(p->col, c, sizeof c);
    return 1;
}

/* A number field (empty: NaN, as the writer leaves a value not
 * measured). */
static int number(plot *p, const reader *r, const char *what,
                  const char *tok, double *out)
{
    if (!*tok) {
        *out = NAN;
        return 1;
    }
    if (hta_num_real(tok, out) == HTA_NUM_OK)
        return 1;
    char q[64];
    p->st = hta_diag_set(p->d, HTA_ERR_INPUT, r->path, r->line,
                         "expected %s, found '%s'", what,
                         hta_lex_quote(tok, q));
    return 0;
}

static int series_of(plot *p, const reader *r, const char *name)
{
    for (int s = 0; s < p->nseries; s++)
        if (strcmp(p->names[s], name) == 0)
            return s;
    char q[64];
    if (!*name) {
        p->st = hta_diag_set(p->d, HTA_ERR_INPUT, r->path, r->line,
                             "expected a policy name, found ''");
        return -1;
    }
    if (p->nseries == MAX_SERIES) {
        p->st = hta_diag_set(p->d, HTA_ERR_INPUT, r->path, r->line,
                             "expected at most %d policies, found '%s'",
                             MAX_SERIES, hta_lex_quote(name, q));
        return -1;
    }
    if (!(p->names[p->nseries] = strdup(name))) {
        p->st = hta_diag_set(p->d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        return -1;
    }
    return p->nseries++;
}

/* One data line of r into p->rows. */
static int read_row(plot *p, reader *r, int file)
{
    char *f[MAX_FIELDS];
    int n = split(r->buf, f);
    if (n != p->nfields) {
        p->st = hta_diag_set(p->d, HTA_ERR_INPUT, r->path, r->line,
                     "expected %d fields as the header has, found %d",
                     p->nfields, n < 0 ? MAX_FIELDS + 1 : n);
        return 0;
    }
    if (p->nrows == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        row *g = realloc(p->rows, cap * sizeof *g);
        if (!g) {
            p->st = hta_diag_set(p->d, HTA_ERR_INTERNAL, NULL, 0,
                                 "out of memory");
            return 0;
        }
        p->rows = g;
        p->cap = cap;
    }
    row *w = &p->rows[p->nrows];
    memset(w, 0, sizeof *w);
    w->ci = w->rho = w->lb = w->total = NAN;
    w->file = file;
    w->line = r->line;
    const int *c = p->col;
    /* the commands' ranges: --sweep's (0, 1e6] */
    const char *xw = p->k == K_RPLACE ? "a rate lambda in (0, 1e6]" :
                                        "a load in (0, 1e6]";
    if (!number(p, r, xw, f[c[0]], &w->x))
        return 0;
    if (!(w->x > 0 && w->x <= 1e6)) {
        char q[64];
        p->st = hta_diag_set(p->d, HTA_ERR_INPUT, r->path, r->line,
                     "expected %s, found '%s'", xw, hta_lex_quote(f[c[0]], q));
        return 0;
    }
    if ((w->series = series_of(p, r, f[c[1]])) < 0 ||
        !number(p, r, "a number", f[c[2]], &w->y))
        return 0;
    if (p->k == K_SIM) {
        const char *v = f[c[5]];
        if (!number(p, r, "a half-width", f[c[3]], &w->ci) ||
            !number(p, r, "rho", f[c[4]], &w->rho))
            return 0;
        w->hollow = strcmp(v, "growing") == 0 || strcmp(v, "unstable") == 0;
    } else if (p->k == K_FLOWTIME) {
        if (!number(p, r, "a lower bound", f[c[3]], &w->lb) ||
            !number(p, r, "a total flow time", f[c[4]], &w->total))
            return 0;
        const char *st = f[c[5]];
        w->hollow = strcmp(p->names[w->series], "exact") == 0 ?
                        strcmp(st, "optimal") != 0 :
                        strcmp(st, "interrupted") == 0;
    } else if (!number(p, r, "a half-width", f[c[3]], &w->ci)) {
        return 0;
    }
    p->nrows++;
    return 1;
}

static int read_file(plot *p, const char *path, int file)
{
    reader *r = malloc(sizeof *r);
    if (!r) {
        p->st = hta_diag_set(p->d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        return 0;
    }
    r->path = path;
    r->line = 0;
    r->f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    int ok = 0, got;
    if (!r->f) {
        p->st = hta_diag_errno(p->d, path, "cannot open", errno);
        free(r);
        return 0;
    }
    if ((got = next_line(p, r)) == 0)
        p->st = hta_diag_set(p->d, HTA_ERR_INPUT, path, 1,
                     "expected the header of hta sim, flowtime or "
                     "reduce-place --csv, found the end of the file");
    else if (got > 0 && file == 0 && !kind_of(p, r->buf)) {
        char q[64];
        p->st = hta_diag_set(p->d, HTA_ERR_INPUT, path, 1,
                     "expected the header of hta sim, flowtime or "
                     "reduce-place --csv, found '%s'",
                     hta_lex_quote(r->buf, q));
    } else if (got > 0 && file == 0) {
        snprintf(p->header, sizeof p->header, "%s", r->buf);
        ok = 1;
    } else if (got > 0 && strcmp(r->buf, p->header) != 0) {
        char q[64];
        p->st = hta_diag_set(p->d, HTA_ERR_INPUT, path, 1,
                     "expected the first file's header, found '%s'",
                     hta_lex_quote(r->buf, q));
    } else {
        ok = got > 0;
    }
    while (ok && (got = next_line(p, r)) > 0)
        ok = read_row(p, r, file);
    ok = ok && got == 0;
    if (ok && p->nrows == 0)
        ok = 0, p->st = hta_diag_set(p->d, HTA_ERR_INPUT, path, r->line + 1,
                             "expected a row, found the end of the file");
    if (r->f != stdin)
        fclose(r->f);
    free(r);
    return ok;
}

static int by_x(const void *a, const void *b)
{
    const point *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->file != q->file)
        return p->file < q->file ? -1 : 1;
    return p->first < q->first ? -1 : p->first > q->first;
}

/* The points: runs of rows of one file and one load, sorted. */
static point *points_of(plot *p, size_t *np, const char *const *paths)
{
    point *pt = malloc(p->nrows * sizeof *pt);
    if (!pt) {
        p->st = hta_diag_set(p->d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < p->nrows; i++) {
        const row *w = &p->rows[i];
        int again = 0; /* w's policy is in the run already */
        for (size_t j = n ? pt[n - 1].first : i; j < i && !again; j++)
            again = p->rows[j].series == w->series;
        /* flowtime: two loads asked may give one machine count, whose
           rows follow each other: a second point */
        if (n && pt[n - 1].file == w->file && pt[n - 1].x == w->x &&
            !(again && p->k == K_FLOWTIME)) {
            /* a policy once a point */
            for (size_t j = pt[n - 1].first; j < i; j++)
                if (p->rows[j].series == w->series) {
                    char q[64], xs[32];
                    hta_format_real(xs, w->x);
                    p->st = hta_diag_set(p->d, HTA_ERR_INPUT, paths[w->file],
                                         w->line,
                                         "expected each policy once at %s "
                                         "%s, found '%s' again (line %ld)",
                                         p->k == K_RPLACE ? "rate" : "load",
                                         xs,
                                         hta_lex_quote(p->names[w->series],
                                                       q),
                                         p->rows[j].line);
                    free(pt);
                    return NULL;
                }
            pt[n - 1].n++;
            continue;
        }
        if (n == MAX_POINTS) {
            p->st = hta_diag_set(p->d, HTA_ERR_INPUT, paths[w->file], w->line,
                         "expected at most %d loads, found more", MAX_POINTS);
            free(pt);
            return NULL;
        }
        pt[n++] = (point){w->x, i, 1, w->file};
    }
    qsort(pt, n, sizeof *pt, by_x);
    /* a load once (a part given twice, or parts that overlap); flowtime's
       loads are machine counts', two asked loads may give one */
    for (size_t k = 1; p->k != K_FLOWTIME && k < n; k++)
        if (pt[k].x == pt[k - 1].x) { /* sorted: pt[k - 1] came first */
            const row *first = &p->rows[pt[k - 1].first],
                      *later = &p->rows[pt[k].first];
            char xs[32];
            hta_format_real(xs, later->x);
            p->st = hta_diag_set(p->d, HTA_ERR_INPUT, paths[later->file],
                                 later->line,
                                 "expected each %s once, found %s again "
                                 "(first at %s:%ld)",
                                 p->k == K_RPLACE ? "rate" : "load", xs,
                                 paths[first->file], first->line);
            free(pt);
            return NULL;
        }
    *np = n;
    return pt;
}

/* The chart's arrays from the points, as the command fills its own. */
static hta_status draw(plot *p, const point *pt, size_t npts,
                       const char *out, const char *const *paths, int nfiles)
{
    int ns = p->nseries, lb_s = -1, exact_s = -1;
    const char *names[MAX_SERIES + 1];
    int order[MAX_SERIES + 1]; /* chart series -> the rows' series */
    unsigned char dashed[MAX_SERIES + 1] = {0};
    int nchart = 0;
    if (p->k == K_FLOWTIME) { /* the policies, exact, the lower bound */
        for (int s = 0; s < ns; s++)
            if (strcmp(p->names[s], "exact") != 0) {
                dashed[nchart] = strcmp(p->names[s], "srpt") == 0;
                order[nchart++] = s;
            } else {
                exact_s = s;
            }
        if (exact_s >= 0)
            order[nchart++] = exact_s;
        lb_s = nchart;
        dashed[nchart] = 1;
        order[nchart++] = -1;
    } else {
        for (int s = 0; s < ns; s++)
            order[nchart++] = s;
    }
    int where[MAX_SERIES];
    for (int s = 0; s < nchart; s++) {
        names[s] = order[s] >= 0 ? p->names[order[s]] : "lower bound";
        if (order[s] >= 0)
            where[order[s]] = s;
    }
    size_t cells = (size_t)nchart * npts;
    double *x = malloc(npts * sizeof *x), *y = malloc(cells * sizeof *y),
           *ci = malloc(cells * sizeof *ci);
    unsigned char *hollow = calloc(cells, 1);
    hta_status st = HTA_OK;
    double boundary = NAN;
    if (!x || !y || !ci || !hollow)
        st = hta_diag_set(p->d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    for (size_t k = 0; st == HTA_OK && k < cells; k++)
        y[k] = ci[k] = NAN;
    for (size_t k = 0; st == HTA_OK && k < npts; k++) {
        x[k] = pt[k].x;
        for (size_t i = pt[k].first; i < pt[k].first + pt[k].n; i++) {
            const row *w = &p->rows[i];
            size_t at = (size_t)where[w->series] * npts + k;
            y[at] = w->y;
            ci[at] = w->ci;
            hollow[at] = (unsigned char)w->hollow;
            if (p->k == K_SIM && w->rho > 0 && !isfinite(boundary))
                boundary = x[k] / w->rho; /* the first load's, as sim */
            if (p->k == K_FLOWTIME && lb_s >= 0 && w->total > 0 &&
                w->y > 0) /* its lower bound per job, as flowtime */
                y[(size_t)lb_s * npts + k] =
                    w->lb / (double)llround(w->total / w->y);
        }
    }
    char sub[300];
    snprintf(sub, sizeof sub, "from %s%s (%d CSV file%s)", paths[0],
             nfiles > 1 ? ", ..." : "", nfiles, nfiles > 1 ? "s" : "");
    static const char *const titles[] = {
        "hta sim: mean task delay against the load",
        "hta flowtime: mean flow time against the load",
        "hta reduce-place: cost per job against the arrival rate"};
    hta_chart ch = {titles[p->k], sub, NULL, NULL, nchart,
                    (int)npts, names, NULL, x, y, NULL, NULL, NULL, NAN,
                    NULL};
    if (p->k == K_SIM) {
        ch.xlabel = "load (--load: every arrival rate times X)";
        ch.ylabel = "mean task delay (slots)";
        ch.ci = ci;
        ch.hollow = hollow;
        ch.hollow_means = "still growing or ended unstable";
        ch.mark_x = boundary;
        ch.mark_label = "capacity boundary rho* = 1";
    } else if (p->k == K_FLOWTIME) {
        ch.xlabel = "load (the trace's work over machines times span)";
        ch.ylabel = "mean flow time (slots)";
        ch.dashed = dashed;
        ch.hollow = hollow;
        ch.hollow_means = "cut short, or exact not proven optimal";
    } else {
        ch.xlabel = "lambda (jobs per unit time, mu = 1)";
        ch.ylabel = "mean fetching cost per job";
        ch.ci = ci;
    }
    cli_figout fo = {0};
    if (st == HTA_OK && (st = cli_figout_open(&fo, out, NULL, p->d)) ==
                            HTA_OK) {
        cli_output_phase();
        st = cli_figout_commit(&fo, &ch, p->d);
        cli_figout_abort(&fo);
    }
    free(x);
    free(y);
    free(ci);
    free(hollow);
    return st;
}

int cmd_plot(int argc, char **argv)
{
    cli_args args;
    int code = 0;
    if (!cli_parse(&args, &spec, argc, argv, &code))
        return code;
    const char *out = cli_str(&args, "output");
    if (!out)
        return cli_usage_error(&args, "expected -o FILE.svg, the chart");
    const char *outs[1] = {out};
    if ((code = cli_check_outputs(&args, outs, 1, args.pos, args.npos)) != 0)
        return code;
    cli_catch_signals();
    hta_diag d;
    hta_diag_clear(&d);
    plot *p = calloc(1, sizeof *p);
    if (!p) {
        hta_diag_set(&d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        return cli_report(HTA_ERR_INTERNAL, &d);
    }
    p->d = &d;
    hta_status st = HTA_OK;
    for (int i = 0; i < args.npos && st == HTA_OK; i++)
        if (!read_file(p, args.pos[i], i))
            st = p->st;
    size_t npts = 0;
    point *pt = st == HTA_OK ? points_of(p, &npts, args.pos) : NULL;
    if (st == HTA_OK && !pt)
        st = p->st;
    if (st == HTA_OK)
        st = draw(p, pt, npts, out, args.pos, args.npos);
    code = st == HTA_OK ? 0 : cli_report(st, &d);
    free(pt);
    for (int s = 0; s < p->nseries; s++)
        free(p->names[s]);
    free(p->rows);
    free(p);
    return code;
}
