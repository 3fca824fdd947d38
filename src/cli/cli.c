/* Command-line layer: option tables, checks, help, messages, stdout
 * (signals: signals.c). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "hta/jobs.h"
#include "hta/num.h"
#include "hta/outfile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

hta_progress_fn cli_progress_fn(int quiet)
{
    return !quiet && isatty(STDERR_FILENO) ? cli_progress_print : NULL;
}

void cli_progress_print(void *ctx, const hta_progress *p)
{
    cli_progress *c = ctx;
    double now = hta_clock_now();
    if (c->shown && now - c->last < 0.25)
        return;
    c->last = now;
    c->shown = 1;
    char b[32];
    fprintf(stderr, "\r\033[K%s: %.1f s", p->phase, p->elapsed);
    if (isfinite(p->best)) {
        hta_format_real(b, p->best);
        fprintf(stderr, ", best %s", b);
    }
    if (isfinite(p->bound)) {
        hta_format_real(b, p->bound);
        fprintf(stderr, ", bound %s", b);
    }
    if (p->count >= 0)
        fprintf(stderr, ", %s %lld",
                strcmp(p->phase, "ilp") == 0 ? "nodes" :
                strcmp(p->phase, "fsy") == 0 ? "tau" :
                strstr(p->phase, "LP")       ? "rows" :
                                               "step",
                (long long)p->count);
    fflush(stderr);
}

void cli_progress_end(cli_progress *c)
{
    if (c->shown)
        fputs("\r\033[K", stderr);
    c->shown = 0;
}

int cli_interrupt_code(void)
{
    return 128 + (int)cli_interrupted;
}

int cli_finish_stdout(int code)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int err = errno;
    if (!bad)
        return code;
    fprintf(stderr, "<stdout>: error: write error: %s\n", strerror(err));
    return code ? code : HTA_ERR_IO;
}

/* ---- messages --------------------------------------------------------- */

/* A path or a policy's words may hold control bytes: they never reach
 * the terminal (an escape sequence, a forged line), '?' instead. */
static void no_controls(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
            *s = '?';
}

int cli_usage_error(const cli_args *a, const char *fmt, ...)
{
    va_list ap;
    char msg[1200];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    no_controls(msg); /* an option's value, a path: as cli_report */
    fprintf(stderr, "hta %s: %s (usage: 'hta %s --help')\n", a->spec->name,
            msg, a->spec->name);
    return HTA_ERR_USAGE;
}

/* A line of hdfs fsck's report that Hadoop 3 may start with (no
 * "Connecting to namenode" header): a file's "<path> <size> bytes, ...
 * <N> block(s):" or a block's "<k>. <pool>:blk_...". */
static int fsck_line(const char *line)
{
    if (strstr(line, " bytes, ") && strstr(line, " block(s):"))
        return 1;
    const char *p = line;
    while (*p >= '0' && *p <= '9')
        p++;
    return p > line && p[0] == '.' && p[1] == ' ' && strstr(p, ":blk_");
}

/* What a file that one reader refused at its top is, from its first
 * 64 KiB, and the command that reads it; NULL when it says nothing. */
static const char *file_kind(const char *path, const char **cmd)
{
    static const struct {
        const char *magic, *what, *cmd;
    } kinds[] = {
        {"hta-instance", "an instance", "hta solve and hta eval read it"},
        {"hta-cluster", "a cluster", "hta capacity and hta sim read it"},
        {"hta-assignment", "an assignment",
         "hta eval INSTANCE ASSIGNMENT reads it, the instance first"},
        {"hta-jobs", "a job trace", "hta flowtime reads it"},
        {"hta-slots", "a slots file", "hta reduce-place reads it"},
    };
    struct stat sb;
    FILE *f = stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? fopen(path, "r") :
                                                           NULL;
    if (!f)
        return NULL;
    char line[4096];
    const char *kind = NULL;
    for (int n = 0; !kind && n < 64 && fgets(line, sizeof line, f); n++) {
        if (strstr(line, "Connecting to namenode") ||
            strstr(line, "FSCK started by") ||
            strstr(line, "Status: HEALTHY") || strstr(line, "Status: CORRUPT") ||
            fsck_line(line)) {
            kind = "raw 'hdfs fsck' output";
            *cmd = "'hta import fsck FILE -o INSTANCE' makes an instance of it";
        } else if (strncmp(line, "p cnf", 5) == 0) {
            kind = "a DIMACS CNF formula";
            *cmd = "'hta gen sat FILE' makes its instance (FSY's reduction)";
        } else if (strncmp(line, "job", 3) == 0 && strchr(line, '\t')) {
            kind = "a SWIM trace";
            *cmd = "'hta import swim FILE -o JOBS' makes a job trace of it; "
                   "hta sim and hta reduce-place take it as --jobs-trace";
        } else if (line[0] != '#' && line[0] != '\n' &&
                   !(line[0] == 'c' && (line[1] == ' ' || line[1] == '\n'))) {
            for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
                if (strncmp(line, kinds[k].magic, strlen(kinds[k].magic)) ==
                    0) {
                    kind = kinds[k].what;
                    *cmd = kinds[k].cmd;
                }
            if (!kind)
                break; /* the first line of data says nothing we know */
        }
    }
    fclose(f);
    return kind;
}

int cli_report(hta_status st, const hta_diag *d)
{
    char buf[800];
    hta_diag_format(d, buf, sizeof buf);
    no_controls(buf);
    fprintf(stderr, "%s\n", buf);
    /* a file of another kind than the reader's: say what it is and what
       reads it */
    const char *cmd = NULL, *kind = NULL;
    if (st == HTA_ERR_INPUT && d->path && d->line <= 64 &&
        (strstr(d->msg, "expected the magic") ||
         strstr(d->msg, "expected a 'hta-") ||
         strstr(d->msg, "expected 'hta-")) &&
        (kind = file_kind(d->path, &cmd)) != NULL)
    {
        char at[512];
        snprintf(at, sizeof at, "%s", d->path);
        no_controls(at);
        fprintf(stderr, "%s: note: this is %s: %s\n", at, kind, cmd);
    }
    return (int)st;
}

/* ---- the table -------------------------------------------------------- */

/* The edit distance of a and b (at most 64 bytes each), insertions,
 * deletions, substitutions and swaps of neighbours costing one. */
static int distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return 99;
    int d[65][65];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

const char *cli_nearest(const cli_spec *s, const char *name)
{
    char key[65];
    size_t len = strcspn(name, "=");
    if (len > 64)
        return NULL;
    memcpy(key, name, len);
    key[len] = '\0';
    const char *best = NULL, *prefix = NULL;
    int bd = 99, ties = 0, nprefix = 0;
    for (int i = 0; i < s->nopts; i++)
        nprefix += len >= 3 && strncmp(s->opts[i].name, key, len) == 0;
    for (int i = 0; i < s->nopts; i++) {
        const char *o = s->opts[i].name;
        int is_prefix = len >= 3 && strncmp(o, key, len) == 0;
        if (is_prefix)
            prefix = o;
        else if (nprefix > 1)
            continue; /* the nearest of the options it begins */
        int dd = distance(key, o);
        if (dd < bd) {
            bd = dd;
            best = o;
            ties = 0;
        } else if (dd == bd) {
            ties++;
        }
    }
    if (nprefix == 1) /* a prefix of exactly one option */
        return prefix;
    int most = (int)(len + 2) / 3; /* else a third of its length in edits */
    return best && !ties && bd <= (most < 1 ? 1 : most) ? best : NULL;
}

static int find(const cli_spec *s, const char *name, size_t len)
{
    for (int i = 0; i < s->nopts; i++)
        if (strlen(s->opts[i].name) == len &&
            strncmp(s->opts[i].name, name, len) == 0)
            return i;
    return -1;
}

const cli_val *cli_value(const cli_args *a, const char *name)
{
    int i = find(a->spec, name, strlen(name));
    if (i < 0) {
        /* A programming error: the name is not in the command's table. */
        fprintf(stderr, "hta: internal error: option --%s undeclared\n",
                name);
        abort();
    }
    return &a->v[i];
}

int cli_has(const cli_args *a, const char *name)
{
    return cli_value(a, name)->given;
}

const char *cli_str(const cli_args *a, const char *name)
{
    const cli_val *v = cli_value(a, name);
    return v->given ? v->raw : NULL;
}

/* Index of s[0..len) among "a|b|c", or -1. */
static int choice(const char *choices, const char *s, size_t len)
{
    int i = 0;
    for (const char *p = choices;; i++) {
        size_t l = strcspn(p, "|");
        if (l == len && strncmp(p, s, len) == 0)
            return i;
        if (!p[l])
            return -1;
        p += l + 1;
    }
}

/* "a, b or c" from "a|b|c". */
static void choice_list(const char *choices, char *buf, size_t size)
{
    size_t n = 0;
    int count = 1;
    for (const char *p = choices; *p; p++)
        count += *p == '|';
    int i = 0;
    for (const char *p = choices; n + 1 < size; i++) {
        size_t l = strcspn(p, "|");
        n += (size_t)snprintf(buf + n, size - n, "%s%.*s",
                              i == 0 ? "" : i == count - 1 ? " or " : ", ",
                              (int)l, p);
        if (!p[l] || n >= size)
            break;
        p += l + 1;
    }
}

/* An integer option's upper bound: a hi of CLI_INT64_MAX or more means
 * INT64_MAX (a double cannot hold it). */
static int64_t int_hi(const cli_opt *o)
{
    return o->hi >= CLI_INT64_MAX ? INT64_MAX : (int64_t)o->hi;
}

static void range_text(const cli_opt *o, char *buf, size_t size)
{
    char lo[32], hi[32];
    if (o->kind == OPT_INT || o->kind == OPT_INTS) {
        snprintf(lo, sizeof lo, "%.0f", o->lo);
        snprintf(hi, sizeof hi, "%lld", (long long)int_hi(o));
        snprintf(buf, size, "an integer in [%s, %s]", lo, hi);
        return;
    }
    hta_format_real(lo, o->lo); /* the upper limit too, always */
    hta_format_real(hi, o->hi);
    snprintf(buf, size, "a number in %s%s, %s%s",
             o->flags & OPT_OPEN_LO ? "(" : "[", lo, hi,
             o->flags & OPT_OPEN_HI ? ")" : "]");
}

/* Checks one number against o's range. */
static int in_range(const cli_opt *o, double x)
{
    if (o->flags & OPT_OPEN_LO ? !(x > o->lo) : !(x >= o->lo))
        return 0;
    return o->flags & OPT_OPEN_HI ? x < o->hi : x <= o->hi;
}

static int bad_value(const cli_args *a, const cli_opt *o, const char *raw)
{
    char what[240];
    switch (o->kind) {
    case OPT_INT:
    case OPT_REAL:
        range_text(o, what, sizeof what);
        break;
    case OPT_INTS:
    case OPT_REALS: {
        char r[100];
        range_text(o, r, sizeof r);
        if (o->min_items == o->max_items)
            snprintf(what, sizeof what, "%d comma-separated values, each %s",
                     o->min_items, r);
        else
            snprintf(what, sizeof what,
                     "%d to %d comma-separated values, each %s",
                     o->min_items, o->max_items, r);
        break;
    }
    case OPT_ENUM:
        snprintf(what, sizeof what, "one of ");
        choice_list(o->choices, what + 7, sizeof what - 7);
        break;
    case OPT_ENUMS:
        snprintf(what, sizeof what, "a list of distinct ");
        choice_list(o->choices, what + 19, sizeof what - 19);
        break;
    default:
        snprintf(what, sizeof what, "a file name");
        break;
    }
    char q[64];
    hta_lex_quote(raw, q);
    return cli_usage_error(a, "--%s expects %s, found '%s'", o->name, what,
                           q);
}

/* Parses and checks the value of option k. */
static int check_value(cli_args *a, int k)
{
    const cli_opt *o = &a->spec->opts[k];
    cli_val *v = &a->v[k];
    const char *s = v->raw;
    switch (o->kind) {
    case OPT_FLAG:
        return 1;
    case OPT_INT: {
        int64_t lo = (int64_t)o->lo, hi = int_hi(o);
        if (hta_num_int(s, lo, hi, &v->i) != HTA_NUM_OK)
            return bad_value(a, o, s), 0;
        return 1;
    }
    case OPT_REAL:
        if (hta_num_real(s, &v->x) != HTA_NUM_OK || !in_range(o, v->x))
            return bad_value(a, o, s), 0;
        return 1;
    case OPT_ENUM:
        if ((v->e = choice(o->choices, s, strlen(s))) < 0)
            return bad_value(a, o, s), 0;
        return 1;
    case OPT_ENUMS:
        v->n = 0;
        for (const char *p = s;;) {
            size_t l = strcspn(p, ",");
            int c = choice(o->choices, p, l);
            if (c < 0 || v->n >= CLI_MAX_LIST)
                return bad_value(a, o, s), 0;
            for (int j = 0; j < v->n; j++)
                if (v->items[j] == c)
                    return cli_usage_error(a, "--%s lists '%.*s' twice",
                                           o->name, (int)l, p),
                           0;
            v->items[v->n++] = c;
            if (!p[l])
                break;
            p += l + 1;
        }
        return 1;
    case OPT_REALS:
    case OPT_INTS:
        if (hta_num_real_list(s, v->list, o->max_items, &v->n) !=
                HTA_NUM_OK ||
            v->n < o->min_items)
            return bad_value(a, o, s), 0;
        for (int j = 0; j < v->n; j++) {
            if (!in_range(o, v->list[j]))
                return bad_value(a, o, s), 0;
            if (o->kind == OPT_INTS && v->list[j] != floor(v->list[j]))
                return bad_value(a, o, s), 0;
        }
        if (o->kind == OPT_INTS && strpbrk(s, ".eE+"))
            return bad_value(a, o, s), 0;
        return 1;
    case OPT_IN:
    case OPT_OUT:
        if (!*s)
            return bad_value(a, o, s), 0;
        return 1;
    case OPT_DIST: {
        hta_dist dist;
        char msg[300];
        if (hta_dist_parse(s, &dist, msg, sizeof msg) != 0) {
            char q[64];
            return cli_usage_error(a, "--%s expects %s, found '%s'",
                                   o->name, msg, hta_lex_quote(s, q)),
                   0;
        }
        return 1;
    }
    }
    return 1;
}

int cli_parse(cli_args *a, const cli_spec *spec, int argc, char **argv,
              int *exit_now)
{
    memset(a, 0, sizeof *a);
    a->spec = spec;
    cli_signals_args(a);
    int only_pos = 0;
    *exit_now = HTA_ERR_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_pos || arg[0] != '-' || arg[1] == '\0') {
            if (a->npos >= spec->max_pos || a->npos >= CLI_MAX_POS) {
                cli_usage_error(a, "unexpected argument '%s'", arg);
                return 0;
            }
            a->pos[a->npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            cli_help(spec, stdout);
            *exit_now = cli_finish_stdout(0);
            return 0;
        }
        int k = -1;
        const char *inline_val = NULL;
        if (arg[1] == '-') {
            const char *name = arg + 2, *eq = strchr(name, '=');
            k = find(spec, name, eq ? (size_t)(eq - name) : strlen(name));
            if (eq)
                inline_val = eq + 1;
        } else if (arg[2] == '\0') {
            for (int j = 0; j < spec->nopts; j++)
                if (spec->opts[j].short_name == arg[1])
                    k = j;
        }
        if (k < 0) {
            const char *near = arg[1] == '-' ? cli_nearest(spec, arg + 2) :
                                               NULL;
            if (near)
                cli_usage_error(a, "unknown option '%s'; did you mean "
                                   "'--%s'?",
                                arg, near);
            else
                cli_usage_error(a, "unknown option '%s'", arg);
            return 0;
        }
        const cli_opt *o = &spec->opts[k];
        if (a->v[k].given) {
            cli_usage_error(a, "option '--%s' given twice", o->name);
            return 0;
        }
        const char *val = "";
        if (o->kind == OPT_FLAG) {
            if (inline_val) {
                cli_usage_error(a, "option '--%s' takes no argument",
                                o->name);
                return 0;
            }
        } else if (inline_val) {
            val = inline_val;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            cli_usage_error(a, "option '%s' needs an argument", arg);
            return 0;
        }
        a->v[k].given = 1;
        a->v[k].raw = val;
    }
    /* Every value is checked before the command looks at any. */
    for (int k = 0; k < spec->nopts; k++)
        if (a->v[k].given && !check_value(a, k))
            return 0;
    if (a->npos < spec->min_pos) {
        cli_usage_error(a, "missing argument");
        return 0;
    }
    *exit_now = 0;
    return 1;
}

int cli_check_modes(const cli_args *a, unsigned active)
{
    const cli_spec *s = a->spec;
    for (int k = 0; k < s->nopts; k++) {
        const cli_opt *o = &s->opts[k];
        if (!a->v[k].given || !o->modes || (o->modes & active))
            continue;
        /* "A", "A or B", "A, B or C" */
        char buf[200];
        size_t n = 0;
        int count = 0, total = 0;
        for (int b = 0; b < 16; b++)
            total += (o->modes >> b) & 1u;
        for (int b = 0; b < 16 && n + 1 < sizeof buf; b++)
            if (o->modes & (1u << b)) {
                count++;
                n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
                                      count == 1       ? "" :
                                      count == total ? " or " :
                                                       ", ",
                                      s->mode_names[b]);
            }
        cli_usage_error(a, "--%s applies only to %s", o->name, buf);
        return 0;
    }
    return 1;
}

/* ---- help ------------------------------------------------------------- */

void cli_help(const cli_spec *s, FILE *f)
{
    fprintf(f, "usage: hta %s %s\n", s->name, s->usage);
    if (s->about)
        fprintf(f, "\n%s", s->about);
    if (s->nopts)
        fprintf(f, "\noptions:\n");
    for (int k = 0; k < s->nopts; k++) {
        const cli_opt *o = &s->opts[k];
        char left[64];
        snprintf(left, sizeof left, "%s%c%s--%s%s%s",
                 o->short_name ? "-" : "", o->short_name ? o->short_name : ' ',
                 o->short_name ? ", " : "  ", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        if (!o->short_name)
            memmove(left, left + 3, strlen(left + 3) + 1);
        const char *h = o->help;
        size_t l = strcspn(h, "\n");
        if (strlen(left) > 22)
            fprintf(f, "  %s\n  %-22s %.*s\n", left, "", (int)l, h);
        else
            fprintf(f, "  %-22s %.*s\n", left, (int)l, h);
        for (h += l; *h; h += l) {
            h++;
            l = strcspn(h, "\n");
            fprintf(f, "  %-22s %.*s\n", "", (int)l, h);
        }
    }
}

/* ---- costs ------------------------------------------------------------ */

int cli_costs(const cli_args *a, double *w_loc, hta_wrem *w, double **store)
{
    const cli_val *loc = cli_value(a, "w-loc"), *tab = cli_value(a, "w-rem"),
                  *aff = cli_value(a, "w-rem-affine");
    *store = NULL;
    memset(w, 0, sizeof *w);
    if (tab->given && aff->given)
        return cli_usage_error(a, "give --w-rem or --w-rem-affine, not both");
    *w_loc = loc->given ? loc->x : 1.0;
    if (aff->given) {
        w->kind = HTA_WREM_AFFINE;
        w->a = aff->list[0];
        w->b = aff->list[1];
        if (!(w->a >= *w_loc))
            return cli_usage_error(a, "--w-rem-affine: A must be >= w_loc "
                                      "(Definition 7), found '%s'",
                                   aff->raw);
        if (!(w->b >= 0))
            return cli_usage_error(a, "--w-rem-affine: B must be >= 0, "
                                      "found '%s'",
                                   aff->raw);
        return 0;
    }
    int n = tab->given ? tab->n : 1;
    double *v = malloc((size_t)n * sizeof *v);
    if (!v) {
        fprintf(stderr, "hta %s: out of memory\n", a->spec->name);
        return HTA_ERR_INTERNAL;
    }
    for (int i = 0; i < n; i++)
        v[i] = tab->given ? tab->list[i] : 3.0;
    for (int i = 0; i < n; i++)
        if ((i == 0 && !(v[0] >= *w_loc)) || (i > 0 && v[i] < v[i - 1])) {
            free(v);
            return (tab->given ?
                        cli_usage_error(a, "--w-rem must be non-decreasing "
                                           "and >= w_loc (Definition 7), "
                                           "found '%s'",
                                        tab->raw) :
                        cli_usage_error(a, "the default --w-rem 3 is below "
                                           "--w-loc %s: give --w-rem "
                                           "(Definition 7: w_rem >= w_loc)",
                                        loc->raw));
        }
    w->kind = HTA_WREM_TABLE;
    w->k = n - 1;
    w->v = v;
    *store = v;
    return 0;
}

/* One level's cost from options table (V[,V...]) or affine (A,B):
 * *given 0 when neither is. */
static int level_cost(const cli_args *a, const char *table,
                      const char *affine, hta_wrem *w, double **store,
                      int *given)
{
    const cli_val *tab = cli_value(a, table), *aff = cli_value(a, affine);
    memset(w, 0, sizeof *w);
    *store = NULL;
    *given = tab->given || aff->given;
    if (tab->given && aff->given)
        return cli_usage_error(a, "give --%s or --%s, not both", table,
                               affine);
    if (aff->given) {
        w->kind = HTA_WREM_AFFINE;
        w->a = aff->list[0];
        w->b = aff->list[1];
        return 0;
    }
    if (!tab->given)
        return 0;
    double *v = malloc((size_t)tab->n * sizeof *v);
    if (!v) {
        fprintf(stderr, "hta %s: out of memory\n", a->spec->name);
        return HTA_ERR_INTERNAL;
    }
    for (int i = 0; i < tab->n; i++) {
        v[i] = tab->list[i];
        if (i > 0 && v[i] < v[i - 1]) {
            free(v);
            return cli_usage_error(a, "--%s must be non-decreasing, found "
                                      "'%s'",
                                   table, tab->raw);
        }
    }
    w->kind = HTA_WREM_TABLE;
    w->k = tab->n - 1;
    w->v = v;
    *store = v;
    return 0;
}

int cli_level_costs(const cli_args *a, hta_wrem wlev[2], double *store[2],
                    int *nlev)
{
    int given[2] = {0, 0}, code;
    store[0] = store[1] = NULL;
    *nlev = 0;
    if ((code = level_cost(a, "w-rack", "w-rack-affine", &wlev[0], &store[0],
                           &given[0])) != 0 ||
        (code = level_cost(a, "w-pod", "w-pod-affine", &wlev[1], &store[1],
                           &given[1])) != 0)
        return code;
    if (given[1] && !given[0])
        return cli_usage_error(a, "--w-pod needs --w-rack");
    *nlev = given[0] + given[1];
    return 0;
}

/* ---- outputs ---------------------------------------------------------- */

int cli_files_only(const cli_args *a, const char *const *opts,
                   const char *const *paths, int n)
{
    for (int i = 0; i < n; i++)
        if (paths[i] && strcmp(paths[i], "-") == 0)
            return cli_usage_error(a, "--%s - would mix its output with the "
                                      "report on standard output: name a "
                                      "file",
                                   opts[i]);
    return 0;
}

int cli_check_outputs(const cli_args *a, const char *const *outs, int nout,
                      const char *const *ins, int nin)
{
    hta_diag d;
    hta_diag_clear(&d);
    for (int i = 0; i < nout; i++) {
        const char *p = outs[i];
        if (!p)
            continue;
        for (int j = 0; j < nin; j++)
            if (ins[j] && hta_outfile_same_file(p, ins[j]))
                return cli_usage_error(a, "output '%s' is the input '%s'", p,
                                       ins[j]);
        for (int j = 0; j < i; j++)
            if (outs[j] && strcmp(p, "-") != 0 &&
                (hta_outfile_same_output(p, outs[j]) ||
                 hta_outfile_same_file(p, outs[j])))
                return cli_usage_error(a, "two outputs name the same file "
                                          "'%s'",
                                       p);
        hta_status st = hta_outfile_check(p, &d);
        if (st != HTA_OK)
            return cli_report(st, &d);
    }
    return 0;
}

/* An output written by write(), then committed (outfile.h). */
static hta_status write_output(const char *path, const void *what,
                               hta_status (*write)(const void *, FILE *,
                                                   const char *),
                               const char *comment, hta_diag *d)
{
    hta_outfile out;
    const char *p = path ? path : "-";
    hta_status st = hta_outfile_open(&out, p, d);
    if (st != HTA_OK)
        return st;
    errno = 0;
    if ((st = write(what, out.f, comment)) != HTA_OK) {
        /* the writers fail on a failed stdio call: its errno is the
         * cause (a reader gone: EPIPE; a full disk: ENOSPC) */
        int err = errno ? errno : EIO;
        if (st == HTA_ERR_INTERNAL || err == ENOMEM)
            hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
        else
            hta_diag_set(d, st, strcmp(p, "-") ? p : "<stdout>", 0,
                         "write error: %s", strerror(err));
    } else
        st = hta_outfile_commit(&out, d);
    hta_outfile_abort(&out);
    return st;
}

static hta_status write_instance(const void *x, FILE *f, const char *c)
{
    return hta_instance_write(x, f, c);
}

static hta_status write_jobs(const void *x, FILE *f, const char *c)
{
    return hta_jobs_write(x, f, c);
}

hta_status cli_write_instance(const hta_instance *inst, const char *path,
                              const char *comment, hta_diag *d)
{
    return write_output(path, inst, write_instance, comment, d);
}

hta_status cli_write_jobs(const hta_jobs *jobs, const char *path,
                          const char *comment, hta_diag *d)
{
    return write_output(path, jobs, write_jobs, comment, d);
}

/* Generated jobs, streamed (their limits checked before: only a write
 * can fail here). */
static hta_status write_gen_jobs(const void *x, FILE *f, const char *c)
{
    hta_diag d;
    hta_diag_clear(&d);
    return hta_jobs_gen_write(x, f, c, &d);
}

hta_status cli_write_gen_jobs(const hta_jobs_gen *g, const char *path,
                              const char *comment, hta_diag *d)
{
    return write_output(path, g, write_gen_jobs, comment, d);
}

static hta_status write_cluster(const void *x, FILE *f, const char *c)
{
    return hta_cluster_write(x, f, c);
}

hta_status cli_write_cluster(const hta_cluster *c, const char *path,
                             const char *comment, hta_diag *d)
{
    return write_output(path, c, write_cluster, comment, d);
}

hta_status cli_hold(cli_held *h, hta_diag *d)
{
    h->buf = NULL;
    h->len = 0;
    if (!(h->f = open_memstream(&h->buf, &h->len)))
        return hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    return HTA_OK;
}

hta_status cli_release(cli_held *h, hta_status st, hta_diag *d)
{
    cli_output_phase();
    if (fclose(h->f) != 0 && st == HTA_OK)
        st = hta_diag_set(d, HTA_ERR_INTERNAL, NULL, 0, "out of memory");
    if (st == HTA_OK)
        fwrite(h->buf, 1, h->len, stdout);
    free(h->buf);
    h->f = NULL;
    h->buf = NULL;
    return st;
}

/* The decimals of a number's text tok[0..len) ("0.25": 2, "1e-3": 3,
 * "15": 0), at most 17. */
static int decimals(const char *tok, size_t len)
{
    size_t i = 0;
    int frac = 0;
    while (i < len && tok[i] != '.' && tok[i] != 'e' && tok[i] != 'E')
        i++;
    if (i < len && tok[i] == '.')
        for (i++; i < len && tok[i] >= '0' && tok[i] <= '9'; i++)
            frac++;
    long ex = i < len && (tok[i] == 'e' || tok[i] == 'E') ?
                  strtol(tok + i + 1, NULL, 10) :
                  0;
    long dec = frac - ex;
    return dec < 0 ? 0 : dec > 17 ? 17 : (int)dec;
}

/* The decimals of x as its shortest round-trip text writes it ("0.25":
 * 2, "1e-05": 5, "15": 0; as Python's repr, so that hta.sim's sweep=
 * gives the command's loads), at most 17. */
static int decimals_of(double x)
{
    char buf[32];
    hta_format_real(buf, x);
    return decimals(buf, strlen(buf));
}

/* x rounded to dec decimals, as the text of its digits reads. */
static double round_to(double x, int dec)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", dec, x);
    return strtod(buf, NULL);
}

int cli_sweep(const cli_args *a, double loads[CLI_MAX_SWEEP], int *n)
{
    const cli_val *sw = cli_value(a, "sweep");
    double A = sw->list[0], B = sw->list[1], step = sw->list[2];
    /* A + k STEP to the decimals of A and STEP (as the doubles read
     * write themselves shortest): "1.0,1.7,0.1" ends at 1.7, not
     * 1.7000000000000002, so that the loads of a sweep split over hosts
     * are the ones of the whole sweep */
    int da = decimals_of(A), ds = decimals_of(step), dec = da > ds ? da : ds;
    *n = 0;
    if (B < A)
        return cli_usage_error(a, "--sweep A,B,STEP needs A <= B, found "
                                  "'%s'",
                               sw->raw);
    for (int k = 0; A + k * step <= B * (1 + 1e-12); k++) {
        if (*n == CLI_MAX_SWEEP)
            return cli_usage_error(a, "--sweep: at most %d loads, found "
                                      "more in '%s'",
                                   CLI_MAX_SWEEP, sw->raw);
        loads[(*n)++] = round_to(A + k * step, dec);
    }
    return 0;
}
